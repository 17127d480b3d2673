//! How a review searches the game's positions: which positions, at which budget, in which order, on which threads.
//!
//! Each judge (an [`Engine`] with its own hash table) searches every position of the game from the last to the first
//! — the *scan* — keeping its table from one search to the next (docs/review.md, "How a move is judged"). With a
//! [`Focus`], the scan runs at a fraction of the budget, and only the positions around the moves where a judge's scan
//! sees a swing are searched again at the full budget, again from the last to the first, by both judges, their
//! tables still holding what the scan found (docs/review.md, "Speed"). The judges run on their own threads when the
//! review may use two; each judge's searches are the same whatever the threads, so the same game and options always
//! give the same review.

use std::any::Any;
use std::sync::mpsc;

use guoxiang_core::Position;
use guoxiang_engine::Engine;

use crate::{Judgement, judge_with};

/// The second pass: which moves the scan hands on to the full budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Focus {
    /// The scan's budget per position, as a fraction of the full one (e.g. 1/6).
    pub scan_divisor: u64,
    /// A move is searched again (the positions before and after it, by both judges) when either judge's scan finds
    /// it loses at least this many points of the mover's expected score.
    pub min_loss: f64,
    /// Positions after the move's own two searched again with them (the game's continuation, searched first: its
    /// findings are in the table when the move's positions are searched).
    pub continuation: usize,
    /// 0: only those positions are searched again. Otherwise the second pass goes over every position from the last
    /// to the first, the others at the full budget divided by this (so each position searched at the full budget
    /// comes after a fuller search of the game's continuation than the scan's).
    pub rest_divisor: u64,
    /// 0: nothing more. Otherwise, after a second pass with a `rest_divisor`, every move either judge now finds losing
    /// at least this many points whose positions were not both searched at the full budget has them searched again
    /// at the full budget (a third pass, from the last to the first): so no move is marked on a cheaper search.
    pub recheck: f64,
}

/// What the caller may hook into the searches.
pub struct Hooks<'a> {
    /// Called on the searching thread before each search; what it returns is dropped when the search is over (the
    /// server holds one of its analysis workers with it).
    pub admit: &'a (dyn Fn() -> Box<dyn Any> + Sync),
    /// `(done, total)` after each search, on the calling thread. `total` may grow once the scan has chosen the
    /// positions to search again.
    pub progress: &'a mut dyn FnMut(usize, usize),
}

impl std::fmt::Debug for Hooks<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Hooks")
    }
}

/// Admits every search at once (no worker to wait for).
pub fn no_admit() -> Box<dyn Any> {
    Box::new(())
}

/// The game as the judges see it.
pub(crate) struct Game<'a> {
    pub positions: &'a [Position],
    pub histories: &'a [Vec<u64>],
}

/// One judge: its engine (and table) and what it has said about each position so far.
pub(crate) struct JudgeRun {
    pub engine: Engine,
    pub judgements: Vec<Option<Judgement>>,
}

/// Searches `jobs` (position indices, in order, each with its node budget) with every judge, each judge's searches in order on one
/// thread (all judges on one thread unless `threads` ≥ 2), storing the judgements. Progress counts from `done`
/// towards `total`; returns the new `done`.
pub(crate) fn run(
    game: &Game<'_>,
    judges: &mut [JudgeRun],
    jobs: &[(usize, u64)],
    threads: usize,
    hooks: &mut Hooks<'_>,
    (mut done, total): (usize, usize),
) -> usize {
    let admit = hooks.admit;
    if threads < 2 {
        // On this thread (a browser's WebAssembly has no threads to spawn): the same searches in the same order.
        for judge in judges.iter_mut() {
            for &(i, nodes) in jobs {
                let ticket = admit();
                let j = judge_with(&judge.engine, &game.positions[i], &game.histories[i], nodes, false);
                drop(ticket);
                judge.judgements[i] = Some(j);
                done += 1;
                (hooks.progress)(done, total);
            }
        }
        return done;
    }
    // Each judge on a thread of its own.
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<()>();
        for judge in judges.iter_mut() {
            let tx = tx.clone();
            s.spawn(move || {
                for &(i, nodes) in jobs {
                    let ticket = admit();
                    let j = judge_with(&judge.engine, &game.positions[i], &game.histories[i], nodes, false);
                    drop(ticket);
                    judge.judgements[i] = Some(j);
                    // The receiver lives until every sender is gone.
                    let _ = tx.send(());
                }
            });
        }
        drop(tx);
        for () in rx {
            done += 1;
            (hooks.progress)(done, total);
        }
    });
    done
}

/// The positions to search again after the scan: before and after each move either judge's scan finds losing at
/// least `min_loss` (and `continuation` positions after), from the last to the first.
pub(crate) fn focus_positions(losses: &[f64], min_loss: f64, continuation: usize) -> Vec<usize> {
    let n = losses.len() + 1;
    let mut wanted = vec![false; n];
    for (i, &l) in losses.iter().enumerate() {
        if l >= min_loss {
            for w in &mut wanted[i..(i + 2 + continuation).min(n)] {
                *w = true;
            }
        }
    }
    (0..n).rev().filter(|&i| wanted[i]).collect()
}
