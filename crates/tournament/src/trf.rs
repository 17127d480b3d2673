// SPDX-License-Identifier: GPL-3.0-or-later
//! FIDE's Tournament Report File, TRF-16 (FIDE Handbook C.04 Annex 2, "Format of Tournament Report File", by
//! Christian Krause, approved in 2015: <https://www.fide.com/FIDE/handbook/C04Annex2_TRF16.pdf>), read and written.
//!
//! A file is lines, each starting with a three-character code. Lines `012` to `122` are the tournament's data (the
//! value from column 5); `132` holds the round dates in the round columns; `001` is a player, in fixed columns
//! (1-based, as the format numbers them):
//!
//! | columns | field |
//! |---|---|
//! | 1–3 | `001` |
//! | 5–8 | starting rank (pairing number), 1 to 9999 |
//! | 10 | sex, `m` or `w` |
//! | 11–13 | title (GM, IM, WGM, FM, WIM, CM, WFM, WCM) |
//! | 15–47 | name, "Lastname, Firstname" |
//! | 49–52 | FIDE rating |
//! | 54–56 | federation |
//! | 58–68 | FIDE number |
//! | 70–79 | birth date, YYYY/MM/DD |
//! | 81–84 | points, e.g. ` 4.5` |
//! | 86–89 | rank |
//! | 92–95, 97, 99 | round 1: opponent's starting rank (`0000` or blanks: none), colour (`w`, `b`, `-` or blank), result |
//! | 102–105, 107, 109 | round 2, and so on every 10 columns |
//!
//! Results: `1 = 0` a game, `+ -` a forfeit won or lost (`-` against `-`: a double forfeit, both absent), `W D L` a game that lasted less than one move (not
//! rated), `H` a half-point bye, `F` a full-point bye, `U` a pairing-allocated bye, `Z` or blank a zero-point bye
//! (a known absence). Letter codes may be in either case.
//!
//! `XXR n` (the number of rounds), `XXC white1`/`XXC black1` (the colour of pairing number 1 in round 1) and
//! `XXP a b ...` (players of whom no two may be paired) are the extensions that the pairing engines JaVaFo and
//! bbpPairings read. A round entry written out in full after the last round played (`0000 - H`, `0000 - Z`) is
//! kept: pairing programs read it as "not to be paired in the next round", and [`Tournament::rounds_played`] leaves
//! it out of the rounds played. Comment lines start with `###`. Other lines (`013` teams, other `XX?` extensions) are kept as they are and written back.
//!
//! Columns are counted in characters, not bytes, so a name in Chinese characters keeps the layout. Reading never
//! panics: a bad line gives a [`TrfError`] with its line and column.

use std::collections::HashMap;
use std::fmt;

/// A colour in a round, as the file writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    White,
    Black,
    /// `-` or blank: no colour (a bye, or not paired).
    None,
}

/// A round's result code (C.04 Annex 2, the table of results).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Code {
    /// `1`: a game won.
    Win,
    /// `=`: a game drawn.
    Draw,
    /// `0`: a game lost.
    Loss,
    /// `+`: a forfeit won.
    ForfeitWin,
    /// `-`: a forfeit lost.
    ForfeitLoss,
    /// `W`: won, the game lasted less than one move (not rated).
    WinShort,
    /// `D`: drawn, the game lasted less than one move (not rated).
    DrawShort,
    /// `L`: lost, the game lasted less than one move (not rated).
    LossShort,
    /// `H`: a half-point bye.
    HalfBye,
    /// `F`: a full-point bye.
    FullBye,
    /// `U`: the pairing-allocated bye.
    PairingBye,
    /// `Z` or blank: a zero-point bye (a known absence).
    ZeroBye,
}

impl Code {
    fn parse(c: char) -> Option<Code> {
        Some(match c.to_ascii_uppercase() {
            '1' => Code::Win,
            '=' => Code::Draw,
            '0' => Code::Loss,
            '+' => Code::ForfeitWin,
            '-' => Code::ForfeitLoss,
            'W' => Code::WinShort,
            'D' => Code::DrawShort,
            'L' => Code::LossShort,
            'H' => Code::HalfBye,
            'F' => Code::FullBye,
            'U' => Code::PairingBye,
            'Z' | ' ' => Code::ZeroBye,
            _ => return None,
        })
    }

    /// The character the file writes.
    pub fn as_char(self) -> char {
        match self {
            Code::Win => '1',
            Code::Draw => '=',
            Code::Loss => '0',
            Code::ForfeitWin => '+',
            Code::ForfeitLoss => '-',
            Code::WinShort => 'W',
            Code::DrawShort => 'D',
            Code::LossShort => 'L',
            Code::HalfBye => 'H',
            Code::FullBye => 'F',
            Code::PairingBye => 'U',
            Code::ZeroBye => 'Z',
        }
    }

    /// Whether the code needs an opponent (a game or a forfeit); byes have none. `+` and `-` are also accepted
    /// without an opponent (some programs write an absence as `0000 - -`).
    fn needs_opponent(self) -> bool {
        matches!(self, Code::Win | Code::Draw | Code::Loss | Code::WinShort | Code::DrawShort | Code::LossShort)
    }

    fn is_bye(self) -> bool {
        matches!(self, Code::HalfBye | Code::FullBye | Code::PairingBye | Code::ZeroBye)
    }

    /// The code the opponent must have for the same game.
    fn mirror(self) -> Option<Code> {
        Some(match self {
            Code::Win => Code::Loss,
            Code::Loss => Code::Win,
            Code::Draw => Code::Draw,
            Code::ForfeitWin => Code::ForfeitLoss,
            Code::ForfeitLoss => Code::ForfeitWin,
            Code::WinShort => Code::LossShort,
            Code::LossShort => Code::WinShort,
            Code::DrawShort => Code::DrawShort,
            _ => return None,
        })
    }
}

/// One round of a player's line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundEntry {
    /// The opponent's starting rank, or `None` (`0000`).
    pub opponent: Option<u16>,
    pub colour: Colour,
    pub code: Code,
}

impl RoundEntry {
    /// The entry of a round the player was not in (blank in the file).
    pub const ABSENT: RoundEntry = RoundEntry { opponent: None, colour: Colour::None, code: Code::ZeroBye };
}

/// Whether a round entry shows that its round was paired: an opponent (a game or a forfeit) or the
/// pairing-allocated bye. Requested byes can be declared before a round is paired, so they do not.
pub fn is_paired(e: &RoundEntry) -> bool {
    e.opponent.is_some() || e.code == Code::PairingBye
}

/// A `001` line.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    pub start_number: u16,
    /// Column 10 as written (`m`, `w`, or blank).
    pub sex: String,
    pub title: String,
    pub name: String,
    pub rating: Option<u16>,
    pub federation: String,
    pub fide_id: Option<u64>,
    pub birth_date: String,
    /// The points the file states (columns 81–84); the standings compute their own.
    pub points: Option<f64>,
    pub rank: Option<u16>,
    pub rounds: Vec<RoundEntry>,
}

/// The tournament lines (`012` .. `122`), each the text from column 5, trimmed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Header {
    /// `012`
    pub name: Option<String>,
    /// `022`
    pub city: Option<String>,
    /// `032`
    pub federation: Option<String>,
    /// `042`
    pub start_date: Option<String>,
    /// `052`
    pub end_date: Option<String>,
    /// `062`
    pub players: Option<String>,
    /// `072`
    pub rated_players: Option<String>,
    /// `082`
    pub teams: Option<String>,
    /// `092`
    pub kind: Option<String>,
    /// `102`
    pub chief_arbiter: Option<String>,
    /// `112`, one line each.
    pub deputy_arbiters: Vec<String>,
    /// `122`
    pub time_control: Option<String>,
    /// `132`, kept as the whole line (the dates are in the round columns).
    pub round_dates: Option<String>,
}

/// A whole file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tournament {
    pub header: Header,
    /// `XXR`: the number of rounds.
    pub rounds: Option<u32>,
    /// `XXC white1` or `XXC black1`: the colour of pairing number 1 in round 1.
    pub initial_colour: Option<Colour>,
    /// `XXP a b c ...`: groups of players (by starting rank) of whom no two may be paired.
    pub forbidden: Vec<Vec<u16>>,
    /// Players in file order.
    pub players: Vec<Player>,
    /// Lines this module does not interpret (teams, other extensions, comments), in file order.
    pub other_lines: Vec<String>,
}

impl Tournament {
    /// The rounds that have entries: the most rounds any player's line has. This may count one round more than
    /// [`Tournament::rounds_played`]: the next round's declared absences.
    pub fn rounds_present(&self) -> usize {
        self.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0)
    }

    /// The rounds played (or paired) so far: up to the last round in which some player had an opponent or the
    /// pairing-allocated bye. Entries after it (`0000 - H`, `0000 - Z`, `0000 - F` in the next round's columns)
    /// are declarations for the round not yet paired, read only by the pairing ([`crate::dutch::input_from_trf`]);
    /// the standings and the crosstable stop at this round.
    pub fn rounds_played(&self) -> usize {
        self.players.iter().filter_map(|p| p.rounds.iter().rposition(is_paired).map(|r| r + 1)).max().unwrap_or(0)
    }

    /// The entry of a player's round `r` (0-based) among the rounds played: an absence (a zero-point bye) when the
    /// line stops earlier or there is no such player.
    pub fn entry(&self, start_number: u16, r: usize) -> RoundEntry {
        self.player(start_number).and_then(|p| p.rounds.get(r).copied()).unwrap_or(RoundEntry::ABSENT)
    }

    /// The player with a starting rank.
    pub fn player(&self, start_number: u16) -> Option<&Player> {
        self.players.iter().find(|p| p.start_number == start_number)
    }
}

/// A reading error: what was wrong and where (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TRF line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for TrfError {}

fn err(line: usize, column: usize, message: impl Into<String>) -> TrfError {
    TrfError { line, column, message: message.into() }
}

/// Characters `from..=to` (1-based) of a line, blank-padded if the line is shorter.
fn field(chars: &[char], from: usize, to: usize) -> String {
    (from..=to).map(|c| chars.get(c - 1).copied().unwrap_or(' ')).collect()
}

/// The first column of round `r` (0-based): 92, 102, 112, ...
fn round_column(r: usize) -> usize {
    92 + 10 * r
}

fn parse_opt_number<T: std::str::FromStr>(
    text: &str,
    line: usize,
    column: usize,
    what: &str,
) -> Result<Option<T>, TrfError> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    if !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(line, column, format!("{what} {t:?} is not a number")));
    }
    t.parse::<T>().map(Some).map_err(|_| err(line, column, format!("{what} {t:?} is too large")))
}

fn parse_points(text: &str, line: usize, column: usize) -> Result<Option<f64>, TrfError> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let ok = t.bytes().all(|b| b.is_ascii_digit() || b == b'.') && t.bytes().filter(|&b| b == b'.').count() <= 1;
    match t.parse::<f64>() {
        Ok(v) if ok => Ok(Some(v)),
        _ => Err(err(line, column, format!("points {t:?} are not a number like 4.5"))),
    }
}

fn parse_player(chars: &[char], line: usize) -> Result<Player, TrfError> {
    if chars.len() < 8 {
        return Err(err(line, chars.len() + 1, "a player line (001) needs its starting rank in columns 5-8"));
    }
    let start = field(chars, 5, 8);
    let start_number: u16 = match parse_opt_number::<u16>(&start, line, 5, "starting rank")? {
        Some(n) if (1..=9999).contains(&n) => n,
        Some(n) => return Err(err(line, 5, format!("starting rank {n} is not between 1 and 9999"))),
        None => return Err(err(line, 5, "the starting rank (columns 5-8) is blank")),
    };
    let sex = field(chars, 10, 10).trim().to_string();
    if !matches!(sex.as_str(), "" | "m" | "w" | "M" | "W" | "f" | "F") {
        return Err(err(line, 10, format!("sex {sex:?} is not m or w")));
    }
    let rating = parse_opt_number::<u16>(&field(chars, 49, 52), line, 49, "rating")?;
    let fide_id = parse_opt_number::<u64>(&field(chars, 58, 68), line, 58, "FIDE number")?;
    let points = parse_points(&field(chars, 81, 84), line, 81)?;
    let rank = parse_opt_number::<u16>(&field(chars, 86, 89), line, 86, "rank")?;
    let mut rounds = Vec::new();
    let mut blank = Vec::new();
    let mut r = 0;
    while chars.len() >= round_column(r) {
        let c0 = round_column(r);
        blank.push(field(chars, c0, c0 + 7).trim().is_empty());
        let opp_text = field(chars, c0, c0 + 3);
        let opponent = match parse_opt_number::<u16>(&opp_text, line, c0, "opponent")? {
            Some(0) | None => None,
            Some(n) => Some(n),
        };
        let colour = match field(chars, c0 + 5, c0 + 5).chars().next().unwrap_or(' ') {
            'w' | 'W' => Colour::White,
            'b' | 'B' => Colour::Black,
            '-' | ' ' => Colour::None,
            other => return Err(err(line, c0 + 5, format!("colour {other:?} is not w, b or -"))),
        };
        let rc = field(chars, c0 + 7, c0 + 7).chars().next().unwrap_or(' ');
        let code = Code::parse(rc)
            .ok_or_else(|| err(line, c0 + 7, format!("result {rc:?} is not one of 1 = 0 + - W D L H F U Z")))?;
        if opponent.is_some() && code.is_bye() {
            return Err(err(line, c0 + 7, format!("round {}: a bye ({}) cannot have an opponent", r + 1, rc)));
        }
        if opponent.is_none() && code.needs_opponent() {
            return Err(err(
                line,
                c0,
                format!("round {}: the result {rc:?} is a game but there is no opponent", r + 1),
            ));
        }
        if opponent == Some(start_number) {
            return Err(err(line, c0, format!("round {}: player {start_number} is paired with themself", r + 1)));
        }
        rounds.push(RoundEntry { opponent, colour, code });
        r += 1;
    }
    // A line may end in blank rounds; they are absences like rounds not written.
    while blank.last() == Some(&true) {
        blank.pop();
        rounds.pop();
    }
    Ok(Player {
        start_number,
        sex,
        title: field(chars, 11, 13).trim().to_string(),
        name: field(chars, 15, 47).trim().to_string(),
        rating,
        federation: field(chars, 54, 56).trim().to_string(),
        fide_id,
        birth_date: field(chars, 70, 79).trim().to_string(),
        points,
        rank,
        rounds,
    })
}

/// Reads a TRF-16 file. Checks that starting ranks are unique, that every opponent exists, and that both players
/// of a pairing say so with opposite colours and matching results.
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    let mut t = Tournament::default();
    let mut lines_of: Vec<usize> = Vec::new(); // the file line of each player
    let mut xxp_lines: Vec<usize> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if raw.trim().is_empty() {
            continue;
        }
        let chars: Vec<char> = raw.chars().collect();
        let code: String = chars.iter().take(3).collect();
        let value = || chars.iter().skip(4).collect::<String>().trim().to_string();
        let h = &mut t.header;
        match code.as_str() {
            "001" => {
                let p = parse_player(&chars, line)?;
                if let Some(k) = t.players.iter().position(|q| q.start_number == p.start_number) {
                    return Err(err(
                        line,
                        5,
                        format!("starting rank {} is already used on line {}", p.start_number, lines_of[k]),
                    ));
                }
                t.players.push(p);
                lines_of.push(line);
            }
            "012" => h.name = Some(value()),
            "022" => h.city = Some(value()),
            "032" => h.federation = Some(value()),
            "042" => h.start_date = Some(value()),
            "052" => h.end_date = Some(value()),
            "062" => h.players = Some(value()),
            "072" => h.rated_players = Some(value()),
            "082" => h.teams = Some(value()),
            "092" => h.kind = Some(value()),
            "102" => h.chief_arbiter = Some(value()),
            "112" => h.deputy_arbiters.push(value()),
            "122" => h.time_control = Some(value()),
            "132" => h.round_dates = Some(raw.trim_end().to_string()),
            "XXR" => {
                let v = value();
                match v.parse::<u32>() {
                    Ok(n) if n > 0 && n < 10_000 => t.rounds = Some(n),
                    _ => return Err(err(line, 5, format!("XXR needs a number of rounds, not {v:?}"))),
                }
            }
            "XXC" => {
                for (col, word) in words(&chars, 4) {
                    match word.to_ascii_lowercase().as_str() {
                        "white1" => t.initial_colour = Some(Colour::White),
                        "black1" => t.initial_colour = Some(Colour::Black),
                        _ => return Err(err(line, col, format!("XXC: {word:?} is not white1 or black1"))),
                    }
                }
            }
            "XXP" => {
                let mut group = Vec::new();
                for (col, word) in words(&chars, 4) {
                    match word.parse::<u16>() {
                        Ok(n) if n > 0 => group.push(n),
                        _ => return Err(err(line, col, format!("XXP: {word:?} is not a starting rank"))),
                    }
                }
                if group.len() < 2 {
                    return Err(err(line, 1, "XXP needs at least two starting ranks"));
                }
                t.forbidden.push(group);
                xxp_lines.push(line);
            }
            _ if code.len() == 3 && (code.starts_with("###") || code.chars().all(|c| c.is_ascii_alphanumeric())) => {
                t.other_lines.push(raw.to_string())
            }
            _ => return Err(err(line, 1, format!("{code:?} is not a TRF record code (001, 012, XXR, ...)"))),
        }
    }
    check_pairings(&t, &lines_of)?;
    for (group, &line) in t.forbidden.iter().zip(&xxp_lines) {
        if let Some(&n) = group.iter().find(|&&n| t.player(n).is_none()) {
            return Err(err(line, 5, format!("XXP: starting rank {n} is not a player of the file")));
        }
    }
    if let Some(n) = t.rounds
        && t.rounds_present() > n as usize
    {
        let k = t.players.iter().position(|p| p.rounds.len() > n as usize).unwrap_or(0);
        return Err(err(
            lines_of[k],
            round_column(n as usize),
            format!("XXR says {n} rounds but this line has results for round {}", t.players[k].rounds.len()),
        ));
    }
    Ok(t)
}

/// The blank-separated words of a line from 0-based character `from`, each with its 1-based column.
fn words(chars: &[char], from: usize) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut i = from;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() {
            i += 1;
        }
        out.push((start + 1, chars[start..i].iter().collect()));
    }
    out
}

fn check_pairings(t: &Tournament, lines_of: &[usize]) -> Result<(), TrfError> {
    let index: HashMap<u16, usize> = t.players.iter().enumerate().map(|(i, p)| (p.start_number, i)).collect();
    for (i, p) in t.players.iter().enumerate() {
        for (r, e) in p.rounds.iter().enumerate() {
            let Some(o) = e.opponent else { continue };
            let col = round_column(r);
            let Some(&j) = index.get(&o) else {
                return Err(err(
                    lines_of[i],
                    col,
                    format!("round {}: opponent {o} is not a player of the file", r + 1),
                ));
            };
            let q = &t.players[j];
            let theirs = q.rounds.get(r).copied().unwrap_or(RoundEntry::ABSENT);
            // Report on whichever of the two lines comes later, once the first has been read.
            let at = lines_of[i].max(lines_of[j]);
            let at_col = if lines_of[i] >= lines_of[j] { col } else { round_column(r) };
            if theirs.opponent != Some(p.start_number) {
                let said = match theirs.opponent {
                    Some(x) => format!("player {x}"),
                    None => "no opponent".to_string(),
                };
                return Err(err(
                    at,
                    at_col,
                    format!("round {}: player {} is paired with {o}, but {o} has {said}", r + 1, p.start_number),
                ));
            }
            let colours_ok = matches!(
                (e.colour, theirs.colour),
                (Colour::White, Colour::Black) | (Colour::Black, Colour::White) | (Colour::None, Colour::None)
            );
            if !colours_ok {
                return Err(err(
                    at,
                    at_col + 5,
                    format!("round {}: players {} and {o} do not have opposite colours", r + 1, p.start_number),
                ));
            }
            // A double forfeit (both absent) is `-` against `-`: neither scores, no game was played.
            let double_forfeit = e.code == Code::ForfeitLoss && theirs.code == Code::ForfeitLoss;
            if e.code.mirror() != Some(theirs.code) && !double_forfeit {
                return Err(err(
                    at,
                    at_col + 7,
                    format!(
                        "round {}: player {} has {} against {o}, who has {} (results do not match)",
                        r + 1,
                        p.start_number,
                        e.code.as_char(),
                        theirs.code.as_char()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Writes `text` into `line` at 1-based `column`, padding with blanks.
fn put(line: &mut Vec<char>, column: usize, text: &str) {
    let start = column - 1;
    let chars: Vec<char> = text.chars().collect();
    if line.len() < start + chars.len() {
        line.resize(start + chars.len(), ' ');
    }
    line[start..start + chars.len()].copy_from_slice(&chars);
}

/// `text` on one line: every control character (line feed, carriage return, tab, ...) becomes a blank, so free text
/// typed by an organiser or a player can neither end its line early nor move the columns after it.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// `text` on one line, cut to `width` characters and padded on the left (`right` true) or the right.
fn fit(text: &str, width: usize, right: bool) -> String {
    let cut: String = one_line(text).chars().take(width).collect();
    if right { format!("{cut:>width$}") } else { format!("{cut:<width$}") }
}

fn player_line(p: &Player) -> String {
    let mut l: Vec<char> = Vec::with_capacity(100);
    put(&mut l, 1, "001");
    put(&mut l, 5, &format!("{:>4}", p.start_number));
    put(&mut l, 10, &fit(&p.sex, 1, false));
    put(&mut l, 11, &fit(&p.title, 3, true));
    put(&mut l, 15, &fit(&p.name, 33, false));
    put(&mut l, 49, &fit(&p.rating.map(|r| r.to_string()).unwrap_or_default(), 4, true));
    put(&mut l, 54, &fit(&p.federation, 3, false));
    put(&mut l, 58, &fit(&p.fide_id.map(|r| r.to_string()).unwrap_or_default(), 11, true));
    put(&mut l, 70, &fit(&p.birth_date, 10, false));
    put(&mut l, 81, &fit(&p.points.map(|v| format!("{v:.1}")).unwrap_or_default(), 4, true));
    put(&mut l, 86, &fit(&p.rank.map(|r| r.to_string()).unwrap_or_default(), 4, true));
    for (r, e) in p.rounds.iter().enumerate() {
        let c0 = round_column(r);
        put(&mut l, c0, &format!("{:04}", e.opponent.unwrap_or(0)));
        let colour = match e.colour {
            Colour::White => "w",
            Colour::Black => "b",
            Colour::None => "-",
        };
        put(&mut l, c0 + 5, colour);
        put(&mut l, c0 + 7, &e.code.as_char().to_string());
    }
    l.into_iter().collect::<String>().trim_end().to_string()
}

/// Writes a file: the tournament lines in the order of the format, `XXR`, the other lines, then the players, each
/// line ended by a line feed (the reader accepts CR LF too). Free text is put on one line: control characters
/// (line feed, carriage return, tab) become blanks, and a player line's fields are cut to their widths (name: 33).
pub fn write(t: &Tournament) -> String {
    let mut out = String::new();
    let mut tag = |code: &str, v: &Option<String>| {
        if let Some(v) = v {
            out.push_str(&format!("{code} {}\n", one_line(v)));
        }
    };
    let h = &t.header;
    tag("012", &h.name);
    tag("022", &h.city);
    tag("032", &h.federation);
    tag("042", &h.start_date);
    tag("052", &h.end_date);
    tag("062", &h.players);
    tag("072", &h.rated_players);
    tag("082", &h.teams);
    tag("092", &h.kind);
    tag("102", &h.chief_arbiter);
    for d in &h.deputy_arbiters {
        out.push_str(&format!("112 {}\n", one_line(d)));
    }
    let h = &t.header;
    if let Some(v) = &h.time_control {
        out.push_str(&format!("122 {}\n", one_line(v)));
    }
    if let Some(v) = &h.round_dates {
        out.push_str(&one_line(v));
        out.push('\n');
    }
    if let Some(n) = t.rounds {
        out.push_str(&format!("XXR {n}\n"));
    }
    match t.initial_colour {
        Some(Colour::White) => out.push_str("XXC white1\n"),
        Some(Colour::Black) => out.push_str("XXC black1\n"),
        _ => {}
    }
    for group in &t.forbidden {
        let numbers: Vec<String> = group.iter().map(|n| n.to_string()).collect();
        out.push_str(&format!("XXP {}\n", numbers.join(" ")));
    }
    for l in &t.other_lines {
        out.push_str(&one_line(l));
        out.push('\n');
    }
    for p in &t.players {
        out.push_str(&player_line(p));
        out.push('\n');
    }
    out
}
