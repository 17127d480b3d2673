//! `guoxiang puzzles import FILE.csv [--database URL]`: loads a lichess CSV of puzzles into the server's database.
//!
//! Streaming with constant memory: one thread reads rows and runs our tagger on them, handing batches of
//! [`IMPORT_BATCH`] rows over a channel that holds at most two; the database writes each batch in one transaction
//! (`Store::upsert_puzzles`, idempotent: a second import of the same file changes nothing). A broken row is reported
//! on standard error with its line number and skipped. The progress bar (bytes of the file) is drawn on a terminal
//! only; the summary line always goes to standard error. Exit code 1 when some row was broken.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use guoxiang_server::puzzle::import::{IMPORT_BATCH, row_of, source_of};
use guoxiang_store::{PuzzleRow, Store, UpsertCounts};
use guoxiang_tactics::Reader;
use indicatif::{ProgressBar, ProgressStyle};

/// What the reading thread sends: a batch of rows, and the file's bytes read so far.
type Batch = (Vec<PuzzleRow>, u64);

/// Reads and tags the file, sending batches; returns (rows read, broken rows).
fn read_rows(file: File, bar: &ProgressBar, tx: &tokio::sync::mpsc::Sender<Batch>) -> (u64, u64) {
    let mut reader = Reader::new(BufReader::with_capacity(1 << 16, file));
    let (mut read, mut broken) = (0u64, 0u64);
    let mut batch = Vec::with_capacity(IMPORT_BATCH);
    while let Some(r) = reader.next() {
        read += 1;
        match r {
            Ok(p) => batch.push(row_of(&p, source_of(&p))),
            Err(e) => {
                broken += 1;
                bar.suspend(|| eprintln!("{e}"));
            }
        }
        if batch.len() >= IMPORT_BATCH {
            let full = std::mem::replace(&mut batch, Vec::with_capacity(IMPORT_BATCH));
            if tx.blocking_send((full, reader.bytes_read())).is_err() {
                return (read, broken); // the writer failed and said why
            }
        }
    }
    if !batch.is_empty() {
        let _ = tx.blocking_send((batch, reader.bytes_read()));
    }
    (read, broken)
}

pub fn run(file: &Path, database: &str) -> Result<ExitCode, String> {
    let f = File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    // indicatif draws only when standard error is a terminal.
    let bar = ProgressBar::new(len).with_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Batch>(2);
    let reader_bar = bar.clone();
    let reading = std::thread::spawn(move || read_rows(f, &reader_bar, &tx));
    let writer_bar = bar.clone();
    // `move`: a failed write drops the receiver, which stops the reading thread.
    let written = crate::cmd::serve::runtime()?.block_on(async move {
        let store = Store::connect(database).await.map_err(|e| format!("database {database}: {e}"))?;
        let mut counts = UpsertCounts::default();
        while let Some((rows, bytes)) = rx.recv().await {
            counts += store.upsert_puzzles(&rows).await.map_err(|e| format!("database {database}: {e}"))?;
            writer_bar.set_position(bytes);
            writer_bar.set_message(format!("{} new, {} updated", counts.inserted, counts.updated));
        }
        store.close().await;
        Ok::<_, String>(counts)
    });
    let (read, broken) = reading.join().map_err(|_| "the reading thread panicked".to_string())?;
    let counts = written?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{read} rows read: {} imported, {} updated, {} unchanged, {broken} broken; {:.1} s, {:.0} rows/s",
        counts.inserted,
        counts.updated,
        counts.unchanged,
        secs,
        read as f64 / secs.max(1e-9)
    );
    Ok(if broken > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    const HEAD: &str = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n";
    const ROWS: &str = "\
00008,r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24,f2g3 e6e7 b2b1 b3c1 b1c1 h6c1,1784,77,95,9822,crushing hangingPiece long middlegame,https://lichess.org/787zsVup/black#48,
0008Q,8/4R3/1p2P3/p4r2/P6p/1P3Pk1/4K3/8 w - - 1 64,e7f7 f5e5 e2f1 e5e6,1383,81,92,766,advantage endgame rookEndgame short,https://lichess.org/MQSyb3KW#127,
broken,8/8/8/8/8/8/8/8 w - - 0 1,e2e4 e7e5,1500,80,90,10,,,
0a1b2c3d4e5f,6k1/3r1ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1,d7d8 d1d8,,,,,,,
";

    /// Every stored puzzle, by id, as JSON, and its hash.
    fn content(db: &str, ids: &[&str]) -> (String, u64, i64) {
        crate::cmd::serve::runtime().unwrap().block_on(async {
            let store = Store::connect(db).await.unwrap();
            let mut all = Vec::new();
            for id in ids {
                all.push(store.puzzle(id).await.unwrap());
            }
            let text = serde_json::to_string(&all).unwrap();
            let count = store.puzzle_count().await.unwrap();
            store.close().await;
            let mut h = DefaultHasher::new();
            text.hash(&mut h);
            (text, h.finish(), count)
        })
    }

    #[test]
    fn importing_twice_changes_nothing() {
        let dir = std::env::temp_dir().join(format!("guoxiang-import-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let csv = dir.join("p.csv");
        std::fs::write(&csv, format!("{HEAD}{ROWS}")).unwrap();
        let db = format!("sqlite://{}", dir.join("p.db").display());
        // The broken row (no kings) is reported and skipped: exit code 1, the others imported.
        assert_eq!(run(&csv, &db).unwrap(), ExitCode::from(1));
        let ids = ["00008", "0008Q", "0a1b2c3d4e5f", "broken"];
        let (first, sum, count) = content(&db, &ids);
        assert_eq!(count, 3);
        assert!(first.contains("\"source\":\"lichess\"") && first.contains("\"source\":\"guoxiang\""), "{first}");
        assert!(first.ends_with(",null]"), "the broken row is not stored");
        run(&csv, &db).unwrap();
        let (second, sum2, count2) = content(&db, &ids);
        assert_eq!((second.as_str(), sum2, count2), (first.as_str(), sum, count));
        assert!(run(&dir.join("missing.csv"), &db).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
