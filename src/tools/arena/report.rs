//! The outcome of a match (or of merged shards): the games, their tallies, the statistics and
//! the summary printed on stdout.

use crate::variants::GameResult;

use super::referee::GameRecord;
use super::spec::Sprt;
use super::stats::{self, Pentanomial, Trinomial};

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Game number, from 0 (games `2k` and `2k+1` form pair `k`).
    pub index: usize,
    /// Whether the first engine had White.
    pub first_is_white: bool,
    /// The game itself.
    pub record: GameRecord,
}

impl PlayedGame {
    /// Points (0, 0.5 or 1) the first engine scored.
    pub fn first_points(&self) -> f64 {
        match (self.record.result, self.first_is_white) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 1.0,
            _ => 0.0,
        }
    }
}

/// The SPRT's state: the LLR, its bounds and what they say.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtState {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// H0 is accepted at or below this bound.
    pub lower: f64,
    /// H1 is accepted at or above this bound.
    pub upper: f64,
}

impl SprtState {
    /// The SPRT of `sprt` over `pairs`.
    pub fn of(pairs: &Pentanomial, sprt: &Sprt) -> SprtState {
        let (lower, upper) = stats::sprt_bounds(sprt.alpha, sprt.beta);
        SprtState {
            llr: pairs.llr(sprt.elo0, sprt.elo1, sprt.model),
            lower,
            upper,
        }
    }

    /// `H1` or `H0` once the LLR left its bounds, else `continue`.
    pub fn verdict(&self) -> &'static str {
        if self.llr >= self.upper {
            "H1"
        } else if self.llr <= self.lower {
            "H0"
        } else {
            "continue"
        }
    }

    /// Whether the test has decided.
    pub fn decided(&self) -> bool {
        self.verdict() != "continue"
    }
}

/// The outcome of a match.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// The games, in game order (empty for merged shard results).
    pub games: Vec<PlayedGame>,
    /// Wins, draws and losses of the first engine.
    pub wdl: Trinomial,
    /// Pair statistics (complete pairs only) from the first engine's point of view.
    pub pairs: Pentanomial,
    /// The SPRT, when one was asked for.
    pub sprt: Option<SprtState>,
    /// Why the match stopped before its last game (an engine crashed without `--recover`, or
    /// the SPRT decided).
    pub stopped: Option<String>,
    /// True when an engine fault, or a PGN or result file that could not be written, stopped
    /// the match (the CLI then exits with an error).
    pub aborted: bool,
    /// The games an earlier run of the match finished (`--resume`), counted in `wdl` and
    /// `pairs` but not in `games`: `(game index, points of the first engine)`.
    pub resumed: Vec<(usize, f64)>,
}

/// `+12.3`, with a negative zero shown as `+0.0`.
fn signed(x: f64) -> String {
    format!("{:+.1}", x + 0.0)
}

/// `[low, high]` of an interval, `inf` for an unbounded end.
fn interval(lo: f64, hi: f64) -> String {
    format!("[{}, {}]", signed(lo), signed(hi))
}

impl MatchReport {
    /// A one-line state of the match after `played` of `total` games, for the live progress
    /// line: games, W-D-L, Elo with its 95% interval and, with an SPRT, the LLR and its bounds.
    pub fn status_line(&self, played: usize, total: usize, sprt: Option<&Sprt>) -> String {
        let w = &self.wdl;
        let mut s = format!(
            "Games {played}/{total}  W-D-L {}-{}-{}",
            w.wins, w.draws, w.losses
        );
        if let Some(score) = w.score() {
            s.push_str(&format!("  Score {:.1}%", score * 100.0));
        }
        match (self.pairs.elo_interval(), self.pairs.elo()) {
            (Some((lo, e, hi)), _) => {
                s.push_str(&format!("  Elo {} {}", signed(e), interval(lo, hi)))
            }
            (None, Some(e)) => s.push_str(&format!("  Elo {}", signed(e))),
            (None, None) => s.push_str("  Elo n/a"),
        }
        if let Some(sprt) = sprt {
            let st = SprtState::of(&self.pairs, sprt);
            s.push_str(&format!(
                "  LLR {:.2} [{:.2}, {:.2}]",
                st.llr, st.lower, st.upper
            ));
        }
        s
    }

    /// The final summary printed on stdout: W/D/L, draw ratio, score, Elo and normalised Elo
    /// with 95% intervals, LOS, the pentanomial counts and, with an SPRT, the LLR.
    pub fn summary(&self, names: [&str; 2]) -> String {
        let mut s = String::new();
        let w = &self.wdl;
        s.push_str(&format!("Match: {} vs {}\n", names[0], names[1]));
        s.push_str(&format!(
            "Games: {}  W: {}  D: {}  L: {}  (from {}'s view)\n",
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            names[0]
        ));
        if let (Some(score), Some(dr)) = (w.score(), w.draw_ratio()) {
            s.push_str(&format!(
                "Score: {:.1}%  Draw ratio: {:.1}%\n",
                score * 100.0,
                dr * 100.0
            ));
        }
        let pairs = self.pairs.pairs();
        match (self.pairs.elo_interval(), self.pairs.elo()) {
            (Some((lo, e, hi)), _) => s.push_str(&format!(
                "Elo: {} {} (95%, {pairs} pairs)\n",
                signed(e),
                interval(lo, hi)
            )),
            (None, Some(e)) if pairs < 2 => s.push_str(&format!(
                "Elo: {} (no interval: one pair says nothing of the spread)\n",
                signed(e)
            )),
            (None, Some(e)) => s.push_str(&format!(
                "Elo: {} (no interval: all {pairs} pairs scored the same)\n",
                signed(e)
            )),
            (None, None) => s.push_str("Elo: n/a (no complete pair)\n"),
        }
        match self.pairs.normalized_elo_interval() {
            Some((lo, e, hi)) => {
                s.push_str(&format!("nElo: {} {} (95%)\n", signed(e), interval(lo, hi)))
            }
            None => s.push_str("nElo: n/a (no variance between pairs)\n"),
        }
        if let Some(los) = self.pairs.los() {
            s.push_str(&format!("LOS: {:.1}%\n", los * 100.0));
        }
        s.push_str(&format!(
            "Pentanomial [0, 0.5, 1, 1.5, 2]: {:?}\n",
            self.pairs.0
        ));
        if let Some(st) = self.sprt {
            let verdict = match st.verdict() {
                "H1" => "H1 accepted",
                "H0" => "H0 accepted",
                _ => "inconclusive",
            };
            s.push_str(&format!(
                "LLR: {:.3} [{:.3}, {:.3}] {verdict}\n",
                st.llr, st.lower, st.upper
            ));
        }
        if let Some(why) = &self.stopped {
            s.push_str(&format!("Stopped: {why}\n"));
        }
        s
    }
}
