// SPDX-License-Identifier: GPL-3.0-or-later
//! Who arbitrates a tournament's games: its organiser and the arbiters it named (`docs/tournament.md` "On the
//! server"), besides the server's administrators.

use guoxiang_store::Store;

use crate::live::services::{AdminArbiters, Arbiters, BoxFuture};
use crate::live::{GameError, HandleData};

/// The arbiters of a game: [`AdminArbiters`], and for a tournament's game the tournament's organiser and arbiters.
/// Nobody arbitrates their own game.
#[derive(Debug)]
pub struct TournamentArbiters {
    admins: AdminArbiters,
}

impl TournamentArbiters {
    pub fn new(store: Store) -> TournamentArbiters {
        TournamentArbiters { admins: AdminArbiters { store } }
    }
}

impl Arbiters for TournamentArbiters {
    fn is_arbiter<'a>(&'a self, user_id: &'a str, game: &'a HandleData) -> BoxFuture<'a, Result<bool, GameError>> {
        Box::pin(async move {
            if game.color_of(user_id).is_some() {
                return Ok(false);
            }
            if self.admins.is_arbiter(user_id, game).await? {
                return Ok(true);
            }
            let store = &self.admins.store;
            let Some(link) = store.tournament_of_game(&game.id).await? else { return Ok(false) };
            let Some(row) = store.tournament(&link.tournament_id).await? else { return Ok(false) };
            let doc = super::stored_doc(&row)
                .map_err(|e| GameError::Store { what: format!("tournament {}", row.id), detail: e.to_string() })?;
            Ok(doc.organiser_id == user_id || doc.is_arbiter(user_id))
        })
    }
}
