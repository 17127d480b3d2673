//! [`GameView`]: a game's public state in one flat value, for the HTTP APIs (the site's `GET /api/game/{id}`, the
//! Lichess-compatible streams, the cluster's view request) — the WebSocket protocol has its own snapshot type. It is
//! the protocol's type: a game in memory gives it with [`GameView::of`], a stored game with [`game_row_view`].

use guoxiang_core::Color;
use guoxiang_game::{PlayerRef, Status, TimeControl};
use guoxiang_protocol::GameStatus;
pub use guoxiang_protocol::http::GameView;
use guoxiang_store::{GameRow, MoveRow};

pub(crate) fn color_str(c: Color) -> String {
    c.fold("white", "black").to_owned()
}

/// Initial time and increment of a simple control (one period with a per-move increment, or none).
pub fn clock_of(tc: &TimeControl) -> (Option<u64>, Option<u64>) {
    guoxiang_protocol::http::simple_clock(tc)
}

/// The `source` of a stored state; states stored before it was kept are `ai` against the computer, else `friend`.
fn stored_source(state: &serde_json::Value, engine: bool) -> &'static str {
    let stored = state.get("source").cloned().and_then(|s| serde_json::from_value::<guoxiang_game::Source>(s).ok());
    match stored {
        Some(s) => s.as_str(),
        None if engine => "ai",
        None => "friend",
    }
}

/// A stored game's players, White first.
pub(crate) fn stored_players(row: &GameRow) -> [PlayerRef; 2] {
    let player = |id: &str, name: &str, level: Option<i64>| PlayerRef {
        id: id.to_owned(),
        name: name.to_owned(),
        is_engine: level.is_some(),
        engine_level: level.and_then(|l| u8::try_from(l).ok()),
    };
    [
        player(&row.white_id, &row.white_name, row.white_engine_level),
        player(&row.black_id, &row.black_name, row.black_engine_level),
    ]
}

/// How a stored game ended, from the status its stored state keeps (the snapshot's `status` with the outcome or
/// the abort reason); `None` while it is played, or when the state does not say.
fn stored_end(state: &serde_json::Value) -> Option<GameStatus> {
    match serde_json::from_value::<Status>(state.clone()).ok()? {
        Status::Created | Status::Started => None,
        s => Some(GameStatus::from(&s)),
    }
}

/// A view of a stored game (finished or aborted ones are no longer in memory).
pub fn game_row_view(row: &GameRow, moves: &[MoveRow]) -> GameView {
    let [white, black] = stored_players(row);
    let tc = TimeControl::from_pgn(&row.time_control).unwrap_or(TimeControl::Unlimited);
    let (initial_ms, increment_ms) = clock_of(&tc);
    let state: serde_json::Value = serde_json::from_str(&row.state_json).unwrap_or_default();
    let initial_fen = state.get("variant").and_then(|v| v.get("fen")).and_then(|f| f.as_str()).map(str::to_owned);
    let clocks = state.get("clocks");
    let ms = |k: &str| clocks.and_then(|c| c.get(k)).and_then(serde_json::Value::as_u64);
    let color = |c: Option<&str>| match c {
        Some("white") => Some(guoxiang_protocol::Color::White),
        Some("black") => Some(guoxiang_protocol::Color::Black),
        _ => None,
    };
    GameView {
        id: row.id.clone(),
        white: (&white).into(),
        black: (&black).into(),
        rated: row.rated,
        source: stored_source(&state, row.white_engine_level.is_some() || row.black_engine_level.is_some()).to_owned(),
        time_control: row.time_control.clone(),
        initial_ms,
        increment_ms,
        speed: row.speed.clone(),
        initial_fen,
        chess960: state.get("variant").and_then(|v| v.get("kind")).and_then(|k| k.as_str()) == Some("chess960"),
        fen: state.get("fen").and_then(|f| f.as_str()).unwrap_or_default().to_owned(),
        turn: color(state.get("turn").and_then(|f| f.as_str())).unwrap_or(guoxiang_protocol::Color::White),
        moves_uci: moves.iter().map(|m| m.uci.clone()).collect(),
        moves_san: moves.iter().map(|m| m.san.clone()).collect(),
        white_ms: ms("white_ms"),
        black_ms: ms("black_ms"),
        running: None,
        status: row.status.clone(),
        result: row.result.clone().unwrap_or_else(|| "*".to_owned()),
        termination: row.termination.clone(),
        winner: color(row.winner.as_deref()),
        draw_offer: None,
        takeback_offer: None,
        end: stored_end(&state),
        move_clocks_ms: moves.iter().map(|m| m.clock_ms.and_then(|c| u64::try_from(c).ok())).collect(),
        version: row.version as u64,
        created_at_ms: row.created_at_ms as u64,
        at_ms: crate::time::now_ms(),
    }
}

#[cfg(test)]
mod tests {
    use guoxiang_game::{Action, Command, Game, GameConfig, GameSetup, MoveInput, Source, Timestamp, Variant};
    use guoxiang_protocol::Color;

    use super::*;

    fn game() -> Game {
        let setup = GameSetup {
            id: "view0001".into(),
            white: PlayerRef::human("alice", "Alice"),
            black: PlayerRef::human("bob", "Bob"),
            rated: false,
            time_control: TimeControl::from_pgn("300+3").unwrap(),
            variant: Variant::Standard,
            config: GameConfig::default(),
            source: Source::default(),
        };
        Game::new(setup, Timestamp(1_000)).unwrap()
    }

    fn play(g: &mut Game, at: u64, by: guoxiang_core::Color, uci: &str) {
        let action = Action::Move { mv: MoveInput::Uci(uci.into()), offer_draw: false };
        g.apply(Timestamp(at), Command::Player { by, action, lag_ms: 0 }).unwrap();
    }

    /// The game as the store keeps it once over: its row (status, result, termination, winner as the actor writes
    /// them at the end) and its moves.
    fn stored(g: &Game, now: Timestamp) -> (GameRow, Vec<MoveRow>) {
        let v = GameView::of(g, now);
        let row = GameRow {
            id: g.id().to_owned(),
            white_id: g.white().id.clone(),
            white_name: g.white().name.clone(),
            black_id: g.black().id.clone(),
            black_name: g.black().name.clone(),
            white_engine_level: None,
            black_engine_level: None,
            rated: g.rated(),
            time_control: g.time_control().to_pgn(),
            speed: g.time_control().speed().as_str().to_owned(),
            variant_json: serde_json::to_string(g.variant()).unwrap(),
            status: if v.status == "aborted" { "aborted" } else { "finished" }.to_owned(),
            result: (v.result != "*").then(|| v.result.clone()),
            termination: v.termination.clone(),
            winner: v.winner.map(|c| if c == Color::White { "white" } else { "black" }.to_owned()),
            created_at_ms: g.created_at().0 as i64,
            ended_at_ms: Some(now.0 as i64),
            // What the actor stores: the snapshot without its moves.
            state_json: serde_json::to_string(&g.state_record(now)).unwrap(),
            version: g.version() as i64,
            white_rating: None,
            black_rating: None,
            white_rating_diff: None,
            black_rating_diff: None,
            white_points_diff: None,
            black_points_diff: None,
        };
        let moves = g
            .moves()
            .iter()
            .enumerate()
            .map(|(i, m)| MoveRow {
                game_id: g.id().to_owned(),
                ply: i as i64 + 1,
                uci: m.uci.to_string(),
                san: m.san.to_string(),
                at_ms: m.at.0 as i64,
                clock_ms: m.clock_ms.map(|c| c as i64),
                used_ms: m.used_ms as i64,
            })
            .collect();
        (row, moves)
    }

    #[test]
    fn a_stored_aborted_game_says_who_aborted_and_why() {
        let mut g = game();
        play(&mut g, 2_000, guoxiang_core::Color::White, "e2e4");
        g.apply(
            Timestamp(3_000),
            Command::Player { by: guoxiang_core::Color::Black, action: Action::Abort, lag_ms: 0 },
        )
        .unwrap();
        let live = GameView::of(&g, Timestamp(3_000));
        let end = GameStatus::Aborted { reason: "player".into(), by: Color::Black };
        assert_eq!(live.end, Some(end.clone()));
        let (row, moves) = stored(&g, Timestamp(3_000));
        let v = game_row_view(&row, &moves);
        assert_eq!(v.end, Some(end));
        assert_eq!(
            (v.status.as_str(), v.turn, v.moves_uci.as_slice()),
            ("aborted", Color::Black, ["e2e4".to_owned()].as_slice())
        );
        assert_eq!(v.move_clocks_ms, live.move_clocks_ms);
    }

    #[test]
    fn a_stored_finished_game_keeps_its_result_words_and_move_clocks() {
        let mut g = game();
        play(&mut g, 2_000, guoxiang_core::Color::White, "e2e4");
        play(&mut g, 4_000, guoxiang_core::Color::Black, "e7e5");
        play(&mut g, 9_000, guoxiang_core::Color::White, "g1f3");
        g.apply(
            Timestamp(10_000),
            Command::Player { by: guoxiang_core::Color::Black, action: Action::Resign, lag_ms: 0 },
        )
        .unwrap();
        let live = GameView::of(&g, Timestamp(10_000));
        let Some(GameStatus::Finished { result, termination, winner, message_zh, message_en }) = live.end.clone()
        else {
            panic!("not finished: {:?}", live.end)
        };
        assert_eq!((result.as_str(), termination.as_str(), winner), ("1-0", "resignation", Some(Color::White)));
        assert!(!message_zh.is_empty() && !message_en.is_empty());
        // Every move of a timed game has the mover's clock after it.
        assert_eq!(live.move_clocks_ms.len(), 3);
        assert!(live.move_clocks_ms.iter().all(Option::is_some));
        let (row, moves) = stored(&g, Timestamp(10_000));
        let v = game_row_view(&row, &moves);
        assert_eq!(v.end, live.end);
        assert_eq!(v.move_clocks_ms, live.move_clocks_ms);
        assert_eq!((v.winner, v.result.as_str()), (Some(Color::White), "1-0"));
    }

    #[test]
    fn a_game_in_play_has_no_end() {
        let mut g = game();
        play(&mut g, 2_000, guoxiang_core::Color::White, "e2e4");
        let (mut row, moves) = stored(&g, Timestamp(2_500));
        row.status = "live".into();
        assert_eq!(game_row_view(&row, &moves).end, None);
        assert_eq!(GameView::of(&g, Timestamp(2_500)).end, None);
        // A state the server cannot read says nothing about the end, rather than guessing.
        row.state_json = "not json".into();
        assert_eq!(game_row_view(&row, &moves).end, None);
    }
}
