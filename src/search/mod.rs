//! Generic alpha-beta search over any [`Game`]: iterative deepening,
//! PVS with aspiration windows, quiescence, a shared lock-free TT, move ordering, null-move
//! pruning, LMR, check extension, mate scores, in-tree draw detection, time management and
//! Lazy SMP. Scores are negated only when a ply changed the side to move.
//!
//! Files, by concern (as Stockfish splits its search):
//! - [`searcher`]: one search thread's state and housekeeping (polling, PV, `searchmoves`);
//! - [`negamax`]: the main search (PVS alpha-beta, its pruning, reductions and extensions);
//! - [`quiescence`]: the quiescence search;
//! - [`history`]: the learned statistics (quiet, continuation and correction histories);
//! - [`ordering`]: move picking, killers and countermoves;
//! - [`iterate`]: iterative deepening with aspiration windows;
//! - [`smp`]: Lazy SMP threads and their vote;
//! - [`tt`] (the shared lock-free TT), [`score`] (mate bookkeeping), [`time`] (time
//!   management), [`clock`], [`skill`] (limited strength), [`params`] (every tunable).
//!
//! This file holds the entry points ([`search`], [`search_among`], [`search_with_params`]) and
//! what they take and give: limits, options, reports and results.
//!
//! With one thread and only `depth`/`nodes` limits the search is deterministic: nothing
//! depends on the clock, so `bench` node counts reproduce exactly.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

use crate::core::MoveBuffer;
use crate::variants::PlyList;
use crate::variants::{Game, Scope, Terminal};

pub mod clock;
pub mod history;
pub mod iterate;
pub mod negamax;
pub mod ordering;
pub mod params;
pub mod quiescence;
pub mod score;
pub mod searcher;
pub mod skill;
pub mod smp;
pub mod time;
pub mod tt;

pub use clock::{Clock, RealClock};
pub use skill::Skill;
pub use tt::Tt;

use iterate::{IterLimits, MAX_DEPTH};
use score::MAX_PLY;
use searcher::{Counter, Shared};

/// What `go` asked for (protocol.md 4). Times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's remaining clock (ms).
    pub wtime: Option<u64>,
    /// Black's remaining clock (ms).
    pub btime: Option<u64>,
    /// White's increment per turn (ms).
    pub winc: Option<u64>,
    /// Black's increment per turn (ms).
    pub binc: Option<u64>,
    /// Turns to the next time control.
    pub movestogo: Option<u32>,
    /// Exact time for this turn (ms).
    pub movetime: Option<u64>,
    /// Maximum depth (plies).
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Start in ponder mode (search until `ponderhit` turns it into a normal search, or `stop`).
    pub ponder: bool,
}

/// Engine options that shape a search (set by `setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Number of Lazy SMP search threads (`Threads`), at least 1.
    pub threads: usize,
    /// Number of principal variations to report (`MultiPV`), at least 1.
    pub multipv: usize,
    /// Milliseconds kept back per turn for I/O and GUI lag (`Move Overhead`).
    pub move_overhead_ms: u64,
    /// The playing strength (`Skill Level`, `UCI_LimitStrength` / `UCI_Elo`); full by default.
    pub skill: Skill,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead_ms: 10,
            skill: Skill::full(),
        }
    }
}

/// Flags the protocol thread sets while a search runs, and the clock the search reads.
#[derive(Debug)]
pub struct SearchControl {
    /// Set by `stop` (or `quit`): finish as soon as possible and report the best move.
    pub stop: AtomicBool,
    /// True while pondering; `ponderhit` clears it and the search continues on the clock.
    pub pondering: AtomicBool,
    /// The time source of time management and of the times reported ([`RealClock`] by
    /// default; tests use a [`clock::ManualClock`] or a [`clock::TickingClock`]).
    pub clock: Arc<dyn Clock>,
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl::with_clock(Arc::new(RealClock))
    }
}

impl SearchControl {
    /// Flags down, time read on `clock`.
    pub fn with_clock(clock: Arc<dyn Clock>) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            clock,
        }
    }
}

/// A score for the protocol: centipawns, or a mate distance in moves (positive: the side to
/// move mates; negative: it is mated).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// One `info` line's content, handed to the report callback.
#[derive(Clone, Debug)]
pub struct InfoReport<'a, M> {
    /// Completed depth (plies).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of the principal variation (MultiPV).
    pub multipv: usize,
    /// The score of this line.
    pub score: Score,
    /// `Some(true)` for a lower bound, `Some(false)` for an upper bound, `None` exact.
    pub lowerbound: Option<bool>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// TT fill in permille.
    pub hashfull: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The principal variation, in plies.
    pub pv: &'a [M],
}

/// What a finished search returns.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The best ply, `None` when the root has no legal ply.
    pub best: Option<M>,
    /// The principal variation (plies), starting with `best`.
    pub pv: Vec<M>,
    /// Score of the best line.
    pub score: Score,
    /// Deepest completed iteration (plies).
    pub depth: u32,
    /// Deepest ply reached by the iteration that gave `best` (plies).
    pub seldepth: u32,
    /// Total nodes of all threads.
    pub nodes: u64,
    /// Milliseconds the search took.
    pub time_ms: u64,
    /// TT fill in permille at the end.
    pub hashfull: u32,
}

/// Most search threads honoured (more are clamped).
pub const MAX_THREADS: usize = 256;

/// Searches `root` within `limits`; calls `report` for every `info` line; returns the result.
///
/// The calling thread only relays `info` lines: the search runs on `options.threads` spawned
/// threads (64 MiB stacks) sharing `tt`. Returns when the limits are reached, on `stop`, and
/// never before `stop` (or `ponderhit` plus thinking time) for infinite or ponder searches.
/// The best move is always legal when the root has a legal ply.
pub fn search<G: Game>(
    root: &G,
    limits: &Limits,
    options: &SearchOptions,
    tt: &Tt,
    control: &SearchControl,
    report: &mut dyn FnMut(&InfoReport<'_, G::Move>),
) -> SearchResult<G::Move> {
    run(
        root,
        limits,
        options,
        &params::active(),
        &[],
        tt,
        control,
        report,
    )
}

/// [`search`] among the root turns `allowed` only (`go searchmoves`): each a line of legal
/// plies from `root`, a whole turn or its first portions (any completion of those is
/// allowed). Lines whose first ply is not legal are skipped; with no legal line left, every
/// root ply is searched.
pub fn search_among<G: Game>(
    root: &G,
    limits: &Limits,
    options: &SearchOptions,
    allowed: &[Vec<G::Move>],
    tt: &Tt,
    control: &SearchControl,
    report: &mut dyn FnMut(&InfoReport<'_, G::Move>),
) -> SearchResult<G::Move> {
    run(
        root,
        limits,
        options,
        &params::active(),
        allowed,
        tt,
        control,
        report,
    )
}

/// [`search`] with explicit tunables (SPSA tuning, experiments).
pub fn search_with_params<G: Game>(
    root: &G,
    limits: &Limits,
    options: &SearchOptions,
    params: &params::SearchParams,
    tt: &Tt,
    control: &SearchControl,
    report: &mut dyn FnMut(&InfoReport<'_, G::Move>),
) -> SearchResult<G::Move> {
    run(root, limits, options, params, &[], tt, control, report)
}

/// The search behind [`search`], [`search_among`] and [`search_with_params`].
#[allow(clippy::too_many_arguments)]
fn run<G: Game>(
    root: &G,
    limits: &Limits,
    options: &SearchOptions,
    params: &params::SearchParams,
    allowed: &[Vec<G::Move>],
    tt: &Tt,
    control: &SearchControl,
    report: &mut dyn FnMut(&InfoReport<'_, G::Move>),
) -> SearchResult<G::Move> {
    let clock = control.clock.clone();
    let start = clock.now_ms();
    tt.new_search();
    let mut root_moves = PlyList::<G::Move>::default();
    root.legal_moves(&mut root_moves);
    // The game's own view of the root (what `outcome` reports): nothing to search.
    let terminal = root
        .verdict(Scope::Game)
        .or_else(|| root_moves.is_empty().then(|| root.no_moves_verdict()))
        .map(|v| v.terminal);
    if let Some(t) = terminal {
        // Over by rule: nothing to search. Infinite/ponder searches still wait for `stop`.
        let pondering = limits.ponder && control.pondering.load(Relaxed);
        if limits.infinite || pondering {
            while !control.stop.load(Relaxed)
                && (limits.infinite || control.pondering.load(Relaxed))
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        let score = match t {
            Terminal::Loss => Score::Mate(0),
            Terminal::Draw => Score::Cp(0),
            // Not defined by protocol.md (the protocol prints decided roots itself).
            Terminal::Win => Score::Cp(score::MATE),
        };
        return SearchResult {
            best: None,
            pv: Vec::new(),
            score,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time_ms: clock.now_ms().saturating_sub(start),
            hashfull: tt.hashfull(),
        };
    }
    // `searchmoves`: the legal lines only, and the root plies they start with.
    let allowed: Vec<Vec<G::Move>> = allowed
        .iter()
        .filter(|l| l.first().is_some_and(|m| root_moves.contains(m)))
        .cloned()
        .collect();
    if !allowed.is_empty() {
        root_moves.retain(|m| allowed.iter().any(|l| l[0] == *m));
    }

    let threads = options.threads.clamp(1, MAX_THREADS);
    // A limited strength (skill.rs): a depth cap and several root lines to choose from.
    let skill = options.skill;
    let max_depth = limits
        .depth
        .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
    let shared = Shared {
        tt,
        control,
        abort: AtomicBool::new(false),
        finished: AtomicBool::new(false),
        nodes: (0..threads).map(|_| Counter::default()).collect(),
        params: *params,
        lmr: negamax::lmr_table(params),
        start,
    };
    let iter_limits = IterLimits {
        max_depth: skill
            .max_depth(root.key())
            .map_or(max_depth, |d| d.min(max_depth)),
        mate: limits.mate,
        multipv: skill.multipv(options.multipv.max(1)),
        keep_lines: skill.enabled(),
        root_moves: root_moves.len(),
        infinite: limits.infinite,
    };
    let time = time::TimeManager::new(
        limits,
        root.side_to_move(),
        options.move_overhead_ms,
        params,
        clock.clone(),
    );
    let pondering = limits.ponder && control.pondering.load(Relaxed);
    let main_limits = smp::main_limits(time, limits.nodes, pondering);
    let mut result = smp::search_threads(
        root,
        &shared,
        &iter_limits,
        &allowed,
        main_limits,
        threads,
        options.multipv.max(1),
        report,
    );
    let nodes = shared.total_nodes();
    if skill.enabled() && !result.lines.is_empty() {
        // The turn played at this strength: one of the last completed iteration's lines.
        let scores: Vec<i32> = result.lines.iter().map(|l| l.0).collect();
        let chosen = skill.pick(&scores, root.key());
        let (score, pv) = result.lines.swap_remove(chosen);
        result.best = pv.first().copied();
        result.score = score;
        result.pv = pv;
    }
    let best = result
        .best
        .filter(|m| root_moves.contains(m))
        .or_else(|| smp::fallback(&root_moves));
    let mut pv = result.pv;
    if pv.first() != best.as_ref() {
        pv = best.into_iter().collect();
    }
    let score = if result.score.abs() >= score::INF {
        Score::Cp(0)
    } else {
        score::to_protocol(result.score, root, &pv)
    };
    SearchResult {
        best,
        pv,
        score,
        depth: result.depth,
        seldepth: result.seldepth.max(result.depth).min(MAX_PLY as u32),
        nodes,
        time_ms: clock.now_ms().saturating_sub(start),
        hashfull: tt.hashfull(),
    }
}

/// Turns an internal `info` message into an [`InfoReport`] and hands it to `report`. The
/// figures (nodes, time, hashfull) are those of the moment the search thread made the line,
/// however late this thread relays it.
fn relay<G: Game>(
    root: &G,
    info: &iterate::Info<G::Move>,
    report: &mut dyn FnMut(&InfoReport<'_, G::Move>),
) {
    let (nodes, time_ms) = (info.nodes, info.time_ms);
    let nps = (nodes * 1000).checked_div(time_ms).unwrap_or(nodes * 1000);
    let seldepth = info.seldepth.max(info.depth).min(MAX_PLY as u32);
    report(&InfoReport {
        depth: info.depth,
        seldepth,
        multipv: info.multipv,
        score: score::to_protocol(info.score, root, &info.pv),
        lowerbound: info.bound,
        nodes,
        nps,
        hashfull: info.hashfull,
        time_ms,
        pv: &info.pv,
    });
}
