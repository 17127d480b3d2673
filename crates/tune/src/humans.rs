//! The strength levels measured against people: how often players of a rating band play the engine's best move,
//! how often they make a mistake or a blunder, and which kinds of blunder (a hung piece, an allowed fork, a missed
//! mate) and with which piece — and the same for each level on the same positions, with how often the level plays
//! the very move the person played (move matching, as the Maia papers measure it).
//!
//! Positions come from rated games (PGN with `WhiteElo`/`BlackElo`): after the first `skip` plies, at most
//! `per_game` positions per player and game, `per_band` positions per rating band, chosen at random with a fixed
//! seed. Each position and the position after the person's move are judged by the full-strength engine at a fixed
//! node budget with the game review's rule (guoxiang-review: expected score, loss in points, class, and the kind of
//! error its explanation names). A level's move in the same position is judged the same way. The judgements of the
//! people's moves can be written to a cache and read back, so that trial tables of level settings cost only the
//! levels' searches. See docs/engine.md, "Levels against people".

use crate::levels::read_table;
use guoxiang_core::{Color, Move, Position, Role, UciMove};
use guoxiang_engine::levels::{LEVELS, Level};
use guoxiang_engine::{Control, Engine, Limits, Silent};
use guoxiang_pgn::{Reader, Replayer};
use guoxiang_review::explain::Kind;
use guoxiang_review::{Eval, Judgement, MoveReview, judge, review_move};
use guoxiang_tactics::Motif;
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Rating bands: lower bound inclusive, upper exclusive.
pub const BANDS: [(u32, u32); 8] =
    [(800, 1000), (1000, 1200), (1200, 1400), (1400, 1600), (1600, 1800), (1800, 2000), (2000, 2200), (2200, 4000)];

/// A loss of at least this many points of winning chances is a blunder here (the "loses ≥ 0.3").
pub const BLUNDER: f64 = 30.0;
/// A loss of at least this many points is a mistake or worse (the review's mistake threshold).
pub const MISTAKE: f64 = 8.0;

/// A band with fewer positions than this is not used as a level's band.
const MIN_BAND: usize = 100;

/// What the run is asked to do.
pub struct Settings {
    pub pgn: Vec<String>,
    pub per_band: usize,
    pub per_game: usize,
    pub skip: usize,
    pub min_base: u32,
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    pub cache: Option<String>,
    pub table: Option<String>,
    pub levels: (u8, u8),
}

/// One person's move, judged.
struct Sample {
    band: usize,
    rating: u32,
    before: Position,
    /// The game's positions before `before` since the last capture or pawn move (hashes, oldest first).
    history: Vec<u64>,
    ply: usize,
    human: Move,
    jb: Judgement,
    ja: Judgement,
}

/// A candidate position before it is judged.
struct Candidate {
    band: usize,
    rating: u32,
    before: Position,
    history: Vec<u64>,
    ply: usize,
    human: Move,
}

fn band_of(rating: u32) -> Option<usize> {
    BANDS.iter().position(|&(lo, hi)| (lo..hi).contains(&rating))
}

fn band_name(b: usize) -> String {
    let (lo, hi) = BANDS[b];
    if hi >= 4000 { format!("{lo}+") } else { format!("{lo}–{}", hi - 1) }
}

/// Reads the games and picks the positions.
fn candidates(s: &Settings) -> Result<Vec<Candidate>, String> {
    let mut by_band: Vec<Vec<Candidate>> = (0..BANDS.len()).map(|_| Vec::new()).collect();
    let mut rng = StdRng::seed_from_u64(s.seed);
    for path in &s.pgn {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let mut reader = Reader::new(BufReader::new(file));
        let mut replayer = Replayer::new();
        loop {
            let g = match reader.read_game(&mut replayer) {
                Ok(None) => break,
                Ok(Some(g)) => g,
                Err(e) if e.is_io() => return Err(format!("{path}: {e}")),
                Err(_) => continue,
            };
            if !g.errors.is_empty() || g.tag("FEN").is_some() || g.tag("Variant").is_some_and(|v| v != "Standard") {
                continue;
            }
            let rating = |tag: &str| g.tag(tag).and_then(|v| v.parse::<u32>().ok());
            let (Some(white), Some(black)) = (rating("WhiteElo"), rating("BlackElo")) else { continue };
            let base = g.tag("TimeControl").and_then(|tc| tc.split('+').next()?.parse::<u32>().ok()).unwrap_or(0);
            if base < s.min_base {
                continue;
            }
            let mut pos = g.start.clone();
            let mut history: Vec<u64> = Vec::new();
            let mut mine: [Vec<Candidate>; 2] = [Vec::new(), Vec::new()];
            for (i, &m) in g.moves.iter().enumerate() {
                let side = pos.turn();
                let r = if side == Color::White { white } else { black };
                if i >= s.skip
                    && let Some(band) = band_of(r)
                    && pos.count_legal() > 1
                {
                    mine[usize::from(side == Color::Black)].push(Candidate {
                        band,
                        rating: r,
                        before: pos.clone(),
                        history: history.clone(),
                        ply: i + 1,
                        human: m,
                    });
                }
                history.push(pos.hash());
                pos.play_unchecked(m);
                if pos.halfmoves() == 0 {
                    history.clear();
                }
            }
            for mut v in mine {
                v.shuffle(&mut rng);
                v.truncate(s.per_game);
                for c in v {
                    by_band[c.band].push(c);
                }
            }
        }
    }
    let mut out = Vec::new();
    for mut v in by_band {
        v.shuffle(&mut rng);
        v.truncate(s.per_band);
        out.extend(v);
    }
    Ok(out)
}

fn uci(m: Move) -> String {
    UciMove::from_move(m, false).to_string()
}

fn eval_json(e: Eval) -> Value {
    serde_json::to_value(e).unwrap_or(Value::Null)
}

fn eval_from(v: &Value) -> Option<Eval> {
    if let Some(c) = v.get("cp").and_then(Value::as_i64) {
        return Some(Eval::Cp(c as i32));
    }
    v.get("mate").and_then(Value::as_i64).map(|m| Eval::Mate(m as i32))
}

fn judgement_json(j: &Judgement) -> Value {
    json!({
        "eval": eval_json(j.eval),
        "line": j.line.iter().map(|&m| uci(m)).collect::<Vec<_>>(),
        "second": j.second,
        "second_line": j.second_line.map(|(m, e)| json!([uci(m), eval_json(e)])),
        "legal": j.legal,
    })
}

fn parse_move(pos: &Position, s: &str) -> Option<Move> {
    s.parse::<UciMove>().ok()?.to_move(pos).ok()
}

fn judgement_from(v: &Value, pos: &Position) -> Option<Judgement> {
    let eval = eval_from(v.get("eval")?)?;
    let mut line = Vec::new();
    let mut p = pos.clone();
    for m in v.get("line")?.as_array()? {
        let m = parse_move(&p, m.as_str()?)?;
        p.play_unchecked(m);
        line.push(m);
    }
    let second_line = match v.get("second_line") {
        Some(Value::Array(a)) if a.len() == 2 => Some((parse_move(pos, a[0].as_str()?)?, eval_from(&a[1])?)),
        _ => None,
    };
    Some(Judgement {
        eval,
        expected: eval.expected(),
        line,
        second: v.get("second").and_then(Value::as_f64),
        second_line,
        legal: v.get("legal")?.as_u64()? as usize,
    })
}

fn sample_json(s: &Sample) -> Value {
    json!({
        "band": s.band,
        "rating": s.rating,
        "fen": s.before.fen(),
        "history": s.history.iter().map(|h| format!("{h:016x}")).collect::<Vec<_>>(),
        "ply": s.ply,
        "human": uci(s.human),
        "jb": judgement_json(&s.jb),
        "ja": judgement_json(&s.ja),
    })
}

fn sample_from(line: &str) -> Option<Sample> {
    let v: Value = serde_json::from_str(line).ok()?;
    let before = Position::from_fen(v.get("fen")?.as_str()?).ok()?;
    let human = parse_move(&before, v.get("human")?.as_str()?)?;
    let after = before.after(human);
    let history = v
        .get("history")?
        .as_array()?
        .iter()
        .map(|h| h.as_str().and_then(|h| u64::from_str_radix(h, 16).ok()))
        .collect::<Option<Vec<u64>>>()?;
    Some(Sample {
        band: v.get("band")?.as_u64()? as usize,
        rating: v.get("rating")?.as_u64()? as u32,
        jb: judgement_from(v.get("jb")?, &before)?,
        ja: judgement_from(v.get("ja")?, &after)?,
        before,
        history,
        ply: v.get("ply")?.as_u64()? as usize,
        human,
    })
}

fn progress(total: usize, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} [{elapsed_precise}, eta {eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(what.to_string());
    bar
}

/// Runs `f` over `items` on `threads` threads, in order of the results.
fn parallel<T: Sync, R: Send>(items: &[T], threads: usize, bar: &ProgressBar, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|sc| {
        for _ in 0..threads.max(1) {
            sc.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    if let Ok(mut v) = results.lock() {
                        v[i] = Some(r);
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish();
    results.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten().collect()
}

/// The history the review gives the search of the position after `before` (see guoxiang-review's loop).
fn history_after(before: &Position, history: &[u64], m: Move) -> Vec<u64> {
    if before.after(m).halfmoves() == 0 {
        Vec::new()
    } else {
        let mut h = history.to_vec();
        h.push(before.hash());
        h
    }
}

fn reference_engine() -> Engine {
    let mut e = Engine::new(32);
    e.options.multipv = 2;
    // The judge of the calibration in docs/engine.md (and of its cache files): the hand-written evaluation.
    e.options.nnue = None;
    e
}

/// Judges the people's moves (or reads them from the cache).
fn judged(s: &Settings) -> Result<Vec<Sample>, String> {
    if let Some(path) = &s.cache
        && std::path::Path::new(path).exists()
    {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let mut out = Vec::new();
        for (i, line) in BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            out.push(sample_from(&line).ok_or_else(|| format!("{path}:{}: not a judged position", i + 1))?);
        }
        eprintln!("{} judged positions read from {path}", out.len());
        return Ok(out);
    }
    let cands = candidates(s)?;
    if cands.is_empty() {
        return Err("no rated positions in the games given".into());
    }
    let bar = progress(cands.len(), "people's moves");
    let nodes = s.nodes;
    let out: Vec<Sample> = parallel(&cands, s.threads, &bar, |c| {
        thread_local! { static ENGINE: Engine = reference_engine(); }
        ENGINE.with(|engine| {
            let jb = judge(engine, &c.before, &c.history, nodes);
            let after = c.before.after(c.human);
            let ja = judge(engine, &after, &history_after(&c.before, &c.history, c.human), nodes);
            Sample {
                band: c.band,
                rating: c.rating,
                before: c.before.clone(),
                history: c.history.clone(),
                ply: c.ply,
                human: c.human,
                jb,
                ja,
            }
        })
    });
    if let Some(path) = &s.cache {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?);
        for x in &out {
            writeln!(f, "{}", sample_json(x)).map_err(|e| format!("{path}: {e}"))?;
        }
        f.flush().map_err(|e| format!("{path}: {e}"))?;
        eprintln!("{} judged positions written to {path}", out.len());
    }
    Ok(out)
}

/// One move, judged: what the tables count.
#[derive(Clone)]
struct Outcome {
    best: bool,
    loss: f64,
    kind: Option<Kind>,
    /// The motifs the review's sentence names (a fork allowed, a mate missed, …).
    motifs: Vec<Motif>,
    piece: Role,
    /// Whether the move is the person's (for a level's moves).
    matches: bool,
    /// Search time (a level's move), seconds.
    time: f64,
}

fn outcome(before: &Position, m: Move, r: &MoveReview, jb: &Judgement) -> Outcome {
    Outcome {
        best: jb.best() == Some(m),
        loss: r.loss,
        kind: r.kind,
        motifs: r.motifs.clone(),
        piece: before.role_at(m.from()).unwrap_or(Role::Pawn),
        matches: false,
        time: 0.0,
    }
}

fn human_outcome(x: &Sample) -> Outcome {
    let after = x.before.after(x.human);
    let r = review_move(&x.before, x.human, &x.jb, &x.ja, &after, x.ply);
    Outcome { matches: true, ..outcome(&x.before, x.human, &r, &x.jb) }
}

/// Figures of a set of moves.
#[derive(Default, Clone)]
struct Figures {
    n: usize,
    best: usize,
    mistakes: usize,
    blunders: usize,
    matches: usize,
    loss: f64,
    time: f64,
    kinds: BTreeMap<Kind, usize>,
    motifs: BTreeMap<Motif, usize>,
    pieces: BTreeMap<u8, usize>,
    rating: f64,
}

impl Figures {
    fn add(&mut self, o: &Outcome, rating: u32) {
        self.n += 1;
        self.best += usize::from(o.best);
        self.mistakes += usize::from(o.loss >= MISTAKE);
        self.matches += usize::from(o.matches);
        self.loss += o.loss;
        self.time += o.time;
        self.rating += f64::from(rating);
        if o.loss >= BLUNDER {
            self.blunders += 1;
            *self.kinds.entry(o.kind.unwrap_or(Kind::Positional)).or_default() += 1;
            for &m in &o.motifs {
                *self.motifs.entry(m).or_default() += 1;
            }
            *self.pieces.entry(piece_index(o.piece)).or_default() += 1;
        }
    }

    fn rate(&self, k: usize) -> f64 {
        if self.n == 0 { 0.0 } else { 100.0 * k as f64 / self.n as f64 }
    }

    /// A rate with its 95 % error (normal approximation), in percent.
    fn pct(&self, k: usize) -> String {
        let p = self.rate(k) / 100.0;
        let e = if self.n == 0 { 0.0 } else { 196.0 * (p * (1.0 - p) / self.n as f64).sqrt() };
        format!("{:.1} ± {:.1}", 100.0 * p, e)
    }

    /// The share of blunders of each kind, most frequent first: "positional 40 · allows a tactic 25 · …".
    fn kinds_text(&self) -> String {
        let mut v: Vec<(Kind, usize)> = self.kinds.iter().map(|(&k, &n)| (k, n)).collect();
        v.sort_by_key(|&(k, n)| (std::cmp::Reverse(n), k));
        v.iter()
            .map(|(k, n)| format!("{} {:.0}", k.en(), 100.0 * *n as f64 / self.blunders.max(1) as f64))
            .collect::<Vec<_>>()
            .join(" · ")
    }

    /// The share of blunders naming each motif, most frequent first (at most five): "fork 12 · hanging piece 9".
    fn motifs_text(&self) -> String {
        let mut v: Vec<(Motif, usize)> = self.motifs.iter().map(|(&m, &n)| (m, n)).collect();
        v.sort_by_key(|&(m, n)| (std::cmp::Reverse(n), m));
        v.iter()
            .take(5)
            .map(|(m, n)| {
                format!("{} {:.0}", m.info().en.to_lowercase(), 100.0 * *n as f64 / self.blunders.max(1) as f64)
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }

    fn pieces_text(&self) -> String {
        const NAMES: [&str; 6] = ["P", "N", "B", "R", "Q", "K"];
        (0..6u8)
            .map(|i| {
                let n = self.pieces.get(&i).copied().unwrap_or(0);
                format!("{} {:.0}", NAMES[i as usize], 100.0 * n as f64 / self.blunders.max(1) as f64)
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

fn piece_index(r: Role) -> u8 {
    match r {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

/// Weighted least-squares line through (mean rating, rate) of the bands; the rate at `elo`.
fn fitted(bands: &[Figures], rate: impl Fn(&Figures) -> f64, elo: f64) -> f64 {
    let pts: Vec<(f64, f64, f64)> =
        bands.iter().filter(|f| f.n >= MIN_BAND).map(|f| (f.rating / f.n as f64, rate(f), f.n as f64)).collect();
    let w: f64 = pts.iter().map(|p| p.2).sum();
    if pts.len() < 2 || w == 0.0 {
        return pts.first().map_or(0.0, |p| p.1);
    }
    let mx = pts.iter().map(|p| p.0 * p.2).sum::<f64>() / w;
    let my = pts.iter().map(|p| p.1 * p.2).sum::<f64>() / w;
    let sxy: f64 = pts.iter().map(|p| p.2 * (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pts.iter().map(|p| p.2 * (p.0 - mx) * (p.0 - mx)).sum();
    if sxx == 0.0 { my } else { my + sxy / sxx * (elo - mx) }
}

/// The band a level plays against: the one its Elo falls in, or the nearest with enough positions.
fn level_band(level: &Level, bands: &[Figures]) -> Option<usize> {
    let usable: Vec<usize> = (0..BANDS.len()).filter(|&b| bands[b].n >= MIN_BAND).collect();
    usable.iter().copied().min_by_key(|&b| {
        let (lo, hi) = BANDS[b];
        if (lo..hi).contains(&level.elo) { 0 } else { level.elo.abs_diff(lo).min(level.elo.abs_diff(hi - 1)) }
    })
}

/// A level's move in a position, judged.
fn level_outcome(level: &Level, x: &Sample, human: &Outcome, nodes: u64) -> Outcome {
    thread_local! {
        static ENGINES: (Engine, Engine) = (Engine::new(4), reference_engine());
    }
    ENGINES.with(|(weak, reference)| {
        let mut weak = weak.clone();
        weak.clear_hash();
        weak.options.level = Some(*level);
        weak.options.seed = 0x5EED ^ (x.ply as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let t = Instant::now();
        let r = weak.search(&x.before, &x.history, &Limits::default(), &Control::default(), &Silent, t);
        let time = t.elapsed().as_secs_f64();
        let Some(m) = r.best else { return Outcome { time, ..human.clone() } };
        if m == x.human {
            return Outcome { matches: true, time, ..human.clone() };
        }
        let piece = x.before.role_at(m.from()).unwrap_or(Role::Pawn);
        if x.jb.best() == Some(m) {
            return Outcome { best: true, loss: 0.0, kind: None, motifs: Vec::new(), piece, matches: false, time };
        }
        let after = x.before.after(m);
        let ja = judge(reference, &after, &history_after(&x.before, &x.history, m), nodes);
        let rv = review_move(&x.before, m, &x.jb, &ja, &after, x.ply);
        Outcome { time, ..outcome(&x.before, m, &rv, &x.jb) }
    })
}

/// Runs the measurement; the tables, in Markdown.
pub fn run(s: &Settings) -> Result<String, String> {
    use std::fmt::Write as _;
    let mut out = String::new();
    let samples = judged(s)?;
    let humans: Vec<Outcome> = samples.iter().map(human_outcome).collect();
    let mut bands: Vec<Figures> = vec![Figures::default(); BANDS.len()];
    for (x, o) in samples.iter().zip(&humans) {
        bands[x.band].add(o, x.rating);
    }
    let _ = writeln!(out, "## People (reference: full strength, {} nodes per position)\n", s.nodes);
    let _ = writeln!(
        out,
        "| band | positions | mean rating | best move % | mistake or worse (≥ {MISTAKE:.0}) % | blunder (≥ {BLUNDER:.0}) % \
         | mean loss | blunders by kind % | motifs named in blunders % | blunders by piece moved % |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---|---|---|");
    for (b, f) in bands.iter().enumerate() {
        if f.n == 0 {
            continue;
        }
        let _ = writeln!(
            out,
            "| {} | {} | {:.0} | {} | {} | {} | {:.1} | {} | {} | {} |",
            band_name(b),
            f.n,
            f.rating / f.n as f64,
            f.pct(f.best),
            f.pct(f.mistakes),
            f.pct(f.blunders),
            f.loss / f.n as f64,
            f.kinds_text(),
            f.motifs_text(),
            f.pieces_text()
        );
    }
    let table = match &s.table {
        Some(path) => read_table(path)?,
        None => LEVELS.to_vec(),
    };
    let levels: Vec<Level> = table
        .iter()
        .filter(|l| (s.levels.0..=s.levels.1).contains(&l.number) && !l.is_full_strength())
        .copied()
        .collect();
    if levels.is_empty() {
        return Ok(out);
    }
    let mut by_band: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, x) in samples.iter().enumerate() {
        by_band.entry(x.band).or_default().push(i);
    }
    let _ = writeln!(
        out,
        "\n## Levels on the positions of their band (target: the bands' line at the level's Elo)\n\n\
         | level | Elo | band | positions | best move %: target → level | blunder %: target → level \
         | mistake or worse %: target → level | mean loss | matches the person's move % | blunders by kind % \
         | motifs named in blunders % | blunders by piece moved % | ms per move |"
    );
    let _ = writeln!(out, "|---|---:|---|---:|---|---|---|---:|---:|---|---|---|---:|");
    for level in &levels {
        let Some(b) = level_band(level, &bands) else { continue };
        let idx = by_band.get(&b).cloned().unwrap_or_default();
        let bar = progress(idx.len(), &format!("level {}", level.number));
        let outs = parallel(&idx, s.threads, &bar, |&i| level_outcome(level, &samples[i], &humans[i], s.nodes));
        let mut f = Figures::default();
        for (&i, o) in idx.iter().zip(&outs) {
            f.add(o, samples[i].rating);
        }
        let elo = f64::from(level.elo);
        let tb = fitted(&bands, |g| g.rate(g.best), elo);
        let tl = fitted(&bands, |g| g.rate(g.blunders), elo);
        let tm = fitted(&bands, |g| g.rate(g.mistakes), elo);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.1} → {} | {:.1} → {} | {:.1} → {} | {:.1} | {} | {} | {} | {} | {:.1} |",
            level.number,
            level.elo,
            band_name(b),
            f.n,
            tb,
            f.pct(f.best),
            tl,
            f.pct(f.blunders),
            tm,
            f.pct(f.mistakes),
            f.loss / f.n.max(1) as f64,
            f.pct(f.matches),
            f.kinds_text(),
            f.motifs_text(),
            f.pieces_text(),
            1000.0 * f.time / f.n.max(1) as f64
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_cover_the_ratings() {
        assert_eq!(band_of(799), None);
        assert_eq!(band_of(800), Some(0));
        assert_eq!(band_of(1199), Some(1));
        assert_eq!(band_of(1200), Some(2));
        assert_eq!(band_of(2950), Some(7));
        assert_eq!(band_name(1), "1000–1199");
        assert_eq!(band_name(7), "2200+");
    }

    #[test]
    fn the_line_through_the_bands() {
        let band =
            |rating: f64, n: usize, best: usize| Figures { n, best, rating: rating * n as f64, ..Figures::default() };
        // 30 % at 1100, 40 % at 1300, 50 % at 1500: 10 points per 200 Elo.
        let mut bands = vec![Figures::default(); BANDS.len()];
        bands[..4].clone_from_slice(&[
            band(900.0, 5, 5),
            band(1100.0, 200, 60),
            band(1300.0, 200, 80),
            band(1500.0, 200, 100),
        ]);
        let at = |elo| fitted(&bands, |f| f.rate(f.best), elo);
        assert!((at(1300.0) - 40.0).abs() < 1e-9);
        assert!((at(900.0) - 20.0).abs() < 1e-9, "the small band is left out: {}", at(900.0));
        assert!((at(1700.0) - 60.0).abs() < 1e-9);
        let mut level = LEVELS[0];
        level.elo = 800;
        assert_eq!(level_band(&level, &bands), Some(1), "the lowest band with enough positions");
        level.elo = 1450;
        assert_eq!(level_band(&level, &bands), Some(3));
        level.elo = 2300;
        assert_eq!(level_band(&level, &bands), Some(3), "the highest band with enough positions");
    }

    #[test]
    fn a_judged_position_reads_back_as_written() {
        let before = Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
        let human = parse_move(&before, "f1c4").unwrap();
        let engine = reference_engine();
        let jb = judge(&engine, &before, &[], 3_000);
        let ja = judge(&engine, &before.after(human), &[before.hash()], 3_000);
        let x = Sample { band: 3, rating: 1510, history: vec![42, u64::MAX], ply: 5, human, jb, ja, before };
        let text = sample_json(&x).to_string();
        let y = sample_from(&text).expect("reads back");
        assert_eq!((y.band, y.rating, y.ply, y.human, &y.history), (3, 1510, 5, human, &x.history));
        assert_eq!(y.before.fen(), x.before.fen());
        assert_eq!(y.jb, x.jb);
        assert_eq!(y.ja, x.ja);
        assert!(sample_from("{\"band\": 1}").is_none());
        // A person's move, judged: Bc4 in the Italian is no error.
        let o = human_outcome(&y);
        assert!(o.matches && o.loss < MISTAKE && o.kind.is_none(), "loss {}", o.loss);
    }

    fn settings(pgn: Vec<String>, cache: Option<String>, per_band: usize, levels: (u8, u8)) -> Settings {
        Settings {
            pgn,
            per_band,
            per_game: 3,
            skip: 10,
            min_base: 0,
            nodes: 400,
            threads: 2,
            seed: 1,
            cache,
            table: None,
            levels,
        }
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("gx-humans-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn rated_games_only_and_bad_games_skipped() {
        let dir = temp("small");
        let pgn = dir.join("g.pgn");
        let game =
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7";
        std::fs::write(
            &pgn,
            format!(
                "[White \"a\"]\n[Black \"b\"]\n[WhiteElo \"1510\"]\n[BlackElo \"1590\"]\n[Result \"*\"]\n\n{game} *\n\n\
                 [White \"c\"]\n[Black \"d\"]\n[Result \"*\"]\n\n{game} *\n\n\
                 [White \"e\"]\n[Black \"f\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n"
            ),
        )
        .unwrap();
        let cache = dir.join("c.jsonl");
        let s = settings(vec![pgn.display().to_string()], Some(cache.display().to_string()), 50, (1, 1));
        let out = run(&s).expect("runs");
        // The rated game gives 3 positions of each player (after ply 10): 6 in 1400–1599; the unrated one and the
        // one with an illegal move give none.
        assert!(out.contains("| 1400–1599 | 6 |"), "{out}");
        assert_eq!(out.matches("\n| 1").count(), 1, "one band row: {out}");
        // Read back from the cache: the same tables.
        let again = run(&settings(Vec::new(), Some(cache.display().to_string()), 50, (1, 1))).expect("from the cache");
        assert_eq!(again, out);
        // A damaged cache is refused with its place.
        std::fs::write(&cache, "{\"band\": 1}\n").unwrap();
        let err = run(&settings(Vec::new(), Some(cache.display().to_string()), 50, (1, 1))).unwrap_err();
        assert!(err.ends_with("c.jsonl:1: not a judged position"), "{err}");
        // No rated game at all.
        std::fs::write(&pgn, format!("[White \"c\"]\n[Black \"d\"]\n\n{game} *\n")).unwrap();
        let err = run(&settings(vec![pgn.display().to_string()], None, 50, (1, 1))).unwrap_err();
        assert!(err.contains("no rated positions"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn levels_on_real_games() {
        let data = std::env::var_os("GUOXIANG_DATA")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")));
        let pgn = data.join("pgn/lichess_db_2016-05_excerpt.pgn");
        if !pgn.exists() {
            eprintln!("SKIP: {} not found (set GUOXIANG_DATA)", pgn.display());
            return;
        }
        let out = run(&settings(vec![pgn.display().to_string()], None, 120, (1, 2))).expect("runs");
        for band in ["1000–1199", "1200–1399", "2000–2199"] {
            assert!(out.contains(&format!("| {band} | 120 |")), "{band}: {out}");
        }
        // Levels 1 and 2 play the lowest band with enough positions, and every position gets a move.
        let rows: Vec<&str> =
            out.lines().filter(|l| l.starts_with("| 1 | 800 |") || l.starts_with("| 2 | 1060 |")).collect();
        assert_eq!(rows.len(), 2, "{out}");
        for r in rows {
            assert!(r.contains("| 1000–1199 | 120 |"), "{r}");
        }
    }
}
