// SPDX-License-Identifier: GPL-3.0-or-later
//! `GET /ws/analysis`: the analysis board's continuous engine stream (messages in `guoxiang_protocol::analysis`,
//! described in `docs/analysis.md`).
//!
//! One connection has at most one search. A search is a task that waits for a worker of the analysis pool (so it
//! is bounded per user and never takes a computer opponent's worker), then deepens on a blocking thread until its
//! depth or time cap, a stop, or — after a while — other users' analyses waiting for a worker. The connection
//! loop stops the running search and waits for its task to end before it acknowledges the next message, so the
//! frames of an older search never follow the `started` (or `ack`) that the client waits for.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use guoxiang_core::Position;
use guoxiang_engine::{Engine, Info, Limits};
use guoxiang_protocol::analysis::{
    AnalysisClientMessage, AnalysisEnd, AnalysisErrorCode, AnalysisLine, AnalysisServerMessage, EngineScore,
    MAX_ANALYSIS_DEPTH, MAX_ANALYSIS_MS, MAX_MULTIPV, parse_analysis_frame,
};
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinHandle;

use crate::AppState;
use crate::http::analysis::{PositionError, replay};
use guoxiang_domain::live::engine::{AnalysisPool, AnalysisTicket, Busy};

/// Routes: the analysis board's WebSocket.
pub fn routes() -> Router<AppState> {
    Router::new().route("/ws/analysis", get(upgrade))
}

/// Outgoing frames queued for a connection; `info` frames are dropped rather than queued beyond it.
const OUT_QUEUE: usize = 64;

/// The least time between two `info` frames of a search (at most five a second).
const INFO_EVERY: Duration = Duration::from_millis(200);

/// How long a search keeps its worker while other users' analyses wait for one.
const YIELD_AFTER: Duration = Duration::from_secs(10);

/// The transposition table of one search, in MiB.
const HASH_MB: usize = 16;

pub async fn upgrade(
    State(state): State<AppState>,
    slot: Option<axum::Extension<crate::listen::ConnSlot>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let user_id = match crate::http::upgrade::admit_user(&state, &headers).await {
        Ok(a) => a.user.id.clone(),
        Err(e) => return e.into_response(),
    };
    ws.max_message_size(1 << 20).read_buffer_size(4096).write_buffer_size(16 * 1024).on_upgrade(
        move |socket| async move {
            let _slot = slot;
            connection(state, user_id, socket).await;
        },
    )
}

/// How the connection asks a search to end, before or after it got a worker.
#[derive(Default)]
struct Stopper {
    inner: Mutex<StopState>,
    notify: Notify,
}

#[derive(Default)]
struct StopState {
    reason: Option<AnalysisEnd>,
    engine: Option<Arc<AtomicBool>>,
}

impl Stopper {
    fn stop(&self, reason: AnalysisEnd) {
        let mut s = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        s.reason.get_or_insert(reason);
        if let Some(e) = &s.engine {
            e.store(true, Ordering::SeqCst);
        }
        drop(s);
        self.notify.notify_one();
    }

    /// The engine's stop flag, once the search has a worker (set at once if a stop came first).
    fn attach(&self, flag: Arc<AtomicBool>) {
        let mut s = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if s.reason.is_some() {
            flag.store(true, Ordering::SeqCst);
        }
        s.engine = Some(flag);
    }

    fn reason(&self) -> Option<AnalysisEnd> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).reason
    }
}

struct Running {
    stopper: Arc<Stopper>,
    task: JoinHandle<()>,
}

impl Running {
    async fn end(self) {
        self.stopper.stop(AnalysisEnd::Stopped);
        let _ = self.task.await;
    }
}

fn error(id: Option<u32>, code: AnalysisErrorCode, zh: impl Into<String>, en: impl Into<String>) -> String {
    AnalysisServerMessage::error(id, code, zh, en).to_json()
}

async fn connection(state: AppState, user_id: String, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut out_rx) = mpsc::channel::<String>(OUT_QUEUE);
    let writer = tokio::spawn(async move {
        while let Some(frame) = out_rx.recv().await {
            if sink.send(Message::Text(frame.into())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let limiter = crate::http::upgrade::message_limiter(&state.config.limits);
    let mut running: Option<Running> = None;
    while let Some(Ok(msg)) = stream.next().await {
        let text = match msg {
            Message::Text(t) => t,
            Message::Close(_) => break,
            Message::Binary(_) => {
                let e =
                    error(None, AnalysisErrorCode::BadMessage, "不接受二进制消息", "binary frames are not accepted");
                if out.send(e).await.is_err() {
                    break;
                }
                continue;
            }
            _ => continue,
        };
        let msg = match parse_analysis_frame(&text) {
            Ok(m) => m,
            Err(e) => {
                if out.send(e.to_json()).await.is_err() {
                    break;
                }
                continue;
            }
        };
        if limiter.check().is_err() {
            let e = error(Some(msg.id()), AnalysisErrorCode::RateLimited, "消息太频繁", "too many messages; slow down");
            if out.send(e).await.is_err() {
                break;
            }
            continue;
        }
        let sent = match msg {
            AnalysisClientMessage::Stop { id } => {
                if let Some(r) = running.take() {
                    r.end().await;
                }
                out.send(AnalysisServerMessage::Ack { id }.to_json()).await
            }
            AnalysisClientMessage::Analyse { id, fen, moves, multipv, depth } => {
                match start(&state, &user_id, &out, &mut running, id, fen, moves, multipv, depth).await {
                    Ok(()) => Ok(()),
                    Err(frame) => out.send(frame).await,
                }
            }
        };
        if sent.is_err() {
            break;
        }
    }
    if let Some(r) = running.take() {
        r.end().await;
    }
    drop(out);
    let _ = writer.await;
}

/// Checks an `analyse`, ends the running search, acknowledges with `started` and starts the new search. A refused
/// message (the error frame is returned) leaves the running search alone.
#[allow(clippy::too_many_arguments)]
async fn start(
    state: &AppState,
    user_id: &str,
    out: &mpsc::Sender<String>,
    running: &mut Option<Running>,
    id: u32,
    fen: Option<String>,
    moves: Option<Vec<String>>,
    multipv: Option<u8>,
    depth: Option<u32>,
) -> Result<(), String> {
    if state.config.analysis_workers == 0 {
        return Err(error(
            Some(id),
            AnalysisErrorCode::Busy,
            "本服务器不提供引擎分析（--analysis-workers 0）：请在浏览器中分析",
            "this server does not analyse positions (--analysis-workers 0): the engine runs in the browser",
        ));
    }
    let multipv = multipv.unwrap_or(1);
    if !(1..=MAX_MULTIPV).contains(&multipv) {
        return Err(error(
            Some(id),
            AnalysisErrorCode::BadRequest,
            format!("multipv 应为 1–{MAX_MULTIPV}，收到 {multipv}"),
            format!("multipv must be 1–{MAX_MULTIPV}, not {multipv}"),
        ));
    }
    let depth = depth.unwrap_or(MAX_ANALYSIS_DEPTH);
    if !(1..=MAX_ANALYSIS_DEPTH).contains(&depth) {
        return Err(error(
            Some(id),
            AnalysisErrorCode::BadRequest,
            format!("depth 应为 1–{MAX_ANALYSIS_DEPTH}，收到 {depth}"),
            format!("depth must be 1–{MAX_ANALYSIS_DEPTH}, not {depth}"),
        ));
    }
    let (pos, history) = replay(fen.as_deref(), moves.as_deref().unwrap_or_default()).map_err(|e| {
        let (zh, en) = e.text();
        let code = match e {
            PositionError::Fen(_) => AnalysisErrorCode::BadFen,
            PositionError::Move { .. } => AnalysisErrorCode::IllegalMove,
            PositionError::TooManyMoves(_) => AnalysisErrorCode::BadRequest,
        };
        error(Some(id), code, zh, en)
    })?;
    if state.limiters.analysis(user_id).await.is_err() {
        return Err(error(
            Some(id),
            AnalysisErrorCode::RateLimited,
            "分析请求太频繁，请稍后再试",
            "too many analyses; try again in a moment",
        ));
    }
    if let Some(r) = running.take() {
        r.end().await;
    }
    let fen = pos.fen();
    let started = AnalysisServerMessage::Started { id, fen: fen.clone(), multipv, depth, max_ms: MAX_ANALYSIS_MS };
    out.send(started.to_json()).await.map_err(|_| String::new())?;
    if pos.legal_moves().is_empty() {
        let done = AnalysisServerMessage::Done {
            id,
            fen,
            reason: AnalysisEnd::GameOver,
            depth: 0,
            nodes: 0,
            time_ms: 0,
            lines: vec![],
        };
        out.send(done.to_json()).await.map_err(|_| String::new())?;
        return Ok(());
    }
    let stopper = Arc::new(Stopper::default());
    let search = Search { id, pos, history, multipv, depth, fen };
    let task = tokio::spawn(run(state.clone(), user_id.to_owned(), out.clone(), stopper.clone(), search));
    *running = Some(Running { stopper, task });
    Ok(())
}

struct Search {
    id: u32,
    pos: Position,
    history: Vec<u64>,
    multipv: u8,
    depth: u32,
    fen: String,
}

fn line_of(pos: &Position, info: &Info) -> AnalysisLine {
    let mut p = pos.clone();
    let mut pv = Vec::with_capacity(info.pv.len());
    let mut pv_san = Vec::with_capacity(info.pv.len());
    for m in &info.pv {
        pv.push(p.uci(*m));
        pv_san.push(p.san(*m));
        p.play_unchecked(*m);
    }
    let score = match info.score.mate_moves() {
        Some(mate) => EngineScore::Mate { mate },
        None => EngineScore::Cp { cp: info.score.cp() },
    };
    AnalysisLine { multipv: u8::try_from(info.multipv).unwrap_or(u8::MAX), depth: info.depth, score, pv, pv_san }
}

/// What the reporter keeps: the latest line of each rank, and when it last sent an `info`.
struct Progress {
    lines: Vec<Option<AnalysisLine>>,
    last_sent: Option<Instant>,
    depth: u32,
    nodes: u64,
    time: Duration,
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

async fn run(state: AppState, user_id: String, out: mpsc::Sender<String>, stopper: Arc<Stopper>, s: Search) {
    let Some((ticket, s)) = wait_for_worker(&state, &user_id, &out, &stopper, s).await else { return };
    let (id, depth) = (s.id, s.depth);
    let engine_stop = ticket.control.stop.clone();
    stopper.attach(engine_stop.clone());
    let began = Instant::now();
    let monitor = spawn_yield_monitor(stopper.clone(), state.analysis.clone(), began);
    let info_out = out.clone();
    let syzygy = state.config.syzygy.clone();
    let searched = tokio::task::spawn_blocking(move || deepen(ticket, syzygy, s, &info_out, began)).await;
    monitor.abort();
    let Ok((fen, p)) = searched else {
        let _ = out.send(error(Some(id), AnalysisErrorCode::Internal, "分析出错", "the analysis failed")).await;
        return;
    };
    let reason = match stopper.reason() {
        Some(r) => r,
        None if engine_stop.load(Ordering::SeqCst) => AnalysisEnd::Superseded,
        None if p.depth >= depth => AnalysisEnd::DepthLimit,
        None => AnalysisEnd::TimeLimit,
    };
    let done = AnalysisServerMessage::Done {
        id,
        fen,
        reason,
        depth: p.depth,
        nodes: p.nodes,
        time_ms: ms(p.time),
        lines: p.lines.into_iter().flatten().collect(),
    };
    let _ = out.send(done.to_json()).await;
}

/// Waits for a worker of the analysis pool, or a stop. Without a worker the search has ended: `done` (stopped
/// before it began) or the pool's refusal has been sent, and `None` is returned.
async fn wait_for_worker(
    state: &AppState,
    user_id: &str,
    out: &mpsc::Sender<String>,
    stopper: &Stopper,
    s: Search,
) -> Option<(AnalysisTicket, Search)> {
    let admitted = tokio::select! {
        t = state.analysis.admit(user_id) => Some(t),
        () = stopper.notify.notified() => None,
    };
    match admitted {
        None => {
            let done = AnalysisServerMessage::Done {
                id: s.id,
                fen: s.fen,
                reason: stopper.reason().unwrap_or(AnalysisEnd::Stopped),
                depth: 0,
                nodes: 0,
                time_ms: 0,
                lines: vec![],
            };
            let _ = out.send(done.to_json()).await;
            None
        }
        Some(Err(b)) => {
            let e = match b {
                Busy::User => error(
                    Some(s.id),
                    AnalysisErrorCode::AnalysisRunning,
                    "你有太多分析在等待",
                    "you have too many analyses waiting",
                ),
                Busy::Queue => error(
                    Some(s.id),
                    AnalysisErrorCode::Busy,
                    "分析引擎正忙，请稍后再试",
                    "the analysis engine is busy; try again in a moment",
                ),
            };
            let _ = out.send(e).await;
            None
        }
        Some(Ok(t)) => Some((t, s)),
    }
}

/// Gives the worker up after a while when other users wait for one.
fn spawn_yield_monitor(stopper: Arc<Stopper>, pool: AnalysisPool, began: Instant) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        loop {
            tick.tick().await;
            if began.elapsed() >= YIELD_AFTER && pool.waiting() > 0 {
                stopper.stop(AnalysisEnd::Yielded);
                return;
            }
        }
    })
}

/// The search itself, on a blocking thread holding the ticket: deepens until its depth or time cap or a stop,
/// sending an `info` at the end of an iteration (at most every [`INFO_EVERY`]). Returns the position's FEN and what
/// the search found.
fn deepen(
    ticket: AnalysisTicket,
    syzygy: Option<guoxiang_engine::tb::Syzygy>,
    s: Search,
    info_out: &mpsc::Sender<String>,
    began: Instant,
) -> (String, Progress) {
    let Search { id, pos, history, multipv, depth, fen } = s;
    let control = ticket.control.clone();
    let _ticket = ticket;
    let mut engine = Engine::new(HASH_MB);
    engine.options.multipv = usize::from(multipv);
    engine.options.syzygy = syzygy;
    let limits =
        Limits { depth: Some(depth), movetime: Some(Duration::from_millis(MAX_ANALYSIS_MS)), ..Limits::default() };
    // The lines an iteration reports (with endgame tables, only the moves that keep the best result).
    let expected = usize::from(multipv).min(engine.root_moves(&pos, &limits).len()).max(1);
    let progress =
        Mutex::new(Progress { lines: vec![None; expected], last_sent: None, depth: 0, nodes: 0, time: Duration::ZERO });
    let reporter = |info: &Info| {
        let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
        let rank = info.multipv.saturating_sub(1) as usize;
        if let Some(slot) = p.lines.get_mut(rank) {
            *slot = Some(line_of(&pos, info));
        }
        p.depth = p.depth.max(info.depth);
        p.nodes = info.nodes;
        p.time = info.time;
        // The end of an iteration (the last rank reported), and not too soon after the last frame.
        if rank + 1 != expected || p.last_sent.is_some_and(|t| t.elapsed() < INFO_EVERY) {
            return;
        }
        p.last_sent = Some(Instant::now());
        let time_ms = ms(info.time);
        let frame = AnalysisServerMessage::Info {
            id,
            fen: fen.clone(),
            depth: info.depth,
            nodes: info.nodes,
            nps: info.nodes.saturating_mul(1000) / time_ms.max(1),
            time_ms,
            lines: p.lines.iter().flatten().cloned().collect(),
        };
        // A client that does not keep up misses some `info`s; `done` still brings the final lines.
        let _ = info_out.try_send(frame.to_json());
    };
    engine.search(&pos, &history, &limits, &control, &reporter, began);
    let p = progress.into_inner().unwrap_or_else(|e| e.into_inner());
    (fen, p)
}
