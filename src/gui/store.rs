//! The GUI's games on disk: one PGN file per game under the games directory, written whole
//! (to a temporary file, then renamed) after every change by one writer thread ([`Writer`]),
//! and read back at start-up. The PGN
//! is the dialect `menagerie match` writes (`SetUp` and `FEN` always, the `Variant` tag, moves
//! in the variant's PGN notation, a comment after each turn), plus `Gui*` tags that keep what
//! the GUI needs to go on with the game (who the engine plays, its level, the clocks).

use std::path::{Path, PathBuf};
use std::sync::mpsc;

use super::record::{Clock, Colour, Eval, GameState, Outcome};
use crate::client::{ScoreValue, VariantDesc};
use crate::tools::pgn::{parse_pgn, push_movetext, push_tag as tag, PgnGame};

/// Whether `id` is a game id the server could have made: 1 to 64 ASCII letters, digits and
/// `-`, so that it is safe as a file name.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Writes `pgn` as the game `id`'s file, atomically: a temporary file in the same directory,
/// flushed to the disk (fsync), renamed over the old file, then the directory flushed, so that
/// a crash at any moment leaves either the old file or the new one, whole.
///
/// Errors: the I/O error of creating the directory, writing, flushing or renaming.
pub fn save(dir: &Path, id: &str, pgn: &str) -> std::io::Result<()> {
    save_file(dir, id, "pgn", pgn)
}

/// Writes `text` as the file `<id>.<ext>` of `dir`, atomically as [`save`] does. A `seats`
/// file (the seats' secrets) is readable by its owner only (where the system has modes).
///
/// Errors: a bad id, or the I/O error of creating, writing, flushing or renaming.
pub fn save_file(dir: &Path, id: &str, ext: &str, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    if !valid_id(id) {
        return Err(std::io::Error::other("bad game id"));
    }
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{id}.{ext}.tmp"));
    let mut open = std::fs::OpenOptions::new();
    open.write(true).create(true).truncate(true);
    #[cfg(unix)]
    if ext == SEATS_EXT {
        use std::os::unix::fs::OpenOptionsExt;
        open.mode(0o600);
    }
    let mut f = open.open(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, dir.join(format!("{id}.{ext}")))?;
    // The rename itself reaches the disk with the directory (where directories open).
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The extension of a game's review file: the review as JSON (docs/gui.md "Review").
pub const REVIEW_EXT: &str = "review.json";

/// The extension of a game's seats file: the secret of each person's seat, one line
/// `white <secret>` or `black <secret>` each (never in the PGN, which anyone watching may
/// download).
pub const SEATS_EXT: &str = "seats";

/// The seats file's text of `g`, or `None` when the game has no secrets.
pub fn seats_text(g: &GameState) -> Option<String> {
    g.seated().then(|| {
        [Colour::White, Colour::Black]
            .iter()
            .zip(&g.seats)
            .filter_map(|(c, s)| s.as_ref().map(|s| format!("{} {s}\n", c.word())))
            .collect()
    })
}

/// The secrets of a seats file's text, `[white, black]` (lines it cannot read are skipped).
pub fn parse_seats(text: &str) -> [Option<String>; 2] {
    let mut seats = [None, None];
    for line in text.lines() {
        let mut w = line.split_whitespace();
        let (Some(c), Some(secret), None) = (w.next(), w.next(), w.next()) else {
            continue;
        };
        let valid = secret.len() >= 32 && secret.bytes().all(|b| b.is_ascii_hexdigit());
        match c {
            "white" if valid => seats[0] = Some(secret.to_string()),
            "black" if valid => seats[1] = Some(secret.to_string()),
            _ => {}
        }
    }
    seats
}

/// What the writer thread is asked to do.
enum Job {
    /// Write a game's file: id, extension, text.
    Save(String, &'static str, String),
    /// Answer once every job before this one is done.
    Flush(mpsc::Sender<()>),
}

/// The thread that writes the games' files, in the order they were asked for, so that no
/// file is written on an async task and a later state of a game is never overwritten by an
/// earlier one. A file that cannot be written (a read-only directory, a full disk) is kept in
/// memory with the game's latest state and tried again every [`RETRY`] and with every later
/// save, until the disk takes it; meanwhile [`Writer::error`] says why, and standard error says
/// it once per new reason. The games go on.
pub struct Writer {
    jobs: mpsc::Sender<Job>,
    error: std::sync::Arc<std::sync::Mutex<Option<String>>>,
}

/// How often files that could not be written are tried again.
pub const RETRY: std::time::Duration = std::time::Duration::from_secs(2);

impl Writer {
    /// Starts the thread, writing under `dir`.
    pub fn start(dir: PathBuf) -> Writer {
        let (jobs, rx) = mpsc::channel::<Job>();
        let error = std::sync::Arc::new(std::sync::Mutex::new(None::<String>));
        let shared = std::sync::Arc::clone(&error);
        std::thread::Builder::new()
            .name("menagerie-gui-writer".into())
            .spawn(move || {
                // The games whose latest state is not on the disk yet, in the order asked.
                let mut unsaved: Vec<Unsaved> = Vec::new();
                let mut flushes: Vec<mpsc::Sender<()>> = Vec::new();
                loop {
                    let job = if unsaved.is_empty() {
                        rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected)
                    } else {
                        rx.recv_timeout(RETRY)
                    };
                    let mut take = |job: Job, unsaved: &mut Vec<Unsaved>| match job {
                        Job::Save(id, ext, text) => {
                            unsaved.retain(|(i, e, _)| !(*i == id && *e == ext));
                            unsaved.push((id, ext, text));
                        }
                        Job::Flush(done) => flushes.push(done),
                    };
                    match job {
                        Ok(job) => take(job, &mut unsaved),
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        Err(mpsc::RecvTimeoutError::Disconnected) => {
                            write_all(&dir, &mut unsaved, &shared);
                            break;
                        }
                    }
                    // Every job waiting is taken before writing: a game's later saves
                    // replace its earlier ones, so a burst of turns costs one write per game
                    // rather than a queue that grows (each write waits for the disk).
                    while let Ok(job) = rx.try_recv() {
                        take(job, &mut unsaved);
                    }
                    write_all(&dir, &mut unsaved, &shared);
                    for done in flushes.drain(..) {
                        let _ = done.send(());
                    }
                }
            })
            .expect("the writer thread starts");
        Writer { jobs, error }
    }

    /// Asks for game `id`'s file to be written with `pgn`; returns at once.
    pub fn save(&self, id: String, pgn: String) {
        let _ = self.jobs.send(Job::Save(id, "pgn", pgn));
    }

    /// Asks for game `id`'s seats file to be written with `text` ([`seats_text`]); returns
    /// at once.
    pub fn save_seats(&self, id: String, text: String) {
        let _ = self.jobs.send(Job::Save(id, SEATS_EXT, text));
    }

    /// Asks for game `id`'s review file to be written with `json`; returns at once.
    pub fn save_review(&self, id: String, json: String) {
        let _ = self.jobs.send(Job::Save(id, REVIEW_EXT, json));
    }

    /// Blocks until every file asked for before this call has been tried once.
    pub fn flush(&self) {
        let (done, wait) = mpsc::channel();
        if self.jobs.send(Job::Flush(done)).is_ok() {
            let _ = wait.recv();
        }
    }

    /// Why some game files are not written yet (the last error), or `None` when every file
    /// asked for is on the disk.
    pub fn error(&self) -> Option<String> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// A file not on the disk yet: game id, extension, text.
type Unsaved = (String, &'static str, String);

/// Writes every unsaved game, in order, keeping those that fail; updates the shared error and
/// reports a new reason (or the recovery) on standard error.
fn write_all(dir: &Path, unsaved: &mut Vec<Unsaved>, error: &std::sync::Mutex<Option<String>>) {
    let mut reason = None;
    unsaved.retain(|(id, ext, text)| match save_file(dir, id, ext, text) {
        Ok(()) => false,
        Err(e) => {
            reason.get_or_insert_with(|| {
                format!(
                    "cannot save games in {}: {e}; they are kept in memory and tried again",
                    dir.display()
                )
            });
            true
        }
    });
    let mut shown = error.lock().unwrap_or_else(|p| p.into_inner());
    if *shown != reason {
        match &reason {
            Some(r) => eprintln!("menagerie gui: {r}"),
            None => eprintln!("menagerie gui: every game is saved again"),
        }
        *shown = reason;
    }
}

/// A score as the match runner's comments write it: pawns from the mover's point of view
/// (`+0.35`), `+M3`/`-M2` for mates.
fn score_text(e: &Eval) -> String {
    match e.score {
        ScoreValue::Cp(cp) => format!(
            "{}{:.2}",
            if cp < 0 { "-" } else { "+" },
            cp.abs() as f64 / 100.0
        ),
        ScoreValue::Mate(n) => format!("{}M{}", if n <= 0 { "-" } else { "+" }, n.abs()),
    }
}

/// The game as PGN text.
pub fn game_pgn(g: &GameState) -> String {
    let mut s = String::new();
    let result = g.result.as_ref().map_or("*", |r| r.score.as_str());
    tag(&mut s, "Event", "menagerie gui");
    tag(&mut s, "Site", "menagerie gui");
    tag(&mut s, "Date", &g.date);
    tag(&mut s, "Round", "-");
    tag(&mut s, "White", &g.names[0]);
    tag(&mut s, "Black", &g.names[1]);
    tag(&mut s, "Result", result);
    tag(&mut s, "Variant", &g.variant);
    tag(&mut s, "SetUp", "1");
    tag(&mut s, "FEN", &g.start_fen);
    let tc = match &g.clock {
        Some(c) => {
            let secs = |ms: u64| {
                let t = format!("{:.3}", ms as f64 / 1000.0);
                t.trim_end_matches('0').trim_end_matches('.').to_string()
            };
            if c.inc_ms == 0 {
                secs(c.base_ms)
            } else {
                format!("{}+{}", secs(c.base_ms), secs(c.inc_ms))
            }
        }
        None if g.has_engine() => {
            let t = format!("{:.3}", g.movetime_ms as f64 / 1000.0);
            format!("1/{}", t.trim_end_matches('0').trim_end_matches('.'))
        }
        None => "-".into(),
    };
    tag(&mut s, "TimeControl", &tc);
    let termination = match &g.result {
        None => "unterminated",
        Some(r) if r.reason == "time forfeit" => "time forfeit",
        Some(_) => "normal",
    };
    tag(&mut s, "Termination", termination);
    tag(&mut s, "PlyCount", &g.moves.len().to_string());
    tag(&mut s, "GuiEngine", g.engine_word());
    tag(&mut s, "GuiLevel", &g.level.to_string());
    if let Some(elo) = g.elo {
        tag(&mut s, "GuiElo", &elo.to_string());
    }
    tag(&mut s, "GuiMovetime", &g.movetime_ms.to_string());
    if let Some(seed) = g.seed {
        tag(&mut s, "GuiSeed", &seed.to_string());
    }
    if let Some(c) = &g.clock {
        tag(
            &mut s,
            "GuiClock",
            &format!(
                "{} {} {} {}",
                c.base_ms,
                c.inc_ms,
                c.left_now(Colour::White).max(0),
                c.left_now(Colour::Black).max(0)
            ),
        );
    }
    if let Some(r) = &g.result {
        tag(&mut s, "GuiReason", &r.reason);
    }
    if let Some(id) = &g.rematch {
        tag(&mut s, "GuiRematch", id);
    }
    tag(&mut s, "GuiUpdated", &g.updated.to_string());
    s.push('\n');
    // The comment after a turn: the engine's score of the position before it, as the mover
    // saw it, with its depth, then the time taken (the match runner's `{+0.31/9 1.500s}`).
    let comment = |i: usize| -> Option<String> {
        let score = g
            .evals
            .get(i)
            .copied()
            .flatten()
            .map(|e| format!("{}/{}", score_text(&e), e.depth));
        let time = g
            .times
            .get(i)
            .copied()
            .flatten()
            .map(|ms| format!("{:.3}s", ms as f64 / 1000.0));
        match (score, time) {
            (None, None) => None,
            (Some(a), None) | (None, Some(a)) => Some(format!("{{{a}}}")),
            (Some(a), Some(b)) => Some(format!("{{{a} {b}}}")),
        }
    };
    let mut tail = Vec::new();
    if let Some(r) = &g.result {
        tail.push(format!("{{{}}}", r.reason.replace('}', ")")));
    }
    tail.push(result.to_string());
    push_movetext(&mut s, &g.start_fen, &g.notation, comment, &tail);
    s
}

/// A game record from one PGN game: tags and move words (replayed through the engine later,
/// [`GameState::pending_words`]). The `Variant` tag (chess without one) is read through the
/// engine's descriptions `variants`, names and aliases ([`VariantDesc::is_named`]); a
/// variant's start position stands where there is no `FEN` tag.
///
/// Errors: a message when the tag names no variant of the engine.
pub fn from_pgn(id: String, g: &PgnGame, variants: &[VariantDesc]) -> Result<GameState, String> {
    let tag = g.tag("Variant").unwrap_or("chess");
    let desc = variants
        .iter()
        .find(|d| d.is_named(tag))
        .ok_or_else(|| format!("unknown variant '{tag}'"))?;
    let variant = desc.name.clone();
    let start = match g.tag("FEN") {
        Some(f) => f.to_string(),
        None => desc.startpos.clone(),
    };
    let mut st = GameState::new(id, variant);
    st.start_fen = start;
    st.pending_words = g.moves.iter().map(|(w, _)| w.clone()).collect();
    st.names = [
        g.tag("White").unwrap_or("?").to_string(),
        g.tag("Black").unwrap_or("?").to_string(),
    ];
    if let Some(d) = g.tag("Date") {
        st.date = d.to_string();
    }
    st.set_engine_word(g.tag("GuiEngine").unwrap_or("none"));
    if let Some(l) = g.tag("GuiLevel").and_then(|v| v.parse().ok()) {
        st.level = l;
    }
    st.elo = g.tag("GuiElo").and_then(|v| v.parse().ok());
    if let Some(m) = g.tag("GuiMovetime").and_then(|v| v.parse().ok()) {
        st.movetime_ms = m;
    }
    st.seed = g.tag("GuiSeed").and_then(|v| v.parse().ok());
    if let Some(c) = g.tag("GuiClock") {
        let n: Vec<i64> = c
            .split_whitespace()
            .filter_map(|v| v.parse().ok())
            .collect();
        if let [base, inc, w, b] = n[..] {
            st.clock = Some(Clock {
                base_ms: base.max(0) as u64,
                inc_ms: inc.max(0) as u64,
                left_ms: [w, b],
                running: None,
            });
        }
    }
    st.rematch = g
        .tag("GuiRematch")
        .filter(|id| valid_id(id))
        .map(str::to_string);
    if let Some(u) = g.tag("GuiUpdated").and_then(|v| v.parse().ok()) {
        st.updated = u;
    }
    let result = g.result.as_deref().or(g.tag("Result")).unwrap_or("*");
    if matches!(result, "1-0" | "0-1" | "1/2-1/2") {
        st.result = Some(Outcome {
            score: result.into(),
            reason: g
                .tag("GuiReason")
                .or(g.tag("Termination"))
                .unwrap_or("result of the record")
                .to_string(),
        });
    }
    Ok(st)
}

/// Reads every `*.pgn` file of `dir` (the first game of each), skipping those that cannot be
/// read, with a message on standard error for each.
pub fn load_all(dir: &Path, variants: &[VariantDesc]) -> Vec<GameState> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        // A temporary file left by a crash in the middle of a save: its game's file is the
        // one before (the rename never happened).
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') && name.ends_with(".tmp") {
            let _ = std::fs::remove_file(&path);
            continue;
        }
        if path.extension().and_then(|e| e.to_str()) != Some("pgn") {
            continue;
        }
        let Some(id) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string)
        else {
            continue;
        };
        if !valid_id(&id) {
            continue;
        }
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("menagerie gui: skipping {}: {e}", path.display());
                continue;
            }
        };
        match parse_pgn(&text)
            .map_err(|e| e.to_string())
            .and_then(|games| {
                games
                    .first()
                    .ok_or_else(|| "no game in the file".to_string())
                    .and_then(|g| from_pgn(id.clone(), g, variants))
            }) {
            Ok(mut g) => {
                // The people's seats, from the seats file beside the PGN (none: an open game).
                if let Ok(text) = std::fs::read_to_string(dir.join(format!("{id}.{SEATS_EXT}"))) {
                    let seats = parse_seats(&text);
                    let humans = g.humans();
                    for ((seat, found), human) in g.seats.iter_mut().zip(seats).zip(humans) {
                        if human {
                            *seat = found;
                        }
                    }
                }
                // Its review, if one was made; one that cannot be read is left out (and made
                // again when asked for).
                if let Ok(text) = std::fs::read_to_string(dir.join(format!("{id}.{REVIEW_EXT}"))) {
                    match serde_json::from_str(&text) {
                        Ok(r) => g.review = Some(r),
                        Err(e) => {
                            eprintln!("menagerie gui: {id}.{REVIEW_EXT} is not a review: {e}")
                        }
                    }
                }
                out.push(g)
            }
            Err(e) => eprintln!("menagerie gui: skipping {}: {e}", path.display()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn startpos(v: &str) -> Option<String> {
        (v == "chess").then(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into())
    }

    fn chess() -> Vec<VariantDesc> {
        vec![VariantDesc {
            name: "chess".into(),
            files: 8,
            ranks: 8,
            first_rank: 1,
            holes: Vec::new(),
            pocket: false,
            portions: 1,
            startpos: startpos("chess").unwrap(),
            aliases: vec!["standard".into(), "fromposition".into()],
            pregame: Vec::new(),
            fields: Vec::new(),
            pieces: Vec::new(),
        }]
    }

    #[test]
    fn seats_files_keep_only_well_formed_secrets() {
        let mut g = GameState::new("g-2".into(), "chess".into());
        assert_eq!(seats_text(&g), None, "an open game has no seats file");
        let w = "0123456789abcdef0123456789abcdef".to_string();
        g.seats = [Some(w.clone()), None];
        let text = seats_text(&g).unwrap();
        assert_eq!(parse_seats(&text), [Some(w.clone()), None]);
        let junk = format!("white short\nblack {w} extra\nred {w}\nblack {w}\n");
        assert_eq!(parse_seats(&junk), [None, Some(w)]);
    }

    #[test]
    fn a_game_round_trips_through_pgn() {
        let mut g = GameState::new("g-1".into(), "chess".into());
        g.start_fen = startpos("chess").unwrap();
        g.moves = vec!["e2e4".into(), "e7e5".into()];
        g.notation = vec!["e4".into(), "e5".into()];
        g.times = vec![Some(1500), None];
        g.evals = vec![
            Some(Eval {
                score: ScoreValue::Cp(31),
                depth: 9,
            }),
            None,
            None,
        ];
        g.set_engine_word("black");
        g.level = 7;
        g.clock = Some(Clock {
            base_ms: 60_000,
            inc_ms: 1000,
            left_ms: [58_000, 60_000],
            running: None,
        });
        g.result = Some(Outcome {
            score: "1-0".into(),
            reason: "resignation".into(),
        });
        let text = game_pgn(&g);
        assert!(text.contains("[Variant \"chess\"]"), "{text}");
        assert!(
            text.contains("1. e4 {+0.31/9 1.500s} 1... e5 {resignation} 1-0"),
            "{text}"
        );
        let parsed = parse_pgn(&text).unwrap();
        let back = from_pgn("g-1".into(), &parsed[0], &chess()).unwrap();
        assert_eq!(back.pending_words, vec!["e4", "e5"]);
        assert_eq!(back.engine_word(), "black");
        assert_eq!(back.level, 7);
        assert_eq!(back.result, g.result);
        assert_eq!(
            back.clock.as_ref().map(|c| c.left_ms),
            Some([58_000, 60_000])
        );
        assert_eq!(back.start_fen, g.start_fen);
    }

    #[test]
    fn the_variant_tag_is_read_through_the_engines_aliases() {
        for (tag, ok) in [
            ("[Variant \"From Position\"]\n", true),
            ("[Variant \"Standard\"]\n", true),
            ("", true),
            ("[Variant \"Normal\"]\n", false),
            ("[Variant \"mitosis\"]\n", false),
        ] {
            let parsed = parse_pgn(&format!("{tag}\n1. e4 *\n")).unwrap();
            let got = from_pgn("g".into(), &parsed[0], &chess());
            assert_eq!(got.is_ok(), ok, "{tag}: {got:?}");
            if let Ok(g) = got {
                assert_eq!(
                    (g.variant.as_str(), g.start_fen.as_str()),
                    ("chess", startpos("chess").unwrap().as_str())
                );
            }
        }
    }

    #[test]
    fn the_writer_keeps_the_order_of_its_saves() {
        let dir = std::env::temp_dir().join(format!("menagerie-writer-{}", std::process::id()));
        let w = Writer::start(dir.clone());
        for i in 0..50 {
            w.save("g-1".into(), format!("state {i}"));
        }
        w.save("bad/id".into(), "refused".into());
        w.flush();
        assert_eq!(
            std::fs::read_to_string(dir.join("g-1.pgn")).unwrap(),
            "state 49"
        );
        assert!(!dir.join("bad").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn ids_are_safe_file_names() {
        assert!(valid_id("20261129-010203-1a2b"));
        assert!(!valid_id("../etc/passwd"));
        assert!(!valid_id(""));
        assert!(!valid_id("a/b"));
        assert!(!valid_id(&"x".repeat(65)));
    }
}
