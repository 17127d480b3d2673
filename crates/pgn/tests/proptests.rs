//! Property tests: no input makes the reader panic or loop, chunk boundaries
//! do not matter, and writing then reading a game gives the same game.

mod common;

use common::{all_events, normalize_comments};
use guoxiang_pgn::{Game, GameResult, Line, MAX_LINE, Node, Reader};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Fragments that exercise every branch of the reader when shuffled.
const FRAGMENTS: &[&str] = &[
    "[",
    "]",
    "\"",
    "\\",
    "{",
    "}",
    "(",
    ")",
    ";",
    "%",
    "$",
    "$3",
    "$999",
    "!",
    "?",
    "!?",
    "1.",
    "12...",
    ".",
    "e4",
    "Nf3+",
    "exd8=Q#",
    "0-0",
    "0-0-0+",
    "O-O",
    "--",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "½-½",
    "马f3",
    "N@f6",
    "2-0",
    "\n",
    "\r\n",
    " ",
    "\t",
    "\u{feff}",
    "[Event \"x\"]\n",
    "[Site \"a\\\"b\"]",
    "[bad-name \"v\"]",
    "[%clk 0:01]",
    "{ c }",
    "\n[Event \"y\"",
    "\u{1}",
    "\u{ff}",
    "é",
    "@",
    "&",
];

fn soup() -> impl Strategy<Value = String> {
    vec(select(FRAGMENTS), 0..80).prop_map(|parts| parts.concat())
}

fn san() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[KQRBN][a-h]?[1-8]?x?[a-h][1-8][+#]?",
        3 => "([a-h]x)?[a-h][1-8](=[QRBN])?[+#]?",
        1 => "O-O(-O)?[+#]?",
        1 => Just("--".to_owned()),
        1 => "[马象王后车兵車馬][a-h]?x?[a-h][1-8][+#]?",
    ]
}

/// Comment text: words (no `}`) separated by single spaces, possibly none.
fn comment() -> impl Strategy<Value = String> {
    vec("[a-zA-Z0-9éü马\\[\\]%(){;\"\\\\.,:+#=!?$*-]{1,12}", 0..6).prop_map(|words| words.join(" "))
}

fn node(variations: BoxedStrategy<Vec<Line>>) -> impl Strategy<Value = Node> {
    (vec(comment(), 0..2), san(), vec(any::<u8>(), 0..3), vec(comment(), 0..3), variations).prop_map(
        |(comments_before, san, nags, comments_after, variations)| Node {
            comments_before,
            san,
            nags,
            comments_after,
            variations,
            ..Node::default()
        },
    )
}

/// Puts comments where the builder would (see `Node::comments_before` and
/// `Line::comments`).
fn canonical(mut line: Line) -> Line {
    for i in 1..line.nodes.len() {
        if line.nodes[i - 1].variations.is_empty() {
            line.nodes[i].comments_before.clear();
        }
    }
    if line.nodes.last().is_some_and(|n| n.variations.is_empty()) {
        line.comments.clear();
    }
    line
}

fn line(depth: u32, min_nodes: usize) -> BoxedStrategy<Line> {
    let variations = if depth == 0 {
        Just(Vec::new()).boxed()
    } else {
        prop_oneof![3 => Just(Vec::new()), 1 => vec(line(depth - 1, 1), 1..3)].boxed()
    };
    (vec(node(variations), min_nodes..8), vec(comment(), 0..2))
        .prop_map(|(nodes, comments)| canonical(Line { nodes, comments }))
        .boxed()
}

fn tag_value() -> impl Strategy<Value = String> {
    "[ -~éü马]{0,20}"
}

fn game() -> impl Strategy<Value = Game> {
    let extra = vec(("[A-Za-z][A-Za-z0-9_]{0,8}", tag_value()), 0..5);
    let result = select(&[GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw, GameResult::Unknown][..]);
    (vec(tag_value(), 7), extra, line(3, 0), result).prop_map(|(roster, extra, moves, result)| {
        let mut tags: Vec<(String, String)> = ROSTER.iter().zip(roster).map(|(n, v)| (n.to_string(), v)).collect();
        for (name, value) in extra {
            if !tags.iter().any(|(n, _)| *n == name) {
                tags.push((name, value));
            }
        }
        Game { tags, moves, result: Some(result) }
    })
}

fn read_all(text: &str) -> Vec<Game> {
    Reader::new(text.as_bytes()).games().map(|g| g.expect("written PGN reads back")).collect()
}

fn movetext_lines(pgn: &str) -> impl Iterator<Item = &str> {
    pgn.lines().filter(|l| !l.starts_with('['))
}

/// Reading `text` in any chunk size gives the same events, and every game
/// read from it writes within the line limit and reads back the same.
fn soup_property(text: &str) -> Result<(), TestCaseError> {
    let small = all_events(text.as_bytes(), 16);
    let large = all_events(text.as_bytes(), 1 << 16);
    prop_assert_eq!(small, large);
    for game in Reader::new(text.as_bytes()).games().flatten() {
        let written = game.to_pgn();
        for line in movetext_lines(&written) {
            // Only a single over-long token may exceed the limit.
            prop_assert!(line.chars().count() <= MAX_LINE || !line.trim().contains(' '), "{:?}", line);
        }
        let again = read_all(&written);
        prop_assert_eq!(again.len(), 1);
        let (mut a, mut b) = (game.clone(), again[0].clone());
        normalize_comments(&mut a);
        normalize_comments(&mut b);
        // A `;` comment may hold a `}`, which brace comments cannot.
        if format!("{:?}", a.moves).contains('}') {
            continue;
        }
        prop_assert_eq!(&a.moves, &b.moves);
        for (name, _) in &a.tags {
            let original = a.tag(name).map(|v| v.replace('\t', " "));
            prop_assert_eq!(b.tag(name).map(str::to_owned), original);
        }
        prop_assert_eq!(b.to_pgn(), written);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in vec(any::<u8>(), 0..3000)) {
        // all_events also checks that every call makes progress.
        let small = all_events(&bytes, 16);
        let large = all_events(&bytes, 1 << 16);
        prop_assert_eq!(small, large);
    }

    #[test]
    fn pgn_like_soup_never_panics_and_good_games_round_trip(text in soup()) {
        soup_property(&text)?;
    }

    #[test]
    fn generated_games_round_trip(game in game()) {
        let written = game.to_pgn();
        for line in movetext_lines(&written) {
            prop_assert!(line.chars().count() <= MAX_LINE, "{:?}", line);
        }
        let again = read_all(&written);
        prop_assert_eq!(again.len(), 1);
        let (mut expected, mut got) = (game, again[0].clone());
        normalize_comments(&mut expected);
        normalize_comments(&mut got);
        prop_assert_eq!(&got, &expected);
        prop_assert_eq!(got.to_pgn(), written);
    }

    #[test]
    fn several_generated_games_in_one_stream(games in vec(game(), 1..4)) {
        let mut text = String::new();
        for g in &games {
            text.push_str(&g.to_pgn());
        }
        let again = read_all(&text);
        prop_assert_eq!(again.len(), games.len());
        for (mut a, mut b) in games.into_iter().zip(again) {
            normalize_comments(&mut a);
            normalize_comments(&mut b);
            prop_assert_eq!(a, b);
        }
    }
}

/// Cases the random tests found, kept so they run every time.
#[test]
fn soup_regressions() {
    // A comment whose first word is 80 characters long was written as
    // `{ word…` on an 82-character line.
    let cases = ["{$3exd8=Q#exd8=Q#12...Nf3+[exd8=Q#$3$999([Nf3+!?$3($31/2-1/2[(!?Nf3+$3½-½Nf3+[[[{ c };"];
    for text in cases {
        if let Err(e) = soup_property(text) {
            panic!("{text:?}: {e}");
        }
    }
}
