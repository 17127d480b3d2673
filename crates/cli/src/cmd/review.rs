//! `guoxiang review FILE.pgn [--json] [--nodes N] [--judges both|hand|network] [--lang zh|en] [--syzygy-path DIR]
//! [--threads N] [--scan]`:
//! every game of a PGN file reviewed move by move by our engine (docs/review.md), by default with both its
//! evaluations as judges; endgame tables judge the positions they cover. `--json`: one JSON object per game
//! (`moves` with `ply`, `san`, `uci`, `eval`,
//! `best`, `class`, `comment`; `accuracy`; per side `acpl` and class counts). Without it: the games as PGN with
//! `[%eval]` comments, NAGs, the comments and the better lines as variations. A progress bar on a terminal counts
//! the positions searched; a game that does not replay is reported on standard error with where, and skipped.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Read, Write};
use std::process::ExitCode;

use guoxiang_core::Lang;
use guoxiang_pgn::{Reader, Replayer, write_game};
use guoxiang_review::{Judges, Options, review};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

#[derive(clap::Args)]
pub struct Args {
    /// The PGN file (`-` for standard input).
    file: String,
    /// One JSON object per game instead of annotated PGN.
    #[arg(long)]
    json: bool,
    /// Nodes searched per position (the review is the same for the same budget).
    #[arg(long, default_value_t = guoxiang_review::DEFAULT_NODES)]
    nodes: u64,
    /// Which evaluations judge the moves: `both` (a mistake when either finds one, a blunder when both find a large
    /// loss; twice the search), `hand` (the hand-written evaluation) or `network`.
    #[arg(long, default_value = "both", value_parser = parse_judges)]
    judges: Judges,
    /// The language of the comments in the PGN output.
    #[arg(long, default_value = "zh", value_parser = parse_lang)]
    lang: Lang,
    /// Directories of Syzygy endgame tables (.rtbw/.rtbz, separated by ':'): the positions they cover are judged
    /// by them.
    #[arg(long, env = "GUOXIANG_SYZYGY_PATH")]
    syzygy_path: Option<String>,
    /// Threads: 2 runs the two judges side by side (the review is the same; default 2 on a machine with two
    /// cores or more, else 1).
    #[arg(long)]
    threads: Option<usize>,
    /// A scan of every position at a sixth of the budget, then the full budget only around the moves where it sees
    /// a swing of 20 points or more: about a third of the searching, at a lower quality (more small swings marked;
    /// docs/review.md, "Speed"). Without it every position gets the full budget.
    #[arg(long)]
    scan: bool,
}

fn parse_judges(s: &str) -> Result<Judges, String> {
    Judges::parse(s).ok_or_else(|| format!("'{s}': say both, hand or network"))
}

fn parse_lang(s: &str) -> Result<Lang, String> {
    Lang::parse(s).ok_or_else(|| format!("'{s}': say zh or en"))
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    if a.nodes == 0 {
        return Err("--nodes: must be at least 1".into());
    }
    let input: Box<dyn Read> = if a.file == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(File::open(&a.file).map_err(|e| format!("{}: {e}", a.file))?)
    };
    let mut reader = Reader::new(BufReader::new(input));
    let mut replayer = Replayer::new();
    let bar = if io::stderr().is_terminal() { ProgressBar::new(0) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} positions")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut out = BufWriter::new(io::stdout().lock());
    let syzygy = super::syzygy_tables(a.syzygy_path.as_deref())?.map(|(tb, _)| tb);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = a.threads.unwrap_or(cores).clamp(1, 2);
    let focus = a.scan.then_some(guoxiang_review::FOCUS);
    let options = Options { nodes: a.nodes, syzygy, judges: a.judges, focus, threads };
    let (mut reviewed, mut bad) = (0u64, 0u64);
    loop {
        let g = match reader.read_game(&mut replayer) {
            Ok(None) => break,
            Ok(Some(g)) => g,
            Err(e) if e.is_io() => return Err(format!("{}: {e}", a.file)),
            Err(e) => {
                bad += 1;
                bar.suspend(|| eprintln!("{e}"));
                continue;
            }
        };
        let n = reader.games_started();
        if let Some(e) = g.errors.first() {
            bad += 1;
            bar.suspend(|| eprintln!("game {n}, {e}: not reviewed"));
            continue;
        }
        bar.set_message(format!("game {n}"));
        bar.set_length(options.searches(g.moves.len()) as u64);
        bar.set_position(0);
        let r = review(&g.start, &g.moves, &options, &mut |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        })?;
        reviewed += 1;
        let written = if a.json {
            let v = json!({
                "game": n,
                "white": g.tag("White"),
                "black": g.tag("Black"),
                "result": g.result.map(|r| r.as_str()),
                "nodes": r.nodes,
                "moves": r.moves,
                "accuracy": r.accuracy(),
                "acpl": { "white": r.white.acpl, "black": r.black.acpl },
                "counts": { "white": r.white.counts, "black": r.black.counts },
            });
            writeln!(out, "{v}")
        } else {
            let game = guoxiang_review::pgn::annotate(&g.tags, &g.start, &g.moves, g.result, &r, a.lang);
            write_game(&mut out, &game).and_then(|()| writeln!(out))
        };
        written.and_then(|()| out.flush()).map_err(|e| format!("standard output: {e}"))?;
    }
    bar.finish_and_clear();
    eprintln!("{reviewed} games reviewed, {bad} not ({} nodes per position)", a.nodes);
    Ok(if bad > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
