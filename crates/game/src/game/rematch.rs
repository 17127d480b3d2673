// SPDX-License-Identifier: GPL-3.0-or-later
//! The rematch of a finished game: offered, accepted or declined once the game is over (finished or aborted), until
//! one is agreed. Offering when the opponent has offered accepts; a computer opponent accepts at once. The new game
//! itself is the server's to create, on [`Event::RematchAgreed`].

use guoxiang_core::Color;

use crate::action::Action;
use crate::error::CommandError;
use crate::event::Event;
use crate::game::{Game, Source};

/// Who offered a rematch, and whether one was agreed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rematch {
    pub(crate) offer: Option<Color>,
    pub(crate) agreed: bool,
}

impl Rematch {
    /// `by`'s rematch action (offer, accept or decline); `engine_opponent` accepts any offer at once.
    fn act(&mut self, by: Color, action: &Action, engine_opponent: bool) -> Result<Event, CommandError> {
        if self.agreed {
            return Err(CommandError::RematchAgreed);
        }
        let offered_to_me = self.offer == Some(!by);
        match action {
            Action::RematchDecline => {
                if !offered_to_me {
                    return Err(CommandError::NoRematchOffer { by });
                }
                self.offer = None;
                Ok(Event::RematchDeclined { by })
            }
            Action::RematchAccept if !offered_to_me && !engine_opponent => Err(CommandError::NoRematchOffer { by }),
            Action::RematchOffer if self.offer == Some(by) => Err(CommandError::RematchAlreadyOffered { by }),
            Action::RematchOffer if !offered_to_me && !engine_opponent => {
                self.offer = Some(by);
                Ok(Event::RematchOffered { by })
            }
            _ => {
                self.offer = None;
                self.agreed = true;
                Ok(Event::RematchAgreed)
            }
        }
    }
}

impl Game {
    /// A rematch offer, acceptance or refusal (see the module documentation); not in a game still in play, nor in a
    /// tournament's.
    pub(crate) fn cmd_rematch(&mut self, by: Color, action: &Action, out: &mut Vec<Event>) -> Result<(), CommandError> {
        if !self.is_over() {
            return Err(CommandError::NotOver);
        }
        if self.source == Source::Tournament {
            return Err(CommandError::TournamentGame);
        }
        let engine_opponent = self.player(!by).is_engine;
        out.push(self.rematch.act(by, action, engine_opponent)?);
        Ok(())
    }

    /// The pending rematch offer, once the game is over.
    pub fn rematch_offer(&self) -> Option<Color> {
        self.rematch.offer
    }

    /// Whether a rematch was agreed (the server then creates it; no further rematch actions are taken).
    pub fn rematch_agreed(&self) -> bool {
        self.rematch.agreed
    }
}
