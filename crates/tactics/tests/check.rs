//! The puzzle checker on hand-made puzzles, and on a fixed sample of the shared lichess puzzles and their
//! corruptions (skipped when ../shared/data is absent). docs/puzzles/checker.md has the full measurement.

use std::path::PathBuf;

use guoxiang_core::{Move, Position, UciMove};
use guoxiang_engine::Engine;
use guoxiang_tactics::Puzzle;
use guoxiang_tactics::check::{self, DEFAULT_NODES, Failure};

fn engine() -> Engine {
    Engine::new(16)
}

fn uci(pos: &Position, s: &str) -> Move {
    UciMove::parse(s).expect("uci").to_move(pos).expect("legal")
}

/// A back-rank mate in two: the setup a7a6, then 1.Re8+ Rxe8 2.Rxe8#.
const MATE_IN_2: &str = "2r3k1/p4ppp/8/8/8/8/4RPPP/4R1K1 b - - 0 1";

#[test]
fn a_sound_mate_in_two() {
    let p = Puzzle::new("m2", MATE_IN_2, "a7a6 e2e8 c8e8 e1e8").expect("puzzle");
    let v = check::check(&p, &engine(), DEFAULT_NODES);
    assert!(v.sound, "{:?}", v.reason);
    assert_eq!(v.ply, None);
    assert_eq!(v.moves.len(), 2);
    assert!(v.moves[0].solution.is_some_and(|s| s.mate_moves() == Some(2)), "{:?}", v.moves);
    assert_eq!(v.moves[1].solution, None, "the final mate is taken without a search");
    assert!(v.reason.en.contains("all 2 solver moves"), "{}", v.reason.en);
    assert!(!v.reason.zh.is_empty());
}

#[test]
fn a_wrong_solution_is_rejected_and_the_right_move_named() {
    let p = Puzzle::new("m2x", MATE_IN_2, "a7a6 e2e7").expect("puzzle");
    let v = check::check(&p, &engine(), DEFAULT_NODES);
    assert!(!v.sound);
    assert_eq!(v.ply, Some(1));
    assert_eq!(v.failure, Some(Failure::AlternativeMates));
    let start = p.start();
    assert_eq!(v.alternative, Some(uci(&start, "e2e8")));
    assert!(v.reason.en.starts_with("move 1 (Re7): Re8+ mates"), "{}", v.reason.en);
    assert!(v.reason.zh.starts_with("第 1 步"), "{}", v.reason.zh);
}

#[test]
fn a_second_equally_good_move_is_named() {
    // The black queen steps onto e5, where both the rook and the knight take it for free.
    let fen = "4k3/pp2q3/8/8/8/5N2/PP3PPP/4R1K1 b - - 0 1";
    let p = Puzzle::new("two", fen, "e7e5 f3e5").expect("puzzle");
    let v = check::check(&p, &engine(), DEFAULT_NODES);
    assert!(!v.sound, "{:?}", v.reason);
    assert_eq!(v.ply, Some(1));
    let start = p.start();
    assert_eq!(v.alternative, Some(uci(&start, "e1e5")));
    assert!(matches!(v.failure, Some(Failure::AlsoWins | Failure::Better)), "{:?}", v.failure);
    assert!(v.reason.en.starts_with("move 1 (Nxe5): Rxe5+ "), "{}", v.reason.en);
}

#[test]
fn an_alternative_mate_on_the_last_move_is_fine() {
    // Mate in one with two mating moves (Qg7# and Qh7#... and Qxf7 is not): any mate will do at the end.
    let fen = "6k1/5p1p/5PpQ/8/8/8/8/6K1 b - - 0 1";
    let p = Puzzle::new("any", fen, "g6g5 h6g7").expect("puzzle");
    assert!(p.start().after(p.moves[1]).is_checkmate());
    let v = check::check(&p, &engine(), DEFAULT_NODES);
    assert!(v.sound, "{:?}", v.reason);
    assert_eq!(v.nodes, 0);
}

#[test]
fn verdicts_are_deterministic() {
    let p = Puzzle::new("two", "4k3/pp2q3/8/8/8/5N2/PP3PPP/4R1K1 b - - 0 1", "e7e5 e1e5").expect("puzzle");
    let e = engine();
    let a = check::check(&p, &e, 20_000);
    let b = check::check(&p, &e, 20_000);
    assert_eq!((a.sound, a.ply, a.alternative, a.moves, a.nodes), (b.sound, b.ply, b.alternative, b.moves, b.nodes));
}

fn data() -> Option<PathBuf> {
    let dir = std::env::var_os("GUOXIANG_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    let f = dir.join("puzzles/lichess_puzzles_half_a.csv");
    if f.is_file() {
        Some(f)
    } else {
        eprintln!("SKIP: no {}", f.display());
        None
    }
}

/// The test's corruption (simpler than tools/puzzle_check.py's, same idea): in puzzle number `i`, solver move
/// `i mod n` is replaced by the legal move at index `7 i mod count` among those, sorted by UCI, that are not the
/// solution and do not mate; the line is cut after it.
fn corrupt(p: &Puzzle, i: usize) -> Option<Puzzle> {
    let n = p.solution().len().div_ceil(2);
    let idx = 2 * (i % n) + 1;
    let mut pos = p.position.clone();
    for &m in &p.moves[..idx] {
        pos.play_unchecked(m);
    }
    let mut others: Vec<(String, Move)> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| m != p.moves[idx] && !pos.after(m).is_checkmate())
        .map(|m| (pos.uci(m), m))
        .collect();
    if others.is_empty() {
        return None;
    }
    others.sort_by(|a, b| a.0.cmp(&b.0));
    let mut moves = p.moves[..idx].to_vec();
    moves.push(others[(7 * i) % others.len()].1);
    Some(Puzzle { id: format!("{}x", p.id), moves, ..p.clone() })
}

#[test]
fn a_fixed_sample_of_lichess_puzzles_and_their_corruptions() {
    let Some(path) = data() else { return };
    let file = std::fs::File::open(&path).expect("open");
    // Every 1000th puzzle: 31 of them.
    let sample: Vec<Puzzle> = guoxiang_tactics::Reader::new(std::io::BufReader::new(file))
        .step_by(1000)
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let e = engine();
    let mut accepted = 0;
    let mut rejected = 0;
    let mut corrupted = 0;
    for (i, p) in sample.iter().enumerate() {
        let v = check::check(p, &e, DEFAULT_NODES);
        if v.sound {
            accepted += 1;
        } else {
            eprintln!("rejected {}: {}", p.id, v.reason.en);
        }
        if let Some(c) = corrupt(p, i) {
            corrupted += 1;
            let v = check::check(&c, &e, DEFAULT_NODES);
            if v.sound {
                eprintln!("accepted corrupted {} ({}): {}", c.id, c.uci_moves(), v.reason.en);
            } else {
                rejected += 1;
            }
        }
    }
    let n = sample.len();
    eprintln!("{accepted}/{n} accepted, {rejected}/{corrupted} corrupted rejected");
    // Measured on the 1,500-puzzle sample: ≥ 97% and ≥ 99% (docs/puzzles/checker.md); here with a margin.
    assert!(accepted * 100 >= n * 87, "{accepted}/{n} lichess puzzles accepted");
    assert!(rejected * 100 >= corrupted * 90, "{rejected}/{corrupted} corrupted puzzles rejected");
}
