// SPDX-License-Identifier: GPL-3.0-or-later
//! 学棋 / Learn: the course (`GET /api/learn`), the judge of one try (`POST /api/learn/try`) and a registered
//! account's progress (`GET`/`PUT /api/learn/progress`). The course's fields are those of docs/learn.md
//! "Interfaces"; the server reads the course's JSON into [`LearnCourse`], refusing fields these types do not have.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::Bilingual;
use crate::Color;

/// What the learner does in a step.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum LearnStepKind {
    /// Play moves on the board towards a `goal`.
    Moves,
    /// Click the squares of `answer`.
    Squares,
    /// Pick the right ones of `choices`.
    Choice,
    /// Select the legal moves among `candidates`.
    LegalMoves,
    /// Play a game against the computer at `level`.
    Play,
}

/// One item of a step's `answer`: a square or a move (squares and legal-moves steps), or the index of a choice
/// (choice steps).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum LearnAnswerItem {
    Index(u32),
    Text(String),
}

/// One step of a lesson; the fields after `solutions` depend on `kind` (and `goal`) and are left out when they do
/// not apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct LearnStep {
    pub kind: LearnStepKind,
    pub fen: String,
    pub prompt: Bilingual,
    pub hint: Bilingual,
    pub success: Bilingual,
    /// The side at the bottom of the board.
    pub orientation: Color,
    /// Learner move sequences (UCI) that complete a moves step (empty otherwise).
    pub solutions: Vec<Vec<String>>,
    /// Moves steps: `line`, `mate`, `check`, `capture`, `castle`, `promote`, `en_passant`, `stars`, `escape`,
    /// `any`, `safe`; play steps: `win`, `draw`, `finish`, `promote` (a mini-game: the first pawn to promote wins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub goal: Option<String>,
    /// The lines of a `line` or `mate` goal (UCI, the opponent's replies included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub lines: Option<Vec<Vec<String>>>,
    /// The square a `capture` goal's capture is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub target: Option<String>,
    /// The side a `castle` goal castles to: `king` or `queen`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub side: Option<String>,
    /// The piece a `promote` goal promotes to: `queen`, `rook`, `bishop`, `knight`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub role: Option<String>,
    /// The squares of a `stars` goal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stars: Option<Vec<String>>,
    /// The most moves of a `stars` goal or a play step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_moves: Option<u32>,
    /// The ways of answering check an `escape` goal asks for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub count: Option<u8>,
    /// The square an `any` goal's move starts from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub from: Option<String>,
    /// Squares and legal-moves steps: the squares or moves to select; choice steps: the indexes of the right
    /// choices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub answer: Option<Vec<LearnAnswerItem>>,
    /// A choice step's choices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub choices: Option<Vec<Bilingual>>,
    /// What a choice step's answer says about the position (`checkmate`, `stalemate`, `threefold`, …), as the
    /// course checker verified it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub verify: Option<String>,
    /// The moves (UCI) that led to a choice step's position, when they matter (repetitions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub history: Option<Vec<String>>,
    /// A legal-moves step's candidate moves (UCI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub candidates: Option<Vec<String>>,
    /// A play step's computer level (1–10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub level: Option<u8>,
    /// A `stars` goal whose enemy pieces guard squares: a move onto a guarded square is refused (reason `guarded`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub guarded: Option<bool>,
    /// A `mate` goal's length in the learner's moves, proven by the checker (every defence is mated in time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mate_in: Option<u8>,
}

/// One lesson.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct LearnLesson {
    pub id: String,
    /// The chapter's id, title and order.
    pub chapter: String,
    pub chapter_title: Bilingual,
    pub chapter_order: u32,
    /// Whether the lesson's chapter is optional (比赛规则: shown apart, not needed to finish the course).
    #[serde(default)]
    pub chapter_optional: bool,
    /// The lesson's place in the whole course, from 1.
    pub order: u32,
    pub topics: Vec<String>,
    pub title: Bilingual,
    pub intro: Option<Bilingual>,
    pub steps: Vec<LearnStep>,
}

/// One chapter and its lessons.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct LearnChapter {
    pub id: String,
    pub order: u32,
    pub title: Bilingual,
    pub summary: Bilingual,
    /// An optional chapter (比赛规则) is shown apart and not needed to finish the course.
    #[serde(default)]
    pub optional: bool,
    pub lessons: Vec<LearnLesson>,
}

/// `GET /api/learn`: the whole course.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct LearnCourse {
    pub chapters: Vec<LearnChapter>,
}

/// The body of `POST /api/learn/try`: the step's whole try history, in exactly one of the answer fields (the kind
/// of the step says which).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct LearnTry {
    /// The lesson's id.
    pub lesson: String,
    /// The step, from 0.
    pub step: u32,
    /// Moves steps: the learner's moves so far (UCI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub moves: Option<Vec<String>>,
    /// Squares steps: the squares clicked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub squares: Option<Vec<String>>,
    /// Choice steps: the indexes chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub choices: Option<Vec<u32>>,
    /// Legal-moves steps: the candidates selected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub selected: Option<Vec<String>>,
}

/// Why a try was wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LearnReason {
    /// A rules-core explanation code (`pinned`, `castle_through_check`, … — an illegal move), or `not_goal`,
    /// `wrong_square`, `wrong_choice`, `wrong_answer`.
    pub code: String,
    pub zh: String,
    pub en: String,
}

/// `POST /api/learn/try`: the verdict on the newest entry of the try.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LearnVerdict {
    /// The newest entry is right.
    pub ok: bool,
    /// The step is complete.
    pub done: bool,
    /// The scripted reply just played for the learner (UCI), if any.
    pub reply: Option<String>,
    /// The position the board should show now.
    pub fen: String,
    /// Why the newest entry is wrong (when not `ok`).
    pub reason: Option<LearnReason>,
    /// The step's hint (when not `ok`).
    pub hint: Option<Bilingual>,
    /// The step's success text (when `done`).
    pub success: Option<Bilingual>,
    /// Stars or target squares still to get (stars and squares steps).
    pub remaining: Option<Vec<String>>,
    /// The ways of answering check found so far, in order: `king`, `capture`, `block` (escape steps).
    pub found: Option<Vec<String>>,
    /// Start the step again from its FEN with an empty history (a stars step out of moves).
    pub restart: bool,
}

/// A lesson's progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LessonProgress {
    /// Indexes of the steps done (from 0), ascending.
    pub steps: Vec<u32>,
    /// 0 to 3.
    pub stars: u8,
    pub done: bool,
}

/// `GET /api/learn/progress`, and the body and answer of `PUT /api/learn/progress` (which merges the body into the
/// stored progress and answers the result): lesson id → progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LearnProgress {
    pub lessons: BTreeMap<String, LessonProgress>,
}
