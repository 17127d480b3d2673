//! The closed sets of codes the protocol carries as strings (the game crate's events keep them as `String`), as
//! enums: the TypeScript bindings show them as unions of string literals (`#[ts(as = …)]` on the string fields),
//! and the server can match on them. Tests check them against the game and rules crates.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A game's result: `1-0`, `0-1` or `1/2-1/2`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
}

/// How a game ended: `guoxiang_core::Termination::code`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TerminationCode {
    Checkmate,
    Stalemate,
    DeadPosition,
    ThreefoldRepetition,
    FivefoldRepetition,
    FiftyMoves,
    SeventyFiveMoves,
    Resignation,
    Agreement,
    TimeForfeit,
    TimeForfeitDraw,
    Abandoned,
    Adjudication,
    IllegalMove,
    SealedMove,
    LateArrival,
    Promotion,
}

impl TerminationCode {
    /// Every value, in order.
    pub const ALL: [TerminationCode; 17] = [
        TerminationCode::Checkmate,
        TerminationCode::Stalemate,
        TerminationCode::DeadPosition,
        TerminationCode::ThreefoldRepetition,
        TerminationCode::FivefoldRepetition,
        TerminationCode::FiftyMoves,
        TerminationCode::SeventyFiveMoves,
        TerminationCode::Resignation,
        TerminationCode::Agreement,
        TerminationCode::TimeForfeit,
        TerminationCode::TimeForfeitDraw,
        TerminationCode::Abandoned,
        TerminationCode::Adjudication,
        TerminationCode::IllegalMove,
        TerminationCode::SealedMove,
        TerminationCode::LateArrival,
        TerminationCode::Promotion,
    ];

    /// The code as it is written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            TerminationCode::Checkmate => "checkmate",
            TerminationCode::Stalemate => "stalemate",
            TerminationCode::DeadPosition => "dead_position",
            TerminationCode::ThreefoldRepetition => "threefold_repetition",
            TerminationCode::FivefoldRepetition => "fivefold_repetition",
            TerminationCode::FiftyMoves => "fifty_moves",
            TerminationCode::SeventyFiveMoves => "seventy_five_moves",
            TerminationCode::Resignation => "resignation",
            TerminationCode::Agreement => "agreement",
            TerminationCode::TimeForfeit => "time_forfeit",
            TerminationCode::TimeForfeitDraw => "time_forfeit_draw",
            TerminationCode::Abandoned => "abandoned",
            TerminationCode::Adjudication => "adjudication",
            TerminationCode::IllegalMove => "illegal_move",
            TerminationCode::SealedMove => "sealed_move",
            TerminationCode::LateArrival => "late_arrival",
            TerminationCode::Promotion => "promotion",
        }
    }

    /// The value for a code.
    pub fn parse(code: &str) -> Option<TerminationCode> {
        TerminationCode::ALL.into_iter().find(|c| c.as_str() == code)
    }
}

/// Why a game was aborted: `guoxiang_game::AbortReason::code`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AbortReasonCode {
    Player,
    FirstMoveTimeout,
}

impl AbortReasonCode {
    /// Every value, in order.
    pub const ALL: [AbortReasonCode; 2] = [AbortReasonCode::Player, AbortReasonCode::FirstMoveTimeout];

    /// The code as it is written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            AbortReasonCode::Player => "player",
            AbortReasonCode::FirstMoveTimeout => "first_move_timeout",
        }
    }

    /// The value for a code.
    pub fn parse(code: &str) -> Option<AbortReasonCode> {
        AbortReasonCode::ALL.into_iter().find(|c| c.as_str() == code)
    }
}

/// Why a move is illegal: `guoxiang_core::explain::REASON_CODES`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ReasonCode {
    SameSquare,
    NoPiece,
    NotYourTurn,
    BadPieceMove,
    PawnBackward,
    PawnSideways,
    PawnDoubleStep,
    PawnDiagonalEmpty,
    PawnForwardCapture,
    NoEnPassant,
    PathBlocked,
    OwnPiece,
    PromotionNotAllowed,
    InvalidPromotion,
    PromotionRequired,
    Pinned,
    EpExposesKing,
    KingIntoCheck,
    InCheck,
    DoubleCheck,
    CastleKingMoved,
    CastleRookMoved,
    CastleRightsLost,
    CastleInCheck,
    CastleBlocked,
    CastleThroughCheck,
    CastleIntoCheck,
}

impl ReasonCode {
    /// Every value, in order.
    pub const ALL: [ReasonCode; 27] = [
        ReasonCode::SameSquare,
        ReasonCode::NoPiece,
        ReasonCode::NotYourTurn,
        ReasonCode::BadPieceMove,
        ReasonCode::PawnBackward,
        ReasonCode::PawnSideways,
        ReasonCode::PawnDoubleStep,
        ReasonCode::PawnDiagonalEmpty,
        ReasonCode::PawnForwardCapture,
        ReasonCode::NoEnPassant,
        ReasonCode::PathBlocked,
        ReasonCode::OwnPiece,
        ReasonCode::PromotionNotAllowed,
        ReasonCode::InvalidPromotion,
        ReasonCode::PromotionRequired,
        ReasonCode::Pinned,
        ReasonCode::EpExposesKing,
        ReasonCode::KingIntoCheck,
        ReasonCode::InCheck,
        ReasonCode::DoubleCheck,
        ReasonCode::CastleKingMoved,
        ReasonCode::CastleRookMoved,
        ReasonCode::CastleRightsLost,
        ReasonCode::CastleInCheck,
        ReasonCode::CastleBlocked,
        ReasonCode::CastleThroughCheck,
        ReasonCode::CastleIntoCheck,
    ];

    /// The code as it is written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ReasonCode::SameSquare => "same_square",
            ReasonCode::NoPiece => "no_piece",
            ReasonCode::NotYourTurn => "not_your_turn",
            ReasonCode::BadPieceMove => "bad_piece_move",
            ReasonCode::PawnBackward => "pawn_backward",
            ReasonCode::PawnSideways => "pawn_sideways",
            ReasonCode::PawnDoubleStep => "pawn_double_step",
            ReasonCode::PawnDiagonalEmpty => "pawn_diagonal_empty",
            ReasonCode::PawnForwardCapture => "pawn_forward_capture",
            ReasonCode::NoEnPassant => "no_en_passant",
            ReasonCode::PathBlocked => "path_blocked",
            ReasonCode::OwnPiece => "own_piece",
            ReasonCode::PromotionNotAllowed => "promotion_not_allowed",
            ReasonCode::InvalidPromotion => "invalid_promotion",
            ReasonCode::PromotionRequired => "promotion_required",
            ReasonCode::Pinned => "pinned",
            ReasonCode::EpExposesKing => "ep_exposes_king",
            ReasonCode::KingIntoCheck => "king_into_check",
            ReasonCode::InCheck => "in_check",
            ReasonCode::DoubleCheck => "double_check",
            ReasonCode::CastleKingMoved => "castle_king_moved",
            ReasonCode::CastleRookMoved => "castle_rook_moved",
            ReasonCode::CastleRightsLost => "castle_rights_lost",
            ReasonCode::CastleInCheck => "castle_in_check",
            ReasonCode::CastleBlocked => "castle_blocked",
            ReasonCode::CastleThroughCheck => "castle_through_check",
            ReasonCode::CastleIntoCheck => "castle_into_check",
        }
    }

    /// The value for a code.
    pub fn parse(code: &str) -> Option<ReasonCode> {
        ReasonCode::ALL.into_iter().find(|c| c.as_str() == code)
    }
}

/// The `code` of an `error` answer: the protocol's own (`PROTOCOL_ERROR_CODES`), the game's
/// (`guoxiang_game::CommandError::code`) and the server's (accounts, lobby, challenges, rematches).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    FrameTooLarge,
    BadMessage,
    UnsupportedProtocol,
    HelloRequired,
    UnknownGame,
    NotAPlayer,
    BadRequest,
    GameOver,
    Aborted,
    Adjourned,
    NotAdjourned,
    AlreadyAdjourned,
    NotYourTurn,
    BadMoveText,
    IllegalMove,
    DrawAlreadyOffered,
    OfferWithMove,
    ReofferNotAllowed,
    NoDrawOffer,
    CannotAbort,
    TakebackInRated,
    NothingToTakeBack,
    TakebackAlreadyOffered,
    NoTakebackOffer,
    NotStarted,
    OpponentConnected,
    ClaimTooEarly,
    /// `touch` or `adjust` in a game not played with touch-move.
    TouchMoveOff,
    /// `touch` or `adjust` of an empty or unreadable square.
    NothingToTouch,
    /// The move breaks the touch-move rule (the message says what the touched pieces oblige).
    TouchMove,
    /// Adjournment not in this game's rules, or before both players have moved.
    AdjournmentNotAllowed,
    /// A sealed move before the adjournment was called.
    AdjournmentNotCalled,
    /// The player has already offered to adjourn.
    AdjournmentOffered,
    /// A move while the sealed move waits to be opened.
    SealedMovePending,
    /// A resumption time not after now, or without a sealed move.
    BadResumptionTime,
    /// A takeback or a rematch in a tournament game.
    TournamentGame,
    /// An arbiter's decision with no claim waiting for one.
    NoDispute,
    /// The player has already called the arbiter.
    ArbiterAlreadyCalled,
    /// An arbiter's act or a claim that cannot be carried out as given (the message says why).
    BadRuling,
    /// Opening a sealed move when none is sealed.
    NoSealedMove,
    Internal,
    /// The server could not commit the change; nothing changed, and the client may send it again.
    NotSaved,
    LoginRequired,
    RateLimited,
    NotFound,
    NotRatable,
    BadTimeControl,
    BadFen,
    BadSetup,
    SelfChallenge,
    ChallengeClosed,
    NotForYou,
    TooManySeeks,
    NotYours,
    OwnSeek,
    UnknownPool,
    NotOver,
    RematchDone,
    NoRematchOffer,
    RematchOffered,
    /// Too many pending challenges from this user, or to the challenged one.
    TooManyChallenges,
    /// Too many games in progress for this user.
    TooManyGames,
    /// An `arbiter` message from a user who is not an arbiter of that game.
    NotArbiter,
}

impl ErrorCode {
    /// Every value, in order.
    pub const ALL: [ErrorCode; 63] = [
        ErrorCode::FrameTooLarge,
        ErrorCode::BadMessage,
        ErrorCode::UnsupportedProtocol,
        ErrorCode::HelloRequired,
        ErrorCode::UnknownGame,
        ErrorCode::NotAPlayer,
        ErrorCode::BadRequest,
        ErrorCode::GameOver,
        ErrorCode::Aborted,
        ErrorCode::Adjourned,
        ErrorCode::NotAdjourned,
        ErrorCode::AlreadyAdjourned,
        ErrorCode::NotYourTurn,
        ErrorCode::BadMoveText,
        ErrorCode::IllegalMove,
        ErrorCode::DrawAlreadyOffered,
        ErrorCode::OfferWithMove,
        ErrorCode::ReofferNotAllowed,
        ErrorCode::NoDrawOffer,
        ErrorCode::CannotAbort,
        ErrorCode::TakebackInRated,
        ErrorCode::NothingToTakeBack,
        ErrorCode::TakebackAlreadyOffered,
        ErrorCode::NoTakebackOffer,
        ErrorCode::NotStarted,
        ErrorCode::OpponentConnected,
        ErrorCode::ClaimTooEarly,
        ErrorCode::TouchMoveOff,
        ErrorCode::NothingToTouch,
        ErrorCode::TouchMove,
        ErrorCode::AdjournmentNotAllowed,
        ErrorCode::AdjournmentNotCalled,
        ErrorCode::AdjournmentOffered,
        ErrorCode::SealedMovePending,
        ErrorCode::BadResumptionTime,
        ErrorCode::TournamentGame,
        ErrorCode::NoDispute,
        ErrorCode::ArbiterAlreadyCalled,
        ErrorCode::BadRuling,
        ErrorCode::NoSealedMove,
        ErrorCode::Internal,
        ErrorCode::NotSaved,
        ErrorCode::LoginRequired,
        ErrorCode::RateLimited,
        ErrorCode::NotFound,
        ErrorCode::NotRatable,
        ErrorCode::BadTimeControl,
        ErrorCode::BadFen,
        ErrorCode::BadSetup,
        ErrorCode::SelfChallenge,
        ErrorCode::ChallengeClosed,
        ErrorCode::NotForYou,
        ErrorCode::TooManySeeks,
        ErrorCode::NotYours,
        ErrorCode::OwnSeek,
        ErrorCode::UnknownPool,
        ErrorCode::NotOver,
        ErrorCode::RematchDone,
        ErrorCode::NoRematchOffer,
        ErrorCode::RematchOffered,
        ErrorCode::TooManyChallenges,
        ErrorCode::TooManyGames,
        ErrorCode::NotArbiter,
    ];

    /// The code as it is written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::FrameTooLarge => "frame_too_large",
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::UnsupportedProtocol => "unsupported_protocol",
            ErrorCode::HelloRequired => "hello_required",
            ErrorCode::UnknownGame => "unknown_game",
            ErrorCode::NotAPlayer => "not_a_player",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::GameOver => "game_over",
            ErrorCode::Aborted => "aborted",
            ErrorCode::Adjourned => "adjourned",
            ErrorCode::NotAdjourned => "not_adjourned",
            ErrorCode::AlreadyAdjourned => "already_adjourned",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::BadMoveText => "bad_move_text",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::DrawAlreadyOffered => "draw_already_offered",
            ErrorCode::OfferWithMove => "offer_with_move",
            ErrorCode::ReofferNotAllowed => "reoffer_not_allowed",
            ErrorCode::NoDrawOffer => "no_draw_offer",
            ErrorCode::CannotAbort => "cannot_abort",
            ErrorCode::TakebackInRated => "takeback_in_rated",
            ErrorCode::NothingToTakeBack => "nothing_to_take_back",
            ErrorCode::TakebackAlreadyOffered => "takeback_already_offered",
            ErrorCode::NoTakebackOffer => "no_takeback_offer",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::OpponentConnected => "opponent_connected",
            ErrorCode::ClaimTooEarly => "claim_too_early",
            ErrorCode::TouchMoveOff => "touch_move_off",
            ErrorCode::NothingToTouch => "nothing_to_touch",
            ErrorCode::TouchMove => "touch_move",
            ErrorCode::AdjournmentNotAllowed => "adjournment_not_allowed",
            ErrorCode::AdjournmentNotCalled => "adjournment_not_called",
            ErrorCode::AdjournmentOffered => "adjournment_offered",
            ErrorCode::SealedMovePending => "sealed_move_pending",
            ErrorCode::BadResumptionTime => "bad_resumption_time",
            ErrorCode::TournamentGame => "tournament_game",
            ErrorCode::NoDispute => "no_dispute",
            ErrorCode::ArbiterAlreadyCalled => "arbiter_already_called",
            ErrorCode::BadRuling => "bad_ruling",
            ErrorCode::NoSealedMove => "no_sealed_move",
            ErrorCode::Internal => "internal",
            ErrorCode::NotSaved => "not_saved",
            ErrorCode::LoginRequired => "login_required",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::NotFound => "not_found",
            ErrorCode::NotRatable => "not_ratable",
            ErrorCode::BadTimeControl => "bad_time_control",
            ErrorCode::BadFen => "bad_fen",
            ErrorCode::BadSetup => "bad_setup",
            ErrorCode::SelfChallenge => "self_challenge",
            ErrorCode::ChallengeClosed => "challenge_closed",
            ErrorCode::NotForYou => "not_for_you",
            ErrorCode::TooManySeeks => "too_many_seeks",
            ErrorCode::NotYours => "not_yours",
            ErrorCode::OwnSeek => "own_seek",
            ErrorCode::UnknownPool => "unknown_pool",
            ErrorCode::NotOver => "not_over",
            ErrorCode::RematchDone => "rematch_done",
            ErrorCode::NoRematchOffer => "no_rematch_offer",
            ErrorCode::RematchOffered => "rematch_offered",
            ErrorCode::TooManyChallenges => "too_many_challenges",
            ErrorCode::TooManyGames => "too_many_games",
            ErrorCode::NotArbiter => "not_arbiter",
        }
    }

    /// The value for a code.
    pub fn parse(code: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.as_str() == code)
    }
}
