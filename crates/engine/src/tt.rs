//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`s: the data word and the key XORed with the data ("lockless hashing"): a torn
//! write by two threads at once makes the check fail, so a probe never returns data that belongs to another
//! position. Entries are grouped in buckets of four (one 64-byte cache line); a store replaces the same position,
//! else the entry that is shallowest and oldest. Mate scores are stored relative to the stored position
//! ([`Score::to_tt`]).

use crate::score::Score;
use guoxiang_core::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (no move raised alpha).
    Upper = 1,
    /// The true value is at least the score (a beta cutoff).
    Lower = 2,
    Exact = 3,
}

/// A probed entry, with the score already converted to the probing node's ply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl TtHit {
    /// The stored score, when its bound settles the window `(alpha, beta)` on its own.
    #[inline]
    pub fn cutoff(&self, alpha: i32, beta: i32) -> Option<i32> {
        match self.bound {
            Bound::Exact => Some(self.score),
            Bound::Lower if self.score >= beta => Some(self.score),
            Bound::Upper if self.score <= alpha => Some(self.score),
            _ => None,
        }
    }
}

#[derive(Debug, Default)]
struct Entry {
    key_xor: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

/// 64 bytes: one cache line when the allocation is aligned (not forced with `repr(align)`: the global allocator then
/// zeroes by hand instead of with calloc's untouched fresh pages).
#[derive(Debug, Default)]
struct Bucket([Entry; BUCKET]);

const _: () = assert!(core::mem::size_of::<Bucket>() == 64);

/// The shared table.
/// The largest table guoxiang accepts on any machine, in mebibytes.
pub const MAX_TABLE_MB: usize = 65_536;

/// The largest table this machine should be given, in mebibytes: half of its physical memory (`MemTotal` in
/// `/proc/meminfo`), at most [`MAX_TABLE_MB`]; [`MAX_TABLE_MB`] where the memory cannot be read.
pub fn max_table_mb() -> usize {
    let total_kb = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        m.lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
    });
    match total_kb {
        Some(kb) => (kb / 1024 / 2).clamp(1, MAX_TABLE_MB),
        None => MAX_TABLE_MB,
    }
}

#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    age: AtomicU8,
}

/// `n` (≥ 1) buckets of zero bytes from the allocator's zeroed allocation (calloc: fresh pages are not touched), or
/// `None` when the memory is not available.
fn zeroed_buckets(n: usize) -> Option<Box<[Bucket]>> {
    let layout = std::alloc::Layout::array::<Bucket>(n).ok()?;
    if layout.size() == 0 {
        return None;
    }
    // SAFETY: the layout has a non-zero size (checked above).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Bucket>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with the layout of `[Bucket; n]`, so a boxed slice of `n` buckets
    // may own it; all-zero bytes are a valid `Bucket` (it holds only `AtomicU64`s, for which zero is 0).
    Some(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)) })
}

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let m = mv.map_or(0, Move::to_u16) as u64;
    let s = (score.clamp(-32_767, 32_767) as i16 as u16) as u64;
    let e = (eval.clamp(-32_767, 32_767) as i16 as u16) as u64;
    let d = depth.clamp(0, 255) as u64;
    let b = bound as u64;
    let a = (age & 63) as u64;
    m | s << 16 | e << 32 | d << 48 | b << 56 | a << 58
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket). When that much memory cannot be had, the size is
    /// halved until it can: see [`TranspositionTable::size_mb`]. The memory is zeroed lazily by the system, so a
    /// large table costs nothing until it is used.
    pub fn new(mb: usize) -> TranspositionTable {
        let mut n = ((mb.clamp(1, 1 << 20) << 20) / core::mem::size_of::<Bucket>()).max(1);
        loop {
            if let Some(buckets) = zeroed_buckets(n) {
                return TranspositionTable { buckets, age: AtomicU8::new(0) };
            }
            if n == 1 {
                // Not even one bucket: the allocator's own out-of-memory handling takes over.
                let buckets = vec![Bucket::default()].into_boxed_slice();
                return TranspositionTable { buckets, age: AtomicU8::new(0) };
            }
            n /= 2;
        }
    }

    /// The size actually allocated, in mebibytes (rounded down).
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * core::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for b in &self.buckets {
            for e in &b.0 {
                e.key_xor.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries from earlier searches become the first to be replaced.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store(a.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the processor to start loading `key`'s bucket: called as soon as a child position's key is known, so
    /// that the child's probe, a little later, waits less for memory (the probes were a quarter of the search's
    /// time). Only a hint: it changes no result.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = core::ptr::from_ref(self.bucket(key)).cast::<i8>();
            // SAFETY: a prefetch reads nothing and faults on no address; `p` points into the table anyway.
            unsafe { core::arch::x86_64::_mm_prefetch(p, core::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`; the score comes back relative to the probing node at `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        for e in &self.bucket(key).0 {
            let data = e.data.load(Ordering::Relaxed);
            if data != 0 && e.key_xor.load(Ordering::Relaxed) ^ data == key {
                let bound = match (data >> 56) & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    3 => Bound::Exact,
                    _ => return None,
                };
                let score = (data >> 16) as u16 as i16 as i32;
                return Some(TtHit {
                    mv: Move::from_u16(data as u16),
                    score: Score(score).from_tt(ply).0,
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: ((data >> 48) & 255) as i32,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result found at `ply` from the root.
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, ply: usize) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut worst = i32::MAX;
        for e in &bucket.0 {
            let data = e.data.load(Ordering::Relaxed);
            if data == 0 || e.key_xor.load(Ordering::Relaxed) ^ data == key {
                victim = e;
                // Same position: keep the old best move when the new result has none, and don't let a shallow
                // bound overwrite a deeper exact result of the same search.
                if data != 0 {
                    let old_depth = ((data >> 48) & 255) as i32;
                    let old_age = ((data >> 58) & 63) as u8;
                    if bound != Bound::Exact && old_age == age && old_depth > depth + 2 {
                        return;
                    }
                }
                let mv = mv.or_else(|| if data != 0 { Move::from_u16(data as u16) } else { None });
                let d = pack(mv, Score(score).to_tt(ply).0, eval, depth, bound, age);
                victim.data.store(d, Ordering::Relaxed);
                victim.key_xor.store(key ^ d, Ordering::Relaxed);
                return;
            }
            let old_depth = ((data >> 48) & 255) as i32;
            let old_age = ((data >> 58) & 63) as u8;
            let relative_age = (age.wrapping_sub(old_age) & 63) as i32;
            let worth = old_depth - 8 * relative_age;
            if worth < worst {
                worst = worth;
                victim = e;
            }
        }
        let d = pack(mv, Score(score).to_tt(ply).0, eval, depth, bound, age);
        victim.data.store(d, Ordering::Relaxed);
        victim.key_xor.store(key ^ d, Ordering::Relaxed);
    }

    /// How full the table is, in permille, estimated from the first thousand entries written by this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = (1000 / BUCKET).min(self.buckets.len());
        let mut used = 0;
        for b in &self.buckets[..n] {
            for e in &b.0 {
                let data = e.data.load(Ordering::Relaxed);
                if data != 0 && ((data >> 58) & 63) as u8 == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guoxiang_core::Position;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let pos = Position::new();
        let m = pos.parse_uci("e2e4").unwrap();
        assert!(tt.probe(pos.hash(), 0).is_none());
        tt.store(pos.hash(), Some(m), 35, 20, 7, Bound::Exact, 0);
        let hit = tt.probe(pos.hash(), 0).unwrap();
        assert_eq!(hit, TtHit { mv: Some(m), score: 35, eval: 20, depth: 7, bound: Bound::Exact });
        assert!(tt.probe(pos.hash() ^ 1, 0).is_none());
        // A new result without a move keeps the old move.
        tt.store(pos.hash(), None, -5, 20, 8, Bound::Upper, 0);
        let hit = tt.probe(pos.hash(), 0).unwrap();
        assert_eq!((hit.mv, hit.score, hit.bound), (Some(m), -5, Bound::Upper));
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert!(tt.probe(pos.hash(), 0).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_stored_position() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        // Found at ply 3: mate in 5 plies from the root = mate in 2 plies from this position.
        tt.store(key, None, Score::mate_in(5).0, 0, 4, Bound::Exact, 3);
        assert_eq!(tt.probe(key, 3).unwrap().score, Score::mate_in(5).0);
        // Reached again at ply 7 through another path: mate in 9 plies from the root.
        assert_eq!(tt.probe(key, 7).unwrap().score, Score::mate_in(9).0);
        tt.store(key, None, Score::mated_in(6).0, 0, 4, Bound::Exact, 2);
        assert_eq!(tt.probe(key, 4).unwrap().score, Score::mated_in(8).0);
    }

    #[test]
    fn many_positions_fit() {
        let tt = TranspositionTable::new(1);
        for k in 1..5000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            tt.store(key, None, k as i32 % 1000, 0, 3, Bound::Lower, 0);
        }
        let found = (1..5000u64).filter(|k| tt.probe(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0).is_some()).count();
        assert!(found > 4500, "{found}");
    }
}
