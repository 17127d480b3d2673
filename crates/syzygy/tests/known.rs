//! Known positions, by FEN. The expected values are chess facts that can be checked by hand (mates, stalemate,
//! textbook pawn endings) or that python-chess 1.11.2's independent reader gives for the same files.

mod common;

use guoxiang_core::Position;
use guoxiang_syzygy::{Dtz, ProbeError, Tablebase, Wdl};

fn fixtures() -> Tablebase {
    let mut tb = Tablebase::new();
    tb.add_directory(common::fixtures()).expect("fixtures");
    tb
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[track_caller]
fn expect(tb: &Tablebase, fen: &str, wdl: Wdl, dtz: i32) {
    let p = pos(fen);
    assert_eq!(tb.probe_wdl(&p), Ok(wdl), "WDL of {fen}");
    assert_eq!(tb.probe_dtz(&p), Ok(Dtz(dtz)), "DTZ of {fen}");
}

#[test]
fn mates_and_stalemate() {
    let tb = fixtures();
    // Qh8 (or Qg8) mates at once.
    expect(&tb, "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", Wdl::Win, 1);
    // Already mated: the side to move has lost, and "zeroes" at once.
    expect(&tb, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", Wdl::Loss, -1);
    // Stalemate: black has no move and is not in check.
    expect(&tb, "4k3/4P3/4K3/8/8/8/8/8 b - - 0 1", Wdl::Draw, 0);
}

#[test]
fn best_move_mates_in_one() {
    let tb = fixtures();
    let p = pos("k7/8/1K6/8/8/8/7Q/8 w - - 0 1");
    let (mv, wdl, dtz) = tb.best_move(&p).unwrap().expect("a move");
    assert_eq!((wdl, dtz), (Wdl::Win, Dtz(1)));
    assert!(p.after(mv).is_checkmate(), "{mv:?} should mate");
}

#[test]
fn textbook_endings() {
    let tb = fixtures();
    // KQvK and KRvK wins: distances from python-chess.
    expect(&tb, "8/8/8/2k5/8/8/6Q1/7K w - - 0 1", Wdl::Win, 19);
    expect(&tb, "8/K7/8/8/3k4/2R5/8/8 w - - 0 1", Wdl::Win, 31);
    // KPvK: king on the sixth in front of its pawn wins; pawn on the second, kings in opposition, draws.
    expect(&tb, "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Wdl::Win, 3);
    expect(&tb, "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", Wdl::Draw, 0);
    // KRvKR is a draw here.
    expect(&tb, "8/8/4k3/8/8/3K4/3R4/4r3 w - - 0 1", Wdl::Draw, 0);
    // The crate documentation's example: the black pawn queens.
    expect(&tb, "8/8/8/8/8/2k5/2p5/K7 w - - 0 1", Wdl::Loss, -2);
    // KBNvK: a win (only the WDL file is among the fixtures).
    assert_eq!(tb.probe_wdl(&pos("8/8/2Bk4/6N1/8/8/8/7K w - - 0 1")), Ok(Wdl::Win));
    // The same position with the colours exchanged (board turned over, black to move) wins for black; with
    // white to move instead, Kxc3 leaves a bare knight: a draw.
    assert_eq!(tb.probe_wdl(&pos("7k/8/8/8/6n1/2bK4/8/8 b - - 0 1")), Ok(Wdl::Win));
    assert_eq!(tb.probe_wdl(&pos("7k/8/8/8/6n1/2bK4/8/8 w - - 0 1")), Ok(Wdl::Draw));
}

#[test]
fn en_passant_changes_the_result() {
    let tb = fixtures();
    // exf6 e.p. wins (the f-pawn would otherwise draw); without the right it is a draw.
    expect(&tb, "8/4K2k/8/4Pp2/8/8/8/8 w - f6 0 1", Wdl::Win, 1);
    expect(&tb, "8/4K2k/8/4Pp2/8/8/8/8 w - - 0 1", Wdl::Draw, 0);
    // bxa6 e.p. saves the draw; without it white loses.
    expect(&tb, "2k5/4K3/8/pP6/8/8/8/8 w - a6 0 1", Wdl::Draw, 0);
    expect(&tb, "2k5/4K3/8/pP6/8/8/8/8 w - - 0 1", Wdl::Loss, -1);
    // Black's dxc3 e.p. wins.
    expect(&tb, "8/8/8/8/1KPp4/3k4/8/8 b - c3 0 1", Wdl::Win, 1);
    expect(&tb, "8/8/8/8/1KPp4/3k4/8/8 b - - 0 1", Wdl::Draw, 0);
}

#[test]
fn halfmove_clock_turns_a_slow_win_into_a_cursed_one() {
    let tb = fixtures();
    let fen = |clock: u32| format!("8/8/8/2k5/8/8/6Q1/7K w - - {clock} 60");
    // The position's DTZ is 19: from a fresh count, or with 81 half-moves gone (81 + 19 = 100), it still wins.
    for clock in [0, 81] {
        let p = pos(&fen(clock));
        assert_eq!(tb.probe_wdl(&p), Ok(Wdl::Win), "probes ignore the clock");
        let (_, wdl, dtz) = tb.best_move(&p).unwrap().expect("a move");
        assert_eq!((wdl, dtz), (Wdl::Win, Dtz(19)), "clock {clock}");
    }
    // With 82 gone the zeroing move would come too late: only a cursed win.
    let p = pos(&fen(82));
    let (_, wdl, dtz) = tb.best_move(&p).unwrap().expect("a move");
    assert_eq!((wdl, dtz), (Wdl::CursedWin, Dtz(19)));
    let moves = tb.root_moves(&p).unwrap();
    assert!(moves.iter().all(|m| m.wdl != Wdl::Win));
    assert!(moves.iter().any(|m| m.wdl == Wdl::CursedWin));
}

#[test]
fn best_move_keeps_the_win_and_hurries() {
    let tb = fixtures();
    let p = pos("8/K7/8/8/3k4/2R5/8/8 w - - 0 1");
    let moves = tb.root_moves(&p).unwrap();
    assert_eq!(moves.len(), p.legal_moves().len());
    let (mv, wdl, dtz) = tb.best_move(&p).unwrap().expect("a move");
    assert_eq!(wdl, Wdl::Win);
    // The position's own DTZ is 31; the chosen move realises it (or one ply less where the file rounds).
    assert!((30..=31).contains(&dtz.0), "{dtz:?}");
    let fastest = moves.iter().filter(|m| m.wdl == Wdl::Win).map(|m| m.dtz.0).min().unwrap();
    assert_eq!(dtz.0, fastest);
    // And the opponent's position after it is lost with one ply less.
    let after = p.after(mv);
    assert_eq!(tb.probe_wdl(&after), Ok(Wdl::Loss));
    assert_eq!(tb.probe_dtz(&after), Ok(Dtz(-(dtz.0 - 1))));
    // A losing side's best move is its slowest loss.
    let p = pos("8/8/8/8/8/2k5/2p5/K7 w - - 0 1");
    let (_, wdl, dtz) = tb.best_move(&p).unwrap().expect("a move");
    assert_eq!(wdl, Wdl::Loss);
    assert_eq!(dtz, Dtz(-2));
}

#[test]
fn no_legal_move_means_no_best_move() {
    let tb = fixtures();
    assert_eq!(tb.best_move(&pos("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")), Ok(None));
    assert_eq!(tb.root_moves(&pos("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1")), Ok(Vec::new()));
}

#[test]
fn bare_kings_need_no_table() {
    let tb = Tablebase::new();
    assert_eq!(tb.max_pieces(), 0);
    expect(&tb, "8/8/3k4/8/8/3K4/8/8 w - - 0 1", Wdl::Draw, 0);
}

/// Cursed wins and blessed losses do not occur in 3- and 4-piece tables; with `GUOXIANG_SYZYGY_TEST_DIR`
/// pointing at directories holding KBBvKN and KBNvKN (5 pieces), check one of each.
#[test]
fn cursed_win_and_blessed_loss() {
    let Ok(dirs) = std::env::var("GUOXIANG_SYZYGY_TEST_DIR") else {
        eprintln!("SKIP cursed-win test: set GUOXIANG_SYZYGY_TEST_DIR to directories with KBBvKN and KBNvKN");
        return;
    };
    let mut tb = Tablebase::new();
    tb.add_paths(&dirs).expect("table directories");
    let blessed = pos("4k3/8/6n1/8/B7/8/3B4/4K3 b - - 0 1");
    let cursed = pos("5N2/8/8/4n3/B7/2K5/k7/8 w - - 0 1");
    match tb.probe_wdl(&blessed) {
        Err(ProbeError::MissingTable { name }) => {
            eprintln!("SKIP cursed-win test: {name} missing");
            return;
        }
        r => assert_eq!(r, Ok(Wdl::BlessedLoss)),
    }
    assert_eq!(tb.probe_dtz(&blessed), Ok(Dtz(-102)));
    assert_eq!(tb.probe_wdl(&cursed), Ok(Wdl::CursedWin));
    assert_eq!(tb.probe_dtz(&cursed), Ok(Dtz(108)));
    let (_, wdl, dtz) = tb.best_move(&cursed).unwrap().expect("a move");
    assert_eq!(wdl, Wdl::CursedWin);
    assert!(dtz.0 > 100);
}
