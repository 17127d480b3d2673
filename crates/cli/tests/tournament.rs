// SPDX-License-Identifier: GPL-3.0-or-later
//! `guoxiang tournament berger`, `standings` and `pair`, run as a user would run them.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn guoxiang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_guoxiang")).args(args).output().expect("run guoxiang")
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guoxiang-tournament-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, contents).expect("write temp file");
    p
}

const SMALL: &str = include_str!("../../tournament/tests/small.trf");

#[test]
fn berger_json_is_fides_table() {
    let o = guoxiang(&["tournament", "berger", "4", "--json"]);
    assert!(o.status.success());
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v, serde_json::json!([[[1, 4], [2, 3]], [[4, 3], [1, 2]], [[2, 4], [3, 1]]]));
    // Odd: 5 players use the table of 6, 6 being the bye.
    let o = guoxiang(&["tournament", "berger", "5", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[1], serde_json::json!([[6, 4], [5, 3], [1, 2]]));
    let o = guoxiang(&["tournament", "berger", "4", "--double", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 6);
    assert_eq!(v[3], serde_json::json!([[4, 1], [3, 2]]));
    let o = guoxiang(&["tournament", "berger", "6"]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("Round   5:"), "{text}");
    let o = guoxiang(&["tournament", "berger", "1", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("at least 2 players"));
}

#[test]
fn standings_json_and_table() {
    let f = temp_file("small.trf", SMALL);
    let o = guoxiang(&["tournament", "standings", f.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0]["start_number"], 1);
    assert_eq!(rows[0]["name"], "Li, Wei");
    assert_eq!(rows[0]["rating"], 2000);
    assert_eq!(rows[0]["score"], 2.5);
    assert_eq!(rows[0]["rank"], 1);
    let tb = &rows[0]["tie_breaks"];
    for k in ["BH", "BH-C1", "BH-M1", "SB", "DE", "WIN", "WON", "BPG", "BWG", "PS", "ARO"] {
        assert!(tb.get(k).is_some(), "{k} missing in {tb}");
    }
    assert_eq!(tb["BH"], 5.5);
    assert_eq!(tb["SB"], 4.75);
    assert_eq!(rows[1]["start_number"], 5);
    let o = guoxiang(&["tournament", "standings", f.to_str().unwrap()]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("BH-C1") && text.contains("Li, Wei"), "{text}");
}

#[test]
fn a_bad_file_names_the_line() {
    let bad = SMALL.replace("0002 w 1", "0042 w 1");
    let f = temp_file("bad.trf", &bad);
    let o = guoxiang(&["tournament", "standings", f.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 8, column 92") && err.contains("opponent 42"), "{err}");
    assert!(!err.contains("panicked"));
    let o = guoxiang(&["tournament", "standings", "/nonexistent/x.trf"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn pair_prints_the_next_round_as_bbp_does() {
    // small.trf has played 3 rounds; with XXR 4 the fourth can be paired. The expected lines are what
    // bbpPairings prints for the same file.
    let f = temp_file("pair.trf", &SMALL.replace("XXR 3", "XXR 4"));
    let o = guoxiang(&["tournament", "pair", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8(o.stdout).unwrap(), "3\n1 4\n2 5\n3 0\n");
    let o = guoxiang(&["tournament", "pair", f.to_str().unwrap(), "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v, serde_json::json!({"boards": [{"white": 1, "black": 4}, {"white": 2, "black": 5}], "bye": 3}));
    // All rounds played: an error, not a pairing.
    let f = temp_file("over.trf", SMALL);
    let o = guoxiang(&["tournament", "pair", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("all 3 rounds have been played"));
    // A bad XXP line names its line and column.
    let f = temp_file("xxp.trf", &SMALL.replace("XXR 3", "XXR 4\nXXP 1 x"));
    let o = guoxiang(&["tournament", "pair", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 8, column 7") && err.contains("XXP"), "{err}");
}
