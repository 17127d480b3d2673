//! One sample of every message variant, shared by the tests.

#![allow(dead_code)]

use guoxiang_game::MoveInput;
use guoxiang_protocol::*;

pub fn player(id: &str, name: &str) -> Player {
    Player { id: id.into(), name: name.into(), is_engine: false, engine_level: None }
}

pub fn clocks() -> Option<Clocks> {
    Some(Clocks { white_ms: 178_000, black_ms: 180_000 })
}

pub fn client_samples() -> Vec<ClientMessage> {
    use ClientMessage::*;
    let g = || "abcd1234".to_string();
    vec![
        Hello { id: 1, protocol: PROTOCOL_VERSION, lang: Lang::En },
        Subscribe { id: 2, game_id: g(), since_version: Some(12) },
        Subscribe { id: 3, game_id: g(), since_version: None },
        Unsubscribe { id: 4, game_id: g() },
        Game { id: 5, game_id: g(), action: Action::Move { mv: MoveInput::uci("e2e4"), offer_draw: true }, lag_ms: 87 },
        Game { id: 6, game_id: g(), action: Action::Resign, lag_ms: 0 },
        Game { id: 7, game_id: g(), action: Action::OfferDraw, lag_ms: 0 },
        Game { id: 8, game_id: g(), action: Action::AcceptDraw, lag_ms: 0 },
        Game { id: 9, game_id: g(), action: Action::DeclineDraw, lag_ms: 0 },
        Game {
            id: 10,
            game_id: g(),
            action: Action::ClaimDraw {
                kind: guoxiang_game::ClaimKind::ThreefoldRepetition,
                intended: Some(MoveInput::uci("g1f3")),
            },
            lag_ms: 0,
        },
        Game {
            id: 11,
            game_id: g(),
            action: Action::ClaimDraw { kind: guoxiang_game::ClaimKind::FiftyMoves, intended: None },
            lag_ms: 0,
        },
        Game { id: 12, game_id: g(), action: Action::Abort, lag_ms: 0 },
        Game { id: 13, game_id: g(), action: Action::TakebackOffer, lag_ms: 0 },
        Game { id: 14, game_id: g(), action: Action::TakebackAccept, lag_ms: 0 },
        Game { id: 15, game_id: g(), action: Action::TakebackDecline, lag_ms: 0 },
        Game { id: 16, game_id: g(), action: Action::ClaimVictory, lag_ms: 0 },
        Game { id: 17, game_id: g(), action: Action::RematchOffer, lag_ms: 0 },
        Game { id: 18, game_id: g(), action: Action::RematchAccept, lag_ms: 0 },
        Game { id: 19, game_id: g(), action: Action::RematchDecline, lag_ms: 0 },
        Game { id: 19, game_id: g(), action: Action::Touch { square: "g1".into() }, lag_ms: 0 },
        Game { id: 19, game_id: g(), action: Action::Adjust { square: "b1".into() }, lag_ms: 0 },
        Game { id: 19, game_id: g(), action: Action::AdjournOffer, lag_ms: 0 },
        Game { id: 19, game_id: g(), action: Action::Seal { mv: "Nf3".into() }, lag_ms: 0 },
        Game { id: 19, game_id: g(), action: Action::ProposeResumption { at_ms: 1_764_600_000_000 }, lag_ms: 0 },
        Game {
            id: 19,
            game_id: g(),
            action: Action::CallArbiter { reason: "my opponent's phone rang".into() },
            lag_ms: 0,
        },
        Arbiter { id: 40, game_id: g(), act: ArbiterAct::Pause },
        Arbiter { id: 41, game_id: g(), act: ArbiterAct::Resume },
        Arbiter { id: 42, game_id: g(), act: ArbiterAct::AddTime { color: guoxiang_game::Color::White, ms: 120_000 } },
        Arbiter {
            id: 43,
            game_id: g(),
            act: ArbiterAct::Decide { uphold: false, ruling: "no phone was heard".into() },
        },
        Arbiter {
            id: 44,
            game_id: g(),
            act: ArbiterAct::SetResult {
                result: "0-1".into(),
                reason: "Article 11.3.2: a phone in the playing venue".into(),
                infraction: true,
            },
        },
        Arbiter { id: 45, game_id: g(), act: ArbiterAct::CallAdjournment },
        Arbiter { id: 46, game_id: g(), act: ArbiterAct::ScheduleResumption { at_ms: 1_764_600_000_000 } },
        Arbiter { id: 47, game_id: g(), act: ArbiterAct::OpenSealedMove },
        Ping { id: 20, client_time_ms: 1_764_500_000_123 },
        Explain { id: 21, game_id: g(), from: "e7".into(), to: "e8".into(), promotion: Some(PromotionRole::King) },
        Explain { id: 22, game_id: g(), from: "e1".into(), to: "g1".into(), promotion: None },
        LobbySubscribe { id: 23 },
        LobbyUnsubscribe { id: 24 },
        CreateSeek {
            id: 25,
            time_control: "300+3".into(),
            rated: true,
            color: ColorChoice::Random,
            variant: StartChoice::Standard,
        },
        CreateSeek {
            id: 36,
            time_control: "600+0".into(),
            rated: false,
            color: ColorChoice::Random,
            variant: StartChoice::Chess960 { position: None },
        },
        CancelSeek { id: 26, seek_id: "s1".into() },
        AcceptSeek { id: 27, seek_id: "s2".into() },
        JoinPool { id: 28, time_control: "180+2".into(), rated: false },
        LeavePool { id: 29 },
        PlayComputer {
            id: 30,
            level: 4,
            color: ColorChoice::Black,
            time_control: "-".into(),
            fen: None,
            variant: StartChoice::Chess960 { position: Some(518) },
            rules: None,
        },
        PlayComputer {
            id: 35,
            level: 1,
            color: ColorChoice::White,
            time_control: "-".into(),
            fen: Some("4k3/8/8/8/8/8/8/3QK3 w - - 0 1".into()),
            variant: StartChoice::Standard,
            rules: Some("touch_move".into()),
        },
        ChallengeFriend {
            id: 31,
            time_control: "600+0".into(),
            rated: false,
            color: ColorChoice::White,
            variant: StartChoice::Standard,
            rules: Some("king_into_check+adjournment".into()),
        },
        AcceptChallenge { id: 32, challenge_id: "c1".into() },
        DeclineChallenge { id: 33, challenge_id: "c1".into() },
        CancelChallenge { id: 34, challenge_id: "c1".into() },
        StudyFollow { id: 35, study: "s1".into() },
        StudyUnfollow { id: 36, study: "s1".into() },
        StudyPresent { id: 37, study: "s1".into(), chapter: 1, path: vec![3, 0, 1] },
        StudyRelease { id: 38, study: "s1".into() },
    ]
}

/// One of every `guoxiang-game` event, with sample values.
pub fn game_events() -> Vec<guoxiang_game::Event> {
    use guoxiang_game::Color;
    use guoxiang_game::Event::*;
    let clocks = Some(guoxiang_game::Clocks { white_ms: 178_000, black_ms: 180_000 });
    let (w, b) = (Color::White, Color::Black);
    vec![
        MoveMade {
            by: w,
            uci: "e2e4".into(),
            san: "e4".into(),
            fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
            ply: 1,
            clocks,
        },
        DrawOffered { by: w },
        DrawDeclined { by: b },
        DrawClaimRejected {
            by: b,
            kind: "fifty_moves".into(),
            penalty_ms: 120_000,
            message_zh: "提和要求不成立".into(),
            message_en: "incorrect claim".into(),
        },
        ClockUpdate { clocks: None },
        TakebackOffered { by: b },
        TakebackDeclined { by: w },
        TakebackCancelled,
        RematchOffered { by: w },
        RematchDeclined { by: Color::Black },
        RematchAgreed,
        TakebackDone { plies: 2, fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(), clocks },
        PlayerDisconnected { who: w },
        PlayerReconnected { who: w },
        Adjourned { clocks },
        Resumed { clocks },
        GameEnded {
            result: "1-0".into(),
            termination: "checkmate".into(),
            winner: Some(w),
            message_zh: "白方将杀获胜".into(),
            message_en: "White wins by checkmate".into(),
            clocks: None,
        },
        Aborted {
            reason: "player".into(),
            by: b,
            message_zh: "黑方取消了对局".into(),
            message_en: "Black aborted".into(),
        },
        PieceTouched {
            by: w,
            square: "g1".into(),
            binding: true,
            message_zh: "你已摸了马g1，必须走马".into(),
            message_en: "You touched your knight on g1: you must move it".into(),
        },
        PieceAdjusted { by: w, square: "b1".into() },
        AdjournmentOffered { by: w },
        AdjournmentCalled { to_seal: b },
        MoveSealed { by: b, clocks },
        ResumptionProposed { by: w, at_ms: 1_764_600_000_000 },
        ResumptionScheduled { at_ms: 1_764_600_000_000 },
        SealedMoveOpened {
            by: b,
            text: "Nf6".into(),
            valid: true,
            message_zh: "封棋着法合乎规则".into(),
            message_en: "The sealed move is legal".into(),
        },
        IllegalMoveCounted {
            by: b,
            uci: "e8e6".into(),
            count: 1,
            limit: 2,
            penalty_ms: 120_000,
            message_zh: "黑方不合规则的着法".into(),
            message_en: "Black's illegal move".into(),
        },
        ArbiterCalled { by: b, reason: "my opponent's phone rang".into() },
        ArbiterActed {
            arbiter: "Wang".into(),
            arbiter_id: "u9".into(),
            act: "add_time".into(),
            message_zh: "裁判Wang给白方加时2:00".into(),
            message_en: "The arbiter Wang gave White 2:00 more".into(),
        },
    ]
}

/// The same events as the protocol sends them: through the `From` conversion the server uses.
pub fn events() -> Vec<GameEvent> {
    game_events().into_iter().map(GameEvent::from).collect()
}

pub fn snapshot() -> GameSnapshot {
    GameSnapshot {
        id: "abcd1234".into(),
        white: player("u1", "Alice"),
        black: Player { id: "engine".into(), name: "国象 4".into(), is_engine: true, engine_level: Some(4) },
        rated: false,
        variant: Variant::Chess960 { fen: "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1".into() },
        time_control: "300+3".into(),
        fen: "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1".into(),
        turn: Color::White,
        moves: vec![MoveInfo { uci: "e2e4".into(), san: "e4".into(), clock_ms: Some(300_000) }],
        clocks: clocks(),
        clock_running: Some(Color::White),
        status: GameStatus::Finished {
            result: "1/2-1/2".into(),
            termination: "agreement".into(),
            winner: None,
            message_zh: "双方同意和棋".into(),
            message_en: "Draw by agreement".into(),
        },
        draw_offer: Some(Color::Black),
        may_offer_draw: [true, false],
        takeback_offer: None,
        rematch_offer: None,
        disconnected: [false, true],
        version: 42,
        rules: Some("touch_move+illegal_moves_count".into()),
        touches: vec!["g1".into()],
        illegal_moves: Some([1, 0]),
        paused: true,
        adjournment: Some(AdjournmentInfo {
            offered_by: None,
            called: false,
            sealed_by: Some(Color::White),
            proposed_by: Some(Color::Black),
            proposed_at_ms: Some(1_764_600_000_000),
            resume_at_ms: None,
            resumed: false,
        }),
        dispute: Some(DisputeInfo { by: Color::Black, reason: "a phone rang".into() }),
        arbiter_notes: vec![ArbiterNote {
            arbiter: "Wang".into(),
            act: "pause".into(),
            message_zh: "裁判Wang暂停了棋钟".into(),
            message_en: "The arbiter Wang paused the clocks".into(),
        }],
    }
}

pub fn server_samples() -> Vec<ServerMessage> {
    use ServerMessage::*;
    let g = || "abcd1234".to_string();
    let seek = Seek {
        id: "s1".into(),
        player: player("u1", "Alice"),
        rating: Some(1500),
        time_control: "300+3".into(),
        rated: true,
        color: ColorChoice::Random,
        variant: StartChoice::Chess960 { position: Some(7) },
    };
    let pool = PoolSize { time_control: "180+2".into(), rated: true, waiting: 3 };
    let live = LiveGame {
        game_id: g(),
        white: player("u1", "Alice"),
        black: player("u2", "Bob"),
        time_control: "60+0".into(),
        rated: true,
        fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
        last_move: Some("e2e4".into()),
        spectators: 7,
    };
    let mut out = vec![
        Hello {
            id: 1,
            protocol: PROTOCOL_VERSION,
            server: "guoxiang 0.1.0".into(),
            user: Some(player("u1", "Alice")),
            playing: vec![g()],
            server_time_ms: 1_764_500_000_000,
        },
        Hello {
            id: 1,
            protocol: PROTOCOL_VERSION,
            server: "guoxiang 0.1.0".into(),
            user: None,
            playing: vec![],
            server_time_ms: 0,
        },
        Ack { id: 5 },
        Error {
            id: Some(5),
            code: "not_your_turn".into(),
            message_zh: "还没轮到你".into(),
            message_en: "not your turn".into(),
        },
        Error { id: None, code: "bad_message".into(), message_zh: "无法识别".into(), message_en: "invalid".into() },
        GameEvents {
            game_id: g(),
            events: events()
                .into_iter()
                .zip(1..)
                .map(|(event, version)| VersionedGameEvent { version, event })
                .collect(),
        },
        GameSnapshot { game_id: g(), snapshot: Box::new(snapshot()) },
        Clocks { game_id: g(), white_ms: 1, black_ms: 2, running: None, server_time_ms: 3 },
        Clocks { game_id: g(), white_ms: 1, black_ms: 2, running: Some(Color::Black), server_time_ms: 3 },
        Pong { id: 20, client_time_ms: 1000, server_time_ms: 1_764_500_000_000 },
        Explanation {
            id: 21,
            game_id: g(),
            legal: false,
            reason: Some(IllegalMoveReason {
                code: "pinned".into(),
                squares: vec!["e2".into(), "e8".into(), "e1".into()],
                message_zh: "牵制".into(),
                message_en: "pinned".into(),
            }),
        },
        Explanation { id: 22, game_id: g(), legal: true, reason: None },
        GameStarted { game_id: g(), color: Color::Black },
        RematchOffered { game_id: g(), by: Color::White },
        RematchDeclined { game_id: g(), by: Color::Black },
        Arbiter { game_id: g() },
        Lobby { seeks: vec![seek.clone()], pools: vec![pool.clone()], games: vec![live.clone()] },
        SeekCreated { id: 25, seek_id: "s1".into() },
        SeekAdded { seek },
        SeekRemoved { seek_id: "s1".into() },
        Pools { pools: vec![pool] },
        LiveGames { games: vec![live] },
        ChallengeCreated { id: 31, challenge_id: "c1".into(), url: "https://example.invalid/c1".into() },
    ];
    for status in [
        ChallengeStatus::Pending,
        ChallengeStatus::Accepted,
        ChallengeStatus::Declined,
        ChallengeStatus::Cancelled,
        ChallengeStatus::Expired,
    ] {
        let accepted = status == ChallengeStatus::Accepted;
        out.push(Challenge {
            challenge: guoxiang_protocol::Challenge {
                id: "c1".into(),
                url: "https://example.invalid/c1".into(),
                challenger: player("u1", "Alice"),
                opponent: accepted.then(|| player("u2", "Bob")),
                time_control: "600+0".into(),
                rated: false,
                color: ColorChoice::White,
                status,
                game_id: accepted.then(g),
                rules: (status == ChallengeStatus::Pending).then(|| "touch_move".into()),
            },
        });
    }
    let shape = |orig: &str, dest: Option<&str>| guoxiang_protocol::StudyShape {
        brush: "green".into(),
        orig: orig.into(),
        dest: dest.map(Into::into),
    };
    out.push(ServerMessage::StudyPosition {
        study: "s1".into(),
        chapter: 0,
        path: vec![4],
        fen: "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2".into(),
        shapes: vec![shape("e4", None), shape("g1", Some("f3"))],
    });
    out.push(ServerMessage::StudyReleased { study: "s1".into() });
    out
}
