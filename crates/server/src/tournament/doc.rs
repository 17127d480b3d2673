// SPDX-License-Identifier: GPL-3.0-or-later
//! A tournament's state as the server stores it (one JSON document per tournament), and what can be done to it —
//! entries, the start, pairing a round, a result, a withdrawal — as plain functions with no I/O. The pairings,
//! standings and TRF-16 are `guoxiang-tournament`'s: the document is turned into its [`trf::Tournament`] for them.

use guoxiang_protocol::http::{
    ArenaGame, ArenaMark, ArenaRow, ArenaSheetEntry, ArenaView, ByeKind, CrossCell, CrossLine, StandingRow,
    TournamentBoard, TournamentBye, TournamentMode, TournamentPlayer, TournamentResult, TournamentRound,
    TournamentStatus, TournamentSystem,
};
use guoxiang_tournament::standings::{self, TieBreak};
use guoxiang_tournament::trf::{self, Code, Colour, RoundEntry};
use guoxiang_tournament::{arena, berger, dutch};
use serde::{Deserialize, Serialize};

/// The most players a tournament takes.
pub const MAX_PLAYERS: usize = 500;

/// The most rounds of a Swiss tournament.
pub const MAX_SWISS_ROUNDS: u32 = 30;

/// A player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The starting rank from the start on (0 before).
    pub no: u32,
    /// The account, if the player has one (over the board, players may be entered by name).
    pub user_id: Option<String>,
    /// The account's name (or the name entered).
    pub name: String,
    /// The rating the starting ranks are ordered by.
    pub rating: Option<u32>,
    /// Not paired from round `withdrawn_from` on.
    pub withdrawn_from: Option<u32>,
    /// The first round the player can be paired in (a late entry's earlier rounds are zero-point absences).
    pub first_round: u32,
}

/// A board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub white: u32,
    pub black: u32,
    pub game_id: Option<String>,
    pub result: Option<TournamentResult>,
}

/// A player without a game in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bye {
    pub no: u32,
    pub kind: ByeKind,
}

/// A round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub boards: Vec<Board>,
    pub byes: Vec<Bye>,
    pub started_at_ms: i64,
}

impl Round {
    pub fn finished(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_some())
    }
}

/// The whole state of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Doc {
    pub name: String,
    pub system: TournamentSystem,
    pub mode: TournamentMode,
    pub status: TournamentStatus,
    /// PGN `TimeControl`.
    pub time_control: String,
    /// The rule set's name.
    pub rules: String,
    pub rated: bool,
    /// The rounds (a round-robin's are set at the start).
    pub rounds: u32,
    pub tie_breaks: Vec<String>,
    pub round_gap_ms: u64,
    /// The organiser's user id and name.
    pub organiser_id: String,
    pub organiser: String,
    /// Arbiters: (user id, name).
    pub arbiters: Vec<(String, String)>,
    pub players: Vec<Entry>,
    pub round_list: Vec<Round>,
    /// When the next round is due (online), set when a round finishes.
    pub next_round_at_ms: Option<i64>,
    pub created_at_ms: i64,
    /// An arena's state (the other systems have none).
    #[serde(default)]
    pub arena: Option<ArenaDoc>,
    /// When the server starts it by itself (online).
    #[serde(default)]
    pub starts_at_ms: Option<i64>,
    /// Pairs that must not meet (a Swiss).
    #[serde(default)]
    pub forbidden: Vec<(u32, u32)>,
    /// Half-point byes asked for: (round, starting rank).
    #[serde(default)]
    pub byes_requested: Vec<(u32, u32)>,
    /// Online: seconds to make the first move of a game ([`DEFAULT_FIRST_MOVE_GRACE_S`] when absent).
    #[serde(default)]
    pub first_move_grace_s: Option<u32>,
    /// Online Swiss and round-robin: pair only players present (stored tournaments of before: off).
    #[serde(default)]
    pub presence_check: bool,
    /// A Swiss's players who sat a round out for not being present: (round, starting rank).
    #[serde(default)]
    pub absent: Vec<(u32, u32)>,
}

/// The first-move grace of an online tournament's games when the organiser does not set one: five minutes, long
/// enough for a class to sit down and find its boards.
pub const DEFAULT_FIRST_MOVE_GRACE_S: u32 = 300;
/// The longest first-move grace, seconds.
pub const MAX_FIRST_MOVE_GRACE_S: u32 = 3600;

/// An arena as stored: its length and what happened, in order. The state (scores, streaks, who is playing) is
/// `guoxiang-tournament`'s [`arena::Arena`], rebuilt by replaying the events — so it is always what the rules make
/// of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaDoc {
    pub minutes: u32,
    pub started_at_ms: Option<i64>,
    pub events: Vec<ArenaEvent>,
}

/// Something that happened in an arena.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ArenaEvent {
    /// A player joins (or comes back from a pause).
    Join { no: u32, rating: u32, at_ms: i64 },
    /// A player pauses (left, or did not make a first move).
    Pause { no: u32 },
    /// Two waiting players were paired.
    Pair { white: u32, black: u32, at_ms: i64, game_id: Option<String> },
    /// A game ended.
    Result { white: u32, black: u32, result: TournamentResult, plies: u32, at_ms: i64 },
}

/// The shortest and longest arena, minutes.
pub const ARENA_MINUTES: std::ops::RangeInclusive<u32> = 10..=720;

fn secs(ms: i64) -> u64 {
    (ms.max(0) / 1000) as u64
}

fn arena_err(e: arena::ArenaError) -> Refused {
    refused("arena", e.to_string(), e.to_string())
}

/// Why an act on a tournament was refused: a stable code and the message in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub code: &'static str,
    pub zh: String,
    pub en: String,
}

fn refused(code: &'static str, zh: impl Into<String>, en: impl Into<String>) -> Refused {
    Refused { code, zh: zh.into(), en: en.into() }
}

/// The tie-breaks a system ranks by when the organiser chooses none: for a round-robin, C.07's recommendation
/// (direct encounter, wins, Sonneborn-Berger); for a Swiss, the Buchholz family first.
pub fn default_tie_breaks(system: TournamentSystem) -> Vec<String> {
    let order: &[TieBreak] = match system {
        TournamentSystem::RoundRobin | TournamentSystem::DoubleRoundRobin => {
            &[TieBreak::De, TieBreak::Win, TieBreak::Sb, TieBreak::Bwg]
        }
        TournamentSystem::Arena => &[],
        TournamentSystem::Swiss => {
            &[TieBreak::BhC1, TieBreak::Bh, TieBreak::Sb, TieBreak::De, TieBreak::Win, TieBreak::Bwg, TieBreak::Aro]
        }
    };
    order.iter().map(|t| t.abbreviation().to_owned()).collect()
}

/// Reads a list of tie-break abbreviations.
pub fn parse_tie_breaks(list: &[String]) -> Result<Vec<String>, Refused> {
    let mut out: Vec<String> = Vec::new();
    for s in list {
        let Some(tb) = TieBreak::from_abbreviation(s.trim()) else {
            let known: Vec<&str> = TieBreak::ALL.iter().map(|t| t.abbreviation()).collect();
            return Err(refused(
                "bad_tie_break",
                format!("没有名为 {s} 的破同分方法（可用：{}）", known.join("、")),
                format!("no tie-break is called {s} (known: {})", known.join(", ")),
            ));
        };
        let a = tb.abbreviation().to_owned();
        if out.contains(&a) {
            return Err(refused(
                "bad_tie_break",
                format!("破同分方法 {a} 重复了"),
                format!("the tie-break {a} is listed twice"),
            ));
        }
        out.push(a);
    }
    Ok(out)
}

/// The TRF codes of White and Black for a result.
pub fn codes(result: TournamentResult) -> (Code, Code) {
    match result {
        TournamentResult::WhiteWins => (Code::Win, Code::Loss),
        TournamentResult::Draw => (Code::Draw, Code::Draw),
        TournamentResult::BlackWins => (Code::Loss, Code::Win),
        TournamentResult::WhiteForfeitWin => (Code::ForfeitWin, Code::ForfeitLoss),
        TournamentResult::BlackForfeitWin => (Code::ForfeitLoss, Code::ForfeitWin),
        TournamentResult::DoubleForfeit => (Code::ForfeitLoss, Code::ForfeitLoss),
    }
}

/// The result of a pair of TRF codes (White's, Black's), if they make one.
pub fn result_of_codes(white: Code, black: Code) -> Option<TournamentResult> {
    Some(match (white, black) {
        (Code::Win | Code::WinShort, Code::Loss | Code::LossShort) => TournamentResult::WhiteWins,
        (Code::Draw | Code::DrawShort, Code::Draw | Code::DrawShort) => TournamentResult::Draw,
        (Code::Loss | Code::LossShort, Code::Win | Code::WinShort) => TournamentResult::BlackWins,
        (Code::ForfeitWin, Code::ForfeitLoss) => TournamentResult::WhiteForfeitWin,
        (Code::ForfeitLoss, Code::ForfeitWin) => TournamentResult::BlackForfeitWin,
        (Code::ForfeitLoss, Code::ForfeitLoss) => TournamentResult::DoubleForfeit,
        _ => return None,
    })
}

fn bye_code(kind: ByeKind) -> Code {
    match kind {
        ByeKind::Pairing => Code::PairingBye,
        ByeKind::Half => Code::HalfBye,
        ByeKind::Zero => Code::ZeroBye,
    }
}

/// Points of a bye.
pub fn bye_points(kind: ByeKind) -> f64 {
    standings::points(bye_code(kind))
}

impl Doc {
    pub fn player(&self, no: u32) -> Option<&Entry> {
        self.players.iter().find(|p| p.no == no)
    }

    /// The player of an account.
    pub fn player_of(&self, user_id: &str) -> Option<&Entry> {
        self.players.iter().find(|p| p.user_id.as_deref() == Some(user_id))
    }

    pub fn is_arbiter(&self, user_id: &str) -> bool {
        self.arbiters.iter().any(|(id, _)| id == user_id)
    }

    fn round_robin(&self) -> bool {
        matches!(self.system, TournamentSystem::RoundRobin | TournamentSystem::DoubleRoundRobin)
    }

    /// An entry while the tournament takes them: before the start, or a Swiss before its last round is paired
    /// (a late entry, whose missed rounds are absences).
    pub fn join(&mut self, user_id: Option<String>, name: String, rating: Option<u32>) -> Result<(), Refused> {
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
                let now = crate::time::now_ms() as i64;
                if let Some(a) = self.arena.as_mut() {
                    a.events.push(ArenaEvent::Join { no, rating: rating.unwrap_or(1500), at_ms: now });
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

    /// The arena's state now, rebuilt from its events (`None` before the start and for the other systems).
    pub fn arena_state(&self) -> Option<arena::Arena> {
        let a = self.arena.as_ref()?;
        let start = a.started_at_ms?;
        let config = arena::Config { start: secs(start), duration: u64::from(a.minutes) * 60 };
        let mut state = arena::Arena::new(config).ok()?;
        for e in &a.events {
            // Every event was accepted when it happened; replayed in order, it is accepted again.
            let done = match e {
                ArenaEvent::Join { no, rating, at_ms } => {
                    state.join(u64::from(*no), u16::try_from(*rating).unwrap_or(u16::MAX), secs(*at_ms)).map(|_| ())
                }
                ArenaEvent::Pause { no } => state.pause(u64::from(*no)),
                ArenaEvent::Pair { white, black, at_ms, .. } => {
                    state.pair(&[u64::from(*white), u64::from(*black)], secs(*at_ms)).map(|_| ())
                }
                ArenaEvent::Result { white, black, result, plies, at_ms } => {
                    let outcome = match result {
                        TournamentResult::WhiteWins | TournamentResult::WhiteForfeitWin => arena::Outcome::WhiteWins,
                        TournamentResult::BlackWins | TournamentResult::BlackForfeitWin => arena::Outcome::BlackWins,
                        TournamentResult::Draw | TournamentResult::DoubleForfeit => arena::Outcome::Draw,
                    };
                    let g = arena::FinishedGame {
                        white: u64::from(*white),
                        black: u64::from(*black),
                        outcome,
                        plies: *plies,
                    };
                    state.record(&g, secs(*at_ms)).map(|_| ())
                }
            };
            if let Err(err) = done {
                tracing::warn!("arena {}: an event replays with an error: {err}", self.name);
            }
        }
        Some(state)
    }

    /// When the arena ends.
    pub fn arena_end_ms(&self) -> Option<i64> {
        let a = self.arena.as_ref()?;
        Some(a.started_at_ms? + i64::from(a.minutes) * 60_000)
    }

    /// Pairs the arena's waiting players (everyone not paused and not playing); answers the new boards' indexes
    /// among the events. Past the end, the arena is finished instead.
    pub fn arena_pair(&mut self, now_ms: i64) -> Result<Vec<usize>, Refused> {
        if self.status != TournamentStatus::Running || self.system != TournamentSystem::Arena {
            return Ok(Vec::new());
        }
        if self.arena_end_ms().is_some_and(|end| now_ms >= end) {
            self.status = TournamentStatus::Finished;
            return Ok(Vec::new());
        }
        let Some(mut state) = self.arena_state() else { return Ok(Vec::new()) };
        let all: Vec<u64> = self.players.iter().map(|p| u64::from(p.no)).collect();
        let boards = state.pair(&all, secs(now_ms)).map_err(arena_err)?;
        let a = self.arena.as_mut().expect("an arena");
        let mut out = Vec::new();
        for b in boards {
            out.push(a.events.len());
            a.events.push(ArenaEvent::Pair {
                white: b.white as u32,
                black: b.black as u32,
                at_ms: now_ms,
                game_id: None,
            });
        }
        Ok(out)
    }

    /// An arena game's result, once (a second report of the same game is ignored). A player who did not make the
    /// first move (a forfeit) is paused.
    pub fn arena_result(&mut self, game_id: &str, result: TournamentResult, plies: u32, now_ms: i64) {
        let Some(a) = self.arena.as_mut() else { return };
        let Some((white, black)) = a.events.iter().find_map(|e| match e {
            ArenaEvent::Pair { white, black, game_id: Some(g), .. } if g == game_id => Some((*white, *black)),
            _ => None,
        }) else {
            return;
        };
        let seen = self.arena_result_of(game_id).is_some();
        if seen {
            return;
        }
        let a = self.arena.as_mut().expect("an arena");
        a.events.push(ArenaEvent::Result { white, black, result, plies, at_ms: now_ms });
        match result {
            TournamentResult::WhiteForfeitWin => a.events.push(ArenaEvent::Pause { no: black }),
            TournamentResult::BlackForfeitWin => a.events.push(ArenaEvent::Pause { no: white }),
            _ => {}
        }
    }

    /// The result recorded for an arena game: the `Result` after the game's `Pair` between the same two players.
    fn arena_result_of(&self, game_id: &str) -> Option<TournamentResult> {
        let a = self.arena.as_ref()?;
        let i = a.events.iter().position(|e| matches!(e, ArenaEvent::Pair { game_id: Some(g), .. } if g == game_id))?;
        let ArenaEvent::Pair { white, black, .. } = &a.events[i] else { return None };
        // The two cannot be paired again before their game's result.
        a.events[i + 1..].iter().find_map(|e| match e {
            ArenaEvent::Result { white: w, black: b, result, .. } if w == white && b == black => Some(*result),
            _ => None,
        })
    }

    /// An arena player comes back from a pause (or pauses: `pause`), by account.
    pub fn arena_presence(&mut self, user_id: &str, pause: bool, now_ms: i64) -> Result<(), Refused> {
        let p = self
            .player_of(user_id)
            .ok_or_else(|| refused("not_joined", "你没有参加这个比赛", "you are not in this tournament"))?;
        let (no, rating) = (p.no, p.rating.unwrap_or(1500));
        let paused =
            self.arena_state().is_some_and(|s| s.standings().iter().any(|r| r.player == u64::from(no) && r.paused));
        let a = self
            .arena
            .as_mut()
            .ok_or_else(|| refused("not_running", "比赛没有在进行", "the tournament is not running"))?;
        match (pause, paused) {
            (true, false) => a.events.push(ArenaEvent::Pause { no }),
            (false, true) => a.events.push(ArenaEvent::Join { no, rating, at_ms: now_ms }),
            (true, true) => return Err(refused("arena", "你已经暂停了", "you have already paused")),
            (false, false) => {
                return Err(refused("already_joined", "你已经在比赛中了", "you are already playing in it"));
            }
        }
        Ok(())
    }

    /// The arena games still being played (their ids).
    pub fn arena_open_games(&self) -> Vec<String> {
        let Some(a) = self.arena.as_ref() else { return Vec::new() };
        a.events
            .iter()
            .filter_map(|e| match e {
                ArenaEvent::Pair { game_id: Some(g), .. } if self.arena_result_of(g).is_none() => Some(g.clone()),
                _ => None,
            })
            .collect()
    }

    /// The arena as the page shows it.
    pub fn arena_view(&self) -> Option<ArenaView> {
        let a = self.arena.as_ref()?;
        let standings = self
            .arena_state()
            .map(|s| {
                s.standings()
                    .into_iter()
                    .map(|r| ArenaRow {
                        rank: r.rank,
                        no: r.player as u32,
                        name: self.player(r.player as u32).map_or_else(|| format!("#{}", r.player), |p| p.name.clone()),
                        rating: u32::from(r.rating),
                        score: r.score,
                        performance: r.performance,
                        on_fire: r.on_fire,
                        paused: r.paused,
                        sheet: r
                            .sheet
                            .iter()
                            .map(|e| ArenaSheetEntry {
                                opponent: e.opponent as u32,
                                colour: if e.colour == arena::Colour::White { 'w' } else { 'b' },
                                result: match e.result {
                                    arena::Res::Win => 'w',
                                    arena::Res::Draw => 'd',
                                    arena::Res::Loss => 'l',
                                },
                                points: e.points,
                                mark: match e.mark {
                                    arena::Mark::Normal => ArenaMark::Normal,
                                    arena::Mark::StreakStarter => ArenaMark::StreakStarter,
                                    arena::Mark::Double => ArenaMark::Double,
                                    arena::Mark::NoPoints => ArenaMark::NoPoints,
                                },
                            })
                            .collect(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let games: Vec<ArenaGame> = a
            .events
            .iter()
            .rev()
            .filter_map(|e| match e {
                ArenaEvent::Pair { white, black, game_id, .. } => Some(ArenaGame {
                    white: *white,
                    black: *black,
                    game_id: game_id.clone(),
                    result: game_id.as_deref().and_then(|g| self.arena_result_of(g)),
                }),
                _ => None,
            })
            .take(100)
            .collect();
        Some(ArenaView {
            minutes: a.minutes,
            started_at_ms: a.started_at_ms,
            ends_at_ms: self.arena_end_ms(),
            standings,
            games,
        })
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

    fn active_in(&self, p: &Entry, round: u32) -> bool {
        round >= p.first_round
            && p.withdrawn_from.is_none_or(|w| round < w)
            && !self.bye_requested(p.no, round)
            && !self.absent.contains(&(round, p.no))
    }

    /// Whether the presence check applies: online, a Swiss or a round-robin, and the organiser kept it on.
    pub fn checks_presence(&self) -> bool {
        self.presence_check && self.mode == TournamentMode::Online && self.system != TournamentSystem::Arena
    }

    /// The first-move grace of the games, seconds.
    pub fn first_move_grace_s(&self) -> u32 {
        self.first_move_grace_s.unwrap_or(DEFAULT_FIRST_MOVE_GRACE_S)
    }

    /// The players the next round would pair (not withdrawn, entered, no bye requested).
    pub fn expected_next(&self) -> Vec<&Entry> {
        let round = self.round_list.len() as u32 + 1;
        self.players.iter().filter(|p| self.active_in(p, round)).collect()
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

    fn bye_requested(&self, no: u32, round: u32) -> bool {
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

    /// The tournament as a TRF-16 file's model: the finished rounds only (`finished_only`, for standings and the
    /// next pairing), or every round with the results known so far.
    pub fn to_trf(&self, finished_only: bool) -> trf::Tournament {
        let rounds: Vec<&Round> =
            self.round_list.iter().take_while(|r| !finished_only || r.finished()).collect::<Vec<_>>();
        let mut players: Vec<trf::Player> = self
            .players
            .iter()
            .filter(|p| p.no > 0)
            .map(|p| trf::Player {
                start_number: p.no as u16,
                sex: String::new(),
                title: String::new(),
                name: p.name.clone(),
                rating: p.rating.and_then(|r| u16::try_from(r).ok()),
                federation: String::new(),
                fide_id: None,
                birth_date: String::new(),
                points: None,
                rank: None,
                rounds: vec![RoundEntry::ABSENT; rounds.len()],
            })
            .collect();
        players.sort_by_key(|p| p.start_number);
        let index: std::collections::HashMap<u32, usize> =
            players.iter().enumerate().map(|(i, p)| (u32::from(p.start_number), i)).collect();
        let idx = |no: u32| index.get(&no).copied();
        for (r, round) in rounds.iter().enumerate() {
            for b in &round.boards {
                let (wc, bc) = match b.result {
                    Some(res) => codes(res),
                    // A game in progress: paired, not scored (only in the full export).
                    None => (Code::ZeroBye, Code::ZeroBye),
                };
                let (w_played, b_played) = (b.result.is_some(), b.result.is_some());
                if let Some(i) = idx(b.white) {
                    players[i].rounds[r] = RoundEntry {
                        opponent: Some(b.black as u16),
                        colour: Colour::White,
                        code: if w_played { wc } else { Code::ZeroBye },
                    };
                }
                if let Some(i) = idx(b.black) {
                    players[i].rounds[r] = RoundEntry {
                        opponent: Some(b.white as u16),
                        colour: Colour::Black,
                        code: if b_played { bc } else { Code::ZeroBye },
                    };
                }
            }
            for bye in &round.byes {
                if let Some(i) = idx(bye.no) {
                    players[i].rounds[r] =
                        RoundEntry { opponent: None, colour: Colour::None, code: bye_code(bye.kind) };
                }
            }
        }
        trf::Tournament {
            header: trf::Header {
                name: Some(self.name.clone()),
                players: Some(players.len().to_string()),
                rated_players: Some(players.iter().filter(|p| p.rating.is_some()).count().to_string()),
                kind: Some(
                    match self.system {
                        TournamentSystem::RoundRobin => "Round robin",
                        TournamentSystem::DoubleRoundRobin => "Double round robin",
                        TournamentSystem::Swiss => "Swiss Dutch",
                        TournamentSystem::Arena => "Arena",
                    }
                    .to_owned(),
                ),
                chief_arbiter: self.arbiters.first().map(|(_, n)| n.clone()),
                deputy_arbiters: self.arbiters.iter().skip(1).map(|(_, n)| n.clone()).collect(),
                time_control: (self.time_control != "-").then(|| self.time_control.clone()),
                ..trf::Header::default()
            },
            rounds: (self.rounds > 0).then_some(self.rounds),
            initial_colour: None,
            forbidden: self.forbidden.iter().map(|&(a, b)| vec![a as u16, b as u16]).collect(),
            players,
            other_lines: Vec::new(),
        }
    }

    /// The tie-breaks in the tournament's order.
    pub fn tie_break_order(&self) -> Vec<TieBreak> {
        self.tie_breaks.iter().filter_map(|s| TieBreak::from_abbreviation(s)).collect()
    }

    /// The standings after the finished rounds.
    pub fn standings(&self) -> Vec<StandingRow> {
        if self.status == TournamentStatus::Open || self.system == TournamentSystem::Arena {
            return Vec::new();
        }
        let t = self.to_trf(true);
        let order = self.tie_break_order();
        standings::compute(&t, &order)
            .into_iter()
            .map(|row| StandingRow {
                rank: row.rank,
                no: row.start_number.into(),
                name: row.name,
                rating: row.rating.map(u32::from),
                score: row.score,
                tie_breaks: order
                    .iter()
                    .map(|&tb| match tb {
                        TieBreak::Aro => row.tie_breaks.aro.map(f64::from),
                        _ => Some(standings::value(&row.tie_breaks, tb)),
                    })
                    .collect(),
            })
            .collect()
    }

    /// The crosstable of every round paired (results so far).
    pub fn crosstable(&self) -> Vec<CrossLine> {
        if self.status == TournamentStatus::Open || self.system == TournamentSystem::Arena {
            return Vec::new();
        }
        let t = self.to_trf(false);
        let pending: Vec<(usize, u32)> = self
            .round_list
            .iter()
            .enumerate()
            .flat_map(|(r, round)| {
                round.boards.iter().filter(|b| b.result.is_none()).flat_map(move |b| [(r, b.white), (r, b.black)])
            })
            .collect();
        t.players
            .iter()
            .map(|p| {
                let cells: Vec<CrossCell> = (0..self.round_list.len())
                    .map(|r| {
                        let e = p.rounds.get(r).copied().unwrap_or(RoundEntry::ABSENT);
                        let waiting = pending.contains(&(r, u32::from(p.start_number)));
                        CrossCell {
                            opponent: e.opponent.map(u32::from),
                            colour: match e.colour {
                                Colour::White => "w",
                                Colour::Black => "b",
                                Colour::None => "-",
                            }
                            .to_owned(),
                            code: if waiting { "*".to_owned() } else { e.code.as_char().to_string() },
                            points: if waiting { 0.0 } else { standings::points(e.code) },
                        }
                    })
                    .collect();
                let score = cells.iter().map(|c| c.points).sum::<f64>() + 0.0;
                CrossLine { no: p.start_number.into(), name: p.name.clone(), cells, score }
            })
            .collect()
    }

    /// The players as the page lists them, with their scores so far.
    pub fn player_views(&self) -> Vec<TournamentPlayer> {
        let cross = self.crosstable();
        let mut out: Vec<TournamentPlayer> = self
            .players
            .iter()
            .map(|p| TournamentPlayer {
                no: p.no,
                name: p.name.clone(),
                user: p.user_id.as_ref().map(|_| p.name.clone()),
                rating: p.rating,
                withdrawn: p.withdrawn_from.is_some(),
                score: cross.iter().find(|c| c.no == p.no).map_or(0.0, |c| c.score),
                present: None,
            })
            .collect();
        out.sort_by_key(|p| p.no);
        out
    }

    pub fn round_views(&self) -> Vec<TournamentRound> {
        self.round_list
            .iter()
            .enumerate()
            .map(|(r, round)| TournamentRound {
                number: r as u32 + 1,
                boards: round
                    .boards
                    .iter()
                    .enumerate()
                    .map(|(i, b)| TournamentBoard {
                        board: i as u32 + 1,
                        white: b.white,
                        black: b.black,
                        game_id: b.game_id.clone(),
                        result: b.result,
                    })
                    .collect(),
                byes: round
                    .byes
                    .iter()
                    .map(|b| TournamentBye { no: b.no, kind: b.kind, points: bye_points(b.kind) })
                    .collect(),
                finished: round.finished(),
                started_at_ms: round.started_at_ms,
            })
            .collect()
    }

    /// An over-the-board tournament from a TRF-16 file: its players and every round in it, results included.
    pub fn from_trf(t: &trf::Tournament, organiser: (String, String), now_ms: i64) -> Result<Doc, Refused> {
        let bad = |zh: String, en: String| refused("bad_trf", zh, en);
        if t.players.len() < 2 {
            return Err(bad("TRF 文件至少要有 2 名棋手".into(), "the TRF file must have at least 2 players".into()));
        }
        if t.players.len() > MAX_PLAYERS {
            return Err(bad(format!("最多 {MAX_PLAYERS} 名棋手"), format!("at most {MAX_PLAYERS} players")));
        }
        let played = t.rounds_played();
        let rounds = t.rounds.unwrap_or(played as u32).max(played as u32);
        if rounds == 0 || rounds > MAX_SWISS_ROUNDS * 2 {
            return Err(bad(
                "TRF 文件没有说明轮数（XXR 行），也没有已赛的轮次".into(),
                "the TRF file gives no number of rounds (an XXR line) and no round played".into(),
            ));
        }
        let mut players: Vec<Entry> = t
            .players
            .iter()
            .map(|p| Entry {
                no: p.start_number.into(),
                user_id: None,
                name: p.name.clone(),
                rating: p.rating.map(u32::from),
                withdrawn_from: None,
                first_round: 1,
            })
            .collect();
        players.sort_by_key(|p| p.no);
        let mut round_list = Vec::new();
        for r in 0..played {
            let mut round = Round { boards: Vec::new(), byes: Vec::new(), started_at_ms: now_ms };
            for p in &t.players {
                let e = t.entry(p.start_number, r);
                match (e.opponent, e.colour) {
                    (Some(opp), Colour::White) => {
                        let o = t.entry(opp, r);
                        let result = result_of_codes(e.code, o.code).ok_or_else(|| {
                            bad(
                                format!(
                                    "第 {} 轮：{} 号与 {opp} 号的结果 {}/{} 不相符",
                                    r + 1,
                                    p.start_number,
                                    e.code.as_char(),
                                    o.code.as_char()
                                ),
                                format!(
                                    "round {}: the results of {} and {opp} ({} and {}) do not match",
                                    r + 1,
                                    p.start_number,
                                    e.code.as_char(),
                                    o.code.as_char()
                                ),
                            )
                        })?;
                        round.boards.push(Board {
                            white: p.start_number.into(),
                            black: opp.into(),
                            game_id: None,
                            result: Some(result),
                        });
                    }
                    (Some(_), _) => {}
                    (None, _) => {
                        let kind = match e.code {
                            Code::PairingBye | Code::FullBye | Code::ForfeitWin => ByeKind::Pairing,
                            Code::HalfBye => ByeKind::Half,
                            _ => ByeKind::Zero,
                        };
                        round.byes.push(Bye { no: p.start_number.into(), kind });
                    }
                }
            }
            round_list.push(round);
        }
        let system = if t.header.kind.as_deref().is_some_and(|k| k.to_ascii_lowercase().contains("round")) {
            TournamentSystem::RoundRobin
        } else {
            TournamentSystem::Swiss
        };
        let mut doc = Doc {
            name: t.header.name.clone().unwrap_or_else(|| "TRF".into()),
            system,
            mode: TournamentMode::Otb,
            status: TournamentStatus::Running,
            time_control: t.header.time_control.clone().unwrap_or_else(|| "-".into()),
            rules: "online".into(),
            rated: false,
            rounds,
            tie_breaks: default_tie_breaks(system),
            round_gap_ms: 0,
            organiser_id: organiser.0,
            organiser: organiser.1,
            arbiters: Vec::new(),
            players,
            round_list,
            next_round_at_ms: None,
            created_at_ms: now_ms,
            arena: None,
            starts_at_ms: None,
            forbidden: t
                .forbidden
                .iter()
                .flat_map(|g| {
                    g.iter().enumerate().flat_map(move |(i, &a)| {
                        g[i + 1..].iter().map(move |&b| (u32::from(a.min(b)), u32::from(a.max(b))))
                    })
                })
                .collect(),
            byes_requested: Vec::new(),
            first_move_grace_s: None,
            presence_check: false,
            absent: Vec::new(),
        };
        doc.after_round();
        Ok(doc)
    }
}

/// One player of a pasted list: the line it is on (1-based), the name, and the rating written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedPlayer {
    pub line: usize,
    pub name: String,
    pub rating: Option<u32>,
}

/// What is wrong with one line of a pasted list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListError {
    pub line: usize,
    pub zh: String,
    pub en: String,
}

impl ListError {
    fn new(line: usize, zh: String, en: String) -> ListError {
        ListError { line, zh: format!("第 {line} 行：{zh}"), en: format!("line {line}: {en}") }
    }
}

/// The most players one list may add.
pub const MAX_LIST: usize = 200;

/// Reads a list of players as a teacher pastes it: one per line, or several on a line separated by commas (`,`
/// `，` `、` `;` `；`); a rating may follow a name after a space (`王小明 1200`). Blank lines are skipped. Every
/// problem is reported with its line: an empty name, a name too long, a rating out of 100–3500, a name twice
/// (letters compared without case), and a player already in `existing`. Answers the good entries and the errors.
pub fn parse_player_list(text: &str, existing: &[Entry]) -> (Vec<ListedPlayer>, Vec<ListError>) {
    let mut out: Vec<ListedPlayer> = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let items: Vec<&str> = raw.split([',', '，', '、', ';', '；']).map(str::trim).collect();
        for item in items {
            if item.is_empty() {
                if raw.split([',', '，', '、', ';', '；']).count() > 1 {
                    errors.push(ListError::new(
                        line,
                        "两个逗号之间没有名字".into(),
                        "no name between two commas".into(),
                    ));
                }
                continue;
            }
            let words: Vec<&str> = item.split_whitespace().collect();
            let (name, rating) = match words.split_last() {
                Some((last, rest)) if !rest.is_empty() && last.chars().all(|c| c.is_ascii_digit()) => {
                    match last.parse::<u32>() {
                        Ok(r) if (100..=3500).contains(&r) => (rest.join(" "), Some(r)),
                        _ => {
                            errors.push(ListError::new(
                                line,
                                format!("「{item}」的等级分 {last} 不在 100 到 3500 之间"),
                                format!("{item:?}: the rating {last} is not between 100 and 3500"),
                            ));
                            continue;
                        }
                    }
                }
                _ => (words.join(" "), None),
            };
            if name.chars().count() > 60 {
                errors.push(ListError::new(
                    line,
                    format!("「{name}」太长（名字最多 60 个字符）"),
                    format!("{name:?} is too long (a name has at most 60 characters)"),
                ));
                continue;
            }
            let key = name.to_lowercase();
            if let Some(first) = out.iter().find(|p| p.name.to_lowercase() == key) {
                errors.push(ListError::new(
                    line,
                    format!("「{name}」重复了（第 {} 行已有）", first.line),
                    format!("{name:?} is listed twice (already on line {})", first.line),
                ));
                continue;
            }
            if let Some(p) = existing.iter().find(|p| p.name.to_lowercase() == key) {
                errors.push(ListError::new(
                    line,
                    format!("「{name}」已经是 {} 号棋手", p.no),
                    format!("{name:?} is already player number {}", p.no),
                ));
                continue;
            }
            out.push(ListedPlayer { line, name, rating });
        }
    }
    if out.is_empty() && errors.is_empty() {
        errors.push(ListError { line: 0, zh: "名单是空的".into(), en: "the list is empty".into() });
    }
    if out.len() > MAX_LIST {
        errors.push(ListError {
            line: 0,
            zh: format!("一次最多添加 {MAX_LIST} 名棋手（这里有 {} 名）", out.len()),
            en: format!("at most {MAX_LIST} players can be added at once (this list has {})", out.len()),
        });
    }
    (out, errors)
}

fn no_player(no: u32) -> Refused {
    refused("bad_request", format!("没有 {no} 号棋手"), format!("there is no player number {no}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(system: TournamentSystem, n: usize) -> Doc {
        let mut d = Doc {
            name: "Club".into(),
            system,
            mode: TournamentMode::Otb,
            status: TournamentStatus::Open,
            time_control: "5400+30".into(),
            rules: "online".into(),
            rated: false,
            rounds: 3,
            tie_breaks: default_tie_breaks(system),
            round_gap_ms: 0,
            organiser_id: "o".into(),
            organiser: "org".into(),
            arbiters: Vec::new(),
            players: Vec::new(),
            round_list: Vec::new(),
            next_round_at_ms: None,
            created_at_ms: 0,
            arena: None,
            starts_at_ms: None,
            forbidden: Vec::new(),
            byes_requested: Vec::new(),
            first_move_grace_s: None,
            presence_check: false,
            absent: Vec::new(),
        };
        for i in 0..n {
            d.join(Some(format!("u{i}")), format!("P{i}"), Some(2000 - 10 * i as u32)).unwrap();
        }
        d
    }

    #[test]
    fn a_round_robin_of_four_follows_berger_and_ends_after_three_rounds() {
        let mut d = doc(TournamentSystem::RoundRobin, 4);
        d.start(0).unwrap();
        assert_eq!(d.rounds, 3);
        let r1 = d.pair_next(1, &[]).unwrap().clone();
        // FIDE's table for 4 players, round 1: 1-4, 2-3.
        assert_eq!(r1.boards.iter().map(|b| (b.white, b.black)).collect::<Vec<_>>(), vec![(1, 4), (2, 3)]);
        assert_eq!(d.can_pair().unwrap_err().code, "round_not_finished");
        assert!(!d.set_result(1, 1, TournamentResult::WhiteWins).unwrap());
        assert!(d.set_result(1, 2, TournamentResult::Draw).unwrap());
        d.after_round();
        for round in 2..=3 {
            d.pair_next(round, &[]).unwrap();
            for b in 1..=2 {
                d.set_result(round as u32, b, TournamentResult::Draw).unwrap();
            }
            d.after_round();
        }
        assert_eq!(d.status, TournamentStatus::Finished);
        let s = d.standings();
        assert_eq!(s[0].no, 1);
        assert_eq!(s[0].score, 2.0);
        assert_eq!(s.iter().map(|r| r.score).sum::<f64>(), 6.0);
        assert_eq!(d.pair_next(9, &[]).unwrap_err().code, "not_running");
    }

    #[test]
    fn a_swiss_pairs_by_the_dutch_system_with_a_bye_and_a_withdrawal() {
        let mut d = doc(TournamentSystem::Swiss, 5);
        d.start(0).unwrap();
        let r1 = d.pair_next(1, &[]).unwrap().clone();
        assert_eq!(r1.boards.len(), 2);
        assert_eq!(r1.byes, vec![Bye { no: 5, kind: ByeKind::Pairing }]);
        // The top half meets the bottom half: 1-3 and 4-2 by the Dutch system's colour rule.
        assert_eq!(
            r1.boards.iter().map(|b| (b.white.min(b.black), b.white.max(b.black))).collect::<Vec<_>>(),
            vec![(1, 3), (2, 4)]
        );
        d.set_result(1, 1, TournamentResult::WhiteWins).unwrap();
        d.set_result(1, 2, TournamentResult::BlackWins).unwrap();
        d.after_round();
        d.withdraw(3).unwrap();
        let r2 = d.pair_next(2, &[]).unwrap().clone();
        assert!(r2.byes.contains(&Bye { no: 3, kind: ByeKind::Zero }), "{r2:?}");
        assert!(r2.boards.iter().all(|b| b.white != 3 && b.black != 3));
        assert!(r2.byes.iter().all(|b| b.no != 5 || b.kind != ByeKind::Pairing), "no second pairing bye for 5");
        let s = d.standings();
        assert_eq!(s.iter().map(|r| r.score).sum::<f64>(), 3.0, "two decisive games and a bye");
    }

    #[test]
    fn a_requested_bye_scores_half_and_a_forbidden_pair_never_meets() {
        let mut d = doc(TournamentSystem::Swiss, 6);
        d.forbid(1, 4).unwrap();
        d.start(0).unwrap();
        assert_eq!(d.request_bye(6).unwrap(), 1);
        let r1 = d.pair_next(1, &[]).unwrap().clone();
        assert!(r1.byes.contains(&Bye { no: 6, kind: ByeKind::Half }), "{r1:?}");
        // Without the forbidden pair the Dutch system would pair 1 with 4 (top half against bottom half of five).
        assert!(r1.boards.iter().all(|b| (b.white.min(b.black), b.white.max(b.black)) != (1, 4)), "{r1:?}");
        assert_eq!(r1.boards.len(), 2);
        assert_eq!(r1.byes.len(), 2, "the half-point bye and the pairing-allocated bye: {r1:?}");
        for b in 1..=2 {
            d.set_result(1, b, TournamentResult::Draw).unwrap();
        }
        d.after_round();
        let half = d.standings().into_iter().find(|r| r.no == 6).unwrap();
        assert_eq!(half.score, 0.5);
        let t = d.to_trf(true);
        assert_eq!(t.forbidden, vec![vec![1, 4]]);
        assert_eq!(d.forbid(2, 2).unwrap_err().code, "bad_request");
        let mut rr = doc(TournamentSystem::RoundRobin, 3);
        assert_eq!(rr.forbid(1, 2).unwrap_err().code, "no_forbidden_pairs");
        rr.start(0).unwrap();
        assert_eq!(rr.request_bye(1).unwrap_err().code, "no_byes");
    }

    #[test]
    fn the_trf_round_trip_keeps_players_and_results() {
        let mut d = doc(TournamentSystem::Swiss, 8);
        d.start(0).unwrap();
        d.pair_next(1, &[]).unwrap();
        // Board 4: both absent, a double forfeit (`-` against `-`, issue 38).
        let results = [
            TournamentResult::WhiteWins,
            TournamentResult::Draw,
            TournamentResult::BlackForfeitWin,
            TournamentResult::DoubleForfeit,
        ];
        for b in 1..=4 {
            d.set_result(1, b, results[b as usize - 1]).unwrap();
        }
        d.after_round();
        let text = trf::write(&d.to_trf(false));
        let (w, b) = (d.round_list[0].boards[3].white, d.round_list[0].boards[3].black);
        assert!(text.contains(&format!("{b:04} w -")) && text.contains(&format!("{w:04} b -")), "{text}");
        let mut back = Doc::from_trf(&trf::parse(&text).unwrap(), ("o".into(), "org".into()), 5).unwrap();
        assert_eq!(back.round_list.len(), 1);
        // TRF-16 keeps who met whom, not the board order.
        let games = |d: &Doc| {
            let mut g: Vec<_> = d.round_list[0].boards.iter().map(|b| (b.white, b.black, b.result)).collect();
            g.sort_by_key(|x| (x.0, x.1));
            g
        };
        assert_eq!(games(&back), games(&d));
        assert_eq!(back.rounds, 3);
        assert_eq!(back.standings(), d.standings());
        // The imported tournament pairs its next round.
        assert_eq!(back.pair_next(6, &[]).unwrap().boards.len(), 4);
    }

    #[test]
    fn an_arena_is_rebuilt_from_its_events_and_ends_on_time() {
        let mut d = doc(TournamentSystem::Arena, 4);
        d.arena = Some(ArenaDoc { minutes: 10, started_at_ms: None, events: Vec::new() });
        d.start(1_000_000).unwrap();
        let new = d.arena_pair(1_001_000).unwrap();
        assert_eq!(new.len(), 2);
        for (k, i) in new.iter().enumerate() {
            if let ArenaEvent::Pair { game_id, .. } = &mut d.arena.as_mut().unwrap().events[*i] {
                *game_id = Some(format!("g{k}"));
            }
        }
        assert_eq!(d.arena_open_games(), vec!["g0".to_owned(), "g1".to_owned()]);
        d.arena_result("g0", TournamentResult::WhiteWins, 40, 1_100_000);
        d.arena_result("g0", TournamentResult::BlackWins, 40, 1_100_000);
        d.arena_result("g1", TournamentResult::BlackForfeitWin, 0, 1_100_000);
        assert_eq!(d.arena_open_games(), Vec::<String>::new());
        let v = d.arena_view().unwrap();
        let mut scores: Vec<u32> = v.standings.iter().map(|r| r.score).collect();
        scores.sort_unstable();
        assert_eq!(scores, vec![0, 0, 2, 2], "a second report of g0 is ignored");
        // White of g1 did not move: paused, so not paired again.
        assert_eq!(v.standings.iter().filter(|r| r.paused).count(), 1);
        // Three wait (one is paused): g0's players may not meet again at once, so one of them meets g1's Black.
        let paused = v.standings.iter().find(|r| r.paused).unwrap().no;
        let again = d.arena_pair(1_200_000).unwrap();
        assert_eq!(again.len(), 1);
        let ArenaEvent::Pair { white, black, .. } = d.arena.as_ref().unwrap().events[again[0]].clone() else {
            panic!()
        };
        assert!(white != paused && black != paused);
        let g0 = d.arena.as_ref().unwrap().events.iter().find_map(|e| match e {
            ArenaEvent::Pair { white, black, game_id: Some(g), .. } if g == "g0" => Some((*white, *black)),
            _ => None,
        });
        assert!(g0 != Some((white, black)) && g0 != Some((black, white)), "no immediate rematch");
        // Ten minutes after the start it is over.
        assert!(d.arena_pair(1_000_000 + 600_000).unwrap().is_empty());
        assert_eq!(d.status, TournamentStatus::Finished);
    }

    #[test]
    fn a_pasted_list_reads_lines_and_commas_with_ratings() {
        let (got, errors) = parse_player_list("王小明 1200\n\n李华，张三、Zoe Li 1500\r\nAnna, Bo; Chen\n", &[]);
        assert_eq!(errors, []);
        let seen: Vec<(usize, &str, Option<u32>)> = got.iter().map(|p| (p.line, p.name.as_str(), p.rating)).collect();
        assert_eq!(
            seen,
            [
                (1, "王小明", Some(1200)),
                (3, "李华", None),
                (3, "张三", None),
                (3, "Zoe Li", Some(1500)),
                (4, "Anna", None),
                (4, "Bo", None),
                (4, "Chen", None)
            ]
        );
    }

    #[test]
    fn a_pasted_list_names_the_line_of_each_problem() {
        let d = doc(TournamentSystem::Swiss, 2); // P0 and P1
        let text = "Anna\nBo 99999\nanna\nP1\nX,,Y\n".to_owned() + &"x".repeat(61);
        let (good, errors) = parse_player_list(&text, &d.players);
        assert_eq!(good.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["Anna", "X", "Y"]);
        let en: Vec<&str> = errors.iter().map(|e| e.en.as_str()).collect();
        assert_eq!(
            en,
            [
                "line 2: \"Bo 99999\": the rating 99999 is not between 100 and 3500",
                "line 3: \"anna\" is listed twice (already on line 1)",
                "line 4: \"P1\" is already player number 2",
                "line 5: no name between two commas",
                &format!("line 6: {:?} is too long (a name has at most 60 characters)", "x".repeat(61)),
            ]
        );
        assert_eq!(errors[1].zh, "第 3 行：「anna」重复了（第 1 行已有）");
        assert_eq!(parse_player_list(" \n\n", &[]).1[0].en, "the list is empty");
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        let mut d = doc(TournamentSystem::Swiss, 1);
        assert_eq!(d.join(Some("u0".into()), "again".into(), None).unwrap_err().code, "already_joined");
        assert_eq!(d.start(0).unwrap_err().code, "too_few_players");
        assert_eq!(parse_tie_breaks(&["XX".into()]).unwrap_err().code, "bad_tie_break");
        assert_eq!(parse_tie_breaks(&["SB".into(), "sb".into()]).unwrap_err().code, "bad_tie_break");
        assert_eq!(d.set_result(4, 1, TournamentResult::Draw).unwrap_err().code, "bad_request");
    }
}
