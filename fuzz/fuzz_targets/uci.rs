//! UCI move reading: a start position (picked and walked from by the first
//! bytes, see `guoxiang_fuzz::walk`), then the rest of the input as text
//! (lossy UTF-8) through `UciMove::parse`, `UciMove::to_move`,
//! `Position::parse_uci` and `Position::explain_uci`.
//!
//! Invariants, beyond "never panics":
//! - a parsed `UciMove` written out parses back to itself;
//! - a move that resolves is one of `legal_moves()`, its UCI (from
//!   `Position::uci` and `UciMove::from_move`) resolves back to it, and
//!   `explain_uci` calls the same text `Legal` with the same move;
//! - `explain_uci` says `Legal` exactly when a legal move goes from the
//!   from-square to the to-square (or, castling, has the king land there
//!   with a two-square step onto the c- or g-file) with that promotion; the
//!   move it returns is such a move;
//! - the UCI written for a legal move (one per input) reads back to it and is
//!   explained as legal.
#![no_main]

use guoxiang_core::{Explanation, File, Move, Position, Role, Square, UciMove};
use guoxiang_fuzz::{legal, walk};
use libfuzzer_sys::fuzz_target;

/// Whether `m` is what `from`-`to`-`promotion` means (as `explain` reads it).
fn fits(m: Move, from: Square, to: Square, promotion: Option<Role>) -> bool {
    if m.from() != from || m.promotion_role() != promotion {
        return false;
    }
    if m.to() == to {
        return true;
    }
    let target = if m.is_kingside_castle() { File::G } else { File::C };
    m.is_castle() && m.king_to() == to && to.file() == target && from.distance(to) >= 2
}

fn check_legal_move(pos: &Position, m: Move) {
    let fen = pos.fen();
    let text = pos.uci(m);
    assert_eq!(pos.parse_uci(&text), Ok(m), "uci {text:?} does not read back in {fen}");
    for chess960 in [false, true] {
        let u = UciMove::from_move(m, chess960);
        // King-takes-rook is read in either mode; the king's two-square step only in standard chess.
        if chess960 || !pos.is_chess960() || !m.is_castle() {
            assert_eq!(u.to_move(pos), Ok(m), "{u} (chess960: {chess960}) does not resolve in {fen}");
        }
        // explain reads a king's step as castling only when it is two or more squares onto the c- or g-file.
        if chess960 || !m.is_castle() || fits(m, m.from(), m.king_to(), None) {
            assert_eq!(
                pos.explain_uci(&u.to_string()),
                Ok(Explanation::Legal(m)),
                "{u} not explained as legal in {fen}"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let (pos, rest) = walk(data);
    let text = String::from_utf8_lossy(rest);
    let moves = legal(&pos);

    let explained = pos.explain_uci(&text);
    if let Ok(ex) = &explained {
        let _ = ex.reason().map(|r| (r.code(), r.squares(), r.text()));
        // The loose syntax explain_uci accepted: trimmed, ASCII, 4 or 5 characters.
        let t = text.trim();
        let from = Square::parse(&t[0..2]).expect("explain_uci accepted a bad from-square");
        let to = Square::parse(&t[2..4]).expect("explain_uci accepted a bad to-square");
        let promotion = t.as_bytes().get(4).map(|&b| Role::from_char(char::from(b)).expect("bad promotion letter"));
        let expected = moves.iter().any(|&m| fits(m, from, to, promotion));
        assert_eq!(ex.is_legal(), expected, "explain_uci({text:?}) = {ex:?} in {}", pos.fen());
        if let Explanation::Legal(m) = ex {
            assert!(moves.contains(m) && fits(*m, from, to, promotion), "explain_uci({text:?}) gave {m:?}");
        }
    }

    if let Ok(u) = UciMove::parse(&text) {
        assert_eq!(UciMove::parse(&u.to_string()), Ok(u), "{text:?} written as {u} reads back differently");
        match u.to_move(&pos) {
            Ok(m) => {
                assert!(moves.contains(&m), "{u} resolved to {m:?}, not a legal move in {}", pos.fen());
                assert_eq!(explained, Ok(Explanation::Legal(m)), "to_move and explain_uci disagree on {text:?}");
                assert_eq!(pos.parse_uci(&text), Ok(m));
                check_legal_move(&pos, m);
            }
            Err(e) => {
                let _ = e.to_string();
                assert!(pos.parse_uci(&text).is_err());
            }
        }
    } else {
        assert!(pos.parse_uci(&text).is_err());
    }

    if !moves.is_empty() {
        check_legal_move(&pos, moves[rest.len() % moves.len()]);
    }
});
