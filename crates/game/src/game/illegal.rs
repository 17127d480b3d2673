// SPDX-License-Identifier: GPL-3.0-or-later
//! Illegal moves counted, in games whose rule set counts them ([`IllegalMoves`], Article 7.5 and the school rule of
//! 送王): a completed illegal move is taken back (the position before it stands), counted, answered with the
//! penalty (7.5.5: more time for the opponent) and, at the rule set's limit, loses the game. Each is recorded as an
//! [`Incident`] for the PGN.

use guoxiang_clock::Timestamp;
use guoxiang_core::{Color, Explanation, Outcome, Position, Role, Square, Termination, Text};

use crate::action::MoveInput;
use crate::error::CommandError;
use crate::event::Event;
use crate::game::{Game, side};
use crate::rules::{IllegalMoves, Incident, completed_move, only_fault_is_check, penalty_ms};

/// The illegal moves counted in a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct IllegalRecord {
    /// `[white, black]`: completed illegal moves counted so far.
    pub(crate) counts: [u8; 2],
    /// The illegal moves counted, for the PGN.
    pub(crate) incidents: Vec<Incident>,
}

/// A completed illegal move the rule set counts: its squares and why it is illegal.
struct Counted {
    from: Square,
    to: Square,
    reason: Text,
}

impl Game {
    /// How many completed illegal moves `color` has made that were counted.
    pub fn illegal_moves(&self, color: Color) -> u8 {
        self.illegal.counts[color.index()]
    }

    /// The illegal moves counted, in order.
    pub fn incidents(&self) -> &[Incident] {
        &self.illegal.incidents
    }

    /// A move that is not legal in a game that counts illegal moves: taken back (the position before it stands) and
    /// counted when it is a completed illegal move of the kind the rule set counts; refused with `refusal`
    /// otherwise.
    pub(crate) fn illegal_move(
        &mut self,
        now: Timestamp,
        by: Color,
        mv: &MoveInput,
        refusal: CommandError,
        out: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let regime = self.config.rules.illegal_moves;
        let (Some(limit), MoveInput::Uci(text)) = (regime.losing_count(), mv) else { return Err(refusal) };
        let Some(Counted { from, to, reason }) = counted(self.position(), regime, text) else { return Err(refusal) };
        let count = self.illegal.counts[by.index()] + 1;
        self.illegal.counts[by.index()] = count;
        // Article 7.5.5: two minutes (one in rapid and blitz) to the opponent for a first illegal move; the school
        // rule gives no time.
        let mut penalty = 0;
        if regime == IllegalMoves::Fide && count < limit {
            let before = self.clock.remaining(side(!by), now);
            self.clock.add_time(side(!by), penalty_ms(self.time_control()));
            penalty = self.clock.remaining(side(!by), now).unwrap_or(0).saturating_sub(before.unwrap_or(0));
        }
        let (message_zh, message_en) = messages(regime, by, text, &reason, count, limit, penalty);
        self.illegal.incidents.push(Incident {
            ply: self.moves.len() as u32,
            by,
            uci: text.clone(),
            count,
            penalty_ms: penalty,
            message_zh: message_zh.clone(),
            message_en: message_en.clone(),
        });
        out.push(Event::IllegalMoveCounted {
            by,
            uci: text.clone(),
            count,
            limit,
            penalty_ms: penalty,
            message_zh,
            message_en,
        });
        if penalty > 0 {
            out.push(Event::ClockUpdate { clocks: self.clocks(now) });
        }
        if count >= limit {
            // 7.5.5: lost — unless the opponent cannot checkmate by any series of legal moves.
            let termination = Termination::IllegalMove { offender: by };
            let o =
                if self.position().can_mate(!by) { Outcome::win(!by, termination) } else { Outcome::draw(termination) };
            self.finish(now, o, out);
            return Ok(());
        }
        self.touch_after_illegal(by, from, to);
        Ok(())
    }
}

/// The move `text` (UCI) in `pos`, if it is a completed illegal move that `regime` counts.
fn counted(pos: &Position, regime: IllegalMoves, text: &str) -> Option<Counted> {
    let (from, to) = completed_move(pos, text)?;
    let promotion = text.chars().nth(4).and_then(|c| Role::from_char(c.to_ascii_lowercase()));
    if regime == IllegalMoves::KingIntoCheck && !only_fault_is_check(pos, from, to, promotion) {
        return None;
    }
    match pos.explain(from, to, promotion) {
        Explanation::Illegal(r) => Some(Counted { from, to, reason: r.text() }),
        Explanation::Legal(_) => None,
    }
}

/// What is said of `by`'s illegal move `text` (the `count`th, `limit` losing), in zh and en.
fn messages(
    regime: IllegalMoves,
    by: Color,
    text: &str,
    reason: &Text,
    count: u8,
    limit: u8,
    penalty: u64,
) -> (String, String) {
    let (zh_name, en_name) = (by.name_zh(), by.fold("White", "Black"));
    let (zh_next, en_next) = if count >= limit {
        ("判负".to_owned(), "loses the game".to_owned())
    } else if regime == IllegalMoves::Fide {
        (
            format!("对方加时{}分钟；第{limit}次判负（第7.5.5条）", penalty / 60_000),
            format!(
                "the opponent gets {}; a {}nd loses (Article 7.5.5)",
                if penalty == 60_000 {
                    "a minute more".to_owned()
                } else {
                    format!("{} more minutes", penalty / 60_000)
                },
                limit
            ),
        )
    } else {
        (format!("第{limit}次送王判负"), format!("a {limit}rd move into check loses (the school rule)"))
    };
    let kind_zh = if regime == IllegalMoves::KingIntoCheck { "送王" } else { "不合规则的着法" };
    let message_zh = format!(
        "{zh_name}{kind_zh} {text}：{}。局面已恢复到这步棋之前；这是{zh_name}第{count}次，{zh_next}",
        reason.zh.trim_end_matches('。')
    );
    let message_en = format!(
        "{en_name}'s illegal move {text}: {}. The position before it is restored; this is {en_name}'s \
         illegal move number {count}: {en_next}",
        reason.en.trim_end_matches('.')
    );
    (message_zh, message_en)
}
