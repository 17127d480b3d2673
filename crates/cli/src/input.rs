//! Reading what the command line gives: positions, and input files read with a byte progress bar.

use std::io::{self, Read};

use guoxiang_core::{CastlingMode, Position, Validation};
use indicatif::ProgressBar;

/// Reads a FEN (`startpos` is accepted too). Strict unless `relaxed`, so that typos are caught; perft suites
/// need relaxed mode for their impossible-but-playable positions.
pub fn position(fen: &str, relaxed: bool) -> Result<Position, String> {
    let validation = if relaxed { Validation::Relaxed } else { Validation::Strict };
    if fen.trim() == "startpos" {
        return Ok(Position::new());
    }
    Position::from_fen_with(fen, CastlingMode::Auto, validation).map_err(|e| format!("invalid FEN: {e}"))
}

/// A reader that counts the bytes read so far on a progress bar.
pub struct Counted<R> {
    inner: R,
    bar: ProgressBar,
}

impl<R> Counted<R> {
    pub fn new(inner: R, bar: ProgressBar) -> Counted<R> {
        Counted { inner, bar }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        Ok(n)
    }
}
