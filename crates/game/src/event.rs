//! What happened in a game, as versioned events for the clients, and the bounded log they are replayed from.

use std::collections::VecDeque;

use guoxiang_core::{Color, Outcome, Termination, Text};
use serde::{Deserialize, Serialize};

use crate::serde_util::{color, opt_color};

/// Both players' remaining time at the moment of an event, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Clocks {
    pub white_ms: u64,
    pub black_ms: u64,
}

impl Clocks {
    /// The time of `color`.
    pub fn of(&self, color: Color) -> u64 {
        color.fold(self.white_ms, self.black_ms)
    }
}

/// Something that happened in a game. Serialized with a `type` field (`move_made`, `draw_offered`, …); `clocks` is
/// `null` in games without a time limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A move was played. `ply` counts the moves of this game from 1; `clocks` are the times right after the move.
    MoveMade {
        #[serde(with = "color")]
        by: Color,
        uci: String,
        san: String,
        fen: String,
        ply: u32,
        clocks: Option<Clocks>,
    },
    /// `by` offered a draw (Article 9.1.2).
    DrawOffered {
        #[serde(with = "color")]
        by: Color,
    },
    /// `by` declined the opponent's draw offer, explicitly or by making a move.
    DrawDeclined {
        #[serde(with = "color")]
        by: Color,
    },
    /// `by` claimed a draw (Article 9.2 or 9.3) and the claim was incorrect (Article 9.5.3): the opponent got
    /// `penalty_ms` more time. `kind` is `threefold_repetition` or `fifty_moves`.
    DrawClaimRejected {
        #[serde(with = "color")]
        by: Color,
        kind: String,
        penalty_ms: u64,
        message_zh: String,
        message_en: String,
    },
    /// The clocks changed outside a move (time added, takeback, adjournment, resumption).
    ClockUpdate { clocks: Option<Clocks> },
    /// `by` asked to take back moves.
    TakebackOffered {
        #[serde(with = "color")]
        by: Color,
    },
    /// `by` refused the opponent's takeback request.
    TakebackDeclined {
        #[serde(with = "color")]
        by: Color,
    },
    /// After the game: `by` offered a rematch (colours swapped).
    RematchOffered {
        #[serde(with = "color")]
        by: Color,
    },
    /// After the game: `by` declined the opponent's rematch offer.
    RematchDeclined {
        #[serde(with = "color")]
        by: Color,
    },
    /// After the game: both players want a rematch; the server creates it and announces it to them.
    RematchAgreed,
    /// A pending takeback request lapsed because a move was made.
    TakebackCancelled,
    /// `plies` moves were taken back; `fen` is the position now.
    TakebackDone { plies: u32, fen: String, clocks: Option<Clocks> },
    /// A player's connection dropped (as reported by the server).
    PlayerDisconnected {
        #[serde(with = "color")]
        who: Color,
    },
    /// A player is back.
    PlayerReconnected {
        #[serde(with = "color")]
        who: Color,
    },
    /// The clocks were stopped (adjournment, server shutdown).
    Adjourned { clocks: Option<Clocks> },
    /// The clocks run again.
    Resumed { clocks: Option<Clocks> },
    /// The game is over. `result` is `1-0`, `0-1` or `1/2-1/2`; `termination` is the stable code of
    /// [`Termination::code`].
    GameEnded {
        result: String,
        termination: String,
        #[serde(with = "opt_color")]
        winner: Option<Color>,
        message_zh: String,
        message_en: String,
        clocks: Option<Clocks>,
    },
    /// Touch-move games: `by` touched the piece on `square`. `binding` tells whether the touches of this turn now
    /// oblige a move; the message says what they oblige (or that nothing binds).
    PieceTouched {
        #[serde(with = "color")]
        by: Color,
        square: String,
        binding: bool,
        message_zh: String,
        message_en: String,
    },
    /// Touch-move games: `by` said "I adjust" and adjusted the piece on `square` (binds nothing).
    PieceAdjusted {
        #[serde(with = "color")]
        by: Color,
        square: String,
    },
    /// `by` completed an illegal move (`uci`); it was taken back (the position before it stands) and counted: this is
    /// `by`'s illegal move number `count`, and `limit` of them lose. `penalty_ms` was added to the opponent's clock.
    /// The message says why the move is illegal and what follows (Article 7.5, or the school rule 送王).
    IllegalMoveCounted {
        #[serde(with = "color")]
        by: Color,
        uci: String,
        count: u8,
        limit: u8,
        penalty_ms: u64,
        message_zh: String,
        message_en: String,
    },
    /// Adjournable games: `by` offered to adjourn.
    AdjournmentOffered {
        #[serde(with = "color")]
        by: Color,
    },
    /// The adjournment was called (both agreed, or the arbiter): `to_seal`, the player on move, must seal a move.
    AdjournmentCalled {
        #[serde(with = "color")]
        to_seal: Color,
    },
    /// `by` sealed a move (not shown); the clocks stopped and the game is adjourned.
    MoveSealed {
        #[serde(with = "color")]
        by: Color,
        clocks: Option<Clocks>,
    },
    /// `by` proposed to resume at `at_ms` (Unix milliseconds).
    ResumptionProposed {
        #[serde(with = "color")]
        by: Color,
        at_ms: u64,
    },
    /// The game resumes at `at_ms` (agreed, or set by the arbiter).
    ResumptionScheduled { at_ms: u64 },
    /// The envelope was opened in the presence of the sealer's opponent: `text` is the sealed move as written.
    /// `valid`: a legal move, played next (`move_made`); otherwise the message says why it is not (Article 10.16) and
    /// `game_ended` follows.
    SealedMoveOpened {
        #[serde(with = "color")]
        by: Color,
        text: String,
        valid: bool,
        message_zh: String,
        message_en: String,
    },
    /// `by` called the arbiter with a claim or dispute (`reason`), which waits for the arbiter's decision.
    ArbiterCalled {
        #[serde(with = "color")]
        by: Color,
        reason: String,
    },
    /// An arbiter acted (`act`: `pause`, `resume`, `add_time`, `decide`, `set_result`, `call_adjournment`,
    /// `schedule_resumption`, `open_sealed_move`): who (`arbiter` the name, `arbiter_id` the user) and what, in
    /// words. The act's consequences follow as their own events (`adjourned`, `clock_update`, `game_ended`, …).
    ArbiterActed { arbiter: String, arbiter_id: String, act: String, message_zh: String, message_en: String },
    /// The game was cancelled without a result. `reason` is `player` (then `by` says who) or `first_move_timeout`
    /// (then `by` is the player who did not move in time).
    Aborted {
        reason: String,
        #[serde(with = "color")]
        by: Color,
        message_zh: String,
        message_en: String,
    },
}

impl Event {
    pub(crate) fn game_ended(outcome: &Outcome, clocks: Option<Clocks>) -> Event {
        let text = outcome_text(outcome);
        Event::GameEnded {
            result: outcome.result().to_owned(),
            termination: outcome.termination.code().to_owned(),
            winner: outcome.winner,
            message_zh: text.zh,
            message_en: text.en,
            clocks,
        }
    }
}

/// The zh/en message for a finished game. Like [`Outcome::text`], except for the draw this crate gives when the
/// opponent left but the claimant cannot checkmate ([`Termination::Abandoned`] without a winner).
pub fn outcome_text(outcome: &Outcome) -> Text {
    if let (Termination::Abandoned, None) = (outcome.termination, outcome.winner) {
        return Text {
            zh: "对方离开对局，但提出要求的一方无论怎样走都无法将死对方 — 和棋".to_owned(),
            en: "Draw: the opponent left the game, but the claimant cannot checkmate by any series of legal moves"
                .to_owned(),
        };
    }
    outcome.text()
}

/// An event with its version: the game's version after the event. Versions start at 1 and go up by one per event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionedEvent {
    pub version: u64,
    #[serde(flatten)]
    pub event: Event,
}

/// The last `capacity` events of a game. `floor` is the version before the oldest event that can still be
/// replayed; a client at a lower version needs a full resync.
#[derive(Clone, Debug)]
pub(crate) struct EventLog {
    events: VecDeque<VersionedEvent>,
    capacity: usize,
    floor: u64,
}

impl EventLog {
    pub(crate) fn new(capacity: usize, floor: u64) -> EventLog {
        EventLog { events: VecDeque::new(), capacity: capacity.max(1), floor }
    }

    pub(crate) fn push(&mut self, e: VersionedEvent) {
        if self.events.len() == self.capacity
            && let Some(old) = self.events.pop_front()
        {
            self.floor = old.version;
        }
        self.events.push_back(e);
    }

    /// The events after `version` (the game being at `current`), or `None` if some of them are no longer kept (or
    /// `version` is ahead of the game).
    pub(crate) fn since(&self, version: u64, current: u64) -> Option<Vec<VersionedEvent>> {
        if version > current || version < self.floor {
            return None;
        }
        Some(self.events.iter().filter(|e| e.version > version).cloned().collect())
    }
}
