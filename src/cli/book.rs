//! `menagerie book`: balanced openings for matches ([`menagerie::tools::arena::book`]).

use std::process::ExitCode;

use menagerie::tools::arena::book::{self, BookConfig};
use menagerie::variants::Variant;

use super::{finish, parse_variant};

/// The arguments of `menagerie book`.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
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
}

/// Runs `menagerie book`: makes the book, writes it and prints how many openings it holds.
pub fn run(args: &BookArgs) -> ExitCode {
    let cfg = BookConfig {
        count: args.count as usize,
        plies: args.plies as usize,
        seed: args.seed,
        nodes: args.nodes,
        window_cp: args.window as i32,
        max_tries: (args.count as usize).saturating_mul(200),
    };
    finish(run_book(args.variant, &cfg, &args.out))
}

/// Makes the book and writes it.
///
/// Errors: a file that cannot be written, or fewer openings found than asked for (the ones
/// found are written all the same).
fn run_book(variant: Variant, cfg: &BookConfig, out: &std::path::Path) -> Result<String, String> {
    let (text, found) = menagerie::with_variant!(variant, G => {
        let book = book::generate::<G>(cfg, &mut |_, _| {});
        (book::format_book::<G>(cfg, &book), book.len())
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
