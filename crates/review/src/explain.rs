//! The sentence for a move that lost something: what it allowed (the opponent's best line, tagged), what it missed
//! (the engine's line, tagged), or how the evaluation fell — and the better move.
//!
//! In order, the first that applies:
//! 1. it allowed a mate: "马d5?? 让对方三步杀：… 更好的是 马f3。" (the Chinese sentence writes moves with Chinese
//!    piece letters, the English one in SAN);
//! 2. it missed a mate the position had;
//! 3. the opponent's best line after it has a tactical motif (fork, pin, skewer, discovered attack, …): the
//!    tagger's sentence about it;
//! 4. it gives up material for nothing (the opponent's line wins at least a pawn more than the best line would);
//! 5. the engine's line had a tactical motif: "missed a fork";
//! 6. otherwise how the evaluation changed (from White's side, as the graph shows it), with the better line.

use guoxiang_core::{Move, Position, Role};
use guoxiang_tactics::Motif;
use guoxiang_tactics::tag::{Tag, tag_line};

use crate::chances::{Class, Eval};
use crate::{Comment, Judgement, san_line, san_line_zh};

/// Motifs worth naming, most telling first.
const TELLING: [Motif; 17] = [
    Motif::SmotheredMate,
    Motif::BackRankMate,
    Motif::DoubleCheck,
    Motif::Fork,
    Motif::Skewer,
    Motif::AbsolutePin,
    Motif::RelativePin,
    Motif::Pin,
    Motif::DiscoveredCheck,
    Motif::DiscoveredAttack,
    Motif::TrappedPiece,
    Motif::Deflection,
    Motif::Attraction,
    Motif::CapturingDefender,
    Motif::Interference,
    Motif::XRay,
    Motif::HangingPiece,
];

/// Which of the sentence's rules applied: what kind of error the move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// 1. It allowed a mate.
    AllowsMate,
    /// 2. It missed a mate.
    MissesMate,
    /// 3. The opponent's answer is a tactic (fork, pin, …).
    AllowsTactic,
    /// 4. A piece left to be taken.
    HangsPiece,
    /// 4. Material lost in an exchange or a sequence.
    LosesMaterial,
    /// 5. The better line was a tactic.
    MissesTactic,
    /// 6. Only the evaluation fell (position, endgame, tempo).
    Positional,
}

impl Kind {
    /// All kinds, in the order of the rules.
    pub const ALL: [Kind; 7] = [
        Kind::AllowsMate,
        Kind::MissesMate,
        Kind::AllowsTactic,
        Kind::HangsPiece,
        Kind::LosesMaterial,
        Kind::MissesTactic,
        Kind::Positional,
    ];

    /// A short English name.
    pub fn en(self) -> &'static str {
        match self {
            Kind::AllowsMate => "allows mate",
            Kind::MissesMate => "misses mate",
            Kind::AllowsTactic => "allows a tactic",
            Kind::HangsPiece => "hangs a piece",
            Kind::LosesMaterial => "loses material",
            Kind::MissesTactic => "misses a tactic",
            Kind::Positional => "positional",
        }
    }
}

/// The sentence, the motifs it names and the kind of error.
#[derive(Clone, Debug)]
pub struct Explained {
    pub comment: Comment,
    pub motifs: Vec<Motif>,
    pub kind: Kind,
}

fn glyph(class: Class) -> &'static str {
    match class {
        Class::Inaccuracy => "?!",
        Class::Mistake => "?",
        Class::Blunder => "??",
        Class::MissedWin => "?",
        _ => "",
    }
}

fn zh_count(n: i32) -> String {
    const DIGITS: [&str; 10] = ["零", "一", "两", "三", "四", "五", "六", "七", "八", "九"];
    if (0..10).contains(&n) { DIGITS[n as usize].to_string() } else { n.to_string() }
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

/// Material of the side `pos.turn()` had at `pov`, minus the other side's, in pawns.
fn balance(pos: &Position, pov: guoxiang_core::Color) -> i32 {
    let mut s = 0;
    for r in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        s += value(r) * (pos.pieces(pov, r).count() as i32 - pos.pieces(!pov, r).count() as i32);
    }
    s
}

/// The material balance for `pov` at the end of `line` from `pos` (at most `plies` moves, and past the last capture
/// only while captures go on).
fn balance_after(pos: &Position, line: &[Move], plies: usize, pov: guoxiang_core::Color) -> i32 {
    let mut p = pos.clone();
    let mut last = balance(&p, pov);
    for (i, &m) in line.iter().enumerate() {
        if !p.is_legal(m) {
            break;
        }
        let capture = p.is_capture(m);
        if i >= plies && !capture {
            break;
        }
        p.play_unchecked(m);
        last = balance(&p, pov);
    }
    last
}

fn pick(tags: Vec<Tag>) -> Option<Tag> {
    TELLING.iter().find_map(|&m| tags.iter().find(|t| t.motif == m).cloned())
}

/// The piece of the mover's side that the opponent's first capture in `line` (from `pos`, the position after the
/// move) takes, if the opponent's first move is a capture.
fn first_capture(pos: &Position, line: &[Move]) -> Option<(Role, String)> {
    let m = *line.first()?;
    if !pos.is_legal(m) || !pos.is_capture(m) {
        return None;
    }
    let to = m.to();
    let role = pos.role_at(to).unwrap_or(Role::Pawn);
    Some((role, to.name()))
}

/// Explains move `m` played in `before`; `jb` judged `before`, `ja` the position after `m`.
pub fn explain(before: &Position, m: Move, jb: &Judgement, ja: &Judgement, class: Class) -> Explained {
    let after = before.after(m);
    let mover = before.turn();
    // The Chinese sentence writes moves with Chinese piece letters (马f3), as the move list does in Chinese.
    let san_en = format!("{}{}", before.san(m), glyph(class));
    let san_zh = format!("{}{}", before.san_zh(m), glyph(class));
    let best = jb.best().filter(|&b| b != m);
    let better_zh = best.map(|b| format!("更好的是 {}。", before.san_zh(b))).unwrap_or_default();
    let better_en = best.map(|b| format!(" Better was {}.", before.san(b))).unwrap_or_default();
    let line_en = |pos: &Position, line: &[Move]| san_line(pos, &line[..line.len().min(6)]).join(" ");
    let line_zh = |pos: &Position, line: &[Move]| san_line_zh(pos, &line[..line.len().min(6)]).join(" ");
    let done = |kind: Kind, zh: String, en: String, motifs: Vec<Motif>| Explained {
        comment: Comment { zh, en },
        motifs,
        kind,
    };

    // 1. It allowed a mate that was not there before.
    if let Eval::Mate(n) = ja.eval
        && n > 0
        && !matches!(jb.eval, Eval::Mate(k) if k < 0)
    {
        let tags = tag_line(before, Some(m), &ja.line);
        let mate_motif =
            [Motif::SmotheredMate, Motif::BackRankMate].into_iter().find(|x| tags.iter().any(|t| t.motif == *x));
        let (kind_zh, kind_en) = match mate_motif {
            Some(Motif::SmotheredMate) => ("闷杀", "a smothered mate"),
            Some(Motif::BackRankMate) => ("底线杀", "a back-rank mate"),
            _ => ("", ""),
        };
        let what_en = if kind_en.is_empty() { format!("mate in {n}") } else { format!("{kind_en} in {n}") };
        return done(
            Kind::AllowsMate,
            format!("{san_zh} 让对方{}步杀{kind_zh}：{}。{better_zh}", zh_count(n), line_zh(&after, &ja.line)),
            format!("{san_en} allows {what_en}: {}.{better_en}", line_en(&after, &ja.line)),
            [Motif::Mate].into_iter().chain(mate_motif).collect(),
        );
    }
    // 2. It missed a mate.
    if let Eval::Mate(n) = jb.eval
        && n > 0
        && !matches!(ja.eval, Eval::Mate(k) if k < 0)
    {
        return done(
            Kind::MissesMate,
            format!("{san_zh} 错过了{}步杀：{}。", zh_count(n), line_zh(before, &jb.line)),
            format!("{san_en} misses mate in {n}: {}.", line_en(before, &jb.line)),
            vec![Motif::Mate],
        );
    }
    // 3. The opponent's answer is a tactic.
    if let Some(t) = pick(tag_line(before, Some(m), &ja.line)) {
        return done(
            Kind::AllowsTactic,
            format!("{san_zh} 之后，{}{better_zh}", t.text.zh),
            format!("After {san_en}: {}{better_en}", t.text.en),
            vec![t.motif],
        );
    }
    // 4. Material given away: the piece the opponent takes first when that is about the whole loss, else the loss.
    let kept = balance_after(before, &jb.line, 4, mover);
    let left = balance_after(&after, &ja.line, 3, mover);
    let lost = kept - left;
    if lost >= 2 {
        let refutation_zh = line_zh(&after, &ja.line[..ja.line.len().min(3)]);
        let refutation = line_en(&after, &ja.line[..ja.line.len().min(3)]);
        if let Some((role, sq)) = first_capture(&after, &ja.line)
            && (value(role) - lost).abs() <= 1
        {
            return done(
                Kind::HangsPiece,
                format!("{san_zh} 白白丢掉了 {sq} 的{}（{refutation_zh}）。{better_zh}", role.zh_char()),
                format!("{san_en} hangs the {} on {sq} ({refutation}).{better_en}", role.name()),
                vec![Motif::HangingPiece],
            );
        }
        return done(
            Kind::LosesMaterial,
            format!("{san_zh} 丢子，约损失 {lost} 个兵的子力：{refutation_zh}。{better_zh}"),
            format!("{san_en} loses material, about {lost} pawns' worth: {refutation}.{better_en}"),
            Vec::new(),
        );
    }
    // 5. The better line had a tactic.
    if let Some(t) = pick(tag_line(before, None, &jb.line)) {
        let info = t.motif.info();
        let first = best.map(|b| before.san(b)).unwrap_or_default();
        let first_zh = best.map(|b| before.san_zh(b)).unwrap_or_default();
        return done(
            Kind::MissesTactic,
            format!("{san_zh} 错过了{}：{first_zh}。{}", info.zh, t.text.zh),
            format!("{san_en} misses a {}: {first}. {}", info.en.to_lowercase(), t.text.en),
            vec![t.motif],
        );
    }
    // 6. The evaluation fell.
    let from = jb.eval;
    let to = ja.eval.flip();
    let (from, to) = match mover {
        guoxiang_core::Color::White => (from, to),
        guoxiang_core::Color::Black => (from.flip(), to.flip()),
    };
    let (line, better_line_zh) = if jb.line.is_empty() {
        (String::new(), String::new())
    } else {
        (line_en(before, &jb.line), line_zh(before, &jb.line))
    };
    done(
        Kind::Positional,
        format!(
            "{san_zh} 使评估（白方视角）从 {} 变为 {}。{}",
            from.human(),
            to.human(),
            if better_line_zh.is_empty() { String::new() } else { format!("更好的是 {better_line_zh}。") }
        ),
        format!(
            "{san_en} takes the evaluation (White's view) from {} to {}.{}",
            from.human(),
            to.human(),
            if line.is_empty() { String::new() } else { format!(" Better was {line}.") }
        ),
        Vec::new(),
    )
}
