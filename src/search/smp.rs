//! Lazy SMP: [`search_threads`] runs N threads on clones of the root, sharing the TT and a
//! stop flag; helpers perturb their depths ([`helper_skips`]), and odd-numbered helpers their
//! root order ([`helper_root_index`]); the main thread (id 0) enforces the limits and reports,
//! and the threads vote on the move ([`vote`]).

use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc;

use crate::variants::{Game, GameMove};

use super::iterate::{Info, IterLimits, ThreadResult, MAX_DEPTH};
use super::score::{is_mate, INF, MATE_BOUND};
use super::searcher::{MainLimits, Searcher, Shared};
use super::InfoReport;

/// Stack size of each search thread (bytes): move lists live on the stack, one per ply.
pub(crate) const THREAD_STACK: usize = 64 << 20;

/// Searches `root` on `threads` threads sharing `shared` (the main thread under
/// `main_limits`, the helpers until it aborts them), restricted to the root lines `allowed`
/// (`searchmoves`; empty: all), and relays the main thread's `info` lines of the first
/// `multipv` lines to `report` on the calling thread. Returns the outcome the threads voted
/// for, or the main thread's when several lines were asked for or a limited strength keeps
/// them. When no thread can be spawned, the calling thread searches alone.
#[allow(clippy::too_many_arguments)]
pub fn search_threads<G: Game>(
    root: &G,
    shared: &Shared<'_>,
    iter_limits: &IterLimits,
    allowed: &[Vec<G::Move>],
    main_limits: MainLimits,
    threads: usize,
    multipv: usize,
    report: &mut dyn FnMut(&InfoReport<'_, G::Move>),
) -> ThreadResult<G::Move> {
    let fallback_limits = main_limits.clone();
    let (tx, rx) = mpsc::channel::<Info<G::Move>>();

    std::thread::scope(|s| {
        let mut helpers = Vec::with_capacity(threads - 1);
        let main_job = move |tx: mpsc::Sender<Info<G::Move>>| {
            let mut searcher = Searcher::new(root.clone(), 0, shared, Some(main_limits));
            searcher.restrict_root(allowed);
            let out = searcher.iterate(iter_limits, Some(&tx));
            searcher.wait_if_required(iter_limits.infinite);
            shared.abort.store(true, Relaxed);
            out
        };
        for id in 1..threads {
            let pos = root.clone();
            // A helper that cannot be spawned is simply not there.
            if let Ok(h) = std::thread::Builder::new()
                .stack_size(THREAD_STACK)
                .spawn_scoped(s, move || {
                    let mut searcher = Searcher::new(pos, id, shared, None);
                    searcher.restrict_root(allowed);
                    searcher.iterate(iter_limits, None)
                })
            {
                helpers.push(h);
            }
        }
        let main_tx = tx.clone();
        let handle = std::thread::Builder::new()
            .stack_size(THREAD_STACK)
            .spawn_scoped(s, move || main_job(main_tx));
        drop(tx);
        let main_out = match handle {
            Ok(h) => {
                for info in rx.iter().filter(|i| i.multipv <= multipv) {
                    super::relay(root, &info, report);
                }
                h.join().unwrap_or_else(|_| {
                    shared.abort.store(true, Relaxed);
                    ThreadResult {
                        best: None,
                        score: 0,
                        pv: Vec::new(),
                        depth: 0,
                        seldepth: 0,
                        lines: Vec::new(),
                    }
                })
            }
            Err(_) => {
                // No thread could be made: search on this one (its stack is usually enough).
                shared.abort.store(false, Relaxed);
                let (tx, rx) = mpsc::channel();
                let mut searcher = Searcher::new(root.clone(), 0, shared, Some(fallback_limits));
                searcher.restrict_root(allowed);
                let out = searcher.iterate(iter_limits, Some(&tx));
                searcher.wait_if_required(iter_limits.infinite);
                shared.abort.store(true, Relaxed);
                drop(tx);
                for info in rx.iter().filter(|i| i.multipv <= multipv) {
                    super::relay(root, &info, report);
                }
                out
            }
        };
        // The main thread has set `abort`: the helpers stop and hand in their results, and
        // with one line asked for (and full strength), the threads vote on the move.
        let mut outs = Vec::with_capacity(threads);
        outs.push(main_out);
        for h in helpers {
            if let Ok(o) = h.join() {
                outs.push(o);
            }
        }
        let chosen = if iter_limits.multipv == 1 && !iter_limits.keep_lines {
            // A depth-limited search answers with the deepest threads only.
            let min_depth = if iter_limits.max_depth < MAX_DEPTH {
                outs.iter().map(|o| o.depth).max().unwrap_or(0)
            } else {
                0
            };
            vote(&outs, min_depth)
        } else {
            0
        };
        outs.swap_remove(chosen)
    })
}

/// Skip-pattern sizes of the helper threads (thread `i` uses entry `(i - 1) % 20`).
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
/// Skip-pattern phases of the helper threads.
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether helper thread `id` (1 and up) skips the iteration at `depth`: helper `i` works on
/// blocks of `SKIP_SIZE` depths, every other block, shifted by `SKIP_PHASE`, so that helpers
/// are spread over the depths around the main thread's. Helper 1 searches the even depths,
/// helper 2 the odd ones. Depth 1 is never skipped, so every thread has a result, nor is
/// `max_depth`, the last depth of the search, where a helper that skipped would sit idle.
pub fn helper_skips(id: usize, depth: i32, max_depth: i32) -> bool {
    if id == 0 || depth <= 1 || depth >= max_depth {
        return false;
    }
    let i = (id - 1) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0
}

/// The position in the ordered root list of the `taken`-th ply (from 0) an odd-numbered
/// helper thread searches, of `len` plies: the first ply (the TT's, the best of the last
/// iteration), then the others from the last back to the second. The main thread works from
/// the front, so the two threads refute different root plies and each finds the other's
/// results in the TT where they meet, instead of both searching every ply in step. Only the
/// root plies are taken in this order (docs/experiments.md, "Measurements moved out of the
/// code", has the timings). `taken < len`.
pub fn helper_root_index(taken: usize, len: usize) -> usize {
    debug_assert!(taken < len);
    if taken == 0 {
        0
    } else {
        len - taken
    }
}

/// Picks the result of a Lazy SMP search among the threads' outcomes (`outs[0]` is the main
/// thread's): each thread votes for its best move with weight `(score - lowest score + 14) *
/// depth`, and the thread whose move has the most votes wins; a proven win beats any vote, and
/// between proven results the better score wins. Threads without a result do not vote. Returns
/// the index of the chosen outcome (0 when only the main thread has a result). Outcomes
/// shallower than `min_depth` do not vote (a depth-limited search answers at its depth).
pub fn vote<M: Copy + PartialEq>(outs: &[ThreadResult<M>], min_depth: u32) -> usize {
    let valid = |o: &ThreadResult<M>| {
        o.best.is_some() && o.depth > 0 && o.depth >= min_depth && o.score.abs() < INF
    };
    let Some(min) = outs.iter().filter(|o| valid(o)).map(|o| o.score).min() else {
        return 0;
    };
    let weight = |o: &ThreadResult<M>| i64::from(o.score - min + 14) * i64::from(o.depth);
    let votes = |m: Option<M>| -> i64 {
        outs.iter()
            .filter(|o| valid(o) && o.best == m)
            .map(weight)
            .sum()
    };
    let mut best = if valid(&outs[0]) {
        0
    } else {
        match outs.iter().position(valid) {
            Some(i) => i,
            None => return 0,
        }
    };
    for (i, o) in outs.iter().enumerate() {
        if i == best || !valid(o) {
            continue;
        }
        let b = &outs[best];
        if is_mate(b.score) {
            // A proven result: only a better one replaces it.
            if o.score > b.score {
                best = i;
            }
        } else if o.score >= MATE_BOUND || (!is_mate(o.score) && votes(o.best) > votes(b.best)) {
            best = i;
        }
    }
    best
}

/// Builds the main thread's limits.
pub fn main_limits(
    time: super::time::TimeManager,
    nodes: Option<u64>,
    pondering: bool,
) -> MainLimits {
    MainLimits {
        time,
        nodes,
        pondering,
    }
}

/// Picks the first legal move when nothing was searched.
pub fn fallback<M: GameMove>(moves: &[M]) -> Option<M> {
    moves.first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn helper_root_order_is_first_then_from_the_back() {
        assert_eq!(helper_root_index(0, 1), 0);
        let order: Vec<usize> = (0..5).map(|i| helper_root_index(i, 5)).collect();
        assert_eq!(order, [0, 4, 3, 2, 1]);
        for len in 1..40 {
            let mut seen: Vec<usize> = (0..len).map(|i| helper_root_index(i, len)).collect();
            seen.sort_unstable();
            assert_eq!(
                seen,
                (0..len).collect::<Vec<_>>(),
                "a permutation of {len} plies"
            );
        }
    }

    fn out(best: u32, score: i32, depth: u32) -> ThreadResult<u32> {
        ThreadResult {
            best: Some(best),
            score,
            pv: vec![best],
            depth,
            seldepth: depth,
            lines: Vec::new(),
        }
    }

    #[test]
    fn helper_skip_patterns() {
        // Helper 1 searches the even depths, helper 2 the odd ones; depth 1 always.
        let h1: Vec<i32> = (1..=8)
            .filter(|&d| !helper_skips(1, d, MAX_DEPTH))
            .collect();
        assert_eq!(h1, [1, 2, 4, 6, 8]);
        let h2: Vec<i32> = (1..=8)
            .filter(|&d| !helper_skips(2, d, MAX_DEPTH))
            .collect();
        assert_eq!(h2, [1, 3, 5, 7]);
        assert!((1..=8).all(|d| !helper_skips(0, d, MAX_DEPTH)));
        // The last depth of a depth-limited search is searched by every helper.
        assert!(!helper_skips(1, 5, 5) && helper_skips(1, 5, 6));
        assert!(!helper_skips(2, 8, 8) && helper_skips(2, 8, 9));
    }

    #[test]
    fn vote_prefers_agreement_and_depth() {
        // Alone, the main thread's result stands.
        assert_eq!(vote(&[out(1, 10, 8)], 0), 0);
        // Two helpers agree on move 2 against the main thread's move 1.
        assert_eq!(vote(&[out(1, 10, 8), out(2, 10, 8), out(2, 10, 8)], 0), 1);
        // A deeper thread outweighs a shallower one at the same score.
        assert_eq!(vote(&[out(1, 10, 8), out(2, 10, 10)], 0), 1);
        assert_eq!(vote(&[out(1, 10, 10), out(2, 10, 8)], 0), 0);
        // A thread without a result does not vote.
        let mut none = out(2, 500, 20);
        none.best = None;
        assert_eq!(vote(&[out(1, 10, 8), none], 0), 0);
        // A proven win beats the votes; a proven result is only replaced by a better one.
        assert_eq!(vote(&[out(1, 50, 12), out(2, MATE - 5, 6)], 0), 1);
        assert_eq!(vote(&[out(1, MATE - 5, 6), out(2, MATE - 9, 12)], 0), 0);
        // A depth-limited search answers with a thread that reached the depth.
        assert_eq!(vote(&[out(1, 90, 5), out(2, 10, 6)], 6), 1);
        // With no result at all, the main thread's (empty) outcome is returned.
        let mut empty = out(1, -INF, 0);
        empty.best = None;
        assert_eq!(vote(&[empty], 0), 0);
    }
}
