//! `guoxiang loadtest`: N concurrent games against a running server over the WebSocket protocol; prints moves/s and
//! the move round-trip latency percentiles.

use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The server; repeat it for the nodes of a cluster (`guoxiang serve --broker`): the players' connections go
    /// round-robin over the nodes, the two players of a game on two different ones, and the report adds how many
    /// requests crossed nodes.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: Vec<String>,
    /// Concurrent games (two connections each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Seconds between two moves of one game.
    #[arg(long, default_value_t = 1.0)]
    move_interval: f64,
    /// Seconds to measure, after all games are live.
    #[arg(long, default_value_t = 60)]
    duration: u64,
    /// Time control of the games (PGN tag).
    #[arg(long, default_value = "1800+0")]
    time_control: String,
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    use std::io::IsTerminal;
    let opts = guoxiang_loadtest::Options {
        base_url: a.url.first().map_or("http://127.0.0.1:8080", |u| u.trim_end_matches('/')).to_owned(),
        more_urls: a.url.iter().skip(1).map(|u| u.trim_end_matches('/').to_owned()).collect(),
        games: a.games,
        move_interval: Duration::from_secs_f64(a.move_interval.max(0.01)),
        duration: Duration::from_secs(a.duration),
        time_control: a.time_control,
        progress: std::io::stderr().is_terminal(),
    };
    let report = super::serve::runtime()?.block_on(guoxiang_loadtest::run(opts)).map_err(|e| e.to_string())?;
    println!("{report}");
    Ok(if report.errors == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
