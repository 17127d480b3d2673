//! Static evaluation, tapered between middlegame and endgame: material and piece-square tables, mobility tables,
//! pawn structure (doubled, isolated, backward, connected and passed pawns, with free paths and king distances),
//! threats against enemy pieces, king safety (pawn shield, open files, attacks on the king zone, safe checks),
//! outposts, the bishop pair, bad bishops and rooks on open files. Weights live in [`crate::params`].

use crate::params::{MOBILITY_OFFSET, MOBILITY_SIZE, PARAMS, Pair, feature};
use guoxiang_core::attacks;
use guoxiang_core::{Bitboard, Color, Position, Role, Square};

const fn file_mask(f: usize) -> u64 {
    0x0101_0101_0101_0101u64 << f
}

const fn build_adjacent() -> [u64; 8] {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f] |= file_mask(f - 1);
        }
        if f < 7 {
            t[f] |= file_mask(f + 1);
        }
        f += 1;
    }
    t
}

/// Files next to each file.
const ADJACENT_FILES: [u64; 8] = build_adjacent();

/// Squares in front of `sq` (from `color`'s point of view) on its own and the adjacent files: where enemy pawns
/// would stop a passed pawn.
const fn build_passed_masks() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = sq % 8;
        let r = sq / 8;
        let files = file_mask(f) | ADJACENT_FILES[f];
        let mut ahead_w = 0u64;
        let mut rr = r + 1;
        while rr < 8 {
            ahead_w |= 0xFFu64 << (rr * 8);
            rr += 1;
        }
        let mut ahead_b = 0u64;
        let mut rr = 0;
        while rr < r {
            ahead_b |= 0xFFu64 << (rr * 8);
            rr += 1;
        }
        t[0][sq] = files & ahead_w;
        t[1][sq] = files & ahead_b;
        sq += 1;
    }
    t
}

const PASSED_MASK: [[u64; 64]; 2] = build_passed_masks();

/// Squares attacked by all pawns of `color` in `pawns`.
#[inline]
fn pawn_attack_set(color: Color, pawns: Bitboard) -> Bitboard {
    let not_a = !Bitboard::from_file(guoxiang_core::File::A);
    let not_h = !Bitboard::from_file(guoxiang_core::File::H);
    match color {
        Color::White => Bitboard(((pawns & not_a).0 << 7) | ((pawns & not_h).0 << 9)),
        Color::Black => Bitboard(((pawns & not_a).0 >> 9) | ((pawns & not_h).0 >> 7)),
    }
}

/// Index into the piece-square tables (written rank 8 first) for a piece of `color` on `sq`.
#[inline]
fn pst_index(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.index() ^ 56,
        Color::Black => sq.index(),
    }
}

/// Receives, while the evaluation runs, how often each tunable weight ([`feature`]) counts for a side, and the
/// value of the terms that are not tunable. The engine evaluates with [`NoTrace`], which compiles to nothing.
trait Trace {
    /// Feature `f` counts `n` times for `us`.
    fn add(&mut self, us: Color, f: usize, n: i32);
    /// A term outside the tunable weights is worth `v` for `us`.
    fn fixed(&mut self, us: Color, v: Pair);
}

struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: Color, _: usize, _: i32) {}
    #[inline(always)]
    fn fixed(&mut self, _: Color, _: Pair) {}
}

/// Dark squares (a1 is dark).
const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;

/// What one side's pieces attack, computed once per evaluation for both sides.
struct Attacks {
    pawns: Bitboard,
    knights: Bitboard,
    bishops: Bitboard,
    rooks: Bitboard,
    queens: Bitboard,
    /// Everything attacked, the king's squares included.
    all: Bitboard,
    /// Each knight, bishop, rook and queen (as 0 … 3), its square and what it attacks; the first `len` are used.
    each: [(u8, Square, Bitboard); 16],
    len: usize,
}

fn attacks_of(pos: &Position, c: Color) -> Attacks {
    let occ = pos.occupied();
    let pawns = pawn_attack_set(c, pos.pieces(c, Role::Pawn));
    let mut a = Attacks {
        pawns,
        knights: Bitboard::EMPTY,
        bishops: Bitboard::EMPTY,
        rooks: Bitboard::EMPTY,
        queens: Bitboard::EMPTY,
        all: pawns | attacks::king_attacks(pos.king(c)),
        each: [(0, Square::new(0), Bitboard::EMPTY); 16],
        len: 0,
    };
    for (k, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen].into_iter().enumerate() {
        for sq in pos.pieces(c, role) {
            let b = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, occ),
                Role::Rook => attacks::rook_attacks(sq, occ),
                _ => attacks::queen_attacks(sq, occ),
            };
            match k {
                0 => a.knights |= b,
                1 => a.bishops |= b,
                2 => a.rooks |= b,
                _ => a.queens |= b,
            }
            // A side has at most 15 pieces besides its king, so this always holds.
            if a.len < a.each.len() {
                a.each[a.len] = (k as u8, sq, b);
                a.len += 1;
            }
        }
    }
    a.all |= a.knights | a.bishops | a.rooks | a.queens;
    a
}

/// The evaluation of one side, as a middlegame/endgame pair.
fn side<T: Trace>(pos: &Position, us: Color, att: &[Attacks; 2], t: &mut T) -> Pair {
    let p = &PARAMS;
    let them = !us;
    let (mine, theirs) = (&att[us.index()], &att[them.index()]);
    let occ = pos.occupied();
    let ours = pos.by_color(us);
    let our_pawns = pos.pieces(us, Role::Pawn);
    let their_pawns = pos.pieces(them, Role::Pawn);
    let forward = |sq: Square| sq.offset(if us == Color::White { 8 } else { -8 });
    let mut s = Pair::ZERO;

    // Material and placement.
    for role in Role::ALL {
        for sq in pos.pieces(us, role) {
            let i = pst_index(us, sq);
            s += p.material[role.index()];
            s += Pair(p.pst_mg[role.index()][i], p.pst_eg[role.index()][i]);
            if role != Role::King {
                t.add(us, feature::MATERIAL + role.index(), 1);
            }
            t.add(us, feature::PST + role.index() * 64 + i, 1);
        }
    }

    // Mobility, attacks on the enemy king zone, outposts and bishops hemmed in by their own pawns.
    let area = !(ours | theirs.pawns);
    let their_king = pos.king(them);
    let zone = attacks::king_attacks(their_king) | their_king;
    let mut attackers = 0;
    let mut units = 0;
    for &(k, sq, a) in &mine.each[..mine.len] {
        let k = k as usize;
        let n = ((a & area).count() as usize).min(MOBILITY_SIZE[k] - 1);
        let f = MOBILITY_OFFSET[k] + n;
        s += p.mobility[f];
        t.add(us, feature::MOBILITY + f, 1);
        let hits = (a & zone).count() as i32;
        if hits > 0 {
            attackers += 1;
            units += p.king_attack_weight[k] * hits;
        }
        if k < 2 {
            let rank = sq.rank().relative(us).index();
            let never_attacked = (their_pawns
                & Bitboard(PASSED_MASK[us.index()][sq.index()] & ADJACENT_FILES[sq.file().index() as usize]))
            .is_empty();
            if (3..=5).contains(&rank) && mine.pawns.contains(sq) && never_attacked {
                s += p.outpost[k];
                t.add(us, feature::OUTPOST + k, 1);
            }
            if forward(sq).is_some_and(|f| our_pawns.contains(f)) {
                s += p.minor_behind_pawn;
                t.add(us, feature::MINOR_BEHIND_PAWN, 1);
            }
        }
        if k == 1 {
            let colour = if sq.is_light() { !DARK_SQUARES } else { DARK_SQUARES };
            let n = (our_pawns & Bitboard(colour)).count() as i32;
            s += p.bad_bishop * n;
            t.add(us, feature::BAD_BISHOP, n);
        }
    }
    if attackers >= 2 && pos.pieces(us, Role::Queen).any() {
        let danger = (units * units / p.king_danger_divisor).min(p.king_danger_max);
        s += Pair(danger, 0);
        t.fixed(us, Pair(danger, 0));
    }

    // Safe checks: squares from which a piece could check their king, that such a piece of ours attacks, and that
    // no enemy piece defends.
    let safe = !(ours | theirs.all);
    let diagonal = attacks::bishop_attacks(their_king, occ);
    let straight = attacks::rook_attacks(their_king, occ);
    let checks = [
        attacks::knight_attacks(their_king) & mine.knights,
        diagonal & mine.bishops,
        straight & mine.rooks,
        (diagonal | straight) & mine.queens,
    ];
    for (k, c) in checks.into_iter().enumerate() {
        let n = (c & safe).count() as i32;
        s += p.safe_check[k] * n;
        t.add(us, feature::SAFE_CHECK + k, n);
    }

    // Threats against enemy pieces.
    let theirs_no_king = pos.by_color(them).without(their_king);
    let pieces = theirs_no_king & !their_pawns;
    let loose = !theirs.all;
    let minors = mine.knights | mine.bishops;
    let their_minors = pos.pieces(them, Role::Knight) | pos.pieces(them, Role::Bishop);
    let their_queens = pos.pieces(them, Role::Queen);
    let threats = [
        mine.pawns & pieces,
        minors & their_pawns & loose,
        minors & pos.pieces(them, Role::Knight),
        minors & pos.pieces(them, Role::Bishop),
        minors & pos.pieces(them, Role::Rook),
        minors & their_queens,
        mine.rooks & their_pawns & loose,
        mine.rooks & their_minors & loose,
        mine.rooks & their_queens,
        mine.queens & theirs_no_king & loose,
        mine.all & pieces & loose,
    ];
    for (k, b) in threats.into_iter().enumerate() {
        let n = b.count() as i32;
        s += p.threat[k] * n;
        t.add(us, feature::THREAT + k, n);
    }

    // Pawn structure.
    for sq in our_pawns {
        let f = sq.file().index() as usize;
        let file = Bitboard(file_mask(f));
        let rank = sq.rank().relative(us).index() as usize;
        let ahead = Bitboard(PASSED_MASK[us.index()][sq.index()]);
        let neighbours = our_pawns & Bitboard(ADJACENT_FILES[f]);
        if (our_pawns & file).more_than_one() {
            // Counted once per pawn of a doubled file: two pawns cost twice the weight.
            s += p.doubled_pawn;
            t.add(us, feature::DOUBLED_PAWN, 1);
        }
        if neighbours.is_empty() {
            s += p.isolated_pawn;
            t.add(us, feature::ISOLATED_PAWN, 1);
        } else if (neighbours & !ahead).is_empty() && forward(sq).is_some_and(|st| theirs.pawns.contains(st)) {
            s += p.backward_pawn;
            t.add(us, feature::BACKWARD_PAWN, 1);
        }
        let supported = (our_pawns & attacks::pawn_attacks(them, sq)).any();
        let phalanx = (neighbours & Bitboard::from_rank(sq.rank())).any();
        if supported || phalanx {
            s += p.connected_pawn[rank];
            t.add(us, feature::CONNECTED_PAWN + rank, 1);
        }
        // Only the frontmost of our pawns on a file counts as passed.
        if (their_pawns & ahead).is_empty() && (our_pawns & file & ahead).is_empty() {
            s += p.passed_pawn[rank];
            t.add(us, feature::PASSED_PAWN + rank, 1);
            if let Some(stop) = forward(sq) {
                if !occ.contains(stop) && !theirs.all.contains(stop) {
                    s += p.passed_free[rank];
                    t.add(us, feature::PASSED_FREE + rank, 1);
                }
                let w = rank.saturating_sub(2) as i32;
                if w > 0 {
                    let (du, dt) = (pos.king(us).distance(stop) as i32 * w, their_king.distance(stop) as i32 * w);
                    s += p.passed_king_us * du + p.passed_king_them * dt;
                    t.add(us, feature::PASSED_KING_US, du);
                    t.add(us, feature::PASSED_KING_THEM, dt);
                }
            }
        }
    }

    // Bishop pair, rooks on open files.
    if pos.pieces(us, Role::Bishop).more_than_one() {
        s += p.bishop_pair;
        t.add(us, feature::BISHOP_PAIR, 1);
    }
    for sq in pos.pieces(us, Role::Rook) {
        let file = Bitboard(file_mask(sq.file().index() as usize));
        if (our_pawns & file).is_empty() {
            let (w, f) = if (their_pawns & file).is_empty() {
                (p.rook_open_file, feature::ROOK_OPEN_FILE)
            } else {
                (p.rook_semi_open_file, feature::ROOK_SEMI_OPEN_FILE)
            };
            s += w;
            t.add(us, f, 1);
        }
    }

    // Our king: files around it without our pawns, and the pawn shield in front of it on its first two ranks.
    let king = pos.king(us);
    let kf = king.file().index() as usize;
    let open = (kf.saturating_sub(1)..=(kf + 1).min(7)).filter(|&f| (our_pawns & Bitboard(file_mask(f))).is_empty());
    let open = open.count() as i32;
    s += p.king_open_file * open;
    t.add(us, feature::KING_OPEN_FILE, open);
    if (king.rank().relative(us) as u32) <= 1 {
        let files = Bitboard(file_mask(kf) | ADJACENT_FILES[kf]);
        let step = |b: Bitboard| if us == Color::White { b.north() } else { b.south() };
        let front1 = step(Bitboard::from_rank(king.rank())) & files;
        let front2 = step(front1);
        let close = (our_pawns & front1).count() as i32;
        let far = (our_pawns & front2).count() as i32;
        s += p.shield_close * close + p.shield_far * far;
        t.add(us, feature::SHIELD_CLOSE, close);
        t.add(us, feature::SHIELD_FAR, far);
    }
    s
}

/// Game phase from the material on the board: `phase_total` at the start, 0 with only kings and pawns.
pub fn phase(pos: &Position) -> i32 {
    let mut ph = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        ph += PARAMS.phase[role.index()] * pos.by_role(role).count() as i32;
    }
    ph.min(PARAMS.phase_total)
}

/// Non-pawn material of `color` (middlegame values), used by the search to spot zugzwang-prone endings.
pub fn non_pawn_material(pos: &Position, color: Color) -> i32 {
    let mut m = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        m += PARAMS.material[role.index()].0 * pos.pieces(color, role).count() as i32;
    }
    m
}

/// Whether neither side can possibly win on material alone (bare kings, or a single minor piece).
pub fn insufficient(pos: &Position) -> bool {
    if pos.by_role(Role::Pawn).any() || pos.by_role(Role::Rook).any() || pos.by_role(Role::Queen).any() {
        return false;
    }
    let minors = pos.by_role(Role::Knight) | pos.by_role(Role::Bishop);
    !minors.more_than_one()
}

/// Whether a side without pawns is at most a minor piece ahead, so that its advantage is scaled down: for white
/// (applies when the score favours white) and for black.
fn drawish(pos: &Position) -> (bool, bool) {
    let (w_pawns, b_pawns) = (pos.pieces(Color::White, Role::Pawn), pos.pieces(Color::Black, Role::Pawn));
    let diff = non_pawn_material(pos, Color::White) - non_pawn_material(pos, Color::Black);
    let minor = PARAMS.material[Role::Bishop.index()].0;
    (w_pawns.is_empty() && diff <= minor, b_pawns.is_empty() && -diff <= minor)
}

/// Blends a middlegame/endgame pair by phase `ph` (of `total`) and applies the drawish scaling.
#[inline]
pub fn blend(s: Pair, ph: i32, total: i32, drawish: (bool, bool)) -> i32 {
    let v = (s.0 * ph + s.1 * (total - ph)) / total;
    // A side without pawns and at most a minor piece ahead can rarely win: scale the score down.
    if (v > 0 && drawish.0) || (v < 0 && drawish.1) { v / 4 } else { v }
}

/// The evaluation from white's point of view, without the tempo bonus.
pub fn evaluate_white(pos: &Position) -> i32 {
    if insufficient(pos) {
        return 0;
    }
    let att = [attacks_of(pos, Color::White), attacks_of(pos, Color::Black)];
    let s = side(pos, Color::White, &att, &mut NoTrace) - side(pos, Color::Black, &att, &mut NoTrace);
    blend(s, phase(pos), PARAMS.phase_total, drawish(pos))
}

/// How the evaluation of one position is made of the tunable weights: the evaluation from white's point of view is
/// `blend(Σ coefficient · weight + fixed, phase, phase_total, drawish)`. Used by the tuner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// `(feature, white's count − black's count)`, without zero counts, sorted by feature.
    pub coefficients: Vec<(u16, i16)>,
    /// White's minus black's value of the terms that are not tunable.
    pub fixed: Pair,
    pub phase: i32,
    /// See [`blend`].
    pub drawish: (bool, bool),
}

impl EvalTrace {
    /// The evaluation from white's point of view (without tempo) with the tunable weights `w`.
    pub fn evaluate(&self, w: &[Pair]) -> i32 {
        let mut s = self.fixed;
        for &(f, n) in &self.coefficients {
            s += w[f as usize] * n as i32;
        }
        blend(s, self.phase, PARAMS.phase_total, self.drawish)
    }
}

#[derive(Default)]
struct Collect {
    counts: Vec<i32>,
    fixed: Pair,
}

impl Trace for Collect {
    fn add(&mut self, us: Color, f: usize, n: i32) {
        self.counts[f] += if us == Color::White { n } else { -n };
    }
    fn fixed(&mut self, us: Color, v: Pair) {
        if us == Color::White {
            self.fixed += v;
        } else {
            self.fixed -= v;
        }
    }
}

/// The [`EvalTrace`] of `pos`; `None` when the evaluation does not depend on the weights (insufficient material).
pub fn trace(pos: &Position) -> Option<EvalTrace> {
    if insufficient(pos) {
        return None;
    }
    let mut t = Collect { counts: vec![0; feature::COUNT], fixed: Pair::ZERO };
    let att = [attacks_of(pos, Color::White), attacks_of(pos, Color::Black)];
    side(pos, Color::White, &att, &mut t);
    side(pos, Color::Black, &att, &mut t);
    let coefficients = t
        .counts
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n != 0)
        .map(|(f, &n)| (f as u16, n.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
        .collect();
    Some(EvalTrace { coefficients, fixed: t.fixed, phase: phase(pos), drawish: drawish(pos) })
}

/// The rules of material applied to another evaluation `v` of `pos` (the network's; side to move's view): a dead
/// draw is 0, a side without pawns at most a minor piece ahead keeps a quarter of its advantage, a side that can
/// never mate wins nothing — as the hand-written evaluation does.
pub fn material_rules(pos: &Position, v: i32) -> i32 {
    if insufficient(pos) {
        return 0;
    }
    let us = pos.turn();
    let (w, b) = drawish(pos);
    let (ours, theirs) = if us == Color::White { (w, b) } else { (b, w) };
    let v = if (v > 0 && ours) || (v < 0 && theirs) { v / 4 } else { v };
    unless_unwinnable(pos, v)
}

/// `v` (side to move's view), or 0 when the side it favours can never checkmate for lack of material (the rules
/// core's theorems: a lone king, a lone knight against nothing but queens, bishops all on one colour with no pawns
/// or knights). A few bitboard tests, so cheap enough for every evaluation; the full "can it ever mate" analysis is
/// not.
fn unless_unwinnable(pos: &Position, v: i32) -> i32 {
    let us = pos.turn();
    if (v > 0 && pos.has_insufficient_material(us)) || (v < 0 && pos.has_insufficient_material(!us)) { 0 } else { v }
}

/// The evaluation from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    let v = evaluate_white(pos);
    let v = if pos.turn() == Color::White { v } else { -v };
    unless_unwinnable(pos, v + PARAMS.tempo)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The colour-swapped mirror image of a FEN (board flipped vertically, colours and side to move swapped).
    pub(crate) fn mirror_fen(fen: &str) -> String {
        let parts: Vec<&str> = fen.split_whitespace().collect();
        let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        let board: Vec<String> = parts[0].split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
        let turn = if parts[1] == "w" { "b" } else { "w" };
        let castling: String = if parts[2] == "-" {
            "-".into()
        } else {
            let mut c: Vec<char> = parts[2].chars().map(swap).collect();
            c.sort_by_key(|&x| (x.is_ascii_lowercase(), x));
            c.into_iter().collect()
        };
        let ep = if parts[3] == "-" {
            "-".to_string()
        } else {
            let b = parts[3].as_bytes();
            format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
        };
        format!("{} {} {} {} {} {}", board.join("/"), turn, castling, ep, parts[4], parts[5])
    }

    #[test]
    fn a_side_that_cannot_mate_is_not_scored_as_winning() {
        // Two bishops on light squares against a bare king: a bishop ahead, and yet a dead draw.
        for fen in ["8/8/4k3/8/8/3K4/2B1B3/8 w - - 0 1", "8/8/4k3/8/8/3K4/2B1B3/8 b - - 0 1"] {
            let pos = Position::from_fen(fen).unwrap();
            assert!(evaluate_white(&pos) > 0, "{fen}: the material count favours White");
            assert_eq!(evaluate(&pos), 0, "{fen}");
            // The same rule on another evaluation's score (the network's).
            let ahead = if pos.turn() == Color::White { 500 } else { -500 };
            assert_eq!(material_rules(&pos, ahead), 0, "{fen}");
            let m = Position::from_fen(&mirror_fen(fen)).unwrap();
            assert_eq!(evaluate(&m), 0, "{fen} mirrored");
        }
        // The side that can still mate keeps its score: a knight against a pawn (a helpmate exists).
        let pos = Position::from_fen("8/8/4k3/8/8/3K3p/3N4/8 w - - 0 1").unwrap();
        assert_ne!(evaluate(&pos), 0);
    }

    #[test]
    fn symmetric() {
        for fen in crate::bench::POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            let m = Position::from_fen(&mirror_fen(fen)).unwrap();
            assert_eq!(evaluate_white(&pos), -evaluate_white(&m), "{fen}");
            assert_eq!(evaluate(&pos), evaluate(&m), "{fen}");
        }
    }

    #[test]
    fn trace_reproduces_the_evaluation() {
        let w = PARAMS.weights();
        assert_eq!(PARAMS.with_weights(&w).weights(), w);
        let extra =
            ["8/5k2/8/8/8/2B5/2K5/3N4 w - - 0 1", "8/8/3k4/8/8/3K4/8/2r1R3 b - - 0 1", "8/8/4k3/8/8/2K5/8/8 w - - 0 1"];
        let mut traced = 0;
        for fen in crate::bench::POSITIONS.iter().chain(extra.iter()) {
            let pos = Position::from_fen(fen).unwrap();
            match trace(&pos) {
                Some(t) => {
                    assert_eq!(t.evaluate(&w), evaluate_white(&pos), "{fen}");
                    traced += 1;
                }
                None => assert_eq!(evaluate_white(&pos), 0, "{fen}"),
            }
        }
        assert!(traced >= 32);
        // After 1.e4 only the pawn squares e2 and e4 differ between the sides; the e4 square's weight moves the
        // evaluation one for one (full middlegame phase), and the traced change is that of the engine's evaluation.
        let start = Position::new();
        let pos = start.after(start.parse_uci("e2e4").unwrap());
        let t = trace(&pos).unwrap();
        let e4 = (feature::PST + 4 * 8 + 4) as u16; // rank 4 is the fifth row of a table written from rank 8
        let e2 = (feature::PST + 6 * 8 + 4) as u16;
        assert!(t.coefficients.contains(&(e4, 1)) && t.coefficients.contains(&(e2, -1)), "{:?}", t.coefficients);
        let mut bumped = w.clone();
        bumped[e4 as usize] += Pair(10, 10);
        assert_eq!(t.evaluate(&bumped), t.evaluate(&w) + 10);
        assert_eq!(feature::name(e4 as usize), "pst.pawn[e4]");
    }

    #[test]
    fn start_is_balanced_and_material_counts() {
        assert_eq!(evaluate_white(&Position::new()), 0);
        let up_queen = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(evaluate(&up_queen) > 800);
        let kk = Position::from_fen("8/8/4k3/8/8/2K5/8/8 w - - 0 1").unwrap();
        assert_eq!(evaluate_white(&kk), 0);
    }
}
