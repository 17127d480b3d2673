//! Numbering positions: how a placement of pieces becomes the index of its value inside a table.
//!
//! Squares are numbered a1 = 0 … h8 = 63 (file = `sq & 7`, rank = `sq >> 3`), as in `guoxiang-core`.
//!
//! A table's pieces come in an order given by the file ("storage order"). They fall into groups:
//!
//! * the **leading group**, which absorbs the board's symmetries. Without pawns it is either three distinct
//!   pieces (31,332 placements once the 8 symmetries of the board are removed) or, when the table has only two
//!   pieces that occur once (the kings), the two kings (462 placements: no shared or neighbouring squares).
//!   With pawns it is the pawns of one colour: the one on the outermost file is the "leader", its file is
//!   folded onto a–d (left–right mirror), and the table is split into four parts by that file.
//! * with pawns on both sides, the **other colour's pawns**, placed on the 48 squares of ranks 2–7 left free;
//! * then every run of identical pieces, placed as a set on the squares still free.
//!
//! Each group gives one "digit" (a number below the group's count of placements) and the index is the
//! mixed-radix number those digits form; the file says in which order the digits are weighted.
//!
//! Every table below is computed here (by `const` evaluation), from the rules just described.

/// Binomial coefficients `BINOMIAL[k][n]` = C(n, k) for n < 64, k < 8.
const BINOMIAL: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut n = 0;
    while n < 64 {
        t[0][n] = 1;
        let mut k = 1;
        while k < 8 {
            t[k][n] = if n == 0 { 0 } else { t[k - 1][n - 1] + t[k][n - 1] };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k), zero outside the table's range (n < 0 never happens for valid input; it yields 0 rather than a panic).
#[inline]
pub(crate) fn binomial(n: i32, k: usize) -> u64 {
    if !(0..64).contains(&n) || k >= 8 { 0 } else { BINOMIAL[k][n as usize] }
}

const fn file_of(sq: u8) -> i32 {
    (sq & 7) as i32
}

const fn rank_of(sq: u8) -> i32 {
    (sq >> 3) as i32
}

/// Rank minus file: 0 on the a1–h8 diagonal, positive above it (towards a8), negative below (towards h1).
#[inline]
pub(crate) const fn above_diagonal(sq: u8) -> i32 {
    rank_of(sq) - file_of(sq)
}

/// Reflection in the a1–h8 diagonal (swaps file and rank).
#[inline]
pub(crate) const fn flip_diagonal(sq: u8) -> u8 {
    ((sq >> 3) | (sq << 3)) & 63
}

const fn adjacent_or_same(a: u8, b: u8) -> bool {
    let df = file_of(a) - file_of(b);
    let dr = rank_of(a) - rank_of(b);
    df >= -1 && df <= 1 && dr >= -1 && dr <= 1
}

/// The ten squares of the triangle a1–d1–d4 that a leading piece is brought into. The six squares off the
/// diagonal come first (b1 c1 d1 c2 d2 d3), then the four on it (a1 b2 c3 d4); the numbering of the 462-entry
/// king table and of the 31,332-entry three-piece table both follow this order.
const TRIANGLE_SQUARES: [u8; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// Square → position in [`TRIANGLE_SQUARES`], or -1 outside the triangle.
const TRIANGLE: [i8; 64] = {
    let mut t = [-1i8; 64];
    let mut i = 0;
    while i < 10 {
        t[TRIANGLE_SQUARES[i] as usize] = i as i8;
        i += 1;
    }
    t
};

/// Squares strictly below the a1–h8 diagonal (file > rank), numbered 0..28 in square order; -1 elsewhere.
const BELOW_DIAGONAL: [i8; 64] = {
    let mut t = [-1i8; 64];
    let mut n = 0;
    let mut sq = 0;
    while sq < 64 {
        if above_diagonal(sq as u8) < 0 {
            t[sq] = n;
            n += 1;
        }
        sq += 1;
    }
    t
};

/// Number of placements of two kings, the first in the triangle, without shared or neighbouring squares, up to
/// the diagonal reflection when the first king is on the diagonal.
pub(crate) const KING_PAIRS: u64 = 462;

/// Number of placements of three distinct pieces, the first in the triangle, up to the diagonal reflection.
pub(crate) const THREE_PIECES: u64 = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + 4 * 7 * 6;

/// `KING_INDEX[t][sq]`: number of the king pair (first king on `TRIANGLE_SQUARES[t]`, second on `sq`), -1 when
/// impossible. First, for each first-king square in triangle order, the second king's squares in square order —
/// when the first king is on the diagonal only the squares strictly below it, the others being reflections;
/// afterwards the pairs with both kings on the diagonal.
const KING_INDEX: [[i16; 64]; 10] = {
    let mut t = [[-1i16; 64]; 10];
    let mut next = 0i16;
    let mut i = 0;
    while i < 10 {
        let k = TRIANGLE_SQUARES[i];
        let mut sq = 0u8;
        while sq < 64 {
            let allowed = i < 6 || above_diagonal(sq) < 0;
            if allowed && !adjacent_or_same(k, sq) {
                t[i][sq as usize] = next;
                next += 1;
            }
            sq += 1;
        }
        i += 1;
    }
    let mut i = 6;
    while i < 10 {
        let k = TRIANGLE_SQUARES[i];
        let mut sq = 0u8;
        while sq < 64 {
            if above_diagonal(sq) == 0 && !adjacent_or_same(k, sq) {
                t[i][sq as usize] = next;
                next += 1;
            }
            sq += 1;
        }
        i += 1;
    }
    assert!(next as u64 == KING_PAIRS);
    t
};

/// How far a file is from the nearer edge: a/h 0, b/g 1, c/f 2, d/e 3.
const fn edge_distance(sq: u8) -> i32 {
    let f = file_of(sq);
    if f < 4 { f } else { 7 - f }
}

/// Rank of the leading pawn's square for choosing the leader: the pawn with the smallest value leads. Counts
/// the 24 squares of ranks 2–7 on files a–d (mirrored files share values): file-major, rank-minor.
const LEADER_ORDER: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        t[sq] = (edge_distance(sq as u8) * 6 + rank_of(sq as u8) - 1) as u8;
        sq += 1;
    }
    t
};

/// The square of a leader-order value (on files a–d).
const LEADER_SQUARE: [u8; 24] = {
    let mut t = [0u8; 24];
    let mut j = 0;
    while j < 24 {
        t[j] = ((j % 6 + 1) * 8 + j / 6) as u8;
        j += 1;
    }
    t
};

/// Order of pawn squares used to number the other leading pawns (below the leader): outer files first, then
/// lower ranks, the left file of a mirrored pair before the right one. Values 0..48 on ranks 2–7.
const PAWN_ORDER: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        let s = sq as u8;
        let left = if file_of(s) < 4 { 1 } else { 0 };
        t[sq] = ((3 - edge_distance(s)) * 12 + (6 - rank_of(s)) * 2 + left) as u8;
        sq += 1;
    }
    t
};

/// Most pawns of one colour in a table of up to seven pieces.
const MAX_LEAD: usize = 5;

/// `LEAD_OFFSET[n - 1][j]`: where the placements of `n` leading pawns whose leader has leader-order value `j` start
/// inside the part of the table for the leader's file; `LEAD_COUNT[n - 1][file]` is that part's total.
const LEAD_TABLES: ([[u64; 24]; MAX_LEAD], [[u64; 4]; MAX_LEAD]) = {
    let mut offset = [[0u64; 24]; MAX_LEAD];
    let mut count = [[0u64; 4]; MAX_LEAD];
    let mut n = 0;
    while n < MAX_LEAD {
        let mut file = 0;
        while file < 4 {
            let mut s = 0u64;
            let mut j = file * 6;
            while j < file * 6 + 6 {
                offset[n][j] = s;
                // The other n pawns stand on squares that come before the leader in pawn order.
                s += BINOMIAL[n][PAWN_ORDER[LEADER_SQUARE[j] as usize] as usize];
                j += 1;
            }
            count[n][file] = s;
            file += 1;
        }
        n += 1;
    }
    (offset, count)
};

/// The file part (0..4, for files a/h … d/e) of a leading pawn.
#[inline]
pub(crate) fn pawn_file(sq: u8) -> usize {
    edge_distance(sq) as usize
}

/// The leader-order value of a pawn square (smaller leads).
#[inline]
pub(crate) fn leader_order(sq: u8) -> u8 {
    LEADER_ORDER[sq as usize]
}

/// Placements of `lead` leading pawns whose leader is on file part `file`.
pub(crate) fn lead_pawn_count(lead: usize, file: usize) -> u64 {
    if lead == 0 || lead > MAX_LEAD || file >= 4 { 0 } else { LEAD_TABLES.1[lead - 1][file] }
}

/// What the leading group of a table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lead {
    /// Three pieces that occur once each (no pawns in the table).
    ThreeUnique,
    /// The two kings (no pawns, every other piece type occurs at least twice).
    Kings,
    /// `n` pawns of one colour.
    Pawns(usize),
}

/// One group of identically numbered pieces in storage order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Group {
    pub start: usize,
    pub len: usize,
    /// Weight of this group's digit in the index.
    pub factor: u64,
}

/// How one part of a table (one side to move, one leading-pawn file) numbers its positions.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Piece codes in storage order: role 1 = pawn … 6 = king, plus 8 for the table's black side.
    pub codes: [u8; 7],
    pub pieces: usize,
    pub lead: Lead,
    /// Groups in storage order; `groups[0]` is the leading group, `groups[1]` the other pawns when both sides have
    /// pawns (then `second_pawns` is set).
    pub groups: [Group; 7],
    pub group_count: usize,
    pub second_pawns: bool,
    /// Number of indices (positions, including impossible ones) of this part.
    pub size: u64,
}

/// Why a layout could not be built from a file's header.
pub(crate) type LayoutError = String;

impl Layout {
    /// Builds the numbering of one part from its piece codes (storage order) and the digit order the header gives:
    /// `order` is the rank of the leading group's digit, `order2` that of the other pawns' digit (`None` without).
    pub(crate) fn new(
        codes: &[u8],
        lead: Lead,
        other_pawns: usize,
        file: usize,
        order: usize,
        order2: Option<usize>,
    ) -> Result<Layout, LayoutError> {
        let pieces = codes.len();
        if !(2..=7).contains(&pieces) {
            return Err(format!("{pieces} pieces in a table"));
        }
        let mut stored = [0u8; 7];
        stored[..pieces].copy_from_slice(codes);
        let lead_len = match lead {
            Lead::ThreeUnique => 3,
            Lead::Kings => 2,
            Lead::Pawns(n) => n,
        };
        if lead_len == 0 || lead_len > pieces || lead_len + other_pawns > pieces {
            return Err("leading group larger than the table".to_string());
        }
        let mut groups = [Group::default(); 7];
        let mut count = 0;
        groups[count] = Group { start: 0, len: lead_len, factor: 0 };
        count += 1;
        let mut i = lead_len;
        if other_pawns > 0 {
            groups[count] = Group { start: i, len: other_pawns, factor: 0 };
            count += 1;
            i += other_pawns;
        }
        while i < pieces {
            let mut j = i + 1;
            while j < pieces && stored[j] == stored[i] {
                j += 1;
            }
            groups[count] = Group { start: i, len: j - i, factor: 0 };
            count += 1;
            i = j;
        }

        // Digit positions: the leading group at `order`, the other pawns at `order2`, the rest in storage order.
        let mut slots = [usize::MAX; 7];
        if order >= count {
            return Err(format!("digit order {order} of the leading group is beyond the {count} groups"));
        }
        slots[order] = 0;
        if other_pawns > 0 {
            let o2 = order2.ok_or("no digit order for the second pawn group")?;
            if o2 >= count || o2 == order {
                return Err(format!("digit order {o2} of the second pawn group is invalid"));
            }
            slots[o2] = 1;
        }
        let mut next_group = if other_pawns > 0 { 2 } else { 1 };
        for slot in slots.iter_mut().take(count) {
            if *slot == usize::MAX {
                *slot = next_group;
                next_group += 1;
            }
        }

        // Sizes of the digits.
        let mut free = 64 - (lead_len + other_pawns) as i32;
        let mut radix = [0u64; 7];
        for (g, group) in groups.iter().enumerate().take(count) {
            radix[g] = match g {
                0 => match lead {
                    Lead::ThreeUnique => THREE_PIECES,
                    Lead::Kings => KING_PAIRS,
                    Lead::Pawns(n) => lead_pawn_count(n, file),
                },
                1 if other_pawns > 0 => binomial(48 - lead_len as i32, other_pawns),
                _ => {
                    let r = binomial(free, group.len);
                    free -= group.len as i32;
                    r
                }
            };
            if radix[g] == 0 {
                return Err("a group with no placements".to_string());
            }
        }
        let mut size = 1u64;
        for &g in slots.iter().take(count) {
            groups[g].factor = size;
            size = size.checked_mul(radix[g]).ok_or("table size overflows")?;
        }
        Ok(Layout { codes: stored, pieces, lead, groups, group_count: count, second_pawns: other_pawns > 0, size })
    }

    /// The index of a placement. `sq` holds the squares in storage order (for pawn tables with the leader first,
    /// already mirrored so that the table's white pawns move up the board). Modifies `sq`. `None` for a placement
    /// the numbering has no room for (which legal positions never are).
    pub(crate) fn index(&self, sq: &mut [u8; 7]) -> Option<u64> {
        let n = self.pieces;
        let sq = &mut sq[..n];
        let lead_digit = match self.lead {
            Lead::ThreeUnique | Lead::Kings => {
                let lead_len = self.groups[0].len;
                if sq[0] & 4 != 0 {
                    sq.iter_mut().for_each(|s| *s ^= 7);
                }
                if sq[0] & 32 != 0 {
                    sq.iter_mut().for_each(|s| *s ^= 56);
                }
                // Reflect in the diagonal when the first leading piece off it lies above it.
                if let Some(&first) = sq[..lead_len].iter().find(|&&s| above_diagonal(s) != 0)
                    && above_diagonal(first) > 0
                {
                    sq.iter_mut().for_each(|s| *s = flip_diagonal(*s));
                }
                if self.lead == Lead::Kings {
                    let t = TRIANGLE[sq[0] as usize];
                    if t < 0 {
                        return None;
                    }
                    u64::try_from(KING_INDEX[t as usize][sq[1] as usize]).ok()?
                } else {
                    three_piece_index(sq[0], sq[1], sq[2])?
                }
            }
            Lead::Pawns(lead) => {
                if sq[0] & 4 != 0 {
                    sq.iter_mut().for_each(|s| *s ^= 7);
                }
                let others = &mut sq[1..lead];
                others.sort_unstable_by(|a, b| PAWN_ORDER[*b as usize].cmp(&PAWN_ORDER[*a as usize]));
                let mut digit = LEAD_TABLES.0[lead - 1][LEADER_ORDER[sq[0] as usize] as usize];
                // Others in decreasing pawn order: the k-th smallest contributes C(order, k).
                for (i, &s) in sq[1..lead].iter().enumerate() {
                    digit += binomial(PAWN_ORDER[s as usize] as i32, lead - 1 - i);
                }
                digit
            }
        };
        let mut index = lead_digit.checked_mul(self.groups[0].factor)?;
        for (g, group) in self.groups.iter().enumerate().take(self.group_count).skip(1) {
            let (start, end) = (group.start, group.start + group.len);
            sq[start..end].sort_unstable();
            let pawn_group = g == 1 && self.second_pawns;
            let mut digit = 0u64;
            for m in start..end {
                let s = sq[m];
                // Squares taken by earlier groups do not count.
                let below = sq[..start].iter().filter(|&&e| e < s).count() as i32;
                let rank_offset = if pawn_group { 8 } else { 0 };
                digit += binomial(s as i32 - below - rank_offset, m - start + 1);
            }
            index = index.checked_add(digit.checked_mul(group.factor)?)?;
        }
        Some(index)
    }
}

/// Number of three distinct pieces, the first in the triangle and (if needed) reflected so that the first
/// of them off the diagonal lies below it. Four cases by how many lie on the diagonal.
fn three_piece_index(a: u8, b: u8, c: u8) -> Option<u64> {
    let t = TRIANGLE[a as usize];
    if t < 0 || a == b || a == c || b == c {
        return None;
    }
    let b_skip = u64::from(b > a);
    let c_skip = u64::from(c > a) + u64::from(c > b);
    let (b64, c64) = (u64::from(b), u64::from(c));
    let below = |s: u8| u64::try_from(BELOW_DIAGONAL[s as usize]).ok();
    let diag = |s: u8| u64::from(s & 7);
    Some(if above_diagonal(a) != 0 {
        t as u64 * 63 * 62 + (b64 - b_skip) * 62 + (c64 - c_skip)
    } else if above_diagonal(b) != 0 {
        6 * 63 * 62 + diag(a) * 28 * 62 + below(b)? * 62 + (c64 - c_skip)
    } else if above_diagonal(c) != 0 {
        6 * 63 * 62 + 4 * 28 * 62 + diag(a) * 7 * 28 + (diag(b) - b_skip) * 28 + below(c)?
    } else {
        6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + diag(a) * 7 * 6 + (diag(b) - b_skip) * 6 + (diag(c) - c_skip)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(63, 3), 39711);
        assert_eq!(binomial(4, 5), 0);
        assert_eq!(binomial(-1, 1), 0);
        assert_eq!(binomial(0, 0), 1);
    }

    #[test]
    fn king_pairs_are_numbered_densely() {
        let mut seen = vec![false; KING_PAIRS as usize];
        for row in KING_INDEX.iter() {
            for &v in row.iter() {
                if v >= 0 {
                    assert!(!seen[v as usize], "index {v} twice");
                    seen[v as usize] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        // First king b1: the second's first legal square is d1; first king d4, second a1: first of the d4 pairs
        // with both kings on the diagonal (after 441 others and a1/b2/c3's 16).
        assert_eq!(KING_INDEX[0][3], 0);
        assert_eq!(KING_INDEX[9][0], 457);
        assert_eq!(KING_INDEX[6][18], 441);
    }

    #[test]
    fn three_piece_numbering_is_a_bijection_on_canonical_placements() {
        // Enumerate canonical placements (a in the triangle, first off-diagonal piece below the diagonal) and
        // check that their indices are distinct and fill 0..THREE_PIECES.
        let mut seen = vec![false; THREE_PIECES as usize];
        let mut count = 0;
        for &a in TRIANGLE_SQUARES.iter() {
            for b in 0..64u8 {
                for c in 0..64u8 {
                    let first_off = [a, b, c].into_iter().find(|&s| above_diagonal(s) != 0);
                    if first_off.is_some_and(|s| above_diagonal(s) > 0) {
                        continue;
                    }
                    if let Some(i) = three_piece_index(a, b, c) {
                        assert!(!seen[i as usize], "{a} {b} {c} → {i} twice");
                        seen[i as usize] = true;
                        count += 1;
                    }
                }
            }
        }
        assert_eq!(count, THREE_PIECES);
    }

    #[test]
    fn pawn_tables() {
        // One leading pawn: 6 squares per file part.
        for f in 0..4 {
            assert_eq!(lead_pawn_count(1, f), 6);
        }
        // Leader order: a2 first, then a3 …; h2 mirrors a2.
        assert_eq!(leader_order(8), 0);
        assert_eq!(leader_order(15), 0);
        assert_eq!(leader_order(9), 6);
        assert_eq!(pawn_file(12), 3);
        // Pawn order: a2 highest (47), e7 lowest (0), the left file of a mirrored pair first.
        assert_eq!(PAWN_ORDER[8], 47);
        assert_eq!(PAWN_ORDER[15], 46);
        assert_eq!(PAWN_ORDER[52], 0);
        assert_eq!(PAWN_ORDER[51], 1);
        // Two leading pawns, leader on a2: the other stands on any of the 47 squares after it in pawn order.
        assert_eq!(LEAD_TABLES.0[1][1], 47);
        // Leader on the a-file (a2 … a7): the other pawn comes after it in pawn order.
        assert_eq!(lead_pawn_count(2, 0), 47 + 45 + 43 + 41 + 39 + 37);
    }

    #[test]
    fn layout_sizes() {
        // KRvK stored as K R K? Three unique pieces: 31332 placements times nothing else.
        let l = Layout::new(&[6, 4, 14], Lead::ThreeUnique, 0, 0, 0, None).unwrap();
        assert_eq!(l.size, THREE_PIECES);
        // KNNvK: the kings lead, the knights are a pair on 62 free squares.
        let l = Layout::new(&[6, 14, 2, 2], Lead::Kings, 0, 0, 0, None).unwrap();
        assert_eq!(l.size, KING_PAIRS * 62 * 61 / 2);
        // Digit order 1: the knights' digit is the lowest.
        let l = Layout::new(&[6, 14, 2, 2], Lead::Kings, 0, 0, 1, None).unwrap();
        assert_eq!(l.groups[0].factor, 62 * 61 / 2);
        assert_eq!(l.groups[1].factor, 1);
        assert!(Layout::new(&[6, 14, 2, 2], Lead::Kings, 0, 0, 2, None).is_err());
        // KPvKP: a white pawn leads (6 squares per file), the black pawn is on 47 squares, then two kings.
        let l = Layout::new(&[1, 9, 6, 14], Lead::Pawns(1), 1, 2, 0, Some(1)).unwrap();
        assert_eq!(l.size, 6 * 47 * 62 * 61);
    }

    #[test]
    fn index_is_symmetric() {
        // The same KRvK placement seen through the eight symmetries of the board gets one index.
        let l = Layout::new(&[6, 4, 14], Lead::ThreeUnique, 0, 0, 0, None).unwrap();
        let base = [4u8, 33, 62];
        let mut first = None;
        for t in 0..8u8 {
            let mut sq = [0u8; 7];
            for (i, &s) in base.iter().enumerate() {
                let mut s = s;
                if t & 1 != 0 {
                    s ^= 7;
                }
                if t & 2 != 0 {
                    s ^= 56;
                }
                if t & 4 != 0 {
                    s = flip_diagonal(s);
                }
                sq[i] = s;
            }
            let idx = l.index(&mut sq).unwrap();
            assert!(idx < l.size);
            assert_eq!(*first.get_or_insert(idx), idx);
        }
    }
}
