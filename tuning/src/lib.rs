//! Tuning tools for menagerie's per-variant evaluators.
//!
//! So far: the Texel loss of the orthodox chess evaluation over labelled positions
//! ([`texel_loss`]) and the fit of its scaling constant K ([`fit_k`]). Planned: self-play data
//! generation, the parameter search itself (local search or gradient descent over
//! [`Tunables::values`]) and SPSA for search parameters.

use menagerie::core::tunables::Tunables;
use menagerie::variants::chess::eval::{evaluate_with, params::EvalParams};
#[cfg(test)]
use menagerie::variants::chess::eval::DEFAULT;
use menagerie::variants::chess::Chess;

/// Number of tunable evaluation parameters of orthodox chess (see
/// `menagerie::variants::chess::eval::params`).
pub fn chess_parameter_count() -> usize {
    EvalParams::count()
}

/// A labelled training position: the game's result from White's point of view
/// (1.0 White won, 0.5 draw, 0.0 Black won).
#[derive(Clone)]
pub struct Sample {
    /// The position.
    pub pos: Chess,
    /// The game result for White, in [0, 1].
    pub result: f64,
}

/// Parses one line `<FEN> ; <result>` (or `<FEN> [<result>]`), where the result is `1-0`,
/// `0-1`, `1/2-1/2`, or a number in [0, 1] (White's score).
///
/// Errors: a message naming the bad result or the FEN error.
pub fn parse_sample(line: &str) -> Result<Sample, String> {
    let line = line.trim();
    let (fen, res) = if let Some(i) = line.rfind(';') {
        (&line[..i], &line[i + 1..])
    } else if let (Some(a), Some(b)) = (line.rfind('['), line.rfind(']')) {
        (&line[..a], &line[a + 1..b])
    } else {
        return Err(format!(
            "no result in '{line}' (expected '<FEN> ; 1-0|0-1|1/2-1/2')"
        ));
    };
    let res = res.trim().trim_matches('"');
    let result = match res {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" | "1/2" => 0.5,
        x => match x.parse::<f64>() {
            Ok(v) if (0.0..=1.0).contains(&v) => v,
            _ => return Err(format!("bad result '{res}'")),
        },
    };
    let pos = Chess::parse_fen(fen.trim()).map_err(|e| e.to_string())?;
    Ok(Sample { pos, result })
}

/// The expected score for White of an evaluation of `cp` centipawns (White's view):
/// `1 / (1 + 10^(-k * cp / 400))`.
pub fn expected_score(cp: i32, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * cp as f64 / 400.0))
}

/// Mean squared error between the results and the expected scores of the static evaluation
/// with `params` (the Texel tuning objective); 0 for an empty set.
pub fn texel_loss(samples: &[Sample], params: &EvalParams, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let white_cp = evaluate_with(&s.pos, params) * s.pos.stm().sign();
            let e = s.result - expected_score(white_cp, k);
            e * e
        })
        .sum();
    sum / samples.len() as f64
}

/// The K in [0.05, 5] minimising [`texel_loss`] for fixed `params` (golden-section search;
/// the loss is unimodal in K for any sensible data).
pub fn fit_k(samples: &[Sample], params: &EvalParams) -> f64 {
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (
        texel_loss(samples, params, c),
        texel_loss(samples, params, d),
    );
    while b - a > 1e-3 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = texel_loss(samples, params, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = texel_loss(samples, params, d);
        }
    }
    (a + b) / 2.0
}

/// One coordinate-descent Texel pass: for each parameter index in `which`, tries `+step` and
/// `-step` and keeps a change that lowers [`texel_loss`]. Returns the number of parameters
/// changed; `params` holds the improved values. Slow (two loss evaluations per parameter):
/// meant for small parameter subsets until a gradient tuner exists.
pub fn local_search_pass(
    samples: &[Sample],
    params: &mut EvalParams,
    k: f64,
    which: &[usize],
    step: i32,
) -> usize {
    let mut values = params.values();
    let mut best = texel_loss(samples, params, k);
    let mut changed = 0;
    for &i in which {
        for delta in [step, -step] {
            values[i] += delta as i64;
            params.set_values(&values).expect("same length");
            let loss = texel_loss(samples, params, k);
            if loss < best {
                best = loss;
                changed += 1;
                break;
            }
            values[i] -= delta as i64;
            params.set_values(&values).expect("same length");
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_visible() {
        assert!(chess_parameter_count() > 800);
    }

    /// White is a queen up and won; Black is a rook up and won; a bare-kings draw; a queen-up
    /// position that (as happens in real data) was still drawn.
    fn synthetic() -> Vec<Sample> {
        [
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; 1-0",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR b Kkq - 0 1 ; 0-1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ; 1/2-1/2",
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1 [0.5]",
        ]
        .iter()
        .map(|l| parse_sample(l).unwrap())
        .collect()
    }

    #[test]
    fn parses_results() {
        let s = synthetic();
        let r: Vec<f64> = s.iter().map(|x| x.result).collect();
        assert_eq!(r, vec![1.0, 0.0, 0.5, 0.5]);
        assert!(parse_sample("4k3/8/8/8/8/8/8/4K3 w - - 0 1 ; 2-0").is_err());
        assert!(parse_sample("4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
        assert!(parse_sample("4k3/8/8/8/8/8/8/4KK2 w - - 0 1 ; 1-0").is_err());
    }

    #[test]
    fn loss_values() {
        let s = synthetic();
        // K = 0 predicts 0.5 everywhere: the loss is the mean of (r - 0.5)^2 = (0.25 + 0.25) / 4.
        assert!((texel_loss(&s, &DEFAULT, 0.0) - 0.125).abs() < 1e-12);
        // With a sensible K the decisive games are predicted well, the drawn queen-up one
        // costs about a quarter: the loss lies well below the K = 0 one yet above zero.
        let l = texel_loss(&s, &DEFAULT, 1.0);
        assert!(l > 0.05 && l < 0.1, "{l}");
        // Wrong labels cost more.
        let mut flipped = s.clone();
        for x in &mut flipped {
            x.result = 1.0 - x.result;
        }
        assert!(texel_loss(&flipped, &DEFAULT, 1.0) > 0.4);
        assert_eq!(texel_loss(&[], &DEFAULT, 1.0), 0.0);
    }

    #[test]
    fn fitted_k_minimises_the_loss() {
        // Only the first three (consistent) samples: the best K is large and positive, and
        // beats its neighbours.
        let s = &synthetic()[..3];
        let k = fit_k(s, &DEFAULT);
        let l = texel_loss(s, &DEFAULT, k);
        assert!(k > 0.5, "{k}");
        assert!(l <= texel_loss(s, &DEFAULT, k * 0.5) + 1e-12);
        assert!(l <= texel_loss(s, &DEFAULT, 0.1) + 1e-12);
        // A mixed set has an interior optimum.
        let s = synthetic();
        let k = fit_k(&s, &DEFAULT);
        assert!(k > 0.05 && k < 5.0, "{k}");
        let l = texel_loss(&s, &DEFAULT, k);
        assert!(l <= texel_loss(&s, &DEFAULT, k * 1.2) && l <= texel_loss(&s, &DEFAULT, k / 1.2));
    }

    #[test]
    fn local_search_moves_a_parameter_the_right_way() {
        // White always wins from the start position: a bigger tempo bonus fits better.
        let s: Vec<Sample> = (0..4)
            .map(|_| {
                parse_sample("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; 1-0")
                    .unwrap()
            })
            .collect();
        let mut p = DEFAULT.clone();
        let i = EvalParams::index_of("tempo.mg").unwrap();
        let before = texel_loss(&s, &p, 1.0);
        assert_eq!(local_search_pass(&s, &mut p, 1.0, &[i], 5), 1);
        assert_eq!(p.tempo.mg, DEFAULT.tempo.mg + 5);
        assert!(texel_loss(&s, &p, 1.0) < before);
    }
}
