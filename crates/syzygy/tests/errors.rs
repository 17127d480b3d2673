//! Bad input gives an error that says what and where, never a panic: missing tables, positions no table holds,
//! unreadable directories, and damaged copies of the fixture files (truncated, wrong magic, random bytes).

mod common;

use guoxiang_core::Position;
use guoxiang_syzygy::{ProbeError, Tablebase, Wdl};
use std::path::{Path, PathBuf};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A fresh, empty scratch directory (removed when dropped).
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("guoxiang-syzygy-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch directory");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(common::fixtures().join(name)).expect("fixture")
}

#[test]
fn missing_tables_are_named() {
    let mut tb = Tablebase::new();
    tb.add_directory(common::fixtures()).unwrap();
    // KRvKN is not among the fixtures; the name is canonical whichever colour has the rook.
    let e = tb.probe_wdl(&pos("8/8/3k4/8/8/3K4/3R4/4n3 w - - 0 1")).unwrap_err();
    assert_eq!(e, ProbeError::MissingTable { name: "KRvKN.rtbw".to_string() });
    let e = tb.probe_wdl(&pos("8/8/3k4/8/8/3K4/3r4/4N3 w - - 0 1")).unwrap_err();
    assert_eq!(e, ProbeError::MissingTable { name: "KRvKN.rtbw".to_string() });
    assert!(e.to_string().contains("KRvKN.rtbw"), "{e}");
    // KBNvK has its WDL file only.
    let p = pos("8/8/2Bk4/6N1/8/8/8/7K w - - 0 1");
    assert_eq!(tb.probe_wdl(&p), Ok(Wdl::Win));
    assert_eq!(tb.probe_dtz(&p), Err(ProbeError::MissingTable { name: "KBNvK.rtbz".to_string() }));
}

#[test]
fn captures_need_the_smaller_tables() {
    // Only KRvKB: a position where the rook can take the bishop needs KRvK too.
    let dir = Scratch::new("captures");
    std::fs::write(dir.0.join("KRvKB.rtbw"), fixture("KRvKB.rtbw")).unwrap();
    let mut tb = Tablebase::new();
    assert_eq!(tb.add_directory(&dir.0), Ok(1));
    assert_eq!(tb.max_pieces(), 4);
    let e = tb.probe_wdl(&pos("8/8/3k4/8/8/3K4/3R4/3b4 w - - 0 1")).unwrap_err();
    assert_eq!(e, ProbeError::MissingTable { name: "KRvK.rtbw".to_string() });
    // Black to move cannot capture anything there: no other table is needed.
    assert!(tb.probe_wdl(&pos("8/8/3k4/8/8/3K4/3R4/7b b - - 0 1")).is_ok());
}

#[test]
fn positions_no_table_holds() {
    let mut tb = Tablebase::new();
    tb.add_directory(common::fixtures()).unwrap();
    let castling = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(tb.probe_wdl(&castling), Err(ProbeError::Castling));
    assert_eq!(tb.probe_dtz(&castling), Err(ProbeError::Castling));
    assert_eq!(tb.root_moves(&castling), Err(ProbeError::Castling));
    let start = Position::new();
    assert_eq!(tb.probe_wdl(&start), Err(ProbeError::TooManyPieces));
    let eight = pos("4k3/pppp4/8/8/8/8/PP6/4K3 w - - 0 1");
    assert_eq!(tb.probe_dtz(&eight), Err(ProbeError::TooManyPieces));
    assert_eq!(tb.best_move(&eight), Err(ProbeError::TooManyPieces));
}

#[test]
fn directories() {
    let mut tb = Tablebase::new();
    let e = tb.add_directory("/nonexistent/guoxiang-syzygy").unwrap_err();
    assert!(matches!(&e, ProbeError::Io { path, .. } if path.contains("nonexistent")), "{e:?}");
    assert!(tb.add_paths("/nonexistent/guoxiang-syzygy").is_err());

    // Files that are not canonical table names are ignored; both directories of a path list are read.
    let a = Scratch::new("dir-a");
    let b = Scratch::new("dir-b");
    std::fs::write(a.0.join("KQvK.rtbw"), fixture("KQvK.rtbw")).unwrap();
    std::fs::write(a.0.join("KQvK.rtbz"), fixture("KQvK.rtbz")).unwrap();
    std::fs::write(a.0.join("KvKQ.rtbw"), fixture("KQvK.rtbw")).unwrap();
    std::fs::write(a.0.join("README.txt"), "not a table").unwrap();
    std::fs::write(b.0.join("KRvK.rtbw"), fixture("KRvK.rtbw")).unwrap();
    let list = std::env::join_paths([&a.0, &b.0]).unwrap();
    let mut tb = Tablebase::new();
    assert_eq!(tb.add_paths(list.to_str().unwrap()), Ok(2));
    assert_eq!(tb.max_pieces(), 3);
    assert_eq!(tb.probe_wdl(&pos("8/8/8/2k5/8/8/6Q1/7K w - - 0 1")), Ok(Wdl::Win));
    assert_eq!(tb.probe_wdl(&pos("8/K7/8/8/3k4/2R5/8/8 w - - 0 1")), Ok(Wdl::Win));
    let empty_entries = format!("{}{sep}{sep}", a.0.display(), sep = if cfg!(windows) { ';' } else { ':' });
    assert_eq!(Tablebase::new().add_paths(&empty_entries), Ok(1));
}

/// Probes a damaged copy of fixture `file` (with every other fixture available) on some positions of its table;
/// returns the errors. Must not panic.
fn probe_damaged(dir: &Path, file: &str, bytes: &[u8], positions: &[Position]) -> Vec<ProbeError> {
    let path = dir.join(file);
    std::fs::write(&path, bytes).unwrap();
    let mut tb = Tablebase::new();
    tb.add_directory(common::fixtures()).unwrap();
    tb.add_directory(dir).unwrap();
    let mut errors = Vec::new();
    for p in positions {
        if let Err(e) = tb.probe_wdl(p) {
            errors.push(e);
        }
        if let Err(e) = tb.probe_dtz(p) {
            errors.push(e);
        }
    }
    drop(tb);
    std::fs::remove_file(&path).unwrap();
    errors
}

#[test]
fn truncated_and_foreign_files() {
    let dir = Scratch::new("truncated");
    let positions = common::random_positions("KRvK", 20, 3, false);
    let good = fixture("KRvK.rtbw");
    let corrupt = |errors: &[ProbeError], needle: &str| {
        assert!(!errors.is_empty(), "expected errors");
        for e in errors {
            match e {
                ProbeError::Corrupt { file, what } => {
                    assert_eq!(file, "KRvK.rtbw");
                    assert!(what.contains(needle), "{what}");
                }
                other => panic!("{other:?}"),
            }
        }
    };
    // Empty, cut anywhere, or cut to a plausible length.
    corrupt(&probe_damaged(&dir.0, "KRvK.rtbw", &[], &positions), "size");
    corrupt(&probe_damaged(&dir.0, "KRvK.rtbw", &good[..good.len() / 2], &positions), "size");
    corrupt(&probe_damaged(&dir.0, "KRvK.rtbw", &good[..80], &positions), "beyond the end");
    corrupt(&probe_damaged(&dir.0, "KRvK.rtbw", &good[..16], &positions), "beyond the end");
    // A DTZ file under a WDL name.
    let mut dtz = fixture("KRvK.rtbz");
    dtz.truncate(dtz.len() - (dtz.len() % 64) + 16);
    corrupt(&probe_damaged(&dir.0, "KRvK.rtbw", &dtz, &positions), "magic number");
    // Wrong magic.
    let mut bad = good.clone();
    bad[0] ^= 0xff;
    corrupt(&probe_damaged(&dir.0, "KRvK.rtbw", &bad, &positions), "magic number");
    // Another table's file under this name: the header's pieces do not match.
    let mut other = fixture("KQvK.rtbw");
    other.resize(good.len().max(other.len()), 0);
    if other.len() % 64 != 16 {
        other.resize(other.len() + (80 - other.len() % 64) % 64, 0);
    }
    corrupt(&probe_damaged(&dir.0, "KRvK.rtbw", &other, &positions), "piece");
}

#[test]
fn random_damage_never_panics() {
    let dir = Scratch::new("damage");
    let mut rng = common::Rng::new(2024);
    let cases = [
        ("KRvK.rtbw", "KRvK"),
        ("KRvK.rtbz", "KRvK"),
        ("KPvKP.rtbw", "KPvKP"),
        ("KPvKP.rtbz", "KPvKP"),
        ("KNNvK.rtbz", "KNNvK"),
        ("KBNvK.rtbw", "KBNvK"),
        ("KQPvK.rtbz", "KQPvK"),
        ("KRvKB.rtbw", "KRvKB"),
    ];
    let mut errors = 0;
    let mut rounds = 0;
    for (file, table) in cases {
        let good = fixture(file);
        let positions = common::random_positions(table, 12, 9, true);
        for round in 0..60 {
            let mut bytes = good.clone();
            let flips = 1 + rng.below(8) as usize;
            for _ in 0..flips {
                // Mostly the header and stream descriptions, sometimes anywhere.
                let span = if round % 3 == 0 { bytes.len() } else { bytes.len().min(160) };
                let at = rng.below(span as u64) as usize;
                bytes[at] = rng.below(256) as u8;
            }
            let found = probe_damaged(&dir.0, file, &bytes, &positions);
            for e in &found {
                assert!(
                    matches!(e, ProbeError::Corrupt { .. } | ProbeError::MissingTable { .. }),
                    "{file}: unexpected {e:?}"
                );
                if let ProbeError::Corrupt { file: f, what } = e {
                    assert!(f.ends_with(".rtbw") || f.ends_with(".rtbz"), "{f}");
                    assert!(!what.is_empty());
                }
            }
            errors += usize::from(!found.is_empty());
            rounds += 1;
        }
    }
    println!("{rounds} damaged files probed, {errors} reported an error, none panicked");
    assert!(errors > rounds / 4, "damage should mostly be noticed ({errors} of {rounds})");
}

#[test]
fn shared_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Tablebase>();
    let mut tb = Tablebase::new();
    tb.add_directory(common::fixtures()).unwrap();
    let positions = common::random_positions("KRPvK", 200, 4, false);
    // Several threads race to open the same files; all must agree with a single-threaded run.
    let expected: Vec<_> = {
        let mut solo = Tablebase::new();
        solo.add_directory(common::fixtures()).unwrap();
        positions.iter().map(|p| (solo.probe_wdl(p), solo.probe_dtz(p))).collect()
    };
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for (p, want) in positions.iter().zip(&expected) {
                    assert_eq!(&(tb.probe_wdl(p), tb.probe_dtz(p)), want);
                }
            });
        }
    });
}
