//! The class scenario (issue 43): a teacher and N students on one server, as a school lesson would bring them.
//!
//! One teacher account is registered (`POST /api/register`: one signup per run, well inside `--signup-limit`),
//! creates a class (`POST /api/class`) and makes the students' accounts (`POST /api/class/{id}/students`: the
//! login cards). Each student then, from a random start within [`STAGGER`]:
//!
//! 1. logs in with its card (`POST /api/login`);
//! 2. does three kinds of work, in an order of its own: lesson steps (`POST /api/learn/try`, the tries planned with
//!    the course's own judge, now and then a wrong one first — [`lessons`]), puzzles of the trainer (`GET
//!    /api/puzzle/next`, the solution's moves judged one by one by `POST /api/puzzle/{id}/try`, now and then a wrong
//!    move first, then `POST /api/puzzle/{id}/round`), and games against the computer at level 1–3 over the
//!    WebSocket (`play_computer`, random legal moves, resigning at [`computer::PLY_CAP`] plies — [`computer`]);
//! 3. when a game ends asks for its review (`POST /api/game/{id}/review`; games against the computer are queued by
//!    themselves) and polls `GET /api/game/{id}/review` once a second until it is done, measuring the time from the
//!    game's end ([`review`]); a student's work is over when every review is ready or [`ClassOptions::review_timeout`]
//!    has passed.
//!
//! Between two tries, two moves, two puzzles the student thinks like a person: 2 to 8 seconds
//! ([`THINK_MIN`], [`THINK_MAX`]), times [`ClassOptions::think_scale`], drawn from an RNG seeded with
//! [`ClassOptions::seed`] and the student's number. Every request is timed by kind ([`RequestKind`]).

pub(crate) mod computer;
pub(crate) mod lessons;
mod report;
pub(crate) mod review;
mod setup;
mod stats;
mod student;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rand::Rng;
use tokio::task::JoinSet;
use tokio::time::Instant;

pub use report::{ClassReport, KindFigures};
pub use stats::{Counts, RequestKind};

use crate::LoadtestError;
use crate::http::{BaseUrl, Response, call};
use crate::stats::fmt_latency;
use lessons::StepPlan;
use stats::{ClassStats, Count};

/// The shortest and the longest think time at scale 1.
pub const THINK_MIN: Duration = Duration::from_secs(2);
pub const THINK_MAX: Duration = Duration::from_secs(8);

/// The students log in within this (times the think scale) from the start: a class sitting down.
pub const STAGGER: Duration = Duration::from_secs(10);

/// How long an HTTP answer may take.
const HTTP_TIMEOUT: Duration = Duration::from_secs(30);

const PROGRESS_TEMPLATE: &str = "{spinner} class [{bar:30}] {pos}/{len} students done {msg}";

/// What the class does.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassOptions {
    /// The server, `http://HOST:PORT`.
    pub base_url: String,
    /// Students in the class (at most 600: ten card sheets of 60); default 30.
    pub students: usize,
    /// Lesson steps each student completes; default 10.
    pub lesson_steps: usize,
    /// Puzzles each student solves; default 3.
    pub puzzles: usize,
    /// Games against the computer each student plays to the end; default 1.
    pub games: usize,
    /// Think times are multiplied by this (a test runs at 0.01); default 1.
    pub think_scale: f64,
    /// The seed of the students' random choices (think times, wrong tries, moves); default 43.
    pub seed: u64,
    /// How long after a game's end its review may take before it counts as not ready; default 300 s.
    pub review_timeout: Duration,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

impl Default for ClassOptions {
    fn default() -> ClassOptions {
        ClassOptions {
            base_url: "http://127.0.0.1:8080".to_owned(),
            students: 30,
            lesson_steps: 10,
            puzzles: 3,
            games: 1,
            think_scale: 1.0,
            seed: 43,
            review_timeout: Duration::from_secs(300),
            progress: false,
        }
    }
}

/// What every student needs.
#[derive(Debug)]
pub(crate) struct ClassCtx {
    pub addr: SocketAddr,
    pub base: BaseUrl,
    pub opts: ClassOptions,
    pub plans: Vec<StepPlan>,
    pub stats: ClassStats,
}

impl ClassCtx {
    /// A person's pause: uniform between [`THINK_MIN`] and [`THINK_MAX`], scaled.
    pub fn think_time(&self, rng: &mut impl Rng) -> Duration {
        let secs = rng.random_range(THINK_MIN.as_secs_f64()..THINK_MAX.as_secs_f64());
        Duration::from_secs_f64(secs * self.opts.think_scale)
    }

    pub async fn think(&self, rng: &mut impl Rng) {
        tokio::time::sleep(self.think_time(rng)).await;
    }

    /// An API request, timed as `kind` when it is answered 2xx; any other answer is an error naming the request.
    pub async fn api(
        &self,
        kind: Option<RequestKind>,
        method: &str,
        path: &str,
        session: Option<&str>,
        body: Option<&serde_json::Value>,
    ) -> Result<Response, String> {
        let sent = Instant::now();
        let r = call(self.addr, &self.base, method, path, session, body, HTTP_TIMEOUT).await?;
        if !(200..300).contains(&r.status) {
            return Err(r.refused(&format!("{method} {}", path.split('?').next().unwrap_or(path))));
        }
        if let Some(kind) = kind {
            self.stats.record(kind, sent.elapsed());
        }
        Ok(r)
    }
}

fn check(opts: &ClassOptions) -> Result<(), LoadtestError> {
    let invalid = |s: &str| Err(LoadtestError::InvalidOptions(s.to_owned()));
    if !(1..=600).contains(&opts.students) {
        return invalid("students must be from 1 to 600");
    }
    if !(opts.think_scale.is_finite() && opts.think_scale >= 0.0) {
        return invalid("the think scale must be a number ≥ 0");
    }
    if opts.review_timeout.is_zero() {
        return invalid("the review timeout must be positive");
    }
    Ok(())
}

/// Runs a class: the teacher's set-up, then every student's work to its end; reports.
pub async fn run_class(opts: ClassOptions) -> Result<ClassReport, LoadtestError> {
    check(&opts)?;
    let base = BaseUrl::parse(&opts.base_url).map_err(LoadtestError::InvalidOptions)?;
    let url = opts.base_url.trim().trim_end_matches('/').to_owned();
    let addr =
        crate::reachable_address(&base).await.map_err(|reason| LoadtestError::Connect { url: url.clone(), reason })?;
    let plans = tokio::task::spawn_blocking(|| lessons::course_plans(&guoxiang_learn::Course::embedded().course))
        .await
        .map_err(|e| LoadtestError::InvalidOptions(format!("planning the lessons: {e}")))?;
    if plans.is_empty() && opts.lesson_steps > 0 {
        return Err(LoadtestError::InvalidOptions("the embedded course has no step to plan".to_owned()));
    }
    let start = Instant::now();
    let ctx = Arc::new(ClassCtx { addr, base, opts, plans, stats: ClassStats::new() });
    let cards = setup::class_with_students(&ctx).await.map_err(|reason| LoadtestError::Setup { url, reason })?;
    let mut tasks = JoinSet::new();
    for (i, card) in cards.into_iter().enumerate() {
        tasks.spawn(student::run(Arc::clone(&ctx), card, i as u64));
    }
    let bar = crate::progress_bar(ctx.opts.progress, ctx.opts.students as u64, PROGRESS_TEMPLATE);
    bar.enable_steady_tick(Duration::from_millis(200));
    loop {
        tokio::select! {
            joined = tasks.join_next() => match joined {
                None => break,
                Some(Err(e)) => ctx.stats.error(format!("a student's task failed: {e}")),
                Some(Ok(())) => {}
            },
            () = tokio::time::sleep(Duration::from_millis(250)) => {}
        }
        show(&bar, &ctx.stats);
    }
    bar.finish_and_clear();
    Ok(report(&ctx, start.elapsed()))
}

fn show(bar: &indicatif::ProgressBar, s: &ClassStats) {
    let c = s.counts();
    bar.set_position(c.students_done);
    let (_, moves) = s.of(RequestKind::Move);
    let (_, tries) = s.of(RequestKind::LearnTry);
    bar.set_message(format!(
        "({} logged in, {} tries p99 {}, {} puzzles, games {}/{} p99 {}, reviews {}/{}, {} errors)",
        c.logged_in,
        c.tries_accepted + c.tries_wrong,
        fmt_latency(tries.p99),
        c.puzzles_solved,
        c.games_finished,
        c.games_started,
        fmt_latency(moves.p99),
        c.reviews_ready,
        c.games_finished,
        s.errors.errors()
    ));
}

fn report(ctx: &ClassCtx, elapsed: Duration) -> ClassReport {
    let s = &ctx.stats;
    let requests = RequestKind::ALL
        .iter()
        .map(|&k| {
            let (count, p) = s.of(k);
            KindFigures { kind: k.name(), count, p50: p.p50, p95: p.p95, p99: p.p99, max: p.max }
        })
        .collect();
    let counts = s.counts();
    let delays = s.review_delays();
    ClassReport {
        students: ctx.opts.students,
        elapsed,
        requests,
        reviews_not_ready: counts.games_finished.saturating_sub(counts.reviews_ready),
        counts,
        review_p50: delays.p50,
        review_p95: delays.p95,
        review_max: delays.max,
        errors: s.errors.errors(),
        error_samples: s.errors.error_samples(),
    }
}

/// Counts a student's work as all done.
pub(crate) fn student_done(ctx: &ClassCtx, complete: bool) {
    ctx.stats.add(Count::StudentsDone);
    if complete {
        ctx.stats.add(Count::StudentsComplete);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn invalid_options_are_refused() {
        let e = |o: ClassOptions| async move { run_class(o).await.unwrap_err().to_string() };
        assert!(e(ClassOptions { students: 0, ..Default::default() }).await.contains("students must be from 1"));
        assert!(e(ClassOptions { think_scale: -1.0, ..Default::default() }).await.contains("think scale"));
        assert!(e(ClassOptions { base_url: "ftp://x".into(), ..Default::default() }).await.contains("expected a base"));
    }

    #[test]
    fn think_times_are_a_persons_scaled() {
        use rand::SeedableRng;
        let ctx = |scale| ClassCtx {
            addr: "127.0.0.1:1".parse().unwrap(),
            base: BaseUrl::parse("http://127.0.0.1:1").unwrap(),
            opts: ClassOptions { think_scale: scale, ..Default::default() },
            plans: vec![],
            stats: ClassStats::new(),
        };
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let c = ctx(1.0);
        assert!((0..100).map(|_| c.think_time(&mut rng)).all(|t| (THINK_MIN..THINK_MAX).contains(&t)));
        let c = ctx(0.01);
        assert!((0..100).map(|_| c.think_time(&mut rng)).all(|t| t < Duration::from_millis(80)));
    }

    #[test]
    fn the_progress_template_is_valid() {
        let bar = crate::progress_bar(true, 3, PROGRESS_TEMPLATE);
        show(&bar, &ClassStats::new());
        bar.finish_and_clear();
    }
}
