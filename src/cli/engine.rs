//! The engine's own subcommands: `perft`, `variants`, `bench`, `setup` and `replay`.

use std::process::ExitCode;
use std::time::Instant;

use clap::ValueEnum;

use menagerie::perft::{self, Unit};
use menagerie::variants::{Game, Notation, Rules, Variant, VariantSettings};

use super::{finish, parse_variant};

/// The arguments of `menagerie perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
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
}

/// The perft unit on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum UnitArg {
    /// Whole turns (what `go perft` counts).
    Turn,
    /// Single plies.
    Ply,
}

/// The arguments of `menagerie bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
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
    /// The network the searches use, as the protocol's `EvalFile`: a file, `<default>` (the
    /// variant's compiled-in network, the default) or `<none>`; needs --variant. To measure
    /// what a network costs in speed.
    #[arg(long, default_value = "<default>", requires = "variant")]
    eval_file: String,
}

/// The arguments of `menagerie setup`.
#[derive(clap::Args, Debug)]
pub struct SetupArgs {
    /// Variant name.
    #[arg(long, value_parser = parse_variant)]
    variant: Variant,
    /// Seed of the draw (0..2^64-1); without it a seed is taken from the clock and
    /// printed on standard error.
    #[arg(long)]
    seed: Option<u64>,
}

/// The arguments of `menagerie replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
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
}

/// Runs `menagerie perft`: prints the node count and speed, or the divide table.
pub fn perft(args: &PerftArgs) -> ExitCode {
    let unit = match args.unit {
        UnitArg::Turn => Unit::Turn,
        UnitArg::Ply => Unit::Ply,
    };
    let settings = VariantSettings {
        chess960: args.chess960,
    };
    finish(menagerie::with_variant!(args.variant, G => run_perft::<G>(args, unit, &settings)))
}

/// Runs perft for variant `G`; returns what to print.
///
/// Errors: the FEN error or a setting the variant does not support, as a message.
fn run_perft<G: Game>(
    args: &PerftArgs,
    unit: Unit,
    settings: &VariantSettings,
) -> Result<String, String> {
    let mut pos = match &args.fen {
        Some(fen) => G::from_fen(fen).map_err(|e| e.to_string())?,
        None => G::startpos(),
    };
    pos.apply_settings(settings)?;
    let start = Instant::now();
    let rows = perft::divide(&pos, args.depth, unit, args.threads as usize);
    let elapsed = start.elapsed();
    if args.divide {
        return Ok(perft::format_divide(&rows));
    }
    let nodes: u64 = rows.iter().map(|(_, n)| n).sum();
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    Ok(format!(
        "Nodes searched: {nodes}\nTime (ms): {ms}  Nodes/second: {nps}\n"
    ))
}

/// Runs `menagerie variants`: the protocol name of every variant of the registry
/// ([`Variant::ALL`]), one a line.
pub fn variants() -> ExitCode {
    let names: String = Variant::ALL
        .iter()
        .map(|v| format!("{}\n", v.name()))
        .collect();
    finish(Ok(names))
}

/// Runs `menagerie bench`: one line per variant searched, then the totals (the node total is
/// the `Bench:` fingerprint).
pub fn bench(args: &BenchArgs) -> ExitCode {
    let (threads, hash) = (args.threads as usize, args.hash as usize);
    let variants: &[Variant] = match &args.variant {
        Some(v) => std::slice::from_ref(v),
        None => Variant::ALL,
    };
    if let (Some(v), true) = (args.variant, args.eval_file != "<default>") {
        let net = (args.eval_file != "<none>").then(|| std::path::Path::new(&args.eval_file));
        let loaded = menagerie::with_variant!(v, G => {
            use menagerie::variants::network::NetInputs;
            G::load_network(net)
        });
        if let Err(e) = loaded {
            eprintln!("error: --eval-file: {e}");
            return ExitCode::FAILURE;
        }
    }
    let (mut nodes, mut time_ms) = (0u64, 0u64);
    for &v in variants {
        let report = menagerie::with_variant!(v, G => {
            menagerie::bench::run::<G>(args.depth.unwrap_or(G::SEARCH.bench_depth), threads, hash)
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

/// Runs `menagerie setup`: prints the FEN of the random setup drawn from the seed (a seed
/// from the clock, printed on stderr, when none is given).
pub fn setup(args: &SetupArgs) -> ExitCode {
    let seed = args.seed.unwrap_or_else(|| {
        let s = menagerie::core::clock_seed();
        eprintln!("seed {s}");
        s
    });
    let fen = menagerie::with_variant!(args.variant, G => G::random_setup(seed).map(|p| p.fen()));
    finish(fen.map(|fen| format!("{fen}\n")).ok_or_else(|| {
        format!(
            "{} has one fixed start position and no random setups",
            args.variant.name()
        )
    }))
}

/// Runs `menagerie replay`: a record in the seed's own notation (from a file or stdin), or,
/// with `--pgn`, the check of every game of a PGN file.
pub fn replay(args: &ReplayArgs) -> ExitCode {
    if let Some(path) = &args.pgn {
        return finish(
            std::fs::read_to_string(path)
                .map_err(|e| format!("{}: {e}", path.display()))
                .and_then(|text| {
                    menagerie::tools::replay::check_pgn_text(&text, args.variant)
                        .map_err(|e| format!("{}: {e}", path.display()))
                }),
        );
    }
    let Some(variant) = args.variant else {
        return finish(Err("--variant is required without --pgn".into()));
    };
    let record = match &args.file {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display())),
        None => {
            std::io::read_to_string(std::io::stdin()).map_err(|e| format!("standard input: {e}"))
        }
    };
    finish(record.and_then(
        |text| menagerie::with_variant!(variant, G => run_replay::<G>(args.fen.as_deref(), &text)),
    ))
}

/// Replays `record` for variant `G` from `fen` (or the start position).
///
/// Errors: the FEN error or the first move string that is not a legal ply, as a message.
fn run_replay<G: Game>(fen: Option<&str>, record: &str) -> Result<String, String> {
    let start = match fen {
        Some(fen) => G::from_fen(fen).map_err(|e| e.to_string())?,
        None => G::startpos(),
    };
    let replay = menagerie::tools::replay::replay(&start, record).map_err(|e| e.to_string())?;
    Ok(menagerie::tools::replay::format_replay(&replay))
}
