//! `guoxiang puzzles tag FILE.csv [--json]`: our motif tagger over every row of a lichess CSV, in input order.
//!
//! With `--json`, one object per row: `{"id", "motifs", "lichess_themes"}`, or `{"line", "id", "error"}` for a broken
//! row. Without it, one readable line per puzzle (`id: fork, pin`). The Themes column is never looked at: the motifs
//! come from the position and the moves alone. Exit code 0 when every row was read, 1 when some row was broken, 2 when
//! the file cannot be opened.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use guoxiang_tactics::{Reader, lichess_themes, tag};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

/// One tagged row of `--json`, fields in this order.
#[derive(Serialize)]
struct Tagged<'a> {
    id: &'a str,
    motifs: &'a [guoxiang_tactics::Motif],
    lichess_themes: Vec<&'static str>,
}

/// One broken row of `--json`.
#[derive(Serialize)]
struct Broken<'a> {
    line: u64,
    id: Option<&'a str>,
    error: &'a str,
}

pub fn run(file: &Path, json: bool) -> Result<ExitCode, String> {
    let f = match File::open(file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("puzzles tag: {}: {e}", file.display());
            return Ok(ExitCode::from(2));
        }
    };
    let size = f.metadata().map(|m| m.len()).unwrap_or(0);
    let bar = if io::stderr().is_terminal() {
        ProgressBar::new(size).with_style(
            ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {pos} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        )
    } else {
        ProgressBar::hidden()
    };
    let mut reader = Reader::new(BufReader::with_capacity(1 << 16, f));
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let (mut rows, mut broken) = (0u64, 0u64);
    let write_err = |e: io::Error| format!("puzzles tag: writing the output: {e}");
    while let Some(row) = reader.next() {
        rows += 1;
        match row {
            Ok(p) => {
                let motifs = tag::motifs(&p);
                if json {
                    let v = Tagged { id: &p.id, motifs: &motifs, lichess_themes: lichess_themes(&motifs) };
                    let v = serde_json::to_string(&v).map_err(|e| format!("puzzles tag: {e}"))?;
                    writeln!(out, "{v}").map_err(write_err)?;
                } else {
                    let ids: Vec<&str> = motifs.iter().map(|m| m.id()).collect();
                    writeln!(out, "{}: {}", p.id, ids.join(", ")).map_err(write_err)?;
                }
            }
            Err(e) => {
                broken += 1;
                if json {
                    let v = Broken { line: e.line, id: e.id.as_deref(), error: &e.problem };
                    let v = serde_json::to_string(&v).map_err(|e| format!("puzzles tag: {e}"))?;
                    writeln!(out, "{v}").map_err(write_err)?;
                } else {
                    bar.suspend(|| eprintln!("puzzles tag: {e}"));
                }
            }
        }
        if rows.is_multiple_of(256) {
            bar.set_position(reader.bytes_read());
        }
    }
    out.flush().map_err(write_err)?;
    bar.finish_and_clear();
    eprintln!("puzzles tag: {rows} row(s), {broken} broken");
    Ok(if broken > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
