//! Studies (研究): a teacher's chapters of annotated positions, and the course's lessons, as one model.
//!
//! A [`Study`] is a title and [`StudyChapter`]s. A chapter is a start position (FEN) and a move tree: the mainline
//! `moves`, each [`Node`] holding a move (SAN), NAGs, a comment, [`Shape`]s (arrows and circled squares, coloured as
//! lichess's `[%cal Gc2c4]` / `[%csl Re4]`), an optional interactive [`Step`] (the course's own kinds, judged by
//! [`crate::judge_step`]) and `variations`: alternatives to that move, each a line of nodes. The chapter's start
//! position has the same annotations (`comment`, `shapes`, `step`).
//!
//! **Paths.** A position in a chapter is a path of numbers: `[]` is the start; `[i]` the position after mainline
//! move `i` (from 0); `[i, v, j]` the position after move `j` of variation `v` of mainline move `i`; and so on
//! (`[i, v, j, w, k]`). A path always has an odd length, or is empty.
//!
//! **Lessons.** [`Study::from_lesson`] makes a chapter of each step (its FEN, the step at the start);
//! [`Study::to_lesson`] collects every step of every chapter in order ([`StudyChapter::steps`]) into one lesson, and
//! [`Study::to_lesson_toml`] writes it as a course file.
//!
//! **PGN.** [`chapters_from_pgn`] reads one chapter per game, keeping comments, NAGs, variations and shapes;
//! [`StudyChapter::to_pgn`] writes one back. Several comments after one move become one text; a comment in both
//! languages is written as two comments (zh, then en); interactive steps are not written to PGN.
//!
//! **JSON.** Every type is serde: this is the `body` of a stored study and the HTTP API's study. A step's JSON has
//! the fields of the course file's `[[lessons.steps]]`. [`Study::validate`] checks a study read from JSON (and
//! rewrites its moves as SAN, so UCI is accepted on the way in).

use std::fmt;

use guoxiang_core::{Position, Square};
use guoxiang_pgn as pgn;
use serde::{Deserialize, Serialize};

use crate::model::{Lesson, Side, Step, TOPICS, Text, lesson_file, valid_id};

/// The most chapters a study may have.
pub const MAX_CHAPTERS: usize = 64;
/// The most moves a study may have, variations included.
pub const MAX_NODES: usize = 10_000;
/// How deep variations may nest.
pub const MAX_DEPTH: usize = 16;
/// The longest title, in characters.
pub const MAX_TITLE: usize = 200;

/// A text: one language, or both (`{"zh": …, "en": …}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Note {
    Both(Text),
    One(String),
}

impl Note {
    /// The text in both languages (a single text twice).
    pub fn text(&self) -> Text {
        match self {
            Note::Both(t) => t.clone(),
            Note::One(s) => Text { zh: s.clone(), en: s.clone() },
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            Note::Both(t) => t.zh.trim().is_empty() && t.en.trim().is_empty(),
            Note::One(s) => s.trim().is_empty(),
        }
    }

    /// The PGN comments it is written as.
    fn comments(&self) -> Vec<String> {
        match self {
            Note::One(s) => vec![s.clone()],
            Note::Both(t) if t.zh == t.en => vec![t.zh.clone()],
            Note::Both(t) => vec![t.zh.clone(), t.en.clone()],
        }
    }
}

/// A shape's colour: lichess's letters G, R, Y, B.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Brush {
    Green,
    Red,
    Yellow,
    Blue,
}

impl Brush {
    pub fn letter(self) -> char {
        match self {
            Brush::Green => 'G',
            Brush::Red => 'R',
            Brush::Yellow => 'Y',
            Brush::Blue => 'B',
        }
    }

    pub fn from_letter(c: char) -> Option<Brush> {
        match c {
            'G' => Some(Brush::Green),
            'R' => Some(Brush::Red),
            'Y' => Some(Brush::Yellow),
            'B' => Some(Brush::Blue),
            _ => None,
        }
    }
}

/// An arrow (`orig` → `dest`) or a circled square (no `dest`). JSON: `{"brush": "green", "orig": "c2", "dest": "c4"}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawShape", into = "RawShape")]
pub struct Shape {
    pub brush: Brush,
    pub orig: Square,
    pub dest: Option<Square>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShape {
    brush: Brush,
    orig: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dest: Option<String>,
}

impl TryFrom<RawShape> for Shape {
    type Error = String;

    fn try_from(r: RawShape) -> Result<Shape, String> {
        let sq = |s: &str| Square::parse(s).ok_or_else(|| format!("{s:?} is not a square (a1 … h8)"));
        let orig = sq(&r.orig)?;
        let dest = r.dest.as_deref().map(sq).transpose()?.filter(|&d| d != orig);
        Ok(Shape { brush: r.brush, orig, dest })
    }
}

impl From<Shape> for RawShape {
    fn from(s: Shape) -> RawShape {
        RawShape { brush: s.brush, orig: s.orig.to_string(), dest: s.dest.map(|d| d.to_string()) }
    }
}

/// One move of a chapter with its annotations; `variations` are alternatives to this move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Node {
    /// The move in SAN (UCI is accepted and rewritten by [`Study::validate`]).
    pub san: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nags: Vec<u8>,
    /// A PGN comment before the move (at the start of a variation, or after the previous move's variations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<Note>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<Shape>,
    /// An interactive step in the position after the move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<Step>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Vec<Node>>,
}

/// One chapter: a start position and its move tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudyChapter {
    pub name: Note,
    /// The start position, a full FEN.
    pub fen: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orientation: Option<Side>,
    /// The start position's comment, shapes and step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<Note>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<Shape>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<Step>,
    /// The mainline.
    #[serde(default)]
    pub moves: Vec<Node>,
    /// PGN tags other than FEN, SetUp and Result, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<(String, String)>,
    /// The PGN result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// A study: a title and chapters; `lesson` and `topics` name the course lesson it was copied from or exports as.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Study {
    pub title: Note,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intro: Option<Note>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topics: Vec<String>,
    #[serde(default)]
    pub chapters: Vec<StudyChapter>,
}

/// What is wrong with a study, a PGN text or a shape, and where (`at`: `chapter 2, move [3, 0, 1] (Nf3)`,
/// `game 1, line 4, column 9`, `title`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StudyError {
    pub at: String,
    pub en: String,
    pub zh: String,
}

impl StudyError {
    fn new(at: impl Into<String>, en: impl Into<String>, zh: impl Into<String>) -> StudyError {
        StudyError { at: at.into(), en: en.into(), zh: zh.into() }
    }
}

impl fmt::Display for StudyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.en)
    }
}

impl std::error::Error for StudyError {}

// ----- paths and positions -----

fn play(pos: &Position, san: &str) -> Option<Position> {
    let m = pgn::parse_move(pos, san).ok()?;
    pos.clone().play(m).ok()
}

/// The FEN's first four fields (what makes two positions the same for a step).
fn placement(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

impl StudyChapter {
    /// A chapter at a position with no moves.
    pub fn new(name: Note, fen: &str) -> StudyChapter {
        StudyChapter {
            name,
            fen: fen.to_owned(),
            orientation: None,
            comment: None,
            shapes: Vec::new(),
            step: None,
            moves: Vec::new(),
            tags: Vec::new(),
            result: None,
        }
    }

    /// The position at a path (module text) and its node (`None` at the start); `None` if there is no such path.
    pub fn walk(&self, path: &[usize]) -> Option<(Position, Option<&Node>)> {
        let mut pos = Position::from_fen(&self.fen).ok()?;
        if path.is_empty() {
            return Some((pos, None));
        }
        if path.len().is_multiple_of(2) {
            return None;
        }
        let mut line: &[Node] = &self.moves;
        let mut rest = path;
        loop {
            let i = rest[0];
            if i >= line.len() {
                return None;
            }
            if rest.len() == 1 {
                for n in &line[..=i] {
                    pos = play(&pos, &n.san)?;
                }
                return Some((pos, Some(&line[i])));
            }
            for n in &line[..i] {
                pos = play(&pos, &n.san)?;
            }
            line = line[i].variations.get(rest[1])?;
            rest = &rest[2..];
        }
    }

    /// The FEN and shapes at a path (what present mode shows).
    pub fn view(&self, path: &[usize]) -> Option<(String, Vec<Shape>)> {
        let (pos, node) = self.walk(path)?;
        let shapes = node.map_or(&self.shapes, |n| &n.shapes).clone();
        Some((pos.fen(), shapes))
    }

    /// The interactive step at a path, if any.
    pub fn step_at(&self, path: &[usize]) -> Option<&Step> {
        match self.walk(path)? {
            (_, None) => self.step.as_ref(),
            (_, Some(n)) => n.step.as_ref(),
        }
    }

    /// Every interactive step with its path: the start's, then each move's, a move's variations after the move's
    /// own step.
    pub fn steps(&self) -> Vec<(Vec<usize>, &Step)> {
        fn line<'a>(nodes: &'a [Node], prefix: &[usize], out: &mut Vec<(Vec<usize>, &'a Step)>) {
            for (i, n) in nodes.iter().enumerate() {
                let mut p = prefix.to_vec();
                p.push(i);
                if let Some(s) = &n.step {
                    out.push((p.clone(), s));
                }
                for (v, var) in n.variations.iter().enumerate() {
                    let mut q = p.clone();
                    q.push(v);
                    line(var, &q, out);
                }
            }
        }
        let mut out = Vec::new();
        if let Some(s) = &self.step {
            out.push((Vec::new(), s));
        }
        line(&self.moves, &[], &mut out);
        out
    }
}

// ----- validation -----

fn path_text(path: &[usize]) -> String {
    let parts: Vec<String> = path.iter().map(|n| n.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

struct Check {
    chapter: usize,
    nodes: usize,
}

impl Check {
    fn at(&self, path: &[usize], san: &str) -> String {
        if path.is_empty() {
            format!("chapter {}, start", self.chapter + 1)
        } else {
            format!("chapter {}, move {} ({san})", self.chapter + 1, path_text(path))
        }
    }

    fn step(&self, step: &Step, pos: &Position, path: &[usize], san: &str) -> Result<(), StudyError> {
        let at = self.at(path, san);
        let step_pos = Position::from_fen(&step.fen)
            .map_err(|e| StudyError::new(&at, format!("the step's fen: {e}"), format!("步骤的 FEN 有误：{e}")))?;
        if placement(&step_pos.fen()) != placement(&pos.fen()) {
            return Err(StudyError::new(
                &at,
                format!("the step's fen {:?} is not the position here ({})", step.fen, pos.fen()),
                format!("步骤的 FEN {:?} 不是这里的局面（{}）", step.fen, pos.fen()),
            ));
        }
        let errs = crate::check::check_step(step);
        match errs.first() {
            None => Ok(()),
            Some(_) => {
                let all = errs.join("; ");
                Err(StudyError::new(at, format!("the step: {all}"), format!("步骤有误：{all}")))
            }
        }
    }

    fn line(&mut self, nodes: &mut [Node], start: &Position, prefix: &[usize]) -> Result<(), StudyError> {
        if prefix.len() / 2 > MAX_DEPTH {
            let at = self.at(prefix, "");
            return Err(StudyError::new(
                at,
                format!("variations nest more than {MAX_DEPTH} deep"),
                format!("变着嵌套超过 {MAX_DEPTH} 层"),
            ));
        }
        let mut pos = start.clone();
        for (i, n) in nodes.iter_mut().enumerate() {
            let mut path = prefix.to_vec();
            path.push(i);
            self.nodes += 1;
            if self.nodes > MAX_NODES {
                return Err(StudyError::new(
                    self.at(&path, &n.san),
                    format!("a study has at most {MAX_NODES} moves"),
                    format!("一个研究最多 {MAX_NODES} 步棋"),
                ));
            }
            for (v, var) in n.variations.iter_mut().enumerate() {
                let mut p = path.clone();
                p.push(v);
                self.line(var, &pos, &p)?;
            }
            let m = pgn::parse_move(&pos, &n.san).map_err(|e| {
                let t = e.text();
                StudyError::new(self.at(&path, &n.san), t.en, t.zh)
            })?;
            n.san = pos.san(m);
            pos = pos
                .clone()
                .play(m)
                .map_err(|_| StudyError::new(self.at(&path, &n.san), "illegal move", "不合法的着法"))?;
            if let Some(s) = &n.step {
                self.step(s, &pos, &path, &n.san)?;
            }
        }
        Ok(())
    }
}

fn check_note(at: &str, n: &Note) -> Result<(), StudyError> {
    let too_long = match n {
        Note::One(s) => s.chars().count() > MAX_TITLE,
        Note::Both(t) => t.zh.chars().count() > MAX_TITLE || t.en.chars().count() > MAX_TITLE,
    };
    if n.is_empty() || too_long {
        return Err(StudyError::new(
            at,
            format!("must be 1 to {MAX_TITLE} characters"),
            format!("须为 1 到 {MAX_TITLE} 个字符"),
        ));
    }
    Ok(())
}

impl Study {
    /// A new study with one chapter at the standard start.
    pub fn new(title: &str) -> Study {
        let name = Note::Both(Text { zh: "第1章".into(), en: "Chapter 1".into() });
        Study {
            title: Note::One(title.to_owned()),
            intro: None,
            lesson: None,
            topics: Vec::new(),
            chapters: vec![StudyChapter::new(name, guoxiang_core::fen::STARTING_FEN)],
        }
    }

    /// Checks everything a study read from JSON must be (legal positions and moves, steps that fit their position
    /// and pass the course checker's rules for a step, sizes), rewriting moves as SAN.
    pub fn validate(&mut self) -> Result<(), StudyError> {
        check_note("title", &self.title)?;
        if let Some(id) = &self.lesson
            && !valid_id(id)
        {
            return Err(StudyError::new("lesson", "must be made of a-z, 0-9 and _", "只能由 a-z、0-9 和 _ 组成"));
        }
        if let Some(t) = self.topics.iter().find(|t| !TOPICS.contains(&t.as_str())) {
            return Err(StudyError::new("topics", format!("unknown topic {t:?}"), format!("未知的主题 {t:?}")));
        }
        if self.chapters.len() > MAX_CHAPTERS {
            return Err(StudyError::new(
                "chapters",
                format!("a study has at most {MAX_CHAPTERS} chapters"),
                format!("一个研究最多 {MAX_CHAPTERS} 章"),
            ));
        }
        let mut check = Check { chapter: 0, nodes: 0 };
        for (c, ch) in self.chapters.iter_mut().enumerate() {
            check.chapter = c;
            check_note(&format!("chapter {}, name", c + 1), &ch.name)?;
            let start = Position::from_fen(&ch.fen).map_err(|e| {
                StudyError::new(
                    format!("chapter {}, fen", c + 1),
                    format!("{:?} is not a legal position: {e}", ch.fen),
                    format!("{:?} 不是合法局面：{e}", ch.fen),
                )
            })?;
            if let Some(s) = &ch.step {
                check.step(s, &start, &[], "")?;
            }
            check.line(&mut ch.moves, &start, &[])?;
        }
        Ok(())
    }

    /// A study of a course lesson: one chapter per step, at the step's FEN with the step at its start.
    pub fn from_lesson(lesson: &Lesson) -> Study {
        let chapters = lesson
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| {
                let name = Note::Both(Text { zh: format!("第{}步", i + 1), en: format!("Step {}", i + 1) });
                let mut ch = StudyChapter::new(name, &step.fen);
                ch.orientation = step.orientation;
                ch.step = Some(step.clone());
                ch
            })
            .collect();
        Study {
            title: Note::Both(lesson.title.clone()),
            intro: lesson.intro.clone().map(Note::Both),
            lesson: Some(lesson.id.clone()),
            topics: lesson.topics.clone(),
            chapters,
        }
    }

    /// The lesson of the study's steps (every chapter's [`StudyChapter::steps`] in order); its id is `lesson` or
    /// `study`, its topics `topics` or `["tactics"]`.
    pub fn to_lesson(&self) -> Result<Lesson, StudyError> {
        let steps: Vec<Step> =
            self.chapters.iter().flat_map(|c| c.steps().into_iter().map(|(_, s)| s.clone())).collect();
        if steps.is_empty() {
            return Err(StudyError::new(
                "chapters",
                "the study has no interactive step: a course lesson needs at least one",
                "这个研究没有互动步骤：课程的一课至少需要一个",
            ));
        }
        let topics = if self.topics.is_empty() { vec!["tactics".to_owned()] } else { self.topics.clone() };
        Ok(Lesson {
            id: self.lesson.clone().unwrap_or_else(|| "study".to_owned()),
            topics,
            title: self.title.text(),
            intro: self.intro.as_ref().map(Note::text),
            steps,
        })
    }

    /// The course file (`NN-<chapter>.toml`) of [`Study::to_lesson`]: one optional chapter `studies` with that
    /// lesson.
    pub fn to_lesson_toml(&self) -> Result<String, StudyError> {
        let lesson = self.to_lesson()?;
        lesson_file("studies", &lesson).map_err(|e| StudyError::new("toml", e.clone(), e))
    }
}

// ----- shapes in comments -----

/// Splits a PGN comment into its text (whitespace collapsed) and its `[%cal …]` / `[%csl …]` shapes; other
/// `[%…]` commands stay in the text.
pub fn parse_comment(text: &str, at: &str) -> Result<(String, Vec<Shape>), StudyError> {
    let mut shapes = Vec::new();
    let mut rest = String::new();
    let mut s = text;
    while let Some(i) = s.find("[%") {
        let cmd = &s[i + 2..];
        let arrow = cmd.starts_with("cal ");
        if !(arrow || cmd.starts_with("csl ")) {
            rest.push_str(&s[..i + 2]);
            s = cmd;
            continue;
        }
        let Some(end) = cmd.find(']') else {
            return Err(StudyError::new(at, format!("unclosed [%{}", &cmd[..3]), format!("[%{} 没有闭合", &cmd[..3])));
        };
        rest.push_str(&s[..i]);
        rest.push(' ');
        for item in cmd[4..end].split(',').map(str::trim).filter(|x| !x.is_empty()) {
            shapes.push(parse_shape(item, arrow, at)?);
        }
        s = &cmd[end + 1..];
    }
    rest.push_str(s);
    Ok((rest.split_whitespace().collect::<Vec<_>>().join(" "), shapes))
}

fn parse_shape(item: &str, arrow: bool, at: &str) -> Result<Shape, StudyError> {
    let bad = |why_en: &str, why_zh: &str| {
        let (cmd, form) = if arrow { ("cal", "Gc2c4") } else { ("csl", "Ge4") };
        StudyError::new(
            at,
            format!("[%{cmd} {item}]: {why_en} (like {form}: colour G, R, Y or B, then squares)"),
            format!("[%{cmd} {item}]：{why_zh}（形如 {form}：颜色 G、R、Y 或 B，再接格子）"),
        )
    };
    let mut chars = item.chars();
    let brush = chars.next().and_then(Brush::from_letter).ok_or_else(|| bad("unknown colour", "颜色不对"))?;
    let squares = chars.as_str();
    let want = if arrow { 4 } else { 2 };
    if squares.len() != want || !squares.is_ascii() {
        return Err(bad("wrong length", "长度不对"));
    }
    let orig = Square::parse(&squares[..2]).ok_or_else(|| bad("not a square", "不是格子"))?;
    let dest = if arrow {
        Some(Square::parse(&squares[2..]).ok_or_else(|| bad("not a square", "不是格子"))?)
    } else {
        None
    };
    Ok(Shape { brush, orig, dest: dest.filter(|&d| d != orig) })
}

/// The `[%cal …] [%csl …]` commands of shapes (arrows, then circles), or an empty string.
pub fn shapes_text(shapes: &[Shape]) -> String {
    let arrows: Vec<String> =
        shapes.iter().filter_map(|s| s.dest.map(|d| format!("{}{}{}", s.brush.letter(), s.orig, d))).collect();
    let circles: Vec<String> =
        shapes.iter().filter(|s| s.dest.is_none()).map(|s| format!("{}{}", s.brush.letter(), s.orig)).collect();
    let mut out = Vec::new();
    if !arrows.is_empty() {
        out.push(format!("[%cal {}]", arrows.join(",")));
    }
    if !circles.is_empty() {
        out.push(format!("[%csl {}]", circles.join(",")));
    }
    out.join(" ")
}

// ----- PGN -----

/// The comments of many PGN comments as one note and its shapes.
fn read_comments(comments: &[String], at: &str) -> Result<(Option<Note>, Vec<Shape>), StudyError> {
    let mut texts = Vec::new();
    let mut shapes = Vec::new();
    for c in comments {
        let (t, s) = parse_comment(c, at)?;
        shapes.extend(s);
        if !t.is_empty() {
            texts.push(t);
        }
    }
    Ok(((!texts.is_empty()).then(|| Note::One(texts.join(" "))), shapes))
}

fn write_comments(note: Option<&Note>, shapes: &[Shape]) -> Vec<String> {
    let mut out = note.map(Note::comments).unwrap_or_default();
    let cmds = shapes_text(shapes);
    if !cmds.is_empty() {
        match out.first_mut() {
            Some(first) => *first = format!("{cmds} {first}"),
            None => out.push(cmds),
        }
    }
    out
}

struct Import {
    game: usize,
}

impl Import {
    fn at(&self, n: &pgn::Node) -> String {
        match n.source.0 {
            Some(loc) => format!("game {}, line {}, column {} ({})", self.game, loc.line, loc.column, n.san),
            None => format!("game {} ({})", self.game, n.san),
        }
    }

    fn line(&self, line: &pgn::Line, start: &Position, main: bool, depth: usize) -> Result<Vec<Node>, StudyError> {
        let mut pos = start.clone();
        let mut out: Vec<Node> = Vec::with_capacity(line.nodes.len());
        for (i, pn) in line.nodes.iter().enumerate() {
            let at = self.at(pn);
            let mut variations = Vec::new();
            for var in &pn.variations {
                if depth >= MAX_DEPTH {
                    return Err(StudyError::new(&at, "variations nest too deep", "变着嵌套太深"));
                }
                variations.push(self.line(var, &pos, false, depth + 1)?);
            }
            let m = pgn::parse_move(&pos, &pn.san).map_err(|e| {
                let t = e.text();
                StudyError::new(&at, t.en, t.zh)
            })?;
            let san = pos.san(m);
            pos = pos.clone().play(m).map_err(|_| StudyError::new(&at, "illegal move", "不合法的着法"))?;
            let (comment, shapes) = read_comments(&pn.comments_after, &at)?;
            let before = if (main && i == 0) || pn.comments_before.is_empty() {
                None
            } else {
                Some(pn.comments_before.join(" "))
            };
            out.push(Node { san, nags: pn.nags.clone(), before, comment, shapes, step: None, variations });
        }
        if let Some(last) = out.last_mut()
            && !line.comments.is_empty()
            && !line.nodes.is_empty()
        {
            let (comment, shapes) = read_comments(&line.comments, &format!("game {}", self.game))?;
            last.shapes.extend(shapes);
            if let Some(Note::One(extra)) = comment {
                last.comment = Some(match last.comment.take() {
                    Some(c) => Note::One(format!("{} {extra}", c.comments().join(" "))),
                    None => Note::One(extra),
                });
            }
        }
        Ok(out)
    }

    fn chapter(&self, g: &pgn::Game) -> Result<StudyChapter, StudyError> {
        let at = format!("game {}", self.game);
        let start = pgn::start_position(&g.tags).map_err(|e| StudyError::new(&at, e.clone(), e))?;
        let root_comments = match g.moves.nodes.first() {
            Some(n) => &n.comments_before,
            None => &g.moves.comments,
        };
        let (comment, shapes) = read_comments(root_comments, &at)?;
        let moves = self.line(&g.moves, &start, true, 0)?;
        let known = |v: Option<&str>| v.filter(|v| !v.trim().is_empty() && *v != "?").map(str::to_owned);
        let name = known(g.tag("Event"))
            .or_else(|| Some(format!("{} - {}", known(g.tag("White"))?, known(g.tag("Black"))?)))
            .unwrap_or_else(|| format!("Chapter {}", self.game));
        let tags = g.tags.iter().filter(|(k, _)| !matches!(k.as_str(), "FEN" | "SetUp" | "Result")).cloned().collect();
        Ok(StudyChapter {
            comment,
            shapes,
            moves,
            tags,
            result: g.result.map(|r| r.as_str().to_owned()),
            ..StudyChapter::new(Note::One(name), &start.fen())
        })
    }
}

/// The chapters of a PGN text, one per game (at least one). A syntax error, an illegal move, a bad FEN tag or a
/// bad shape is an error naming the game and where.
pub fn chapters_from_pgn(text: &str) -> Result<Vec<StudyChapter>, StudyError> {
    let mut reader = pgn::Reader::new(text.as_bytes());
    let mut out = Vec::new();
    loop {
        match reader.read_owned_game() {
            Ok(Some(g)) => {
                let chapter = Import { game: out.len() + 1 }.chapter(&g)?;
                out.push(chapter);
                if out.len() > MAX_CHAPTERS {
                    return Err(StudyError::new(
                        "pgn",
                        format!("at most {MAX_CHAPTERS} games"),
                        format!("最多 {MAX_CHAPTERS} 盘棋"),
                    ));
                }
            }
            Ok(None) => break,
            Err(e) => {
                let msg = e.to_string();
                return Err(StudyError::new("pgn", msg.clone(), format!("PGN 有误：{msg}")));
            }
        }
    }
    if out.is_empty() {
        return Err(StudyError::new("pgn", "no game in the PGN text", "PGN 文本里没有棋局"));
    }
    Ok(out)
}

fn export_line(nodes: &[Node]) -> pgn::Line {
    let nodes = nodes
        .iter()
        .map(|n| pgn::Node {
            comments_before: n.before.iter().cloned().collect(),
            san: n.san.clone(),
            nags: n.nags.clone(),
            comments_after: write_comments(n.comment.as_ref(), &n.shapes),
            variations: n.variations.iter().map(|v| export_line(v)).collect(),
            source: pgn::Source::default(),
        })
        .collect();
    pgn::Line { nodes, comments: Vec::new() }
}

impl StudyChapter {
    /// The chapter as a PGN game: its tags (an `Event` of its name if it has none), `SetUp`/`FEN` unless it starts
    /// from the standard position, comments, NAGs, shapes and variations; steps are left out.
    pub fn to_pgn(&self) -> String {
        let mut tags = self.tags.clone();
        if !tags.iter().any(|(k, _)| k == "Event") {
            tags.insert(0, ("Event".into(), self.name.comments().join(" / ")));
        }
        let start = Position::from_fen(&self.fen).map(|p| p.fen()).unwrap_or_else(|_| self.fen.clone());
        if start != guoxiang_core::fen::STARTING_FEN {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), start));
        }
        let mut moves = export_line(&self.moves);
        let root = write_comments(self.comment.as_ref(), &self.shapes);
        match moves.nodes.first_mut() {
            Some(first) => first.comments_before = root,
            None => moves.comments = root,
        }
        let result = self.result.as_deref().and_then(|r| r.parse().ok());
        pgn::Game { tags, moves, result }.to_pgn()
    }
}
