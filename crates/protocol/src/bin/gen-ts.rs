//! Writes the TypeScript bindings to `web/src/protocol.ts` (or to the path given as the first argument).

use std::path::PathBuf;

fn main() {
    let path = std::env::args_os().nth(1).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(guoxiang_protocol::TS_OUTPUT_PATH)
    });
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("create the output directory");
    }
    std::fs::write(&path, guoxiang_protocol::typescript()).expect("write the bindings");
    println!("wrote {}", path.display());
}
