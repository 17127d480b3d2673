//! The browser's engine searches as the native one: at a fixed depth, the analyser of crates/engine-wasm (the code
//! the .wasm runs) finds the same best move and score as `guoxiang_engine::Engine` called directly, and the same as
//! the table below — which web/test/engine-wasm.test.ts checks against the built .wasm modules (SIMD and scalar),
//! so the WebAssembly build is held to the native engine's answers.

use guoxiang_core::Position;
use guoxiang_engine::{Control, Engine, Limits, Silent};
use guoxiang_engine_wasm::{Analyser, HASH_MB, error_json, set_position_text};
use std::time::Instant;

/// (FEN, moves, depth, best move, score as the page shows it). Keep in step with web/test/engine-wasm.test.ts.
const CASES: &[(&str, &str, u32, &str, &str)] = &[
    ("", "", 9, "e2e4", "{\"cp\":21}"),
    ("", "e2e4 e7e5 g1f3 b8c6 f1b5", 9, "g8f6", "{\"cp\":-9}"),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "", 8, "e2a6", "{\"cp\":-20}"),
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "", 8, "d1d8", "{\"mate\":1}"),
    ("8/8/4k3/8/2P5/4K3/8/8 w - - 0 1", "", 10, "e3e4", "{\"cp\":171}"),
];

fn native(fen: &str, moves: &str, depth: u32) -> (String, i32) {
    let mut pos = if fen.is_empty() { Position::new() } else { Position::from_fen(fen).expect("fen") };
    let mut history = Vec::new();
    for u in moves.split_whitespace() {
        let m = pos.parse_uci(u).expect("move");
        history.push(pos.hash());
        pos.play_unchecked(m);
    }
    let engine = Engine::new(HASH_MB);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let r = engine.search(&pos, &history, &limits, &Control::default(), &Silent, Instant::now());
    (pos.uci(r.best.expect("a legal move")), r.score.0)
}

#[test]
fn the_browser_engine_answers_as_the_native_one() {
    let mut found = Vec::new();
    for &(fen, moves, depth, _, _) in CASES {
        let mut a = Analyser::new(HASH_MB);
        set_position_text(&mut a, &format!("{fen}\n{moves}")).expect("position");
        let r = a.search(depth, None, 1);
        let line = &r.lines[0];
        assert_eq!(line.depth, depth, "{fen} {moves}: the last line is of the depth asked");
        let (best, score) = native(fen, moves, depth);
        assert_eq!(line.pv[0], best, "{fen} {moves}: best move");
        assert_eq!(line.score.0, score, "{fen} {moves}: score");
        let json = r.to_json();
        let shown = json.split("\"score\":").nth(1).and_then(|s| s.split(",\"pv\"").next()).expect("score").to_owned();
        found.push((line.pv[0].clone(), shown));
    }
    let expected: Vec<(String, String)> = CASES.iter().map(|c| (c.3.to_owned(), c.4.to_owned())).collect();
    assert_eq!(found, expected, "the table (also web/test/engine-wasm.test.ts)");
}

#[test]
fn multipv_lines_are_distinct_and_ordered() {
    let mut a = Analyser::new(HASH_MB);
    set_position_text(&mut a, "\ne2e4 e7e5").expect("position");
    let r = a.search(6, None, 3);
    assert_eq!(r.lines.len(), 3);
    assert_eq!(r.lines.iter().map(|l| l.multipv).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(r.lines.windows(2).all(|w| w[0].score >= w[1].score && w[0].pv[0] != w[1].pv[0]));
    assert_eq!(r.lines[0].pv.len(), r.lines[0].pv_san.len());
    assert!(r.to_json().starts_with("{\"depth\":6,"), "{}", r.to_json());
}

#[test]
fn bad_positions_are_refused_with_their_reason() {
    let mut a = Analyser::new(1);
    let e = set_position_text(&mut a, "not a fen\n").unwrap_err();
    assert!(e.contains("bad FEN"), "{e}");
    let e = set_position_text(&mut a, "\ne2e4 e2e4").unwrap_err();
    assert!(e.contains("move 2: e2e4"), "{e}");
    assert_eq!(error_json("a \"b\"\n"), "{\"error\":\"a \\\"b\\\"\\u000a\"}");
    // A position without a legal move: no line.
    set_position_text(&mut a, "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1\n").expect("checkmate is a position");
    assert!(a.search(3, None, 1).lines.is_empty());
}

/// The review's searches through the module's `gx_judge_game` text are the reviewer's own: the same judgements as
/// guoxiang_review::judge_game natively, so the server makes the same review of a browser's upload as of its own
/// searches; a bad request is answered with what is wrong.
#[test]
fn the_review_searches_of_the_module_are_the_reviewers() {
    use guoxiang_review::search::{Hooks, no_admit};
    use guoxiang_review::{Options, judge_game, upload};
    let ucis = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "c6d4", "f3e5", "d8g5"];
    let request = format!("{{\"fen\":null,\"moves\":{},\"nodes\":5000}}", serde_json::json!(ucis));
    let mut calls = Vec::new();
    let text = guoxiang_engine_wasm::judge_game_text(&request, &mut |d, t| calls.push((d, t))).expect("judged");
    assert_eq!(calls.last(), Some(&(18, 18)), "two judges, nine positions");
    let start = Position::new();
    let mut p = start.clone();
    let moves: Vec<_> = ucis
        .iter()
        .map(|u| {
            let m = p.parse_uci(u).expect("uci");
            p.play_unchecked(m);
            m
        })
        .collect();
    let options = Options { nodes: 5000, ..Options::default() };
    let judged = judge_game(&start, &moves, &options, &mut Hooks { admit: &no_admit, progress: &mut |_, _| {} })
        .expect("judged");
    assert_eq!(upload::parse(&text).expect("upload"), upload::to_upload(&start, &judged, 5000));
    let bad = |req: &str| guoxiang_engine_wasm::judge_game_text(req, &mut |_, _| {}).expect_err(req);
    assert!(bad("{\"moves\":[\"e2e5\"],\"nodes\":5000}").starts_with("move 1: e2e5"));
    assert!(bad("{\"moves\":[],\"nodes\":0}").starts_with("nodes: 0"));
    assert!(bad("{\"moves\":[]}").contains("missing field `nodes`"));
}
