//! Generic alpha-beta search over any [`Game`](crate::variants::Game): iterative deepening,
//! PVS with aspiration windows, quiescence, a shared lock-free TT, move ordering, null-move
//! pruning, LMR, check extension, mate scores, in-tree draw detection, time management and
//! Lazy SMP. Scores are negated only when a ply changed the side to move.
//!
//! STUB: the interface below is fixed; the implementation is being written.

use std::sync::atomic::AtomicBool;

use crate::variants::Game;

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
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead_ms: 10,
        }
    }
}

/// Flags the protocol thread sets while a search runs.
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set by `stop` (or `quit`): finish as soon as possible and report the best move.
    pub stop: AtomicBool,
    /// True while pondering; `ponderhit` clears it and the search continues on the clock.
    pub pondering: AtomicBool,
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
    /// Total nodes of all threads.
    pub nodes: u64,
}

/// Placeholder until the real TT lands: sized in MiB.
pub struct Tt;

impl Tt {
    /// A TT of `mb` MiB.
    pub fn new(mb: usize) -> Self {
        let _ = mb;
        Tt
    }
}

/// Searches `root` within `limits`; calls `report` for every `info` line; returns the result.
pub fn search<G: Game>(
    root: &G,
    limits: &Limits,
    options: &SearchOptions,
    tt: &Tt,
    control: &SearchControl,
    report: &mut dyn FnMut(&InfoReport<'_, G::Move>),
) -> SearchResult<G::Move> {
    let _ = (root, limits, options, tt, control, report);
    unimplemented!("search is being written")
}
