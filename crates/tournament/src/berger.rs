// SPDX-License-Identifier: GPL-3.0-or-later
//! FIDE's Berger tables (Handbook C.05, General Regulations for Competitions, Annex 1 "Berger Tables for
//! Round-Robin Tournaments").
//!
//! Players are numbered 1..=n by their pairing numbers. For an odd number of players the table for n + 1 is used
//! and the number n + 1 stands for the bye (Annex 1: "the highest number counts as a bye"). Each round is a list of
//! boards in the order FIDE prints them, each board `(white, black)`.
//!
//! How the table is built (our own formulation, checked against FIDE's printed tables in the tests): for an even n,
//! round k (counting from 0) takes the players 1..=n-1 in the cyclic order that starts at `k * n/2 + 1` (modulo
//! n-1); the first of them meets player n on board 1, and on every other board i the i-th of them (white) meets the
//! i-th from the end (black). Player n has black in odd rounds (1, 3, 5, ...) and white in even ones.

use std::fmt;

/// A board: the pairing numbers of White and Black.
pub type Board = (u32, u32);

/// The largest number of players a table is built for: 1000 players already make 999 rounds of 500 boards.
pub const MAX_PLAYERS: u32 = 1000;

/// Why no table could be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BergerError {
    /// Fewer than two players.
    TooFewPlayers(u32),
    /// More than [`MAX_PLAYERS`].
    TooManyPlayers(u32),
}

impl fmt::Display for BergerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BergerError::TooFewPlayers(n) => write!(f, "a round-robin needs at least 2 players, not {n}"),
            BergerError::TooManyPlayers(n) => {
                write!(f, "{n} players is more than the {MAX_PLAYERS} a Berger table is built for")
            }
        }
    }
}

impl std::error::Error for BergerError {}

/// The number of rounds of a single round-robin of `players` players: n - 1 for an even n, n for an odd n (every
/// player has one bye).
pub fn rounds(players: u32) -> u32 {
    let even = players + players % 2;
    even.saturating_sub(1)
}

/// FIDE's Berger table for a single round-robin of `players` players: one entry per round, each the boards of that
/// round in FIDE's order. For an odd `players`, the boards with the number `players + 1` are the byes (they are
/// kept, so that the board order is FIDE's: callers drop them when they pair).
pub fn single(players: u32) -> Result<Vec<Vec<Board>>, BergerError> {
    if players < 2 {
        return Err(BergerError::TooFewPlayers(players));
    }
    if players > MAX_PLAYERS {
        return Err(BergerError::TooManyPlayers(players));
    }
    let n = players + players % 2;
    let m = n - 1; // the players who rotate: 1..=m
    let half = n / 2;
    let mut table = Vec::with_capacity(m as usize);
    for k in 0..m {
        let start = (k * half) % m;
        // The players 1..=m in cyclic order from `start + 1`.
        let order: Vec<u32> = (0..m).map(|j| (start + j) % m + 1).collect();
        let mut boards = Vec::with_capacity(half as usize);
        // Board 1: the first of them against player n; n is Black in rounds 1, 3, 5, ... (k even).
        if k % 2 == 0 {
            boards.push((order[0], n))
        } else {
            boards.push((n, order[0]))
        }
        for i in 1..half as usize {
            boards.push((order[i], order[m as usize - i]));
        }
        table.push(boards);
    }
    Ok(table)
}

/// FIDE's table for a double round-robin: two cycles, the second with every game's colours reversed.
///
/// The order of the rounds follows the recommendation printed with the Berger tables in C.05 Annex 1: in a double
/// round-robin the last two rounds of the first cycle are exchanged, so that no player has the same colour three
/// times in a row across the two cycles; the second cycle is the table in its own order with colours reversed. For
/// 3 or 4 players (three rounds a cycle) that is rounds 1, 3, 2 and then 1', 2', 3'.
pub fn double(players: u32) -> Result<Vec<Vec<Board>>, BergerError> {
    let first = single(players)?;
    let mut cycle1 = first.clone();
    let len = cycle1.len();
    if len >= 2 {
        cycle1.swap(len - 2, len - 1);
    }
    let cycle2 = first.into_iter().map(|round| round.into_iter().map(|(w, b)| (b, w)).collect::<Vec<_>>());
    cycle1.extend(cycle2);
    Ok(cycle1)
}

/// A round's boards without the byes of an odd-sized table (boards with the number `players + 1`), and the player
/// who has the bye, if any.
pub fn without_bye(round: &[Board], players: u32) -> (Vec<Board>, Option<u32>) {
    let mut bye = None;
    let mut boards = Vec::with_capacity(round.len());
    for &(w, b) in round {
        if w > players {
            bye = Some(b);
        } else if b > players {
            bye = Some(w);
        } else {
            boards.push((w, b));
        }
    }
    (boards, bye)
}
