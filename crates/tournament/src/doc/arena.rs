// SPDX-License-Identifier: GPL-3.0-or-later
//! An arena's acts on the document: rebuilt from its events by [`crate::arena`], paired, scored, paused, shown.

use super::view::{ArenaGame, ArenaMark, ArenaRow, ArenaSheetEntry, ArenaView};
use super::{ArenaEvent, Doc, Refused, TournamentResult, TournamentStatus, TournamentSystem, refused};
use crate::arena;

fn secs(ms: i64) -> u64 {
    (ms.max(0) / 1000) as u64
}

fn arena_err(e: arena::ArenaError) -> Refused {
    refused("arena", e.to_string(), e.to_string())
}

impl Doc {
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
    pub(super) fn arena_result_of(&self, game_id: &str) -> Option<TournamentResult> {
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
}
