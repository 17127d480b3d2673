//! The game's types as they go over the wire, with TypeScript bindings. They mirror `guoxiang-game`'s types
//! (which have no TypeScript derive) with the same JSON: `tests/mirror.rs` checks that every [`GameEvent`]
//! serializes exactly like the `guoxiang_game::Event` it came from.

use guoxiang_clock::ClockState;
use guoxiang_game::{AbortReason, Event, Snapshot, Status, VersionedEvent};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::codes::{AbortReasonCode, GameResult, ReasonCode, TerminationCode};

/// A side: `"white"` or `"black"`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    White,
    Black,
}

impl From<guoxiang_core::Color> for Color {
    fn from(c: guoxiang_core::Color) -> Color {
        c.fold(Color::White, Color::Black)
    }
}

impl From<Color> for guoxiang_core::Color {
    fn from(c: Color) -> guoxiang_core::Color {
        match c {
            Color::White => guoxiang_core::Color::White,
            Color::Black => guoxiang_core::Color::Black,
        }
    }
}

/// The colour a player asks for when seeking or challenging.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    White,
    Black,
    #[default]
    Random,
}

/// The language of a client: `"zh"` (简体中文) or `"en"`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    #[default]
    Zh,
    En,
}

impl From<Lang> for guoxiang_core::Lang {
    fn from(l: Lang) -> guoxiang_core::Lang {
        match l {
            Lang::Zh => guoxiang_core::Lang::Zh,
            Lang::En => guoxiang_core::Lang::En,
        }
    }
}

/// What a draw claim is about: Article 9.2 (threefold repetition) or 9.3 (fifty moves).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    ThreefoldRepetition,
    FiftyMoves,
}

impl From<ClaimKind> for guoxiang_core::ClaimKind {
    fn from(k: ClaimKind) -> guoxiang_core::ClaimKind {
        match k {
            ClaimKind::ThreefoldRepetition => guoxiang_core::ClaimKind::ThreefoldRepetition,
            ClaimKind::FiftyMoves => guoxiang_core::ClaimKind::FiftyMoves,
        }
    }
}

impl From<guoxiang_core::ClaimKind> for ClaimKind {
    fn from(k: guoxiang_core::ClaimKind) -> ClaimKind {
        match k {
            guoxiang_core::ClaimKind::ThreefoldRepetition => ClaimKind::ThreefoldRepetition,
            guoxiang_core::ClaimKind::FiftyMoves => ClaimKind::FiftyMoves,
        }
    }
}

/// A promotion piece in an `explain` request.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum PromotionRole {
    Queen,
    Rook,
    Bishop,
    Knight,
    /// Not a legal promotion; accepted so that the server can explain why.
    King,
    /// Not a legal promotion; accepted so that the server can explain why.
    Pawn,
}

impl From<PromotionRole> for guoxiang_core::Role {
    fn from(r: PromotionRole) -> guoxiang_core::Role {
        use guoxiang_core::Role;
        match r {
            PromotionRole::Queen => Role::Queen,
            PromotionRole::Rook => Role::Rook,
            PromotionRole::Bishop => Role::Bishop,
            PromotionRole::Knight => Role::Knight,
            PromotionRole::King => Role::King,
            PromotionRole::Pawn => Role::Pawn,
        }
    }
}

/// Both players' remaining time in milliseconds (`guoxiang_game::Clocks`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct Clocks {
    pub white_ms: u64,
    pub black_ms: u64,
}

impl From<guoxiang_game::Clocks> for Clocks {
    fn from(c: guoxiang_game::Clocks) -> Clocks {
        Clocks { white_ms: c.white_ms, black_ms: c.black_ms }
    }
}

/// Something that happened in a game: `guoxiang_game::Event` with the same JSON (a `type` field in snake_case;
/// `clocks` is `null` without a time limit). See `docs/game.md`, "Events".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEvent {
    /// A move was played; `ply` counts from 1, `fen` is the position after it, `clocks` the times right after it.
    MoveMade { by: Color, uci: String, san: String, fen: String, ply: u32, clocks: Option<Clocks> },
    /// `by` offered a draw.
    DrawOffered { by: Color },
    /// `by` declined the opponent's draw offer (explicitly or by moving).
    DrawDeclined { by: Color },
    /// `by`'s draw claim was incorrect: the opponent got `penalty_ms` more. `kind` is `threefold_repetition` or
    /// `fifty_moves`.
    DrawClaimRejected {
        by: Color,
        #[ts(as = "ClaimKind")]
        kind: String,
        penalty_ms: u64,
        message_zh: String,
        message_en: String,
    },
    /// The clocks changed outside a move.
    ClockUpdate { clocks: Option<Clocks> },
    /// `by` asked to take back moves.
    TakebackOffered { by: Color },
    /// `by` refused the opponent's takeback request.
    TakebackDeclined { by: Color },
    /// After the game: `by` offered a rematch (colours swapped).
    RematchOffered { by: Color },
    /// After the game: `by` declined the opponent's rematch offer.
    RematchDeclined { by: Color },
    /// After the game: both players want a rematch; the new game is announced to them with `game_started`.
    RematchAgreed,
    /// A pending takeback request lapsed because a move was made.
    TakebackCancelled,
    /// `plies` moves were taken back; `fen` is the position now.
    TakebackDone { plies: u32, fen: String, clocks: Option<Clocks> },
    /// A player's connection dropped.
    PlayerDisconnected { who: Color },
    /// A player is back.
    PlayerReconnected { who: Color },
    /// The clocks were stopped.
    Adjourned { clocks: Option<Clocks> },
    /// The clocks run again.
    Resumed { clocks: Option<Clocks> },
    /// The game is over: `result` is `1-0`, `0-1` or `1/2-1/2`; `termination` a `Termination::code`
    /// (`checkmate`, `resignation`, `time_forfeit`, …).
    GameEnded {
        #[ts(as = "GameResult")]
        result: String,
        #[ts(as = "TerminationCode")]
        termination: String,
        winner: Option<Color>,
        message_zh: String,
        message_en: String,
        clocks: Option<Clocks>,
    },
    /// Touch-move games: `by` touched the piece on `square`; `binding` tells whether the touches of this turn now
    /// oblige a move, and the message says what they oblige.
    PieceTouched { by: Color, square: String, binding: bool, message_zh: String, message_en: String },
    /// Touch-move games: `by` said "I adjust" (摆正) and adjusted the piece on `square`.
    PieceAdjusted { by: Color, square: String },
    /// `by`'s illegal move `uci` was taken back and counted (number `count`; `limit` lose); `penalty_ms` was added
    /// to the opponent's clock. The message says why it is illegal and what follows.
    IllegalMoveCounted {
        by: Color,
        uci: String,
        count: u8,
        limit: u8,
        penalty_ms: u64,
        message_zh: String,
        message_en: String,
    },
    /// `by` offered to adjourn.
    AdjournmentOffered { by: Color },
    /// The adjournment was called: `to_seal` must seal a move.
    AdjournmentCalled { to_seal: Color },
    /// `by` sealed a move (not shown); the clocks stopped.
    MoveSealed { by: Color, clocks: Option<Clocks> },
    /// `by` proposed to resume at `at_ms` (Unix milliseconds).
    ResumptionProposed { by: Color, at_ms: u64 },
    /// The game resumes at `at_ms`.
    ResumptionScheduled { at_ms: u64 },
    /// The envelope was opened: the sealed move as written; if not `valid`, the message says why and the game ends.
    SealedMoveOpened { by: Color, text: String, valid: bool, message_zh: String, message_en: String },
    /// `by` called the arbiter with a claim or dispute, which waits for the arbiter's decision.
    ArbiterCalled { by: Color, reason: String },
    /// An arbiter acted (`act`: `pause`, `resume`, `add_time`, `decide`, `set_result`, `call_adjournment`,
    /// `schedule_resumption`, `open_sealed_move`): the arbiter's name and user id, and what was done in words. The
    /// consequences follow as their own events.
    ArbiterActed { arbiter: String, arbiter_id: String, act: String, message_zh: String, message_en: String },
    /// The game was cancelled without a result: `reason` is `player` or `first_move_timeout`.
    Aborted {
        #[ts(as = "AbortReasonCode")]
        reason: String,
        by: Color,
        message_zh: String,
        message_en: String,
    },
}

impl From<Event> for GameEvent {
    fn from(e: Event) -> GameEvent {
        let clk = |c: Option<guoxiang_game::Clocks>| c.map(Clocks::from);
        match e {
            Event::MoveMade { by, uci, san, fen, ply, clocks } => {
                GameEvent::MoveMade { by: by.into(), uci, san, fen, ply, clocks: clk(clocks) }
            }
            Event::DrawOffered { by } => GameEvent::DrawOffered { by: by.into() },
            Event::DrawDeclined { by } => GameEvent::DrawDeclined { by: by.into() },
            Event::DrawClaimRejected { by, kind, penalty_ms, message_zh, message_en } => {
                GameEvent::DrawClaimRejected { by: by.into(), kind, penalty_ms, message_zh, message_en }
            }
            Event::ClockUpdate { clocks } => GameEvent::ClockUpdate { clocks: clk(clocks) },
            Event::TakebackOffered { by } => GameEvent::TakebackOffered { by: by.into() },
            Event::TakebackDeclined { by } => GameEvent::TakebackDeclined { by: by.into() },
            Event::TakebackCancelled => GameEvent::TakebackCancelled,
            Event::RematchOffered { by } => GameEvent::RematchOffered { by: by.into() },
            Event::RematchDeclined { by } => GameEvent::RematchDeclined { by: by.into() },
            Event::RematchAgreed => GameEvent::RematchAgreed,
            Event::TakebackDone { plies, fen, clocks } => GameEvent::TakebackDone { plies, fen, clocks: clk(clocks) },
            Event::PlayerDisconnected { who } => GameEvent::PlayerDisconnected { who: who.into() },
            Event::PlayerReconnected { who } => GameEvent::PlayerReconnected { who: who.into() },
            Event::Adjourned { clocks } => GameEvent::Adjourned { clocks: clk(clocks) },
            Event::Resumed { clocks } => GameEvent::Resumed { clocks: clk(clocks) },
            Event::GameEnded { result, termination, winner, message_zh, message_en, clocks } => GameEvent::GameEnded {
                result,
                termination,
                winner: winner.map(Color::from),
                message_zh,
                message_en,
                clocks: clk(clocks),
            },
            Event::PieceTouched { by, square, binding, message_zh, message_en } => {
                GameEvent::PieceTouched { by: by.into(), square, binding, message_zh, message_en }
            }
            Event::PieceAdjusted { by, square } => GameEvent::PieceAdjusted { by: by.into(), square },
            Event::IllegalMoveCounted { by, uci, count, limit, penalty_ms, message_zh, message_en } => {
                GameEvent::IllegalMoveCounted { by: by.into(), uci, count, limit, penalty_ms, message_zh, message_en }
            }
            Event::AdjournmentOffered { by } => GameEvent::AdjournmentOffered { by: by.into() },
            Event::AdjournmentCalled { to_seal } => GameEvent::AdjournmentCalled { to_seal: to_seal.into() },
            Event::MoveSealed { by, clocks } => GameEvent::MoveSealed { by: by.into(), clocks: clk(clocks) },
            Event::ResumptionProposed { by, at_ms } => GameEvent::ResumptionProposed { by: by.into(), at_ms },
            Event::ResumptionScheduled { at_ms } => GameEvent::ResumptionScheduled { at_ms },
            Event::SealedMoveOpened { by, text, valid, message_zh, message_en } => {
                GameEvent::SealedMoveOpened { by: by.into(), text, valid, message_zh, message_en }
            }
            Event::ArbiterCalled { by, reason } => GameEvent::ArbiterCalled { by: by.into(), reason },
            Event::ArbiterActed { arbiter, arbiter_id, act, message_zh, message_en } => {
                GameEvent::ArbiterActed { arbiter, arbiter_id, act, message_zh, message_en }
            }
            Event::Aborted { reason, by, message_zh, message_en } => {
                GameEvent::Aborted { reason, by: by.into(), message_zh, message_en }
            }
        }
    }
}

/// An event with the game's version after it (`guoxiang_game::VersionedEvent`: the version is flattened in).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct VersionedGameEvent {
    pub version: u64,
    #[serde(flatten)]
    pub event: GameEvent,
}

impl From<VersionedEvent> for VersionedGameEvent {
    fn from(e: VersionedEvent) -> VersionedGameEvent {
        VersionedGameEvent { version: e.version, event: e.event.into() }
    }
}

/// A player as the UI shows them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct Player {
    pub id: String,
    pub name: String,
    pub is_engine: bool,
    /// The engine's strength level, for computer opponents.
    pub engine_level: Option<u8>,
}

impl From<&guoxiang_game::PlayerRef> for Player {
    fn from(p: &guoxiang_game::PlayerRef) -> Player {
        Player { id: p.id.clone(), name: p.name.clone(), is_engine: p.is_engine, engine_level: p.engine_level }
    }
}

/// The start a player asks for in a new game: the usual one, or Chess960 with a chosen start position number
/// (0–959; 518 is the usual start) or, without one, a random one drawn when the game is created.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum StartChoice {
    #[default]
    Standard,
    Chess960 {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        position: Option<u16>,
    },
}

impl StartChoice {
    /// Whether this is a Chess960 start.
    pub fn is_chess960(self) -> bool {
        matches!(self, StartChoice::Chess960 { .. })
    }

    /// The game's start: `random` picks the Chess960 position when none was chosen (0–959). `Err` with the number
    /// when it is not a Chess960 position.
    pub fn variant(self, random: impl FnOnce() -> u16) -> Result<guoxiang_game::Variant, u16> {
        match self {
            StartChoice::Standard => Ok(guoxiang_game::Variant::Standard),
            StartChoice::Chess960 { position } => {
                let n = position.unwrap_or_else(random);
                guoxiang_game::Variant::chess960(n).ok_or(n)
            }
        }
    }
}

/// The start of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Variant {
    Standard,
    Chess960 { fen: String },
    FromPosition { fen: String },
}

impl From<&guoxiang_game::Variant> for Variant {
    fn from(v: &guoxiang_game::Variant) -> Variant {
        match v {
            guoxiang_game::Variant::Standard => Variant::Standard,
            guoxiang_game::Variant::Chess960 { fen } => Variant::Chess960 { fen: fen.clone() },
            guoxiang_game::Variant::FromPosition { fen } => Variant::FromPosition { fen: fen.clone() },
        }
    }
}

/// One move of the game: UCI, SAN and the mover's remaining time after it (`null` without a time limit).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct MoveInfo {
    pub uci: String,
    pub san: String,
    pub clock_ms: Option<u64>,
}

/// Where a game is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum GameStatus {
    /// Fewer than two moves: the clocks do not run and either player may abort.
    Created,
    /// The clocks run.
    Started,
    /// Over, like the `game_ended` event.
    Finished {
        #[ts(as = "GameResult")]
        result: String,
        #[ts(as = "TerminationCode")]
        termination: String,
        winner: Option<Color>,
        message_zh: String,
        message_en: String,
    },
    /// Cancelled without a result: `reason` is `player` or `first_move_timeout`; `by` the player concerned.
    Aborted {
        #[ts(as = "AbortReasonCode")]
        reason: String,
        by: Color,
    },
}

impl From<&Status> for GameStatus {
    fn from(s: &Status) -> GameStatus {
        match s {
            Status::Created => GameStatus::Created,
            Status::Started => GameStatus::Started,
            Status::Finished { outcome } => {
                let text = guoxiang_game::outcome_text(outcome);
                GameStatus::Finished {
                    result: outcome.result().to_owned(),
                    termination: outcome.termination.code().to_owned(),
                    winner: outcome.winner.map(Color::from),
                    message_zh: text.zh,
                    message_en: text.en,
                }
            }
            Status::Aborted { reason } => {
                let by = match *reason {
                    AbortReason::Player { by } => by,
                    AbortReason::FirstMoveTimeout { side } => side,
                };
                GameStatus::Aborted { reason: reason.code().to_owned(), by: by.into() }
            }
        }
    }
}

/// The state of a game as a client needs it for a full resync: `guoxiang_game::Snapshot` without the server's
/// internals (exact clock state, lag reserves, server timestamps, configuration).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GameSnapshot {
    pub id: String,
    pub white: Player,
    pub black: Player,
    pub rated: bool,
    pub variant: Variant,
    /// The PGN `TimeControl` tag (`300+3`, `40/5400:1800`, `-` for none).
    pub time_control: String,
    /// The current position.
    pub fen: String,
    pub turn: Color,
    pub moves: Vec<MoveInfo>,
    /// Remaining times when the snapshot was taken (`null` without a time limit).
    pub clocks: Option<Clocks>,
    /// Whose clock is running, if any.
    pub clock_running: Option<Color>,
    pub status: GameStatus,
    /// Whose draw offer is pending.
    pub draw_offer: Option<Color>,
    /// `[white, black]`: whether each player may offer a draw now (re-offer rule, `docs/game.md`).
    pub may_offer_draw: [bool; 2],
    /// Whose takeback request is pending.
    pub takeback_offer: Option<Color>,
    /// After the game: who offered a rematch (`null`: nobody, or it was answered).
    pub rematch_offer: Option<Color>,
    /// `[white, black]`: whether each player is disconnected.
    pub disconnected: [bool; 2],
    /// The game's version: the number of events so far. Events after it come as `game_events`.
    pub version: u64,
    /// The rule set when it is not `online` (`touch_move`, `illegal_moves_count`, `king_into_check`, `adjournment`,
    /// joined by `+`; `docs/game.md`, "Rule sets").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rules: Option<String>,
    /// Touch-move: the squares the player on move has touched this turn, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub touches: Vec<String>,
    /// `[white, black]`: illegal moves counted so far (rule sets that count them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub illegal_moves: Option<[u8; 2]>,
    /// The clocks are stopped: paused by the arbiter, or adjourned with a sealed move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub paused: bool,
    /// An adjournment in progress (never the sealed move itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub adjournment: Option<AdjournmentInfo>,
    /// A claim or dispute waiting for the arbiter's decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub dispute: Option<DisputeInfo>,
    /// What the arbiters did, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<ArbiterNote>>", optional)]
    pub arbiter_notes: Vec<ArbiterNote>,
}

/// An adjournment as the players and spectators see it: who offered it, whether it is called (the player on move
/// must seal), who sealed (the move stays secret until the envelope is opened), a proposed and an agreed resumption
/// time (Unix milliseconds), and whether the session has started.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct AdjournmentInfo {
    pub offered_by: Option<Color>,
    pub called: bool,
    pub sealed_by: Option<Color>,
    pub proposed_by: Option<Color>,
    pub proposed_at_ms: Option<u64>,
    pub resume_at_ms: Option<u64>,
    pub resumed: bool,
}

impl From<&guoxiang_game::Adjournment> for AdjournmentInfo {
    fn from(a: &guoxiang_game::Adjournment) -> AdjournmentInfo {
        AdjournmentInfo {
            offered_by: a.offered_by.map(Color::from),
            called: a.called,
            sealed_by: a.sealed.as_ref().map(|s| s.by.into()),
            proposed_by: a.proposal.map(|p| p.by.into()),
            proposed_at_ms: a.proposal.map(|p| p.at_ms),
            resume_at_ms: a.resume_at_ms,
            resumed: a.resumed,
        }
    }
}

/// A player's claim or dispute waiting for the arbiter.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct DisputeInfo {
    pub by: Color,
    pub reason: String,
}

/// One act of an arbiter: who, what (`act`) and what it did in words.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct ArbiterNote {
    pub arbiter: String,
    pub act: String,
    pub message_zh: String,
    pub message_en: String,
}

impl From<&Snapshot> for GameSnapshot {
    fn from(s: &Snapshot) -> GameSnapshot {
        let running = match s.clock.state() {
            ClockState::Running(side) => Some(side),
            _ => None,
        };
        GameSnapshot {
            id: s.id.clone(),
            white: (&s.white).into(),
            black: (&s.black).into(),
            rated: s.rated,
            variant: (&s.variant).into(),
            time_control: s.clock.control().to_pgn(),
            fen: s.fen.clone(),
            turn: s.turn.into(),
            moves: s
                .moves
                .iter()
                .map(|m| MoveInfo { uci: m.uci.to_string(), san: m.san.to_string(), clock_ms: m.clock_ms })
                .collect(),
            clocks: s.clocks.map(Clocks::from),
            clock_running: running.map(|side| match side {
                guoxiang_clock::Side::White => Color::White,
                guoxiang_clock::Side::Black => Color::Black,
            }),
            status: match (&s.status, s.arbiter_log.iter().rev().find(|r| r.act == "set_result")) {
                // A result the arbiter set keeps the arbiter's words (the reason).
                (Status::Finished { outcome }, Some(r))
                    if outcome.termination == guoxiang_game::Termination::Adjudication =>
                {
                    match (&s.status).into() {
                        GameStatus::Finished { result, termination, winner, .. } => GameStatus::Finished {
                            result,
                            termination,
                            winner,
                            message_zh: r.message_zh.clone(),
                            message_en: r.message_en.clone(),
                        },
                        other => other,
                    }
                }
                (status, _) => status.into(),
            },
            draw_offer: s.draw_offer.map(Color::from),
            may_offer_draw: s.may_offer,
            takeback_offer: s.takeback_offer.map(Color::from),
            rematch_offer: s.rematch_offer.map(Color::from),
            disconnected: s.disconnected.map(|d| d.is_some()),
            version: s.version,
            rules: (s.config.rules != guoxiang_game::Rules::ONLINE).then(|| s.config.rules.name()),
            touches: s.touches.clone(),
            illegal_moves: (s.illegal_moves != [0, 0]).then_some(s.illegal_moves),
            paused: s.adjourned_at.is_some() && matches!(s.status, Status::Created | Status::Started),
            adjournment: s.adjournment.as_ref().map(AdjournmentInfo::from),
            dispute: s.dispute.as_ref().map(|d| DisputeInfo { by: d.by.into(), reason: d.reason.clone() }),
            arbiter_notes: s
                .arbiter_log
                .iter()
                .map(|r| ArbiterNote {
                    arbiter: r.arbiter.name.clone(),
                    act: r.act.clone(),
                    message_zh: r.message_zh.clone(),
                    message_en: r.message_en.clone(),
                })
                .collect(),
        }
    }
}

/// Why a move is illegal (`guoxiang_core::Reason`), for the UI: a stable `code` (see
/// `guoxiang_core::explain::REASON_CODES`), the squares to highlight (most important first, `e4` style) and a
/// sentence in both languages.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct IllegalMoveReason {
    #[ts(as = "ReasonCode")]
    pub code: String,
    pub squares: Vec<String>,
    pub message_zh: String,
    pub message_en: String,
}

impl From<&guoxiang_core::Reason> for IllegalMoveReason {
    fn from(r: &guoxiang_core::Reason) -> IllegalMoveReason {
        let text = r.text();
        IllegalMoveReason {
            code: r.code().to_owned(),
            squares: r.squares().iter().map(|s| s.to_string()).collect(),
            message_zh: text.zh,
            message_en: text.en,
        }
    }
}
