// SPDX-License-Identifier: GPL-3.0-or-later
//! The edge weight of the pairing matching: a signed fixed-width integer of the `bnum` crate, wide enough to
//! hold every criterion of a bracket as its own field of bits (see the module docs of [`super`]). The newtype
//! only carries the weight trait of `integer-blossom` (neither type nor trait is ours to join directly).

use std::ops::{Add, AddAssign, Sub, SubAssign};

use bnum::Int;
use bnum::cast::As;

/// A signed integer of `8 × BYTES` bits (two's complement).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Wide<const BYTES: usize>(Int<BYTES>);

impl<const BYTES: usize> Default for Wide<BYTES> {
    fn default() -> Self {
        <Self as integer_blossom::Weight>::ZERO
    }
}

impl<const BYTES: usize> Wide<BYTES> {
    /// The number of bits a value may use, less the headroom the matching needs (it doubles weights).
    pub const USABLE_BITS: u32 = 8 * BYTES as u32 - 4;

    /// `value << bit` (the caller keeps `bit + 64` within [`Self::USABLE_BITS`]).
    pub fn shifted(value: u64, bit: u32) -> Self {
        Wide(value.as_::<Int<BYTES>>() << bit)
    }
}

impl<const BYTES: usize> std::fmt::Debug for Wide<BYTES> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

impl<const BYTES: usize> Add for Wide<BYTES> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Wide(self.0 + o.0)
    }
}

impl<const BYTES: usize> Sub for Wide<BYTES> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Wide(self.0 - o.0)
    }
}

impl<const BYTES: usize> AddAssign for Wide<BYTES> {
    fn add_assign(&mut self, o: Self) {
        self.0 += o.0;
    }
}

impl<const BYTES: usize> SubAssign for Wide<BYTES> {
    fn sub_assign(&mut self, o: Self) {
        self.0 -= o.0;
    }
}

impl<const BYTES: usize> integer_blossom::Weight for Wide<BYTES> {
    const ZERO: Self = Wide(Int::from_le_bytes([0; BYTES]));
    const ONE: Self = {
        let mut bytes = [0; BYTES];
        bytes[0] = 1;
        Wide(Int::from_le_bytes(bytes))
    };

    /// Three bits below the maximum, as before: room for the matching's doubling.
    fn inf() -> Self {
        Wide(Int::MAX >> 2)
    }

    fn double(self) -> Self {
        Wide(self.0 << 1)
    }

    /// An arithmetic shift (rounds towards minus infinity, keeps the sign).
    fn half(self) -> Self {
        Wide(self.0 >> 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use integer_blossom::Weight;

    #[test]
    fn arithmetic_agrees_with_i128() {
        let vals: [i128; 7] = [0, 1, -1, 5, -77, 1 << 70, -(1 << 90) + 12345];
        let to = |v: i128| Wide::<64>(v.as_::<Int<64>>());
        for &a in &vals {
            for &b in &vals {
                assert_eq!(to(a) + to(b), to(a + b));
                assert_eq!(to(a) - to(b), to(a - b));
                assert_eq!(to(a).cmp(&to(b)), a.cmp(&b), "{a} {b}");
            }
            assert_eq!(to(a).double(), to(a * 2));
            assert_eq!(to(a).half(), to(a >> 1));
        }
        assert_eq!(Wide::<64>::shifted(3, 100), to(3i128 << 100));
        // The highest field a 256-bit weight allows: still positive, and the value comes back whole.
        let top = Wide::<32>::shifted(u64::MAX, Wide::<32>::USABLE_BITS - 64);
        assert!(top > Wide::<32>::ZERO);
        assert_eq!((top.0 >> 188u32).as_::<u64>(), u64::MAX);
        assert!(Wide::<64>::inf() > Wide::<64>::shifted(1, Wide::<64>::USABLE_BITS - 1));
        assert!(Wide::<64>::inf().double() > Wide::<64>::inf(), "doubling inf does not overflow");
    }
}
