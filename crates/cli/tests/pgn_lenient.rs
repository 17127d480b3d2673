// SPDX-License-Identifier: GPL-3.0-or-later
//! `guoxiang pgn` on lenient input: UCI movetext, null moves (kept, written back as `--`, marked in `--json`), and
//! error columns in characters.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn guoxiang_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_guoxiang"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run guoxiang");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("wait");
    feeder.join().expect("feeder thread").expect("write stdin");
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8")
}

fn json_lines(s: &str) -> Vec<Value> {
    s.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

const GAMES: &str = "\
[Event \"uci\"]
[Result \"*\"]

e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 *

[Event \"nulls\"]
[Result \"*\"]

1. e4 -- 2. d4 Z0 (2... d5 3. -- c5) 3. c4 0000 4. Nc3 @@@@ *
";

#[test]
fn uci_and_null_moves_are_read_written_back_and_marked_in_json() {
    let o = guoxiang_stdin(&["pgn", "-"], GAMES);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O *"), "{out}");
    assert!(out.contains("1. e4 -- 2. d4 -- (2... d5 3. -- c5) 3. c4 -- 4. Nc3 -- *"), "{out}");
    // What it writes reads back the same.
    let again = guoxiang_stdin(&["pgn", "-"], &out);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), out);

    let o = guoxiang_stdin(&["pgn", "-", "--json"], GAMES);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let games = json_lines(&text(&o.stdout));
    assert_eq!(games.len(), 2);
    let ucis: Vec<&str> = games[0]["moves"].as_array().unwrap().iter().map(|m| m["uci"].as_str().unwrap()).collect();
    assert_eq!(ucis, ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"]);
    assert!(games[0]["moves"].as_array().unwrap().iter().all(|m| m.get("null").is_none()));
    let moves = games[1]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8);
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 1 {
            assert_eq!(m, &serde_json::json!({"uci": "0000", "san": "--", "null": true}));
        } else {
            assert!(m.get("null").is_none(), "{m}");
        }
    }
    assert_eq!(games[1]["final_fen"], "rnbqkbnr/pppppppp/8/8/2PPP3/2N5/PP3PPP/R1BQKBNR w KQkq - 3 5");
    assert_eq!(games[1]["errors"], serde_json::json!([]));
}

#[test]
fn a_null_move_in_check_is_reported_with_its_character_column() {
    let pgn = "[Event \"将军\"]\n\n1. e4 {中文注释} f6 2. Qh5+ -- *\n";
    let o = guoxiang_stdin(&["pgn", "-", "--json"], pgn);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    // `1. e4 {中文注释} f6 2. Qh5+ ` is 24 characters (32 bytes).
    assert!(
        err.contains(
            "game 1, line 3, column 25: move 2... --: a null move is not allowed in check (the king could be taken)"
        ),
        "{err}"
    );
    let games = json_lines(&text(&o.stdout));
    assert_eq!(games[0]["moves"].as_array().unwrap().len(), 3);
}
