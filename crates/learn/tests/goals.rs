//! The one-move goals and a scripted mate, through the checker and the judge.

use guoxiang_learn::{Course, ErrorKind, Try, check_files, judge};

const FILE: &str = r#"
[chapter]
id = "goals"
title = { zh = "目标", en = "Goals" }
summary = { zh = "每种目标。", en = "Every goal." }

[[lessons]]
id = "goals"
topics = ["castling"]
title = { zh = "目标", en = "Goals" }

[[lessons.steps]]
kind = "moves"
goal = "castle"
side = "queen"
fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
prompt = { zh = "长易位", en = "Castle queenside" }
hint = { zh = "王向后翼走两格。", en = "The king goes two squares towards the queen's side." }
success = { zh = "好。", en = "Good." }
solutions = [["e1c1"], ["e1a1"]]
wrong = [{ moves = ["e1g1"], reason = "not_goal" }]

[[lessons.steps]]
kind = "moves"
goal = "promote"
role = "knight"
fen = "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1"
prompt = { zh = "升变为马", en = "Promote to a knight" }
hint = { zh = "选马。", en = "Choose the knight." }
success = { zh = "好。", en = "Good." }
solutions = [["e7e8n"]]
wrong = [{ moves = ["e7e8q"], reason = "not_goal" }, { moves = ["e7e8"], reason = "promotion_required" }]

[[lessons.steps]]
kind = "moves"
goal = "en_passant"
fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"
prompt = { zh = "吃过路兵", en = "Capture en passant" }
hint = { zh = "斜着走到 d6。", en = "Go diagonally to d6." }
success = { zh = "好。", en = "Good." }
solutions = [["e5d6"]]
wrong = [{ moves = ["e5e6"], reason = "not_goal" }]

[[lessons.steps]]
kind = "moves"
goal = "check"
fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
prompt = { zh = "将军", en = "Give check" }
hint = { zh = "车攻击王。", en = "Attack the king with the rook." }
success = { zh = "好。", en = "Good." }
solutions = [["a1a8"]]
wrong = [{ moves = ["a1a2"], reason = "not_goal" }]

[[lessons.steps]]
kind = "moves"
goal = "any"
from = "a1"
fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
prompt = { zh = "走车", en = "Move the rook" }
hint = { zh = "车在 a1。", en = "The rook is on a1." }
success = { zh = "好。", en = "Good." }
solutions = [["a1a5"]]
wrong = [{ moves = ["e1e2"], reason = "not_goal" }]

[[lessons.steps]]
kind = "moves"
goal = "mate"
fen = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"
lines = [["a2a7", "h8g8"]]
prompt = { zh = "两步杀", en = "Mate in two" }
hint = { zh = "两个车轮流。", en = "The rooks take turns." }
success = { zh = "好。", en = "Good." }
solutions = [["a2a7", "b1b8"]]
wrong = [{ moves = ["a2a7", "b1b2"], reason = "not_goal" }, { moves = ["b1b8"], reason = "not_goal" }]
"#;

fn course() -> Course {
    let r = check_files(vec![("01-goals.toml".into(), FILE.into())]);
    let errors: Vec<String> = r.file_errors().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert!(r.errors.iter().any(|e| e.kind == ErrorKind::Coverage), "a one-lesson course covers few topics");
    r.course
}

fn moves(v: &[&str]) -> Try {
    Try::Moves(v.iter().map(|s| s.to_string()).collect())
}

#[test]
fn every_goal_checks() {
    course();
}

#[test]
fn castling_either_way_of_writing_it() {
    let c = course();
    for m in ["e1c1", "e1a1"] {
        let v = judge(&c, "goals", 0, &moves(&[m])).unwrap();
        assert!(v.ok && v.done, "{m}");
        assert_eq!(v.fen, "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    }
    let v = judge(&c, "goals", 0, &moves(&["e1g1"])).unwrap();
    assert_eq!(v.reason.unwrap().code, "not_goal", "kingside is not what was asked");
}

#[test]
fn promotion_and_en_passant() {
    let c = course();
    assert!(judge(&c, "goals", 1, &moves(&["e7e8n"])).unwrap().done);
    assert_eq!(judge(&c, "goals", 1, &moves(&["e7e8"])).unwrap().reason.unwrap().code, "promotion_required");
    let v = judge(&c, "goals", 2, &moves(&["e5d6"])).unwrap();
    assert!(v.done);
    assert_eq!(v.fen, "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2", "the d5 pawn is gone");
}

#[test]
fn a_scripted_mate() {
    let c = course();
    let v = judge(&c, "goals", 5, &moves(&["a2a7"])).unwrap();
    assert!(v.ok && !v.done);
    assert_eq!(v.reply.as_deref(), Some("h8g8"));
    let v = judge(&c, "goals", 5, &moves(&["a2a7", "b1b8"])).unwrap();
    assert!(v.ok && v.done);
    let v = judge(&c, "goals", 5, &moves(&["b1b8"])).unwrap();
    assert!(!v.ok, "check, but the king escapes: not the mate");
}

#[test]
fn a_broken_line_reply_is_reported() {
    let broken = FILE.replace(r#"lines = [["a2a7", "h8g8"]]"#, r#"lines = [["a2a7", "h8h7"]]"#);
    let r = check_files(vec![("01-goals.toml".into(), broken)]);
    let e: Vec<String> = r.file_errors().map(|e| e.to_string()).collect();
    assert!(e.iter().any(|e| e.contains("step 6") && e.contains("the reply h8h7 is not legal")), "{e:#?}");
    assert!(e.iter().any(|e| e.contains("step 6: line 1") && e.contains("move 2 (h8h7) cannot be played")), "{e:#?}");
}
