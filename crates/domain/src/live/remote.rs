// SPDX-License-Identifier: GPL-3.0-or-later
//! Games owned by another node of the cluster (issue 19, second part). A client may reach any node; the node that
//! does not own the game it asks about gives it (through the game directory, `live::directory`) a [`GameHandle`] all
//! the same, whose messages go not to an actor but to a **proxy** task: commands, arbiters' acts, views and snapshots go through the broker to the game's owner (found
//! by its lease in the database) and come back as its reply; the game's changes come from the owner's publications
//! and fan out to this node's followers as if the game were here. So the transports (WebSocket, the Lichess API, the
//! HTTP pages) do not know where a game runs.
//!
//! The owner's side is [`serve_game_request`]: it answers each request with its local actor, or `not_here` when it does
//! not run the game (any more), and the asking node looks the owner up again. During a takeover (the owner died or
//! was paused past its lease) requests wait for the new owner, up to [`ASK_DEADLINE`].
//!
//! Delivery through the broker is at most once. A command whose reply was lost is sent again to whoever owns the game
//! then, and the game's rules refuse a second copy of a move (it is no longer that player's turn); a follower that
//! missed a change (a gap in the versions, or the broker connection dropped) is sent a fresh snapshot.

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use guoxiang_core::{CastlingMode, Position, Validation};
use guoxiang_game::{Snapshot, Variant};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::wire::{self, GameUpdate, Reply, Request};
use super::{ActorMsg, Answer, GameError, GameHandle, GameView, HandleData, Live, Subscription, Update};
use crate::transport::{Family, Incoming, Listener, SharedCluster};

/// How long a request for a remote game may wait in all (for a takeover, a slow owner, a lost reply) before it is
/// refused as `not_saved` (nothing known to have changed; the client may send it again).
pub const ASK_DEADLINE: Duration = Duration::from_secs(20);

/// A proxy with no follower and no request for this long stops (the next request starts another).
const IDLE: Duration = Duration::from_secs(30);

impl Live {
    /// A proxy for the game `id` that another node owns (one per game on this node, made on first need): `None`
    /// when no node runs it.
    pub(super) async fn proxy(&self, id: &str, broker: SharedCluster) -> Option<GameHandle> {
        if let Some(h) = self.inner.remotes.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned() {
            return Some(h);
        }
        // Only a game in progress with a lease has an owner to ask.
        self.inner.store.live_lease(id).await.ok()??;
        let (row, _) = self.inner.store.game(id).await.ok()??;
        if row.status != "live" {
            return None;
        }
        let [white, black] = super::view::stored_players(&row);
        let listener = match broker.follow(id).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!("{e}");
                return None;
            }
        };
        let (tx, rx) = mpsc::channel(256);
        let handle = GameHandle(Arc::new(HandleData {
            tx,
            id: id.to_owned(),
            white,
            black,
            rated: row.rated,
            time_control: row.time_control.clone(),
            over: std::sync::atomic::AtomicBool::new(false),
        }));
        {
            let mut remotes = self.inner.remotes.lock().unwrap_or_else(|e| e.into_inner());
            // Another request made one meanwhile: use that (this listener goes with the unused handle).
            if let Some(h) = remotes.get(id) {
                return Some(h.clone());
            }
            remotes.insert(id.to_owned(), handle.clone());
        }
        let route = Arc::new(Route { live: self.clone(), broker, game_id: id.to_owned(), owner: Mutex::new(None) });
        tokio::spawn(run_proxy(route, handle.clone(), rx, listener));
        Some(handle)
    }

    fn forget_remote(&self, handle: &GameHandle) {
        let mut remotes = self.inner.remotes.lock().unwrap_or_else(|e| e.into_inner());
        if remotes.get(&handle.id).is_some_and(|h| Arc::ptr_eq(&h.0, &handle.0)) {
            remotes.remove(&handle.id);
        }
    }
}

/// Where a remote game's requests go: its owner, looked up in the database when not known or no longer right.
struct Route {
    live: Live,
    broker: SharedCluster,
    game_id: String,
    owner: Mutex<Option<String>>,
}

impl Route {
    fn cached(&self) -> Option<String> {
        self.owner.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn set(&self, owner: Option<String>) {
        *self.owner.lock().unwrap_or_else(|e| e.into_inner()) = owner;
    }

    /// The owner now: `Ok(None)` while its lease has lapsed and no node has taken the game yet.
    async fn lookup(&self) -> Result<Option<String>, GameError> {
        if let Some(o) = self.cached() {
            return Ok(Some(o));
        }
        let lease = self.live.inner.store.live_lease(&self.game_id).await?;
        let Some(lease) = lease else { return Err(super::gone(&self.game_id)) };
        if lease.expires_at_ms < crate::time::now_ms() as i64 {
            return Ok(None);
        }
        self.set(Some(lease.node.clone()));
        Ok(Some(lease.node))
    }

    /// Sends `req` to the game's owner and returns its reply, through a takeover if one is under way.
    async fn ask(&self, req: Request) -> Result<Reply, GameError> {
        let started = tokio::time::Instant::now();
        let attempt = Duration::from_millis(self.live.lease_ms() + 1000);
        loop {
            if started.elapsed() > ASK_DEADLINE {
                return Err(GameError::not_saved(
                    format!("game {}", self.game_id),
                    "the node that runs it did not answer in time",
                ));
            }
            let Some(owner) = self.lookup().await? else {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            };
            if owner == self.broker.node() {
                // This node took the game over: its own actor answers.
                match self.live.get(&self.game_id) {
                    Some(h) => return Ok(answer(&h, req).await),
                    None => {
                        self.set(None);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                }
            }
            self.live.inner.metrics.remote_requests.inc();
            match wire::ask(&*self.broker, &owner, &self.game_id, &req, attempt).await {
                Some(Reply::NotHere) | None => {
                    self.set(None);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Some(r) => return Ok(r),
            }
        }
    }

    /// Tells the owner something that needs no answer (a player's connection opened or closed).
    async fn tell(&self, req: Request) {
        let Ok(Some(owner)) = self.lookup().await else { return };
        if owner == self.broker.node() {
            if let Some(h) = self.live.get(&self.game_id) {
                answer(&h, req).await;
            }
            return;
        }
        wire::tell(&*self.broker, &owner, &self.game_id, &req);
    }
}

fn done(r: Result<Reply, GameError>) -> Result<(), GameError> {
    match r? {
        Reply::Done => Ok(()),
        Reply::Refused { error } => Err(GameError::Remote(error)),
        other => Err(unexpected(&other)),
    }
}

fn unexpected(r: &Reply) -> GameError {
    GameError::Store { what: "a reply from another node".into(), detail: format!("unexpected {r:?}") }
}

async fn view(route: &Route) -> Result<Arc<GameView>, GameError> {
    match route.ask(Request::View).await? {
        Reply::View { view } => Ok(Arc::new(*view)),
        Reply::Refused { error } => Err(GameError::Remote(error)),
        other => Err(unexpected(&other)),
    }
}

async fn snapshot(route: &Route) -> Result<Snapshot, GameError> {
    match route.ask(Request::Snapshot).await? {
        Reply::Snapshot { snapshot } => Ok(*snapshot),
        Reply::Refused { error } => Err(GameError::Remote(error)),
        other => Err(unexpected(&other)),
    }
}

/// The frames a follower starts with, and the version they bring it to.
async fn initial(route: &Route, since: Option<u64>) -> Result<(Vec<Arc<str>>, u64), GameError> {
    match route.ask(Request::Subscribe { since }).await? {
        Reply::Initial { frames, version } => Ok((frames.into_iter().map(Arc::from).collect(), version)),
        Reply::Refused { error } => Err(GameError::Remote(error)),
        other => Err(unexpected(&other)),
    }
}

/// Why a move is illegal, from the owner's position (the rules are the same on every node).
async fn explain(
    route: &Route,
    from: &str,
    to: &str,
    promotion: Option<guoxiang_core::Role>,
) -> Result<guoxiang_core::Explanation, GameError> {
    let square = |s: &str| guoxiang_core::Square::parse(s).ok_or_else(|| GameError::BadSquare { text: s.to_owned() });
    let (from, to) = (square(from)?, square(to)?);
    let snap = snapshot(route).await?;
    let mode =
        if matches!(snap.variant, Variant::Chess960 { .. }) { CastlingMode::Chess960 } else { CastlingMode::Auto };
    let position = Position::from_fen_with(&snap.fen, mode, Validation::Relaxed).map_err(|e| GameError::Store {
        what: format!("game {}", route.game_id),
        detail: format!("its position {}: {e}", snap.fen),
    })?;
    Ok(position.explain(from, to, promotion))
}

/// The proxy of a game another node owns: requests out through the broker, the owner's changes in.
async fn run_proxy(
    route: Arc<Route>,
    handle: GameHandle,
    mut rx: mpsc::Receiver<Box<ActorMsg>>,
    mut listener: Listener,
) {
    let (tx, _) = broadcast::channel::<Arc<Update>>(16);
    let mut proxy = Proxy { route, handle, tx, view_interest: Arc::new(()), forwarded: 0 };
    let mut idle_since = tokio::time::Instant::now();
    let mut check = tokio::time::interval(Duration::from_secs(5));
    loop {
        tokio::select! {
            m = rx.recv() => {
                let Some(m) = m else { break };
                idle_since = tokio::time::Instant::now();
                if proxy.request(m).await.is_break() {
                    break;
                }
            }
            heard = hear(&mut listener) => proxy.heard(heard).await,
            _ = check.tick() => {
                if proxy.tx.receiver_count() == 0 && idle_since.elapsed() > IDLE {
                    break;
                }
            }
        }
    }
    proxy.route.live.forget_remote(&proxy.handle);
}

/// What a proxy keeps between its messages.
struct Proxy {
    route: Arc<Route>,
    handle: GameHandle,
    /// This node's followers of the game.
    tx: broadcast::Sender<Arc<Update>>,
    /// Held by the followers that want views (more than one strong count: someone does).
    view_interest: Arc<()>,
    /// The last version this node's followers were sent (0: none yet).
    forwarded: u64,
}

impl Proxy {
    /// A message for the game from this node: asked of the owner in a task of its own (a subscription in the loop);
    /// `Break` ends the proxy.
    async fn request(&mut self, m: Box<ActorMsg>) -> ControlFlow<()> {
        match *m {
            ActorMsg::Request { req: Request::Subscribe { since }, answer: Answer::Subscription { with_view, tx } } => {
                self.subscribe(since, with_view, tx).await;
            }
            ActorMsg::Request { req: req @ Request::Presence { .. }, .. } => {
                let route = self.route.clone();
                tokio::spawn(async move { route.tell(req).await });
            }
            // Any other request goes to the owner as it is; its reply comes back in the asker's form.
            ActorMsg::Request { req, answer } => {
                let route = self.route.clone();
                tokio::spawn(async move { deliver(answer, route.ask(req).await) });
            }
            ActorMsg::Explain { from, to, promotion, reply } => {
                let route = self.route.clone();
                tokio::spawn(async move {
                    let _ = reply.send(explain(&route, &from, &to, promotion).await);
                });
            }
            ActorMsg::EngineMove { .. } => {}
            ActorMsg::Disown => return ControlFlow::Break(()),
            ActorMsg::Shutdown { reply } => {
                let _ = reply.send(());
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// A new follower on this node. In the loop, not in a task: no change is sent to the followers between the
    /// initial frames and the new follower's receiver (later changes may come twice; clients skip versions they
    /// have).
    async fn subscribe(&mut self, since: Option<u64>, with_view: bool, reply: oneshot::Sender<Subscription>) {
        let first = self.tx.receiver_count() == 0;
        let Ok((frames, version)) = initial(&self.route, since).await else { return };
        let view = if with_view { view(&self.route).await.ok() } else { None };
        if first {
            self.forwarded = version;
        }
        let _ = reply.send(Subscription {
            initial: frames,
            version,
            view,
            rx: self.tx.subscribe(),
            _view_interest: with_view.then(|| self.view_interest.clone()),
        });
    }

    /// What the owner published: passed on to this node's followers in order, or a fresh snapshot after a gap.
    async fn heard(&mut self, heard: Heard) {
        if self.tx.receiver_count() == 0 {
            // Nobody here follows the game: nothing to keep in step.
            if let Heard::Update(u) = &heard {
                self.forwarded = u.version;
                if u.over {
                    self.handle.set_over();
                }
            }
            return;
        }
        let wants_view = Arc::strong_count(&self.view_interest) > 1;
        match heard {
            Heard::Update(u) => {
                if u.over {
                    self.handle.set_over();
                }
                if u.version <= self.forwarded {
                    return; // already sent (a snapshot covered it)
                }
                let first = u.events.first().map(|e| e.version);
                if first.is_some_and(|v| v != self.forwarded + 1) {
                    // A change was missed: everyone here starts again from a snapshot.
                    self.forwarded = resync(&self.route, &self.tx, wants_view).await.unwrap_or(self.forwarded);
                    return;
                }
                let view = if wants_view { view(&self.route).await.ok() } else { None };
                let update = Update {
                    events: u.events.clone(),
                    ws_json: Arc::from(u.ws_json.as_str()),
                    clocks_json: u.clocks_json.as_deref().map(Arc::from),
                    view,
                };
                self.forwarded = u.version;
                let _ = self.tx.send(Arc::new(update));
            }
            Heard::Lost => {
                self.forwarded = resync(&self.route, &self.tx, wants_view).await.unwrap_or(self.forwarded);
            }
        }
    }
}

/// Sends every follower a fresh snapshot (as one update without events); returns the version it brings them to.
async fn resync(route: &Route, tx: &broadcast::Sender<Arc<Update>>, wants_view: bool) -> Option<u64> {
    let (frames, version) = initial(route, None).await.ok()?;
    let mut frames = frames.into_iter();
    let ws_json = frames.next()?;
    let view = if wants_view { view(route).await.ok() } else { None };
    let _ = tx.send(Arc::new(Update { events: Vec::new(), ws_json, clocks_json: frames.next(), view }));
    Some(version)
}

/// This node's answer to a request, from its own actor of the game.
async fn answer(h: &GameHandle, req: Request) -> Reply {
    h.answer_wire(req).await
}

/// The owner's reply to a request of this node, in the form its asker wants (nothing sent when there is no good
/// reply: the asker sees the game as gone).
fn deliver(answer: Answer, r: Result<Reply, GameError>) {
    match (answer, r) {
        (Answer::Wire(tx), r) => {
            let _ = tx.send(r.unwrap_or_else(|e| Reply::of_outcome(Err(e))));
        }
        (Answer::View(tx), Ok(Reply::View { view })) => {
            let _ = tx.send(Arc::new(*view));
        }
        (Answer::Snapshot(tx), Ok(Reply::Snapshot { snapshot })) => {
            let _ = tx.send(*snapshot);
        }
        (answer @ Answer::Outcome(_), r) => answer.outcome(done(r)),
        _ => {}
    }
}

/// Answers another node's request for a game this node owns or is asked to create (a task per request: a command
/// waits for its commit, and the others go on meanwhile).
pub fn serve_game_request(live: &Live, cluster: &SharedCluster, incoming: Incoming) {
    let Incoming { from, req_id, family, key: game_id, body } = incoming;
    debug_assert_eq!(family, Family::Game);
    let Some(req) = crate::transport::decode::<Request>(&body) else { return };
    let live = live.clone();
    let cluster = cluster.clone();
    tokio::spawn(async move {
        let reply = match (req, live.get(&game_id)) {
            // The lobby pairs players and asks the node of one of them to create (and own) the game.
            (Request::CreateGame { game }, _) => match live.create_game_as(game_id.clone(), *game).await {
                Ok(id) => Reply::Created { game_id: id },
                Err(e) => Reply::Refused { error: e.to_wire() },
            },
            (_, None) => Reply::NotHere,
            (req, Some(h)) => answer(&h, req).await,
        };
        // Request 0 wants no reply.
        if req_id != 0 {
            cluster.answer(&from, req_id, crate::transport::encode(&reply));
        }
    });
}

/// What a remote game's proxy hears from its owner.
enum Heard {
    Update(Arc<GameUpdate>),
    Lost,
}

/// The next change the owner published (a publication that is not ours is skipped), or a loss.
async fn hear(listener: &mut Listener) -> Heard {
    loop {
        match listener.recv().await {
            crate::transport::Heard::Update(raw) => {
                if let Some(u) = crate::transport::decode::<GameUpdate>(&raw) {
                    return Heard::Update(Arc::new(u));
                }
            }
            crate::transport::Heard::Lost => return Heard::Lost,
        }
    }
}

/// The update an owner publishes for the other nodes.
pub(super) fn wire_update(game_id: &str, update: &Update, version: u64, over: bool) -> GameUpdate {
    GameUpdate {
        game_id: game_id.to_owned(),
        events: update.events.clone(),
        ws_json: update.ws_json.to_string(),
        clocks_json: update.clocks_json.as_deref().map(str::to_owned),
        version,
        over,
    }
}
