// SPDX-License-Identifier: GPL-3.0-or-later
//! Runs the "can this side still mate?" analysis over CHA's labelled test vectors (the file named by
//! `GUOXIANG_CHA_VECTORS`, lines `XY fen` where `X` is `W` or `-` and `Y` is `B` or `-`), prints soundness and
//! completeness figures and the time per side (median, p99, max). Optionally lists the unrecognised sides in the file
//! named by `GUOXIANG_CHA_MISSES`.
//!
//! `GUOXIANG_CHA_VECTORS=/tmp/cha/test-vector.txt cargo run --release -p guoxiang-core --example cha_vectors`

use guoxiang_core::{CastlingMode, Color, MateVerdict, Position, Validation};
use std::time::{Duration, Instant};

fn main() {
    let Some(path) = std::env::var_os("GUOXIANG_CHA_VECTORS") else {
        eprintln!("SKIP: set GUOXIANG_CHA_VECTORS to CHA's tests/test-vector.txt");
        return;
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {}: {e}", path.to_string_lossy());
            std::process::exit(1);
        }
    };
    let (mut positions, mut unwinnable, mut recognised, mut unsound, mut unknown_winnable) = (0, 0, 0, 0, 0);
    let (mut winnable, mut lines_found) = (0, 0);
    let mut times: Vec<Duration> = Vec::new();
    let mut misses = String::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (label, fen) = line.split_at(2);
        let p = match Position::from_fen_with(fen.trim(), CastlingMode::Auto, Validation::Relaxed) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("line {}: bad FEN {fen}: {e}", n + 1);
                continue;
            }
        };
        positions += 1;
        for (c, can) in [(Color::White, label.as_bytes()[0] == b'W'), (Color::Black, label.as_bytes()[1] == b'B')] {
            let t = Instant::now();
            let v = p.mate_verdict(c);
            let took = t.elapsed();
            times.push(took);
            if took.as_millis() >= 300 {
                println!("SLOW {took:?} {label} {} {c:?} {:?}", fen.trim(), v.ability());
            }
            match (&v, can) {
                (MateVerdict::Cannot(_), true) => {
                    unsound += 1;
                    println!("UNSOUND {label} {} {c:?}", fen.trim());
                }
                (MateVerdict::Cannot(_), false) => {
                    unwinnable += 1;
                    recognised += 1;
                }
                (_, false) => {
                    unwinnable += 1;
                    misses.push_str(&format!(
                        "{label} {} {c:?} {}\n",
                        fen.trim(),
                        if matches!(v, MateVerdict::Unknown) { "unknown" } else { "CAN?!" }
                    ));
                    if let MateVerdict::Can(_) = v {
                        unsound += 1;
                        println!("UNSOUND-LINE {label} {} {c:?}", fen.trim());
                    }
                }
                (MateVerdict::Can(_), true) => {
                    winnable += 1;
                    lines_found += 1;
                }
                (MateVerdict::Unknown, true) => {
                    winnable += 1;
                    unknown_winnable += 1;
                }
            }
        }
    }
    times.sort();
    let pick = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!("{positions} positions, {} sides", times.len());
    println!(
        "unwinnable sides: {unwinnable}, recognised {recognised} ({:.2}%), unsound answers: {unsound}",
        100.0 * recognised as f64 / unwinnable.max(1) as f64
    );
    println!("winnable sides: {winnable}, with a mating line {lines_found}, unknown {unknown_winnable}");
    println!("time per side: median {:?}, p99 {:?}, max {:?}", pick(0.5), pick(0.99), pick(1.0));
    if let Some(out) = std::env::var_os("GUOXIANG_CHA_MISSES") {
        let _ = std::fs::write(out, misses);
    }
}
