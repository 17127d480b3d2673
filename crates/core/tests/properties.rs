//! Property tests over random games (a seed and a length; the game plays random legal moves from the standard or a
//! Chess960 start). After every move: the incremental hash equals the hash computed from scratch; FEN (and
//! Shredder-FEN) round trips; making a move on a copy leaves the original alone; `play` refuses illegal moves and
//! hands the unchanged position back; `is_legal` agrees with the move list; UCI round trips; perft(2) equals the sum
//! of the move counts one ply down; no position has more than 218 moves; the en-passant square is set exactly when an
//! en-passant capture is legal.

mod common;
use common::SplitMix as Rng;

use guoxiang_core::{CastlingMode, Move, Position, Square, UciMove, Validation, perft, perft_divide, perft_full};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// A Chess960 start (Shredder-FEN castling letters) drawn from the seed.
fn chess960_start(rng: &mut Rng) -> String {
    Position::chess960(rng.below(960) as u16).expect("0..960").fen_with(true)
}

fn mode_of(p: &Position) -> CastlingMode {
    if p.is_chess960() { CastlingMode::Chess960 } else { CastlingMode::Auto }
}

/// Every property of one position (`last` is the move that led here, if any).
fn check_position(pos: &Position, last: Option<Move>, rng: &mut Rng) -> Result<(), TestCaseError> {
    let fen = pos.fen();
    let legal = pos.legal_moves();

    // Hash.
    prop_assert_eq!(pos.hash(), pos.hash_from_scratch(), "incremental hash in {}", fen);

    // FEN, Shredder-FEN and EPD round trips.
    let back = Position::from_fen_with(&fen, mode_of(pos), Validation::Strict);
    prop_assert_eq!(back.as_ref().ok(), Some(pos), "FEN round trip of {}", fen);
    prop_assert_eq!(back.as_ref().map(Position::hash).ok(), Some(pos.hash()));
    let shredder = pos.fen_with(true);
    let back = Position::from_fen_with(&shredder, mode_of(pos), Validation::Strict);
    prop_assert_eq!(back.as_ref().ok(), Some(pos), "Shredder-FEN round trip of {}", shredder);
    let epd = Position::from_fen_with(&pos.epd(), mode_of(pos), Validation::Strict);
    prop_assert_eq!(epd.as_ref().map(Position::epd).ok(), Some(pos.epd()));
    prop_assert_eq!(epd.as_ref().map(Position::hash).ok(), Some(pos.hash()), "EPD keeps the identity of {}", fen);

    // Move counts.
    prop_assert!(legal.len() <= 218, "{} moves in {}", legal.len(), fen);
    prop_assert_eq!(legal.len(), pos.count_legal());
    prop_assert_eq!(pos.has_legal_move(), !legal.is_empty());
    prop_assert_eq!(pos.is_checkmate(), pos.is_check() && legal.is_empty());
    prop_assert_eq!(pos.is_stalemate(), !pos.is_check() && legal.is_empty());
    let mut unique: Vec<u16> = legal.iter().map(|m| m.to_u16()).collect();
    unique.sort_unstable();
    unique.dedup();
    prop_assert_eq!(unique.len(), legal.len(), "duplicate moves in {}", fen);

    // En passant: the square is set exactly when an en-passant capture is legal.
    let has_ep = legal.iter().any(|m| m.is_en_passant());
    prop_assert_eq!(pos.ep_square().is_some(), has_ep, "ep square {:?} in {}", pos.ep_square(), fen);
    if let Some(ep) = pos.ep_square() {
        prop_assert!(legal.iter().filter(|m| m.is_en_passant()).all(|m| m.to() == ep));
        // Only right after a double step.
        let double_step = last.is_some_and(|m| m.from().index().abs_diff(m.to().index()) == 16);
        prop_assert!(double_step, "ep square without a double step in {}", fen);
    }

    // Subsets of the move list.
    let mut captures: Vec<u16> = pos.capture_moves().iter().map(|m| m.to_u16()).collect();
    let mut expected: Vec<u16> =
        legal.iter().filter(|&&m| pos.is_capture(m) || m.is_promotion()).map(|m| m.to_u16()).collect();
    captures.sort_unstable();
    expected.sort_unstable();
    prop_assert_eq!(captures, expected, "capture_moves in {}", fen);
    let from = Square::new(rng.below(64) as u32);
    let mut from_sq: Vec<u16> = pos.legal_moves_from(from).iter().map(|m| m.to_u16()).collect();
    let mut expected: Vec<u16> = legal.iter().filter(|m| m.from() == from).map(|m| m.to_u16()).collect();
    from_sq.sort_unstable();
    expected.sort_unstable();
    prop_assert_eq!(from_sq, expected, "legal_moves_from({}) in {}", from, fen);

    // Every legal move: legal, copy-make leaves the original alone, UCI round trips, checks are right.
    let before = pos.clone();
    let mut sum = 0u64;
    for &m in legal.iter() {
        prop_assert!(pos.is_legal(m), "is_legal({:?}) in {}", m, fen);
        let mut copy = pos.clone();
        copy.play_unchecked(m);
        prop_assert_eq!(pos, &before);
        prop_assert_eq!(pos.hash(), before.hash());
        let checked = pos.clone().play(m);
        prop_assert_eq!(checked.as_ref().ok(), Some(&copy), "play({:?}) in {}", m, fen);
        prop_assert_eq!(pos.after(m), copy.clone());
        prop_assert_eq!(copy.hash(), copy.hash_from_scratch(), "hash after {:?} in {}", m, fen);
        prop_assert_eq!(pos.gives_check(m), copy.is_check());
        prop_assert!(
            !copy.is_attacked(copy.king(pos.turn()), copy.turn()),
            "{:?} leaves the king in check in {}",
            m,
            fen
        );
        sum += copy.count_legal() as u64;

        let uci = pos.uci(m);
        prop_assert_eq!(pos.parse_uci(&uci), Ok(m), "UCI {} in {}", uci, fen);
        prop_assert_eq!(UciMove::parse(&uci).ok().and_then(|u| u.to_move(pos).ok()), Some(m));
        // The other castling mode's spelling: king takes rook is always understood; the king's two-square move
        // only in standard mode.
        let k_takes_r = UciMove::from_move(m, true).to_string();
        prop_assert_eq!(pos.parse_uci(&k_takes_r), Ok(m), "UCI {} in {}", k_takes_r, fen);
        if !pos.is_chess960() {
            // A standard position switched to Chess960 notation writes and reads king takes rook.
            let mut other = pos.clone();
            other.set_chess960(true);
            prop_assert_eq!(other.uci(m), k_takes_r.clone());
            prop_assert_eq!(other.parse_uci(&k_takes_r), Ok(m), "UCI {} in {} (Chess960 notation)", k_takes_r, fen);
        }
        if m.is_castle() {
            prop_assert_eq!(UciMove::from_move(m, false).to_string().len(), 4);
            prop_assert_eq!(uci, if pos.is_chess960() { k_takes_r } else { UciMove::from_move(m, false).to_string() });
        }
    }

    // perft(2) is the sum of the move counts one ply down; the other perft variants agree.
    let p2 = perft(pos, 2);
    prop_assert_eq!(p2, sum, "perft(2) in {}", fen);
    prop_assert_eq!(perft_full(pos, 2), sum);
    prop_assert_eq!(perft_divide(pos, 2).iter().map(|(_, n)| n).sum::<u64>(), sum);
    prop_assert_eq!(perft(pos, 1), legal.len() as u64);

    // Random moves that are not legal: refused, with the unchanged position handed back.
    for i in 0..12 {
        let m = if i % 2 == 0 {
            Move::from_u16(rng.next() as u16)
        } else {
            // Plausible-looking: one of our pieces, any destination.
            let from = legal.get(rng.below(legal.len().max(1))).map_or(Square::new(0), |m| m.from());
            let to = Square::new(rng.below(64) as u32);
            (from != to).then(|| Move::normal(from, to))
        };
        let Some(m) = m else { continue };
        let is_listed = legal.contains(m);
        prop_assert_eq!(pos.is_legal(m), is_listed, "is_legal({:?}) in {}", m, fen);
        if !is_listed {
            match pos.clone().play(m) {
                Ok(p) => prop_assert!(false, "illegal {:?} was played in {}: {}", m, fen, p.fen()),
                Err(e) => {
                    prop_assert_eq!(&e.position, pos);
                    prop_assert_eq!(e.position.hash(), pos.hash());
                    prop_assert_eq!(e.mv, m);
                }
            }
        }
    }
    Ok(())
}

/// Plays a random game of `len` plies from the standard start (or a Chess960 start), checking every position.
/// Returns the number of positions checked and how many of them had an en-passant square.
fn random_game(seed: u64, len: usize, chess960: bool) -> Result<(usize, usize), TestCaseError> {
    let mut rng = Rng(seed);
    let mut pos = if chess960 {
        let fen = chess960_start(&mut rng);
        Position::from_fen_with(&fen, CastlingMode::Chess960, Validation::Strict).expect("Chess960 start")
    } else {
        Position::new()
    };
    let mut last = None;
    let (mut positions, mut eps) = (0, 0);
    for _ in 0..len {
        check_position(&pos, last, &mut rng)?;
        positions += 1;
        eps += pos.ep_square().is_some() as usize;
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        // Captures a third of the time when there are some, to reach endgames and promotions.
        let captures: Vec<Move> = legal.iter().copied().filter(|&m| pos.is_capture(m) || m.is_promotion()).collect();
        let m = if !captures.is_empty() && rng.below(3) == 0 {
            captures[rng.below(captures.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        let before = pos.clone();
        pos = pos.play(m).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(before.is_legal(m));
        if m.from().index().abs_diff(m.to().index()) == 16
            && before.piece_at(m.from()).is_some_and(|p| p.role == guoxiang_core::Role::Pawn)
        {
            let ep_capture = pos.legal_moves().iter().any(|m| m.is_en_passant());
            prop_assert_eq!(pos.ep_square().is_some(), ep_capture, "after the double step {:?}: {}", m, pos.fen());
        }
        last = Some(m);
    }
    check_position(&pos, last, &mut rng)?;
    Ok((positions + 1, eps + pos.ep_square().is_some() as usize))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn standard_games(seed in any::<u64>(), len in 0usize..250) {
        random_game(seed, len, false)?;
    }

    #[test]
    fn chess960_games(seed in any::<u64>(), len in 0usize..250) {
        random_game(seed, len, true)?;
    }
}

/// The same checks on fixed seeds, so that a run always covers long games and reaches en passant.
#[test]
fn fixed_seed_games() {
    let (mut positions, mut eps) = (0, 0);
    for seed in 0..40u64 {
        let (p, e) = random_game(seed, 300, seed % 2 == 1).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        positions += p;
        eps += e;
    }
    eprintln!("fixed-seed games: {positions} positions, {eps} with a legal en-passant capture");
    assert!(positions > 4_000 && eps > 0, "{positions} {eps}");
}

/// Known positions with many moves: the counts stay at or below the documented maximum.
#[test]
fn maximum_move_count() {
    // The position with 218 legal moves (Petrović, 1964).
    let p = Position::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
    assert_eq!(p.count_legal(), 218);
    assert_eq!(p.legal_moves().len(), 218);
    let mut rng = Rng(218);
    check_position(&p, None, &mut rng).unwrap();
}
