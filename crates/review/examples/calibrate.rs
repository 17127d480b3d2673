//! Fits the slope K of a logistic expected-score curve on real games: positions sampled from a PGN file, each
//! searched at a small node budget, against the game's result for the side to move; and compares the curve in use
//! (`chances::expected_cp`, fitted to Stockfish instead: docs/review.md) with the results.
//!
//!     cargo run --release -p guoxiang-review --example calibrate -- FILE.pgn [MIN_ELO] [NODES] [MAX_GAMES]
//!
//! Games decided on the clock (base time under 3 minutes, or a `Termination` other than `Normal`) are left out.
//! Prints the best K by cross-entropy (a draw counts as ½), and the observed score per evaluation bucket next to
//! the curve's, so the fit can be read off.

use std::io::BufReader;
use std::time::Instant;

use guoxiang_core::Color;
use guoxiang_engine::{Control, Engine, Limits, Silent};
use guoxiang_pgn::{GameResult, Reader, Replayer};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).ok_or("usage: calibrate FILE.pgn [MIN_ELO] [NODES] [MAX_GAMES]")?;
    let min_elo: u32 = args.get(2).map(|s| s.parse().map_err(|e| format!("MIN_ELO: {e}"))).transpose()?.unwrap_or(1800);
    let nodes: u64 = args.get(3).map(|s| s.parse().map_err(|e| format!("NODES: {e}"))).transpose()?.unwrap_or(5000);
    let max_games: usize =
        args.get(4).map(|s| s.parse().map_err(|e| format!("MAX_GAMES: {e}"))).transpose()?.unwrap_or(1500);
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut reader = Reader::new(BufReader::new(file));
    let mut replayer = Replayer::new();
    let engine = Engine::new(16);
    let mut samples: Vec<(i32, f64)> = Vec::new();
    let mut games = 0;
    let t = Instant::now();
    while games < max_games {
        let g = match reader.read_game(&mut replayer) {
            Ok(Some(g)) => g,
            Ok(None) => break,
            Err(_) => continue,
        };
        let elo = |tag: &str| g.tag(tag).and_then(|v| v.parse::<u32>().ok()).unwrap_or(0);
        let white_score = match g.result {
            Some(GameResult::WhiteWins) => 1.0,
            Some(GameResult::BlackWins) => 0.0,
            Some(GameResult::Draw) => 0.5,
            _ => continue,
        };
        // Results decided on the clock say nothing about the position: bullet games and time forfeits are left out.
        let base: u32 =
            g.tag("TimeControl").and_then(|t| t.split('+').next()).and_then(|b| b.parse().ok()).unwrap_or(0);
        if base < 180 || g.tag("Termination").is_some_and(|t| t != "Normal") {
            continue;
        }
        if elo("WhiteElo") < min_elo || elo("BlackElo") < min_elo || !g.errors.is_empty() || g.moves.len() < 20 {
            continue;
        }
        games += 1;
        let mut pos = g.start.clone();
        for (i, &m) in g.moves.iter().enumerate() {
            if i >= 8 && i % 6 == 0 && !pos.is_check() {
                engine.clear_hash();
                let limits = Limits { nodes: Some(nodes), ..Limits::default() };
                let r = engine.search(&pos, &[], &limits, &Control::default(), &Silent, Instant::now());
                if !r.score.is_mate() {
                    let s = if pos.turn() == Color::White { white_score } else { 1.0 - white_score };
                    samples.push((r.score.cp(), s));
                }
            }
            pos.play_unchecked(m);
        }
    }
    eprintln!("{games} games, {} positions, {:.0} s", samples.len(), t.elapsed().as_secs_f64());
    let loss = |k: f64| {
        samples
            .iter()
            .map(|&(cp, s)| {
                let p = (1.0 / (1.0 + (-k * f64::from(cp.clamp(-4000, 4000))).exp())).clamp(1e-6, 1.0 - 1e-6);
                -(s * p.ln() + (1.0 - s) * (1.0 - p).ln())
            })
            .sum::<f64>()
            / samples.len().max(1) as f64
    };
    let mut best = (0.0, f64::MAX);
    for i in 5..=150 {
        let k = f64::from(i) * 0.0001;
        let l = loss(k);
        if l < best.1 {
            best = (k, l);
        }
    }
    // The curve in use (chances::expected_cp, fitted to Stockfish's win/draw/loss estimate) against the results.
    let in_use = samples
        .iter()
        .map(|&(cp, s)| {
            let p = (guoxiang_review::chances::expected_cp(cp) / 100.0).clamp(1e-6, 1.0 - 1e-6);
            -(s * p.ln() + (1.0 - s) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / samples.len().max(1) as f64;
    println!("best K = {:.4} (cross-entropy {:.4}; the curve in use: {in_use:.4})", best.0, best.1);
    println!("| eval (cp, side to move) | positions | observed score % | curve % (K = {:.4}) |", best.0);
    println!("|---|---:|---:|---:|");
    for (lo, hi) in [
        (-10000, -400),
        (-400, -200),
        (-200, -100),
        (-100, -30),
        (-30, 30),
        (30, 100),
        (100, 200),
        (200, 400),
        (400, 10000),
    ] {
        let b: Vec<_> = samples.iter().filter(|&&(cp, _)| cp >= lo && cp < hi).collect();
        if b.is_empty() {
            continue;
        }
        let obs = b.iter().map(|&&(_, s)| s).sum::<f64>() / b.len() as f64 * 100.0;
        let mid = b.iter().map(|&&(cp, _)| f64::from(cp)).sum::<f64>() / b.len() as f64;
        let curve = 100.0 / (1.0 + (-best.0 * mid).exp());
        println!("| {lo} … {hi} (mean {mid:.0}) | {} | {obs:.1} | {curve:.1} |", b.len());
    }
    Ok(())
}
