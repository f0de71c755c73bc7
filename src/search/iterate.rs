//! Iterative deepening ([`Searcher::iterate`]) with aspiration windows: the iterations of one
//! thread, MultiPV lines, the main thread's `info` lines ([`Info`]) and its decision to start
//! no further iteration (mate found, time management of [`super::time`]), and each thread's
//! outcome ([`ThreadResult`]).

use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc::Sender;
use std::time::Duration;

use crate::variants::Game;

use super::negamax::NodeType;
use super::score::{is_mate, INF, MATE, MAX_PLY};
use super::searcher::Searcher;

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
            } else if super::smp::helper_skips(self.id, depth, lim.max_depth) {
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
