//! PGN export of a game, in export format, with `[%clk h:mm:ss]` comments.

use guoxiang_core::Termination;
use guoxiang_pgn::{GameResult, Writer};

use crate::game::{Game, Status, Variant};

/// Tags the game itself does not know. `None` values get defaults: Event `"Rated blitz game"` / `"Casual rapid
/// game"` (lichess style, from the time control), Site `"?"`, Date `"????.??.??"`, Round `"-"`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnTags {
    pub event: Option<String>,
    pub site: Option<String>,
    /// `YYYY.MM.DD`.
    pub date: Option<String>,
    pub round: Option<String>,
    /// More tags, written after `Termination` in this order (e.g. `WhiteElo`, `ECO`, `Opening`).
    pub extra: Vec<(String, String)>,
    /// Leave out the `[%clk]` comments (Lichess's export with `clocks=false`).
    pub without_clocks: bool,
}

/// The PGN `Termination` tag in the words lichess uses: `Normal`, `Time forfeit`, `Abandoned`, `Adjudication`
/// (a server or arbiter decision), `Rules infraction` (a game lost or drawn for illegal moves, Article 7.5.5),
/// `Unterminated` (still going, or aborted).
pub fn termination_tag(status: &Status) -> &'static str {
    match status {
        Status::Finished { outcome } => match outcome.termination {
            Termination::TimeForfeit | Termination::TimeForfeitDraw { .. } => "Time forfeit",
            Termination::Abandoned => "Abandoned",
            Termination::Adjudication => "Adjudication",
            Termination::IllegalMove { .. } | Termination::SealedMove { .. } => "Rules infraction",
            Termination::LateArrival { .. } => "Abandoned",
            _ => "Normal",
        },
        _ => "Unterminated",
    }
}

/// `h:mm:ss`, whole seconds rounded down.
pub fn format_clk(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

impl Game {
    /// The game's result as PGN has it (`*` while it is being played, or when aborted).
    pub fn pgn_result(&self) -> GameResult {
        match self.outcome().map(|o| o.winner) {
            Some(Some(guoxiang_core::Color::White)) => GameResult::WhiteWins,
            Some(Some(guoxiang_core::Color::Black)) => GameResult::BlackWins,
            Some(None) => GameResult::Draw,
            None => GameResult::Unknown,
        }
    }

    /// The tags of [`Game::to_pgn`], in the order it writes them (the seven-tag roster first).
    pub fn pgn_tags(&self, tags: &PgnTags) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::with_capacity(13 + tags.extra.len());
        let mut tag = |k: &str, v: &str| out.push((k.to_owned(), v.to_owned()));
        let default_event =
            format!("{} {} game", if self.rated { "Rated" } else { "Casual" }, self.time_control().speed().as_str());
        tag("Event", tags.event.as_deref().unwrap_or(&default_event));
        tag("Site", tags.site.as_deref().unwrap_or("?"));
        tag("Date", tags.date.as_deref().unwrap_or("????.??.??"));
        tag("Round", tags.round.as_deref().unwrap_or("-"));
        tag("White", &self.white.name);
        tag("Black", &self.black.name);
        tag("Result", self.pgn_result().as_str());
        tag("GameId", &self.id);
        tag("TimeControl", &self.time_control().to_pgn());
        // A result the arbiter set for a breach of the Laws (12.9) is a rules infraction, not an adjudication.
        let infraction = matches!(self.status, Status::Finished { outcome } if outcome.termination == Termination::Adjudication)
            && self.arbiter.log.iter().rev().find(|r| r.act == "set_result").is_some_and(|r| r.infraction);
        tag("Termination", if infraction { "Rules infraction" } else { termination_tag(&self.status) });
        for (k, v) in &tags.extra {
            tag(k, v);
        }
        match &self.variant {
            Variant::Standard => {}
            Variant::Chess960 { .. } | Variant::FromPosition { .. } => {
                let name = if matches!(self.variant, Variant::Chess960 { .. }) { "Chess960" } else { "From Position" };
                tag("Variant", name);
                tag("SetUp", "1");
                tag("FEN", &self.state.start().fen());
            }
        }
        out
    }

    /// The game in PGN export format: the seven-tag roster, then `GameId`, `TimeControl`, `Termination`, and for a
    /// non-standard start `Variant`, `SetUp` and `FEN`; each move followed by `{ [%clk h:mm:ss] }` with the mover's
    /// time after the move (unless there is no time limit), and each counted illegal move by a comment saying what it
    /// was and what followed. Unfinished and aborted games get the result `*`.
    pub fn to_pgn(&self, tags: &PgnTags) -> String {
        let mut w = Writer::new(Vec::new());
        let result = self.pgn_result();
        for (name, value) in self.pgn_tags(tags) {
            w.tag(&name, &value);
        }
        let mut incidents = self.illegal.incidents.iter().peekable();
        let mut acts = self.arbiter.log.iter().peekable();
        // Counted illegal moves (Article 7.5) are comments where they happened, in English (PGN's language), and so
        // are the arbiters' acts, as `[%arbiter NAME act]` and what was done.
        let mut note = |w: &mut Writer<Vec<u8>>, ply: usize| {
            while let Some(i) = incidents.next_if(|i| i.ply as usize == ply) {
                w.comment(&i.message_en);
            }
            while let Some(r) = acts.next_if(|r| r.ply as usize <= ply) {
                let clean = |t: &str| t.replace(['{', '}', '[', ']'], "");
                w.comment(&format!(
                    "[%arbiter {} {}] {}",
                    clean(&r.arbiter.name).replace(' ', "_"),
                    r.act,
                    clean(&r.message_en)
                ));
            }
        };
        note(&mut w, 0);
        for (i, r) in self.moves.iter().enumerate() {
            w.san(&r.san);
            if let Some(ms) = r.clock_ms.filter(|_| !tags.without_clocks) {
                w.comment(&format!("[%clk {}]", format_clk(ms)));
            }
            note(&mut w, i + 1);
        }
        // Writing into a Vec cannot fail.
        let _ = w.finish(result);
        String::from_utf8_lossy(&w.into_inner()).into_owned()
    }
}
