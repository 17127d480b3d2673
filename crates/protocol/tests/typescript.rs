//! `web/src/protocol.ts` is generated from the Rust types and must be up to date. To regenerate:
//! `cargo run -p guoxiang-protocol --bin gen-ts` (or run this test with `GUOXIANG_BLESS=1`).

use std::path::PathBuf;

use guoxiang_protocol::{TS_OUTPUT_PATH, typescript};

fn committed_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(TS_OUTPUT_PATH)
}

#[test]
fn committed_typescript_is_up_to_date() {
    let fresh = typescript();
    let path = committed_path();
    if std::env::var_os("GUOXIANG_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale: regenerate it with `cargo run -p guoxiang-protocol --bin gen-ts`",
        path.display()
    );
}

#[test]
fn typescript_has_no_any_and_declares_every_type() {
    let ts = typescript();
    for bad in [": any", "<any>", "any,", "any;", "any |", "| any", ": unknown", "<unknown>", "bigint"] {
        assert!(!ts.contains(bad), "found {bad:?} in the bindings");
    }
    for name in [
        "ClientMessage",
        "ServerMessage",
        "GameEvent",
        "VersionedGameEvent",
        "GameSnapshot",
        "IllegalMoveReason",
        "Clocks",
        "Color",
        "Seek",
        "Challenge",
    ] {
        assert!(ts.contains(&format!("export type {name} = ")), "{name}");
    }
    // Every referenced type is declared in the file (no dangling imports).
    assert!(!ts.contains("import "));
    let code: String = ts
        .lines()
        .filter(|l| !l.trim_start().starts_with("//") && !l.trim_start().starts_with('*') && !l.starts_with("/**"))
        .collect::<Vec<_>>()
        .join("\n");
    for part in code.split([':', '<', '|', '&', '(']).skip(1) {
        let part = part.trim_start();
        let name: String = part.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if name.starts_with(|c: char| c.is_ascii_uppercase()) && name != "Array" {
            assert!(ts.contains(&format!("export type {name} = ")), "{name} is used but not declared");
        }
    }
    for typed in [
        "result: GameResult",
        "termination: TerminationCode",
        "reason: AbortReasonCode",
        "code: ReasonCode",
        "code: ErrorCode",
        "kind: ClaimKind",
    ] {
        assert!(ts.contains(typed), "{typed}");
    }
    assert!(ts.contains("export const PROTOCOL_VERSION = 3;"));
    assert!(ts.contains(r#"{ "t": "game", id: number, game_id: string, action: Action, lag_ms?: number, }"#));
    assert!(ts.contains(r#"export type Action = { "t": "move", uci: string, offer_draw?: boolean, }"#));
    assert!(ts.contains(r#"{ "t": "subscribe", id: number, game_id: string, since_version?: number, }"#));
}

#[test]
fn committed_review_typescript_is_up_to_date() {
    let fresh = guoxiang_protocol::review_typescript();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(guoxiang_protocol::TS_REVIEW_OUTPUT_PATH);
    if std::env::var_os("GUOXIANG_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale: regenerate it with `cargo run -p guoxiang-protocol --bin gen-ts`",
        path.display()
    );
}

#[test]
fn committed_http_typescript_is_up_to_date() {
    let fresh = guoxiang_protocol::http_typescript();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(guoxiang_protocol::TS_HTTP_OUTPUT_PATH);
    if std::env::var_os("GUOXIANG_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale: regenerate it with `cargo run -p guoxiang-protocol --bin gen-ts`",
        path.display()
    );
}
