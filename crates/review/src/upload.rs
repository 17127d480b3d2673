//! A review searched elsewhere — in the learner's browser (crates/engine-wasm) — and kept by the server (issue 43;
//! docs/review.md, "Reviews made in the browser").
//!
//! The browser sends what its judges found in every position ([`Upload`]: each judge's evaluation, line and second
//! move per position), never the review's words, classes or figures. The server reads the judgements ([`read`],
//! which refuses anything that is not legal chess or not one judgement per position and judge), makes the review of
//! them itself ([`crate::review_from_judgements`]: every sentence stored is the server's own), and then checks
//! that the marks stand ([`check`]): each move the review marks (?!, ?, ?? and missed wins) is searched again by
//! both judges — the position after it, then the one before, at a sixth of the budget and, when that does not
//! confirm it, at the full budget — and must lose at least half of its class's threshold by one of them; and a few
//! unmarked moves the server picks must not turn out to be blunders by both judges. So a client cannot put a
//! mistake on a move that was not one (on another player's moves or its own), and cannot count on hiding one.

use guoxiang_core::{CastlingMode, Move, Position, UciMove};
use guoxiang_engine::Engine;
use serde::{Deserialize, Serialize};

use crate::chances::{BLUNDER_MIN, INACCURACY_MIN, MISTAKE_MIN};
use crate::search::Hooks;
use crate::{Class, Eval, GameReview, Judgement, Judges, Options, judge_with, move_loss, replay};

/// At most this many moves in an uploaded line.
pub const MAX_LINE: usize = 64;

/// What a browser sends: its node budget and, per judge (the hand-written evaluation first, then the network), one
/// judgement per position: the start, then after each move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upload {
    pub nodes: u64,
    pub judges: Vec<Vec<UploadedJudgement>>,
}

/// One judge's finding in one position, from the side to move's point of view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UploadedJudgement {
    /// The evaluation (`{"cp": 31}` or `{"mate": -2}`).
    pub eval: Eval,
    /// The best move and the line after it, in UCI (empty when the game is over).
    #[serde(default)]
    pub line: Vec<String>,
    /// The second-best move's expected score (0–100, side to move), when the search had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<f64>,
    /// The second-best move (UCI) and its evaluation, when the search named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_line: Option<(String, Eval)>,
}

/// The judgements of [`crate::judge_game`] (of a game from `start`) as a browser sends them.
pub fn to_upload(start: &Position, judged: &[Vec<Judgement>], nodes: u64) -> Upload {
    let c960 = start.is_chess960();
    let uci = |m: Move| UciMove::from_move(m, c960).to_string();
    let judges = judged
        .iter()
        .map(|list| {
            list.iter()
                .map(|j| UploadedJudgement {
                    eval: j.eval,
                    line: j.line.iter().map(|&m| uci(m)).collect(),
                    second: j.second,
                    second_line: j.second_line.map(|(m, e)| (uci(m), e)),
                })
                .collect()
        })
        .collect();
    Upload { nodes, judges }
}

/// Reads an upload into judgements for [`crate::review_from_judgements`], checking everything a client could get
/// wrong: the budget, one list per judge and one judgement per position, evaluations in range, every line legal
/// from its position, the second move legal and not the best. The expected scores and the number of legal moves
/// are the server's own; a finished position's judgement is the game's (mate or draw) whatever was sent. The
/// error says which judge, which position and what.
pub fn read(
    start: &Position,
    moves: &[Move],
    upload: &Upload,
    options: &Options,
) -> Result<Vec<Vec<Judgement>>, String> {
    if upload.nodes != options.nodes {
        return Err(format!("nodes: {} (this server reviews at {} nodes per position)", upload.nodes, options.nodes));
    }
    let positions = replay(start, moves)?;
    let judges = if options.judges == Judges::Both { 2 } else { 1 };
    if upload.judges.len() != judges {
        return Err(format!("judges: {} lists (one per judge: {judges})", upload.judges.len()));
    }
    let mut out = Vec::with_capacity(judges);
    for (ji, list) in upload.judges.iter().enumerate() {
        if list.len() != positions.len() {
            return Err(format!(
                "judge {}: {} judgements (one per position: the start and after each of the {} moves)",
                ji + 1,
                list.len(),
                moves.len()
            ));
        }
        let mut read_list = Vec::with_capacity(list.len());
        for (pi, (u, pos)) in list.iter().zip(&positions).enumerate() {
            let at = |what: String| format!("judge {}, position {pi} (after {pi} moves): {what}", ji + 1);
            read_list.push(read_one(pos, u).map_err(at)?);
        }
        out.push(read_list);
    }
    Ok(out)
}

fn read_eval(e: Eval) -> Result<Eval, String> {
    match e {
        Eval::Cp(c) if c.abs() <= 30_000 => Ok(e),
        Eval::Mate(m) if m != 0 && m.abs() <= 500 => Ok(e),
        _ => Err(format!("evaluation {e:?} out of range")),
    }
}

fn read_move(pos: &Position, uci: &str) -> Result<Move, String> {
    let m = pos.parse_uci(uci).map_err(|e| format!("{uci}: {e}"))?;
    if pos.is_legal(m) { Ok(m) } else { Err(format!("{uci} is not legal")) }
}

fn read_one(pos: &Position, u: &UploadedJudgement) -> Result<Judgement, String> {
    let legal = pos.count_legal();
    if legal == 0 {
        return Ok(judge_with(&Engine::new(1), pos, &[], 1, false));
    }
    let eval = read_eval(u.eval)?;
    if u.line.is_empty() {
        return Err("no best move".into());
    }
    if u.line.len() > MAX_LINE {
        return Err(format!("a line of {} moves (at most {MAX_LINE})", u.line.len()));
    }
    let mut p = pos.clone();
    let mut line = Vec::with_capacity(u.line.len());
    for (i, s) in u.line.iter().enumerate() {
        let m = read_move(&p, s).map_err(|e| format!("line, move {}: {e}", i + 1))?;
        line.push(m);
        p.play_unchecked(m);
        if p.count_legal() == 0 && i + 1 < u.line.len() {
            return Err(format!("line, move {}: the game is over after it", i + 1));
        }
    }
    let (second, second_line) = if legal > 1 {
        let second = match u.second {
            Some(x) if !(0.0..=100.0).contains(&x) => return Err(format!("second: {x} (an expected score, 0 to 100)")),
            x => x,
        };
        let second_line = match &u.second_line {
            Some((s, e)) => {
                let m = read_move(pos, s).map_err(|e| format!("second_line: {e}"))?;
                if line.first() == Some(&m) {
                    return Err("second_line: the best move again".into());
                }
                Some((m, read_eval(*e).map_err(|e| format!("second_line: {e}"))?))
            }
            None => None,
        };
        if second_line.is_some() && second.is_none() {
            return Err("second_line without second (its expected score)".into());
        }
        (second, second_line)
    } else {
        (None, None)
    };
    Ok(Judgement { eval, expected: eval.expected(), line, second, second_line, legal })
}

/// Why an uploaded review was not kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The move (1 for White's first).
    pub ply: usize,
    pub san: String,
    /// What the upload made of it.
    pub class: Class,
    /// The most (for a mark) or the least (for an unmarked move) either judge found it loses when searched again.
    pub found: f64,
}

impl Refusal {
    /// The same in Chinese: "1.e4（败着）：复查时只失去 0.0 分".
    pub fn zh(&self) -> String {
        let n = self.ply.div_ceil(2);
        let dots = if self.ply % 2 == 1 { "." } else { "..." };
        if self.class.is_error() {
            format!("{n}{dots}{}（{}）：复查时只失去 {:.1} 分", self.san, self.class.zh(), self.found)
        } else {
            format!("{n}{dots}{}（未标出）：复查时失去 {:.1} 分，是败着", self.san, self.found)
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.ply.div_ceil(2);
        let dots = if self.ply % 2 == 1 { "." } else { "..." };
        write!(f, "{n}{dots}{} ({}): searched again, it loses {:.1} points", self.san, self.class.id(), self.found)
    }
}

/// What a check searched.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checked {
    /// The moves checked (marked, then sampled).
    pub moves: usize,
    /// The searches made (each judge, each position, each budget).
    pub searches: usize,
}

/// The least either judge must find a marked move loses for its mark to stand: half of its class's threshold.
pub fn mark_floor(class: Class) -> f64 {
    match class {
        Class::Inaccuracy => INACCURACY_MIN / 2.0,
        Class::Mistake => MISTAKE_MIN / 2.0,
        Class::Blunder | Class::MissedWin => BLUNDER_MIN / 2.0,
        _ => 0.0,
    }
}

/// The moves a check may sample: those with a choice that the review does not mark (move indices, 0-based).
pub fn unmarked(review: &GameReview, start: &Position, moves: &[Move]) -> Vec<usize> {
    let positions = replay(start, moves).unwrap_or_default();
    review
        .moves
        .iter()
        .enumerate()
        .filter(|(i, r)| !r.class.is_error() && positions.get(*i).is_some_and(|p| p.count_legal() > 1))
        .map(|(i, _)| i)
        .collect()
}

/// Moves of a game searched again, one at a time, by each judge with a table of its own (emptied for each move):
/// the position after the move first, then the one before, as the review's backward order would.
pub struct SearchAgain {
    positions: Vec<Position>,
    histories: Vec<Vec<u64>>,
    moves: Vec<Move>,
    engines: Vec<Engine>,
}

impl std::fmt::Debug for SearchAgain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SearchAgain({} moves, {} judges)", self.moves.len(), self.engines.len())
    }
}

impl SearchAgain {
    /// The game of `moves` from `start`, with the judges of `options`.
    pub fn new(start: &Position, moves: &[Move], options: &Options) -> Result<SearchAgain, String> {
        let positions = replay(start, moves)?;
        let histories = crate::histories(&positions);
        let engines = crate::judge_engines(options);
        Ok(SearchAgain { positions, histories, moves: moves.to_vec(), engines })
    }

    /// The judges.
    pub fn judges(&self) -> usize {
        self.engines.len()
    }

    /// Empties the judges' tables (before a move searched again on its own).
    pub fn forget(&mut self) {
        for e in &mut self.engines {
            e.renew_hash();
        }
    }

    /// The points the `i`-th move (0-based) loses by each judge, searching the positions after and before it at
    /// `nodes` (with what the tables hold since [`SearchAgain::forget`]); each search admitted by `admit`.
    pub fn losses(&mut self, i: usize, nodes: u64, admit: &(dyn Fn() -> Box<dyn std::any::Any> + Sync)) -> Vec<f64> {
        let m = self.moves[i];
        let (positions, histories) = (&self.positions, &self.histories);
        self.engines
            .iter()
            .map(|e| {
                let ticket = admit();
                let ja = judge_with(e, &positions[i + 1], &histories[i + 1], nodes, false);
                let jb = judge_with(e, &positions[i], &histories[i], nodes, false);
                drop(ticket);
                move_loss(m, &jb, &ja)
            })
            .collect()
    }
}

/// The budget of a check's first search of a move: a sixth of the review's, as the scan's (`--scan`).
pub fn first_budget(options: &Options) -> u64 {
    (options.nodes / crate::FOCUS.scan_divisor).max(1)
}

/// What decides a checked move: the most either judge found it loses for a mark (`class` an error), the least for
/// an unmarked move.
fn found(class: Class, losses: &[f64]) -> f64 {
    if class.is_error() {
        losses.iter().copied().fold(0.0, f64::max)
    } else {
        losses.iter().copied().fold(f64::INFINITY, f64::min)
    }
}

/// Whether a mark of `class` stands on a move the judges found loses `losses` (the most of them reaches the mark's
/// floor), or, for an unmarked move (`class` not an error), whether it is no blunder (the least of them is under
/// the blunder threshold).
pub fn stands(class: Class, losses: &[f64]) -> bool {
    let x = found(class, losses);
    if class.is_error() { x >= mark_floor(class) } else { x < BLUNDER_MIN }
}

/// Checks the marks of a review made from uploaded judgements (see the module's notes): every marked move, then
/// the `sample` of unmarked ones (move indices), each searched again ([`SearchAgain`]) at [`first_budget`] and,
/// when that does not bear the mark out, at the full budget. `hooks` as for a review (each search admitted;
/// progress counts the moves checked, two searches per judge each).
pub fn check(
    start: &Position,
    moves: &[Move],
    review: &GameReview,
    options: &Options,
    sample: &[usize],
    hooks: &mut Hooks<'_>,
) -> Result<Checked, Refusal> {
    let refusal = |ply: usize, class: Class, value: f64| Refusal {
        ply,
        san: review.moves.get(ply.wrapping_sub(1)).map(|m| m.san.clone()).unwrap_or_default(),
        class,
        found: crate::round1(value),
    };
    let mut again = SearchAgain::new(start, moves, options).map_err(|_| refusal(0, Class::Good, 0.0))?;
    let marked = review.moves.iter().enumerate().filter(|(_, r)| r.class.is_error()).map(|(i, _)| i);
    let todo: Vec<usize> = marked.chain(sample.iter().copied().filter(|&i| i < moves.len())).collect();
    let per_move = again.judges() * 2;
    let total = todo.len() * per_move;
    let mut checked = Checked::default();
    for &i in &todo {
        let class = review.moves[i].class;
        again.forget();
        let mut losses = again.losses(i, first_budget(options), hooks.admit);
        checked.searches += per_move;
        if !stands(class, &losses) {
            losses = again.losses(i, options.nodes, hooks.admit);
            checked.searches += per_move;
        }
        checked.moves += 1;
        (hooks.progress)(checked.moves * per_move, total);
        if !stands(class, &losses) {
            return Err(refusal(i + 1, class, found(class, &losses)));
        }
    }
    Ok(checked)
}

/// Reads an upload's text (JSON): the error says where it is wrong.
pub fn parse(text: &str) -> Result<Upload, String> {
    serde_json::from_str(text).map_err(|e| format!("the review's judgements: {e}"))
}

/// The start position of a game given as FEN (`None`: the standard start), for the browser's module.
pub fn start_position(fen: Option<&str>) -> Result<Position, String> {
    match fen {
        None => Ok(Position::new()),
        Some(f) => Position::from_fen_with(f, CastlingMode::Auto, guoxiang_core::Validation::Strict)
            .map_err(|e| format!("bad FEN: {e}")),
    }
}
