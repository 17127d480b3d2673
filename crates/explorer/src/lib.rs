// SPDX-License-Identifier: GPL-3.0-or-later
//! guoxiang-explorer: the opening explorer's indexing and answers, without a database (docs/explorer.md).
//!
//! | item | what it is |
//! |---|---|
//! | [`MAX_PLIES`] | how many plies of a game are indexed |
//! | [`SpeedBucket`] | bullet, blitz, … from a `TimeControl` tag or the server's speed |
//! | [`RATING_BUCKETS`], [`rating_bucket`] | the buckets of the players' average rating |
//! | [`Family`] | open / semi-open / closed (开放性布局 / 半开放性布局 / 封闭性布局) |
//! | [`encode_move`], [`decode_move`] | a move as the integer the store keeps |
//! | [`IndexedGame`], [`index_moves`], [`Indexer`] | a game's first plies as (position hash, move) keys |
//! | [`Batch`] | a bounded in-memory aggregate of many games, turned into store rows |
//! | [`summarize`], [`Summary`] | the stored rows of one position as the explorer's answer |
//! | [`opening_info`] | the opening's ECO, names and family for a position |
//!
//! Positions are keyed by the rules core's Zobrist hash ([`Position::hash`]): its keys are generated at compile
//! time from fixed seeds, so a hash stored by one build is found by the next (a test pins the start position's
//! hash). Equal positions in the sense of FIDE Article 9.2 (same placement, side to move, castling rights and en
//! passant capture) have equal hashes, so transpositions share their statistics.

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::io::Read;

use guoxiang_clock::{Speed, TimeControlTag};
use guoxiang_core::{Lang, Move, Position, UciMove};
use guoxiang_pgn::{GameResult, Location, Skip, Visitor, start_position};
use guoxiang_store::ExplorerRow;
use serde::Serialize;
use sha2::{Digest, Sha256};

/// Plies indexed per game: the first 30 (15 moves each). The longest line of our opening table is 20 plies, so every
/// named opening is covered with 10 plies to spare; past move 15 almost every position of a large database is seen
/// in one game only, so deeper plies would mostly add rows that count one game each (the database would grow by a
/// third per 10 more plies) without telling a player anything about opening choices.
pub const MAX_PLIES: usize = 30;

/// A game's speed, as lichess defines it from the estimated duration `initial + 40 × increment` seconds:
/// ultrabullet < 30 s ≤ bullet < 180 s ≤ blitz < 480 s ≤ rapid < 1500 s ≤ classical; correspondence for days per
/// move and for no time control (`-`); unknown for a missing, `?` or unreadable `TimeControl` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SpeedBucket {
    Unknown,
    UltraBullet,
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

impl SpeedBucket {
    /// Every bucket, in code order.
    pub const ALL: [SpeedBucket; 7] = [
        SpeedBucket::Unknown,
        SpeedBucket::UltraBullet,
        SpeedBucket::Bullet,
        SpeedBucket::Blitz,
        SpeedBucket::Rapid,
        SpeedBucket::Classical,
        SpeedBucket::Correspondence,
    ];

    /// The number stored in `explorer_moves.speed`.
    pub fn code(self) -> i64 {
        self as i64
    }

    /// The name used in the API (`speeds=blitz,rapid`).
    pub fn as_str(self) -> &'static str {
        match self {
            SpeedBucket::Unknown => "unknown",
            SpeedBucket::UltraBullet => "ultrabullet",
            SpeedBucket::Bullet => "bullet",
            SpeedBucket::Blitz => "blitz",
            SpeedBucket::Rapid => "rapid",
            SpeedBucket::Classical => "classical",
            SpeedBucket::Correspondence => "correspondence",
        }
    }

    /// Reads a name of [`SpeedBucket::as_str`].
    pub fn parse(s: &str) -> Option<SpeedBucket> {
        SpeedBucket::ALL.into_iter().find(|b| b.as_str() == s)
    }

    /// The bucket of the server's speed of a time control.
    pub fn of_speed(speed: Speed) -> SpeedBucket {
        match speed {
            Speed::UltraBullet => SpeedBucket::UltraBullet,
            Speed::Bullet => SpeedBucket::Bullet,
            Speed::Blitz => SpeedBucket::Blitz,
            Speed::Rapid => SpeedBucket::Rapid,
            Speed::Classical => SpeedBucket::Classical,
            Speed::Correspondence | Speed::Unlimited => SpeedBucket::Correspondence,
        }
    }

    /// The bucket of a PGN `TimeControl` tag value.
    pub fn of_tag(tag: &str) -> SpeedBucket {
        match tag.parse::<TimeControlTag>() {
            Ok(TimeControlTag::Known(tc)) => SpeedBucket::of_speed(tc.speed()),
            Ok(TimeControlTag::Unknown) | Err(_) => SpeedBucket::Unknown,
        }
    }
}

/// The rating buckets, by lower bound of the two players' average rating: below 1000, 1000–1199, …, 2200–2499,
/// 2500 and above. A game without both ratings is in bucket −1 ([`UNRATED`]), which only an unfiltered query
/// counts.
pub const RATING_BUCKETS: [i64; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

/// The bucket of games without both players' ratings.
pub const UNRATED: i64 = -1;

/// The bucket (its lower bound) of an average rating.
pub fn rating_bucket(average: Option<u32>) -> i64 {
    match average {
        None => UNRATED,
        Some(a) => RATING_BUCKETS.iter().rev().copied().find(|&b| i64::from(a) >= b).unwrap_or(0),
    }
}

/// The players' average rating, when both are known (and plausible: 1 to 4000).
pub fn average_rating(white: Option<u32>, black: Option<u32>) -> Option<u32> {
    match (white, black) {
        (Some(w), Some(b)) if (1..=4000).contains(&w) && (1..=4000).contains(&b) => Some((w + b) / 2),
        _ => None,
    }
}

/// The three families of openings in the Chinese chess literature (国际象棋的开局按局面特点分三大类):
/// - open, 开放性布局: 1. e4 e5;
/// - semi-open, 半开放性布局: 1. e4 and any Black reply but e5 (Sicilian, French, Caro-Kann, Alekhine, …);
/// - closed, 封闭性布局: any first move but 1. e4 (Queen's Gambit, the Indian defences, the English, the flank
///   openings…).
///
/// A family needs the game's first move and, after 1. e4, Black's reply: the start position and the position after
/// 1. e4 have none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    Open,
    SemiOpen,
    Closed,
}

impl Family {
    /// `open`, `semi-open` or `closed`.
    pub fn id(self) -> &'static str {
        match self {
            Family::Open => "open",
            Family::SemiOpen => "semi-open",
            Family::Closed => "closed",
        }
    }

    /// The family's name.
    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Family::Open, Lang::Zh) => "开放性布局",
            (Family::SemiOpen, Lang::Zh) => "半开放性布局",
            (Family::Closed, Lang::Zh) => "封闭性布局",
            (Family::Open, Lang::En) => "Open game",
            (Family::SemiOpen, Lang::En) => "Semi-open game",
            (Family::Closed, Lang::En) => "Closed game",
        }
    }

    /// The family of a game from the standard start, from its first two moves in UCI (`None`: not decided yet).
    pub fn of_first_moves(first: Option<&str>, second: Option<&str>) -> Option<Family> {
        match (first?, second) {
            ("e2e4", None) => None,
            ("e2e4", Some("e7e5")) => Some(Family::Open),
            ("e2e4", Some(_)) => Some(Family::SemiOpen),
            _ => Some(Family::Closed),
        }
    }
}

/// A move as stored: `from + 64 × to + 4096 × promotion` with squares a1 = 0, b1 = 1, …, h8 = 63 in UCI (castling is
/// the king's two-square move) and promotion 0 none, 1 knight, 2 bishop, 3 rook, 4 queen.
pub fn encode_move(m: Move) -> u32 {
    let uci = UciMove::from_move(m, false).to_string();
    encode_uci(&uci).unwrap_or(0)
}

/// [`encode_move`] from UCI text (`e2e4`, `e7e8q`); `None` for text that is not a move.
pub fn encode_uci(uci: &str) -> Option<u32> {
    let b = uci.as_bytes();
    if !(4..=5).contains(&b.len()) {
        return None;
    }
    let square = |f: u8, r: u8| -> Option<u32> {
        ((b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r))
            .then(|| u32::from(f - b'a') + 8 * u32::from(r - b'1'))
    };
    let from = square(b[0], b[1])?;
    let to = square(b[2], b[3])?;
    let promo = match b.get(4) {
        None => 0,
        Some(b'n') => 1,
        Some(b'b') => 2,
        Some(b'r') => 3,
        Some(b'q') => 4,
        Some(_) => return None,
    };
    Some(from + 64 * to + 4096 * promo)
}

/// The UCI text of a stored move code.
pub fn decode_move(code: u32) -> String {
    let sq = |i: u32| format!("{}{}", char::from(b'a' + (i % 8) as u8), char::from(b'1' + (i / 8 % 8) as u8));
    let promo = match code / 4096 {
        1 => "n",
        2 => "b",
        3 => "r",
        4 => "q",
        _ => "",
    };
    format!("{}{}{promo}", sq(code % 64), sq(code / 64 % 64))
}

/// A decided game's result (unfinished games, `*`, are not indexed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    WhiteWins,
    Draw,
    BlackWins,
}

impl Outcome {
    /// The outcome of a PGN result; `None` for `*`.
    pub fn of_pgn(r: GameResult) -> Option<Outcome> {
        match r {
            GameResult::WhiteWins => Some(Outcome::WhiteWins),
            GameResult::BlackWins => Some(Outcome::BlackWins),
            GameResult::Draw => Some(Outcome::Draw),
            GameResult::Unknown => None,
        }
    }
}

/// One game as the explorer sees it: its buckets, its result and its first [`MAX_PLIES`] (position, move) keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedGame {
    pub speed: SpeedBucket,
    /// The players' average rating, if both are known.
    pub average_rating: Option<u32>,
    pub outcome: Outcome,
    /// (position hash before the move, [`encode_move`]) for each indexed ply.
    pub keys: Vec<(u64, u32)>,
}

/// The keys of a game's first [`MAX_PLIES`] moves from `start` (moves must be legal, as a replayed game's are).
pub fn index_moves(start: &Position, moves: &[Move]) -> Vec<(u64, u32)> {
    let mut pos = start.clone();
    let mut keys = Vec::with_capacity(moves.len().min(MAX_PLIES));
    for &m in moves.iter().take(MAX_PLIES) {
        keys.push((pos.hash(), encode_move(m)));
        pos.play_unchecked(m);
    }
    keys
}

/// [`index_moves`] for UCI moves (the server's records); stops at the first move that is not legal.
pub fn index_uci(start: &Position, moves: &[&str]) -> Vec<(u64, u32)> {
    let mut pos = start.clone();
    let mut keys = Vec::new();
    for uci in moves.iter().take(MAX_PLIES) {
        let Ok(m) = pos.parse_uci(uci) else { break };
        keys.push((pos.hash(), encode_move(m)));
        pos.play_unchecked(m);
    }
    keys
}

/// Why a game of a PGN file was not indexed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skipped {
    /// No decided result (`*` or none).
    Unfinished,
    /// Not standard chess (a Chess960 or other variant), or a `FEN` tag that does not read.
    Setup(String),
    /// A move of the first [`MAX_PLIES`] that is not legal, with where it is.
    BadMove { at: Location, message: String },
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skipped::Unfinished => f.write_str("no result (unfinished game)"),
            Skipped::Setup(m) => f.write_str(m),
            Skipped::BadMove { at, message } => write!(f, "{at}: {message}"),
        }
    }
}

/// A [`Visitor`] that reads one game's tags and its first [`MAX_PLIES`] main-line moves, and ignores the rest (SAN
/// past that is not even resolved, which makes indexing a large file about as fast as reading it).
#[derive(Debug, Default)]
pub struct Indexer {
    /// The tags that matter: `FEN`, `SetUp`, `Variant` (for the start), and the others read at the end.
    setup_tags: Vec<(String, String)>,
    white_elo: Option<u32>,
    black_elo: Option<u32>,
    time_control: String,
    tag_result: Option<GameResult>,
    result: Option<GameResult>,
    position: Option<Position>,
    keys: Vec<(u64, u32)>,
    error: Option<Skipped>,
}

impl Indexer {
    pub fn new() -> Indexer {
        Indexer::default()
    }
}

fn elo(value: &str) -> Option<u32> {
    value.trim().parse().ok()
}

impl Visitor for Indexer {
    type Output = Result<IndexedGame, Skipped>;

    fn begin_game(&mut self) {
        self.setup_tags.clear();
        self.white_elo = None;
        self.black_elo = None;
        self.time_control.clear();
        self.tag_result = None;
        self.result = None;
        self.position = None;
        self.keys.clear();
        self.error = None;
    }

    fn tag(&mut self, name: &str, value: &str) {
        match name {
            "WhiteElo" => self.white_elo = elo(value),
            "BlackElo" => self.black_elo = elo(value),
            "TimeControl" => value.clone_into(&mut self.time_control),
            "Result" => self.tag_result = value.parse().ok(),
            _ if ["FEN", "SetUp", "Variant"].iter().any(|t| t.eq_ignore_ascii_case(name)) => {
                self.setup_tags.push((name.to_owned(), value.to_owned()));
            }
            _ => {}
        }
    }

    fn begin_movetext(&mut self) -> Skip {
        match start_position(&self.setup_tags) {
            Ok(p) if p.is_chess960() => self.error = Some(Skipped::Setup("a Chess960 game".into())),
            Ok(p) => self.position = Some(p),
            Err(m) => self.error = Some(Skipped::Setup(m)),
        }
        Skip(false)
    }

    fn san(&mut self, san: &str, at: Location) {
        if self.error.is_some() || self.keys.len() >= MAX_PLIES {
            return;
        }
        let Some(pos) = self.position.as_mut() else { return };
        // SAN, else UCI; a null move (`--`) is an error, so such a game is skipped with the move named.
        match guoxiang_pgn::parse_move(pos, san) {
            Ok(m) => {
                self.keys.push((pos.hash(), encode_move(m)));
                pos.play_unchecked(m);
            }
            Err(e) => {
                let n = self.keys.len() + 1;
                let dots = if n % 2 == 1 { "." } else { "..." };
                self.error = Some(Skipped::BadMove { at, message: format!("move {}{dots} {e}", n.div_ceil(2)) });
            }
        }
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    fn outcome(&mut self, result: GameResult) {
        self.result = Some(result);
    }

    fn end_game(&mut self) -> Result<IndexedGame, Skipped> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let outcome = self
            .result
            .filter(|r| *r != GameResult::Unknown)
            .or(self.tag_result)
            .and_then(Outcome::of_pgn)
            .ok_or(Skipped::Unfinished)?;
        Ok(IndexedGame {
            speed: if self.time_control.is_empty() {
                SpeedBucket::Unknown
            } else {
                SpeedBucket::of_tag(&self.time_control)
            },
            average_rating: average_rating(self.white_elo, self.black_elo),
            outcome,
            keys: std::mem::take(&mut self.keys),
        })
    }
}

/// Counts of one key: white wins, draws, black wins, rating sum.
type Counts = [i64; 4];

/// Many games aggregated in memory by (position, move, speed, rating bucket): what the import flushes to the store
/// when [`Batch::len`] reaches its bound, so memory stays bounded whatever the file's size.
#[derive(Debug, Default)]
pub struct Batch {
    map: HashMap<(u64, u32, i64, i64), Counts>,
    games: u64,
}

impl Batch {
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Adds a game's keys (a key repeated within the game, by a repetition, counts twice, as the game was there
    /// twice).
    pub fn add(&mut self, game: &IndexedGame) {
        let speed = game.speed.code();
        let rating = rating_bucket(game.average_rating);
        let sum = game.average_rating.map_or(0, i64::from);
        let col = match game.outcome {
            Outcome::WhiteWins => 0,
            Outcome::Draw => 1,
            Outcome::BlackWins => 2,
        };
        for &(pos, mv) in &game.keys {
            let c = self.map.entry((pos, mv, speed, rating)).or_default();
            c[col] += 1;
            c[3] += sum;
        }
        self.games += 1;
    }

    /// Distinct keys held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Games added since the last [`Batch::take_rows`].
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Empties the batch into store rows, in key order.
    pub fn take_rows(&mut self) -> Vec<ExplorerRow> {
        self.games = 0;
        let mut rows: Vec<ExplorerRow> = self
            .map
            .drain()
            .map(|((pos, mv, speed, rating), c)| ExplorerRow {
                pos,
                mv,
                speed,
                rating,
                white: c[0],
                draws: c[1],
                black: c[2],
                rating_sum: c[3],
            })
            .collect();
        rows.sort_unstable_by_key(|r| (r.pos as i64, r.mv, r.speed, r.rating));
        rows
    }
}

/// One move of the explorer's answer: the protocol's type, the one row type of the explorer from the counts to the
/// JSON answer.
pub use guoxiang_protocol::http::ExplorerMove;

/// The explorer's answer for one position: its moves, most played first, and the totals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub moves: Vec<ExplorerMove>,
    pub total: ExplorerMove,
}

fn pct(n: i64, of: i64) -> f64 {
    if of == 0 { 0.0 } else { (1000.0 * n as f64 / of as f64).round() / 10.0 }
}

fn stats(uci: String, san: String, c: &[i64; 5]) -> ExplorerMove {
    let games = c[0] + c[1] + c[2];
    ExplorerMove {
        uci,
        san,
        games,
        white: c[0],
        draws: c[1],
        black: c[2],
        white_pct: pct(c[0], games),
        draws_pct: pct(c[1], games),
        black_pct: pct(c[2], games),
        average_rating: (c[4] > 0).then(|| (c[3] as f64 / c[4] as f64).round() as i64),
    }
}

/// Adds up the rows of a position by move. A move that is not legal in `pos` (a hash collision with another
/// position) is left out. Sorted by games, most first; equal counts by UCI.
pub fn summarize(pos: &Position, rows: &[ExplorerRow]) -> Summary {
    // white, draws, black, rating sum, games with a rating
    let mut by_move: HashMap<u32, [i64; 5]> = HashMap::new();
    for r in rows {
        let c = by_move.entry(r.mv).or_default();
        c[0] += r.white;
        c[1] += r.draws;
        c[2] += r.black;
        c[3] += r.rating_sum;
        if r.rating >= 0 {
            c[4] += r.games();
        }
    }
    let mut total = [0i64; 5];
    let mut moves = Vec::with_capacity(by_move.len());
    for (code, c) in by_move {
        let uci = decode_move(code);
        let Ok(m) = pos.parse_uci(&uci) else { continue };
        for i in 0..5 {
            total[i] += c[i];
        }
        moves.push(stats(uci, pos.san(m), &c));
    }
    moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.uci.cmp(&b.uci)));
    Summary { moves, total: stats(String::new(), String::new(), &total) }
}

/// The opening of a position, for the explorer's header.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpeningInfo {
    /// The opening named by this position or, failing that, the last named position of the line that reached it.
    pub eco: Option<&'static str>,
    pub name_zh: Option<&'static str>,
    pub name_en: Option<&'static str>,
    /// `open`, `semi-open` or `closed`.
    pub family: Option<&'static str>,
    pub family_zh: Option<&'static str>,
    pub family_en: Option<&'static str>,
}

/// The opening and family of the position reached by `moves` (UCI, already checked legal) from `start`. The family
/// comes from the first two moves when the line starts at the standard position, else from the named opening's own
/// line.
pub fn opening_info(start: &Position, moves: &[&str], pos: &Position) -> OpeningInfo {
    let standard = start.epd() == Position::new().epd();
    let opening = guoxiang_openings::by_position(pos)
        .or_else(|| if standard { guoxiang_openings::classify_uci(moves) } else { None });
    let family = if standard && !moves.is_empty() {
        Family::of_first_moves(moves.first().copied(), moves.get(1).copied())
    } else {
        opening.and_then(|o| {
            let mut p = Position::new();
            let line: Vec<String> = o
                .san_moves()
                .take(2)
                .filter_map(|san| {
                    let m = p.parse_san(san).ok()?;
                    let u = p.uci(m);
                    p.play_unchecked(m);
                    Some(u)
                })
                .collect();
            Family::of_first_moves(line.first().map(String::as_str), line.get(1).map(String::as_str))
        })
    };
    OpeningInfo {
        eco: opening.map(|o| o.eco),
        name_zh: opening.map(|o| o.name_zh),
        name_en: opening.map(|o| o.name_en),
        family: family.map(Family::id),
        family_zh: family.map(|f| f.name(Lang::Zh)),
        family_en: family.map(|f| f.name(Lang::En)),
    }
}

/// The SHA-256 of everything `r` gives, in hex: the identity of an imported file.
pub fn sha256_hex(mut r: impl Read) -> std::io::Result<String> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(hex::encode(h.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use guoxiang_pgn::Reader;

    #[test]
    fn the_start_hash_is_pinned() {
        // Stored hashes must stay valid across builds: the Zobrist keys are compile-time constants.
        assert_eq!(Position::new().hash(), Position::new().hash_from_scratch());
        assert_eq!(format!("{:016x}", Position::new().hash()), START_HASH);
    }

    const START_HASH: &str = "3e8018c327d313ac";

    #[test]
    fn speed_buckets_follow_the_estimated_duration() {
        assert_eq!(SpeedBucket::of_tag("15+0"), SpeedBucket::UltraBullet);
        assert_eq!(SpeedBucket::of_tag("60+0"), SpeedBucket::Bullet);
        assert_eq!(SpeedBucket::of_tag("120+1"), SpeedBucket::Bullet);
        assert_eq!(SpeedBucket::of_tag("180+0"), SpeedBucket::Blitz);
        assert_eq!(SpeedBucket::of_tag("180+2"), SpeedBucket::Blitz);
        assert_eq!(SpeedBucket::of_tag("300+3"), SpeedBucket::Blitz);
        assert_eq!(SpeedBucket::of_tag("480+0"), SpeedBucket::Rapid);
        assert_eq!(SpeedBucket::of_tag("900+10"), SpeedBucket::Rapid);
        assert_eq!(SpeedBucket::of_tag("1500+0"), SpeedBucket::Classical);
        assert_eq!(SpeedBucket::of_tag("40/5400+30:1800+30"), SpeedBucket::Classical);
        assert_eq!(SpeedBucket::of_tag("-"), SpeedBucket::Correspondence);
        assert_eq!(SpeedBucket::of_tag("3d"), SpeedBucket::Correspondence);
        assert_eq!(SpeedBucket::of_tag("?"), SpeedBucket::Unknown);
        assert_eq!(SpeedBucket::of_tag("fast"), SpeedBucket::Unknown);
        for b in SpeedBucket::ALL {
            assert_eq!(SpeedBucket::parse(b.as_str()), Some(b));
        }
    }

    #[test]
    fn rating_buckets() {
        assert_eq!(rating_bucket(None), UNRATED);
        assert_eq!(rating_bucket(Some(650)), 0);
        assert_eq!(rating_bucket(Some(1000)), 1000);
        assert_eq!(rating_bucket(Some(1799)), 1600);
        assert_eq!(rating_bucket(Some(2499)), 2200);
        assert_eq!(rating_bucket(Some(2850)), 2500);
        assert_eq!(average_rating(Some(1500), Some(1701)), Some(1600));
        assert_eq!(average_rating(Some(1500), None), None);
        assert_eq!(average_rating(Some(0), Some(1500)), None);
    }

    #[test]
    fn families() {
        assert_eq!(Family::of_first_moves(None, None), None);
        assert_eq!(Family::of_first_moves(Some("e2e4"), None), None);
        assert_eq!(Family::of_first_moves(Some("e2e4"), Some("e7e5")), Some(Family::Open));
        assert_eq!(Family::of_first_moves(Some("e2e4"), Some("c7c5")), Some(Family::SemiOpen));
        assert_eq!(Family::of_first_moves(Some("d2d4"), None), Some(Family::Closed));
        assert_eq!(Family::of_first_moves(Some("g1f3"), Some("d7d5")), Some(Family::Closed));
        assert_eq!(Family::SemiOpen.name(Lang::Zh), "半开放性布局");
    }

    #[test]
    fn move_codes_round_trip() {
        for uci in ["e2e4", "a1h8", "h8a1", "e7e8q", "b2a1n", "g7g8r", "c7c8b", "e1g1"] {
            assert_eq!(decode_move(encode_uci(uci).unwrap()), uci);
        }
        assert_eq!(encode_uci("e2e9"), None);
        assert_eq!(encode_uci("e2e4k"), None);
        assert_eq!(encode_uci("e2"), None);
        // Castling is stored as the king's two-square move.
        let p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(decode_move(encode_move(p.parse_uci("e1g1").unwrap())), "e1g1");
        assert_eq!(decode_move(encode_move(p.parse_uci("e1c1").unwrap())), "e1c1");
    }

    const PGN: &str = r#"[Event "a"]
[WhiteElo "1500"]
[BlackElo "1700"]
[TimeControl "300+0"]
[Result "1-0"]

1. e4 e5 2. Nf3 (2. f4 exf4) 2... Nc6 3. Bb5 1-0

[Event "b"]
[Result "*"]

1. d4 d5 *

[Event "c"]
[Result "0-1"]

1. e4 e5 2. Ke3 0-1

[Event "d"]
[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]
[Result "1-0"]

1. e4 1-0

[Event "e"]
[Result "1/2-1/2"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 1/2-1/2
"#;

    fn read_all(pgn: &str) -> Vec<Result<IndexedGame, Skipped>> {
        let mut r = Reader::new(pgn.as_bytes());
        let mut ix = Indexer::new();
        let mut out = Vec::new();
        while let Some(g) = r.read_game(&mut ix).unwrap() {
            out.push(g);
        }
        out
    }

    #[test]
    fn the_indexer_reads_the_main_line_and_skips_bad_games() {
        let games = read_all(PGN);
        assert_eq!(games.len(), 5);
        let a = games[0].as_ref().unwrap();
        assert_eq!((a.speed, a.average_rating, a.outcome), (SpeedBucket::Blitz, Some(1600), Outcome::WhiteWins));
        let ucis: Vec<String> = a.keys.iter().map(|&(_, m)| decode_move(m)).collect();
        assert_eq!(ucis, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"], "the variation is not indexed");
        assert_eq!(a.keys[0].0, Position::new().hash());
        assert_eq!(games[1], Err(Skipped::Unfinished));
        match &games[2] {
            Err(Skipped::BadMove { at, message }) => {
                assert_eq!(at.line, 17);
                assert!(message.starts_with("move 2. Ke3"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(games[3], Err(Skipped::Setup(_))), "{:?}", games[3]);
        let e = games[4].as_ref().unwrap();
        assert_eq!((e.speed, e.average_rating, e.outcome), (SpeedBucket::Unknown, None, Outcome::Draw));
        // The start position and Nf3 come back after four plies: the same key, twice.
        assert_eq!(e.keys[0], e.keys[4]);
    }

    #[test]
    fn only_the_first_plies_are_indexed() {
        let mut pgn = String::from("[Result \"1-0\"]\n\n");
        for i in 0..40 {
            pgn.push_str(if i % 2 == 0 { "Nf3 Nf6 Ng1 Ng8 " } else { "Nc3 Nc6 Nb1 Nb8 " });
        }
        pgn.push_str("1-0\n");
        let g = read_all(&pgn).remove(0).unwrap();
        assert_eq!(g.keys.len(), MAX_PLIES);
    }

    #[test]
    fn uci_movetext_is_indexed_and_a_null_move_skips_the_game_naming_it() {
        let games = read_all("[Result \"1-0\"]\n\ne2e4 e7e5 g1f3 1-0\n\n[Result \"1-0\"]\n\n1. e4 -- 2. d4 1-0\n");
        let ucis: Vec<String> = games[0].as_ref().unwrap().keys.iter().map(|&(_, m)| decode_move(m)).collect();
        assert_eq!(ucis, ["e2e4", "e7e5", "g1f3"]);
        match &games[1] {
            Err(Skipped::BadMove { at, message }) => {
                assert_eq!((at.line, at.column), (7, 7));
                assert!(message.starts_with("move 1... --: a null move"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn batches_aggregate_and_summaries_add_up() {
        let games: Vec<IndexedGame> = read_all(PGN).into_iter().filter_map(Result::ok).collect();
        let mut batch = Batch::new();
        for g in &games {
            batch.add(g);
        }
        assert_eq!(batch.games(), 2);
        let rows = batch.take_rows();
        assert!(batch.is_empty());
        assert!(rows.windows(2).all(|w| (w[0].pos as i64, w[0].mv) <= (w[1].pos as i64, w[1].mv)));
        let start = Position::new();
        let here: Vec<ExplorerRow> = rows.iter().filter(|r| r.pos == start.hash()).copied().collect();
        let s = summarize(&start, &here);
        assert_eq!(s.total.games, 3, "e4 once, Nf3 twice (the repetition)");
        assert_eq!(s.moves[0].uci, "g1f3");
        assert_eq!((s.moves[0].san.as_str(), s.moves[0].games, s.moves[0].draws), ("Nf3", 2, 2));
        assert_eq!(s.moves[0].average_rating, None);
        assert_eq!((s.moves[1].uci.as_str(), s.moves[1].white_pct), ("e2e4", 100.0));
        assert_eq!(s.moves[1].average_rating, Some(1600));
        assert_eq!(s.total.average_rating, Some(1600), "only the rated game counts in the average");
        assert_eq!(s.total.draws_pct, 66.7);
    }

    #[test]
    fn opening_info_names_the_family() {
        let start = Position::new();
        let mut pos = start.clone();
        let moves = ["e2e4", "c7c5", "g1f3"];
        for m in moves {
            pos.play_unchecked(pos.parse_uci(m).unwrap());
        }
        let info = opening_info(&start, &moves, &pos);
        assert_eq!(info.family, Some("semi-open"));
        assert_eq!(info.family_zh, Some("半开放性布局"));
        assert!(info.eco.is_some_and(|e| e.starts_with('B')), "{info:?}");
        // From a FEN alone (a named position), the family comes from the named opening's own line.
        let mut sicilian = start.clone();
        for m in &moves[..2] {
            sicilian.play_unchecked(sicilian.parse_uci(m).unwrap());
        }
        let from_fen = opening_info(&sicilian, &[], &sicilian);
        assert_eq!((from_fen.eco, from_fen.family), (info.eco, Some("semi-open")));
        // An unnamed position given without its line has no opening.
        assert_eq!(opening_info(&pos, &[], &pos).family, None);
        assert_eq!(opening_info(&start, &[], &start).family, None);
    }
}
