//! SAN reading: a start position (picked and walked from by the first bytes,
//! see `guoxiang_fuzz::walk`), then the rest of the input as text (lossy
//! UTF-8) through `SanPlus::parse`, `San::parse`, `Position::parse_san` and
//! `Position::parse_move_any`.
//!
//! Invariants, beyond "never panics":
//! - `San::parse` and `SanPlus::parse` agree; a parsed `SanPlus` written out
//!   (English or Chinese letters) parses back to itself;
//! - a move that resolves is one of `legal_moves()`, and the position's own
//!   SAN (also Chinese, bare, long algebraic) of it reads back to it;
//! - `parse_move_any` finds the same move whenever `parse_san` finds one;
//! - an "ambiguous" error's suggestions each resolve, to distinct moves;
//! - the SAN written for a legal move (one per input) reads back to it.
#![no_main]

use guoxiang_core::{Move, Position, San, SanError, SanPlus};
use guoxiang_fuzz::{legal, walk};
use libfuzzer_sys::fuzz_target;

/// Every way the position writes `m` reads back to `m`.
fn check_written(pos: &Position, m: Move) {
    for (style, text) in
        [("san", pos.san(m)), ("san_zh", pos.san_zh(m)), ("san_bare", pos.san_bare(m)), ("lan", pos.lan(m))]
    {
        match pos.parse_san(&text) {
            Ok(back) => assert_eq!(back, m, "{style} {text:?} reads back as another move in {}", pos.fen()),
            Err(e) => panic!("{style} {text:?} of a legal move does not read back in {}: {e}", pos.fen()),
        }
    }
}

fn check_resolved(pos: &Position, moves: &[Move], m: Move, how: &str, text: &str) {
    assert!(moves.contains(&m), "{how}({text:?}) gave {m:?}, not a legal move in {}", pos.fen());
    check_written(pos, m);
}

fn check_error(pos: &Position, e: &SanError) {
    let _ = e.to_string();
    if let SanError::Ambiguous { suggestions, from, .. } = e {
        assert!(from.len() >= 2, "ambiguous with fewer than two pieces: {e}");
        let mut found = Vec::new();
        for s in suggestions {
            let m =
                pos.parse_san(s).unwrap_or_else(|e| panic!("suggestion {s:?} does not resolve in {}: {e}", pos.fen()));
            assert!(!found.contains(&m), "two suggestions give the same move");
            found.push(m);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let (pos, rest) = walk(data);
    let text = String::from_utf8_lossy(rest);
    let moves = legal(&pos);

    // Without a board.
    let plus = SanPlus::parse(&text);
    assert_eq!(San::parse(&text).ok(), plus.as_ref().ok().map(|p| p.san));
    if let Ok(sp) = plus {
        let written = sp.to_string();
        assert_eq!(SanPlus::parse(&written).ok(), Some(sp), "{text:?} written as {written:?} reads back differently");
        let zh = sp.to_string_zh();
        assert_eq!(SanPlus::parse(&zh).ok(), Some(sp), "{text:?} written as {zh:?} reads back differently");
        if let Ok(m) = sp.to_move(&pos) {
            check_resolved(&pos, &moves, m, "SanPlus::to_move", &text);
        }
    }

    // Against the board.
    let san = pos.parse_san(&text);
    match &san {
        Ok(m) => check_resolved(&pos, &moves, *m, "parse_san", &text),
        Err(e) => check_error(&pos, e),
    }
    match pos.parse_move_any(&text) {
        Ok(m) => {
            check_resolved(&pos, &moves, m, "parse_move_any", &text);
            if let Ok(s) = san {
                assert_eq!(s, m, "parse_move_any and parse_san disagree on {text:?}");
            }
        }
        Err(e) => {
            assert!(san.is_err(), "parse_san reads {text:?} but parse_move_any does not");
            check_error(&pos, &e);
        }
    }

    // One legal move (picked by the text's length) written and read back.
    if !moves.is_empty() {
        check_written(&pos, moves[rest.len() % moves.len()]);
    }
});
