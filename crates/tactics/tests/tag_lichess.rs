//! The tagger against lichess's own Themes on the shared file (skipped when ../shared/data is absent): precision and
//! recall per lichess theme, with floors on the themes the issue sets targets for, so that a regression fails.
//! `cargo test -p guoxiang-tactics --release --test tag_lichess -- --nocapture` prints the whole table.

use std::collections::BTreeMap;
use std::path::PathBuf;

use guoxiang_tactics::{Reader, lichess_themes, tag};

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

/// (lichess theme, precision floor, recall floor): the targets are precision 0.85 and recall 0.75 (issue 38:
/// 0.8 and 0.6 for hangingPiece, deflection and intermezzo); where the tagger meets them the floor is at least the
/// target, elsewhere it sits a little under what the tagger measures today (docs/puzzles/tagger.md has the table),
/// so that a regression shows.
const FLOORS: &[(&str, f64, f64)] = &[
    ("fork", 0.85, 0.75),
    ("pin", 0.85, 0.75),
    ("skewer", 0.90, 0.95),
    ("discoveredAttack", 0.85, 0.75),
    ("doubleCheck", 0.98, 0.98),
    ("backRankMate", 0.85, 0.75),
    ("smotheredMate", 0.97, 0.98),
    ("mateIn1", 0.98, 0.98),
    ("mateIn2", 0.98, 0.98),
    ("promotion", 0.97, 0.98),
    ("enPassant", 0.98, 0.98),
    // Issue 38: hangingPiece, deflection, intermezzo (and clearance, not a target) a little under what they measure.
    ("hangingPiece", 0.85, 0.95),
    ("deflection", 0.85, 0.85),
    ("intermezzo", 0.90, 0.80),
    ("clearance", 0.50, 0.45),
];

const REPORTED: &[&str] = &[
    "fork",
    "pin",
    "skewer",
    "discoveredAttack",
    "discoveredCheck",
    "doubleCheck",
    "sacrifice",
    "deflection",
    "attraction",
    "interference",
    "clearance",
    "intermezzo",
    "trappedPiece",
    "capturingDefender",
    "xRayAttack",
    "hangingPiece",
    "backRankMate",
    "smotheredMate",
    "mate",
    "mateIn1",
    "mateIn2",
    "mateIn3",
    "mateIn4",
    "mateIn5",
    "promotion",
    "underPromotion",
    "enPassant",
    "castling",
    "zugzwang",
    "quietMove",
    "defensiveMove",
];

#[derive(Default)]
struct Count {
    theirs: u32,
    ours: u32,
    both: u32,
}

#[test]
fn tagger_meets_the_precision_and_recall_floors_against_lichess() {
    let Some(path) = data() else { return };
    let file = std::fs::File::open(&path).expect("open");
    let mut counts: BTreeMap<&str, Count> = REPORTED.iter().map(|&t| (t, Count::default())).collect();
    let mut n = 0;
    for row in Reader::new(std::io::BufReader::new(file)) {
        let p = row.unwrap_or_else(|e| panic!("{e}"));
        let motifs = tag::motifs(&p);
        let ours = lichess_themes(&motifs);
        for (&t, c) in counts.iter_mut() {
            let a = p.themes.iter().any(|x| x == t);
            let b = ours.contains(&t);
            c.theirs += u32::from(a);
            c.ours += u32::from(b);
            c.both += u32::from(a && b);
        }
        n += 1;
    }
    assert_eq!(n, 30_102);
    let ratio = |a: u32, b: u32| if b == 0 { 0.0 } else { f64::from(a) / f64::from(b) };
    println!("| lichess theme | lichess | ours | both | precision | recall |");
    for &t in REPORTED {
        let c = &counts[t];
        println!(
            "| {t} | {} | {} | {} | {:.3} | {:.3} |",
            c.theirs,
            c.ours,
            c.both,
            ratio(c.both, c.ours),
            ratio(c.both, c.theirs)
        );
    }
    let mut failed = Vec::new();
    for &(t, pf, rf) in FLOORS {
        let c = &counts[t];
        let (p, r) = (ratio(c.both, c.ours), ratio(c.both, c.theirs));
        if p < pf || r < rf {
            failed.push(format!("{t}: precision {p:.3} (floor {pf}), recall {r:.3} (floor {rf})"));
        }
    }
    assert!(failed.is_empty(), "below the floors:\n{}", failed.join("\n"));
}
