//! Serde helpers for the rules crate's types, which have no serde support of their own.

use guoxiang_core::{Color, Outcome, Termination};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub(crate) fn parse_color(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// `Color` as `"white"` / `"black"`.
pub(crate) mod color {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.name())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let s = String::deserialize(d)?;
        parse_color(&s).ok_or_else(|| serde::de::Error::custom(format!("not a colour: {s:?}")))
    }
}

/// `Option<Color>` as `"white"` / `"black"` / `null`.
pub(crate) mod opt_color {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        c.map(Color::name).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(s) => {
                parse_color(&s).map(Some).ok_or_else(|| serde::de::Error::custom(format!("not a colour: {s:?}")))
            }
        }
    }
}

/// An [`Outcome`] in a stable serialized form: `winner`, the termination `code` and its details.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct OutcomeRepr {
    #[serde(with = "opt_color")]
    winner: Option<Color>,
    termination: String,
    #[serde(with = "opt_color", default, skip_serializing_if = "Option::is_none")]
    side: Option<Color>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    bare_king: bool,
}

impl From<&Outcome> for OutcomeRepr {
    fn from(o: &Outcome) -> OutcomeRepr {
        let (side, bare_king) = match o.termination {
            Termination::ThreefoldRepetition { claimant } | Termination::FiftyMoves { claimant } => {
                (Some(claimant), false)
            }
            Termination::TimeForfeitDraw { flagged, bare_king } => (Some(flagged), bare_king),
            Termination::IllegalMove { offender } => (Some(offender), false),
            Termination::SealedMove { sealer } => (Some(sealer), false),
            Termination::LateArrival { late } => (Some(late), false),
            _ => (None, false),
        };
        OutcomeRepr { winner: o.winner, termination: o.termination.code().to_owned(), side, bare_king }
    }
}

impl TryFrom<OutcomeRepr> for Outcome {
    type Error = String;

    fn try_from(r: OutcomeRepr) -> Result<Outcome, String> {
        let side = || r.side.ok_or_else(|| format!("termination {} needs a side", r.termination));
        let termination = match r.termination.as_str() {
            "checkmate" => Termination::Checkmate,
            "stalemate" => Termination::Stalemate,
            "dead_position" => Termination::DeadPosition,
            "threefold_repetition" => Termination::ThreefoldRepetition { claimant: side()? },
            "fivefold_repetition" => Termination::FivefoldRepetition,
            "fifty_moves" => Termination::FiftyMoves { claimant: side()? },
            "seventy_five_moves" => Termination::SeventyFiveMoves,
            "resignation" => Termination::Resignation,
            "agreement" => Termination::Agreement,
            "time_forfeit" => Termination::TimeForfeit,
            "time_forfeit_draw" => Termination::TimeForfeitDraw { flagged: side()?, bare_king: r.bare_king },
            "abandoned" => Termination::Abandoned,
            "adjudication" => Termination::Adjudication,
            "illegal_move" => Termination::IllegalMove { offender: side()? },
            "sealed_move" => Termination::SealedMove { sealer: side()? },
            "late_arrival" => Termination::LateArrival { late: side()? },
            "promotion" => Termination::Promotion,
            other => return Err(format!("unknown termination {other:?}")),
        };
        Ok(Outcome { winner: r.winner, termination })
    }
}

/// `Outcome` through [`OutcomeRepr`].
pub(crate) mod outcome {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(o: &Outcome, s: S) -> Result<S::Ok, S::Error> {
        OutcomeRepr::from(o).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        Outcome::try_from(OutcomeRepr::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}
