//! How long the network takes to load: `cargo run --release -p guoxiang-engine --example net_load [FILE]`
//! (default: the network compiled into the binary, `crates/engine/nets/default.nnue`). Prints the file's size,
//! the best of 50 parses of its bytes (what the compiled-in network costs on first use), and one read-and-parse
//! from the file (what `EvalFile` costs).

use std::path::PathBuf;
use std::time::Instant;

use guoxiang_engine::nnue::Network;

fn main() {
    let path = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("nets/default.nnue"));
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("net_load: cannot read {}: {e}", path.display());
            std::process::exit(2);
        }
    };
    let mut best = f64::MAX;
    for _ in 0..50 {
        let start = Instant::now();
        match Network::from_bytes(&bytes) {
            Ok(net) => drop(std::hint::black_box(net)),
            Err(e) => {
                eprintln!("net_load: {}: {e}", path.display());
                std::process::exit(2);
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    let start = Instant::now();
    let loaded = Network::load(&path);
    let read_and_parse = start.elapsed().as_secs_f64();
    if let Err(e) = loaded {
        eprintln!("net_load: {e}");
        std::process::exit(2);
    }
    println!(
        "{}: {} bytes; parse {:.3} ms (best of 50); read and parse {:.3} ms",
        path.display(),
        bytes.len(),
        best * 1e3,
        read_and_parse * 1e3
    );
}
