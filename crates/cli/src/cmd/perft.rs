//! `guoxiang perft DEPTH [--fen FEN] [--divide]` and `guoxiang perft --epd FILE`.

use crate::input;
use guoxiang_core::suite::parse_suite;
use guoxiang_core::{perft, perft_divide};
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies (not with --epd).
    depth: Option<u32>,
    /// Position to start from (default: the initial position).
    #[arg(long)]
    fen: Option<String>,
    /// Print the node count below each legal move.
    #[arg(long)]
    divide: bool,
    /// Run a suite file: EPD lines `FEN ;D1 n ;D2 n …` or `.perft` blocks (`id`, `epd`, `perft D N`).
    #[arg(long, conflicts_with_all = ["depth", "fen", "divide"])]
    epd: Option<String>,
    /// With --epd: skip counts larger than this many nodes.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// With --epd: skip depths above this.
    #[arg(long)]
    max_depth: Option<u32>,
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    if let Some(file) = a.epd {
        return suite(&file, a.max_nodes.unwrap_or(u64::MAX), a.max_depth.unwrap_or(u32::MAX));
    }
    let depth = a.depth.ok_or("perft needs a DEPTH (or --epd FILE)")?;
    let pos = input::position(a.fen.as_deref().unwrap_or("startpos"), true)?;
    let start = Instant::now();
    let nodes = if a.divide {
        let mut total = 0;
        for (m, n) in perft_divide(&pos, depth) {
            println!("{} {n}", pos.uci(m));
            total += n;
        }
        if depth == 0 { 1 } else { total }
    } else {
        perft(&pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!("{:.3} s, {:.1} Mnps", secs, nodes as f64 / secs.max(1e-9) / 1e6);
    println!("nodes {nodes}");
    Ok(ExitCode::SUCCESS)
}

fn suite(file: &str, max_nodes: u64, max_depth: u32) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let cases = parse_suite(&text).map_err(|e| format!("{file}: {e}"))?;
    let bar = ProgressBar::new(cases.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for c in &cases {
        bar.set_message(c.id.clone());
        let pos = match input::position(&c.fen, true) {
            Ok(p) => p,
            Err(e) => {
                bar.suspend(|| println!("FAIL {} (line {}): {e}", c.id, c.line));
                failed += 1;
                bar.inc(1);
                continue;
            }
        };
        let mut ok = true;
        let mut ran = false;
        for &(d, expected) in &c.counts {
            if expected > max_nodes || d > max_depth {
                continue;
            }
            ran = true;
            let got = perft(&pos, d);
            if got != expected {
                ok = false;
                bar.suspend(|| {
                    println!("FAIL {} (line {}): depth {d}: expected {expected}, got {got} — {}", c.id, c.line, c.fen)
                });
            }
        }
        match (ran, ok) {
            (false, _) => skipped += 1,
            (true, true) => passed += 1,
            (true, false) => failed += 1,
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if skipped > 0 {
        println!("{passed} passed, {failed} failed, {skipped} skipped");
    } else {
        println!("{passed} passed, {failed} failed");
    }
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
