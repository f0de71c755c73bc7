//! The `menagerie` binary: with no subcommand, the protocol loop on stdin/stdout
//! (docs/protocol.md); `perft`, `variants`, `bench`, `setup`, `replay`, `book`, `match` (with `match
//! merge`), `datagen` and `gui` as subcommands, each in its module of `cli/`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

/// What `--help` (and `-h`) says first: what the binary is without a subcommand.
const ABOUT: &str = concat!(
    env!("CARGO_PKG_DESCRIPTION"),
    ".\n\n",
    "With no subcommand the binary is the engine: it speaks its protocol (UCI with the\n\
     extensions of docs/protocol.md) on stdin and stdout, as a chess GUI or `menagerie match`\n\
     expects. The subcommands below are the tools beside it."
);

/// What `--version` prints after the name: the version and the commit the binary was built
/// from, as the engine's start-up banner names it (`unknown` when the build had no git).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("MENAGERIE_COMMIT"),
    ")"
);

/// menagerie: a chess-variant engine. Without a subcommand it speaks UCI (with the extensions
/// of protocol.md) on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "menagerie", version = VERSION, about = ABOUT, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Count the leaves of the legal move tree (move generation test).
    Perft(cli::engine::PerftArgs),
    /// List the variants this build plays, one protocol name a line (the values of
    /// `UCI_Variant` and `--variant`), for scripts that loop over every variant.
    Variants,
    /// Fixed-depth searches of the bench positions; prints time, nodes and nodes/s.
    Bench(cli::engine::BenchArgs),
    /// Print a random start position of a variant whose games start from random setups
    /// (Mutatis Mutandis, rules 3): the same seed gives the same FEN on every machine.
    Setup(cli::engine::SetupArgs),
    /// Replay a game record written in the seed's own notation: prints the FEN before each ply,
    /// the ply as written and as a protocol token, then the final FEN and the result. With
    /// --pgn, checks instead that every game of a PGN file (as `menagerie match` writes them)
    /// replays legally to its recorded result.
    Replay(cli::engine::ReplayArgs),
    /// Make a book of balanced openings: random turns from the start (or from a random setup
    /// where the variant has them), kept when a short search scores them within +-window cp;
    /// written as an EPD file of FENs for `match --openings`.
    Book(cli::book::BookArgs),
    /// Play an engine-vs-engine match (games in pairs, colours reversed); prints W/D/L, Elo
    /// and normalised Elo with 95% intervals, LOS, pentanomial counts and, with --sprt, the
    /// LLR. `match merge` combines the --json results of a match's shards.
    Match(Box<cli::matches::MatchCmd>),
    /// Self-play training data: quiet positions with the search score and the game result, as
    /// `FEN | score | result` lines (Texel tuning, docs/tuning.md) or the binary format of the
    /// network trainer (--format bin, docs/networks.md). `datagen merge` joins binary files.
    Datagen(Box<cli::datagen::DatagenCmd>),
    /// Play and analyse every variant in a browser: a local web server, a client of the engine
    /// over its protocol (docs/gui.md). Prints its address; Ctrl-C stops it.
    #[cfg(feature = "gui")]
    Gui(cli::gui::GuiArgs),
}

/// The subcommands print reports that are often piped into `head` or `grep -m1`: when the
/// reader closes the pipe, end quietly as Unix tools do, instead of panicking on the write.
/// Not for the protocol loop (it handles a closed output itself), nor for `match` and `gui`:
/// there a closed pipe is an engine that exited, which must cost that engine its game (or be
/// restarted), never kill the runner (SIGPIPE stays ignored, as Rust sets it, and the write
/// fails with EPIPE).
fn die_quietly_on_closed_pipe() {
    #[cfg(target_os = "linux")]
    // SAFETY: restoring the default disposition of one signal at start-up, before any thread
    // exists, has no effect on Rust's memory safety.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    let Some(command) = Cli::parse().command else {
        menagerie::protocol::run_stdio();
        return ExitCode::SUCCESS;
    };
    #[cfg(feature = "gui")]
    let writes_to_engines = matches!(command, Cmd::Match(_) | Cmd::Gui(_));
    #[cfg(not(feature = "gui"))]
    let writes_to_engines = matches!(command, Cmd::Match(_));
    if !writes_to_engines {
        die_quietly_on_closed_pipe();
    }
    match command {
        Cmd::Perft(args) => cli::engine::perft(&args),
        Cmd::Variants => cli::engine::variants(),
        Cmd::Bench(args) => cli::engine::bench(&args),
        Cmd::Setup(args) => cli::engine::setup(&args),
        Cmd::Replay(args) => cli::engine::replay(&args),
        Cmd::Book(args) => cli::book::run(&args),
        Cmd::Match(cmd) => cli::matches::run(*cmd),
        Cmd::Datagen(cmd) => cli::datagen::run(&cmd),
        #[cfg(feature = "gui")]
        Cmd::Gui(args) => cli::gui::run(args),
    }
}
