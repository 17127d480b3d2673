//! Our ECO codes against an independent table: the lichess chess-openings data set, when it is present next to the
//! workspace (`../shared/data/openings/{a,b,c,d,e}.tsv`, columns `eco`, `name`, `pgn`).
//!
//! The data set is only *read* here, as an oracle; nothing of it ends up in the crate. For every one of our entries
//! whose exact position also appears there, the ECO codes must agree. Names are not compared: ours are our own words.

use guoxiang_core::Position;
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

fn oracle_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/openings")
}

/// Plays a PGN movetext such as `1. e4 c5 2. Nf3` from the start; `None` if a move does not fit.
fn replay(pgn: &str) -> Option<Position> {
    let mut pos = Position::new();
    for token in pgn.split_whitespace() {
        if token.ends_with('.') {
            continue;
        }
        pos.play_san(token).ok()?;
    }
    Some(pos)
}

/// Position (EPD) → the ECO codes the oracle gives it, and the number of lines read.
fn read_oracle() -> Option<(HashMap<String, BTreeSet<String>>, usize)> {
    let dir = oracle_dir();
    let mut by_epd: HashMap<String, BTreeSet<String>> = HashMap::new();
    let mut lines = 0;
    for volume in ["a", "b", "c", "d", "e"] {
        let path = dir.join(format!("{volume}.tsv"));
        let text = std::fs::read_to_string(&path).ok()?;
        let mut rows = text.lines();
        let header = rows.next().unwrap_or_default();
        assert!(header.starts_with("eco\tname\tpgn"), "{}: unexpected header {header:?}", path.display());
        for row in rows.filter(|r| !r.trim().is_empty()) {
            let mut cols = row.split('\t');
            let (Some(eco), Some(_name), Some(pgn)) = (cols.next(), cols.next(), cols.next()) else {
                panic!("{}: malformed row {row:?}", path.display());
            };
            let pos = replay(pgn).unwrap_or_else(|| panic!("{}: cannot replay {pgn:?}", path.display()));
            by_epd.entry(pos.epd()).or_default().insert(eco.to_string());
            lines += 1;
        }
    }
    Some((by_epd, lines))
}

#[test]
fn eco_codes_agree_with_the_lichess_data_set() {
    let Some((oracle, lines)) = read_oracle() else {
        println!("skipped: oracle data set {} not found", oracle_dir().display());
        return;
    };
    let mut compared = 0;
    let mut mismatches = Vec::new();
    for o in guoxiang_openings::all() {
        let Some(theirs) = oracle.get(o.epd()) else { continue };
        compared += 1;
        if !theirs.contains(o.eco) {
            mismatches.push(format!("{} {} ({}): oracle says {:?}", o.eco, o.name_en, o.moves, theirs));
        }
    }
    for line in unmatched_report(&oracle) {
        println!("{line}");
    }
    println!(
        "compared {compared} of our {} entries with {lines} oracle lines; {} mismatches",
        guoxiang_openings::all().len(),
        mismatches.len()
    );
    assert!(mismatches.is_empty(), "ECO codes differ from the oracle:\n{}", mismatches.join("\n"));
    // Most of our positions are standard named positions; if hardly any are found, the comparison is broken.
    assert!(compared * 2 > guoxiang_openings::all().len(), "only {compared} positions found in the oracle");
}

/// Our entries whose position the oracle does not name, each with the oracle's code for the last position on the way
/// there that it does name: a reader's check on codes the assertion above cannot reach.
fn unmatched_report(oracle: &HashMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut report = Vec::new();
    for o in guoxiang_openings::all().iter().filter(|o| !oracle.contains_key(o.epd())) {
        let mut pos = Position::new();
        let mut nearest = None;
        for san in o.san_moves() {
            pos.play_san(san).expect("the table's moves are legal");
            if let Some(codes) = oracle.get(&pos.epd()) {
                nearest = Some(codes);
            }
        }
        report
            .push(format!("not in the oracle: {} {} ({}); oracle on the way: {nearest:?}", o.eco, o.name_en, o.moves));
    }
    report
}
