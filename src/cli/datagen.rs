//! `menagerie datagen`: the command line of self-play training data
//! ([`menagerie::tools::datagen`]).

use std::process::ExitCode;

use menagerie::tools::datagen::{self, DatagenConfig, Shard};
use menagerie::variants::Variant;

use super::{finish, parse_variant};

/// Runs `menagerie datagen`: prints the summary line, or the error, and gives the exit code.
pub fn run(args: &DatagenArgs) -> ExitCode {
    finish(run_datagen(args).map(|summary| format!("{summary}\n")))
}

/// The arguments of `menagerie datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
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
    #[arg(long, value_parser = Shard::parse)]
    shard: Option<Shard>,
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
    let cfg = DatagenConfig {
        games: args.games,
        nodes: args.nodes,
        threads: args.threads as usize,
        shard: args.shard.unwrap_or(Shard::ALL),
        seed: args.seed,
        max_plies: args.max_plies,
    };
    let file =
        std::fs::File::create(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let mut progress = |line: &str| eprintln!("{line}");
    let summary = menagerie::with_variant!(args.variant, G => {
        datagen::run::<G>(&cfg, &mut out, &mut progress)
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
