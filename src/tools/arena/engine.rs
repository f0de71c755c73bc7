//! A child engine process speaking the protocol (docs/protocol.md): spawned with piped
//! stdin/stdout, one reader thread per child feeding a channel, so a hung engine never blocks
//! the runner (every read has a deadline). The child is killed when the handle drops, also
//! while unwinding from a panic; on Linux it also gets `PR_SET_PDEATHSIG` = `SIGKILL`, so the
//! kernel kills it when the runner dies in any way (Ctrl-C, `kill -9`, a crash).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use thiserror::Error;

/// What went wrong with a child engine. Each is a loss for that engine.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineFault {
    /// The process could not be started.
    #[error("could not start engine: {0}")]
    Spawn(String),
    /// The engine closed its output (exited or crashed).
    #[error("engine exited (end of output)")]
    Crashed,
    /// A line could not be sent: the engine closed its input (it exited or crashed, or shut
    /// its standard input). The runner ignores SIGPIPE, so this is an error, never its death.
    #[error("engine exited (its input is closed)")]
    InputClosed,
    /// No expected answer by the deadline.
    #[error("no '{expected}' within {waited_ms} ms")]
    NoAnswer {
        /// The line awaited (`uciok`, `readyok`, `bestmove`).
        expected: &'static str,
        /// How long the runner waited, in milliseconds.
        waited_ms: u64,
    },
}

/// The variant an engine plays when it has no `UCI_Variant` option (protocol.md 1: the
/// default variant of UCI).
pub const DEFAULT_VARIANT: &str = "chess";

/// Why an engine cannot play the match: found at start-up, these stop the match instead of
/// losing games.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StartError {
    /// It could not be started, crashed or did not answer the handshake.
    #[error(transparent)]
    Fault(#[from] EngineFault),
    /// The variant is not in its `UCI_Variant` combo.
    #[error("it does not play variant '{variant}': {offered}")]
    MissingVariant {
        /// The match's variant.
        variant: String,
        /// What the engine offers, in words.
        offered: String,
    },
    /// An `option.<Name>` it did not declare.
    #[error("it has no option '{name}' (its options: {known})")]
    UnknownOption {
        /// The option asked for.
        name: String,
        /// The options it declared, comma separated.
        known: String,
    },
}

/// One `option name <Name> type <type> ... [var <v>]...` line of an engine's `uci` answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The name (may hold spaces).
    pub name: String,
    /// The `var` values of a combo option, in order (empty for other types).
    pub vars: Vec<String>,
}

impl EngineOption {
    /// Reads an `option` line; `None` for any other line or one without `name ... type`.
    pub fn parse(line: &str) -> Option<EngineOption> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
            return None;
        }
        let type_at = words.iter().position(|w| *w == "type")?;
        if type_at <= 2 {
            return None;
        }
        let vars = words[type_at..]
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1].to_string())
            .collect();
        Some(EngineOption {
            name: words[2..type_at].join(" "),
            vars,
        })
    }
}

/// A running child engine.
pub struct ChildEngine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl ChildEngine {
    /// Starts `program args...` with piped stdin/stdout (stderr discarded) and a reader thread.
    ///
    /// Errors: [`EngineFault::Spawn`] when the process cannot be started.
    pub fn spawn(program: &str, args: &[String]) -> Result<ChildEngine, EngineFault> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        die_with_parent(&mut command);
        let mut child = command
            .spawn()
            .map_err(|e| EngineFault::Spawn(format!("{program}: {e}")))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(ChildEngine {
            child,
            stdin,
            lines: rx,
        })
    }

    /// The operating system's process id of the child.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a newline is appended).
    ///
    /// Errors: [`EngineFault::InputClosed`] when the engine's input is closed (EPIPE: the
    /// process ignores SIGPIPE, as Rust programs do unless they reset it).
    pub fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        let stdin = self.stdin.as_mut().ok_or(EngineFault::InputClosed)?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|_| EngineFault::InputClosed)
    }

    /// Reads lines until one whose first word is `expected`, and returns that line; other
    /// lines are skipped. `timeout_ms` is the deadline in milliseconds from now.
    ///
    /// Errors: [`EngineFault::Crashed`] at end of output, [`EngineFault::NoAnswer`] past the
    /// deadline.
    pub fn wait_for(
        &mut self,
        expected: &'static str,
        timeout_ms: u64,
    ) -> Result<String, EngineFault> {
        self.wait_for_with(expected, timeout_ms, &mut |_| {})
    }

    /// Reads lines until one whose first word is `expected` and returns it, handing every
    /// line before it to `seen`. `timeout_ms` is the deadline in milliseconds from now.
    ///
    /// Errors: as [`ChildEngine::wait_for`].
    pub fn wait_for_with(
        &mut self,
        expected: &'static str,
        timeout_ms: u64,
        seen: &mut dyn FnMut(&str),
    ) -> Result<String, EngineFault> {
        let deadline = Instant::now() + Duration::from_millis(timeout_ms);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if line.split_whitespace().next() == Some(expected) {
                        return Ok(line);
                    }
                    seen(&line);
                }
                Err(RecvTimeoutError::Disconnected) => return Err(EngineFault::Crashed),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineFault::NoAnswer {
                        expected,
                        waited_ms: timeout_ms,
                    })
                }
            }
        }
    }

    /// The protocol handshake with the start-up checks: `uci`, collecting the `option` lines
    /// until `uciok`; the variant must be in the engine's `UCI_Variant` combo (an engine
    /// without that option plays only [`DEFAULT_VARIANT`]) and is selected with `setoption`
    /// when the engine has the option; every one of `options` must be an option the engine
    /// declared (names compare case-insensitively, as UCI says) and is sent as `setoption`;
    /// then `isready`/`readyok`. Each answer is awaited up to `timeout_ms` milliseconds.
    ///
    /// Errors: [`StartError`].
    pub fn handshake(
        &mut self,
        variant: &str,
        options: &[(String, String)],
        timeout_ms: u64,
    ) -> Result<(), StartError> {
        self.send("uci")?;
        let mut declared: Vec<EngineOption> = Vec::new();
        self.wait_for_with("uciok", timeout_ms, &mut |line| {
            declared.extend(EngineOption::parse(line));
        })?;
        let find = |name: &str| declared.iter().find(|o| o.name.eq_ignore_ascii_case(name));
        match find("UCI_Variant") {
            Some(o) => {
                if !o.vars.iter().any(|v| v.eq_ignore_ascii_case(variant)) {
                    return Err(StartError::MissingVariant {
                        variant: variant.to_string(),
                        offered: format!("its UCI_Variant offers {}", o.vars.join(", ")),
                    });
                }
                self.send(&format!("setoption name UCI_Variant value {variant}"))?;
            }
            None if variant != DEFAULT_VARIANT => {
                return Err(StartError::MissingVariant {
                    variant: variant.to_string(),
                    offered: format!(
                        "it has no UCI_Variant option, so it plays {DEFAULT_VARIANT} only"
                    ),
                })
            }
            None => {}
        }
        for (name, value) in options {
            if find(name).is_none() {
                let known: Vec<&str> = declared.iter().map(|o| o.name.as_str()).collect();
                return Err(StartError::UnknownOption {
                    name: name.clone(),
                    known: if known.is_empty() {
                        "none".into()
                    } else {
                        known.join(", ")
                    },
                });
            }
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.ready(timeout_ms)?;
        Ok(())
    }

    /// `isready`, then waits for `readyok` up to `timeout_ms`.
    ///
    /// Errors: as [`ChildEngine::send`] and [`ChildEngine::wait_for`].
    pub fn ready(&mut self, timeout_ms: u64) -> Result<(), EngineFault> {
        self.send("isready")?;
        self.wait_for("readyok", timeout_ms).map(|_| ())
    }

    /// Sends `quit`, gives the engine a moment, then kills it.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }
}

/// Makes the child of `command` receive `SIGKILL` when the thread that spawned it ends, which
/// at the latest is when the runner's process ends (Linux `prctl(PR_SET_PDEATHSIG)`). The
/// runner spawns engines from worker threads that outlive them.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id();
    // SAFETY: the closure runs in the forked child before exec and calls only the
    // async-signal-safe functions prctl and getppid.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The runner may have died between fork and prctl: then do not start at all.
            if libc::getppid() as u32 != parent {
                return Err(std::io::Error::other("the match runner is gone"));
            }
            Ok(())
        });
    }
}

/// Elsewhere only the handle's drop (and the signal handler of the CLI) stop children.
#[cfg(not(target_os = "linux"))]
fn die_with_parent(_: &mut Command) {}

impl Drop for ChildEngine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn alive(pid: u32) -> bool {
        // A reaped child has no /proc entry (pids are not reused this fast).
        std::path::Path::new(&format!("/proc/{pid}")).exists()
    }

    #[test]
    fn children_die_with_their_handle_even_on_panic() {
        let engine = ChildEngine::spawn("sleep", &["30".to_string()]).unwrap();
        let pid = engine.id();
        assert!(alive(pid));
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            let _held = engine;
            panic!("runner panics while the engine runs");
        }));
        assert!(caught.is_err());
        assert!(!alive(pid));
    }

    #[test]
    fn option_lines() {
        let o = EngineOption::parse(
            "option name UCI_Variant type combo default chess var chess var mystic",
        )
        .unwrap();
        assert_eq!(o.name, "UCI_Variant");
        assert_eq!(o.vars, ["chess", "mystic"]);
        let o = EngineOption::parse("option name Move Overhead type spin default 10").unwrap();
        assert_eq!(o.name, "Move Overhead");
        assert!(EngineOption::parse("option name type spin").is_none());
        assert!(EngineOption::parse("id name x").is_none());
    }

    #[test]
    fn silent_child_times_out_and_missing_program_is_an_error() {
        let mut engine = ChildEngine::spawn("sleep", &["30".to_string()]).unwrap();
        let started = Instant::now();
        assert_eq!(
            engine.wait_for("uciok", 50),
            Err(EngineFault::NoAnswer {
                expected: "uciok",
                waited_ms: 50
            })
        );
        assert!(started.elapsed() < Duration::from_secs(2));
        let mut done = ChildEngine::spawn("true", &[]).unwrap();
        assert_eq!(done.wait_for("uciok", 5_000), Err(EngineFault::Crashed));
        assert!(matches!(
            ChildEngine::spawn("/nonexistent/engine", &[]),
            Err(EngineFault::Spawn(_))
        ));
    }
}
