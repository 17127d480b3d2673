//! Probe throughput on random positions of one table:
//! `cargo run --release -p guoxiang-syzygy --example probe_speed -- DIRS [TABLE] [POSITIONS]`
//! (DIRS a path list like a UCI SyzygyPath; TABLE defaults to KPvKP, POSITIONS to 100000).

#[path = "../tests/common/mod.rs"]
mod common;

use guoxiang_syzygy::Tablebase;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let dirs = args.next().unwrap_or_else(|| common::fixtures().display().to_string());
    let table = args.next().unwrap_or_else(|| "KPvKP".to_string());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let mut tb = Tablebase::new();
    let found = tb.add_paths(&dirs).expect("table directories");
    let positions = common::random_positions(&table, n, 42, true);
    println!("{found} WDL tables; {n} random {table} positions");

    // The first probe maps the files; time it apart.
    let t = Instant::now();
    tb.probe_wdl(&positions[0]).expect("probe");
    println!("first probe (maps and parses the file): {:?}", t.elapsed());

    for round in 0..2 {
        let t = Instant::now();
        let mut wins = 0;
        for p in &positions {
            wins += usize::from(tb.probe_wdl(p).expect("WDL probe").to_i32() > 0);
        }
        let s = t.elapsed().as_secs_f64();
        println!("round {round}: WDL {:.0} probes/s ({wins} wins)", n as f64 / s);
        let t = Instant::now();
        let mut total = 0i64;
        for p in &positions {
            total += i64::from(tb.probe_dtz(p).expect("DTZ probe").0);
        }
        let s = t.elapsed().as_secs_f64();
        println!("round {round}: DTZ {:.0} probes/s (checksum {total})", n as f64 / s);
    }
}
