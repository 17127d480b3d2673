//! [`Rules`]: the rule set a game is played under, chosen when it is created — how touched pieces and illegal moves
//! are treated. `online` (the default) refuses an illegal move with its reason; the others bring the rules of a game
//! played at a board with an arbiter (the server acts as the arbiter, at once and on every move):
//!
//! - **touch-move** (Laws Article 4.2–4.5; Article 7 in the older Laws the seeds quote, 摸子走子): a piece the player
//!   on move touches binds them — the first own piece touched that can be moved must be moved, the first opponent's
//!   piece touched that can be captured must be captured, king and rook touched in that order oblige castling if it
//!   is legal; "I adjust" (摆正) before touching binds nothing.
//! - **illegal moves counted** (Article 7.5): a completed illegal move is taken back (the position before it is
//!   restored) and counted; the first gives the opponent extra time (two minutes; one minute in rapid and blitz,
//!   Appendix A.3), the second loses — unless the opponent cannot checkmate by any series of legal moves, then the
//!   game is drawn (7.5.5).
//! - **送王** (the seeds' school rule): moving into check, or leaving one's king in check, is a foul; the third foul
//!   loses (drawn if the opponent cannot checkmate, as in 7.5.5). Other illegal moves are refused as online.
//!
//! What the touches oblige is worked out here ([`Obligation`]); the game keeps the touches of the turn in progress.

use guoxiang_clock::TimeControl;
use guoxiang_core::{Color, Move, Piece, Position, Role, Square};
use serde::{Deserialize, Serialize};

/// How completed illegal moves are treated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum IllegalMoves {
    /// Refused with the reason; nothing is counted (online play).
    #[default]
    Refused,
    /// FIDE Article 7.5: taken back and counted; the first gives the opponent extra time, the second loses.
    Fide,
    /// The seeds' school rule 送王: a move that leaves one's own king in check is taken back and counted; the third
    /// loses. Other illegal moves are refused.
    KingIntoCheck,
}

impl IllegalMoves {
    /// The code (`refused`, `fide`, `king_into_check`).
    pub fn as_str(self) -> &'static str {
        match self {
            IllegalMoves::Refused => "refused",
            IllegalMoves::Fide => "fide",
            IllegalMoves::KingIntoCheck => "king_into_check",
        }
    }

    /// The number of counted illegal moves that loses the game (`None`: nothing is counted).
    pub fn losing_count(self) -> Option<u8> {
        match self {
            IllegalMoves::Refused => None,
            IllegalMoves::Fide => Some(2),
            IllegalMoves::KingIntoCheck => Some(3),
        }
    }
}

/// The rule set of a game. The default is `online`: no touch-move, illegal moves refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Rules {
    /// Touch-move (Article 4): the `touch` and `adjust` actions are taken, and a touched piece binds.
    #[serde(default)]
    pub touch_move: bool,
    /// How completed illegal moves are treated.
    #[serde(default)]
    pub illegal_moves: IllegalMoves,
    /// Adjournment with a sealed move may be agreed by the players (the arbiter may always call one); for classical
    /// and correspondence games or where the host allows it. See [`crate::adjourn`].
    #[serde(default)]
    pub adjournment: bool,
    /// A pawn-war exercise, not a FIDE game: the first player to promote a pawn wins at once
    /// ([`guoxiang_core::Termination::Promotion`]); the course's pawn-war steps are played with it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub first_promotion: bool,
}

impl Rules {
    /// Online play: illegal moves refused, no touch-move.
    pub const ONLINE: Rules =
        Rules { touch_move: false, illegal_moves: IllegalMoves::Refused, adjournment: false, first_promotion: false };

    /// Touch-move training: touched pieces bind; illegal moves are refused with their reason.
    pub const TOUCH_MOVE: Rules =
        Rules { touch_move: true, illegal_moves: IllegalMoves::Refused, adjournment: false, first_promotion: false };

    /// As at a board under FIDE's Laws: touch-move, and illegal moves counted (Article 7.5).
    pub const OVER_THE_BOARD: Rules =
        Rules { touch_move: true, illegal_moves: IllegalMoves::Fide, adjournment: false, first_promotion: false };

    /// A name for the rule set: `online`, or its parts joined by `+` — `touch_move`, `illegal_moves_count` or
    /// `king_into_check` (送王), `adjournment`, `first_promotion`.
    pub fn name(&self) -> String {
        let counting = match self.illegal_moves {
            IllegalMoves::Refused => None,
            IllegalMoves::Fide => Some("illegal_moves_count"),
            IllegalMoves::KingIntoCheck => Some("king_into_check"),
        };
        let parts: Vec<&str> = [
            self.touch_move.then_some("touch_move"),
            counting,
            self.adjournment.then_some("adjournment"),
            self.first_promotion.then_some("first_promotion"),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() { "online".to_owned() } else { parts.join("+") }
    }

    /// The rule set for a name as [`Rules::name`] writes it.
    pub fn parse(name: &str) -> Result<Rules, String> {
        let mut rules = Rules::ONLINE;
        for part in name.split('+') {
            match part.trim() {
                "online" if !name.contains('+') => {}
                "touch_move" => rules.touch_move = true,
                "illegal_moves_count" | "fide" => rules.illegal_moves = IllegalMoves::Fide,
                "king_into_check" | "songwang" => rules.illegal_moves = IllegalMoves::KingIntoCheck,
                "adjournment" => rules.adjournment = true,
                "first_promotion" | "pawn_war" => rules.first_promotion = true,
                other => {
                    return Err(format!(
                        "unknown rule set {other:?} (expected online, or touch_move, illegal_moves_count or \
                         king_into_check, adjournment, first_promotion joined by +)"
                    ));
                }
            }
        }
        Ok(rules)
    }
}

/// Extra time for the opponent after a first completed illegal move or an incorrect claim (Articles 7.5.5 and
/// 9.5.3): two minutes, one minute in rapid and blitz (Appendix A.3, which blitz follows). FIDE calls a game rapid or
/// blitz when the time for all moves, plus 60 times the increment, is under 60 minutes.
pub fn penalty_ms(tc: &TimeControl) -> u64 {
    let fide_minutes = match tc {
        TimeControl::Periods(p) => {
            let first = p.first();
            (u64::from(first.seconds) + 60 * u64::from(first.bonus.seconds())) / 60
        }
        TimeControl::Sandclock { seconds } => u64::from(*seconds) / 60,
        TimeControl::Unlimited | TimeControl::Correspondence(_) => u64::MAX,
    };
    if fide_minutes < 60 { 60_000 } else { 120_000 }
}

/// A completed illegal move that was counted, with its place in the game (after `ply` moves) — kept for the PGN.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Incident {
    pub ply: u32,
    #[serde(with = "crate::serde_util::color")]
    pub by: Color,
    pub uci: String,
    pub count: u8,
    pub penalty_ms: u64,
    pub message_zh: String,
    pub message_en: String,
}

/// A piece the player on move touched this turn (the game keeps them in the order touched).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Touch {
    pub square: Square,
    pub piece: Piece,
}

/// What the touches of this turn oblige the player to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Obligation {
    /// Nothing touched binds (nothing touched, or none of the touched pieces can be moved or captured: 4.5).
    Free,
    /// Move the piece on this square (any of its legal moves; castling counts as a king move) — 4.3.1.
    MovePiece(Touch),
    /// Capture the piece on this square, with any piece — 4.3.2.
    Capture(Touch),
    /// Capture `target` with `with` — 4.3.3.
    CaptureWith { with: Touch, target: Touch },
    /// Castle with the rook on this square — 4.4.1.
    Castle { king: Touch, rook: Touch },
    /// Move the king, but not castling with the rook on `not_with` — 4.4.3 (castling on the other side is allowed).
    KingMove { king: Touch, not_with: Square },
}

impl Obligation {
    /// What the touches oblige in `pos` (the player on move touched `touches`, in order).
    pub fn of(pos: &Position, touches: &[Touch]) -> Obligation {
        let us = pos.turn();
        let moves = pos.legal_moves();
        let movable = |t: &Touch| moves.iter().any(|m| m.from() == t.square);
        let capturable = |t: &Touch| moves.iter().any(|m| captures(pos, *m, t.square));
        let own: Vec<Touch> = touches.iter().copied().filter(|t| t.piece.color == us).collect();
        let theirs: Vec<Touch> = touches.iter().copied().filter(|t| t.piece.color != us).collect();
        if let (Some(&with), Some(&target)) = (own.first(), theirs.first()) {
            // 4.3.3: one piece of each colour — capture it with that piece if legal, otherwise the first touched
            // that can be moved or captured.
            if moves.iter().any(|m| m.from() == with.square && captures(pos, *m, target.square)) {
                return Obligation::CaptureWith { with, target };
            }
            for t in touches {
                if t.piece.color == us && movable(t) {
                    return Obligation::MovePiece(*t);
                }
                if t.piece.color != us && capturable(t) {
                    return Obligation::Capture(*t);
                }
            }
            return Obligation::Free;
        }
        if let Some(&first) = own.first() {
            // 4.4: the king first and then a rook (intending to castle).
            if first.piece.role == Role::King
                && let Some(&rook) = own.get(1).filter(|t| t.piece.role == Role::Rook)
            {
                if moves.iter().any(|m| m.is_castle() && m.to() == rook.square) {
                    return Obligation::Castle { king: first, rook };
                }
                if moves.iter().any(|m| m.from() == first.square && !(m.is_castle() && m.to() == rook.square)) {
                    return Obligation::KingMove { king: first, not_with: rook.square };
                }
                return Obligation::Free;
            }
            // 4.3.1 (and 4.4.2: a rook touched before the king binds as the rook; castling is a king move).
            return own.iter().find(|t| movable(t)).map_or(Obligation::Free, |t| Obligation::MovePiece(*t));
        }
        theirs.iter().find(|t| capturable(t)).map_or(Obligation::Free, |t| Obligation::Capture(*t))
    }

    /// Whether `m` (a legal move) fulfils the obligation.
    pub fn allows(&self, pos: &Position, m: Move) -> bool {
        match *self {
            Obligation::Free => true,
            Obligation::MovePiece(t) => m.from() == t.square,
            Obligation::Capture(t) => captures(pos, m, t.square),
            Obligation::CaptureWith { with, target } => m.from() == with.square && captures(pos, m, target.square),
            Obligation::Castle { rook, .. } => m.is_castle() && m.to() == rook.square,
            Obligation::KingMove { king, not_with } => {
                m.from() == king.square && !(m.is_castle() && m.to() == not_with)
            }
        }
    }

    /// Whether anything binds.
    pub fn binds(&self) -> bool {
        *self != Obligation::Free
    }

    /// The obligation in words, zh and en, with the article.
    pub fn text(&self) -> (String, String) {
        let zh_piece = |t: &Touch| format!("{}{}", role_zh(t.piece.role), t.square);
        let en_piece = |t: &Touch| format!("{} on {}", role_en(t.piece.role), t.square);
        match self {
            Obligation::Free => (
                "所摸的棋子都不能走动或被吃，可以走任何合乎规则的着法（第4.5条）".to_owned(),
                "None of the touched pieces can be moved or captured: any legal move may be played (Article 4.5)"
                    .to_owned(),
            ),
            Obligation::MovePiece(t) => (
                format!("你已摸了{}，必须走{}（摸子走子，第4.3.1条）", zh_piece(t), role_zh(t.piece.role)),
                format!("You touched your {}: you must move it (touch-move, Article 4.3.1)", en_piece(t)),
            ),
            Obligation::Capture(t) => (
                format!("你已摸了对方的{}，必须吃掉它（摸子吃子，第4.3.2条）", zh_piece(t)),
                format!("You touched the opponent's {}: you must capture it (Article 4.3.2)", en_piece(t)),
            ),
            Obligation::CaptureWith { with, target } => (
                format!(
                    "你摸了{}和对方的{}，必须用{}吃掉它（第4.3.3条）",
                    zh_piece(with),
                    zh_piece(target),
                    role_zh(with.piece.role)
                ),
                format!(
                    "You touched your {} and the opponent's {}: you must capture it with that piece (Article 4.3.3)",
                    en_piece(with),
                    en_piece(target)
                ),
            ),
            Obligation::Castle { rook, .. } => (
                format!("你先摸了王，又摸了{}，必须向这一翼易位（第4.4.1条）", zh_piece(rook)),
                format!(
                    "You touched your king and then the {}: you must castle on that side (Article 4.4.1)",
                    en_piece(rook)
                ),
            ),
            Obligation::KingMove { not_with, .. } => (
                format!("与{not_with}的车易位不合规则，但你已摸了王，必须走王（第4.4.3条）"),
                format!(
                    "Castling with the rook on {not_with} is not legal, but you touched your king: you must move \
                     it (Article 4.4.3)"
                ),
            ),
        }
    }
}

/// Whether `m` captures the piece on `target` (en passant: the pawn taken is not on the move's destination).
fn captures(pos: &Position, m: Move, target: Square) -> bool {
    if m.is_castle() {
        return false;
    }
    if m.is_en_passant() {
        return Square::from_coords(m.to().file(), m.from().rank()) == target;
    }
    m.to() == target && pos.piece_at(target).is_some_and(|p| p.color != pos.turn())
}

/// A piece's Chinese name (王后车象马兵).
pub(crate) fn role_zh(r: Role) -> &'static str {
    match r {
        Role::King => "王",
        Role::Queen => "后",
        Role::Rook => "车",
        Role::Bishop => "象",
        Role::Knight => "马",
        Role::Pawn => "兵",
    }
}

pub(crate) fn role_en(r: Role) -> &'static str {
    match r {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

/// Whether a move text from the wire (UCI) denotes a *completed illegal move* in the sense of Article 7.5.1: a piece
/// of the player on move taken from its square and put on another (capturing the king, a pawn to the last rank
/// without promotion or promoting to a king or pawn included). `None` when the text is not such a move at all
/// (no own piece there, the same square, an own piece on the destination other than a rook to castle with): then the
/// command is refused and nothing is counted.
pub(crate) fn completed_move(pos: &Position, uci: &str) -> Option<(Square, Square)> {
    let b = uci.as_bytes();
    if !(4..=5).contains(&b.len()) || !uci.is_ascii() {
        return None;
    }
    let from: Square = uci[0..2].parse().ok()?;
    let to: Square = uci[2..4].parse().ok()?;
    let piece = pos.piece_at(from)?;
    if from == to || piece.color != pos.turn() {
        return None;
    }
    if let Some(p) = pos.piece_at(to)
        && p.color == piece.color
        && !(piece.role == Role::King && p.role == Role::Rook)
    {
        return None;
    }
    Some((from, to))
}

/// Whether the only fault of the piece on `from` going to `to` (promoting to `promotion`; a pawn reaching the last
/// rank is asked about as if it promoted to a queen) is that it leaves or puts one's own king in check: the foul the
/// school rule 送王 counts.
pub(crate) fn only_fault_is_check(pos: &Position, from: Square, to: Square, promotion: Option<Role>) -> bool {
    let last_rank = pos.piece_at(from).map(|p| p.color.fold(7, 0));
    let pawn = pos.piece_at(from).is_some_and(|p| p.role == Role::Pawn);
    let promotion = promotion.or((pawn && Some(to.rank().index()) == last_rank).then_some(Role::Queen));
    use guoxiang_core::Reason::*;
    matches!(
        pos.explain(from, to, promotion),
        guoxiang_core::Explanation::Illegal(
            Pinned { .. }
                | EnPassantExposesKing { .. }
                | KingIntoCheck { .. }
                | InCheck { .. }
                | DoubleCheck { .. }
                | CastleIntoCheck { .. }
        )
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn touch(p: &Position, sq: &str) -> Touch {
        let square: Square = sq.parse().unwrap();
        Touch { square, piece: p.piece_at(square).unwrap() }
    }

    #[test]
    fn names_read_back() {
        for r in [
            Rules::ONLINE,
            Rules::TOUCH_MOVE,
            Rules::OVER_THE_BOARD,
            Rules { illegal_moves: IllegalMoves::Fide, ..Rules::ONLINE },
            Rules { illegal_moves: IllegalMoves::KingIntoCheck, ..Rules::ONLINE },
            Rules {
                touch_move: true,
                illegal_moves: IllegalMoves::KingIntoCheck,
                adjournment: true,
                first_promotion: true,
            },
            Rules { adjournment: true, ..Rules::ONLINE },
            Rules { first_promotion: true, ..Rules::ONLINE },
        ] {
            assert_eq!(Rules::parse(&r.name()).unwrap(), r, "{}", r.name());
        }
        assert!(Rules::parse("touch").unwrap_err().contains("unknown rule set \"touch\""));
        assert!(Rules::parse("online+touch_move").is_err());
    }

    #[test]
    fn penalties_by_fide_speed() {
        let tc = |s: &str| TimeControl::from_pgn(s).unwrap();
        assert_eq!(penalty_ms(&tc("5400+30")), 120_000); // standard
        assert_eq!(penalty_ms(&tc("3600")), 120_000); // 60 minutes is not rapid
        assert_eq!(penalty_ms(&tc("1500+10")), 60_000); // rapid: 25 + 10 minutes
        assert_eq!(penalty_ms(&tc("3000+10")), 120_000); // 50 + 10 minutes: standard
        assert_eq!(penalty_ms(&tc("180+2")), 60_000); // blitz
    }

    #[test]
    fn touched_own_piece_must_move() {
        let p = Position::new();
        let o = Obligation::of(&p, &[touch(&p, "g1")]);
        assert_eq!(o, Obligation::MovePiece(touch(&p, "g1")));
        assert!(o.allows(&p, p.parse_uci("g1f3").unwrap()));
        assert!(!o.allows(&p, p.parse_uci("e2e4").unwrap()));
        assert_eq!(o.text().0, "你已摸了马g1，必须走马（摸子走子，第4.3.1条）");
        // The first touched that can be moved: the bishop on f1 cannot, the knight can.
        let o = Obligation::of(&p, &[touch(&p, "f1"), touch(&p, "b1"), touch(&p, "g1")]);
        assert_eq!(o, Obligation::MovePiece(touch(&p, "b1")));
        // Nothing touched can move: free (4.5).
        assert_eq!(Obligation::of(&p, &[touch(&p, "a1"), touch(&p, "d1")]), Obligation::Free);
    }

    #[test]
    fn touched_opponent_piece_must_be_captured() {
        let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 2");
        let o = Obligation::of(&p, &[touch(&p, "d5")]);
        assert_eq!(o, Obligation::Capture(touch(&p, "d5")));
        assert!(o.allows(&p, p.parse_uci("e4d5").unwrap()));
        assert!(o.allows(&p, p.parse_uci("c3d5").unwrap()));
        assert!(!o.allows(&p, p.parse_uci("e4e5").unwrap()));
        // A piece that cannot be captured binds nothing.
        assert_eq!(Obligation::of(&p, &[touch(&p, "e7")]), Obligation::Free);
    }

    #[test]
    fn own_and_opponent_piece_capture_with_that_piece() {
        let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 2");
        let o = Obligation::of(&p, &[touch(&p, "c3"), touch(&p, "d5")]);
        assert_eq!(o, Obligation::CaptureWith { with: touch(&p, "c3"), target: touch(&p, "d5") });
        assert!(o.allows(&p, p.parse_uci("c3d5").unwrap()));
        assert!(!o.allows(&p, p.parse_uci("e4d5").unwrap()));
        // The knight on g1 cannot take d5: the first touched that can be moved or captured — the knight moves.
        let o = Obligation::of(&p, &[touch(&p, "g1"), touch(&p, "d5")]);
        assert_eq!(o, Obligation::MovePiece(touch(&p, "g1")));
        // The opponent's piece first: it must be captured (by any piece).
        let o = Obligation::of(&p, &[touch(&p, "d5"), touch(&p, "g1")]);
        assert_eq!(o, Obligation::Capture(touch(&p, "d5")));
    }

    #[test]
    fn castling_touches() {
        let p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
        // King then rook: castle that side (4.4.1).
        let o = Obligation::of(&p, &[touch(&p, "e1"), touch(&p, "h1")]);
        assert_eq!(o, Obligation::Castle { king: touch(&p, "e1"), rook: touch(&p, "h1") });
        assert!(o.allows(&p, p.parse_uci("e1g1").unwrap()));
        assert!(!o.allows(&p, p.parse_uci("e1f1").unwrap()));
        // Rook then king: no castling on that side; the rook must move (4.4.2 → 4.3.1).
        let o = Obligation::of(&p, &[touch(&p, "h1"), touch(&p, "e1")]);
        assert_eq!(o, Obligation::MovePiece(touch(&p, "h1")));
        assert!(!o.allows(&p, p.parse_uci("e1g1").unwrap()));
        assert!(o.allows(&p, p.parse_uci("h1g1").unwrap()));
        // King then rook, castling there illegal (a bishop attacks f1): another king move (4.4.3).
        let p = pos("r3k2r/8/b7/8/8/8/8/R3K2R w KQkq - 0 1");
        let o = Obligation::of(&p, &[touch(&p, "e1"), touch(&p, "h1")]);
        assert_eq!(o, Obligation::KingMove { king: touch(&p, "e1"), not_with: "h1".parse().unwrap() });
        assert!(o.allows(&p, p.parse_uci("e1d1").unwrap()));
        assert!(o.allows(&p, p.parse_uci("e1c1").unwrap()));
    }

    #[test]
    fn completed_moves_and_check_fouls() {
        let p = pos("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
        let e1: Square = "e1".parse().unwrap();
        assert_eq!(completed_move(&p, "e1e2"), Some((e1, "e2".parse().unwrap())));
        assert_eq!(completed_move(&p, "e8e7"), None); // not White's piece
        assert_eq!(completed_move(&p, "e1e1"), None);
        assert_eq!(completed_move(&p, "d4d5"), None); // no piece
        // Kd2 walks into the rook's attack: the only fault is the check.
        assert!(only_fault_is_check(&p, e1, "d2".parse().unwrap(), None));
        // Ke1-e3 is no king move at all.
        assert!(!only_fault_is_check(&p, e1, "e3".parse().unwrap(), None));
    }
}
