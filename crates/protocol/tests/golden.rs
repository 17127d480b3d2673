//! The wire format, byte for byte: if one of these fails, the protocol changed — bump `PROTOCOL_VERSION`, update
//! `docs/api.md` and regenerate `web/src/protocol.ts`.

mod common;

use guoxiang_protocol::*;

fn client(json: &str, m: ClientMessage) {
    assert_eq!(serde_json::to_string(&m).unwrap(), json);
    assert_eq!(parse_client_frame(json).unwrap(), m);
}

fn server(json: &str, m: ServerMessage) {
    assert_eq!(m.to_json(), json);
    assert_eq!(serde_json::from_str::<ServerMessage>(json).unwrap(), m);
}

#[test]
fn golden_client_messages() {
    client(
        r#"{"t":"hello","id":1,"protocol":1,"lang":"zh"}"#,
        ClientMessage::Hello { id: 1, protocol: 1, lang: Lang::Zh },
    );
    client(
        r#"{"t":"subscribe","id":2,"game_id":"abcd1234","since_version":12}"#,
        ClientMessage::Subscribe { id: 2, game_id: "abcd1234".into(), since_version: Some(12) },
    );
    client(
        r#"{"t":"subscribe","id":3,"game_id":"abcd1234"}"#,
        ClientMessage::Subscribe { id: 3, game_id: "abcd1234".into(), since_version: None },
    );
    client(
        r#"{"t":"game","id":5,"game_id":"abcd1234","action":{"t":"move","uci":"e7e8q","offer_draw":false},"lag_ms":40}"#,
        ClientMessage::Game { id: 5, game_id: "abcd1234".into(), action: Action::uci("e7e8q"), lag_ms: 40 },
    );
    client(
        r#"{"t":"game","id":9,"game_id":"abcd1234","action":{"t":"claim_draw","kind":"threefold_repetition","intended":"g1f3"},"lag_ms":0}"#,
        ClientMessage::Game {
            id: 9,
            game_id: "abcd1234".into(),
            action: Action::ClaimDraw {
                kind: guoxiang_game::ClaimKind::ThreefoldRepetition,
                intended: Some(guoxiang_game::MoveInput::uci("g1f3")),
            },
            lag_ms: 0,
        },
    );
    client(
        r#"{"t":"game","id":6,"game_id":"abcd1234","action":{"t":"rematch_offer"},"lag_ms":0}"#,
        ClientMessage::Game { id: 6, game_id: "abcd1234".into(), action: Action::RematchOffer, lag_ms: 0 },
    );
    client(
        r#"{"t":"explain","id":10,"game_id":"abcd1234","from":"e2","to":"e5"}"#,
        ClientMessage::Explain {
            id: 10,
            game_id: "abcd1234".into(),
            from: "e2".into(),
            to: "e5".into(),
            promotion: None,
        },
    );
    client(
        r#"{"t":"create_seek","id":11,"time_control":"300+3","rated":true,"color":"random"}"#,
        ClientMessage::CreateSeek {
            id: 11,
            time_control: "300+3".into(),
            rated: true,
            color: ColorChoice::Random,
            variant: StartChoice::Standard,
        },
    );
    client(r#"{"t":"ping","id":12,"client_time_ms":5000}"#, ClientMessage::Ping { id: 12, client_time_ms: 5000 });
    client(
        r#"{"t":"play_computer","id":13,"level":1,"color":"white","time_control":"-","fen":"4k3/8/8/8/8/8/8/3QK3 w - - 0 1"}"#,
        ClientMessage::PlayComputer {
            id: 13,
            level: 1,
            color: ColorChoice::White,
            time_control: "-".into(),
            fen: Some("4k3/8/8/8/8/8/8/3QK3 w - - 0 1".into()),
            variant: StartChoice::Standard,
            rules: None,
        },
    );
}

#[test]
fn defaults_of_optional_client_fields() {
    assert_eq!(
        parse_client_frame(r#"{"t":"hello","id":1,"protocol":1}"#).unwrap(),
        ClientMessage::Hello { id: 1, protocol: 1, lang: Lang::Zh }
    );
    assert_eq!(
        parse_client_frame(r#"{"id":5,"action":{"uci":"e2e4","t":"move"},"game_id":"g","t":"game"}"#).unwrap(),
        ClientMessage::Game { id: 5, game_id: "g".into(), action: Action::uci("e2e4"), lag_ms: 0 }
    );
    assert_eq!(
        parse_client_frame(r#"{"t":"subscribe","id":3,"game_id":"g","since_version":null}"#).unwrap(),
        ClientMessage::Subscribe { id: 3, game_id: "g".into(), since_version: None }
    );
    // Clients from before the Learn course send no `fen`: the usual start.
    assert_eq!(
        parse_client_frame(r#"{"t":"play_computer","id":4,"level":3,"color":"black","time_control":"300+0"}"#).unwrap(),
        ClientMessage::PlayComputer {
            id: 4,
            level: 3,
            color: ColorChoice::Black,
            time_control: "300+0".into(),
            fen: None,
            variant: StartChoice::Standard,
            rules: None,
        }
    );
}

#[test]
fn golden_server_messages() {
    server(r#"{"t":"ack","id":5}"#, ServerMessage::Ack { id: 5 });
    server(
        r#"{"t":"error","id":5,"code":"not_your_turn","message_zh":"还没轮到你","message_en":"not your turn"}"#,
        ServerMessage::Error {
            id: Some(5),
            code: "not_your_turn".into(),
            message_zh: "还没轮到你".into(),
            message_en: "not your turn".into(),
        },
    );
    server(
        concat!(
            r#"{"t":"game_events","game_id":"abcd1234","events":["#,
            r#"{"version":3,"type":"move_made","by":"white","uci":"g1f3","san":"Nf3","#,
            r#""fen":"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2","ply":3,"#,
            r#""clocks":{"white_ms":178000,"black_ms":180000}},"#,
            r#"{"version":4,"type":"draw_offered","by":"white"}]}"#
        ),
        ServerMessage::GameEvents {
            game_id: "abcd1234".into(),
            events: vec![
                VersionedGameEvent {
                    version: 3,
                    event: GameEvent::MoveMade {
                        by: Color::White,
                        uci: "g1f3".into(),
                        san: "Nf3".into(),
                        fen: "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2".into(),
                        ply: 3,
                        clocks: common::clocks(),
                    },
                },
                VersionedGameEvent { version: 4, event: GameEvent::DrawOffered { by: Color::White } },
            ],
        },
    );
    server(
        r#"{"t":"clocks","game_id":"g","white_ms":61000,"black_ms":59500,"running":"black","server_time_ms":1764500000000}"#,
        ServerMessage::Clocks {
            game_id: "g".into(),
            white_ms: 61_000,
            black_ms: 59_500,
            running: Some(Color::Black),
            server_time_ms: 1_764_500_000_000,
        },
    );
    server(
        r#"{"t":"pong","id":12,"client_time_ms":5000,"server_time_ms":1764500000000}"#,
        ServerMessage::Pong { id: 12, client_time_ms: 5000, server_time_ms: 1_764_500_000_000 },
    );
}

#[test]
fn golden_explanation_from_the_rules() {
    // The white rook on e2 is pinned by the black rook on e7 against the king on e1.
    let pos = guoxiang_core::Position::from_fen("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1").unwrap();
    let sq = |s: &str| guoxiang_core::types::Square::parse(s).unwrap();
    let e = pos.explain(sq("e2"), sq("d2"), None);
    let m = ServerMessage::explanation(21, "g", &e);
    let ServerMessage::Explanation { legal: false, reason: Some(r), .. } = &m else { panic!("{m:?}") };
    assert_eq!(r.code, "pinned");
    assert_eq!(r.squares[0], "e2");
    assert!(r.squares.contains(&"e7".to_owned()) && r.squares.contains(&"e1".to_owned()), "{:?}", r.squares);
    assert!(!r.message_zh.is_empty() && !r.message_en.is_empty());
    // The example of docs/api.md.
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md")).unwrap();
    let json = ServerMessage::explanation(10, "abcd1234", &e).to_json();
    assert!(doc.contains(&json), "docs/api.md should show\n{json}");
    let legal = ServerMessage::explanation(22, "g", &pos.explain(sq("e2"), sq("e5"), None));
    assert_eq!(legal.to_json(), r#"{"t":"explanation","id":22,"game_id":"g","legal":true,"reason":null}"#);
}
