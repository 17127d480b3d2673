//! Minimax consistency of the committed fixture tables, through the public probes only.
//!
//! For random legal positions of every fixture table (deterministic, seeded; en-passant positions included where
//! both sides have pawns) each legal move gets a root-relative distance `dm`, built from the children's probes:
//!
//! * a zeroing move (capture or pawn move) starts a fresh 50-move count, so it is worth the child's WDL:
//!   `dm` = 1 if the child is lost for the opponent, 101 if it is only a blessed loss, 0 for a draw, -101 / -1 if
//!   the opponent has a cursed / real win;
//! * any other move is worth one ply more than the child's DTZ: `dm = -dtz(child) ± 1` away from zero (0 for a
//!   drawn child), except that a mating move is worth 1.
//!
//! Under the 50-move rule from a fresh count, a move with `0 < dm ≤ 100` wins, `dm > 100` is a cursed win, and
//! mirrored for losses. What is checked:
//!
//! 1. **WDL is the minimax of the moves**: `probe_wdl(pos)` equals the best of those move values exactly
//!    (mate → Loss, stalemate → Draw).
//! 2. **WDL and DTZ agree**: Win ⇔ 1 ≤ dtz ≤ 100, CursedWin ⇔ dtz > 100, Draw ⇔ 0, and mirrored.
//! 3. **DTZ is the minimax of the moves**, up to the format's rounding: for a won position the fastest winning
//!    move has `dm` within one ply of `dtz` (files storing whole moves may be one ply short, in the position or
//!    in its children); for a lost one every move loses and the slowest has `dm` within one ply of `dtz`; for a
//!    draw no move wins and some move draws. How often the match is exact is printed.
//! 4. `root_moves` gives, for every move, exactly the `dm` and the judged WDL computed here, and `best_move`
//!    keeps the position's result.
//!
//! For the two WDL-only fixtures (KQvKP, KBNvK) the checkable part is: the result is at least that of the best
//! zeroing move, and its sign is the sign of the best child result.
//!
//! Positions whose probes need a table that is not among the fixtures (mostly under-promotions, e.g. KPPvK →
//! KBPvK) are skipped and counted; the test fails if a table has too few positions left. With
//! `GUOXIANG_SYZYGY_TEST_DIR` set (see the oracle test), the same checks also run on those tables.

mod common;

use guoxiang_core::Position;
use guoxiang_syzygy::{ProbeError, Tablebase, Wdl};

const POSITIONS_PER_TABLE: usize = 500;

fn before_zeroing(w: Wdl) -> i32 {
    match w {
        Wdl::Win => 1,
        Wdl::CursedWin => 101,
        Wdl::Draw => 0,
        Wdl::BlessedLoss => -101,
        Wdl::Loss => -1,
    }
}

fn judge(dm: i32) -> Wdl {
    match dm {
        0 => Wdl::Draw,
        d if d > 0 && d <= 100 => Wdl::Win,
        d if d > 0 => Wdl::CursedWin,
        d if d >= -100 => Wdl::Loss,
        _ => Wdl::BlessedLoss,
    }
}

enum Outcome {
    Checked { exact_dtz: bool },
    Skipped,
}

/// Missing tables skip the position; any other error fails the test.
fn probe<T>(r: Result<T, ProbeError>) -> Result<Option<T>, String> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(ProbeError::MissingTable { .. }) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

macro_rules! try_probe {
    ($e:expr) => {
        match probe($e)? {
            Some(v) => v,
            None => return Ok(Outcome::Skipped),
        }
    };
}

fn check_with_dtz(tb: &Tablebase, pos: &Position) -> Result<Outcome, String> {
    let w = try_probe!(tb.probe_wdl(pos));
    let d = try_probe!(tb.probe_dtz(pos)).0;
    let moves = pos.legal_moves();
    let wdl_dtz_agree = match w {
        Wdl::Win => (1..=100).contains(&d),
        Wdl::CursedWin => d > 100,
        Wdl::Draw => d == 0,
        Wdl::BlessedLoss => d < -100,
        Wdl::Loss => (-100..=-1).contains(&d),
    };
    if !wdl_dtz_agree {
        return Err(format!("WDL {w:?} but DTZ {d}"));
    }
    if moves.is_empty() {
        let expected = if pos.is_check() { (Wdl::Loss, -1) } else { (Wdl::Draw, 0) };
        return if (w, d) == expected {
            Ok(Outcome::Checked { exact_dtz: true })
        } else {
            Err(format!("no legal move, expected {expected:?}, got {w:?} {d}"))
        };
    }
    let mut dms = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        let child = pos.after(m);
        let dm = if pos.is_zeroing(m) {
            before_zeroing(try_probe!(tb.probe_wdl(&child)).neg())
        } else {
            let c = -try_probe!(tb.probe_dtz(&child)).0;
            if c == 1 && child.is_checkmate() { 1 } else { c + c.signum() }
        };
        dms.push((m, dm));
    }
    let best = dms.iter().map(|&(_, dm)| judge(dm)).max().expect("moves");
    if best != w {
        return Err(format!("WDL {w:?} but the best move is worth {best:?} (moves {dms:?})"));
    }
    let exact = if d > 0 {
        let fastest = dms.iter().map(|&(_, dm)| dm).filter(|&dm| dm > 0).min().expect("a winning move");
        if (fastest - d).abs() > 1 {
            return Err(format!("DTZ {d} but the fastest winning move has {fastest}"));
        }
        fastest == d
    } else if d < 0 {
        if let Some(&(m, dm)) = dms.iter().find(|&&(_, dm)| dm >= 0) {
            return Err(format!("DTZ {d} (lost) but {m:?} does not lose ({dm})"));
        }
        let slowest = dms.iter().map(|&(_, dm)| dm).min().expect("moves");
        if (slowest - d).abs() > 1 {
            return Err(format!("DTZ {d} but the slowest losing move has {slowest}"));
        }
        slowest == d
    } else {
        if dms.iter().any(|&(_, dm)| dm > 0) || !dms.iter().any(|&(_, dm)| dm == 0) {
            return Err(format!("draw, but the moves are worth {dms:?}"));
        }
        true
    };

    // The root helpers see the same.
    let root = tb.root_moves(pos).map_err(|e| e.to_string())?;
    if root.len() != dms.len() {
        return Err("root_moves does not list every legal move".to_string());
    }
    for (rm, &(m, dm)) in root.iter().zip(&dms) {
        if rm.mv != m || rm.dtz.0 != dm || rm.wdl != judge(dm) {
            return Err(format!("root move {rm:?}, expected {m:?} with dtz {dm} ({:?})", judge(dm)));
        }
    }
    let (_, bw, bd) = tb.best_move(pos).map_err(|e| e.to_string())?.expect("a legal move");
    if bw != w {
        return Err(format!("best move leads to {bw:?} {bd:?}, position is {w:?}"));
    }
    Ok(Outcome::Checked { exact_dtz: exact })
}

fn check_wdl_only(tb: &Tablebase, pos: &Position) -> Result<Outcome, String> {
    let w = try_probe!(tb.probe_wdl(pos));
    let moves = pos.legal_moves();
    if moves.is_empty() {
        let expected = if pos.is_check() { Wdl::Loss } else { Wdl::Draw };
        return if w == expected { Ok(Outcome::Checked { exact_dtz: true }) } else { Err(format!("no move: {w:?}")) };
    }
    let mut best_zeroing = None;
    let mut best_any = Wdl::Loss;
    for &m in moves.iter() {
        let v = try_probe!(tb.probe_wdl(&pos.after(m))).neg();
        best_any = best_any.max(v);
        if pos.is_zeroing(m) {
            best_zeroing = Some(best_zeroing.map_or(v, |b: Wdl| b.max(v)));
        }
    }
    if best_zeroing.is_some_and(|b| w < b) {
        return Err(format!("WDL {w:?} but a zeroing move reaches {best_zeroing:?}"));
    }
    if w.to_i32().signum() != best_any.to_i32().signum() {
        return Err(format!("WDL {w:?} but the best child result is {best_any:?}"));
    }
    Ok(Outcome::Checked { exact_dtz: true })
}

/// Checks `per_table` random positions of every WDL table in `dirs` (a table's DTZ file may be in any of them).
fn check_tables(dirs: &[std::path::PathBuf], per_table: usize) {
    let mut tb = Tablebase::new();
    let mut names = Vec::new();
    for d in dirs {
        let found = tb.add_directory(d).expect("table directory");
        assert_eq!(found, common::wdl_tables_in(d).len());
        names.extend(common::wdl_tables_in(d));
    }
    let mut failures = Vec::new();
    let mut total = 0;
    for name in names {
        let has_dtz = dirs.iter().any(|d| d.join(format!("{name}.rtbz")).exists());
        let (mut checked, mut skipped, mut exact, mut ep) = (0, 0, 0, 0);
        for pos in common::random_positions(&name, per_table, 1, true) {
            let r = if has_dtz { check_with_dtz(&tb, &pos) } else { check_wdl_only(&tb, &pos) };
            match r {
                Ok(Outcome::Checked { exact_dtz }) => {
                    checked += 1;
                    exact += usize::from(exact_dtz);
                    ep += usize::from(pos.ep_square().is_some());
                }
                Ok(Outcome::Skipped) => skipped += 1,
                Err(e) => failures.push(format!("{name} {}: {e}", pos.fen())),
            }
        }
        total += checked;
        println!(
            "{name}: {checked} checked ({ep} with en passant), {skipped} skipped (a table is missing){}",
            if has_dtz { format!(", DTZ exactly the fastest/slowest move's in {exact}") } else { String::new() }
        );
        assert!(checked * 3 >= per_table, "{name}: only {checked} positions could be checked");
    }
    println!("consistency: {total} positions checked");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
}

#[test]
fn fixture_tables_are_minimax_consistent() {
    check_tables(&[common::fixtures()], POSITIONS_PER_TABLE);
}

/// The same checks on the tables of `GUOXIANG_SYZYGY_TEST_DIR` (see the oracle test), when it is set.
#[test]
fn local_tables_are_minimax_consistent() {
    let Ok(dirs) = std::env::var("GUOXIANG_SYZYGY_TEST_DIR") else {
        eprintln!("SKIP local consistency test: set GUOXIANG_SYZYGY_TEST_DIR to directories of Syzygy tables");
        return;
    };
    let per_table = std::env::var("GUOXIANG_SYZYGY_TEST_POSITIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let dirs: Vec<_> = std::env::split_paths(&dirs).filter(|d| !d.as_os_str().is_empty()).collect();
    check_tables(&dirs, per_table);
}
