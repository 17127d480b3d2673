// SPDX-License-Identifier: GPL-3.0-or-later
//! The game directory: a game's handle wherever the game runs. A game this node owns is its actor's handle, reached
//! directly; one another node of the cluster owns is a proxy's (`remote`), made on first need. The transports
//! (WebSocket, the Lichess API, the HTTP pages) and the services above (lobby, tournaments) ask here and do not
//! know which it is; a move for a game on this node never goes near the cluster's code.

use std::time::Duration;

use guoxiang_game::Action;

use super::wire::{self, Reply, Request};
use super::{GameError, GameHandle, Live};

impl Live {
    /// The game `id` if it is live on any node of the cluster: this node's actor, or a proxy for the owner's.
    /// Without a broker, only this node's games.
    pub async fn find(&self, id: &str) -> Option<GameHandle> {
        if let Some(h) = self.get(id) {
            return Some(h);
        }
        let broker = self.inner.broker.clone()?;
        self.proxy(id, broker).await
    }

    /// Creates a game on the node `on` (in a cluster with a broker; this node when `None` or this node): the lobby
    /// creates each game it pairs on a player's node, so that its games spread over the cluster.
    pub async fn create_game_on(
        &self,
        on: Option<&str>,
        id: String,
        game: super::NewGame,
    ) -> Result<String, GameError> {
        let (Some(node), Some(broker)) = (on, self.inner.broker.as_ref()) else {
            return self.create_game_as(id, game).await;
        };
        if node == broker.node() {
            return self.create_game_as(id, game).await;
        }
        let wait = Duration::from_millis(self.lease_ms() + 1000);
        match wire::ask(&**broker, node, &id, &Request::CreateGame { game: Box::new(game.clone()) }, wait).await {
            Some(Reply::Created { game_id }) => Ok(game_id),
            Some(Reply::Refused { error }) => Err(GameError::Remote(error)),
            // No answer (that node is gone or slow): if it did not create the game, this node does.
            _ => match self.inner.store.game(&id).await? {
                Some(_) => Ok(id),
                None => self.create_game_as(id, game).await,
            },
        }
    }

    /// [`Live::find`], or [`GameError::Gone`].
    pub async fn locate(&self, id: &str) -> Result<GameHandle, GameError> {
        self.find(id).await.ok_or_else(|| super::gone(id))
    }

    /// Carries out a player's command on the live game of `h`, wherever it runs; returns once it is durable (or
    /// refused). A game that has just moved to another node may leave the command unread by this node's actor,
    /// which stopped (`GameError::Gone`, nothing done): with a broker it is sent to the game's new owner then.
    pub async fn command(
        &self,
        mut h: GameHandle,
        user_id: &str,
        action: Action,
        lag_ms: u64,
    ) -> Result<(), GameError> {
        let mut tries = 0;
        loop {
            match h.command(user_id, action.clone(), lag_ms).await {
                // The stopped actor leaves the registry in a moment; then `find` gives the owner.
                Err(GameError::Gone { game_id }) if self.inner.broker.is_some() && tries < 40 => {
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    h = self.find(&game_id).await.ok_or(GameError::Gone { game_id })?;
                }
                r => return r,
            }
        }
    }

    /// The games `user_id` plays now on any node (this node's when there is no broker).
    pub async fn playing(&self, user_id: &str) -> Vec<String> {
        let mut ids: Vec<String> = self.games_of(user_id).into_iter().map(|g| g.id.clone()).collect();
        if self.inner.broker.is_some() {
            match self.inner.store.live_games_of(user_id).await {
                Ok(all) => {
                    for (id, _) in all {
                        if !ids.contains(&id) {
                            ids.push(id);
                        }
                    }
                }
                Err(e) => tracing::warn!("the games of {user_id} on other nodes: {e}"),
            }
        }
        ids
    }
}
