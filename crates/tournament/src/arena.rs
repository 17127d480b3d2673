// SPDX-License-Identifier: GPL-3.0-or-later
//! Arena tournaments in the manner of lichess's (casual, for a fixed time): players join and pause when they
//! like, waiting players are paired as soon as possible, and the most points when the time is up wins. The rules
//! are those lichess documents in its arena FAQ (<https://lichess.org/tournament/help>); the code is ours:
//!
//! - **Scores**: a win 2, a draw 1, a loss 0. After two wins in a row a player is *on fire*: each following game
//!   scores double (a win 4, a draw 2) until a game that is not a win.
//! - **Quick draws**: a draw within the first 10 moves (here: fewer than 10 moves each, under 20 plies) scores
//!   nothing for either player.
//! - **Draw streaks**: after a draw, further draws score only if they last more than 30 moves (over 60 plies)
//!   until the player wins again; a loss does not end the streak. (A draw on fire is not in a streak: the last
//!   two games were wins.)
//! - **Pairing**: at the start by rating, then by standing: a waiting player meets the nearest waiting player in
//!   the standings, never the same opponent twice in a row; colours even out each player's history.
//! - **The end**: the tournament lasts a fixed time; games still being played when it ends do not count.
//! - **Standings**: by score, then by performance (the average of the opponents' ratings, +500 for a win,
//!   −500 for a loss).
//!
//! Not here: berserk, team battles, and lichess's other pairing details (wait times, rating ranges).
//!
//! The module is pure: the caller passes the time (`now`, in seconds on any clock it likes, the same for every
//! call) and the list of players waiting; [`Arena::pair`] gives boards, [`Arena::record`] takes a game's end.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A player, by the caller's id.
pub type PlayerId = u64;

/// How long and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// When play starts (seconds, on the caller's clock).
    pub start: u64,
    /// How long it lasts, in seconds (more than 0).
    pub duration: u64,
}

/// A colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    White,
    Black,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
}

/// A game's result for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Res {
    Win,
    Draw,
    Loss,
}

/// How a game scored, as a sheet shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// The usual points.
    Normal,
    /// One of the two wins in a row that set the player on fire (or the last win, which may be).
    StreakStarter,
    /// Scored on fire: double points.
    Double,
    /// A draw that scored nothing: within the first 10 moves, or in a draw streak.
    NoPoints,
}

/// A board made by [`Arena::pair`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Board {
    pub white: PlayerId,
    pub black: PlayerId,
}

/// A finished game, as the server reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinishedGame {
    pub white: PlayerId,
    pub black: PlayerId,
    pub outcome: Outcome,
    /// Half-moves played.
    pub plies: u32,
}

/// One game of a player's sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct SheetEntry {
    pub opponent: PlayerId,
    pub colour: Colour,
    pub result: Res,
    pub points: u32,
    pub mark: Mark,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Standing {
    /// 1 for the first; equal score and performance share a rank.
    pub rank: u32,
    pub player: PlayerId,
    pub rating: u16,
    pub score: u32,
    /// `None` before the first game.
    pub performance: Option<i32>,
    pub on_fire: bool,
    pub paused: bool,
    /// The games in the order played.
    pub sheet: Vec<SheetEntry>,
}

/// Why a call was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArenaError {
    /// The duration is 0.
    NoDuration,
    /// The tournament is over (no joining after the end).
    Over,
    /// The player has not joined.
    UnknownPlayer(PlayerId),
    /// The game reported is not one this arena paired (or is already recorded).
    NotPaired { white: PlayerId, black: PlayerId },
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::NoDuration => write!(f, "an arena needs a duration of more than 0 seconds"),
            ArenaError::Over => write!(f, "the arena is over"),
            ArenaError::UnknownPlayer(p) => write!(f, "player {p} has not joined the arena"),
            ArenaError::NotPaired { white, black } => {
                write!(f, "{white} (White) against {black} (Black) is not a game this arena paired")
            }
        }
    }
}

impl std::error::Error for ArenaError {}

/// Lichess's thresholds, in half-moves: a draw under this scores nothing ("within the first 10 moves")...
const QUICK_DRAW_PLIES: u32 = 20;
/// ... and a draw in a draw streak scores only above this ("more than 30 moves").
const LONG_DRAW_PLIES: u32 = 60;

#[derive(Debug, Clone)]
struct PlayerState {
    rating: u16,
    paused: bool,
    sheet: Vec<SheetEntry>,
    score: u32,
    /// The sum of (opponent's rating ± 500) over the games.
    performance_sum: i64,
}

impl PlayerState {
    fn on_fire(&self) -> bool {
        let n = self.sheet.len();
        n >= 2 && self.sheet[n - 1].result == Res::Win && self.sheet[n - 2].result == Res::Win
    }

    /// Whether a draw now would be in a draw streak: the last game that was not a loss was a draw.
    fn in_draw_streak(&self) -> bool {
        self.sheet.iter().rev().find(|e| e.result != Res::Loss).is_some_and(|e| e.result == Res::Draw)
    }

    fn last_opponent(&self) -> Option<PlayerId> {
        self.sheet.last().map(|e| e.opponent)
    }

    /// Whites minus blacks.
    fn colour_balance(&self) -> i64 {
        self.sheet.iter().map(|e| if e.colour == Colour::White { 1 } else { -1 }).sum()
    }

    fn add(&mut self, opponent: PlayerId, opponent_rating: u16, colour: Colour, result: Res, plies: u32) {
        let on_fire = self.on_fire();
        let (points, mark) = match result {
            Res::Win if on_fire => (4, Mark::Double),
            Res::Win => (2, Mark::StreakStarter),
            Res::Draw if plies < QUICK_DRAW_PLIES => (0, Mark::NoPoints),
            Res::Draw if on_fire => (2, Mark::Double),
            Res::Draw if self.in_draw_streak() && plies <= LONG_DRAW_PLIES => (0, Mark::NoPoints),
            Res::Draw => (1, Mark::Normal),
            Res::Loss => (0, Mark::Normal),
        };
        // A win marked as a possible streak starter that was not followed by a win is a plain win.
        if result != Res::Win
            && let Some(last) = self.sheet.last_mut()
            && last.mark == Mark::StreakStarter
        {
            last.mark = Mark::Normal;
        }
        self.sheet.push(SheetEntry { opponent, colour, result, points, mark });
        self.score += points;
        self.performance_sum += i64::from(opponent_rating)
            + match result {
                Res::Win => 500,
                Res::Draw => 0,
                Res::Loss => -500,
            };
    }

    fn performance(&self) -> Option<i32> {
        let n = self.sheet.len() as i64;
        // Rounded half away from zero; ratings keep it far from the i32 limits.
        (n > 0).then(|| ((2 * self.performance_sum + n * self.performance_sum.signum()) / (2 * n)) as i32)
    }
}

/// An arena: its players, their sheets, and the games being played.
#[derive(Debug, Clone)]
pub struct Arena {
    config: Config,
    players: BTreeMap<PlayerId, PlayerState>,
    /// Games paired and not yet recorded: (white, black).
    playing: BTreeSet<(PlayerId, PlayerId)>,
}

impl Arena {
    pub fn new(config: Config) -> Result<Arena, ArenaError> {
        if config.duration == 0 {
            return Err(ArenaError::NoDuration);
        }
        Ok(Arena { config, players: BTreeMap::new(), playing: BTreeSet::new() })
    }

    pub fn config(&self) -> Config {
        self.config
    }

    /// When play stops.
    pub fn end(&self) -> u64 {
        self.config.start.saturating_add(self.config.duration)
    }

    pub fn is_over(&self, now: u64) -> bool {
        now >= self.end()
    }

    /// Joins, or comes back after a pause (the rating is updated; the sheet kept). Allowed before the start.
    pub fn join(&mut self, player: PlayerId, rating: u16, now: u64) -> Result<(), ArenaError> {
        if self.is_over(now) {
            return Err(ArenaError::Over);
        }
        let p = self.players.entry(player).or_insert(PlayerState {
            rating,
            paused: false,
            sheet: Vec::new(),
            score: 0,
            performance_sum: 0,
        });
        p.rating = rating;
        p.paused = false;
        Ok(())
    }

    /// Pauses (withdraws): not paired until the player joins again; the points so far stay in the standings.
    /// A game being played still counts when it ends.
    pub fn pause(&mut self, player: PlayerId) -> Result<(), ArenaError> {
        let p = self.players.get_mut(&player).ok_or(ArenaError::UnknownPlayer(player))?;
        p.paused = true;
        Ok(())
    }

    /// Whether a player is in a game this arena paired and that has not been recorded.
    pub fn is_playing(&self, player: PlayerId) -> bool {
        self.playing.iter().any(|&(w, b)| w == player || b == player)
    }

    /// Records a finished game that [`Arena::pair`] made. Returns whether it counted: a game that ends after the
    /// end of the tournament does not (it is still taken off the games being played).
    pub fn record(&mut self, game: &FinishedGame, now: u64) -> Result<bool, ArenaError> {
        if !self.playing.remove(&(game.white, game.black)) {
            return Err(ArenaError::NotPaired { white: game.white, black: game.black });
        }
        if self.is_over(now) {
            return Ok(false);
        }
        let (rw, rb) = (self.players[&game.white].rating, self.players[&game.black].rating);
        let (white, black) = match game.outcome {
            Outcome::WhiteWins => (Res::Win, Res::Loss),
            Outcome::BlackWins => (Res::Loss, Res::Win),
            Outcome::Draw => (Res::Draw, Res::Draw),
        };
        if let Some(p) = self.players.get_mut(&game.white) {
            p.add(game.black, rb, Colour::White, white, game.plies);
        }
        if let Some(p) = self.players.get_mut(&game.black) {
            p.add(game.white, rw, Colour::Black, black, game.plies);
        }
        Ok(true)
    }

    /// Pairs the players waiting now (in any order; those paused or already playing are left out, a name twice
    /// counts once). In order of standing (score, then rating: at the start, by rating), each unpaired player
    /// meets the nearest one below who was not the last opponent of either. Colours: White to the player with
    /// fewer whites than blacks so far (compared as whites − blacks), then to the one who had Black last, then to
    /// the higher in the standings. Nothing before the start or after the end; an odd player out waits.
    pub fn pair(&mut self, waiting: &[PlayerId], now: u64) -> Result<Vec<Board>, ArenaError> {
        if let Some(&p) = waiting.iter().find(|p| !self.players.contains_key(p)) {
            return Err(ArenaError::UnknownPlayer(p));
        }
        if now < self.config.start || self.is_over(now) {
            return Ok(Vec::new());
        }
        let mut order: Vec<PlayerId> = waiting
            .iter()
            .copied()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .filter(|p| !self.players[p].paused && !self.is_playing(*p))
            .collect();
        order.sort_by(|a, b| {
            let (pa, pb) = (&self.players[a], &self.players[b]);
            pb.score.cmp(&pa.score).then(pb.rating.cmp(&pa.rating)).then(a.cmp(b))
        });
        let mut taken = vec![false; order.len()];
        let mut boards = Vec::new();
        for i in 0..order.len() {
            if taken[i] {
                continue;
            }
            let a = order[i];
            let found = (i + 1..order.len()).find(|&j| {
                let b = order[j];
                !taken[j] && self.players[&a].last_opponent() != Some(b) && self.players[&b].last_opponent() != Some(a)
            });
            let Some(j) = found else { continue };
            taken[i] = true;
            taken[j] = true;
            let b = order[j];
            let board =
                if self.white_first(a, b) { Board { white: a, black: b } } else { Board { white: b, black: a } };
            self.playing.insert((board.white, board.black));
            boards.push(board);
        }
        Ok(boards)
    }

    /// Whether `higher` (ahead in the pairing order) gets White against `lower`.
    fn white_first(&self, higher: PlayerId, lower: PlayerId) -> bool {
        let (h, l) = (&self.players[&higher], &self.players[&lower]);
        match h.colour_balance().cmp(&l.colour_balance()) {
            std::cmp::Ordering::Less => return true,
            std::cmp::Ordering::Greater => return false,
            std::cmp::Ordering::Equal => {}
        }
        let last = |p: &PlayerState| p.sheet.last().map(|e| e.colour);
        match (last(h), last(l)) {
            (Some(Colour::Black), Some(Colour::White)) | (Some(Colour::Black), None) => true,
            (Some(Colour::White), Some(Colour::Black)) | (None, Some(Colour::Black)) => false,
            _ => true,
        }
    }

    /// The standings: by score, then performance (a player without games last among equal scores); equal score
    /// and performance share a rank, listed by rating and id.
    pub fn standings(&self) -> Vec<Standing> {
        let mut rows: Vec<Standing> = self
            .players
            .iter()
            .map(|(&id, p)| Standing {
                rank: 0,
                player: id,
                rating: p.rating,
                score: p.score,
                performance: p.performance(),
                on_fire: p.on_fire(),
                paused: p.paused,
                sheet: p.sheet.clone(),
            })
            .collect();
        let key = |r: &Standing| (std::cmp::Reverse(r.score), std::cmp::Reverse(r.performance));
        rows.sort_by(|a, b| key(a).cmp(&key(b)).then(b.rating.cmp(&a.rating)).then(a.player.cmp(&b.player)));
        for i in 0..rows.len() {
            rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) { rows[i - 1].rank } else { i as u32 + 1 };
        }
        rows
    }
}
