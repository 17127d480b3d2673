// SPDX-License-Identifier: GPL-3.0-or-later
//! [`GameError`]: why a live game (its actor, through a [`GameHandle`](super::GameHandle)) refused something, as
//! the game service's own type — the transports (WebSocket, HTTP, the Lichess API) turn it into their error with
//! `From`, and a game owned by another node can send it back as it is.

use guoxiang_game::CommandError;

use crate::error::ApiError;

/// Why a live game refused a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game's rules refused the command (not your turn, an illegal move, no offer to accept, …).
    Refused(CommandError),
    /// The sender does not play in this game.
    NotAPlayer,
    /// The game is not (or no longer) in memory.
    Gone { game_id: String },
    /// The change could not be committed: nothing changed, and the same command may be sent again.
    NotSaved { what: String, detail: String },
    /// A square that is not a square (an `explain` request).
    BadSquare { text: String },
}

impl GameError {
    /// Whether this is a failed commit: the same command may be sent again.
    pub fn is_not_saved(&self) -> bool {
        matches!(self, GameError::NotSaved { .. })
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
            GameError::Gone { game_id } => write!(f, "game {game_id} is not live"),
            GameError::NotSaved { what, detail } => write!(f, "{what} not saved: {detail}"),
            GameError::BadSquare { text } => write!(f, "{text:?} is not a square"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        match e {
            GameError::Refused(e) => ApiError::from_command(&e),
            GameError::NotAPlayer => {
                ApiError::forbidden("not_a_player", "你不是这盘棋的对局者", "you are not a player in this game")
            }
            GameError::Gone { game_id } => ApiError::not_found(&format!("对局 {game_id}"), &format!("game {game_id}")),
            GameError::NotSaved { what, detail } => ApiError::not_committed(&what, detail),
            GameError::BadSquare { text } => ApiError::bad_request(
                "bad_request",
                format!("{text:?} 不是一个格子"),
                format!("{text:?} is not a square (e.g. e4)"),
            ),
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
            (GameError::Gone { game_id: "abc".into() }, "not_found", 404),
            (GameError::not_saved("commit of game abc".into(), "disk full"), "not_saved", 503),
            (GameError::BadSquare { text: "z9".into() }, "bad_request", 400),
        ];
        for (e, code, status) in cases {
            let saved = e.is_not_saved();
            let api = ApiError::from(e);
            assert_eq!((api.code, api.status.as_u16()), (code, status));
            assert_eq!(api.is_not_saved(), saved);
        }
    }
}
