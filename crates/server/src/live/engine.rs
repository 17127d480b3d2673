//! The computer opponent's worker pool: searches run on blocking threads, at most `workers` at a time, so the
//! engine never holds up the async server; moves wait in a queue when every worker is busy.

use std::sync::Arc;
use std::time::{Duration, Instant};

use guoxiang_core::Position;
use guoxiang_engine::{Control, Engine, Limits, Silent};
use tokio::sync::Semaphore;

/// One search to run.
#[derive(Clone, Debug)]
pub struct Job {
    pub position: Position,
    /// Hashes of the earlier positions of the game, oldest first.
    pub history: Vec<u64>,
    pub level: u8,
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
    pub increment_ms: Option<u64>,
    pub seed: u64,
}

/// The pool.
#[derive(Clone, Debug)]
pub struct EnginePool {
    permits: Arc<Semaphore>,
    hash_mb: usize,
}

impl EnginePool {
    /// A pool of `workers` search threads, each with a `hash_mb` table per search.
    pub fn new(workers: usize, hash_mb: usize) -> EnginePool {
        EnginePool { permits: Arc::new(Semaphore::new(workers.max(1))), hash_mb: hash_mb.max(1) }
    }

    /// Waits for a free worker (for other searches on the pool, e.g. analysis).
    pub async fn permit(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.permits.clone().acquire_owned().await.ok()
    }

    /// Thinks about `job` and returns the chosen move in UCI (`None` if there is no legal move).
    pub async fn think(&self, job: Job) -> Option<String> {
        let _permit = self.permits.clone().acquire_owned().await.ok()?;
        let hash_mb = self.hash_mb;
        tokio::task::spawn_blocking(move || search(job, hash_mb)).await.ok().flatten()
    }
}

fn search(job: Job, hash_mb: usize) -> Option<String> {
    let mut engine = Engine::new(hash_mb);
    engine.options.level = guoxiang_engine::levels::level(job.level).copied();
    engine.options.seed = job.seed;
    let ms = Duration::from_millis;
    let limits = if job.white_ms.is_some() {
        Limits {
            wtime: job.white_ms.map(ms),
            btime: job.black_ms.map(ms),
            winc: job.increment_ms.map(ms),
            binc: job.increment_ms.map(ms),
            ..Limits::default()
        }
    } else {
        // No clock: think a little, more at the top levels.
        Limits { movetime: Some(ms(if job.level >= 8 { 2_000 } else { 500 })), ..Limits::default() }
    };
    let result = engine.search(&job.position, &job.history, &limits, &Control::default(), &Silent, Instant::now());
    result.best.map(|m| job.position.uci(m))
}
