//! A simple owned game model and the visitor that builds it.

use crate::visitor::{GameResult, Location, Skip, Visitor};

/// One game: tags, movetext tree, result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// Tag pairs in input order (duplicates kept).
    pub tags: Vec<(String, String)>,
    /// The mainline, with variations hanging off its nodes.
    pub moves: Line,
    /// The result token, if the movetext had one.
    pub result: Option<GameResult>,
}

/// A sequence of moves: the mainline or a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The moves in order.
    pub nodes: Vec<Node>,
    /// Comments after the last node's variations (for a line without moves:
    /// all its comments). Comments right after a move belong to that move
    /// ([`Node::comments_after`]).
    pub comments: Vec<String>,
}

/// One move with its annotations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// Comments before the move. Only used where there is no earlier move
    /// to attach them to: at the start of a line, or after the previous
    /// move's variations.
    pub comments_before: Vec<String>,
    /// The move token as read (see [`Visitor::san`]): SAN, UCI or another form the replay layer may read, or
    /// `--` for a null move.
    pub san: String,
    /// NAGs, suffix annotations included (`!` is 1, …).
    pub nags: Vec<u8>,
    /// Comments after the move (and its NAGs).
    pub comments_after: Vec<String>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Line>,
    /// Where the move was read, for error messages.
    pub source: Source,
}

/// Where a move was read from. It describes the text, not the game, so it never takes part in equality: a game
/// written out and read back is the same game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Source(pub Option<Location>);

impl PartialEq for Source {
    fn eq(&self, _: &Source) -> bool {
        true
    }
}

impl Eq for Source {}

/// Whether a move token is a null move: `--`, `Z0`, `0000` or `@@@@` (the reader hands out all four as `--`; the
/// others can come from a [`Game`] built by hand).
#[inline]
pub fn is_null_token(token: &str) -> bool {
    // Most tokens are told apart by their first byte.
    let Some(&first) = token.as_bytes().first() else { return false };
    (matches!(first, b'-' | b'Z' | b'0' | b'@') || first.is_ascii_whitespace())
        && matches!(token.trim(), "--" | "Z0" | "0000" | "@@@@")
}

impl Node {
    /// A node with just a move.
    pub fn new(san: impl Into<String>) -> Node {
        Node { san: san.into(), ..Node::default() }
    }

    /// Whether the move is a null move (`--`; also `Z0`, `0000` or `@@@@` in a node built by hand).
    pub fn is_null(&self) -> bool {
        is_null_token(&self.san)
    }
}

impl Game {
    /// The value of the first tag named exactly `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The mainline's move tokens.
    pub fn mainline(&self) -> impl Iterator<Item = &str> + '_ {
        self.moves.nodes.iter().map(|n| n.san.as_str())
    }
}

#[derive(Debug, Default)]
struct Frame {
    line: Line,
    /// Comments waiting for the next move of this line.
    pending: Vec<String>,
    /// The last node got a variation after which nothing followed yet.
    after_variation: bool,
}

/// A [`Visitor`] that builds a [`Game`]. Reusable: each `begin_game` starts
/// afresh (its allocations are not reused across games, since the games are
/// handed out).
///
/// Comments are stored trimmed. A variation that opens before any move of
/// its line (so there is no move it could be an alternative to) is skipped,
/// as is a NAG before any move of its line.
#[derive(Debug, Default)]
pub struct GameBuilder {
    tags: Vec<(String, String)>,
    result: Option<GameResult>,
    stack: Vec<Frame>,
}

impl GameBuilder {
    /// A builder.
    pub fn new() -> GameBuilder {
        GameBuilder::default()
    }

    fn frame(&mut self) -> &mut Frame {
        if self.stack.is_empty() {
            self.stack.push(Frame::default());
        }
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }

    /// Closes the innermost variation into its parent.
    fn close(&mut self) {
        if self.stack.len() < 2 {
            return;
        }
        let Some(frame) = self.stack.pop() else {
            return;
        };
        let mut line = frame.line;
        line.comments = frame.pending;
        let parent = self.frame();
        if let Some(node) = parent.line.nodes.last_mut() {
            node.variations.push(line);
        }
        parent.after_variation = true;
    }
}

impl Visitor for GameBuilder {
    type Output = Game;

    fn begin_game(&mut self) {
        self.tags = Vec::new();
        self.result = None;
        self.stack.clear();
        self.stack.push(Frame::default());
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.tags.push((name.to_owned(), value.to_owned()));
    }

    fn san(&mut self, san: &str, at: Location) {
        let frame = self.frame();
        let node =
            Node { comments_before: std::mem::take(&mut frame.pending), source: Source(Some(at)), ..Node::new(san) };
        frame.line.nodes.push(node);
        frame.after_variation = false;
    }

    fn nag(&mut self, nag: u8) {
        if let Some(node) = self.frame().line.nodes.last_mut() {
            node.nags.push(nag);
        }
    }

    fn comment(&mut self, text: &str) {
        let text = text.trim().to_owned();
        let frame = self.frame();
        match frame.line.nodes.last_mut() {
            Some(node) if !frame.after_variation => node.comments_after.push(text),
            _ => frame.pending.push(text),
        }
    }

    fn begin_variation(&mut self) -> Skip {
        let frame = self.frame();
        let Some(node) = frame.line.nodes.last_mut() else {
            return Skip(true);
        };
        if !frame.pending.is_empty() {
            // Comments between two variations: keep them at the end of the
            // earlier one.
            let pending = std::mem::take(&mut frame.pending);
            match node.variations.last_mut() {
                Some(previous) => match previous.nodes.last_mut() {
                    Some(last) if last.variations.is_empty() => last.comments_after.extend(pending),
                    _ => previous.comments.extend(pending),
                },
                None => node.comments_after.extend(pending),
            }
        }
        self.stack.push(Frame::default());
        Skip(false)
    }

    fn end_variation(&mut self) {
        self.close();
    }

    fn outcome(&mut self, result: GameResult) {
        self.result = Some(result);
    }

    fn end_game(&mut self) -> Game {
        while self.stack.len() > 1 {
            self.close();
        }
        let frame = self.stack.pop().unwrap_or_default();
        let mut moves = frame.line;
        moves.comments = frame.pending;
        Game { tags: std::mem::take(&mut self.tags), moves, result: self.result.take() }
    }
}
