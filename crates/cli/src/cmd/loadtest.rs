//! `guoxiang loadtest`: against a running server, either N concurrent games over the WebSocket protocol (moves/s
//! and the move round-trip percentiles; the default), or a class of students (`--scenario class`: lessons,
//! puzzles, games against the computer and their reviews; percentiles per kind of request and the time from a
//! game's end to its review).

use std::process::ExitCode;
use std::time::Duration;

/// What the load test simulates.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// Concurrent games between guests.
    Games,
    /// A teacher and a class of students (issue 43).
    Class,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to simulate.
    #[arg(long, value_enum, default_value_t = Scenario::Games)]
    scenario: Scenario,
    /// The server; repeat it for the nodes of a cluster (`guoxiang serve --broker`): the players' connections go
    /// round-robin over the nodes, the two players of a game on two different ones, and the report adds how many
    /// requests crossed nodes. The class scenario uses the first.
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
    /// Class: students in the class (one teacher signup, the students' accounts made by the class).
    #[arg(long, default_value_t = 30)]
    students: usize,
    /// Class: lesson steps each student completes.
    #[arg(long, default_value_t = 10)]
    lesson_steps: usize,
    /// Class: puzzles each student solves.
    #[arg(long, default_value_t = 3)]
    puzzles: usize,
    /// Class: games against the computer (level 1–3) each student plays to the end.
    #[arg(long, default_value_t = 1)]
    computer_games: usize,
    /// Class: think times (2–8 s between moves and tries) are multiplied by this.
    #[arg(long, default_value_t = 1.0)]
    think_scale: f64,
    /// Class: the seed of the students' random choices.
    #[arg(long, default_value_t = 43)]
    seed: u64,
    /// Class: seconds after a game's end before its review counts as not ready.
    #[arg(long, default_value_t = 300)]
    review_timeout: u64,
    /// Class: print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    use std::io::IsTerminal;
    let base_url = a.url.first().map_or("http://127.0.0.1:8080", |u| u.trim_end_matches('/')).to_owned();
    if a.scenario == Scenario::Class {
        return run_class(a, base_url);
    }
    let opts = guoxiang_loadtest::Options {
        base_url,
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

fn run_class(a: Args, base_url: String) -> Result<ExitCode, String> {
    use std::io::IsTerminal;
    let opts = guoxiang_loadtest::ClassOptions {
        base_url,
        students: a.students,
        lesson_steps: a.lesson_steps,
        puzzles: a.puzzles,
        games: a.computer_games,
        think_scale: a.think_scale,
        seed: a.seed,
        review_timeout: Duration::from_secs(a.review_timeout.max(1)),
        progress: std::io::stderr().is_terminal(),
    };
    let report = super::serve::runtime()?.block_on(guoxiang_loadtest::run_class(opts)).map_err(|e| e.to_string())?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report.to_json()).map_err(|e| e.to_string())?);
    } else {
        println!("{report}");
    }
    let ok = report.errors == 0 && report.reviews_not_ready == 0;
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
