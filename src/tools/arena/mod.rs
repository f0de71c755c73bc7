//! Engine-vs-engine matches (`menagerie match`): child engines or built-in players play games
//! in pairs (same opening, colours reversed), refereed with the variant's own rules; the
//! result is summarised as W/D/L, Elo and normalised Elo with 95% intervals from pentanomial
//! pair statistics, LOS and, optionally, an SPRT log-likelihood ratio.
//!
//! Generic over [`Game`]: the CLI picks the variant type once with `with_variant!`.
//! Before the first game each engine is started once and checked (it starts, plays the
//! variant, has every option asked for): a failure stops the match with an error. Each worker
//! thread keeps its engine processes between games (`ucinewgame`), and restarts them after a
//! game that ended in a fault (a crashed or late engine never spoils the next one); a crash
//! stops the match unless [`MatchConfig::recover`] is set.
//!
//! Openings come from a book ([`openings`]) or from random turns; pair `p` always gets the same
//! opening and seeds, so `--shard K/N` ([`spec::Shard`]) splits a match into disjoint deterministic
//! slices whose [`results`] merge into the whole. Each engine may have its own search limit
//! (`depth=`, `nodes=`, `movetime=`, `tc=` in its spec), so self-play at two depths is one match.
//! PGN movetext uses [`Notation::pgn_move`](crate::variants::Notation::pgn_move) (SAN for orthodox
//! chess), with a `{score/depth time}` comment per turn. Known gap: engine command lines are split
//! on whitespace (no shell quoting; an option word's name may have spaces, its value may not).
//!
//! No result is lost: an engine that exits, crashes or closes its pipes loses its game (the
//! runner ignores SIGPIPE), each game's PGN is written as it finishes, and
//! [`MatchOutput::checkpoint`] lets the CLI rewrite the result file after every game, from
//! which [`run_match_with`] resumes a stopped match.

pub mod adjudicate;
pub mod book;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod referee;
pub mod report;
pub mod results;
pub mod rng;
pub mod spec;
pub mod stats;

use crate::variants::game_outcome;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use thiserror::Error;

use crate::variants::turn;
use crate::variants::Game;

use crate::client::{EngineFault, StartError};
use openings::Openings;
use player::{Answer, BuiltinPlayer, EnginePlayer, Player};
use referee::{GameRecord, GameSettings, Termination};
pub use report::{MatchReport, PlayedGame, SprtState};
use rng::Rng;
use spec::{EngineSpec, Limit, Shard, Sprt};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two players; results are reported from the first one's point of view.
    pub engines: [EngineSpec; 2],
    /// Their names in the PGN, the summary and the result file (distinct:
    /// [`spec::player_names`]).
    pub names: [String; 2],
    /// Number of games of the whole match (played in pairs; an odd count leaves the last pair
    /// with one game). A shard plays its slice of them.
    pub games: usize,
    /// Each engine's search limit per turn, in engine order (built-in players ignore theirs).
    pub limits: [Limit; 2],
    /// The referee's settings (margins, length limit, adjudication).
    pub settings: GameSettings,
    /// Games played at once (threads), at least 1.
    pub concurrency: usize,
    /// Random legal turns played from the start position to make each pair's opening (when
    /// there is no book).
    pub random_plies: usize,
    /// The opening book, if any: pair `p` plays the `p`-th opening of its schedule.
    pub openings: Option<Openings>,
    /// Seed of the openings and of the built-in players.
    pub seed: u64,
    /// SPRT settings: the match stops once the LLR crosses a bound (not in a shard: there the
    /// merged result decides).
    pub sprt: Option<Sprt>,
    /// How long to wait for `uciok`/`readyok` at start-up, in milliseconds.
    pub handshake_timeout_ms: u64,
    /// Restart an engine that crashed or stalled and go on (its game is lost); without it
    /// such a fault stops the match.
    pub recover: bool,
    /// Play only this slice of the match.
    pub shard: Option<Shard>,
}

/// Why a match could not be played.
#[derive(Debug, Error)]
pub enum MatchError {
    /// An engine failed its start-up checks.
    #[error("engine {number} ({name}): {error}")]
    Start {
        /// 1 or 2, in `--engine` order.
        number: usize,
        /// Its name.
        name: String,
        /// What went wrong.
        error: StartError,
    },
    /// An opening that does not fit the variant played.
    #[error("opening {origin}: {reason}")]
    Opening {
        /// Where it comes from.
        origin: String,
        /// Why it does not fit.
        reason: String,
    },
}

/// A position after `plies` random legal turns from the start (a different walk is tried when one
/// ends the game). The start is the standard one, or, for a variant whose games start from random
/// setups ([`Rules::random_setup`](crate::variants::Rules::random_setup), e.g. Mutatis Mutandis), a
/// setup drawn from `rng`, so every pair of games gets its own. With `plies` 0 and a fixed-start
/// variant this is the start position. Returned as a fresh position from its FEN, which is what the
/// engines are given.
pub fn random_opening<G: Game>(rng: &mut Rng, plies: usize) -> G {
    let setup_seed = rng.next_u64();
    let start = || G::random_setup(setup_seed).unwrap_or_else(G::startpos);
    'attempt: for _ in 0..100 {
        let mut pos = start();
        for _ in 0..plies {
            let (_, complete) = turn::play_chosen(&mut pos, |p, list| {
                game_outcome(p)
                    .is_none()
                    .then(|| list[rng.below(list.len())])
            });
            if !complete {
                continue 'attempt;
            }
        }
        if game_outcome(&pos).is_some() {
            continue;
        }
        return G::from_fen(&pos.fen()).unwrap_or_else(|_| start());
    }
    start()
}

/// A seat at one game: a fresh built-in player, or an engine the worker keeps between games.
enum Seat<'a> {
    Builtin(BuiltinPlayer),
    Engine(&'a mut EnginePlayer),
}

impl<G: Game> Player<G> for Seat<'_> {
    fn play(&mut self, req: &player::TurnRequest<'_, G>) -> Result<Answer, EngineFault> {
        match self {
            Seat::Builtin(p) => p.play(req),
            Seat::Engine(e) => e.play(req),
        }
    }
}

/// Seats `spec` for a game: a built-in player from `rng`, or the worker's engine in `slot`
/// after `ucinewgame` (started afresh when there is none or it does not answer).
fn take_seat<'a, G: Game>(
    spec: &EngineSpec,
    slot: &'a mut Option<EnginePlayer>,
    rng: Rng,
    cfg: &MatchConfig,
) -> Result<Seat<'a>, StartError> {
    if let EngineSpec::Builtin(kind) = spec {
        return Ok(Seat::Builtin(BuiltinPlayer::new(*kind, rng)));
    }
    let timeout = cfg.handshake_timeout_ms;
    let reused = slot
        .take()
        .and_then(|mut e| e.new_game(timeout).is_ok().then_some(e));
    let engine = match reused {
        Some(e) => e,
        None => EnginePlayer::start(spec, G::INFO.name, timeout)?,
    };
    Ok(Seat::Engine(slot.insert(engine)))
}

/// Plays game `index` of the match from `start` and the `book` turns; `slots` holds the
/// worker's running engines by engine number (dropped, so restarted, after a game that ended
/// in a fault).
fn play_one<G: Game>(
    cfg: &MatchConfig,
    index: usize,
    start: &G,
    book: &[String],
    slots: &mut [Option<EnginePlayer>; 2],
) -> PlayedGame {
    let first_is_white = index.is_multiple_of(2);
    let (w, b) = if first_is_white { (0, 1) } else { (1, 0) };
    let forfeit = |side: &str, error: StartError, result| GameRecord {
        start_fen: start.fen(),
        moves: Vec::new(),
        notation: Vec::new(),
        infos: Vec::new(),
        book_turns: 0,
        result,
        termination: match error {
            StartError::Fault(EngineFault::NoAnswer { .. }) => Termination::NoAnswer,
            _ => Termination::Crash,
        },
        reason: format!("{side} failed to start: {error}"),
    };
    let seed = |who: u64| Rng::derived(cfg.seed, 1 + (index as u64) * 2 + who);
    let [slot0, slot1] = slots;
    let (white_slot, black_slot) = if first_is_white {
        (slot0, slot1)
    } else {
        (slot1, slot0)
    };
    let record = match take_seat::<G>(&cfg.engines[w], white_slot, seed(0), cfg) {
        Err(f) => forfeit("white", f, crate::variants::GameResult::BlackWins),
        Ok(mut white) => match take_seat::<G>(&cfg.engines[b], black_slot, seed(1), cfg) {
            Err(f) => forfeit("black", f, crate::variants::GameResult::WhiteWins),
            Ok(mut black) => {
                let limits = [cfg.limits[w], cfg.limits[b]];
                referee::play_game(start, book, &mut white, &mut black, limits, &cfg.settings)
            }
        },
    };
    if !matches!(
        record.termination,
        Termination::Normal | Termination::Adjudication
    ) {
        // A late answer of a timed-out engine must not leak into the next game.
        *slots = [None, None];
    }
    PlayedGame {
        index,
        first_is_white,
        record,
    }
}

/// Starts each engine of `cfg` once and runs its start-up checks for variant `variant`
/// ([`crate::client::EngineProcess::handshake`]), then quits it.
///
/// Errors: [`MatchError::Start`] for the first engine that fails.
pub fn check_engines(cfg: &MatchConfig, variant: &str) -> Result<(), MatchError> {
    for (i, spec) in cfg.engines.iter().enumerate() {
        if let EngineSpec::Builtin(_) = spec {
            continue;
        }
        match EnginePlayer::start(spec, variant, cfg.handshake_timeout_ms) {
            Ok(engine) => engine.quit(),
            Err(error) => {
                return Err(MatchError::Start {
                    number: i + 1,
                    name: cfg.names[i].clone(),
                    error,
                })
            }
        }
    }
    Ok(())
}

/// The start position and book turns of pair `pair`: its opening of the book (`schedule` is
/// [`Openings::schedule`]), or random turns from the start drawn from the pair's own seed.
fn pair_opening<G: Game>(cfg: &MatchConfig, schedule: &[usize], pair: usize) -> (G, Vec<String>) {
    if let Some(book) = &cfg.openings {
        let o = &book.list[schedule[pair % schedule.len()]];
        if let Ok(pos) = G::from_fen(&o.fen) {
            return (pos, o.moves.clone());
        }
    }
    let mut rng = Rng::derived(cfg.seed, u64::MAX - pair as u64);
    (random_opening(&mut rng, cfg.random_plies), Vec::new())
}

/// A warning when the match will replay the same games: at fixed nodes or depth (both limits
/// [`Limit::Nodes`] or [`Limit::Depth`]) a deterministic engine plays the same game from the
/// same opening with the same colours, so a book of `n` openings gives at most `2n` different
/// games, and a fixed start without a book or random turns gives 2. `None` when every game
/// can differ (a clock or movetime, enough openings, random turns, or a variant whose pairs
/// start from their own random setups). The CLI prints it on stderr before the games.
pub fn repeated_games_warning<G: Game>(cfg: &MatchConfig) -> Option<String> {
    let fixed = |l: &Limit| matches!(l, Limit::Nodes(_) | Limit::Depth(_));
    if !cfg.limits.iter().all(fixed) {
        return None;
    }
    let distinct = match &cfg.openings {
        Some(book) => 2 * book.list.len(),
        None if cfg.random_plies == 0 && G::random_setup(0).is_none() => 2,
        None => return None,
    };
    (cfg.games > distinct).then(|| {
        format!(
            "warning: {} games at fixed nodes or depth, but only {distinct} can differ \
             (deterministic engines replay the same opening with the same colours the same \
             way); use a larger book (menagerie book --count N) or --random-plies",
            cfg.games
        )
    })
}

/// Whether a game's fault means an engine is broken (it crashed, stalled, or could not be
/// restarted), which stops a match without `--recover`.
fn is_breakdown(record: &GameRecord) -> bool {
    matches!(
        record.termination,
        Termination::Crash | Termination::NoAnswer
    )
}

/// A checkpoint of [`MatchOutput`]: called with the report so far after each game.
///
/// Errors: what writing the result went wrong with (the match then stops with it).
pub type Checkpoint<'a> = &'a mut dyn FnMut(&MatchReport) -> std::io::Result<()>;

/// Where a match's results go while it is played ([`run_match_with`]).
pub struct MatchOutput<'a> {
    /// Receives, for each finished game, a line describing it and the match's
    /// [`MatchReport::status_line`] after it (for stderr: the CLI keeps the status as a live
    /// line on a terminal), and the reason when the match stops early.
    pub progress: &'a mut dyn FnMut(&str, &str),
    /// Receives each game's PGN as it finishes (flushed at once).
    pub pgn: Option<&'a mut dyn Write>,
    /// Called after each finished game, once its PGN is written, with the report so far (the
    /// games of an earlier run included in the counts): the CLI writes the JSON result file
    /// there, so that a runner killed at any moment loses at most the games in progress.
    pub checkpoint: Option<Checkpoint<'a>>,
}

/// Runs the match (or its shard) for variant `G`: first the start-up checks of both engines
/// ([`check_engines`]), then the games. `progress` receives, for each finished game, a line
/// describing it and the match's [`MatchReport::status_line`] after it; `pgn` (when given)
/// receives each game's PGN as it finishes. [`run_match_with`] with nothing played before and
/// no checkpoint.
///
/// Errors: [`MatchError`]: an engine failing its checks, an opening of another variant. A
/// crash during the match, or a PGN that cannot be written, is not an error: the report says
/// why the match stopped ([`MatchReport::stopped`]).
pub fn run_match<'a, G: Game>(
    cfg: &MatchConfig,
    progress: &'a mut dyn FnMut(&str, &str),
    pgn: Option<&'a mut dyn Write>,
) -> Result<MatchReport, MatchError> {
    let output = MatchOutput {
        progress,
        pgn,
        checkpoint: None,
    };
    run_match_with::<G>(cfg, &[], output)
}

/// Runs the match (or its shard) for variant `G`, the games of `earlier` (pairs of an earlier
/// run of the same match, as its result file lists them: `--resume`) counted as played and
/// not played again, and the results sent to `output` as each game finishes. A pair with one
/// game in `earlier` has its first game (`2 * pair`) played: only the second is left.
///
/// Nothing a game does stops the runner without a word: an engine that exits, crashes or
/// closes its pipes loses that game, and is restarted with [`MatchConfig::recover`] (else the
/// match stops after that game); a PGN or checkpoint that cannot be written stops the match
/// with the reason. In every case the report holds every finished game and
/// [`MatchReport::stopped`] says why the match ended early.
///
/// Errors: [`MatchError`]: an engine failing its start-up checks, an opening of another
/// variant.
pub fn run_match_with<G: Game>(
    cfg: &MatchConfig,
    earlier: &[results::PairEntry],
    output: MatchOutput<'_>,
) -> Result<MatchReport, MatchError> {
    let MatchOutput {
        progress,
        mut pgn,
        mut checkpoint,
    } = output;
    if let Some(book) = &cfg.openings {
        for o in &book.list {
            G::from_fen(&o.fen).map_err(|e| MatchError::Opening {
                origin: o.origin.clone(),
                reason: format!("{e} (for {})", G::INFO.name),
            })?;
        }
    }
    let schedule = cfg
        .openings
        .as_ref()
        .map(|b| b.schedule(cfg.seed))
        .unwrap_or_default();
    let all_pairs = cfg.games.div_ceil(2);
    let games_of = |p: usize| if 2 * p + 1 < cfg.games { 2 } else { 1 };
    // The games an earlier run finished: (game index, the first engine's points).
    let mut report = MatchReport::default();
    let mut pending: Vec<Option<f64>> = vec![None; all_pairs];
    let mut done = vec![0usize; all_pairs];
    for entry in earlier.iter().filter(|e| e.pair < all_pairs) {
        for (k, &points) in entry.points.iter().take(games_of(entry.pair)).enumerate() {
            report.resumed.push((2 * entry.pair + k, points));
            report.wdl.add(points);
            match pending[entry.pair].take() {
                Some(first) => report.pairs.add(first + points),
                None => pending[entry.pair] = Some(points),
            }
            done[entry.pair] += 1;
        }
    }
    let shard_pairs: Vec<usize> = (0..all_pairs)
        .filter(|&p| cfg.shard.is_none_or(|s| s.has_pair(p)))
        .collect();
    let total_games: usize = shard_pairs.iter().map(|&p| games_of(p)).sum();
    let pair_ids: Vec<usize> = shard_pairs
        .iter()
        .copied()
        .filter(|&p| done[p] < games_of(p))
        .collect();
    let mut played = report.resumed.len();
    // In a shard the SPRT is only recorded: the merged result decides.
    let sprt = cfg.sprt.filter(|_| cfg.shard.is_none());
    let next_pair = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    if let Some(sprt) = &sprt {
        let st = SprtState::of(&report.pairs, sprt);
        if st.decided() {
            // Decided by the games of the earlier run: nothing more to play.
            stop.store(true, Ordering::SeqCst);
            report.stopped = Some(format!(
                "SPRT: LLR {:.3} crossed [{:.3}, {:.3}] before this run",
                st.llr, st.lower, st.upper
            ));
        }
    }
    if !pair_ids.is_empty() && !stop.load(Ordering::SeqCst) {
        check_engines(cfg, G::INFO.name)?;
    }
    let date = crate::tools::pgn::today();
    let (tx, rx) = mpsc::channel::<PlayedGame>();
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1).min(pair_ids.len().max(1)) {
            let tx = tx.clone();
            let (next_pair, stop, pair_ids, schedule, done) =
                (&next_pair, &stop, &pair_ids, &schedule, &done);
            scope.spawn(move || {
                let mut slots: [Option<EnginePlayer>; 2] = [None, None];
                loop {
                    let k = next_pair.fetch_add(1, Ordering::SeqCst);
                    if k >= pair_ids.len() || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let pair = pair_ids[k];
                    let (start, book): (G, Vec<String>) = pair_opening(cfg, schedule, pair);
                    for index in (2 * pair + done[pair])..(2 * pair + 2) {
                        if index >= cfg.games || stop.load(Ordering::SeqCst) {
                            break;
                        }
                        let game = play_one(cfg, index, &start, &book, &mut slots);
                        if !cfg.recover && is_breakdown(&game.record) {
                            // No new game starts once an engine broke down.
                            stop.store(true, Ordering::SeqCst);
                        }
                        if tx.send(game).is_err() {
                            break;
                        }
                    }
                }
                for engine in slots.into_iter().flatten() {
                    engine.quit();
                }
            });
        }
        drop(tx);
        // Stops the match with `why` (the first reason is kept), as an engine fault does.
        let halt = |report: &mut MatchReport,
                    progress: &mut dyn FnMut(&str, &str),
                    why: String,
                    status: &str| {
            stop.store(true, Ordering::SeqCst);
            progress(&format!("stopping: {why}"), status);
            if !report.aborted {
                report.stopped = Some(why);
                report.aborted = true;
            }
        };
        for game in rx {
            let points = game.first_points();
            report.wdl.add(points);
            let pair = game.index / 2;
            match pending[pair].take() {
                Some(first) => report.pairs.add(first + points),
                None => pending[pair] = Some(points),
            }
            played += 1;
            let (white, black) = if game.first_is_white {
                (&cfg.names[0], &cfg.names[1])
            } else {
                (&cfg.names[1], &cfg.names[0])
            };
            let status = report.status_line(played, total_games, sprt.as_ref());
            progress(
                &format!(
                    "game {}/{}: {white} vs {black}: {} {{{}}}",
                    game.index + 1,
                    cfg.games,
                    game.record.result.as_str(),
                    game.record.reason,
                ),
                &status,
            );
            if let Some(out) = pgn.as_deref_mut() {
                let (w, b) = if game.first_is_white { (0, 1) } else { (1, 0) };
                let header = pgn::PgnHeader {
                    event: "menagerie match",
                    date: &date,
                    round: game.index + 1,
                    white,
                    black,
                    variant: G::INFO.name,
                    limits: [cfg.limits[w], cfg.limits[b]],
                };
                let written = out
                    .write_all(pgn::game_pgn(&header, &game.record).as_bytes())
                    .and_then(|()| out.flush());
                if let Err(e) = written {
                    // The games already written stay; no more are played.
                    pgn = None;
                    halt(
                        &mut report,
                        progress,
                        format!("writing the PGN of game {}: {e}", game.index + 1),
                        &status,
                    );
                }
            }
            if !cfg.recover && is_breakdown(&game.record) && !report.aborted {
                let why = format!(
                    "game {}: {}; the match stops (--recover restarts the engine and goes on)",
                    game.index + 1,
                    game.record.reason
                );
                halt(&mut report, progress, why, &status);
            }
            if let Some(sprt) = &sprt {
                let st = SprtState::of(&report.pairs, sprt);
                if st.decided() && !stop.swap(true, Ordering::SeqCst) {
                    let why = format!(
                        "SPRT: LLR {:.3} crossed [{:.3}, {:.3}]",
                        st.llr, st.lower, st.upper
                    );
                    progress(&format!("{why}; stopping"), &status);
                    report.stopped.get_or_insert(why);
                }
            }
            report.games.push(game);
            if let Some(save) = checkpoint.as_deref_mut() {
                if let Err(e) = save(&report) {
                    checkpoint = None;
                    let why = format!("writing the result file: {e}");
                    halt(&mut report, progress, why, &status);
                }
            }
        }
    });
    report.games.sort_by_key(|g| g.index);
    report.sprt = cfg.sprt.as_ref().map(|s| SprtState::of(&report.pairs, s));
    Ok(report)
}
