// SPDX-License-Identifier: GPL-3.0-or-later
//! A game's messages between nodes (the `Game` family of [`crate::transport`]): requests for the game's owner and
//! its replies, and the changes the owner publishes for the nodes that follow the game. One serializable request
//! for everything another node may ask of a game; the owner's actor is asked the same through its handle
//! (`live::remote::answer`).

use std::time::Duration;

use guoxiang_game::{Action, ArbiterAct, ArbiterRef, Snapshot, VersionedEvent};
use serde::{Deserialize, Serialize};

pub use super::error::WireError;
use super::{GameView, NewGame};
use crate::transport::{Family, Topic, Transport, decode, encode};

/// A request for the owner of a game.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Request {
    Command {
        user_id: String,
        action: Action,
        lag_ms: u64,
    },
    Arbiter {
        arbiter: ArbiterRef,
        act: ArbiterAct,
    },
    /// The frames a new follower starts with (a snapshot or the events since `since`, then the clocks).
    Subscribe {
        since: Option<u64>,
    },
    Presence {
        user_id: String,
        delta: i32,
    },
    View,
    Snapshot,
    /// From the node that runs the lobby: create (and own) the game `game_id` it paired.
    CreateGame {
        game: Box<NewGame>,
    },
}

/// The owner's answer to a [`Request`].
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Reply {
    Done,
    Refused {
        error: WireError,
    },
    /// The addressed node does not run the game (any more): ask the database who does.
    NotHere,
    /// The frames a new follower starts with, and the version they bring it to.
    Initial {
        frames: Vec<String>,
        version: u64,
    },
    View {
        view: Box<GameView>,
    },
    Snapshot {
        snapshot: Box<Snapshot>,
    },
    Created {
        game_id: String,
    },
}

/// A change of a game, as its owner publishes it on `gx:game:{id}`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameUpdate {
    pub game_id: String,
    pub events: Vec<VersionedEvent>,
    /// The `game_events` frame.
    pub ws_json: String,
    /// The `clocks` frame, when the game has clocks.
    pub clocks_json: Option<String>,
    /// The game's version after this change.
    pub version: u64,
    pub over: bool,
}

/// Asks the owner `node` of `game_id` and waits up to `timeout` for the reply (`None`: none came, or not ours).
pub async fn ask(t: &dyn Transport, node: &str, game_id: &str, req: &Request, timeout: Duration) -> Option<Reply> {
    let body = t.ask(node, Family::Game, game_id, encode(req), timeout).await?;
    decode(&body)
}

/// Tells the owner `node` of `game_id` something that needs no reply (presence).
pub fn tell(t: &dyn Transport, node: &str, game_id: &str, req: &Request) {
    t.tell(node, Family::Game, game_id, encode(req));
}

/// Publishes a change of a game this node owns, for the nodes that follow it.
pub fn publish(t: &dyn Transport, update: &GameUpdate) {
    t.publish(Topic::Game(&update.game_id), encode(update));
}

impl Reply {
    /// A command's or an act's outcome as it crosses: done, refused, or `not_here` when the game's actor is gone
    /// (it moved to another node, or ended and left memory: the asker looks the owner up again).
    pub fn of_outcome(r: Result<(), super::GameError>) -> Reply {
        match r {
            Ok(()) => Reply::Done,
            Err(super::GameError::Gone { .. }) => Reply::NotHere,
            Err(e) => Reply::Refused { error: e.to_wire() },
        }
    }
}
