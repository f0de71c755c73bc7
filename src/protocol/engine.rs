//! The engine loop: reads lines, runs commands, keeps the options and the variant session.
//! A reader thread feeds the lines so that the loop stays free while a search runs in the
//! session's worker thread; `isready`, `stop`, `ponderhit` and `quit` are answered at once.

use std::io::BufRead;
use std::sync::mpsc;

use super::command::{self, Command};
use super::hash::HashTable;
use super::options::{self, EngineOptions, OptionChange, OptionError};
use super::output::Out;
use super::session::{new_session, VariantSession};
use super::ProtocolError;

/// The start-up line: name, version and the commit it was built from (`unknown` when the
/// build had no git).
pub const BANNER: &str = concat!(
    "menagerie ",
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("MENAGERIE_COMMIT"),
    ") by the menagerie developers; 'help' lists the commands"
);

/// The answer to `help`.
const HELP: &str = "\
menagerie speaks UCI (see the README); a variant is chosen with
  setoption name UCI_Variant value <name>
Commands:
  uci                      identify the engine and list its options
  isready                  answered by readyok (also while searching)
  setoption name <N> [value <V>]
  ucinewgame               forget what was learnt (empties the hash table)
  position startpos|fen <FEN> [moves <turn> ...]
  go [wtime|btime|winc|binc|movestogo|movetime|depth|nodes|mate <n>] [infinite] [ponder]
     [searchmoves <turn> ...]
  go perft <n>             count the turns n deep, per first turn (stop ends it)
  stop, ponderhit          end a search / the expected turn was played
  d                        the board, the FEN, the state and the result
  moves [pgn]              the legal turns of the position (pgn: in PGN notation)
  check                    the squares of the royal pieces in check (or -)
  eval                     the static evaluation term by term
  variant                  the variant: board, first rank, holes, pieces and their moves
  result                   the result by rule here (or none), and a claimable draw
  diagram <code> <square>  a piece's moves and captures from a square of an empty board
  notation <turn> ...      the game's notation of turns played from the position (a pv)
  debug on|off             accepted (no effect)
  help                     this text
  quit                     leave";

/// Whether the loop goes on after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` (or end of input): leave the loop.
    Quit,
}

/// The protocol engine: options, the variant session and the output.
pub struct Engine {
    out: Out,
    options: EngineOptions,
    session: Box<dyn VariantSession>,
    /// A `stop` came while the worker ran, and the worker may not have printed its answer
    /// yet: the next line that needs the worker waits for that answer ([`Engine::handle_line`]).
    stop_pending: bool,
}

impl Engine {
    /// An engine with default options (orthodox chess, start position) writing to `out`.
    pub fn new(out: Out) -> Self {
        let options = EngineOptions::default();
        let hash = HashTable::new(options.hash_mb, options.threads);
        let session = new_session(options.variant, hash, out.clone());
        Engine {
            out,
            options,
            session,
            stop_pending: false,
        }
    }

    /// Runs one input line. Bad input gets exactly one `info string error ...` line and leaves
    /// the state as it was, with one exception: after a rejected `position` command, `go`
    /// answers `bestmove 0000` until a `position` is accepted (never a move of the position
    /// kept from before, which is not the GUI's).
    ///
    /// After a `stop`, every line but `isready`, `stop`, `ponderhit` and `quit` first waits
    /// until the stopped search (or perft, or variant command) has printed its answer, so a
    /// `go` sent at once after `stop` is never refused as busy and the lines keep their order.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.out.log_input(line);
        if self.stop_pending {
            let first = line.split_whitespace().next();
            if !self.session.busy() {
                self.stop_pending = false;
            } else if !matches!(
                first,
                None | Some("isready" | "stop" | "ponderhit" | "quit")
            ) {
                // The stop flag is set: the worker ends within moments.
                self.session.finish();
                self.stop_pending = false;
            }
        }
        let result = match command::parse(line) {
            // A variant's own command (VariantInfo::commands), e.g. a pre-game negotiation.
            Err(command::CommandError::Unknown(_))
                if line
                    .split_whitespace()
                    .next()
                    .is_some_and(|w| self.session.has_command(w)) =>
            {
                self.session
                    .variant_command(line.trim())
                    .map(|()| Flow::Continue)
            }
            parsed => parsed
                .map_err(ProtocolError::from)
                .and_then(|cmd| match cmd {
                    Some(cmd) => self.execute(cmd),
                    None => Ok(Flow::Continue),
                }),
        };
        match result {
            Ok(flow) => flow,
            Err(e) => {
                if line.split_whitespace().next() == Some("position") {
                    self.session.reject_position();
                }
                self.out.error(e);
                Flow::Continue
            }
        }
    }

    /// Stops any search and waits for its `bestmove`: what `quit` and end of input do.
    pub fn shutdown(&mut self) {
        self.session.finish();
    }

    fn execute(&mut self, cmd: Command) -> Result<Flow, ProtocolError> {
        match cmd {
            Command::Uci => {
                let mut text = format!(
                    "id name menagerie {}\nid author the menagerie developers\n",
                    env!("CARGO_PKG_VERSION")
                );
                for line in options::uci_option_lines() {
                    text.push_str(&line);
                    text.push('\n');
                }
                text.push_str("uciok");
                self.out.send(&text);
            }
            Command::IsReady => {
                // A variant command's answer comes before `readyok` (a search does not wait).
                self.session.settle();
                self.out.send("readyok")
            }
            Command::Debug(on) => self.options.debug = on,
            Command::Help => self.out.send(&self.help()),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::UciNewGame => self.session.clear_tt(self.options.threads),
            Command::Position(spec) => self.session.set_position(&spec)?,
            Command::Go(go) => self.session.go(&go, &self.options)?,
            Command::Stop => {
                self.session.stop();
                self.stop_pending = self.session.busy();
            }
            Command::PonderHit => self.session.ponderhit(),
            Command::Quit => {
                self.shutdown();
                return Ok(Flow::Quit);
            }
            Command::Display => self.out.send(&self.session.display()),
            Command::Moves { pgn } => self.out.send(&self.session.moves_line(pgn)),
            Command::Check => self.out.send(&self.session.check_line()),
            Command::Eval => self.out.send(&self.session.eval_report()),
            Command::Variant => self.out.send(&self.session.describe()),
            Command::Result => self.out.send(&self.session.result()),
            Command::Notation(tokens) => self.out.send(&self.session.notation_line(&tokens)),
            Command::Diagram { code, square } => {
                self.out.send(&self.session.diagram(&code, &square))
            }
        }
        Ok(Flow::Continue)
    }

    /// The `help` text: the commands, and the variant's own ones.
    fn help(&self) -> String {
        let mut text = String::from(HELP);
        let own = self.session.commands();
        if !own.is_empty() {
            text.push_str(&format!(
                "\nThis variant's own commands: {} (see the README).",
                own.join(", ")
            ));
        }
        text
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), ProtocolError> {
        #[cfg(feature = "spsa")]
        if let Some(result) = crate::search::params::spsa_setoption(name, value) {
            if let Err(message) = result {
                self.out.error(message);
            }
            return Ok(());
        }
        let change = options::parse_setoption(name, value)?;
        match change {
            OptionChange::Variant(v) => {
                if self.session.busy() {
                    return Err(ProtocolError::Busy("setoption name UCI_Variant"));
                }
                let mut hash = self.session.take_hash();
                hash.clear(self.options.threads);
                self.session = new_session(v, hash, self.out.clone());
                self.options.apply(&change);
                self.out.send(&self.session.announce());
                if let Err(why) = self.session.apply_settings(self.options.variant_settings()) {
                    // The new variant refuses a setting (UCI_Chess960): back to the defaults.
                    self.options.apply(&OptionChange::Chess960(false));
                    self.out
                        .info_string(format!("{why}; UCI_Chess960 is now false"));
                }
            }
            OptionChange::Hash(asked) => {
                let mb = match options::hash_limit_mb() {
                    Some(limit) if asked > limit => {
                        self.out.info_string(format!(
                            "Hash {asked} MiB is more than this machine has free; using {limit} MiB"
                        ));
                        limit
                    }
                    _ => asked,
                };
                self.options.apply(&OptionChange::Hash(mb));
                self.session.resize_tt(mb, self.options.threads);
            }
            OptionChange::ClearHash => self.session.clear_tt(self.options.threads),
            OptionChange::DebugLogFile(path) => {
                let log = match path {
                    None => None,
                    Some(path) => {
                        let file = std::fs::OpenOptions::new()
                            .create(true)
                            .append(true)
                            .open(&path)
                            .map_err(|e| {
                                OptionError::Unusable(format!(
                                    "Debug Log File: cannot open '{}': {e}",
                                    command::echo(&path)
                                ))
                            })?;
                        Some(Box::new(file) as Box<dyn std::io::Write + Send>)
                    }
                };
                self.out.set_log(log);
            }
            OptionChange::EvalFile(path) => {
                let line = self
                    .session
                    .load_network(path.as_deref().map(std::path::Path::new))
                    .map_err(|e| {
                        OptionError::Unusable(format!("EvalFile: {}", command::escape_controls(&e)))
                    })?;
                self.out.info_string(line);
            }
            OptionChange::Chess960(on) => {
                let mut settings = self.options.variant_settings();
                settings.chess960 = on;
                self.session
                    .apply_settings(settings)
                    .map_err(options::OptionError::NotSupported)?;
                self.options.apply(&change);
            }
            _ => self.options.apply(&change),
        }
        Ok(())
    }
}

/// Runs the protocol on `input` until `quit` or end of input, writing to `out`. Lines are read
/// by a separate thread; bytes that are not UTF-8 are replaced (and then rejected as input).
pub fn run<R: BufRead + Send + 'static>(mut input: R, out: Out) {
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    out.send(BANNER);
    let mut engine = Engine::new(out);
    for line in rx {
        if engine.handle_line(&line) == Flow::Quit {
            return;
        }
    }
    engine.shutdown();
}

/// Runs the protocol on the process's stdin and stdout.
pub fn run_stdio() {
    run(std::io::BufReader::new(std::io::stdin()), Out::stdout());
}
