// SPDX-License-Identifier: GPL-3.0-or-later
//! What the Dutch rules need to know of each player before a round: score, colour difference and colour
//! preference, the floats of the last two rounds (1.4), whether the pairing-allocated bye is still
//! allowed (C.2), and who they have met.

use std::collections::{HashMap, HashSet};

use super::{Entrant, Input, Side};

/// How strongly a player wants a colour (absolute, strong, mild).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

/// A float received in a round (1.4.2, 1.4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
    None,
}

/// One player to be paired, as the criteria see them.
#[derive(Debug, Clone)]
pub struct State {
    /// The pairing number (the TRF's start number).
    pub number: u16,
    /// 1-based place in pairing-number order among the players of the tournament so far (for E.5).
    pub place: u32,
    /// Score in half points.
    pub score: u32,
    pub games_played: u32,
    /// The colours of the games played, oldest first.
    pub colours: Vec<Side>,
    /// |games with White − games with Black|.
    pub imbalance: u32,
    /// The preferred colour, if any.
    pub preference: Option<Side>,
    pub strength: Strength,
    /// The colour of the last two games when they were the same.
    pub repeated: Option<Side>,
    /// Floats of the last round and of the round before.
    pub floats: [Float; 2],
    /// May still receive the pairing-allocated bye.
    pub bye_eligible: bool,
    /// Players met over the board, and pairs the organiser forbade.
    pub barred: HashSet<u16>,
}

impl State {
    /// Whether the colour difference alone makes the preference absolute (|difference| > 1).
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    pub fn absolute(&self) -> bool {
        self.strength == Strength::Absolute
    }
}

fn round_points(e: &Entrant, r: usize) -> u32 {
    e.history.get(r).map(|g| g.points).unwrap_or(0)
}

/// Computes every present player's state; `played` is the number of rounds already played.
pub fn states(input: &Input, played: usize) -> Vec<State> {
    let by_number: HashMap<u16, &Entrant> = input.players.iter().map(|e| (e.start_number, e)).collect();
    // Score after each round, for the floats (a float compares the scores before the round).
    let score_before = |e: &Entrant, r: usize| -> u32 { (0..r).map(|k| round_points(e, k)).sum() };
    let mut forbidden: HashMap<u16, HashSet<u16>> = HashMap::new();
    for &(a, b) in &input.forbidden {
        forbidden.entry(a).or_default().insert(b);
        forbidden.entry(b).or_default().insert(a);
    }
    let mut out = Vec::new();
    for e in input.players.iter().filter(|e| !e.absent) {
        let mut colours = Vec::new();
        let mut barred = forbidden.remove(&e.start_number).unwrap_or_default();
        let mut bye_eligible = true;
        for g in e.history.iter().take(played) {
            if g.played {
                if let (Some(c), Some(o)) = (g.colour, g.opponent) {
                    colours.push(c);
                    barred.insert(o);
                }
            } else if g.points >= 2 || g.pairing_bye {
                // C.2: no second bye for a player who already scored a win without playing.
                bye_eligible = false;
            }
        }
        let whites = colours.iter().filter(|&&c| c == Side::White).count() as i64;
        let blacks = colours.len() as i64 - whites;
        let imbalance = (whites - blacks).unsigned_abs() as u32;
        let lower = if whites > blacks { Side::Black } else { Side::White };
        let n = colours.len();
        let repeated = if n >= 2 && colours[n - 1] == colours[n - 2] { Some(colours[n - 1]) } else { None };
        let (preference, strength) = if imbalance > 1 {
            (Some(lower), Strength::Absolute)
        } else if let Some(c) = repeated {
            (Some(c.other()), Strength::Absolute)
        } else if imbalance == 1 {
            (Some(lower), Strength::Strong)
        } else if let Some(&c) = colours.last() {
            (Some(c.other()), Strength::Mild)
        } else {
            (None, Strength::None)
        };
        let mut floats = [Float::None; 2];
        for (k, slot) in floats.iter_mut().enumerate() {
            if played < k + 1 {
                continue;
            }
            let r = played - 1 - k;
            let Some(g) = e.history.get(r) else {
                continue;
            };
            *slot = if !g.played {
                // 1.4.3: scoring more than a loss without playing is a downfloat.
                if g.points > 0 { Float::Down } else { Float::None }
            } else {
                let mine = score_before(e, r);
                let theirs = g.opponent.and_then(|o| by_number.get(&o)).map(|o| score_before(o, r)).unwrap_or(mine);
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => Float::Down,
                    std::cmp::Ordering::Less => Float::Up,
                    std::cmp::Ordering::Equal => Float::None,
                }
            };
        }
        out.push(State {
            number: e.start_number,
            place: 0,
            score: (0..played).map(|k| round_points(e, k)).sum(),
            games_played: colours.len() as u32,
            colours,
            imbalance,
            preference,
            strength,
            repeated,
            floats,
            bye_eligible,
            barred,
        });
    }
    // E.5 counts pairing numbers among the players of the tournament so far: those to be paired now and those
    // who have been paired before (a late entry not yet paired does not count, as its number is not yet
    // assigned in the list).
    let mut counted: Vec<u16> = input
        .players
        .iter()
        .filter(|e| !e.absent || e.history.iter().any(|g| g.opponent.is_some() || g.pairing_bye))
        .map(|e| e.start_number)
        .collect();
    counted.sort_unstable();
    for s in out.iter_mut() {
        s.place = counted.binary_search(&s.number).map(|k| k as u32 + 1).unwrap_or(s.number as u32);
    }
    // Pairing order (1.2): score, then pairing number.
    out.sort_by(|a, b| b.score.cmp(&a.score).then(a.number.cmp(&b.number)));
    out
}
