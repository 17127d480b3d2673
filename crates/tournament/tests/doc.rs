// SPDX-License-Identifier: GPL-3.0-or-later
//! The tournament document: entries, pairings, results, TRF round trips, arenas, pasted lists.

use guoxiang_tournament::doc::view::TournamentRound;
use guoxiang_tournament::doc::*;
use guoxiang_tournament::trf;

fn doc(system: TournamentSystem, n: usize) -> Doc {
    let mut d = Doc {
        name: "Club".into(),
        system,
        mode: TournamentMode::Otb,
        status: TournamentStatus::Open,
        time_control: "5400+30".into(),
        rules: "online".into(),
        rated: false,
        rounds: 3,
        tie_breaks: default_tie_breaks(system),
        round_gap_ms: 0,
        organiser_id: "o".into(),
        organiser: "org".into(),
        arbiters: Vec::new(),
        players: Vec::new(),
        round_list: Vec::new(),
        next_round_at_ms: None,
        created_at_ms: 0,
        arena: None,
        starts_at_ms: None,
        forbidden: Vec::new(),
        byes_requested: Vec::new(),
        first_move_grace_s: None,
        presence_check: false,
        absent: Vec::new(),
        class: None,
    };
    for i in 0..n {
        d.join(Some(format!("u{i}")), format!("P{i}"), Some(2000 - 10 * i as u32), 0).unwrap();
    }
    d
}

#[test]
fn a_round_robin_of_four_follows_berger_and_ends_after_three_rounds() {
    let mut d = doc(TournamentSystem::RoundRobin, 4);
    d.start(0).unwrap();
    assert_eq!(d.rounds, 3);
    let r1 = d.pair_next(1, &[]).unwrap().clone();
    // FIDE's table for 4 players, round 1: 1-4, 2-3.
    assert_eq!(r1.boards.iter().map(|b| (b.white, b.black)).collect::<Vec<_>>(), vec![(1, 4), (2, 3)]);
    assert_eq!(d.can_pair().unwrap_err().code, "round_not_finished");
    assert!(!d.set_result(1, 1, TournamentResult::WhiteWins).unwrap());
    assert!(d.set_result(1, 2, TournamentResult::Draw).unwrap());
    d.after_round();
    for round in 2..=3 {
        d.pair_next(round, &[]).unwrap();
        for b in 1..=2 {
            d.set_result(round as u32, b, TournamentResult::Draw).unwrap();
        }
        d.after_round();
    }
    assert_eq!(d.status, TournamentStatus::Finished);
    let s = d.standings();
    assert_eq!(s[0].no, 1);
    assert_eq!(s[0].score, 2.0);
    assert_eq!(s.iter().map(|r| r.score).sum::<f64>(), 6.0);
    assert_eq!(d.pair_next(9, &[]).unwrap_err().code, "not_running");
}

#[test]
fn a_swiss_pairs_by_the_dutch_system_with_a_bye_and_a_withdrawal() {
    let mut d = doc(TournamentSystem::Swiss, 5);
    d.start(0).unwrap();
    let r1 = d.pair_next(1, &[]).unwrap().clone();
    assert_eq!(r1.boards.len(), 2);
    assert_eq!(r1.byes, vec![Bye { no: 5, kind: ByeKind::Pairing }]);
    // The top half meets the bottom half: 1-3 and 4-2 by the Dutch system's colour rule.
    assert_eq!(
        r1.boards.iter().map(|b| (b.white.min(b.black), b.white.max(b.black))).collect::<Vec<_>>(),
        vec![(1, 3), (2, 4)]
    );
    d.set_result(1, 1, TournamentResult::WhiteWins).unwrap();
    d.set_result(1, 2, TournamentResult::BlackWins).unwrap();
    d.after_round();
    d.withdraw(3).unwrap();
    let r2 = d.pair_next(2, &[]).unwrap().clone();
    assert!(r2.byes.contains(&Bye { no: 3, kind: ByeKind::Zero }), "{r2:?}");
    assert!(r2.boards.iter().all(|b| b.white != 3 && b.black != 3));
    assert!(r2.byes.iter().all(|b| b.no != 5 || b.kind != ByeKind::Pairing), "no second pairing bye for 5");
    let s = d.standings();
    assert_eq!(s.iter().map(|r| r.score).sum::<f64>(), 3.0, "two decisive games and a bye");
}

#[test]
fn a_requested_bye_scores_half_and_a_forbidden_pair_never_meets() {
    let mut d = doc(TournamentSystem::Swiss, 6);
    d.forbid(1, 4).unwrap();
    d.start(0).unwrap();
    assert_eq!(d.request_bye(6).unwrap(), 1);
    let r1 = d.pair_next(1, &[]).unwrap().clone();
    assert!(r1.byes.contains(&Bye { no: 6, kind: ByeKind::Half }), "{r1:?}");
    // Without the forbidden pair the Dutch system would pair 1 with 4 (top half against bottom half of five).
    assert!(r1.boards.iter().all(|b| (b.white.min(b.black), b.white.max(b.black)) != (1, 4)), "{r1:?}");
    assert_eq!(r1.boards.len(), 2);
    assert_eq!(r1.byes.len(), 2, "the half-point bye and the pairing-allocated bye: {r1:?}");
    for b in 1..=2 {
        d.set_result(1, b, TournamentResult::Draw).unwrap();
    }
    d.after_round();
    let half = d.standings().into_iter().find(|r| r.no == 6).unwrap();
    assert_eq!(half.score, 0.5);
    let t = d.to_trf(true);
    assert_eq!(t.forbidden, vec![vec![1, 4]]);
    assert_eq!(d.forbid(2, 2).unwrap_err().code, "bad_request");
    let mut rr = doc(TournamentSystem::RoundRobin, 3);
    assert_eq!(rr.forbid(1, 2).unwrap_err().code, "no_forbidden_pairs");
    rr.start(0).unwrap();
    assert_eq!(rr.request_bye(1).unwrap_err().code, "no_byes");
}

#[test]
fn the_trf_round_trip_keeps_players_and_results() {
    let mut d = doc(TournamentSystem::Swiss, 8);
    d.start(0).unwrap();
    d.pair_next(1, &[]).unwrap();
    // Board 4: both absent, a double forfeit (`-` against `-`, issue 38).
    let results = [
        TournamentResult::WhiteWins,
        TournamentResult::Draw,
        TournamentResult::BlackForfeitWin,
        TournamentResult::DoubleForfeit,
    ];
    for b in 1..=4 {
        d.set_result(1, b, results[b as usize - 1]).unwrap();
    }
    d.after_round();
    let text = trf::write(&d.to_trf(false));
    let (w, b) = (d.round_list[0].boards[3].white, d.round_list[0].boards[3].black);
    assert!(text.contains(&format!("{b:04} w -")) && text.contains(&format!("{w:04} b -")), "{text}");
    let mut back = Doc::from_trf(&trf::parse(&text).unwrap(), ("o".into(), "org".into()), 5).unwrap();
    assert_eq!(back.round_list.len(), 1);
    // TRF-16 keeps who met whom, not the board order.
    let games = |d: &Doc| {
        let mut g: Vec<_> = d.round_list[0].boards.iter().map(|b| (b.white, b.black, b.result)).collect();
        g.sort_by_key(|x| (x.0, x.1));
        g
    };
    assert_eq!(games(&back), games(&d));
    assert_eq!(back.rounds, 3);
    assert_eq!(back.standings(), d.standings());
    // The imported tournament pairs its next round.
    assert_eq!(back.pair_next(6, &[]).unwrap().boards.len(), 4);
}

#[test]
fn an_arena_is_rebuilt_from_its_events_and_ends_on_time() {
    let mut d = doc(TournamentSystem::Arena, 4);
    d.arena = Some(ArenaDoc { minutes: 10, started_at_ms: None, events: Vec::new() });
    d.start(1_000_000).unwrap();
    let new = d.arena_pair(1_001_000).unwrap();
    assert_eq!(new.len(), 2);
    for (k, i) in new.iter().enumerate() {
        if let ArenaEvent::Pair { game_id, .. } = &mut d.arena.as_mut().unwrap().events[*i] {
            *game_id = Some(format!("g{k}"));
        }
    }
    assert_eq!(d.arena_open_games(), vec!["g0".to_owned(), "g1".to_owned()]);
    d.arena_result("g0", TournamentResult::WhiteWins, 40, 1_100_000);
    d.arena_result("g0", TournamentResult::BlackWins, 40, 1_100_000);
    d.arena_result("g1", TournamentResult::BlackForfeitWin, 0, 1_100_000);
    assert_eq!(d.arena_open_games(), Vec::<String>::new());
    let v = d.arena_view().unwrap();
    let mut scores: Vec<u32> = v.standings.iter().map(|r| r.score).collect();
    scores.sort_unstable();
    assert_eq!(scores, vec![0, 0, 2, 2], "a second report of g0 is ignored");
    // White of g1 did not move: paused, so not paired again.
    assert_eq!(v.standings.iter().filter(|r| r.paused).count(), 1);
    // Three wait (one is paused): g0's players may not meet again at once, so one of them meets g1's Black.
    let paused = v.standings.iter().find(|r| r.paused).unwrap().no;
    let again = d.arena_pair(1_200_000).unwrap();
    assert_eq!(again.len(), 1);
    let ArenaEvent::Pair { white, black, .. } = d.arena.as_ref().unwrap().events[again[0]].clone() else { panic!() };
    assert!(white != paused && black != paused);
    let g0 = d.arena.as_ref().unwrap().events.iter().find_map(|e| match e {
        ArenaEvent::Pair { white, black, game_id: Some(g), .. } if g == "g0" => Some((*white, *black)),
        _ => None,
    });
    assert!(g0 != Some((white, black)) && g0 != Some((black, white)), "no immediate rematch");
    // Ten minutes after the start it is over.
    assert!(d.arena_pair(1_000_000 + 600_000).unwrap().is_empty());
    assert_eq!(d.status, TournamentStatus::Finished);
}

#[test]
fn a_pasted_list_reads_lines_and_commas_with_ratings() {
    let (got, errors) = parse_player_list("王小明 1200\n\n李华，张三、Zoe Li 1500\r\nAnna, Bo; Chen\n", &[]);
    assert_eq!(errors, []);
    let seen: Vec<(usize, &str, Option<u32>)> = got.iter().map(|p| (p.line, p.name.as_str(), p.rating)).collect();
    assert_eq!(
        seen,
        [
            (1, "王小明", Some(1200)),
            (3, "李华", None),
            (3, "张三", None),
            (3, "Zoe Li", Some(1500)),
            (4, "Anna", None),
            (4, "Bo", None),
            (4, "Chen", None)
        ]
    );
}

#[test]
fn a_pasted_list_names_the_line_of_each_problem() {
    let d = doc(TournamentSystem::Swiss, 2); // P0 and P1
    let text = "Anna\nBo 99999\nanna\nP1\nX,,Y\n".to_owned() + &"x".repeat(61);
    let (good, errors) = parse_player_list(&text, &d.players);
    assert_eq!(good.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["Anna", "X", "Y"]);
    let en: Vec<&str> = errors.iter().map(|e| e.en.as_str()).collect();
    assert_eq!(
        en,
        [
            "line 2: \"Bo 99999\": the rating 99999 is not between 100 and 3500",
            "line 3: \"anna\" is listed twice (already on line 1)",
            "line 4: \"P1\" is already player number 2",
            "line 5: no name between two commas",
            &format!("line 6: {:?} is too long (a name has at most 60 characters)", "x".repeat(61)),
        ]
    );
    assert_eq!(errors[1].zh, "第 3 行：「anna」重复了（第 1 行已有）");
    assert_eq!(parse_player_list(" \n\n", &[]).1[0].en, "the list is empty");
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let mut d = doc(TournamentSystem::Swiss, 1);
    assert_eq!(d.join(Some("u0".into()), "again".into(), None, 0).unwrap_err().code, "already_joined");
    assert_eq!(d.start(0).unwrap_err().code, "too_few_players");
    assert_eq!(parse_tie_breaks(&["XX".into()]).unwrap_err().code, "bad_tie_break");
    assert_eq!(parse_tie_breaks(&["SB".into(), "sb".into()]).unwrap_err().code, "bad_tie_break");
    assert_eq!(d.set_result(4, 1, TournamentResult::Draw).unwrap_err().code, "bad_request");
}

#[test]
fn a_round_on_the_wire_keeps_its_fields_in_order() {
    let mut d = doc(TournamentSystem::Swiss, 3);
    d.start(0).unwrap();
    d.pair_next(7, &[]).unwrap();
    d.round_list[0].boards[0].game_id = Some("g1".into());
    d.set_result(1, 1, TournamentResult::BlackWins).unwrap();
    let json = serde_json::to_string(&d.round_views()).unwrap();
    // The board's number before the stored board's fields; the bye's points after the stored bye's.
    assert_eq!(
        json,
        r#"[{"number":1,"boards":[{"board":1,"white":1,"black":2,"game_id":"g1","result":"0-1"}],"byes":[{"no":3,"kind":"pairing","points":1.0}],"finished":true,"started_at_ms":7}]"#
    );
    let back: Vec<TournamentRound> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, d.round_views());
    // The stored document keeps its boards and byes without the view's fields.
    let stored = serde_json::to_string(&d.round_list[0]).unwrap();
    assert_eq!(
        stored,
        r#"{"boards":[{"white":1,"black":2,"game_id":"g1","result":"0-1"}],"byes":[{"no":3,"kind":"pairing"}],"started_at_ms":7}"#
    );
}

#[test]
fn a_trf_import_reads_byes_forbidden_pairs_and_the_system_and_refuses_what_does_not_fit() {
    let mut d = doc(TournamentSystem::Swiss, 5);
    d.forbid(1, 2).unwrap();
    d.start(0).unwrap();
    d.pair_next(1, &[]).unwrap();
    for b in 1..=2 {
        d.set_result(1, b, TournamentResult::Draw).unwrap();
    }
    d.after_round();
    let t = d.to_trf(false);
    let back = Doc::from_trf(&t, ("o".into(), "org".into()), 9).unwrap();
    assert_eq!(back.round_list[0].byes, d.round_list[0].byes, "the pairing bye comes back");
    assert_eq!(back.forbidden, vec![(1, 2)]);
    assert_eq!(
        (back.system, back.mode, back.status),
        (TournamentSystem::Swiss, TournamentMode::Otb, TournamentStatus::Running)
    );
    assert_eq!((back.created_at_ms, back.round_list[0].started_at_ms), (9, 9));
    let mut rr = t.clone();
    rr.header.kind = Some("Round robin".into());
    assert_eq!(Doc::from_trf(&rr, ("o".into(), "org".into()), 0).unwrap().system, TournamentSystem::RoundRobin);

    // Both sides of board 1 claim a win.
    let mut wrong = t.clone();
    let (w, b) = (d.round_list[0].boards[0].white, d.round_list[0].boards[0].black);
    for p in wrong.players.iter_mut().filter(|p| u32::from(p.start_number) == w || u32::from(p.start_number) == b) {
        p.rounds[0].code = trf::Code::Win;
    }
    let err = Doc::from_trf(&wrong, ("o".into(), "org".into()), 0).unwrap_err();
    assert_eq!(err.code, "bad_trf");
    assert_eq!(err.en, format!("round 1: the results of {w} and {b} (1 and 1) do not match"));
    let mut one = t.clone();
    one.players.truncate(1);
    assert_eq!(
        Doc::from_trf(&one, ("o".into(), "org".into()), 0).unwrap_err().en,
        "the TRF file must have at least 2 players"
    );
    let mut no_rounds = t;
    no_rounds.rounds = None;
    for p in &mut no_rounds.players {
        p.rounds.clear();
    }
    assert_eq!(
        Doc::from_trf(&no_rounds, ("o".into(), "org".into()), 0).unwrap_err().en,
        "the TRF file gives no number of rounds (an XXR line) and no round played"
    );
}

#[test]
fn the_trf_export_keeps_one_line_per_player_whatever_the_names() {
    let mut d = doc(TournamentSystem::Swiss, 4);
    d.name = "Club\n001    9 m    Fake".into();
    d.players[0].name = "Evil\n001    5 m    Injected                     2999".into();
    d.players[1].name = "Tab\there\rand there".into();
    let text = trf::write(&d.to_trf(false));
    assert_eq!(text.lines().filter(|l| l.starts_with("001")).count(), 4, "{text}");
    let back = trf::parse(&text).unwrap();
    assert_eq!(back.players.len(), 4);
    assert!(back.players[0].name.starts_with("Evil 001    5 m"), "{:?}", back.players[0].name);
    assert_eq!(back.players[0].rating, Some(2000), "the rating column did not move");
    assert_eq!(back.players[1].name, "Tab here and there");
    assert_eq!(back.header.name.as_deref(), Some("Club 001    9 m    Fake"));
}
