//! PGN read + replay: guoxiang vs pgn-reader + shakmaty (filled in once the PGN replay layer lands).
pub fn bench(_reps: usize) {}
