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
    /// A child process speaking the protocol (shared/protocol.md).
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
    },
}

/// Why an `--engine` value was rejected.
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
    /// A built-in player given arguments.
    #[error("builtin player takes no arguments, got '{0}'")]
    BuiltinArgs(String),
}

impl EngineSpec {
    /// Parses `builtin:random`, `builtin:greedy` or `<program> [args...] [option.<Name>=<value>...]
    /// [tc=<base>+<inc> | movetime=<ms> | nodes=<n> | depth=<plies>]` (words split on whitespace;
    /// no shell quoting). Option and limit words must trail the command, in any order.
    ///
    /// Errors: [`EngineSpecError`].
    pub fn parse(text: &str) -> Result<EngineSpec, EngineSpecError> {
        let mut words: Vec<&str> = text.split_whitespace().collect();
        let mut options = Vec::new();
        let mut limit = None;
        while let Some(w) = words.last().copied() {
            if let Some(l) = parse_limit_word(w) {
                let l = l.map_err(|_| EngineSpecError::BadLimit(w.to_string()))?;
                if limit.replace(l).is_some() {
                    return Err(EngineSpecError::BadLimit(w.to_string()));
                }
                words.pop();
                continue;
            }
            let Some(rest) = w.strip_prefix("option.") else {
                break;
            };
            let (name, value) = rest
                .split_once('=')
                .filter(|(n, _)| !n.is_empty())
                .ok_or_else(|| EngineSpecError::BadOption(w.to_string()))?;
            options.insert(0, (name.to_string(), value.to_string()));
            words.pop();
        }
        let (&program, args) = words.split_first().ok_or(EngineSpecError::Empty)?;
        if let Some(name) = program.strip_prefix("builtin:") {
            if !args.is_empty() || !options.is_empty() || limit.is_some() {
                return Err(EngineSpecError::BuiltinArgs(text.trim().to_string()));
            }
            return match name {
                "random" => Ok(EngineSpec::Builtin(Builtin::Random)),
                "greedy" => Ok(EngineSpec::Builtin(Builtin::Greedy)),
                _ => Err(EngineSpecError::UnknownBuiltin(name.to_string())),
            };
        }
        Ok(EngineSpec::Command {
            program: program.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
            options,
            limit,
        })
    }

    /// A short name for the PGN and the summary: `builtin:<name>`, or the file name of the
    /// program, or of its first argument when that is an existing file (a script run by an
    /// interpreter: `python3 engine.py` is `engine.py`).
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
            EngineSpec::Command { program, args, .. } => match args.first() {
                Some(script) if std::path::Path::new(script).is_file() => base(script),
                _ => base(program),
            },
        }
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
