//! The `menagerie` binary: with no subcommand, the protocol loop on stdin/stdout
//! (shared/protocol.md); `perft`, `bench` and `replay` as subcommands.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};

use menagerie::perft::{self, Unit};
use menagerie::variants::{Game, Variant};

/// Default `bench` depth (plies).
const BENCH_DEPTH: u32 = 12;

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
        /// Variant whose bench positions are searched.
        #[arg(long, default_value = "chess", value_parser = parse_variant)]
        variant: Variant,
        /// Search depth in plies.
        #[arg(long, default_value_t = BENCH_DEPTH)]
        depth: u32,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
        hash: u64,
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
        Some(Cmd::Bench {
            variant,
            depth,
            threads,
            hash,
        }) => {
            let (depth, threads, hash) = (depth, threads as usize, hash as usize);
            let report = menagerie::with_variant!(variant, G => menagerie::bench::run::<G>(depth, threads, hash));
            let nps = report.nodes * 1000 / report.time_ms.max(1);
            println!("===========================");
            println!("Total time (ms) : {}", report.time_ms);
            println!("Nodes searched  : {}", report.nodes);
            println!("Nodes/second    : {nps}");
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
