//! The `guoxiang` binary's subcommands, run as a user would run them.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn guoxiang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_guoxiang")).args(args).output().expect("run guoxiang")
}

fn guoxiang_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_guoxiang"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run guoxiang");
    // Feed standard input from another thread: the child may fill its stdout pipe before reading all its input.
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("wait");
    feeder.join().expect("feeder thread").expect("write stdin");
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("GUOXIANG_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIP: shared data not found at {} (set GUOXIANG_DATA)", dir.display());
        None
    }
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guoxiang-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, contents).expect("write temp file");
    p
}

fn json_lines(s: &str) -> Vec<Value> {
    s.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn perft_prints_nodes_last() {
    let o = guoxiang(&["perft", "4"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("nodes 197281"));
    let o = guoxiang(&["perft", "3", "--fen", KIWIPETE]);
    assert_eq!(stdout(&o).lines().last(), Some("nodes 97862"));
}

#[test]
fn perft_divide_lists_every_move_and_sums() {
    let o = guoxiang(&["perft", "3", "--divide"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21, "20 moves and the total");
    let sum: u64 = lines[..20].iter().map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 8902);
    assert!(lines.contains(&"e2e4 600"));
    assert_eq!(lines[20], "nodes 8902");
}

#[test]
fn perft_suite_reports_pass_and_fail() {
    let suite = temp_file(
        "suite.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n\
         8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3\n",
    );
    let o = guoxiang(&["perft", "--epd", suite.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "a failing case gives exit 1");
    let out = stdout(&o);
    assert!(out.contains("FAIL line 2"), "{out}");
    assert!(out.contains("expected 3, got 1"), "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"));
}

#[test]
fn perft_suites_from_shared_data_pass() {
    let Some(dir) = data_dir() else { return };
    for (file, max) in [("perftsuite_half_a.epd", "1000000"), ("tricky_half_a.perft", "1000000")] {
        let path = dir.join("perft").join(file);
        let o = guoxiang(&["perft", "--epd", path.to_str().unwrap(), "--max-nodes", max]);
        assert!(o.status.success(), "{file}: {}", stdout(&o));
        let last = stdout(&o).lines().last().unwrap_or_default().to_string();
        assert!(last.contains(" passed, 0 failed"), "{file}: {last}");
    }
}

fn position_json(fen: &str) -> Value {
    let o = guoxiang(&["position", fen, "--json"]);
    assert!(o.status.success(), "{fen}: {}", stderr(&o));
    let v = json_lines(&stdout(&o));
    assert_eq!(v.len(), 1);
    v.into_iter().next().unwrap()
}

#[test]
fn position_json_has_the_documented_fields() {
    let v = position_json("startpos");
    assert_eq!(v["fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(v["turn"], "white");
    assert_eq!(v["check"], false);
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["legal"].as_array().unwrap().len(), 20);
    assert!(v["legal"].as_array().unwrap().iter().any(|m| m["uci"] == "g1f3" && m["san"] == "Nf3"));
    assert_eq!(v["claimable"], serde_json::json!([]));
    assert_eq!(v["can_mate"]["white"], true);
    assert_eq!(v["can_mate"]["black"], true);
}

#[test]
fn position_json_tells_dead_positions_and_gives_mating_lines() {
    // Rammed pawns: dead, with each side's reason.
    let v = position_json("8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/8 w - - 0 1");
    assert_eq!(v["dead"], true);
    assert_eq!(v["can_mate"]["white"], false);
    assert!(v["cannot_mate_reason"]["white"].is_string(), "{v}");
    assert!(v["dead_reason"].as_str().unwrap().contains("neither side can mate"));
    // Opposite-coloured bishops: alive, and with --evidence a legal line for each side that ends in mate.
    let fen = "8/8/2b5/4k3/8/8/8/4K1B1 w - - 0 1";
    let o = guoxiang(&["position", fen, "--json", "--evidence"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_lines(&stdout(&o)).remove(0);
    assert_eq!(v["dead"], false);
    for side in ["white", "black"] {
        let line: Vec<&str> = v["mate_line"][side].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let mut p = guoxiang_core::Position::from_fen(fen).unwrap();
        for u in &line {
            let m = p.parse_uci(u).unwrap_or_else(|e| panic!("{side}: {u}: {e}"));
            p = p.play(m).unwrap();
        }
        assert!(p.is_checkmate(), "{side}: the line does not end in mate");
    }
    assert!(position_json(fen).get("mate_line").is_none(), "mate_line only with --evidence");
}

#[test]
fn position_status_covers_every_ending_a_position_shows() {
    // Fool's mate.
    let v = position_json("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!((v["status"].as_str(), v["check"].as_bool()), (Some("checkmate"), Some(true)));
    assert!(v["legal"].as_array().unwrap().is_empty());
    // Stalemate.
    assert_eq!(position_json("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")["status"], "stalemate");
    // Bare kings; king and bishop against king.
    assert_eq!(position_json("8/8/8/4k3/8/8/8/4K3 w - - 0 1")["status"], "dead_position");
    let v = position_json("8/8/8/4k3/8/8/8/4KB2 w - - 0 1");
    assert_eq!(v["status"], "dead_position");
    assert_eq!((v["can_mate"]["white"].as_bool(), v["can_mate"]["black"].as_bool()), (Some(false), Some(false)));
    // Locked pawns with kings only: no sequence of legal moves can mate.
    assert_eq!(position_json("8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/8 w - - 0 1")["status"], "dead_position");
    // King and queen against king: only white can mate.
    let v = position_json("8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
    assert_eq!(v["status"], "ongoing");
    assert_eq!((v["can_mate"]["white"].as_bool(), v["can_mate"]["black"].as_bool()), (Some(true), Some(false)));
    // 75-move rule (automatic) and the 50-move claim.
    assert_eq!(position_json("8/8/8/4k3/8/8/3R4/4K3 w - - 150 120")["status"], "seventy_five_moves");
    let v = position_json("8/8/8/4k3/8/8/3R4/4K3 w - - 100 120");
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["claimable"], serde_json::json!(["fifty_moves"]));
    let v = position_json("8/8/8/4k3/8/8/3R4/4K3 w - - 99 120");
    assert_eq!(v["claimable"], serde_json::json!(["fifty_moves_with_move"]));
}

#[test]
fn position_reads_many_fens_from_stdin_and_reports_bad_lines() {
    let input = "startpos\nnot a fen\n8/8/8/4k3/8/8/8/4K3 w - - 0 1\n";
    let o = guoxiang_stdin(&["position", "-", "--json"], input);
    assert_eq!(o.status.code(), Some(1), "a bad line gives exit 1");
    let v = json_lines(&stdout(&o));
    assert_eq!(v.len(), 3, "one object per input line");
    assert_eq!(v[1]["line"], 2);
    assert!(v[1]["error"].as_str().unwrap().contains("field 1 (piece placement)"), "{}", v[1]);
    assert_eq!(v[2]["status"], "dead_position");
}

#[test]
fn position_rejects_bad_fen_naming_the_field() {
    let o = guoxiang(&["position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("field 3 (castling): 'KQkx' — unknown letter 'x'"), "{}", stderr(&o));
    let o = guoxiang(&["position", "4k3/8/8/8/8/8/8/R3K2K w - - 0 1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("more than one white king"), "{}", stderr(&o));
}

#[test]
fn explain_says_why_in_both_languages() {
    let fen = "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1";
    let o = guoxiang(&["explain", fen, "e1g1"]);
    assert_eq!(o.status.code(), Some(1), "illegal gives exit 1");
    assert_eq!(stdout(&o).trim(), "不合法 [castle_through_check]: 王车易位不允许：王经过的 f1 格受到黑象 c4 的攻击。");
    let o = guoxiang(&["explain", fen, "e1g1", "--lang", "en"]);
    assert!(stdout(&o).contains("the king would pass through f1, which is attacked by the black bishop on c4"));
    let o = guoxiang(&["explain", fen, "e1c1", "--lang", "en"]);
    assert!(o.status.success(), "queen-side castling is legal here: {}", stdout(&o));
    assert_eq!(stdout(&o).trim(), "legal: e1c1 (O-O-O)");
    let o = guoxiang(&["explain", "startpos", "马f3"]);
    assert_eq!(stdout(&o).trim(), "合法：g1f3（马f3）");
    let o = guoxiang(&["explain", "startpos", "e2e5", "--json"]);
    let v = json_lines(&stdout(&o));
    assert_eq!(v[0]["legal"], false);
    assert_eq!(v[0]["squares"], serde_json::json!(["e2", "e5"]));
    let o = guoxiang(&["explain", "startpos", "e2e4", "--lang", "fr"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("expected zh or en"));
}

const TWO_GAMES: &str = "[Event \"Club\"]\n[White \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Ng1f3 Nc6 3. Bb5 a6 4. 0-0 {castled} Nf6 5. Re1 1-0\n\n\
[Event \"Bad\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";

#[test]
fn pgn_rerenders_in_export_format_and_reports_bad_games() {
    let f = temp_file("two.pgn", TWO_GAMES);
    let o = guoxiang(&["pgn", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "a game with errors gives exit 1");
    let out = stdout(&o);
    let first: Vec<&str> = out.lines().take(8).collect();
    assert_eq!(
        first,
        [
            "[Event \"Club\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"?\"]",
            "[White \"甲\"]",
            "[Black \"乙\"]",
            "[Result \"1-0\"]",
            ""
        ]
    );
    assert!(out.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O { castled } 4... Nf6 5. Re1 1-0"), "{out}");
    let err = stderr(&o);
    assert!(err.contains("game 2, line 11, column 13: move 2. Ke3: no king can move to e3"), "{err}");
    assert!(
        out.contains("[Event \"Bad\"]") && out.contains("1. e4 e5 *"),
        "the bad game is kept up to its error: {out}"
    );
}

#[test]
fn pgn_json_gives_moves_final_fen_result_and_errors() {
    let f = temp_file("two-json.pgn", TWO_GAMES);
    let o = guoxiang(&["pgn", f.to_str().unwrap(), "--json"]);
    let v = json_lines(&stdout(&o));
    assert_eq!(v.len(), 2);
    assert_eq!(v[0]["tags"]["White"], "甲");
    assert_eq!(v[0]["moves"].as_array().unwrap().len(), 9);
    assert_eq!(v[0]["moves"][2], serde_json::json!({ "uci": "g1f3", "san": "Nf3" }));
    assert_eq!(v[0]["moves"][6], serde_json::json!({ "uci": "e1g1", "san": "O-O" }));
    assert_eq!(v[0]["result"], "1-0");
    assert_eq!(v[0]["errors"], serde_json::json!([]));
    assert_eq!(v[1]["moves"].as_array().unwrap().len(), 2, "replay stops at the illegal move");
    let e = v[1]["errors"][0].as_str().unwrap();
    assert_eq!(e, "game 2, line 11, column 13: move 2. Ke3: no king can move to e3");
    assert_eq!(v[1]["final_fen"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
}

/// Real games: our export reads back with the same moves, lines stay within 80 columns, and the rules agree with
/// the reference data on the final position and how the game ended.
#[test]
fn pgn_on_real_games_round_trips_and_agrees_with_reference() {
    let Some(dir) = data_dir() else { return };
    let file = dir.join("pgn/lichess_db_2016-05_excerpt.pgn");
    let o = guoxiang(&["pgn", file.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let original = json_lines(&stdout(&o));
    assert_eq!(original.len(), 4798);

    let o = guoxiang(&["pgn", file.to_str().unwrap()]);
    assert!(o.status.success());
    let exported = stdout(&o);
    for l in exported.lines().filter(|l| !l.starts_with('[')) {
        assert!(l.chars().count() <= 80, "line over 80 columns: {l}");
    }
    let again = guoxiang_stdin(&["pgn", "-", "--json"], &exported);
    let again = json_lines(&stdout(&again));
    assert_eq!(again.len(), original.len());
    for (a, b) in original.iter().zip(&again) {
        assert_eq!(a["moves"], b["moves"]);
        assert_eq!(a["final_fen"], b["final_fen"]);
        assert_eq!(a["result"], b["result"]);
    }

    // The reference table of game endings (python-chess, checked with Stockfish).
    let table = std::fs::read_to_string(dir.join("positions/lichess_game_endings.tsv")).expect("endings table");
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (c_file, c_index, c_fen, c_mate, c_stale) =
        (col("source_file"), col("game_index"), col("final_fen"), col("checkmate"), col("stalemate"));
    let mut compared = 0;
    for row in lines {
        let f: Vec<&str> = row.split('\t').collect();
        if !f[c_file].contains("2016-05") {
            continue;
        }
        let g = &original[f[c_index].parse::<usize>().unwrap() - 1];
        assert_eq!(g["final_fen"], f[c_fen], "game {}", f[c_index]);
        let termination = g["outcome"]["termination"].as_str();
        assert_eq!(f[c_mate] == "1", termination == Some("checkmate"), "game {}", f[c_index]);
        assert_eq!(f[c_stale] == "1", termination == Some("stalemate"), "game {}", f[c_index]);
        compared += 1;
    }
    assert_eq!(compared, 4798);
}

#[test]
fn help_lists_every_command() {
    let o = guoxiang(&["--help"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for cmd in ["serve", "perft", "position", "pgn", "explain", "uci", "bench", "user", "token", "loadtest"] {
        assert!(out.contains(cmd), "usage mentions {cmd}");
    }
}

/// `guoxiang` with no arguments is `guoxiang serve`: http://127.0.0.1:8080 with a SQLite file in the current
/// directory.
#[test]
fn no_arguments_serves_on_8080_with_a_sqlite_file() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    if TcpStream::connect("127.0.0.1:8080").is_ok() {
        eprintln!("skipped: something already listens on 127.0.0.1:8080");
        return;
    }
    let dir = std::env::temp_dir().join(format!("guoxiang-noargs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_guoxiang"))
        .current_dir(&dir)
        .env_remove("GUOXIANG_DATABASE")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let mut answer = String::new();
    while start.elapsed() < std::time::Duration::from_secs(30) {
        if let Ok(mut s) = TcpStream::connect("127.0.0.1:8080") {
            write!(s, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\r\n").unwrap();
            s.read_to_string(&mut answer).unwrap();
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(answer.starts_with("HTTP/1.1 200") && answer.ends_with("ok"), "{answer}");
    assert!(dir.join("guoxiang.db").exists(), "the database file is made in the current directory");
    let _ = std::fs::remove_dir_all(&dir);
}

fn learn_fixture() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../learn/tests/fixture"))
}

#[test]
fn learn_check_accepts_a_valid_course() {
    let o = guoxiang(&["learn", "check", learn_fixture().to_str().unwrap()]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    // The figures of issue 39 (choice share, first play step), then the summary line.
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.first(), Some(&"choice: 1 of 9 steps (11.1 %); first play step: 9 of 9 (100.0 %)"), "{out}");
    // The texts' claims proven (crates/learn/src/claims.rs): the fixture's texts make none.
    assert!(lines.contains(&"texts: 0 claims proven"), "{out}");
    assert_eq!(lines.last(), Some(&"1 chapters, 2 lessons, 9 steps: ok"), "{out}");
}

#[test]
fn learn_stats_prints_the_figures_as_json() {
    let o = guoxiang(&["learn", "--stats"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let lessons = json_lines(&stdout(&guoxiang(&["learn", "--json"])));
    assert_eq!(v["lessons"], lessons.len());
    let steps: usize = lessons.iter().map(|l| l["steps"].as_array().unwrap().len()).sum();
    assert_eq!(v["steps"], steps);
    let choice = lessons.iter().flat_map(|l| l["steps"].as_array().unwrap()).filter(|s| s["kind"] == "choice").count();
    assert_eq!(v["choice"], choice);
    let chapters = v["chapters"].as_array().unwrap();
    assert_eq!(chapters.iter().map(|c| c["steps"].as_u64().unwrap() as usize).sum::<usize>(), steps);
    assert!(chapters.iter().all(|c| c["id"].is_string() && c["optional"].is_boolean()), "{v}");
}

#[test]
fn learn_check_prints_every_error_with_its_place() {
    let fixture = std::fs::read_to_string(learn_fixture().join("01-basics.toml")).unwrap();
    let dir = std::env::temp_dir().join(format!("guoxiang-cli-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let broken = fixture.replacen(r#"solutions = [["e4d5"]]"#, r#"solutions = [["e4d6"]]"#, 1).replacen(
        r#"verify = "checkmate""#,
        r#"verify = "stalemate""#,
        1,
    );
    std::fs::write(dir.join("01-basics.toml"), broken).unwrap();
    std::fs::write(dir.join("02-bad.toml"), "[chapter]\nid = \"bad\"\ntitle = oops\n").unwrap();
    let o = guoxiang(&["learn", "check", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.iter().any(|l| l.starts_with("01-basics.toml: lesson all_kinds: step 2: solution 1")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("01-basics.toml: lesson all_kinds: step 7: verify")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("02-bad.toml: line 3, column")), "{out}");
    assert_eq!(lines.last(), Some(&"1 chapters, 2 lessons, 9 steps: 3 errors"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn learn_check_reports_uncovered_topics_unless_skipped() {
    let fixture = std::fs::read_to_string(learn_fixture().join("01-basics.toml")).unwrap();
    let dir = std::env::temp_dir().join(format!("guoxiang-cli-learn-topics-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("01-basics.toml"), fixture.replacen(r#", "strategy_tips"]"#, "]", 1)).unwrap();
    let o = guoxiang(&["learn", "check", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().next(), Some(r#"course: no lesson covers the topic "strategy_tips""#));
    let o = guoxiang(&["learn", "check", "--skip-coverage", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn learn_check_of_a_missing_directory_is_bad_input() {
    let o = guoxiang(&["learn", "check", "/nonexistent/course"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read /nonexistent/course"), "{}", stderr(&o));
}

#[test]
fn learn_json_prints_one_lesson_per_line() {
    let o = guoxiang(&["learn", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lessons = json_lines(&stdout(&o));
    for (i, l) in lessons.iter().enumerate() {
        assert_eq!(l["order"], i + 1, "{l}");
        assert!(l["id"].is_string() && l["chapter"].is_string() && l["steps"].is_array(), "{l}");
        for s in l["steps"].as_array().unwrap() {
            assert!(s["fen"].is_string() && s["prompt"]["zh"].is_string() && s["orientation"].is_string(), "{s}");
        }
    }
    // The plain list names the same lessons.
    let o = guoxiang(&["learn"]);
    assert!(o.status.success());
    let list = stdout(&o);
    for l in &lessons {
        assert!(list.contains(l["id"].as_str().unwrap()), "{list}");
    }
}

/// `guoxiang bench` with each evaluation: deterministic node counts, different for the two evaluations, and a
/// network file that cannot be read named in the error.
#[test]
fn bench_with_either_evaluation() {
    let nodes = |args: &[&str]| {
        let o = guoxiang(args);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let last = out.lines().last().unwrap_or_default().to_string();
        assert!(last.ends_with(" nps"), "{out}");
        last.split_whitespace().next().unwrap().parse::<u64>().unwrap()
    };
    let hce = nodes(&["bench", "5", "--eval", "hce"]);
    let nnue = nodes(&["bench", "5", "--eval", "nnue"]);
    assert_eq!(nnue, nodes(&["bench", "5"]), "the network is the default");
    assert_eq!(nnue, nodes(&["bench", "5", "--eval", "nnue"]));
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/nets/default.nnue");
    assert_eq!(nnue, nodes(&["bench", "5", "--eval", "nnue", "--eval-file", file]));
    assert_ne!(hce, nnue);
    let o = guoxiang(&["bench", "5", "--eval-file", "/no/such.nnue"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("/no/such.nnue"), "{}", stderr(&o));
    let o = guoxiang(&["bench", "5", "--eval", "hce", "--eval-file", file]);
    assert!(stderr(&o).contains("--eval-file goes with --eval nnue"), "{}", stderr(&o));
}

/// `guoxiang review`: JSON per game, annotated PGN, the endgame tables, and clear errors.
#[test]
fn review_judges_games_and_uses_endgame_tables() {
    // King e6 and pawn e5 against the king on e8: Kd5 gives up the opposition and the win.
    let pgn = "[FEN \"4k3/8/4K3/4P3/8/8/8/8 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kd5 Kd7 *\n";
    let file = temp_file("ending.pgn", pgn);
    let file = file.to_str().expect("path");
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/../syzygy/tests/tables");

    let o = guoxiang(&["review", file, "--json", "--nodes", "20000", "--syzygy-path", tables]);
    assert!(o.status.success(), "{}", stderr(&o));
    let games = json_lines(&stdout(&o));
    assert_eq!(games.len(), 1, "{games:?}");
    let kd5 = &games[0]["moves"][0];
    assert_eq!(kd5["san"], "Kd5");
    assert_eq!(kd5["class"], "missed_win", "with the tables: {kd5}");
    assert_eq!(kd5["eval"], serde_json::json!({"cp": 0}), "a table draw after Kd5: {kd5}");
    assert!(matches!(kd5["best"].as_str(), Some("e6d6" | "e6f6")), "{kd5}");
    // One judge, either of them: the same verdict from the tables.
    for judges in ["hand", "network"] {
        let o = guoxiang(&["review", file, "--json", "--nodes", "20000", "--syzygy-path", tables, "--judges", judges]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(json_lines(&stdout(&o))[0]["moves"][0]["class"], "missed_win", "--judges {judges}");
    }

    // Annotated PGN: the evaluation, the NAG and the better line as a variation.
    let o = guoxiang(&["review", file, "--nodes", "20000", "--syzygy-path", tables, "--lang", "en"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("[%eval 0.00]"), "{out}");
    assert!(out.contains("(1. Kd6") || out.contains("(1. Kf6"), "the winning move as a variation: {out}");

    // Errors say what was wrong.
    let o = guoxiang(&["review", file, "--syzygy-path", "/nonexistent-tables"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--syzygy-path /nonexistent-tables"), "{}", stderr(&o));
    let empty = std::env::temp_dir().join(format!("guoxiang-cli-{}-no-tables", std::process::id()));
    std::fs::create_dir_all(&empty).expect("empty dir");
    let o = guoxiang(&["review", file, "--syzygy-path", empty.to_str().expect("path")]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no Syzygy tables"), "{}", stderr(&o));
    let o = guoxiang(&["review", file, "--nodes", "0"]);
    assert!(!o.status.success() && stderr(&o).contains("--nodes"), "{}", stderr(&o));
    let o = guoxiang(&["review", file, "--judges", "stockfish"]);
    assert!(!o.status.success() && stderr(&o).contains("'stockfish': say both, hand or network"), "{}", stderr(&o));
    let o = guoxiang(&["review", "/nonexistent.pgn"]);
    assert!(!o.status.success() && stderr(&o).contains("/nonexistent.pgn"), "{}", stderr(&o));
}
