//! Fault injection for [`Store::write_batch`](crate::Store::write_batch): tests make chosen writes fail, stall or
//! run slowly against the real database, to check that callers never lose or invent data when a commit does not
//! go through.
//!
//! A rule matches a batch when one of its ops has the rule's [`WriteKind`] (or any kind) and, if given, the rule's
//! game. A failing batch runs its ops inside the transaction and is then rolled back, so the database's own
//! rollback is what the test exercises. Without rules (always, outside tests) the cost is one uncontended lock.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::watch;

use crate::WriteOp;

/// What kind of write an op is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WriteKind {
    /// [`WriteOp::InsertGame`].
    InsertGame,
    /// [`WriteOp::AppendMoves`].
    AppendMoves,
    /// [`WriteOp::TruncateMoves`].
    TruncateMoves,
    /// [`WriteOp::UpdateGameState`].
    UpdateGameState,
    /// [`WriteOp::FinishGame`].
    FinishGame,
    /// [`WriteOp::Unrate`].
    Unrate,
    /// [`WriteOp::SetRatingDiffs`].
    SetRatingDiffs,
    /// [`WriteOp::UpsertRating`].
    UpsertRating,
    /// [`WriteOp::SetPoints`].
    SetPoints,
    /// [`WriteOp::Fence`].
    Fence,
    /// [`Store::renew_leases`](crate::Store::renew_leases) (not a batch op: a node's periodic renewal).
    RenewLeases,
}

impl WriteOp {
    /// The op's kind.
    pub fn kind(&self) -> WriteKind {
        match self {
            WriteOp::InsertGame(_) => WriteKind::InsertGame,
            WriteOp::AppendMoves { .. } => WriteKind::AppendMoves,
            WriteOp::TruncateMoves { .. } => WriteKind::TruncateMoves,
            WriteOp::UpdateGameState { .. } => WriteKind::UpdateGameState,
            WriteOp::FinishGame { .. } => WriteKind::FinishGame,
            WriteOp::Unrate { .. } => WriteKind::Unrate,
            WriteOp::SetRatingDiffs { .. } => WriteKind::SetRatingDiffs,
            WriteOp::UpsertRating { .. } => WriteKind::UpsertRating,
            WriteOp::SetPoints { .. } => WriteKind::SetPoints,
            WriteOp::Fence { .. } => WriteKind::Fence,
        }
    }

    /// The game the op writes, if it is about one.
    pub fn game_id(&self) -> Option<&str> {
        match self {
            WriteOp::InsertGame(g) => Some(&g.id),
            WriteOp::AppendMoves { game_id, .. }
            | WriteOp::TruncateMoves { game_id, .. }
            | WriteOp::UpdateGameState { game_id, .. }
            | WriteOp::FinishGame { game_id, .. }
            | WriteOp::Unrate { game_id }
            | WriteOp::SetRatingDiffs { game_id, .. }
            | WriteOp::UpsertRating { game_id, .. }
            | WriteOp::Fence { game_id, .. } => Some(game_id),
            WriteOp::SetPoints { .. } => None,
        }
    }
}

/// What happens to a matching batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The batch's ops run, then the transaction is rolled back and the write fails.
    Fail,
    /// The batch waits this long inside its transaction, then commits (a slow disk or a loaded server).
    Delay(Duration),
    /// The batch waits before it starts until [`Faults::release`] (a stalled database), then commits.
    Hold,
}

/// Which batches a rule applies to, and how often.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultRule {
    /// Only batches with an op of this kind (any batch if `None`).
    pub kind: Option<WriteKind>,
    /// Only batches with an op on this game (any game if `None`).
    pub game_id: Option<String>,
    /// The fault.
    pub fault: Fault,
    /// How many more batches the rule applies to (`None`: until it is cleared).
    pub times: Option<u32>,
}

impl FaultRule {
    /// A rule for every batch that has an op of `kind`, until cleared.
    pub fn on(kind: WriteKind, fault: Fault) -> FaultRule {
        FaultRule { kind: Some(kind), game_id: None, fault, times: None }
    }

    /// A rule for every batch, until cleared.
    pub fn always(fault: Fault) -> FaultRule {
        FaultRule { kind: None, game_id: None, fault, times: None }
    }

    /// Limits the rule to batches writing `game_id`.
    pub fn for_game(mut self, game_id: &str) -> FaultRule {
        self.game_id = Some(game_id.to_owned());
        self
    }

    /// Limits the rule to the next `n` matching batches.
    pub fn times(mut self, n: u32) -> FaultRule {
        self.times = Some(n);
        self
    }

    fn matches(&self, ops: &[WriteOp]) -> bool {
        ops.iter().any(|op| self.matches_one(op.kind(), op.game_id()))
    }

    fn matches_one(&self, kind: WriteKind, game_id: Option<&str>) -> bool {
        self.kind.is_none_or(|k| kind == k) && self.game_id.as_deref().is_none_or(|g| game_id == Some(g))
    }
}

/// What the matching rules do to one batch.
#[derive(Clone, Debug)]
pub(crate) struct Effect {
    /// Roll back and fail after the ops ran.
    pub fail: bool,
    /// Wait this long inside the transaction.
    pub delay: Duration,
    /// Wait for [`Faults::release`] before starting.
    pub hold: Option<watch::Receiver<u64>>,
}

/// The fault rules of one store (shared by its clones).
#[derive(Debug)]
pub struct Faults {
    rules: Mutex<Vec<FaultRule>>,
    /// Counts releases; a held batch waits for the next one.
    released: watch::Sender<u64>,
    /// How many batches failed by injection (for tests to check that the fault was hit).
    failed: AtomicU64,
    /// How many batches are held now.
    holding: AtomicU64,
}

impl Default for Faults {
    fn default() -> Self {
        Faults {
            rules: Mutex::new(Vec::new()),
            released: watch::channel(0).0,
            failed: AtomicU64::new(0),
            holding: AtomicU64::new(0),
        }
    }
}

impl Faults {
    /// Adds a rule. Every matching rule applies to a batch: it fails if one says [`Fault::Fail`], waits for the
    /// sum of the delays, and is held if one says [`Fault::Hold`].
    pub fn add(&self, rule: FaultRule) {
        self.rules.lock().unwrap_or_else(|e| e.into_inner()).push(rule);
    }

    /// Removes every rule (held batches stay held until [`Faults::release`]).
    pub fn clear(&self) {
        self.rules.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// Lets every held batch go on.
    pub fn release(&self) {
        self.released.send_modify(|n| *n += 1);
    }

    /// How many batches an injected [`Fault::Fail`] has failed so far.
    pub fn failed(&self) -> u64 {
        self.failed.load(Ordering::SeqCst)
    }

    /// How many batches are held now, waiting for [`Faults::release`].
    pub fn holding(&self) -> u64 {
        self.holding.load(Ordering::SeqCst)
    }

    /// What the rules do to this batch (and counts it against them).
    pub(crate) fn take(&self, ops: &[WriteOp]) -> Option<Effect> {
        self.take_where(|r| r.matches(ops))
    }

    /// What the rules do to one write that is not a batch (e.g. [`WriteKind::RenewLeases`]).
    pub(crate) fn take_kind(&self, kind: WriteKind, game_id: Option<&str>) -> Option<Effect> {
        self.take_where(|r| r.matches_one(kind, game_id))
    }

    fn take_where(&self, matches: impl Fn(&FaultRule) -> bool) -> Option<Effect> {
        let mut rules = self.rules.lock().unwrap_or_else(|e| e.into_inner());
        if rules.is_empty() {
            return None;
        }
        let mut effect = Effect { fail: false, delay: Duration::ZERO, hold: None };
        let mut any = false;
        rules.retain_mut(|r| {
            if !matches(r) {
                return true;
            }
            any = true;
            match r.fault {
                Fault::Fail => effect.fail = true,
                Fault::Delay(d) => effect.delay += d,
                Fault::Hold => effect.hold = Some(self.released.subscribe()),
            }
            match r.times.as_mut() {
                Some(n) => {
                    *n = n.saturating_sub(1);
                    *n > 0
                }
                None => true,
            }
        });
        if effect.fail {
            self.failed.fetch_add(1, Ordering::SeqCst);
        }
        any.then_some(effect)
    }

    /// Waits for the next [`Faults::release`], counted in [`Faults::holding`].
    pub(crate) async fn hold(&self, mut released: watch::Receiver<u64>) {
        self.holding.fetch_add(1, Ordering::SeqCst);
        let _ = released.changed().await;
        self.holding.fetch_sub(1, Ordering::SeqCst);
    }
}
