//! Game endings, one test per rule of the FIDE Laws (Articles 5, 6.9, 9): results and messages, dead positions,
//! repetitions, the 50/75-move rules, claims, time forfeits.

mod common;

use guoxiang_core::{
    CastlingMode, ClaimError, ClaimKind, Color, DeadReason, GameError, GameState, Lang, MateAbility, Move, Outcome,
    Position, Termination, Validation,
};

fn pos(fen: &str) -> Position {
    Position::from_fen_with(fen, CastlingMode::Auto, Validation::Relaxed).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(p: &Position, uci: &str) -> Move {
    p.parse_uci(uci).unwrap_or_else(|e| panic!("{uci} in {}: {e}", p.fen()))
}

fn game(fen: &str) -> GameState {
    GameState::from_position(pos(fen))
}

/// Plays UCI moves; returns the last automatic outcome.
fn play(g: &mut GameState, moves: &str) -> Option<Outcome> {
    let mut last = None;
    for u in moves.split_whitespace() {
        let m = mv(g.position(), u);
        last = g.play(m).unwrap_or_else(|e| panic!("{u}: {e}"));
    }
    last
}

/// Checks that `line` is legal from `p` and ends with `winner` giving checkmate.
fn assert_mating_line(p: &Position, winner: Color, line: &[Move]) {
    let mut q = p.clone();
    for &m in line {
        q = q.play(m).unwrap_or_else(|e| panic!("line {line:?} from {}: {e}", p.fen()));
    }
    assert!(q.is_checkmate(), "line {line:?} from {} does not end in mate: {}", p.fen(), q.fen());
    assert_eq!(q.turn(), !winner, "the wrong side is mated after {line:?} from {}", p.fen());
}

// ----- Article 5.1.1: checkmate ----------------------------------------------------------------------------------

#[test]
fn art_5_1_1_checkmate_wins() {
    let mut g = GameState::new();
    let o = play(&mut g, "f2f3 e7e5 g2g4 d8h4").expect("fool's mate ends the game");
    assert_eq!(o, Outcome::win(Color::Black, Termination::Checkmate));
    assert_eq!(o.result(), "0-1");
    assert_eq!((o.score(Color::White), o.score(Color::Black)), (0.0, 1.0));
    assert_eq!(o.half_points(Color::Black), 2);
    assert_eq!(o.message(Lang::En), "Black wins: checkmate");
    assert_eq!(o.message(Lang::Zh), "黑方将死白方，黑胜");
    assert_eq!(g.outcome(), Some(o));
    assert!(g.position().can_mate(Color::Black), "a mate on the board is a reachable mate");
    // Nothing more can happen after the mate: no moves, no flag, no claim.
    let m = g.position().legal_moves().first().copied();
    assert!(m.is_none());
    assert!(matches!(g.flag(Color::Black), Err(GameError::GameOver(_))));
    assert!(matches!(g.resign(Color::White), Err(GameError::GameOver(_))));
    assert!(matches!(g.claim(ClaimKind::FiftyMoves, None), Err(ClaimError::GameOver(_))));
    assert_eq!(Position::outcome(g.position()), Some(o));
}

// ----- Article 5.2.1: stalemate ----------------------------------------------------------------------------------

#[test]
fn art_5_2_1_stalemate_draws() {
    let mut g = game("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    let o = play(&mut g, "f1f7").expect("stalemate ends the game");
    assert_eq!(o, Outcome::draw(Termination::Stalemate));
    assert_eq!(o.result(), "1/2-1/2");
    assert_eq!(o.score(Color::White), 0.5);
    assert_eq!(o.message(Lang::En), "Draw: stalemate");
    assert_eq!(o.message(Lang::Zh), "逼和（无子可动），和棋");
    assert!(o.termination.is_automatic());
}

// ----- Article 5.2.2: dead positions ----------------------------------------------------------------------------

fn dead(fen: &str) -> bool {
    pos(fen).is_dead_position()
}

#[test]
fn art_5_2_2_bare_kings() {
    let p = pos("8/8/4k3/8/8/3K4/8/8 w - - 0 1");
    assert!(p.is_dead_position());
    assert!(p.is_insufficient_material());
    assert_eq!(p.mate_ability(Color::White, 1000), MateAbility::Impossible(DeadReason::InsufficientMaterial));
    let mut g = game("8/8/4k3/8/8/3K4/3r4/8 w - - 0 1");
    let o = play(&mut g, "d3d2").expect("capturing the last piece leaves a dead position");
    assert_eq!(o, Outcome::draw(Termination::DeadPosition));
    assert!(o.message(Lang::En).starts_with("Draw: dead position"));
    assert!(o.message(Lang::Zh).starts_with("死局"));
}

#[test]
fn art_5_2_2_king_and_minor_piece() {
    assert!(dead("8/8/4k3/8/8/3KB3/8/8 w - - 0 1"), "K+B v K");
    assert!(dead("8/8/4k3/8/8/3KN3/8/8 b - - 0 1"), "K+N v K");
    // The knight alone cannot mate even against queens: they cannot hem their own king in.
    assert!(!pos("q7/8/4k3/8/8/3KN3/8/8 b - - 0 1").can_mate(Color::White));
    // Same-coloured bishops (c1 and f8 are both dark): nobody can ever mate.
    assert!(dead("5b2/8/4k3/8/8/3K4/8/2B5 w - - 0 1"), "K+B v K+B, same colour");
    assert!(dead("5b2/8/4k3/8/8/3K4/8/2B1B3 w - - 0 1"), "K+B+B v K+B, all dark");
    // Opposite colours: a bishop can block its own king's flight square, so helpmates exist.
    let p = pos("2b5/8/4k3/8/8/3K4/8/2B5 w - - 0 1");
    assert!(!p.is_dead_position(), "K+B v K+B, opposite colours");
    for c in Color::ALL {
        let line = p.mating_line(c, 200_000).expect("helpmate with opposite bishops");
        assert_mating_line(&p, c, &line);
    }
}

#[test]
fn art_5_2_2_knight_against_pawn_is_not_dead() {
    // K+N v K+P: the black pawn can stand next to its king in the corner, and the knight mates.
    let p = pos("8/8/4k3/8/8/3K4/p7/1N6 w - - 0 1");
    assert!(!p.has_insufficient_material(Color::White));
    assert!(p.can_mate(Color::White));
    assert!(p.can_mate(Color::Black));
    let line = p.mating_line(Color::White, 500_000).expect("a knight helpmate exists");
    assert_mating_line(&p, Color::White, &line);
    // K+B v K+P likewise.
    let p = pos("8/8/4k3/8/8/3K4/p7/1B6 w - - 0 1");
    let line = p.mating_line(Color::White, 500_000).expect("a bishop helpmate exists");
    assert_mating_line(&p, Color::White, &line);
}

#[test]
fn art_5_2_2_locked_pawn_chains() {
    // Pawns locked on a4/a5, c4/c5, e4/e5, g4/g5: the kings can never cross rank 4/5 (every free square there is
    // attacked by an enemy pawn), nothing can ever be captured.
    let locked = "8/8/1k6/p1p1p1p1/P1P1P1P1/1K6/8/8 w - - 0 1";
    assert!(dead(locked));
    assert_eq!(pos(locked).mate_ability(Color::White, 1000), MateAbility::Impossible(DeadReason::LockedPawns));
    // A light-squared bishop behind its own pawns (all light squares of rank 4 are white pawns) changes nothing ...
    assert!(dead("8/8/1k6/p1p1p1p1/P1P1P1P1/1K6/8/3B4 w - - 0 1"));
    // ... but a dark-squared one can capture black pawns: not dead.
    assert!(!dead("8/8/1k6/p1p1p1p1/P1P1P1P1/1K6/8/2B5 w - - 0 1"));
    // Without the g5 pawn the g-pawn runs through and promotes: not dead.
    assert!(!dead("8/8/1k6/p1p1p3/P1P1P1P1/1K6/8/8 w - - 0 1"));
    // A pawn that can still move (c2-c3) before it locks behind its own c4 pawn: the game is still dead.
    assert!(dead("8/8/1k6/p1p1p1p1/P1P1P1P1/1K6/2P5/8 w - - 0 1"));
    // But g3 instead of g4 lets the black king in via h5-g4 to take it, and the g5 pawn runs: not dead.
    assert!(!dead("8/8/1k6/p1p1p1p1/P1P1P3/1K4P1/8/8 w - - 0 1"));
    // Locked files but a king can walk round (h-file open): not dead.
    assert!(!dead("8/8/1k6/p1p1p3/P1P1P3/1K6/8/8 w - - 0 1"));
}

#[test]
fn art_5_2_2_forced_capture_of_the_last_piece() {
    // White is in check and must take the queen: K v K follows by force, so the position is already dead.
    let p = pos("k7/8/8/8/8/8/6q1/7K w - - 0 1");
    assert_eq!(p.count_legal(), 1);
    assert!(!p.can_mate(Color::Black));
    assert!(p.is_dead_position());
    assert_eq!(p.mate_ability(Color::Black, 1000), MateAbility::Impossible(DeadReason::NoMateReachable));
    // Also with the king on g1 (f1, h1, f2, h2 are all covered).
    assert!(pos("k7/8/8/8/8/8/6q1/6K1 w - - 0 1").is_dead_position());
    // With a second legal move (Ke1) it is not.
    assert!(pos("k7/8/8/8/8/8/6q1/5K2 w - - 0 1").can_mate(Color::Black));
}

// ----- Article 9.2: threefold repetition (claimed) --------------------------------------------------------------

const KNIGHTS_OUT_AND_BACK: &str = "g1f3 g8f6 f3g1 f6g8";

#[test]
fn art_9_2_threefold_claim_only_when_claimable() {
    let mut g = GameState::new();
    play(&mut g, KNIGHTS_OUT_AND_BACK);
    assert_eq!(g.repetitions(), 2);
    assert!(g.claimable().is_empty());
    let err = g.claim(ClaimKind::ThreefoldRepetition, None).unwrap_err();
    assert_eq!(err, ClaimError::NotRepeated { occurrences: 2, with_move: false });
    assert!(err.message(Lang::En).contains("only 2 time"));
    assert!(err.message(Lang::Zh).contains("不足三次"));
    assert!(!g.is_over(), "an incorrect claim does not end the game");
    play(&mut g, KNIGHTS_OUT_AND_BACK);
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.claimable(), vec![ClaimKind::ThreefoldRepetition]);
    assert!(!g.is_over(), "threefold repetition needs a claim");
    let o = g.claim(ClaimKind::ThreefoldRepetition, None).unwrap();
    assert_eq!(o, Outcome::draw(Termination::ThreefoldRepetition { claimant: Color::White }));
    assert_eq!(o.message(Lang::En), "Draw: threefold repetition (claimed by White)");
    assert!(o.message(Lang::Zh).contains("白方提出和棋要求"));
    assert_eq!(o.result(), "1/2-1/2");
}

#[test]
fn art_9_2_1_1_threefold_claim_with_intended_move() {
    let mut g = GameState::new();
    play(&mut g, KNIGHTS_OUT_AND_BACK);
    play(&mut g, "g1f3 g8f6 f3g1");
    // Black to move: g8 now would make the start position appear a third time.
    let back = mv(g.position(), "f6g8");
    let other = mv(g.position(), "e7e5");
    assert!(g.claimable().is_empty());
    assert_eq!(g.claimable_with(back), vec![ClaimKind::ThreefoldRepetition]);
    assert!(g.claimable_with(other).is_empty());
    assert!(g.can_claim(ClaimKind::ThreefoldRepetition));
    assert_eq!(
        g.claim(ClaimKind::ThreefoldRepetition, Some(other)),
        Err(ClaimError::NotRepeated { occurrences: 1, with_move: true })
    );
    let illegal = Move::normal(guoxiang_core::Square::E7, guoxiang_core::Square::E3);
    assert!(matches!(g.claim(ClaimKind::ThreefoldRepetition, Some(illegal)), Err(ClaimError::IllegalMove { .. })));
    let o = g.claim(ClaimKind::ThreefoldRepetition, Some(back)).unwrap();
    assert_eq!(o.termination, Termination::ThreefoldRepetition { claimant: Color::Black });
    assert_eq!(o.message(Lang::En), "Draw: threefold repetition (claimed by Black)");
    assert_eq!(g.claim_move(), Some(back));
    assert_eq!(g.moves().len(), 7, "the intended move is recorded, not played");
}

#[test]
fn art_9_2_2_en_passant_identity() {
    // After d7-d5 white could take e.p. (e5xd6): that position is not the same as the later one with the same
    // pieces, when e.p. is no longer possible.
    let mut g = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut g, "d7d5");
    assert!(g.position().ep_square().is_some());
    let with_ep = g.position().clone();
    play(&mut g, "e1e2 e8e7 e2e1 e7e8");
    assert_eq!(g.position().epd(), "4k3/8/8/3pP3/8/8/8/4K3 w - -");
    assert_eq!(g.repetitions(), 1, "a position where e.p. was legal differs");
    assert_ne!(with_ep.hash(), g.position().hash());
    play(&mut g, "e1e2 e8e7 e2e1 e7e8");
    assert_eq!(g.repetitions(), 2);

    // Here the e5 pawn is pinned against its king by the rook on e8, so e.p. is not legal after d7-d5: the position
    // right after the double step is the same as when it comes back.
    let mut g = game("4r1k1/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut g, "d7d5");
    assert_eq!(g.position().ep_square(), None);
    play(&mut g, "e1d1 g8h8 d1e1 h8g8");
    assert_eq!(g.repetitions(), 2, "no legal e.p.: the same position");
    play(&mut g, "e1d1 g8h8 d1e1 h8g8");
    assert_eq!(g.claimable(), vec![ClaimKind::ThreefoldRepetition]);
}

#[test]
fn art_9_2_2_castling_rights_identity() {
    // The rooks go out and back: the same squares, but castling rights were lost, so it is a different position.
    let mut g = game("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1");
    play(&mut g, "a1a2 a8a7 a2a1 a7a8");
    assert_eq!(g.position().epd(), "r3k3/8/8/8/8/8/8/R3K3 w - -");
    assert_eq!(g.repetitions(), 1);
    play(&mut g, "a1a2 a8a7 a2a1 a7a8");
    assert_eq!(g.repetitions(), 2);
    play(&mut g, "a1a2 a8a7 a2a1 a7a8");
    assert_eq!(g.repetitions(), 3);
    assert!(g.claimable().contains(&ClaimKind::ThreefoldRepetition));
}

// ----- Article 9.6.1: fivefold repetition (automatic) -----------------------------------------------------------

#[test]
fn art_9_6_1_fivefold_repetition_is_automatic() {
    let mut g = GameState::new();
    for _ in 0..3 {
        assert_eq!(play(&mut g, KNIGHTS_OUT_AND_BACK), None);
    }
    assert_eq!(g.repetitions(), 4);
    assert_eq!(play(&mut g, "g1f3 g8f6 f3g1"), None);
    let o = play(&mut g, "f6g8").expect("fifth occurrence");
    assert_eq!(o, Outcome::draw(Termination::FivefoldRepetition));
    assert_eq!(o.message(Lang::En), "Draw: fivefold repetition");
    assert!(o.message(Lang::Zh).contains("五次重复"));
    assert!(matches!(g.play(mv(g.position(), "e2e4")), Err(GameError::GameOver(_))));
    // A takeback reopens the game.
    g.undo();
    assert!(!g.is_over());
    assert_eq!(g.repetitions(), 4);
}

/// The game keeps only the positions since the last irreversible move. Random games of mostly knight, king and rook
/// moves (so that positions repeat), with random takebacks, some of them of irreversible moves: after every step the
/// repetition count equals a count over every position replayed from the start, and the kept positions are the
/// last ones of that replay.
#[test]
fn repetitions_survive_takebacks_of_irreversible_moves() {
    let mut rng = common::XorShift(0x5eed_0f92);
    let (mut steps, mut repeated, mut irreversible_undone) = (0, 0, 0);
    for _ in 0..60 {
        let mut g = GameState::new();
        for _ in 0..160 {
            if g.is_over() || (!g.moves().is_empty() && rng.next().is_multiple_of(5)) {
                let before = g.recent_positions().len();
                g.undo();
                irreversible_undone += (before == 1) as u32;
            } else {
                let legal = g.position().legal_moves();
                let quiet: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| !g.position().is_zeroing(m) && !g.position().is_capture(m))
                    .collect();
                // Often the side to move takes its last move back on the board, so that positions repeat.
                let n = g.moves().len();
                let back = (n >= 2 && rng.next().is_multiple_of(2))
                    .then(|| g.moves()[n - 2])
                    .and_then(|m| quiet.iter().copied().find(|q| q.from() == m.to() && q.to() == m.from()));
                let pool = if !quiet.is_empty() && !rng.next().is_multiple_of(8) {
                    quiet
                } else {
                    legal.iter().copied().collect()
                };
                let m = back.unwrap_or_else(|| pool[(rng.next() % pool.len() as u64) as usize]);
                g.play(m).unwrap();
            }
            let all: Vec<Position> = g.replay().collect();
            assert_eq!(all.len(), g.moves().len() + 1);
            let here = all.last().unwrap();
            assert_eq!(here.fen(), g.position().fen());
            // The hash covers exactly what Article 9.2.2 compares.
            let naive = all.iter().filter(|q| q.hash() == here.hash()).count() as u32;
            assert_eq!(g.repetitions(), naive, "after {:?}", g.moves());
            let recent = g.recent_positions();
            let last_irreversible = (0..g.moves().len())
                .rev()
                .find(|&i| all[i].is_zeroing(g.moves()[i]) || all[i].castling_rooks() != all[i + 1].castling_rooks());
            assert_eq!(recent.len(), all.len() - last_irreversible.map_or(0, |i| i + 1), "after {:?}", g.moves());
            for (a, b) in recent.iter().rev().zip(all.iter().rev()) {
                assert_eq!(a.fen(), b.fen());
            }
            steps += 1;
            repeated += (naive > 1) as u32;
        }
    }
    eprintln!("{steps} steps, {repeated} at a repeated position, {irreversible_undone} irreversible moves taken back");
    assert!(repeated > 200 && irreversible_undone > 50, "{repeated} {irreversible_undone}: the test is too weak");
}

/// A checkpoint comes back after moves played, moves taken back (up to the number it keeps), and endings recorded;
/// it refuses, changing nothing, when more moves were taken back.
#[test]
fn rewind_to_a_checkpoint() {
    let mut rng = common::XorShift(0xc0ffee);
    let (mut rewound, mut refused) = (0, 0);
    for _ in 0..300 {
        let mut g = GameState::new();
        for _ in 0..rng.below(60) {
            if g.is_over() {
                break;
            }
            let legal = g.position().legal_moves();
            g.play(legal[rng.below(legal.len())]).unwrap();
        }
        let before = (g.moves().to_vec(), g.position().fen(), g.outcome(), g.repetitions(), g.recent_positions().len());
        let keep = rng.below(3);
        let c = g.checkpoint(keep);
        let undos = rng.below(4);
        for _ in 0..undos {
            g.undo();
        }
        for _ in 0..rng.below(3) {
            if g.is_over() {
                break;
            }
            let legal = g.position().legal_moves();
            g.play(legal[rng.below(legal.len())]).unwrap();
        }
        if rng.below(4) == 0 && !g.is_over() {
            g.resign(Color::White).unwrap();
        }
        let changed = (g.moves().to_vec(), g.position().fen());
        if g.rewind(c) {
            rewound += 1;
            let after =
                (g.moves().to_vec(), g.position().fen(), g.outcome(), g.repetitions(), g.recent_positions().len());
            assert_eq!(after, before);
        } else {
            refused += 1;
            assert!(undos > keep, "refused after {undos} undos with {keep} moves kept");
            assert_eq!((g.moves().to_vec(), g.position().fen()), changed);
        }
    }
    assert!(rewound > 150 && refused > 20, "{rewound} {refused}");
}

// ----- Article 9.3: fifty-move rule (claimed) -------------------------------------------------------------------

#[test]
fn art_9_3_fifty_moves_claim_at_100_half_moves() {
    let mut g = game("8/8/4k3/8/8/R2K4/8/8 w - - 98 80");
    assert!(g.claimable().is_empty());
    let err = g.claim(ClaimKind::FiftyMoves, None).unwrap_err();
    assert_eq!(err, ClaimError::NotFiftyMoves { halfmoves: 98, with_move: false });
    play(&mut g, "a3a1");
    // White's 99th half-move: a rook move completes the 100 half-moves, a capture or pawn move would not.
    let m = mv(g.position(), "e6e5");
    assert!(g.claimable().is_empty());
    assert_eq!(g.claimable_with(m), vec![ClaimKind::FiftyMoves]);
    assert!(g.can_claim(ClaimKind::FiftyMoves));
    play(&mut g, "e6e5");
    assert_eq!(g.position().halfmoves(), 100);
    assert_eq!(g.claimable(), vec![ClaimKind::FiftyMoves]);
    assert!(!g.is_over(), "50 moves need a claim");
    let o = g.claim(ClaimKind::FiftyMoves, None).unwrap();
    assert_eq!(o, Outcome::draw(Termination::FiftyMoves { claimant: Color::White }));
    assert_eq!(o.message(Lang::En), "Draw: fifty-move rule (claimed by White)");
    assert!(o.message(Lang::Zh).contains("50回合"));
}

#[test]
fn art_9_3_1_fifty_moves_claim_with_intended_move() {
    let mut g = game("8/8/4k3/4R3/8/3K4/8/8 b - - 99 80");
    let quiet = mv(g.position(), "e6d6");
    let capture = mv(g.position(), "e6e5");
    assert_eq!(g.claimable_with(quiet), vec![ClaimKind::FiftyMoves]);
    assert!(g.claimable_with(capture).is_empty());
    let o = g.claim(ClaimKind::FiftyMoves, Some(quiet)).unwrap();
    assert_eq!(o.termination, Termination::FiftyMoves { claimant: Color::Black });
    // A capture as the intended move resets the count: incorrect.
    let mut g = game("8/8/4k3/8/8/3Kr3/8/8 w - - 99 80");
    let take = mv(g.position(), "d3e3");
    assert_eq!(
        g.claim(ClaimKind::FiftyMoves, Some(take)),
        Err(ClaimError::NotFiftyMoves { halfmoves: 0, with_move: true })
    );
}

// ----- Article 9.6.2: seventy-five-move rule (automatic, checkmate first) ---------------------------------------

#[test]
fn art_9_6_2_seventy_five_moves() {
    let mut g = game("7k/8/6K1/8/8/8/8/R7 w - - 149 120");
    let o = play(&mut g, "a1a2").expect("150 half-moves end the game");
    assert_eq!(o, Outcome::draw(Termination::SeventyFiveMoves));
    assert_eq!(o.message(Lang::En), "Draw: seventy-five-move rule");
    assert!(o.message(Lang::Zh).contains("75回合"));
    // The same count reached by a mating move: the mate stands.
    let mut g = game("7k/8/6K1/8/8/8/8/R7 w - - 149 120");
    let o = play(&mut g, "a1a8").expect("mate");
    assert_eq!(o, Outcome::win(Color::White, Termination::Checkmate));
    assert_eq!(g.position().halfmoves(), 150);
}

// ----- Article 6.9: time forfeit --------------------------------------------------------------------------------

#[test]
fn art_6_9_flag_against_a_bare_king_draws() {
    let mut g = game("8/8/4k3/8/8/3K1Q2/8/8 w - - 0 1");
    let o = g.flag(Color::White).unwrap();
    assert_eq!(o, Outcome::draw(Termination::TimeForfeitDraw { flagged: Color::White, bare_king: true }));
    assert_eq!(o.message(Lang::En), "Draw: White ran out of time, but Black has only a king and cannot checkmate");
    assert_eq!(o.message(Lang::Zh), "白方超时，但黑方只剩单王，无法将死 — 和棋");
    assert_eq!(o.termination.pgn_tag(), "time forfeit");
}

#[test]
fn art_6_9_flag_against_a_lone_minor_piece_draws() {
    let p = pos("8/8/4k3/8/2n5/3K1Q2/8/8 w - - 0 1");
    let o = Outcome::time_forfeit(&p, Color::White);
    assert_eq!(o, Outcome::draw(Termination::TimeForfeitDraw { flagged: Color::White, bare_king: false }));
    assert_eq!(
        o.message(Lang::En),
        "Draw: White ran out of time, but Black cannot checkmate by any series of legal moves"
    );
    assert!(o.message(Lang::Zh).contains("无法将死"));
}

#[test]
fn art_6_9_flag_against_king_and_queen_loses() {
    let mut g = game("8/8/4k3/8/8/3K1Q2/8/8 b - - 0 1");
    let o = g.flag(Color::Black).unwrap();
    assert_eq!(o, Outcome::win(Color::White, Termination::TimeForfeit));
    assert_eq!(o.result(), "1-0");
    assert_eq!(o.message(Lang::En), "White wins on time");
    assert_eq!(o.message(Lang::Zh), "黑方超时判负，白胜");
    let line = g.position().mating_line(Color::White, 100_000).expect("evidence: a mating line");
    assert_mating_line(g.position(), Color::White, &line);
}

#[test]
fn mating_lines_in_basic_endings() {
    for (fen, winner) in [
        ("8/8/4k3/8/8/3K4/8/R7 b - - 0 1", Color::White),
        ("8/8/3k4/8/8/3K4/8/6bn w - - 0 1", Color::Black),
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", Color::White),
        ("8/1p6/8/4k3/8/8/8/K1N5 w - - 0 1", Color::White),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Color::White),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Color::Black),
    ] {
        let p = pos(fen);
        let line = p.mating_line(winner, 200_000).unwrap_or_else(|| panic!("no line for {winner:?} in {fen}"));
        assert_mating_line(&p, winner, &line);
    }
}

// ----- Articles 5.1.2 and 5.2.3: resignation, agreement; server endings ------------------------------------------

#[test]
fn art_5_1_2_resignation() {
    let mut g = GameState::new();
    let o = g.resign(Color::Black).unwrap();
    assert_eq!(o, Outcome::win(Color::White, Termination::Resignation));
    assert_eq!(o.result(), "1-0");
    assert_eq!(o.message(Lang::En), "White wins: Black resigns");
    assert_eq!(o.message(Lang::Zh), "黑方认输，白胜");
    assert_eq!(o.text().zh, "黑方认输，白胜");
    assert_eq!(o.to_string(), "White wins: Black resigns");
    assert!(g.agree_draw().is_err());
}

#[test]
fn art_5_2_3_agreement() {
    let mut g = GameState::new();
    play(&mut g, "e2e4 e7e5");
    let o = g.agree_draw().unwrap();
    assert_eq!(o, Outcome::draw(Termination::Agreement));
    assert_eq!(o.message(Lang::En), "Draw by agreement");
    assert_eq!(o.message(Lang::Zh), "双方协议和棋");
    assert_eq!(o.termination.article(), Some("5.2.3"));
}

#[test]
fn server_endings() {
    let mut g = GameState::new();
    let o = g.abandon(Color::White).unwrap();
    assert_eq!(o.result(), "0-1");
    assert_eq!(o.message(Lang::En), "Black wins: White abandoned the game");
    assert_eq!(o.termination.pgn_tag(), "abandoned");
    let mut g = GameState::new();
    let o = g.adjudicate(None).unwrap();
    assert_eq!(o.message(Lang::En), "Draw by adjudication");
    assert_eq!(o.message(Lang::Zh), "裁判判定和棋");
}
