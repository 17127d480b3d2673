// SPDX-License-Identifier: GPL-3.0-or-later
//! The random tournaments of the comparison examples (`dutch_compare`, `tiebreak_compare`): players with ratings,
//! late entries and withdrawals, requested byes, results with draws and forfeits. A development tool.

use guoxiang_tournament::trf::{Code, Colour, Player, RoundEntry, Tournament};

/// SplitMix64: small, seedable, and the same everywhere.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// What a tournament has beyond what `dutch_compare` draws (which uses [`Mix::DUTCH`], so its tournaments stay
/// the same for a seed: a zero share draws no random number).
#[derive(Clone, Copy)]
pub struct Mix {
    /// The share of unrated players.
    pub unrated: f64,
    /// The chance per player and round of a requested full-point bye (`F`).
    pub full_byes: f64,
    /// The chance per board of a double forfeit (both absent: `-` against `-`), drawn before the 2% of forfeits.
    pub double_forfeits: f64,
}

impl Mix {
    #[allow(dead_code)] // dutch_compare's only
    pub const DUTCH: Mix = Mix { unrated: 0.0, full_byes: 0.0, double_forfeits: 0.0 };
}

pub struct Entry {
    pub rating: u16,
    /// From this round on (0-based) the player is in the tournament.
    pub joins: usize,
    /// From this round on the player has withdrawn.
    pub leaves: usize,
}

/// A new tournament of `n` players and `rounds` rounds (nobody paired yet), players by rating, highest first.
pub fn new_tournament(rng: &mut Rng, n: usize, rounds: usize, mix: Mix, name: String) -> (Tournament, Vec<Entry>) {
    let mut entries: Vec<Entry> = (0..n)
        .map(|_| Entry {
            rating: 1000 + rng.below(1800) as u16,
            joins: if rng.chance(0.05) { 1 + rng.below(2) as usize } else { 0 },
            leaves: if rng.chance(0.05) { 2 + rng.below(rounds as u64 - 1) as usize } else { usize::MAX },
        })
        .collect();
    entries.sort_by_key(|e| std::cmp::Reverse(e.rating));
    let mut t = Tournament { rounds: Some(rounds as u32), initial_colour: Some(Colour::White), ..Default::default() };
    t.header.name = Some(name);
    for (i, e) in entries.iter().enumerate() {
        let unrated = mix.unrated > 0.0 && rng.chance(mix.unrated);
        t.players.push(Player {
            start_number: i as u16 + 1,
            sex: String::new(),
            title: String::new(),
            name: format!("Player {}", i + 1),
            rating: (!unrated).then_some(e.rating),
            federation: String::new(),
            fide_id: None,
            birth_date: String::new(),
            points: Some(0.0),
            rank: None,
            rounds: Vec::new(),
        });
    }
    (t, entries)
}

/// Writes round `r`'s absences (0-based) in the next round's columns: not yet joined, withdrawn, or a requested
/// bye (half- or zero-point; full-point as `mix` says).
pub fn declare_absences(rng: &mut Rng, t: &mut Tournament, entries: &[Entry], r: usize, mix: Mix) {
    for (i, e) in entries.iter().enumerate() {
        let out = if r < e.joins || r >= e.leaves {
            Some(Code::ZeroBye)
        } else if rng.chance(0.04) {
            Some(if rng.chance(0.5) { Code::HalfBye } else { Code::ZeroBye })
        } else if mix.full_byes > 0.0 && rng.chance(mix.full_byes) {
            Some(Code::FullBye)
        } else {
            None
        };
        if let Some(code) = out {
            t.players[i].rounds.push(RoundEntry { opponent: None, colour: Colour::None, code });
        }
    }
}

fn points_of(code: Code) -> f64 {
    match code {
        Code::Win | Code::ForfeitWin | Code::FullBye | Code::PairingBye | Code::WinShort => 1.0,
        Code::Draw | Code::HalfBye | Code::DrawShort => 0.5,
        _ => 0.0,
    }
}

/// Plays a round's boards (white, black) and gives the pairing-allocated bye: the higher rating wins more often,
/// about a third of games are drawn, 2% are forfeits (and `mix.double_forfeits` double forfeits). Then the points
/// column is brought up to date.
pub fn play(rng: &mut Rng, t: &mut Tournament, entries: &[Entry], boards: &[(u16, u16)], bye: Option<u16>, mix: Mix) {
    for &(w, b) in boards {
        let (rw, rb) = (entries[w as usize - 1].rating as f64, entries[b as usize - 1].rating as f64);
        let expected = 1.0 / (1.0 + 10f64.powf((rb - rw) / 400.0));
        let (cw, cb) = if mix.double_forfeits > 0.0 && rng.chance(mix.double_forfeits) {
            (Code::ForfeitLoss, Code::ForfeitLoss)
        } else if rng.chance(0.02) {
            if rng.chance(0.5) { (Code::ForfeitWin, Code::ForfeitLoss) } else { (Code::ForfeitLoss, Code::ForfeitWin) }
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
        t.players[w as usize - 1].rounds.push(RoundEntry { opponent: Some(b), colour: Colour::White, code: cw });
        t.players[b as usize - 1].rounds.push(RoundEntry { opponent: Some(w), colour: Colour::Black, code: cb });
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
