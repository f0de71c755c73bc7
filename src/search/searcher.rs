//! One search thread's state ([`Searcher`]) and its housekeeping: what the threads share
//! ([`Shared`]), the per-ply frames, the clock and node-limit polling, the `searchmoves`
//! restriction of the root, the principal variation, the corrected static evaluation, and the
//! hand-back of the learned histories when the thread ends. The search itself is in
//! [`super::negamax`] (main search) and [`super::quiescence`]; the iterations in
//! [`super::iterate`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use crate::core::MoveBuffer;
use crate::variants::{Game, GameMove, PlyList, Scope, Terminal};

use super::history::{Histories, NO_CONT};
use super::negamax::LmrTable;
use super::ordering::{OrderTables, Picker};
use super::params::SearchParams;
use super::score::{mate_in, mated_in, EVAL_LIMIT, INF, MAX_PLY};
use super::time::TimeManager;
use super::tt::{Bound, Tt};
use super::SearchControl;

/// A node counter on its own cache line.
#[derive(Default)]
#[repr(align(64))]
pub struct Counter(pub AtomicU64);

/// What all threads of one search share.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a Tt,
    /// The protocol's stop / ponder flags.
    pub control: &'a SearchControl,
    /// Set by the main thread when every thread must stop.
    pub abort: AtomicBool,
    /// Set by a helper thread that completed the last iteration of a depth-limited search:
    /// the main thread then stops too.
    pub finished: AtomicBool,
    /// Nodes searched, one counter per thread (published every 1024 nodes and at the end).
    pub nodes: Vec<Counter>,
    /// The tunables of this search.
    pub params: SearchParams,
    /// LMR reductions derived from `params`.
    pub lmr: LmrTable,
    /// When the search started on `control.clock` (the `time` of `info` lines counts from
    /// here), in the clock's milliseconds.
    pub start: u64,
}

impl Shared<'_> {
    /// Total nodes published by all threads.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Relaxed)).sum()
    }
}

/// Per-ply search state.
#[derive(Copy, Clone)]
pub(super) struct Frame<M> {
    /// The ply that led to this node (`M::default()` for the root or a null move).
    pub(super) mv: M,
    /// Whether this node was reached by a null move.
    pub(super) null: bool,
    /// The continuation-history key of `mv` ([`NO_CONT`] for the root or a null move).
    pub(super) cont: u16,
    /// The node's static evaluation (centipawns, side to move; `-INF` in check or not yet
    /// evaluated) and the side it is for, for the "improving" test two plies later.
    pub(super) eval: i32,
    /// The side to move at the node (0 White, 1 Black).
    pub(super) side: u8,
    /// The ply left out of this node's search (`M::default()`: none): set while a singular
    /// extension tests whether the TT ply is the only good one.
    pub(super) excluded: M,
}

impl<M: GameMove> Frame<M> {
    /// The frame of a node reached by the ply `m` (`cont`: its continuation-history key, read
    /// before it was made).
    #[inline(always)]
    pub(super) fn of(m: M, cont: u16) -> Self {
        Frame {
            mv: m,
            null: false,
            cont,
            eval: -INF,
            side: 2,
            excluded: M::default(),
        }
    }
}

/// Limits only the main thread enforces.
#[derive(Clone, Debug)]
pub struct MainLimits {
    /// The clock.
    pub time: TimeManager,
    /// Stop when all threads together searched this many nodes.
    pub nodes: Option<u64>,
    /// Whether the search started in ponder mode and `ponderhit` has not been seen yet.
    pub pondering: bool,
}

/// One search thread's state over the iterations of a search.
pub struct Searcher<'a, G: Game> {
    /// The thread's own copy of the root position (made/unmade in place).
    pub pos: G,
    /// Thread index (0 = main).
    pub id: usize,
    /// What the threads of this search share.
    pub(super) shared: &'a Shared<'a>,
    /// The tunables (a copy, for locality).
    pub p: SearchParams,
    /// The learned histories, killers and countermoves.
    pub(super) tables: OrderTables<G::Move>,
    /// The principal variation found below each ply (triangular table).
    pv: Vec<[G::Move; MAX_PLY + 1]>,
    /// Pickers not in use, for the nodes to take ([`Searcher::take_picker`]) rather than hold
    /// one in their stack frame: a variant's move list may be large (112 KiB for Mutatis Mutandis
    /// Mutandis), and a frame that large is probed page by page at every node.
    spare_pickers: Vec<Box<Picker<G::Move>>>,
    /// The length of each ply's row of `pv`.
    pub(super) pv_len: [usize; MAX_PLY + 2],
    /// The frame of each ply of the current line.
    pub(super) stack: [Frame<G::Move>; MAX_PLY + 2],
    /// Beta cutoffs counted at each ply since the node two plies up began (a cutoff without a
    /// TT move counts twice; saturating): many at the children's ply mark a node whose
    /// replies refute easily, where late plies are reduced more (`lmr_cutoff_count`).
    pub(super) cutoffs: [u8; MAX_PLY + 3],
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// Depth of the current iteration (plies).
    pub root_depth: i32,
    /// Set once this thread must unwind.
    pub stopped: bool,
    /// The main thread's limits (`None` for helpers).
    pub main: Option<MainLimits>,
    /// Nodes of the other threads, as last published (main thread).
    others_nodes: u64,
    /// Root plies skipped by this root search (MultiPV lines already found).
    pub excluded: Vec<G::Move>,
    /// Odd-numbered helpers: the ordered root plies with their ordering scores, taken in the
    /// order of [`super::smp::helper_root_index`] (refilled by each root search of the
    /// iterations, so it allocates only the first time).
    pub(super) root_order: Vec<(G::Move, i32)>,
    /// Best root move of the running iteration so far, and its score.
    pub root_best: Option<(G::Move, i32)>,
    /// The root turns this search may play (`searchmoves`), as lines of plies; empty: all.
    allowed: Vec<Vec<G::Move>>,
    /// The longest line of `allowed` (plies); nodes this deep or deeper are never restricted.
    pub(super) allowed_plies: usize,
}

/// The score of a position decided by the rules at `ply` plies from the root (side to move).
#[inline]
pub(super) fn terminal_score(t: Terminal, ply: usize) -> i32 {
    match t {
        Terminal::Win => mate_in(ply),
        Terminal::Loss => mated_in(ply),
        Terminal::Draw => 0,
    }
}

impl<'a, G: Game> Searcher<'a, G> {
    /// A searcher for thread `id` on a copy of `root`.
    pub fn new(root: G, id: usize, shared: &'a Shared<'a>, main: Option<MainLimits>) -> Self {
        let kept = shared
            .tt
            .histories
            .take_buffers::<Buffers<G::Move>>(id)
            .map_or_else(Buffers::new, |b| *b);
        Searcher {
            p: shared.params,
            pos: root,
            id,
            shared,
            tables: OrderTables::with_buffers(shared.tt.histories.take(id), kept.counter),
            pv: kept.pv,
            spare_pickers: kept.pickers,
            pv_len: [0; MAX_PLY + 2],
            stack: [Frame {
                mv: G::Move::default(),
                null: false,
                cont: NO_CONT,
                eval: -INF,
                side: 2,
                excluded: G::Move::default(),
            }; MAX_PLY + 2],
            cutoffs: [0; MAX_PLY + 3],
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            stopped: false,
            main,
            others_nodes: 0,
            root_best: None,
            excluded: Vec::with_capacity(crate::core::MAX_MOVES),
            root_order: Vec::new(),
            allowed: Vec::new(),
            allowed_plies: 0,
        }
    }

    /// A picker in the state of [`Picker::new`]: a spare one reset, or a new one. The node
    /// hands it back with [`Searcher::put_picker`] when its loop is done (one not handed
    /// back, on an early return, is only dropped).
    #[inline]
    pub(super) fn take_picker(&mut self) -> Box<Picker<G::Move>> {
        match self.spare_pickers.pop() {
            Some(mut picker) => {
                picker.reset();
                picker
            }
            None => new_picker(),
        }
    }

    /// Hands a picker taken with [`Searcher::take_picker`] back to the spares.
    #[inline]
    pub(super) fn put_picker(&mut self, picker: Box<Picker<G::Move>>) {
        self.spare_pickers.push(picker);
    }

    /// Restricts the search to the root turns `lines` (`searchmoves`): each a line of plies
    /// from the root, a whole turn or its first portions (then every completion of it is
    /// allowed). Inside the first turn a node on the way of some line only searches the plies
    /// that stay on a line. Empty: no restriction.
    pub fn restrict_root(&mut self, lines: &[Vec<G::Move>]) {
        self.allowed = lines.iter().filter(|l| !l.is_empty()).cloned().collect();
        self.allowed_plies = self.allowed.iter().map(Vec::len).max().unwrap_or(0);
    }

    /// Whether the node at `ply` lies strictly inside some allowed line (its plies from the root
    /// are a proper prefix of the line): then only the plies of the lines may follow.
    pub(super) fn restricted_at(&self, ply: usize) -> bool {
        ply < self.allowed_plies && self.allowed.iter().any(|l| self.on_line(l, ply))
    }

    /// Whether the plies from the root to the node at `ply` are the first plies of `line` and
    /// `line` goes on beyond them.
    fn on_line(&self, line: &[G::Move], ply: usize) -> bool {
        line.len() > ply
            && (1..=ply).all(|i| !self.stack[i].null && self.stack[i].mv == line[i - 1])
    }

    /// At a restricted node at `ply`: whether `m` continues one of the allowed lines.
    pub(super) fn allowed_next(&self, ply: usize, m: G::Move) -> bool {
        self.allowed
            .iter()
            .any(|l| self.on_line(l, ply) && l[ply] == m)
    }

    /// Whether `m` may follow `path` (plies from the root): true past the first turn, or when
    /// `path` plus `m` still follows an allowed line.
    fn allowed_after(&self, path: &[G::Move], m: G::Move) -> bool {
        let n = path.len();
        let mut inside = self
            .allowed
            .iter()
            .filter(|l| l.len() > n && l[..n] == *path)
            .peekable();
        inside.peek().is_none() || inside.any(|l| l[n] == m)
    }

    /// The protocol's flags.
    pub fn shared_control(&self) -> &'a SearchControl {
        self.shared.control
    }

    /// The principal variation of the last root search.
    pub fn root_pv(&self) -> &[G::Move] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// The flag a helper sets when it completed the last iteration of a depth-limited search.
    pub fn shared_finished(&self) -> &'a AtomicBool {
        &self.shared.finished
    }

    /// The TT of this search.
    pub fn shared_tt(&self) -> &'a Tt {
        self.shared.tt
    }

    /// Nodes of all threads (as published; this thread's exact) and milliseconds since the
    /// search started.
    pub fn progress(&self) -> (u64, u64) {
        self.publish_nodes();
        let time_ms = self
            .shared
            .control
            .clock
            .now_ms()
            .saturating_sub(self.shared.start);
        (self.shared.total_nodes(), time_ms)
    }

    /// Publishes this thread's node count to the shared counters.
    pub fn publish_nodes(&self) {
        self.shared.nodes[self.id].0.store(self.nodes, Relaxed);
    }

    /// Polls the clock and flags (main thread, every 1024 nodes); sets `stopped` and the shared
    /// abort flag when the search must end.
    pub fn poll(&mut self) {
        self.publish_nodes();
        let shared = self.shared;
        let Some(main) = self.main.as_mut() else {
            if shared.abort.load(Relaxed) {
                self.stopped = true;
            }
            return;
        };
        if main.pondering && !shared.control.pondering.load(Relaxed) {
            main.pondering = false;
            main.time.restart();
        }
        let mut stop = shared.control.stop.load(Relaxed);
        if !main.pondering && (main.time.hard_expired() || shared.finished.load(Relaxed)) {
            stop = true;
        }
        if shared.nodes.len() > 1 {
            self.others_nodes = shared.total_nodes() - self.nodes;
        }
        if stop {
            self.stopped = true;
            shared.abort.store(true, Relaxed);
        }
    }

    /// The start of every node at `ply`, in the main search and in quiescence: clears the
    /// node's principal variation, counts the node, polls the limits and records the selective
    /// depth. Returns the node's score when it ends here: 0 when the search stops (a node limit
    /// is exact: a stopped search unwinds without counting more nodes), the terminal score
    /// (centipawns, mate scores by ply) when the game is over by rule below the root, or the
    /// static evaluation at [`MAX_PLY`].
    #[inline(always)]
    pub(super) fn enter_node(&mut self, ply: usize) -> Option<i32> {
        self.pv_len[ply] = 0;
        if self.stopped {
            return Some(0);
        }
        self.nodes += 1;
        if self.check_stop() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 {
            if let Some(v) = self.pos.verdict(Scope::Search(ply)) {
                return Some(terminal_score(v.terminal, ply));
            }
            if ply >= MAX_PLY {
                return Some(self.eval());
            }
        }
        None
    }

    /// Counts the node against the limits: polls the clock and flags (main thread) or
    /// publishes the node count (helpers) now and then; whether this thread must unwind.
    #[inline(always)]
    pub(super) fn check_stop(&mut self) -> bool {
        if self.main.is_some() {
            if self.nodes & 255 == 0 {
                self.poll();
            }
            if let Some(limit) = self.main.as_ref().and_then(|m| m.nodes) {
                if self.nodes + self.others_nodes >= limit {
                    self.stopped = true;
                    self.shared.abort.store(true, Relaxed);
                }
            }
        } else {
            if self.nodes & 1023 == 0 {
                self.publish_nodes();
            }
            if self.shared.abort.load(Relaxed) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The static evaluation, within the evaluation bounds (centipawns, side to move).
    #[inline]
    pub(super) fn eval(&self) -> i32 {
        self.pos.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The static evaluation plus the correction history's correction for this position, the
    /// evaluation itself, and the correction key when the game has one (centipawns, side to
    /// move). `cached`: the evaluation the TT kept for this position, used instead of
    /// evaluating again (the same value: the evaluation is a function of the position).
    #[inline(always)]
    pub(super) fn corrected_eval(&self, cached: Option<i32>) -> (i32, i32, Option<u64>) {
        let raw = match cached {
            Some(e) => {
                debug_assert_eq!(e, self.eval(), "TT evaluation of {}", self.pos.fen());
                e
            }
            None => self.eval(),
        };
        match self.pos.correction_key() {
            Some(key) => {
                let side = self.pos.side_to_move().index();
                let c = self.tables.hist.correction(side, key);
                ((raw + c).clamp(-EVAL_LIMIT, EVAL_LIMIT), raw, Some(key))
            }
            None => (raw, raw, None),
        }
    }

    /// The continuation-history keys of the plies one, two and four before the node at `ply`
    /// (the last two, in chess, are the same side's plies one and two turns back).
    #[inline(always)]
    pub(super) fn conts(&self, ply: usize) -> [u16; 3] {
        let back = |k: usize| ply.checked_sub(k).map_or(NO_CONT, |i| self.stack[i].cont);
        [self.stack[ply].cont, back(1), back(3)]
    }

    /// Makes `m` followed by the child's line the principal variation of `ply`.
    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, m: G::Move) {
        let child_len = self.pv_len[ply + 1].min(MAX_PLY);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = m;
        row[1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Lengthens a short `pv` (of the root) from TT moves, up to `max_len` plies: each TT move
    /// is checked against the legal plies and the walk stops at a decided or drawn position.
    /// Not in the hot path (once per iteration).
    pub fn extend_pv(&mut self, pv: &mut Vec<G::Move>, max_len: usize) {
        let mut made = 0;
        for &m in pv.iter() {
            self.pos.make(m);
            made += 1;
        }
        let mut list = PlyList::<G::Move>::default();
        while pv.len() < max_len.min(MAX_PLY) {
            // The root is not decided (the search does not start otherwise).
            if made > 0 && self.pos.verdict(Scope::Search(made)).is_some() {
                break;
            }
            let Some(e) = self.shared.tt.probe(self.pos.key()) else {
                break;
            };
            if e.mv == 0 {
                break;
            }
            list.clear();
            self.pos.legal_moves(&mut list);
            let Some(&m) = list.iter().find(|m| m.pack() == e.mv) else {
                break;
            };
            if !self.allowed_after(pv, m) {
                break;
            }
            self.pos.make(m);
            made += 1;
            pv.push(m);
        }
        for _ in 0..made {
            self.pos.unmake();
        }
    }

    /// Halves the history between searches of the same thread (unused by fresh searchers).
    pub fn age_tables(&mut self) {
        self.tables.hist.age();
    }
}

impl<G: Game> Drop for Searcher<'_, G> {
    /// Hands the thread's learned histories and its buffers back to the TT's store for its
    /// next search.
    fn drop(&mut self) {
        let store = &self.shared.tt.histories;
        let hist = std::mem::replace(&mut self.tables.hist, Box::new(Histories::placeholder()));
        store.put(self.id, hist);
        let kept = Buffers {
            pv: std::mem::take(&mut self.pv),
            counter: self.tables.take_counter(),
            pickers: std::mem::take(&mut self.spare_pickers),
        };
        store.put_buffers(self.id, Box::new(kept));
    }
}

/// A search thread's buffers kept between its searches in the TT's
/// [`HistoryStore`](super::history::HistoryStore): written in full when new (about 1.1 MiB
/// for Mutatis Mutandis's turns), their fresh pages cost each search the faults and the
/// writes; kept, a search reuses them warm.
struct Buffers<M: GameMove> {
    /// The triangular PV table (its rows are read only up to lengths set in the search, so
    /// what an earlier search left needs no clearing).
    pv: Vec<[M; MAX_PLY + 1]>,
    /// The countermove table (cleared by [`OrderTables::with_buffers`]).
    counter: Vec<M>,
    /// The spare pickers ([`Searcher::take_picker`]).
    pickers: Vec<Box<Picker<M>>>,
}

impl<M: GameMove> Buffers<M> {
    fn new() -> Self {
        Buffers {
            pv: vec![[M::default(); MAX_PLY + 1]; MAX_PLY + 2],
            counter: Vec::new(),
            // A node takes one picker, ProbCut's and a singular search's one more: the
            // deepest line's worth does not grow the list later.
            pickers: Vec::with_capacity(2 * (MAX_PLY + 2)),
        }
    }
}

/// A new picker on the heap, out of line: built in this frame first, it makes the frame as
/// large as the picker, which only this rare call should pay.
#[cold]
#[inline(never)]
fn new_picker<M: GameMove>() -> Box<Picker<M>> {
    Box::new(Picker::new())
}

/// The TT bound of a finished node (`Lower` after a beta cutoff, `Exact` when alpha was
/// raised, else `Upper`) and its best move packed for the TT (0 when there is none).
#[inline(always)]
pub(super) fn tt_record<M: GameMove>(
    best: i32,
    beta: i32,
    raised: bool,
    best_move: M,
) -> (Bound, u32) {
    let bound = if best >= beta {
        Bound::Lower
    } else if raised {
        Bound::Exact
    } else {
        Bound::Upper
    };
    let packed = if best_move == M::default() {
        0
    } else {
        best_move.pack()
    };
    (bound, packed)
}
