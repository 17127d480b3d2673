//! Text proofs: what a `success` text or a wrong try's `why` says about the board must be true there
//! (docs/learn.md "What the checker proves").
//!
//! Which position a text speaks about: a `success` text the position after each way of completing the step (for
//! goal `line`, after the learner's last move of each line; for the other goals, after each solution, the scripted
//! replies played as the judge plays them); a `why` the position after its wrong try (a try refused as illegal
//! speaks about the refused move and is not read). `escape`, `choice`, `squares`, `legal_moves` and `play` steps
//! and every prompt and hint are not read (they describe the task, or the rules core proves them otherwise).
//!
//! A text is cut into clauses (at ，。；！？：— , . ; ! ? : and at "but" / 但 / 可是 / 却). In a clause, these words
//! are claims: checkmate (将死, 将杀, 闷杀, 绝杀, checkmate, mate, mated, mates), stalemate (逼和, stalemate), check
//! (将军, 被将军, "gives check", "with check", "in check", "is check", the verb "checks"/"checked"), double check
//! (双将, "double check": two pieces give check), winning
//! material (赢得, 得到, 白得, 赢了, 白吃, "wins", "won", "for free" — with a piece: 后 车 象 马 兵 子, queen …) and
//! capturing (吃掉, 吃了, 吃下, "takes", "captures", "captured" + a piece). A claim word with a negator shortly before
//! it (没有 没 不是 不会 不能 无法 并非 未 不 非; not, no, n't, never, without, cannot, neither, nor) is a negated claim
//! and must be false. Clauses that ask (？, 吗), suppose (如果, 时, if, when), look ahead (会, 要, 然后, 威胁,
//! will, can, then, threat…), tell what to do (小心, 别, avoid, make sure…) or define (表示, 叫做, means, called)
//! make no claim. Names are not claims: 底线杀, 学者杀, 愚人杀, "Scholar's mate", "mate in two" — except after
//! 这是 / 这就是 / "this is" / "that is".
//!
//! A move named in the clause (SAN, with English or Chinese letters: `Qxf7`, `后xf7`) moves the claim: to the
//! position after that move when it is one of the moves of the text's line, or a legal move in the text's
//! position (a threat: "马f6 没有保护 f7：后xf7 将死！"); a claim whose move can be placed neither way is not read.
//!
//! What makes a claim true, in the position P the text speaks about (reached from S by the mover's moves):
//! - checkmate / stalemate: P is checkmate / stalemate;
//! - check: P is check, or (with no move named) one of the mover's moves on the way to P gave check;
//! - double check: the same with two pieces giving check;
//! - wins: after every legal reply in P (P itself if there is none), the mover's material (1, 3, 3, 5, 9) is
//!   higher than in S, and, with a piece named, the other side has fewer of that piece than in S;
//! - captures: the other side has less material (fewer of the piece named) in P than in S.
//!
//! A negated check is about P alone ("没有将军": P is not check).

use guoxiang_core::{Color, Move, Position, Role};

use crate::Course;
use crate::model::{Goal, Step, StepKind};

/// The outcome of reading one step's texts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepClaims {
    /// The false claims, as messages (`success (zh) says …`).
    pub errors: Vec<String>,
    /// How many claims were proven true (a claim counts once per position it speaks about).
    pub proven: usize,
    /// The claims proven true, as text (`success (zh): “将死” (checkmate) after …`), for a writer who wants to see
    /// what was read.
    pub proven_list: Vec<String>,
}

/// The texts of one step read and proven: the messages of the false claims.
pub fn check_step_texts(step: &Step) -> Vec<String> {
    prove_step(step).errors
}

/// How many claims of the course's texts are proven true (what `guoxiang learn check` prints).
pub fn proven_claims(course: &Course) -> usize {
    course.lessons().flat_map(|(_, l)| l.steps.iter()).map(|s| prove_step(s).proven).sum()
}

/// The texts of one step read and proven.
pub fn prove_step(step: &Step) -> StepClaims {
    let mut out = StepClaims::default();
    let StepKind::Moves { goal, wrong } = &step.kind else {
        return out;
    };
    if matches!(goal, Goal::Escape { .. }) {
        return out;
    }
    let Ok(start) = Position::from_fen(&step.fen) else {
        return out;
    };
    let mate_goal = matches!(goal, Goal::Mate { .. });
    // The success text: after each line (goal line) or each solution.
    let mut seqs: Vec<Seq> = Vec::new();
    match goal {
        Goal::Line { lines } => {
            for line in lines {
                if let Some(s) = Seq::from_line(&start, line) {
                    seqs.push(s);
                }
            }
        }
        _ => {
            for sol in &step.solutions {
                if let Some(s) = Seq::from_solution(step, &start, sol) {
                    seqs.push(s);
                }
            }
        }
    }
    for seq in &seqs {
        for (lang, text) in [("zh", &step.success.zh), ("en", &step.success.en)] {
            prove_text(&mut out, "success", lang, text, seq, mate_goal);
        }
    }
    for (k, w) in wrong.iter().enumerate() {
        let Some(why) = &w.why else { continue };
        let Some(seq) = Seq::from_wrong(step, &start, &w.moves) else { continue };
        let label = format!("wrong #{} {:?} why", k + 1, w.moves);
        for (lang, text) in [("zh", &why.zh), ("en", &why.en)] {
            prove_text(&mut out, &label, lang, text, &seq, mate_goal);
        }
    }
    out
}

/// A sequence of moves from the step's position: what a text speaks about.
#[derive(Clone, Debug)]
struct Seq {
    start: Position,
    /// Each ply: the position before it, the move, and whether the learner played it.
    plies: Vec<(Position, Move, bool)>,
}

impl Seq {
    fn new(start: &Position) -> Seq {
        Seq { start: start.clone(), plies: Vec::new() }
    }

    fn end(&self) -> Position {
        match self.plies.last() {
            Some((p, m, _)) => p.after(*m),
            None => self.start.clone(),
        }
    }

    fn push(&mut self, m: Move, learner: bool) {
        let before = self.end();
        self.plies.push((before, m, learner));
    }

    /// A scripted line, up to the learner's last move in it.
    fn from_line(start: &Position, line: &[String]) -> Option<Seq> {
        let mut seq = Seq::new(start);
        let last_learner = (line.len() - 1) & !1;
        for (i, u) in line.iter().enumerate().take(last_learner + 1) {
            let m = legal(&seq.end(), u)?;
            seq.push(m, i % 2 == 0);
        }
        Some(seq)
    }

    /// A solution with the judge's scripted replies; the reply after the learner's last move is left out.
    fn from_solution(step: &Step, start: &Position, sol: &[String]) -> Option<Seq> {
        let mut seq = Seq::new(start);
        for (i, u) in sol.iter().enumerate() {
            let m = legal(&seq.end(), u)?;
            seq.push(m, true);
            if i + 1 < sol.len() {
                let v = crate::judge::judge_step(step, &crate::judge::Try::Moves(sol[..=i].to_vec())).ok()?;
                if let Some(r) = v.reply {
                    let r = legal(&seq.end(), &r)?;
                    seq.push(r, false);
                }
            }
        }
        (!seq.plies.is_empty()).then_some(seq)
    }

    /// A wrong try whose moves are all legal, with the judge's replies between them.
    fn from_wrong(step: &Step, start: &Position, moves: &[String]) -> Option<Seq> {
        Seq::from_solution(step, start, moves)
    }

    /// The learner's moves and the replies, as UCI.
    fn moves_text(&self) -> String {
        self.plies.iter().map(|(p, m, _)| p.uci(*m)).collect::<Vec<_>>().join(" ")
    }
}

fn legal(pos: &Position, uci: &str) -> Option<Move> {
    pos.explain_uci(uci).ok().and_then(|e| e.legal_move())
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Mate,
    Stalemate,
    Check,
    DoubleCheck,
    Win(Option<Role>),
    Capture(Option<Role>),
}

impl Kind {
    fn name(self) -> String {
        match self {
            Kind::Mate => "checkmate".into(),
            Kind::Stalemate => "stalemate".into(),
            Kind::Check => "check".into(),
            Kind::DoubleCheck => "double check".into(),
            Kind::Win(r) => format!("wins {}", role_name(r)),
            Kind::Capture(r) => format!("captures {}", role_name(r)),
        }
    }
}

fn role_name(r: Option<Role>) -> &'static str {
    match r {
        None => "material",
        Some(Role::Pawn) => "a pawn",
        Some(Role::Knight) => "a knight",
        Some(Role::Bishop) => "a bishop",
        Some(Role::Rook) => "a rook",
        Some(Role::Queen) => "the queen",
        Some(Role::King) => "the king",
    }
}

/// One claim found in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Claim {
    kind: Kind,
    negated: bool,
    /// The words as written.
    word: String,
    /// A move named in the clause (SAN as written).
    san: Option<String>,
    /// The move was named in an earlier clause (the claim is in brackets, or a bare "mate" / "将死").
    carried: bool,
}

fn prove_text(out: &mut StepClaims, label: &str, lang: &str, text: &str, seq: &Seq, mate_goal: bool) {
    let claims = if lang == "zh" { claims_zh(text) } else { claims_en(text) };
    // A check that is in fact mate must be called mate (review error 6: "将军" for a back-rank mate), except in a
    // mate step, whose success is about the mate anyway.
    let end = seq.end();
    if !mate_goal
        && end.is_checkmate()
        && !claims.iter().any(|c| c.kind == Kind::Mate)
        && let Some(c) =
            claims.iter().find(|c| matches!(c.kind, Kind::Check | Kind::DoubleCheck) && !c.negated && c.san.is_none())
    {
        out.errors.push(format!(
            "{label} ({lang}) says “{}” (check) after {}, but it is checkmate: say so (将死 / checkmate)",
            c.word,
            seq.moves_text()
        ));
    }
    // A reply that is forced (the only legal move) may be told as done ("后g8+ 之后黑王只能吃后。吃完轮到你走 … 这就是
    // 逼和"): when the text's mate or stalemate holds only after it, all its mate, stalemate and check words are
    // read after it.
    let forced_reply = match end.legal_moves().iter().copied().collect::<Vec<_>>()[..] {
        [only] => Some(only),
        _ => None,
    }
    .filter(|&only| {
        let after = end.after(only);
        claims.iter().any(|c| {
            !c.negated
                && c.san.is_none()
                && ((c.kind == Kind::Mate && !end.is_checkmate() && after.is_checkmate())
                    || (c.kind == Kind::Stalemate && !end.is_stalemate() && after.is_stalemate()))
        })
    });
    for c in claims {
        let Some(ctx) = place(seq, c.san.as_deref(), c.carried) else { continue };
        let not = if c.negated { "not " } else { "" };
        let after = if ctx.named.is_empty() {
            format!("after {}", seq.moves_text())
        } else {
            format!("after {} then {}", seq.moves_text(), ctx.named)
        };
        let mut result = prove(&ctx, &c);
        if result.is_err()
            && c.san.is_none()
            && matches!(c.kind, Kind::Mate | Kind::Stalemate | Kind::Check | Kind::DoubleCheck)
            && let Some(only) = forced_reply
        {
            let forced = Ctx { pos: ctx.pos.after(only), gave_check: 0, named: String::new(), ..ctx };
            if prove(&forced, &c).is_ok() {
                result = Ok(());
            }
        }
        match result {
            Ok(()) => {
                out.proven += 1;
                out.proven_list.push(format!("{label} ({lang}): “{}” ({not}{}) {after}", c.word, c.kind.name()));
            }
            Err(why) => {
                out.errors.push(format!(
                    "{label} ({lang}) says “{}” ({not}{}) {after}, but {why}",
                    c.word,
                    c.kind.name()
                ));
            }
        }
    }
}

/// Where a claim is judged.
struct Ctx {
    /// The position before the mover's moves.
    before: Position,
    /// The position the claim is about.
    pos: Position,
    /// The side whose moves the claim is about (it wins, it gives check).
    mover: Color,
    /// The most pieces giving check after one of the mover's moves on the way (0: none gave check).
    gave_check: u32,
    /// The move named by the text when it is not one of the sequence (a threat), as SAN.
    named: String,
    /// The pieces taken on the way (by either side).
    taken: Vec<Role>,
}

fn place(seq: &Seq, san: Option<&str>, carried: bool) -> Option<Ctx> {
    let mover = seq.start.turn();
    let gave = |upto: usize| {
        seq.plies[..upto]
            .iter()
            .filter(|(_, _, l)| *l)
            .map(|(p, m, _)| p.after(*m).checkers().count())
            .max()
            .unwrap_or(0)
    };
    let taken = |upto: usize| -> Vec<Role> {
        seq.plies[..upto]
            .iter()
            .filter(|(p, m, _)| p.is_capture(*m))
            .filter_map(|(p, m, _)| if m.is_en_passant() { Some(Role::Pawn) } else { p.role_at(m.to()) })
            .collect()
    };
    let Some(san) = san else {
        let n = seq.plies.len();
        return Some(Ctx {
            before: seq.start.clone(),
            pos: seq.end(),
            mover,
            gave_check: gave(n),
            named: String::new(),
            taken: taken(n),
        });
    };
    // A piece's name ("象c4", "the Rg7"): that piece stands there in the position reached; the claim is about it.
    if names_piece(&seq.end(), san) {
        return place(seq, None, false);
    }
    // One of the moves of the line (the latest that fits).
    for (i, (p, m, _)) in seq.plies.iter().enumerate().rev() {
        if p.parse_san(san).ok() == Some(*m) {
            // A move of the line named a clause earlier is a piece's name there ("马d7 看住 b8，…：将死"), unless it
            // is the last move.
            if carried && i + 1 != seq.plies.len() {
                return place(seq, None, false);
            }
            let pos = p.after(*m);
            let mover = p.turn();
            let gave_check = p.after(*m).checkers().count();
            let before = if mover == seq.start.turn() { seq.start.clone() } else { p.clone() };
            return Some(Ctx { before, pos, mover, gave_check, named: String::new(), taken: taken(i + 1) });
        }
    }
    // A move in the position reached: a threat, or what comes next.
    let end = seq.end();
    let m = end.parse_san(san).ok()?;
    Some(Ctx {
        before: end.clone(),
        pos: end.after(m),
        mover: end.turn(),
        gave_check: end.after(m).checkers().count(),
        named: end.san(m),
        taken: Vec::new(),
    })
}

/// Whether `san` (`象c4`, `Rg7`, `Nxf7`) names a piece that stands on its square in `pos`: a piece's name, not a move.
fn names_piece(pos: &Position, san: &str) -> bool {
    let role = match san.chars().next() {
        Some('K' | '王') => Role::King,
        Some('Q' | '后') => Role::Queen,
        Some('R' | '车') => Role::Rook,
        Some('B' | '象') => Role::Bishop,
        Some('N' | '马') => Role::Knight,
        _ => return false,
    };
    let tail: String = san.chars().rev().take(2).collect::<Vec<_>>().into_iter().rev().collect();
    guoxiang_core::Square::parse(&tail).is_some_and(|sq| pos.role_at(sq) == Some(role))
}

fn side(c: Color) -> &'static str {
    c.fold("White", "Black")
}

/// The side's material in pawns (the king left out), by the values of goal `safe`'s static exchange.
fn material(p: &Position, c: Color) -> i32 {
    Role::ALL
        .iter()
        .filter(|&&r| r != Role::King)
        .map(|&r| crate::safety::value(r) * p.pieces(c, r).count() as i32)
        .sum()
}

fn balance(p: &Position, c: Color) -> i32 {
    material(p, c) - material(p, !c)
}

fn count(p: &Position, c: Color, r: Option<Role>) -> i32 {
    match r {
        Some(r) => p.pieces(c, r).count() as i32,
        None => material(p, c),
    }
}

/// `Ok` if the claim (negated or not) is true at `ctx`, else what is true instead.
fn prove(ctx: &Ctx, c: &Claim) -> Result<(), String> {
    let p = &ctx.pos;
    let to_move = p.turn();
    let (holds, pos_text, neg_text) = match c.kind {
        Kind::Mate => (
            p.is_checkmate(),
            if !p.is_check() {
                format!("{} is not even in check", side(to_move))
            } else {
                let m = p.legal_moves().iter().next().copied();
                format!("{} gets out of check with {}", side(to_move), m.map(|m| p.san(m)).unwrap_or_default())
            },
            format!("{} is checkmated", side(to_move)),
        ),
        Kind::Stalemate => (
            p.is_stalemate(),
            if p.is_check() {
                format!("{} is in check", side(to_move))
            } else {
                let m = p.legal_moves().iter().next().copied();
                format!("{} has a legal move: {}", side(to_move), m.map(|m| p.san(m)).unwrap_or_default())
            },
            format!("{} is stalemated", side(to_move)),
        ),
        Kind::Check if c.negated => (p.is_check(), String::new(), format!("{} is in check", side(to_move))),
        Kind::DoubleCheck if c.negated => {
            (p.checkers().count() >= 2, String::new(), format!("{} is in double check", side(to_move)))
        }
        Kind::DoubleCheck => (
            p.checkers().count() >= 2 || ctx.gave_check >= 2,
            format!(
                "{} is checked by {} piece(s) (and no move of {} on the way gave double check)",
                side(to_move),
                p.checkers().count(),
                side(ctx.mover)
            ),
            String::new(),
        ),
        Kind::Check => (
            p.is_check() || ctx.gave_check >= 1,
            format!("{} is not in check (and no move of {} on the way gave check)", side(to_move), side(ctx.mover)),
            String::new(),
        ),
        Kind::Win(role) => match win_refutation(ctx, role) {
            None => (true, String::new(), format!("{} wins {} against every reply", side(ctx.mover), role_name(role))),
            Some(r) => (false, r, String::new()),
        },
        Kind::Capture(role) => {
            // Texts tell exchanges in turn ("bishop takes knight, pawn takes bishop", "she took the rook, and your
            // king took her"): a piece of that kind was taken on the way, or is taken in some exchange of up to
            // four captures from P.
            let lost = Color::ALL.iter().any(|&c| count(p, c, role) < count(&ctx.before, c, role))
                || ctx.taken.iter().any(|&t| role.is_none() || Some(t) == role);
            (
                lost || exchange_takes(p, role, 4),
                format!(
                    "no {} is taken on the way, nor in any exchange of up to four captures from there",
                    role_name(role).trim_start_matches("a ").trim_start_matches("the ")
                ),
                format!("{} is taken", role_name(role)),
            )
        }
    };
    match (holds, c.negated) {
        (true, false) | (false, true) => Ok(()),
        (false, false) => Err(pos_text),
        (true, true) => Err(neg_text),
    }
}

/// Whether some sequence of at most `depth` captures from `p` takes a piece of `role` (any piece if `None`).
fn exchange_takes(p: &Position, role: Option<Role>, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    p.legal_moves().iter().filter(|&&m| p.is_capture(m)).any(|&m| {
        let taken = if m.is_en_passant() { Some(Role::Pawn) } else { p.role_at(m.to()) };
        role.is_none() || taken == role || exchange_takes(&p.after(m), role, depth - 1)
    })
}

/// `None` if the mover wins material (and the piece) against every reply; else the reply that keeps it.
fn win_refutation(ctx: &Ctx, role: Option<Role>) -> Option<String> {
    let us = ctx.mover;
    let them = !us;
    let base = balance(&ctx.before, us);
    let pieces = count(&ctx.before, them, role);
    let judge = |after: &Position, what: String| -> Option<String> {
        let gain = balance(after, us) - base;
        if gain <= 0 {
            return Some(format!(
                "{what} {} is {} in material ({gain:+})",
                side(us),
                if gain == 0 { "even" } else { "down" }
            ));
        }
        if role.is_some() && count(after, them, role) >= pieces {
            return Some(format!("{what} {} still has {} {}", side(them), count(after, them, role), role_name(role)));
        }
        None
    };
    if ctx.pos.turn() == us {
        return judge(&ctx.pos, String::new());
    }
    let replies = ctx.pos.legal_moves();
    if replies.is_empty() {
        return judge(&ctx.pos, String::new());
    }
    for &r in replies.iter() {
        if let Some(why) = judge(&ctx.pos.after(r), format!("after {}", ctx.pos.san(r))) {
            return Some(why);
        }
    }
    None
}

// ----- reading the words -----

/// One clause of a text.
struct Clause {
    text: String,
    /// Its sentence asks (ends with ？ / ?).
    question: bool,
    /// The first clause of its sentence.
    first: bool,
    /// Inside brackets （…） / (…): it speaks about what the clause before it named.
    aside: bool,
}

/// The text cut into sentences (at 。！？；.!?;) and these into clauses (at ，：—、（） , : ( ) and contrast words).
fn clauses(text: &str, zh: bool) -> Vec<Clause> {
    let mut sentences: Vec<(Vec<(String, bool)>, bool)> = Vec::new();
    let mut cur = String::new();
    let mut parts: Vec<(String, bool)> = Vec::new();
    let mut aside = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        // A full stop or comma of English, not a move's or a number's.
        let spaced = chars.peek().is_none_or(|n| n.is_whitespace());
        let sentence_end = matches!(c, '。' | '！' | '？' | '；' | ';' | '!' | '?') || (c == '.' && spaced);
        let clause_end = matches!(c, '，' | '：' | '—' | ':' | '、' | '（' | '）' | '(' | ')') || (c == ',' && spaced);
        if sentence_end || clause_end {
            parts.push((std::mem::take(&mut cur), aside));
        } else {
            cur.push(c);
        }
        match c {
            '（' | '(' => aside = true,
            '）' | ')' => aside = false,
            _ => {}
        }
        if sentence_end {
            sentences.push((std::mem::take(&mut parts), c == '？' || c == '?'));
        }
    }
    parts.push((cur, aside));
    sentences.push((parts, false));
    let seps: &[&str] = if zh { &["但是", "但", "可是", "却", "而且"] } else { &[" but ", " yet "] };
    let mut out = Vec::new();
    for (parts, question) in sentences {
        let mut first = true;
        for (part, aside) in parts {
            let mut pieces = vec![part];
            for sep in seps {
                pieces = pieces.iter().flat_map(|p| p.split(sep).map(str::to_owned).collect::<Vec<_>>()).collect();
            }
            for p in pieces {
                let p = p.trim().to_owned();
                if !p.is_empty() {
                    out.push(Clause { text: p, question, first, aside });
                    first = false;
                }
            }
        }
    }
    out
}

/// SAN moves written in a clause, with their byte offsets: piece moves with English or Chinese letters (`Qxf7`,
/// `后xf7`, `Nf7+`), pawn captures (`dxe5`), castling.
fn san_tokens(clause: &str) -> Vec<(usize, String)> {
    let chars: Vec<(usize, char)> = clause.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let prev_ok = i == 0 || !chars[i - 1].1.is_ascii_alphanumeric();
        let piece = matches!(c, 'K' | 'Q' | 'R' | 'B' | 'N' | '王' | '后' | '车' | '象' | '马');
        let pawn = matches!(c, 'a'..='h');
        if prev_ok && (piece || pawn) {
            // The longest run of SAN characters after it.
            let mut j = i + 1;
            while j < chars.len()
                && matches!(chars[j].1, 'a'..='h' | '1'..='8' | 'x' | '=' | 'Q' | 'R' | 'B' | 'N' | '+' | '#')
            {
                j += 1;
            }
            let tok: String = chars[i..j].iter().map(|(_, c)| *c).collect();
            let body: String = tok.chars().skip(1).collect();
            let has_square =
                body.as_bytes().windows(2).any(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]));
            let next_ok = j >= chars.len() || !chars[j].1.is_ascii_alphanumeric();
            let ok = if piece { has_square } else { body.starts_with('x') && has_square };
            if ok && next_ok {
                out.push((at, tok.trim_end_matches(['+', '#']).to_owned()));
                i = j;
                continue;
            }
        }
        if c == 'O' && clause[at..].starts_with("O-O") {
            let t = if clause[at..].starts_with("O-O-O") { "O-O-O" } else { "O-O" };
            out.push((at, t.to_owned()));
            i += t.len();
            continue;
        }
        i += 1;
    }
    out
}

/// The move a claim at byte `at` speaks about: the last one named before it in the clause, else the first after.
fn san_for(sans: &[(usize, String)], at: usize) -> Option<String> {
    sans.iter().rev().find(|(i, _)| *i < at).or_else(|| sans.iter().find(|(i, _)| *i > at)).map(|(_, s)| s.clone())
}

fn zh_role(c: char) -> Option<Option<Role>> {
    Some(match c {
        '后' => Some(Role::Queen),
        '车' => Some(Role::Rook),
        '象' => Some(Role::Bishop),
        '马' => Some(Role::Knight),
        '兵' => Some(Role::Pawn),
        '子' => None,
        _ => return None,
    })
}

/// Words that make a Chinese clause say nothing about the position itself.
const ZH_SKIP: &[&str] = &[
    "如果",
    "要是",
    "假如",
    "的话",
    "否则",
    "时",
    "会",
    "可以",
    "能",
    "要",
    "然后",
    "接着",
    "下一步",
    "再",
    "威胁",
    "想",
    "打算",
    "准备",
    "试图",
    "小心",
    "注意",
    "别",
    "避免",
    "防止",
    "当心",
    "表示",
    "叫做",
    "称为",
    "意思",
    "之前",
    "就是说",
    "才",
    "吗",
    "呢",
    "应该",
    "必须",
    "得走",
    "不得不",
    "只好",
    "值",
    "一旦",
    "等",
    "最后",
    "最终",
];
/// Words that contain a ZH_SKIP word but are not modal.
const ZH_NOT_SKIP: &[&str] = &[
    "机会", "学会", "体会", "重要", "需要", "主要", "只要", "不能", "无能", "能力", "时间", "同时", "这时", "此时",
    "及时", "暂时", "时候",
];
/// Words that suppose: the clause and the rest of its sentence say nothing about the position itself.
const ZH_SUPPOSE: &[&str] = &["如果", "要是", "假如", "一旦", "的话", "只要", "等到"];
const EN_SUPPOSE: &[&str] = &["if", "when", "once", "unless", "whenever", "suppose", "supposing", "until"];
/// Past tenses after "when" / "once" that make the clause tell what happened.
const EN_PAST: &[&str] = &[
    "took",
    "went",
    "had",
    "was",
    "were",
    "moved",
    "captured",
    "blocked",
    "played",
    "gave",
    "stepped",
    "left",
    "came",
    "ran",
    "recaptured",
    "answered",
    "did",
];
const ZH_NEG: &[&str] = &["没有", "没", "不是", "不会", "不能", "无法", "并非", "未", "不", "非", "并不"];

fn zh_skip(clause: &str) -> bool {
    let mut c = clause.to_owned();
    for w in ZH_NOT_SKIP {
        c = c.replace(w, "·");
    }
    ZH_SKIP.iter().any(|w| c.contains(w))
}

/// The claims of a Chinese text.
fn claims_zh(text: &str) -> Vec<Claim> {
    let mut out = Vec::new();
    // A clause that supposes (如果…，) takes the rest of its sentence with it.
    let mut supposing = false;
    // The last move named in the sentence so far: a clause in brackets naming none speaks about it ("白方只剩 王e6
    // （黑方一步棋也走不了…）").
    let mut carry: Option<String> = None;
    let mut after: Option<String> = None;
    for Clause { text: clause, question, first, aside } in clauses(text, true) {
        if first {
            supposing = false;
            carry = None;
            after = None;
        }
        let sans = san_tokens(&clause);
        let carried = if aside || after.is_some() || clause.chars().count() <= 4 {
            after.clone().or_else(|| carry.clone())
        } else {
            None
        };
        if let Some((_, last)) = sans.last() {
            carry = Some(last.clone());
            // "后xe1 以后，黑王没有被将军": the rest of the sentence is after that move.
            if clause.ends_with("以后") || clause.ends_with("之后") {
                after = Some(last.clone());
            }
        }
        if ZH_SUPPOSE.iter().any(|w| clause.contains(w)) || clause.ends_with('时') || clause.starts_with("以后") {
            supposing = true;
        }
        if question || supposing || zh_skip(&clause) {
            continue;
        }
        let negated_at = |at: usize| {
            let before = &clause[..at];
            let tail: String = before.chars().rev().take(4).collect::<Vec<_>>().into_iter().rev().collect();
            ZH_NEG.iter().any(|n| tail.contains(n))
        };
        let push = |at: usize, kind: Kind, word: &str, out: &mut Vec<Claim>| {
            out.push(Claim {
                kind,
                negated: negated_at(at),
                word: word.to_owned(),
                san: san_for(&sans, at).or_else(|| carried.clone()),
                carried: san_for(&sans, at).is_none() && carried.is_some(),
            });
        };
        // Mate.
        let mut mate_at = None;
        for w in ["将死", "将杀", "闷杀", "绝杀"] {
            if let Some(at) = clause.find(w) {
                mate_at.get_or_insert(at);
                push(at, Kind::Mate, w, &mut out);
                break;
            }
        }
        if mate_at.is_none()
            && let Some(at) = clause.find('杀')
        {
            // A name (底线杀, 学者杀, 梯子杀法, 两步杀) is a claim only after 这是 / 这就是 / 就是 / 完成了.
            let before = &clause[..at];
            let named = clause[at..].starts_with("杀法") || before.ends_with('步');
            if !named && ["这是", "这就是", "就是", "完成了", "形成了"].iter().any(|w| before.contains(w))
            {
                let word_start = before.char_indices().rev().nth(1).map_or(0, |(i, _)| i);
                push(at, Kind::Mate, &clause[word_start..at + '杀'.len_utf8()], &mut out);
            }
        }
        if let Some(at) = clause.find("逼和") {
            push(at, Kind::Stalemate, "逼和", &mut out);
        }
        // Check: 将军 as what happens, not a noun (将军的车, 远处的将军) nor its end (将军解除).
        if let Some(at) = clause.find("双将") {
            push(at, Kind::DoubleCheck, "双将", &mut out);
        } else if let Some(at) = clause.find("将军") {
            let rest = &clause[at + "将军".len()..];
            let before = &clause[..at];
            let noun = rest.starts_with('的')
                || before.ends_with('的')
                || rest.starts_with("解除")
                || before.ends_with("解除")
                || before.ends_with("解除了")
                || before.ends_with("躲开")
                || before.ends_with("应付");
            if !noun {
                let word = if before.ends_with('被') { "被将军" } else { "将军" };
                push(at, Kind::Check, word, &mut out);
            }
        }
        if let Some(at) = clause.find("只是将军").or_else(|| clause.find("只是在将军")) {
            out.push(Claim {
                kind: Kind::Mate,
                negated: true,
                word: "只是将军".into(),
                san: san_for(&sans, at).or_else(|| carried.clone()),
                carried: san_for(&sans, at).is_none() && carried.is_some(),
            });
        }
        // Winning and capturing: a verb, then within a few characters a piece (or 子).
        let verbs: &[(&str, bool)] = &[
            ("赢得", true),
            ("得到", true),
            ("白得", true),
            ("赢了", true),
            ("白白吃掉", true),
            ("白吃", true),
            ("赢", true),
            ("吃掉", false),
            ("吃了", false),
            ("吃下", false),
        ];
        let mut taken = Vec::new();
        for (v, win) in verbs {
            let Some(at) = clause.find(v) else { continue };
            if taken.iter().any(|&(a, l): &(usize, usize)| at >= a && at < a + l) {
                continue;
            }
            taken.push((at, v.len()));
            // 后 in 以后 / 之后 / 然后 … is "after", not the queen (same byte length, so offsets hold).
            let masked = ["以后", "之后", "然后", "后来", "最后", "随后", "背后", "身后", "前后", "后面"]
                .iter()
                .fold(clause.clone(), |c, w| c.replace(w, &w.replace('后', "〇")));
            let rest = &masked[at + v.len()..];
            // 你的 / 自己的 / 己方: the learner loses it; not read.
            let head: String = rest.chars().take(8).collect();
            if head.contains("你的") || head.contains("自己") || head.contains("我") {
                continue;
            }
            let mut role = None;
            for (n, ch) in rest.chars().enumerate() {
                if n > 6 {
                    break;
                }
                if let Some(r) = zh_role(ch) {
                    // 子 (一个子, 棋子) is any piece: material.
                    role = Some(r);
                    break;
                }
                if "，。；：！？".contains(ch) {
                    break;
                }
            }
            // A passive or 把 form: the piece before the verb (后就被吃掉了, 把后吃掉).
            if role.is_none() && !win {
                let before: Vec<char> = masked[..at].chars().collect();
                let n = before.len();
                for k in (n.saturating_sub(5)..n).rev() {
                    if let Some(r) = zh_role(before[k])
                        && (before[k + 1..].iter().collect::<String>().contains('被')
                            || before[..k].iter().collect::<String>().ends_with('把'))
                    {
                        role = Some(r);
                        break;
                    }
                }
            }
            let Some(role) = role else { continue };
            let kind = if *win { Kind::Win(role) } else { Kind::Capture(role) };
            push(at, kind, v, &mut out);
        }
    }
    out
}

const EN_SKIP: &[&str] = &[
    "if",
    "when",
    "while",
    "unless",
    "otherwise",
    "will",
    "would",
    "can",
    "could",
    "may",
    "might",
    "should",
    "must",
    "shall",
    "then",
    "next",
    "threat",
    "threatens",
    "threaten",
    "threatening",
    "going",
    "want",
    "wants",
    "try",
    "tries",
    "about",
    "before",
    "avoid",
    "careful",
    "beware",
    "means",
    "mean",
    "called",
    "ensure",
    "sure",
    "had",
    "has",
    "have",
    "to",
    "until",
    "whenever",
    "able",
    "plan",
    "aim",
    "aims",
    "once",
    "worth",
    "soon",
    "later",
    "end",
    "eventually",
    "finally",
];
const EN_NEG: &[&str] = &["not", "no", "never", "without", "cannot", "neither", "nor", "nothing", "none"];

fn en_words(clause: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in clause.char_indices() {
        let w = c.is_ascii_alphanumeric() || c == '\'' || c == '’' || c == '-';
        match (w, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, clause[s..i].to_lowercase().replace('’', "'")));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, clause[s..].to_lowercase().replace('’', "'")));
    }
    out
}

fn en_role(w: &str) -> Option<Option<Role>> {
    Some(match w.trim_end_matches('s') {
        "queen" | "her" => Some(Role::Queen),
        "rook" => Some(Role::Rook),
        "bishop" => Some(Role::Bishop),
        "knight" => Some(Role::Knight),
        "pawn" => Some(Role::Pawn),
        "piece" | "material" | "point" | "exchange" => None,
        _ => return None,
    })
}

/// The claims of an English text.
fn claims_en(text: &str) -> Vec<Claim> {
    let mut out = Vec::new();
    // A clause that supposes ("once the king steps away, …") takes the rest of its sentence with it.
    let mut supposing = false;
    let mut carry: Option<String> = None;
    let mut after: Option<String> = None;
    for Clause { text: clause, question, first, aside } in clauses(text, false) {
        let words = en_words(&clause);
        let w = |i: usize| words.get(i).map_or("", |(_, s)| s.as_str());
        if first {
            supposing = false;
            carry = None;
            after = None;
        }
        let sans = san_tokens(&clause);
        let carried =
            if aside || after.is_some() || words.len() <= 2 { after.clone().or_else(|| carry.clone()) } else { None };
        if let Some((_, last)) = sans.last() {
            carry = Some(last.clone());
            // "After Qxe1, the king …": the rest of the sentence is after that move.
            if w(0) == "after" && words.len() <= 3 {
                after = Some(last.clone());
            }
        }
        // "when the rook took the queen, …" tells what happened; "when the king moves, …" supposes.
        let told = (1..5).any(|k| EN_PAST.contains(&w(k)));
        if (EN_SUPPOSE.contains(&w(0)) && !told) || (w(0) == "as" && w(1) == "soon") {
            supposing = true;
        }
        if question || supposing {
            continue;
        }
        // "to" only as an infinitive marker after "has/had/have/want/going" is covered by those words; a bare "to"
        // ("goes to a6") is not modal.
        let skip = words.iter().enumerate().any(|(i, (_, s))| {
            let s = s.as_str();
            if s == "to" || s == "has" || s == "have" || s == "had" {
                return (s != "to") && w(i + 1) == "to";
            }
            if (s == "do" || s == "don't") && i == 0 {
                return true;
            }
            EN_SKIP.contains(&s)
        });
        if skip {
            continue;
        }
        let negated_at = |i: usize| (i.saturating_sub(3)..i).any(|k| EN_NEG.contains(&w(k)) || w(k).ends_with("n't"));
        let push = |i: usize, kind: Kind, word: String, negated: bool, out: &mut Vec<Claim>| {
            let at = words[i].0;
            let own = san_for(&sans, at);
            let carried_now = own.is_none() && carried.is_some();
            out.push(Claim { kind, negated, word, san: own.or_else(|| carried.clone()), carried: carried_now });
        };
        let mut had_mate = false;
        let mut had_check = false;
        for i in 0..words.len() {
            let s = w(i);
            match s {
                "checkmate" | "checkmates" | "checkmated" | "mate" | "mates" | "mated" => {
                    if had_mate || w(i + 1) == "in" {
                        continue;
                    }
                    // Opening names are claims only after "this is" / "that is".
                    let named = ["scholar's", "fool's", "legal's", "four-move"].contains(&w(i.wrapping_sub(1)));
                    let said =
                        (0..i).any(|k| ["this", "that", "it"].contains(&w(k)) && ["is", "was"].contains(&w(k + 1)));
                    if named && !said {
                        continue;
                    }
                    had_mate = true;
                    push(i, Kind::Mate, words[i].1.clone(), negated_at(i), &mut out);
                }
                "stalemate" | "stalemates" | "stalemated" => {
                    push(i, Kind::Stalemate, s.to_owned(), negated_at(i), &mut out);
                }
                "check" | "checks" | "checked" => {
                    if had_check {
                        continue;
                    }
                    let p = w(i.wrapping_sub(1));
                    let pp = w(i.wrapping_sub(2));
                    let verb_before =
                        ["give", "gives", "gave", "giving", "with", "in", "is", "was", "are", "a", "no", "double"];
                    let only = ["only", "just", "merely"].contains(&p) || ["only", "just", "merely"].contains(&pp);
                    let claim = match s {
                        "check" => {
                            verb_before.contains(&p)
                                || only
                                || (i == 0 && words.len() == 1)
                                || (["is", "was", "gives", "give"].contains(&pp) && ["a", "no", "not"].contains(&p))
                        }
                        "checks" => {
                            ![
                                "the",
                                "a",
                                "its",
                                "his",
                                "her",
                                "their",
                                "of",
                                "escape",
                                "answer",
                                "avoid",
                                "more",
                                "no",
                                "two",
                                "three",
                                "those",
                                "these",
                                "all",
                                "many",
                                "repeated",
                                "perpetual",
                                "endless",
                                "from",
                            ]
                            .contains(&p)
                                && !p.is_empty()
                        }
                        _ => !p.is_empty() && !["is", "a", "the"].contains(&p),
                    };
                    if !claim {
                        continue;
                    }
                    had_check = true;
                    let word = if p == "double" { "double check".to_owned() } else { s.to_owned() };
                    let kind = if p == "double" { Kind::DoubleCheck } else { Kind::Check };
                    push(i, kind, word, negated_at(i), &mut out);
                    if only {
                        push(
                            i,
                            Kind::Mate,
                            format!("{} check", if ["only", "just", "merely"].contains(&p) { p } else { pp }),
                            true,
                            &mut out,
                        );
                    }
                }
                "wins" | "win" | "won" | "winning" | "takes" | "took" | "captures" | "captured" | "capture" => {
                    let win = s.starts_with('w');
                    // The object: a piece within the next four words, not "your"/"own".
                    let mut role = None;
                    for k in i + 1..(i + 5).min(words.len()) {
                        // "your"/"own": the learner's piece, not read; "with a pawn", "by", "on", "from": not the object.
                        if ["your", "own", "my", "with", "by", "on", "from", "at", "in"].contains(&w(k)) {
                            break;
                        }
                        if let Some(r) = en_role(w(k)) {
                            role = Some(r);
                            break;
                        }
                    }
                    // "you took it for free", "your bishop takes the bishop for nothing": the learner wins it.
                    let free = (1..words.len()).any(|k| w(k - 1) == "for" && ["free", "nothing"].contains(&w(k)));
                    let ours = words[..i].iter().any(|(_, x)| x == "you" || x == "your");
                    if role.is_none() && free && ours && ["it", "them", "him", "one"].contains(&w(i + 1)) {
                        role = Some(None);
                    }
                    let Some(role) = role else { continue };
                    // "f2 takes the bishop back": a recapture further on, not read.
                    if (i + 1..(i + 6).min(words.len())).any(|k| w(k) == "back") {
                        continue;
                    }
                    let kind = if win || (free && ours) { Kind::Win(role) } else { Kind::Capture(role) };
                    push(i, kind, format!("{} {}", words[i].1, role_name(role)), negated_at(i), &mut out);
                }
                // "for free" alone; with a capture verb it is that capture's ("the rook takes the knight for free").
                // "you are a pawn up for free"; not "you let it go for free" (a piece given away).
                "free"
                    if w(i.wrapping_sub(1)) == "for"
                        && words[..i].iter().any(|(_, x)| x == "you" || x == "your")
                        && !words.iter().any(|(_, x)| {
                            [
                                "wins", "win", "won", "winning", "takes", "took", "captures", "captured", "capture",
                                "let", "give", "gave", "given", "lose", "lost", "hang", "hangs", "leave", "left", "go",
                            ]
                            .contains(&x.as_str())
                        }) =>
                {
                    push(i, Kind::Win(None), "for free".into(), negated_at(i), &mut out);
                }
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(v: &[Claim]) -> Vec<(Kind, bool)> {
        v.iter().map(|c| (c.kind, c.negated)).collect()
    }

    #[test]
    fn review_error_one_reads_a_negated_check_and_a_stalemate() {
        let c = claims_zh("车在 a7 没有将军，黑王却一步也走不了：这是逼和。");
        assert_eq!(kinds(&c), vec![(Kind::Check, true), (Kind::Stalemate, false)]);
        let c = claims_en("From a7 the rook gives no check, yet the king cannot move: stalemate.");
        assert_eq!(kinds(&c), vec![(Kind::Check, true), (Kind::Stalemate, false)]);
    }

    #[test]
    fn names_questions_and_threats_are_not_claims() {
        assert!(claims_zh("这是将死吗？").is_empty());
        assert!(claims_en("Is it mate?").is_empty());
        assert!(claims_zh("白方会将死你。").is_empty());
        assert!(claims_en("Black will mate you.").is_empty());
        assert!(claims_zh("梯子杀法也可以竖着用").is_empty());
        assert!(claims_en("Find the mate in two").is_empty());
    }

    #[test]
    fn san_tokens_read_both_letters() {
        let t = san_tokens("马f6 攻击了后：后xf7 将死！");
        assert_eq!(t.iter().map(|(_, s)| s.as_str()).collect::<Vec<_>>(), vec!["马f6", "后xf7"]);
        let t = san_tokens("Nf6 attacks, dxe5 and Qxf7# but not a7");
        assert_eq!(t.iter().map(|(_, s)| s.as_str()).collect::<Vec<_>>(), vec!["Nf6", "dxe5", "Qxf7"]);
    }
}
