//! The match's command-line values: engine specs, search limits (`--tc`) and SPRT settings,
//! each parsed into a typed value with a typed error.

use thiserror::Error;

use super::stats::EloModel;

/// A built-in player that needs no child process.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// A uniformly random legal ply, from a seeded generator.
    Random,
    /// The legal ply with the best static evaluation right after it (ties broken at random).
    Greedy,
}

/// One `--engine` value: a built-in player or a command line for a child process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpec {
    /// `builtin:random` or `builtin:greedy`.
    Builtin(Builtin),
    /// A child process speaking the protocol (docs/protocol.md).
    Command {
        /// The program to run.
        program: String,
        /// Its arguments.
        args: Vec<String>,
        /// `option.<Name>=<value>` settings, sent as `setoption name <Name> value <value>`.
        options: Vec<(String, String)>,
        /// This engine's own search limit (a trailing `tc=`, `movetime=`, `nodes=` or
        /// `depth=` word), overriding the match's `--tc`/`--movetime`/`--nodes`/`--depth`.
        limit: Option<Limit>,
        /// The name in the PGN and the summary (a trailing `name=<name>` word; never passed
        /// to the program).
        name: Option<String>,
    },
}

/// Why an `--engine` or `--each` value was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineSpecError {
    /// Nothing but whitespace.
    #[error("empty engine command")]
    Empty,
    /// `builtin:<name>` with an unknown name.
    #[error("unknown builtin player '{0}' (known: builtin:random, builtin:greedy)")]
    UnknownBuiltin(String),
    /// An `option.` word without `<Name>=<value>`.
    #[error("bad engine option '{0}': expected option.<Name>=<value>")]
    BadOption(String),
    /// A `tc=`, `movetime=`, `nodes=` or `depth=` word with a bad value, or given twice.
    #[error("bad engine limit '{0}': expected tc=<base>+<inc>, movetime=<ms>, nodes=<n> or depth=<plies>, once")]
    BadLimit(String),
    /// A `name=` word with an empty name, or given twice.
    #[error("bad engine name '{0}': expected name=<name> (no spaces), once")]
    BadName(String),
    /// A built-in player given arguments.
    #[error("builtin player takes no arguments, got '{0}'")]
    BuiltinArgs(String),
    /// An `option.` word that is not among the trailing settings words (it would be passed to
    /// the program as an argument).
    #[error("'{0}' is an option word among the command's arguments: settings words (option.<Name>=<value>, where the name may have spaces) must come after the command, and option values cannot contain spaces")]
    Misplaced(String),
    /// An `--each` word that is not a setting both engines can share.
    #[error("bad --each word '{0}': expected option.<Name>=<value> or tc=/movetime=/nodes=/depth= (name= is per engine)")]
    BadEach(String),
}

/// The settings words that may trail an engine command (or make up `--each`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineWords {
    /// `option.<Name>=<value>` words, in order.
    pub options: Vec<(String, String)>,
    /// A `tc=`, `movetime=`, `nodes=` or `depth=` word.
    pub limit: Option<Limit>,
    /// A `name=` word.
    pub name: Option<String>,
}

/// Where an option whose name has spaces starts, when `words` ends with it: the last
/// `option.` word without `=` before the last word, with no `=` in any word between.
fn option_start(words: &[&str]) -> Option<usize> {
    let last = words.len().checked_sub(1)?;
    (0..last)
        .rev()
        .take_while(|&i| !words[i].contains('='))
        .find(|&i| words[i].starts_with("option."))
}

impl EngineWords {
    /// Takes the settings words off the end of `words` (in any order) and returns them; the
    /// words left are the command line.
    ///
    /// Errors: a malformed option, limit or name word, or a limit or name given twice.
    fn take_trailing(words: &mut Vec<&str>) -> Result<EngineWords, EngineSpecError> {
        let mut out = EngineWords::default();
        while let Some(w) = words.last().copied() {
            if let Some(l) = parse_limit_word(w) {
                let l = l.map_err(|_| EngineSpecError::BadLimit(w.to_string()))?;
                if out.limit.replace(l).is_some() {
                    return Err(EngineSpecError::BadLimit(w.to_string()));
                }
            } else if let Some(name) = w.strip_prefix("name=") {
                if name.is_empty() || out.name.replace(name.to_string()).is_some() {
                    return Err(EngineSpecError::BadName(w.to_string()));
                }
            } else if let Some(rest) = w.strip_prefix("option.") {
                let (name, value) = rest
                    .split_once('=')
                    .filter(|(n, _)| !n.is_empty())
                    .ok_or_else(|| EngineSpecError::BadOption(w.to_string()))?;
                out.options.insert(0, (name.to_string(), value.to_string()));
            } else if let Some(first) = w.contains('=').then(|| option_start(words)).flatten() {
                // An option whose name has spaces, split into words: `option.Skill Level=5`.
                let joined = words[first..].join(" ");
                let (name, value) = joined["option.".len()..]
                    .split_once('=')
                    .ok_or_else(|| EngineSpecError::BadOption(joined.clone()))?;
                out.options.insert(0, (name.to_string(), value.to_string()));
                words.truncate(first);
                continue;
            } else {
                break;
            }
            words.pop();
        }
        Ok(out)
    }

    /// Parses an `--each` value: settings for both engines, `option.<Name>=<value>` words and
    /// at most one limit word, e.g. `"option.Hash=32 nodes=2000"`.
    ///
    /// Errors: [`EngineSpecError::BadEach`] for any other word (a `name=` included), and the
    /// errors of malformed settings words.
    pub fn parse_each(text: &str) -> Result<EngineWords, EngineSpecError> {
        let mut words: Vec<&str> = text.split_whitespace().collect();
        let each = EngineWords::take_trailing(&mut words)?;
        if let Some(w) = words.last() {
            return Err(EngineSpecError::BadEach(w.to_string()));
        }
        if let Some(name) = each.name {
            return Err(EngineSpecError::BadEach(format!("name={name}")));
        }
        Ok(each)
    }
}

impl EngineSpec {
    /// Parses `builtin:random`, `builtin:greedy` or `<program> [args...] [option.<Name>=<value>...]
    /// [tc=<base>+<inc> | movetime=<ms> | nodes=<n> | depth=<plies>] [name=<name>]` (words split
    /// on whitespace; no shell quoting). Settings words must trail the command, in any order.
    ///
    /// Errors: [`EngineSpecError`].
    pub fn parse(text: &str) -> Result<EngineSpec, EngineSpecError> {
        let mut words: Vec<&str> = text.split_whitespace().collect();
        let EngineWords {
            options,
            limit,
            name,
        } = EngineWords::take_trailing(&mut words)?;
        let (&program, args) = words.split_first().ok_or(EngineSpecError::Empty)?;
        if let Some(w) = args.iter().find(|w| w.starts_with("option.")) {
            // A settings word among the program's arguments would reach the program as one.
            return Err(EngineSpecError::Misplaced(w.to_string()));
        }
        if let Some(kind) = program.strip_prefix("builtin:") {
            if !args.is_empty() || !options.is_empty() || limit.is_some() || name.is_some() {
                return Err(EngineSpecError::BuiltinArgs(text.trim().to_string()));
            }
            return match kind {
                "random" => Ok(EngineSpec::Builtin(Builtin::Random)),
                "greedy" => Ok(EngineSpec::Builtin(Builtin::Greedy)),
                _ => Err(EngineSpecError::UnknownBuiltin(kind.to_string())),
            };
        }
        Ok(EngineSpec::Command {
            program: program.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
            options,
            limit,
            name,
        })
    }

    /// Adds the `--each` settings: options the engine does not set itself (its own value
    /// wins), and the limit when it has none. A built-in player takes none of them.
    pub fn apply_each(&mut self, each: &EngineWords) {
        if let EngineSpec::Command { options, limit, .. } = self {
            for (name, value) in &each.options {
                if !options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
                    options.push((name.clone(), value.clone()));
                }
            }
            if limit.is_none() {
                *limit = each.limit;
            }
        }
    }

    /// A short name for the PGN and the summary: the `name=` word, else `builtin:<name>`, or
    /// the file name of the program, or of its first argument when that is an existing file (a
    /// script run by an interpreter: `python3 engine.py` is `engine.py`).
    pub fn name(&self) -> String {
        let base = |p: &str| {
            std::path::Path::new(p)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.to_string())
        };
        match self {
            EngineSpec::Builtin(Builtin::Random) => "builtin:random".into(),
            EngineSpec::Builtin(Builtin::Greedy) => "builtin:greedy".into(),
            EngineSpec::Command {
                name: Some(name), ..
            } => name.clone(),
            EngineSpec::Command { program, args, .. } => match args.first() {
                Some(script) if std::path::Path::new(script).is_file() => base(script),
                _ => base(program),
            },
        }
    }

    /// The command line as given, without the settings words (for the JSON result).
    pub fn command_line(&self) -> String {
        match self {
            EngineSpec::Builtin(_) => self.name(),
            EngineSpec::Command { program, args, .. } => std::iter::once(program.as_str())
                .chain(args.iter().map(|a| a.as_str()))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// The names of the two players for the PGN and the summary: their [`EngineSpec::name`]s,
/// made distinct when they are equal (self-play without `name=`) by suffixes `-1` and `-2`.
pub fn player_names(engines: &[EngineSpec; 2]) -> [String; 2] {
    let names = [engines[0].name(), engines[1].name()];
    if names[0] == names[1] {
        [format!("{}-1", names[0]), format!("{}-2", names[1])]
    } else {
        names
    }
}

/// How long each engine may think per turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Fixed time per turn, in milliseconds (`go movetime`).
    Movetime(u64),
    /// Fixed node budget per turn (`go nodes`).
    Nodes(u64),
    /// Fixed depth per turn (`go depth`).
    Depth(u32),
    /// A clock per side: `base_ms` at the start plus `inc_ms` after each turn (`go wtime ...`).
    Clock {
        /// Starting time, in milliseconds.
        base_ms: u64,
        /// Increment per turn, in milliseconds.
        inc_ms: u64,
    },
}

/// Reads one engine limit word: `None` when `word` is not one (no known `<key>=` prefix),
/// else the limit or the reason it is bad.
fn parse_limit_word(word: &str) -> Option<Result<Limit, String>> {
    let (key, value) = word.split_once('=')?;
    let positive = |v: &str| v.parse::<u64>().ok().filter(|&n| n > 0);
    let limit = match key {
        "tc" => parse_tc(value).map_err(|e| e.to_string()),
        "movetime" => positive(value).map(Limit::Movetime).ok_or_else(String::new),
        "nodes" => positive(value).map(Limit::Nodes).ok_or_else(String::new),
        "depth" => positive(value)
            .and_then(|d| u32::try_from(d).ok())
            .map(Limit::Depth)
            .ok_or_else(String::new),
        _ => return None,
    };
    Some(limit)
}

/// Why a `--tc` value was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TcError {
    /// Not of the form `<base>+<inc>` or `<base>`.
    #[error("bad time control '{0}': expected <base>+<inc> in seconds, e.g. 10+0.1")]
    Shape(String),
    /// A part that is not a non-negative number of seconds.
    #[error("bad time control '{text}': '{part}' is not a non-negative number of seconds")]
    Number {
        /// The whole value.
        text: String,
        /// The offending part.
        part: String,
    },
    /// A zero base time.
    #[error("bad time control '{0}': the base time must be positive")]
    ZeroBase(String),
}

/// Parses `--tc <base>+<inc>` (seconds, decimals allowed; the increment may be omitted) into
/// [`Limit::Clock`] in milliseconds.
///
/// Errors: [`TcError`].
pub fn parse_tc(text: &str) -> Result<Limit, TcError> {
    let t = text.trim();
    let (base, inc) = match t.split_once('+') {
        Some((b, i)) => (b, i),
        None => (t, "0"),
    };
    if base.is_empty() || inc.is_empty() {
        return Err(TcError::Shape(text.to_string()));
    }
    let ms = |part: &str| -> Result<u64, TcError> {
        match part.parse::<f64>() {
            Ok(s) if (0.0..1e9).contains(&s) => Ok((s * 1000.0).round() as u64),
            _ => Err(TcError::Number {
                text: text.to_string(),
                part: part.to_string(),
            }),
        }
    };
    let (base_ms, inc_ms) = (ms(base)?, ms(inc)?);
    if base_ms == 0 {
        return Err(TcError::ZeroBase(text.to_string()));
    }
    Ok(Limit::Clock { base_ms, inc_ms })
}

/// SPRT settings: Elo bounds of the two hypotheses and the error rates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis H0.
    pub elo0: f64,
    /// Elo of the alternative hypothesis H1.
    pub elo1: f64,
    /// False positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False negative rate (accepting H0 when H1 holds).
    pub beta: f64,
    /// How `elo0` and `elo1` are read (`model=normalized`, the default, or `model=logistic`).
    pub model: EloModel,
}

/// Why an `--sprt` value was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SprtError {
    /// A word that is not `<key>=<number>` with a known key.
    #[error(
        "bad SPRT setting '{0}': expected elo0=, elo1=, alpha=, beta= with a number, or model=normalized|logistic"
    )]
    Setting(String),
    /// A key missing.
    #[error("SPRT setting {0}= is missing")]
    Missing(&'static str),
    /// Values out of range.
    #[error("bad SPRT settings: {0}")]
    Range(&'static str),
}

impl Sprt {
    /// Parses `elo0=<a> elo1=<b> alpha=<x> beta=<y> [model=normalized|logistic]` (any order,
    /// whitespace or comma separated). The Elo bounds are normalised Elo unless
    /// `model=logistic`, as in fishtest and fastchess.
    ///
    /// Errors: [`SprtError`] for unknown or missing keys, bad numbers, `elo0 >= elo1` or error
    /// rates outside `(0, 0.5)`.
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let mut v: [Option<f64>; 4] = [None; 4];
        let mut model = EloModel::default();
        for word in text.split(|c: char| c.is_whitespace() || c == ',') {
            if word.is_empty() {
                continue;
            }
            let bad = || SprtError::Setting(word.to_string());
            let (k, val) = word.split_once('=').ok_or_else(bad)?;
            if k == "model" {
                model = match val {
                    "normalized" | "normalised" => EloModel::Normalized,
                    "logistic" => EloModel::Logistic,
                    _ => return Err(bad()),
                };
                continue;
            }
            let x: f64 = val
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(bad)?;
            let i = ["elo0", "elo1", "alpha", "beta"]
                .iter()
                .position(|n| *n == k)
                .ok_or_else(bad)?;
            v[i] = Some(x);
        }
        let get = |i: usize, n: &'static str| v[i].ok_or(SprtError::Missing(n));
        let s = Sprt {
            elo0: get(0, "elo0")?,
            elo1: get(1, "elo1")?,
            alpha: get(2, "alpha")?,
            beta: get(3, "beta")?,
            model,
        };
        if s.elo0 >= s.elo1 {
            return Err(SprtError::Range("elo0 must be below elo1"));
        }
        if s.model == EloModel::Normalized && s.elo0.abs().max(s.elo1.abs()) > 100.0 {
            // Beyond this a hypothesis can ask for a t-value no distribution of scores has.
            return Err(SprtError::Range(
                "normalised Elo bounds must be within [-100, 100] (use model=logistic for more)",
            ));
        }
        if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
            return Err(SprtError::Range("alpha and beta must be in (0, 0.5)"));
        }
        Ok(s)
    }
}

/// `--shard K/N`: the K-th (from 1) of N disjoint slices of a match. Pair `p` (games `2p` and
/// `2p+1`) belongs to shard `p mod N + 1`, so the shards are the same size within one pair and
/// each opening and seed stays with its pair whatever the shard.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1.
    pub index: usize,
    /// N, at least 1.
    pub count: usize,
}

/// Why a `--shard` value was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad shard '{0}': expected K/N with 1 <= K <= N, e.g. 2/4")]
pub struct ShardError(pub String);

impl Shard {
    /// Parses `K/N`.
    ///
    /// Errors: [`ShardError`] unless `1 <= K <= N`.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_string());
        let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.parse::<usize>().map_err(|_| bad())?,
            n.parse::<usize>().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether pair `pair` (from 0) is played by this shard.
    pub fn has_pair(&self, pair: usize) -> bool {
        pair % self.count + 1 == self.index
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::fmt::Display for Limit {
    /// The limit as an engine word: `nodes=2000`, `depth=8`, `movetime=100`, `tc=10+0.1`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Limit::Movetime(ms) => write!(f, "movetime={ms}"),
            Limit::Nodes(n) => write!(f, "nodes={n}"),
            Limit::Depth(d) => write!(f, "depth={d}"),
            Limit::Clock { base_ms, inc_ms } => {
                let s = |ms: u64| format!("{}", ms as f64 / 1000.0);
                write!(f, "tc={}+{}", s(base_ms), s(inc_ms))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs() {
        assert_eq!(
            EngineSpec::parse("builtin:greedy"),
            Ok(EngineSpec::Builtin(Builtin::Greedy))
        );
        let spec = EngineSpec::parse("/bin/eng -q option.Hash=64 option.Threads=2").unwrap();
        assert_eq!(
            spec,
            EngineSpec::Command {
                program: "/bin/eng".into(),
                args: vec!["-q".into()],
                options: vec![("Hash".into(), "64".into()), ("Threads".into(), "2".into())],
                limit: None,
                name: None,
            }
        );
        assert_eq!(spec.name(), "eng");
        // A per-engine limit may trail the options, or come between them.
        let spec = EngineSpec::parse("eng depth=8 option.Hash=16").unwrap();
        assert!(
            matches!(spec, EngineSpec::Command { limit: Some(Limit::Depth(8)), ref options, .. } if options.len() == 1)
        );
        let spec = EngineSpec::parse("eng tc=5+0.05").unwrap();
        assert!(matches!(
            spec,
            EngineSpec::Command {
                limit: Some(Limit::Clock {
                    base_ms: 5000,
                    inc_ms: 50
                }),
                ..
            }
        ));
        for bad in [
            "eng depth=0",
            "eng nodes=x",
            "eng tc=0+1",
            "eng depth=3 nodes=9",
        ] {
            assert!(
                matches!(EngineSpec::parse(bad), Err(EngineSpecError::BadLimit(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            EngineSpec::parse("builtin:random depth=3"),
            Err(EngineSpecError::BuiltinArgs(_))
        ));
        assert_eq!(EngineSpec::parse("  "), Err(EngineSpecError::Empty));
        assert!(matches!(
            EngineSpec::parse("builtin:wild"),
            Err(EngineSpecError::UnknownBuiltin(_))
        ));
        assert!(matches!(
            EngineSpec::parse("eng option.=3"),
            Err(EngineSpecError::BadOption(_))
        ));
        assert!(matches!(
            EngineSpec::parse("eng option.Hash"),
            Err(EngineSpecError::BadOption(_))
        ));
        assert!(matches!(
            EngineSpec::parse("builtin:random x"),
            Err(EngineSpecError::BuiltinArgs(_))
        ));
    }

    /// An option name with spaces (`option.Skill Level=5`) is one option,
    /// not two arguments of the program (which then exited: "engine exited").
    #[test]
    fn option_names_with_spaces() {
        let spec =
            EngineSpec::parse("eng -q option.Skill Level=5 option.Hash=8 option.Move Overhead=30")
                .unwrap();
        let EngineSpec::Command { args, options, .. } = &spec else {
            panic!()
        };
        assert_eq!(args, &["-q"]);
        assert_eq!(
            options,
            &[
                ("Skill Level".to_string(), "5".to_string()),
                ("Hash".into(), "8".into()),
                ("Move Overhead".into(), "30".into())
            ]
        );
        let each = EngineWords::parse_each("option.Skill Level=3 nodes=100").unwrap();
        assert_eq!(each.options, [("Skill Level".to_string(), "3".to_string())]);
        // A word with `=` after the command that is no setting stays an argument.
        let spec = EngineSpec::parse("eng --level=5").unwrap();
        assert!(matches!(spec, EngineSpec::Command { ref args, .. } if args == &["--level=5"]));
        // An `option.` word that cannot be a setting is a clear error, not an argument.
        for bad in [
            "eng option.Skill Level",
            "eng option.Skill x=1 y=2",
            "eng option.Hash=1 -q",
        ] {
            let e = EngineSpec::parse(bad).unwrap_err();
            assert!(
                matches!(
                    e,
                    EngineSpecError::Misplaced(_) | EngineSpecError::BadOption(_)
                ),
                "{bad}: {e:?}"
            );
        }
    }

    #[test]
    fn names_and_each() {
        let spec = EngineSpec::parse("/bin/eng -x name=alpha option.Hash=8").unwrap();
        assert_eq!(spec.name(), "alpha");
        assert_eq!(spec.command_line(), "/bin/eng -x");
        assert!(matches!(&spec, EngineSpec::Command { args, .. } if args == &["-x"]));
        for bad in ["eng name=", "eng name=a name=b"] {
            assert!(
                matches!(EngineSpec::parse(bad), Err(EngineSpecError::BadName(_))),
                "{bad}"
            );
        }
        let each = EngineWords::parse_each("option.Hash=32 nodes=2000 option.Threads=1").unwrap();
        assert_eq!(each.limit, Some(Limit::Nodes(2000)));
        let mut spec = EngineSpec::parse("eng option.hash=4 depth=3").unwrap();
        spec.apply_each(&each);
        let EngineSpec::Command { options, limit, .. } = &spec else {
            panic!()
        };
        // The engine's own settings win.
        assert_eq!(*limit, Some(Limit::Depth(3)));
        assert_eq!(
            options,
            &[("hash".into(), "4".into()), ("Threads".into(), "1".into())]
        );
        let mut builtin = EngineSpec::Builtin(Builtin::Random);
        builtin.apply_each(&each);
        assert_eq!(builtin, EngineSpec::Builtin(Builtin::Random));
        for bad in ["name=x", "eng", "option.Hash"] {
            assert!(EngineWords::parse_each(bad).is_err(), "{bad}");
        }
        let same = [
            EngineSpec::parse("a/eng").unwrap(),
            EngineSpec::parse("b/eng").unwrap(),
        ];
        assert_eq!(player_names(&same), ["eng-1", "eng-2"]);
    }

    #[test]
    fn shards() {
        let s = Shard::parse("2/4").unwrap();
        assert_eq!(s.to_string(), "2/4");
        assert!(s.has_pair(1) && s.has_pair(5) && !s.has_pair(0) && !s.has_pair(2));
        for bad in ["0/4", "5/4", "1", "a/b", "1/0", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let limits = [
            Limit::Nodes(2000),
            Limit::Depth(3),
            Limit::Movetime(100),
            parse_tc("10+0.1").unwrap(),
        ];
        for l in limits {
            assert_eq!(parse_limit_word(&l.to_string()), Some(Ok(l)));
        }
    }

    #[test]
    fn time_controls() {
        assert_eq!(
            parse_tc("10+0.1"),
            Ok(Limit::Clock {
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(
            parse_tc("0.5"),
            Ok(Limit::Clock {
                base_ms: 500,
                inc_ms: 0
            })
        );
        assert!(matches!(parse_tc("+1"), Err(TcError::Shape(_))));
        assert!(matches!(parse_tc("ten+1"), Err(TcError::Number { .. })));
        assert!(matches!(parse_tc("5+-1"), Err(TcError::Number { .. })));
        assert!(matches!(parse_tc("0+1"), Err(TcError::ZeroBase(_))));
    }

    #[test]
    fn sprt_settings() {
        let s = Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.1").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.1));
        assert_eq!(s.model, EloModel::Normalized);
        let s = Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.1 model=logistic").unwrap();
        assert_eq!(s.model, EloModel::Logistic);
        assert!(matches!(
            Sprt::parse("elo0=-400 elo1=-300 alpha=0.05 beta=0.1"),
            Err(SprtError::Range(_))
        ));
        assert!(Sprt::parse("elo0=-400 elo1=-300 alpha=0.05 beta=0.1 model=logistic").is_ok());
        assert!(matches!(
            Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.1 model=bayes"),
            Err(SprtError::Setting(_))
        ));
        assert!(Sprt::parse("elo1=5,elo0=-1,beta=0.05,alpha=0.05").is_ok());
        assert_eq!(
            Sprt::parse("elo0=0 elo1=5 alpha=0.05"),
            Err(SprtError::Missing("beta"))
        );
        assert!(matches!(
            Sprt::parse("elo0=0 elo2=5"),
            Err(SprtError::Setting(_))
        ));
        assert!(matches!(Sprt::parse("elo0=x"), Err(SprtError::Setting(_))));
        assert!(matches!(
            Sprt::parse("elo0=5 elo1=0 alpha=0.05 beta=0.05"),
            Err(SprtError::Range(_))
        ));
        assert!(matches!(
            Sprt::parse("elo0=0 elo1=5 alpha=0.7 beta=0.05"),
            Err(SprtError::Range(_))
        ));
    }
}
