// SPDX-License-Identifier: GPL-3.0-or-later
//! What users are told about, below the hub that delivers it and the lobby that makes challenges: [`UserEvent`], the
//! [`ChallengeInfo`] it may carry, and [`WireUserEvent`], the same event as it crosses to another node.

use guoxiang_core::Color;
use guoxiang_game::{PlayerRef, Variant};
use guoxiang_protocol::{ChallengeStatus, ColorChoice, Player};
use serde::{Deserialize, Serialize};

/// The only way the domain reaches users: tells a user something on every connection they have (browser tabs,
/// Lichess event streams, on every node), and whether they have one. The hub implements it (`crate::hub`).
pub trait Notifier: Send + Sync + std::fmt::Debug {
    fn notify(&self, user_id: &str, event: UserEvent);

    /// Whether `user_id` has an open connection (on this node).
    fn is_online(&self, user_id: &str) -> bool;
}

/// Something for a user.
#[derive(Clone, Debug)]
pub enum UserEvent {
    GameStarted {
        game_id: String,
        color: Color,
    },
    GameFinished {
        game_id: String,
    },
    Challenge(Box<ChallengeInfo>),
    RematchOffered {
        game_id: String,
        by: Color,
    },
    RematchDeclined {
        game_id: String,
        by: Color,
    },
    /// The session with this hash ended (logout): its connections close.
    SessionEnded {
        session: String,
    },
    /// A study's present mode (issue 42): `study_position` or `study_released`, sent to the hub key of the study's
    /// followers ([`study_followers`]), which its followers' connections register under, on every node.
    Study(Box<guoxiang_protocol::ServerMessage>),
}

/// The hub key the connections following a study's present mode register under (`study:` and the study's id; user
/// ids have no `:`).
pub fn study_followers(study: &str) -> String {
    format!("study:{study}")
}

/// A challenge.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChallengeInfo {
    pub id: String,
    pub challenger: PlayerRef,
    /// The challenged user (a named challenge), or `None` for a link anyone may accept.
    pub dest: Option<String>,
    pub opponent: Option<PlayerRef>,
    pub time_control: String,
    pub rated: bool,
    pub color: ColorChoice,
    /// The challenger's colour in the game: `color`, or drawn when the challenge is made if that is random (as on
    /// Lichess, whose challenges show it as `finalColor`).
    pub challenger_white: bool,
    pub variant: Variant,
    /// The rule set of the game it will start.
    pub rules: guoxiang_game::Rules,
    pub status: ChallengeStatus,
    pub game_id: Option<String>,
    pub created_at_ms: u64,
    /// Why it was declined (Lichess reason key), when declined.
    pub decline_reason: Option<String>,
}

impl ChallengeInfo {
    /// The link to share.
    pub fn url(&self, base: &str) -> String {
        format!("{base}/challenge/{}", self.id)
    }

    pub fn to_protocol(&self, base: &str) -> guoxiang_protocol::Challenge {
        guoxiang_protocol::Challenge {
            id: self.id.clone(),
            url: self.url(base),
            challenger: Player::from(&self.challenger),
            opponent: self.opponent.as_ref().map(Player::from),
            time_control: self.time_control.clone(),
            rated: self.rated,
            color: self.color,
            status: self.status,
            game_id: self.game_id.clone(),
            rules: (self.rules != guoxiang_game::Rules::ONLINE).then(|| self.rules.name()),
        }
    }
}

/// A per-user notification as it crosses nodes ([`UserEvent`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum WireUserEvent {
    GameStarted { game_id: String, white: bool },
    GameFinished { game_id: String },
    RematchOffered { game_id: String, by_white: bool },
    RematchDeclined { game_id: String, by_white: bool },
    SessionEnded { session: String },
    Challenge { challenge: Box<ChallengeInfo> },
    Study { message: Box<guoxiang_protocol::ServerMessage> },
}

impl WireUserEvent {
    /// The notification as it crosses the broker.
    pub fn of(event: &UserEvent) -> WireUserEvent {
        use UserEvent as U;
        use guoxiang_core::Color;
        match event {
            U::GameStarted { game_id, color } => {
                WireUserEvent::GameStarted { game_id: game_id.clone(), white: *color == Color::White }
            }
            U::GameFinished { game_id } => WireUserEvent::GameFinished { game_id: game_id.clone() },
            U::RematchOffered { game_id, by } => {
                WireUserEvent::RematchOffered { game_id: game_id.clone(), by_white: *by == Color::White }
            }
            U::RematchDeclined { game_id, by } => {
                WireUserEvent::RematchDeclined { game_id: game_id.clone(), by_white: *by == Color::White }
            }
            U::SessionEnded { session } => WireUserEvent::SessionEnded { session: session.clone() },
            U::Challenge(c) => WireUserEvent::Challenge { challenge: c.clone() },
            U::Study(m) => WireUserEvent::Study { message: m.clone() },
        }
    }

    /// Back to the hub's event.
    pub fn into_event(self) -> UserEvent {
        use UserEvent as U;
        use guoxiang_core::Color;
        let color = |white: bool| if white { Color::White } else { Color::Black };
        match self {
            WireUserEvent::GameStarted { game_id, white } => U::GameStarted { game_id, color: color(white) },
            WireUserEvent::GameFinished { game_id } => U::GameFinished { game_id },
            WireUserEvent::RematchOffered { game_id, by_white } => U::RematchOffered { game_id, by: color(by_white) },
            WireUserEvent::RematchDeclined { game_id, by_white } => U::RematchDeclined { game_id, by: color(by_white) },
            WireUserEvent::SessionEnded { session } => U::SessionEnded { session },
            WireUserEvent::Challenge { challenge } => U::Challenge(challenge),
            WireUserEvent::Study { message } => U::Study(message),
        }
    }
}

/// A user's notification as it is published for the other nodes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Relayed {
    pub user_id: String,
    pub event: WireUserEvent,
}
