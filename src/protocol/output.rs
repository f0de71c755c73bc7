//! The engine's output: a shared, line-flushed writer and the formatting of `info` lines.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

use crate::search::{InfoReport, Score};

/// A writer shared by the protocol loop and the search thread. Every [`Out::send`] writes whole
/// lines under the lock and flushes, so lines never interleave and a GUI sees them at once.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Output to the process's stdout.
    pub fn stdout() -> Self {
        Out::new(std::io::stdout())
    }

    /// Output to any writer (tests use an in-memory buffer).
    pub fn new(w: impl Write + Send + 'static) -> Self {
        Out(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes `text` (one or more lines; a final newline is added if missing) and flushes.
    /// Write errors (a closed pipe) are ignored: the GUI is gone and `quit` or EOF follows.
    pub fn send(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = w.write_all(text.as_bytes());
        if !text.ends_with('\n') {
            let _ = w.write_all(b"\n");
        }
        let _ = w.flush();
    }

    /// Sends `info string error <message>`.
    pub fn error(&self, message: impl std::fmt::Display) {
        self.send(&format!("info string error {message}"));
    }

    /// Sends `info string <message>`.
    pub fn info_string(&self, message: impl std::fmt::Display) {
        self.send(&format!("info string {message}"));
    }
}

/// `cp X` or `mate N`.
pub fn format_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// One UCI `info` line from a search report whose PV is already converted to turn tokens:
/// `info depth D seldepth S multipv K score cp X [lowerbound|upperbound] nodes N nps N
/// hashfull H time T pv ...`.
pub fn format_info<M>(report: &InfoReport<'_, M>, pv_turns: &[String]) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        report.depth,
        report.seldepth,
        report.multipv,
        format_score(report.score)
    );
    match report.lowerbound {
        Some(true) => s.push_str(" lowerbound"),
        Some(false) => s.push_str(" upperbound"),
        None => {}
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} time {}",
        report.nodes, report.nps, report.hashfull, report.time_ms
    ));
    if !pv_turns.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv_turns.join(" "));
    }
    s
}

/// `bestmove <turn> [ponder <turn>]`, or `bestmove (none)`.
pub fn format_bestmove(best: Option<&str>, ponder: Option<&str>) -> String {
    match (best, ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {b}"),
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_line_shape() {
        let pv: [u32; 0] = [];
        let report = InfoReport {
            depth: 5,
            seldepth: 7,
            multipv: 1,
            score: Score::Mate(-2),
            lowerbound: Some(false),
            nodes: 1000,
            nps: 50000,
            hashfull: 3,
            time_ms: 20,
            pv: &pv,
        };
        assert_eq!(
            format_info(&report, &["e2e4".to_string(), "e7e5".to_string()]),
            "info depth 5 seldepth 7 multipv 1 score mate -2 upperbound nodes 1000 nps 50000 hashfull 3 time 20 \
             pv e2e4 e7e5"
        );
    }

    #[test]
    fn bestmove_shapes() {
        assert_eq!(format_bestmove(None, None), "bestmove (none)");
        assert_eq!(
            format_bestmove(Some("e2e4"), Some("e7e5")),
            "bestmove e2e4 ponder e7e5"
        );
    }
}
