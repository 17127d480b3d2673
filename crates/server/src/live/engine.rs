//! The engine's worker pools: searches run on blocking threads, so the engine never holds up the async server.
//! The computer opponents of live games have a pool of their own (their moves wait in a queue when every worker is
//! busy); analysis has another, bounded in queue length and per user, so no amount of analysis can make a computer
//! opponent lose on time.

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

/// Why an analysis was not admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// The user already has as many analyses running or queued as allowed.
    User,
    /// Every worker is busy and the queue is full.
    Queue,
}

/// Searches that no live game waits for (the analysis board, game reviews). They have their own workers, so they
/// never take a worker from a computer opponent, whose moves always come first; a bounded queue in front of them;
/// and at most `per_user` running or queued for one user.
#[derive(Clone, Debug)]
pub struct AnalysisPool {
    permits: Arc<Semaphore>,
    queue: usize,
    per_user: usize,
    queued: Arc<std::sync::atomic::AtomicUsize>,
    users: Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
}

/// An admitted analysis: holds its worker and its place in the user's count until dropped.
#[derive(Debug)]
pub struct AnalysisTicket {
    _permit: tokio::sync::OwnedSemaphorePermit,
    _user: UserSlot,
}

#[derive(Debug)]
struct UserSlot {
    users: Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
    user_id: String,
}

impl Drop for UserSlot {
    fn drop(&mut self) {
        let mut users = self.users.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = users.get_mut(&self.user_id) {
            *n -= 1;
            if *n == 0 {
                users.remove(&self.user_id);
            }
        }
    }
}

/// Counts one waiter while it waits.
struct Waiting<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl AnalysisPool {
    /// `workers` search threads, at most `queue` waiting for one, at most `per_user` per user.
    pub fn new(workers: usize, queue: usize, per_user: usize) -> AnalysisPool {
        AnalysisPool {
            permits: Arc::new(Semaphore::new(workers.max(1))),
            queue,
            per_user: per_user.max(1),
            queued: Default::default(),
            users: Default::default(),
        }
    }

    /// Admits an analysis for `user_id`: waits for a worker if the queue has room, else refuses at once.
    pub async fn admit(&self, user_id: &str) -> Result<AnalysisTicket, Busy> {
        let user = {
            let mut users = self.users.lock().unwrap_or_else(|e| e.into_inner());
            let n = users.entry(user_id.to_owned()).or_insert(0);
            if *n >= self.per_user {
                return Err(Busy::User);
            }
            *n += 1;
            UserSlot { users: self.users.clone(), user_id: user_id.to_owned() }
        };
        if let Ok(permit) = self.permits.clone().try_acquire_owned() {
            return Ok(AnalysisTicket { _permit: permit, _user: user });
        }
        use std::sync::atomic::Ordering;
        if self.queued.fetch_add(1, Ordering::SeqCst) >= self.queue {
            self.queued.fetch_sub(1, Ordering::SeqCst);
            return Err(Busy::Queue);
        }
        let _waiting = Waiting(&self.queued);
        let permit = self.permits.clone().acquire_owned().await.map_err(|_| Busy::Queue)?;
        Ok(AnalysisTicket { _permit: permit, _user: user })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn analyses_are_bounded_per_user_and_in_all() {
        let pool = AnalysisPool::new(1, 1, 1);
        let running = pool.admit("a").await.unwrap();
        // The same user again: refused, whatever the queue.
        assert_eq!(pool.admit("a").await.unwrap_err(), Busy::User);
        // Another user waits in the queue (one place)…
        let p = pool.clone();
        let waiting = tokio::spawn(async move { p.admit("b").await.map(|_| ()) });
        while pool.queued.load(std::sync::atomic::Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
        // …and a third finds the queue full.
        assert_eq!(pool.admit("c").await.unwrap_err(), Busy::Queue);
        drop(running);
        assert!(waiting.await.unwrap().is_ok());
        // Everything was released: a fresh admission for each user works.
        drop(pool.admit("a").await.unwrap());
        drop(pool.admit("c").await.unwrap());
        assert!(pool.users.lock().unwrap().is_empty());
    }
}
