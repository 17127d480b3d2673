//! Messages from the server to the browser.

use guoxiang_game::{CommandError, Snapshot, VersionedEvent};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::codes::ErrorCode;
use crate::error::ProtocolError;
use crate::wire::{Color, ColorChoice, GameSnapshot, IllegalMoveReason, Player, StartChoice, VersionedGameEvent};

/// A message to the browser. Answers to a client message carry its `id`; the rest are pushed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to the client's `hello`: the server's protocol version, its software version, who the session
    /// belongs to (`null` for an anonymous visitor), the games that user is playing now (so that a new tab can
    /// resume them) and the server's time (Unix milliseconds).
    Hello { id: u32, protocol: u32, server: String, user: Option<Player>, playing: Vec<String>, server_time_ms: u64 },
    /// The client message `id` was carried out.
    Ack { id: u32 },
    /// The client message `id` was refused (`id` is `null` if the frame could not be read far enough to find one).
    /// `code` is stable (see `docs/api.md`); the messages are for people.
    Error {
        id: Option<u32>,
        #[ts(as = "ErrorCode")]
        code: String,
        message_zh: String,
        message_en: String,
    },
    /// New events of a subscribed game, in version order, without gaps after the client's `since_version`.
    GameEvents { game_id: String, events: Vec<VersionedGameEvent> },
    /// The full state of a game: on `subscribe` without `since_version`, or when the missed events are no longer
    /// kept. Replaces whatever the client had; events after `snapshot.version` follow as `game_events`.
    GameSnapshot { game_id: String, snapshot: Box<GameSnapshot> },
    /// Clock synchronisation for a game, sent with moves and periodically: the remaining times at `server_time_ms`
    /// and whose clock is running (the UI counts that one down locally).
    Clocks { game_id: String, white_ms: u64, black_ms: u64, running: Option<Color>, server_time_ms: u64 },
    /// The answer to `ping`: the client's time echoed, and the server's.
    Pong { id: u32, client_time_ms: u64, server_time_ms: u64 },
    /// The answer to `explain`: `legal`, or the reason why not.
    Explanation { id: u32, game_id: String, legal: bool, reason: Option<IllegalMoveReason> },
    /// A new game the client plays in (from a seek, the pool, a challenge, a rematch or `play_computer`).
    GameStarted { game_id: String, color: Color },
    /// The opponent offers a rematch of a finished game.
    RematchOffered { game_id: String, by: Color },
    /// A rematch offer was declined.
    RematchDeclined { game_id: String, by: Color },
    /// After `subscribe`: the connection's user is an arbiter of this game and may send `arbiter` messages for it.
    Arbiter { game_id: String },
    /// The whole lobby, after `lobby_subscribe`.
    Lobby { seeks: Vec<Seek>, pools: Vec<PoolSize>, games: Vec<LiveGame> },
    /// The answer to `create_seek`: the new seek's id.
    SeekCreated { id: u32, seek_id: String },
    /// A seek appeared in the lobby.
    SeekAdded { seek: Seek },
    /// A seek left the lobby (accepted, cancelled or its owner left).
    SeekRemoved { seek_id: String },
    /// The numbers of players waiting in the quick-pairing pools.
    Pools { pools: Vec<PoolSize> },
    /// The games being played now, for spectators.
    LiveGames { games: Vec<LiveGame> },
    /// The answer to `challenge_friend`: the challenge's id and the link to share.
    ChallengeCreated { id: u32, challenge_id: String, url: String },
    /// A challenge concerning the client changed (received, accepted, declined, cancelled, expired).
    Challenge { challenge: Challenge },
    /// A followed study's owner presents a position (`study_follow`): the chapter (from 0), the path in its move
    /// tree (as in `study_present`), the position's FEN and its arrows and circled squares.
    StudyPosition { study: String, chapter: u32, path: Vec<u32>, fen: String, shapes: Vec<StudyShape> },
    /// A followed study's owner let the followers go: they may explore alone (and `study_unfollow`).
    StudyReleased { study: String },
}

/// An arrow (`orig` to `dest`) or a circled square (no `dest`) of a study; `brush` is `green`, `red`, `yellow` or
/// `blue` (lichess's G, R, Y, B).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct StudyShape {
    pub brush: String,
    pub orig: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub dest: Option<String>,
}

/// A seek in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct Seek {
    pub id: String,
    pub player: Player,
    pub rating: Option<u32>,
    /// PGN `TimeControl` tag.
    pub time_control: String,
    pub rated: bool,
    pub color: ColorChoice,
    /// The start the game will have (Chess960: its number, or random).
    pub variant: StartChoice,
}

/// How many players wait in the quick-pairing pool for a time control.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct PoolSize {
    pub time_control: String,
    pub rated: bool,
    pub waiting: u32,
}

/// A game being played, as listed for spectators.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct LiveGame {
    pub game_id: String,
    pub white: Player,
    pub black: Player,
    pub time_control: String,
    pub rated: bool,
    pub fen: String,
    /// The last move in UCI, for highlighting.
    pub last_move: Option<String>,
    pub spectators: u32,
}

/// Where a challenge stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    Pending,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

/// A challenge to a friend, shared as a link.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct Challenge {
    pub id: String,
    pub url: String,
    pub challenger: Player,
    /// The player who accepted or declined, once known.
    pub opponent: Option<Player>,
    pub time_control: String,
    pub rated: bool,
    pub color: ColorChoice,
    pub status: ChallengeStatus,
    /// The game, once accepted.
    pub game_id: Option<String>,
    /// The game's rule set when it is not `online` (as in `game_snapshot`), shown before accepting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rules: Option<String>,
}

impl ServerMessage {
    /// `game_events` from the game's own events.
    pub fn game_events(game_id: impl Into<String>, events: impl IntoIterator<Item = VersionedEvent>) -> ServerMessage {
        ServerMessage::GameEvents {
            game_id: game_id.into(),
            events: events.into_iter().map(VersionedGameEvent::from).collect(),
        }
    }

    /// `game_snapshot` from the game's snapshot.
    pub fn game_snapshot(snapshot: &Snapshot) -> ServerMessage {
        ServerMessage::GameSnapshot { game_id: snapshot.id.clone(), snapshot: Box::new(snapshot.into()) }
    }

    /// The answer to `subscribe` with `since_version`: the missed events (`Game::events_since`), or the snapshot
    /// when they are no longer kept (`None`).
    pub fn resync(
        game_id: impl Into<String>,
        missed: Option<Vec<VersionedEvent>>,
        snapshot: impl FnOnce() -> Snapshot,
    ) -> ServerMessage {
        match missed {
            Some(events) => ServerMessage::game_events(game_id, events),
            None => ServerMessage::game_snapshot(&snapshot()),
        }
    }

    /// An error answer for a command the game refused (`code` is `CommandError::code`).
    pub fn command_error(id: u32, e: &CommandError) -> ServerMessage {
        let text = e.text();
        ServerMessage::Error { id: Some(id), code: e.code().to_owned(), message_zh: text.zh, message_en: text.en }
    }

    /// An error answer for a protocol-level problem.
    pub fn protocol_error(id: Option<u32>, e: &ProtocolError) -> ServerMessage {
        let text = e.text();
        ServerMessage::Error { id: e.id().or(id), code: e.code().to_owned(), message_zh: text.zh, message_en: text.en }
    }

    /// The answer to `explain` from `Position::explain`.
    pub fn explanation(id: u32, game_id: impl Into<String>, e: &guoxiang_core::Explanation) -> ServerMessage {
        ServerMessage::Explanation {
            id,
            game_id: game_id.into(),
            legal: e.is_legal(),
            reason: e.reason().map(IllegalMoveReason::from),
        }
    }

    /// The message as JSON text (never fails: every field serializes).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages serialize")
    }
}
