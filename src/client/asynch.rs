//! The async face of [`EngineProcess`] for the GUI server's tasks: the same process and
//! protocol calls, run with `tokio::task::block_in_place` so that a query's wait (milliseconds,
//! bounded by [`QUERY_TIMEOUT`]) hands the runtime's other tasks to another thread, and the
//! lines of a running search awaited without blocking ([`AsyncEngine::recv`], for
//! `tokio::select!`). Needs the multi-threaded runtime.

use std::path::Path;
use std::time::Duration;

use super::process::{EngineFault, EngineProcess};

/// How long a query (the lines up to `readyok`) may take before the engine counts as hung:
/// 5 seconds (docs/gui.md "Engines"). A position query takes milliseconds; the longest
/// queries, the muster's, search for one second.
pub const QUERY_TIMEOUT: Duration = Duration::from_secs(5);

/// A running engine process, driven from async code.
pub struct AsyncEngine {
    process: EngineProcess,
    /// The `UCI_Variant` values of its `uci` answer, in order (`chess` alone when it has no
    /// such option).
    pub variants: Vec<String>,
    /// The variant selected now (`None` until the first [`AsyncEngine::select`]).
    pub selected: Option<String>,
    /// The `min` and `max` of its `UCI_Elo` option, if it has one.
    pub elo_range: Option<(u32, u32)>,
}

fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}

impl AsyncEngine {
    /// Starts `program` (no arguments), sends `uci` and waits for `uciok`.
    ///
    /// Errors: [`EngineFault::Spawn`] when it cannot be started, [`EngineFault::Crashed`] or
    /// [`EngineFault::NoAnswer`] when it does not complete the handshake.
    pub async fn spawn(program: &Path) -> Result<AsyncEngine, EngineFault> {
        Self::spawn_niced(program, 0).await
    }

    /// [`AsyncEngine::spawn`], the process at `niceness` more than this one
    /// ([`EngineProcess::spawn_untied_niced`]).
    ///
    /// Errors: as [`AsyncEngine::spawn`].
    pub async fn spawn_niced(program: &Path, niceness: i32) -> Result<AsyncEngine, EngineFault> {
        tokio::task::block_in_place(|| {
            let mut process = EngineProcess::spawn_untied_niced(program, &[], niceness)?;
            let options = process.uci(millis(QUERY_TIMEOUT))?;
            let find = |name: &str| options.iter().find(|o| o.name.eq_ignore_ascii_case(name));
            let mut variants = find("UCI_Variant")
                .map(|o| o.vars.clone())
                .unwrap_or_default();
            if variants.is_empty() {
                variants.push(super::DEFAULT_VARIANT.into());
            }
            let elo_range = find("UCI_Elo")
                .and_then(|o| o.range)
                .and_then(|(lo, hi)| Some((u32::try_from(lo).ok()?, u32::try_from(hi).ok()?)));
            Ok(AsyncEngine {
                process,
                variants,
                selected: None,
                elo_range,
            })
        })
    }

    /// Sends one line (a write of a few bytes into the engine's pipe).
    ///
    /// Errors: [`EngineFault::InputClosed`] when the engine's input is closed.
    pub async fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        self.process.send(line)
    }

    /// The next line, for `select!`: waits without end while the engine runs; `None` once its
    /// output has ended. Cancel-safe.
    pub async fn recv(&mut self) -> Option<String> {
        let lines = std::sync::Arc::clone(self.process.lines());
        lines.pop_async().await
    }

    /// Sends `commands`, then `isready`, and returns every line printed before `readyok`.
    ///
    /// Errors: as [`EngineProcess::query`], with [`QUERY_TIMEOUT`].
    pub async fn query(&mut self, commands: &[String]) -> Result<Vec<String>, EngineFault> {
        tokio::task::block_in_place(|| self.process.query(commands, millis(QUERY_TIMEOUT)))
    }

    /// [`AsyncEngine::query`], failing with the first `info string error` line.
    ///
    /// Errors: [`EngineFault::Refused`] with the engine's reason, or as
    /// [`AsyncEngine::query`].
    pub async fn query_ok(&mut self, commands: &[String]) -> Result<Vec<String>, EngineFault> {
        tokio::task::block_in_place(|| self.process.query_ok(commands, millis(QUERY_TIMEOUT)))
    }

    /// Selects `variant` (`setoption name UCI_Variant`), unless it is selected already.
    ///
    /// Errors: as [`AsyncEngine::query_ok`].
    pub async fn select(&mut self, variant: &str) -> Result<(), EngineFault> {
        if self.selected.as_deref() == Some(variant) {
            return Ok(());
        }
        self.query_ok(&[format!("setoption name UCI_Variant value {variant}")])
            .await?;
        self.selected = Some(variant.to_string());
        Ok(())
    }

    /// Reads lines until `bestmove` (after a `stop`), at most `timeout`; returns its token.
    ///
    /// Errors: as [`EngineProcess::wait_bestmove`].
    pub async fn wait_bestmove(&mut self, timeout: Duration) -> Result<String, EngineFault> {
        tokio::task::block_in_place(|| self.process.wait_bestmove(millis(timeout)))
    }

    /// Ends the process (`quit`, then a kill if it is still there after 500 ms).
    pub async fn quit(self) {
        tokio::task::block_in_place(|| self.process.quit(Duration::from_millis(500)))
    }
}
