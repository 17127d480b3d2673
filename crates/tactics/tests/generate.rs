//! The puzzle generator on a short game with a known blunder (Légal's trap: 5...Bxd1?? 6.Bxf7+ Ke7 7.Nd5#).

use guoxiang_core::{Position, UciMove};
use guoxiang_engine::Engine;
use guoxiang_pgn::{Reader, Replayer};
use guoxiang_tactics::check;
use guoxiang_tactics::generate::{Generator, Options};

const GAME: &str = r#"[Event "Test"]
[Site "https://example.org/legal"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0
"#;

#[test]
fn the_blunder_of_legals_trap_becomes_a_mate_in_two() {
    let mut reader = Reader::new(GAME.as_bytes());
    let g = reader.read_game(&mut Replayer::new()).expect("pgn").expect("a game");
    assert!(g.errors.is_empty(), "{:?}", g.errors);
    let mut generator = Generator::new(Engine::new(16), Options::default());
    let puzzles = generator.game(&g.tags, &g.start, &g.moves);
    let stats = generator.stats();
    assert_eq!(stats.positions, 14);
    // The position before 5...Bxd1.
    let before = "rn1qkbnr/ppp2p1p/3p2p1/4N3/2B1P1b1/2N5/PPPP1PPP/R1BQK2R b KQkq - 0 5";
    let p = puzzles.iter().find(|p| p.fen() == before).unwrap_or_else(|| panic!("no puzzle at 5...Bxd1: {puzzles:?}"));
    let pos = Position::from_fen(before).expect("fen");
    assert_eq!(UciMove::from_move(p.moves[0], false).to_string(), "g4d1");
    assert_eq!(pos.after(p.moves[0]).uci(p.moves[1]), "c4f7");
    assert_eq!(p.uci_moves(), "g4d1 c4f7 e8e7 c3d5");
    assert!(p.game_url.starts_with("https://example.org/legal#10"), "{}", p.game_url);
    assert!(p.rating.is_some() && p.deviation == Some(500));
    // Every generated puzzle passes the checker.
    for p in &puzzles {
        assert!(check::check(p, &Engine::new(16), check::DEFAULT_NODES).sound, "{}", p.id);
    }
    // The same game gives the same puzzles.
    let again = Generator::new(Engine::new(16), Options::default()).game(&g.tags, &g.start, &g.moves);
    assert_eq!(again, puzzles);
}
