// SPDX-License-Identifier: GPL-3.0-or-later
//! How a game conducts its adjournment (see [`crate::adjourn`] for the steps and the Laws): calling it, the sealed
//! move, the resumption time, the session and the opening of the envelope; and the plain pause of the clocks without
//! a sealed move ([`Command::Adjourn`] and [`Command::Resume`], the arbiter's pause of 6.11), during which nothing
//! is charged and only resignations, the arbiter and presence are taken.

use guoxiang_clock::{ClockState, Timestamp};
use guoxiang_core::{Color, Outcome, Termination};

use crate::action::Action;
use crate::adjourn::{Adjournment, Judged, MAX_SEALED_TEXT, Proposal, SealedMove, judge};
use crate::error::CommandError;
use crate::event::Event;
use crate::game::{Command, Game, Status, side};

impl Game {
    /// The clocks are stopped: paused ([`Command::Adjourn`], the arbiter's pause), or a move is sealed and its
    /// session has not started.
    pub fn is_adjourned(&self) -> bool {
        self.adjourned_at.is_some()
    }

    /// The adjournment in progress (offered, called, sealed or resumed with the envelope closed). The sealed move's
    /// text is in it: a server must not show it to anyone before [`Event::SealedMoveOpened`].
    pub fn adjournment(&self) -> Option<&Adjournment> {
        self.adjournment.as_ref()
    }

    /// Whether `cmd` is taken while the game is adjourned: resignations, the arbiter's business, presence and
    /// time; with a sealed move also draw offers and the resumption time, settled during the adjournment (10.9).
    pub(crate) fn allowed_while_adjourned(&self, cmd: &Command) -> bool {
        let sealed = self.adjournment.as_ref().is_some_and(Adjournment::is_sealed);
        matches!(
            cmd,
            Command::Resume
                | Command::Adjourn
                | Command::Player { action: Action::Resign | Action::Abort | Action::CallArbiter { .. }, .. }
                | Command::Arbiter { .. }
                | Command::Tick
                | Command::Disconnected { .. }
                | Command::Reconnected { .. }
        ) || (sealed
            && matches!(
                cmd,
                Command::ScheduleResumption { .. }
                    | Command::Player {
                        action: Action::OfferDraw
                            | Action::AcceptDraw
                            | Action::DeclineDraw
                            | Action::ProposeResumption { .. },
                        ..
                    }
            ))
    }

    /// Restarts the clocks of a game adjourned without a sealed move (a pause); the time in between is charged to
    /// no one.
    pub(crate) fn resume_clocks(&mut self, now: Timestamp, out: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.adjournment.as_ref().is_some_and(Adjournment::is_sealed) {
            // A sealed game resumes at its resumption time, with the envelope.
            return Err(CommandError::SealedMovePending);
        }
        let Some(since) = self.adjourned_at else {
            return Err(CommandError::NotAdjourned);
        };
        if matches!(self.clock.state(), ClockState::Paused(_)) {
            self.clock.resume(now).map_err(|e| CommandError::Internal(e.to_string()))?;
        }
        // The first-move timer does not run during the adjournment either.
        self.turn_started_at = self.turn_started_at.plus_millis(now.millis_since(since));
        self.adjourned_at = None;
        out.push(Event::Resumed { clocks: self.clocks(now) });
        Ok(())
    }

    /// Stops the clocks (and the first-move timer) until [`Game::resume_clocks`].
    pub(crate) fn pause_clocks(&mut self, now: Timestamp, out: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.adjourned_at.is_some() {
            return Err(CommandError::AlreadyAdjourned);
        }
        if self.clock.state() != ClockState::NotStarted {
            self.clock.pause(now).map_err(|e| CommandError::Internal(e.to_string()))?;
        }
        self.adjourned_at = Some(now);
        out.push(Event::Adjourned { clocks: self.clocks(now) });
        Ok(())
    }

    /// An offer to adjourn (`by` a player: called once both have offered) or the arbiter's call (`by` none).
    pub(crate) fn call_adjournment(&mut self, by: Option<Color>, out: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.status != Status::Started || (by.is_some() && !self.config.rules.adjournment) {
            return Err(CommandError::AdjournmentNotAllowed);
        }
        let turn = self.turn();
        let a = self.adjournment.get_or_insert_with(Adjournment::default);
        if a.called || a.sealed.is_some() || a.resumed {
            // (Resumed: the last session's lateness rule still waits for a player.)
            return Err(CommandError::AlreadyAdjourned);
        }
        match by {
            Some(by) if a.offered_by == Some(by) => return Err(CommandError::AdjournmentAlreadyOffered { by }),
            Some(by) if a.offered_by.is_none() => {
                a.offered_by = Some(by);
                out.push(Event::AdjournmentOffered { by });
                return Ok(());
            }
            _ => {}
        }
        a.offered_by = None;
        a.called = true;
        out.push(Event::AdjournmentCalled { to_seal: turn });
        Ok(())
    }

    /// The player on move seals `text`: the clocks stop, the game is adjourned, the text is kept unread.
    pub(crate) fn cmd_seal(
        &mut self,
        now: Timestamp,
        by: Color,
        text: String,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if by != self.turn() {
            return Err(CommandError::NotYourTurn { by });
        }
        if !self.adjournment.as_ref().is_some_and(|a| a.called) {
            return Err(CommandError::AdjournmentNotCalled);
        }
        let text = text.trim().to_owned();
        if text.is_empty() || text.chars().count() > MAX_SEALED_TEXT {
            return Err(CommandError::BadMoveText {
                text,
                problem: format!("a sealed move is 1 to {MAX_SEALED_TEXT} characters"),
            });
        }
        if matches!(self.clock.state(), ClockState::Running(_)) {
            self.clock.pause(now).map_err(|e| CommandError::Internal(e.to_string()))?;
        }
        self.adjourned_at = Some(now);
        if let Some(a) = self.adjournment.as_mut() {
            a.called = false;
            a.sealed = Some(SealedMove { by, text, at: now });
        }
        self.touches.clear();
        out.push(Event::MoveSealed { by, clocks: self.clocks(now) });
        Ok(())
    }

    /// A resumption time proposed by a player (agreed when both propose the same) or set by the arbiter.
    pub(crate) fn schedule_resumption(
        &mut self,
        by: Option<Color>,
        at_ms: u64,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let Some(a) = self.adjournment.as_mut().filter(|a| a.sealed.is_some() && !a.resumed) else {
            return Err(CommandError::BadResumptionTime);
        };
        match by {
            Some(_) if at_ms <= now.as_millis() => return Err(CommandError::BadResumptionTime),
            Some(by) if a.proposal != Some(Proposal { by: !by, at_ms }) => {
                a.proposal = Some(Proposal { by, at_ms });
                out.push(Event::ResumptionProposed { by, at_ms });
                return Ok(());
            }
            _ => {}
        }
        a.proposal = None;
        a.resume_at_ms = Some(at_ms);
        out.push(Event::ResumptionScheduled { at_ms });
        Ok(())
    }

    /// The session of a game with a sealed move, before a command at `now`: it starts at the resumption time; the
    /// lateness rule applies after it; `cmd` tells who is at the board; the envelope is opened once the sealer's
    /// opponent is. True if the game ended.
    pub(crate) fn sealed_session(&mut self, now: Timestamp, cmd: &Command, out: &mut Vec<Event>) -> bool {
        let Some(a) = &self.adjournment else { return false };
        if !a.resumed {
            let Some(sealer) = a.sealed.as_ref().map(|s| s.by) else { return false };
            match a.resume_at_ms {
                Some(r) if now.as_millis() >= r => self.start_session(Timestamp(r), sealer, now, out),
                _ => return false,
            }
        }
        let Some(a) = &self.adjournment else { return false };
        let start = Timestamp(a.resume_at_ms.unwrap_or(0));
        // Article 10.15: a player more than the limit late loses. Both late: the arbiter decides (10.17).
        if now > start.plus_millis(self.config.late_limit_ms) {
            let late: Vec<Color> = Color::ALL.into_iter().filter(|c| !a.arrived[c.index()]).collect();
            if let [late] = late[..] {
                let t = Termination::LateArrival { late };
                let o = if self.position().can_mate(!late) { Outcome::win(!late, t) } else { Outcome::draw(t) };
                self.finish(now, o, out);
                return true;
            }
        }
        let here = match *cmd {
            Command::Player { by, .. } => Some(by),
            Command::Reconnected { who } => Some(who),
            _ => None,
        };
        if let (Some(c), Some(a)) = (here, self.adjournment.as_mut()) {
            a.arrived[c.index()] = true;
        }
        let Some(a) = &self.adjournment else { return false };
        if let Some(sealer) = a.sealed.as_ref().map(|s| s.by) {
            if a.arrived[(!sealer).index()] && self.open_envelope(now, out) {
                return true;
            }
        } else if a.arrived == [true, true] {
            // Opened, and both at the board: the adjournment is over.
            self.adjournment = None;
        }
        false
    }

    /// The session starts at `at`: the clocks run again, the sealed move's clock press is made at that instant, and
    /// the opponent's clock runs from then whether or not they are at the board (14.3).
    pub(crate) fn start_session(&mut self, at: Timestamp, sealer: Color, now: Timestamp, out: &mut Vec<Event>) {
        let at = at.max(self.adjourned_at.unwrap_or(at));
        if matches!(self.clock.state(), ClockState::Paused(_)) {
            let _ = self.clock.resume(at);
            // The press cannot flag: the sealer's time was stopped when the move was sealed.
            let _ = self.clock.press(side(sealer), at, 0);
        }
        self.adjourned_at = None;
        self.turn_started_at = at;
        let present = [self.disconnected[0].is_none(), self.disconnected[1].is_none()];
        if let Some(a) = self.adjournment.as_mut() {
            a.resumed = true;
            a.arrived = present;
        }
        out.push(Event::Resumed { clocks: self.clocks(now) });
    }

    /// Opens the envelope (the sealer's opponent is at the board, or the arbiter must decide a flag): the sealed move
    /// is played, or judged by 10.16. True if the game ended.
    pub(crate) fn open_envelope(&mut self, now: Timestamp, out: &mut Vec<Event>) -> bool {
        let Some(sealed) = self.adjournment.as_mut().and_then(|a| a.sealed.take()) else { return false };
        let by = sealed.by;
        match judge(self.position(), &sealed.text) {
            Judged::Legal(m) => {
                out.push(Event::SealedMoveOpened {
                    by,
                    text: sealed.text,
                    valid: true,
                    message_zh: "封棋着法合乎规则，已在棋盘上走出".to_owned(),
                    message_en: "The sealed move is legal and has been played".to_owned(),
                });
                // Kept while a player has yet to come (the lateness rule), dropped once both are here.
                if self.adjournment.as_ref().is_some_and(|a| a.arrived == [true, true]) {
                    self.adjournment = None;
                }
                let clock_ms = self.clock.remaining(side(by), now);
                // `play` fails only for an illegal move, and this one was checked legal.
                let played = self.play(now, by, m, clock_ms, 0, out);
                debug_assert!(played.is_ok(), "{played:?}");
            }
            Judged::Invalid(why) => {
                out.push(Event::SealedMoveOpened {
                    by,
                    text: sealed.text,
                    valid: false,
                    message_zh: why.zh,
                    message_en: why.en,
                });
                let t = Termination::SealedMove { sealer: by };
                let o = if self.position().can_mate(!by) { Outcome::win(!by, t) } else { Outcome::draw(t) };
                self.finish(now, o, out);
            }
        }
        self.is_over()
    }
}
