//! guoxiang-engine-wasm: the engine in the learner's browser (issue 43). Built for `wasm32-unknown-unknown` by
//! `web/tools/build-engine-wasm.sh` into the web UI, where a Web Worker (web/src/engine/worker.ts) drives it; the
//! same code builds natively for its tests.
//!
//! The module's C ABI (numbers and byte buffers in the module's memory, no bindings generator):
//!
//! | export | what it does |
//! |---|---|
//! | `gx_alloc(len) -> ptr`, `gx_free(ptr, len)` | a buffer for the page to write text into |
//! | `gx_set_position(ptr, len) -> 0/1` | the position: UTF-8 `FEN` (empty: the start), a newline, UCI moves split by spaces; answers its FEN |
//! | `gx_search(depth, nodes, multipv) -> len` | searches to `depth` (and at most `nodes`, 0: no limit); the JSON answer's length |
//! | `gx_output() -> ptr`, `gx_output_len() -> len` | where the last answer (of `gx_set_position` or `gx_search`) is |
//! | `gx_new_game()` | empties the transposition table |
//! | `gx_bench(depth) -> nodes` | `guoxiang bench` to `depth` (one thread): its node count |
//! | `gx_judge_game(ptr, len) -> len` | a game review's searches (issue 43): JSON `{"fen": null, "moves": ["e2e4", …], "nodes": 150000}` in, the judgements the server makes the review of (guoxiang_review::upload) out |
//!
//! The answer of a search: `{"depth":8,"nodes":12345,"lines":[{"multipv":1,"depth":8,"score":{"cp":31},
//! "pv":["e2e4",…],"pv_san":["e4",…]}]}`, scores from the side to move's point of view, as the server's analysis
//! (crates/protocol/src/analysis.rs); an error: `{"error":"…"}`. The module imports two functions, `env.gx_now_ms`
//! (monotonic milliseconds; see guoxiang_engine::clock) and `env.gx_progress(done, total)` (a review's searches so
//! far, called after each).

use guoxiang_core::{CastlingMode, Position, Validation};
use guoxiang_engine::clock::Instant;
use guoxiang_engine::{Control, Engine, Info, Limits, Score};
use std::fmt::Write as _;
use std::sync::Mutex;

/// The transposition table's size in the browser, MiB (the server's analysis uses 16 too).
pub const HASH_MB: usize = 16;
/// At most this many lines (the analysis board offers 1 to 5).
pub const MAX_MULTIPV: usize = 5;
/// At most this many moves after the FEN.
pub const MAX_MOVES: usize = 1000;

/// One principal variation of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub multipv: u32,
    pub depth: u32,
    pub score: Score,
    pub pv: Vec<String>,
    pub pv_san: Vec<String>,
}

/// What a search found: its depth, nodes and lines (best first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub depth: u32,
    pub nodes: u64,
    pub lines: Vec<Line>,
}

/// An engine, a position and the hashes of the positions before it (for repetitions).
#[derive(Debug)]
pub struct Analyser {
    engine: Engine,
    pos: Position,
    history: Vec<u64>,
}

impl Default for Analyser {
    fn default() -> Analyser {
        Analyser::new(HASH_MB)
    }
}

impl Analyser {
    /// An analyser with a `hash_mb` table, on the starting position.
    pub fn new(hash_mb: usize) -> Analyser {
        Analyser { engine: Engine::new(hash_mb), pos: Position::new(), history: Vec::new() }
    }

    /// The position after `moves` (UCI) from `fen` (`None`: the start); the error names what is wrong.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let mut pos = match fen {
            None => Position::new(),
            Some(f) => Position::from_fen_with(f, CastlingMode::Auto, Validation::Strict)
                .map_err(|e| format!("bad FEN: {e}"))?,
        };
        if moves.len() > MAX_MOVES {
            return Err(format!("too many moves: {} (at most {MAX_MOVES})", moves.len()));
        }
        let mut history = Vec::with_capacity(moves.len());
        for (i, u) in moves.iter().enumerate() {
            let m = pos.parse_uci(u).map_err(|e| format!("move {}: {u}: {e}", i + 1))?;
            history.push(pos.hash());
            pos.play_unchecked(m);
        }
        self.pos = pos;
        self.history = history;
        Ok(())
    }

    /// The FEN of the position set.
    pub fn fen(&self) -> String {
        self.pos.fen()
    }

    /// Empties the transposition table (a new game: nothing learnt before carries over).
    pub fn new_game(&mut self) {
        self.engine.renew_hash();
    }

    /// Searches the position to `depth` (and at most `nodes`), `multipv` lines. The table is kept between searches,
    /// so searching depth 1, 2, 3… one call each costs little more than one search to the last depth.
    pub fn search(&mut self, depth: u32, nodes: Option<u64>, multipv: usize) -> Report {
        let multipv = multipv.clamp(1, MAX_MULTIPV);
        self.engine.options.multipv = multipv;
        let limits = Limits { depth: Some(depth.max(1)), nodes, ..Limits::default() };
        let last: Mutex<Vec<Option<Info>>> = Mutex::new(vec![None; multipv]);
        let reporter = |info: &Info| {
            let mut l = last.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(slot) = l.get_mut(info.multipv.saturating_sub(1) as usize) {
                *slot = Some(info.clone());
            }
        };
        let r = self.engine.search(&self.pos, &self.history, &limits, &Control::default(), &reporter, Instant::now());
        let infos = last.into_inner().unwrap_or_else(|e| e.into_inner());
        // Only completed iterations report (and, with one line, the best line of an interrupted one, at the depth
        // before): lines at `depth` mean that depth was searched to the end. No line at all: no legal move, or a
        // node limit reached before any iteration ended.
        let lines: Vec<Line> = infos.iter().flatten().map(|i| self.line(i)).collect();
        Report { depth: r.depth, nodes: r.nodes, lines }
    }

    fn line(&self, info: &Info) -> Line {
        let mut p = self.pos.clone();
        let (mut pv, mut pv_san) = (Vec::new(), Vec::new());
        for &m in &info.pv {
            pv.push(p.uci(m));
            pv_san.push(p.san(m));
            p.play_unchecked(m);
        }
        Line { multipv: info.multipv, depth: info.depth, score: info.score, pv, pv_san }
    }
}

/// `{"cp":31}` or `{"mate":-2}`.
fn score_json(s: Score) -> String {
    match s.mate_moves() {
        Some(m) => format!("{{\"mate\":{m}}}"),
        None => format!("{{\"cp\":{}}}", s.cp()),
    }
}

fn strings_json(out: &mut String, items: &[String]) {
    out.push('[');
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        // UCI and SAN are ASCII letters, digits and +#=-: nothing to escape.
        let _ = write!(out, "\"{s}\"");
    }
    out.push(']');
}

impl Report {
    /// The answer the page reads (see the crate's notes).
    pub fn to_json(&self) -> String {
        let mut out = format!("{{\"depth\":{},\"nodes\":{},\"lines\":[", self.depth, self.nodes);
        for (i, l) in self.lines.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"multipv\":{},\"depth\":{},\"score\":{},\"pv\":",
                l.multipv,
                l.depth,
                score_json(l.score)
            );
            strings_json(&mut out, &l.pv);
            out.push_str(",\"pv_san\":");
            strings_json(&mut out, &l.pv_san);
            out.push('}');
        }
        out.push_str("]}");
        out
    }
}

/// `{"error":"…"}` with the text escaped.
pub fn error_json(text: &str) -> String {
    let mut out = String::from("{\"error\":\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push_str("\"}");
    out
}

/// Reads the text of `gx_set_position`: a FEN line (empty: the start), then the moves.
pub fn set_position_text(a: &mut Analyser, text: &str) -> Result<(), String> {
    let (fen, moves) = text.split_once('\n').unwrap_or((text, ""));
    let fen = fen.trim();
    let moves: Vec<&str> = moves.split_whitespace().collect();
    a.set_position((!fen.is_empty()).then_some(fen), &moves)
}

struct State {
    analyser: Analyser,
    out: Vec<u8>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

fn with_state<T>(f: impl FnOnce(&mut State) -> T) -> T {
    let mut g = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let st = g.get_or_insert_with(|| State { analyser: Analyser::default(), out: Vec::new() });
    f(st)
}

/// A buffer of `len` bytes for the page to write into (free it with [`gx_free`]).
#[unsafe(no_mangle)]
pub extern "C" fn gx_alloc(len: usize) -> *mut u8 {
    let mut v = vec![0u8; len.max(1)].into_boxed_slice();
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Frees a buffer of [`gx_alloc`].
///
/// # Safety
/// `ptr` and `len` must be those of one [`gx_alloc`] call, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gx_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes back a pointer and length of `gx_alloc`, which made a boxed slice of max(len, 1).
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len.max(1))) });
}

/// Sets the position from the text at `ptr` (see the crate's notes): 0 when done (`{"fen":"…"}` at [`gx_output`],
/// [`gx_output_len`] bytes), 1 on an error (`{"error":"…"}` there).
///
/// # Safety
/// `ptr` must point to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gx_set_position(ptr: *const u8, len: usize) -> i32 {
    // SAFETY: the caller guarantees `len` readable bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    with_state(|st| {
        let r = std::str::from_utf8(bytes)
            .map_err(|_| "the position is not UTF-8".to_owned())
            .and_then(|t| set_position_text(&mut st.analyser, t));
        match r {
            Ok(()) => {
                st.out = format!("{{\"fen\":\"{}\"}}", st.analyser.fen()).into_bytes();
                0
            }
            Err(e) => {
                st.out = error_json(&e).into_bytes();
                1
            }
        }
    })
}

/// Searches the position set last to `depth`, at most `nodes` nodes (0 or less: no limit), `multipv` lines; returns
/// the length of the JSON answer at [`gx_output`]. `nodes` is a double: JavaScript numbers pass as such.
#[unsafe(no_mangle)]
pub extern "C" fn gx_search(depth: u32, nodes: f64, multipv: u32) -> usize {
    let nodes = (nodes >= 1.0).then_some(nodes as u64);
    with_state(|st| {
        st.out = st.analyser.search(depth, nodes, multipv as usize).to_json().into_bytes();
        st.out.len()
    })
}

/// Where the last answer is.
#[unsafe(no_mangle)]
pub extern "C" fn gx_output() -> *const u8 {
    with_state(|st| st.out.as_ptr())
}

/// The last answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn gx_output_len() -> usize {
    with_state(|st| st.out.len())
}

/// Empties the transposition table.
#[unsafe(no_mangle)]
pub extern "C" fn gx_new_game() {
    with_state(|st| st.analyser.new_game());
}

/// Runs `guoxiang bench` (guoxiang_engine::bench, one thread) to `depth` and returns its node count, which must be
/// the native binary's (the build's signature): web/tools/bench-engine-wasm.mjs times it in node or a browser.
#[unsafe(no_mangle)]
pub extern "C" fn gx_bench(depth: u32) -> f64 {
    guoxiang_engine::bench::run(depth.max(1)).nodes as f64
}

/// What `gx_judge_game` reads.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewRequest {
    #[serde(default)]
    fen: Option<String>,
    moves: Vec<String>,
    nodes: u64,
}

/// The searches of a game's review, as the server's reviewer makes them (both judges, every position from the last
/// to the first at `nodes`, one thread: the same judgements as the server's for the same game): the JSON of
/// guoxiang_review::upload::Upload, or `{"error":"…"}`. `progress(done, total)` after each search.
pub fn judge_game_text(text: &str, progress: &mut dyn FnMut(usize, usize)) -> Result<String, String> {
    let req: ReviewRequest = serde_json::from_str(text).map_err(|e| format!("the request: {e}"))?;
    if req.moves.len() > MAX_MOVES {
        return Err(format!("too many moves: {} (at most {MAX_MOVES})", req.moves.len()));
    }
    if req.nodes == 0 || req.nodes > 10_000_000 {
        return Err(format!("nodes: {} (1 to 10,000,000)", req.nodes));
    }
    let start = guoxiang_review::upload::start_position(req.fen.as_deref())?;
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(req.moves.len());
    for (i, u) in req.moves.iter().enumerate() {
        let m = pos.parse_uci(u).map_err(|e| format!("move {}: {u}: {e}", i + 1))?;
        if !pos.is_legal(m) {
            return Err(format!("move {}: {u} is not legal", i + 1));
        }
        pos.play_unchecked(m);
        moves.push(m);
    }
    let options = guoxiang_review::Options { nodes: req.nodes, threads: 1, ..guoxiang_review::Options::default() };
    let mut hooks = guoxiang_review::Hooks { admit: &guoxiang_review::search::no_admit, progress };
    let judged = guoxiang_review::judge_game(&start, &moves, &options, &mut hooks)?;
    let upload = guoxiang_review::upload::to_upload(&start, &judged, req.nodes);
    serde_json::to_string(&upload).map_err(|e| e.to_string())
}

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "env")]
unsafe extern "C" {
    fn gx_progress(done: f64, total: f64);
}

fn report_progress(done: usize, total: usize) {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: the page provides `env.gx_progress`, which takes two numbers and returns nothing.
    unsafe {
        gx_progress(done as f64, total as f64)
    };
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (done, total);
}

/// Searches a game for its review from the JSON request at `ptr` (see [`judge_game_text`]); returns the length of
/// the answer at [`gx_output`]. Runs to the end (a worker of its own; the page ends it by ending the worker).
///
/// # Safety
/// `ptr` must point to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gx_judge_game(ptr: *const u8, len: usize) -> usize {
    // SAFETY: the caller guarantees `len` readable bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let answer = std::str::from_utf8(bytes)
        .map_err(|_| "the request is not UTF-8".to_owned())
        .and_then(|t| judge_game_text(t, &mut report_progress))
        .unwrap_or_else(|e| error_json(&e));
    with_state(|st| {
        st.out = answer.into_bytes();
        st.out.len()
    })
}
