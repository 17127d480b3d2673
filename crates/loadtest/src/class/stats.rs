//! The class scenario's figures: a latency histogram per kind of request, the work the students got done, the time
//! from each game's end to its review being ready, and the errors.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use hdrhistogram::Histogram;

use crate::stats::{Percentiles, Stats, new_histogram, percentiles, record};

/// The kinds of request a student makes, each timed from sending it to its answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RequestKind {
    /// `POST /api/login` with the card's user name and password.
    Login,
    /// Opening the WebSocket and its `hello`.
    Connect,
    /// `POST /api/learn/try`.
    LearnTry,
    /// `GET /api/puzzle/next`.
    PuzzleNext,
    /// `POST /api/puzzle/{id}/try`.
    PuzzleTry,
    /// `POST /api/puzzle/{id}/round`.
    PuzzleRound,
    /// `play_computer` until `game_started`.
    GameStart,
    /// A move of the student's until its `ack`.
    Move,
    /// `POST /api/game/{id}/review`.
    ReviewRequest,
    /// `GET /api/game/{id}/review`.
    ReviewPoll,
}

impl RequestKind {
    pub const ALL: [RequestKind; 10] = [
        RequestKind::Login,
        RequestKind::Connect,
        RequestKind::LearnTry,
        RequestKind::PuzzleNext,
        RequestKind::PuzzleTry,
        RequestKind::PuzzleRound,
        RequestKind::GameStart,
        RequestKind::Move,
        RequestKind::ReviewRequest,
        RequestKind::ReviewPoll,
    ];

    /// The name in the report and its JSON.
    pub fn name(self) -> &'static str {
        match self {
            RequestKind::Login => "login",
            RequestKind::Connect => "ws_connect",
            RequestKind::LearnTry => "learn_try",
            RequestKind::PuzzleNext => "puzzle_next",
            RequestKind::PuzzleTry => "puzzle_try",
            RequestKind::PuzzleRound => "puzzle_round",
            RequestKind::GameStart => "game_start",
            RequestKind::Move => "move",
            RequestKind::ReviewRequest => "review_request",
            RequestKind::ReviewPoll => "review_poll",
        }
    }

    fn index(self) -> usize {
        RequestKind::ALL.iter().position(|k| *k == self).expect("every kind is in ALL")
    }
}

/// Counts of the work done, one per field of [`Counts`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Count {
    LoggedIn,
    TriesAccepted,
    TriesWrong,
    StepsDone,
    PuzzlesSolved,
    PuzzleTriesWrong,
    GamesStarted,
    GamesFinished,
    ReviewsReady,
    StudentsDone,
    StudentsComplete,
}

const COUNTS: usize = 11;

/// What the students got done, over the run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Students whose login succeeded.
    pub logged_in: u64,
    /// Lesson tries the server accepted (`ok`), and wrong ones it refused as it should.
    pub tries_accepted: u64,
    pub tries_wrong: u64,
    /// Lesson steps completed (`done`).
    pub steps_done: u64,
    /// Puzzles the judge saw solved, and wrong moves it refused.
    pub puzzles_solved: u64,
    pub puzzle_tries_wrong: u64,
    /// Games against the computer started and played to their end.
    pub games_started: u64,
    pub games_finished: u64,
    /// Reviews of those games found ready.
    pub reviews_ready: u64,
    /// Students who finished their work, and those who did all of it: logged in, a lesson try accepted, a puzzle
    /// solved, every game finished and its review ready.
    pub students_done: u64,
    pub students_complete: u64,
}

/// State shared by the students and the coordinator.
#[derive(Debug)]
pub(crate) struct ClassStats {
    latencies: Mutex<Vec<Histogram<u64>>>,
    review_delays: Mutex<Histogram<u64>>,
    counts: [AtomicU64; COUNTS],
    /// Errors and their samples (the games scenario's counter, its other figures unused here).
    pub errors: Stats,
}

impl ClassStats {
    pub fn new() -> ClassStats {
        ClassStats {
            latencies: Mutex::new(RequestKind::ALL.iter().map(|_| new_histogram()).collect()),
            review_delays: Mutex::new(new_histogram()),
            counts: std::array::from_fn(|_| AtomicU64::new(0)),
            errors: Stats::new(),
        }
    }

    pub fn record(&self, kind: RequestKind, latency: Duration) {
        let mut l = self.latencies.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        record(&mut l[kind.index()], latency);
    }

    /// A review was found ready this long after its game ended.
    pub fn review_ready(&self, delay: Duration) {
        record(&mut self.review_delays.lock().unwrap_or_else(std::sync::PoisonError::into_inner), delay);
        self.add(Count::ReviewsReady);
    }

    pub fn add(&self, c: Count) {
        self.counts[c as usize].fetch_add(1, Ordering::Relaxed);
    }

    pub fn get(&self, c: Count) -> u64 {
        self.counts[c as usize].load(Ordering::Relaxed)
    }

    pub fn error(&self, message: impl Into<String>) {
        self.errors.error(message);
    }

    /// The figures of one kind: count and percentiles.
    pub fn of(&self, kind: RequestKind) -> (u64, Percentiles) {
        let l = self.latencies.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let h = &l[kind.index()];
        (h.len(), percentiles(h))
    }

    pub fn review_delays(&self) -> Percentiles {
        percentiles(&self.review_delays.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    pub fn counts(&self) -> Counts {
        use Count::*;
        Counts {
            logged_in: self.get(LoggedIn),
            tries_accepted: self.get(TriesAccepted),
            tries_wrong: self.get(TriesWrong),
            steps_done: self.get(StepsDone),
            puzzles_solved: self.get(PuzzlesSolved),
            puzzle_tries_wrong: self.get(PuzzleTriesWrong),
            games_started: self.get(GamesStarted),
            games_finished: self.get(GamesFinished),
            reviews_ready: self.get(ReviewsReady),
            students_done: self.get(StudentsDone),
            students_complete: self.get(StudentsComplete),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_counts_are_kept_apart() {
        let s = ClassStats::new();
        s.record(RequestKind::Move, Duration::from_millis(3));
        s.record(RequestKind::Move, Duration::from_millis(5));
        s.record(RequestKind::Login, Duration::from_millis(200));
        let (n, p) = s.of(RequestKind::Move);
        assert_eq!(n, 2);
        assert!(p.max < Duration::from_millis(6), "{p:?}");
        assert_eq!(s.of(RequestKind::LearnTry).0, 0);
        s.add(Count::PuzzlesSolved);
        s.review_ready(Duration::from_secs(4));
        let c = s.counts();
        assert_eq!((c.puzzles_solved, c.reviews_ready, c.games_finished), (1, 1, 0));
        assert!(s.review_delays().max >= Duration::from_secs(4));
        let names: std::collections::HashSet<_> = RequestKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names.len(), RequestKind::ALL.len());
    }
}
