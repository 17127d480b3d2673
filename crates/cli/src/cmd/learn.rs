//! `guoxiang learn`: the 学棋 / Learn course. Alone: the lesson list of the course compiled in; `--json`: one JSON
//! object per lesson (docs/learn.md "Interfaces"); `--stats`: the course's figures as one JSON object; `check DIR`:
//! every problem of the course files in DIR, one per line with file, lesson and step, then the share of `choice`
//! steps and the place of the first `play` step, then the summary (exit 1 if any, 2 if DIR cannot be read).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use guoxiang_learn::Course;

#[derive(clap::Args)]
pub struct Args {
    /// One JSON object per lesson of the built-in course, one per line.
    #[arg(long, conflicts_with = "stats")]
    json: bool,
    /// The built-in course's figures as one JSON object: lessons, steps, choice steps and their share, the first
    /// play step and its place, each chapter's size.
    #[arg(long)]
    stats: bool,
    #[command(subcommand)]
    command: Option<LearnCommand>,
}

#[derive(clap::Subcommand)]
enum LearnCommand {
    /// Check the course files (`NN-<chapter>.toml`) of a directory.
    Check {
        /// The directory, e.g. `course/`.
        dir: PathBuf,
        /// Leave out the course-level rule that every topic has a lesson (for a course being written).
        #[arg(long)]
        skip_coverage: bool,
    },
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    match a.command {
        Some(LearnCommand::Check { dir, skip_coverage }) => check(&dir, skip_coverage),
        None if a.stats => stats(),
        None => list(a.json),
    }
}

fn check(dir: &std::path::Path, skip_coverage: bool) -> Result<ExitCode, String> {
    let files = guoxiang_learn::read_dir(dir)?;
    if files.is_empty() {
        return Err(format!("{}: no *.toml course files", dir.display()));
    }
    let report = guoxiang_learn::check_files(files);
    let errors: Vec<_> =
        report.errors.iter().filter(|e| !skip_coverage || e.kind == guoxiang_learn::ErrorKind::File).collect();
    let mut out = std::io::stdout().lock();
    for e in &errors {
        writeln!(out, "{e}").map_err(|e| e.to_string())?;
    }
    let c = &report.course;
    writeln!(out, "{}", guoxiang_learn::Stats::of(c).line()).map_err(|e| e.to_string())?;
    // What the texts claim (mate, stalemate, check, winning a piece) and the rules core proved (docs/learn.md).
    writeln!(out, "texts: {} claims proven", guoxiang_learn::claims::proven_claims(c)).map_err(|e| e.to_string())?;
    let summary = format!("{} chapters, {} lessons, {} steps", c.chapters.len(), c.lessons().count(), c.step_count());
    if errors.is_empty() {
        writeln!(out, "{summary}: ok").map_err(|e| e.to_string())?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(out, "{summary}: {} errors", errors.len()).map_err(|e| e.to_string())?;
        Ok(ExitCode::from(1))
    }
}

fn stats() -> Result<ExitCode, String> {
    let report = Course::embedded();
    for e in report.file_errors() {
        eprintln!("guoxiang: built-in course: {e}");
    }
    let s = serde_json::to_string(&guoxiang_learn::Stats::of(&report.course)).map_err(|e| e.to_string())?;
    writeln!(std::io::stdout().lock(), "{s}").map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

fn list(json: bool) -> Result<ExitCode, String> {
    let report = Course::embedded();
    for e in report.file_errors() {
        eprintln!("guoxiang: built-in course: {e}");
    }
    let mut out = std::io::stdout().lock();
    if json {
        for l in guoxiang_learn::json::lessons_json(&report.course) {
            writeln!(out, "{l}").map_err(|e| e.to_string())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    for c in &report.course.chapters {
        writeln!(out, "{:02} {} — {} / {}", c.order, c.id, c.title.zh, c.title.en).map_err(|e| e.to_string())?;
        for l in &c.lessons {
            writeln!(out, "   {:<24} {} / {} ({} steps)", l.id, l.title.zh, l.title.en, l.steps.len())
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
