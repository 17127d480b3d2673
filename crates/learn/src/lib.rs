//! guoxiang-learn: 学棋 / Learn, the beginner course — its file format (docs/learn.md), the checker that proves every
//! step with the rules core, and the judge of a learner's tries that the server runs.
//!
//! | module | what lives there |
//! |---|---|
//! | `model` | the typed course ([`Course`], [`Chapter`], [`Lesson`], [`Step`]) and reading TOML files into it |
//! | `check` | what the checker proves: legal positions, solutions that complete their step, wrong tries rejected with their stated reason, `verify`/`answer` true of the position, reachable `play` goals, topic coverage |
//! | `claims` | text proofs: what `success` and `wrong.why` texts say (mate, stalemate, check, winning or taking a piece, negated or not) is true in the positions they speak about |
//! | `judge` | [`judge`]: one try → a [`Verdict`] (stateless; the checker validates the course through it) |
//! | `json` | the lesson JSON of `guoxiang learn --json` and `GET /api/learn` |
//! | `mate` | the proof of `mate_in`: the first move forces mate against every defence |
//! | `stats` | the share of `choice` steps and the place of the first `play` step |
//! | `study` | studies (研究): chapters of annotated move trees with shapes and interactive steps; lessons and PGN in and out |
//! | `safety` | a static exchange evaluation: which pieces can be won (goal `safe`), who guards a square (`guarded` stars) |
//!
//! The only I/O is reading course files ([`read_dir`]); [`Course::embedded`] is the `course/` directory compiled
//! into the binary.

pub mod check;
pub mod claims;
pub mod json;
pub mod judge;
pub mod mate;
pub mod model;
pub mod safety;
pub mod stats;
pub mod study;

use std::fmt;
use std::path::Path;

pub use judge::{JudgeError, MAX_TRY_LEN, Reason, Try, Verdict, judge, judge_step};
pub use model::{
    CastleSide, Chapter, Course, Goal, Lesson, PlayGoal, PromoteRole, Side, Step, StepKind, TOPICS, Text, Verify,
    WrongMoves, WrongSquare,
};
pub use stats::{ChapterStats, Stats};
pub use study::{Brush, Note, Shape, Study, StudyChapter, StudyError};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// Which rule an error breaks: one of a file's (syntax, fields, ids, rules of chess), or the course's as a whole
/// (every topic has a lesson), which a course in progress may break for a while.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    File,
    Coverage,
}

/// One problem found by the checker, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    pub kind: ErrorKind,
    /// The file name (`01-pieces.toml`); empty for course-level errors.
    pub file: String,
    pub lesson: Option<String>,
    /// The step, counted from 0 (messages count from 1).
    pub step: Option<usize>,
    pub message: String,
}

impl CheckError {
    pub(crate) fn file(
        file: &str,
        lesson: Option<String>,
        step: Option<usize>,
        message: impl Into<String>,
    ) -> CheckError {
        CheckError { kind: ErrorKind::File, file: file.to_owned(), lesson, step, message: message.into() }
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.file.is_empty() {
            f.write_str("course")?;
        } else {
            f.write_str(&self.file)?;
        }
        if let Some(l) = &self.lesson {
            write!(f, ": lesson {l}")?;
        }
        if let Some(s) = self.step {
            write!(f, ": step {}", s + 1)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for CheckError {}

/// Why [`Course::load_dir`] failed.
#[derive(Debug)]
pub enum LoadError {
    /// The directory or a file in it could not be read.
    Io(String),
    /// The files do not make a valid course (load and rules errors, not coverage).
    Invalid(Vec<CheckError>),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => f.write_str(e),
            LoadError::Invalid(errors) => {
                write!(f, "{} errors in the course", errors.len())?;
                for e in errors {
                    write!(f, "\n{e}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// The `*.toml` files of a directory as (file name, contents), in file-name order.
pub fn read_dir(dir: &Path) -> Result<Vec<(String, String)>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for e in entries {
        let e = e.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        if !name.ends_with(".toml") || !path.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        files.push((name, text));
    }
    files.sort();
    Ok(files)
}

/// The result of checking course files: the course made of what could be read, and every problem.
#[derive(Clone, Debug)]
pub struct Report {
    pub course: Course,
    pub errors: Vec<CheckError>,
}

impl Report {
    /// The errors of the files (everything but coverage).
    pub fn file_errors(&self) -> impl Iterator<Item = &CheckError> {
        self.errors.iter().filter(|e| e.kind == ErrorKind::File)
    }

    /// The course-level coverage errors (a topic without a lesson).
    pub fn coverage_errors(&self) -> impl Iterator<Item = &CheckError> {
        self.errors.iter().filter(|e| e.kind == ErrorKind::Coverage)
    }
}

/// Reads and checks course files: everything docs/learn.md "What the checker proves" says. Never panics.
pub fn check_files(files: Vec<(String, String)>) -> Report {
    let (course, mut errors) = Course::parse(files);
    errors.extend(check::check(&course));
    Report { course, errors }
}

impl Course {
    /// Reads files into a course, keeping every chapter and lesson that could be read, with the errors of the rest
    /// (syntax, missing or misplaced fields, bad names). Chapters are in file-name order.
    pub fn parse(mut files: Vec<(String, String)>) -> (Course, Vec<CheckError>) {
        files.sort();
        let mut errors = Vec::new();
        let mut chapters: Vec<Chapter> = Vec::new();
        for (name, text) in &files {
            if let Some(c) = model::parse_file(name, text, &mut errors) {
                if let Some(other) = chapters.iter().find(|o| o.order == c.order) {
                    errors.push(CheckError::file(
                        name,
                        None,
                        None,
                        format!("chapter number {:02} is also {}", c.order, other.file),
                    ));
                }
                chapters.push(c);
            }
        }
        (Course { chapters }, errors)
    }

    /// Reads files into a course; any load or rules error (not coverage) is an error.
    pub fn from_files(files: Vec<(String, String)>) -> Result<Course, Vec<CheckError>> {
        let report = check_files(files);
        let errors: Vec<CheckError> = report.file_errors().cloned().collect();
        if errors.is_empty() { Ok(report.course) } else { Err(errors) }
    }

    /// Reads the `*.toml` files of a directory ([`Course::from_files`]).
    pub fn load_dir(dir: &Path) -> Result<Course, LoadError> {
        let files = read_dir(dir).map_err(LoadError::Io)?;
        Course::from_files(files).map_err(LoadError::Invalid)
    }

    /// The course compiled into the binary (`course/` at build time), with its problems: what can be read is
    /// kept, so a server still serves the rest of a course with a broken lesson.
    pub fn embedded() -> Report {
        check_files(embedded::EMBEDDED.iter().map(|(n, t)| ((*n).to_owned(), (*t).to_owned())).collect())
    }

    /// The lesson with this id.
    pub fn lesson(&self, id: &str) -> Option<&Lesson> {
        self.lessons().map(|(_, l)| l).find(|l| l.id == id)
    }

    /// Every lesson in course order, with its chapter.
    pub fn lessons(&self) -> impl Iterator<Item = (&Chapter, &Lesson)> {
        self.chapters.iter().flat_map(|c| c.lessons.iter().map(move |l| (c, l)))
    }

    /// How many steps the course has.
    pub fn step_count(&self) -> usize {
        self.lessons().map(|(_, l)| l.steps.len()).sum()
    }
}
