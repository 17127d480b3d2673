//! Finding an opponent: challenges (to a named player, or a link anyone can open), lobby seeks, and quick-pairing
//! pools. All in memory: a seek or a pool entry lives as long as the connection that made it; challenges expire
//! after a day (and do not survive a restart — a game, once created, does).
//!
//! [`LocalLobby`] is the lobby itself; [`Lobby`] is what the server calls. On one node they are the same; in a
//! cluster with a broker one node at a time runs the lobby (`cluster`), and the others send it their requests.

mod cluster;

pub use crate::live::cluster::LOBBY_LEASE;
pub use crate::live::parse_time_control;
pub use cluster::{Lobby, LobbyAnswer, LobbyOp, answer as cluster_answer, deliver_lobby, serve_requests};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use guoxiang_game::{PlayerRef, Source, Variant};
use guoxiang_protocol::{ChallengeStatus, ColorChoice, Player, PoolSize, Seek, ServerMessage, StartChoice};
use tokio::sync::broadcast;

use crate::error::Error;
pub use crate::events::ChallengeInfo;
use crate::events::UserEvent;
use crate::live::{GameError, Live, NewGame};
use crate::policy::Refusal;

/// The quick-pairing pools: time controls (PGN tags) offered as buttons.
pub const POOLS: &[&str] = &["60+0", "180+2", "300+3", "600+5", "900+10", "1800+20", "40/5400+30:1800+30"];

/// How long a challenge waits.
const CHALLENGE_TTL_MS: u64 = 86_400_000;

/// Pending challenges one user may have made; more are refused (429) until some are answered or expire.
pub const MAX_CHALLENGES_FROM: usize = 20;

/// Pending challenges one user may have received; more are refused, so one flood cannot bury someone.
pub const MAX_CHALLENGES_TO: usize = 50;

/// What a challenge offers: the game's time control (PGN tag or our box's form), rated or not, the colour asked
/// for, the start, and the rule set.
#[derive(Clone, Debug)]
pub struct ChallengeTerms<'a> {
    pub time_control: &'a str,
    pub rated: bool,
    pub color: ColorChoice,
    pub variant: Variant,
    pub rules: guoxiang_game::Rules,
}

#[derive(Clone, Debug)]
struct SeekEntry {
    seek: Seek,
    owner: PlayerRef,
    conn: u64,
}

#[derive(Clone, Debug)]
struct PoolEntry {
    player: PlayerRef,
    conn: u64,
}

#[derive(Debug, Default)]
struct State {
    challenges: HashMap<String, ChallengeInfo>,
    seeks: HashMap<String, SeekEntry>,
    /// `(time control, rated)` → players waiting, oldest first.
    pools: HashMap<(String, bool), Vec<PoolEntry>>,
}

/// The lobby of this node (in a cluster: the lobby of all, while this node runs it).
#[derive(Clone, Debug)]
pub struct LocalLobby {
    state: Arc<Mutex<State>>,
    /// Lobby updates for the `lobby_subscribe`d, as JSON frames.
    pub updates: broadcast::Sender<Arc<str>>,
    live: Live,
    base_url: String,
}

/// What a seek asks for.
#[derive(Clone, Copy, Debug)]
pub struct SeekTerms<'a> {
    /// PGN `TimeControl` tag.
    pub time_control: &'a str,
    pub rated: bool,
    pub color: ColorChoice,
    pub variant: StartChoice,
}

/// Seeks one user may have posted at a time.
pub const MAX_SEEKS: usize = 5;

/// Why the lobby refused a request (a challenge, a seek, the pool), apart from how a transport shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyError {
    /// The game the request would create was refused (its time control, start, rating, the players' limits).
    Game(GameError),
    SelfChallenge,
    /// Accepting one's own challenge.
    OwnChallenge,
    /// The sender has `waiting` challenges pending already ([`MAX_CHALLENGES_FROM`]).
    TooManyChallengesFrom {
        waiting: usize,
    },
    /// The receiver has [`MAX_CHALLENGES_TO`] pending already.
    TooManyChallengesTo,
    NoChallenge {
        id: String,
    },
    /// Accepted, declined, cancelled or expired.
    ChallengeClosed,
    /// The challenge is to someone else (or, open, is closed only by its creator).
    NotForYou,
    TooManySeeks {
        limit: usize,
    },
    NotYourSeek,
    NoSeek {
        id: String,
    },
    OwnSeek,
    UnknownPool {
        time_control: String,
    },
}

impl<E: Into<GameError>> From<E> for LobbyError {
    fn from(e: E) -> LobbyError {
        LobbyError::Game(e.into())
    }
}

impl From<LobbyError> for Error {
    fn from(e: LobbyError) -> Error {
        use crate::error::Kind;
        match e {
            LobbyError::Game(e) => e.into(),
            LobbyError::SelfChallenge => {
                Error::bad_request("self_challenge", "不能向自己挑战", "you cannot challenge yourself")
            }
            LobbyError::OwnChallenge => {
                Error::bad_request("self_challenge", "不能接受自己的挑战", "you cannot accept your own challenge")
            }
            LobbyError::TooManyChallengesFrom { waiting } => Error::new(
                Kind::TooMany,
                "too_many_challenges",
                format!("你已有 {waiting} 个挑战在等待回应，请先取消一些"),
                format!("you have {waiting} challenges waiting for an answer; cancel some first"),
            ),
            LobbyError::TooManyChallengesTo => Error::new(
                Kind::TooMany,
                "too_many_challenges",
                "对方有太多挑战在等待，请稍后再试",
                "this player has too many challenges waiting; try again later",
            ),
            LobbyError::NoChallenge { id } => Error::not_found(&format!("挑战 {id}"), &format!("challenge {id}")),
            LobbyError::ChallengeClosed => {
                Error::bad_request("challenge_closed", "这个挑战已经结束", "this challenge is no longer open")
            }
            LobbyError::NotForYou => {
                Error::forbidden("not_for_you", "这个挑战不是给你的", "this challenge is for someone else")
            }
            LobbyError::TooManySeeks { limit } => Error::bad_request(
                "too_many_seeks",
                format!("最多同时发布 {limit} 个约战"),
                format!("at most {limit} seeks at a time"),
            ),
            LobbyError::NotYourSeek => Error::forbidden("not_yours", "这不是你的约战", "this seek is not yours"),
            LobbyError::NoSeek { id } => Error::not_found(&format!("约战 {id}"), &format!("seek {id}")),
            LobbyError::OwnSeek => {
                Error::bad_request("own_seek", "不能接受自己的约战", "you cannot accept your own seek")
            }
            LobbyError::UnknownPool { time_control } => Error::bad_request(
                "unknown_pool",
                format!("没有 {time_control} 的快速配对"),
                format!("no quick-pairing pool for {time_control}; pools: {}", POOLS.join(", ")),
            ),
        }
    }
}

fn colors(choice: ColorChoice, a: PlayerRef, b: PlayerRef) -> (PlayerRef, PlayerRef) {
    let a_white = match choice {
        ColorChoice::White => true,
        ColorChoice::Black => false,
        ColorChoice::Random => rand::random::<bool>(),
    };
    if a_white { (a, b) } else { (b, a) }
}

impl LocalLobby {
    pub fn new(live: Live, base_url: String) -> LocalLobby {
        LocalLobby { state: Arc::default(), updates: broadcast::channel(1024).0, live, base_url }
    }

    /// Forgets every challenge, seek and pool entry (this node starts running the cluster's lobby afresh).
    pub(crate) fn reset(&self) {
        *self.lock() = State::default();
    }

    /// Pushes `live_games` to lobby subscribers every few seconds when the list changed.
    pub fn start_live_games_feed(&self) {
        let updates = self.updates.clone();
        let live = self.live.clone();
        tokio::spawn(async move {
            let mut last = Vec::new();
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(3));
            loop {
                tick.tick().await;
                if updates.receiver_count() == 0 {
                    continue;
                }
                let games = live.live_games(50).await;
                if games != last {
                    // No lobby follower is fine.
                    let _ = updates.send(ServerMessage::LiveGames { games: games.clone() }.to_json().into());
                    last = games;
                }
            }
        });
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    fn publish(&self, msg: ServerMessage) {
        let frame: Arc<str> = msg.to_json().into();
        // In a cluster, the other nodes' lobby followers too.
        if let Some(b) = self.live.broker()
            && let Ok(body) = serde_json::value::RawValue::from_string(frame.to_string())
        {
            b.publish(crate::transport::Topic::Lobby, body);
        }
        // Fails only when nobody follows the lobby.
        let _ = self.updates.send(frame);
    }

    fn notify_challenge(&self, c: &ChallengeInfo) {
        let ev = UserEvent::Challenge(Box::new(c.clone()));
        self.live.notifier().notify(&c.challenger.id, ev.clone());
        if let Some(d) = &c.dest {
            self.live.notifier().notify(d, ev.clone());
        }
        if let Some(o) = &c.opponent
            && c.dest.as_deref() != Some(o.id.as_str())
        {
            self.live.notifier().notify(&o.id, ev);
        }
    }

    /// Creates a challenge (to `dest`, or a link when `None`) on `terms`.
    pub fn create_challenge(
        &self,
        challenger: crate::policy::Entrant,
        dest: Option<String>,
        terms: ChallengeTerms<'_>,
    ) -> Result<ChallengeInfo, LobbyError> {
        let ChallengeTerms { time_control, rated, color, variant, rules } = terms;
        let tc = parse_time_control(time_control)?;
        crate::policy::check_request(rated, &tc, challenger.guest)?;
        crate::policy::check_variant(rated, &variant)?;
        let challenger = challenger.player;
        variant.start_position().map_err(|error| GameError::BadStart { fen_unreadable: true, error })?;
        if dest.as_deref() == Some(challenger.id.as_str()) {
            return Err(LobbyError::SelfChallenge);
        }
        let c = ChallengeInfo {
            id: crate::live::new_game_id(),
            challenger,
            dest,
            opponent: None,
            time_control: tc.to_pgn(),
            rated,
            color,
            challenger_white: match color {
                ColorChoice::White => true,
                ColorChoice::Black => false,
                ColorChoice::Random => rand::random::<bool>(),
            },
            variant,
            rules,
            status: ChallengeStatus::Pending,
            game_id: None,
            created_at_ms: crate::time::now_ms(),
            decline_reason: None,
        };
        let mut st = self.lock();
        let now = crate::time::now_ms();
        st.challenges.retain(|_, c| c.status == ChallengeStatus::Pending && now - c.created_at_ms < CHALLENGE_TTL_MS);
        // Caps per sender and per receiver, never in all: one user's flood refuses only that user.
        let from = st.challenges.values().filter(|x| x.challenger.id == c.challenger.id).count();
        if from >= MAX_CHALLENGES_FROM {
            return Err(LobbyError::TooManyChallengesFrom { waiting: from });
        }
        if let Some(d) = &c.dest
            && st.challenges.values().filter(|x| x.dest.as_ref() == Some(d)).count() >= MAX_CHALLENGES_TO
        {
            return Err(LobbyError::TooManyChallengesTo);
        }
        st.challenges.insert(c.id.clone(), c.clone());
        drop(st);
        self.notify_challenge(&c);
        Ok(c)
    }

    pub fn challenge(&self, id: &str) -> Option<ChallengeInfo> {
        self.lock().challenges.get(id).cloned()
    }

    /// Pending challenges to or from `user_id`: (incoming, outgoing). At most [`MAX_CHALLENGES_TO`] and
    /// [`MAX_CHALLENGES_FROM`].
    pub fn challenges_of(&self, user_id: &str) -> (Vec<ChallengeInfo>, Vec<ChallengeInfo>) {
        let st = self.lock();
        let now = crate::time::now_ms();
        let pending = st
            .challenges
            .values()
            .filter(|c| c.status == ChallengeStatus::Pending && now - c.created_at_ms < CHALLENGE_TTL_MS);
        let incoming = pending.clone().filter(|c| c.dest.as_deref() == Some(user_id)).cloned().collect();
        let outgoing = pending.filter(|c| c.challenger.id == user_id).cloned().collect();
        (incoming, outgoing)
    }

    fn take_pending(&self, id: &str) -> Result<ChallengeInfo, LobbyError> {
        let st = self.lock();
        let c = st.challenges.get(id).ok_or_else(|| LobbyError::NoChallenge { id: id.to_owned() })?;
        if c.status != ChallengeStatus::Pending {
            return Err(LobbyError::ChallengeClosed);
        }
        Ok(c.clone())
    }

    fn set(&self, c: &ChallengeInfo) {
        self.lock().challenges.insert(c.id.clone(), c.clone());
        self.notify_challenge(c);
    }

    /// Accepts a challenge: creates the game (on the node `on`, the accepting player's, in a cluster).
    pub async fn accept_challenge(
        &self,
        id: &str,
        by: PlayerRef,
        by_guest: bool,
        on: Option<&str>,
    ) -> Result<String, LobbyError> {
        let mut c = self.take_pending(id)?;
        if c.challenger.id == by.id {
            return Err(LobbyError::OwnChallenge);
        }
        if let Some(d) = &c.dest
            && *d != by.id
        {
            return Err(LobbyError::NotForYou);
        }
        if c.rated && by_guest {
            return Err(Refusal::NeedsAccount.into());
        }
        // Claim it first so that two accepts cannot both create a game.
        {
            let mut st = self.lock();
            match st.challenges.get_mut(id) {
                Some(x) if x.status == ChallengeStatus::Pending => x.status = ChallengeStatus::Accepted,
                _ => return Err(LobbyError::ChallengeClosed),
            }
        }
        let (white, black) =
            if c.challenger_white { (c.challenger.clone(), by.clone()) } else { (by.clone(), c.challenger.clone()) };
        let tc = parse_time_control(&c.time_control)?;
        // Lichess: a challenge from a position of the challenger's choice is a `position` game.
        let source = if matches!(c.variant, Variant::FromPosition { .. }) { Source::Position } else { Source::Friend };
        let game = NewGame {
            white,
            black,
            rated: c.rated,
            time_control: tc,
            variant: c.variant.clone(),
            source,
            rules: c.rules,
        };
        match self.live.create_game_on(on, c.id.clone(), game).await {
            Ok(game_id) => {
                c.status = ChallengeStatus::Accepted;
                c.opponent = Some(by);
                c.game_id = Some(game_id.clone());
                self.set(&c);
                Ok(game_id)
            }
            Err(e) => {
                c.status = ChallengeStatus::Pending;
                self.lock().challenges.insert(c.id.clone(), c);
                Err(e.into())
            }
        }
    }

    /// Declines (the challenged user) or cancels (the challenger) a challenge; nobody else may close it.
    pub fn close_challenge(&self, id: &str, by_user: &str, reason: Option<String>) -> Result<(), LobbyError> {
        let mut c = self.take_pending(id)?;
        if c.challenger.id == by_user {
            c.status = ChallengeStatus::Cancelled;
        } else if c.dest.as_deref() == Some(by_user) {
            // Only the challenged user declines; an open challenge (a link) is closed by nobody but its creator.
            c.status = ChallengeStatus::Declined;
            c.decline_reason = Some(reason.unwrap_or_else(|| "generic".to_owned()));
        } else {
            return Err(LobbyError::NotForYou);
        }
        self.set(&c);
        Ok(())
    }

    /// Posts a seek of `owner` (on connection `conn`, with `rating` shown).
    pub fn create_seek(
        &self,
        owner: crate::policy::Entrant,
        conn: u64,
        terms: SeekTerms<'_>,
        rating: Option<u32>,
    ) -> Result<Seek, LobbyError> {
        let SeekTerms { time_control, rated, color, variant } = terms;
        let tc = parse_time_control(time_control)?;
        crate::policy::check_request(rated, &tc, owner.guest)?;
        if rated && variant.is_chess960() {
            return Err(Refusal::Chess960.into());
        }
        if let StartChoice::Chess960 { position: Some(n) } = variant
            && n >= 960
        {
            return Err(GameError::NoSuchChess960 { number: n }.into());
        }
        let owner = owner.player;
        let seek = Seek {
            id: crate::live::new_game_id(),
            player: Player::from(&owner),
            rating,
            time_control: tc.to_pgn(),
            rated,
            color,
            variant,
        };
        let mut st = self.lock();
        if st.seeks.values().filter(|s| s.owner.id == owner.id).count() >= MAX_SEEKS {
            return Err(LobbyError::TooManySeeks { limit: MAX_SEEKS });
        }
        st.seeks.insert(seek.id.clone(), SeekEntry { seek: seek.clone(), owner, conn });
        drop(st);
        self.publish(ServerMessage::SeekAdded { seek: seek.clone() });
        Ok(seek)
    }

    pub fn cancel_seek(&self, seek_id: &str, user_id: &str) -> Result<(), LobbyError> {
        let mut st = self.lock();
        match st.seeks.get(seek_id) {
            Some(s) if s.owner.id == user_id => {
                st.seeks.remove(seek_id);
            }
            Some(_) => return Err(LobbyError::NotYourSeek),
            None => return Err(LobbyError::NoSeek { id: seek_id.to_owned() }),
        }
        drop(st);
        self.publish(ServerMessage::SeekRemoved { seek_id: seek_id.to_owned() });
        Ok(())
    }

    /// Accepts a seek: creates the game (on the node `on`, the accepting player's, in a cluster).
    pub async fn accept_seek(
        &self,
        seek_id: &str,
        by: PlayerRef,
        by_guest: bool,
        on: Option<&str>,
    ) -> Result<String, LobbyError> {
        let entry = {
            let mut st = self.lock();
            let Some(e) = st.seeks.get(seek_id) else {
                return Err(LobbyError::NoSeek { id: seek_id.to_owned() });
            };
            if e.owner.id == by.id {
                return Err(LobbyError::OwnSeek);
            }
            if e.seek.rated && by_guest {
                return Err(Refusal::NeedsAccount.into());
            }
            st.seeks.remove(seek_id).expect("present")
        };
        self.publish(ServerMessage::SeekRemoved { seek_id: seek_id.to_owned() });
        let (white, black) = colors(entry.seek.color, entry.owner, by);
        let tc = parse_time_control(&entry.seek.time_control)?;
        let variant = crate::live::start_of(entry.seek.variant)?;
        let game = NewGame {
            white,
            black,
            rated: entry.seek.rated,
            time_control: tc,
            variant,
            source: Source::Lobby,
            rules: guoxiang_game::Rules::ONLINE,
        };
        Ok(self.live.create_game_on(on, crate::live::new_game_id(), game).await?)
    }

    /// Joins a pool; pairs at once with the longest-waiting other player if there is one (the game created on the
    /// node `on`, the joining player's, in a cluster). Returns the game id when paired.
    pub async fn join_pool(
        &self,
        player: PlayerRef,
        player_guest: bool,
        conn: u64,
        time_control: &str,
        rated: bool,
        on: Option<&str>,
    ) -> Result<Option<String>, LobbyError> {
        let tc = parse_time_control(time_control)?;
        crate::policy::check_request(rated, &tc, player_guest)?;
        let key = (tc.to_pgn(), rated);
        if !POOLS.contains(&key.0.as_str()) {
            return Err(LobbyError::UnknownPool { time_control: key.0 });
        }
        let opponent = {
            let mut st = self.lock();
            for q in st.pools.values_mut() {
                q.retain(|e| e.player.id != player.id);
            }
            let q = st.pools.entry(key.clone()).or_default();
            if q.is_empty() {
                q.push(PoolEntry { player: player.clone(), conn });
                None
            } else {
                Some(q.remove(0))
            }
        };
        self.publish_pools();
        let Some(opponent) = opponent else { return Ok(None) };
        let (white, black) = colors(ColorChoice::Random, opponent.player, player);
        let game = NewGame {
            white,
            black,
            rated,
            time_control: tc,
            variant: Variant::Standard,
            source: Source::Pool,
            rules: guoxiang_game::Rules::ONLINE,
        };
        Ok(self.live.create_game_on(on, crate::live::new_game_id(), game).await.map(Some)?)
    }

    pub fn leave_pool(&self, user_id: &str) {
        let mut st = self.lock();
        for q in st.pools.values_mut() {
            q.retain(|e| e.player.id != user_id);
        }
        drop(st);
        self.publish_pools();
    }

    /// A connection closed: its seeks and pool entries go.
    pub fn connection_closed(&self, conn: u64) {
        let mut st = self.lock();
        let gone: Vec<String> = st.seeks.iter().filter(|(_, s)| s.conn == conn).map(|(id, _)| id.clone()).collect();
        for id in &gone {
            st.seeks.remove(id);
        }
        let mut pools_changed = false;
        for q in st.pools.values_mut() {
            let n = q.len();
            q.retain(|e| e.conn != conn);
            pools_changed |= q.len() != n;
        }
        drop(st);
        for id in gone {
            self.publish(ServerMessage::SeekRemoved { seek_id: id });
        }
        if pools_changed {
            self.publish_pools();
        }
    }

    pub fn seeks(&self) -> Vec<Seek> {
        self.lock().seeks.values().map(|s| s.seek.clone()).collect()
    }

    pub fn pools(&self) -> Vec<PoolSize> {
        let st = self.lock();
        let mut v = Vec::new();
        for tc in POOLS {
            for rated in [false, true] {
                let waiting = st.pools.get(&((*tc).to_owned(), rated)).map_or(0, Vec::len) as u32;
                v.push(PoolSize { time_control: (*tc).to_owned(), rated, waiting });
            }
        }
        v
    }

    fn publish_pools(&self) {
        self.publish(ServerMessage::Pools { pools: self.pools() });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lobby_refusal_keeps_its_wire_code() {
        let cases = [
            (LobbyError::SelfChallenge, "self_challenge", 400),
            (LobbyError::OwnChallenge, "self_challenge", 400),
            (LobbyError::TooManyChallengesFrom { waiting: 20 }, "too_many_challenges", 429),
            (LobbyError::TooManyChallengesTo, "too_many_challenges", 429),
            (LobbyError::NoChallenge { id: "c1".into() }, "not_found", 404),
            (LobbyError::ChallengeClosed, "challenge_closed", 400),
            (LobbyError::NotForYou, "not_for_you", 403),
            (LobbyError::TooManySeeks { limit: MAX_SEEKS }, "too_many_seeks", 400),
            (LobbyError::NotYourSeek, "not_yours", 403),
            (LobbyError::NoSeek { id: "s1".into() }, "not_found", 404),
            (LobbyError::OwnSeek, "own_seek", 400),
            (LobbyError::UnknownPool { time_control: "7+7".into() }, "unknown_pool", 400),
            (Refusal::NeedsAccount.into(), "login_required", 403),
            (parse_time_control("5 minutes").unwrap_err().into(), "bad_time_control", 400),
        ];
        for (e, code, status) in cases {
            let api = Error::from(e.clone());
            assert_eq!((api.code, api.kind), (code, crate::error::kind_of_status(status)), "{e:?}");
            assert!(!api.zh.is_empty() && !api.en.is_empty());
        }
    }
}
