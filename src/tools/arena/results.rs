//! The JSON result of a match (`menagerie match --json FILE`) and the merge of several
//! (`menagerie match merge A.json B.json ...`): the settings, the first engine's points in
//! every game by pair, the W/D/L and pentanomial counts, the statistics and the SPRT.
//!
//! Merging checks that the files come from one match (equal settings apart from the shard,
//! disjoint pairs) and recomputes every count and statistic from the pairs, so the merge of the
//! N shards of a match gives exactly what the unsharded match gives.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::report::{MatchReport, SprtState};
use super::spec::{EngineSpec, Sprt};
use super::stats::{EloModel, Pentanomial, Trinomial};
use super::MatchConfig;

/// The `format` field of every result file.
pub const FORMAT: &str = "menagerie-match-result 1";

/// One engine of the match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineEntry {
    /// Its name in the PGN and the summary.
    pub name: String,
    /// Its command line (or `builtin:<name>`).
    pub command: String,
    /// Its `option.<Name>=<value>` settings.
    pub options: Vec<(String, String)>,
    /// Its search limit per turn, as an engine word (`nodes=2000`).
    pub limit: String,
}

/// The opening book of the match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningsEntry {
    /// The file as given (not compared when merging).
    pub file: String,
    /// `epd` or `pgn`.
    pub format: String,
    /// `sequential` or `random`.
    pub order: String,
    /// Turns taken from each PGN game, all when absent.
    pub plies: Option<usize>,
    /// Number of openings.
    pub count: usize,
    /// Content fingerprint ([`super::openings::Openings::fingerprint`]).
    pub fingerprint: String,
}

/// The SPRT's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtEntry {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// `normalized` or `logistic`.
    pub model: String,
}

impl SprtEntry {
    fn new(s: &Sprt) -> SprtEntry {
        SprtEntry {
            elo0: s.elo0,
            elo1: s.elo1,
            alpha: s.alpha,
            beta: s.beta,
            model: match s.model {
                EloModel::Normalized => "normalized",
                EloModel::Logistic => "logistic",
            }
            .into(),
        }
    }

    /// The settings as an [`Sprt`].
    ///
    /// Errors: an unknown model name or out-of-range values, as a message.
    pub fn to_sprt(&self) -> Result<Sprt, String> {
        let text = format!(
            "elo0={} elo1={} alpha={} beta={} model={}",
            self.elo0, self.elo1, self.alpha, self.beta, self.model
        );
        Sprt::parse(&text).map_err(|e| e.to_string())
    }
}

/// Everything that decides which games a match plays (the shard aside).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The variant's protocol name.
    pub variant: String,
    /// The two players; results are from the first one's point of view.
    pub engines: [EngineEntry; 2],
    /// Games of the whole (unsharded) match.
    pub games: usize,
    /// The match seed.
    pub seed: u64,
    /// Random turns opening each pair (without a book).
    pub random_plies: usize,
    /// The opening book.
    pub openings: Option<OpeningsEntry>,
    /// The length limit, in turns.
    pub max_turns: usize,
    /// Draw adjudication (`movenumber=.. movecount=.. score=..`).
    pub draw: Option<String>,
    /// Resign adjudication (`movecount=.. score=..`).
    pub resign: Option<String>,
    /// The SPRT (decided on the merged result when sharded).
    pub sprt: Option<SprtEntry>,
}

/// One pair of games: the first engine's points in each game played (game `2 pair` first).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairEntry {
    /// Pair number, from 0.
    pub pair: usize,
    /// Points (0, 0.5, 1) of the first engine in each game of the pair that was played.
    pub points: Vec<f64>,
}

/// Win, draw and loss counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WdlEntry {
    /// Games the first engine won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the first engine lost.
    pub losses: u64,
}

/// The statistics, for readers of the file (a merge recomputes them). An interval end that
/// is infinite (a score of 0% or 100%) is `null`; so are both ends of the Elo interval when
/// there is none (fewer than two pairs, or all pairs scored the same: [`Pentanomial::elo`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatsEntry {
    /// Points per game of the first engine, 0 to 1.
    pub score: Option<f64>,
    /// Fraction of games drawn.
    pub draw_ratio: Option<f64>,
    /// Logistic Elo `[low, elo, high]` (95%).
    pub elo: Option<[Option<f64>; 3]>,
    /// Normalised Elo `[low, nelo, high]` (95%).
    pub nelo: Option<[Option<f64>; 3]>,
    /// Likelihood of superiority, 0 to 1.
    pub los: Option<f64>,
}

/// The SPRT's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtResult {
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound (H0 accepted at or below).
    pub lower: f64,
    /// Upper bound (H1 accepted at or above).
    pub upper: f64,
    /// `H0`, `H1` or `continue`.
    pub verdict: String,
}

/// A match result file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// [`FORMAT`].
    pub format: String,
    /// The match's settings.
    pub settings: Settings,
    /// N of `--shard K/N`, when sharded.
    pub shard_count: Option<usize>,
    /// The K values of the shards this result holds (one for a shard's own file, several after
    /// a merge; empty when unsharded).
    pub shards: Vec<usize>,
    /// W/D/L of the first engine.
    pub wdl: WdlEntry,
    /// Pentanomial counts of the complete pairs: pairs with 0, 0.5, 1, 1.5, 2 points.
    pub pentanomial: [u64; 5],
    /// Every pair with a game played, by pair number.
    pub pairs: Vec<PairEntry>,
    /// The statistics.
    pub stats: StatsEntry,
    /// The SPRT, when the settings have one.
    pub sprt: Option<SprtResult>,
    /// Why a run stopped early, when one did.
    pub stopped: Vec<String>,
    /// The size in bytes of the run's PGN file once the last game counted here was written
    /// to it, when there was one: `--resume` cuts the file back to it, dropping a game written
    /// after the last result file (or cut short by a killed runner), which is played again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgn_bytes: Option<u64>,
}

/// Why result files could not be merged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MergeError {
    /// A file that cannot be read or is not a result file.
    #[error("{file}: {reason}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        reason: String,
    },
    /// Files from different matches, or overlapping ones.
    #[error("{file}: {reason}")]
    Mismatch {
        /// The file that does not fit the first one.
        file: String,
        /// Why.
        reason: String,
    },
    /// Nothing to merge.
    #[error("no result files given")]
    Empty,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// W/D/L and pentanomial counts from pair entries.
pub fn tally(pairs: &[PairEntry]) -> (Trinomial, Pentanomial) {
    let mut wdl = Trinomial::default();
    let mut penta = Pentanomial::default();
    for p in pairs {
        for &x in &p.points {
            wdl.add(x);
        }
        if p.points.len() == 2 {
            penta.add(p.points[0] + p.points[1]);
        }
    }
    (wdl, penta)
}

impl Settings {
    /// The settings of `cfg` for variant `variant`.
    pub fn new(cfg: &MatchConfig, variant: &str) -> Settings {
        let entry = |i: usize| {
            let spec = &cfg.engines[i];
            EngineEntry {
                name: cfg.names[i].clone(),
                command: spec.command_line(),
                options: match spec {
                    EngineSpec::Command { options, .. } => options.clone(),
                    EngineSpec::Builtin(_) => Vec::new(),
                },
                limit: cfg.limits[i].to_string(),
            }
        };
        Settings {
            variant: variant.to_string(),
            engines: [entry(0), entry(1)],
            games: cfg.games,
            seed: cfg.seed,
            random_plies: cfg.random_plies,
            openings: cfg.openings.as_ref().map(|o| OpeningsEntry {
                file: o.file.clone(),
                format: o.format.name().into(),
                order: o.order.name().into(),
                plies: o.plies,
                count: o.list.len(),
                fingerprint: o.fingerprint(),
            }),
            max_turns: cfg.settings.max_turns,
            draw: cfg.settings.draw.map(|d| {
                format!(
                    "movenumber={} movecount={} score={}",
                    d.move_number, d.move_count, d.score_cp
                )
            }),
            resign: cfg
                .settings
                .resign
                .map(|r| format!("movecount={} score={}", r.move_count, r.score_cp)),
            sprt: cfg.sprt.as_ref().map(SprtEntry::new),
        }
    }

    /// Equal as far as which games are played goes (the openings' file name aside): the
    /// condition for merging two results, and for `--resume`.
    pub fn same_match(&self, other: &Settings) -> bool {
        let strip = |s: &Settings| {
            let mut s = s.clone();
            if let Some(o) = s.openings.as_mut() {
                o.file.clear();
            }
            s
        };
        strip(self) == strip(other)
    }
}

impl MatchResult {
    /// The result of `report`, a match (or shard) played under `settings`.
    pub fn new(
        settings: Settings,
        shard: Option<super::spec::Shard>,
        report: &MatchReport,
    ) -> Self {
        // Each pair's points in game order (the games of an earlier run, then this run's).
        let mut games: BTreeMap<usize, f64> = report.resumed.iter().copied().collect();
        games.extend(report.games.iter().map(|g| (g.index, g.first_points())));
        let mut pairs: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
        for (index, points) in games {
            pairs.entry(index / 2).or_default().push(points);
        }
        let pairs = pairs
            .into_iter()
            .map(|(pair, points)| PairEntry { pair, points })
            .collect();
        let result = MatchResult {
            format: FORMAT.into(),
            settings,
            shard_count: shard.map(|s| s.count),
            shards: shard.map(|s| vec![s.index]).unwrap_or_default(),
            wdl: WdlEntry {
                wins: 0,
                draws: 0,
                losses: 0,
            },
            pentanomial: [0; 5],
            pairs,
            stats: StatsEntry {
                score: None,
                draw_ratio: None,
                elo: None,
                nelo: None,
                los: None,
            },
            sprt: None,
            stopped: report.stopped.iter().cloned().collect(),
            pgn_bytes: None,
        };
        result.recounted()
    }

    /// This result with its counts, statistics and SPRT computed from its pairs.
    fn recounted(mut self) -> MatchResult {
        let report = self.report();
        let (wdl, pairs) = (report.wdl, report.pairs);
        self.wdl = WdlEntry {
            wins: wdl.wins,
            draws: wdl.draws,
            losses: wdl.losses,
        };
        self.pentanomial = pairs.0;
        let triple =
            |t: Option<(f64, f64, f64)>| t.map(|(a, b, c)| [finite(a), finite(b), finite(c)]);
        self.stats = StatsEntry {
            score: wdl.score(),
            draw_ratio: wdl.draw_ratio(),
            elo: match (pairs.elo_interval(), pairs.elo()) {
                (Some(t), _) => triple(Some(t)),
                (None, Some(e)) => Some([None, finite(e), None]),
                (None, None) => None,
            },
            nelo: triple(pairs.normalized_elo_interval()),
            los: pairs.los(),
        };
        self.sprt = report.sprt.map(|s| SprtResult {
            llr: s.llr,
            lower: s.lower,
            upper: s.upper,
            verdict: s.verdict().into(),
        });
        self
    }

    /// The counts, statistics and SPRT of this result as a [`MatchReport`] (without games),
    /// computed from its pairs, for the summary.
    pub fn report(&self) -> MatchReport {
        let (wdl, pairs) = tally(&self.pairs);
        let sprt = self
            .settings
            .sprt
            .as_ref()
            .and_then(|s| s.to_sprt().ok())
            .map(|s| SprtState::of(&pairs, &s));
        MatchReport {
            games: Vec::new(),
            wdl,
            pairs,
            sprt,
            stopped: (!self.stopped.is_empty()).then(|| self.stopped.join("; ")),
            aborted: false,
            resumed: Vec::new(),
        }
    }

    /// The match's course: the statistics after each complete pair, the pairs taken in pair
    /// order (the order a match plays them; shards merged first give the unsharded match's
    /// course). Incomplete pairs (a game not played) are left out, as the pentanomial
    /// statistics leave them.
    pub fn curve(&self) -> Vec<CurvePoint> {
        let sprt = self.settings.sprt.as_ref().and_then(|s| s.to_sprt().ok());
        let mut pairs: Vec<&PairEntry> =
            self.pairs.iter().filter(|p| p.points.len() == 2).collect();
        pairs.sort_by_key(|p| p.pair);
        let mut penta = Pentanomial::default();
        pairs
            .iter()
            .map(|p| {
                penta.add(p.points[0] + p.points[1]);
                CurvePoint {
                    pairs: penta.pairs(),
                    games: 2 * penta.pairs(),
                    elo: penta.elo_interval(),
                    llr: sprt.as_ref().map(|s| penta.llr(s.elo0, s.elo1, s.model)),
                }
            })
            .collect()
    }

    /// The JSON text (pretty-printed).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a result always serialises")
    }

    /// Reads a result file's text; `file` names it in errors.
    ///
    /// Errors: [`MergeError::Read`] for text that is not a result file.
    pub fn from_json(text: &str, file: &str) -> Result<MatchResult, MergeError> {
        let read = |reason: String| MergeError::Read {
            file: file.to_string(),
            reason,
        };
        let r: MatchResult =
            serde_json::from_str(text).map_err(|e| read(format!("not a match result: {e}")))?;
        if r.format != FORMAT {
            return Err(read(format!("format '{}', expected '{FORMAT}'", r.format)));
        }
        if let Some(s) = &r.settings.sprt {
            s.to_sprt()
                .map_err(|e| read(format!("settings.sprt: {e}")))?;
        }
        for p in &r.pairs {
            let ok = !p.points.is_empty()
                && p.points.len() <= 2
                && p.points.iter().all(|&x| x == 0.0 || x == 0.5 || x == 1.0);
            if !ok || 2 * p.pair >= r.settings.games {
                return Err(read(format!("pair {}: bad entry {:?}", p.pair, p.points)));
            }
        }
        Ok(r)
    }

    /// A line naming the shards held: `all games` unsharded, else `shards 1, 3 of 4`.
    pub fn shards_line(&self) -> String {
        match self.shard_count {
            None => "all games".into(),
            Some(n) => {
                let ks: Vec<String> = self.shards.iter().map(|k| k.to_string()).collect();
                format!("shards {} of {n}", ks.join(", "))
            }
        }
    }
}

/// One point of a match's course ([`MatchResult::curve`]): the statistics after its first
/// `pairs` complete pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    /// Complete pairs counted.
    pub pairs: u64,
    /// Their games (`2 * pairs`).
    pub games: u64,
    /// Elo of the first engine, with its 95% interval `(low, elo, high)`; `None` while the
    /// interval is undefined ([`Pentanomial::elo_interval`]). Infinite ends stay infinite.
    pub elo: Option<(f64, f64, f64)>,
    /// The SPRT's log-likelihood ratio, when the match has an SPRT.
    pub llr: Option<f64>,
}

impl CurvePoint {
    /// The CSV header of [`CurvePoint::csv`].
    pub const CSV_HEADER: &'static str = "pairs,games,elo,elo_low,elo_high,llr";

    /// One CSV line (no newline); undefined values are empty, infinities `inf`/`-inf`.
    pub fn csv(&self) -> String {
        let (lo, elo, hi) = match self.elo {
            Some((lo, e, hi)) => (format!("{lo:.2}"), format!("{e:.2}"), format!("{hi:.2}")),
            None => Default::default(),
        };
        let llr = self.llr.map(|l| format!("{l:.4}")).unwrap_or_default();
        format!("{},{},{elo},{lo},{hi},{llr}", self.pairs, self.games)
    }
}

/// Merges results `(file name, result)` of one match: equal settings, the same shard count,
/// no shard or pair twice.
///
/// Errors: [`MergeError`].
pub fn merge(results: &[(String, MatchResult)]) -> Result<MatchResult, MergeError> {
    let ((_, first), rest) = results.split_first().ok_or(MergeError::Empty)?;
    let mut merged = first.clone();
    let mut owner: BTreeMap<usize, &str> = BTreeMap::new();
    for (file, r) in results {
        let mismatch = |reason: String| MergeError::Mismatch {
            file: file.clone(),
            reason,
        };
        for p in &r.pairs {
            if let Some(other) = owner.insert(p.pair, file) {
                return Err(mismatch(format!("pair {} is also in {other}", p.pair)));
            }
        }
    }
    for (file, r) in rest {
        let mismatch = |reason: String| MergeError::Mismatch {
            file: file.clone(),
            reason,
        };
        if !r.settings.same_match(&first.settings) {
            return Err(mismatch(format!(
                "not the same match as {} (settings differ)",
                results[0].0
            )));
        }
        if r.shard_count != first.shard_count {
            return Err(mismatch(format!(
                "{} shards, {} has {}",
                r.shard_count.map_or("no".into(), |n| n.to_string()),
                results[0].0,
                first.shard_count.map_or("none".into(), |n| n.to_string())
            )));
        }
        for k in &r.shards {
            if merged.shards.contains(k) {
                return Err(mismatch(format!("shard {k} is in two files")));
            }
        }
        merged.shards.extend(&r.shards);
        merged.pairs.extend(r.pairs.iter().cloned());
        merged.stopped.extend(r.stopped.iter().cloned());
    }
    merged.shards.sort_unstable();
    merged.pairs.sort_by_key(|p| p.pair);
    merged.pgn_bytes = None;
    Ok(merged.recounted())
}
