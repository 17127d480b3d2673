// SPDX-License-Identifier: GPL-3.0-or-later
//! Compares our Dutch pairings with another engine's (bbpPairings) on random tournaments: a development tool,
//! not part of the product (the other engine is never a dependency).
//!
//! `cargo run --release -p guoxiang-tournament --example dutch_compare -- BBP_BINARY SEED COUNT [DIR]`
//!
//! Each tournament has 8–200 players and 5–11 rounds; ratings, results with draws, forfeits, requested half- and
//! zero-point byes, withdrawals and late entries are drawn from SEED. Every round is paired by both programs
//! from the same TRF; a difference is recorded with its round and the TRF is kept in DIR (default
//! `target/dutch-compare`), and the tournament goes on with the other engine's pairing. Progress goes to
//! standard error, the summary to standard output.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use guoxiang_tournament::dutch;
use guoxiang_tournament::trf::{Code, Colour, Player, RoundEntry, Tournament};

/// SplitMix64: small, seedable, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

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

struct Entry {
    rating: u16,
    /// From this round on (0-based) the player is in the tournament.
    joins: usize,
    /// From this round on the player has withdrawn.
    leaves: usize,
}

fn points_of(code: Code) -> f64 {
    match code {
        Code::Win | Code::ForfeitWin | Code::FullBye | Code::PairingBye | Code::WinShort => 1.0,
        Code::Draw | Code::HalfBye | Code::DrawShort => 0.5,
        _ => 0.0,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: dutch_compare BBP_BINARY SEED COUNT [DIR]");
        std::process::exit(2);
    }
    let bbp = PathBuf::from(&args[1]);
    let seed: u64 = args[2].parse().expect("SEED is a number");
    let count: u64 = args[3].parse().expect("COUNT is a number");
    let dir = PathBuf::from(args.get(4).cloned().unwrap_or_else(|| "target/dutch-compare".into()));
    std::fs::create_dir_all(&dir).expect("create the output folder");
    let (mut rounds_total, mut diffs, mut ours_time, mut slowest) = (0u64, 0u64, Duration::ZERO, Duration::ZERO);
    let mut slowest_at = String::new();
    for k in 0..count {
        let tseed = seed.wrapping_mul(1_000_003).wrapping_add(k);
        let mut rng = Rng(tseed);
        let n = 8 + rng.below(193) as usize;
        let rounds = 5 + rng.below(7) as usize;
        let mut entries: Vec<Entry> = (0..n)
            .map(|_| Entry {
                rating: 1000 + rng.below(1800) as u16,
                joins: if rng.chance(0.05) { 1 + rng.below(2) as usize } else { 0 },
                leaves: if rng.chance(0.05) { 2 + rng.below(rounds as u64 - 1) as usize } else { usize::MAX },
            })
            .collect();
        entries.sort_by_key(|e| std::cmp::Reverse(e.rating));
        let mut t =
            Tournament { rounds: Some(rounds as u32), initial_colour: Some(Colour::White), ..Default::default() };
        t.header.name = Some(format!("dutch_compare seed {seed} tournament {k}"));
        for (i, e) in entries.iter().enumerate() {
            t.players.push(Player {
                start_number: i as u16 + 1,
                sex: String::new(),
                title: String::new(),
                name: format!("Player {}", i + 1),
                rating: Some(e.rating),
                federation: String::new(),
                fide_id: None,
                birth_date: String::new(),
                points: Some(0.0),
                rank: None,
                rounds: Vec::new(),
            });
        }
        for r in 0..rounds {
            // Who is out of this round: not yet joined, withdrawn, or a requested bye.
            for (i, e) in entries.iter().enumerate() {
                let out = if r < e.joins || r >= e.leaves {
                    Some(Code::ZeroBye)
                } else if rng.chance(0.04) {
                    Some(if rng.chance(0.5) { Code::HalfBye } else { Code::ZeroBye })
                } else {
                    None
                };
                if let Some(code) = out {
                    t.players[i].rounds.push(RoundEntry { opponent: None, colour: Colour::None, code });
                }
            }
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
            } else {
                std::fs::remove_file(&path).ok();
                std::fs::remove_file(path.with_extension("bbp.txt")).ok();
            }
            let Some((boards, bye)) = theirs else { break };
            // Results: the higher rating wins more often; about a third of games are drawn; a few forfeits.
            for &(w, b) in &boards {
                let (rw, rb) = (entries[w as usize - 1].rating as f64, entries[b as usize - 1].rating as f64);
                let expected = 1.0 / (1.0 + 10f64.powf((rb - rw) / 400.0));
                let (cw, cb) = if rng.chance(0.02) {
                    if rng.chance(0.5) {
                        (Code::ForfeitWin, Code::ForfeitLoss)
                    } else {
                        (Code::ForfeitLoss, Code::ForfeitWin)
                    }
                } else {
                    let x = rng.unit();
                    if x < expected - 0.15 {
                        (Code::Win, Code::Loss)
                    } else if x < expected + 0.15 {
                        (Code::Draw, Code::Draw)
                    } else {
                        (Code::Loss, Code::Win)
                    }
                };
                t.players[w as usize - 1].rounds.push(RoundEntry {
                    opponent: Some(b),
                    colour: Colour::White,
                    code: cw,
                });
                t.players[b as usize - 1].rounds.push(RoundEntry {
                    opponent: Some(w),
                    colour: Colour::Black,
                    code: cb,
                });
            }
            if let Some(p) = bye {
                t.players[p as usize - 1].rounds.push(RoundEntry {
                    opponent: None,
                    colour: Colour::None,
                    code: Code::PairingBye,
                });
            }
            for p in &mut t.players {
                p.points = Some(p.rounds.iter().map(|e| points_of(e.code)).sum());
            }
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
