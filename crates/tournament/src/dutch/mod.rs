// SPDX-License-Identifier: GPL-3.0-or-later
//! Swiss pairings by the FIDE (Dutch) System, FIDE Handbook C.04.3 in the version applied from 2026 (approved
//! 13/04/2024, <https://handbook.fide.com/chapter/C0403202507>), with the basic rules of C.04.1 and the general
//! handling rules of C.04.2 (board order). [`pair`] takes the state before a round ([`Input`], or a TRF through
//! [`input_from_trf`]) and gives the round's boards and the pairing-allocated bye.
//!
//! **How the criteria become one number.** The Dutch system pairs bracket by bracket, from the top scoregroup
//! down; within a bracket it wants the candidate that best satisfies the quality criteria in their order,
//! and among equally good candidates the first in the order of transpositions and exchanges. Every
//! criterion counts pairs or players, so a pairing's quality is a list of counts compared lexicographically.
//! Each count gets its own field of bits in an edge weight, the most important criterion in the highest bits,
//! each field wide enough that no sum of less important fields can carry into it; a maximum-weight matching
//! over all players not yet paired (the bracket and everyone below) then maximises the list. Per edge, from the
//! top ([`brackets`]):
//!
//! 1. completion (C.4) and the bye (C.2, C.5): every legal edge gets 1, plus 1 for each end that may not take
//!    the bye (a player who already scored a win without playing, or whose score is above the lowest score the
//!    bye can go to), so the one player left over is allowed the bye;
//! 2. pairs made in the bracket (C.6), and per score in the bracket the pairs whose higher player has it (C.7:
//!    the downfloaters' scores as low as possible);
//! 3. pairs in the next bracket (between the bracket and the next scoregroup, and within that scoregroup),
//!    and their scores (C.8: downfloaters chosen so the next bracket can be paired well);
//! 4. the bye to the player of its scoregroup with the most games played (C.9), in the bracket whose only
//!    downfloater is the bye;
//! 5. colours, for pairs in the bracket: C.10 and C.11 (topscorers' colour difference and three in a row),
//!    C.12 (preferences), C.13 (strong preferences);
//! 6. floats of the last two rounds: C.14–C.17 (how many repeat a float), C.18–C.21 (their scores);
//! 7. low-order fields for the order of candidates: the highest MDPs paired, their opponents as high as possible, the fewest
//!    exchanges with the smallest difference of numbers, then transpositions in lexicographic order. These are
//!    settled one player at a time, each time by a new matching with a bonus on that player's edges; the
//!    quality fields above stay as they are, so a tie-break never costs quality.
//!
//! Absolute criteria (C.1 no second game between two players, forbidden pairs, C.3 no two players with the
//! same absolute colour preference except topscorers in the last round) leave the edge out. The weights need
//! more than 128 bits: [`wide`] wraps a signed fixed-width integer of the `bnum` crate for them. Colours then follow E.1–E.5 in
//! [`colours`], and the boards C.04.2's order.

mod brackets;
mod colours;
mod state;
mod wide;

use std::fmt;

use crate::trf::{self, Code, Tournament};

/// A colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// One past round of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    pub opponent: Option<u16>,
    pub colour: Option<Side>,
    /// Points scored, in half points (2 = a win).
    pub points: u32,
    /// A game played over the board (not a forfeit, not a bye).
    pub played: bool,
    /// The pairing-allocated bye.
    pub pairing_bye: bool,
}

/// A player of the tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// The pairing number.
    pub start_number: u16,
    /// The rounds played so far, one entry each (absences included).
    pub history: Vec<Game>,
    /// Not to be paired in the next round (a requested bye, a withdrawal).
    pub absent: bool,
}

/// The tournament before the round to pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub total_rounds: u32,
    /// The colour of pairing number 1 in round 1 (C.04.3 E.5); White when not known.
    pub initial_colour: Option<Side>,
    pub players: Vec<Entrant>,
    /// Pairs that must not meet (e.g. players of one family), by pairing number.
    pub forbidden: Vec<(u16, u16)>,
}

/// A board: White and Black by pairing number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Board {
    pub white: u16,
    pub black: u16,
}

/// A round's pairing: the boards in order, and the player who gets the pairing-allocated bye.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Pairing {
    pub boards: Vec<Board>,
    pub bye: Option<u16>,
}

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairingError {
    /// No pairing satisfies the absolute criteria (C.1–C.3) and completion (C.4).
    NoLegalPairing,
    /// The TRF does not say how many rounds the tournament has (`XXR`), which the topscorer rule needs.
    RoundsUnknown,
    /// Every round has been played.
    TournamentOver { rounds: u32 },
    /// A player's history is longer than the rounds played (the input is inconsistent).
    BadHistory { start_number: u16 },
    /// A bracket needs more than 4,092 bits of weight (thousands of players or scoregroups).
    TooLarge,
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::NoLegalPairing => {
                write!(f, "no pairing of the next round satisfies the absolute criteria (C.04.3 C.1-C.4)")
            }
            PairingError::RoundsUnknown => write!(f, "the number of rounds is not given (an XXR line)"),
            PairingError::TournamentOver { rounds } => write!(f, "all {rounds} rounds have been played"),
            PairingError::BadHistory { start_number } => {
                write!(f, "player {start_number} has more rounds than the tournament has played")
            }
            PairingError::TooLarge => write!(f, "the tournament is too large to pair (too many scoregroups)"),
        }
    }
}

impl std::error::Error for PairingError {}

/// Pairs the next round.
pub fn pair(input: &Input) -> Result<Pairing, PairingError> {
    let played = input.players.iter().map(|e| e.history.len()).max().unwrap_or(0);
    if played as u32 >= input.total_rounds {
        return Err(PairingError::TournamentOver { rounds: input.total_rounds });
    }
    let states = state::states(input, played);
    let last_round = played as u32 + 1 == input.total_rounds;
    // Topscorers: more than half the maximum possible score, in the last round.
    let round = brackets::Round { topscorer_above: last_round.then_some(played as u32), played };
    let (pairs, bye) = brackets::pair(&states, &round)?;
    let initial = input.initial_colour.unwrap_or(Side::White);
    let mut boards: Vec<(usize, usize, Board)> = pairs
        .into_iter()
        .map(|(x, y)| {
            // States are in pairing order, so the smaller index ranks higher.
            let (hi, lo) = if x < y { (x, y) } else { (y, x) };
            let c = colours::colour_of_higher(&states[hi], &states[lo], initial);
            let (w, b) = if c == Side::White { (hi, lo) } else { (lo, hi) };
            (hi, lo, Board { white: states[w].number, black: states[b].number })
        })
        .collect();
    // C.04.2: the higher player's score, the lower player's score, then the higher player's rank.
    boards.sort_by(|a, b| {
        states[b.0].score.cmp(&states[a.0].score).then(states[b.1].score.cmp(&states[a.1].score)).then(a.0.cmp(&b.0))
    });
    Ok(Pairing { boards: boards.into_iter().map(|b| b.2).collect(), bye: bye.map(|i| states[i].number) })
}

fn points(code: Code) -> u32 {
    match code {
        Code::Win | Code::ForfeitWin | Code::WinShort | Code::FullBye | Code::PairingBye => 2,
        Code::Draw | Code::DrawShort | Code::HalfBye => 1,
        _ => 0,
    }
}

/// Reads the state before the next round from a TRF: the rounds played are those in which someone was paired
/// (had an opponent or the pairing-allocated bye); an entry for the round after them (e.g. `0000 - H`, a
/// requested bye, or `0000 - Z`) means the player is not to be paired. `XXR` gives the number of rounds, `XXC`
/// the initial colour, `XXP` forbidden pairs — the conventions of JaVaFo and bbpPairings.
pub fn input_from_trf(t: &Tournament) -> Result<Input, PairingError> {
    let total_rounds = t.rounds.ok_or(PairingError::RoundsUnknown)?;
    let played = t.rounds_played();
    let mut players = Vec::new();
    for p in &t.players {
        if p.rounds.len() > played + 1 {
            return Err(PairingError::BadHistory { start_number: p.start_number });
        }
        let history = (0..played)
            .map(|r| {
                let e = p.rounds.get(r).copied().unwrap_or(trf::RoundEntry::ABSENT);
                let played_game = e.opponent.is_some()
                    && matches!(
                        e.code,
                        Code::Win | Code::Draw | Code::Loss | Code::WinShort | Code::DrawShort | Code::LossShort
                    );
                let colour = match e.colour {
                    trf::Colour::White => Some(Side::White),
                    trf::Colour::Black => Some(Side::Black),
                    trf::Colour::None => None,
                };
                Game {
                    opponent: e.opponent,
                    colour,
                    points: points(e.code),
                    played: played_game,
                    pairing_bye: e.code == Code::PairingBye,
                }
            })
            .collect();
        players.push(Entrant { start_number: p.start_number, history, absent: p.rounds.len() > played });
    }
    let initial_colour = t.initial_colour.map(|c| if c == trf::Colour::Black { Side::Black } else { Side::White });
    let mut forbidden = Vec::new();
    for group in &t.forbidden {
        for (i, &a) in group.iter().enumerate() {
            for &b in &group[i + 1..] {
                forbidden.push((a, b));
            }
        }
    }
    let mut input = Input { total_rounds, initial_colour, players, forbidden };
    if input.initial_colour.is_none() {
        input.initial_colour = infer_initial_colour(&input);
    }
    Ok(input)
}

/// Without `XXC`, the initial colour is read from the first round with colours: the highest pairing number to
/// have one tells it (pairing number 1's colour, or the opposite of an even number's colour).
fn infer_initial_colour(input: &Input) -> Option<Side> {
    let rounds = input.players.iter().map(|e| e.history.len()).max().unwrap_or(0);
    let mut by_number: Vec<&Entrant> = input.players.iter().collect();
    by_number.sort_by_key(|e| e.start_number);
    for r in 0..rounds {
        for (k, e) in by_number.iter().enumerate() {
            if let Some(c) = e.history.get(r).and_then(|g| g.colour) {
                return Some(if k % 2 == 0 { c } else { c.other() });
            }
        }
    }
    None
}
