//! guoxiang-core: the rules of chess under the FIDE Laws — board, legal moves, FEN, notation and game endings.
//!
//! No I/O lives here. The engine uses [`Position::play_unchecked`] and the move generator in its hot loop; everything
//! facing people goes through the checked [`Position::play`] and the parsers, which return errors that say what was
//! wrong and where.
//!
//! | module | what lives there |
//! |---|---|
//! | `types`, `bitboard`, `attacks` | squares, pieces, bitboards, compile-time attack tables |
//! | `position`, `movegen`, `zobrist` | the position, making moves, legal move generation, hashing |
//! | `fen` | FEN/X-FEN/Shredder-FEN reading, validation, writing |
//! | `uci` | UCI move notation |

pub mod attacks;
pub mod bitboard;
pub mod explain;
pub mod fen;
pub mod lang;
pub mod movegen;
pub mod mv;
pub mod outcome;
pub mod position;
pub mod san;
pub mod suite;
pub mod types;
pub mod uci;
mod zobrist;

pub use bitboard::Bitboard;
pub use explain::{Explanation, PlacedPiece, Reason};
pub use fen::{CastlingMode, FenError, ParseFenError, PositionError, STARTING_FEN, Setup, SetupProblem, Validation};
pub use lang::{Lang, Text};
pub use movegen::{MovesKind, PieceMoves, perft, perft_divide, perft_full};
pub use mv::{MAX_MOVES, Move, MoveList};
pub use outcome::{
    Checkpoint, ClaimError, ClaimKind, DEFAULT_MATE_BUDGET, DeadReason, GameError, GameState, MateAbility, MateVerdict,
    Outcome, Termination,
};
pub use position::{PlayError, Position};
pub use san::{
    CastlingSide, ParseSanError, ParseSanErrorKind, San, SanError, SanPlus, SanStyle, Suffix, movetext, try_movetext,
};
pub use types::{Color, File, Piece, Rank, Role, Square};
pub use uci::{IllegalUci, ParseUciError, UciMove};
