// SPDX-License-Identifier: GPL-3.0-or-later
//! Touch-move games (Articles 4.2–4.3, [`Rules::touch_move`](crate::Rules::touch_move)): the player on move
//! touches pieces (`touch`) or adjusts one (`adjust`, 摆正); the touches of the turn oblige a move
//! ([`Obligation`]), which a move must honour. The touches are cleared by every move and by sealing one.

use guoxiang_core::{Color, Move, Square};

use crate::error::CommandError;
use crate::event::Event;
use crate::game::Game;
use crate::rules::{Obligation, Touch};

impl Game {
    /// Touch-move: the pieces the player on move has touched this turn, in order.
    pub fn touches(&self) -> &[Touch] {
        &self.touches
    }

    /// What the touches of this turn oblige the player on move to play.
    pub fn obligation(&self) -> Obligation {
        Obligation::of(self.position(), &self.touches)
    }

    /// A touch (or, with `adjust`, "I adjust" and an adjustment) of the piece on `square` by the player on move.
    pub(crate) fn cmd_touch(
        &mut self,
        by: Color,
        square: &str,
        adjust: bool,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if !self.config.rules.touch_move {
            return Err(CommandError::TouchMoveOff);
        }
        if by != self.turn() {
            // Only the player having the move touches with intent, or adjusts (Articles 4.2.1 and 4.3).
            return Err(CommandError::NotYourTurn { by });
        }
        let nothing = || CommandError::NothingToTouch { square: square.to_owned() };
        let sq = Square::parse(square).ok_or_else(nothing)?;
        let piece = self.position().piece_at(sq).ok_or_else(nothing)?;
        let square = sq.to_string();
        if adjust {
            out.push(Event::PieceAdjusted { by, square });
            return Ok(());
        }
        if self.touches.iter().any(|t| t.square == sq) {
            return Ok(());
        }
        self.touches.push(Touch { square: sq, piece });
        let o = self.obligation();
        let (message_zh, message_en) = o.text();
        out.push(Event::PieceTouched { by, square, binding: o.binds(), message_zh, message_en });
        Ok(())
    }

    /// In a touch-move game, whether the move `m` honours the touches of the turn (refused with what they oblige).
    #[inline]
    pub(crate) fn check_touch_obligation(&self, m: Move) -> Result<(), CommandError> {
        if self.config.rules.touch_move {
            let o = self.obligation();
            if !o.allows(self.position(), m) {
                let (zh, en) = o.text();
                return Err(CommandError::TouchMove { zh, en });
            }
        }
        Ok(())
    }

    /// After `by`'s illegal move from `from` to `to` was taken back (7.5.1): Article 4.3 applies to the move that
    /// replaces it — the piece moved, and the piece it took, count as touched.
    pub(crate) fn touch_after_illegal(&mut self, by: Color, from: Square, to: Square) {
        if !self.config.rules.touch_move {
            return;
        }
        for sq in [from, to] {
            if let Some(piece) = self.position().piece_at(sq)
                && !self.touches.iter().any(|t| t.square == sq)
                && (sq == from || piece.color != by)
            {
                self.touches.push(Touch { square: sq, piece });
            }
        }
    }
}
