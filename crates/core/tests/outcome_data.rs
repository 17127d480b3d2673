//! Game endings against reference data in ../shared/data/positions (skipped with a message when absent): every
//! lichess game replayed through `GameState`, and python-chess's insufficient-material verdicts.

mod common;
use common::data_dir;

use guoxiang_core::{CastlingMode, ClaimKind, Color, GameState, Outcome, Position, Termination, Validation};
use std::collections::HashMap;
use std::time::Instant;

/// Rows of a TSV file as column-name → value maps.
fn read_tsv(file: &str) -> Option<Vec<HashMap<String, String>>> {
    let path = data_dir()?.join("positions").join(file);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("SKIP: {} not found", path.display());
        return None;
    };
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next()?.split('\t').collect();
    Some(
        lines
            .filter(|l| !l.is_empty())
            .map(|l| header.iter().zip(l.split('\t')).map(|(h, v)| (h.to_string(), v.to_string())).collect())
            .collect(),
    )
}

fn flag(row: &HashMap<String, String>, col: &str) -> bool {
    match row.get(col).map(String::as_str) {
        Some("1") => true,
        Some("0") => false,
        other => panic!("column {col}: {other:?}"),
    }
}

/// What one share of the lichess games gave: (mates, stalemates, insufficient, threefold, threefold claimable) and
/// (time-forfeit wins, time-forfeit draws) checked.
type EndingCounts = ((usize, usize, usize, usize, usize), (usize, usize));

/// Replays every game of the share `half` (0: the even rows, 1: the odd ones) through `GameState` and checks its ending
/// against the data. The two halves are two tests so that the test harness runs them side by side.
fn lichess_game_endings(half: usize) -> Option<EndingCounts> {
    let rows = read_tsv("lichess_game_endings.tsv")?;
    assert_eq!(rows.len(), 4947);
    let started = Instant::now();
    let (mut mates, mut stalemates, mut threefold, mut claimable, mut insufficient) = (0, 0, 0, 0, 0);
    let (mut plies, mut time_wins, mut time_draws) = (0usize, 0, 0);
    for row in rows.iter().skip(half).step_by(2) {
        let id = format!("{}#{}", row["source_file"], row["game_index"]);
        let mut g = GameState::new();
        for u in row["uci_moves"].split_whitespace() {
            assert!(!g.is_over(), "{id}: the game ended early ({:?}) before {u}", g.outcome());
            let m = g.position().parse_uci(u).unwrap_or_else(|e| panic!("{id}: {u}: {e}"));
            g.play(m).unwrap_or_else(|e| panic!("{id}: {u}: {e}"));
            plies += 1;
        }
        let p = g.position();
        assert_eq!(p.fen(), row["final_fen"], "{id}");
        assert_eq!(p.count_legal().to_string(), row["legal_move_count"], "{id}");
        assert_eq!(p.halfmoves().to_string(), row["halfmove_clock"], "{id}");

        let status = g.status();
        let is = |t: Termination| status.is_some_and(|o| o.termination == t);
        assert_eq!(is(Termination::Checkmate), flag(row, "checkmate"), "{id}: checkmate");
        assert_eq!(is(Termination::Stalemate), flag(row, "stalemate"), "{id}: stalemate");
        assert_eq!(g.repetitions() >= 3, flag(row, "threefold_occurred"), "{id}: threefold occurred");
        assert_eq!(g.repetitions() >= 5, flag(row, "fivefold"), "{id}: fivefold");
        assert_eq!(
            g.can_claim(ClaimKind::ThreefoldRepetition),
            flag(row, "threefold_claimable"),
            "{id}: threefold claim"
        );
        assert_eq!(g.can_claim(ClaimKind::FiftyMoves), flag(row, "fifty_claimable"), "{id}: fifty claim");
        assert_eq!(p.halfmoves() >= 150 && p.has_legal_move(), flag(row, "seventyfive"), "{id}: 75 moves");
        assert_eq!(p.is_insufficient_material(), flag(row, "insufficient_material"), "{id}: insufficient material");
        if flag(row, "insufficient_material") {
            assert!(!p.can_mate(Color::White) && !p.can_mate(Color::Black), "{id}: insufficient material is dead");
            assert_eq!(status.map(|o| o.termination), Some(Termination::DeadPosition), "{id}");
            insufficient += 1;
        }
        if let Some(o) = status
            && o.termination == Termination::Checkmate
        {
            assert_eq!(o.result(), row["result"], "{id}: checkmate result");
        }
        mates += usize::from(flag(row, "checkmate"));
        stalemates += usize::from(flag(row, "stalemate"));
        threefold += usize::from(flag(row, "threefold_occurred"));
        claimable += usize::from(flag(row, "threefold_claimable"));

        // Time forfeits. lichess awarded these wins, so the winner must be able to mate as far as we can tell. Its
        // draws on time are mostly flags against a bare king (one game in the data is a draw for another reason).
        if row["termination"] == "Time forfeit" && status.is_none() {
            match row["result"].as_str() {
                "1/2-1/2" => {
                    let o = Outcome::time_forfeit(p, p.turn());
                    if o.is_draw() {
                        time_draws += 1;
                    } else {
                        eprintln!("{id}: lichess drew on time, we say {o} ({})", p.fen());
                    }
                }
                r => {
                    let winner = if r == "1-0" { Color::White } else { Color::Black };
                    assert!(p.can_mate(winner), "{id}: {winner:?} won on time but we say it cannot mate");
                    assert_eq!(Outcome::time_forfeit(p, !winner).winner, Some(winner), "{id}");
                    time_wins += 1;
                }
            }
        }
    }
    eprintln!(
        "lichess, half {half}: {plies} plies replayed in {:?}: {mates} mates, {stalemates} stalemates, {threefold} \
         threefold ({claimable} claimable), {insufficient} insufficient; time forfeits checked: {time_wins} wins, \
         {time_draws} draws",
        started.elapsed()
    );
    Some(((mates, stalemates, insufficient, threefold, claimable), (time_wins, time_draws)))
}

// Over all 4,947 games: 507 mates, 2 stalemates, 3 insufficient, 25 threefold (27 claimable); 4,010 wins and 2 draws
// on time checked.
const EVEN_ROWS: EndingCounts = ((255, 0, 2, 8, 9), (2007, 1));
const ODD_ROWS: EndingCounts = ((252, 2, 1, 17, 18), (2003, 1));

#[test]
fn lichess_game_endings_even_rows() {
    let Some(counts) = lichess_game_endings(0) else { return };
    assert_eq!(counts, EVEN_ROWS);
}

#[test]
fn lichess_game_endings_odd_rows() {
    let Some(counts) = lichess_game_endings(1) else { return };
    assert_eq!(counts, ODD_ROWS);
}

#[test]
fn lichess_time_forfeit_mating_lines() {
    let Some(rows) = read_tsv("lichess_game_endings.tsv") else { return };
    let started = Instant::now();
    let (mut tried, mut found) = (0, 0);
    for row in rows.iter().filter(|r| r["termination"] == "Time forfeit" && r["result"] != "1/2-1/2").take(200) {
        let p = Position::from_fen(&row["final_fen"]).unwrap();
        let winner = if row["result"] == "1-0" { Color::White } else { Color::Black };
        tried += 1;
        if let Some(line) = p.mating_line(winner, 3000) {
            let mut q = p.clone();
            for &m in &line {
                q = q.play(m).unwrap_or_else(|e| panic!("{}: bad line: {e}", row["game_id"]));
            }
            assert!(q.is_checkmate() && q.turn() == !winner, "{}: line does not mate", row["game_id"]);
            found += 1;
        }
    }
    eprintln!("mating lines: {found}/{tried} found within 3000 positions each, {:?}", started.elapsed());
    assert!(found * 2 > tried, "mating lines found for only {found} of {tried} positions");
}

#[test]
fn pychess_insufficient_material() {
    let Some(rows) = read_tsv("pychess_edge_cases_half_a.tsv") else { return };
    let mut checked = 0;
    for row in rows.iter().filter(|r| r["valid"] == "1") {
        let mode = if row["variant"] == "chess960" { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let Ok(p) = Position::from_fen_with(&row["fen"], mode, Validation::Relaxed) else {
            panic!("{}: does not parse", row["fen"]);
        };
        let fen = &row["fen"];
        for (c, col) in [(Color::White, "white_insufficient"), (Color::Black, "black_insufficient")] {
            assert_eq!(p.has_insufficient_material(c), flag(row, col), "{fen}: {col}");
            if flag(row, col) {
                assert!(!p.can_mate(c), "{fen}: python-chess says {c:?} cannot mate");
            }
        }
        if flag(row, "insufficient_material") {
            assert!(p.is_dead_position(), "{fen}");
        }
        assert_eq!(p.is_checkmate(), flag(row, "checkmate"), "{fen}");
        assert_eq!(p.is_stalemate(), flag(row, "stalemate"), "{fen}");
        let g = GameState::from_position(p.clone());
        assert_eq!(
            g.claimable().contains(&ClaimKind::FiftyMoves),
            flag(row, "fifty_move_rule_reached"),
            "{fen}: fifty-move claim"
        );
        let seventyfive = g.status().is_some_and(|o| o.termination == Termination::SeventyFiveMoves);
        if flag(row, "seventyfive_move_rule_reached") {
            assert!(seventyfive || p.is_dead_position(), "{fen}: 75 moves");
        } else {
            assert!(!seventyfive, "{fen}: 75 moves");
        }
        checked += 1;
    }
    eprintln!("pychess: {checked} valid positions checked");
    assert!(checked >= 90);
}
