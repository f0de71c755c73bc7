//! `menagerie gui`: the browser front end ([`menagerie::gui`]).

use std::process::ExitCode;

use super::finish;

/// The arguments of `menagerie gui`.
#[derive(clap::Args, Debug)]
pub struct GuiArgs {
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
}

/// Runs the server until Ctrl-C; an error (e.g. the port is taken) is printed.
pub fn run(args: GuiArgs) -> ExitCode {
    finish(
        menagerie::gui::run(menagerie::gui::GuiConfig {
            host: args.host,
            port: args.port,
            engine: args.engine,
            games_dir: args.games_dir,
            max_engines: args.max_engines as usize,
            open: args.open,
        })
        .map(|()| String::new()),
    )
}
