//! Time management: from the clock situation in [`Limits`], a soft limit (don't start another iteration after it)
//! and a hard limit (abort the search at it). A safety margin, `Move Overhead`, is kept back for the GUI and the
//! network, and the hard limit never goes beyond what is left on the clock minus that margin.

use crate::Limits;
use guoxiang_core::Color;
use std::time::Duration;

/// How long to think.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Past this, no new iteration is started.
    pub soft: Option<Duration>,
    /// Past this, the search stops at once.
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// No limit (depth, nodes, infinite or ponder searches).
    pub const UNLIMITED: TimeBudget = TimeBudget { soft: None, hard: None };

    /// The budget for `us` under `limits`, keeping `overhead` in reserve.
    pub fn new(limits: &Limits, us: Color, overhead: Duration) -> TimeBudget {
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            return TimeBudget { soft: Some(t), hard: Some(t) };
        }
        // A GUI that sends only the other side's clock gets that clock used for ours: better than no limit.
        let (time, inc) = match us {
            Color::White => (limits.wtime.or(limits.btime), limits.winc),
            Color::Black => (limits.btime.or(limits.wtime), limits.binc),
        };
        let Some(time) = time else {
            return TimeBudget::UNLIMITED;
        };
        let inc = inc.unwrap_or(Duration::ZERO);
        // What may be spent at all: the clock minus the reserve (never negative; at least a millisecond).
        let usable = time.saturating_sub(overhead).max(Duration::from_millis(1));
        let moves_to_go = limits.movestogo.map_or(30, |m| m.clamp(1, 50));
        // Sudden death / increment: a share of the clock plus most of the increment. With moves to go, a share of
        // the remaining moves, keeping a little for the last one.
        let base = usable / moves_to_go + inc * 3 / 4;
        let soft = base.min(usable / 2);
        let hard_cap = if moves_to_go == 1 { usable * 9 / 10 } else { usable / 3 };
        let hard = (base * 4).min(hard_cap).max(soft);
        TimeBudget { soft: Some(soft.max(Duration::from_millis(1))), hard: Some(hard.max(Duration::from_millis(1))) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budgets() {
        let overhead = ms(30);
        let l = Limits { movetime: Some(ms(200)), ..Limits::default() };
        assert_eq!(
            TimeBudget::new(&l, Color::White, overhead),
            TimeBudget { soft: Some(ms(170)), hard: Some(ms(170)) }
        );

        let l = Limits { wtime: Some(ms(60_000)), btime: Some(ms(1_000)), ..Limits::default() };
        let w = TimeBudget::new(&l, Color::White, overhead);
        let b = TimeBudget::new(&l, Color::Black, overhead);
        assert!(w.soft.unwrap() > ms(1_000) && w.soft.unwrap() < ms(5_000));
        assert!(w.hard.unwrap() <= ms(60_000) / 3);
        assert!(b.hard.unwrap() < ms(400));

        // Almost flagging: still a positive budget below the clock.
        let l = Limits { wtime: Some(ms(20)), ..Limits::default() };
        let t = TimeBudget::new(&l, Color::White, overhead);
        assert!(t.hard.unwrap() <= ms(20));

        // Increment is used.
        let l = Limits { wtime: Some(ms(10_000)), winc: Some(ms(1_000)), ..Limits::default() };
        assert!(TimeBudget::new(&l, Color::White, overhead).soft.unwrap() > ms(900));

        // One move to the time control: most of the clock may go, but never all of it.
        let l = Limits { wtime: Some(ms(10_000)), movestogo: Some(1), ..Limits::default() };
        let t = TimeBudget::new(&l, Color::White, overhead);
        assert!(t.hard.unwrap() < ms(10_000) - overhead + ms(1));

        assert_eq!(TimeBudget::new(&Limits::default(), Color::White, overhead), TimeBudget::UNLIMITED);
        let l = Limits { wtime: Some(ms(1_000)), ..Limits::default() };
        assert!(TimeBudget::new(&l, Color::Black, overhead).hard.unwrap() < ms(1_000));
    }
}
