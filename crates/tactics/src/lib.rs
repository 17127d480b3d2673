//! guoxiang-tactics: 战术训练 — puzzles and the tactics they teach.
//!
//! | module | what lives there |
//! |---|---|
//! | `motif` | the catalogue of motifs: ids, zh/en names, the seeds' eighteen tactics, lichess theme names |
//! | `puzzle` | a puzzle, and lichess CSV read as a stream with an error per broken row, and written |
//! | `tag` | the motif tagger: a puzzle (or any forcing line) → the motifs in it, each with a sentence about the position |
//! | `check` | the puzzle checker: is every solver move the only one that keeps the win, at a stated engine budget? |
//! | `generate` | the puzzle generator: positions after a mistake in real games where a sound tactical line exists |
//!
//! No I/O lives here: callers hand over readers, writers and positions.

pub mod check;
pub mod generate;
pub mod judge;
pub mod motif;
pub mod puzzle;
pub mod tag;

pub use motif::{Info, Motif, SEED_TACTICS, SeedTactic, lichess_themes};
pub use puzzle::{COLUMNS, Puzzle, Reader, RowError, Writer};
