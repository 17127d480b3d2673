// SPDX-License-Identifier: GPL-3.0-or-later
//! `guoxiang tournament`: tournaments (docs/tournament.md).
//!
//! - `berger N [--double] [--json]`: FIDE's Berger table for N players (odd N: the number N+1 is the bye). With
//!   `--json`, one line: a list of rounds, each a list of `[white, black]`.
//! - `standings FILE.trf [--json]`: every player's start number, name, rating, score, rank and the FIDE tie-breaks
//!   (BH, BH-C1, BH-M1, SB, DE, WIN, WON, BPG, BWG, PS, ARO), ranked by score and `guoxiang_tournament::standings::
//!   DEFAULT_ORDER`. A bad file is reported with its line and column (exit code 2).
//! - `pair FILE.trf [--json]`: the next round's pairings by the FIDE (Dutch) System, printed as bbpPairings and
//!   JaVaFo print them: the number of pairs, then `white black` per board by start number, the bye as `N 0`.
//!   With `--json`: `{"boards":[{"white":w,"black":b},...],"bye":n|null}`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use guoxiang_tournament::standings::{self, DEFAULT_ORDER, TieBreak};
use guoxiang_tournament::{berger, dutch, trf};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: TournamentCommand,
}

#[derive(clap::Subcommand)]
enum TournamentCommand {
    /// Print FIDE's Berger table (round-robin pairings) for N players.
    Berger {
        /// The number of players (2 to 1000); for an odd number, N+1 stands for the bye.
        players: u32,
        /// A double round-robin (second cycle with colours reversed).
        #[arg(long)]
        double: bool,
        /// JSON: a list of rounds, each a list of [white, black].
        #[arg(long)]
        json: bool,
    },
    /// Scores and FIDE tie-breaks of a tournament from a TRF-16 file.
    Standings {
        file: PathBuf,
        /// JSON: one object per player, in rank order.
        #[arg(long)]
        json: bool,
    },
    /// Pair the next round by the FIDE (Dutch) System from a TRF-16 file (with XXR, the number of rounds).
    Pair {
        file: PathBuf,
        /// JSON: {"boards":[{"white":w,"black":b},...],"bye":n or null}.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    // Written through one handle whose errors are returned (a reader gone away, as with `| head`, is not a panic).
    let mut out = std::io::stdout().lock();
    let mut put = |line: &str| writeln!(out, "{line}").map_err(|e| e.to_string());
    match a.command {
        TournamentCommand::Berger { players, double, json } => {
            let table = if double { berger::double(players) } else { berger::single(players) };
            let table = table.map_err(|e| e.to_string())?;
            if json {
                let rounds: Vec<Vec<[u32; 2]>> =
                    table.iter().map(|r| r.iter().map(|&(w, b)| [w, b]).collect()).collect();
                put(&serde_json::to_string(&rounds).map_err(|e| e.to_string())?)?;
            } else {
                let bye = if players % 2 == 1 { format!(" ({} = bye)", players + 1) } else { String::new() };
                put(&format!("Berger table, {players} players{bye}"))?;
                for (k, round) in table.iter().enumerate() {
                    let boards: Vec<String> = round.iter().map(|(w, b)| format!("{w:>3}-{b:<3}")).collect();
                    put(&format!("Round {:>3}: {}", k + 1, boards.join(" ")))?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Pair { file, json } => {
            let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let t = trf::parse(&text).map_err(|e| format!("{}: {e}", file.display()))?;
            let input = dutch::input_from_trf(&t).map_err(|e| format!("{}: {e}", file.display()))?;
            let pairing = dutch::pair(&input).map_err(|e| format!("{}: {e}", file.display()))?;
            if json {
                put(&serde_json::to_string(&pairing).map_err(|e| e.to_string())?)?;
            } else {
                put(&(pairing.boards.len() + pairing.bye.is_some() as usize).to_string())?;
                for b in &pairing.boards {
                    put(&format!("{} {}", b.white, b.black))?;
                }
                if let Some(p) = pairing.bye {
                    put(&format!("{p} 0"))?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Standings { file, json } => {
            let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let t = trf::parse(&text).map_err(|e| format!("{}: {e}", file.display()))?;
            let rows = standings::compute(&t, &DEFAULT_ORDER);
            if json {
                put(&serde_json::to_string(&rows).map_err(|e| e.to_string())?)?;
            } else {
                let mut head = format!("{:>4} {:>4} {:<24} {:>6} {:>5}", "Rank", "No", "Name", "Rating", "Pts");
                for tb in TieBreak::ALL {
                    head.push_str(&format!(" {:>6}", tb.abbreviation()));
                }
                put(&head)?;
                for r in &rows {
                    let name: String = r.name.chars().take(24).collect();
                    let rating = r.rating.map(|x| x.to_string()).unwrap_or_default();
                    let mut line =
                        format!("{:>4} {:>4} {:<24} {:>6} {:>5}", r.rank, r.start_number, name, rating, r.score);
                    for tb in TieBreak::ALL {
                        let v = match tb {
                            TieBreak::Aro => r.tie_breaks.aro.map(|x| x.to_string()).unwrap_or_else(|| "-".into()),
                            _ => standings::value(&r.tie_breaks, tb).to_string(),
                        };
                        line.push_str(&format!(" {v:>6}"));
                    }
                    put(&line)?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
