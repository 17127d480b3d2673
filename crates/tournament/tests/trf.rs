// SPDX-License-Identifier: GPL-3.0-or-later
//! Reading and writing TRF-16: a round trip, and bad files that must give an error with a line and a column.

use guoxiang_tournament::trf::{self, Code, Colour};

const SMALL: &str = include_str!("small.trf");

#[test]
fn reads_the_fields_of_a_player_line() {
    let t = trf::parse(SMALL).unwrap();
    assert_eq!(t.header.name.as_deref(), Some("Club Swiss"));
    assert_eq!(t.header.chief_arbiter.as_deref(), Some("Arbiter, Chief"));
    assert_eq!(t.rounds, Some(3));
    assert_eq!(t.players.len(), 5);
    let p = &t.players[0];
    assert_eq!((p.start_number, p.sex.as_str(), p.title.as_str(), p.name.as_str()), (1, "m", "FM", "Li, Wei"));
    assert_eq!((p.rating, p.federation.as_str(), p.fide_id), (Some(2000), "CHN", Some(8600001)));
    assert_eq!((p.birth_date.as_str(), p.points, p.rank), ("2000/01/01", Some(2.5), Some(1)));
    assert_eq!(p.rounds[1].opponent, Some(3));
    assert_eq!(p.rounds[1].colour, Colour::White);
    assert_eq!(p.rounds[1].code, Code::ForfeitWin);
    assert_eq!(t.players[1].rounds[1].code, Code::HalfBye);
    assert_eq!(t.players[1].rounds[1].opponent, None);
    assert_eq!(t.players[3].rounds.len(), 2, "player 4 withdrew after round 2");
    assert_eq!(t.players[4].rating, None);
    assert_eq!(t.rounds_present(), 3);
}

#[test]
fn round_trip() {
    let t = trf::parse(SMALL).unwrap();
    assert_eq!(trf::write(&t), SMALL, "a file in the writer's layout is written back byte for byte");
    assert_eq!(trf::parse(&trf::write(&t)).unwrap(), t);
}

#[test]
fn names_in_chinese_keep_the_columns() {
    let mut t = trf::parse(SMALL).unwrap();
    t.players[0].name = "李伟".to_string();
    t.other_lines.push("### a comment".to_string());
    let text = trf::write(&t);
    let back = trf::parse(&text).unwrap();
    assert_eq!(back.players[0].name, "李伟");
    assert_eq!(back.players[0].rating, Some(2000));
    assert_eq!(back, t);
}

#[test]
fn crlf_and_blank_lines_are_accepted() {
    let text = SMALL.replace('\n', "\r\n\r\n");
    assert_eq!(trf::parse(&text).unwrap(), trf::parse(SMALL).unwrap());
}

/// `SMALL` with line `line` (1-based) replaced.
fn with_line(line: usize, new: &str) -> String {
    SMALL.lines().enumerate().map(|(i, l)| if i + 1 == line { new } else { l }).collect::<Vec<_>>().join("\n")
}

/// `SMALL` with the characters at 1-based `column` of line `line` replaced by `text`.
fn patched(line: usize, column: usize, text: &str) -> String {
    let old: Vec<char> = SMALL.lines().nth(line - 1).unwrap().chars().collect();
    let mut l: Vec<char> = old.clone();
    for (i, c) in text.chars().enumerate() {
        l[column - 1 + i] = c;
    }
    with_line(line, &l.into_iter().collect::<String>())
}

fn error_at(text: &str) -> (usize, usize, String) {
    let e = trf::parse(text).expect_err("a bad file");
    assert!(e.to_string().starts_with(&format!("TRF line {}, column {}: ", e.line, e.column)));
    (e.line, e.column, e.message)
}

#[test]
fn bad_inputs_name_the_line_and_column() {
    // Line 8 is player 1, line 9 player 2.
    let (l, c, m) = error_at(&with_line(8, "001"));
    assert_eq!((l, c), (8, 4), "{m}");
    let (l, c, m) = error_at(&patched(8, 5, "  x1"));
    assert_eq!((l, c), (8, 5));
    assert!(m.contains("not a number"), "{m}");
    let (l, c, m) = error_at(&patched(8, 49, "20a0"));
    assert_eq!((l, c), (8, 49), "{m}");
    let (l, c, m) = error_at(&patched(8, 81, "2,5 "));
    assert_eq!((l, c), (8, 81), "{m}");
    let (l, c, m) = error_at(&patched(8, 99, "X"));
    assert_eq!((l, c), (8, 99));
    assert!(m.contains("result"), "{m}");
    let (l, c, _) = error_at(&patched(8, 97, "g"));
    assert_eq!((l, c), (8, 97));
    // An opponent that does not exist.
    let (l, c, m) = error_at(&patched(8, 92, "0042"));
    assert_eq!((l, c), (8, 92));
    assert!(m.contains("opponent 42 is not a player"), "{m}");
    // Asymmetric pairings: player 1 says 2 in round 1, player 2 says 3.
    let (l, c, m) = error_at(&patched(9, 92, "0003"));
    assert_eq!(l, 9, "{m}");
    assert!(m.contains("round 1"), "{m}");
    let _ = c;
    // Results that do not match: both won.
    let (l, c, m) = error_at(&patched(9, 99, "1"));
    assert_eq!((l, c), (9, 99));
    assert!(m.contains("do not match"), "{m}");
    // Colours that are not opposite.
    let (l, c, _) = error_at(&patched(9, 97, "w"));
    assert_eq!((l, c), (9, 97));
    // A duplicate starting rank.
    let (l, c, m) = error_at(&patched(10, 8, "5"));
    assert_eq!((l, c), (12, 5));
    assert!(m.contains("starting rank 5 is already used on line 10"), "{m}");
    // A game result without an opponent, a bye with one, a player paired with themself.
    let (l, _, _) = error_at(&patched(8, 92, "0000"));
    assert_eq!(l, 8);
    let (l, c, _) = error_at(&patched(8, 109, "H"));
    assert_eq!((l, c), (8, 109));
    let (l, c, _) = error_at(&patched(8, 92, "0001"));
    assert_eq!((l, c), (8, 92));
    // A record code that is not one, and XXR that is not a number or too small.
    let (l, c, _) = error_at(&format!("{SMALL}0-1 what\n"));
    assert_eq!((l, c), (13, 1));
    let (l, c, _) = error_at(&with_line(7, "XXR three"));
    assert_eq!((l, c), (7, 5));
    let (l, _, m) = error_at(&with_line(7, "XXR 2"));
    assert!(m.contains("XXR says 2 rounds"), "{m}");
    assert!(l >= 8);
    // The widest numbers the columns hold are read.
    let t = trf::parse(&patched(8, 58, "99999999999")).unwrap();
    assert_eq!(t.players[0].fide_id, Some(99_999_999_999));
}

#[test]
fn never_panics_on_truncated_or_odd_lines() {
    for line in SMALL.lines() {
        for cut in 0..line.chars().count() {
            let l: String = line.chars().take(cut).collect();
            let _ = trf::parse(&l);
            let _ = trf::parse(&format!("{l}\u{4e2d}\u{6587}"));
        }
    }
}

/// Both players of a board absent: `-` against `-` (TRF-16's double forfeit).
#[test]
fn a_double_forfeit_is_read_and_written() {
    let text = SMALL.replace("0003 b =  0005 w 1", "0003 b =  0005 w -").replace("0004 b 0", "0004 b -");
    let t = trf::parse(&text).unwrap_or_else(|e| panic!("a double forfeit is refused: {e}"));
    let (four, five) = (t.player(4).unwrap(), t.player(5).unwrap());
    assert_eq!((four.rounds[1].opponent, four.rounds[1].code), (Some(5), Code::ForfeitLoss));
    assert_eq!((five.rounds[1].opponent, five.rounds[1].code), (Some(4), Code::ForfeitLoss));
    let written = trf::write(&t);
    assert!(written.contains("0005 w -"), "{written}");
    assert!(written.contains("0004 b -"), "{written}");
    assert_eq!(trf::parse(&written).unwrap(), t, "read, written and read again");
    // Neither scores.
    let s = guoxiang_tournament::standings::compute(&t, &[]);
    let points = |n: u16| s.iter().find(|r| r.start_number == n).unwrap().score;
    assert_eq!((points(4), points(5)), (0.5, 1.5));
}

#[test]
fn a_forfeit_still_needs_a_matching_result() {
    // `-` against `1` is not a double forfeit: the results do not match.
    let text = SMALL.replace("0003 b =  0005 w 1", "0003 b =  0005 w -");
    let (line, _, m) = error_at(&text);
    assert_eq!(line, 12);
    assert!(m.contains("do not match"), "{m}");
}

#[test]
fn free_text_with_line_breaks_cannot_add_or_shift_lines() {
    let mut t = trf::parse(SMALL).unwrap();
    let players = t.players.len();
    t.players[0].name = "Evil\n001    9 m    Injected\r\tName".to_string();
    t.players[1].name = "A name far longer than the thirty-three characters of the field".to_string();
    t.header.name = Some("Club\n001   10 m Fake".to_string());
    t.header.chief_arbiter = Some("Arbiter\r\n102 Other".to_string());
    t.header.deputy_arbiters = vec!["Deputy\n012 Renamed".to_string()];
    let text = trf::write(&t);
    let player_lines = text.lines().filter(|l| l.starts_with("001")).count();
    assert_eq!(player_lines, players, "one player line per player:\n{text}");
    assert!(!text.contains('\r') && !text.contains('\t'), "no CR or tab in the file:\n{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("012")).count(), 1, "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("102")).count(), 1, "{text}");
    let back = trf::parse(&text).unwrap();
    assert_eq!(back.players.len(), players);
    assert_eq!(back.players[0].name, "Evil 001    9 m    Injected  Name", "line breaks and tabs become spaces");
    assert_eq!(back.players[0].rating, t.players[0].rating, "the columns after the name did not move");
    assert_eq!(back.players[0].rounds, t.players[0].rounds);
    assert_eq!(back.players[1].name.chars().count(), 33, "an over-long name is cut to the field's 33 characters");
    assert_eq!(back.players[1].rating, t.players[1].rating);
    assert_eq!(back.header.name.as_deref(), Some("Club 001   10 m Fake"));
    assert_eq!(back.header.chief_arbiter.as_deref(), Some("Arbiter  102 Other"));
    assert_eq!(back.header.deputy_arbiters, vec!["Deputy 012 Renamed".to_string()]);
}
