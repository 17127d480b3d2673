// SPDX-License-Identifier: GPL-3.0-or-later
//! Tournaments for clubs and schools (issue 18), as pure functions over plain values (no I/O, no clock, no storage).
//!
//! - [`arena`]: lichess-style arena tournaments (a fixed time, continuous pairing, streaks), casual.
//! - [`berger`]: FIDE's Berger tables for round-robins, single and double (Handbook C.05, Annex 1).
//! - [`trf`]: reading and writing FIDE's Tournament Report File, TRF-16 (Handbook C.04, Annex 2), with the `XXR`
//!   extension that pairing engines read.
//! - [`standings`]: scores (1/½/0), the crosstable, and the tie-breaks of FIDE's Tie-Break Regulations (C.07).
//! - [`dutch`]: Swiss pairings by the FIDE (Dutch) System (C.04.3), as weighted matchings.
//! - [`doc`]: a tournament as the server stores it (one JSON document), the acts on it (entries, the start, pairing
//!   a round, results, withdrawals, an arena's events), its TRF-16 import and export, and what the page shows of it.

pub mod arena;
pub mod berger;
pub mod doc;
pub mod dutch;
pub mod standings;
pub mod trf;
