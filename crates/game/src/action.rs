// SPDX-License-Identifier: GPL-3.0-or-later
//! [`Action`]: what a player asks of a game — the one command type from the wire (the WebSocket's `game` message,
//! the Lichess API's endpoints) through the server's actor to [`Game::apply`](crate::Game::apply), where it arrives
//! as [`Command::Player`](crate::Command::Player) with the colour the server knows the sender plays.

use guoxiang_core::{ClaimKind, Move, Position, UciMove};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::CommandError;

/// What a player asks of a game. Serialized with a `t` tag (`move`, `resign`, `claim_draw`, …), as the protocol's
/// `game` message carries it; unknown fields are refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "t", rename_all = "snake_case", from = "ActionRepr")]
pub enum Action {
    /// Play a move (on the wire in UCI: `e2e4`, `e7e8q`; castling `e1g1` or king takes rook). `offer_draw` offers a
    /// draw with the move (Article 9.1.2.1).
    Move {
        #[serde(rename = "uci", with = "uci_text")]
        #[cfg_attr(feature = "ts", ts(rename = "uci", type = "string"))]
        mv: MoveInput,
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
        offer_draw: bool,
    },
    /// Resign (Article 5.1.2).
    Resign,
    /// Offer a draw on the opponent's turn (on one's own turn, with the move); accepts the opponent's pending offer.
    OfferDraw,
    /// Accept the opponent's draw offer.
    AcceptDraw,
    /// Decline the opponent's draw offer.
    DeclineDraw,
    /// Claim a draw (Article 9.2 / 9.3), about the current position or with the move one intends to play (UCI).
    ClaimDraw {
        #[serde(with = "claim_kind")]
        #[cfg_attr(feature = "ts", ts(type = "ClaimKind"))]
        kind: ClaimKind,
        #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_uci_text")]
        #[cfg_attr(feature = "ts", ts(optional, type = "string"))]
        intended: Option<MoveInput>,
    },
    /// Cancel the game (only before both players have moved).
    Abort,
    /// Ask to take back moves (casual games); accepts the opponent's pending request.
    TakebackOffer,
    /// Accept the opponent's takeback request.
    TakebackAccept,
    /// Decline the opponent's takeback request.
    TakebackDecline,
    /// Claim the game because the opponent has been disconnected for longer than
    /// [`GameConfig::disconnect_timeout_ms`](crate::GameConfig::disconnect_timeout_ms): a win, or a draw if the
    /// claimant cannot checkmate by any series of legal moves.
    ClaimVictory,
    /// Offer a rematch of a finished game (colours swapped); accepts the opponent's pending offer. A computer
    /// opponent accepts at once.
    RematchOffer,
    /// Accept the opponent's rematch offer.
    RematchAccept,
    /// Decline the opponent's rematch offer.
    RematchDecline,
    /// Touch-move games: the player on move touches the piece on `square` (e.g. `g1`) with the intention of moving
    /// it or capturing it (Article 4.3); it may bind the move.
    Touch { square: String },
    /// Touch-move games: the player on move says "I adjust" (摆正) and adjusts the piece on `square`; it binds nothing
    /// (Article 4.2).
    Adjust { square: String },
    /// Adjournable games: offer to adjourn; the opponent's offer pending, this agrees and the adjournment is called.
    AdjournOffer,
    /// Once the adjournment is called, the player on move seals `mv` (SAN or UCI as written; kept secret and judged
    /// when the envelope is opened).
    Seal { mv: String },
    /// While a move is sealed: propose the resumption time (Unix milliseconds); proposing the time the opponent
    /// proposed agrees to it.
    ProposeResumption { at_ms: u64 },
    /// Call the arbiter with a claim or dispute (`reason`, 1–300 characters): it waits for an arbiter's decision
    /// (the arbiter's `decide`). The clocks go on (online, a player cannot stop them; the arbiter may pause).
    CallArbiter { reason: String },
}

impl Action {
    /// A move given in UCI, without a draw offer.
    pub fn uci(uci: impl Into<String>) -> Action {
        Action::Move { mv: MoveInput::Uci(uci.into()), offer_draw: false }
    }

    /// A move given in SAN, without a draw offer.
    pub fn san(san: impl Into<String>) -> Action {
        Action::Move { mv: MoveInput::San(san.into()), offer_draw: false }
    }

    /// Whether the action is about a rematch (the only actions a finished game takes).
    pub fn is_rematch(&self) -> bool {
        matches!(self, Action::RematchOffer | Action::RematchAccept | Action::RematchDecline)
    }
}

/// How an [`Action`] is read: every variant a struct, so that unknown fields are refused in all of them (serde
/// does not refuse them for unit variants of a tagged enum).
#[derive(Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
enum ActionRepr {
    Move {
        #[serde(with = "uci_text")]
        uci: MoveInput,
        #[serde(default)]
        offer_draw: bool,
    },
    Resign {},
    OfferDraw {},
    AcceptDraw {},
    DeclineDraw {},
    ClaimDraw {
        #[serde(with = "claim_kind")]
        kind: ClaimKind,
        #[serde(default, with = "opt_uci_text")]
        intended: Option<MoveInput>,
    },
    Abort {},
    TakebackOffer {},
    TakebackAccept {},
    TakebackDecline {},
    ClaimVictory {},
    RematchOffer {},
    RematchAccept {},
    RematchDecline {},
    Touch {
        square: String,
    },
    Adjust {
        square: String,
    },
    AdjournOffer {},
    Seal {
        mv: String,
    },
    ProposeResumption {
        at_ms: u64,
    },
    CallArbiter {
        reason: String,
    },
}

impl From<ActionRepr> for Action {
    fn from(r: ActionRepr) -> Action {
        match r {
            ActionRepr::Move { uci, offer_draw } => Action::Move { mv: uci, offer_draw },
            ActionRepr::Resign {} => Action::Resign,
            ActionRepr::OfferDraw {} => Action::OfferDraw,
            ActionRepr::AcceptDraw {} => Action::AcceptDraw,
            ActionRepr::DeclineDraw {} => Action::DeclineDraw,
            ActionRepr::ClaimDraw { kind, intended } => Action::ClaimDraw { kind, intended },
            ActionRepr::Abort {} => Action::Abort,
            ActionRepr::TakebackOffer {} => Action::TakebackOffer,
            ActionRepr::TakebackAccept {} => Action::TakebackAccept,
            ActionRepr::TakebackDecline {} => Action::TakebackDecline,
            ActionRepr::ClaimVictory {} => Action::ClaimVictory,
            ActionRepr::RematchOffer {} => Action::RematchOffer,
            ActionRepr::RematchAccept {} => Action::RematchAccept,
            ActionRepr::RematchDecline {} => Action::RematchDecline,
            ActionRepr::Touch { square } => Action::Touch { square },
            ActionRepr::Adjust { square } => Action::Adjust { square },
            ActionRepr::AdjournOffer {} => Action::AdjournOffer,
            ActionRepr::Seal { mv } => Action::Seal { mv },
            ActionRepr::ProposeResumption { at_ms } => Action::ProposeResumption { at_ms },
            ActionRepr::CallArbiter { reason } => Action::CallArbiter { reason },
        }
    }
}

/// A move as a command gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveInput {
    /// UCI notation: `e2e4`, `e7e8q`; castling as `e1g1` or king takes rook (`e1h1`).
    Uci(String),
    /// SAN (lenient: also Chinese piece letters, see `Position::parse_san`).
    San(String),
    /// An already resolved move; it is checked for legality.
    Move(Move),
}

impl MoveInput {
    pub fn uci(s: impl Into<String>) -> MoveInput {
        MoveInput::Uci(s.into())
    }

    pub fn san(s: impl Into<String>) -> MoveInput {
        MoveInput::San(s.into())
    }

    pub(crate) fn resolve(&self, pos: &Position) -> Result<Move, CommandError> {
        let illegal = |mv: String| CommandError::IllegalMove { mv, fen: pos.fen() };
        match self {
            MoveInput::Uci(s) => {
                let u = UciMove::parse(s)
                    .map_err(|e| CommandError::BadMoveText { text: s.clone(), problem: e.problem.to_owned() })?;
                u.to_move(pos).ok().or_else(|| castle_by_destination(pos, &u)).ok_or_else(|| illegal(s.clone()))
            }
            MoveInput::San(s) => pos.parse_san(s).map_err(|e| illegal(format!("{s} ({e})"))),
            MoveInput::Move(m) => {
                if pos.is_legal(*m) {
                    Ok(*m)
                } else {
                    Err(illegal(format!("{m:?}")))
                }
            }
        }
    }
}

/// In Chess960 the king castles by moving onto its rook (the UCI form); a king moved to its castling square (`g1`,
/// `c1`, …) is taken as castling too, when no ordinary king move goes there (so it cannot mean anything else).
fn castle_by_destination(pos: &Position, u: &UciMove) -> Option<Move> {
    let UciMove::Normal { from, to, promotion: None } = *u else { return None };
    if !pos.is_chess960() {
        return None;
    }
    pos.legal_moves_from(from).iter().copied().find(|m| m.is_castle() && m.king_to() == to)
}

fn move_text(m: &MoveInput) -> String {
    match m {
        MoveInput::Uci(s) | MoveInput::San(s) => s.clone(),
        // King takes rook for castling: read in either castling mode.
        MoveInput::Move(m) => guoxiang_core::UciMove::from_move(*m, true).to_string(),
    }
}

/// A [`MoveInput`] as its text; read back as UCI (the wire's notation).
mod uci_text {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(m: &MoveInput, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&move_text(m))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<MoveInput, D::Error> {
        Ok(MoveInput::Uci(String::deserialize(d)?))
    }
}

mod opt_uci_text {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(m: &Option<MoveInput>, s: S) -> Result<S::Ok, S::Error> {
        m.as_ref().map(move_text).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<MoveInput>, D::Error> {
        Ok(Option::<String>::deserialize(d)?.map(MoveInput::Uci))
    }
}

/// [`ClaimKind`] as `threefold_repetition` / `fifty_moves`.
mod claim_kind {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(k: &ClaimKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match k {
            ClaimKind::ThreefoldRepetition => "threefold_repetition",
            ClaimKind::FiftyMoves => "fifty_moves",
        })
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ClaimKind, D::Error> {
        let s = String::deserialize(d)?;
        match s.as_str() {
            "threefold_repetition" => Ok(ClaimKind::ThreefoldRepetition),
            "fifty_moves" => Ok(ClaimKind::FiftyMoves),
            _ => Err(serde::de::Error::custom(format!(
                "not a draw claim: {s:?} (expected threefold_repetition or fifty_moves)"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_read_and_write_the_wire_form() {
        let a: Action = serde_json::from_str(r#"{"t":"move","uci":"e2e4","offer_draw":true}"#).unwrap();
        assert_eq!(a, Action::Move { mv: MoveInput::uci("e2e4"), offer_draw: true });
        assert_eq!(
            serde_json::to_string(&Action::uci("e7e8q")).unwrap(),
            r#"{"t":"move","uci":"e7e8q","offer_draw":false}"#
        );
        let c: Action = serde_json::from_str(r#"{"t":"claim_draw","kind":"fifty_moves"}"#).unwrap();
        assert_eq!(c, Action::ClaimDraw { kind: ClaimKind::FiftyMoves, intended: None });
        assert_eq!(serde_json::to_string(&Action::RematchOffer).unwrap(), r#"{"t":"rematch_offer"}"#);
        let e = serde_json::from_str::<Action>(r#"{"t":"claim_draw","kind":"stalemate"}"#).unwrap_err();
        assert!(e.to_string().contains("not a draw claim"), "{e}");
        let e = serde_json::from_str::<Action>(r#"{"t":"resign","extra":1}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field"), "{e}");
    }
}
