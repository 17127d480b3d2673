// SPDX-License-Identifier: GPL-3.0-or-later
//! A new tournament's document from its request (`POST /api/tournaments`): each field checked in turn, the first
//! wrong one refused with its name (`rounds: …`).

use guoxiang_game::Rules;
use guoxiang_protocol::http::{NewTournament, TournamentMode, TournamentStatus, TournamentSystem};
use guoxiang_store::User;

use super::doc::{self, Doc};
use crate::error::Error;

/// The document of a new tournament, organised by `by`, created at `now_ms`.
pub(super) fn new_doc(by: &User, req: &NewTournament, now_ms: i64) -> Result<Doc, Error> {
    let name = name(req)?;
    let online = req.mode == TournamentMode::Online;
    let time_control = time_control(req, online)?;
    let rules = rules(req)?;
    let rounds = swiss_rounds(req)?;
    let arena = arena(req, online)?;
    let tie_breaks = tie_breaks(req)?;
    let grace = first_move_grace_s(req)?;
    let gap_s = round_gap_s(req)?;
    if req.rated && !online {
        return Err(bad(
            "rated",
            "线下比赛的成绩不计入本站等级分".into(),
            "an over-the-board tournament's results are not rated here".into(),
        ));
    }
    let starts_at_ms = starts_at_ms(req, online, now_ms)?;
    Ok(Doc {
        name: name.to_owned(),
        system: req.system,
        mode: req.mode,
        status: TournamentStatus::Open,
        time_control,
        rules: rules.name(),
        rated: req.rated,
        rounds,
        tie_breaks,
        round_gap_ms: u64::from(gap_s) * 1000,
        organiser_id: by.id.clone(),
        organiser: by.name.clone(),
        arbiters: Vec::new(),
        players: Vec::new(),
        round_list: Vec::new(),
        next_round_at_ms: None,
        created_at_ms: now_ms,
        arena,
        starts_at_ms,
        forbidden: Vec::new(),
        byes_requested: Vec::new(),
        first_move_grace_s: online.then_some(grace),
        presence_check: online && req.presence_check.unwrap_or(true),
        absent: Vec::new(),
        class: req.class.as_deref().map(str::trim).filter(|c| !c.is_empty()).map(str::to_owned),
    })
}

/// A wrong field of the request, named in the message.
fn bad(field: &str, zh: String, en: String) -> Error {
    Error::bad_request("bad_request", format!("{field}：{zh}"), format!("{field}: {en}"))
}

/// The name, trimmed: 1 to 80 characters.
fn name(req: &NewTournament) -> Result<&str, Error> {
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > 80 {
        return Err(bad("name", "比赛名称须为 1–80 个字符".into(), "a name must have 1 to 80 characters".into()));
    }
    Ok(name)
}

/// The time control, trimmed: one the lobby reads (`-`, none, only over the board).
fn time_control(req: &NewTournament, online: bool) -> Result<String, Error> {
    let time_control = req.time_control.trim().to_owned();
    if online || time_control != "-" {
        crate::live::parse_time_control(&time_control).map_err(Error::from)?;
    }
    Ok(time_control)
}

/// The rule set (`online` when absent).
fn rules(req: &NewTournament) -> Result<Rules, Error> {
    let rules_name = req.rules.clone().unwrap_or_else(|| "online".into());
    let rules = Rules::parse(&rules_name).map_err(|e| bad("rules", e.clone(), e))?;
    if rules.first_promotion {
        let e = "first_promotion (a pawn war) is an exercise, not a rule set for tournaments".to_owned();
        return Err(bad("rules", "兵的战争（first_promotion）是练习，不能用于比赛".into(), e));
    }
    Ok(rules)
}

/// A Swiss's rounds, 1 to [`doc::MAX_SWISS_ROUNDS`] (0 for the other systems: a round-robin's follow from its
/// players at the start).
fn swiss_rounds(req: &NewTournament) -> Result<u32, Error> {
    if req.system != TournamentSystem::Swiss {
        return Ok(0);
    }
    let r = req.rounds.ok_or_else(|| {
        bad("rounds", "瑞士制须给出轮数".into(), "a Swiss tournament needs its number of rounds".into())
    })?;
    if !(1..=doc::MAX_SWISS_ROUNDS).contains(&r) {
        return Err(bad(
            "rounds",
            format!("轮数须在 1 到 {} 之间", doc::MAX_SWISS_ROUNDS),
            format!("the rounds must be 1 to {}", doc::MAX_SWISS_ROUNDS),
        ));
    }
    Ok(r)
}

/// An arena's state before its start: online only, [`doc::ARENA_MINUTES`] long (60 when not given).
fn arena(req: &NewTournament, online: bool) -> Result<Option<doc::ArenaDoc>, Error> {
    if req.system != TournamentSystem::Arena {
        return Ok(None);
    }
    if !online {
        return Err(bad("mode", "竞技场只能在网上下".into(), "an arena is played online only".into()));
    }
    let minutes = req.minutes.unwrap_or(60);
    if !doc::ARENA_MINUTES.contains(&minutes) {
        return Err(bad(
            "minutes",
            format!("竞技场的时长须在 {} 到 {} 分钟之间", doc::ARENA_MINUTES.start(), doc::ARENA_MINUTES.end()),
            format!("an arena lasts {} to {} minutes", doc::ARENA_MINUTES.start(), doc::ARENA_MINUTES.end()),
        ));
    }
    Ok(Some(doc::ArenaDoc { minutes, started_at_ms: None, events: Vec::new() }))
}

/// The tie-breaks asked for, or the system's default.
fn tie_breaks(req: &NewTournament) -> Result<Vec<String>, Error> {
    Ok(match &req.tie_breaks {
        Some(list) if !list.is_empty() => doc::parse_tie_breaks(list)?,
        _ => doc::default_tie_breaks(req.system),
    })
}

/// The first-move grace, seconds: 1 to [`doc::MAX_FIRST_MOVE_GRACE_S`].
fn first_move_grace_s(req: &NewTournament) -> Result<u32, Error> {
    let grace = req.first_move_grace_s.unwrap_or(doc::DEFAULT_FIRST_MOVE_GRACE_S);
    if !(1..=doc::MAX_FIRST_MOVE_GRACE_S).contains(&grace) {
        return Err(bad(
            "first_move_grace_s",
            format!("第一步的等待时间须在 1 到 {} 秒之间", doc::MAX_FIRST_MOVE_GRACE_S),
            format!("the first-move grace must be 1 to {} seconds", doc::MAX_FIRST_MOVE_GRACE_S),
        ));
    }
    Ok(grace)
}

/// The pause between rounds, seconds: at most a week (30 when not given).
fn round_gap_s(req: &NewTournament) -> Result<u32, Error> {
    let gap_s = req.round_gap_s.unwrap_or(30);
    if gap_s > 7 * 86_400 {
        return Err(bad("round_gap_s", "轮间休息最多一周".into(), "the pause between rounds is at most a week".into()));
    }
    Ok(gap_s)
}

/// When the server starts it by itself: online only, within the coming year.
fn starts_at_ms(req: &NewTournament, online: bool, now_ms: i64) -> Result<Option<i64>, Error> {
    match req.starts_at_ms {
        Some(_) if !online => Err(bad(
            "starts_at_ms",
            "线下比赛由组织者开始".into(),
            "an over-the-board tournament is started by its organiser".into(),
        )),
        Some(at) if at <= now_ms || at > now_ms + 366 * 86_400_000 => {
            Err(bad("starts_at_ms", "开始时间须在今后一年之内".into(), "the start must be in the coming year".into()))
        }
        other => Ok(other),
    }
}
