// SPDX-License-Identifier: GPL-3.0-or-later
//! Times our Dutch pairing: a development tool for comparing two versions of the pairing code side by side.
//!
//! `cargo run --release -p guoxiang-tournament --example dutch_time -- SEED COUNT REPS`
//!
//! Draws COUNT tournaments from SEED as `dutch_compare` does (8–200 players, 5–11 rounds), played through with
//! our own pairings, keeps the state before every round, then pairs all those rounds REPS times and prints the
//! best time of one pass and a checksum of the boards (equal checksums: the same pairings).

mod common;

use std::time::Instant;

use common::{Mix, Rng};
use guoxiang_tournament::dutch;
use guoxiang_tournament::trf::Tournament;

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let [seed, count, reps] = args[..] else {
        eprintln!("usage: dutch_time SEED COUNT REPS");
        std::process::exit(2);
    };
    let mut rounds: Vec<Tournament> = Vec::new();
    for k in 0..count {
        let mut rng = Rng(seed.wrapping_mul(1_000_003).wrapping_add(k));
        let n = 8 + rng.below(193) as usize;
        let total = 5 + rng.below(7) as usize;
        let (mut t, entries) = common::new_tournament(&mut rng, n, total, Mix::DUTCH, format!("dutch_time {k}"));
        for r in 0..total {
            common::declare_absences(&mut rng, &mut t, &entries, r, Mix::DUTCH);
            rounds.push(t.clone());
            let Ok(p) = dutch::input_from_trf(&t).and_then(|i| dutch::pair(&i)) else { break };
            let boards: Vec<(u16, u16)> = p.boards.iter().map(|b| (b.white, b.black)).collect();
            common::play(&mut rng, &mut t, &entries, &boards, p.bye, Mix::DUTCH);
        }
    }
    let mut best = f64::MAX;
    let mut check = 0u64;
    for _ in 0..reps.max(1) {
        check = 0;
        let start = Instant::now();
        for t in &rounds {
            if let Ok(p) = dutch::input_from_trf(t).and_then(|i| dutch::pair(&i)) {
                for (k, b) in p.boards.iter().enumerate() {
                    check =
                        check.wrapping_mul(31).wrapping_add((k as u64 + 1) * (b.white as u64 * 7919 + b.black as u64));
                }
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!("rounds {}, best of {reps}: {best:.3} s, checksum {check:016x}", rounds.len());
}
