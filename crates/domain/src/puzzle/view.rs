//! Stored puzzles as the API's shapes (`guoxiang_protocol::http`): our puzzle object, lichess's puzzle JSON, the
//! motif catalogue with counts, and the judge's verdict.

use std::collections::HashMap;

use guoxiang_protocol::Color;
use guoxiang_protocol::http::{
    Bilingual, LichessPerf, LichessPuzzle, LichessPuzzleData, LichessPuzzleGame, LichessPuzzlePlayer, MotifTheme,
    PuzzleMotif, PuzzleThemes, PuzzleVerdict, PuzzleView, SeedTheme,
};
use guoxiang_store::{MotifTag, PuzzleRow};
use guoxiang_tactics::judge::Verdict;
use guoxiang_tactics::{Motif, Puzzle, SEED_TACTICS, lichess_themes};

use super::error::PuzzleError;

fn motif(tag: &MotifTag) -> PuzzleMotif {
    let known = Motif::from_id(&tag.id);
    PuzzleMotif {
        id: tag.id.clone(),
        text: Bilingual { zh: tag.zh.clone(), en: tag.en.clone() },
        zh: known.map(|m| m.info().zh.to_owned()),
        en: known.map(|m| m.info().en.to_owned()),
        seed: known.and_then(|m| m.seed_tactic()).map(|t| t.number),
    }
}

/// The motifs of a puzzle, each sentence said once: a motif whose sentence is the same as an earlier motif's (牵制
/// and 绝对牵制 name one pin) comes right after that motif, with an empty text.
fn motifs_once(tags: &[MotifTag]) -> Vec<PuzzleMotif> {
    let mut groups: Vec<Vec<&MotifTag>> = Vec::new();
    for t in tags {
        match groups.iter_mut().find(|g| g[0].zh == t.zh && g[0].en == t.en && !t.zh.is_empty()) {
            Some(g) => g.push(t),
            None => groups.push(vec![t]),
        }
    }
    groups
        .into_iter()
        .flat_map(|g| {
            g.into_iter().enumerate().map(|(i, t)| {
                let mut m = motif(t);
                if i > 0 {
                    m.text = Bilingual { zh: String::new(), en: String::new() };
                }
                m
            })
        })
        .collect()
}

/// The lichess theme names of a stored puzzle: its Themes column, or our motifs written as lichess names.
fn themes_of(row: &PuzzleRow) -> Vec<String> {
    if !row.themes.is_empty() {
        return row.themes.clone();
    }
    let motifs: Vec<Motif> = row.motifs.iter().filter_map(|m| Motif::from_id(&m.id)).collect();
    lichess_themes(&motifs).into_iter().map(str::to_owned).collect()
}

/// A stored puzzle read back (an error of ours when the row does not read).
pub(crate) fn parsed(row: &PuzzleRow) -> Result<Puzzle, PuzzleError> {
    Puzzle::new(&row.id, &row.fen, &row.moves)
        .map_err(|e| PuzzleError::internal("stored puzzle", format!("{}: {e}", row.id)))
}

/// Our puzzle object.
pub fn puzzle_view(row: &PuzzleRow) -> Result<PuzzleView, PuzzleError> {
    let p = parsed(row)?;
    Ok(PuzzleView {
        id: row.id.clone(),
        fen: row.fen.clone(),
        moves: row.moves.split_whitespace().map(str::to_owned).collect(),
        solver: Color::from(p.solver()),
        rating: row.glicko.rating.round() as i64,
        deviation: row.glicko.deviation.round() as i64,
        plays: row.plays,
        motifs: motifs_once(&row.motifs),
        lichess_themes: themes_of(row),
        game_url: row.game_url.clone(),
        source: row.source.clone(),
        number: row.number,
    })
}

/// The game id of a lichess game URL (`https://lichess.org/787zsVup/black#48` → `787zsVup`), empty when none.
fn game_id(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let id = rest.split('/').nth(1).unwrap_or("");
    id.split(['#', '?']).next().unwrap_or("").to_owned()
}

/// A puzzle in lichess's JSON shape (`GET /api/puzzle/daily`, `GET /api/puzzle/{id}`), plus `puzzle.fen` and
/// `puzzle.motifs`.
pub fn lichess_puzzle(row: &PuzzleRow) -> Result<LichessPuzzle, PuzzleError> {
    let p = parsed(row)?;
    let setup_san = p.position.san(p.moves[0]);
    let before = &p.position;
    let initial_ply =
        (before.fullmoves().saturating_sub(1)) * 2 + u32::from(before.turn() == guoxiang_core::Color::Black);
    let solution: Vec<String> = {
        let mut pos = p.start();
        p.solution()
            .iter()
            .map(|&m| {
                let u = pos.uci(m);
                pos.play_unchecked(m);
                u
            })
            .collect()
    };
    let player = |color: Color| LichessPuzzlePlayer { name: String::new(), id: String::new(), color, rating: None };
    Ok(LichessPuzzle {
        game: LichessPuzzleGame {
            id: game_id(&row.game_url),
            perf: LichessPerf { key: "puzzle".to_owned(), name: "Puzzle".to_owned() },
            rated: true,
            players: vec![player(Color::White), player(Color::Black)],
            pgn: setup_san,
            clock: String::new(),
        },
        puzzle: LichessPuzzleData {
            id: row.id.clone(),
            rating: row.glicko.rating.round() as i64,
            plays: row.plays,
            initial_ply,
            solution,
            themes: themes_of(row),
            fen: row.fen.clone(),
            motifs: row.motifs.iter().map(|m| m.id.clone()).collect(),
            number: Some(row.number).filter(|&n| n > 0),
        },
    })
}

/// The seeds' eighteen tactics and the motifs of the catalogue with their puzzles' `counts`: those with puzzles,
/// or with `all` every one (count 0 for those without).
pub fn themes(counts: &HashMap<String, i64>, all: bool) -> PuzzleThemes {
    let count = |m: &Motif| counts.get(m.id()).copied().unwrap_or(0);
    let seeds = SEED_TACTICS
        .iter()
        .map(|t| SeedTheme {
            number: t.number,
            zh: t.zh.to_owned(),
            en: t.en.to_owned(),
            motifs: t.motifs.iter().map(|m| m.id().to_owned()).collect(),
            count: t.motifs.iter().map(count).sum::<i64>(),
        })
        .filter(|t| all || t.count > 0)
        .collect();
    let motifs = Motif::ALL
        .iter()
        .map(|m| {
            let i = m.info();
            MotifTheme {
                id: i.id.to_owned(),
                zh: i.zh.to_owned(),
                en: i.en.to_owned(),
                about: Bilingual { zh: i.about_zh.to_owned(), en: i.about_en.to_owned() },
                seed: m.seed_tactic().map(|t| t.number),
                count: count(m),
            }
        })
        .filter(|m| all || m.count > 0)
        .collect();
    PuzzleThemes { seeds, motifs }
}

/// The judge's verdict on a try.
pub fn puzzle_verdict(v: Verdict) -> PuzzleVerdict {
    match v {
        Verdict::Correct { reply } => PuzzleVerdict::Correct { reply },
        Verdict::Solved { reply } => PuzzleVerdict::Solved { reply },
        Verdict::Wrong { reason, refutation } => PuzzleVerdict::Wrong { reason: Bilingual::from(&reason), refutation },
        Verdict::Illegal { code, reason } => PuzzleVerdict::Illegal { code, reason: Bilingual::from(&reason) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_of_urls() {
        assert_eq!(game_id("https://lichess.org/787zsVup/black#48"), "787zsVup");
        assert_eq!(game_id("https://lichess.org/MQSyb3KW#127"), "MQSyb3KW");
        assert_eq!(game_id(""), "");
    }
}
