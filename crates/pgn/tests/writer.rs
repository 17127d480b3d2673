//! Hand-written tests of the export-format writer.

mod common;

use common::normalize_comments;
use guoxiang_pgn::{Game, GameResult, Line, MAX_LINE, Node, Numbering, Reader, Writer, write_game};

fn read(pgn: &str) -> Game {
    Reader::new(pgn.as_bytes()).read_owned_game().unwrap().unwrap()
}

fn movetext(pgn: &str) -> &str {
    pgn.split_once("\n\n").unwrap().1.trim_end()
}

#[test]
fn export_format_of_a_read_game() {
    let input = concat!(
        "[White \"W\"]\n[Black \"B\"]\n[ECO \"C60\"]\n[Event \"E\"]\n[Annotator \"A\"]\n",
        "{ Intro } 1. e4 e5! (1... c5 $1 { Sicilian } 2. Nf3) 2. Nf3 { dev } Nc6 3. Bb5 a6 *\n"
    );
    let out = read(input).to_pgn();
    assert_eq!(
        out,
        concat!(
            "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"W\"]\n",
            "[Black \"B\"]\n[Result \"*\"]\n[ECO \"C60\"]\n[Annotator \"A\"]\n\n",
            "{ Intro } 1. e4 e5 $1 (1... c5 $1 { Sicilian } 2. Nf3) 2. Nf3 { dev } 2... Nc6\n",
            "3. Bb5 a6 *\n\n",
        )
    );
}

#[test]
fn result_tag_follows_the_result_token_when_missing() {
    let out = read("1. e4 1-0").to_pgn();
    assert!(out.contains("[Result \"1-0\"]\n"), "{out}");
    assert!(out.ends_with("1. e4 1-0\n\n"));
    // A result tag without a result token gives the token.
    let out = read("[Result \"0-1\"]\n1. e4").to_pgn();
    assert!(out.ends_with("1. e4 0-1\n\n"), "{out}");
    // An empty game.
    assert_eq!(movetext(&Game::default().to_pgn()), "*");
}

#[test]
fn numbering_from_a_fen_with_black_to_move() {
    let input = concat!(
        "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12\"]\n[SetUp \"1\"]\n\n",
        "e5 (c5 Nf3) Nf3 Nc6 *"
    );
    let out = read(input).to_pgn();
    assert_eq!(movetext(&out), "12... e5 (12... c5 13. Nf3) 13. Nf3 Nc6 *");
}

#[test]
fn incremental_writer() {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out);
    w.tag("Site", "here");
    w.tag("FEN", "8/8/8/8/8/8/8/K6k w - - 0 40");
    w.set_numbering(Numbering::new(7, true));
    w.comment("start");
    w.san("Kb1");
    w.nag(3);
    w.begin_variation();
    w.san("Ka2");
    w.begin_variation();
    w.san("Kb2");
    w.end_variation();
    w.comment("}} braces {{ dropped }");
    w.end_variation();
    w.san("Kg2");
    w.begin_variation();
    w.end_variation();
    w.san("Kc2");
    w.begin_variation();
    w.san("Kb2"); // left open: finish closes it
    w.finish(GameResult::Draw).unwrap();
    // The writer is ready for the next game.
    w.san("e4");
    w.finish(GameResult::Unknown).unwrap();
    let text = String::from_utf8(out).unwrap();
    let (first, second) = text.split_once("\n\n[Event").unwrap();
    assert_eq!(
        movetext(first),
        "{ start } 7... Kb1 $3 (7... Ka2 (7... Kb2) { braces {{ dropped }) 8. Kg2 ()\n8... Kc2 (8... Kb2) 1/2-1/2"
    );
    assert!(first.contains("[Site \"here\"]"));
    assert!(first.contains("[Result \"1/2-1/2\"]"));
    assert_eq!(movetext(second), "1. e4 *");
}

#[test]
fn long_tokens_get_their_own_line_and_lines_stay_short() {
    let mut game = Game::default();
    for i in 0..200 {
        let mut node = Node::new(if i % 2 == 0 { "Nf3" } else { "Nf6" });
        if i % 17 == 0 {
            node.nags.push(13);
            node.comments_after.push(format!("c{i} {} end", "w".repeat(i)));
        }
        if i % 23 == 0 {
            node.variations.push(Line { nodes: vec![Node::new("a3"), Node::new("a6")], comments: vec![] });
        }
        game.moves.nodes.push(node);
    }
    game.result = Some(GameResult::WhiteWins);
    let out = game.to_pgn();
    for line in movetext(&out).lines() {
        let long_word = line.starts_with('w') && line.chars().all(|c| c == 'w');
        assert!(line.chars().count() <= MAX_LINE || long_word, "{line:?}");
        assert!(!line.starts_with(')') && !line.starts_with(' '), "{line:?}");
    }
    assert!(movetext(&out).lines().any(|l| l == "w".repeat(170)));
    let mut again = read(&out);
    normalize_comments(&mut again);
    normalize_comments(&mut game);
    for (i, (a, b)) in again.moves.nodes.iter().zip(&game.moves.nodes).enumerate() {
        assert_eq!(a, b, "node {i}");
    }
    assert_eq!(again.moves.nodes.len(), game.moves.nodes.len());
}

#[test]
fn tag_values_are_escaped_and_kept_on_one_line() {
    let mut game = Game::default();
    game.tags.push(("Event".into(), "a \"b\" \\c\nd".into()));
    let out = game.to_pgn();
    assert!(out.starts_with("[Event \"a \\\"b\\\" \\\\c d\"]\n"), "{out}");
    assert_eq!(read(&out).tag("Event"), Some("a \"b\" \\c d"));
}

#[test]
fn write_read_identity_handwritten() {
    let input = concat!(
        "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n[White \"马\"]\n",
        "[Black \"B\"]\n[Result \"0-1\"]\n[Extra \"x\"]\n\n",
        "{ pre } 1. e4 $1 $14 { a } { b } (1. d4 { c } (1. c4) { between } (1. Nf3 Nf6) { tail }) ",
        "1... e5 2. 马f3 -- 3. O-O-O+ ({ only comment } 3. Kd1) 3... Qxf2# 0-1\n"
    );
    let game = read(input);
    let written = game.to_pgn();
    assert_eq!(read(&written), game);
    // A comment between two variations moves into the first one.
    assert_eq!(
        movetext(&written),
        concat!(
            "{ pre } 1. e4 $1 $14 { a } { b } (1. d4 { c } (1. c4 { between }) (1. Nf3 Nf6)\n",
            "{ tail }) 1... e5 2. 马f3 -- 3. O-O-O+ ({ only comment } 3. Kd1) 3... Qxf2# 0-1"
        )
    );
    assert_eq!(written.split_once("\n\n").unwrap().0, input.split_once("\n\n").unwrap().0);
}

#[test]
fn write_game_into_any_writer() {
    let game = read("1. d4 d5 *");
    let mut out = Vec::new();
    write_game(&mut out, &game).unwrap();
    write_game(&mut out, &game).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(Reader::new(text.as_bytes()).games().count(), 2);
}

#[test]
fn free_text_cannot_end_a_tag_or_add_one() {
    let evil = "x\"]\n[Result \"1-0\"]\n[Black \"y";
    let mut game = Game::default();
    game.tags.push(("Event".into(), evil.into()));
    game.tags.push(("White".into(), format!("a\\\"]\r\n[WhiteElo \"3000\x0b{evil}")));
    game.tags.push(("Black".into(), "b".into()));
    game.tags.push(("Result".into(), "*".into()));
    let out = game.to_pgn();
    let tag_lines = out.lines().filter(|l| l.starts_with('[')).count();
    assert_eq!(tag_lines, 7, "one line per tag of the seven-tag roster:\n{out}");
    let back = read(&out);
    assert_eq!(back.tags.len(), 7, "no tag added: {:?}", back.tags);
    assert_eq!(back.tag("Event"), Some(evil.replace('\n', " ").as_str()), "the text kept, its line break a blank");
    assert_eq!(back.tag("White"), Some(format!("a\\\"]  [WhiteElo \"3000 {}", evil.replace('\n', " ")).as_str()));
    assert_eq!((back.tag("Black"), back.tag("Result"), back.tag("WhiteElo")), (Some("b"), Some("*"), None));
}

#[test]
fn a_tag_name_is_written_as_a_name() {
    let mut game = Game::default();
    game.tags.push(("Bad Name\"]\n[Result".into(), "v".into()));
    game.tags.push(("".into(), "w".into()));
    game.tags.push(("Result".into(), "*".into()));
    let out = game.to_pgn();
    assert_eq!(out.lines().filter(|l| l.starts_with('[')).count(), 9, "the roster and two more:\n{out}");
    let back = read(&out);
    assert_eq!(back.tags.len(), 9, "{:?}", back.tags);
    assert_eq!(back.tag("Bad_Name____Result"), Some("v"));
    assert_eq!(back.tag("_"), Some("w"));
    assert_eq!(back.tag("Result"), Some("*"));
}
