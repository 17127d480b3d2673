// SPDX-License-Identifier: GPL-3.0-or-later
//! The arbiter's role in a game ([`ArbiterAct`], given to the game as
//! [`Command::Arbiter`](crate::Command::Arbiter) with the arbiter's identity): pausing and resuming the clocks
//! (Article 6.11), adding time to a player (6.10.2, and 12.9's penalty of more time for the opponent), deciding a
//! claim or dispute a player brought to the arbiter (12.1–12.2; the player's [`Action::CallArbiter`](crate::Action)),
//! setting a result with a reason (12.9: a game declared lost; an adjudication), and the adjournment's duties the
//! server otherwise carries out itself — calling it, setting the resumption time, opening the envelope (the seeds'
//! Articles 13–14 and 16.2). Who is an arbiter of a game is the server's business; the game records every act
//! with the arbiter's name ([`ArbiterRecord`], in the events, the snapshot and the PGN).

use guoxiang_clock::Timestamp;
use guoxiang_core::{Color, Outcome, Termination};
use serde::{Deserialize, Serialize};

use crate::error::CommandError;
use crate::event::Event;
use crate::game::{Game, side};
use crate::serde_util::color;

/// An arbiter as the game records them: an opaque user reference and a name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ArbiterRef {
    pub id: String,
    pub name: String,
}

impl ArbiterRef {
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> ArbiterRef {
        ArbiterRef { id: id.into(), name: name.into() }
    }
}

/// What an arbiter does in a game. Serialized with a `t` tag, as the protocol's `arbiter` message carries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ArbiterAct {
    /// Pause the clocks (Article 6.11.1: the game needs to be interrupted); nothing is charged until `resume`.
    Pause,
    /// Restart the clocks after a pause (6.11.3: the arbiter decides when the game restarts).
    Resume,
    /// Add `ms` to `color`'s clock (6.10.2: the times the arbiter judges right; 12.9: more time for the opponent as
    /// a penalty; 7.5.5 and 9.5.3 have it done automatically).
    AddTime {
        #[serde(with = "color")]
        #[cfg_attr(feature = "ts", ts(type = "Color"))]
        color: Color,
        ms: u64,
    },
    /// Decide the claim or dispute a player brought (`call_arbiter`): `uphold` it or reject it, with the ruling in
    /// words. What follows from it (time, a result) is one of the other acts.
    Decide { uphold: bool, ruling: String },
    /// End the game with `result` (`1-0`, `0-1`, `1/2-1/2`) and the reason (the article, what happened): an
    /// adjudication, or with `infraction` a game decided for a breach of the Laws (12.9: declared lost).
    SetResult {
        result: String,
        reason: String,
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
        infraction: bool,
    },
    /// Call an adjournment: the player on move seals a move (whatever the rule set).
    CallAdjournment,
    /// Set the resumption time of a game with a sealed move (Unix milliseconds).
    ScheduleResumption { at_ms: u64 },
    /// Open the sealed move now: the session starts if it has not, and the move is played or judged by 10.16.
    OpenSealedMove,
}

impl ArbiterAct {
    /// A stable code for the act (`pause`, `resume`, `add_time`, `decide`, `set_result`, `call_adjournment`,
    /// `schedule_resumption`, `open_sealed_move`), as events and the PGN name it.
    pub fn code(&self) -> &'static str {
        match self {
            ArbiterAct::Pause => "pause",
            ArbiterAct::Resume => "resume",
            ArbiterAct::AddTime { .. } => "add_time",
            ArbiterAct::Decide { .. } => "decide",
            ArbiterAct::SetResult { .. } => "set_result",
            ArbiterAct::CallAdjournment => "call_adjournment",
            ArbiterAct::ScheduleResumption { .. } => "schedule_resumption",
            ArbiterAct::OpenSealedMove => "open_sealed_move",
        }
    }
}

/// Every arbiter act code, in the order of [`ArbiterAct`].
pub const ARBITER_ACT_CODES: [&str; 8] = [
    "pause",
    "resume",
    "add_time",
    "decide",
    "set_result",
    "call_adjournment",
    "schedule_resumption",
    "open_sealed_move",
];

/// The longest text taken for a ruling, a result's reason or a player's claim.
pub const MAX_RULING_TEXT: usize = 300;

/// The most time one `add_time` gives (a day).
pub const MAX_ADDED_MS: u64 = 86_400_000;

/// A claim or dispute a player brought to the arbiter, until the arbiter decides it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dispute {
    #[serde(with = "color")]
    pub by: Color,
    pub reason: String,
}

/// One act of an arbiter, as the game keeps it (for the snapshot and the PGN): after `ply` moves, who, what
/// (`act`, [`ArbiterAct::code`]) and what it did in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArbiterRecord {
    pub ply: u32,
    pub arbiter: ArbiterRef,
    pub act: String,
    pub message_zh: String,
    pub message_en: String,
    /// A result set for a breach of the Laws (PGN `Termination "Rules infraction"`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub infraction: bool,
}

/// `text` trimmed, if it has 1 to [`MAX_RULING_TEXT`] characters.
pub(crate) fn ruling_text(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty() && t.chars().count() <= MAX_RULING_TEXT).then(|| t.to_owned())
}

/// The winner a result string names: `Some(Some(c))` a win, `Some(None)` a draw, `None` not a result.
pub(crate) fn parse_result(result: &str) -> Option<Option<Color>> {
    match result.trim() {
        "1-0" => Some(Some(Color::White)),
        "0-1" => Some(Some(Color::Black)),
        "1/2-1/2" | "½-½" => Some(None),
        _ => None,
    }
}

/// `h:mm:ss` or `m:ss` of a duration, for messages.
pub(crate) fn duration_text(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

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
