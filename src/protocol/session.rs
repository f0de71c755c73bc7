//! The per-variant half of the engine: the current position, the TT and the search worker,
//! generic over [`Game`]. The engine loop holds it as a `Box<dyn VariantSession>` built by
//! [`new_session`], the one place where the runtime variant becomes a type.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use super::command::{echo, GoCommand, PositionBase, PositionSpec};
use super::options::EngineOptions;
use super::output::{format_bestmove, format_info, Out};
use super::turns::{group_turns, legal_turn_tokens, play_turn_token, turn_over, turn_tokens, Turn};
use super::ProtocolError;
use crate::perft::{self, Unit};
use crate::search::{self, InfoReport, Limits, Score, SearchControl, SearchOptions, Tt};
use crate::variants::PlyList;
use crate::variants::{
    Game, GameResult, Outcome, ProbeLimits, Variant, VariantSettings, PROBE_MATE,
};

/// Depth of the search that completes a best turn whose PV stops mid-turn.
const FOLLOW_UP_DEPTH: u32 = 3;
/// Node budget of that search.
const FOLLOW_UP_NODES: u64 = 20_000;
/// The most portions a turn is completed with (a guard against a variant that never ends one).
const MAX_TURN_PLIES: usize = 64;
/// How often a finished infinite or ponder search checks for `stop` / `ponderhit`.
const WAIT_POLL: Duration = Duration::from_millis(1);

/// What the engine loop needs from the variant-specific state (object safe).
pub trait VariantSession: Send {
    /// The `info string variant ...` announcement (protocol.md 1).
    fn announce(&self) -> String;
    /// Sets the position from a `position` command; on error the position is unchanged.
    ///
    /// Errors: [`ProtocolError::Fen`] or [`ProtocolError::IllegalMove`].
    fn set_position(&mut self, spec: &PositionSpec) -> Result<(), ProtocolError>;
    /// Starts a search or a perft in the worker thread (or answers at once at a decided position).
    ///
    /// Errors: [`ProtocolError::Busy`] while the worker runs.
    fn go(&mut self, go: &GoCommand, options: &EngineOptions) -> Result<(), ProtocolError>;
    /// Asks the running search, if any, to stop.
    fn stop(&mut self);
    /// Turns a ponder search into a normal one.
    fn ponderhit(&mut self);
    /// Whether the worker thread runs.
    fn busy(&mut self) -> bool;
    /// Stops a running search and waits for its `bestmove`; a running perft (which cannot be
    /// stopped) is waited for, so that scripted `go perft` runs print their result.
    fn finish(&mut self);
    /// Waits until a running variant command has printed its answer (searches and perfts are
    /// not waited for): `isready` calls it so that the answer comes before `readyok`.
    fn settle(&mut self);
    /// The `d` output.
    fn display(&self) -> String;
    /// The `moves` output line.
    fn moves_line(&self) -> String;
    /// The `eval` output.
    fn eval_report(&self) -> String;
    /// Empties the TT (`ucinewgame`). While a search runs, it keeps its table and the session
    /// takes a fresh one of `hash_mb` MiB.
    fn clear_tt(&mut self, hash_mb: usize);
    /// Replaces the TT by an empty one of `hash_mb` MiB (`Hash`), freeing the old one first
    /// unless a running search still uses it.
    fn resize_tt(&mut self, hash_mb: usize);
    /// Hands `settings` (protocol options such as `UCI_Chess960`) to the current position and
    /// to every position set up from now on ([`Game::apply_settings`]).
    ///
    /// Errors: the variant's message when it does not support them; nothing changes then.
    fn apply_settings(&mut self, settings: VariantSettings) -> Result<(), String>;
    /// Whether `word` starts one of the variant's own commands ([`Game::COMMANDS`]).
    fn has_command(&self, word: &str) -> bool;
    /// Runs a variant command ([`Game::variant_command`]) on the worker thread, its probes
    /// searching with this session's TT; prints the answer, or `info string error ...`.
    ///
    /// Errors: [`ProtocolError::Busy`] while the worker runs.
    fn variant_command(&mut self, line: &str) -> Result<(), ProtocolError>;
}

/// A new session of `variant` at its start position, with a `hash_mb` MiB TT, writing to `out`.
pub fn new_session(variant: Variant, hash_mb: usize, out: Out) -> Box<dyn VariantSession> {
    crate::with_variant!(variant, G => Box::new(Session::<G>::new(hash_mb, out)))
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
    tt: Arc<Tt>,
    out: Out,
    job: Option<Job>,
}

impl<G: Game> Session<G> {
    fn new(hash_mb: usize, out: Out) -> Self {
        Session {
            pos: G::startpos(),
            settings: VariantSettings::default(),
            tt: Arc::new(Tt::new(hash_mb)),
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
                play_turn_token(&mut pos, token).map_err(|_| ProtocolError::IllegalMove {
                    token: echo(token),
                    turn: i + 1,
                })?;
            }
            Ok(pos)
        };
        // Defence in depth: a panic in a variant's parser must not take the engine down.
        let pos = catch_unwind(AssertUnwindSafe(build))
            .map_err(|_| ProtocolError::Internal("the position could not be set up".into()))??;
        self.pos = pos;
        Ok(())
    }

    fn go(&mut self, go: &GoCommand, options: &EngineOptions) -> Result<(), ProtocolError> {
        if self.busy() {
            return Err(ProtocolError::Busy("go"));
        }
        let root = self.pos.clone();
        let out = self.out.clone();
        let control = Arc::new(SearchControl::default());
        match go {
            GoCommand::Perft(depth) => {
                let (depth, threads) = (*depth, options.threads);
                self.spawn(control, move |active| {
                    let rows = perft::divide(&root, depth, Unit::Turn, threads);
                    active.store(false, Ordering::SeqCst);
                    out.send(&perft::format_divide(&rows));
                });
            }
            GoCommand::Search {
                limits,
                searchmoves_ignored,
            } => {
                if *searchmoves_ignored {
                    self.out
                        .info_string("searchmoves is not supported; searching all moves");
                }
                if let Some(outcome) = root.outcome() {
                    self.out.send(&game_over_report(&root, &outcome));
                    return Ok(());
                }
                // A draw the rules only let a player claim: say so and play on (FIDE 9.2, 9.3).
                if let Some(reason) = root.claimable_draw() {
                    self.out.info_string(format!("draw claimable {{{reason}}}"));
                }
                control.pondering.store(limits.ponder, Ordering::SeqCst);
                let (limits, sopts, tt, ctl) = (
                    limits.clone(),
                    options.search_options(),
                    self.tt.clone(),
                    control.clone(),
                );
                self.spawn(control, move |active| {
                    search_worker(root, limits, sopts, tt, ctl, active, out)
                });
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
    }

    fn display(&self) -> String {
        self.pos.display()
    }

    fn moves_line(&self) -> String {
        let tokens = legal_turn_tokens(&self.pos);
        if tokens.is_empty() {
            "info string moves".to_string()
        } else {
            format!("info string moves {}", tokens.join(" "))
        }
    }

    fn eval_report(&self) -> String {
        self.pos.eval_report()
    }

    fn clear_tt(&mut self, hash_mb: usize) {
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            None => self.tt = Arc::new(Tt::new(hash_mb)),
        }
    }

    fn resize_tt(&mut self, hash_mb: usize) {
        // Drop the old table before allocating the new one: never both at once.
        self.tt = Arc::new(Tt::new(1));
        self.tt = Arc::new(Tt::new(hash_mb));
    }

    fn apply_settings(&mut self, settings: VariantSettings) -> Result<(), String> {
        let mut pos = self.pos.clone();
        pos.apply_settings(&settings)?;
        self.pos = pos;
        self.settings = settings;
        Ok(())
    }

    fn has_command(&self, word: &str) -> bool {
        G::COMMANDS.contains(&word)
    }

    fn variant_command(&mut self, line: &str) -> Result<(), ProtocolError> {
        if self.busy() {
            return Err(ProtocolError::Busy("variant command"));
        }
        let (root, out, tt, line) = (
            self.pos.clone(),
            self.out.clone(),
            self.tt.clone(),
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

/// The answer to `go` at a position that is over by rule (protocol.md 4).
fn game_over_report<G: Game>(pos: &G, outcome: &Outcome) -> String {
    let score = if outcome.result == GameResult::win_for(!pos.side_to_move()) {
        "mate 0"
    } else {
        "cp 0"
    };
    format!(
        "info depth 0 score {score}\ninfo string result {} {{{}}}\n{}",
        outcome.result.as_str(),
        outcome.reason,
        format_bestmove(None, None)
    )
}

/// The search thread: runs the search, reports `info` lines, waits for `stop`/`ponderhit` when
/// an infinite or ponder search ends early, then prints `bestmove`.
fn search_worker<G: Game>(
    root: G,
    limits: Limits,
    options: SearchOptions,
    tt: Arc<Tt>,
    control: Arc<SearchControl>,
    active: &AtomicBool,
    out: Out,
) {
    let mut report =
        |r: &InfoReport<'_, G::Move>| out.send(&format_info(r, &turn_tokens(&root, r.pv)));
    let result = catch_unwind(AssertUnwindSafe(|| {
        search::search(&root, &limits, &options, &tt, &control, &mut report)
    }));
    let pv = match result {
        Ok(r) => match (r.best, r.pv.first()) {
            (Some(best), Some(&first)) if first != best => vec![best],
            (Some(best), None) => vec![best],
            _ => r.pv,
        },
        Err(_) => {
            out.error("the search failed; playing the first legal move");
            Vec::new()
        }
    };
    while !control.stop.load(Ordering::SeqCst)
        && (limits.infinite || control.pondering.load(Ordering::SeqCst))
    {
        std::thread::sleep(WAIT_POLL);
    }
    let (best, ponder) = best_and_ponder(&root, &pv, &tt);
    active.store(false, Ordering::SeqCst);
    out.send(&format_bestmove(best.as_deref(), ponder.as_deref()));
}

/// The best turn (the PV's first turn, completed if the PV stops inside it) and the ponder turn
/// (the PV's second turn, when the PV holds all of it).
fn best_and_ponder<G: Game>(root: &G, pv: &[G::Move], tt: &Tt) -> (Option<String>, Option<String>) {
    let mut turns = group_turns(root, pv);
    if turns.is_empty() {
        let mut list = PlyList::<G::Move>::default();
        root.legal_moves(&mut list);
        match list.first() {
            Some(&m) => turns = group_turns(root, &[m]),
            None => return (None, None),
        }
    }
    let mut rest = turns.into_iter();
    let Some(mut best) = rest.next() else {
        return (None, None);
    };
    if !best.complete {
        complete_turn(root, &mut best, tt);
        return (Some(best.token), None);
    }
    let ponder = rest.next().filter(|t| t.complete).map(|t| t.token);
    (Some(best.token), ponder)
}

/// Completes a turn cut short by the end of the PV with quick searches of the positions inside
/// it (generic: nothing here knows how a variant's turns are made).
fn complete_turn<G: Game>(root: &G, turn: &mut Turn<G::Move>, tt: &Tt) {
    let side = root.side_to_move();
    let mut pos = root.clone();
    for &m in &turn.plies {
        pos.make(m);
    }
    let limits = Limits {
        depth: Some(FOLLOW_UP_DEPTH),
        nodes: Some(FOLLOW_UP_NODES),
        ..Limits::default()
    };
    let options = SearchOptions::default();
    while turn.plies.len() < MAX_TURN_PLIES && !turn_over(&pos, side) {
        let control = SearchControl::default();
        let searched = catch_unwind(AssertUnwindSafe(|| {
            search::search(
                &pos,
                &limits,
                &options,
                tt,
                &control,
                &mut |_: &InfoReport<'_, G::Move>| {},
            )
        }));
        let mut list = PlyList::<G::Move>::default();
        pos.legal_moves(&mut list);
        let chosen = searched
            .ok()
            .and_then(|r| r.best)
            .filter(|m| list.contains(m))
            .or_else(|| list.first().copied());
        let Some(m) = chosen else {
            break;
        };
        turn.token.push(';');
        turn.token.push_str(&pos.move_token(m));
        turn.plies.push(m);
        pos.make(m);
    }
    turn.complete = true;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::mock::{Pick, TwoStep};

    #[test]
    fn a_pv_cut_inside_the_first_turn_is_completed() {
        let tt = Tt::new(1);
        let (best, ponder) = best_and_ponder(&TwoStep::startpos(), &[Pick(2)], &tt);
        let best = best.expect("a best turn");
        assert!(best.starts_with("p2;p"), "{best}");
        assert_eq!(ponder, None);
    }

    #[test]
    fn ponder_is_the_second_whole_turn() {
        let tt = Tt::new(1);
        let pv = [Pick(2), Pick(2), Pick(1), Pick(2)];
        let (best, ponder) = best_and_ponder(&TwoStep::startpos(), &pv, &tt);
        assert_eq!(best.as_deref(), Some("p2;p2"));
        assert_eq!(ponder.as_deref(), Some("p1;p2"));
        let (_, ponder) = best_and_ponder(&TwoStep::startpos(), &pv[..3], &tt);
        assert_eq!(ponder, None);
    }

    #[test]
    fn game_over_lines() {
        let mut pos = TwoStep::startpos();
        for _ in 0..3 {
            pos.make(Pick(2));
            pos.make(Pick(1));
        }
        // White (turns 1 and 3) picked 6, Black 3; Black is to move and has lost.
        let outcome = pos.outcome().expect("over");
        assert_eq!(
            game_over_report(&pos, &outcome),
            "info depth 0 score mate 0\ninfo string result 1-0 {all picks made}\nbestmove (none)"
        );
    }
}
