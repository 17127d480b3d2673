//! Level-against-level games in one process, to space the strength levels before calibrating them with real
//! matches: each pair of consecutive levels plays from book openings with colours reversed, and the table of
//! scores and implied Elo differences is printed. Levels 1–9 are limited by depth and nodes, so the games need
//! no clock (level 10, full strength, is not played here). A table file can replace the built-in levels' settings,
//! so new settings are tried without rebuilding the engine.

use crate::datagen::opening;
use guoxiang_core::{Color, Position};
use guoxiang_engine::eval::insufficient;
use guoxiang_engine::levels::{LEVELS, Level};
use guoxiang_engine::{Control, Engine, Limits, Silent};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Reads a table of level settings: one line per level,
/// `number depth nodes eval_noise multipv temperature max_loss qsearch_plies [lapse]` (`all` for unlimited
/// quiescence; lapse per mille, 0 when left out);
/// `#` starts a comment. Names and Elo come from the built-in table.
pub fn read_table(path: &str) -> Result<Vec<Level>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut levels = LEVELS.to_vec();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |what: &str| format!("{path}:{}: {what}", i + 1);
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 8 && f.len() != 9 {
            return Err(at(&format!("expected 8 or 9 fields, found {}", f.len())));
        }
        let num =
            |k: usize| f[k].parse::<i64>().map_err(|_| at(&format!("field {} `{}` is not a number", k + 1, f[k])));
        let n = num(0)?;
        let Some(l) = levels.get_mut((n as usize).wrapping_sub(1)).filter(|_| (1..=9).contains(&n)) else {
            return Err(at(&format!("level {n} is not one of 1 ..= 9")));
        };
        l.depth = num(1)? as u32;
        l.nodes = num(2)? as u64;
        l.eval_noise = num(3)? as i32;
        l.multipv = num(4)? as usize;
        l.temperature = num(5)? as i32;
        l.max_loss = num(6)? as i32;
        l.qsearch_plies = if f[7] == "all" { usize::MAX } else { num(7)? as usize };
        l.lapse = if f.len() == 9 { num(8)?.clamp(0, 1000) as u32 } else { 0 };
    }
    Ok(levels)
}

/// One game; the score of `a` (1, ½, 0).
fn game(a: &Level, b: &Level, a_white: bool, start: &Position, seed: u64) -> f64 {
    let mut engines = [Engine::new(4), Engine::new(4)];
    engines[0].options.level = Some(*a);
    engines[1].options.level = Some(*b);
    let mut pos = start.clone();
    let mut history = Vec::new();
    let control = Control::default();
    let white_score = loop {
        if !pos.has_legal_move() {
            break if !pos.is_check() {
                0.5
            } else if pos.turn() == Color::White {
                0.0
            } else {
                1.0
            };
        }
        let reps = history.iter().rev().take(pos.halfmoves() as usize).filter(|&&h| h == pos.hash()).count();
        if pos.halfmoves() >= 100 || insufficient(&pos) || reps >= 2 || history.len() >= 400 {
            break 0.5;
        }
        let a_to_move = (pos.turn() == Color::White) == a_white;
        let e = &mut engines[if a_to_move { 0 } else { 1 }];
        e.options.seed = seed ^ (history.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let r = e.search(&pos, &history, &Limits::default(), &control, &Silent, Instant::now());
        let Some(m) = r.best else { break 0.5 };
        history.push(pos.hash());
        pos.play_unchecked(m);
    };
    if a_white { white_score } else { 1.0 - white_score }
}

/// Logistic Elo difference for a score fraction (clamped to 0.5 % … 99.5 %, so a clean sweep stays finite).
fn elo(score: f64) -> f64 {
    let s = score.clamp(0.005, 0.995);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Plays `games` games (made even) between each level in `from .. to` and the next one, on `threads` threads, and
/// prints the results.
pub fn run(levels: &[Level], from: u8, to: u8, games: usize, threads: usize, book: &[String], seed: u64) {
    let pairs: Vec<(usize, usize)> = (from as usize..to as usize).map(|a| (a - 1, a)).collect();
    let games = games.div_ceil(2) * 2;
    let jobs: Vec<(usize, usize)> = pairs.iter().flat_map(|&p| (0..games).map(move |g| (p.0, g))).collect();
    let results = Mutex::new(vec![[0usize; 3]; levels.len()]); // per lower level: higher level's wins, draws, losses
    let next = AtomicUsize::new(0);
    let bar = ProgressBar::new(jobs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("levels [{bar:40}] {pos}/{len} games ({eta} left)")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(lo, g)) = jobs.get(i) else { break };
                    // Both games of an opening pair use the same start position.
                    let mut rng = StdRng::seed_from_u64(seed ^ ((lo as u64) << 32) ^ (g / 2) as u64);
                    let start = loop {
                        if let Some(p) = opening(book, 0, &mut rng) {
                            break p;
                        }
                    };
                    let score = game(&levels[lo + 1], &levels[lo], g % 2 == 0, &start, seed ^ i as u64);
                    let k = if score == 1.0 {
                        0
                    } else if score == 0.5 {
                        1
                    } else {
                        2
                    };
                    results.lock().unwrap_or_else(|e| e.into_inner())[lo][k] += 1;
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    println!("| pair | games | higher level +/=/− | score | Elo difference ± 95 % | higher level above level {from} |");
    println!("|---|---|---|---|---|---|");
    let (mut total, mut var) = (0.0f64, 0.0f64);
    for &(lo, _) in &pairs {
        let [w, d, l] = results[lo];
        let n = (w + d + l).max(1) as f64;
        let s = (w as f64 + d as f64 / 2.0) / n;
        // Trinomial: the variance of one game's score, the interval on the mean score mapped to Elo.
        let v = (w as f64 * (1.0 - s).powi(2) + d as f64 * (0.5 - s).powi(2) + l as f64 * s.powi(2)) / n;
        let half = 1.96 * (v / n).sqrt();
        let err = (elo(s + half) - elo(s - half)) / 2.0;
        total += elo(s);
        var += (err / 1.96).powi(2);
        println!(
            "| {} – {} | {} | +{w} ={d} −{l} | {:.1} % | {:+.0} ± {:.0} | {:+.0} ± {:.0} |",
            lo + 2,
            lo + 1,
            n as usize,
            100.0 * s,
            elo(s),
            err,
            total,
            1.96 * var.sqrt()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_read_and_bad_lines_named() {
        let path = std::env::temp_dir().join(format!("gx-levels-{}.txt", std::process::id()));
        std::fs::write(&path, "# n depth nodes noise pv T loss q\n2 3 900 40 3 40 200 all\n").unwrap();
        let t = read_table(path.to_str().unwrap()).unwrap();
        assert_eq!((t[1].depth, t[1].nodes, t[1].qsearch_plies), (3, 900, usize::MAX));
        assert_eq!(t[0], LEVELS[0]);
        std::fs::write(&path, "10 1 1 1 1 1 1 1\n").unwrap();
        let err = read_table(path.to_str().unwrap()).unwrap_err();
        assert!(err.ends_with(":1: level 10 is not one of 1 ..= 9"), "{err}");
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn a_level_game_ends() {
        let s = game(&LEVELS[1], &LEVELS[0], true, &Position::new(), 3);
        assert!([0.0, 0.5, 1.0].contains(&s));
    }
}
