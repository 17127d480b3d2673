//! Side-by-side benchmarks of guoxiang against peer libraries, in one process and one run, so that the machine's
//! drift affects all equally. Reports ratios. Run: `cargo run --release --manifest-path bench/Cargo.toml -- perft`.

use std::time::Instant;

mod pgn;

const POSITIONS: &[(&str, &str, u32, u64)] = &[
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 11_030_083),
];

fn ours_bulk(p: &guoxiang_core::Position, d: u32) -> u64 {
    guoxiang_core::perft(p, d)
}

fn ours_full(p: &guoxiang_core::Position, d: u32) -> u64 {
    guoxiang_core::perft_full(p, d)
}

fn cozy_bulk(b: &cozy_chess::Board, d: u32) -> u64 {
    let mut n = 0;
    if d == 1 {
        b.generate_moves(|m| {
            n += m.len() as u64;
            false
        });
    } else {
        b.generate_moves(|ms| {
            for m in ms {
                let mut c = b.clone();
                c.play_unchecked(m);
                n += cozy_bulk(&c, d - 1);
            }
            false
        });
    }
    n
}

fn shak_bulk(p: &shakmaty::Chess, d: u32) -> u64 {
    use shakmaty::Position;
    let moves = p.legal_moves();
    if d == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut c = p.clone();
            c.play_unchecked(*m);
            shak_bulk(&c, d - 1)
        })
        .sum()
}

fn shak_full(p: &shakmaty::Chess, d: u32) -> u64 {
    use shakmaty::Position;
    if d == 0 {
        return 1;
    }
    p.legal_moves()
        .iter()
        .map(|m| {
            let mut c = p.clone();
            c.play_unchecked(*m);
            shak_full(&c, d - 1)
        })
        .sum()
}

fn shak_pos(fen: &str) -> shakmaty::Chess {
    fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap()
}

/// Best of `reps` runs: (nodes, seconds).
fn time(reps: usize, mut f: impl FnMut() -> u64) -> (u64, f64) {
    let mut best = f64::MAX;
    let mut nodes = 0;
    for _ in 0..reps {
        let t = Instant::now();
        nodes = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (nodes, best)
}

fn perft_bench(reps: usize) {
    println!("| position | depth | nodes | guoxiang Mnps | cozy-chess Mnps | shakmaty Mnps | vs cozy | vs shakmaty |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for &(name, fen, depth, expected) in POSITIONS {
        let ours = guoxiang_core::Position::from_fen(fen).unwrap();
        let cozy: cozy_chess::Board = fen.parse().unwrap();
        let shak: shakmaty::Chess =
            fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
        // Interleave the peers rep by rep so that drift hits each alike.
        let (mut a, mut b, mut c) = (f64::MAX, f64::MAX, f64::MAX);
        for _ in 0..reps {
            let (n, t) = time(1, || ours_bulk(&ours, depth));
            assert_eq!(n, expected, "guoxiang {name}");
            a = a.min(t);
            let (n, t) = time(1, || cozy_bulk(&cozy, depth));
            assert_eq!(n, expected, "cozy {name}");
            b = b.min(t);
            let (n, t) = time(1, || shak_bulk(&shak, depth));
            assert_eq!(n, expected, "shakmaty {name}");
            c = c.min(t);
        }
        let m = |t: f64| expected as f64 / t / 1e6;
        println!(
            "| {name} (bulk) | {depth} | {expected} | {:.1} | {:.1} | {:.1} | {:.2}× | {:.2}× |",
            m(a),
            m(b),
            m(c),
            b / a,
            c / a
        );
    }
    for &(name, fen, depth, expected) in POSITIONS {
        let depth = depth - 1;
        let ours = guoxiang_core::Position::from_fen(fen).unwrap();
        let shak: shakmaty::Chess =
            fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
        let expected_full = guoxiang_core::perft(&ours, depth);
        let (mut a, mut c) = (f64::MAX, f64::MAX);
        for _ in 0..reps {
            let (n, t) = time(1, || ours_full(&ours, depth));
            assert_eq!(n, expected_full);
            a = a.min(t);
            let (n, t) = time(1, || shak_full(&shak, depth));
            assert_eq!(n, expected_full);
            c = c.min(t);
        }
        let m = |t: f64| expected_full as f64 / t / 1e6;
        let _ = expected;
        println!(
            "| {name} (every leaf made) | {depth} | {expected_full} | {:.1} | – | {:.1} | – | {:.2}× |",
            m(a),
            m(c),
            c / a
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let reps =
        args.iter().position(|a| a == "--reps").and_then(|i| args.get(i + 1)).and_then(|s| s.parse().ok()).unwrap_or(3);
    match args.first().map(String::as_str) {
        Some("perft") => perft_bench(reps),
        Some("pgn") => pgn::bench(reps),
        // `one LIB KIND POSITION`: a single run for instruction counting under callgrind, e.g.
        // `valgrind --tool=callgrind target/release/guoxiang-bench one cozy bulk 2`.
        Some("one") => {
            let which: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
            let (_, fen, depth, _) = POSITIONS[which.min(POSITIONS.len() - 1)];
            let d = depth - 2;
            let n = match (args.get(1).map(String::as_str), args.get(2).map(String::as_str)) {
                (Some("ours"), Some("bulk")) => ours_bulk(&guoxiang_core::Position::from_fen(fen).unwrap(), d),
                (Some("ours"), Some("full")) => ours_full(&guoxiang_core::Position::from_fen(fen).unwrap(), d - 1),
                (Some("cozy"), Some("bulk")) => cozy_bulk(&fen.parse().unwrap(), d),
                (Some("shakmaty"), Some("bulk")) => shak_bulk(&shak_pos(fen), d),
                (Some("shakmaty"), Some("full")) => shak_full(&shak_pos(fen), d - 1),
                _ => panic!("usage: one ours|cozy|shakmaty bulk|full POSITION-INDEX"),
            };
            println!("{n}");
        }
        Some("profile-full") => profile_full(),
        Some("profile-pgn") => pgn::profile(),
        _ => {
            perft_bench(reps);
            pgn::bench(reps);
        }
    }
}

#[allow(dead_code)]
pub fn profile_full() {
    let p = guoxiang_core::Position::new();
    println!("{}", guoxiang_core::perft_full(&p, 5));
}
