//! Studies (issue 42, point 4): the course's lessons and a study are one model; PGN with comments, variations and
//! shapes goes in and out unchanged; bad input is refused with where.

use guoxiang_learn::study::{chapters_from_pgn, parse_comment};
use guoxiang_learn::{Brush, Course, Note, StepKind, Study, Try, check_files, judge, judge_step};

const PLAY_FIRST: &str = "the first lesson of a chapter may not have a play step";

/// Every lesson of the real course → study → JSON → study → course file → the same lesson, which the checker
/// accepts.
#[test]
fn every_course_lesson_round_trips_through_a_study() {
    let report = Course::embedded();
    let mut lessons = 0;
    for (_, lesson) in report.course.lessons() {
        let study = Study::from_lesson(lesson);
        assert_eq!(study.chapters.len(), lesson.steps.len());
        let json = serde_json::to_string(&study).unwrap();
        let mut back: Study = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: {e}\n{json}", lesson.id));
        assert_eq!(back, study, "{}: JSON round trip", lesson.id);
        back.validate().unwrap_or_else(|e| panic!("{}: {e}", lesson.id));
        assert_eq!(back, study, "{}: validation changed nothing", lesson.id);
        let toml = study.to_lesson_toml().unwrap();
        let checked = check_files(vec![("01-studies.toml".into(), toml.clone())]);
        let has_play = lesson.steps.iter().any(|s| matches!(s.kind, StepKind::Play { .. }));
        let errors: Vec<String> = checked
            .file_errors()
            .filter(|e| !(has_play && e.message.starts_with(PLAY_FIRST)))
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}\n{toml}", lesson.id);
        let again = checked.course.lesson(&lesson.id).unwrap_or_else(|| panic!("{}: lost\n{toml}", lesson.id));
        assert_eq!(again, lesson, "{}: TOML round trip\n{toml}", lesson.id);
        lessons += 1;
    }
    assert!(lessons > 50, "only {lessons} lessons");
}

/// A study's step is judged exactly as the lesson's.
#[test]
fn a_study_step_is_judged_as_the_lesson_step() {
    let report = Course::embedded();
    let mut judged = 0;
    for (_, lesson) in report.course.lessons().take(40) {
        let study = Study::from_lesson(lesson);
        for (i, ch) in study.chapters.iter().enumerate() {
            let step = ch.step_at(&[]).unwrap();
            let t = match &step.kind {
                StepKind::Moves { .. } if !step.solutions.is_empty() => Try::Moves(vec![step.solutions[0][0].clone()]),
                StepKind::Squares { targets, .. } => Try::Squares(vec![targets[0].to_string()]),
                StepKind::Choice { .. } => Try::Choices(vec![0]),
                _ => continue,
            };
            assert_eq!(judge_step(step, &t), judge(&report.course, &lesson.id, i, &t), "{} step {i}", lesson.id);
            judged += 1;
        }
    }
    assert!(judged > 20);
}

const PGN: &str = r#"[Event "Openings"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

{ [%cal Ge2e4,Rd2d4] [%csl Ge4] 中心很重要 } 1. e4 { [%cal Gc2c4] [%csl Re4,Bd5] A good move } 1... e5
(1... c5 { Sicilian } 2. Nf3 (2. c3 { [%cal Yd2d4] Alapin }) 2... d6) 2. Nf3 $1 Nc6 { [%clk 0:05:00]
develops } 3. Bb5 *
"#;

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn pgn_with_comments_variations_and_shapes_round_trips() {
    let chapters = chapters_from_pgn(PGN).unwrap();
    assert_eq!(chapters.len(), 1);
    let ch = &chapters[0];
    assert_eq!(ch.name, Note::One("Openings".into()));
    assert_eq!(ch.comment, Some(Note::One("中心很重要".into())));
    assert_eq!(ch.shapes.len(), 3);
    assert_eq!(ch.shapes[1].brush, Brush::Red);
    let e4 = &ch.moves[0];
    assert_eq!(e4.comment, Some(Note::One("A good move".into())));
    assert_eq!(e4.shapes.len(), 3);
    assert_eq!(e4.shapes[2].brush, Brush::Blue);
    assert_eq!(e4.shapes[2].orig.to_string(), "d5");
    let sicilian = &ch.moves[1].variations[0];
    assert_eq!(sicilian[0].san, "c5");
    assert_eq!(sicilian[1].variations[0][0].comment, Some(Note::One("Alapin".into())));
    assert_eq!(ch.moves[2].nags, vec![1]);
    assert_eq!(ch.moves[3].comment, Some(Note::One("[%clk 0:05:00] develops".into())));
    // Paths: [1, 0, 1, 0, 0] is 2. c3 in the Alapin.
    let (fen, shapes) = ch.view(&[1, 0, 1, 0, 0]).unwrap();
    assert_eq!(fen, "rnbqkbnr/pp1ppppp/8/2p5/4P3/2P5/PP1P1PPP/RNBQKBNR b KQkq - 0 2");
    assert_eq!(shapes.len(), 1);
    assert!(ch.view(&[1, 0]).is_none());
    assert!(ch.view(&[9]).is_none());

    let out = ch.to_pgn();
    assert_eq!(collapse(&out), collapse(PGN), "\n{out}");
    // And through the JSON of the stored body.
    let json = serde_json::to_string(&chapters).unwrap();
    assert!(json.contains(r#"{"brush":"green","orig":"c2","dest":"c4"}"#), "{json}");
    let back: Vec<guoxiang_learn::StudyChapter> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, chapters);
    assert_eq!(chapters_from_pgn(&out).unwrap(), chapters);
}

#[test]
fn a_chapter_from_a_position_keeps_its_fen_and_both_languages() {
    let pgn = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n";
    let mut ch = chapters_from_pgn(pgn).unwrap().remove(0);
    assert_eq!(ch.fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    ch.moves[1].comment =
        Some(Note::Both(guoxiang_learn::Text { zh: "王走近".into(), en: "The king comes".into() }));
    let out = ch.to_pgn();
    assert!(out.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]"), "{out}");
    assert!(out.contains("Kd7 { 王走近 } { The king comes }"), "{out}");
}

#[test]
fn bad_pgn_and_shapes_are_refused_with_where() {
    let e = chapters_from_pgn("1. e4 e5 2. Ke3 *").unwrap_err();
    assert!(e.at.starts_with("game 1, line 1, column 13 (Ke3)"), "{e}");
    let e = chapters_from_pgn("1. e4 { [%cal Xc2c4] } *").unwrap_err();
    assert!(e.en.contains("[%cal Xc2c4]: unknown colour"), "{e}");
    assert!(e.zh.contains("颜色不对"), "{e:?}");
    let e = chapters_from_pgn("[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 { [%csl Gz9] } *").unwrap_err();
    assert!(e.at.starts_with("game 2"), "{e}");
    assert!(e.en.contains("not a square"), "{e}");
    let e = chapters_from_pgn("1. e4 { [%cal Gc2c4 } *").unwrap_err();
    assert!(e.en.contains("unclosed"), "{e}");
    assert!(chapters_from_pgn("").is_err());
    assert!(chapters_from_pgn("1. e4 (").is_err());
    let (text, shapes) = parse_comment("[%csl Ge4] [%eval 0.3] hi", "x").unwrap();
    assert_eq!((text.as_str(), shapes.len()), ("[%eval 0.3] hi", 1));
}

#[test]
fn bad_json_studies_are_refused_with_where() {
    let parse = |j: &str| serde_json::from_str::<Study>(j);
    assert!(parse(r#"{"title": "t", "chapters": [{"name": "c", "fen": "x", "moves": [], "colour": 1}]}"#).is_err());
    let e = parse(r#"{"title":"t","chapters":[{"name":"c","fen":"8/8/8/8/8/8/8/8 w - - 0 1","shapes":[{"brush":"green","orig":"z9"}]}]}"#)
        .unwrap_err();
    assert!(e.to_string().contains("\"z9\" is not a square"), "{e}");
    let e = parse(r#"{"title":"t","chapters":[{"name":"c","fen":"k7/8/8/8/8/8/8/K7 w - - 0 1","step":{"kind":"moves","fen":"k7/8/8/8/8/8/8/K7 w - - 0 1"}}]}"#)
        .unwrap_err();
    assert!(e.to_string().contains("`prompt` is missing"), "{e}");

    let mut s: Study = parse(r#"{"title":"t","chapters":[{"name":"c","fen":"8/8/8/8/8/8/8/8 w - - 0 1"}]}"#).unwrap();
    let e = s.validate().unwrap_err();
    assert_eq!(e.at, "chapter 1, fen");
    let mut s = Study::new("t");
    s.chapters[0].moves =
        serde_json::from_str(r#"[{"san":"e2e4"},{"san":"e5","variations":[[{"san":"Ke7"}]]}]"#).unwrap();
    let e = s.validate().unwrap_err();
    assert_eq!(e.at, "chapter 1, move [1, 0, 0] (Ke7)", "{e}");
    s.chapters[0].moves[1].variations.clear();
    s.validate().unwrap();
    assert_eq!(s.chapters[0].moves[0].san, "e4", "UCI is rewritten as SAN");
    let mut s = Study::new(" ");
    assert_eq!(s.validate().unwrap_err().at, "title");
    // A step must stand in its node's position.
    let course = Course::embedded().course;
    let lesson = course.lessons().next().unwrap().1;
    let mut s = Study::from_lesson(lesson);
    s.chapters[0].fen = guoxiang_core::STARTING_FEN.into();
    s.chapters[0].step.as_mut().unwrap().fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".into();
    let e = s.validate().unwrap_err();
    assert!(e.en.contains("is not the position here"), "{e}");
    assert!(Study::new("t").to_lesson_toml().is_err(), "no step, no lesson");
}
