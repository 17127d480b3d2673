//! "Why is this illegal?": one test per reason with the exact sentences in both languages, checks of the order
//! the reasons are given in, and an exhaustive comparison with the move generator over random positions.

mod common;
use common::XorShift as Rng;

use guoxiang_core::explain::REASON_CODES;
use guoxiang_core::{
    CastlingMode, Color, Explanation, Lang, Move, Position, Reason, Role, STARTING_FEN, Square, UciMove, Validation,
};
use std::collections::BTreeSet;

/// A FEN, optionally followed by ` moves <uci>…` played from it.
fn pos(spec: &str) -> Position {
    let (fen, moves) = match spec.split_once(" moves ") {
        Some((f, m)) => (f, m),
        None => (spec, ""),
    };
    let mut p = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for m in moves.split_whitespace() {
        let mv = p.parse_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p = p.play(mv).unwrap();
    }
    p
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn reason(spec: &str, uci: &str) -> Reason {
    match pos(spec).explain_uci(uci).unwrap() {
        Explanation::Illegal(r) => r,
        Explanation::Legal(m) => panic!("{uci} in {spec} is legal ({m:?})"),
    }
}

fn legal(spec: &str, uci: &str) -> Move {
    match pos(spec).explain_uci(uci).unwrap() {
        Explanation::Legal(m) => m,
        Explanation::Illegal(r) => panic!("{uci} in {spec} is illegal: {} ({})", r.code(), r.message(Lang::En)),
    }
}

fn check(spec: &str, uci: &str, code: &str, en: &str, zh: &str) {
    let r = reason(spec, uci);
    assert_eq!(r.code(), code, "{uci} in {spec}: {r:?}");
    assert_eq!(r.message(Lang::En), en, "{uci} in {spec}");
    assert_eq!(r.message(Lang::Zh), zh, "{uci} in {spec}");
    let t = r.text();
    assert_eq!((t.en.as_str(), t.zh.as_str()), (en, zh));
    assert_eq!(r.to_string(), en);
    assert!(!r.squares().is_empty());
}

macro_rules! cases {
    ($($name:ident: $spec:expr, $uci:expr => $code:expr, $en:expr, $zh:expr;)*) => {
        $(
            #[test]
            fn $name() {
                check($spec, $uci, $code, $en, $zh);
            }
        )*
        const CASES: &[(&str, &str, &str, &str, &str)] = &[$(($spec, $uci, $code, $en, $zh)),*];
    };
}

const START: &str = STARTING_FEN;

cases! {
    same_square: START, "e2e2" => "same_square",
        "The piece must move to a different square.",
        "棋子必须走到另一个格子上。";
    no_piece: START, "e4e5" => "no_piece",
        "There is no piece on e4.",
        "e4 格上没有棋子。";
    not_your_turn: START, "g8f6" => "not_your_turn",
        "It is White's turn; the knight on g8 is Black's.",
        "现在轮到白方走棋，g8 格上的马是黑方的。";
    not_your_turn_black_to_move: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "d2d4" => "not_your_turn",
        "It is Black's turn; the pawn on d2 is White's.",
        "现在轮到黑方走棋，d2 格上的兵是白方的。";
    knight_moves_like_a_bishop: START, "b1d3" => "bad_piece_move",
        "A knight moves in an L-shape: two squares in one direction and one to the side.",
        "马走“日”字：先横走或直走两格，再向旁边走一格。";
    bishop_moves_straight: "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "c1c4" => "bad_piece_move",
        "A bishop moves diagonally, any number of squares.",
        "象只能斜走，格数不限。";
    rook_moves_diagonally: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1c3" => "bad_piece_move",
        "A rook moves along a rank or a file, any number of squares.",
        "车只能横走或竖走，格数不限。";
    queen_jumps_like_a_knight: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1e3" => "bad_piece_move",
        "A queen moves in a straight line along a rank, a file or a diagonal, any number of squares.",
        "后可以横走、竖走或斜走，格数不限，但必须走直线。";
    king_moves_two_squares: "4k3/8/8/8/4K3/8/8/8 w - - 0 1", "e4e6" => "bad_piece_move",
        "A king moves one square in any direction (castling aside).",
        "王每次只能向任意方向走一格（王车易位除外）。";
    pawn_jumps_three: START, "e2e5" => "bad_piece_move",
        "A pawn moves straight forward one square (two from its starting square) and captures one square diagonally forward.",
        "兵只能向前直走一格（从初始位置可以走两格），吃子时斜进一格。";
    slider_path_blocked: START, "a1a3" => "path_blocked",
        "The path is blocked by the pawn on a2.",
        "路线被白兵 a2 挡住了。";
    pawn_double_step_blocked: "rnbqkb1r/pppppppp/8/8/8/4n3/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4" => "path_blocked",
        "The path is blocked by the knight on e3.",
        "路线被黑马 e3 挡住了。";
    own_piece: "4k3/8/8/8/8/8/8/R2RK3 w - - 0 1", "a1d1" => "own_piece",
        "Your own rook stands on d1.",
        "d1 格上是你自己的车。";
    pinned_on_diagonal: "4k3/8/8/8/1b6/8/3B4/4K3 w - - 0 1", "d2e3" => "pinned",
        "The bishop on d2 is pinned by the bishop on b4: moving it would expose your king on e1 to check.",
        "白象 d2 被黑象 b4 牵制：走开它会使你在 e1 的王被将军。";
    pinned_on_file: "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3" => "pinned",
        "The bishop on e2 is pinned by the rook on e8: moving it would expose your king on e1 to check.",
        "白象 e2 被黑车 e8 牵制：走开它会使你在 e1 的王被将军。";
    king_into_check: "k5n1/8/8/4K3/8/8/8/8 w - - 0 1", "e5f6" => "king_into_check",
        "The king would be in check on f6 from the knight on g8.",
        "王走到 f6 会被黑马 g8 将军。";
    king_into_check_from_two: "k5n1/4p3/8/4K3/8/8/8/8 w - - 0 1", "e5f6" => "king_into_check",
        "The king would be in check on f6 from the knight on g8 and the pawn on e7.",
        "王走到 f6 会被黑马 g8 和黑兵 e7 将军。";
    king_stays_on_checking_line: "k3r3/8/8/8/8/8/4K3/8 w - - 0 1", "e2e1" => "king_into_check",
        "The king would still be in check on e1 from the rook on e8.",
        "王走到 e1 仍然会被黑车 e8 将军。";
    king_captures_protected_piece: "k7/8/8/8/8/3p4/4p3/4K3 w - - 0 1", "e1e2" => "king_into_check",
        "The king would be in check on e2 from the pawn on d3.",
        "王走到 e2 会被黑兵 d3 将军。";
    in_check_not_answered: "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "a2a3" => "in_check",
        "You are in check from the queen on h4; this move neither captures it, blocks it, nor moves your king.",
        "你正被黑后 h4 将军，这步棋没有应将：既没有吃掉它，也没有挡住它，也没有走王。";
    in_check_from_knight: "4k3/8/8/8/8/5n2/8/R3K3 w - - 0 1", "a1a2" => "in_check",
        "You are in check from the knight on f3; this move neither captures it nor moves your king.",
        "你正被黑马 f3 将军，这步棋没有应将：既没有吃掉它，也没有走王。";
    double_check: "4r1k1/8/8/8/1b6/8/8/R3K3 w - - 0 1", "a1a2" => "double_check",
        "Double check from the rook on e8 and the bishop on b4: only a king move can answer it.",
        "黑车 e8 和黑象 b4 双将：只有走王才能应将。";
    castle_king_moved: "r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1", "f1h1" => "castle_king_moved",
        "Castling is not allowed: the king has already moved.",
        "王车易位不允许：王已经移动过。";
    castle_king_moved_two_square_form: "r3k2r/8/8/8/8/8/8/R2K3R w kq - 0 1", "d1g1" => "castle_king_moved",
        "Castling is not allowed: the king has already moved.",
        "王车易位不允许：王已经移动过。";
    castle_rook_moved: "4k3/8/8/8/8/8/8/R3K1R1 w Q - 0 1", "e1g1" => "castle_rook_moved",
        "Castling is not allowed: the rook from h1 has moved or been captured.",
        "王车易位不允许：原来在 h1 的车已经移动过或被吃掉了。";
    castle_rights_lost: "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1g1" => "castle_rights_lost",
        "Castling is not allowed: the right to castle kingside was lost earlier (the king or the rook on h1 has moved before).",
        "王车易位不允许：短易位的权利已经失去（王或 h1 的车之前移动过）。";
    castle_rights_lost_king_takes_rook: "r3k2r/8/8/8/8/8/8/R3K2R b Kk - 0 1", "e8a8" => "castle_rights_lost",
        "Castling is not allowed: the right to castle queenside was lost earlier (the king or the rook on a8 has moved before).",
        "王车易位不允许：长易位的权利已经失去（王或 a8 的车之前移动过）。";
    castle_in_check: "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1" => "castle_in_check",
        "You cannot castle out of check.",
        "王正被将军，不能王车易位。";
    castle_through_check: "4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1", "e1g1" => "castle_through_check",
        "Castling is not allowed: the king would pass through f1, which is attacked by the black bishop on c4.",
        "王车易位不允许：王经过的 f1 格受到黑象 c4 的攻击。";
    castle_through_check_king_takes_rook: "4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1", "e1h1" => "castle_through_check",
        "Castling is not allowed: the king would pass through f1, which is attacked by the black bishop on c4.",
        "王车易位不允许：王经过的 f1 格受到黑象 c4 的攻击。";
    castle_into_check: "4k3/8/8/8/8/7n/8/R3K2R w KQ - 0 1", "e1g1" => "castle_into_check",
        "Castling is not allowed: the king would land on g1, which is attacked by the black knight on h3.",
        "王车易位不允许：王到达的 g1 格受到黑马 h3 的攻击。";
    castle_blocked: "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "e1c1" => "castle_blocked",
        "Castling is not allowed: the squares between the king and the rook are not empty; b1 is occupied by your knight.",
        "王车易位不允许：王和车之间的格子必须是空的，但 b1 格上有白马。";
    castle_blocked_by_enemy: "r3k2r/8/8/8/8/8/8/R3K1nR w KQkq - 0 1", "e1h1" => "castle_blocked",
        "Castling is not allowed: the squares between the king and the rook are not empty; g1 is occupied by the black knight.",
        "王车易位不允许：王和车之间的格子必须是空的，但 g1 格上有黑马。";
    chess960_castle_blocked_beyond_rook: "1k6/8/8/8/8/8/8/RK1B4 w A - 0 1", "b1a1" => "castle_blocked",
        "Castling is not allowed: the squares the king and the rook move to must be empty; d1 is occupied by your bishop.",
        "王车易位不允许：王和车要经过和到达的格子必须是空的，但 d1 格上有白象。";
    chess960_castle_rights_lost: "1k6/8/8/8/8/8/8/RK5R w H - 0 1", "b1a1" => "castle_rights_lost",
        "Castling is not allowed: the right to castle queenside was lost earlier (the king or the rook on a1 has moved before).",
        "王车易位不允许：长易位的权利已经失去（王或 a1 的车之前移动过）。";
    no_en_passant: "4k3/8/8/3pP3/8/8/8/4K3 w - - 5 10", "e5d6" => "no_en_passant",
        "En passant is only possible immediately after the enemy pawn's two-square advance.",
        "吃过路兵只能在对方的兵直进两格之后立即进行。";
    no_en_passant_after_another_move: "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 moves d7d5 e1e2 e8e7", "e5d6" => "no_en_passant",
        "En passant is only possible immediately after the enemy pawn's two-square advance.",
        "吃过路兵只能在对方的兵直进两格之后立即进行。";
    en_passant_exposes_king: "8/3p4/8/r3P2K/8/8/8/7k b - - 0 1 moves d7d5", "e5d6" => "ep_exposes_king",
        "Capturing en passant here would leave your king on h5 in check from the rook on a5, because both your pawn on e5 and the captured pawn on d5 would leave the line between them.",
        "这里吃过路兵后，你在 e5 的兵和被吃掉的 d5 兵都会离开这条线，使你在 h5 的王被黑车 a5 将军。";
    pawn_forward_capture: "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2", "d4d5" => "pawn_forward_capture",
        "A pawn cannot capture straight ahead: the square d5 is occupied.",
        "兵不能直走吃子：d5 格已被占据。";
    pawn_diagonal_empty: START, "e2d3" => "pawn_diagonal_empty",
        "A pawn moves diagonally only to capture, and d3 is empty.",
        "兵只有吃子时才能斜进，而 d3 格是空的。";
    pawn_backward: "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "e4e3" => "pawn_backward",
        "A pawn can never move backwards.",
        "兵不能后退。";
    pawn_sideways: "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "e4d4" => "pawn_sideways",
        "A pawn cannot move sideways.",
        "兵不能横着走。";
    pawn_double_step_not_from_start: "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "e3e5" => "pawn_double_step",
        "A pawn may advance two squares only from its starting square on rank 2.",
        "兵只有在初始位置（第 2 横排）时才能一次直进两格。";
    black_pawn_double_step_not_from_start: "4k3/8/3p4/8/8/8/8/4K3 b - - 0 1", "d6d4" => "pawn_double_step",
        "A pawn may advance two squares only from its starting square on rank 7.",
        "兵只有在初始位置（第 7 横排）时才能一次直进两格。";
    promotion_required: "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8" => "promotion_required",
        "Choose a piece to promote to: queen, rook, bishop or knight.",
        "请选择兵升变成的棋子：后、车、象或马。";
    promotion_not_on_last_rank: START, "e2e4q" => "promotion_not_allowed",
        "Only a pawn reaching the last rank can promote.",
        "只有走到对方底线的兵才能升变。";
    promotion_of_a_knight: START, "g1f3n" => "promotion_not_allowed",
        "Only a pawn reaching the last rank can promote.",
        "只有走到对方底线的兵才能升变。";
    promotion_to_king: "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8k" => "invalid_promotion",
        "A pawn can promote only to a queen, rook, bishop or knight, not to a king.",
        "兵只能升变为后、车、象或马，不能升变为王。";
    promotion_to_pawn: "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8p" => "invalid_promotion",
        "A pawn can promote only to a queen, rook, bishop or knight, not to a pawn.",
        "兵只能升变为后、车、象或马，不能升变为兵。";
}

#[test]
fn every_reason_code_has_a_case() {
    let covered: BTreeSet<&str> = CASES.iter().map(|c| c.2).collect();
    let all: BTreeSet<&str> = REASON_CODES.iter().copied().collect();
    assert_eq!(all.len(), REASON_CODES.len(), "codes are unique");
    let missing: Vec<_> = all.difference(&covered).collect();
    assert!(missing.is_empty(), "no test for {missing:?}");
    let unknown: Vec<_> = covered.difference(&all).collect();
    assert!(unknown.is_empty(), "unknown codes {unknown:?}");
}

// ----- legal moves come back as moves -------------------------------------------------------------------------

#[test]
fn legal_moves_are_returned() {
    assert_eq!(legal(START, "e2e4"), Move::normal(sq("e2"), sq("e4")));
    assert_eq!(legal(START, "g1f3"), Move::normal(sq("g1"), sq("f3")));
    let promo = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(legal(promo, "a7a8q"), Move::promotion(sq("a7"), sq("a8"), Role::Queen));
    assert_eq!(legal(promo, "a7a8N"), Move::promotion(sq("a7"), sq("a8"), Role::Knight));
    // A pinned piece may move along the pin line.
    assert_eq!(legal("4k3/8/8/8/1b6/8/3B4/4K3 w - - 0 1", "d2c3"), Move::normal(sq("d2"), sq("c3")));
    // Stepping off the checking line is fine.
    assert_eq!(legal("k3r3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1"), Move::normal(sq("e1"), sq("d1")));
}

#[test]
fn en_passant_when_available() {
    let p = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 moves d7d5";
    assert_eq!(legal(p, "e5d6"), Move::en_passant(sq("e5"), sq("d6")));
    // Also when the FEN says so.
    assert_eq!(legal("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"), Move::en_passant(sq("e5"), sq("d6")));
}

#[test]
fn castling_both_notations_standard() {
    let p = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let short = Move::castle(sq("e1"), sq("h1"));
    let long = Move::castle(sq("e1"), sq("a1"));
    assert_eq!(legal(p, "e1g1"), short);
    assert_eq!(legal(p, "e1h1"), short);
    assert_eq!(legal(p, "e1c1"), long);
    assert_eq!(legal(p, "e1a1"), long);
    // The square b1 may be attacked: the king does not cross it.
    assert_eq!(legal("4k3/8/8/8/8/n7/8/R3K2R w KQ - 0 1", "e1c1"), long);
    let p = pos(p);
    assert!(p.legal_moves().contains(short) && p.legal_moves().contains(long));
}

#[test]
fn castling_both_notations_chess960() {
    // King on c1, rooks b1 and g1.
    let p = "2k5/8/8/8/8/8/8/1RK3R1 w GB - 0 1";
    assert!(pos(p).is_chess960());
    assert_eq!(legal(p, "c1g1"), Move::castle(sq("c1"), sq("g1")));
    assert_eq!(legal(p, "c1b1"), Move::castle(sq("c1"), sq("b1")));
    // King on f1, rook h1: f1g1 is an ordinary king step, f1h1 castles.
    let p = "5k2/8/8/8/8/8/8/5K1R w H - 0 1";
    assert_eq!(legal(p, "f1g1"), Move::normal(sq("f1"), sq("g1")));
    assert_eq!(legal(p, "f1h1"), Move::castle(sq("f1"), sq("h1")));
    // The standard-looking set-up read in Chess960 mode still accepts e1g1.
    let p960 =
        Position::from_fen_with("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Chess960, Validation::Strict)
            .unwrap();
    assert!(p960.is_chess960());
    assert_eq!(p960.explain_uci("e1g1").unwrap(), Explanation::Legal(Move::castle(sq("e1"), sq("h1"))));
    assert_eq!(p960.explain_uci("e1a1").unwrap(), Explanation::Legal(Move::castle(sq("e1"), sq("a1"))));
    // Through check in Chess960.
    let r = reason("2k5/8/8/8/8/8/5n2/1RK3R1 w GB - 0 1", "c1g1");
    assert_eq!(r.code(), "castle_through_check");
    assert_eq!(
        r.message(Lang::En),
        "Castling is not allowed: the king would pass through d1, which is attacked by the black knight on f2."
    );
}

// ----- order: the most basic reason first --------------------------------------------------------------------

#[test]
fn basic_reasons_come_first() {
    // A pinned rook moving diagonally: the rook's move rule, not the pin.
    assert_eq!(reason("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", "e2d3").code(), "bad_piece_move");
    // A pinned rook blocked on its way: the blocker.
    assert_eq!(reason("4r1k1/8/8/8/8/8/N3R3/4K3 w - - 0 1", "e2a2").code(), "own_piece");
    assert_eq!(reason("4r1k1/8/8/8/8/8/1N2R3/4K3 w - - 0 1", "e2a2").code(), "path_blocked");
    // In check (or double check), moving another piece: the check comes first, even for a pinned piece.
    assert_eq!(reason("4r1k1/8/8/8/1b6/8/8/R3K3 w - - 0 1", "a1a2").code(), "double_check");
    assert_eq!(reason("4r1k1/8/8/8/1b6/8/3B4/R3K3 w - - 0 1", "a1a2").code(), "in_check");
    assert_eq!(reason("6k1/8/8/8/1b6/8/3B4/4K2q w - - 0 1", "d2e3").code(), "in_check");
    // A pinned piece that blocks the check uncovers another one.
    assert_eq!(reason("4r1k1/8/8/8/1b6/8/3B4/4K3 w - - 0 1", "d2e3").code(), "pinned");
    // A pinned pawn reaching the last rank without a promotion piece: the pin, not the missing piece.
    assert_eq!(reason("4k3/r1P4K/8/8/8/8/8/8 w - - 0 1", "c7c8").code(), "pinned");
    assert_eq!(reason("8/8/8/8/8/8/k1p4R/4K3 b - - 0 1", "c2c1").code(), "pinned");
    assert_eq!(reason("k7/2P5/8/8/8/8/8/7K w - - 0 1", "c7c8").code(), "promotion_required");
    // Castling: rights before blockers, blockers before check.
    assert_eq!(reason("4k3/4r3/8/8/8/8/8/RN2K2R w K - 0 1", "e1c1").code(), "castle_rights_lost");
    assert_eq!(reason("4k3/4r3/8/8/8/8/8/RN2K2R w KQ - 0 1", "e1c1").code(), "castle_blocked");
    // Promotion letter on castling.
    assert_eq!(reason("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1q").code(), "promotion_not_allowed");
    // Pawn diagonal with no adjacent enemy pawn is not an en-passant question.
    assert_eq!(reason("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", "e5d6").code(), "pawn_diagonal_empty");
}

#[test]
fn reasons_name_their_squares() {
    let r = reason("4k3/8/8/8/1b6/8/3B4/4K3 w - - 0 1", "d2e3");
    assert_eq!(r.squares(), vec![sq("d2"), sq("e3"), sq("b4"), sq("e1")]);
    match r {
        Reason::Pinned { piece, pinner, king, .. } => {
            assert_eq!((piece.square, pinner.square, king), (sq("d2"), sq("b4"), sq("e1")));
            assert_eq!(pinner.piece.color, Color::Black);
            assert_eq!(pinner.piece.role, Role::Bishop);
        }
        other => panic!("{other:?}"),
    }
    let r = reason("4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1", "e1g1");
    assert_eq!(r.squares(), vec![sq("e1"), sq("f1"), sq("c4")]);
    let r = reason(START, "a1a3");
    assert_eq!(r.squares(), vec![sq("a1"), sq("a3"), sq("a2")]);
}

#[test]
fn explain_uci_rejects_malformed_text() {
    let p = Position::new();
    for bad in ["", "e2", "e2e", "e2e4qq", "e9e4", "i2e4", "e2e4x", "0000", "中文走法", "e2-e4", "e2e4 "] {
        let r = p.explain_uci(bad);
        // "e2e4 " is trimmed and fine.
        if bad == "e2e4 " {
            assert!(r.unwrap().is_legal());
            continue;
        }
        let e = r.expect_err(bad);
        assert!(!e.to_string().is_empty(), "{bad}");
    }
}

// ----- exhaustive comparison with the move generator ---------------------------------------------------------

fn chess960_start(rng: &mut Rng) -> Position {
    Position::chess960(rng.below(960) as u16).expect("0..960")
}

/// Positions met along seeded random games, from the standard start, Chess960 starts and a few sharp set-ups.
fn random_positions(count: usize) -> Vec<Position> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let sharp = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        // Double check; an en-passant capture that would uncover the king; pins and castling through attacks.
        "4r1k1/pp6/8/8/1b6/8/5P2/RN2K2R w KQ - 0 1",
        "8/8/8/r2pP2K/8/8/8/7k w - - 0 2",
        "r3k2r/8/8/1B6/6b1/8/8/R3K2R b KQkq - 0 1",
    ];
    let mut out: Vec<Position> = sharp.iter().map(|f| Position::from_fen(f).unwrap()).collect();
    let mut game = 0usize;
    while out.len() < count {
        let mut p = match game % 4 {
            0 | 1 => Position::new(),
            2 => chess960_start(&mut rng),
            _ => Position::from_fen(sharp[game / 4 % sharp.len()]).unwrap(),
        };
        game += 1;
        let plies = 20 + rng.below(100);
        for ply in 0..plies {
            if ply % 3 == 0 || p.is_check() || p.ep_square().is_some() {
                out.push(p.clone());
            }
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer the more interesting moves now and then: castling, en passant, promotions, captures.
            let special: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| m.is_castle() || m.is_en_passant() || m.is_promotion() || p.is_capture(m))
                .collect();
            let m = if !special.is_empty() && rng.below(3) == 0 {
                special[rng.below(special.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p = p.play(m).unwrap();
        }
    }
    out.truncate(count);
    out
}

type Triple = (Square, Square, Option<Role>);

#[test]
fn explain_agrees_with_the_move_generator() {
    const PROMOTIONS: [Option<Role>; 7] = [
        None,
        Some(Role::Queen),
        Some(Role::Rook),
        Some(Role::Bishop),
        Some(Role::Knight),
        Some(Role::King),
        Some(Role::Pawn),
    ];
    let positions = random_positions(600);
    assert!(positions.len() >= 500);
    let mut stats = std::collections::BTreeMap::<&'static str, usize>::new();
    let mut legal_total = 0usize;
    let mut calls = 0usize;
    for (i, p) in positions.iter().enumerate() {
        let legal = p.legal_moves();
        let mut expected: BTreeSet<Triple> = BTreeSet::new();
        for &m in legal.iter() {
            expected.insert((m.from(), m.to(), m.promotion_role()));
            if m.is_castle() && m.from().distance(m.king_to()) >= 2 {
                expected.insert((m.from(), m.king_to(), None));
            }
        }
        let mut got: BTreeSet<Triple> = BTreeSet::new();
        for from in (0..64).map(Square::new) {
            for to in (0..64).map(Square::new) {
                let last_rank = matches!(to.rank().index(), 0 | 7);
                let promos: &[Option<Role>] = if last_rank || i % 8 == 0 { &PROMOTIONS } else { &PROMOTIONS[..1] };
                for &promo in promos {
                    calls += 1;
                    match p.explain(from, to, promo) {
                        Explanation::Legal(m) => {
                            assert!(legal.contains(m), "{p:?}: {from}{to} {promo:?} gave {m:?}, not a legal move");
                            assert_eq!(m.from(), from);
                            assert_eq!(m.promotion_role(), promo);
                            assert!(m.to() == to || (m.is_castle() && m.king_to() == to), "{p:?}: {m:?} for {to}");
                            got.insert((from, to, promo));
                        }
                        Explanation::Illegal(r) => {
                            let t = r.text();
                            assert!(!t.en.trim().is_empty() && !t.zh.trim().is_empty(), "{p:?} {from}{to}: {r:?}");
                            assert!(REASON_CODES.contains(&r.code()));
                            let squares = r.squares();
                            assert!(!squares.is_empty());
                            *stats.entry(r.code()).or_default() += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(got, expected, "{p:?}");
        legal_total += legal.len();
        // Every legal move comes back as itself, also through UCI text.
        for &m in legal.iter() {
            let u = UciMove::from_move(m, p.is_chess960()).to_string();
            assert_eq!(p.explain_uci(&u).unwrap(), Explanation::Legal(m), "{p:?} {u}");
        }
    }
    eprintln!("{} positions, {calls} explain calls, {legal_total} legal moves; reasons: {stats:?}", positions.len());
}

#[test]
fn explain_never_panics_on_odd_input() {
    // Every promotion letter, every square pair, in a position with pawns about to promote for both sides.
    let p = Position::from_fen_with("1n2k3/PP5P/8/8/8/8/pp5p/1N2K3 w - - 0 1", CastlingMode::Auto, Validation::Relaxed)
        .unwrap();
    for from in (0..64).map(Square::new) {
        for to in (0..64).map(Square::new) {
            for c in ['q', 'r', 'b', 'n', 'k', 'p', 'Q', 'K'] {
                let _ = p.explain_uci(&format!("{from}{to}{c}")).unwrap();
            }
        }
    }
}
