//! The second edition's features (issue 39): optional chapters, stars with guarded squares, goal `safe`, `mate_in`
//! proofs, the `promote` mini-game, `verify = "seventyfive"`, the rule that chapters after the first game end with a
//! play step, and the course's figures. Each is taken through the checker (a wrong claim is refused with its file,
//! lesson and step) and the judge, from a small valid course written here.

use guoxiang_core::Position;
use guoxiang_learn::{CheckError, Course, ErrorKind, Stats, Try, check_files, judge, mate, safety};

const NEW: &str = r#"
[chapter]
id = "new"
title = { zh = "新", en = "New" }
summary = { zh = "第二版的步骤。", en = "The second edition's steps." }

[[lessons]]
id = "guarded"
topics = ["rook"]
title = { zh = "有守卫的星星", en = "Guarded stars" }

[[lessons.steps]]
kind = "moves"
goal = "stars"
guarded = true
fen = "7k/3n4/8/8/8/8/8/R3K3 w - - 0 1"
stars = ["a6", "g6"]
prompt = { zh = "吃掉星星，别走到黑马守着的格子", en = "Collect the stars; keep off the squares the black knight guards" }
hint = { zh = "马守着 b6。", en = "The knight guards b6." }
success = { zh = "车没有被吃掉。", en = "The rook was never taken." }
solutions = [["a1a6", "a6g6"]]
wrong = [{ moves = ["a1a6", "a6b6"], reason = "guarded" }]

[[lessons]]
id = "safe"
topics = ["protection"]
title = { zh = "保护", en = "Protect" }

[[lessons.steps]]
kind = "moves"
goal = "safe"
target = "c3"
fen = "4k3/8/8/8/1p6/2N5/8/4K3 w - - 0 1"
prompt = { zh = "马被兵攻击了，救它", en = "The pawn attacks the knight: save it" }
hint = { zh = "走开。", en = "Move it away." }
success = { zh = "马安全了。", en = "The knight is safe." }
solutions = [["c3e4"], ["c3a4"]]
wrong = [
  { moves = ["e1d2"], reason = "not_goal", why = { zh = "王保护了马，可是用马换兵不划算。", en = "The king defends the knight, but a knight for a pawn is a bad trade." } },
  { moves = ["e1e2"], reason = "not_goal" },
]

[[lessons]]
id = "mates"
topics = ["mate_in_two"]
title = { zh = "两步杀", en = "Mate in two" }

[[lessons.steps]]
kind = "moves"
goal = "mate"
mate_in = 2
fen = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"
lines = [["a2a7", "h8g8"]]
prompt = { zh = "两步杀", en = "Mate in two" }
hint = { zh = "两个车轮流。", en = "The rooks take turns." }
success = { zh = "车梯杀。", en = "The ladder mate." }
solutions = [["a2a7", "b1b8"]]

[[lessons.steps]]
kind = "moves"
goal = "mate"
mate_in = 3
fen = "8/6k1/8/8/8/8/R7/1R4K1 w - - 0 1"
lines = [["b1b6", "g7h7", "a2a7", "h7g8"]]
prompt = { zh = "三步杀", en = "Mate in three" }
hint = { zh = "先封住第六横排。", en = "Cut off the sixth rank first." }
success = { zh = "车梯杀。", en = "The ladder mate." }
solutions = [["b1b6", "a2a7", "b6b8"]]

[[lessons]]
id = "draws"
topics = ["fifty_moves"]
title = { zh = "75回合", en = "75 moves" }

[[lessons.steps]]
kind = "choice"
fen = "4k3/8/8/8/8/8/8/R3K3 w - - 149 100"
history = ["a1a2"]
verify = "seventyfive"
prompt = { zh = "结果呢？", en = "What now?" }
hint = { zh = "数一数。", en = "Count." }
success = { zh = "自动和棋。", en = "Drawn at once." }
choices = [{ zh = "和棋", en = "Draw" }, { zh = "继续", en = "Play on" }]
answer = [0]

[[lessons]]
id = "first_game"
topics = ["first_game"]
title = { zh = "第一盘棋", en = "A first game" }

[[lessons.steps]]
kind = "play"
level = 1
goal = "finish"
fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
prompt = { zh = "下完一盘", en = "Play a whole game" }
hint = { zh = "出子。", en = "Develop." }
success = { zh = "下完了。", en = "Done." }
"#;

const MORE: &str = r#"
[chapter]
id = "more"
title = { zh = "兵", en = "Pawns" }
summary = { zh = "兵的残局。", en = "Pawn endings." }

[[lessons]]
id = "pawn_first"
topics = ["pawn_endings"]
title = { zh = "兵", en = "Pawns" }

[[lessons.steps]]
kind = "moves"
goal = "promote"
fen = "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1"
prompt = { zh = "升变", en = "Promote" }
hint = { zh = "走到底线。", en = "Reach the last rank." }
success = { zh = "好。", en = "Good." }
solutions = [["e7e8q"]]

[[lessons]]
id = "pawn_war"
topics = ["pawn_endings"]
title = { zh = "兵的大战", en = "Pawn war" }

[[lessons.steps]]
kind = "play"
level = 1
goal = "promote"
fen = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"
prompt = { zh = "先升变的一方赢", en = "The first to promote wins" }
hint = { zh = "找通路。", en = "Find a free path." }
success = { zh = "升变了！", en = "Promoted!" }
"#;

const RULES: &str = r#"
[chapter]
id = "rules"
title = { zh = "比赛规则（选修）", en = "Tournament rules (optional)" }
optional = true
summary = { zh = "规则。", en = "Rules." }

[[lessons]]
id = "touch"
topics = ["touch_move"]
title = { zh = "摸子走子", en = "Touch-move" }

[[lessons.steps]]
kind = "choice"
fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
prompt = { zh = "摸了车要走车吗？", en = "Touched the rook: must it move?" }
hint = { zh = "摸子走子。", en = "Touch-move." }
success = { zh = "对。", en = "Right." }
choices = [{ zh = "要", en = "Yes" }, { zh = "不要", en = "No" }]
answer = [0]
"#;

fn files(new: &str, more: &str, rules: &str) -> Vec<(String, String)> {
    vec![
        ("01-new.toml".to_owned(), new.to_owned()),
        ("02-more.toml".to_owned(), more.to_owned()),
        ("03-rules.toml".to_owned(), rules.to_owned()),
    ]
}

fn file_errors(new: &str, more: &str, rules: &str) -> Vec<CheckError> {
    check_files(files(new, more, rules)).errors.into_iter().filter(|e| e.kind == ErrorKind::File).collect()
}

fn course() -> Course {
    let errors = file_errors(NEW, MORE, RULES);
    assert!(errors.is_empty(), "{}", errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"));
    check_files(files(NEW, MORE, RULES)).course
}

/// NEW with `from` (which must occur once) replaced by `to`; the file errors of the course.
fn broken(from: &str, to: &str) -> Vec<CheckError> {
    assert_eq!(NEW.matches(from).count(), 1, "{from:?} must occur once");
    file_errors(&NEW.replacen(from, to, 1), MORE, RULES)
}

/// Asserts an error in `file` at (lesson, 0-based step) whose message contains `needle`.
fn expect(errors: &[CheckError], file: &str, lesson: &str, step: usize, needle: &str) {
    assert!(
        errors.iter().any(|e| e.file == file
            && e.lesson.as_deref() == Some(lesson)
            && e.step == Some(step)
            && e.message.contains(needle)),
        "expected an error in {file} at {lesson} step {step} containing {needle:?}; got:\n{}",
        errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
    );
}

fn moves(v: &[&str]) -> Try {
    Try::Moves(v.iter().map(|s| s.to_string()).collect())
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

// ----- 1. optional chapters -----

#[test]
fn optional_chapters_in_the_json() {
    let c = course();
    assert!(!c.chapters[0].optional && !c.chapters[1].optional && c.chapters[2].optional);
    let lessons = guoxiang_learn::json::lessons_json(&c);
    for l in &lessons {
        assert_eq!(l["chapter_optional"], l["chapter"] == "rules", "{l}");
    }
    let grouped = guoxiang_learn::json::course_json(&c);
    assert_eq!(grouped["chapters"][0]["optional"], false);
    assert_eq!(grouped["chapters"][2]["optional"], true);
    assert_eq!(grouped["chapters"][2]["lessons"][0]["chapter_optional"], true);
    // A misspelt value is refused with its line.
    let e = file_errors(NEW, MORE, &RULES.replacen("optional = true", "optional = \"yes\"", 1));
    assert!(e.iter().any(|e| e.file == "03-rules.toml" && e.message.contains("line 5")), "{e:?}");
}

// ----- 2. stars with guarded squares -----

#[test]
fn guarded_stars_refuse_a_square_the_enemy_guards() {
    let c = course();
    let v = judge(&c, "guarded", 0, &moves(&["a1a6", "a6b6"])).unwrap();
    assert!(!v.ok && !v.done);
    let r = v.reason.unwrap();
    assert_eq!(r.code, "guarded");
    assert_eq!(r.zh, "b6 被黑马（d7）守着：走到那里会被吃掉。");
    assert_eq!(r.en, "The black knight on d7 guards b6: it would be taken there.");
    assert_eq!(v.fen, "7k/3n4/R7/8/8/8/8/4K3 w - - 2 2", "the rook stays on a6");
    assert_eq!(v.remaining, Some(vec!["g6".to_owned()]));
    // The king guards too (g7 next to h8).
    let v = judge(&c, "guarded", 0, &moves(&["a1a7"])).unwrap();
    assert!(v.ok, "a7 is not guarded: the knight is on d7, the king on h8");
    let v = judge(&c, "guarded", 0, &moves(&["a1a2", "a2g2", "g2g7"])).unwrap();
    assert_eq!(v.reason.unwrap().en, "The black king on h8 guards g7: it would be taken there.");
    assert!(judge(&c, "guarded", 0, &moves(&["a1a6", "a6g6"])).unwrap().done);
}

#[test]
fn stars_without_guarded_behave_as_before() {
    let text = NEW.replacen("guarded = true\n", "", 1).replacen(r#"reason = "guarded""#, r#"reason = "not_goal""#, 1);
    let e = file_errors(&text, MORE, RULES);
    expect(&e, "01-new.toml", "guarded", 0, r#"wrong ["a1a6", "a6b6"] is accepted, not rejected"#);
    let c = check_files(files(&text, MORE, RULES)).course;
    let v = judge(&c, "guarded", 0, &moves(&["a1a6", "a6b6"])).unwrap();
    assert!(v.ok && !v.done);
    assert_eq!(guoxiang_learn::json::step_json(&c.lessons().next().unwrap().1.steps[0]).get("guarded"), None);
}

#[test]
fn guarded_claims_are_proven() {
    // c6 is not guarded: the wrong try is accepted.
    let e =
        broken(r#"moves = ["a1a6", "a6b6"], reason = "guarded""#, r#"moves = ["a1a6", "a6c6"], reason = "guarded""#);
    expect(&e, "01-new.toml", "guarded", 0, r#"wrong ["a1a6", "a6c6"] is accepted, not rejected"#);
    // A guarded try claimed as not_goal is refused with the real reason.
    let e = broken(r#"reason = "guarded""#, r#"reason = "not_goal""#);
    expect(&e, "01-new.toml", "guarded", 0, r#"is rejected as "guarded", not "not_goal""#);
    // A star the enemy guards can never be taken.
    let e = broken(r#"stars = ["a6", "g6"]"#, r#"stars = ["a6", "b6"]"#);
    expect(&e, "01-new.toml", "guarded", 0, "star b6 is guarded by the knight on d7");
    let c = course();
    let json = guoxiang_learn::json::step_json(&c.lesson("guarded").unwrap().steps[0]);
    assert_eq!(json["guarded"], true);
}

// ----- 3. goal safe and the static exchange -----

#[test]
fn static_exchange_on_hand_made_positions() {
    use guoxiang_core::{Color, Square};
    let sq = |s: &str| Square::parse(s).unwrap();
    // A knight defended by a pawn, attacked by a pawn: the pawn wins 3 for 1.
    let p = pos("4k3/8/8/2p5/3N4/4P3/8/4K3 w - - 0 1");
    assert_eq!(safety::exchange_gain(&p, sq("d4"), Color::Black), 2);
    assert_eq!(safety::pieces_in_danger(&p, Color::White), vec![(sq("d4"), 2)]);
    // The same knight attacked by a knight instead: a trade, nothing won.
    let p = pos("4k3/8/8/1n6/3N4/4P3/8/4K3 w - - 0 1");
    assert_eq!(safety::exchange_gain(&p, sq("d4"), Color::Black), 0);
    assert!(safety::pieces_in_danger(&p, Color::White).is_empty());
    // Undefended: all of it.
    let p = pos("4k3/8/8/1n6/3N4/8/8/4K3 w - - 0 1");
    assert_eq!(safety::exchange_gain(&p, sq("d4"), Color::Black), 3);
    // A rook defended by a pawn, attacked by a bishop: 5 for 3.
    let p = pos("4k3/8/8/1b6/8/3R4/4P3/4K3 w - - 0 1");
    assert_eq!(safety::exchange_gain(&p, sq("d3"), Color::Black), 2);
    // Doubled rooks against one defender: the rook behind joins in once the front one has captured.
    let p = pos("4r2k/4r3/8/8/4N3/8/8/K3R3 w - - 0 1");
    assert_eq!(safety::exchange_gain(&p, sq("e4"), Color::Black), 3);
    let p = pos("7k/4r3/8/8/4N3/8/8/K3R3 w - - 0 1");
    assert_eq!(safety::exchange_gain(&p, sq("e4"), Color::Black), 0, "one rook alone would lose itself");
    // A king takes only what nothing defends.
    let p = pos("8/8/8/3k4/4P3/3P4/8/K7 b - - 0 1");
    assert_eq!(safety::exchange_gain(&p, sq("e4"), Color::Black), 0);
    let p = pos("8/8/8/3k4/4P3/8/8/K7 b - - 0 1");
    assert_eq!(safety::exchange_gain(&p, sq("e4"), Color::Black), 1);
    // Nothing of the other side there.
    assert_eq!(safety::exchange_gain(&p, sq("e5"), Color::Black), 0);
}

#[test]
fn goal_safe_is_done_when_nothing_can_be_won() {
    let c = course();
    for m in ["c3e4", "c3a4", "c3d5", "c3b5"] {
        let v = judge(&c, "safe", 0, &moves(&[m])).unwrap();
        assert!(v.ok && v.done, "{m}");
    }
    // Defending the knight with the king is not enough: pawn takes knight, king takes pawn.
    let v = judge(&c, "safe", 0, &moves(&["e1d2"])).unwrap();
    assert!(!v.ok);
    assert_eq!(v.reason.as_ref().unwrap().code, "not_goal");
    assert_eq!(v.reason.unwrap().en, "The king defends the knight, but a knight for a pawn is a bad trade.");
    // Without words of its own, the refusal names the piece in danger.
    let v = judge(&c, "safe", 0, &moves(&["e1e2"])).unwrap();
    let r = v.reason.unwrap();
    assert_eq!(r.en, "Your knight on c3 is still not safe: the opponent wins material by taking it.");
    assert_eq!(r.zh, "你的马（c3）还不安全：对方吃掉它能得到子力。");
    // The knight moved next to the pawn's reach is still lost.
    let v = judge(&c, "safe", 0, &moves(&["c3a2"])).unwrap();
    assert!(v.ok, "a2 is not attacked by the b4 pawn");
}

#[test]
fn goal_safe_claims_are_proven() {
    // A wrong solution: the knight goes where a pawn can take it.
    let e = broken(r#"solutions = [["c3e4"], ["c3a4"]]"#, r#"solutions = [["c3e4"], ["e1d1"]]"#);
    expect(&e, "01-new.toml", "safe", 0, r#"solution 2 ["e1d1"]: move 1 (e1d1) is rejected (not_goal"#);
    // A target that is not in danger, or not the learner's.
    let e = broken(r#"target = "c3""#, r#"target = "e1""#);
    expect(&e, "01-new.toml", "safe", 0, "`target` e1: no piece of the learner's");
    let e = broken("4k3/8/8/8/1p6/2N5/8/4K3 w", "4k3/8/8/1p6/8/2N5/8/4K3 w");
    expect(&e, "01-new.toml", "safe", 0, "the piece on c3 is not in danger");
    let e = broken(r#"target = "c3""#, r#"target = "b4""#);
    expect(&e, "01-new.toml", "safe", 0, "`target` b4: no piece of the learner's");
    let c = course();
    assert_eq!(guoxiang_learn::json::step_json(&c.lesson("safe").unwrap().steps[0])["target"], "c3");
}

// ----- 4. mate_in -----

#[test]
fn mate_in_is_proven_against_every_defence() {
    let c = course();
    let json = guoxiang_learn::json::step_json(&c.lesson("mates").unwrap().steps[0]);
    assert_eq!(json["mate_in"], 2);
    // The judge plays the scripted defence, as for any mate step.
    let v = judge(&c, "mates", 1, &moves(&["b1b6"])).unwrap();
    assert_eq!(v.reply.as_deref(), Some("g7h7"));
    assert!(judge(&c, "mates", 1, &moves(&["b1b6", "a2a7", "b6b8"])).unwrap().done);
    // The ladder's first move forces mate in 3 but not in 2; a rook check does not force mate in 2.
    let p = pos("8/6k1/8/8/8/8/R7/1R4K1 w - - 0 1");
    assert!(mate::forces_mate(&p, 3));
    assert!(!mate::forces_mate(&p, 2));
}

#[test]
fn a_mate_that_a_defence_escapes_is_refused_with_the_defence() {
    // Kf2 and the scripted Kh8 allow Ra8#, but a pawn move (luft) escapes: no mate in 2.
    let step = r#"fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
lines = [["g1f2", "g8h8"]]"#;
    let text = NEW
        .replacen(
            r#"fen = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"
lines = [["a2a7", "h8g8"]]"#,
            step,
            1,
        )
        .replacen(r#"solutions = [["a2a7", "b1b8"]]"#, r#"solutions = [["g1f2", "a1a8"]]"#, 1);
    let e = file_errors(&text, MORE, RULES);
    expect(
        &e,
        "01-new.toml",
        "mates",
        0,
        r#"mate_in = 2 is not proven for solution 1 ["g1f2", "a1a8"]: after Kf2, the defence"#,
    );
    let msg = e.iter().find(|e| e.message.contains("mate_in = 2 is not proven")).unwrap().message.clone();
    // The defence is named in SAN, and it does escape.
    let defence = msg.split("the defence ").nth(1).unwrap().split(' ').next().unwrap();
    let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let mut after = p.after(p.parse_uci("g1f2").unwrap());
    let d = after.parse_san(defence).unwrap_or_else(|e| panic!("{defence:?} is not SAN here: {e}"));
    after.play_unchecked(d);
    assert!(!mate::forces_mate(&after, 1), "{msg}");
    assert!(msg.ends_with("is not mated in the next move: no forced mate in 2"), "{msg}");
    // A solution of the wrong length, and a mate_in out of range.
    let e = broken(r#"solutions = [["b1b6", "a2a7", "b6b8"]]"#, r#"solutions = [["b1b6", "a2a7", "b6b8"], ["a2a7"]]"#);
    expect(&e, "01-new.toml", "mates", 1, r#"solution 2 ["a2a7"] has 1 moves, not mate_in = 3"#);
    let e = broken("mate_in = 3", "mate_in = 4");
    expect_no_step(&e, "`mate_in` must be 1 to 3, not 4");
    // mate_in > 1 needs a scripted defence.
    let e = broken(r#"lines = [["b1b6", "g7h7", "a2a7", "h7g8"]]"#, "");
    expect_no_step(&e, "needs `lines`");
}

/// A parse error of the step (the lesson is dropped: the message is what counts).
fn expect_no_step(errors: &[CheckError], needle: &str) {
    assert!(
        errors.iter().any(|e| e.file == "01-new.toml" && e.message.contains(needle)),
        "expected {needle:?}; got:\n{}",
        errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
    );
}

// ----- 5. the promote mini-game -----

#[test]
fn play_goal_promote() {
    let c = course();
    let json = guoxiang_learn::json::step_json(&c.lesson("pawn_war").unwrap().steps[0]);
    assert_eq!(json["kind"], "play");
    assert_eq!(json["goal"], "promote");
    let bad = MORE.replacen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w", "4k3/pppppppp/8/8/8/8/8/4K3 w", 1);
    let e = file_errors(NEW, &bad, RULES);
    expect(&e, "02-more.toml", "pawn_war", 0, "goal = \"promote\" cannot be reached: the learner's side has no pawn");
    let e = file_errors(
        NEW,
        &MORE.replacen(
            r#"goal = "promote"
fen = "4k3"#,
            r#"goal = "queen"
fen = "4k3"#,
            1,
        ),
        RULES,
    );
    expect_file(&e, "02-more.toml", r#"must be "win", "draw", "finish" or "promote", not "queen""#);
}

fn expect_file(errors: &[CheckError], file: &str, needle: &str) {
    assert!(
        errors.iter().any(|e| e.file == file && e.message.contains(needle)),
        "expected {needle:?} in {file}; got:\n{}",
        errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
    );
}

// ----- 6. the 75-move rule -----

#[test]
fn verify_seventyfive() {
    let e = broken(r#"fen = "4k3/8/8/8/8/8/8/R3K3 w - - 149 100""#, r#"fen = "4k3/8/8/8/8/8/8/R3K3 w - - 140 100""#);
    expect(
        &e,
        "01-new.toml",
        "draws",
        0,
        r#"verify = "seventyfive" is false: the position after `history` is not 75 moves"#,
    );
    // Checkmate on the 75th move wins (Article 9.6.2).
    let e = broken(
        r#"fen = "4k3/8/8/8/8/8/8/R3K3 w - - 149 100"
history = ["a1a2"]"#,
        r#"fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100"
history = ["a1a8"]"#,
    );
    expect(&e, "01-new.toml", "draws", 0, r#"verify = "seventyfive" is false"#);
    // The same position with fifty_moves holds too.
    let e = broken(r#"verify = "seventyfive""#, r#"verify = "fifty_moves""#);
    assert!(e.is_empty(), "{e:?}");
}

// ----- 7. chapters after the first game end with a play step -----

#[test]
fn chapters_after_the_first_game_end_with_play() {
    // 02 ends with the pawn war; 03 is optional: no error.
    course();
    // 02 without its mini-game.
    let cut = &MORE[..MORE.find("[[lessons]]\nid = \"pawn_war\"").unwrap()];
    let e = file_errors(NEW, cut, RULES);
    expect(
        &e,
        "02-more.toml",
        "pawn_first",
        0,
        "the chapter ends with a moves step: every chapter after the first game (01-new.toml) ends with a play step",
    );
    // 03 not optional any more.
    let e = file_errors(NEW, MORE, &RULES.replacen("optional = true\n", "", 1));
    expect(&e, "03-rules.toml", "touch", 0, "the chapter ends with a choice step");
    // No rule before the first game: without a finish step, nothing is asked.
    let no_game = NEW.replacen(r#"goal = "finish""#, r#"goal = "draw""#, 1);
    let e = file_errors(&no_game, cut, &RULES.replacen("optional = true\n", "", 1));
    assert!(e.iter().all(|e| !e.message.contains("ends with")), "{e:?}");
}

// ----- 8. the figures -----

#[test]
fn stats_count_choice_and_find_the_first_play_step() {
    let c = course();
    let s = Stats::of(&c);
    assert_eq!((s.lessons, s.steps, s.choice), (8, 9, 2));
    assert_eq!(s.first_play_step, Some(6));
    assert_eq!(s.line(), "choice: 2 of 9 steps (22.2 %); first play step: 6 of 9 (66.7 %)");
    assert_eq!(
        s.chapters.iter().map(|c| (c.id.as_str(), c.optional, c.lessons, c.steps)).collect::<Vec<_>>(),
        [("new", false, 5, 6), ("more", false, 2, 2), ("rules", true, 1, 1)]
    );
    let j = serde_json::to_value(&s).unwrap();
    assert_eq!(j["first_play_step"], 6);
    assert!((j["choice_share"].as_f64().unwrap() - 2.0 / 9.0).abs() < 1e-9);
    let none = Stats::of(&Course::default());
    assert_eq!(none.line(), "choice: 0 of 0 steps (0.0 %); first play step: none");
}
