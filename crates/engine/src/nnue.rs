//! NNUE evaluation: a small, efficiently updatable neural network.
//!
//! Design (docs/engine.md, "NNUE"): 768 inputs → 2 × `HIDDEN` → 1.
//!
//! - **Inputs**: one per (piece colour relative to the perspective, piece kind, square), 2 × 6 × 64 = 768, seen
//!   from each side's perspective (Black's board flipped vertically, so "own pawn on the second rank" is the same
//!   input for both sides). No king buckets yet: with the few million positions a 2-core machine makes in a day, a
//!   plain input set learns more per position; buckets are the next step when the data grows.
//! - **Feature transformer** (the accumulator): `HIDDEN` i16 sums per perspective, kept up to date as moves are
//!   made — a move changes two to four inputs, so the search adds and subtracts a few weight rows instead of
//!   summing 32 of them ([`Accumulators`]).
//! - **Activation**: squared clipped ReLU, `clamp(x, 0, 1)²`.
//! - **Output**: the side to move's half, then the other side's, dotted with one weight vector, plus a bias;
//!   scaled to centipawns (× `SCALE`).
//! - **Quantisation**: feature weights and biases × `QA` (255) as i16; output weights × `QB` (512) as i16, output
//!   bias × `QA·QB` as i32. The output layer multiplies in 32 bits: `v² · w` with an activated value `v ≤ 255` and
//!   `|w| ≤ 1014` (the trainer keeps every weight within ±1.98) is below 2²⁶, and a vector lane sums at most
//!   `HIDDEN / 8` of them, so nothing overflows. (The common 16-bit trick, `(v·w)·v` with `QB = 64`, cost 7–9
//!   centipawns of rounding per evaluation on our first networks; `QB = 512` costs about one.)
//! - **Inference**: AVX2 when the processor has it (checked once at run time), otherwise portable code that the
//!   compiler vectorises for the baseline target; both give the same integers (a test checks).
//!
//! File format (little-endian): the 8 bytes `GXNNUE01`, then u32 inputs, u32 hidden, u32 QA, u32 QB, u32 scale,
//! then the feature weights (inputs × hidden i16, row per input), feature biases (hidden i16), output weights
//! (2 × hidden i16), the output bias (i32), and a u32 FNV-1a checksum of everything before it.

use guoxiang_core::{Bitboard, Color, Position, Role, Square};
use std::sync::{Arc, OnceLock};

pub const INPUTS: usize = 768;
pub const HIDDEN: usize = 128;
pub const QA: i32 = 255;
pub const QB: i32 = 512;
/// Centipawns per unit of the network's float output: the network learns `centipawns / SCALE`, and σ(cp / SCALE) is
/// the expected score. 140 is the logistic scale of our own self-play: results against search scores
/// (`guoxiang-tune datagen` data, 2026-12-05: squared error 0.0881 at 140, 0.0884 at 120 and 160, 0.107 at 400).
pub const SCALE: i32 = 140;

const MAGIC: &[u8; 8] = b"GXNNUE01";

/// The network compiled into the binary (see `docs/engine.md` for how it was trained).
static EMBEDDED: &[u8] = include_bytes!("../nets/default.nnue");

/// A network's weights, quantised.
#[derive(Clone)]
pub struct Network {
    ft_w: Box<[[i16; HIDDEN]; INPUTS]>,
    ft_b: Hidden,
    out_w: [Hidden; 2],
    out_b: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}→2×{HIDDEN}→1, checksum {:08x})", checksum(&self.to_bytes()))
    }
}

/// One perspective's accumulator (or a row of hidden-sized weights), aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Hidden(pub [i16; HIDDEN]);

/// Why a network file could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    Magic,
    Shape { inputs: u32, hidden: u32 },
    Quantisation { qa: u32, qb: u32, scale: u32 },
    Length { expected: usize, found: usize },
    Checksum { expected: u32, found: u32 },
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::Magic => write!(f, "not a guoxiang network file (it does not start with `GXNNUE01`)"),
            NetError::Shape { inputs, hidden } => {
                write!(f, "the network is {inputs}→2×{hidden}→1, this build reads {INPUTS}→2×{HIDDEN}→1 networks")
            }
            NetError::Quantisation { qa, qb, scale } => write!(
                f,
                "the network is quantised with QA {qa}, QB {qb}, scale {scale}; this build expects {QA}, {QB}, {SCALE}"
            ),
            NetError::Length { expected, found } => {
                write!(f, "the network file has {found} bytes, {expected} were expected (truncated or damaged)")
            }
            NetError::Checksum { expected, found } => {
                write!(f, "the network file is damaged: checksum {found:08x}, the file says {expected:08x}")
            }
        }
    }
}

impl std::error::Error for NetError {}

const HEADER: usize = 8 + 5 * 4;
const BODY: usize = (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) * 2 + 4;
/// Size of a network file in bytes.
pub const FILE_SIZE: usize = HEADER + BODY + 4;

fn checksum(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811C_9DC5;
    for &b in bytes {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

impl Network {
    /// Reads a network file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let u32_at = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let (inputs, hidden) = (u32_at(8), u32_at(12));
        if inputs as usize != INPUTS || hidden as usize != HIDDEN {
            return Err(NetError::Shape { inputs, hidden });
        }
        let (qa, qb, scale) = (u32_at(16), u32_at(20), u32_at(24));
        if qa != QA as u32 || qb != QB as u32 || scale != SCALE as u32 {
            return Err(NetError::Quantisation { qa, qb, scale });
        }
        if bytes.len() != FILE_SIZE {
            return Err(NetError::Length { expected: FILE_SIZE, found: bytes.len() });
        }
        let (expected, found) = (u32_at(FILE_SIZE - 4), checksum(&bytes[..FILE_SIZE - 4]));
        if expected != found {
            return Err(NetError::Checksum { expected, found });
        }
        let mut at = HEADER;
        let mut next = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let mut ft_w: Box<[[i16; HIDDEN]; INPUTS]> = Box::new([[0; HIDDEN]; INPUTS]);
        for row in ft_w.iter_mut() {
            for w in row.iter_mut() {
                *w = next();
            }
        }
        let mut ft_b = Hidden([0; HIDDEN]);
        for w in ft_b.0.iter_mut() {
            *w = next();
        }
        let mut out_w = [Hidden([0; HIDDEN]); 2];
        for half in out_w.iter_mut() {
            for w in half.0.iter_mut() {
                *w = next();
            }
        }
        let out_b = u32_at(at) as i32;
        Ok(Network { ft_w, ft_b, out_w, out_b })
    }

    /// Builds a network from quantised parts (the trainer's output).
    pub fn from_parts(ft_w: &[i16], ft_b: &[i16], out_w: &[i16], out_b: i32) -> Network {
        assert_eq!((ft_w.len(), ft_b.len(), out_w.len()), (INPUTS * HIDDEN, HIDDEN, 2 * HIDDEN));
        let mut net = Network {
            ft_w: Box::new([[0; HIDDEN]; INPUTS]),
            ft_b: Hidden([0; HIDDEN]),
            out_w: [Hidden([0; HIDDEN]); 2],
            out_b,
        };
        for (row, src) in net.ft_w.iter_mut().zip(ft_w.chunks_exact(HIDDEN)) {
            row.copy_from_slice(src);
        }
        net.ft_b.0.copy_from_slice(ft_b);
        net.out_w[0].0.copy_from_slice(&out_w[..HIDDEN]);
        net.out_w[1].0.copy_from_slice(&out_w[HIDDEN..]);
        net
    }

    /// The file's bytes (with header and checksum).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(FILE_SIZE);
        b.extend_from_slice(MAGIC);
        for v in [INPUTS as u32, HIDDEN as u32, QA as u32, QB as u32, SCALE as u32] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for row in self.ft_w.iter() {
            row.iter().for_each(|w| b.extend_from_slice(&w.to_le_bytes()));
        }
        self.ft_b.0.iter().for_each(|w| b.extend_from_slice(&w.to_le_bytes()));
        for half in &self.out_w {
            half.0.iter().for_each(|w| b.extend_from_slice(&w.to_le_bytes()));
        }
        b.extend_from_slice(&self.out_b.to_le_bytes());
        let c = checksum(&b);
        b.extend_from_slice(&c.to_le_bytes());
        b
    }

    /// The network compiled into the binary.
    pub fn embedded() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| {
            // The build embeds a file that the tests read back, so this cannot fail in a tested build.
            Arc::new(Network::from_bytes(EMBEDDED).unwrap_or_else(|e| panic!("embedded network: {e}")))
        })
        .clone()
    }

    /// Reads a network file.
    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// A fresh accumulator pair for `pos` (every input summed).
    pub fn refresh(&self, pos: &Position) -> [Hidden; 2] {
        let mut acc = [self.ft_b; 2];
        for persp in Color::ALL {
            // A square holds one piece, so 64 rows always suffice.
            let mut add = [0usize; 64];
            let mut n = 0;
            for c in Color::ALL {
                for r in Role::ALL {
                    for sq in pos.pieces(c, r) {
                        add[n] = feature(persp, c, r, sq);
                        n += 1;
                    }
                }
            }
            self.update(&mut acc[persp.index()], &add[..n], &[]);
        }
        acc
    }

    /// Adds the rows of `add` to `acc` and subtracts those of `sub`.
    #[inline]
    pub fn update(&self, acc: &mut Hidden, add: &[usize], sub: &[usize]) {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: AVX2 is present (checked at run time just above).
            unsafe { simd::update(acc, &self.ft_w, add, sub) };
            return;
        }
        scalar_update(acc, &self.ft_w, add, sub);
    }

    /// The evaluation in centipawns from the side to move's point of view, given the accumulators indexed by colour.
    #[inline]
    pub fn output(&self, acc: &[Hidden; 2], stm: Color) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            let (us, them) = (&acc[stm.index()], &acc[(!stm).index()]);
            // SAFETY: AVX2 is present (checked at run time just above).
            let sum = unsafe { simd::screlu_dot(us, &self.out_w[0]) + simd::screlu_dot(them, &self.out_w[1]) };
            return self.finish(sum);
        }
        self.output_scalar(acc, stm)
    }

    /// [`Network::output`] without vector instructions (the reference the tests compare with).
    pub fn output_scalar(&self, acc: &[Hidden; 2], stm: Color) -> i32 {
        let (us, them) = (&acc[stm.index()], &acc[(!stm).index()]);
        self.finish(scalar_screlu_dot(us, &self.out_w[0]) + scalar_screlu_dot(them, &self.out_w[1]))
    }

    #[inline]
    fn finish(&self, sum: i64) -> i32 {
        // sum is in QA²·QB units; one QA goes, then the bias (QA·QB units), then to centipawns.
        ((sum / i64::from(QA) + i64::from(self.out_b)) * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// Evaluates `pos` from scratch (no incremental state), side to move's view, centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos), pos.turn())
    }
}

/// The input index of a `color` `role` on `sq`, seen from `persp`.
#[inline]
pub fn feature(persp: Color, color: Color, role: Role, sq: Square) -> usize {
    let rel = usize::from(color != persp);
    let sq = if persp == Color::White { sq.index() } else { sq.index() ^ 56 };
    (rel * 6 + role.index()) * 64 + sq
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

fn scalar_update(acc: &mut Hidden, w: &[[i16; HIDDEN]; INPUTS], add: &[usize], sub: &[usize]) {
    for &f in add {
        for (a, &x) in acc.0.iter_mut().zip(w[f].iter()) {
            *a = a.wrapping_add(x);
        }
    }
    for &f in sub {
        for (a, &x) in acc.0.iter_mut().zip(w[f].iter()) {
            *a = a.wrapping_sub(x);
        }
    }
}

fn scalar_screlu_dot(acc: &Hidden, w: &Hidden) -> i64 {
    let mut sum = 0i64;
    for (&a, &w) in acc.0.iter().zip(w.0.iter()) {
        let v = i64::from(a.clamp(0, QA as i16));
        sum += v * v * i64::from(w);
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{HIDDEN, Hidden, INPUTS, QA};
    use std::arch::x86_64::*;

    const LANES: usize = 16;

    /// # Safety
    /// The processor must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update(acc: &mut Hidden, w: &[[i16; HIDDEN]; INPUTS], add: &[usize], sub: &[usize]) {
        let a = acc.0.as_mut_ptr().cast::<__m256i>();
        // HIDDEN / LANES registers hold the whole accumulator while the rows are added.
        let mut regs = [_mm256_setzero_si256(); HIDDEN / LANES];
        for (i, r) in regs.iter_mut().enumerate() {
            // SAFETY: `Hidden` is 64-byte aligned and HIDDEN i16 long, so every 32-byte block is in bounds and aligned.
            *r = unsafe { _mm256_load_si256(a.add(i)) };
        }
        for &f in add {
            let row = w[f].as_ptr().cast::<__m256i>();
            for (i, r) in regs.iter_mut().enumerate() {
                // SAFETY: the row is HIDDEN i16 long; unaligned load.
                *r = _mm256_add_epi16(*r, unsafe { _mm256_loadu_si256(row.add(i)) });
            }
        }
        for &f in sub {
            let row = w[f].as_ptr().cast::<__m256i>();
            for (i, r) in regs.iter_mut().enumerate() {
                // SAFETY: as above.
                *r = _mm256_sub_epi16(*r, unsafe { _mm256_loadu_si256(row.add(i)) });
            }
        }
        for (i, r) in regs.iter().enumerate() {
            // SAFETY: as for the load.
            unsafe { _mm256_store_si256(a.add(i), *r) };
        }
    }

    /// # Safety
    /// The processor must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn screlu_dot(acc: &Hidden, w: &Hidden) -> i64 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        let a = acc.0.as_ptr().cast::<__m256i>();
        let b = w.0.as_ptr().cast::<__m256i>();
        for i in 0..HIDDEN / LANES {
            // SAFETY: both are 64-byte aligned `Hidden`s of HIDDEN i16.
            let (x, y) = unsafe { (_mm256_load_si256(a.add(i)), _mm256_load_si256(b.add(i))) };
            let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
            for half in [_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)]
                .into_iter()
                .zip([_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1)])
            {
                let v32 = _mm256_cvtepi16_epi32(half.0);
                let w32 = _mm256_cvtepi16_epi32(half.1);
                // v²·w < 2²⁶ and a lane adds HIDDEN / 8 of them: no overflow (see the module notes).
                sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(_mm256_mullo_epi32(v32, v32), w32));
            }
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 32 bytes; unaligned store.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sum) };
        lanes.iter().map(|&x| i64::from(x)).sum()
    }
}

/// The pieces of a position, per colour and kind, as the accumulators saw them.
type Pieces = [[u64; 6]; 2];

fn pieces_of(pos: &Position) -> Pieces {
    let mut p = [[0u64; 6]; 2];
    for c in Color::ALL {
        for r in Role::ALL {
            p[c.index()][r.index()] = pos.pieces(c, r).0;
        }
    }
    p
}

#[derive(Clone)]
struct Entry {
    acc: [Hidden; 2],
    pieces: Pieces,
    valid: bool,
}

/// The search's accumulators, one entry per ply. A node invalidates its ply's entry when the search enters it
/// ([`Accumulators::enter`]); evaluating then starts from the nearest valid entry below — always an ancestor on the
/// current line — and applies the difference of the piece sets, so a move costs a few row additions, a null move a
/// copy, and only a position far from any evaluated ancestor a full refresh.
pub struct Accumulators {
    net: Arc<Network>,
    stack: Vec<Entry>,
}

impl std::fmt::Debug for Accumulators {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Accumulators({:?}, {} plies)", self.net, self.stack.len())
    }
}

/// More changed inputs than this (per perspective) and a refresh is cheaper.
const MAX_DELTA: usize = 16;

/// Inputs that appeared (or went), as rows of both perspectives.
#[derive(Default)]
struct Delta {
    rows: [[usize; MAX_DELTA]; 2],
    n: usize,
}

impl Delta {
    /// Adds the `color` `role` on each square of `squares`; false when that would pass [`MAX_DELTA`].
    fn push(&mut self, color: Color, role: Role, squares: u64) -> bool {
        for sq in Bitboard(squares) {
            if self.n == MAX_DELTA {
                return false;
            }
            self.rows[0][self.n] = feature(Color::White, color, role, sq);
            self.rows[1][self.n] = feature(Color::Black, color, role, sq);
            self.n += 1;
        }
        true
    }

    fn rows(&self, persp: usize) -> &[usize] {
        &self.rows[persp][..self.n]
    }
}

impl Accumulators {
    pub fn new(net: Arc<Network>, plies: usize) -> Accumulators {
        let empty = Entry { acc: [net.ft_b; 2], pieces: [[0; 6]; 2], valid: false };
        Accumulators { net, stack: vec![empty; plies + 1] }
    }

    /// The search entered a node at `ply`.
    #[inline]
    pub fn enter(&mut self, ply: usize) {
        self.stack[ply].valid = false;
    }

    /// Evaluates `pos`, the node at `ply` (side to move's view, centipawns).
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        if !self.stack[ply].valid {
            self.build(pos, ply);
        }
        self.net.output(&self.stack[ply].acc, pos.turn())
    }

    fn build(&mut self, pos: &Position, ply: usize) {
        let now = pieces_of(pos);
        let from = (0..ply).rev().find(|&k| self.stack[k].valid);
        let Some(k) = from else {
            self.stack[ply] = Entry { acc: self.net.refresh(pos), pieces: now, valid: true };
            return;
        };
        let (below, above) = self.stack.split_at_mut(ply);
        let base = &below[k];
        let (mut add, mut sub) = (Delta::default(), Delta::default());
        let mut fits = true;
        'outer: for c in Color::ALL {
            for r in Role::ALL {
                let (old, new) = (base.pieces[c.index()][r.index()], now[c.index()][r.index()]);
                if !add.push(c, r, new & !old) || !sub.push(c, r, old & !new) {
                    fits = false;
                    break 'outer;
                }
            }
        }
        let target = &mut above[0];
        if !fits {
            *target = Entry { acc: self.net.refresh(pos), pieces: now, valid: true };
            return;
        }
        target.acc = base.acc;
        for p in 0..2 {
            self.net.update(&mut target.acc[p], add.rows(p), sub.rows(p));
        }
        target.pieces = now;
        target.valid = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network with pseudo-random weights (the output weights up to the trainer's ±1.98 × QB).
    pub(crate) fn random_net(seed: u64) -> Network {
        let mut x = seed | 1;
        let mut next = |m: i32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x >> 33) as i32 % (2 * m + 1) - m) as i16
        };
        let ft_w: Vec<i16> = (0..INPUTS * HIDDEN).map(|_| next(60)).collect();
        let ft_b: Vec<i16> = (0..HIDDEN).map(|_| next(100)).collect();
        let out_w: Vec<i16> = (0..2 * HIDDEN).map(|_| next(1014)).collect();
        Network::from_parts(&ft_w, &ft_b, &out_w, 1234)
    }

    #[test]
    fn file_round_trip_and_errors() {
        let net = random_net(7);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_SIZE);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(Network::from_bytes(b"hello").unwrap_err(), NetError::Magic);
        let mut damaged = bytes.clone();
        damaged[1000] ^= 1;
        assert!(matches!(Network::from_bytes(&damaged), Err(NetError::Checksum { .. })));
        let short = &bytes[..bytes.len() - 10];
        assert!(matches!(Network::from_bytes(short), Err(NetError::Length { .. })));
        let mut other = bytes.clone();
        other[12] = 64;
        let e = Network::from_bytes(&other).unwrap_err();
        assert!(e.to_string().contains("768→2×64→1"), "{e}");
    }

    #[test]
    fn embedded_network_loads() {
        let net = Network::embedded();
        let v = net.evaluate(&Position::new());
        assert!(v.abs() < 200, "start position: {v}");
    }

    #[test]
    fn vector_and_scalar_agree_and_colours_mirror() {
        let net = random_net(11);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let acc = net.refresh(&pos);
            assert_eq!(net.output(&acc, pos.turn()), net.output_scalar(&acc, pos.turn()), "{fen}");
            // The same position with colours swapped and the board flipped evaluates the same for the side to move.
            let mirrored = Position::from_fen(&mirror_fen(fen)).unwrap();
            assert_eq!(net.evaluate(&pos), net.evaluate(&mirrored), "{fen}");
            let mut scalar = [net.ft_b; 2];
            for p in Color::ALL {
                let mut feats = Vec::new();
                for c in Color::ALL {
                    for r in Role::ALL {
                        feats.extend(pos.pieces(c, r).map(|sq| feature(p, c, r, sq)));
                    }
                }
                scalar_update(&mut scalar[p.index()], &net.ft_w, &feats, &[]);
            }
            assert_eq!(scalar, acc, "{fen}");
        }
    }

    fn mirror_fen(fen: &str) -> String {
        let f: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                    .collect()
            })
            .collect();
        let turn = if f[1] == "w" { "b" } else { "w" };
        let castle: String = if f[2] == "-" {
            "-".into()
        } else {
            let mut c: Vec<char> = f[2]
                .chars()
                .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect();
            c.sort_by_key(|c| (c.is_ascii_lowercase(), *c));
            c.into_iter().collect()
        };
        format!("{} {turn} {castle} - {} {}", board.join("/"), f[4], f[5])
    }

    #[test]
    fn incremental_accumulators_match_a_refresh_along_random_games() {
        let net = Arc::new(random_net(3));
        let mut accs = Accumulators::new(net.clone(), 64);
        let mut x = 99u64;
        for game in 0..20 {
            let mut pos = Position::new();
            let mut line = vec![pos.clone()];
            for ply in 1..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let m = moves.as_slice()[(x >> 33) as usize % moves.len()];
                pos.play_unchecked(m);
                line.push(pos.clone());
                accs.enter(ply);
                // Evaluate only some nodes, as the search does (in-check nodes and cut-offs skip it).
                if !(x >> 20).is_multiple_of(3) {
                    assert_eq!(accs.evaluate(&pos, ply), net.evaluate(&pos), "game {game} ply {ply}: {}", pos.fen());
                }
            }
            // Back down the line: a sibling at a lower ply builds from its own ancestors.
            for ply in (1..line.len()).rev().step_by(7) {
                accs.enter(ply);
                assert_eq!(accs.evaluate(&line[ply], ply), net.evaluate(&line[ply]));
            }
            accs.enter(0);
        }
    }
}
