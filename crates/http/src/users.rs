// SPDX-License-Identifier: GPL-3.0-or-later
//! Users as the APIs show them: a user's Lichess-shaped JSON (`/api/account`, `/api/user/{name}`), its `perfs` and
//! `count`, and the title (`BOT`). Shared by the Lichess-compatible API and the archive's profile.

use serde_json::{Value, json};

use crate::AppState;
use crate::api_error::ApiResult;

/// A user's Lichess title: `BOT` for a bot account, otherwise none (guoxiang has no FIDE titles).
pub async fn title(state: &AppState, user_id: &str) -> Option<&'static str> {
    state.store.user(user_id).await.ok().flatten().is_some_and(|u| u.is_bot).then_some("BOT")
}

/// A user as Lichess's `/api/account` and `/api/user/{name}` show one: id, username, `title` (`BOT`), perfs for
/// every speed, `count`, `createdAt`/`seenAt`, `url`, and `playing` (the URL of a game in progress), plus our
/// 积分 and 级别 (`points`, `level`, `level_zh`, `level_en`), which Lichess clients ignore.
pub async fn user_json(state: &AppState, u: &guoxiang_store::User) -> ApiResult<Value> {
    let ratings = state.store.ratings(&u.id).await?;
    let history = state.store.rating_history(&u.id).await?;
    let counts = state.store.game_counts(&u.id).await?;
    let games = state.live.playing(&u.id).await;
    let mut account = json!({
        "id": u.id,
        "username": u.name,
        "perfs": lichess_perfs(&ratings, &history),
        "createdAt": u.created_at_ms,
        "seenAt": guoxiang_domain::time::now_ms(),
        "playTime": {"total": 0, "tv": 0},
        "url": format!("{}/@/{}", state.config.public_url, u.name),
        "count": lichess_count(&counts, games.len()),
        "followable": false,
        "following": false,
        "blocking": false,
        "points": u.points,
        "level": guoxiang_ratings::level(u.points.max(0) as u32),
        "level_zh": guoxiang_ratings::level_name(u.points.max(0) as u32, guoxiang_ratings::Lang::Zh).to_string(),
        "level_en": guoxiang_ratings::level_name(u.points.max(0) as u32, guoxiang_ratings::Lang::En).to_string(),
    });
    if u.is_bot {
        account["title"] = json!("BOT");
    }
    // The game in progress, as Lichess's `playing` URL (with the user's colour).
    if let Some(id) = games.first()
        && let Some(g) = state.live.find(id).await
    {
        let color = if g.white.id == u.id { "white" } else { "black" };
        account["playing"] = json!(format!("{}/{}/{color}", state.config.public_url, g.id));
    }
    Ok(account)
}

/// Lichess's speeds as its `perfs` name them, with the server's speed each reads (ultrabullet is rated as bullet).
pub const PERF_SPEEDS: [(&str, &str); 6] = [
    ("ultraBullet", "bullet"),
    ("bullet", "bullet"),
    ("blitz", "blitz"),
    ("rapid", "rapid"),
    ("classical", "classical"),
    ("correspondence", "correspondence"),
];

/// `perfs` as Lichess gives them: every speed, played or not, with `games`, `rating`, `rd`, `prog` and `prov`.
/// `prog` is the rating gained over the last 12 rated games of that speed (from the rating history, whose first
/// game started from the default rating); an unplayed speed is the default rating, provisional.
pub fn lichess_perfs(rows: &[guoxiang_store::RatingRow], history: &[guoxiang_store::RatingPoint]) -> Value {
    let default = guoxiang_ratings::Glicko::default();
    let mut perfs = serde_json::Map::new();
    for (name, speed) in PERF_SPEEDS {
        let row = rows.iter().find(|r| r.speed == speed);
        let points: Vec<f64> = history.iter().filter(|p| p.speed == speed).map(|p| p.rating).collect();
        let prog = match points.len() {
            0 => 0,
            n => {
                let before = if n > 12 { points[n - 13] } else { default.rating };
                (points[n - 1] - before).round() as i64
            }
        };
        let (games, rating, rd) = match row {
            Some(r) => (r.games, r.rating, r.deviation),
            None => (0, default.rating, default.deviation),
        };
        let g = guoxiang_ratings::Glicko { rating, deviation: rd, volatility: default.volatility, games: games as u32 };
        perfs.insert(
            name.to_owned(),
            json!({
                "games": games,
                "rating": rating.round() as i64,
                "rd": rd.round() as i64,
                "prog": prog,
                "prov": g.is_provisional(),
            }),
        );
    }
    Value::Object(perfs)
}

/// `count` as Lichess gives it (`bookmark`, `import` and `me` are always 0 here).
pub fn lichess_count(c: &guoxiang_store::GameCounts, playing: usize) -> Value {
    json!({
        "all": c.all, "rated": c.rated, "ai": c.ai,
        "draw": c.draw, "drawH": c.draw_h, "loss": c.loss, "lossH": c.loss_h, "win": c.win, "winH": c.win_h,
        "bookmark": 0, "playing": playing, "import": 0, "me": 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfs_for_every_speed_with_progress_over_twelve_games() {
        let point = |speed: &str, rating: f64| guoxiang_store::RatingPoint {
            speed: speed.into(),
            game_id: "g".into(),
            at_ms: 0,
            rating,
            deviation: 80.0,
        };
        // 15 blitz games, each 10 points up from 1510: the last 12 gained 120; 3 rapid games from 1500 to 1460.
        let mut history: Vec<_> = (1..=15).map(|i| point("blitz", 1500.0 + 10.0 * f64::from(i))).collect();
        history.extend([point("rapid", 1480.0), point("rapid", 1470.0), point("rapid", 1460.0)]);
        let row = |speed: &str, rating: f64, games: i64| guoxiang_store::RatingRow {
            user_id: "u".into(),
            speed: speed.into(),
            rating,
            deviation: 80.0,
            volatility: 0.06,
            games,
            updated_at_ms: 0,
        };
        let p = lichess_perfs(&[row("blitz", 1650.0, 15), row("rapid", 1460.0, 3)], &history);
        assert_eq!(p["blitz"], json!({"games": 15, "rating": 1650, "rd": 80, "prog": 120, "prov": false}));
        assert_eq!(p["rapid"]["prog"], -40);
        assert_eq!(p["classical"], json!({"games": 0, "rating": 1500, "rd": 350, "prog": 0, "prov": true}));
        assert_eq!(p.as_object().unwrap().len(), 6);
    }
}
