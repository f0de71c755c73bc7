//! `menagerie gui`: the browser front end ([`menagerie::gui`]).

use std::process::ExitCode;

use super::finish;

/// The arguments of `menagerie gui`.
#[derive(clap::Args, Debug)]
pub struct GuiArgs {
    /// Address to listen on. On anything but a loopback address every request needs the
    /// access token, which the printed address carries (docs/gui.md "Access").
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Another name the browsers may use for this server (the Host header), besides the
    /// loopback names and --host. Repeatable.
    #[arg(long = "allowed-host", value_name = "NAME")]
    allowed_hosts: Vec<String>,
    /// Ask every request for this access token (at least 16 characters), on any address.
    #[arg(long, value_name = "VALUE", conflicts_with = "no_token")]
    token: Option<String>,
    /// Ask for no token, even on an address that is not a loopback one (prints a warning).
    #[arg(long)]
    no_token: bool,
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
            allowed_hosts: args.allowed_hosts,
            token: match (args.token, args.no_token) {
                (Some(t), _) => menagerie::gui::TokenChoice::Given(t),
                (None, true) => menagerie::gui::TokenChoice::Off,
                (None, false) => menagerie::gui::TokenChoice::Auto,
            },
        })
        .map(|()| String::new()),
    )
}
