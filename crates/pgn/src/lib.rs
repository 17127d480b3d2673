//! guoxiang-pgn: reading and writing PGN (Portable Game Notation), purely
//! syntactic.
//!
//! The reader and writer know the PGN grammar, not the rules of chess: moves
//! come out as *text* (SAN, or UCI, or `--` for a null move) and go in as
//! text. The `replay` module resolves them against a board with the rules
//! core.
//!
//! | item | what it is |
//! |---|---|
//! | [`Reader`] | streaming reader: constant memory, one game per call, reports events to a [`Visitor`] |
//! | [`Visitor`] | SAX-like callbacks: tags, SAN tokens, NAGs, comments, variations, result; can skip games and variations |
//! | [`PgnError`] | a bad game: game number, line, column (in characters) and reason; reading goes on with the next game |
//! | [`Game`], [`Line`], [`Node`], [`GameBuilder`] | a simple owned game tree and the visitor that builds it |
//! | [`Writer`], [`write_game`] | export-format writer, incremental or for a whole [`Game`] |
//! | [`Replayer`], [`normalize`], [`parse_move`], [`parse_ply`], [`Ply`] | the replay layer: moves (SAN, else UCI) and null moves resolved against the board with the rules core |
//!
//! # Decisions
//!
//! - **Move tokens** ([`Visitor::san`]) are the SAN text without suffix
//!   annotations (`Nf3+!?` gives `Nf3+`, then NAG 5) but with `+`/`#`;
//!   castling with zeros becomes `O-O`/`O-O-O`; a null move, written `--`,
//!   `Z0`, `0000` or `@@@@`, is [`NULL_MOVE`] (`--`), so the writer writes it
//!   back as `--`; anything else (UCI moves such as `g1f3` or `e7e8q`,
//!   non-ASCII piece letters such as `马f3`) is passed through as written. A
//!   piece drop (`N@f6`) is an error.
//! - **Lenient moves** (the [`replay`] layer, as python-chess and lichess
//!   read real files): a token is read as SAN, else as a UCI move legal in
//!   the position (whole games in UCI, or mixed with SAN; castling as `e1g1`
//!   or king onto rook `e1h1`, only the latter in Chess960). Null moves stay
//!   in the tree, in main lines and variations, and replay as a pass (side to
//!   move switches, en-passant square cleared, halfmove clock + 1, as in
//!   python-chess); a null move while in check is an error (python-chess
//!   allows it), and [`Replayer::new`] refuses main-line null moves so that
//!   importers never take a pass for a move ([`Replayer::with_null_moves`]
//!   keeps them). See [`replay`].
//! - **Positions** are 1-based lines and 1-based columns counted in
//!   *characters* ([`Location`]; a Chinese comment before an error does not
//!   shift its column), plus the byte offset in the stream.
//! - **Tag sections**: a blank line between tag pairs ends the game only if
//!   the next tag's name is already in the section (see [`Reader`]), so a
//!   ChessBase blank line after `Event` does not split a game.
//! - **Errors**: a game with a syntax error yields one [`PgnError`] (its
//!   first problem) instead of the game; the reader has skipped to the end of
//!   that game and the next call goes on. Messages look like
//!   `game 12, line 340, column 17: unterminated comment`. I/O errors end the
//!   reading.
//! - **Limits**: one comment, tag pair or token may be at most
//!   [`DEFAULT_MAX_TOKEN_LEN`] bytes (settable), variations nest at most
//!   [`MAX_DEPTH`] deep; beyond that the game is an error, not a memory hog.
//! - **Text** is handed out as `&str`: UTF-8 as is, other bytes decoded as
//!   ISO-8859-1 (the PGN standard's character set).
//! - **Writer**: export format, seven-tag roster first, other tags in input
//!   order, movetext wrapped at 80 characters (see [`writer`]).
//!
//! # Speed
//!
//! Tokens are slices of the read buffer (no allocation per token); the common
//! cases (a tag pair, a move, a move number, a one-line comment complete in
//! the buffer) take fast paths, everything else a general path that reads
//! more input as needed. On the shared lichess samples the reader runs
//! as fast as `pgn-reader` 0.29 (which also parses the SAN), about 140 MB/s
//! for the 2016 file on the development machine.
//!
//! ```
//! use guoxiang_pgn::{GameResult, Location, Reader, Visitor};
//!
//! struct CountMoves(usize);
//!
//! impl Visitor for CountMoves {
//!     type Output = usize;
//!     fn begin_game(&mut self) {
//!         self.0 = 0;
//!     }
//!     fn san(&mut self, _san: &str, _at: Location) {
//!         self.0 += 1;
//!     }
//!     fn end_game(&mut self) -> usize {
//!         self.0
//!     }
//! }
//!
//! let pgn = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 (2. f4 exf4) 2... Nc6 1-0\n";
//! let mut reader = Reader::new(pgn.as_bytes());
//! // Moves in variations count too: e4 e5 Nf3 f4 exf4 Nc6.
//! assert_eq!(reader.read_game(&mut CountMoves(0)).unwrap(), Some(6));
//! assert_eq!(reader.read_game(&mut CountMoves(0)).unwrap(), None);
//!
//! let game = Reader::new(pgn.as_bytes()).read_owned_game().unwrap().unwrap();
//! assert_eq!(game.result, Some(GameResult::WhiteWins));
//! assert!(game.to_pgn().contains("1. e4 e5 2. Nf3 (2. f4 exf4) 2... Nc6 1-0"));
//! ```

mod error;
mod model;
mod reader;
pub mod replay;
mod visitor;
pub mod writer;

pub use error::{ErrorKind, PgnError};
pub use model::{Game, GameBuilder, Line, Node, Source};
pub use reader::{DEFAULT_BUFFER_SIZE, DEFAULT_MAX_TOKEN_LEN, Games, MAX_DEPTH, NULL_MOVE, Reader};
pub use replay::{
    Ply, ReplayError, ReplayedGame, Replayer, is_null_token, normalize, parse_move, parse_ply, start_position,
};
pub use visitor::{GameResult, Location, ParseGameResultError, Skip, Visitor};
pub use writer::{MAX_LINE, Numbering, Writer, write_game};
