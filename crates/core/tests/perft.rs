//! Perft: in-repo standard positions, and the suites in ../shared/data/perft (skipped with a message when absent).

mod common;
use common::data_dir;

use guoxiang_core::suite::parse_suite;
use guoxiang_core::{CastlingMode, Position, Validation, perft, perft_full};

fn pos(fen: &str) -> Position {
    Position::from_fen_with(fen, CastlingMode::Auto, Validation::Relaxed).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Runs every case of a suite up to `max_nodes` per count.
fn run_suite(file: &str, max_nodes: u64) {
    let Some(dir) = data_dir() else { return };
    let text = std::fs::read_to_string(dir.join("perft").join(file)).expect("read suite");
    let cases = parse_suite(&text).expect("parse suite");
    assert!(!cases.is_empty());
    let mut checked = 0;
    for c in &cases {
        let p = pos(&c.fen);
        for &(d, n) in &c.counts {
            if n <= max_nodes {
                assert_eq!(perft(&p, d), n, "{} ({}) depth {d}", c.id, c.fen);
                checked += 1;
            }
        }
    }
    eprintln!("{file}: {} cases, {checked} counts checked", cases.len());
    assert!(checked >= cases.len());
}

#[test]
fn standard_positions() {
    // Well-known counts (Chess Programming Wiki "Perft Results").
    let cases: &[(&str, &[u64])] = &[
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[20, 400, 8902, 197_281, 4_865_609]),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &[48, 2039, 97_862, 4_085_603]),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &[14, 191, 2812, 43_238, 674_624]),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", &[6, 264, 9467, 422_333]),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", &[44, 1486, 62_379, 2_103_487]),
        ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", &[46, 2079, 89_890, 3_894_594]),
    ];
    for (fen, counts) in cases {
        let p = pos(fen);
        for (i, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&p, i as u32 + 1), n, "{fen} depth {}", i + 1);
        }
        // The full (every leaf made) perft agrees with bulk counting.
        assert_eq!(perft_full(&p, 3), counts[2], "{fen} full perft");
    }
}

#[test]
fn perftsuite_half_a() {
    run_suite("perftsuite_half_a.epd", 2_000_000);
}

#[test]
fn tricky_half_a() {
    run_suite("tricky_half_a.perft", 5_000_000);
}

#[test]
fn chess960_half_a() {
    run_suite("chess960_half_a.perft", 200_000);
}

#[test]
fn lichess_sampled_positions() {
    run_suite("lichess_sampled_positions.epd", 5_000_000);
}
