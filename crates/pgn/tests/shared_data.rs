//! Tests on the shared reference games (skipped when the data is absent).

mod common;

use common::{all_events, all_games, normalize_comments, pgn_file};
use guoxiang_pgn::{ErrorKind, Game, GameResult, Line, Location, MAX_LINE, Reader, Skip, Visitor};

/// Counts per game, mainline moves separately from variation moves.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Counts {
    mainline: u64,
    variation_moves: u64,
    comments: u64,
    nags: u64,
    variations: u64,
    depth: u32,
    result: Option<GameResult>,
    ply_count_tag: Option<u64>,
}

impl Visitor for Counts {
    type Output = Counts;
    fn begin_game(&mut self) {
        *self = Counts::default();
    }
    fn tag(&mut self, name: &str, value: &str) {
        if name == "PlyCount" {
            self.ply_count_tag = value.parse().ok();
        }
    }
    fn san(&mut self, _san: &str, _at: Location) {
        if self.depth == 0 {
            self.mainline += 1;
        } else {
            self.variation_moves += 1;
        }
    }
    fn nag(&mut self, _nag: u8) {
        self.nags += 1;
    }
    fn comment(&mut self, _text: &str) {
        self.comments += 1;
    }
    fn begin_variation(&mut self) -> Skip {
        self.variations += 1;
        self.depth += 1;
        Skip(false)
    }
    fn end_variation(&mut self) {
        self.depth -= 1;
    }
    fn outcome(&mut self, result: GameResult) {
        self.result = Some(result);
    }
    fn end_game(&mut self) -> Counts {
        std::mem::take(self)
    }
}

fn counts(input: &[u8]) -> (Vec<Counts>, Vec<guoxiang_pgn::PgnError>) {
    let mut reader = Reader::new(input);
    let (mut ok, mut errors) = (Vec::new(), Vec::new());
    loop {
        match reader.read_game(&mut Counts::default()) {
            Ok(Some(c)) => ok.push(c),
            Ok(None) => break,
            Err(e) => errors.push(e),
        }
    }
    (ok, errors)
}

#[test]
fn lichess_2016_game_and_move_counts() {
    let Some(input) = pgn_file("lichess_db_2016-05_excerpt.pgn") else {
        return;
    };
    let (games, errors) = counts(&input);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(games.len(), 4798);
    assert_eq!(games.iter().map(|g| g.mainline).sum::<u64>(), 217_481);
    assert!(games.iter().all(|g| g.variations == 0 && g.comments == 0 && g.result.is_some()));
    assert_eq!(games.iter().filter(|g| g.result == Some(GameResult::Unknown)).count(), 2);
    assert!(games.iter().any(|g| g.mainline == 0), "some games have no moves");
    for (i, g) in games.iter().enumerate() {
        if let Some(plies) = g.ply_count_tag {
            assert_eq!(g.mainline, plies, "game {}", i + 1);
        }
    }
}

#[test]
fn lichess_2016_skipping_and_small_buffer_agree() {
    let Some(input) = pgn_file("lichess_db_2016-05_excerpt.pgn") else {
        return;
    };
    let mut reader = Reader::new(&input[..]);
    let mut n = 0;
    while reader.skip_game().unwrap() {
        n += 1;
    }
    assert_eq!(n, 4798);
    // Chunk boundaries everywhere: a tiny buffer gives the same events.
    let head = &input[..200_000];
    assert_eq!(all_events(head, 16), all_events(head, 1 << 16));
}

#[test]
fn lichess_2017_clock_comments() {
    let Some(input) = pgn_file("lichess_db_2017-05_excerpt_half_a.pgn") else {
        return;
    };
    let (games, errors) = counts(&input);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(games.len(), 149);
    for (i, g) in games.iter().enumerate() {
        // A few games (without a clock) have no comments at all.
        assert!(g.comments == 0 || g.comments == g.mainline, "one clock comment per move in game {}", i + 1);
        if let Some(plies) = g.ply_count_tag {
            assert_eq!(g.mainline, plies, "game {}", i + 1);
        }
    }
    assert!(games.iter().filter(|g| g.comments > 0).count() > 140);
    let games: Vec<Game> = all_games(&input).into_iter().map(Result::unwrap).collect();
    for g in &games {
        let clocked = g.moves.nodes.iter().any(|n| !n.comments_after.is_empty());
        for node in g.moves.nodes.iter().filter(|_| clocked) {
            assert_eq!(node.comments_after.len(), 1);
            assert!(node.comments_after[0].starts_with("[%clk "), "{:?}", node.comments_after);
        }
    }
}

#[test]
fn scalachess_samples_one_crazyhouse_error_and_the_rest_read() {
    let Some(input) = pgn_file("scalachess_pgn_render_samples.pgn") else {
        return;
    };
    let (games, errors) = counts(&input);
    assert_eq!(games.len(), 14);
    assert_eq!(errors.len(), 1);
    let e = &errors[0];
    assert!(matches!(e.kind(), ErrorKind::CrazyhouseDrop(t) if t == "N@f6"), "{e}");
    assert_eq!(e.to_string(), "game 3, line 53, column 96: crazyhouse drop 'N@f6' is not standard chess");
    // 333 brace comments; the data's README counts 281 because it counts
    // places with comments (adjacent comments, like `{ [%clk …] } { [%emt …] }`,
    // merged into one), as checked on the model below.
    assert_eq!(games.iter().map(|g| g.comments).sum::<u64>(), 333);
    assert_eq!(games.iter().map(|g| g.nags).sum::<u64>(), 50);
    assert_eq!(games.iter().map(|g| g.variations).sum::<u64>(), 46);
    fn places(l: &Line) -> usize {
        let mut n = usize::from(!l.comments.is_empty());
        for node in &l.nodes {
            n += usize::from(!node.comments_before.is_empty()) + usize::from(!node.comments_after.is_empty());
            n += node.variations.iter().map(places).sum::<usize>();
        }
        n
    }
    let all = all_games(&input);
    assert_eq!(all.iter().flatten().map(|g| places(&g.moves)).sum::<usize>(), 281);
    // The games after the bad one are intact: the 4th has only a Result tag.
    assert_eq!(all.len(), 15);
    assert!(all[2].is_err());
    let fourth = all[3].as_ref().unwrap();
    assert_eq!(fourth.tags, [("Result".to_owned(), "1-0".to_owned())]);
    assert_eq!(fourth.mainline().next(), Some("Nf3"));
    // The 5th has no result token: it ends where the 6th's tags begin.
    let fifth = all[4].as_ref().unwrap();
    assert_eq!(fifth.result, None);
    assert_eq!(fifth.mainline().last(), Some("Rb1#"));
    assert_eq!(all[5].as_ref().unwrap().tags.len(), 1);
}

/// Reads, writes, and reads again every game of every shared file: no
/// movetext line longer than 80 characters, and the same game comes back.
#[test]
fn rewrite_shared_files() {
    for name in
        ["lichess_db_2016-05_excerpt.pgn", "lichess_db_2017-05_excerpt_half_a.pgn", "scalachess_pgn_render_samples.pgn"]
    {
        let Some(input) = pgn_file(name) else { return };
        let games: Vec<Game> = all_games(&input).into_iter().filter_map(Result::ok).collect();
        let mut written = Vec::new();
        for g in &games {
            guoxiang_pgn::write_game(&mut written, g).unwrap();
        }
        let text = String::from_utf8(written).unwrap();
        let mut in_tags = false;
        for line in text.lines() {
            in_tags = line.starts_with('[') || (in_tags && !line.is_empty());
            if !in_tags {
                assert!(line.chars().count() <= MAX_LINE, "{name}: line too long: {line:?}");
            }
        }
        let again: Vec<Game> = all_games(text.as_bytes()).into_iter().map(Result::unwrap).collect();
        assert_eq!(again.len(), games.len(), "{name}");
        for (a, b) in games.iter().zip(&again) {
            let (mut a, mut b) = (a.clone(), b.clone());
            normalize_comments(&mut a);
            normalize_comments(&mut b);
            assert_eq!(a.moves, b.moves, "{name}");
            assert_eq!(a.result.unwrap_or(GameResult::Unknown), b.result.unwrap_or(GameResult::Unknown));
            for (tag, value) in &a.tags {
                assert_eq!(b.tag(tag), a.tag(tag), "{name}: tag {tag}={value}");
            }
            // Writing the re-read game gives the same text.
            assert_eq!(a.to_pgn(), b.to_pgn());
        }
    }
}
