//! Property tests: the parser never panics and round-trips, and clock
//! invariants hold over random games.

use std::num::NonZeroU32;

use guoxiang_clock::{Bonus, Clock, Lang, Period, Side, TimeControl, TimeControlTag, Timestamp};
use proptest::prelude::*;

fn bonus() -> impl Strategy<Value = Bonus> {
    prop_oneof![
        Just(Bonus::None),
        any::<u32>().prop_map(Bonus::Fischer),
        any::<u32>().prop_map(Bonus::Bronstein),
        any::<u32>().prop_map(Bonus::SimpleDelay),
    ]
}

fn period(with_moves: bool) -> impl Strategy<Value = Period> {
    let moves = if with_moves {
        (1..=u32::MAX).prop_map(NonZeroU32::new).boxed()
    } else {
        prop_oneof![Just(None), (1..=u32::MAX).prop_map(NonZeroU32::new)].boxed()
    };
    (moves, any::<u32>(), bonus()).prop_map(|(moves, seconds, bonus)| Period { moves, seconds, bonus })
}

fn time_control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        Just(TimeControl::Unlimited),
        (prop::collection::vec(period(true), 0..4), period(false)).prop_map(|(mut init, last)| {
            init.push(last);
            TimeControl::periods(init).expect("valid by construction")
        }),
        any::<u32>().prop_map(TimeControl::sandclock),
        (1..=u32::MAX, any::<Option<u32>>()).prop_map(|(days, extra)| {
            let max = extra.map(|e| days.saturating_add(e));
            TimeControl::correspondence(days, max).expect("valid by construction")
        }),
    ]
}

/// Checks whatever the parser returns for `input`.
fn check_parse(input: &str) -> Result<(), TestCaseError> {
    match input.parse::<TimeControlTag>() {
        Ok(tag) => {
            let written = tag.to_string();
            prop_assert_eq!(written.parse::<TimeControlTag>(), Ok(tag.clone()));
            if let TimeControlTag::Known(tc) = tag {
                prop_assert!(!tc.to_string().is_empty());
                prop_assert!(!tc.describe(Lang::Zh).is_empty());
            }
        }
        Err(err) => {
            let len = input.chars().count();
            prop_assert!(err.column() >= 1 && err.column() <= len + 1);
            let message = err.to_string();
            let column = format!("column {}", err.column());
            prop_assert!(message.contains(&column), "{}", message);
            prop_assert!(message.starts_with("time control '"));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn parser_never_panics_on_any_string(input in any::<String>()) {
        check_parse(&input)?;
    }

    #[test]
    fn parser_never_panics_on_tag_like_strings(input in "[ 0-9/+:*?dbx<=-]{0,24}") {
        check_parse(&input)?;
    }

    #[test]
    fn huge_numbers_error_instead_of_wrapping(digits in "[1-9][0-9]{10,40}", prefix in "(|\\*|40/|300\\+|300\\+d)") {
        let input = format!("{prefix}{digits}");
        let err = TimeControl::from_pgn(&input).unwrap_err();
        prop_assert_eq!(err.column(), prefix.len() + 1);
    }

    #[test]
    fn written_tags_read_back_equal(tc in time_control()) {
        let tag = tc.to_pgn();
        prop_assert_eq!(TimeControl::from_pgn(&tag), Ok(tc.clone()));
        prop_assert_eq!(TimeControl::from_pgn(&format!(" {tag}\t")), Ok(tc.clone()));
        // Human forms and classification never panic, even at the extremes.
        prop_assert!(!tc.to_string().is_empty());
        prop_assert!(!tc.describe(Lang::En).is_empty());
        let _ = tc.speed();
    }

    #[test]
    fn sandclock_conserves_total_time(
        seconds in 1u32..600,
        thinks in prop::collection::vec(0u64..30_000, 1..40),
    ) {
        let mut clock = Clock::new(TimeControl::sandclock(seconds));
        let total = 2 * u64::from(seconds) * 1_000;
        let mut now = 0;
        clock.start(Timestamp(now)).unwrap();
        for think in thinks {
            now += think;
            let side = clock.running().unwrap();
            let sum = clock.remaining(Side::White, Timestamp(now)).unwrap()
                + clock.remaining(Side::Black, Timestamp(now)).unwrap();
            prop_assert_eq!(sum, total);
            if clock.flag_fall(Timestamp(now)).is_some() {
                prop_assert!(clock.press(side, Timestamp(now), 0).is_err());
                break;
            }
            prop_assert!(clock.press(side, Timestamp(now), 0).is_ok());
        }
    }

    #[test]
    fn fischer_remaining_is_base_minus_used_plus_increments(
        base in 1u32..600,
        inc in 0u32..30,
        thinks in prop::collection::vec(0u64..20_000, 1..60),
    ) {
        let mut clock = Clock::new(TimeControl::fischer(base, inc));
        let mut now = 1_000;
        clock.start(Timestamp(now)).unwrap();
        let mut expected = [u64::from(base) * 1_000; 2];
        for think in thinks {
            let side = clock.running().unwrap();
            let i = side as usize;
            now += think;
            let flagged_now = clock.flag_fall(Timestamp(now)) == Some(side);
            prop_assert_eq!(flagged_now, think >= expected[i]);
            match clock.press(side, Timestamp(now), 0) {
                Ok(p) => {
                    expected[i] = expected[i] - think + u64::from(inc) * 1_000;
                    prop_assert_eq!(p.remaining_ms, Some(expected[i]));
                }
                Err(_) => {
                    prop_assert!(flagged_now);
                    break;
                }
            }
        }
    }
}
