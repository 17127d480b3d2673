//! The NNUE trainer: fits guoxiang's network (`guoxiang_engine::nnue`, 768 → 2 × HIDDEN → 1, squared clipped ReLU)
//! on `datagen` lines (`FEN;result;score`) on the CPU, and writes the quantised network file.
//!
//! Target of a position, from the side to move's view: `λ·result + (1 − λ)·σ(score / SCALE)` (SCALE = 140 cp); the
//! network's output `o` (in units of SCALE centipawns) is trained so that `σ(o)` meets it in squared error. Adam, a
//! learning rate that falls by `lr_drop` at two thirds of the epochs, mini-batches split over threads (each thread
//! sums its own gradient; the sum is applied once per batch). Every weight is kept within ±1.98, so the quantised
//! output weights (× 512) stay within the inference's overflow bound. 5 % of the positions (every twentieth) are
//! held out and their loss is reported after each epoch.

use guoxiang_core::{Color, Position, Role};
use guoxiang_engine::nnue::{self, HIDDEN, INPUTS, Network, QA, QB, SCALE};
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// Settings of a training run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// Factor applied to the learning rate after two thirds of the epochs.
    pub lr_drop: f32,
    /// Weight of the game result in the target (the rest is the search score).
    pub lambda: f32,
    pub threads: usize,
    pub seed: u64,
    /// Show progress bars.
    pub progress: bool,
    /// Also train on every position mirrored left to right (the inputs do not see castling rights, so the mirror
    /// is the same position to the network; it doubles the data).
    pub mirror: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            epochs: 30,
            batch: 16384,
            lr: 0.001,
            lr_drop: 0.1,
            lambda: 0.25,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            progress: true,
            mirror: true,
        }
    }
}

/// One training position: its inputs from White's perspective and the target from the side to move's view.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    feats: [u16; 32],
    n: u8,
    black_to_move: bool,
    target: f32,
}

/// Positions for training and held out.
#[derive(Debug, Default)]
pub struct Data {
    pub train: Vec<Sample>,
    pub valid: Vec<Sample>,
    /// Lines that were not used (more than 32 pieces cannot occur; kept for honesty), and their count.
    pub skipped: usize,
    /// The first [`PROBES`] held-out positions with their samples, for measuring through the engine.
    pub probes: Vec<(Position, Sample)>,
}

/// How many held-out positions [`Data::probes`] keeps.
pub const PROBES: usize = 5000;

impl Sample {
    /// The position mirrored left to right (a1 ↔ h1).
    fn mirrored(&self) -> Sample {
        let mut m = *self;
        for f in &mut m.feats[..m.n as usize] {
            *f ^= 7;
        }
        m
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads `datagen` lines (at most `max`); every twentieth is held out. With `mirror`, the training set also gets
/// each position mirrored left to right. Bad lines are errors naming the file and line.
pub fn read(paths: &[String], lambda: f32, max: usize, mirror: bool) -> Result<Data, String> {
    let mut data = Data::default();
    let mut count = 0usize;
    'files: for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if count >= max {
                break 'files;
            }
            let parsed = parse_line(line, lambda).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            let Some((pos, s)) = parsed else {
                data.skipped += 1;
                continue;
            };
            if count % 20 == 19 {
                if data.probes.len() < PROBES {
                    data.probes.push((pos, s));
                }
                data.valid.push(s);
            } else {
                data.train.push(s);
                if mirror {
                    data.train.push(s.mirrored());
                }
            }
            count += 1;
        }
    }
    if data.train.is_empty() {
        return Err("no training positions in the data".into());
    }
    Ok(data)
}

fn parse_line(line: &str, lambda: f32) -> Result<Option<(Position, Sample)>, String> {
    let mut f = line.split(';');
    let (Some(fen), Some(result), Some(score)) = (f.next(), f.next(), f.next()) else {
        return Err(format!("expected `FEN;result;score` (guoxiang-tune datagen's lines), found `{line}`"));
    };
    let pos = Position::from_fen(fen.trim()).map_err(|e| e.to_string())?;
    let result: f32 = match result.trim() {
        "1" => 1.0,
        "0.5" => 0.5,
        "0" => 0.0,
        other => return Err(format!("result `{other}` is not 1, 0.5 or 0")),
    };
    let score: f32 = score.trim().parse().map_err(|_| format!("score `{}` is not a number", score.trim()))?;
    let black = pos.turn() == Color::Black;
    let (result, score) = if black { (1.0 - result, -score) } else { (result, score) };
    let target = lambda * result + (1.0 - lambda) * sigmoid(score / SCALE as f32);
    let mut s = Sample { feats: [0; 32], n: 0, black_to_move: black, target };
    for c in Color::ALL {
        for r in Role::ALL {
            for sq in pos.pieces(c, r) {
                if s.n as usize == 32 {
                    return Ok(None);
                }
                s.feats[s.n as usize] = nnue::feature(Color::White, c, r, sq) as u16;
                s.n += 1;
            }
        }
    }
    Ok(Some((pos, s)))
}

/// The same input seen from Black's perspective.
#[inline]
fn flip(f: usize) -> usize {
    let other = if f < 384 { f + 384 } else { f - 384 };
    other ^ 56
}

/// Float weights of the network.
#[derive(Debug, Clone)]
pub struct Model {
    w: Vec<f32>,
    b: Vec<f32>,
    v: Vec<f32>,
    c: f32,
}

const LIMIT: f32 = 1.98;

impl Model {
    pub fn new(seed: u64) -> Model {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut uniform = |a: f32| rng.random_range(-a..a);
        let w = (0..INPUTS * HIDDEN).map(|_| uniform(1.0 / (32f32).sqrt())).collect();
        let b = vec![0.0; HIDDEN];
        let v = (0..2 * HIDDEN).map(|_| uniform(1.0 / (2.0 * HIDDEN as f32).sqrt())).collect();
        Model { w, b, v, c: 0.0 }
    }

    fn len() -> usize {
        INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + 1
    }

    /// The two accumulators (White's, Black's perspective).
    fn accumulate(&self, s: &Sample, acc: &mut [[f32; HIDDEN]; 2]) {
        acc[0].copy_from_slice(&self.b);
        acc[1].copy_from_slice(&self.b);
        for &f in &s.feats[..s.n as usize] {
            let f = f as usize;
            for (p, idx) in [(0, f), (1, flip(f))] {
                let row = &self.w[idx * HIDDEN..(idx + 1) * HIDDEN];
                for (a, &x) in acc[p].iter_mut().zip(row) {
                    *a += x;
                }
            }
        }
    }

    /// The output (units of SCALE centipawns, side to move's view).
    fn forward(&self, s: &Sample, acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        self.accumulate(s, acc);
        let (us, them) = if s.black_to_move { (1, 0) } else { (0, 1) };
        let (v_us, v_them) = self.v.split_at(HIDDEN);
        let mut out = self.c;
        for (((&a, &t), &wa), &wt) in acc[us].iter().zip(&acc[them]).zip(v_us).zip(v_them) {
            let (a, t) = (a.clamp(0.0, 1.0), t.clamp(0.0, 1.0));
            out += a * a * wa + t * t * wt;
        }
        out
    }

    /// The evaluation in centipawns, side to move's view.
    pub fn eval_cp(&self, s: &Sample) -> f32 {
        let mut acc = [[0.0; HIDDEN]; 2];
        self.forward(s, &mut acc) * SCALE as f32
    }

    /// Adds the loss gradient of `s` to `g` (laid out as w, b, v, c) and returns its squared error.
    fn backward(&self, s: &Sample, g: &mut [f32], acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let out = self.forward(s, acc);
        let p = sigmoid(out);
        let err = p - s.target;
        let d = 2.0 * err * p * (1.0 - p);
        let (gw, rest) = g.split_at_mut(INPUTS * HIDDEN);
        let (gb, rest) = rest.split_at_mut(HIDDEN);
        let (gv, gc) = rest.split_at_mut(2 * HIDDEN);
        gc[0] += d;
        let (us, them) = if s.black_to_move { (1, 0) } else { (0, 1) };
        let mut dacc = [[0.0f32; HIDDEN]; 2];
        for (half, p) in [(0, us), (1, them)] {
            for i in 0..HIDDEN {
                let x = acc[p][i];
                let a = x.clamp(0.0, 1.0);
                gv[half * HIDDEN + i] += d * a * a;
                if x > 0.0 && x < 1.0 {
                    dacc[p][i] = d * self.v[half * HIDDEN + i] * 2.0 * x;
                }
            }
        }
        for i in 0..HIDDEN {
            gb[i] += dacc[0][i] + dacc[1][i];
        }
        for &f in &s.feats[..s.n as usize] {
            let f = f as usize;
            for (p, idx) in [(0, f), (1, flip(f))] {
                let row = &mut gw[idx * HIDDEN..(idx + 1) * HIDDEN];
                for (r, &x) in row.iter_mut().zip(&dacc[p]) {
                    *r += x;
                }
            }
        }
        err * err
    }

    /// Mean squared error on `data`.
    pub fn loss(&self, data: &[Sample]) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let mut acc = [[0.0; HIDDEN]; 2];
        let sum: f64 = data
            .iter()
            .map(|s| {
                let e = sigmoid(self.forward(s, &mut acc)) - s.target;
                f64::from(e * e)
            })
            .sum();
        sum / data.len() as f64
    }

    /// The quantised network.
    pub fn quantise(&self) -> Network {
        let q = |x: f32, k: i32| (x * k as f32).round().clamp(-32767.0, 32767.0) as i16;
        let ft_w: Vec<i16> = self.w.iter().map(|&x| q(x, QA)).collect();
        let ft_b: Vec<i16> = self.b.iter().map(|&x| q(x, QA)).collect();
        let out_w: Vec<i16> = self.v.iter().map(|&x| q(x, QB)).collect();
        Network::from_parts(&ft_w, &ft_b, &out_w, (self.c * (QA * QB) as f32).round() as i32)
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w.iter_mut().chain(self.b.iter_mut()).chain(self.v.iter_mut()).chain(std::iter::once(&mut self.c))
    }
}

/// Adam's moment estimates.
#[derive(Debug)]
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, model: &mut Model, g: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for (((p, &g), m), v) in model.params_mut().zip(g).zip(self.m.iter_mut()).zip(self.v.iter_mut()) {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            *p = p.clamp(-LIMIT, LIMIT);
        }
    }
}

/// Per-epoch figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Epoch {
    pub epoch: usize,
    pub train_loss: f64,
    pub valid_loss: f64,
    pub seconds: f64,
}

/// Trains a network on `data`, starting from `model`; `report` receives every epoch's figures.
pub fn train(model: &mut Model, data: &Data, s: &Settings, report: &mut dyn FnMut(&Epoch)) {
    let mut adam = Adam { m: vec![0.0; Model::len()], v: vec![0.0; Model::len()], t: 0 };
    let mut rng = StdRng::seed_from_u64(s.seed);
    let mut order: Vec<u32> = (0..data.train.len() as u32).collect();
    let threads = s.threads.max(1);
    let mut grads: Vec<Vec<f32>> = vec![vec![0.0; Model::len()]; threads];
    let batches = data.train.len().div_ceil(s.batch);
    for epoch in 1..=s.epochs {
        let started = std::time::Instant::now();
        order.shuffle(&mut rng);
        let lr = if epoch * 3 > s.epochs * 2 { s.lr * s.lr_drop } else { s.lr };
        let bar = if s.progress { ProgressBar::new(batches as u64) } else { ProgressBar::hidden() };
        bar.set_style(
            ProgressStyle::with_template("epoch {msg} [{bar:40}] {pos}/{len} batches, {eta} left")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(format!("{epoch}/{}", s.epochs));
        let mut sum = 0.0f64;
        for batch in order.chunks(s.batch) {
            let per = batch.len().div_ceil(threads);
            let model_ref = &*model;
            let errs: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(per))
                    .map(|(g, part)| {
                        scope.spawn(move || {
                            g.iter_mut().for_each(|x| *x = 0.0);
                            let mut acc = [[0.0; HIDDEN]; 2];
                            part.iter()
                                .map(|&i| f64::from(model_ref.backward(&data.train[i as usize], g, &mut acc)))
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or(0.0)).collect()
            });
            sum += errs.iter().sum::<f64>();
            let used = batch.chunks(per).count();
            let (first, others) = grads.split_at_mut(1);
            for other in &others[..used - 1] {
                for (a, b) in first[0].iter_mut().zip(other.iter()) {
                    *a += b;
                }
            }
            let scale = 1.0 / batch.len() as f32;
            first[0].iter_mut().for_each(|x| *x *= scale);
            adam.step(model, &first[0], lr);
            bar.inc(1);
        }
        bar.finish_and_clear();
        let e = Epoch {
            epoch,
            train_loss: sum / data.train.len() as f64,
            valid_loss: model.loss(&data.valid),
            seconds: started.elapsed().as_secs_f64(),
        };
        report(&e);
    }
}

/// How far the quantised network's evaluation is from the float model's, in centipawns (mean absolute difference
/// over `probes`), through the engine's own inference.
pub fn quantisation_error(model: &Model, net: &Network, probes: &[(Position, Sample)]) -> f64 {
    if probes.is_empty() {
        return 0.0;
    }
    let total: f64 = probes.iter().map(|(pos, s)| f64::from((net.evaluate(pos) as f32 - model.eval_cp(s)).abs())).sum();
    total / probes.len() as f64
}

/// The loss of the hand-written evaluation on the same positions and targets (the bar the network must clear), and
/// of the network: mean squared error of σ(eval / SCALE) against the target, both through the engine.
pub fn engine_losses(net: &Network, probes: &[(Position, Sample)]) -> (f64, f64) {
    let mut sums = (0.0f64, 0.0f64);
    for (pos, s) in probes {
        let hce = sigmoid(guoxiang_engine::eval::evaluate(pos) as f32 / SCALE as f32) - s.target;
        let nn = sigmoid(net.evaluate(pos) as f32 / SCALE as f32) - s.target;
        sums.0 += f64::from(hce * hce);
        sums.1 += f64::from(nn * nn);
    }
    let n = probes.len().max(1) as f64;
    (sums.0 / n, sums.1 / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;0.5;30",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3;0.5;25",
        "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 3;0.5;-5",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 3;0;-850",
        "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3;1;880",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;1;250",
        "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1;0;-240",
        "4k3/8/8/8/8/8/8/4KR2 b - - 0 1;1;900",
        "4kr2/8/8/8/8/8/8/4K3 w - - 0 1;0;-910",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1;0.5;0",
    ];

    fn data() -> Data {
        let mut d = Data::default();
        for l in LINES {
            d.train.push(parse_line(l, 0.25).unwrap().unwrap().1);
        }
        d.valid = d.train.clone();
        d
    }

    #[test]
    fn a_toy_network_learns_and_its_quantised_form_agrees() {
        let d = data();
        let mut model = Model::new(5);
        let before = model.loss(&d.train);
        let s = Settings { epochs: 40, batch: 4, lr: 0.01, threads: 2, progress: false, ..Settings::default() };
        let mut losses = Vec::new();
        train(&mut model, &d, &s, &mut |e| losses.push(e.train_loss));
        let after = model.loss(&d.train);
        assert!(after < before * 0.5, "loss {before} → {after}");
        assert!(losses.last() < losses.first(), "{losses:?}");
        // A rook up is better than a rook down, for the side to move.
        let up = parse_line(LINES[7], 0.25).unwrap().unwrap().1;
        let down = parse_line(LINES[8], 0.25).unwrap().unwrap().1;
        assert!(model.eval_cp(&up) < -200.0 && model.eval_cp(&down) < -200.0);
        let net = model.quantise();
        let err = quantisation_error(
            &model,
            &net,
            &LINES.iter().map(|l| parse_line(l, 0.25).unwrap().unwrap()).collect::<Vec<_>>(),
        );
        assert!(err < 8.0, "quantised network differs by {err} cp on average");
        // The file written and read back is the same network.
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(back.to_bytes(), net.to_bytes());
    }

    #[test]
    fn gradient_matches_a_finite_difference() {
        let d = data();
        let model = Model::new(9);
        let s = &d.train[1];
        let mut g = vec![0.0; Model::len()];
        let mut acc = [[0.0; HIDDEN]; 2];
        model.backward(s, &mut g, &mut acc);
        let loss = |m: &Model| {
            let e = sigmoid(m.forward(s, &mut [[0.0; HIDDEN]; 2])) - s.target;
            f64::from(e * e)
        };
        // The output bias, an output weight and a feature weight of an input that is present.
        let f = s.feats[3] as usize;
        for idx in [Model::len() - 1, INPUTS * HIDDEN + HIDDEN + 5, f * HIDDEN + 7] {
            let mut plus = model.clone();
            let mut minus = model.clone();
            let h = 1e-2;
            *plus.params_mut().nth(idx).unwrap() += h;
            *minus.params_mut().nth(idx).unwrap() -= h;
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * f64::from(h));
            let analytic = f64::from(g[idx]);
            assert!(
                (numeric - analytic).abs() <= 0.02 * analytic.abs() + 2e-5,
                "parameter {idx}: numeric {numeric}, analytic {analytic}"
            );
        }
    }

    #[test]
    fn the_mirror_is_the_same_position_to_the_network() {
        let a = parse_line("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1;1;250", 0.25).unwrap().unwrap().1;
        let b = parse_line("3k4/8/8/8/8/8/6P1/3K4 w - - 0 1;1;250", 0.25).unwrap().unwrap().1;
        let mut x: Vec<u16> = a.mirrored().feats[..3].to_vec();
        let mut y: Vec<u16> = b.feats[..3].to_vec();
        x.sort_unstable();
        y.sort_unstable();
        assert_eq!(x, y);
        let dir = std::env::temp_dir().join(format!("gx-nnue-{}", std::process::id()));
        std::fs::write(&dir, LINES.join("\n")).unwrap();
        let path = dir.to_string_lossy().into_owned();
        let d = read(std::slice::from_ref(&path), 0.25, usize::MAX, true).unwrap();
        assert_eq!((d.train.len(), d.valid.len()), (20, 0));
        let d = read(std::slice::from_ref(&path), 0.25, 5, false).unwrap();
        assert_eq!(d.train.len(), 5);
        std::fs::write(&dir, format!("{}\nnot a line\n", LINES[0])).unwrap();
        let e = read(std::slice::from_ref(&path), 0.25, usize::MAX, true).unwrap_err();
        assert!(
            e.ends_with(":2: expected `FEN;result;score` (guoxiang-tune datagen's lines), found `not a line`"),
            "{e}"
        );
        std::fs::remove_file(&dir).ok();
    }

    #[test]
    fn bad_lines_are_explained() {
        let e = parse_line("8/8/8/8/8/8/8/8 w - - 0 1;1", 0.25).unwrap_err();
        assert!(e.contains("FEN;result;score"), "{e}");
        let e = parse_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1;2;0", 0.25).unwrap_err();
        assert!(e.contains("result `2`"), "{e}");
        let e = parse_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1;1;abc", 0.25).unwrap_err();
        assert!(e.contains("score `abc`"), "{e}");
    }
}
