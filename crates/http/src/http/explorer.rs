// SPDX-License-Identifier: GPL-3.0-or-later
//! `GET /api/explorer`: the opening explorer (docs/explorer.md) — the moves played in a position over the games
//! finished on this server (`source=server`) or the PGN databases its host imported (`source=imported`), with
//! results, average rating, and the position's opening name, ECO code and family in Chinese and English.
//!
//! Parameters (all optional): `fen` (default the standard start), `moves` (UCI, separated by commas or spaces,
//! played from `fen`), `source` (`server`, the default, or `imported`), `speeds` (bucket names, comma-separated),
//! `ratings` (rating bucket lower bounds: 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500). A bad parameter is a
//! 400 whose message names it.

use std::collections::HashMap;

use axum::Json;
use axum::Router;
use axum::extract::{Query, State};
use axum::routing::get;
use guoxiang_core::{Position, Validation};
use guoxiang_explorer::{MAX_PLIES, RATING_BUCKETS, SpeedBucket, opening_info, summarize};
use guoxiang_protocol::http::{ExplorerAnswer, ExplorerOpening, OpeningFamily};
use guoxiang_store::ExplorerSource;

use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::http::analysis::{MAX_MOVES, PositionError, replay};

/// Routes: the opening explorer.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/explorer", get(explorer))
}

const PARAMS: [&str; 5] = ["fen", "moves", "source", "speeds", "ratings"];

fn bad(field: &str, zh: impl std::fmt::Display, en: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request("bad_request", format!("{field}：{zh}"), format!("{field}: {en}"))
}

fn list(value: Option<&String>) -> Vec<&str> {
    value.map_or_else(Vec::new, |v| v.split([',', ' ']).filter(|s| !s.is_empty()).collect())
}

/// The speed buckets of `speeds=`.
fn speeds(value: Option<&String>) -> Result<Vec<SpeedBucket>, ApiError> {
    let names = || SpeedBucket::ALL.map(SpeedBucket::as_str).join(", ");
    list(value)
        .into_iter()
        .map(|s| {
            SpeedBucket::parse(s).ok_or_else(|| {
                bad(
                    "speeds",
                    format!("没有“{s}”这种速度（可用：{}）", names()),
                    format!("'{s}' is not a speed ({})", names()),
                )
            })
        })
        .collect()
}

/// The rating buckets of `ratings=`.
fn ratings(value: Option<&String>) -> Result<Vec<i64>, ApiError> {
    let bounds = || RATING_BUCKETS.map(|b| b.to_string()).join(", ");
    list(value)
        .into_iter()
        .map(|s| match s.parse::<i64>() {
            Ok(b) if RATING_BUCKETS.contains(&b) => Ok(b),
            _ => Err(bad(
                "ratings",
                format!("“{s}”不是等级分段的下限（可用：{}）", bounds()),
                format!("'{s}' is not the lower bound of a rating bucket ({})", bounds()),
            )),
        })
        .collect()
}

/// `GET /api/explorer?fen=…&moves=e2e4,e7e5&source=server&speeds=blitz,rapid&ratings=1600,1800`.
pub async fn explorer(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Json<ExplorerAnswer>> {
    known_params(&q)?;
    let source = source(q.get("source"))?;
    let speeds = speeds(q.get("speeds"))?;
    let ratings = ratings(q.get("ratings"))?;
    let (start, moves, pos) = position(&q)?;
    let codes: Vec<i64> = speeds.iter().map(|s| s.code()).collect();
    let rows = state
        .store
        .explorer_rows(source, pos.hash(), &codes, &ratings)
        .await
        .map_err(|e| ApiError::internal("explorer", e))?;
    let summary = summarize(&pos, &rows);
    let line: Vec<&str> = moves.iter().map(String::as_str).collect();
    let opening = opening_info(&start, &line, &pos);
    Ok(Json(ExplorerAnswer {
        fen: pos.fen(),
        source: match source {
            ExplorerSource::Server => guoxiang_protocol::http::ExplorerSource::Server,
            ExplorerSource::Imported => guoxiang_protocol::http::ExplorerSource::Imported,
        },
        speeds: speeds.iter().map(|s| s.as_str().to_owned()).collect(),
        ratings,
        max_plies: MAX_PLIES as u32,
        total: summary.total,
        moves: summary.moves,
        opening: explorer_opening(opening),
    }))
}

/// Refuses a parameter the explorer does not know (the first in name order).
fn known_params(q: &HashMap<String, String>) -> Result<(), ApiError> {
    let mut unknown: Vec<&String> = q.keys().filter(|k| !PARAMS.contains(&k.as_str())).collect();
    unknown.sort();
    match unknown.first() {
        Some(k) => Err(bad(
            k,
            format!("没有这个参数（可用：{}）", PARAMS.join(", ")),
            format!("unknown parameter ({})", PARAMS.join(", ")),
        )),
        None => Ok(()),
    }
}

/// The games of `source=` (default: this server's).
fn source(value: Option<&String>) -> Result<ExplorerSource, ApiError> {
    match value.map(String::as_str) {
        None | Some("") => Ok(ExplorerSource::Server),
        Some(s) => ExplorerSource::parse(s).ok_or_else(|| {
            bad("source", format!("“{s}”不可用，须为 server 或 imported"), format!("'{s}': say server or imported"))
        }),
    }
}

/// The start position of `fen=`, the moves of `moves=`, and the position they reach.
fn position(q: &HashMap<String, String>) -> Result<(Position, Vec<String>, Position), ApiError> {
    let fen = q.get("fen").map(|f| f.trim()).filter(|f| !f.is_empty());
    let start = match fen {
        None => Position::new(),
        Some(f) => Position::from_fen_with(f, guoxiang_core::CastlingMode::Auto, Validation::Strict)
            .map_err(|e| bad("fen", format!("FEN 有误：{e}"), format!("bad FEN: {e}")))?,
    };
    let moves: Vec<String> = list(q.get("moves")).into_iter().map(str::to_owned).collect();
    if moves.len() > MAX_MOVES {
        return Err(bad(
            "moves",
            format!("着法太多（上限 {MAX_MOVES}）"),
            format!("too many moves (at most {MAX_MOVES})"),
        ));
    }
    match replay(fen, &moves) {
        Ok((pos, _)) => Ok((start, moves, pos)),
        Err(PositionError::Move { index, uci, reason }) => Err(bad(
            "moves",
            format!("第 {index} 步 {uci:?} 无法走出：{reason}"),
            format!("move {index} ({uci:?}) cannot be played: {reason}"),
        )),
        Err(e) => {
            let (zh, en) = e.text();
            Err(bad("fen", zh, en))
        }
    }
}

/// The answer's form of the position's opening.
fn explorer_opening(opening: guoxiang_explorer::OpeningInfo) -> ExplorerOpening {
    let own = |s: Option<&str>| s.map(str::to_owned);
    let guoxiang_explorer::OpeningInfo { eco, name_zh, name_en, family, family_zh, family_en } = opening;
    ExplorerOpening {
        eco: own(eco),
        name_zh: own(name_zh),
        name_en: own(name_en),
        family: family.and_then(OpeningFamily::from_id),
        family_zh: own(family_zh),
        family_en: own(family_en),
    }
}
