//! The checker's own rejections, each from the valid fixture course (`tests/fixture`) with one thing broken, and
//! the judge's verdicts on it.

use guoxiang_learn::{CheckError, Course, ErrorKind, Try, check_files, judge};

const FIXTURE: &str = include_str!("fixture/01-basics.toml");
const NAME: &str = "01-basics.toml";

fn errors_of(text: &str) -> Vec<CheckError> {
    check_files(vec![(NAME.to_owned(), text.to_owned())]).errors
}

/// The fixture with `from` replaced by `to` (which must occur exactly once); its file errors.
fn broken(from: &str, to: &str) -> Vec<CheckError> {
    assert_eq!(FIXTURE.matches(from).count(), 1, "{from:?} must occur once in the fixture");
    errors_of(&FIXTURE.replacen(from, to, 1)).into_iter().filter(|e| e.kind == ErrorKind::File).collect()
}

/// Asserts that some error is at (lesson, step, 0-based) and its message contains `needle`.
fn expect(errors: &[CheckError], lesson: Option<&str>, step: Option<usize>, needle: &str) {
    assert!(
        errors.iter().any(|e| e.lesson.as_deref() == lesson && e.step == step && e.message.contains(needle)),
        "expected an error at {lesson:?} step {step:?} containing {needle:?}; got:\n{}",
        errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
    );
}

fn fixture() -> Course {
    Course::from_files(vec![(NAME.to_owned(), FIXTURE.to_owned())]).expect("the fixture is valid")
}

#[test]
fn the_fixture_is_valid_and_covers_every_topic() {
    let errors = errors_of(FIXTURE);
    assert!(errors.is_empty(), "{errors:#?}");
    let c = fixture();
    assert_eq!(c.chapters.len(), 1);
    assert_eq!(c.chapters[0].order, 1);
    assert_eq!(c.lessons().count(), 2);
    assert_eq!(c.step_count(), 9);
}

#[test]
fn illegal_fen() {
    let e = broken("8/8/8/8/8/8/8/R3K2k w", "8/8/8/8/8/8/8/R3K3 w");
    expect(&e, Some("all_kinds"), Some(0), "is not a legal position");
    let e = broken("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "4k3/8/8/3p4/4P3/8/8/4K3 w - -");
    expect(&e, Some("all_kinds"), Some(1), "full FEN with 6 fields");
}

#[test]
fn illegal_solution() {
    let e = broken(r#"solutions = [["e4d5"]]"#, r#"solutions = [["e4d6"]]"#);
    expect(&e, Some("all_kinds"), Some(1), "is rejected (bad_piece_move");
    let e = broken(r#"solutions = [["e4d5"]]"#, r#"solutions = [["e4"]]"#);
    expect(&e, Some("all_kinds"), Some(1), "not a UCI move");
}

#[test]
fn solution_that_does_not_complete_the_goal() {
    let e = broken(r#"solutions = [["e2e4", "g1f3"]]"#, r#"solutions = [["e2e4"]]"#);
    expect(&e, Some("all_kinds"), Some(2), "does not complete the step (line goal)");
    let e = broken(r#"solutions = [["a1a5", "a5e5"]]"#, r#"solutions = [["a1a5", "a5a6"]]"#);
    expect(&e, Some("all_kinds"), Some(0), "does not complete the step (stars goal)");
    // An escape solution must hold the three different ways.
    let e = broken(r#"solutions = [["e1d1", "g1e2", "a8e8"]]"#, r#"solutions = [["e1d1", "e1f1", "a8e8"]]"#);
    expect(&e, Some("all_kinds"), Some(4), "move 2 (e1f1) is rejected (not_goal");
}

#[test]
fn wrong_try_that_is_accepted() {
    let e = broken(r#"moves = ["a1a7"], reason = "not_goal""#, r#"moves = ["a1a8"], reason = "not_goal""#);
    expect(&e, Some("all_kinds"), Some(3), "is accepted, not rejected");
}

#[test]
fn wrong_reason_code() {
    let e = broken(r#"reason = "king_into_check""#, r#"reason = "in_check""#);
    expect(&e, Some("all_kinds"), Some(4), r#"is rejected as "king_into_check", not "in_check""#);
    let e = broken(r#"["a1b2"], reason = "bad_piece_move""#, r#"["a1b2"], reason = "bad_move""#);
    expect(&e, Some("all_kinds"), Some(0), r#"unknown reason "bad_move""#);
}

#[test]
fn missing_zh_or_en() {
    let e = broken(r#"title = { zh = "各种步骤", en = "Every kind of step" }"#, r#"title = { zh = "各种步骤" }"#);
    expect(&e, Some("all_kinds"), None, "`title` has no en text");
    let e =
        broken(r#"prompt = { zh = "一步将死", en = "Mate in one" }"#, r#"prompt = { zh = "", en = "Mate in one" }"#);
    expect(&e, Some("all_kinds"), Some(3), "`prompt`: the zh text is empty");
    let e = broken(r#"hint = { zh = "底线。", en = "The back rank." }"#, "");
    expect(&e, Some("all_kinds"), Some(3), "`hint` is missing");
}

#[test]
fn duplicate_id() {
    let e = broken(r#"id = "first_game""#, r#"id = "all_kinds""#);
    expect(&e, Some("all_kinds"), None, "is used twice");
    let e = broken(r#"id = "first_game""#, r#"id = "First-Game""#);
    expect(&e, Some("First-Game"), None, "must be made of a-z, 0-9 and _");
}

#[test]
fn unknown_topic() {
    let text = FIXTURE.replacen(r#""strategy_tips"]"#, r#""strategy_tipz"]"#, 1);
    let errors = errors_of(&text);
    expect(&errors, Some("all_kinds"), None, r#"unknown topic "strategy_tipz""#);
    // …and the topic it replaced is now uncovered: a course-level error of its own kind.
    let coverage: Vec<&CheckError> = errors.iter().filter(|e| e.kind == ErrorKind::Coverage).collect();
    assert_eq!(coverage.len(), 1, "{coverage:?}");
    assert!(coverage[0].message.contains("strategy_tips"));
    assert_eq!(coverage[0].to_string(), r#"course: no lesson covers the topic "strategy_tips""#);
}

#[test]
fn false_verify() {
    let e = broken(r#"verify = "checkmate""#, r#"verify = "stalemate""#);
    expect(&e, Some("all_kinds"), Some(6), r#"verify = "stalemate" is false"#);
    let e = broken(r#"verify = "checkmate""#, r#"verify = "insufficient_material""#);
    expect(&e, Some("all_kinds"), Some(6), "is not a position where neither side can checkmate");
    let e = broken(r#"verify = "checkmate""#, r#"verify = "mate""#);
    expect(&e, Some("all_kinds"), Some(6), r#"unknown `verify` "mate""#);
}

#[test]
fn wrong_answer_of_legal_moves() {
    let e = broken(r#"answer = ["e1d1", "e1f2"]"#, r#"answer = ["e1d1"]"#);
    expect(&e, Some("all_kinds"), Some(7), "candidate e1f2 is legal but missing from `answer`");
    let e = broken(r#"answer = ["e1d1", "e1f2"]"#, r#"answer = ["e1d1", "e1f2", "e2d3"]"#);
    expect(&e, Some("all_kinds"), Some(7), "answer e2d3 is not a legal move here (pinned)");
}

#[test]
fn play_step_whose_goal_is_unreachable() {
    // A lone king cannot mate, though the opponent's queen can: not a dead position, but no win.
    let e = broken("4k3/8/8/8/8/8/8/3QK3 w", "4k3/8/8/8/8/8/q7/4K3 w");
    expect(&e, Some("first_game"), Some(0), "cannot be reached");
    let e = broken("4k3/8/8/8/8/8/8/3QK3 w", "4k3/8/8/8/8/8/8/3NK3 w");
    expect(&e, Some("first_game"), Some(0), "already over in this position (dead_position)");
    let e = broken("4k3/8/8/8/8/8/8/3QK3 w", "k7/1Q6/1K6/8/8/8/8/8 b");
    expect(&e, Some("first_game"), Some(0), "already over");
}

#[test]
fn first_lesson_of_a_chapter_with_a_play_step() {
    // Move the play lesson before the other one.
    let split = FIXTURE.find("[[lessons]]\nid = \"first_game\"").unwrap();
    let first = FIXTURE.find("[[lessons]]").unwrap();
    let text = format!("{}{}{}", &FIXTURE[..first], &FIXTURE[split..], &FIXTURE[first..split]);
    let e = errors_of(&text);
    expect(&e, Some("first_game"), Some(0), "the first lesson of a chapter may not have a play step");
}

#[test]
fn bad_toml_names_the_line() {
    let text = FIXTURE.replacen("[[lessons.steps]]\nkind = \"squares\"", "[[lessons.steps]]\nkind = squares", 1);
    let e = errors_of(&text);
    let line = FIXTURE[..FIXTURE.find("kind = \"squares\"").unwrap()].matches('\n').count() + 1;
    expect(&e, None, None, &format!("line {line}, column"));
    assert!(e[0].to_string().starts_with("01-basics.toml: line"), "{}", e[0]);
    // An unknown field is named, with its line too.
    let e = errors_of(&FIXTURE.replacen("max_moves = 3\n", "max_move = 3\n", 1));
    expect(&e, None, None, "max_move");
    // A field of another kind is reported for the step.
    let e = broken("max_moves = 3\n", "max_moves = 3\ntargets = [\"a1\"]\n");
    expect(&e, Some("all_kinds"), Some(0), "`targets` does not belong");
}

#[test]
fn file_names_and_chapter_numbers() {
    let r = check_files(vec![("basics.toml".into(), FIXTURE.into())]);
    expect(&r.errors, None, None, "NN-<chapter>.toml");
    let other =
        FIXTURE.replace(r#"id = "basics""#, r#"id = "more""#).replace("all_kinds", "k1").replace("first_game", "k2");
    let r = check_files(vec![("01-basics.toml".into(), FIXTURE.into()), ("01-more.toml".into(), other)]);
    expect(&r.errors, None, None, "chapter number 01 is also 01-basics.toml");
}

#[test]
fn messages_count_steps_from_one() {
    let e = broken("4k3/8/8/8/8/8/8/3QK3 w", "4k3/8/8/8/8/8/8/3NK3 w");
    let line = e.iter().find(|e| e.lesson.as_deref() == Some("first_game")).unwrap().to_string();
    assert!(line.starts_with("01-basics.toml: lesson first_game: step 1: "), "{line}");
}

fn moves(v: &[&str]) -> Try {
    Try::Moves(v.iter().map(|s| s.to_string()).collect())
}

#[test]
fn judge_plays_the_scripted_reply() {
    let c = fixture();
    let v = judge(&c, "all_kinds", 2, &moves(&["e2e4"])).unwrap();
    assert!(v.ok && !v.done);
    assert_eq!(v.reply.as_deref(), Some("e7e5"));
    assert_eq!(v.fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let v = judge(&c, "all_kinds", 2, &moves(&["e2e4", "g1f3"])).unwrap();
    assert!(v.ok && v.done && v.reply.is_none());
    assert_eq!(v.success.unwrap().en, "Take the centre, develop.");
    // A wrong first move is not kept: the board stays where it was, with the hint.
    let v = judge(&c, "all_kinds", 2, &moves(&["d2d4"])).unwrap();
    assert!(!v.ok);
    assert_eq!(v.reason.unwrap().code, "not_goal");
    assert!(v.fen.starts_with("rnbqkbnr/pppppppp/8/8/8/8/"));
    assert_eq!(v.hint.unwrap().en, "Start with the centre pawn.");
    // A history with a rejected move in the middle is a bad request, not a verdict.
    let e = judge(&c, "all_kinds", 2, &moves(&["d2d4", "g1f3"])).unwrap_err();
    assert_eq!(e.field(), "moves[0]");
}

#[test]
fn judge_explains_illegal_moves_with_the_rules_core() {
    let c = fixture();
    let v = judge(&c, "all_kinds", 7, &Try::Selected(vec!["e1d1".into()])).unwrap();
    assert_eq!(v.reason.unwrap().code, "wrong_answer");
    let v = judge(&c, "all_kinds", 0, &moves(&["a1b2"])).unwrap();
    let r = v.reason.unwrap();
    assert_eq!(r.code, "bad_piece_move");
    assert!(!r.zh.is_empty() && !r.en.is_empty());
    // The wrong entry's own words replace the hint for not_goal.
    let v = judge(&c, "all_kinds", 1, &moves(&["e4e5"])).unwrap();
    assert_eq!(v.reason.unwrap().en, "That captures nothing.");
}

#[test]
fn judge_stars_passes_the_turn_back_and_counts_moves() {
    let c = fixture();
    let v = judge(&c, "all_kinds", 0, &moves(&["a1a5"])).unwrap();
    assert!(v.ok && !v.done);
    assert_eq!(v.fen, "8/8/8/R7/8/8/8/4K2k w - - 2 2");
    assert_eq!(v.remaining, Some(vec!["e5".to_owned()]));
    let v = judge(&c, "all_kinds", 0, &moves(&["a1a2", "a2a3", "a3a4"])).unwrap();
    assert!(!v.ok && v.restart, "three moves without both stars: start again");
    assert_eq!(v.fen, "8/8/8/8/8/8/8/R3K2k w - - 0 1");
}

#[test]
fn judge_escape_counts_ways() {
    let c = fixture();
    let v = judge(&c, "all_kinds", 4, &moves(&["e1d1", "e1f2"])).unwrap();
    assert!(!v.ok, "the king again");
    assert_eq!(v.found, Some(vec!["king".to_owned()]));
    let v = judge(&c, "all_kinds", 4, &moves(&["e1d1", "a8e8"])).unwrap();
    assert!(v.ok && !v.done);
    assert_eq!(v.found, Some(vec!["king".to_owned(), "capture".to_owned()]));
    assert_eq!(v.fen, "R3r2k/8/8/8/8/8/8/4K1N1 w - - 0 1", "the board resets");
    let v = judge(&c, "all_kinds", 4, &moves(&["e1d1", "a8e8", "g1e2"])).unwrap();
    assert!(v.ok && v.done);
}

#[test]
fn judge_squares_and_choices() {
    let c = fixture();
    let v = judge(&c, "all_kinds", 5, &Try::Squares(vec!["a2".into(), "c3".into()])).unwrap();
    assert!(!v.ok);
    assert_eq!(v.reason.as_ref().unwrap().code, "wrong_square");
    assert_eq!(v.reason.unwrap().en, "The king moves one square at a time.");
    assert_eq!(v.remaining, Some(vec!["b1".to_owned(), "b2".to_owned()]));
    let v = judge(&c, "all_kinds", 5, &Try::Squares(vec!["a2".into(), "c3".into(), "b2".into(), "b1".into()])).unwrap();
    assert!(v.ok && v.done);
    let v = judge(&c, "all_kinds", 6, &Try::Choices(vec![1])).unwrap();
    assert!(!v.ok);
    assert_eq!(v.reason.unwrap().code, "wrong_choice");
    assert!(judge(&c, "all_kinds", 6, &Try::Choices(vec![0])).unwrap().done);
}

#[test]
fn judge_refuses_bad_requests() {
    let c = fixture();
    assert!(judge(&c, "nope", 0, &moves(&["e2e4"])).unwrap_err().is_not_found());
    assert!(judge(&c, "all_kinds", 99, &moves(&["e2e4"])).unwrap_err().is_not_found());
    assert_eq!(judge(&c, "all_kinds", 5, &moves(&["e2e4"])).unwrap_err().field(), "moves");
    assert_eq!(judge(&c, "all_kinds", 6, &Try::Choices(vec![7])).unwrap_err().field(), "choices[0]");
    assert_eq!(judge(&c, "all_kinds", 1, &moves(&["zz"])).unwrap_err().field(), "moves[0]");
    assert_eq!(judge(&c, "all_kinds", 1, &Try::Moves(vec![])).unwrap_err().field(), "moves");
    assert!(matches!(
        judge(&c, "first_game", 0, &moves(&["d1d7"])).unwrap_err(),
        guoxiang_learn::JudgeError::NotJudged
    ));
}

#[test]
fn lesson_json_has_the_contract_fields() {
    let c = fixture();
    let lines = guoxiang_learn::json::lessons_json(&c);
    assert_eq!(lines.len(), 2);
    let l = &lines[0];
    for k in ["id", "chapter", "chapter_title", "order", "topics", "title", "intro", "steps"] {
        assert!(l.get(k).is_some(), "lesson JSON lacks {k}: {l}");
    }
    let s = &l["steps"][0];
    assert_eq!(s["kind"], "moves");
    assert_eq!(s["goal"], "stars");
    assert_eq!(s["stars"], serde_json::json!(["a5", "e5"]));
    assert_eq!(s["orientation"], "white");
    assert_eq!(l["steps"][5]["answer"], serde_json::json!(["a2", "b1", "b2"]));
    assert_eq!(l["steps"][6]["orientation"], "black", "the side to move by default");
    assert_eq!(lines[1]["steps"][0]["level"], 1);
    assert_eq!(lines[1]["order"], 2);
    let grouped = guoxiang_learn::json::course_json(&c);
    assert_eq!(grouped["chapters"][0]["lessons"][1]["id"], "first_game");
}
