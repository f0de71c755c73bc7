//! Iterative deepening with aspiration windows, and Lazy SMP: N threads search clones of the
//! root sharing the TT and a stop flag; helpers perturb their depths, and odd-numbered
//! helpers their root order ([`helper_root_index`]); the main thread (id 0)
//! enforces the limits, decides the best move and reports.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc::Sender;
use std::time::Duration;

use crate::variants::{Game, GameMove};

use super::alphabeta::{MainLimits, NodeType, Searcher};
use super::score::{is_mate, INF, MATE, MATE_BOUND, MAX_PLY};

/// Deepest iteration (plies); leaves room below [`MAX_PLY`] for extensions and quiescence.
pub const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;

/// An `info` line from the main search thread, sent to the calling thread.
pub struct Info<M> {
    /// Completed depth (plies).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based MultiPV line.
    pub multipv: usize,
    /// Internal score (centipawns or mate bookkeeping of [`super::score`]).
    pub score: i32,
    /// `Some(true)`: lower bound; `Some(false)`: upper bound; `None`: exact.
    pub bound: Option<bool>,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Nodes of all threads when the line was made.
    pub nodes: u64,
    /// Milliseconds since the search started, when the line was made.
    pub time_ms: u64,
    /// TT fill in permille, when the line was made.
    pub hashfull: u32,
}

/// The outcome of one thread's iterative deepening.
pub struct ThreadResult<M> {
    /// Best move of the deepest completed iteration (or of a partial one, see `search`).
    pub best: Option<M>,
    /// Its score (internal).
    pub score: i32,
    /// Its principal variation.
    pub pv: Vec<M>,
    /// Deepest completed iteration (plies).
    pub depth: u32,
    /// Deepest ply reached by the iteration that gave `best`.
    pub seldepth: u32,
    /// The root lines (score, PV) of the last completed iteration, best first, when
    /// [`IterLimits::keep_lines`] asked for them (empty otherwise).
    pub lines: Vec<(i32, Vec<M>)>,
}

/// What the main thread must respect besides the clock.
pub struct IterLimits {
    /// Last iteration depth (plies).
    pub max_depth: i32,
    /// Stop once a mate in at most this many moves (single-ply turns) is found.
    pub mate: Option<u32>,
    /// Lines to search and report (MultiPV), at least 1.
    pub multipv: usize,
    /// Legal root plies (1: no need to think long).
    pub root_moves: usize,
    /// Infinite search: never return before `stop`.
    pub infinite: bool,
    /// Keep the lines of the last completed iteration in [`ThreadResult::lines`] (a limited
    /// strength chooses among them).
    pub keep_lines: bool,
}

impl<G: Game> Searcher<'_, G> {
    /// Iterative deepening on this thread until the limits (main) or the abort flag (helpers).
    pub fn iterate(
        &mut self,
        lim: &IterLimits,
        tx: Option<&Sender<Info<G::Move>>>,
    ) -> ThreadResult<G::Move> {
        let mut out = ThreadResult {
            best: None,
            score: -INF,
            pv: Vec::new(),
            depth: 0,
            seldepth: 0,
            lines: Vec::new(),
        };
        let mut stable = 0u64;
        // The score of the iteration before the last completed one (time management).
        let mut prev_score = None;
        let mut depth = 0;
        while depth < lim.max_depth {
            depth += 1;
            // Helpers skip some depths, each on its own pattern, so that the threads spread
            // over several depths instead of searching the same tree in step. The last depth
            // of a depth-limited search is never skipped: a helper would sit idle.
            let d = if self.id == 0 {
                depth
            } else if helper_skips(self.id, depth, lim.max_depth) {
                continue;
            } else {
                depth
            };
            self.root_depth = d;
            self.seldepth = 0;
            let lines = if self.id == 0 {
                lim.multipv.clamp(1, lim.root_moves.max(1))
            } else {
                1
            };
            self.excluded.clear();
            let mut completed = true;
            // Completed lines of this iteration: (score, pv).
            let mut found: Vec<(i32, Vec<G::Move>)> = Vec::with_capacity(lines);
            for line in 0..lines {
                self.root_best = None;
                let prev = if line == 0 && out.depth > 0 {
                    Some(out.score)
                } else {
                    None
                };
                let score = self.aspiration(d, prev);
                if self.stopped {
                    if line == 0 {
                        // A partial iteration's best root move is kept when it beat the last
                        // one's score (it was fully searched and raised alpha).
                        if let Some((m, s)) = self.root_best {
                            if out.best.is_none()
                                || (self.id == 0 && s > out.score && Some(m) != out.best)
                            {
                                out.best = Some(m);
                                out.score = s;
                                out.pv = vec![m];
                                out.seldepth = self.seldepth as u32;
                            }
                        }
                    }
                    completed = false;
                    break;
                }
                let mut pv = self.root_pv().to_vec();
                if self.id == 0 && pv.len() < 4 {
                    self.extend_pv(&mut pv, 4);
                }
                let Some(&first) = pv.first() else { break };
                self.excluded.push(first);
                found.push((score, pv));
            }
            self.excluded.clear();
            if !found.is_empty() {
                // Window-dependent pruning can make a later line score higher: lines are
                // ranked by score (stable), and the first is the iteration's result.
                found.sort_by_key(|l| std::cmp::Reverse(l.0));
                let (score, pv) = &found[0];
                let best = pv.first().copied();
                if best.is_some() && best == out.best {
                    stable += 1;
                } else {
                    stable = 0;
                }
                out.best = best.or(out.best);
                prev_score = (out.depth > 0).then_some(out.score);
                out.score = *score;
                out.depth = d as u32;
                out.seldepth = self.seldepth as u32;
                out.pv = pv.clone();
                if self.id == 0 && lim.keep_lines {
                    out.lines = found.clone();
                }
                if self.id == 0 {
                    self.publish_nodes();
                    if let Some(tx) = tx {
                        // The figures of this moment: the receiver may read the line later.
                        let (nodes, time_ms) = self.progress();
                        let hashfull = self.shared_tt().hashfull();
                        for (i, (score, pv)) in found.into_iter().enumerate() {
                            let _ = tx.send(Info {
                                depth: d as u32,
                                seldepth: self.seldepth as u32,
                                multipv: i + 1,
                                score,
                                bound: None,
                                pv,
                                nodes,
                                time_ms,
                                hashfull,
                            });
                        }
                    }
                }
            }
            if !completed {
                break;
            }
            if self.id != 0 && d >= lim.max_depth && lim.max_depth < MAX_DEPTH && !lim.keep_lines {
                // A helper finished the last depth of a depth-limited search: its result
                // is as deep as the main thread's would be, so every thread may stop (not at a
                // limited strength, which chooses among the main thread's lines).
                self.shared_finished().store(true, Relaxed);
                break;
            }
            if self.id == 0 && self.main_done(lim, &out, stable, prev_score) {
                break;
            }
        }
        self.publish_nodes();
        out
    }

    /// One root search to depth `d` (plies), in an aspiration window around `prev` (the last
    /// iteration's score) when there is one; widened until the score falls inside.
    fn aspiration(&mut self, d: i32, prev: Option<i32>) -> i32 {
        let (mut alpha, mut beta, mut delta) = (-INF, INF, self.p.aspiration_delta.max(1));
        if let Some(prev) = prev.filter(|&s| d >= self.p.aspiration_min_depth && !is_mate(s)) {
            alpha = (prev - delta).max(-INF);
            beta = (prev + delta).min(INF);
        }
        loop {
            let s = self.negamax(alpha, beta, d, 0, NodeType::Pv);
            if self.stopped {
                return s;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INF);
            } else if s >= beta {
                beta = (s + delta).min(INF);
            } else {
                return s;
            }
            delta += delta;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Whether the main thread should start no further iteration.
    fn main_done(
        &mut self,
        lim: &IterLimits,
        out: &ThreadResult<G::Move>,
        stable: u64,
        prev_score: Option<i32>,
    ) -> bool {
        self.poll();
        if self.stopped {
            return true;
        }
        let plies_to_mate = (MATE - out.score.abs()) as u32;
        if let Some(n) = lim.mate {
            if out.score > 0 && is_mate(out.score) && plies_to_mate.div_ceil(2) <= n {
                return true;
            }
        }
        let Some(main) = self.main.as_ref() else {
            return false;
        };
        if main.pondering || lim.infinite || !main.time.is_timed() {
            return false;
        }
        if lim.root_moves == 1 {
            return true;
        }
        if is_mate(out.score) && out.depth >= plies_to_mate + 6 {
            return true;
        }
        let scale = super::time::think_scale(&self.p, stable, prev_score, out.score);
        main.time.soft_expired(scale)
    }

    /// Main thread, after its last iteration: an infinite or still-pondering search waits for
    /// `stop` (or `ponderhit` when pondering) before returning.
    pub fn wait_if_required(&mut self, infinite: bool) {
        let control = self.shared_control();
        loop {
            if control.stop.load(Relaxed) {
                return;
            }
            let pondering = control.pondering.load(Relaxed);
            let ponder_wait = self.main.as_ref().is_some_and(|m| m.pondering) && pondering;
            if !infinite && !ponder_wait {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
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
/// results in the TT where they meet, instead of both searching every ply in step. Issue 17,
/// `scripts/smp_ttd.sh` (Threads 2 time over Threads 1 time to the bench depth): chess 0.654
/// against 0.676 in the main thread's order, Mystic 0.91 against 1.04, Mitosis 0.77 against
/// 0.90; no change in Elo at equal time (-3.0 [-21.5, +15.4], 800 chess games). Only the
/// root: the same order at every PV node reached the depth a little sooner but lost 32 Elo.
/// `taken < len`.
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
