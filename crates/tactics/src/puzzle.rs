//! Puzzles in the lichess CSV format, read as a stream (constant memory whatever the file's size) with one error per
//! broken row, and written back in the same format.
//!
//! Columns: `PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags`. `FEN` is the
//! position *before* the opponent's move that sets the puzzle up; `Moves` are UCI moves, the first of them that
//! setup move, then the solver's and the opponent's moves in turn. A header line is recognised by its first field
//! `PuzzleId`; without one the columns are taken in the order above (lichess's older dumps have no `OpeningTags`).

use std::fmt;
use std::io::Read;

use guoxiang_core::{Color, Move, Position, UciMove};

/// The lichess CSV columns, in order.
pub const COLUMNS: [&str; 10] = [
    "PuzzleId",
    "FEN",
    "Moves",
    "Rating",
    "RatingDeviation",
    "Popularity",
    "NbPlays",
    "Themes",
    "GameUrl",
    "OpeningTags",
];

/// The longest move list a puzzle may have (lichess's longest are about 40 plies).
pub const MAX_PLIES: usize = 120;

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub id: String,
    /// The position before the setup move.
    pub position: Position,
    /// Every move, the setup move first.
    pub moves: Vec<Move>,
    pub rating: Option<i32>,
    pub deviation: Option<i32>,
    pub popularity: Option<i32>,
    pub plays: Option<i64>,
    /// The Themes column as given (the tagger never reads it).
    pub themes: Vec<String>,
    pub game_url: String,
    pub opening_tags: Vec<String>,
}

impl Puzzle {
    /// The position the solver faces: after the setup move.
    pub fn start(&self) -> Position {
        self.position.after(self.moves[0])
    }

    /// The side the solver plays.
    pub fn solver(&self) -> Color {
        !self.position.turn()
    }

    /// The solution: every move after the setup move (solver, opponent, solver, …).
    pub fn solution(&self) -> &[Move] {
        &self.moves[1..]
    }

    /// The FEN of [`Puzzle::position`].
    pub fn fen(&self) -> String {
        self.position.fen()
    }

    /// The moves in UCI, separated by spaces.
    pub fn uci_moves(&self) -> String {
        let c960 = self.position.is_chess960();
        self.moves.iter().map(|&m| UciMove::from_move(m, c960).to_string()).collect::<Vec<_>>().join(" ")
    }

    /// A puzzle from its FEN and UCI moves (the other fields empty). Errors say which move is wrong and why.
    pub fn new(id: &str, fen: &str, moves: &str) -> Result<Puzzle, String> {
        let position = parse_fen(fen)?;
        let moves = parse_moves(&position, moves)?;
        Ok(Puzzle {
            id: id.to_string(),
            position,
            moves,
            rating: None,
            deviation: None,
            popularity: None,
            plays: None,
            themes: Vec::new(),
            game_url: String::new(),
            opening_tags: Vec::new(),
        })
    }

    /// The row's ten fields, in [`COLUMNS`] order.
    pub fn record(&self) -> [String; 10] {
        let num = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
        [
            self.id.clone(),
            self.fen(),
            self.uci_moves(),
            num(self.rating.map(i64::from)),
            num(self.deviation.map(i64::from)),
            num(self.popularity.map(i64::from)),
            num(self.plays),
            self.themes.join(" "),
            self.game_url.clone(),
            self.opening_tags.join(" "),
        ]
    }
}

fn parse_fen(fen: &str) -> Result<Position, String> {
    Position::from_fen(fen.trim()).map_err(|e| format!("FEN {fen:?}: {e}"))
}

fn parse_moves(position: &Position, moves: &str) -> Result<Vec<Move>, String> {
    let mut pos = position.clone();
    let mut out = Vec::new();
    for (i, word) in moves.split_whitespace().enumerate() {
        if i >= MAX_PLIES {
            return Err(format!("Moves: more than {MAX_PLIES} moves"));
        }
        let uci = UciMove::parse(word).map_err(|e| format!("Moves: move {} {word:?}: {e}", i + 1))?;
        let m = uci.to_move(&pos).map_err(|e| format!("Moves: move {} {word:?}: {e}", i + 1))?;
        pos.play_unchecked(m);
        out.push(m);
    }
    if out.len() < 2 {
        return Err(format!(
            "Moves: {} move(s); a puzzle needs the setup move and at least one solver move",
            out.len()
        ));
    }
    Ok(out)
}

/// A row that could not be read, with its line in the file (1-based, counting the header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowError {
    pub line: u64,
    /// The row's PuzzleId, when there is one.
    pub id: Option<String>,
    pub problem: String,
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.id {
            Some(id) => write!(f, "line {} (puzzle {id}): {}", self.line, self.problem),
            None => write!(f, "line {}: {}", self.line, self.problem),
        }
    }
}

impl std::error::Error for RowError {}

/// Reads puzzles from lichess CSV, one row at a time: an iterator of `(line, Result<Puzzle, RowError>)`.
#[derive(Debug)]
pub struct Reader<R: Read> {
    inner: csv::Reader<R>,
    record: csv::StringRecord,
    /// Column index of each of [`COLUMNS`] (None: absent).
    index: [Option<usize>; 10],
    /// The number of fields every row must have (the header's, or 9 or 10 without a header).
    width: Option<usize>,
    started: bool,
    done: bool,
}

impl<R: Read> Reader<R> {
    pub fn new(input: R) -> Reader<R> {
        let inner = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(input);
        Reader {
            inner,
            record: csv::StringRecord::new(),
            index: std::array::from_fn(Some),
            width: None,
            started: false,
            done: false,
        }
    }

    /// The number of bytes read so far (for a progress bar).
    pub fn bytes_read(&self) -> u64 {
        self.inner.position().byte()
    }

    fn field(&self, col: usize) -> &str {
        self.index[col].and_then(|i| self.record.get(i)).unwrap_or("").trim()
    }

    fn parse_row(&self, line: u64) -> Result<Puzzle, RowError> {
        let id = self.field(0).to_string();
        let err = |problem: String| RowError { line, id: (!id.is_empty()).then(|| id.clone()), problem };
        if let Some(w) = self.width
            && self.record.len() != w
        {
            return Err(err(format!("{} columns, expected {w}", self.record.len())));
        }
        if id.is_empty() {
            return Err(err("PuzzleId is empty".into()));
        }
        if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(err(format!("PuzzleId {id:?}: only letters, digits, '_' and '-', at most 64")));
        }
        let mut p = Puzzle::new(&id, self.field(1), self.field(2)).map_err(err)?;
        let int = |col: usize| -> Result<Option<i64>, RowError> {
            let s = self.field(col);
            if s.is_empty() {
                return Ok(None);
            }
            s.parse::<i64>().map(Some).map_err(|_| err(format!("{}: {s:?} is not a whole number", COLUMNS[col])))
        };
        let small = |col: usize| -> Result<Option<i32>, RowError> {
            match int(col)? {
                None => Ok(None),
                Some(v) => {
                    i32::try_from(v).map(Some).map_err(|_| err(format!("{}: {v} is out of range", COLUMNS[col])))
                }
            }
        };
        p.rating = small(3)?;
        p.deviation = small(4)?;
        p.popularity = small(5)?;
        p.plays = int(6)?;
        p.themes = self.field(7).split_whitespace().map(str::to_string).collect();
        p.game_url = self.field(8).to_string();
        p.opening_tags = self.field(9).split_whitespace().map(str::to_string).collect();
        Ok(p)
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Puzzle, RowError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            let line = self.inner.position().line();
            match self.inner.read_record(&mut self.record) {
                Ok(false) => {
                    self.done = true;
                    return None;
                }
                Ok(true) => {}
                Err(e) => {
                    // A broken byte sequence or quote spoils only its row; an I/O error ends the file.
                    let line = e.position().map(|p| p.line()).unwrap_or(line);
                    if matches!(e.kind(), csv::ErrorKind::Io(_)) {
                        self.done = true;
                    }
                    return Some(Err(RowError { line, id: None, problem: format!("unreadable row: {e}") }));
                }
            }
            let line = self.record.position().map(|p| p.line()).unwrap_or(line);
            if self.record.len() == 1 && self.record.get(0).is_some_and(|f| f.trim().is_empty()) {
                continue; // a blank line
            }
            if !self.started {
                self.started = true;
                if self.record.get(0).map(str::trim) == Some(COLUMNS[0]) {
                    let mut index = [None; 10];
                    for (i, name) in self.record.iter().enumerate() {
                        if let Some(c) = COLUMNS.iter().position(|&c| c == name.trim()) {
                            index[c] = Some(i);
                        }
                    }
                    if index[1].is_none() || index[2].is_none() {
                        self.done = true;
                        return Some(Err(RowError {
                            line,
                            id: None,
                            problem: "the header has no FEN or no Moves column".into(),
                        }));
                    }
                    self.index = index;
                    self.width = Some(self.record.len());
                    continue;
                }
                if self.record.len() != 9 && self.record.len() != 10 {
                    return Some(Err(RowError {
                        line,
                        id: None,
                        problem: format!(
                            "{} columns: without a header a row has the 9 or 10 lichess columns ({})",
                            self.record.len(),
                            COLUMNS.join(",")
                        ),
                    }));
                }
            } else if self.width.is_none() && self.record.len() != 9 && self.record.len() != 10 {
                return Some(Err(RowError {
                    line,
                    id: self.record.get(0).map(|s| s.trim().to_string()).filter(|s| !s.is_empty()),
                    problem: format!("{} columns, expected 9 or 10", self.record.len()),
                }));
            }
            return Some(self.parse_row(line));
        }
    }
}

/// Writes puzzles as lichess CSV (the header first).
#[derive(Debug)]
pub struct Writer<W: std::io::Write> {
    inner: csv::Writer<W>,
}

impl<W: std::io::Write> Writer<W> {
    pub fn new(out: W) -> Result<Writer<W>, String> {
        let mut inner = csv::Writer::from_writer(out);
        inner.write_record(COLUMNS).map_err(|e| e.to_string())?;
        Ok(Writer { inner })
    }

    pub fn write(&mut self, p: &Puzzle) -> Result<(), String> {
        self.inner.write_record(p.record()).map_err(|e| e.to_string())
    }

    pub fn flush(&mut self) -> Result<(), String> {
        self.inner.flush().map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n";
    const ROW: &str = "00008,r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24,f2g3 e6e7 b2b1 b3c1 b1c1 h6c1,1784,77,95,9822,crushing hangingPiece long middlegame,https://lichess.org/787zsVup/black#48,\n";

    #[test]
    fn reads_a_row_with_header() {
        let text = format!("{HEAD}{ROW}");
        let rows: Vec<_> = Reader::new(text.as_bytes()).collect();
        assert_eq!(rows.len(), 1);
        let p = rows[0].as_ref().expect("row");
        assert_eq!(p.id, "00008");
        assert_eq!(p.moves.len(), 6);
        assert_eq!(p.rating, Some(1784));
        assert_eq!(p.plays, Some(9822));
        assert_eq!(p.solver(), Color::White);
        assert_eq!(p.themes, vec!["crushing", "hangingPiece", "long", "middlegame"]);
        assert_eq!(p.uci_moves(), "f2g3 e6e7 b2b1 b3c1 b1c1 h6c1");
    }

    #[test]
    fn broken_rows_are_reported_with_their_line_and_the_rest_is_read() {
        let text = format!(
            "{HEAD}{ROW}x1,8/8/8/8/8/8/8/8 w - - 0 1,e2e4,1,1,1,1,,,\nx2,{},e2e5 e7e5,1500,1,1,1,,,\nx3,a,b\n{ROW}",
            guoxiang_core::STARTING_FEN
        );
        let rows: Vec<_> = Reader::new(text.as_bytes()).collect();
        assert_eq!(rows.len(), 5);
        assert!(rows[0].is_ok() && rows[4].is_ok());
        let e1 = rows[1].as_ref().expect_err("no kings");
        assert_eq!((e1.line, e1.id.as_deref()), (3, Some("x1")));
        assert!(e1.problem.starts_with("FEN"), "{}", e1.problem);
        let e2 = rows[2].as_ref().expect_err("illegal move");
        assert_eq!(e2.line, 4);
        assert!(e2.problem.contains("move 1 \"e2e5\""), "{}", e2.problem);
        let e3 = rows[3].as_ref().expect_err("columns");
        assert_eq!(e3.line, 5);
        assert!(e3.problem.contains("3 columns, expected 10"), "{}", e3.problem);
        assert!(e3.to_string().starts_with("line 5 (puzzle x3): "));
    }

    #[test]
    fn headerless_rows_and_round_trip() {
        let rows: Vec<_> = Reader::new(ROW.as_bytes()).collect::<Result<_, _>>().expect("rows");
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out).expect("writer");
        w.write(&rows[0]).expect("write");
        w.flush().expect("flush");
        drop(w);
        let again: Vec<_> = Reader::new(out.as_slice()).collect::<Result<_, _>>().expect("again");
        assert_eq!(again, rows);
    }

    #[test]
    fn free_text_with_commas_quotes_and_line_breaks_stays_in_its_field() {
        let mut p = Puzzle::new("p1", guoxiang_core::STARTING_FEN, "e2e4 e7e5").expect("puzzle");
        p.game_url = "https://example.org/g?a=\"1\",2\nx3,a,b\r\n".to_string();
        p.themes = vec!["mate\"In,2".to_string(), "x\ny".to_string()];
        p.opening_tags = vec!["A,\"B\"".to_string()];
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out).expect("writer");
        w.write(&p).expect("write");
        w.write(&p).expect("write");
        w.flush().expect("flush");
        drop(w);
        let again: Vec<_> = Reader::new(out.as_slice()).collect::<Result<_, _>>().expect("again");
        assert_eq!(again.len(), 2, "two rows, as written");
        assert_eq!(again[0].game_url, p.game_url.trim());
        assert_eq!(again[1].opening_tags, p.opening_tags);
        assert_eq!(again[1].uci_moves(), "e2e4 e7e5");
    }

    #[test]
    fn a_puzzle_needs_a_solver_move() {
        let e = Puzzle::new("a", guoxiang_core::STARTING_FEN, "e2e4").expect_err("one move");
        assert!(e.contains("at least one solver move"), "{e}");
    }
}
