//! The sentence for a move that lost something, in words a beginner reads: what it allowed (the opponent's best
//! line, tagged), what it gave away or missed (the material of the two lines), or how the position got worse — and
//! the better move, with what that move does. No evaluation numbers (those are on the graph and in the move's
//! figures), and the sentence never starts with the move itself (the page writes "6.马c3??" before it). Each
//! sentence comes in zh and en, each with Chinese piece letters (马f3) and with SAN's Latin ones (Nf3).
//!
//! In order, the first that applies:
//! 1. it allowed a mate: "让对方有一步杀：后xf7#。更好的是 g6。" / "allows mate in one: Qxf7#. Better was g6.";
//! 2. it missed a mate the position had: "错过了一步杀：车a8#。";
//! 3. the opponent's best line after it has a tactical motif (fork, pin, skewer, discovered attack, …): the motif,
//!    the line, the tagger's sentence about it and what it costs ("让对方有捉双：马c2+ 王d2 马xa1。黑马 c2 同时攻击
//!    …。结果丢掉了 a1 的车。");
//! 4. it gives material away: the piece left to be taken, named with its square ("白白丢掉了 c4 的象（对方 dxc4）。" /
//!    "leaves the bishop on c4 to be taken (dxc4)."), or the exchange lost ("等于拿车换了对方的马" / "gives a rook
//!    for a knight");
//! 5. the engine's line had a tactical motif: "错过了捉双：马c7+。…";
//! 6. the engine's move took material for free: "错过了吃子：车xd5 可以吃掉 d5 的马。";
//! 7. the opponent's passed pawn runs in the line after it: "放对方的通路兵冲了上来，冲到 c3";
//! 8. a pawn pushed in front of the king on its wing: "挺起了王前的兵，削弱了王的掩护。";
//! 9. otherwise the position got worse, said from the mover's chances in words ("这步让对方占得上风" / "hands the
//!    opponent the upper hand"), and the better move with what it does when it is one of the things beginners are
//!    taught: castles, captures, saves or defends an attacked piece, develops, takes the centre, pushes a passed
//!    pawn ("更好的是 马f3，出动马。").

use guoxiang_core::{Color, Move, Position, Role, Square};
use guoxiang_tactics::Motif;
use guoxiang_tactics::tag::{Tag, tag_line};

use crate::chances::{Class, Eval, Facts, people_expected};
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
    /// 6. The better move took material for free.
    MissesCapture,
    /// 7. The opponent's passed pawn let through.
    PassedPawn,
    /// 8. A pawn pushed in front of the king: its shelter loosened.
    OpensKing,
    /// 9. Only the position got worse (position, endgame, tempo).
    Positional,
}

impl Kind {
    /// All kinds, in the order of the rules.
    pub const ALL: [Kind; 10] = [
        Kind::AllowsMate,
        Kind::MissesMate,
        Kind::AllowsTactic,
        Kind::HangsPiece,
        Kind::LosesMaterial,
        Kind::MissesTactic,
        Kind::MissesCapture,
        Kind::PassedPawn,
        Kind::OpensKing,
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
            Kind::MissesCapture => "misses a capture",
            Kind::PassedPawn => "lets a passed pawn through",
            Kind::OpensKing => "opens the king",
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
fn first_capture(pos: &Position, line: &[Move]) -> Option<(Role, Square)> {
    let m = *line.first()?;
    if !pos.is_legal(m) || !pos.is_capture(m) {
        return None;
    }
    let to = m.to();
    let role = pos.role_at(to).unwrap_or(Role::Pawn);
    Some((role, to))
}

/// What one judge's lines say the move `m` from `before` did (`jb` judged `before`, `ja` the position after `m`):
/// the facts the marks for people use ([`crate::chances::for_people`]).
pub fn facts(before: &Position, m: Move, jb: &Judgement, ja: &Judgement) -> Facts {
    if jb.best() == Some(m) || jb.legal <= 1 {
        return Facts { before: jb.expected, ..Facts::default() };
    }
    let after = before.after(m);
    let mover = before.turn();
    let people_loss = (people_expected(jb.eval) - people_expected(ja.eval.flip())).max(0.0);
    let kept = balance_after(before, &jb.line, 4, mover);
    let left = balance_after(&after, &ja.line, 3, mover);
    Facts { people_loss, material_lost: kept - left, allows_mate: allows_mate(jb, ja), before: jb.expected }
}

/// The position after the move is mate for the opponent (`ja`), and the one before was not lost to a mate (`jb`).
fn allows_mate(jb: &Judgement, ja: &Judgement) -> bool {
    matches!(ja.eval, Eval::Mate(n) if n > 0) && !matches!(jb.eval, Eval::Mate(k) if k < 0)
}

/// Mate counts in English words ("mate in two"): digits in a sentence would read like an evaluation.
fn en_count(n: i32) -> String {
    const WORDS: [&str; 10] = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    if (0..10).contains(&n) { WORDS[n as usize].to_string() } else { n.to_string() }
}

/// "a" or "an" before an English word.
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) { "an" } else { "a" }
}

/// A move written with Chinese piece letters (马f3) or with SAN's Latin ones (Nf3).
fn mv(pos: &Position, m: Move, chinese: bool) -> String {
    if chinese { pos.san_zh(m) } else { pos.san(m) }
}

/// The first moves (at most `max`) of a line from `pos`, in the chosen letters.
fn line_text(pos: &Position, line: &[Move], max: usize, chinese: bool) -> String {
    let line = &line[..line.len().min(max)];
    if chinese { san_line_zh(pos, line) } else { san_line(pos, line) }.join(" ")
}

/// "c4 的象" / "the bishop on c4".
fn piece_on_zh(role: Role, sq: Square) -> String {
    format!("{} 的{}", sq.name(), role.zh_char())
}

fn piece_on_en(role: Role, sq: Square) -> String {
    format!("the {} on {}", role.name(), sq.name())
}

/// Pieces by kind: "车" · "马和兵" · "两个兵" / "a rook" · "a knight and a pawn" · "two pawns".
fn roles_zh(roles: &[Role]) -> String {
    let mut parts = Vec::new();
    for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn] {
        let n = roles.iter().filter(|&&x| x == r).count() as i32;
        match n {
            0 => {}
            1 => parts.push(r.zh_char().to_string()),
            n => parts.push(format!("{}个{}", zh_count(n), r.zh_char())),
        }
    }
    parts.join("和")
}

fn roles_en(roles: &[Role]) -> String {
    let mut parts = Vec::new();
    for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn] {
        let n = roles.iter().filter(|&&x| x == r).count() as i32;
        match n {
            0 => {}
            1 => parts.push(format!("{} {}", article(r.name()), r.name())),
            n => parts.push(format!("{} {}s", en_count(n), r.name())),
        }
    }
    match parts.len() {
        0 => String::new(),
        1 => parts.remove(0),
        _ => {
            let last = parts.pop().unwrap_or_default();
            format!("{} and {last}", parts.join(", "))
        }
    }
}

/// A piece taken, and the square it was taken on.
type Taken = (Role, Square);

/// The pieces each side loses along `line` from `pos` (at most `plies` moves, and past them only while captures go
/// on): `(lost by pov, lost by the other side)`, each with the square it was taken on.
fn captures(pos: &Position, line: &[Move], plies: usize, pov: Color) -> (Vec<Taken>, Vec<Taken>) {
    let mut p = pos.clone();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for (i, &m) in line.iter().enumerate() {
        if !p.is_legal(m) {
            break;
        }
        let capture = p.is_capture(m) && !m.is_castle();
        if i >= plies && !capture {
            break;
        }
        if capture {
            let role = if m.is_en_passant() { Role::Pawn } else { p.role_at(m.to()).unwrap_or(Role::Pawn) };
            if p.turn() == pov { theirs.push((role, m.to())) } else { ours.push((role, m.to())) }
        }
        p.play_unchecked(m);
    }
    (ours, theirs)
}

/// A piece (knight or more, not the king) of `color` on `sq` that the other side can take with profit: attacked and
/// not defended, or attacked by a piece worth less.
fn en_prise(pos: &Position, sq: Square, color: Color) -> bool {
    let Some(role) = pos.role_at(sq) else { return false };
    if pos.color_at(sq) != Some(color) || matches!(role, Role::King | Role::Pawn) {
        return false;
    }
    let occ = pos.occupied();
    let attackers = pos.attackers_to(sq, !color, occ);
    if attackers.is_empty() {
        return false;
    }
    let defended = pos.attackers_to(sq, color, occ).any();
    let cheapest = attackers.filter_map(|a| pos.role_at(a)).map(value).min().unwrap_or(0);
    !defended || cheapest < value(role)
}

/// A pawn of `color` on `sq` with no enemy pawn in front of it on its own or a neighbouring file.
fn is_passed(pos: &Position, sq: Square, color: Color) -> bool {
    let (f, r) = (sq.file().index() as i32, sq.rank().index() as i32);
    !Iterator::any(&mut pos.pieces(!color, Role::Pawn), |e: Square| {
        let (ef, er) = (e.file().index() as i32, e.rank().index() as i32);
        (ef - f).abs() <= 1 && if color == Color::White { er > r } else { er < r }
    })
}

/// What the better move `b` from `pos` does, in words, when it is one of the things a beginner is taught: castles,
/// promotes, takes something, saves or defends an attacked piece, develops a piece, takes the centre, pushes a
/// passed pawn. `(zh, en)`.
fn purpose(pos: &Position, b: Move) -> Option<(String, String)> {
    let us = pos.turn();
    if b.is_castle() {
        return Some(("王车易位，把王放到安全的地方".into(), "castling the king to safety".into()));
    }
    let role = pos.role_at(b.from())?;
    if b.is_promotion() {
        return Some(("兵升变".into(), "promoting the pawn".into()));
    }
    if pos.is_capture(b) {
        let taken = if b.is_en_passant() { Role::Pawn } else { pos.role_at(b.to()).unwrap_or(Role::Pawn) };
        let sq = b.to();
        return Some((format!("吃掉 {}", piece_on_zh(taken, sq)), format!("taking {}", piece_on_en(taken, sq))));
    }
    let after = pos.after(b);
    if en_prise(pos, b.from(), us) && !en_prise(&after, b.to(), us) {
        return Some((
            format!("把受到攻击的{}撤到安全的地方", role.zh_char()),
            format!("moving the attacked {} to safety", role.name()),
        ));
    }
    for sq in pos.by_color(us) {
        if sq != b.from() && en_prise(pos, sq, us) && !en_prise(&after, sq, us) {
            let r = pos.role_at(sq)?;
            return Some((format!("保护 {}", piece_on_zh(r, sq)), format!("defending {}", piece_on_en(r, sq))));
        }
    }
    let back = if us == Color::White { guoxiang_core::Rank::First } else { guoxiang_core::Rank::Eighth };
    if matches!(role, Role::Knight | Role::Bishop) && b.from().rank() == back && pos.fullmoves() <= 15 {
        return Some((format!("出动{}", role.zh_char()), format!("developing the {}", role.name())));
    }
    let centre = ["d4", "e4", "d5", "e5"];
    if role == Role::Pawn && centre.contains(&b.to().name().as_str()) {
        return Some(("占据中心".into(), "taking the centre".into()));
    }
    if role == Role::Pawn && is_passed(pos, b.from(), us) {
        return Some(("推进通路兵".into(), "pushing the passed pawn".into()));
    }
    None
}

/// The better move and what it does: "更好的是 象b3，把受到攻击的象撤到安全的地方。" / " Better was Bb3, moving the
/// attacked bishop to safety." (empty without a better move).
fn better(pos: &Position, best: Option<Move>, chinese: bool) -> (String, String) {
    let Some(b) = best else { return (String::new(), String::new()) };
    let text = mv(pos, b, chinese);
    match purpose(pos, b) {
        Some((zh, en)) => (format!("更好的是 {text}，{zh}。"), format!(" Better was {text}, {en}.")),
        None => (format!("更好的是 {text}。"), format!(" Better was {text}.")),
    }
}

/// The opponent's passed pawn that the line after the move (`line` from `after`) pushes to its sixth rank or
/// further, or promotes, within its first moves: the square it reaches.
fn passed_pawn_run(after: &Position, line: &[Move], mover: Color) -> Option<Square> {
    let mut p = after.clone();
    for &m in line.iter().take(5) {
        if !p.is_legal(m) {
            break;
        }
        if p.turn() != mover
            && p.role_at(m.from()) == Some(Role::Pawn)
            && is_passed(&p, m.from(), !mover)
            && (m.is_promotion() || m.to().rank().relative(!mover).index() >= 5)
        {
            return Some(m.to());
        }
        p.play_unchecked(m);
    }
    None
}

/// The move is a pawn move in front of the mover's king, still on its back rank on a wing (where it has castled
/// or will): the king's pawn shelter is loosened.
fn opens_king(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    if pos.role_at(m.from()) != Some(Role::Pawn) {
        return false;
    }
    let king = pos.king(us);
    let kf = king.file().index() as i32;
    let wing = !(3..=4).contains(&kf);
    let home = king.rank().relative(us).index() == 0;
    let near = (m.from().file().index() as i32 - kf).abs() <= 1;
    let shelter = m.from().rank().relative(us).index() <= 2;
    wing && home && near && shelter
}

/// Explains move `m` played in `before`; `jb` judged `before`, `ja` the position after `m`. The sentences never
/// start with the move itself (the page writes it before them) and carry no evaluation: only what happened and
/// what was better, in words. The comment comes in both languages, each with Chinese and with Latin piece letters.
pub fn explain(before: &Position, m: Move, jb: &Judgement, ja: &Judgement, class: Class) -> Explained {
    let chinese = words(before, m, jb, ja, class, true);
    let latin = words(before, m, jb, ja, class, false);
    Explained {
        comment: Comment { zh: chinese.zh, zh_latin: latin.zh, en: latin.en, en_chinese: chinese.en },
        motifs: latin.motifs,
        kind: latin.kind,
    }
}

/// One rendering of the sentence.
struct Words {
    zh: String,
    en: String,
    motifs: Vec<Motif>,
    kind: Kind,
}

/// The sentence with moves in Chinese letters (`chinese`) or Latin ones.
fn words(before: &Position, m: Move, jb: &Judgement, ja: &Judgement, class: Class, chinese: bool) -> Words {
    let after = before.after(m);
    let mover = before.turn();
    let best = jb.best().filter(|&b| b != m);
    let (better_zh, better_en) = better(before, best, chinese);
    let line = |pos: &Position, l: &[Move], max: usize| line_text(pos, l, max, chinese);
    let done = |kind: Kind, zh: String, en: String, motifs: Vec<Motif>| Words { zh, en, motifs, kind };

    // What the opponent's best line after the move takes, counting the move itself: pieces lost and won.
    let played: Vec<Move> = std::iter::once(m).chain(ja.line.iter().copied()).collect();
    let (lost_pieces, won_pieces) = captures(before, &played, 4, mover);
    let kept = balance_after(before, &jb.line, 4, mover);
    let left = balance_after(&after, &ja.line, 3, mover);
    let lost = kept - left;
    // "拿车换了对方的马" / "gives a rook for a knight", or "丢掉了 c4 的象" / "loses the bishop on c4".
    let exchange = || -> Option<(String, String)> {
        let (mut l, mut w): (Vec<Role>, Vec<Role>) =
            (lost_pieces.iter().map(|x| x.0).collect(), won_pieces.iter().map(|x| x.0).collect());
        let net = l.iter().map(|&r| value(r)).sum::<i32>() - w.iter().map(|&r| value(r)).sum::<i32>();
        // A knight for a knight is no part of what was lost: only the pieces that were not traded like for like.
        for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn] {
            while let (Some(i), Some(j)) = (l.iter().position(|&x| x == r), w.iter().position(|&x| x == r)) {
                l.remove(i);
                w.remove(j);
            }
        }
        if l.is_empty() || net < 1 {
            return None;
        }
        if w.is_empty() && !won_pieces.is_empty() {
            return Some((format!("丢掉了{}", roles_zh(&l)), format!("loses {}", roles_en(&l))));
        }
        if w.is_empty() {
            let zh: Vec<String> = lost_pieces.iter().map(|&(r, s)| piece_on_zh(r, s)).collect();
            let en: Vec<String> = lost_pieces.iter().map(|&(r, s)| piece_on_en(r, s)).collect();
            return Some((format!("丢掉了 {}", zh.join("和 ")), format!("loses {}", en.join(" and "))));
        }
        Some((
            format!("等于拿{}换了对方的{}", roles_zh(&l), roles_zh(&w)),
            format!("gives {} for {}", roles_en(&l), roles_en(&w)),
        ))
    };

    // 1. It allowed a mate that was not there before.
    if let Eval::Mate(n) = ja.eval
        && n > 0
        && allows_mate(jb, ja)
    {
        let tags = tag_line(before, Some(m), &ja.line);
        let mate_motif =
            [Motif::SmotheredMate, Motif::BackRankMate].into_iter().find(|x| tags.iter().any(|t| t.motif == *x));
        let (kind_zh, kind_en) = match mate_motif {
            Some(Motif::SmotheredMate) => ("闷杀", "a smothered mate"),
            Some(Motif::BackRankMate) => ("底线杀", "a back-rank mate"),
            _ => ("", ""),
        };
        let n_en = en_count(n);
        let what_en = if kind_en.is_empty() { format!("mate in {n_en}") } else { format!("{kind_en} in {n_en}") };
        let zh_what = if n == 1 { format!("一步杀{kind_zh}") } else { format!("{}步杀{kind_zh}", zh_count(n)) };
        return done(
            Kind::AllowsMate,
            format!("让对方有{zh_what}：{}。{better_zh}", line(&after, &ja.line, 6)),
            format!("allows {what_en}: {}.{better_en}", line(&after, &ja.line, 6)),
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
            format!("错过了{}步杀：{}。", zh_count(n), line(before, &jb.line, 6)),
            format!("misses mate in {}: {}.", en_count(n), line(before, &jb.line, 6)),
            vec![Motif::Mate],
        );
    }
    let reply = line(&after, &ja.line, 3);
    let hung = first_capture(&after, &ja.line).filter(|&(role, _)| lost >= 1 && (value(role) - lost).abs() <= 1);
    // 3. The opponent's answer is a tactic (a hanging piece is said as in 4, naming the piece).
    if let Some(t) = pick(tag_line(before, Some(m), &ja.line))
        && !(t.motif == Motif::HangingPiece && lost >= 1)
    {
        let info = t.motif.info();
        let (then_zh, then_en) = match exchange() {
            Some((zh, en)) if lost >= 2 => (format!("结果{zh}。"), format!(" In the end it {en}.")),
            _ => (String::new(), String::new()),
        };
        let name_en = info.en.to_lowercase();
        return done(
            Kind::AllowsTactic,
            format!("让对方有{}：{reply}。{}{then_zh}{better_zh}", info.zh, t.text.zh),
            format!("allows {} {name_en}: {reply}. {}{then_en}{better_en}", article(&name_en), t.text.en),
            vec![t.motif],
        );
    }
    // 4. Material given away: the piece the opponent takes first when that is about the whole loss, else what the
    //    exchanges cost.
    if let Some((role, sq)) = hung {
        return done(
            Kind::HangsPiece,
            format!("白白丢掉了 {} 的{}（对方 {reply}）。{better_zh}", sq.name(), role.zh_char()),
            format!("leaves {} to be taken ({reply}).{better_en}", piece_on_en(role, sq)),
            vec![Motif::HangingPiece],
        );
    }
    // (A loss that is only a gain the better line would have made is said below, as a missed capture or tactic.)
    let taken = balance(&after, mover) - left;
    if lost >= 2 && taken >= 1 {
        let (zh, en) = match exchange() {
            Some((zh, en)) => (format!("{zh}（{reply}）。"), format!("{en} ({reply}).")),
            None => (format!("让对方赢得子力：{reply}。"), format!("lets the opponent win material: {reply}.")),
        };
        return done(Kind::LosesMaterial, format!("{zh}{better_zh}"), format!("{en}{better_en}"), Vec::new());
    }
    // 5. The better line had a tactic.
    let free_capture = best.filter(|&b| before.is_capture(b) && !b.is_castle() && kept - balance(before, mover) >= 1);
    if let Some(t) = pick(tag_line(before, None, &jb.line))
        && let Some(b) = best
        && !(t.motif == Motif::HangingPiece && free_capture.is_some())
    {
        let info = t.motif.info();
        let name_en = info.en.to_lowercase();
        let first = mv(before, b, chinese);
        return done(
            Kind::MissesTactic,
            format!("错过了{}：{first}。{}", info.zh, t.text.zh),
            format!("misses {} {name_en}: {first}. {}", article(&name_en), t.text.en),
            vec![t.motif],
        );
    }
    // 6. The better move took something for free.
    if let Some(b) = free_capture {
        let taken = if b.is_en_passant() { Role::Pawn } else { before.role_at(b.to()).unwrap_or(Role::Pawn) };
        let first = mv(before, b, chinese);
        return done(
            Kind::MissesCapture,
            format!("错过了吃子：{first} 可以吃掉 {}。", piece_on_zh(taken, b.to())),
            format!("misses a capture: {first} wins {}.", piece_on_en(taken, b.to())),
            Vec::new(),
        );
    }
    // 7. A passed pawn let through.
    if let Some(sq) = passed_pawn_run(&after, &ja.line, mover) {
        return done(
            Kind::PassedPawn,
            format!("放对方的通路兵冲了上来，冲到 {}（{reply}）。{better_zh}", sq.name()),
            format!("lets the passed pawn run, to {} ({reply}).{better_en}", sq.name()),
            Vec::new(),
        );
    }
    // 8. The king's pawn shelter loosened.
    if opens_king(before, m) && best.is_none_or(|b| !opens_king(before, b)) {
        return done(
            Kind::OpensKing,
            format!("挺起了王前的兵，削弱了王的掩护。{better_zh}"),
            format!("pushes a pawn in front of the king and loosens its shelter.{better_en}"),
            Vec::new(),
        );
    }
    // 9. Otherwise the position got worse: said in words from the mover's chances, never as numbers.
    let before_e = jb.expected;
    let after_e = 100.0 - ja.expected;
    let (what_zh, what_en) = if class == Class::MissedWin {
        ("放走了胜势", "lets the win slip away")
    } else if before_e >= 30.0 && after_e < 30.0 {
        ("让对方占得上风", "hands the opponent the upper hand")
    } else if before_e >= 70.0 && after_e < 70.0 {
        ("丢掉了优势", "gives away the advantage")
    } else if after_e >= 70.0 {
        ("让优势缩小了", "gives away part of the advantage")
    } else if before_e < 30.0 {
        ("让局面更难守了", "makes the position harder to hold")
    } else {
        ("让局面变差了", "makes the position worse")
    };
    let (better_zh, better_en) = match best {
        Some(b) => {
            let text = mv(before, b, chinese);
            match purpose(before, b) {
                Some((zh, en)) => (format!("；更好的是 {text}，{zh}。"), format!("; better was {text}, {en}.")),
                None => (format!("；更好的是 {text}。"), format!("; better was {text}.")),
            }
        }
        None => ("。".to_string(), ".".to_string()),
    };
    done(Kind::Positional, format!("这步{what_zh}{better_zh}"), format!("{what_en}{better_en}"), Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position after `sans` from `fen`.
    fn at(fen: &str, sans: &[&str]) -> Position {
        let mut p = Position::from_fen(fen).expect("fen");
        for s in sans {
            p.play_san(s).expect("san");
        }
        p
    }

    fn san(pos: &Position, s: &str) -> Move {
        pos.parse_san(s).expect("san")
    }

    /// A line of SAN moves from `pos`.
    fn line(pos: &Position, sans: &[&str]) -> Vec<Move> {
        let mut p = pos.clone();
        sans.iter().map(|s| p.play_san(s).expect("san")).collect()
    }

    fn judged(pos: &Position, eval: Eval, sans: &[&str]) -> Judgement {
        Judgement {
            eval,
            expected: eval.expected(),
            line: line(pos, sans),
            second: None,
            second_line: None,
            legal: pos.count_legal(),
        }
    }

    /// Explains `m` from `before` with the engine's line `best` (evaluation `jb`, mover's side) and the opponent's
    /// reply `reply` (evaluation `ja`, the opponent's side).
    fn explained(before: &Position, m: &str, jb: (Eval, &[&str]), ja: (Eval, &[&str]), class: Class) -> Explained {
        let mv = san(before, m);
        let after = before.after(mv);
        explain(before, mv, &judged(before, jb.0, jb.1), &judged(&after, ja.0, ja.1), class)
    }

    /// No evaluation in any of the four sentences: no "+0.27", "−1.20", "0.52", "M3" or "%"; none starts with the
    /// move (the page writes it before the sentence), in either letters.
    fn plain_words(e: &Explained, before: &Position, m: &str) {
        let mv = san(before, m);
        let c = &e.comment;
        for s in [&c.zh, &c.zh_latin, &c.en, &c.en_chinese] {
            let chars: Vec<char> = s.chars().collect();
            for w in chars.windows(3) {
                assert!(!(w[0].is_ascii_digit() && w[1] == '.' && w[2].is_ascii_digit()), "a number in: {s}");
                assert!(!(matches!(w[0], '+' | '−' | '-') && w[1].is_ascii_digit()), "an evaluation in: {s}");
            }
            assert!(!s.contains('%') && !s.contains("评估") && !s.contains("evaluation"), "{s}");
            assert!(!s.starts_with(&before.san(mv)) && !s.starts_with(&before.san_zh(mv)), "the move first: {s}");
        }
        // The same sentence in two letters: Chinese ones in `zh` and `en_chinese`, Latin ones in the others.
        for s in [&c.zh_latin, &c.en] {
            assert!(!s.contains(['王', '后', '车', '象', '马']) || s.contains("的"), "{s}");
        }
    }

    const START: &str = guoxiang_core::STARTING_FEN;

    #[test]
    fn a_hung_bishop_is_named_with_its_square_in_both_languages_and_letters() {
        // 1. e4 e5 2. Bc4 d5 3. Nc3?? dxc4: the bishop on c4 was left to be taken; 3. exd5 takes a pawn.
        let before = at(START, &["e4", "e5", "Bc4", "d5"]);
        let e = explained(
            &before,
            "Nc3",
            (Eval::Cp(80), &["exd5", "Nf6"]),
            (Eval::Cp(260), &["dxc4", "Nf3", "Nc6"]),
            Class::Blunder,
        );
        assert_eq!(e.kind, Kind::HangsPiece);
        let c = &e.comment;
        assert_eq!(c.zh, "白白丢掉了 c4 的象（对方 dxc4 马f3 马c6）。更好的是 exd5，吃掉 d5 的兵。");
        assert_eq!(c.zh_latin, "白白丢掉了 c4 的象（对方 dxc4 Nf3 Nc6）。更好的是 exd5，吃掉 d5 的兵。");
        assert_eq!(c.en, "leaves the bishop on c4 to be taken (dxc4 Nf3 Nc6). Better was exd5, taking the pawn on d5.");
        assert_eq!(
            c.en_chinese,
            "leaves the bishop on c4 to be taken (dxc4 马f3 马c6). Better was exd5, taking the pawn on d5."
        );
        plain_words(&e, &before, "Nc3");
    }

    #[test]
    fn an_allowed_fork_names_the_motif_the_piece_lost_and_the_better_move() {
        // 1. Ra1?? Nc2+ 2. Kd2 Nxa1: the knight forks king and rook.
        let before = at("4k3/8/8/8/1n6/R7/8/4K3 w - - 0 1", &[]);
        let e = explained(
            &before,
            "Ra1",
            (Eval::Cp(150), &["Rb3", "Nd5"]),
            (Eval::Cp(300), &["Nc2+", "Kd2", "Nxa1"]),
            Class::Blunder,
        );
        assert_eq!(e.kind, Kind::AllowsTactic, "{:?}", e.comment);
        assert_eq!(e.motifs, vec![Motif::Fork]);
        let c = &e.comment;
        assert!(c.zh.starts_with("让对方有捉双：马c2+ 王d2 马xa1。"), "{}", c.zh);
        assert!(c.zh.contains("结果丢掉了 a1 的车。") && c.zh.ends_with("更好的是 车b3。"), "{}", c.zh);
        assert!(c.zh_latin.starts_with("让对方有捉双：Nc2+ Kd2 Nxa1。") && c.zh_latin.ends_with("更好的是 Rb3。"));
        assert!(c.en.starts_with("allows a fork: Nc2+ Kd2 Nxa1. "), "{}", c.en);
        assert!(c.en.contains("In the end it loses the rook on a1.") && c.en.ends_with("Better was Rb3."), "{}", c.en);
        assert!(
            c.en_chinese.starts_with("allows a fork: 马c2+ 王d2 马xa1. ") && c.en_chinese.ends_with("Better was 车b3.")
        );
        plain_words(&e, &before, "Ra1");
    }

    #[test]
    fn an_exchange_lost_says_what_was_given_for_what() {
        // Rxd5?? exd5: a rook for a knight.
        let before = at("4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1", &[]);
        let e = explained(&before, "Rxd5", (Eval::Cp(30), &["Kf2"]), (Eval::Cp(150), &["exd5"]), Class::Mistake);
        assert_eq!(e.kind, Kind::LosesMaterial, "{:?}", e.comment);
        let c = &e.comment;
        assert_eq!(c.zh, "等于拿车换了对方的马（exd5）。更好的是 王f2。");
        assert_eq!(c.zh_latin, "等于拿车换了对方的马（exd5）。更好的是 Kf2。");
        assert_eq!(c.en, "gives a rook for a knight (exd5). Better was Kf2.");
        assert_eq!(c.en_chinese, "gives a rook for a knight (exd5). Better was 王f2.");
        plain_words(&e, &before, "Rxd5");
    }

    #[test]
    fn an_allowed_and_a_missed_mate_are_said_in_words() {
        // 3…Nf6?? 4. Qxf7#.
        let before = at(START, &["e4", "e5", "Qh5", "Nc6", "Bc4"]);
        let e = explained(&before, "Nf6", (Eval::Cp(-60), &["g6"]), (Eval::Mate(1), &["Qxf7#"]), Class::Blunder);
        assert_eq!(e.kind, Kind::AllowsMate);
        let c = &e.comment;
        assert_eq!(c.zh, "让对方有一步杀：后xf7#。更好的是 g6。");
        assert_eq!(c.zh_latin, "让对方有一步杀：Qxf7#。更好的是 g6。");
        assert_eq!(c.en, "allows mate in one: Qxf7#. Better was g6.");
        assert_eq!(c.en_chinese, "allows mate in one: 后xf7#. Better was g6.");
        plain_words(&e, &before, "Nf6");
        // 1. h3? misses 1. Ra8#.
        let before = at("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", &[]);
        let e = explained(&before, "h3", (Eval::Mate(1), &["Ra8#"]), (Eval::Cp(-500), &["Kf8"]), Class::MissedWin);
        assert_eq!(e.kind, Kind::MissesMate);
        let c = &e.comment;
        assert_eq!((c.zh.as_str(), c.zh_latin.as_str()), ("错过了一步杀：车a8#。", "错过了一步杀：Ra8#。"));
        assert_eq!((c.en.as_str(), c.en_chinese.as_str()), ("misses mate in one: Ra8#.", "misses mate in one: 车a8#."));
        plain_words(&e, &before, "h3");
    }

    #[test]
    fn a_missed_capture_names_the_piece_it_would_have_won() {
        let before = at("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", &[]);
        let e =
            explained(&before, "Ke2", (Eval::Cp(500), &["Rxd5", "Ke7"]), (Eval::Cp(-200), &["Nf6"]), Class::Mistake);
        assert_eq!(e.kind, Kind::MissesCapture, "{:?}", e.comment);
        let c = &e.comment;
        assert_eq!(c.zh, "错过了吃子：车xd5 可以吃掉 d5 的马。");
        assert_eq!(c.zh_latin, "错过了吃子：Rxd5 可以吃掉 d5 的马。");
        assert_eq!(c.en, "misses a capture: Rxd5 wins the knight on d5.");
        assert_eq!(c.en_chinese, "misses a capture: 车xd5 wins the knight on d5.");
        plain_words(&e, &before, "Ke2");
    }

    #[test]
    fn a_passed_pawn_let_through_and_an_opened_king_are_said() {
        let before = at("8/8/4k3/8/2p5/8/4K2P/8 w - - 0 1", &[]);
        let e = explained(
            &before,
            "h4",
            (Eval::Cp(0), &["Kd2", "Kd5"]),
            (Eval::Cp(400), &["c3", "h5", "c2"]),
            Class::Mistake,
        );
        assert_eq!(e.kind, Kind::PassedPawn, "{:?}", e.comment);
        let c = &e.comment;
        assert_eq!(c.zh, "放对方的通路兵冲了上来，冲到 c3（c3 h5 c2）。更好的是 王d2。");
        assert_eq!(c.zh_latin, "放对方的通路兵冲了上来，冲到 c3（c3 h5 c2）。更好的是 Kd2。");
        assert_eq!(c.en, "lets the passed pawn run, to c3 (c3 h5 c2). Better was Kd2.");
        assert_eq!(c.en_chinese, "lets the passed pawn run, to c3 (c3 h5 c2). Better was 王d2.");
        plain_words(&e, &before, "h4");

        let before = at("r4rk1/ppp2ppp/8/8/8/8/PPP2PPP/R4RK1 w - - 0 1", &[]);
        let e = explained(&before, "g4", (Eval::Cp(20), &["Rad1", "Rad8"]), (Eval::Cp(40), &["Rad8"]), Class::Mistake);
        assert_eq!(e.kind, Kind::OpensKing, "{:?}", e.comment);
        let c = &e.comment;
        assert_eq!(c.zh, "挺起了王前的兵，削弱了王的掩护。更好的是 车ad1。");
        assert_eq!(c.zh_latin, "挺起了王前的兵，削弱了王的掩护。更好的是 Rad1。");
        assert_eq!(c.en, "pushes a pawn in front of the king and loosens its shelter. Better was Rad1.");
        assert_eq!(c.en_chinese, "pushes a pawn in front of the king and loosens its shelter. Better was 车ad1.");
        plain_words(&e, &before, "g4");
    }

    #[test]
    fn a_positional_loss_is_words_that_say_what_the_better_move_does() {
        // 2. a3?: develops nothing; 2. Nf3 develops the knight.
        let before = at(START, &["e4", "e5"]);
        let e = explained(&before, "a3", (Eval::Cp(40), &["Nf3", "Nc6"]), (Eval::Cp(20), &["Nf6"]), Class::Mistake);
        assert_eq!(e.kind, Kind::Positional, "{:?}", e.comment);
        let c = &e.comment;
        assert_eq!(c.zh, "这步让局面变差了；更好的是 马f3，出动马。");
        assert_eq!(c.zh_latin, "这步让局面变差了；更好的是 Nf3，出动马。");
        assert_eq!(c.en, "makes the position worse; better was Nf3, developing the knight.");
        assert_eq!(c.en_chinese, "makes the position worse; better was 马f3, developing the knight.");
        plain_words(&e, &before, "a3");
        // From about equal to worse: the opponent gets the upper hand; castling is said as such.
        let before = at("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", &[]);
        let e = explained(&before, "Kf1", (Eval::Cp(30), &["O-O"]), (Eval::Cp(120), &["d5"]), Class::Mistake);
        assert_eq!(e.kind, Kind::Positional, "{:?}", e.comment);
        assert_eq!(e.comment.zh, "这步让对方占得上风；更好的是 O-O，王车易位，把王放到安全的地方。");
        assert_eq!(e.comment.en, "hands the opponent the upper hand; better was O-O, castling the king to safety.");
        plain_words(&e, &before, "Kf1");
        // Saving an attacked piece: 1…a6? leaves the knight on c6 attacked by the pawn; 1…Ne7 moves it to safety.
        let before = at("r1bqkbnr/pppp1ppp/2n5/3Pp3/8/8/PPP1PPPP/RNBQKBNR b KQkq - 0 3", &[]);
        let e = explained(&before, "Bc5", (Eval::Cp(-30), &["Nce7"]), (Eval::Cp(250), &["dxc6"]), Class::Blunder);
        assert_eq!(e.kind, Kind::HangsPiece, "{:?}", e.comment);
        assert_eq!(e.comment.zh, "白白丢掉了 c6 的马（对方 dxc6）。更好的是 马ce7，把受到攻击的马撤到安全的地方。");
        assert_eq!(
            e.comment.en,
            "leaves the knight on c6 to be taken (dxc6). Better was Nce7, moving the attacked knight to safety."
        );
        plain_words(&e, &before, "Bc5");
    }
}
