//! Self-play data: games of the engine against itself at a fixed node count, from book openings, each position
//! labelled with the game's result.
//!
//! Output, one line per position: `FEN;R;S` with R the result from white's point of view (`1`, `0.5` or `0`) and S
//! the search's score of the position in centipawns, also from white's point of view (the label of the NNUE trainer).
//! Only quiet positions are written: not in check, the search's best move neither a capture nor a promotion, no
//! mate score, after the opening (ply ≥ 16 from the start of the game).

use guoxiang_core::{Color, Position};
use guoxiang_engine::eval::insufficient;
use guoxiang_engine::{Control, Engine, Limits, Silent};
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Settings of a data generation run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub book: Vec<String>,
    pub nodes: u64,
    pub threads: usize,
    pub duration: Duration,
    pub max_games: u64,
    pub seed: u64,
    /// Random legal moves played after the book position, for variety.
    pub random_plies: u32,
}

/// An adjudicated or finished self-play game.
#[derive(Debug, Clone, PartialEq)]
struct Played {
    /// FEN and the search's score (white's view, centipawns).
    positions: Vec<(String, i32)>,
    /// White's score.
    result: f32,
}

/// Scores at or beyond this (centipawns, side to move's view) for `WIN_PLIES` plies in a row end the game.
const WIN_SCORE: i32 = 1000;
const WIN_PLIES: usize = 6;
/// After `DRAW_AFTER` plies, `DRAW_PLIES` plies in a row within ±`DRAW_SCORE` end the game as a draw.
const DRAW_AFTER: usize = 80;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 12;
/// Games longer than this are drawn.
const MAX_PLIES: usize = 400;
/// Positions before this game ply are not written.
const MIN_PLY: u32 = 16;

fn play_game(engine: &Engine, start: Position, nodes: u64) -> Played {
    engine.clear_hash();
    let mut pos = start;
    let mut history: Vec<u64> = Vec::new();
    let mut positions = Vec::new();
    let mut white_scores: Vec<i32> = Vec::new();
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let control = Control::default();
    let result = loop {
        if !pos.has_legal_move() {
            break if pos.is_check() { if pos.turn() == Color::White { 0.0 } else { 1.0 } } else { 0.5 };
        }
        if pos.halfmoves() >= 100 || insufficient(&pos) || white_scores.len() >= MAX_PLIES {
            break 0.5;
        }
        let reps = history.iter().rev().take(pos.halfmoves() as usize).filter(|&&h| h == pos.hash()).count();
        if reps >= 2 {
            break 0.5;
        }
        let r = engine.search(&pos, &history, &limits, &control, &Silent, Instant::now());
        let Some(best) = r.best else { break 0.5 };
        let white = if pos.turn() == Color::White { r.score.0 } else { -r.score.0 };
        white_scores.push(white);
        let quiet = !pos.is_check() && !pos.is_capture(best) && best.promotion_role().is_none() && !r.score.is_mate();
        if quiet && pos.ply() >= MIN_PLY {
            positions.push((pos.fen(), white));
        }
        let n = white_scores.len();
        if n >= WIN_PLIES {
            let last = &white_scores[n - WIN_PLIES..];
            if last.iter().all(|&s| s >= WIN_SCORE) {
                break 1.0;
            }
            if last.iter().all(|&s| s <= -WIN_SCORE) {
                break 0.0;
            }
        }
        if n >= DRAW_AFTER && white_scores[n - DRAW_PLIES..].iter().all(|&s| s.abs() <= DRAW_SCORE) {
            break 0.5;
        }
        history.push(pos.hash());
        pos.play_unchecked(best);
    };
    Played { positions, result }
}

/// A start position: a random book line (or the initial position with an empty book), then `random_plies` random
/// legal moves; `None` if that ran into a finished game.
pub(crate) fn opening(book: &[String], random_plies: u32, rng: &mut StdRng) -> Option<Position> {
    let mut pos = if book.is_empty() {
        Position::new()
    } else {
        let line = &book[rng.random_range(0..book.len())];
        Position::from_fen(line).ok()?
    };
    for _ in 0..random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let all = moves.as_slice();
        pos.play_unchecked(all[rng.random_range(0..all.len())]);
    }
    pos.has_legal_move().then_some(pos)
}

/// Reads an EPD/FEN book: one position per line (4-field EPD gets `0 1` appended); unreadable lines are reported
/// with their line number.
pub fn read_book(path: &str) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut book = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else if fields.len() >= 4 {
            format!("{} 0 1", fields[..4].join(" "))
        } else {
            return Err(format!("{path}:{}: not a FEN or EPD position: {line}", i + 1));
        };
        Position::from_fen(&fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        book.push(fen);
    }
    Ok(book)
}

/// Plays games on `threads` threads until the time or game limit, appending labelled positions to `out`.
pub fn run(settings: &Settings, out: &mut dyn Write) -> std::io::Result<(u64, u64)> {
    let games = AtomicU64::new(0);
    let written = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel::<Played>();
    let bar = ProgressBar::new(settings.duration.as_secs());
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} s  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    let out = Mutex::new(out);
    let error: Arc<Mutex<Option<std::io::Error>>> = Arc::default();
    std::thread::scope(|scope| {
        for t in 0..settings.threads {
            let tx = tx.clone();
            let (games, done) = (&games, &done);
            scope.spawn(move || {
                let engine = Engine::new(16);
                let mut rng = StdRng::seed_from_u64(settings.seed.wrapping_add(t as u64 * 0x9E37_79B9_7F4A_7C15));
                while !done.load(Ordering::Relaxed) {
                    let Some(start) = opening(&settings.book, settings.random_plies, &mut rng) else { continue };
                    let g = play_game(&engine, start, settings.nodes);
                    if games.fetch_add(1, Ordering::Relaxed) + 1 >= settings.max_games {
                        done.store(true, Ordering::Relaxed);
                    }
                    if tx.send(g).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut stats = [0u64; 3];
        loop {
            match rx.recv_timeout(Duration::from_millis(500)) {
                Ok(g) => {
                    let label = match g.result {
                        r if r > 0.75 => "1",
                        r if r < 0.25 => "0",
                        _ => "0.5",
                    };
                    stats[(g.result * 2.0) as usize] += 1;
                    let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
                    for (fen, score) in &g.positions {
                        if let Err(e) = writeln!(o, "{fen};{label};{score}") {
                            *error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                            done.store(true, Ordering::Relaxed);
                        }
                    }
                    written.fetch_add(g.positions.len() as u64, Ordering::Relaxed);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
            let elapsed = started.elapsed();
            bar.set_position(elapsed.as_secs().min(settings.duration.as_secs()));
            bar.set_message(format!(
                "{} games (+{} ={} -{}), {} positions",
                games.load(Ordering::Relaxed),
                stats[2],
                stats[1],
                stats[0],
                written.load(Ordering::Relaxed)
            ));
            if elapsed >= settings.duration {
                done.store(true, Ordering::Relaxed);
            }
        }
    });
    bar.finish();
    if let Some(e) = error.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(e);
    }
    out.into_inner().unwrap_or_else(|e| e.into_inner()).flush()?;
    Ok((games.load(Ordering::Relaxed), written.load(Ordering::Relaxed)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_game_ends_with_a_label_and_only_quiet_positions() {
        let engine = Engine::new(1);
        // White mates quickly: a queen and king against a bare king.
        let start = Position::from_fen("7k/8/5K2/8/8/8/8/6Q1 w - - 0 40").unwrap();
        let g = play_game(&engine, start, 2000);
        assert_eq!(g.result, 1.0);
        for (fen, score) in &g.positions {
            assert!(!Position::from_fen(fen).unwrap().is_check(), "{fen}");
            assert!(*score > 0, "white is winning in {fen}: {score}");
        }
    }

    #[test]
    fn book_errors_name_the_line() {
        let dir = std::env::temp_dir().join(format!("gx-book-{}", std::process::id()));
        std::fs::write(&dir, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnonsense\n").unwrap();
        let err = read_book(dir.to_str().unwrap()).unwrap_err();
        assert!(err.ends_with(":2: not a FEN or EPD position: nonsense"), "{err}");
        std::fs::remove_file(&dir).ok();
    }
}
