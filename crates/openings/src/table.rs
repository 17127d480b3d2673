//! Reading and checking the opening table (`openings.tsv`): text in, [`Table`] or every problem found out.
//!
//! The table is checked as a whole, so one run reports every bad line rather than the first. What is checked: the
//! header, four tab-separated columns, ECO codes `A00`–`E99`, an English name with no Chinese in it and a Chinese name
//! with some, move numbers in order, every move legal and written as canonical SAN (the same text the core writes,
//! `+` and `#` included), and no position named twice.

use crate::Opening;
use guoxiang_core::Position;
use std::collections::HashMap;
use std::fmt;

/// The header line the table must start with (after comments and blank lines).
pub(crate) const HEADER: &str = "eco\tname_en\tname_zh\tmoves";

/// The parsed table: the openings in file order, and an index from position hash to opening.
#[derive(Debug)]
pub(crate) struct Table {
    pub(crate) openings: Vec<Opening>,
    pub(crate) index: HashMap<u64, usize>,
}

/// One problem in the table: the 1-based line and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TableError {
    pub(crate) line: usize,
    pub(crate) message: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "openings.tsv line {}: {}", self.line, self.message)
    }
}

/// Parses and checks a whole table; returns every problem when there is any.
pub(crate) fn parse(src: &'static str) -> Result<Table, Vec<TableError>> {
    let mut errors = Vec::new();
    let mut openings: Vec<Opening> = Vec::new();
    let mut index: HashMap<u64, usize> = HashMap::new();
    let mut lines_of: Vec<usize> = Vec::new();
    let mut header_seen = false;

    for (i, raw) in src.lines().enumerate() {
        let line = i + 1;
        let text = raw.strip_suffix('\r').unwrap_or(raw);
        if text.trim().is_empty() || text.starts_with('#') {
            continue;
        }
        if !header_seen {
            header_seen = true;
            if text != HEADER {
                errors.push(TableError { line, message: format!("expected the header {HEADER:?}, found {text:?}") });
            }
            continue;
        }
        match parse_line(text) {
            Ok((opening, hash)) => match index.get(&hash) {
                Some(&other) if openings[other].epd == opening.epd => errors.push(TableError {
                    line,
                    message: format!(
                        "{} reaches the same position as line {} ({}); name each position once",
                        opening.moves, lines_of[other], openings[other].name_en
                    ),
                }),
                Some(_) => errors.push(TableError {
                    line,
                    message: "Zobrist hash collision with another entry; key the table on something else".to_string(),
                }),
                None => {
                    index.insert(hash, openings.len());
                    openings.push(opening);
                    lines_of.push(line);
                }
            },
            Err(message) => errors.push(TableError { line, message }),
        }
    }
    if !header_seen {
        errors.push(TableError { line: 1, message: format!("the table is empty: expected the header {HEADER:?}") });
    }
    if errors.is_empty() { Ok(Table { openings, index }) } else { Err(errors) }
}

/// One data line: the opening and the hash of the position it names.
fn parse_line(text: &'static str) -> Result<(Opening, u64), String> {
    let fields: Vec<&'static str> = text.split('\t').collect();
    let [eco, name_en, name_zh, moves] = fields[..] else {
        return Err(format!("expected 4 tab-separated columns (eco, name_en, name_zh, moves), found {}", fields.len()));
    };
    for (column, value) in [("eco", eco), ("name_en", name_en), ("name_zh", name_zh), ("moves", moves)] {
        if value.trim().is_empty() {
            return Err(format!("column {column} is empty"));
        }
        if value.trim() != value {
            return Err(format!("column {column} has spaces at its start or end: {value:?}"));
        }
    }
    check_eco(eco)?;
    if name_en.chars().any(is_han) {
        return Err(format!("name_en {name_en:?} contains Chinese characters"));
    }
    if !name_zh.chars().any(is_han) {
        return Err(format!("name_zh {name_zh:?} contains no Chinese characters"));
    }
    let (pos, plies) = replay(moves)?;
    let opening = Opening { eco, name_en, name_zh, moves, plies, epd: pos.epd() };
    Ok((opening, pos.hash()))
}

/// `A00`–`E99`.
fn check_eco(eco: &str) -> Result<(), String> {
    match eco.as_bytes() {
        [b'A'..=b'E', b'0'..=b'9', b'0'..=b'9'] => Ok(()),
        _ => Err(format!("ECO code {eco:?} is not a letter A-E followed by two digits")),
    }
}

/// Whether `c` is a CJK ideograph (the unified block and extension A, which cover Simplified Chinese).
pub(crate) fn is_han(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}')
}

/// Plays `1. e4 c5 2. Nf3` from the standard start; returns the final position and the number of plies.
///
/// Move numbers are required before White's moves and must count up from 1; each move must be legal and written
/// exactly as the core writes SAN, so the table has one spelling for every move.
fn replay(moves: &str) -> Result<(Position, usize), String> {
    let mut pos = Position::new();
    let mut plies = 0;
    let mut expect_number = true;
    for token in moves.split(' ') {
        let move_number = plies / 2 + 1;
        if expect_number {
            if token != format!("{move_number}.") {
                return Err(format!("expected move number \"{move_number}.\", found {token:?}"));
            }
            expect_number = false;
            continue;
        }
        if token.is_empty() {
            return Err("two spaces in a row in the moves".to_string());
        }
        let m = pos.parse_san(token).map_err(|e| format!("move {move_number} {token:?}: {e}"))?;
        let canonical = pos.san(m);
        if canonical != token {
            return Err(format!("move {move_number} {token:?} should be written {canonical:?}"));
        }
        pos.play_unchecked(m);
        plies += 1;
        expect_number = plies % 2 == 0;
    }
    if plies == 0 {
        return Err("no moves".to_string());
    }
    Ok((pos, plies))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(body: &'static str) -> Vec<TableError> {
        match parse(body) {
            Ok(t) => panic!("expected errors, parsed {} openings", t.openings.len()),
            Err(e) => e,
        }
    }

    fn one_error(body: &'static str) -> String {
        let e = errors(body);
        assert_eq!(e.len(), 1, "{e:?}");
        e[0].message.clone()
    }

    #[test]
    fn a_small_table_parses() {
        let t = parse("# comment\n\neco\tname_en\tname_zh\tmoves\nB20\tSicilian Defence\t西西里防御\t1. e4 c5\n")
            .expect("valid");
        assert_eq!(t.openings.len(), 1);
        let o = &t.openings[0];
        assert_eq!(
            (o.eco, o.name_en, o.name_zh, o.moves, o.plies),
            ("B20", "Sicilian Defence", "西西里防御", "1. e4 c5", 2)
        );
        assert_eq!(o.epd, "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -");
    }

    #[test]
    fn header_is_required() {
        assert!(one_error("B20\tSicilian\t西西里防御\t1. e4 c5\n").contains("header"));
        assert!(one_error("# nothing\n").contains("empty"));
    }

    #[test]
    fn every_bad_line_is_reported_with_its_number() {
        let e = errors(concat!(
            "eco\tname_en\tname_zh\tmoves\n",
            "F20\tX\t西\t1. e4\n",
            "B20\tX\t西\t1. e5\n",
            "B20\tX\t西\n",
        ));
        assert_eq!(e.iter().map(|e| e.line).collect::<Vec<_>>(), [2, 3, 4]);
        assert!(e[0].to_string().starts_with("openings.tsv line 2: ECO code"));
    }

    #[test]
    fn names_must_be_in_their_language() {
        assert!(one_error("eco\tname_en\tname_zh\tmoves\nB20\tSicilian\tSicilian\t1. e4 c5\n").contains("no Chinese"));
        assert!(one_error("eco\tname_en\tname_zh\tmoves\nB20\t西西里\t西西里防御\t1. e4 c5\n").contains("name_en"));
        assert!(one_error("eco\tname_en\tname_zh\tmoves\nB20\t\t西西里防御\t1. e4 c5\n").contains("empty"));
        assert!(one_error("eco\tname_en\tname_zh\tmoves\nB20\tSicilian \t西西里防御\t1. e4 c5\n").contains("spaces"));
    }

    #[test]
    fn moves_must_be_numbered_legal_and_canonical() {
        let h = "eco\tname_en\tname_zh\tmoves\n";
        let bad = |moves: &str| -> String {
            let body: &'static str = format!("{h}B20\tSicilian\t西西里防御\t{moves}\n").leak();
            one_error(body)
        };
        assert!(bad("e4 c5").contains("move number"));
        assert!(bad("1. e4 c5 3. Nf3").contains("move number"));
        assert!(bad("1. e4 c5 Nf3").contains("move number"));
        assert!(bad("1. e5").contains("\"e5\""));
        assert!(bad("1. e2e4").contains("should be written \"e4\""));
        assert!(bad("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7").contains("\"Qxf7#\""));
        assert!(bad("1.  e4").contains("two spaces"));
    }

    #[test]
    fn a_position_is_named_once_whatever_the_move_order() {
        let m = one_error(concat!(
            "eco\tname_en\tname_zh\tmoves\n",
            "A00\tOne\t一\t1. Nf3 Nf6 2. d4\n",
            "A00\tTwo\t二\t1. d4 Nf6 2. Nf3\n",
        ));
        assert!(m.contains("same position as line 2 (One)"), "{m}");
    }

    #[test]
    fn eco_codes() {
        for good in ["A00", "B99", "E42"] {
            assert!(check_eco(good).is_ok(), "{good}");
        }
        for bad in ["F00", "a00", "A0", "A000", "AA0", ""] {
            assert!(check_eco(bad).is_err(), "{bad}");
        }
    }
}
