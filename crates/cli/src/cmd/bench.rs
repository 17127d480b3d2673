//! `guoxiang bench [DEPTH]`: searches a fixed set of positions to a fixed depth (one thread, a fresh table for
//! each) and prints the total node count — deterministic for a given build of the engine — and the speed.
//! The last line is exactly `N nodes M nps`. `--eval nnue` (optionally with `--eval-file NET`) benchmarks the
//! network evaluation, `--eval hce` the hand-written one; without it, the engine's default. `--singular-extensions`
//! turns on the search's singular extensions (off by default, UCI `SingularExtensions`); `--continuation-history
//! on|off` sets the continuation history (UCI `ContinuationHistory`).

use guoxiang_engine::bench;
use guoxiang_engine::nnue::Network;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Search depth in plies.
    #[arg(default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// The evaluation: `hce` (hand-written) or `nnue` (the network); the engine's default when not given.
    #[arg(long, value_parser = ["hce", "nnue"])]
    eval: Option<String>,
    /// A network file for `--eval nnue` instead of the one compiled in.
    #[arg(long, value_name = "NET")]
    eval_file: Option<std::path::PathBuf>,
    /// With singular extensions (off by default until an SPRT shows they pay).
    #[arg(long)]
    singular_extensions: bool,
    /// Continuation history on or off (the engine's default when not given).
    #[arg(long, value_parser = ["on", "off"])]
    continuation_history: Option<String>,
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    let mut options = guoxiang_engine::Options::default();
    if let Some(path) = &a.eval_file {
        if a.eval.as_deref() == Some("hce") {
            return Err("--eval-file goes with --eval nnue, not --eval hce".into());
        }
        options.nnue = Some(std::sync::Arc::new(Network::load(path)?));
    } else {
        match a.eval.as_deref() {
            Some("hce") => options.nnue = None,
            Some("nnue") => options.nnue = Some(Network::embedded()),
            _ => {}
        }
    }
    options.singular_extensions = a.singular_extensions;
    if let Some(v) = &a.continuation_history {
        options.continuation_history = v == "on";
    }
    let r = bench::run_with(a.depth, &options);
    for (i, line) in r.lines.iter().enumerate() {
        println!("{:>2}/{} {:>10} nodes  bestmove {:<6} {}", i + 1, r.lines.len(), line.nodes, line.best, line.fen);
    }
    eprintln!("depth {}, {:.3} s", a.depth, r.time.as_secs_f64());
    println!("{} nodes {} nps", r.nodes, r.nps());
    Ok(ExitCode::SUCCESS)
}
