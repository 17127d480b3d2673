//! Human-readable forms of a time control.
//!
//! `Display` is the short form players know: base in minutes, bonus in
//! seconds (`5+3`, `¼+0`, `40/90+30 then 30+30`, `5+d3` for simple delay,
//! `5+b3` for Bronstein, `hourglass 3`, `3 days/move`, `unlimited`).
//! [`TimeControl::describe`] spells it out in a sentence, in English or
//! Simplified Chinese.

use std::fmt;

use crate::control::{Bonus, Period, Periods, TimeControl};

/// Language for [`TimeControl::describe`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "lowercase"))]
pub enum Lang {
    /// Simplified Chinese.
    Zh,
    /// English.
    En,
}

/// Seconds as minutes, with lichess's quarter-minute fractions (`¼`, `1½`);
/// anything else that is not whole minutes is shown in seconds (`100s`).
fn short_minutes(seconds: u32) -> String {
    let (minutes, rest) = (seconds / 60, seconds % 60);
    let fraction = match rest {
        0 => return minutes.to_string(),
        15 => "¼",
        30 => "½",
        45 => "¾",
        _ => return format!("{seconds}s"),
    };
    if minutes == 0 { fraction.to_owned() } else { format!("{minutes}{fraction}") }
}

fn short_bonus(bonus: Bonus) -> String {
    match bonus {
        Bonus::None => String::new(),
        Bonus::Fischer(s) => format!("+{s}"),
        Bonus::SimpleDelay(s) => format!("+d{s}"),
        Bonus::Bronstein(s) => format!("+b{s}"),
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unlimited => f.write_str("unlimited"),
            TimeControl::Periods(periods) => {
                for (i, p) in periods.as_slice().iter().enumerate() {
                    if i > 0 {
                        f.write_str(" then ")?;
                    }
                    if let Some(n) = p.moves {
                        write!(f, "{n}/")?;
                    }
                    write!(f, "{}{}", short_minutes(p.seconds), short_bonus(p.bonus))?;
                }
                Ok(())
            }
            TimeControl::Sandclock { seconds } => {
                write!(f, "hourglass {}", short_minutes(*seconds))
            }
            TimeControl::Correspondence(c) => {
                write!(f, "{}/move", plural(c.days_per_move(), "day", "days"))?;
                if let Some(max) = c.max_days() {
                    write!(f, " (max {})", plural(max, "day", "days"))?;
                }
                Ok(())
            }
        }
    }
}

/// A duration stated in seconds, e.g. "90 min", "2 min 30 s" / "90 分钟",
/// "2 分 30 秒".
fn duration(seconds: u32, lang: Lang) -> String {
    let (minutes, rest) = (seconds / 60, seconds % 60);
    match (lang, minutes, rest) {
        (Lang::En, _, 0) => format!("{minutes} min"),
        (Lang::En, 0, _) => format!("{rest} s"),
        (Lang::En, _, _) => format!("{minutes} min {rest} s"),
        (Lang::Zh, _, 0) => format!("{minutes} 分钟"),
        (Lang::Zh, 0, _) => format!("{rest} 秒"),
        (Lang::Zh, _, _) => format!("{minutes} 分 {rest} 秒"),
    }
}

/// The bonus as a phrase; `None` for no bonus.
fn bonus_phrase(bonus: Bonus, lang: Lang) -> Option<String> {
    Some(match (lang, bonus) {
        (_, Bonus::None) => return None,
        (Lang::En, Bonus::Fischer(s)) => format!("+{s} s per move"),
        (Lang::En, Bonus::Bronstein(s)) => format!("{s} s Bronstein delay per move"),
        (Lang::En, Bonus::SimpleDelay(s)) => format!("{s} s delay per move"),
        (Lang::Zh, Bonus::Fischer(s)) => format!("每步加 {s} 秒"),
        (Lang::Zh, Bonus::Bronstein(s)) => format!("每步布朗斯坦延时 {s} 秒"),
        (Lang::Zh, Bonus::SimpleDelay(s)) => format!("每步延时 {s} 秒"),
    })
}

/// One period without its bonus: "90 min for 40 moves", "60 min for every
/// 20 moves" (the repeating last period), or just "30 min".
fn period_phrase(p: &Period, is_last: bool, lang: Lang) -> String {
    let time = duration(p.seconds, lang);
    match (p.moves, is_last, lang) {
        (None, _, _) => time,
        (Some(n), false, Lang::En) => format!("{time} for {}", plural(n.get(), "move", "moves")),
        (Some(n), true, Lang::En) if n.get() == 1 => format!("{time} for every move"),
        (Some(n), true, Lang::En) => format!("{time} for every {n} moves"),
        (Some(n), false, Lang::Zh) => format!("{n} 步 {time}"),
        (Some(n), true, Lang::Zh) => format!("每 {n} 步 {time}"),
    }
}

fn describe_periods(periods: &Periods, lang: Lang) -> String {
    let list = periods.as_slice();
    let first_bonus = periods.first().bonus;
    // One shared bonus is said once at the end, as players put it ("+30 s
    // per move from move 1"); differing bonuses go with their period.
    let shared = list.iter().all(|p| p.bonus == first_bonus);
    let (then, open, close, comma) = match lang {
        Lang::En => (", then ", " (", ")", ", "),
        Lang::Zh => ("，之后", "（", "）", "，"),
    };
    let mut out = String::new();
    for (i, p) in list.iter().enumerate() {
        let phrase = period_phrase(p, i + 1 == list.len(), lang);
        if i > 0 {
            out.push_str(then);
            // Chinese text spaces CJK from digits ("之后 30 分钟") but not
            // from CJK ("之后每 20 步").
            if lang == Lang::Zh && phrase.starts_with(|c: char| c.is_ascii_digit()) {
                out.push(' ');
            }
        }
        out.push_str(&phrase);
        if !shared && let Some(b) = bonus_phrase(p.bonus, lang) {
            out.push_str(open);
            out.push_str(&b);
            out.push_str(close);
        }
    }
    if shared && let Some(b) = bonus_phrase(first_bonus, lang) {
        out.push_str(comma);
        out.push_str(&b);
    }
    out
}

impl TimeControl {
    /// A sentence describing the control, e.g. for `40/5400+30:1800+30`:
    /// "90 min for 40 moves, then 30 min, +30 s per move" /
    /// "40 步 90 分钟，之后 30 分钟，每步加 30 秒".
    #[must_use]
    pub fn describe(&self, lang: Lang) -> String {
        match (self, lang) {
            (TimeControl::Unlimited, Lang::En) => "no time limit".to_owned(),
            (TimeControl::Unlimited, Lang::Zh) => "不限时".to_owned(),
            (TimeControl::Periods(p), _) => describe_periods(p, lang),
            (TimeControl::Sandclock { seconds }, Lang::En) => {
                format!("hourglass, {} each", duration(*seconds, lang))
            }
            (TimeControl::Sandclock { seconds }, Lang::Zh) => {
                format!("沙漏计时，每方 {}", duration(*seconds, lang))
            }
            (TimeControl::Correspondence(c), Lang::En) => {
                let mut s = format!("{} per move", plural(c.days_per_move(), "day", "days"));
                if let Some(max) = c.max_days() {
                    s.push_str(&format!(", unused time kept up to {}", plural(max, "day", "days")));
                }
                s
            }
            (TimeControl::Correspondence(c), Lang::Zh) => {
                let mut s = format!("每步 {} 天", c.days_per_move());
                if let Some(max) = c.max_days() {
                    s.push_str(&format!("，未用时间可累积，最多 {max} 天"));
                }
                s
            }
        }
    }
}
