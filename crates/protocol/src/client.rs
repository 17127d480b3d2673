//! Messages from the browser to the server.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use guoxiang_game::{Action, ArbiterAct};

use crate::wire::{ColorChoice, Lang, PromotionRole, StartChoice};

fn is_standard(v: &StartChoice) -> bool {
    *v == StartChoice::Standard
}

/// A message from the browser. Every message carries an `id` the client chooses (a counter is fine); the server
/// answers each one exactly once with that `id`: `ack`, `error`, or a typed reply (`hello`, `pong`, `explanation`,
/// `challenge_created`, `seek_created`). Unknown fields are refused, so a typo is an error rather than ignored.
///
/// Game commands name the game (`game_id`); the server knows from the session which colour the sender plays.
/// `time_control` is the PGN `TimeControl` tag (`300+3` = 5 minutes + 3 seconds a move, `-` = no limit; see
/// `guoxiang_clock::TimeControl::from_pgn`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message on a connection: the protocol version the client speaks ([`PROTOCOL_VERSION`]) and its
    /// language. Answered with the server's `hello`, or an `unsupported_protocol` error and the connection closed.
    ///
    /// [`PROTOCOL_VERSION`]: crate::PROTOCOL_VERSION
    Hello {
        id: u32,
        protocol: u32,
        #[serde(default)]
        lang: Lang,
    },
    /// Follow a game, as a player or a spectator. With `since_version` (the last version the client has seen) the
    /// server sends the missed events as `game_events`, or a `game_snapshot` when they are no longer kept; without
    /// it, a `game_snapshot`. After the ack, every new event of the game comes as `game_events`.
    Subscribe {
        id: u32,
        game_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        since_version: Option<u64>,
    },
    /// Stop following a game.
    Unsubscribe { id: u32, game_id: String },
    /// A player's action in a game (`move`, `resign`, `offer_draw`, `claim_draw`, `rematch_offer`, …; see
    /// [`Action`]): the same type goes from here to the game's rules. `lag_ms` is the client's estimate of its
    /// network lag (from `ping`/`pong`), credited to a move within the player's lag reserve.
    ///
    /// ```json
    /// {"t": "game", "id": 7, "game_id": "Xy12Ab34", "action": {"t": "move", "uci": "e2e4"}, "lag_ms": 40}
    /// ```
    Game {
        id: u32,
        game_id: String,
        action: Action,
        #[serde(default)]
        #[ts(as = "Option<u32>", optional)]
        lag_ms: u32,
    },
    /// An arbiter's act in a game (`pause`, `resume`, `add_time`, `decide`, `set_result`, `call_adjournment`,
    /// `schedule_resumption`, `open_sealed_move`; `docs/game.md`, "The arbiter"). Only from a user the server counts
    /// as an arbiter of that game (`not_arbiter` otherwise); the server tells one with `arbiter` after `subscribe`.
    ///
    /// ```json
    /// {"t": "arbiter", "id": 9, "game_id": "Xy12Ab34", "act": {"t": "add_time", "color": "white", "ms": 120000}}
    /// ```
    Arbiter { id: u32, game_id: String, act: ArbiterAct },
    /// Measure the round trip: the server answers `pong` with `client_time_ms` echoed (the client's own clock, e.g.
    /// `performance.now()` rounded) and its own time.
    Ping { id: u32, client_time_ms: u64 },
    /// Why is moving the piece on `from` to `to` illegal in the game's current position? Squares in `e4` style.
    /// Answered with `explanation`.
    Explain {
        id: u32,
        game_id: String,
        from: String,
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        promotion: Option<PromotionRole>,
    },
    /// Receive lobby updates (`lobby`, then `seek_added`, `seek_removed`, `pools`, `live_games`).
    LobbySubscribe { id: u32 },
    /// Stop receiving lobby updates.
    LobbyUnsubscribe { id: u32 },
    /// Post a seek in the lobby; answered with `seek_created`. When someone accepts it, `game_started`. `variant`:
    /// Chess960 (casual only), with a chosen or a random start; the usual start without it.
    CreateSeek {
        id: u32,
        time_control: String,
        rated: bool,
        color: ColorChoice,
        #[serde(default, skip_serializing_if = "is_standard")]
        #[ts(as = "Option<StartChoice>", optional)]
        variant: StartChoice,
    },
    /// Withdraw one's seek.
    CancelSeek { id: u32, seek_id: String },
    /// Accept someone else's seek; the game is announced with `game_started`.
    AcceptSeek { id: u32, seek_id: String },
    /// Join the quick-pairing pool for a time control; when paired, `game_started`.
    JoinPool { id: u32, time_control: String, rated: bool },
    /// Leave the quick-pairing pool.
    LeavePool { id: u32 },
    /// Start a game against the engine at `level`; announced with `game_started`. With `fen`, the game starts from
    /// that position (a set-up position under the standard rules, as the Learn course's `play` steps need); such a
    /// game is always casual, and `time_control` `-` makes it untimed.
    PlayComputer {
        id: u32,
        level: u8,
        color: ColorChoice,
        time_control: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        fen: Option<String>,
        /// Chess960, with a chosen or a random start (not with `fen`).
        #[serde(default, skip_serializing_if = "is_standard")]
        #[ts(as = "Option<StartChoice>", optional)]
        variant: StartChoice,
        /// The rule set by name (`touch_move`, `illegal_moves_count`, `king_into_check`, joined by `+`; `docs/game.md`);
        /// `online` without it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        rules: Option<String>,
    },
    /// Create a challenge to share as a link; answered with `challenge_created`. `variant` as for `create_seek`,
    /// `rules` as for `play_computer` (with `adjournment` too).
    ChallengeFriend {
        id: u32,
        time_control: String,
        rated: bool,
        color: ColorChoice,
        #[serde(default, skip_serializing_if = "is_standard")]
        #[ts(as = "Option<StartChoice>", optional)]
        variant: StartChoice,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        rules: Option<String>,
    },
    /// Accept a challenge (opened from its link); the game is announced with `game_started`.
    AcceptChallenge { id: u32, challenge_id: String },
    /// Decline a challenge.
    DeclineChallenge { id: u32, challenge_id: String },
    /// Withdraw one's own challenge.
    CancelChallenge { id: u32, challenge_id: String },
    /// Follow a study's present mode (研究, issue 42): from now on the connection gets `study_position` each time
    /// its owner presents a position, and `study_released` when the owner lets the followers go. Only for someone
    /// who may read the study (its owner, a student of its class when shared with the class, anyone when public);
    /// `not_found` otherwise. A connection follows one study at a time: following another replaces it. The owner's
    /// last presented position, if this server knows it, comes at once.
    StudyFollow { id: u32, study: String },
    /// Stop following a study.
    StudyUnfollow { id: u32, study: String },
    /// The study's owner presents a position: chapter `chapter` (from 0), at `path` (`[]` the chapter's start,
    /// `[i]` after mainline move `i`, `[i, v, j]` after move `j` of variation `v` of mainline move `i`, …). Every
    /// follower gets `study_position`.
    StudyPresent { id: u32, study: String, chapter: u32, path: Vec<u32> },
    /// The study's owner lets the followers go to explore alone: they get `study_released`. From a follower who is
    /// not the owner: stop following (as `study_unfollow`).
    StudyRelease { id: u32, study: String },
}

impl ClientMessage {
    /// The client-chosen id the answer will carry.
    pub fn id(&self) -> u32 {
        use ClientMessage::*;
        match self {
            Hello { id, .. }
            | Subscribe { id, .. }
            | Unsubscribe { id, .. }
            | Game { id, .. }
            | Arbiter { id, .. }
            | Ping { id, .. }
            | Explain { id, .. }
            | LobbySubscribe { id }
            | LobbyUnsubscribe { id }
            | CreateSeek { id, .. }
            | CancelSeek { id, .. }
            | AcceptSeek { id, .. }
            | JoinPool { id, .. }
            | LeavePool { id }
            | PlayComputer { id, .. }
            | ChallengeFriend { id, .. }
            | AcceptChallenge { id, .. }
            | DeclineChallenge { id, .. }
            | CancelChallenge { id, .. }
            | StudyFollow { id, .. }
            | StudyUnfollow { id, .. }
            | StudyPresent { id, .. }
            | StudyRelease { id, .. } => *id,
        }
    }

    /// Every message's `type` (its `t` field), in the order of the enum.
    pub const KINDS: &'static [&'static str] = &[
        "hello",
        "subscribe",
        "unsubscribe",
        "game",
        "arbiter",
        "ping",
        "explain",
        "lobby_subscribe",
        "lobby_unsubscribe",
        "create_seek",
        "cancel_seek",
        "accept_seek",
        "join_pool",
        "leave_pool",
        "play_computer",
        "challenge_friend",
        "accept_challenge",
        "decline_challenge",
        "cancel_challenge",
        "study_follow",
        "study_unfollow",
        "study_present",
        "study_release",
    ];

    /// The message's `type` (its `t` field on the wire), one of [`ClientMessage::KINDS`].
    pub fn kind(&self) -> &'static str {
        use ClientMessage::*;
        let i = match self {
            Hello { .. } => 0,
            Subscribe { .. } => 1,
            Unsubscribe { .. } => 2,
            Game { .. } => 3,
            Arbiter { .. } => 4,
            Ping { .. } => 5,
            Explain { .. } => 6,
            LobbySubscribe { .. } => 7,
            LobbyUnsubscribe { .. } => 8,
            CreateSeek { .. } => 9,
            CancelSeek { .. } => 10,
            AcceptSeek { .. } => 11,
            JoinPool { .. } => 12,
            LeavePool { .. } => 13,
            PlayComputer { .. } => 14,
            ChallengeFriend { .. } => 15,
            AcceptChallenge { .. } => 16,
            DeclineChallenge { .. } => 17,
            CancelChallenge { .. } => 18,
            StudyFollow { .. } => 19,
            StudyUnfollow { .. } => 20,
            StudyPresent { .. } => 21,
            StudyRelease { .. } => 22,
        };
        Self::KINDS[i]
    }

    /// The game a game command is about, if it is one.
    pub fn game_id(&self) -> Option<&str> {
        use ClientMessage::*;
        match self {
            Subscribe { game_id, .. }
            | Unsubscribe { game_id, .. }
            | Game { game_id, .. }
            | Arbiter { game_id, .. }
            | Explain { game_id, .. } => Some(game_id),
            _ => None,
        }
    }
}
