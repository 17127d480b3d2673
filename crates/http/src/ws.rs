//! The WebSocket endpoint (`/ws`) of the typed protocol (`guoxiang-protocol`, described in `docs/api.md`).
//!
//! One task per connection reads client frames and answers each exactly once; a writer task drains a bounded
//! queue of outgoing frames (a client too slow to keep up is disconnected rather than buffered without end); one
//! forwarding task per followed game copies its broadcast frames, resyncing with a snapshot if it fell behind.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use governor::DefaultDirectRateLimiter;
use guoxiang_game::{PlayerRef, Variant};
use guoxiang_protocol::{
    Action, ArbiterAct, ClientMessage, ColorChoice, PROTOCOL_VERSION, Player, PromotionRole, ProtocolError,
    ServerMessage, StartChoice, parse_client_frame,
};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::AppState;
use crate::api_error::ApiError;
use crate::auth::Auth;
use crate::connection::connection_id;
use guoxiang_domain::hub::UserEvent;
use guoxiang_domain::live::{GameError, GameHandle};
use guoxiang_domain::policy::Entrant;

mod study;

/// Routes: the WebSocket.
pub fn routes() -> Router<AppState> {
    Router::new().route("/ws", get(upgrade))
}

static CONNECTIONS: AtomicU64 = AtomicU64::new(1);

/// Outgoing frames a connection may have queued before it is considered dead.
const OUT_QUEUE: usize = 1024;

pub async fn upgrade(
    State(state): State<AppState>,
    slot: Option<axum::Extension<crate::listen::ConnSlot>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let auth = match crate::http::upgrade::admit(&state, &headers).await {
        Ok(a) => a,
        Err(e) => return e.into_response(),
    };
    // Frames up to 1 MiB reach our own size check, which answers `frame_too_large` instead of dropping the line.
    // The connection's slot stays taken while the WebSocket is open (it counts against the client's address).
    // Small buffers: a game's frames are a few hundred bytes, and each connection would otherwise hold 128 KiB for
    // reading (and grow one as large for writing), which is most of a live game's memory. Reads come in 1 KiB
    // chunks (a larger frame takes several); the frames queued together are written together when the writer
    // flushes, or as soon as they pass [`WRITE_BUFFER`] bytes.
    ws.max_message_size(1 << 20).read_buffer_size(1024).write_buffer_size(WRITE_BUFFER).on_upgrade(
        move |socket| async move {
            let _slot = slot;
            connection(state, auth, socket).await;
        },
    )
}

/// Bytes of frames a connection gathers before it writes them even without a flush (it flushes after each batch).
const WRITE_BUFFER: usize = 4096;

/// Frames taken from a connection's queue for one write at most.
const WRITE_BATCH: usize = 16;

fn api_error(id: u32, e: &ApiError) -> Arc<str> {
    ServerMessage::Error { id: Some(id), code: e.code.to_owned(), message_zh: e.zh.clone(), message_en: e.en.clone() }
        .to_json()
        .into()
}

struct Conn {
    state: AppState,
    auth: Option<Auth>,
    id: u64,
    out: mpsc::Sender<Arc<str>>,
    hello: bool,
    /// Followed games: the forwarding task, and whether we count as the player's presence.
    subs: HashMap<String, (JoinHandle<()>, Option<GameHandle>)>,
    lobby: Option<JoinHandle<()>>,
    /// The study whose present mode the connection follows, and its forwarding task (`ws::study`).
    study: Option<(String, JoinHandle<()>)>,
    dead: bool,
}

async fn connection(state: AppState, auth: Option<Auth>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut out_rx) = mpsc::channel::<Arc<str>>(OUT_QUEUE);
    let writer = tokio::spawn(async move {
        // The frames queued by the time the writer runs (a move's ack, its events and the clocks) go out in one
        // write: one system call, and one wake-up of the client, instead of one per frame.
        let mut batch = Vec::with_capacity(4);
        'out: while out_rx.recv_many(&mut batch, WRITE_BATCH).await > 0 {
            for frame in batch.drain(..) {
                if sink.feed(Message::Text(frame.as_ref().into())).await.is_err() {
                    break 'out;
                }
            }
            if sink.flush().await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut conn = Conn {
        state: state.clone(),
        auth,
        id: connection_id(&CONNECTIONS),
        out: out.clone(),
        hello: false,
        subs: HashMap::new(),
        lobby: None,
        study: None,
        dead: false,
    };
    // Per-user notifications. If the hub drops this connection for not reading them, the connection closes (the
    // client reconnects and resyncs from `hello`).
    let (hub_done_tx, hub_done) = oneshot::channel::<()>();
    // A token is sent them only with a scope that reads them (as the event stream).
    let events = conn
        .auth
        .as_ref()
        .filter(|a| crate::authz::allow(a, crate::authz::Need::Scope(crate::authz::WS_EVENTS)).is_ok());
    let mut hub_done = events.is_some().then_some(hub_done);
    let hub_task = events.map(|a| spawn_user_events(&state, a, out.clone(), hub_done_tx));
    let limiter = crate::http::upgrade::message_limiter(&state.config.limits);
    loop {
        let msg = tokio::select! {
            m = stream.next() => m,
            () = ended(&mut hub_done) => {
                tracing::info!("connection {}: dropped by the hub for not reading; closing", conn.id);
                break;
            }
        };
        let Some(Ok(msg)) = msg else { break };
        if conn.frame(msg, &limiter).await.is_break() {
            break;
        }
    }
    conn.close(hub_task).await;
    drop(out);
    let _ = writer.await;
}

/// Forwards the user's notifications from the hub to the connection's queue; tells `done` when it ends (the hub
/// dropped the connection, the session ended, or the connection is gone).
fn spawn_user_events(
    state: &AppState,
    auth: &Auth,
    out: mpsc::Sender<Arc<str>>,
    done: oneshot::Sender<()>,
) -> JoinHandle<()> {
    let (guard, mut rx) = state.hub.register(&auth.user.id);
    let my_session = auth.session.clone();
    let base = state.config.public_url.clone();
    tokio::spawn(async move {
        let _guard = guard;
        while let Some(ev) = rx.recv().await {
            let msg = match ev {
                UserEvent::GameStarted { game_id, color } => {
                    ServerMessage::GameStarted { game_id, color: color.into() }
                }
                UserEvent::Challenge(c) => ServerMessage::Challenge { challenge: c.to_protocol(&base) },
                UserEvent::RematchOffered { game_id, by } => ServerMessage::RematchOffered { game_id, by: by.into() },
                UserEvent::RematchDeclined { game_id, by } => ServerMessage::RematchDeclined { game_id, by: by.into() },
                UserEvent::GameFinished { .. } => continue,
                UserEvent::SessionEnded { session } if Some(&session) == my_session.as_ref() => break,
                UserEvent::SessionEnded { .. } => continue,
                UserEvent::Study(m) => *m,
            };
            if out.send(msg.to_json().into()).await.is_err() {
                break;
            }
        }
        let _ = done.send(());
    })
}

/// Resolves when the hub's forwarding task has ended (never, for a connection without one).
async fn ended(done: &mut Option<oneshot::Receiver<()>>) {
    match done {
        Some(rx) => {
            let _ = rx.await;
        }
        None => std::future::pending().await,
    }
}

impl Conn {
    fn send(&mut self, frame: Arc<str>) {
        if self.out.try_send(frame).is_err() {
            self.dead = true; // the client does not read: drop it
        }
    }

    /// One frame from the client: text is limited, parsed and handled; binary is refused. `Break` closes the
    /// connection (a close frame, or a client that does not read its answers).
    async fn frame(&mut self, msg: Message, limiter: &DefaultDirectRateLimiter) -> ControlFlow<()> {
        let text = match msg {
            Message::Text(t) => t,
            Message::Close(_) => return ControlFlow::Break(()),
            Message::Binary(_) => {
                let e =
                    ProtocolError::BadMessage { id: None, detail: "binary frames are not part of the protocol".into() };
                self.send(ServerMessage::protocol_error(None, &e).to_json().into());
                return ControlFlow::Continue(());
            }
            _ => return ControlFlow::Continue(()),
        };
        if limiter.check().is_err() {
            let id = parse_client_frame(&text).ok().map(|m| m.id()).unwrap_or_default();
            self.send(api_error(id, &ApiError::too_many()));
            return ControlFlow::Continue(());
        }
        match parse_client_frame(&text) {
            // Boxed: handling a message awaits deep futures; inline, they would make every idle connection's own
            // future as large as the largest of them.
            Ok(m) => Box::pin(self.handle(m)).await,
            Err(e) => self.send(ServerMessage::protocol_error(None, &e).to_json().into()),
        }
        if self.dead { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }

    /// Closing: stop forwarding, release presence, seeks and pool entries.
    async fn close(mut self, hub_task: Option<JoinHandle<()>>) {
        for (_, (task, player)) in self.subs.drain() {
            task.abort();
            if let (Some(h), Some(a)) = (player, &self.auth) {
                h.presence(&a.user.id, -1).await;
            }
        }
        if let Some(t) = self.lobby.take() {
            t.abort();
        }
        self.study_stop();
        if let Some(t) = hub_task {
            t.abort();
        }
        self.state.lobby.connection_closed(self.id);
    }

    fn ack(&mut self, id: u32) {
        self.send(ServerMessage::Ack { id }.to_json().into());
    }

    fn player(&self) -> Option<(PlayerRef, bool)> {
        self.auth.as_ref().map(|a| (PlayerRef::human(a.user.id.clone(), a.user.name.clone()), a.user.is_guest))
    }

    /// Whether the connection's user is a bot account.
    fn is_bot(&self) -> bool {
        self.auth.as_ref().is_some_and(|a| a.user.is_bot)
    }

    fn need_user(&self) -> Result<(PlayerRef, bool), ApiError> {
        self.player().ok_or_else(ApiError::unauthorized)
    }

    async fn handle(&mut self, msg: ClientMessage) {
        let id = msg.id();
        if !self.hello {
            match msg {
                ClientMessage::Hello { protocol, .. } if protocol == PROTOCOL_VERSION => {
                    self.hello = true;
                    let user = self.auth.as_ref().map(|a| Player {
                        id: a.user.id.clone(),
                        name: a.user.name.clone(),
                        is_engine: false,
                        engine_level: None,
                    });
                    let playing = match &self.auth {
                        Some(a) => self.state.live.playing(&a.user.id).await,
                        None => Vec::new(),
                    };
                    self.send(
                        ServerMessage::Hello {
                            id,
                            protocol: PROTOCOL_VERSION,
                            server: format!("guoxiang {}", env!("CARGO_PKG_VERSION")),
                            user,
                            playing,
                            server_time_ms: guoxiang_domain::time::now_ms(),
                        }
                        .to_json()
                        .into(),
                    );
                }
                ClientMessage::Hello { protocol, .. } => {
                    let e = ProtocolError::UnsupportedProtocol { client: protocol };
                    self.send(ServerMessage::protocol_error(Some(id), &e).to_json().into());
                    self.dead = true;
                }
                _ => self.send(ServerMessage::protocol_error(Some(id), &ProtocolError::HelloRequired).to_json().into()),
            }
            return;
        }
        if let Err(e) = self.dispatch(msg).await {
            self.send(api_error(id, &e));
        }
    }

    /// The live game `game_id`, on this node or (with a broker) another.
    async fn game(&self, game_id: &str) -> Result<GameHandle, ApiError> {
        self.state.live.find(game_id).await.ok_or_else(|| unknown_game(game_id))
    }

    async fn game_command(&mut self, id: u32, game_id: &str, action: Action, lag_ms: u32) -> Result<(), ApiError> {
        let (p, _) = self.need_user()?;
        let g = self.game(game_id).await?;
        self.state.live.command(g, &p.id, action, u64::from(lag_ms)).await.map_err(|e| match e {
            // Its actor stopped before reading the command: the game ended, or (in a cluster) moved to another node.
            GameError::Gone { .. } => unknown_game(game_id),
            e => e.into(),
        })?;
        self.ack(id);
        Ok(())
    }

    /// Routes a message after `hello` to its handler; the handlers below come in the protocol's families: the
    /// connection itself, following games, acting in a game, the lobby (its updates, seeks and pools), and starting
    /// games (the computer, challenges).
    async fn dispatch(&mut self, msg: ClientMessage) -> Result<(), ApiError> {
        use ClientMessage as C;
        // A connection opened with a personal token may send only what its scopes allow.
        crate::authz::allow_message(self.auth.as_ref(), &msg)?;
        match msg {
            C::Hello { .. } => {
                Err(ApiError::bad_request("bad_request", "已经握手", "hello was already sent on this connection"))
            }
            C::Ping { id, client_time_ms } => {
                self.pong(id, client_time_ms);
                Ok(())
            }
            C::Subscribe { id, game_id, since_version } => self.subscribe(id, game_id, since_version).await,
            C::Unsubscribe { id, game_id } => {
                self.unsubscribe(id, &game_id).await;
                Ok(())
            }
            C::Game { id, game_id, action, lag_ms } => self.game_command(id, &game_id, action, lag_ms).await,
            C::Arbiter { id, game_id, act } => self.arbiter_command(id, &game_id, act).await,
            C::Explain { id, game_id, from, to, promotion } => self.explain(id, game_id, from, to, promotion).await,
            C::LobbySubscribe { id } => {
                self.lobby_subscribe(id).await;
                Ok(())
            }
            C::LobbyUnsubscribe { id } => {
                self.lobby_unsubscribe(id);
                Ok(())
            }
            C::CreateSeek { id, time_control, rated, color, variant } => {
                self.create_seek(id, &time_control, rated, color, variant).await
            }
            C::CancelSeek { id, seek_id } => self.cancel_seek(id, &seek_id).await,
            C::AcceptSeek { id, seek_id } => self.accept_seek(id, &seek_id).await,
            C::JoinPool { id, time_control, rated } => self.join_pool(id, &time_control, rated).await,
            C::LeavePool { id } => self.leave_pool(id).await,
            C::PlayComputer { id, level, color, time_control, fen, variant, rules } => {
                self.play_computer(id, level, color, &time_control, (fen, variant), rules.as_deref()).await
            }
            C::ChallengeFriend { id, time_control, rated, color, variant, rules } => {
                self.challenge_friend(id, &time_control, rated, color, variant, rules.as_deref()).await
            }
            C::AcceptChallenge { id, challenge_id } => self.accept_challenge(id, &challenge_id).await,
            C::DeclineChallenge { id, challenge_id } | C::CancelChallenge { id, challenge_id } => {
                self.close_challenge(id, &challenge_id).await
            }
            C::StudyFollow { id, study } => self.study_follow(id, study).await,
            C::StudyUnfollow { id, study } => {
                self.study_unfollow(id, &study);
                Ok(())
            }
            C::StudyPresent { id, study, chapter, path } => self.study_present(id, study, chapter, path).await,
            C::StudyRelease { id, study } => self.study_release(id, study).await,
        }
    }

    // The connection itself.

    fn pong(&mut self, id: u32, client_time_ms: u64) {
        self.send(
            ServerMessage::Pong { id, client_time_ms, server_time_ms: guoxiang_domain::time::now_ms() }
                .to_json()
                .into(),
        );
    }

    // Following games.

    /// `subscribe`: the game's first frames, the arbiter's notice, the player's presence, then its forwarding task
    /// (replacing an earlier subscription to the same game).
    async fn subscribe(&mut self, id: u32, game_id: String, since_version: Option<u64>) -> Result<(), ApiError> {
        let g = self.game(&game_id).await?;
        let sub = g.subscribe(since_version, false).await?;
        if let Some((old, p)) = self.subs.remove(&game_id) {
            old.abort();
            if let Some(p) = p
                && let Some(a) = &self.auth
            {
                p.presence(&a.user.id, -1).await;
            }
        }
        for f in sub.initial {
            self.send(f);
        }
        let is_player = self.auth.as_ref().and_then(|a| g.color_of(&a.user.id)).is_some();
        // An arbiter of the game is told so (the UI shows the arbiter's panel).
        if !is_player
            && let Some(a) = &self.auth
            && self.state.live.is_arbiter(&a.user.id, &g).await.unwrap_or(false)
        {
            self.send(ServerMessage::Arbiter { game_id: game_id.clone() }.to_json().into());
        }
        if is_player && let Some(a) = &self.auth {
            g.presence(&a.user.id, 1).await;
        }
        let task = tokio::spawn(forward(g.clone(), sub.rx, self.out.clone()));
        self.subs.insert(game_id, (task, is_player.then_some(g)));
        self.ack(id);
        Ok(())
    }

    async fn unsubscribe(&mut self, id: u32, game_id: &str) {
        if let Some((task, p)) = self.subs.remove(game_id) {
            task.abort();
            if let (Some(p), Some(a)) = (p, &self.auth) {
                p.presence(&a.user.id, -1).await;
            }
        }
        self.ack(id);
    }

    // Acting in a game.

    async fn arbiter_command(&mut self, id: u32, game_id: &str, act: ArbiterAct) -> Result<(), ApiError> {
        let (p, _) = self.need_user()?;
        self.game(game_id).await?;
        self.state.live.arbiter_command(&p, game_id, act).await?;
        self.ack(id);
        Ok(())
    }

    async fn explain(
        &mut self,
        id: u32,
        game_id: String,
        from: String,
        to: String,
        promotion: Option<PromotionRole>,
    ) -> Result<(), ApiError> {
        let g = self.game(&game_id).await?;
        let e = g.explain(from, to, promotion.map(guoxiang_core::Role::from)).await?;
        self.send(ServerMessage::explanation(id, game_id, &e).to_json().into());
        Ok(())
    }

    // The lobby: its updates, seeks and pools.

    async fn lobby_subscribe(&mut self, id: u32) {
        if self.lobby.is_none() {
            let lobby = &self.state.lobby;
            let rx = lobby.updates.subscribe();
            let games = self.state.live.live_games(50).await;
            self.send(
                ServerMessage::Lobby { seeks: lobby.seeks().await, pools: lobby.pools().await, games }.to_json().into(),
            );
            self.lobby = Some(tokio::spawn(forward_lobby(rx, self.out.clone())));
        }
        self.ack(id);
    }

    fn lobby_unsubscribe(&mut self, id: u32) {
        if let Some(t) = self.lobby.take() {
            t.abort();
        }
        self.ack(id);
    }

    async fn create_seek(
        &mut self,
        id: u32,
        time_control: &str,
        rated: bool,
        color: ColorChoice,
        variant: StartChoice,
    ) -> Result<(), ApiError> {
        let (p, guest) = self.need_user()?;
        guoxiang_domain::policy::check_lobby(self.is_bot())?;
        if rated && guest {
            return Err(rated_needs_account());
        }
        let rating = self.rating_for(time_control).await;
        let seek = self
            .state
            .lobby
            .create_seek(
                Entrant { player: p, guest },
                self.id,
                guoxiang_domain::lobby::SeekTerms { time_control, rated, color, variant },
                rating,
            )
            .await?;
        self.send(ServerMessage::SeekCreated { id, seek_id: seek.id }.to_json().into());
        Ok(())
    }

    async fn cancel_seek(&mut self, id: u32, seek_id: &str) -> Result<(), ApiError> {
        let (p, _) = self.need_user()?;
        self.state.lobby.cancel_seek(seek_id, &p.id).await?;
        self.ack(id);
        Ok(())
    }

    async fn accept_seek(&mut self, id: u32, seek_id: &str) -> Result<(), ApiError> {
        let (p, guest) = self.need_user()?;
        guoxiang_domain::policy::check_lobby(self.is_bot())?;
        if let Some(s) = self.state.lobby.seeks().await.into_iter().find(|s| s.id == seek_id) {
            crate::http::class::check_pairing(&self.state, &s.player.id, &p.id).await?;
        }
        self.state.lobby.accept_seek(seek_id, p, guest).await?;
        self.ack(id);
        Ok(())
    }

    async fn join_pool(&mut self, id: u32, time_control: &str, rated: bool) -> Result<(), ApiError> {
        let (p, guest) = self.need_user()?;
        guoxiang_domain::policy::check_lobby(self.is_bot())?;
        if rated && guest {
            return Err(rated_needs_account());
        }
        crate::http::class::check_pool(&self.state, &p.id).await?;
        self.state.lobby.join_pool(p, guest, self.id, time_control, rated).await?;
        self.ack(id);
        Ok(())
    }

    async fn leave_pool(&mut self, id: u32) -> Result<(), ApiError> {
        let (p, _) = self.need_user()?;
        self.state.lobby.leave_pool(&p.id).await;
        self.ack(id);
        Ok(())
    }

    // Starting games: the computer, challenges.

    /// `play_computer`; `start` is the message's `fen` and `variant` (a set-up position, or Chess960, not both).
    async fn play_computer(
        &mut self,
        id: u32,
        level: u8,
        color: ColorChoice,
        time_control: &str,
        start: (Option<String>, StartChoice),
        rules: Option<&str>,
    ) -> Result<(), ApiError> {
        let rules = rule_set(rules)?;
        let (p, _) = self.need_user()?;
        let variant = match start {
            (Some(_), StartChoice::Chess960 { .. }) => {
                return Err(ApiError::bad_request(
                    "bad_variant",
                    "960 局不能同时给出 fen",
                    "a Chess960 game takes no fen (give a start number, or none for a random one)",
                ));
            }
            (Some(fen), StartChoice::Standard) => Variant::FromPosition { fen },
            (None, choice) => guoxiang_domain::live::start_of(choice)?,
        };
        self.state.live.play_computer(p, level, color, time_control, variant, rules).await?;
        self.ack(id);
        Ok(())
    }

    async fn challenge_friend(
        &mut self,
        id: u32,
        time_control: &str,
        rated: bool,
        color: ColorChoice,
        variant: StartChoice,
        rules: Option<&str>,
    ) -> Result<(), ApiError> {
        let rules = rule_set(rules)?;
        let (p, guest) = self.need_user()?;
        if rated && guest {
            return Err(rated_needs_account());
        }
        if rated && rules.first_promotion {
            return Err(ApiError::bad_request(
                "bad_request",
                "兵的战争（first_promotion）是练习，不能计分",
                "a pawn war (first_promotion) is an exercise and cannot be rated",
            ));
        }
        let who = Entrant { player: p, guest };
        let variant = guoxiang_domain::live::start_of(variant)?;
        let terms = guoxiang_domain::lobby::ChallengeTerms { time_control, rated, color, variant, rules };
        let c = self.state.lobby.create_challenge(who, None, terms).await?;
        let url = c.url(&self.state.config.public_url);
        self.send(ServerMessage::ChallengeCreated { id, challenge_id: c.id, url }.to_json().into());
        Ok(())
    }

    async fn accept_challenge(&mut self, id: u32, challenge_id: &str) -> Result<(), ApiError> {
        let (p, guest) = self.need_user()?;
        if let Some(c) = self.state.lobby.challenge(challenge_id).await {
            crate::http::class::check_pairing(&self.state, &c.challenger.id, &p.id).await?;
        }
        self.state.lobby.accept_challenge(challenge_id, p, guest).await?;
        self.ack(id);
        Ok(())
    }

    /// `decline_challenge` or `cancel_challenge`: the lobby tells which of the two the user may do.
    async fn close_challenge(&mut self, id: u32, challenge_id: &str) -> Result<(), ApiError> {
        let (p, _) = self.need_user()?;
        self.state.lobby.close_challenge(challenge_id, &p.id, None).await?;
        self.ack(id);
        Ok(())
    }

    async fn rating_for(&self, time_control: &str) -> Option<u32> {
        let a = self.auth.as_ref()?;
        let tc = guoxiang_domain::lobby::parse_time_control(time_control).ok()?;
        let speed = guoxiang_ratings::RatingSpeed::of(tc.speed())?;
        let rows = self.state.store.ratings(&a.user.id).await.ok()?;
        let r = rows.into_iter().find(|r| r.speed == speed.as_str()).map_or(1500.0, |r| r.rating);
        Some(r.round() as u32)
    }
}

fn rated_needs_account() -> ApiError {
    ApiError::forbidden(
        "login_required",
        "计分对局需要注册账号",
        "rated games need an account (guests play casual games)",
    )
}

async fn forward(
    game: GameHandle,
    mut rx: broadcast::Receiver<Arc<guoxiang_domain::live::Update>>,
    out: mpsc::Sender<Arc<str>>,
) {
    loop {
        match rx.recv().await {
            Ok(u) => {
                if out.send(u.ws_json.clone()).await.is_err() {
                    return;
                }
                if let Some(c) = &u.clocks_json
                    && out.send(c.clone()).await.is_err()
                {
                    return;
                }
            }
            Err(broadcast::error::RecvError::Lagged(_)) => {
                // Fell behind: start again from a snapshot.
                let Ok(sub) = game.subscribe(None, false).await else { return };
                rx = sub.rx;
                for f in sub.initial {
                    if out.send(f).await.is_err() {
                        return;
                    }
                }
            }
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

async fn forward_lobby(mut rx: broadcast::Receiver<Arc<str>>, out: mpsc::Sender<Arc<str>>) {
    loop {
        match rx.recv().await {
            Ok(f) => {
                if out.send(f).await.is_err() {
                    return;
                }
            }
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

/// A rule set by name (`docs/game.md`, "Rule sets"); online without one. A bad name is `bad_request`, naming it.
fn rule_set(name: Option<&str>) -> Result<guoxiang_game::Rules, ApiError> {
    match name {
        None => Ok(guoxiang_game::Rules::ONLINE),
        Some(n) => guoxiang_game::Rules::parse(n)
            .map_err(|e| ApiError::bad_request("bad_request", format!("规则 {n:?} 无效：{e}"), e)),
    }
}

/// The refusal of a command for a game not live on this node (nor, with a broker, on any).
fn unknown_game(game_id: &str) -> ApiError {
    ApiError::not_found(&format!("进行中的对局 {game_id}"), &format!("live game {game_id}")).with_code("unknown_game")
}
