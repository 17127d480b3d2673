// SPDX-License-Identifier: GPL-3.0-or-later
//! The players: entries, leaving, withdrawals, half-point byes asked for, pairs that must not meet.

use super::{ArenaEvent, Doc, Entry, MAX_PLAYERS, Refused, TournamentStatus, TournamentSystem, no_player, refused};

impl Doc {
    /// An entry while the tournament takes them: before the start, or a Swiss before its last round is paired
    /// (a late entry, whose missed rounds are absences). `now_ms`: when (an arena's entry joins it then).
    pub fn join(
        &mut self,
        user_id: Option<String>,
        name: String,
        rating: Option<u32>,
        now_ms: i64,
    ) -> Result<(), Refused> {
        if let Some(id) = &user_id
            && self.player_of(id).is_some()
        {
            return Err(refused("already_joined", "你已经报名了", "you have already joined"));
        }
        if self.players.len() >= MAX_PLAYERS {
            return Err(refused(
                "tournament_full",
                format!("比赛已满（最多 {MAX_PLAYERS} 人）"),
                format!("the tournament is full ({MAX_PLAYERS} players)"),
            ));
        }
        let name = name.trim().to_owned();
        if name.is_empty() || name.chars().count() > 60 {
            return Err(refused("bad_request", "名字须为 1–60 个字符", "a name must have 1 to 60 characters"));
        }
        match self.status {
            TournamentStatus::Open => {
                // A provisional number in the order of entry (forbidden pairs and byes can name it); the starting
                // ranks are given at the start.
                let no = self.players.iter().map(|p| p.no).max().unwrap_or(0) + 1;
                self.players.push(Entry { no, user_id, name, rating, withdrawn_from: None, first_round: 1 });
            }
            TournamentStatus::Running if self.system == TournamentSystem::Arena => {
                let no = self.players.iter().map(|p| p.no).max().unwrap_or(0) + 1;
                self.players.push(Entry { no, user_id, name, rating, withdrawn_from: None, first_round: 1 });
                if let Some(a) = self.arena.as_mut() {
                    a.events.push(ArenaEvent::Join { no, rating: rating.unwrap_or(1500), at_ms: now_ms });
                }
            }
            TournamentStatus::Running if self.system == TournamentSystem::Swiss => {
                let next = self.round_list.len() as u32 + 1;
                if next > self.rounds {
                    return Err(refused(
                        "tournament_started",
                        "最后一轮已编排，不能再报名",
                        "the last round is paired: entries are closed",
                    ));
                }
                let no = self.players.iter().map(|p| p.no).max().unwrap_or(0) + 1;
                self.players.push(Entry { no, user_id, name, rating, withdrawn_from: None, first_round: next });
            }
            _ => {
                return Err(refused(
                    "tournament_started",
                    "比赛已开始，不能再报名",
                    "the tournament has started: entries are closed",
                ));
            }
        }
        Ok(())
    }

    /// Leaving before the start; afterwards a player withdraws ([`Doc::withdraw`]).
    pub fn leave(&mut self, user_id: &str) -> Result<(), Refused> {
        if self.status != TournamentStatus::Open {
            return Err(refused(
                "tournament_started",
                "比赛已开始：请退出比赛（弃权）",
                "the tournament has started: withdraw instead",
            ));
        }
        let before = self.players.len();
        if let Some(no) = self.player_of(user_id).map(|p| p.no) {
            self.forbidden.retain(|&(a, b)| a != no && b != no);
            self.byes_requested.retain(|&(_, n)| n != no);
        }
        self.players.retain(|p| p.user_id.as_deref() != Some(user_id));
        if self.players.len() == before {
            return Err(refused("not_joined", "你没有报名这个比赛", "you have not joined this tournament"));
        }
        Ok(())
    }

    /// Withdraws a player from the next round on (their games already paired stay, to be played or forfeited).
    pub fn withdraw(&mut self, no: u32) -> Result<(), Refused> {
        if self.status != TournamentStatus::Running {
            return Err(refused("not_running", "比赛没有在进行", "the tournament is not running"));
        }
        let next = self.round_list.len() as u32 + 1;
        let p = self.players.iter_mut().find(|p| p.no == no).ok_or_else(|| no_player(no))?;
        if p.withdrawn_from.is_none() {
            p.withdrawn_from = Some(next);
            // An arena's player is paused (not paired any more).
            if let Some(a) = self.arena.as_mut() {
                a.events.push(ArenaEvent::Pause { no });
            }
        }
        Ok(())
    }

    pub(super) fn active_in(&self, p: &Entry, round: u32) -> bool {
        round >= p.first_round
            && p.withdrawn_from.is_none_or(|w| round < w)
            && !self.bye_requested(p.no, round)
            && !self.absent.contains(&(round, p.no))
    }

    /// The players the next round would pair (not withdrawn, entered, no bye requested).
    pub fn expected_next(&self) -> Vec<&Entry> {
        let round = self.round_list.len() as u32 + 1;
        self.players.iter().filter(|p| self.active_in(p, round)).collect()
    }

    pub(super) fn bye_requested(&self, no: u32, round: u32) -> bool {
        self.byes_requested.contains(&(round, no))
    }

    /// A Swiss player asks for a half-point bye in the next round (before it is paired).
    pub fn request_bye(&mut self, no: u32) -> Result<u32, Refused> {
        if self.system != TournamentSystem::Swiss || self.status == TournamentStatus::Finished {
            return Err(refused(
                "no_byes",
                "只有进行中的瑞士制比赛可以请假",
                "only a Swiss tournament not finished takes bye requests",
            ));
        }
        let round = self.round_list.len() as u32 + 1;
        if round > self.rounds {
            return Err(refused("no_rounds_left", "所有轮次都已编排", "every round has been paired"));
        }
        let p = self.player(no).ok_or_else(|| no_player(no))?;
        if !self.active_in(p, round) {
            return Err(refused(
                "no_byes",
                "这名棋手下一轮本来就不会被编排",
                "this player is not to be paired in the next round anyway",
            ));
        }
        self.byes_requested.push((round, no));
        Ok(round)
    }

    /// Two players who must not meet (a Swiss).
    pub fn forbid(&mut self, a: u32, b: u32) -> Result<(), Refused> {
        if self.system != TournamentSystem::Swiss || self.status == TournamentStatus::Finished {
            return Err(refused(
                "no_forbidden_pairs",
                "只有瑞士制比赛可以指定不相遇的棋手",
                "only a Swiss tournament takes forbidden pairs",
            ));
        }
        if a == b || a == 0 || b == 0 {
            return Err(refused(
                "bad_request",
                "须是两名不同的棋手（按序号）",
                "two different players are needed (by starting rank)",
            ));
        }
        self.player(a).ok_or_else(|| no_player(a))?;
        self.player(b).ok_or_else(|| no_player(b))?;
        let pair = (a.min(b), a.max(b));
        if !self.forbidden.contains(&pair) {
            self.forbidden.push(pair);
        }
        Ok(())
    }
}
