// SPDX-License-Identifier: GPL-3.0-or-later
//! Tournaments on the server (issue 18; docs/tournament.md "On the server").
//!
//! | module | what lives there |
//! |---|---|
//! | `doc` | `guoxiang_tournament::doc`: a tournament's stored state and the acts on it (entries, start, pairing, results), without I/O |
//! | `new` | a new tournament's document from its request, each field checked |
//! | `arbiters` | who arbitrates a tournament's games (its organiser and named arbiters, and the administrators) |
//! | this module | [`Tournaments`]: the acts done durably (one at a time, each a versioned write), online rounds' games created, results taken from finished games, the next round paired after a pause |
//!
//! **Durability.** An act reads the tournament, changes it, and writes it back only if nobody wrote meanwhile
//! (the row's version). An online round is written with its games' ids *before* the games are created, so a crash
//! in between leaves a board naming a game that does not exist yet, and [`Tournaments::reconcile`] (at start-up, and
//! whenever a round waits) creates it; a game that ended while nobody listened is scored by the same pass from the
//! stored result. A game's first-move timeout aborts it: the player who did not move loses by forfeit.

pub use guoxiang_tournament::doc;
mod arbiters;
mod new;
pub use arbiters::TournamentArbiters;

use std::sync::Arc;

use guoxiang_game::{PlayerRef, Rules, Source, Variant};
use guoxiang_protocol::http::{
    ForbiddenPair, NewTournament, TournamentList, TournamentMode, TournamentResult, TournamentStatus,
    TournamentSummary, TournamentSystem, TournamentView, TrfImport,
};
use guoxiang_store::{Store, TournamentGameRow, TournamentRow, User};
use tokio::sync::broadcast::error::RecvError;

use crate::archive::{EventTags, PgnOptions};
use crate::error::{Error, Kind};
use crate::live::{Live, NewGame, new_game_id};
pub use doc::{Doc, Refused};

/// The tournaments of this server.
#[derive(Clone, Debug)]
pub struct Tournaments(Arc<Inner>);

/// Who may create a rated tournament (`guoxiang serve --rated-tournaments`): its organiser and arbiters decide
/// results that move ratings, so by default only the server's administrators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RatedTournaments {
    /// The server's administrators (the default).
    #[default]
    Admins,
    /// Every registered user.
    Everyone,
}

impl std::str::FromStr for RatedTournaments {
    type Err = String;

    fn from_str(s: &str) -> Result<RatedTournaments, String> {
        match s {
            "admins" => Ok(RatedTournaments::Admins),
            "everyone" => Ok(RatedTournaments::Everyone),
            _ => Err(format!("{s:?}: admins or everyone")),
        }
    }
}

#[derive(Debug)]
struct Inner {
    store: Store,
    live: Live,
    /// Who may create rated tournaments.
    rated_by: RatedTournaments,
    /// One act at a time on this node (the versioned write guards against other nodes).
    lock: tokio::sync::Mutex<()>,
    /// Tournaments whose next round is due now (sent by the pause's timers, handled by [`Tournaments::run`]'s task).
    due: tokio::sync::mpsc::UnboundedSender<(String, i64)>,
    due_rx: std::sync::Mutex<Option<tokio::sync::mpsc::UnboundedReceiver<(String, i64)>>>,
    /// Set by [`Tournaments::stop`]: the listener ends (a stopped server pairs nothing more).
    stop: tokio::sync::watch::Sender<bool>,
    /// When each player last showed the tournament page: (tournament id, user id) → Unix ms. On this node only.
    seen: std::sync::Mutex<std::collections::HashMap<(String, String), i64>>,
}

/// A player counts as on the tournament page for this long after the page last asked for it (the page asks every
/// 3 s while shown; a browser may slow the timers of a hidden tab).
pub const PRESENCE_WINDOW_MS: i64 = 60_000;
/// While the presence check holds a round back, it is looked at again this often.
const PRESENCE_RETRY_MS: i64 = 5_000;

/// The tournaments listed.
const LIST_LEN: i64 = 100;

/// Tournaments not finished one organiser may have.
const MAX_ACTIVE_PER_ORGANISER: usize = 10;

/// How often waiting arena players are paired.
const ARENA_TICK: std::time::Duration = std::time::Duration::from_secs(2);

fn not_found(id: &str) -> Error {
    Error::not_found(&format!("比赛 {id}"), &format!("tournament {id}"))
}

fn forbidden(zh: &str, en: &str) -> Error {
    Error::forbidden("not_organiser", zh, en)
}

/// An organiser or arbiter acting on a board they play on (docs/security.md "Conflicts of interest").
pub fn own_board() -> Error {
    Error::forbidden(
        "own_board",
        "你不能登记或裁决自己下的对局",
        "you cannot enter or decide the result of a game you play in",
    )
}

/// Whether the user `user_id` plays on board `board` of round `round` (both from 1).
fn plays_on_board(doc: &Doc, user_id: &str, round: u32, board: u32) -> bool {
    let Some(me) = doc.player_of(user_id) else { return false };
    let b = doc
        .round_list
        .get((round as usize).wrapping_sub(1))
        .and_then(|r| r.boards.get((board as usize).wrapping_sub(1)));
    b.is_some_and(|b| b.white == me.no || b.black == me.no)
}

/// A new tournament id: 8 characters, as games'.
fn new_id() -> String {
    new_game_id()
}

/// What the viewer may do.
#[derive(Clone, Copy, Debug, Default)]
pub struct Powers {
    pub organise: bool,
    pub arbitrate: bool,
}

/// The viewer's powers over a tournament: its organiser and the server's administrators organise; they and the
/// tournament's arbiters arbitrate.
pub fn powers(doc: &Doc, user: Option<&User>) -> Powers {
    let Some(u) = user else { return Powers::default() };
    let organise = doc.organiser_id == u.id || u.is_admin;
    Powers { organise, arbitrate: organise || doc.is_arbiter(&u.id) }
}

impl Tournaments {
    /// The service; [`Tournaments::run`] starts its listener. `rated_by`: who may create rated tournaments.
    pub fn new(store: Store, live: Live, rated_by: RatedTournaments) -> Tournaments {
        let (due, due_rx) = tokio::sync::mpsc::unbounded_channel();
        Tournaments(Arc::new(Inner {
            store,
            live,
            rated_by,
            lock: tokio::sync::Mutex::new(()),
            due,
            due_rx: std::sync::Mutex::new(Some(due_rx)),
            stop: tokio::sync::watch::channel(false).0,
            seen: std::sync::Mutex::new(std::collections::HashMap::new()),
        }))
    }

    /// Ends the listener of [`Tournaments::run`]: no more pairings, results or timers from this server (a test's
    /// stopped server, whose tasks outlive its listener, would otherwise go on acting on the shared store).
    pub fn stop(&self) {
        self.0.stop.send_replace(true);
    }

    /// Listens for finished games (their results go to their tournaments) and picks up the running tournaments
    /// of the last run.
    pub fn run(&self) {
        let me = self.clone();
        let mut rx = self.0.live.finished_games();
        let Some(mut due) = self.0.due_rx.lock().unwrap_or_else(|e| e.into_inner()).take() else { return };
        let mut stop = self.0.stop.subscribe();
        tokio::spawn(async move {
            me.reconcile_all().await;
            let mut tick = tokio::time::interval(ARENA_TICK);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {
                        me.scheduled_starts().await;
                        me.arena_ticks().await;
                    }
                    got = rx.recv() => match got {
                        Ok(g) => {
                            if let Err(e) = me.game_finished(&g.game_id).await {
                                tracing::warn!("tournament result of game {}: {}", g.game_id, e.en);
                            }
                        }
                        // Missed games: read every running tournament's games from the store.
                        Err(RecvError::Lagged(_)) => me.reconcile_all().await,
                        Err(RecvError::Closed) => break,
                    },
                    Some((id, at)) = due.recv() => me.next_round_due(&id, at).await,
                    _ = stop.changed() => break,
                }
            }
        });
    }

    /// Every running arena is paired (and finished at its end).
    async fn arena_ticks(&self) {
        let rows = match self.0.store.tournaments(&["running"], 1000).await {
            Ok(rows) => rows,
            Err(e) => {
                tracing::warn!("tournaments: {e}");
                return;
            }
        };
        for row in rows {
            if serde_json::from_str::<Doc>(&row.data).is_ok_and(|d| d.system == TournamentSystem::Arena) {
                self.arena_tick(&row.id).await;
            }
        }
    }

    async fn reconcile_all(&self) {
        match self.0.store.tournaments(&["running"], 1000).await {
            Ok(rows) => {
                for row in rows {
                    if let Err(e) = self.reconcile(&row.id).await {
                        tracing::warn!("tournament {}: {}", row.id, e.en);
                    }
                }
            }
            Err(e) => tracing::warn!("tournaments: {e}"),
        }
    }

    /// Loads a tournament.
    pub async fn get(&self, id: &str) -> Result<(TournamentRow, Doc), Error> {
        if id.len() > 32 {
            return Err(not_found(id));
        }
        let row = self.0.store.tournament(id).await?.ok_or_else(|| not_found(id))?;
        let doc = stored_doc(&row).map_err(|e| Error::internal(&format!("stored tournament {id}"), e))?;
        Ok((row, doc))
    }

    /// Changes a tournament with `f` and writes it (with the games a round created), one act at a time.
    async fn act<T>(
        &self,
        id: &str,
        f: impl FnOnce(&mut Doc) -> Result<(T, Vec<TournamentGameRow>), Error>,
    ) -> Result<(Doc, T), Error> {
        let _one = self.0.lock.lock().await;
        let (mut row, mut doc) = self.get(id).await?;
        let (out, games) = f(&mut doc)?;
        let version = row.version;
        let data = serde_json::to_string(&doc).map_err(|e| Error::internal("tournament", e))?;
        // Nothing changed (an arena's tick with nobody to pair, a repeated result): nothing to write.
        if data == row.data && games.is_empty() {
            return Ok((doc, out));
        }
        row.status = status_name(doc.status).into();
        row.name = doc.name.clone();
        row.data = data;
        row.updated_at_ms = crate::time::now_ms() as i64;
        if !self.0.store.update_tournament(&row, version, &games).await? {
            return Err(Error::new(
                Kind::Conflict,
                "not_saved",
                "比赛刚被别人修改，请重试",
                "the tournament was changed by someone else meanwhile; try again",
            ));
        }
        Ok((doc, out))
    }

    /// A player of the tournament shows its page now (the page's `GET`): they count as present.
    pub fn mark_present(&self, id: &str, doc: &Doc, user: &User) {
        if doc.checks_presence() && doc.status != TournamentStatus::Finished && doc.player_of(&user.id).is_some() {
            let now = crate::time::now_ms() as i64;
            let mut seen = self.0.seen.lock().unwrap_or_else(|e| e.into_inner());
            seen.insert((id.to_owned(), user.id.clone()), now);
        }
    }

    /// Whether a player is present: on the tournament page within [`PRESENCE_WINDOW_MS`], or connected to the site
    /// after playing the last round's game over the board (still on its game page). Players without an account
    /// cannot be seen and count as present.
    pub fn is_present(&self, id: &str, doc: &Doc, entry: &doc::Entry, now_ms: i64) -> bool {
        let Some(user_id) = &entry.user_id else { return true };
        let seen =
            self.0.seen.lock().unwrap_or_else(|e| e.into_inner()).get(&(id.to_owned(), user_id.clone())).copied();
        if seen.is_some_and(|at| now_ms - at <= PRESENCE_WINDOW_MS) {
            return true;
        }
        doc.played_last_round(entry.no) && self.0.live.notifier().is_online(user_id)
    }

    /// The players the next round would pair who are not present (empty without the presence check).
    fn absent_now(&self, id: &str, doc: &Doc, now_ms: i64) -> Vec<u32> {
        if !doc.checks_presence() {
            return Vec::new();
        }
        doc.expected_next().into_iter().filter(|p| !self.is_present(id, doc, p, now_ms)).map(|p| p.no).collect()
    }

    /// `POST /api/tournaments`.
    pub async fn create(&self, by: &User, req: &NewTournament) -> Result<String, Error> {
        if by.is_guest {
            return Err(Error::unauthorized());
        }
        let doc = new::new_doc(by, req, crate::time::now_ms() as i64)?;
        if let Some(class) = &doc.class {
            self.check_class_teacher(class, by).await?;
        }
        self.insert(by, doc).await
    }

    /// A class tournament is created only by the class's teacher (an unknown class is refused alike).
    async fn check_class_teacher(&self, class: &str, by: &User) -> Result<(), Error> {
        let owner = self.0.store.class(class).await?.map(|c| c.owner_id);
        if owner.as_deref() != Some(by.id.as_str()) {
            return Err(Error::forbidden(
                "not_your_class",
                format!("class：你不是班级 {class} 的老师"),
                format!("class: you are not the teacher of class {class}"),
            ));
        }
        Ok(())
    }

    /// A class tournament is joined only by the class's students and its teacher.
    async fn check_class_member(&self, doc: &Doc, user: &User) -> Result<(), Error> {
        let Some(class) = &doc.class else { return Ok(()) };
        if self.is_class_member(class, &user.id).await? {
            return Ok(());
        }
        Err(Error::forbidden(
            "class_only",
            "这个比赛只限本班学生参加",
            "this tournament is for the students of its class",
        ))
    }

    /// Whether `user_id` is the teacher or a student of `class`.
    async fn is_class_member(&self, class: &str, user_id: &str) -> Result<bool, Error> {
        let teacher = self.0.store.class(class).await?.is_some_and(|c| c.owner_id == user_id);
        Ok(teacher || self.0.store.is_class_student(class, user_id).await?)
    }

    /// A new tournament organised by `by`: a rated one only by whom the host allows ([`RatedTournaments`]).
    async fn insert(&self, by: &User, doc: Doc) -> Result<String, Error> {
        if doc.rated && self.0.rated_by == RatedTournaments::Admins && !by.is_admin {
            return Err(Error::forbidden(
                "rated_needs_admin",
                "只有管理员可以创建计分比赛",
                "only an administrator can create a rated tournament on this server",
            ));
        }
        let active = self.0.store.tournaments(&["open", "running"], 1000).await?;
        if active.iter().filter(|t| t.created_by == doc.organiser_id).count() >= MAX_ACTIVE_PER_ORGANISER {
            return Err(Error::new(
                Kind::TooMany,
                "too_many_tournaments",
                format!("你已有 {MAX_ACTIVE_PER_ORGANISER} 个未结束的比赛"),
                format!("you already organise {MAX_ACTIVE_PER_ORGANISER} tournaments that are not finished"),
            ));
        }
        let id = new_id();
        let now = crate::time::now_ms() as i64;
        let row = TournamentRow {
            id: id.clone(),
            name: doc.name.clone(),
            created_by: doc.organiser_id.clone(),
            status: status_name(doc.status).into(),
            data: serde_json::to_string(&doc).map_err(|e| Error::internal("tournament", e))?,
            version: 1,
            created_at_ms: now,
            updated_at_ms: now,
        };
        self.0.store.insert_tournament(&row).await?;
        Ok(id)
    }

    /// `POST /api/tournaments/import`: an over-the-board tournament from TRF-16.
    pub async fn import(&self, by: &User, req: &TrfImport) -> Result<String, Error> {
        if by.is_guest {
            return Err(Error::unauthorized());
        }
        let t = guoxiang_tournament::trf::parse(&req.trf).map_err(|e| {
            Error::bad_request(
                "bad_trf",
                format!("TRF 第 {} 行第 {} 列：{}", e.line, e.column, e.message),
                format!("TRF line {}, column {}: {}", e.line, e.column, e.message),
            )
        })?;
        let mut doc = Doc::from_trf(&t, (by.id.clone(), by.name.clone()), crate::time::now_ms() as i64)?;
        if let Some(n) = req.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
            doc.name = n.chars().take(80).collect();
        }
        self.insert(by, doc).await
    }

    /// `GET /api/tournaments`.
    pub async fn list(&self) -> Result<TournamentList, Error> {
        let mut rows = self.0.store.tournaments(&["open", "running"], LIST_LEN).await?;
        rows.extend(self.0.store.tournaments(&["finished"], 20).await?);
        let mut tournaments = Vec::new();
        for row in rows {
            let Ok(doc) = serde_json::from_str::<Doc>(&row.data) else {
                tracing::warn!("tournament {} cannot be read", row.id);
                continue;
            };
            tournaments.push(TournamentSummary {
                id: row.id,
                name: doc.name.clone(),
                system: doc.system,
                mode: doc.mode,
                status: doc.status,
                time_control: doc.time_control.clone(),
                players: doc.players.len() as u32,
                rounds: doc.rounds,
                current_round: doc.round_list.len() as u32,
                created_at_ms: doc.created_at_ms,
            });
        }
        Ok(TournamentList { tournaments })
    }

    /// The page's view of a tournament for `user`.
    pub fn view(&self, id: &str, doc: &Doc, user: Option<&User>) -> TournamentView {
        let p = powers(doc, user);
        let mine = user.and_then(|u| doc.player_of(&u.id));
        TournamentView {
            id: id.to_owned(),
            name: doc.name.clone(),
            system: doc.system,
            mode: doc.mode,
            status: doc.status,
            time_control: doc.time_control.clone(),
            rules: doc.rules.clone(),
            rated: doc.rated,
            rounds: doc.rounds,
            organiser: doc.organiser.clone(),
            arbiters: doc.arbiters.iter().map(|(_, n)| n.clone()).collect(),
            players: {
                let mut players = doc.player_views();
                if doc.checks_presence() && doc.status != TournamentStatus::Finished {
                    let now = crate::time::now_ms() as i64;
                    for v in &mut players {
                        v.present = doc.player(v.no).map(|e| self.is_present(id, doc, e, now));
                    }
                }
                players
            },
            round_list: doc.round_views(),
            tie_breaks: doc.tie_breaks.clone(),
            standings: doc.standings(),
            crosstable: doc.crosstable(),
            next_round_at_ms: doc.next_round_at_ms,
            created_at_ms: doc.created_at_ms,
            you_organise: p.organise,
            you_arbitrate: p.arbitrate,
            your_no: mine.map_or(0, |e| e.no),
            you_joined: mine.is_some(),
            arena: doc.arena_view(),
            starts_at_ms: doc.starts_at_ms,
            forbidden: doc.forbidden.iter().map(|&(a, b)| ForbiddenPair { a, b }).collect(),
            next_round_byes: {
                let next = doc.round_list.len() as u32 + 1;
                doc.byes_requested.iter().filter(|(r, _)| *r == next).map(|(_, no)| *no).collect()
            },
            first_move_grace_s: if doc.mode == TournamentMode::Online { doc.first_move_grace_s() } else { 0 },
            presence_check: doc.checks_presence(),
            class: doc.class.clone(),
        }
    }

    /// The rating a player enters with: their Glicko-2 rating in the tournament's speed, if they have one.
    async fn rating_of(&self, user: &User, doc: &Doc) -> Result<Option<u32>, Error> {
        let Ok(tc) = guoxiang_game::TimeControl::from_pgn(&doc.time_control) else { return Ok(None) };
        let Some(speed) = guoxiang_ratings::RatingSpeed::of(tc.speed()) else { return Ok(None) };
        let rows = self.0.store.ratings(&user.id).await?;
        Ok(rows.into_iter().find(|r| r.speed == speed.as_str()).map(|r| r.rating.round().max(0.0) as u32))
    }

    /// `POST /api/tournament/{id}/join`.
    pub async fn join(&self, id: &str, user: &User) -> Result<Doc, Error> {
        let (_, doc) = self.get(id).await?;
        if doc.rated && user.is_guest {
            return Err(Error::new(
                Kind::Forbidden,
                "login_required",
                "计分比赛只有注册用户才能参加",
                "only registered players can join a rated tournament",
            ));
        }
        if user.is_bot {
            return Err(Error::forbidden(
                "not_for_bots",
                "机器人账号不能参加比赛",
                "bot accounts cannot join tournaments",
            ));
        }
        self.check_class_member(&doc, user).await?;
        let rating = self.rating_of(user, &doc).await?;
        let now = crate::time::now_ms() as i64;
        let (doc, ()) = self
            .act(id, |d| {
                if d.system == TournamentSystem::Arena
                    && d.status == TournamentStatus::Running
                    && d.player_of(&user.id).is_some()
                {
                    d.arena_presence(&user.id, false, now)?;
                } else {
                    d.join(Some(user.id.clone()), user.name.clone(), rating, crate::time::now_ms() as i64)?;
                }
                Ok(((), Vec::new()))
            })
            .await?;
        if doc.system == TournamentSystem::Arena {
            self.arena_tick(id).await;
        }
        Ok(doc)
    }

    /// `POST /api/tournament/{id}/leave`: before the start, leave; afterwards, withdraw from the next round on.
    pub async fn leave(&self, id: &str, user: &User) -> Result<Doc, Error> {
        let (doc, ()) = self
            .act(id, |d| {
                if d.status == TournamentStatus::Open {
                    d.leave(&user.id)?;
                } else if d.system == TournamentSystem::Arena {
                    d.arena_presence(&user.id, true, crate::time::now_ms() as i64)?;
                } else {
                    let no = d.player_of(&user.id).map(|p| p.no).ok_or_else(|| {
                        Error::new(Kind::Conflict, "not_joined", "你没有参加这个比赛", "you are not in this tournament")
                    })?;
                    d.withdraw(no)?;
                }
                Ok(((), Vec::new()))
            })
            .await?;
        Ok(doc)
    }

    /// `POST /api/tournament/{id}/player`: the organiser enters a player by name (over the board).
    pub async fn add_player(&self, id: &str, by: &User, name: &str, rating: Option<u32>) -> Result<Doc, Error> {
        let (doc, ()) = self
            .act(id, |d| {
                if !powers(d, Some(by)).organise {
                    return Err(forbidden("只有组织者可以添加棋手", "only the organiser can add players"));
                }
                if d.mode != TournamentMode::Otb {
                    return Err(Error::new(
                        Kind::Conflict,
                        "online_tournament",
                        "网上比赛的棋手须用自己的账号报名",
                        "players of an online tournament join with their own accounts",
                    ));
                }
                if rating.is_some_and(|r| r > 3500) {
                    return Err(Error::bad_request("bad_request", "等级分最多 3500", "a rating is at most 3500"));
                }
                d.join(None, name.to_owned(), rating, crate::time::now_ms() as i64)?;
                Ok(((), Vec::new()))
            })
            .await?;
        Ok(doc)
    }

    /// `POST /api/tournament/{id}/players`: the organiser adds a pasted list ([`doc::parse_player_list`]). Over
    /// the board the names are people's; online they are accounts' (an unknown name is an error on its line), who
    /// enter as if they had joined, with their own rating. All or none.
    pub async fn add_player_list(&self, id: &str, by: &User, text: &str) -> Result<Doc, Error> {
        if text.len() > 64 * 1024 {
            return Err(Error::bad_request("bad_list", "名单太长", "the list is too long"));
        }
        let (_, current) = self.get(id).await?;
        if !powers(&current, Some(by)).organise {
            return Err(forbidden("只有组织者可以添加棋手", "only the organiser can add players"));
        }
        let (listed, mut errors) = doc::parse_player_list(text, &current.players);
        // Online: every name must be an account's; its own rating is used.
        let mut entries: Vec<(Option<String>, String, Option<u32>)> = Vec::new();
        for p in &listed {
            if current.mode == TournamentMode::Otb {
                entries.push((None, p.name.clone(), p.rating));
                continue;
            }
            match self.0.store.user(&guoxiang_store::user_id_of(&p.name)).await? {
                Some(u) if !u.is_guest && !u.is_bot => {
                    if let Some(e) = current.player_of(&u.id) {
                        errors.push(doc::ListError {
                            line: p.line,
                            zh: format!("第 {} 行：{} 已经是 {} 号棋手", p.line, u.name, e.no),
                            en: format!("line {}: {} is already player number {}", p.line, u.name, e.no),
                        });
                    } else if let Some(class) = &current.class
                        && !self.is_class_member(class, &u.id).await?
                    {
                        errors.push(doc::ListError {
                            line: p.line,
                            zh: format!("第 {} 行：{} 不是班级 {class} 的学生", p.line, u.name),
                            en: format!("line {}: {} is not a student of class {class}", p.line, u.name),
                        });
                    } else if entries.iter().any(|(id, _, _)| id.as_deref() == Some(u.id.as_str())) {
                        errors.push(doc::ListError {
                            line: p.line,
                            zh: format!("第 {} 行：{} 重复了", p.line, u.name),
                            en: format!("line {}: {} is listed twice", p.line, u.name),
                        });
                    } else {
                        let rating = self.rating_of(&u, &current).await?;
                        entries.push((Some(u.id.clone()), u.name.clone(), rating));
                    }
                }
                Some(u) if u.is_bot => errors.push(doc::ListError {
                    line: p.line,
                    zh: format!("第 {} 行：{} 是机器人账号，不能参加比赛", p.line, u.name),
                    en: format!("line {}: {} is a bot account and cannot play in tournaments", p.line, u.name),
                }),
                _ => errors.push(doc::ListError {
                    line: p.line,
                    zh: format!("第 {} 行：没有叫「{}」的注册用户", p.line, p.name),
                    en: format!("line {}: there is no registered user {:?}", p.line, p.name),
                }),
            }
        }
        if !errors.is_empty() {
            errors.sort_by_key(|e| e.line);
            let zh: Vec<String> = errors.iter().map(|e| e.zh.clone()).collect();
            let en: Vec<String> = errors.iter().map(|e| e.en.clone()).collect();
            return Err(Error::bad_request("bad_list", zh.join("\n"), en.join("\n")));
        }
        let (doc, ()) = self
            .act(id, |d| {
                for (user_id, name, rating) in &entries {
                    d.join(user_id.clone(), name.clone(), *rating, crate::time::now_ms() as i64)?;
                }
                Ok(((), Vec::new()))
            })
            .await?;
        Ok(doc)
    }

    /// `POST /api/tournament/{id}/arbiter`: the organiser names an arbiter (a registered user).
    pub async fn add_arbiter(&self, id: &str, by: &User, name: &str) -> Result<Doc, Error> {
        let user = self
            .0
            .store
            .user(&guoxiang_store::user_id_of(name.trim()))
            .await?
            .filter(|u| !u.is_guest)
            .ok_or_else(|| Error::not_found(&format!("用户 {name}"), &format!("user {name}")))?;
        let (doc, ()) = self
            .act(id, |d| {
                if !powers(d, Some(by)).organise {
                    return Err(forbidden("只有组织者可以指定裁判", "only the organiser can name arbiters"));
                }
                if !d.is_arbiter(&user.id) {
                    d.arbiters.push((user.id.clone(), user.name.clone()));
                }
                Ok(((), Vec::new()))
            })
            .await?;
        Ok(doc)
    }

    /// `POST /api/tournament/{id}/withdraw`: the organiser or an arbiter withdraws a player — in a round-robin, only one
    /// who does not play in it (the withdrawal forfeits the player's remaining games to their opponents).
    pub async fn withdraw(&self, id: &str, by: &User, no: u32) -> Result<Doc, Error> {
        let (doc, ()) = self
            .act(id, |d| {
                if !powers(d, Some(by)).arbitrate {
                    return Err(forbidden(
                        "只有组织者或裁判可以让棋手退出",
                        "only the organiser or an arbiter can withdraw a player",
                    ));
                }
                // A round-robin forfeits the withdrawn player's remaining games, one of them maybe against `by`.
                let round_robin = matches!(d.system, TournamentSystem::RoundRobin | TournamentSystem::DoubleRoundRobin);
                if round_robin && d.player_of(&by.id).is_some_and(|me| me.no != no) {
                    return Err(own_board());
                }
                d.withdraw(no)?;
                Ok(((), Vec::new()))
            })
            .await?;
        Ok(doc)
    }

    /// `POST /api/tournament/{id}/forbid`: the organiser or an arbiter keeps two players apart (a Swiss).
    pub async fn forbid(&self, id: &str, by: &User, a: u32, b: u32) -> Result<Doc, Error> {
        let (doc, ()) = self
            .act(id, |d| {
                if !powers(d, Some(by)).arbitrate {
                    return Err(forbidden("只有组织者或裁判可以指定", "only the organiser or an arbiter can do this"));
                }
                d.forbid(a, b)?;
                Ok(((), Vec::new()))
            })
            .await?;
        Ok(doc)
    }

    /// `POST /api/tournament/{id}/bye`: a half-point bye in the next round, asked by the player (or entered by the
    /// organiser or an arbiter).
    pub async fn request_bye(&self, id: &str, by: &User, no: u32) -> Result<Doc, Error> {
        let (doc, _) = self
            .act(id, |d| {
                let own = d.player_of(&by.id).is_some_and(|p| p.no == no);
                if !own && !powers(d, Some(by)).arbitrate {
                    return Err(forbidden("只能为自己请假", "you can ask for a bye for yourself only"));
                }
                Ok((d.request_bye(no)?, Vec::new()))
            })
            .await?;
        Ok(doc)
    }

    /// Online tournaments whose start time has come are started (with at least two players; otherwise they wait
    /// for the organiser).
    async fn scheduled_starts(&self) {
        let now = crate::time::now_ms() as i64;
        let Ok(rows) = self.0.store.tournaments(&["open"], 1000).await else { return };
        for row in rows {
            let Ok(doc) = serde_json::from_str::<Doc>(&row.data) else { continue };
            if doc.starts_at_ms.is_none_or(|at| at > now) || doc.players.len() < 2 {
                continue;
            }
            let started = self
                .act(&row.id, |d| {
                    d.start(now)?;
                    Ok(((), Vec::new()))
                })
                .await;
            match started {
                Ok((d, ())) if d.system == TournamentSystem::Arena => self.arena_tick(&row.id).await,
                Ok(_) => {
                    if let Err(e) = self.pair_next(&row.id, None).await {
                        tracing::warn!("tournament {}: round 1: {}", row.id, e.en);
                    }
                }
                Err(e) => tracing::warn!("tournament {}: the scheduled start: {}", row.id, e.en),
            }
        }
    }

    /// `POST /api/tournament/{id}/start`: starting ranks are given and the first round is paired (online, its games
    /// start).
    pub async fn start(&self, id: &str, by: &User) -> Result<Doc, Error> {
        self.act(id, |d| {
            if !powers(d, Some(by)).organise {
                return Err(forbidden("只有组织者可以开始比赛", "only the organiser can start the tournament"));
            }
            d.start(crate::time::now_ms() as i64)?;
            Ok(((), Vec::new()))
        })
        .await?;
        let (_, doc) = self.get(id).await?;
        if doc.system == TournamentSystem::Arena {
            self.arena_tick(id).await;
            return Ok(self.get(id).await?.1);
        }
        self.pair_next(id, None).await
    }

    /// Pairs an arena's waiting players and creates their games; past its end, finishes it.
    pub async fn arena_tick(&self, id: &str) {
        let now = crate::time::now_ms() as i64;
        let done = self
            .act(id, |d| {
                let new = d.arena_pair(now)?;
                let mut games = Vec::new();
                if let Some(a) = d.arena.as_mut() {
                    for i in new {
                        if let doc::ArenaEvent::Pair { game_id, .. } = &mut a.events[i] {
                            let g = new_game_id();
                            games.push(TournamentGameRow {
                                game_id: g.clone(),
                                tournament_id: id.to_owned(),
                                round: 0,
                                board: i as i64,
                            });
                            *game_id = Some(g);
                        }
                    }
                }
                Ok((!games.is_empty(), games))
            })
            .await;
        match done {
            Ok((doc, true)) => self.create_games(id, &doc).await,
            Ok(_) => {}
            Err(e) => tracing::warn!("arena {id}: {}", e.en),
        }
    }

    /// `POST /api/tournament/{id}/pair`, and the timer's: pairs the next round and, online, creates its games.
    /// `by` is `None` for the server itself.
    ///
    /// With the presence check, the server's own pairing (`by` `None`) waits while a round-robin has an absent
    /// player or a Swiss fewer than two present, looking again every few seconds; a Swiss pairs its present
    /// players and the absent sit the round out. The organiser's pairing does not wait.
    pub async fn pair_next(&self, id: &str, by: Option<&User>) -> Result<Doc, Error> {
        let now = crate::time::now_ms() as i64;
        let (_, current) = self.get(id).await?;
        let absent = self.absent_now(id, &current, now);
        if by.is_none() && current.checks_presence() && current.can_pair().is_ok() {
            let present = current.expected_next().len() - absent.len();
            let wait = match current.system {
                TournamentSystem::Swiss => present < 2,
                _ => !absent.is_empty(),
            };
            if wait {
                return self.wait_for_presence(id, now).await;
            }
        }
        let (doc, ()) = self
            .act(id, |d| {
                if let Some(u) = by
                    && !powers(d, Some(u)).arbitrate
                {
                    return Err(forbidden(
                        "只有组织者或裁判可以编排下一轮",
                        "only the organiser or an arbiter can pair a round",
                    ));
                }
                d.pair_next(now, &absent)?;
                let number = d.round_list.len() as u32;
                let mut games = Vec::new();
                if d.mode == TournamentMode::Online {
                    let round = d.round_list.last_mut().expect("just paired");
                    for (i, b) in round.boards.iter_mut().enumerate() {
                        if b.result.is_none() {
                            let game_id = new_game_id();
                            games.push(TournamentGameRow {
                                game_id: game_id.clone(),
                                tournament_id: id.to_owned(),
                                round: i64::from(number),
                                board: i as i64 + 1,
                            });
                            b.game_id = Some(game_id);
                        }
                    }
                }
                d.after_round();
                Ok(((), games))
            })
            .await?;
        if doc.mode == TournamentMode::Online {
            self.create_games(id, &doc).await;
            // A round-robin round of forfeits only (withdrawn players) is over as soon as it is paired.
            if doc.round_list.last().is_some_and(doc::Round::finished) {
                self.round_finished(id, &doc).await;
            }
        }
        Ok(doc)
    }

    /// The presence check holds the next round back: it is looked at again in a few seconds.
    async fn wait_for_presence(&self, id: &str, now: i64) -> Result<Doc, Error> {
        let at = now + PRESENCE_RETRY_MS;
        let (doc, ()) = self
            .act(id, |d| {
                d.next_round_at_ms = Some(at);
                Ok(((), Vec::new()))
            })
            .await?;
        self.due_at(id, at);
        Ok(doc)
    }

    /// Sends the tournament to [`Tournaments::next_round_due`] at `due`.
    fn due_at(&self, id: &str, due: i64) {
        let tx = self.0.due.clone();
        let id = id.to_owned();
        tokio::spawn(async move {
            let wait = (due - crate::time::now_ms() as i64).max(0) as u64;
            tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
            // The server stopping has nobody to pair for.
            let _ = tx.send((id, due));
        });
    }

    /// Creates the games of the current round that are not in the store yet.
    async fn create_games(&self, id: &str, doc: &Doc) {
        let rules = Rules::parse(&doc.rules).unwrap_or(Rules::ONLINE);
        let Ok(tc) = crate::live::parse_time_control(&doc.time_control) else {
            tracing::warn!("tournament {id}: its time control {} cannot be read", doc.time_control);
            return;
        };
        // The current round's games without a result, or an arena's games being played.
        let mut pending: Vec<(String, u32, u32)> = doc
            .round_list
            .last()
            .map(|r| {
                r.boards
                    .iter()
                    .filter(|b| b.result.is_none())
                    .filter_map(|b| b.game_id.clone().map(|g| (g, b.white, b.black)))
                    .collect()
            })
            .unwrap_or_default();
        if let Some(a) = &doc.arena {
            let open = doc.arena_open_games();
            pending.extend(a.events.iter().filter_map(|e| match e {
                doc::ArenaEvent::Pair { white, black, game_id: Some(g), .. } if open.contains(g) => {
                    Some((g.clone(), *white, *black))
                }
                _ => None,
            }));
        }
        for (game_id, white_no, black_no) in &pending {
            match self.0.store.game(game_id).await {
                Ok(Some(_)) => continue,
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!("tournament {id}: game {game_id}: {e}");
                    continue;
                }
            }
            let player = |no: u32| {
                doc.player(no).map(|p| PlayerRef::human(p.user_id.clone().unwrap_or_default(), p.name.clone()))
            };
            let (Some(white), Some(black)) = (player(*white_no), player(*black_no)) else { continue };
            let game = NewGame {
                white,
                black,
                rated: doc.rated,
                time_control: tc.clone(),
                variant: Variant::Standard,
                source: Source::Tournament,
                rules,
            };
            // Arenas keep the server's first-move time (lichess's); the other systems have the organiser's grace.
            let grace = (doc.system != TournamentSystem::Arena).then(|| u64::from(doc.first_move_grace_s()) * 1000);
            if let Err(e) = self.0.live.create_game_with_first_move(game_id.clone(), game, grace).await {
                // Left for the organiser or an arbiter to decide (a result can be entered for any board).
                tracing::warn!("tournament {id}: game {game_id} cannot be created: {e}");
            }
        }
    }

    /// `POST /api/tournament/{id}/result`: the organiser or an arbiter enters (or corrects) a board's result — never
    /// on a board they play ([`own_board`]).
    pub async fn enter_result(
        &self,
        id: &str,
        by: &User,
        round: u32,
        board: u32,
        result: TournamentResult,
    ) -> Result<Doc, Error> {
        let (doc, finished) = self
            .act(id, |d| {
                if !powers(d, Some(by)).arbitrate {
                    return Err(forbidden(
                        "只有组织者或裁判可以登记结果",
                        "only the organiser or an arbiter can enter results",
                    ));
                }
                if d.status == TournamentStatus::Open {
                    return Err(Error::new(
                        Kind::Conflict,
                        "not_running",
                        "比赛还没有开始",
                        "the tournament has not started",
                    ));
                }
                if plays_on_board(d, &by.id, round, board) {
                    return Err(own_board());
                }
                let finished = d.set_result(round, board, result)?;
                if finished && round as usize == d.round_list.len() {
                    d.after_round();
                }
                Ok((finished, Vec::new()))
            })
            .await?;
        if finished {
            self.round_finished(id, &doc).await;
        }
        Ok(doc)
    }

    /// A game ended: if a tournament created it, its result goes on the board.
    async fn game_finished(&self, game_id: &str) -> Result<(), Error> {
        let Some(link) = self.0.store.tournament_of_game(game_id).await? else { return Ok(()) };
        self.reconcile(&link.tournament_id).await
    }

    /// Brings a running tournament up to date with its games: results of finished games, games not created yet
    /// (after a crash), and the next round when it is due.
    pub async fn reconcile(&self, id: &str) -> Result<(), Error> {
        let (_, doc) = self.get(id).await?;
        if doc.status != TournamentStatus::Running {
            return Ok(());
        }
        if doc.system == TournamentSystem::Arena {
            let mut results = Vec::new();
            for game_id in doc.arena_open_games() {
                if let Some((row, moves)) = self.0.store.game(&game_id).await?
                    && let Some(result) = result_of_game(&row.status, row.result.as_deref(), moves.len())
                {
                    results.push((game_id, result, moves.len() as u32, row.ended_at_ms));
                }
            }
            if !results.is_empty() {
                let now = crate::time::now_ms() as i64;
                self.act(id, |d| {
                    for (g, result, plies, ended) in &results {
                        d.arena_result(g, *result, *plies, ended.unwrap_or(now));
                    }
                    Ok(((), Vec::new()))
                })
                .await?;
            } else {
                self.create_games(id, &doc).await;
            }
            self.arena_tick(id).await;
            return Ok(());
        }
        let mut results = Vec::new();
        for (r, round) in doc.round_list.iter().enumerate() {
            for (i, b) in round.boards.iter().enumerate() {
                let (None, Some(game_id)) = (b.result, &b.game_id) else { continue };
                if let Some((row, moves)) = self.0.store.game(game_id).await?
                    && let Some(result) = result_of_game(&row.status, row.result.as_deref(), moves.len())
                {
                    results.push((r as u32 + 1, i as u32 + 1, result));
                }
            }
        }
        if !results.is_empty() {
            let (doc, finished) = self
                .act(id, |d| {
                    let mut finished = false;
                    for &(r, b, res) in &results {
                        let board = &d.round_list[r as usize - 1].boards[b as usize - 1];
                        if board.result.is_none() {
                            finished |= d.set_result(r, b, res)? && r as usize == d.round_list.len();
                        }
                    }
                    if finished {
                        d.after_round();
                    }
                    Ok((finished, Vec::new()))
                })
                .await?;
            if finished {
                self.round_finished(id, &doc).await;
            }
            return Ok(());
        }
        if doc.mode == TournamentMode::Online {
            self.create_games(id, &doc).await;
            if doc.round_list.last().is_some_and(doc::Round::finished) {
                self.round_finished(id, &doc).await;
            } else if let (true, Some(at)) = (doc.round_list.is_empty(), doc.next_round_at_ms)
                && doc.status == TournamentStatus::Running
            {
                // Round 1 was waiting for the players to be present: the wait goes on.
                self.due_at(id, at);
            }
        }
        Ok(())
    }

    /// After the last result of a round: online, the next round is paired after the pause.
    async fn round_finished(&self, id: &str, doc: &Doc) {
        if doc.mode != TournamentMode::Online || doc.status != TournamentStatus::Running {
            return;
        }
        let now = crate::time::now_ms() as i64;
        let due = match doc.next_round_at_ms {
            Some(at) => at,
            None => {
                let at = now + doc.round_gap_ms as i64;
                let set = self
                    .act(id, |d| {
                        if d.next_round_at_ms.is_none() && d.can_pair().is_ok() {
                            d.next_round_at_ms = Some(at);
                        }
                        Ok(((), Vec::new()))
                    })
                    .await;
                if let Err(e) = set {
                    tracing::warn!("tournament {id}: {}", e.en);
                }
                at
            }
        };
        self.due_at(id, due);
    }

    /// A pause's timer rang: the next round is paired, unless another timer or the organiser has paired it.
    async fn next_round_due(&self, id: &str, due: i64) {
        match self.get(id).await {
            Ok((_, d)) if d.next_round_at_ms == Some(due) && d.can_pair().is_ok() => {
                if let Err(e) = self.pair_next(id, None).await {
                    tracing::warn!("tournament {id}: the next round: {}", e.en);
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("tournament {id}: {}", e.en),
        }
    }

    /// Every game of the tournament in PGN, round by round, with `Event` and `Round` (`round.board`).
    pub async fn pgn(&self, id: &str, public_url: &str) -> Result<String, Error> {
        let (_, doc) = self.get(id).await?;
        let mut out = String::new();
        for (r, round) in doc.round_list.iter().enumerate() {
            for (i, b) in round.boards.iter().enumerate() {
                let Some(game_id) = &b.game_id else { continue };
                let Some((row, moves)) = self.0.store.game(game_id).await? else { continue };
                let at = EventTags { event: Some(doc.name.clone()), round: Some(format!("{}.{}", r + 1, i + 1)) };
                let pgn = crate::archive::game_pgn(public_url, &row, &moves, PgnOptions::default(), at)
                    .map_err(|e| Error::internal("pgn", e))?;
                out.push_str(&pgn);
            }
        }
        Ok(out)
    }
}

/// A stored tournament's document.
pub fn stored_doc(row: &TournamentRow) -> Result<Doc, serde_json::Error> {
    serde_json::from_str(&row.data)
}

/// The board's result of a stored game: a finished game's result; an aborted game (the first-move timeout: a
/// player of a tournament game cannot abort it) is lost by forfeit by the player who did not move — White when
/// there is no move, Black after White's first. `None` while it is being played.
pub fn result_of_game(status: &str, result: Option<&str>, moves: usize) -> Option<TournamentResult> {
    match (status, result) {
        ("finished", Some("1-0")) => Some(TournamentResult::WhiteWins),
        ("finished", Some("0-1")) => Some(TournamentResult::BlackWins),
        ("finished", Some("1/2-1/2")) => Some(TournamentResult::Draw),
        ("aborted", _) => {
            Some(if moves == 0 { TournamentResult::BlackForfeitWin } else { TournamentResult::WhiteForfeitWin })
        }
        _ => None,
    }
}

fn status_name(s: TournamentStatus) -> &'static str {
    match s {
        TournamentStatus::Open => "open",
        TournamentStatus::Running => "running",
        TournamentStatus::Finished => "finished",
    }
}
