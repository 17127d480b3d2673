//! The puzzle checker: is each of the solver's moves the only one that keeps the win, at a stated budget of our
//! engine? (docs/puzzles/checker.md has the measurements behind the numbers below.)
//!
//! For every solver move of a puzzle, in the position where the solver has to play it:
//!
//! 1. If it is the puzzle's last solver move and it mates, it is accepted without a search: the last move may be
//!    any mate, so another mate there is fine.
//! 2. Otherwise the engine searches the position with two principal variations ("multipv 2"), one thread, `nodes`
//!    nodes, an empty transposition table (so the verdict depends on the position and the budget only). The
//!    solution's value is its line's score; when the solution is neither of the two lines it gets a search of its
//!    own (the root restricted to it, the same budget). The *alternative* is the best other move.
//! 3. The move passes when [`keeps_the_win`] holds for (solution, alternative): see there for the exact rule —
//!    in short, a mate must not have a mate as fast beside it; otherwise no alternative may mate, be better, or
//!    be won as well (winning chances ≥ [`WIN`]) without the solution being [`MARGIN`] ahead, and the solution
//!    must not be losing ([`HOLD_CP`]).
//!
//! A puzzle is sound when every solver move passes; the verdict names the first one that does not, and why.

use guoxiang_engine::clock::Instant;
use std::sync::Mutex;
use std::time::Duration;

use guoxiang_core::{Move, Position, Text};
use guoxiang_engine::{Control, Engine, Info, Limits, Score, Silent};

use crate::Puzzle;

/// The default node budget per solver move (multipv 2, one thread). Chosen from docs/puzzles/checker.md: the
/// acceptance of lichess puzzles hardly grows past it, and it costs about a tenth of a second per move.
pub const DEFAULT_NODES: u64 = 100_000;

/// Winning chances (on the −1…+1 scale of [`winning_chances`]) from which a position counts as won: an
/// alternative scoring at least this much *keeps the win*. 0.5 is +2.75 pawns.
pub const WIN: f64 = 0.5;

/// How far ahead in winning chances the solution must be of an alternative that keeps the win.
pub const MARGIN: f64 = 0.3;

/// The lowest value, in centipawns for the solver, a non-mating solution may have: puzzles that save a lost
/// position (lichess's `equality`) need the solution to be about level, not winning.
pub const HOLD_CP: i32 = -200;

/// An alternative mate is "clearly slower" (and so no rival to a mating solution) when it needs at least this many
/// more moves than the solution's mate.
pub const MATE_SLACK: i32 = 1;

/// The logistic slope of [`winning_chances`], per centipawn.
const SLOPE: f64 = 0.004;

/// Winning chances of a score for the side it is given for: −1 (lost) … +1 (won); a mate is ±1.
pub fn winning_chances(s: Score) -> f64 {
    match s.mate_moves() {
        Some(m) if m > 0 => 1.0,
        Some(_) => -1.0,
        None => 2.0 / (1.0 + (-SLOPE * f64::from(s.cp())).exp()) - 1.0,
    }
}

/// A score written for people: `+9.1`, `-0.4`, `#3` (mates in 3), `#-2` (is mated in 2).
pub fn show(s: Score) -> String {
    match s.mate_moves() {
        Some(m) => format!("#{m}"),
        None => format!("{:+.1}", f64::from(s.cp()) / 100.0),
    }
}

/// One engine line at the root: its first move and its score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub mv: Move,
    pub score: Score,
}

/// The engine's two best lines in a position (`second` is `None` with a single legal move), and what they cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopTwo {
    pub best: Line,
    pub second: Option<Line>,
    pub nodes: u64,
}

/// Searches `pos` for its two best moves: one thread, `nodes` nodes, the table cleared first. `history` holds the
/// hashes of the positions before `pos` (for repetitions). `None` when there is no legal move.
pub fn top_two(engine: &Engine, pos: &Position, history: &[u64], nodes: u64) -> Option<TopTwo> {
    let mut e = engine.clone();
    e.options.threads = 1;
    e.options.multipv = 2;
    e.options.level = None;
    e.clear_hash();
    // Each completed iteration reports its lines; keep the deepest complete set.
    let lines: Mutex<Vec<Info>> = Mutex::new(Vec::new());
    let keep = |i: &Info| {
        if let Ok(mut v) = lines.lock() {
            if i.multipv == 1 {
                v.clear();
            }
            v.push(i.clone());
        }
    };
    let limits = Limits { nodes: Some(nodes.max(1)), ..Limits::default() };
    let r = e.search(pos, history, &limits, &Control::default(), &keep, Instant::now());
    let best_move = r.best?;
    let infos = lines.into_inner().unwrap_or_default();
    let line = |k: u32| {
        infos.iter().find(|i| i.multipv == k).and_then(|i| i.pv.first().map(|&mv| Line { mv, score: i.score }))
    };
    let best = line(1).filter(|l| l.mv == best_move).unwrap_or(Line { mv: best_move, score: r.score });
    let second = line(2).filter(|l| l.mv != best.mv);
    let second = match second {
        Some(l) => Some(l),
        None if pos.legal_moves().len() > 1 => {
            // No complete second line (a tiny budget): search the other moves on their own.
            let others: Vec<Move> = pos.legal_moves().iter().copied().filter(|&m| m != best.mv).collect();
            let (l, n) = restricted(engine, pos, history, others, nodes);
            return Some(TopTwo { best, second: l, nodes: r.nodes + n });
        }
        None => None,
    };
    Some(TopTwo { best, second, nodes: r.nodes })
}

/// The best of `moves` in `pos` and its score (one thread, `nodes`, the table cleared), and the nodes spent.
fn restricted(engine: &Engine, pos: &Position, history: &[u64], moves: Vec<Move>, nodes: u64) -> (Option<Line>, u64) {
    let mut e = engine.clone();
    e.options.threads = 1;
    e.options.multipv = 1;
    e.options.level = None;
    e.clear_hash();
    let limits = Limits { nodes: Some(nodes.max(1)), searchmoves: moves, ..Limits::default() };
    let r = e.search(pos, history, &limits, &Control::default(), &Silent, Instant::now());
    (r.best.map(|mv| Line { mv, score: r.score }), r.nodes)
}

/// The score of one move `m` in `pos` for the side to move, and the nodes spent.
pub fn score_move(engine: &Engine, pos: &Position, history: &[u64], m: Move, nodes: u64) -> (Score, u64) {
    let (l, n) = restricted(engine, pos, history, vec![m], nodes);
    (l.map_or(Score::DRAW, |l| l.score), n)
}

/// Why a solver move is not the only one that keeps the win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The alternative mates too, and not slower (it needs fewer than [`MATE_SLACK`] more moves).
    AlsoMates,
    /// The alternative mates and the solution does not.
    AlternativeMates,
    /// The solution is losing (below [`HOLD_CP`]) or is mated.
    NotWinning,
    /// The engine finds the alternative better than the solution.
    Better,
    /// The alternative keeps the win as well (it is won, [`WIN`], and the solution is not [`MARGIN`] ahead).
    AlsoWins,
}

/// Does a solution scoring `solution` (for the solver) keep the win that an alternative scoring `alternative`
/// (`None`: there is no other legal move) does not?
///
/// - The solution mates in *n*: it passes unless the alternative mates in fewer than *n* + [`MATE_SLACK`] moves
///   ([`Failure::AlsoMates`]); an alternative that does not mate is no rival (winning material is not mating).
/// - The solution does not mate: an alternative mate fails it ([`Failure::AlternativeMates`]), so does a solution
///   below [`HOLD_CP`] or being mated ([`Failure::NotWinning`]), or an alternative the engine finds better
///   ([`Failure::Better`]). An alternative that is itself won (winning chances ≥ [`WIN`]) keeps the win, unless the
///   solution is [`MARGIN`] ahead of it ([`Failure::AlsoWins`]): so when the solver is already far ahead, with
///   many moves that win, no move is "the only one".
pub fn keeps_the_win(solution: Score, alternative: Option<Score>) -> Result<(), Failure> {
    let sol_mate = solution.mate_moves();
    let alt_mate = alternative.and_then(Score::mate_moves);
    match (sol_mate, alt_mate) {
        (Some(n), Some(a)) if n > 0 && a > 0 => {
            if a >= n + MATE_SLACK {
                Ok(())
            } else {
                Err(Failure::AlsoMates)
            }
        }
        (Some(n), _) if n > 0 => Ok(()),
        (Some(_), _) => Err(Failure::NotWinning),
        (None, Some(a)) if a > 0 => Err(Failure::AlternativeMates),
        (None, _) => {
            if solution.cp() < HOLD_CP {
                return Err(Failure::NotWinning);
            }
            let Some(alt) = alternative else { return Ok(()) };
            let (s, a) = (winning_chances(solution), winning_chances(alt));
            if a > s {
                Err(Failure::Better)
            } else if a >= WIN && s - a < MARGIN {
                Err(Failure::AlsoWins)
            } else {
                Ok(())
            }
        }
    }
}

/// The generator's stricter test: [`keeps_the_win`], and besides, a solution that does not mate must be
/// [`MARGIN`] ahead of the alternative in winning chances and either be won itself (≥ [`WIN`]) against an
/// alternative that is not, or be 0.5 ahead.
pub fn decisive(solution: Score, alternative: Option<Score>) -> bool {
    if keeps_the_win(solution, alternative).is_err() {
        return false;
    }
    if solution.mate_moves().is_some_and(|n| n > 0) {
        return true;
    }
    let (s, a) = (winning_chances(solution), alternative.map_or(-1.0, winning_chances));
    s - a >= MARGIN && ((s >= WIN && a < WIN) || s - a >= 0.5)
}

/// The checker's verdict on one puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub sound: bool,
    /// Why (zh and en): "all 3 solver moves are the only ones that keep the win", or which move failed and why.
    pub reason: Text,
    /// The failing solver move, as an index into [`Puzzle::moves`] (1 = the first solver move, 3 = the second…).
    pub ply: Option<usize>,
    /// The other move that keeps the win (or the engine's better move), when there is one.
    pub alternative: Option<Move>,
    /// The solution's and the alternative's scores at the failing move (for the solver), when searched.
    pub scores: Option<(Score, Option<Score>)>,
    /// Why the failing move failed.
    pub failure: Option<Failure>,
    /// Each solver move judged, in order (up to the failing one).
    pub moves: Vec<MoveReport>,
    pub nodes: u64,
    pub time: Duration,
}

/// What the engine said about one solver move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// Index into [`Puzzle::moves`].
    pub ply: usize,
    /// The solution's score for the solver (`None` when accepted as a final mate without a search).
    pub solution: Option<Score>,
    /// The best other move and its score.
    pub alternative: Option<Line>,
}

/// The result of judging one solver move.
#[derive(Clone, Debug)]
pub struct MoveJudgement {
    /// `Ok(())` when the move is the only one that keeps the win.
    pub result: Result<(), Failure>,
    /// The solution's score (`None` when accepted as a final mate without a search).
    pub solution: Option<Score>,
    /// The best other move and its score.
    pub alternative: Option<Line>,
    pub nodes: u64,
}

/// Judges one solver move `m` in `pos` (the solver to move): is it the only move that keeps the win, at `nodes`?
/// `last` says it is the line's last solver move (where any mate will do).
pub fn judge_move(engine: &Engine, pos: &Position, history: &[u64], m: Move, last: bool, nodes: u64) -> MoveJudgement {
    if last && pos.after(m).is_checkmate() {
        return MoveJudgement { result: Ok(()), solution: None, alternative: None, nodes: 0 };
    }
    let Some(top) = top_two(engine, pos, history, nodes) else {
        return MoveJudgement { result: Err(Failure::NotWinning), solution: None, alternative: None, nodes: 0 };
    };
    let mut spent = top.nodes;
    let (solution, alternative) = if top.best.mv == m {
        (top.best.score, top.second)
    } else if let Some(s) = top.second.filter(|s| s.mv == m) {
        (s.score, Some(top.best))
    } else {
        let (s, n) = score_move(engine, pos, history, m, nodes);
        spent += n;
        (s, Some(top.best))
    };
    let result = keeps_the_win(solution, alternative.map(|l| l.score));
    MoveJudgement { result, solution: Some(solution), alternative, nodes: spent }
}

/// Checks a puzzle: every solver move must be the only move that keeps the win at `nodes` nodes per move (see the
/// module's documentation). A trailing opponent move, if any, is not judged. Deterministic for a given budget.
pub fn check(p: &Puzzle, engine: &Engine, nodes: u64) -> Verdict {
    let started = Instant::now();
    let mut pos = p.position.clone();
    let mut history: Vec<u64> = Vec::with_capacity(p.moves.len());
    let last_solver = if p.moves.len().is_multiple_of(2) { p.moves.len() - 1 } else { p.moves.len() - 2 };
    let mut spent = 0u64;
    let mut reports = Vec::new();
    for (ply, &m) in p.moves.iter().enumerate() {
        if ply % 2 == 1 {
            let j = judge_move(engine, &pos, &history, m, ply == last_solver, nodes);
            spent += j.nodes;
            reports.push(MoveReport { ply, solution: j.solution, alternative: j.alternative });
            if let Err(f) = j.result {
                let alt = j.alternative;
                return Verdict {
                    sound: false,
                    reason: failure_text(&pos, ply, m, f, j.solution, alt),
                    ply: Some(ply),
                    alternative: alt.map(|l| l.mv),
                    scores: j.solution.map(|s| (s, alt.map(|l| l.score))),
                    failure: Some(f),
                    moves: reports,
                    nodes: spent,
                    time: started.elapsed(),
                };
            }
        }
        history.push(pos.hash());
        pos.play_unchecked(m);
    }
    let n = reports.len();
    Verdict {
        sound: true,
        reason: Text {
            zh: format!("全部 {n} 步解法着法都是唯一保持胜势的着法"),
            en: format!(
                "{} the only move{} that keep{} the win",
                if n == 1 { "the solver move is".to_string() } else { format!("all {n} solver moves are") },
                if n == 1 { "" } else { "s" },
                if n == 1 { "s" } else { "" }
            ),
        },
        ply: None,
        alternative: None,
        scores: None,
        failure: None,
        moves: reports,
        nodes: spent,
        time: started.elapsed(),
    }
}

/// The reason for a failed move: "move 2 (Qxf7+): Qh5 keeps the win as well (+9.1 vs +9.8)".
fn failure_text(pos: &Position, ply: usize, m: Move, f: Failure, sol: Option<Score>, alt: Option<Line>) -> Text {
    let number = ply.div_ceil(2);
    let (san, san_zh) = (pos.san(m), pos.san_zh(m));
    let s = sol.map(show).unwrap_or_default();
    let (alt_en, alt_zh, a) = match alt {
        Some(l) => (pos.san(l.mv), pos.san_zh(l.mv), show(l.score)),
        None => (String::new(), String::new(), String::new()),
    };
    let mates = |s: Option<Score>| s.and_then(Score::mate_moves).unwrap_or(0);
    let (en, zh) = match f {
        Failure::AlsoMates => (
            format!("{alt_en} mates as well (mate in {} vs mate in {})", mates(alt.map(|l| l.score)), mates(sol)),
            format!("{alt_zh} 同样可以将死（{} 步杀 对 {} 步杀）", mates(alt.map(|l| l.score)), mates(sol)),
        ),
        Failure::AlternativeMates => (
            format!("{alt_en} mates ({a}) and the solution does not ({s})"),
            format!("{alt_zh} 可以将死（{a}），解法着法却不能（{s}）"),
        ),
        Failure::NotWinning => (
            format!("the solution does not keep the win ({s}; best {alt_en} {a})"),
            format!("解法着法并不保持胜势（{s}；最佳 {alt_zh} {a}）"),
        ),
        Failure::Better => (format!("{alt_en} is better ({a} vs {s})"), format!("{alt_zh} 更好（{a} 对 {s}）")),
        Failure::AlsoWins => {
            (format!("{alt_en} keeps the win as well ({a} vs {s})"), format!("{alt_zh} 同样保持胜势（{a} 对 {s}）"))
        }
    };
    Text { en: format!("move {number} ({san}): {en}"), zh: format!("第 {number} 步（{san_zh}）：{zh}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_chances_are_symmetric_and_bounded() {
        assert_eq!(winning_chances(Score(0)), 0.0);
        assert!((winning_chances(Score(300)) + winning_chances(Score(-300))).abs() < 1e-12);
        assert!(winning_chances(Score(5000)) < 1.0);
        assert_eq!(winning_chances(Score::mate_in(3)), 1.0);
        assert_eq!(winning_chances(Score::mated_in(2)), -1.0);
    }

    #[test]
    fn the_rule() {
        // Mate against mate: slower is fine, as fast is not.
        assert_eq!(keeps_the_win(Score::mate_in(3), Some(Score::mate_in(7))), Ok(()));
        assert_eq!(keeps_the_win(Score::mate_in(3), Some(Score::mate_in(3))), Err(Failure::AlsoMates));
        assert_eq!(keeps_the_win(Score::mate_in(5), Some(Score::mate_in(3))), Err(Failure::AlsoMates));
        assert_eq!(keeps_the_win(Score::mate_in(3), Some(Score(2000))), Ok(()));
        assert_eq!(keeps_the_win(Score(900), Some(Score::mate_in(9))), Err(Failure::AlternativeMates));
        // Material: better, and no alternative that is won as well.
        assert_eq!(keeps_the_win(Score(500), Some(Score(0))), Ok(()));
        assert_eq!(keeps_the_win(Score(100), Some(Score(300))), Err(Failure::Better));
        assert_eq!(keeps_the_win(Score(980), Some(Score(910))), Err(Failure::AlsoWins));
        assert_eq!(keeps_the_win(Score(2000), Some(Score(300))), Ok(()));
        assert_eq!(keeps_the_win(Score(0), Some(Score(-600))), Ok(()));
        assert_eq!(keeps_the_win(Score(-400), Some(Score(-2000))), Err(Failure::NotWinning));
        assert_eq!(keeps_the_win(Score(300), None), Ok(()));
        assert_eq!(keeps_the_win(Score::mated_in(4), None), Err(Failure::NotWinning));
        // The generator wants a won solution against a lost-or-level alternative.
        assert!(decisive(Score(400), Some(Score(50))));
        assert!(!decisive(Score(120), Some(Score(40))));
        assert!(decisive(Score::mate_in(3), Some(Score(200))));
    }

    #[test]
    fn scores_are_shown_as_pawns_or_mates() {
        assert_eq!(show(Score(910)), "+9.1");
        assert_eq!(show(Score(-40)), "-0.4");
        assert_eq!(show(Score::mate_in(5)), "#3");
        assert_eq!(show(Score::mated_in(4)), "#-2");
    }
}
