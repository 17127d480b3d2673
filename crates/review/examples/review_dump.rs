//! Reviews every game of a PGN file as `guoxiang review FILE.pgn --json` does and prints, per game, one JSON line
//! with the same `game` and `moves`, plus `positions`: what the first judge (the hand-written evaluation, or the
//! one judge asked for) said about every position (the start and after each move) — `fen`, `legal`, `eval` (side to move), `best`, `second` `{uci, eval}` — so that the curve and
//! the thresholds can be re-fitted without searching again (tools/review_fit.py, docs/review.md "Calibration"), and
//! `verdicts`: per move, each judge's loss, class and the facts the marks for people use (tools/review_marks.py).
//!
//!     cargo run --release -p guoxiang-review --example review_dump -- FILE.pgn [NODES [both|hand|network]] > DUMP.jsonl
//!
//! Prints the review time per game on standard error.

use std::io::{BufReader, Write};
use std::time::Instant;

use guoxiang_core::UciMove;
use guoxiang_pgn::{Reader, Replayer};
use guoxiang_review::{DEFAULT_NODES, Focus, Hooks, Judges, Options, review_judged};
use serde_json::json;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).ok_or("usage: review_dump FILE.pgn [NODES [both|hand|network]]")?;
    let nodes: u64 =
        args.get(2).map(|s| s.parse().map_err(|e| format!("NODES: {e}"))).transpose()?.unwrap_or(DEFAULT_NODES);
    if nodes == 0 {
        return Err("NODES: must be at least 1".into());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut reader = Reader::new(BufReader::new(file));
    let mut replayer = Replayer::new();
    let judges = match args.get(3) {
        None => Judges::Both,
        Some(s) => Judges::parse(s).ok_or_else(|| format!("'{s}': say both, hand or network"))?,
    };
    // Experiments: GX_FOCUS=off (every position at NODES) or DIVISOR,MIN_LOSS,CONTINUATION[,REST_DIVISOR[,RECHECK]];
    // GX_THREADS=2.
    let focus = match std::env::var("GX_FOCUS").ok().as_deref() {
        None => None,
        Some("off") => None,
        Some(s) => {
            let p: Vec<&str> = s.split(',').collect();
            let (d, l, c, r, x) = match p[..] {
                [d, l, c] => (d, l, c, "0", "0"),
                [d, l, c, r] => (d, l, c, r, "0"),
                [d, l, c, r, x] => (d, l, c, r, x),
                _ => return Err("GX_FOCUS: off or DIVISOR,MIN_LOSS,CONTINUATION[,REST_DIVISOR[,RECHECK]]".into()),
            };
            Some(Focus {
                scan_divisor: d.parse().map_err(|e| format!("GX_FOCUS: {e}"))?,
                min_loss: l.parse().map_err(|e| format!("GX_FOCUS: {e}"))?,
                continuation: c.parse().map_err(|e| format!("GX_FOCUS: {e}"))?,
                rest_divisor: r.parse().map_err(|e| format!("GX_FOCUS: {e}"))?,
                recheck: x.parse().map_err(|e| format!("GX_FOCUS: {e}"))?,
            })
        }
    };
    let threads = std::env::var("GX_THREADS").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let options = Options { nodes, judges, focus, threads, ..Options::default() };
    let mut out = std::io::stdout().lock();
    let t0 = Instant::now();
    let mut n_games = 0;
    loop {
        let g = match reader.read_game(&mut replayer) {
            Ok(None) => break,
            Ok(Some(g)) => g,
            Err(e) if e.is_io() => return Err(format!("{path}: {e}")),
            Err(e) => {
                eprintln!("{e}");
                continue;
            }
        };
        let n = reader.games_started();
        if let Some(e) = g.errors.first() {
            eprintln!("game {n}, {e}: not reviewed");
            continue;
        }
        let t = Instant::now();
        let mut searches = 0;
        let (r, judgements) = review_judged(
            &g.start,
            &g.moves,
            &options,
            &mut Hooks { admit: &guoxiang_review::search::no_admit, progress: &mut |_, t| searches = t },
        )?;
        let mut pos = g.start.clone();
        let c960 = pos.is_chess960();
        let mut positions = Vec::with_capacity(judgements.len());
        for (i, j) in judgements.iter().enumerate() {
            let uci = |m| UciMove::from_move(m, c960).to_string();
            let mut v = json!({
                "eval": j.eval,
                "best": j.best().map(uci),
                "second": j.second_line.map(|(m, e)| json!({"uci": uci(m), "eval": e})),
            });
            v["fen"] = json!(pos.fen());
            v["legal"] = json!(j.legal);
            positions.push(v);
            if let Some(&m) = g.moves.get(i) {
                pos.play_unchecked(m);
            }
        }
        // Each judge's verdict per move (the first judge's first): loss, class and the facts of the marks for
        // people, so that those marks can be re-fitted from the dump (tools/review_marks.py).
        let verdicts: Vec<_> = r
            .moves
            .iter()
            .map(|mv| {
                mv.verdicts
                    .iter()
                    .map(|v| {
                        json!({
                            "loss": v.loss, "class": v.class, "people_loss": v.facts.people_loss,
                            "material_lost": v.facts.material_lost, "allows_mate": v.facts.allows_mate,
                            "before": v.facts.before,
                        })
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let v = json!({ "game": n, "nodes": r.nodes, "moves": r.moves, "positions": positions, "verdicts": verdicts });
        writeln!(out, "{v}").map_err(|e| format!("standard output: {e}"))?;
        n_games += 1;
        eprintln!("game {n}: {} plies, {searches} searches, {:.1} s", g.moves.len(), t.elapsed().as_secs_f64());
    }
    eprintln!("{n_games} games, {:.0} s, {nodes} nodes per position", t0.elapsed().as_secs_f64());
    Ok(())
}
