//! The puzzle service: the next puzzle near a rating, the motif counts, the judge of one try, a round's rating, an
//! account's dashboard, the daily puzzle and a puzzle by id. One per server, held in its state: the default set's
//! import, the counts' cache, the tries' limiter and the judges' permits are this server's, not the process's.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use guoxiang_protocol::http::{
    DashboardRating, DashboardRound, DashboardTheme, PuzzleDashboard, PuzzleThemes, PuzzleVerdict, RoundAnswer,
    RoundPuzzle, RoundRating,
};
use guoxiang_ratings::Glicko;
use guoxiang_ratings::puzzle::rate_round;
use guoxiang_store::{NextQuery, PuzzleRow, Store};
use guoxiang_tactics::judge::{JUDGE_NODES, judge_in};
use tokio::sync::Semaphore;

use super::error::PuzzleError;
use super::import::import_default_if_empty;
use super::rating::{course_lessons, glicko, newcomer, stored};
use super::view::{parsed, puzzle_verdict, themes};

/// Ratings accepted in requests.
pub const RATING_RANGE: std::ops::RangeInclusive<f64> = 100.0..=4000.0;
/// Tries judged a minute per session (or per address without one), and the burst.
const TRIES_PER_MINUTE: u32 = 240;
const TRIES_BURST: u32 = 60;
/// Tries judged at once (a wrong one runs the engine), the rest wait.
pub const JUDGES_AT_ONCE: usize = 2;
/// How long the per-motif counts are kept before counting again.
const COUNTS_TTL: Duration = Duration::from_secs(60);
/// The latest rounds the dashboard shows.
const HISTORY: i64 = 50;
/// The rating the daily puzzle is chosen near.
const DAILY_RATING: f64 = 1800.0;

fn no_puzzle() -> PuzzleError {
    PuzzleError::NoPuzzle
}

fn puzzle_not_found(id: &str) -> PuzzleError {
    PuzzleError::NotFound { id: id.to_owned() }
}

/// Whether `id` can be a puzzle's id (letters, digits, `_`, `-`; 1 to 64).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Lichess's `difficulty` of `GET /api/puzzle/next`: how far from the solver's rating.
pub fn difficulty_offset(d: &str) -> Result<f64, PuzzleError> {
    match d {
        "easiest" => Ok(-600.0),
        "easier" => Ok(-300.0),
        "normal" => Ok(0.0),
        "harder" => Ok(300.0),
        "hardest" => Ok(600.0),
        _ => Err(PuzzleError::invalid(
            "difficulty",
            "须为 easiest、easier、normal、harder 或 hardest",
            "must be easiest, easier, normal, harder or hardest",
        )),
    }
}

/// The motif counts, shared by the answers that read them.
type Counts = Arc<HashMap<String, i64>>;

/// What `next` is asked (each part already checked).
#[derive(Debug)]
pub struct NextAsk<'a> {
    /// The account asking (none for a guest or no session).
    pub account: Option<&'a str>,
    /// The difficulty asked for, a valid one.
    pub difficulty: Option<&'a str>,
    /// The rating asked for (a streak's).
    pub rating: Option<f64>,
    /// The lessons of the 学棋 course a guest's browser has done.
    pub course: Option<usize>,
    /// The motifs the puzzle should have (any of them; none: any puzzle).
    pub motifs: Vec<String>,
    /// Puzzles not to give.
    pub exclude: Vec<String>,
}

/// The puzzle `next` chose, the difficulty it was chosen with, and the starting rating of a player who has none yet.
#[derive(Debug)]
pub struct Next {
    pub row: PuzzleRow,
    pub difficulty: String,
    pub newcomer: Option<Glicko>,
}

/// A round's request.
#[derive(Debug)]
pub struct Round {
    pub win: bool,
    pub hints: i64,
    pub streak: bool,
    pub rating: Option<Glicko>,
}

/// The puzzle service (cheap to clone: one per server, shared).
#[derive(Clone)]
pub struct Puzzles {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    /// The ids of the 学棋 course's lessons (a new player's rating counts those done).
    lessons: Vec<String>,
    /// Whether the default set has been seen to (imported when the table was empty).
    defaults_done: tokio::sync::Mutex<bool>,
    /// The per-motif counts and when they were counted.
    counts: Mutex<Option<(Instant, Counts)>>,
    /// Tries judged per session or address.
    tries: DefaultKeyedRateLimiter<String>,
    /// Tries judged at once.
    judges: Semaphore,
}

impl std::fmt::Debug for Puzzles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Puzzles").field("judges_free", &self.inner.judges.available_permits()).finish_non_exhaustive()
    }
}

impl Puzzles {
    pub fn new(store: Store) -> Puzzles {
        let quota = Quota::per_minute(NonZeroU32::new(TRIES_PER_MINUTE).unwrap_or(NonZeroU32::MIN))
            .allow_burst(NonZeroU32::new(TRIES_BURST).unwrap_or(NonZeroU32::MIN));
        Puzzles {
            inner: Arc::new(Inner {
                store,
                lessons: course_lessons(),
                defaults_done: tokio::sync::Mutex::new(false),
                counts: Mutex::new(None),
                tries: RateLimiter::keyed(quota),
                judges: Semaphore::new(JUDGES_AT_ONCE),
            }),
        }
    }

    fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Imports the default set once, before the first puzzle request is answered.
    async fn ensure_puzzles(&self) -> Result<(), PuzzleError> {
        let mut done = self.inner.defaults_done.lock().await;
        if *done {
            return Ok(());
        }
        if import_default_if_empty(self.store()).await?.is_some() {
            *self.inner.counts.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
        *done = true;
        Ok(())
    }

    /// A stored puzzle by id (404 for an id that cannot be one or is not there).
    async fn puzzle(&self, id: &str) -> Result<PuzzleRow, PuzzleError> {
        if !valid_id(id) {
            return Err(puzzle_not_found(id));
        }
        self.ensure_puzzles().await?;
        self.store().puzzle(id).await?.ok_or_else(|| puzzle_not_found(id))
    }

    async fn motif_counts(&self) -> Result<Counts, PuzzleError> {
        if let Some((at, c)) = &*self.inner.counts.lock().unwrap_or_else(|e| e.into_inner())
            && at.elapsed() < COUNTS_TTL
        {
            return Ok(c.clone());
        }
        let counts: Counts = Arc::new(self.store().motif_counts().await?.into_iter().collect());
        *self.inner.counts.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), counts.clone()));
        Ok(counts)
    }

    /// A new player's starting rating, `done` lessons of the 学棋 course being finished.
    pub fn newcomer(&self, done: usize) -> Glicko {
        newcomer(done, self.inner.lessons.len())
    }

    /// A new account's starting rating, from its 学棋 progress on the server.
    async fn account_newcomer(&self, user_id: &str) -> Result<Glicko, PuzzleError> {
        let progress = self.store().learn_progress(user_id).await?;
        let done = self.inner.lessons.iter().filter(|id| progress.get(id.as_str()).is_some_and(|p| p.done)).count();
        Ok(self.newcomer(done))
    }

    /// The user's puzzle rating: an account's stored one (before the first round, the new player's
    /// [`Self::account_newcomer`]) and its rounds.
    async fn account_rating(&self, user_id: &str) -> Result<(Glicko, i64), PuzzleError> {
        Ok(match self.store().user_puzzle_rating(user_id).await? {
            Some(r) => (glicko(r.glicko, r.rounds), r.rounds),
            None => (self.account_newcomer(user_id).await?, 0),
        })
    }

    /// The difficulty a `next` is chosen with: an account's kept choice is relative to its own rating, so it
    /// applies when neither a rating (a streak's) nor a difficulty is asked for; one asked for is kept.
    async fn difficulty(&self, ask: &NextAsk<'_>) -> Result<String, PuzzleError> {
        Ok(match (ask.account, ask.difficulty) {
            (Some(id), Some(d)) => {
                if self.store().puzzle_difficulty(id).await?.as_deref() != Some(d) {
                    self.store().set_puzzle_difficulty(id, d, crate::time::now_ms() as i64).await?;
                }
                d.to_owned()
            }
            (Some(id), None) if ask.rating.is_none() => {
                self.store().puzzle_difficulty(id).await?.unwrap_or_else(|| "normal".to_owned())
            }
            (_, d) => d.unwrap_or("normal").to_owned(),
        })
    }

    /// The next puzzle near the player's rating moved by the difficulty (without a rating, an account's, or a new
    /// player's from the 学棋 course), with the motifs asked for and none of the excluded.
    pub async fn next(&self, ask: NextAsk<'_>) -> Result<Next, PuzzleError> {
        let difficulty = self.difficulty(&ask).await?;
        let offset = difficulty_offset(&difficulty)?;
        let (rating, newcomer) = match (ask.rating, ask.account) {
            (Some(r), _) => (r, None),
            (None, Some(id)) => {
                let (g, rounds) = self.account_rating(id).await?;
                (g.rating, (rounds == 0).then_some(g))
            }
            (None, None) => {
                let g = self.newcomer(ask.course.unwrap_or(0));
                (g.rating, Some(g))
            }
        };
        self.ensure_puzzles().await?;
        let query = NextQuery {
            rating: rating + offset,
            start: rand::random::<f64>() * 2.0 - 1.0,
            motifs: &ask.motifs,
            exclude: &ask.exclude,
            user_id: ask.account,
            not_daily: false,
        };
        let row = self.store().next_puzzle(&query).await?.ok_or_else(no_puzzle)?;
        Ok(Next { row, difficulty, newcomer })
    }

    /// The seeds' tactics and the motifs with their puzzles' counts (counted at most once a minute).
    pub async fn themes(&self, all: bool) -> Result<PuzzleThemes, PuzzleError> {
        self.ensure_puzzles().await?;
        let counts = self.motif_counts().await?;
        Ok(themes(&counts, all))
    }

    /// The verdict on the solver's last move of `moves` in puzzle `id`, the moves of its sentences with Chinese
    /// piece letters when `chinese`. Rate-limited per `key` (a session or an address); at most
    /// [`JUDGES_AT_ONCE`] judged at once, off the async runtime.
    ///
    /// For a registered `account`, a wrong try and the solving move are recorded (`Store::record_judged_try`): a
    /// round is then earned — counted for a class's homework and dashboard — only when the judge saw it solved.
    pub async fn judge(
        &self,
        key: String,
        account: Option<&str>,
        id: &str,
        moves: Vec<String>,
        chinese: bool,
    ) -> Result<PuzzleVerdict, PuzzleError> {
        self.inner.tries.check_key(&key).map_err(|_| PuzzleError::TooManyTries)?;
        let row = self.puzzle(id).await?;
        let p = parsed(&row)?;
        let _permit = self.inner.judges.acquire().await.map_err(|e| PuzzleError::internal("puzzle judge", e))?;
        let verdict = tokio::task::spawn_blocking(move || judge_in(&p, &moves, JUDGE_NODES, chinese))
            .await
            .map_err(|e| PuzzleError::internal("puzzle judge", e))?;
        let v = match verdict {
            Ok(v) => puzzle_verdict(v),
            Err(e) => return Err(PuzzleError::invalid(&e.field(), &e.text.zh, &e.text.en)),
        };
        let wrong = match &v {
            PuzzleVerdict::Wrong { .. } => Some(true),
            PuzzleVerdict::Solved { .. } => Some(false),
            _ => None,
        };
        if let (Some(user_id), Some(wrong)) = (account, wrong) {
            self.store().record_judged_try(user_id, id, wrong, crate::time::now_ms() as i64).await?;
        }
        Ok(v)
    }

    /// Rates a finished puzzle: an account's round (`account`) is stored once and moves the puzzle's rating, a
    /// guest's moves nothing on the server; streak rounds change no rating.
    pub async fn round(&self, account: Option<&str>, id: &str, r: Round) -> Result<RoundAnswer, PuzzleError> {
        let row = self.puzzle(id).await?;
        let puzzle = glicko(row.glicko, row.plays);
        let Some(user_id) = account else {
            let before = r.rating.unwrap_or_else(|| self.newcomer(0));
            let after = if r.streak { before } else { rate_round(&before, &puzzle, r.win).0 };
            return Ok(RoundAnswer {
                rating: rating_answer(&before, &after, None, false),
                puzzle: puzzle_answer(row.glicko.rating, row.plays),
            });
        };
        let new_user = self.account_newcomer(user_id).await?;
        if r.streak {
            let (current, rounds) = self.account_rating(user_id).await?;
            return Ok(RoundAnswer {
                rating: rating_answer(&current, &current, Some(rounds), false),
                puzzle: puzzle_answer(row.glicko.rating, row.plays),
            });
        }
        let new_round = guoxiang_store::NewRound {
            user_id,
            puzzle_id: id,
            win: r.win,
            hints: r.hints,
            at_ms: crate::time::now_ms() as i64,
            new_user: stored(&new_user),
        };
        let rec = self
            .store()
            .record_round(&new_round, |user, puzzle| {
                let (u, p) = rate_round(&glicko(user, 0), &glicko(puzzle, 0), r.win);
                (stored(&u), stored(&p))
            })
            .await?;
        Ok(RoundAnswer {
            rating: rating_answer(
                &glicko(rec.user_before, 0),
                &glicko(rec.user_after, 0),
                Some(rec.user_rounds),
                rec.replay,
            ),
            puzzle: puzzle_answer(rec.puzzle_after.rating, rec.puzzle_plays),
        })
    }

    /// An account's puzzle rating, latest rounds and results per motif.
    pub async fn dashboard(&self, user_id: &str) -> Result<PuzzleDashboard, PuzzleError> {
        let (rating, rounds) = self.account_rating(user_id).await?;
        let history = self
            .store()
            .puzzle_history(user_id, HISTORY)
            .await?
            .into_iter()
            .map(|h| DashboardRound {
                id: h.puzzle_id,
                win: h.win,
                rating_after: h.rating_after.round() as i64,
                at: h.at_ms,
                number: Some(h.number).filter(|&n| n > 0),
            })
            .collect();
        let themes = self
            .store()
            .puzzle_motif_results(user_id, false)
            .await?
            .into_iter()
            .map(|m| DashboardTheme { id: m.motif, solved: m.solved, failed: m.failed })
            .collect();
        Ok(PuzzleDashboard {
            rating: DashboardRating {
                rating: rating.rounded(),
                deviation: rating.deviation.round() as i64,
                provisional: rating.is_provisional(),
                rounds,
            },
            history,
            themes,
        })
    }

    /// The same puzzle for everyone during a UTC day, chosen on the day's first request (a puzzle that has not been
    /// a daily one, near 1800) and kept.
    pub async fn daily(&self) -> Result<PuzzleRow, PuzzleError> {
        self.ensure_puzzles().await?;
        let now = crate::time::now_ms() as i64;
        let day = utc_day(now);
        let id = match self.store().daily_puzzle(&day).await? {
            Some(id) => id,
            None => {
                let mut q = NextQuery {
                    rating: DAILY_RATING,
                    start: rand::random::<f64>() * 2.0 - 1.0,
                    not_daily: true,
                    ..NextQuery::default()
                };
                let pick = match self.store().next_puzzle(&q).await? {
                    Some(p) => p,
                    None => {
                        q.not_daily = false;
                        self.store().next_puzzle(&q).await?.ok_or_else(no_puzzle)?
                    }
                };
                self.store().choose_daily_puzzle(&day, &pick.id, now).await?
            }
        };
        self.store().puzzle(&id).await?.ok_or_else(|| puzzle_not_found(&id))
    }

    /// A puzzle by id (404 when there is none).
    pub async fn by_id(&self, id: &str) -> Result<PuzzleRow, PuzzleError> {
        self.puzzle(id).await
    }
}

fn rating_answer(before: &Glicko, after: &Glicko, rounds: Option<i64>, replay: bool) -> RoundRating {
    RoundRating {
        before: before.rounded(),
        after: after.rounded(),
        deviation: after.deviation.round() as i64,
        volatility: after.volatility,
        provisional: after.is_provisional(),
        rounds,
        replay,
    }
}

fn puzzle_answer(rating: f64, plays: i64) -> RoundPuzzle {
    RoundPuzzle { rating: rating.round() as i64, plays }
}

/// The UTC date `YYYY-MM-DD` of a time in ms since the Unix epoch.
pub fn utc_day(ms: i64) -> String {
    // Howard Hinnant's civil-from-days.
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_days() {
        assert_eq!(utc_day(0), "1970-01-01");
        assert_eq!(utc_day(951_782_400_000), "2000-02-29");
        assert_eq!(utc_day(1_796_083_199_999), "2026-11-30");
        assert_eq!(utc_day(1_796_083_200_000), "2026-12-01");
        assert_eq!(utc_day(-1), "1969-12-31");
    }

    #[test]
    fn every_difficulty_the_store_keeps_is_one_next_takes() {
        let offsets: Vec<f64> =
            guoxiang_store::PUZZLE_DIFFICULTIES.iter().map(|d| difficulty_offset(d).unwrap()).collect();
        assert_eq!(offsets, vec![-600.0, -300.0, 0.0, 300.0, 600.0]);
        assert!(difficulty_offset("hard").is_err());
    }
}
