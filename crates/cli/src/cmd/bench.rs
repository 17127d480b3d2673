//! `guoxiang bench [DEPTH]`: searches a fixed set of positions to a fixed depth (one thread, a fresh table for
//! each) and prints the total node count — deterministic for a given build of the engine — and the speed.
//! The last line is exactly `N nodes M nps`.

use guoxiang_engine::bench;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Search depth in plies.
    #[arg(default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    let r = bench::run(a.depth);
    for (i, line) in r.lines.iter().enumerate() {
        println!("{:>2}/{} {:>10} nodes  bestmove {:<6} {}", i + 1, r.lines.len(), line.nodes, line.best, line.fen);
    }
    eprintln!("depth {}, {:.3} s", a.depth, r.time.as_secs_f64());
    println!("{} nodes {} nps", r.nodes, r.nps());
    Ok(ExitCode::SUCCESS)
}
