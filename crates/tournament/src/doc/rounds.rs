// SPDX-License-Identifier: GPL-3.0-or-later
//! The rounds: the start, pairing the next round (Berger tables or the Dutch system), results, the end.

use super::{
    ArenaDoc, ArenaEvent, Board, Bye, ByeKind, DEFAULT_FIRST_MOVE_GRACE_S, Doc, Refused, Round, TournamentMode,
    TournamentResult, TournamentStatus, TournamentSystem, refused,
};
use crate::trf::{Code, Colour, RoundEntry};
use crate::{berger, dutch};

impl Doc {
    /// Starts: starting ranks by rating (highest first; unrated last; then by name), a round-robin's number of rounds
    /// from its players. The first round is paired by [`Doc::pair_next`].
    pub fn start(&mut self, now_ms: i64) -> Result<(), Refused> {
        if self.status != TournamentStatus::Open {
            return Err(refused("tournament_started", "比赛已经开始了", "the tournament has already started"));
        }
        if self.players.len() < 2 {
            return Err(refused("too_few_players", "至少要 2 名棋手才能开始", "a tournament needs at least 2 players"));
        }
        if self.round_robin() && self.players.len() > 40 {
            return Err(refused(
                "too_many_players",
                "循环赛最多 40 人，人多请用瑞士制",
                "a round-robin takes at most 40 players: use the Swiss system for more",
            ));
        }
        self.players.sort_by(|a, b| b.rating.cmp(&a.rating).then_with(|| a.name.cmp(&b.name)));
        let mut renumber = std::collections::HashMap::new();
        for (i, p) in self.players.iter_mut().enumerate() {
            renumber.insert(p.no, i as u32 + 1);
            p.no = i as u32 + 1;
        }
        let new = |no: u32| renumber.get(&no).copied().unwrap_or(no);
        self.forbidden = self.forbidden.iter().map(|&(a, b)| (new(a).min(new(b)), new(a).max(new(b)))).collect();
        self.byes_requested = self.byes_requested.iter().map(|&(r, no)| (r, new(no))).collect();
        let n = self.players.len() as u32;
        match self.system {
            TournamentSystem::RoundRobin => self.rounds = berger::rounds(n),
            TournamentSystem::DoubleRoundRobin => self.rounds = 2 * berger::rounds(n),
            TournamentSystem::Swiss => {}
            TournamentSystem::Arena => {
                let joins: Vec<ArenaEvent> = self
                    .players
                    .iter()
                    .map(|p| ArenaEvent::Join { no: p.no, rating: p.rating.unwrap_or(1500), at_ms: now_ms })
                    .collect();
                let a = self.arena.get_or_insert(ArenaDoc { minutes: 60, started_at_ms: None, events: Vec::new() });
                a.started_at_ms = Some(now_ms);
                a.events.extend(joins);
            }
        }
        self.status = TournamentStatus::Running;
        Ok(())
    }

    /// Whether the next round can be paired: running, the last round finished, rounds left.
    pub fn can_pair(&self) -> Result<(), Refused> {
        if self.status != TournamentStatus::Running {
            return Err(refused("not_running", "比赛没有在进行", "the tournament is not running"));
        }
        if self.system == TournamentSystem::Arena {
            return Err(refused(
                "arena",
                "竞技场比赛自动配对，没有轮次",
                "an arena pairs its players by itself: it has no rounds",
            ));
        }
        if self.round_list.last().is_some_and(|r| !r.finished()) {
            return Err(refused(
                "round_not_finished",
                format!("第 {} 轮还有对局没有结果", self.round_list.len()),
                format!("round {} still has games without a result", self.round_list.len()),
            ));
        }
        if self.round_list.len() as u32 >= self.rounds {
            return Err(refused("no_rounds_left", "所有轮次都已编排", "every round has been paired"));
        }
        Ok(())
    }

    /// Whether the presence check applies: online, a Swiss or a round-robin, and the organiser kept it on.
    pub fn checks_presence(&self) -> bool {
        self.presence_check && self.mode == TournamentMode::Online && self.system != TournamentSystem::Arena
    }

    /// The first-move grace of the games, seconds.
    pub fn first_move_grace_s(&self) -> u32 {
        self.first_move_grace_s.unwrap_or(DEFAULT_FIRST_MOVE_GRACE_S)
    }

    /// Whether a player played the last round's game over the board (a result that is not a forfeit).
    pub fn played_last_round(&self, no: u32) -> bool {
        self.round_list.last().is_some_and(|r| {
            r.boards.iter().any(|b| {
                (b.white == no || b.black == no)
                    && matches!(
                        b.result,
                        Some(TournamentResult::WhiteWins | TournamentResult::Draw | TournamentResult::BlackWins)
                    )
            })
        })
    }

    /// Pairs the next round (without creating games): Berger's table for a round-robin (a withdrawn player's games
    /// are forfeited to the opponent), the Dutch system for a Swiss (withdrawn players and late entries' missed
    /// rounds are absences).
    ///
    /// `absent` (a Swiss with the presence check): players not present, who sit this round out (no game, no
    /// point: TRF `Z`, not a forfeit). A round-robin ignores it (its table is fixed; its round waits instead).
    pub fn pair_next(&mut self, now_ms: i64, absent: &[u32]) -> Result<&Round, Refused> {
        self.can_pair()?;
        let number = self.round_list.len() as u32 + 1;
        if self.system == TournamentSystem::Swiss && !absent.is_empty() {
            let present = self.expected_next().iter().filter(|p| !absent.contains(&p.no)).count();
            if present < 2 {
                return Err(refused(
                    "too_few_present",
                    format!("第 {number} 轮：在场的棋手不足两人，无法编排"),
                    format!("round {number}: fewer than two players are present to pair"),
                ));
            }
            for &no in absent {
                if self.player(no).is_some_and(|p| self.active_in(p, number)) {
                    self.absent.push((number, no));
                }
            }
        }
        let mut round = Round { boards: Vec::new(), byes: Vec::new(), started_at_ms: now_ms };
        if self.round_robin() {
            let n = self.players.len() as u32;
            let table = match self.system {
                TournamentSystem::DoubleRoundRobin => berger::double(n),
                _ => berger::single(n),
            }
            .map_err(|e| refused("bad_request", e.to_string(), e.to_string()))?;
            let (boards, bye) = berger::without_bye(&table[number as usize - 1], n);
            for (w, b) in boards {
                let (wp, bp) = (self.active_in(self.player(w).expect("a starting rank"), number), {
                    self.active_in(self.player(b).expect("a starting rank"), number)
                });
                let result = match (wp, bp) {
                    (true, true) => None,
                    (true, false) => Some(TournamentResult::WhiteForfeitWin),
                    (false, true) => Some(TournamentResult::BlackForfeitWin),
                    (false, false) => Some(TournamentResult::DoubleForfeit),
                };
                round.boards.push(Board { white: w, black: b, game_id: None, result });
            }
            if let Some(no) = bye {
                round.byes.push(Bye { no, kind: ByeKind::Zero });
            }
        } else {
            let mut t = self.to_trf(true);
            for p in &self.players {
                if !self.active_in(p, number) {
                    let code = if self.bye_requested(p.no, number) { Code::HalfBye } else { Code::ZeroBye };
                    let line = t.players.iter_mut().find(|x| u32::from(x.start_number) == p.no).expect("every player");
                    line.rounds.resize(number as usize - 1, RoundEntry::ABSENT);
                    line.rounds.push(RoundEntry { opponent: None, colour: Colour::None, code });
                }
            }
            let input = dutch::input_from_trf(&t).map_err(|e| refused("cannot_pair", e.to_string(), e.to_string()))?;
            let pairing = dutch::pair(&input).map_err(|e| {
                refused(
                    "cannot_pair",
                    format!("无法编排第 {number} 轮：{e}"),
                    format!("round {number} cannot be paired: {e}"),
                )
            })?;
            for b in pairing.boards {
                round.boards.push(Board { white: b.white.into(), black: b.black.into(), game_id: None, result: None });
            }
            if let Some(no) = pairing.bye {
                round.byes.push(Bye { no: no.into(), kind: ByeKind::Pairing });
            }
            for p in &self.players {
                if !self.active_in(p, number) {
                    let kind = if self.bye_requested(p.no, number) { ByeKind::Half } else { ByeKind::Zero };
                    round.byes.push(Bye { no: p.no, kind });
                }
            }
        }
        self.next_round_at_ms = None;
        self.round_list.push(round);
        Ok(self.round_list.last().expect("just pushed"))
    }

    /// Records a board's result (or corrects it). Answers whether the round is now finished.
    pub fn set_result(&mut self, round: u32, board: u32, result: TournamentResult) -> Result<bool, Refused> {
        let r = self.round_list.get_mut((round as usize).wrapping_sub(1)).ok_or_else(|| {
            refused("bad_request", format!("没有第 {round} 轮"), format!("there is no round {round}"))
        })?;
        let b = r.boards.get_mut((board as usize).wrapping_sub(1)).ok_or_else(|| {
            refused(
                "bad_request",
                format!("第 {round} 轮没有第 {board} 台"),
                format!("round {round} has no board {board}"),
            )
        })?;
        b.result = Some(result);
        Ok(r.finished())
    }

    /// After a finished round: the tournament is over if it was the last.
    pub fn after_round(&mut self) {
        if self.round_list.len() as u32 >= self.rounds && self.round_list.last().is_some_and(Round::finished) {
            self.status = TournamentStatus::Finished;
            self.next_round_at_ms = None;
        }
    }

    /// The board a game was created for: (round, board), from 1.
    pub fn board_of_game(&self, game_id: &str) -> Option<(u32, u32)> {
        for (r, round) in self.round_list.iter().enumerate() {
            for (b, board) in round.boards.iter().enumerate() {
                if board.game_id.as_deref() == Some(game_id) {
                    return Some((r as u32 + 1, b as u32 + 1));
                }
            }
        }
        None
    }
}
