//! The proof of `mate_in = N` (goal `mate`, N from 1 to 3): the learner's first move forces mate in N against every
//! defence. An exhaustive search over the rules core's legal moves (no engine, no pruning but the obvious: the
//! mating move of the last turn must give check).

use guoxiang_core::{Move, Position};

/// Whether the side to move can force checkmate within `n` of its own moves (n ≥ 1), whatever the other side plays.
pub fn forces_mate(pos: &Position, n: u8) -> bool {
    if n == 0 {
        return false;
    }
    let moves = pos.legal_moves();
    // Checks first: most mates are found among them, and the last move must be one.
    let (checks, quiet): (Vec<Move>, Vec<Move>) = moves.iter().copied().partition(|&m| pos.gives_check(m));
    for &m in &checks {
        if pos.after(m).is_checkmate() {
            return true;
        }
    }
    if n == 1 {
        return false;
    }
    checks.into_iter().chain(quiet).any(|m| {
        let after = pos.after(m);
        after.has_legal_move() && refutation(&after, n - 1).is_none()
    })
}

/// The defender to move, after the attacker's move: a defence that escapes mate in `n` more attacker moves, if any
/// (`None`: every defence is mated in time). A position without a legal move is checkmate (mated: `None`) or
/// stalemate (the caller looks at that first).
pub fn refutation(after: &Position, n: u8) -> Option<Move> {
    after.legal_moves().iter().copied().find(|&d| !forces_mate(&after.after(d), n))
}

/// Why `first` (a legal move of `pos`) does not force mate in `n`, or `None` if it does: "after Qh5 the defence
/// Kg7 escapes mate in 2" (SAN, English letters).
pub fn disproof(pos: &Position, first: Move, n: u8) -> Option<String> {
    let after = pos.after(first);
    let san = pos.san(first);
    if after.is_checkmate() {
        return None;
    }
    if !after.has_legal_move() {
        return Some(format!("{san} is stalemate, not mate"));
    }
    if n <= 1 {
        return Some(format!("{san} is not checkmate"));
    }
    let d = refutation(&after, n - 1)?;
    let rest = n - 1;
    let more = if rest == 1 { "the next move".to_owned() } else { format!("{rest} more moves") };
    Some(format!("after {san}, the defence {} is not mated in {more}: no forced mate in {n}", after.san(d)))
}
