//! UCI move notation (`e2e4`, `e7e8q`, `e1g1` or Chess960's king-takes-rook `e1h1`, `0000`).
//!
//! [`UciMove`] is syntax only and parses without a board; [`UciMove::to_move`] resolves it against a position and
//! fails with [`IllegalUci`] when the move is not legal there.

use crate::mv::Move;
use crate::position::Position;
use crate::types::{Role, Square};
use core::fmt;

/// A move as written in UCI, not yet checked against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    Normal {
        from: Square,
        to: Square,
        promotion: Option<Role>,
    },
    /// `0000`, the null move.
    Null,
}

/// Text that is not a UCI move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseUciError {
    pub text: String,
    pub problem: &'static str,
}

impl fmt::Display for ParseUciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a UCI move: {}", self.text, self.problem)
    }
}

impl std::error::Error for ParseUciError {}

/// A well-formed UCI move that is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalUci {
    pub uci: UciMove,
    pub fen: String,
}

impl fmt::Display for IllegalUci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a legal move in {}", self.uci, self.fen)
    }
}

impl std::error::Error for IllegalUci {}

impl UciMove {
    pub fn parse(s: &str) -> Result<UciMove, ParseUciError> {
        let e = |problem| ParseUciError { text: s.chars().take(20).collect(), problem };
        if s == "0000" {
            return Ok(UciMove::Null);
        }
        if !s.is_ascii() {
            return Err(e("only ASCII letters and digits are allowed"));
        }
        if s.len() != 4 && s.len() != 5 {
            return Err(e("expected 4 or 5 characters, like e2e4 or e7e8q"));
        }
        let from = Square::parse(&s[0..2]).ok_or_else(|| e("the first two characters are not a square"))?;
        let to = Square::parse(&s[2..4]).ok_or_else(|| e("characters 3–4 are not a square"))?;
        if from == to {
            return Err(e("from and to are the same square"));
        }
        let promotion = match s.as_bytes().get(4) {
            None => None,
            Some(&b) => match Role::from_char(b as char) {
                Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) if b.is_ascii_lowercase() => Some(r),
                _ => return Err(e("the promotion letter must be one of q, r, b, n")),
            },
        };
        Ok(UciMove::Normal { from, to, promotion })
    }

    /// Resolves against a position. Castling is accepted as the king's two-square move (`e1g1`) and as king takes
    /// rook (`e1h1`), in either castling mode.
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalUci> {
        let illegal = || IllegalUci { uci: *self, fen: pos.fen() };
        let UciMove::Normal { from, to, promotion } = *self else {
            return Err(illegal());
        };
        pos.legal_moves_from(from)
            .iter()
            .copied()
            .find(|&m| {
                m.promotion_role() == promotion
                    && (m.to() == to || (m.is_castle() && m.king_to() == to && !pos.is_chess960()))
            })
            .ok_or_else(illegal)
    }

    /// The UCI form of a move in a position: king's two-square move for standard castling, king takes rook in
    /// Chess960 mode.
    pub fn from_move(m: Move, chess960: bool) -> UciMove {
        let to = if m.is_castle() && !chess960 { m.king_to() } else { m.to() };
        UciMove::Normal { from: m.from(), to, promotion: m.promotion_role() }
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMove::Null => f.write_str("0000"),
            UciMove::Normal { from, to, promotion } => {
                write!(f, "{from}{to}")?;
                if let Some(r) = promotion {
                    write!(f, "{}", r.char())?;
                }
                Ok(())
            }
        }
    }
}

impl core::str::FromStr for UciMove {
    type Err = ParseUciError;
    fn from_str(s: &str) -> Result<UciMove, ParseUciError> {
        UciMove::parse(s)
    }
}

impl Position {
    /// The move in UCI notation for this position's castling mode.
    pub fn uci(&self, m: Move) -> String {
        UciMove::from_move(m, self.chess960).to_string()
    }

    /// Parses and resolves a UCI move; the error says whether the text or the move was wrong.
    pub fn parse_uci(&self, s: &str) -> Result<Move, String> {
        let u = UciMove::parse(s).map_err(|e| e.to_string())?;
        u.to_move(self).map_err(|e| e.to_string())
    }
}
