//! `guoxiang pgn FILE|- [--json]`: read every game, replay it under the rules, and write it back in PGN export
//! format (SAN made canonical, seven-tag roster first, 80-column lines) or as one JSON object per game.
//!
//! A bad game is reported on standard error with its game number, line and column (in characters), and reading goes
//! on with the next one; the exit code is then 1.
//!
//! Moves are read leniently (see `guoxiang_pgn::replay`): SAN, else UCI (`e2e4`, `e7e8q`, `e1g1`); null moves (`--`,
//! `Z0`, `0000`, `@@@@`) are kept, in the main line and in variations, and written back as `--`. A null move while
//! in check is an error.
//!
//! # `--json`
//!
//! One object per game, on one line:
//!
//! | field | value |
//! |---|---|
//! | `game` | 1-based number of the game in the input |
//! | `tags` | the tag pairs, as an object (a later duplicate wins) |
//! | `moves` | the main line up to the first error: `{"uci": "e2e4", "san": "e4"}` per half-move; a null move is `{"uci": "0000", "san": "--", "null": true}` (only null moves have `null`) |
//! | `final_fen` | the position after the last move read (`null` for a game with a syntax error) |
//! | `result` | the result token, `null` if none |
//! | `outcome` | the rules' own verdict, the first automatic ending (`result`, `termination`, `winner`, `ply`, `message_en`, `message_zh`), or `null`; after a null move the game is judged afresh from the position it left (repetitions before it do not count) |
//! | `claimable` | draw claims open at the end (`threefold_repetition`, `fifty_moves`), same proviso |
//! | `errors` | messages, `game N, line L, column C: …` |

use crate::input::Counted;
use guoxiang_core::{ClaimKind, GameState, Lang, Outcome};
use guoxiang_pgn::{GameResult, Ply, Reader, Replayer, normalize, write_game};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Map, Value, json};
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// PGN file, or `-` for standard input.
    file: String,
    /// One JSON object per game (main line): tags, moves {uci, san, and null: true for a null move}, final_fen,
    /// result, outcome (the rules' verdict), claimable, errors.
    #[arg(long)]
    json: bool,
}

fn claim_code(c: ClaimKind) -> &'static str {
    match c {
        ClaimKind::ThreefoldRepetition => "threefold_repetition",
        ClaimKind::FiftyMoves => "fifty_moves",
    }
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    let (input, len): (Box<dyn Read>, Option<u64>) = if a.file == "-" {
        (Box::new(io::stdin().lock()), None)
    } else {
        let f = File::open(&a.file).map_err(|e| format!("{}: {e}", a.file))?;
        let len = f.metadata().ok().map(|m| m.len());
        (Box::new(f), len)
    };
    // indicatif draws only when standard error is a terminal.
    let bar = match len {
        Some(n) => ProgressBar::new(n).with_style(
            ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::new_spinner(),
    };
    let mut reader = Reader::new(Counted::new(input, bar.clone()));
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut games = 0u64;
    let mut bad = 0u64;
    let report = |bar: &ProgressBar, msg: String| bar.suspend(|| eprintln!("{msg}"));

    if a.json {
        let mut replayer = Replayer::with_null_moves();
        loop {
            match reader.read_game(&mut replayer) {
                Ok(None) => break,
                Ok(Some(g)) => {
                    games += 1;
                    let mut tags = Map::new();
                    for (k, v) in &g.tags {
                        tags.insert(k.clone(), Value::String(v.clone()));
                    }
                    let mut pos = g.start.clone();
                    let mut moves = Vec::with_capacity(g.plies.len());
                    // The rules' own verdict: the first automatic ending (mate, stalemate, dead position, fivefold,
                    // 75 moves) and the claims open at the end. Under Article 9.6 a game is over at once, so a
                    // verdict before the last move means the record went on past the end. A null move is no move
                    // of the game: the verdict starts afresh from the position it leaves.
                    let mut state = GameState::from_position(g.start.clone());
                    let mut ended: Option<(usize, Outcome)> = None;
                    for (i, &p) in g.plies.iter().enumerate() {
                        match p {
                            Ply::Move(m) => {
                                moves.push(json!({ "uci": p.uci(&pos), "san": p.san(&pos) }));
                                pos.play_unchecked(m);
                                if ended.is_none()
                                    && let Ok(Some(o)) = state.play(m)
                                {
                                    ended = Some((i + 1, o));
                                }
                            }
                            Ply::Null => {
                                moves.push(json!({ "uci": p.uci(&pos), "san": p.san(&pos), "null": true }));
                                pos.play_null();
                                if ended.is_none() {
                                    state = GameState::from_position(pos.clone());
                                    ended = state.outcome().map(|o| (i + 1, o));
                                }
                            }
                        }
                    }
                    let outcome = ended.map(|(ply, o)| {
                        json!({
                            "result": o.result(),
                            "termination": o.termination.code(),
                            "winner": o.winner.map(|c| c.name()),
                            "ply": ply,
                            "message_en": o.message(Lang::En),
                            "message_zh": o.message(Lang::Zh),
                        })
                    });
                    let claimable: Vec<&str> = if ended.is_some() {
                        Vec::new()
                    } else {
                        state.claimable().iter().map(|c| claim_code(*c)).collect()
                    };
                    let errors: Vec<String> =
                        g.errors.iter().map(|e| format!("game {}, {e}", reader.games_started())).collect();
                    if !errors.is_empty() {
                        bad += 1;
                        for e in &errors {
                            report(&bar, e.clone());
                        }
                    }
                    let v = json!({
                        "game": reader.games_started(),
                        "tags": tags,
                        "moves": moves,
                        "final_fen": g.position.fen(),
                        "result": g.result.map(GameResult::as_str),
                        "outcome": outcome,
                        "claimable": claimable,
                        "errors": errors,
                    });
                    writeln!(out, "{v}").map_err(|e| e.to_string())?;
                }
                Err(e) if e.is_io() => return Err(format!("{}: {e}", a.file)),
                Err(e) => {
                    games += 1;
                    bad += 1;
                    report(&bar, e.to_string());
                    let v = json!({
                        "game": e.game(), "tags": {}, "moves": [], "final_fen": null, "result": null,
                        "errors": [e.to_string()],
                    });
                    writeln!(out, "{v}").map_err(|e| e.to_string())?;
                }
            }
        }
    } else {
        loop {
            match reader.read_owned_game() {
                Ok(None) => break,
                Ok(Some(mut game)) => {
                    games += 1;
                    let (_, _, errors) = normalize(&mut game);
                    if !errors.is_empty() {
                        bad += 1;
                        for e in errors {
                            report(&bar, format!("game {}, {e}", reader.games_started()));
                        }
                    }
                    write_game(&mut out, &game).map_err(|e| e.to_string())?;
                }
                Err(e) if e.is_io() => return Err(format!("{}: {e}", a.file)),
                Err(e) => {
                    games += 1;
                    bad += 1;
                    report(&bar, e.to_string());
                }
            }
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    if bad > 0 {
        eprintln!("{games} games, {bad} with errors");
        Ok(ExitCode::from(1))
    } else {
        Ok(ExitCode::SUCCESS)
    }
}
