// SPDX-License-Identifier: GPL-3.0-or-later
//! Who gets White (C.04.3's colour allocation rules E.1–E.5) and the order of the boards (C.04.2: by the higher player's
//! score, then the lower player's score, then the higher player's rank; the bye last).

use super::Side;
use super::state::{State, Strength};

/// The colour of `a` against `b`, where `a` ranks higher (score, then pairing number). `initial` is the colour
/// drawn for pairing number 1 before round 1.
pub fn colour_of_higher(a: &State, b: &State, initial: Side) -> Side {
    match (a.preference, b.preference) {
        // E.1: both preferences can be granted (different colours, or one has none).
        (Some(pa), Some(pb)) if pa != pb => pa,
        (Some(pa), None) => pa,
        (None, Some(pb)) => pb.other(),
        (None, None) => e5(a, initial),
        (Some(pa), Some(_)) => {
            // E.2: the stronger preference wins; of two absolute ones, the larger colour difference.
            let stronger = |x: &State, y: &State| {
                (x.absolute() && (!y.absolute() || x.imbalance > y.imbalance))
                    || (x.strength == Strength::Strong && y.strength != Strength::Strong && !y.absolute())
            };
            if stronger(a, b) {
                return pa;
            }
            if stronger(b, a) {
                return pa.other();
            }
            // E.3: alternate from the most recent round in which they had different colours.
            let (mut i, mut j) = (a.colours.len(), b.colours.len());
            while i > 0 && j > 0 {
                i -= 1;
                j -= 1;
                if a.colours[i] != b.colours[j] {
                    return b.colours[j];
                }
            }
            // E.4: the higher-ranked player's preference.
            pa
        }
    }
}

/// E.5: an odd number gets the initial colour. The number is the player's place in pairing-number order among
/// the players in the tournament so far (a late entry not yet paired has no place yet, as bbpPairings counts).
fn e5(a: &State, initial: Side) -> Side {
    if a.place % 2 == 1 { initial } else { initial.other() }
}
