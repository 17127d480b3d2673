//! `guoxiang uci`: the Universal Chess Interface on standard input and output.
//!
//! The search runs on its own thread so that `stop`, `ponderhit` and `isready` are answered while it thinks.
//! Nothing a GUI sends can crash the program: malformed commands get an `info string` saying what was wrong, and
//! an illegal move in `position … moves` keeps the position reached before it.

use guoxiang_core::{CastlingMode, Position, Validation};
use guoxiang_engine::levels::{self, MAX_ELO, MIN_ELO};
use guoxiang_engine::nnue::Network;
use guoxiang_engine::{Control, Engine, Info, Limits};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {}

const DEFAULT_HASH_MB: usize = 16;
const MAX_THREADS: usize = 256;

/// Writes one line to standard output at once (the search thread writes too); a closed pipe ends the program.
fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

fn info_string(text: &str) {
    // One line per message, whatever the text contains.
    send(&format!("info string {}", text.replace(['\n', '\r'], " ")));
}

struct Running {
    handle: JoinHandle<()>,
    control: Control,
}

struct Uci {
    engine: Engine,
    pos: Position,
    /// Hashes of the game's positions before `pos`, since the last capture or pawn move.
    history: Vec<u64>,
    chess960: bool,
    /// `UCI_ShowWDL`: win/draw/loss per mille in the `info` lines.
    show_wdl: bool,
    /// The largest `Hash` this machine gets (half its memory).
    max_hash_mb: usize,
    limit_strength: bool,
    elo: u32,
    skill: u32,
    search: Option<Running>,
    /// Said as `info string` at the start of the next search rather than at once: an engine says nothing after
    /// `setoption`, and clients such as python-chess warn of any line there.
    notices: Vec<String>,
    /// `EvalFile`: a network file to use instead of the one compiled in (`None`: the compiled-in one).
    eval_file: Option<std::sync::Arc<Network>>,
    /// `SyzygyProbeLimit`, `SyzygyProbeDepth`, `Syzygy50MoveRule`: kept here so that they hold whenever tables are
    /// (re)loaded.
    syzygy_limit: u32,
    syzygy_depth: i32,
    syzygy_rule50: bool,
}

pub fn run(_: Args) -> Result<ExitCode, String> {
    let mut uci = Uci {
        engine: Engine::new(DEFAULT_HASH_MB),
        pos: Position::new(),
        history: Vec::new(),
        chess960: false,
        show_wdl: false,
        max_hash_mb: guoxiang_engine::tt::max_table_mb(),
        limit_strength: false,
        elo: 1500,
        skill: 20,
        search: None,
        notices: Vec::new(),
        eval_file: None,
        syzygy_limit: 7,
        syzygy_depth: 1,
        syzygy_rule50: true,
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if !uci.command(&line) {
            break;
        }
    }
    uci.stop();
    Ok(ExitCode::SUCCESS)
}

impl Uci {
    /// Handles one line; `false` on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else { return true };
        match cmd {
            "uci" => self.handshake(),
            "isready" => send("readyok"),
            "ucinewgame" => {
                self.stop();
                self.engine.renew_hash();
                self.pos = self.start_position();
                self.history.clear();
            }
            "position" => {
                self.stop();
                self.position(args);
            }
            "go" => {
                self.stop();
                for n in std::mem::take(&mut self.notices) {
                    info_string(&n);
                }
                self.go(args);
            }
            "stop" => self.stop(),
            "ponderhit" => {
                if let Some(r) = &self.search {
                    r.control.ponder.store(false, Ordering::Relaxed);
                }
            }
            "setoption" => {
                self.stop();
                self.setoption(args);
            }
            "quit" => return false,
            "debug" | "register" => {}
            "d" => info_string(&format!("fen {}", self.pos.fen())),
            _ => info_string(&format!("unknown command '{}'", cmd.chars().take(40).collect::<String>())),
        }
        true
    }

    fn handshake(&self) {
        send(&format!("id name guoxiang {}", env!("CARGO_PKG_VERSION")));
        send("id author the guoxiang authors");
        send(&format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {}", self.max_hash_mb));
        send(&format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"));
        send("option name MultiPV type spin default 1 min 1 max 256");
        send("option name Move Overhead type spin default 30 min 0 max 5000");
        send("option name Clear Hash type button");
        send("option name Ponder type check default false");
        send("option name UCI_Chess960 type check default false");
        send("option name UCI_LimitStrength type check default false");
        send(&format!("option name UCI_Elo type spin default 1500 min {MIN_ELO} max {MAX_ELO}"));
        send("option name Skill Level type spin default 20 min 0 max 20");
        send("option name UCI_ShowWDL type check default false");
        send("option name SyzygyPath type string default <empty>");
        send("option name SyzygyProbeDepth type spin default 1 min 1 max 100");
        send("option name SyzygyProbeLimit type spin default 7 min 0 max 7");
        send("option name Syzygy50MoveRule type check default true");
        send(&format!("option name Use NNUE type check default {}", self.engine.options.nnue.is_some()));
        send("option name EvalFile type string default <embedded>");
        send(&format!("option name SingularExtensions type check default {}", self.engine.options.singular_extensions));
        send(&format!(
            "option name ContinuationHistory type check default {}",
            self.engine.options.continuation_history
        ));
        send("uciok");
    }

    fn start_position(&self) -> Position {
        let mut p = Position::new();
        p.set_chess960(self.chess960);
        p
    }

    /// Stops a running search and waits for it (it prints its `bestmove`).
    fn stop(&mut self) {
        if let Some(r) = self.search.take() {
            r.control.stop.store(true, Ordering::Relaxed);
            r.control.ponder.store(false, Ordering::Relaxed);
            let _ = r.handle.join();
        }
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut pos = match setup.split_first() {
            Some((&"startpos", rest)) => {
                if !rest.is_empty() {
                    info_string(&format!("ignoring '{}' after startpos", rest.join(" ")));
                }
                self.start_position()
            }
            Some((&"fen", fields)) if !fields.is_empty() => {
                let fen = fields.join(" ");
                let mode = if self.chess960 { CastlingMode::Chess960 } else { CastlingMode::Auto };
                match Position::from_fen_with(&fen, mode, Validation::Strict) {
                    Ok(mut p) => {
                        p.set_chess960(self.chess960 || p.is_chess960());
                        p
                    }
                    Err(e) => {
                        info_string(&format!("invalid FEN '{fen}': {e}; position unchanged"));
                        return;
                    }
                }
            }
            _ => {
                info_string("position needs 'startpos' or 'fen <FEN>', optionally followed by 'moves …'");
                return;
            }
        };
        let mut history = Vec::new();
        for &text in moves {
            match pos.parse_uci(text) {
                Ok(m) => {
                    history.push(pos.hash());
                    pos.play_unchecked(m);
                    if pos.halfmoves() == 0 {
                        history.clear();
                    }
                }
                Err(e) => {
                    info_string(&format!("illegal move '{text}' ({e}); position kept after the last legal move"));
                    break;
                }
            }
        }
        self.pos = pos;
        self.history = history;
    }

    fn setoption(&mut self, args: &[&str]) {
        let name_at = args.iter().position(|&t| t.eq_ignore_ascii_case("name"));
        let value_at = args.iter().position(|&t| t.eq_ignore_ascii_case("value"));
        let Some(n) = name_at else {
            info_string("setoption needs 'name <option> [value <value>]'");
            return;
        };
        let name = args[n + 1..value_at.unwrap_or(args.len()).max(n + 1)].join(" ");
        let value = value_at.map(|v| args[v + 1..].join(" ")).unwrap_or_default();
        let spin = |min: i64, max: i64| -> Option<i64> {
            match value.trim().parse::<i64>() {
                Ok(v) => Some(v.clamp(min, max)),
                Err(_) => {
                    info_string(&format!("option {name}: '{value}' is not a number"));
                    None
                }
            }
        };
        let check = || -> Option<bool> {
            match value.trim().to_ascii_lowercase().as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => {
                    info_string(&format!("option {name}: '{value}' is not true or false"));
                    None
                }
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                if let Some(v) = spin(1, i64::MAX) {
                    let max = self.max_hash_mb;
                    let asked = usize::try_from(v).unwrap_or(usize::MAX);
                    if asked > max {
                        info_string(&format!(
                            "Hash {asked} is more than half of this machine's memory: using {max} MB"
                        ));
                    }
                    self.engine.set_hash(asked.min(max));
                    let got = self.engine.tt().size_mb();
                    if got < asked.min(max) {
                        info_string(&format!("not enough memory for Hash {}: using {got} MB", asked.min(max)));
                    }
                }
            }
            "threads" => {
                if let Some(v) = spin(1, MAX_THREADS as i64) {
                    self.engine.options.threads = v as usize;
                }
            }
            "multipv" => {
                if let Some(v) = spin(1, 256) {
                    self.engine.options.multipv = v as usize;
                }
            }
            "move overhead" => {
                if let Some(v) = spin(0, 5000) {
                    self.engine.options.move_overhead = Duration::from_millis(v as u64);
                }
            }
            // A fresh table instead of writing every entry: immediate even for gigabytes.
            "clear hash" => self.engine.renew_hash(),
            "uci_showwdl" => {
                if let Some(v) = check() {
                    self.show_wdl = v;
                }
            }
            "syzygypath" => {
                let path = value.trim();
                self.engine.options.syzygy = None;
                if path.is_empty() || path == "<empty>" {
                    return;
                }
                let mut tables = guoxiang_syzygy::Tablebase::new();
                match tables.add_paths(path) {
                    Ok(0) => self.notices.push(format!("SyzygyPath {path}: no Syzygy tables (.rtbw) found there")),
                    Ok(n) => {
                        self.notices
                            .push(format!("SyzygyPath {path}: {n} tables, up to {} pieces", tables.max_pieces()));
                        self.engine.options.syzygy = Some(guoxiang_engine::tb::Syzygy {
                            tables: std::sync::Arc::new(tables),
                            probe_limit: self.syzygy_limit,
                            probe_depth: self.syzygy_depth,
                            rule50: self.syzygy_rule50,
                        });
                    }
                    Err(e) => self.notices.push(format!("SyzygyPath {path}: {e}; no tables are used")),
                }
            }
            "syzygyprobelimit" => {
                if let Some(v) = spin(0, 7) {
                    self.syzygy_limit = v as u32;
                    if let Some(tb) = self.engine.options.syzygy.as_mut() {
                        tb.probe_limit = self.syzygy_limit;
                    }
                }
            }
            "syzygyprobedepth" => {
                if let Some(v) = spin(1, 100) {
                    self.syzygy_depth = v as i32;
                    if let Some(tb) = self.engine.options.syzygy.as_mut() {
                        tb.probe_depth = self.syzygy_depth;
                    }
                }
            }
            "syzygy50moverule" => {
                if let Some(v) = check() {
                    self.syzygy_rule50 = v;
                    if let Some(tb) = self.engine.options.syzygy.as_mut() {
                        tb.rule50 = v;
                    }
                }
            }
            "ponder" => {
                let _ = check();
            }
            "singularextensions" => {
                if let Some(v) = check() {
                    self.engine.options.singular_extensions = v;
                }
            }
            "continuationhistory" => {
                if let Some(v) = check() {
                    self.engine.options.continuation_history = v;
                }
            }
            "use nnue" => {
                if let Some(v) = check() {
                    self.engine.options.nnue = v.then(|| self.eval_file.clone().unwrap_or_else(Network::embedded));
                }
            }
            "evalfile" => {
                let path = value.trim();
                if path.is_empty() || path == "<embedded>" {
                    self.eval_file = None;
                } else {
                    match Network::load(std::path::Path::new(path)) {
                        Ok(net) => self.eval_file = Some(std::sync::Arc::new(net)),
                        Err(e) => {
                            info_string(&format!("EvalFile {e}; the network is unchanged"));
                            return;
                        }
                    }
                }
                if self.engine.options.nnue.is_some() {
                    self.engine.options.nnue = Some(self.eval_file.clone().unwrap_or_else(Network::embedded));
                }
            }
            "uci_chess960" => {
                if let Some(v) = check() {
                    self.chess960 = v;
                    self.pos.set_chess960(v);
                }
            }
            "uci_limitstrength" => {
                if let Some(v) = check() {
                    self.limit_strength = v;
                }
            }
            "uci_elo" => {
                if let Some(v) = spin(MIN_ELO as i64, MAX_ELO as i64) {
                    self.elo = v as u32;
                }
            }
            "skill level" => {
                if let Some(v) = spin(0, 20) {
                    self.skill = v as u32;
                }
            }
            _ => info_string(&format!("unknown option '{name}'")),
        }
    }

    fn level(&self) -> Option<guoxiang_engine::Level> {
        if self.limit_strength {
            Some(*levels::from_elo(self.elo))
        } else if self.skill < 20 {
            Some(*levels::from_skill(self.skill))
        } else {
            None
        }
    }

    fn go(&mut self, args: &[&str]) {
        let start = Instant::now();
        let mut limits = Limits::default();
        let mut i = 0;
        let ms = |t: Option<&&str>| -> Result<Duration, String> {
            let t = t.ok_or("missing value")?;
            let v: i64 = t.parse().map_err(|_| format!("'{t}' is not a number"))?;
            Ok(Duration::from_millis(v.max(0) as u64))
        };
        let num = |t: Option<&&str>| -> Result<u64, String> {
            let t = t.ok_or("missing value")?;
            let v: i64 = t.parse().map_err(|_| format!("'{t}' is not a number"))?;
            Ok(v.max(0) as u64)
        };
        while i < args.len() {
            let key = args[i];
            let next = args.get(i + 1);
            let r: Result<(), String> = match key {
                "wtime" => ms(next).map(|v| limits.wtime = Some(v)),
                "btime" => ms(next).map(|v| limits.btime = Some(v)),
                "winc" => ms(next).map(|v| limits.winc = Some(v)),
                "binc" => ms(next).map(|v| limits.binc = Some(v)),
                "movetime" => ms(next).map(|v| limits.movetime = Some(v)),
                "movestogo" => num(next).map(|v| limits.movestogo = Some(v.min(1000) as u32)),
                "depth" => num(next).map(|v| limits.depth = Some(v.clamp(1, 255) as u32)),
                "nodes" => num(next).map(|v| limits.nodes = Some(v.max(1))),
                "mate" => num(next).map(|v| limits.mate = Some(v.clamp(1, 100) as u32)),
                "infinite" => {
                    limits.infinite = true;
                    i += 1;
                    continue;
                }
                "ponder" => {
                    limits.ponder = true;
                    i += 1;
                    continue;
                }
                "searchmoves" => {
                    i += 1;
                    while let Some(&t) = args.get(i) {
                        match self.pos.parse_uci(t) {
                            Ok(m) => limits.searchmoves.push(m),
                            Err(_) if is_go_keyword(t) => break,
                            Err(e) => info_string(&format!("searchmoves: ignoring '{t}' ({e})")),
                        }
                        i += 1;
                    }
                    continue;
                }
                _ => Err("unknown keyword".to_string()),
            };
            match r {
                Ok(()) => i += 2,
                Err(e) => {
                    info_string(&format!("go: '{key}': {e}"));
                    i += 1;
                }
            }
        }
        if let Some(m) = limits.mate
            && limits.depth.is_none()
        {
            // A mate in n needs 2n - 1 plies; leave some room for the extensions to find it.
            limits.depth = Some((2 * m + 1).min(255));
        }

        let mut engine = self.engine.clone();
        engine.options.level = self.level();
        engine.options.seed =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        let control = Control::default();
        control.ponder.store(limits.ponder, Ordering::Relaxed);
        let pos = self.pos.clone();
        let history = self.history.clone();
        let c = control.clone();
        let show_wdl = self.show_wdl;
        let spawned = std::thread::Builder::new().name("search".into()).stack_size(64 << 20).spawn(move || {
            let last: std::sync::Mutex<Option<Info>> = std::sync::Mutex::new(None);
            let reporter = |info: &Info| {
                if info.multipv == 1
                    && let Ok(mut l) = last.lock()
                {
                    *l = Some(info.clone());
                }
                send(&info_line(&pos, info, show_wdl));
            };
            let r = engine.search(&pos, &history, &limits, &c, &reporter, start);
            // The move played must begin the last line shown (a GUI shows it as the plan; a referee such as
            // fastchess checks it). A search stopped inside an iteration may choose another move than that line's,
            // and a weak level picks its own: the chosen move is then shown with its score before `bestmove`.
            let last = last.into_inner().unwrap_or_else(|e| e.into_inner());
            if let (Some(b), Some(mut l)) = (r.best, last)
                && l.pv.first() != Some(&b)
            {
                l.pv = std::iter::once(b).chain(r.ponder).collect();
                l.score = r.score;
                l.bound = None;
                l.nodes = r.nodes;
                l.time = start.elapsed();
                send(&info_line(&pos, &l, show_wdl));
            }
            match (r.best, r.ponder) {
                (Some(b), Some(p)) => send(&format!("bestmove {} ponder {}", pos.uci(b), pos.after(b).uci(p))),
                (Some(b), None) => send(&format!("bestmove {}", pos.uci(b))),
                _ => send("bestmove 0000"),
            }
        });
        match spawned {
            Ok(handle) => self.search = Some(Running { handle, control }),
            Err(e) => {
                info_string(&format!("cannot start the search thread: {e}"));
                send("bestmove 0000");
            }
        }
    }
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

/// `info depth … pv …` for one line of the search (with `wdl W D L` after the score when `show_wdl`).
fn info_line(root: &Position, info: &Info, show_wdl: bool) -> String {
    let mut s =
        format!("info depth {} seldepth {} multipv {} score {}", info.depth, info.seldepth, info.multipv, info.score);
    match info.bound {
        Some(guoxiang_engine::Bound::Lower) => s.push_str(" lowerbound"),
        Some(guoxiang_engine::Bound::Upper) => s.push_str(" upperbound"),
        _ => {}
    }
    if show_wdl {
        let [w, d, l] = info.score.wdl();
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
    s.push_str(&format!(" nodes {} nps {} hashfull {}", info.nodes, info.nps(), info.hashfull));
    if info.tbhits > 0 {
        s.push_str(&format!(" tbhits {}", info.tbhits));
    }
    s.push_str(&format!(" time {} pv", info.time.as_millis()));
    let mut pos = root.clone();
    for &m in &info.pv {
        if !pos.is_legal(m) {
            break; // never print a move that is not legal in the line
        }
        s.push(' ');
        s.push_str(&pos.uci(m));
        pos.play_unchecked(m);
    }
    s
}
