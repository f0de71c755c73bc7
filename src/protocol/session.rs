//! The per-variant half of the engine: the current position, the TT and the search worker,
//! generic over [`Game`]. The engine loop holds it as a `Box<dyn VariantSession>` built by
//! [`new_session`], the one place where the runtime variant becomes a type.

use crate::variants::{claimable_draw, game_outcome};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use super::command::{echo, GoCommand, PositionBase, PositionSpec};
use super::hash::HashTable;
use super::options::EngineOptions;
use super::output::{format_bestmove, format_info, Out};
use super::ProtocolError;
use crate::perft::{self, Unit};
use crate::search::{self, InfoReport, Limits, Score, SearchControl, SearchOptions, Tt};
use crate::variants::turn::{self, Extent, Reading};
use crate::variants::{
    Game, GameResult, MoveError, Outcome, ProbeLimits, Variant, VariantSettings, WdlModel,
    PROBE_MATE,
};

/// Depth of the search that completes a best turn whose PV stops mid-turn.
const FOLLOW_UP_DEPTH: u32 = 3;
/// Node budget of that search.
const FOLLOW_UP_NODES: u64 = 20_000;
/// How often a finished infinite or ponder search checks for `stop` / `ponderhit`.
const WAIT_POLL: Duration = Duration::from_millis(1);

/// What the engine loop needs from the variant-specific state (object safe).
pub trait VariantSession: Send {
    /// The `info string variant ...` announcement (protocol.md 1).
    fn announce(&self) -> String;
    /// Sets the position from a `position` command; on error the position (and its hidden
    /// history) is unchanged.
    ///
    /// Errors: [`ProtocolError::Fen`] or [`ProtocolError::IllegalMove`].
    fn set_position(&mut self, spec: &PositionSpec) -> Result<(), ProtocolError>;
    /// Notes that a `position` command was rejected: until one is accepted, `go` answers
    /// `info string error no valid position` and `bestmove 0000` (the position kept is not
    /// the GUI's). `d`, `moves` and `eval` still show the kept position.
    fn reject_position(&mut self);
    /// Starts a search or a perft in the worker thread (or answers at once at a decided
    /// position, or after a rejected `position`). What is wrong in a search's `go` line (its
    /// `ignored` words, `searchmoves` turns that are not legal) is reported in one
    /// `info string error` line and left out.
    ///
    /// Errors: [`ProtocolError::Busy`] while the worker runs.
    fn go(&mut self, go: &GoCommand, options: &EngineOptions) -> Result<(), ProtocolError>;
    /// Asks the running search, if any, to stop.
    fn stop(&mut self);
    /// Turns a ponder search into a normal one.
    fn ponderhit(&mut self);
    /// Whether the worker thread runs.
    fn busy(&mut self) -> bool;
    /// Stops a running search or perft and waits for the worker (a search prints its
    /// `bestmove`, a perft `info string perft stopped`): what `quit` and end of input do.
    fn finish(&mut self);
    /// Waits until a running variant command has printed its answer (searches and perfts are
    /// not waited for) and the hash table is prepared (its pages touched, or emptied):
    /// `isready` calls it so that both come before `readyok`.
    fn settle(&mut self);
    /// The `d` output: the variant's display, then `Result: ...` (as [`VariantSession::result`]
    /// says it).
    fn display(&self) -> String;
    /// The `variant` command's answer (protocol.md 8): the `info string variant` line, then
    /// `info string board firstrank <n> holes <squares|->`, then one
    /// `info string piece code <CODE> name <Name> | <movement>` line per piece type.
    fn describe(&self) -> String;
    /// The `diagram` command's answer (protocol.md 8): the `info string diagram ...` line of
    /// piece `code` on `square` ([`crate::variants::diagram`]), or an `info string error` line.
    fn diagram(&self, code: &str, square: &str) -> String;
    /// The `notation` command's answer (protocol.md 8): `info string notation <word>...`, the
    /// notation of `tokens` played in order from the current position (left unchanged), or
    /// an `info string error` line naming the first turn that cannot be played.
    fn notation_line(&self, tokens: &[String]) -> String;
    /// The `result` command's answer (protocol.md 8): `info string result <result> {<reason>}`
    /// when the game is over by rule, else `info string result none`, followed by
    /// `info string draw claimable {<reason>}` when the side to move may claim a draw.
    fn result(&self) -> String;
    /// The `moves` output line: the legal turn tokens, or with `pgn` their PGN notation in the
    /// same order (`info string moves pgn ...`).
    fn moves_line(&self, pgn: bool) -> String;
    /// The `check` output line (protocol.md 8): `info string check <square> ...` naming the
    /// royal pieces of the side to move when it is in check, else `info string check -`.
    fn check_line(&self) -> String;
    /// The `eval` output.
    fn eval_report(&self) -> String;
    /// Empties the TT (`ucinewgame`, `Clear Hash`) in place, with `threads` threads, in the
    /// background ([`HashTable::clear`]); a running search keeps its own table to the end.
    fn clear_tt(&mut self, threads: usize);
    /// Replaces the TT by an empty one of `hash_mb` MiB (`Hash`), whose pages `threads`
    /// threads touch in the background ([`HashTable::resize`]). Returns at once: `isready`
    /// and the next search wait for the table. The old one is freed on another thread (after
    /// a running search that still uses it).
    fn resize_tt(&mut self, hash_mb: usize, threads: usize);
    /// Takes the session's hash table out (for the session of a newly selected variant),
    /// leaving a 1 MiB one. Only while the worker is idle.
    fn take_hash(&mut self) -> HashTable;
    /// Hands `settings` (protocol options such as `UCI_Chess960`) to the current position and
    /// to every position set up from now on ([`Rules::apply_settings`]).
    ///
    /// Errors: the variant's message when it does not support them; nothing changes then.
    fn apply_settings(&mut self, settings: VariantSettings) -> Result<(), String>;
    /// `EvalFile`: the variant's network from `path`, or none ([`Evaluation::load_network`]).
    ///
    /// Errors: the variant's message; its network is then unchanged.
    fn load_network(&mut self, path: Option<&std::path::Path>) -> Result<String, String>;
    /// Whether `word` starts one of the variant's own commands ([`VariantInfo::commands`](crate::variants::VariantInfo::commands)).
    fn has_command(&self, word: &str) -> bool;
    /// The first words of the variant's own commands ([`VariantInfo::commands`](crate::variants::VariantInfo::commands)), for `help`.
    fn commands(&self) -> &'static [&'static str];
    /// Runs a variant command ([`Notation::variant_command`]) on the worker thread, its probes
    /// searching with this session's TT; prints the answer, or `info string error ...`.
    ///
    /// Errors: [`ProtocolError::Busy`] while the worker runs.
    fn variant_command(&mut self, line: &str) -> Result<(), ProtocolError>;
}

/// A new session of `variant` at its start position, with the TT `hash`, writing to `out`.
pub fn new_session(variant: Variant, hash: HashTable, out: Out) -> Box<dyn VariantSession> {
    crate::with_variant!(variant, G => Box::new(Session::<G>::new(hash, out)))
}

/// What the worker thread is doing.
struct Job {
    handle: JoinHandle<()>,
    control: Arc<SearchControl>,
    /// Cleared by the worker just before it prints its final answer (`bestmove`, the perft
    /// total): a `go` sent on seeing that answer must not find the engine busy while the
    /// thread is still exiting.
    active: Arc<AtomicBool>,
    /// A variant command (its answer must come before the next `readyok`), not a search.
    command: bool,
}

/// The state of one variant: position, TT, worker.
struct Session<G: Game> {
    pos: G,
    /// The settings every position set up gets (see [`VariantSession::apply_settings`]).
    settings: VariantSettings,
    /// False from a rejected `position` command to the next accepted one.
    position_valid: bool,
    hash: HashTable,
    out: Out,
    job: Option<Job>,
}

impl<G: Game> Session<G> {
    fn new(hash: HashTable, out: Out) -> Self {
        Session {
            pos: G::startpos(),
            settings: VariantSettings::default(),
            position_valid: true,
            hash,
            out,
            job: None,
        }
    }

    /// Runs `work` on the worker thread; `work` clears the flag it is given just before its
    /// final output.
    fn spawn(
        &mut self,
        control: Arc<SearchControl>,
        work: impl FnOnce(&AtomicBool) + Send + 'static,
    ) {
        self.spawn_job(control, false, work);
    }

    /// [`Session::spawn`] for a job that is a variant command when `command` is set.
    fn spawn_job(
        &mut self,
        control: Arc<SearchControl>,
        command: bool,
        work: impl FnOnce(&AtomicBool) + Send + 'static,
    ) {
        let active = Arc::new(AtomicBool::new(true));
        let flag = active.clone();
        let handle = std::thread::spawn(move || {
            work(&flag);
            flag.store(false, Ordering::SeqCst);
        });
        self.job = Some(Job {
            handle,
            control,
            active,
            command,
        });
    }
}

impl<G: Game> VariantSession for Session<G> {
    fn announce(&self) -> String {
        let info = G::INFO;
        format!(
            "info string variant {} files {} ranks {} pocket {} portions {} startpos {}",
            info.name,
            info.files,
            info.ranks,
            u8::from(info.pocket),
            info.portions,
            G::startpos().fen()
        )
    }

    fn set_position(&mut self, spec: &PositionSpec) -> Result<(), ProtocolError> {
        let build = || -> Result<G, ProtocolError> {
            let mut pos = match &spec.base {
                PositionBase::StartPos => G::startpos(),
                PositionBase::Fen(fen) => G::from_fen(fen)?,
            };
            // The settings decide how the move tokens read (UCI_Chess960 castling).
            pos.apply_settings(&self.settings)
                .map_err(ProtocolError::Internal)?;
            for (i, token) in spec.moves.iter().enumerate() {
                turn::play(&mut pos, token, Reading::Token, Extent::Start).map_err(|_| {
                    ProtocolError::IllegalMove {
                        token: echo(token),
                        turn: i + 1,
                    }
                })?;
                // The FEN reader checks the first position; every one after it is checked
                // here, so that no position is searched with legal turns missing.
                if !pos.move_lists_fit() {
                    return Err(ProtocolError::TooManyTurns { turn: i + 1 });
                }
            }
            Ok(pos)
        };
        // Defence in depth: a panic in a variant's parser must not take the engine down.
        let pos = catch_unwind(AssertUnwindSafe(build))
            .map_err(|_| ProtocolError::Internal("the position could not be set up".into()))??;
        self.pos = pos;
        self.position_valid = true;
        Ok(())
    }

    fn reject_position(&mut self) {
        self.position_valid = false;
    }

    fn go(&mut self, go: &GoCommand, options: &EngineOptions) -> Result<(), ProtocolError> {
        if self.busy() {
            return Err(ProtocolError::Busy("go"));
        }
        if !self.position_valid {
            self.out.error("no valid position");
            if matches!(go, GoCommand::Search { .. }) {
                self.out.send(&format_bestmove(Some("0000"), None));
            }
            return Ok(());
        }
        let root = self.pos.clone();
        let out = self.out.clone();
        let control = Arc::new(SearchControl::default());
        match go {
            GoCommand::Perft(depth) => {
                let (depth, threads, ctl) = (*depth, options.threads, control.clone());
                self.spawn(control, move |active| {
                    let rows = perft::divide_until(&root, depth, Unit::Turn, threads, &ctl.stop);
                    active.store(false, Ordering::SeqCst);
                    match rows {
                        Some(rows) => out.send(&perft::format_divide(&rows)),
                        // No total: a partial count must not pass for the perft figure.
                        None => out.info_string("perft stopped"),
                    }
                });
            }
            GoCommand::Search {
                limits,
                searchmoves,
                ignored,
            } => {
                let mut problems: Vec<String> = ignored.iter().map(ToString::to_string).collect();
                let mut allowed = Vec::new();
                for token in searchmoves {
                    match turn::play(&mut root.clone(), token, Reading::Token, Extent::Start) {
                        Ok(line) => allowed.push(line),
                        Err(e) => problems.push(format!(
                            "go: searchmoves: {}",
                            echo(&MoveError::from(e).to_string())
                        )),
                    }
                }
                if !searchmoves.is_empty() && allowed.is_empty() {
                    problems.push("no legal turn after searchmoves: every turn is searched".into());
                }
                if !problems.is_empty() {
                    self.out.error(format!("{} (ignored)", problems.join("; ")));
                }
                let model = options.show_wdl.then_some(G::SEARCH.wdl);
                if let Some(outcome) = game_outcome(&root) {
                    self.out
                        .send(&game_over_report(&root, &outcome, options.show_wdl));
                    return Ok(());
                }
                // A draw the rules only let a player claim: say so and play on (FIDE 9.2, 9.3).
                if let Some(reason) = claimable_draw(&root) {
                    self.out.info_string(format!("draw claimable {{{reason}}}"));
                }
                control.pondering.store(limits.ponder, Ordering::SeqCst);
                let job = SearchJob {
                    root,
                    limits: limits.clone(),
                    allowed,
                    options: options.search_options(),
                    tt: self.hash.ready().clone(),
                    control: control.clone(),
                    model,
                };
                self.spawn(control, move |active| search_worker(job, active, out));
            }
        }
        Ok(())
    }

    fn stop(&mut self) {
        if let Some(job) = &self.job {
            job.control.stop.store(true, Ordering::SeqCst);
        }
    }

    fn ponderhit(&mut self) {
        if let Some(job) = &self.job {
            job.control.pondering.store(false, Ordering::SeqCst);
        }
    }

    fn busy(&mut self) -> bool {
        match &self.job {
            Some(job) if job.active.load(Ordering::SeqCst) => true,
            Some(_) => {
                // The answer is out; the thread has at most to return.
                if let Some(job) = self.job.take() {
                    let _ = job.handle.join();
                }
                false
            }
            None => false,
        }
    }

    fn finish(&mut self) {
        self.stop();
        if let Some(job) = self.job.take() {
            let _ = job.handle.join();
        }
    }

    fn settle(&mut self) {
        if self.job.as_ref().is_some_and(|j| j.command) {
            if let Some(job) = self.job.take() {
                let _ = job.handle.join();
            }
        }
        self.hash.ready();
    }

    fn display(&self) -> String {
        let mut text = self.pos.display();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str("Result: ");
        match (game_outcome(&self.pos), claimable_draw(&self.pos)) {
            (Some(o), _) => text.push_str(&format!("{} {{{}}}", o.result.as_str(), o.reason)),
            (None, Some(reason)) => {
                text.push_str(&format!("none; draw claimable {{{reason}}}"));
            }
            (None, None) => text.push_str("none"),
        }
        text
    }

    fn describe(&self) -> String {
        let holes = G::INFO.holes;
        let mut text = format!(
            "{}\ninfo string board firstrank {} holes {}",
            self.announce(),
            G::INFO.first_rank,
            if holes.is_empty() {
                "-".to_string()
            } else {
                holes.join(" ")
            }
        );
        let aliases =
            crate::variants::Variant::from_name(G::INFO.name).map_or(&[][..], |v| v.aliases());
        if !aliases.is_empty() {
            text.push_str(&format!("\ninfo string aliases {}", aliases.join(" ")));
        }
        for kind in G::INFO.pregame {
            text.push_str(&format!("\ninfo string pregame {kind}"));
        }
        for f in G::INFO.fields {
            text.push('\n');
            text.push_str(&f.line());
        }
        for p in G::INFO.pieces {
            text.push_str(&format!(
                "\ninfo string piece code {} name {} | {}",
                p.code, p.name, p.movement
            ));
        }
        text
    }

    fn notation_line(&self, tokens: &[String]) -> String {
        let mut pos = self.pos.clone();
        let mut words = Vec::with_capacity(tokens.len());
        for (i, token) in tokens.iter().enumerate() {
            let before = pos.clone();
            match turn::play(&mut pos, token, Reading::Token, Extent::Start) {
                Ok(plies) => words.push(turn::notation(&before, &plies)),
                Err(e) => {
                    return format!(
                        "info string error notation: turn {} '{}': {e}",
                        i + 1,
                        echo(token)
                    )
                }
            }
        }
        if words.is_empty() {
            "info string notation".to_string()
        } else {
            format!("info string notation {}", words.join(" "))
        }
    }

    fn diagram(&self, code: &str, square: &str) -> String {
        match crate::variants::diagram::diagram::<G>(code, square) {
            Ok(d) => d.line(),
            Err(e) => format!("info string error {e}"),
        }
    }

    fn result(&self) -> String {
        match game_outcome(&self.pos) {
            Some(o) => format!("info string result {} {{{}}}", o.result.as_str(), o.reason),
            None => match claimable_draw(&self.pos) {
                Some(reason) => {
                    format!("info string result none\ninfo string draw claimable {{{reason}}}")
                }
                None => "info string result none".to_string(),
            },
        }
    }

    fn moves_line(&self, pgn: bool) -> String {
        let tokens = turn::legal_tokens(&self.pos);
        let (head, words) = if pgn {
            (
                "info string moves pgn",
                turn::legal_notation(&self.pos, &tokens),
            )
        } else {
            ("info string moves", tokens)
        };
        if words.is_empty() {
            head.to_string()
        } else {
            format!("{head} {}", words.join(" "))
        }
    }

    fn check_line(&self) -> String {
        let squares = if self.pos.in_check() {
            royal_squares(&self.pos)
        } else {
            Vec::new()
        };
        if squares.is_empty() {
            "info string check -".to_string()
        } else {
            format!("info string check {}", squares.join(" "))
        }
    }

    fn eval_report(&self) -> String {
        self.pos.eval_report()
    }

    fn clear_tt(&mut self, threads: usize) {
        // Joins a finished job, so that only a running one still holds the table.
        self.busy();
        self.hash.clear(threads);
    }

    fn resize_tt(&mut self, hash_mb: usize, threads: usize) {
        self.hash.resize(hash_mb, threads);
    }

    fn take_hash(&mut self) -> HashTable {
        std::mem::replace(&mut self.hash, HashTable::new(1, 1))
    }

    fn apply_settings(&mut self, settings: VariantSettings) -> Result<(), String> {
        let mut pos = self.pos.clone();
        pos.apply_settings(&settings)?;
        self.pos = pos;
        self.settings = settings;
        Ok(())
    }

    fn load_network(&mut self, path: Option<&std::path::Path>) -> Result<String, String> {
        G::load_network(path)
    }

    fn has_command(&self, word: &str) -> bool {
        G::INFO.commands.contains(&word)
    }

    fn commands(&self) -> &'static [&'static str] {
        G::INFO.commands
    }

    fn variant_command(&mut self, line: &str) -> Result<(), ProtocolError> {
        if self.busy() {
            return Err(ProtocolError::Busy("variant command"));
        }
        let (root, out, tt, line) = (
            self.pos.clone(),
            self.out.clone(),
            self.hash.ready().clone(),
            line.to_string(),
        );
        let control = Arc::new(SearchControl::default());
        let ctl = control.clone();
        self.spawn_job(control, true, move |active| {
            let mut probe = |pos: &G, limits: ProbeLimits| probe_search(pos, limits, &tt, &ctl);
            let answer = catch_unwind(AssertUnwindSafe(|| root.variant_command(&line, &mut probe)))
                .unwrap_or_else(|_| Err("internal error: the command failed".to_string()));
            active.store(false, Ordering::SeqCst);
            match answer {
                Ok(text) => out.send(&text),
                Err(message) => out.error(message),
            }
        });
        Ok(())
    }
}

/// The squares of the side to move's royal pieces ([`VariantInfo::royals`](crate::variants::VariantInfo::royals)), read from the board field
/// of the position's FEN (protocol.md 4: ranks from the top, digit runs for empty cells, `*`
/// for holes, codes of several letters in brackets), named as the board prints them.
fn royal_squares<G: Game>(pos: &G) -> Vec<String> {
    let fen = pos.fen();
    let board = fen.split_whitespace().next().unwrap_or("");
    let white = pos.side_to_move() == crate::core::Color::White;
    let mut squares = Vec::new();
    let top = i32::from(G::INFO.first_rank) + i32::from(G::INFO.ranks) - 1;
    for (row, rank_text) in board.split('/').enumerate() {
        let rank = top - row as i32;
        let mut file: u32 = 0;
        let mut run: u32 = 0;
        let mut chars = rank_text.chars();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                run = run * 10 + d;
                continue;
            }
            file += std::mem::take(&mut run);
            let code: String = match c {
                '[' => chars.by_ref().take_while(|&c| c != ']').collect(),
                '*' => String::new(),
                c => c.to_string(),
            };
            // A bracketed hand after the last rank (`[Mm]`) is not a cell.
            if file >= u32::from(G::INFO.files) {
                break;
            }
            let own = code
                .chars()
                .all(|c| !c.is_ascii_alphabetic() || c.is_ascii_uppercase() == white);
            if !code.is_empty()
                && own
                && G::INFO.royals.contains(&code.to_ascii_uppercase().as_str())
            {
                let f = char::from(b'a' + file as u8);
                squares.push(format!("{f}{rank}"));
            }
            file += 1;
        }
    }
    squares
}

/// One probe of a variant command: a silent single-thread search of `pos` within `limits`,
/// its score in centipawns from the side to move (mates as +-[`PROBE_MATE`]); `None` once
/// `stop` (or `quit`) was received.
fn probe_search<G: Game>(
    pos: &G,
    limits: ProbeLimits,
    tt: &Tt,
    control: &SearchControl,
) -> Option<i32> {
    if control.stop.load(Ordering::SeqCst) {
        return None;
    }
    let limits = Limits {
        nodes: Some(limits.nodes),
        movetime: Some(limits.movetime_ms),
        ..Limits::default()
    };
    let options = SearchOptions {
        move_overhead_ms: 0,
        ..SearchOptions::default()
    };
    let result = search::search(pos, &limits, &options, tt, control, &mut |_| {});
    if control.stop.load(Ordering::SeqCst) {
        return None;
    }
    Some(match result.score {
        Score::Cp(v) => v.clamp(-PROBE_MATE, PROBE_MATE),
        Score::Mate(n) if n > 0 => PROBE_MATE,
        Score::Mate(_) => -PROBE_MATE,
    })
}

/// The answer to `go` at a position that is over by rule (protocol.md 4); with `show_wdl`
/// the score line gives the result as `wdl` (`0 0 1000` lost, `0 1000 0` drawn, `1000 0 0`
/// won, for the side to move).
fn game_over_report<G: Game>(pos: &G, outcome: &Outcome, show_wdl: bool) -> String {
    let lost = outcome.result == GameResult::win_for(!pos.side_to_move());
    let score = if lost { "mate 0" } else { "cp 0" };
    let wdl = if !show_wdl {
        ""
    } else if lost {
        " wdl 0 0 1000"
    } else if outcome.result == GameResult::Draw {
        " wdl 0 1000 0"
    } else {
        " wdl 1000 0 0"
    };
    format!(
        "info depth 0 score {score}{wdl}\ninfo string result {} {{{}}}\n{}",
        outcome.result.as_str(),
        outcome.reason,
        format_bestmove(None, None)
    )
}

/// What a search job needs.
struct SearchJob<G: Game> {
    root: G,
    limits: Limits,
    /// The `searchmoves` turns as lines of plies; empty: every turn.
    allowed: Vec<Vec<G::Move>>,
    options: SearchOptions,
    tt: Arc<Tt>,
    control: Arc<SearchControl>,
    /// The WDL model of `info` lines (`UCI_ShowWDL`), if they carry one.
    model: Option<WdlModel>,
}

/// The search thread: runs the search, reports `info` lines (their PVs in whole turns), waits
/// for `stop`/`ponderhit` when an infinite or ponder search ends early, then prints
/// `bestmove`. When the last `info` line's PV does not start with the turn played (a best
/// move found in an unfinished iteration, a turn completed after the PV), or the result is
/// deeper than the last line (a helper thread finished the last iteration first), a last
/// `info` line shows it, so that the last `info` before `bestmove` always agrees with it and
/// gives the depth the answer comes from.
fn search_worker<G: Game>(job: SearchJob<G>, active: &AtomicBool, out: Out) {
    let SearchJob {
        root,
        limits,
        allowed,
        options,
        tt,
        control,
        model,
    } = job;
    // The first turn of the last PV printed, and the deepest depth printed.
    let mut last_first: Option<String> = None;
    let mut last_depth = 0u32;
    let result = {
        let mut report = |r: &InfoReport<'_, G::Move>| {
            let turns = turn::whole_tokens(&root, r.pv);
            last_first = turns.first().cloned();
            last_depth = last_depth.max(r.depth);
            out.send(&format_info(r, &turns, model.as_ref()));
        };
        catch_unwind(AssertUnwindSafe(|| {
            search::search_among(
                &root,
                &limits,
                &options,
                &allowed,
                &tt,
                &control,
                &mut report,
            )
        }))
    };
    let (pv, summary) = match result {
        Ok(r) => {
            let pv = match (r.best, r.pv.first()) {
                (Some(best), Some(&first)) if first != best => vec![best],
                (Some(best), None) => vec![best],
                _ => r.pv.clone(),
            };
            (pv, Some(r))
        }
        Err(_) => {
            out.error("the search failed; playing the first legal move");
            (Vec::new(), None)
        }
    };
    while !control.stop.load(Ordering::SeqCst)
        && (limits.infinite || control.pondering.load(Ordering::SeqCst))
    {
        std::thread::sleep(WAIT_POLL);
    }
    let (best, ponder) = best_and_ponder(&root, &pv, &allowed, &tt);
    // A helper thread can finish the deepest iteration first (the main thread then stops
    // before reporting it): the closing line gives that depth.
    let deeper = summary.as_ref().is_some_and(|r| r.depth > last_depth);
    if let Some(best) = best
        .as_deref()
        .filter(|b| deeper || last_first.as_deref() != Some(*b))
    {
        // The search's own PV when it starts with the turn played, else that turn (and the
        // ponder turn).
        let mut line = turn::whole_tokens(&root, &pv);
        if line.first().map(String::as_str) != Some(best) {
            line = std::iter::once(best)
                .chain(ponder.as_deref())
                .map(str::to_string)
                .collect();
        }
        out.send(&closing_info::<G>(summary.as_ref(), &line, model.as_ref()));
    }
    active.store(false, Ordering::SeqCst);
    out.send(&format_bestmove(best.as_deref(), ponder.as_deref()));
}

/// The `info` line that shows `pv` (turn tokens, the turn played first) with the search's
/// final figures; zeros when the search failed.
fn closing_info<G: Game>(
    summary: Option<&search::SearchResult<G::Move>>,
    pv: &[String],
    model: Option<&WdlModel>,
) -> String {
    let (depth, seldepth, score, nodes, time_ms, hashfull) = match summary {
        Some(r) => (
            r.depth.max(1),
            r.seldepth.max(r.depth.max(1)),
            r.score,
            r.nodes,
            r.time_ms,
            r.hashfull,
        ),
        None => (0, 0, Score::Cp(0), 0, 0, 0),
    };
    let report = InfoReport::<G::Move> {
        depth,
        seldepth,
        multipv: 1,
        score,
        lowerbound: None,
        nodes,
        nps: (nodes * 1000).checked_div(time_ms).unwrap_or(nodes * 1000),
        hashfull,
        time_ms,
        pv: &[],
    };
    format_info(&report, pv, model)
}

/// The best turn and the ponder turn of a finished search ([`turn::best_and_ponder`]), a
/// best turn that the PV leaves unfinished completed by short searches of the positions inside
/// it (depth [`FOLLOW_UP_DEPTH`], [`FOLLOW_UP_NODES`] nodes, among the `allowed` turns'
/// continuations when there are any).
fn best_and_ponder<G: Game>(
    root: &G,
    pv: &[G::Move],
    allowed: &[Vec<G::Move>],
    tt: &Tt,
) -> (Option<String>, Option<String>) {
    let limits = Limits {
        depth: Some(FOLLOW_UP_DEPTH),
        nodes: Some(FOLLOW_UP_NODES),
        ..Limits::default()
    };
    let options = SearchOptions::default();
    let mut follow_up = |pos: &G, lines: &[Vec<G::Move>]| -> Option<G::Move> {
        let control = SearchControl::default();
        catch_unwind(AssertUnwindSafe(|| {
            search::search_among(
                pos,
                &limits,
                &options,
                lines,
                tt,
                &control,
                &mut |_: &InfoReport<'_, G::Move>| {},
            )
        }))
        .ok()
        .and_then(|r| r.best)
    };
    turn::best_and_ponder(root, pv, allowed, &mut follow_up)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::mock::{Pick, TwoStep};
    use crate::variants::{adjudicated_outcome, Notation, Rules};

    #[test]
    fn a_pv_cut_inside_the_first_turn_is_completed() {
        let tt = Tt::new(1);
        let (best, ponder) = best_and_ponder(&TwoStep::startpos(), &[Pick(2)], &[], &tt);
        let best = best.expect("a best turn");
        assert!(best.starts_with("p2;p"), "{best}");
        assert_eq!(ponder, None);
    }

    #[test]
    fn ponder_is_the_second_whole_turn() {
        let tt = Tt::new(1);
        let pv = [Pick(2), Pick(2), Pick(1), Pick(2)];
        let (best, ponder) = best_and_ponder(&TwoStep::startpos(), &pv, &[], &tt);
        assert_eq!(best.as_deref(), Some("p2;p2"));
        assert_eq!(ponder.as_deref(), Some("p1;p2"));
        let (_, ponder) = best_and_ponder(&TwoStep::startpos(), &pv[..3], &[], &tt);
        assert_eq!(ponder, None);
    }

    /// A rejected `position ... moves` leaves the hidden history (the
    /// positions a repetition counts) as it was: the threefold that one more move makes is
    /// the same with and without the rejected command in between.
    #[test]
    fn a_rejected_position_keeps_the_repetition_history() {
        use crate::variants::chess::Chess;
        let spec = |moves: &str| PositionSpec {
            base: PositionBase::StartPos,
            moves: moves.split_whitespace().map(str::to_string).collect(),
        };
        // The start position twice (plies 0 and 4); f6g8 would make it three times.
        let shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1";
        let third = |session: &Session<Chess>| {
            let mut pos = session.pos.clone();
            pos.make(pos.parse_move("f6g8").expect("legal"));
            (adjudicated_outcome(&pos), pos.fen(), pos.key())
        };
        let mut plain = Session::<Chess>::new(HashTable::new(1, 1), Out::new(std::io::sink()));
        plain.set_position(&spec(shuffle)).expect("accepted");
        let mut tried = Session::<Chess>::new(HashTable::new(1, 1), Out::new(std::io::sink()));
        tried.set_position(&spec(shuffle)).expect("accepted");
        for bad in [
            format!("{shuffle} f6g8 zz"),
            format!("{shuffle} f6g8 g1f3 f3g1 e2e5"),
            "e2e4 e7e5 g1f3 zz".to_string(),
        ] {
            assert!(tried.set_position(&spec(&bad)).is_err(), "{bad}");
        }
        assert_eq!(tried.pos.fen(), plain.pos.fen());
        let (outcome, fen, key) = third(&tried);
        assert_eq!((outcome.clone(), fen, key), third(&plain));
        assert_eq!(
            outcome.map(|o| o.reason),
            Some("threefold repetition".to_string())
        );
        // Without the shuffle before, the same position is no repetition.
        let mut fresh = Session::<Chess>::new(HashTable::new(1, 1), Out::new(std::io::sink()));
        fresh
            .set_position(&spec("g1f3 g8f6 f3g1"))
            .expect("accepted");
        assert_eq!(third(&fresh).0, None);
    }

    #[test]
    fn game_over_lines() {
        let mut pos = TwoStep::startpos();
        for m in [Pick(2), Pick(2), Pick(2), Pick(2), Pick(1), Pick(1)] {
            pos.make(m);
        }
        // White's third turn took the last of the 10 stones; Black is to move and has lost.
        let outcome = game_outcome(&pos).expect("over");
        assert_eq!(
            game_over_report(&pos, &outcome, false),
            "info depth 0 score mate 0\ninfo string result 1-0 {last stone}\nbestmove (none)"
        );
        assert!(game_over_report(&pos, &outcome, true)
            .starts_with("info depth 0 score mate 0 wdl 0 0 1000\n"));
    }
}
