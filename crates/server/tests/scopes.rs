//! Token scopes on every route and every WebSocket message: the authorization table (`guoxiang_http::authz`) names
//! every route of the router, and a personal token of each scope is refused exactly where the table says.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{TestServer, Ws, friend_game, play, temp_db};
use guoxiang_server::authz::{self, MESSAGES, Need, ROUTES, SCOPES};
use reqwest::Method;
use serde_json::{Value, json};

async fn mint(server: &TestServer, session: &str, scopes: &[&str]) -> String {
    let r = reqwest::Client::new()
        .post(server.url("/api/token"))
        .header("Cookie", format!("gx_session={session}"))
        .json(&json!({"description": scopes.join(" "), "scopes": scopes}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    r.json::<Value>().await.unwrap()["token"].as_str().unwrap().to_owned()
}

/// The route paths the router's source declares (`.route("…"`, and the board and bot game routes built with
/// `p("…")`), read from crates/http/src: the table must name each one.
fn router_paths() -> BTreeSet<String> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../http/src");
    let mut files = vec![src];
    let mut paths = BTreeSet::new();
    while let Some(f) = files.pop() {
        if f.is_dir() {
            files.extend(std::fs::read_dir(&f).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if f.extension().is_none_or(|e| e != "rs") || f.ends_with("authz.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        // A module's own tests build routers of their own.
        let text = text.split("#[cfg(test)]").next().unwrap_or_default();
        for piece in text.split(".route(").skip(1) {
            let piece = piece.trim_start();
            let prefixed = piece.starts_with("&p(");
            let Some(lit) = piece.split('"').nth(1) else { continue };
            if prefixed {
                for api in ["board", "bot"] {
                    paths.insert(format!("/api/{api}/game/{lit}"));
                }
            } else {
                paths.insert(lit.to_owned());
            }
        }
    }
    paths
}

/// A concrete path for a route pattern: each `{param}` filled with a value that names nothing.
fn concrete(pattern: &str) -> String {
    pattern
        .replace("{uci}", "e2e4")
        .replace("{answer}", "yes")
        .replace("{name}", "nobody")
        .replace("{a}", "nobody")
        .replace("{b}", "noone")
        .replace("{id}", "zzzzzzzz")
}

fn allowed(need: Need, scope: Option<&str>) -> bool {
    match need {
        Need::Open | Need::SignedIn => true,
        Need::Scope(any) => scope.is_some_and(|s| any.contains(&s)),
        Need::Session => false,
    }
}

async fn send(server: &TestServer, method: &str, path: &str, bearer: Option<&str>) -> (u16, Value) {
    let method = Method::from_bytes(method.as_bytes()).unwrap();
    let mut req = reqwest::Client::new().request(method.clone(), server.url(&concrete(path)));
    if method != Method::GET {
        req = req.header("Content-Type", "application/json").body("{}");
    }
    if let Some(t) = bearer {
        req = req.bearer_auth(t);
    }
    // Streams answer their headers at once and then go on: only the status and a refusal's body are read.
    let r = tokio::time::timeout(Duration::from_secs(20), req.send()).await.expect("an answer").unwrap();
    let status = r.status().as_u16();
    if status != 403 {
        return (status, Value::Null);
    }
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn the_table_names_every_route_of_the_router_with_its_methods() {
    let server = TestServer::start_with(&temp_db("scope_routes"), |c| {
        c.limits.guests_per_minute = 10_000;
    })
    .await;
    let table: BTreeSet<String> = ROUTES.iter().map(|r| r.path.to_owned()).collect();
    assert_eq!(router_paths(), table, "the router's routes (left) and the authorization table's (right) differ");
    // The methods: the router answers 405 for a method a path does not serve; the table lists exactly the others.
    for path in &table {
        for m in ["GET", "POST", "PUT", "DELETE", "PATCH"] {
            let (status, _) = send(&server, m, path, None).await;
            let listed = ROUTES.iter().any(|r| r.path == path && r.method == m);
            assert_eq!(status != 405, listed, "{m} {path}: answered {status}, listed in the table: {listed}");
        }
    }
}

#[tokio::test]
async fn a_token_of_each_scope_is_refused_exactly_where_the_table_says() {
    let server = TestServer::start_with(&temp_db("scope_matrix"), |c| {
        c.limits.guests_per_minute = 10_000;
        c.limits.api_moves_per_minute = 100_000;
        c.limits.analyses_per_minute = 100_000;
    })
    .await;
    let (_, session) = server.register("scoped").await;
    let mut tokens: Vec<(Option<&str>, String)> = vec![(None, mint(&server, &session, &[]).await)];
    for s in SCOPES {
        tokens.push((Some(s), mint(&server, &session, &[s]).await));
    }
    let mut refusals = 0;
    for rule in ROUTES {
        for (scope, token) in &tokens {
            let (status, body) = send(&server, rule.method, rule.path, Some(token)).await;
            let code = body["code"].as_str().unwrap_or_default();
            let refused = status == 403 && (code == "missing_scope" || code == "session_required");
            let expected = !allowed(rule.need, *scope);
            assert_eq!(
                refused, expected,
                "{} {} with a token of scope {scope:?}: {status} {body}; the table says {:?}",
                rule.method, rule.path, rule.need
            );
            refusals += usize::from(refused);
        }
    }
    assert!(refusals > ROUTES.len(), "most routes refuse most scopes ({refusals} refusals)");
    // A session sent as a bearer speaks for its user everywhere (the last: one of the routes ends it).
    for rule in ROUTES {
        let (status, body) = send(&server, rule.method, rule.path, Some(&session)).await;
        assert!(status != 403 || body["code"] != "missing_scope", "{} {}: {body}", rule.method, rule.path);
        assert!(status != 403 || body["code"] != "session_required", "{} {}: {body}", rule.method, rule.path);
    }
}

#[tokio::test]
async fn the_holes_of_the_review_are_closed() {
    let server = TestServer::start(&temp_db("scope_holes")).await;
    let (_, session) = server.register("narrow").await;
    let pref = mint(&server, &session, &["preference:read"]).await;
    let none = mint(&server, &session, &[]).await;
    // An organiser's tournament, learn progress and review settings are not written with a `preference:read` token.
    for (m, p) in [("POST", "/api/tournaments"), ("PUT", "/api/learn/progress"), ("PUT", "/api/review/settings")] {
        let (status, body) = send(&server, m, p, Some(&pref)).await;
        assert_eq!((status, body["code"].as_str()), (403, Some("missing_scope")), "{m} {p}: {body}");
    }
    // An open challenge needs a challenge scope.
    let (status, body) = send(&server, "POST", "/api/challenge/open", Some(&none)).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("missing_scope")), "{body}");
    assert!(body["error"].as_str().unwrap_or_default().contains("challenge:write"), "{body}");
}

#[tokio::test]
async fn a_narrow_token_on_the_websocket_may_do_only_what_its_scopes_allow() {
    let server = TestServer::start(&temp_db("scope_ws")).await;
    let (_, alice) = server.register("alice").await;
    let (_, bob) = server.register("bob").await;
    let (gid, _wa, mut wb) = friend_game(&server, "300+0", &alice, &bob).await;
    let pref = mint(&server, &alice, &["preference:read"]).await;
    let play_token = mint(&server, &alice, &["board:play"]).await;

    // A `preference:read` token: watching is fine; challenging, seeking, moving and arbitrating are not.
    let mut narrow = Ws::connect_bearer(server.addr, &pref).await;
    narrow.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let refused = [
        json!({"t": "challenge_friend", "time_control": "300+0", "rated": true, "color": "white"}),
        json!({"t": "create_seek", "time_control": "300+0", "rated": true, "color": "random"}),
        json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-"}),
        json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "d2d4"}}),
        json!({"t": "arbiter", "game_id": gid, "act": {"t": "add_time", "color": "white", "ms": 60000}}),
    ];
    for msg in refused {
        let r = narrow.request(msg.clone()).await;
        assert_eq!((r["t"].as_str(), r["code"].as_str()), (Some("error"), Some("missing_scope")), "{msg} → {r}");
    }

    // A `board:play` token plays its own game over the WebSocket, and nothing else.
    let mut player = Ws::connect_bearer(server.addr, &play_token).await;
    player.ok(json!({"t": "subscribe", "game_id": gid})).await;
    play(&mut player, &gid, "e2e4").await;
    // The first move bob sees is this one: the refused d4 was not made.
    let e = wb.event(&gid, "move_made").await;
    assert_eq!(e["san"], "e4", "{e}");
    let r = player
        .request(json!({"t": "challenge_friend", "time_control": "300+0", "rated": true, "color": "white"}))
        .await;
    assert_eq!(r["t"], "challenge_created", "board:play may challenge (as on Lichess): {r}");
    let r = player
        .request(json!({"t": "arbiter", "game_id": gid, "act": {"t": "add_time", "color": "black", "ms": 60000}}))
        .await;
    assert_eq!(r["code"], "missing_scope", "{r}");
    // Every message the protocol has is in the table.
    assert_eq!(MESSAGES.len(), guoxiang_protocol::ClientMessage::KINDS.len());
    assert_eq!(authz::need_of_message("game"), Need::Scope(&["board:play", "bot:play"]));
}

#[test]
fn docs_api_shows_the_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/api.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let start = "crates/server/tests/scopes.rs checks it (GX_BLESS=1 rewrites it) -->\n";
    let end = "<!-- end of the authz table -->";
    let (Some(i), Some(j)) = (doc.find(start), doc.find(end)) else {
        panic!("docs/api.md lost the markers of the authorization table");
    };
    let table = authz::markdown();
    let shown = &doc[i + start.len()..j];
    if std::env::var("GX_BLESS").is_ok() {
        std::fs::write(&path, format!("{}{table}{}", &doc[..i + start.len()], &doc[j..])).unwrap();
        return;
    }
    assert_eq!(
        shown, table,
        "docs/api.md must show the authorization tables as guoxiang_http::authz::markdown() writes them (GX_BLESS=1 \
         rewrites them)"
    );
}
