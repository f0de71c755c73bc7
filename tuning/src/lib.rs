//! Texel tuning of any variant's evaluation parameters.
//!
//! The data are `menagerie datagen` files (`FEN | score | result` lines, `# game` comments,
//! see `menagerie::tools::datagen`). The objective is the mean squared error between the game results
//! and the expected score of the static evaluation, `sigmoid(K * eval) = 1 / (1 + 10^(-K *
//! eval / 400))` with `eval` in centipawns from White's view ([`texel_loss`]); K is fitted
//! first ([`fit_k`]) and then held.
//!
//! The optimiser is Adam over the selected parameters of the variant's
//! [`menagerie::variants::Evaluation::EvalParams`], generic over [`Game`] through
//! [`Evaluation::evaluate_with`](menagerie::variants::Evaluation::evaluate_with). Its gradient
//! comes from a linearisation of the evaluation around the current values, measured by central
//! differences per parameter and position ([`Linearised`]): exact for the terms linear in a
//! parameter (material, tables, most bonuses), a first-order model for the others (King danger,
//! percentages, scales), so every round re-measures it around the new (rounded) values and
//! reports the true loss.

pub mod net;

use menagerie::core::tunables::{Spec, TunableValue, Tunables};
use menagerie::variants::{Game, GameResult};
use rayon::prelude::*;

/// One labelled training position.
#[derive(Clone, Debug)]
pub struct Sample<G> {
    /// The position.
    pub pos: G,
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f64,
    /// The search score recorded by datagen, centipawns from White's view.
    pub score: i32,
    /// The game it comes from (the n-th `# game` block of its file, per file offset).
    pub game: u64,
}

/// Why a data file was refused: the file, the line and the reason (`file:line: reason`, or
/// `file: reason` when the file itself cannot be read).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {reason}", if *line > 0 { format!(":{line}") } else { String::new() })]
pub struct DataError {
    /// The file name as given.
    pub file: String,
    /// 1-based line number; 0 when the file could not be read.
    pub line: usize,
    /// What is wrong with the line.
    pub reason: String,
}

/// Parses a game result for White: `1`, `0.5`, `0`, `1-0`, `1/2-1/2` or `0-1`.
pub fn parse_result(text: &str) -> Option<f64> {
    match text.trim() {
        "1" | "1.0" | "1-0" => Some(1.0),
        "0.5" | "1/2-1/2" | "1/2" => Some(0.5),
        "0" | "0.0" | "0-1" => Some(0.0),
        _ => None,
    }
}

/// Parses the text of a data file named `file` for variant `G`. Game numbers start at
/// `first_game` (so that several files keep distinct games).
///
/// Errors: the first malformed line (field count, FEN, score, result), with its number.
pub fn parse_data<G: Game>(
    text: &str,
    file: &str,
    first_game: u64,
) -> Result<Vec<Sample<G>>, DataError> {
    let mut out = Vec::new();
    let mut game = first_game;
    let mut seen_game = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let err = |reason: String| DataError {
            file: file.to_string(),
            line: n + 1,
            reason,
        };
        if line.is_empty() {
            continue;
        }
        if line.starts_with('#') {
            if line.starts_with("# game") {
                if seen_game {
                    game += 1;
                }
                seen_game = true;
            }
            continue;
        }
        let mut fields = line.rsplitn(3, '|');
        let (Some(result), Some(score), Some(fen)) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(err(format!(
                "expected 'FEN | score | result', found '{}'",
                truncate(line)
            )));
        };
        let result = parse_result(result).ok_or_else(|| {
            err(format!(
                "bad result '{}' (expected 1, 0.5 or 0)",
                result.trim()
            ))
        })?;
        let score: i32 = score
            .trim()
            .parse()
            .map_err(|_| err(format!("bad score '{}' (centipawns)", score.trim())))?;
        let pos = G::from_fen(fen.trim()).map_err(|e| err(e.to_string()))?;
        seen_game = true;
        out.push(Sample {
            pos,
            result,
            score,
            game,
        });
    }
    Ok(out)
}

fn truncate(s: &str) -> String {
    s.chars().take(80).collect()
}

/// Reads and parses the data files `paths`, games numbered across files.
///
/// Errors: an unreadable file (named) or the first malformed line.
pub fn load_data<G: Game>(paths: &[std::path::PathBuf]) -> Result<Vec<Sample<G>>, DataError> {
    let mut out: Vec<Sample<G>> = Vec::new();
    for path in paths {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| DataError {
            file: name.clone(),
            line: 0,
            reason: e.to_string(),
        })?;
        let first = out.last().map_or(0, |s| s.game + 1);
        out.extend(parse_data::<G>(&text, &name, first)?);
    }
    Ok(out)
}

/// Splits samples into (training, validation) by game: a game goes to validation when a hash
/// of its number falls below `fraction` (deterministic).
pub fn split_by_game<G: Clone>(
    samples: Vec<Sample<G>>,
    fraction: f64,
) -> (Vec<Sample<G>>, Vec<Sample<G>>) {
    let held = |g: u64| {
        let mut x = g.wrapping_add(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^= x >> 31;
        ((x >> 11) as f64 / (1u64 << 53) as f64) < fraction
    };
    samples.into_iter().partition(|s| !held(s.game))
}

/// The expected score for White of an evaluation of `cp` centipawns (White's view):
/// `1 / (1 + 10^(-k * cp / 400))`.
#[inline]
pub fn sigmoid(cp: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * cp / 400.0))
}

/// The static evaluation of `pos` with `p`, in centipawns from White's view.
#[inline]
pub fn white_eval<G: Game>(pos: &G, p: &G::EvalParams) -> i32 {
    pos.evaluate_with(p) * pos.side_to_move().sign()
}

/// The training target of a sample: `lambda * result + (1 - lambda) * sigmoid(K * score)`
/// (`lambda` = 1: the game result alone, the classic Texel target).
#[inline]
pub fn target<G>(s: &Sample<G>, k: f64, lambda: f64) -> f64 {
    if lambda >= 1.0 {
        s.result
    } else {
        lambda * s.result + (1.0 - lambda) * sigmoid(s.score as f64, k)
    }
}

/// Mean squared error between the targets and `sigmoid(K * eval)` of the static evaluation
/// with `params` (the Texel objective); 0 for no samples.
pub fn texel_loss<G: Game>(
    samples: &[Sample<G>],
    params: &G::EvalParams,
    k: f64,
    lambda: f64,
) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .par_iter()
        .map(|s| {
            let e = target(s, k, lambda) - sigmoid(white_eval(&s.pos, params) as f64, k);
            e * e
        })
        .sum();
    sum / samples.len() as f64
}

/// The loss over precomputed White-view evaluations `evals` (same order as `samples`).
fn loss_of_evals<G>(samples: &[Sample<G>], evals: &[f64], k: f64, lambda: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .zip(evals)
        .map(|(s, &e)| {
            let d = target(s, k, lambda) - sigmoid(e, k);
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The K in [0.01, 10] minimising the loss of the evaluations with `params` (golden-section
/// search; the loss is unimodal in K for sensible data). With `lambda` < 1 the target itself
/// depends on K: the search minimises the loss as a whole.
pub fn fit_k<G: Game>(samples: &[Sample<G>], params: &G::EvalParams, lambda: f64) -> f64 {
    let evals: Vec<f64> = samples
        .par_iter()
        .map(|s| white_eval(&s.pos, params) as f64)
        .collect();
    let f = |k: f64| loss_of_evals(samples, &evals, k, lambda);
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > 1e-4 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// The indices of the scalars of `P` selected by `only` (name prefixes; empty: all) minus
/// those matching `exclude`, skipping scalars whose range is a single value.
///
/// Errors: a prefix of `only` or `exclude` that matches no scalar (a typo), naming it.
pub fn select<P: Tunables>(only: &[String], exclude: &[String]) -> Result<Vec<usize>, String> {
    let names = P::flat_names();
    for prefix in only.iter().chain(exclude) {
        if !names.iter().any(|n| n.starts_with(prefix.as_str())) {
            return Err(format!(
                "no {} parameter starts with '{prefix}' (list them with `menagerie-tuning params`)",
                P::TYPE_NAME
            ));
        }
    }
    Ok((0..names.len())
        .filter(|&i| {
            let n = &names[i];
            (only.is_empty() || only.iter().any(|p| n.starts_with(p.as_str())))
                && !exclude.iter().any(|p| n.starts_with(p.as_str()))
                && P::spec(i).min < P::spec(i).max
        })
        .collect())
}

/// The evaluation linearised around a parameter set: per sample its White-view evaluation,
/// and per selected parameter the samples whose evaluation it moves with the slope
/// (centipawns per unit), measured by central differences.
pub struct Linearised {
    /// White-view evaluation of each sample at the base values (centipawns).
    pub base: Vec<f64>,
    /// Per selected parameter (in the order of the selection): (sample index, slope).
    pub columns: Vec<Vec<(u32, f32)>>,
}

impl Linearised {
    /// Measures the linearisation of the evaluation over `samples` at `params`, for the
    /// scalars `which`. Each slope is `(eval(v + h) - eval(v - h)) / 2h` with
    /// `h = max(step, 2)` (a larger `h` smooths the integer rounding inside the evaluation).
    pub fn measure<G: Game>(
        samples: &[Sample<G>],
        params: &G::EvalParams,
        which: &[usize],
    ) -> Self {
        let base: Vec<f64> = samples
            .par_iter()
            .map(|s| white_eval(&s.pos, params) as f64)
            .collect();
        let columns = which
            .iter()
            .map(|&i| {
                let spec = G::EvalParams::spec(i);
                let h = spec.step.max(2);
                let v = params.get_at(i);
                let mut plus = params.clone();
                plus.set_at(i, v + h);
                let mut minus = params.clone();
                minus.set_at(i, v - h);
                samples
                    .par_iter()
                    .enumerate()
                    .filter_map(|(n, s)| {
                        let d = white_eval(&s.pos, &plus) - white_eval(&s.pos, &minus);
                        (d != 0).then(|| (n as u32, d as f32 / (2 * h) as f32))
                    })
                    .collect()
            })
            .collect();
        Linearised { base, columns }
    }

    /// The evaluations of the samples after moving the selected parameters by `delta`.
    pub fn evals(&self, delta: &[f64]) -> Vec<f64> {
        let mut e = self.base.clone();
        for (col, &d) in self.columns.iter().zip(delta) {
            if d != 0.0 {
                for &(n, c) in col {
                    e[n as usize] += d * c as f64;
                }
            }
        }
        e
    }

    /// The loss at `delta` and its gradient with respect to each selected parameter.
    pub fn loss_and_gradient<G>(
        &self,
        samples: &[Sample<G>],
        delta: &[f64],
        k: f64,
        lambda: f64,
    ) -> (f64, Vec<f64>) {
        let e = self.evals(delta);
        let n = samples.len().max(1) as f64;
        let scale = k * std::f64::consts::LN_10 / 400.0;
        let mut loss = 0.0;
        let g: Vec<f64> = samples
            .iter()
            .zip(&e)
            .map(|(s, &x)| {
                let p = sigmoid(x, k);
                let d = p - target(s, k, lambda);
                loss += d * d;
                2.0 * d * p * (1.0 - p) * scale / n
            })
            .collect();
        let grad = self
            .columns
            .iter()
            .map(|col| col.iter().map(|&(i, c)| g[i as usize] * c as f64).sum())
            .collect();
        (loss / n, grad)
    }
}

/// The settings of a Texel tuning run.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelConfig {
    /// Rounds: each re-measures the linearisation and reports the true loss.
    pub rounds: usize,
    /// Adam iterations per round.
    pub iterations: usize,
    /// Adam's learning rate: about the largest move of a parameter per iteration (its units).
    pub learning_rate: f64,
    /// Weight of the game result in the target (1: the result alone).
    pub lambda: f64,
    /// L2 pull towards the starting values, per squared unit (0: none).
    pub l2: f64,
}

impl Default for TexelConfig {
    fn default() -> Self {
        TexelConfig {
            rounds: 5,
            iterations: 200,
            learning_rate: 1.0,
            lambda: 1.0,
            l2: 0.0,
        }
    }
}

/// One round's figures, for the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// Round number (1-based).
    pub round: usize,
    /// The true training loss at the round's rounded values.
    pub train: f64,
    /// The true validation loss (0 without validation data).
    pub validation: f64,
    /// The linearised model's loss at the end of the round (before rounding).
    pub model: f64,
}

/// Tunes the scalars `which` of `start` by Adam on the training samples with K held, keeping
/// each within its declared range; returns the tuned set (integer values) of the round with
/// the lowest true training loss (the start when no round beats it) and per-round figures.
/// `report` sees each round as it ends.
pub fn tune<G: Game>(
    train: &[Sample<G>],
    validation: &[Sample<G>],
    start: &G::EvalParams,
    which: &[usize],
    k: f64,
    cfg: &TexelConfig,
    report: &mut dyn FnMut(&Round),
) -> (G::EvalParams, Vec<Round>) {
    let mut params = start.clone();
    let origin: Vec<f64> = which.iter().map(|&i| start.get_at(i) as f64).collect();
    let specs: Vec<Spec> = which.iter().map(|&i| G::EvalParams::spec(i)).collect();
    let mut rounds = Vec::new();
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    let mut m = vec![0.0; which.len()];
    let mut v = vec![0.0; which.len()];
    let mut t = 0i32;
    let mut best = (texel_loss(train, start, k, cfg.lambda), start.clone());
    for round in 1..=cfg.rounds {
        let lin = Linearised::measure(train, &params, which);
        let here: Vec<f64> = which.iter().map(|&i| params.get_at(i) as f64).collect();
        let mut delta = vec![0.0; which.len()];
        let mut model = 0.0;
        for _ in 0..cfg.iterations {
            let (loss, mut grad) = lin.loss_and_gradient(train, &delta, k, cfg.lambda);
            model = loss;
            if cfg.l2 > 0.0 {
                for j in 0..grad.len() {
                    grad[j] += 2.0 * cfg.l2 * (here[j] + delta[j] - origin[j]);
                }
            }
            t += 1;
            for j in 0..which.len() {
                m[j] = b1 * m[j] + (1.0 - b1) * grad[j];
                v[j] = b2 * v[j] + (1.0 - b2) * grad[j] * grad[j];
                let mh = m[j] / (1.0 - b1.powi(t));
                let vh = v[j] / (1.0 - b2.powi(t));
                delta[j] -= cfg.learning_rate * mh / (vh.sqrt() + eps);
                let x = (here[j] + delta[j]).clamp(specs[j].min as f64, specs[j].max as f64);
                delta[j] = x - here[j];
            }
        }
        for (j, &i) in which.iter().enumerate() {
            params.set_at(i, (here[j] + delta[j]).round() as i64);
        }
        let r = Round {
            round,
            train: texel_loss(train, &params, k, cfg.lambda),
            validation: texel_loss(validation, &params, k, cfg.lambda),
            model,
        };
        report(&r);
        if r.train < best.0 {
            best = (r.train, params.clone());
        }
        rounds.push(r);
    }
    (best.1, rounds)
}

/// Reads a values file (`name = value` lines, `#` comments) onto `params`.
///
/// Errors: a malformed line or an unknown name, with the file name and line number.
pub fn read_values<P: Tunables>(text: &str, file: &str, params: &mut P) -> Result<(), DataError> {
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |reason: String| DataError {
            file: file.to_string(),
            line: n + 1,
            reason,
        };
        let (name, value) = line.split_once('=').ok_or_else(|| {
            err(format!(
                "expected 'name = value', found '{}'",
                truncate(line)
            ))
        })?;
        let value: i64 = value
            .trim()
            .parse()
            .map_err(|_| err(format!("bad value '{}' (an integer)", value.trim())))?;
        params
            .set(name.trim(), value)
            .map_err(|e| err(e.to_string()))?;
    }
    Ok(())
}

/// Every scalar of `params` as `name = value` lines (the values file format).
pub fn write_values<P: Tunables>(params: &P) -> String {
    let mut out = format!("# {} values: name = value\n", P::TYPE_NAME);
    for (i, name) in P::flat_names().iter().enumerate() {
        out.push_str(&format!("{name} = {}\n", params.get_at(i)));
    }
    out
}

/// The scalars that differ between `a` and `b`: (name, a's value, b's value).
pub fn changes<P: Tunables>(a: &P, b: &P) -> Vec<(String, i64, i64)> {
    P::flat_names()
        .iter()
        .enumerate()
        .filter(|&(i, _)| a.get_at(i) != b.get_at(i))
        .map(|(i, n)| (n.clone(), a.get_at(i), b.get_at(i)))
        .collect()
}

/// Count of White wins, draws and Black wins among the samples' games (one count per game).
pub fn game_results<G>(samples: &[Sample<G>]) -> [usize; 3] {
    let mut out = [0; 3];
    let mut last = None;
    for s in samples {
        if last != Some(s.game) {
            last = Some(s.game);
            let r = if s.result == 1.0 {
                GameResult::WhiteWins
            } else if s.result == 0.0 {
                GameResult::BlackWins
            } else {
                GameResult::Draw
            };
            out[match r {
                GameResult::WhiteWins => 0,
                GameResult::Draw => 1,
                GameResult::BlackWins => 2,
            }] += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests;
