// SPDX-License-Identifier: GPL-3.0-or-later
//! "Learn from your mistakes" (docs/review.md, "Learn from your mistakes"): which of a game's errors become
//! exercises, and whether a move tried in one is right.
//!
//! - **An exercise** is a mistake, blunder or missed win that changed something a beginner can see: it let a mate
//!   in or missed one, it gave material away (the engine's line after it ends at least a pawn worse, in material,
//!   than the engine's line from the position before), or it lost a result class (won → drawn or lost, drawn →
//!   lost, in win-chance terms: [`Outcome`]). A move that only lost some winning chances (an ordinary developing
//!   move the engine likes less) is not.
//! - **A try is right** when it keeps what the best move keeps: its material at the end of the engine's line (less
//!   than [`MATERIAL_MIN`] pawns short), by both judges, and its result class (a mate when the best move mates), by
//!   at least one — or when it loses less than an inaccuracy would. So saving an attacked piece on another square
//!   than the engine's is right.
//! - **The answer is said in words** ([`TryVerdict::words`]): what the try keeps, or what it lets the opponent do
//!   (take a piece, mate) — no evaluations, no percentages.

use guoxiang_core::{Color, Move, Position, Role};
use guoxiang_engine::Engine;

use crate::chances::{Class, Eval, INACCURACY_MIN, NOT_WON, WON};
use crate::{Judgement, judge};

/// What a position promises its side to move, in win-chance terms.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// It is mated (by force).
    Mated,
    /// Lost (expected score at most 100 − [`WON`]).
    Lost,
    /// Neither won nor lost.
    Drawn,
    /// Won (expected score at least [`WON`]).
    Won,
    /// It mates by force.
    Mates,
}

/// The result class of an evaluation from its side's view.
pub fn outcome(e: Eval) -> Outcome {
    match e {
        Eval::Mate(m) if m > 0 => Outcome::Mates,
        Eval::Mate(_) => Outcome::Mated,
        Eval::Cp(_) => {
            let x = e.expected();
            if x >= WON {
                Outcome::Won
            } else if x <= 100.0 - WON {
                Outcome::Lost
            } else {
                Outcome::Drawn
            }
        }
    }
}

/// Whether a try evaluated `got` (its side's view) keeps what the best move's `wanted` promised: a forced mate only
/// by a forced mate; a won position by one still at least [`NOT_WON`] (the missed win's margin: a try just under
/// [`WON`] keeps a win just over it); a drawn one by one not lost; a lost one by anything that is not a forced mate
/// against it.
pub fn keeps(wanted: Eval, got: Eval) -> bool {
    let x = got.expected();
    match outcome(wanted) {
        Outcome::Mates => outcome(got) == Outcome::Mates,
        Outcome::Won => x >= NOT_WON,
        Outcome::Drawn => outcome(got) >= Outcome::Drawn,
        Outcome::Lost => outcome(got) != Outcome::Mated,
        Outcome::Mated => true,
    }
}

/// Whether going from `was` to `is` (one side's view) lost a result class, with the same margins as [`keeps`]:
/// won → below [`NOT_WON`]; drawn (at least 100 − [`NOT_WON`]) → lost.
fn lost_class(was: Eval, is: Eval) -> bool {
    match outcome(was) {
        Outcome::Won | Outcome::Mates => is.expected() < NOT_WON,
        Outcome::Drawn => was.expected() >= 100.0 - NOT_WON && outcome(is) <= Outcome::Lost,
        _ => false,
    }
}

fn value(r: Role) -> i32 {
    match r {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// Material of `pov` minus the other side's, in pawns.
fn balance(pos: &Position, pov: Color) -> i32 {
    [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|r| value(r) * (pos.pieces(pov, r).count() as i32 - pos.pieces(!pov, r).count() as i32))
        .sum()
}

/// The material balance for `pov` at the end of `line` from `pos`: at most `plies` moves, and past them only while
/// captures go on (so an exchange is counted whole).
pub fn material_along(pos: &Position, line: &[Move], plies: usize, pov: Color) -> i32 {
    let mut p = pos.clone();
    let mut last = balance(&p, pov);
    for (i, &m) in line.iter().enumerate() {
        if !p.is_legal(m) {
            break;
        }
        if i >= plies && !p.is_capture(m) {
            break;
        }
        p.play_unchecked(m);
        last = balance(&p, pov);
    }
    last
}

/// Plies of the engine's line counted from the position before the move (the line after it is one ply shorter:
/// the move itself is the first).
const LINE_PLIES: usize = 4;

/// Material (pawns) a move must give away, against the engine's line, to make an exercise by itself: a pawn is
/// within what the engine's short lines get wrong (they stop in the middle of an exchange or a gambit), two are
/// not; a pawn that decides the game loses a result class, which makes an exercise anyway.
pub const MATERIAL_MIN: i32 = 2;

/// Why an error is an exercise.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// It let the opponent mate.
    AllowsMate,
    /// It missed a mate.
    MissesMate,
    /// It gave away this many pawns' worth of material (at least [`MATERIAL_MIN`]) against the engine's line.
    Material(i32),
    /// It lost a result class (won → drawn or lost, drawn → lost).
    Result,
}

/// Whether move `m` from `before`, of class `class`, makes an exercise, and why. `eval_before` and `eval_after` are
/// the evaluations before the move (with the best move) and after it, **from the mover's side**; `best_line` is the
/// engine's line from `before`, `reply_line` the engine's line from the position after `m` (the opponent's best).
pub fn exercise(
    before: &Position,
    m: Move,
    class: Class,
    eval_before: Eval,
    eval_after: Eval,
    best_line: &[Move],
    reply_line: &[Move],
) -> Option<Why> {
    if !class.is_mistake_or_worse() || !before.is_legal(m) || best_line.first() == Some(&m) {
        return None;
    }
    let (was, is) = (outcome(eval_before), outcome(eval_after));
    if is == Outcome::Mated && was != Outcome::Mated {
        return Some(Why::AllowsMate);
    }
    if was == Outcome::Mates && is != Outcome::Mates {
        return Some(Why::MissesMate);
    }
    let mover = before.turn();
    let kept = material_along(before, best_line, LINE_PLIES, mover);
    let left = material_along(&before.after(m), reply_line, LINE_PLIES - 1, mover);
    if kept - left >= MATERIAL_MIN && was > Outcome::Lost {
        return Some(Why::Material(kept - left));
    }
    if lost_class(eval_before, eval_after) {
        return Some(Why::Result);
    }
    None
}

/// [`exercise`] from the judgements of the position before the move (`jb`) and after it (`ja`, the opponent's view).
pub fn exercise_judged(before: &Position, m: Move, class: Class, jb: &Judgement, ja: &Judgement) -> Option<Why> {
    exercise(before, m, class, jb.eval, ja.eval.flip(), &jb.line, &ja.line)
}

/// A sentence in the four forms the review writes: Chinese and English, each with Chinese piece letters (马f3) and
/// with SAN letters (Nf3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    /// Chinese, Chinese letters.
    pub zh: String,
    /// Chinese, SAN letters.
    pub zh_latin: String,
    /// English, SAN letters.
    pub en: String,
    /// English, Chinese letters.
    pub en_chinese: String,
}

/// The verdict on one try.
#[derive(Clone, Debug, PartialEq)]
pub struct TryVerdict {
    pub correct: bool,
    /// Winning chances the try loses by the stricter judge, percentage points (not shown to the learner).
    pub loss: f64,
    /// What the try keeps, or what it allows, in words.
    pub words: Words,
}

/// A line of moves in SAN and in SAN with Chinese letters (at most `n` moves).
fn lines(pos: &Position, line: &[Move], n: usize) -> (String, String) {
    let line = &line[..line.len().min(n)];
    (crate::san_line(pos, line).join(" "), crate::san_line_zh(pos, line).join(" "))
}

fn words(zh: impl Fn(bool) -> String, en: impl Fn(bool) -> String) -> Words {
    Words { zh: zh(true), zh_latin: zh(false), en: en(false), en_chinese: en(true) }
}

/// One judge's view of a try: the position before (`jb`) and after the try (`ja`).
struct Seen {
    jb: Judgement,
    ja: Judgement,
}

impl Seen {
    fn loss(&self) -> f64 {
        (self.jb.expected - (100.0 - self.ja.expected)).max(0.0)
    }

    /// Whether the try keeps the best move's material (the side to move at `pos` is the mover): the engine's line
    /// after it ends less than [`MATERIAL_MIN`] pawns worse than the line after the best move (or it mates).
    fn keeps_material(&self, pos: &Position, after: &Position) -> bool {
        let mover = pos.turn();
        let kept = material_along(pos, &self.jb.line, LINE_PLIES, mover);
        let left = material_along(after, &self.ja.line, LINE_PLIES - 1, mover);
        left > kept - MATERIAL_MIN || outcome(self.ja.eval.flip()) == Outcome::Mates
    }

    /// Whether the try keeps the best move's result class ([`keeps`]).
    fn keeps_result(&self) -> bool {
        keeps(self.jb.eval, self.ja.eval.flip())
    }
}

/// Judges the move `m` tried in `pos` (its `history` as for [`judge`]): right when, by both judges (the
/// hand-written evaluation and the network, each searching `nodes` with a table of `hash_mb` MiB), it keeps what the
/// best move keeps — its material by both judges, its result class by at least one — or when it loses less than an
/// inaccuracy.
pub fn judge_try(pos: &Position, history: &[u64], m: Move, nodes: u64, hash_mb: usize) -> TryVerdict {
    let after = pos.after(m);
    let mut next_history = history.to_vec();
    next_history.push(pos.hash());
    let seen = [false, true].map(|network| {
        let mut engine = Engine::new(hash_mb);
        if !network {
            engine.options.nnue = None;
        }
        Seen { jb: judge(&engine, pos, history, nodes), ja: judge(&engine, &after, &next_history, nodes) }
    });
    let loss = seen.iter().map(Seen::loss).fold(0.0, f64::max);
    // Material is a fact both judges must see kept; the result class is a judgement on which they often differ at
    // a small budget (one finds a win where the other finds an edge): one judge that finds it kept is enough.
    let correct = (seen.iter().all(|s| s.keeps_material(pos, &after)) && seen.iter().any(Seen::keeps_result))
        || loss < INACCURACY_MIN;
    // The judge that finds the try worse speaks for it.
    let s = if seen[1].loss() > seen[0].loss() { &seen[1] } else { &seen[0] };
    let words = if correct { right_words(pos, &after, s) } else { wrong_words(pos, m, &after, s) };
    TryVerdict { correct, loss, words }
}

/// What a right try keeps.
fn right_words(pos: &Position, after: &Position, s: &Seen) -> Words {
    if after.is_checkmate() {
        return words(|_| "将杀！".into(), |_| "Checkmate!".into());
    }
    let got = outcome(s.ja.eval.flip());
    if got == Outcome::Mates {
        let (en, zh) = lines(after, &s.ja.line, 5);
        return words(
            |c| format!("这步同样能强制将杀：{}。", if c { &zh } else { &en }),
            |c| format!("This forces mate too: {}.", if c { &zh } else { &en }),
        );
    }
    let mover = pos.turn();
    let now = balance(pos, mover);
    let left = material_along(after, &s.ja.line, LINE_PLIES - 1, mover);
    if left > now {
        return words(
            |_| "这步赢得了子力，和最佳着法一样好。".into(),
            |_| "This wins material, as the best move does.".into(),
        );
    }
    if got == Outcome::Won {
        return words(
            |_| "这步保住了子力，也保持了优势。".into(),
            |_| "This keeps your material and your advantage.".into(),
        );
    }
    words(
        |_| "这步保住了子力，局面也没有变差。".into(),
        |_| "This keeps your material, and your position holds.".into(),
    )
}

/// What a wrong try allows (or misses).
fn wrong_words(pos: &Position, m: Move, after: &Position, s: &Seen) -> Words {
    let mover = pos.turn();
    let wanted = outcome(s.jb.eval);
    let got = outcome(s.ja.eval.flip());
    let (reply_en, reply_zh) = lines(after, &s.ja.line, 3);
    let reply = |c: bool| if c { reply_zh.clone() } else { reply_en.clone() };
    if after.is_stalemate() {
        return words(|_| "这步让对方无子可动：逼和。".into(), |_| "This stalemates: a draw.".into());
    }
    if got == Outcome::Mated && wanted != Outcome::Mated {
        let (en, zh) = lines(after, &s.ja.line, 6);
        return words(
            |c| format!("这步之后对方可以将杀：{}。", if c { &zh } else { &en }),
            |c| format!("After this the opponent mates: {}.", if c { &zh } else { &en }),
        );
    }
    if wanted == Outcome::Mates && got != Outcome::Mates {
        return words(|_| "这里可以强制将杀，再找找看。".into(), |_| "There is a forced mate here: look again.".into());
    }
    let kept = material_along(pos, &s.jb.line, LINE_PLIES, mover);
    let left = material_along(after, &s.ja.line, LINE_PLIES - 1, mover);
    if left < kept {
        // The opponent's first capture, when it takes one of the mover's pieces.
        if let Some(&r) = s.ja.line.first()
            && after.is_legal(r)
            && after.is_capture(r)
            && let Some(role) = after.role_at(r.to())
        {
            let sq = r.to().name();
            return words(
                |c| format!("这步之后，对方可以吃掉你 {sq} 的{}（{}）。", role.zh_char(), reply(c)),
                |c| format!("After this the opponent takes your {} on {sq} ({}).", role.name(), reply(c)),
            );
        }
        if kept > balance(pos, mover) {
            return words(
                |_| "这里有赢得子力的机会，这步错过了。".into(),
                |_| "There is material to win here, and this move misses it.".into(),
            );
        }
        return words(|c| format!("这步会丢掉子力：{}。", reply(c)), |c| format!("This loses material: {}.", reply(c)));
    }
    let _ = m;
    match (wanted, got) {
        (Outcome::Won | Outcome::Mates, Outcome::Drawn) => {
            words(|_| "这步让优势溜走了。".into(), |_| "This lets your advantage slip away.".into())
        }
        (_, Outcome::Lost | Outcome::Mated) => {
            words(|_| "这步之后你的局面会变差。".into(), |_| "After this your position gets worse.".into())
        }
        _ => words(|_| "还有更好的着法，再想想。".into(), |_| "There is a better move: think again.".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position after `sans` from the start, with its history for [`judge`].
    fn after(sans: &[&str]) -> (Position, Vec<u64>) {
        let mut p = Position::from_fen(guoxiang_core::STARTING_FEN).expect("fen");
        let mut history = Vec::new();
        for s in sans {
            history.push(p.hash());
            p.play_san(s).expect("san");
        }
        (p, history)
    }

    const NODES: u64 = 20_000;

    // 1. e4 e5 2. Nf3 Nc6 3. Bc4 a6 4. O-O b5: the bishop on c4 is attacked by a pawn.
    const ATTACKED: [&str; 8] = ["e4", "e5", "Nf3", "Nc6", "Bc4", "a6", "O-O", "b5"];

    #[test]
    fn saving_the_attacked_bishop_on_another_square_is_right() {
        let (pos, history) = after(&ATTACKED);
        for san in ["Bb3", "Be2", "Bd5", "Bd3"] {
            let m = pos.parse_san(san).expect("san");
            let v = judge_try(&pos, &history, m, NODES, 8);
            assert!(v.correct, "{san}: {v:?}");
            assert!(v.words.zh.contains("保住") || v.words.zh.contains("赢得"), "{san}: {}", v.words.zh);
            assert!(!v.words.zh.chars().any(|c| c.is_ascii_digit() || c == '%'), "{san}: {}", v.words.zh);
        }
    }

    #[test]
    fn a_try_that_leaves_the_bishop_to_be_taken_is_wrong_and_says_which() {
        let (pos, history) = after(&ATTACKED);
        let m = pos.parse_san("d3").expect("san");
        let v = judge_try(&pos, &history, m, NODES, 8);
        assert!(!v.correct, "{v:?}");
        assert!(v.words.zh.contains("c4 的象") && v.words.zh.contains("bxc4"), "{}", v.words.zh);
        assert!(v.words.zh_latin.contains("c4 的象") && v.words.zh_latin.contains("bxc4"), "{}", v.words.zh_latin);
        assert!(v.words.en.contains("bishop on c4"), "{}", v.words.en);
        assert!(!v.words.zh.contains('%') && !v.words.en.contains('%'), "{v:?}");
        // Taking a pawn with it gives the bishop for the pawn: wrong too.
        let v = judge_try(&pos, &history, pos.parse_san("Bxb5").expect("san"), NODES, 8);
        assert!(!v.correct, "{v:?}");
    }

    #[test]
    fn missing_a_mate_in_one_is_wrong_and_the_mate_is_right() {
        // 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6: Qxf7# mates.
        let (pos, history) = after(&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]);
        let mate = judge_try(&pos, &history, pos.parse_san("Qxf7#").expect("san"), NODES, 8);
        assert!(mate.correct && mate.words.en == "Checkmate!", "{mate:?}");
        let slow = judge_try(&pos, &history, pos.parse_san("d3").expect("san"), NODES, 8);
        assert!(!slow.correct, "{slow:?}");
    }

    /// The judgements before and after `sans[last]` played after `sans[..last]`, and its exercise verdict as the
    /// review would class it a mistake.
    fn why(sans: &[&str]) -> Option<Why> {
        let (before, history) = after(&sans[..sans.len() - 1]);
        let m = before.parse_san(sans[sans.len() - 1]).expect("san");
        let engine = Engine::new(8);
        let jb = judge(&engine, &before, &history, NODES);
        let mut h = history.clone();
        h.push(before.hash());
        let ja = judge(&engine, &before.after(m), &h, NODES);
        exercise_judged(&before, m, Class::Mistake, &jb, &ja)
    }

    #[test]
    fn only_real_mistakes_make_exercises() {
        // Developing moves and a slow pawn move lose a little at most: no exercise, even if marked a mistake.
        assert_eq!(why(&["e4", "e5", "Nf3", "Nc6", "Bc4"]), None);
        assert_eq!(why(&["e4", "e5", "Nf3", "Nc6", "Nc3"]), None);
        assert_eq!(why(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "h3"]), None);
        // Leaving the attacked bishop en prise gives a piece away.
        assert!(
            matches!(why(&ATTACKED.iter().copied().chain(["d3"]).collect::<Vec<_>>()), Some(Why::Material(n)) if n >= 2)
        );
        // Letting in a mate.
        assert_eq!(why(&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]), Some(Why::AllowsMate));
        // Missing a mate in one.
        assert_eq!(why(&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "d3"]), Some(Why::MissesMate));
        // A move the review did not mark as a mistake is never an exercise.
        let (before, _) = after(&ATTACKED);
        let m = before.parse_san("d3").expect("san");
        assert_eq!(exercise(&before, m, Class::Inaccuracy, Eval::Cp(50), Eval::Cp(-300), &[], &[]), None);
    }

    #[test]
    fn outcomes_follow_the_win_chances() {
        assert_eq!(outcome(Eval::Cp(0)), Outcome::Drawn);
        assert_eq!(outcome(Eval::Cp(400)), Outcome::Won);
        assert_eq!(outcome(Eval::Cp(-400)), Outcome::Lost);
        assert_eq!(outcome(Eval::Mate(3)), Outcome::Mates);
        assert_eq!(outcome(Eval::Mate(-1)), Outcome::Mated);
        assert!(!keeps(Eval::Mate(2), Eval::Cp(900)) && keeps(Eval::Mate(2), Eval::Mate(5)));
        assert!(
            keeps(Eval::Cp(0), Eval::Cp(300))
                && keeps(Eval::Cp(0), Eval::Cp(-30))
                && keeps(Eval::Cp(-50), Eval::Cp(-70))
        );
        assert!(!keeps(Eval::Cp(0), Eval::Cp(-300)));
        // A win just over the line is kept by one just under it, not by a draw.
        assert!(keeps(Eval::Cp(120), Eval::Cp(85)) && !keeps(Eval::Cp(300), Eval::Cp(0)));
        assert!(lost_class(Eval::Cp(300), Eval::Cp(0)) && !lost_class(Eval::Cp(120), Eval::Cp(85)));
        assert!(lost_class(Eval::Cp(0), Eval::Cp(-300)) && !lost_class(Eval::Cp(-80), Eval::Cp(-120)));
    }
}
