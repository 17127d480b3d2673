//! Adjournment with a sealed move, as the Laws describe it for games played over more than one session (Articles
//! 10.15–10.16 and 13–14 of the older Laws the seeds quote; the Guidelines on adjourned games in the current ones),
//! with the server as the arbiter who keeps the envelope:
//!
//! 1. The adjournment is **called**: both players agree (`adjourn_offer` from each), or the arbiter or host calls it
//!    ([`Command::CallAdjournment`]). Only games whose rule set allows it
//!    ([`Rules::adjournment`](crate::Rules::adjournment)).
//! 2. The player on move **seals** a move (`seal`): the text as written, SAN (Chinese piece letters too) or UCI, kept
//!    secret from the opponent and spectators and *not* checked now. The clocks stop; the sealer's time counts up to
//!    the seal.
//! 3. A **resumption time** is agreed (one proposes, the other proposes the same time or accepts) or set by the
//!    arbiter ([`Command::ScheduleResumption`]). It is a wall-clock appointment
//!    (Unix milliseconds on the server's scale), not moved when the game is restored after a restart.
//! 4. At the resumption time the session starts: the clock of the player who must answer the sealed move runs. The
//!    envelope is opened when that player is present (14.2–14.3): the move is played, or judged by 10.16 — an
//!    ambiguous, false (unreadable) or illegal sealed move loses the game for the sealer (drawn if the opponent cannot
//!    checkmate by any series of legal moves: a side that cannot mate cannot win, 10.5); a mate wins; stalemate or a
//!    dead position draws.
//! 5. A player more than [`GameConfig::late_limit_ms`](crate::GameConfig::late_limit_ms) (one hour) late for the
//!    session loses (10.15). When the sealer is the late one, the envelope has been opened in the opponent's presence,
//!    so a sealed mate has already won and a sealed stalemate already drawn; if the present player's flag falls first,
//!    that player loses on time. If both are late, nothing is decided automatically: it is the arbiter's call (10.17
//!    scores both as losses, which a single result cannot say).
//! 6. While the game is adjourned either player may resign or offer a draw (agreed, it ends the game unopened). A draw
//!    offered by the sealer stands until the opponent has seen the sealed move and moved (10.9).
//!
//! The same module keeps the plain stop of the clocks without a sealed move ([`Command::Adjourn`] and
//! [`Command::Resume`], the arbiter's pause of 6.11): nothing is charged in between, and only resignations, the
//! arbiter and presence are taken meanwhile.

use guoxiang_clock::{ClockState, Timestamp};
use guoxiang_core::{Color, Move, Outcome, Position, Termination, Text, UciMove};
use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::error::CommandError;
use crate::event::Event;
use crate::game::{Command, Game, Status, side};
use crate::serde_util::{color, opt_color};

/// The sealed move in its envelope.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedMove {
    /// The sealer: the player who was on move.
    #[serde(with = "color")]
    pub by: Color,
    /// The move as written (at most [`MAX_SEALED_TEXT`] characters).
    pub text: String,
    /// When it was sealed.
    pub at: Timestamp,
}

/// The longest sealed move text taken (a SAN move is at most 7 characters, UCI 5; room for annotations and Chinese
/// piece letters).
pub const MAX_SEALED_TEXT: usize = 16;

/// An adjournment in progress, from the first offer to the opening of the envelope.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjournment {
    /// A player's offer to adjourn, until the other agrees.
    #[serde(default, with = "opt_color", skip_serializing_if = "Option::is_none")]
    pub offered_by: Option<Color>,
    /// Called (agreed, or by the arbiter): the player on move must seal.
    #[serde(default)]
    pub called: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sealed: Option<SealedMove>,
    /// A resumption time one player proposed (Unix ms), until the other agrees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposal: Option<Proposal>,
    /// The resumption time (Unix ms on the server's scale), agreed or set by the arbiter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_at_ms: Option<u64>,
    /// The session has started: the clocks run again and the envelope waits for the sealer's opponent.
    #[serde(default)]
    pub resumed: bool,
    /// `[white, black]`: present at the board since the session started (for the lateness rule).
    #[serde(default)]
    pub arrived: [bool; 2],
}

/// A proposed resumption time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    #[serde(with = "color")]
    pub by: Color,
    pub at_ms: u64,
}

impl Adjournment {
    /// Sealed, and the envelope not opened yet.
    pub fn is_sealed(&self) -> bool {
        self.sealed.is_some()
    }

    /// The session has started and the envelope waits to be opened.
    pub fn awaiting_opening(&self) -> bool {
        self.resumed && self.sealed.is_some()
    }
}

/// What the sealed text turns out to be when the envelope is opened (10.16).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// A legal move.
    Legal(Move),
    /// Ambiguous, false or illegal: why, in zh and en.
    Invalid(Text),
}

/// Reads the sealed `text` in `pos`: UCI first (`e2e4`), then SAN, leniently (Chinese piece letters, `0-0`, missing
/// `+`). Several moves matching is "ambiguous"; text that is no move is "false"; a move that is not legal, "illegal".
pub fn judge(pos: &Position, text: &str) -> Judged {
    let t = text.trim();
    if let Ok(u) = UciMove::parse(t) {
        return match u.to_move(pos) {
            Ok(m) => Judged::Legal(m),
            Err(_) => Judged::Invalid(Text {
                zh: format!("封棋着法 {t} 不合规则"),
                en: format!("the sealed move {t} is illegal"),
            }),
        };
    }
    match pos.parse_san(t) {
        Ok(m) => Judged::Legal(m),
        Err(e) => {
            let why = e.text();
            let (zh, en) = match e {
                guoxiang_core::SanError::Ambiguous { .. } => ("模棱两可", "ambiguous"),
                guoxiang_core::SanError::Parse(_) => ("无法成立的虚假之着", "false (not a move)"),
                guoxiang_core::SanError::Illegal { .. } => ("不合规则", "illegal"),
            };
            Judged::Invalid(Text {
                zh: format!("封棋着法 {t} {zh}：{}", why.zh),
                en: format!("the sealed move {t} is {en}: {}", why.en),
            })
        }
    }
}

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
