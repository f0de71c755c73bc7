//! Draw and resign adjudication from the scores the engines report (fastchess's `-draw` and
//! `-resign`): a game is drawn once both engines have called it level for long enough, and won
//! once one engine calls itself lost and the other calls itself won for long enough. Built-in
//! players report no score, so a game with one is never adjudicated this way.

use thiserror::Error;

use crate::search::Score;
use crate::variants::GameResult;

/// `--draw movenumber=N movecount=M score=S`: draw when, from full move `N` on, the last `M`
/// turns of each engine (`2M` turns in a row) all scored within `S` centipawns of 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The full move (counted from 0 at the game's start position, book turns included) from
    /// which turns count.
    pub move_number: u32,
    /// Turns of each engine in a row.
    pub move_count: u32,
    /// The largest absolute score, in centipawns, that counts as level.
    pub score_cp: i32,
}

/// `--resign movecount=M score=S`: a win when one engine scored `-S` centipawns or worse for
/// its last `M` turns and the other `+S` or better for its last `M` turns (both agree).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Turns of each engine in a row.
    pub move_count: u32,
    /// The score threshold, in centipawns (positive).
    pub score_cp: i32,
}

/// Why a `--draw` or `--resign` value was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AdjudicationError {
    /// A word that is not `<key>=<number>` with a key the rule knows.
    #[error("bad {rule} setting '{word}': expected {expected}")]
    Setting {
        /// `--draw` or `--resign`.
        rule: &'static str,
        /// The word at fault.
        word: String,
        /// The keys the rule takes.
        expected: &'static str,
    },
    /// A required key missing.
    #[error("{rule} needs {key}=")]
    Missing {
        /// `--draw` or `--resign`.
        rule: &'static str,
        /// The missing key.
        key: &'static str,
    },
}

/// Reads `key=value` words (whitespace or comma separated) with the keys `keys`; values are
/// non-negative integers.
fn parse_words<const N: usize>(
    text: &str,
    rule: &'static str,
    keys: [&'static str; N],
    expected: &'static str,
) -> Result<[Option<u32>; N], AdjudicationError> {
    let mut v = [None; N];
    for word in text.split(|c: char| c.is_whitespace() || c == ',') {
        if word.is_empty() {
            continue;
        }
        let bad = || AdjudicationError::Setting {
            rule,
            word: word.to_string(),
            expected,
        };
        let (k, val) = word.split_once('=').ok_or_else(bad)?;
        let i = keys.iter().position(|n| *n == k).ok_or_else(bad)?;
        v[i] = Some(
            val.parse::<u32>()
                .ok()
                .filter(|&x| x <= 100_000)
                .ok_or_else(bad)?,
        );
    }
    Ok(v)
}

impl DrawRule {
    /// Parses `movenumber=<N> movecount=<M> score=<cp>` (any order; `movenumber` defaults to
    /// 0; `movecount` at least 1).
    ///
    /// Errors: [`AdjudicationError`].
    pub fn parse(text: &str) -> Result<DrawRule, AdjudicationError> {
        const EXPECTED: &str = "movenumber=<full moves> movecount=<turns, at least 1> score=<cp>";
        let [n, m, s] = parse_words(
            text,
            "--draw",
            ["movenumber", "movecount", "score"],
            EXPECTED,
        )?;
        let missing = |key| AdjudicationError::Missing {
            rule: "--draw",
            key,
        };
        let move_count = m.ok_or(missing("movecount"))?;
        if move_count == 0 {
            return Err(AdjudicationError::Setting {
                rule: "--draw",
                word: "movecount=0".into(),
                expected: EXPECTED,
            });
        }
        Ok(DrawRule {
            move_number: n.unwrap_or(0),
            move_count,
            score_cp: s.ok_or(missing("score"))? as i32,
        })
    }
}

impl ResignRule {
    /// Parses `movecount=<M> score=<cp>` (any order; both at least 1).
    ///
    /// Errors: [`AdjudicationError`].
    pub fn parse(text: &str) -> Result<ResignRule, AdjudicationError> {
        const EXPECTED: &str = "movecount=<turns, at least 1> score=<cp, at least 1>";
        let [m, s] = parse_words(text, "--resign", ["movecount", "score"], EXPECTED)?;
        let missing = |key| AdjudicationError::Missing {
            rule: "--resign",
            key,
        };
        let (move_count, score) = (m.ok_or(missing("movecount"))?, s.ok_or(missing("score"))?);
        if move_count == 0 || score == 0 {
            return Err(AdjudicationError::Setting {
                rule: "--resign",
                word: text.trim().to_string(),
                expected: EXPECTED,
            });
        }
        Ok(ResignRule {
            move_count,
            score_cp: score as i32,
        })
    }
}

/// A score as centipawns for the thresholds: a mate is beyond any of them.
fn centipawns(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => cp as i64,
        Score::Mate(n) if n > 0 => i64::MAX / 2,
        Score::Mate(_) => i64::MIN / 2,
    }
}

/// The adjudication state of one game: runs of turns meeting each threshold.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    /// Turns in a row (both sides) scored level.
    level_run: u32,
    /// Own turns in a row each side (`[white, black]`) scored itself lost.
    losing: [u32; 2],
    /// Own turns in a row each side scored itself won.
    winning: [u32; 2],
}

impl Tracker {
    /// A tracker for one game under the given rules (either may be absent).
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Tracker {
        Tracker {
            draw,
            resign,
            ..Tracker::default()
        }
    }

    /// Records the turn side `side` (0 White, 1 Black) just played, the `turn`-th of the game
    /// (from 0, book turns included), with the score its engine reported from its own point
    /// of view (`None`: no score, which breaks every run).
    pub fn record(&mut self, side: usize, turn: usize, score: Option<Score>) {
        let cp = score.map(centipawns);
        if let Some(rule) = self.draw {
            let counts = turn >= 2 * rule.move_number as usize;
            match cp {
                Some(cp) if counts && cp.abs() <= rule.score_cp as i64 => self.level_run += 1,
                _ => self.level_run = 0,
            }
        }
        if let Some(rule) = self.resign {
            let s = rule.score_cp as i64;
            let (lost, won) = match cp {
                Some(cp) => (cp <= -s, cp >= s),
                None => (false, false),
            };
            self.losing[side] = if lost { self.losing[side] + 1 } else { 0 };
            self.winning[side] = if won { self.winning[side] + 1 } else { 0 };
        }
    }

    /// The adjudicated result and its reason, once a rule applies.
    pub fn verdict(&self) -> Option<(GameResult, String)> {
        if let Some(rule) = self.resign {
            for loser in 0..2 {
                let m = rule.move_count;
                if self.losing[loser] >= m && self.winning[1 - loser] >= m {
                    let (name, result) = if loser == 0 {
                        ("white", GameResult::BlackWins)
                    } else {
                        ("black", GameResult::WhiteWins)
                    };
                    return Some((
                        result,
                        format!(
                            "resign adjudication: {name} scored -{} cp or worse for {m} turns, its opponent agreeing",
                            rule.score_cp
                        ),
                    ));
                }
            }
        }
        if let Some(rule) = self.draw {
            if self.level_run >= 2 * rule.move_count {
                return Some((
                    GameResult::Draw,
                    format!(
                        "draw adjudication: both engines scored within {} cp for {} turns each",
                        rule.score_cp, rule.move_count
                    ),
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse() {
        assert_eq!(
            DrawRule::parse("movenumber=40 movecount=8 score=10"),
            Ok(DrawRule {
                move_number: 40,
                move_count: 8,
                score_cp: 10
            })
        );
        assert_eq!(
            DrawRule::parse("movecount=2,score=0").unwrap().move_number,
            0
        );
        assert!(matches!(
            DrawRule::parse("movenumber=4 score=5"),
            Err(AdjudicationError::Missing {
                key: "movecount",
                ..
            })
        ));
        for bad in [
            "movecount=x score=1",
            "moves=3 score=1",
            "movecount=0 score=3",
            "score",
        ] {
            assert!(DrawRule::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            ResignRule::parse("movecount=3 score=600"),
            Ok(ResignRule {
                move_count: 3,
                score_cp: 600
            })
        );
        assert!(ResignRule::parse("movecount=3 score=0").is_err());
        assert!(ResignRule::parse("movecount=3").is_err());
        assert!(ResignRule::parse("movecount=-3 score=5").is_err());
    }

    #[test]
    fn draw_needs_both_sides_level_after_the_move_number() {
        let rule = DrawRule::parse("movenumber=2 movecount=2 score=20").unwrap();
        let mut t = Tracker::new(Some(rule), None);
        // Turns 0-3 are before full move 2: they do not count.
        for turn in 0..4 {
            t.record(turn % 2, turn, Some(Score::Cp(0)));
        }
        assert_eq!(t.verdict(), None);
        for turn in 4..7 {
            t.record(turn % 2, turn, Some(Score::Cp(-15)));
            assert_eq!(t.verdict(), None);
        }
        t.record(1, 7, Some(Score::Cp(20)));
        assert_eq!(t.verdict().unwrap().0, GameResult::Draw);
        // A score out of the window, a mate or a missing score breaks the run.
        for breaker in [Some(Score::Cp(21)), Some(Score::Mate(-3)), None] {
            t.record(0, 8, breaker);
            assert_eq!(t.verdict(), None);
        }
    }

    #[test]
    fn resign_needs_both_engines_to_agree() {
        let rule = ResignRule::parse("movecount=2 score=500").unwrap();
        let mut t = Tracker::new(None, Some(rule));
        // White thinks it is winning, Black does not agree yet.
        t.record(0, 0, Some(Score::Cp(600)));
        t.record(1, 1, Some(Score::Cp(-100)));
        t.record(0, 2, Some(Score::Cp(700)));
        t.record(1, 3, Some(Score::Cp(-500)));
        assert_eq!(t.verdict(), None);
        t.record(0, 4, Some(Score::Mate(3)));
        assert_eq!(t.verdict(), None);
        t.record(1, 5, Some(Score::Mate(-2)));
        let (result, reason) = t.verdict().unwrap();
        assert_eq!(result, GameResult::WhiteWins);
        assert!(reason.contains("black scored -500 cp"), "{reason}");
    }
}
