// SPDX-License-Identifier: GPL-3.0-or-later
//! The analysis pool: searches that no live game waits for (the analysis board, game reviews), with workers of their
//! own, a bounded queue and a bound per user.

use std::sync::Arc;

use guoxiang_engine::Control;
use tokio::sync::Semaphore;

/// Why an analysis was not admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// The user already has as many analyses waiting as allowed.
    User,
    /// Every worker is busy and the queue is full.
    Queue,
}

/// Analyses one user may have waiting (behind their running ones); more are refused.
const WAITING_PER_USER: usize = 8;

/// Searches that no live game waits for (the analysis board, game reviews). They have their own workers, so they
/// never take a worker from a computer opponent, whose moves always come first; a bounded queue in front of them;
/// and at most `per_user` running for one user. A user's newer analysis asks their oldest running one to stop (it
/// answers with what it has found so far): someone stepping through a game wants the position now on the board.
#[derive(Clone, Debug)]
pub struct AnalysisPool {
    permits: Arc<Semaphore>,
    workers: usize,
    queue: usize,
    per_user: usize,
    queued: Arc<std::sync::atomic::AtomicUsize>,
    users: Arc<std::sync::Mutex<std::collections::HashMap<String, UserAnalyses>>>,
    next: Arc<std::sync::atomic::AtomicU64>,
}

#[derive(Debug)]
struct UserAnalyses {
    /// The searches holding one of the user's slots (running, or waiting for a worker), oldest first.
    running: std::collections::VecDeque<(u64, Arc<std::sync::atomic::AtomicBool>)>,
    waiting: usize,
    slots: Arc<Semaphore>,
}

/// An admitted analysis: search with `control`; holds its worker and the user's slot until dropped.
#[derive(Debug)]
pub struct AnalysisTicket {
    pub control: Control,
    _permit: tokio::sync::OwnedSemaphorePermit,
    _slot: tokio::sync::OwnedSemaphorePermit,
    _running: Running,
}

#[derive(Debug)]
struct Running {
    users: Arc<std::sync::Mutex<std::collections::HashMap<String, UserAnalyses>>>,
    user_id: String,
    id: u64,
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut users = self.users.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(u) = users.get_mut(&self.user_id) {
            u.running.retain(|(id, _)| *id != self.id);
            if u.running.is_empty() && u.waiting == 0 {
                users.remove(&self.user_id);
            }
        }
    }
}

/// Counts a waiter while it waits (in the user's line, then in the pool's queue).
struct Waiting<F: FnMut()>(F);

impl<F: FnMut()> Drop for Waiting<F> {
    fn drop(&mut self) {
        (self.0)();
    }
}

impl AnalysisPool {
    /// `workers` search threads, at most `queue` waiting for one, at most `per_user` running per user.
    pub fn new(workers: usize, queue: usize, per_user: usize) -> AnalysisPool {
        AnalysisPool {
            permits: Arc::new(Semaphore::new(workers.max(1))),
            workers: workers.max(1),
            queue,
            per_user: per_user.max(1),
            queued: Default::default(),
            users: Default::default(),
            next: Default::default(),
        }
    }

    /// Its search threads.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Analyses waiting for a worker now (a long search may give its worker up when some are).
    pub fn waiting(&self) -> usize {
        self.queued.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Admits an analysis for `user_id`: waits for the user's slot (stopping their oldest running search if all
    /// are taken) and for a worker if the queue has room; refuses at once otherwise.
    pub async fn admit(&self, user_id: &str) -> Result<AnalysisTicket, Busy> {
        use std::sync::atomic::Ordering;
        let slots = {
            let mut users = self.users.lock().unwrap_or_else(|e| e.into_inner());
            let u = users.entry(user_id.to_owned()).or_insert_with(|| UserAnalyses {
                running: Default::default(),
                waiting: 0,
                slots: Arc::new(Semaphore::new(self.per_user)),
            });
            if u.waiting >= WAITING_PER_USER {
                return Err(Busy::User);
            }
            u.waiting += 1;
            if u.running.len() >= self.per_user
                && let Some((_, stop)) = u.running.iter().find(|(_, s)| !s.load(Ordering::SeqCst))
            {
                stop.store(true, Ordering::SeqCst);
            }
            u.slots.clone()
        };
        let users = self.users.clone();
        let uid = user_id.to_owned();
        let mut waiting_user = Some(Waiting(move || {
            let mut users = users.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(u) = users.get_mut(&uid) {
                u.waiting -= 1;
                if u.running.is_empty() && u.waiting == 0 {
                    users.remove(&uid);
                }
            }
        }));
        let slot = slots.acquire_owned().await.map_err(|_| Busy::User)?;
        // Holding one of the user's slots: counted as running from here (a newer analysis may ask it to stop
        // while it still waits for a worker).
        let control = Control::default();
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        if let Some(u) = self.users.lock().unwrap_or_else(|e| e.into_inner()).get_mut(user_id) {
            u.running.push_back((id, control.stop.clone()));
        }
        let running = Running { users: self.users.clone(), user_id: user_id.to_owned(), id };
        drop(waiting_user.take());
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(p) => p,
            Err(_) => {
                if self.queued.fetch_add(1, Ordering::SeqCst) >= self.queue {
                    self.queued.fetch_sub(1, Ordering::SeqCst);
                    return Err(Busy::Queue);
                }
                let queued = self.queued.clone();
                let _in_queue = Waiting(move || {
                    queued.fetch_sub(1, Ordering::SeqCst);
                });
                self.permits.clone().acquire_owned().await.map_err(|_| Busy::Queue)?
            }
        };
        Ok(AnalysisTicket { control, _permit: permit, _slot: slot, _running: running })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[tokio::test]
    async fn a_newer_analysis_stops_the_oldest_and_the_queue_is_bounded() {
        let pool = AnalysisPool::new(1, 1, 1);
        let first = pool.admit("a").await.unwrap();
        // The same user again: the first is asked to stop, and the second waits for the user's slot.
        let p = pool.clone();
        let second = tokio::spawn(async move { p.admit("a").await.map(|t| t.control.stop.load(Ordering::SeqCst)) });
        while !first.control.stop.load(Ordering::SeqCst) {
            tokio::task::yield_now().await;
        }
        // Another user waits in the queue (one place) once the worker is taken…
        drop(first);
        assert_eq!(second.await.unwrap(), Ok(false), "the newer search runs, not stopped");
        let running = pool.admit("b").await.unwrap();
        let p = pool.clone();
        let waiting = tokio::spawn(async move { p.admit("c").await.map(|_| ()) });
        while pool.queued.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
        // …and a third finds the queue full.
        assert_eq!(pool.admit("d").await.unwrap_err(), Busy::Queue);
        drop(running);
        assert!(waiting.await.unwrap().is_ok());
        // Everything was released.
        drop(pool.admit("a").await.unwrap());
        assert!(pool.users.lock().unwrap().is_empty(), "{:?}", pool.users.lock().unwrap());
        assert_eq!(pool.queued.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn one_user_cannot_queue_without_bound() {
        let pool = AnalysisPool::new(1, 100, 1);
        let _running = pool.admit("a").await.unwrap();
        let mut waiters = Vec::new();
        for _ in 0..WAITING_PER_USER {
            let p = pool.clone();
            waiters.push(tokio::spawn(async move { p.admit("a").await.map(|_| ()) }));
        }
        loop {
            let w = pool.users.lock().unwrap().get("a").map_or(0, |u| u.waiting);
            if w == WAITING_PER_USER {
                break;
            }
            tokio::task::yield_now().await;
        }
        assert_eq!(pool.admit("a").await.unwrap_err(), Busy::User);
        for w in waiters {
            w.abort();
        }
    }
}
