//! The judge of one try at a puzzle (`POST /api/puzzle/{id}/try`), stateless: the moves played so far after the
//! setup move come in, the last of them the solver's try, and the verdict goes out.
//!
//! - every move before the try must be the puzzle's line, else a [`JudgeError`] names its index;
//! - the try is the solution's move, or any checkmate → [`Verdict::Correct`] with the opponent's reply, or
//!   [`Verdict::Solved`] when the puzzle is over;
//! - a legal move that is not the solution → [`Verdict::Wrong`] with a short reason in zh and en from a small,
//!   deterministic search of our engine ([`JUDGE_NODES`] nodes, one thread, a fresh table) on the position after
//!   it: the opponent's best answer and what it does (mates, takes a piece, keeps the extra material, or simply
//!   leaves no advantage);
//! - a move the rules forbid → [`Verdict::Illegal`] with the rules core's explanation (`Position::explain_uci`).

use guoxiang_engine::clock::Instant;

use guoxiang_core::{Color, Explanation, Move, Position, Role, Text};
use guoxiang_engine::{Control, Engine, Limits, Silent};

use crate::Puzzle;

/// The engine's node budget for explaining a wrong move.
pub const JUDGE_NODES: u64 = 20_000;

/// The verdict on a try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Right; the opponent answers with `reply` (UCI) and the solver moves again.
    Correct { reply: String },
    /// Right, and the puzzle is over. `reply` is the opponent's last move when the line ends with one.
    Solved { reply: Option<String> },
    /// Legal but not the solution: why, and the opponent's best answer (UCI), when it has one.
    Wrong { reason: Text, refutation: Option<String> },
    /// Not a legal move: the rules core's reason code and explanation.
    Illegal { code: String, reason: Text },
}

/// A try the judge cannot rule on: `index` names the move of the list at fault (`None`: the list itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgeError {
    pub index: Option<usize>,
    pub text: Text,
}

impl JudgeError {
    /// The request field at fault: `moves[2]`, or `moves`.
    pub fn field(&self) -> String {
        match self.index {
            Some(i) => format!("moves[{i}]"),
            None => "moves".to_owned(),
        }
    }

    fn at(index: usize, zh: String, en: String) -> JudgeError {
        JudgeError { index: Some(index), text: Text { zh, en } }
    }
}

impl std::fmt::Display for JudgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field(), self.text.en)
    }
}

impl std::error::Error for JudgeError {}

/// Judges `moves` (UCI, after the setup move; the last is the solver's try) on puzzle `p`, explaining a wrong move
/// with a search of `nodes` nodes. Moves in the sentences are written with English letters (`…Rxd2`).
pub fn judge(p: &Puzzle, moves: &[String], nodes: u64) -> Result<Verdict, JudgeError> {
    judge_in(p, moves, nodes, false)
}

/// [`judge`], with the moves in the sentences written with Chinese piece letters (`…车xd2`) when `chinese_letters`
/// (the learner's choice), in both languages' sentences.
pub fn judge_in(p: &Puzzle, moves: &[String], nodes: u64, chinese_letters: bool) -> Result<Verdict, JudgeError> {
    let solution = p.solution();
    let Some(last) = moves.len().checked_sub(1) else {
        return Err(JudgeError {
            index: None,
            text: Text {
                zh: "至少要有一步（你的着法）".into(), en: "at least one move (your try) is needed".into()
            },
        });
    };
    if last >= solution.len() {
        return Err(JudgeError::at(
            solution.len().min(last),
            format!("这道题在 {} 步之后就结束了", solution.len()),
            format!("the puzzle is over after {} moves", solution.len()),
        ));
    }
    if last % 2 == 1 {
        return Err(JudgeError::at(
            last,
            "最后一步须是你的着法，而这是对方的".into(),
            "the last move must be yours (the solver's), and this one is the opponent's".into(),
        ));
    }
    let mut pos = p.start();
    for (i, text) in moves[..last].iter().enumerate() {
        match pos.parse_uci(text) {
            Ok(m) if m == solution[i] => pos.play_unchecked(m),
            Ok(_) => {
                return Err(JudgeError::at(
                    i,
                    format!("{text} 不是这道题的着法，后面却还有着法"),
                    format!("{text} is not the puzzle's move here, but more moves follow it"),
                ));
            }
            Err(e) => {
                return Err(JudgeError::at(
                    i,
                    format!("{text} 无法走出：{e}"),
                    format!("{text} cannot be played: {e}"),
                ));
            }
        }
    }
    let text = &moves[last];
    let m = match pos.explain_uci(text) {
        Err(e) => {
            return Err(JudgeError::at(
                last,
                format!("{text} 不是 UCI 着法：{e}"),
                format!("{text} is not a UCI move: {e}"),
            ));
        }
        Ok(Explanation::Illegal(r)) => return Ok(Verdict::Illegal { code: r.code().to_owned(), reason: r.text() }),
        Ok(Explanation::Legal(m)) => m,
    };
    let after = pos.after(m);
    if after.is_checkmate() || last + 1 == solution.len() && m == solution[last] {
        return Ok(Verdict::Solved { reply: None });
    }
    if m != solution[last] {
        return Ok(wrong(&after, nodes, chinese_letters));
    }
    let reply = after.uci(solution[last + 1]);
    if last + 2 == solution.len() { Ok(Verdict::Solved { reply: Some(reply) }) } else { Ok(Verdict::Correct { reply }) }
}

fn role_name(r: Role) -> (&'static str, &'static str) {
    match r {
        Role::Pawn => ("兵", "pawn"),
        Role::Knight => ("马", "knight"),
        Role::Bishop => ("象", "bishop"),
        Role::Rook => ("车", "rook"),
        Role::Queen => ("后", "queen"),
        Role::King => ("王", "king"),
    }
}

/// Material of `side` in pawns (P 1, N 3, B 3, R 5, Q 9).
fn material(pos: &Position, side: Color) -> i32 {
    [(Role::Pawn, 1), (Role::Knight, 3), (Role::Bishop, 3), (Role::Rook, 5), (Role::Queen, 9)]
        .iter()
        .map(|&(r, v)| v * pos.pieces(side, r).count() as i32)
        .sum()
}

/// The verdict on a wrong but legal move; `after` is the position after it (the opponent to move).
fn wrong(after: &Position, nodes: u64, chinese_letters: bool) -> Verdict {
    if after.legal_moves().is_empty() {
        return Verdict::Wrong {
            reason: Text {
                zh: "这步让对方无子可动：逼和。".into(), en: "That move stalemates: a draw.".into()
            },
            refutation: None,
        };
    }
    let mut engine = Engine::new(1);
    engine.options.threads = 1;
    let limits = Limits { nodes: Some(nodes.max(1)), ..Limits::default() };
    let result = engine.search(after, &[], &limits, &Control::default(), &Silent, Instant::now());
    let Some(best) = result.best else {
        return Verdict::Wrong {
            reason: Text { zh: "这步不是题目的解法。".into(), en: "That is not the solution.".into() },
            refutation: None,
        };
    };
    let them = after.turn();
    let written = if chinese_letters { after.san_zh(best) } else { after.san(best) };
    let san = format!("{}{}", if them == Color::Black { "…" } else { "" }, written);
    let reason = explain_refutation(after, best, &san, result.score);
    Verdict::Wrong { reason, refutation: Some(after.uci(best)) }
}

fn explain_refutation(after: &Position, best: Move, san: &str, score: guoxiang_engine::Score) -> Text {
    let them = after.turn();
    let text = |zh: String, en: String| Text { zh, en };
    match score.mate_moves() {
        Some(1) => return text(format!("对方走 {san}，将死。"), format!("{san} is checkmate.")),
        Some(n) if n > 0 => {
            return text(format!("对方走 {san}，{n} 步内将死你。"), format!("{san}, and they mate in {n}."));
        }
        Some(_) => {
            return text(
                "这步也能将死对方，但不是最快的将杀；按题目的思路走。".into(),
                "This mates too, but there is a faster mate; find the puzzle's move.".into(),
            );
        }
        None => {}
    }
    let captured = if best.is_en_passant() {
        Some(Role::Pawn)
    } else if best.is_castle() {
        None
    } else {
        after.role_at(best.to())
    };
    if let Some(role) = captured {
        let (zh, en) = role_name(role);
        return text(format!("对方走 {san}，吃掉你的{zh}。"), format!("{san} takes your {en}."));
    }
    let next = after.after(best);
    if material(&next, them) - material(&next, !them) >= 2 {
        return text(format!("对方走 {san}，保住多出的子力。"), format!("{san}, and they keep the extra material."));
    }
    // The score is the opponent's; ours is its negation.
    if -score.cp() <= 50 {
        text(format!("对方走 {san}，你的优势就没有了。"), format!("After {san} your advantage is gone."))
    } else {
        text(format!("还有更强的一着；对方可以走 {san}。"), format!("There is a stronger move; they answer {san}."))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// lichess puzzle 00008 (CC0): Black's bishop takes on g3, White wins with Rxe7.
    fn p00008() -> Puzzle {
        Puzzle::new("00008", "r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24", "f2g3 e6e7 b2b1 b3c1 b1c1 h6c1")
            .expect("puzzle")
    }

    fn try_(p: &Puzzle, moves: &[&str]) -> Result<Verdict, JudgeError> {
        judge(p, &moves.iter().map(|s| s.to_string()).collect::<Vec<_>>(), JUDGE_NODES)
    }

    #[test]
    fn the_line_is_correct_then_solved() {
        let p = p00008();
        assert_eq!(try_(&p, &["e6e7"]), Ok(Verdict::Correct { reply: "b2b1".into() }));
        assert_eq!(try_(&p, &["e6e7", "b2b1", "b3c1"]), Ok(Verdict::Correct { reply: "b1c1".into() }));
        assert_eq!(try_(&p, &["e6e7", "b2b1", "b3c1", "b1c1", "h6c1"]), Ok(Verdict::Solved { reply: None }));
    }

    #[test]
    fn moves_off_the_line_are_errors_naming_their_index() {
        let p = p00008();
        let e = try_(&p, &["h2g3", "b2b1", "b3c1"]).expect_err("off the line");
        assert_eq!(e.field(), "moves[0]");
        let e = try_(&p, &["e6e7", "b2b1"]).expect_err("the opponent's move last");
        assert_eq!(e.field(), "moves[1]");
        let e = try_(&p, &["e6e7", "b2b1", "b3c1", "b1c1", "h6c1", "h8g8"]).expect_err("too long");
        assert_eq!(e.index, Some(5));
        assert!(e.text.en.contains("over after 5 moves"), "{}", e.text.en);
        assert_eq!(try_(&p, &[]).expect_err("empty").field(), "moves");
        assert_eq!(try_(&p, &["zz"]).expect_err("not uci").field(), "moves[0]");
        assert_eq!(try_(&p, &["e6e7", "b2b2", "b3c1"]).expect_err("not uci").field(), "moves[1]");
    }

    #[test]
    fn illegal_moves_are_explained_by_the_rules_core() {
        let p = p00008();
        match try_(&p, &["a2a5"]) {
            Ok(Verdict::Illegal { code, reason }) => {
                assert!(!code.is_empty());
                assert!(!reason.zh.is_empty() && !reason.en.is_empty());
                let expected = p.start().explain_uci("a2a5").expect("uci");
                let Explanation::Illegal(r) = expected else { panic!("a2a5 is illegal") };
                assert_eq!(code, r.code());
                assert_eq!(reason, r.text());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn any_mate_solves() {
        // Two back-rank mates: the line has Ra8#, Re8# mates as well.
        let p = Puzzle::new("m", "7k/5ppp/8/8/8/8/5PPP/R3R1K1 b - - 0 1", "h8g8 a1a8").expect("puzzle");
        assert_eq!(try_(&p, &["a1a8"]), Ok(Verdict::Solved { reply: None }));
        assert_eq!(try_(&p, &["e1e8"]), Ok(Verdict::Solved { reply: None }));
    }

    #[test]
    fn a_wrong_move_that_drops_a_piece_says_so() {
        let p = Puzzle::new("r", "6k1/3r1ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", "d7d8 d1d8").expect("puzzle");
        assert_eq!(try_(&p, &["d1d8"]), Ok(Verdict::Solved { reply: None }));
        match try_(&p, &["d1d2"]) {
            Ok(Verdict::Wrong { reason, refutation }) => {
                assert_eq!(refutation.as_deref(), Some("d8d2"));
                assert_eq!(reason.zh, "对方走 …Rxd2，吃掉你的车。");
                assert_eq!(reason.en, "…Rxd2 takes your rook.");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn chinese_letters_when_chosen() {
        let p = Puzzle::new("r", "6k1/3r1ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", "d7d8 d1d8").expect("puzzle");
        let moves = vec!["d1d2".to_owned()];
        match judge_in(&p, &moves, JUDGE_NODES, true) {
            Ok(Verdict::Wrong { reason, refutation }) => {
                assert_eq!(refutation.as_deref(), Some("d8d2"));
                assert_eq!(reason.zh, "对方走 …车xd2，吃掉你的车。");
                assert_eq!(reason.en, "…车xd2 takes your rook.");
            }
            other => panic!("{other:?}"),
        }
        let p = Puzzle::new("b", "6k1/3r1ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", "d7d8 h2h3").expect("puzzle");
        match judge_in(&p, &["a1a2".to_owned()], JUDGE_NODES, true) {
            Ok(Verdict::Wrong { reason, .. }) => assert_eq!(reason.zh, "对方走 …车d1#，将死。"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_wrong_move_that_allows_mate_says_so() {
        let p = Puzzle::new("b", "6k1/3r1ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", "d7d8 h2h3").expect("puzzle");
        match try_(&p, &["a1a2"]) {
            Ok(Verdict::Wrong { reason, refutation }) => {
                assert_eq!(refutation.as_deref(), Some("d8d1"));
                assert_eq!(reason.zh, "对方走 …Rd1#，将死。");
                assert_eq!(reason.en, "…Rd1# is checkmate.");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn wrong_verdicts_are_deterministic() {
        let p = p00008();
        let a = try_(&p, &["h2g3"]).expect("verdict");
        assert!(matches!(&a, Verdict::Wrong { refutation: Some(_), reason } if !reason.zh.is_empty()), "{a:?}");
        assert_eq!(try_(&p, &["h2g3"]).expect("verdict"), a);
    }
}
