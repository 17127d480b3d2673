//! `guoxiang`: the one program. Subcommands are thin front ends over the library crates; each lives in `cmd/`.
//!
//! Exit codes: 0 success, 1 a negative answer or failed check (an illegal move, a failing perft suite, a PGN with
//! errors), 2 bad input or usage.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd;
mod input;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "guoxiang",
    version,
    about = "guoxiang (国象): a chess server and tools under the FIDE Laws — with no command, `serve`"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree (move-generator check), or run a perft suite.
    Perft(cmd::perft::Args),
    /// Describe a position: legal moves, check, game status, claims, whether each side can still mate.
    Position(cmd::position::Args),
    /// Read PGN games, replay them under the rules, and re-render them in export format (or JSON).
    Pgn(cmd::pgn::Args),
    /// Say whether a move is legal in a position and, if not, why (in Chinese or English).
    Explain(cmd::explain::Args),
    /// The 学棋 / Learn course: list its lessons, print them as JSON (`--json`), or check course files (`check DIR`).
    Learn(cmd::learn::Args),
    /// 战术训练 / tactics: tag, check, generate and import puzzles in the lichess CSV format.
    Puzzles(cmd::puzzles::Args),
    /// 开局库 / the opening explorer's databases: import a PGN file's games (`games import FILE.pgn`).
    Games(cmd::games::Args),
    /// 复盘 / game review: every move of the games of a PGN file judged by the engine, mistakes explained.
    Review(cmd::review::Args),
    /// Speak the Universal Chess Interface on standard input/output (for chess GUIs).
    Uci(cmd::uci::Args),
    /// Search a fixed set of positions to a fixed depth; the last line is `N nodes M nps`.
    Bench(cmd::bench::Args),
    /// 比赛 / tournaments: FIDE Berger tables (`tournament berger N`), standings of a TRF file (`standings FILE.trf`).
    Tournament(cmd::tournament::Args),
    /// Run the game server (the default when no command is given): http://127.0.0.1:8080 with a SQLite file.
    Serve(Box<cmd::serve::Args>),
    /// Manage accounts (`user add NAME [--password P] [--admin]`, `user password NAME [--password P]`, `user admin
    /// NAME [--revoke]`).
    #[command(subcommand)]
    User(cmd::user::UserCommand),
    /// Manage personal API tokens (`token create NAME`).
    #[command(subcommand)]
    Token(cmd::user::TokenCommand),
    /// 课堂 / classes for hosts: `class create OWNER NAME`, `class add-students ID N`, `class list` (`--json`).
    #[command(subcommand)]
    Class(cmd::class::ClassCommand),
    /// Load a running server: many concurrent games (move latency), or a class of students (`--scenario class`).
    Loadtest(cmd::loadtest::Args),
    /// Several `serve --cluster` nodes on one database: `cluster status` lists the nodes and the games each owns.
    #[command(subcommand)]
    Cluster(cmd::cluster::ClusterCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(a)) => cmd::perft::run(a),
        Some(Command::Position(a)) => cmd::position::run(a),
        Some(Command::Pgn(a)) => cmd::pgn::run(a),
        Some(Command::Explain(a)) => cmd::explain::run(a),
        Some(Command::Learn(a)) => cmd::learn::run(a),
        Some(Command::Puzzles(a)) => cmd::puzzles::run(a),
        Some(Command::Games(a)) => cmd::games::run(a),
        Some(Command::Review(a)) => cmd::review::run(a),
        Some(Command::Uci(a)) => cmd::uci::run(a),
        Some(Command::Bench(a)) => cmd::bench::run(a),
        Some(Command::Tournament(a)) => cmd::tournament::run(a),
        Some(Command::Serve(a)) => cmd::serve::run(*a),
        Some(Command::User(c)) => cmd::user::run_user(c),
        Some(Command::Token(c)) => cmd::user::run_token(c),
        Some(Command::Class(c)) => cmd::class::run(c),
        Some(Command::Loadtest(a)) => cmd::loadtest::run(a),
        Some(Command::Cluster(c)) => cmd::cluster::run(c),
        None => cmd::serve::run(cmd::serve::Args::default()),
    };
    match result {
        Ok(code) => code,
        // A reader that went away (`guoxiang pgn … | head`) is not an error.
        Err(e) if e.contains("Broken pipe") => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("guoxiang: {e}");
            ExitCode::from(2)
        }
    }
}
