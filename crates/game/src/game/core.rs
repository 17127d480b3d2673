// SPDX-License-Identifier: GPL-3.0-or-later
//! The core of a game: where it is ([`Status`]), its moves ([`MoveRecord`]) with the clocks pressed for them, the
//! timeouts (a flag falling, a first move not made, the deadlines an actor schedules its ticks by), presence, and
//! how a game ends (a result, or cancelled without one). The other concerns (draws, takebacks, touch-move, illegal
//! moves, the adjournment, the arbiter, the rematch) are modules of their own over this core.

use guoxiang_clock::{ClockError, ClockState, Side, Timestamp};
use guoxiang_core::{Color, Move, Outcome, Termination};
use serde::{Deserialize, Serialize};

use crate::action::MoveInput;
use crate::adjourn::Adjournment;
use crate::error::CommandError;
use crate::event::Event;
use crate::game::{Command, Game, Source};
use crate::serde_util::{color, outcome};

/// Why a game was cancelled without a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AbortReason {
    /// `by` aborted before both players had moved.
    Player {
        #[serde(with = "color")]
        by: Color,
    },
    /// `side` did not make its first move within [`GameConfig::first_move_timeout_ms`](crate::GameConfig::first_move_timeout_ms).
    FirstMoveTimeout {
        #[serde(with = "color")]
        side: Color,
    },
}

impl AbortReason {
    pub fn code(&self) -> &'static str {
        match self {
            AbortReason::Player { .. } => "player",
            AbortReason::FirstMoveTimeout { .. } => "first_move_timeout",
        }
    }

    fn event(&self) -> Event {
        let (by, zh, en) = match *self {
            AbortReason::Player { by } => {
                (by, format!("{}取消了对局", by.name_zh()), format!("{} aborted the game", by.fold("White", "Black")))
            }
            AbortReason::FirstMoveTimeout { side } => (
                side,
                format!("{}没有按时走出第一步，对局取消", side.name_zh()),
                format!("{} did not make the first move in time; the game is aborted", side.fold("White", "Black")),
            ),
        };
        Event::Aborted { reason: self.code().to_owned(), by, message_zh: zh, message_en: en }
    }
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Fewer than two moves made: the clocks do not run yet and either player may abort.
    Created,
    /// Both players have moved; the clocks run.
    Started,
    /// Over, with a result.
    Finished {
        #[serde(with = "outcome")]
        outcome: Outcome,
    },
    /// Cancelled without a result.
    Aborted { reason: AbortReason },
}

/// A move's text (UCI or SAN, at most 8 bytes: `e7e8q`, `Qh4xe1+`), kept inline: a live game keeps one of each per
/// move, and a heap string each would be most of a move's memory. Serialized as a string.
pub type MoveText = arrayvec::ArrayString<8>;

/// `s` as a [`MoveText`]; longer text (which no move has) is cut at a character boundary.
pub fn move_text(s: &str) -> MoveText {
    let mut end = s.len().min(8);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    MoveText::from(&s[..end]).unwrap_or_default()
}

/// One move of the game, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    #[serde(with = "color")]
    pub by: Color,
    pub uci: MoveText,
    pub san: MoveText,
    /// When the move was made.
    pub at: Timestamp,
    /// The mover's remaining time right after the move (for the PGN `[%clk]` comment); `None` without a time
    /// limit.
    pub clock_ms: Option<u64>,
    /// Time taken on the move after lag credit; 0 for the untimed first moves.
    pub used_ms: u64,
}

pub(crate) fn side(c: Color) -> Side {
    c.fold(Side::White, Side::Black)
}

impl Game {
    /// When the player to move must have made the first move, before the clocks start.
    pub fn first_move_deadline(&self) -> Option<Timestamp> {
        (self.status == Status::Created).then(|| self.turn_started_at.plus_millis(self.config.first_move_timeout_ms))
    }

    /// The earliest time at which a [`Command::Tick`] could change something (a first-move timeout, or a flag
    /// falling for good with the lag grace), as seen at `now`; `None` when no timeout is pending (over, adjourned,
    /// no time limit). It may be `now` or earlier (a timeout is already due: tick now). The server's actor can
    /// schedule its next tick for then; ticking earlier is harmless, and with a simple delay the real flag time may
    /// be later (tick again and ask again).
    pub fn next_deadline(&self, now: Timestamp) -> Option<Timestamp> {
        if let Some(a) = &self.adjournment
            && a.is_sealed()
            && !a.resumed
        {
            // The session starts at the resumption time.
            return a.resume_at_ms.map(Timestamp);
        }
        if self.adjourned_at.is_some() {
            return None;
        }
        // After a resumption, the lateness limit for a player not yet at the board.
        let late = self
            .adjournment
            .as_ref()
            .filter(|a| a.resumed && a.arrived != [true, true])
            .and_then(|a| a.resume_at_ms.map(|r| Timestamp(r).plus_millis(self.config.late_limit_ms + 1)));
        let flag = self.flag_deadline(now);
        match (late, flag) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    pub(crate) fn flag_deadline(&self, now: Timestamp) -> Option<Timestamp> {
        match self.status {
            Status::Created => Some(self.turn_started_at.plus_millis(self.config.first_move_timeout_ms + 1)),
            Status::Started => {
                let running = self.clock.running()?;
                let left = self.clock.remaining(running, now)?;
                let grace = self.lag[running_color(running).index()].reserve_ms();
                let flag_time = if left > 0 {
                    now.plus_millis(left)
                } else {
                    // Already at zero: find when it got there (remaining time never goes up while a clock runs).
                    let (mut lo, mut hi) = (0, now.as_millis());
                    while lo < hi {
                        let mid = lo + (hi - lo) / 2;
                        if self.clock.remaining(running, Timestamp(mid)) == Some(0) { hi = mid } else { lo = mid + 1 }
                    }
                    Timestamp(lo)
                };
                Some(flag_time.plus_millis(grace))
            }
            _ => None,
        }
    }

    /// From when `by` may claim victory because the opponent is disconnected (`None` while the opponent is
    /// connected or the game is not in play).
    pub fn victory_claimable_at(&self, by: Color) -> Option<Timestamp> {
        if self.status != Status::Started {
            return None;
        }
        Some(self.disconnected[(!by).index()]?.plus_millis(self.config.disconnect_timeout_ms))
    }

    /// Records a presence update (other commands are ignored).
    pub(crate) fn presence(&mut self, cmd: &Command, out: &mut Vec<Event>) {
        match *cmd {
            Command::Disconnected { who, since } => {
                if self.disconnected[who.index()].is_none() {
                    out.push(Event::PlayerDisconnected { who });
                }
                self.disconnected[who.index()].get_or_insert(since);
            }
            Command::Reconnected { who } if self.disconnected[who.index()].take().is_some() => {
                out.push(Event::PlayerReconnected { who });
            }
            _ => {}
        }
    }

    /// Applies the timeouts due at `now`; true if the game ended. The flag check allows for the whole lag reserve,
    /// so a move it lets through may still fail its own press (with the credit the move actually gets), never the
    /// other way round.
    pub(crate) fn timeouts(&mut self, now: Timestamp, out: &mut Vec<Event>) -> bool {
        let turn = self.turn();
        match self.status {
            Status::Created => {
                if now > self.turn_started_at.plus_millis(self.config.first_move_timeout_ms) {
                    self.abort(AbortReason::FirstMoveTimeout { side: turn }, out);
                    return true;
                }
                false
            }
            Status::Started => {
                let Some(running) = self.clock.running() else { return false };
                let color = running_color(running);
                // Flag only once even the whole lag reserve could not save the player's next move.
                let grace = self.lag[color.index()].reserve_ms();
                let at = Timestamp(now.as_millis().saturating_sub(grace));
                if self.clock.flag_fall(now).is_some() && self.clock.remaining(running, at) == Some(0) {
                    self.flag(now, color, out);
                    return true;
                }
                false
            }
            _ => false,
        }
    }

    pub(crate) fn flag(&mut self, now: Timestamp, color: Color, out: &mut Vec<Event>) {
        // The flag of the sealer's opponent fell before they came: the envelope is opened to decide (an invalid
        // sealed move loses first).
        if self.adjournment.as_ref().is_some_and(Adjournment::awaiting_opening) && self.open_envelope(now, out) {
            return;
        }
        let o = Outcome::time_forfeit(self.position(), color);
        self.finish(now, o, out);
    }

    pub(crate) fn finish(&mut self, now: Timestamp, o: Outcome, out: &mut Vec<Event>) {
        self.clock.stop(now);
        self.status = Status::Finished { outcome: o };
        self.draw.pending = None;
        self.takeback_offer = None;
        self.adjourned_at = None;
        self.adjournment = None;
        self.arbiter.dispute = None;
        out.push(Event::game_ended(&o, self.clocks(now)));
    }

    pub(crate) fn abort(&mut self, reason: AbortReason, out: &mut Vec<Event>) {
        self.status = Status::Aborted { reason };
        self.draw.pending = None;
        self.takeback_offer = None;
        self.adjourned_at = None;
        self.adjournment = None;
        out.push(reason.event());
    }

    pub(crate) fn cmd_move(
        &mut self,
        now: Timestamp,
        by: Color,
        mv: &MoveInput,
        offer_draw: bool,
        lag_ms: u64,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if by != self.turn() {
            return Err(CommandError::NotYourTurn { by });
        }
        if self.adjournment.as_ref().is_some_and(Adjournment::awaiting_opening) {
            return Err(CommandError::SealedMovePending);
        }
        let m = match mv.resolve(self.position()) {
            Ok(m) => m,
            Err(e @ CommandError::IllegalMove { .. }) => return self.illegal_move(now, by, mv, e, out),
            Err(e) => return Err(e),
        };
        self.check_touch_obligation(m)?;
        if offer_draw {
            self.draw.check(by)?;
        }
        if !self.timed_move(now, by, m, lag_ms, out)? {
            return Ok(());
        }
        if offer_draw && !self.is_over() {
            out.push(self.draw.offer(by));
        }
        Ok(())
    }

    /// Presses the clock for `by`'s legal move `m` and plays it. `Ok(false)` if the flag had fallen: the game is then
    /// over and the move not played.
    pub(crate) fn timed_move(
        &mut self,
        now: Timestamp,
        by: Color,
        m: Move,
        lag_ms: u64,
        out: &mut Vec<Event>,
    ) -> Result<bool, CommandError> {
        let mut reserve = self.lag[by.index()];
        let press = match self.clock.state() {
            ClockState::Running(_) => {
                let credit = reserve.credit(lag_ms);
                match self.clock.press(side(by), now, credit) {
                    Ok(p) => Some(p),
                    Err(ClockError::Flagged { .. }) => {
                        self.flag(now, by, out);
                        return Ok(false);
                    }
                    Err(e) => return Err(CommandError::Internal(e.to_string())),
                }
            }
            _ => None,
        };
        if press.is_some() {
            self.lag[by.index()] = reserve;
        }
        let clock_ms = match press {
            Some(p) => p.remaining_ms,
            None => self.clock.remaining(side(by), now),
        };
        self.play(now, by, m, clock_ms, press.map_or(0, |p| p.used_ms), out)?;
        Ok(true)
    }

    pub(crate) fn play(
        &mut self,
        now: Timestamp,
        by: Color,
        m: Move,
        clock_ms: Option<u64>,
        used_ms: u64,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let pos = self.position();
        let (uci, san) = (pos.uci(m), pos.san(m));
        let automatic = self.state.play(m).map_err(|e| CommandError::Internal(e.to_string()))?;
        self.moves.push(MoveRecord { by, uci: move_text(&uci), san: move_text(&san), at: now, clock_ms, used_ms });
        self.touches.clear();
        self.last_move_at[by.index()] = Some(now);
        self.turn_started_at = now;
        if self.status == Status::Created && self.moves.len() >= 2 {
            // Both first moves made (untimed): the clocks start now, lichess style.
            self.clock.start_with(side(self.turn()), now).map_err(|e| CommandError::Internal(e.to_string()))?;
            self.status = Status::Started;
        }
        out.push(Event::MoveMade {
            by,
            uci,
            san,
            fen: self.position().fen(),
            ply: self.moves.len() as u32,
            clocks: self.clocks(now),
        });
        if self.draw.pending == Some(!by) {
            // Making a move declines the opponent's offer.
            out.push(self.draw.decline(by));
        }
        if self.takeback_offer.take().is_some() {
            out.push(Event::TakebackCancelled);
        }
        // A pawn war (`first_promotion`): a promotion wins unless the move has already ended the game otherwise.
        let automatic = automatic.or_else(|| {
            (self.config.rules.first_promotion && m.promotion_role().is_some())
                .then_some(Outcome { winner: Some(by), termination: Termination::Promotion })
        });
        if let Some(o) = automatic {
            self.finish(now, o, out);
        }
        Ok(())
    }

    pub(crate) fn cmd_claim_victory(
        &mut self,
        now: Timestamp,
        by: Color,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if self.status == Status::Created {
            return Err(CommandError::NotStarted);
        }
        let Some(since) = self.disconnected[(!by).index()] else {
            return Err(CommandError::OpponentConnected { by });
        };
        let gone = now.millis_since(since);
        if gone < self.config.disconnect_timeout_ms {
            return Err(CommandError::ClaimTooEarly { by, remaining_ms: self.config.disconnect_timeout_ms - gone });
        }
        let o = if self.position().can_mate(by) {
            Outcome::win(by, Termination::Abandoned)
        } else {
            Outcome::draw(Termination::Abandoned)
        };
        self.finish(now, o, out);
        Ok(())
    }

    /// `by` aborts the game, which only a game before both first moves allows.
    pub(crate) fn cmd_abort(&mut self, by: Color, out: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.status != Status::Created {
            return Err(CommandError::CannotAbort);
        }
        // A paired game is played or forfeited (the first-move timeout aborts it, and the tournament scores the
        // player who did not move as absent); a player cannot call it off.
        if self.source == Source::Tournament {
            return Err(CommandError::TournamentGame);
        }
        self.abort(AbortReason::Player { by }, out);
        Ok(())
    }
}

fn running_color(s: Side) -> Color {
    match s {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}
