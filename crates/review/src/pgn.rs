//! A review written into its game as PGN: every move gets `[%eval …]` (from White's side, as lichess writes it),
//! inaccuracies, mistakes and blunders their NAG (?! ? ??) and the comment in the chosen language, and the engine's
//! better line as a variation.

use guoxiang_core::{Lang, Move, Position};
use guoxiang_pgn::{Game, GameResult, Line, Node};

use crate::GameReview;
use crate::chances::nag;

/// The most moves of a better line written as a variation.
const VARIATION_PLIES: usize = 8;

/// The game of `tags`, `start` and `moves` with `review` written in. The `Annotator` tag names the engine and the
/// node budget; `WhiteAccuracy`/`BlackAccuracy` hold the accuracies.
pub fn annotate(
    tags: &[(String, String)],
    start: &Position,
    moves: &[Move],
    result: Option<GameResult>,
    review: &GameReview,
    lang: Lang,
) -> Game {
    let mut tags: Vec<(String, String)> = tags
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "Annotator" | "WhiteAccuracy" | "BlackAccuracy"))
        .cloned()
        .collect();
    tags.push(("Annotator".into(), format!("guoxiang review, {} nodes per position", review.nodes)));
    for (name, acc) in [("WhiteAccuracy", review.white.accuracy), ("BlackAccuracy", review.black.accuracy)] {
        if let Some(a) = acc {
            tags.push((name.into(), format!("{a:.1}")));
        }
    }
    let mut line = Line::default();
    let mut pos = start.clone();
    for (&m, r) in moves.iter().zip(&review.moves) {
        let mut node = Node::new(pos.san(m));
        node.nags.extend(nag(r.class, r.loss));
        let mut comment = format!("[%eval {}]", r.eval.pgn());
        if let Some(c) = &r.comment {
            comment.push(' ');
            comment.push_str(match lang {
                Lang::Zh => &c.zh,
                Lang::En => &c.en,
            });
        }
        node.comments_after.push(comment);
        if r.class.is_error() && !r.best_line.is_empty() && r.best.as_deref() != Some(r.uci.as_str()) {
            let variation = Line {
                nodes: r.best_line.iter().take(VARIATION_PLIES).map(|s| Node::new(s.clone())).collect(),
                comments: Vec::new(),
            };
            node.variations.push(variation);
        }
        line.nodes.push(node);
        pos.play_unchecked(m);
    }
    Game { tags, moves: line, result }
}
