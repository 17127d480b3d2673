//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use guoxiang_pgn::{Game, GameResult, Line, Location, Reader, Skip, Visitor};

/// The shared data folder: `$GUOXIANG_DATA`, else `shared/data` beside the
/// repository checkout. `None` (with a message) when it is absent.
pub fn data_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("GUOXIANG_DATA") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")),
    };
    if dir.join("pgn").is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: shared data not found at {} (set GUOXIANG_DATA)", dir.display());
        None
    }
}

/// Reads a file from the shared data's `pgn/` folder, or `None` (with a
/// message) when the data is absent.
pub fn pgn_file(name: &str) -> Option<Vec<u8>> {
    let path = data_dir()?.join("pgn").join(name);
    match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            eprintln!("skipping: cannot read {}: {e}", path.display());
            None
        }
    }
}

/// Every visitor event, as text, for comparing runs.
#[derive(Debug, Default)]
pub struct Events(pub Vec<String>);

impl Visitor for Events {
    type Output = Vec<String>;
    fn begin_game(&mut self) {
        self.0.clear();
    }
    fn tag(&mut self, name: &str, value: &str) {
        self.0.push(format!("tag {name}={value}"));
    }
    fn begin_movetext(&mut self) -> Skip {
        self.0.push("movetext".into());
        Skip(false)
    }
    fn san(&mut self, san: &str, at: Location) {
        self.0.push(format!("san {san} @{}:{}:{}", at.line, at.column, at.offset));
    }
    fn nag(&mut self, nag: u8) {
        self.0.push(format!("nag {nag}"));
    }
    fn comment(&mut self, text: &str) {
        self.0.push(format!("comment {text}"));
    }
    fn begin_variation(&mut self) -> Skip {
        self.0.push("(".into());
        Skip(false)
    }
    fn end_variation(&mut self) {
        self.0.push(")".into());
    }
    fn outcome(&mut self, result: GameResult) {
        self.0.push(format!("result {result}"));
    }
    fn end_game(&mut self) -> Vec<String> {
        std::mem::take(&mut self.0)
    }
}

/// Reads all games of `input` as event lists (errors as their message).
pub fn all_events(input: &[u8], capacity: usize) -> Vec<Result<Vec<String>, String>> {
    let mut reader = Reader::with_capacity(capacity, input);
    let mut out = Vec::new();
    loop {
        match reader.read_game(&mut Events::default()) {
            Ok(Some(events)) => out.push(Ok(events)),
            Ok(None) => break,
            Err(e) => out.push(Err(e.to_string())),
        }
        assert!(out.len() <= input.len() + 1, "no progress");
    }
    out
}

/// Reads all games into the owned model.
pub fn all_games(input: &[u8]) -> Vec<Result<Game, String>> {
    Reader::new(input).games().map(|g| g.map_err(|e| e.to_string())).collect()
}

/// Collapses whitespace runs in all comments to single spaces (the writer
/// re-wraps comments, so only their words survive a round trip).
pub fn normalize_comments(game: &mut Game) {
    fn norm(c: &mut String) {
        *c = c.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    fn line(l: &mut Line) {
        l.comments.iter_mut().for_each(norm);
        for n in &mut l.nodes {
            n.comments_before.iter_mut().for_each(norm);
            n.comments_after.iter_mut().for_each(norm);
            n.variations.iter_mut().for_each(line);
        }
    }
    line(&mut game.moves);
}
