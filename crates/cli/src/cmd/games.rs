// SPDX-License-Identifier: GPL-3.0-or-later
//! `guoxiang games`: the opening explorer's databases (docs/explorer.md).
//!
//! - `import FILE.pgn [--database URL] [--force]`: indexes the first `guoxiang_explorer::MAX_PLIES` plies of every
//!   finished standard game of a PGN file into the explorer's `imported` source. Streaming with constant memory:
//!   one thread reads and indexes games into a bounded in-memory `Batch` (at most [`BATCH_KEYS`] distinct keys),
//!   hands it over a channel that holds one more, and the database adds each batch in one transaction. A broken
//!   game is reported on standard error with its game and line number and skipped; games without a result and
//!   non-standard games are counted as skipped. The progress bar (bytes of the file) is drawn on a terminal only.
//!   The file's SHA-256 is recorded at the end: importing the same content again is refused (it would count every
//!   game twice) unless `--force`. An import stopped half-way has added the batches committed so far and recorded
//!   nothing, so it is not refused: running it again counts those batches' games twice.
//! - `synth --games N [--seed S] --out FILE SOURCES.pgn…`: writes a synthetic PGN for benchmarks from real games
//!   (docs/explorer.md "The benchmark's games" says exactly how).
//! - `bench FILE.pgn [--database URL] [--queries N]`: times explorer queries at positions sampled from the games
//!   of a PGN file (docs/benchmarks.md).

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use guoxiang_core::{Move, Position};
use guoxiang_explorer::{Batch, Indexer, MAX_PLIES, Skipped, sha256_hex};
use guoxiang_pgn::{GameResult, Reader, Replayer};
use guoxiang_store::{ExplorerImport, ExplorerRow, ExplorerSource, Store};
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::Counted;

/// Distinct (position, move, speed, rating) keys one batch holds before it is written (`--batch-keys`): one
/// transaction of that many rows; the import's peak memory for a million games was 135 MB with this default.
pub const BATCH_KEYS: usize = 250_000;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: GamesCommand,
}

#[derive(clap::Subcommand)]
enum GamesCommand {
    /// Index a PGN file's games into the opening explorer (source `imported`).
    Import {
        file: PathBuf,
        /// The server's database, as for `guoxiang serve`.
        #[arg(long, env = "GUOXIANG_DATABASE", default_value = "sqlite://guoxiang.db")]
        database: String,
        /// Import even if a file with the same content was imported before (its games then count twice).
        #[arg(long)]
        force: bool,
        /// Distinct keys aggregated in memory before a write (about 300 bytes of memory each, as up to three
        /// batches are held at once): more is faster on a large database (fewer transactions, each rewriting
        /// much of it).
        #[arg(long, default_value_t = BATCH_KEYS)]
        batch_keys: usize,
    },
    /// Write a synthetic PGN for benchmarks: real games' openings, varied, continued with random legal moves.
    Synth {
        /// The real games to start from.
        #[arg(required = true)]
        sources: Vec<PathBuf>,
        /// How many games to write.
        #[arg(long)]
        games: u64,
        /// The random seed (the same seed and sources give the same file).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The output file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Measure explorer queries: positions sampled from a PGN's games (and the start), each asked of the store as
    /// `GET /api/explorer` asks it (rows, summary, opening); prints p50/p95/p99.
    Bench {
        /// Games to sample positions from (e.g. the imported file).
        file: PathBuf,
        #[arg(long, env = "GUOXIANG_DATABASE", default_value = "sqlite://guoxiang.db")]
        database: String,
        /// How many queries.
        #[arg(long, default_value_t = 1000)]
        queries: usize,
        /// Sample from the first N games of the file.
        #[arg(long, default_value_t = 20_000)]
        games: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    match a.command {
        GamesCommand::Import { file, database, force, batch_keys } => {
            import(&file, &database, force, batch_keys.max(1))
        }
        GamesCommand::Synth { sources, games, seed, out } => synth(&sources, games, seed, &out),
        GamesCommand::Bench { file, database, queries, games, seed } => bench(&file, &database, queries, games, seed),
    }
}

/// A sampled position: the line from the start that reaches it.
fn sample_lines(file: &Path, games: usize, queries: usize, seed: u64) -> Result<Vec<Vec<String>>, String> {
    let f = File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut reader = Reader::new(BufReader::new(f));
    let mut replayer = Replayer::new();
    let mut pool: Vec<Vec<Move>> = Vec::new();
    while pool.len() < games {
        match reader.read_game(&mut replayer) {
            Ok(None) => break,
            Ok(Some(g)) if g.errors.is_empty() && g.start.epd() == Position::new().epd() => {
                pool.push(g.moves.into_iter().take(MAX_PLIES).collect());
            }
            Ok(Some(_)) => {}
            Err(e) if e.is_io() => return Err(format!("{}: {e}", file.display())),
            Err(_) => {}
        }
    }
    if pool.is_empty() {
        return Err(format!("{}: no game to sample positions from", file.display()));
    }
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut lines = Vec::with_capacity(queries);
    for i in 0..queries {
        let g = &pool[rng.below(pool.len())];
        // One query in ten at the start (the most popular position, the most rows); the others at any ply.
        let plies = if i % 10 == 0 { 0 } else { rng.below(g.len() + 1) };
        let mut p = Position::new();
        let mut line = Vec::with_capacity(plies);
        for &m in &g[..plies] {
            line.push(p.uci(m));
            p.play_unchecked(m);
        }
        lines.push(line);
    }
    Ok(lines)
}

fn bench(file: &Path, database: &str, queries: usize, games: usize, seed: u64) -> Result<ExitCode, String> {
    let lines = sample_lines(file, games, queries.max(1), seed)?;
    let runtime = crate::cmd::serve::runtime()?;
    runtime.block_on(async {
        let store = Store::connect(database).await.map_err(|e| format!("database {database}: {e}"))?;
        let start = Position::new();
        let mut times = Vec::with_capacity(lines.len());
        let (mut found, mut moves_shown) = (0u64, 0u64);
        let (mut start_ms, mut start_n) = (0.0, 0u64);
        for line in &lines {
            let t = Instant::now();
            // What the handler does: replay the line, read the rows, sum them up, name the opening.
            let mut pos = start.clone();
            for u in line {
                let m = pos.parse_uci(u)?;
                pos.play_unchecked(m);
            }
            let rows = store
                .explorer_rows(ExplorerSource::Imported, pos.hash(), &[], &[])
                .await
                .map_err(|e| format!("database: {e}"))?;
            let summary = guoxiang_explorer::summarize(&pos, &rows);
            let line_refs: Vec<&str> = line.iter().map(String::as_str).collect();
            let _ = guoxiang_explorer::opening_info(&start, &line_refs, &pos);
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            times.push(ms);
            if summary.total.games > 0 {
                found += 1;
            }
            moves_shown += summary.moves.len() as u64;
            if line.is_empty() {
                start_ms += ms;
                start_n += 1;
            }
        }
        store.close().await;
        times.sort_by(f64::total_cmp);
        let q = |p: f64| times[((times.len() as f64 * p).ceil() as usize).clamp(1, times.len()) - 1];
        println!(
            "{} queries ({} with games, {:.1} moves each on average): p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, \
             max {:.2} ms; the start position ({} queries) {:.2} ms on average",
            times.len(),
            found,
            moves_shown as f64 / times.len() as f64,
            q(0.50),
            q(0.95),
            q(0.99),
            times[times.len() - 1],
            start_n,
            start_ms / start_n.max(1) as f64
        );
        Ok(ExitCode::SUCCESS)
    })
}

/// What the reading thread sends: a batch of rows, and the games it counts.
type Sent = (Vec<ExplorerRow>, u64);

/// What the reading thread counted.
#[derive(Debug, Default, Clone, Copy)]
struct ReadCounts {
    games: u64,
    indexed: u64,
    broken: u64,
    skipped: u64,
}

fn read_games(
    file: File,
    batch_keys: usize,
    bar: &ProgressBar,
    tx: &tokio::sync::mpsc::Sender<Sent>,
) -> Result<ReadCounts, String> {
    let mut reader = Reader::new(BufReader::with_capacity(1 << 16, Counted::new(file, bar.clone())));
    let mut indexer = Indexer::new();
    let mut batch = Batch::new();
    let mut c = ReadCounts::default();
    loop {
        let game = match reader.read_game(&mut indexer) {
            Ok(None) => break,
            Ok(Some(g)) => g,
            Err(e) if e.is_io() => return Err(format!("reading: {e}")),
            Err(e) => {
                c.games += 1;
                c.broken += 1;
                bar.suspend(|| eprintln!("{e}"));
                continue;
            }
        };
        c.games += 1;
        let n = reader.games_started();
        match game {
            Ok(g) => {
                batch.add(&g);
                c.indexed += 1;
            }
            Err(Skipped::BadMove { at, message }) => {
                c.broken += 1;
                bar.suspend(|| eprintln!("game {n}, {at}: {message}: not indexed"));
            }
            Err(Skipped::Unfinished | Skipped::Setup(_)) => c.skipped += 1,
        }
        if batch.len() >= batch_keys {
            let games = batch.games();
            if tx.blocking_send((batch.take_rows(), games)).is_err() {
                return Ok(c); // the writer failed and says why
            }
        }
        if c.games % 1024 == 0 {
            bar.set_message(format!("{} games", c.games));
        }
    }
    if !batch.is_empty() {
        let games = batch.games();
        let _ = tx.blocking_send((batch.take_rows(), games));
    }
    Ok(c)
}

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

fn import(file: &Path, database: &str, force: bool, batch_keys: usize) -> Result<ExitCode, String> {
    let shown = file.display().to_string();
    let open = || File::open(file).map_err(|e| format!("{shown}: {e}"));
    let f = open()?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let runtime = crate::cmd::serve::runtime()?;
    let store = runtime.block_on(Store::connect(database)).map_err(|e| format!("database {database}: {e}"))?;
    let started = Instant::now();
    let sha = sha256_hex(BufReader::with_capacity(1 << 20, f)).map_err(|e| format!("{shown}: {e}"))?;
    if let Some(done) = runtime.block_on(store.explorer_import(&sha)).map_err(|e| format!("database: {e}"))?
        && !force
    {
        return Err(format!(
            "{shown}: this content (SHA-256 {sha}) was imported already as {} ({} games); --force imports it \
             again and counts its games twice",
            done.file_name, done.games
        ));
    }
    let bar = if std::io::stderr().is_terminal() { ProgressBar::new(len) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg} ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Sent>(1);
    let reader_bar = bar.clone();
    let f = open()?;
    let reading = std::thread::spawn(move || read_games(f, batch_keys, &reader_bar, &tx));
    let writer_store = store.clone();
    let written = runtime.block_on(async move {
        let (mut rows, mut batches) = (0u64, 0u64);
        while let Some((batch, _games)) = rx.recv().await {
            writer_store
                .explorer_add(ExplorerSource::Imported, &batch)
                .await
                .map_err(|e| format!("database {database}: {e}"))?;
            rows += batch.len() as u64;
            batches += 1;
        }
        Ok::<_, String>((rows, batches))
    });
    let counts = reading.join().map_err(|_| "the reading thread panicked".to_string())??;
    let (rows, batches) = written?;
    bar.finish_and_clear();
    let record = ExplorerImport {
        sha256: sha,
        file_name: shown.clone(),
        bytes: len as i64,
        games: counts.indexed as i64,
        skipped: (counts.skipped + counts.broken) as i64,
        imported_at_ms: now_ms(),
    };
    runtime.block_on(store.record_explorer_import(&record)).map_err(|e| format!("database: {e}"))?;
    runtime.block_on(store.close());
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{shown}: {} games read: {} indexed, {} broken, {} skipped (unfinished or not standard chess); {rows} rows \
         added in {batches} batches; {secs:.1} s, {:.0} games/s",
        counts.games,
        counts.indexed,
        counts.broken,
        counts.skipped,
        counts.games as f64 / secs.max(1e-9)
    );
    Ok(if counts.broken > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

// ----- the synthetic benchmark file -----

/// xorshift64*: a small deterministic generator (the file must be the same for the same seed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// A rough normal deviate (sum of uniforms), mean 0, deviation 1.
    fn normal(&mut self) -> f64 {
        (0..12).map(|_| (self.next() >> 11) as f64 / (1u64 << 53) as f64).sum::<f64>() - 6.0
    }
}

/// A real game as the generator uses it.
struct Source {
    moves: Vec<Move>,
    white_elo: Option<i64>,
    black_elo: Option<i64>,
    time_control: String,
    result: GameResult,
}

/// How often a synthetic game leaves the book at a position the real games know (per ply).
const LEAVE_BOOK: u64 = 12; // percent

fn synth(sources: &[PathBuf], games: u64, seed: u64, out: &Path) -> Result<ExitCode, String> {
    let mut real = Vec::new();
    for path in sources {
        let f = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut reader = Reader::new(BufReader::new(f));
        let mut replayer = Replayer::new();
        loop {
            let g = match reader.read_game(&mut replayer) {
                Ok(None) => break,
                Ok(Some(g)) => g,
                Err(e) if e.is_io() => return Err(format!("{}: {e}", path.display())),
                Err(_) => continue,
            };
            if !g.errors.is_empty() || g.start.epd() != Position::new().epd() || g.moves.len() < 2 {
                continue;
            }
            let elo = |t: &str| g.tag(t).and_then(|v| v.parse::<i64>().ok());
            real.push(Source {
                white_elo: elo("WhiteElo"),
                black_elo: elo("BlackElo"),
                time_control: g.tag("TimeControl").unwrap_or("?").to_owned(),
                result: g.result.unwrap_or(GameResult::Unknown),
                moves: g.moves,
            });
        }
    }
    if real.is_empty() {
        return Err("no usable real game in the sources (standard start, at least two moves)".into());
    }
    // The book: at each position of the real games' first plies, the moves played there (with repetitions, so a
    // uniform pick follows the real frequencies).
    let mut book: HashMap<u64, Vec<Move>> = HashMap::new();
    for g in &real {
        let mut p = Position::new();
        for &m in g.moves.iter().take(MAX_PLIES) {
            book.entry(p.hash()).or_default().push(m);
            p.play_unchecked(m);
        }
    }
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let f = File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut w = BufWriter::with_capacity(1 << 20, f);
    let bar = if std::io::stderr().is_terminal() { ProgressBar::new(games) } else { ProgressBar::hidden() };
    let mut text = String::with_capacity(4096);
    let (mut in_book_plies, mut plies_total) = (0u64, 0u64);
    for i in 0..games {
        let base = &real[rng.below(real.len())];
        let length = base.moves.len();
        let mut pos = Position::new();
        let mut moves_text = String::with_capacity(length * 7);
        let mut in_book = true;
        let mut outcome = None;
        for ply in 0..length {
            let options = if in_book && rng.below(100) as u64 >= LEAVE_BOOK { book.get(&pos.hash()) } else { None };
            let m = match options {
                Some(list) => list[rng.below(list.len())],
                None => {
                    in_book = false;
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    legal.as_slice()[rng.below(legal.len())]
                }
            };
            if in_book {
                in_book_plies += 1;
            }
            if ply % 2 == 0 {
                moves_text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            moves_text.push_str(&pos.san(m));
            moves_text.push(if ply % 16 == 15 { '\n' } else { ' ' });
            pos.play_unchecked(m);
            plies_total += 1;
            if pos.is_checkmate() {
                outcome = Some(if ply % 2 == 0 { GameResult::WhiteWins } else { GameResult::BlackWins });
                break;
            }
        }
        // The result: a mate decides it; else the base game's result, or another one in a fifth of the games.
        let result = outcome.unwrap_or_else(|| {
            if rng.below(5) == 0 {
                [GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins][rng.below(3)]
            } else {
                base.result
            }
        });
        let vary =
            |r: &mut Rng, elo: Option<i64>| elo.map(|e| (e as f64 + 120.0 * r.normal()).clamp(600.0, 3000.0) as i64);
        let (we, be) = (vary(&mut rng, base.white_elo), vary(&mut rng, base.black_elo));
        let tc = &real[rng.below(real.len())].time_control;
        text.clear();
        text.push_str(&format!(
            "[Event \"Synthetic game {n}\"]\n[Site \"guoxiang games synth\"]\n[White \"w{a}\"]\n[Black \"b{b}\"]\n\
             [Result \"{r}\"]\n",
            n = i + 1,
            a = rng.below(100_000),
            b = rng.below(100_000),
            r = result.as_str()
        ));
        if let Some(e) = we {
            text.push_str(&format!("[WhiteElo \"{e}\"]\n"));
        }
        if let Some(e) = be {
            text.push_str(&format!("[BlackElo \"{e}\"]\n"));
        }
        text.push_str(&format!("[TimeControl \"{tc}\"]\n\n"));
        text.push_str(&moves_text);
        text.push_str(result.as_str());
        text.push_str("\n\n");
        w.write_all(text.as_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
        if i % 1024 == 0 {
            bar.set_position(i);
        }
    }
    w.flush().map_err(|e| format!("{}: {e}", out.display()))?;
    bar.finish_and_clear();
    eprintln!(
        "{games} games written to {} from {} real games ({} book positions); {:.1}% of the plies from the book",
        out.display(),
        real.len(),
        book.len(),
        100.0 * in_book_plies as f64 / plies_total.max(1) as f64
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = "[Event \"a\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1700\"]\n[TimeControl \"300+0\"]\n\
        [Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n\n\
        [Event \"b\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Ke3 0-1\n\n\
        [Event \"c\"]\n[Result \"*\"]\n\n1. d4 *\n\n\
        [Event \"d\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 {unterminated\n";

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("guoxiang-games-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn import_counts_games_and_refuses_the_same_file_twice() {
        let dir = temp("import");
        let pgn = dir.join("g.pgn");
        std::fs::write(&pgn, PGN).unwrap();
        let db = format!("sqlite://{}", dir.join("g.db").display());
        // Broken games (an illegal move, an unterminated comment) are reported: exit code 1.
        assert_eq!(import(&pgn, &db, false, BATCH_KEYS).unwrap(), ExitCode::from(1));
        let rows = |db: &str| {
            crate::cmd::serve::runtime().unwrap().block_on(async {
                let store = Store::connect(db).await.unwrap();
                let start = store.explorer_rows(ExplorerSource::Imported, Position::new().hash(), &[], &[]).await;
                let n = store.explorer_row_count(ExplorerSource::Imported).await.unwrap();
                store.close().await;
                (start.unwrap(), n)
            })
        };
        let (start, n) = rows(&db);
        // Only game a is indexed: five plies, one row each.
        assert_eq!(n, 5);
        assert_eq!(start.len(), 1);
        assert_eq!((start[0].white, start[0].rating_sum, start[0].rating), (1, 1600, 1600));
        let again = import(&pgn, &db, false, BATCH_KEYS).unwrap_err();
        assert!(again.contains("imported already") && again.contains("--force"), "{again}");
        assert_eq!(rows(&db).0, start, "a refused import changes nothing");
        import(&pgn, &db, true, 2).unwrap();
        assert_eq!(rows(&db).0[0].white, 2, "--force counts the games again");
        assert!(import(&dir.join("missing.pgn"), &db, false, BATCH_KEYS).unwrap_err().contains("missing.pgn"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn synth_writes_games_that_import() {
        let dir = temp("synth");
        let src = dir.join("real.pgn");
        std::fs::write(&src, PGN).unwrap();
        let out = dir.join("synth.pgn");
        synth(std::slice::from_ref(&src), 50, 7, &out).unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(text.matches("[Event ").count(), 50);
        // Every game replays under the rules.
        let mut reader = Reader::new(text.as_bytes());
        let mut replayer = Replayer::new();
        let mut n = 0;
        while let Some(g) = reader.read_game(&mut replayer).unwrap() {
            assert!(g.errors.is_empty(), "{:?}", g.errors);
            n += 1;
        }
        assert_eq!(n, 50);
        // The same seed writes the same file.
        let again = dir.join("again.pgn");
        synth(&[src], 50, 7, &again).unwrap();
        assert_eq!(std::fs::read(&again).unwrap(), text.as_bytes());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
