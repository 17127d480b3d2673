//! The real course in `course/`, as compiled into the binary.

use guoxiang_learn::Course;

#[test]
fn course_is_valid() {
    let report = Course::embedded();
    if report.course.chapters.is_empty() && report.errors.is_empty() {
        println!("SKIP: course/ has no files yet");
        return;
    }
    let errors: Vec<String> = report.file_errors().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{} errors in course/:\n{}", errors.len(), errors.join("\n"));
    assert!(report.course.step_count() > 0);
}

#[test]
fn course_covers_every_topic() {
    let report = Course::embedded();
    if report.course.chapters.is_empty() && report.errors.is_empty() {
        println!("SKIP: course/ has no files yet");
        return;
    }
    let errors: Vec<String> = report.coverage_errors().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{} topics without a lesson:\n{}", errors.len(), errors.join("\n"));
}

/// Every first move a learner can make in every board step of the course gets an answer, and every refusal says
/// why in both languages (a refusal with no words leaves a beginner stuck).
#[test]
fn every_wrong_first_move_is_explained() {
    use guoxiang_core::{CastlingMode, Position, Validation};
    use guoxiang_learn::{StepKind, Try, judge};
    let report = Course::embedded();
    let mut tried = 0;
    for (_, lesson) in report.course.lessons() {
        for (i, step) in lesson.steps.iter().enumerate() {
            if !matches!(step.kind, StepKind::Moves { .. }) {
                continue;
            }
            let pos = Position::from_fen_with(&step.fen, CastlingMode::Auto, Validation::Strict).unwrap();
            for &m in pos.legal_moves().iter() {
                let uci = pos.uci(m);
                let v = judge(&report.course, &lesson.id, i, &Try::Moves(vec![uci.clone()]))
                    .unwrap_or_else(|e| panic!("{} step {i}, {uci}: {e}", lesson.id));
                tried += 1;
                if !v.ok {
                    let r =
                        v.reason.unwrap_or_else(|| panic!("{} step {i}, {uci}: refused without a reason", lesson.id));
                    assert!(
                        !r.zh.trim().is_empty() && !r.en.trim().is_empty(),
                        "{} step {i}, {uci}: refused ({}) without words",
                        lesson.id,
                        r.code
                    );
                }
            }
        }
    }
    println!("{tried} first moves judged");
}
