// SPDX-License-Identifier: GPL-3.0-or-later
//! Takebacks (casual games only, never in a tournament's): a player asks to take back their last move (and the
//! opponent's reply); the opponent accepts or declines, and a move made meanwhile cancels the request.

use guoxiang_clock::Timestamp;
use guoxiang_core::Color;

use crate::error::CommandError;
use crate::event::Event;
use crate::game::{Game, MAX_TAKEBACK_PLIES, Source, Status, side};

impl Game {
    /// The player whose takeback request is pending.
    pub fn takeback_offer(&self) -> Option<Color> {
        self.takeback_offer
    }

    /// Plies to undo so that it is `by`'s turn again, if `by` has a move to take back.
    fn takeback_plies(&self, by: Color) -> Option<usize> {
        let n = if self.turn() == by { MAX_TAKEBACK_PLIES } else { 1 };
        (self.moves.len() >= n).then_some(n)
    }

    pub(crate) fn cmd_takeback_offer(
        &mut self,
        now: Timestamp,
        by: Color,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if self.source == Source::Tournament {
            return Err(CommandError::TournamentGame);
        }
        if self.rated {
            return Err(CommandError::TakebackInRated);
        }
        if self.takeback_offer == Some(!by) {
            return self.takeback(now, !by, out);
        }
        if self.takeback_offer == Some(by) {
            return Err(CommandError::TakebackAlreadyOffered { by });
        }
        if self.takeback_plies(by).is_none() {
            return Err(CommandError::NothingToTakeBack { by });
        }
        self.takeback_offer = Some(by);
        out.push(Event::TakebackOffered { by });
        Ok(())
    }

    /// Takes back `requester`'s last move (and the opponent's reply, if any). The remaining times stay as they are;
    /// the requester's clock runs from `now`.
    fn takeback(&mut self, now: Timestamp, requester: Color, out: &mut Vec<Event>) -> Result<(), CommandError> {
        let Some(n) = self.takeback_plies(requester) else {
            return Err(CommandError::NothingToTakeBack { by: requester });
        };
        let timed = self.moves.len() - n >= 2;
        // The turn in progress is charged up to now (no bonus, not a move); both times then stay as they are.
        let mut clock = self.clock.clone();
        clock.hand_over(timed.then_some(side(requester)), now);
        for _ in 0..n {
            self.state.undo();
            if let Some(r) = self.moves.pop() {
                self.last_move_at[r.by.index()] = None;
            }
        }
        for r in &self.moves {
            self.last_move_at[r.by.index()] = Some(r.at);
        }
        self.clock = clock;
        self.touches.clear();
        self.takeback_offer = None;
        self.draw.pending = None;
        self.turn_started_at = now;
        self.status = if timed { Status::Started } else { Status::Created };
        out.push(Event::TakebackDone { plies: n as u32, fen: self.position().fen(), clocks: self.clocks(now) });
        Ok(())
    }

    /// `by` accepts the opponent's takeback request.
    pub(crate) fn cmd_takeback_accept(
        &mut self,
        now: Timestamp,
        by: Color,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if self.takeback_offer != Some(!by) {
            return Err(CommandError::NoTakebackOffer { by });
        }
        self.takeback(now, !by, out)
    }

    /// `by` declines the opponent's takeback request.
    pub(crate) fn cmd_takeback_decline(&mut self, by: Color, out: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.takeback_offer != Some(!by) {
            return Err(CommandError::NoTakebackOffer { by });
        }
        self.takeback_offer = None;
        out.push(Event::TakebackDeclined { by });
        Ok(())
    }
}
