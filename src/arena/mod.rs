//! Engine-vs-engine matches (`menagerie match`): child engines or built-in players play games
//! in pairs (same opening, colours reversed), refereed with the variant's own rules; the
//! result is summarised as W/D/L, Elo with a 95% interval from pentanomial pair statistics and,
//! optionally, an SPRT log-likelihood ratio.
//!
//! Generic over [`Game`]: the CLI picks the variant type once with `with_variant!`.
//! Each worker thread keeps its engine processes between games (`ucinewgame`), and restarts
//! them after a game that ended in a fault (a crashed or late engine never spoils the next one).
//!
//! Each engine may have its own search limit (`depth=`, `nodes=`, `movetime=`, `tc=` in its
//! spec), so self-play at two depths is one match. PGN movetext uses [`Game::pgn_move`] (SAN for
//! orthodox chess). Known gaps: engine command lines are split on whitespace (no shell quoting)
//! and option names cannot contain spaces.

pub mod engine;
pub mod pgn;
pub mod player;
pub mod referee;
pub mod rng;
pub mod spec;
pub mod stats;

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::core::MoveBuffer;
use crate::variants::PlyList;
use crate::variants::{Game, GameResult};

use engine::EngineFault;
use player::{BuiltinPlayer, EnginePlayer, Player};
use referee::{GameRecord, GameSettings, Termination};
use rng::Rng;
use spec::{EngineSpec, Limit, Sprt};
use stats::{Pentanomial, Trinomial};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two players; results are reported from the first one's point of view.
    pub engines: [EngineSpec; 2],
    /// Number of games (played in pairs; an odd count leaves the last pair with one game).
    pub games: usize,
    /// Each engine's search limit per turn, in engine order (built-in players ignore theirs).
    pub limits: [Limit; 2],
    /// The referee's settings (margins, length limit).
    pub settings: GameSettings,
    /// Games played at once (threads), at least 1.
    pub concurrency: usize,
    /// Random legal turns played from the start position to make each pair's opening.
    pub random_plies: usize,
    /// Seed of the openings and of the built-in players.
    pub seed: u64,
    /// SPRT settings: the match stops once the LLR crosses a bound.
    pub sprt: Option<Sprt>,
    /// How long to wait for `uciok`/`readyok` at start-up, in milliseconds.
    pub handshake_timeout_ms: u64,
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Game number, from 0 (games `2k` and `2k+1` form pair `k`).
    pub index: usize,
    /// Whether the first engine had White.
    pub first_is_white: bool,
    /// The game itself.
    pub record: GameRecord,
}

impl PlayedGame {
    /// Points (0, 0.5 or 1) the first engine scored.
    pub fn first_points(&self) -> f64 {
        match (self.record.result, self.first_is_white) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 1.0,
            _ => 0.0,
        }
    }
}

/// The outcome of a match.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// The games, in game order.
    pub games: Vec<PlayedGame>,
    /// Wins, draws and losses of the first engine.
    pub wdl: Trinomial,
    /// Pair statistics (complete pairs only) from the first engine's point of view.
    pub pairs: Pentanomial,
    /// `(llr, lower bound, upper bound)` when an SPRT was run.
    pub sprt: Option<(f64, f64, f64)>,
}

impl MatchReport {
    fn sprt_state(&self, sprt: &Sprt) -> (f64, f64, f64) {
        let (lo, hi) = stats::sprt_bounds(sprt.alpha, sprt.beta);
        (self.pairs.llr(sprt.elo0, sprt.elo1, sprt.model), lo, hi)
    }

    /// A one-line state of the match after `played` of `total` games, for the live progress
    /// line: games, W-D-L, Elo with its 95% interval and, with an SPRT, the LLR and its bounds.
    pub fn status_line(&self, played: usize, total: usize, sprt: Option<&Sprt>) -> String {
        let w = &self.wdl;
        let mut s = format!(
            "Games {played}/{total}  W-D-L {}-{}-{}",
            w.wins, w.draws, w.losses
        );
        if let Some(score) = w.score() {
            s.push_str(&format!("  Score {:.1}%", score * 100.0));
        }
        match self.pairs.elo_interval() {
            Some((lo, e, hi)) => s.push_str(&format!(
                "  Elo {:+.1} [{:+.1}, {:+.1}]",
                e + 0.0,
                lo + 0.0,
                hi + 0.0
            )),
            None => s.push_str("  Elo n/a"),
        }
        if let Some(sprt) = sprt {
            let (llr, lo, hi) = self.sprt_state(sprt);
            s.push_str(&format!("  LLR {llr:.2} [{lo:.2}, {hi:.2}]"));
        }
        s
    }

    /// The final summary printed on stdout.
    pub fn summary(&self, names: [&str; 2]) -> String {
        let mut s = String::new();
        let w = &self.wdl;
        s.push_str(&format!("Match: {} vs {}\n", names[0], names[1]));
        s.push_str(&format!(
            "Games: {}  W: {}  D: {}  L: {}  (from {}'s view)\n",
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            names[0]
        ));
        if let Some(score) = w.score() {
            s.push_str(&format!("Score: {:.1}%\n", score * 100.0));
        }
        match self.pairs.elo_interval() {
            Some((lo, e, hi)) => {
                // `+ 0.0` turns a negative zero into zero.
                let (lo, e, hi) = (lo + 0.0, e + 0.0, hi + 0.0);
                s.push_str(&format!(
                    "Elo: {e:+.1} [{lo:+.1}, {hi:+.1}] (95%, {} pairs {:?})\n",
                    self.pairs.pairs(),
                    self.pairs.0
                ))
            }
            None => s.push_str("Elo: n/a (no complete pair)\n"),
        }
        if let Some((llr, lo, hi)) = self.sprt {
            let verdict = if llr >= hi {
                "H1 accepted"
            } else if llr <= lo {
                "H0 accepted"
            } else {
                "inconclusive"
            };
            s.push_str(&format!("LLR: {llr:.3} [{lo:.3}, {hi:.3}] {verdict}\n"));
        }
        s
    }
}

/// A position after `plies` random legal turns from the start (a different walk is tried when
/// one ends the game). The start is the standard one, or, for a variant whose games start from
/// random setups ([`Game::random_setup`], e.g. Mutatis Mutandis), a setup drawn from `rng`, so
/// every pair of games gets its own. With `plies` 0 and a fixed-start variant this is the start
/// position. Returned as a fresh position from its FEN, which is what the engines are given.
pub fn random_opening<G: Game>(rng: &mut Rng, plies: usize) -> G {
    let setup_seed = rng.next_u64();
    let start = || G::random_setup(setup_seed).unwrap_or_else(G::startpos);
    'attempt: for _ in 0..100 {
        let mut pos = start();
        let mut list = PlyList::<G::Move>::default();
        for _ in 0..plies {
            let side = pos.side_to_move();
            loop {
                list.clear();
                pos.legal_moves(&mut list);
                if list.is_empty() || pos.outcome().is_some() {
                    continue 'attempt;
                }
                pos.make(list[rng.below(list.len())]);
                if !G::MULTI_PLY_TURNS || pos.side_to_move() != side || pos.decided().is_some() {
                    break;
                }
            }
        }
        if pos.outcome().is_some() {
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
    fn play(&mut self, req: &player::TurnRequest<'_, G>) -> Result<String, EngineFault> {
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
) -> Result<Seat<'a>, EngineFault> {
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

/// Plays game `index` of the match from `start`; `slots` holds the worker's running engines
/// by engine number (dropped, so restarted, after a game that ended in a fault).
fn play_one<G: Game>(
    cfg: &MatchConfig,
    index: usize,
    start: &G,
    slots: &mut [Option<EnginePlayer>; 2],
) -> PlayedGame {
    let first_is_white = index.is_multiple_of(2);
    let (w, b) = if first_is_white { (0, 1) } else { (1, 0) };
    let forfeit = |side: &str, fault: EngineFault, result| GameRecord {
        start_fen: start.fen(),
        moves: Vec::new(),
        notation: Vec::new(),
        result,
        termination: match fault {
            EngineFault::NoAnswer { .. } => Termination::NoAnswer,
            _ => Termination::Crash,
        },
        reason: format!("{side} failed to start: {fault}"),
    };
    let seed = |who: u64| Rng::derived(cfg.seed, 1 + (index as u64) * 2 + who);
    let [slot0, slot1] = slots;
    let (white_slot, black_slot) = if first_is_white {
        (slot0, slot1)
    } else {
        (slot1, slot0)
    };
    let record = match take_seat::<G>(&cfg.engines[w], white_slot, seed(0), cfg) {
        Err(f) => forfeit("white", f, GameResult::BlackWins),
        Ok(mut white) => match take_seat::<G>(&cfg.engines[b], black_slot, seed(1), cfg) {
            Err(f) => forfeit("black", f, GameResult::WhiteWins),
            Ok(mut black) => {
                let limits = [cfg.limits[w], cfg.limits[b]];
                referee::play_game(start, &mut white, &mut black, limits, &cfg.settings)
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

/// Runs the match for variant `G`: `progress` receives, for each finished game, a line
/// describing it and the match's [`MatchReport::status_line`] after it (for stderr: the CLI
/// keeps the status as a live line on a terminal); `pgn` (when given) receives each game's PGN
/// as it finishes.
///
/// Errors: an I/O error writing the PGN.
pub fn run_match<G: Game>(
    cfg: &MatchConfig,
    progress: &mut dyn FnMut(&str, &str),
    mut pgn: Option<&mut dyn Write>,
) -> std::io::Result<MatchReport> {
    let pairs = cfg.games.div_ceil(2);
    let next_pair = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let names = [cfg.engines[0].name(), cfg.engines[1].name()];
    let standard_fen = G::startpos().fen();
    let mut report = MatchReport::default();
    let (tx, rx) = mpsc::channel::<PlayedGame>();
    std::thread::scope(|scope| -> std::io::Result<()> {
        for _ in 0..cfg.concurrency.max(1).min(pairs.max(1)) {
            let tx = tx.clone();
            let (next_pair, stop) = (&next_pair, &stop);
            scope.spawn(move || {
                let mut slots: [Option<EnginePlayer>; 2] = [None, None];
                loop {
                    let pair = next_pair.fetch_add(1, Ordering::SeqCst);
                    if pair >= pairs || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let mut rng = Rng::derived(cfg.seed, u64::MAX - pair as u64);
                    let start: G = random_opening(&mut rng, cfg.random_plies);
                    for index in [2 * pair, 2 * pair + 1] {
                        if index >= cfg.games {
                            break;
                        }
                        if tx.send(play_one(cfg, index, &start, &mut slots)).is_err() {
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
        let mut pending: Vec<Option<f64>> = vec![None; pairs];
        let mut played = 0;
        for game in rx {
            let points = game.first_points();
            if points >= 1.0 {
                report.wdl.wins += 1;
            } else if points <= 0.0 {
                report.wdl.losses += 1;
            } else {
                report.wdl.draws += 1;
            }
            let pair = game.index / 2;
            match pending[pair].take() {
                Some(first) => report.pairs.add(first + points),
                None => pending[pair] = Some(points),
            }
            played += 1;
            let (white, black) = if game.first_is_white {
                (&names[0], &names[1])
            } else {
                (&names[1], &names[0])
            };
            let status = report.status_line(played, cfg.games, cfg.sprt.as_ref());
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
                let header = pgn::PgnHeader {
                    event: "menagerie match",
                    round: game.index + 1,
                    white,
                    black,
                    variant: G::INFO.name,
                    standard_fen: &standard_fen,
                };
                out.write_all(pgn::game_pgn(&header, &game.record).as_bytes())?;
                out.flush()?;
            }
            if let Some(sprt) = &cfg.sprt {
                let (llr, lo, hi) = report.sprt_state(sprt);
                if (llr >= hi || llr <= lo) && !stop.swap(true, Ordering::SeqCst) {
                    let status = report.status_line(played, cfg.games, cfg.sprt.as_ref());
                    progress(
                        &format!("SPRT: LLR {llr:.3} crossed [{lo:.3}, {hi:.3}]; stopping"),
                        &status,
                    );
                }
            }
            report.games.push(game);
        }
        Ok(())
    })?;
    report.games.sort_by_key(|g| g.index);
    report.sprt = cfg.sprt.as_ref().map(|s| report.sprt_state(s));
    Ok(report)
}
