//! The load test against a small in-process stand-in for the guoxiang server: just enough of the protocol (guest
//! sessions, `hello`, friend challenges, `subscribe` with snapshots, moves checked by `guoxiang-core`, `resign`) to
//! run whole load tests end to end, including a server that drops connections.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use guoxiang_core::{Color as CoreColor, Position};
use guoxiang_loadtest::{Options, run};

use guoxiang_protocol::{
    Action, ClientMessage, Color, GameEvent, GameSnapshot, GameStatus, MoveInfo, MoveInput, Player, ServerMessage,
    Variant, VersionedGameEvent, parse_client_frame,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::header::COOKIE;

type Tx = mpsc::UnboundedSender<String>;

#[derive(Debug)]
struct MockGame {
    white: String,
    black: String,
    pos: Position,
    moves: Vec<String>,
    version: u64,
    over: bool,
    subscribers: Vec<(u64, Tx)>,
}

#[derive(Debug, Default)]
struct State {
    next: u64,
    sessions: HashMap<String, String>,
    challenges: HashMap<String, (String, Tx)>,
    games: HashMap<String, MockGame>,
    moves: u64,
    /// The server drops the mover's connection after this many moves in total.
    kill_after_moves: Option<u64>,
    /// Every refusal the server sent, to check that the load test plays by the rules.
    refusals: Vec<String>,
}

impl State {
    fn next(&mut self) -> u64 {
        self.next += 1;
        self.next
    }
}

type Shared = Arc<Mutex<State>>;

fn player(id: &str) -> Player {
    Player { id: id.to_owned(), name: format!("Guest {id}"), is_engine: false, engine_level: None }
}

fn send(tx: &Tx, m: &ServerMessage) {
    let _ = tx.send(m.to_json());
}

fn color(c: CoreColor) -> Color {
    c.into()
}

async fn start_mock(kill_after_moves: Option<u64>) -> (String, Shared) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let state: Shared = Arc::new(Mutex::new(State { kill_after_moves, ..State::default() }));
    let st = Arc::clone(&state);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            // Without it an event and its ack, written back to back, wait for the client's delayed ACK (~40 ms).
            stream.set_nodelay(true).unwrap();
            tokio::spawn(serve(stream, Arc::clone(&st)));
        }
    });
    (url, state)
}

async fn serve(stream: TcpStream, state: Shared) {
    let mut head = [0u8; 5];
    loop {
        match stream.peek(&mut head).await {
            Ok(n) if n >= 4 => break,
            Ok(0) | Err(_) => return,
            Ok(_) => tokio::time::sleep(Duration::from_millis(1)).await,
        }
    }
    if head.starts_with(b"POST") { serve_guest(stream, state).await } else { serve_ws(stream, state).await }
}

async fn serve_guest(mut stream: TcpStream, state: Shared) {
    let mut req = Vec::new();
    let mut buf = [0u8; 1024];
    while !req.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => req.extend_from_slice(&buf[..n]),
        }
    }
    assert!(req.starts_with(b"POST /api/guest HTTP/1.1\r\n"), "{}", String::from_utf8_lossy(&req));
    let (user, session) = {
        let mut st = state.lock().unwrap();
        let n = st.next();
        let (user, session) = (format!("u{n}"), format!("secret{n}"));
        st.sessions.insert(session.clone(), user.clone());
        (user, session)
    };
    let body = serde_json::json!({ "user": player(&user), "session": session }).to_string();
    let answer = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nset-cookie: gx_session={session}; Path=/; HttpOnly\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(answer.as_bytes()).await;
    let _ = stream.shutdown().await;
}

// The handshake callback's signature is tungstenite's.
#[allow(clippy::result_large_err)]
async fn serve_ws(stream: TcpStream, state: Shared) {
    let cookie = Arc::new(Mutex::new(None::<String>));
    let slot = Arc::clone(&cookie);
    let check = move |req: &Request, resp: Response| -> Result<Response, ErrorResponse> {
        assert_eq!(req.uri().path(), "/ws");
        let session = req
            .headers()
            .get(COOKIE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').find_map(|kv| kv.trim().strip_prefix("gx_session=")))
            .map(str::to_owned);
        *slot.lock().unwrap() = session;
        Ok(resp)
    };
    let Ok(ws) = tokio_tungstenite::accept_hdr_async(stream, check).await else { return };
    let session = cookie.lock().unwrap().clone();
    let user = session.and_then(|s| state.lock().unwrap().sessions.get(&s).cloned());
    let (mut sink, mut stream) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            if sink.send(Message::text(text)).await.is_err() {
                break;
            }
        }
    });
    let conn = state.lock().unwrap().next();
    while let Some(Ok(frame)) = stream.next().await {
        let Message::Text(text) = frame else { continue };
        let msg = parse_client_frame(text.as_str()).expect("the load test sends valid client messages");
        let keep_open = handle(&state, user.as_deref(), &tx, conn, msg);
        if !keep_open {
            break;
        }
    }
    writer.abort();
    let mut st = state.lock().unwrap();
    for g in st.games.values_mut() {
        g.subscribers.retain(|(c, _)| *c != conn);
    }
}

/// Handles one message; `false` drops the connection.
fn handle(state: &Shared, user: Option<&str>, tx: &Tx, conn: u64, msg: ClientMessage) -> bool {
    let mut st = state.lock().unwrap();
    let refuse = |st: &mut State, id: u32, code: &str| {
        st.refusals.push(code.to_owned());
        let m = ServerMessage::Error {
            id: Some(id),
            code: code.to_owned(),
            message_zh: code.to_owned(),
            message_en: code.replace('_', " "),
        };
        send(tx, &m);
    };
    let Some(user) = user else {
        refuse(&mut st, msg.id(), "anonymous");
        return true;
    };
    match msg {
        ClientMessage::Hello { id, protocol, .. } => {
            let hello = ServerMessage::Hello {
                id,
                protocol,
                server: "mock".into(),
                user: Some(player(user)),
                playing: vec![],
                server_time_ms: 0,
            };
            send(tx, &hello);
        }
        ClientMessage::ChallengeFriend { id, time_control, rated, .. } => {
            assert_eq!((time_control.as_str(), rated), ("1800+0", false));
            let challenge_id = format!("c{}", st.next());
            st.challenges.insert(challenge_id.clone(), (user.to_owned(), tx.clone()));
            send(tx, &ServerMessage::ChallengeCreated { id, url: format!("/c/{challenge_id}"), challenge_id });
        }
        ClientMessage::AcceptChallenge { id, challenge_id } => match st.challenges.remove(&challenge_id) {
            None => refuse(&mut st, id, "bad_request"),
            Some((challenger, challenger_tx)) => {
                let game_id = format!("g{}", st.next());
                let game = MockGame {
                    white: challenger,
                    black: user.to_owned(),
                    pos: Position::new(),
                    moves: vec![],
                    version: 0,
                    over: false,
                    subscribers: vec![],
                };
                st.games.insert(game_id.clone(), game);
                send(&challenger_tx, &ServerMessage::GameStarted { game_id: game_id.clone(), color: Color::White });
                send(tx, &ServerMessage::GameStarted { game_id, color: Color::Black });
                send(tx, &ServerMessage::Ack { id });
            }
        },
        ClientMessage::Subscribe { id, game_id, .. } => match st.games.get_mut(&game_id) {
            None => refuse(&mut st, id, "unknown_game"),
            Some(g) => {
                g.subscribers.push((conn, tx.clone()));
                let snapshot = GameSnapshot {
                    id: game_id.clone(),
                    white: player(&g.white),
                    black: player(&g.black),
                    rated: false,
                    variant: Variant::Standard,
                    time_control: "1800+0".into(),
                    fen: g.pos.fen(),
                    turn: color(g.pos.turn()),
                    moves: g
                        .moves
                        .iter()
                        .map(|m| MoveInfo { uci: m.clone(), san: m.clone(), clock_ms: None })
                        .collect(),
                    clocks: None,
                    clock_running: None,
                    status: if g.over {
                        GameStatus::Aborted { reason: "player".into(), by: Color::White }
                    } else if g.moves.len() < 2 {
                        GameStatus::Created
                    } else {
                        GameStatus::Started
                    },
                    draw_offer: None,
                    may_offer_draw: [true, true],
                    takeback_offer: None,
                    rematch_offer: None,
                    disconnected: [false, false],
                    version: g.version,
                    rules: None,
                    touches: Vec::new(),
                    illegal_moves: None,
                    paused: false,
                    adjournment: None,
                    dispute: None,
                    arbiter_notes: Vec::new(),
                };
                send(tx, &ServerMessage::GameSnapshot { game_id, snapshot: Box::new(snapshot) });
                send(tx, &ServerMessage::Ack { id });
            }
        },
        ClientMessage::Unsubscribe { id, game_id } => {
            if let Some(g) = st.games.get_mut(&game_id) {
                g.subscribers.retain(|(c, _)| *c != conn);
            }
            send(tx, &ServerMessage::Ack { id });
        }
        ClientMessage::Game { id, game_id, action: Action::Move { mv, offer_draw }, lag_ms } => {
            assert!(!offer_draw && lag_ms == 0);
            let MoveInput::Uci(uci) = mv else { panic!("the load test sends UCI moves") };
            let Some(g) = st.games.get_mut(&game_id) else {
                refuse(&mut st, id, "unknown_game");
                return true;
            };
            let mover = if g.pos.turn() == CoreColor::White { &g.white } else { &g.black };
            let code = if g.over {
                Some("game_over")
            } else if user != g.white && user != g.black {
                Some("not_a_player")
            } else if mover != user {
                Some("not_your_turn")
            } else {
                None
            };
            if let Some(code) = code {
                refuse(&mut st, id, code);
                return true;
            }
            let Ok(m) = g.pos.parse_uci(&uci) else {
                refuse(&mut st, id, "illegal_move");
                return true;
            };
            let by = color(g.pos.turn());
            g.pos = g.pos.after(m);
            g.moves.push(uci.clone());
            g.version += 1;
            let mut events = vec![VersionedGameEvent {
                version: g.version,
                event: GameEvent::MoveMade {
                    by,
                    san: uci.clone(),
                    uci,
                    fen: g.pos.fen(),
                    ply: g.moves.len() as u32,
                    clocks: None,
                },
            }];
            if !g.pos.has_legal_move() {
                g.over = true;
                g.version += 1;
                let mate = g.pos.is_check();
                events.push(VersionedGameEvent {
                    version: g.version,
                    event: GameEvent::GameEnded {
                        result: if !mate {
                            "1/2-1/2"
                        } else if by == Color::White {
                            "1-0"
                        } else {
                            "0-1"
                        }
                        .into(),
                        termination: if mate { "checkmate" } else { "stalemate" }.into(),
                        winner: mate.then_some(by),
                        message_zh: String::new(),
                        message_en: String::new(),
                        clocks: None,
                    },
                });
            }
            let out = ServerMessage::GameEvents { game_id, events };
            for (_, sub) in &g.subscribers {
                send(sub, &out);
            }
            send(tx, &ServerMessage::Ack { id });
            st.moves += 1;
            if st.kill_after_moves.is_some_and(|n| st.moves.is_multiple_of(n)) {
                return false;
            }
        }
        ClientMessage::Game { id, game_id, action: Action::Resign, .. } => {
            let Some(g) = st.games.get_mut(&game_id) else {
                refuse(&mut st, id, "unknown_game");
                return true;
            };
            if g.over {
                refuse(&mut st, id, "game_over");
                return true;
            }
            g.over = true;
            g.version += 1;
            let winner = if user == g.white { Color::Black } else { Color::White };
            let ended = GameEvent::GameEnded {
                result: if winner == Color::White { "1-0" } else { "0-1" }.into(),
                termination: "resignation".into(),
                winner: Some(winner),
                message_zh: String::new(),
                message_en: String::new(),
                clocks: None,
            };
            let out = ServerMessage::GameEvents {
                game_id,
                events: vec![VersionedGameEvent { version: g.version, event: ended }],
            };
            for (_, sub) in &g.subscribers {
                send(sub, &out);
            }
            send(tx, &ServerMessage::Ack { id });
        }
        other => refuse(&mut st, other.id(), "bad_request"),
    }
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_run_against_the_mock_server() {
    let (url, state) = start_mock(None).await;
    let opts = Options {
        base_url: url,
        games: 6,
        move_interval: Duration::from_millis(20),
        duration: Duration::from_millis(1500),
        ..Options::default()
    };
    let report = run(opts).await.unwrap();
    println!("{report}");
    let st = state.lock().unwrap();
    assert!(st.refusals.is_empty(), "the server refused {:?}", st.refusals);
    assert_eq!(report.errors, 0, "{report}");
    assert_eq!((report.games, report.games_live), (6, 6));
    // 6 games × 50 moves/s × 1.5 s = 450 moves; leave room for a slow machine.
    assert!(report.moves >= 150, "{report}");
    assert!(report.moves_per_sec <= 6.0 * 50.0 * 1.2, "the pace is kept: {report}");
    assert!(report.p50 > Duration::ZERO && report.p50 <= report.p99 && report.p99 <= report.max, "{report}");
    assert!(st.moves >= report.moves, "ramp-up and warm-up moves are not counted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_turn_over_at_the_ply_cap() {
    let (url, state) = start_mock(None).await;
    let opts = Options {
        base_url: url,
        games: 2,
        move_interval: Duration::from_millis(1),
        duration: Duration::from_secs(2),
        ..Options::default()
    };
    let report = run(opts).await.unwrap();
    println!("{report}");
    let st = state.lock().unwrap();
    assert!(st.refusals.is_empty(), "the server refused {:?}", st.refusals);
    assert_eq!(report.errors, 0, "{report}");
    assert!(report.games_completed >= 1, "{report}");
    assert!(st.games.len() >= 3, "new games were started: {}", st.games.len());
    assert!(st.games.values().all(|g| g.moves.len() <= guoxiang_loadtest::PLY_CAP as usize));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_connections_are_counted_and_the_games_go_on() {
    let (url, state) = start_mock(Some(40)).await;
    let opts = Options {
        base_url: url,
        games: 3,
        move_interval: Duration::from_millis(10),
        duration: Duration::from_millis(1500),
        ..Options::default()
    };
    let report = run(opts).await.unwrap();
    println!("{report}");
    let st = state.lock().unwrap();
    assert!(report.errors >= 1, "{report}");
    assert!(report.error_samples.iter().any(|s| s.starts_with("disconnected")), "{report}");
    assert!(st.refusals.is_empty(), "the server refused {:?}", st.refusals);
    // 3 games × 100 moves/s × 1.5 s = 450 moves, with a drop every 40: play went on after the drops.
    assert!(report.moves >= 100, "{report}");
    assert!(st.sessions.len() > 6, "new guests replaced the dropped ones");
}

/// 2,000 games (8,000 sockets with the in-process server's side): ramp-up pace and the report at scale. Slow;
/// run with `cargo test -p guoxiang-loadtest --release --test mock_server -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "slow: two thousand games for ten seconds"]
async fn two_thousand_games() {
    let (url, state) = start_mock(None).await;
    let opts = Options { base_url: url, games: 2000, duration: Duration::from_secs(10), ..Options::default() };
    let report = run(opts).await.unwrap();
    println!("{report}");
    assert!(state.lock().unwrap().refusals.is_empty());
    assert_eq!(report.games_live, 2000, "{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert!(report.ramp_up >= Duration::from_secs(9), "at most 200 new games a second: {report}");
    assert!(report.moves_per_sec > 1500.0, "{report}");
}
