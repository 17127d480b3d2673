// SPDX-License-Identifier: GPL-3.0-or-later
//! [`GameError`]: why a live game (its actor, through a [`GameHandle`](super::GameHandle)) or the creation of one
//! refused something, as
//! the game service's own type — the transports (WebSocket, HTTP, the Lichess API) turn it into their error with
//! `From`, and a game owned by another node can send it back as it is.

use guoxiang_core::Lang;
use guoxiang_game::{CommandError, SetupError};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::policy::Refusal;

/// A refusal as it crosses to the node that asked: the domain's error (its kind, code and messages) as the owner
/// made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireError {
    pub kind: crate::error::Kind,
    pub code: String,
    pub zh: String,
    pub en: String,
}

/// Why a live game refused a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game's rules refused the command (not your turn, an illegal move, no offer to accept, …).
    Refused(CommandError),
    /// The sender does not play in this game.
    NotAPlayer,
    /// An arbiter's act from a user who is not an arbiter of the game (`live::services::Arbiters`).
    NotArbiter,
    /// An arbiter's act from a player of the game: nobody arbitrates their own game.
    OwnGame,
    /// The game is not (or no longer) in memory.
    Gone { game_id: String },
    /// The change could not be committed: nothing changed, and the same command may be sent again.
    NotSaved { what: String, detail: String },
    /// A square that is not a square (an `explain` request).
    BadSquare { text: String },
    /// A new game: the computer has no such level.
    BadLevel { level: u8 },
    /// A new game: the time control cannot be read.
    BadTimeControl { text: String, problem: String },
    /// A new game: the time control is longer than anyone writes one (64 bytes).
    TimeControlTooLong,
    /// A new game: the start position cannot be read (`bad_fen`) or cannot start a game (`bad_setup`).
    BadStart { fen_unreadable: bool, error: SetupError },
    /// A new game: Chess960 start positions are numbered 0–959.
    NoSuchChess960 { number: u16 },
    /// A new game: it cannot be rated ([`crate::policy`]).
    NotRatable(Refusal),
    /// A new game: `name` has as many games in progress as allowed (`limit`; `computer`: against the computer).
    TooManyGames { name: String, limit: usize, computer: bool },
    /// The store failed while creating a game (nothing was created).
    Store { what: String, detail: String },
    /// The game's owner, on another node, refused: its error as it made it (`live::wire`).
    Remote(WireError),
}

impl From<Refusal> for GameError {
    fn from(r: Refusal) -> GameError {
        GameError::NotRatable(r)
    }
}

impl From<guoxiang_store::StoreError> for GameError {
    fn from(e: guoxiang_store::StoreError) -> GameError {
        GameError::Store { what: "the database".into(), detail: e.to_string() }
    }
}

impl GameError {
    /// Whether this is a failed commit: the same command may be sent again.
    pub fn is_not_saved(&self) -> bool {
        match self {
            GameError::NotSaved { .. } => true,
            GameError::Remote(w) => w.code == "not_saved",
            _ => false,
        }
    }

    /// The error as it crosses the broker to the node that asked.
    pub fn to_wire(&self) -> WireError {
        let api = Error::from(self.clone());
        WireError { kind: api.kind, code: api.code.to_owned(), zh: api.zh, en: api.en }
    }

    pub(crate) fn not_saved(what: String, detail: impl std::fmt::Display) -> GameError {
        GameError::NotSaved { what, detail: detail.to_string() }
    }
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Refused(e) => write!(f, "refused: {e}"),
            GameError::NotAPlayer => f.write_str("not a player in this game"),
            GameError::NotArbiter => f.write_str("not an arbiter of this game"),
            GameError::OwnGame => f.write_str("an arbiter's act in one's own game"),
            GameError::Gone { game_id } => write!(f, "game {game_id} is not live"),
            GameError::NotSaved { what, detail } => write!(f, "{what} not saved: {detail}"),
            GameError::BadSquare { text } => write!(f, "{text:?} is not a square"),
            GameError::BadLevel { level } => write!(f, "no computer level {level}"),
            GameError::BadTimeControl { text, problem } => write!(f, "time control {text:?}: {problem}"),
            GameError::TimeControlTooLong => f.write_str("time control too long"),
            GameError::BadStart { error, .. } => write!(f, "start position: {}", error.message(Lang::En)),
            GameError::NotRatable(r) => write!(f, "cannot be rated: {r:?}"),
            GameError::NoSuchChess960 { number } => write!(f, "no Chess960 start number {number}"),
            GameError::TooManyGames { name, limit, .. } => write!(f, "{name} has {limit} games in progress"),
            GameError::Store { what, detail } => write!(f, "{what}: {detail}"),
            GameError::Remote(w) => write!(f, "{} ({})", w.en, w.code),
        }
    }
}

impl std::error::Error for GameError {}

impl From<GameError> for Error {
    fn from(e: GameError) -> Error {
        match e {
            GameError::Refused(e) => Error::from_command(&e),
            GameError::NotAPlayer => {
                Error::forbidden("not_a_player", "你不是这盘棋的对局者", "you are not a player in this game")
            }
            GameError::NotArbiter => {
                Error::forbidden("not_arbiter", "你不是这盘棋的裁判", "you are not an arbiter of this game")
            }
            GameError::OwnGame => Error::forbidden(
                "own_board",
                "你不能裁决自己下的对局",
                "you cannot act as the arbiter of a game you play in",
            ),
            GameError::Gone { game_id } => Error::not_found(&format!("对局 {game_id}"), &format!("game {game_id}")),
            GameError::NotSaved { what, detail } => Error::not_committed(&what, detail),
            GameError::BadSquare { text } => Error::bad_request(
                "bad_request",
                format!("{text:?} 不是一个格子"),
                format!("{text:?} is not a square (e.g. e4)"),
            ),
            GameError::BadLevel { .. } => Error::bad_request(
                "bad_request",
                format!("电脑级别须为 1 到 {}", guoxiang_engine::LEVELS.len()),
                format!("the computer's level must be 1 to {}", guoxiang_engine::LEVELS.len()),
            ),
            GameError::BadTimeControl { text, problem } => Error::bad_request(
                "bad_time_control",
                format!("时限 {text:?} 无法识别：{problem}"),
                format!("time control {text:?}: {problem}"),
            ),
            GameError::TimeControlTooLong => {
                Error::bad_request("bad_time_control", "时限太长", "time control too long")
            }
            GameError::BadStart { fen_unreadable, error } => Error::bad_request(
                if fen_unreadable { "bad_fen" } else { "bad_setup" },
                error.message(Lang::Zh),
                error.message(Lang::En),
            ),
            GameError::NotRatable(r) => Error::from(r),
            GameError::NoSuchChess960 { number } => Error::bad_request(
                "bad_variant",
                format!("960 局的起始局面编号须为 0 到 959，不是 {number}"),
                format!("Chess960 start positions are numbered 0 to 959, not {number}"),
            ),
            GameError::TooManyGames { name, limit, computer } => {
                let (zh_what, en_what) = if computer {
                    ("盘与电脑的对局", "games against the computer")
                } else {
                    ("盘对局", "games")
                };
                Error::new(
                    crate::error::Kind::TooMany,
                    "too_many_games",
                    format!("{name} 已有 {limit} {zh_what}正在进行，请先下完或认输"),
                    format!("{name} already has {limit} {en_what} in progress; finish or resign one first"),
                )
            }
            GameError::Store { what, detail } => Error::internal(&what, detail),
            GameError::Remote(w) => Error::new(w.kind, crate::error::intern_code(&w.code), w.zh, w.en),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_error_keeps_its_wire_code() {
        let cases = [
            (GameError::Refused(CommandError::NotOver), "not_over", 400),
            (GameError::NotAPlayer, "not_a_player", 403),
            (GameError::NotArbiter, "not_arbiter", 403),
            (GameError::OwnGame, "own_board", 403),
            (GameError::Gone { game_id: "abc".into() }, "not_found", 404),
            (GameError::not_saved("commit of game abc".into(), "disk full"), "not_saved", 503),
            (GameError::BadSquare { text: "z9".into() }, "bad_request", 400),
            (GameError::BadLevel { level: 11 }, "bad_request", 400),
            (GameError::BadTimeControl { text: "5 min".into(), problem: "?".into() }, "bad_time_control", 400),
            (GameError::NotRatable(Refusal::NeedsAccount), "login_required", 403),
            (GameError::NoSuchChess960 { number: 960 }, "bad_variant", 400),
            (GameError::TooManyGames { name: "Ann".into(), limit: 3, computer: true }, "too_many_games", 429),
            (GameError::Store { what: "insert game".into(), detail: "disk".into() }, "internal", 500),
        ];
        for (e, code, status) in cases {
            let saved = e.is_not_saved();
            // Across the broker, the same answer.
            let remote = GameError::Remote(e.to_wire());
            assert_eq!(remote.is_not_saved(), saved);
            let far = Error::from(remote);
            let api = Error::from(e);
            assert_eq!((api.code, api.kind), (code, crate::error::kind_of_status(status)));
            assert_eq!(api.is_not_saved(), saved);
            assert_eq!((far.code, far.kind, &far.zh, &far.en), (api.code, api.kind, &api.zh, &api.en));
        }
    }
}
