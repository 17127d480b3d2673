//! guoxiang-review: 复盘 — a game reviewed move by move by our engine, each move classed by the winning chances it
//! lost, and each inaccuracy, mistake and blunder explained in chess terms with the tactics tagger (docs/review.md).
//!
//! | module | what lives there |
//! |---|---|
//! | `chances` | the expected-score curve, the move classes and their thresholds, the marks for people, accuracy |
//! | `explain` | the sentence (zh, en; each with Chinese and Latin piece letters) for a move that lost something, in words |
//! | `pgn` | the review written into the game as PGN: `[%eval]` comments, NAGs, the better line as a variation |
//!
//! No I/O: [`review`] takes the start position and the moves, searches every position once per judge (by default
//! two: the engine with its hand-written evaluation and with its network, [`Judges`]) at a fixed node budget (one
//! thread, a fresh hash table per judge and game: the same game and budget always give the same review) and reports
//! its progress through a callback.

pub mod chances;
pub mod exercise;
pub mod explain;
pub mod pgn;
pub mod search;
pub mod upload;

use std::sync::Mutex;

use guoxiang_core::{Color, Move, Position, UciMove};
use guoxiang_engine::clock::Instant;
use guoxiang_engine::tb::Syzygy;
use guoxiang_engine::{Control, Engine, Info, Limits, Score};
use guoxiang_tactics::Motif;
use serde::Serialize;

pub use chances::{Class, Eval};
pub use search::{Focus, Hooks};

/// The default node budget per position.
pub const DEFAULT_NODES: u64 = 150_000;

/// The engine's hash table for one review (MiB).
const HASH_MB: usize = 32;

/// The scan and focus a review may use (`guoxiang review --scan`; docs/review.md, "Speed"): the scan at a sixth
/// of the budget, then the full budget around every move a judge's scan finds losing at least 20 points. About a
/// third of the searching, but not the same quality as every position at the full budget — more small swings
/// marked, blunders confirmed by Stockfish a little less often — so it is not the default.
pub const FOCUS: Focus = Focus { scan_divisor: 6, min_loss: 20.0, continuation: 0, rest_divisor: 0, recheck: 0.0 };

/// How a review is run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Nodes searched per position.
    pub nodes: u64,
    /// Syzygy endgame tables: positions they cover are judged by them (won, drawn or lost, exactly; the engine's
    /// move is the table's), the others as before.
    pub syzygy: Option<Syzygy>,
    /// Which evaluations judge the game.
    pub judges: Judges,
    /// A scan of every position at a fraction of the budget, then the full budget only around the moves it
    /// suspects (`None`, the default: every position at the full budget).
    pub focus: Option<Focus>,
    /// 2: each judge searches on its own thread (the review is the same; only its time changes).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { nodes: DEFAULT_NODES, syzygy: None, judges: Judges::Both, focus: None, threads: 1 }
    }
}

impl Options {
    /// The most searches a review of a game of `moves` moves makes (what its progress counts to at first): every
    /// position, the start and after each move, once per judge, and with a [`Focus`] as many again at most. Once
    /// the scan has chosen the positions to search again, the progress's total falls to the searches really made,
    /// so the share done never goes back.
    pub fn searches(&self, moves: usize) -> usize {
        let judges = if self.judges == Judges::Both { 2 } else { 1 };
        let passes = match self.focus {
            None => 1,
            Some(f) if f.rest_divisor > 0 && f.recheck > 0.0 => 3,
            Some(_) => 2,
        };
        (moves + 1) * judges * passes
    }
}

/// The evaluations a review searches with. Each judge searches every position of the game at the node budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judges {
    /// The hand-written evaluation alone.
    HandWritten,
    /// The network alone.
    Network,
    /// Both, the hand-written evaluation first (its evaluations are the review's): a move is a mistake when either
    /// judge finds it one — each misses some errors the other sees — and a blunder or missed win only when the
    /// other judge also finds it loses at least [`chances::CONFIRM_MIN`] (docs/review.md, "Two judges").
    Both,
}

impl Judges {
    /// `hand`, `network` or `both`.
    pub fn parse(s: &str) -> Option<Judges> {
        match s {
            "hand" => Some(Judges::HandWritten),
            "network" => Some(Judges::Network),
            "both" => Some(Judges::Both),
            _ => None,
        }
    }
}

/// What the engine says about one position, from the side to move's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub eval: Eval,
    /// Expected score of the side to move, 0–100.
    pub expected: f64,
    /// The best move and the line after it (empty when the game is over).
    pub line: Vec<Move>,
    /// The second-best move's expected score (`None`: one legal move, or the game is over).
    pub second: Option<f64>,
    /// The second-best move and its evaluation (side to move's view), when the search reported one.
    pub second_line: Option<(Move, Eval)>,
    /// Legal moves in the position.
    pub legal: usize,
}

impl Judgement {
    pub fn best(&self) -> Option<Move> {
        self.line.first().copied()
    }
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReview {
    /// 1 for White's first move.
    pub ply: usize,
    pub san: String,
    pub uci: String,
    /// The evaluation after the move, from White's side (`{"mate": 0}` after a mating move).
    pub eval: Eval,
    /// The engine's move in the position before (UCI), when there was a choice.
    pub best: Option<String>,
    /// The engine's line from the position before, in SAN.
    pub best_line: Vec<String>,
    pub class: Class,
    /// Winning chances lost, in percentage points (0–100) of the mover's expected score.
    pub loss: f64,
    /// For inaccuracies and worse: what happened, in zh and en.
    pub comment: Option<Comment>,
    /// The motifs the comment is about.
    pub motifs: Vec<Motif>,
    /// For inaccuracies and worse: which kind of error the comment describes (not in the JSON).
    #[serde(skip)]
    pub kind: Option<explain::Kind>,
    /// What each judge found, the first judge's first (not in the JSON): for calibrating the marks from a dump
    /// (crates/review/examples/review_dump.rs) without searching again.
    #[serde(skip)]
    pub verdicts: Vec<Verdict>,
}

/// One judge's verdict on a move, before the judges are combined and the marks for people applied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    pub loss: f64,
    pub class: Class,
    pub facts: chances::Facts,
}

/// A sentence in both languages, each with the moves in Chinese piece letters (王后车象马: `马f3`) and in SAN's
/// Latin ones (`Nf3`): the learner chooses the letters whatever the language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Comment {
    /// Chinese, moves with Chinese letters.
    pub zh: String,
    /// Chinese, moves in SAN.
    pub zh_latin: String,
    /// English, moves in SAN.
    pub en: String,
    /// English, moves with Chinese letters.
    pub en_chinese: String,
}

/// One side's figures.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SideSummary {
    /// 0–100; `None` when the side had no move with a choice.
    pub accuracy: Option<f64>,
    /// Average centipawn loss (each move's loss capped at 1000 cp; mates count as 1000).
    pub acpl: Option<f64>,
    /// Moves per class id.
    pub counts: std::collections::BTreeMap<&'static str, u32>,
}

/// A reviewed game.
#[derive(Clone, Debug, Serialize)]
pub struct GameReview {
    pub moves: Vec<MoveReview>,
    pub white: SideSummary,
    pub black: SideSummary,
    /// The node budget per position.
    pub nodes: u64,
}

impl GameReview {
    /// `{"white": …, "black": …}` accuracies.
    pub fn accuracy(&self) -> serde_json::Value {
        serde_json::json!({ "white": self.white.accuracy.map(round1), "black": self.black.accuracy.map(round1) })
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Reviews the game of `moves` from `start`. `progress(done, total)` is called after each position searched.
pub fn review(
    start: &Position,
    moves: &[Move],
    options: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GameReview, String> {
    review_judged(start, moves, options, &mut Hooks { admit: &search::no_admit, progress }).map(|(r, _)| r)
}

/// As [`review`], with the caller's [`Hooks`], and also what the (first) judge said about every position (the start
/// and after each move): for calibration (crates/review/examples/review_dump.rs).
pub fn review_judged(
    start: &Position,
    moves: &[Move],
    options: &Options,
    hooks: &mut Hooks<'_>,
) -> Result<(GameReview, Vec<Judgement>), String> {
    let judged = judge_game(start, moves, options, hooks)?;
    review_from_judgements(start, moves, options, judged)
}

/// What each judge found in every position of the game (the start and after each move; the first judge's list
/// first): the searching half of [`review_judged`]. A learner's browser runs this (crates/engine-wasm) and sends
/// the result to the server ([`upload`]), which makes the review of it with [`review_from_judgements`].
pub fn judge_game(
    start: &Position,
    moves: &[Move],
    options: &Options,
    hooks: &mut Hooks<'_>,
) -> Result<Vec<Vec<Judgement>>, String> {
    let positions = replay(start, moves)?;
    let histories = histories(&positions);
    let game = search::Game { positions: &positions, histories: &histories };
    Ok(judge_positions(&game, moves, options, hooks))
}

/// The review of the game from its judges' judgements ([`judge_game`]; one list per judge of `options.judges`,
/// each with one judgement per position): the classes, marks, sentences and figures, without searching. The same
/// judgements always give the same review.
pub fn review_from_judgements(
    start: &Position,
    moves: &[Move],
    options: &Options,
    mut judged: Vec<Vec<Judgement>>,
) -> Result<(GameReview, Vec<Judgement>), String> {
    let positions = replay(start, moves)?;
    let judges = if options.judges == Judges::Both { 2 } else { 1 };
    if judged.len() != judges || judged.iter().any(|j| j.len() != positions.len()) {
        return Err(format!(
            "the judgements are not one per position ({}) for each of {judges} judges",
            positions.len()
        ));
    }
    let first = std::mem::take(&mut judged[0]);
    let other = judged.pop().filter(|_| options.judges == Judges::Both);
    let mut out = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        let (before, after) = (&positions[i], &positions[i + 1]);
        let (jb, ja) = (&first[i], &first[i + 1]);
        let (loss, class) = assess(m, jb, ja);
        let white_eval = white_eval_after(before, after, ja);
        let Some(other) = &other else {
            let f = explain::facts(before, m, jb, ja);
            let verdict = Verdict { loss, class, facts: f };
            let class = chances::for_people(class, loss, f, loss, f.people_loss);
            let mut r = review_move_as(before, m, jb, ja, i + 1, loss, class, white_eval);
            r.verdicts = vec![verdict];
            out.push(r);
            continue;
        };
        let (ob, oa) = (&other[i], &other[i + 1]);
        let (other_loss, other_class) = assess(m, ob, oa);
        // The judge that finds the larger error speaks for the move (its loss, line and sentence); the first
        // judge's evaluation stays, so that the graph is one evaluation's.
        let first_errs = class.is_mistake_or_worse();
        let other_errs = other_class.is_mistake_or_worse();
        let use_other = other_errs && (!first_errs || other_loss > loss);
        let (first_facts, other_facts) = (explain::facts(before, m, jb, ja), explain::facts(before, m, ob, oa));
        let verdicts = vec![
            Verdict { loss, class, facts: first_facts },
            Verdict { loss: other_loss, class: other_class, facts: other_facts },
        ];
        let (jb, ja, loss, class, confirm, facts, other_people) = if use_other {
            (ob, oa, other_loss, other_class, loss, other_facts, first_facts.people_loss)
        } else {
            (jb, ja, loss, class, other_loss, first_facts, other_facts.people_loss)
        };
        let class = chances::for_people(chances::confirmed(class, confirm), loss, facts, confirm, other_people);
        let mut r = review_move_as(before, m, jb, ja, i + 1, loss, class, white_eval);
        r.verdicts = verdicts;
        out.push(r);
    }
    let (white, black) = summarise(&out, &positions);
    Ok((GameReview { moves: out, white, black, nodes: options.nodes }, first))
}

/// The start and the position after each move; an illegal move is refused with its number.
fn replay(start: &Position, moves: &[Move]) -> Result<Vec<Position>, String> {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    positions.push(start.clone());
    for (i, &m) in moves.iter().enumerate() {
        let p = positions.last().expect("a position");
        if !p.is_legal(m) {
            return Err(format!("move {}: {} is not legal", i + 1, p.uci(m)));
        }
        positions.push(p.after(m));
    }
    Ok(positions)
}

/// For each position, the hashes of the game's positions before it since the last capture or pawn move.
fn histories(positions: &[Position]) -> Vec<Vec<u64>> {
    let mut histories = Vec::with_capacity(positions.len());
    let mut history: Vec<u64> = Vec::new();
    for p in positions {
        histories.push(history.clone());
        history.push(p.hash());
        if p.halfmoves() == 0 {
            history.clear();
            history.push(p.hash());
        }
    }
    histories
}

/// One engine per judge of `options` (the hand-written evaluation first), each with its own table, MultiPV 2 and
/// the options' endgame tables: the judges of a review, and of a check of a browser's review (`upload`).
fn judge_engines(options: &Options) -> Vec<Engine> {
    let networks: &[bool] = match options.judges {
        Judges::HandWritten => &[false],
        Judges::Network => &[true],
        Judges::Both => &[false, true],
    };
    networks
        .iter()
        .map(|&network| {
            let mut engine = Engine::new(HASH_MB);
            engine.options.multipv = 2;
            if !network {
                engine.options.nnue = None;
            }
            engine.options.syzygy = options.syzygy.clone();
            engine
        })
        .collect()
}

/// Every position judged by each judge (the first judge's judgements first): the scan of every position from the
/// last to the first, then, with a [`Focus`], the positions around the moves the scan suspects searched again at
/// the full budget (the module `search`).
fn judge_positions(
    game: &search::Game<'_>,
    moves: &[Move],
    options: &Options,
    hooks: &mut Hooks<'_>,
) -> Vec<Vec<Judgement>> {
    let n = game.positions.len();
    let mut judges: Vec<search::JudgeRun> = judge_engines(options)
        .into_iter()
        .map(|engine| search::JudgeRun { engine, judgements: vec![None; n] })
        .collect();
    let scan_nodes = options.focus.map_or(options.nodes, |f| (options.nodes / f.scan_divisor.max(1)).max(1));
    let all: Vec<(usize, u64)> = (0..n).rev().map(|i| (i, scan_nodes)).collect();
    let total = options.searches(n - 1);
    let done = search::run(game, &mut judges, &all, options.threads, hooks, (0, total));
    if let Some(focus) = options.focus {
        let wanted = search::focus_positions(&move_losses(moves, &judges), focus.min_loss, focus.continuation);
        let mut full = vec![false; n];
        for &i in &wanted {
            full[i] = true;
        }
        let again: Vec<(usize, u64)> = match options.nodes.checked_div(focus.rest_divisor) {
            None => wanted.iter().map(|&i| (i, options.nodes)).collect(),
            Some(rest) => (0..n).rev().map(|i| (i, if full[i] { options.nodes } else { rest.max(1) })).collect(),
        };
        let recheck = focus.rest_divisor > 0 && focus.recheck > 0.0;
        // With a third pass to come, the total counts it at its most (every position), so the share done never goes
        // back when the third pass's size is known.
        let mut total = done + (again.len() + if recheck { n } else { 0 }) * judges.len();
        (hooks.progress)(done, total);
        let mut done = search::run(game, &mut judges, &again, options.threads, hooks, (done, total));
        if recheck {
            let third: Vec<(usize, u64)> = search::focus_positions(&move_losses(moves, &judges), focus.recheck, 0)
                .into_iter()
                .filter(|&i| !full[i])
                .map(|i| (i, options.nodes))
                .collect();
            total = done + third.len() * judges.len();
            (hooks.progress)(done, total);
            done = search::run(game, &mut judges, &third, options.threads, hooks, (done, total));
        }
        debug_assert_eq!(done, total);
    }
    judges.into_iter().map(|j| j.judgements.into_iter().map(|x| x.expect("every position judged")).collect()).collect()
}

/// Each move's loss by the stricter of the judges, from the judgements they have so far.
fn move_losses(moves: &[Move], judges: &[search::JudgeRun]) -> Vec<f64> {
    moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            judges
                .iter()
                .map(|j| match (&j.judgements[i], &j.judgements[i + 1]) {
                    (Some(jb), Some(ja)) => move_loss(m, jb, ja),
                    _ => 0.0,
                })
                .fold(0.0, f64::max)
        })
        .collect()
}

/// The points the move `m` from `pos` loses by the stricter of the two judges (the hand-written evaluation and the
/// network, each searching the position before and after it at `nodes`, with a table of `hash_mb` MiB): how a move
/// tried in "learn from your mistakes" is judged, as the review judged the game's. `history` as for [`judge`].
pub fn loss_by_both_judges(pos: &Position, history: &[u64], m: Move, nodes: u64, hash_mb: usize) -> f64 {
    let next = pos.after(m);
    let mut next_history = history.to_vec();
    next_history.push(pos.hash());
    [false, true]
        .map(|network| {
            let mut engine = Engine::new(hash_mb);
            if !network {
                engine.options.nnue = None;
            }
            let before = judge(&engine, pos, history, nodes);
            let after = judge(&engine, &next, &next_history, nodes);
            (before.expected - (100.0 - after.expected)).max(0.0)
        })
        .into_iter()
        .fold(0.0, f64::max)
}

/// Searches one position (or scores a finished one). `history`: the hashes of the game's positions before `pos`
/// since the last capture or pawn move, oldest first; only those whose return would be a threefold repetition
/// count (see [`threefold_history`]).
pub fn judge(engine: &Engine, pos: &Position, history: &[u64], nodes: u64) -> Judgement {
    judge_with(engine, pos, history, nodes, true)
}

/// As [`judge`]; `clear`: empty the hash table first (else the search starts from what earlier searches stored).
pub(crate) fn judge_with(engine: &Engine, pos: &Position, history: &[u64], nodes: u64, clear: bool) -> Judgement {
    let legal = pos.count_legal();
    if legal == 0 {
        return if pos.is_check() {
            Judgement { eval: Eval::Mate(0), expected: 0.0, line: Vec::new(), second: None, second_line: None, legal }
        } else {
            Judgement { eval: Eval::Cp(0), expected: 50.0, line: Vec::new(), second: None, second_line: None, legal }
        };
    }
    if clear {
        engine.clear_hash();
    }
    let seen: Mutex<[Option<Info>; 2]> = Mutex::new([None, None]);
    let reporter = |info: &Info| {
        if let Ok(mut s) = seen.lock()
            && (1..=2).contains(&info.multipv)
        {
            s[info.multipv as usize - 1] = Some(info.clone());
        }
    };
    let limits = Limits { nodes: Some(nodes.max(1)), ..Limits::default() };
    let history = threefold_history(pos, history);
    let result = engine.search(pos, &history, &limits, &Control::default(), &reporter, Instant::now());
    let seen = seen.into_inner().unwrap_or_else(|e| e.into_inner());
    let eval = to_eval(result.score);
    let mut line = seen[0].as_ref().filter(|i| i.pv.first() == result.best.as_ref()).map(|i| i.pv.clone());
    if line.is_none() {
        line = result.best.map(|b| vec![b]);
    }
    // The second line's last report may be from an unfinished iteration that had the best move second: then there
    // is no second move to name.
    let second_line = if legal > 1 {
        seen[1]
            .as_ref()
            .and_then(|i| i.pv.first().map(|&m| (m, to_eval(i.score))))
            .filter(|&(m, _)| result.best != Some(m))
    } else {
        None
    };
    let second = if legal > 1 { seen[1].as_ref().map(|i| expected(to_eval(i.score))) } else { None };
    Judgement { eval, expected: expected(eval), line: line.unwrap_or_default(), second, second_line, legal }
}

/// The game's history as a review's search sees it: a position of the game stays only if it occurred twice
/// already (counting `pos`), so that going back to it would be a threefold repetition; the others are blanked
/// (0), in their places. The engine scores any return to a position in its history as a draw, which is right in
/// play but not for judging a move: a side that could go back once to a position of the game would be scored a
/// draw although the opponent need not go along (a losing side "saved" by a repetition that is not forced made
/// the move before it look like a missed win, and the next move like a blunder).
pub fn threefold_history(pos: &Position, history: &[u64]) -> Vec<u64> {
    let root = pos.hash();
    history
        .iter()
        .map(|&h| {
            let seen = history.iter().filter(|&&x| x == h).count() + usize::from(h == root);
            if seen >= 2 { h } else { 0 }
        })
        .collect()
}

fn to_eval(s: Score) -> Eval {
    match s.mate_moves() {
        Some(m) => Eval::Mate(m),
        None => Eval::Cp(s.cp()),
    }
}

fn expected(e: Eval) -> f64 {
    e.expected()
}

/// The eval of `j` (side to move at the position after the move) seen from the mover: after a mating move
/// `Mate(0)` stays `Mate(0)` (it is marked by the game being over) but counts as 100.
fn after_for_mover(j: &Judgement) -> (Eval, f64) {
    (j.eval.flip(), 100.0 - j.expected)
}

/// The points the move `m` loses by the judgements of the positions before (`jb`) and after it (`ja`): 0 for the
/// engine's own move or a forced one; a deeper look at the move played may find it better than the search before
/// it did: then it lost nothing.
fn move_loss(m: Move, jb: &Judgement, ja: &Judgement) -> f64 {
    let (_, exp_after) = after_for_mover(ja);
    if jb.best() == Some(m) || jb.legal <= 1 { 0.0 } else { (jb.expected - exp_after).max(0.0) }
}

/// Reviews one move `m` (the `ply`-th of its game) from `before` to `after`, given what the engine said about both
/// positions ([`judge`]): its class, loss and, for an error, the sentence.
pub fn review_move(
    before: &Position,
    m: Move,
    jb: &Judgement,
    ja: &Judgement,
    after: &Position,
    ply: usize,
) -> MoveReview {
    let (loss, class) = assess(m, jb, ja);
    let f = explain::facts(before, m, jb, ja);
    let class = chances::for_people(class, loss, f, loss, f.people_loss);
    review_move_as(before, m, jb, ja, ply, loss, class, white_eval_after(before, after, ja))
}

/// The loss and class of the move `m` by the judgements of the positions before (`jb`) and after it (`ja`).
fn assess(m: Move, jb: &Judgement, ja: &Judgement) -> (f64, Class) {
    let (_, exp_after) = after_for_mover(ja);
    let engine_move = jb.best() == Some(m);
    let exp_before = jb.expected.max(exp_after);
    let loss = move_loss(m, jb, ja);
    let second_loss = if engine_move { jb.second.map(|s| (exp_before - s).max(0.0)) } else { None };
    let class = if jb.legal <= 1 {
        Class::Best
    } else {
        chances::classify(loss, engine_move, exp_before, exp_after, second_loss)
    };
    (loss, class)
}

/// The evaluation after the move from White's side (`{"mate": 0}` after a mating move) by the judgement `ja` of
/// the position `after` it.
fn white_eval_after(before: &Position, after: &Position, ja: &Judgement) -> Eval {
    if ja.legal == 0 && after.is_check() {
        return Eval::Mate(0);
    }
    match before.turn() {
        Color::White => ja.eval.flip(),
        Color::Black => ja.eval,
    }
}

/// The move's review with its class and loss decided: the best line from `jb`, the sentence (for an error) from
/// `jb` and `ja`.
#[allow(clippy::too_many_arguments)]
fn review_move_as(
    before: &Position,
    m: Move,
    jb: &Judgement,
    ja: &Judgement,
    ply: usize,
    loss: f64,
    class: Class,
    white_eval: Eval,
) -> MoveReview {
    let (comment, motifs, kind) = if class.is_error() {
        let e = explain::explain(before, m, jb, ja, class);
        (Some(e.comment), e.motifs, Some(e.kind))
    } else {
        (None, Vec::new(), None)
    };
    let c960 = before.is_chess960();
    MoveReview {
        ply,
        san: before.san(m),
        uci: UciMove::from_move(m, c960).to_string(),
        eval: white_eval,
        best: if jb.legal > 1 { jb.best().map(|b| UciMove::from_move(b, c960).to_string()) } else { None },
        best_line: san_line(before, &jb.line),
        class,
        loss: round1(loss),
        comment,
        motifs,
        kind,
        verdicts: Vec::new(),
    }
}

/// SAN of a line from `pos` (stops at the first move that is not legal, which a PV never has).
pub fn san_line(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in line {
        if !p.is_legal(m) {
            break;
        }
        out.push(p.san(m));
        p.play_unchecked(m);
    }
    out
}

/// [`san_line`] with Chinese piece letters (马f3).
pub fn san_line_zh(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in line {
        if !p.is_legal(m) {
            break;
        }
        out.push(p.san_zh(m));
        p.play_unchecked(m);
    }
    out
}

/// Centipawn loss of one move for the average: from the mover's side, capped at 1000.
fn cp_loss(before: Eval, after: Eval) -> f64 {
    let cp = |e: Eval| match e {
        Eval::Cp(c) => f64::from(c.clamp(-1000, 1000)),
        Eval::Mate(m) if m > 0 => 1000.0,
        Eval::Mate(_) => -1000.0,
    };
    (cp(before) - cp(after)).clamp(0.0, 1000.0)
}

fn summarise(moves: &[MoveReview], positions: &[Position]) -> (SideSummary, SideSummary) {
    let mut sums = [(0.0, 0.0, 0u32), (0.0, 0.0, 0u32)];
    let mut counts: [std::collections::BTreeMap<&'static str, u32>; 2] = Default::default();
    for (i, mv) in moves.iter().enumerate() {
        let side = usize::from(positions[i].turn() == Color::Black);
        *counts[side].entry(mv.class.id()).or_default() += 1;
        if positions[i].count_legal() <= 1 {
            continue;
        }
        // The evaluations from the mover's side: before = after the engine's move, after = after the move played.
        let white_after = mv.eval;
        let white_before = if i == 0 { None } else { Some(moves[i - 1].eval) };
        let mover_after = if side == 0 { white_after } else { white_after.flip() };
        let mover_before = white_before.map(|e| if side == 0 { e } else { e.flip() }).unwrap_or(Eval::Cp(0));
        let s = &mut sums[side];
        s.0 += chances::move_accuracy(mv.loss);
        s.1 += if mv.loss == 0.0 { 0.0 } else { cp_loss(mover_before, mover_after) };
        s.2 += 1;
    }
    let mut side = |k: usize| {
        let (acc, cpl, n) = sums[k];
        SideSummary {
            accuracy: (n > 0).then(|| acc / f64::from(n)),
            acpl: (n > 0).then(|| round1(cpl / f64::from(n))),
            counts: std::mem::take(&mut counts[k]),
        }
    };
    let white = side(0);
    let black = side(1);
    (white, black)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, sans: &[&str]) -> (Position, Vec<Move>) {
        let start = Position::from_fen(fen).expect("fen");
        let mut p = start.clone();
        let moves = sans.iter().map(|s| p.play_san(s).expect("san")).collect();
        (start, moves)
    }

    #[test]
    fn a_hung_queen_is_a_blunder_and_the_best_moves_are_not() {
        // 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#
        let (start, moves) = play(guoxiang_core::STARTING_FEN, &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]);
        let r =
            review(&start, &moves, &Options { nodes: 20_000, ..Options::default() }, &mut |_, _| {}).expect("review");
        assert_eq!(r.moves.len(), 7);
        assert!(matches!(r.moves[5].class, Class::Blunder), "{:?}", r.moves[5]);
        assert!(r.moves[5].comment.is_some());
        assert_eq!(r.moves[6].eval, Eval::Mate(0));
        assert!(!r.moves[6].class.is_error());
        assert!(r.black.accuracy.expect("black") < r.white.accuracy.expect("white"));
        // The sentence says the mate in words, without the move itself first; the Chinese sentence writes the moves
        // with Chinese piece letters, the English one in SAN, and each has the other letters too.
        let c = r.moves[5].comment.as_ref().expect("a comment");
        assert!(c.zh.starts_with("让对方有一步杀") && c.zh.contains("后xf7#"), "{}", c.zh);
        assert!(!c.zh.contains("Nf6") && !c.zh.contains("Qxf7") && !c.zh.contains("马f6"), "{}", c.zh);
        assert!(c.en.starts_with("allows mate in one") && c.en.contains("Qxf7#"), "{}", c.en);
        assert!(c.zh_latin.starts_with("让对方有一步杀") && c.zh_latin.contains("Qxf7#"), "{}", c.zh_latin);
        assert!(c.en_chinese.starts_with("allows mate in one") && c.en_chinese.contains("后xf7#"), "{}", c.en_chinese);
    }

    #[test]
    fn two_judges_mark_what_either_finds_and_blunders_both_find() {
        // The Blackburne Shilling trap: 3…Nd4 4. Nxe5? Qg5 5. Nxf7?? Qxg2 6. Rf1 Qxe4+ 7. Be2?? Nf3#.
        let sans =
            ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5", "Qg5", "Nxf7", "Qxg2", "Rf1", "Qxe4+", "Be2", "Nf3#"];
        let (start, moves) = play(guoxiang_core::STARTING_FEN, &sans);
        let run = |judges| {
            let options = Options { nodes: 10_000, judges, ..Options::default() };
            review(&start, &moves, &options, &mut |_, _| {}).expect("review")
        };
        let (hand, net, both) = (run(Judges::HandWritten), run(Judges::Network), run(Judges::Both));
        for ((h, n), b) in hand.moves.iter().zip(&net.moves).zip(&both.moves) {
            // The graph is the first judge's.
            assert_eq!(b.eval, h.eval, "{}", b.san);
            // The judge that finds the larger error speaks for a marked move: its loss, best move and line (the
            // classes themselves are `chances::confirmed` and `chances::for_people` of that judge's, tested there).
            if b.class.is_mistake_or_worse() {
                let spoke = if (b.loss, &b.best) == (n.loss, &n.best) { n } else { h };
                assert_eq!((b.loss, &b.best, &b.best_line), (spoke.loss, &spoke.best, &spoke.best_line), "{}", b.san);
                assert!(h.loss.max(n.loss) >= chances::MISTAKE_MIN, "{}: {h:?} {n:?}", b.san);
            }
            // A sentence exactly for the moves that get a mark.
            assert_eq!(b.comment.is_some(), b.class.is_error(), "{}", b.san);
        }
        // 5. Nxf7 throws the game away by both judges; at this budget only one of them sees 4. Nxe5 lose.
        assert!(matches!(both.moves[8].class, Class::Blunder | Class::MissedWin), "{:?}", both.moves[8]);
        assert!(
            hand.moves
                .iter()
                .zip(&net.moves)
                .any(|(h, n)| h.class.is_mistake_or_worse() != n.class.is_mistake_or_worse())
        );
    }

    #[test]
    fn a_hung_bishop_gets_a_blunder_mark_and_a_small_swing_none() {
        // 1. e4 e5 2. Bc4 d5 3. Nc3?? dxc4: the bishop on c4 is given away.
        let (start, moves) = play(guoxiang_core::STARTING_FEN, &["e4", "e5", "Bc4", "d5", "Nc3", "dxc4"]);
        let r =
            review(&start, &moves, &Options { nodes: 20_000, ..Options::default() }, &mut |_, _| {}).expect("review");
        let nc3 = &r.moves[4];
        assert_eq!(nc3.class, Class::Blunder, "{nc3:?}");
        let c = nc3.comment.as_ref().expect("a comment");
        assert!(c.zh.starts_with("白白丢掉了 c4 的象") && c.en.starts_with("leaves the bishop on c4"), "{c:?}");
        assert!(c.zh_latin.starts_with("白白丢掉了 c4 的象") && c.en_chinese.starts_with("leaves the bishop on c4"));
        // 1. e4 a6: a swing a beginner cannot feel, whatever the engine's curve makes of it: no mark, no comment.
        let (start, moves) = play(guoxiang_core::STARTING_FEN, &["e4", "a6", "d4"]);
        let r =
            review(&start, &moves, &Options { nodes: 20_000, ..Options::default() }, &mut |_, _| {}).expect("review");
        let a6 = &r.moves[1];
        assert!(!a6.class.is_error() && a6.comment.is_none(), "{a6:?}");
        assert_eq!(chances::nag(a6.class, a6.loss), None);
    }

    #[test]
    fn the_same_game_and_budget_give_the_same_review() {
        let (start, moves) = play(guoxiang_core::STARTING_FEN, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        let a = review(&start, &moves, &Options { nodes: 5_000, ..Options::default() }, &mut |_, _| {}).expect("a");
        let b = review(&start, &moves, &Options { nodes: 5_000, ..Options::default() }, &mut |_, _| {}).expect("b");
        assert_eq!(serde_json::to_string(&a).expect("a"), serde_json::to_string(&b).expect("b"));
    }

    #[test]
    fn two_threads_give_the_same_review_and_the_focus_searches_again_around_the_swings() {
        // 3. Bc4 is a developing move; after 3… a6 4. O-O b5, 5. Bxb5?? gives the bishop for a pawn.
        let (start, moves) =
            play(guoxiang_core::STARTING_FEN, &["e4", "e5", "Nf3", "Nc6", "Bc4", "a6", "O-O", "b5", "Bxb5", "axb5"]);
        let options = Options { nodes: 12_000, focus: Some(FOCUS), ..Options::default() };
        let mut calls = Vec::new();
        let one = review(&start, &moves, &options, &mut |d, t| calls.push((d, t))).expect("one thread");
        let two = review(&start, &moves, &Options { threads: 2, ..options.clone() }, &mut |_, _| {}).expect("two");
        assert_eq!(serde_json::to_string(&one).expect("one"), serde_json::to_string(&two).expect("two"));
        // The scan counts every position once per judge; the focus adds the positions around the swings (5. Bxb5
        // at least). The total starts at its most and falls once, so the share done never goes back.
        let scan = (moves.len() + 1) * 2;
        assert_eq!(calls[0], (1, scan * 2));
        let (done, total) = *calls.last().expect("progress");
        assert_eq!(done, total);
        assert!(total >= scan + 4 && total < scan * 2, "{total}");
        assert!(calls.windows(2).all(|w| w[1].0 >= w[0].0 && w[1].1 <= w[0].1));
        assert!(calls.windows(2).all(|w| w[1].0 as f64 / w[1].1 as f64 >= w[0].0 as f64 / w[0].1 as f64));
        assert!(one.moves[8].class.is_mistake_or_worse(), "{:?}", one.moves[8]);
        assert!(!one.moves[4].class.is_mistake_or_worse(), "{:?}", one.moves[4]);
    }

    #[test]
    fn a_second_pass_with_a_rest_budget_searches_every_position_again() {
        let (start, moves) = play(guoxiang_core::STARTING_FEN, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5"]);
        let focus = Focus { scan_divisor: 6, min_loss: 20.0, continuation: 0, rest_divisor: 3, recheck: 0.0 };
        let options = Options { nodes: 6_000, focus: Some(focus), ..Options::default() };
        let mut calls = Vec::new();
        review(&start, &moves, &options, &mut |d, t| calls.push((d, t))).expect("review");
        let positions = (moves.len() + 1) * 2;
        assert_eq!(calls.last(), Some(&(positions * 2, positions * 2)), "the scan, then every position again");
    }

    #[test]
    fn a_third_pass_searches_the_cheaply_suspect_moves_again_at_the_full_budget() {
        let (start, moves) = play(guoxiang_core::STARTING_FEN, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5"]);
        // The scan hands nothing on (no move loses 1,000 points), so the second pass is every position at a third of
        // the budget and the third pass is what that finds: the positions around the moves losing 4 points or more.
        let focus = Focus { scan_divisor: 6, min_loss: 1_000.0, continuation: 0, rest_divisor: 3, recheck: 4.0 };
        let options = Options { nodes: 6_000, focus: Some(focus), ..Options::default() };
        let mut calls = Vec::new();
        let r = review(&start, &moves, &options, &mut |d, t| calls.push((d, t))).expect("review");
        let positions = (moves.len() + 1) * 2;
        assert_eq!(calls[0], (1, positions * 3), "three passes at most");
        let (done, total) = *calls.last().expect("progress");
        assert_eq!(done, total);
        assert!(total > positions * 2 && total < positions * 3, "{total}");
        assert!(calls.windows(2).all(|w| w[1].0 as f64 / w[1].1 as f64 >= w[0].0 as f64 / w[0].1 as f64));
        assert!(r.moves.iter().any(|m| m.class.is_mistake_or_worse()), "a mistake in the game");
        // The third pass can only add searches: with nothing to recheck the review is the two passes'.
        let mut calls = Vec::new();
        let none = Focus { recheck: 1_000.0, ..focus };
        review(&start, &moves, &Options { focus: Some(none), ..options.clone() }, &mut |d, t| calls.push((d, t)))
            .expect("review");
        assert_eq!(calls.last(), Some(&(positions * 2, positions * 2)));
    }

    #[test]
    fn the_focus_takes_both_positions_of_every_suspect_move_from_the_last() {
        assert_eq!(search::focus_positions(&[0.0, 3.0, 0.5, 2.0], 2.0, 0), vec![4, 3, 2, 1]);
        assert_eq!(search::focus_positions(&[1.9, 0.0], 2.0, 0), Vec::<usize>::new());
        assert_eq!(search::focus_positions(&[5.0], 2.0, 0), vec![1, 0]);
        assert_eq!(search::focus_positions(&[5.0, 0.0, 0.0, 0.0], 2.0, 2), vec![3, 2, 1, 0]);
        assert_eq!(search::focus_positions(&[0.0, 0.0, 5.0], 2.0, 2), vec![3, 2]);
    }

    #[test]
    fn the_judgements_come_with_the_review_and_name_the_second_move() {
        let (start, moves) = play(guoxiang_core::STARTING_FEN, &["e4", "e5", "Nf3"]);
        let options = Options { nodes: 3_000, ..Options::default() };
        let mut hooks = Hooks { admit: &search::no_admit, progress: &mut |_, _| {} };
        let (r, js) = review_judged(&start, &moves, &options, &mut hooks).expect("review");
        assert_eq!(js.len(), moves.len() + 1);
        assert_eq!(r.moves.len(), moves.len());
        assert!(js.iter().any(|j| j.second_line.is_some()));
        for j in &js {
            if let Some((m, e)) = j.second_line {
                assert_ne!(j.best(), Some(m));
                assert_eq!(j.second, Some(e.expected()));
            }
        }
    }

    #[test]
    fn only_a_threefold_repetition_of_the_game_counts_as_a_draw() {
        // A bare king against a queen: lost, however often Kg1 could go back to a position of the game — unless
        // that position occurred twice already, when going back is a threefold repetition.
        let pos = Position::from_fen("k7/8/8/8/8/8/q7/7K w - - 10 60").expect("fen");
        let back = Position::from_fen("k7/8/8/8/8/8/q7/6K1 b - - 9 59").expect("fen").hash();
        let engine = Engine::new(4);
        let once = judge(&engine, &pos, &[back, 11, 12], 20_000);
        assert!(once.expected < 5.0, "{:?}", once.eval);
        let twice = judge(&engine, &pos, &[back, 11, 12, 13, back, 14, 15], 20_000);
        assert_eq!(twice.eval, Eval::Cp(0));
        assert_eq!(twice.best().map(|m| pos.uci(m)), Some("h1g1".to_string()));
        assert_eq!(threefold_history(&pos, &[back, 11, back, 11, 12]), vec![back, 11, back, 11, 0]);
    }

    #[test]
    fn progress_counts_every_position_and_illegal_moves_are_refused() {
        let (start, moves) = play(guoxiang_core::STARTING_FEN, &["d4", "d5"]);
        let mut calls = Vec::new();
        let every = Options { nodes: 1_000, ..Options::default() };
        review(&start, &moves, &every, &mut |d, t| calls.push((d, t))).expect("review");
        // Two judges: each position twice.
        assert_eq!(calls, (1..=6).map(|d| (d, 6)).collect::<Vec<_>>());
        calls.clear();
        let hand = Options { nodes: 1_000, judges: Judges::HandWritten, ..Options::default() };
        review(&start, &moves, &hand, &mut |d, t| calls.push((d, t))).expect("review");
        assert_eq!(calls, vec![(1, 3), (2, 3), (3, 3)]);
        let bad = [moves[0], moves[0]];
        let e =
            review(&start, &bad, &Options { nodes: 1_000, ..Options::default() }, &mut |_, _| {}).expect_err("illegal");
        assert!(e.starts_with("move 2: "), "{e}");
    }
}
