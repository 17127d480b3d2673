// SPDX-License-Identifier: GPL-3.0-or-later
//! The computer opponents' pool: the searches of live games' computer players, on blocking threads (their moves wait
//! in a queue when every worker is busy).

use std::sync::Arc;
use std::time::{Duration, Instant};

use guoxiang_core::Position;
use guoxiang_engine::{Control, Engine, Limits, Silent};
use tokio::sync::Semaphore;

/// A game's own seed for the computer's choices (FNV-1a of its id): mixed into each move's seed, so that two games
/// that reach the same position at the same move do not get the same reply (level 1 once answered 1.e4 with 1…a6
/// in every game).
pub fn game_seed(game_id: &str) -> u64 {
    game_id.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3))
}

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
    /// Endgame tables for the top level (the weak levels ignore them).
    syzygy: Option<guoxiang_engine::tb::Syzygy>,
}

impl EnginePool {
    /// A pool of `workers` search threads, each with a `hash_mb` table per search.
    pub fn new(workers: usize, hash_mb: usize) -> EnginePool {
        EnginePool { permits: Arc::new(Semaphore::new(workers.max(1))), hash_mb: hash_mb.max(1), syzygy: None }
    }

    /// The same pool with endgame tables for the top level.
    pub fn with_syzygy(self, syzygy: Option<guoxiang_engine::tb::Syzygy>) -> EnginePool {
        EnginePool { syzygy, ..self }
    }

    /// Thinks about `job` and returns the chosen move in UCI (`None` if there is no legal move).
    pub async fn think(&self, job: Job) -> Option<String> {
        let _permit = self.permits.clone().acquire_owned().await.ok()?;
        let hash_mb = self.hash_mb;
        let syzygy = self.syzygy.clone();
        tokio::task::spawn_blocking(move || search(job, hash_mb, syzygy)).await.ok().flatten()
    }
}

fn search(job: Job, hash_mb: usize, syzygy: Option<guoxiang_engine::tb::Syzygy>) -> Option<String> {
    let mut engine = Engine::new(hash_mb);
    engine.options.syzygy = syzygy;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_has_its_own_seed() {
        assert_ne!(game_seed("AbCd1234"), game_seed("AbCd1235"));
        assert_eq!(game_seed("AbCd1234"), game_seed("AbCd1234"));
    }
}
