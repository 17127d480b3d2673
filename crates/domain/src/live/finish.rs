//! What a rated result changes: both players' Glicko-2 rating for the game's speed, and their 积分 (points, and so
//! their 级别). Computed under the ratings service's lock (`services::StoreRatings`) and committed in the same transaction as the result.
//! After the commit, [`record_in_explorer`] adds a finished game to the opening explorer's `server` source.

use guoxiang_core::{Color, Outcome};
use guoxiang_game::{Game, Timestamp};
use guoxiang_ratings::{GameResult, Glicko, RatingSpeed, points_after, rate_game};
use guoxiang_store::{RatingRow, Store, WriteOp};

pub(super) async fn rating_ops(
    store: &Store,
    game: &Game,
    outcome: &Outcome,
    now: Timestamp,
) -> Result<Vec<WriteOp>, String> {
    let Some(speed) = RatingSpeed::of(game.time_control().speed()) else { return Ok(Vec::new()) };
    let (w, b) = (&game.white().id, &game.black().id);
    let (Some(wu), Some(bu)) =
        (store.user(w).await.map_err(|e| e.to_string())?, store.user(b).await.map_err(|e| e.to_string())?)
    else {
        return Ok(Vec::new());
    };
    if wu.is_guest || bu.is_guest {
        return Ok(Vec::new());
    }
    let glicko = |rows: Vec<RatingRow>| {
        rows.into_iter()
            .find(|r| r.speed == speed.as_str())
            .map(|r| Glicko {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
                games: r.games as u32,
            })
            .unwrap_or_default()
    };
    let wg = glicko(store.ratings(w).await.map_err(|e| e.to_string())?);
    let bg = glicko(store.ratings(b).await.map_err(|e| e.to_string())?);
    let result = match outcome.winner {
        Some(Color::White) => GameResult::WhiteWins,
        Some(Color::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    };
    let (wn, bn) = rate_game(&wg, &bg, result);
    let points = points_after(wu.points.max(0) as u32, bu.points.max(0) as u32, result);
    let row = |user_id: &str, g: &Glicko| RatingRow {
        user_id: user_id.to_owned(),
        speed: speed.as_str().to_owned(),
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
        games: i64::from(g.games),
        updated_at_ms: now.0 as i64,
    };
    let id = game.id().to_owned();
    Ok(vec![
        WriteOp::UpsertRating { row: row(w, &wn), game_id: id.clone() },
        WriteOp::UpsertRating { row: row(b, &bn), game_id: id.clone() },
        WriteOp::SetPoints { user_id: w.clone(), points: i64::from(points.white_after) },
        WriteOp::SetPoints { user_id: b.clone(), points: i64::from(points.black_after) },
        WriteOp::SetRatingDiffs {
            game_id: id,
            white_rating: Some(wg.rating.round() as i64),
            black_rating: Some(bg.rating.round() as i64),
            white_rating_diff: Some((wn.rating.round() - wg.rating.round()) as i64),
            black_rating_diff: Some((bn.rating.round() - bg.rating.round()) as i64),
            white_points_diff: Some(i64::from(points.white_delta)),
            black_points_diff: Some(i64::from(points.black_delta)),
        },
    ])
}

/// Adds a game that has just finished (and been committed) to the opening explorer, in a task of its own: the
/// explorer is statistics, so a failure is logged and the game is not retried. Aborted games, games without moves
/// and Chess960 games are not added; a rated game counts the ratings stored with its result.
pub(super) fn record_in_explorer(store: &Store, game: &Game) {
    let guoxiang_game::Status::Finished { outcome } = game.status() else { return };
    if game.moves().is_empty() || matches!(game.variant(), guoxiang_game::Variant::Chess960 { .. }) {
        return;
    }
    let Ok(start) = game.variant().start_position() else { return };
    let result = match outcome.winner {
        Some(Color::White) => guoxiang_explorer::Outcome::WhiteWins,
        Some(Color::Black) => guoxiang_explorer::Outcome::BlackWins,
        None => guoxiang_explorer::Outcome::Draw,
    };
    let speed = guoxiang_explorer::SpeedBucket::of_speed(game.time_control().speed());
    let moves: Vec<String> =
        game.moves().iter().take(guoxiang_explorer::MAX_PLIES).map(|m| m.uci.to_string()).collect();
    let (store, id) = (store.clone(), game.id().to_owned());
    tokio::spawn(async move {
        let rating = |r: Option<i64>| r.and_then(|r| u32::try_from(r).ok());
        let ratings = match store.game(&id).await {
            Ok(Some((row, _))) => (rating(row.white_rating), rating(row.black_rating)),
            _ => (None, None),
        };
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        if let Err(e) = crate::explorer::record_server_game(&store, &start, &moves, speed, ratings, result).await {
            tracing::warn!("game {id}: not added to the opening explorer: {e}");
        }
    });
}
