// SPDX-License-Identifier: GPL-3.0-or-later
//! Scores and tie-breaks on small hand-made tournaments, every value worked out by hand below.

use guoxiang_tournament::standings::{self, DEFAULT_ORDER, Row, TieBreak};
use guoxiang_tournament::trf;

// tests/small.trf, five players, three rounds (line = a player's rounds):
//   P1 2000: R1 beats 2 (white); R2 forfeit win against 3; R3 draws 5 (black)        score 2.5
//   P2 1800: R1 loses to 1 (black); R2 half-point bye (H); R3 beats 3 (black)        score 1.5
//   P3 1701: R1 draws 4 (white); R2 forfeit loss to 1; R3 loses to 2 (white)         score 0.5
//   P4 1650: R1 draws 3 (black); R2 beats 5 (white); withdrew: R3 blank (absent)     score 1.5
//   P5 unrated: R1 pairing-allocated bye (U); R2 loses to 4 (black); R3 draws 1      score 1.5
//
// Scores as opponents see them (Art. 16.3): a requested bye followed only by voluntary unplayed rounds counts ½.
//   P4's absence in the last round counts ½: 2.0. P2's bye is followed by a game: 1.5. P3's forfeit loss is not a
//   bye: 0.5. P1 2.5, P5 1.5 (the U is not requested).
// Own unplayed rounds count the participant's own score (Art. 16.4); VUR = H, Z/blank, forfeit lost.
//   BH contributions:  P1: 1.5 (P2), 2.5 (own, forfeit won), 1.5 (P5)            = 5.5
//                      P2: 2.5 (P1), 1.5 (own, H, VUR), 0.5 (P3)                 = 4.5
//                      P3: 2.0 (P4), 0.5 (own, forfeit lost, VUR), 1.5 (P2)      = 4.0
//                      P4: 0.5 (P3), 1.5 (P5), 1.5 (own, absent, VUR)            = 3.5
//                      P5: 1.5 (own, U), 2.0 (P4), 2.5 (P1)                      = 6.0
//   BH-C1 (a VUR is cut first, Art. 16.5): P1 5.5-1.5 = 4.0; P2 4.5-1.5 = 3.0; P3 4.0-0.5 = 3.5;
//                      P4 3.5-1.5 = 2.0 (not 3.0: the VUR goes, not the lower 0.5); P5 6.0-1.5 = 4.5
//   BH-M1 (then the highest of the rest): P1 1.5; P2 0.5; P3 1.5; P4 0.5; P5 2.0
//   SB: P1 1.5×1 + 2.5×1 + 1.5×½ = 4.75; P2 0 + 1.5×½ + 0.5×1 = 1.25; P3 2.0×½ + 0 + 0 = 1.0;
//       P4 0.5×½ + 1.5×1 + 0 = 1.75; P5 1.5×1 + 0 + 2.5×½ = 2.75
//   WIN (a win's points, played or not): 2, 1, 0, 1, 1.  WON (over the board): 1, 1, 0, 1, 0.
//   BPG (played with Black): 1, 2, 0 (the forfeit does not count), 1, 1.  BWG: 0, 1, 0, 0, 0.
//   PS: P1 1+2+2.5 = 5.5; P2 0+0.5+1.5 = 2.0; P3 0.5×3 = 1.5; P4 0.5+1.5+1.5 = 3.5; P5 1+1+1.5 = 3.5
//   ARO (played games, rated opponents, rounded half up): P1 1800 (P5 unrated); P2 (2000+1701)/2 = 1850.5 → 1851;
//       P3 (1650+1800)/2 = 1725; P4 1701 (P5 unrated); P5 (1650+2000)/2 = 1825
//   DE among the players on 1.5 (P2, P4, P5): P4 beat P5, P2 met neither: 0, 1, 0, and not all met.
//   Ranking with DE, BH-C1, ...: P1; then on 1.5 DE cannot decide, BH-C1 4.5 (P5) > 3.0 (P2) > 2.0 (P4); P3.

fn small() -> Vec<Row> {
    let t = trf::parse(include_str!("small.trf")).unwrap();
    standings::compute(&t, &DEFAULT_ORDER)
}

fn row(rows: &[Row], start: u16) -> &Row {
    rows.iter().find(|r| r.start_number == start).unwrap()
}

#[test]
fn scores_and_ranks() {
    let rows = small();
    let order: Vec<(u16, u32, f64)> = rows.iter().map(|r| (r.start_number, r.rank, r.score)).collect();
    assert_eq!(order, vec![(1, 1, 2.5), (5, 2, 1.5), (2, 3, 1.5), (4, 4, 1.5), (3, 5, 0.5)]);
}

#[test]
fn buchholz_family() {
    let rows = small();
    let got: Vec<(f64, f64, f64)> =
        (1..=5).map(|s| row(&rows, s).tie_breaks.clone()).map(|t| (t.bh, t.bh_c1, t.bh_m1)).collect();
    assert_eq!(got, vec![(5.5, 4.0, 1.5), (4.5, 3.0, 0.5), (4.0, 3.5, 1.5), (3.5, 2.0, 0.5), (6.0, 4.5, 2.0)]);
}

#[test]
fn sonneborn_berger() {
    let rows = small();
    let got: Vec<f64> = (1..=5).map(|s| row(&rows, s).tie_breaks.sb).collect();
    assert_eq!(got, vec![4.75, 1.25, 1.0, 1.75, 2.75]);
}

#[test]
fn counts_and_progressive_score() {
    let rows = small();
    let t = |s| row(&rows, s).tie_breaks.clone();
    assert_eq!((1..=5).map(|s| t(s).win).collect::<Vec<_>>(), vec![2, 1, 0, 1, 1]);
    assert_eq!((1..=5).map(|s| t(s).won).collect::<Vec<_>>(), vec![1, 1, 0, 1, 0]);
    assert_eq!((1..=5).map(|s| t(s).bpg).collect::<Vec<_>>(), vec![1, 2, 0, 1, 1]);
    assert_eq!((1..=5).map(|s| t(s).bwg).collect::<Vec<_>>(), vec![0, 1, 0, 0, 0]);
    assert_eq!((1..=5).map(|s| t(s).ps).collect::<Vec<_>>(), vec![5.5, 2.0, 1.5, 3.5, 3.5]);
}

#[test]
fn average_rating_of_opponents() {
    let rows = small();
    let got: Vec<Option<u32>> = (1..=5).map(|s| row(&rows, s).tie_breaks.aro).collect();
    assert_eq!(got, vec![Some(1800), Some(1851), Some(1725), Some(1701), Some(1825)]);
}

#[test]
fn direct_encounter_in_an_incomplete_group() {
    let rows = small();
    let got: Vec<(f64, bool)> =
        [2, 4, 5].iter().map(|&s| (row(&rows, s).tie_breaks.de, row(&rows, s).de_complete)).collect();
    assert_eq!(got, vec![(0.0, false), (1.0, false), (0.0, false)]);
}

// A round-robin of four (FIDE's table: R1 1-4 2-3, R2 4-3 1-2, R3 2-4 3-1), every game played:
//   R1: 1-4 1-0, 2-3 ½-½;  R2: 4-3 0-1, 1-2 0-1;  R3: 2-4 ½-½, 3-1 0-1.
//   Scores: P1 1+0+1 = 2; P2 ½+1+½ = 2; P3 ½+1+0 = 1.5; P4 0+0+½ = 0.5.
//   P1 and P2 are level and met: P2 beat P1, so DE puts P2 first (DE 1 against 0).
//   SB P1 = 0.5 (beat P4) + 1.5 (beat P3) = 2.0; SB P2 = ½×1.5 + 2 (beat P1) + ½×0.5 = 3.0.
//   WON: P1 2, P2 1.
const ROUND_ROBIN: &str = "\
012 RR4
XXR 3
001    1                                                                                   0004 w 1  0002 w 0  0003 b 1
001    2                                                                                   0003 w =  0001 b 1  0004 w =
001    3                                                                                   0002 b =  0004 b 1  0001 w 0
001    4                                                                                   0001 b 0  0003 w 0  0002 b =
";

#[test]
fn direct_encounter_decides_between_players_who_met() {
    let t = trf::parse(ROUND_ROBIN).unwrap();
    let rows = standings::compute(&t, &DEFAULT_ORDER);
    let order: Vec<(u16, u32)> = rows.iter().map(|r| (r.start_number, r.rank)).collect();
    assert_eq!(order, vec![(2, 1), (1, 2), (3, 3), (4, 4)]);
    assert_eq!((row(&rows, 2).tie_breaks.de, row(&rows, 1).tie_breaks.de), (1.0, 0.0));
    assert!(row(&rows, 1).de_complete);
    assert_eq!((row(&rows, 1).tie_breaks.sb, row(&rows, 2).tie_breaks.sb), (2.0, 3.0));
    // With only WON in the order (P1 won 2, P2 won 1), P1 would be first.
    let rows = standings::compute(&t, &[TieBreak::Won]);
    assert_eq!(rows[0].start_number, 1);
    // With no tie-breaks the two share first place.
    let rows = standings::compute(&t, &[]);
    assert_eq!((rows[0].rank, rows[1].rank, rows[2].rank), (1, 1, 3));
}

#[test]
fn crosstable_pads_a_withdrawal() {
    let t = trf::parse(include_str!("small.trf")).unwrap();
    let x = standings::crosstable(&t);
    let p4 = x.iter().find(|r| r.start_number == 4).unwrap();
    assert_eq!(p4.cells.len(), 3);
    assert_eq!((p4.cells[2].opponent, p4.cells[2].code, p4.cells[2].played), (None, 'Z', false));
    assert_eq!(p4.score, 1.5);
    let p1 = &x[0];
    assert_eq!(
        (p1.cells[1].opponent, p1.cells[1].code, p1.cells[1].points, p1.cells[1].played),
        (Some(3), '+', 1.0, false)
    );
}

#[test]
fn abbreviations() {
    for tb in TieBreak::ALL {
        assert_eq!(TieBreak::from_abbreviation(tb.abbreviation()), Some(tb));
    }
    assert_eq!(TieBreak::from_abbreviation("bh-c1"), Some(TieBreak::BhC1));
    assert_eq!(TieBreak::from_abbreviation("XYZ"), None);
}

/// tests/small.trf with `XXR 4` and absences declared for round 4, not yet paired: a full-point bye for P1, a
/// half-point bye for P2, and a zero-point bye for P4 (whose line stops after round 2: round 3 blank).
fn small_with_next_round_absences() -> String {
    let declared = [(1, "0000 - F"), (2, "0000 - H"), (4, "0000 - Z")];
    include_str!("small.trf")
        .lines()
        .map(|l| {
            if l.starts_with("XXR") {
                return "XXR 4".to_string();
            }
            let start: Option<u16> =
                l.strip_prefix("001").and_then(|r| r.get(1..5)).and_then(|n| n.trim().parse().ok());
            match declared.iter().find(|d| Some(d.0) == start) {
                // Round 4's columns start at 122.
                Some((_, e)) => format!("{l:<121}{e}"),
                None => l.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn absences_declared_for_the_next_round_do_not_count() {
    let text = small_with_next_round_absences();
    let t = trf::parse(&text).unwrap();
    assert_eq!(t.players[0].rounds.len(), 4, "the reader keeps the declaration");
    assert_eq!((t.rounds_present(), t.rounds_played()), (4, 3));
    // Every score, tie-break and rank is the one after round 3, as if the declarations were not there.
    assert_eq!(standings::compute(&t, &DEFAULT_ORDER), small());
    let x = standings::crosstable(&t);
    assert!(x.iter().all(|r| r.cells.len() == 3), "the crosstable stops at round 3");
    assert_eq!(x.iter().map(|r| r.score).collect::<Vec<_>>(), vec![2.5, 1.5, 0.5, 1.5, 1.5]);
    // The pairing still reads them: those three are not paired in round 4, P3 and P5 (who have not met) are.
    let input = guoxiang_tournament::dutch::input_from_trf(&t).unwrap();
    let absent: Vec<u16> = input.players.iter().filter(|e| e.absent).map(|e| e.start_number).collect();
    assert_eq!(absent, vec![1, 2, 4]);
    let pairing = guoxiang_tournament::dutch::pair(&input).unwrap();
    let mut pair: Vec<u16> = pairing.boards.iter().flat_map(|b| [b.white, b.black]).collect();
    pair.sort();
    assert_eq!((pair, pairing.bye), (vec![3, 5], None));
}

#[test]
fn absences_declared_before_round_one() {
    // Nothing paired yet; P2 has asked for a half-point bye in round 1.
    let text = "XXR 5\n001    1      A\n001    2      B\n001    3      C\n";
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[2] = format!("{:<91}0000 - H", lines[2]);
    let t = trf::parse(&lines.join("\n")).unwrap();
    assert_eq!((t.rounds_present(), t.rounds_played()), (1, 0));
    let rows = standings::compute(&t, &DEFAULT_ORDER);
    assert!(rows.iter().all(|r| r.score == 0.0 && r.rank == 1 && r.tie_breaks.bh == 0.0), "{rows:?}");
    assert!(standings::crosstable(&t).iter().all(|r| r.cells.is_empty()));
}

#[test]
fn agrees_with_tiebreak_core_when_it_is_there() {
    let Ok(python) = std::env::var("GUOXIANG_TIEBREAK_PYTHON") else {
        println!("GUOXIANG_TIEBREAK_PYTHON is not set: the comparison with tiebreak-core is skipped");
        return;
    };
    // The comparison tool is this crate's example, built with the tests.
    let exe = std::env::current_exe().unwrap();
    let example = exe.parent().unwrap().parent().unwrap().join("examples").join("tiebreak_compare");
    let dir = std::env::temp_dir().join(format!("guoxiang-tiebreak-{}", std::process::id()));
    let o = std::process::Command::new(&example).args([&python, "11", "5", dir.to_str().unwrap()]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("tournaments 5,") && out.contains("differences 0 "), "{out}");
    assert!(out.contains("DE: score groups") && out.contains(", differences 0,"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn direct_encounter_leaves_out_forfeits() {
    // R1: 1 wins by forfeit against 2, 3-4 drawn; R2: 3 beats 1, 2 beats 4. Scores: 1 and 2 on 1, 3 on 1.5,
    // 4 on 0.5. 1 and 2 met, but only by forfeit: DE counts games played over the board (Art. 6.1.1, as
    // tiebreak-core reads it), so it does not separate them.
    let line = |start: u16, rounds: &str| format!("001 {start:>4}{:83}{rounds}", "");
    let text = [
        "XXR 3".to_string(),
        line(1, "0002 w +  0003 b 0"),
        line(2, "0001 b -  0004 w 1"),
        line(3, "0004 w =  0001 w 1"),
        line(4, "0003 b =  0002 b 0"),
    ]
    .join("\n");
    let t = trf::parse(&text).unwrap();
    let rows = standings::compute(&t, &[TieBreak::De]);
    let order: Vec<(u16, u32)> = rows.iter().map(|r| (r.start_number, r.rank)).collect();
    assert_eq!(order, vec![(3, 1), (1, 2), (2, 2), (4, 4)]);
    assert_eq!((row(&rows, 1).tie_breaks.de, row(&rows, 2).tie_breaks.de), (0.0, 0.0));
    assert!(row(&rows, 1).de_complete, "a forfeit still counts as having met");
}

#[test]
fn direct_encounter_ranks_a_group_not_all_met_only_where_certain() {
    // 1, 2 and 3 finish on 2 points; 1 beat 2 and 3, who did not meet. Art. 6.3: 1's 2 points in the group are more
    // than 2's or 3's 0 plus the 1 each could still take from the game they did not play, so 1 is first; 2 and 3
    // each might have won that game: they stay level.
    let line = |start: u16, rounds: &str| format!("001 {start:>4}{:83}{rounds}", "");
    let text = [
        "XXR 3".to_string(),
        line(1, "0002 w 1  0003 w 1  0004 b 0"),
        line(2, "0001 b 0  0005 w 1  0006 w 1"),
        line(3, "0004 w 1  0001 b 0  0005 w 1"),
        line(4, "0003 b 0  0006 b 0  0001 w 1"),
        line(5, "0006 w =  0002 b 0  0003 b 0"),
        line(6, "0005 b =  0004 w 1  0002 b 0"),
    ]
    .join("\n");
    let t = trf::parse(&text).unwrap();
    let rows = standings::compute(&t, &[TieBreak::De]);
    let order: Vec<(u16, u32)> = rows.iter().map(|r| (r.start_number, r.rank)).collect();
    assert_eq!(order, vec![(1, 1), (2, 2), (3, 2), (6, 4), (4, 5), (5, 6)]);
    assert!(!row(&rows, 1).de_complete);
    // Had 1 beaten 2 but not met 3, nothing would be certain (1's 1 point is not more than 2's 0 plus the game 2
    // did not play with 3): all three level.
    let text = [
        "XXR 3".to_string(),
        line(1, "0002 w 1  0004 w 1  0005 b 0"),
        line(2, "0001 b 0  0005 w 1  0006 w 1"),
        line(3, "0005 w 1  0006 b 0  0004 w 1"),
        line(4, "0006 w =  0001 b 0  0003 b 0"),
        line(5, "0003 b 0  0002 b 0  0001 w 1"),
        line(6, "0004 b =  0003 w 1  0002 b 0"),
    ]
    .join("\n");
    let t = trf::parse(&text).unwrap();
    let rows = standings::compute(&t, &[TieBreak::De]);
    let top: Vec<u32> = [1, 2, 3].iter().map(|&p| row(&rows, p).rank).collect();
    assert_eq!(top, vec![1, 1, 1], "{rows:?}");
}
