//! The class scenario's [`ClassReport`]: written for people (`Display`) and as JSON ([`ClassReport::to_json`]).

use core::fmt;
use std::time::Duration;

use serde_json::{Value, json};

use super::stats::Counts;
use crate::stats::{fmt_latency, fmt_secs};

/// One kind of request: how many were answered, and their round trips.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindFigures {
    /// `login`, `learn_try`, `move`, … ([`super::RequestKind::name`]).
    pub kind: &'static str,
    pub count: u64,
    pub p50: Duration,
    pub p95: Duration,
    pub p99: Duration,
    pub max: Duration,
}

/// The outcome of a class run.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassReport {
    /// Students asked for.
    pub students: usize,
    /// From the teacher's signup to the last student's end.
    pub elapsed: Duration,
    /// Every kind of request, in [`super::RequestKind::ALL`] order (kinds with no request included).
    pub requests: Vec<KindFigures>,
    pub counts: Counts,
    /// Games finished whose review was not found ready within the review timeout.
    pub reviews_not_ready: u64,
    /// From a game's end to its review being ready, over the ready ones (polled once a second).
    pub review_p50: Duration,
    pub review_p95: Duration,
    pub review_max: Duration,
    pub errors: u64,
    pub error_samples: Vec<String>,
}

impl ClassReport {
    /// The figures of one kind by name.
    pub fn kind(&self, name: &str) -> Option<&KindFigures> {
        self.requests.iter().find(|k| k.kind == name)
    }

    /// The report as JSON; durations in milliseconds.
    pub fn to_json(&self) -> Value {
        let ms = |d: Duration| (d.as_secs_f64() * 1e6).round() / 1e3;
        let c = &self.counts;
        json!({
            "scenario": "class",
            "students": self.students,
            "elapsed_ms": ms(self.elapsed),
            "requests": self.requests.iter().map(|k| json!({
                "kind": k.kind, "count": k.count,
                "p50_ms": ms(k.p50), "p95_ms": ms(k.p95), "p99_ms": ms(k.p99), "max_ms": ms(k.max),
            })).collect::<Vec<_>>(),
            "counts": {
                "logged_in": c.logged_in, "tries_accepted": c.tries_accepted, "tries_wrong": c.tries_wrong,
                "steps_done": c.steps_done, "puzzles_solved": c.puzzles_solved,
                "puzzle_tries_wrong": c.puzzle_tries_wrong, "games_started": c.games_started,
                "games_finished": c.games_finished, "reviews_ready": c.reviews_ready,
                "students_done": c.students_done, "students_complete": c.students_complete,
            },
            "review_ready": {
                "ready": c.reviews_ready, "not_ready": self.reviews_not_ready,
                "p50_ms": ms(self.review_p50), "p95_ms": ms(self.review_p95), "max_ms": ms(self.review_max),
            },
            "errors": self.errors,
            "error_samples": self.error_samples,
        })
    }
}

impl fmt::Display for ClassReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.counts;
        writeln!(f, "guoxiang load test: a class")?;
        writeln!(
            f,
            "  students:   {} logged in of {}; {} did everything (a lesson try, a puzzle, a game and its review), \
             in {}",
            c.logged_in,
            self.students,
            c.students_complete,
            fmt_secs(self.elapsed)
        )?;
        writeln!(
            f,
            "  work:       {} lesson tries accepted ({} wrong refused), {} steps done; {} puzzles solved ({} wrong \
             moves); {} of {} games against the computer finished",
            c.tries_accepted,
            c.tries_wrong,
            c.steps_done,
            c.puzzles_solved,
            c.puzzle_tries_wrong,
            c.games_finished,
            c.games_started
        )?;
        writeln!(f, "  requests:   kind              count      p50      p95      p99      max")?;
        for k in &self.requests {
            if k.count == 0 {
                writeln!(f, "              {:<16} {:>6}        -        -        -        -", k.kind, 0)?;
                continue;
            }
            writeln!(
                f,
                "              {:<16} {:>6} {:>8} {:>8} {:>8} {:>8}",
                k.kind,
                k.count,
                fmt_latency(k.p50),
                fmt_latency(k.p95),
                fmt_latency(k.p99),
                fmt_latency(k.max)
            )?;
        }
        write!(f, "  reviews:    {} ready, {} not ready", c.reviews_ready, self.reviews_not_ready)?;
        if c.reviews_ready > 0 {
            write!(
                f,
                "; game end → review ready: p50 {}  p95 {}  max {}",
                fmt_secs(self.review_p50),
                fmt_secs(self.review_p95),
                fmt_secs(self.review_max)
            )?;
        }
        writeln!(f)?;
        write!(f, "  errors:     {}", self.errors)?;
        for sample in &self.error_samples {
            write!(f, "\n    - {sample}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ClassReport {
        let k = |kind, count, ms: u64| KindFigures {
            kind,
            count,
            p50: Duration::from_millis(ms),
            p95: Duration::from_millis(2 * ms),
            p99: Duration::from_millis(3 * ms),
            max: Duration::from_millis(4 * ms),
        };
        ClassReport {
            students: 30,
            elapsed: Duration::from_secs(400),
            requests: vec![k("login", 30, 90), k("move", 1200, 2), k("review_poll", 0, 0)],
            counts: Counts {
                logged_in: 30,
                tries_accepted: 500,
                tries_wrong: 40,
                steps_done: 300,
                puzzles_solved: 90,
                puzzle_tries_wrong: 12,
                games_started: 30,
                games_finished: 30,
                reviews_ready: 29,
                students_done: 30,
                students_complete: 29,
            },
            reviews_not_ready: 1,
            review_p50: Duration::from_millis(12_300),
            review_p95: Duration::from_secs(40),
            review_max: Duration::from_secs(55),
            errors: 1,
            error_samples: vec!["review of game g1 not ready 300 s after the game ended".into()],
        }
    }

    #[test]
    fn report_display() {
        let text = sample().to_string();
        assert!(text.contains("30 logged in of 30; 29 did everything"), "{text}");
        assert!(text.contains("              move               1200  2.00 ms  4.00 ms  6.00 ms  8.00 ms\n"), "{text}");
        assert!(text.contains("              review_poll           0        -"), "{text}");
        assert!(text.contains("29 ready, 1 not ready; game end → review ready: p50 12.3 s  p95 40.0 s  max 55.0 s"));
        assert!(text.ends_with("  errors:     1\n    - review of game g1 not ready 300 s after the game ended"));
    }

    #[test]
    fn report_json() {
        let r = sample();
        let j = r.to_json();
        assert_eq!(
            j["requests"][1],
            json!({"kind": "move", "count": 1200, "p50_ms": 2.0, "p95_ms": 4.0, "p99_ms": 6.0, "max_ms": 8.0})
        );
        assert_eq!(j["review_ready"]["not_ready"], 1);
        assert_eq!(j["review_ready"]["max_ms"], 55_000.0);
        assert_eq!(j["counts"]["students_complete"], 29);
        assert_eq!(r.kind("login").map(|k| k.count), Some(30));
    }
}
