//! Random command sequences through the state machine: it never panics, versions go up by exactly one per event,
//! refused commands change nothing, the event log replays what was returned, snapshots restore exactly, and a
//! checkpoint puts the game back as it was after any one command.

mod common;

use common::*;
use guoxiang_game::{Action, ClaimKind, Color, Command, Game, MoveInput, Variant};
use proptest::prelude::*;

const CONTROLS: [&str; 6] = ["60+0", "180+2", "-", "1d", "40/60:30+1", "10+d2"];

/// Start positions: standard, Chess960, and endgames near the 50-move rule and with mating material on one side.
fn variant(i: u8) -> Variant {
    let fen = |f: &str| f.to_owned();
    match i % 5 {
        0 | 1 => Variant::Standard,
        2 => Variant::Chess960 { fen: fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1") },
        3 => Variant::FromPosition { fen: fen("4k3/8/8/8/8/8/8/R3K3 w - - 92 80") },
        _ => Variant::FromPosition { fen: fen("4k3/8/8/3q4/8/8/8/4K3 b - - 0 1") },
    }
}

fn color(x: u16) -> Color {
    if x.is_multiple_of(2) { Color::White } else { Color::Black }
}

/// A command from two random numbers, mostly legal moves by the side to move.
fn command(g: &Game, kind: u8, x: u16, now: u64) -> Command {
    let legal = g.position().legal_moves();
    let random_move = || {
        if legal.is_empty() {
            MoveInput::uci("e2e4")
        } else {
            MoveInput::Move(legal.as_slice()[x as usize % legal.len()])
        }
    };
    match kind % 24 {
        0..=9 => Command::Player {
            by: g.turn(),
            action: Action::Move { mv: random_move(), offer_draw: x.is_multiple_of(11) },
            lag_ms: u64::from(x % 1_500),
        },
        10 => Command::Player {
            by: !g.turn(),
            action: Action::Move { mv: MoveInput::uci("a1a1"), offer_draw: false },
            lag_ms: 0,
        },
        11 if x.is_multiple_of(8) => Command::by(color(x), Action::Resign),
        12 => Command::by(color(x), Action::OfferDraw),
        13 => Command::by(color(x), Action::AcceptDraw),
        14 => Command::by(color(x), Action::DeclineDraw),
        15 => Command::by(
            color(x / 2),
            Action::ClaimDraw {
                kind: if x.is_multiple_of(2) { ClaimKind::ThreefoldRepetition } else { ClaimKind::FiftyMoves },
                intended: x.is_multiple_of(3).then(random_move),
            },
        ),
        16 if x.is_multiple_of(8) => Command::by(color(x), Action::Abort),
        17 => Command::by(color(x), Action::TakebackOffer),
        18 => match x % 2 {
            0 => Command::by(color(x / 2), Action::TakebackAccept),
            _ => Command::by(color(x / 2), Action::TakebackDecline),
        },
        19 => Command::Disconnected { who: color(x), since: t(now.saturating_sub(u64::from(x) * 10)) },
        20 => Command::Reconnected { who: color(x) },
        21 => Command::by(color(x), Action::ClaimVictory),
        22 => Command::by(
            color(x),
            match x % 3 {
                0 => Action::RematchOffer,
                1 => Action::RematchAccept,
                _ => Action::RematchDecline,
            },
        ),
        11 | 16 => Command::Tick,
        _ => {
            if x.is_multiple_of(2) {
                Command::Adjourn
            } else {
                Command::Resume
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_games_never_panic_and_versions_increase(
        tc in 0..CONTROLS.len(),
        rated in any::<bool>(),
        start in any::<u8>(),
        steps in prop::collection::vec((any::<u8>(), any::<u16>(), 0u64..6_000), 1..200),
    ) {
        let mut g = Game::new(setup(CONTROLS[tc], rated, variant(start)), t(T0)).unwrap();
        let mut now = T0;
        for (i, (kind, x, dt)) in steps.into_iter().enumerate() {
            now += dt;
            let cmd = command(&g, kind, x, now);
            let before = g.version();
            let snap_before = g.snapshot(t(now));
            // What the server does when a commit fails: the command is carried out, then reverted.
            let view = |g: &Game| {
                let recent: Vec<String> = g.state().recent_positions().iter().map(|p| p.fen()).collect();
                (g.snapshot(t(now)), g.events_since(0), recent, g.state().outcome(), g.state().claim_move())
            };
            let seen = view(&g);
            let checkpoint = g.checkpoint();
            let _ = g.apply(t(now), cmd.clone());
            prop_assert!(g.revert(checkpoint), "{:?} could not be reverted", cmd);
            prop_assert_eq!(view(&g), seen, "{:?} was not reverted exactly", cmd);
            match g.apply(t(now), cmd.clone()) {
                Ok(events) => {
                    let versions: Vec<u64> = events.iter().map(|e| e.version).collect();
                    let expected: Vec<u64> = (before + 1..=before + events.len() as u64).collect();
                    prop_assert_eq!(versions, expected);
                    prop_assert_eq!(g.version(), before + events.len() as u64);
                    prop_assert_eq!(g.events_since(before), Some(events));
                }
                Err(e) => {
                    prop_assert_eq!(g.version(), before);
                    prop_assert_eq!(g.snapshot(t(now)), snap_before, "{:?} refused ({}) but changed the game", cmd, e);
                    prop_assert!(!e.message(guoxiang_core::Lang::Zh).is_empty());
                }
            }
            // `next_deadline` is when a tick first matters: never earlier, and exactly then without a delay control.
            if let Some(d) = g.next_deadline(t(now)) {
                if d.as_millis() <= now {
                    // Already due (the last command did not look at the clock, e.g. a presence update).
                    let mut due = g.clone();
                    prop_assert!(due.apply(t(now), Command::Tick).unwrap().len() == 1 && due.is_over());
                } else {
                    let mut early = g.clone();
                    prop_assert_eq!(early.apply(t(d.as_millis() - 1), Command::Tick).unwrap(), vec![]);
                    if !CONTROLS[tc].contains("+d") {
                        let mut due = g.clone();
                        prop_assert!(due.apply(d, Command::Tick).unwrap().len() == 1 && due.is_over());
                    }
                }
            }
            // The game and its record agree.
            prop_assert_eq!(g.moves().len(), g.state().moves().len());
            if i % 16 == 0 {
                let snap = g.snapshot(t(now));
                let json = serde_json::to_string(&snap).unwrap();
                let restored = Game::restore(serde_json::from_str(&json).unwrap(), t(now)).unwrap();
                let mut again = restored.snapshot(t(now));
                // The restored clock was paused and resumed at `now`: the same times, another internal form.
                for later in [now, now + 1, now + 12_345, now + 10_000_000] {
                    for side in guoxiang_clock::Side::BOTH {
                        prop_assert_eq!(again.clock.remaining(side, t(later)), snap.clock.remaining(side, t(later)));
                    }
                    prop_assert_eq!(again.clock.flag_fall(t(later)), snap.clock.flag_fall(t(later)));
                }
                prop_assert_eq!(again.clock.state(), snap.clock.state());
                again.clock = snap.clock.clone();
                prop_assert_eq!(again, snap);
            }
        }
        let pgn = g.to_pgn(&guoxiang_game::PgnTags::default());
        let read = guoxiang_pgn::Reader::new(pgn.as_bytes()).read_owned_game().unwrap().unwrap();
        prop_assert_eq!(read.mainline().count(), g.moves().len());
    }
}
