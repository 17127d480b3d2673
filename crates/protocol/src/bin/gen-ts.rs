//! Writes the TypeScript bindings to `web/src/protocol.ts` (or to the path given as the first argument), and those
//! of the analysis stream to `web/src/protocol_analysis.ts`, of the review endpoints to `web/src/protocol_review.ts`
//! and of the rest of the HTTP API to `web/src/protocol_http.ts`.

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
    // The analysis stream's types (`/ws/analysis`) go next to it, unless an explicit path was given.
    if std::env::args_os().nth(1).is_none() {
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(guoxiang_protocol::TS_ANALYSIS_OUTPUT_PATH);
        std::fs::write(&path, guoxiang_protocol::analysis_typescript()).expect("write the analysis bindings");
        println!("wrote {}", path.display());
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(guoxiang_protocol::TS_REVIEW_OUTPUT_PATH);
        std::fs::write(&path, guoxiang_protocol::review_typescript()).expect("write the review bindings");
        println!("wrote {}", path.display());
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(guoxiang_protocol::TS_HTTP_OUTPUT_PATH);
        std::fs::write(&path, guoxiang_protocol::http_typescript()).expect("write the HTTP bindings");
        println!("wrote {}", path.display());
    }
}
