//! Playing strength below the engine's best (`Skill Level`, `UCI_LimitStrength` / `UCI_Elo`),
//! generic over every variant, in the way of Stockfish's `Skill`:
//!
//! - a **depth cap**: level `L` (0 to 20, fractional under `UCI_Elo`) searches at most
//!   `1 + floor(L)` plies, or one ply more at a fraction `L - floor(L)` of the positions;
//! - **MultiPV**: at least [`SKILL_MULTIPV`] root lines are searched, and the turn played is
//!   chosen among them with a level-dependent handicap: each line's score gets
//!   `(w * (top - score) + delta * r) / 128` added, where `w` is the weakness (`120 - 2L` up to
//!   level 10, then `10 * (20 - L)`, see [`Skill::weakness_x100`]), `top`
//!   the best line's score, `delta = min(top - last line's score, 100 cp)` and `r` a number
//!   drawn in `0..w`; the line with the highest sum is played. Weak levels flatten the score
//!   differences and add more noise.
//!
//! The draw is deterministic: `r` comes from a generator seeded with the level's seed and the
//! position's key, so one position and one setting always give the same turn (tests rely on
//! it; games differ through their positions). Level 20 is the full search, unchanged.

use crate::core::zobrist::SplitMix64;
use crate::search::score::is_mate;

/// The highest level: the unrestricted search.
pub const MAX_LEVEL: u32 = 20;

/// Fewest root lines searched while the strength is limited (Stockfish uses 4).
pub const SKILL_MULTIPV: usize = 4;

/// The largest `delta` of the noise term, in centipawns (a pawn).
const DELTA_CAP: i64 = 100;

/// `UCI_Elo`: the range of the spin, in Elo. The top is the full search's own measured
/// strength (see `ELO_TO_LEVEL`); below the lowest anchor every value plays as level 0.
pub const ELO_RANGE: (i64, i64) = (1000, 2400);

/// `UCI_Elo`: the default of the spin (its lowest value, as Stockfish's).
pub const ELO_DEFAULT: i64 = ELO_RANGE.0;

/// The calibration of `UCI_Elo`: `(Elo, level x 100)` anchors, linear in between and clamped
/// at the ends. Each anchor is the level that played even with Stockfish 15.1 at the same
/// `UCI_Elo` in orthodox chess; level 0 is placed below Stockfish's lowest, 1350, which goes
/// no lower. docs/protocol.md 2, "`UCI_Elo`, calibrated against Stockfish", gives the matches,
/// their results and the commands.
const ELO_TO_LEVEL: &[(u32, u32)] = &[
    (930, 0),
    (1400, 500),
    (1800, 900),
    (2200, 1400),
    (2400, 2000),
];

/// A strength setting: the level in hundredths (0 to 2000) and the seed of its draws.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    /// The level times 100 (0 = weakest, 2000 = the full search).
    pub level_x100: u32,
    /// Seeds the draws (mixed with each position's key).
    pub seed: u64,
}

impl Default for Skill {
    fn default() -> Self {
        Skill::full()
    }
}

impl Skill {
    /// The full strength: the search as it is without a limit.
    pub const fn full() -> Skill {
        Skill {
            level_x100: MAX_LEVEL * 100,
            seed: 0,
        }
    }

    /// `Skill Level` `level` (0 to 20; larger values count as 20).
    pub fn from_level(level: u32) -> Skill {
        Skill {
            level_x100: level.min(MAX_LEVEL) * 100,
            seed: 0,
        }
    }

    /// The level `UCI_Elo` `elo` plays at (see `ELO_TO_LEVEL`; outside the anchors, the
    /// nearest end).
    pub fn from_elo(elo: u32) -> Skill {
        let table = ELO_TO_LEVEL;
        let level_x100 = if elo <= table[0].0 {
            table[0].1
        } else if let Some(w) = table.windows(2).find(|w| elo <= w[1].0) {
            let ((e0, l0), (e1, l1)) = (w[0], w[1]);
            l0 + (l1 - l0) * (elo - e0) / (e1 - e0)
        } else {
            table[table.len() - 1].1
        };
        Skill {
            level_x100: level_x100.min(MAX_LEVEL * 100),
            seed: 0,
        }
    }

    /// The same setting with draws seeded by `seed`.
    pub fn with_seed(self, seed: u64) -> Skill {
        Skill { seed, ..self }
    }

    /// Whether the strength is limited (below level 20).
    pub fn enabled(&self) -> bool {
        self.level_x100 < MAX_LEVEL * 100
    }

    /// The deepest iteration (plies) at this level, at the position with zobrist key `key`:
    /// `1 + floor(level)`, and one ply more with a probability of the level's fraction (so
    /// that a fractional level from `UCI_Elo` plays between its two integer neighbours instead
    /// of as the lower one; the draw is seeded like [`Skill::pick`]'s). `None` at full strength.
    pub fn max_depth(&self, key: u64) -> Option<i32> {
        self.enabled().then(|| {
            let fraction = u64::from(self.level_x100 % 100);
            let draw = SplitMix64::new(self.seed ^ key ^ 0xDE97_DE97_DE97_DE97).next_u64() % 100;
            1 + (self.level_x100 / 100) as i32 + i32::from(draw < fraction)
        })
    }

    /// Root lines to search when the user asked for `multipv`.
    pub fn multipv(&self, multipv: usize) -> usize {
        if self.enabled() {
            multipv.max(SKILL_MULTIPV)
        } else {
            multipv
        }
    }

    /// The weakness `w` of the level, in hundredths: `120 - 2L` up to level 10 (as Stockfish's),
    /// then falling linearly to 0 at level 20 (`10 * (20 - L)`), so that the handicap fades
    /// out towards the full search instead of stopping short of it (with `120 - 2L` throughout,
    /// levels 11 and 17 measured the same, about 1840, and level 20 jumped to the full
    /// strength). At least 1 below level 20.
    pub fn weakness_x100(&self) -> i64 {
        let l = i64::from(self.level_x100);
        let w = if l <= 1000 {
            12_000 - 2 * l
        } else {
            10 * (2000 - l)
        };
        w.max(1)
    }

    /// The index of the line to play among root lines with internal `scores` (centipawns or
    /// mate bookkeeping, best first) at the position with zobrist key `key`. Always 0 at full
    /// strength or with a single line.
    pub fn pick(&self, scores: &[i32], key: u64) -> usize {
        if !self.enabled() || scores.len() < 2 {
            return 0;
        }
        let top = i64::from(scores[0]);
        let last = i64::from(scores[scores.len() - 1]);
        let delta = (top - last).clamp(0, DELTA_CAP);
        let weakness = self.weakness_x100();
        let mut rng = SplitMix64::new(self.seed ^ key ^ 0x5EED_5EED_5EED_5EED);
        let mut best = (i64::MIN, 0);
        for (i, &s) in scores.iter().enumerate() {
            let s = i64::from(s);
            let r = (rng.next_u64() % weakness as u64) as i64;
            // A mate for the side to move is never given away for the noise.
            let push = if is_mate(scores[0]) && scores[0] > 0 {
                0
            } else {
                (weakness * (top - s) + delta * r) / 12_800
            };
            if s + push >= best.0 {
                best = (s + push, i);
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_elo() {
        assert!(!Skill::full().enabled());
        assert!(!Skill::from_level(20).enabled());
        assert_eq!(Skill::from_level(0).max_depth(1), Some(1));
        assert_eq!(Skill::from_level(7).max_depth(2), Some(8));
        assert_eq!(Skill::from_level(20).max_depth(3), None);
        // A fractional level searches one ply more at about its fraction of the positions.
        let level = Skill {
            level_x100: 730,
            seed: 0,
        };
        let deeper = (0..1000u64)
            .filter(|&k| level.max_depth(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)) == Some(9))
            .count();
        assert!((0..1000u64).all(|k| matches!(level.max_depth(k), Some(8 | 9))));
        assert!((250..350).contains(&deeper), "{deeper} of 1000");
        assert_eq!(Skill::from_level(99), Skill::full());
        assert_eq!(Skill::from_level(3).multipv(1), SKILL_MULTIPV);
        assert_eq!(Skill::full().multipv(1), 1);
        // The anchors, between them, and beyond the ends.
        assert_eq!(Skill::from_elo(1400).level_x100, 500);
        assert_eq!(Skill::from_elo(1600).level_x100, 700);
        assert_eq!(Skill::from_elo(2300).level_x100, 1700);
        assert_eq!(Skill::from_elo(0).level_x100, 0);
        assert_eq!(Skill::from_elo(9999), Skill::full());
        let mut last = 0;
        for elo in (ELO_RANGE.0..=ELO_RANGE.1).step_by(10) {
            let l = Skill::from_elo(elo as u32).level_x100;
            assert!(l >= last, "the level grows with the Elo");
            last = l;
        }
    }

    #[test]
    fn picks_are_deterministic_and_weaker_at_low_levels() {
        let scores = [50, 30, 10, -40];
        let full = Skill::full();
        assert_eq!(full.pick(&scores, 7), 0);
        let weak = Skill::from_level(0);
        let strong = Skill::from_level(19);
        let (mut weak_loss, mut strong_loss) = (0, 0);
        for key in 0..2000u64 {
            let w = weak.pick(&scores, key);
            assert_eq!(w, weak.pick(&scores, key), "same key, same pick");
            weak_loss += scores[0] - scores[w];
            strong_loss += scores[0] - scores[strong.pick(&scores, key)];
        }
        assert!(weak_loss > strong_loss, "{weak_loss} vs {strong_loss}");
        assert!(weak_loss > 0);
        // Another seed gives other picks somewhere.
        let other = weak.with_seed(1);
        assert!((0..200u64).any(|k| other.pick(&scores, k) != weak.pick(&scores, k)));
        // A mate in hand is played.
        let mate = [crate::search::score::MATE - 3, 20, 10, 0];
        assert!((0..500u64).all(|k| weak.pick(&mate, k) == 0));
    }
}
