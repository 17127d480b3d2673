//! Every message variant survives JSON serialize → deserialize unchanged, and the samples cover every variant.

mod common;

use std::collections::BTreeSet;

use guoxiang_protocol::{ClientMessage, ServerMessage, parse_client_frame};
use serde_json::Value;
use ts_rs::{Config, TS};

/// The tags a TypeScript union declares (`{ "t": "move", …`), i.e. the variants of the Rust enum.
fn declared_tags(decl: &str, tag: &str) -> BTreeSet<String> {
    let prefix = format!("{{ \"{tag}\": \"");
    decl.split(&prefix).skip(1).map(|s| s.split('"').next().unwrap().to_owned()).collect()
}

fn sample_tags(json: impl Iterator<Item = String>, tag: &str) -> BTreeSet<String> {
    json.map(|j| serde_json::from_str::<Value>(&j).unwrap()[tag].as_str().unwrap().to_owned()).collect()
}

#[test]
fn client_messages_round_trip() {
    for m in common::client_samples() {
        let json = serde_json::to_string(&m).unwrap();
        let back: ClientMessage = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(back, m, "{json}");
        assert_eq!(parse_client_frame(&json).unwrap(), m);
        assert_eq!(back.id(), m.id());
        // `kind()` is the wire's `t`, one of `KINDS`.
        let v: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["t"].as_str(), Some(m.kind()), "{json}");
    }
    let kinds: BTreeSet<&str> = common::client_samples().iter().map(ClientMessage::kind).collect();
    assert_eq!(kinds, ClientMessage::KINDS.iter().copied().collect(), "KINDS lists every message type once");
    assert_eq!(ClientMessage::KINDS.len(), kinds.len());
}

#[test]
fn server_messages_round_trip() {
    for m in common::server_samples() {
        let json = m.to_json();
        let back: ServerMessage = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(back, m, "{json}");
    }
}

#[test]
fn samples_cover_every_variant() {
    let cfg = Config::new();
    let client = sample_tags(common::client_samples().iter().map(|m| serde_json::to_string(m).unwrap()), "t");
    assert_eq!(client, declared_tags(&ClientMessage::decl(&cfg), "t"));
    assert_eq!(client.len(), 23);
    // Every player action, inside `game` messages.
    let actions: BTreeSet<String> = common::client_samples()
        .iter()
        .filter_map(|m| match m {
            ClientMessage::Game { action, .. } => Some(serde_json::to_value(action).unwrap()["t"].as_str()?.to_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(actions, declared_tags(&guoxiang_protocol::Action::decl(&cfg), "t"));
    assert_eq!(actions.len(), 20);
    let server = sample_tags(common::server_samples().iter().map(ServerMessage::to_json), "t");
    assert_eq!(server, declared_tags(&ServerMessage::decl(&cfg), "t"));
    assert_eq!(server.len(), 22);
    let events = sample_tags(common::events().iter().map(|e| serde_json::to_string(e).unwrap()), "type");
    assert_eq!(events, declared_tags(&guoxiang_protocol::GameEvent::decl(&cfg), "type"));
    assert_eq!(events.len(), 29);
}

#[test]
fn ids_and_game_ids() {
    for m in common::client_samples() {
        let v: Value = serde_json::to_value(&m).unwrap();
        assert_eq!(v["id"].as_u64(), Some(u64::from(m.id())));
        assert_eq!(v.get("game_id").and_then(Value::as_str), m.game_id());
    }
}
