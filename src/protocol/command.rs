//! Parsing of one protocol input line into a typed [`Command`] (protocol.md 1-6).
//!
//! Parsing only checks the shape of a line (keywords, numbers); whether a FEN or a move token
//! is valid depends on the variant and is checked when the command runs.

use crate::search::Limits;

/// The longest piece of user input echoed back in an error message, in characters.
const ECHO_LIMIT: usize = 60;

/// One parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify the engine and list its options.
    Uci,
    /// `isready`: answered by `readyok`, even while searching.
    IsReady,
    /// `debug on|off`: accepted and ignored.
    Debug(bool),
    /// `help`: list the commands.
    Help,
    /// `setoption name <name> [value <value>]`; the name keeps its words joined by one space.
    SetOption {
        /// The option name as given (matched case-insensitively later).
        name: String,
        /// The value, if any (words joined by one space).
        value: Option<String>,
    },
    /// `ucinewgame`: forget what was learnt (clears the TT).
    UciNewGame,
    /// `position startpos|fen <FEN> [moves ...]`.
    Position(PositionSpec),
    /// `go ...`: a search, or `go perft N`.
    Go(GoCommand),
    /// `stop`: end the running search and report its best turn.
    Stop,
    /// `ponderhit`: the expected turn was played; the ponder search goes on on the clock.
    PonderHit,
    /// `quit`: stop any search and exit.
    Quit,
    /// `d`: display the board, FEN and state (protocol.md 6).
    Display,
    /// `moves [pgn]`: list the legal turn tokens, or with `pgn` the same turns in the
    /// variant's PGN notation, in the same order (protocol.md 8).
    Moves {
        /// `moves pgn`: the PGN notation instead of the tokens.
        pgn: bool,
    },
    /// `check`: the squares of the side to move's royal pieces when it is in check
    /// (protocol.md 8).
    Check,
    /// `eval`: the static evaluation term by term (protocol.md 6).
    Eval,
    /// `variant`: the variant's description: board, first rank, holes, pieces (protocol.md 8).
    Variant,
    /// `result`: the game's result by rule at the current position, or `none` (protocol.md 8).
    Result,
    /// `diagram <code> <square>`: a piece's moves and captures from a square of an otherwise
    /// empty board (protocol.md 8).
    Diagram {
        /// The piece's code (either case).
        code: String,
        /// The square's name.
        square: String,
    },
    /// `notation <turn>...`: the variant's notation of turn tokens played in order from the
    /// current position, which is left as it is (protocol.md 8).
    Notation(Vec<String>),
}

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    /// The variant's start position.
    StartPos,
    /// A FEN (its fields joined by one space).
    Fen(String),
}

/// A parsed `position` command: a base position and the turn tokens to play from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// The starting point.
    pub base: PositionBase,
    /// Turn tokens (protocol.md 3), in order.
    pub moves: Vec<String>,
}

/// A parsed `go` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoCommand {
    /// A search within these limits.
    Search {
        /// The limits given.
        limits: Limits,
        /// The turn tokens after `searchmoves`, as given (checked against the position when
        /// the search starts); empty: every turn.
        searchmoves: Vec<String>,
        /// What was wrong with the line and left out: unknown words, values that are not
        /// numbers. Reported in one `info string error` line; the search runs without them.
        ignored: Vec<CommandError>,
    },
    /// `go perft N`: perft divide to `N` turns (N >= 1).
    Perft(u32),
}

/// Why an input line is not a valid command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first word is no known command.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A keyword lacks the value that must follow it.
    #[error("{command}: missing {what}")]
    Missing {
        /// The command (`go`, `position`, `setoption`).
        command: &'static str,
        /// What is missing.
        what: String,
    },
    /// A value is not a number of the expected kind.
    #[error("{command}: {keyword} needs {expected}, got '{value}'")]
    BadNumber {
        /// The command.
        command: &'static str,
        /// The keyword the value belongs to.
        keyword: &'static str,
        /// What was expected, e.g. `a non-negative integer`.
        expected: &'static str,
        /// The value as given.
        value: String,
    },
    /// A word that has no place at this point of the command.
    #[error("{command}: unexpected '{token}'")]
    Unexpected {
        /// The command.
        command: &'static str,
        /// The offending word.
        token: String,
    },
    /// An integer too large (or, for a time, too negative) for the keyword.
    #[error("{command}: {keyword} {value} is out of range {min}..{max}")]
    OutOfRange {
        /// The command.
        command: &'static str,
        /// The keyword the value belongs to.
        keyword: &'static str,
        /// The value as given.
        value: String,
        /// The smallest value accepted.
        min: i128,
        /// The largest value accepted.
        max: i128,
    },
    /// A keyword given a second time in one command: the first one counts.
    #[error("{command}: {keyword} given twice: '{keyword}{}'", .value.as_deref().map(|v| format!(" {v}")).unwrap_or_default())]
    Repeated {
        /// The command.
        command: &'static str,
        /// The keyword.
        keyword: &'static str,
        /// The value that came with the second one, if any (its words joined by a space).
        value: Option<String>,
    },
}

/// User input as an error message quotes it: shortened to its first 60 characters and `...`
/// (long garbage lines stay readable), with control characters escaped ([`escape_controls`])
/// so that a terminal or GUI showing the line never acts on them.
pub fn echo(text: &str) -> String {
    if text.chars().count() <= ECHO_LIMIT {
        escape_controls(text)
    } else {
        let head: String = text.chars().take(ECHO_LIMIT).collect();
        format!("{}...", escape_controls(&head))
    }
}

/// `text` with every control character written out: NUL as `\0`, the other C0 controls and
/// DEL as `\x1b`-style hex escapes, the C1 controls (U+0080 to U+009F, which some terminals
/// obey) as `\u{9b}`. Everything else, backslashes included, is kept as it is.
pub fn escape_controls(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\0' => out.push_str("\\0"),
            c if (c as u32) < 0x80 && c.is_control() => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Parses one input line. `Ok(None)` for a blank line.
///
/// Errors: a [`CommandError`] saying which word is wrong and why.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = tokens.split_first() else {
        return Ok(None);
    };
    let command = match first {
        "uci" => no_args("uci", rest, Command::Uci)?,
        "isready" => no_args("isready", rest, Command::IsReady)?,
        "debug" => parse_debug(rest)?,
        "help" => no_args("help", rest, Command::Help)?,
        "setoption" => parse_setoption(rest)?,
        "ucinewgame" => no_args("ucinewgame", rest, Command::UciNewGame)?,
        "position" => Command::Position(parse_position(rest)?),
        "go" => Command::Go(parse_go(rest)?),
        "stop" => no_args("stop", rest, Command::Stop)?,
        "ponderhit" => no_args("ponderhit", rest, Command::PonderHit)?,
        "quit" => Command::Quit,
        "d" => no_args("d", rest, Command::Display)?,
        "moves" => match rest {
            [] => Command::Moves { pgn: false },
            ["pgn"] => Command::Moves { pgn: true },
            [t, ..] => {
                return Err(CommandError::Unexpected {
                    command: "moves",
                    token: echo(t),
                })
            }
        },
        "check" => no_args("check", rest, Command::Check)?,
        "eval" => no_args("eval", rest, Command::Eval)?,
        "variant" => no_args("variant", rest, Command::Variant)?,
        "result" => no_args("result", rest, Command::Result)?,
        "notation" => Command::Notation(rest.iter().map(|t| t.to_string()).collect()),
        "diagram" => match rest {
            [code, square] => Command::Diagram {
                code: code.to_string(),
                square: square.to_string(),
            },
            [] | [_] => {
                return Err(CommandError::Missing {
                    command: "diagram",
                    what: "the piece's code and the square (diagram <code> <square>)".into(),
                })
            }
            [_, _, t, ..] => {
                return Err(CommandError::Unexpected {
                    command: "diagram",
                    token: echo(t),
                })
            }
        },
        other => return Err(CommandError::Unknown(echo(other))),
    };
    Ok(Some(command))
}

fn no_args(command: &'static str, rest: &[&str], cmd: Command) -> Result<Command, CommandError> {
    match rest.first() {
        None => Ok(cmd),
        Some(t) => Err(CommandError::Unexpected {
            command,
            token: echo(t),
        }),
    }
}

/// `debug on` or `debug off`.
fn parse_debug(rest: &[&str]) -> Result<Command, CommandError> {
    match rest {
        ["on"] => Ok(Command::Debug(true)),
        ["off"] => Ok(Command::Debug(false)),
        [] => Err(CommandError::Missing {
            command: "debug",
            what: "'on' or 'off'".into(),
        }),
        [word, ..] => Err(CommandError::Unexpected {
            command: "debug",
            token: echo(word),
        }),
    }
}

/// `setoption name <words> [value <words>]`: the name runs up to the word `value`.
fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    const CMD: &str = "setoption";
    match rest.first() {
        Some(t) if t.eq_ignore_ascii_case("name") => {}
        Some(t) => {
            return Err(CommandError::Unexpected {
                command: CMD,
                token: echo(t),
            })
        }
        None => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "'name'".into(),
            })
        }
    }
    let rest = &rest[1..];
    let split = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name_words, value_words) = match split {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    if name_words.is_empty() {
        return Err(CommandError::Missing {
            command: CMD,
            what: "option name".into(),
        });
    }
    let value = match value_words {
        Some([]) => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "value after 'value'".into(),
            })
        }
        Some(words) => Some(words.join(" ")),
        None => None,
    };
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

/// `position startpos [moves ...]` or `position fen <fields> [moves ...]`.
fn parse_position(rest: &[&str]) -> Result<PositionSpec, CommandError> {
    const CMD: &str = "position";
    let moves_at = rest.iter().position(|t| *t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let base = match head.split_first() {
        Some((&"startpos", [])) => PositionBase::StartPos,
        Some((&"startpos", [extra, ..])) => {
            return Err(CommandError::Unexpected {
                command: CMD,
                token: echo(extra),
            })
        }
        Some((&"fen", [])) => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "FEN after 'fen'".into(),
            })
        }
        Some((&"fen", fields)) => PositionBase::Fen(fields.join(" ")),
        Some((other, _)) => {
            return Err(CommandError::Unexpected {
                command: CMD,
                token: echo(other),
            })
        }
        None => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "'startpos' or 'fen'".into(),
            })
        }
    };
    Ok(PositionSpec {
        base,
        moves: moves.iter().map(|t| t.to_string()).collect(),
    })
}

/// The `go` keywords that take a value, used to end a `searchmoves` list.
const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "perft",
    "searchmoves",
];

/// `go ...`. A search never fails to parse: every word that is wrong (unknown, or a keyword
/// without a proper value) is collected in `ignored` and the search runs with the rest, so
/// that every `go` gets its `bestmove` (a GUI would wait for it forever). `go perft` with
/// anything wrong is refused as a whole.
fn parse_go(rest: &[&str]) -> Result<GoCommand, CommandError> {
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut ignored = Vec::new();
    let mut perft = None;
    let mut seen: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        i += 1;
        // The value after a keyword, unless the next word is itself a keyword.
        let value = rest.get(i).filter(|v| !GO_KEYWORDS.contains(v));
        let took_value = value.is_some();
        if GO_KEYWORDS.contains(&key) {
            if seen.contains(&key) {
                // The first one counts: a second is reported with what came with it.
                let end = if key == "searchmoves" {
                    (i..rest.len())
                        .find(|&j| GO_KEYWORDS.contains(&rest[j]))
                        .unwrap_or(rest.len())
                } else if took_value && !matches!(key, "infinite" | "ponder") {
                    i + 1
                } else {
                    i
                };
                ignored.push(CommandError::Repeated {
                    command: "go",
                    keyword: keyword(key),
                    value: (end > i).then(|| echo(&rest[i..end].join(" "))),
                });
                i = end;
                continue;
            }
            seen.push(key);
        }
        let outcome: Result<(), CommandError> = match key {
            "infinite" => {
                limits.infinite = true;
                Ok(())
            }
            "ponder" => {
                limits.ponder = true;
                Ok(())
            }
            "searchmoves" => {
                let before = searchmoves.len();
                while i < rest.len() && !GO_KEYWORDS.contains(&rest[i]) {
                    searchmoves.push(rest[i].to_string());
                    i += 1;
                }
                if searchmoves.len() == before {
                    Err(CommandError::Missing {
                        command: "go",
                        what: "turns after 'searchmoves'".into(),
                    })
                } else {
                    Ok(())
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" => time_value(keyword(key), value)
                .map(|v| match key {
                    "wtime" => limits.wtime = Some(v),
                    "btime" => limits.btime = Some(v),
                    "winc" => limits.winc = Some(v),
                    "binc" => limits.binc = Some(v),
                    _ => limits.movetime = Some(v),
                }),
            "nodes" => {
                count_value::<u64>("nodes", value, 0, u64::MAX).map(|v| limits.nodes = Some(v))
            }
            "movestogo" | "depth" | "mate" => {
                let min = if key == "movestogo" { 1 } else { 0 };
                count_value::<u32>(keyword(key), value, min, u32::MAX.into()).map(|v| match key {
                    "movestogo" => limits.movestogo = Some(v),
                    "depth" => limits.depth = Some(v),
                    _ => limits.mate = Some(v),
                })
            }
            "perft" => {
                count_value::<u32>("perft", value, 1, u32::MAX.into()).map(|v| perft = Some(v))
            }
            other => {
                ignored.push(CommandError::Unexpected {
                    command: "go",
                    token: echo(other),
                });
                continue;
            }
        };
        if took_value && !matches!(key, "infinite" | "ponder" | "searchmoves") {
            i += 1;
        }
        if let Err(e) = outcome {
            ignored.push(e);
        }
    }
    if perft.is_some() || rest.contains(&"perft") {
        return match (perft, ignored.into_iter().next()) {
            (_, Some(e)) => Err(e),
            (Some(depth), None) => Ok(GoCommand::Perft(depth)),
            (None, None) => Err(CommandError::Missing {
                command: "go",
                what: "depth after 'perft'".into(),
            }),
        };
    }
    Ok(GoCommand::Search {
        limits,
        searchmoves,
        ignored,
    })
}

/// The static spelling of a `go` keyword (for error messages).
fn keyword(key: &str) -> &'static str {
    GO_KEYWORDS
        .iter()
        .find(|k| **k == key)
        .copied()
        .unwrap_or("go")
}

/// A time in milliseconds. GUIs may send negative clocks when a flag is about to fall: those
/// (of any size) count as 0.
fn time_value(keyword: &'static str, value: Option<&&str>) -> Result<u64, CommandError> {
    let Some(v) = value else {
        return Err(CommandError::Missing {
            command: "go",
            what: format!("value after '{keyword}'"),
        });
    };
    if v.starts_with('-') && is_integer(v) {
        return Ok(0);
    }
    v.parse::<i64>().map(|t| t.max(0) as u64).map_err(|_| {
        if is_integer(v) {
            CommandError::OutOfRange {
                command: "go",
                keyword,
                value: echo(v),
                min: 0,
                max: i64::MAX.into(),
            }
        } else {
            CommandError::BadNumber {
                command: "go",
                keyword,
                expected: "a time in milliseconds",
                value: echo(v),
            }
        }
    })
}

/// Whether `v` is written as an integer (an optional sign, then decimal digits), whatever
/// its size.
fn is_integer(v: &str) -> bool {
    let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A count from `min` to `max` (the largest value of `T`).
fn count_value<T: TryFrom<u64>>(
    keyword: &'static str,
    value: Option<&&str>,
    min: u64,
    max: u64,
) -> Result<T, CommandError> {
    let Some(v) = value else {
        return Err(CommandError::Missing {
            command: "go",
            what: format!("value after '{keyword}'"),
        });
    };
    let expected = if min >= 1 {
        "a positive integer"
    } else {
        "a non-negative integer"
    };
    // Digits only, but too many of them for the keyword.
    let too_large =
        !v.starts_with('-') && is_integer(v) && v.parse::<u64>().map_or(true, |n| n > max);
    match v.parse::<u64>().ok().filter(|n| *n >= min).map(T::try_from) {
        Some(Ok(n)) => Ok(n),
        _ if too_large => Err(CommandError::OutOfRange {
            command: "go",
            keyword,
            value: echo(v),
            min: min.into(),
            max: max.into(),
        }),
        _ => Err(CommandError::BadNumber {
            command: "go",
            keyword,
            expected,
            value: echo(v),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_are_nothing() {
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("   \t "), Ok(None));
    }

    #[test]
    fn setoption_multi_word_names_and_values() {
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Ok(Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }))
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }))
        );
        assert!(parse("setoption name").is_err());
        assert!(parse("setoption name Hash value").is_err());
        assert!(parse("setoption Hash 3").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Some(Command::Position(PositionSpec {
                base: PositionBase::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })))
        );
        let fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
        assert_eq!(
            parse(&format!("position fen {fen}")),
            Ok(Some(Command::Position(PositionSpec {
                base: PositionBase::Fen(fen.into()),
                moves: vec![]
            })))
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos e2e4").is_err());
        assert!(parse("position somewhere").is_err());
    }

    #[test]
    fn go_forms() {
        let Ok(Some(Command::Go(GoCommand::Search { limits, .. }))) =
            parse("go wtime 1000 btime -5 winc 10 binc 10 movestogo 20")
        else {
            panic!("go with clocks should parse");
        };
        assert_eq!(limits.wtime, Some(1000));
        assert_eq!(limits.btime, Some(0));
        assert_eq!(limits.movestogo, Some(20));
        assert_eq!(
            parse("go perft 3"),
            Ok(Some(Command::Go(GoCommand::Perft(3))))
        );
        assert!(parse("go perft 0").is_err());
        assert!(parse("go perft").is_err());
        assert!(parse("go perft 3 sideways").is_err());
        let Ok(Some(Command::Go(GoCommand::Search {
            limits,
            searchmoves,
            ignored,
        }))) = parse("go searchmoves e2e4 d2d4 depth 3 infinite")
        else {
            panic!("searchmoves should parse");
        };
        assert!(limits.infinite && ignored.is_empty());
        assert_eq!(searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(limits.depth, Some(3));
    }

    /// A `go` with wrong words still searches; the words are reported.
    #[test]
    fn go_keeps_what_is_right_and_reports_the_rest() {
        let search = |line: &str| match parse(line) {
            Ok(Some(Command::Go(GoCommand::Search {
                limits, ignored, ..
            }))) => (
                limits,
                ignored.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            ),
            other => panic!("{line}: {other:?}"),
        };
        let (limits, ignored) = search("go sideways depth 4 frobnicate");
        assert_eq!(limits.depth, Some(4));
        assert_eq!(
            ignored,
            vec!["go: unexpected 'sideways'", "go: unexpected 'frobnicate'"]
        );
        // A bad value is dropped with its keyword; a keyword is never taken as a value.
        let (limits, ignored) = search("go depth x nodes -1 movetime");
        assert_eq!(limits, Limits::default());
        assert_eq!(ignored.len(), 3, "{ignored:?}");
        let (limits, ignored) = search("go depth movetime 50");
        assert_eq!((limits.depth, limits.movetime), (None, Some(50)));
        assert_eq!(ignored, vec!["go: missing value after 'depth'"]);
        let (_, ignored) = search("go searchmoves");
        assert_eq!(ignored.len(), 1);
    }

    /// A keyword given twice is reported (the first counts), and a number
    /// too large for its keyword says so instead of calling it negative.
    #[test]
    fn repeated_keywords_and_numbers_out_of_range() {
        let search = |line: &str| match parse(line) {
            Ok(Some(Command::Go(GoCommand::Search {
                limits,
                ignored,
                searchmoves,
            }))) => (
                limits,
                searchmoves,
                ignored.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            ),
            other => panic!("{line}: {other:?}"),
        };
        let (limits, _, ignored) = search("go depth 3 depth 5");
        assert_eq!(limits.depth, Some(3));
        assert_eq!(ignored, vec!["go: depth given twice: 'depth 5'"]);
        let (limits, moves, ignored) =
            search("go searchmoves e2e4 infinite searchmoves d2d4 c2c4 nodes 9 infinite");
        assert_eq!((limits.nodes, limits.infinite), (Some(9), true));
        assert_eq!(moves, vec!["e2e4"]);
        assert_eq!(
            ignored,
            vec![
                "go: searchmoves given twice: 'searchmoves d2d4 c2c4'",
                "go: infinite given twice: 'infinite'"
            ]
        );
        let (limits, _, ignored) = search("go depth 99999999999 nodes 5");
        assert_eq!((limits.depth, limits.nodes), (None, Some(5)));
        assert_eq!(
            ignored,
            vec!["go: depth 99999999999 is out of range 0..4294967295"]
        );
        let (_, _, ignored) = search("go nodes 18446744073709551616 movetime 9223372036854775808");
        assert_eq!(
            ignored,
            vec![
                "go: nodes 18446744073709551616 is out of range 0..18446744073709551615",
                "go: movetime 9223372036854775808 is out of range 0..9223372036854775807"
            ]
        );
        // A clock of any negative size counts as 0; a negative count is not a count.
        let (limits, _, ignored) = search("go wtime -99999999999999999999 depth -1");
        assert_eq!(limits.wtime, Some(0));
        assert_eq!(
            ignored,
            vec!["go: depth needs a non-negative integer, got '-1'"]
        );
        assert_eq!(
            parse("go perft 99999999999").unwrap_err().to_string(),
            "go: perft 99999999999 is out of range 1..4294967295"
        );
        assert_eq!(
            parse("go perft 2 perft 3").unwrap_err().to_string(),
            "go: perft given twice: 'perft 3'"
        );
    }

    /// Quoted input never carries a control character.
    #[test]
    fn echoed_input_has_its_control_characters_escaped() {
        assert_eq!(echo("x\u{1b}[31mRED"), "x\\x1b[31mRED");
        assert_eq!(echo("a\0b\u{7f}\u{9b}c\\d"), "a\\0b\\x7f\\u{9b}c\\d");
        assert_eq!(
            parse("x\u{1b}[31mRED").unwrap_err().to_string(),
            "unknown command 'x\\x1b[31mRED'"
        );
        let long = format!("{}\u{1b}", "y".repeat(59));
        assert_eq!(echo(&long), format!("{}\\x1b", "y".repeat(59)));
        assert_eq!(
            echo(&format!("{long}z")),
            format!("{}\\x1b...", "y".repeat(59))
        );
    }

    #[test]
    fn debug_takes_on_or_off() {
        assert_eq!(parse("debug on"), Ok(Some(Command::Debug(true))));
        assert_eq!(parse("debug off"), Ok(Some(Command::Debug(false))));
        assert!(parse("debug maybe").is_err());
        assert!(parse("debug").is_err());
        assert!(parse("debug on off").is_err());
    }

    #[test]
    fn unknown_and_long_input() {
        let long = "x".repeat(100_000);
        let err = parse(&long).unwrap_err();
        assert!(err.to_string().len() < 100);
        assert!(matches!(
            parse("hello world"),
            Err(CommandError::Unknown(_))
        ));
    }
}
