//! The running state of both sides' clocks for one game.
//!
//! [`Clock`] is a plain value: every method that depends on time takes the
//! caller's [`Timestamp`], and nothing is charged unless a method is
//! called. Time is only ever deducted from the side whose clock runs, and
//! the deduction for the current turn is computed from the turn's elapsed
//! time, so display ([`Clock::remaining`]), flag checks
//! ([`Clock::flag_fall`]) and moves ([`Clock::press`]) always agree.

use std::fmt;

use crate::Side;
use crate::control::{Bonus, TimeControl};

/// A point in time: milliseconds on a monotonic clock chosen by the caller
/// (e.g. milliseconds since the server process started). Only differences
/// matter; a timestamp earlier than the last one counts as no time passing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(transparent))]
pub struct Timestamp(pub u64);

impl Timestamp {
    /// The timestamp `ms` milliseconds after the caller's epoch.
    #[must_use]
    pub const fn from_millis(ms: u64) -> Timestamp {
        Timestamp(ms)
    }

    /// Milliseconds since the caller's epoch.
    #[must_use]
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// Milliseconds from `earlier` to `self`, 0 if `earlier` is later.
    #[must_use]
    pub const fn millis_since(self, earlier: Timestamp) -> u64 {
        self.0.saturating_sub(earlier.0)
    }

    /// This timestamp plus `ms` milliseconds (saturating).
    #[must_use]
    pub const fn plus_millis(self, ms: u64) -> Timestamp {
        Timestamp(self.0.saturating_add(ms))
    }
}

/// What the clock is doing, as seen from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockState {
    /// Created, [`Clock::start`] not yet called.
    NotStarted,
    /// This side's clock is running.
    Running(Side),
    /// Stopped by [`Clock::pause`] during this side's turn.
    Paused(Side),
    /// Stopped for good by [`Clock::stop`].
    Stopped,
}

/// The outcome of a successful [`Clock::press`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Press {
    /// The presser's remaining time after the move, bonuses and any period
    /// change included (what a PGN `%clk` comment shows); `None` when the
    /// control is unlimited.
    pub remaining_ms: Option<u64>,
    /// How long the move took after lag credit (before any delay is taken
    /// off; what a PGN `%emt` comment shows).
    pub used_ms: u64,
}

/// A clock operation that was refused. The clock is left unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockError {
    /// No clock is running (not started, paused or stopped).
    NotRunning,
    /// [`Clock::resume`] while not paused.
    NotPaused,
    /// [`Clock::start`] on a clock that was already started.
    AlreadyStarted,
    /// `side` pressed while the other side's clock was running.
    NotOnMove { side: Side },
    /// `side`'s time had run out before the press.
    Flagged { side: Side },
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockError::NotRunning => f.write_str("the clock is not running"),
            ClockError::NotPaused => f.write_str("the clock is not paused"),
            ClockError::AlreadyStarted => f.write_str("the clock has already been started"),
            ClockError::NotOnMove { side } => {
                write!(f, "{side} pressed, but it is not {side}'s turn")
            }
            ClockError::Flagged { side } => write!(f, "{side}'s time ran out before the move"),
        }
    }
}

impl std::error::Error for ClockError {}

/// Where a side is in a conventional (periods) time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PeriodStatus {
    /// Index into [`Periods::as_slice`](crate::Periods::as_slice); stays on
    /// the last period while it repeats.
    pub index: usize,
    /// 1-based number of the period being played, counting repetitions of
    /// the last one (so it can exceed the number of listed periods).
    pub number: u32,
    /// Moves still to make before the next time control, including the
    /// current one; `None` when the period lasts for the rest of the game.
    pub moves_left: Option<u32>,
}

/// One side's committed clock state (time charged for completed turns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct SideClock {
    /// Time left, not counting the turn in progress. Unused for unlimited.
    remaining_ms: u64,
    /// Completed moves (presses).
    moves: u32,
    /// Periods whose move count has been reached.
    periods_completed: u32,
    /// Moves made in the current period.
    moves_in_period: u32,
    /// Total time taken over completed moves, after lag credit.
    used_ms: u64,
}

impl SideClock {
    fn new(initial_ms: u64) -> SideClock {
        SideClock { remaining_ms: initial_ms, moves: 0, periods_completed: 0, moves_in_period: 0, used_ms: 0 }
    }
}

/// Internal phase; a turn's elapsed time is `banked_ms` (from before any
/// pauses) plus the time since `since`, so a pause in the middle of a
/// delay or a Bronstein move is handled exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "state", rename_all = "snake_case")
)]
enum Phase {
    NotStarted,
    Running { side: Side, since: Timestamp, banked_ms: u64 },
    Paused { side: Side, banked_ms: u64 },
    Stopped,
}

/// Both sides' clocks for one game.
///
/// Serializing a `Clock` (feature `serde`, on by default) captures it
/// exactly, including a turn in progress; restoring it and calling the same
/// methods with the same timestamps gives the same results. After a server
/// restart, prefer [`Clock::pause`] before saving and [`Clock::resume`]
/// after loading so the downtime is not charged.
///
/// A side with exactly 0 ms left has flagged; a Fischer control with a base
/// of 0 (e.g. `0+1`) therefore starts each side with its increment, at least
/// 3 s ([`TimeControl::start_ms`]). [`Clock::add_time`] grants more.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Clock {
    control: TimeControl,
    white: SideClock,
    black: SideClock,
    phase: Phase,
}

impl Clock {
    /// A clock that is not running, both sides at the starting time ([`TimeControl::start_ms`]).
    #[must_use]
    pub fn new(control: TimeControl) -> Clock {
        let initial = control.start_ms().unwrap_or(0);
        Clock { control, white: SideClock::new(initial), black: SideClock::new(initial), phase: Phase::NotStarted }
    }

    /// The time control this clock runs.
    #[must_use]
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// What the clock is doing.
    #[must_use]
    pub fn state(&self) -> ClockState {
        match self.phase {
            Phase::NotStarted => ClockState::NotStarted,
            Phase::Running { side, .. } => ClockState::Running(side),
            Phase::Paused { side, .. } => ClockState::Paused(side),
            Phase::Stopped => ClockState::Stopped,
        }
    }

    /// The side whose clock is running, if any.
    #[must_use]
    pub fn running(&self) -> Option<Side> {
        match self.phase {
            Phase::Running { side, .. } => Some(side),
            _ => None,
        }
    }

    /// Starts White's clock at `now`. When to call this is the caller's
    /// policy (e.g. lichess starts clocks only after both first moves).
    pub fn start(&mut self, now: Timestamp) -> Result<(), ClockError> {
        self.start_with(Side::White, now)
    }

    /// Starts `side`'s clock at `now` (e.g. for a game from a position with
    /// Black to move).
    pub fn start_with(&mut self, side: Side, now: Timestamp) -> Result<(), ClockError> {
        if self.phase != Phase::NotStarted {
            return Err(ClockError::AlreadyStarted);
        }
        self.phase = Phase::Running { side, since: now, banked_ms: 0 };
        Ok(())
    }

    fn side(&self, side: Side) -> &SideClock {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }

    fn side_mut(&mut self, side: Side) -> &mut SideClock {
        match side {
            Side::White => &mut self.white,
            Side::Black => &mut self.black,
        }
    }

    /// The side whose turn is in progress (running or paused) and how long
    /// that turn has lasted at `now`.
    fn turn(&self, now: Timestamp) -> Option<(Side, u64)> {
        match self.phase {
            Phase::Running { side, since, banked_ms } => {
                Some((side, banked_ms.saturating_add(now.millis_since(since))))
            }
            Phase::Paused { side, banked_ms } => Some((side, banked_ms)),
            Phase::NotStarted | Phase::Stopped => None,
        }
    }

    /// The bonus of the period `side` is in (None outside periods).
    fn bonus(&self, side: Side) -> Bonus {
        match &self.control {
            TimeControl::Periods(p) => p.at(self.side(side).periods_completed).bonus,
            _ => Bonus::None,
        }
    }

    /// Time taken off `side`'s clock for a turn lasting `used_ms`, before
    /// clamping: a simple delay absorbs the start of every turn.
    fn charge(&self, side: Side, used_ms: u64) -> u64 {
        match (&self.control, self.bonus(side)) {
            (TimeControl::Unlimited, _) => 0,
            (_, delay @ Bonus::SimpleDelay(_)) => used_ms.saturating_sub(delay.ms()),
            _ => used_ms,
        }
    }

    /// The charge for the turn in progress at `now`, capped at what the
    /// side has, with the side it applies to.
    fn live_charge(&self, now: Timestamp) -> Option<(Side, u64)> {
        let (side, elapsed) = self.turn(now)?;
        let charge = self.charge(side, elapsed).min(self.side(side).remaining_ms);
        Some((side, charge))
    }

    /// `side`'s time left at `now`, counting the turn in progress; `None`
    /// when the control is unlimited. During a simple delay the running
    /// side's time does not go down; on a sandclock the waiting side's goes
    /// up by what the running side uses.
    #[must_use]
    pub fn remaining(&self, side: Side, now: Timestamp) -> Option<u64> {
        if self.control == TimeControl::Unlimited {
            return None;
        }
        let base = self.side(side).remaining_ms;
        Some(match self.live_charge(now) {
            Some((running, charge)) if running == side => base - charge,
            Some((_, charge)) if matches!(self.control, TimeControl::Sandclock { .. }) => base.saturating_add(charge),
            _ => base,
        })
    }

    /// Total time `side` has taken over its moves, including the turn in
    /// progress at `now` (after lag credit on completed moves; delays are
    /// not subtracted). Meaningful for every control, unlimited included.
    #[must_use]
    pub fn used(&self, side: Side, now: Timestamp) -> u64 {
        let done = self.side(side).used_ms;
        match self.turn(now) {
            Some((turn_side, elapsed)) if turn_side == side => done.saturating_add(elapsed),
            _ => done,
        }
    }

    /// The running side, if its time is up at `now` (0 ms left). Only the
    /// running side can flag; an unlimited clock never does. This is the
    /// strict view: [`Clock::press`] may still accept a move whose lag
    /// credit brings it back within time.
    #[must_use]
    pub fn flag_fall(&self, now: Timestamp) -> Option<Side> {
        let side = self.running()?;
        (self.remaining(side, now) == Some(0)).then_some(side)
    }

    /// `side` completes a move at `now`.
    ///
    /// Up to `lag_credit_ms` of the turn's elapsed time is forgiven (the
    /// caller decides how much, e.g. with [`LagReserve`](crate::LagReserve)).
    /// Then, by the period's bonus: a simple delay forgives the first
    /// seconds of the move; if what remains to charge is at least the time
    /// left, the press fails with [`ClockError::Flagged`] and nothing
    /// changes. Otherwise it is deducted, then a Fischer increment is
    /// added, or a Bronstein delay gives back `min(charged, delay)`. If the
    /// move completes the period's move count, the next period's base time
    /// is added to what is left. Sandclock: the charge goes to the
    /// opponent. Correspondence: the clock is refilled. Finally the
    /// opponent's clock starts at `now`.
    pub fn press(&mut self, side: Side, now: Timestamp, lag_credit_ms: u64) -> Result<Press, ClockError> {
        let Phase::Running { side: running, .. } = self.phase else {
            return Err(ClockError::NotRunning);
        };
        if side != running {
            return Err(ClockError::NotOnMove { side });
        }
        let elapsed = self.turn(now).map_or(0, |(_, e)| e);
        let used = elapsed - lag_credit_ms.min(elapsed);
        let charge = self.charge(side, used);
        let bonus = self.bonus(side);
        let unlimited = self.control == TimeControl::Unlimited;
        if !unlimited && charge >= self.side(side).remaining_ms {
            return Err(ClockError::Flagged { side });
        }
        // Split borrows: the control is read while both sides are written.
        let Clock { control, white, black, .. } = self;
        let (me, other) = match side {
            Side::White => (white, black),
            Side::Black => (black, white),
        };
        match control {
            TimeControl::Unlimited => {}
            TimeControl::Periods(periods) => {
                me.remaining_ms -= charge;
                me.remaining_ms = me.remaining_ms.saturating_add(match bonus {
                    Bonus::None | Bonus::SimpleDelay(_) => 0,
                    Bonus::Fischer(_) => bonus.ms(),
                    Bonus::Bronstein(_) => charge.min(bonus.ms()),
                });
                me.moves_in_period = me.moves_in_period.saturating_add(1);
                let period = periods.at(me.periods_completed);
                if period.moves.is_some_and(|n| me.moves_in_period >= n.get()) {
                    // Carry-over: unused time stays, the next period's is added.
                    me.periods_completed = me.periods_completed.saturating_add(1);
                    me.moves_in_period = 0;
                    let next = periods.at(me.periods_completed);
                    me.remaining_ms = me.remaining_ms.saturating_add(next.base_ms());
                }
            }
            TimeControl::Sandclock { .. } => {
                me.remaining_ms -= charge;
                other.remaining_ms = other.remaining_ms.saturating_add(charge);
            }
            TimeControl::Correspondence(c) => {
                me.remaining_ms = match c.max_ms() {
                    None => c.allowance_ms(),
                    Some(max) => (me.remaining_ms - charge).saturating_add(c.allowance_ms()).min(max),
                };
            }
        }
        me.moves = me.moves.saturating_add(1);
        me.used_ms = me.used_ms.saturating_add(used);
        let remaining_ms = (!unlimited).then_some(me.remaining_ms);
        self.phase = Phase::Running { side: side.other(), since: now, banked_ms: 0 };
        Ok(Press { remaining_ms, used_ms: used })
    }

    /// Stops the running clock at `now` without charging anything further
    /// until [`Clock::resume`] (adjournment, server shutdown). The turn's
    /// elapsed time so far is kept, so delays carry across the pause.
    pub fn pause(&mut self, now: Timestamp) -> Result<(), ClockError> {
        let Phase::Running { side, .. } = self.phase else {
            return Err(ClockError::NotRunning);
        };
        let (_, banked_ms) = self.turn(now).ok_or(ClockError::NotRunning)?;
        self.phase = Phase::Paused { side, banked_ms };
        Ok(())
    }

    /// Restarts a paused clock at `now`; the time since [`Clock::pause`] is
    /// not charged.
    pub fn resume(&mut self, now: Timestamp) -> Result<(), ClockError> {
        let Phase::Paused { side, banked_ms } = self.phase else {
            return Err(ClockError::NotPaused);
        };
        self.phase = Phase::Running { side, since: now, banked_ms };
        Ok(())
    }

    /// Hands the turn to a side without a move, as a takeback does: the turn in progress is charged up to `now`
    /// (no bonus, not counted as a move), then `to`'s clock runs from `now` — or, with `None`, the clock goes back
    /// to not started (a takeback to before the clock began). Move counts of multi-period controls are not rolled
    /// back.
    pub fn hand_over(&mut self, to: Option<Side>, now: Timestamp) {
        self.stop(now);
        self.phase = match to {
            Some(side) => Phase::Running { side, since: now, banked_ms: 0 },
            None => Phase::NotStarted,
        };
    }

    /// Ends timing for good (game over): the turn in progress is charged up
    /// to `now` (no lag credit, no bonus, not counted as a move), so
    /// [`Clock::remaining`] then gives the final times. Does nothing if
    /// already stopped.
    pub fn stop(&mut self, now: Timestamp) {
        if let Some((side, charge)) = self.live_charge(now) {
            let elapsed = self.turn(now).map_or(0, |(_, e)| e);
            let sandclock = matches!(self.control, TimeControl::Sandclock { .. });
            let me = self.side_mut(side);
            me.remaining_ms -= charge;
            me.used_ms = me.used_ms.saturating_add(elapsed);
            if sandclock {
                let other = self.side_mut(side.other());
                other.remaining_ms = other.remaining_ms.saturating_add(charge);
            }
        }
        self.phase = Phase::Stopped;
    }

    /// Gives `side` extra time (arbiter decision, e.g. two minutes to the
    /// opponent of a player penalised under FIDE rules). No effect on an
    /// unlimited clock. On correspondence without a maximum it lasts only
    /// until `side`'s next move, which refills the clock.
    pub fn add_time(&mut self, side: Side, ms: u64) {
        if self.control != TimeControl::Unlimited {
            let me = self.side_mut(side);
            me.remaining_ms = me.remaining_ms.saturating_add(ms);
        }
    }

    /// Moves `side` has completed (successful presses).
    #[must_use]
    pub fn moves_made(&self, side: Side) -> u32 {
        self.side(side).moves
    }

    /// Where `side` is in a periods control; `None` for other controls.
    #[must_use]
    pub fn period(&self, side: Side) -> Option<PeriodStatus> {
        let TimeControl::Periods(periods) = &self.control else {
            return None;
        };
        let me = self.side(side);
        let period = periods.at(me.periods_completed);
        Some(PeriodStatus {
            index: periods.index_after(me.periods_completed),
            number: me.periods_completed.saturating_add(1),
            moves_left: period.moves.map(|n| n.get().saturating_sub(me.moves_in_period)),
        })
    }
}
