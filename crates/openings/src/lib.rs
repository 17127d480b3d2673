//! guoxiang-openings: the name of the opening a game has reached — ECO code, English and Simplified Chinese.
//!
//! The game server writes it into the PGN tags `ECO` and `Opening`; the web UI shows it as soon as a named position
//! is reached.
//!
//! The names come from our own table, `src/openings.tsv`, written by hand for guoxiang: one line per named position
//! (ECO code, English name, Chinese name, the moves in SAN from the standard start). It is compiled into the binary
//! and read and checked once, at first use; see the comment at the top of the file for its format. The table is keyed
//! on positions, not move orders, so a game that transposes (`1. d4 Nf6 2. c4 e6 3. Nc3 Bb4` and
//! `1. c4 e6 2. Nc3 Nf6 3. d4 Bb4` alike) finds the same name.
//!
//! | item | what it is |
//! |---|---|
//! | [`Opening`] | one named position: ECO code, names, the moves that define it |
//! | [`classify`], [`classify_uci`] | the most specific opening a game has reached: the named position reached last |
//! | [`by_position`] | the opening named by exactly this position, if any |
//! | [`all`] | the whole table, in file order |
//!
//! What does not live here: opening *theory* (book moves for the engine, statistics, explorer trees), and games
//! from a non-standard start (Chess960, set-up positions), which have no opening name.

#![forbid(unsafe_code)]

mod table;

use guoxiang_core::{Lang, Move, Position};
use std::sync::OnceLock;

/// The table source, compiled in.
const SOURCE: &str = include_str!("openings.tsv");

/// The standard starting position without move counters (as [`Position::epd`] writes it).
const STANDARD_EPD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

/// A named opening position.
///
/// Names follow the pattern "Family: Variation, Subvariation" in English (`Sicilian Defence: Najdorf Variation`)
/// and the established Chinese terms in Chinese (`西西里防御纳道夫变例`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, `A00`–`E99`.
    pub eco: &'static str,
    /// The English name, for the PGN `Opening` tag and English-speaking users.
    pub name_en: &'static str,
    /// The Simplified Chinese name.
    pub name_zh: &'static str,
    /// A line from the standard start that reaches the position, in SAN with move numbers: `1. e4 c5 2. Nf3`.
    pub moves: &'static str,
    /// The number of half-moves in [`Opening::moves`].
    pub plies: usize,
    /// The position reached, as FEN without the move counters.
    epd: String,
}

impl Opening {
    /// The name in `lang`.
    pub fn name(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::Zh => self.name_zh,
            Lang::En => self.name_en,
        }
    }

    /// The position this opening names, as FEN without the move counters (placement, side to move, castling,
    /// en passant only when a capture is legal) — the identity positions are looked up by.
    pub fn epd(&self) -> &str {
        &self.epd
    }

    /// The moves of [`Opening::moves`] without move numbers: `["e4", "c5", "Nf3"]`.
    pub fn san_moves(&self) -> impl Iterator<Item = &'static str> + use<> {
        self.moves.split(' ').filter(|t| !t.ends_with('.'))
    }
}

fn table() -> &'static table::Table {
    static TABLE: OnceLock<table::Table> = OnceLock::new();
    TABLE.get_or_init(|| match table::parse(SOURCE) {
        Ok(t) => t,
        // The table is compiled in and checked by the tests, so this is a build that skipped them.
        Err(errors) => {
            let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
            panic!("the built-in opening table is invalid:\n{}", list.join("\n"))
        }
    })
}

/// Every opening in the table, in file order (grouped by ECO code).
pub fn all() -> &'static [Opening] {
    &table().openings
}

/// The opening named by exactly this position (placement, side to move, castling rights and en passant; the move
/// counters do not matter), if the table names it.
pub fn by_position(pos: &Position) -> Option<&'static Opening> {
    let t = table();
    let &i = t.index.get(&pos.hash())?;
    let opening = &t.openings[i];
    // The hash picks the candidate; comparing the position itself rules out a collision.
    (opening.epd == pos.epd()).then_some(opening)
}

/// The most specific opening a game has reached: of all the positions in the game that the table names, the one
/// reached last (so a game that leaves the table keeps the name of its last named position, and a transposition
/// counts like the main move order).
///
/// Only games from the standard starting position have an opening: from any other start this returns `None`.
/// Replay stops at the first illegal move; the positions before it still count.
pub fn classify(start: &Position, moves: &[Move]) -> Option<&'static Opening> {
    if !is_standard_start(start) {
        return None;
    }
    let mut pos = start.clone();
    let mut found = None;
    for &m in moves {
        pos = match pos.play(m) {
            Ok(next) => next,
            Err(_) => break,
        };
        if let Some(o) = by_position(&pos) {
            found = Some(o);
        }
    }
    found
}

/// Like [`classify`], for a game from the standard start given in UCI notation (`["e2e4", "c7c5", "g1f3"]`).
/// Replay stops at the first move that does not parse or is illegal.
pub fn classify_uci(moves_uci: &[&str]) -> Option<&'static Opening> {
    let mut pos = Position::new();
    let mut found = None;
    for s in moves_uci {
        let Ok(m) = pos.parse_uci(s) else { break };
        pos = match pos.play(m) {
            Ok(next) => next,
            Err(_) => break,
        };
        if let Some(o) = by_position(&pos) {
            found = Some(o);
        }
    }
    found
}

fn is_standard_start(pos: &Position) -> bool {
    pos.epd() == STANDARD_EPD
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_table_is_valid() {
        if let Err(errors) = table::parse(SOURCE) {
            let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
            panic!("{} problems:\n{}", list.len(), list.join("\n"));
        }
    }

    #[test]
    fn standard_epd_matches_the_core() {
        assert_eq!(Position::new().epd(), STANDARD_EPD);
    }

    #[test]
    fn san_moves_drop_the_numbers() {
        let o = all().iter().find(|o| o.moves == "1. e4 c5 2. Nf3 Nc6 3. Bb5").expect("Rossolimo");
        assert_eq!(o.san_moves().collect::<Vec<_>>(), ["e4", "c5", "Nf3", "Nc6", "Bb5"]);
    }
}
