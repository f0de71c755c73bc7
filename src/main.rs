//! The `menagerie` binary: with no subcommand, the protocol loop on stdin/stdout
//! (shared/protocol.md); `perft`, `bench`, `replay`, `match` and `datagen` as subcommands.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};

use menagerie::arena::{
    self,
    referee::GameSettings,
    spec::{EngineSpec, Limit, Sprt},
    MatchConfig,
};
use menagerie::perft::{self, Unit};
use menagerie::variants::{Game, Variant};

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
    /// the ply as written and as a protocol token, then the final FEN and the result.
    Replay {
        /// Variant of the record.
        #[arg(long, value_parser = parse_variant)]
        variant: Variant,
        /// Start from this FEN instead of the variant's start position.
        #[arg(long)]
        fen: Option<String>,
        /// File holding the record; standard input when absent.
        #[arg(long)]
        file: Option<std::path::PathBuf>,
    },
    /// Play an engine-vs-engine match (games in pairs, colours reversed); prints W/D/L, Elo
    /// with a 95% interval and, with --sprt, the LLR.
    Match(Box<MatchArgs>),
    /// Self-play training data for Texel tuning: quiet positions with the search score and the
    /// game result, one `FEN | score | result` line each (see the README, "Tuning").
    Datagen(DatagenArgs),
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

/// The arguments of `menagerie match`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["movetime", "nodes", "depth", "tc"])))]
struct MatchArgs {
    /// A player, given twice: `builtin:random`, `builtin:greedy`, or an engine command line
    /// with optional trailing `option.<Name>=<value>` words and an optional own limit
    /// (`tc=<base>+<inc>`, `movetime=<ms>`, `nodes=<n>` or `depth=<plies>`) that overrides the
    /// match limit for that engine.
    #[arg(long = "engine", required = true, num_args = 1, value_parser = parse_engine)]
    engines: Vec<EngineSpec>,
    /// Variant to play.
    #[arg(long, default_value = "chess", value_parser = parse_variant)]
    variant: Variant,
    /// Number of games.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: u64,
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
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=200))]
    random_plies: u64,
    /// Seed of the openings and the built-in players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append every game to this PGN file.
    #[arg(long)]
    pgn: Option<std::path::PathBuf>,
    /// SPRT: `elo0=<a> elo1=<b> alpha=<x> beta=<y>` (one argument or up to four words).
    #[arg(long, num_args = 1..=4, value_delimiter = None)]
    sprt: Option<Vec<String>>,
    /// Turns after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..))]
    max_turns: u64,
    /// Time granted past the movetime or the clock before a missing answer loses, in ms.
    #[arg(long, default_value_t = 1000)]
    margin: u64,
    /// Wait for an answer under --nodes/--depth, and for start-up, in ms.
    #[arg(long, default_value_t = 30_000)]
    timeout: u64,
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

/// Runs `menagerie match`.
///
/// Errors: bad settings or a PGN file that cannot be written, as a message.
fn run_match(args: MatchArgs) -> Result<String, String> {
    let engines: [EngineSpec; 2] = args.engines.try_into().map_err(|v: Vec<EngineSpec>| {
        format!("--engine must be given exactly twice, got {}", v.len())
    })?;
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
        EngineSpec::Builtin(_) => limit.or(Some(Limit::Nodes(1))),
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
        engines,
        games: args.games as usize,
        limits,
        settings: GameSettings {
            margin_ms: args.margin,
            fixed_timeout_ms: args.timeout,
            max_turns: args.max_turns as usize,
        },
        concurrency: args.concurrency as usize,
        random_plies: args.random_plies as usize,
        seed: args.seed,
        sprt,
        handshake_timeout_ms: args.timeout,
    };
    let mut file = match &args.pgn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => None,
    };
    // On a terminal the match state stays as a live last line of stderr, redrawn after each
    // game; otherwise (a log file, a pipe) only the per-game lines are written.
    let live = std::io::stderr().is_terminal();
    // Ctrl-C, SIGTERM or SIGHUP end the match at once. The finished games are already on
    // stderr and in the PGN; the engines die with the process (see arena::engine).
    ctrlc::set_handler(move || {
        eprintln!("\ninterrupted: match stopped, engines killed");
        std::process::exit(130);
    })
    .map_err(|e| format!("installing the signal handler: {e}"))?;
    let mut progress = |line: &str, status: &str| {
        if live {
            eprint!("\r\x1b[K{line}\n{status}");
        } else {
            eprintln!("{line}");
        }
    };
    let pgn = file.as_mut().map(|f| f as &mut dyn std::io::Write);
    let report = menagerie::with_variant!(args.variant, G => arena::run_match::<G>(&cfg, &mut progress, pgn))
        .map_err(|e| format!("writing the PGN: {e}"))?;
    if live {
        eprintln!();
    }
    let names = [cfg.engines[0].name(), cfg.engines[1].name()];
    Ok(report.summary([&names[0], &names[1]]))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
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
        Some(Cmd::Replay { variant, fen, file }) => {
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
        Some(Cmd::Match(args)) => match run_match(*args) {
            Ok(summary) => {
                print!("{summary}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::FAILURE
            }
        },
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
}

/// Runs perft for variant `G`.
///
/// Errors: the FEN error, as a message.
fn run_perft<G: Game>(run: &PerftRun<'_>) -> Result<(), String> {
    let pos = match run.fen {
        Some(fen) => G::from_fen(fen).map_err(|e| e.to_string())?,
        None => G::startpos(),
    };
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
