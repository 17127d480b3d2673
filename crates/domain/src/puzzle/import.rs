//! Puzzles into the database: a lichess CSV row as stored ([`row_of`]: our tagger's motifs, the starting rating),
//! and the default set (`puzzles/default.csv`, compiled in) imported when the table is empty
//! ([`import_default_if_empty`]); the CLI's `guoxiang puzzles import` loads more with the same rows.

use guoxiang_ratings::puzzle::puzzle_start;
use guoxiang_store::{MotifTag, PuzzleGlicko, PuzzleRow, Store, UpsertCounts};
use guoxiang_tactics::{Puzzle, Reader};

use super::error::PuzzleError;

include!(concat!(env!("OUT_DIR"), "/default_puzzles.rs"));

/// Rows per transaction when importing.
pub const IMPORT_BATCH: usize = 1000;

/// A puzzle of a lichess CSV as stored: our tagger's motifs, the rating it starts with
/// ([`puzzle_start`]), and `source` (`lichess` or `guoxiang`).
pub fn row_of(p: &Puzzle, source: &str) -> PuzzleRow {
    let start = puzzle_start(p.rating, p.deviation, p.plays);
    let motifs = guoxiang_tactics::tag::tag(p)
        .into_iter()
        .map(|t| MotifTag { id: t.motif.id().to_owned(), zh: t.text.zh, en: t.text.en })
        .collect();
    PuzzleRow {
        id: p.id.clone(),
        fen: p.fen(),
        moves: p.uci_moves(),
        glicko: PuzzleGlicko { rating: start.rating, deviation: start.deviation, volatility: start.volatility },
        plays: p.plays.unwrap_or(0).max(0),
        rounds: 0,
        popularity: p.popularity.map_or(0, i64::from),
        themes: p.themes.clone(),
        motifs,
        game_url: p.game_url.clone(),
        opening_tags: p.opening_tags.clone(),
        source: source.to_owned(),
        number: 0,
    }
}

/// The source a row is recorded with: `guoxiang` for our generator's puzzles (their ids are 12 lowercase hex
/// digits, `guoxiang_tactics::generate`), else `lichess` (whose ids are 5 letters and digits).
pub fn source_of(p: &Puzzle) -> &'static str {
    if p.id.len() == 12 && p.id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        "guoxiang"
    } else {
        "lichess"
    }
}

/// Imports the compiled-in default set when the database has no puzzle. Returns what was imported (`None`: there
/// were puzzles already). Broken rows of the set are logged and skipped.
pub async fn import_default_if_empty(store: &Store) -> Result<Option<UpsertCounts>, PuzzleError> {
    if store.has_puzzles().await? {
        return Ok(None);
    }
    let rows = tokio::task::spawn_blocking(|| {
        let mut rows = Vec::new();
        for r in Reader::new(DEFAULT_CSV.as_bytes()) {
            match r {
                Ok(p) => rows.push(row_of(&p, source_of(&p))),
                Err(e) => tracing::warn!("default puzzle set: {e}"),
            }
        }
        rows
    })
    .await
    .map_err(|e| PuzzleError::internal("default puzzles", e))?;
    let mut counts = UpsertCounts::default();
    for chunk in rows.chunks(IMPORT_BATCH) {
        counts += store.upsert_puzzles(chunk).await?;
    }
    tracing::info!("default puzzle set: {} puzzles imported", counts.inserted);
    Ok(Some(counts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_by_id() {
        let p = |id: &str| Puzzle::new(id, "6k1/3r1ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", "d7d8 d1d8").unwrap();
        assert_eq!(source_of(&p("00008")), "lichess");
        assert_eq!(source_of(&p("0a1b2c3d4e5f")), "guoxiang");
        assert_eq!(source_of(&p("0A1B2C3D4E5F")), "lichess");
    }

    #[test]
    fn the_default_set_reads() {
        let (mut ok, mut broken) = (0, 0);
        for r in Reader::new(DEFAULT_CSV.as_bytes()) {
            if r.is_ok() { ok += 1 } else { broken += 1 }
        }
        assert_eq!(broken, 0);
        assert!(DEFAULT_CSV.is_empty() || ok > 0);
    }
}
