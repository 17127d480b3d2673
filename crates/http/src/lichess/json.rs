//! The Lichess wire shapes, as pure functions of the server's values: status names and ids, speeds and perfs, time
//! controls, `gameState` / `gameFull`, the game objects of the event stream, challenges, and the clock parameters
//! of challenge and seek requests.

use guoxiang_clock::{Bonus, TimeControl};
use guoxiang_game::Variant;
use guoxiang_protocol::http::GamePlayer;
use guoxiang_protocol::{ChallengeStatus, Color, ColorChoice};
use serde_json::{Value, json};

use super::Params;
use crate::api_error::ApiError;
use guoxiang_domain::live::GameView;
use guoxiang_domain::lobby::ChallengeInfo;

/// What Lichess sends as the remaining time of a game without a clock (`Int.MaxValue` ms).
pub const NO_CLOCK_MS: u64 = 2_147_483_647;

/// The Lichess status name of a game: `started`, `aborted`, `noStart`, `mate`, `resign`, `stalemate`, `timeout`,
/// `draw`, `outoftime`, `unknownFinish`.
///
/// `status` is the view's (`created`, `started`, `finished`, `aborted`) or a stored row's (`live`, `finished`,
/// `aborted`); `termination` the termination code once over; `no_start` tells an abort because a player did not
/// make the first move in time.
pub fn status_name(status: &str, termination: Option<&str>, no_start: bool) -> &'static str {
    match (status, termination) {
        ("aborted", _) if no_start => "noStart",
        ("aborted", _) => "aborted",
        ("created" | "started" | "live", _) => "started",
        (_, Some("checkmate")) => "mate",
        (_, Some("resignation")) => "resign",
        (_, Some("stalemate")) => "stalemate",
        (_, Some("time_forfeit" | "time_forfeit_draw")) => "outoftime",
        (_, Some("abandoned" | "late_arrival")) => "timeout",
        (_, Some("adjudication" | "illegal_move" | "sealed_move")) => "unknownFinish",
        (_, Some("promotion")) => "variantEnd",
        _ => "draw",
    }
}

/// The numeric id Lichess gives a status name.
pub fn status_id(name: &str) -> u32 {
    match name {
        "created" => 10,
        "started" => 20,
        "aborted" => 25,
        "mate" => 30,
        "resign" => 31,
        "stalemate" => 32,
        "timeout" => 33,
        "draw" => 34,
        "outoftime" => 35,
        "cheat" => 36,
        "noStart" => 37,
        "variantEnd" => 60,
        _ => 38, // unknownFinish
    }
}

/// Whether a stored game's state (the snapshot JSON of its row) says it was aborted because a player did not make
/// the first move in time.
pub fn no_start_in_state(state_json: &str) -> bool {
    let v: Value = serde_json::from_str(state_json).unwrap_or_default();
    v.get("status").and_then(Value::as_str) == Some("aborted")
        && v.get("reason").and_then(|r| r.get("kind")).and_then(Value::as_str) == Some("first_move_timeout")
}

/// Whether a view's game is over.
pub fn is_over(v: &GameView) -> bool {
    matches!(v.status.as_str(), "finished" | "aborted")
}

/// Our speed name (`ultrabullet` … `unlimited`) as Lichess spells it; unlimited games are `correspondence` there.
pub fn speed_name(speed: &str) -> &'static str {
    match speed {
        "ultrabullet" => "ultraBullet",
        "bullet" => "bullet",
        "blitz" => "blitz",
        "rapid" => "rapid",
        "classical" => "classical",
        _ => "correspondence",
    }
}

/// The display name of a perf (`Blitz`, …).
pub fn perf_name(speed: &str) -> &'static str {
    match speed_name(speed) {
        "ultraBullet" => "UltraBullet",
        "bullet" => "Bullet",
        "blitz" => "Blitz",
        "rapid" => "Rapid",
        "classical" => "Classical",
        _ => "Correspondence",
    }
}

/// Lichess's `variant` object for a start: `standard`, `fromPosition` or `chess960`.
pub fn variant_json(initial_fen: Option<&str>, chess960: bool) -> Value {
    match (initial_fen, chess960) {
        (_, true) => json!({"key": "chess960", "name": "Chess960", "short": "960"}),
        (Some(_), false) => json!({"key": "fromPosition", "name": "From Position", "short": "FEN"}),
        (None, false) => json!({"key": "standard", "name": "Standard", "short": "Std"}),
    }
}

fn variant_of(v: &Variant) -> Value {
    variant_json(v.fen(), matches!(v, Variant::Chess960 { .. }))
}

/// Minutes as Lichess shows them in `5+3`: whole minutes, or ¼, ½, ¾, 1.5.
fn show_minutes(seconds: u32) -> String {
    match seconds {
        15 => "¼".to_owned(),
        30 => "½".to_owned(),
        45 => "¾".to_owned(),
        90 => "1.5".to_owned(),
        s if s % 60 == 0 => (s / 60).to_string(),
        s => format!("{:.1}", f64::from(s) / 60.0),
    }
}

/// Lichess's `timeControl` object of a PGN `TimeControl` tag: `{type: clock, limit, increment, show}`,
/// `{type: correspondence, daysPerTurn}` or `{type: unlimited}`. Controls Lichess has no form for (periods, delays,
/// sandclock) are shown as a clock with their initial time, no increment, and `show` the PGN tag.
pub fn time_control_json(tag: &str) -> Value {
    match TimeControl::from_pgn(tag) {
        Ok(TimeControl::Unlimited) | Err(_) => json!({"type": "unlimited"}),
        Ok(TimeControl::Correspondence(c)) => json!({"type": "correspondence", "daysPerTurn": c.days_per_move()}),
        Ok(TimeControl::Periods(p)) if p.as_slice().len() == 1 && p.first().moves.is_none() => {
            let first = p.first();
            let inc = match first.bonus {
                Bonus::None => Some(0),
                Bonus::Fischer(s) => Some(s),
                _ => None,
            };
            match inc {
                Some(inc) => json!({
                    "type": "clock", "limit": first.seconds, "increment": inc,
                    "show": format!("{}+{inc}", show_minutes(first.seconds)),
                }),
                None => json!({"type": "clock", "limit": first.seconds, "increment": 0, "show": tag}),
            }
        }
        Ok(tc) => json!({"type": "clock", "limit": tc.initial_ms().unwrap_or(0) / 1000, "increment": 0, "show": tag}),
    }
}

/// The days per move of a correspondence tag.
pub fn days_per_turn(tag: &str) -> Option<u32> {
    match TimeControl::from_pgn(tag) {
        Ok(TimeControl::Correspondence(c)) => Some(c.days_per_move()),
        _ => None,
    }
}

/// The time control tag of a challenge's parameters: `clock.limit` + `clock.increment` (seconds) → `"L+I"`, else
/// `days` → `"Nd"`, else `"-"` (unlimited).
pub fn challenge_time_control(p: &Params) -> Result<String, ApiError> {
    let limit = p.u32("clock.limit")?;
    let inc = p.u32("clock.increment")?;
    if limit.is_some() || inc.is_some() {
        let (limit, inc) = (limit.unwrap_or(0), inc.unwrap_or(0));
        if limit > 10_800 || inc > 180 || limit + inc == 0 {
            return Err(bad("clock.limit must be 0 to 10800 s and clock.increment 0 to 180 s, not both 0"));
        }
        return Ok(if inc == 0 { limit.to_string() } else { format!("{limit}+{inc}") });
    }
    if let Some(days) = p.u32("days")? {
        if !(1..=14).contains(&days) {
            return Err(bad("days must be 1 to 14"));
        }
        return Ok(format!("{days}d"));
    }
    Ok("-".to_owned())
}

/// The time control tag of a seek: `time` (minutes, may be fractional) + `increment` (seconds), or `days`.
/// Returns the tag and whether it is a correspondence seek.
pub fn seek_time_control(p: &Params) -> Result<(String, bool), ApiError> {
    if let Some(days) = p.u32("days")? {
        if !(1..=14).contains(&days) {
            return Err(bad("days must be 1 to 14"));
        }
        return Ok((format!("{days}d"), true));
    }
    let time =
        p.get("time").map(|t| t.parse::<f64>().map_err(|_| bad("time must be a number of minutes"))).transpose()?;
    let Some(time) = time else {
        return Err(bad("a seek needs time and increment (a real-time game) or days (correspondence)"));
    };
    let inc = p.u32("increment")?.unwrap_or(0);
    if !(0.0..=180.0).contains(&time) || inc > 180 {
        return Err(bad("time must be 0 to 180 minutes and increment 0 to 180 seconds"));
    }
    let limit = (time * 60.0).round() as u32;
    if limit + inc == 0 {
        return Err(bad("time and increment cannot both be 0"));
    }
    Ok((if inc == 0 { limit.to_string() } else { format!("{limit}+{inc}") }, false))
}

/// The colour parameter: `white`, `black`, `random` (default).
pub fn color_choice(p: &Params) -> Result<ColorChoice, ApiError> {
    match p.get("color").unwrap_or("random") {
        "white" => Ok(ColorChoice::White),
        "black" => Ok(ColorChoice::Black),
        "random" | "" => Ok(ColorChoice::Random),
        c => Err(bad(&format!("color must be white, black or random, not {c:?}"))),
    }
}

/// The start of a game from `variant` and `fen`: `standard` (a FEN makes it `fromPosition`) or `fromPosition`.
pub fn variant_param(p: &Params) -> Result<Variant, ApiError> {
    let fen = p.get("fen").filter(|f| !f.trim().is_empty()).map(|f| f.trim().to_owned());
    match (p.get("variant").unwrap_or("standard"), fen) {
        ("standard" | "fromPosition" | "", Some(fen)) => Ok(Variant::FromPosition { fen }),
        ("standard" | "", None) => Ok(Variant::Standard),
        ("fromPosition", None) => Err(bad("variant fromPosition needs a fen")),
        // Lichess's Chess960: a given start position (its FEN, read with Chess960 castling) or a random one.
        ("chess960", Some(fen)) => {
            let v = Variant::Chess960 { fen };
            v.start_position()
                .map_err(|e| bad(&format!("not a Chess960 start: {}", e.message(guoxiang_core::Lang::En))))?;
            Ok(v)
        }
        ("chess960", None) => {
            Ok(guoxiang_domain::live::start_of(guoxiang_protocol::StartChoice::Chess960 { position: None })?)
        }
        (v, _) => {
            Err(bad(&format!("unsupported variant {v:?}: this server plays standard, chess960 and fromPosition")))
        }
    }
}

/// Lichess AI levels 1–8 onto our 1–10, proportionally: 1→1, 2→2, 3→4, 4→5, 5→6, 6→7, 7→9, 8→10.
pub fn ai_level(lichess: u32) -> Option<u8> {
    (1..=8).contains(&lichess).then(|| (1 + ((lichess - 1) * 9 + 3) / 7) as u8)
}

fn bad(en: &str) -> ApiError {
    ApiError::bad_request("bad_request", format!("参数错误：{en}"), en.to_owned())
}

/// A player's rating in the game's speed: (rating, provisional).
pub type Rating = (i64, bool);

/// A `gameState` object of a view. `no_start`: see [`status_name`].
pub fn game_state_json(v: &GameView, no_start: bool) -> Value {
    let inc = v.increment_ms.unwrap_or(0);
    let mut s = json!({
        "type": "gameState",
        "moves": v.moves_uci.join(" "),
        "wtime": v.white_ms.unwrap_or(NO_CLOCK_MS),
        "btime": v.black_ms.unwrap_or(NO_CLOCK_MS),
        "winc": inc,
        "binc": inc,
        "status": status_name(&v.status, v.termination.as_deref(), no_start),
    });
    if let Some(w) = &v.winner {
        s["winner"] = json!(w);
    }
    for (offer, w, b) in [(&v.draw_offer, "wdraw", "bdraw"), (&v.takeback_offer, "wtakeback", "btakeback")] {
        match offer {
            Some(Color::White) => s[w] = json!(true),
            Some(Color::Black) => s[b] = json!(true),
            None => {}
        }
    }
    s
}

/// A player of `gameFull`: `{id, name, title, rating, provisional}` (`title` is `BOT` for a bot account, else
/// `null`), or `{aiLevel}` for the computer.
pub fn game_player_json(p: &GamePlayer, rating: Rating, title: Option<&str>) -> Value {
    if p.is_engine {
        return json!({"aiLevel": p.engine_level.unwrap_or(1), "name": p.name});
    }
    json!({"id": p.id, "name": p.name, "title": title, "rating": rating.0, "provisional": rating.1})
}

/// The `gameFull` object: the game and its current `gameState`.
pub fn game_full_json(v: &GameView, no_start: bool, ratings: [Rating; 2], titles: [Option<&str>; 2]) -> Value {
    let mut g = json!({
        "type": "gameFull",
        "id": v.id,
        "variant": variant_json(v.initial_fen.as_deref(), v.chess960),
        "speed": speed_name(&v.speed),
        "perf": {"name": perf_name(&v.speed)},
        "rated": v.rated,
        "createdAt": v.created_at_ms,
        "white": game_player_json(&v.white, ratings[0], titles[0]),
        "black": game_player_json(&v.black, ratings[1], titles[1]),
        "initialFen": v.initial_fen.as_deref().unwrap_or("startpos"),
        "state": game_state_json(v, no_start),
    });
    if let (Some(i), Some(inc)) = (v.initial_ms, v.increment_ms) {
        g["clock"] = json!({"initial": i, "increment": inc});
    }
    if let Some(d) = days_per_turn(&v.time_control) {
        g["daysPerTurn"] = json!(d);
    }
    g
}

/// The 12-character `fullId` Lichess gives a player's view of a game: the game id and 4 characters for the colour.
pub fn full_id(game_id: &str, white: bool) -> String {
    format!("{game_id}{}", if white { "wwww" } else { "bbbb" })
}

/// A game id from a path: the 8-character game id, or a 12-character `fullId` cut to it.
pub fn game_id(path: &str) -> &str {
    if path.len() == 12 && path.is_ascii() { &path[..8] } else { path }
}

/// The game object of `gameStart` / `gameFinish` and of `nowPlaying`, from `me`'s side. `opponent_rating` is the
/// opponent's rating in the game's speed.
pub fn game_event_info(v: &GameView, me: &str, opponent_rating: Rating, no_start: bool) -> Value {
    let white = v.white.id == me;
    let color = if white { Color::White } else { Color::Black };
    let opp = if white { &v.black } else { &v.white };
    let opponent = if opp.is_engine {
        json!({"id": null, "username": opp.name, "ai": opp.engine_level})
    } else {
        json!({"id": opp.id, "username": opp.name, "rating": opponent_rating.0})
    };
    // The side that moved first, from the side to move and the number of moves.
    let to_move_white = v.turn == Color::White;
    let first_white = if v.moves_uci.len().is_multiple_of(2) { to_move_white } else { !to_move_white };
    let mine = (0..v.moves_uci.len()).filter(|i| i.is_multiple_of(2) == (first_white == white)).count();
    let status = status_name(&v.status, v.termination.as_deref(), no_start);
    let mut g = json!({
        "fullId": full_id(&v.id, white),
        "gameId": v.id,
        "id": v.id,
        "color": color,
        "fen": v.fen,
        "lastMove": v.moves_uci.last().map_or("", String::as_str),
        "source": v.source,
        "status": {"id": status_id(status), "name": status},
        "variant": variant_json(v.initial_fen.as_deref(), v.chess960),
        "speed": speed_name(&v.speed),
        "perf": speed_name(&v.speed),
        "rated": v.rated,
        "hasMoved": mine > 0,
        "opponent": opponent,
        "isMyTurn": !is_over(v) && v.turn == color,
        "compat": {"bot": true, "board": true},
    });
    if let Some(ms) = if white { v.white_ms } else { v.black_ms } {
        g["secondsLeft"] = json!(ms / 1000);
    }
    if let Some(w) = &v.winner {
        g["winner"] = json!(w);
    }
    g
}

/// The decline reasons Lichess knows, with its English text.
pub fn decline_reason_text(key: &str) -> &'static str {
    match key {
        "later" => "I'm not accepting challenges right now, please ask again later.",
        "tooFast" => "This time control is too fast for me, please challenge again with a slower game.",
        "tooSlow" => "This time control is too slow for me, please challenge again with a faster game.",
        "timeControl" => "I'm not accepting challenges with this time control.",
        "rated" => "Please send me a rated challenge instead.",
        "casual" => "Please send me a casual challenge instead.",
        "standard" => "I'm not accepting variant challenges right now.",
        "variant" => "I'm not willing to play this variant right now.",
        "noBot" => "I'm not accepting challenges from bots.",
        "onlyBot" => "I'm only accepting challenges from bots.",
        _ => "I'm not accepting challenges at the moment.",
    }
}

/// Reads a decline reason key (any case, as Lichess); unknown ones are `generic`.
pub fn decline_reason_key(reason: Option<&str>) -> &'static str {
    const KEYS: [&str; 11] = [
        "generic",
        "later",
        "tooFast",
        "tooSlow",
        "timeControl",
        "rated",
        "casual",
        "standard",
        "variant",
        "noBot",
        "onlyBot",
    ];
    let r = reason.unwrap_or("generic");
    KEYS.iter().find(|k| k.eq_ignore_ascii_case(r)).copied().unwrap_or("generic")
}

/// A user of a challenge: `{id, name, title, rating, provisional, online}` (`title`: `BOT` or `null`).
pub fn challenge_user_json(id: &str, name: &str, rating: Rating, online: bool, title: Option<&str>) -> Value {
    json!({"id": id, "name": name, "title": title, "rating": rating.0, "provisional": rating.1, "online": online})
}

/// A challenge as Lichess shows it. `challenger` and `dest` are the users' JSON ([`challenge_user_json`]);
/// `viewer` (a user id) sets `direction`.
pub fn challenge_json(
    c: &ChallengeInfo,
    base_url: &str,
    challenger: Value,
    dest: Value,
    viewer: Option<&str>,
) -> Value {
    let speed = TimeControl::from_pgn(&c.time_control).map(|t| t.speed().as_str()).unwrap_or("unlimited");
    let status = match c.status {
        ChallengeStatus::Pending => "created",
        ChallengeStatus::Accepted => "accepted",
        ChallengeStatus::Declined => "declined",
        ChallengeStatus::Cancelled | ChallengeStatus::Expired => "canceled",
    };
    let color = match c.color {
        ColorChoice::White => "white",
        ColorChoice::Black => "black",
        ColorChoice::Random => "random",
    };
    let mut v = json!({
        "id": c.id,
        "url": c.url(base_url),
        "status": status,
        "challenger": challenger,
        "destUser": dest,
        "variant": variant_of(&c.variant),
        "rated": c.rated,
        "speed": speed_name(speed),
        "timeControl": time_control_json(&c.time_control),
        "color": color,
        "perf": {"icon": "", "name": perf_name(speed)},
    });
    v["finalColor"] = json!(if c.challenger_white { "white" } else { "black" });
    if let Some(viewer) = viewer {
        if c.challenger.id == viewer {
            v["direction"] = json!("out");
        } else if c.dest.as_deref() == Some(viewer) {
            v["direction"] = json!("in");
        }
    }
    if let Some(fen) = c.variant.fen() {
        v["initialFen"] = json!(fen);
    }
    // Not Lichess's: the rule set of a friend challenge (`docs/game.md`, "Rule sets"), so that the invitee sees it
    // before accepting. Absent for `online`.
    if c.rules != guoxiang_game::Rules::ONLINE {
        v["rules"] = json!(c.rules.name());
    }
    if let Some(g) = &c.game_id {
        v["gameId"] = json!(g);
    }
    if c.status == ChallengeStatus::Declined {
        let key = decline_reason_key(c.decline_reason.as_deref());
        // Lichess writes the key in lower case (`timecontrol`, `toofast`, …) and the reason in English.
        v["declineReasonKey"] = json!(key.to_ascii_lowercase());
        v["declineReason"] = json!(decline_reason_text(key));
    }
    if c.dest.is_none() {
        let url = c.url(base_url);
        v["urlWhite"] = json!(format!("{url}?color=white"));
        v["urlBlack"] = json!(format!("{url}?color=black"));
        v["open"] = json!({});
    }
    v
}

/// The event-stream type of a challenge in this state, if it has one: `challenge`, `challengeCanceled`,
/// `challengeDeclined` (an accepted challenge is followed by `gameStart` instead).
pub fn challenge_event_type(status: ChallengeStatus) -> Option<&'static str> {
    match status {
        ChallengeStatus::Pending => Some("challenge"),
        ChallengeStatus::Cancelled | ChallengeStatus::Expired => Some("challengeCanceled"),
        ChallengeStatus::Declined => Some("challengeDeclined"),
        ChallengeStatus::Accepted => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guoxiang_game::PlayerRef;

    fn view() -> GameView {
        GameView {
            id: "abcd1234".into(),
            white: (&PlayerRef::human("alice", "Alice")).into(),
            black: (&PlayerRef::human("bob", "Bob")).into(),
            rated: false,
            source: "lobby".to_owned(),
            time_control: "300+3".into(),
            initial_ms: Some(300_000),
            increment_ms: Some(3_000),
            speed: "blitz".into(),
            initial_fen: None,
            chess960: false,
            fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
            turn: Color::Black,
            moves_uci: vec!["e2e4".into()],
            moves_san: vec!["e4".into()],
            white_ms: Some(299_000),
            black_ms: Some(300_000),
            running: Some(Color::Black),
            status: "created".into(),
            result: "*".into(),
            termination: None,
            winner: None,
            draw_offer: None,
            takeback_offer: None,
            end: None,
            move_clocks_ms: vec![Some(299_000)],
            version: 1,
            created_at_ms: 1_700_000_000_000,
            at_ms: 1_700_000_001_000,
        }
    }

    fn params(kv: &[(&str, &str)]) -> Params {
        Params(kv.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect())
    }

    #[test]
    fn status_names() {
        assert_eq!(status_name("created", None, false), "started");
        assert_eq!(status_name("started", None, false), "started");
        assert_eq!(status_name("live", None, false), "started");
        assert_eq!(status_name("aborted", Some("aborted"), false), "aborted");
        assert_eq!(status_name("aborted", Some("aborted"), true), "noStart");
        assert_eq!(status_name("finished", Some("checkmate"), false), "mate");
        assert_eq!(status_name("finished", Some("resignation"), false), "resign");
        assert_eq!(status_name("finished", Some("stalemate"), false), "stalemate");
        assert_eq!(status_name("finished", Some("time_forfeit"), false), "outoftime");
        assert_eq!(status_name("finished", Some("time_forfeit_draw"), false), "outoftime");
        assert_eq!(status_name("finished", Some("abandoned"), false), "timeout");
        for draw in ["agreement", "threefold_repetition", "fifty_moves", "dead_position", "fivefold_repetition"] {
            assert_eq!(status_name("finished", Some(draw), false), "draw");
        }
        assert_eq!(status_name("finished", Some("adjudication"), false), "unknownFinish");
        assert_eq!(status_id("started"), 20);
        assert_eq!(status_id("mate"), 30);
        assert_eq!(status_id("noStart"), 37);
        assert_eq!(status_id("unknownFinish"), 38);
    }

    #[test]
    fn no_start_of_a_stored_state() {
        use guoxiang_game::{AbortReason, Color, Status};
        // The snapshot flattens its status into the state's object.
        let state = |reason| serde_json::to_string(&Status::Aborted { reason }).unwrap();
        assert!(no_start_in_state(&state(AbortReason::FirstMoveTimeout { side: Color::White })));
        assert!(!no_start_in_state(&state(AbortReason::Player { by: Color::Black })));
        assert!(!no_start_in_state(r#"{"status":"finished"}"#));
        assert!(!no_start_in_state("not json"));
    }

    #[test]
    fn speeds_and_perfs() {
        assert_eq!(speed_name("ultrabullet"), "ultraBullet");
        assert_eq!(speed_name("blitz"), "blitz");
        assert_eq!(speed_name("unlimited"), "correspondence");
        assert_eq!(perf_name("rapid"), "Rapid");
        assert_eq!(perf_name("unlimited"), "Correspondence");
    }

    #[test]
    fn game_state_of_a_view() {
        let mut v = view();
        let s = game_state_json(&v, false);
        assert_eq!(
            s,
            json!({"type": "gameState", "moves": "e2e4", "wtime": 299_000, "btime": 300_000, "winc": 3000,
                   "binc": 3000, "status": "started"})
        );
        v.draw_offer = Some(Color::White);
        v.takeback_offer = Some(Color::Black);
        let s = game_state_json(&v, false);
        assert_eq!(s["wdraw"], json!(true));
        assert_eq!(s["btakeback"], json!(true));
        assert!(s.get("bdraw").is_none() && s.get("wtakeback").is_none());
        v.status = "finished".into();
        v.termination = Some("checkmate".into());
        v.winner = Some(Color::Black);
        v.draw_offer = None;
        v.takeback_offer = None;
        let s = game_state_json(&v, false);
        assert_eq!(s["status"], "mate");
        assert_eq!(s["winner"], "black");
        // No clock: Lichess's "infinite" time, no increment.
        v.white_ms = None;
        v.black_ms = None;
        v.increment_ms = None;
        let s = game_state_json(&v, false);
        assert_eq!(s["wtime"], json!(NO_CLOCK_MS));
        assert_eq!(s["binc"], json!(0));
    }

    #[test]
    fn game_full_of_a_view() {
        let mut v = view();
        v.black = (&guoxiang_domain::live::engine_player(3)).into();
        let g = game_full_json(&v, false, [(1500, true), (0, false)], [None, None]);
        assert_eq!(g["type"], "gameFull");
        assert_eq!(g["initialFen"], "startpos");
        assert_eq!(g["clock"], json!({"initial": 300_000, "increment": 3000}));
        assert_eq!(
            g["white"],
            json!({"id": "alice", "name": "Alice", "title": null, "rating": 1500, "provisional": true})
        );
        assert_eq!(g["black"]["aiLevel"], 3);
        assert_eq!(g["state"]["moves"], "e2e4");
        assert_eq!(g["variant"]["key"], "standard");
        assert_eq!(g["perf"]["name"], "Blitz");
        assert!(g.get("daysPerTurn").is_none());
        v.time_control = "3d".into();
        assert_eq!(game_full_json(&v, false, [(1500, true); 2], [Some("BOT"), None])["daysPerTurn"], 3);
    }

    #[test]
    fn event_game_info() {
        let v = view();
        let g = game_event_info(&v, "bob", (1612, false), false);
        assert_eq!(g["gameId"], "abcd1234");
        assert_eq!(g["fullId"].as_str().map(str::len), Some(12));
        assert_eq!(g["color"], "black");
        assert_eq!(g["isMyTurn"], true);
        assert_eq!(g["hasMoved"], false);
        assert_eq!(g["lastMove"], "e2e4");
        assert_eq!(g["opponent"], json!({"id": "alice", "username": "Alice", "rating": 1612}));
        assert_eq!(g["status"], json!({"id": 20, "name": "started"}));
        assert_eq!(g["secondsLeft"], 300);
        assert_eq!(g["source"], "lobby");
        let g = game_event_info(&v, "alice", (1500, true), false);
        assert_eq!(g["isMyTurn"], false);
        assert_eq!(g["hasMoved"], true);
        assert_eq!(game_id("abcd1234wwww"), "abcd1234");
        assert_eq!(game_id("abcd1234"), "abcd1234");
    }

    #[test]
    fn clock_params() {
        let p = params(&[("clock.limit", "300"), ("clock.increment", "3"), ("days", "2")]);
        assert_eq!(challenge_time_control(&p).unwrap(), "300+3");
        assert_eq!(challenge_time_control(&params(&[("clock.limit", "60"), ("clock.increment", "0")])).unwrap(), "60");
        assert_eq!(challenge_time_control(&params(&[("days", "3")])).unwrap(), "3d");
        assert_eq!(challenge_time_control(&params(&[])).unwrap(), "-");
        assert!(challenge_time_control(&params(&[("clock.limit", "x")])).is_err());
        assert!(challenge_time_control(&params(&[("clock.limit", "0"), ("clock.increment", "0")])).is_err());
        assert!(challenge_time_control(&params(&[("days", "30")])).is_err());
        for tag in ["300+3", "60", "3d", "-"] {
            assert!(TimeControl::from_pgn(tag).is_ok(), "{tag}");
        }
        assert_eq!(seek_time_control(&params(&[("time", "5"), ("increment", "3")])).unwrap(), ("300+3".into(), false));
        assert_eq!(seek_time_control(&params(&[("time", "0.5"), ("increment", "0")])).unwrap(), ("30".into(), false));
        assert_eq!(seek_time_control(&params(&[("days", "2")])).unwrap(), ("2d".into(), true));
        assert!(seek_time_control(&params(&[("increment", "3")])).is_err());
    }

    #[test]
    fn other_params() {
        assert_eq!(color_choice(&params(&[])).unwrap(), ColorChoice::Random);
        assert_eq!(color_choice(&params(&[("color", "black")])).unwrap(), ColorChoice::Black);
        assert!(color_choice(&params(&[("color", "green")])).is_err());
        assert_eq!(variant_param(&params(&[])).unwrap(), Variant::Standard);
        let fen = "8/8/8/4k3/8/8/8/4K2R w K - 0 1";
        assert_eq!(variant_param(&params(&[("fen", fen)])).unwrap(), Variant::FromPosition { fen: fen.into() });
        assert!(variant_param(&params(&[("variant", "fromPosition")])).is_err());
        assert!(variant_param(&params(&[("variant", "atomic")])).is_err());
        let levels: Vec<u8> = (1..=8).filter_map(ai_level).collect();
        assert_eq!(levels, [1, 2, 4, 5, 6, 7, 9, 10]);
        assert_eq!(ai_level(0), None);
        assert_eq!(ai_level(9), None);
        assert_eq!(decline_reason_key(Some("toofast")), "tooFast");
        assert_eq!(decline_reason_key(Some("whatever")), "generic");
        assert_eq!(decline_reason_key(None), "generic");
    }

    #[test]
    fn time_controls() {
        assert_eq!(time_control_json("300+3"), json!({"type": "clock", "limit": 300, "increment": 3, "show": "5+3"}));
        assert_eq!(time_control_json("30"), json!({"type": "clock", "limit": 30, "increment": 0, "show": "½+0"}));
        assert_eq!(time_control_json("3d"), json!({"type": "correspondence", "daysPerTurn": 3}));
        assert_eq!(time_control_json("-"), json!({"type": "unlimited"}));
        assert_eq!(time_control_json("40/5400+30:1800+30")["show"], "40/5400+30:1800+30");
    }

    #[test]
    fn challenges() {
        let c = ChallengeInfo {
            id: "chal1234".into(),
            challenger: PlayerRef::human("alice", "Alice"),
            dest: Some("bob".into()),
            opponent: None,
            time_control: "300+3".into(),
            rated: true,
            color: ColorChoice::Random,
            challenger_white: true,
            variant: Variant::Standard,
            rules: guoxiang_game::Rules::ONLINE,
            status: ChallengeStatus::Pending,
            game_id: None,
            created_at_ms: 0,
            decline_reason: None,
        };
        let alice = challenge_user_json("alice", "Alice", (1500, true), true, None);
        let bob = challenge_user_json("bob", "Bob", (1500, true), false, Some("BOT"));
        let v = challenge_json(&c, "http://x", alice.clone(), bob.clone(), Some("bob"));
        assert_eq!(v["status"], "created");
        assert_eq!(v["direction"], "in");
        assert_eq!(v["url"], "http://x/challenge/chal1234");
        assert_eq!(v["speed"], "blitz");
        assert_eq!((&v["color"], &v["finalColor"]), (&json!("random"), &json!("white")));
        assert_eq!(v["timeControl"]["limit"], 300);
        assert_eq!(v["destUser"]["id"], "bob");
        assert!(v.get("urlWhite").is_none());
        let declined =
            ChallengeInfo { status: ChallengeStatus::Declined, decline_reason: Some("TIMECONTROL".into()), ..c };
        let v = challenge_json(&declined, "http://x", alice, bob, Some("alice"));
        assert_eq!(v["direction"], "out");
        assert_eq!(v["declineReasonKey"], "timecontrol");
        assert_eq!(v["declineReason"], "I'm not accepting challenges with this time control.");
        assert_eq!(challenge_event_type(ChallengeStatus::Declined), Some("challengeDeclined"));
        assert_eq!(challenge_event_type(ChallengeStatus::Cancelled), Some("challengeCanceled"));
        assert_eq!(challenge_event_type(ChallengeStatus::Accepted), None);
    }
}
