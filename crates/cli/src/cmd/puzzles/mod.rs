//! `guoxiang puzzles`: the tactics trainer's tools (docs/puzzles.md). `tag`, `check` and `generate` read and write
//! files only; `import` loads a lichess CSV into the server's database. Every command reads its input as a stream
//! and reports a broken row with its line number, then goes on with the rest of the file.

use std::path::PathBuf;
use std::process::ExitCode;

mod import;
mod tag;
mod tools;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(clap::Subcommand)]
enum PuzzlesCommand {
    /// Name the motifs of every puzzle of a lichess CSV with our tagger (never reading its Themes column).
    Tag {
        file: PathBuf,
        /// One JSON object per row: `id`, `motifs`, `lichess_themes` (and `error` with `line` for a broken row).
        #[arg(long)]
        json: bool,
    },
    /// Check that every solver move of every puzzle is the only one that keeps the win, with our engine.
    Check {
        file: PathBuf,
        /// One JSON object per row: `id`, `sound`, `reason`.
        #[arg(long)]
        json: bool,
        /// The engine's node budget per solver move.
        #[arg(long, default_value_t = guoxiang_tactics::check::DEFAULT_NODES)]
        nodes: u64,
    },
    /// Find puzzles in the games of a PGN file: positions after a mistake where a sound tactical line exists.
    Generate {
        file: PathBuf,
        /// JSON lines with the CSV's fields instead of lichess CSV.
        #[arg(long)]
        json: bool,
        /// The engine's node budget per position of a solution line (every position of a game first gets a cheap
        /// scan of `generate::SCAN_NODES` nodes).
        #[arg(long, default_value_t = guoxiang_tactics::generate::DEFAULT_NODES)]
        nodes: u64,
    },
    /// Load a lichess CSV of puzzles into the database (streaming, idempotent: importing again changes nothing).
    Import {
        file: PathBuf,
        /// The server's database, as for `guoxiang serve`.
        #[arg(long, env = "GUOXIANG_DATABASE", default_value = "sqlite://guoxiang.db")]
        database: String,
    },
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    match a.command {
        PuzzlesCommand::Tag { file, json } => tag::run(&file, json),
        PuzzlesCommand::Check { file, json, nodes } => tools::check(&file, json, nodes),
        PuzzlesCommand::Generate { file, json, nodes } => tools::generate(&file, json, nodes),
        PuzzlesCommand::Import { file, database } => import::run(&file, &database),
    }
}
