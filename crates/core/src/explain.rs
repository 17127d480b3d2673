//! "Why is this move illegal?" — [`Position::explain`] takes a move as a player enters it (from-square, to-square,
//! optional promotion piece) and answers either with the legal [`Move`] or with a structured [`Reason`] that the
//! web UI and the server can act on ([`Reason::code`], [`Reason::squares`]) and show to people in Chinese or
//! English ([`Reason::text`], [`Reason::message`]).
//!
//! The checks run in the order a teacher would go through them: is there a piece, is it yours, does that piece
//! move like that at all, is the way clear, is the target free of your own pieces, is the promotion right, and
//! only then: does the move leave your king in check (pin, check not answered, king stepping into check).
//! Castling (Article 3.8.2) has its own chain: rights (king or rook moved), squares between empty, not in check,
//! king not passing through or landing on an attacked square.
//!
//! Castling may be entered as the king's two-square move (`e1g1`, `e1c1`) or as king takes own rook (`e1h1`, the
//! Chess960 way), in standard and Chess960 positions alike.
//!
//! A [`Position`] remembers an en-passant square only while the capture is legal. When a pawn tries to capture en
//! passant and the square is not set, we cannot see the game's history, so we go by the position: if the enemy
//! pawn could just have made its two-square advance (no move since the last pawn move or capture, its starting
//! and skipped squares empty, no other en-passant square open) and the capture would leave the king in check, we
//! say so; otherwise we explain that en passant is only possible right after the advance.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::lang::{Lang, Text};
use crate::mv::Move;
use crate::position::Position;
use crate::san::CastlingSide;
use crate::types::{Color, File, Piece, Rank, Role, Square};
use crate::uci::ParseUciError;
use core::fmt;

/// A piece together with the square it stands on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlacedPiece {
    pub square: Square,
    pub piece: Piece,
}

impl PlacedPiece {
    pub const fn new(square: Square, piece: Piece) -> PlacedPiece {
        PlacedPiece { square, piece }
    }
}

/// The answer of [`Position::explain`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explanation {
    /// The move is legal; this is it, ready for [`Position::play`].
    Legal(Move),
    /// The move is illegal, and this is the first reason a teacher would give.
    Illegal(Reason),
}

impl Explanation {
    pub fn is_legal(&self) -> bool {
        matches!(self, Explanation::Legal(_))
    }

    /// The legal move, if it is one.
    pub fn legal_move(&self) -> Option<Move> {
        match self {
            Explanation::Legal(m) => Some(*m),
            Explanation::Illegal(_) => None,
        }
    }

    /// The reason, if the move is illegal.
    pub fn reason(&self) -> Option<&Reason> {
        match self {
            Explanation::Legal(_) => None,
            Explanation::Illegal(r) => Some(r),
        }
    }
}

/// Why a move is illegal. Every variant names the squares involved so the UI can highlight them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// From-square and to-square are the same.
    SameSquare { square: Square },
    /// Nothing stands on the from-square.
    NoPiece { square: Square },
    /// The piece belongs to the side not to move.
    NotYourTurn { piece: PlacedPiece, turn: Color },
    /// The piece never moves like that (a knight moving like a bishop, a rook moving diagonally, …).
    BadPieceMove { piece: PlacedPiece, to: Square },
    /// A pawn moving towards its own side.
    PawnBackward { from: Square, to: Square },
    /// A pawn moving along its rank.
    PawnSideways { from: Square, to: Square },
    /// A pawn's two-square advance from a square other than its starting square.
    PawnDoubleStep { from: Square, to: Square, color: Color },
    /// A pawn moving diagonally onto an empty square (and no en passant is involved).
    PawnDiagonalEmpty { from: Square, to: Square },
    /// A pawn moving straight ahead onto an enemy piece.
    PawnForwardCapture { from: Square, to: Square, occupant: PlacedPiece },
    /// An en-passant capture that is not (or no longer) available.
    NoEnPassant { from: Square, to: Square, pawn: PlacedPiece },
    /// A sliding piece (or a pawn's two-square advance) is stopped by the first piece on its way.
    PathBlocked { from: Square, to: Square, blocker: PlacedPiece },
    /// One of the mover's own pieces stands on the target.
    OwnPiece { from: Square, target: PlacedPiece },
    /// A promotion piece was given for a move that is not a pawn reaching the last rank.
    PromotionNotAllowed { from: Square, to: Square },
    /// Promotion to a king or a pawn.
    InvalidPromotion { from: Square, to: Square, role: Role },
    /// A pawn reaches the last rank but no promotion piece was chosen.
    PromotionRequired { from: Square, to: Square },
    /// Moving a pinned piece off the line would expose the king.
    Pinned { piece: PlacedPiece, to: Square, pinner: PlacedPiece, king: Square },
    /// An en-passant capture that would take both pawns off a line and expose the king.
    EnPassantExposesKing { from: Square, to: Square, captured: Square, attacker: PlacedPiece, king: Square },
    /// The king would move onto (or stay on) an attacked square.
    KingIntoCheck { from: Square, to: Square, attackers: Vec<PlacedPiece>, still_in_check: bool },
    /// In check from one piece, and the move neither captures it, blocks it, nor moves the king.
    InCheck { from: Square, to: Square, checker: PlacedPiece, king: Square },
    /// In double check, and the move is not a king move.
    DoubleCheck { from: Square, to: Square, checkers: [PlacedPiece; 2], king: Square },
    /// Castling after the king has left its original square (standard chess).
    CastleKingMoved { color: Color, king: Square, side: CastlingSide },
    /// Castling with a rook that is no longer on its original square (standard chess).
    CastleRookMoved { color: Color, king: Square, side: CastlingSide, rook: Square },
    /// Castling on a side whose right is gone, though king and rook stand where they started (or, in Chess960,
    /// where we cannot tell).
    CastleRightsLost { color: Color, king: Square, side: CastlingSide, rook: Option<Square> },
    /// Castling while in check.
    CastleInCheck { color: Color, king: Square, side: CastlingSide, checkers: Vec<PlacedPiece> },
    /// A square the king or the rook must cross or reach is occupied.
    CastleBlocked { color: Color, king: Square, rook: Square, side: CastlingSide, blocker: PlacedPiece },
    /// The king would pass through an attacked square.
    CastleThroughCheck { color: Color, king: Square, side: CastlingSide, square: Square, attackers: Vec<PlacedPiece> },
    /// The king would land on an attacked square.
    CastleIntoCheck { color: Color, king: Square, side: CastlingSide, square: Square, attackers: Vec<PlacedPiece> },
}

/// Every code [`Reason::code`] can return, in the order of the variants.
pub const REASON_CODES: [&str; 27] = [
    "same_square",
    "no_piece",
    "not_your_turn",
    "bad_piece_move",
    "pawn_backward",
    "pawn_sideways",
    "pawn_double_step",
    "pawn_diagonal_empty",
    "pawn_forward_capture",
    "no_en_passant",
    "path_blocked",
    "own_piece",
    "promotion_not_allowed",
    "invalid_promotion",
    "promotion_required",
    "pinned",
    "ep_exposes_king",
    "king_into_check",
    "in_check",
    "double_check",
    "castle_king_moved",
    "castle_rook_moved",
    "castle_rights_lost",
    "castle_in_check",
    "castle_blocked",
    "castle_through_check",
    "castle_into_check",
];

impl Reason {
    /// A stable machine-readable code (`"pinned"`, `"castle_through_check"`, …); see [`REASON_CODES`].
    pub fn code(&self) -> &'static str {
        use Reason::*;
        match self {
            SameSquare { .. } => "same_square",
            NoPiece { .. } => "no_piece",
            NotYourTurn { .. } => "not_your_turn",
            BadPieceMove { .. } => "bad_piece_move",
            PawnBackward { .. } => "pawn_backward",
            PawnSideways { .. } => "pawn_sideways",
            PawnDoubleStep { .. } => "pawn_double_step",
            PawnDiagonalEmpty { .. } => "pawn_diagonal_empty",
            PawnForwardCapture { .. } => "pawn_forward_capture",
            NoEnPassant { .. } => "no_en_passant",
            PathBlocked { .. } => "path_blocked",
            OwnPiece { .. } => "own_piece",
            PromotionNotAllowed { .. } => "promotion_not_allowed",
            InvalidPromotion { .. } => "invalid_promotion",
            PromotionRequired { .. } => "promotion_required",
            Pinned { .. } => "pinned",
            EnPassantExposesKing { .. } => "ep_exposes_king",
            KingIntoCheck { .. } => "king_into_check",
            InCheck { .. } => "in_check",
            DoubleCheck { .. } => "double_check",
            CastleKingMoved { .. } => "castle_king_moved",
            CastleRookMoved { .. } => "castle_rook_moved",
            CastleRightsLost { .. } => "castle_rights_lost",
            CastleInCheck { .. } => "castle_in_check",
            CastleBlocked { .. } => "castle_blocked",
            CastleThroughCheck { .. } => "castle_through_check",
            CastleIntoCheck { .. } => "castle_into_check",
        }
    }

    /// The squares to highlight, most important first (the moving piece's square, then the squares the reason is
    /// about: blocker, pinner, attackers, king …). Never empty; no square twice.
    pub fn squares(&self) -> Vec<Square> {
        use Reason::*;
        let mut v: Vec<Square> = match self {
            SameSquare { square } | NoPiece { square } => vec![*square],
            NotYourTurn { piece, .. } => vec![piece.square],
            BadPieceMove { piece, to } => vec![piece.square, *to],
            PawnBackward { from, to }
            | PawnSideways { from, to }
            | PawnDoubleStep { from, to, .. }
            | PawnDiagonalEmpty { from, to }
            | PromotionNotAllowed { from, to }
            | InvalidPromotion { from, to, .. }
            | PromotionRequired { from, to } => vec![*from, *to],
            PawnForwardCapture { from, to, .. } => vec![*from, *to],
            NoEnPassant { from, to, pawn } => vec![*from, *to, pawn.square],
            PathBlocked { from, to, blocker } => vec![*from, *to, blocker.square],
            OwnPiece { from, target } => vec![*from, target.square],
            Pinned { piece, to, pinner, king } => vec![piece.square, *to, pinner.square, *king],
            EnPassantExposesKing { from, to, captured, attacker, king } => {
                vec![*from, *to, *captured, attacker.square, *king]
            }
            KingIntoCheck { from, to, attackers, .. } => {
                let mut v = vec![*from, *to];
                v.extend(attackers.iter().map(|a| a.square));
                v
            }
            InCheck { from, to, checker, king } => vec![*from, *to, checker.square, *king],
            DoubleCheck { from, to, checkers, king } => {
                vec![*from, *to, checkers[0].square, checkers[1].square, *king]
            }
            CastleKingMoved { king, .. } => vec![*king],
            CastleRookMoved { king, rook, .. } => vec![*king, *rook],
            CastleRightsLost { king, rook, .. } => {
                let mut v = vec![*king];
                v.extend(rook.iter().copied());
                v
            }
            CastleInCheck { king, checkers, .. } => {
                let mut v = vec![*king];
                v.extend(checkers.iter().map(|a| a.square));
                v
            }
            CastleBlocked { king, rook, blocker, .. } => vec![*king, *rook, blocker.square],
            CastleThroughCheck { king, square, attackers, .. } | CastleIntoCheck { king, square, attackers, .. } => {
                let mut v = vec![*king, *square];
                v.extend(attackers.iter().map(|a| a.square));
                v
            }
        };
        let mut seen = Bitboard::EMPTY;
        v.retain(|&s| {
            let new = !seen.contains(s);
            seen |= s;
            new
        });
        v
    }

    /// The explanation in both languages.
    pub fn text(&self) -> Text {
        Text { zh: self.zh(), en: self.en() }
    }

    /// The explanation in one language.
    pub fn message(&self, lang: Lang) -> String {
        match lang {
            Lang::Zh => self.zh(),
            Lang::En => self.en(),
        }
    }

    fn en(&self) -> String {
        use Reason::*;
        const CASTLE: &str = "Castling is not allowed: ";
        match self {
            SameSquare { .. } => "The piece must move to a different square.".into(),
            NoPiece { square } => format!("There is no piece on {square}."),
            NotYourTurn { piece, turn } => format!(
                "It is {}'s turn; the {} on {} is {}'s.",
                color_en(*turn),
                piece.piece.role.name(),
                piece.square,
                color_en(piece.piece.color)
            ),
            BadPieceMove { piece, .. } => role_rule_en(piece.piece.role).into(),
            PawnBackward { .. } => "A pawn can never move backwards.".into(),
            PawnSideways { .. } => "A pawn cannot move sideways.".into(),
            PawnDoubleStep { color, .. } => format!(
                "A pawn may advance two squares only from its starting square on rank {}.",
                Rank::Second.relative(*color).char()
            ),
            PawnDiagonalEmpty { to, .. } => {
                format!("A pawn moves diagonally only to capture, and {to} is empty.")
            }
            PawnForwardCapture { to, .. } => {
                format!("A pawn cannot capture straight ahead: the square {to} is occupied.")
            }
            NoEnPassant { .. } => {
                "En passant is only possible immediately after the enemy pawn's two-square advance.".into()
            }
            PathBlocked { blocker, .. } => format!("The path is blocked by {}.", en(blocker)),
            OwnPiece { target, .. } => format!("Your own {} stands on {}.", target.piece.role.name(), target.square),
            PromotionNotAllowed { .. } => "Only a pawn reaching the last rank can promote.".into(),
            InvalidPromotion { role, .. } => {
                format!("A pawn can promote only to a queen, rook, bishop or knight, not to a {}.", role.name())
            }
            PromotionRequired { .. } => "Choose a piece to promote to: queen, rook, bishop or knight.".into(),
            Pinned { piece, pinner, king, .. } => format!(
                "The {} on {} is pinned by {}: moving it would expose your king on {king} to check.",
                piece.piece.role.name(),
                piece.square,
                en(pinner)
            ),
            EnPassantExposesKing { from, captured, attacker, king, .. } => format!(
                "Capturing en passant here would leave your king on {king} in check from {}, because both your pawn \
                 on {from} and the captured pawn on {captured} would leave the line between them.",
                en(attacker)
            ),
            KingIntoCheck { to, attackers, still_in_check, .. } => format!(
                "The king would {}be in check on {to} from {}.",
                if *still_in_check { "still " } else { "" },
                join_en(attackers.iter().map(en))
            ),
            InCheck { checker, king, .. } => {
                if attacks::between(*king, checker.square).any() {
                    format!(
                        "You are in check from {}; this move neither captures it, blocks it, nor moves your king.",
                        en(checker)
                    )
                } else {
                    format!("You are in check from {}; this move neither captures it nor moves your king.", en(checker))
                }
            }
            DoubleCheck { checkers, .. } => format!(
                "Double check from {} and {}: only a king move can answer it.",
                en(&checkers[0]),
                en(&checkers[1])
            ),
            CastleKingMoved { .. } => format!("{CASTLE}the king has already moved."),
            CastleRookMoved { rook, .. } => {
                format!("{CASTLE}the rook from {rook} has moved or been captured.")
            }
            CastleRightsLost { side, rook, .. } => match rook {
                Some(r) => format!(
                    "{CASTLE}the right to castle {} was lost earlier (the king or the rook on {r} has moved before).",
                    side_en(*side)
                ),
                None => format!(
                    "{CASTLE}the right to castle {} was lost earlier (the king or the rook has moved before).",
                    side_en(*side)
                ),
            },
            CastleInCheck { .. } => "You cannot castle out of check.".into(),
            CastleBlocked { color, king, rook, blocker, .. } => {
                let who = if blocker.piece.color == *color {
                    format!("your {}", blocker.piece.role.name())
                } else {
                    format!("the {} {}", blocker.piece.color.name(), blocker.piece.role.name())
                };
                if attacks::between(*king, *rook).contains(blocker.square) {
                    format!(
                        "{CASTLE}the squares between the king and the rook are not empty; {} is occupied by {who}.",
                        blocker.square
                    )
                } else {
                    format!(
                        "{CASTLE}the squares the king and the rook move to must be empty; {} is occupied by {who}.",
                        blocker.square
                    )
                }
            }
            CastleThroughCheck { square, attackers, .. } => format!(
                "{CASTLE}the king would pass through {square}, which is attacked by {}.",
                join_en(attackers.iter().map(en_colored))
            ),
            CastleIntoCheck { square, attackers, .. } => format!(
                "{CASTLE}the king would land on {square}, which is attacked by {}.",
                join_en(attackers.iter().map(en_colored))
            ),
        }
    }

    fn zh(&self) -> String {
        use Reason::*;
        const CASTLE: &str = "王车易位不允许：";
        match self {
            SameSquare { .. } => "棋子必须走到另一个格子上。".into(),
            NoPiece { square } => format!("{square} 格上没有棋子。"),
            NotYourTurn { piece, turn } => format!(
                "现在轮到{}走棋，{} 格上的{}是{}的。",
                turn.name_zh(),
                piece.square,
                piece.piece.role.zh_char(),
                piece.piece.color.name_zh()
            ),
            BadPieceMove { piece, .. } => role_rule_zh(piece.piece.role).into(),
            PawnBackward { .. } => "兵不能后退。".into(),
            PawnSideways { .. } => "兵不能横着走。".into(),
            PawnDoubleStep { color, .. } => {
                format!("兵只有在初始位置（第 {} 横排）时才能一次直进两格。", Rank::Second.relative(*color).char())
            }
            PawnDiagonalEmpty { to, .. } => format!("兵只有吃子时才能斜进，而 {to} 格是空的。"),
            PawnForwardCapture { to, .. } => format!("兵不能直走吃子：{to} 格已被占据。"),
            NoEnPassant { .. } => "吃过路兵只能在对方的兵直进两格之后立即进行。".into(),
            PathBlocked { blocker, .. } => format!("路线被{} 挡住了。", zh(blocker)),
            OwnPiece { target, .. } => format!("{} 格上是你自己的{}。", target.square, target.piece.role.zh_char()),
            PromotionNotAllowed { .. } => "只有走到对方底线的兵才能升变。".into(),
            InvalidPromotion { role, .. } => {
                format!("兵只能升变为后、车、象或马，不能升变为{}。", role.zh_char())
            }
            PromotionRequired { .. } => "请选择兵升变成的棋子：后、车、象或马。".into(),
            Pinned { piece, pinner, king, .. } => {
                format!("{} 被{} 牵制：走开它会使你在 {king} 的王被将军。", zh(piece), zh(pinner))
            }
            EnPassantExposesKing { from, captured, attacker, king, .. } => format!(
                "这里吃过路兵后，你在 {from} 的兵和被吃掉的 {captured} 兵都会离开这条线，使你在 {king} 的王被{} 将军。",
                zh(attacker)
            ),
            KingIntoCheck { to, attackers, still_in_check, .. } => format!(
                "王走到 {to} {}会被{} 将军。",
                if *still_in_check { "仍然" } else { "" },
                join_zh(attackers.iter().map(zh))
            ),
            InCheck { checker, king, .. } => {
                if attacks::between(*king, checker.square).any() {
                    format!("你正被{} 将军，这步棋没有应将：既没有吃掉它，也没有挡住它，也没有走王。", zh(checker))
                } else {
                    format!("你正被{} 将军，这步棋没有应将：既没有吃掉它，也没有走王。", zh(checker))
                }
            }
            DoubleCheck { checkers, .. } => {
                format!("{} 和{} 双将：只有走王才能应将。", zh(&checkers[0]), zh(&checkers[1]))
            }
            CastleKingMoved { .. } => format!("{CASTLE}王已经移动过。"),
            CastleRookMoved { rook, .. } => {
                format!("{CASTLE}原来在 {rook} 的车已经移动过或被吃掉了。")
            }
            CastleRightsLost { side, rook, .. } => match rook {
                Some(r) => format!("{CASTLE}{}的权利已经失去（王或 {r} 的车之前移动过）。", side_zh(*side)),
                None => format!("{CASTLE}{}的权利已经失去（王或车之前移动过）。", side_zh(*side)),
            },
            CastleInCheck { .. } => "王正被将军，不能王车易位。".into(),
            CastleBlocked { king, rook, blocker, .. } => {
                if attacks::between(*king, *rook).contains(blocker.square) {
                    format!(
                        "{CASTLE}王和车之间的格子必须是空的，但 {} 格上有{}{}。",
                        blocker.square,
                        color_zh(blocker.piece.color),
                        blocker.piece.role.zh_char()
                    )
                } else {
                    format!(
                        "{CASTLE}王和车要经过和到达的格子必须是空的，但 {} 格上有{}{}。",
                        blocker.square,
                        color_zh(blocker.piece.color),
                        blocker.piece.role.zh_char()
                    )
                }
            }
            CastleThroughCheck { square, attackers, .. } => {
                format!("{CASTLE}王经过的 {square} 格受到{} 的攻击。", join_zh(attackers.iter().map(zh)))
            }
            CastleIntoCheck { square, attackers, .. } => {
                format!("{CASTLE}王到达的 {square} 格受到{} 的攻击。", join_zh(attackers.iter().map(zh)))
            }
        }
    }
}

impl fmt::Display for Reason {
    /// The English message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en())
    }
}

impl std::error::Error for Reason {}

fn side_en(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    }
}

fn side_zh(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "短易位",
        CastlingSide::QueenSide => "长易位",
    }
}

fn color_en(c: Color) -> &'static str {
    c.fold("White", "Black")
}

fn color_zh(c: Color) -> char {
    c.fold('白', '黑')
}

/// "the bishop on c4"
fn en(p: &PlacedPiece) -> String {
    format!("the {} on {}", p.piece.role.name(), p.square)
}

/// "the black bishop on c4"
fn en_colored(p: &PlacedPiece) -> String {
    format!("the {} {} on {}", p.piece.color.name(), p.piece.role.name(), p.square)
}

/// "黑象 c4"
fn zh(p: &PlacedPiece) -> String {
    format!("{}{} {}", color_zh(p.piece.color), p.piece.role.zh_char(), p.square)
}

/// "a", "a and b", "a, b and c"
fn join_en(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        n => format!("{} and {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

/// "甲", "甲 和乙", "甲、乙 和丙" (the items end in a square name, hence the space).
fn join_zh(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        n => format!("{} 和{}", v[..n - 1].join("、"), v[n - 1]),
    }
}

fn role_rule_en(role: Role) -> &'static str {
    match role {
        Role::Pawn => {
            "A pawn moves straight forward one square (two from its starting square) and captures one square \
             diagonally forward."
        }
        Role::Knight => "A knight moves in an L-shape: two squares in one direction and one to the side.",
        Role::Bishop => "A bishop moves diagonally, any number of squares.",
        Role::Rook => "A rook moves along a rank or a file, any number of squares.",
        Role::Queen => "A queen moves in a straight line along a rank, a file or a diagonal, any number of squares.",
        Role::King => "A king moves one square in any direction (castling aside).",
    }
}

fn role_rule_zh(role: Role) -> &'static str {
    match role {
        Role::Pawn => "兵只能向前直走一格（从初始位置可以走两格），吃子时斜进一格。",
        Role::Knight => "马走“日”字：先横走或直走两格，再向旁边走一格。",
        Role::Bishop => "象只能斜走，格数不限。",
        Role::Rook => "车只能横走或竖走，格数不限。",
        Role::Queen => "后可以横走、竖走或斜走，格数不限，但必须走直线。",
        Role::King => "王每次只能向任意方向走一格（王车易位除外）。",
    }
}

/// The square in `set` closest to `sq` (for "the first piece on the way").
fn nearest(set: Bitboard, sq: Square) -> Option<Square> {
    set.into_iter().min_by_key(|&s| s.distance(sq))
}

/// The pieces on `set`, strongest first (queen, rook, …), then by square.
fn placed_list(pos: &Position, set: Bitboard) -> Vec<PlacedPiece> {
    let mut v: Vec<PlacedPiece> =
        set.into_iter().filter_map(|s| pos.piece_at(s).map(|p| PlacedPiece::new(s, p))).collect();
    v.sort_by_key(|p| (core::cmp::Reverse(p.piece.role), p.square));
    v
}

/// The squares on `side` of `king`'s file, on every rank.
fn side_mask(king: Square, side: CastlingSide) -> Bitboard {
    File::ALL
        .into_iter()
        .filter(|&f| match side {
            CastlingSide::KingSide => f > king.file(),
            CastlingSide::QueenSide => f < king.file(),
        })
        .fold(Bitboard::EMPTY, |b, f| b | Bitboard::from_file(f))
}

impl Position {
    /// Explains whether moving the piece on `from` to `to` (promoting to `promotion`) is legal, and if not, why.
    /// Never panics, whatever the squares and the promotion piece.
    pub fn explain(&self, from: Square, to: Square, promotion: Option<Role>) -> Explanation {
        match self.explain_move(from, to, promotion) {
            Ok(m) => Explanation::Legal(m),
            Err(r) => Explanation::Illegal(r),
        }
    }

    /// [`Position::explain`] for a move written in UCI style (`e2e4`, `e7e8q`, `e1g1`, `e1h1`). The promotion
    /// letter may be any piece letter in either case (so that `e7e8k` gets explained rather than rejected). Text
    /// that is not a move at all (`0000` included) is an error.
    pub fn explain_uci(&self, uci: &str) -> Result<Explanation, ParseUciError> {
        let (from, to, promotion) = parse_uci_loose(uci)?;
        Ok(self.explain(from, to, promotion))
    }

    fn explain_move(&self, from: Square, to: Square, promotion: Option<Role>) -> Result<Move, Reason> {
        if from == to {
            return Err(Reason::SameSquare { square: from });
        }
        let Some(piece) = self.piece_at(from) else {
            return Err(Reason::NoPiece { square: from });
        };
        let us = self.turn();
        let mover = PlacedPiece::new(from, piece);
        if piece.color != us {
            return Err(Reason::NotYourTurn { piece: mover, turn: us });
        }
        if piece.role == Role::King
            && let Some((side, rook)) = self.castling_attempt(from, to)
        {
            if promotion.is_some() {
                return Err(Reason::PromotionNotAllowed { from, to });
            }
            return self.explain_castling(from, side, rook);
        }

        // Does the piece move like that at all, and is the way clear?
        let mut ep_victim = None;
        match piece.role {
            Role::Pawn => ep_victim = self.explain_pawn_step(mover, to)?,
            Role::King | Role::Knight => {
                if !attacks::attacks(piece.role, us, from, Bitboard::EMPTY).contains(to) {
                    return Err(Reason::BadPieceMove { piece: mover, to });
                }
                self.check_own_piece(from, to)?;
            }
            Role::Bishop | Role::Rook | Role::Queen => {
                if !attacks::attacks(piece.role, us, from, Bitboard::EMPTY).contains(to) {
                    return Err(Reason::BadPieceMove { piece: mover, to });
                }
                self.check_path(from, to)?;
                self.check_own_piece(from, to)?;
            }
        }

        let reaches_last_rank = piece.role == Role::Pawn && to.rank() == us.promotion_rank();
        if let Some(role) = promotion {
            if !reaches_last_rank {
                return Err(Reason::PromotionNotAllowed { from, to });
            }
            if matches!(role, Role::King | Role::Pawn) {
                return Err(Reason::InvalidPromotion { from, to, role });
            }
        }

        // King safety.
        if piece.role == Role::King {
            let attackers = self.attackers_to(to, !us, self.occupied() ^ from);
            if attackers.any() {
                return Err(Reason::KingIntoCheck {
                    from,
                    to,
                    attackers: placed_list(self, attackers),
                    still_in_check: (attackers & self.checkers()).any(),
                });
            }
        } else {
            self.check_king_safety(mover, to, ep_victim)?;
        }

        if reaches_last_rank && promotion.is_none() {
            return Err(Reason::PromotionRequired { from, to });
        }
        Ok(match (promotion, ep_victim) {
            (Some(role), _) => Move::promotion(from, to, role),
            (None, Some(_)) => Move::en_passant(from, to),
            (None, None) => Move::normal(from, to),
        })
    }

    /// A sliding move: the first piece between `from` and `to`, if any, blocks it.
    fn check_path(&self, from: Square, to: Square) -> Result<(), Reason> {
        if let Some(b) = nearest(attacks::between(from, to) & self.occupied(), from)
            && let Some(p) = self.piece_at(b)
        {
            return Err(Reason::PathBlocked { from, to, blocker: PlacedPiece::new(b, p) });
        }
        Ok(())
    }

    fn check_own_piece(&self, from: Square, to: Square) -> Result<(), Reason> {
        match self.piece_at(to) {
            Some(p) if p.color == self.turn() => Err(Reason::OwnPiece { from, target: PlacedPiece::new(to, p) }),
            _ => Ok(()),
        }
    }

    /// The pawn's own rules. `Ok(Some(victim))` for a real en-passant capture (the en-passant square is open),
    /// `Ok(None)` for other pawn moves that fit the rules so far.
    fn explain_pawn_step(&self, pawn: PlacedPiece, to: Square) -> Result<Option<Square>, Reason> {
        let us = pawn.piece.color;
        let from = pawn.square;
        let forward = to.rank().relative(us) as i32 - from.rank().relative(us) as i32;
        let sideways = (to.file() as i32 - from.file() as i32).abs();
        if forward < 0 {
            return Err(Reason::PawnBackward { from, to });
        }
        if forward == 0 {
            return Err(Reason::PawnSideways { from, to });
        }
        let target = self.piece_at(to);
        match (sideways, forward) {
            (0, 1 | 2) => {
                if forward == 2 {
                    if from.rank() != Rank::Second.relative(us) {
                        return Err(Reason::PawnDoubleStep { from, to, color: us });
                    }
                    self.check_path(from, to)?;
                }
                match target {
                    None => Ok(None),
                    Some(p) if p.color == us => Err(Reason::OwnPiece { from, target: PlacedPiece::new(to, p) }),
                    Some(p) => Err(Reason::PawnForwardCapture { from, to, occupant: PlacedPiece::new(to, p) }),
                }
            }
            (1, 1) => match target {
                Some(p) if p.color == us => Err(Reason::OwnPiece { from, target: PlacedPiece::new(to, p) }),
                Some(_) => Ok(None),
                None => {
                    let victim = Square::from_coords(to.file(), from.rank());
                    if self.ep_square() == Some(to) {
                        return Ok(Some(victim));
                    }
                    let enemy_pawn = Piece::new(!us, Role::Pawn);
                    if from.rank() != Rank::Fifth.relative(us) || self.piece_at(victim) != Some(enemy_pawn) {
                        return Err(Reason::PawnDiagonalEmpty { from, to });
                    }
                    let no_ep = Reason::NoEnPassant { from, to, pawn: PlacedPiece::new(victim, enemy_pawn) };
                    // Could that pawn just have made its two-square advance? Then the capture may have been
                    // dropped from the position because it would leave our king in check: say so.
                    let start = Square::from_coords(to.file(), Rank::Seventh.relative(us));
                    let could_have_just_advanced =
                        self.ep_square().is_none() && self.halfmoves() == 0 && !self.occupied().contains(start);
                    if could_have_just_advanced {
                        self.check_king_safety(pawn, to, Some(victim))?;
                    }
                    Err(no_ep)
                }
            },
            _ => Err(Reason::BadPieceMove { piece: pawn, to }),
        }
    }

    /// For a move of a piece other than the king (geometry already checked): double check, check not answered,
    /// pin, or an en-passant capture that uncovers an attack.
    fn check_king_safety(&self, mover: PlacedPiece, to: Square, ep_victim: Option<Square>) -> Result<(), Reason> {
        let us = mover.piece.color;
        let from = mover.square;
        let king = self.king(us);
        let checkers = self.checkers();
        if checkers.more_than_one() {
            let list = placed_list(self, checkers);
            if let [a, b, ..] = list[..] {
                return Err(Reason::DoubleCheck { from, to, checkers: [a, b], king });
            }
        }
        let captured = ep_victim.unwrap_or(to);
        let mut occ = (self.occupied() ^ from) | to;
        if let Some(v) = ep_victim {
            occ ^= v;
        }
        let attackers = self.attackers_to(king, !us, occ) & !Bitboard::from_square(captured);
        if attackers.is_empty() {
            return Ok(());
        }
        if let Some(c) = checkers.first()
            && attackers.contains(c)
            && let Some(p) = self.piece_at(c)
        {
            return Err(Reason::InCheck { from, to, checker: PlacedPiece::new(c, p), king });
        }
        let Some(a) = nearest(attackers, king) else {
            return Ok(());
        };
        let Some(ap) = self.piece_at(a) else {
            return Ok(());
        };
        let attacker = PlacedPiece::new(a, ap);
        Err(match ep_victim {
            Some(captured) => Reason::EnPassantExposesKing { from, to, captured, attacker, king },
            None => Reason::Pinned { piece: mover, to, pinner: attacker, king },
        })
    }

    /// Whether a king move from `king` to `to` is meant as castling: king takes own rook on the back rank, or the
    /// king's move to the c- or g-file of the back rank when that is not an ordinary one-square step. Returns the
    /// side and, for king-takes-rook, the rook.
    fn castling_attempt(&self, king: Square, to: Square) -> Option<(CastlingSide, Option<Square>)> {
        let us = self.turn();
        let back = us.back_rank();
        if king.rank() != back || to.rank() != back {
            return None;
        }
        let side = if to.file() > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
        // In standard chess the castling rooks start in the corners; another rook is only in the way.
        let could_be_castling_rook = self.is_chess960() || matches!(to.file(), File::A | File::H);
        if could_be_castling_rook && self.pieces(us, Role::Rook).contains(to) {
            let rights = self.castling_rooks_of(us) & side_mask(king, side);
            if rights.any() && !rights.contains(to) {
                return None; // another rook castles on that side; this one is just in the way
            }
            return Some((side, Some(to)));
        }
        let two_square_target = match to.file() {
            File::G => side == CastlingSide::KingSide,
            File::C => side == CastlingSide::QueenSide,
            _ => false,
        };
        if two_square_target && king.distance(to) >= 2 {
            return Some((side, None));
        }
        None
    }

    /// Castling, Article 3.8.2, in the order the rule is usually taught.
    fn explain_castling(&self, king: Square, side: CastlingSide, given_rook: Option<Square>) -> Result<Move, Reason> {
        let us = self.turn();
        let them = !us;
        let back = us.back_rank();
        let rights = self.castling_rooks_of(us) & side_mask(king, side);
        let rook = match given_rook {
            Some(r) if rights.contains(r) => Some(r),
            _ => match side {
                CastlingSide::KingSide => rights.last(),
                CastlingSide::QueenSide => rights.first(),
            },
        };
        let Some(rook) = rook else {
            if !self.is_chess960() {
                let home_king = Square::from_coords(File::E, back);
                if king != home_king {
                    return Err(Reason::CastleKingMoved { color: us, king, side });
                }
                let home_rook =
                    Square::from_coords(if side == CastlingSide::KingSide { File::H } else { File::A }, back);
                if !self.pieces(us, Role::Rook).contains(home_rook) {
                    return Err(Reason::CastleRookMoved { color: us, king, side, rook: home_rook });
                }
                return Err(Reason::CastleRightsLost { color: us, king, side, rook: Some(home_rook) });
            }
            // Chess960: the starting squares are unknown; name the rook the player pointed at, if any.
            return Err(Reason::CastleRightsLost { color: us, king, side, rook: given_rook });
        };

        let m = Move::castle(king, rook);
        let king_to = m.king_to();
        let rook_to = m.castle_rook_to();
        let occ = self.occupied() ^ king ^ rook;
        let king_path = attacks::between(king, king_to) | king_to;
        let rook_path = attacks::between(rook, rook_to) | rook_to;
        if let Some(b) = nearest((king_path | rook_path) & occ, king)
            && let Some(p) = self.piece_at(b)
        {
            return Err(Reason::CastleBlocked { color: us, king, rook, side, blocker: PlacedPiece::new(b, p) });
        }
        if self.is_check() {
            return Err(Reason::CastleInCheck { color: us, king, side, checkers: placed_list(self, self.checkers()) });
        }
        let mut path: Vec<Square> = king_path.into_iter().collect();
        path.sort_by_key(|s| s.distance(king));
        for square in path {
            let attackers = self.attackers_to(square, them, occ);
            if attackers.any() {
                let attackers = placed_list(self, attackers);
                return Err(if square == king_to {
                    Reason::CastleIntoCheck { color: us, king, side, square, attackers }
                } else {
                    Reason::CastleThroughCheck { color: us, king, side, square, attackers }
                });
            }
        }
        Ok(m)
    }
}

/// Like UCI move syntax, but accepting any piece letter for the promotion and from == to, so that those mistakes
/// get explained instead of rejected.
fn parse_uci_loose(s: &str) -> Result<(Square, Square, Option<Role>), ParseUciError> {
    let e = |problem| ParseUciError { text: s.chars().take(20).collect(), problem };
    let t = s.trim();
    if t == "0000" {
        return Err(e("0000 is the null move, not a move on the board"));
    }
    if !t.is_ascii() {
        return Err(e("only ASCII letters and digits are allowed"));
    }
    if t.len() != 4 && t.len() != 5 {
        return Err(e("expected 4 or 5 characters, like e2e4 or e7e8q"));
    }
    let from = Square::parse(&t[0..2]).ok_or_else(|| e("the first two characters are not a square"))?;
    let to = Square::parse(&t[2..4]).ok_or_else(|| e("characters 3–4 are not a square"))?;
    let promotion = match t.as_bytes().get(4) {
        None => None,
        Some(&b) => {
            Some(Role::from_char(b as char).ok_or_else(|| e("the promotion letter must be one of q, r, b, n"))?)
        }
    };
    Ok((from, to, promotion))
}
