//! The test book apart from the training openings (issue 44), on the real books when they are here: datagen's book
//! `../shared/data/books/noob_3moves.epd` and the public `8moves_v3.pgn` that `tools/test_book.sh` fetches into
//! `target/books/`. Skipped, with a message, when either is absent (a fresh clone has no network to fetch it).

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Command;

use guoxiang_core::Position;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn positions(path: &PathBuf) -> Vec<Position> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            Position::from_fen(&format!("{} 0 1", f[..4].join(" "))).unwrap_or_else(|e| panic!("{l}: {e}"))
        })
        .collect()
}

#[test]
fn the_test_book_shares_no_position_with_the_training_openings() {
    let train = root().join("../shared/data/books/noob_3moves.epd");
    let lines = root().join("target/books/8moves_v3.pgn");
    for p in [&train, &lines] {
        if !p.exists() {
            eprintln!("skipped: {} is absent (tools/test_book.sh fetches the test book's lines)", p.display());
            return;
        }
    }
    let out = std::env::temp_dir().join(format!("gx-testbook-{}.epd", std::process::id()));
    let run = Command::new(env!("CARGO_BIN_EXE_guoxiang-tune"))
        .args(["testbook", "--train"])
        .arg(&train)
        .arg("--lines")
        .arg(&lines)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("guoxiang-tune runs");
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{said}");
    assert!(said.contains("34700 lines read, 2349 kept"), "{said}");
    let test = positions(&out);
    let _ = std::fs::remove_file(&out);
    assert_eq!(test.len(), 2349);
    // Enough openings for the 400 games, each played with both colours.
    let distinct: HashSet<u64> = test.iter().map(Position::hash).collect();
    assert!(distinct.len() >= 200, "{} distinct openings", distinct.len());
    // No opening the match starts from is a training position, nor one position datagen's first random ply
    // makes of one (the second ply is the module's own test).
    let training = positions(&train);
    let mut reach: HashSet<u64> = HashSet::new();
    for p in &training {
        reach.insert(p.hash());
        for &m in p.legal_moves().as_slice() {
            reach.insert(p.after(m).hash());
        }
    }
    let shared: Vec<String> = test.iter().filter(|p| reach.contains(&p.hash())).map(|p| p.fen()).collect();
    assert!(shared.is_empty(), "{} shared: {:?}", shared.len(), &shared[..shared.len().min(3)]);
}

#[test]
fn a_bad_line_is_named() {
    let dir = std::env::temp_dir().join(format!("gx-testbook-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("train.epd"), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n").unwrap();
    std::fs::write(dir.join("lines.pgn"), "[Event \"a\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_guoxiang-tune"))
        .args(["testbook", "--train"])
        .arg(dir.join("train.epd"))
        .arg("--lines")
        .arg(dir.join("lines.pgn"))
        .arg("--out")
        .arg(dir.join("out.epd"))
        .output()
        .expect("guoxiang-tune runs");
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(said.contains("line 1") && said.contains("Ke3"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
