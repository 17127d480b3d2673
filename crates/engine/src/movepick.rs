//! Move ordering in stages: the hash move, good captures (SEE ≥ 0, most valuable victim / least valuable attacker
//! first), the two killer moves, the other quiet moves by history, and last the captures that lose material.
//!
//! The legal moves are generated once, split into captures and quiets; each stage then picks its best remaining
//! move by selection, so a cutoff early on spares sorting the rest. SEE is computed only when a capture comes up.
//! The lists are not filled in advance (a picker is made at every node: clearing three lists of 256 cost a
//! quarter of the search's time).

use crate::params::SEE_VALUE;
use crate::see::see;
use arrayvec::ArrayVec;
use guoxiang_core::{Bitboard, Move, Position, Role};

/// Moves with their ordering keys.
type Scored = ArrayVec<(Move, i32), 256>;

/// Per-thread history of quiet moves that caused cutoffs, by side, from and to square.
pub type History = [[[i32; 64]; 64]; 2];

/// The number of (piece, destination) keys: 12 pieces × 64 squares.
pub const PIECE_TO: usize = 12 * 64;

/// Continuation history: how often a quiet move (piece, destination) caused a cutoff right after a given earlier
/// move (piece, destination) — one or two plies before — indexed `[earlier][move]`.
pub type ContHistory = [[i32; PIECE_TO]; PIECE_TO];

/// The (piece, destination) key of a move `m` of the side to move in `pos` (before it is played).
#[inline]
pub fn piece_to(pos: &Position, m: Move) -> usize {
    let role = pos.role_at(m.from()).map_or(0, |r| r.index());
    (pos.turn().index() * 6 + role) * 64 + m.to().index()
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    Hash,
    GoodCaptures,
    Killers,
    Quiets,
    BadCaptures,
    Done,
}

/// Yields the legal moves of a position in search order.
#[derive(Debug)]
pub struct MovePicker {
    captures: Scored,
    quiets: Scored,
    bad: Scored,
    bad_idx: usize,
    stage: Stage,
    hash_move: Option<Move>,
    killers: [Option<Move>; 2],
    killer_idx: usize,
    /// Whether the last move returned was a capture or promotion.
    pub last_is_tactical: bool,
    /// Whether the last move returned came from the good captures (its SEE is known to be ≥ 0).
    pub last_see_ok: bool,
    /// The number of legal moves.
    pub total: usize,
}

/// MVV-LVA key: the victim's value counts most, the attacker breaks ties.
#[inline]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = if m.is_en_passant() { Some(Role::Pawn) } else { pos.role_at(m.to()) };
    let attacker = pos.role_at(m.from()).map_or(0, |r| r.index() as i32);
    let promo = m.promotion_role().map_or(0, |r| SEE_VALUE[r.index()]);
    victim.map_or(0, |r| SEE_VALUE[r.index()]) * 8 + promo - attacker
}

impl MovePicker {
    /// All legal moves (for the main search). `captures_only` keeps captures and promotions (for quiescence).
    pub fn new(
        pos: &Position,
        hash_move: Option<Move>,
        killers: [Option<Move>; 2],
        history: &History,
        cont: [Option<&[i32; PIECE_TO]>; 2],
        captures_only: bool,
    ) -> MovePicker {
        let mut mp = MovePicker {
            captures: ArrayVec::new(),
            quiets: ArrayVec::new(),
            bad: ArrayVec::new(),
            bad_idx: 0,
            stage: Stage::Hash,
            hash_move: None,
            killers: [None; 2],
            killer_idx: 0,
            last_is_tactical: false,
            last_see_ok: false,
            total: 0,
        };
        let theirs = pos.by_color(!pos.turn());
        let promo = Bitboard::from_rank(pos.turn().promotion_rank());
        let side = pos.turn().index();
        let target = if captures_only { theirs | promo } else { Bitboard::FULL };
        let (captures, quiets) = (&mut mp.captures, &mut mp.quiets);
        pos.generate(target, !captures_only, |mut pm| {
            if captures_only && pm.role != Role::Pawn {
                pm.targets &= theirs;
            }
            pm.for_each(|m| {
                if pos.is_capture(m) || m.promotion_role() == Some(Role::Queen) {
                    captures.push((m, mvv_lva(pos, m)));
                } else if m.is_promotion() {
                    // Under-promotions: last among the quiet moves.
                    quiets.push((m, -(1 << 30)));
                } else {
                    let key = piece_to(pos, m);
                    let h = history[side][m.from().index()][m.to().index()]
                        + cont[0].map_or(0, |c| c[key])
                        + cont[1].map_or(0, |c| c[key]);
                    quiets.push((m, h));
                }
            })
        });
        mp.total = mp.captures.len() + mp.quiets.len();
        if let Some(h) = hash_move
            && mp.captures.iter().chain(mp.quiets.iter()).any(|&(m, _)| m == h)
        {
            mp.hash_move = Some(h);
        }
        for (i, k) in killers.into_iter().enumerate() {
            if let Some(k) = k
                && Some(k) != mp.hash_move
                && mp.quiets.iter().any(|&(m, _)| m == k)
            {
                mp.killers[i] = Some(k);
            }
        }
        mp
    }

    /// Whether `m` is one of this node's killer moves.
    pub fn is_killer(&self, m: Move) -> bool {
        self.killers.contains(&Some(m))
    }

    /// The move with the highest key (the first of equals), its place taken by the last of the list.
    fn take_best(list: &mut Scored) -> Option<(Move, i32)> {
        if list.is_empty() {
            return None;
        }
        let mut best = 0;
        for i in 1..list.len() {
            if list[i].1 > list[best].1 {
                best = i;
            }
        }
        Some(list.swap_remove(best))
    }

    /// The next move to search, `None` when all have been given.
    pub fn next(&mut self, pos: &Position) -> Option<Move> {
        self.last_see_ok = false;
        loop {
            match self.stage {
                Stage::Hash => {
                    self.stage = Stage::GoodCaptures;
                    if let Some(h) = self.hash_move {
                        self.last_is_tactical = pos.is_capture(h) || h.is_promotion();
                        return Some(h);
                    }
                }
                Stage::GoodCaptures => match Self::take_best(&mut self.captures) {
                    Some((m, key)) => {
                        if Some(m) == self.hash_move {
                            continue;
                        }
                        if see(pos, m) < 0 {
                            self.bad.push((m, key));
                            continue;
                        }
                        self.last_is_tactical = true;
                        self.last_see_ok = true;
                        return Some(m);
                    }
                    None => self.stage = Stage::Killers,
                },
                Stage::Killers => {
                    if self.killer_idx < 2 {
                        let k = self.killers[self.killer_idx];
                        self.killer_idx += 1;
                        if let Some(k) = k {
                            self.last_is_tactical = false;
                            return Some(k);
                        }
                    } else {
                        self.stage = Stage::Quiets;
                    }
                }
                Stage::Quiets => match Self::take_best(&mut self.quiets) {
                    Some((m, _)) => {
                        if Some(m) == self.hash_move || self.killers.contains(&Some(m)) {
                            continue;
                        }
                        self.last_is_tactical = m.is_promotion();
                        return Some(m);
                    }
                    None => self.stage = Stage::BadCaptures,
                },
                Stage::BadCaptures => {
                    if self.bad_idx < self.bad.len() {
                        let (m, _) = self.bad[self.bad_idx];
                        self.bad_idx += 1;
                        self.last_is_tactical = true;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_every_legal_move_once_in_stage_order() {
        let pos = Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4").unwrap();
        let history = Box::new([[[0; 64]; 64]; 2]);
        let hash = pos.parse_uci("h5f7").ok();
        let killer = pos.parse_uci("d2d3").ok();
        let mut mp = MovePicker::new(&pos, hash, [killer, None], &history, [None; 2], false);
        let mut seen = Vec::new();
        while let Some(m) = mp.next(&pos) {
            seen.push(m);
        }
        let legal = pos.legal_moves();
        assert_eq!(seen.len(), legal.len());
        for m in legal.iter() {
            assert!(seen.contains(m));
        }
        assert_eq!(Some(seen[0]), hash);
        // Qxe5 loses the queen to Nxe5: a bad capture, after every quiet move.
        let idx = |m: Move| seen.iter().position(|&x| x == m).unwrap();
        let a3 = idx(pos.parse_uci("a2a3").unwrap());
        assert!(idx(pos.parse_uci("h5e5").unwrap()) > a3);
        assert!(idx(killer.unwrap()) < a3);
    }

    #[test]
    fn continuation_history_orders_the_quiet_moves() {
        let pos = Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
        let history = Box::new([[[0; 64]; 64]; 2]);
        let quiets = |cont: [Option<&[i32; PIECE_TO]>; 2]| {
            let mut mp = MovePicker::new(&pos, None, [None; 2], &history, cont, false);
            std::iter::from_fn(|| mp.next(&pos)).filter(|&m| !pos.is_capture(m)).collect::<Vec<_>>()
        };
        // Without any history a3 is not first; a continuation bonus for (white pawn, a3) puts it first, from
        // either of the two earlier moves' rows.
        let a3 = pos.parse_uci("a2a3").unwrap();
        assert_ne!(quiets([None; 2])[0], a3);
        let mut row = [0; PIECE_TO];
        row[piece_to(&pos, a3)] = 1000;
        assert_eq!(quiets([Some(&row), None])[0], a3);
        assert_eq!(quiets([None, Some(&row)])[0], a3);
        // The key is the piece (colour and kind) and the destination.
        let nc3 = pos.parse_uci("b1c3").unwrap();
        let black = Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4").unwrap();
        let nb4 = black.parse_uci("c6b4").unwrap();
        assert_eq!(piece_to(&pos, nc3) % 64, 18);
        assert_ne!(piece_to(&pos, nc3) / 64, piece_to(&black, nb4) / 64);
        assert!(piece_to(&pos, nc3) < PIECE_TO && piece_to(&black, nb4) < PIECE_TO);
    }
}
