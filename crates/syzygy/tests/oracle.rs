//! Agreement with an independent reader: python-chess's `chess.syzygy`, on random positions of every table in the
//! directories named by `GUOXIANG_SYZYGY_TEST_DIR` (a path list like a UCI SyzygyPath, e.g. `/tmp/syzygy` or
//! `/tmp/syzygy:/tmp/syzygy5`). Skipped (with a message) when the variable is not set. Positions per table:
//! `GUOXIANG_SYZYGY_TEST_POSITIONS` (default 300). Needs `python3` with the `chess` package.

mod common;

use guoxiang_syzygy::{ProbeError, Tablebase};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

#[test]
fn agrees_with_python_chess() {
    let Ok(dirs) = std::env::var("GUOXIANG_SYZYGY_TEST_DIR") else {
        eprintln!("SKIP oracle test: set GUOXIANG_SYZYGY_TEST_DIR to a directory of Syzygy tables to run it");
        return;
    };
    let per_table: usize =
        std::env::var("GUOXIANG_SYZYGY_TEST_POSITIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let dirs: Vec<_> = std::env::split_paths(&dirs).filter(|d| !d.as_os_str().is_empty()).collect();

    let mut tb = Tablebase::new();
    let mut tables = Vec::new();
    for d in &dirs {
        tb.add_directory(d).expect("readable table directory");
        tables.extend(common::wdl_tables_in(d));
    }
    assert!(!tables.is_empty(), "no .rtbw files in {dirs:?}");

    // All positions first, then one python process answers them all.
    let mut cases = Vec::new();
    for name in &tables {
        for pos in common::random_positions(name, per_table, 7, true) {
            cases.push((name.clone(), pos));
        }
    }
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("oracle.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .args(&dirs)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let fens: Vec<String> = cases.iter().map(|(_, p)| p.fen()).collect();
    let writer = std::thread::spawn(move || {
        for f in fens {
            writeln!(stdin, "{f}").expect("write to python");
        }
    });
    let answers: Vec<String> =
        BufReader::new(child.stdout.take().expect("stdout")).lines().map(|l| l.expect("read from python")).collect();
    writer.join().expect("writer");
    assert!(child.wait().expect("python exits").success(), "python oracle failed");
    assert_eq!(answers.len(), cases.len(), "python answered {} of {} positions", answers.len(), cases.len());

    let mut failures = Vec::new();
    let mut per_name: std::collections::BTreeMap<&str, (usize, usize, usize, usize)> = Default::default();
    for ((name, pos), answer) in cases.iter().zip(&answers) {
        let stats = per_name.entry(name.as_str()).or_default();
        stats.0 += 1;
        if pos.ep_square().is_some() {
            stats.3 += 1;
        }
        let mut words = answer.split_whitespace();
        let (py_wdl, py_dtz) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        let ours_wdl = tb.probe_wdl(pos);
        let ours_dtz = tb.probe_dtz(pos);
        if py_wdl == "ERR" {
            if ours_wdl.is_ok() {
                failures.push(format!("{name} {}: python failed ({answer}) but we gave {ours_wdl:?}", pos.fen()));
            }
            continue;
        }
        let wdl_ok = ours_wdl.as_ref().map(|w| w.to_i32().to_string()) == Ok(py_wdl.to_string());
        let dtz_ok = match (&ours_dtz, py_dtz) {
            (Err(ProbeError::MissingTable { .. }), "-") => true,
            (Ok(d), s) => d.0.to_string() == s,
            _ => false,
        };
        if wdl_ok {
            stats.1 += 1;
        }
        if dtz_ok {
            stats.2 += 1;
        }
        if !wdl_ok || !dtz_ok {
            failures.push(format!("{name} {}: python {answer}, ours {ours_wdl:?} {ours_dtz:?}", pos.fen()));
        }
    }
    for (name, (n, w, d, ep)) in &per_name {
        println!("{name}: {n} positions ({ep} with en passant), WDL agrees {w}, DTZ agrees {d}");
    }
    let total: usize = per_name.values().map(|s| s.0).sum();
    println!("oracle: {} tables, {total} positions, {} disagreements", per_name.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{} disagreements, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}
