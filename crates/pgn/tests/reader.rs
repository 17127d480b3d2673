//! Hand-written tests of the reader, one feature at a time.

mod common;

use std::io::{self, Read};

use common::{Events, all_events};
use guoxiang_pgn::{ErrorKind, Game, GameResult, Location, PgnError, Reader, Skip, Visitor};

fn events(pgn: &str) -> Vec<Result<Vec<String>, String>> {
    let bytes = pgn.as_bytes();
    let out = all_events(bytes, 1 << 16);
    // Every chunk boundary gives the same result.
    assert_eq!(all_events(bytes, 16), out, "buffer size changes the result");
    out
}

fn games(pgn: &str) -> Vec<Result<Game, PgnError>> {
    Reader::new(pgn.as_bytes()).games().collect()
}

fn one_game(pgn: &str) -> Game {
    let mut all = games(pgn);
    assert_eq!(all.len(), 1, "{all:?}");
    all.remove(0).unwrap()
}

fn sans(game: &Game) -> Vec<&str> {
    game.mainline().collect()
}

fn only_errors(pgn: &str) -> Vec<String> {
    games(pgn).into_iter().filter_map(|g| g.err()).map(|e| e.to_string()).collect()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn empty_inputs_have_no_games() {
    for input in ["", "   \n\n\t ", "\u{feff}", "\u{feff}\r\n", "% only an escape line\n"] {
        assert!(games(input).is_empty(), "{input:?}");
    }
}

#[test]
fn tag_pairs_escapes_and_lenient_forms() {
    let g = one_game(concat!(
        "[Event \"A \\\"quoted\\\" \\\\ name\"]\n",
        "[event \"lowercase name\"]\n",
        "  [Site   \"spaces\"  ]  [Round \"2\"][Unknown_Tag9 \"x\"]\n",
        "[Annotator \"Say \"hi\" there\"]\n",
        "[Empty \"\"]\n",
        "[Odd \"back\\slash\"]\n",
        "\n1. e4 *\n",
    ));
    let tags: Vec<(&str, &str)> = g.tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    assert_eq!(
        tags,
        [
            ("Event", "A \"quoted\" \\ name"),
            ("event", "lowercase name"),
            ("Site", "spaces"),
            ("Round", "2"),
            ("Unknown_Tag9", "x"),
            ("Annotator", "Say \"hi\" there"),
            ("Empty", ""),
            ("Odd", "back\\slash"),
        ]
    );
    assert_eq!(sans(&g), ["e4"]);
}

#[test]
fn latin1_text_is_decoded() {
    let mut input = b"[White \"Ren".to_vec();
    input.extend_from_slice(b"\xe9\"]\n\n1. e4 { caf\xe9 } *\n");
    let g = Reader::new(&input[..]).read_owned_game().unwrap().unwrap();
    assert_eq!(g.tag("White"), Some("René"));
    assert_eq!(g.moves.nodes[0].comments_after, ["café"]);
}

#[test]
fn bom_and_crlf() {
    let out = events("\u{feff}[Event \"x\"]\r\n\r\n1. e4 {multi\r\nline} e5 ; rest\r\n2. Nf3 1-0\r\n");
    assert_eq!(
        out,
        [Ok(strs(&[
            "tag Event=x",
            "movetext",
            "san e4 @3:4:21",
            "comment multi\r\nline",
            "san e5 @4:7:38",
            "comment  rest",
            "san Nf3 @5:4:52",
            "result 1-0",
        ]))]
    );
}

#[test]
fn nested_variations_in_order() {
    let out = events("1. e4 (1. d4 d5 (1... Nf6 2. c4 (2. Nf3)) 2. c4) (1. c4) 1... e5 *");
    let expected = [
        "movetext",
        "san e4 @1:4:3",
        "(",
        "san d4 @1:11:10",
        "san d5 @1:14:13",
        "(",
        "san Nf6 @1:23:22",
        "san c4 @1:30:29",
        "(",
        "san Nf3 @1:37:36",
        ")",
        ")",
        "san c4 @1:46:45",
        ")",
        "(",
        "san c4 @1:54:53",
        ")",
        "san e5 @1:63:62",
        "result *",
    ];
    assert_eq!(out, [Ok(strs(&expected))]);

    let g = one_game("1. e4 (1. d4 d5 (1... Nf6 2. c4 (2. Nf3)) 2. c4) (1. c4) 1... e5 *");
    let e4 = &g.moves.nodes[0];
    assert_eq!(e4.variations.len(), 2);
    let d4_line = &e4.variations[0];
    assert_eq!(d4_line.nodes.iter().map(|n| n.san.as_str()).collect::<Vec<_>>(), ["d4", "d5", "c4"]);
    let nf6_line = &d4_line.nodes[1].variations[0];
    assert_eq!(nf6_line.nodes[1].variations[0].nodes[0].san, "Nf3");
    assert_eq!(sans(&g), ["e4", "e5"]);
}

/// Skips every variation; counts the events it still gets.
#[derive(Default)]
struct SkipVariations {
    sans: Vec<String>,
    ends: usize,
}

impl Visitor for SkipVariations {
    type Output = (Vec<String>, usize);
    fn san(&mut self, san: &str, _at: Location) {
        self.sans.push(san.to_owned());
    }
    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }
    fn end_variation(&mut self) {
        self.ends += 1;
    }
    fn end_game(&mut self) -> Self::Output {
        (std::mem::take(&mut self.sans), std::mem::take(&mut self.ends))
    }
}

#[test]
fn skipped_variations_produce_nothing() {
    let pgn = "1. e4 (1. d4 (1. c4 { x } ) d5) e5 (1... c5 $1) 2. Nf3 *";
    let out = Reader::new(pgn.as_bytes()).read_game(&mut SkipVariations::default()).unwrap();
    assert_eq!(out, Some((strs(&["e4", "e5", "Nf3"]), 0)));
}

/// Skips every game's movetext.
struct TagsOnly(Vec<String>, bool);

impl Visitor for TagsOnly {
    type Output = Vec<String>;
    fn tag(&mut self, name: &str, _value: &str) {
        self.0.push(name.to_owned());
    }
    fn begin_movetext(&mut self) -> Skip {
        Skip(true)
    }
    fn san(&mut self, _: &str, _: Location) {
        self.1 = true;
    }
    fn outcome(&mut self, _: GameResult) {
        self.1 = true;
    }
    fn end_game(&mut self) -> Vec<String> {
        assert!(!self.1, "movetext events after Skip(true)");
        std::mem::take(&mut self.0)
    }
}

#[test]
fn skipped_games_produce_only_tags() {
    let pgn = "[A \"1\"]\n[B \"2\"]\n\n1. e4 { c } (1. d4) e5 1-0\n\n[C \"3\"]\n\n1. d4 *\n";
    let mut reader = Reader::new(pgn.as_bytes());
    let mut v = TagsOnly(Vec::new(), false);
    assert_eq!(reader.read_game(&mut v).unwrap(), Some(strs(&["A", "B"])));
    assert_eq!(reader.read_game(&mut v).unwrap(), Some(strs(&["C"])));
    assert_eq!(reader.read_game(&mut v).unwrap(), None);

    let mut reader = Reader::new(pgn.as_bytes());
    assert!(reader.skip_game().unwrap());
    assert!(reader.skip_game().unwrap());
    assert!(!reader.skip_game().unwrap());
    assert_eq!(reader.games_started(), 2);
}

#[test]
fn nags_and_suffix_annotations() {
    let g = one_game("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $14 Nf6 $1 $255 5. O-O ! Be7 ?? 6. Nc3+!? *");
    let got: Vec<(&str, &[u8])> = g.moves.nodes.iter().map(|n| (n.san.as_str(), n.nags.as_slice())).collect();
    let expected: Vec<(&str, &[u8])> = vec![
        ("e4", &[1]),
        ("e5", &[2]),
        ("Nf3", &[3]),
        ("Nc6", &[4]),
        ("Bb5", &[5]),
        ("a6", &[6]),
        ("Ba4", &[14]),
        ("Nf6", &[1, 255]),
        ("O-O", &[1]),
        ("Be7", &[4]),
        ("Nc3+", &[5]),
    ];
    assert_eq!(got, expected);
}

#[test]
fn check_marks_promotions_and_castling_with_zeros() {
    let g = one_game("1. 0-0 0-0-0+ 2. O-O-O# O-O 3. e8=Q+ exd1=N# 4. 0-0# 0-0-0 *");
    assert_eq!(sans(&g), ["O-O", "O-O-O+", "O-O-O#", "O-O", "e8=Q+", "exd1=N#", "O-O#", "O-O-O"]);
}

#[test]
fn null_moves_are_handed_out_as_double_dash() {
    let g = one_game("1. e4 -- 2. -- e5 *");
    assert_eq!(sans(&g), ["e4", "--", "--", "e5"]);
}

#[test]
fn chinese_piece_letters_come_through() {
    let pgn = "1. e4 e5 2. 马f3 马c6 3. 象b5 a6 4. 王e2 后e7 5. 车e1 兵a5 6. 車f1 馬xf6+! *";
    let g = one_game(pgn);
    assert_eq!(sans(&g), ["e4", "e5", "马f3", "马c6", "象b5", "a6", "王e2", "后e7", "车e1", "兵a5", "車f1", "馬xf6+"]);
    assert_eq!(g.moves.nodes[11].nags, [1]);
    // Columns count characters, offsets bytes: `马` is one character of three bytes.
    let out = events("1. 马f3 马c6 *");
    assert_eq!(out, [Ok(strs(&["movetext", "san 马f3 @1:4:3", "san 马c6 @1:8:9", "result *"]))]);
}

#[test]
fn move_numbers_in_all_forms() {
    let g = one_game("1.e4 e5 2 . Nf3 2... Nc6 3.Bb5 3...a6 4. Ba4 4 ... Nf6 5.O-O *");
    assert_eq!(sans(&g), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]);
}

#[test]
fn results() {
    for (token, result) in [
        ("1-0", GameResult::WhiteWins),
        ("0-1", GameResult::BlackWins),
        ("1/2-1/2", GameResult::Draw),
        ("*", GameResult::Unknown),
        ("½-½", GameResult::Draw),
    ] {
        let g = one_game(&format!("[Result \"{token}\"]\n\n1. e4 {token}\n"));
        assert_eq!(g.result, Some(result), "{token}");
        assert_eq!(sans(&g), ["e4"]);
    }
    assert_eq!("1/2-1/2".parse::<GameResult>(), Ok(GameResult::Draw));
    assert!("1-1".parse::<GameResult>().is_err());
}

#[test]
fn game_boundaries_without_blank_lines_or_results() {
    let pgn = concat!(
        "[Event \"a\"]\n1. e4 e5\n",            // no blank line, no result
        "[Event \"b\"]\n1. d4 *\n",             // next game right after
        "1. c4 *\n",                            // no tags
        "[Event \"c\"]\n\n",                    // tags only
        "[Event \"d\"]\n\n   1. f4   1-0   \n", // extra whitespace
        "0-1\n",                                // only a result
        "[Event \"e\"]",                        // tags only, at end of input
    );
    let all: Vec<Game> = games(pgn).into_iter().map(Result::unwrap).collect();
    let summary: Vec<(Option<&str>, Vec<&str>, Option<GameResult>)> =
        all.iter().map(|g| (g.tag("Event"), sans(g), g.result)).collect();
    assert_eq!(
        summary,
        [
            (Some("a"), vec!["e4", "e5"], None),
            (Some("b"), vec!["d4"], Some(GameResult::Unknown)),
            (None, vec!["c4"], Some(GameResult::Unknown)),
            (Some("c"), vec![], None),
            (Some("d"), vec!["f4"], Some(GameResult::WhiteWins)),
            (None, vec![], Some(GameResult::BlackWins)),
            (Some("e"), vec![], None),
        ]
    );
}

#[test]
fn escape_lines_and_line_comments() {
    let out = events("% header\n[Event \"x\"]\n% inside tags\n1. e4 ; note { not a brace\n% more\ne5 {a;b} *\n");
    assert_eq!(
        out,
        [Ok(strs(&[
            "tag Event=x",
            "movetext",
            "san e4 @4:4:38",
            "comment  note { not a brace",
            "san e5 @6:1:69",
            "comment a;b",
            "result *",
        ]))]
    );
}

#[test]
fn comments_before_moves_and_between_variations() {
    let g = one_game("{ start } 1. e4 { after e4 } (1. d4 { in d4 }) { after var } 1... e5 { end } *");
    let e4 = &g.moves.nodes[0];
    assert_eq!(e4.comments_before, ["start"]);
    assert_eq!(e4.comments_after, ["after e4"]);
    assert_eq!(e4.variations[0].nodes[0].comments_after, ["in d4"]);
    let e5 = &g.moves.nodes[1];
    assert_eq!(e5.comments_before, ["after var"]);
    assert_eq!(e5.comments_after, ["end"]);
}

#[test]
fn very_long_lines() {
    let mut line = String::new();
    let mut n = 0;
    while line.len() < 40_000 {
        let k = n / 4 + 1;
        line.push_str(&format!("{k}. Nf3 Nf6 {k}... Ng1 Ng8 "));
        n += 4;
    }
    line.push_str("1/2-1/2");
    let g = one_game(&format!("[Event \"long\"]\n\n{line}\n"));
    assert_eq!(g.mainline().count(), n);
    // One comment of 100 kB is fine with the default limit.
    let comment = "x ".repeat(50_000);
    let g = one_game(&format!("1. e4 {{{comment}}} *"));
    assert_eq!(g.moves.nodes[0].comments_after[0].len(), comment.trim_end().len());
}

#[test]
fn too_large_comment_or_tag_is_an_error_and_reading_goes_on() {
    let pgn = format!(
        "[Event \"{}\"]\n\n1. e4 *\n\n1. e4 {{{}}} e5 *\n\n[Event \"ok\"]\n1. d4 *\n",
        "v".repeat(500),
        "c\n".repeat(500)
    );
    for capacity in [16, 1 << 16] {
        let mut reader = Reader::with_capacity(capacity, pgn.as_bytes());
        reader.set_max_token_len(100);
        let e = reader.read_owned_game().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::TooLarge { what: "tag", limit: 100 }), "{e}");
        assert_eq!((e.game(), e.line(), e.column()), (1, 1, 1));
        let e = reader.read_owned_game().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::TooLarge { what: "comment", limit: 100 }), "{e}");
        assert_eq!(e.to_string(), "game 2, line 5, column 7: comment longer than 100 bytes");
        let g = reader.read_owned_game().unwrap().unwrap();
        assert_eq!(g.tag("Event"), Some("ok"));
        assert_eq!(reader.location().line, 508);
        assert!(reader.read_owned_game().unwrap().is_none());
    }
}

#[test]
fn error_positions() {
    let cases: &[(&str, &str)] = &[
        ("[Event \"x\"]\n\n1. e4 { never closed\n e5 *\n", "game 1, line 3, column 7: unterminated comment"),
        ("[Event \"x]\n\n1. e4 *\n", "game 1, line 1, column 8: unterminated tag value"),
        ("[Event \"x\"\n\n1. e4 *\n", "game 1, line 1, column 11: unterminated tag (missing ']')"),
        ("[Na-me \"x\"]\n1. e4 *", "game 1, line 1, column 2: invalid tag name 'Na-me'"),
        ("[%clk 0:01]\n1. e4 *", "game 1, line 1, column 2: invalid tag name '%clk'"),
        ("[Event x]\n1. e4 *", "game 1, line 1, column 8: missing tag value (expected '\"')"),
        ("1. e4\n  e5 ) 2. Nf3 *", "game 1, line 2, column 6: unexpected ')'"),
        ("1. e4 (1. d4 *", "game 1, line 1, column 7: unterminated variation (missing ')')"),
        ("1. e4 (1. d4 (1. c4) \n[Event \"next\"]", "game 1, line 1, column 7: unterminated variation (missing ')')"),
        ("1. e4 & e5 *", "game 1, line 1, column 7: unexpected character '&'"),
        ("1. e4 } e5 *", "game 1, line 1, column 7: unexpected character '}'"),
        ("1. e4 $256 *", "game 1, line 1, column 7: invalid NAG '$256'"),
        ("1. e4 $ *", "game 1, line 1, column 7: invalid NAG '$'"),
        ("1. e4!!! *", "game 1, line 1, column 6: invalid annotation '!!!'"),
        ("1. e4 2-0 *", "game 1, line 1, column 7: invalid token '2-0'"),
        ("1. e4 e5 2. N@f3 *", "game 1, line 1, column 13: crazyhouse drop 'N@f3' is not standard chess"),
        ("1. e4 e5 2. Nf3 @f6 *", "game 1, line 1, column 17: unexpected character '@'"),
        ("1. e4 e5\n  %not an escape *", "game 1, line 2, column 3: unexpected character '%'"),
    ];
    for &(pgn, message) in cases {
        assert_eq!(only_errors(pgn), [message], "{pgn:?}");
    }
}

#[test]
fn only_the_first_error_of_a_game_is_reported() {
    assert_eq!(only_errors("1. e4 ) ) N@f3 } *"), ["game 1, line 1, column 7: unexpected ')'"]);
}

#[test]
fn reading_resumes_after_bad_games() {
    let pgn = concat!(
        "[Event \"1\"]\n\n1. e4 ) 1-0\n\n",  // bad: stray ')'
        "[Event \"2\"]\n\n1. e4 e5 1-0\n\n", // good
        "[Event \"3\"]\n[Bad Tag \"x\"]\n[Site \"s\"]\n\n1. d4 ( 1. c4 *\n\n", // bad tag, then more faults
        "[Event \"4\"]\n\n1. e4 { lost brace\n2. Nf3 *\n\n", // comment runs into the next game
        "[Event \"5\"]\n\n1. c4 *\n\n",      // good
        "[Event \"6\"]\n\n1. e4 e5 2. N@f3 d6 *\n", // drop
        "[Event \"7\"]\n\n1. f4 1-0\n",      // good
    );
    let mut reader = Reader::new(pgn.as_bytes());
    let mut outcomes = Vec::new();
    loop {
        match reader.read_owned_game() {
            Ok(Some(g)) => outcomes.push(format!("ok {} {}", g.tag("Event").unwrap(), sans(&g).join(" "))),
            Ok(None) => break,
            Err(e) => outcomes.push(e.to_string()),
        }
    }
    assert_eq!(
        outcomes,
        [
            "game 1, line 3, column 7: unexpected ')'",
            "ok 2 e4 e5",
            "game 3, line 10, column 6: missing tag value (expected '\"')",
            "game 4, line 17, column 7: unterminated comment",
            "ok 5 c4",
            "game 6, line 26, column 13: crazyhouse drop 'N@f3' is not standard chess",
            "ok 7 f4",
        ]
    );
    assert_eq!(reader.games_started(), 7);
}

#[test]
fn unterminated_comment_stops_only_at_a_tag_line() {
    // Lines starting with `[` that are not tag pairs stay in the comment.
    let g = one_game("1. e4 {\n[%clk 0:01:00]\n[not a tag]\n} e5 *");
    assert_eq!(sans(&g), ["e4", "e5"]);
    assert_eq!(g.moves.nodes[0].comments_after, ["[%clk 0:01:00]\n[not a tag]"]);
}

#[test]
fn error_carries_location_and_kind() {
    let e = games("\n\n   1. e4 ) *").remove(0).unwrap_err();
    assert_eq!(e.game(), 1);
    assert_eq!(e.location(), Location { line: 3, column: 10, offset: 11 });
    assert!(matches!(e.kind(), ErrorKind::UnexpectedCloseParen));
    assert!(!e.is_io());
    let custom = PgnError::new(4, e.location(), ErrorKind::Other("illegal move 'Ke9'".into()));
    assert_eq!(custom.to_string(), "game 4, line 3, column 10: illegal move 'Ke9'");
}

/// Gives `good` bytes, then fails.
struct Failing<'a> {
    good: &'a [u8],
}

impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.good.is_empty() {
            return Err(io::Error::other("disk on fire"));
        }
        let n = buf.len().min(self.good.len());
        buf[..n].copy_from_slice(&self.good[..n]);
        self.good = &self.good[n..];
        Ok(n)
    }
}

/// Interrupts every other read.
struct Interrupting<'a> {
    data: &'a [u8],
    flip: bool,
}

impl Read for Interrupting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.flip = !self.flip;
        if self.flip {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = buf.len().min(self.data.len()).min(3);
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn io_errors_stop_the_reader_and_interruptions_are_retried() {
    let mut reader = Reader::new(Failing { good: b"1. e4 e5 *\n\n1. d4" });
    assert_eq!(sans(&reader.read_owned_game().unwrap().unwrap()), ["e4", "e5"]);
    let e = reader.read_owned_game().unwrap_err();
    assert!(e.is_io(), "{e}");
    assert!(e.to_string().contains("disk on fire"));
    assert!(reader.read_owned_game().unwrap().is_none());

    let pgn = b"[Event \"x\"]\n\n1. e4 { slow } e5 1-0\n";
    let g = Reader::with_capacity(16, Interrupting { data: pgn, flip: false }).read_owned_game().unwrap().unwrap();
    assert_eq!(sans(&g), ["e4", "e5"]);
}

#[test]
fn events_for_every_feature_match_across_buffer_sizes() {
    // `events` compares a 16-byte buffer with a 64 KiB one.
    let pgn = concat!(
        "\u{feff}% escape\n[Event \"E \\\"q\\\"\"]\r\n[Site \"马\"]\r\n\r\n",
        "{ first } 1. e4!? $14 { a } ( 1. d4 ; line\n d5 ) 1... e5 2. 0-0 -- 3. 象b5+ ?! 1/2-1/2\n",
        "1. e4 { unterminated\n[Event \"n\"]\n1. Nf3 N@f6 *\n1. d4 ) *\n",
    );
    let out = events(pgn);
    assert_eq!(out.len(), 4);
    assert!(out[0].is_ok());
    assert_eq!(out[1], Err("game 2, line 7, column 7: unterminated comment".to_owned()));
    assert!(out[2].as_ref().unwrap_err().contains("crazyhouse drop 'N@f6'"));
    assert!(out[3].as_ref().unwrap_err().contains("unexpected ')'"));
}

#[test]
fn events_visitor_sees_tags_then_movetext() {
    let mut v = Events::default();
    let out = Reader::new(&b"[A \"b\"]\n1. e4 *"[..]).read_game(&mut v).unwrap().unwrap();
    assert_eq!(out, ["tag A=b", "movetext", "san e4 @2:4:11", "result *"]);
}

#[test]
fn deep_nesting_is_capped() {
    let depth = guoxiang_pgn::MAX_DEPTH + 10;
    let pgn = format!("1. e4 {} e5 {} *\n\n1. d4 *", "( e4 ".repeat(depth), ")".repeat(depth));
    let all = games(&pgn);
    assert_eq!(all.len(), 2);
    let e = all[0].as_ref().unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TooDeep { .. }), "{e}");
    assert_eq!(sans(all[1].as_ref().unwrap()), ["d4"]);
    // Up to the limit is fine.
    let depth = guoxiang_pgn::MAX_DEPTH;
    let pgn = format!("1. e4 {} e5 {} *", "( e4 ".repeat(depth), ")".repeat(depth));
    assert!(games(&pgn)[0].is_ok());
}
