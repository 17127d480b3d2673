//! Group commit: every live game hands its writes to one writer task, which commits whatever has queued up as one
//! transaction and then answers each sender. A game acknowledges a move only after its write is answered, so an
//! acknowledged move survives a crash; under load, many games share each commit, and a commit waits a moment for more
//! ([`LINGER`]).

use guoxiang_store::{Store, StoreError, WriteOp};

use crate::metrics::SharedMetrics;
use tokio::sync::{mpsc, oneshot};

type Job = (Vec<WriteOp>, oneshot::Sender<Result<(), WriteError>>);

/// Why a write was not committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// The game's fence failed: another node owns the game now (in a cluster). Nothing was written, and this node
    /// must stop its actor.
    Fenced(String),
    /// Anything else (the database, the writer): nothing was written; the same write may succeed later.
    Failed(String),
}

impl WriteError {
    pub fn is_fenced(&self) -> bool {
        matches!(self, WriteError::Fenced(_))
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Fenced(m) | WriteError::Failed(m) => f.write_str(m),
        }
    }
}

impl From<StoreError> for WriteError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Fenced(m) => WriteError::Fenced(m),
            e => WriteError::Failed(e.to_string()),
        }
    }
}

/// The handle games write through. Cloning is cheap.
#[derive(Clone, Debug)]
pub struct Persist {
    tx: mpsc::Sender<Job>,
}

/// At most this many queued jobs go into one transaction.
const MAX_JOBS_PER_COMMIT: usize = 512;

/// Under load (the last commit was shared by several jobs), a commit waits up to [`LINGER`] for [`LINGER_JOBS`] jobs
/// before it starts. Each commit has a cost of its own whatever it holds (the fsync, the pages every commit rewrites,
/// the statements, the hand-offs to the database's thread), so fewer, larger commits cost less CPU per move: with
/// 5,000 live games, about 8 jobs a commit without waiting, and 15–20 % less server CPU per move with it
/// (docs/benchmarks.md). A lone move on a quiet server is committed at once.
const LINGER: std::time::Duration = std::time::Duration::from_millis(2);
/// See [`LINGER`].
const LINGER_JOBS: usize = 32;

/// Adds to `jobs` what has queued, up to [`MAX_JOBS_PER_COMMIT`]; when `busy`, waits up to [`LINGER`] for
/// [`LINGER_JOBS`].
async fn gather(rx: &mut mpsc::Receiver<Job>, jobs: &mut Vec<Job>, busy: bool) {
    while jobs.len() < MAX_JOBS_PER_COMMIT {
        match rx.try_recv() {
            Ok(j) => jobs.push(j),
            Err(_) => break,
        }
    }
    if busy && jobs.len() < LINGER_JOBS {
        let deadline = tokio::time::Instant::now() + LINGER;
        while jobs.len() < LINGER_JOBS {
            match tokio::time::timeout_at(deadline, rx.recv()).await {
                Ok(Some(j)) => jobs.push(j),
                _ => break,
            }
        }
    }
}

impl Persist {
    /// Starts the writer task; it counts into `metrics`.
    pub fn start(store: Store, metrics: SharedMetrics) -> Persist {
        let (tx, mut rx) = mpsc::channel::<Job>(8192);
        let write = move |ops: Vec<WriteOp>, jobs: u64| {
            let (store, metrics) = (store.clone(), metrics.clone());
            async move {
                let started = std::time::Instant::now();
                let result = store.write_batch(&ops).await.map_err(WriteError::from);
                metrics.commit_seconds.observe(started.elapsed().as_secs_f64());
                match &result {
                    Ok(()) => {
                        metrics.commits.inc();
                        metrics.commit_jobs.inc_by(jobs);
                        let moves: usize = ops
                            .iter()
                            .map(|op| if let WriteOp::AppendMoves { moves, .. } = op { moves.len() } else { 0 })
                            .sum();
                        metrics.moves.inc_by(moves as u64);
                    }
                    // A group that failed is tried again job by job: its failures are counted there.
                    Err(_) if jobs > 1 => {}
                    Err(e) => {
                        metrics.commit_failures.inc();
                        if e.is_fenced() {
                            metrics.fenced_writes.inc();
                        }
                    }
                }
                (ops, result)
            }
        };
        tokio::spawn(async move {
            let mut jobs: Vec<Job> = Vec::new();
            // Whether the last commit was shared: the server is under load, so the next one waits a little for more.
            let mut busy = false;
            while let Some(first) = rx.recv().await {
                jobs.push(first);
                gather(&mut rx, &mut jobs, busy).await;
                busy = jobs.len() > 1;
                // A `reply.send` fails only when the writer's caller stopped waiting; the result is logged here.
                if jobs.len() == 1 {
                    let (ops, reply) = jobs.pop().expect("one job");
                    let (ops, result) = write(ops, 1).await;
                    if let Err(e) = &result {
                        tracing::error!("commit of {} writes failed: {e}", ops.len());
                    }
                    let _ = reply.send(result);
                    continue;
                }
                let lens: Vec<usize> = jobs.iter().map(|(ops, _)| ops.len()).collect();
                let ops: Vec<WriteOp> = jobs.iter_mut().flat_map(|(ops, _)| std::mem::take(ops)).collect();
                let (mut ops, result) = write(ops, jobs.len() as u64).await;
                match result {
                    Ok(()) => {
                        for (_, reply) in jobs.drain(..) {
                            let _ = reply.send(Ok(()));
                        }
                    }
                    Err(e) => {
                        // The whole group was rolled back. One game's bad write must not refuse every other game's
                        // move: commit each job alone, so each sender learns the fate of its own writes.
                        tracing::warn!("group commit of {} jobs failed ({e}); committing them one by one", jobs.len());
                        let mut ops = ops.drain(..);
                        for ((_, reply), n) in jobs.drain(..).zip(lens) {
                            let ops: Vec<WriteOp> = ops.by_ref().take(n).collect();
                            let (ops, result) = write(ops, 1).await;
                            if let Err(e) = &result {
                                tracing::error!("commit of {} writes failed: {e}", ops.len());
                            }
                            let _ = reply.send(result);
                        }
                    }
                }
            }
        });
        Persist { tx }
    }

    /// Writes `ops` durably (in one transaction with whatever else is queued); returns once committed.
    pub async fn write(&self, ops: Vec<WriteOp>) -> Result<(), WriteError> {
        if ops.is_empty() {
            return Ok(());
        }
        let stopped = || WriteError::Failed("the database writer has stopped".to_owned());
        let (reply, done) = oneshot::channel();
        self.tx.send((ops, reply)).await.map_err(|_| stopped())?;
        done.await.map_err(|_| stopped())?
    }
}
