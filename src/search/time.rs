//! Time management: a soft limit (no new iteration past it, scaled by best-move stability) and
//! a hard limit (abort mid-iteration), both in milliseconds from the start of the search, or
//! from `ponderhit` when the search began as a ponder search.

use crate::core::Color;

use std::sync::Arc;

use super::clock::Clock;
use super::params::SearchParams;
use super::score::is_mate;
use super::Limits;

/// Time limits of one search, read on a [`Clock`]. `None` limits never stop the search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    /// The time source.
    clock: Arc<dyn Clock>,
    /// When the clock for this turn started (search start, or `ponderhit`), in the clock's ms.
    start: u64,
    /// Don't start an iteration after this many ms (before stability scaling).
    soft_ms: Option<u64>,
    /// Abort the running iteration after this many ms.
    hard_ms: Option<u64>,
}

impl TimeManager {
    /// Limits for `side` to move under `limits`, keeping `overhead_ms` back for I/O, with the
    /// time parameters of `p`, counted on `clock` from now.
    pub fn new(
        limits: &Limits,
        side: Color,
        overhead_ms: u64,
        p: &SearchParams,
        clock: Arc<dyn Clock>,
    ) -> Self {
        let start = clock.now_ms();
        if limits.infinite {
            return TimeManager {
                clock,
                start,
                soft_ms: None,
                hard_ms: None,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead_ms).max(1);
            return TimeManager {
                clock,
                start,
                soft_ms: Some(t),
                hard_ms: Some(t),
            };
        }
        let (time, inc) = match side {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeManager {
                clock,
                start,
                soft_ms: None,
                hard_ms: None,
            };
        };
        let inc = inc.unwrap_or(0);
        let available = time.saturating_sub(overhead_ms).max(1);
        let mtg = limits
            .movestogo
            .map(|m| (m as u64).clamp(1, 50))
            .unwrap_or(p.time_default_mtg.max(1));
        let max = (available * p.time_max_permille / 1000).max(1);
        // With movestogo 1 we may use nearly everything left.
        let max = if mtg == 1 {
            (available * 9 / 10).max(1)
        } else {
            max
        };
        let soft = (available / mtg + inc * p.time_inc_permille / 1000)
            .min(max / 2)
            .max(1);
        let hard = (soft * p.time_hard_permille / 1000).min(max).max(1);
        TimeManager {
            clock,
            start,
            soft_ms: Some(soft),
            hard_ms: Some(hard),
        }
    }

    /// Restarts the clock now (on `ponderhit`).
    pub fn restart(&mut self) {
        self.start = self.clock.now_ms();
    }

    /// Milliseconds since the clock started.
    pub fn elapsed_ms(&self) -> u64 {
        self.clock.now_ms().saturating_sub(self.start)
    }

    /// Whether the search has any time limit at all.
    pub fn is_timed(&self) -> bool {
        self.hard_ms.is_some()
    }

    /// Whether the running iteration must be aborted now.
    pub fn hard_expired(&self) -> bool {
        self.hard_ms.is_some_and(|h| self.elapsed_ms() >= h)
    }

    /// Whether a new iteration should not start, given `stability_permille` (1000: neutral;
    /// more when the best move keeps changing, less when it is stable).
    pub fn soft_expired(&self, stability_permille: u64) -> bool {
        match (self.soft_ms, self.hard_ms) {
            (Some(s), Some(h)) => self.elapsed_ms() >= (s * stability_permille / 1000).min(h),
            _ => false,
        }
    }
}

/// The soft-limit scale (permille, 1000 neutral) for the main thread after an iteration: from
/// the stability of the best move (`stable`: iterations it has not changed) and the trend of
/// the score (`prev`: the previous iteration's score, `score`: this one's, internal scores from
/// the root's side to move). Thinking goes on longer while the best move keeps changing or the
/// score falls, and stops sooner once both are settled. Mate scores have no trend.
pub fn think_scale(p: &SearchParams, stable: u64, prev: Option<i32>, score: i32) -> u64 {
    let unstable = p.time_unstable_permille;
    let stability = unstable
        .saturating_sub(stable * unstable.saturating_sub(p.time_stable_permille) / 4)
        .max(p.time_stable_permille);
    let fall = match prev {
        Some(prev) if !is_mate(prev) && !is_mate(score) && score < prev => (prev - score) as u64,
        _ => 0,
    };
    let trend = (1000 + fall * p.time_falling_per_cp).min(p.time_falling_max_permille.max(1000));
    stability * trend / 1000
}

#[cfg(test)]
mod tests {
    use super::super::clock::RealClock;
    use super::super::params::PARAMS;
    use super::*;

    #[test]
    fn limits_are_within_the_clock() {
        let l = Limits {
            wtime: Some(10_000),
            winc: Some(100),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, Color::White, 10, &PARAMS, Arc::new(RealClock));
        let (s, h) = (tm.soft_ms.unwrap(), tm.hard_ms.unwrap());
        assert!(s > 100 && s < 1000, "soft {s}");
        assert!(h >= s && h <= 6000, "hard {h}");
        // Almost flagged: never plan past what is left.
        let l = Limits {
            btime: Some(30),
            binc: Some(100),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, Color::Black, 10, &PARAMS, Arc::new(RealClock));
        assert!(tm.hard_ms.unwrap() <= 20);
        let l = Limits {
            movetime: Some(500),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, Color::Black, 10, &PARAMS, Arc::new(RealClock));
        assert_eq!((tm.soft_ms, tm.hard_ms), (Some(490), Some(490)));
        let l = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert!(!TimeManager::new(&l, Color::White, 10, &PARAMS, Arc::new(RealClock)).is_timed());
    }

    #[test]
    fn think_scale_follows_move_and_score() {
        let p = PARAMS;
        // A new best move: think longer; a best move stable for four iterations: shorter.
        assert_eq!(think_scale(&p, 0, None, 0), p.time_unstable_permille);
        assert_eq!(think_scale(&p, 4, Some(30), 30), p.time_stable_permille);
        assert_eq!(think_scale(&p, 9, Some(30), 30), p.time_stable_permille);
        let mid = think_scale(&p, 2, Some(30), 30);
        assert!(mid < p.time_unstable_permille && mid > p.time_stable_permille);
        // A rising score changes nothing; a falling one lengthens the think, up to a cap.
        assert_eq!(think_scale(&p, 4, Some(30), 80), p.time_stable_permille);
        let fell = think_scale(&p, 4, Some(30), 0);
        assert_eq!(
            fell,
            p.time_stable_permille * (1000 + 30 * p.time_falling_per_cp) / 1000
        );
        let collapsed = think_scale(&p, 4, Some(30), -500);
        assert_eq!(
            collapsed,
            p.time_stable_permille * p.time_falling_max_permille / 1000
        );
        assert!(fell > p.time_stable_permille && collapsed >= fell);
        // Mate scores have no trend.
        let mated = super::super::score::mated_in(7);
        assert_eq!(think_scale(&p, 4, Some(30), mated), p.time_stable_permille);
    }
}
