//! The engine options announced by `uci` and changed by `setoption` (protocol.md 1).

use crate::search::skill::{self, Skill};
use crate::search::SearchOptions;
use crate::variants::{Variant, VariantSettings};

/// Threads: range of the `Threads` spin.
pub const THREADS_RANGE: (i64, i64) = (1, 256);
/// Hash in MiB: range of the `Hash` spin.
pub const HASH_RANGE: (i64, i64) = (1, 65536);
/// Default `Hash` in MiB.
pub const HASH_DEFAULT: usize = 16;
/// Range of the `MultiPV` spin.
pub const MULTIPV_RANGE: (i64, i64) = (1, 500);
/// Range of the `Move Overhead` spin, in milliseconds.
pub const OVERHEAD_RANGE: (i64, i64) = (0, 5000);
/// Default `Move Overhead` in milliseconds.
pub const OVERHEAD_DEFAULT: u64 = 10;
/// Range of the `Skill Level` spin (20: full strength).
pub const SKILL_RANGE: (i64, i64) = (0, skill::MAX_LEVEL as i64);

/// The current value of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// `UCI_Variant`.
    pub variant: Variant,
    /// `Threads`: search threads, also the `go perft` worker count.
    pub threads: usize,
    /// `Hash`: TT size in MiB.
    pub hash_mb: usize,
    /// `MultiPV`: number of principal variations reported.
    pub multipv: usize,
    /// `Move Overhead` in milliseconds.
    pub move_overhead_ms: u64,
    /// `Ponder`: whether the GUI may send `go ponder` (informative only).
    pub ponder: bool,
    /// `UCI_Chess960`: castling tokens King-takes-Rook (protocol.md 3); only variants that
    /// honour it accept `true` ([`crate::variants::Rules::apply_settings`]).
    pub chess960: bool,
    /// `UCI_AnalyseMode`: the GUI analyses rather than plays (informative only: the search is
    /// the same).
    pub analyse_mode: bool,
    /// `debug on|off` (informative only).
    pub debug: bool,
    /// `Skill Level`, 0 to 20 (20: full strength); overridden by `UCI_Elo` while
    /// `UCI_LimitStrength` is on.
    pub skill_level: u32,
    /// `UCI_LimitStrength`: play at the strength `UCI_Elo` says.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength asked for while `UCI_LimitStrength` is on, in Elo.
    pub elo: u32,
    /// `UCI_ShowWDL`: `info` lines carry `wdl W D L` (permille, side to move).
    pub show_wdl: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            variant: Variant::Chess,
            threads: 1,
            hash_mb: HASH_DEFAULT,
            multipv: 1,
            move_overhead_ms: OVERHEAD_DEFAULT,
            ponder: false,
            chess960: false,
            analyse_mode: false,
            debug: false,
            skill_level: skill::MAX_LEVEL,
            limit_strength: false,
            elo: skill::ELO_DEFAULT as u32,
            show_wdl: false,
        }
    }
}

impl EngineOptions {
    /// The options the search takes.
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            threads: self.threads,
            multipv: self.multipv,
            move_overhead_ms: self.move_overhead_ms,
            skill: self.skill(),
        }
    }

    /// The strength the search plays at: `UCI_Elo` while `UCI_LimitStrength` is on, else
    /// `Skill Level`.
    pub fn skill(&self) -> Skill {
        if self.limit_strength {
            Skill::from_elo(self.elo)
        } else {
            Skill::from_level(self.skill_level)
        }
    }

    /// The settings the variant session hands to its positions.
    pub fn variant_settings(&self) -> VariantSettings {
        VariantSettings {
            chess960: self.chess960,
        }
    }

    /// Applies a validated change to the values kept here (the engine loop also acts on the
    /// variant, `Hash`, `Clear Hash` and the log file).
    pub fn apply(&mut self, change: &OptionChange) {
        match *change {
            OptionChange::Variant(v) => self.variant = v,
            OptionChange::Threads(n) => self.threads = n,
            OptionChange::Hash(mb) => self.hash_mb = mb,
            OptionChange::MultiPv(n) => self.multipv = n,
            OptionChange::MoveOverhead(ms) => self.move_overhead_ms = ms,
            OptionChange::Ponder(on) => self.ponder = on,
            OptionChange::Chess960(on) => self.chess960 = on,
            OptionChange::AnalyseMode(on) => self.analyse_mode = on,
            OptionChange::SkillLevel(l) => self.skill_level = l,
            OptionChange::LimitStrength(on) => self.limit_strength = on,
            OptionChange::Elo(e) => self.elo = e,
            OptionChange::ShowWdl(on) => self.show_wdl = on,
            OptionChange::ClearHash | OptionChange::DebugLogFile(_) | OptionChange::EvalFile(_) => {
            }
        }
    }
}

/// The `option ...` lines of the `uci` answer, in order.
pub fn uci_option_lines() -> Vec<String> {
    let mut variant = String::from("option name UCI_Variant type combo default chess");
    for v in Variant::ALL {
        variant.push_str(" var ");
        variant.push_str(v.name());
    }
    let spin = |name: &str, default: i64, (min, max): (i64, i64)| {
        format!("option name {name} type spin default {default} min {min} max {max}")
    };
    #[allow(unused_mut)]
    let mut lines = vec![
        variant,
        spin("Threads", 1, THREADS_RANGE),
        spin("Hash", HASH_DEFAULT as i64, HASH_RANGE),
        spin("MultiPV", 1, MULTIPV_RANGE),
        spin("Move Overhead", OVERHEAD_DEFAULT as i64, OVERHEAD_RANGE),
        "option name Ponder type check default false".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name Clear Hash type button".to_string(),
        "option name Debug Log File type string default <empty>".to_string(),
        "option name UCI_AnalyseMode type check default false".to_string(),
        spin("Skill Level", SKILL_RANGE.1, SKILL_RANGE),
        "option name UCI_LimitStrength type check default false".to_string(),
        spin("UCI_Elo", skill::ELO_DEFAULT, skill::ELO_RANGE),
        "option name UCI_ShowWDL type check default false".to_string(),
        "option name EvalFile type string default <default>".to_string(),
    ];
    #[cfg(feature = "spsa")]
    lines.extend(crate::search::params::spsa_option_lines());
    lines
}

/// The largest TT the machine can hold without swapping, in MiB: half of the memory the kernel
/// reports available (Linux `/proc/meminfo`), or `None` when that is unknown.
pub fn hash_limit_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some((kb / 1024 / 2).max(1))
}

/// A validated `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChange {
    /// `UCI_Variant` (aliases already resolved).
    Variant(Variant),
    /// `Threads`.
    Threads(usize),
    /// `Hash` in MiB.
    Hash(usize),
    /// `MultiPV`.
    MultiPv(usize),
    /// `Move Overhead` in milliseconds.
    MoveOverhead(u64),
    /// `Ponder`.
    Ponder(bool),
    /// `UCI_Chess960` (the variant may refuse `true`).
    Chess960(bool),
    /// `Clear Hash` (a button): empty the TT.
    ClearHash,
    /// `Debug Log File`: the file every input and output line is appended to, with time
    /// stamps; `None` (no value, or `<empty>`) stops logging.
    DebugLogFile(Option<String>),
    /// `UCI_AnalyseMode`.
    AnalyseMode(bool),
    /// `Skill Level` (0 to 20).
    SkillLevel(u32),
    /// `UCI_LimitStrength`.
    LimitStrength(bool),
    /// `UCI_Elo`.
    Elo(u32),
    /// `UCI_ShowWDL`.
    ShowWdl(bool),
    /// `EvalFile`: the current variant's network file, `<default>` for its compiled-in one;
    /// `None` (`<none>`, `<empty>` or no value): the hand-written evaluation alone.
    EvalFile(Option<String>),
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// The option needs a value and none was given.
    #[error("option {0} needs a value")]
    MissingValue(&'static str),
    /// A spin value that is not an integer.
    #[error("option {name}: '{value}' is not an integer")]
    NotInteger {
        /// The option.
        name: &'static str,
        /// The value as given.
        value: String,
    },
    /// A spin value outside its range.
    #[error("option {name}: {value} is out of range {min}..{max}")]
    OutOfRange {
        /// The option.
        name: &'static str,
        /// The value given.
        value: i64,
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
    },
    /// A check value that is neither `true` nor `false`.
    #[error("option {name}: '{value}' is not true or false")]
    NotBool {
        /// The option.
        name: &'static str,
        /// The value as given.
        value: String,
    },
    /// `UCI_Variant` with a name no variant has.
    #[error("unknown variant '{0}'")]
    UnknownVariant(String),
    /// A value the current variant does not support (its message names the option).
    #[error("{0}")]
    NotSupported(String),
    /// A value that is well-formed but cannot be used (the reason says why).
    #[error("{0}")]
    Unusable(String),
    /// A value given to a button.
    #[error("option {0} is a button and takes no value")]
    ButtonValue(&'static str),
}

/// Validates `setoption name <name> [value <value>]` (names case-insensitive).
///
/// Errors: an [`OptionError`] naming the option and what is wrong with the value.
pub fn parse_setoption(name: &str, value: Option<&str>) -> Result<OptionChange, OptionError> {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "uci_variant" => {
            let v = value.ok_or(OptionError::MissingValue("UCI_Variant"))?;
            Variant::from_name(v)
                .map(OptionChange::Variant)
                .ok_or_else(|| OptionError::UnknownVariant(super::echo(v)))
        }
        "threads" => {
            spin("Threads", value, THREADS_RANGE).map(|n| OptionChange::Threads(n as usize))
        }
        "hash" => spin("Hash", value, HASH_RANGE).map(|n| OptionChange::Hash(n as usize)),
        "multipv" => {
            spin("MultiPV", value, MULTIPV_RANGE).map(|n| OptionChange::MultiPv(n as usize))
        }
        "move overhead" => spin("Move Overhead", value, OVERHEAD_RANGE)
            .map(|n| OptionChange::MoveOverhead(n as u64)),
        "ponder" => check("Ponder", value).map(OptionChange::Ponder),
        "uci_chess960" => check("UCI_Chess960", value).map(OptionChange::Chess960),
        "clear hash" => match value {
            None => Ok(OptionChange::ClearHash),
            Some(_) => Err(OptionError::ButtonValue("Clear Hash")),
        },
        "debug log file" => Ok(OptionChange::DebugLogFile(
            value.filter(|v| *v != "<empty>").map(str::to_string),
        )),
        "uci_analysemode" => check("UCI_AnalyseMode", value).map(OptionChange::AnalyseMode),
        "skill level" => {
            spin("Skill Level", value, SKILL_RANGE).map(|n| OptionChange::SkillLevel(n as u32))
        }
        "uci_limitstrength" => check("UCI_LimitStrength", value).map(OptionChange::LimitStrength),
        "uci_elo" => spin("UCI_Elo", value, skill::ELO_RANGE).map(|n| OptionChange::Elo(n as u32)),
        "uci_showwdl" => check("UCI_ShowWDL", value).map(OptionChange::ShowWdl),
        "evalfile" => Ok(OptionChange::EvalFile(
            value
                .filter(|v| !matches!(*v, "<none>" | "<empty>"))
                .map(str::to_string),
        )),
        _ => Err(OptionError::Unknown(super::echo(name))),
    }
}

fn spin(
    name: &'static str,
    value: Option<&str>,
    (min, max): (i64, i64),
) -> Result<i64, OptionError> {
    let v = value.ok_or(OptionError::MissingValue(name))?;
    let n = v.parse::<i64>().map_err(|_| OptionError::NotInteger {
        name,
        value: super::echo(v),
    })?;
    if n < min || n > max {
        return Err(OptionError::OutOfRange {
            name,
            value: n,
            min,
            max,
        });
    }
    Ok(n)
}

fn check(name: &'static str, value: Option<&str>) -> Result<bool, OptionError> {
    let v = value.ok_or(OptionError::MissingValue(name))?;
    if v.eq_ignore_ascii_case("true") {
        Ok(true)
    } else if v.eq_ignore_ascii_case("false") {
        Ok(false)
    } else {
        Err(OptionError::NotBool {
            name,
            value: super::echo(v),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive() {
        assert_eq!(
            parse_setoption("hash", Some("64")),
            Ok(OptionChange::Hash(64))
        );
        assert_eq!(
            parse_setoption("MOVE OVERHEAD", Some("0")),
            Ok(OptionChange::MoveOverhead(0))
        );
        assert_eq!(
            parse_setoption("uci_variant", Some("Standard")),
            Ok(OptionChange::Variant(Variant::Chess))
        );
        assert_eq!(
            parse_setoption("Ponder", Some("TRUE")),
            Ok(OptionChange::Ponder(true))
        );
    }

    #[test]
    fn bad_values() {
        assert!(matches!(
            parse_setoption("Hash", Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_setoption("Hash", Some("abc")),
            Err(OptionError::NotInteger { .. })
        ));
        assert!(matches!(
            parse_setoption("Threads", None),
            Err(OptionError::MissingValue(_))
        ));
        assert!(matches!(
            parse_setoption("Nope", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        assert!(matches!(
            parse_setoption("UCI_Variant", Some("nosuch")),
            Err(OptionError::UnknownVariant(_))
        ));
        assert!(matches!(
            parse_setoption("Ponder", Some("yes")),
            Err(OptionError::NotBool { .. })
        ));
        assert!(matches!(
            parse_setoption("Clear Hash", Some("now")),
            Err(OptionError::ButtonValue(_))
        ));
        assert!(matches!(
            parse_setoption("UCI_AnalyseMode", Some("1")),
            Err(OptionError::NotBool { .. })
        ));
    }

    #[test]
    fn buttons_strings_and_checks() {
        assert_eq!(
            parse_setoption("clear hash", None),
            Ok(OptionChange::ClearHash)
        );
        assert_eq!(
            parse_setoption("Debug Log File", Some("/tmp/x y.log")),
            Ok(OptionChange::DebugLogFile(Some("/tmp/x y.log".into())))
        );
        assert_eq!(
            parse_setoption("Debug Log File", Some("<empty>")),
            Ok(OptionChange::DebugLogFile(None))
        );
        assert_eq!(
            parse_setoption("Debug Log File", None),
            Ok(OptionChange::DebugLogFile(None))
        );
        assert_eq!(
            parse_setoption("UCI_AnalyseMode", Some("true")),
            Ok(OptionChange::AnalyseMode(true))
        );
    }

    #[test]
    fn strength_options() {
        assert_eq!(
            parse_setoption("skill level", Some("3")),
            Ok(OptionChange::SkillLevel(3))
        );
        assert!(matches!(
            parse_setoption("Skill Level", Some("21")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_setoption("UCI_Elo", Some("99999")),
            Err(OptionError::OutOfRange { .. })
        ));
        let mut o = EngineOptions::default();
        assert_eq!(o.skill(), Skill::full());
        o.apply(&parse_setoption("Skill Level", Some("5")).unwrap());
        assert_eq!(o.skill(), Skill::from_level(5));
        o.apply(&parse_setoption("UCI_Elo", Some("2000")).unwrap());
        assert_eq!(
            o.skill(),
            Skill::from_level(5),
            "UCI_Elo waits for UCI_LimitStrength"
        );
        o.apply(&parse_setoption("UCI_LimitStrength", Some("true")).unwrap());
        assert_eq!(o.skill(), Skill::from_elo(2000));
        assert_eq!(o.search_options().skill, Skill::from_elo(2000));
        o.apply(&parse_setoption("UCI_ShowWDL", Some("true")).unwrap());
        assert!(o.show_wdl);
    }

    #[test]
    fn hash_limit_is_known_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(hash_limit_mb().is_some_and(|mb| mb >= 1));
        }
    }

    #[test]
    fn uci_lists_chess_first() {
        let lines = uci_option_lines();
        assert!(lines[0].starts_with("option name UCI_Variant type combo default chess var chess"));
        assert_eq!(lines.len(), 15);
        assert!(lines.contains(&"option name EvalFile type string default <default>".to_string()));
        assert_eq!(
            parse_setoption("evalfile", Some("a b.nnv")),
            Ok(OptionChange::EvalFile(Some("a b.nnv".into())))
        );
        for none in [None, Some("<none>"), Some("<empty>")] {
            assert_eq!(
                parse_setoption("EvalFile", none),
                Ok(OptionChange::EvalFile(None))
            );
        }
    }
}
