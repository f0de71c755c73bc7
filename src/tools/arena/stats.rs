//! Match statistics: Elo from a score, a 95% Elo interval from pentanomial pair statistics, and
//! the SPRT log-likelihood ratio (LLR) of the generalised SPRT used by fishtest and fastchess.
//!
//! Scores are fractions of a point per game in `[0, 1]`; logistic Elo differences use the model
//! `score = 1 / (1 + 10^(-elo / 400))`. The LLR is computed exactly as the difference of the
//! log-likelihoods of the two maximum-likelihood distributions that satisfy H0 and H1 (Michel Van
//! den Bergh, "Comments on Normalized Elo", propositions 1.1 and section 4.1), after replacing
//! empty categories by 0.001 games (the regularisation of fishtest), so a handful of games cannot
//! produce an infinite or degenerate ratio.

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference that gives `score` (a fraction of a point per game, `0..=1`) in the
/// logistic model. Scores of exactly 0 or 1 give infinities.
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score (fraction of a point per game) of a side `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// How the Elo bounds of an SPRT are read.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EloModel {
    /// Normalised Elo (fishtest's and fastchess's default): a difference measured in units of
    /// the per-game score's standard deviation, `nelo = (mean - 0.5) / sigma * 800 / ln 10`,
    /// where sigma is the per-game standard deviation (of a pair's mean times sqrt 2).
    #[default]
    Normalized,
    /// Logistic Elo: the bounds are turned into expected scores by [`score_from_elo`].
    Logistic,
}

/// `800 / ln 10`: normalised Elo per unit of the t-value `(mean - 0.5) / sigma`.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Counts of game pairs (colours reversed, same opening) by the points the first engine took
/// in the pair: index 0 = 0 points, 1 = 0.5, 2 = 1, 3 = 1.5, 4 = 2.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Records a pair in which the first engine scored `points` (0, 0.5, 1, 1.5 or 2; other
    /// values are rounded to the nearest half point and clamped).
    pub fn add(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean and variance of the per-game score of a pair (pair points / 2, in `[0, 1]`), over
    /// pairs. `None` without pairs.
    pub fn mean_variance(&self) -> Option<(f64, f64)> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let value = |i: usize| i as f64 / 4.0;
        let mean: f64 = (0..5).map(|i| self.0[i] as f64 * value(i)).sum::<f64>() / n;
        let var: f64 = (0..5)
            .map(|i| self.0[i] as f64 * (value(i) - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }

    /// The Elo difference of the pair mean; `None` without pairs. A score of 0 or 1 gives an
    /// infinity.
    pub fn elo(&self) -> Option<f64> {
        self.mean_variance().map(|(mean, _)| elo_from_score(mean))
    }

    /// The Elo difference with its 95% interval, `(low, elo, high)`, from the pair mean and
    /// the standard error of the mean. `None` with fewer than two pairs or when every pair
    /// scored the same: the spread of the pairs is then unknown, and the interval would have
    /// no width ([`Pentanomial::elo`] still gives the estimate). Interval ends at a score of
    /// 0 or 1 are infinite.
    pub fn elo_interval(&self) -> Option<(f64, f64, f64)> {
        let (mean, var) = self.mean_variance()?;
        if self.pairs() < 2 || var <= 0.0 {
            return None;
        }
        let se = (var / self.pairs() as f64).sqrt();
        let lo = (mean - Z95 * se).clamp(0.0, 1.0);
        let hi = (mean + Z95 * se).clamp(0.0, 1.0);
        Some((elo_from_score(lo), elo_from_score(mean), elo_from_score(hi)))
    }

    /// The normalised Elo difference with its 95% interval, `(low, nelo, high)`: the pair
    /// mean's distance from 0.5 in per-game standard deviations (a pair's deviation times
    /// sqrt 2), times [`NELO_PER_T`], as fishtest and fastchess compute it from pentanomial
    /// counts; the interval is `nelo +- Z95 * NELO_PER_T / sqrt(2 * pairs)`. `None` without
    /// pairs or when every pair scored the same (no variance).
    pub fn normalized_elo_interval(&self) -> Option<(f64, f64, f64)> {
        let (mean, var) = self.mean_variance()?;
        if var <= 0.0 {
            return None;
        }
        let nelo = (mean - 0.5) / (2.0 * var).sqrt() * NELO_PER_T;
        let half = Z95 * NELO_PER_T / (2.0 * self.pairs() as f64).sqrt();
        Some((nelo - half, nelo, nelo + half))
    }

    /// The likelihood of superiority: the probability, under the normal approximation of the
    /// pair mean, that the first engine is the stronger (0 to 1). `None` without pairs.
    pub fn los(&self) -> Option<f64> {
        let (mean, var) = self.mean_variance()?;
        let se = (var / self.pairs() as f64).sqrt();
        if se == 0.0 {
            return Some(match mean.partial_cmp(&0.5) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Less) => 0.0,
                _ => 0.5,
            });
        }
        Some(0.5 * (1.0 + libm::erf((mean - 0.5) / (se * std::f64::consts::SQRT_2))))
    }

    /// The SPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) over pairs, with the
    /// bounds read in `model`. 0 without pairs.
    pub fn llr(&self, elo0: f64, elo1: f64, model: EloModel) -> f64 {
        const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
        if self.pairs() == 0 {
            return 0.0;
        }
        match model {
            EloModel::Logistic => llr_logistic(&SCORES, &self.0, elo0, elo1),
            // A pair's mean has half the per-game variance: t per pair is t per game * sqrt 2.
            EloModel::Normalized => {
                let t = |e: f64| std::f64::consts::SQRT_2 * e / NELO_PER_T;
                llr_normalized(&SCORES, &self.0, t(elo0), t(elo1))
            }
        }
    }
}

/// Win/draw/loss counts of single games (the trinomial model).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Trinomial {
    /// Records a game in which the first engine scored `points` (1 a win, 0 a loss, anything
    /// between a draw).
    pub fn add(&mut self, points: f64) {
        if points >= 1.0 {
            self.wins += 1;
        } else if points <= 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The score as a fraction of a point per game; `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The fraction of games drawn; `None` without games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }

    /// The SPRT log-likelihood ratio over single games (see [`Pentanomial::llr`]); 0 without
    /// games.
    pub fn llr(&self, elo0: f64, elo1: f64, model: EloModel) -> f64 {
        const SCORES: [f64; 3] = [0.0, 0.5, 1.0];
        if self.games() == 0 {
            return 0.0;
        }
        let counts = [self.losses, self.draws, self.wins];
        match model {
            EloModel::Logistic => llr_logistic(&SCORES, &counts, elo0, elo1),
            EloModel::Normalized => {
                llr_normalized(&SCORES, &counts, elo0 / NELO_PER_T, elo1 / NELO_PER_T)
            }
        }
    }
}

/// The empirical distribution of `counts` with empty categories given 0.001 games:
/// `(total, frequencies)`.
fn regularized<const N: usize>(counts: &[u64; N]) -> (f64, [f64; N]) {
    let c = counts.map(|c| if c == 0 { 1e-3 } else { c as f64 });
    let total: f64 = c.iter().sum();
    (total, c.map(|x| x / total))
}

/// The root of `f`, decreasing on the open interval `(lo, hi)` with a sign change, by
/// bisection (never evaluated at the ends, where it may be infinite).
fn decreasing_root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The distribution closest to `freq` (maximum likelihood) among those giving `d_i` an
/// expectation of 0: `p_i = freq_i / (1 + theta d_i)`, with theta solving
/// `sum freq_i d_i / (1 + theta d_i) = 0` (it then sums to 1 by itself). Needs
/// `min d < 0 < max d`.
fn tilted<const N: usize>(freq: &[f64; N], d: &[f64; N]) -> [f64; N] {
    let (min, max) = d
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let g = |theta: f64| -> f64 { (0..N).map(|i| freq[i] * d[i] / (1.0 + theta * d[i])).sum() };
    let theta = decreasing_root(g, -1.0 / max, -1.0 / min);
    std::array::from_fn(|i| freq[i] / (1.0 + theta * d[i]))
}

/// `total * sum freq_i ln(p1_i / p0_i)`; 0 when a hypothesis has no distribution (a bound
/// no mix of these scores can reach), so such a test never stops on it.
fn llr_of<const N: usize>(total: f64, freq: &[f64; N], p0: &[f64; N], p1: &[f64; N]) -> f64 {
    let llr = total * (0..N).map(|i| freq[i] * (p1[i] / p0[i]).ln()).sum::<f64>();
    if llr.is_finite() {
        llr
    } else {
        0.0
    }
}

/// LLR with logistic Elo bounds: each hypothesis is the maximum-likelihood distribution whose
/// expected score is the bound's logistic score.
fn llr_logistic<const N: usize>(scores: &[f64; N], counts: &[u64; N], e0: f64, e1: f64) -> f64 {
    let (total, freq) = regularized(counts);
    let at = |s: f64| tilted(&freq, &scores.map(|a| a - s));
    llr_of(
        total,
        &freq,
        &at(score_from_elo(e0)),
        &at(score_from_elo(e1)),
    )
}

/// LLR with normalised bounds given as t-values `(mean - 0.5) / sigma` of one sample: each
/// hypothesis is the maximum-likelihood distribution with that t-value, found by the fixed
/// point iteration of Van den Bergh's section 4.1 (from the uniform distribution).
fn llr_normalized<const N: usize>(scores: &[f64; N], counts: &[u64; N], t0: f64, t1: f64) -> f64 {
    let (total, freq) = regularized(counts);
    let at = |t: f64| -> [f64; N] {
        let mut p = [1.0 / N as f64; N];
        for _ in 0..100 {
            let mu: f64 = (0..N).map(|i| p[i] * scores[i]).sum();
            let var: f64 = (0..N).map(|i| p[i] * (scores[i] - mu).powi(2)).sum();
            let sigma = var.sqrt();
            let phi =
                scores.map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)));
            let next = tilted(&freq, &phi);
            let change = (0..N).fold(0.0f64, |m, i| m.max((next[i] - p[i]).abs()));
            p = next;
            if change < 1e-12 {
                break;
            }
        }
        p
    };
    llr_of(total, &freq, &at(t0), &at(t1))
}

/// The SPRT stopping bounds `(lower, upper)` = `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`:
/// H0 is accepted at or below `lower`, H1 at or above `upper`.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_known_values() {
        assert!(close(elo_from_score(0.75), 190.849, 1e-3));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.25), -190.849, 1e-3));
        assert!(close(score_from_elo(190.849_4), 0.75, 1e-6));
    }

    #[test]
    fn bounds_known_values() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!(close(lo, -2.944, 1e-3) && close(hi, 2.944, 1e-3));
    }

    #[test]
    fn pentanomial_mean_variance_and_interval() {
        // Every pair split 1-1: mean 0.5, no variance: 0 Elo and no interval (not one of
        // no width), as with a single pair.
        let p = Pentanomial([0, 0, 10, 0, 0]);
        assert_eq!(p.mean_variance(), Some((0.5, 0.0)));
        assert_eq!((p.elo(), p.elo_interval()), (Some(0.0), None));
        let one = Pentanomial([0, 0, 0, 1, 0]);
        assert!(close(one.elo().unwrap(), 190.849, 1e-3));
        assert_eq!(one.elo_interval(), None);
        assert_eq!(Pentanomial::default().elo(), None);
        // Half the pairs 2-0, half 1-1: mean 0.75, variance 0.0625, standard error 0.025
        let p = Pentanomial([0, 0, 50, 0, 50]);
        let (mean, var) = p.mean_variance().unwrap();
        assert!(close(mean, 0.75, 1e-12) && close(var, 0.0625, 1e-12));
        let (lo, e, hi) = p.elo_interval().unwrap();
        // se = 0.25 / 10 = 0.025; scores 0.75 -/+ 0.049: 0.70101 and 0.79899.
        assert!(close(e, 190.849, 1e-3));
        assert!(close(lo, elo_from_score(0.75 - Z95 * 0.025), 1e-9));
        assert!(close(lo, 148.02, 0.01), "{lo}");
        assert!(close(hi, 239.74, 0.01), "{hi}");
    }

    #[test]
    fn normalized_elo_and_los() {
        // Pairs 1.5 and 0.5 points half each: mean 0.5, variance 0.0625: nElo 0, LOS 50%.
        let p = Pentanomial([0, 50, 0, 50, 0]);
        let (lo, e, hi) = p.normalized_elo_interval().unwrap();
        assert!(close(e, 0.0, 1e-12));
        // Half width: 1.96 * 347.44 / sqrt(200) = 48.151.
        assert!(close(hi, 48.151, 1e-3) && close(lo, -48.151, 1e-3), "{hi}");
        assert!(close(p.los().unwrap(), 0.5, 1e-12));
        // 60 pairs 1.5, 40 pairs 0.5: mean 0.55, pair variance 0.06: nElo = 0.05 /
        // sqrt(0.12) * 347.44 = 50.15; se = sqrt(0.06 / 100) = 0.0245, LOS = Phi(2.041).
        let p = Pentanomial([0, 40, 0, 60, 0]);
        let (_, e, _) = p.normalized_elo_interval().unwrap();
        assert!(close(e, 50.148, 1e-3), "{e}");
        assert!(close(p.los().unwrap(), 0.979_38, 1e-4), "{:?}", p.los());
        assert_eq!(Pentanomial([0, 0, 9, 0, 0]).normalized_elo_interval(), None);
        assert_eq!(Pentanomial([0, 0, 0, 0, 9]).los(), Some(1.0));
        assert_eq!(Pentanomial::default().los(), None);
        let t = Trinomial {
            wins: 1,
            draws: 2,
            losses: 1,
        };
        assert_eq!(t.draw_ratio(), Some(0.5));
    }

    /// LLRs shown by fishtest (tests.stockfishchess.org) for finished SPRTs with normalised
    /// bounds, to the two decimals it prints: `(pentanomial, elo0, elo1, llr)`.
    const FISHTEST: &[([u64; 5], f64, f64, f64)] = &[
        ([19, 4020, 10316, 4215, 24], -1.75, 0.25, 2.94),
        ([103, 3851, 8316, 3728, 98], 0.0, 2.0, -2.03),
        ([291, 10353, 21899, 10175, 306], 0.0, 2.0, -3.08),
        ([99, 3323, 8399, 3606, 109], 0.0, 2.0, 2.98),
        ([2, 40, 72, 14, 0], 0.0, 2.0, -0.36),
        ([326, 12015, 26044, 12357, 362], 0.0, 2.0, 2.93),
        ([900, 30596, 67292, 30899, 809], 0.0, 2.0, -2.96),
        ([45, 8506, 25934, 8883, 57], 0.5, 2.5, 2.94),
        ([14, 6935, 20257, 7273, 30], 0.5, 2.5, 2.95),
        ([105, 19880, 51075, 20005, 108], 0.5, 2.5, -2.94),
        ([41, 5118, 12924, 5334, 31], -1.75, 0.25, 2.94),
    ];

    #[test]
    fn normalized_llr_matches_fishtest() {
        for &(penta, elo0, elo1, want) in FISHTEST {
            let got = Pentanomial(penta).llr(elo0, elo1, EloModel::Normalized);
            assert!(close(got, want, 0.006), "{penta:?}: {got} vs {want}");
        }
    }

    #[test]
    fn small_samples_are_regularised() {
        // Tiny samples give small finite LLRs of the right sign (the values shown by
        // fishtest-compatible tools for these counts, to two decimals).
        let cases: &[([u64; 5], f64)] = &[
            ([0, 0, 0, 0, 3], 0.02),
            ([3, 0, 0, 0, 0], -0.02),
            ([0, 0, 0, 0, 10], 0.08),
            ([10, 0, 0, 0, 0], -0.08),
            ([0, 2, 4, 6, 10], 0.13),
            ([10, 6, 4, 2, 0], -0.13),
            ([10, 5, 2, 5, 10], 0.0),
        ];
        for &(penta, want) in cases {
            let got = Pentanomial(penta).llr(-1.75, 0.25, EloModel::Normalized);
            assert!(close(got, want, 0.006), "{penta:?}: {got} vs {want}");
        }
        // Without any variance the plain normal approximation is undefined; here every pair
        // drawn 1-1 is evidence for neither bound being far from 0 and stays finite.
        let draws = Pentanomial([0, 0, 40, 0, 0]);
        assert!(draws.llr(0.0, 5.0, EloModel::Logistic).is_finite());
        assert!(draws.llr(0.0, 5.0, EloModel::Normalized).is_finite());
        assert_eq!(
            Pentanomial::default().llr(0.0, 5.0, EloModel::Logistic),
            0.0
        );
        assert_eq!(
            Trinomial::default().llr(0.0, 5.0, EloModel::Normalized),
            0.0
        );
    }

    #[test]
    fn logistic_llr_agrees_with_the_normal_approximation_on_large_samples() {
        // For many pairs the exact LLR tends to N (s1 - s0) (2 mean - s0 - s1) / (2 var).
        let p = Pentanomial([1000, 4000, 10000, 4500, 1200]);
        let (mean, var) = p.mean_variance().unwrap();
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(5.0));
        let approx = p.pairs() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let exact = p.llr(0.0, 5.0, EloModel::Logistic);
        assert!(approx > 3.0, "{approx}");
        assert!(close(exact, approx, 0.01 * approx), "{exact} vs {approx}");
        // The mirrored result gives the mirrored evidence about the mirrored bounds.
        let m = Pentanomial([1200, 4500, 10000, 4000, 1000]);
        assert!(close(m.llr(0.0, -5.0, EloModel::Logistic), exact, 1e-6));
        // Trinomial: 300 W 400 D 300 L (mean 0.5, var 0.15) against 0 and 5 Elo.
        let t = Trinomial {
            wins: 300,
            draws: 400,
            losses: 300,
        };
        let approx = -1000.0 * (s1 - s0).powi(2) / (2.0 * 0.15);
        assert!(close(
            t.llr(0.0, 5.0, EloModel::Logistic),
            approx,
            0.01 * approx.abs()
        ));
    }
}
