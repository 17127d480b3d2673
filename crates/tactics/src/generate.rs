//! The puzzle generator: positions after a mistake in real games where a sound tactical line exists, cut as
//! lichess-style puzzles (docs/puzzles/generator.md has the measurements).
//!
//! Per game, in two passes:
//!
//! 1. **Scan** (cheap): every position of the game gets a [`SCAN_NODES`] search. A move is a *candidate mistake*
//!    when it drops its player's winning chances ([`check::winning_chances`]) by at least [`SWING`] and leaves the
//!    opponent at least [`EDGE`] ahead (or mating).
//! 2. **Line** (deep, candidates only): from the position after the mistake the solver's line is built with
//!    `nodes` per move. At a solver move the engine's best move must pass [`check::decisive`] against the
//!    second best (multipv 2); the opponent answers with the engine's best move. The line ends after a solver move
//!    that mates, or that leaves the solver at least [`GAIN`] pawns of material up on the position after the
//!    mistake with an opponent's best answer that is no capture (the line has quieted); at most [`MAX_SOLVER_MOVES`]
//!    solver moves. When a later solver move is not the only one, the line is cut before it if material is won
//!    by then; else there is no puzzle.
//!
//! The puzzle (FEN before the mistake, the mistake first, then the line) must pass [`check::check`] at the same
//! budget; it then gets an id, a rating estimate ([`estimate_rating`]) and lichess theme names from the tagger.

use guoxiang_core::{Color, Move, Position, Role};
use guoxiang_engine::{Control, Engine, Limits, Score, Silent, see};

use crate::check::{self, decisive, top_two, winning_chances};
use crate::{Puzzle, lichess_themes, tag};
use guoxiang_engine::clock::Instant;

/// The default node budget per position of a solution line (and for the checker run on the result).
pub const DEFAULT_NODES: u64 = check::DEFAULT_NODES;

/// The node budget of the cheap pass, per position of a game.
pub const SCAN_NODES: u64 = 4_000;

/// The least drop in winning chances (−1…+1 scale) that makes a move a candidate mistake.
pub const SWING: f64 = 0.6;

/// The least winning chances the opponent must have after the mistake.
pub const EDGE: f64 = 0.35;

/// The material (in pawns: 1, 3, 3, 5, 9) a line must win to end without mate.
pub const GAIN: i32 = 2;

/// The most solver moves in a generated line.
pub const MAX_SOLVER_MOVES: usize = 8;

/// The generator's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Node budget per position of a solution line (and per solver move for the checker).
    pub nodes: u64,
    /// Node budget per position in the cheap pass.
    pub scan_nodes: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options { nodes: DEFAULT_NODES, scan_nodes: SCAN_NODES }
    }
}

/// What the generator did so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: u64,
    pub positions: u64,
    /// Candidate mistakes found by the cheap pass.
    pub candidates: u64,
    /// Lines built but rejected by the checker.
    pub unsound: u64,
    pub puzzles: u64,
}

/// A puzzle generator: an engine, settings and counts.
#[derive(Debug)]
pub struct Generator {
    engine: Engine,
    options: Options,
    stats: Stats,
}

impl Generator {
    /// A generator searching with `engine` (its table is cleared before every search; one thread is used).
    /// It evaluates with the hand-written evaluation, with which its soundness against Stockfish was measured
    /// (docs/puzzles/generator.md); the network is to be measured there before it replaces it.
    pub fn new(mut engine: Engine, options: Options) -> Generator {
        engine.options.nnue = None;
        Generator { engine, options, stats: Stats::default() }
    }

    /// What was done so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The puzzles in one game: `tags` as in the PGN (for the id and the game URL), the start position and the
    /// main-line moves. Deterministic for given settings.
    pub fn game(&mut self, tags: &[(String, String)], start: &Position, moves: &[Move]) -> Vec<Puzzle> {
        self.stats.games += 1;
        let mut positions = Vec::with_capacity(moves.len() + 1);
        let mut pos = start.clone();
        positions.push(pos.clone());
        for &m in moves {
            pos.play_unchecked(m);
            positions.push(pos.clone());
        }
        let hashes: Vec<u64> = positions.iter().map(Position::hash).collect();
        let scores = self.scan(&positions, &hashes);
        let mut out = Vec::new();
        let mut next_free = 0;
        for (i, &m) in moves.iter().enumerate() {
            if i < next_free || !is_mistake(scores[i], scores[i + 1]) {
                continue;
            }
            self.stats.candidates += 1;
            let after = &positions[i + 1];
            if after.legal_moves().len() < 2 {
                continue;
            }
            let Some(line) = self.line(after, &hashes[..=i]) else { continue };
            let mut all = vec![m];
            all.extend_from_slice(&line);
            let mut p = Puzzle {
                id: puzzle_id(tags, moves, i),
                position: positions[i].clone(),
                moves: all,
                rating: None,
                deviation: Some(500),
                popularity: Some(0),
                plays: Some(0),
                themes: Vec::new(),
                game_url: game_url(tags, i),
                opening_tags: Vec::new(),
            };
            if !check::check(&p, &self.engine, self.options.nodes).sound {
                self.stats.unsound += 1;
                continue;
            }
            p.rating = Some(estimate_rating(&p));
            p.themes = lichess_themes(&tag::motifs(&p)).into_iter().map(str::to_string).collect();
            next_free = i + p.moves.len();
            self.stats.puzzles += 1;
            out.push(p);
        }
        out
    }

    /// The cheap pass: each position's score for its side to move.
    fn scan(&mut self, positions: &[Position], hashes: &[u64]) -> Vec<Score> {
        let mut e = self.engine.clone();
        e.options.threads = 1;
        e.options.multipv = 1;
        e.options.level = None;
        e.clear_hash();
        let limits = Limits { nodes: Some(self.options.scan_nodes.max(1)), ..Limits::default() };
        positions
            .iter()
            .enumerate()
            .map(|(i, p)| {
                self.stats.positions += 1;
                e.search(p, &hashes[..i], &limits, &Control::default(), &Silent, Instant::now()).score
            })
            .collect()
    }

    /// The solver's line from `pos` (the solver to move), or `None` when no sound line wins.
    fn line(&self, pos: &Position, history: &[u64]) -> Option<Vec<Move>> {
        let nodes = self.options.nodes;
        let solver = pos.turn();
        let start_balance = balance(pos, solver);
        let mut pos = pos.clone();
        let mut history = history.to_vec();
        let mut line = Vec::new();
        for _ in 0..MAX_SOLVER_MOVES {
            let top = top_two(&self.engine, &pos, &history, nodes)?;
            let m = top.best.mv;
            let mates = pos.after(m).is_checkmate();
            if !mates && !decisive(top.best.score, top.second.map(|l| l.score)) {
                // Not the only move: cut before it if the material is won by then, else no puzzle.
                let won = !line.is_empty() && balance(&pos, solver) - start_balance >= GAIN;
                if won {
                    line.pop();
                    return (!line.is_empty()).then_some(line);
                }
                return None;
            }
            history.push(pos.hash());
            pos.play_unchecked(m);
            line.push(m);
            if mates {
                return Some(line);
            }
            // The opponent's answer.
            let reply = best_move(&self.engine, &pos, &history, nodes)?;
            let quiet = !pos.is_capture(reply) && !reply.is_promotion();
            if quiet && balance(&pos, solver) - start_balance >= GAIN && !top.best.score.is_mate() {
                return Some(line);
            }
            history.push(pos.hash());
            pos.play_unchecked(reply);
            line.push(reply);
        }
        // Out of moves: keep the line if the material is won (it ends on the solver's move).
        line.pop();
        (!line.is_empty() && balance(&pos, solver) - start_balance >= GAIN).then_some(line)
    }
}

/// The engine's best move in `pos` (one thread, `nodes`, the table cleared); `None` without a legal move.
fn best_move(engine: &Engine, pos: &Position, history: &[u64], nodes: u64) -> Option<Move> {
    let mut e = engine.clone();
    e.options.threads = 1;
    e.options.multipv = 1;
    e.options.level = None;
    e.clear_hash();
    let limits = Limits { nodes: Some(nodes.max(1)), ..Limits::default() };
    e.search(pos, history, &limits, &Control::default(), &Silent, Instant::now()).best
}

/// Is the move between a position scored `before` (for its mover) and one scored `after` (for the opponent) a
/// mistake worth a puzzle? See [`SWING`] and [`EDGE`].
fn is_mistake(before: Score, after: Score) -> bool {
    let mover_before = winning_chances(before);
    let mover_after = -winning_chances(after);
    mover_before - mover_after >= SWING && winning_chances(after) >= EDGE
}

/// Material of `side` minus the other side's, in pawns (1, 3, 3, 5, 9).
fn balance(pos: &Position, side: Color) -> i32 {
    const VALUE: [(Role, i32); 5] =
        [(Role::Pawn, 1), (Role::Knight, 3), (Role::Bishop, 3), (Role::Rook, 5), (Role::Queen, 9)];
    let of = |c: Color| VALUE.iter().map(|&(r, v)| pos.pieces(c, r).count() as i32 * v).sum::<i32>();
    of(side) - of(!side)
}

/// A rough rating for a generated puzzle (deviation 500: an honest guess, to be corrected by play). 1000 for a
/// one-move capture or check; +250 per further solver move; +300 when the first solver move is quiet (no capture,
/// no check); +200 when it gives material away (static exchange below zero); −100 when it mates at once. Clamped
/// to 600…2600.
pub fn estimate_rating(p: &Puzzle) -> i32 {
    let start = p.start();
    let first = p.moves[1];
    let solver_moves = p.solution().len().div_ceil(2) as i32;
    let check = start.after(first).is_check();
    let mut r = 1000 + 250 * (solver_moves - 1);
    if !start.is_capture(first) && !check {
        r += 300;
    }
    if see::see(&start, first) < 0 {
        r += 200;
    }
    if solver_moves == 1 && start.after(first).is_checkmate() {
        r -= 100;
    }
    r.clamp(600, 2600)
}

/// A deterministic id from the game (its Site, or all its tags and first moves when it has no Site) and the ply of
/// the mistake: 12 lowercase hex digits (FNV-1a).
fn puzzle_id(tags: &[(String, String)], moves: &[Move], ply: usize) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    match tags.iter().find(|(k, v)| k == "Site" && v.starts_with("http")) {
        Some((_, site)) => eat(site.as_bytes()),
        None => {
            for (k, v) in tags {
                eat(k.as_bytes());
                eat(v.as_bytes());
            }
            for m in &moves[..=ply] {
                eat(format!("{m:?}").as_bytes());
            }
        }
    }
    eat(format!("#{ply}").as_bytes());
    format!("{:012x}", h >> 16)
}

/// The game's Site tag, with `#N` (the mistake's ply, 1-based, as lichess writes it) when it is a web address.
fn game_url(tags: &[(String, String)], ply: usize) -> String {
    match tags.iter().find(|(k, _)| k == "Site") {
        Some((_, site)) if site.starts_with("http") => format!("{site}#{}", ply + 1),
        Some((_, site)) if site != "?" => site.clone(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mistakes_are_swings_that_leave_the_opponent_ahead() {
        assert!(is_mistake(Score(20), Score(600)));
        assert!(is_mistake(Score(0), Score::mate_in(5)));
        assert!(!is_mistake(Score(20), Score(60)));
        assert!(!is_mistake(Score(-900), Score(1500)), "already lost");
    }

    #[test]
    fn ids_are_stable_and_urls_carry_the_ply() {
        let tags = vec![("Site".to_string(), "https://lichess.org/abcdefgh".to_string())];
        assert_eq!(puzzle_id(&tags, &[], 0), puzzle_id(&tags, &[], 0));
        assert_ne!(puzzle_id(&tags, &[], 0), puzzle_id(&tags, &[], 1));
        assert_eq!(puzzle_id(&tags, &[], 4).len(), 12);
        assert_eq!(game_url(&tags, 47), "https://lichess.org/abcdefgh#48");
        assert_eq!(game_url(&[], 3), "");
    }
}
