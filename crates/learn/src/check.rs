//! What the checker proves about a course that was read (docs/learn.md "What the checker proves"): unique ids,
//! legal positions, solutions that the judge accepts and that complete their step, wrong tries that the judge
//! rejects with the stated reason, `verify` / `answer` / `candidates` true of the position, `play` goals that can
//! still be reached, no `play` step in the first lesson of a chapter, and every topic covered.
//!
//! Solutions and wrong tries go through [`judge_step`], the code the server runs for the learner, so what the
//! checker accepts is exactly what the learner will be told.

use std::collections::HashMap;

use guoxiang_core::explain::REASON_CODES;
use guoxiang_core::{Color, GameState, Position, Role, Termination};

use crate::judge::{Try, judge_step};
use crate::model::{Goal, PlayGoal, Step, StepKind, TOPICS, Verify};
use crate::safety;
use crate::{CheckError, Course, ErrorKind};

/// Checks a course; file errors first (in course order), then coverage errors.
pub fn check(course: &Course) -> Vec<CheckError> {
    let mut errors = Vec::new();
    let mut chapter_ids: HashMap<&str, &str> = HashMap::new();
    let mut lesson_ids: HashMap<&str, &str> = HashMap::new();
    for chapter in &course.chapters {
        if let Some(other) = chapter_ids.insert(&chapter.id, &chapter.file) {
            errors.push(CheckError::file(
                &chapter.file,
                None,
                None,
                format!("the chapter id {:?} is also the id of the chapter in {other}", chapter.id),
            ));
        }
        for (li, lesson) in chapter.lessons.iter().enumerate() {
            if let Some(other) = lesson_ids.insert(&lesson.id, &chapter.file) {
                errors.push(CheckError::file(
                    &chapter.file,
                    Some(lesson.id.clone()),
                    None,
                    format!("the lesson id {:?} is used twice (also in {other})", lesson.id),
                ));
            }
            for (si, step) in lesson.steps.iter().enumerate() {
                let mut err = |m: String| {
                    errors.push(CheckError::file(&chapter.file, Some(lesson.id.clone()), Some(si), m));
                };
                if li == 0 && matches!(step.kind, StepKind::Play { .. }) {
                    err("the first lesson of a chapter may not have a play step (the browser test walks it)".into());
                }
                for m in check_step(step) {
                    err(m);
                }
            }
        }
    }
    errors.extend(play_at_chapter_ends(course));
    for topic in TOPICS {
        if !course.lessons().any(|(_, l)| l.topics.iter().any(|t| t == topic)) {
            errors.push(CheckError {
                kind: ErrorKind::Coverage,
                file: String::new(),
                lesson: None,
                step: None,
                message: format!("no lesson covers the topic {topic:?}"),
            });
        }
    }
    errors
}

/// Every chapter after the first one with a `finish` play step (the first whole game), optional chapters aside,
/// ends with a `play` step: a game or a mini-game against the computer.
fn play_at_chapter_ends(course: &Course) -> Vec<CheckError> {
    let is_finish = |s: &Step| matches!(s.kind, StepKind::Play { goal: PlayGoal::Finish, .. });
    let Some(first) = course.chapters.iter().position(|c| c.lessons.iter().any(|l| l.steps.iter().any(is_finish)))
    else {
        return Vec::new();
    };
    let game = &course.chapters[first].file;
    let mut errors = Vec::new();
    for chapter in course.chapters[first + 1..].iter().filter(|c| !c.optional) {
        let Some(lesson) = chapter.lessons.last() else { continue };
        let Some(last) = lesson.steps.last() else { continue };
        if !matches!(last.kind, StepKind::Play { .. }) {
            errors.push(CheckError::file(
                &chapter.file,
                Some(lesson.id.clone()),
                Some(lesson.steps.len() - 1),
                format!(
                    "the chapter ends with a {} step: every chapter after the first game ({game}) ends with a play \
                     step (a game or mini-game against the computer), unless its [chapter] has optional = true",
                    last.kind.name()
                ),
            ));
        }
    }
    errors
}

/// The problems of one step, as messages.
pub fn check_step(step: &Step) -> Vec<String> {
    let mut errs = Vec::new();
    let fields = step.fen.split_whitespace().count();
    if fields != 6 {
        errs.push(format!("`fen` must be a full FEN with 6 fields, this one has {fields}: {:?}", step.fen));
    }
    let pos = match Position::from_fen(&step.fen) {
        Ok(p) => p,
        Err(e) => {
            errs.push(format!("`fen` {:?} is not a legal position: {e}", step.fen));
            return errs;
        }
    };
    let over = !pos.has_legal_move();
    match &step.kind {
        StepKind::Moves { goal, wrong } => {
            if over {
                errs.push("the position has no legal move: nothing can be played".into());
                return errs;
            }
            check_goal_position(&pos, goal, &mut errs);
            for (n, sol) in step.solutions.iter().enumerate() {
                check_solution(step, goal, n, sol, &mut errs);
            }
            if let Goal::Mate { mate_in: Some(k), .. } = goal {
                check_mate_in(&pos, *k, &step.solutions, &mut errs);
            }
            for w in wrong {
                if w.reason != "not_goal" && w.reason != "guarded" && !REASON_CODES.contains(&w.reason.as_str()) {
                    errs.push(format!(
                        "wrong {:?}: unknown reason {:?} (not_goal, guarded or a code of `guoxiang explain`: {})",
                        w.moves,
                        w.reason,
                        REASON_CODES.join(", ")
                    ));
                    continue;
                }
                match judge_step(step, &Try::Moves(w.moves.clone())) {
                    Err(e) => errs.push(format!("wrong {:?} cannot be judged: {e}", w.moves)),
                    Ok(v) if v.ok => errs.push(format!("wrong {:?} is accepted, not rejected", w.moves)),
                    Ok(v) => {
                        let got = v.reason.map(|r| r.code).unwrap_or_default();
                        if got != w.reason {
                            errs.push(format!("wrong {:?} is rejected as {got:?}, not {:?}", w.moves, w.reason));
                        }
                    }
                }
            }
        }
        StepKind::Squares { targets, wrong } => {
            let all: Vec<String> = targets.iter().map(|s| s.to_string()).collect();
            match judge_step(step, &Try::Squares(all)) {
                Ok(v) if v.done => {}
                Ok(_) => errs.push("clicking every target does not complete the step".into()),
                Err(e) => errs.push(format!("the targets cannot be judged: {e}")),
            }
            for w in wrong {
                if targets.contains(&w.square) {
                    errs.push(format!("wrong square {} is one of the targets", w.square));
                }
            }
        }
        StepKind::Choice { answer, verify, history, .. } => {
            match judge_step(step, &Try::Choices(answer.clone())) {
                Ok(v) if v.ok && v.done => {}
                Ok(_) => errs.push("the answer is not accepted".into()),
                Err(e) => errs.push(format!("the answer cannot be judged: {e}")),
            }
            if let Some(v) = verify
                && let Some(m) = check_verify(&pos, *v, history)
            {
                errs.push(m);
            }
        }
        StepKind::LegalMoves { candidates, answer } => {
            let mut legal = Vec::new();
            for (i, c) in candidates.iter().enumerate() {
                if candidates[..i].contains(c) {
                    errs.push(format!("candidate {c} is listed twice"));
                }
                match pos.explain_uci(c) {
                    Err(e) => errs.push(format!("candidate {c:?} is not a move: {e}")),
                    Ok(x) if x.is_legal() => legal.push(c.clone()),
                    Ok(_) => {}
                }
            }
            for a in answer {
                if !candidates.contains(a) {
                    errs.push(format!("answer {a} is not one of the candidates"));
                } else if !legal.contains(a) {
                    let why = pos.explain_uci(a).ok().and_then(|x| x.reason().map(|r| r.code())).unwrap_or("?");
                    errs.push(format!("answer {a} is not a legal move here ({why})"));
                }
            }
            for l in &legal {
                if !answer.contains(l) {
                    errs.push(format!("candidate {l} is legal but missing from `answer`"));
                }
            }
        }
        StepKind::Play { goal, .. } => {
            let state = GameState::from_position(pos.clone());
            if let Some(o) = state.outcome() {
                errs.push(format!("the game is already over in this position ({})", o.termination.code()));
                return errs;
            }
            if *goal == PlayGoal::Win && !pos.can_mate(pos.turn()) {
                errs.push("goal = \"win\" cannot be reached: the learner's side cannot checkmate from here".into());
            }
            if *goal == PlayGoal::Promote && pos.pieces(pos.turn(), Role::Pawn).is_empty() {
                errs.push("goal = \"promote\" cannot be reached: the learner's side has no pawn".into());
            }
        }
    }
    // What the texts claim about the board (crate::claims).
    errs.extend(crate::claims::check_step_texts(step));
    errs
}

/// Position-level conditions of a goal (before any move).
fn check_goal_position(pos: &Position, goal: &Goal, errs: &mut Vec<String>) {
    match goal {
        Goal::Escape { count } => {
            if !pos.is_check() {
                errs.push("goal = \"escape\": the side to move is not in check".into());
                return;
            }
            let mut ways: Vec<&str> = Vec::new();
            for &m in pos.legal_moves().iter() {
                let w = crate::judge::escape_way(pos, m);
                if !ways.contains(&w) {
                    ways.push(w);
                }
            }
            if ways.len() < *count as usize {
                errs.push(format!(
                    "goal = \"escape\" asks for {count} ways, but the position has only {} ({})",
                    ways.len(),
                    ways.join(", ")
                ));
            }
        }
        Goal::Stars { stars, guarded, .. } => {
            let ours = pos.by_color(pos.turn());
            for s in stars {
                if ours.contains(*s) {
                    errs.push(format!("star {s} is under one of the learner's own pieces"));
                } else if *guarded && let Some(&(from, role)) = safety::guards(pos, *s, !pos.turn()).first() {
                    errs.push(format!("star {s} is guarded by the {} on {from}: no move may land there", role.name()));
                }
            }
        }
        Goal::Safe { target } => {
            let us = pos.turn();
            match target {
                Some(t) if pos.color_at(*t) != Some(us) || pos.role_at(*t) == Some(Role::King) => {
                    errs.push(format!("`target` {t}: no piece of the learner's (other than the king) stands there"));
                }
                Some(t) if safety::exchange_gain(pos, *t, !us) == 0 => {
                    errs.push(format!("goal = \"safe\": the piece on {t} is not in danger (nothing to make safe)"));
                }
                None if safety::pieces_in_danger(pos, us).is_empty() => {
                    errs.push(
                        "goal = \"safe\": none of the learner's pieces is in danger (nothing to make safe)".into(),
                    );
                }
                _ => {}
            }
        }
        Goal::Line { lines } | Goal::Mate { lines, .. } => {
            for (n, line) in lines.iter().enumerate() {
                let mut p = pos.clone();
                for (i, u) in line.iter().enumerate() {
                    match p.parse_uci(u) {
                        Ok(m) => p.play_unchecked(m),
                        Err(e) => {
                            errs.push(format!("line {} {line:?}: move {} ({u}) cannot be played: {e}", n + 1, i + 1));
                            break;
                        }
                    }
                }
            }
        }
        Goal::Any { from: Some(f) } if pos.legal_moves_from(*f).is_empty() => {
            errs.push(format!("`from` {f}: no legal move starts there"));
        }
        _ => {}
    }
}

/// `mate_in = k`: every solution has k learner moves, and its first move forces mate in k against every defence.
fn check_mate_in(pos: &Position, k: u8, solutions: &[Vec<String>], errs: &mut Vec<String>) {
    let mut proved = Vec::new();
    for (n, sol) in solutions.iter().enumerate() {
        if sol.len() != k as usize {
            errs.push(format!("solution {} {sol:?} has {} moves, not mate_in = {k}", n + 1, sol.len()));
        }
        let Some(first) = sol.first().and_then(|u| pos.parse_uci(u).ok()) else { continue };
        if proved.contains(&first) {
            continue;
        }
        proved.push(first);
        if let Some(why) = crate::mate::disproof(pos, first, k) {
            errs.push(format!("mate_in = {k} is not proven for solution {} {sol:?}: {why}", n + 1));
        }
    }
}

/// A solution must be accepted move by move, complete the step with its last move, and not before.
fn check_solution(step: &Step, goal: &Goal, n: usize, sol: &[String], errs: &mut Vec<String>) {
    let label = format!("solution {} {sol:?}", n + 1);
    if sol.is_empty() {
        errs.push(format!("{label} is empty"));
        return;
    }
    if let Goal::Escape { count } = goal
        && sol.len() != *count as usize
    {
        errs.push(format!("{label}: an escape solution holds one answer of each way, {count} moves"));
    }
    if let Goal::Stars { max_moves: Some(max), .. } = goal
        && sol.len() > *max as usize
    {
        errs.push(format!("{label} has {} moves, more than max_moves = {max}", sol.len()));
    }
    for i in 1..=sol.len() {
        match judge_step(step, &Try::Moves(sol[..i].to_vec())) {
            Err(e) => {
                errs.push(format!("{label}: {e}"));
                return;
            }
            Ok(v) if !v.ok => {
                let why = v.reason.map(|r| format!("{}: {}", r.code, r.en)).unwrap_or_default();
                errs.push(format!("{label}: move {} ({}) is rejected ({why})", i, sol[i - 1]));
                return;
            }
            Ok(v) if i == sol.len() && !v.done => {
                errs.push(format!("{label} does not complete the step ({} goal)", goal.name()));
            }
            Ok(_) => {}
        }
    }
}

/// `None` if `verify` is true of the position (after `history`), else what is wrong.
fn check_verify(start: &Position, verify: Verify, history: &[String]) -> Option<String> {
    let mut game = GameState::from_position(start.clone());
    for (i, u) in history.iter().enumerate() {
        let m = match game.position().parse_uci(u) {
            Ok(m) => m,
            Err(e) => return Some(format!("history move {} ({u}) cannot be played: {e}", i + 1)),
        };
        if let Err(e) = game.play(m) {
            return Some(format!("history move {} ({u}) cannot be played: {e}", i + 1));
        }
    }
    let p = game.position();
    let (holds, what) = match verify {
        Verify::Checkmate => (p.is_checkmate(), "checkmate"),
        Verify::Stalemate => (p.is_stalemate(), "stalemate"),
        Verify::Check => (p.is_check(), "check"),
        Verify::NotCheck => (!p.is_check(), "not check"),
        // docs/learn.md: "neither side can mate: a draw at once" — Article 5.2.2, whether for lack of material or
        // (as the rules core also proves) locked pawns; `dead_position` says the same.
        Verify::InsufficientMaterial | Verify::DeadPosition => {
            (p.is_dead_position(), "a position where neither side can checkmate")
        }
        Verify::Fivefold => (game.repetitions() >= 5, "the fifth occurrence of the position"),
        Verify::Threefold => (game.repetitions() >= 3, "the third occurrence of the position"),
        Verify::FiftyMoves => (p.halfmoves() >= 100, "50 moves by each side without a capture or pawn move"),
        // Article 9.6.2: drawn at once, unless the last move mated (the rules core's game status says which).
        Verify::SeventyFive => (
            game.outcome().map(|o| o.termination) == Some(Termination::SeventyFiveMoves),
            "75 moves by each side without a capture or pawn move, and not checkmate (an automatic draw)",
        ),
        Verify::WhiteCannotMate => (!p.can_mate(Color::White), "a position where White cannot checkmate"),
        Verify::BlackCannotMate => (!p.can_mate(Color::Black), "a position where Black cannot checkmate"),
    };
    if holds {
        None
    } else {
        let after = if history.is_empty() { String::new() } else { " after `history`".to_owned() };
        Some(format!("verify = {:?} is false: the position{after} is not {what}", verify.name()))
    }
}
