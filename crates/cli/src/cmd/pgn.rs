//! `guoxiang pgn FILE|- [--json]` (being written).

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// PGN file, or `-` for standard input.
    file: String,
    /// One JSON object per game instead of PGN.
    #[arg(long)]
    json: bool,
}

pub fn run(_a: Args) -> Result<ExitCode, String> {
    Err("not yet".into())
}
