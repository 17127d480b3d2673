//! [`Game`]: one game's complete state, driven by [`Command`]s at caller-supplied [`Timestamp`]s.
//!
//! This module holds the game, what it is asked ([`Command`]) and where a command goes ([`Game::apply`]); the rest
//! is split by concern into its child modules, each an `impl Game` over its own state where it has one (the types a
//! concern shares with the crate's users stay in the crate's `adjourn` and `arbiter` modules):
//!
//! | module | concern | its state in [`Game`] |
//! |---|---|---|
//! | `setup` | what a game is created from | |
//! | `core` | status, moves and clocks, timeouts, presence, results | |
//! | `draw` | draw offers and claims | `DrawOffers` |
//! | `takeback` | takebacks | the pending request |
//! | `touch_move` | touch-move (4.2–4.3) | the touches of the turn |
//! | `illegal` | illegal moves counted (7.5, 送王) | `IllegalRecord` |
//! | `adjournment` | pauses, the adjournment with a sealed move | [`Adjournment`] |
//! | `arbitration` | the arbiter's acts, players' calls | `Arbitration` |
//! | `rematch` | the rematch of a finished game | `Rematch` |

use guoxiang_clock::{Clock, LagReserve, Side, TimeControl, Timestamp};
use guoxiang_core::{Color, GameState, Outcome, Position, Termination};

use crate::action::{Action, MoveInput};
use crate::adjourn::Adjournment;
use crate::arbiter::{ArbiterAct, ArbiterRef};
use crate::error::{CommandError, SetupError};
use crate::event::{Clocks, Event, EventLog, VersionedEvent};
use crate::rules::{Rules, Touch};

mod adjournment;
mod arbitration;
mod core;
mod draw;
mod illegal;
mod rematch;
mod setup;
mod takeback;
mod touch_move;

pub(crate) use arbitration::Arbitration;
pub(crate) use draw::DrawOffers;
pub(crate) use illegal::IllegalRecord;
pub(crate) use rematch::Rematch;

pub(crate) use self::core::side;
pub use self::core::{AbortReason, MoveRecord, MoveText, Status, move_text};
pub use setup::{GameConfig, GameSetup, PlayerRef, Source, Variant};

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
    /// The illegal moves counted (`[white, black]`), and each for the PGN.
    pub(crate) illegal: IllegalRecord,
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
            illegal: IllegalRecord::default(),
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
            Action::Abort => self.cmd_abort(by, out),
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
}
