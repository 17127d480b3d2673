// SPDX-License-Identifier: GPL-3.0-or-later
//! The arbiter's role in a game ([`ArbiterAct`], given to the game as
//! [`Command::Arbiter`](crate::Command::Arbiter) with the arbiter's identity): pausing and resuming the clocks
//! (Article 6.11), adding time to a player (6.10.2, and 12.9's penalty of more time for the opponent), deciding a
//! claim or dispute a player brought to the arbiter (12.1–12.2; the player's [`Action::CallArbiter`](crate::Action)),
//! setting a result with a reason (12.9: a game declared lost; an adjudication), and the adjournment's duties the
//! server otherwise carries out itself — calling it, setting the resumption time, opening the envelope (the seeds'
//! Articles 13–14 and 16.2). Who is an arbiter of a game is the server's business; the game records every act
//! with the arbiter's name ([`ArbiterRecord`], in the events, the snapshot and the PGN).

use guoxiang_core::Color;
use serde::{Deserialize, Serialize};

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
