// SPDX-License-Identifier: GPL-3.0-or-later
//! The opening explorer's write path: games finished on this server go into its `server` source (the read path,
//! `GET /api/explorer`, is `http::explorer`; docs/explorer.md).

use guoxiang_core::Position;
use guoxiang_explorer::SpeedBucket;
use guoxiang_store::ExplorerSource;

/// Adds a game finished on this server to the explorer's `server` source: its first plies from `start` (UCI
/// moves), its speed, the players' ratings before the game when it was rated. Games without a move are not added.
pub async fn record_server_game(
    store: &guoxiang_store::Store,
    start: &Position,
    moves: &[&str],
    speed: SpeedBucket,
    ratings: (Option<u32>, Option<u32>),
    outcome: guoxiang_explorer::Outcome,
) -> Result<(), guoxiang_store::StoreError> {
    let keys = guoxiang_explorer::index_uci(start, moves);
    if keys.is_empty() {
        return Ok(());
    }
    let game = guoxiang_explorer::IndexedGame {
        speed,
        average_rating: guoxiang_explorer::average_rating(ratings.0, ratings.1),
        outcome,
        keys,
    };
    let mut batch = guoxiang_explorer::Batch::new();
    batch.add(&game);
    store.explorer_add(ExplorerSource::Server, &batch.take_rows()).await
}
