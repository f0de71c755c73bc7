//! Match statistics: Elo from a score, a 95% Elo interval from pentanomial pair statistics, and
//! the SPRT log-likelihood ratio in the normal approximation used by fishtest and fastchess.
//!
//! Scores are fractions of a point per game in `[0, 1]`; Elo differences use the logistic
//! model `score = 1 / (1 + 10^(-elo / 400))`.

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

    /// The Elo difference with its 95% interval, `(low, elo, high)`, from the pair mean and
    /// the standard error of the mean. `None` without pairs. Interval ends at a score of
    /// 0 or 1 are infinite.
    pub fn elo_interval(&self) -> Option<(f64, f64, f64)> {
        let (mean, var) = self.mean_variance()?;
        let se = (var / self.pairs() as f64).sqrt();
        let lo = (mean - Z95 * se).clamp(0.0, 1.0);
        let hi = (mean + Z95 * se).clamp(0.0, 1.0);
        Some((elo_from_score(lo), elo_from_score(mean), elo_from_score(hi)))
    }

    /// The SPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) in the normal
    /// approximation over pairs: `N (s1 - s0) (2 mean - s0 - s1) / (2 var)`, with `s0`, `s1`
    /// the logistic scores of the two Elo bounds. 0 when there is no variance yet.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        match self.mean_variance() {
            Some((mean, var)) if var > 0.0 => {
                llr_normal(self.pairs() as f64, mean, var, elo0, elo1)
            }
            _ => 0.0,
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
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The score as a fraction of a point per game; `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The SPRT log-likelihood ratio over single games (see [`Pentanomial::llr`]); 0 when
    /// there is no variance yet.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.games() as f64;
        let Some(mean) = self.score() else {
            return 0.0;
        };
        let var = (self.wins as f64 * (1.0 - mean).powi(2)
            + self.draws as f64 * (0.5 - mean).powi(2)
            + self.losses as f64 * mean.powi(2))
            / n;
        if var > 0.0 {
            llr_normal(n, mean, var, elo0, elo1)
        } else {
            0.0
        }
    }
}

/// The normal-approximation LLR of `n` samples with the given mean and variance of the
/// per-game score.
fn llr_normal(n: f64, mean: f64, var: f64, elo0: f64, elo1: f64) -> f64 {
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
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
        // Every pair split 1-1: mean 0.5, no variance, a zero-width interval at 0 Elo.
        let p = Pentanomial([0, 0, 10, 0, 0]);
        assert_eq!(p.mean_variance(), Some((0.5, 0.0)));
        let (lo, e, hi) = p.elo_interval().unwrap();
        assert!(close(lo, 0.0, 1e-9) && close(e, 0.0, 1e-9) && close(hi, 0.0, 1e-9));
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
    fn llr_known_values() {
        // Pentanomial [10, 20, 40, 20, 10]: mean 0.5, var 0.075 (of the per-game score of a
        // pair), N = 100; elo0 = 0, elo1 = 5: s1 = 0.507195,
        // LLR = 100 * 0.007195 * (-0.007195) / 0.15 = -0.034513.
        let p = Pentanomial([10, 20, 40, 20, 10]);
        let (mean, var) = p.mean_variance().unwrap();
        assert!(close(mean, 0.5, 1e-12) && close(var, 0.075, 1e-12));
        let s1 = score_from_elo(5.0);
        assert!(close(s1, 0.507_195, 1e-6));
        assert!(
            close(p.llr(0.0, 5.0), -0.034_513, 1e-5),
            "{}",
            p.llr(0.0, 5.0)
        );
        // A strong positive result accepts H1: mean 0.6625, var 0.0392188, LLR 5.6973.
        let p = Pentanomial([0, 5, 40, 40, 15]);
        assert!(
            close(p.llr(0.0, 10.0), 5.697_33, 1e-4),
            "{}",
            p.llr(0.0, 10.0)
        );
        assert!(p.llr(0.0, 10.0) > sprt_bounds(0.05, 0.05).1);
        // Trinomial: 30 W 40 D 30 L: mean 0.5, var 0.15; same sign conventions.
        let t = Trinomial {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        assert!(close(
            t.llr(0.0, 5.0),
            -100.0 * 0.007_195f64.powi(2) / 0.3,
            1e-4
        ));
        assert_eq!(Trinomial::default().llr(0.0, 5.0), 0.0);
        assert_eq!(Pentanomial::default().llr(0.0, 5.0), 0.0);
    }
}
