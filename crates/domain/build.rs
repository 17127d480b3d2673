//! Embeds the default puzzle set: `puzzles/default.csv` at the workspace root, imported when the server starts with
//! no puzzles. Without the file the server still builds, with an empty default set.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let dir = manifest.join("../../puzzles");
    // The directory: a file added, removed or edited there rebuilds this crate.
    println!("cargo:rerun-if-changed=../../puzzles");
    let file = dir.join("default.csv");
    let mut out = String::from(
        "/// The default puzzle set (lichess CSV), empty when `puzzles/default.csv` was missing at build time.\n",
    );
    if file.is_file() {
        let path = file.canonicalize().unwrap_or(file);
        writeln!(out, "pub(crate) const DEFAULT_CSV: &str = include_str!({:?});", path.display().to_string())
            .expect("write to a String");
    } else {
        out.push_str("pub(crate) const DEFAULT_CSV: &str = \"\";\n");
    }
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("default_puzzles.rs");
    std::fs::write(&dest, out).expect("write default_puzzles.rs");
}
