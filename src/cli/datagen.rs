//! `menagerie datagen` and `menagerie datagen merge`: the command line of self-play training
//! data ([`menagerie::tools::datagen`], [`menagerie::tools::datafile`]).

use std::process::ExitCode;

use clap::Subcommand;
use menagerie::tools::datagen::{self, DatagenConfig, Format, Shard};
use menagerie::variants::Variant;

use super::{finish, parse_variant};

/// Runs `menagerie datagen` (or `datagen merge`): prints the summary line, or the error, and
/// gives the exit code.
pub fn run(cmd: &DatagenCmd) -> ExitCode {
    let done = match &cmd.action {
        Some(DatagenAction::Merge { files, out }) => run_merge(files, out),
        None => run_datagen(&cmd.args),
    };
    finish(done.map(|summary| format!("{summary}\n")))
}

/// `menagerie datagen [merge ...]`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct DatagenCmd {
    #[command(subcommand)]
    action: Option<DatagenAction>,
    #[command(flatten)]
    args: DatagenArgs,
}

/// What `menagerie datagen` does besides playing.
#[derive(Subcommand, Debug)]
pub enum DatagenAction {
    /// Merge binary data files of one variant (the shards of a run, or several runs): keeps
    /// each position once, at its first occurrence, and renumbers the games.
    Merge {
        /// The data files, in order.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Output file (replaced; written only when every input was read).
        #[arg(long)]
        out: std::path::PathBuf,
    },
}

/// The file format of `--format`.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
enum FormatArg {
    /// `FEN | score | result` lines (Texel tuning, Stockfish relabelling).
    Text,
    /// The binary format of docs/networks.md, deduplicated (the network trainer).
    Bin,
}

/// The arguments of `menagerie datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Variant to play.
    #[arg(long, value_parser = parse_variant, required = true)]
    variant: Option<Variant>,
    /// Games of the whole run (all shards together).
    #[arg(long, required = true, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    games: Option<u64>,
    /// Node budget of each search (one thread per game).
    #[arg(long, required = true, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// File format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    format: FormatArg,
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
    #[arg(long, required = true)]
    out: Option<std::path::PathBuf>,
    /// The network the games are played with, as the protocol's `EvalFile`: a file,
    /// `<default>` (the variant's compiled-in network, the default) or `<none>`.
    #[arg(long, default_value = "<default>")]
    eval_file: String,
}

/// Runs `menagerie datagen`; returns the summary line.
///
/// Errors: the output file cannot be created or written, as a message naming it.
fn run_datagen(args: &DatagenArgs) -> Result<String, String> {
    // clap requires these for a run (the options are only for `datagen merge` to parse).
    let (Some(variant), Some(games), Some(nodes), Some(path)) =
        (args.variant, args.games, args.nodes, args.out.as_ref())
    else {
        return Err("datagen needs --variant, --games, --nodes and --out".into());
    };
    let cfg = DatagenConfig {
        games,
        nodes,
        threads: args.threads as usize,
        shard: args.shard.unwrap_or(Shard::ALL),
        seed: args.seed,
        max_plies: args.max_plies,
        format: match args.format {
            FormatArg::Text => Format::Text,
            FormatArg::Bin => Format::Binary,
        },
    };
    if args.eval_file != "<default>" {
        let net = (args.eval_file != "<none>").then(|| std::path::Path::new(&args.eval_file));
        menagerie::with_variant!(variant, G => {
            use menagerie::variants::network::NetInputs;
            G::load_network(net)
        })
        .map_err(|e| format!("--eval-file: {e}"))?;
    }
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let mut progress = |line: &str| eprintln!("{line}");
    let summary = menagerie::with_variant!(variant, G => {
        datagen::run::<G>(&cfg, &mut out, &mut progress)
    })
    .map_err(|e| format!("{}: {e}", path.display()))?;
    let duplicates = match cfg.format {
        Format::Text => String::new(),
        Format::Binary => format!(", {} duplicates left out", summary.duplicates),
    };
    Ok(format!(
        "{}: {} games, {} positions{duplicates} (White +{} ={} -{})",
        path.display(),
        summary.games,
        summary.positions,
        summary.wdl[0],
        summary.wdl[1],
        summary.wdl[2]
    ))
}

/// Runs `menagerie datagen merge`; returns the summary line.
///
/// Errors: [`datagen::merge`]'s, or the output cannot be created, as a message naming the file.
fn run_merge(files: &[std::path::PathBuf], out: &std::path::Path) -> Result<String, String> {
    // Into memory first: the output may be one of the inputs, and a failed merge leaves it.
    let mut bytes = Vec::new();
    let summary = datagen::merge(files, &mut bytes)?;
    std::fs::write(out, bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(format!(
        "{}: {} {} positions of {} games from {} files, {} duplicates left out",
        out.display(),
        summary.variant,
        summary.positions,
        summary.games,
        files.len(),
        summary.duplicates
    ))
}
