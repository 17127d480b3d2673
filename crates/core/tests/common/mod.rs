//! Helpers shared by the integration tests: where the reference data lives, and small seeded random generators
//! (reproducible runs, no dependency).
#![allow(dead_code)] // each test file uses its own subset

use std::path::PathBuf;

/// `../shared/data` beside the repository, or `$GUOXIANG_DATA`; `None` (with a SKIP message) when absent.
pub fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("GUOXIANG_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIP: shared data not found at {} (set GUOXIANG_DATA)", dir.display());
        None
    }
}

/// xorshift64*: small, seeded, reproducible.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// SplitMix64: small, seeded, reproducible (also good from a seed of 0).
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
}
