//! The course as typed values, and how TOML files become them.
//!
//! A file is first read into "raw" structs where almost every field is optional, so that one pass can report every
//! missing or misplaced field of a file instead of stopping at the first (serde stops at the first error; TOML
//! syntax errors and unknown field names still end the file, with their line). The raw structs are then converted
//! into [`Course`], [`Chapter`], [`Lesson`] and [`Step`]; what the rules core must prove is left to `check`.

use guoxiang_core::Square;
use serde::{Deserialize, Serialize};

use crate::CheckError;

/// A text in both languages of the course.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Text {
    pub zh: String,
    pub en: String,
}

/// The whole course: chapters in file-name order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Course {
    pub chapters: Vec<Chapter>,
}

/// One chapter: one file, `NN-<name>.toml`.
#[derive(Clone, Debug, PartialEq)]
pub struct Chapter {
    pub id: String,
    /// `NN`, from the file name.
    pub order: u32,
    /// The file name it came from (for error messages).
    pub file: String,
    pub title: Text,
    pub summary: Text,
    /// `[chapter] optional = true`: shown apart in the index, not needed to finish the course, and free of the
    /// rule that a chapter after the first game ends with a `play` step.
    pub optional: bool,
    pub lessons: Vec<Lesson>,
}

/// One lesson: an optional introduction and its steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    pub id: String,
    pub topics: Vec<String>,
    pub title: Text,
    pub intro: Option<Text>,
    pub steps: Vec<Step>,
}

/// Which side of the board is at the bottom.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    White,
    Black,
}

/// One step of a lesson. Its JSON (a study's interactive step, `crate::study`) has exactly the fields of the course
/// file's `[[lessons.steps]]` and is read by the same code, so it is checked the same way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawStep", into = "RawStep")]
pub struct Step {
    /// A full FEN; the checker proves it is a legal position.
    pub fen: String,
    pub prompt: Text,
    pub hint: Text,
    pub success: Text,
    /// `None`: the side to move.
    pub orientation: Option<Side>,
    /// Learner move sequences (UCI) that complete the step (moves steps only; empty otherwise).
    pub solutions: Vec<Vec<String>>,
    pub kind: StepKind,
}

/// What the learner does in a step, with the fields of that kind.
#[derive(Clone, Debug, PartialEq)]
pub enum StepKind {
    Moves { goal: Goal, wrong: Vec<WrongMoves> },
    Squares { targets: Vec<Square>, wrong: Vec<WrongSquare> },
    Choice { choices: Vec<Text>, answer: Vec<usize>, verify: Option<Verify>, history: Vec<String> },
    LegalMoves { candidates: Vec<String>, answer: Vec<String> },
    Play { level: u8, goal: PlayGoal, max_moves: Option<u32> },
}

impl StepKind {
    /// The `kind` string of the file format.
    pub fn name(&self) -> &'static str {
        match self {
            StepKind::Moves { .. } => "moves",
            StepKind::Squares { .. } => "squares",
            StepKind::Choice { .. } => "choice",
            StepKind::LegalMoves { .. } => "legal_moves",
            StepKind::Play { .. } => "play",
        }
    }
}

/// What completes a `moves` step.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    Line {
        lines: Vec<Vec<String>>,
    },
    /// `mate_in`: the checker proves that the first move of every solution forces mate in that many moves
    /// against every defence.
    Mate {
        lines: Vec<Vec<String>>,
        mate_in: Option<u8>,
    },
    Check,
    Capture {
        target: Option<Square>,
    },
    Castle {
        side: Option<CastleSide>,
    },
    Promote {
        role: Option<PromoteRole>,
    },
    EnPassant,
    /// `guarded`: the opponent's pieces guard squares, and a move onto one is refused (reason `guarded`).
    Stars {
        stars: Vec<Square>,
        max_moves: Option<u32>,
        guarded: bool,
    },
    Escape {
        count: u8,
    },
    Any {
        from: Option<Square>,
    },
    /// After the learner's move none of the learner's pieces can be won by the opponent's captures (static
    /// exchange, `crate::safety`); with `target`, the piece that stood there is one of them.
    Safe {
        target: Option<Square>,
    },
}

impl Goal {
    /// The `goal` string of the file format.
    pub fn name(&self) -> &'static str {
        match self {
            Goal::Line { .. } => "line",
            Goal::Mate { .. } => "mate",
            Goal::Check => "check",
            Goal::Capture { .. } => "capture",
            Goal::Castle { .. } => "castle",
            Goal::Promote { .. } => "promote",
            Goal::EnPassant => "en_passant",
            Goal::Stars { .. } => "stars",
            Goal::Escape { .. } => "escape",
            Goal::Any { .. } => "any",
            Goal::Safe { .. } => "safe",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CastleSide {
    King,
    Queen,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PromoteRole {
    Queen,
    Rook,
    Bishop,
    Knight,
}

impl PromoteRole {
    pub fn role(self) -> guoxiang_core::Role {
        match self {
            PromoteRole::Queen => guoxiang_core::Role::Queen,
            PromoteRole::Rook => guoxiang_core::Role::Rook,
            PromoteRole::Bishop => guoxiang_core::Role::Bishop,
            PromoteRole::Knight => guoxiang_core::Role::Knight,
        }
    }
}

/// What a `play` step asks of the game against the computer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayGoal {
    Win,
    Draw,
    Finish,
    /// A mini-game: the learner wins by promoting a pawn first.
    Promote,
}

/// What a `choice` step's `verify` says about its position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verify {
    Checkmate,
    Stalemate,
    Check,
    NotCheck,
    InsufficientMaterial,
    DeadPosition,
    Fivefold,
    Threefold,
    FiftyMoves,
    /// Article 9.6.2: 75 moves by each side without a capture or a pawn move, the game drawn without a claim.
    SeventyFive,
    WhiteCannotMate,
    BlackCannotMate,
}

impl Verify {
    const ALL: [(&'static str, Verify); 12] = [
        ("checkmate", Verify::Checkmate),
        ("stalemate", Verify::Stalemate),
        ("check", Verify::Check),
        ("not_check", Verify::NotCheck),
        ("insufficient_material", Verify::InsufficientMaterial),
        ("dead_position", Verify::DeadPosition),
        ("fivefold", Verify::Fivefold),
        ("threefold", Verify::Threefold),
        ("fifty_moves", Verify::FiftyMoves),
        ("seventyfive", Verify::SeventyFive),
        ("white_cannot_mate", Verify::WhiteCannotMate),
        ("black_cannot_mate", Verify::BlackCannotMate),
    ];

    pub fn name(self) -> &'static str {
        Verify::ALL.iter().find(|(_, v)| *v == self).map_or("", |(n, _)| n)
    }
}

/// A try the checker must see rejected in a `moves` step.
#[derive(Clone, Debug, PartialEq)]
pub struct WrongMoves {
    pub moves: Vec<String>,
    /// The reason code the learner must get (`not_goal` or a rules-core explanation code).
    pub reason: String,
    /// What to tell the learner instead of the hint (for `not_goal`).
    pub why: Option<Text>,
}

/// A wrong click with its own explanation in a `squares` step.
#[derive(Clone, Debug, PartialEq)]
pub struct WrongSquare {
    pub square: Square,
    pub why: Option<Text>,
}

/// The fixed topic ids (docs/learn.md "Topics"); every one must have a lesson.
pub const TOPICS: &[&str] = &[
    "board_setup",
    "coordinates",
    "king",
    "queen",
    "rook",
    "bishop",
    "knight",
    "pawn",
    "capture",
    "en_passant",
    "promotion",
    "castling",
    "castling_conditions",
    "check",
    "answer_check",
    "checkmate",
    "stalemate",
    "draw_agreement",
    "threefold_repetition",
    "fifty_moves",
    "dead_position",
    "perpetual_check",
    "time_forfeit",
    "touch_move",
    "notation",
    "piece_values",
    "mate_kq_k",
    "mate_kr_k",
    "mate_two_rooks",
    "opening_principles",
    "opening_families",
    "tactics_intro",
    "strategy_tips",
    // Second edition (issue 39): safety, mates, pawn endings, the seeds' tactics, traps, the optional rules.
    "protection",
    "hanging_pieces",
    "counting",
    "mate_in_one",
    "mate_in_two",
    "mate_patterns",
    "pawn_endings",
    "opposition",
    "square_of_the_pawn",
    "key_squares",
    "tactics",
    "opening_traps",
    "tournament_rules",
    "first_game",
];

// ----- the raw file -----

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFile {
    chapter: RawChapter,
    #[serde(default)]
    lessons: Vec<RawLesson>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawChapter {
    id: String,
    title: Option<RawText>,
    summary: Option<RawText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    optional: Option<bool>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawLesson {
    id: String,
    #[serde(default)]
    topics: Vec<String>,
    title: Option<RawText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    intro: Option<RawText>,
    #[serde(default)]
    steps: Vec<RawStep>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawText {
    zh: Option<String>,
    en: Option<String>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWrong {
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    square: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<RawText>,
}

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStep {
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prompt: Option<RawText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<RawText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    success: Option<RawText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    orientation: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<Vec<Vec<String>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wrong: Option<Vec<RawWrong>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lines: Option<Vec<Vec<String>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stars: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_moves: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    side: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    targets: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    choices: Option<Vec<RawText>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<toml::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verify: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    history: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    candidates: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    guarded: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mate_in: Option<i64>,
}

impl RawStep {
    /// The optional fields present, by name (to report fields that do not belong to the step's kind).
    fn present(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        let mut f = |name, here: bool| {
            if here {
                v.push(name);
            }
        };
        f("goal", self.goal.is_some());
        f("solutions", self.solutions.is_some());
        f("wrong", self.wrong.is_some());
        f("lines", self.lines.is_some());
        f("stars", self.stars.is_some());
        f("max_moves", self.max_moves.is_some());
        f("count", self.count.is_some());
        f("target", self.target.is_some());
        f("side", self.side.is_some());
        f("role", self.role.is_some());
        f("from", self.from.is_some());
        f("targets", self.targets.is_some());
        f("choices", self.choices.is_some());
        f("answer", self.answer.is_some());
        f("verify", self.verify.is_some());
        f("history", self.history.is_some());
        f("candidates", self.candidates.is_some());
        f("level", self.level.is_some());
        f("guarded", self.guarded.is_some());
        f("mate_in", self.mate_in.is_some());
        v
    }
}

// ----- conversion -----

/// Collects the errors of one file while converting it.
struct Ctx<'a> {
    file: &'a str,
    lesson: Option<String>,
    step: Option<usize>,
    errors: &'a mut Vec<CheckError>,
}

impl Ctx<'_> {
    fn err(&mut self, message: impl Into<String>) {
        self.errors.push(CheckError::file(self.file, self.lesson.clone(), self.step, message));
    }

    fn text(&mut self, field: &str, t: Option<RawText>) -> Option<Text> {
        let Some(t) = t else {
            self.err(format!("`{field}` is missing (a text {{ zh = \"…\", en = \"…\" }})"));
            return None;
        };
        self.some_text(field, t)
    }

    fn some_text(&mut self, field: &str, t: RawText) -> Option<Text> {
        let mut ok = true;
        for (lang, s) in [("zh", &t.zh), ("en", &t.en)] {
            match s {
                None => {
                    self.err(format!("`{field}` has no {lang} text"));
                    ok = false;
                }
                Some(s) if s.trim().is_empty() => {
                    self.err(format!("`{field}`: the {lang} text is empty"));
                    ok = false;
                }
                Some(_) => {}
            }
        }
        ok.then(|| Text { zh: t.zh.unwrap_or_default(), en: t.en.unwrap_or_default() })
    }

    fn square(&mut self, field: &str, s: &str) -> Option<Square> {
        let sq = Square::parse(s);
        if sq.is_none() {
            self.err(format!("`{field}`: {s:?} is not a square (a1 … h8)"));
        }
        sq
    }

    fn squares(&mut self, field: &str, v: &[String]) -> Vec<Square> {
        let squares: Vec<Square> = v.iter().filter_map(|s| self.square(field, s)).collect();
        if v.is_empty() {
            self.err(format!("`{field}` is empty"));
        }
        for (i, s) in squares.iter().enumerate() {
            if squares[..i].contains(s) {
                self.err(format!("`{field}` lists {s} twice"));
            }
        }
        squares
    }
}

/// The chapter order of a file name `NN-<name>.toml`.
fn file_order(name: &str) -> Option<u32> {
    let stem = name.strip_suffix(".toml")?;
    let (nn, rest) = stem.split_once('-')?;
    if nn.is_empty() || rest.is_empty() || !nn.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    nn.parse().ok()
}

/// Whether an id is `[a-z0-9_]+`.
pub(crate) fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Line and column (1-based) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..text.floor_char_boundary(offset.min(text.len()))];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Reads one file; `None` when it does not parse (the error is recorded).
pub(crate) fn parse_file(name: &str, contents: &str, errors: &mut Vec<CheckError>) -> Option<Chapter> {
    let Some(order) = file_order(name) else {
        errors.push(CheckError::file(
            name,
            None,
            None,
            "the file name must be NN-<chapter>.toml (NN: the order, like 01)",
        ));
        return None;
    };
    let raw: RawFile = match toml::from_str(contents) {
        Ok(r) => r,
        Err(e) => {
            let at = e.span().map(|s| line_col(contents, s.start));
            let msg = e.message().trim().to_owned();
            let message = match at {
                Some((l, c)) => format!("line {l}, column {c}: {msg}"),
                None => msg,
            };
            errors.push(CheckError::file(name, None, None, message));
            return None;
        }
    };
    let mut cx = Ctx { file: name, lesson: None, step: None, errors };
    let id = raw.chapter.id;
    if !valid_id(&id) {
        cx.err(format!("the chapter id {id:?} must be made of a-z, 0-9 and _"));
    }
    let title = cx.text("chapter.title", raw.chapter.title);
    let summary = cx.text("chapter.summary", raw.chapter.summary);
    let mut lessons = Vec::new();
    if raw.lessons.is_empty() {
        cx.err("the chapter has no [[lessons]]");
    }
    for l in raw.lessons {
        if let Some(lesson) = convert_lesson(&mut cx, l) {
            lessons.push(lesson);
        }
    }
    Some(Chapter {
        id,
        order,
        file: name.to_owned(),
        title: title.unwrap_or_else(empty_text),
        summary: summary.unwrap_or_else(empty_text),
        optional: raw.chapter.optional.unwrap_or(false),
        lessons,
    })
}

fn empty_text() -> Text {
    Text { zh: String::new(), en: String::new() }
}

fn convert_lesson(cx: &mut Ctx<'_>, l: RawLesson) -> Option<Lesson> {
    cx.lesson = Some(l.id.clone());
    cx.step = None;
    if !valid_id(&l.id) {
        cx.err(format!("the lesson id {:?} must be made of a-z, 0-9 and _", l.id));
    }
    if l.topics.is_empty() {
        cx.err("`topics` is missing or empty");
    }
    for t in &l.topics {
        if !TOPICS.contains(&t.as_str()) {
            cx.err(format!("unknown topic {t:?} (the topics are listed in docs/learn.md)"));
        }
    }
    let title = cx.text("title", l.title);
    let intro = l.intro.and_then(|t| cx.some_text("intro", t));
    if l.steps.is_empty() {
        cx.err("the lesson has no [[lessons.steps]]");
    }
    let mut steps = Vec::new();
    let mut ok = true;
    for (i, s) in l.steps.into_iter().enumerate() {
        cx.step = Some(i);
        match convert_step(cx, s) {
            Some(s) => steps.push(s),
            None => ok = false,
        }
    }
    cx.step = None;
    // A lesson with a broken step is kept only if the broken step could still be judged; it is not.
    (ok && title.is_some()).then(|| Lesson {
        id: l.id,
        topics: l.topics,
        title: title.unwrap_or_else(empty_text),
        intro,
        steps,
    })
}

/// The fields each kind (and goal) may have besides the common ones.
fn allowed_fields(kind: &str, goal: Option<&str>) -> &'static [&'static str] {
    match (kind, goal) {
        ("moves", Some("line")) => &["goal", "solutions", "wrong", "lines"],
        ("moves", Some("mate")) => &["goal", "solutions", "wrong", "lines", "mate_in"],
        ("moves", Some("capture")) => &["goal", "solutions", "wrong", "target"],
        ("moves", Some("castle")) => &["goal", "solutions", "wrong", "side"],
        ("moves", Some("promote")) => &["goal", "solutions", "wrong", "role"],
        ("moves", Some("stars")) => &["goal", "solutions", "wrong", "stars", "max_moves", "guarded"],
        ("moves", Some("escape")) => &["goal", "solutions", "wrong", "count"],
        ("moves", Some("any")) => &["goal", "solutions", "wrong", "from"],
        ("moves", Some("safe")) => &["goal", "solutions", "wrong", "target"],
        ("moves", _) => &["goal", "solutions", "wrong"],
        ("squares", _) => &["targets", "wrong"],
        ("choice", _) => &["choices", "answer", "verify", "history"],
        ("legal_moves", _) => &["candidates", "answer"],
        ("play", _) => &["level", "goal", "max_moves", "solutions"],
        _ => &[],
    }
}

fn convert_step(cx: &mut Ctx<'_>, s: RawStep) -> Option<Step> {
    let kind_name = s.kind.clone().unwrap_or_default();
    if s.kind.is_none() {
        cx.err("`kind` is missing (moves, squares, choice, legal_moves or play)");
        return None;
    }
    if !["moves", "squares", "choice", "legal_moves", "play"].contains(&kind_name.as_str()) {
        cx.err(format!("unknown kind {kind_name:?} (moves, squares, choice, legal_moves or play)"));
        return None;
    }
    let allowed = allowed_fields(&kind_name, s.goal.as_deref());
    for f in s.present() {
        if !allowed.contains(&f) {
            let goal = s.goal.as_deref().map(|g| format!(", goal = {g:?}")).unwrap_or_default();
            cx.err(format!("`{f}` does not belong to a step of kind = {kind_name:?}{goal}"));
        }
    }
    let fen = s.fen.clone();
    if fen.is_none() {
        cx.err("`fen` is missing");
    }
    let prompt = cx.text("prompt", s.prompt);
    let hint = cx.text("hint", s.hint);
    let success = cx.text("success", s.success);
    let orientation = match s.orientation.as_deref() {
        None => None,
        Some("white") => Some(Side::White),
        Some("black") => Some(Side::Black),
        Some(o) => {
            cx.err(format!("`orientation` {o:?} must be \"white\" or \"black\""));
            None
        }
    };
    let mut ok = fen.is_some() && prompt.is_some() && hint.is_some() && success.is_some();
    let mut solutions = s.solutions.unwrap_or_default();
    let kind = match kind_name.as_str() {
        "moves" => {
            if solutions.is_empty() {
                cx.err("`solutions` is missing or empty (a moves step needs at least one)");
                ok = false;
            }
            let wrong = convert_wrong_moves(cx, s.wrong.unwrap_or_default());
            let goal = convert_goal(
                cx,
                s.goal.as_deref(),
                s.lines,
                s.stars,
                s.max_moves,
                s.count,
                s.target,
                s.side,
                s.role,
                s.from,
                s.guarded,
                s.mate_in,
            );
            StepKind::Moves { goal: goal?, wrong: wrong? }
        }
        "squares" => {
            let targets = match &s.targets {
                Some(t) => cx.squares("targets", t),
                None => {
                    cx.err("`targets` is missing");
                    return None;
                }
            };
            let mut wrong = Vec::new();
            for w in s.wrong.unwrap_or_default() {
                if w.moves.is_some() || w.reason.is_some() {
                    cx.err("a `wrong` entry of a squares step has `square` (and optional `why`), not `moves`/`reason`");
                }
                let Some(sq) = w.square.as_deref().and_then(|q| cx.square("wrong.square", q)) else {
                    if w.square.is_none() {
                        cx.err("a `wrong` entry has no `square`");
                    }
                    ok = false;
                    continue;
                };
                let why = w.why.and_then(|t| cx.some_text("wrong.why", t));
                wrong.push(WrongSquare { square: sq, why });
            }
            StepKind::Squares { targets, wrong }
        }
        "choice" => {
            let raw = s.choices.unwrap_or_default();
            if !(2..=5).contains(&raw.len()) {
                cx.err(format!("`choices` must hold 2 to 5 texts, not {}", raw.len()));
                ok = false;
            }
            let mut choices = Vec::new();
            for (i, t) in raw.into_iter().enumerate() {
                match cx.some_text(&format!("choices[{i}]"), t) {
                    Some(t) => choices.push(t),
                    None => ok = false,
                }
            }
            let mut answer = Vec::new();
            match &s.answer {
                Some(toml::Value::Array(a)) if !a.is_empty() => {
                    for v in a {
                        match v.as_integer() {
                            Some(i) if (0..choices.len() as i64).contains(&i) => {
                                let i = i as usize;
                                if answer.contains(&i) {
                                    cx.err(format!("`answer` lists choice {i} twice"));
                                }
                                answer.push(i);
                            }
                            _ => {
                                cx.err(format!(
                                    "`answer`: {v} is not the index of a choice (0 to {})",
                                    choices.len().saturating_sub(1)
                                ));
                                ok = false;
                            }
                        }
                    }
                }
                _ => {
                    cx.err("`answer` must be a non-empty list of choice indices (from 0)");
                    ok = false;
                }
            }
            let verify = match s.verify.as_deref() {
                None => None,
                Some(v) => match Verify::ALL.iter().find(|(n, _)| *n == v) {
                    Some((_, v)) => Some(*v),
                    None => {
                        let known: Vec<&str> = Verify::ALL.iter().map(|(n, _)| *n).collect();
                        cx.err(format!("unknown `verify` {v:?} (known: {})", known.join(", ")));
                        ok = false;
                        None
                    }
                },
            };
            let history = s.history.unwrap_or_default();
            if !history.is_empty()
                && !matches!(
                    verify,
                    Some(Verify::Fivefold | Verify::Threefold | Verify::FiftyMoves | Verify::SeventyFive)
                )
            {
                cx.err("`history` goes with verify = \"fivefold\", \"threefold\", \"fifty_moves\" or \"seventyfive\"");
            }
            StepKind::Choice { choices, answer, verify, history }
        }
        "legal_moves" => {
            let candidates = s.candidates.unwrap_or_default();
            if candidates.len() < 2 {
                cx.err("`candidates` must list at least 2 moves");
                ok = false;
            }
            let answer = match s.answer {
                Some(toml::Value::Array(a)) => {
                    let mut v = Vec::new();
                    for x in a {
                        match x.as_str() {
                            Some(m) => v.push(m.to_owned()),
                            None => {
                                cx.err(format!("`answer`: {x} is not a move (UCI text like \"e2e4\")"));
                                ok = false;
                            }
                        }
                    }
                    v
                }
                _ => {
                    cx.err("`answer` must be the list of the legal candidates (it may be empty: answer = [])");
                    ok = false;
                    Vec::new()
                }
            };
            StepKind::LegalMoves { candidates, answer }
        }
        _ => {
            let level = match s.level {
                Some(l @ 1..=10) => l as u8,
                other => {
                    cx.err(format!(
                        "`level` must be 1 to 10{}",
                        other.map(|l| format!(", not {l}")).unwrap_or_default()
                    ));
                    ok = false;
                    1
                }
            };
            let goal = match s.goal.as_deref() {
                Some("win") => PlayGoal::Win,
                Some("draw") => PlayGoal::Draw,
                Some("finish") => PlayGoal::Finish,
                Some("promote") => PlayGoal::Promote,
                other => {
                    cx.err(format!(
                        "a play step's `goal` must be \"win\", \"draw\", \"finish\" or \"promote\"{}",
                        got(other)
                    ));
                    ok = false;
                    PlayGoal::Finish
                }
            };
            let max_moves = positive(cx, "max_moves", s.max_moves);
            if !solutions.is_empty() {
                cx.err("a play step has no `solutions` (the computer's replies vary): solutions = [] or none");
            }
            solutions.clear();
            StepKind::Play { level, goal, max_moves }
        }
    };
    ok.then(|| Step {
        fen: fen.unwrap_or_default(),
        prompt: prompt.unwrap_or_else(empty_text),
        hint: hint.unwrap_or_else(empty_text),
        success: success.unwrap_or_else(empty_text),
        orientation,
        solutions,
        kind,
    })
}

fn got(v: Option<&str>) -> String {
    v.map(|g| format!(", not {g:?}")).unwrap_or_else(|| " (it is missing)".into())
}

fn positive(cx: &mut Ctx<'_>, field: &str, v: Option<i64>) -> Option<u32> {
    match v {
        None => None,
        Some(n) if (1..=1000).contains(&n) => Some(n as u32),
        Some(n) => {
            cx.err(format!("`{field}` must be 1 to 1000, not {n}"));
            None
        }
    }
}

fn convert_wrong_moves(cx: &mut Ctx<'_>, raw: Vec<RawWrong>) -> Option<Vec<WrongMoves>> {
    let mut ok = true;
    let mut v = Vec::new();
    for w in raw {
        if w.square.is_some() {
            cx.err("a `wrong` entry of a moves step has `moves` and `reason`, not `square`");
        }
        let why = w.why.and_then(|t| cx.some_text("wrong.why", t));
        match (w.moves, w.reason) {
            (Some(moves), Some(reason)) if !moves.is_empty() => v.push(WrongMoves { moves, reason, why }),
            _ => {
                cx.err("a `wrong` entry needs `moves` (non-empty) and `reason`");
                ok = false;
            }
        }
    }
    ok.then_some(v)
}

#[allow(clippy::too_many_arguments)]
fn convert_goal(
    cx: &mut Ctx<'_>,
    goal: Option<&str>,
    lines: Option<Vec<Vec<String>>>,
    stars: Option<Vec<String>>,
    max_moves: Option<i64>,
    count: Option<i64>,
    target: Option<String>,
    side: Option<String>,
    role: Option<String>,
    from: Option<String>,
    guarded: Option<bool>,
    mate_in: Option<i64>,
) -> Option<Goal> {
    let g = match goal {
        Some("line") => match lines {
            Some(l) if !l.is_empty() && l.iter().all(|l| !l.is_empty()) => Goal::Line { lines: l },
            _ => {
                cx.err("goal = \"line\" needs `lines`, each a non-empty list of moves");
                return None;
            }
        },
        Some("mate") => {
            let mate_in = match mate_in {
                None => None,
                Some(n @ 1..=3) => Some(n as u8),
                Some(n) => {
                    cx.err(format!("`mate_in` must be 1 to 3, not {n}"));
                    return None;
                }
            };
            let lines = lines.unwrap_or_default();
            if mate_in.is_some_and(|n| n > 1) && lines.is_empty() {
                cx.err("goal = \"mate\" with mate_in > 1 needs `lines` scripting a defence (the judge plays it)");
                return None;
            }
            Goal::Mate { lines, mate_in }
        }
        Some("check") => Goal::Check,
        Some("capture") => Goal::Capture { target: target.and_then(|t| cx.square("target", &t)) },
        Some("castle") => Goal::Castle {
            side: match side.as_deref() {
                None => None,
                Some("king") => Some(CastleSide::King),
                Some("queen") => Some(CastleSide::Queen),
                Some(s) => {
                    cx.err(format!("`side` {s:?} must be \"king\" or \"queen\""));
                    return None;
                }
            },
        },
        Some("promote") => Goal::Promote {
            role: match role.as_deref() {
                None => None,
                Some("queen") => Some(PromoteRole::Queen),
                Some("rook") => Some(PromoteRole::Rook),
                Some("bishop") => Some(PromoteRole::Bishop),
                Some("knight") => Some(PromoteRole::Knight),
                Some(r) => {
                    cx.err(format!("`role` {r:?} must be \"queen\", \"rook\", \"bishop\" or \"knight\""));
                    return None;
                }
            },
        },
        Some("en_passant") => Goal::EnPassant,
        Some("stars") => {
            let Some(stars) = stars else {
                cx.err("goal = \"stars\" needs `stars`");
                return None;
            };
            let squares = cx.squares("stars", &stars);
            if squares.len() != stars.len() {
                return None;
            }
            Goal::Stars {
                stars: squares,
                max_moves: positive(cx, "max_moves", max_moves),
                guarded: guarded.unwrap_or(false),
            }
        }
        Some("escape") => match count {
            Some(n @ 1..=3) => Goal::Escape { count: n as u8 },
            other => {
                cx.err(format!(
                    "goal = \"escape\" needs `count` = 1 to 3{}",
                    other.map(|n| format!(", not {n}")).unwrap_or_default()
                ));
                return None;
            }
        },
        Some("any") => Goal::Any { from: from.and_then(|f| cx.square("from", &f)) },
        Some("safe") => match target {
            None => Goal::Safe { target: None },
            Some(t) => Goal::Safe { target: Some(cx.square("target", &t)?) },
        },
        other => {
            cx.err(format!(
                "a moves step's `goal` must be line, mate, check, capture, castle, promote, en_passant, stars, escape, \
                 any or safe{}",
                got(other)
            ));
            return None;
        }
    };
    Some(g)
}

// ----- writing: typed values back into the file's form -----

impl From<&Text> for RawText {
    fn from(t: &Text) -> RawText {
        RawText { zh: Some(t.zh.clone()), en: Some(t.en.clone()) }
    }
}

fn raw_squares(v: &[Square]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn raw_goal(goal: &Goal, r: &mut RawStep) {
    r.goal = Some(goal.name().to_owned());
    match goal {
        Goal::Line { lines } => r.lines = Some(lines.clone()),
        Goal::Mate { lines, mate_in } => {
            r.lines = (!lines.is_empty()).then(|| lines.clone());
            r.mate_in = mate_in.map(i64::from);
        }
        Goal::Check | Goal::EnPassant => {}
        Goal::Capture { target } | Goal::Safe { target } => r.target = target.map(|t| t.to_string()),
        Goal::Castle { side } => {
            r.side = side.map(|s| if s == CastleSide::King { "king" } else { "queen" }.to_owned());
        }
        Goal::Promote { role } => {
            r.role = role.map(|p| {
                match p {
                    PromoteRole::Queen => "queen",
                    PromoteRole::Rook => "rook",
                    PromoteRole::Bishop => "bishop",
                    PromoteRole::Knight => "knight",
                }
                .to_owned()
            });
        }
        Goal::Stars { stars, max_moves, guarded } => {
            r.stars = Some(raw_squares(stars));
            r.max_moves = max_moves.map(i64::from);
            r.guarded = guarded.then_some(true);
        }
        Goal::Escape { count } => r.count = Some(i64::from(*count)),
        Goal::Any { from } => r.from = from.map(|f| f.to_string()),
    }
}

fn raw_kind(kind: &StepKind, r: &mut RawStep) {
    match kind {
        StepKind::Moves { goal, wrong } => {
            raw_goal(goal, r);
            r.wrong = (!wrong.is_empty()).then(|| {
                wrong
                    .iter()
                    .map(|w| RawWrong {
                        moves: Some(w.moves.clone()),
                        square: None,
                        reason: Some(w.reason.clone()),
                        why: w.why.as_ref().map(RawText::from),
                    })
                    .collect()
            });
        }
        StepKind::Squares { targets, wrong } => {
            r.targets = Some(raw_squares(targets));
            r.wrong = (!wrong.is_empty()).then(|| {
                wrong
                    .iter()
                    .map(|w| RawWrong {
                        moves: None,
                        square: Some(w.square.to_string()),
                        reason: None,
                        why: w.why.as_ref().map(RawText::from),
                    })
                    .collect()
            });
        }
        StepKind::Choice { choices, answer, verify, history } => {
            r.choices = Some(choices.iter().map(RawText::from).collect());
            r.answer = Some(toml::Value::Array(answer.iter().map(|&i| toml::Value::Integer(i as i64)).collect()));
            r.verify = verify.map(|v| v.name().to_owned());
            r.history = (!history.is_empty()).then(|| history.clone());
        }
        StepKind::LegalMoves { candidates, answer } => {
            r.candidates = Some(candidates.clone());
            r.answer = Some(toml::Value::Array(answer.iter().map(|m| toml::Value::String(m.clone())).collect()));
        }
        StepKind::Play { level, goal, max_moves } => {
            r.level = Some(i64::from(*level));
            let g = match goal {
                PlayGoal::Win => "win",
                PlayGoal::Draw => "draw",
                PlayGoal::Finish => "finish",
                PlayGoal::Promote => "promote",
            };
            r.goal = Some(g.to_owned());
            r.max_moves = max_moves.map(i64::from);
        }
    }
}

impl From<Step> for RawStep {
    fn from(s: Step) -> RawStep {
        let mut r = RawStep {
            kind: Some(s.kind.name().to_owned()),
            fen: Some(s.fen.clone()),
            prompt: Some(RawText::from(&s.prompt)),
            hint: Some(RawText::from(&s.hint)),
            success: Some(RawText::from(&s.success)),
            orientation: s.orientation.map(|o| if o == Side::White { "white" } else { "black" }.to_owned()),
            ..RawStep::default()
        };
        if matches!(s.kind, StepKind::Moves { .. }) {
            r.solutions = Some(s.solutions.clone());
        }
        raw_kind(&s.kind, &mut r);
        r
    }
}

impl TryFrom<RawStep> for Step {
    type Error = String;

    /// The course file's rules for one step (every missing or misplaced field), the messages joined by `; `.
    fn try_from(raw: RawStep) -> Result<Step, String> {
        let mut errors = Vec::new();
        let mut cx = Ctx { file: "", lesson: None, step: None, errors: &mut errors };
        let step = convert_step(&mut cx, raw);
        match step {
            Some(s) if errors.is_empty() => Ok(s),
            _ => Err(errors.into_iter().map(|e| e.message).collect::<Vec<_>>().join("; ")),
        }
    }
}

/// A course file (`NN-<chapter>.toml`) holding one chapter with one lesson: what `crate::study` exports.
pub(crate) fn lesson_file(chapter_id: &str, lesson: &Lesson) -> Result<String, String> {
    let title = RawText::from(&lesson.title);
    let file = RawFile {
        chapter: RawChapter {
            id: chapter_id.to_owned(),
            title: Some(RawText::from(&lesson.title)),
            summary: Some(lesson.intro.as_ref().map_or(title, RawText::from)),
            optional: Some(true),
        },
        lessons: vec![RawLesson {
            id: lesson.id.clone(),
            topics: lesson.topics.clone(),
            title: Some(RawText::from(&lesson.title)),
            intro: lesson.intro.as_ref().map(RawText::from),
            steps: lesson.steps.iter().cloned().map(RawStep::from).collect(),
        }],
    };
    toml::to_string(&file).map_err(|e| e.to_string())
}
