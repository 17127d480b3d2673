//! Adjournment with a sealed move, as the Laws describe it for games played over more than one session (Articles
//! 10.15–10.16 and 13–14 of the older Laws the seeds quote; the Guidelines on adjourned games in the current ones),
//! with the server as the arbiter who keeps the envelope:
//!
//! 1. The adjournment is **called**: both players agree (`adjourn_offer` from each), or the arbiter or host calls it
//!    ([`Command::CallAdjournment`](crate::Command::CallAdjournment)). Only games whose rule set allows it
//!    ([`Rules::adjournment`](crate::Rules::adjournment)).
//! 2. The player on move **seals** a move (`seal`): the text as written, SAN (Chinese piece letters too) or UCI, kept
//!    secret from the opponent and spectators and *not* checked now. The clocks stop; the sealer's time counts up to
//!    the seal.
//! 3. A **resumption time** is agreed (one proposes, the other proposes the same time or accepts) or set by the
//!    arbiter ([`Command::ScheduleResumption`](crate::Command::ScheduleResumption)). It is a wall-clock appointment
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

use guoxiang_core::{Color, Move, Position, Text, UciMove};
use serde::{Deserialize, Serialize};

use crate::serde_util::{color, opt_color};
use guoxiang_clock::Timestamp;

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
