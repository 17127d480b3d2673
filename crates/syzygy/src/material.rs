//! Material signatures ("KRPvKR"): what a table holds and which table a position belongs to.

use guoxiang_core::{Color, Position, Role};

/// Letters of the roles in the order table names use (strongest first, king first).
const NAME_ORDER: [Role; 6] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// How many pieces of each role each side has: `counts[colour][role index]`, roles in `Role::ALL` order
/// (pawn, knight, bishop, rook, queen, king).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Material {
    pub counts: [[u8; 6]; 2],
}

impl Material {
    pub(crate) fn of(pos: &Position) -> Material {
        let mut m = Material::default();
        for c in Color::ALL {
            for r in Role::ALL {
                m.counts[c.index()][r.index()] = pos.pieces(c, r).count() as u8;
            }
        }
        m
    }

    /// Reads a table name such as `KRPvKR` (white's pieces, `v`, black's). Each side needs exactly one king; the
    /// name need not be in the canonical order. `None` for anything else.
    pub(crate) fn from_name(name: &str) -> Option<Material> {
        let (w, b) = name.split_once('v')?;
        let mut m = Material::default();
        for (side, text) in [w, b].into_iter().enumerate() {
            for ch in text.chars() {
                let role = Role::from_char(ch.to_ascii_lowercase()).filter(|_| ch.is_ascii_uppercase())?;
                m.counts[side][role.index()] += 1;
                if m.counts[side][role.index()] > 8 {
                    return None;
                }
            }
            if m.counts[side][Role::King.index()] != 1 {
                return None;
            }
        }
        Some(m)
    }

    /// The name, `K…vK…`, white's side first, pieces strongest first.
    pub(crate) fn name(&self) -> String {
        let mut s = String::new();
        for side in 0..2 {
            if side == 1 {
                s.push('v');
            }
            for r in NAME_ORDER {
                for _ in 0..self.counts[side][r.index()] {
                    s.push(r.upper_char());
                }
            }
        }
        s
    }

    /// The same pieces with the colours exchanged.
    pub(crate) fn flipped(&self) -> Material {
        Material { counts: [self.counts[1], self.counts[0]] }
    }

    /// Whether both sides have the same pieces.
    pub(crate) fn is_symmetric(&self) -> bool {
        self.counts[0] == self.counts[1]
    }

    /// The canonical orientation used for file names: the side with more pieces first; with as many, the one whose
    /// pieces, strongest first, are stronger at the first difference.
    pub(crate) fn normalized(&self) -> Material {
        let strength = |side: usize| -> (u32, Vec<u8>) {
            let total = self.counts[side].iter().map(|&c| u32::from(c)).sum();
            // Higher is stronger: list each piece's strength (queen 5 … pawn 1), strongest first.
            let mut list = Vec::new();
            for (rank, r) in NAME_ORDER.iter().enumerate() {
                for _ in 0..self.counts[side][r.index()] {
                    list.push(6 - rank as u8);
                }
            }
            (total, list)
        };
        if strength(1) > strength(0) { self.flipped() } else { *self }
    }

    pub(crate) fn pieces(&self) -> u32 {
        self.counts.iter().flatten().map(|&c| u32::from(c)).sum()
    }

    pub(crate) fn pawns(&self, side: usize) -> usize {
        usize::from(self.counts[side][Role::Pawn.index()])
    }

    pub(crate) fn has_pawns(&self) -> bool {
        self.pawns(0) + self.pawns(1) > 0
    }

    /// A number identifying the material, colours kept apart (4 bits per count).
    pub(crate) fn key(&self) -> u64 {
        self.counts.iter().flatten().fold(0u64, |k, &c| (k << 4) | u64::from(c & 15))
    }

    /// Pieces that occur exactly once (per colour and role), kings included.
    pub(crate) fn unique_pieces(&self) -> usize {
        self.counts.iter().flatten().filter(|&&c| c == 1).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let m = Material::from_name("KRPvKR").unwrap();
        assert_eq!(m.name(), "KRPvKR");
        assert_eq!(m.pieces(), 5);
        assert_eq!(m.flipped().name(), "KRvKRP");
        assert_eq!(m.flipped().normalized().name(), "KRPvKR");
        assert!(Material::from_name("KRvR").is_none());
        assert!(Material::from_name("KKvK").is_none());
        assert!(Material::from_name("KxvK").is_none());
        assert!(Material::from_name("KqvK").is_none());
        assert!(Material::from_name("KQ").is_none());
    }

    #[test]
    fn normalization_prefers_more_then_stronger_pieces() {
        for (name, canon) in [
            ("KvKQ", "KQvK"),
            ("KBvKR", "KRvKB"),
            ("KNvKP", "KNvKP"),
            ("KPvKN", "KNvKP"),
            ("KBBvKRN", "KRNvKBB"),
            ("KPvKPP", "KPPvKP"),
            ("KRvKR", "KRvKR"),
        ] {
            assert_eq!(Material::from_name(name).unwrap().normalized().name(), canon, "{name}");
        }
    }
}
