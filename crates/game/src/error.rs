//! Why a command was refused, and why a game could not be set up or restored. Every message exists in 简体中文 and
//! English. A refused command leaves the game exactly as it was (same version, no events).

use core::fmt;

use guoxiang_core::{Color, Lang, Outcome, Text};

use crate::event::outcome_text;

/// A command the game refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The game is over.
    GameOver(Outcome),
    /// The game was aborted.
    Aborted,
    /// The game is adjourned: only `Resume`, `Resign`, `Abort` and presence updates are accepted.
    Adjourned,
    /// `Resume` on a game that is not adjourned.
    NotAdjourned,
    /// `Adjourn` on a game that is adjourned already.
    AlreadyAdjourned,
    /// It is the other player's turn (moves and draw claims are made by the player to move, Article 9.2/9.3).
    NotYourTurn { by: Color },
    /// The move text could not be read.
    BadMoveText { text: String, problem: String },
    /// The move is not legal in the current position.
    IllegalMove { mv: String, fen: String },
    /// `by` already has a draw offer pending.
    DrawAlreadyOffered { by: Color },
    /// A draw offer on one's own turn without a move: make it together with the move (Article 9.1.2.1).
    OfferWithMove { by: Color },
    /// `by`'s last offer was declined and the opponent has not offered since.
    ReofferNotAllowed { by: Color },
    /// There is no draw offer from the opponent to accept or decline.
    NoDrawOffer { by: Color },
    /// Both players have moved: the game can no longer be aborted (resign instead).
    CannotAbort,
    /// Takebacks exist only in casual (unrated) games.
    TakebackInRated,
    /// `by` has no move that could be taken back.
    NothingToTakeBack { by: Color },
    /// `by` already asked for a takeback.
    TakebackAlreadyOffered { by: Color },
    /// There is no takeback request from the opponent.
    NoTakebackOffer { by: Color },
    /// Victory can be claimed only once both players have moved (before that, abort).
    NotStarted,
    /// The opponent of `by` is connected.
    OpponentConnected { by: Color },
    /// The opponent has not been gone long enough yet.
    ClaimTooEarly { by: Color, remaining_ms: u64 },
    /// A rematch before the game is over.
    NotOver,
    /// The rematch was agreed already.
    RematchAgreed,
    /// There is no rematch offer from the opponent to accept or decline.
    NoRematchOffer { by: Color },
    /// `by` has already offered a rematch.
    RematchAlreadyOffered { by: Color },
    /// `touch` or `adjust` in a game not played with touch-move.
    TouchMoveOff,
    /// `touch` or `adjust` of a square that is not a square, or has no piece on it.
    NothingToTouch { square: String },
    /// The move breaks the touch-move rule: what the touched pieces oblige, in zh and en.
    TouchMove { zh: String, en: String },
    /// Adjournment: not in this game's rule set, or the game has not started (both players must have moved).
    AdjournmentNotAllowed,
    /// A sealed move before the adjournment was called (agreed by both, or by the arbiter).
    AdjournmentNotCalled,
    /// `by` has already offered to adjourn.
    AdjournmentAlreadyOffered { by: Color },
    /// A move while the sealed move waits to be opened (the sealer's opponent is not at the board yet).
    SealedMovePending,
    /// A resumption time that is not after now, or a proposal when no move is sealed.
    BadResumptionTime,
    /// A takeback, an abort or a rematch in a tournament game (the pairings decide who plays whom, and a move made
    /// stands).
    TournamentGame,
    /// An arbiter's decision without a claim or dispute waiting for one.
    NoDispute,
    /// `by` has already called the arbiter and waits for the decision.
    ArbiterAlreadyCalled { by: Color },
    /// An arbiter's act or a player's claim that cannot be carried out as given (a bad result, an empty or too long
    /// text, no clock to add time to); the message says why.
    BadRuling { zh: String, en: String },
    /// Opening a sealed move when none is sealed.
    NoSealedMove,
    /// Something that should not happen (a clock in an unexpected state); the game is unchanged.
    Internal(String),
}

impl CommandError {
    pub fn message(&self, lang: Lang) -> String {
        match lang {
            Lang::Zh => self.message_zh(),
            Lang::En => self.message_en(),
        }
    }

    pub fn text(&self) -> Text {
        Text { zh: self.message_zh(), en: self.message_en() }
    }

    /// A stable identifier for protocols, e.g. `not_your_turn`.
    pub fn code(&self) -> &'static str {
        match self {
            CommandError::GameOver(_) => "game_over",
            CommandError::Aborted => "aborted",
            CommandError::Adjourned => "adjourned",
            CommandError::NotAdjourned => "not_adjourned",
            CommandError::AlreadyAdjourned => "already_adjourned",
            CommandError::NotYourTurn { .. } => "not_your_turn",
            CommandError::BadMoveText { .. } => "bad_move_text",
            CommandError::IllegalMove { .. } => "illegal_move",
            CommandError::DrawAlreadyOffered { .. } => "draw_already_offered",
            CommandError::OfferWithMove { .. } => "offer_with_move",
            CommandError::ReofferNotAllowed { .. } => "reoffer_not_allowed",
            CommandError::NoDrawOffer { .. } => "no_draw_offer",
            CommandError::CannotAbort => "cannot_abort",
            CommandError::TakebackInRated => "takeback_in_rated",
            CommandError::NothingToTakeBack { .. } => "nothing_to_take_back",
            CommandError::TakebackAlreadyOffered { .. } => "takeback_already_offered",
            CommandError::NoTakebackOffer { .. } => "no_takeback_offer",
            CommandError::NotStarted => "not_started",
            CommandError::OpponentConnected { .. } => "opponent_connected",
            CommandError::ClaimTooEarly { .. } => "claim_too_early",
            CommandError::NotOver => "not_over",
            CommandError::RematchAgreed => "rematch_done",
            CommandError::NoRematchOffer { .. } => "no_rematch_offer",
            CommandError::RematchAlreadyOffered { .. } => "rematch_offered",
            CommandError::TouchMoveOff => "touch_move_off",
            CommandError::NothingToTouch { .. } => "nothing_to_touch",
            CommandError::TouchMove { .. } => "touch_move",
            CommandError::AdjournmentNotAllowed => "adjournment_not_allowed",
            CommandError::AdjournmentNotCalled => "adjournment_not_called",
            CommandError::AdjournmentAlreadyOffered { .. } => "adjournment_offered",
            CommandError::SealedMovePending => "sealed_move_pending",
            CommandError::BadResumptionTime => "bad_resumption_time",
            CommandError::TournamentGame => "tournament_game",
            CommandError::NoDispute => "no_dispute",
            CommandError::ArbiterAlreadyCalled { .. } => "arbiter_already_called",
            CommandError::BadRuling { .. } => "bad_ruling",
            CommandError::NoSealedMove => "no_sealed_move",
            CommandError::Internal(_) => "internal",
        }
    }

    fn message_en(&self) -> String {
        let who = |c: &Color| c.fold("White", "Black");
        match self {
            CommandError::GameOver(o) => format!("the game is over: {}", outcome_text(o).en),
            CommandError::Aborted => "the game was aborted".into(),
            CommandError::Adjourned => "the game is adjourned; resume it first".into(),
            CommandError::NotAdjourned => "the game is not adjourned".into(),
            CommandError::AlreadyAdjourned => "the game is already adjourned".into(),
            CommandError::NotYourTurn { by } => format!("it is not {}'s turn", who(by)),
            CommandError::BadMoveText { text, problem } => format!("cannot read the move {text:?}: {problem}"),
            CommandError::IllegalMove { mv, fen } => format!("{mv} is not a legal move in {fen}"),
            CommandError::DrawAlreadyOffered { by } => format!("{} has already offered a draw", who(by)),
            CommandError::OfferWithMove { by } => {
                format!("{} is to move: offer the draw together with your move (FIDE Article 9.1.2.1)", who(by))
            }
            CommandError::ReofferNotAllowed { by } => format!(
                "{}'s last draw offer was declined; you may offer again only after your opponent has offered a draw",
                who(by)
            ),
            CommandError::NoDrawOffer { by } => format!("there is no draw offer to {} to answer", who(by)),
            CommandError::CannotAbort => {
                "both players have moved: the game can no longer be aborted (resign instead)".into()
            }
            CommandError::TakebackInRated => "takebacks are not allowed in rated games".into(),
            CommandError::NothingToTakeBack { by } => format!("{} has no move to take back", who(by)),
            CommandError::TakebackAlreadyOffered { by } => format!("{} has already asked for a takeback", who(by)),
            CommandError::NoTakebackOffer { by } => format!("there is no takeback request to {} to answer", who(by)),
            CommandError::NotStarted => {
                "victory can be claimed only after both players have moved; abort the game instead".into()
            }
            CommandError::OpponentConnected { by } => format!("{}'s opponent is connected", who(by)),
            CommandError::ClaimTooEarly { remaining_ms, .. } => format!(
                "the opponent has not been gone long enough: you can claim in {:.1} s",
                *remaining_ms as f64 / 1000.0
            ),
            CommandError::NotOver => "the game is not over".into(),
            CommandError::RematchAgreed => "the rematch has already started".into(),
            CommandError::NoRematchOffer { by } => format!("there is no rematch offer to {} to answer", who(by)),
            CommandError::RematchAlreadyOffered { by } => format!("{} has already offered a rematch", who(by)),
            CommandError::TouchMoveOff => "this game is not played with the touch-move rule".into(),
            CommandError::NothingToTouch { square } => format!("there is no piece on {square:?} to touch"),
            CommandError::TouchMove { en, .. } => en.clone(),
            CommandError::AdjournmentNotAllowed => {
                "this game cannot be adjourned (not in its rules, or before both players have moved)".into()
            }
            CommandError::AdjournmentNotCalled => {
                "the adjournment has not been called: both players must agree, or the arbiter call it".into()
            }
            CommandError::AdjournmentAlreadyOffered { by } => format!("{} has already offered to adjourn", who(by)),
            CommandError::SealedMovePending => {
                "the sealed move has not been opened yet: it is opened when the sealer's opponent is at the board"
                    .into()
            }
            CommandError::BadResumptionTime => {
                "a resumption time must be after now, and only for a game with a sealed move".into()
            }
            CommandError::TournamentGame => {
                "a tournament game has no takebacks, no abort and no rematch: the pairings decide who plays whom".into()
            }
            CommandError::NoDispute => "no claim or dispute is waiting for the arbiter's decision".into(),
            CommandError::ArbiterAlreadyCalled { by } => {
                format!("{} has already called the arbiter; the decision is pending", who(by))
            }
            CommandError::BadRuling { en, .. } => en.clone(),
            CommandError::NoSealedMove => "no move is sealed in this game".into(),
            CommandError::Internal(e) => format!("internal error: {e}"),
        }
    }

    fn message_zh(&self) -> String {
        let who = |c: &Color| c.name_zh();
        match self {
            CommandError::GameOver(o) => format!("对局已经结束：{}", outcome_text(o).zh),
            CommandError::Aborted => "对局已取消".into(),
            CommandError::Adjourned => "对局已封局暂停，请先续赛".into(),
            CommandError::NotAdjourned => "对局没有暂停".into(),
            CommandError::AlreadyAdjourned => "对局已经暂停".into(),
            CommandError::NotYourTurn { by } => format!("现在不是{}走棋", who(by)),
            CommandError::BadMoveText { text, problem } => format!("无法识别着法 {text:?}：{problem}"),
            CommandError::IllegalMove { mv, fen } => format!("着法 {mv} 在局面 {fen} 中不合规则"),
            CommandError::DrawAlreadyOffered { by } => format!("{}已经提和", who(by)),
            CommandError::OfferWithMove { by } => {
                format!("轮到{}走棋：请走棋的同时提和（国际棋联规则第9.1.2.1条）", who(by))
            }
            CommandError::ReofferNotAllowed { by } => {
                format!("{}的提和已被拒绝，须等对方也提和一次以后才能再次提和", who(by))
            }
            CommandError::NoDrawOffer { by } => format!("没有需要{}答复的提和", who(by)),
            CommandError::CannotAbort => "双方都已走棋，不能再取消对局（可以认输）".into(),
            CommandError::TakebackInRated => "等级分对局不允许悔棋".into(),
            CommandError::NothingToTakeBack { by } => format!("{}没有可以悔的着法", who(by)),
            CommandError::TakebackAlreadyOffered { by } => format!("{}已经请求悔棋", who(by)),
            CommandError::NoTakebackOffer { by } => format!("没有需要{}答复的悔棋请求", who(by)),
            CommandError::NotStarted => "双方都走棋之后才能要求判胜；现在可以取消对局".into(),
            CommandError::OpponentConnected { by } => format!("{}的对手仍在线", who(by)),
            CommandError::ClaimTooEarly { remaining_ms, .. } => {
                format!("对手离开的时间还不够长：{:.1} 秒后可以要求判胜", *remaining_ms as f64 / 1000.0)
            }
            CommandError::NotOver => "对局尚未结束".into(),
            CommandError::RematchAgreed => "已经开始了再战".into(),
            CommandError::NoRematchOffer { by } => format!("没有需要{}答复的再战邀请", who(by)),
            CommandError::RematchAlreadyOffered { by } => format!("{}已经提出再战", who(by)),
            CommandError::TouchMoveOff => "本局不采用摸子走子规则".into(),
            CommandError::NothingToTouch { square } => format!("{square:?} 上没有可以摸的棋子"),
            CommandError::TouchMove { zh, .. } => zh.clone(),
            CommandError::AdjournmentNotAllowed => "本局不能封棋暂停（规则不允许，或双方还没有都走棋）".into(),
            CommandError::AdjournmentNotCalled => "还没有宣布封棋：须双方同意，或由裁判宣布".into(),
            CommandError::AdjournmentAlreadyOffered { by } => format!("{}已经提出封棋", who(by)),
            CommandError::SealedMovePending => "封棋着法尚未开启：封棋方的对手到场后才开启".into(),
            CommandError::BadResumptionTime => "续赛时间必须晚于现在，而且只用于已封棋的对局".into(),
            CommandError::TournamentGame => "比赛对局不能悔棋、不能取消，也不能再战：谁和谁下由编排决定".into(),
            CommandError::NoDispute => "没有等待裁判裁决的申诉或争议".into(),
            CommandError::ArbiterAlreadyCalled { by } => format!("{}已经请裁判，正在等待裁决", who(by)),
            CommandError::BadRuling { zh, .. } => zh.clone(),
            CommandError::NoSealedMove => "本局没有封棋着法".into(),
            CommandError::Internal(e) => format!("内部错误：{e}"),
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message_en())
    }
}

impl std::error::Error for CommandError {}

/// Why a game could not be created or restored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The start FEN is not a valid position.
    BadFen { fen: String, problem: String },
    /// The start position is already finished (checkmate, stalemate, dead position, 75 moves).
    AlreadyOver { fen: String },
    /// A snapshot that does not replay: a move is illegal, or the position or state disagrees.
    BadSnapshot(String),
}

impl SetupError {
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (SetupError::BadFen { fen, problem }, Lang::En) => format!("invalid start position {fen:?}: {problem}"),
            (SetupError::BadFen { fen, problem }, Lang::Zh) => format!("起始局面 {fen:?} 无效：{problem}"),
            (SetupError::AlreadyOver { fen }, Lang::En) => format!("the start position {fen:?} is already finished"),
            (SetupError::AlreadyOver { fen }, Lang::Zh) => format!("起始局面 {fen:?} 已经是终局"),
            (SetupError::BadSnapshot(e), Lang::En) => format!("cannot restore the game: {e}"),
            (SetupError::BadSnapshot(e), Lang::Zh) => format!("无法恢复对局：{e}"),
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for SetupError {}
