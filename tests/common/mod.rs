//! Shared by the integration tests: the built `menagerie` binary driven through its
//! stdin/stdout, with a deadline on every read so a failing test never hangs.
#![allow(dead_code)] // each test crate uses a different part

pub mod game;
pub mod reference;

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use menagerie::client::{EngineFault, EngineProcess};

/// Start-up can take seconds in a debug build (magic search) on a busy machine.
pub const STARTUP: Duration = Duration::from_secs(120);
/// Bound for anything that should be immediate.
pub const QUICK: Duration = Duration::from_secs(10);
/// Bound for a small fixed-depth search in a debug build.
pub const SEARCH: Duration = Duration::from_secs(120);

/// A running engine: the crate's protocol client ([`EngineProcess`]) with the tests' habits:
/// every failure is a panic that shows what the engine printed.
pub struct Engine {
    process: EngineProcess,
}

impl Engine {
    /// Starts the engine and waits until it answers `isready`.
    pub fn start() -> Engine {
        let process =
            EngineProcess::spawn(env!("CARGO_BIN_EXE_menagerie"), &[]).expect("engine starts");
        let mut engine = Engine { process };
        engine.send("isready");
        engine.read_until(|l| l == "readyok", STARTUP);
        engine
    }

    /// Starts the engine (see `start`) and selects `variant` (its protocol name, e.g.
    /// `mulliganstew`) with `setoption name UCI_Variant`; the announcement is left unread.
    pub fn start_variant(variant: &str) -> Engine {
        let mut engine = Engine::start();
        engine.send(&format!("setoption name UCI_Variant value {variant}"));
        engine
    }

    /// Sends one line; with `PROTOCOL_TRACE` set in the environment, also shows it on stderr
    /// (to see which line a failing fuzz or session test was at).
    pub fn send(&mut self, line: &str) {
        if std::env::var_os("PROTOCOL_TRACE").is_some() {
            eprintln!("> {line}");
        }
        self.process.send(line).expect("engine reads its stdin");
    }

    /// Sends raw bytes (no newline added; they need not be UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.process
            .send_bytes(bytes)
            .expect("engine reads its stdin");
    }

    /// Closes the engine's standard input.
    pub fn close_input(&mut self) {
        self.process.close_input();
    }

    /// The engine's process id.
    pub fn id(&self) -> u32 {
        self.process.id()
    }

    /// Lines up to and including the first one matching `done`; panics after `timeout`.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.process.next_line(left) {
                Ok(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(EngineFault::NoAnswer { .. }) => {
                    panic!("timed out after {timeout:?}; got {seen:#?}")
                }
                Err(e) => panic!("{e}; got {seen:#?}"),
            }
        }
    }

    /// Sends `line`, then `isready`; returns what came before `readyok`.
    pub fn command(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        let mut out = self.read_until(|l| l == "readyok", QUICK);
        out.pop();
        out
    }

    /// Sends `isready` and checks that `readyok` is the next line.
    pub fn assert_ready(&mut self) {
        self.send("isready");
        assert_eq!(
            self.read_until(|l| l == "readyok", QUICK),
            vec!["readyok".to_string()]
        );
    }

    /// The FEN printed by `d`.
    pub fn fen(&mut self) -> String {
        let out = self.command("d");
        out.iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .unwrap_or_else(|| panic!("no 'Fen:' line in {out:#?}"))
            .to_string()
    }

    /// Runs `go ...` and returns its lines up to `bestmove`, checking that no error came.
    pub fn go(&mut self, go: &str, timeout: Duration) -> Vec<String> {
        self.send(go);
        let out = self.read_until(|l| l.starts_with("bestmove"), timeout);
        assert!(
            !out.iter().any(|l| l.starts_with("info string error")),
            "{go}: {out:#?}"
        );
        out
    }

    /// Runs `go perft <depth>` (protocol.md 5) and returns its lines up to and including
    /// `Nodes searched: <count>` (the blank line after it is left unread).
    pub fn go_perft(&mut self, depth: usize) -> Vec<String> {
        self.send(&format!("go perft {depth}"));
        self.read_until(|l| l.starts_with("Nodes searched"), SEARCH)
    }

    /// Waits for the process to exit; its exit code.
    pub fn wait_exit(&mut self, timeout: Duration) -> i32 {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.process.try_wait() {
                return status.code().unwrap_or(-1);
            }
            assert!(
                Instant::now() < deadline,
                "engine did not exit within {timeout:?}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The move token of the `bestmove` line that ends `out` (as returned by `Engine::go`):
/// a ply or turn token, or `(none)`. Panics when the last line has no second word.
pub fn bestmove(out: &[String]) -> String {
    out.last()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or_else(|| panic!("no bestmove token in {out:#?}"))
        .to_string()
}

/// Checks the engine's answer `out` to a `go` in a finished game (`position` names it in a
/// failure): the `score` line when given (e.g. `info depth 0 score mate 0`), the line
/// `info string result <result>` (protocol.md) and `bestmove (none)` last.
pub fn assert_game_over(out: &[String], position: &str, score: Option<&str>, result: &str) {
    if let Some(score) = score {
        assert!(out.iter().any(|l| l == score), "{position}: {out:#?}");
    }
    assert!(
        out.iter()
            .any(|l| *l == format!("info string result {result}")),
        "{position}: {out:#?}"
    );
    assert_eq!(out.last().unwrap(), "bestmove (none)");
}

/// Runs the built `menagerie` binary with `args`, writes `stdin` to it and closes it, and
/// returns its exit status, stdout and stderr.
pub fn run_binary(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.to_vec();
    // A writer thread: a child that answers before reading all its input cannot block us.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("the binary runs");
    writer.join().expect("stdin writer");
    out
}

/// `run_binary`, checked to succeed: its stdout.
pub fn run_binary_ok(args: &[&str], stdin: &[u8]) -> String {
    let out = run_binary(args, stdin);
    assert!(
        out.status.success(),
        "menagerie {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}
