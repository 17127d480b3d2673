//! Perft test suites as text: the EPD form (`FEN ;D1 20 ;D2 400`) and the block form of `.perft` files
//! (`id NAME` / `epd FEN` / `perft DEPTH NODES`, blank-line separated, `#` comments). Parsing only; the caller
//! reads the file.

use core::fmt;

/// One position with its expected node counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// `id` from a `.perft` block, or `line N` for EPD.
    pub id: String,
    pub fen: String,
    /// `(depth, nodes)` pairs.
    pub counts: Vec<(u32, u64)>,
    /// 1-based line where the case starts.
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    pub line: usize,
    pub problem: String,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for SuiteError {}

/// Parses a suite in either format (detected per line: a line with `;D` is EPD, `id`/`epd`/`perft` lines are blocks).
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, SuiteError> {
    let mut cases = Vec::new();
    let mut current: Option<PerftCase> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (kw, rest) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
        match kw {
            "id" => {
                if let Some(c) = current.take() {
                    cases.push(c);
                }
                current = Some(PerftCase { id: rest.trim().to_string(), fen: String::new(), counts: vec![], line });
            }
            "epd" | "fen" => {
                let c = current.get_or_insert_with(|| PerftCase {
                    id: format!("line {line}"),
                    fen: String::new(),
                    counts: vec![],
                    line,
                });
                c.fen = rest.trim().to_string();
            }
            "perft" => {
                let c = current
                    .as_mut()
                    .ok_or_else(|| SuiteError { line, problem: "'perft' line before any 'id' or 'epd'".into() })?;
                c.counts.push(parse_count(rest, line)?);
            }
            _ if l.contains(';') => {
                if let Some(c) = current.take() {
                    cases.push(c);
                }
                let mut parts = l.split(';');
                let fen = parts.next().unwrap_or("").trim().to_string();
                let mut counts = Vec::new();
                for p in parts {
                    let p = p.trim();
                    if p.is_empty() {
                        continue;
                    }
                    let Some(rest) = p.strip_prefix('D').or_else(|| p.strip_prefix('d')) else {
                        return Err(SuiteError { line, problem: format!("'{p}': expected 'D<depth> <nodes>'") });
                    };
                    counts.push(parse_count(rest, line)?);
                }
                cases.push(PerftCase { id: format!("line {line}"), fen, counts, line });
            }
            _ => return Err(SuiteError { line, problem: format!("unrecognised line '{l}'") }),
        }
    }
    if let Some(c) = current.take() {
        cases.push(c);
    }
    for c in &cases {
        if c.fen.is_empty() {
            return Err(SuiteError { line: c.line, problem: format!("case '{}' has no position", c.id) });
        }
    }
    Ok(cases)
}

fn parse_count(s: &str, line: usize) -> Result<(u32, u64), SuiteError> {
    let mut it = s.split_whitespace();
    let bad = |what: &str| SuiteError { line, problem: format!("'{}': {what}", s.trim()) };
    let d = it.next().ok_or_else(|| bad("missing depth"))?.parse::<u32>().map_err(|_| bad("depth is not a number"))?;
    let n = it
        .next()
        .ok_or_else(|| bad("missing node count"))?
        .parse::<u64>()
        .map_err(|_| bad("node count is not a number"))?;
    if it.next().is_some() {
        return Err(bad("expected exactly a depth and a node count"));
    }
    Ok((d, n))
}
