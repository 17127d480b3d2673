// SPDX-License-Identifier: GPL-3.0-or-later
//! The document and FIDE's TRF-16: the document as a [`trf::Tournament`] (for the standings, the next pairing and
//! the export), and an over-the-board tournament imported from one.

use super::{
    Board, Bye, ByeKind, Doc, Entry, MAX_PLAYERS, MAX_SWISS_ROUNDS, Refused, Round, TournamentMode, TournamentResult,
    TournamentStatus, TournamentSystem, default_tie_breaks, refused,
};
use crate::standings;
use crate::trf::{self, Code, Colour, RoundEntry};

/// The TRF codes of White and Black for a result.
pub fn codes(result: TournamentResult) -> (Code, Code) {
    match result {
        TournamentResult::WhiteWins => (Code::Win, Code::Loss),
        TournamentResult::Draw => (Code::Draw, Code::Draw),
        TournamentResult::BlackWins => (Code::Loss, Code::Win),
        TournamentResult::WhiteForfeitWin => (Code::ForfeitWin, Code::ForfeitLoss),
        TournamentResult::BlackForfeitWin => (Code::ForfeitLoss, Code::ForfeitWin),
        TournamentResult::DoubleForfeit => (Code::ForfeitLoss, Code::ForfeitLoss),
    }
}

/// The result of a pair of TRF codes (White's, Black's), if they make one.
pub fn result_of_codes(white: Code, black: Code) -> Option<TournamentResult> {
    Some(match (white, black) {
        (Code::Win | Code::WinShort, Code::Loss | Code::LossShort) => TournamentResult::WhiteWins,
        (Code::Draw | Code::DrawShort, Code::Draw | Code::DrawShort) => TournamentResult::Draw,
        (Code::Loss | Code::LossShort, Code::Win | Code::WinShort) => TournamentResult::BlackWins,
        (Code::ForfeitWin, Code::ForfeitLoss) => TournamentResult::WhiteForfeitWin,
        (Code::ForfeitLoss, Code::ForfeitWin) => TournamentResult::BlackForfeitWin,
        (Code::ForfeitLoss, Code::ForfeitLoss) => TournamentResult::DoubleForfeit,
        _ => return None,
    })
}

pub(super) fn bye_code(kind: ByeKind) -> Code {
    match kind {
        ByeKind::Pairing => Code::PairingBye,
        ByeKind::Half => Code::HalfBye,
        ByeKind::Zero => Code::ZeroBye,
    }
}

/// Points of a bye.
pub fn bye_points(kind: ByeKind) -> f64 {
    standings::points(bye_code(kind))
}

impl Doc {
    /// The tournament as a TRF-16 file's model: the finished rounds only (`finished_only`, for standings and the
    /// next pairing), or every round with the results known so far.
    pub fn to_trf(&self, finished_only: bool) -> trf::Tournament {
        let rounds: Vec<&Round> =
            self.round_list.iter().take_while(|r| !finished_only || r.finished()).collect::<Vec<_>>();
        let mut players: Vec<trf::Player> = self
            .players
            .iter()
            .filter(|p| p.no > 0)
            .map(|p| trf::Player {
                start_number: p.no as u16,
                sex: String::new(),
                title: String::new(),
                name: p.name.clone(),
                rating: p.rating.and_then(|r| u16::try_from(r).ok()),
                federation: String::new(),
                fide_id: None,
                birth_date: String::new(),
                points: None,
                rank: None,
                rounds: vec![RoundEntry::ABSENT; rounds.len()],
            })
            .collect();
        players.sort_by_key(|p| p.start_number);
        let index: std::collections::HashMap<u32, usize> =
            players.iter().enumerate().map(|(i, p)| (u32::from(p.start_number), i)).collect();
        let idx = |no: u32| index.get(&no).copied();
        for (r, round) in rounds.iter().enumerate() {
            for b in &round.boards {
                let (wc, bc) = match b.result {
                    Some(res) => codes(res),
                    // A game in progress: paired, not scored (only in the full export).
                    None => (Code::ZeroBye, Code::ZeroBye),
                };
                let (w_played, b_played) = (b.result.is_some(), b.result.is_some());
                if let Some(i) = idx(b.white) {
                    players[i].rounds[r] = RoundEntry {
                        opponent: Some(b.black as u16),
                        colour: Colour::White,
                        code: if w_played { wc } else { Code::ZeroBye },
                    };
                }
                if let Some(i) = idx(b.black) {
                    players[i].rounds[r] = RoundEntry {
                        opponent: Some(b.white as u16),
                        colour: Colour::Black,
                        code: if b_played { bc } else { Code::ZeroBye },
                    };
                }
            }
            for bye in &round.byes {
                if let Some(i) = idx(bye.no) {
                    players[i].rounds[r] =
                        RoundEntry { opponent: None, colour: Colour::None, code: bye_code(bye.kind) };
                }
            }
        }
        trf::Tournament {
            header: self.trf_header(&players),
            rounds: (self.rounds > 0).then_some(self.rounds),
            initial_colour: None,
            forbidden: self.forbidden.iter().map(|&(a, b)| vec![a as u16, b as u16]).collect(),
            players,
            other_lines: Vec::new(),
        }
    }

    /// The TRF-16 header lines of the tournament with these players.
    fn trf_header(&self, players: &[trf::Player]) -> trf::Header {
        trf::Header {
            name: Some(self.name.clone()),
            players: Some(players.len().to_string()),
            rated_players: Some(players.iter().filter(|p| p.rating.is_some()).count().to_string()),
            kind: Some(
                match self.system {
                    TournamentSystem::RoundRobin => "Round robin",
                    TournamentSystem::DoubleRoundRobin => "Double round robin",
                    TournamentSystem::Swiss => "Swiss Dutch",
                    TournamentSystem::Arena => "Arena",
                }
                .to_owned(),
            ),
            chief_arbiter: self.arbiters.first().map(|(_, n)| n.clone()),
            deputy_arbiters: self.arbiters.iter().skip(1).map(|(_, n)| n.clone()).collect(),
            time_control: (self.time_control != "-").then(|| self.time_control.clone()),
            ..trf::Header::default()
        }
    }

    /// An over-the-board tournament from a TRF-16 file: its players and every round in it, results included.
    pub fn from_trf(t: &trf::Tournament, organiser: (String, String), now_ms: i64) -> Result<Doc, Refused> {
        let (played, rounds) = trf_size(t)?;
        let round_list = (0..played).map(|r| trf_round(t, r, now_ms)).collect::<Result<Vec<_>, _>>()?;
        let system = trf_system(t);
        let mut doc = Doc {
            name: t.header.name.clone().unwrap_or_else(|| "TRF".into()),
            system,
            mode: TournamentMode::Otb,
            status: TournamentStatus::Running,
            time_control: t.header.time_control.clone().unwrap_or_else(|| "-".into()),
            rules: "online".into(),
            rated: false,
            rounds,
            tie_breaks: default_tie_breaks(system),
            round_gap_ms: 0,
            organiser_id: organiser.0,
            organiser: organiser.1,
            arbiters: Vec::new(),
            players: trf_players(t),
            round_list,
            next_round_at_ms: None,
            created_at_ms: now_ms,
            arena: None,
            starts_at_ms: None,
            forbidden: trf_forbidden(t),
            byes_requested: Vec::new(),
            first_move_grace_s: None,
            presence_check: false,
            absent: Vec::new(),
            class: None,
        };
        doc.after_round();
        Ok(doc)
    }
}

fn bad_trf(zh: String, en: String) -> Refused {
    refused("bad_trf", zh, en)
}

/// A TRF file's rounds played and rounds in all, once its players are 2 to [`MAX_PLAYERS`] and its rounds are
/// known (an `XXR` line or rounds played) and at most twice [`MAX_SWISS_ROUNDS`].
fn trf_size(t: &trf::Tournament) -> Result<(usize, u32), Refused> {
    if t.players.len() < 2 {
        return Err(bad_trf("TRF 文件至少要有 2 名棋手".into(), "the TRF file must have at least 2 players".into()));
    }
    if t.players.len() > MAX_PLAYERS {
        return Err(bad_trf(format!("最多 {MAX_PLAYERS} 名棋手"), format!("at most {MAX_PLAYERS} players")));
    }
    let played = t.rounds_played();
    let rounds = t.rounds.unwrap_or(played as u32).max(played as u32);
    if rounds == 0 || rounds > MAX_SWISS_ROUNDS * 2 {
        return Err(bad_trf(
            "TRF 文件没有说明轮数（XXR 行），也没有已赛的轮次".into(),
            "the TRF file gives no number of rounds (an XXR line) and no round played".into(),
        ));
    }
    Ok((played, rounds))
}

/// A TRF file's players, by starting rank.
fn trf_players(t: &trf::Tournament) -> Vec<Entry> {
    let mut players: Vec<Entry> = t
        .players
        .iter()
        .map(|p| Entry {
            no: p.start_number.into(),
            user_id: None,
            name: p.name.clone(),
            rating: p.rating.map(u32::from),
            withdrawn_from: None,
            first_round: 1,
        })
        .collect();
    players.sort_by_key(|p| p.no);
    players
}

/// Round `r` (from 0) of a TRF file: a board for each game (read from White's line, Black's must agree), a bye for
/// each player without an opponent.
fn trf_round(t: &trf::Tournament, r: usize, now_ms: i64) -> Result<Round, Refused> {
    let mut round = Round { boards: Vec::new(), byes: Vec::new(), started_at_ms: now_ms };
    for p in &t.players {
        let e = t.entry(p.start_number, r);
        match (e.opponent, e.colour) {
            (Some(opp), Colour::White) => {
                let o = t.entry(opp, r);
                let result = result_of_codes(e.code, o.code).ok_or_else(|| {
                    bad_trf(
                        format!(
                            "第 {} 轮：{} 号与 {opp} 号的结果 {}/{} 不相符",
                            r + 1,
                            p.start_number,
                            e.code.as_char(),
                            o.code.as_char()
                        ),
                        format!(
                            "round {}: the results of {} and {opp} ({} and {}) do not match",
                            r + 1,
                            p.start_number,
                            e.code.as_char(),
                            o.code.as_char()
                        ),
                    )
                })?;
                round.boards.push(Board {
                    white: p.start_number.into(),
                    black: opp.into(),
                    game_id: None,
                    result: Some(result),
                });
            }
            (Some(_), _) => {}
            (None, _) => round.byes.push(Bye { no: p.start_number.into(), kind: trf_bye_kind(e.code) }),
        }
    }
    Ok(round)
}

/// The bye a TRF code without an opponent stands for.
fn trf_bye_kind(code: Code) -> ByeKind {
    match code {
        Code::PairingBye | Code::FullBye | Code::ForfeitWin => ByeKind::Pairing,
        Code::HalfBye => ByeKind::Half,
        _ => ByeKind::Zero,
    }
}

/// A round-robin when the file's type (`092`) says "round", a Swiss otherwise.
fn trf_system(t: &trf::Tournament) -> TournamentSystem {
    if t.header.kind.as_deref().is_some_and(|k| k.to_ascii_lowercase().contains("round")) {
        TournamentSystem::RoundRobin
    } else {
        TournamentSystem::Swiss
    }
}

/// A TRF file's forbidden pairs (`XXP`): every two players of each group, lower rank first.
fn trf_forbidden(t: &trf::Tournament) -> Vec<(u32, u32)> {
    t.forbidden
        .iter()
        .flat_map(|g| {
            g.iter()
                .enumerate()
                .flat_map(move |(i, &a)| g[i + 1..].iter().map(move |&b| (u32::from(a.min(b)), u32::from(a.max(b)))))
        })
        .collect()
}
