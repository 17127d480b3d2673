// SPDX-License-Identifier: GPL-3.0-or-later
//! The Dutch pairing process as weighted matchings: brackets from the top scoregroup down, each
//! paired by one maximum-weight matching over every player not yet paired, whose edge weights hold the
//! quality criteria as fields of bits (the most important highest); then the order of transpositions and exchanges
//! (which MDPs are paired, transpositions, exchanges) by further matchings that add low-order bonuses.

use integer_blossom::{Weight, max_weight_matching};

use super::PairingError;
use super::state::{Float, State};
use super::wide::Wide;

/// The context of a round that the criteria need besides the players.
pub struct Round {
    /// Topscorers have more than this score (half points): half the maximum possible, set only in the last round.
    pub topscorer_above: Option<u32>,
    /// Rounds already played.
    pub played: usize,
}

/// Two players may meet (the absolute criteria C.1 and C.3): never met, not a forbidden pair, and no two
/// players with the same absolute colour preference, except topscorers in the last round.
pub fn compatible(a: &State, b: &State, round: &Round) -> bool {
    if a.barred.contains(&b.number) {
        return false;
    }
    if a.absolute() && b.absolute() && a.preference == b.preference {
        return round.topscorer_above.is_some_and(|t| a.score > t || b.score > t);
    }
    true
}

fn bits(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

/// Pairs of indices into the players, and the index of the player who gets the pairing-allocated bye.
pub type Paired = (Vec<(usize, usize)>, Option<usize>);

/// Pairs everyone (`players` is in pairing order).
pub fn pair(players: &[State], round: &Round) -> Result<Paired, PairingError> {
    let n = players.len();
    let legal: Vec<Vec<bool>> =
        (0..n).map(|i| (0..n).map(|j| i != j && compatible(&players[i], &players[j], round)).collect()).collect();
    let odd = n % 2 == 1;
    let bye_score = bye_score(players, &legal, odd)?;
    let candidate: Vec<bool> =
        players.iter().map(|p| odd && p.bye_eligible && bye_score.is_some_and(|b| p.score <= b)).collect();
    // C.9: among the players with the bye's score, rank by games played (0 = most): the bye goes to rank 0.
    let mut games: Vec<u32> = players.iter().filter(|p| Some(p.score) == bye_score).map(|p| p.games_played).collect();
    games.sort_unstable_by(|a, b| b.cmp(a));
    games.dedup();
    let games_rank = |p: &State| -> u64 {
        if Some(p.score) == bye_score { games.iter().position(|&g| g == p.games_played).unwrap_or(0) as u64 } else { 0 }
    };

    let mut alive: Vec<usize> = (0..n).collect();
    let mut pairs = Vec::new();
    let mut carried: Vec<usize> = Vec::new();
    let mut next = 0;
    while next < n {
        let mut residents = Vec::new();
        if next < n {
            let s = players[next].score;
            while next < n && players[next].score == s {
                residents.push(next);
                next += 1;
            }
        }
        let mut next_group = Vec::new();
        if next < n {
            let s = players[next].score;
            let mut k = next;
            while k < n && players[k].score == s {
                next_group.push(k);
                k += 1;
            }
        }
        let lower: Vec<usize> = alive.iter().copied().filter(|&i| i >= next).collect();
        // C.9 can decide only in a bracket the bye's score reaches; it does when the bye is the bracket's only
        // downfloater (checked on the bracket's first matching).
        let resident_score = residents.first().map(|&i| players[i].score);
        let c9 = odd && bye_score.is_some_and(|b| resident_score.is_none_or(|s| s <= b));
        let ctx = Bracket {
            players,
            legal: &legal,
            round,
            carried: &carried,
            residents: &residents,
            next_group: &next_group,
            lower: &lower,
            candidate: &candidate,
            c9,
            games_rank: &games_rank,
        };
        let layout_bits = Layout::new(&ctx).total;
        // The narrowest integer that holds the weights: the matching's time grows with it.
        let (bracket_pairs, unpaired) = if layout_bits <= Wide::<32>::USABLE_BITS {
            ctx.pair::<32>()
        } else if layout_bits <= Wide::<40>::USABLE_BITS {
            ctx.pair::<40>()
        } else if layout_bits <= Wide::<48>::USABLE_BITS {
            ctx.pair::<48>()
        } else if layout_bits <= Wide::<64>::USABLE_BITS {
            ctx.pair::<64>()
        } else if layout_bits <= Wide::<128>::USABLE_BITS {
            ctx.pair::<128>()
        } else if layout_bits <= Wide::<512>::USABLE_BITS {
            ctx.pair::<512>()
        } else {
            return Err(PairingError::TooLarge);
        };
        for &(a, b) in &bracket_pairs {
            alive.retain(|&x| x != a && x != b);
        }
        pairs.extend(bracket_pairs);
        carried = unpaired;
    }
    match carried.len() {
        0 => Ok((pairs, None)),
        1 if odd => Ok((pairs, Some(carried[0]))),
        _ => Err(PairingError::NoLegalPairing),
    }
}

/// The lowest score the bye can go to (C.4 with C.2, and C.5's rule that the bye goes to the lowest score
/// possible), or `None` for an even number of players; an error if no complete pairing exists.
fn bye_score(players: &[State], legal: &[Vec<bool>], odd: bool) -> Result<Option<u32>, PairingError> {
    let n = players.len();
    let mut groups: Vec<u32> = players.iter().map(|p| p.score).collect();
    groups.dedup();
    // Rank 0 is the lowest scoregroup.
    let rank = |s: u32| (groups.len() - 1 - groups.iter().position(|&g| g == s).unwrap_or(0)) as i128;
    let shift = bits(n * groups.len()) + 1;
    let mut w = vec![0i128; n * n];
    for i in 0..n {
        for j in i + 1..n {
            if legal[i][j] {
                let top = 1 + (!players[i].bye_eligible) as i128 + (!players[j].bye_eligible) as i128;
                let v = if odd { (top << shift) + rank(players[i].score) + rank(players[j].score) } else { 1 };
                w[i * n + j] = v;
            }
        }
    }
    let mate = max_weight_matching(&w, n);
    let unmatched: Vec<usize> = (0..n).filter(|&i| mate[i].is_none()).collect();
    match (odd, unmatched.as_slice()) {
        (false, []) => Ok(None),
        (true, [u]) if players[*u].bye_eligible => Ok(Some(players[*u].score)),
        _ => Err(PairingError::NoLegalPairing),
    }
}

struct Bracket<'a> {
    players: &'a [State],
    legal: &'a [Vec<bool>],
    round: &'a Round,
    /// Moved-down players, in pairing order.
    carried: &'a [usize],
    residents: &'a [usize],
    next_group: &'a [usize],
    /// Every player not yet paired below the bracket (includes `next_group`).
    lower: &'a [usize],
    candidate: &'a [bool],
    c9: bool,
    games_rank: &'a dyn Fn(&State) -> u64,
}

/// Where each field of the edge weight starts (bit offsets), from the least significant up.
struct Layout {
    nb: u32,
    /// The width of the fields where several players are settled by one matching.
    block_bits: u32,
    /// Scores in the bracket and the next scoregroup, highest first; a score's subfield index is its position
    /// from the end.
    scores: Vec<u32>,
    natural: u32,
    transposition: u32,
    exchange_sum: u32,
    exchange_count: u32,
    mdp_opponent: u32,
    mdp_choice: u32,
    /// C.18–C.21 (float scores), least important first.
    float_scores: [u32; 4],
    /// C.14–C.17 (float counts), least important first.
    float_counts: [u32; 4],
    /// C.10–C.13, least important first.
    colours: [u32; 4],
    bye_games: u32,
    next_scores: u32,
    next_pairs: u32,
    cur_scores: u32,
    cur_pairs: u32,
    complete: u32,
    total: u32,
}

impl Layout {
    fn new(b: &Bracket<'_>) -> Layout {
        let n = b.carried.len() + b.residents.len() + b.lower.len();
        // A count over the at most n/2 pairs, of at most 2 per pair, stays below 2^nb.
        let nb = bits(n);
        let mut scores: Vec<u32> =
            b.carried.iter().chain(b.residents).chain(b.next_group).map(|&i| b.players[i].score).collect();
        scores.dedup();
        let k = scores.len() as u32;
        let mut at = 0;
        let mut take = |w: u32| {
            let s = at;
            at += w;
            s
        };
        // The tie-break stages run one after the other, and a stage's bonuses are gone (or the same for every
        // candidate) when the next starts, so they share three fields: the transpositions with the initial
        // lean, the exchanges' sum with the MDPs' opponents, the number of exchanges with the choice of MDPs.
        // Wide enough for several players' choices at once (see `choose_in_order`).
        let block_bits = (2 * nb + 2).max(60);
        let natural = take(block_bits);
        let transposition = natural;
        let exchange_sum = take(block_bits);
        let mdp_opponent = exchange_sum;
        let exchange_count = take(2 * nb + 2);
        let mdp_choice = exchange_count;
        // Floats of a round not played yet count nothing: their fields are empty.
        let fw = |back: usize| if b.round.played > back { nb + 1 } else { 0 };
        let float_scores = [take(k * fw(1)), take(k * fw(1)), take(k * fw(0)), take(k * fw(0))];
        let float_counts = [take(fw(1)), take(fw(1)), take(fw(0)), take(fw(0))];
        let colours = [take(nb), take(nb), take(nb), take(nb)];
        let bye_games = take(2 * nb + 2);
        let next_scores = take(k * nb);
        let next_pairs = take(nb);
        let cur_scores = take(k * nb);
        let cur_pairs = take(nb);
        let complete = take(nb + 2);
        Layout {
            nb,
            block_bits,
            scores,
            natural,
            transposition,
            exchange_sum,
            exchange_count,
            mdp_opponent,
            mdp_choice,
            float_scores,
            float_counts,
            colours,
            bye_games,
            next_scores,
            next_pairs,
            cur_scores,
            cur_pairs,
            complete,
            total: at,
        }
    }

    /// The offset of a score's subfield within a score field of `width`-bit subfields.
    fn score_at(&self, field: u32, score: u32, width: u32) -> u32 {
        let pos = self.scores.iter().position(|&s| s == score).unwrap_or(0);
        field + (self.scores.len() - 1 - pos) as u32 * width
    }
}

/// The weights of the graph of one bracket's matching, over local vertex numbers.
struct Graph<const L: usize> {
    n: usize,
    w: Vec<Wide<L>>,
}

impl<const L: usize> Graph<L> {
    fn get(&self, a: usize, b: usize) -> Wide<L> {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        self.w[a * self.n + b]
    }

    fn set(&mut self, a: usize, b: usize, v: Wide<L>) {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        self.w[a * self.n + b] = v;
    }

    fn edge(&self, a: usize, b: usize) -> bool {
        self.get(a, b) > Wide::ZERO
    }

    fn solve(&self) -> Vec<Option<usize>> {
        max_weight_matching(&self.w, self.n)
    }

    /// Takes two vertices out of the graph (their pair is decided).
    fn remove(&mut self, a: usize) {
        for x in 0..self.n {
            if x != a {
                self.set(a, x, Wide::ZERO);
            }
        }
    }
}

/// A chooser's options, best first, given the players already taken.
type Options<'a, const L: usize> = &'a dyn Fn(&Graph<L>, usize, &[bool]) -> Vec<usize>;

/// The matching so far and the pairs already decided in a bracket.
struct Settled {
    mate: Vec<Option<usize>>,
    taken: Vec<bool>,
    fixed: Vec<(usize, usize)>,
}

/// Gives each chooser, in order, the first of its options that keeps the matching's quality (the order of
/// transpositions). The current matching often does so already; otherwise a block of choosers is settled by one
/// matching, their bonuses digits of one number in `bits` bits from `field`, the first chooser's the highest.
fn choose_in_order<const L: usize>(
    g: &mut Graph<L>,
    st: &mut Settled,
    choosers: &[usize],
    options: Options<'_, L>,
    field: u32,
    bits_available: u32,
) {
    let width = bits(g.n);
    let per_block = (bits_available / width).max(1) as usize;
    let fix = |g: &mut Graph<L>, st: &mut Settled, x: usize, y: usize| {
        st.fixed.push((x, y));
        st.taken[x] = true;
        st.taken[y] = true;
        g.remove(x);
        g.remove(y);
    };
    let mut i = 0;
    while i < choosers.len() {
        let x = choosers[i];
        let first = options(g, x, &st.taken).first().copied();
        if let Some(y) = first.filter(|&y| st.mate[x] == Some(y)) {
            fix(g, st, x, y);
            i += 1;
            continue;
        }
        let block: Vec<usize> = choosers[i..].iter().take(per_block).copied().collect();
        for (bi, &c) in block.iter().enumerate() {
            let opts = options(g, c, &st.taken);
            let at = field + width * (per_block - 1 - bi) as u32;
            for (k, &r) in opts.iter().enumerate() {
                g.set(c, r, g.get(c, r) + Wide::shifted((opts.len() - k) as u64, at));
            }
        }
        st.mate = g.solve();
        for &c in &block {
            if let Some(y) = st.mate[c] {
                fix(g, st, c, y);
            }
        }
        i += block.len();
    }
}

impl Bracket<'_> {
    /// Pairs the bracket: the pairs made in it (indices into `players`) and its unpaired players, who move down.
    fn pair<const L: usize>(&self) -> (Vec<(usize, usize)>, Vec<usize>) {
        let lay = Layout::new(self);
        // Local vertices: the bracket (MDPs, residents), then everyone below.
        let verts: Vec<usize> = self.carried.iter().chain(self.residents).chain(self.lower).copied().collect();
        let nm = self.carried.len();
        let nbr = nm + self.residents.len();
        let n = verts.len();
        let in_next = |v: usize| self.next_group.contains(&verts[v]);
        let mut g = Graph::<L> { n, w: vec![Wide::ZERO; n * n] };
        let half = (nbr - nm) / 2;
        let natural = |a: usize, b: usize| a >= nm && b < nbr && b - a == half;
        let p = |v: usize| &self.players[verts[v]];
        let f = |value: u64, bit: u32| Wide::<L>::shifted(value, bit);
        for a in 0..n {
            for b in a + 1..n {
                if !self.legal[verts[a]][verts[b]] {
                    continue;
                }
                let (pa, pb) = (p(a), p(b));
                let complete = 1 + (!self.candidate[verts[a]]) as u64 + (!self.candidate[verts[b]]) as u64;
                let mut w = f(complete, lay.complete);
                let cur = a < nbr && b < nbr && b >= nm;
                // C.8 looks at the whole next bracket: its residents' pairs count as well as the downfloaters'.
                if (a < nbr || in_next(a)) && !cur && in_next(b) {
                    w += f(1, lay.next_pairs) + f(1, lay.score_at(lay.next_scores, pa.score, lay.nb));
                }
                if cur {
                    w += f(1, lay.cur_pairs) + f(1, lay.score_at(lay.cur_scores, pa.score, lay.nb));
                    w += self.quality::<L>(&lay, pa, pb);
                    // Lean towards the natural pairing of the bracket (S1[i] with S2[i]) so that the tie-break
                    // stages usually find it already chosen; later stages override this.
                    if natural(a, b) {
                        w += f(1, lay.natural);
                    }
                }
                g.set(a, b, w);
            }
        }
        let mut mate = g.solve();
        if self.c9 && (0..nbr).all(|v| mate[v].is_none_or(|m| m < nbr)) {
            // C.9: the bye to the player with the most games played (the fewest unplayed rounds).
            for a in 0..n {
                for b in a + 1..n {
                    if g.edge(a, b) {
                        let bonus = (self.games_rank)(p(a)) + (self.games_rank)(p(b));
                        g.set(a, b, g.get(a, b) + f(bonus, lay.bye_games));
                    }
                }
            }
            mate = g.solve();
        }
        let fixed: Vec<(usize, usize)> = Vec::new();
        let taken = vec![false; n];
        let in_residents = |v: usize| v >= nm && v < nbr;

        // Article 4 (heterogeneous brackets): pair the highest MDPs possible, MDP by MDP.
        let mut mdp_paired = vec![false; nm];
        let mut i = 0;
        while i < nm {
            let score = p(i).score;
            let group: Vec<usize> = (i..nm).take_while(|&x| p(x).score == score).collect();
            let mut remaining = group.len();
            let mut matchable = group.iter().filter(|&&x| mate[x].is_some_and(in_residents)).count();
            for &x in &group {
                if matchable == 0 {
                    break;
                }
                let must = remaining <= matchable;
                remaining -= 1;
                if !must && !mate[x].is_some_and(in_residents) {
                    for r in nm..nbr {
                        if g.edge(x, r) {
                            g.set(x, r, g.get(x, r) + f(1, lay.mdp_choice));
                        }
                    }
                    mate = g.solve();
                    for r in nm..nbr {
                        if g.edge(x, r) {
                            g.set(x, r, g.get(x, r) - f(1, lay.mdp_choice));
                        }
                    }
                }
                if mate[x].is_some_and(in_residents) {
                    mdp_paired[x] = true;
                    matchable -= 1;
                    for r in nm..nbr {
                        if g.edge(x, r) {
                            g.set(x, r, g.get(x, r) + f(n as u64, lay.mdp_choice));
                        }
                    }
                }
            }
            i += group.len();
        }
        // The opponents of the paired MDPs: the highest resident possible (transpositions of S2).
        let choosers: Vec<usize> = (0..nm).filter(|&x| mdp_paired[x]).collect();
        let residents_of = |g: &Graph<L>, x: usize, taken: &[bool]| -> Vec<usize> {
            (nm..nbr).filter(|&r| !taken[r] && g.edge(x, r)).collect()
        };
        let mut state = Settled { mate, taken, fixed };
        choose_in_order(&mut g, &mut state, &choosers, &residents_of, lay.mdp_opponent, lay.block_bits);
        let Settled { mut mate, taken, fixed } = state;

        // The remainder (homogeneous): exchanges first (fewest, then the smallest difference of the numbers
        // exchanged, then the highest moved out of S1 and the lowest moved in from S2), then transpositions.
        let remainder: Vec<usize> = (nm..nbr).filter(|&r| !taken[r]).collect();
        let rn = remainder.len();
        let pairs_in = remainder.iter().filter(|&&r| mate[r].is_some_and(|m| m > r && remainder.contains(&m))).count();
        for (ia, &a) in remainder.iter().enumerate() {
            for &b in &remainder[ia + 1..] {
                if g.edge(a, b) {
                    let mut w = g.get(a, b);
                    if natural(a, b) {
                        w -= f(1, lay.natural);
                    }
                    w += f((ia < pairs_in) as u64, lay.exchange_count) + f((rn - ia) as u64, lay.exchange_sum);
                    g.set(a, b, w);
                }
            }
        }
        // A matching without exchanges is already the best for the fields just added (the lean it was found
        // with is lower than all of them); otherwise find the best exchange.
        let exchanged =
            remainder[..pairs_in].iter().any(|&r| !mate[r].is_some_and(|m| m > r && remainder.contains(&m)));
        if exchanged {
            mate = g.solve();
        }
        // A remainder player is in the new S1 when it is the higher player of a pair in the remainder.
        let higher = |mate: &[Option<usize>], r: usize| mate[r].is_some_and(|m| m > r && remainder.contains(&m));
        let later = |g: &Graph<L>, x: usize| -> Vec<usize> {
            remainder.iter().copied().filter(|&r| r > x && g.edge(x, r)).collect()
        };
        // Keeps `x` in the new S1 (only a later remainder player as opponent), or out of it.
        let settle = |g: &mut Graph<L>, x: usize, in_s1: bool| {
            for v in 0..n {
                let with_later = v > x && remainder.contains(&v);
                if v != x && with_later != in_s1 {
                    g.set(x, v, Wide::ZERO);
                }
            }
        };
        // Exchanges, criterion 3: of the original S1, move the highest numbers out; criterion 4: of the original
        // S2, move the lowest numbers in. Up to `block_bits` players are tried by one matching: each a bit of a
        // bonus (or malus) on the edges that keep it in (or out of) the new S1, the first the most significant.
        let exchanges = remainder[..pairs_in].iter().filter(|&&r| !higher(&mate, r)).count();
        let k = lay.block_bits as usize;
        for (into, group) in [
            (false, remainder[..pairs_in].iter().rev().copied().collect::<Vec<_>>()),
            (true, remainder[pairs_in..].to_vec()),
        ] {
            let mut left = exchanges;
            for block in group.chunks(k) {
                if left == 0 {
                    break;
                }
                let mut changed = Vec::new();
                for (bi, &x) in block.iter().enumerate() {
                    let unit = f(1 << (k - 1 - bi), lay.transposition);
                    for r in later(&g, x) {
                        g.set(x, r, if into { g.get(x, r) + unit } else { g.get(x, r) - unit });
                        changed.push((x, r, unit));
                    }
                }
                mate = g.solve();
                for (x, r, unit) in changed {
                    g.set(x, r, if into { g.get(x, r) - unit } else { g.get(x, r) + unit });
                }
                for &x in block {
                    let in_s1 = higher(&mate, x);
                    if in_s1 == into {
                        left = left.saturating_sub(1);
                    }
                    settle(&mut g, x, in_s1);
                }
            }
        }
        let s1: Vec<usize> = remainder.iter().copied().filter(|&r| higher(&mate, r)).collect();
        // Only S1 against S2 from now on.
        for (ia, &a) in remainder.iter().enumerate() {
            for &b in &remainder[ia + 1..] {
                if g.edge(a, b) && (!s1.contains(&a) || s1.contains(&b)) {
                    g.set(a, b, Wide::ZERO);
                }
            }
        }
        let s2_of = |g: &Graph<L>, x: usize, taken: &[bool]| -> Vec<usize> {
            remainder.iter().copied().filter(|&r| r > x && !taken[r] && !s1.contains(&r) && g.edge(x, r)).collect()
        };
        let mut state = Settled { mate, taken, fixed };
        choose_in_order(&mut g, &mut state, &s1, &s2_of, lay.transposition, lay.block_bits);
        let Settled { taken, fixed, .. } = state;
        let unpaired: Vec<usize> = (0..nbr).filter(|&v| !taken[v]).map(|v| verts[v]).collect();
        (fixed.into_iter().map(|(a, b)| (verts[a], verts[b])).collect(), unpaired)
    }

    /// The colour and float criteria (C.10–C.21) for a pair in the bracket; `a` ranks above `b`.
    fn quality<const L: usize>(&self, lay: &Layout, a: &State, b: &State) -> Wide<L> {
        let f = |value: u64, bit: u32| Wide::<L>::shifted(value, bit);
        let mut w = Wide::<L>::default();
        let same_pref = a.preference.is_some() && a.preference == b.preference;
        // C.10: topscorers or their opponents with a colour difference beyond ±2.
        let c10 = !(a.absolute_imbalance() && b.absolute_imbalance() && same_pref);
        // C.11: topscorers or their opponents with the same colour three times in a row.
        let c11 = !(a.absolute() && b.absolute() && same_pref) || {
            let pref = a.preference;
            if a.imbalance == b.imbalance {
                b.repeated.is_none() || b.repeated != a.repeated
            } else {
                let loser = if a.imbalance > b.imbalance { b } else { a };
                loser.repeated != pref.map(|c| c.other())
            }
        };
        // C.12: colour preferences; C.13: strong colour preferences.
        let c12 = !same_pref;
        let strong_or_abs = |x: &State| x.strength >= super::state::Strength::Strong;
        let c13 = !strong_or_abs(a) || !strong_or_abs(b) || (a.absolute() && b.absolute()) || !same_pref;
        for (k, ok) in [c13, c12, c11, c10].into_iter().enumerate() {
            if ok {
                w += f(1, lay.colours[k]);
            }
        }
        let played = self.round.played;
        // C.14–C.17: the counts; C.18–C.21: the scores. Fields are least important first.
        for back in 0..2 {
            if played <= back {
                continue;
            }
            // Paired players who had this downfloat and do not float down again, and pairs where the lower
            // player does not float up again.
            let down =
                (b.floats[back] == Float::Down) as u64 + (a.score <= b.score && a.floats[back] == Float::Down) as u64;
            let up_ok = !(a.score > b.score && b.floats[back] == Float::Up) as u64;
            // Index 3 is C.14 (downfloat last round), 2 C.15, 1 C.16, 0 C.17.
            w += f(down, lay.float_counts[3 - 2 * back]);
            w += f(up_ok, lay.float_counts[2 - 2 * back]);
            let width = lay.nb + 1;
            let ds = lay.float_scores[3 - 2 * back];
            if b.floats[back] == Float::Down {
                w += f(1, lay.score_at(ds, b.score, width));
            }
            if a.floats[back] == Float::Down {
                w += f(1, lay.score_at(ds, a.score, width));
            }
            if up_ok == 1 {
                w += f(1, lay.score_at(lay.float_scores[2 - 2 * back], a.score, width));
            }
        }
        w
    }
}
