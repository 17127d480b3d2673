//! The judge: is the learner's newest try right, is the step done, and what does the board show now?
//!
//! It is stateless. A [`Try`] holds everything the learner did in the step so far, and the judge replays it from the
//! step's FEN, so the server keeps nothing between tries. The checker proves the course's solutions and wrong tries
//! through this same code, so the course and the judge cannot disagree.
//!
//! What a try holds, by kind:
//! - `moves` (every goal but escape): the learner's accepted moves in order, then the newest one. Scripted replies
//!   (goal `line`, and `mate` with `lines`) are not sent: the judge plays them. An earlier move that was not accepted
//!   is an error ([`JudgeError::Inconsistent`]): a wrong move never stays on the board.
//! - `moves` with goal `escape`: every answer so far, each from the step's FEN (the board resets after each); earlier
//!   answers that were illegal or repeated a way already found are ignored.
//! - `squares`: every square clicked so far, the newest last; wrong clicks may stay in the list.
//! - `choices` / `selected`: the learner's whole answer (the indices ticked / the candidate moves marked legal).

use guoxiang_core::{Color, Explanation, Move, Position, Square};
use serde::Serialize;

use crate::model::{CastleSide, Goal, Step, StepKind, Text, WrongMoves};
use crate::safety;
use crate::{Course, Lesson};

/// The most entries a try may hold (a step never needs more; it bounds the work of one request).
pub const MAX_TRY_LEN: usize = 200;

/// What the learner did in a step (see the module text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Try {
    Moves(Vec<String>),
    Squares(Vec<String>),
    Choices(Vec<usize>),
    Selected(Vec<String>),
}

impl Try {
    /// The name of the field the try came in (`moves`, `squares`, `choices`, `selected`).
    pub fn field(&self) -> &'static str {
        match self {
            Try::Moves(_) => "moves",
            Try::Squares(_) => "squares",
            Try::Choices(_) => "choices",
            Try::Selected(_) => "selected",
        }
    }

    fn len(&self) -> usize {
        match self {
            Try::Moves(v) | Try::Squares(v) | Try::Selected(v) => v.len(),
            Try::Choices(v) => v.len(),
        }
    }
}

/// Why a try was wrong: a stable code and the words for the learner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reason {
    /// A rules-core explanation code (`pinned`, `castle_through_check`, … — an illegal move), or `not_goal`,
    /// `guarded` (a stars step with `guarded = true`: the move lands on a square an enemy piece attacks),
    /// `wrong_square`, `wrong_choice`, `wrong_answer`.
    pub code: String,
    pub zh: String,
    pub en: String,
}

impl Reason {
    fn new(code: &str, t: &Text) -> Reason {
        Reason { code: code.to_owned(), zh: t.zh.clone(), en: t.en.clone() }
    }
}

/// The judge's answer to one try.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The newest entry of the try is right.
    pub ok: bool,
    /// The step is complete.
    pub done: bool,
    /// The scripted reply just played for the learner (UCI), if any.
    pub reply: Option<String>,
    /// The position the board should show now: after the accepted moves and replies (before a wrong move); for
    /// stars after the turn passed back; for escape and the question kinds the step's own FEN.
    pub fen: String,
    /// Why the newest entry is wrong (when not `ok`).
    pub reason: Option<Reason>,
    /// The step's hint (when not `ok`).
    pub hint: Option<Text>,
    /// The step's success text (when `done`).
    pub success: Option<Text>,
    /// Stars or target squares still to get (stars and squares steps).
    pub remaining: Option<Vec<String>>,
    /// The ways of answering check found so far, in order: `king`, `capture`, `block` (escape steps).
    pub found: Option<Vec<String>>,
    /// The learner must start the step again from its FEN, with an empty history (a stars step out of moves).
    pub restart: bool,
}

/// A try the judge cannot judge: the request is wrong, not the learner's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeError {
    UnknownLesson(String),
    UnknownStep {
        lesson: String,
        step: usize,
        steps: usize,
    },
    /// The try's field does not fit the step's kind.
    WrongField {
        got: &'static str,
        expected: &'static str,
    },
    /// Play steps are games against the computer, played over the WebSocket.
    NotJudged,
    Empty {
        field: &'static str,
    },
    TooLong {
        field: &'static str,
    },
    /// Entry `index` is not UCI / not a square / not a choice index / not one of the candidates.
    BadEntry {
        field: &'static str,
        index: usize,
        problem: String,
    },
    /// Entry `index` comes after the step was done, or was not accepted but is followed by more moves.
    Inconsistent {
        field: &'static str,
        index: usize,
        problem: String,
    },
    /// The course itself is broken here (the checker reports it; the judge only refuses).
    BadCourse(String),
}

impl JudgeError {
    /// The request field the error is about (`lesson`, `step`, `moves[2]`, …).
    pub fn field(&self) -> String {
        match self {
            JudgeError::UnknownLesson(_) => "lesson".into(),
            JudgeError::UnknownStep { .. } => "step".into(),
            JudgeError::WrongField { got, .. }
            | JudgeError::Empty { field: got }
            | JudgeError::TooLong { field: got } => (*got).into(),
            JudgeError::NotJudged | JudgeError::BadCourse(_) => "step".into(),
            JudgeError::BadEntry { field, index, .. } | JudgeError::Inconsistent { field, index, .. } => {
                format!("{field}[{index}]")
            }
        }
    }

    /// Whether the error means "no such lesson or step" (404) rather than a bad request.
    pub fn is_not_found(&self) -> bool {
        matches!(self, JudgeError::UnknownLesson(_) | JudgeError::UnknownStep { .. })
    }

    /// The message in both languages.
    pub fn text(&self) -> Text {
        let (zh, en) = match self {
            JudgeError::UnknownLesson(id) => (format!("没有这一课：{id}"), format!("there is no lesson {id:?}")),
            JudgeError::UnknownStep { lesson, step, steps } => (
                format!("第 {lesson} 课没有第 {step} 步（共 {steps} 步，从 0 数起）"),
                format!("lesson {lesson} has no step {step} (it has {steps}, counted from 0)"),
            ),
            JudgeError::WrongField { got, expected } => {
                (format!("这一步应当用 {expected}，而不是 {got}"), format!("this step takes `{expected}`, not `{got}`"))
            }
            JudgeError::NotJudged => (
                "对弈步骤在棋盘上与电脑对局（WebSocket 的 play_computer），不在这里判定".into(),
                "play steps are games against the computer (the WebSocket's play_computer), not judged here".into(),
            ),
            JudgeError::Empty { field } => (format!("{field} 不能为空"), format!("`{field}` is empty")),
            JudgeError::TooLong { field } => (
                format!("{field} 太长（最多 {MAX_TRY_LEN} 项）"),
                format!("`{field}` is too long (at most {MAX_TRY_LEN} entries)"),
            ),
            JudgeError::BadEntry { field, index, problem } | JudgeError::Inconsistent { field, index, problem } => {
                (format!("{field}[{index}]：{problem}"), format!("{field}[{index}]: {problem}"))
            }
            JudgeError::BadCourse(p) => (format!("课程数据有误：{p}"), format!("the course is broken here: {p}")),
        };
        Text { zh, en }
    }
}

impl std::fmt::Display for JudgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text().en)
    }
}

impl std::error::Error for JudgeError {}

/// Judges a try at step `step` (0-based) of the lesson `lesson_id`.
pub fn judge(course: &Course, lesson_id: &str, step: usize, t: &Try) -> Result<Verdict, JudgeError> {
    let lesson: &Lesson = course.lesson(lesson_id).ok_or_else(|| JudgeError::UnknownLesson(lesson_id.to_owned()))?;
    let s = lesson.steps.get(step).ok_or_else(|| JudgeError::UnknownStep {
        lesson: lesson_id.to_owned(),
        step,
        steps: lesson.steps.len(),
    })?;
    judge_step(s, t)
}

/// Judges a try at one step.
pub fn judge_step(step: &Step, t: &Try) -> Result<Verdict, JudgeError> {
    if t.len() == 0 {
        return Err(JudgeError::Empty { field: t.field() });
    }
    if t.len() > MAX_TRY_LEN {
        return Err(JudgeError::TooLong { field: t.field() });
    }
    let start = Position::from_fen(&step.fen).map_err(|e| JudgeError::BadCourse(format!("FEN {:?}: {e}", step.fen)))?;
    let wrong_field = |expected| Err(JudgeError::WrongField { got: t.field(), expected });
    match (&step.kind, t) {
        (StepKind::Moves { goal: Goal::Escape { count }, .. }, Try::Moves(moves)) => {
            escape(step, &start, *count, moves)
        }
        (StepKind::Moves { goal, wrong }, Try::Moves(moves)) => sequence(step, &start, goal, wrong, moves),
        (StepKind::Moves { .. }, _) => wrong_field("moves"),
        (StepKind::Squares { targets, wrong }, Try::Squares(clicks)) => {
            let mut clicked = Vec::new();
            for (i, c) in clicks.iter().enumerate() {
                let sq = Square::parse(c).ok_or_else(|| JudgeError::BadEntry {
                    field: "squares",
                    index: i,
                    problem: format!("{c:?} is not a square (a1 … h8)"),
                })?;
                clicked.push(sq);
            }
            let newest = clicked[clicked.len() - 1];
            let ok = targets.contains(&newest);
            let remaining: Vec<String> =
                targets.iter().filter(|s| !clicked.contains(s)).map(|s| s.to_string()).collect();
            let done = remaining.is_empty();
            let reason = (!ok).then(|| {
                let why = wrong.iter().find(|w| w.square == newest).and_then(|w| w.why.as_ref());
                Reason::new("wrong_square", why.unwrap_or(&step.hint))
            });
            Ok(Verdict { reason, remaining: Some(remaining), ..verdict(step, ok, done, start.fen()) })
        }
        (StepKind::Squares { .. }, _) => wrong_field("squares"),
        (StepKind::Choice { choices, answer, .. }, Try::Choices(picked)) => {
            for (i, &c) in picked.iter().enumerate() {
                if c >= choices.len() {
                    return Err(JudgeError::BadEntry {
                        field: "choices",
                        index: i,
                        problem: format!("{c} is not a choice (0 to {})", choices.len().saturating_sub(1)),
                    });
                }
            }
            let ok = same_set(picked, answer);
            let reason = (!ok).then(|| Reason::new("wrong_choice", &step.hint));
            Ok(Verdict { reason, ..verdict(step, ok, ok, start.fen()) })
        }
        (StepKind::Choice { .. }, _) => wrong_field("choices"),
        (StepKind::LegalMoves { candidates, answer }, Try::Selected(selected)) => {
            for (i, m) in selected.iter().enumerate() {
                if !candidates.contains(m) {
                    return Err(JudgeError::BadEntry {
                        field: "selected",
                        index: i,
                        problem: format!("{m:?} is not one of the candidates {}", candidates.join(", ")),
                    });
                }
            }
            let ok = same_set(selected, answer);
            let reason = (!ok).then(|| Reason::new("wrong_answer", &step.hint));
            Ok(Verdict { reason, ..verdict(step, ok, ok, start.fen()) })
        }
        (StepKind::LegalMoves { .. }, _) => wrong_field("selected"),
        (StepKind::Play { .. }, _) => Err(JudgeError::NotJudged),
    }
}

fn same_set<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    a.iter().all(|x| b.contains(x)) && b.iter().all(|x| a.contains(x))
}

/// A verdict with the step's hint (when not ok) and success sentence (when done), and nothing else; callers add
/// the rest with struct update syntax.
fn verdict(step: &Step, ok: bool, done: bool, fen: String) -> Verdict {
    Verdict {
        ok,
        done,
        reply: None,
        fen,
        reason: None,
        hint: (!ok).then(|| step.hint.clone()),
        success: done.then(|| step.success.clone()),
        remaining: None,
        found: None,
        restart: false,
    }
}

/// The newest move of a sequence refused: the board stays at `pos` (the move is taken back).
fn refused(step: &Step, pos: &Position, goal: &Goal, visited: &[Square], reason: Reason) -> Verdict {
    Verdict { reason: Some(reason), remaining: stars_left(goal, visited), ..verdict(step, false, false, pos.fen()) }
}

/// Resolves a course move (UCI) in a position; `None` if it is not a legal move there.
fn resolve(pos: &Position, uci: &str) -> Option<Move> {
    pos.explain_uci(uci).ok().and_then(|e| e.legal_move())
}

/// What one learner move does to a sequence goal.
enum Step1 {
    /// Accepted; the step is done, or goes on (after the reply, if any).
    Accept { done: bool, reply: Option<Move> },
    /// Legal but wrong (`not_goal`), with the words to say.
    Reject(Text),
    /// Legal but wrong for another reason (`guarded`).
    RejectAs(Reason),
}

fn not_goal_text(step: &Step, wrong: &[WrongMoves], moves: &[String]) -> Text {
    wrong
        .iter()
        .find(|w| w.reason == "not_goal" && w.moves == moves)
        .and_then(|w| w.why.clone())
        .unwrap_or_else(|| step.hint.clone())
}

/// The goals played as a sequence: line, mate, check, capture, castle, promote, en_passant, stars, any.
fn sequence(
    step: &Step,
    start: &Position,
    goal: &Goal,
    wrong: &[WrongMoves],
    moves: &[String],
) -> Result<Verdict, JudgeError> {
    let mut pos = start.clone();
    // Every ply played so far (learner moves and replies), for following the scripted lines.
    let mut played: Vec<Move> = Vec::new();
    let mut line_positions: Vec<Position> = Vec::new();
    let mut visited: Vec<Square> = Vec::new();
    let last = moves.len() - 1;
    for (i, text) in moves.iter().enumerate() {
        let expl = pos.explain_uci(text).map_err(|e| JudgeError::BadEntry {
            field: "moves",
            index: i,
            problem: e.to_string(),
        })?;
        let inconsistent = |problem: String| Err(JudgeError::Inconsistent { field: "moves", index: i, problem });
        let m = match expl {
            Explanation::Legal(m) => m,
            Explanation::Illegal(r) => {
                if i < last {
                    return inconsistent(format!("{text} is illegal here ({}), but more moves follow it", r.code()));
                }
                let reason = Reason { code: r.code().to_owned(), zh: r.text().zh, en: r.text().en };
                return Ok(refused(step, &pos, goal, &visited, reason));
            }
        };
        let result = match goal {
            Goal::Line { lines } => match follow_lines(lines, &line_positions, &played, &pos, m, false)? {
                a @ Step1::Accept { .. } => a,
                // Off the script: the wrong try's own words if the course has them, else the hint.
                Step1::Reject(_) | Step1::RejectAs(_) => Step1::Reject(not_goal_text(step, wrong, &moves[..=i])),
            },
            Goal::Mate { lines, .. } => {
                if pos.after(m).is_checkmate() {
                    Step1::Accept { done: true, reply: None }
                } else {
                    match follow_lines(lines, &line_positions, &played, &pos, m, true)? {
                        a @ Step1::Accept { .. } => a,
                        Step1::Reject(_) | Step1::RejectAs(_) => {
                            Step1::Reject(not_goal_text(step, wrong, &moves[..=i]))
                        }
                    }
                }
            }
            Goal::Stars { stars, max_moves, guarded } => {
                if let Some(reason) = guarded.then(|| guard_reason(&pos, m)).flatten() {
                    Step1::RejectAs(reason)
                } else if pos.gives_check(m) {
                    Step1::Reject(Text {
                        zh: "这一步会将军；在这个练习里对方不走棋，不能将军。".into(),
                        en: "That move gives check; in this exercise the opponent does not move, so no checks.".into(),
                    })
                } else {
                    let mut v = visited.clone();
                    if m.is_castle() {
                        v.push(m.king_to());
                        v.push(m.castle_rook_to());
                    } else {
                        v.push(m.to());
                    }
                    let done = stars.iter().all(|s| v.contains(s));
                    if !done && max_moves.is_some_and(|n| i + 1 >= n as usize) {
                        let n = max_moves.unwrap_or(0);
                        let reason = Reason {
                            code: "not_goal".into(),
                            zh: format!("{n} 步之内没有吃掉所有星星，从头再来。"),
                            en: format!("Not every star in {n} moves: start again."),
                        };
                        if i < last {
                            return inconsistent("the move budget was already spent".into());
                        }
                        let mut v = Verdict { reason: Some(reason), ..verdict(step, false, false, start.fen()) };
                        v.remaining = stars_left(goal, &[]);
                        v.restart = true;
                        return Ok(v);
                    }
                    Step1::Accept { done, reply: None }
                }
            }
            Goal::Safe { .. } => {
                let danger = safety::pieces_in_danger(&pos.after(m), pos.turn());
                match danger.first() {
                    None => Step1::Accept { done: true, reply: None },
                    Some(&(sq, _)) => {
                        let own = wrong.iter().find(|w| w.reason == "not_goal" && w.moves == moves[..=i]);
                        Step1::Reject(match own.and_then(|w| w.why.clone()) {
                            Some(t) => t,
                            None => in_danger_text(&pos.after(m), sq),
                        })
                    }
                }
            }
            _ => {
                if single_move_goal(goal, &pos, m) {
                    Step1::Accept { done: true, reply: None }
                } else {
                    Step1::Reject(not_goal_text(step, wrong, &moves[..=i]))
                }
            }
        };
        match result {
            Step1::RejectAs(r) => {
                if i < last {
                    return inconsistent(format!("{text} is refused ({}), but more moves follow it", r.code));
                }
                return Ok(refused(step, &pos, goal, &visited, r));
            }
            Step1::Reject(t) => {
                if i < last {
                    return inconsistent(format!("{text} does not do what the step asks, but more moves follow it"));
                }
                return Ok(refused(step, &pos, goal, &visited, Reason::new("not_goal", &t)));
            }
            Step1::Accept { done, reply } => {
                if done && i < last {
                    return inconsistent(format!("the step was already done after {text}"));
                }
                line_positions.push(pos.clone());
                played.push(m);
                if m.is_castle() {
                    visited.push(m.king_to());
                    visited.push(m.castle_rook_to());
                } else {
                    visited.push(m.to());
                }
                pos.play_unchecked(m);
                if matches!(goal, Goal::Stars { .. }) {
                    pos.play_null();
                }
                let mut reply_uci = None;
                if let Some(r) = reply {
                    reply_uci = Some(pos.uci(r));
                    line_positions.push(pos.clone());
                    played.push(r);
                    pos.play_unchecked(r);
                }
                if i == last {
                    let remaining = stars_left(goal, &visited);
                    return Ok(Verdict { reply: reply_uci, remaining, ..verdict(step, true, done, pos.fen()) });
                }
            }
        }
    }
    Err(JudgeError::Empty { field: "moves" })
}

fn stars_left(goal: &Goal, visited: &[Square]) -> Option<Vec<String>> {
    match goal {
        Goal::Stars { stars, .. } => {
            Some(stars.iter().filter(|s| !visited.contains(s)).map(|s| s.to_string()).collect())
        }
        _ => None,
    }
}

/// Follows the scripted lines: `played` (with the position before each ply) is what happened; `m` the learner's
/// move in `pos`. For `mate`, a line only scripts the way to the mate, so reaching its end is not "done".
fn follow_lines(
    lines: &[Vec<String>],
    positions: &[Position],
    played: &[Move],
    pos: &Position,
    m: Move,
    mate: bool,
) -> Result<Step1, JudgeError> {
    let ply = played.len();
    for line in lines {
        if line.len() <= ply {
            continue;
        }
        let matches_so_far =
            played.iter().zip(positions).zip(line).all(|((&p, before), text)| resolve(before, text) == Some(p));
        if !matches_so_far || resolve(pos, &line[ply]) != Some(m) {
            continue;
        }
        let after = pos.after(m);
        return Ok(match line.get(ply + 1) {
            None if mate => continue,
            None => Step1::Accept { done: true, reply: None },
            Some(r) => {
                let reply =
                    resolve(&after, r).ok_or_else(|| JudgeError::BadCourse(format!("the reply {r} is not legal")))?;
                // A line may end with a reply (nothing more to do), except in a mate step, where the mate follows.
                let done = !mate && line.len() == ply + 2;
                Step1::Accept { done, reply: Some(reply) }
            }
        });
    }
    Ok(Step1::Reject(Text { zh: String::new(), en: String::new() }))
}

/// A stars step with `guarded = true`: the move is refused if a square it lands on (for castling the king's and
/// the rook's) is attacked by an enemy piece once it is played; the words name the cheapest guard.
fn guard_reason(pos: &Position, m: Move) -> Option<Reason> {
    let after = pos.after(m);
    let them = !pos.turn();
    let landing = if m.is_castle() { vec![m.king_to(), m.castle_rook_to()] } else { vec![m.to()] };
    landing.into_iter().find_map(|sq| {
        let &(from, role) = safety::guards(&after, sq, them).first()?;
        let (zh, en) = safety::piece_names(them, role);
        Some(Reason {
            code: "guarded".into(),
            zh: format!("{sq} 被{zh}（{from}）守着：走到那里会被吃掉。"),
            en: format!("The {en} on {from} guards {sq}: it would be taken there."),
        })
    })
}

/// Goal `safe`, a move that leaves a piece in danger: which one.
fn in_danger_text(after: &Position, sq: Square) -> Text {
    let role = after.role_at(sq).map_or("piece", |r| r.name());
    let zh = after.role_at(sq).map_or('子', |r| r.zh_char());
    Text {
        zh: format!("你的{zh}（{sq}）还不安全：对方吃掉它能得到子力。"),
        en: format!("Your {role} on {sq} is still not safe: the opponent wins material by taking it."),
    }
}

/// Whether a legal move completes a one-move goal.
fn single_move_goal(goal: &Goal, pos: &Position, m: Move) -> bool {
    match goal {
        Goal::Check => pos.gives_check(m),
        Goal::Capture { target } => {
            pos.is_capture(m)
                && target.is_none_or(|t| {
                    let captured =
                        if m.is_en_passant() { Square::from_coords(m.to().file(), m.from().rank()) } else { m.to() };
                    captured == t
                })
        }
        Goal::Castle { side } => {
            m.is_castle() && side.is_none_or(|s| (s == CastleSide::King) == m.is_kingside_castle())
        }
        Goal::Promote { role } => m.is_promotion() && role.is_none_or(|r| m.promotion_role() == Some(r.role())),
        Goal::EnPassant => m.is_en_passant(),
        Goal::Any { from } => from.is_none_or(|f| m.from() == f),
        Goal::Line { .. } | Goal::Mate { .. } | Goal::Stars { .. } | Goal::Escape { .. } | Goal::Safe { .. } => false,
    }
}

/// How a legal move answers check: `capture` (takes the checking piece, the king too), `king` (the king steps
/// away), `block` (a piece steps between).
pub fn escape_way(pos: &Position, m: Move) -> &'static str {
    let checkers = pos.checkers();
    let us: Color = pos.turn();
    let takes_checker = !m.is_castle()
        && (checkers.contains(m.to())
            || (m.is_en_passant() && checkers.contains(Square::from_coords(m.to().file(), m.from().rank()))));
    if takes_checker {
        "capture"
    } else if m.from() == pos.king(us) {
        "king"
    } else {
        "block"
    }
}

fn escape(step: &Step, start: &Position, count: u8, moves: &[String]) -> Result<Verdict, JudgeError> {
    let mut found: Vec<String> = Vec::new();
    let last = moves.len() - 1;
    for (i, text) in moves.iter().enumerate() {
        let expl = start.explain_uci(text).map_err(|e| JudgeError::BadEntry {
            field: "moves",
            index: i,
            problem: e.to_string(),
        })?;
        let newest = i == last;
        let (ok, reason) = match expl {
            Explanation::Illegal(r) => {
                (false, Some(Reason { code: r.code().to_owned(), zh: r.text().zh, en: r.text().en }))
            }
            Explanation::Legal(m) => {
                let way = escape_way(start, m);
                if found.iter().any(|f| f == way) {
                    let t = Text {
                        zh: format!("这种应将方法（{}）已经找到了，换一种。", way_zh(way)),
                        en: format!("You have already answered the check this way ({way}); find another."),
                    };
                    (false, Some(Reason::new("not_goal", &t)))
                } else {
                    found.push(way.to_owned());
                    (true, None)
                }
            }
        };
        if newest {
            let done = ok && found.len() >= count as usize;
            return Ok(Verdict { reason, found: Some(found), ..verdict(step, ok, done, start.fen()) });
        }
    }
    Err(JudgeError::Empty { field: "moves" })
}

fn way_zh(way: &str) -> &'static str {
    match way {
        "king" => "走王",
        "capture" => "吃掉将军的子",
        _ => "垫子",
    }
}
