//! Generic perft: counts the leaves of the legal-move tree to a fixed depth, the standard test
//! of move generation and make/unmake (protocol.md 5).
//!
//! Two units: **plies** ([`perft`]) and **turns** ([`perft_turns`], what `go perft` counts; for
//! variants whose turns are single plies the two agree). A position decided by a win rule
//! ([`Rules::verdict`](crate::variants::Rules::verdict) with [`Scope::Wins`]) has no children; draw
//! rules are not applied, as in Stockfish's perft. At the last ply the legal moves are counted
//! without being played (bulk counting).
//!
//! [`divide_until`] polls a stop flag at every interior node (not at the bulk-counted last
//! ply), so that the protocol's `stop` and `quit` end a `go perft` at once.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use rayon::prelude::*;

use crate::variants::turn;
use crate::variants::{debug_validate, Game, PlyList, Scope};

/// A stop flag that is never set (the plain, uninterruptible forms).
static NEVER: AtomicBool = AtomicBool::new(false);

/// Leaf count of the ply tree of depth `depth` below `pos` (restored on return).
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    plies(pos, depth, &NEVER)
}

/// The ply count; meaningless once `stop` is set (callers check the flag afterwards). `pos`
/// is restored on return.
fn plies<G: Game>(pos: &mut G, depth: u32, stop: &AtomicBool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.verdict(Scope::Wins).is_some() {
        return 0;
    }
    let mut list = PlyList::<G::Move>::default();
    pos.legal_moves(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    if stop.load(Relaxed) {
        return 0;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make(m);
        debug_validate(pos, "make");
        nodes += plies(pos, depth - 1, stop);
        pos.unmake();
        debug_validate(pos, "unmake");
    }
    nodes
}

/// Leaf count of the turn tree of depth `depth`: a turn ends when the side to move changes or
/// a win rule decides the game ([`turn::is_over`], protocol.md 5).
pub fn perft_turns<G: Game>(pos: &mut G, depth: u32) -> u64 {
    turns(pos, depth, &NEVER)
}

/// The turn count; meaningless once `stop` is set.
fn turns<G: Game>(pos: &mut G, depth: u32, stop: &AtomicBool) -> u64 {
    if !G::INFO.multi_ply_turns {
        return plies(pos, depth, stop);
    }
    if depth == 0 {
        return 1;
    }
    if pos.verdict(Scope::Wins).is_some() || stop.load(Relaxed) {
        return 0;
    }
    let side = pos.side_to_move();
    let mut list = PlyList::<G::Move>::default();
    pos.legal_moves(&mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make(m);
        let next = if turn::is_over(pos, side) {
            depth - 1
        } else {
            depth
        };
        nodes += turns(pos, next, stop);
        pos.unmake();
    }
    nodes
}

/// The unit perft counts in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Unit {
    /// Whole turns (protocol `go perft`; the default).
    #[default]
    Turn,
    /// Single plies (portions, placements).
    Ply,
}

/// Perft divide: for each legal root move (for `Unit::Turn`, each legal root *turn*,
/// [`turn::legal_lines`]), its token and leaf count at `depth - 1` below it, in generation
/// order. Runs the root moves on `threads` rayon workers when `threads > 1`. `depth` must be
/// at least 1.
pub fn divide<G: Game>(pos: &G, depth: u32, unit: Unit, threads: usize) -> Vec<(String, u64)> {
    divide_until(pos, depth, unit, threads, &NEVER).unwrap_or_default()
}

/// [`divide`] that gives up when `stop` is set (by another thread): `None` then. `depth`
/// must be at least 1.
pub fn divide_until<G: Game>(
    pos: &G,
    depth: u32,
    unit: Unit,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<(String, u64)>> {
    assert!(depth >= 1, "divide needs depth >= 1");
    let roots = turn::legal_lines(pos, unit == Unit::Turn);
    let count = |line: &Vec<G::Move>| -> u64 {
        if stop.load(Relaxed) {
            return 0;
        }
        let mut p = pos.clone();
        // Perft evaluates nothing: no network sums are kept through its makes.
        p.detach_network();
        for &m in line {
            p.make(m);
        }
        match unit {
            Unit::Ply => plies(&mut p, depth - 1, stop),
            Unit::Turn => turns(&mut p, depth - 1, stop),
        }
    };
    let counts: Vec<u64> = if threads > 1 {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| roots.par_iter().map(|(_, l)| count(l)).collect()),
            Err(_) => roots.iter().map(|(_, l)| count(l)).collect(),
        }
    } else {
        roots.iter().map(|(_, l)| count(l)).collect()
    };
    if stop.load(Relaxed) {
        return None;
    }
    Some(roots.into_iter().map(|(t, _)| t).zip(counts).collect())
}

/// Formats divide output exactly as Stockfish's `go perft` does: `<move>: <count>` lines, a
/// blank line, `Nodes searched: <total>`, and a final blank line.
pub fn format_divide(rows: &[(String, u64)]) -> String {
    let mut s = String::new();
    let mut total = 0;
    for (t, n) in rows {
        s.push_str(&format!("{t}: {n}\n"));
        total += n;
    }
    s.push_str(&format!("\nNodes searched: {total}\n\n"));
    s
}
