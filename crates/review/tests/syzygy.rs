//! The review with Syzygy endgame tables (the 3- and 4-piece fixtures of crates/syzygy/tests/tables): a position the
//! tables cover is judged by them, exactly — a won king-and-pawn ending thrown away is a missed win even where a
//! search alone cannot tell, and a move that keeps the win is no error.

use std::path::Path;
use std::sync::Arc;

use guoxiang_core::{Position, UciMove};
use guoxiang_engine::tb::Syzygy;
use guoxiang_review::{Class, Eval, Options, review};
use guoxiang_syzygy::Tablebase;

fn tables() -> Syzygy {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../syzygy/tests/tables");
    let mut t = Tablebase::new();
    let n = t.add_directory(&dir).expect("the fixture tables");
    assert!(n >= 20, "{n} tables in {}", dir.display());
    Syzygy::new(Arc::new(t))
}

fn moves(pos: &Position, ucis: &[&str]) -> Vec<guoxiang_core::Move> {
    let mut p = pos.clone();
    ucis.iter()
        .map(|u| {
            let m = u.parse::<UciMove>().expect("uci").to_move(&p).expect("legal");
            p = p.after(m);
            m
        })
        .collect()
}

/// White king e6, pawn e5 against the king on e8: Kd6 and Kf6 win, Kd5 and Kf5 (giving up the opposition) draw.
const OPPOSITION: &str = "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1";

#[test]
fn a_drawing_move_in_a_won_ending_is_a_missed_win_with_the_tables() {
    let start = Position::from_fen(OPPOSITION).expect("fen");
    let game = moves(&start, &["e6d5", "e8e7"]);
    let options = Options { nodes: 20_000, syzygy: Some(tables()), ..Options::default() };
    let r = review(&start, &game, &options, &mut |_, _| {}).expect("review");
    let kd5 = &r.moves[0];
    assert_eq!(kd5.class, Class::MissedWin, "Kd5 lets the draw in: {kd5:?}");
    assert!(kd5.loss >= 45.0, "a won ending to a drawn one loses about half a point: {kd5:?}");
    assert!(matches!(kd5.best.as_deref(), Some("e6d6" | "e6f6")), "the tables' move: {kd5:?}");
    assert_eq!(kd5.eval, Eval::Cp(0), "after Kd5 the tables say draw: {kd5:?}");
    let comment = kd5.comment.as_ref().expect("a missed win is explained");
    assert!(comment.en.contains("Kd6") || comment.en.contains("Kf6"), "names the winning move: {comment:?}");
}

#[test]
fn a_move_that_keeps_the_win_is_no_error_with_the_tables() {
    let start = Position::from_fen(OPPOSITION).expect("fen");
    for first in ["e6d6", "e6f6"] {
        let game = moves(&start, &[first]);
        let r = review(
            &start,
            &game,
            &Options { nodes: 20_000, syzygy: Some(tables()), ..Options::default() },
            &mut |_, _| {},
        )
        .expect("review");
        let m = &r.moves[0];
        assert!(!m.class.is_error() && m.loss < 1.0, "{first} keeps the win: {m:?}");
        assert!(matches!(m.eval, Eval::Cp(cp) if cp > 10_000), "a table win after {first}: {m:?}");
    }
}
