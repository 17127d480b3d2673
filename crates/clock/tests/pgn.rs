//! Reading and writing the PGN `TimeControl` tag.

use std::num::NonZeroU32;

use guoxiang_clock::{Bonus, ParseErrorKind, Period, TimeControl, TimeControlError, TimeControlTag};

fn moves(n: u32) -> Option<NonZeroU32> {
    NonZeroU32::new(n)
}

#[test]
fn canonical_tags_parse_to_the_right_value_and_write_back_unchanged() {
    let table: Vec<(&str, TimeControl)> = vec![
        ("-", TimeControl::Unlimited),
        ("300", TimeControl::sudden_death(300)),
        ("0", TimeControl::sudden_death(0)),
        ("300+0", TimeControl::fischer(300, 0)),
        ("300+2", TimeControl::fischer(300, 2)),
        ("0+1", TimeControl::fischer(0, 1)),
        ("300+d5", TimeControl::simple_delay(300, 5)),
        ("300+b5", TimeControl::bronstein(300, 5)),
        ("*180", TimeControl::sandclock(180)),
        ("4294967295", TimeControl::sudden_death(u32::MAX)),
        (
            "40/5400",
            TimeControl::periods(vec![Period { moves: moves(40), seconds: 5400, bonus: Bonus::None }]).unwrap(),
        ),
        (
            "40/5400+30:1800+30",
            TimeControl::periods(vec![
                Period::for_moves(NonZeroU32::new(40).unwrap(), 5400, Bonus::Fischer(30)),
                Period::rest_of_game(1800, Bonus::Fischer(30)),
            ])
            .unwrap(),
        ),
        (
            "40/7200:20/3600",
            TimeControl::periods(vec![
                Period::for_moves(NonZeroU32::new(40).unwrap(), 7200, Bonus::None),
                Period::for_moves(NonZeroU32::new(20).unwrap(), 3600, Bonus::None),
            ])
            .unwrap(),
        ),
        (
            "40/6000+b10:20/3000+d5:900+30",
            TimeControl::periods(vec![
                Period::for_moves(NonZeroU32::new(40).unwrap(), 6000, Bonus::Bronstein(10)),
                Period::for_moves(NonZeroU32::new(20).unwrap(), 3000, Bonus::SimpleDelay(5)),
                Period::rest_of_game(900, Bonus::Fischer(30)),
            ])
            .unwrap(),
        ),
        ("3d", TimeControl::correspondence(3, None).unwrap()),
        ("3d<=10d", TimeControl::correspondence(3, Some(10)).unwrap()),
        ("1d<=1d", TimeControl::correspondence(1, Some(1)).unwrap()),
    ];
    for (tag, value) in table {
        let parsed = TimeControl::from_pgn(tag).unwrap_or_else(|e| panic!("{tag}: {e}"));
        assert_eq!(parsed, value, "{tag}");
        assert_eq!(value.to_pgn(), tag);
        let as_tag: TimeControlTag = tag.parse().unwrap();
        assert_eq!(as_tag, TimeControlTag::Known(value));
        assert_eq!(as_tag.to_string(), tag);
    }
}

#[test]
fn unknown_is_a_tag_but_not_a_time_control() {
    assert_eq!("?".parse::<TimeControlTag>(), Ok(TimeControlTag::Unknown));
    assert_eq!(" ? ".parse::<TimeControlTag>(), Ok(TimeControlTag::Unknown));
    assert_eq!(TimeControlTag::Unknown.to_string(), "?");
    let err = TimeControl::from_pgn(" ?").unwrap_err();
    assert_eq!(err.kind(), ParseErrorKind::UnknownNotAllowed);
    assert_eq!(
        err.to_string(),
        "time control ' ?': '?' at column 2 means unknown, which cannot be used as a time control"
    );
}

#[test]
fn surrounding_whitespace_and_leading_zeros_are_tolerated() {
    assert_eq!(TimeControl::from_pgn("  300+2\t\n"), Ok(TimeControl::fischer(300, 2)));
    assert_eq!(TimeControl::from_pgn("\u{3000}-"), Ok(TimeControl::Unlimited));
    let tc = TimeControl::from_pgn("040/05400").unwrap();
    assert_eq!(tc.to_pgn(), "40/5400");
}

#[test]
fn minutes_increment_helper() {
    assert_eq!(TimeControl::from_minutes_increment(5, 3), TimeControl::fischer(300, 3));
    assert_eq!(TimeControl::from_minutes_increment(15, 0).to_pgn(), "900+0");
    assert_eq!(TimeControl::from_minutes_increment(u16::MAX, u32::MAX).to_pgn(), "3932100+4294967295");
}

#[test]
fn bad_tags_report_what_and_where() {
    let table = [
        ("40/54x0", "time control '40/54x0': unexpected 'x' at column 6, expected '+', ':' or the end"),
        ("  40/54x0", "time control '  40/54x0': unexpected 'x' at column 8, expected '+', ':' or the end"),
        ("", "time control '': unexpected end at column 1, expected '?', '-', '*' or a number"),
        ("   ", "time control '   ': unexpected end at column 4, expected '?', '-', '*' or a number"),
        ("abc", "time control 'abc': unexpected 'a' at column 1, expected '?', '-', '*' or a number"),
        ("300+", "time control '300+': unexpected end at column 5, expected a number of seconds, 'd' or 'b'"),
        ("300+d", "time control '300+d': unexpected end at column 6, expected a number of seconds"),
        ("300+x5", "time control '300+x5': unexpected 'x' at column 5, expected a number of seconds, 'd' or 'b'"),
        ("300 + 2", "time control '300 + 2': unexpected ' ' at column 4, expected '+' or the end"),
        ("40/", "time control '40/': unexpected end at column 4, expected a number of seconds"),
        ("40/300:", "time control '40/300:': unexpected end at column 8, expected a move count or a number of seconds"),
        ("40/300+5/", "time control '40/300+5/': unexpected '/' at column 9, expected ':' or the end"),
        ("0/300", "time control '0/300': move count at column 1 must be at least 1"),
        ("40/5400:0/60", "time control '40/5400:0/60': move count at column 9 must be at least 1"),
        ("300:60", "time control '300:60': unexpected ':' at column 4: only the last period may lack a move count"),
        ("300+2:", "time control '300+2:': unexpected ':' at column 6: only the last period may lack a move count"),
        ("4294967296", "time control '4294967296': number at column 1 is too large (at most 4294967295)"),
        (
            "300+99999999999999999999",
            "time control '300+99999999999999999999': number at column 5 is too large (at most 4294967295)",
        ),
        ("*", "time control '*': unexpected end at column 2, expected a number of seconds"),
        ("*180+2", "time control '*180+2': unexpected '+' at column 5, expected the end"),
        ("--", "time control '--': unexpected '-' at column 2, expected the end"),
        ("??", "time control '??': unexpected '?' at column 2, expected the end"),
        ("0d", "time control '0d': days per move at column 1 must be at least 1"),
        ("3d<=2d", "time control '3d<=2d': maximum at column 5 is less than the days per move"),
        ("3d<10d", "time control '3d<10d': unexpected '1' at column 4, expected '='"),
        ("3dx", "time control '3dx': unexpected 'x' at column 3, expected '<=' or the end"),
        ("3d<=10", "time control '3d<=10': unexpected end at column 7, expected 'd'"),
        ("3d<=10d!", "time control '3d<=10d!': unexpected '!' at column 8, expected the end"),
        ("40/5400:3d", "time control '40/5400:3d': unexpected 'd' at column 10, expected '+' or the end"),
        ("３００", "time control '３００': unexpected '３' at column 1, expected '?', '-', '*' or a number"),
        ("30\n0", "time control '30\\n0': unexpected '\\n' at column 3, expected '+' or the end"),
    ];
    for (input, message) in table {
        let err = TimeControl::from_pgn(input).unwrap_err();
        assert_eq!(err.to_string(), message, "input {input:?}");
        assert_eq!(err.input(), input);
        // The column in the message is the one the error reports.
        assert!(message.contains(&format!("column {}", err.column())));
    }
}

#[test]
fn long_input_is_cut_in_the_message() {
    let input = format!("{}x", "1".repeat(8)).repeat(20);
    let err = TimeControl::from_pgn(&input).unwrap_err();
    assert_eq!(err.column(), 9);
    let msg = err.to_string();
    assert!(msg.starts_with(&format!("time control '{}...'", &input[..60])), "{msg}");
}

#[test]
fn invalid_structures_are_refused_by_constructors() {
    assert_eq!(TimeControl::periods(vec![]), Err(TimeControlError::NoPeriods));
    assert_eq!(
        TimeControl::periods(vec![Period::rest_of_game(60, Bonus::None), Period::rest_of_game(60, Bonus::None),]),
        Err(TimeControlError::OpenEndedNotLast { index: 0 })
    );
    assert_eq!(TimeControl::correspondence(0, None), Err(TimeControlError::ZeroDaysPerMove));
    let err = TimeControl::correspondence(5, Some(2)).unwrap_err();
    assert_eq!(err.to_string(), "correspondence maximum of 2 days is below the 5 days per move");
}
