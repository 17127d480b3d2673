//! Every row of the shared lichess puzzle file reads into a puzzle (skipped when ../shared/data is absent).

use std::path::PathBuf;

fn data() -> Option<PathBuf> {
    let dir = std::env::var_os("GUOXIANG_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    let f = dir.join("puzzles/lichess_puzzles_half_a.csv");
    if f.is_file() {
        Some(f)
    } else {
        eprintln!("SKIP: no {}", f.display());
        None
    }
}

#[test]
fn every_shared_puzzle_reads_and_writes_back_the_same_row() {
    let Some(path) = data() else { return };
    let file = std::fs::File::open(&path).expect("open");
    let mut n = 0;
    for row in guoxiang_tactics::Reader::new(std::io::BufReader::new(file)) {
        let p = row.unwrap_or_else(|e| panic!("{e}"));
        // The moves written back are the moves read (UCI of standard chess is unambiguous).
        assert_eq!(guoxiang_tactics::Puzzle::new(&p.id, &p.fen(), &p.uci_moves()).expect("again").moves, p.moves);
        assert!(p.rating.is_some() && !p.themes.is_empty(), "{}", p.id);
        n += 1;
    }
    assert_eq!(n, 30_102);
}
