//! `guoxiang loadtest --scenario class` against a real server: a teacher, a class of three students who log in with
//! their cards, do lesson steps, solve puzzles, play the computer to the end and get their games reviewed. The
//! think times are scaled down; no timing is asserted here (that is the benchmark's, docs/benchmarks.md).

mod common;

use std::time::Duration;

use common::{TestServer, temp_db};
use guoxiang_loadtest::{ClassOptions, run_class};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_does_its_work_and_every_game_is_reviewed() {
    let server = TestServer::start(&temp_db("class_loadtest")).await;
    let students = 3;
    let report = run_class(ClassOptions {
        base_url: format!("http://{}", server.addr),
        students,
        lesson_steps: 4,
        puzzles: 2,
        games: 1,
        think_scale: 0.005,
        seed: 7,
        review_timeout: Duration::from_secs(120),
        progress: false,
    })
    .await
    .unwrap();
    eprintln!("{report}");
    let c = &report.counts;
    assert_eq!(report.errors, 0, "{report}");
    assert_eq!(c.logged_in, students as u64, "{report}");
    assert!(c.tries_accepted >= 4 * students as u64, "every step has at least one right try: {report}");
    assert_eq!(c.steps_done, 4 * students as u64, "{report}");
    assert_eq!(c.puzzles_solved, 2 * students as u64, "{report}");
    assert_eq!((c.games_started, c.games_finished), (students as u64, students as u64), "{report}");
    assert_eq!(c.reviews_ready, c.games_finished, "{report}");
    assert_eq!(report.reviews_not_ready, 0);
    assert_eq!(c.students_complete, students as u64, "{report}");
    // Every kind of request was made and timed.
    for kind in ["login", "ws_connect", "learn_try", "puzzle_next", "puzzle_try", "puzzle_round", "game_start", "move"]
    {
        assert!(report.kind(kind).is_some_and(|k| k.count > 0), "{kind}: {report}");
    }
    assert_eq!(report.kind("login").unwrap().count, students as u64);
    assert_eq!(report.kind("review_request").unwrap().count, students as u64);
    // The server saw the students' work: their accounts are in the class, with earned steps and solved puzzles.
    let j = report.to_json();
    assert_eq!(j["counts"]["students_complete"], students as u64);
}
