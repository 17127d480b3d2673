//! What a game is created from: the players, the start ([`Variant`]), the server's policy ([`GameConfig`]) and how
//! the game came about ([`Source`]), together a [`GameSetup`].

use guoxiang_clock::TimeControl;
use guoxiang_core::{CastlingMode, Position, Validation};
use serde::{Deserialize, Serialize};

use crate::error::SetupError;
use crate::rules::{Rules, penalty_ms};

/// A player as the game sees them: an opaque reference to a user (or an engine) of the server.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerRef {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub is_engine: bool,
    #[serde(default)]
    pub engine_level: Option<u8>,
}

impl PlayerRef {
    /// A human player.
    pub fn human(id: impl Into<String>, name: impl Into<String>) -> PlayerRef {
        PlayerRef { id: id.into(), name: name.into(), is_engine: false, engine_level: None }
    }
}

/// The start of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Variant {
    /// Standard chess from the usual start.
    #[default]
    Standard,
    /// Chess960 (FIDE Laws, Guidelines III) from the given start position; castling is always read in Chess960 mode.
    Chess960 { fen: String },
    /// Standard rules from a set-up position.
    FromPosition { fen: String },
}

impl Variant {
    /// Chess960 start position number `n` (0–959, Scharnagl's numbering: 518 is the usual start); `None` past 959.
    pub fn chess960(n: u16) -> Option<Variant> {
        Position::chess960(n).map(|p| Variant::Chess960 { fen: p.fen() })
    }

    /// The start position.
    pub fn start_position(&self) -> Result<Position, SetupError> {
        let (fen, mode) = match self {
            Variant::Standard => return Ok(Position::new()),
            Variant::Chess960 { fen } => (fen, CastlingMode::Chess960),
            Variant::FromPosition { fen } => (fen, CastlingMode::Auto),
        };
        Position::from_fen_with(fen, mode, Validation::Strict)
            .map_err(|e| SetupError::BadFen { fen: fen.clone(), problem: e.to_string() })
    }

    /// The start FEN, for non-standard starts.
    pub fn fen(&self) -> Option<&str> {
        match self {
            Variant::Standard => None,
            Variant::Chess960 { fen } | Variant::FromPosition { fen } => Some(fen),
        }
    }
}

/// Server policy for one game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameConfig {
    /// Time each player has for their first move, counted from the game's creation (first player) or from the
    /// first move (second player); exceeding it aborts the game.
    pub first_move_timeout_ms: u64,
    /// How long the opponent must have been disconnected before a player may claim victory.
    pub disconnect_timeout_ms: u64,
    /// Added to the opponent's clock after an incorrect draw claim (Article 9.5.3: two minutes).
    pub claim_penalty_ms: u64,
    /// How many recent events are kept for [`Game::events_since`](crate::Game::events_since).
    pub event_log_len: usize,
    /// The rule set: touch-move, and how illegal moves are treated (absent in states stored before rule sets
    /// existed: online).
    #[serde(default)]
    pub rules: Rules,
    /// How late a player may come to the resumption of an adjourned game before losing (Article 10.15 of the older
    /// Laws: one hour).
    #[serde(default = "one_hour")]
    pub late_limit_ms: u64,
}

fn one_hour() -> u64 {
    3_600_000
}

impl Default for GameConfig {
    /// 30 s for each first move, 60 s of disconnection before a claim, 2 min penalty, 200 events.
    fn default() -> GameConfig {
        GameConfig {
            first_move_timeout_ms: 30_000,
            disconnect_timeout_ms: 60_000,
            claim_penalty_ms: 120_000,
            event_log_len: 200,
            rules: Rules::ONLINE,
            late_limit_ms: one_hour(),
        }
    }
}

impl GameConfig {
    /// The defaults, except that correspondence games give a whole move allowance (days) for each first move and
    /// unlimited games a day, and that the penalty for an incorrect claim is one minute in rapid and blitz
    /// (Appendix A.3; see [`penalty_ms`]).
    pub fn for_time_control(tc: &TimeControl) -> GameConfig {
        let first_move_timeout_ms = match tc {
            TimeControl::Correspondence(c) => c.allowance_ms(),
            TimeControl::Unlimited => 86_400_000,
            _ => 30_000,
        };
        GameConfig { first_move_timeout_ms, claim_penalty_ms: penalty_ms(tc), ..GameConfig::default() }
    }

    /// The same configuration under the rule set `rules`.
    pub fn with_rules(self, rules: Rules) -> GameConfig {
        GameConfig { rules, ..self }
    }
}

/// How a game came about: kept with the game and shown by the Lichess-compatible API as its `source`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A challenge to a named player or by link (and its rematches).
    #[default]
    Friend,
    /// A friend's challenge from a position of the challenger's choice.
    Position,
    /// Two players' seeks in the lobby.
    Lobby,
    /// Quick pairing by time control.
    Pool,
    /// A game against the computer.
    Ai,
    /// A game of a tournament's round (round-robin or Swiss), created by its pairings: no takebacks, no rematch.
    Tournament,
}

impl Source {
    /// Lichess's name (`friend`, `position`, `lobby`, `pool`, `ai`, `swiss`).
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Friend => "friend",
            Source::Position => "position",
            Source::Lobby => "lobby",
            Source::Pool => "pool",
            Source::Ai => "ai",
            // Lichess's name for the games of its round-based tournaments.
            Source::Tournament => "swiss",
        }
    }
}

/// Everything needed to create a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    pub id: String,
    pub white: PlayerRef,
    pub black: PlayerRef,
    pub rated: bool,
    pub time_control: TimeControl,
    pub variant: Variant,
    pub config: GameConfig,
    /// How the game came about.
    pub source: Source,
}
