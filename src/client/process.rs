//! The synchronous core of the protocol client: an engine child process with piped stdin and
//! stdout, one reader thread per child filling a [`LineQueue`], so a hung engine never blocks
//! its caller (every read has a deadline). The child is killed when the handle drops, also
//! while unwinding from a panic; on Linux it also gets `PR_SET_PDEATHSIG` = `SIGKILL`, so the
//! kernel kills it when the thread that started it ends (the runner's death included: Ctrl-C,
//! `kill -9`, a crash).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use thiserror::Error;

use super::answers::EngineOption;

/// What went wrong with a child engine.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineFault {
    /// The process could not be started.
    #[error("could not start engine: {0}")]
    Spawn(String),
    /// The engine closed its output (exited or crashed).
    #[error("engine exited (end of output)")]
    Crashed,
    /// A line could not be sent: the engine closed its input (it exited or crashed, or shut
    /// its standard input). Rust programs ignore SIGPIPE, so this is an error, never a death.
    #[error("engine exited (its input is closed)")]
    InputClosed,
    /// No expected answer by the deadline.
    #[error("no '{expected}' within {waited_ms} ms")]
    NoAnswer {
        /// The line awaited (`uciok`, `readyok`, `bestmove`, or `a line`).
        expected: &'static str,
        /// How long the caller waited, in milliseconds.
        waited_ms: u64,
    },
    /// The engine answered a command with `info string error <reason>` (protocol.md 9): the
    /// reason.
    #[error("{0}")]
    Refused(String),
}

/// The variant an engine plays when it has no `UCI_Variant` option (protocol.md 1: the
/// default variant of UCI).
pub const DEFAULT_VARIANT: &str = "chess";

/// Why an engine cannot play: found at start-up by [`EngineProcess::handshake`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StartError {
    /// It could not be started, crashed or did not answer the handshake.
    #[error(transparent)]
    Fault(#[from] EngineFault),
    /// The variant is not in its `UCI_Variant` combo.
    #[error("it does not play variant '{variant}': {offered}")]
    MissingVariant {
        /// The variant asked for.
        variant: String,
        /// What the engine offers, in words.
        offered: String,
    },
    /// An option it did not declare.
    #[error("it has no option '{name}' (its options: {known})")]
    UnknownOption {
        /// The option asked for.
        name: String,
        /// The options it declared, comma separated.
        known: String,
    },
}

/// The lines a child engine printed and nobody has read yet, filled by its reader thread.
/// Read blocking with a deadline (`pop_timeout`, through [`EngineProcess::next_line`]) or, in the GUI's async code,
/// awaited ([`LineQueue::pop_async`]).
#[derive(Default)]
pub struct LineQueue {
    state: Mutex<QueueState>,
    ready: Condvar,
    #[cfg(feature = "gui")]
    notify: tokio::sync::Notify,
}

#[derive(Default)]
struct QueueState {
    lines: VecDeque<String>,
    /// The engine's output has ended.
    closed: bool,
}

impl LineQueue {
    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn push(&self, line: Option<String>) {
        {
            let mut s = self.lock();
            match line {
                Some(l) => s.lines.push_back(l),
                None => s.closed = true,
            }
        }
        self.ready.notify_all();
        #[cfg(feature = "gui")]
        self.notify.notify_one();
    }

    /// The next line, `Ok(None)` at the end of output, `Err(())` when nothing came within
    /// `timeout`.
    fn pop_timeout(&self, timeout: Duration) -> Result<Option<String>, ()> {
        let deadline = Instant::now() + timeout;
        let mut s = self.lock();
        loop {
            if let Some(line) = s.lines.pop_front() {
                return Ok(Some(line));
            }
            if s.closed {
                return Ok(None);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(());
            }
            s = self
                .ready
                .wait_timeout(s, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }

    /// The next line, awaited without blocking the thread; `None` at the end of output.
    /// Cancel-safe: a line is taken only by the call that returns it.
    #[cfg(feature = "gui")]
    pub async fn pop_async(&self) -> Option<String> {
        loop {
            {
                let mut s = self.lock();
                if let Some(line) = s.lines.pop_front() {
                    return Some(line);
                }
                if s.closed {
                    return None;
                }
            }
            // One reader: a push between the check and this wait leaves a permit.
            self.notify.notified().await;
        }
    }
}

/// A running child engine: the one client of the protocol, used by the match runner, the
/// GUI (through [`super::AsyncEngine`]) and the integration tests.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Arc<LineQueue>,
}

impl EngineProcess {
    /// Starts `program args...` with piped stdin/stdout (stderr discarded) and its reader
    /// thread. The child is killed when the calling thread ends (on Linux) or the handle
    /// drops, whichever comes first: for callers whose threads live as long as their engines
    /// (the match runner's workers, tests).
    ///
    /// Errors: [`EngineFault::Spawn`] when the process cannot be started.
    pub fn spawn(program: impl AsRef<Path>, args: &[String]) -> Result<EngineProcess, EngineFault> {
        Self::start(program.as_ref(), args, true, 0)
    }

    /// [`EngineProcess::spawn`], but the child lives until the handle drops, whatever becomes
    /// of the calling thread: for an async runtime, whose threads come and go.
    ///
    /// Errors: as [`EngineProcess::spawn`].
    pub fn spawn_untied(
        program: impl AsRef<Path>,
        args: &[String],
    ) -> Result<EngineProcess, EngineFault> {
        Self::start(program.as_ref(), args, false, 0)
    }

    /// [`EngineProcess::spawn_untied`], the process (and every thread it starts) at
    /// `niceness` (added to this process's, as `nice` does; 0: as this process), so that it
    /// yields the processor to the work at normal priority. Where the system has no niceness,
    /// as `spawn_untied`.
    ///
    /// Errors: as [`EngineProcess::spawn_untied`].
    pub fn spawn_untied_niced(
        program: impl AsRef<Path>,
        args: &[String],
        niceness: i32,
    ) -> Result<EngineProcess, EngineFault> {
        Self::start(program.as_ref(), args, false, niceness)
    }

    fn start(
        program: &Path,
        args: &[String],
        tied: bool,
        niceness: i32,
    ) -> Result<EngineProcess, EngineFault> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if tied {
            die_with_parent(&mut command);
        }
        if niceness != 0 {
            lower_priority(&mut command, niceness);
        }
        let mut child = command
            .spawn()
            .map_err(|e| EngineFault::Spawn(format!("{}: {e}", program.display())))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let lines = Arc::new(LineQueue::default());
        let queue = Arc::clone(&lines);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf);
                        queue.push(Some(text.trim_end_matches(['\n', '\r']).to_string()));
                    }
                }
            }
            queue.push(None);
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines,
        })
    }

    /// The operating system's process id of the child.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The queue of its unread lines (for an async reader).
    pub fn lines(&self) -> &Arc<LineQueue> {
        &self.lines
    }

    /// Sends one line (a newline is appended).
    ///
    /// Errors: [`EngineFault::InputClosed`] when the engine's input is closed (EPIPE).
    pub fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.send_bytes(&bytes)
    }

    /// Sends raw bytes as they are (no newline added; they need not be UTF-8).
    ///
    /// Errors: as [`EngineProcess::send`].
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Result<(), EngineFault> {
        let stdin = self.stdin.as_mut().ok_or(EngineFault::InputClosed)?;
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.flush())
            .map_err(|_| EngineFault::InputClosed)
    }

    /// Closes the engine's standard input (its end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line the engine prints, waiting at most `timeout`.
    ///
    /// Errors: [`EngineFault::Crashed`] at the end of its output, [`EngineFault::NoAnswer`]
    /// past the deadline.
    pub fn next_line(&mut self, timeout: Duration) -> Result<String, EngineFault> {
        match self.lines.pop_timeout(timeout) {
            Ok(Some(line)) => Ok(line),
            Ok(None) => Err(EngineFault::Crashed),
            Err(()) => Err(EngineFault::NoAnswer {
                expected: "a line",
                waited_ms: timeout.as_millis() as u64,
            }),
        }
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
    /// Errors: as [`EngineProcess::wait_for`].
    pub fn wait_for_with(
        &mut self,
        expected: &'static str,
        timeout_ms: u64,
        seen: &mut dyn FnMut(&str),
    ) -> Result<String, EngineFault> {
        let deadline = Instant::now() + Duration::from_millis(timeout_ms);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Ok(line) => {
                    if line.split_whitespace().next() == Some(expected) {
                        return Ok(line);
                    }
                    seen(&line);
                }
                Err(EngineFault::NoAnswer { .. }) => {
                    return Err(EngineFault::NoAnswer {
                        expected,
                        waited_ms: timeout_ms,
                    })
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// `uci`, then the options the engine declares up to `uciok`, each awaited up to
    /// `timeout_ms` milliseconds.
    ///
    /// Errors: as [`EngineProcess::send`] and [`EngineProcess::wait_for`].
    pub fn uci(&mut self, timeout_ms: u64) -> Result<Vec<EngineOption>, EngineFault> {
        self.send("uci")?;
        let mut declared = Vec::new();
        self.wait_for_with("uciok", timeout_ms, &mut |line| {
            declared.extend(EngineOption::parse(line));
        })?;
        Ok(declared)
    }

    /// The protocol handshake with the start-up checks: [`EngineProcess::uci`]; the variant
    /// must be in the engine's `UCI_Variant` combo (an engine without that option plays only
    /// [`DEFAULT_VARIANT`]) and is selected with `setoption` when the engine has the option;
    /// every one of `options` must be an option the engine declared (names compare
    /// case-insensitively, as UCI says) and is sent as `setoption`; then `isready`/`readyok`.
    /// Each answer is awaited up to `timeout_ms` milliseconds.
    ///
    /// Errors: [`StartError`].
    pub fn handshake(
        &mut self,
        variant: &str,
        options: &[(String, String)],
        timeout_ms: u64,
    ) -> Result<(), StartError> {
        let declared = self.uci(timeout_ms)?;
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
    /// Errors: as [`EngineProcess::send`] and [`EngineProcess::wait_for`].
    pub fn ready(&mut self, timeout_ms: u64) -> Result<(), EngineFault> {
        self.send("isready")?;
        self.wait_for("readyok", timeout_ms).map(|_| ())
    }

    /// Sends `commands`, then `isready`, and returns every line printed before `readyok`
    /// (variant commands such as `setup` and `muster ...` print their answers there too),
    /// waiting up to `timeout_ms` in all.
    ///
    /// Errors: as [`EngineProcess::send`] and [`EngineProcess::wait_for`].
    pub fn query(
        &mut self,
        commands: &[String],
        timeout_ms: u64,
    ) -> Result<Vec<String>, EngineFault> {
        for c in commands {
            self.send(c)?;
        }
        self.send("isready")?;
        let mut out = Vec::new();
        self.wait_for_with("readyok", timeout_ms, &mut |l| out.push(l.to_string()))?;
        Ok(out)
    }

    /// [`EngineProcess::query`], failing with the first `info string error` line.
    ///
    /// Errors: [`EngineFault::Refused`] with the engine's reason, or as
    /// [`EngineProcess::query`].
    pub fn query_ok(
        &mut self,
        commands: &[String],
        timeout_ms: u64,
    ) -> Result<Vec<String>, EngineFault> {
        let out = self.query(commands, timeout_ms)?;
        if let Some(err) = out
            .iter()
            .find_map(|l| l.strip_prefix("info string error "))
        {
            return Err(EngineFault::Refused(err.to_string()));
        }
        Ok(out)
    }

    /// Reads lines until `bestmove`, at most `timeout_ms`; returns its token
    /// ([`super::parse_bestmove`]).
    ///
    /// Errors: as [`EngineProcess::wait_for`].
    pub fn wait_bestmove(&mut self, timeout_ms: u64) -> Result<String, EngineFault> {
        let line = self.wait_for("bestmove", timeout_ms)?;
        Ok(super::parse_bestmove(&line).unwrap_or_else(|| "0000".into()))
    }

    /// The exit status if the process has ended, without waiting.
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Sends `quit`, closes the input, gives the engine `grace` to exit, then kills it.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if self.try_wait().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }
}

/// Makes the child of `command` receive `SIGKILL` when the thread that spawned it ends, which
/// at the latest is when the caller's process ends (Linux `prctl(PR_SET_PDEATHSIG)`). The
/// match runner spawns engines from worker threads that outlive them.
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
            // The parent may have died between fork and prctl: then do not start at all.
            if libc::getppid() as u32 != parent {
                return Err(std::io::Error::other("the parent process is gone"));
            }
            Ok(())
        });
    }
}

/// Elsewhere only the handle's drop (and the signal handler of the CLI) stop children.
#[cfg(not(target_os = "linux"))]
fn die_with_parent(_: &mut Command) {}

/// Starts the child at `niceness` more than this process: set in the child before exec, so
/// that every thread it starts inherits it.
#[cfg(target_os = "linux")]
fn lower_priority(command: &mut Command, niceness: i32) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the forked child before exec and calls only nice, a system
    // call wrapper that is async-signal-safe in practice (it sets errno and nothing else).
    unsafe {
        command.pre_exec(move || {
            // nice can return -1 as a niceness: only errno tells a failure, and a child that
            // cannot lower its priority may still run as it is.
            let _ = libc::nice(niceness);
            Ok(())
        });
    }
}

/// Elsewhere the child runs at this process's priority.
#[cfg(not(target_os = "linux"))]
fn lower_priority(_: &mut Command, _: i32) {}

impl Drop for EngineProcess {
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
        let engine = EngineProcess::spawn("sleep", &["30".to_string()]).unwrap();
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
        let mut engine = EngineProcess::spawn("sleep", &["30".to_string()]).unwrap();
        let started = Instant::now();
        assert_eq!(
            engine.wait_for("uciok", 50),
            Err(EngineFault::NoAnswer {
                expected: "uciok",
                waited_ms: 50
            })
        );
        assert!(started.elapsed() < Duration::from_secs(2));
        let mut done = EngineProcess::spawn("true", &[]).unwrap();
        assert_eq!(done.wait_for("uciok", 5_000), Err(EngineFault::Crashed));
        assert_eq!(
            done.next_line(Duration::from_secs(5)),
            Err(EngineFault::Crashed)
        );
        assert!(matches!(
            EngineProcess::spawn("/nonexistent/engine", &[]),
            Err(EngineFault::Spawn(_))
        ));
    }
}
