//! Live games: one actor (a tokio task) per game owns its [`Game`] and is the only one to change it; the registry
//! finds actors by id, creates games, and restores the live ones after a restart.
//!
//! | module | what lives there |
//! |---|---|
//! | `actor` | the per-game task: commands, timers, persistence before acknowledgement, broadcasting |
//! | `persist` | the group-commit writer all games share |
//! | `directory` | the game directory: a game's handle wherever it runs (this node's actor, or a proxy) |
//! | `remote` | the proxy of a game another node owns, and the owner's answers to the other nodes |
//! | `wire` | a game's messages between nodes: one request, its reply, the owner's updates |
//! | `cluster` | leases: a game's owner, renewal and takeover, the fence of every write; [`cluster::LeaseKeeper`] for the lobby's lease |
//! | `engine` | the computer opponents' pool (`engine::opponents`) and the analysis pool (`engine::analysis`) |
//! | `finish` | what happens when a game ends: ratings and points |
//! | `view` | [`GameView`], a game's public state as the HTTP APIs show it |
//! | `services` | [`Services`]: the narrow interfaces the actors work through (notifications, game creation, ratings, the aftermath of a game, who arbitrates) |
//! | `error` | [`GameError`], why a live game refused a request (the transports map it to their errors) |

mod actor;
pub mod cluster;
mod directory;
pub mod engine;
mod error;
mod finish;
pub mod persist;
mod remote;
pub mod services;
mod view;
pub mod wire;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use guoxiang_core::Color;
use guoxiang_game::{
    Action, Game, GameConfig, GameSetup, PlayerRef, Snapshot, Source, TimeControl, Variant, VersionedEvent,
};
use guoxiang_protocol::{ColorChoice, LiveGame};
use guoxiang_store::{GameRow, Store, WriteOp};
use tokio::sync::{broadcast, mpsc, oneshot};

pub use error::GameError;
pub use remote::{ASK_DEADLINE, serve_game_request};
pub use services::{NewGame, Services};
pub use view::{GameView, game_row_view};

use crate::events::{Notifier, UserEvent};
use engine::EnginePool;
use persist::Persist;

/// One change of a game as broadcast to its followers: the events, the same as a ready-made WebSocket frame, and
/// the state after them — the whole [`GameView`] (every move) only while a follower asked for views (the Lichess
/// game streams), so that the common case costs nothing that grows with the game.
#[derive(Debug)]
pub struct Update {
    pub events: Vec<VersionedEvent>,
    /// `game_events` as JSON.
    pub ws_json: Arc<str>,
    /// `clocks` as JSON, when the game has clocks.
    pub clocks_json: Option<Arc<str>>,
    pub view: Option<Arc<GameView>>,
}

/// What a new follower gets: the frames to send first (a snapshot or the missed events, then the clocks), the
/// state, and the stream of what follows.
#[derive(Debug)]
pub struct Subscription {
    pub initial: Vec<Arc<str>>,
    /// The game's version the initial frames bring the follower to.
    pub version: u64,
    /// The state now, and in every [`Update`] while this subscription lives (`None` without `with_view`).
    pub view: Option<Arc<GameView>>,
    pub rx: broadcast::Receiver<Arc<Update>>,
    /// Held while the follower wants views; the actor counts the holders.
    pub(crate) _view_interest: Option<Arc<()>>,
}

pub(crate) enum ActorMsg {
    /// A request anyone may make of the game — this node's transports through the game's handle, or another node
    /// through the cluster's transport: the one serializable [`wire::Request`], with where its answer goes.
    Request {
        req: wire::Request,
        answer: Answer,
    },
    /// Why a move is or is not legal (computed by whoever holds the game; not asked across nodes).
    Explain {
        from: String,
        to: String,
        promotion: Option<guoxiang_core::Role>,
        reply: oneshot::Sender<Result<guoxiang_core::Explanation, GameError>>,
    },
    /// The computer's move, from the engine pool.
    EngineMove {
        version: u64,
        uci: Option<String>,
    },
    /// Another node owns the game now: stop without writing anything.
    Disown,
    Shutdown {
        reply: oneshot::Sender<()>,
    },
}

/// Where the answer to a [`wire::Request`] goes: to an asker on this node in its own form, or to another node as a
/// [`wire::Reply`]. The handle pairs each request with its form; an answer of the wrong form is dropped (the asker
/// sees the game as gone).
pub(crate) enum Answer {
    /// Done or refused (a command, an arbiter's act).
    Outcome(oneshot::Sender<Result<(), GameError>>),
    /// A follower on this node: its first frames and the stream of what follows.
    Subscription {
        with_view: bool,
        tx: oneshot::Sender<Subscription>,
    },
    View(oneshot::Sender<Arc<GameView>>),
    Snapshot(oneshot::Sender<Snapshot>),
    /// Another node asked: the reply it is sent.
    Wire(oneshot::Sender<wire::Reply>),
    /// Nobody waits (presence).
    Nobody,
}

impl Answer {
    // Every `send` below fails only when the asker stopped waiting (a closed connection): nothing to do.

    /// A request that is done or refused.
    pub(crate) fn outcome(self, r: Result<(), GameError>) {
        match self {
            Answer::Outcome(tx) => {
                let _ = tx.send(r);
            }
            Answer::Wire(tx) => {
                let _ = tx.send(wire::Reply::of_outcome(r));
            }
            _ => {}
        }
    }

    /// A subscription: the follower's, or its first frames for another node.
    pub(crate) fn subscription(self, s: Subscription) {
        match self {
            Answer::Subscription { tx, .. } => {
                let _ = tx.send(s);
            }
            Answer::Wire(tx) => {
                let frames = s.initial.iter().map(|f| f.to_string()).collect();
                let _ = tx.send(wire::Reply::Initial { frames, version: s.version });
            }
            _ => {}
        }
    }

    pub(crate) fn view(self, v: Arc<GameView>) {
        match self {
            Answer::View(tx) => {
                let _ = tx.send(v);
            }
            Answer::Wire(tx) => {
                let _ = tx.send(wire::Reply::View { view: Box::new((*v).clone()) });
            }
            _ => {}
        }
    }

    pub(crate) fn snapshot(self, s: Snapshot) {
        match self {
            Answer::Snapshot(tx) => {
                let _ = tx.send(s);
            }
            Answer::Wire(tx) => {
                let _ = tx.send(wire::Reply::Snapshot { snapshot: Box::new(s) });
            }
            _ => {}
        }
    }

    /// Whether a subscriber wants every update to carry the whole view.
    pub(crate) fn with_view(&self) -> bool {
        matches!(self, Answer::Subscription { with_view: true, .. })
    }
}

/// A handle on a live game's actor (cheap to clone).
#[derive(Clone, Debug)]
pub struct GameHandle(Arc<HandleData>);

/// What a handle knows without asking the actor.
#[derive(Debug)]
pub struct HandleData {
    /// Messages are boxed: a channel's first block of slots is allocated with it, so an idle game holds 32 slots
    /// of a pointer rather than of the largest message.
    tx: mpsc::Sender<Box<ActorMsg>>,
    pub id: String,
    pub white: PlayerRef,
    pub black: PlayerRef,
    pub rated: bool,
    pub time_control: String,
    /// Set by the actor when the game is over (it stays in memory a while for rematches).
    over: std::sync::atomic::AtomicBool,
}

impl std::ops::Deref for GameHandle {
    type Target = HandleData;

    fn deref(&self) -> &HandleData {
        &self.0
    }
}

impl HandleData {
    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.over.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub(crate) fn set_over(&self) {
        self.over.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The colour `user_id` plays, if any.
    pub fn color_of(&self, user_id: &str) -> Option<Color> {
        if self.white.id == user_id {
            Some(Color::White)
        } else if self.black.id == user_id {
            Some(Color::Black)
        } else {
            None
        }
    }

    async fn ask<T>(&self, msg: impl FnOnce(oneshot::Sender<T>) -> ActorMsg) -> Result<T, GameError> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Box::new(msg(reply))).await.map_err(|_| gone(&self.id))?;
        rx.await.map_err(|_| gone(&self.id))
    }

    /// Sends `req` to the game, its answer in the form `answer` makes.
    async fn request<T>(
        &self,
        req: wire::Request,
        answer: impl FnOnce(oneshot::Sender<T>) -> Answer,
    ) -> Result<T, GameError> {
        self.ask(|tx| ActorMsg::Request { req, answer: answer(tx) }).await
    }

    /// Carries out a player's command; returns once it is durable (or refused).
    pub async fn command(&self, user_id: &str, action: Action, lag_ms: u64) -> Result<(), GameError> {
        self.request(wire::Request::Command { user_id: user_id.to_owned(), action, lag_ms }, Answer::Outcome).await?
    }

    /// Carries out an arbiter's act (the caller has checked with [`services::Arbiters`]; see
    /// [`Live::arbiter_command`]); returns once it is durable (or refused).
    pub async fn arbiter(
        &self,
        arbiter: guoxiang_game::ArbiterRef,
        act: guoxiang_game::ArbiterAct,
    ) -> Result<(), GameError> {
        self.request(wire::Request::Arbiter { arbiter, act }, Answer::Outcome).await?
    }

    /// Follows the game from `since` (a version the follower has) or from scratch; with `with_view`, every update
    /// carries the whole [`GameView`].
    pub async fn subscribe(&self, since: Option<u64>, with_view: bool) -> Result<Subscription, GameError> {
        self.request(wire::Request::Subscribe { since }, |tx| Answer::Subscription { with_view, tx }).await
    }

    /// Reports a connection of a player opening or closing (for disconnection claims).
    pub async fn presence(&self, user_id: &str, delta: i32) {
        let req = wire::Request::Presence { user_id: user_id.to_owned(), delta };
        // An actor that is gone has a finished game, which has nothing to say about presence.
        let _ = self.tx.send(Box::new(ActorMsg::Request { req, answer: Answer::Nobody })).await;
    }

    /// Another node's request, answered as the reply it is sent (`not_here` when the game is not here any more).
    pub(crate) async fn answer_wire(&self, req: wire::Request) -> wire::Reply {
        self.request(req, Answer::Wire).await.unwrap_or(wire::Reply::NotHere)
    }

    pub async fn explain(
        &self,
        from: String,
        to: String,
        promotion: Option<guoxiang_core::Role>,
    ) -> Result<guoxiang_core::Explanation, GameError> {
        self.ask(|reply| ActorMsg::Explain { from, to, promotion, reply }).await?
    }

    pub async fn view(&self) -> Result<Arc<GameView>, GameError> {
        self.request(wire::Request::View, Answer::View).await
    }

    pub async fn snapshot(&self) -> Result<Snapshot, GameError> {
        self.request(wire::Request::Snapshot, Answer::Snapshot).await
    }
}

fn gone(id: &str) -> GameError {
    GameError::Gone { game_id: id.to_owned() }
}

/// The registry of live games, and what their actors share.
#[derive(Clone, Debug)]
pub struct Live {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    games: Mutex<HashMap<String, GameHandle>>,
    store: Store,
    persist: Persist,
    engines: EnginePool,
    /// What the actors ask of the rest of the server (notifications, game creation, ratings, the aftermath).
    services: Services,
    /// What each game in progress shows in the live list, published by its actor on every change (the list never
    /// asks the actors).
    summaries: Mutex<HashMap<String, (u64, LiveGame)>>,
    timeouts: Timeouts,
    /// Every game that ends, once its result is committed (the reviewer listens).
    finished: broadcast::Sender<FinishedGame>,
    /// This node's membership of a cluster (`None`: the only node).
    cluster: Option<cluster::ClusterConfig>,
    /// In a cluster: the epoch of the lease of each game this node runs.
    epochs: Mutex<HashMap<String, i64>>,
    metrics: crate::metrics::SharedMetrics,
    /// The broker between the nodes (`None`: clients must reach the node that runs their game).
    broker: Option<crate::transport::SharedCluster>,
    /// Proxies of the games other nodes own that this node's clients asked for (`remote`).
    remotes: Mutex<HashMap<String, GameHandle>>,
    /// With a broker: the keeper of the lobby's lease (this node runs the cluster's lobby while it holds it).
    lobby_lease: Option<cluster::LeaseKeeper>,
}

/// A game whose result was just committed.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    pub game_id: String,
    /// The players, White first.
    pub players: [PlayerRef; 2],
}

/// The server's game policy.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// How long a finished game stays in memory (rematch offers), ms.
    pub linger_ms: u64,
    /// Overrides of `GameConfig`'s first-move and disconnection timeouts.
    pub first_move_ms: Option<u64>,
    pub disconnect_ms: Option<u64>,
    /// The computer's least reply time at the lower levels, ms (`Config::computer_reply_ms`).
    pub computer_reply_ms: u64,
    /// Rated games between a bot account and a person (`Config::rated_bot_games`).
    pub rated_bot_games: bool,
}

/// The computer levels that take their time like a person (`Config::computer_reply_ms`); above them it answers
/// as soon as its search is done.
pub const HUMAN_PACE_LEVELS: u8 = 5;

/// How long the computer at `level` takes at least for a reply, with `remaining_ms` on its clock (`None`: no
/// clock): the configured pace at the lower levels, but never more than a thirtieth of the time left.
pub fn computer_pace_ms(configured: u64, level: u8, remaining_ms: Option<u64>) -> u64 {
    if level > HUMAN_PACE_LEVELS {
        return 0;
    }
    remaining_ms.map_or(configured, |r| configured.min(r / 30))
}

/// Events a live game keeps for clients that reconnect (about six moves with their clocks; a client that missed
/// more gets a snapshot). Every kept event is memory of a live game: about 280 bytes with its strings.
pub const EVENT_LOG_LEN: usize = 12;

/// Games in progress one user may have (correspondence included).
pub const MAX_GAMES_PER_USER: usize = 50;

/// Games against the computer in progress one user may have.
pub const MAX_COMPUTER_GAMES_PER_USER: usize = 3;

/// A new game id: 8 characters of [a-zA-Z0-9], as lichess.
pub fn new_game_id() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut rng = rand::rng();
    (0..8).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect()
}

/// The start a player asked for, as the game's variant: a random Chess960 position is drawn here.
pub fn start_of(choice: guoxiang_protocol::StartChoice) -> Result<Variant, GameError> {
    choice.variant(|| rand::random_range(0..960u16)).map_err(|number| GameError::NoSuchChess960 { number })
}

/// Reads a time control tag, with a clear error.
pub fn parse_time_control(tc: &str) -> Result<TimeControl, GameError> {
    if tc.len() > 64 {
        return Err(GameError::TimeControlTooLong);
    }
    TimeControl::from_pgn(tc).map_err(|e| GameError::BadTimeControl { text: tc.to_owned(), problem: e.to_string() })
}

/// The engine's player reference for a level.
pub fn engine_player(level: u8) -> PlayerRef {
    let l = guoxiang_engine::levels::level(level).unwrap_or(&guoxiang_engine::LEVELS[0]);
    PlayerRef {
        id: format!("engine-{level}"),
        name: format!("guoxiang {} ({})", l.number, l.name_en),
        is_engine: true,
        engine_level: Some(level),
    }
}

impl Live {
    /// The registry; `cluster`: this node's membership of a cluster and its broker, if any; `arbiters`: who may
    /// arbitrate a game (e.g. [`services::AdminArbiters`]).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: Store,
        persist: Persist,
        notifier: Arc<dyn Notifier>,
        engines: EnginePool,
        timeouts: Timeouts,
        cluster: Option<(cluster::ClusterConfig, Option<crate::transport::SharedCluster>)>,
        metrics: crate::metrics::SharedMetrics,
        arbiters: Arc<dyn services::Arbiters>,
    ) -> Live {
        let finished = broadcast::channel(256).0;
        let (cluster, broker) = match cluster {
            Some((c, b)) => (Some(c), b),
            None => (None, None),
        };
        let lobby_lease = match (&cluster, &broker) {
            (Some(c), Some(_)) => Some(cluster::LeaseKeeper::new(store.clone(), cluster::LOBBY_LEASE, c.node.clone())),
            _ => None,
        };
        let inner = Arc::new_cyclic(|me| Inner {
            games: Mutex::new(HashMap::new()),
            services: Services {
                notifier,
                games: Arc::new(services::LocalCreator(me.clone())),
                ratings: Arc::new(services::StoreRatings::new(store.clone())),
                aftermath: Arc::new(services::LocalAftermath { store: store.clone(), finished: finished.clone() }),
                arbiters,
            },
            store,
            persist,
            engines,
            summaries: Mutex::new(HashMap::new()),
            timeouts,
            finished,
            cluster,
            epochs: Mutex::new(HashMap::new()),
            metrics,
            broker,
            remotes: Mutex::new(HashMap::new()),
            lobby_lease,
        });
        Live { inner }
    }

    /// Games as they end (a receiver that falls more than 256 games behind misses some: `Lagged`).
    pub fn finished_games(&self) -> broadcast::Receiver<FinishedGame> {
        self.inner.finished.subscribe()
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// What the actors ask of the rest of the server.
    pub fn services(&self) -> &Services {
        &self.inner.services
    }

    /// How the live games (and the services above them) tell users.
    pub fn notifier(&self) -> &Arc<dyn Notifier> {
        &self.inner.services.notifier
    }

    /// The broker between the nodes, in a cluster that has one.
    pub fn broker(&self) -> Option<&crate::transport::SharedCluster> {
        self.inner.broker.as_ref()
    }

    /// The live game `id`, if it is in memory.
    pub fn get(&self, id: &str) -> Option<GameHandle> {
        self.inner.games.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    /// Whether `user_id` is an arbiter of the live game `game` (asks [`Services::arbiters`]).
    pub async fn is_arbiter(&self, user_id: &str, game: &GameHandle) -> Result<bool, GameError> {
        self.inner.services.arbiters.is_arbiter(user_id, game).await
    }

    /// An arbiter's act in the live game `game_id` by the user `user` (id, name): refused with
    /// [`GameError::OwnGame`] from one of its players (whatever their powers elsewhere), and with
    /// [`GameError::NotArbiter`] unless [`Services::arbiters`] counts the user as an arbiter of that game.
    pub async fn arbiter_command(
        &self,
        user: &PlayerRef,
        game_id: &str,
        act: guoxiang_game::ArbiterAct,
    ) -> Result<(), GameError> {
        let g = self.locate(game_id).await?;
        if g.color_of(&user.id).is_some() {
            return Err(GameError::OwnGame);
        }
        if !self.is_arbiter(&user.id, &g).await? {
            return Err(GameError::NotArbiter);
        }
        g.arbiter(guoxiang_game::ArbiterRef::new(user.id.clone(), user.name.clone()), act).await
    }

    /// The live game `id`, or [`GameError::Gone`] (a 404).
    pub fn require(&self, id: &str) -> Result<GameHandle, GameError> {
        self.get(id).ok_or_else(|| gone(id))
    }

    /// Every game in memory.
    pub fn all(&self) -> Vec<GameHandle> {
        self.inner.games.lock().unwrap_or_else(|e| e.into_inner()).values().cloned().collect()
    }

    /// The games `user_id` is playing now (not those that ended a moment ago and wait for a rematch).
    pub fn games_of(&self, user_id: &str) -> Vec<GameHandle> {
        let games = self.inner.games.lock().unwrap_or_else(|e| e.into_inner());
        games.values().filter(|g| !g.is_over() && g.color_of(user_id).is_some()).cloned().collect()
    }

    fn register(&self, h: GameHandle) {
        self.inner.games.lock().unwrap_or_else(|e| e.into_inner()).insert(h.id.clone(), h);
    }

    fn unregister(&self, id: &str) {
        self.inner.games.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
        self.publish(id, None);
    }

    /// A game's entry in the live list (`None`: not in it), with its creation time for the order.
    pub(crate) fn publish(&self, id: &str, summary: Option<(u64, LiveGame)>) {
        let mut s = self.inner.summaries.lock().unwrap_or_else(|e| e.into_inner());
        match summary {
            Some(x) => {
                s.insert(id.to_owned(), x);
            }
            None => {
                s.remove(id);
            }
        }
    }

    /// Up to `n` games being played now on this node, for spectators (newest first, with their creation times),
    /// from what the actors published.
    pub fn live_games_here(&self, n: usize) -> Vec<(u64, LiveGame)> {
        let s = self.inner.summaries.lock().unwrap_or_else(|e| e.into_inner());
        newest(s.values().cloned().collect(), n)
    }

    /// Up to `n` games being played now, for spectators (newest first): in a cluster with a broker, on every node
    /// (each node puts its own list in the broker at every scan, `Live::cluster_scan`); else on this one.
    pub async fn live_games(&self, n: usize) -> Vec<LiveGame> {
        let everywhere = match self.broker() {
            Some(b) => match b.live_games(crate::time::now_ms()).await {
                Ok(games) => Some(games),
                Err(e) => {
                    tracing::warn!("live games: the broker did not answer ({e}); this node's only");
                    None
                }
            },
            None => None,
        };
        let mut games = everywhere.unwrap_or_default();
        // This node's own list as it is now (the broker's copy is up to a scan old).
        let here = self.live_games_here(n);
        games.retain(|(_, g)| !here.iter().any(|(_, h)| h.game_id == g.game_id));
        games.extend(here);
        newest(games, n).into_iter().map(|(_, g)| g).collect()
    }

    /// Starts a game against the computer at `level` (1..=10), casual, from the start or a set-up position.
    pub async fn play_computer(
        &self,
        player: PlayerRef,
        level: u8,
        color: ColorChoice,
        time_control: &str,
        variant: Variant,
        rules: guoxiang_game::Rules,
    ) -> Result<String, GameError> {
        if guoxiang_engine::levels::level(level).is_none() {
            return Err(GameError::BadLevel { level });
        }
        let tc = parse_time_control(time_control)?;
        // A set-up start (the Learn course's play steps): an unreadable FEN is `bad_fen`, a finished position
        // `bad_setup` (from creating the game).
        variant.start_position().map_err(|error| GameError::BadStart { fen_unreadable: true, error })?;
        let engine = engine_player(level);
        let human_white = match color {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            ColorChoice::Random => rand::random::<bool>(),
        };
        let (white, black) = if human_white { (player, engine) } else { (engine, player) };
        self.create_game(NewGame { white, black, rated: false, time_control: tc, variant, source: Source::Ai, rules })
            .await
    }

    /// The ratings of a new game's players in its speed (the default for one who has not played it), `None` for the
    /// computer, guests, and controls without a rating.
    async fn start_ratings(&self, game: &Game) -> Result<[Option<i64>; 2], GameError> {
        let Some(speed) = guoxiang_ratings::RatingSpeed::of(game.time_control().speed()) else {
            return Ok([None, None]);
        };
        let store = &self.inner.store;
        let mut out = [None, None];
        for (slot, p) in out.iter_mut().zip([game.white(), game.black()]) {
            if p.is_engine || store.user(&p.id).await?.is_none_or(|u| u.is_guest) {
                continue;
            }
            let row = store.ratings(&p.id).await?.into_iter().find(|r| r.speed == speed.as_str());
            let rating = row.map_or(guoxiang_ratings::Glicko::default().rating, |r| r.rating);
            *slot = Some(rating.round() as i64);
        }
        Ok(out)
    }

    /// Creates and starts a game, durably, and tells both players (`game_started`). Rated games need two
    /// registered humans and a time control with a rating category ([`crate::policy`]).
    pub async fn create_game(&self, game: NewGame) -> Result<String, GameError> {
        self.create_game_as(new_game_id(), game).await
    }

    /// [`Live::create_game`] with the game's id given: a game from an accepted challenge takes the challenge's id,
    /// as on Lichess (lichess-bot counts a game under its challenge's id and frees it under the game's).
    pub async fn create_game_as(&self, id: String, game: NewGame) -> Result<String, GameError> {
        self.create_game_with_first_move(id, game, None).await
    }

    /// [`Live::create_game_as`] with the time to make the first move given (a tournament's first-move grace);
    /// `None`: the server's.
    pub async fn create_game_with_first_move(
        &self,
        id: String,
        game: NewGame,
        first_move_ms: Option<u64>,
    ) -> Result<String, GameError> {
        let NewGame { white, black, rated, time_control, variant, source, rules } = game;
        for p in [&white, &black].into_iter().filter(|p| !p.is_engine) {
            // On this node; with a broker, on every node (from the database).
            let (n, computer_games) = if self.inner.broker.is_some() {
                let games = self.inner.store.live_games_of(&p.id).await?;
                (games.len(), games.iter().filter(|(_, computer)| *computer).count())
            } else {
                let games = self.games_of(&p.id);
                (games.len(), games.iter().filter(|g| g.white.is_engine || g.black.is_engine).count())
            };
            let against_computer = white.is_engine || black.is_engine;
            if n >= MAX_GAMES_PER_USER || (against_computer && computer_games >= MAX_COMPUTER_GAMES_PER_USER) {
                let all = n >= MAX_GAMES_PER_USER;
                let limit = if all { MAX_GAMES_PER_USER } else { MAX_COMPUTER_GAMES_PER_USER };
                return Err(GameError::TooManyGames { name: p.name.clone(), limit, computer: !all });
            }
        }
        // The last gate for every path to a rated game (challenges, seeks, pools, rematches, the APIs).
        crate::policy::check_variant(rated, &variant)?;
        let store = &self.inner.store;
        let bots = self.inner.timeouts.rated_bot_games;
        crate::policy::check_game(rated, &time_control, [&white, &black], bots, |id| async move {
            let user = store.user(&id).await?;
            Ok::<_, GameError>(crate::policy::AccountKind {
                guest: user.as_ref().is_none_or(|u| u.is_guest),
                bot: user.is_some_and(|u| u.is_bot),
            })
        })
        .await?;
        let mut config = GameConfig::for_time_control(&time_control).with_rules(rules);
        // A reconnecting client that missed more than this many events resyncs from a snapshot; every kept event is
        // memory of a live game.
        config.event_log_len = EVENT_LOG_LEN;
        if let Some(ms) = first_move_ms.or(self.inner.timeouts.first_move_ms)
            && !matches!(time_control, TimeControl::Correspondence(_) | TimeControl::Unlimited)
        {
            config.first_move_timeout_ms = ms;
        }
        if let Some(ms) = self.inner.timeouts.disconnect_ms {
            config.disconnect_timeout_ms = ms;
        }
        let setup = GameSetup { id: id.clone(), white, black, rated, config, time_control, variant, source };
        let now = crate::time::now();
        let game = Game::new(setup, now).map_err(|error| GameError::BadStart { fen_unreadable: false, error })?;
        let mut row = actor::game_row(&game, now);
        // Every game keeps its players' ratings at its start, rated or not (Lichess exports them for casual games
        // too); a rated game's are set again with its result.
        [row.white_rating, row.black_rating] = self.start_ratings(&game).await?;
        // In a cluster the node that creates a game owns it first: its lease comes before the game's first write.
        if let Some(c) = &self.inner.cluster {
            let epoch = self
                .inner
                .store
                .acquire_lease(&id, &c.node, crate::time::now_ms() as i64, c.lease_ms as i64)
                .await?
                .ok_or_else(|| GameError::Store {
                    what: "insert game".into(),
                    detail: format!("the id {id} is held by another node"),
                })?;
            self.set_epoch(&id, epoch);
        }
        if let Err(e) = self.write_game(&id, vec![WriteOp::InsertGame(row)]).await {
            self.let_go(&id, true).await;
            return Err(GameError::Store { what: "insert game".into(), detail: e.to_string() });
        }
        let white_id = game.white().id.clone();
        let black_id = game.black().id.clone();
        self.spawn(game);
        self.notifier().notify(&white_id, UserEvent::GameStarted { game_id: id.clone(), color: Color::White });
        self.notifier().notify(&black_id, UserEvent::GameStarted { game_id: id.clone(), color: Color::Black });
        Ok(id)
    }

    fn spawn(&self, game: Game) {
        let (tx, rx) = mpsc::channel(256);
        let handle = GameHandle(Arc::new(HandleData {
            tx,
            id: game.id().to_owned(),
            white: game.white().clone(),
            black: game.black().clone(),
            rated: game.rated(),
            time_control: game.time_control().to_pgn(),
            over: std::sync::atomic::AtomicBool::new(game.is_over()),
        }));
        self.register(handle.clone());
        let live = self.clone();
        tokio::spawn(actor::run(live, handle, game, rx));
    }

    /// Resumes every live game from the database (after a restart or a crash). Returns how many.
    pub async fn restore_all(&self) -> Result<usize, GameError> {
        if self.inner.cluster.is_some() {
            // In a cluster a node resumes only the games no node holds (the others are running elsewhere).
            return self
                .cluster_scan()
                .await
                .map_err(|detail| GameError::Store { what: "take over games".into(), detail });
        }
        let rows = self.inner.store.live_games().await?;
        let now = crate::time::now();
        let mut n = 0;
        for (row, moves) in rows {
            match actor::restore(&row, &moves, now) {
                Ok(game) => {
                    self.spawn(game);
                    n += 1;
                }
                Err(e) => tracing::error!("game {} cannot be restored: {e}", row.id),
            }
        }
        Ok(n)
    }

    /// Stops every actor after persisting its state (clean shutdown: the clocks of live games stop).
    pub async fn shutdown(&self) {
        self.let_go_of_lobby().await;
        if let (Some(b), Some(node)) = (self.broker(), self.node())
            && let Err(e) = b.drop_live_games(node).await
        {
            tracing::warn!("live games: this node's list stays in the broker until it lapses ({e})");
        }
        for h in self.all() {
            let (reply, rx) = oneshot::channel();
            if h.tx.send(Box::new(ActorMsg::Shutdown { reply })).await.is_ok() {
                // An actor that ended meanwhile has nothing left to persist.
                let _ = rx.await;
            }
        }
    }

    /// The archived or live game `id` from the database, as a view.
    pub async fn stored(&self, id: &str) -> Result<Option<(GameRow, Vec<guoxiang_store::MoveRow>)>, GameError> {
        Ok(self.inner.store.game(id).await?)
    }
}

/// Rebuilds a stored game (live or finished) as a [`Game`], e.g. for its PGN.
pub fn restore_game(row: &GameRow, moves: &[guoxiang_store::MoveRow]) -> Result<Game, String> {
    actor::restore(row, moves, crate::time::now())
}

/// The `n` newest games (by creation time, then id), each once.
fn newest(mut games: Vec<(u64, LiveGame)>, n: usize) -> Vec<(u64, LiveGame)> {
    games.sort_by(|(a, x), (b, y)| b.cmp(a).then_with(|| x.game_id.cmp(&y.game_id)));
    games.dedup_by(|a, b| a.1.game_id == b.1.game_id);
    games.truncate(n);
    games
}
