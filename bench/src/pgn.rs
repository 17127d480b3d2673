//! PGN read + main-line replay: guoxiang's reader and SAN resolution vs pgn-reader + shakmaty, over the real games
//! in ../shared/data/pgn, from memory (no I/O in the timing). Both sides do the same work: read every game, set up
//! the start position (FEN tag when present), resolve and play each main-line SAN, skip variations.

use std::ops::ControlFlow;
use std::time::Instant;

/// Our lean visitor: the same work as the peer's.
#[derive(Default)]
struct Ours {
    pos: guoxiang_core::Position,
    fen: Option<guoxiang_core::Position>,
    plies: u64,
    errors: u64,
    stopped: bool,
}

impl guoxiang_pgn::Visitor for Ours {
    type Output = ();
    fn begin_game(&mut self) {
        self.fen = None;
        self.stopped = false;
    }
    fn tag(&mut self, name: &str, value: &str) {
        if name == "FEN" {
            self.fen = guoxiang_core::Position::from_fen_with(
                value,
                guoxiang_core::CastlingMode::Auto,
                guoxiang_core::Validation::Relaxed,
            )
            .ok();
        }
    }
    fn begin_movetext(&mut self) -> guoxiang_pgn::Skip {
        self.pos = self.fen.take().unwrap_or_default();
        guoxiang_pgn::Skip(false)
    }
    fn san(&mut self, san: &str, _at: guoxiang_pgn::Location) {
        if self.stopped {
            return;
        }
        match self.pos.parse_san(san) {
            Ok(m) => {
                self.pos.play_unchecked(m);
                self.plies += 1;
            }
            Err(_) => {
                self.errors += 1;
                self.stopped = true;
            }
        }
    }
    fn begin_variation(&mut self) -> guoxiang_pgn::Skip {
        guoxiang_pgn::Skip(true)
    }
    fn end_game(&mut self) {}
}

struct Peer {
    plies: u64,
    errors: u64,
}

impl pgn_reader::Visitor for Peer {
    type Tags = Option<shakmaty::Chess>;
    type Movetext = (shakmaty::Chess, bool);
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Self::Tags> {
        ControlFlow::Continue(None)
    }
    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: pgn_reader::RawTag<'_>) -> ControlFlow<()> {
        if name == b"FEN" {
            *tags = shakmaty::fen::Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(shakmaty::CastlingMode::Chess960).ok());
        }
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<(), Self::Movetext> {
        ControlFlow::Continue((tags.unwrap_or_default(), false))
    }
    fn san(&mut self, mt: &mut Self::Movetext, san_plus: pgn_reader::SanPlus) -> ControlFlow<()> {
        use shakmaty::Position;
        if mt.1 {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&mt.0) {
            Ok(m) => {
                mt.0.play_unchecked(m);
                self.plies += 1;
            }
            Err(_) => {
                self.errors += 1;
                mt.1 = true;
            }
        }
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _mt: &mut Self::Movetext) -> ControlFlow<(), pgn_reader::Skip> {
        ControlFlow::Continue(pgn_reader::Skip(true))
    }
    fn end_game(&mut self, _mt: Self::Movetext) {}
}

fn ours(data: &[u8]) -> (u64, u64) {
    let mut r = guoxiang_pgn::Reader::new(data);
    let mut v = Ours::default();
    while let Ok(Some(())) = r.read_game(&mut v) {}
    (v.plies, v.errors)
}

fn ours_replayer(data: &[u8]) -> u64 {
    let mut r = guoxiang_pgn::Reader::new(data);
    let mut v = guoxiang_pgn::Replayer::new();
    let mut plies = 0;
    while let Ok(Some(g)) = r.read_game(&mut v) {
        plies += g.moves.len() as u64;
    }
    plies
}

fn peer(data: &[u8]) -> (u64, u64) {
    let mut r = pgn_reader::Reader::new(data);
    let mut v = Peer { plies: 0, errors: 0 };
    while let Ok(Some(())) = r.read_game(&mut v) {}
    (v.plies, v.errors)
}

pub fn bench(reps: usize) {
    let dir = std::env::var("GUOXIANG_DATA").unwrap_or_else(|_| "../../shared/data".to_string());
    let files = ["lichess_db_2016-05_excerpt.pgn", "lichess_db_2017-05_excerpt_half_a.pgn"];
    println!("| file | MB | plies | guoxiang MB/s | pgn-reader+shakmaty MB/s | ratio | guoxiang Replayer MB/s |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for f in files {
        let path = format!("{dir}/pgn/{f}");
        let Ok(data) = std::fs::read(&path) else {
            println!("SKIP: {path} not found (set GUOXIANG_DATA)");
            continue;
        };
        let (mut a, mut b, mut c) = (f64::MAX, f64::MAX, f64::MAX);
        let mut plies = 0;
        for _ in 0..reps {
            let t = Instant::now();
            let (p, e) = ours(&data);
            a = a.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let (q, e2) = peer(&data);
            b = b.min(t.elapsed().as_secs_f64());
            assert_eq!((p, e), (q, e2), "both sides replay the same plies");
            let t = Instant::now();
            assert_eq!(ours_replayer(&data), p);
            c = c.min(t.elapsed().as_secs_f64());
            plies = p;
        }
        let mb = data.len() as f64 / 1e6;
        println!("| {f} | {mb:.2} | {plies} | {:.1} | {:.1} | {:.2}× | {:.1} |", mb / a, mb / b, b / a, mb / c);
    }
}

pub fn profile() {
    let dir = std::env::var("GUOXIANG_DATA").unwrap_or_else(|_| "../../shared/data".to_string());
    let data = std::fs::read(format!("{dir}/pgn/lichess_db_2016-05_excerpt.pgn")).unwrap();
    for _ in 0..5 {
        println!("{:?}", ours(&data));
    }
}
