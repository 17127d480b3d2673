// SPDX-License-Identifier: GPL-3.0-or-later
//! Soundness and cost of [`Position::mate_verdict`] over every position of seeded random games: each "cannot" is
//! checked by an exhaustive helpmate search of small depth (it must find no mate), each "can" by replaying its line.
//! Prints the answers, the time per call (median, p99, max) and where the unknowns were.
//!
//! `cargo run --release -p guoxiang-core --example unwinnable_random -- [GAMES] [SEED]` (default 10000 games).

use guoxiang_core::{Color, MateVerdict, Move, Position};
use std::collections::HashSet;
use std::time::{Duration, Instant};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

/// Is there a helpmate for `winner` within `depth` plies? Plain exhaustive search with a (position, depth) memo keyed
/// by the position's hash, which covers placement, side to move, castling rights and a legal en-passant capture.
fn helpmate_within(p: &Position, winner: Color, depth: u32, seen: &mut HashSet<(u64, u32)>) -> bool {
    let moves = p.legal_moves();
    if moves.is_empty() {
        return p.is_check() && p.turn() != winner;
    }
    if depth == 0 || !seen.insert((p.hash(), depth)) {
        return false;
    }
    moves.iter().any(|&m| helpmate_within(&p.after(m), winner, depth - 1, seen))
}

fn mates(p: &Position, winner: Color, line: &[Move]) -> bool {
    let mut q = p.clone();
    for &m in line {
        match q.clone().play(m) {
            Ok(n) => q = n,
            Err(_) => return false,
        }
    }
    q.is_checkmate() && q.turn() != winner
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0x5EED_1234);
    let mut rng = Rng(seed | 1);
    let (mut can, mut cannot, mut unknown, mut unsound) = (0usize, 0usize, 0usize, 0usize);
    let mut times: Vec<Duration> = Vec::new();
    let mut unknowns: Vec<String> = Vec::new();
    let started = Instant::now();
    for game in 0..games {
        // Progress on stderr every ten games (a run of thousands takes hours).
        if game % 10 == 0 && game > 0 {
            eprintln!(
                "{game}/{games} games, {} calls, {:?}: can {can}, cannot {cannot}, unknown {unknown}, unsound {unsound}",
                times.len(),
                started.elapsed()
            );
        }
        let mut p = Position::new();
        for _ in 0..250 {
            for c in Color::ALL {
                let t = Instant::now();
                let v = p.mate_verdict(c);
                times.push(t.elapsed());
                match v {
                    MateVerdict::Can(line) => {
                        can += 1;
                        if !mates(&p, c, &line) {
                            unsound += 1;
                            println!("BAD LINE {} {c:?}", p.fen());
                        }
                    }
                    MateVerdict::Cannot(r) => {
                        cannot += 1;
                        let depth = if p.count_legal() <= 8 { 5 } else { 3 };
                        if helpmate_within(&p, c, depth, &mut HashSet::new()) {
                            unsound += 1;
                            println!("UNSOUND {} {c:?} {r:?}", p.fen());
                        }
                    }
                    MateVerdict::Unknown => {
                        unknown += 1;
                        if unknowns.len() < 20 {
                            unknowns.push(format!("{} {c:?}", p.fen()));
                        }
                    }
                }
            }
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<Move> = moves.iter().copied().filter(|&m| p.is_capture(m)).collect();
            let m = if rng.below(2) == 0 && !captures.is_empty() {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.play_unchecked(m);
        }
    }
    times.sort();
    let pick = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!("{games} random games, {} calls in {:?}", times.len(), started.elapsed());
    println!("can {can} (every line replayed), cannot {cannot} (each checked), unknown {unknown}, unsound {unsound}");
    println!("time per call: median {:?}, p99 {:?}, max {:?}", pick(0.5), pick(0.99), pick(1.0));
    for u in unknowns {
        println!("unknown: {u}");
    }
    if unsound > 0 {
        std::process::exit(1);
    }
}
