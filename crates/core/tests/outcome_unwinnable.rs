// SPDX-License-Identifier: GPL-3.0-or-later
//! The complete "can this side still mate?" analysis ([`Position::mate_verdict`]) checked independently: every
//! "cannot" against an exhaustive helpmate search of small depth written here (it must find no mate), every "can"
//! by replaying its mating line. Over hand-picked positions, seeded random games, the final positions of the real
//! games in ../shared/data (skipped when absent) and CHA's labelled test vectors (the file named by
//! `GUOXIANG_CHA_VECTORS`, skipped when unset; they are not kept in this repository).

mod common;
use common::{XorShift as Rng, data_dir};

use guoxiang_core::{CastlingMode, Color, DeadReason, MateVerdict, Move, Position, Validation};
use std::collections::HashSet;

fn pos(fen: &str) -> Position {
    Position::from_fen_with(fen, CastlingMode::Auto, Validation::Relaxed).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Identity of a position for the check's own visited set: its Zobrist hash (placement, side to move, castling,
/// en passant; a collision among the few million positions a test visits is vanishingly unlikely).
fn key(p: &Position) -> u64 {
    p.hash()
}

/// Independent check: is there a series of at most `depth` plies (legal moves, both sides) from `p` that ends with
/// `winner` giving checkmate? Plain depth-first search over every legal move, remembering (position, plies left) so
/// that transpositions are not searched twice at the same or a smaller depth.
fn helpmate_within(p: &Position, winner: Color, depth: u32, seen: &mut HashSet<(u64, u32)>, nodes: &mut u64) -> bool {
    *nodes += 1;
    let moves = p.legal_moves();
    if moves.is_empty() {
        return p.is_check() && p.turn() != winner;
    }
    if depth == 0 || !seen.insert((key(p), depth)) {
        return false;
    }
    moves.iter().any(|&m| helpmate_within(&p.after(m), winner, depth - 1, seen, nodes))
}

/// Replays `line` from `p` with full legality checks and asserts that it ends with `winner` checkmating.
fn assert_mates(p: &Position, winner: Color, line: &[Move]) {
    let mut q = p.clone();
    for (i, &m) in line.iter().enumerate() {
        q = q.clone().play(m).unwrap_or_else(|e| panic!("{}: move {i} of the mating line is illegal: {e}", p.fen()));
    }
    assert!(q.is_checkmate(), "{}: the line for {winner:?} does not end in checkmate ({})", p.fen(), q.fen());
    assert_eq!(q.turn(), !winner, "{}: the line ends with {winner:?} mated, not mating", p.fen());
}

/// Depth of the independent search for a "cannot": deeper when the position has few legal moves.
fn check_depth(p: &Position) -> u32 {
    match p.count_legal() {
        0..=6 => 5,
        7..=14 => 4,
        15..=30 => 3,
        _ => 2,
    }
}

#[derive(Default, Debug)]
struct Tally {
    can: usize,
    cannot: usize,
    unknown: usize,
    check_nodes: u64,
}

/// Asks the analysis about `c` in `p` and checks the answer independently.
fn verify(p: &Position, c: Color, tally: &mut Tally) -> MateVerdict {
    let v = p.mate_verdict(c);
    match &v {
        MateVerdict::Can(line) => {
            assert_mates(p, c, line);
            tally.can += 1;
        }
        MateVerdict::Cannot(reason) => {
            let mut seen = HashSet::new();
            let d = check_depth(p);
            let found = helpmate_within(p, c, d, &mut seen, &mut tally.check_nodes);
            assert!(
                !found,
                "{}: we say {c:?} cannot mate ({reason:?}), but a helpmate within {d} plies exists",
                p.fen()
            );
            tally.cannot += 1;
        }
        MateVerdict::Unknown => tally.unknown += 1,
    }
    v
}

#[test]
fn dead_fortresses_are_proved() {
    let cases = [
        // Rammed pawns on alternate files, kings on their own sides.
        ("8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/8 w - - 0 1", [true, true]),
        // The same with bishops that can never get at the enemy pawns or king.
        ("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1", [true, true]),
        // Pawns on the same files that can never pass each other or capture; kings can take pawns but gain nothing
        // (the loser's king has too few units to block its own flight squares).
        ("1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1", [true, true]),
        // A king that can never move (walled in by its own pawn and enemy pawns) guards its pawn for ever.
        ("k7/1b6/8/8/8/1pB5/pP6/K7 w - - 0 1", [true, true]),
        // Bare kings, a lone knight, same-coloured bishops.
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", [true, true]),
        ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", [true, true]),
        ("8/8/2b5/4k3/8/8/8/4KB2 w - - 0 1", [true, true]),
    ];
    let mut tally = Tally::default();
    for (fen, dead) in cases {
        let p = pos(fen);
        for (c, expect) in [(Color::White, dead[0]), (Color::Black, dead[1])] {
            let v = verify(&p, c, &mut tally);
            assert_eq!(matches!(v, MateVerdict::Cannot(_)), expect, "{fen}: {c:?}: {v:?}");
        }
        assert_eq!(p.dead_verdict().iter().all(|v| matches!(v, MateVerdict::Cannot(_))), dead == [true, true]);
    }
    assert!(pos("8/8/8/4k3/8/8/8/4K3 w - - 0 1").is_dead_position());
    assert!(matches!(
        pos("8/8/8/4k3/8/8/8/4K3 w - - 0 1").mate_verdict(Color::White),
        MateVerdict::Cannot(DeadReason::InsufficientMaterial)
    ));
}

#[test]
fn helpmates_a_naive_static_check_would_miss() {
    let cases = [
        // A lone knight mates a king hemmed in by its own pawn.
        ("k7/p7/8/8/8/8/8/K5N1 w - - 0 1", Color::White),
        // Knight against knight: the defending knight blocks its own king.
        ("8/8/4k3/3n4/8/3K4/4N3/8 w - - 0 1", Color::White),
        // Opposite-coloured bishops: the defender's bishop takes a flight square.
        ("8/8/2b5/4k3/8/8/8/4K1B1 w - - 0 1", Color::White),
        // Rammed pawns, but the light bishop can capture the light-squared black pawns and break through.
        ("4k3/8/8/1p1p1p1p/1P1P1P1P/8/8/4K2B w - - 0 1", Color::White),
        // Rammed pawns with a pawn lever (d4 can take e5): the structure opens.
        ("4k3/8/8/1p2pp1p/1P1P1P1P/8/8/4K3 w - - 0 1", Color::White),
        // A single pawn: it promotes.
        ("4k3/8/8/8/8/8/P7/4K3 b - - 0 1", Color::White),
    ];
    let mut tally = Tally::default();
    for (fen, c) in cases {
        let p = pos(fen);
        let v = verify(&p, c, &mut tally);
        assert!(matches!(v, MateVerdict::Can(_)), "{fen}: {c:?} can mate, but we say {v:?}");
        assert!(p.can_mate(c));
    }
}

/// A random legal move, preferring captures half the time so that games reach endings.
fn random_move(p: &Position, rng: &mut Rng) -> Move {
    let moves = p.legal_moves();
    if rng.below(2) == 0 {
        let captures: Vec<Move> = moves.iter().copied().filter(|&m| p.is_capture(m)).collect();
        if !captures.is_empty() {
            return captures[rng.below(captures.len())];
        }
    }
    moves[rng.below(moves.len())]
}

/// Plays `games` seeded random games from the start position (up to 250 plies each) and checks the analysis of both
/// sides at every position. The example `unwinnable_random` does the same for many more games in release mode.
fn random_games(games: usize, seed: u64) -> Tally {
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    for _ in 0..games {
        let mut p = Position::new();
        for _ in 0..250 {
            for c in Color::ALL {
                verify(&p, c, &mut tally);
            }
            if !p.has_legal_move() {
                break;
            }
            let m = random_move(&p, &mut rng);
            p.play_unchecked(m);
        }
    }
    tally
}

#[test]
fn random_games_are_sound() {
    let t = random_games(8, 0x00C0_FFEE);
    eprintln!("random games: {t:?}");
    assert!(t.can > 500 && t.cannot > 100, "too few answers to mean anything: {t:?}");
}

/// Checks both sides of the final position of every game in the share `half` (0: even rows, 1: odd rows) of the
/// lichess endings; two tests, so that the harness runs the halves side by side.
fn real_game_final_positions(half: usize) {
    let Some(dir) = data_dir() else { return };
    let path = dir.join("positions/lichess_game_endings.tsv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("SKIP: {} not found", path.display());
        return;
    };
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let col = header.iter().position(|h| *h == "final_fen").expect("final_fen column");
    let mut tally = Tally::default();
    let mut n = 0;
    for line in lines.filter(|l| !l.is_empty()).skip(half).step_by(2) {
        let fen = line.split('\t').nth(col).expect("final_fen");
        let p = pos(fen);
        for c in Color::ALL {
            verify(&p, c, &mut tally);
        }
        n += 1;
    }
    eprintln!("{n} final positions of real games (half {half}): {tally:?}");
    assert!(n > 1000 && tally.cannot > 0);
}

#[test]
fn real_game_final_positions_are_sound() {
    real_game_final_positions(0);
}

#[test]
fn real_game_final_positions_are_sound_second_half() {
    real_game_final_positions(1);
}

#[test]
fn cha_test_vectors() {
    let Some(path) = std::env::var_os("GUOXIANG_CHA_VECTORS") else {
        eprintln!("SKIP: set GUOXIANG_CHA_VECTORS to CHA's tests/test-vector.txt to run the CHA test vectors");
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.to_string_lossy()));
    let (mut positions, mut unwinnable, mut recognised, mut unknown) = (0usize, 0usize, 0usize, 0usize);
    let mut tally = Tally::default();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (label, fen) = line.split_at(2);
        let p = pos(fen.trim());
        positions += 1;
        for (i, c) in Color::ALL.into_iter().enumerate() {
            let can = label.as_bytes()[i] != b'-';
            let v = verify(&p, c, &mut tally);
            match v {
                MateVerdict::Cannot(r) => {
                    assert!(!can, "{fen}: CHA says {c:?} can mate, we say cannot ({r:?})");
                    unwinnable += 1;
                    recognised += 1;
                }
                MateVerdict::Can(_) => assert!(can, "{fen}: CHA says {c:?} cannot mate, but we found a line"),
                MateVerdict::Unknown if !can => {
                    unwinnable += 1;
                    unknown += 1;
                }
                MateVerdict::Unknown => {}
            }
        }
    }
    let share = 100.0 * recognised as f64 / unwinnable.max(1) as f64;
    eprintln!(
        "CHA vectors: {positions} positions, {unwinnable} sides that cannot win, {recognised} recognised ({share:.2}%), \
         {unknown} unknown; 0 unsound; {tally:?}"
    );
    assert_eq!(positions, 1803);
    assert_eq!(unwinnable, 1857);
    assert!(share >= MIN_CHA_SHARE, "only {share:.2}% of the unwinnable sides recognised");
}

/// The share of CHA's unwinnable sides that must be recognised (per cent).
const MIN_CHA_SHARE: f64 = 99.0;
