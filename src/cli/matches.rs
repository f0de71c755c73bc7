//! `menagerie match` and `menagerie match merge`: the command line of the match runner
//! ([`menagerie::tools::arena`]).

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};

use menagerie::tools::arena::{
    self,
    adjudicate::{DrawRule, ResignRule},
    openings::{Openings, OpeningsFormat, OpeningsOrder},
    referee::GameSettings,
    results::{self, MatchResult, Settings},
    spec::{EngineSpec, EngineWords, Limit, Shard, Sprt},
    MatchConfig,
};
use menagerie::variants::{Game, Variant};

use super::{finish, parse_variant, print_out, say, say_part};

/// Runs `menagerie match` (or `match merge`); prints the summary on stdout and any error on
/// stderr, and gives the exit code (failure when the match stopped on an engine fault).
pub fn run(cmd: MatchCmd) -> ExitCode {
    match cmd.action {
        Some(MatchAction::Merge { files, json }) => finish(run_merge(&files, json.as_deref())),
        Some(MatchAction::Curve { files }) => finish(run_curve(&files)),
        None => match run_match(cmd.args) {
            Ok(MatchOutcome { summary, error }) => {
                print_out(&summary);
                match error {
                    None => ExitCode::SUCCESS,
                    Some(message) => {
                        say(&format!("error: {message}"));
                        ExitCode::FAILURE
                    }
                }
            }
            Err(message) => {
                say(&format!("error: {message}"));
                ExitCode::FAILURE
            }
        },
    }
}

/// `menagerie match [merge ...]`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchCmd {
    #[command(subcommand)]
    action: Option<MatchAction>,
    #[command(flatten)]
    args: MatchArgs,
}

/// What `menagerie match` does besides playing.
#[derive(Subcommand, Debug)]
pub enum MatchAction {
    /// Merge the --json results of one match's shards (or reruns of disjoint pairs): prints the
    /// combined summary, pentanomial statistics and SPRT.
    Merge {
        /// The result files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Write the merged result to this file.
        #[arg(long)]
        json: Option<std::path::PathBuf>,
    },
    /// Print a match's course as CSV (`pairs,games,elo,elo_low,elo_high,llr`): the Elo with
    /// its 95% interval and the SPRT's LLR after each pair, the --json files (one match's
    /// shards) merged first. scripts/plot_match.py draws it.
    Curve {
        /// The result files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
}

/// The arguments of `menagerie match`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["movetime", "nodes", "depth", "tc"])))]
pub struct MatchArgs {
    /// A player, given twice: `builtin:random`, `builtin:greedy`, or an engine command line
    /// with optional trailing `option.<Name>=<value>` words, an optional own limit
    /// (`tc=<base>+<inc>`, `movetime=<ms>`, `nodes=<n>` or `depth=<plies>`) that overrides the
    /// match limit for that engine, and an optional `name=<name>` (not passed to the engine).
    #[arg(long = "engine", required = true, num_args = 1, value_parser = parse_engine)]
    engines: Vec<EngineSpec>,
    /// Settings for both engines (like fastchess's -each): `option.<Name>=<value>` words and a
    /// limit word, e.g. "option.Hash=32 nodes=2000"; an engine's own settings win.
    #[arg(long, value_parser = parse_each)]
    each: Option<EngineWords>,
    /// Variant to play.
    #[arg(long, default_value = "chess", value_parser = parse_variant)]
    variant: Variant,
    /// Number of games (of the whole match when sharded).
    // An `Option` only so that `match merge` parses: clap requires it for a match.
    #[arg(long, required = true, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: Option<u64>,
    /// Fixed time per turn, in milliseconds.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Fixed node budget per turn.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Fixed depth per turn, in plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    /// Clock per side: `<base>+<inc>` in seconds (e.g. `10+0.1`).
    #[arg(long, value_parser = parse_tc)]
    tc: Option<Limit>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: u64,
    /// Random legal turns from the start position opening each pair of games (at most 200).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=200), conflicts_with = "openings")]
    random_plies: u64,
    /// Opening book: an EPD/FEN file (one FEN per line, `#` comments) or a PGN file; each
    /// opening is played twice, colours reversed.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Format of the openings file [default: pgn for a .pgn file, else epd].
    #[arg(long, value_enum, requires = "openings")]
    openings_format: Option<FormatArg>,
    /// Order in which pairs take the openings (random: a shuffle drawn from --seed).
    #[arg(long, value_enum, default_value_t = OrderArg::Sequential, requires = "openings")]
    openings_order: OrderArg,
    /// Turns taken from each PGN opening at most [default: all].
    #[arg(long, requires = "openings")]
    openings_plies: Option<usize>,
    /// Seed of the openings and the built-in players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append every game to this PGN file.
    #[arg(long)]
    pgn: Option<std::path::PathBuf>,
    /// Write the result (counts, pentanomial pairs, settings) to this JSON file; it is
    /// rewritten after every game, so a stopped or killed match keeps its finished games.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Continue the match whose --json result file this is: its finished games count and are
    /// not played again (same engines and settings required). The result goes on being
    /// written to that file unless --json names another; the --pgn file is cut back to the
    /// games the result file counts, then appended to.
    #[arg(long)]
    resume: Option<std::path::PathBuf>,
    /// Play only the K-th of N disjoint slices of the match (`K/N`, pairs K-1, K-1+N, ...);
    /// merge the shards' --json files with `match merge`.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<Shard>,
    /// SPRT: `elo0=<a> elo1=<b> alpha=<x> beta=<y>` (one argument or up to four words).
    #[arg(long, num_args = 1..=4, value_delimiter = None)]
    sprt: Option<Vec<String>>,
    /// Turns after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..))]
    max_turns: u64,
    /// Draw adjudication: `movenumber=<N> movecount=<M> score=<cp>`: drawn once, from full
    /// move N on, both engines scored within cp of 0 for M turns each.
    #[arg(long, value_parser = parse_draw)]
    draw: Option<DrawRule>,
    /// Resign adjudication: `movecount=<M> score=<cp>`: lost for an engine that scored -cp or
    /// worse for M turns while its opponent scored +cp or better for M turns.
    #[arg(long, value_parser = parse_resign)]
    resign: Option<ResignRule>,
    /// Restart an engine that crashed or stalled (its game is lost) and go on; without it
    /// the match stops with an error.
    #[arg(long)]
    recover: bool,
    /// Time an engine may use past its movetime or its clock before it loses, in ms.
    #[arg(long, default_value_t = 100)]
    margin: u64,
    /// Wait for an answer under --nodes/--depth, and for start-up, in ms.
    #[arg(long, default_value_t = 30_000)]
    timeout: u64,
}

/// `--openings-format`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// One FEN per line.
    Epd,
    /// PGN games.
    Pgn,
}

/// `--openings-order`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum OrderArg {
    /// File order.
    Sequential,
    /// A shuffle drawn from the seed.
    Random,
}

fn parse_engine(text: &str) -> Result<EngineSpec, String> {
    EngineSpec::parse(text).map_err(|e| e.to_string())
}

fn parse_tc(text: &str) -> Result<Limit, String> {
    arena::spec::parse_tc(text).map_err(|e| e.to_string())
}

fn parse_each(text: &str) -> Result<EngineWords, String> {
    EngineWords::parse_each(text).map_err(|e| e.to_string())
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).map_err(|e| e.to_string())
}

fn parse_draw(text: &str) -> Result<DrawRule, String> {
    DrawRule::parse(text).map_err(|e| e.to_string())
}

fn parse_resign(text: &str) -> Result<ResignRule, String> {
    ResignRule::parse(text).map_err(|e| e.to_string())
}

/// What a match run prints: the summary (stdout), and an error when it stopped on an engine
/// fault (stderr, non-zero exit).
struct MatchOutcome {
    summary: String,
    error: Option<String>,
}

/// Runs `menagerie match`.
///
/// Errors: bad settings, an engine failing its start-up checks, a bad openings file, or a PGN
/// or JSON file that cannot be written, as a message.
fn run_match(args: MatchArgs) -> Result<MatchOutcome, String> {
    let mut engines: [EngineSpec; 2] =
        args.engines
            .clone()
            .try_into()
            .map_err(|v: Vec<EngineSpec>| {
                format!("--engine must be given exactly twice, got {}", v.len())
            })?;
    if let Some(each) = &args.each {
        for e in &mut engines {
            e.apply_each(each);
        }
    }
    let sprt = match &args.sprt {
        Some(words) => Some(Sprt::parse(&words.join(" ")).map_err(|e| e.to_string())?),
        None => None,
    };
    let limit = match (args.movetime, args.nodes, args.depth, args.tc) {
        (Some(ms), ..) => Some(Limit::Movetime(ms)),
        (_, Some(n), ..) => Some(Limit::Nodes(n)),
        (_, _, Some(d), _) => Some(Limit::Depth(d)),
        (.., Some(tc)) => Some(tc),
        _ => None,
    };
    // An engine's own limit wins; a built-in player does not search, any limit does for it.
    let own_limit = |e: &EngineSpec| match e {
        EngineSpec::Command { limit: Some(l), .. } => Some(*l),
        EngineSpec::Command { limit: None, .. } => limit,
        EngineSpec::Builtin(_) => limit
            .or(args.each.as_ref().and_then(|e| e.limit))
            .or(Some(Limit::Nodes(1))),
    };
    let limits = match (own_limit(&engines[0]), own_limit(&engines[1])) {
        (Some(a), Some(b)) => [a, b],
        _ => {
            return Err(
                "one of --movetime, --nodes, --depth, --tc is required unless each engine has its own limit".into(),
            )
        }
    };
    let cfg = MatchConfig {
        names: arena::spec::player_names(&engines),
        engines,
        games: args.games.ok_or("--games is required")? as usize,
        limits,
        settings: GameSettings {
            margin_ms: args.margin,
            fixed_timeout_ms: args.timeout,
            max_turns: args.max_turns as usize,
            draw: args.draw,
            resign: args.resign,
        },
        concurrency: args.concurrency as usize,
        random_plies: args.random_plies as usize,
        openings: None,
        seed: args.seed,
        sprt,
        handshake_timeout_ms: args.timeout,
        recover: args.recover,
        shard: args.shard,
    };
    menagerie::with_variant!(args.variant, G => run_match_for::<G>(cfg, &args))
}

/// Runs `menagerie match` for variant `G` once the settings are read.
///
/// Errors: as [`run_match`].
fn run_match_for<G: Game>(mut cfg: MatchConfig, args: &MatchArgs) -> Result<MatchOutcome, String> {
    if let Some(path) = &args.openings {
        let format = args.openings_format.map(|f| match f {
            FormatArg::Epd => OpeningsFormat::Epd,
            FormatArg::Pgn => OpeningsFormat::Pgn,
        });
        let order = match args.openings_order {
            OrderArg::Sequential => OpeningsOrder::Sequential,
            OrderArg::Random => OpeningsOrder::Random,
        };
        let book = Openings::load::<G>(path, format, order, args.openings_plies)
            .map_err(|e| format!("--openings {e}"))?;
        cfg.openings = Some(book);
    }
    let settings = Settings::new(&cfg, G::INFO.name);
    let earlier = match &args.resume {
        Some(path) => Some(read_resume(path, &settings, &cfg)?),
        None => None,
    };
    if let Some(warning) = arena::repeated_games_warning::<G>(&cfg) {
        say(&warning);
    }
    let json_path = args.json.clone().or_else(|| args.resume.clone());
    let mut file = match &args.pgn {
        Some(path) => Some(open_pgn(path, earlier.as_ref().and_then(|e| e.pgn_bytes))?),
        None => None,
    };
    // On a terminal the match state stays as a live last line of stderr, redrawn after each
    // game; otherwise (a log file, a pipe) only the per-game lines are written.
    let live = std::io::stderr().is_terminal();
    // Ctrl-C, SIGTERM or SIGHUP end the match at once with the summary of the finished games;
    // those are already in the PGN and the result file. The engines die with the process
    // (see client::process).
    let names = cfg.names.clone();
    let last = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let summary_now = last.clone();
    ctrlc::set_handler(move || {
        say("\ninterrupted: match stopped, engines killed");
        let text = summary_now.lock().map(|s| s.clone()).unwrap_or_default();
        print_out(&text);
        std::process::exit(130);
    })
    .map_err(|e| format!("installing the signal handler: {e}"))?;
    let mut progress = |line: &str, status: &str| {
        if live {
            say_part(&format!("\r\x1b[K{line}\n{status}"));
        } else {
            say(line);
        }
    };
    let pgn_path = args.pgn.clone();
    let shard = cfg.shard;
    let mut checkpoint = |report: &arena::MatchReport| -> std::io::Result<()> {
        if let Ok(mut text) = last.lock() {
            *text = report.summary([&names[0], &names[1]]);
        }
        match &json_path {
            Some(path) => write_result(path, &settings, shard, report, pgn_path.as_deref()),
            None => Ok(()),
        }
    };
    let pairs = earlier.map(|e| e.pairs).unwrap_or_default();
    let output = arena::MatchOutput {
        progress: &mut progress,
        pgn: file.as_mut().map(|f| f as &mut dyn std::io::Write),
        checkpoint: Some(&mut checkpoint),
    };
    let report = arena::run_match_with::<G>(&cfg, &pairs, output).map_err(|e| e.to_string())?;
    if live {
        say("");
    }
    let mut error = report
        .aborted
        .then(|| report.stopped.clone().unwrap_or_default());
    if let Some(path) = json_path.as_deref() {
        if let Err(e) = write_result(path, &settings, shard, &report, args.pgn.as_deref()) {
            error.get_or_insert(format!("{}: {e}", path.display()));
        }
    }
    let mut summary = report.summary([&cfg.names[0], &cfg.names[1]]);
    if let Some(shard) = cfg.shard {
        summary.push_str(&format!(
            "Shard: {shard} ({} of {} games)\n",
            report.games.len() + report.resumed.len(),
            cfg.games
        ));
    }
    if !report.resumed.is_empty() {
        summary.push_str(&format!(
            "Resumed: {} games from the earlier run, {} played now\n",
            report.resumed.len(),
            report.games.len()
        ));
    }
    Ok(MatchOutcome { summary, error })
}

/// Reads the result file of `--resume` and checks that it is a run of this match (the same
/// settings and shard).
///
/// Errors: an unreadable file, or one of another match, as a message.
fn read_resume(
    path: &std::path::Path,
    settings: &Settings,
    cfg: &MatchConfig,
) -> Result<MatchResult, String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("--resume {name}: {e}"))?;
    let earlier = MatchResult::from_json(&text, &name).map_err(|e| format!("--resume {e}"))?;
    if !earlier.settings.same_match(settings) {
        return Err(format!(
            "--resume {name}: not a run of this match (the engines, games, openings or other \
             settings differ)"
        ));
    }
    let shard = (cfg.shard.map(|s| s.count), cfg.shard.map(|s| vec![s.index]));
    if (
        earlier.shard_count,
        Some(earlier.shards.clone()).filter(|s| !s.is_empty()),
    ) != (shard.0, shard.1)
    {
        return Err(format!("--resume {name}: another shard of the match"));
    }
    Ok(earlier)
}

/// Opens the PGN file for appending; on a resumed match first cuts it back to `keep` bytes
/// (what the result file counts), dropping a game that was written after the last result
/// file or cut short. A file shorter than `keep` is left alone.
///
/// Errors: a file that cannot be opened or cut, as a message.
fn open_pgn(path: &std::path::Path, keep: Option<u64>) -> Result<std::fs::File, String> {
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(fail)?;
    if let Some(keep) = keep {
        let len = file.metadata().map_err(fail)?.len();
        if len > keep {
            file.set_len(keep).map_err(fail)?;
            say(&format!(
                "{}: {} bytes after the last game of the result file removed (played again)",
                path.display(),
                len - keep
            ));
        }
    }
    Ok(file)
}

/// Writes the result file of `report` to `path` through a temporary file renamed over it, so
/// that a runner killed while writing leaves the previous complete file. Records the size of
/// the PGN file at `pgn` (every game counted is in it by then).
///
/// Errors: the file cannot be written or renamed.
fn write_result(
    path: &std::path::Path,
    settings: &Settings,
    shard: Option<Shard>,
    report: &arena::MatchReport,
    pgn: Option<&std::path::Path>,
) -> std::io::Result<()> {
    let mut result = MatchResult::new(settings.clone(), shard, report);
    result.pgn_bytes = pgn.and_then(|p| std::fs::metadata(p).ok()).map(|m| m.len());
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, result.to_json())?;
    std::fs::rename(&tmp, path)
}

/// Reads result files and merges them.
///
/// Errors: unreadable or mismatched files.
fn read_merged(files: &[std::path::PathBuf]) -> Result<MatchResult, String> {
    let mut results = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        results.push((
            name.clone(),
            MatchResult::from_json(&text, &name).map_err(|e| e.to_string())?,
        ));
    }
    results::merge(&results).map_err(|e| e.to_string())
}

/// Runs `menagerie match curve`: the merged result's course as CSV text.
///
/// Errors: unreadable or mismatched files.
fn run_curve(files: &[std::path::PathBuf]) -> Result<String, String> {
    let merged = read_merged(files)?;
    let mut text = format!("{}\n", results::CurvePoint::CSV_HEADER);
    for point in merged.curve() {
        text.push_str(&point.csv());
        text.push('\n');
    }
    Ok(text)
}

/// Runs `menagerie match merge`: reads the result files, merges them and returns the summary.
///
/// Errors: unreadable or mismatched files, or an output file that cannot be written.
fn run_merge(
    files: &[std::path::PathBuf],
    json: Option<&std::path::Path>,
) -> Result<String, String> {
    let merged = read_merged(files)?;
    if let Some(path) = json {
        std::fs::write(path, merged.to_json()).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let e = &merged.settings.engines;
    let mut summary = merged.report().summary([&e[0].name, &e[1].name]);
    summary.push_str(&format!(
        "Merged: {} files, {} ({} of {} games)\n",
        files.len(),
        merged.shards_line(),
        merged.wdl.wins + merged.wdl.draws + merged.wdl.losses,
        merged.settings.games
    ));
    Ok(summary)
}
