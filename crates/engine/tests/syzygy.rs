//! The search with Syzygy tables (the committed 3- and 4-piece fixtures of guoxiang-syzygy): root moves chosen by
//! the tables, scores shown from them, lookups in the tree after captures, the 50-move rule, and the weak levels
//! left alone. The expected moves are the tables' facts (checked with python-chess's reader).

use guoxiang_core::Position;
use guoxiang_engine::tb::{Syzygy, TB_WIN, TB_WIN_BOUND};
use guoxiang_engine::{Control, Engine, Info, Limits, Silent};
use guoxiang_syzygy::Tablebase;
use std::sync::{Arc, Mutex};
use std::time::Instant;

fn tables() -> Syzygy {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../syzygy/tests/tables");
    let mut tb = Tablebase::new();
    let n = tb.add_directory(dir).expect("the fixtures' directory");
    assert!(n >= 20, "{n} tables in {dir}");
    Syzygy::new(Arc::new(tb))
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Searches to `depth`; returns the move (UCI), the score and the last report's table lookups.
fn search(engine: &Engine, fen: &str, depth: u32) -> (String, i32, u64) {
    let p = pos(fen);
    let last: Mutex<Option<Info>> = Mutex::new(None);
    let reporter = |i: &Info| *last.lock().unwrap() = Some(i.clone());
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let r = engine.search(&p, &[], &limits, &Control::default(), &reporter, Instant::now());
    let tbhits = last.lock().unwrap().as_ref().map_or(0, |i| i.tbhits);
    (p.uci(r.best.expect("a move")), r.score.0, tbhits)
}

fn engine_with(tb: Option<Syzygy>) -> Engine {
    let mut e = Engine::new(8);
    e.options.syzygy = tb;
    e
}

#[test]
fn the_only_winning_move_is_played_and_scored_as_a_win() {
    // King and pawn against king: only Kg6 wins (the tables: DTZ 9).
    let e = engine_with(Some(tables()));
    for depth in [1, 6] {
        let (m, score, tbhits) = search(&e, "6k1/8/8/4P2K/8/8/8/8 w - - 0 1", depth);
        assert_eq!(m, "h5g6", "depth {depth}");
        assert!(score > TB_WIN_BOUND && score < TB_WIN, "depth {depth}: {score}");
        assert!(tbhits > 0, "depth {depth}");
    }
    // The same root without tables is an ordinary evaluation.
    let (_, score, tbhits) = search(&engine_with(None), "6k1/8/8/4P2K/8/8/8/8 w - - 0 1", 6);
    assert!(score < TB_WIN_BOUND, "{score}");
    assert_eq!(tbhits, 0);
}

#[test]
fn the_defender_keeps_the_draw() {
    // Black to move draws only with Kf8, Kg7 or Kf7 (Kh8 and Kh7 lose).
    let e = engine_with(Some(tables()));
    for depth in [1, 8] {
        let (m, score, _) = search(&e, "6k1/8/8/4P2K/8/8/8/8 b - - 0 1", depth);
        assert!(["g8f8", "g8g7", "g8f7"].contains(&m.as_str()), "depth {depth}: {m}");
        assert_eq!(score, 0, "depth {depth}");
    }
}

#[test]
fn a_drawn_rook_ending_scores_zero() {
    let e = engine_with(Some(tables()));
    let (_, score, _) = search(&e, "8/8/3k4/3r4/8/8/3RK3/8 w - - 0 1", 8);
    assert_eq!(score, 0);
}

#[test]
fn a_capture_into_the_tables_is_scored_in_the_tree() {
    // Five pieces (not in the fixtures): the queen takes the rook with check, into a won king-and-pawn ending
    // that the tables know and a search alone would only call "a pawn up".
    let e = engine_with(Some(tables()));
    let (m, score, tbhits) = search(&e, "3r3k/8/8/8/8/8/P7/3Q2K1 w - - 0 1", 6);
    assert_eq!(m, "d1d8");
    assert!(score > TB_WIN_BOUND, "{score}");
    assert!(tbhits > 0);
}

#[test]
fn the_fifty_move_rule_turns_a_late_win_into_a_draw() {
    // Queen against king needs 13 more plies to mate; with 95 plies already without a capture or pawn move, no
    // mate comes in time: a "cursed" win, a draw by the rule (scored 1 as the better side of a draw).
    let fen = "8/8/8/4k3/8/8/8/3QK3 w - - 95 60";
    let mut tb = tables();
    let (_, score, _) = search(&engine_with(Some(tb.clone())), fen, 4);
    assert_eq!(score, 1);
    // Without the rule it is a win, played by the fastest way to mate (the tables: Qd7 alone needs 12 more).
    tb.rule50 = false;
    let (m, score, _) = search(&engine_with(Some(tb)), fen, 4);
    assert_eq!(m, "d1d7");
    assert!(score > TB_WIN_BOUND, "{score}");
}

#[test]
fn weak_levels_and_larger_positions_ignore_the_tables() {
    let mut e = engine_with(Some(tables()));
    e.options.level = guoxiang_engine::levels::level(1).copied();
    let (_, score, tbhits) = search(&e, "6k1/8/8/4P2K/8/8/8/8 w - - 0 1", 3);
    assert!(score < TB_WIN_BOUND, "{score}");
    assert_eq!(tbhits, 0);
    // The starting position: nothing to look up, and the same tree as without tables.
    let with = engine_with(Some(tables()));
    let without = engine_with(None);
    let start = Position::new();
    let limits = Limits { depth: Some(6), ..Limits::default() };
    let a = with.search(&start, &[], &limits, &Control::default(), &Silent, Instant::now());
    let b = without.search(&start, &[], &limits, &Control::default(), &Silent, Instant::now());
    assert_eq!((a.best, a.nodes), (b.best, b.nodes));
}

#[test]
fn multipv_shows_only_the_moves_that_keep_the_result() {
    let mut e = engine_with(Some(tables()));
    e.options.multipv = 5;
    let p = pos("6k1/8/8/4P2K/8/8/8/8 b - - 0 1");
    let moves = e.root_moves(&p, &Limits::default());
    let mut names: Vec<String> = moves.iter().map(|&m| p.uci(m)).collect();
    names.sort();
    assert_eq!(names, ["g8f7", "g8f8", "g8g7"]);
}
