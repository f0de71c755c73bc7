//! The engine loop: reads lines, runs commands, keeps the options and the variant session.
//! A reader thread feeds the lines so that the loop stays free while a search runs in the
//! session's worker thread; `isready`, `stop`, `ponderhit` and `quit` are answered at once.

use std::io::BufRead;
use std::sync::mpsc;

use super::command::{self, Command};
use super::options::{self, EngineOptions, OptionChange};
use super::output::Out;
use super::session::{new_session, VariantSession};
use super::ProtocolError;

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
}

impl Engine {
    /// An engine with default options (orthodox chess, start position) writing to `out`.
    pub fn new(out: Out) -> Self {
        let options = EngineOptions::default();
        let session = new_session(options.variant, options.hash_mb, out.clone());
        Engine {
            out,
            options,
            session,
        }
    }

    /// Runs one input line. Bad input gets exactly one `info string error ...` line and leaves
    /// the state as it was.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let result = match command::parse(line) {
            // A variant's own command (Game::COMMANDS), e.g. a pre-game negotiation.
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
            Command::Debug => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::UciNewGame => self.session.clear_tt(self.options.hash_mb),
            Command::Position(spec) => self.session.set_position(&spec)?,
            Command::Go(go) => self.session.go(&go, &self.options)?,
            Command::Stop => self.session.stop(),
            Command::PonderHit => self.session.ponderhit(),
            Command::Quit => {
                self.shutdown();
                return Ok(Flow::Quit);
            }
            Command::Display => self.out.send(&self.session.display()),
            Command::Moves => self.out.send(&self.session.moves_line()),
            Command::Eval => self.out.send(&self.session.eval_report()),
        }
        Ok(Flow::Continue)
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
                self.session = new_session(v, self.options.hash_mb, self.out.clone());
                self.options.apply(&change);
                self.out.send(&self.session.announce());
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
                self.session.resize_tt(mb);
            }
            OptionChange::Chess960(true) => {
                self.out.info_string(
                    "UCI_Chess960 is not supported; castling stays orthodox (e1g1, e1c1)",
                );
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
