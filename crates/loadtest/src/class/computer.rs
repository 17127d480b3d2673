//! A student's game against the computer over the WebSocket: `play_computer` at level 1–3, random legal moves with
//! a person's think time, resigning at [`PLY_CAP`] plies, until the game ends.

use std::time::Duration;

use guoxiang_core::{Color as CoreColor, Position};
use guoxiang_protocol::{
    Action, ClientMessage, Color, ColorChoice, GameEvent, GameSnapshot, GameStatus, Lang, PROTOCOL_VERSION,
    ServerMessage, VersionedGameEvent,
};
use rand::Rng;
use tokio::time::Instant;

use super::stats::Count;
use super::{ClassCtx, RequestKind};
use crate::conn::{Conn, Incoming, describe_error};
use crate::game::ANSWER_TIMEOUT;
use crate::moves::{position_from_fen, random_move};

/// At this many plies the student resigns: a real end, so that the review is queued, within a lesson's time.
pub const PLY_CAP: u32 = 100;

/// This long without a move or an answer (beyond the student's own thinking), the game is given up.
const STALL: Duration = Duration::from_secs(60);

/// The game as the student follows it.
#[derive(Debug)]
struct Board {
    id: String,
    mine: CoreColor,
    pos: Position,
    version: u64,
    ply: u32,
    synced: bool,
    resigned: bool,
    /// When the `game_ended` event came.
    ended: Option<Instant>,
    /// The student's move waiting for its `ack`: its id and when it was sent.
    pending: Option<(u32, Instant)>,
    /// After the student's move: the ply its `move_made` will carry.
    awaiting_ply: Option<u32>,
    /// When the student, thinking, will move next.
    next_at: Option<Instant>,
    last_progress: Instant,
}

/// Plays one game to its end; the game's id and when its end was seen.
pub(crate) async fn play_game(ctx: &ClassCtx, session: &str, rng: &mut impl Rng) -> Result<(String, Instant), String> {
    let mut conn = connect(ctx, session).await?;
    let result = play_on(ctx, &mut conn, rng).await;
    conn.close().await;
    result
}

/// The WebSocket, past `hello` as the student.
async fn connect(ctx: &ClassCtx, session: &str) -> Result<Conn, String> {
    let sent = Instant::now();
    let mut conn = Conn::open(ctx.addr, &ctx.base, session, ANSWER_TIMEOUT).await?;
    let hello = |id| ClientMessage::Hello { id, protocol: PROTOCOL_VERSION, lang: Lang::Zh };
    match conn.request("hello", ANSWER_TIMEOUT, hello, |_| {}).await? {
        ServerMessage::Hello { user: Some(_), .. } => {}
        _ => return Err("hello: the server did not recognise the student's session".to_owned()),
    }
    ctx.stats.record(RequestKind::Connect, sent.elapsed());
    Ok(conn)
}

async fn play_on(ctx: &ClassCtx, conn: &mut Conn, rng: &mut impl Rng) -> Result<(String, Instant), String> {
    let mut board = start(ctx, conn, rng).await?;
    loop {
        if let Some(ended) = board.ended {
            ctx.stats.add(Count::GamesFinished);
            let id = board.id.clone();
            let unsubscribe = ClientMessage::Unsubscribe { id: conn.next_id(), game_id: id.clone() };
            let _ = conn.send(&unsubscribe).await;
            return Ok((id, ended));
        }
        let now = Instant::now();
        if board.pending.is_some_and(|(_, sent)| now >= sent + ANSWER_TIMEOUT) {
            return Err(format!("timeout: no ack for a move within {} s", ANSWER_TIMEOUT.as_secs()));
        }
        if now >= board.last_progress + STALL {
            return Err(format!("game {} stalled: nothing for {} s", board.id, STALL.as_secs()));
        }
        if board.may_move() {
            let at = *board.next_at.get_or_insert_with(|| now + ctx.think_time(rng));
            if now >= at {
                board.act(conn, rng).await?;
                continue;
            }
        }
        let item = tokio::select! {
            item = futures_util::StreamExt::next(&mut conn.ws) => item,
            () = tokio::time::sleep_until(board.deadline()) => continue,
        };
        match Incoming::from_item(item) {
            Incoming::Message(m) => board.on_message(ctx, conn, *m).await?,
            Incoming::Nothing => {}
            Incoming::Unreadable(e) => ctx.stats.error(e),
            Incoming::Closed(e) => return Err(e),
        }
    }
}

/// `play_computer` at a random level and colour, `game_started`, `subscribe` and its snapshot.
async fn start(ctx: &ClassCtx, conn: &mut Conn, rng: &mut impl Rng) -> Result<Board, String> {
    let level = rng.random_range(1..=3u8);
    let color = if rng.random_bool(0.5) { ColorChoice::White } else { ColorChoice::Black };
    let sent = Instant::now();
    let started = |m: &ServerMessage| match m {
        ServerMessage::GameStarted { game_id, color } => Some((game_id.clone(), *color)),
        _ => None,
    };
    let mut early = None;
    let play = |id| ClientMessage::PlayComputer {
        id,
        level,
        color,
        time_control: "-".to_owned(),
        fen: None,
        variant: Default::default(),
        rules: None,
    };
    conn.request("play_computer", ANSWER_TIMEOUT, play, |m| early = early.take().or_else(|| started(&m))).await?;
    let (id, color) = match early {
        Some(s) => s,
        None => conn.wait_for("game_started", ANSWER_TIMEOUT, started, |_| {}).await?,
    };
    ctx.stats.record(RequestKind::GameStart, sent.elapsed());
    ctx.stats.add(Count::GamesStarted);
    let mine = if color == Color::White { CoreColor::White } else { CoreColor::Black };
    let mut board = Board::new(id, mine);
    let mut answers = Vec::new();
    let subscribe = |id| ClientMessage::Subscribe { id, game_id: board.id.clone(), since_version: None };
    conn.request("subscribe", ANSWER_TIMEOUT, subscribe, |m| answers.push(m)).await?;
    for m in answers {
        board.on_message(ctx, conn, m).await?;
    }
    if !board.synced {
        return Err("subscribe: no game_snapshot before the ack".to_owned());
    }
    Ok(board)
}

impl Board {
    fn new(id: String, mine: CoreColor) -> Board {
        Board {
            id,
            mine,
            pos: Position::new(),
            version: 0,
            ply: 0,
            synced: false,
            resigned: false,
            ended: None,
            pending: None,
            awaiting_ply: None,
            next_at: None,
            last_progress: Instant::now(),
        }
    }

    /// The student's turn, nothing outstanding.
    fn may_move(&self) -> bool {
        self.synced
            && self.ended.is_none()
            && !self.resigned
            && self.pending.is_none()
            && self.awaiting_ply.is_none()
            && self.pos.turn() == self.mine
    }

    /// When to look again without a message: the next move, an ack's timeout, the stall watchdog.
    fn deadline(&self) -> Instant {
        let mut d = self.last_progress + STALL;
        if let Some((_, sent)) = self.pending {
            d = d.min(sent + ANSWER_TIMEOUT);
        }
        if let Some(at) = self.next_at.filter(|_| self.may_move()) {
            d = d.min(at);
        }
        d
    }

    /// The student's move: a random legal one, or resigning at the ply cap.
    async fn act(&mut self, conn: &mut Conn, rng: &mut impl Rng) -> Result<(), String> {
        self.next_at = None;
        let id = conn.next_id();
        let game_id = self.id.clone();
        if self.ply >= PLY_CAP {
            self.resigned = true;
            return conn.send(&ClientMessage::Game { id, game_id, action: Action::Resign, lag_ms: 0 }).await;
        }
        // No legal move: the game is over and its `game_ended` is on the way.
        let Some(uci) = random_move(&self.pos, rng) else { return Ok(()) };
        conn.send(&ClientMessage::Game { id, game_id, action: Action::uci(uci), lag_ms: 0 }).await?;
        self.pending = Some((id, Instant::now()));
        self.awaiting_ply = Some(self.ply + 1);
        Ok(())
    }

    async fn on_message(&mut self, ctx: &ClassCtx, conn: &mut Conn, m: ServerMessage) -> Result<(), String> {
        let is_pending = |id: u32| self.pending.is_some_and(|(p, _)| p == id);
        match m {
            ServerMessage::Ack { id } if is_pending(id) => {
                let (_, sent) = self.pending.take().expect("pending move");
                ctx.stats.record(RequestKind::Move, sent.elapsed());
                self.last_progress = Instant::now();
            }
            ServerMessage::Error { id: Some(id), .. } if is_pending(id) => return Err(describe_error("move", &m)),
            ServerMessage::Error { .. } => ctx.stats.error(describe_error("a game message", &m)),
            ServerMessage::GameEvents { game_id, events } if game_id == self.id => {
                let in_order = self.apply_events(events)?;
                if !in_order {
                    let since_version = Some(self.version);
                    let resync = ClientMessage::Subscribe { id: conn.next_id(), game_id, since_version };
                    conn.send(&resync).await?;
                }
            }
            ServerMessage::GameSnapshot { game_id, snapshot } if game_id == self.id => {
                self.apply_snapshot(&snapshot)?
            }
            _ => {}
        }
        Ok(())
    }

    fn apply_snapshot(&mut self, s: &GameSnapshot) -> Result<(), String> {
        self.pos = position_from_fen(&s.fen)?;
        self.version = s.version;
        self.ply = u32::try_from(s.moves.len()).unwrap_or(u32::MAX);
        self.synced = true;
        self.last_progress = Instant::now();
        if self.awaiting_ply.is_some_and(|p| self.ply >= p) {
            self.awaiting_ply = None;
        }
        match s.status {
            GameStatus::Finished { .. } => self.ended = self.ended.or(Some(Instant::now())),
            GameStatus::Aborted { .. } => return Err(format!("game {} was aborted", self.id)),
            _ => {}
        }
        Ok(())
    }

    /// Applies events in version order; `false` when one is missing (subscribe again from the last version).
    fn apply_events(&mut self, events: Vec<VersionedGameEvent>) -> Result<bool, String> {
        for e in events {
            if e.version <= self.version {
                continue;
            }
            if e.version != self.version + 1 {
                return Ok(false);
            }
            self.version = e.version;
            self.last_progress = Instant::now();
            match e.event {
                GameEvent::MoveMade { fen, ply, .. } => {
                    self.pos = position_from_fen(&fen)?;
                    self.ply = ply;
                    if self.awaiting_ply.is_some_and(|p| ply >= p) {
                        self.awaiting_ply = None;
                    }
                }
                GameEvent::GameEnded { .. } => self.ended = Some(Instant::now()),
                GameEvent::Aborted { reason, .. } => return Err(format!("game {} aborted: {reason}", self.id)),
                _ => {}
            }
        }
        Ok(true)
    }
}
