//! Embeds the course: lists `course/*.toml` (at the workspace root) and writes `include_str!` calls for them, so
//! the binary carries the course and cargo rebuilds when a course file changes.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let dir = manifest.join("../../course");
    // A directory here makes cargo rescan it: a file added, removed or edited rebuilds this crate.
    println!("cargo:rerun-if-changed=../../course");
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".toml") && e.path().is_file() {
                files.push((name, e.path()));
            }
        }
    }
    files.sort();
    let mut out = String::from("/// The course files compiled in: (file name, contents), in file-name order.\n");
    out.push_str("pub(crate) const EMBEDDED: &[(&str, &str)] = &[\n");
    for (name, path) in &files {
        let path = path.canonicalize().unwrap_or_else(|_| path.clone());
        writeln!(out, "    ({name:?}, include_str!({:?})),", path.display().to_string()).expect("write to a String");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("embedded.rs");
    std::fs::write(&dest, out).expect("write embedded.rs");
}
