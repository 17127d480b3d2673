//! The lesson steps a simulated student works through: for each step of the 学棋 course that is answered on the
//! board or by questions (not `play` steps, which are games), the tries that complete it, each checked with the
//! course's own judge ([`guoxiang_learn::judge_step`]) before the run, and a wrong try to make now and then.
//!
//! The server compiled in the same course, so its verdicts are the local judge's; a step whose plan the local judge
//! does not accept is left out rather than sent.

use guoxiang_core::{Position, Square};
use guoxiang_learn::{Course, Step, StepKind, Try, judge_step};
use serde_json::{Value, json};

/// How many wrong candidates are judged at most when looking for a wrong try (it bounds the plan's cost).
const WRONG_CANDIDATES: usize = 40;

/// One try of a step: the right one, and a wrong one that may be made before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub right: Try,
    pub wrong: Option<Try>,
}

/// The tries that complete one step, in order; the last completes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StepPlan {
    pub lesson: String,
    pub step: usize,
    pub entries: Vec<Entry>,
}

impl StepPlan {
    /// The body of `POST /api/learn/try` for a try of this step.
    pub fn body(&self, t: &Try) -> Value {
        let value = match t {
            Try::Moves(v) | Try::Squares(v) | Try::Selected(v) => json!(v),
            Try::Choices(v) => json!(v),
        };
        let mut body = json!({"lesson": self.lesson, "step": self.step});
        body[t.field()] = value;
        body
    }
}

/// The plans of every step of the course that can be planned, in course order.
pub(crate) fn course_plans(course: &Course) -> Vec<StepPlan> {
    let mut plans = Vec::new();
    for (_, lesson) in course.lessons() {
        for (i, step) in lesson.steps.iter().enumerate() {
            if let Some(entries) = plan_step(step) {
                plans.push(StepPlan { lesson: lesson.id.clone(), step: i, entries });
            }
        }
    }
    plans
}

/// The right tries of a step with a wrong one where one is found; `None` when the local judge does not complete
/// the step with them (or it is a `play` step).
fn plan_step(step: &Step) -> Option<Vec<Entry>> {
    let rights: Vec<Try> = match &step.kind {
        StepKind::Moves { .. } => prefixes(step.solutions.first()?).into_iter().map(Try::Moves).collect(),
        StepKind::Squares { targets, .. } => {
            prefixes(&targets.iter().map(|s| s.name()).collect::<Vec<_>>()).into_iter().map(Try::Squares).collect()
        }
        StepKind::Choice { answer, .. } => vec![Try::Choices(answer.clone())],
        StepKind::LegalMoves { answer, .. } => vec![Try::Selected(answer.clone())],
        StepKind::Play { .. } => return None,
    };
    let mut entries = Vec::new();
    let mut fen = step.fen.clone();
    for (i, right) in rights.iter().enumerate() {
        let v = judge_step(step, right).ok()?;
        if !v.ok || v.restart || v.done != (i + 1 == rights.len()) {
            return None;
        }
        let previous = i.checked_sub(1).map(|j| &rights[j]);
        let wrong = wrong_try(step, previous, &fen);
        fen = v.fen;
        entries.push(Entry { right: right.clone(), wrong });
    }
    Some(entries)
}

/// `[a]`, `[a, b]`, … up to the whole list.
fn prefixes(items: &[String]) -> Vec<Vec<String>> {
    (1..=items.len()).map(|n| items[..n].to_vec()).collect()
}

/// A try the judge refuses at this point of the step (after `previous`, on the board `fen`), if one is found.
fn wrong_try(step: &Step, previous: Option<&Try>, fen: &str) -> Option<Try> {
    let extend = |v: &Option<&Try>, e: String| match v {
        Some(Try::Moves(m) | Try::Squares(m)) => [m.clone(), vec![e]].concat(),
        _ => vec![e],
    };
    let candidates: Vec<Try> = match &step.kind {
        StepKind::Moves { .. } => {
            let pos = Position::from_fen(fen).ok()?;
            let moves = pos.legal_moves();
            moves.as_slice().iter().map(|&m| Try::Moves(extend(&previous, pos.uci(m)))).collect()
        }
        StepKind::Squares { targets, .. } => (0..64)
            .map(Square::new)
            .filter(|s| !targets.contains(s))
            .map(|s| Try::Squares(extend(&previous, s.name())))
            .collect(),
        StepKind::Choice { choices, answer, .. } => {
            (0..choices.len()).filter(|i| !answer.contains(i)).map(|i| Try::Choices(vec![i])).collect()
        }
        StepKind::LegalMoves { candidates, answer } => {
            candidates.iter().filter(|c| !answer.contains(c)).map(|c| Try::Selected(vec![c.clone()])).collect()
        }
        StepKind::Play { .. } => return None,
    };
    candidates.into_iter().take(WRONG_CANDIDATES).find(|t| judge_step(step, t).is_ok_and(|v| !v.ok && !v.restart))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_of_the_course_is_planned_and_every_plan_is_judged_right() {
        let course = Course::embedded().course;
        let plans = course_plans(&course);
        let playable = course.lessons().flat_map(|(_, l)| &l.steps).filter(|s| s.kind.name() != "play").count();
        assert!(plans.len() * 10 >= playable * 9, "{} of {playable} steps planned", plans.len());
        assert!(plans.iter().filter(|p| p.entries.iter().any(|e| e.wrong.is_some())).count() * 2 >= plans.len());
        for p in &plans {
            let lesson = course.lesson(&p.lesson).unwrap();
            let step = &lesson.steps[p.step];
            let last = p.entries.len() - 1;
            for (i, e) in p.entries.iter().enumerate() {
                let v = judge_step(step, &e.right).unwrap();
                assert!(v.ok && v.done == (i == last), "{} step {}: {v:?}", p.lesson, p.step);
                if let Some(w) = &e.wrong {
                    assert!(!judge_step(step, w).unwrap().ok, "{} step {}", p.lesson, p.step);
                }
            }
        }
    }

    #[test]
    fn bodies_name_the_try_field() {
        let p = StepPlan { lesson: "rook".into(), step: 2, entries: vec![] };
        assert_eq!(p.body(&Try::Moves(vec!["a1a8".into()])), json!({"lesson": "rook", "step": 2, "moves": ["a1a8"]}));
        assert_eq!(p.body(&Try::Choices(vec![0, 2])), json!({"lesson": "rook", "step": 2, "choices": [0, 2]}));
        assert_eq!(p.body(&Try::Squares(vec!["e4".into()]))["squares"], json!(["e4"]));
    }
}
