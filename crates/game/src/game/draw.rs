// SPDX-License-Identifier: GPL-3.0-or-later
//! Draws by agreement and by claim: offers (Article 9.1.2; on the opponent's turn, or with one's own move), their
//! acceptance and refusal with the re-offer rule (see `docs/game.md`), and claims of a threefold repetition or of
//! fifty moves (9.2, 9.3), an incorrect one answered by more time for the opponent (9.5.3).

use guoxiang_clock::Timestamp;
use guoxiang_core::{ClaimError, ClaimKind, Color, Outcome, Termination};

use crate::action::MoveInput;
use crate::error::CommandError;
use crate::event::Event;
use crate::game::{Game, side};

/// The draw offers of a game: the pending one, and who may offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DrawOffers {
    /// The player whose offer is pending.
    pub(crate) pending: Option<Color>,
    /// `[white, black]`: whether the player may offer a draw (the re-offer rule).
    pub(crate) may_offer: [bool; 2],
}

impl Default for DrawOffers {
    fn default() -> DrawOffers {
        DrawOffers { pending: None, may_offer: [true, true] }
    }
}

impl DrawOffers {
    /// Whether `by` may offer a draw now: no offer of theirs pending, and not barred by the re-offer rule.
    pub(crate) fn check(&self, by: Color) -> Result<(), CommandError> {
        if self.pending == Some(by) {
            return Err(CommandError::DrawAlreadyOffered { by });
        }
        if !self.may_offer[by.index()] {
            return Err(CommandError::ReofferNotAllowed { by });
        }
        Ok(())
    }

    /// `by` offers a draw.
    pub(crate) fn offer(&mut self, by: Color) -> Event {
        self.pending = Some(by);
        // The opponent has now seen an offer: they may offer again even if theirs was declined before.
        self.may_offer[(!by).index()] = true;
        Event::DrawOffered { by }
    }

    /// `by` declines the opponent's offer (by saying so, or by moving).
    pub(crate) fn decline(&mut self, by: Color) -> Event {
        self.pending = None;
        self.may_offer[(!by).index()] = false;
        Event::DrawDeclined { by }
    }
}

impl Game {
    /// The player whose draw offer is pending.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw.pending
    }

    /// Whether `color` may offer a draw now as far as the re-offer rule goes.
    pub fn may_offer_draw(&self, color: Color) -> bool {
        self.draw.may_offer[color.index()]
    }

    /// The draws the player to move could claim right now without a move (Articles 9.2 and 9.3); empty when the
    /// game is not in play.
    pub fn claimable_draws(&self) -> Vec<ClaimKind> {
        if self.is_over() { Vec::new() } else { self.state.claimable() }
    }

    /// `by` offers a draw (on the opponent's turn; with a move see [`Action::Move`](crate::Action::Move)), which
    /// accepts the opponent's pending offer.
    pub(crate) fn cmd_offer_draw(
        &mut self,
        now: Timestamp,
        by: Color,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if self.draw.pending == Some(!by) {
            self.finish(now, Outcome::draw(Termination::Agreement), out);
            return Ok(());
        }
        // The sealer has made a move by sealing it: an offer now is one made with the move (10.9).
        let sealer = self.adjournment.as_ref().and_then(|a| a.sealed.as_ref()).map(|s| s.by);
        if self.turn() == by && sealer != Some(by) {
            return Err(CommandError::OfferWithMove { by });
        }
        self.draw.check(by)?;
        out.push(self.draw.offer(by));
        Ok(())
    }

    /// `by` accepts the opponent's draw offer.
    pub(crate) fn cmd_accept_draw(
        &mut self,
        now: Timestamp,
        by: Color,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if self.draw.pending != Some(!by) {
            return Err(CommandError::NoDrawOffer { by });
        }
        self.finish(now, Outcome::draw(Termination::Agreement), out);
        Ok(())
    }

    /// `by` declines the opponent's draw offer.
    pub(crate) fn cmd_decline_draw(&mut self, by: Color, out: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.draw.pending != Some(!by) {
            return Err(CommandError::NoDrawOffer { by });
        }
        out.push(self.draw.decline(by));
        Ok(())
    }

    /// `by` claims a draw (9.2, 9.3), about the position or with the move `intended`: upheld, the game is drawn;
    /// incorrect, the opponent gets more time (9.5.3) and the intended move, if any, is played.
    pub(crate) fn cmd_claim(
        &mut self,
        now: Timestamp,
        by: Color,
        kind: ClaimKind,
        intended: Option<&MoveInput>,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if by != self.turn() {
            return Err(CommandError::NotYourTurn { by });
        }
        let m = intended.map(|i| i.resolve(self.position())).transpose()?;
        match self.state.claim(kind, m) {
            Ok(o) => {
                self.finish(now, o, out);
                Ok(())
            }
            Err(e @ (ClaimError::NotRepeated { .. } | ClaimError::NotFiftyMoves { .. })) => {
                // Article 9.5.3: two minutes to the opponent; the intended move, if any, must be played.
                let before = self.clock.remaining(side(!by), now);
                self.clock.add_time(side(!by), self.config.claim_penalty_ms);
                let after = self.clock.remaining(side(!by), now);
                let text = e.text();
                out.push(Event::DrawClaimRejected {
                    by,
                    kind: kind.termination(by).code().to_owned(),
                    penalty_ms: after.unwrap_or(0).saturating_sub(before.unwrap_or(0)),
                    message_zh: text.zh,
                    message_en: text.en,
                });
                out.push(Event::ClockUpdate { clocks: self.clocks(now) });
                if let Some(m) = m {
                    self.timed_move(now, by, m, 0, out)?;
                }
                Ok(())
            }
            Err(ClaimError::IllegalMove { uci, .. }) => {
                Err(CommandError::IllegalMove { mv: uci, fen: self.position().fen() })
            }
            Err(ClaimError::GameOver(o)) => Err(CommandError::GameOver(o)),
        }
    }
}
