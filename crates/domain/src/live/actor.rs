//! The per-game actor: the only code that changes a live game.
//!
//! Every change follows the same path: apply the command to a copy of the [`Game`] → write what changed (moves,
//! state, result, ratings) through the group-commit writer and wait for the commit → take the copy as the game →
//! broadcast the events → answer the sender. So nobody, not even the opponent, sees a move that a crash could lose,
//! and a commit that fails changes nothing: the command is refused (`not_saved`) and the game is as it was. Changes
//! no client waits for (flag fall, connection changes, the computer's move) are kept and committed again after a
//! back-off. Timers (flag fall, first-move timeout, retries) are the actor's own `sleep_until`.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use guoxiang_core::{Color, Role, Square};
use guoxiang_game::{Action, Command, Event, Game, MoveInput, MoveRecord, StateRecord, Status, Timestamp};
use guoxiang_protocol::ServerMessage;
use guoxiang_store::{GameRow, MoveRow, WriteOp};
use tokio::sync::{broadcast, mpsc};

use super::GameError;
use super::wire::Request;
use super::{ActorMsg, Answer, GameHandle, GameView, Live, Services, Subscription, Update, engine_player};
use crate::hub::UserEvent;
use crate::time;

/// The game's state for the database: a [`guoxiang_game::StateRecord`] (the snapshot without its moves, which are
/// rows of their own), as JSON.
fn state_json(game: &Game, now: Timestamp) -> String {
    serde_json::to_string(&game.state_record(now)).unwrap_or_default()
}

fn status_str(s: &Status) -> &'static str {
    match s {
        Status::Created | Status::Started => "live",
        Status::Finished { .. } => "finished",
        Status::Aborted { .. } => "aborted",
    }
}

/// The row of a new game.
pub(super) fn game_row(game: &Game, now: Timestamp) -> GameRow {
    GameRow {
        id: game.id().to_owned(),
        white_id: game.white().id.clone(),
        white_name: game.white().name.clone(),
        black_id: game.black().id.clone(),
        black_name: game.black().name.clone(),
        white_engine_level: game.white().engine_level.map(i64::from),
        black_engine_level: game.black().engine_level.map(i64::from),
        rated: game.rated(),
        time_control: game.time_control().to_pgn(),
        speed: game.time_control().speed().as_str().to_owned(),
        variant_json: serde_json::to_string(game.variant()).unwrap_or_default(),
        status: status_str(&game.status()).to_owned(),
        result: None,
        termination: None,
        winner: None,
        created_at_ms: game.created_at().0 as i64,
        ended_at_ms: None,
        state_json: state_json(game, now),
        version: game.version() as i64,
        white_rating: None,
        black_rating: None,
        white_rating_diff: None,
        black_rating_diff: None,
        white_points_diff: None,
        black_points_diff: None,
    }
}

fn move_row(game_id: &str, ply: usize, m: &MoveRecord) -> MoveRow {
    MoveRow {
        game_id: game_id.to_owned(),
        ply: ply as i64,
        uci: m.uci.to_string(),
        san: m.san.to_string(),
        at_ms: m.at.0 as i64,
        clock_ms: m.clock_ms.map(|c| c as i64),
        used_ms: m.used_ms as i64,
    }
}

/// A game from its row and moves, resumed at `now` without charging the downtime.
pub(super) fn restore(row: &GameRow, moves: &[MoveRow], now: Timestamp) -> Result<Game, String> {
    let record: StateRecord = serde_json::from_str(&row.state_json).map_err(|e| format!("stored state: {e}"))?;
    let start_turn = record.state.variant.start_position().map_err(|e| e.message(guoxiang_core::Lang::En))?.turn();
    let records: Vec<MoveRecord> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| MoveRecord {
            by: if i % 2 == 0 { start_turn } else { !start_turn },
            uci: guoxiang_game::move_text(&m.uci),
            san: guoxiang_game::move_text(&m.san),
            at: Timestamp(m.at_ms.max(0) as u64),
            clock_ms: m.clock_ms.map(|c| c.max(0) as u64),
            used_ms: m.used_ms.max(0) as u64,
        })
        .collect();
    Game::restore_record(record, records, now).map_err(|e| e.message(guoxiang_core::Lang::En))
}

/// The writes of one command's change: the game had `before_moves` moves and was over or not (`was_over`) before
/// it, and is `after` now.
fn write_ops(
    before_moves: usize,
    was_over: bool,
    after: &Game,
    events: &[guoxiang_game::VersionedEvent],
    now: Timestamp,
) -> Vec<WriteOp> {
    let id = after.id().to_owned();
    let mut ops = Vec::new();
    let moves = after.moves();
    if moves.len() < before_moves || events.iter().any(|e| matches!(e.event, Event::TakebackDone { .. })) {
        ops.push(WriteOp::TruncateMoves { game_id: id.clone(), keep_plies: moves.len() as i64 });
    }
    let first_new = if moves.len() > before_moves { before_moves } else { moves.len() };
    let new: Vec<MoveRow> =
        moves[first_new..].iter().enumerate().map(|(i, m)| move_row(&id, first_new + i + 1, m)).collect();
    if !new.is_empty() {
        ops.push(WriteOp::AppendMoves { game_id: id.clone(), moves: new });
    }
    let state = state_json(after, now);
    if after.is_over() && !was_over {
        let status = after.status();
        let (result, termination, winner) = match status {
            Status::Finished { outcome } => (
                Some(outcome.result().to_owned()),
                Some(outcome.termination.code().to_owned()),
                outcome.winner.map(super::view::color_str),
            ),
            _ => (None, Some("aborted".to_owned()), None),
        };
        ops.push(WriteOp::FinishGame {
            game_id: id,
            status: status_str(&status).to_owned(),
            result,
            termination,
            winner,
            ended_at_ms: now.0 as i64,
            state_json: state,
            version: after.version() as i64,
        });
    } else {
        ops.push(WriteOp::UpdateGameState { game_id: id, state_json: state, version: after.version() as i64 });
    }
    ops
}

/// A change that no client waits for, kept to be committed again after a failed commit.
#[derive(Clone, Debug)]
enum Retry {
    Command(Command),
    /// The computer's move for the game at `version`.
    EngineMove {
        version: u64,
        uci: String,
    },
}

/// The first wait after a failed commit; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(50);
const MAX_BACKOFF: Duration = Duration::from_secs(2);

struct Actor {
    live: Live,
    /// Everything else the actor asks of the server: notifications, game creation, ratings, the aftermath.
    services: Services,
    handle: GameHandle,
    game: Game,
    tx: broadcast::Sender<Arc<Update>>,
    /// Open connections of each player (`[white, black]`) following the game.
    presence: [u32; 2],
    engine_thinking_at: Option<u64>,
    finished_at: Option<tokio::time::Instant>,
    self_tx: mpsc::WeakSender<Box<ActorMsg>>,
    /// Cloned by the followers that want a [`GameView`] with every update; more than one holder: build views.
    view_interest: Arc<()>,
    /// Changes whose commit failed, to be tried again in order.
    retry: std::collections::VecDeque<Retry>,
    /// After a failed commit: no timer work before this.
    hold_until: Option<tokio::time::Instant>,
    backoff: Duration,
    /// In a cluster: a write was refused by the game's fence, or the node's renewal found the game taken over.
    /// Another node owns the game now; this actor stops without writing anything more.
    disowned: bool,
}

fn idx(c: Color) -> usize {
    c.fold(0, 1)
}

pub(super) async fn run(live: Live, handle: GameHandle, game: Game, mut rx: mpsc::Receiver<Box<ActorMsg>>) {
    let mut a = Actor::new(live, handle, game);
    a.publish();
    a.maybe_engine();
    let linger = Duration::from_millis(a.live.inner.timeouts.linger_ms);
    loop {
        if a.disowned {
            tracing::warn!("game {}: another node owns it now; stopped here", a.game.id());
            break;
        }
        let deadline = match a.finished_at {
            Some(t) => Some(t + linger),
            None => a.next_wakeup(),
        };
        let msg = tokio::select! {
            m = rx.recv() => m,
            _ = sleep_opt(deadline) => {
                if a.finished_at.is_some() {
                    break;
                }
                Box::pin(a.on_timer()).await;
                continue;
            }
        };
        let Some(msg) = msg else { break };
        if a.on_message(*msg).await.is_break() {
            return;
        }
    }
    a.live.unregister(a.game.id());
    if !a.disowned {
        // In a cluster: a finished game's lease is dropped, a live one's (a shutdown) handed over at once.
        a.live.let_go(a.game.id(), a.game.is_over()).await;
    }
}

impl Actor {
    /// A new game's actor, nothing published yet.
    fn new(live: Live, handle: GameHandle, game: Game) -> Actor {
        // A follower more than 16 updates behind resyncs from a snapshot; every slot holds its last update, so the
        // ring is kept short.
        let (tx, _) = broadcast::channel(16);
        let finished_at = game.is_over().then(tokio::time::Instant::now);
        let self_tx = handle.tx.downgrade();
        Actor {
            services: live.services().clone(),
            live,
            handle,
            game,
            tx,
            presence: [0, 0],
            engine_thinking_at: None,
            finished_at,
            self_tx,
            view_interest: Arc::new(()),
            retry: Default::default(),
            hold_until: None,
            backoff: FIRST_BACKOFF,
            disowned: false,
        }
    }

    /// One message from outside; `Break` once a shutdown is done and the actor is to end at once.
    async fn on_message(&mut self, msg: ActorMsg) -> ControlFlow<()> {
        // Every `reply.send` below fails only when the asker stopped waiting (a closed connection): nothing to do.
        match msg {
            ActorMsg::Request { req, answer } => self.on_request(req, answer).await,
            ActorMsg::Explain { from, to, promotion, reply } => {
                let _ = reply.send(self.explain(&from, &to, promotion));
            }
            ActorMsg::EngineMove { version, uci } => Box::pin(self.engine_move(version, uci)).await,
            ActorMsg::Disown => self.disowned = true,
            ActorMsg::Shutdown { reply } => {
                self.shut_down().await;
                let _ = reply.send(());
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// A request of this node's transports or of another node, answered in the form the asker wants.
    async fn on_request(&mut self, req: Request, answer: Answer) {
        match req {
            Request::Command { user_id, action, lag_ms } => {
                // Boxed, as the other changes below: the commit's futures are large, and inline they would be part
                // of every idle game's task.
                answer.outcome(Box::pin(self.command(&user_id, action, lag_ms)).await);
            }
            Request::Arbiter { arbiter, act } => {
                answer.outcome(Box::pin(self.apply(Command::Arbiter { arbiter, act })).await);
            }
            Request::Subscribe { since } => {
                let with_view = answer.with_view();
                answer.subscription(self.subscribe(since, with_view));
            }
            Request::Presence { user_id, delta } => {
                Box::pin(self.presence(&user_id, delta)).await;
                answer.outcome(Ok(()));
            }
            Request::View => answer.view(Arc::new(GameView::of(&self.game, time::now()))),
            Request::Snapshot => answer.snapshot(self.game.snapshot(time::now())),
            // A game is created by the node asked to (`live::serve_game_request`), never by a game.
            Request::CreateGame { .. } => answer.outcome(Err(super::gone(self.game.id()))),
        }
    }

    /// The server stops: the exact clocks saved, the game's lease handed over and the game out of the registry.
    async fn shut_down(&mut self) {
        // Persist the exact clocks; the game resumes from here after the restart.
        let now = time::now();
        let op = WriteOp::UpdateGameState {
            game_id: self.game.id().to_owned(),
            state_json: state_json(&self.game, now),
            version: self.game.version() as i64,
        };
        if !self.game.is_over()
            && let Err(e) = self.live.write_game(self.game.id(), vec![op]).await
        {
            // The last committed state stands; the clocks then charge the downtime since it.
            tracing::error!("shutdown: the clocks of game {} were not saved: {e}", self.game.id());
        }
        // In a cluster the lease is handed over before the shutdown goes on, so that another node takes the game at
        // once.
        self.live.let_go(self.game.id(), self.game.is_over()).await;
        // Out of the registry before the shutdown is told it is done (it may look right after).
        self.live.unregister(self.game.id());
    }
}

async fn sleep_opt(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

fn parse_square(s: &str) -> Result<Square, GameError> {
    Square::parse(s).ok_or_else(|| GameError::BadSquare { text: s.to_owned() })
}

impl Actor {
    fn color_of(&self, user_id: &str) -> Result<Color, GameError> {
        self.handle.color_of(user_id).ok_or(GameError::NotAPlayer)
    }

    async fn command(&mut self, user_id: &str, action: Action, lag_ms: u64) -> Result<(), GameError> {
        let by = self.color_of(user_id)?;
        let lag_ms = if matches!(action, Action::Move { .. }) { lag_ms.min(10_000) } else { 0 };
        let takeback = matches!(action, Action::TakebackOffer);
        self.apply(Command::Player { by, action, lag_ms }).await?;
        // The computer agrees to take back at once.
        if takeback && self.game.player(!by).is_engine && self.game.takeback_offer() == Some(by) {
            self.engine_thinking_at = None;
            self.apply_internal(Retry::Command(Command::by(!by, Action::TakebackAccept))).await;
        }
        Ok(())
    }

    /// Applies a command, commits what changed, and only then broadcasts and answers. A refused command, or one
    /// whose commit fails, leaves the game exactly as it was (it is put back from a checkpoint taken before the
    /// command, whose cost does not grow with the game): a failed commit is refused with `not_saved` (503), and the
    /// client may send the command again.
    async fn apply(&mut self, cmd: Command) -> Result<(), GameError> {
        let now = time::now();
        let checkpoint = self.game.checkpoint();
        let (plies_before, was_over, was_rated) = (self.game.moves().len(), self.game.is_over(), self.game.rated());
        let events = match self.game.apply(now, cmd) {
            Ok(events) if !events.is_empty() => events,
            // A change that says nothing (presence in a finished game) is not kept: nothing was committed.
            result => {
                self.revert(checkpoint);
                return result.map(|_| ()).map_err(GameError::Refused);
            }
        };
        let id = self.game.id().to_owned();
        let mut ops = write_ops(plies_before, was_over, &self.game, &events, now);
        // An arbiter's result before both players moved: stored as unrated (`Game::rated`).
        if was_rated && !self.game.rated() {
            ops.push(WriteOp::Unrate { game_id: id.clone() });
        }
        let over = self.game.is_over();
        // Only the command that ends the game has a result to rate (after it, rematch offers still change it).
        let ends = over && !was_over;
        // Rated results are read-modify-write on two players' ratings: one result per player at a time, from reading
        // the ratings to committing the new ones (per-player locks; other players' results go on).
        let ratings = self.services.ratings.clone();
        let ratings_lock = if ends && self.game.rated() {
            Some(ratings.lock(&self.game.white().id, &self.game.black().id).await)
        } else {
            None
        };
        if ratings_lock.is_some()
            && let Status::Finished { outcome } = self.game.status()
        {
            match ratings.result_writes(&self.game, &outcome, now).await {
                Ok(more) => ops.extend(more),
                Err(e) => {
                    drop(ratings_lock);
                    self.revert(checkpoint);
                    return Err(GameError::not_saved(format!("ratings of game {id}"), e));
                }
            }
        }
        let written = self.live.write_game(&id, ops).await;
        drop(ratings_lock);
        if let Err(e) = written {
            self.revert(checkpoint);
            if e.is_fenced() {
                self.disowned = true;
                self.live.clear_epoch(&id);
            }
            return Err(GameError::not_saved(format!("commit of game {id}"), e));
        }
        // Committed: from here on the change is the game's.
        self.hold_until = None;
        self.backoff = FIRST_BACKOFF;
        if over {
            self.retry.clear();
        }
        if over && self.finished_at.is_none() {
            self.finished_at = Some(tokio::time::Instant::now());
            self.handle.set_over();
            for c in [Color::White, Color::Black] {
                let p = self.game.player(c);
                if !p.is_engine {
                    self.services.notifier.notify(&p.id, UserEvent::GameFinished { game_id: id.clone() });
                }
            }
            self.services.aftermath.game_over(&self.game);
        }
        self.rematch_follow_up(&events);
        self.broadcast(events, now);
        self.publish();
        self.maybe_engine();
        Ok(())
    }

    /// Puts the game back as it was before the command being applied (see [`Game::checkpoint`]).
    fn revert(&mut self, checkpoint: guoxiang_game::Checkpoint) {
        if !self.game.revert(checkpoint) {
            // No single command takes back more moves than a checkpoint keeps.
            tracing::error!("game {}: a command could not be reverted", self.game.id());
        }
    }

    /// What the server does about a rematch the game agreed to or a player offered or declined: the opponent is
    /// told wherever they are (not only on the game's page), and an agreed rematch is created with colours swapped.
    fn rematch_follow_up(&self, events: &[guoxiang_game::VersionedEvent]) {
        let game_id = self.game.id().to_owned();
        for e in events {
            match e.event {
                Event::RematchOffered { by } | Event::RematchDeclined { by } => {
                    let opponent = self.game.player(!by);
                    if opponent.is_engine {
                        continue;
                    }
                    let event = if matches!(e.event, Event::RematchOffered { .. }) {
                        UserEvent::RematchOffered { game_id: game_id.clone(), by }
                    } else {
                        UserEvent::RematchDeclined { game_id: game_id.clone(), by }
                    };
                    self.services.notifier.notify(&opponent.id, event);
                }
                Event::RematchAgreed => {
                    let fresh = |p: &guoxiang_game::PlayerRef| {
                        if p.is_engine { engine_player(p.engine_level.unwrap_or(1)) } else { p.clone() }
                    };
                    let (white, black) = (fresh(self.game.black()), fresh(self.game.white()));
                    let tc = self.game.time_control().clone();
                    let variant = self.game.variant().clone();
                    let rated = self.game.rated();
                    let source = self.game.source();
                    let rules = self.game.rules();
                    let games = self.services.games.clone();
                    let of = game_id.clone();
                    // Creating the game goes through the writer; do it outside this actor's turn so no lock is held.
                    tokio::spawn(async move {
                        let new = super::NewGame { white, black, rated, time_control: tc, variant, source, rules };
                        if let Err(e) = games.create_game(new).await {
                            tracing::error!("rematch of game {of}: {e}");
                        }
                    });
                }
                _ => {}
            }
        }
    }

    /// The game's entry in the live list: there while it is being played, that is not over and with at least one of
    /// its human players connected (a game everyone left is not "being played", even before it ends).
    fn publish(&self) {
        let someone_here = [Color::White, Color::Black]
            .into_iter()
            .any(|c| !self.game.player(c).is_engine && self.presence[idx(c)] > 0);
        let playing = someone_here && matches!(self.game.status(), Status::Created | Status::Started);
        let summary = playing.then(|| {
            let g = &self.game;
            let game = guoxiang_protocol::LiveGame {
                game_id: g.id().to_owned(),
                white: guoxiang_protocol::Player::from(g.white()),
                black: guoxiang_protocol::Player::from(g.black()),
                time_control: g.time_control().to_pgn(),
                rated: g.rated(),
                fen: g.position().fen(),
                last_move: g.moves().last().map(|m| m.uci.to_string()),
                spectators: 0,
            };
            (g.created_at().0, game)
        });
        self.live.publish(self.game.id(), summary);
    }

    /// Applies a command that no client waits for (a timer, a connection change, the computer's move). If its
    /// commit fails it is kept and tried again after a back-off, in order, until the store takes it.
    async fn apply_internal(&mut self, r: Retry) {
        if !self.retry.is_empty() {
            // Keep the order: an earlier change still waits.
            self.retry.push_back(r);
            return;
        }
        if let Err(e) = self.apply_retry(&r).await {
            if e.is_not_saved() {
                self.retry.push_back(r);
                self.back_off();
            } else {
                tracing::error!("game {}: {:?} refused: {e}", self.game.id(), r);
            }
        }
    }

    async fn apply_retry(&mut self, r: &Retry) -> Result<(), GameError> {
        match r {
            Retry::Command(c) => self.apply(c.clone()).await,
            Retry::EngineMove { version, uci } => {
                if self.game.version() != *version {
                    return Ok(()); // stale: the game went on without it
                }
                let by = self.game.turn();
                self.apply(Command::play(by, MoveInput::Uci(uci.clone()))).await
            }
        }
    }

    /// The timer fired: first what waits to be committed again, then flags and timeouts.
    async fn on_timer(&mut self) {
        while let Some(r) = self.retry.front().cloned() {
            match self.apply_retry(&r).await {
                Ok(()) => {
                    self.retry.pop_front();
                }
                Err(e) if e.is_not_saved() => {
                    self.back_off();
                    return;
                }
                Err(e) => {
                    tracing::error!("game {}: {r:?} refused on retry: {e}", self.game.id());
                    self.retry.pop_front();
                }
            }
        }
        if let Err(e) = self.apply(Command::Tick).await {
            if e.is_not_saved() {
                self.back_off();
            } else {
                tracing::error!("game {}: tick refused: {e}", self.game.id());
            }
        }
    }

    /// The store refused a write: wait before the next try, longer each time (up to [`MAX_BACKOFF`]).
    fn back_off(&mut self) {
        self.hold_until = Some(tokio::time::Instant::now() + self.backoff);
        self.backoff = (self.backoff * 2).min(MAX_BACKOFF);
    }

    /// When the actor next has to act on its own: a clock deadline (not before the back-off ends), or the end of
    /// the back-off if a change waits to be committed again.
    fn next_wakeup(&self) -> Option<tokio::time::Instant> {
        let game = self.game.next_deadline(time::now()).map(time::instant_of);
        let game = match (game, self.hold_until) {
            (Some(g), Some(h)) => Some(g.max(h)),
            (g, _) => g,
        };
        let retry = (!self.retry.is_empty()).then(|| self.hold_until.unwrap_or_else(tokio::time::Instant::now));
        match (game, retry) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn clocks_json(&self, now: Timestamp) -> Option<Arc<str>> {
        let c = self.game.clocks(now)?;
        let running = if self.game.is_over() {
            None
        } else {
            self.game.clock().running().map(|s| match s {
                guoxiang_clock::Side::White => guoxiang_protocol::Color::White,
                guoxiang_clock::Side::Black => guoxiang_protocol::Color::Black,
            })
        };
        Some(
            ServerMessage::Clocks {
                game_id: self.game.id().to_owned(),
                white_ms: c.white_ms,
                black_ms: c.black_ms,
                running,
                server_time_ms: now.0,
            }
            .to_json()
            .into(),
        )
    }

    fn broadcast(&mut self, events: Vec<guoxiang_game::VersionedEvent>, now: Timestamp) {
        let ws_json: Arc<str> = ServerMessage::game_events(self.game.id(), events.clone()).to_json().into();
        // A view (every move) only for followers that asked for one.
        let view = (Arc::strong_count(&self.view_interest) > 1).then(|| Arc::new(GameView::of(&self.game, now)));
        let update = Update { events, ws_json, clocks_json: self.clocks_json(now), view };
        // The other nodes' followers of the game, through the broker.
        if let Some(b) = self.live.broker() {
            let version = self.game.version();
            super::wire::publish(
                &**b,
                &super::remote::wire_update(self.game.id(), &update, version, self.game.is_over()),
            );
        }
        // Fails only when nobody follows the game; the change is committed either way.
        let _ = self.tx.send(Arc::new(update));
    }

    fn subscribe(&self, since: Option<u64>, with_view: bool) -> Subscription {
        let now = time::now();
        let rx = self.tx.subscribe();
        let id = self.game.id();
        let first =
            ServerMessage::resync(id, since.and_then(|v| self.game.events_since(v)), || self.game.snapshot(now));
        let mut initial: Vec<Arc<str>> = vec![first.to_json().into()];
        if let Some(c) = self.clocks_json(now) {
            initial.push(c);
        }
        Subscription {
            initial,
            version: self.game.version(),
            view: with_view.then(|| Arc::new(GameView::of(&self.game, now))),
            rx,
            _view_interest: with_view.then(|| self.view_interest.clone()),
        }
    }

    async fn presence(&mut self, user_id: &str, delta: i32) {
        let Some(c) = self.handle.color_of(user_id) else { return };
        let i = idx(c);
        let before = self.presence[i];
        self.presence[i] = before.saturating_add_signed(delta);
        if self.game.is_over() {
            return;
        }
        if (before == 0) != (self.presence[i] == 0) {
            self.publish();
        }
        if before > 0 && self.presence[i] == 0 {
            self.apply_internal(Retry::Command(Command::Disconnected { who: c, since: time::now() })).await;
        } else if before == 0 && self.presence[i] > 0 {
            // A disconnection still waiting to be committed counts too: the reconnection follows it in order.
            let waiting =
                self.retry.iter().any(|r| matches!(r, Retry::Command(Command::Disconnected { who, .. }) if *who == c));
            if self.game.disconnected_since(c).is_some() || waiting {
                self.apply_internal(Retry::Command(Command::Reconnected { who: c })).await;
            }
        }
    }

    fn explain(&self, from: &str, to: &str, promotion: Option<Role>) -> Result<guoxiang_core::Explanation, GameError> {
        let from = parse_square(from)?;
        let to = parse_square(to)?;
        Ok(self.game.position().explain(from, to, promotion))
    }

    /// Starts the computer's search if it is the computer's turn.
    fn maybe_engine(&mut self) {
        if self.game.is_over() {
            return;
        }
        let turn = self.game.turn();
        let player = self.game.player(turn);
        let Some(level) = player.engine_level.filter(|_| player.is_engine) else { return };
        let version = self.game.version();
        if self.engine_thinking_at == Some(version) {
            return;
        }
        self.engine_thinking_at = Some(version);
        let now = time::now();
        let clocks = self.game.clocks(now);
        // The earlier positions that can still repeat.
        let positions = self.game.state().recent_positions();
        let history: Vec<u64> = positions[..positions.len().saturating_sub(1)].iter().map(|p| p.hash()).collect();
        let job = super::engine::Job {
            position: self.game.position().clone(),
            history,
            level,
            white_ms: clocks.map(|c| c.white_ms),
            black_ms: clocks.map(|c| c.black_ms),
            increment_ms: super::view::clock_of(self.game.time_control()).1,
            seed: version ^ 0x9e37_79b9 ^ super::engine::game_seed(self.game.id()),
        };
        let remaining = clocks.map(|c| if turn == Color::White { c.white_ms } else { c.black_ms });
        let pace = Duration::from_millis(super::computer_pace_ms(
            self.live.inner.timeouts.computer_reply_ms,
            level,
            remaining,
        ));
        let tx = self.self_tx.clone();
        let pool = self.live.inner.engines.clone();
        tokio::spawn(async move {
            // The search time counts towards the pace: the wait is only what is left of it.
            let start = tokio::time::Instant::now();
            let uci = pool.think(job).await;
            tokio::time::sleep_until(start + pace).await;
            if let Some(tx) = tx.upgrade() {
                // A game that ended meanwhile takes no move.
                let _ = tx.send(Box::new(ActorMsg::EngineMove { version, uci })).await;
            }
        });
    }

    async fn engine_move(&mut self, version: u64, uci: Option<String>) {
        if self.engine_thinking_at != Some(version) || self.game.version() != version {
            return; // stale: something happened meanwhile
        }
        self.engine_thinking_at = None;
        let Some(uci) = uci else { return };
        self.apply_internal(Retry::EngineMove { version, uci }).await;
    }
}
