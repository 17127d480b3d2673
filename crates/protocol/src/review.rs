// SPDX-License-Identifier: GPL-3.0-or-later
//! The HTTP answers of game reviews (复盘; docs/review.md "On the server"): `GET`/`POST /api/game/{id}/review`,
//! `POST /api/game/{id}/review/try` and `/api/review/settings`. The server builds these types and the web client's
//! types are generated from them (`web/src/protocol_review.ts`, by `gen-ts`), so the two cannot drift apart.
//!
//! A review's moves are guoxiang-review's `MoveReview` as the reviewer stores them; reading a stored review into
//! [`GameReviewView`] checks its shape.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::{Config, TS};

/// Where the generated bindings go, from the workspace root.
pub const TS_REVIEW_OUTPUT_PATH: &str = "web/src/protocol_review.ts";

/// A text in both languages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ReviewText {
    pub zh: String,
    pub en: String,
}

/// A review's sentence: Chinese and English, each with the piece letters of its language (`zh`: 马f3, `en`: Nf3)
/// and, when the review wrote them, with the other letters (`zh_latin`: Chinese with SAN letters, `en_chinese`:
/// English with Chinese letters) for a learner who chose them (reviews stored before these existed lack them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ReviewComment {
    pub zh: String,
    pub en: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub zh_latin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub en_chinese: Option<String>,
}

/// A move's class (guoxiang-review's `Class`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ReviewClass {
    OnlyMove,
    Best,
    Excellent,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
    MissedWin,
}

/// An evaluation from White's side: centipawns, or mate in N moves (negative: Black mates; `0` after a mating move).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum ReviewEval {
    Cp { cp: i32 },
    Mate { mate: i32 },
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ReviewedMove {
    /// 1 for White's first move.
    pub ply: u32,
    pub san: String,
    pub uci: String,
    /// After the move.
    pub eval: ReviewEval,
    /// The engine's move in the position before (UCI); `null` with a single legal move.
    pub best: Option<String>,
    /// The engine's line from the position before, SAN.
    pub best_line: Vec<String>,
    pub class: ReviewClass,
    /// Winning chances lost, percentage points (0–100).
    pub loss: f64,
    /// For inaccuracies and worse: what happened and the better move.
    pub comment: Option<ReviewComment>,
    /// The tactics tagger's motif ids the comment is about.
    #[serde(default)]
    pub motifs: Vec<String>,
    /// "Learn from your mistakes" makes an exercise of this move: a real mistake (material, a mate, or the
    /// result lost; guoxiang-review's `exercise`), decided when the review is served.
    #[serde(default)]
    pub exercise: bool,
}

/// A figure for each side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct SideFigures {
    pub white: Option<f64>,
    pub black: Option<f64>,
}

/// Moves per class for each side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct SideCounts {
    pub white: BTreeMap<ReviewClass, u32>,
    pub black: BTreeMap<ReviewClass, u32>,
}

/// A finished review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GameReviewView {
    /// Nodes searched per position.
    pub nodes: u64,
    pub moves: Vec<ReviewedMove>,
    /// 0–100 (`null`: the side had no move with a choice).
    pub accuracy: SideFigures,
    /// Average centipawn loss.
    pub acpl: SideFigures,
    pub counts: SideCounts,
    /// Searched in a player's browser and checked by the server (docs/review.md, "Reviews made in the browser").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub browser: bool,
}

/// Where a game's review is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ReviewStatusCode {
    /// Nobody asked.
    None,
    Queued,
    Running,
    Done,
    Failed,
}

/// Positions searched of all.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ReviewProgress {
    pub done: u32,
    pub total: u32,
}

/// `GET`/`POST /api/game/{id}/review`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ReviewState {
    pub status: ReviewStatusCode,
    /// Nodes per position (absent when nobody asked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub nodes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub progress: Option<ReviewProgress>,
    /// While queued: 1 is next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub queue_place: Option<u32>,
    /// When done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub review: Option<GameReviewView>,
    /// When failed: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<ReviewText>,
    /// While queued: the server is busy (or has no analysis workers of its own), so a player's browser that can run
    /// the engine should make the review's searches itself and send them (`POST /api/game/{id}/review/browser`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub browser: bool,
}

/// The body of `POST /api/game/{id}/review/try`: a try in the position before ply `ply`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ReviewTryRequest {
    /// 1 for White's first move.
    pub ply: u32,
    /// The move tried (UCI).
    pub uci: String,
}

/// `POST /api/game/{id}/review/try` — "learn from your mistakes": the verdict on one try.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ReviewTryAnswer {
    /// The engine's move, or one that loses less than an inaccuracy.
    pub correct: bool,
    /// The engine's move in that position (UCI).
    pub best: Option<String>,
    /// Winning chances the try loses, percentage points.
    pub loss: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<ReviewComment>,
}

/// `GET`/`PUT /api/review/settings`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ReviewSettings {
    /// Review every finished game of this account (games against the computer always are).
    pub auto_review: bool,
}

/// The TypeScript bindings of this module.
pub fn review_typescript() -> String {
    let cfg = Config::new().with_large_int("number");
    let decls = vec![
        (<ReviewText as TS>::docs(), <ReviewText as TS>::decl(&cfg)),
        (<ReviewComment as TS>::docs(), <ReviewComment as TS>::decl(&cfg)),
        (<ReviewClass as TS>::docs(), <ReviewClass as TS>::decl(&cfg)),
        (<ReviewEval as TS>::docs(), <ReviewEval as TS>::decl(&cfg)),
        (<ReviewedMove as TS>::docs(), <ReviewedMove as TS>::decl(&cfg)),
        (<SideFigures as TS>::docs(), <SideFigures as TS>::decl(&cfg)),
        (<SideCounts as TS>::docs(), <SideCounts as TS>::decl(&cfg)),
        (<GameReviewView as TS>::docs(), <GameReviewView as TS>::decl(&cfg)),
        (<ReviewStatusCode as TS>::docs(), <ReviewStatusCode as TS>::decl(&cfg)),
        (<ReviewProgress as TS>::docs(), <ReviewProgress as TS>::decl(&cfg)),
        (<ReviewState as TS>::docs(), <ReviewState as TS>::decl(&cfg)),
        (<ReviewTryRequest as TS>::docs(), <ReviewTryRequest as TS>::decl(&cfg)),
        (<ReviewTryAnswer as TS>::docs(), <ReviewTryAnswer as TS>::decl(&cfg)),
        (<ReviewSettings as TS>::docs(), <ReviewSettings as TS>::decl(&cfg)),
    ];
    crate::ts::bindings_file("crates/protocol/src/review.rs", &[], decls)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored review as guoxiang-review writes it reads into the view, and the view writes what the client
    /// expects (evals as `{cp}`/`{mate}`, classes in snake case, optional fields left out).
    #[test]
    fn stored_reviews_read_and_answers_write_as_the_client_expects() {
        let stored = r#"{"nodes": 5000, "moves": [
            {"ply": 1, "san": "e4", "uci": "e2e4", "eval": {"cp": 20}, "best": "e2e4", "best_line": ["e4"],
             "class": "best", "loss": 0.0, "comment": null, "motifs": []},
            {"ply": 2, "san": "f6", "uci": "f7f6", "eval": {"mate": 2}, "best": "e7e5", "best_line": ["e5"],
             "class": "missed_win", "loss": 30.5, "comment": {"zh": "让对方两步杀", "en": "allows mate in 2"},
             "motifs": ["mate_in_2"]}],
            "accuracy": {"white": 99.5, "black": null}, "acpl": {"white": 0.0, "black": 300.0},
            "counts": {"white": {"best": 1}, "black": {"missed_win": 1}}, "pgn": {"zh": "…", "en": "…"}}"#;
        let v: GameReviewView = serde_json::from_str(stored).unwrap();
        assert_eq!(v.moves[1].eval, ReviewEval::Mate { mate: 2 });
        assert_eq!(v.moves[1].class, ReviewClass::MissedWin);
        assert_eq!(v.counts.black[&ReviewClass::MissedWin], 1);
        let state = ReviewState {
            status: ReviewStatusCode::Done,
            nodes: Some(5000),
            progress: Some(ReviewProgress { done: 3, total: 3 }),
            queue_place: None,
            review: Some(v),
            error: None,
            browser: false,
        };
        let j = serde_json::to_value(&state).unwrap();
        assert_eq!(j["status"], "done");
        assert_eq!(j["review"]["moves"][0]["eval"], serde_json::json!({"cp": 20}));
        assert_eq!(j["review"]["moves"][1]["class"], "missed_win");
        assert!(j.get("queue_place").is_none() && j.get("error").is_none(), "{j}");
        // A stored review of another shape is refused, not half-read.
        assert!(serde_json::from_str::<GameReviewView>(r#"{"nodes": 1, "moves": [{"ply": 1}]}"#).is_err());
        assert!(serde_json::from_str::<ReviewSettings>(r#"{"auto_review": true, "x": 1}"#).is_err());
    }

    #[test]
    fn bindings_declare_every_type_without_any() {
        let ts = review_typescript();
        for name in
            ["ReviewState", "GameReviewView", "ReviewedMove", "ReviewTryAnswer", "ReviewSettings", "ReviewClass"]
        {
            assert!(ts.contains(&format!("export type {name} ")), "{name} missing:\n{ts}");
        }
        for bad in [": any", "bigint", ": unknown"] {
            assert!(!ts.contains(bad), "{bad} in:\n{ts}");
        }
    }
}
