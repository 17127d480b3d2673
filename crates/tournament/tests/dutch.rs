// SPDX-License-Identifier: GPL-3.0-or-later
//! The Dutch system on small hand-made rounds, each checking an article of C.04.3; the expected boards of the
//! first three were also checked with bbpPairings. With GUOXIANG_BBP pointing at a bbpPairings binary, a few
//! random tournaments are compared with it.

use guoxiang_tournament::dutch::{self, Entrant, Game, Input, Pairing, PairingError, Side};
use guoxiang_tournament::trf;

/// A round-1 TRF of `n` players rated from 2000 down, with lines added after `XXC white1`.
fn round_one(n: u16, extra: &str) -> String {
    let mut s = format!("XXR 5\nXXC white1\n{extra}");
    for i in 1..=n {
        s.push_str(&format!("001 {i:>4}      Player {i:<26} {:>4}                             0.0\n", 2800 - 5 * i));
    }
    s
}

fn pair_trf(text: &str) -> Result<Pairing, PairingError> {
    let t = trf::parse(text).expect("a valid TRF");
    dutch::pair(&dutch::input_from_trf(&t)?)
}

fn boards(p: &Pairing) -> Vec<(u16, u16)> {
    p.boards.iter().map(|b| (b.white, b.black)).collect()
}

fn game(opponent: u16, colour: Side, points: u32) -> Game {
    Game { opponent: Some(opponent), colour: Some(colour), points, played: true, pairing_bye: false }
}

#[test]
fn round_one_is_s1_against_s2_with_alternating_colours() {
    // 2.2 and 4 (S1 = 1-4 against S2 = 5-8), E.5 (odd numbers get the initial colour).
    let p = pair_trf(&round_one(8, "")).unwrap();
    assert_eq!(boards(&p), [(1, 5), (6, 2), (3, 7), (8, 4)]);
    assert_eq!(p.bye, None);
}

#[test]
fn the_bye_goes_to_the_lowest_player_in_round_one() {
    let p = pair_trf(&round_one(7, "")).unwrap();
    assert_eq!(boards(&p), [(1, 4), (5, 2), (3, 6)]);
    assert_eq!(p.bye, Some(7));
}

#[test]
fn a_forbidden_pair_is_never_paired() {
    // XXP 1 5: the first transposition of S2 that avoids it, 1-6 and 5-2.
    let p = pair_trf(&round_one(8, "XXP 1 5\n")).unwrap();
    assert_eq!(boards(&p), [(1, 6), (5, 2), (3, 7), (8, 4)]);
}

#[test]
fn round_two_pairs_the_winners_and_alternates_colours() {
    let text = "XXR 5\nXXC white1\n\
001    1      A                                 2000                             1.0       0005 w 1\n\
001    2      B                                 1900                             1.0       0006 b 1\n\
001    3      C                                 1800                             1.0       0007 w 1\n\
001    4      D                                 1700                             1.0       0008 b 1\n\
001    5      E                                 1600                             0.0       0001 b 0\n\
001    6      F                                 1500                             0.0       0002 w 0\n\
001    7      G                                 1400                             0.0       0003 b 0\n\
001    8      H                                 1300                             0.0       0004 w 0\n";
    // E.1 grants every preference here (bbpPairings gives the same boards).
    let p = pair_trf(text).unwrap();
    assert_eq!(boards(&p), [(4, 1), (2, 3), (5, 8), (7, 6)]);
}

/// Four players who have all played two rounds, for the colour and repeat tests.
fn four(history: [Vec<Game>; 4], total_rounds: u32) -> Input {
    Input {
        total_rounds,
        initial_colour: Some(Side::White),
        players: history
            .into_iter()
            .enumerate()
            .map(|(i, h)| Entrant { start_number: i as u16 + 1, history: h, absent: false })
            .collect(),
        forbidden: Vec::new(),
    }
}

#[test]
fn no_second_game_between_two_players() {
    // C.1: 1 and 2 met in round 1, so round 2 pairs 1-3 and 2-4 (or 1-4 and 2-3), never 1-2.
    let input = four(
        [
            vec![game(2, Side::White, 1)],
            vec![game(1, Side::Black, 1)],
            vec![game(4, Side::White, 1)],
            vec![game(3, Side::Black, 1)],
        ],
        3,
    );
    let p = dutch::pair(&input).unwrap();
    for b in &p.boards {
        let pair = [b.white.min(b.black), b.white.max(b.black)];
        assert!(pair != [1, 2] && pair != [3, 4], "{:?}", p.boards);
    }
    assert_eq!(p.boards.len(), 2);
}

#[test]
fn absolute_colour_preferences_never_clash_before_the_last_round() {
    // 1 and 2 both had White twice and want Black absolutely; 3 and 4 are absent. Before the last round the
    // two cannot meet (C.3); in the last round, as topscorers, they may, and E.4 gives the higher-ranked player
    // (1, whose history is the same as 2's) his preference.
    let history = [
        vec![game(3, Side::White, 2), game(4, Side::White, 2)],
        vec![game(4, Side::White, 2), game(3, Side::White, 2)],
        vec![game(1, Side::Black, 0), game(2, Side::Black, 0)],
        vec![game(2, Side::Black, 0), game(1, Side::Black, 0)],
    ];
    let mut input = four(history, 5);
    input.players[2].absent = true;
    input.players[3].absent = true;
    assert_eq!(dutch::pair(&input), Err(PairingError::NoLegalPairing));
    input.total_rounds = 3;
    let p = dutch::pair(&input).unwrap();
    assert_eq!(boards(&p), [(2, 1)]);
}

#[test]
fn a_player_never_gets_the_pairing_allocated_bye_twice() {
    // C.2: 3 had the bye in round 1 and is the lowest again; the bye goes to 2 instead.
    let bye = Game { opponent: None, colour: None, points: 2, played: false, pairing_bye: true };
    let input = Input {
        total_rounds: 4,
        initial_colour: Some(Side::White),
        players: vec![
            Entrant { start_number: 1, history: vec![game(2, Side::White, 2)], absent: false },
            Entrant { start_number: 2, history: vec![game(1, Side::Black, 0)], absent: false },
            Entrant { start_number: 3, history: vec![bye], absent: false },
        ],
        forbidden: Vec::new(),
    };
    let p = dutch::pair(&input).unwrap();
    assert_ne!(p.bye, Some(3));
    assert_eq!(p.bye, Some(2));
}

#[test]
fn colours_follow_e1_to_e4() {
    // 1 (W) against 2 (B) after round 1: E.1 grants both (2 White, 1 Black).
    let input = Input {
        total_rounds: 3,
        initial_colour: Some(Side::White),
        players: vec![
            Entrant { start_number: 1, history: vec![game(3, Side::White, 2)], absent: false },
            Entrant { start_number: 2, history: vec![game(4, Side::Black, 2)], absent: false },
            Entrant { start_number: 3, history: vec![game(1, Side::Black, 0)], absent: false },
            Entrant { start_number: 4, history: vec![game(2, Side::White, 0)], absent: false },
        ],
        forbidden: Vec::new(),
    };
    let p = dutch::pair(&input).unwrap();
    assert_eq!(boards(&p), [(2, 1), (3, 4)]);
}

#[test]
fn absent_players_and_the_end_of_the_tournament() {
    // A requested bye for the next round (0000 - H after the rounds played) leaves the player out.
    let text = round_one(5, "").replace(
        "001    3      Player 3                          2785                             0.0",
        "001    3      Player 3                          2785                             0.0       0000 - H",
    );
    let p = pair_trf(&text).unwrap();
    assert!(p.boards.iter().all(|b| b.white != 3 && b.black != 3));
    assert_eq!(p.boards.len(), 2);
    assert_eq!(p.bye, None);
    let done = "XXR 1\n001    1      A                                 2000                             1.0       0002 w 1\n\
001    2      B                                 1900                             0.0       0001 b 0\n";
    assert_eq!(pair_trf(done), Err(PairingError::TournamentOver { rounds: 1 }));
}

#[test]
fn two_hundred_players_pair_quickly() {
    let start = std::time::Instant::now();
    let p = pair_trf(&round_one(200, "")).unwrap();
    assert_eq!(p.boards.len(), 100);
    assert_eq!(boards(&p)[0], (1, 101));
    // Debug builds are slow; the release figure is in docs/tournament.md.
    assert!(start.elapsed().as_secs() < 60);
}

#[test]
fn agrees_with_bbppairings_when_it_is_there() {
    let Ok(bbp) = std::env::var("GUOXIANG_BBP") else {
        println!("GUOXIANG_BBP is not set: the comparison with bbpPairings is skipped");
        return;
    };
    // The comparison tool is this crate's example, built with the tests.
    let exe = std::env::current_exe().unwrap();
    let examples = exe.parent().unwrap().parent().unwrap().join("examples").join("dutch_compare");
    let dir = std::env::temp_dir().join(format!("guoxiang-dutch-{}", std::process::id()));
    let o = std::process::Command::new(&examples).args([&bbp, "11", "3", dir.to_str().unwrap()]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("tournaments 3,") && out.contains("differences 0;"), "{out}");
}

#[test]
fn the_odd_bracket_moves_its_lowest_player_down_to_the_highest_resident_it_may_meet() {
    // Round 2 of six: 1, 2, 3 won. 1-2 is the bracket's pair; 3 moves down (C.6, article 4) and meets the
    // highest resident not met before, 4 (3 met 6), with Black as 3 wants (E.1); 5-6 is what remains.
    // bbpPairings gives the same boards.
    let text = "XXR 5\nXXC white1\n\
001    1      A                                 2000                             1.0       0004 w 1\n\
001    2      B                                 1900                             1.0       0005 b 1\n\
001    3      C                                 1800                             1.0       0006 w 1\n\
001    4      D                                 1700                             0.0       0001 b 0\n\
001    5      E                                 1600                             0.0       0002 w 0\n\
001    6      F                                 1500                             0.0       0003 b 0\n";
    let p = pair_trf(text).unwrap();
    assert_eq!(boards(&p), [(2, 1), (4, 3), (6, 5)]);
}

#[test]
fn an_absolute_preference_beats_a_mild_one() {
    // E.2: 2 (Black twice) must have White; 1 (White then Black) only mildly wants White and gets Black.
    // bbpPairings gives the same boards.
    let text = "XXR 5\nXXC white1\n\
001    1      A                                 2000                             2.0       0005 w 1  0003 b 1\n\
001    2      B                                 1900                             2.0       0006 b 1  0004 b 1\n\
001    3      C                                 1800                             1.0       0007 w 1  0001 w 0\n\
001    4      D                                 1700                             1.0       0008 b 1  0002 w 0\n\
001    5      E                                 1600                             1.0       0001 b 0  0007 w 1\n\
001    6      F                                 1500                             1.0       0002 w 0  0008 b 1\n\
001    7      G                                 1400                             0.0       0003 b 0  0005 b 0\n\
001    8      H                                 1300                             0.0       0004 w 0  0006 w 0\n";
    let p = pair_trf(text).unwrap();
    assert_eq!(boards(&p), [(2, 1), (5, 3), (6, 4), (7, 8)]);
}

#[test]
fn equal_preferences_alternate_from_the_last_round_they_differed() {
    // 1 (Black, White, Black) and 2 (Black, Black, White) both strongly want White (E.2 does not decide). In
    // round 3 they had different colours, so E.3 swaps them: 1 gets White, although 2 ranks higher (E.4 would
    // give 2 White).
    let mut players = vec![
        Entrant {
            start_number: 1,
            history: vec![game(5, Side::Black, 0), game(6, Side::White, 0), game(7, Side::Black, 0)],
            absent: false,
        },
        Entrant {
            start_number: 2,
            history: vec![game(8, Side::Black, 2), game(9, Side::Black, 2), game(10, Side::White, 2)],
            absent: false,
        },
    ];
    for n in 5..=10 {
        players.push(Entrant { start_number: n, history: Vec::new(), absent: true });
    }
    let input = Input { total_rounds: 6, initial_colour: Some(Side::White), players, forbidden: Vec::new() };
    let p = dutch::pair(&input).unwrap();
    assert_eq!(boards(&p), [(1, 2)]);
}

/// A Swiss of 24 players with 19 double forfeits (`-` against `-`) in its first 8 rounds: every round is paired as
/// bbpPairings paired it (its outputs are kept as data in `tests/double_forfeit`, see the README there).
#[test]
fn double_forfeits_pair_as_bbppairings_does() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/double_forfeit");
    let mut doubles = 0;
    for round in 1..=10 {
        let text = std::fs::read_to_string(dir.join(format!("r{round}.trf"))).unwrap();
        let t = guoxiang_tournament::trf::parse(&text).unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert_eq!(guoxiang_tournament::trf::write(&t), text, "round {round}: written back byte for byte");
        doubles = t
            .players
            .iter()
            .flat_map(|p| p.rounds.iter())
            .filter(|e| e.opponent.is_some() && e.code == guoxiang_tournament::trf::Code::ForfeitLoss)
            .count();
        let expected = std::fs::read_to_string(dir.join(format!("r{round}.bbp.txt"))).unwrap();
        let mut expected_boards = Vec::new();
        let mut bye = None;
        for line in expected.lines().skip(1) {
            let v: Vec<u16> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
            match v.as_slice() {
                [p, 0] => bye = Some(*p),
                [w, b] => expected_boards.push((*w, *b)),
                _ => panic!("round {round}: bbpPairings' line {line:?}"),
            }
        }
        let p = pair_trf(&text).unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert_eq!((boards(&p), p.bye), (expected_boards, bye), "round {round}");
    }
    // Round 10's file: 19 double forfeits (38 entries `-` with an opponent) and 2 single ones.
    assert_eq!(doubles, 40, "the files have the double forfeits they were drawn with");
}
