//! Texel tuning: choose the weights that make a sigmoid of the evaluation predict the game results best.
//!
//! Each position's evaluation is linear in the tunable weights before the phase blend ([`EvalTrace`]), so the
//! positions are traced once and the mean squared error `E = mean (r − σ(K·v))²`, `σ(x) = 1 / (1 + 10^(−x/400))`,
//! and its gradient are computed directly from the traces. K is fitted first with the starting weights and then
//! held; the weights are moved by Adam on the full batch, optionally with an L2 penalty towards the starting
//! weights (weights with few positions behind them then stay near their starting values). The last tenth of each data file is held out to show that the fit
//! generalises (the last tenth of each file: other games than those trained on). Afterwards the piece-square tables are centred (their average moves into the material values),
//! which leaves every evaluation unchanged, and the weights are rounded to centipawns.

use guoxiang_core::{Color, Position};
use guoxiang_engine::eval::{EvalTrace, trace};
use guoxiang_engine::params::{EvalParams, MOBILITY_OFFSET, MOBILITY_SIZE, PARAMS, Pair, feature};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;

/// Settings of a tuning run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// Where to write the weights (the engine's `weights.rs`).
    pub out: String,
    /// The command line to record in the written file.
    pub command: String,
    /// Weight of the L2 penalty `l2 · Σ (w − w₀)²` that keeps weights with little data near their starting values.
    pub l2: f64,
    /// Features whose name starts with one of these prefixes (see `feature::name`) keep their starting values.
    pub freeze: Vec<String>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            epochs: 2000,
            rate: 1.0,
            out: "crates/engine/src/params/weights.rs".into(),
            command: String::new(),
            l2: 0.0,
            freeze: Vec::new(),
        }
    }
}

/// One labelled, traced position.
#[derive(Debug, Clone)]
struct Entry {
    start: u32,
    end: u32,
    fixed: (f64, f64),
    /// Middlegame share of the blend, `phase / phase_total`.
    mg: f64,
    drawish: (bool, bool),
    /// The tempo bonus from white's point of view.
    tempo: f64,
    result: f64,
}

/// All positions, with their coefficients in one array.
#[derive(Debug, Default)]
struct Data {
    coefs: Vec<(u16, i16)>,
    entries: Vec<Entry>,
}

impl Data {
    fn push(&mut self, t: &EvalTrace, white_to_move: bool, result: f64) {
        let start = self.coefs.len() as u32;
        self.coefs.extend_from_slice(&t.coefficients);
        let tempo = if white_to_move { PARAMS.tempo } else { -PARAMS.tempo } as f64;
        self.entries.push(Entry {
            start,
            end: self.coefs.len() as u32,
            fixed: (t.fixed.0 as f64, t.fixed.1 as f64),
            mg: t.phase as f64 / PARAMS.phase_total as f64,
            drawish: t.drawish,
            tempo,
            result,
        });
    }
}

/// Reads `FEN;result` lines (result `1`, `0.5`, `0`, or `1-0`, `1/2-1/2`, `0-1`); errors name the file and line.
fn load(paths: &[String]) -> Result<(Data, Data), String> {
    let (mut train, mut valid) = (Data::default(), Data::default());
    let mut skipped = 0usize;
    let mut n = 0usize;
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let bar = ProgressBar::new(text.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("loading {msg} [{bar:40}] {percent}%")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(path.clone());
        let mut offset = 0usize;
        // The last tenth of each file is held out: positions of one game are alike, so the held-out positions
        // come from other games than the training positions (but for one game at the boundary).
        let held_out_from = text.lines().count() * 9 / 10;
        for (i, line) in text.lines().enumerate() {
            offset += line.len() + 1;
            if i % 4096 == 0 {
                bar.set_position(offset as u64);
            }
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            // `FEN;result` or `FEN;result;score` (datagen's lines; the score is not used here).
            let mut fields = line.split(';');
            let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
                return Err(format!("{path}:{}: expected `FEN;result`, found `{line}`", i + 1));
            };
            let result = match result.trim() {
                "1" | "1.0" | "1-0" => 1.0,
                "0.5" | "1/2-1/2" => 0.5,
                "0" | "0.0" | "0-1" => 0.0,
                other => return Err(format!("{path}:{}: result `{other}` is not 1, 0.5 or 0", i + 1)),
            };
            let pos = Position::from_fen(fen.trim()).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            let Some(t) = trace(&pos) else {
                skipped += 1;
                continue;
            };
            let set = if i >= held_out_from { &mut valid } else { &mut train };
            set.push(&t, pos.turn() == Color::White, result);
            n += 1;
        }
        bar.finish_and_clear();
    }
    eprintln!(
        "{} positions ({} for training, {} held out); {skipped} skipped (insufficient material)",
        n,
        train.entries.len(),
        valid.entries.len()
    );
    Ok((train, valid))
}

fn sigmoid(v: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * v / 400.0))
}

/// The evaluation of `e` with weights `w` (`w[2f]` middlegame, `w[2f+1]` endgame), and the scale applied to it.
#[inline]
fn evaluate(data: &Data, e: &Entry, w: &[f64]) -> (f64, f64) {
    let (mut mg, mut eg) = e.fixed;
    for &(f, n) in &data.coefs[e.start as usize..e.end as usize] {
        let n = n as f64;
        mg += n * w[2 * f as usize];
        eg += n * w[2 * f as usize + 1];
    }
    let v = mg * e.mg + eg * (1.0 - e.mg);
    let scale = if (v > 0.0 && e.drawish.0) || (v < 0.0 && e.drawish.1) { 0.25 } else { 1.0 };
    (v * scale + e.tempo, scale)
}

/// Mean squared error over `data`, on two threads.
fn error(data: &Data, w: &[f64], k: f64) -> f64 {
    if data.entries.is_empty() {
        return 0.0;
    }
    let half = data.entries.len() / 2;
    let part = |es: &[Entry]| -> f64 {
        es.iter()
            .map(|e| {
                let d = e.result - sigmoid(evaluate(data, e, w).0, k);
                d * d
            })
            .sum()
    };
    let (a, b) = std::thread::scope(|s| {
        let h = s.spawn(|| part(&data.entries[..half]));
        let b = part(&data.entries[half..]);
        (h.join().unwrap_or(0.0), b)
    });
    (a + b) / data.entries.len() as f64
}

/// Gradient of the mean squared error, on two threads.
fn gradient(data: &Data, w: &[f64], k: f64) -> Vec<f64> {
    let c = k * std::f64::consts::LN_10 / 400.0;
    let part = |es: &[Entry]| -> Vec<f64> {
        let mut g = vec![0.0; w.len()];
        for e in es {
            let (v, scale) = evaluate(data, e, w);
            let s = sigmoid(v, k);
            let d = -2.0 * (e.result - s) * s * (1.0 - s) * c * scale;
            let (gm, ge) = (d * e.mg, d * (1.0 - e.mg));
            for &(f, n) in &data.coefs[e.start as usize..e.end as usize] {
                let n = n as f64;
                g[2 * f as usize] += n * gm;
                g[2 * f as usize + 1] += n * ge;
            }
        }
        g
    };
    let half = data.entries.len() / 2;
    let (mut a, b) = std::thread::scope(|s| {
        let h = s.spawn(|| part(&data.entries[..half]));
        let b = part(&data.entries[half..]);
        (h.join().unwrap_or_else(|_| vec![0.0; w.len()]), b)
    });
    let n = data.entries.len().max(1) as f64;
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x + y) / n;
    }
    a
}

/// The K that minimises the error with weights `w` (golden-section search on [0.2, 3]).
fn fit_k(data: &Data, w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.2f64, 3.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(data, w, a) < error(data, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn flat(p: &EvalParams) -> Vec<f64> {
    p.weights().iter().flat_map(|&Pair(a, b)| [a as f64, b as f64]).collect()
}

/// Centres the piece-square tables — the mean over the squares a piece can stand on moves into its material value
/// (the king's mean cancels out between the sides) — and rounds to whole centipawns.
fn centre_and_round(w: &[f64]) -> Vec<Pair> {
    let mut w = w.to_vec();
    for role in 0..6 {
        // Pawns never stand on the first or last rank (table rows 0 and 7).
        let squares: Vec<usize> = if role == 0 { (8..56).collect() } else { (0..64).collect() };
        for half in 0..2 {
            let idx = |sq: usize| 2 * (feature::PST + role * 64 + sq) + half;
            let mean = squares.iter().map(|&sq| w[idx(sq)]).sum::<f64>() / squares.len() as f64;
            for &sq in &squares {
                w[idx(sq)] -= mean;
            }
            if role < 5 {
                w[2 * (feature::MATERIAL + role) + half] += mean;
            }
        }
        if role == 0 {
            for sq in (0..8).chain(56..64) {
                w[2 * (feature::PST + sq)] = 0.0;
                w[2 * (feature::PST + sq) + 1] = 0.0;
            }
        }
    }
    w.chunks(2).map(|c| Pair(c[0].round() as i32, c[1].round() as i32)).collect()
}

fn table(out: &mut String, t: &[i32; 64]) {
    for row in 0..8 {
        out.push_str(if row == 0 { "        [" } else { "         " });
        let cells: Vec<String> = t[row * 8..row * 8 + 8].iter().map(|v| format!("{v:4}")).collect();
        out.push_str(&cells.join(","));
        out.push_str(if row == 7 { "],\n" } else { ",\n" });
    }
}

fn pairs(ps: &[Pair]) -> String {
    let items: Vec<String> = ps.iter().map(|p| format!("Pair({}, {})", p.0, p.1)).collect();
    format!("[{}]", items.join(", "))
}

/// The Rust source of `weights.rs` below its header comment: `use` and the `PARAMS` constant.
pub fn render_body(p: &EvalParams) -> String {
    const ROLES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    let mut s = String::new();
    s.push_str(
        "use crate::params::{EvalParams, Pair};\n\n#[rustfmt::skip]\npub const PARAMS: EvalParams = EvalParams {\n",
    );
    let _ = writeln!(s, "    material: {},", pairs(&p.material));
    let _ = writeln!(s, "    phase: {:?},", p.phase);
    let _ = writeln!(s, "    phase_total: {},", p.phase_total);
    for (name, tables) in [("pst_mg", &p.pst_mg), ("pst_eg", &p.pst_eg)] {
        let _ = writeln!(s, "    {name}: [");
        for (role, t) in tables.iter().enumerate() {
            let _ = writeln!(s, "        // {}", ROLES[role]);
            table(&mut s, t);
        }
        s.push_str("    ],\n");
    }
    s.push_str("    mobility: [\n");
    for k in 0..4 {
        let at = MOBILITY_OFFSET[k];
        let row = pairs(&p.mobility[at..at + MOBILITY_SIZE[k]]);
        let _ = writeln!(s, "        // {}\n        {},", ROLES[k + 1], &row[1..row.len() - 1]);
    }
    s.push_str("    ],\n");
    let _ = writeln!(s, "    doubled_pawn: Pair({}, {}),", p.doubled_pawn.0, p.doubled_pawn.1);
    let _ = writeln!(s, "    isolated_pawn: Pair({}, {}),", p.isolated_pawn.0, p.isolated_pawn.1);
    let _ = writeln!(s, "    passed_pawn: {},", pairs(&p.passed_pawn));
    for (name, v) in [
        ("bishop_pair", p.bishop_pair),
        ("rook_open_file", p.rook_open_file),
        ("rook_semi_open_file", p.rook_semi_open_file),
        ("shield_close", p.shield_close),
        ("shield_far", p.shield_far),
    ] {
        let _ = writeln!(s, "    {name}: Pair({}, {}),", v.0, v.1);
    }
    let _ = writeln!(s, "    threat: {},", pairs(&p.threat));
    let _ = writeln!(s, "    passed_free: {},", pairs(&p.passed_free));
    for (name, v) in [("passed_king_us", p.passed_king_us), ("passed_king_them", p.passed_king_them)] {
        let _ = writeln!(s, "    {name}: Pair({}, {}),", v.0, v.1);
    }
    let _ = writeln!(s, "    connected_pawn: {},", pairs(&p.connected_pawn));
    let _ = writeln!(s, "    backward_pawn: Pair({}, {}),", p.backward_pawn.0, p.backward_pawn.1);
    let _ = writeln!(s, "    outpost: {},", pairs(&p.outpost));
    for (name, v) in [("bad_bishop", p.bad_bishop), ("minor_behind_pawn", p.minor_behind_pawn)] {
        let _ = writeln!(s, "    {name}: Pair({}, {}),", v.0, v.1);
    }
    let _ = writeln!(s, "    safe_check: {},", pairs(&p.safe_check));
    let _ = writeln!(s, "    king_open_file: Pair({}, {}),", p.king_open_file.0, p.king_open_file.1);
    let _ = writeln!(s, "    king_attack_weight: {:?},", p.king_attack_weight);
    let _ = writeln!(s, "    king_danger_divisor: {},", p.king_danger_divisor);
    let _ = writeln!(s, "    king_danger_max: {},", p.king_danger_max);
    let _ = writeln!(s, "    tempo: {},", p.tempo);
    s.push_str("};\n");
    s
}

/// Tunes on the positions in `paths` and writes `settings.out`.
pub fn run(paths: &[String], settings: &Settings) -> Result<(), String> {
    let (train, valid) = load(paths)?;
    if train.entries.is_empty() {
        return Err("no positions to tune on".into());
    }
    let mut w = flat(&PARAMS);
    let w0 = w.clone();
    let frozen: Vec<bool> =
        (0..feature::COUNT).map(|f| settings.freeze.iter().any(|p| feature::name(f).starts_with(p.as_str()))).collect();
    eprintln!("{} of {} weight pairs are tuned", frozen.iter().filter(|&&x| !x).count(), feature::COUNT);
    let k = fit_k(&train, &w);
    let (e0, v0) = (error(&train, &w, k), error(&valid, &w, k));
    eprintln!("K = {k:.4}; start: training error {e0:.6}, held-out error {v0:.6}");

    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let bar = ProgressBar::new(settings.epochs as u64);
    bar.set_style(
        ProgressStyle::with_template("tuning [{bar:40}] {pos}/{len} epochs {msg} ({eta} left)")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    for epoch in 1..=settings.epochs {
        let mut g = gradient(&train, &w, k);
        for i in 0..w.len() {
            g[i] = if frozen[i / 2] { 0.0 } else { g[i] + 2.0 * settings.l2 * (w[i] - w0[i]) };
        }
        let t = epoch as i32;
        for i in 0..w.len() {
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(t));
            let vh = v[i] / (1.0 - b2.powi(t));
            w[i] -= settings.rate * mh / (vh.sqrt() + eps);
        }
        bar.inc(1);
        if epoch % 50 == 0 || epoch == settings.epochs {
            bar.set_message(format!("error {:.6} / held out {:.6}", error(&train, &w, k), error(&valid, &w, k)));
        }
    }
    bar.finish();
    let tuned = PARAMS.with_weights(&centre_and_round(&w));
    let wt = flat(&tuned);
    let (e1, v1) = (error(&train, &wt, k), error(&valid, &wt, k));
    eprintln!("end: training error {e1:.6}, held-out error {v1:.6} (rounded and centred weights)");

    let mut text = String::new();
    text.push_str(
        "//! The evaluation weights, written by `guoxiang-tune` (`crates/tune`) — do not edit by hand: change the\n\
         //! tuner or its data and run it again (see `docs/engine.md`).\n//!\n",
    );
    let _ = writeln!(text, "//! Command: `{}`", settings.command);
    let _ = writeln!(
        text,
        "//! {} positions for training, {} held out; K = {k:.4}; {} epochs of Adam at step {}; L2 {:e} towards the\n\
         //! starting weights.",
        train.entries.len(),
        valid.entries.len(),
        settings.epochs,
        settings.rate,
        settings.l2
    );
    let _ = writeln!(text, "//! Mean squared error: training {e0:.6} → {e1:.6}, held out {v0:.6} → {v1:.6}.\n");
    text.push_str(&render_body(&tuned));
    std::fs::write(&settings.out, text).map_err(|e| format!("{}: {e}", settings.out))?;
    eprintln!("wrote {}", settings.out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_in_weights_are_the_tuners_output() {
        let file = include_str!("../../engine/src/params/weights.rs");
        let body = &file[file.find("use crate::params").expect("weights.rs has a `use` line")..];
        assert_eq!(body, render_body(&PARAMS));
    }

    #[test]
    fn centring_keeps_every_evaluation() {
        let w = flat(&PARAMS);
        let centred = PARAMS.with_weights(&centre_and_round(&w)).weights();
        for fen in guoxiang_engine::bench::POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            if let Some(t) = trace(&pos) {
                let before = t.evaluate(&PARAMS.weights());
                let after = t.evaluate(&centred);
                // Rounding the means to whole centipawns may move an evaluation by a few centipawns.
                assert!((before - after).abs() <= 8, "{fen}: {before} vs {after}");
            }
        }
    }

    fn data(lines: &[(&str, f64)]) -> Data {
        let mut d = Data::default();
        for &(fen, r) in lines {
            let pos = Position::from_fen(fen).unwrap();
            d.push(&trace(&pos).unwrap(), pos.turn() == Color::White, r);
        }
        d
    }

    #[test]
    fn the_float_evaluation_matches_the_engine_and_descent_lowers_the_error() {
        let lines: Vec<(&str, f64)> = guoxiang_engine::bench::POSITIONS
            .iter()
            .enumerate()
            .filter(|(_, f)| trace(&Position::from_fen(f).unwrap()).is_some())
            .map(|(i, f)| (*f, [0.0, 0.5, 1.0][i % 3]))
            .collect();
        let d = data(&lines);
        let w = flat(&PARAMS);
        for (e, (fen, _)) in d.entries.iter().zip(&lines) {
            let pos = Position::from_fen(fen).unwrap();
            let engine = guoxiang_engine::eval::evaluate(&pos);
            let white = if pos.turn() == Color::White { engine } else { -engine };
            // The engine divides with integers; the tuner does not.
            assert!((evaluate(&d, e, &w).0 - white as f64).abs() <= 1.0, "{fen}");
        }
        let k = fit_k(&d, &w);
        assert!((0.2..=3.0).contains(&k));
        let e0 = error(&d, &w, k);
        let g = gradient(&d, &w, k);
        let step: Vec<f64> = w.iter().zip(&g).map(|(x, gx)| x - 1000.0 * gx).collect();
        assert!(error(&d, &step, k) < e0, "a small step against the gradient must lower the error");
    }

    #[test]
    fn bad_lines_are_named() {
        let path = std::env::temp_dir().join(format!("gx-tune-{}.txt", std::process::id()));
        std::fs::write(
            &path,
            "8/8/8/8/8/8/8/K6k w - - 0 1;1\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;2\n",
        )
        .unwrap();
        let err = load(&[path.to_string_lossy().into_owned()]).unwrap_err();
        assert!(err.ends_with(":2: result `2` is not 1, 0.5 or 0"), "{err}");
        std::fs::remove_file(&path).ok();
    }
}
