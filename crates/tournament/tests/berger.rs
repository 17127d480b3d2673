// SPDX-License-Identifier: GPL-3.0-or-later
//! The Berger tables against FIDE's printed tables (C.05 Annex 1), and their properties for 3 to 16 players.

use guoxiang_tournament::berger::{self, Board};

/// A table written as FIDE prints it: rounds separated by `;`, boards by `,`, each `white-black`.
fn table(text: &str) -> Vec<Vec<Board>> {
    text.split(';')
        .map(|round| {
            round
                .split(',')
                .map(|b| {
                    let (w, k) = b.trim().split_once('-').expect("white-black");
                    (w.parse().expect("white"), k.parse().expect("black"))
                })
                .collect()
        })
        .collect()
}

// The tables below are FIDE's (as reproduced on http://c.w.fox.tripod.com/chess/berger.html and in the
// "Crenshaw-Berger Tables" at https://www.scribd.com/document/381712253/Berger-Tables; the brief's 4- and 6-player
// facts agree).

#[test]
fn four_and_six_players() {
    assert_eq!(berger::single(4).unwrap(), table("1-4, 2-3; 4-3, 1-2; 2-4, 3-1"));
    assert_eq!(berger::single(3).unwrap(), berger::single(4).unwrap());
    assert_eq!(
        berger::single(6).unwrap(),
        table("1-6, 2-5, 3-4; 6-4, 5-3, 1-2; 2-6, 3-1, 4-5; 6-5, 1-4, 2-3; 3-6, 4-2, 5-1")
    );
}

#[test]
fn eight_and_ten_players() {
    assert_eq!(
        berger::single(8).unwrap(),
        table(
            "1-8, 2-7, 3-6, 4-5; 8-5, 6-4, 7-3, 1-2; 2-8, 3-1, 4-7, 5-6; 8-6, 7-5, 1-4, 2-3; \
             3-8, 4-2, 5-1, 6-7; 8-7, 1-6, 2-5, 3-4; 4-8, 5-3, 6-2, 7-1"
        )
    );
    assert_eq!(
        berger::single(10).unwrap(),
        table(
            "1-10, 2-9, 3-8, 4-7, 5-6; 10-6, 7-5, 8-4, 9-3, 1-2; 2-10, 3-1, 4-9, 5-8, 6-7; \
             10-7, 8-6, 9-5, 1-4, 2-3; 3-10, 4-2, 5-1, 6-9, 7-8; 10-8, 9-7, 1-6, 2-5, 3-4; \
             4-10, 5-3, 6-2, 7-1, 8-9; 10-9, 1-8, 2-7, 3-6, 4-5; 5-10, 6-4, 7-3, 8-2, 9-1"
        )
    );
    assert_eq!(berger::single(9).unwrap(), berger::single(10).unwrap());
}

#[test]
fn twelve_and_fourteen_players() {
    assert_eq!(
        berger::single(12).unwrap(),
        table(
            "1-12, 2-11, 3-10, 4-9, 5-8, 6-7; 12-7, 8-6, 9-5, 10-4, 11-3, 1-2; 2-12, 3-1, 4-11, 5-10, 6-9, 7-8; \
             12-8, 9-7, 10-6, 11-5, 1-4, 2-3; 3-12, 4-2, 5-1, 6-11, 7-10, 8-9; 12-9, 10-8, 11-7, 1-6, 2-5, 3-4; \
             4-12, 5-3, 6-2, 7-1, 8-11, 9-10; 12-10, 11-9, 1-8, 2-7, 3-6, 4-5; 5-12, 6-4, 7-3, 8-2, 9-1, 10-11; \
             12-11, 1-10, 2-9, 3-8, 4-7, 5-6; 6-12, 7-5, 8-4, 9-3, 10-2, 11-1"
        )
    );
    assert_eq!(
        berger::single(14).unwrap(),
        table(
            "1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8; 14-8, 9-7, 10-6, 11-5, 12-4, 13-3, 1-2; \
             2-14, 3-1, 4-13, 5-12, 6-11, 7-10, 8-9; 14-9, 10-8, 11-7, 12-6, 13-5, 1-4, 2-3; \
             3-14, 4-2, 5-1, 6-13, 7-12, 8-11, 9-10; 14-10, 11-9, 12-8, 13-7, 1-6, 2-5, 3-4; \
             4-14, 5-3, 6-2, 7-1, 8-13, 9-12, 10-11; 14-11, 12-10, 13-9, 1-8, 2-7, 3-6, 4-5; \
             5-14, 6-4, 7-3, 8-2, 9-1, 10-13, 11-12; 14-12, 13-11, 1-10, 2-9, 3-8, 4-7, 5-6; \
             6-14, 7-5, 8-4, 9-3, 10-2, 11-1, 12-13; 14-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7; \
             7-14, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1"
        )
    );
}

#[test]
fn too_few_or_too_many_players() {
    assert!(berger::single(0).is_err());
    assert!(berger::single(1).is_err());
    assert!(berger::double(1).is_err());
    assert!(berger::single(berger::MAX_PLAYERS + 1).is_err());
    assert_eq!(berger::single(2).unwrap(), vec![vec![(1, 2)]]);
}

/// Every round a perfect matching of 1..=n (n even: the bye included), every pair once, player n on board 1, at
/// most ⌈(N−1)/2⌉ whites for a real player, and colours alternating for everyone but n/2 and n in one round.
#[test]
fn properties_for_3_to_16_players() {
    for players in 3..=16u32 {
        let n = players + players % 2;
        let t = berger::single(players).unwrap();
        assert_eq!(t.len() as u32, berger::rounds(players), "{players}");
        let mut met = vec![vec![0u32; n as usize + 1]; n as usize + 1];
        let mut whites = vec![0u32; n as usize + 1];
        for (k, round) in t.iter().enumerate() {
            assert_eq!(round.len() as u32, n / 2);
            let mut seen = vec![false; n as usize + 1];
            for &(w, b) in round {
                assert!(!seen[w as usize] && !seen[b as usize], "{players}: a player twice in round {}", k + 1);
                seen[w as usize] = true;
                seen[b as usize] = true;
                met[w as usize][b as usize] += 1;
                met[b as usize][w as usize] += 1;
                whites[w as usize] += 1;
            }
            assert!(round[0].0 == n || round[0].1 == n, "player {n} is on board 1");
            let (boards, bye) = berger::without_bye(round, players);
            assert_eq!(bye.is_some(), players % 2 == 1);
            assert_eq!(boards.len() as u32, players / 2);
        }
        for (a, row) in met.iter().enumerate().skip(1) {
            for (b, &times) in row.iter().enumerate().skip(1) {
                assert_eq!(times, u32::from(a != b), "{players}: {a} and {b}");
            }
        }
        let most = (players - 1).div_ceil(2);
        for p in 1..=players {
            // Against the bye there is no game, so no white.
            let bye_whites = if players % 2 == 1 { t.iter().filter(|r| r.contains(&(p, n))).count() as u32 } else { 0 };
            assert!(whites[p as usize] - bye_whites <= most, "{players}: player {p} has too many whites");
        }
    }
}

fn colours(t: &[Vec<Board>], p: u32) -> Vec<char> {
    t.iter()
        .map(|r| {
            r.iter()
                .find_map(|&(w, b)| {
                    if w == p {
                        Some('W')
                    } else if b == p {
                        Some('B')
                    } else {
                        None
                    }
                })
                .unwrap()
        })
        .collect()
}

#[test]
fn double_round_robin_reverses_colours_and_swaps_the_last_two_rounds() {
    let d = berger::double(4).unwrap();
    assert_eq!(d, table("1-4, 2-3; 2-4, 3-1; 4-3, 1-2; 4-1, 3-2; 3-4, 2-1; 4-2, 1-3"));
    for players in 3..=16u32 {
        let n = players + players % 2;
        let s = berger::single(players).unwrap();
        let d = berger::double(players).unwrap();
        assert_eq!(d.len(), 2 * s.len());
        let m = s.len();
        // The second cycle is the table with colours reversed.
        for (k, round) in s.iter().enumerate() {
            let rev: Vec<Board> = round.iter().map(|&(w, b)| (b, w)).collect();
            assert_eq!(d[m + k], rev);
        }
        // No one has the same colour three times in a row (the reason for the swap).
        for p in 1..=n {
            let c = colours(&d, p);
            assert!(c.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])), "{players}: {p} has {c:?}");
        }
    }
}
