// SPDX-License-Identifier: GPL-3.0-or-later
//! The narrow interfaces a game's actor works through for everything that is not its game: telling players
//! ([`Notifier`]), creating a game ([`GameCreator`], for rematches), a rated result's writes ([`Ratings`]) and what
//! follows the committed end of a game ([`Aftermath`]: the opening explorer, the reviews). The actor holds a
//! [`Services`] and nothing else of the server's, besides the writer it commits through and the engine pool; so
//! each of these can be replaced — by another node's, in a cluster, or by a test's — without touching the actor.

use std::collections::HashMap;
use std::fmt::Debug;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, Weak};

use guoxiang_core::Outcome;
use guoxiang_game::{Game, PlayerRef, TimeControl, Timestamp, Variant};
use guoxiang_store::{Store, WriteOp};
use tokio::sync::{OwnedMutexGuard, broadcast};

use super::GameError;
use super::{FinishedGame, Inner, Live, finish};
pub use crate::events::Notifier;

/// A boxed future, for the interfaces' asynchronous methods (they are used as trait objects).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A game to create: the players (White first), and its terms.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct NewGame {
    pub white: PlayerRef,
    pub black: PlayerRef,
    pub rated: bool,
    pub time_control: TimeControl,
    pub variant: Variant,
    pub source: guoxiang_game::Source,
    /// The rule set (touch-move, illegal moves counted, adjournment); `Rules::ONLINE` for most games.
    pub rules: guoxiang_game::Rules,
}

/// Creates a game, durably, and tells both players; answers its id.
pub trait GameCreator: Send + Sync + Debug {
    fn create_game(&self, game: NewGame) -> BoxFuture<'_, Result<String, GameError>>;
}

/// Held while a rated result is computed and committed: nobody else changes these players' ratings meanwhile.
#[derive(Debug)]
pub struct RatingsLock(#[allow(dead_code)] Vec<OwnedMutexGuard<()>>);

/// A rated result: both players' Glicko-2 ratings and 积分 (points) after it, as writes to commit with the result.
pub trait Ratings: Send + Sync + Debug {
    /// Locks the two players' ratings (for the read-modify-write of one result; released when dropped).
    fn lock<'a>(&'a self, a: &'a str, b: &'a str) -> BoxFuture<'a, RatingsLock>;
    /// The writes that a finished rated game makes to its players' ratings and points (none for guests or a game
    /// without a rating category).
    fn result_writes<'a>(
        &'a self,
        game: &'a Game,
        outcome: &'a Outcome,
        now: Timestamp,
    ) -> BoxFuture<'a, Result<Vec<WriteOp>, String>>;
}

/// What follows the committed end of a game, without the actor waiting for it.
pub trait Aftermath: Send + Sync + Debug {
    fn game_over(&self, game: &Game);
}

/// Who may act as an arbiter of a game (`docs/game.md`, "The arbiter"). The server asks before every `arbiter`
/// message and after a `subscribe` (to tell the user); the game itself records whoever the server lets through.
/// [`AdminArbiters`] is the server-wide rule; a tournament's organiser and arbiters are added by the tournaments'
/// implementation (`tournament::TournamentArbiters`), which asks the tournament the game belongs to and falls back
/// to this one.
pub trait Arbiters: Send + Sync + Debug {
    /// Whether the user `user_id` is an arbiter of `game` (its id and players are in the handle's data).
    fn is_arbiter<'a>(
        &'a self,
        user_id: &'a str,
        game: &'a super::HandleData,
    ) -> BoxFuture<'a, Result<bool, GameError>>;
}

/// The server's administrators (`users.is_admin`) are arbiters of every game they do not play in.
#[derive(Debug)]
pub struct AdminArbiters {
    pub store: Store,
}

impl Arbiters for AdminArbiters {
    fn is_arbiter<'a>(
        &'a self,
        user_id: &'a str,
        game: &'a super::HandleData,
    ) -> BoxFuture<'a, Result<bool, GameError>> {
        Box::pin(async move {
            // Nobody arbitrates their own game.
            if game.color_of(user_id).is_some() {
                return Ok(false);
            }
            Ok(self.store.user(user_id).await?.is_some_and(|u| u.is_admin && !u.is_guest))
        })
    }
}

/// Everything a game's actor asks of the rest of the server.
#[derive(Clone, Debug)]
pub struct Services {
    pub notifier: Arc<dyn Notifier>,
    pub games: Arc<dyn GameCreator>,
    pub ratings: Arc<dyn Ratings>,
    pub aftermath: Arc<dyn Aftermath>,
    /// Who may act as an arbiter of a game.
    pub arbiters: Arc<dyn Arbiters>,
}

/// The ratings of this server's store, with a lock per player.
#[derive(Debug)]
pub struct StoreRatings {
    store: Store,
    /// One result at a time per player, from reading the ratings to committing the new ones (results of other
    /// players go on meanwhile).
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl StoreRatings {
    pub fn new(store: Store) -> StoreRatings {
        StoreRatings { store, locks: Mutex::new(HashMap::new()) }
    }
}

impl Ratings for StoreRatings {
    fn lock<'a>(&'a self, a: &'a str, b: &'a str) -> BoxFuture<'a, RatingsLock> {
        Box::pin(async move {
            // In a fixed order, so that two results cannot wait for each other.
            let mut ids = [a, b];
            ids.sort_unstable();
            let locks: Vec<Arc<tokio::sync::Mutex<()>>> = {
                let mut map = self.locks.lock().unwrap_or_else(|e| e.into_inner());
                // Forget the locks nobody holds or waits for.
                map.retain(|_, l| Arc::strong_count(l) > 1);
                ids.iter().map(|id| map.entry((*id).to_owned()).or_default().clone()).collect()
            };
            let mut guards = Vec::with_capacity(2);
            for l in locks {
                guards.push(l.lock_owned().await);
            }
            RatingsLock(guards)
        })
    }

    fn result_writes<'a>(
        &'a self,
        game: &'a Game,
        outcome: &'a Outcome,
        now: Timestamp,
    ) -> BoxFuture<'a, Result<Vec<WriteOp>, String>> {
        Box::pin(finish::rating_ops(&self.store, game, outcome, now))
    }
}

/// This server's aftermath: the game goes into the opening explorer, and is announced to whoever listens (the
/// reviewer).
#[derive(Debug)]
pub struct LocalAftermath {
    pub(super) store: Store,
    pub(super) finished: broadcast::Sender<FinishedGame>,
}

impl Aftermath for LocalAftermath {
    fn game_over(&self, game: &Game) {
        finish::record_in_explorer(&self.store, game);
        // Nobody listening is fine: the result is stored either way.
        let _ = self.finished.send(FinishedGame {
            game_id: game.id().to_owned(),
            players: [game.white().clone(), game.black().clone()],
        });
    }
}

/// Game creation by this node's registry (held weakly: the registry holds the services).
#[derive(Debug)]
pub(super) struct LocalCreator(pub(super) Weak<Inner>);

impl GameCreator for LocalCreator {
    fn create_game(&self, g: NewGame) -> BoxFuture<'_, Result<String, GameError>> {
        Box::pin(async move {
            let inner = self.0.upgrade().ok_or_else(|| GameError::Store {
                what: "create game".into(),
                detail: "the server is stopping".into(),
            })?;
            Live { inner }.create_game(g).await
        })
    }
}
