//! Soundness of the dead-position analysis (Article 5.2.2 / 6.9): "cannot mate" must never be said of a side that can.
//! Seeded random playouts, and random locked pawn structures cross-checked with the helpmate search.

mod common;
use common::XorShift as Rng;

use guoxiang_core::{
    CastlingMode, Color, DeadReason, GameState, MateAbility, Move, Piece, Position, Role, Termination, Validation,
};

/// A random legal move, taking a mate when there is one (mostly) and preferring checks and captures now and then, so
/// that games reach mates.
fn pick(p: &Position, rng: &mut Rng) -> Move {
    let moves = p.legal_moves();
    if rng.below(4) != 0
        && let Some(&m) = moves.iter().find(|&&m| p.after(m).is_checkmate())
    {
        return m;
    }
    if rng.below(3) == 0 {
        let forcing: Vec<Move> = moves.iter().copied().filter(|&m| p.gives_check(m) || p.is_capture(m)).collect();
        if !forcing.is_empty() {
            return forcing[rng.below(forcing.len())];
        }
    }
    moves[rng.below(moves.len())]
}

/// Plays 200 random games from each start (the share `half` of 400: each start and half has its own seeded
/// generator); every game that ends in mate must have had `can_mate(winner)` at every position before. Returns the
/// games that ended in mate and in a dead position. The two halves are two tests, so the harness runs them side by side.
fn random_playouts(half: u64) -> (usize, usize) {
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "8/8/4k3/8/8/3K4/p7/1N6 w - - 0 1",
        "8/8/4k3/8/8/3K4/p7/1B6 w - - 0 1",
        "2b5/8/4k3/8/8/3K4/8/2B5 w - - 0 1",
        "8/5k2/8/8/8/8/1n6/K7 w - - 0 1",
        "8/8/1k6/p1p1p3/P1P1P1P1/1K6/8/2B5 w - - 0 1",
        "8/8/4k3/3n4/8/3K4/4N3/8 w - - 0 1",
        "8/8/4k3/3n4/8/3K4/4B3/8 w - - 0 1",
        "8/8/4k3/8/8/3K4/4BB2/8 w - - 0 1",
        "8/2b5/1k6/p1p1p1p1/P1P1P1P1/1K6/3B4/8 w - - 0 1",
    ];
    let (mut games, mut mates, mut dead, mut positions) = (0, 0, 0, 0);
    for (i, fen) in starts.into_iter().enumerate() {
        let mut rng = Rng(0x5EED_0001 + 0x1_0000 * i as u64 + half);
        for _ in 0..200 {
            let mut g = GameState::from_position(Position::from_fen(fen).unwrap());
            while !g.is_over() && g.moves().len() < 300 {
                let m = pick(g.position(), &mut rng);
                g.play(m).unwrap();
            }
            games += 1;
            positions += g.moves().len() + 1;
            match g.outcome() {
                Some(o) if o.termination == Termination::Checkmate => {
                    mates += 1;
                    let w = o.winner.unwrap();
                    for (i, p) in g.replay().enumerate() {
                        assert!(p.can_mate(w), "{w:?} mates later, but can_mate said no at ply {i}: {}", p.fen());
                    }
                }
                Some(o) if o.termination == Termination::DeadPosition => dead += 1,
                _ => {}
            }
        }
    }
    eprintln!("half {half}: {games} random games, {positions} positions: {mates} mates, {dead} dead positions");
    (mates, dead)
}

#[test]
fn random_playouts_never_deny_a_later_mate() {
    let (mates, dead) = random_playouts(0);
    assert!(mates >= 80, "only {mates} mates: the test is too weak");
    assert!(dead >= 1000, "only {dead} dead positions");
}

#[test]
fn random_playouts_never_deny_a_later_mate_second_half() {
    let (mates, dead) = random_playouts(1);
    assert!(mates >= 80, "only {mates} mates: the test is too weak");
    assert!(dead >= 1000, "only {dead} dead positions");
}

/// Random locked pawn structures with kings and a few minor pieces. Whenever we prove that a side cannot mate, a
/// helpmate search (which prunes nothing but lone-king style material) must not find a mate, and random play must not
/// produce one.
#[test]
fn random_locked_structures() {
    let mut rng = Rng(0x5EED_0002);
    let (mut tried, mut proved, mut locked, mut searched) = (0, 0, 0, 0);
    while tried < 400 {
        let Some(p) = random_locked_position(&mut rng) else { continue };
        tried += 1;
        for c in Color::ALL {
            let verdict = p.mate_ability(c, 20_000);
            let MateAbility::Impossible(reason) = verdict else { continue };
            proved += 1;
            locked += usize::from(reason == DeadReason::LockedPawns);
            searched += usize::from(reason == DeadReason::NoMateReachable);
            if let Some(line) = p.mating_line(c, 30_000) {
                panic!("{}: we say {c:?} cannot mate ({reason:?}), but {line:?} mates", p.fen());
            }
            for _ in 0..10 {
                let mut q = p.clone();
                for _ in 0..120 {
                    if !q.has_legal_move() {
                        break;
                    }
                    let m = pick(&q, &mut rng);
                    q.play_unchecked(m);
                    assert!(!(q.is_checkmate() && q.turn() != c), "{}: {c:?} mated at random: {}", p.fen(), q.fen());
                }
            }
        }
    }
    eprintln!("{tried} locked structures: {proved} cannot-mate proofs ({locked} by the lock, {searched} by search)");
    assert!(locked >= 100 && searched >= 1, "too few proofs to mean anything");
}

/// A random locked pawn chain: on most files a white pawn with a black pawn right in front of it, neighbouring rams
/// one rank apart (so no pawn can capture), sometimes a second white pawn behind; the white king below the chain and
/// the black king above it (mostly), up to two minor pieces anywhere, no castling. `None` if the setup is not a
/// playable position.
fn random_locked_position(rng: &mut Rng) -> Option<Position> {
    let mut board: [Option<Piece>; 64] = [None; 64];
    let mut rank = 1 + rng.below(5); // white pawn's rank index, 1..=5
    let mut chain = [0usize; 8];
    for (file, slot) in chain.iter_mut().enumerate() {
        if file > 0 {
            rank = match rank {
                1 => 2,
                5 => 4,
                r if rng.below(2) == 0 => r - 1,
                r => r + 1,
            };
        }
        *slot = rank;
        if rng.below(8) == 0 {
            continue; // a gap in the chain
        }
        board[rank * 8 + file] = Some(Piece::new(Color::White, Role::Pawn));
        board[(rank + 1) * 8 + file] = Some(Piece::new(Color::Black, Role::Pawn));
        if rng.below(6) == 0 && rank >= 2 {
            board[(rank - 1) * 8 + file] = Some(Piece::new(Color::White, Role::Pawn));
        }
    }
    let mut place = |piece: Piece, side: Option<bool>, rng: &mut Rng| loop {
        let sq = rng.below(64);
        let (file, r) = (sq % 8, sq / 8);
        let ok = match side {
            Some(true) => r < chain[file],
            Some(false) => r > chain[file] + 1,
            None => true,
        };
        if board[sq].is_none() && ok {
            board[sq] = Some(piece);
            break;
        }
    };
    let sides = if rng.below(6) == 0 { (None, None) } else { (Some(true), Some(false)) };
    place(Piece::new(Color::White, Role::King), sides.0, rng);
    place(Piece::new(Color::Black, Role::King), sides.1, rng);
    for _ in 0..rng.below(3) {
        let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
        let role = if rng.below(4) == 0 { Role::Knight } else { Role::Bishop };
        place(Piece::new(color, role), None, rng);
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(p) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(p.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let side = if rng.below(2) == 0 { 'w' } else { 'b' };
    let p =
        Position::from_fen_with(&format!("{fen} {side} - - 0 1"), CastlingMode::Standard, Validation::Relaxed).ok()?;
    Some(p)
}
