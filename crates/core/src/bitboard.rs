//! `Bitboard`: a set of squares in one `u64`, bit `i` standing for square `i` (a1 = bit 0, h8 = bit 63).

use crate::types::{File, Rank, Square};
use core::ops;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    pub const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);
    pub const BACK_RANKS: Bitboard = Bitboard(0xFF00_0000_0000_00FF);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[inline]
    pub const fn from_file(f: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << f.index())
    }

    #[inline]
    pub const fn from_rank(r: Rank) -> Bitboard {
        Bitboard(0xFF << (8 * r.index()))
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::new(self.0.trailing_zeros())) }
    }

    /// The highest square, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::new(63 - self.0.leading_zeros())) }
    }

    /// The only square, when there is exactly one.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() { self.first() } else { None }
    }

    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    #[inline]
    pub const fn toggled(self, sq: Square) -> Bitboard {
        Bitboard(self.0 ^ 1 << sq.index())
    }

    #[inline]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// Mirrors the set vertically (rank 1 ↔ rank 8).
    #[inline]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// Shifts one rank towards rank 8 (white's forward).
    #[inline]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Shifts one rank towards rank 1.
    #[inline]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::new(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, |b, s| b.with(s))
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl ops::$tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl ops::$tr<Square> for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Square) -> Bitboard { Bitboard(self.0 $op (1u64 << rhs.index())) }
        }
        impl ops::$atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
        impl ops::$atr<Square> for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Square) { self.0 = self.0 $op (1u64 << rhs.index()); }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl core::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(f, "Bitboard(0x{:016X})", self.0)?;
        for r in (0..8).rev() {
            for file in 0..8 {
                let c = if self.0 >> (r * 8 + file) & 1 != 0 { 'X' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
