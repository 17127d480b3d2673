//! Chess clocks as pure values.
//!
//! Nothing in this crate reads the system time, sleeps or does I/O: every
//! operation that depends on time takes a caller-supplied [`Timestamp`]
//! (monotonic milliseconds), so a clock can be driven by a server, replayed
//! from a log, or tested with exact millisecond arithmetic.
//!
//! Where things live:
//!
//! - [`control`]: [`TimeControl`] and its parts ([`Period`], [`Periods`],
//!   [`Bonus`], [`Correspondence`]) plus [`Speed`] classification.
//! - [`pgn`]: reading and writing the PGN `TimeControl` tag
//!   ([`TimeControl::from_pgn`], [`TimeControl::to_pgn`], [`TimeControlTag`])
//!   and [`ParseTimeControlError`].
//! - [`describe`]: the short human form (`Display`) and
//!   [`TimeControl::describe`] in English or Simplified Chinese ([`Lang`]).
//! - [`clock`]: [`Clock`], the running state of both sides' clocks for one
//!   game, with [`Timestamp`], [`Press`], [`ClockState`] and [`ClockError`].
//! - [`lag`]: [`LagReserve`], an optional per-player quota the server can use
//!   to decide how much reported network lag to credit on each move.
//!
//! Durations are `u64` milliseconds throughout the clock (`*_ms` names);
//! time controls are stated in whole seconds (days for correspondence)
//! because that is what the PGN tag can express exactly.
//!
//! ```
//! use guoxiang_clock::{Clock, Lang, Side, TimeControl, Timestamp};
//!
//! let tc = TimeControl::from_pgn("300+2").unwrap();
//! assert_eq!(tc.to_string(), "5+2");
//! assert_eq!(tc.describe(Lang::En), "5 min, +2 s per move");
//!
//! let mut clock = Clock::new(tc);
//! clock.start(Timestamp(0)).unwrap();
//! // White moves after 10 s; 150 ms of it is forgiven as network lag.
//! let press = clock.press(Side::White, Timestamp(10_000), 150).unwrap();
//! assert_eq!(press.remaining_ms, Some(300_000 - 9_850 + 2_000));
//! assert_eq!(clock.running(), Some(Side::Black));
//! assert_eq!(clock.flag_fall(Timestamp(310_000)), Some(Side::Black));
//! ```

#![forbid(unsafe_code)]

pub mod clock;
pub mod control;
pub mod describe;
pub mod lag;
pub mod pgn;

pub use clock::{Clock, ClockError, ClockState, PeriodStatus, Press, Timestamp};
pub use control::{Bonus, Correspondence, NO_BASE_START_MS, Period, Periods, Speed, TimeControl, TimeControlError};
pub use describe::Lang;
pub use lag::LagReserve;
pub use pgn::{ParseErrorKind, ParseTimeControlError, TimeControlTag};

/// One of the two players, as far as the clock is concerned.
///
/// Deliberately separate from the rules crate's colour type so that this
/// crate has no dependencies; callers map between the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "lowercase"))]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// Both sides, White first.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::White => "white",
            Side::Black => "black",
        })
    }
}
