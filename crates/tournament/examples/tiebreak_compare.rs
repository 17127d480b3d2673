// SPDX-License-Identifier: GPL-3.0-or-later
//! Compares our tie-breaks with an independent implementation's, tiebreak-core (PyPI `tiebreak-core`, MIT), on
//! random tournaments: a development tool, not part of the product (the other implementation is never a
//! dependency).
//!
//! `cargo run --release -p guoxiang-tournament --example tiebreak_compare -- PYTHON SEED COUNT [DIR]`
//!
//! PYTHON is an interpreter that can import `tiebreak_core`; it runs `tools/tiebreak_oracle.py`, which reads the
//! TRF files with its own reader. Each tournament has 6–60 players and 5–11 rounds, drawn from SEED as in
//! `dutch_compare` (ratings, 10% unrated, draws, forfeits, requested half-, zero- and full-point byes, late
//! entries, withdrawals) and paired by our Dutch system; it is compared after its last round, and once in the
//! middle, with the absences declared for the next round in the file (which are not a round played). Every
//! player's BH, BH-C1, BH-M1, SB, WIN, WON, BPG, BWG, PS and ARO are compared; a difference is printed and its
//! TRF kept in DIR (default `target/tiebreak-compare`). The summary goes to standard output.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{Mix, Rng};
use guoxiang_tournament::dutch;
use guoxiang_tournament::standings::{self, DEFAULT_ORDER, TieBreak};
use guoxiang_tournament::trf::{self, Tournament};

const COMPARED: [TieBreak; 10] = [
    TieBreak::Bh,
    TieBreak::BhC1,
    TieBreak::BhM1,
    TieBreak::Sb,
    TieBreak::Win,
    TieBreak::Won,
    TieBreak::Bpg,
    TieBreak::Bwg,
    TieBreak::Ps,
    TieBreak::Aro,
];

const MIX: Mix = Mix { unrated: 0.1, full_byes: 0.01, double_forfeits: 0.0 };

/// Ours for one file.
struct Values {
    /// Per player (start number) and tie-break abbreviation.
    values: HashMap<u16, HashMap<&'static str, f64>>,
    rounds_played: usize,
    /// DE (ranked by score and DE alone): per group of two or more players level on score, best score first,
    /// the tiers DE makes (start numbers), and whether they all met.
    de: Vec<(Vec<Vec<u16>>, bool)>,
}

/// Why tiebreak-core's value differs from ours where the difference is known and explained: in a tournament of
/// fewer rounds played than a modifier cuts, tiebreak-core keeps the whole Buchholz (its own documented choice
/// for this edge, "single score kept uncut", "<3 elements → full BH"); C.07 Art. 14.1 (Cut-1) and 14.2 (Median-1)
/// leave nothing to add up, so we give 0 (the same to every player, so it never ranks anyone).
fn explained(tb: TieBreak, rounds_played: usize) -> bool {
    matches!((tb, rounds_played), (TieBreak::BhC1, 0..=1) | (TieBreak::BhM1, 0..=2))
}

fn ours(t: &Tournament) -> Values {
    let values = standings::compute(t, &DEFAULT_ORDER)
        .into_iter()
        .map(|row| {
            let v = COMPARED.iter().map(|&tb| (tb.abbreviation(), standings::value(&row.tie_breaks, tb))).collect();
            (row.start_number, v)
        })
        .collect();
    let by_de = standings::compute(t, &[TieBreak::De]);
    let mut de: Vec<(Vec<Vec<u16>>, bool)> = Vec::new();
    for (i, row) in by_de.iter().enumerate() {
        let same_group = i > 0 && by_de[i - 1].score == row.score;
        if !same_group {
            de.push((Vec::new(), row.de_complete));
        }
        let tiers = &mut de.last_mut().expect("a group").0;
        match tiers.last_mut() {
            Some(tier) if same_group && by_de[i - 1].rank == row.rank => tier.push(row.start_number),
            _ => tiers.push(vec![row.start_number]),
        }
    }
    de.retain(|(tiers, _)| tiers.iter().map(Vec::len).sum::<usize>() > 1);
    for (tiers, _) in &mut de {
        tiers.iter_mut().for_each(|tier| tier.sort());
    }
    Values { values, rounds_played: t.rounds_played(), de }
}

/// The oracle's values of one file, per player and tie-break, and its DE tiers per score group (as ours).
struct Oracle {
    players: HashMap<u16, HashMap<String, f64>>,
    de: Vec<Vec<Vec<u16>>>,
}

/// Runs the oracle on `files`; its values per file.
fn theirs(python: &str, files: &[PathBuf]) -> Result<HashMap<PathBuf, Oracle>, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools").join("tiebreak_oracle.py");
    let o = Command::new(python).arg(&script).args(files).output().map_err(|e| format!("{python}: {e}"))?;
    if !o.status.success() {
        return Err(format!("the oracle failed: {}", String::from_utf8_lossy(&o.stderr)));
    }
    let mut out = HashMap::new();
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        #[derive(serde::Deserialize)]
        struct Line {
            file: PathBuf,
            players: HashMap<u16, HashMap<String, f64>>,
            de: Vec<Vec<Vec<u16>>>,
        }
        let l: Line = serde_json::from_str(line).map_err(|e| format!("oracle output {line:?}: {e}"))?;
        out.insert(l.file, Oracle { players: l.players, de: l.de });
    }
    Ok(out)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: tiebreak_compare PYTHON SEED COUNT [DIR]");
        std::process::exit(2);
    }
    let python = &args[1];
    let (Ok(seed), Ok(count)) = (args[2].parse::<u64>(), args[3].parse::<u64>()) else {
        eprintln!("tiebreak_compare: SEED and COUNT are numbers");
        std::process::exit(2);
    };
    let dir = PathBuf::from(args.get(4).cloned().unwrap_or_else(|| "target/tiebreak-compare".into()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("tiebreak_compare: {}: {e}", dir.display());
        std::process::exit(2);
    }
    let (mut files_total, mut players_total, mut values_total, mut diffs) = (0u64, 0u64, 0u64, 0u64);
    let mut known = 0u64;
    let (mut de_groups, mut de_diffs, mut de_incomplete) = (0u64, 0u64, 0u64);
    let mut per_tb: HashMap<&str, u64> = HashMap::new();
    // Tournaments go to the oracle in batches (one Python start per batch).
    let mut batch: Vec<(PathBuf, Values)> = Vec::new();
    let mut flush = |batch: &mut Vec<(PathBuf, Values)>, last: bool| {
        if batch.len() < 100 && !last {
            return;
        }
        let files: Vec<PathBuf> = batch.iter().map(|b| b.0.clone()).collect();
        let oracle = match theirs(python, &files) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("tiebreak_compare: {e}");
                std::process::exit(1);
            }
        };
        for (path, ours) in batch.drain(..) {
            let (mine, rounds_played) = (&ours.values, ours.rounds_played);
            let Some(other) = oracle.get(&path) else {
                eprintln!("tiebreak_compare: no oracle output for {}", path.display());
                std::process::exit(1);
            };
            files_total += 1;
            let mut differ = false;
            let mut starts: Vec<&u16> = mine.keys().collect();
            starts.sort();
            for s in starts {
                players_total += 1;
                for tb in COMPARED {
                    let a = tb.abbreviation();
                    let ours = mine[s][a];
                    let theirs = other.players.get(s).and_then(|v| v.get(a)).copied().unwrap_or(f64::NAN);
                    values_total += 1;
                    if (ours - theirs).abs() <= 1e-9 {
                        continue;
                    }
                    if explained(tb, rounds_played) && !theirs.is_nan() {
                        known += 1;
                    } else {
                        diffs += 1;
                        differ = true;
                        *per_tb.entry(a).or_default() += 1;
                        println!("difference: {} player {s} {a}: ours {ours}, tiebreak-core {theirs}", path.display());
                    }
                }
            }
            // DE: the same groups level on score, and in each the same tiers (Art. 6.1-6.2 where the players all
            // met, 6.3's certain ranking where they did not; the latter are counted too).
            if ours.de.len() != other.de.len() {
                de_diffs += 1;
                differ = true;
                println!(
                    "difference: {} DE: score groups ours {:?}, tiebreak-core {:?}",
                    path.display(),
                    ours.de,
                    other.de
                );
            } else {
                for ((tiers, complete), theirs) in ours.de.iter().zip(&other.de) {
                    de_groups += 1;
                    if !complete {
                        de_incomplete += 1;
                    }
                    if tiers == theirs {
                        continue;
                    }
                    de_diffs += 1;
                    differ = true;
                    println!("difference: {} DE: ours {tiers:?}, tiebreak-core {theirs:?}", path.display());
                }
            }
            if !differ {
                std::fs::remove_file(&path).ok();
            }
        }
    };
    for k in 0..count {
        let mut rng = Rng(seed.wrapping_mul(1_000_003).wrapping_add(k));
        let n = 6 + rng.below(55) as usize;
        let rounds = 5 + rng.below(7) as usize;
        let middle = 1 + rng.below(rounds as u64 - 1) as usize;
        let name = format!("tiebreak_compare seed {seed} tournament {k}");
        let (mut t, entries) = common::new_tournament(&mut rng, n, rounds, MIX, name);
        let snapshot = |t: &Tournament, label: &str, batch: &mut Vec<(PathBuf, Values)>| {
            let path = dir.join(format!("s{seed}-t{k}-{label}.trf"));
            let text = trf::write(t);
            // Our values are computed from the file as written and read back, as the oracle reads it.
            let back = trf::parse(&text).unwrap_or_else(|e| panic!("our own TRF does not read back: {e}"));
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            batch.push((path, ours(&back)));
        };
        for r in 0..rounds {
            common::declare_absences(&mut rng, &mut t, &entries, r, MIX);
            if r == middle {
                snapshot(&t, &format!("r{r}"), &mut batch);
            }
            let Ok(pairing) = dutch::input_from_trf(&t).and_then(|i| dutch::pair(&i)) else { break };
            let boards: Vec<(u16, u16)> = pairing.boards.iter().map(|b| (b.white, b.black)).collect();
            common::play(&mut rng, &mut t, &entries, &boards, pairing.bye, MIX);
        }
        snapshot(&t, "end", &mut batch);
        flush(&mut batch, k + 1 == count);
        if (k + 1) % 100 == 0 {
            eprintln!("tournament {}/{count}", k + 1);
        }
    }
    let mut by: Vec<(&&str, &u64)> = per_tb.iter().collect();
    by.sort();
    println!(
        "tournaments {count}, files {files_total}, player lines {players_total}, values {values_total}, differences {diffs} \
         {by:?}; explained {known} (cuts in tournaments of 1-2 rounds played); DE: score groups {de_groups}, \
         differences {de_diffs} (of the groups, {de_incomplete} not all met: Art. 6.3)"
    );
}
