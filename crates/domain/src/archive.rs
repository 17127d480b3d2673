// SPDX-License-Identifier: GPL-3.0-or-later
//! Stored games as PGN: the export of one game (tags, `[%clk]` comments, ratings, the opening), with the
//! tournament's `Event` and `Round` as tags, and the game as a reader of its PGN would replay it (start position,
//! moves, tags, result) taken from the stored game itself. No HTTP here: the archive's handlers
//! (`http::archive`), the reviewer and the tournaments use it.

use guoxiang_game::{Game, PgnTags};
use guoxiang_pgn::ReplayedGame;
use guoxiang_store::{GameRow, MoveRow};

/// `YYYY.MM.DD` (UTC) of a Unix time in ms.
pub fn pgn_date(ms: i64) -> String {
    let (y, m, d) = civil(ms.div_euclid(86_400_000));
    format!("{y:04}.{m:02}.{d:02}")
}

/// `HH:MM:SS` of a time in ms since the Unix epoch (UTC), for the `UTCTime` tag.
pub fn pgn_time(ms: i64) -> String {
    let s = ms.div_euclid(1000).rem_euclid(86_400);
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian.
pub fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The opening a stored game reached, if known.
pub fn opening_of(moves: &[MoveRow], initial_fen: Option<&str>) -> Option<&'static guoxiang_openings::Opening> {
    if initial_fen.is_some() {
        return None;
    }
    let uci: Vec<&str> = moves.iter().map(|m| m.uci.as_str()).collect();
    guoxiang_openings::classify_uci(&uci)
}

/// What a PGN export includes beyond the moves and the tags (Lichess's `clocks` and `opening` export flags).
#[derive(Clone, Copy, Debug)]
pub struct PgnOptions {
    /// `[%clk]` comments.
    pub clocks: bool,
    /// The `ECO` and `Opening` tags.
    pub opening: bool,
}

impl Default for PgnOptions {
    fn default() -> PgnOptions {
        PgnOptions { clocks: true, opening: true }
    }
}

/// Where a game was played, when it is part of an event: the `Event` and `Round` tags (a game on its own has
/// Lichess's defaults, `Rated blitz game` and `-`).
#[derive(Clone, Debug, Default)]
pub struct EventTags {
    pub event: Option<String>,
    pub round: Option<String>,
}

/// A stored game, rebuilt, and its export tags on a server reached at `public_url`.
fn restored(
    public_url: &str,
    row: &GameRow,
    moves: &[MoveRow],
    opts: PgnOptions,
    at: EventTags,
) -> Result<(Game, PgnTags), String> {
    let game = crate::live::restore_game(row, moves)?;
    let mut extra =
        vec![("UTCDate".to_owned(), pgn_date(row.created_at_ms)), ("UTCTime".to_owned(), pgn_time(row.created_at_ms))];
    let mut push = |k: &str, v: Option<i64>| {
        if let Some(v) = v {
            extra.push((k.to_owned(), if k.ends_with("Diff") && v >= 0 { format!("+{v}") } else { v.to_string() }));
        }
    };
    push("WhiteElo", row.white_rating);
    push("BlackElo", row.black_rating);
    push("WhiteRatingDiff", row.white_rating_diff);
    push("BlackRatingDiff", row.black_rating_diff);
    if let Some(o) = opening_of(moves, game.variant().fen()).filter(|_| opts.opening) {
        extra.push(("ECO".to_owned(), o.eco.to_string()));
        extra.push(("Opening".to_owned(), o.name_en.to_string()));
    }
    let tags = PgnTags {
        event: at.event,
        site: Some(format!("{public_url}/{}", row.id)),
        date: Some(pgn_date(row.created_at_ms)),
        round: at.round,
        without_clocks: !opts.clocks,
        extra,
    };
    Ok((game, tags))
}

/// A stored game in PGN export format, with `[%clk]` comments, ratings and the opening as `opts` ask, on a server
/// reached at `public_url`; `at` names the event it belongs to.
pub fn game_pgn(
    public_url: &str,
    row: &GameRow,
    moves: &[MoveRow],
    opts: PgnOptions,
    at: EventTags,
) -> Result<String, String> {
    let (game, tags) = restored(public_url, row, moves, opts, at)?;
    Ok(game.to_pgn(&tags))
}

/// A stored game as our PGN reader would replay its export ([`game_pgn`] with the default options): the tags in
/// the order written, the start position, the moves and the result — taken from the rebuilt game, not from text.
pub fn replayed(public_url: &str, row: &GameRow, moves: &[MoveRow]) -> Result<ReplayedGame, String> {
    let (game, tags) = restored(public_url, row, moves, PgnOptions::default(), EventTags::default())?;
    let state = game.state();
    Ok(ReplayedGame {
        tags: game.pgn_tags(&tags),
        start: state.start().clone(),
        moves: state.moves().to_vec(),
        plies: Vec::new(),
        position: state.position().clone(),
        result: Some(game.pgn_result()),
        errors: Vec::new(),
    })
}
