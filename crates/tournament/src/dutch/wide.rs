// SPDX-License-Identifier: GPL-3.0-or-later
//! A wide two's-complement integer: the edge weight of the pairing matching, wide enough to hold every
//! criterion of a bracket as its own field of bits (see the module docs of [`super`]).

use std::cmp::Ordering;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// A signed integer of `64 × LIMBS` bits, least significant limb first.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Wide<const LIMBS: usize>([u64; LIMBS]);

impl<const LIMBS: usize> Default for Wide<LIMBS> {
    fn default() -> Self {
        Wide([0; LIMBS])
    }
}

impl<const LIMBS: usize> Wide<LIMBS> {
    /// The number of bits a value may use, less the headroom the matching needs (it doubles weights).
    pub const USABLE_BITS: u32 = 64 * LIMBS as u32 - 4;

    /// `value << bit` (the caller keeps `bit + 64` within [`USABLE_BITS`]).
    pub fn shifted(value: u64, bit: u32) -> Self {
        let mut w = Wide::default();
        let (limb, off) = ((bit / 64) as usize, bit % 64);
        w.0[limb] = value << off;
        if off > 0 && limb + 1 < LIMBS {
            w.0[limb + 1] = value >> (64 - off);
        }
        w
    }

    fn is_negative(&self) -> bool {
        (self.0[LIMBS - 1] as i64) < 0
    }
}

impl<const LIMBS: usize> std::fmt::Debug for Wide<LIMBS> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        for l in self.0.iter().rev() {
            write!(f, "{l:016x}")?;
        }
        Ok(())
    }
}

impl<const LIMBS: usize> Add for Wide<LIMBS> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        let mut r = [0u64; LIMBS];
        let mut carry = false;
        for (i, slot) in r.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *slot = s2;
            carry = c1 || c2;
        }
        Wide(r)
    }
}

impl<const LIMBS: usize> Sub for Wide<LIMBS> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        let mut r = [0u64; LIMBS];
        let mut borrow = false;
        for (i, slot) in r.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *slot = d2;
            borrow = b1 || b2;
        }
        Wide(r)
    }
}

impl<const LIMBS: usize> AddAssign for Wide<LIMBS> {
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}

impl<const LIMBS: usize> SubAssign for Wide<LIMBS> {
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}

impl<const LIMBS: usize> Ord for Wide<LIMBS> {
    fn cmp(&self, o: &Self) -> Ordering {
        match (self.is_negative(), o.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..LIMBS).rev() {
            match self.0[i].cmp(&o.0[i]) {
                Ordering::Equal => continue,
                other => return other,
            }
        }
        Ordering::Equal
    }
}

impl<const LIMBS: usize> PartialOrd for Wide<LIMBS> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl<const LIMBS: usize> integer_blossom::Weight for Wide<LIMBS> {
    const ZERO: Self = Wide([0; LIMBS]);
    const ONE: Self = {
        let mut l = [0; LIMBS];
        l[0] = 1;
        Wide(l)
    };

    fn inf() -> Self {
        let mut l = [u64::MAX; LIMBS];
        l[LIMBS - 1] = u64::MAX >> 3;
        Wide(l)
    }

    fn double(self) -> Self {
        let mut r = [0u64; LIMBS];
        for (i, slot) in r.iter_mut().enumerate() {
            *slot = (self.0[i] << 1) | if i > 0 { self.0[i - 1] >> 63 } else { 0 };
        }
        Wide(r)
    }

    fn half(self) -> Self {
        // Arithmetic shift: the sign bit is kept.
        let mut r = [0u64; LIMBS];
        for (i, slot) in r.iter_mut().enumerate() {
            let high = if i + 1 < LIMBS { self.0[i + 1] << 63 } else { (((self.0[i] as i64) >> 63) as u64) << 63 };
            *slot = (self.0[i] >> 1) | high;
        }
        Wide(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use integer_blossom::Weight;

    #[test]
    fn arithmetic_agrees_with_i128() {
        let vals: [i128; 7] = [0, 1, -1, 5, -77, 1 << 70, -(1 << 90) + 12345];
        let to = |v: i128| {
            let mut l = [if v < 0 { u64::MAX } else { 0 }; 8];
            l[0] = v as u64;
            l[1] = (v >> 64) as u64;
            Wide(l)
        };
        for &a in &vals {
            for &b in &vals {
                assert_eq!(to(a) + to(b), to(a + b));
                assert_eq!(to(a) - to(b), to(a - b));
                assert_eq!(to(a).cmp(&to(b)), a.cmp(&b), "{a} {b}");
            }
            assert_eq!(to(a).double(), to(a * 2));
            assert_eq!(to(a).half(), to(a >> 1));
        }
        assert_eq!(Wide::<8>::shifted(3, 100), to(3i128 << 100));
        assert!(Wide::<8>::inf() > Wide::<8>::shifted(1, Wide::<8>::USABLE_BITS - 1));
    }
}
