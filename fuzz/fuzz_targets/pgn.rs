//! PGN reading and writing: arbitrary bytes through the streaming `Reader`
//! (with a visitor that records every event), and through the owned `Game`
//! model and the writer.
//!
//! Invariants, beyond "never panics" and "terminates":
//! - streaming: the events (and errors, with their locations) do not depend on
//!   the buffer size or on how the input arrives (the input is fed again in
//!   small chunks, with `Interrupted` errors in between, into a 16-byte
//!   buffer);
//! - memory: with a small token limit the reader's buffer stays within a
//!   bound set by its capacity and that limit, whatever the input;
//! - each call reads at most one game and the number of games is at most the
//!   number of input bytes plus one; skipping games finds as many games as
//!   reading them;
//! - a game that parses without error, written out and read back, is the
//!   same model up to the writer's documented normalisation (seven-tag roster
//!   first, line breaks in tag values as spaces, comments re-wrapped without
//!   `}`, the result always written), and writing that again gives the same
//!   text.
#![no_main]

use std::io::{self, Read};

use guoxiang_pgn::{Game, GameResult, Line, Location, Reader, Skip, Visitor};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Event {
    Begin,
    Tag(String, String),
    Movetext,
    San(String, Location),
    Nag(u8),
    Comment(String),
    BeginVariation,
    EndVariation,
    Outcome(GameResult),
    End,
    Error(String),
}

/// Records every call; with `skip_every`, skips every n-th variation.
#[derive(Default)]
struct Record {
    events: Vec<Event>,
    variations: usize,
    skip_every: usize,
}

impl Visitor for Record {
    type Output = ();
    fn begin_game(&mut self) {
        self.events.push(Event::Begin);
    }
    fn tag(&mut self, name: &str, value: &str) {
        self.events.push(Event::Tag(name.to_owned(), value.to_owned()));
    }
    fn begin_movetext(&mut self) -> Skip {
        self.events.push(Event::Movetext);
        Skip(false)
    }
    fn san(&mut self, san: &str, at: Location) {
        assert!(!san.is_empty(), "empty move token at {at}");
        self.events.push(Event::San(san.to_owned(), at));
    }
    fn nag(&mut self, nag: u8) {
        self.events.push(Event::Nag(nag));
    }
    fn comment(&mut self, text: &str) {
        self.events.push(Event::Comment(text.to_owned()));
    }
    fn begin_variation(&mut self) -> Skip {
        self.events.push(Event::BeginVariation);
        self.variations += 1;
        Skip(self.skip_every > 0 && self.variations % self.skip_every == 0)
    }
    fn end_variation(&mut self) {
        self.events.push(Event::EndVariation);
    }
    fn outcome(&mut self, result: GameResult) {
        self.events.push(Event::Outcome(result));
    }
    fn end_game(&mut self) {
        self.events.push(Event::End);
    }
}

/// Hands out the input `chunk` bytes at a time, with an `Interrupted` error
/// before every third read.
struct Chunked<'a> {
    data: &'a [u8],
    chunk: usize,
    calls: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls % 3 == 0 {
            return Err(io::Error::from(io::ErrorKind::Interrupted));
        }
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The reader's current buffer size (only its `Debug` output tells).
fn buffer_size<R>(reader: &Reader<R>) -> usize {
    let debug = format!("{reader:?}");
    let rest = &debug[debug.find("buffer_size: ").expect("Reader's Debug shows buffer_size") + 13..];
    rest[..rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len())].parse().expect("a number")
}

/// Reads all games with `visitor`; returns the events and the number of games.
fn read_all<R: Read>(reader: &mut Reader<R>, visitor: &mut Record, input_len: usize, buffer_limit: usize) -> usize {
    let mut games = 0;
    loop {
        let before = reader.games_started();
        match reader.read_game(visitor) {
            Ok(None) => break,
            Ok(Some(())) => {}
            Err(e) => {
                assert!(!e.is_io(), "I/O error from an in-memory input: {e}");
                visitor.events.push(Event::Error(e.to_string()));
            }
        }
        assert_eq!(reader.games_started(), before + 1, "one call, one game");
        games += 1;
        assert!(games <= input_len + 1, "more games than input bytes");
        assert!(buffer_size(reader) <= buffer_limit, "buffer grew to {} bytes", buffer_size(reader));
    }
    assert!(reader.read_game(visitor).unwrap().is_none(), "input over, but another game");
    games
}

const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// A comment as the writer re-wraps it: its words, without `}`.
fn comment_words(c: &str) -> String {
    let words: Vec<String> = c.split_whitespace().map(|w| w.replace('}', "")).filter(|w| !w.is_empty()).collect();
    words.join(" ")
}

fn normalize_comments(cs: &[String]) -> Vec<String> {
    cs.iter().map(|c| comment_words(c)).collect()
}

fn normalize_line(line: &Line) -> Line {
    let mut line = line.clone();
    line.comments = normalize_comments(&line.comments);
    for node in &mut line.nodes {
        node.comments_before = normalize_comments(&node.comments_before);
        node.comments_after = normalize_comments(&node.comments_after);
        node.variations = node.variations.iter().map(normalize_line).collect();
    }
    line
}

/// `game` as it should read back after `write_game`.
fn as_written(game: &Game) -> Game {
    let result = game.result.or_else(|| game.tag("Result").and_then(|r| r.parse().ok())).unwrap_or(GameResult::Unknown);
    // The writer keeps tag values on their line (every control character a space) and names to the PGN grammar.
    let clean = |v: &str| v.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>();
    let clean_name = |n: &str| {
        let n: String =
            n.chars().take(64).map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
        if n.is_empty() { "_".to_owned() } else { n }
    };
    let mut tags = Vec::new();
    for (name, default) in ROSTER {
        let value = match game.tag(name) {
            Some(v) => v,
            None if name == "Result" => result.as_str(),
            None => default,
        };
        tags.push((name.to_owned(), clean(value)));
    }
    for (name, value) in &game.tags {
        if !ROSTER.iter().any(|(r, _)| r == name) {
            tags.push((clean_name(name), clean(value)));
        }
    }
    Game { tags, moves: normalize_line(&game.moves), result: Some(result) }
}

fn check_round_trip(game: &Game) {
    let text = game.to_pgn();
    let mut reader = Reader::new(text.as_bytes());
    let back = match reader.read_owned_game() {
        Ok(Some(g)) => g,
        other => panic!("written game does not read back: {other:?}\n--- written:\n{text}"),
    };
    assert!(matches!(reader.read_owned_game(), Ok(None)), "written game reads back as several:\n{text}");
    let back_normalized = Game { moves: normalize_line(&back.moves), ..back.clone() };
    assert_eq!(back_normalized, as_written(game), "written game reads back as another model:\n{text}");
    assert_eq!(back.to_pgn(), text, "writing the read-back game gives another text");
}

fuzz_target!(|data: &[u8]| {
    let len = data.len();

    // Reference: the whole input at once, default buffer and limits.
    let mut reference = Record::default();
    let games = read_all(&mut Reader::new(data), &mut reference, len, usize::MAX);

    // Streaming: tiny buffer, input in small chunks with interruptions.
    let chunk = 1 + len % 13;
    let mut streamed = Record::default();
    let mut reader = Reader::with_capacity(16, Chunked { data, chunk, calls: 0 });
    read_all(&mut reader, &mut streamed, len, usize::MAX);
    assert_eq!(streamed.events, reference.events, "events depend on buffering (chunk {chunk})");

    // Memory: a small token limit bounds the buffer.
    let capacity = 16 + len % 61;
    let limit = 1 + len % 97;
    let mut reader = Reader::with_capacity(capacity, Chunked { data, chunk: 1 + len % 7, calls: 0 });
    reader.set_max_token_len(limit);
    let mut small = Record { skip_every: 2, ..Record::default() };
    read_all(&mut reader, &mut small, len, capacity.max(2 * (limit + 256)));

    // Skipping finds the same games.
    let mut reader = Reader::new(data);
    let mut skipped = 0;
    while let Ok(true) | Err(_) = reader.skip_game() {
        skipped += 1;
        assert!(skipped <= games, "skip_game finds more games than read_game");
    }
    assert_eq!(skipped, games, "skip_game finds fewer games than read_game");

    // Owned model and writer.
    let mut reader = Reader::new(data);
    let mut owned = 0;
    for game in reader.games() {
        owned += 1;
        if let Ok(game) = game {
            check_round_trip(&game);
        }
    }
    assert_eq!(owned, games);
});
