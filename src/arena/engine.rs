//! A child engine process speaking the protocol (shared/protocol.md): spawned with piped
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
    /// No expected answer by the deadline.
    #[error("no '{expected}' within {waited_ms} ms")]
    NoAnswer {
        /// The line awaited (`uciok`, `readyok`, `bestmove`).
        expected: &'static str,
        /// How long the runner waited, in milliseconds.
        waited_ms: u64,
    },
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
    /// Errors: [`EngineFault::Crashed`] when the engine's input is closed.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        let stdin = self.stdin.as_mut().ok_or(EngineFault::Crashed)?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|_| EngineFault::Crashed)
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
        let deadline = Instant::now() + Duration::from_millis(timeout_ms);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if line.split_whitespace().next() == Some(expected) {
                        return Ok(line);
                    }
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

    /// The protocol handshake: `uci`/`uciok`, `setoption name UCI_Variant value <variant>`, the
    /// given options, then `isready`/`readyok`, each answer awaited up to `timeout_ms`.
    ///
    /// Errors: as [`ChildEngine::send`] and [`ChildEngine::wait_for`].
    pub fn handshake(
        &mut self,
        variant: &str,
        options: &[(String, String)],
        timeout_ms: u64,
    ) -> Result<(), EngineFault> {
        self.send("uci")?;
        self.wait_for("uciok", timeout_ms)?;
        self.send(&format!("setoption name UCI_Variant value {variant}"))?;
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.ready(timeout_ms)
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
