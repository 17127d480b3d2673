// SPDX-License-Identifier: GPL-3.0-or-later
//! Compares our Dutch pairings with another engine's (bbpPairings) on random tournaments: a development tool,
//! not part of the product (the other engine is never a dependency).
//!
//! `cargo run --release -p guoxiang-tournament --example dutch_compare -- BBP_BINARY SEED COUNT [DIR [DOUBLE]]`
//!
//! Each tournament has 8–200 players and 5–11 rounds; ratings, results with draws, forfeits, requested half- and
//! zero-point byes, withdrawals and late entries are drawn from SEED. Every round is paired by both programs
//! from the same TRF; a difference is recorded with its round and the TRF is kept in DIR (default
//! `target/dutch-compare`), and the tournament goes on with the other engine's pairing. DOUBLE (default 0) is the
//! chance per board of a double forfeit (`-` against `-`); with 0 the tournaments of a seed are those of before.
//! With `DUTCH_COMPARE_KEEP` set, the TRF and bbpPairings' output of every round are kept, not only differences. Progress goes to
//! standard error, the summary to standard output.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod common;

use common::{Mix, Rng};
use guoxiang_tournament::dutch;
use guoxiang_tournament::trf::Tournament;

/// The output of either engine, normalised: boards as (white, black) and the bye.
type Pairs = Option<(Vec<(u16, u16)>, Option<u16>)>;

fn run_bbp(bbp: &Path, trf: &Path) -> Result<Pairs, String> {
    let out = trf.with_extension("bbp.txt");
    let o = Command::new(bbp)
        .arg("--dutch")
        .arg(trf)
        .arg("-p")
        .arg(&out)
        .output()
        .map_err(|e| format!("{}: {e}", bbp.display()))?;
    match o.status.code() {
        Some(0) => {}
        Some(1) => return Ok(None),
        _ => return Err(format!("bbp failed on {}: {}", trf.display(), String::from_utf8_lossy(&o.stderr))),
    }
    let text = std::fs::read_to_string(&out).map_err(|e| e.to_string())?;
    let mut boards = Vec::new();
    let mut bye = None;
    for line in text.lines().skip(1) {
        let v: Vec<u16> = line.split_whitespace().filter_map(|x| x.parse().ok()).collect();
        match v.as_slice() {
            [p, 0] => bye = Some(*p),
            [w, b] => boards.push((*w, *b)),
            _ => return Err(format!("unexpected bbp line {line:?}")),
        }
    }
    Ok(Some((boards, bye)))
}

fn ours(t: &Tournament) -> Pairs {
    let input = dutch::input_from_trf(t).ok()?;
    let p = dutch::pair(&input).ok()?;
    Some((p.boards.iter().map(|b| (b.white, b.black)).collect(), p.bye))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: dutch_compare BBP_BINARY SEED COUNT [DIR [DOUBLE]]");
        std::process::exit(2);
    }
    let bbp = PathBuf::from(&args[1]);
    let seed: u64 = args[2].parse().expect("SEED is a number");
    let count: u64 = args[3].parse().expect("COUNT is a number");
    let dir = PathBuf::from(args.get(4).cloned().unwrap_or_else(|| "target/dutch-compare".into()));
    let double: f64 = args.get(5).map(|x| x.parse().expect("DOUBLE is a number like 0.05")).unwrap_or(0.0);
    let mix = Mix { double_forfeits: double, ..Mix::DUTCH };
    std::fs::create_dir_all(&dir).expect("create the output folder");
    let (mut rounds_total, mut diffs, mut ours_time, mut slowest) = (0u64, 0u64, Duration::ZERO, Duration::ZERO);
    let mut slowest_at = String::new();
    for k in 0..count {
        let tseed = seed.wrapping_mul(1_000_003).wrapping_add(k);
        let mut rng = Rng(tseed);
        let n = 8 + rng.below(193) as usize;
        let rounds = 5 + rng.below(7) as usize;
        let name = format!("dutch_compare seed {seed} tournament {k}");
        let (mut t, entries) = common::new_tournament(&mut rng, n, rounds, mix, name);
        for r in 0..rounds {
            common::declare_absences(&mut rng, &mut t, &entries, r, mix);
            let path = dir.join(format!("s{seed}-t{k}-r{}.trf", r + 1));
            std::fs::write(&path, guoxiang_tournament::trf::write(&t)).expect("write TRF");
            let start = Instant::now();
            let mine = ours(&t);
            let took = start.elapsed();
            ours_time += took;
            if took > slowest {
                slowest = took;
                slowest_at = format!("tournament {k} round {} ({n} players)", r + 1);
                std::fs::write(dir.join("slowest.trf"), guoxiang_tournament::trf::write(&t)).ok();
            }
            let theirs = match run_bbp(&bbp, &path) {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(1);
                }
            };
            rounds_total += 1;
            if mine != theirs {
                diffs += 1;
                println!("difference: seed {seed} tournament {k} round {} ({} players): {}", r + 1, n, path.display());
                std::fs::write(path.with_extension("ours.txt"), format!("{mine:?}\n")).ok();
            } else if std::env::var_os("DUTCH_COMPARE_KEEP").is_none() {
                std::fs::remove_file(&path).ok();
                std::fs::remove_file(path.with_extension("bbp.txt")).ok();
            }
            let Some((boards, bye)) = theirs else { break };
            common::play(&mut rng, &mut t, &entries, &boards, bye, mix);
        }
        eprintln!(
            "tournament {}/{count}: {n} players, {rounds} rounds; so far {rounds_total} rounds, {diffs} differences",
            k + 1
        );
    }
    println!(
        "tournaments {count}, rounds {rounds_total}, differences {diffs}; our pairing time {:.2} s in all, slowest round {:.3} s \
         ({slowest_at}, kept as slowest.trf)",
        ours_time.as_secs_f64(),
        slowest.as_secs_f64()
    );
}
