//! A review searched in a browser and kept by the server (guoxiang_review::upload): the judgements sent as JSON give
//! the server the very review it would have made, honest marks stand when searched again, and a forged mark, a
//! hidden blunder or a judgement that is not legal chess is refused with where it is wrong.

use guoxiang_core::{Move, Position, UciMove};
use guoxiang_review::search::{Hooks, no_admit};
use guoxiang_review::upload::{self, Upload};
use guoxiang_review::{Class, Eval, Options, judge_game, review, review_from_judgements};

/// 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3#: White takes the bait twice.
const TRAP: &[&str] =
    &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "c6d4", "f3e5", "d8g5", "e5f7", "g5g2", "h1f1", "g2e4", "c4e2", "d4f3"];

const NODES: u64 = 20_000;

fn game() -> (Position, Vec<Move>) {
    let start = Position::new();
    let mut p = start.clone();
    let moves = TRAP
        .iter()
        .map(|u| {
            let m = u.parse::<UciMove>().expect("uci").to_move(&p).expect("legal");
            p = p.after(m);
            m
        })
        .collect();
    (start, moves)
}

fn options() -> Options {
    Options { nodes: NODES, ..Options::default() }
}

fn honest() -> (Position, Vec<Move>, Upload) {
    let (start, moves) = game();
    let judged = judge_game(&start, &moves, &options(), &mut Hooks { admit: &no_admit, progress: &mut |_, _| {} })
        .expect("judged");
    let up = upload::to_upload(&start, &judged, NODES);
    (start, moves, up)
}

fn check(start: &Position, moves: &[Move], up: &Upload, sample: &[usize]) -> Result<usize, String> {
    let judged = upload::read(start, moves, up, &options())?;
    let (r, _) = review_from_judgements(start, moves, &options(), judged)?;
    let mut hooks = Hooks { admit: &no_admit, progress: &mut |_, _| {} };
    upload::check(start, moves, &r, &options(), sample, &mut hooks).map(|c| c.moves).map_err(|e| e.to_string())
}

#[test]
fn the_judgements_sent_as_json_make_the_servers_own_review_and_its_marks_stand() {
    let (start, moves, up) = honest();
    let text = serde_json::to_string(&up).expect("json");
    let read = upload::read(&start, &moves, &upload::parse(&text).expect("parse"), &options()).expect("read");
    let (from_upload, _) = review_from_judgements(&start, &moves, &options(), read).expect("review");
    let direct = review(&start, &moves, &options(), &mut |_, _| {}).expect("review");
    assert_eq!(
        serde_json::to_string(&from_upload).expect("json"),
        serde_json::to_string(&direct).expect("json"),
        "the review of the uploaded judgements is the review"
    );
    let marked = direct.moves.iter().filter(|m| m.class.is_error()).count();
    assert!(direct.moves[8].class.is_mistake_or_worse(), "5.Nxf7: {:?}", direct.moves[8].class);
    let sample = upload::unmarked(&direct, &start, &moves);
    assert!(sample.len() >= 3, "{sample:?}");
    assert_eq!(check(&start, &moves, &up, &sample[..3]), Ok(marked + 3));
}

#[test]
fn a_mark_put_on_a_good_move_is_refused_with_the_move() {
    let (start, moves, mut up) = honest();
    // 1. e4 made to look like a blunder: the upload says Nf3 was best and the position after e4 is won for Black.
    for j in &mut up.judges {
        j[0].line = vec!["g1f3".into()];
        j[0].second_line = None;
        j[1].eval = Eval::Cp(900);
    }
    let judged = upload::read(&start, &moves, &up, &options()).expect("read");
    let (r, _) = review_from_judgements(&start, &moves, &options(), judged).expect("review");
    assert_eq!(r.moves[0].class, Class::Blunder, "the forged mark");
    let err = check(&start, &moves, &up, &[]).expect_err("a forged mark");
    assert!(err.starts_with("1.e4 (blunder): searched again, it loses 0.0 points"), "{err}");
    assert!(err.contains("searched again"), "{err}");
}

#[test]
fn a_blunder_hidden_is_refused_when_the_server_samples_it() {
    let (start, moves, mut up) = honest();
    let direct = review(&start, &moves, &options(), &mut |_, _| {}).expect("review");
    assert_eq!(direct.moves[8].class, Class::Blunder, "5.Nxf7");
    // 5. Nxf7?? loses the rook on h1 and more: the upload says the position after it is as good for White as the
    // one before.
    for j in &mut up.judges {
        j[9].eval = match j[8].eval {
            Eval::Cp(c) => Eval::Cp(-c),
            e => e,
        };
    }
    let judged = upload::read(&start, &moves, &up, &options()).expect("read");
    let (r, _) = review_from_judgements(&start, &moves, &options(), judged).expect("review");
    assert!(!r.moves[8].class.is_error(), "hidden: {:?}", r.moves[8].class);
    assert!(upload::unmarked(&r, &start, &moves).contains(&8));
    let err = check(&start, &moves, &up, &[8]).expect_err("the hidden blunder");
    assert!(err.starts_with("5.Nxf7 (good)") || err.starts_with("5.Nxf7 (best)"), "{err}");
}

#[test]
fn judgements_that_are_not_legal_chess_or_not_one_per_position_are_refused_with_where() {
    let (start, moves, up) = honest();
    let opts = options();
    let mut bad = up.clone();
    bad.judges[1][4].line = vec!["e2e4".into()];
    let e = upload::read(&start, &moves, &bad, &opts).expect_err("illegal");
    assert!(e.starts_with("judge 2, position 4 (after 4 moves): line, move 1: e2e4"), "{e}");
    let mut bad = up.clone();
    bad.judges[0].pop();
    let e = upload::read(&start, &moves, &bad, &opts).expect_err("short");
    assert!(e.contains("judge 1: 14 judgements"), "{e}");
    let mut bad = up.clone();
    bad.nodes = 1;
    assert!(upload::read(&start, &moves, &bad, &opts).expect_err("nodes").starts_with("nodes: 1"));
    let mut bad = up.clone();
    bad.judges[0][2].eval = Eval::Cp(1_000_000);
    assert!(upload::read(&start, &moves, &bad, &opts).expect_err("range").contains("out of range"));
    let mut bad = up.clone();
    bad.judges[0][2].second = Some(140.0);
    assert!(upload::read(&start, &moves, &bad, &opts).expect_err("second").contains("second: 140"));
    assert!(upload::parse("{\"nodes\": 5}").expect_err("json").contains("judges"));
    assert!(upload::parse("{\"nodes\": 5, \"judges\": [], \"x\": 1}").expect_err("json").contains("unknown field"));
}
