//! Frames that are not client messages give a clear error, never a panic; oversized frames are not parsed.

use guoxiang_protocol::{MAX_CLIENT_FRAME_BYTES, ProtocolError, ServerMessage, check_frame_size, parse_client_frame};

fn bad(frame: &str) -> (Option<u32>, String) {
    match parse_client_frame(frame) {
        Err(ProtocolError::BadMessage { id, detail }) => (id, detail),
        other => panic!("{}: {other:?}", frame.chars().take(200).collect::<String>()),
    }
}

#[test]
fn unknown_message_type_names_it_and_the_expected_ones() {
    let (id, detail) = bad(r#"{"t":"teleport","id":3}"#);
    assert_eq!(id, Some(3));
    assert!(detail.contains("unknown variant `teleport`"), "{detail}");
    assert!(detail.contains("`game`"), "{detail}");
}

#[test]
fn missing_tag_field_and_type_errors() {
    let (id, detail) = bad(r#"{"id":4,"game_id":"g"}"#);
    assert_eq!(id, Some(4));
    assert!(detail.contains("missing field `t`"), "{detail}");

    let (_, detail) = bad(r#"{"t":"game","id":5,"game_id":"g","action":{"t":"move"}}"#);
    assert!(detail.contains("missing field `uci`"), "{detail}");

    let (_, detail) = bad(r#"{"t":"game","id":5,"game_id":"g","action":{"t":"move","uci":"e2e4","ofer_draw":true}}"#);
    assert!(detail.contains("unknown field `ofer_draw`"), "{detail}");

    // The action's own tag and fields are checked as strictly, unit actions included.
    let (id, detail) = bad(r#"{"t":"game","id":8,"game_id":"g","action":{"t":"resign","now":true}}"#);
    assert_eq!(id, Some(8));
    assert!(detail.contains("unknown field `now`"), "{detail}");
    let (_, detail) = bad(r#"{"t":"game","id":8,"game_id":"g","action":{"t":"castle"}}"#);
    assert!(detail.contains("unknown variant `castle`") && detail.contains("`rematch_offer`"), "{detail}");
    let (_, detail) = bad(r#"{"t":"game","id":8,"game_id":"g"}"#);
    assert!(detail.contains("missing field `action`"), "{detail}");

    let (_, detail) = bad(r#"{"t":"ping","id":6,"client_time_ms":"soon"}"#);
    assert!(detail.contains("invalid type: string \"soon\""), "{detail}");

    let (_, detail) = bad(r#"{"t":"create_seek","id":7,"time_control":"300+3","rated":true,"color":"purple"}"#);
    assert!(detail.contains("unknown variant `purple`"), "{detail}");
}

#[test]
fn ids_that_cannot_be_read() {
    assert_eq!(bad(r#"{"t":"ping","id":-1,"client_time_ms":0}"#).0, None);
    assert_eq!(bad(r#"{"t":"ping","id":4294967296,"client_time_ms":0}"#).0, None);
    assert_eq!(bad(r#"{"t":"ping","id":"7"}"#).0, None);
}

#[test]
fn not_json_at_all() {
    for frame in
        ["", "   ", "null", "[]", "42", "\"move\"", "{", r#"{"t":"move""#, "{\"t\":\"ping\",\"id\":1}}", "\u{feff}{}"]
    {
        let (id, detail) = bad(frame);
        assert_eq!(id, None, "{frame:?}");
        assert!(!detail.is_empty(), "{frame:?}");
    }
    let (_, detail) = bad("{\n  \"t\": \"ping\",\n  \"id\": 1,\n  oops\n}");
    assert!(detail.contains("line 4"), "{detail}");
}

#[test]
fn error_answer_carries_the_id_and_the_detail() {
    let e = parse_client_frame(r#"{"t":"game","id":9,"action":{"t":"resign"}}"#).unwrap_err();
    let ServerMessage::Error { id, code, message_zh, message_en } = ServerMessage::protocol_error(None, &e) else {
        panic!()
    };
    assert_eq!(id, Some(9));
    assert_eq!(code, "bad_message");
    assert!(message_en.contains("missing field `game_id`"), "{message_en}");
    assert!(message_zh.contains("missing field `game_id`"), "{message_zh}");
}

#[test]
fn frame_size_limit() {
    let pad = |n: usize| {
        let head = r#"{"t":"ping","id":1,"client_time_ms":0}"#;
        format!("{head}{}", " ".repeat(n - head.len()))
    };
    assert!(parse_client_frame(&pad(MAX_CLIENT_FRAME_BYTES)).is_ok());
    let big = pad(MAX_CLIENT_FRAME_BYTES + 1);
    assert_eq!(check_frame_size(&big), Err(ProtocolError::FrameTooLarge { len: MAX_CLIENT_FRAME_BYTES + 1 }));
    assert_eq!(parse_client_frame(&big), Err(ProtocolError::FrameTooLarge { len: MAX_CLIENT_FRAME_BYTES + 1 }));
    // Multi-byte characters count as bytes.
    let zh = format!(
        r#"{{"t":"game","id":1,"game_id":"{}","action":{{"t":"resign"}}}}"#,
        "象".repeat(MAX_CLIENT_FRAME_BYTES / 3)
    );
    assert!(matches!(parse_client_frame(&zh), Err(ProtocolError::FrameTooLarge { .. })));
    let e = ServerMessage::protocol_error(Some(1), &ProtocolError::FrameTooLarge { len: 70_000 });
    assert_eq!(
        e.to_json(),
        r#"{"t":"error","id":1,"code":"frame_too_large","message_zh":"消息太长（70000 字节，上限 65536 字节）","message_en":"message too large (70000 bytes, the limit is 65536)"}"#
    );
}

#[test]
fn deeply_nested_json_does_not_overflow() {
    for (open, close, n) in [("[", "]", 10_000), (r#"{"t":"ping","id":1,"client_time_ms":"#, "}", 1_000)] {
        let frame = format!("{}{}", open.repeat(n), close.repeat(n));
        let detail = bad(&frame).1;
        assert!(detail.contains("recursion limit") || detail.contains("invalid type"), "{detail}");
    }
}

#[test]
fn protocol_error_codes_are_listed() {
    use ProtocolError::*;
    let all = [
        FrameTooLarge { len: 1 },
        BadMessage { id: None, detail: String::new() },
        UnsupportedProtocol { client: 2 },
        HelloRequired,
        UnknownGame { game_id: "g".into() },
        NotAPlayer { game_id: "g".into() },
        BadRequest { detail: "x".into() },
    ];
    let codes: Vec<&str> = all.iter().map(ProtocolError::code).collect();
    assert_eq!(codes, guoxiang_protocol::PROTOCOL_ERROR_CODES);
    for e in &all {
        let t = e.text();
        assert!(!t.zh.is_empty() && !t.en.is_empty() && e.to_string() == t.en);
    }
}
