// SPDX-License-Identifier: GPL-3.0-or-later
//! The lobby of a cluster (issue 19): one node at a time runs it, by a lease in the database like a game's
//! ([`LOBBY_LEASE`], taken and renewed by `live::cluster`); every other node sends it its requests through the broker
//! ([`LobbyOp`]) and passes its changes on to its own lobby followers (`gx:lobby`). So a seek posted on one node is
//! accepted from another, two players on different nodes are paired by a pool, and a challenge link opens on any
//! node. The games it starts are created on the node of one of their players (`Live::create_game_on`) and played
//! from anywhere (`live::remote`).
//!
//! Like everything of the lobby, seeks, pool entries and challenges are memory: when the node that runs the lobby
//! dies, another takes its lease and starts with an empty lobby (the seeks and pool entries of the connections that
//! are still open are posted again by nobody: the players see them gone and post again).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use guoxiang_game::{PlayerRef, Variant};
use guoxiang_protocol::{ColorChoice, PoolSize, Seek, StartChoice};
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use super::{ChallengeInfo, ChallengeTerms, LobbyError, LocalLobby, SeekTerms};
use crate::live::cluster::LOBBY_LEASE;
use crate::live::wire::WireError;
use crate::live::{GameError, Live};
use crate::policy::Entrant;
use crate::transport::{Body, Family, Incoming, SharedCluster, decode, encode};

/// How long a lobby request may wait in all for the node that runs the lobby (a takeover under way).
const ASK_DEADLINE: Duration = Duration::from_secs(20);

/// A request for the node that runs the lobby.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum LobbyOp {
    CreateChallenge {
        challenger: PlayerRef,
        guest: bool,
        dest: Option<String>,
        time_control: String,
        rated: bool,
        color: ColorChoice,
        variant: Variant,
        rules: guoxiang_game::Rules,
    },
    Challenge {
        id: String,
    },
    ChallengesOf {
        user_id: String,
    },
    AcceptChallenge {
        id: String,
        by: PlayerRef,
        guest: bool,
    },
    CloseChallenge {
        id: String,
        by_user: String,
        reason: Option<String>,
    },
    CreateSeek {
        owner: PlayerRef,
        guest: bool,
        conn: u64,
        time_control: String,
        rated: bool,
        color: ColorChoice,
        variant: StartChoice,
        rating: Option<u32>,
    },
    CancelSeek {
        seek_id: String,
        user_id: String,
    },
    AcceptSeek {
        seek_id: String,
        by: PlayerRef,
        guest: bool,
    },
    JoinPool {
        player: PlayerRef,
        guest: bool,
        conn: u64,
        time_control: String,
        rated: bool,
    },
    LeavePool {
        user_id: String,
    },
    ConnectionClosed {
        conn: u64,
    },
    Seeks,
    Pools,
}

/// The lobby's answer to a [`LobbyOp`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum LobbyAnswer {
    Done,
    Refused(WireError),
    Challenge(Box<ChallengeInfo>),
    MaybeChallenge(Option<Box<ChallengeInfo>>),
    Challenges { incoming: Vec<ChallengeInfo>, outgoing: Vec<ChallengeInfo> },
    GameId(String),
    MaybeGameId(Option<String>),
    Seek(Box<Seek>),
    Seeks(Vec<Seek>),
    Pools(Vec<PoolSize>),
}

fn refused(e: LobbyError) -> LobbyAnswer {
    let api = crate::error::Error::from(e);
    LobbyAnswer::Refused(WireError { kind: api.kind, code: api.code.to_owned(), zh: api.zh, en: api.en })
}

/// Carries out `op` on this node's lobby; a game it starts is created on the node `origin` (the one whose player
/// asked; this node's when `None`), so that the lobby's games spread over the cluster.
pub async fn answer(lobby: &LocalLobby, op: LobbyOp, origin: Option<&str>) -> LobbyAnswer {
    use LobbyAnswer as A;
    let done = |r: Result<(), LobbyError>| r.map_or_else(refused, |()| A::Done);
    match op {
        LobbyOp::CreateChallenge { challenger, guest, dest, time_control, rated, color, variant, rules } => {
            let terms = ChallengeTerms { time_control: &time_control, rated, color, variant, rules };
            lobby
                .create_challenge(Entrant { player: challenger, guest }, dest, terms)
                .map_or_else(refused, |c| A::Challenge(Box::new(c)))
        }
        LobbyOp::Challenge { id } => A::MaybeChallenge(lobby.challenge(&id).map(Box::new)),
        LobbyOp::ChallengesOf { user_id } => {
            let (incoming, outgoing) = lobby.challenges_of(&user_id);
            A::Challenges { incoming, outgoing }
        }
        LobbyOp::AcceptChallenge { id, by, guest } => {
            lobby.accept_challenge(&id, by, guest, origin).await.map_or_else(refused, A::GameId)
        }
        LobbyOp::CloseChallenge { id, by_user, reason } => done(lobby.close_challenge(&id, &by_user, reason)),
        LobbyOp::CreateSeek { owner, guest, conn, time_control, rated, color, variant, rating } => {
            let terms = SeekTerms { time_control: &time_control, rated, color, variant };
            lobby
                .create_seek(Entrant { player: owner, guest }, conn, terms, rating)
                .map_or_else(refused, |s| A::Seek(Box::new(s)))
        }
        LobbyOp::CancelSeek { seek_id, user_id } => done(lobby.cancel_seek(&seek_id, &user_id)),
        LobbyOp::AcceptSeek { seek_id, by, guest } => {
            lobby.accept_seek(&seek_id, by, guest, origin).await.map_or_else(refused, A::GameId)
        }
        LobbyOp::JoinPool { player, guest, conn, time_control, rated } => lobby
            .join_pool(player, guest, conn, &time_control, rated, origin)
            .await
            .map_or_else(refused, A::MaybeGameId),
        LobbyOp::LeavePool { user_id } => {
            lobby.leave_pool(&user_id);
            A::Done
        }
        LobbyOp::ConnectionClosed { conn } => {
            lobby.connection_closed(conn);
            A::Done
        }
        LobbyOp::Seeks => A::Seeks(lobby.seeks()),
        LobbyOp::Pools => A::Pools(lobby.pools()),
    }
}

/// The lobby as the server calls it: this node's, or the cluster's on the node that runs it.
#[derive(Clone, Debug)]
pub struct Lobby {
    local: LocalLobby,
    live: Live,
    /// Lobby updates for this node's `lobby_subscribe`d, as JSON frames (this node's changes, or those the node that
    /// runs the lobby published).
    pub updates: broadcast::Sender<Arc<str>>,
    /// The lobby lease's epoch this node's lobby was last run at (a new epoch starts from an empty lobby).
    served: Arc<Mutex<Option<i64>>>,
}

fn unexpected(a: &LobbyAnswer) -> LobbyError {
    LobbyError::Game(GameError::Store { what: "the lobby's answer".into(), detail: format!("unexpected {a:?}") })
}

fn remote(e: WireError) -> LobbyError {
    LobbyError::Game(GameError::Remote(e))
}

impl Lobby {
    pub fn new(live: Live, base_url: String) -> Lobby {
        let local = LocalLobby::new(live.clone(), base_url);
        let updates = local.updates.clone();
        Lobby { local, live, updates, served: Arc::default() }
    }

    /// This node's lobby (answering the other nodes' requests when it runs the cluster's).
    pub fn local(&self) -> &LocalLobby {
        &self.local
    }

    pub fn base_url(&self) -> &str {
        self.local.base_url()
    }

    /// Pushes `live_games` to lobby subscribers every few seconds when the list changed.
    pub fn start_live_games_feed(&self) {
        self.local.start_live_games_feed();
    }

    /// Whether this node answers lobby requests itself: always without a broker; in a cluster with one, while it
    /// holds the lobby's lease (a new lease starts from an empty lobby).
    pub fn is_here(&self) -> bool {
        if self.live.broker().is_none() {
            return true;
        }
        let Some(epoch) = self.live.lobby_epoch() else { return false };
        let mut served = self.served.lock().unwrap_or_else(|e| e.into_inner());
        if *served != Some(epoch) {
            if served.is_some() {
                self.local.reset();
            }
            *served = Some(epoch);
        }
        true
    }

    /// Sends `op` to the node that runs the lobby (this one, if it took the lobby over meanwhile).
    async fn ask(&self, op: LobbyOp) -> Result<LobbyAnswer, LobbyError> {
        let started = tokio::time::Instant::now();
        let Some(broker) = self.live.broker().cloned() else { return Ok(answer(&self.local, op, None).await) };
        let attempt = Duration::from_millis(self.live.lease_ms() + 1000);
        loop {
            if self.is_here() {
                return Ok(answer(&self.local, op, None).await);
            }
            if started.elapsed() > ASK_DEADLINE {
                return Err(LobbyError::Game(GameError::not_saved(
                    "the lobby".to_owned(),
                    "the node that runs it did not answer in time",
                )));
            }
            let lease = self.live.store().lease(LOBBY_LEASE).await.map_err(GameError::from)?;
            let Some(lease) = lease.filter(|l| l.expires_at_ms >= crate::time::now_ms() as i64) else {
                // No node runs the lobby now: one takes it at its next scan.
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            };
            if lease.node == broker.node() {
                // Taken by this node; its scan is about to say so.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            let reply = broker.ask(&lease.node, Family::Lobby, LOBBY_LEASE, encode(&op), attempt).await;
            // `null`: that node does not run the lobby (any more).
            match reply.and_then(|body| decode::<Option<LobbyAnswer>>(&body)) {
                Some(Some(answer)) => return Ok(answer),
                _ => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    /// Creates a challenge (to `dest`, or a link when `None`) on `terms`.
    pub async fn create_challenge(
        &self,
        challenger: Entrant,
        dest: Option<String>,
        terms: ChallengeTerms<'_>,
    ) -> Result<ChallengeInfo, LobbyError> {
        if self.is_here() {
            return self.local.create_challenge(challenger, dest, terms);
        }
        let ChallengeTerms { time_control, rated, color, variant, rules } = terms;
        let op = LobbyOp::CreateChallenge {
            challenger: challenger.player,
            guest: challenger.guest,
            dest,
            time_control: time_control.to_owned(),
            rated,
            color,
            variant,
            rules,
        };
        match self.ask(op).await? {
            LobbyAnswer::Challenge(c) => Ok(*c),
            LobbyAnswer::Refused(e) => Err(remote(e)),
            a => Err(unexpected(&a)),
        }
    }

    pub async fn challenge(&self, id: &str) -> Option<ChallengeInfo> {
        if self.is_here() {
            return self.local.challenge(id);
        }
        match self.ask(LobbyOp::Challenge { id: id.to_owned() }).await {
            Ok(LobbyAnswer::MaybeChallenge(c)) => c.map(|c| *c),
            _ => None,
        }
    }

    /// Pending challenges to or from `user_id`: (incoming, outgoing).
    pub async fn challenges_of(&self, user_id: &str) -> (Vec<ChallengeInfo>, Vec<ChallengeInfo>) {
        if self.is_here() {
            return self.local.challenges_of(user_id);
        }
        match self.ask(LobbyOp::ChallengesOf { user_id: user_id.to_owned() }).await {
            Ok(LobbyAnswer::Challenges { incoming, outgoing }) => (incoming, outgoing),
            Ok(a) => {
                tracing::warn!("challenges of {user_id}: {:?}", unexpected(&a));
                (Vec::new(), Vec::new())
            }
            Err(e) => {
                tracing::warn!("challenges of {user_id}: {e:?}");
                (Vec::new(), Vec::new())
            }
        }
    }

    /// Accepts a challenge: creates the game.
    pub async fn accept_challenge(&self, id: &str, by: PlayerRef, by_guest: bool) -> Result<String, LobbyError> {
        if self.is_here() {
            return self.local.accept_challenge(id, by, by_guest, None).await;
        }
        self.game_id(LobbyOp::AcceptChallenge { id: id.to_owned(), by, guest: by_guest }).await
    }

    async fn game_id(&self, op: LobbyOp) -> Result<String, LobbyError> {
        match self.ask(op).await? {
            LobbyAnswer::GameId(g) => Ok(g),
            LobbyAnswer::Refused(e) => Err(remote(e)),
            a => Err(unexpected(&a)),
        }
    }

    async fn done(&self, op: LobbyOp) -> Result<(), LobbyError> {
        match self.ask(op).await? {
            LobbyAnswer::Done => Ok(()),
            LobbyAnswer::Refused(e) => Err(remote(e)),
            a => Err(unexpected(&a)),
        }
    }

    /// Declines (the challenged user) or cancels (the challenger) a challenge.
    pub async fn close_challenge(&self, id: &str, by_user: &str, reason: Option<String>) -> Result<(), LobbyError> {
        if self.is_here() {
            return self.local.close_challenge(id, by_user, reason);
        }
        self.done(LobbyOp::CloseChallenge { id: id.to_owned(), by_user: by_user.to_owned(), reason }).await
    }

    /// Posts a seek of `owner` (on connection `conn`, with `rating` shown).
    pub async fn create_seek(
        &self,
        owner: Entrant,
        conn: u64,
        terms: SeekTerms<'_>,
        rating: Option<u32>,
    ) -> Result<Seek, LobbyError> {
        if self.is_here() {
            return self.local.create_seek(owner, conn, terms, rating);
        }
        let SeekTerms { time_control, rated, color, variant } = terms;
        let op = LobbyOp::CreateSeek {
            owner: owner.player,
            guest: owner.guest,
            conn,
            time_control: time_control.to_owned(),
            rated,
            color,
            variant,
            rating,
        };
        match self.ask(op).await? {
            LobbyAnswer::Seek(s) => Ok(*s),
            LobbyAnswer::Refused(e) => Err(remote(e)),
            a => Err(unexpected(&a)),
        }
    }

    pub async fn cancel_seek(&self, seek_id: &str, user_id: &str) -> Result<(), LobbyError> {
        if self.is_here() {
            return self.local.cancel_seek(seek_id, user_id);
        }
        self.done(LobbyOp::CancelSeek { seek_id: seek_id.to_owned(), user_id: user_id.to_owned() }).await
    }

    pub async fn accept_seek(&self, seek_id: &str, by: PlayerRef, by_guest: bool) -> Result<String, LobbyError> {
        if self.is_here() {
            return self.local.accept_seek(seek_id, by, by_guest, None).await;
        }
        self.game_id(LobbyOp::AcceptSeek { seek_id: seek_id.to_owned(), by, guest: by_guest }).await
    }

    /// Joins a pool; pairs at once with the longest-waiting other player if there is one. Returns the game id
    /// when paired.
    pub async fn join_pool(
        &self,
        player: PlayerRef,
        player_guest: bool,
        conn: u64,
        time_control: &str,
        rated: bool,
    ) -> Result<Option<String>, LobbyError> {
        if self.is_here() {
            return self.local.join_pool(player, player_guest, conn, time_control, rated, None).await;
        }
        let op = LobbyOp::JoinPool { player, guest: player_guest, conn, time_control: time_control.to_owned(), rated };
        match self.ask(op).await? {
            LobbyAnswer::MaybeGameId(g) => Ok(g),
            LobbyAnswer::Refused(e) => Err(remote(e)),
            a => Err(unexpected(&a)),
        }
    }

    pub async fn leave_pool(&self, user_id: &str) {
        if self.is_here() {
            return self.local.leave_pool(user_id);
        }
        if let Err(e) = self.done(LobbyOp::LeavePool { user_id: user_id.to_owned() }).await {
            tracing::warn!("leave pool {user_id}: {e:?}");
        }
    }

    /// A connection closed: its seeks and pool entries go (on the node that runs the lobby, without waiting).
    pub fn connection_closed(&self, conn: u64) {
        if self.is_here() {
            return self.local.connection_closed(conn);
        }
        let me = self.clone();
        tokio::spawn(async move {
            if let Err(e) = me.done(LobbyOp::ConnectionClosed { conn }).await {
                tracing::warn!("connection {conn} closed: {e:?}");
            }
        });
    }

    pub async fn seeks(&self) -> Vec<Seek> {
        if self.is_here() {
            return self.local.seeks();
        }
        match self.ask(LobbyOp::Seeks).await {
            Ok(LobbyAnswer::Seeks(s)) => s,
            _ => Vec::new(),
        }
    }

    pub async fn pools(&self) -> Vec<PoolSize> {
        if self.is_here() {
            return self.local.pools();
        }
        match self.ask(LobbyOp::Pools).await {
            Ok(LobbyAnswer::Pools(p)) => p,
            _ => self.local.pools(),
        }
    }
}

/// Answers another node's request for the lobby, while this node runs it (`null` when it does not).
pub fn serve_lobby_request(lobby: &Lobby, cluster: &SharedCluster, incoming: Incoming) {
    let Incoming { from, req_id, body, .. } = incoming;
    let Some(op) = decode::<LobbyOp>(&body) else { return };
    let lobby = lobby.clone();
    let cluster = cluster.clone();
    tokio::spawn(async move {
        let reply = if lobby.is_here() { Some(answer(lobby.local(), op, Some(&from)).await) } else { None };
        if req_id != 0 {
            cluster.answer(&from, req_id, encode(&reply));
        }
    });
}

/// Answers the other nodes' requests: a game's to `live`, the lobby's to the lobby.
pub async fn serve_requests(
    live: crate::live::Live,
    lobby: Lobby,
    cluster: SharedCluster,
    mut requests: tokio::sync::mpsc::Receiver<Incoming>,
) {
    while let Some(incoming) = requests.recv().await {
        match incoming.family {
            Family::Game => crate::live::serve_game_request(&live, &cluster, incoming),
            Family::Lobby => serve_lobby_request(&lobby, &cluster, incoming),
        }
    }
}

/// Passes the lobby's frames from the node that runs it to this node's lobby followers.
pub async fn deliver_lobby(updates: broadcast::Sender<Arc<str>>, mut frames: tokio::sync::mpsc::Receiver<Body>) {
    while let Some(f) = frames.recv().await {
        let _ = updates.send(Arc::from(f.get()));
    }
}
