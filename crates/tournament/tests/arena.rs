// SPDX-License-Identifier: GPL-3.0-or-later
//! Arena tournaments: scores and streaks, quick draws and draw streaks, pairing constraints, the end.

use guoxiang_tournament::arena::{
    Arena, ArenaError, Board, Colour, Config, FinishedGame, Mark, Outcome, PlayerId, Res, Standing,
};

const START: u64 = 1000;

fn arena() -> Arena {
    Arena::new(Config { start: START, duration: 3600 }).unwrap()
}

/// Pairs `a` and `b` (who must be the only two waiting and free to meet) and records `a`'s result.
fn game(ar: &mut Arena, a: PlayerId, b: PlayerId, result: Res, plies: u32) -> Board {
    let boards = ar.pair(&[a, b], START + 10).unwrap();
    assert_eq!(boards.len(), 1, "{a} and {b} should be paired");
    let board = boards[0];
    let a_white = board.white == a;
    let outcome = match (result, a_white) {
        (Res::Draw, _) => Outcome::Draw,
        (Res::Win, true) | (Res::Loss, false) => Outcome::WhiteWins,
        _ => Outcome::BlackWins,
    };
    let counted = ar.record(&FinishedGame { white: board.white, black: board.black, outcome, plies }, START + 20);
    assert_eq!(counted, Ok(true));
    board
}

fn row(ar: &Arena, p: PlayerId) -> Standing {
    ar.standings().into_iter().find(|r| r.player == p).unwrap()
}

#[test]
fn scores_streaks_quick_draws_and_draw_streaks() {
    let mut ar = arena();
    ar.join(1, 1500, START).unwrap();
    for opp in 2..=14 {
        ar.join(opp, 1500, START).unwrap();
    }
    // Player 1's games, each against a new opponent, with the points lichess's rules give:
    let games = [
        (Res::Win, 80, 2, Mark::StreakStarter),
        (Res::Win, 80, 2, Mark::StreakStarter), // two in a row: on fire
        (Res::Win, 80, 4, Mark::Double),
        (Res::Draw, 40, 2, Mark::Double), // a draw on fire is doubled, and ends the fire
        (Res::Win, 80, 2, Mark::Normal),  // one win, then a loss: not a streak starter after all
        (Res::Loss, 80, 0, Mark::Normal),
        (Res::Draw, 30, 1, Mark::Normal), // the last game not lost was a win: no draw streak
        (Res::Loss, 80, 0, Mark::Normal), // a loss does not end the draw streak
        (Res::Draw, 60, 0, Mark::NoPoints), // in the draw streak and not more than 30 moves
        (Res::Draw, 61, 1, Mark::Normal), // more than 30 moves
        (Res::Draw, 19, 0, Mark::NoPoints), // within the first 10 moves
        (Res::Win, 80, 2, Mark::Normal),  // a win ends the draw streak
        (Res::Draw, 40, 1, Mark::Normal),
    ];
    let mut fire = Vec::new();
    for (k, &(res, plies, _, _)) in games.iter().enumerate() {
        game(&mut ar, 1, k as PlayerId + 2, res, plies);
        fire.push(row(&ar, 1).on_fire);
    }
    let r = row(&ar, 1);
    let got: Vec<(Res, u32, Mark)> = r.sheet.iter().map(|e| (e.result, e.points, e.mark)).collect();
    let want: Vec<(Res, u32, Mark)> = games.iter().map(|g| (g.0, g.2, g.3)).collect();
    assert_eq!(got, want);
    assert_eq!(r.score, 17);
    assert_eq!(fire, [false, true, true, false, false, false, false, false, false, false, false, false, false]);
}

#[test]
fn a_quick_draw_scores_nothing_for_both() {
    let mut ar = arena();
    for p in 1..=3 {
        ar.join(p, 1500, START).unwrap();
    }
    game(&mut ar, 1, 2, Res::Draw, 19);
    assert_eq!((row(&ar, 1).score, row(&ar, 2).score), (0, 0));
    assert_eq!(row(&ar, 2).sheet[0].mark, Mark::NoPoints);
    // 20 plies is ten moves each: a draw that counts (player 3 has not drawn before).
    game(&mut ar, 3, 1, Res::Draw, 20);
    assert_eq!(row(&ar, 3).score, 1);
    // For player 1 it is the second draw in a row, of only ten moves: nothing.
    assert_eq!(row(&ar, 1).score, 0);
}

#[test]
fn first_pairings_by_rating_then_by_standing() {
    let mut ar = arena();
    for (p, rating) in [(1, 1500), (2, 1800), (3, 1600), (4, 2000)] {
        ar.join(p, rating, START).unwrap();
    }
    let mut boards = ar.pair(&[1, 2, 3, 4], START).unwrap();
    let mut pairs: Vec<[PlayerId; 2]> = boards
        .iter_mut()
        .map(|b| {
            let mut x = [b.white, b.black];
            x.sort();
            x
        })
        .collect();
    pairs.sort();
    assert_eq!(pairs, [[1, 3], [2, 4]]);
    // The lower-rated player wins each game: 1 (beat 3) and 2 (beat 4) lead with 2 points.
    for b in boards {
        let white_lower = ar.standings().iter().find(|r| r.player == b.white).unwrap().rating
            < ar.standings().iter().find(|r| r.player == b.black).unwrap().rating;
        let outcome = if white_lower { Outcome::WhiteWins } else { Outcome::BlackWins };
        ar.record(&FinishedGame { white: b.white, black: b.black, outcome, plies: 50 }, START + 60).unwrap();
    }
    assert_eq!((row(&ar, 1).score, row(&ar, 2).score, row(&ar, 3).score, row(&ar, 4).score), (2, 2, 0, 0));
    // Now by standing: the two leaders meet, and the two others.
    let boards = ar.pair(&[4, 3, 2, 1], START + 61).unwrap();
    let mut pairs: Vec<[PlayerId; 2]> = boards
        .iter()
        .map(|b| {
            let mut x = [b.white, b.black];
            x.sort();
            x
        })
        .collect();
    pairs.sort();
    assert_eq!(pairs, [[1, 2], [3, 4]]);
}

#[test]
fn never_the_same_opponent_twice_in_a_row() {
    let mut ar = arena();
    for p in 1..=4 {
        ar.join(p, 1500, START).unwrap();
    }
    game(&mut ar, 1, 2, Res::Win, 50);
    // Only the two of them waiting: no board.
    assert_eq!(ar.pair(&[1, 2], START + 30).unwrap(), []);
    // With 3 waiting too, 1 (the leader) meets 3, and 2 waits.
    let boards = ar.pair(&[1, 2, 3], START + 30).unwrap();
    assert_eq!(boards.len(), 1);
    assert!(boards[0].white == 3 || boards[0].black == 3);
    assert!(boards[0].white == 1 || boards[0].black == 1);
    let b = boards[0];
    ar.record(&FinishedGame { white: b.white, black: b.black, outcome: Outcome::Draw, plies: 50 }, START + 40).unwrap();
    // 2's last opponent is still 1: no board.
    assert_eq!(ar.pair(&[1, 2], START + 41).unwrap(), []);
    // Once each has played someone else, 1 and 2 may meet again.
    game(&mut ar, 2, 4, Res::Draw, 50);
    assert_eq!(ar.pair(&[1, 2], START + 41).unwrap().len(), 1);
}

#[test]
fn colours_even_out_each_history() {
    let mut ar = arena();
    for p in 1..=4 {
        ar.join(p, 1500, START).unwrap();
    }
    let b = game(&mut ar, 1, 2, Res::Draw, 50);
    let (w1, b1) = (b.white, b.black);
    // The one who had White meets a newcomer with Black; the one who had Black has White next.
    let b = game(&mut ar, w1, 3, Res::Draw, 50);
    assert_eq!((b.white, b.black), (3, w1));
    let b = game(&mut ar, b1, 4, Res::Draw, 50);
    assert_eq!((b.white, b.black), (b1, 4));
    // Now everyone has one White and one Black; 3 had White last, so 4 (Black last) gets White against 3.
    let b = game(&mut ar, 3, 4, Res::Draw, 50);
    assert_eq!((b.white, b.black), (4, 3));
    for p in 1..=4 {
        let s = row(&ar, p).sheet;
        let whites = s.iter().filter(|e| e.colour == Colour::White).count();
        assert!(whites * 2 >= s.len() - 1 && whites * 2 <= s.len() + 1, "player {p}: {s:?}");
    }
}

#[test]
fn paused_and_playing_players_wait() {
    let mut ar = arena();
    for p in 1..=4 {
        ar.join(p, 1500, START).unwrap();
    }
    ar.pause(4).unwrap();
    let boards = ar.pair(&[1, 2, 3, 4], START).unwrap();
    assert_eq!(boards.len(), 1);
    assert!(!boards.iter().any(|b| b.white == 4 || b.black == 4));
    let playing: Vec<PlayerId> = (1..=3).filter(|&p| ar.is_playing(p)).collect();
    assert_eq!(playing.len(), 2);
    // Those playing are not paired again; 4 is back and meets the one left.
    ar.join(4, 1500, START + 5).unwrap();
    let boards = ar.pair(&[1, 2, 3, 4, 4], START + 5).unwrap();
    assert_eq!(boards.len(), 1);
    let free = (1..=3).find(|p| !playing.contains(p)).unwrap();
    let mut pair = [boards[0].white, boards[0].black];
    pair.sort();
    assert_eq!(pair, [free.min(4), free.max(4)]);
    assert!(row(&ar, 4).sheet.is_empty() && !row(&ar, 4).paused);
}

#[test]
fn the_end_and_bad_calls() {
    let mut ar = arena();
    assert_eq!(Arena::new(Config { start: 0, duration: 0 }).err(), Some(ArenaError::NoDuration));
    ar.join(1, 1500, START - 100).unwrap();
    ar.join(2, 1500, START - 100).unwrap();
    assert_eq!(ar.pair(&[1, 2], START - 1).unwrap(), [], "not before the start");
    assert_eq!(ar.pair(&[1, 9], START).err(), Some(ArenaError::UnknownPlayer(9)));
    assert_eq!(ar.pause(9).err(), Some(ArenaError::UnknownPlayer(9)));
    let bogus = FinishedGame { white: 1, black: 2, outcome: Outcome::Draw, plies: 40 };
    assert_eq!(ar.record(&bogus, START).err(), Some(ArenaError::NotPaired { white: 1, black: 2 }));
    let b = ar.pair(&[1, 2], START).unwrap()[0];
    // A game that ends after the end does not count (lichess: games in progress do not count).
    let late = FinishedGame { white: b.white, black: b.black, outcome: Outcome::WhiteWins, plies: 40 };
    assert_eq!(ar.record(&late, START + 3600), Ok(false));
    assert_eq!(ar.record(&late, START + 3600).err(), Some(ArenaError::NotPaired { white: b.white, black: b.black }));
    assert_eq!(row(&ar, b.white).score, 0);
    assert!(row(&ar, b.white).sheet.is_empty());
    assert_eq!(ar.pair(&[1, 2], START + 3600).unwrap(), [], "not after the end");
    assert_eq!(ar.join(3, 1500, START + 3600).err(), Some(ArenaError::Over));
    assert!(ArenaError::Over.to_string().contains("over"));
}

#[test]
fn standings_by_score_then_performance() {
    let mut ar = arena();
    for (p, rating) in [(1, 1500), (2, 1500), (3, 2100), (4, 1900), (5, 1700)] {
        ar.join(p, rating, START).unwrap();
    }
    // 1 beats 3 (2100), 2 beats 5 (1700): both on 2 points; 1's performance 2600, 2's 2200.
    game(&mut ar, 1, 3, Res::Win, 50);
    game(&mut ar, 2, 5, Res::Win, 50);
    let s = ar.standings();
    let top: Vec<(PlayerId, u32, u32, Option<i32>)> =
        s.iter().take(2).map(|r| (r.player, r.rank, r.score, r.performance)).collect();
    assert_eq!(top, [(1, 1, 2, Some(2600)), (2, 2, 2, Some(2200))]);
    // 4 has no game: last, after the players on 0 with games (performance None sorts below).
    assert_eq!(s.last().unwrap().player, 4);
    assert_eq!(s.last().unwrap().performance, None);
    // 3 (lost to 1500: 1000) and 5 (lost to 1500: 1000) share rank 3.
    let r3 = row(&ar, 3);
    let r5 = row(&ar, 5);
    assert_eq!((r3.rank, r5.rank, r3.performance), (3, 3, Some(1000)));
}
