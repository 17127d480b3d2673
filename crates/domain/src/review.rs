// SPDX-License-Identifier: GPL-3.0-or-later
//! The reviewer: game reviews (复盘) after finished games, run one at a time in request order from the store's
//! queue (`game_reviews`), so a queued review survives a restart.
//!
//! A review searches every position of the game on the **analysis** workers, never on the computer opponents' (so a
//! live game against the computer never waits for a review), and gives its worker back after every position: a
//! person on the analysis board waits for one position's search at most, not for a whole game. Games against the
//! computer are reviewed as soon as they end, and so are the games of accounts that ask for it; anybody may ask
//! for the review of a finished game (`POST /api/game/{id}/review`).
//!
//! The stored review is guoxiang-review's JSON with the game's PGN annotated in both languages (`pgn.zh`,
//! `pgn.en`: `[%eval]`, NAGs, comments and better lines), which is what the PGN export with evaluations serves.
//!
//! In a cluster every node's reviewer takes reviews from the one queue (a review starts on one node only: the store
//! moves it from queued to running once). A node runs a review under a lease (`guoxiang_store::review_lease`,
//! renewed with its games' leases); a node that starts, or finds nothing to do, puts back in the queue the running
//! reviews whose lease lapsed — their node died or was stopped — and never those another node is running.

use std::sync::Arc;
use std::time::{Duration, Instant};

use guoxiang_core::Lang;
use guoxiang_pgn::write_game;
use guoxiang_review::{GameReview, Hooks, Options};
use guoxiang_store::{ReviewStatus, Store, StoreError};
use serde_json::{Value, json};
use tokio::sync::Notify;

use crate::live::engine::{AnalysisPool, Busy};
use crate::live::{FinishedGame, Live};

/// The analysis pool's user name for reviews (not a valid user name, so no person shares its slots).
const REVIEWER: &str = "\u{0}reviewer";

/// How often a running review writes its progress to the store, at most.
const PROGRESS_EVERY: Duration = Duration::from_millis(400);

/// The reviewer's handle: wakes the worker when a review is queued.
#[derive(Clone, Debug)]
pub struct Reviewer {
    store: Store,
    wake: Arc<Notify>,
    nodes: u64,
    /// The server has no analysis workers of its own (`--analysis-workers 0`): browsers review first.
    browser_first: bool,
    analysis: AnalysisPool,
    public_url: String,
    /// Games whose browser review is being checked now (one check per game at a time).
    checking: Arc<std::sync::Mutex<std::collections::HashSet<String>>>,
}

impl Reviewer {
    /// Starts the worker (and puts reviews a stopped server left running back in the queue). `public_url` is
    /// written into the annotated PGN's `Site` tag.
    pub async fn start(
        store: Store,
        live: &Live,
        analysis: AnalysisPool,
        nodes: u64,
        public_url: String,
        syzygy: Option<guoxiang_engine::tb::Syzygy>,
        browser_first: bool,
    ) -> Result<Reviewer, StoreError> {
        let cluster = live.node().map(|n| (n.to_owned(), live.lease_ms()));
        let again = match &cluster {
            None => store.requeue_running_reviews().await?,
            Some(_) => store.requeue_orphaned_reviews(crate::time::now_ms() as i64).await?,
        };
        if again > 0 {
            tracing::info!("{again} interrupted reviews queued again");
        }
        let reviewer = Reviewer {
            store,
            wake: Arc::new(Notify::new()),
            nodes: nodes.max(1),
            browser_first,
            analysis: analysis.clone(),
            public_url: public_url.clone(),
            checking: Default::default(),
        };
        let grace = browser_first.then_some(BROWSER_GRACE);
        let worker = Worker { store: reviewer.store.clone(), analysis, public_url, cluster, syzygy, grace };
        let wake = reviewer.wake.clone();
        tokio::spawn(async move { worker.run(wake).await });
        // Games that end: against the computer always, the others when a player has asked for every game.
        let mut finished = live.finished_games();
        let r = reviewer.clone();
        tokio::spawn(async move {
            loop {
                match finished.recv().await {
                    Ok(g) => r.on_finished(g).await,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                        tracing::warn!("reviewer: {n} finished games missed (too many at once)")
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                }
            }
        });
        Ok(reviewer)
    }

    /// The node budget per position.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether browsers review first (the server has no analysis workers of its own; it reviews a game itself only
    /// when no browser has sent its review within [`BROWSER_GRACE`]).
    pub fn browser_first(&self) -> bool {
        self.browser_first
    }

    /// Keeps a review searched in a player's browser (`body`: guoxiang_review::upload's JSON), if it holds: the
    /// review must be waiting or running here, `user_id` must have played the game, the judgements must read (one
    /// per position and judge, legal chess, this server's budget), and the marks of the review the server makes of
    /// them must stand when searched again (guoxiang_review::upload::check, with three unmarked moves picked at
    /// random). Stored with `"browser": true`, it is the game's review from then on.
    pub async fn keep_browser_review(&self, game_id: &str, user_id: &str, body: &str) -> Result<(), BrowserReview> {
        let row = self.store.review(game_id).await?.ok_or(BrowserReview::NotPending)?;
        match row.status {
            ReviewStatus::Queued | ReviewStatus::Running => {}
            ReviewStatus::Done => return Err(BrowserReview::Done),
            ReviewStatus::Failed => return Err(BrowserReview::NotPending),
        }
        let (game, moves) = self.store.game(game_id).await?.ok_or(BrowserReview::NotPending)?;
        if game.white_id != user_id && game.black_id != user_id {
            return Err(BrowserReview::NotAPlayer);
        }
        if !reviewable(&game.status, moves.len()) {
            return Err(BrowserReview::NotPending);
        }
        {
            let mut checking = self.checking.lock().unwrap_or_else(|e| e.into_inner());
            if !checking.insert(game_id.to_owned()) {
                return Err(BrowserReview::Checking);
            }
        }
        let _done = Unmark(self.checking.clone(), game_id.to_owned());
        let parsed = crate::archive::replayed(&self.public_url, &game, &moves).map_err(BrowserReview::Internal)?;
        let options = Options { nodes: row.nodes.max(1) as u64, ..Options::default() };
        let (handle, analysis, body) = (tokio::runtime::Handle::current(), self.analysis.clone(), body.to_owned());
        // Reading, judging and checking on a blocking thread: the judging writes every sentence with the tactics
        // tagger, and the check searches.
        let stored = tokio::task::spawn_blocking(move || -> Result<Value, BrowserReview> {
            let upload = guoxiang_review::upload::parse(&body).map_err(BrowserReview::Bad)?;
            let judged = guoxiang_review::upload::read(&parsed.start, &parsed.moves, &upload, &options)
                .map_err(BrowserReview::Bad)?;
            let (r, _) = guoxiang_review::review_from_judgements(&parsed.start, &parsed.moves, &options, judged)
                .map_err(BrowserReview::Bad)?;
            let mut sample = guoxiang_review::upload::unmarked(&r, &parsed.start, &parsed.moves);
            {
                use rand::seq::SliceRandom;
                sample.shuffle(&mut rand::rng());
            }
            sample.truncate(CHECK_SAMPLE);
            let admit = || -> Box<dyn std::any::Any> { Box::new(handle.block_on(admit_as(&analysis, CHECKER))) };
            let mut hooks = Hooks { admit: &admit, progress: &mut |_, _| {} };
            guoxiang_review::upload::check(&parsed.start, &parsed.moves, &r, &options, &sample, &mut hooks)
                .map_err(BrowserReview::Refused)?;
            let mut v = stored_review(&parsed, &r).map_err(BrowserReview::Internal)?;
            v["browser"] = json!(true);
            Ok(v)
        })
        .await
        .map_err(|e| BrowserReview::Internal(format!("the check stopped: {e}")))??;
        if self.store.finish_browser_review(game_id, &stored.to_string(), crate::time::now_ms() as i64).await? {
            // The reviewer may be waiting on this game's grace: the queue has changed.
            self.wake.notify_one();
            Ok(())
        } else {
            Err(BrowserReview::Done)
        }
    }

    /// Queues a review of a stored game (see [`Store::request_review`]) and wakes the worker.
    pub async fn request(&self, game_id: &str, by: Option<&str>) -> Result<guoxiang_store::ReviewRow, StoreError> {
        let row = self.store.request_review(game_id, by, self.nodes as i64, crate::time::now_ms() as i64).await?;
        if row.status == ReviewStatus::Queued {
            self.wake.notify_one();
        }
        Ok(row)
    }

    async fn on_finished(&self, g: FinishedGame) {
        let against_computer = g.players.iter().any(|p| p.is_engine);
        let mut wanted = against_computer;
        for p in g.players.iter().filter(|p| !p.is_engine) {
            if wanted {
                break;
            }
            wanted = self.store.auto_review(&p.id).await.unwrap_or(false);
        }
        if !wanted {
            return;
        }
        match self.store.game(&g.game_id).await {
            Ok(Some((row, moves))) if reviewable(&row.status, moves.len()) => {
                if let Err(e) = self.request(&g.game_id, None).await {
                    tracing::warn!("review of game {}: {e}", g.game_id);
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("review of game {}: {e}", g.game_id),
        }
    }
}

/// How long the reviewer leaves a queued review to the players' browsers when the server has no analysis workers of
/// its own, before it reviews the game itself (for a browser without WebAssembly, or a player who left).
pub const BROWSER_GRACE: Duration = Duration::from_secs(120);

/// Unmarked moves a check of a browser's review searches again, picked at random by the server.
pub const CHECK_SAMPLE: usize = 3;

/// The analysis pool's user name for the checks of browsers' reviews.
const CHECKER: &str = "\u{0}checker";

/// Why a browser's review was not kept.
#[derive(Debug)]
pub enum BrowserReview {
    /// Nobody asked for the game's review, or it failed (ask again first).
    NotPending,
    /// The game's review is already there.
    Done,
    /// Only the game's players send its review.
    NotAPlayer,
    /// Another browser's review of this game is being checked.
    Checking,
    /// The judgements do not read: what is wrong and where.
    Bad(String),
    /// A mark did not stand when searched again (or a move left unmarked is a blunder): which move.
    Refused(guoxiang_review::upload::Refusal),
    Store(StoreError),
    Internal(String),
}

impl From<StoreError> for BrowserReview {
    fn from(e: StoreError) -> BrowserReview {
        BrowserReview::Store(e)
    }
}

/// Takes a game out of the reviewer's checks when dropped.
struct Unmark(Arc<std::sync::Mutex<std::collections::HashSet<String>>>, String);

impl Drop for Unmark {
    fn drop(&mut self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.1);
    }
}

/// The stored form of a review: guoxiang-review's JSON with the game's PGN annotated in both languages.
fn stored_review(parsed: &guoxiang_pgn::ReplayedGame, r: &GameReview) -> Result<Value, String> {
    let annotated = |lang| {
        let g = guoxiang_review::pgn::annotate(&parsed.tags, &parsed.start, &parsed.moves, parsed.result, r, lang);
        let mut out = Vec::new();
        write_game(&mut out, &g).map(|()| String::from_utf8_lossy(&out).into_owned()).map_err(|e| e.to_string())
    };
    Ok(json!({
        "nodes": r.nodes,
        "moves": r.moves,
        "accuracy": r.accuracy(),
        "acpl": { "white": r.white.acpl, "black": r.black.acpl },
        "counts": { "white": r.white.counts, "black": r.black.counts },
        "pgn": { "zh": annotated(Lang::Zh)?, "en": annotated(Lang::En)? },
    }))
}

/// Whether a stored game can be reviewed: it is over (not aborted) and has a move.
pub fn reviewable(status: &str, moves: usize) -> bool {
    status == "finished" && moves > 0
}

struct Worker {
    store: Store,
    analysis: AnalysisPool,
    public_url: String,
    /// In a cluster, this node's name and the length of its leases.
    cluster: Option<(String, u64)>,
    /// Endgame tables (`guoxiang serve --syzygy-path`): the positions they cover are judged by them.
    syzygy: Option<guoxiang_engine::tb::Syzygy>,
    /// Browsers review first: a review queued less than this long ago is left to them.
    grace: Option<Duration>,
}

impl Worker {
    async fn run(self, wake: Arc<Notify>) {
        loop {
            match self.store.next_queued_review().await {
                Ok(Some(id)) if self.left_to_browsers(&id, &wake).await => {}
                Ok(Some(id)) => {
                    let result = self.review(&id).await;
                    if result == Ok(false) {
                        // Another node is starting it: the queue changes in a moment.
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    if let Err(e) = result {
                        tracing::warn!("review of game {id}: {e}");
                        if let Err(e2) = self.store.fail_review(&id, &e, crate::time::now_ms() as i64).await {
                            // It stays "running" until the next start queues it again.
                            tracing::error!("review of game {id}: its failure was not recorded: {e2}");
                        }
                    }
                }
                Ok(None) => {
                    // Asleep until a request (or a minute, in case a wake-up was lost to a store error; in a
                    // cluster, a lease, to look for reviews a dead node left running). A timeout is the periodic
                    // look; either way the queue is read again.
                    let idle =
                        self.cluster.as_ref().map_or(Duration::from_secs(60), |(_, ms)| Duration::from_millis(*ms));
                    let _ = tokio::time::timeout(idle, wake.notified()).await;
                    if self.cluster.is_some() {
                        match self.store.requeue_orphaned_reviews(crate::time::now_ms() as i64).await {
                            Ok(0) => {}
                            Ok(n) => tracing::info!("{n} reviews another node left running queued again"),
                            Err(e) => tracing::warn!("reviewer: {e}"),
                        }
                    }
                }
                Err(e) => {
                    tracing::warn!("reviewer: {e}");
                    tokio::time::sleep(Duration::from_secs(5)).await;
                }
            }
        }
    }

    /// With browsers first: whether the queued review `id` is still theirs (queued less than the grace ago), after
    /// waiting until its grace is over or a review is asked for or kept (the queue is then read again).
    async fn left_to_browsers(&self, id: &str, wake: &Notify) -> bool {
        let Some(grace) = self.grace else { return false };
        let Ok(Some(row)) = self.store.review(id).await else { return false };
        let age = (crate::time::now_ms() as i64 - row.requested_at_ms).max(0) as u64;
        let Some(left) = grace.checked_sub(Duration::from_millis(age)).filter(|d| !d.is_zero()) else { return false };
        let _ = tokio::time::timeout(left, wake.notified()).await;
        true
    }

    /// Reviews one queued game and stores the result; an `Err` is stored as the reason it failed. In a cluster,
    /// under the review's lease: `Ok(false)` while another node holds it.
    async fn review(&self, id: &str) -> Result<bool, String> {
        let Some((node, lease_ms)) = &self.cluster else { return self.review_here(id).await.map(|()| true) };
        let lease = guoxiang_store::review_lease(id);
        let now = crate::time::now_ms() as i64;
        let Some(epoch) =
            self.store.acquire_lease(&lease, node, now, *lease_ms as i64).await.map_err(|e| e.to_string())?
        else {
            return Ok(false);
        };
        let result = self.review_here(id).await;
        if let Err(e) = self.store.release_lease(&lease, node, epoch).await {
            tracing::warn!("review of game {id}: its lease was not released ({e}); it lapses by itself");
        }
        result.map(|()| true)
    }

    async fn review_here(&self, id: &str) -> Result<(), String> {
        let Some(row) = self.store.review(id).await.map_err(|e| e.to_string())? else { return Ok(()) };
        let (game, moves) =
            self.store.game(id).await.map_err(|e| e.to_string())?.ok_or_else(|| format!("game {id} is gone"))?;
        if !reviewable(&game.status, moves.len()) {
            return Err(format!("game {id} is not over or has no moves ({})", game.status));
        }
        // The game as our PGN reader would see its export: the start position, the moves, the tags (as
        // `guoxiang review` reads a file), taken from the stored game.
        let parsed =
            crate::archive::replayed(&self.public_url, &game, &moves).map_err(|e| format!("game {id}: {e}"))?;
        // The two judges on two threads when the pool has two workers (each search holds one).
        let threads = self.analysis.workers().min(2);
        let options =
            Options { nodes: row.nodes.max(1) as u64, syzygy: self.syzygy.clone(), threads, ..Options::default() };
        let total = options.searches(parsed.moves.len());
        if !self.store.start_review(id, total as i64).await.map_err(|e| e.to_string())? {
            return Ok(()); // Not queued any more.
        }
        let handle = tokio::runtime::Handle::current();
        let (store, analysis, game_id) = (self.store.clone(), self.analysis.clone(), id.to_owned());
        let v = tokio::task::spawn_blocking(move || -> Result<Value, String> {
            // A worker of the analysis pool for each search, given back after it (see the module's doc).
            let admit = || -> Box<dyn std::any::Any> { Box::new(handle.block_on(admit(&analysis))) };
            let mut last = Instant::now();
            let mut progress = |done: usize, total: usize| {
                if last.elapsed() >= PROGRESS_EVERY {
                    last = Instant::now();
                    // Progress is for display only; the review goes on without it.
                    if let Err(e) = handle.block_on(store.review_progress(&game_id, done as i64, total as i64)) {
                        tracing::warn!("review of game {game_id}: progress not written: {e}");
                    }
                }
            };
            let mut hooks = Hooks { admit: &admit, progress: &mut progress };
            let (r, _) = guoxiang_review::review_judged(&parsed.start, &parsed.moves, &options, &mut hooks)?;
            stored_review(&parsed, &r)
        })
        .await
        .map_err(|e| format!("the review stopped: {e}"))??;
        self.store.finish_review(id, &v.to_string(), crate::time::now_ms() as i64).await.map_err(|e| e.to_string())
    }
}

/// A worker of the analysis pool for the reviewer, waiting while the pool's queue is full.
async fn admit(pool: &AnalysisPool) -> crate::live::engine::AnalysisTicket {
    admit_as(pool, REVIEWER).await
}

/// A worker of the analysis pool for `who` (the reviewer, or the checker of browsers' reviews), waiting while the
/// pool's queue is full.
async fn admit_as(pool: &AnalysisPool, who: &str) -> crate::live::engine::AnalysisTicket {
    loop {
        match pool.admit(who).await {
            Ok(t) => return t,
            Err(Busy::Queue | Busy::User) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}
