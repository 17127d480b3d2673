//! The rating pools: which speeds of game have a rating of their own.

use std::fmt;
use std::str::FromStr;

use guoxiang_clock::{Lang, Speed};
use serde::{Deserialize, Serialize};

/// A speed that has its own rating.
///
/// Ultrabullet games count towards bullet; unlimited games (no clock) cannot
/// be rated at all (see [`RatingSpeed::of`]). Serialized in lowercase, the
/// same strings as [`RatingSpeed::as_str`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RatingSpeed {
    /// 超快棋: bullet (and ultrabullet) clock games.
    Bullet,
    /// 闪电战: blitz.
    Blitz,
    /// 快棋: rapid.
    Rapid,
    /// 慢棋: classical.
    Classical,
    /// 通讯赛: days-per-move correspondence games.
    Correspondence,
}

impl RatingSpeed {
    /// Every rating speed, fastest first.
    pub const ALL: [RatingSpeed; 5] = [
        RatingSpeed::Bullet,
        RatingSpeed::Blitz,
        RatingSpeed::Rapid,
        RatingSpeed::Classical,
        RatingSpeed::Correspondence,
    ];

    /// The rating pool a game of this clock speed counts for: ultrabullet
    /// folds into bullet, and `None` for unlimited games, which cannot be rated.
    #[must_use]
    pub const fn of(speed: Speed) -> Option<RatingSpeed> {
        match speed {
            Speed::UltraBullet | Speed::Bullet => Some(RatingSpeed::Bullet),
            Speed::Blitz => Some(RatingSpeed::Blitz),
            Speed::Rapid => Some(RatingSpeed::Rapid),
            Speed::Classical => Some(RatingSpeed::Classical),
            Speed::Correspondence => Some(RatingSpeed::Correspondence),
            Speed::Unlimited => None,
        }
    }

    /// A stable lowercase identifier: `"bullet"`, `"blitz"`, `"rapid"`,
    /// `"classical"` or `"correspondence"`. [`FromStr`] reads it back.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            RatingSpeed::Bullet => "bullet",
            RatingSpeed::Blitz => "blitz",
            RatingSpeed::Rapid => "rapid",
            RatingSpeed::Classical => "classical",
            RatingSpeed::Correspondence => "correspondence",
        }
    }

    /// The Simplified Chinese name: 超快棋, 闪电战, 快棋, 慢棋, 通讯赛.
    #[must_use]
    pub const fn name_zh(self) -> &'static str {
        match self {
            RatingSpeed::Bullet => "超快棋",
            RatingSpeed::Blitz => "闪电战",
            RatingSpeed::Rapid => "快棋",
            RatingSpeed::Classical => "慢棋",
            RatingSpeed::Correspondence => "通讯赛",
        }
    }

    /// The English name: Bullet, Blitz, Rapid, Classical, Correspondence.
    #[must_use]
    pub const fn name_en(self) -> &'static str {
        match self {
            RatingSpeed::Bullet => "Bullet",
            RatingSpeed::Blitz => "Blitz",
            RatingSpeed::Rapid => "Rapid",
            RatingSpeed::Classical => "Classical",
            RatingSpeed::Correspondence => "Correspondence",
        }
    }

    /// The name in the given language.
    #[must_use]
    pub const fn name(self, lang: Lang) -> &'static str {
        match lang {
            Lang::Zh => self.name_zh(),
            Lang::En => self.name_en(),
        }
    }
}

impl fmt::Display for RatingSpeed {
    /// Writes [`RatingSpeed::as_str`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The string given to [`RatingSpeed::from_str`] is not one of the five identifiers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRatingSpeedError(pub String);

impl fmt::Display for ParseRatingSpeedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rating speed {:?} (expected bullet, blitz, rapid, classical or correspondence)", self.0)
    }
}

impl std::error::Error for ParseRatingSpeedError {}

impl FromStr for RatingSpeed {
    type Err = ParseRatingSpeedError;

    /// Parses exactly the lowercase identifiers of [`RatingSpeed::as_str`]
    /// (case-sensitive, no surrounding spaces).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RatingSpeed::ALL
            .into_iter()
            .find(|speed| speed.as_str() == s)
            .ok_or_else(|| ParseRatingSpeedError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_clock_speed() {
        assert_eq!(RatingSpeed::of(Speed::UltraBullet), Some(RatingSpeed::Bullet));
        assert_eq!(RatingSpeed::of(Speed::Bullet), Some(RatingSpeed::Bullet));
        assert_eq!(RatingSpeed::of(Speed::Blitz), Some(RatingSpeed::Blitz));
        assert_eq!(RatingSpeed::of(Speed::Rapid), Some(RatingSpeed::Rapid));
        assert_eq!(RatingSpeed::of(Speed::Classical), Some(RatingSpeed::Classical));
        assert_eq!(RatingSpeed::of(Speed::Correspondence), Some(RatingSpeed::Correspondence));
        assert_eq!(RatingSpeed::of(Speed::Unlimited), None);
    }

    #[test]
    fn strings_round_trip() {
        for speed in RatingSpeed::ALL {
            assert_eq!(speed.as_str().parse::<RatingSpeed>(), Ok(speed));
            assert_eq!(speed.to_string(), speed.as_str());
            let json = serde_json::to_string(&speed).unwrap();
            assert_eq!(json, format!("\"{}\"", speed.as_str()));
            assert_eq!(serde_json::from_str::<RatingSpeed>(&json).unwrap(), speed);
        }
        assert!("Bullet".parse::<RatingSpeed>().is_err());
        assert!("ultrabullet".parse::<RatingSpeed>().is_err());
        assert!("unlimited".parse::<RatingSpeed>().is_err());
        assert_eq!(
            "x".parse::<RatingSpeed>().unwrap_err().to_string(),
            "unknown rating speed \"x\" (expected bullet, blitz, rapid, classical or correspondence)"
        );
    }

    #[test]
    fn names() {
        let zh: Vec<_> = RatingSpeed::ALL.iter().map(|s| s.name(Lang::Zh)).collect();
        assert_eq!(zh, ["超快棋", "闪电战", "快棋", "慢棋", "通讯赛"]);
        let en: Vec<_> = RatingSpeed::ALL.iter().map(|s| s.name(Lang::En)).collect();
        assert_eq!(en, ["Bullet", "Blitz", "Rapid", "Classical", "Correspondence"]);
    }
}
