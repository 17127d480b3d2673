//! Clock behaviour for every kind of time control, with exact milliseconds.

use guoxiang_clock::{Clock, ClockError, ClockState, LagReserve, PeriodStatus, Press, Side, TimeControl, Timestamp};

const SEC: u64 = 1_000;
const MIN: u64 = 60 * SEC;
const DAY: u64 = 86_400 * SEC;

fn t(ms: u64) -> Timestamp {
    Timestamp(ms)
}

fn tc(tag: &str) -> TimeControl {
    TimeControl::from_pgn(tag).expect("valid tag")
}

/// A started clock and the current time, for playing moves in sequence.
struct Game {
    clock: Clock,
    now: u64,
}

impl Game {
    fn new(tag: &str) -> Game {
        let mut clock = Clock::new(tc(tag));
        clock.start(t(1_000)).unwrap();
        Game { clock, now: 1_000 }
    }

    /// The side to move thinks for `ms` and presses without lag credit.
    fn play(&mut self, ms: u64) -> Press {
        self.play_lag(ms, 0)
    }

    fn play_lag(&mut self, ms: u64, lag: u64) -> Press {
        let side = self.clock.running().expect("clock running");
        self.now += ms;
        self.clock.press(side, t(self.now), lag).expect("in time")
    }

    fn remaining(&self, side: Side) -> Option<u64> {
        self.clock.remaining(side, t(self.now))
    }
}

#[test]
fn sudden_death_flags_at_exactly_the_limit() {
    let mut clock = Clock::new(tc("300"));
    clock.start(t(1_000)).unwrap();
    assert_eq!(clock.remaining(Side::White, t(1_000)), Some(300_000));
    assert_eq!(clock.remaining(Side::White, t(300_999)), Some(1));
    assert_eq!(clock.flag_fall(t(300_999)), None);
    assert_eq!(clock.flag_fall(t(301_000)), Some(Side::White));
    assert_eq!(clock.remaining(Side::White, t(400_000)), Some(0));
    // Black's clock is not running.
    assert_eq!(clock.remaining(Side::Black, t(301_000)), Some(300_000));

    let mut late = clock.clone();
    assert_eq!(late.press(Side::White, t(301_000), 0), Err(ClockError::Flagged { side: Side::White }));
    assert_eq!(late, clock, "a refused press changes nothing");

    let press = clock.press(Side::White, t(300_999), 0).unwrap();
    assert_eq!(press.remaining_ms, Some(1));
    assert_eq!(press.used_ms, 299_999);
    assert_eq!(clock.running(), Some(Side::Black));
    assert_eq!(clock.flag_fall(t(600_998)), None);
    assert_eq!(clock.flag_fall(t(600_999)), Some(Side::Black));
}

#[test]
fn fischer_increment_is_added_after_each_move() {
    let mut g = Game::new("300+2");
    assert_eq!(g.play(10_000).remaining_ms, Some(292_000));
    assert_eq!(g.remaining(Side::White), Some(292_000));
    assert_eq!(g.play(5_000).remaining_ms, Some(297_000));
    // A move faster than the increment gains time.
    assert_eq!(g.play(500).remaining_ms, Some(293_500));
    assert_eq!(g.clock.moves_made(Side::White), 2);
    assert_eq!(g.clock.moves_made(Side::Black), 1);
    // The increment does not save a move made after the flag.
    let mut clock = Clock::new(tc("10+2"));
    clock.start(t(0)).unwrap();
    assert_eq!(clock.press(Side::White, t(10_000), 0), Err(ClockError::Flagged { side: Side::White }));
    assert_eq!(clock.press(Side::White, t(9_999), 0).unwrap().remaining_ms, Some(2_001));
}

#[test]
fn bronstein_gives_back_the_time_used_up_to_the_delay() {
    let mut g = Game::new("300+b5");
    // Used less than the delay: all of it comes back.
    assert_eq!(g.play(3_000).remaining_ms, Some(300_000));
    // Used more: only the delay comes back.
    assert_eq!(g.play(8_000).remaining_ms, Some(297_000));
    // Exactly the delay.
    assert_eq!(g.play(5_000).remaining_ms, Some(300_000));
    // The clock counts down normally during the move.
    g.now += 2_000;
    assert_eq!(g.remaining(Side::Black), Some(295_000));
}

#[test]
fn simple_delay_does_not_count_the_first_seconds() {
    let mut clock = Clock::new(tc("300+d5"));
    clock.start(t(0)).unwrap();
    assert_eq!(clock.remaining(Side::White, t(4_999)), Some(300_000));
    assert_eq!(clock.remaining(Side::White, t(5_000)), Some(300_000));
    assert_eq!(clock.remaining(Side::White, t(7_000)), Some(298_000));
    // A move within the delay costs nothing.
    let p = clock.press(Side::White, t(3_000), 0).unwrap();
    assert_eq!(p.remaining_ms, Some(300_000));
    assert_eq!(p.used_ms, 3_000);
    // A longer move costs its time beyond the delay, and nothing is added.
    let p = clock.press(Side::Black, t(11_000), 0).unwrap();
    assert_eq!(p.remaining_ms, Some(297_000));
    // The delay applies afresh on the next move.
    assert_eq!(clock.remaining(Side::White, t(16_000)), Some(300_000));
    assert_eq!(clock.remaining(Side::White, t(16_001)), Some(299_999));
}

#[test]
fn simple_delay_postpones_the_flag_by_the_delay() {
    let mut clock = Clock::new(tc("10+d5"));
    clock.start(t(0)).unwrap();
    assert_eq!(clock.flag_fall(t(14_999)), None);
    assert_eq!(clock.remaining(Side::White, t(14_999)), Some(1));
    assert_eq!(clock.flag_fall(t(15_000)), Some(Side::White));
    assert!(clock.press(Side::White, t(15_000), 0).is_err());
    assert_eq!(clock.press(Side::White, t(14_999), 0).unwrap().remaining_ms, Some(1));
}

#[test]
fn multi_period_adds_next_base_after_move_count_and_increment_from_move_one() {
    let mut g = Game::new("40/5400+30:1800+30");
    assert_eq!(g.clock.period(Side::White), Some(PeriodStatus { index: 0, number: 1, moves_left: Some(40) }));
    let mut white = 5_400_000;
    for move_no in 1..=39 {
        let p = g.play(60_000); // White: 60 s per move
        white = white - 60_000 + 30_000;
        assert_eq!(p.remaining_ms, Some(white), "after white move {move_no}");
        g.play(1_000); // Black: 1 s per move
    }
    assert_eq!(white, 4_230_000);
    assert_eq!(g.clock.period(Side::White).unwrap().moves_left, Some(1), "one move to the time control");
    // Move 40: increment, then the second period's 30 minutes on top.
    let p = g.play(60_000);
    assert_eq!(p.remaining_ms, Some(4_230_000 - 30_000 + 1_800_000));
    assert_eq!(p.remaining_ms, Some(6_000_000));
    assert_eq!(g.clock.period(Side::White), Some(PeriodStatus { index: 1, number: 2, moves_left: None }));
    // Black has made 39 moves and is still in the first period.
    assert_eq!(g.clock.period(Side::Black).unwrap().index, 0);
    g.play(1_000);
    assert_eq!(g.clock.period(Side::Black).unwrap().index, 1);
    // Black: 5400 s - 40 × 1 s + 40 × 30 s + 1800 s.
    assert_eq!(g.remaining(Side::Black), Some(5_400_000 - 40_000 + 1_200_000 + 1_800_000));
    // Move 41 keeps the 30 s increment; no further periods are added.
    assert_eq!(g.play(60_000).remaining_ms, Some(6_000_000 - 30_000));
    for _ in 0..100 {
        g.play(1_000);
    }
    assert_eq!(g.clock.period(Side::White).unwrap().number, 2);
}

#[test]
fn last_period_with_a_move_count_repeats() {
    let mut g = Game::new("40/7200:20/3600");
    let think = 10_000;
    let mut expected = 7_200_000;
    for move_no in 1..=100u32 {
        let p = g.play(think);
        expected -= think;
        if move_no == 40 || (move_no > 40 && (move_no - 40) % 20 == 0) {
            expected += 3_600_000;
        }
        assert_eq!(p.remaining_ms, Some(expected), "after white move {move_no}");
        g.play(think);
    }
    // Periods: 1-40, 41-60, 61-80, 81-100, now in the fifth.
    assert_eq!(g.clock.period(Side::White), Some(PeriodStatus { index: 1, number: 5, moves_left: Some(20) }));
    assert_eq!(expected, 7_200_000 - 1_000_000 + 4 * 3_600_000);
}

#[test]
fn single_period_with_move_count_repeats_itself() {
    let mut g = Game::new("2/60");
    assert_eq!(g.play(10_000).remaining_ms, Some(50_000));
    g.play(0);
    assert_eq!(g.play(10_000).remaining_ms, Some(100_000));
    assert_eq!(g.clock.period(Side::White), Some(PeriodStatus { index: 0, number: 2, moves_left: Some(2) }));
}

#[test]
fn sandclock_moves_used_time_to_the_opponent() {
    let mut clock = Clock::new(tc("*60"));
    clock.start(t(0)).unwrap();
    assert_eq!(clock.remaining(Side::White, t(10_000)), Some(50_000));
    assert_eq!(clock.remaining(Side::Black, t(10_000)), Some(70_000));
    let p = clock.press(Side::White, t(10_000), 0).unwrap();
    assert_eq!(p.remaining_ms, Some(50_000));
    assert_eq!(clock.remaining(Side::Black, t(10_000)), Some(70_000));
    // Black uses 25 s: back to White.
    assert_eq!(clock.remaining(Side::White, t(35_000)), Some(75_000));
    clock.press(Side::Black, t(35_000), 0).unwrap();
    assert_eq!(clock.remaining(Side::Black, t(35_000)), Some(45_000));
    // White's whole 75 s runs out; Black then holds all 120 s.
    assert_eq!(clock.flag_fall(t(109_999)), None);
    assert_eq!(clock.flag_fall(t(110_000)), Some(Side::White));
    assert_eq!(clock.remaining(Side::Black, t(500_000)), Some(120_000));
    // Without a flag, the total never changes.
    for now in [35_000, 50_000, 109_999] {
        let total = clock.remaining(Side::White, t(now)).unwrap() + clock.remaining(Side::Black, t(now)).unwrap();
        assert_eq!(total, 120_000);
    }
}

#[test]
fn pause_and_resume_do_not_charge_the_gap() {
    let mut clock = Clock::new(tc("300"));
    clock.start(t(0)).unwrap();
    clock.pause(t(10_000)).unwrap();
    assert_eq!(clock.state(), ClockState::Paused(Side::White));
    assert_eq!(clock.remaining(Side::White, t(10_000)), Some(290_000));
    assert_eq!(clock.remaining(Side::White, t(5_000_000)), Some(290_000));
    assert_eq!(clock.flag_fall(t(5_000_000)), None);
    assert_eq!(clock.press(Side::White, t(20_000), 0), Err(ClockError::NotRunning));
    assert_eq!(clock.pause(t(20_000)), Err(ClockError::NotRunning));
    clock.resume(t(1_000_000)).unwrap();
    assert_eq!(clock.state(), ClockState::Running(Side::White));
    assert_eq!(clock.remaining(Side::White, t(1_000_000)), Some(290_000));
    let p = clock.press(Side::White, t(1_005_000), 0).unwrap();
    assert_eq!(p.remaining_ms, Some(285_000));
    assert_eq!(p.used_ms, 15_000);
    assert_eq!(clock.resume(t(1_006_000)), Err(ClockError::NotPaused));
}

#[test]
fn simple_delay_carries_across_a_pause() {
    let mut clock = Clock::new(tc("300+d5"));
    clock.start(t(0)).unwrap();
    clock.pause(t(3_000)).unwrap();
    clock.resume(t(100_000)).unwrap();
    // 3 s before the pause + 4 s after = 7 s, 5 s of it delay.
    assert_eq!(clock.remaining(Side::White, t(104_000)), Some(298_000));
    assert_eq!(clock.press(Side::White, t(104_000), 0).unwrap().remaining_ms, Some(298_000));
}

#[test]
fn lag_credit_is_capped_by_the_elapsed_time() {
    let mut g = Game::new("300");
    let p = g.play_lag(10_000, 500);
    assert_eq!(p.remaining_ms, Some(290_500));
    assert_eq!(p.used_ms, 9_500);
    // Credit larger than the move's time: the move costs nothing, no more.
    let p = g.play_lag(200, 1_000);
    assert_eq!(p.remaining_ms, Some(300_000));
    assert_eq!(p.used_ms, 0);
    assert_eq!(g.clock.used(Side::Black, t(g.now)), 0);
}

#[test]
fn lag_credit_can_save_a_press_that_flag_fall_would_flag() {
    let mut clock = Clock::new(tc("60"));
    clock.start(t(0)).unwrap();
    assert_eq!(clock.flag_fall(t(60_100)), Some(Side::White));
    assert_eq!(clock.press(Side::White, t(60_100), 100), Err(ClockError::Flagged { side: Side::White }));
    let p = clock.press(Side::White, t(60_100), 200).unwrap();
    assert_eq!(p.remaining_ms, Some(100));
}

#[test]
fn lag_reserve_credits_within_quota_and_refills_to_a_cap() {
    let mut r = LagReserve::new(300, 100, 500);
    assert_eq!(r.credit(1_000), 300);
    assert_eq!(r.reserve_ms(), 100);
    assert_eq!(r.credit(50), 50);
    assert_eq!(r.reserve_ms(), 150);
    for _ in 0..10 {
        r.credit(0);
    }
    assert_eq!(r.reserve_ms(), 500);
    assert_eq!(r.credit(10_000), 500);
    // Initial reserve is clamped to the cap.
    assert_eq!(LagReserve::new(900, 1, 500).reserve_ms(), 500);

    let blitz = LagReserve::for_time_control(&tc("300+0"));
    assert_eq!((blitz.gain_ms(), blitz.reserve_ms(), blitz.cap_ms()), (1_000, 3_000, 7_000));
    assert_eq!(LagReserve::for_time_control(&tc("60")).gain_ms(), 400);
    assert_eq!(LagReserve::for_time_control(&tc("15")).gain_ms(), 200);
    assert_eq!(LagReserve::for_time_control(&tc("-")).gain_ms(), 1_000);
    assert_eq!(LagReserve::for_time_control(&tc("3d")).gain_ms(), 1_000);
}

#[test]
fn correspondence_resets_to_the_allowance_after_each_move() {
    let mut clock = Clock::new(tc("3d"));
    clock.start(t(0)).unwrap();
    assert_eq!(clock.remaining(Side::White, t(0)), Some(3 * DAY));
    let p = clock.press(Side::White, t(2 * DAY), 0).unwrap();
    assert_eq!(p.remaining_ms, Some(3 * DAY));
    assert_eq!(p.used_ms, 2 * DAY);
    // Black's 3 days are measured from White's move.
    assert_eq!(clock.flag_fall(t(5 * DAY - 1)), None);
    assert_eq!(clock.flag_fall(t(5 * DAY)), Some(Side::Black));
    assert_eq!(clock.press(Side::Black, t(5 * DAY), 0), Err(ClockError::Flagged { side: Side::Black }));
    assert_eq!(clock.press(Side::Black, t(5 * DAY - 1), 0).unwrap().remaining_ms, Some(3 * DAY));
}

#[test]
fn correspondence_with_maximum_keeps_unused_time_up_to_the_cap() {
    let mut g = Game::new("3d<=10d");
    assert_eq!(g.play(DAY).remaining_ms, Some(5 * DAY));
    g.play(0);
    assert_eq!(g.play(0).remaining_ms, Some(8 * DAY));
    g.play(0);
    assert_eq!(g.play(0).remaining_ms, Some(10 * DAY), "capped");
    g.play(0);
    assert_eq!(g.play(4 * DAY).remaining_ms, Some(9 * DAY));
}

#[test]
fn unlimited_never_flags() {
    let mut clock = Clock::new(tc("-"));
    clock.start(t(0)).unwrap();
    let far = u64::MAX / 2;
    assert_eq!(clock.remaining(Side::White, t(far)), None);
    assert_eq!(clock.flag_fall(t(far)), None);
    let p = clock.press(Side::White, t(far), 0).unwrap();
    assert_eq!(p, Press { remaining_ms: None, used_ms: far });
    assert_eq!(clock.used(Side::White, t(far)), far);
    assert_eq!(clock.used(Side::Black, t(far + 7)), 7);
    clock.add_time(Side::Black, MIN);
    assert_eq!(clock.remaining(Side::Black, t(far)), None);
    assert_eq!(clock.period(Side::White), None);
}

#[test]
fn add_time_credits_either_side() {
    let mut clock = Clock::new(tc("300"));
    clock.start(t(0)).unwrap();
    clock.add_time(Side::Black, 2 * MIN);
    clock.add_time(Side::White, 2 * MIN);
    assert_eq!(clock.remaining(Side::Black, t(10_000)), Some(420_000));
    assert_eq!(clock.remaining(Side::White, t(10_000)), Some(410_000));
    // A flagged side is revived by added time.
    assert_eq!(clock.flag_fall(t(420_000)), Some(Side::White));
    clock.add_time(Side::White, SEC);
    assert_eq!(clock.flag_fall(t(420_000)), None);
    assert_eq!(clock.remaining(Side::White, t(420_000)), Some(1_000));
}

#[test]
fn stop_charges_the_turn_in_progress_and_freezes() {
    let mut clock = Clock::new(tc("300+5"));
    clock.start(t(0)).unwrap();
    clock.press(Side::White, t(1_000), 0).unwrap();
    clock.stop(t(31_000));
    assert_eq!(clock.state(), ClockState::Stopped);
    // 30 s charged, no increment, not a move.
    assert_eq!(clock.remaining(Side::Black, t(99_000)), Some(270_000));
    assert_eq!(clock.remaining(Side::White, t(99_000)), Some(304_000));
    assert_eq!(clock.moves_made(Side::Black), 0);
    assert_eq!(clock.used(Side::Black, t(99_000)), 30_000);
    assert_eq!(clock.flag_fall(t(999_999)), None);
    assert_eq!(clock.press(Side::Black, t(32_000), 0), Err(ClockError::NotRunning));
    // Stopping after the flag leaves 0, not an underflow.
    let mut flagged = Clock::new(tc("*10"));
    flagged.start(t(0)).unwrap();
    flagged.stop(t(50_000));
    assert_eq!(flagged.remaining(Side::White, t(0)), Some(0));
    assert_eq!(flagged.remaining(Side::Black, t(0)), Some(20_000));
}

#[test]
fn misuse_is_refused_without_changes() {
    let mut clock = Clock::new(tc("300"));
    assert_eq!(clock.state(), ClockState::NotStarted);
    assert_eq!(clock.flag_fall(t(1_000_000)), None);
    assert_eq!(clock.press(Side::White, t(0), 0), Err(ClockError::NotRunning));
    clock.start_with(Side::Black, t(0)).unwrap();
    assert_eq!(clock.start(t(5)), Err(ClockError::AlreadyStarted));
    assert_eq!(clock.press(Side::White, t(5), 0), Err(ClockError::NotOnMove { side: Side::White }));
    assert_eq!(clock.running(), Some(Side::Black));
    // A timestamp before the turn began counts as no time passing.
    let p = clock.press(Side::Black, t(0), 0).unwrap();
    clock.press(Side::White, t(0), 0).unwrap();
    assert_eq!(clock.remaining(Side::Black, t(0)), Some(300_000));
    assert_eq!(p.used_ms, 0);
    assert_eq!(ClockError::Flagged { side: Side::Black }.to_string(), "black's time ran out before the move");
}

#[test]
fn zero_base_starts_with_three_seconds_and_time_can_be_granted() {
    let mut clock = Clock::new(tc("0+1"));
    clock.start(t(0)).unwrap();
    assert_eq!(clock.flag_fall(t(2_999)), None);
    assert_eq!(clock.flag_fall(t(3_000)), Some(Side::White));
    clock.add_time(Side::White, 3_000);
    clock.add_time(Side::Black, 3_000);
    assert_eq!(clock.flag_fall(t(3_000)), None);
    assert_eq!(clock.press(Side::White, t(5_000), 0).unwrap().remaining_ms, Some(6_000 - 5_000 + 1_000));
    // A delay adds nothing of its own: with no base, the time used beyond the delay is more than the clock has.
    let mut delay = Clock::new(tc("0+d5"));
    delay.start(t(0)).unwrap();
    assert_eq!(delay.remaining(Side::White, t(0)), Some(0));
}

#[cfg(feature = "serde")]
#[test]
fn snapshot_restores_a_running_clock_exactly() {
    let mut g = Game::new("40/5400+30:1800+30");
    for _ in 0..45 {
        g.play(7_000);
    }
    g.now += 3_333;
    let json = serde_json::to_string(&g.clock).unwrap();
    assert!(json.contains("\"40/5400+30:1800+30\""), "{json}");
    let mut restored: Clock = serde_json::from_str(&json).unwrap();
    assert_eq!(restored, g.clock);
    let later = t(g.now + 1_000);
    let side = restored.running().unwrap();
    assert_eq!(restored.press(side, later, 0), g.clock.press(side, later, 0));
    assert_eq!(restored, g.clock);

    // A paused clock survives too.
    g.clock.pause(t(g.now + 5_000)).unwrap();
    let json = serde_json::to_string(&g.clock).unwrap();
    let restored: Clock = serde_json::from_str(&json).unwrap();
    assert_eq!(restored, g.clock);
    // 46 presses from White's start: White was on move.
    assert_eq!(restored.state(), ClockState::Paused(Side::White));

    // An invalid time control in a snapshot is rejected, not accepted.
    let bad = json.replace("40/5400+30:1800+30", "0/5400");
    let err = serde_json::from_str::<Clock>(&bad).unwrap_err();
    assert!(err.to_string().contains("move count"), "{err}");
}

#[test]
fn hand_over_charges_the_turn_and_runs_the_other_side() {
    use guoxiang_clock::{Clock, Side, TimeControl, Timestamp};
    let mut c = Clock::new(TimeControl::fischer(300, 5));
    c.start(Timestamp(0)).unwrap();
    c.press(Side::White, Timestamp(10_000), 0).unwrap(); // white: 300 - 10 + 5 = 295 s
    // Black thinks 4 s, then a takeback hands the turn back to white: black is charged, no increment.
    c.hand_over(Some(Side::White), Timestamp(14_000));
    assert_eq!(c.remaining(Side::Black, Timestamp(14_000)), Some(296_000));
    assert_eq!(c.running(), Some(Side::White));
    assert_eq!(c.remaining(Side::White, Timestamp(20_000)), Some(289_000));
    c.hand_over(None, Timestamp(20_000));
    assert_eq!(c.running(), None);
    assert_eq!(c.remaining(Side::White, Timestamp(99_000)), Some(289_000), "not started: nothing runs");
}

/// `0+2`: no base time. Each side starts with its increment (at least 3 s, as Lichess), so the first timed move does
/// not lose on time at once; a delay or no bonus gives nothing.
#[test]
fn no_base_time_starts_with_the_increment() {
    for (tag, start) in [("0+2", 3_000), ("0+5", 5_000), ("0+1", 3_000), ("180+2", 180_000), ("0+b5", 0)] {
        let control = tc(tag);
        assert_eq!(control.start_ms(), Some(start), "{tag}");
        let clock = Clock::new(control.clone());
        assert_eq!(clock.remaining(Side::White, t(0)), Some(start), "{tag}");
        // What the control says it is does not change: the tag's base time.
        assert_eq!(control.initial_ms(), Some(if tag.starts_with("180") { 180_000 } else { 0 }), "{tag}");
    }
    let mut g = Game::new("0+2");
    let press = g.play(2_500);
    assert_eq!(press.remaining_ms, Some(3_000 - 2_500 + 2_000));
    assert_eq!(g.clock.flag_fall(t(g.now + 100)), None);
}
