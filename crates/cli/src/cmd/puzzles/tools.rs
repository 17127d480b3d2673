//! `guoxiang puzzles check FILE.csv [--json] [--nodes N]` and `guoxiang puzzles generate FILE.pgn [--json]
//! [--nodes N]` (docs/puzzles/checker.md, docs/puzzles/generator.md).
//!
//! Both read their input as a stream, report a broken row or game on standard error (or, for `check --json`, as a
//! JSON line with `line` and `error`) and go on; the exit code is then 1. A progress bar on standard error (only on
//! a terminal) follows the bytes read; a summary line closes the run.

use crate::input::Counted;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use guoxiang_core::UciMove;
use guoxiang_engine::Engine;
use guoxiang_pgn::{Reader as PgnReader, Replayer};
use guoxiang_tactics::generate::{Generator, Options};
use guoxiang_tactics::{Puzzle, Reader, Writer, check};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

/// The checker's and the generator's transposition table (cleared before every search).
const HASH_MB: usize = 16;

/// Opens `file` with a byte progress bar (drawn only when standard error is a terminal).
fn open(file: &Path) -> Result<(Counted<File>, ProgressBar), String> {
    let f = File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let bar = ProgressBar::new(len).with_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg} ({elapsed}, eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Ok((Counted::new(f, bar.clone()), bar))
}

fn uci(p: &Puzzle, m: guoxiang_core::Move) -> String {
    UciMove::from_move(m, p.position.is_chess960()).to_string()
}

/// `guoxiang puzzles check`.
pub fn check(file: &Path, json: bool, nodes: u64) -> Result<ExitCode, String> {
    let (input, bar) = open(file)?;
    let reader = Reader::new(input);
    let engine = Engine::new(HASH_MB);
    let mut out = BufWriter::new(io::stdout().lock());
    let (mut checked, mut sound, mut broken) = (0u64, 0u64, 0u64);
    let mut total_ms = 0f64;
    let started = Instant::now();
    for row in reader {
        match row {
            Ok(p) => {
                let v = check::check(&p, &engine, nodes);
                checked += 1;
                sound += u64::from(v.sound);
                total_ms += v.time.as_secs_f64() * 1000.0;
                bar.set_message(format!("{sound}/{checked} sound"));
                let line = if json {
                    json!({
                        "id": p.id,
                        "sound": v.sound,
                        "reason": v.reason.en,
                        "reason_zh": v.reason.zh,
                        "ply": v.ply,
                        "alternative": v.alternative.map(|m| uci(&p, m)),
                        "scores": v.moves.iter().map(|r| json!({
                            "ply": r.ply,
                            "solution": r.solution.map(|s| s.to_string()),
                            "alternative": r.alternative.map(|l| uci(&p, l.mv)),
                            "alternative_score": r.alternative.map(|l| l.score.to_string()),
                        })).collect::<Vec<_>>(),
                        "nodes": v.nodes,
                        "ms": (v.time.as_secs_f64() * 10_000.0).round() / 10.0,
                    })
                    .to_string()
                } else {
                    format!("{}\t{}\t{}", p.id, if v.sound { "sound" } else { "unsound" }, v.reason.en)
                };
                writeln!(out, "{line}").map_err(|e| e.to_string())?;
            }
            Err(e) => {
                broken += 1;
                if json {
                    let v = json!({ "line": e.line, "id": e.id, "error": e.problem });
                    writeln!(out, "{v}").map_err(|e| e.to_string())?;
                }
                bar.suspend(|| eprintln!("{}: {e}", file.display()));
            }
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    let mean = if checked > 0 { total_ms / checked as f64 } else { 0.0 };
    eprintln!(
        "{sound} sound / {checked} checked ({:.1}%), {broken} broken rows; {mean:.0} ms per puzzle at {nodes} nodes \
         per solver move ({:.1} s in all)",
        if checked > 0 { 100.0 * sound as f64 / checked as f64 } else { 0.0 },
        started.elapsed().as_secs_f64()
    );
    Ok(if broken > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// A puzzle as one JSON object with the CSV's fields.
fn puzzle_json(p: &Puzzle) -> Value {
    let r = p.record();
    let mut m = serde_json::Map::new();
    for (name, value) in guoxiang_tactics::COLUMNS.iter().zip(r) {
        m.insert((*name).to_string(), Value::String(value));
    }
    Value::Object(m)
}

/// `guoxiang puzzles generate`.
pub fn generate(file: &Path, json: bool, nodes: u64) -> Result<ExitCode, String> {
    let (input, bar) = open(file)?;
    let mut reader = PgnReader::new(input);
    let mut replayer = Replayer::new();
    let mut generator = Generator::new(Engine::new(HASH_MB), Options { nodes, ..Options::default() });
    let stdout = io::stdout();
    let mut csv = if json { None } else { Some(Writer::new(stdout.lock())?) };
    let mut lines = BufWriter::new(io::stdout());
    let (mut games, mut broken, mut found) = (0u64, 0u64, 0u64);
    let started = Instant::now();
    loop {
        match reader.read_game(&mut replayer) {
            Ok(None) => break,
            Ok(Some(g)) => {
                games += 1;
                let n = reader.games_started();
                if !g.errors.is_empty() {
                    broken += 1;
                    for e in &g.errors {
                        bar.suspend(|| eprintln!("{}: game {n}, {e} (game skipped)", file.display()));
                    }
                    continue;
                }
                for p in generator.game(&g.tags, &g.start, &g.moves) {
                    found += 1;
                    match csv.as_mut() {
                        Some(w) => w.write(&p)?,
                        None => writeln!(lines, "{}", puzzle_json(&p)).map_err(|e| e.to_string())?,
                    }
                }
                bar.set_message(format!("{games} games, {found} puzzles"));
            }
            Err(e) if e.is_io() => return Err(format!("{}: {e}", file.display())),
            Err(e) => {
                games += 1;
                broken += 1;
                bar.suspend(|| eprintln!("{}: {e} (game skipped)", file.display()));
            }
        }
    }
    if let Some(w) = csv.as_mut() {
        w.flush()?;
    }
    lines.flush().map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    let s = generator.stats();
    eprintln!(
        "{found} puzzles from {games} games ({:.1} per 100 games), {broken} broken games; {} positions scanned, {} \
         candidates, {} lines rejected by the checker; {:.1} s",
        if games > 0 { 100.0 * found as f64 / games as f64 } else { 0.0 },
        s.positions,
        s.candidates,
        s.unsound,
        started.elapsed().as_secs_f64()
    );
    Ok(if broken > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
