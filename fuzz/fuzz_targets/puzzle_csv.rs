//! Puzzle CSV: arbitrary bytes through the streaming lichess-CSV `Reader`, and every puzzle it accepts through the
//! writer and the motif tagger.
//!
//! Invariants, beyond "never panics" and "terminates":
//! - the reader yields at most one item per input line (CR or LF ends a line, as in CSV), and its error lines never go backwards;
//! - a puzzle that reads, written out and read back, is the same puzzle;
//! - the tagger names each motif at most once, in catalogue order, with a sentence in both languages.
#![no_main]

use guoxiang_tactics::{Puzzle, Reader, Writer, tag};
use libfuzzer_sys::fuzz_target;

fn round_trip(p: &Puzzle) {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out).expect("writer");
    w.write(p).expect("write");
    w.flush().expect("flush");
    drop(w);
    let back: Vec<_> = Reader::new(out.as_slice()).collect();
    assert_eq!(back.len(), 1, "one puzzle written, {} read back", back.len());
    match &back[0] {
        Ok(q) => assert_eq!(q, p, "written puzzle reads back as another"),
        Err(e) => panic!("written puzzle does not read back: {e}\n{}", String::from_utf8_lossy(&out)),
    }
}

fn check_tags(p: &Puzzle) {
    let tags = tag::tag(p);
    for pair in tags.windows(2) {
        assert!(pair[0].motif < pair[1].motif, "motifs out of order or repeated: {:?}", tags);
    }
    for t in &tags {
        assert!(!t.text.zh.is_empty() && !t.text.en.is_empty(), "{} without a sentence", t.motif);
    }
}

fuzz_target!(|data: &[u8]| {
    let lines = data.iter().filter(|&&b| b == b'\n' || b == b'\r').count() + 1;
    let mut items = 0;
    let mut last_error_line = 0;
    for row in Reader::new(data) {
        items += 1;
        assert!(items <= lines, "more rows than lines");
        match row {
            Ok(p) => {
                round_trip(&p);
                check_tags(&p);
            }
            Err(e) => {
                assert!(e.line >= last_error_line, "error lines go backwards: {} after {}", e.line, last_error_line);
                last_error_line = e.line;
                assert!(!e.problem.is_empty());
            }
        }
    }
});
