//! [`Game`]: one game's complete state, driven by [`Command`]s at caller-supplied [`Timestamp`]s.

use guoxiang_clock::{Clock, ClockError, ClockState, LagReserve, Side, TimeControl, Timestamp};
use guoxiang_core::{Color, GameState, Move, Outcome, Position, Termination};
use serde::{Deserialize, Serialize};

use crate::action::{Action, MoveInput};
use crate::adjourn::Adjournment;
use crate::arbiter::{ArbiterAct, ArbiterRef, Arbitration};
use crate::draw::DrawOffers;
use crate::error::{CommandError, SetupError};
use crate::event::{Clocks, Event, EventLog, VersionedEvent};
use crate::rematch::Rematch;
use crate::rules::{Incident, Rules, Touch};
use crate::serde_util::{color, outcome};

mod setup;

pub use setup::{GameConfig, GameSetup, PlayerRef, Source, Variant};

/// Why a game was cancelled without a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AbortReason {
    /// `by` aborted before both players had moved.
    Player {
        #[serde(with = "color")]
        by: Color,
    },
    /// `side` did not make its first move within [`GameConfig::first_move_timeout_ms`].
    FirstMoveTimeout {
        #[serde(with = "color")]
        side: Color,
    },
}

impl AbortReason {
    pub fn code(&self) -> &'static str {
        match self {
            AbortReason::Player { .. } => "player",
            AbortReason::FirstMoveTimeout { .. } => "first_move_timeout",
        }
    }

    fn event(&self) -> Event {
        let (by, zh, en) = match *self {
            AbortReason::Player { by } => {
                (by, format!("{}取消了对局", by.name_zh()), format!("{} aborted the game", by.fold("White", "Black")))
            }
            AbortReason::FirstMoveTimeout { side } => (
                side,
                format!("{}没有按时走出第一步，对局取消", side.name_zh()),
                format!("{} did not make the first move in time; the game is aborted", side.fold("White", "Black")),
            ),
        };
        Event::Aborted { reason: self.code().to_owned(), by, message_zh: zh, message_en: en }
    }
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Fewer than two moves made: the clocks do not run yet and either player may abort.
    Created,
    /// Both players have moved; the clocks run.
    Started,
    /// Over, with a result.
    Finished {
        #[serde(with = "outcome")]
        outcome: Outcome,
    },
    /// Cancelled without a result.
    Aborted { reason: AbortReason },
}

/// What a game is asked to do. Every command is validated; a refused one changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The player `by` asks for `action` (see [`Action`]). `lag_ms` is the network lag the server measured for a
    /// move; it is credited from `by`'s [`LagReserve`] (0 for other actions).
    Player { by: Color, action: Action, lag_ms: u64 },
    /// The server reports that `who` lost the connection at `since`.
    Disconnected { who: Color, since: Timestamp },
    /// The server reports that `who` is back.
    Reconnected { who: Color },
    /// Time passes: flags and first-move timeouts are detected.
    Tick,
    /// Stop the clocks (adjournment, planned server shutdown).
    Adjourn,
    /// Restart the clocks; the time in between is not charged.
    Resume,
    /// The arbiter or host calls an adjournment: the player on move must seal a move.
    CallAdjournment,
    /// The arbiter sets the resumption time of a game with a sealed move (Unix milliseconds, on the scale of the
    /// timestamps the game is given).
    ScheduleResumption { at_ms: u64 },
    /// An arbiter of the game acts (the server has checked that `arbiter` is one): see [`ArbiterAct`].
    Arbiter { arbiter: ArbiterRef, act: ArbiterAct },
}

impl Command {
    /// `by`'s action, without lag.
    pub fn by(by: Color, action: Action) -> Command {
        Command::Player { by, action, lag_ms: 0 }
    }

    /// `by` plays `mv` (no draw offer, no lag).
    pub fn play(by: Color, mv: MoveInput) -> Command {
        Command::by(by, Action::Move { mv, offer_draw: false })
    }
}

/// A move's text (UCI or SAN, at most 8 bytes: `e7e8q`, `Qh4xe1+`), kept inline: a live game keeps one of each per
/// move, and a heap string each would be most of a move's memory. Serialized as a string.
pub type MoveText = arrayvec::ArrayString<8>;

/// `s` as a [`MoveText`]; longer text (which no move has) is cut at a character boundary.
pub fn move_text(s: &str) -> MoveText {
    let mut end = s.len().min(8);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    MoveText::from(&s[..end]).unwrap_or_default()
}

/// One move of the game, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    #[serde(with = "color")]
    pub by: Color,
    pub uci: MoveText,
    pub san: MoveText,
    /// When the move was made.
    pub at: Timestamp,
    /// The mover's remaining time right after the move (for the PGN `[%clk]` comment); `None` without a time
    /// limit.
    pub clock_ms: Option<u64>,
    /// Time taken on the move after lag credit; 0 for the untimed first moves.
    pub used_ms: u64,
}

pub(crate) fn side(c: Color) -> Side {
    c.fold(Side::White, Side::Black)
}

/// The most moves one command takes back: a takeback is the requester's last move and the opponent's reply.
pub const MAX_TAKEBACK_PLIES: usize = 2;

/// How a game stood before a command: see [`Game::checkpoint`].
#[derive(Debug)]
pub struct Checkpoint {
    /// The game without its history (the move list and the rules state are empty here).
    rest: Box<Game>,
    state: guoxiang_core::Checkpoint,
    plies: usize,
    /// The last moves, for the ones taken back since.
    tail: Vec<MoveRecord>,
}

/// One game, owned by one actor on the server. See the crate documentation.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) id: String,
    pub(crate) white: PlayerRef,
    pub(crate) black: PlayerRef,
    pub(crate) rated: bool,
    pub(crate) source: Source,
    pub(crate) variant: Variant,
    pub(crate) config: GameConfig,
    pub(crate) state: GameState,
    pub(crate) clock: Clock,
    pub(crate) status: Status,
    /// The draw offers: the pending one, and who may offer (the re-offer rule in `docs/game.md`).
    pub(crate) draw: DrawOffers,
    pub(crate) takeback_offer: Option<Color>,
    /// Once the game is over: who offered a rematch, and whether one was agreed.
    pub(crate) rematch: Rematch,
    pub(crate) lag: [LagReserve; 2],
    pub(crate) created_at: Timestamp,
    /// Start of the current turn (for the first-move timeout).
    pub(crate) turn_started_at: Timestamp,
    pub(crate) last_move_at: [Option<Timestamp>; 2],
    pub(crate) disconnected: [Option<Timestamp>; 2],
    pub(crate) adjourned_at: Option<Timestamp>,
    pub(crate) moves: Vec<MoveRecord>,
    /// Touch-move: the pieces the player on move has touched this turn, in order.
    pub(crate) touches: Vec<Touch>,
    /// `[white, black]`: completed illegal moves counted so far.
    pub(crate) illegal_counts: [u8; 2],
    /// The illegal moves counted, for the PGN.
    pub(crate) incidents: Vec<Incident>,
    /// An adjournment with a sealed move, from the first offer to the opening of the envelope.
    pub(crate) adjournment: Option<Adjournment>,
    /// The claim or dispute waiting for the arbiter, and what the arbiters did.
    pub(crate) arbiter: Arbitration,
    pub(crate) version: u64,
    pub(crate) log: EventLog,
}

impl Game {
    /// A new game at `now`: no moves, clocks not running, the first-move timer for the player to move started.
    pub fn new(setup: GameSetup, now: Timestamp) -> Result<Game, SetupError> {
        let start = setup.variant.start_position()?;
        let state = GameState::from_position(start);
        if state.is_over() {
            return Err(SetupError::AlreadyOver { fen: state.start().fen() });
        }
        let reserve = LagReserve::for_time_control(&setup.time_control);
        Ok(Game {
            id: setup.id,
            white: setup.white,
            black: setup.black,
            rated: setup.rated,
            source: setup.source,
            variant: setup.variant,
            log: EventLog::new(setup.config.event_log_len, 0),
            config: setup.config,
            state,
            clock: Clock::new(setup.time_control),
            status: Status::Created,
            draw: DrawOffers::default(),
            takeback_offer: None,
            rematch: Rematch::default(),
            lag: [reserve, reserve],
            created_at: now,
            turn_started_at: now,
            last_move_at: [None, None],
            disconnected: [None, None],
            adjourned_at: None,
            moves: Vec::new(),
            touches: Vec::new(),
            illegal_counts: [0, 0],
            incidents: Vec::new(),
            adjournment: None,
            arbiter: Arbitration::default(),
            version: 0,
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn player(&self, color: Color) -> &PlayerRef {
        color.fold(&self.white, &self.black)
    }

    pub fn white(&self) -> &PlayerRef {
        &self.white
    }

    pub fn black(&self) -> &PlayerRef {
        &self.black
    }

    pub fn rated(&self) -> bool {
        self.rated
    }

    /// How the game came about.
    pub fn source(&self) -> Source {
        self.source
    }

    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    pub fn time_control(&self) -> &TimeControl {
        self.clock.control()
    }

    /// The rules-level game: positions, repetitions, claims.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    pub fn position(&self) -> &Position {
        self.state.position()
    }

    pub fn turn(&self) -> Color {
        self.state.turn()
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn status(&self) -> Status {
        self.status
    }

    /// The result, once finished.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.status {
            Status::Finished { outcome } => Some(outcome),
            _ => None,
        }
    }

    /// Finished or aborted.
    pub fn is_over(&self) -> bool {
        matches!(self.status, Status::Finished { .. } | Status::Aborted { .. })
    }

    pub fn lag_reserve(&self, color: Color) -> &LagReserve {
        &self.lag[color.index()]
    }

    pub fn created_at(&self) -> Timestamp {
        self.created_at
    }

    /// When `color` last moved.
    pub fn last_move_at(&self, color: Color) -> Option<Timestamp> {
        self.last_move_at[color.index()]
    }

    /// Since when `color` has been disconnected, as reported.
    pub fn disconnected_since(&self, color: Color) -> Option<Timestamp> {
        self.disconnected[color.index()]
    }

    /// The moves with their SAN and clock times.
    pub fn moves(&self) -> &[MoveRecord] {
        &self.moves
    }

    /// The rule set the game is played under.
    pub fn rules(&self) -> Rules {
        self.config.rules
    }

    /// The version: the number of events so far (the version of the last event).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Both remaining times at `now`; `None` without a time limit.
    pub fn clocks(&self, now: Timestamp) -> Option<Clocks> {
        Some(Clocks {
            white_ms: self.clock.remaining(Side::White, now)?,
            black_ms: self.clock.remaining(Side::Black, now)?,
        })
    }

    /// The events after `version`, or `None` when the client must resync from [`Game::snapshot`] (the events are
    /// no longer in the log, or `version` is ahead of the game).
    pub fn events_since(&self, version: u64) -> Option<Vec<VersionedEvent>> {
        self.log.since(version, self.version)
    }

    /// When the player to move must have made the first move, before the clocks start.
    pub fn first_move_deadline(&self) -> Option<Timestamp> {
        (self.status == Status::Created).then(|| self.turn_started_at.plus_millis(self.config.first_move_timeout_ms))
    }

    /// The earliest time at which a [`Command::Tick`] could change something (a first-move timeout, or a flag
    /// falling for good with the lag grace), as seen at `now`; `None` when no timeout is pending (over, adjourned,
    /// no time limit). It may be `now` or earlier (a timeout is already due: tick now). The server's actor can
    /// schedule its next tick for then; ticking earlier is harmless, and with a simple delay the real flag time may
    /// be later (tick again and ask again).
    pub fn next_deadline(&self, now: Timestamp) -> Option<Timestamp> {
        if let Some(a) = &self.adjournment
            && a.is_sealed()
            && !a.resumed
        {
            // The session starts at the resumption time.
            return a.resume_at_ms.map(Timestamp);
        }
        if self.adjourned_at.is_some() {
            return None;
        }
        // After a resumption, the lateness limit for a player not yet at the board.
        let late = self
            .adjournment
            .as_ref()
            .filter(|a| a.resumed && a.arrived != [true, true])
            .and_then(|a| a.resume_at_ms.map(|r| Timestamp(r).plus_millis(self.config.late_limit_ms + 1)));
        let flag = self.flag_deadline(now);
        match (late, flag) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn flag_deadline(&self, now: Timestamp) -> Option<Timestamp> {
        match self.status {
            Status::Created => Some(self.turn_started_at.plus_millis(self.config.first_move_timeout_ms + 1)),
            Status::Started => {
                let running = self.clock.running()?;
                let left = self.clock.remaining(running, now)?;
                let grace = self.lag[running_color(running).index()].reserve_ms();
                let flag_time = if left > 0 {
                    now.plus_millis(left)
                } else {
                    // Already at zero: find when it got there (remaining time never goes up while a clock runs).
                    let (mut lo, mut hi) = (0, now.as_millis());
                    while lo < hi {
                        let mid = lo + (hi - lo) / 2;
                        if self.clock.remaining(running, Timestamp(mid)) == Some(0) { hi = mid } else { lo = mid + 1 }
                    }
                    Timestamp(lo)
                };
                Some(flag_time.plus_millis(grace))
            }
            _ => None,
        }
    }

    /// From when `by` may claim victory because the opponent is disconnected (`None` while the opponent is
    /// connected or the game is not in play).
    pub fn victory_claimable_at(&self, by: Color) -> Option<Timestamp> {
        if self.status != Status::Started {
            return None;
        }
        Some(self.disconnected[(!by).index()]?.plus_millis(self.config.disconnect_timeout_ms))
    }

    fn emit(&mut self, events: Vec<Event>) -> Vec<VersionedEvent> {
        events
            .into_iter()
            .map(|event| {
                self.version += 1;
                let v = VersionedEvent { version: self.version, event };
                self.log.push(v.clone());
                v
            })
            .collect()
    }

    /// What [`Game::revert`] needs to put the game back as it stands now, taken before a command: a copy of
    /// everything but the history, and the history's last [`MAX_TAKEBACK_PLIES`] moves (no command takes back
    /// more). It costs the same at move 1 and at move 300, unlike a copy of the game.
    pub fn checkpoint(&mut self) -> Checkpoint {
        let moves = std::mem::take(&mut self.moves);
        let state = std::mem::take(&mut self.state);
        let rest = Box::new(self.clone());
        self.moves = moves;
        self.state = state;
        let plies = self.moves.len();
        Checkpoint {
            rest,
            state: self.state.checkpoint(MAX_TAKEBACK_PLIES),
            plies,
            tail: self.moves[plies.saturating_sub(MAX_TAKEBACK_PLIES)..].to_vec(),
        }
    }

    /// Puts the game back as it stood at `c`, after one or more commands. Returns `false` (and changes nothing)
    /// when the commands took back more moves than a checkpoint keeps, which no single command does.
    pub fn revert(&mut self, c: Checkpoint) -> bool {
        let mut state = std::mem::take(&mut self.state);
        if !state.rewind(c.state) {
            self.state = state;
            return false;
        }
        // The records move with the rules state: those before the tail are the checkpoint's.
        let mut moves = std::mem::take(&mut self.moves);
        moves.truncate(c.plies - c.tail.len());
        moves.extend(c.tail);
        *self = *c.rest;
        self.state = state;
        self.moves = moves;
        true
    }

    /// Applies a command at `now`. Returns the events it caused (each with its version), or why it was refused (the
    /// game is then unchanged). Before any command, timeouts that have passed by `now` are applied: a fallen flag
    /// ends the game (Article 6.9), a missed first move aborts it; the command is then not carried out and the
    /// events say why.
    pub fn apply(&mut self, now: Timestamp, cmd: Command) -> Result<Vec<VersionedEvent>, CommandError> {
        let mut out = Vec::new();
        let result = self.apply_inner(now, cmd, &mut out);
        let events = self.emit(out);
        result.map(|()| events)
    }

    fn apply_inner(&mut self, now: Timestamp, cmd: Command, out: &mut Vec<Event>) -> Result<(), CommandError> {
        if let Command::Disconnected { .. } | Command::Reconnected { .. } = cmd
            && self.is_over()
        {
            // Presence is tracked whatever the status, but a finished game has nothing to say about it.
            self.presence(&cmd, &mut Vec::new());
            return Ok(());
        }
        if let Command::Player { by, action, .. } = &cmd
            && action.is_rematch()
        {
            return self.cmd_rematch(*by, action, out);
        }
        match self.status {
            Status::Finished { outcome } => {
                return if cmd == Command::Tick { Ok(()) } else { Err(CommandError::GameOver(outcome)) };
            }
            Status::Aborted { .. } => {
                return if cmd == Command::Tick { Ok(()) } else { Err(CommandError::Aborted) };
            }
            Status::Created | Status::Started => {}
        }
        if self.adjournment.as_ref().is_some_and(|a| a.is_sealed() || a.resumed) && self.sealed_session(now, &cmd, out)
        {
            // The envelope's opening or the lateness rule ended the game: the command is not carried out.
            self.presence(&cmd, &mut Vec::new());
            return Ok(());
        }
        let adjourned = self.adjourned_at.is_some();
        if adjourned && !self.allowed_while_adjourned(&cmd) {
            return Err(CommandError::Adjourned);
        }
        if !adjourned && self.timeouts(now, out) {
            self.presence(&cmd, &mut Vec::new());
            return Ok(());
        }
        self.presence(&cmd, out);
        match cmd {
            Command::Disconnected { .. } | Command::Reconnected { .. } | Command::Tick => Ok(()),
            Command::Player { by, action, lag_ms } => self.cmd_player(now, by, action, lag_ms, out),
            Command::Adjourn => self.pause_clocks(now, out),
            Command::CallAdjournment => self.call_adjournment(None, out),
            Command::ScheduleResumption { at_ms } => self.schedule_resumption(None, at_ms, now, out),
            Command::Resume => self.resume_clocks(now, out),
            Command::Arbiter { arbiter, act } => self.cmd_arbiter(now, arbiter, act, out),
        }
    }

    /// A player's action on a game in progress.
    fn cmd_player(
        &mut self,
        now: Timestamp,
        by: Color,
        action: Action,
        lag_ms: u64,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        match action {
            Action::Move { mv, offer_draw } => self.cmd_move(now, by, &mv, offer_draw, lag_ms, out),
            Action::Resign => {
                self.finish(now, Outcome::win(!by, Termination::Resignation), out);
                Ok(())
            }
            Action::OfferDraw => self.cmd_offer_draw(now, by, out),
            Action::AcceptDraw => self.cmd_accept_draw(now, by, out),
            Action::DeclineDraw => self.cmd_decline_draw(by, out),
            Action::ClaimDraw { kind, intended } => self.cmd_claim(now, by, kind, intended.as_ref(), out),
            Action::Abort => {
                if self.status != Status::Created {
                    return Err(CommandError::CannotAbort);
                }
                // A paired game is played or forfeited (the first-move timeout aborts it, and the tournament scores
                // the player who did not move as absent); a player cannot call it off.
                if self.source == Source::Tournament {
                    return Err(CommandError::TournamentGame);
                }
                self.abort(AbortReason::Player { by }, out);
                Ok(())
            }
            Action::TakebackOffer => self.cmd_takeback_offer(now, by, out),
            Action::TakebackAccept => self.cmd_takeback_accept(now, by, out),
            Action::TakebackDecline => self.cmd_takeback_decline(by, out),
            Action::ClaimVictory => self.cmd_claim_victory(now, by, out),
            Action::RematchOffer | Action::RematchAccept | Action::RematchDecline => self.cmd_rematch(by, &action, out),
            Action::Touch { square } => self.cmd_touch(by, &square, false, out),
            Action::Adjust { square } => self.cmd_touch(by, &square, true, out),
            Action::AdjournOffer => self.call_adjournment(Some(by), out),
            Action::Seal { mv } => self.cmd_seal(now, by, mv, out),
            Action::ProposeResumption { at_ms } => self.schedule_resumption(Some(by), at_ms, now, out),
            Action::CallArbiter { reason } => self.cmd_call_arbiter(by, &reason, out),
        }
    }

    /// Records a presence update (other commands are ignored).
    fn presence(&mut self, cmd: &Command, out: &mut Vec<Event>) {
        match *cmd {
            Command::Disconnected { who, since } => {
                if self.disconnected[who.index()].is_none() {
                    out.push(Event::PlayerDisconnected { who });
                }
                self.disconnected[who.index()].get_or_insert(since);
            }
            Command::Reconnected { who } if self.disconnected[who.index()].take().is_some() => {
                out.push(Event::PlayerReconnected { who });
            }
            _ => {}
        }
    }

    /// Applies the timeouts due at `now`; true if the game ended. The flag check allows for the whole lag reserve,
    /// so a move it lets through may still fail its own press (with the credit the move actually gets), never the
    /// other way round.
    fn timeouts(&mut self, now: Timestamp, out: &mut Vec<Event>) -> bool {
        let turn = self.turn();
        match self.status {
            Status::Created => {
                if now > self.turn_started_at.plus_millis(self.config.first_move_timeout_ms) {
                    self.abort(AbortReason::FirstMoveTimeout { side: turn }, out);
                    return true;
                }
                false
            }
            Status::Started => {
                let Some(running) = self.clock.running() else { return false };
                let color = running_color(running);
                // Flag only once even the whole lag reserve could not save the player's next move.
                let grace = self.lag[color.index()].reserve_ms();
                let at = Timestamp(now.as_millis().saturating_sub(grace));
                if self.clock.flag_fall(now).is_some() && self.clock.remaining(running, at) == Some(0) {
                    self.flag(now, color, out);
                    return true;
                }
                false
            }
            _ => false,
        }
    }

    fn flag(&mut self, now: Timestamp, color: Color, out: &mut Vec<Event>) {
        // The flag of the sealer's opponent fell before they came: the envelope is opened to decide (an invalid
        // sealed move loses first).
        if self.adjournment.as_ref().is_some_and(Adjournment::awaiting_opening) && self.open_envelope(now, out) {
            return;
        }
        let o = Outcome::time_forfeit(self.position(), color);
        self.finish(now, o, out);
    }

    pub(crate) fn finish(&mut self, now: Timestamp, o: Outcome, out: &mut Vec<Event>) {
        self.clock.stop(now);
        self.status = Status::Finished { outcome: o };
        self.draw.pending = None;
        self.takeback_offer = None;
        self.adjourned_at = None;
        self.adjournment = None;
        self.arbiter.dispute = None;
        out.push(Event::game_ended(&o, self.clocks(now)));
    }

    fn abort(&mut self, reason: AbortReason, out: &mut Vec<Event>) {
        self.status = Status::Aborted { reason };
        self.draw.pending = None;
        self.takeback_offer = None;
        self.adjourned_at = None;
        self.adjournment = None;
        out.push(reason.event());
    }

    fn cmd_move(
        &mut self,
        now: Timestamp,
        by: Color,
        mv: &MoveInput,
        offer_draw: bool,
        lag_ms: u64,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if by != self.turn() {
            return Err(CommandError::NotYourTurn { by });
        }
        if self.adjournment.as_ref().is_some_and(Adjournment::awaiting_opening) {
            return Err(CommandError::SealedMovePending);
        }
        let m = match mv.resolve(self.position()) {
            Ok(m) => m,
            Err(e @ CommandError::IllegalMove { .. }) => return self.illegal_move(now, by, mv, e, out),
            Err(e) => return Err(e),
        };
        self.check_touch_obligation(m)?;
        if offer_draw {
            self.draw.check(by)?;
        }
        if !self.timed_move(now, by, m, lag_ms, out)? {
            return Ok(());
        }
        if offer_draw && !self.is_over() {
            out.push(self.draw.offer(by));
        }
        Ok(())
    }

    /// Presses the clock for `by`'s legal move `m` and plays it. `Ok(false)` if the flag had fallen: the game is then
    /// over and the move not played.
    pub(crate) fn timed_move(
        &mut self,
        now: Timestamp,
        by: Color,
        m: Move,
        lag_ms: u64,
        out: &mut Vec<Event>,
    ) -> Result<bool, CommandError> {
        let mut reserve = self.lag[by.index()];
        let press = match self.clock.state() {
            ClockState::Running(_) => {
                let credit = reserve.credit(lag_ms);
                match self.clock.press(side(by), now, credit) {
                    Ok(p) => Some(p),
                    Err(ClockError::Flagged { .. }) => {
                        self.flag(now, by, out);
                        return Ok(false);
                    }
                    Err(e) => return Err(CommandError::Internal(e.to_string())),
                }
            }
            _ => None,
        };
        if press.is_some() {
            self.lag[by.index()] = reserve;
        }
        let clock_ms = match press {
            Some(p) => p.remaining_ms,
            None => self.clock.remaining(side(by), now),
        };
        self.play(now, by, m, clock_ms, press.map_or(0, |p| p.used_ms), out)?;
        Ok(true)
    }

    pub(crate) fn play(
        &mut self,
        now: Timestamp,
        by: Color,
        m: Move,
        clock_ms: Option<u64>,
        used_ms: u64,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let pos = self.position();
        let (uci, san) = (pos.uci(m), pos.san(m));
        let automatic = self.state.play(m).map_err(|e| CommandError::Internal(e.to_string()))?;
        self.moves.push(MoveRecord { by, uci: move_text(&uci), san: move_text(&san), at: now, clock_ms, used_ms });
        self.touches.clear();
        self.last_move_at[by.index()] = Some(now);
        self.turn_started_at = now;
        if self.status == Status::Created && self.moves.len() >= 2 {
            // Both first moves made (untimed): the clocks start now, lichess style.
            self.clock.start_with(side(self.turn()), now).map_err(|e| CommandError::Internal(e.to_string()))?;
            self.status = Status::Started;
        }
        out.push(Event::MoveMade {
            by,
            uci,
            san,
            fen: self.position().fen(),
            ply: self.moves.len() as u32,
            clocks: self.clocks(now),
        });
        if self.draw.pending == Some(!by) {
            // Making a move declines the opponent's offer.
            out.push(self.draw.decline(by));
        }
        if self.takeback_offer.take().is_some() {
            out.push(Event::TakebackCancelled);
        }
        if let Some(o) = automatic {
            self.finish(now, o, out);
        }
        Ok(())
    }

    fn cmd_claim_victory(&mut self, now: Timestamp, by: Color, out: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.status == Status::Created {
            return Err(CommandError::NotStarted);
        }
        let Some(since) = self.disconnected[(!by).index()] else {
            return Err(CommandError::OpponentConnected { by });
        };
        let gone = now.millis_since(since);
        if gone < self.config.disconnect_timeout_ms {
            return Err(CommandError::ClaimTooEarly { by, remaining_ms: self.config.disconnect_timeout_ms - gone });
        }
        let o = if self.position().can_mate(by) {
            Outcome::win(by, Termination::Abandoned)
        } else {
            Outcome::draw(Termination::Abandoned)
        };
        self.finish(now, o, out);
        Ok(())
    }
}

pub(crate) fn running_color(s: Side) -> Color {
    match s {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}
