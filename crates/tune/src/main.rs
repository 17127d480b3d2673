//! `guoxiang-tune`: tunes the engine's evaluation weights on self-play data (Texel's method).
//!
//! ```text
//! guoxiang-tune datagen --book FILE --out FILE [--minutes M] [--games N] [--nodes N] [--threads N] [--seed N]
//! guoxiang-tune levels [--table FILE] [--from N] [--to N] [--games N] [--book FILE]
//! guoxiang-tune humans --pgn FILE [--pgn FILE …] [--cache FILE] [--per-band N] [--nodes N] [--table FILE] [--levels A-B]
//! guoxiang-tune nnue --data FILE [--data FILE …] --out NET [--epochs N] [--batch N] [--lr X] [--lambda X] [--max N]
//! guoxiang-tune testbook --train EPD --lines PGN --out EPD [--random-plies N] [--from-ply N] [--data FILE …]
//! guoxiang-tune tune --data FILE [--data FILE …] [--epochs N] [--rate R] [--l2 X] [--out crates/engine/src/params/weights.rs]
//! ```
//!
//! `datagen` plays the engine against itself and writes quiet positions labelled with the game result; `tune`
//! fits the scaling constant K, minimises the mean squared error between the result and a sigmoid of the
//! evaluation over all tunable weights, and writes the engine's `weights.rs`; `levels` plays neighbouring strength
//! levels against each other; `humans` measures people of each rating band and the levels on the same positions
//! (best-move, mistake and blunder rates, kinds of blunder, move matching); `nnue` trains the NNUE network on
//! `datagen`'s positions and their search scores; `testbook` keeps the lines of a public opening book that no
//! training game can start from (module `books`). See `docs/engine.md`.

mod books;
mod datagen;
mod humans;
mod levels;
mod nnue;
mod texel;

use std::process::ExitCode;
use std::time::Duration;

fn usage() -> &'static str {
    "usage:\n  guoxiang-tune datagen --book FILE --out FILE [--minutes M] [--games N] [--nodes N] [--threads N] \
     [--seed N] [--random-plies N]\n  guoxiang-tune tune --data FILE [--data FILE ...] [--epochs N] [--rate R] \
     [--out FILE] [--l2 X] [--freeze PREFIX] [--command TEXT]\n  guoxiang-tune levels [--table FILE] [--from N] [--to N] \
     [--games N] [--threads N] [--book FILE] [--seed N]\n  guoxiang-tune humans --pgn FILE [--pgn FILE ...] [--cache FILE] \
     [--per-band N] [--per-game N] [--skip-plies N] [--min-base SECONDS] [--nodes N] [--threads N] [--seed N] \
     [--table FILE] [--levels A-B]\n  guoxiang-tune nnue --data FILE [--data FILE ...] --out NET [--epochs N] [--batch N] \
     [--lr X] [--lr-drop X] [--lambda X] [--max N] [--mirror true|false] [--threads N] [--seed N]\n  guoxiang-tune \
     testbook --train EPD --lines PGN --out EPD [--random-plies N] [--from-ply N] [--data FILE ...]"
}

/// `--name value` pairs after the subcommand.
fn options(args: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(name) = a.strip_prefix("--") else { return Err(format!("unexpected argument `{a}`")) };
        let Some(v) = it.next() else { return Err(format!("`--{name}` needs a value")) };
        out.push((name.to_string(), v.clone()));
    }
    Ok(out)
}

fn number<T: std::str::FromStr>(name: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("`--{name}`: `{v}` is not a valid number"))
}

/// `testbook`: the lines of `--lines` (a PGN book) that never pass a position a training game can start from
/// (`--train`, datagen's book, and `--random-plies` random moves after it, 2 as datagen plays them), compared from
/// `--from-ply` on (the training book's depth, 6 for noob_3moves), written as EPD of each line's last position; with `--data` (datagen's output), also that no training position is on a kept
/// line.
fn testbook(args: &[String]) -> Result<(), String> {
    use indicatif::{ProgressBar, ProgressStyle};
    use std::io::Write;
    let (mut train, mut lines_path, mut out, mut data) = (None, None, None, Vec::new());
    let (mut random_plies, mut from_ply) = (2u32, 6usize);
    for (k, v) in options(args)? {
        match k.as_str() {
            "train" => train = Some(v),
            "lines" => lines_path = Some(v),
            "out" => out = Some(v),
            "random-plies" => random_plies = number(&k, &v)?,
            "from-ply" => from_ply = number(&k, &v)?,
            "data" => data.push(v),
            _ => return Err(format!("testbook: unknown option `--{k}`")),
        }
    }
    let train = train.ok_or("testbook: `--train EPD` (datagen's book) is required")?;
    let lines_path = lines_path.ok_or("testbook: `--lines PGN` (the public book) is required")?;
    let out = out.ok_or("testbook: `--out EPD` is required")?;
    let training: Vec<guoxiang_core::Position> = datagen::read_book(&train)?
        .iter()
        .map(|fen| guoxiang_core::Position::from_fen(fen).map_err(|e| format!("{train}: {e}")))
        .collect::<Result<_, _>>()?;
    let file = std::fs::File::open(&lines_path).map_err(|e| format!("{lines_path}: {e}"))?;
    let mut reader = guoxiang_pgn::Reader::new(std::io::BufReader::new(file));
    let mut replayer = guoxiang_pgn::Replayer::new();
    let mut lines = Vec::new();
    loop {
        let g = match reader.read_game(&mut replayer) {
            Ok(None) => break,
            Ok(Some(g)) => g,
            Err(e) => return Err(format!("{lines_path}: {e}")),
        };
        if let Some(e) = g.errors.first() {
            return Err(format!("{lines_path}: line {}: {e}", reader.games_started()));
        }
        let mut pos = g.start.clone();
        let mut line = vec![pos.clone()];
        for &m in &g.moves {
            pos.play_unchecked(m);
            line.push(pos.clone());
        }
        lines.push(line);
    }
    let bar = ProgressBar::new(training.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("training openings {bar:40} {pos}/{len} (+{msg} random plies)")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(random_plies.to_string());
    let touched = books::touched(&training, random_plies, &lines, from_ply, &mut |n| bar.set_position(n as u64));
    bar.finish_and_clear();
    let mut w = std::io::BufWriter::new(std::fs::File::create(&out).map_err(|e| format!("{out}: {e}"))?);
    let mut by_ply = std::collections::BTreeMap::new();
    let mut kept = Vec::new();
    for (line, t) in lines.iter().zip(&touched) {
        match t {
            Some(ply) => *by_ply.entry(*ply).or_insert(0usize) += 1,
            None => {
                let last = line.last().expect("a line has its start");
                writeln!(w, "{}", last.epd()).map_err(|e| format!("{out}: {e}"))?;
                kept.push(line.clone());
            }
        }
    }
    w.flush().map_err(|e| format!("{out}: {e}"))?;
    let dropped: Vec<String> = by_ply.iter().map(|(p, n)| format!("{n} at ply {p}")).collect();
    eprintln!(
        "{} lines read, {} kept in {out}; dropped as a training game can start there: {}",
        lines.len(),
        kept.len(),
        if dropped.is_empty() { "none".to_string() } else { dropped.join(", ") }
    );
    for path in &data {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let mut positions = Vec::new();
        for (i, l) in text.lines().enumerate() {
            let fen = l.split(';').next().unwrap_or("");
            positions.push(guoxiang_core::Position::from_fen(fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?);
        }
        match books::check_data(positions.iter(), &kept) {
            None => eprintln!("{path}: none of its {} positions is on a kept line", positions.len()),
            Some((i, l)) => {
                return Err(format!("{path}:{}: a position of kept line {} of the test book", i + 1, l + 1));
            }
        }
    }
    Ok(())
}

fn datagen(args: &[String]) -> Result<(), String> {
    let mut s = datagen::Settings {
        book: Vec::new(),
        nodes: 6000,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        duration: Duration::from_secs(600),
        max_games: u64::MAX,
        seed: 1,
        random_plies: 2,
    };
    let mut out = None;
    for (k, v) in options(args)? {
        match k.as_str() {
            "book" => s.book = datagen::read_book(&v)?,
            "out" => out = Some(v),
            "minutes" => s.duration = Duration::from_secs_f64(number::<f64>(&k, &v)? * 60.0),
            "games" => s.max_games = number(&k, &v)?,
            "nodes" => s.nodes = number(&k, &v)?,
            "threads" => s.threads = number::<usize>(&k, &v)?.max(1),
            "seed" => s.seed = number(&k, &v)?,
            "random-plies" => s.random_plies = number(&k, &v)?,
            _ => return Err(format!("datagen: unknown option `--{k}`")),
        }
    }
    let out = out.ok_or("datagen: `--out FILE` is required")?;
    let file = std::fs::OpenOptions::new().create(true).append(true).open(&out).map_err(|e| format!("{out}: {e}"))?;
    let mut w = std::io::BufWriter::new(file);
    let (games, positions) = datagen::run(&s, &mut w).map_err(|e| format!("{out}: {e}"))?;
    eprintln!("{games} games, {positions} positions appended to {out}");
    Ok(())
}

fn tune(args: &[String]) -> Result<(), String> {
    let mut data = Vec::new();
    let mut s = texel::Settings::default();
    for (k, v) in options(args)? {
        match k.as_str() {
            "data" => data.push(v),
            "epochs" => s.epochs = number(&k, &v)?,
            "rate" => s.rate = number(&k, &v)?,
            "out" => s.out = v,
            "command" => s.command = v,
            "l2" => s.l2 = number(&k, &v)?,
            "freeze" => s.freeze.push(v),
            _ => return Err(format!("tune: unknown option `--{k}`")),
        }
    }
    if data.is_empty() {
        return Err("tune: at least one `--data FILE` is required".into());
    }
    texel::run(&data, &s)
}

fn levels(args: &[String]) -> Result<(), String> {
    let mut table = guoxiang_engine::LEVELS.to_vec();
    let (mut from, mut to, mut games, mut seed) = (1u8, 9u8, 20usize, 1u64);
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut book = Vec::new();
    for (k, v) in options(args)? {
        match k.as_str() {
            "table" => table = levels::read_table(&v)?,
            "from" => from = number(&k, &v)?,
            "to" => to = number(&k, &v)?,
            "games" => games = number(&k, &v)?,
            "threads" => threads = number(&k, &v)?,
            "seed" => seed = number(&k, &v)?,
            "book" => book = datagen::read_book(&v)?,
            _ => return Err(format!("levels: unknown option `--{k}`")),
        }
    }
    if !(1..=8).contains(&from) || !(from + 1..=9).contains(&to) {
        return Err(format!("levels: need 1 <= --from < --to <= 9, got {from} and {to}"));
    }
    levels::run(&table, from, to, games, threads, &book, seed);
    Ok(())
}

fn humans(args: &[String]) -> Result<(), String> {
    let mut s = humans::Settings {
        pgn: Vec::new(),
        per_band: 600,
        per_game: 3,
        skip: 10,
        min_base: 0,
        nodes: 100_000,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        seed: 1,
        cache: None,
        table: None,
        levels: (1, 9),
    };
    for (k, v) in options(args)? {
        match k.as_str() {
            "pgn" => s.pgn.push(v),
            "cache" => s.cache = Some(v),
            "per-band" => s.per_band = number(&k, &v)?,
            "per-game" => s.per_game = number::<usize>(&k, &v)?.max(1),
            "skip-plies" => s.skip = number(&k, &v)?,
            "min-base" => s.min_base = number(&k, &v)?,
            "nodes" => s.nodes = number::<u64>(&k, &v)?.max(1),
            "threads" => s.threads = number::<usize>(&k, &v)?.max(1),
            "seed" => s.seed = number(&k, &v)?,
            "table" => {
                levels::read_table(&v)?;
                s.table = Some(v);
            }
            "levels" => {
                let (a, b) = v.split_once('-').unwrap_or((&v, &v));
                let (a, b): (u8, u8) = (number(&k, a)?, number(&k, b)?);
                if !(1..=9).contains(&a) || !(a..=9).contains(&b) {
                    return Err(format!("humans: `--levels {v}`: need A-B with 1 <= A <= B <= 9"));
                }
                s.levels = (a, b);
            }
            _ => return Err(format!("humans: unknown option `--{k}`")),
        }
    }
    if s.pgn.is_empty() && s.cache.as_deref().is_none_or(|c| !std::path::Path::new(c).exists()) {
        return Err("humans: give `--pgn FILE` (or an existing `--cache FILE`)".into());
    }
    print!("{}", humans::run(&s)?);
    Ok(())
}

fn train_nnue(args: &[String]) -> Result<(), String> {
    let mut s = nnue::Settings::default();
    let (mut data, mut out, mut max) = (Vec::new(), None, usize::MAX);
    for (k, v) in options(args)? {
        match k.as_str() {
            "data" => data.push(v),
            "out" => out = Some(v),
            "epochs" => s.epochs = number(&k, &v)?,
            "batch" => s.batch = number::<usize>(&k, &v)?.max(1),
            "lr" => s.lr = number(&k, &v)?,
            "lr-drop" => s.lr_drop = number(&k, &v)?,
            "lambda" => s.lambda = number(&k, &v)?,
            "max" => max = number(&k, &v)?,
            "threads" => s.threads = number::<usize>(&k, &v)?.max(1),
            "seed" => s.seed = number(&k, &v)?,
            "mirror" => s.mirror = number(&k, &v)?,
            _ => return Err(format!("nnue: unknown option `--{k}`")),
        }
    }
    if data.is_empty() {
        return Err("nnue: at least one `--data FILE` (datagen's output) is required".into());
    }
    if !(0.0..=1.0).contains(&s.lambda) {
        return Err(format!("nnue: `--lambda {}` must be between 0 and 1", s.lambda));
    }
    let out = out.ok_or("nnue: `--out NET` is required")?;
    let started = std::time::Instant::now();
    let d = nnue::read(&data, s.lambda, max, s.mirror)?;
    eprintln!(
        "{} positions for training, {} held out ({} skipped), read in {:.1} s",
        d.train.len(),
        d.valid.len(),
        d.skipped,
        started.elapsed().as_secs_f64()
    );
    let mut model = nnue::Model::new(s.seed);
    eprintln!("start: held-out loss {:.6}", model.loss(&d.valid));
    nnue::train(&mut model, &d, &s, &mut |e| {
        eprintln!(
            "epoch {:>3}: training loss {:.6}, held-out loss {:.6} ({:.1} s)",
            e.epoch, e.train_loss, e.valid_loss, e.seconds
        )
    });
    let net = model.quantise();
    // How much quantising costs: the engine's integer evaluation against the float model on held-out positions.
    let held = &d.probes;
    let err = nnue::quantisation_error(&model, &net, held);
    eprintln!(
        "quantised network: {err:.2} cp mean absolute difference from the float model ({} positions)",
        held.len()
    );
    let (hce, nn) = nnue::engine_losses(&net, held);
    eprintln!("held-out loss through the engine: network {nn:.6}, hand-written evaluation {hce:.6}");
    std::fs::write(&out, net.to_bytes()).map_err(|e| format!("{out}: {e}"))?;
    eprintln!("wrote {out} ({} bytes, {net:?})", guoxiang_engine::nnue::FILE_SIZE);
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "help") || args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let result = match args.first().map(String::as_str) {
        Some("datagen") => datagen(&args[1..]),
        Some("tune") => tune(&args[1..]),
        Some("levels") => levels(&args[1..]),
        Some("humans") => humans(&args[1..]),
        Some("nnue") => train_nnue(&args[1..]),
        Some("testbook") => testbook(&args[1..]),
        _ => Err(usage().to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("guoxiang-tune: {e}");
            ExitCode::FAILURE
        }
    }
}
