//! The GUI server's side of the text protocol (docs/protocol.md): an engine child process
//! driven over its stdin and stdout, and the parsers of the answers the GUI uses (`variant`,
//! `d`, `moves`, `check`, `result`, `info`). Nothing here knows a rule of any variant.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde::Serialize;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// How long a query (the lines up to `readyok`) may take before the engine counts as hung.
pub const QUERY_TIMEOUT: Duration = Duration::from_secs(20);

/// Why talking to the engine failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// It exited or closed its output.
    Exited,
    /// It did not answer in time.
    Timeout,
    /// It answered a command with `info string error ...` (the text after `error `).
    Refused(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(why) => write!(f, "the engine could not be started: {why}"),
            EngineError::Exited => write!(f, "the engine exited"),
            EngineError::Timeout => write!(f, "the engine did not answer in time"),
            EngineError::Refused(why) => write!(f, "{why}"),
        }
    }
}

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::UnboundedReceiver<String>,
    /// The `UCI_Variant` values of its `uci` answer, in order.
    pub variants: Vec<String>,
    /// The variant selected now (`None` until the first `select`).
    pub selected: Option<String>,
    /// The `min` and `max` of its `UCI_Elo` option, if it has one.
    pub elo_range: Option<(u32, u32)>,
}

impl Engine {
    /// Starts `program` (no arguments), sends `uci` and waits for `uciok`.
    ///
    /// Errors: [`EngineError::Spawn`] when it cannot be started, [`EngineError::Exited`] or
    /// [`EngineError::Timeout`] when it does not complete the handshake.
    pub async fn spawn(program: &Path) -> Result<Engine, EngineError> {
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", program.display())))?;
        let stdin = child.stdin.take().ok_or(EngineError::Exited)?;
        let stdout = child.stdout.take().ok_or(EngineError::Exited)?;
        let (tx, lines) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            variants: Vec::new(),
            selected: None,
            elo_range: None,
        };
        engine.send("uci").await?;
        loop {
            let line = engine.next_line(QUERY_TIMEOUT).await?;
            if line == "uciok" {
                break;
            }
            if let Some(rest) = line.strip_prefix("option name UCI_Variant type combo ") {
                engine.variants = combo_values(rest);
            }
            if let Some(rest) = line.strip_prefix("option name UCI_Elo type spin ") {
                let w: Vec<&str> = rest.split_whitespace().collect();
                let value = |key: &str| {
                    w.iter()
                        .position(|x| *x == key)
                        .and_then(|i| w.get(i + 1))
                        .and_then(|v| v.parse::<u32>().ok())
                };
                if let (Some(lo), Some(hi)) = (value("min"), value("max")) {
                    engine.elo_range = Some((lo, hi));
                }
            }
        }
        if engine.variants.is_empty() {
            engine.variants.push("chess".into());
        }
        Ok(engine)
    }

    /// Sends one line.
    ///
    /// Errors: [`EngineError::Exited`] when the engine's input is closed.
    pub async fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.stdin
            .write_all(&bytes)
            .await
            .map_err(|_| EngineError::Exited)?;
        self.stdin.flush().await.map_err(|_| EngineError::Exited)
    }

    /// The next line the engine prints, waiting at most `timeout`.
    ///
    /// Errors: [`EngineError::Exited`] at the end of its output, [`EngineError::Timeout`].
    pub async fn next_line(&mut self, timeout: Duration) -> Result<String, EngineError> {
        match tokio::time::timeout(timeout, self.lines.recv()).await {
            Ok(Some(line)) => Ok(line),
            Ok(None) => Err(EngineError::Exited),
            Err(_) => Err(EngineError::Timeout),
        }
    }

    /// The next line, for `select!`: waits for ever while the engine runs.
    pub async fn recv(&mut self) -> Option<String> {
        self.lines.recv().await
    }

    /// Sends `commands`, then `isready`, and returns every line printed before `readyok`.
    /// Variant commands (`setup`, `muster ...`) print their answer before `readyok` too.
    ///
    /// Errors: as [`Engine::send`] and [`Engine::next_line`] (with [`QUERY_TIMEOUT`]).
    pub async fn query(&mut self, commands: &[String]) -> Result<Vec<String>, EngineError> {
        for c in commands {
            self.send(c).await?;
        }
        self.send("isready").await?;
        let mut out = Vec::new();
        loop {
            let line = self.next_line(QUERY_TIMEOUT).await?;
            if line == "readyok" {
                return Ok(out);
            }
            out.push(line);
        }
    }

    /// [`Engine::query`], failing with the first `info string error` line.
    ///
    /// Errors: [`EngineError::Refused`] with the engine's reason, or as [`Engine::query`].
    pub async fn query_ok(&mut self, commands: &[String]) -> Result<Vec<String>, EngineError> {
        let out = self.query(commands).await?;
        if let Some(err) = out
            .iter()
            .find_map(|l| l.strip_prefix("info string error "))
        {
            return Err(EngineError::Refused(err.to_string()));
        }
        Ok(out)
    }

    /// Selects `variant` (`setoption name UCI_Variant`), unless it is selected already.
    ///
    /// Errors: as [`Engine::query_ok`].
    pub async fn select(&mut self, variant: &str) -> Result<(), EngineError> {
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
    /// Errors: as [`Engine::next_line`].
    pub async fn wait_bestmove(&mut self, timeout: Duration) -> Result<String, EngineError> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let line = self.next_line(left).await?;
            if let Some(token) = parse_bestmove(&line) {
                return Ok(token);
            }
        }
    }

    /// Ends the process (`quit`, then a kill if it is still there).
    pub async fn quit(mut self) {
        let _ = self.send("quit").await;
        if tokio::time::timeout(Duration::from_millis(500), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// The values of a combo option's description (`default X var a var b ...`).
fn combo_values(rest: &str) -> Vec<String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if words[i] == "var" && i + 1 < words.len() {
            out.push(words[i + 1].to_string());
            i += 2;
        } else {
            i += 1;
        }
    }
    out
}

/// The token of a `bestmove <token> [ponder <token>]` line.
pub fn parse_bestmove(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    (words.next() == Some("bestmove")).then(|| words.next().unwrap_or("0000").to_string())
}

/// One piece type of a variant (an `info string piece` line).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PieceDesc {
    /// The FEN code of the White piece.
    pub code: String,
    /// The piece's name.
    pub name: String,
    /// Its movement in Betza notation and words (what a morphing piece becomes included).
    pub movement: String,
}

/// A variant as the `variant` command describes it (protocol.md 8): `GET /api/variants`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct VariantDesc {
    /// The `UCI_Variant` name.
    pub name: String,
    /// Files of the board's box.
    pub files: u32,
    /// Rank rows of the board's box.
    pub ranks: u32,
    /// The label of the bottom rank.
    pub first_rank: u32,
    /// Cells of the box that are not squares.
    pub holes: Vec<String>,
    /// Whether the FEN carries a hand in `[...]` after the board.
    pub pocket: bool,
    /// The most `;`-separated portions of a turn token.
    pub portions: u32,
    /// The start position's FEN.
    pub startpos: String,
    /// What a game needs before its first turn (`seed`, `army`).
    pub pregame: Vec<String>,
    /// The piece types.
    pub pieces: Vec<PieceDesc>,
}

/// Parses the answer of the `variant` command.
///
/// Errors: a message when the first line is not an `info string variant` line.
pub fn parse_variant(lines: &[String]) -> Result<VariantDesc, String> {
    let head = lines
        .iter()
        .find_map(|l| l.strip_prefix("info string variant "))
        .ok_or("no 'info string variant' line")?;
    let (before, startpos) = head
        .split_once(" startpos ")
        .ok_or("the variant line has no startpos")?;
    let words: Vec<&str> = before.split_whitespace().collect();
    let name = words
        .first()
        .ok_or("the variant line has no name")?
        .to_string();
    let field = |key: &str| -> u32 {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let mut desc = VariantDesc {
        name,
        files: field("files"),
        ranks: field("ranks"),
        first_rank: 1,
        holes: Vec::new(),
        pocket: field("pocket") == 1,
        portions: field("portions").max(1),
        startpos: startpos.to_string(),
        pregame: Vec::new(),
        pieces: Vec::new(),
    };
    for line in lines {
        if let Some(rest) = line.strip_prefix("info string board ") {
            let w: Vec<&str> = rest.split_whitespace().collect();
            if let Some(i) = w.iter().position(|x| *x == "firstrank") {
                desc.first_rank = w.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(1);
            }
            if let Some(i) = w.iter().position(|x| *x == "holes") {
                desc.holes = w[i + 1..]
                    .iter()
                    .filter(|h| **h != "-")
                    .map(|h| h.to_string())
                    .collect();
            }
        } else if let Some(kind) = line.strip_prefix("info string pregame ") {
            desc.pregame.push(kind.trim().to_string());
        } else if let Some(rest) = line.strip_prefix("info string piece code ") {
            let Some((code, rest)) = rest.split_once(" name ") else {
                continue;
            };
            let (name, movement) = rest.split_once(" | ").unwrap_or((rest, ""));
            desc.pieces.push(PieceDesc {
                code: code.to_string(),
                name: name.to_string(),
                movement: movement.to_string(),
            });
        }
    }
    if desc.files == 0 || desc.ranks == 0 {
        return Err("the variant line has no board size".into());
    }
    Ok(desc)
}

/// A score as the engine reports it, from the side to move's point of view.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ScoreValue {
    /// Centipawns.
    Cp(i32),
    /// Turns to mate (negative: the side to move is mated).
    Mate(i32),
}

/// One `info` line with a score and a PV (`info` events of docs/gui.md).
#[derive(Clone, Debug, Serialize, PartialEq, Eq, Default)]
pub struct InfoLine {
    /// The line's rank (1 = best).
    pub multipv: u32,
    /// Search depth, plies.
    pub depth: u32,
    /// Selective depth, plies.
    pub seldepth: u32,
    /// The score.
    pub score: Option<ScoreValue>,
    /// `lowerbound` / `upperbound` when the score is a bound.
    pub bound: Option<String>,
    /// Win, draw and loss chances of the side to move, permille.
    pub wdl: Option<[u32; 3]>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// The principal variation, turn tokens.
    pub pv: Vec<String>,
}

/// Parses an `info` line that has a score; `None` for other lines.
pub fn parse_info(line: &str) -> Option<InfoLine> {
    let rest = line.strip_prefix("info ")?;
    if rest.starts_with("string") {
        return None;
    }
    let w: Vec<&str> = rest.split_whitespace().collect();
    let mut info = InfoLine {
        multipv: 1,
        ..InfoLine::default()
    };
    let num = |i: usize| w.get(i).and_then(|v| v.parse::<i64>().ok());
    let mut i = 0;
    while i < w.len() {
        match w[i] {
            "depth" => info.depth = num(i + 1).unwrap_or(0).max(0) as u32,
            "seldepth" => info.seldepth = num(i + 1).unwrap_or(0).max(0) as u32,
            "multipv" => info.multipv = num(i + 1).unwrap_or(1).max(1) as u32,
            "nodes" => info.nodes = num(i + 1).unwrap_or(0).max(0) as u64,
            "nps" => info.nps = num(i + 1).unwrap_or(0).max(0) as u64,
            "time" => info.time_ms = num(i + 1).unwrap_or(0).max(0) as u64,
            "score" => {
                let v = num(i + 2).unwrap_or(0) as i32;
                info.score = match w.get(i + 1) {
                    Some(&"cp") => Some(ScoreValue::Cp(v)),
                    Some(&"mate") => Some(ScoreValue::Mate(v)),
                    _ => None,
                };
                i += 3;
                continue;
            }
            "lowerbound" | "upperbound" => {
                // A flag without a value.
                info.bound = Some(w[i].to_string());
                i += 1;
                continue;
            }
            "wdl" => {
                if let (Some(a), Some(b), Some(c)) = (num(i + 1), num(i + 2), num(i + 3)) {
                    info.wdl = Some([a.max(0) as u32, b.max(0) as u32, c.max(0) as u32]);
                }
                i += 4;
                continue;
            }
            "pv" => {
                info.pv = w[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    info.score?;
    Some(info)
}

/// What the GUI shows of a position: the answers to `d`, `moves`, `moves pgn`, `check` and
/// `result` after a `position` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionReport {
    /// The FEN (`Fen:` line of `d`).
    pub fen: String,
    /// The labelled lines the variant prints under its board, but the FEN, key, checkers
    /// and result.
    pub details: Vec<String>,
    /// The legal turn tokens.
    pub legal: Vec<String>,
    /// Their PGN notation, in the same order.
    pub legal_notation: Vec<String>,
    /// Squares of royal pieces in check.
    pub check: Vec<String>,
    /// `(score, reason)` when the game is over by rule.
    pub result: Option<(String, String)>,
    /// The reason of a draw the side to move may claim.
    pub claimable: Option<String>,
}

/// The commands whose answers make a [`PositionReport`] (after a `position` command).
pub fn report_commands() -> [String; 5] {
    [
        "d".into(),
        "moves".into(),
        "moves pgn".into(),
        "check".into(),
        "result".into(),
    ]
}

/// Parses the answers to [`report_commands`].
///
/// Errors: a message when the `d` output has no `Fen:` line.
pub fn parse_report(lines: &[String]) -> Result<PositionReport, String> {
    let mut r = PositionReport::default();
    for line in lines {
        if let Some(fen) = line.strip_prefix("Fen: ") {
            r.fen = fen.trim().to_string();
        } else if let Some(rest) = line.strip_prefix("info string moves pgn") {
            r.legal_notation = rest.split_whitespace().map(str::to_string).collect();
        } else if let Some(rest) = line.strip_prefix("info string moves") {
            r.legal = rest.split_whitespace().map(str::to_string).collect();
        } else if let Some(rest) = line.strip_prefix("info string check") {
            r.check = rest
                .split_whitespace()
                .filter(|s| *s != "-")
                .map(str::to_string)
                .collect();
        } else if let Some(rest) = line.strip_prefix("info string result ") {
            let rest = rest.trim();
            if rest != "none" {
                let (score, reason) = rest.split_once(' ').unwrap_or((rest, ""));
                let reason = reason.trim().trim_start_matches('{').trim_end_matches('}');
                r.result = Some((score.to_string(), reason.to_string()));
            }
        } else if let Some(rest) = line.strip_prefix("info string draw claimable ") {
            r.claimable = Some(
                rest.trim()
                    .trim_start_matches('{')
                    .trim_end_matches('}')
                    .into(),
            );
        } else if is_detail(line) {
            r.details.push(line.trim().to_string());
        }
    }
    if r.fen.is_empty() {
        return Err("the engine's 'd' printed no FEN".into());
    }
    if r.legal_notation.len() != r.legal.len() {
        r.legal_notation = r.legal.clone();
    }
    Ok(r)
}

/// A labelled line of `d` worth showing: `Label: text`, not the FEN, key, checkers or result.
fn is_detail(line: &str) -> bool {
    let Some((label, _)) = line.split_once(": ") else {
        return false;
    };
    let first = label.chars().next().unwrap_or(' ');
    first.is_ascii_uppercase()
        && label.len() <= 48
        && !matches!(label, "Fen" | "Key" | "Checkers" | "Result")
        && !line.starts_with("info ")
}

/// The engine program to use: `path`, or this executable.
///
/// Errors: a message when neither is known.
pub fn engine_program(path: Option<PathBuf>) -> Result<PathBuf, String> {
    match path {
        Some(p) => Ok(p),
        None => std::env::current_exe().map_err(|e| format!("cannot find this program: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_answer_is_parsed() {
        let lines: Vec<String> = [
            "info string variant mitosis files 9 ranks 11 pocket 1 portions 2 startpos ***3***/9 w - - 0 1",
            "info string board firstrank 0 holes a0 b0",
            "info string pregame seed",
            "info string piece code K name King | K; not royal (2)",
            "info string piece code N11 name Hydra NN11 | crooked nightrider; becomes N02",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let d = parse_variant(&lines).unwrap();
        assert_eq!(
            (d.files, d.ranks, d.first_rank, d.pocket, d.portions),
            (9, 11, 0, true, 2)
        );
        assert_eq!(d.holes, vec!["a0", "b0"]);
        assert_eq!(d.startpos, "***3***/9 w - - 0 1");
        assert_eq!(d.pregame, vec!["seed"]);
        assert_eq!(d.pieces[1].code, "N11");
        assert_eq!(d.pieces[1].movement, "crooked nightrider; becomes N02");
        assert!(parse_variant(&["readyok".to_string()]).is_err());
    }

    #[test]
    fn info_lines_are_parsed() {
        let i = parse_info(
            "info depth 12 seldepth 18 multipv 2 score mate -3 wdl 0 10 990 upperbound nodes 1234 nps 5000 hashfull 3 time 250 pv e2e4 e7e5;M@b3",
        )
        .unwrap();
        assert_eq!(i.multipv, 2);
        assert_eq!(i.depth, 12);
        assert_eq!(i.score, Some(ScoreValue::Mate(-3)));
        assert_eq!(i.wdl, Some([0, 10, 990]));
        assert_eq!(i.bound.as_deref(), Some("upperbound"));
        assert_eq!((i.nodes, i.nps, i.time_ms), (1234, 5000, 250));
        assert_eq!(i.pv, vec!["e2e4", "e7e5;M@b3"]);
        assert!(parse_info("info string hello").is_none());
        assert!(parse_info("info depth 3 nodes 4").is_none());
    }

    #[test]
    fn position_report_is_parsed() {
        let lines: Vec<String> = [
            " 7  r a k k a c",
            "Fen: rakkac/6/6/6/6/6/RAKKAC[Mm] w - - 0 1 pool:Q/q",
            "Key: A5693A72FD1EA24B",
            "Turn: white portion L (light)",
            "Hand: white M black M",
            "Result: none",
            "info string moves M@b3;c1c3 0000;b2b3",
            "info string moves pgn M@b3;c1c3 0000;b2b3",
            "info string check -",
            "info string result 1/2-1/2 {threefold repetition}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let r = parse_report(&lines).unwrap();
        assert_eq!(r.fen, "rakkac/6/6/6/6/6/RAKKAC[Mm] w - - 0 1 pool:Q/q");
        assert_eq!(
            r.details,
            vec!["Turn: white portion L (light)", "Hand: white M black M"]
        );
        assert_eq!(r.legal, vec!["M@b3;c1c3", "0000;b2b3"]);
        assert!(r.check.is_empty());
        assert_eq!(
            r.result,
            Some(("1/2-1/2".to_string(), "threefold repetition".to_string()))
        );
    }

    #[test]
    fn bestmove_and_combo() {
        assert_eq!(
            parse_bestmove("bestmove e2e4 ponder e7e5").as_deref(),
            Some("e2e4")
        );
        assert_eq!(parse_bestmove("info depth 1"), None);
        assert_eq!(
            combo_values("default chess var chess var mystic"),
            vec!["chess", "mystic"]
        );
    }
}
