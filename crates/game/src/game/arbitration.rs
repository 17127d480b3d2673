// SPDX-License-Identifier: GPL-3.0-or-later
//! How a game takes its arbiters' acts (see [`crate::arbiter`] for the acts and the Laws): each carried out, recorded
//! with the arbiter's name and announced; and the players' calls of the arbiter, which wait for a decision.

use guoxiang_clock::Timestamp;
use guoxiang_core::{Color, Outcome, Termination};

use crate::arbiter::{
    ArbiterAct, ArbiterRecord, ArbiterRef, Dispute, MAX_ADDED_MS, MAX_RULING_TEXT, duration_text, parse_result,
    ruling_text,
};
use crate::error::CommandError;
use crate::event::Event;
use crate::game::{Game, Status, side};

/// A game's business with its arbiters: the claim or dispute waiting for a decision, and what they did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Arbitration {
    /// A claim or dispute a player brought to the arbiter, until decided.
    pub(crate) dispute: Option<Dispute>,
    /// What the arbiters did, in order (for the snapshot and the PGN).
    pub(crate) log: Vec<ArbiterRecord>,
}

/// What an act did, in zh and en (the record's and the announcement's words).
type Said = (String, String);

fn bad(zh: &str, en: &str) -> CommandError {
    CommandError::BadRuling { zh: zh.to_owned(), en: en.to_owned() }
}

fn missing_reason() -> CommandError {
    bad(
        &format!("请写明理由（1至{MAX_RULING_TEXT}个字）"),
        &format!("write the reason (1 to {MAX_RULING_TEXT} characters)"),
    )
}

impl Game {
    /// The claim or dispute waiting for an arbiter's decision.
    pub fn dispute(&self) -> Option<&Dispute> {
        self.arbiter.dispute.as_ref()
    }

    /// What the arbiters did, in order.
    pub fn arbiter_log(&self) -> &[ArbiterRecord] {
        &self.arbiter.log
    }

    /// `by` calls the arbiter with a claim or dispute (`reason`), which waits for a decision.
    pub(crate) fn cmd_call_arbiter(
        &mut self,
        by: Color,
        reason: &str,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let Some(reason) = ruling_text(reason) else {
            return Err(CommandError::BadRuling {
                zh: format!("请写明申诉的内容（1至{MAX_RULING_TEXT}个字）"),
                en: format!("say what the claim is (1 to {MAX_RULING_TEXT} characters)"),
            });
        };
        if let Some(d) = &self.arbiter.dispute {
            return Err(CommandError::ArbiterAlreadyCalled { by: d.by });
        }
        self.arbiter.dispute = Some(Dispute { by, reason: reason.clone() });
        out.push(Event::ArbiterCalled { by, reason });
        Ok(())
    }

    /// An arbiter's act: carried out (its consequences checked first, so that a refused act changes nothing), then
    /// recorded with the arbiter's name and announced (`arbiter_acted`) before its consequences.
    pub(crate) fn cmd_arbiter(
        &mut self,
        now: Timestamp,
        arbiter: ArbiterRef,
        act: ArbiterAct,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let name = arbiter.name.as_str();
        // The record goes where the act happened (before a sealed move it opens and plays).
        let ply = self.moves.len() as u32;
        let mut then = Vec::new();
        let mut infraction = false;
        let (zh, en) = match &act {
            ArbiterAct::Pause => {
                self.pause_clocks(now, &mut then)?;
                (
                    format!("裁判{name}暂停了棋钟（第6.11.1条）"),
                    format!("The arbiter {name} paused the clocks (Article 6.11.1)"),
                )
            }
            ArbiterAct::Resume => {
                self.resume_clocks(now, &mut then)?;
                (
                    format!("裁判{name}恢复了对局，棋钟继续走时（第6.11.3条）"),
                    format!("The arbiter {name} restarted the game and the clocks (Article 6.11.3)"),
                )
            }
            ArbiterAct::AddTime { color, ms } => self.arbiter_add_time(now, name, *color, *ms, &mut then)?,
            ArbiterAct::Decide { uphold, ruling } => self.arbiter_decide(name, *uphold, ruling)?,
            ArbiterAct::SetResult { result, reason, infraction: breach } => {
                let said = self.arbiter_set_result(now, name, result, reason, &mut then)?;
                infraction = *breach;
                said
            }
            ArbiterAct::CallAdjournment => {
                self.call_adjournment(None, &mut then)?;
                (format!("裁判{name}宣布封棋"), format!("The arbiter {name} called an adjournment"))
            }
            ArbiterAct::ScheduleResumption { at_ms } => {
                self.schedule_resumption(None, *at_ms, now, &mut then)?;
                (format!("裁判{name}定下续赛时间"), format!("The arbiter {name} set the time of the resumption"))
            }
            ArbiterAct::OpenSealedMove => self.arbiter_open_sealed_move(now, name, &mut then)?,
        };
        self.arbiter.log.push(ArbiterRecord {
            ply,
            arbiter: arbiter.clone(),
            act: act.code().to_owned(),
            message_zh: zh.clone(),
            message_en: en.clone(),
            infraction,
        });
        out.push(Event::ArbiterActed {
            arbiter: arbiter.name,
            arbiter_id: arbiter.id,
            act: act.code().to_owned(),
            message_zh: zh,
            message_en: en,
        });
        out.extend(then);
        Ok(())
    }

    /// The arbiter `name` adds `ms` to `color`'s clock.
    fn arbiter_add_time(
        &mut self,
        now: Timestamp,
        name: &str,
        color: Color,
        ms: u64,
        then: &mut Vec<Event>,
    ) -> Result<Said, CommandError> {
        if ms == 0 || ms > MAX_ADDED_MS {
            return Err(bad("加时须在1毫秒到24小时之间", "the time added must be from 1 ms to 24 hours"));
        }
        let Some(before) = self.clock.remaining(side(color), now) else {
            return Err(bad("本局没有计时，不能加时", "this game has no clock to add time to"));
        };
        self.clock.add_time(side(color), ms);
        let added = self.clock.remaining(side(color), now).unwrap_or(before).saturating_sub(before);
        then.push(Event::ClockUpdate { clocks: self.clocks(now) });
        let t = duration_text(added);
        Ok((
            format!("裁判{name}给{}加时{t}（第6.10.2条、第12.9条）", color.name_zh()),
            format!("The arbiter {name} gave {} {t} more (Articles 6.10.2, 12.9)", color.fold("White", "Black")),
        ))
    }

    /// The arbiter `name` upholds or rejects the pending claim with `ruling`.
    fn arbiter_decide(&mut self, name: &str, uphold: bool, ruling: &str) -> Result<Said, CommandError> {
        let ruling = ruling_text(ruling).ok_or_else(missing_reason)?;
        let Some(d) = self.arbiter.dispute.take() else { return Err(CommandError::NoDispute) };
        let (by_zh, by_en) = (d.by.name_zh(), d.by.fold("White", "Black"));
        Ok(if uphold {
            (
                format!("裁判{name}支持{by_zh}的申诉（{}）：{ruling}", d.reason),
                format!("The arbiter {name} upheld {by_en}'s claim ({}): {ruling}", d.reason),
            )
        } else {
            (
                format!("裁判{name}驳回{by_zh}的申诉（{}）：{ruling}", d.reason),
                format!("The arbiter {name} rejected {by_en}'s claim ({}): {ruling}", d.reason),
            )
        })
    }

    /// The arbiter `name` ends the game with `result` for `reason`; the result's message is the arbiter's.
    fn arbiter_set_result(
        &mut self,
        now: Timestamp,
        name: &str,
        result: &str,
        reason: &str,
        then: &mut Vec<Event>,
    ) -> Result<Said, CommandError> {
        let Some(winner) = parse_result(result) else {
            return Err(bad(
                &format!("结果 {result:?} 无效（应为 1-0、0-1 或 1/2-1/2）"),
                &format!("not a result: {result:?} (1-0, 0-1 or 1/2-1/2)"),
            ));
        };
        let reason = ruling_text(reason).ok_or_else(missing_reason)?;
        let o = Outcome { winner, termination: Termination::Adjudication };
        let (zh, en) = match winner {
            Some(c) => (
                format!("裁判{name}判{}胜：{reason}", c.name_zh()),
                format!("{} wins by the arbiter {name}'s decision: {reason}", c.fold("White", "Black")),
            ),
            None => (format!("裁判{name}判和：{reason}"), format!("Draw by the arbiter {name}'s decision: {reason}")),
        };
        // Before both players have moved (the game could still be aborted) a result decides no game played: a
        // forfeit, which moves nobody's rating (as FIDE rates no forfeit). The game is kept as unrated.
        if self.status == Status::Created {
            self.rated = false;
        }
        self.finish(now, o, then);
        if let Some(Event::GameEnded { message_zh, message_en, .. }) = then.last_mut() {
            (*message_zh, *message_en) = (zh.clone(), en.clone());
        }
        Ok((zh, en))
    }

    /// The arbiter `name` opens the sealed move now, starting the session if it has not started.
    fn arbiter_open_sealed_move(
        &mut self,
        now: Timestamp,
        name: &str,
        then: &mut Vec<Event>,
    ) -> Result<Said, CommandError> {
        let Some(a) = self.adjournment.as_ref().filter(|a| a.is_sealed()) else {
            return Err(CommandError::NoSealedMove);
        };
        let (resumed, sealer) = (a.resumed, a.sealed.as_ref().map_or(self.turn(), |s| s.by));
        if !resumed {
            // The session starts now, by the arbiter's decision.
            if let Some(a) = self.adjournment.as_mut() {
                a.resume_at_ms = Some(now.as_millis());
                a.proposal = None;
            }
            self.start_session(now, sealer, now, then);
        }
        self.open_envelope(now, then);
        Ok((
            format!("裁判{name}打开了封棋信封（第14.2条）"),
            format!("The arbiter {name} opened the sealed move (Article 14.2)"),
        ))
    }
}
