//! The engine's output: a shared, line-flushed writer and the formatting of `info` lines.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

use crate::search::{InfoReport, Score};
use crate::variants::WdlModel;

/// A writer shared by the protocol loop and the search thread. Every [`Out::send`] writes whole
/// lines under the lock and flushes, so lines never interleave and a GUI sees them at once.
/// With a debug log set (`Debug Log File`), every line in and out is also appended to it with
/// a time stamp.
#[derive(Clone)]
pub struct Out {
    w: Arc<Mutex<Box<dyn Write + Send>>>,
    log: Arc<Mutex<Option<Box<dyn Write + Send>>>>,
}

impl Out {
    /// Output to the process's stdout.
    pub fn stdout() -> Self {
        Out::new(std::io::stdout())
    }

    /// Output to any writer (tests use an in-memory buffer).
    pub fn new(w: impl Write + Send + 'static) -> Self {
        Out {
            w: Arc::new(Mutex::new(Box::new(w))),
            log: Arc::new(Mutex::new(None)),
        }
    }

    /// Writes `text` (one or more lines; a final newline is added if missing) and flushes.
    /// Write errors (a closed pipe) are ignored: the GUI is gone and `quit` or EOF follows.
    pub fn send(&self, text: &str) {
        let mut w = self.w.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = w.write_all(text.as_bytes());
        if !text.ends_with('\n') {
            let _ = w.write_all(b"\n");
        }
        let _ = w.flush();
        // Logged under the output lock: the log shows the lines in the order they went out.
        self.write_log("<<", text);
    }

    /// Starts appending every line in and out to `log` (`None`: stops logging). A line being
    /// sent meanwhile is logged whole first (the output lock is taken before the log's).
    pub fn set_log(&self, log: Option<Box<dyn Write + Send>>) {
        let _w = self.w.lock().unwrap_or_else(PoisonError::into_inner);
        *self.log.lock().unwrap_or_else(PoisonError::into_inner) = log;
    }

    /// Logs an input line (`>>`), when a debug log is set, in order with the output lines.
    pub fn log_input(&self, line: &str) {
        // Without a log, never wait for the output lock (a blocked pipe must not stop `quit`).
        if self
            .log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_none()
        {
            return;
        }
        let _w = self.w.lock().unwrap_or_else(PoisonError::into_inner);
        self.write_log(">>", line.trim_end_matches(['\n', '\r']));
    }

    /// Appends each line of `text` to the debug log as `[<UTC time>] <dir> <line>`.
    fn write_log(&self, dir: &str, text: &str) {
        let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(log) = log.as_mut() {
            let stamp = timestamp(std::time::SystemTime::now());
            for line in text.strip_suffix('\n').unwrap_or(text).split('\n') {
                let _ = writeln!(log, "[{stamp}] {dir} {line}");
            }
            let _ = log.flush();
        }
    }

    /// Sends `info string error <message>`, with any control character of the message
    /// (quoted input) escaped, so that it stays one harmless line
    /// ([`super::command::escape_controls`]).
    pub fn error(&self, message: impl std::fmt::Display) {
        let text = super::command::escape_controls(&message.to_string());
        self.send(&format!("info string error {text}"));
    }

    /// Sends `info string <message>`.
    pub fn info_string(&self, message: impl std::fmt::Display) {
        self.send(&format!("info string {message}"));
    }
}

/// `t` as `YYYY-MM-DD hh:mm:ss.mmm` (UTC), for the debug log.
pub fn timestamp(t: std::time::SystemTime) -> String {
    let since = t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, day_secs) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}.{:03}",
        day_secs / 3600,
        day_secs / 60 % 60,
        day_secs % 60,
        since.subsec_millis()
    )
}

/// `cp X` or `mate N`.
pub fn format_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// The `[win, draw, loss]` chances in permille of the side to move at `score` under `model`
/// (`UCI_ShowWDL`): a mate for the side to move is `1000 0 0`, a mate against it `0 0 1000`.
pub fn wdl(score: Score, model: &WdlModel) -> [u32; 3] {
    match score {
        Score::Cp(cp) => model.permille(cp),
        Score::Mate(n) if n > 0 => [1000, 0, 0],
        Score::Mate(_) => [0, 0, 1000],
    }
}

/// One UCI `info` line from a search report whose PV is already converted to turn tokens:
/// `info depth D seldepth S multipv K score cp X [wdl W D L] [lowerbound|upperbound] nodes N
/// nps N hashfull H time T pv ...`; `wdl` (permille, `UCI_ShowWDL`) when `model` is given.
pub fn format_info<M>(
    report: &InfoReport<'_, M>,
    pv_turns: &[String],
    model: Option<&WdlModel>,
) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        report.depth,
        report.seldepth,
        report.multipv,
        format_score(report.score)
    );
    if let Some(model) = model {
        let [w, d, l] = wdl(report.score, model);
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
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
            format_info(&report, &["e2e4".to_string(), "e7e5".to_string()], None),
            "info depth 5 seldepth 7 multipv 1 score mate -2 upperbound nodes 1000 nps 50000 hashfull 3 time 20 \
             pv e2e4 e7e5"
        );
        assert_eq!(
            format_info(&report, &[], Some(&WdlModel::GENERIC)),
            "info depth 5 seldepth 7 multipv 1 score mate -2 wdl 0 0 1000 upperbound nodes 1000 nps 50000 \
             hashfull 3 time 20"
        );
    }

    #[test]
    fn wdl_is_a_distribution_that_grows_with_the_score() {
        let model = WdlModel { a: 150.0, b: 80.0 };
        let mut last_win = 0;
        for cp in (-2000..=2000).step_by(25) {
            let [w, d, l] = wdl(Score::Cp(cp), &model);
            assert_eq!(w + d + l, 1000, "{cp}");
            assert!(w >= last_win, "{cp}");
            last_win = w;
            // Symmetric: the other side's view swaps win and loss.
            let [w2, _, l2] = wdl(Score::Cp(-cp), &model);
            assert!(w.abs_diff(l2) <= 1 && l.abs_diff(w2) <= 1, "{cp}");
        }
        assert_eq!(wdl(Score::Cp(0), &model)[0], wdl(Score::Cp(0), &model)[2]);
        // At the score `a` the side to move wins half of the time.
        assert_eq!(wdl(Score::Cp(150), &model)[0], 500);
        assert_eq!(wdl(Score::Mate(3), &model), [1000, 0, 0]);
        assert_eq!(wdl(Score::Mate(0), &model), [0, 0, 1000]);
    }

    #[test]
    fn timestamps_are_utc_dates() {
        let t = |s| std::time::UNIX_EPOCH + std::time::Duration::from_millis(s);
        assert_eq!(timestamp(t(0)), "1970-01-01 00:00:00.000");
        // 2024-02-29 12:34:56.789 UTC.
        assert_eq!(timestamp(t(1_709_210_096_789)), "2024-02-29 12:34:56.789");
    }

    #[test]
    fn the_log_gets_both_directions() {
        #[derive(Clone, Default)]
        struct Buf(Arc<Mutex<Vec<u8>>>);
        impl Write for Buf {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let (screen, log) = (Buf::default(), Buf::default());
        let out = Out::new(screen.clone());
        out.send("before");
        out.set_log(Some(Box::new(log.clone())));
        out.log_input("isready\n");
        out.send("readyok\nsecond");
        out.set_log(None);
        out.send("after");
        let log = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = log
            .lines()
            .map(|l| &l[l.find(']').unwrap() + 2..])
            .collect();
        assert_eq!(lines, vec![">> isready", "<< readyok", "<< second"]);
        let screen = String::from_utf8(screen.0.lock().unwrap().clone()).unwrap();
        assert_eq!(screen, "before\nreadyok\nsecond\nafter\n");
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
