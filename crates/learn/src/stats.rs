//! The course's figures that issue 39 sets targets for: how many steps are multiple choice, and where the first
//! `play` step comes (`guoxiang learn check` prints them in a line; `guoxiang learn --stats` as JSON).

use serde::Serialize;

use crate::Course;
use crate::model::StepKind;

/// One chapter's size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChapterStats {
    pub id: String,
    pub optional: bool,
    pub lessons: usize,
    pub steps: usize,
}

/// The figures of a course; shares are fractions from 0 to 1 of all steps.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    pub lessons: usize,
    pub steps: usize,
    /// How many steps are `choice`.
    pub choice: usize,
    pub choice_share: f64,
    /// The place of the first `play` step among all steps in course order, from 1 (`None`: no play step).
    pub first_play_step: Option<usize>,
    pub first_play_share: Option<f64>,
    pub chapters: Vec<ChapterStats>,
}

impl Stats {
    pub fn of(course: &Course) -> Stats {
        let kinds: Vec<&StepKind> = course.lessons().flat_map(|(_, l)| l.steps.iter().map(|s| &s.kind)).collect();
        let steps = kinds.len();
        let share = |n: usize| if steps == 0 { 0.0 } else { n as f64 / steps as f64 };
        let choice = kinds.iter().filter(|k| matches!(k, StepKind::Choice { .. })).count();
        let first_play_step = kinds.iter().position(|k| matches!(k, StepKind::Play { .. })).map(|i| i + 1);
        Stats {
            lessons: course.lessons().count(),
            steps,
            choice,
            choice_share: share(choice),
            first_play_step,
            first_play_share: first_play_step.map(share),
            chapters: course
                .chapters
                .iter()
                .map(|c| ChapterStats {
                    id: c.id.clone(),
                    optional: c.optional,
                    lessons: c.lessons.len(),
                    steps: c.lessons.iter().map(|l| l.steps.len()).sum(),
                })
                .collect(),
        }
    }

    /// `choice: 98 of 520 steps (18.8 %); first play step: 72 of 520 (13.8 %)` (or `first play step: none`).
    pub fn line(&self) -> String {
        let pct = |x: f64| format!("{:.1} %", x * 100.0);
        let first = match (self.first_play_step, self.first_play_share) {
            (Some(n), Some(s)) => format!("{n} of {} ({})", self.steps, pct(s)),
            _ => "none".to_owned(),
        };
        format!(
            "choice: {} of {} steps ({}); first play step: {first}",
            self.choice,
            self.steps,
            pct(self.choice_share)
        )
    }
}
