// SPDX-License-Identifier: GPL-3.0-or-later
//! Dev check on python-chess's own PGN test files (its `data/pgn/` folder, which is not in this repository): set
//! `GUOXIANG_PYCHESS_PGN` to a folder holding them, e.g.
//!
//! ```text
//! GUOXIANG_PYCHESS_PGN=/tmp/pychess-pgn cargo test -p guoxiang-pgn --test pychess_data -- --nocapture
//! ```
//!
//! Without it the test says so and passes. For every game of every `*.pgn` there, it checks that the game reads,
//! that writing it and reading it back gives the same tree (comment whitespace aside, since the writer re-wraps
//! comments), that the rules' normalized tree round-trips too, and, when `python3` with python-chess is installed,
//! that the main line (UCI of every half-move, null moves as `0000`) and the final position agree with what
//! python-chess reads. It prints a line per file and fails on any game that does not read, unless the reason is one
//! we do not support on purpose (a chess variant other than Chess960, or a Crazyhouse drop).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::normalize_comments;
use guoxiang_pgn::{ErrorKind, Game, PgnError, Reader, Replayer, normalize};

/// What python-chess reads from a file: per game, the main line in UCI, the final FEN and its errors.
#[derive(Debug)]
struct Reference {
    uci: Vec<String>,
    fen: String,
    errors: usize,
}

/// Prints one line per game: the number of errors, the final FEN and the main line in UCI, separated by tabs.
const PYTHON: &str = r#"
import sys
import chess.pgn
with open(sys.argv[1], encoding="utf-8-sig") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        moves = " ".join(m.uci() for m in game.mainline_moves())
        print(f"{len(game.errors)}\t{game.end().board().fen()}\t{moves}")
"#;

/// python-chess's reading of `path`, or `None` (with a message) when python-chess is not available.
fn python_chess(path: &Path) -> Option<Vec<Reference>> {
    let out = match Command::new("python3").arg("-c").arg(PYTHON).arg(path).output() {
        Ok(o) if o.status.success() => o,
        Ok(o) => {
            eprintln!("  python-chess failed on {}: {}", path.display(), String::from_utf8_lossy(&o.stderr));
            return None;
        }
        Err(e) => {
            eprintln!("  no python3 ({e}): not comparing with python-chess");
            return None;
        }
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let games = text
        .lines()
        .map(|l| {
            let mut fields = l.split('\t');
            let errors = fields.next().and_then(|e| e.parse().ok()).expect("error count");
            let fen = fields.next().expect("fen").to_string();
            let uci = fields.next().unwrap_or("").split_whitespace().map(str::to_string).collect();
            Reference { uci, fen, errors }
        })
        .collect();
    Some(games)
}

/// Whether a syntax error is one we refuse on purpose.
fn unsupported(e: &PgnError) -> bool {
    matches!(e.kind(), ErrorKind::CrazyhouseDrop(_))
}

fn same_tree(a: &Game, b: &Game) -> bool {
    let (mut a, mut b) = (a.clone(), b.clone());
    normalize_comments(&mut a);
    normalize_comments(&mut b);
    a.moves == b.moves && a.result == b.result && a.tags.iter().all(|t| b.tags.contains(t))
}

fn read_back(g: &Game) -> Result<Game, String> {
    match Reader::new(g.to_pgn().as_bytes()).read_owned_game() {
        Ok(Some(back)) => Ok(back),
        Ok(None) => Err("nothing read back".into()),
        Err(e) => Err(format!("written game does not read back: {e}")),
    }
}

#[derive(Debug, Default)]
struct Tally {
    games: usize,
    read: usize,
    replayed: usize,
    agree: usize,
    nulls: usize,
    refused: Vec<String>,
    failures: Vec<String>,
}

fn check_file(path: &Path, tally: &mut Tally) {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let bytes = std::fs::read(path).expect("readable file");
    let reference = python_chess(path);
    let mut reader = Reader::new(bytes.as_slice());
    let mut replayer_input = Reader::new(bytes.as_slice());
    let mut replayer = Replayer::with_null_moves();
    let (mut games, mut read, mut agree) = (0, 0, 0);
    loop {
        let game = reader.read_owned_game();
        let replayed = replayer_input.read_game(&mut replayer);
        let game = match game {
            Ok(None) => break,
            Ok(Some(g)) => g,
            Err(e) if unsupported(&e) => {
                games += 1;
                tally.refused.push(format!("{name}: {e}"));
                continue;
            }
            Err(e) => {
                games += 1;
                tally.failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        games += 1;
        let n = games;
        let fail = |tally: &mut Tally, what: String| tally.failures.push(format!("{name}, game {n}: {what}"));
        // Syntactic round trip.
        match read_back(&game) {
            Ok(back) if same_tree(&game, &back) => {}
            Ok(_) => fail(tally, "the written game reads back as a different tree".into()),
            Err(e) => fail(tally, e),
        }
        // The rules' view: every line replayed and rewritten, then written and read back.
        let mut normalized = game.clone();
        let (_, plies, errors) = normalize(&mut normalized);
        if let Some(e) = errors.first() {
            if e.message.contains("not standard chess") {
                tally.refused.push(format!("{name}, game {n}: {e}"));
            } else {
                fail(tally, format!("replay: {e}"));
            }
            continue;
        }
        read += 1;
        tally.nulls += plies.iter().filter(|p| p.is_null()).count();
        match read_back(&normalized) {
            Ok(mut back) => {
                let (_, again, errors) = normalize(&mut back);
                if !errors.is_empty() || again != plies || !same_tree(&normalized, &back) {
                    fail(tally, format!("the normalized game does not round-trip: {errors:?}"));
                }
            }
            Err(e) => fail(tally, e),
        }
        // The main-line replayer agrees with normalize, and python-chess with both.
        let Ok(Some(r)) = replayed else {
            fail(tally, "the replayer did not read the game".into());
            continue;
        };
        if !r.errors.is_empty() || r.plies != plies {
            fail(tally, format!("the replayer differs from normalize: {:?}", r.errors));
            continue;
        }
        tally.replayed += 1;
        let mut pos = r.start.clone();
        let uci: Vec<String> = r
            .plies
            .iter()
            .map(|p| {
                let u = p.uci(&pos);
                p.play(&mut pos);
                u
            })
            .collect();
        if let Some(reference) = &reference {
            match reference.get(n - 1) {
                Some(py) if py.errors == 0 && py.uci == uci && py.fen == pos.fen() => agree += 1,
                Some(py) if py.errors > 0 => eprintln!("  {name}, game {n}: python-chess has {} errors", py.errors),
                Some(py) => fail(
                    tally,
                    format!("differs from python-chess: ours {uci:?} {}, theirs {:?} {}", pos.fen(), py.uci, py.fen),
                ),
                None => fail(tally, "python-chess read fewer games".into()),
            }
        }
    }
    if let Some(reference) = &reference
        && reference.len() != games
    {
        tally.failures.push(format!("{name}: {games} games here, {} for python-chess", reference.len()));
    }
    eprintln!("  {name}: {games} games, {read} replayed and round-tripped, {agree} agree with python-chess");
    tally.games += games;
    tally.read += read;
    tally.agree += agree;
}

#[test]
fn python_chess_test_files_read_round_trip_and_agree() {
    let Some(dir) = std::env::var_os("GUOXIANG_PYCHESS_PGN").map(PathBuf::from) else {
        eprintln!("skipping: set GUOXIANG_PYCHESS_PGN to a folder with python-chess's data/pgn files");
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .pgn files in {}", dir.display());
    let mut tally = Tally::default();
    for f in &files {
        check_file(f, &mut tally);
    }
    eprintln!(
        "{} files, {} games: {} replayed and round-tripped ({} null moves), {} agree with python-chess",
        files.len(),
        tally.games,
        tally.read,
        tally.nulls,
        tally.agree
    );
    for r in &tally.refused {
        eprintln!("  refused on purpose: {r}");
    }
    for f in &tally.failures {
        eprintln!("  FAILED: {f}");
    }
    assert!(tally.failures.is_empty(), "{} failures", tally.failures.len());
    assert_eq!(tally.replayed, tally.read);
}
