//! Lag compensation quota, kept apart from the clock.
//!
//! The clock only subtracts whatever credit the caller passes to
//! [`Clock::press`](crate::Clock::press). [`LagReserve`] is one way to decide
//! that credit: each player has a reserve; the lag they report on a move is
//! credited out of it, and every move refills it by a fixed gain, up to a
//! cap. A player with a steadily bad connection gets roughly `gain` per move
//! forgiven; bursts are absorbed by the reserve; nobody gets unbounded
//! free time by over-reporting lag.

use crate::control::TimeControl;

/// Per-move refill for slow games, in ms (estimate of 180 s or more).
pub const MAX_GAIN_MS: u64 = 1_000;
/// Per-move refill for the fastest games, in ms.
pub const MIN_GAIN_MS: u64 = 200;
/// Starting reserve, in multiples of the per-move gain.
pub const INITIAL_GAINS: u64 = 3;
/// Largest reserve, in multiples of the per-move gain.
pub const CAP_GAINS: u64 = 7;

/// One player's lag-credit reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LagReserve {
    reserve_ms: u64,
    gain_ms: u64,
    cap_ms: u64,
}

impl LagReserve {
    /// A reserve starting at `initial_ms` (at most `cap_ms`), refilled by
    /// `gain_ms` per move, never above `cap_ms`.
    #[must_use]
    pub fn new(initial_ms: u64, gain_ms: u64, cap_ms: u64) -> LagReserve {
        LagReserve { reserve_ms: initial_ms.min(cap_ms), gain_ms, cap_ms }
    }

    /// Defaults scaled to the game's pace, so lag credit stays a small part
    /// of each move's time: the gain is `100 + 5 × estimated seconds` ms,
    /// clamped to [`MIN_GAIN_MS`]..=[`MAX_GAIN_MS`] (1 s from an estimate
    /// of 180 s up, and for correspondence and unlimited); the reserve
    /// starts at [`INITIAL_GAINS`] gains and is capped at [`CAP_GAINS`].
    #[must_use]
    pub fn for_time_control(control: &TimeControl) -> LagReserve {
        let gain = control
            .estimated_seconds()
            .map_or(MAX_GAIN_MS, |s| s.saturating_mul(5).saturating_add(100))
            .clamp(MIN_GAIN_MS, MAX_GAIN_MS);
        LagReserve::new(gain * INITIAL_GAINS, gain, gain * CAP_GAINS)
    }

    /// Records a move with `reported_lag_ms` of lag and returns the credit
    /// to pass to [`Clock::press`](crate::Clock::press): the reported lag,
    /// as far as the reserve covers it. The reserve then gains its refill.
    pub fn credit(&mut self, reported_lag_ms: u64) -> u64 {
        let credit = reported_lag_ms.min(self.reserve_ms);
        self.reserve_ms = (self.reserve_ms - credit).saturating_add(self.gain_ms).min(self.cap_ms);
        credit
    }

    /// What is left in the reserve.
    #[must_use]
    pub fn reserve_ms(&self) -> u64 {
        self.reserve_ms
    }

    /// The per-move refill.
    #[must_use]
    pub fn gain_ms(&self) -> u64 {
        self.gain_ms
    }

    /// The most the reserve can hold.
    #[must_use]
    pub fn cap_ms(&self) -> u64 {
        self.cap_ms
    }
}
