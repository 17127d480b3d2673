//! Drives `guoxiang uci` as a subprocess, as a GUI would.

use guoxiang_core::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_guoxiang"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start guoxiang uci");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, cmd: &str) {
        writeln!(self.stdin, "{cmd}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `done`; returns all lines read. Panics after `timeout`.
    fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out; read so far: {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; read so far: {seen:#?}"),
            }
        }
    }

    fn bestmove(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let lines = self.until(timeout, |l| l.starts_with("bestmove"));
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
        (best, lines)
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until(Duration::from_secs(10), |l| l == "readyok");
    }

    fn quit(mut self) {
        self.send("quit");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success());
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        panic!("engine did not quit");
    }
}

const LONG: Duration = Duration::from_secs(60);

fn assert_legal(fen_or_start: &str, moves: &[&str], best: &str) {
    let mut pos = if fen_or_start == "startpos" { Position::new() } else { Position::from_fen(fen_or_start).unwrap() };
    for m in moves {
        let mv = pos.parse_uci(m).unwrap();
        pos.play_unchecked(mv);
    }
    assert!(pos.parse_uci(best).is_ok(), "{best} is not legal in {}", pos.fen());
}

#[test]
fn handshake_and_depth_search() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(LONG, |l| l == "uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name guoxiang")));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    for opt in ["Hash", "Threads", "MultiPV", "Move Overhead", "Clear Hash", "Ponder", "UCI_Chess960"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {opt} type"))), "{opt}");
    }
    for opt in ["UCI_LimitStrength", "UCI_Elo", "Skill Level"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {opt} type"))), "{opt}");
    }
    e.ready();
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 6");
    let (best, lines) = e.bestmove(LONG);
    assert_legal("startpos", &["e2e4", "e7e5", "g1f3"], &best);
    let info: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(info.iter().any(|l| l.starts_with("info depth 6 ")), "{lines:#?}");
    for key in [" seldepth ", " multipv ", " score ", " nodes ", " nps ", " hashfull ", " time ", " pv "] {
        assert!(info.last().unwrap().contains(key), "{key}");
    }
    e.quit();
}

#[test]
fn movetime_and_clock() {
    let mut e = Engine::start();
    e.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let start = Instant::now();
    e.send("go movetime 200");
    let (best, _) = e.bestmove(LONG);
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    assert_legal("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", &[], &best);

    e.send("position startpos moves d2d4");
    let start = Instant::now();
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let (best, _) = e.bestmove(LONG);
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    assert_legal("startpos", &["d2d4"], &best);
    e.quit();
}

#[test]
fn stop_ends_an_infinite_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    // The engine answers while it searches, and does not answer `bestmove` by itself.
    e.ready();
    e.send("stop");
    let (best, _) = e.bestmove(LONG);
    assert_legal("startpos", &[], &best);

    // Pondering ends with ponderhit, then the clock applies.
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 500 btime 500");
    std::thread::sleep(Duration::from_millis(200));
    e.send("ponderhit");
    let (best, _) = e.bestmove(LONG);
    assert_legal("startpos", &["e2e4"], &best);
    e.quit();
}

#[test]
fn mate_and_multipv_and_searchmoves() {
    let mut e = Engine::start();
    e.send("position fen 7k/8/8/8/8/8/R7/1R4K1 w - - 0 1");
    e.send("go mate 2");
    let (_, lines) = e.bestmove(LONG);
    assert!(lines.iter().any(|l| l.contains("score mate 2")), "{lines:#?}");

    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 5");
    let (_, lines) = e.bestmove(LONG);
    for k in 1..=3 {
        assert!(lines.iter().any(|l| l.starts_with("info depth 5 ") && l.contains(&format!(" multipv {k} "))));
    }
    e.send("setoption name MultiPV value 1");
    e.send("go depth 4 searchmoves a2a3 h2h3");
    let (best, _) = e.bestmove(LONG);
    assert!(best == "a2a3" || best == "h2h3", "{best}");
    e.send("go nodes 2000");
    let (best, _) = e.bestmove(LONG);
    assert_legal("startpos", &[], &best);
    e.quit();
}

#[test]
fn malformed_input_gets_info_string() {
    let mut e = Engine::start();
    for bad in [
        "bogus command",
        "position",
        "position fen not a fen",
        "position startpos moves e2e4 e7e5 e1e3 d2d4",
        "go depth x",
        "setoption name NoSuchOption value 3",
        "setoption name Hash value lots",
        "setoption",
    ] {
        e.send(bad);
        let lines = e.until(LONG, |l| l.starts_with("info string"));
        assert!(!lines.is_empty(), "{bad}");
        if bad.contains("e1e3") {
            assert!(lines.last().unwrap().contains("e1e3"), "{lines:?}");
            // `go depth x` below leaves a search running with the default limits; stop it first.
        }
        if bad.starts_with("go") {
            e.send("stop");
            e.bestmove(LONG);
        }
    }
    // The position was kept up to the last legal move (1. e4 e5), so Ke2 is legal and d2d4 is.
    e.send("go depth 3 searchmoves e1e2");
    let (best, _) = e.bestmove(LONG);
    assert_eq!(best, "e1e2");
    e.ready();
    e.quit();
}

#[test]
fn every_option_is_accepted() {
    let mut e = Engine::start();
    for opt in [
        "setoption name Hash value 32",
        "setoption name Threads value 2",
        "setoption name MultiPV value 2",
        "setoption name Move Overhead value 50",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name UCI_Chess960 value false",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1200",
        "setoption name Skill Level value 5",
        "setoption name UCI_ShowWDL value false",
        "setoption name SyzygyPath value <empty>",
        "setoption name SingularExtensions value true",
        "setoption name ContinuationHistory value true",
    ] {
        e.send(opt);
    }
    e.send("isready");
    let lines = e.until(LONG, |l| l == "readyok");
    assert!(lines.iter().all(|l| !l.starts_with("info string")), "{lines:#?}");
    e.send("position startpos moves e2e4");
    e.send("go movetime 300");
    let (best, _) = e.bestmove(LONG);
    assert_legal("startpos", &["e2e4"], &best);

    // Chess960: castling is written king takes rook.
    e.send("setoption name UCI_LimitStrength value false");
    e.send("setoption name Skill Level value 20");
    e.send("setoption name UCI_Chess960 value true");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1");
    e.send("isready");
    let lines = e.until(LONG, |l| l == "readyok");
    assert!(lines.iter().all(|l| !l.starts_with("info string")), "{lines:#?}");
    e.send("d");
    let lines = e.until(LONG, |l| l.starts_with("info string fen"));
    assert!(lines.last().unwrap().contains("RNBQ1RK1 b"), "{lines:?}");
    e.send("go depth 3");
    e.bestmove(LONG);
    e.quit();
}

/// lichess-bot's settings: a Syzygy path (here one that does not exist, said so) and win/draw/loss in the `info`
/// lines.
#[test]
fn syzygy_path_and_wdl() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(LONG, |l| l == "uciok");
    for opt in
        ["option name UCI_ShowWDL type check default false", "option name SyzygyPath type string default <empty>"]
    {
        assert!(lines.iter().any(|l| l == opt), "{opt} missing: {lines:#?}");
    }
    e.send("setoption name SyzygyPath value ./syzygy/");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("isready");
    // Nothing after `setoption` (clients warn of unexpected lines); the notice comes with the next search.
    let lines = e.until(LONG, |l| l == "readyok");
    assert_eq!(lines, ["readyok"]);
    // White is a queen up: most of the chances are White's.
    e.send("position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    e.send("go depth 6");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    let notice = "info string SyzygyPath ./syzygy/: ";
    assert_eq!(lines.iter().filter(|l| l.starts_with(notice)).count(), 1, "{lines:#?}");
    assert!(lines[0].starts_with(notice), "the notice comes first: {lines:#?}");
    assert!(lines[0].ends_with("no tables are used"), "{lines:#?}");
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!infos.is_empty(), "{lines:#?}");
    for l in &infos {
        let t: Vec<&str> = l.split_whitespace().collect();
        let at = t.iter().position(|&x| x == "wdl").unwrap_or_else(|| panic!("no wdl in {l}"));
        let wdl: Vec<u32> = t[at + 1..at + 4].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{l}");
        assert!(wdl[0] > 900, "{l}");
    }
    e.quit();
}

/// Syzygy tables (guoxiang-syzygy's committed 3- and 4-piece fixtures): found and counted, the only winning move
/// played and scored from the tables with `tbhits`; `SyzygyProbeLimit 0` turns them off.
#[test]
fn syzygy_tables_decide_endgames() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../syzygy/tests/tables");
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(LONG, |l| l == "uciok");
    for opt in [
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name Syzygy50MoveRule type check default true",
    ] {
        assert!(lines.iter().any(|l| l == opt), "{opt} missing: {lines:#?}");
    }
    e.send(&format!("setoption name SyzygyPath value {dir}"));
    // King and pawn against king: only Kg6 wins.
    e.send("position fen 6k1/8/8/4P2K/8/8/8/8 w - - 0 1");
    e.send("go depth 5");
    let (best, lines) = e.bestmove(LONG);
    assert!(lines[0].starts_with(&format!("info string SyzygyPath {dir}: ")), "{lines:#?}");
    assert!(lines[0].ends_with("tables, up to 4 pieces"), "{lines:#?}");
    assert_eq!(best, "h5g6", "{lines:#?}");
    let last = lines.iter().rev().find(|l| l.contains(" score ")).expect("an info line");
    let t: Vec<&str> = last.split_whitespace().collect();
    let cp: i32 = t[t.iter().position(|&x| x == "cp").expect("a cp score") + 1].parse().unwrap();
    assert!(cp > 19_000, "{last}");
    let hits: u64 = t[t.iter().position(|&x| x == "tbhits").expect("tbhits") + 1].parse().unwrap();
    assert!(hits > 0, "{last}");

    e.send("setoption name SyzygyProbeLimit value 0");
    e.send("go depth 5");
    let (_, lines) = e.bestmove(LONG);
    let last = lines.iter().rev().find(|l| l.contains(" score ")).expect("an info line");
    assert!(!last.contains("tbhits"), "{last}");
    let t: Vec<&str> = last.split_whitespace().collect();
    let cp: i32 = t[t.iter().position(|&x| x == "cp").expect("a cp score") + 1].parse().unwrap();
    assert!(cp < 19_000, "{last}");
    e.quit();
}

/// A `Hash` larger than half of the machine's memory is cut down, and saying so; clearing even a large table
/// leaves the engine answering at once (a fresh table, zeroed by the system as it is used).
#[test]
fn hash_is_capped_and_cleared_without_blocking() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(LONG, |l| l == "uciok");
    let max: usize = lines
        .iter()
        .find_map(|l| l.strip_prefix("option name Hash type spin default 16 min 1 max "))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no Hash option: {lines:#?}"));
    assert!((1..=65_536).contains(&max), "{max}");
    e.send("setoption name Hash value 100000000");
    e.send("isready");
    let lines = e.until(LONG, |l| l == "readyok");
    let said = format!("info string Hash 100000000 is more than half of this machine's memory: using {max} MB");
    assert!(lines.contains(&said), "{lines:#?}");
    e.send("setoption name Hash value 64");
    e.send("position startpos moves e2e4");
    e.send("go depth 5");
    e.bestmove(LONG);
    for clear in ["setoption name Clear Hash", "ucinewgame"] {
        e.send(clear);
        e.send("isready");
        e.until(LONG, |l| l == "readyok");
    }
    e.send("position startpos moves d2d4");
    e.send("go depth 5");
    let (best, _) = e.bestmove(LONG);
    assert_legal("startpos", &["d2d4"], &best);
    e.quit();
}

/// The network evaluation: on and off, another network file, and files that cannot be used.
#[test]
fn nnue_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(LONG, |l| l == "uciok");
    for opt in [
        "option name Use NNUE type check default true",
        "option name EvalFile type string default <embedded>",
        "option name SingularExtensions type check default false",
        format!("option name ContinuationHistory type check default {}", guoxiang_engine::CONTINUATION_HISTORY_DEFAULT)
            .as_str(),
    ] {
        assert!(lines.iter().any(|l| l == opt), "{opt} missing: {lines:#?}");
    }
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/nets/default.nnue");
    let dir = std::env::temp_dir().join(format!("gx-uci-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let damaged = dir.join("damaged.nnue");
    let mut bytes = std::fs::read(net).unwrap();
    bytes[5000] ^= 0x40;
    std::fs::write(&damaged, &bytes).unwrap();
    e.send("setoption name Use NNUE value true");
    e.send(&format!("setoption name EvalFile value {net}"));
    e.send("isready");
    let lines = e.until(LONG, |l| l == "readyok");
    assert_eq!(lines, ["readyok"]);
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 6");
    let (best, _) = e.bestmove(LONG);
    assert_legal("startpos", &["e2e4", "e7e5"], &best);
    // A queen up is winning for the network too.
    e.send("position fen 4k3/8/8/8/8/8/3QPPPP/4K3 w - - 0 1");
    e.send("go depth 4");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    let last = lines.iter().rev().find(|l| l.contains(" score cp ")).expect("a score");
    let t: Vec<&str> = last.split_whitespace().collect();
    let cp: i32 = t[t.iter().position(|&x| x == "cp").unwrap() + 1].parse().unwrap();
    assert!(cp > 500, "{last}");
    for (value, said) in [
        (damaged.display().to_string(), "the network file is damaged"),
        ("/no/such/file.nnue".to_string(), "/no/such/file.nnue: "),
    ] {
        e.send(&format!("setoption name EvalFile value {value}"));
        e.send("isready");
        let lines = e.until(LONG, |l| l == "readyok");
        assert!(
            lines.iter().any(|l| l.starts_with("info string EvalFile")
                && l.contains(said)
                && l.ends_with("the network is unchanged")),
            "{lines:#?}"
        );
    }
    e.send("setoption name Use NNUE value false");
    e.send("position startpos");
    e.send("go depth 4");
    e.bestmove(LONG);
    e.quit();
    std::fs::remove_dir_all(&dir).ok();
}

/// `bestmove` begins the last line shown. Positions where the engine, at 10+0.1 against Toga II, played another move
/// than the last line it had shown (fastchess's warnings, 2026-12-07): a search stopped inside an iteration can
/// choose a move whose line was never shown; it is then shown, with its score, before `bestmove`.
#[test]
fn the_move_played_begins_the_last_line_shown() {
    const FENS: [&str; 6] = [
        "8/7p/2nnk1p1/4p3/8/2BR2PP/5K2/8 w - - 1 44",
        "3r4/2kP4/4P1p1/1PP3P1/P7/3K4/8/8 b - - 0 45",
        "6k1/1p2q2p/nB1rbb2/2p1pp2/2P3p1/P1Q3P1/1P3PBP/4R1NK w - - 0 15",
        "4rnk1/ppq2pp1/2nb4/3pr1PQ/8/1NPB4/PP1B1P2/R4RK1 b - - 3 18",
        "2k1rb1r/ppp2p1p/3p2q1/3P4/5QbP/3PB3/PPPK2P1/R4B1R w - - 5 8",
        "4rnk1/ppq1bp2/2n1r1pQ/3p2P1/5P2/1NPB4/PP1B2K1/R4R2 b - - 1 21",
    ];
    let mut e = Engine::start();
    e.send("uci");
    e.until(LONG, |l| l == "uciok");
    let (mut searches, mut shown_again) = (0, 0);
    for fen in FENS {
        for nodes in (20_000..=200_000).step_by(20_000) {
            e.send("ucinewgame");
            e.send(&format!("position fen {fen}"));
            e.send(&format!("go nodes {nodes}"));
            let (best, lines) = e.bestmove(LONG);
            let shown: Vec<&str> = lines
                .iter()
                .filter(|l| l.starts_with("info depth") && l.contains(" multipv 1 "))
                .filter_map(|l| l.split(" pv ").nth(1))
                .collect();
            let last = shown.last().unwrap_or_else(|| panic!("{fen} at {nodes} nodes: no line shown"));
            assert_eq!(last.split_whitespace().next(), Some(best.as_str()), "{fen} at {nodes}: {lines:#?}");
            if shown.len() >= 2 && !shown[shown.len() - 2].starts_with(&format!("{best} ")) {
                shown_again += 1;
            }
            searches += 1;
        }
    }
    e.quit();
    eprintln!("{searches} searches, {shown_again} with the move played shown again");
    // The positions were picked for it: some of these searches stop where the choice is not the last line's move.
    assert!(shown_again > 0, "no search took the path this test is for");
}
