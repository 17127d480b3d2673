//! `GET /api/stream/game/{id}`: anyone may follow a game's moves, as on Lichess. The first line describes the game
//! (`id`, variant, speed, `rated`, `initialFen`, `fen`, `player` to move, `turns`, `source`, `status`, `players` with
//! their ratings); then one line per position from the start, `{fen, lm, wc, bc}` (the board and the side to move,
//! the move in UCI, both clocks in seconds); when the game ends, the description again, and the stream closes.
//! While a game goes on, its moves come three moves late, as Lichess's do, so that the stream cannot feed an engine
//! helping a player; once it ends, the rest follow at once.

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use guoxiang_core::{Color, Position};
use guoxiang_game::Variant;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use super::json::{self as lj, Rating, is_over, speed_name, status_id, status_name, variant_json};
use super::{KEEP_ALIVE, ratings, stream_response, titles};
use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use guoxiang_domain::live::{GameHandle, GameView, Subscription, game_row_view};

/// Routes (Lichess API): anyone's stream of a game.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/stream/game/{id}", get(stream))
}

/// How many moves a game in progress is shown late.
pub const DELAY_PLIES: usize = 3;

/// A game's positions: the board and side to move (`rnbqkbnr/… w`) from the start and after each move, and the
/// moves in UCI. Moves that do not replay (never the case for a stored game) end the list.
pub fn positions(variant: &Variant, moves: &[String]) -> Result<Vec<String>, String> {
    let mut pos: Position = variant.start_position().map_err(|e| e.message(guoxiang_core::Lang::En))?;
    let mut out = vec![board_and_turn(&pos)];
    for uci in moves {
        let m = pos.parse_uci(uci).map_err(|e| format!("move {uci}: {e}"))?;
        pos.play_unchecked(m);
        out.push(board_and_turn(&pos));
    }
    Ok(out)
}

fn board_and_turn(pos: &Position) -> String {
    let fen = pos.fen();
    let mut parts = fen.split(' ');
    format!("{} {}", parts.next().unwrap_or_default(), parts.next().unwrap_or("w"))
}

/// Both clocks after each ply (index 0: the start), in ms, from each move's remaining time (`clock_ms`, the
/// mover's) and the initial time; `None` where the game has no clock.
pub fn clocks_by_ply(initial_ms: Option<u64>, first: Color, moves: &[Option<u64>]) -> Vec<[Option<u64>; 2]> {
    let mut now = [initial_ms, initial_ms];
    let mut out = vec![now];
    let mut by = first;
    for c in moves {
        if let Some(ms) = c {
            now[by.index()] = Some(*ms);
        }
        out.push(now);
        by = !by;
    }
    out
}

/// One position line: `{fen, lm, wc, bc}` (`lm` absent at the start; clocks in whole seconds).
pub fn entry(fen: &str, last_move: Option<&str>, clocks: [Option<u64>; 2]) -> Value {
    let mut v = json!({"fen": fen, "wc": clocks[0].unwrap_or(0) / 1000, "bc": clocks[1].unwrap_or(0) / 1000});
    if let Some(m) = last_move {
        v["lm"] = json!(m);
    }
    v
}

/// The description line, showing the game at `ply` (of the moves in `v`), with the players' ratings and titles.
pub fn description(v: &GameView, ply: usize, fen: &str, ratings: [Rating; 2], titles: [Option<&str>; 2]) -> Value {
    let status = status_name(&v.status, v.termination.as_deref(), false);
    let player = |p: &guoxiang_protocol::http::GamePlayer, r: Rating, title: Option<&str>| {
        if p.is_engine {
            return json!({"aiLevel": p.engine_level});
        }
        let mut user = json!({"name": p.name, "id": p.id});
        if let Some(t) = title {
            user["title"] = json!(t);
        }
        json!({"user": user, "rating": r.0})
    };
    let turn = if fen.ends_with(" b") { "black" } else { "white" };
    let mut d = json!({
        "id": v.id,
        "variant": variant_json(v.initial_fen.as_deref(), v.chess960),
        "speed": speed_name(&v.speed),
        "perf": speed_name(&v.speed),
        "rated": v.rated,
        "initialFen": v.initial_fen.as_deref().unwrap_or(guoxiang_core::STARTING_FEN),
        "fen": fen,
        "player": turn,
        "turns": ply,
        "startedAtTurn": 0,
        "source": v.source,
        "status": {"id": status_id(status), "name": status},
        "createdAt": v.created_at_ms,
        "players": {
            "white": player(&v.white, ratings[0], titles[0]),
            "black": player(&v.black, ratings[1], titles[1]),
        },
    });
    if let Some(m) = ply.checked_sub(1).and_then(|i| v.moves_uci.get(i)) {
        d["lastMove"] = json!(m);
    }
    if let Some(w) = &v.winner {
        d["winner"] = json!(w);
    }
    d
}

/// How many positions (after the start) a follower may see: all once the game is over, else all but the last
/// [`DELAY_PLIES`].
pub fn shown_plies(total: usize, over: bool) -> usize {
    if over { total } else { total.saturating_sub(DELAY_PLIES) }
}

fn not_found(id: &str) -> ApiError {
    ApiError::not_found(&format!("对局 {id}"), &format!("game {id}"))
}

/// Sends `lines` in order; false once the follower has gone.
async fn send_all(tx: &tokio::sync::mpsc::Sender<String>, lines: Vec<String>) -> bool {
    for l in lines {
        if tx.send(l).await.is_err() {
            return false;
        }
    }
    true
}

fn line(v: &Value) -> String {
    format!("{v}\n")
}

pub async fn stream(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let id = lj::game_id(&id).to_owned();
    if id.len() > 32 {
        return Err(not_found(&id));
    }
    let Some(h) = state.live.find(&id).await else {
        // Over and no longer in memory: everything at once.
        return stored_game(&state, &id).await;
    };
    let sub = h.subscribe(None, true).await?;
    let Some(view) = sub.view.clone() else { return Err(ApiError::internal("game stream", "no view")) };
    let snap = h.snapshot().await?;
    let variant = snap.variant.clone();
    let first = variant.start_position().map_or(Color::White, |p| p.turn());
    let clocks = clocks_by_ply(view.initial_ms, first, &snap.moves.iter().map(|m| m.clock_ms).collect::<Vec<_>>());
    let r = ratings(&state, &h.white, &h.black, &view.speed).await;
    let t = titles(&state, &h.white, &h.black).await;
    let (tx, resp) = stream_response("application/x-ndjson");
    let following = Following { variant, view, fens: Vec::new(), clocks, sent: 0, ratings: r, titles: t };
    tokio::spawn(follow(h, sub, tx, following));
    Ok(resp)
}

/// The whole stream of a game that is over and stored: every line at once.
async fn stored_game(state: &AppState, id: &str) -> ApiResult<Response> {
    let (row, moves) = state.store.game(id).await?.ok_or_else(|| not_found(id))?;
    let v = game_row_view(&row, &moves);
    let game = guoxiang_domain::live::restore_game(&row, &moves).map_err(|e| ApiError::internal("game stream", e))?;
    let fens = positions(game.variant(), &v.moves_uci).map_err(|e| ApiError::internal("game stream", e))?;
    let first = game.variant().start_position().map_or(Color::White, |p| p.turn());
    let clocks =
        clocks_by_ply(v.initial_ms, first, &moves.iter().map(|m| m.clock_ms.map(|c| c as u64)).collect::<Vec<_>>());
    let (white, black) = ((&v.white).into(), (&v.black).into());
    let r = ratings(state, &white, &black, &v.speed).await;
    let t = titles(state, &white, &black).await;
    let n = fens.len() - 1;
    let mut body = line(&description(&v, n, &fens[n], r, t));
    for (i, fen) in fens.iter().enumerate() {
        body.push_str(&line(&entry(fen, i.checked_sub(1).map(|j| v.moves_uci[j].as_str()), clocks[i])));
    }
    body.push_str(&line(&description(&v, n, &fens[n], r, t)));
    Ok(axum::response::IntoResponse::into_response((
        [(axum::http::header::CONTENT_TYPE, "application/x-ndjson")],
        body,
    )))
}

/// A follower of a game in progress: the game as last seen, its positions and clocks by ply, and how many
/// positions (after the start) it was sent.
struct Following {
    variant: Variant,
    view: std::sync::Arc<GameView>,
    fens: Vec<String>,
    clocks: Vec<[Option<u64>; 2]>,
    sent: usize,
    ratings: [Rating; 2],
    titles: [Option<&'static str>; 2],
}

impl Following {
    /// The first lines: the description and the positions shown so far (the description again if the game is
    /// over); and whether it is.
    fn first_lines(&mut self) -> (Vec<String>, bool) {
        let (view, fens, clocks, r, t) = (&self.view, &self.fens, &self.clocks, self.ratings, self.titles);
        let over = is_over(view);
        let shown = shown_plies(fens.len() - 1, over);
        let mut lines = vec![line(&description(view, shown, &fens[shown], r, t))];
        for i in 0..=shown {
            lines.push(line(&entry(&fens[i], i.checked_sub(1).map(|j| view.moves_uci[j].as_str()), clocks[i])));
        }
        self.sent = shown;
        if over {
            lines.push(line(&description(view, shown, &fens[shown], r, t)));
        }
        (lines, over)
    }

    /// After the view changed: adds to `lines` the positions newly shown (and the description once the game is
    /// over); whether it is. None when the moves do not replay.
    fn catch_up(&mut self, lines: &mut Vec<String>) -> Option<bool> {
        // The moves changed (new ones, or a takeback): the positions again, the clocks kept where they still hold.
        if self.view.moves_uci.len() + 1 != self.fens.len() {
            self.fens = positions(&self.variant, &self.view.moves_uci).ok()?;
            self.clocks.truncate(self.fens.len());
            while self.clocks.len() < self.fens.len() {
                self.clocks.push([self.view.white_ms, self.view.black_ms]);
            }
            self.sent = self.sent.min(self.fens.len() - 1);
        }
        let over = is_over(&self.view);
        let shown = shown_plies(self.fens.len() - 1, over);
        for i in self.sent + 1..=shown {
            lines.push(line(&entry(&self.fens[i], Some(self.view.moves_uci[i - 1].as_str()), self.clocks[i])));
        }
        self.sent = self.sent.max(shown);
        if over {
            lines.push(line(&description(&self.view, self.sent, &self.fens[self.sent], self.ratings, self.titles)));
        }
        Some(over)
    }
}

/// Streams a game in progress to one follower: the first lines, then the positions as they come (and a
/// keep-alive line when quiet) until the game is over, the follower goes or the server stops.
async fn follow(h: GameHandle, mut sub: Subscription, tx: tokio::sync::mpsc::Sender<String>, mut f: Following) {
    let Ok(fens) = positions(&f.variant, &f.view.moves_uci) else { return };
    f.fens = fens;
    let (lines, over) = f.first_lines();
    if !send_all(&tx, lines).await || over {
        return;
    }
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
    let stop = super::stopping();
    tokio::pin!(stop);
    loop {
        let mut lines = Vec::new();
        tokio::select! {
            u = sub.rx.recv() => match u {
                Ok(u) => {
                    let Some(v) = u.view.clone() else { continue };
                    f.view = v;
                }
                Err(RecvError::Lagged(_)) => match h.subscribe(None, true).await {
                    Ok(s) => {
                        sub = s;
                        if let Some(v) = &sub.view {
                            f.view = v.clone();
                        }
                    }
                    Err(_) => return,
                },
                Err(RecvError::Closed) => return,
            },
            _ = tick.tick() => lines.push("\n".to_owned()),
            () = tx.closed() => return,
            () = &mut stop => return,
        }
        let Some(over) = f.catch_up(&mut lines) else { return };
        if !send_all(&tx, lines).await || over {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_clocks_by_ply() {
        let moves = ["e2e4", "e7e5", "g1f3"].map(String::from);
        let f = positions(&Variant::Standard, &moves).unwrap();
        assert_eq!(f.len(), 4);
        assert_eq!(f[0], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w");
        assert_eq!(f[1], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b");
        assert!(positions(&Variant::Standard, &["e2e5".to_owned()]).unwrap_err().contains("e2e5"));
        let c = clocks_by_ply(Some(180_000), Color::White, &[Some(179_000), Some(178_500), None]);
        assert_eq!(c[0], [Some(180_000), Some(180_000)]);
        assert_eq!(c[2], [Some(179_000), Some(178_500)]);
        assert_eq!(c[3], [Some(179_000), Some(178_500)], "a move without a clock keeps the last");
        assert_eq!(entry(&f[1], Some("e2e4"), c[1]), json!({"fen": f[1], "lm": "e2e4", "wc": 179, "bc": 180}));
        assert_eq!(entry(&f[0], None, [None, None]), json!({"fen": f[0], "wc": 0, "bc": 0}));
    }

    #[test]
    fn games_in_progress_are_shown_three_moves_late() {
        assert_eq!(shown_plies(10, false), 7);
        assert_eq!(shown_plies(2, false), 0);
        assert_eq!(shown_plies(10, true), 10);
    }
}
