//! The `menagerie` binary: with no subcommand, the protocol loop on stdin/stdout
//! (docs/protocol.md); `perft`, `bench`, `setup`, `replay`, `book`, `match` (with `match
//! merge`) and `datagen` as subcommands.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};

use menagerie::arena::{
    self,
    adjudicate::{DrawRule, ResignRule},
    book::BookConfig,
    openings::{Openings, OpeningsFormat, OpeningsOrder},
    referee::GameSettings,
    results::{self, MatchResult, Settings},
    spec::{EngineSpec, EngineWords, Limit, Shard, Sprt},
    MatchConfig,
};
use menagerie::perft::{self, Unit};
use menagerie::variants::{Game, Variant, VariantSettings};

/// menagerie: a chess-variant engine. Without a subcommand it speaks UCI (with the extensions
/// of protocol.md) on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "menagerie", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Count the leaves of the legal move tree (move generation test).
    Perft {
        /// Variant name (chess; `standard` and `normal` are aliases).
        #[arg(long, default_value = "chess", value_parser = parse_variant)]
        variant: Variant,
        /// Start from this FEN instead of the variant's start position.
        #[arg(long)]
        fen: Option<String>,
        /// Depth, in turns (or plies with `--unit ply`).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        depth: u32,
        /// Print each root move with its count, in Stockfish's `go perft` format.
        #[arg(long)]
        divide: bool,
        /// Worker threads splitting the root moves.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// What one unit of depth is.
        #[arg(long, value_enum, default_value_t = UnitArg::Turn)]
        unit: UnitArg,
        /// Write castling as the King taking its own Rook (`e1h1`), as `UCI_Chess960` does
        /// (variants that support it).
        #[arg(long)]
        chess960: bool,
    },
    /// Fixed-depth searches of the bench positions; prints time, nodes and nodes/s.
    Bench {
        /// Variant whose bench positions are searched [default: every variant, one line each,
        /// then the total: the `Bench:` fingerprint of commits that change play].
        #[arg(long, value_parser = parse_variant)]
        variant: Option<Variant>,
        /// Search depth in plies [default: each variant's bench depth, 12 for chess].
        #[arg(long)]
        depth: Option<u32>,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
        hash: u64,
    },
    /// Print a random start position of a variant whose games start from random setups
    /// (Mutatis Mutandis, rules 3): the same seed gives the same FEN on every machine.
    Setup {
        /// Variant name.
        #[arg(long, value_parser = parse_variant)]
        variant: Variant,
        /// Seed of the draw (0..2^64-1); without it a seed is taken from the clock and
        /// printed on standard error.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Replay a game record written in the seed's own notation: prints the FEN before each ply,
    /// the ply as written and as a protocol token, then the final FEN and the result. With
    /// --pgn, checks instead that every game of a PGN file (as `menagerie match` writes them)
    /// replays legally to its recorded result.
    Replay {
        /// Variant of the record; with --pgn, the variant of games without a `Variant` tag
        /// [default there: chess].
        #[arg(long, value_parser = parse_variant, required_unless_present = "pgn")]
        variant: Option<Variant>,
        /// Start from this FEN instead of the variant's start position.
        #[arg(long, conflicts_with = "pgn")]
        fen: Option<String>,
        /// File holding the record; standard input when absent.
        #[arg(long, conflicts_with = "pgn")]
        file: Option<std::path::PathBuf>,
        /// A PGN file to check game by game (any variants: each game's `Variant` tag says).
        #[arg(long)]
        pgn: Option<std::path::PathBuf>,
    },
    /// Make a book of balanced openings: random turns from the start (or from a random setup
    /// where the variant has them), kept when a short search scores them within +-window cp;
    /// written as an EPD file of FENs for `match --openings`.
    Book {
        /// Variant of the book.
        #[arg(long, value_parser = parse_variant)]
        variant: Variant,
        /// Openings wanted.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        count: u64,
        /// Random turns from the start of each opening.
        #[arg(long, value_parser = clap::value_parser!(u64).range(0..=200))]
        plies: u64,
        /// Seed of the random turns.
        #[arg(long)]
        seed: u64,
        /// Node budget of the search that scores each candidate.
        #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Largest absolute score kept, in centipawns.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(0..=100_000))]
        window: u32,
        /// The book file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Play an engine-vs-engine match (games in pairs, colours reversed); prints W/D/L, Elo
    /// and normalised Elo with 95% intervals, LOS, pentanomial counts and, with --sprt, the
    /// LLR. `match merge` combines the --json results of a match's shards.
    Match(Box<MatchCmd>),
    /// Self-play training data for Texel tuning: quiet positions with the search score and the
    /// game result, one `FEN | score | result` line each (see the README, "Tuning").
    Datagen(DatagenArgs),
    /// Play and analyse every variant in a browser: a local web server, a client of the engine
    /// over its protocol (docs/gui.md). Prints its address; Ctrl-C stops it.
    #[cfg(feature = "gui")]
    Gui {
        /// Address to listen on (anything but a loopback address prints a warning).
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// TCP port (0: any free port; the address printed is the real one).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The engine program [default: this binary].
        #[arg(long)]
        engine: Option<std::path::PathBuf>,
        /// Where every game is saved as PGN as it is played.
        #[arg(long, default_value = "menagerie-games")]
        games_dir: std::path::PathBuf,
        /// At most this many engine processes at once (games beyond wait for one).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=64))]
        max_engines: u64,
        /// Open the address in the default browser.
        #[arg(long)]
        open: bool,
    },
}

/// The arguments of `menagerie datagen`.
#[derive(clap::Args, Debug)]
struct DatagenArgs {
    /// Variant to play.
    #[arg(long, value_parser = parse_variant)]
    variant: Variant,
    /// Games of the whole run (all shards together).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    games: u64,
    /// Node budget of each search (one thread per game).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Games played at once (each with a single-threaded search).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Play only the K-th of N disjoint slices of the run (`K/N`: games K-1, K-1+N, ...).
    #[arg(long, value_parser = menagerie::datagen::Shard::parse)]
    shard: Option<menagerie::datagen::Shard>,
    /// Seed of the openings (the same seed, shard and nodes give the same file).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: u32,
    /// Output file (replaced).
    #[arg(long)]
    out: std::path::PathBuf,
}

/// Runs `menagerie datagen`; returns the summary line.
///
/// Errors: the output file cannot be created or written, as a message naming it.
fn run_datagen(args: &DatagenArgs) -> Result<String, String> {
    let cfg = menagerie::datagen::DatagenConfig {
        games: args.games,
        nodes: args.nodes,
        threads: args.threads as usize,
        shard: args.shard.unwrap_or(menagerie::datagen::Shard::ALL),
        seed: args.seed,
        max_plies: args.max_plies,
    };
    let file =
        std::fs::File::create(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let mut progress = |line: &str| eprintln!("{line}");
    let summary = menagerie::with_variant!(args.variant, G => {
        menagerie::datagen::run::<G>(&cfg, &mut out, &mut progress)
    })
    .map_err(|e| format!("{}: {e}", args.out.display()))?;
    Ok(format!(
        "{}: {} games, {} positions (White +{} ={} -{})",
        args.out.display(),
        summary.games,
        summary.positions,
        summary.wdl[0],
        summary.wdl[1],
        summary.wdl[2]
    ))
}

/// `menagerie match [merge ...]`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct MatchCmd {
    #[command(subcommand)]
    action: Option<MatchAction>,
    #[command(flatten)]
    args: MatchArgs,
}

/// What `menagerie match` does besides playing.
#[derive(Subcommand, Debug)]
enum MatchAction {
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
}

/// The arguments of `menagerie match`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["movetime", "nodes", "depth", "tc"])))]
struct MatchArgs {
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

/// The perft unit on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum UnitArg {
    /// Whole turns (what `go perft` counts).
    Turn,
    /// Single plies.
    Ply,
}

fn parse_variant(name: &str) -> Result<Variant, String> {
    Variant::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        format!("unknown variant '{name}' (known: {})", known.join(", "))
    })
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
    // (see arena::engine).
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

/// A line on stderr; a closed stderr is ignored (the match goes on and writes its files).
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Text on stderr without a newline (the live status line); errors ignored.
fn say_part(text: &str) {
    use std::io::Write;
    let mut err = std::io::stderr();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

/// Text on stdout; a closed stdout (a reader that went away) is ignored, so the match still
/// writes its result file and exits with its own status.
fn print_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Runs `menagerie match merge`: reads the result files, merges them and returns the summary.
///
/// Errors: unreadable or mismatched files, or an output file that cannot be written.
fn run_merge(
    files: &[std::path::PathBuf],
    json: Option<&std::path::Path>,
) -> Result<String, String> {
    let mut results = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        results.push((
            name.clone(),
            MatchResult::from_json(&text, &name).map_err(|e| e.to_string())?,
        ));
    }
    let merged = results::merge(&results).map_err(|e| e.to_string())?;
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

/// Runs `menagerie book`: makes the book and writes it.
///
/// Errors: a file that cannot be written, or fewer openings found than asked for (the ones
/// found are written all the same).
fn run_book(variant: Variant, cfg: &BookConfig, out: &std::path::Path) -> Result<String, String> {
    let (text, found) = menagerie::with_variant!(variant, G => {
        let book = arena::book::generate::<G>(cfg, &mut |_, _| {});
        (arena::book::format_book::<G>(cfg, &book), book.len())
    });
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    if found < cfg.count {
        return Err(format!(
            "only {found} of {} openings found within +-{} cp in {} tries (written to {}); try other --plies or a wider --window",
            cfg.count,
            cfg.window_cp,
            cfg.max_tries,
            out.display()
        ));
    }
    Ok(format!("{found} openings written to {}\n", out.display()))
}

/// Prints `result` (stdout) or its error (stderr) and gives the exit code.
fn finish(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The subcommands print reports that are often piped into `head` or `grep -m1`: when the
/// reader closes the pipe, end quietly as Unix tools do, instead of panicking on the write.
/// Not for the protocol loop (it handles a closed output itself) nor for `match`: there a
/// closed pipe is an engine that exited, which must cost that engine its game, never kill the
/// runner (SIGPIPE stays ignored, as Rust sets it, and the write fails with EPIPE).
fn die_quietly_on_closed_pipe() {
    #[cfg(target_os = "linux")]
    // SAFETY: restoring the default disposition of one signal at start-up, before any thread
    // exists, has no effect on Rust's memory safety.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Not for the match runner and the GUI server, which write to engines that may die: a
    // closed pipe is an error they handle (the engine loses its game, or is restarted), not a
    // reason to end.
    #[cfg(feature = "gui")]
    let server = matches!(cli.command, Some(Cmd::Gui { .. }));
    #[cfg(not(feature = "gui"))]
    let server = false;
    if cli.command.is_some() && !server && !matches!(cli.command, Some(Cmd::Match(_))) {
        die_quietly_on_closed_pipe();
    }
    match cli.command {
        None => {
            menagerie::protocol::run_stdio();
            ExitCode::SUCCESS
        }
        Some(Cmd::Perft {
            variant,
            fen,
            depth,
            divide,
            threads,
            unit,
            chess960,
        }) => {
            let unit = match unit {
                UnitArg::Turn => Unit::Turn,
                UnitArg::Ply => Unit::Ply,
            };
            let run = PerftRun {
                fen: fen.as_deref(),
                depth,
                divide,
                threads: threads as usize,
                unit,
                settings: VariantSettings { chess960 },
            };
            let result = menagerie::with_variant!(variant, G => run_perft::<G>(&run));
            match result {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Cmd::Replay {
            pgn: Some(path),
            variant,
            ..
        }) => finish(
            std::fs::read_to_string(&path)
                .map_err(|e| format!("{}: {e}", path.display()))
                .and_then(|text| {
                    menagerie::replay::check_pgn_text(&text, variant)
                        .map_err(|e| format!("{}: {e}", path.display()))
                }),
        ),
        Some(Cmd::Replay {
            variant, fen, file, ..
        }) => {
            let Some(variant) = variant else {
                eprintln!("error: --variant is required without --pgn");
                return ExitCode::FAILURE;
            };
            let record = match file {
                Some(path) => {
                    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
                }
                None => std::io::read_to_string(std::io::stdin())
                    .map_err(|e| format!("standard input: {e}")),
            };
            let result = record.and_then(|text| {
                menagerie::with_variant!(variant, G => run_replay::<G>(fen.as_deref(), &text))
            });
            match result {
                Ok(text) => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::FAILURE
                }
            }
        }
        #[cfg(feature = "gui")]
        Some(Cmd::Gui {
            host,
            port,
            engine,
            games_dir,
            max_engines,
            open,
        }) => finish(
            menagerie::gui::run(menagerie::gui::GuiConfig {
                host,
                port,
                engine,
                games_dir,
                max_engines: max_engines as usize,
                open,
            })
            .map(|()| String::new()),
        ),
        Some(Cmd::Datagen(args)) => match run_datagen(&args) {
            Ok(summary) => {
                println!("{summary}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::FAILURE
            }
        },
        Some(Cmd::Match(cmd)) => match cmd.action {
            Some(MatchAction::Merge { files, json }) => finish(run_merge(&files, json.as_deref())),
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
        },
        Some(Cmd::Book {
            variant,
            count,
            plies,
            seed,
            nodes,
            window,
            out,
        }) => {
            let cfg = BookConfig {
                count: count as usize,
                plies: plies as usize,
                seed,
                nodes,
                window_cp: window as i32,
                max_tries: (count as usize).saturating_mul(200),
            };
            finish(run_book(variant, &cfg, &out))
        }
        Some(Cmd::Setup { variant, seed }) => {
            let seed = seed.unwrap_or_else(|| {
                let s = menagerie::variants::mutatis_mutandis::clock_seed();
                eprintln!("seed {s}");
                s
            });
            let fen =
                menagerie::with_variant!(variant, G => G::random_setup(seed).map(|p| p.fen()));
            match fen {
                Some(fen) => {
                    println!("{fen}");
                    ExitCode::SUCCESS
                }
                None => {
                    eprintln!(
                        "error: {} has one fixed start position and no random setups",
                        variant.name()
                    );
                    ExitCode::FAILURE
                }
            }
        }
        Some(Cmd::Bench {
            variant,
            depth,
            threads,
            hash,
        }) => {
            let (threads, hash) = (threads as usize, hash as usize);
            let variants: &[Variant] = match &variant {
                Some(v) => std::slice::from_ref(v),
                None => Variant::ALL,
            };
            let (mut nodes, mut time_ms) = (0u64, 0u64);
            for &v in variants {
                let report = menagerie::with_variant!(v, G => {
                    menagerie::bench::run::<G>(depth.unwrap_or(G::BENCH_DEPTH), threads, hash)
                });
                println!(
                    "{:<16} nodes {:>10}  time (ms) {:>6}  nps {:>9}",
                    v.name(),
                    report.nodes,
                    report.time_ms,
                    report.nodes * 1000 / report.time_ms.max(1)
                );
                nodes += report.nodes;
                time_ms += report.time_ms;
            }
            println!("===========================");
            println!("Total time (ms) : {time_ms}");
            println!("Nodes searched  : {nodes}");
            println!("Nodes/second    : {}", nodes * 1000 / time_ms.max(1));
            ExitCode::SUCCESS
        }
    }
}

/// The arguments of `menagerie perft`.
struct PerftRun<'a> {
    fen: Option<&'a str>,
    depth: u32,
    divide: bool,
    threads: usize,
    unit: Unit,
    settings: VariantSettings,
}

/// Runs perft for variant `G`.
///
/// Errors: the FEN error or a setting the variant does not support, as a message.
fn run_perft<G: Game>(run: &PerftRun<'_>) -> Result<(), String> {
    let mut pos = match run.fen {
        Some(fen) => G::from_fen(fen).map_err(|e| e.to_string())?,
        None => G::startpos(),
    };
    pos.apply_settings(&run.settings)?;
    let start = Instant::now();
    let rows = perft::divide(&pos, run.depth, run.unit, run.threads);
    let elapsed = start.elapsed();
    if run.divide {
        print!("{}", perft::format_divide(&rows));
    } else {
        let nodes: u64 = rows.iter().map(|(_, n)| n).sum();
        let ms = elapsed.as_millis();
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
        println!("Nodes searched: {nodes}");
        println!("Time (ms): {ms}  Nodes/second: {nps}");
    }
    Ok(())
}

/// Replays `record` for variant `G` from `fen` (or the start position).
///
/// Errors: the FEN error or the first move string that is not a legal ply, as a message.
fn run_replay<G: Game>(fen: Option<&str>, record: &str) -> Result<String, String> {
    let start = match fen {
        Some(fen) => G::from_fen(fen).map_err(|e| e.to_string())?,
        None => G::startpos(),
    };
    let replay = menagerie::replay::replay(&start, record).map_err(|e| e.to_string())?;
    Ok(menagerie::replay::format_replay(&replay))
}
