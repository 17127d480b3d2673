//! Time controls: what each side is given, independent of any running game.
//!
//! A [`TimeControl`] is one of: no limit, a list of conventional
//! [`Periods`] (sudden death, Fischer increment, Bronstein or simple delay,
//! multi-period with move counts), a sandclock, or [`Correspondence`]
//! (days per move). Amounts are whole seconds (days for correspondence),
//! the unit of the PGN `TimeControl` tag, so every control written as a
//! tag reads back identically; the `*_ms` helpers give the milliseconds
//! the [`Clock`](crate::Clock) works in.

use std::fmt;
use std::num::NonZeroU32;

/// Milliseconds in one second.
pub(crate) const MS_PER_SECOND: u64 = 1_000;

/// The least a clock with no base time but an increment starts with (see [`TimeControl::start_ms`]): Lichess's 3 s.
pub const NO_BASE_START_MS: u64 = 3_000;
/// Milliseconds in one day.
pub(crate) const MS_PER_DAY: u64 = 86_400_000;

/// What a side gets back on each move of a period.
///
/// A period has at most one of these; PGN itself only knows Fischer
/// increments, see [`crate::pgn`] for how delays are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Bonus {
    /// Nothing (the tag has no `+` part).
    #[default]
    None,
    /// Fischer increment: this many seconds are added after every move.
    ///
    /// `Fischer(0)` is kept distinct from `None` because tags such as
    /// `300+0` are common (lichess writes them) and must be written back
    /// unchanged; the two behave identically on the clock.
    Fischer(u32),
    /// Bronstein delay: after a move, the time used on it is given back,
    /// up to this many seconds.
    Bronstein(u32),
    /// Simple (US) delay: the clock waits this many seconds at the start of
    /// each move before it starts counting down.
    SimpleDelay(u32),
}

impl Bonus {
    /// The bonus amount in seconds (0 for [`Bonus::None`]).
    #[must_use]
    pub const fn seconds(self) -> u32 {
        match self {
            Bonus::None => 0,
            Bonus::Fischer(s) | Bonus::Bronstein(s) | Bonus::SimpleDelay(s) => s,
        }
    }

    /// The bonus amount in milliseconds.
    #[must_use]
    pub const fn ms(self) -> u64 {
        self.seconds() as u64 * MS_PER_SECOND
    }
}

/// One stage of a conventional time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// Moves to be made in this period; `None` means the rest of the game.
    pub moves: Option<NonZeroU32>,
    /// Time added to the clock when the period begins, in seconds. Unused
    /// time from earlier periods is kept (carry-over).
    pub seconds: u32,
    /// What each move made in this period earns.
    pub bonus: Bonus,
}

impl Period {
    /// A period lasting for the rest of the game.
    #[must_use]
    pub const fn rest_of_game(seconds: u32, bonus: Bonus) -> Period {
        Period { moves: None, seconds, bonus }
    }

    /// A period of `moves` moves.
    #[must_use]
    pub const fn for_moves(moves: NonZeroU32, seconds: u32, bonus: Bonus) -> Period {
        Period { moves: Some(moves), seconds, bonus }
    }

    /// The period's base time in milliseconds.
    #[must_use]
    pub const fn base_ms(&self) -> u64 {
        self.seconds as u64 * MS_PER_SECOND
    }
}

/// A non-empty list of periods in which only the last may be open-ended.
///
/// If the last period has a move count, it repeats for as long as the game
/// goes on: this is how the PGN standard reads `40/7200:20/3600` (after move
/// 40, another hour every 20 moves), and how `40/5400` alone means 90
/// minutes for every 40 moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Periods(Vec<Period>);

impl Periods {
    /// Checks the list: it must not be empty, and only the last period may
    /// lack a move count.
    pub fn new(periods: Vec<Period>) -> Result<Periods, TimeControlError> {
        let Some((_, init)) = periods.split_last() else {
            return Err(TimeControlError::NoPeriods);
        };
        if let Some(index) = init.iter().position(|p| p.moves.is_none()) {
            return Err(TimeControlError::OpenEndedNotLast { index });
        }
        Ok(Periods(periods))
    }

    /// A single period; always valid.
    #[must_use]
    pub fn single(period: Period) -> Periods {
        Periods(vec![period])
    }

    /// The periods in order.
    #[must_use]
    pub fn as_slice(&self) -> &[Period] {
        &self.0
    }

    /// The first period (the list is never empty).
    #[must_use]
    pub fn first(&self) -> &Period {
        self.at(0)
    }

    /// Index into [`Periods::as_slice`] of the period a side is in after
    /// completing `completed` periods (the last one repeats).
    #[must_use]
    pub fn index_after(&self, completed: u32) -> usize {
        usize::try_from(completed).unwrap_or(usize::MAX).min(self.0.len() - 1)
    }

    /// The period a side is in after completing `completed` periods.
    #[must_use]
    pub fn at(&self, completed: u32) -> &Period {
        &self.0[self.index_after(completed)]
    }

    /// Whether the last period repeats (it has a move count).
    #[must_use]
    pub fn last_repeats(&self) -> bool {
        self.0.last().is_some_and(|p| p.moves.is_some())
    }
}

/// Correspondence chess: a number of days for each move.
///
/// Without a maximum, the clock is reset to the full allowance after every
/// move (as lichess and most servers do). With a maximum, unused time is
/// kept and each move adds the allowance, but the clock never holds more
/// than the maximum (an ICCF-like reserve).
///
/// The PGN standard has no notation for this (such games are tagged `-`);
/// our own tag form is `3d`, or `3d<=10d` with a maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Correspondence {
    days_per_move: u32,
    max_days: Option<u32>,
}

impl Correspondence {
    /// `days_per_move` must be at least 1 and `max_days`, if given, at least
    /// `days_per_move`.
    pub fn new(days_per_move: u32, max_days: Option<u32>) -> Result<Self, TimeControlError> {
        if days_per_move == 0 {
            return Err(TimeControlError::ZeroDaysPerMove);
        }
        if let Some(max) = max_days
            && max < days_per_move
        {
            return Err(TimeControlError::MaxBelowAllowance { days_per_move, max_days: max });
        }
        Ok(Correspondence { days_per_move, max_days })
    }

    /// Days given for each move.
    #[must_use]
    pub const fn days_per_move(&self) -> u32 {
        self.days_per_move
    }

    /// The most time the clock may hold, in days, if unused time is kept.
    #[must_use]
    pub const fn max_days(&self) -> Option<u32> {
        self.max_days
    }

    /// The per-move allowance in milliseconds.
    #[must_use]
    pub const fn allowance_ms(&self) -> u64 {
        self.days_per_move as u64 * MS_PER_DAY
    }

    /// The maximum in milliseconds, if any.
    #[must_use]
    pub const fn max_ms(&self) -> Option<u64> {
        match self.max_days {
            Some(d) => Some(d as u64 * MS_PER_DAY),
            None => None,
        }
    }
}

/// A complete time control.
///
/// `Display` gives a short human form such as `5+3` or
/// `40/90+30 then 30+30`; [`TimeControl::to_pgn`] and
/// [`TimeControl::from_pgn`] convert to and from the PGN tag.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    // Stored as its tag string: compact, readable, and validated on load.
    serde(try_from = "String", into = "String")
)]
pub enum TimeControl {
    /// No time limit (PGN `-`). The clock never flags.
    Unlimited,
    /// Conventional periods (PGN `300`, `300+2`, `40/5400+30:1800+30`).
    Periods(Periods),
    /// Sandclock / hourglass (PGN `*180`): each side starts with `seconds`,
    /// and whatever the side to move uses is added to the other side.
    Sandclock { seconds: u32 },
    /// Days per move (our own tag form `3d`, see [`Correspondence`]).
    Correspondence(Correspondence),
}

impl TimeControl {
    /// One period for the whole game with no bonus (PGN `300`).
    #[must_use]
    pub fn sudden_death(seconds: u32) -> TimeControl {
        Self::single(seconds, Bonus::None)
    }

    /// One period with a Fischer increment (PGN `300+2`).
    #[must_use]
    pub fn fischer(seconds: u32, increment: u32) -> TimeControl {
        Self::single(seconds, Bonus::Fischer(increment))
    }

    /// One period with a Bronstein delay (our tag `300+b5`).
    #[must_use]
    pub fn bronstein(seconds: u32, delay: u32) -> TimeControl {
        Self::single(seconds, Bonus::Bronstein(delay))
    }

    /// One period with a simple delay (our tag `300+d5`).
    #[must_use]
    pub fn simple_delay(seconds: u32, delay: u32) -> TimeControl {
        Self::single(seconds, Bonus::SimpleDelay(delay))
    }

    /// The usual "minutes + seconds" form, e.g. `(5, 3)` for 5+3.
    ///
    /// Always a Fischer bonus, even `+0`, so `from_minutes_increment(5, 0)`
    /// is written `300+0` as lichess does. `u16` minutes cannot overflow.
    #[must_use]
    pub fn from_minutes_increment(minutes: u16, increment_seconds: u32) -> TimeControl {
        Self::fischer(u32::from(minutes) * 60, increment_seconds)
    }

    /// Sandclock with `seconds` for each side (PGN `*180`).
    #[must_use]
    pub fn sandclock(seconds: u32) -> TimeControl {
        TimeControl::Sandclock { seconds }
    }

    /// Conventional periods; see [`Periods::new`] for the rules.
    pub fn periods(periods: Vec<Period>) -> Result<TimeControl, TimeControlError> {
        Periods::new(periods).map(TimeControl::Periods)
    }

    /// Correspondence; see [`Correspondence::new`].
    pub fn correspondence(days_per_move: u32, max_days: Option<u32>) -> Result<TimeControl, TimeControlError> {
        Correspondence::new(days_per_move, max_days).map(TimeControl::Correspondence)
    }

    fn single(seconds: u32, bonus: Bonus) -> TimeControl {
        TimeControl::Periods(Periods::single(Period::rest_of_game(seconds, bonus)))
    }

    /// Time each side starts with, in milliseconds; `None` when unlimited.
    #[must_use]
    pub fn initial_ms(&self) -> Option<u64> {
        match self {
            TimeControl::Unlimited => None,
            TimeControl::Periods(p) => Some(p.first().base_ms()),
            TimeControl::Sandclock { seconds } => Some(u64::from(*seconds) * MS_PER_SECOND),
            TimeControl::Correspondence(c) => Some(c.allowance_ms()),
        }
    }

    /// Time each side's clock shows at the start, in milliseconds: [`TimeControl::initial_ms`], except that a
    /// Fischer control with no base time (`0+2`) starts each side with its increment, at least
    /// [`NO_BASE_START_MS`] — as clocks in Fischer mode add the first increment before the first move, and as
    /// Lichess starts such games; otherwise the first timed move would lose on time at once. `None` when unlimited.
    #[must_use]
    pub fn start_ms(&self) -> Option<u64> {
        match self {
            TimeControl::Periods(p) if p.first().seconds == 0 => match p.first().bonus {
                Bonus::Fischer(inc) if inc > 0 => Some((u64::from(inc) * MS_PER_SECOND).max(NO_BASE_START_MS)),
                _ => Some(0),
            },
            _ => self.initial_ms(),
        }
    }

    /// Estimated duration of one side's play in seconds: base + 40 × bonus
    /// of the first period (delays count like increments, since each can
    /// be worth up to its amount per move); the sandclock's seconds; `None`
    /// for correspondence and unlimited.
    #[must_use]
    pub fn estimated_seconds(&self) -> Option<u64> {
        match self {
            TimeControl::Unlimited | TimeControl::Correspondence(_) => None,
            TimeControl::Periods(p) => {
                let first = p.first();
                Some(u64::from(first.seconds) + 40 * u64::from(first.bonus.seconds()))
            }
            TimeControl::Sandclock { seconds } => Some(u64::from(*seconds)),
        }
    }

    /// The speed category, by lichess's thresholds on
    /// [`TimeControl::estimated_seconds`].
    #[must_use]
    pub fn speed(&self) -> Speed {
        match self {
            TimeControl::Unlimited => Speed::Unlimited,
            TimeControl::Correspondence(_) => Speed::Correspondence,
            _ => match self.estimated_seconds().unwrap_or(u64::MAX) {
                0..30 => Speed::UltraBullet,
                30..180 => Speed::Bullet,
                180..480 => Speed::Blitz,
                480..1500 => Speed::Rapid,
                _ => Speed::Classical,
            },
        }
    }
}

/// How fast a game is, for pairing and ratings.
///
/// Clock games are classified by estimated duration (base + 40 × increment,
/// in seconds): under 30 ultrabullet, under 180 bullet, under 480 blitz,
/// under 1500 rapid, otherwise classical. UltraBullet is kept separate (as
/// on lichess) so the server can fold it into bullet if it wants. Unlike
/// lichess, very long clock games stay classical: only days-per-move games
/// are correspondence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "lowercase"))]
pub enum Speed {
    UltraBullet,
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
    Unlimited,
}

impl Speed {
    /// A stable lowercase identifier, e.g. `"ultrabullet"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
            Speed::Unlimited => "unlimited",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a time control could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// A conventional control needs at least one period.
    NoPeriods,
    /// Only the last period may run to the end of the game; the period at
    /// this index (0-based) has no move count but is not last.
    OpenEndedNotLast { index: usize },
    /// Correspondence needs at least one day per move.
    ZeroDaysPerMove,
    /// The correspondence maximum is below the per-move allowance.
    MaxBelowAllowance { days_per_move: u32, max_days: u32 },
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::NoPeriods => f.write_str("a time control needs at least one period"),
            TimeControlError::OpenEndedNotLast { index } => write!(
                f,
                "period {} has no move count, but only the last period may run to the end of the game",
                index + 1
            ),
            TimeControlError::ZeroDaysPerMove => f.write_str("correspondence needs at least 1 day per move"),
            TimeControlError::MaxBelowAllowance { days_per_move, max_days } => {
                write!(f, "correspondence maximum of {max_days} days is below the {days_per_move} days per move")
            }
        }
    }
}

impl std::error::Error for TimeControlError {}
