//! The trainer of a variant's residual network ([`menagerie::variants::network`]) over the
//! binary self-play data of `menagerie datagen --format bin` (`menagerie-tuning net`).
//!
//! Model: the engine's score is `hce + S * out` (centipawns, side to move's view), `hce` the
//! hand-written evaluation (the variant's parameters), `out` the network's output: per
//! perspective `a = clamp(b1 + sum of the active inputs' rows of w1, 0, 1)` (the same `w1` and
//! `b1` for both perspectives), `out = b2 + w2[..H] . a_us + w2[H..] . a_them`, and `S` the
//! output scale (`--out-scale`, centipawns).
//!
//! Objective: mean squared error between `sigmoid(K * score)` and the target
//! `lambda * result + (1 - lambda) * sigmoid(K_s * search score)` (both from the side to
//! move's view; `sigmoid` as in [`crate::sigmoid`]), `K` fitted to the game results with the
//! hand-written evaluation and `K_s` with the search scores before training (so both sides are
//! win rates), plus `l2` times the squared first-layer weights. Adam over shuffled
//! mini-batches, the gradient of a batch summed on all cores (rayon); games are held out for
//! validation as a whole (by a hash of their id and the seed), and the epoch with the lowest
//! validation loss is the one written, quantised to the engine's integers.
//!
//! Deterministic: a seed, data and thread count give the same network (batches are split into
//! fixed chunks, summed in chunk order).

use std::path::PathBuf;

use menagerie::core::zobrist::SplitMix64;
use menagerie::tools::datafile;
use menagerie::variants::network::{Network, HIDDEN, QA, QB};
use menagerie::variants::Game;
use rayon::prelude::*;

use crate::sigmoid;

const H: usize = HIDDEN;

/// One training position: its inputs from both perspectives and its targets.
#[derive(Clone, Debug)]
pub struct NetSample {
    /// Inputs of the side to move, then of the other side (`split` is where the second begin).
    pub inputs: Vec<u32>,
    /// Length of the side to move's inputs.
    pub split: usize,
    /// Hand-written evaluation, centipawns, side to move's view.
    pub hce: f32,
    /// Search score, centipawns, side to move's view.
    pub score: f32,
    /// Game result for the side to move: 0, 0.5 or 1.
    pub result: f32,
    /// The game's id (validation holds out whole games).
    pub game: u32,
}

/// The settings of a training run.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's step size.
    pub lr: f32,
    /// Weight of the result in the target (1: results alone; 0: scores alone).
    pub lambda: f32,
    /// L2 pull of the first layer towards 0.
    pub l2: f32,
    /// Share of the games held out for validation.
    pub validation: f64,
    /// Centipawns of an output of 1.0.
    pub out_scale: f32,
    /// Seed of the initial weights, the shuffles and the validation split.
    pub seed: u64,
    /// A network to start from instead of random weights (its weights dequantised; its
    /// `out_scale` should be `out_scale`'s): fine-tuning a network of another game on the
    /// same inputs, such as chess's on Muster's board.
    pub init: Option<Network>,
}

/// One epoch's losses.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EpochLoss {
    /// Epoch number, from 1 (0: before training).
    pub epoch: usize,
    /// Mean loss over the training positions (after the epoch).
    pub train: f64,
    /// Mean loss over the validation positions.
    pub validation: f64,
}

/// What training produced.
pub struct Trained {
    /// The quantised network of the best epoch.
    pub net: Network,
    /// The fitted K.
    pub k: f64,
    /// Losses before training (epoch 0) and after each epoch.
    pub losses: Vec<EpochLoss>,
    /// Epoch of the network kept.
    pub best_epoch: usize,
    /// Training and validation positions.
    pub counts: (usize, usize),
    /// Mean |quantised - float| output over the validation positions, centipawns.
    pub quantisation_cp: f64,
}

/// Reads binary data files of variant `G` into training samples (positions in check left
/// out: the search does not evaluate them). Empties `G`'s network slot first, so that `hce`
/// is the hand-written evaluation alone whatever network the build plays with.
///
/// Errors: a file that cannot be read or is another variant's; a FEN the engine refuses. As a
/// message naming the file.
pub fn load_net_data<G: Game>(paths: &[PathBuf]) -> Result<Vec<NetSample>, String> {
    // The hand-written evaluation alone: the network this build plays with is left out.
    G::slot().set(None);
    let params = G::eval_params();
    let mut out = Vec::new();
    for path in paths {
        let (variant, samples) = datafile::read_file(path)?;
        if variant != G::INFO.name {
            return Err(format!(
                "{}: data of '{variant}', not '{}'",
                path.display(),
                G::INFO.name
            ));
        }
        let converted: Result<Vec<Option<NetSample>>, String> = samples
            .par_iter()
            .map(|s| {
                let pos = G::from_fen(&s.fen)
                    .map_err(|e| format!("{}: game {}: {e}", path.display(), s.game))?;
                if pos.in_check() {
                    return Ok(None);
                }
                let stm = pos.side_to_move();
                let mut list = menagerie::variants::network::InputList::new();
                pos.inputs(stm, &mut list);
                let split = list.len();
                let mut inputs = list.to_vec();
                list.clear();
                pos.inputs(!stm, &mut list);
                inputs.extend_from_slice(&list);
                let sign = stm.sign() as f32;
                let white_result = s.white_points() as f32;
                Ok(Some(NetSample {
                    inputs,
                    split,
                    hce: pos.evaluate_with(params) as f32,
                    score: f32::from(s.score) * sign,
                    result: if sign > 0.0 {
                        white_result
                    } else {
                        1.0 - white_result
                    },
                    game: s.game,
                }))
            })
            .collect();
        out.extend(converted?.into_iter().flatten());
    }
    Ok(out)
}

/// The float network being trained.
#[derive(Clone)]
struct Model {
    w1: Vec<f32>,
    b1: [f32; H],
    w2: [f32; 2 * H],
    b2: f32,
}

impl Model {
    fn new(inputs: usize, seed: u64) -> Model {
        let mut rng = SplitMix64::new(seed ^ 0x6E65_7477_6F72_6B31);
        let mut uniform = |scale: f32| {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            ((u * 2.0 - 1.0) as f32) * scale
        };
        let w1 = (0..inputs * H).map(|_| uniform(0.1)).collect();
        let b1 = [0.1; H];
        let mut w2 = [0.0; 2 * H];
        w2.iter_mut().for_each(|w| *w = uniform(0.05));
        Model {
            w1,
            b1,
            w2,
            b2: 0.0,
        }
    }

    /// The float weights of a quantised network (the inverse of [`Model::quantise`] up to
    /// rounding).
    fn from_network(net: &Network) -> Model {
        let (qa, qb) = (QA as f32, QB as f32);
        Model {
            w1: net
                .w1
                .iter()
                .flat_map(|row| row.iter().map(|&w| f32::from(w) / qa))
                .collect(),
            b1: net.b1.map(|b| f32::from(b) / qa),
            w2: net.w2.map(|w| f32::from(w) / qb),
            b2: net.b2 as f32 / (qa * qb),
        }
    }

    fn params(&self) -> usize {
        self.w1.len() + H + 2 * H + 1
    }

    /// Hidden sums of a perspective's inputs (before clamping).
    fn layer(&self, inputs: &[u32]) -> [f32; H] {
        let mut acc = self.b1;
        for &i in inputs {
            let row = &self.w1[i as usize * H..(i as usize + 1) * H];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The output (before the scale) and the two layers' sums.
    fn forward(&self, s: &NetSample) -> (f32, [f32; H], [f32; H]) {
        let us = self.layer(&s.inputs[..s.split]);
        let them = self.layer(&s.inputs[s.split..]);
        let mut out = self.b2;
        for j in 0..H {
            out += self.w2[j] * us[j].clamp(0.0, 1.0) + self.w2[H + j] * them[j].clamp(0.0, 1.0);
        }
        (out, us, them)
    }

    /// Flat view of the parameters' gradient layout: w1, b1, w2, b2.
    fn add_gradient(&self, s: &NetSample, t: f32, k: f32, scale: f32, grad: &mut [f32]) -> f32 {
        let (out, us, them) = self.forward(s);
        let p = sigmoid_f32(s.hce + scale * out, k);
        let loss = (p - t) * (p - t);
        // d loss / d out: the sigmoid's slope is p (1 - p) ln(10) K / 400 per centipawn.
        let d = 2.0 * (p - t) * p * (1.0 - p) * std::f32::consts::LN_10 * k / 400.0 * scale;
        let n1 = self.w1.len();
        let (g_w1, rest) = grad.split_at_mut(n1);
        let (g_b1, rest) = rest.split_at_mut(H);
        let (g_w2, g_b2) = rest.split_at_mut(2 * H);
        g_b2[0] += d;
        for (half, (acc, inputs)) in [(us, &s.inputs[..s.split]), (them, &s.inputs[s.split..])]
            .into_iter()
            .enumerate()
        {
            for j in 0..H {
                let a = acc[j].clamp(0.0, 1.0);
                g_w2[half * H + j] += d * a;
                if acc[j] > 0.0 && acc[j] < 1.0 {
                    let g = d * self.w2[half * H + j];
                    g_b1[j] += g;
                    for &i in inputs {
                        g_w1[i as usize * H + j] += g;
                    }
                }
            }
        }
        loss
    }

    fn quantise(&self, variant: &str, out_scale: f32) -> Network {
        let q16 = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        let inputs = self.w1.len() / H;
        let mut w1 = vec![[0i16; H]; inputs];
        for (i, row) in w1.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = q16(self.w1[i * H + j], QA);
            }
        }
        Network {
            variant: variant.to_string(),
            w1,
            b1: self.b1.map(|b| q16(b, QA)),
            w2: self.w2.map(|w| q16(w, QB)),
            b2: (self.b2 * (QA * QB) as f32).round() as i32,
            out_scale: out_scale.round() as i32,
        }
    }
}

#[inline]
fn sigmoid_f32(cp: f32, k: f32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-k * cp / 400.0))
}

/// Whether game `game` is held out for validation.
fn held_out(game: u32, seed: u64, share: f64) -> bool {
    let mut rng = SplitMix64::new(seed ^ u64::from(game).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= share
}

/// Fits the K of `sigmoid(K * value(s))` to the game results (golden section on 0.01..10):
/// the classic Texel K, for the hand-written evaluation and for the search scores.
fn fit_k(samples: &[NetSample], value: impl Fn(&NetSample) -> f32 + Sync) -> f64 {
    let f = |k: f64| -> f64 {
        samples
            .par_iter()
            .map(|s| {
                let p = sigmoid(value(s) as f64, k);
                (p - s.result as f64) * (p - s.result as f64)
            })
            .sum::<f64>()
    };
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    while b - a > 1e-4 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Trains a network for `G` on `samples`, printing each epoch's losses through `report`.
///
/// Errors: no training or no validation positions.
pub fn train<G: Game>(
    samples: &[NetSample],
    cfg: &NetConfig,
    report: &mut dyn FnMut(&str),
) -> Result<Trained, String> {
    let (val, train): (Vec<&NetSample>, Vec<&NetSample>) = samples
        .iter()
        .partition(|s| held_out(s.game, cfg.seed, cfg.validation));
    if train.is_empty() || val.is_empty() {
        return Err(format!(
            "{} training and {} validation positions: need both (more games, or another \
             --validation)",
            train.len(),
            val.len()
        ));
    }
    let k = fit_k(samples, |s| s.hce);
    let k_score = fit_k(samples, |s| s.score) as f32;
    let kf = k as f32;
    let target =
        |s: &NetSample| cfg.lambda * s.result + (1.0 - cfg.lambda) * sigmoid_f32(s.score, k_score);
    let mut model = match &cfg.init {
        Some(net) if net.w1.len() != G::INPUTS => {
            return Err(format!(
                "--init: a network of {} inputs, the data's variant has {}",
                net.w1.len(),
                G::INPUTS
            ))
        }
        Some(net) => Model::from_network(net),
        None => Model::new(G::INPUTS, cfg.seed),
    };
    let n = model.params();
    let loss_of = |m: &Model, set: &[&NetSample]| -> f64 {
        set.par_iter()
            .map(|s| {
                let (out, _, _) = m.forward(s);
                let p = sigmoid_f32(s.hce + cfg.out_scale * out, kf);
                let t = target(s);
                f64::from((p - t) * (p - t))
            })
            .sum::<f64>()
            / set.len() as f64
    };
    let mut losses = vec![EpochLoss {
        epoch: 0,
        train: loss_of(&model, &train),
        validation: loss_of(&model, &val),
    }];
    report(&format!(
        "K {k:.4} (search scores: {k_score:.4}); {} training, {} validation positions; {} inputs, {n} parameters\n\
         epoch 0: train {:.6} validation {:.6} (the hand-written evaluation alone: {:.6})",
        train.len(),
        val.len(),
        G::INPUTS,
        losses[0].train,
        losses[0].validation,
        {
            let zero = Model {
                w2: [0.0; 2 * H],
                ..model.clone()
            };
            loss_of(&zero, &val)
        }
    ));
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = SplitMix64::new(cfg.seed);
    let (mut m1, mut m2) = (vec![0f32; n], vec![0f32; n]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut best = (f64::INFINITY, 0usize, model.clone());
    const CHUNK: usize = 256;
    for epoch in 1..=cfg.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for batch in order.chunks(cfg.batch.max(1)) {
            let grads: Vec<Vec<f32>> = batch
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut g = vec![0f32; n];
                    for &i in chunk {
                        let s = train[i];
                        model.add_gradient(s, target(s), kf, cfg.out_scale, &mut g);
                    }
                    g
                })
                .collect();
            let mut grad = vec![0f32; n];
            for g in &grads {
                for (a, b) in grad.iter_mut().zip(g) {
                    *a += b;
                }
            }
            let scale = 1.0 / batch.len() as f32;
            step += 1;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            let nw1 = model.w1.len();
            let mut params: Vec<&mut f32> = model
                .w1
                .iter_mut()
                .chain(model.b1.iter_mut())
                .chain(model.w2.iter_mut())
                .chain(std::iter::once(&mut model.b2))
                .collect();
            for (idx, p) in params.iter_mut().enumerate() {
                let mut g = grad[idx] * scale;
                if idx < nw1 {
                    g += 2.0 * cfg.l2 * **p;
                }
                m1[idx] = b1 * m1[idx] + (1.0 - b1) * g;
                m2[idx] = b2 * m2[idx] + (1.0 - b2) * g * g;
                **p -= cfg.lr * (m1[idx] / c1) / ((m2[idx] / c2).sqrt() + eps);
            }
            // The quantised first layer must fit i16 with room for the sums: |w| < 100.
            model
                .w1
                .iter_mut()
                .for_each(|w| *w = w.clamp(-100.0, 100.0));
            model
                .w2
                .iter_mut()
                .for_each(|w| *w = w.clamp(-500.0, 500.0));
        }
        let e = EpochLoss {
            epoch,
            train: loss_of(&model, &train),
            validation: loss_of(&model, &val),
        };
        report(&format!(
            "epoch {epoch}: train {:.6} validation {:.6}",
            e.train, e.validation
        ));
        if e.validation < best.0 {
            best = (e.validation, epoch, model.clone());
        }
        losses.push(e);
    }
    let (_, best_epoch, model) = best;
    let net = model.quantise(G::INFO.name, cfg.out_scale);
    // How far the integers are from the floats, over the validation positions.
    let quantisation_cp = val
        .par_iter()
        .map(|s| {
            let (out, _, _) = model.forward(s);
            let float_cp = f64::from(cfg.out_scale * out);
            let int_cp = f64::from(integer_output(&net, s));
            (float_cp - int_cp).abs()
        })
        .sum::<f64>()
        / val.len() as f64;
    Ok(Trained {
        net,
        k,
        losses,
        best_epoch,
        counts: (train.len(), val.len()),
        quantisation_cp,
    })
}

/// The quantised network's output for a sample's inputs, as the engine computes it
/// ([`Network::evaluate`]), in centipawns.
pub fn integer_output(net: &Network, s: &NetSample) -> i32 {
    let layer = |inputs: &[u32]| {
        let mut acc = net.b1.map(i32::from);
        for &i in inputs {
            for (a, &w) in acc.iter_mut().zip(&net.w1[i as usize]) {
                *a += i32::from(w);
            }
        }
        acc
    };
    let (us, them) = (layer(&s.inputs[..s.split]), layer(&s.inputs[s.split..]));
    let mut sum = i64::from(net.b2);
    for j in 0..H {
        sum += i64::from(us[j].clamp(0, QA)) * i64::from(net.w2[j]);
        sum += i64::from(them[j].clamp(0, QA)) * i64::from(net.w2[H + j]);
    }
    (sum * i64::from(net.out_scale) / i64::from(QA * QB)) as i32
}

/// The losses as CSV: `epoch,train,validation`.
pub fn losses_csv(losses: &[EpochLoss]) -> String {
    let mut text = String::from("epoch,train,validation\n");
    for l in losses {
        text.push_str(&format!("{},{:.8},{:.8}\n", l.epoch, l.train, l.validation));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie::tools::datagen::{self, DatagenConfig, Format, Shard};
    use menagerie::variants::mystic::Mystic;
    use menagerie::variants::network::NetInputs;
    use menagerie::variants::{Notation, Rules};

    /// A small Mystic self-play file (seeded), its path.
    fn data_file() -> PathBuf {
        let cfg = DatagenConfig {
            games: 24,
            nodes: 300,
            threads: 2,
            shard: Shard::ALL,
            seed: 11,
            max_plies: 120,
            format: Format::Binary,
        };
        let mut bytes = Vec::new();
        datagen::run::<Mystic>(&cfg, &mut bytes, &mut |_| {}).unwrap();
        let path =
            std::env::temp_dir().join(format!("menagerie-net-data-{}.bin", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn training_learns_and_the_engine_computes_what_the_trainer_wrote() {
        let path = data_file();
        let samples = load_net_data::<Mystic>(std::slice::from_ref(&path)).unwrap();
        assert!(samples.len() > 300, "{}", samples.len());
        let cfg = NetConfig {
            epochs: 4,
            batch: 256,
            lr: 0.002,
            lambda: 0.5,
            l2: 0.0,
            validation: 0.2,
            out_scale: 400.0,
            seed: 3,
            init: None,
        };
        let a = train::<Mystic>(&samples, &cfg, &mut |_| {}).unwrap();
        let b = train::<Mystic>(&samples, &cfg, &mut |_| {}).unwrap();
        // Deterministic, and fitting the training positions.
        assert_eq!(a.net, b.net);
        assert_eq!(a.losses.len(), 5);
        assert!(a.losses[4].train < a.losses[0].train, "{:?}", a.losses);
        // The kept epoch is the best validation epoch.
        let best = a.losses[1..]
            .iter()
            .min_by(|x, y| x.validation.total_cmp(&y.validation))
            .unwrap();
        assert_eq!(a.best_epoch, best.epoch);
        // Training from a network (--init) starts where that network is: its loss before the
        // first epoch is the best epoch's, up to quantisation.
        let from = NetConfig {
            epochs: 1,
            init: Some(a.net.clone()),
            ..cfg.clone()
        };
        let c = train::<Mystic>(&samples, &from, &mut |_| {}).unwrap();
        let (start, kept) = (c.losses[0].validation, best.validation);
        assert!((start - kept).abs() < 0.02 * kept, "{start} against {kept}");
        assert!(start < a.losses[0].validation, "{:?}", a.losses);
        // The file the trainer writes is what the engine reads and computes.
        let net = Network::parse(&a.net.to_bytes(), "mystic", Mystic::INPUTS).unwrap();
        let (_, records) = datafile::read_file(&path).unwrap();
        let mut checked = 0;
        for (r, s) in records.iter().zip(&samples).take(50) {
            let pos = Mystic::from_fen(&r.fen).unwrap();
            if pos.in_check() {
                break; // the samples skip those: stop pairing
            }
            assert_eq!(net.evaluate(&pos), integer_output(&net, s), "{}", r.fen);
            checked += 1;
        }
        assert!(checked > 10);
        // Another variant's data is refused.
        let other = path.with_extension("muster.bin");
        let w = datafile::DataWriter::new(Vec::new(), "muster").unwrap();
        std::fs::write(&other, w.finish().unwrap()).unwrap();
        let e = load_net_data::<Mystic>(std::slice::from_ref(&other)).unwrap_err();
        assert!(e.contains("data of 'muster'"), "{e}");
        std::fs::remove_file(&path).unwrap();
        std::fs::remove_file(&other).unwrap();
    }
}
