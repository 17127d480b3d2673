// SPDX-License-Identifier: GPL-3.0-or-later
//! Scores, the crosstable and the tie-breaks of FIDE's Tie-Break Regulations (Handbook C.07, "Play-off and
//! tie-break regulations", applied from 1 September 2023 to FIDE competitions and from 1 April 2024 to all
//! FIDE-rated competitions: <https://handbook.fide.com/chapter/TieBreakRegulations2023>; the revision applied from
//! 1 August 2024, <https://handbook.fide.com/chapter/TieBreakRegulations082024>, keeps these definitions).
//!
//! Points are 1 for a win, ½ for a draw, 0 for a loss. From the TRF codes ([`crate::trf::Code`]): `1 + W F U` are
//! worth 1 (a forfeit won, a full-point bye and the pairing-allocated bye count as a win), `= D H` ½, `0 - L Z` and
//! a blank 0.
//!
//! **Unplayed rounds (Art. 16).** A round is *played* when there was an opponent and a game result (`1 = 0 W D L`);
//! forfeits and byes are unplayed. *Voluntary unplayed rounds* (VUR, Art. 16.1) are the requested byes (`H`, `Z`,
//! blank: a half- or zero-point bye, a known absence, the rounds after a withdrawal) and forfeits lost (`-`).
//! - For the participant's own tie-breaks that add up opponents' scores (BH, SB and their modified forms), each
//!   unplayed round counts as a game against a dummy opponent whose score is the participant's own score
//!   (Art. 16.4).
//! - An opponent's score, as used by other participants, is the score they obtained, except that a requested bye
//!   that is followed only by voluntary unplayed rounds (a withdrawal, or a bye in the last round) counts as a draw
//!   (Art. 16.3). The opponent's own tie-breaks use their actual score.
//! - Cut and Median modifiers cut the contributions of voluntary unplayed rounds before any other low value
//!   (Art. 16.5).
//!
//! The order in which tie-breaks rank tied players is chosen by each tournament's regulations (Art. 4); [`compute`]
//! takes it as a list, and [`DEFAULT_ORDER`] is ours.

use std::collections::{BTreeSet, HashMap};

use crate::trf::{Code, Colour, RoundEntry, Tournament};

/// The tie-breaks, by their FIDE abbreviations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// Direct encounter (Art. 6).
    De,
    /// Number of wins, with or without playing (Art. 7.1).
    Win,
    /// Number of games won over the board (Art. 7.2).
    Won,
    /// Number of games played with Black (Art. 7.3).
    Bpg,
    /// Number of games won with Black (Art. 7.4).
    Bwg,
    /// Progressive score (Art. 7.5).
    Ps,
    /// Buchholz (Art. 8.1).
    Bh,
    /// Buchholz cut 1 (Art. 8.1 with the Cut-1 modifier of Art. 14.1).
    BhC1,
    /// Buchholz median 1 (Art. 8.1 with the Median-1 modifier of Art. 14.2).
    BhM1,
    /// Sonneborn-Berger (Art. 9.1).
    Sb,
    /// Average rating of opponents (Art. 10.1).
    Aro,
}

impl TieBreak {
    /// Every tie-break, in the order the standings print them.
    pub const ALL: [TieBreak; 11] = [
        TieBreak::Bh,
        TieBreak::BhC1,
        TieBreak::BhM1,
        TieBreak::Sb,
        TieBreak::De,
        TieBreak::Win,
        TieBreak::Won,
        TieBreak::Bpg,
        TieBreak::Bwg,
        TieBreak::Ps,
        TieBreak::Aro,
    ];

    /// The FIDE abbreviation.
    pub fn abbreviation(self) -> &'static str {
        match self {
            TieBreak::De => "DE",
            TieBreak::Win => "WIN",
            TieBreak::Won => "WON",
            TieBreak::Bpg => "BPG",
            TieBreak::Bwg => "BWG",
            TieBreak::Ps => "PS",
            TieBreak::Bh => "BH",
            TieBreak::BhC1 => "BH-C1",
            TieBreak::BhM1 => "BH-M1",
            TieBreak::Sb => "SB",
            TieBreak::Aro => "ARO",
        }
    }

    /// The tie-break with an abbreviation (any case).
    pub fn from_abbreviation(s: &str) -> Option<TieBreak> {
        TieBreak::ALL.into_iter().find(|t| t.abbreviation().eq_ignore_ascii_case(s.trim()))
    }
}

/// The order [`compute`] ranks by when a tournament states none: direct encounter first, then the Buchholz family
/// and Sonneborn-Berger, then the counts. It is our choice, not a FIDE rule.
pub const DEFAULT_ORDER: [TieBreak; 11] = [
    TieBreak::De,
    TieBreak::BhC1,
    TieBreak::Bh,
    TieBreak::BhM1,
    TieBreak::Sb,
    TieBreak::Win,
    TieBreak::Won,
    TieBreak::Bwg,
    TieBreak::Bpg,
    TieBreak::Ps,
    TieBreak::Aro,
];

/// The points of a result code.
pub fn points(code: Code) -> f64 {
    match code {
        Code::Win | Code::ForfeitWin | Code::WinShort | Code::FullBye | Code::PairingBye => 1.0,
        Code::Draw | Code::DrawShort | Code::HalfBye => 0.5,
        Code::Loss | Code::ForfeitLoss | Code::LossShort | Code::ZeroBye => 0.0,
    }
}

/// Whether a round was played over the board: an opponent and a game result (not a forfeit or a bye).
pub fn is_played(e: &RoundEntry) -> bool {
    e.opponent.is_some()
        && matches!(e.code, Code::Win | Code::Draw | Code::Loss | Code::WinShort | Code::DrawShort | Code::LossShort)
}

/// Whether a round is a voluntary unplayed round (Art. 16.1): a requested bye or a forfeit lost.
pub fn is_voluntary_unplayed(e: &RoundEntry) -> bool {
    is_requested_bye(e) || e.code == Code::ForfeitLoss
}

/// A requested bye: a half-point bye, a zero-point bye (a known absence) or a round left blank.
fn is_requested_bye(e: &RoundEntry) -> bool {
    e.opponent.is_none() && matches!(e.code, Code::HalfBye | Code::ZeroBye)
}

/// One cell of the crosstable.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Cell {
    pub opponent: Option<u16>,
    pub colour: Colour,
    /// The TRF result code.
    pub code: char,
    pub points: f64,
    pub played: bool,
}

/// One player's row of the crosstable: a cell for every round of the tournament.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CrossRow {
    pub start_number: u16,
    pub name: String,
    pub cells: Vec<Cell>,
    pub score: f64,
}

/// The crosstable: per player, per round played ([`Tournament::rounds_played`]: absences declared for the next
/// round are left out), opponent, colour and result. A player's line that stops early is padded with absences
/// (zero-point byes), as TRF-16 reads a blank round.
pub fn crosstable(t: &Tournament) -> Vec<CrossRow> {
    let rounds = t.rounds_played();
    t.players
        .iter()
        .map(|p| {
            let cells: Vec<Cell> = (0..rounds)
                .map(|r| {
                    let e = t.entry(p.start_number, r);
                    Cell {
                        opponent: e.opponent,
                        colour: e.colour,
                        code: e.code.as_char(),
                        points: points(e.code),
                        played: is_played(&e),
                    }
                })
                .collect();
            let score = cells.iter().map(|c| c.points).sum::<f64>() + 0.0;
            CrossRow { start_number: p.start_number, name: p.name.clone(), cells, score }
        })
        .collect()
}

/// Every tie-break of one player.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TieBreaks {
    #[serde(rename = "BH")]
    pub bh: f64,
    #[serde(rename = "BH-C1")]
    pub bh_c1: f64,
    #[serde(rename = "BH-M1")]
    pub bh_m1: f64,
    #[serde(rename = "SB")]
    pub sb: f64,
    /// Points against the players with the same score, in games played over the board; see [`Row::de_complete`].
    #[serde(rename = "DE")]
    pub de: f64,
    #[serde(rename = "WIN")]
    pub win: u32,
    #[serde(rename = "WON")]
    pub won: u32,
    #[serde(rename = "BPG")]
    pub bpg: u32,
    #[serde(rename = "BWG")]
    pub bwg: u32,
    #[serde(rename = "PS")]
    pub ps: f64,
    /// `None` when the player met no rated opponent over the board.
    #[serde(rename = "ARO")]
    pub aro: Option<u32>,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Row {
    pub start_number: u16,
    pub name: String,
    pub rating: Option<u16>,
    pub score: f64,
    /// 1 for the first; players still level after every tie-break of the order share a rank.
    pub rank: u32,
    pub tie_breaks: TieBreaks,
    /// Whether every two players with this player's score met each other (DE decides only then, Art. 6).
    pub de_complete: bool,
}

/// The data every tie-break reads.
struct Ctx<'a> {
    t: &'a Tournament,
    rounds: usize,
    score: HashMap<u16, f64>,
    adjusted: HashMap<u16, f64>,
}

impl Ctx<'_> {
    fn entries(&self, p: u16) -> Vec<RoundEntry> {
        (0..self.rounds).map(|r| self.t.entry(p, r)).collect()
    }
}

/// The score of a participant as their opponents' tie-breaks read it (Art. 16.3): the points they obtained, except
/// that a requested bye followed only by voluntary unplayed rounds counts as a draw.
pub fn adjusted_score(entries: &[RoundEntry]) -> f64 {
    entries
        .iter()
        .enumerate()
        .map(|(r, e)| {
            if is_requested_bye(e) && entries[r + 1..].iter().all(is_voluntary_unplayed) { 0.5 } else { points(e.code) }
        })
        .sum::<f64>()
        + 0.0
}

/// A value a tie-break adds up, and whether it comes from a voluntary unplayed round.
#[derive(Debug, Clone, Copy)]
struct Contribution {
    value: f64,
    vur: bool,
}

/// The sum of `values` without the `low` lowest (voluntary unplayed rounds first, Art. 16.5) and then the `high`
/// highest of what is left (Art. 14.1 Cut, 14.2 Median).
fn cut_sum(values: &[Contribution], low: usize, high: usize) -> f64 {
    let mut v = values.to_vec();
    // Lowest first, voluntary unplayed rounds before anything else.
    v.sort_by(|a, b| b.vur.cmp(&a.vur).then(a.value.total_cmp(&b.value)));
    let rest = &mut v[low.min(values.len())..];
    rest.sort_by(|a, b| a.value.total_cmp(&b.value));
    let keep = rest.len().saturating_sub(high);
    rest[..keep].iter().map(|c| c.value).sum::<f64>() + 0.0
}

fn buchholz_contributions(c: &Ctx<'_>, p: u16) -> Vec<Contribution> {
    let own = c.score[&p];
    c.entries(p)
        .iter()
        .map(|e| match e.opponent {
            Some(o) if is_played(e) => Contribution { value: c.adjusted[&o], vur: false },
            _ => Contribution { value: own, vur: is_voluntary_unplayed(e) },
        })
        .collect()
}

fn sonneborn_berger(c: &Ctx<'_>, p: u16) -> f64 {
    let own = c.score[&p];
    c.entries(p)
        .iter()
        .map(|e| match e.opponent {
            Some(o) if is_played(e) => c.adjusted[&o] * points(e.code),
            _ => own * points(e.code),
        })
        .sum::<f64>()
        + 0.0
}

/// Points of `p` in games played over the board against the other players of `group` (Art. 6.1): forfeits do not
/// count (6.1.1, in a Swiss tournament), and two players who met more than once count the average of their games
/// (6.1.2).
fn direct_encounter(c: &Ctx<'_>, p: u16, group: &BTreeSet<u16>) -> f64 {
    let entries = c.entries(p);
    group
        .iter()
        .filter(|&&o| o != p)
        .map(|&o| {
            let games: Vec<f64> =
                entries.iter().filter(|e| e.opponent == Some(o) && is_played(e)).map(|e| points(e.code)).collect();
            if games.is_empty() { 0.0 } else { games.iter().sum::<f64>() / games.len() as f64 }
        })
        .sum::<f64>()
        + 0.0
}

/// Rows in order of `keys` (highest first, then by starting rank), split where the key changes.
fn split_by_keys(block: Vec<Row>, keys: Vec<f64>) -> Vec<Vec<Row>> {
    let mut keyed: Vec<(f64, Row)> = keys.into_iter().zip(block).collect();
    keyed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.start_number.cmp(&b.1.start_number)));
    let mut sub: Vec<Vec<Row>> = Vec::new();
    let mut last = f64::NAN;
    for (k, r) in keyed {
        match sub.last_mut() {
            Some(b) if k == last => b.push(r),
            _ => sub.push(vec![r]),
        }
        last = k;
    }
    sub
}

/// Splits a group of tied players by direct encounter (Art. 6): if they all met (6.1), by their points against each
/// other; players still level are split again by their encounters among themselves (6.2). If they did not all
/// meet (6.3), a player is ranked above the rest only when no result of the games they did not play could change
/// it: their points in the group are more than any other's points plus one for each player of the group that other
/// has not played over the board; then the same for the rest, until no player is certain.
fn direct_encounter_split(c: &Ctx<'_>, block: Vec<Row>) -> Vec<Vec<Row>> {
    let group: BTreeSet<u16> = block.iter().map(|r| r.start_number).collect();
    if block.len() < 2 {
        return vec![block];
    }
    if !all_met(c, &group) {
        return certain_order(c, block);
    }
    let keys = block.iter().map(|r| direct_encounter(c, r.start_number, &group)).collect();
    let tiers = split_by_keys(block, keys);
    if tiers.len() == 1 {
        return tiers;
    }
    tiers.into_iter().flat_map(|t| direct_encounter_split(c, t)).collect()
}

/// Art. 6.3: the players of a group not all of whom met, ranked one at a time while one is certainly ahead.
fn certain_order(c: &Ctx<'_>, block: Vec<Row>) -> Vec<Vec<Row>> {
    let mut rest = block;
    let mut tiers = Vec::new();
    while rest.len() > 1 {
        let group: BTreeSet<u16> = rest.iter().map(|r| r.start_number).collect();
        let points: Vec<f64> = rest.iter().map(|r| direct_encounter(c, r.start_number, &group)).collect();
        // The most each could still gain: a point for every player of the group not met over the board.
        let open: Vec<f64> = rest.iter().map(|r| unplayed_in(c, r.start_number, &group) as f64).collect();
        let first = (0..rest.len()).find(|&i| (0..rest.len()).all(|j| j == i || points[i] > points[j] + open[j]));
        let Some(i) = first else { break };
        tiers.push(vec![rest.remove(i)]);
    }
    if !rest.is_empty() {
        tiers.push(rest);
    }
    tiers
}

/// How many players of `group` (other than `p`) `p` has not played over the board.
fn unplayed_in(c: &Ctx<'_>, p: u16, group: &BTreeSet<u16>) -> usize {
    let played: BTreeSet<u16> = c.entries(p).iter().filter(|e| is_played(e)).filter_map(|e| e.opponent).collect();
    group.iter().filter(|&&o| o != p && !played.contains(&o)).count()
}

/// Whether every two players of `group` met (a round with each other, forfeits included).
fn all_met(c: &Ctx<'_>, group: &BTreeSet<u16>) -> bool {
    group.iter().all(|&p| {
        let met: BTreeSet<u16> = c.entries(p).iter().filter_map(|e| e.opponent).collect();
        group.iter().all(|q| *q == p || met.contains(q))
    })
}

// Sums below add `+ 0.0`: a float sum of nothing is -0.0, which would print as "-0".

fn round_half_up(x: f64) -> u32 {
    (x + 0.5).floor() as u32
}

fn counts(entries: &[RoundEntry]) -> (u32, u32, u32, u32, f64) {
    let mut win = 0;
    let mut won = 0;
    let mut bpg = 0;
    let mut bwg = 0;
    let mut running = 0.0;
    let mut ps = 0.0;
    for e in entries {
        let won_board = is_played(e) && matches!(e.code, Code::Win | Code::WinShort);
        if points(e.code) == 1.0 {
            win += 1; // Art. 7.1: as many points as a win, with or without playing
        }
        if won_board {
            won += 1; // Art. 7.2
        }
        if is_played(e) && e.colour == Colour::Black {
            bpg += 1; // Art. 7.3
            if won_board {
                bwg += 1; // Art. 7.4
            }
        }
        running += points(e.code);
        ps += running; // Art. 7.5: the running score after each round, added up
    }
    (win, won, bpg, bwg, ps)
}

fn average_rating(c: &Ctx<'_>, p: u16) -> Option<u32> {
    let ratings: Vec<u32> = c
        .entries(p)
        .iter()
        .filter(|e| is_played(e))
        .filter_map(|e| c.t.player(e.opponent?)?.rating)
        .filter(|&r| r > 0)
        .map(u32::from)
        .collect();
    if ratings.is_empty() {
        return None;
    }
    Some(round_half_up(ratings.iter().sum::<u32>() as f64 / ratings.len() as f64))
}

/// The standings of a tournament after the rounds played ([`Tournament::rounds_played`]; absences declared for
/// the next round do not count): every player's score and tie-breaks, ranked by score and then by `order` (for
/// direct encounter, among the players still level when it is reached). Rows are in rank order, players sharing a
/// rank by starting rank.
pub fn compute(t: &Tournament, order: &[TieBreak]) -> Vec<Row> {
    let rounds = t.rounds_played();
    let mut score = HashMap::new();
    let mut adjusted = HashMap::new();
    for p in &t.players {
        let es: Vec<RoundEntry> = (0..rounds).map(|r| t.entry(p.start_number, r)).collect();
        score.insert(p.start_number, es.iter().map(|e| points(e.code)).sum::<f64>() + 0.0);
        adjusted.insert(p.start_number, adjusted_score(&es));
    }
    let c = Ctx { t, rounds, score, adjusted };

    // Score groups, for the DE value each row shows.
    let mut groups: HashMap<u64, BTreeSet<u16>> = HashMap::new();
    for p in &t.players {
        groups.entry(c.score[&p.start_number].to_bits()).or_default().insert(p.start_number);
    }

    let mut rows: Vec<Row> = t
        .players
        .iter()
        .map(|p| {
            let s = p.start_number;
            let bh = buchholz_contributions(&c, s);
            let (win, won, bpg, bwg, ps) = counts(&c.entries(s));
            let group = &groups[&c.score[&s].to_bits()];
            Row {
                start_number: s,
                name: p.name.clone(),
                rating: p.rating,
                score: c.score[&s],
                rank: 0,
                tie_breaks: TieBreaks {
                    bh: cut_sum(&bh, 0, 0),
                    bh_c1: cut_sum(&bh, 1, 0),
                    bh_m1: cut_sum(&bh, 1, 1),
                    sb: sonneborn_berger(&c, s),
                    de: direct_encounter(&c, s, group),
                    win,
                    won,
                    bpg,
                    bwg,
                    ps,
                    aro: average_rating(&c, s),
                },
                de_complete: all_met(&c, group),
            }
        })
        .collect();

    // Rank: split groups of equal keys, one tie-break after another.
    rows.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.start_number.cmp(&b.start_number)));
    let mut blocks: Vec<Vec<Row>> = Vec::new();
    for r in rows {
        match blocks.last_mut() {
            Some(b) if b[0].score == r.score => b.push(r),
            _ => blocks.push(vec![r]),
        }
    }
    for &tb in order {
        let mut next = Vec::new();
        for block in blocks {
            if block.len() == 1 {
                next.push(block);
                continue;
            }
            let sub = if tb == TieBreak::De {
                direct_encounter_split(&c, block)
            } else {
                let keys = block.iter().map(|r| value(&r.tie_breaks, tb)).collect();
                split_by_keys(block, keys)
            };
            next.extend(sub);
        }
        blocks = next;
    }
    let mut out = Vec::new();
    let mut ahead = 0u32;
    for block in blocks {
        let n = block.len() as u32;
        for mut r in block {
            r.rank = ahead + 1;
            out.push(r);
        }
        ahead += n;
    }
    out
}

/// A tie-break's value as a number to rank by (higher ranks first); an ARO of nobody counts as 0.
pub fn value(tb: &TieBreaks, which: TieBreak) -> f64 {
    match which {
        TieBreak::Bh => tb.bh,
        TieBreak::BhC1 => tb.bh_c1,
        TieBreak::BhM1 => tb.bh_m1,
        TieBreak::Sb => tb.sb,
        TieBreak::De => tb.de,
        TieBreak::Win => f64::from(tb.win),
        TieBreak::Won => f64::from(tb.won),
        TieBreak::Bpg => f64::from(tb.bpg),
        TieBreak::Bwg => f64::from(tb.bwg),
        TieBreak::Ps => tb.ps,
        TieBreak::Aro => f64::from(tb.aro.unwrap_or(0)),
    }
}
