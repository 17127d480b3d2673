//! How the server's check of a review made in a browser (guoxiang_review::upload) treats honest reviews: reviews
//! every game of a PGN file, then searches each marked move again as the check does — at a sixth of the budget, then
//! at the full budget — and prints one JSON line per marked move (game, ply, class, the review's loss, the most either
//! judge found at each budget, and whether the mark stands), then how many games an honest browser would have had
//! refused. docs/review.md, "Reviews made in the browser".
//!
//!     cargo run --release -p guoxiang-review --example upload_check -- FILE.pgn [NODES] > CHECK.jsonl

use std::io::{BufReader, Write};

use guoxiang_pgn::{Reader, Replayer};
use guoxiang_review::search::no_admit;
use guoxiang_review::upload::{self, SearchAgain};
use guoxiang_review::{DEFAULT_NODES, Options, review};
use serde_json::json;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).ok_or("usage: upload_check FILE.pgn [NODES]")?;
    let nodes: u64 =
        args.get(2).map(|s| s.parse().map_err(|e| format!("NODES: {e}"))).transpose()?.unwrap_or(DEFAULT_NODES);
    let options = Options { nodes: nodes.max(1), threads: 2, ..Options::default() };
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut reader = Reader::new(BufReader::new(file));
    let mut replayer = Replayer::new();
    let mut out = std::io::stdout().lock();
    let (mut games, mut refused, mut marks, mut failed, mut full) = (0, 0, 0, 0, 0);
    loop {
        let g = match reader.read_game(&mut replayer) {
            Ok(None) => break,
            Ok(Some(g)) => g,
            Err(e) if e.is_io() => return Err(format!("{path}: {e}")),
            Err(e) => {
                eprintln!("{e}");
                continue;
            }
        };
        let n = reader.games_started();
        if !g.errors.is_empty() {
            continue;
        }
        let r = review(&g.start, &g.moves, &options, &mut |_, _| {})?;
        let mut again = SearchAgain::new(&g.start, &g.moves, &options)?;
        let mut any = false;
        for (i, mv) in r.moves.iter().enumerate().filter(|(_, m)| m.class.is_error()) {
            again.forget();
            let first = again.losses(i, upload::first_budget(&options), &no_admit);
            let second = again.losses(i, options.nodes, &no_admit);
            let first_ok = upload::stands(mv.class, &first);
            let ok = first_ok || upload::stands(mv.class, &second);
            marks += 1;
            full += usize::from(!first_ok);
            failed += usize::from(!ok);
            any |= !ok;
            let v = json!({"game": n, "ply": i + 1, "san": mv.san, "class": mv.class, "loss": mv.loss,
                           "first": first, "full": second, "stands": ok});
            writeln!(out, "{v}").map_err(|e| e.to_string())?;
        }
        games += 1;
        refused += usize::from(any);
        eprintln!("game {n}: {games} games, {marks} marks, {full} needed the full budget, {failed} refused");
    }
    eprintln!(
        "{games} games, {refused} refused; {marks} marks, {full} searched at the full budget, {failed} not borne out"
    );
    Ok(())
}
