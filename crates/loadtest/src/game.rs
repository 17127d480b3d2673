//! One simulated game: a pair of guest players on two WebSocket connections, the challenge that starts their game,
//! and the loop that plays random legal moves at the set pace, measuring each move's round trip.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use guoxiang_core::Position;
use guoxiang_protocol::{
    Action, ClientMessage, Color, ColorChoice, GameEvent, GameSnapshot, GameStatus, Lang, PROTOCOL_VERSION,
    ServerMessage, VersionedGameEvent,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::conn::{Conn, Incoming, describe_error};
use crate::http::{BaseUrl, post_guest};
use crate::moves::{color_index, position_from_fen, random_move};
use crate::stats::Stats;

/// How long an answer may take: a move's `ack`, a set-up step, an HTTP request.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// At this many plies the side to move resigns, so that games keep turning over.
pub const PLY_CAP: u32 = 200;

/// A game that has never gone live gives up after this many failed set-ups in a row.
pub const SETUP_ATTEMPTS: u32 = 3;

/// The pause after a failed set-up before the next try.
const SETUP_BACKOFF: Duration = Duration::from_secs(1);

/// What every game task needs.
#[derive(Debug)]
pub(crate) struct Ctx {
    pub addr: SocketAddr,
    pub base: BaseUrl,
    /// Every node to connect to (the first is `addr`/`base`): players go round-robin over them.
    pub nodes: Vec<(SocketAddr, BaseUrl)>,
    pub next_node: std::sync::atomic::AtomicUsize,
    pub time_control: String,
    pub move_interval: Duration,
    pub stats: Arc<Stats>,
}

/// Two players: `conns[0]` challenges (asking for white), `conns[1]` accepts.
#[derive(Debug)]
pub(crate) struct Pair {
    conns: [Conn; 2],
}

impl Pair {
    async fn close(self) {
        let [a, b] = self.conns;
        tokio::join!(a.close(), b.close());
    }
}

/// A new guest, connected and past `hello`.
async fn connect_player(ctx: &Ctx, node: usize) -> Result<Conn, String> {
    let (addr, base) = &ctx.nodes[node % ctx.nodes.len()];
    let guest = post_guest(*addr, base, ANSWER_TIMEOUT).await?;
    let mut conn = crate::conn::Conn::open(*addr, base, &guest.session, ANSWER_TIMEOUT).await?;
    let hello = |id| ClientMessage::Hello { id, protocol: PROTOCOL_VERSION, lang: Lang::En };
    match conn.request("hello", ANSWER_TIMEOUT, hello, |_| {}).await? {
        ServerMessage::Hello { user: Some(user), .. } if user.id == guest.user_id => Ok(conn),
        ServerMessage::Hello { user: Some(_), .. } => {
            Err("hello: the session belongs to another user than the guest POST /api/guest made".to_owned())
        }
        ServerMessage::Hello { user: None, .. } => {
            Err("hello: the server did not recognise the session cookie (user is null)".to_owned())
        }
        _ => Err("hello: unexpected answer".to_owned()),
    }
}

/// Two new guests, connected.
async fn connect_pair(ctx: &Ctx) -> Result<Pair, String> {
    // Round-robin over the nodes; the two players of a game on two different nodes when there are several.
    let k = ctx.next_node.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (a, b) = tokio::join!(connect_player(ctx, k), connect_player(ctx, k + 1));
    Ok(Pair { conns: [a?, b?] })
}

/// A pending `move`: its connection, id and when it was sent.
#[derive(Debug)]
struct Pending {
    conn: usize,
    id: u32,
    sent: Instant,
}

/// How a game's loop ended.
#[derive(Debug)]
pub(crate) enum End {
    /// The game is over: start another with the same pair.
    Over,
    /// Something broke: count it, drop the pair and start afresh.
    Fatal(String),
    /// The run is over.
    Stop,
}

/// A game being played, as the load test follows it.
#[derive(Debug)]
pub(crate) struct Game {
    id: String,
    /// The connection playing each colour, `[white, black]`.
    conn_of: [usize; 2],
    pos: Position,
    version: u64,
    ply: u32,
    over: bool,
    resigned: bool,
    synced: bool,
    pending: Option<Pending>,
    /// After our move: the ply its `move_made` event will carry; no next move before it comes.
    awaiting_ply: Option<u32>,
    /// Other requests whose answers are not waited for (resync, resign): `(connection, id, what)`.
    requests: Vec<(usize, u32, &'static str)>,
    next_move_at: Instant,
    last_progress: Instant,
}

/// Makes a new game for the pair: `challenge_friend` by the first player, `accept_challenge` by the second, both
/// `game_started`, both `subscribe`.
async fn start_game(pair: &mut Pair, ctx: &Ctx, rng: &mut impl Rng) -> Result<Game, String> {
    let [a, b] = &mut pair.conns;
    let challenge = |id| ClientMessage::ChallengeFriend {
        id,
        time_control: ctx.time_control.clone(),
        rated: false,
        color: ColorChoice::White,
        variant: Default::default(),
        rules: None,
    };
    let challenge_id = match a.request("challenge_friend", ANSWER_TIMEOUT, challenge, |_| {}).await? {
        ServerMessage::ChallengeCreated { challenge_id, .. } => challenge_id,
        _ => return Err("challenge_friend: unexpected answer".to_owned()),
    };
    let started = |m: &ServerMessage| match m {
        ServerMessage::GameStarted { game_id, color } => Some((game_id.clone(), *color)),
        _ => None,
    };
    let mut b_started = None;
    let accept = |id| ClientMessage::AcceptChallenge { id, challenge_id };
    b.request("accept_challenge", ANSWER_TIMEOUT, accept, |m| b_started = b_started.take().or_else(|| started(&m)))
        .await?;
    let (game_id, b_color) = match b_started {
        Some(s) => s,
        None => b.wait_for("game_started", ANSWER_TIMEOUT, started, |_| {}).await?,
    };
    let a_color = a
        .wait_for("game_started", ANSWER_TIMEOUT, |m| started(m).filter(|(g, _)| *g == game_id).map(|(_, c)| c), |_| {})
        .await?;
    if a_color == b_color {
        return Err("game_started: both players got the same colour".to_owned());
    }
    let white = if a_color == Color::White { 0 } else { 1 };
    let mut game = Game::new(game_id, [white, 1 - white], ctx.move_interval, rng);
    for c in 0..2 {
        let mut answers = Vec::new();
        let subscribe = |id| ClientMessage::Subscribe { id, game_id: game.id.clone(), since_version: None };
        pair.conns[c].request("subscribe", ANSWER_TIMEOUT, subscribe, |m| answers.push(m)).await?;
        for m in answers {
            match m {
                ServerMessage::GameSnapshot { game_id, snapshot } if game_id == game.id => {
                    game.apply_snapshot(&snapshot)?;
                }
                ServerMessage::GameEvents { game_id, events } if game_id == game.id => {
                    // A gap here is fixed by the other connection's snapshot, or by a resync in the loop.
                    let _ = game.apply_events(events, &ctx.stats)?;
                }
                _ => {}
            }
        }
    }
    if !game.synced {
        return Err("subscribe: no game_snapshot before the ack".to_owned());
    }
    Ok(game)
}

/// A pair ready to play (the given one, or two new guests) and a new game for it.
pub(crate) async fn setup(ctx: &Ctx, pair: Option<Pair>, rng: &mut impl Rng) -> Result<(Pair, Game), String> {
    let mut pair = match pair {
        Some(p) => p,
        None => connect_pair(ctx).await?,
    };
    match start_game(&mut pair, ctx, rng).await {
        Ok(game) => Ok((pair, game)),
        Err(e) => {
            pair.close().await;
            Err(e)
        }
    }
}

/// What applying events asks for.
#[derive(Debug, PartialEq, Eq)]
enum Applied {
    Done,
    /// An event is missing: subscribe again from the last version.
    Gap,
}

impl Game {
    fn new(id: String, conn_of: [usize; 2], move_interval: Duration, rng: &mut impl Rng) -> Game {
        let now = Instant::now();
        Game {
            id,
            conn_of,
            pos: Position::new(),
            version: 0,
            ply: 0,
            over: false,
            resigned: false,
            synced: false,
            pending: None,
            awaiting_ply: None,
            requests: Vec::new(),
            // A random phase, so that games do not move in lockstep.
            next_move_at: now + move_interval.mul_f64(rng.random::<f64>()),
            last_progress: now,
        }
    }

    /// Replaces the state with a snapshot's.
    fn apply_snapshot(&mut self, s: &GameSnapshot) -> Result<(), String> {
        self.pos = position_from_fen(&s.fen)?;
        self.version = s.version;
        self.ply = u32::try_from(s.moves.len()).unwrap_or(u32::MAX);
        self.synced = true;
        if matches!(s.status, GameStatus::Finished { .. } | GameStatus::Aborted { .. }) {
            self.over = true;
        }
        if self.awaiting_ply.is_some_and(|p| self.ply >= p) {
            self.awaiting_ply = None;
        }
        self.last_progress = Instant::now();
        Ok(())
    }

    /// Applies new events in version order; events already seen (the other connection's copies) are skipped.
    fn apply_events(&mut self, events: Vec<VersionedGameEvent>, stats: &Stats) -> Result<Applied, String> {
        for e in events {
            if e.version <= self.version {
                continue;
            }
            if e.version != self.version + 1 {
                return Ok(Applied::Gap);
            }
            self.version = e.version;
            match e.event {
                GameEvent::MoveMade { fen, ply, .. } => {
                    self.pos = position_from_fen(&fen)?;
                    self.ply = ply;
                    self.last_progress = Instant::now();
                    if self.awaiting_ply.is_some_and(|p| ply >= p) {
                        self.awaiting_ply = None;
                    }
                }
                GameEvent::TakebackDone { fen, plies, .. } => {
                    self.pos = position_from_fen(&fen)?;
                    self.ply = self.ply.saturating_sub(plies);
                    self.awaiting_ply = None;
                }
                GameEvent::GameEnded { .. } => {
                    self.over = true;
                    stats.game_completed();
                }
                GameEvent::Aborted { reason, .. } => {
                    self.over = true;
                    stats.error(format!("game aborted by the server: {reason}"));
                }
                _ => {}
            }
        }
        Ok(Applied::Done)
    }

    /// Whether the side to move may move now (nothing outstanding).
    fn can_act(&self) -> bool {
        !self.over && self.synced && !self.resigned && self.pending.is_none() && self.awaiting_ply.is_none()
    }

    /// The next move slot: one `move_interval` after the last one, or from now when far behind.
    fn schedule_next(&mut self, interval: Duration) {
        let now = Instant::now();
        let next = self.next_move_at + interval;
        self.next_move_at = if next < now { now + interval } else { next };
    }

    /// When the loop must look again without a message: a move slot, an ack timeout, the stall watchdog.
    fn deadline(&self, stall: Duration) -> Instant {
        let mut d = self.last_progress + stall;
        if let Some(p) = &self.pending {
            d = d.min(p.sent + ANSWER_TIMEOUT);
        }
        if self.can_act() {
            d = d.min(self.next_move_at);
        }
        d
    }

    /// Sends a request whose answer is not waited for, remembering its id to name it in an error.
    async fn send_request(
        &mut self,
        pair: &mut Pair,
        c: usize,
        what: &'static str,
        make: impl FnOnce(u32) -> ClientMessage,
    ) -> Result<(), String> {
        let conn = &mut pair.conns[c];
        let id = conn.next_id();
        conn.send(&make(id)).await?;
        if self.requests.len() >= 16 {
            self.requests.remove(0);
        }
        self.requests.push((c, id, what));
        Ok(())
    }

    /// Subscribes again: from `since` (missed events), or without it (a snapshot).
    async fn resync(&mut self, pair: &mut Pair, c: usize, since: Option<u64>) -> Result<(), String> {
        let game_id = self.id.clone();
        self.send_request(pair, c, "subscribe", |id| ClientMessage::Subscribe { id, game_id, since_version: since })
            .await
    }

    /// The side to move plays a random legal move (or resigns at the ply cap).
    async fn act(&mut self, pair: &mut Pair, ctx: &Ctx, rng: &mut impl Rng) -> Result<(), String> {
        let c = self.conn_of[color_index(self.pos.turn())];
        self.schedule_next(ctx.move_interval);
        if self.ply >= PLY_CAP {
            self.resigned = true;
            let game_id = self.id.clone();
            return self
                .send_request(pair, c, "resign", |id| ClientMessage::Game {
                    id,
                    game_id,
                    action: Action::Resign,
                    lag_ms: 0,
                })
                .await;
        }
        // No legal move: the game is over, its `game_ended` event is on the way (or the watchdog fires).
        let Some(uci) = random_move(&self.pos, rng) else { return Ok(()) };
        let conn = &mut pair.conns[c];
        let id = conn.next_id();
        let msg = ClientMessage::Game { id, game_id: self.id.clone(), action: Action::uci(uci), lag_ms: 0 };
        let sent = Instant::now();
        conn.send(&msg).await?;
        self.pending = Some(Pending { conn: c, id, sent });
        self.awaiting_ply = Some(self.ply + 1);
        Ok(())
    }

    /// Handles one server message from connection `c`. An error return is fatal for the pair.
    async fn on_message(&mut self, pair: &mut Pair, c: usize, m: ServerMessage, ctx: &Ctx) -> Result<(), String> {
        let is_pending = |id: u32| self.pending.as_ref().is_some_and(|p| p.conn == c && p.id == id);
        match m {
            ServerMessage::Ack { id } if is_pending(id) => {
                let p = self.pending.take().expect("pending move");
                ctx.stats.record_move(p.sent.elapsed());
            }
            ServerMessage::Ack { id } => self.requests.retain(|r| (r.0, r.1) != (c, id)),
            ServerMessage::Error { id: Some(id), .. } if is_pending(id) => {
                ctx.stats.error(describe_error("move", &m));
                self.pending = None;
                self.awaiting_ply = None;
                self.resync(pair, c, None).await?;
            }
            ServerMessage::Error { id, .. } => {
                let what = id
                    .and_then(|id| self.requests.iter().position(|r| (r.0, r.1) == (c, id)))
                    .map_or("a message", |i| self.requests.remove(i).2);
                ctx.stats.error(describe_error(what, &m));
            }
            ServerMessage::GameEvents { game_id, events } if game_id == self.id => {
                let applied = self.apply_events(events, &ctx.stats)?;
                if applied == Applied::Gap {
                    self.resync(pair, c, Some(self.version)).await?;
                }
            }
            ServerMessage::GameSnapshot { game_id, snapshot } if game_id == self.id => {
                self.apply_snapshot(&snapshot)?
            }
            _ => {}
        }
        Ok(())
    }

    /// Plays until the game is over, the pair breaks or the run stops.
    pub(crate) async fn play(
        &mut self,
        pair: &mut Pair,
        ctx: &Ctx,
        rng: &mut impl Rng,
        stop: &mut watch::Receiver<bool>,
    ) -> End {
        // A game makes a move every interval; this long without one, something is stuck.
        let stall = ANSWER_TIMEOUT + 2 * ctx.move_interval;
        loop {
            if *stop.borrow() {
                return End::Stop;
            }
            if self.over {
                return End::Over;
            }
            let now = Instant::now();
            if let Some(p) = &self.pending
                && now >= p.sent + ANSWER_TIMEOUT
            {
                let c = p.conn;
                ctx.stats.error(format!("timeout: no ack for a move within {} s", ANSWER_TIMEOUT.as_secs()));
                self.pending = None;
                self.awaiting_ply = None;
                if let Err(e) = self.resync(pair, c, None).await {
                    return End::Fatal(e);
                }
                continue;
            }
            if now >= self.last_progress + stall {
                return End::Fatal(format!("game stalled: no move for {} s", stall.as_secs()));
            }
            if self.can_act() && now >= self.next_move_at {
                if let Err(e) = self.act(pair, ctx, rng).await {
                    return End::Fatal(e);
                }
                continue;
            }
            let deadline = self.deadline(stall);
            let [a, b] = &mut pair.conns;
            let (c, item) = tokio::select! {
                _ = stop.changed() => return End::Stop,
                item = futures_util::StreamExt::next(&mut a.ws) => (0, item),
                item = futures_util::StreamExt::next(&mut b.ws) => (1, item),
                () = tokio::time::sleep_until(deadline) => continue,
            };
            match Incoming::from_item(item) {
                Incoming::Message(m) => {
                    if let Err(e) = self.on_message(pair, c, *m, ctx).await {
                        return End::Fatal(e);
                    }
                }
                Incoming::Nothing => {}
                Incoming::Unreadable(e) => ctx.stats.error(e),
                Incoming::Closed(e) => return End::Fatal(e),
            }
        }
    }

    /// Ends the game for good at the end of the run: resign (unless over), close both connections.
    async fn shutdown(self, mut pair: Pair) {
        let game_id = self.id;
        let over = self.over;
        let resign = async {
            if !over {
                let conn = &mut pair.conns[0];
                let id = conn.next_id();
                let _ = conn.send(&ClientMessage::Game { id, game_id, action: Action::Resign, lag_ms: 0 }).await;
            }
            pair.close().await;
        };
        let _ = tokio::time::timeout(Duration::from_secs(2), resign).await;
    }

    /// Tells both connections to stop following this (finished) game; the answers are not waited for.
    async fn unsubscribe(&self, pair: &mut Pair) -> Result<(), String> {
        for conn in &mut pair.conns {
            let id = conn.next_id();
            conn.send(&ClientMessage::Unsubscribe { id, game_id: self.id.clone() }).await?;
        }
        Ok(())
    }
}

/// One game slot for the whole run: sets up a pair and a game, plays it, starts the next game when it ends, and
/// starts afresh with new players when the pair breaks. Counts itself live (`Stats::live`) once its first game has
/// started, or failed (`Stats::failed`) after [`SETUP_ATTEMPTS`] failed set-ups before that.
pub(crate) async fn game_task(ctx: Arc<Ctx>, first: Option<(Pair, Game)>, mut stop: watch::Receiver<bool>) {
    let mut rng = StdRng::from_rng(&mut rand::rng());
    let mut live = false;
    let mut failures = 0;
    let mut current = first;
    let mut spare: Option<Pair> = None;
    loop {
        if *stop.borrow() {
            break;
        }
        let (mut pair, mut game) = match current.take() {
            Some(pg) => pg,
            None => {
                let attempt = tokio::select! {
                    r = setup(&ctx, spare.take(), &mut rng) => r,
                    _ = stop.changed() => break,
                };
                match attempt {
                    Ok(pg) => pg,
                    Err(e) => {
                        ctx.stats.error(format!("game set-up: {e}"));
                        failures += 1;
                        if !live && failures >= SETUP_ATTEMPTS {
                            ctx.stats.failed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                            return;
                        }
                        tokio::select! {
                            () = tokio::time::sleep(SETUP_BACKOFF) => continue,
                            _ = stop.changed() => break,
                        }
                    }
                }
            }
        };
        failures = 0;
        if !live {
            live = true;
            ctx.stats.live.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        match game.play(&mut pair, &ctx, &mut rng, &mut stop).await {
            End::Over => match game.unsubscribe(&mut pair).await {
                Ok(()) => spare = Some(pair),
                Err(e) => {
                    ctx.stats.error(e);
                    pair.close().await;
                }
            },
            End::Fatal(e) => {
                ctx.stats.error(e);
                // Close in the background: a broken connection may take its time.
                tokio::spawn(pair.close());
            }
            End::Stop => {
                game.shutdown(pair).await;
                return;
            }
        }
    }
    if let Some(pair) = spare {
        pair.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guoxiang_core::STARTING_FEN;
    use guoxiang_protocol::{Clocks, MoveInfo, Player, Variant};

    fn game() -> Game {
        let mut rng = StdRng::seed_from_u64(5);
        Game::new("g1".into(), [0, 1], Duration::from_secs(1), &mut rng)
    }

    fn player(id: &str) -> Player {
        Player { id: id.into(), name: id.into(), is_engine: false, engine_level: None }
    }

    fn snapshot(fen: &str, moves: &[&str], version: u64, status: GameStatus) -> GameSnapshot {
        GameSnapshot {
            id: "g1".into(),
            white: player("u1"),
            black: player("u2"),
            rated: false,
            variant: Variant::Standard,
            time_control: "1800+0".into(),
            fen: fen.into(),
            turn: Color::White,
            moves: moves.iter().map(|m| MoveInfo { uci: (*m).into(), san: String::new(), clock_ms: None }).collect(),
            clocks: None,
            clock_running: None,
            status,
            draw_offer: None,
            may_offer_draw: [true, true],
            takeback_offer: None,
            rematch_offer: None,
            disconnected: [false, false],
            version,
            rules: None,
            touches: Vec::new(),
            illegal_moves: None,
            paused: false,
            adjournment: None,
            dispute: None,
            arbiter_notes: Vec::new(),
        }
    }

    fn move_made(version: u64, ply: u32, fen: &str) -> VersionedGameEvent {
        VersionedGameEvent {
            version,
            event: GameEvent::MoveMade {
                by: Color::White,
                uci: String::new(),
                san: String::new(),
                fen: fen.into(),
                ply,
                clocks: Some(Clocks { white_ms: 1, black_ms: 1 }),
            },
        }
    }

    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    const AFTER_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

    #[test]
    fn the_phase_is_within_one_interval() {
        let before = Instant::now();
        let g = game();
        assert!(g.next_move_at >= before && g.next_move_at <= Instant::now() + Duration::from_secs(1));
        assert!(!g.can_act(), "not before the snapshot");
    }

    #[test]
    fn snapshot_then_events_track_the_position() {
        let stats = Stats::new();
        let mut g = game();
        g.apply_snapshot(&snapshot(STARTING_FEN, &[], 0, GameStatus::Created)).unwrap();
        assert!(g.can_act());
        g.awaiting_ply = Some(1);
        assert!(!g.can_act());
        // The two connections deliver the same events: the second copy is skipped.
        let events = vec![move_made(1, 1, AFTER_E4)];
        assert_eq!(g.apply_events(events.clone(), &stats).unwrap(), Applied::Done);
        assert_eq!(g.apply_events(events, &stats).unwrap(), Applied::Done);
        assert_eq!((g.version, g.ply, g.awaiting_ply), (1, 1, None));
        assert_eq!(g.pos.fen(), AFTER_E4);
        assert!(g.can_act());
        // Version 3 without 2: a gap.
        assert_eq!(g.apply_events(vec![move_made(3, 3, AFTER_E5)], &stats).unwrap(), Applied::Gap);
        assert_eq!(g.version, 1);
        assert_eq!(g.apply_events(vec![move_made(2, 2, AFTER_E5)], &stats).unwrap(), Applied::Done);
        assert_eq!(g.pos.fen(), AFTER_E5);
        let ended = VersionedGameEvent {
            version: 3,
            event: GameEvent::GameEnded {
                result: "1-0".into(),
                termination: "resignation".into(),
                winner: Some(Color::White),
                message_zh: String::new(),
                message_en: String::new(),
                clocks: None,
            },
        };
        stats.set_measuring(true);
        g.apply_events(vec![ended], &stats).unwrap();
        assert!(g.over && !g.can_act());
        assert_eq!(stats.games_completed(), 1);
        assert_eq!(stats.errors(), 0);
    }

    #[test]
    fn a_finished_snapshot_ends_the_game_and_a_bad_fen_is_an_error() {
        let mut g = game();
        let finished = GameStatus::Aborted { reason: "player".into(), by: Color::Black };
        g.apply_snapshot(&snapshot(AFTER_E5, &["e2e4", "e7e5"], 7, finished)).unwrap();
        assert!(g.over);
        assert_eq!((g.version, g.ply), (7, 2));
        let stats = Stats::new();
        assert!(g.apply_events(vec![move_made(8, 3, "garbage")], &stats).unwrap_err().contains("unreadable FEN"));
    }

    #[test]
    fn the_schedule_keeps_its_grid_unless_far_behind() {
        let mut g = game();
        let second = Duration::from_secs(1);
        let start = Instant::now() + Duration::from_millis(500);
        g.next_move_at = start;
        g.schedule_next(second);
        assert_eq!(g.next_move_at, start + second);
        g.next_move_at = Instant::now() - Duration::from_secs(5);
        g.schedule_next(second);
        assert!(g.next_move_at > Instant::now());
    }

    #[test]
    fn the_deadline_is_the_nearest_timer() {
        let mut g = game();
        g.apply_snapshot(&snapshot(STARTING_FEN, &[], 0, GameStatus::Created)).unwrap();
        let stall = Duration::from_secs(12);
        assert_eq!(g.deadline(stall), g.next_move_at);
        let sent = Instant::now();
        g.pending = Some(Pending { conn: 0, id: 1, sent });
        assert_eq!(g.deadline(stall), sent + ANSWER_TIMEOUT);
    }
}
