pub mod bench;
pub mod class;
pub mod cluster;
pub mod explain;
pub mod games;
pub mod learn;
pub mod loadtest;
pub mod logs;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod puzzles;
pub mod review;
pub mod serve;
pub mod tournament;
pub mod uci;
pub mod user;

/// The Syzygy tables of `--syzygy-path DIR[:DIR…]` (none for no path or an empty one) and how many there are; a
/// path without any table is an error, as a mistyped path would otherwise go unnoticed.
pub fn syzygy_tables(path: Option<&str>) -> Result<Option<(guoxiang_engine::tb::Syzygy, usize)>, String> {
    let Some(path) = path.map(str::trim).filter(|p| !p.is_empty()) else { return Ok(None) };
    let mut tables = guoxiang_syzygy::Tablebase::new();
    let n = tables.add_paths(path).map_err(|e| format!("--syzygy-path {path}: {e}"))?;
    if n == 0 {
        return Err(format!("--syzygy-path {path}: no Syzygy tables (.rtbw files) there"));
    }
    Ok(Some((guoxiang_engine::tb::Syzygy::new(std::sync::Arc::new(tables)), n)))
}
