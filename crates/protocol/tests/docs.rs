//! Every one-line JSON message in `docs/api.md` is a valid client or server message, and the doc lists every
//! message type.

use guoxiang_protocol::{ClientMessage, PROTOCOL_ERROR_CODES, ServerMessage};
use serde_json::Value;

fn api_md() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md")).unwrap()
}

#[test]
fn json_examples_in_the_docs_are_valid_messages() {
    let doc = api_md();
    let mut n = 0;
    for line in doc.lines().map(str::trim).filter(|l| l.starts_with(r#"{"t":"#)) {
        n += 1;
        let client = serde_json::from_str::<ClientMessage>(line);
        let server = serde_json::from_str::<ServerMessage>(line);
        assert!(client.is_ok() || server.is_ok(), "{line}\nclient: {client:?}\nserver: {server:?}");
        // Written exactly as the server/client would write it.
        let again = match (client, server) {
            (Ok(c), _) => serde_json::to_string(&c).unwrap(),
            (_, Ok(s)) => s.to_json(),
            _ => unreachable!(),
        };
        assert_eq!(serde_json::from_str::<Value>(&again).unwrap(), serde_json::from_str::<Value>(line).unwrap());
    }
    assert!(n >= 15, "only {n} examples");
}

#[test]
fn docs_list_every_error_code() {
    let doc = api_md();
    for code in PROTOCOL_ERROR_CODES {
        assert!(doc.contains(&format!("| `{code}` |")), "{code}");
    }
}
