//! The main search: PVS alpha-beta ([`Searcher::negamax`]) with the TT, mate-distance
//! pruning, reverse futility, razoring, null move, ProbCut, internal iterative reduction,
//! singular extensions (with multi-cut and a negative extension), check extension, SEE,
//! futility (of quiet and tactical plies) and late-move pruning, LMR (by node type, history,
//! cutoff count and TT PV flag, also of losing tactical plies) with deeper or shallower
//! re-searches, and the history and correction-history updates of a finished node. Also the
//! node types ([`NodeType`]) and the LMR table.
//!
//! Generic rule: after `make`, if the side to move changed the child's score is negated
//! (`-search(-beta, -alpha)`), else it is used as is (`search(alpha, beta)`): some variants
//! have plies that keep the side to move. A null move always flips the side.

use arrayvec::ArrayVec;

use crate::variants::{debug_validate, Game, GameMove};

use super::history::{cont_key_of, hist_key, hist_key_of, history_bonus, NO_CONT};
use super::ordering::{NodeOrder, Picker};
use super::params::SearchParams;
use super::score::{from_tt, is_mate, mate_in, mated_in, to_tt, INF, MATE_BOUND};
use super::searcher::{terminal_score, tt_record, Frame, Searcher};
use super::tt::Bound;

/// LMR reductions (plies) by remaining depth and move index, both capped at 63.
pub type LmrTable = [[u8; 64]; 64];

/// The LMR table of `params`: `base + ln(depth) * ln(index) / divisor` plies.
pub fn lmr_table(params: &SearchParams) -> LmrTable {
    let mut t = [[0u8; 64]; 64];
    let base = params.lmr_base_x100 as f64 / 100.0;
    let div = params.lmr_divisor_x100.max(1) as f64 / 100.0;
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (i as f64).ln() / div).clamp(0.0, 63.0) as u8;
        }
    }
    t
}

/// The type of a node in the search tree: what its window and its parent expect of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeType {
    /// On the principal variation: searched with an open window.
    Pv,
    /// A zero-window node expected to fail high (some ply refutes the parent's ply).
    Cut,
    /// A zero-window node expected to fail low (every ply is tried).
    All,
}

impl NodeType {
    /// `Cut` when `cut`, else `All`.
    #[inline(always)]
    pub(super) fn zero_window(cut: bool) -> Self {
        if cut {
            NodeType::Cut
        } else {
            NodeType::All
        }
    }

    /// The same expectation seen from the other side: `Cut` and `All` swap, `Pv` stays.
    #[inline(always)]
    pub(super) fn swapped(self) -> Self {
        match self {
            NodeType::Pv => NodeType::Pv,
            NodeType::Cut => NodeType::All,
            NodeType::All => NodeType::Cut,
        }
    }
}

impl<G: Game> Searcher<'_, G> {
    /// Searches the child just made: negated when the ply flipped the side to move. `node` is
    /// the child's type when the ply hands the turn over; a ply that keeps the turn leaves the
    /// same side to refute or not, so `Cut` and `All` swap.
    #[inline(always)]
    pub(super) fn child(
        &mut self,
        flipped: bool,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        node: NodeType,
    ) -> i32 {
        if flipped {
            -self.negamax(-beta, -alpha, depth, ply, node)
        } else {
            self.negamax(alpha, beta, depth, ply, node.swapped())
        }
    }

    /// PVS alpha-beta: the score of the position at `ply` plies from the root, searched
    /// `depth` plies deep, within the window (`alpha`, `beta`) (centipawns, side to move).
    /// `node`: the node's type (a cut node's late plies are reduced more).
    pub fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        node: NodeType,
    ) -> i32 {
        let pv_node = node == NodeType::Pv;
        let cut_node = node == NodeType::Cut;
        // `searchmoves`: inside the first turn only the allowed plies (a restricted node is
        // searched at least one ply deep, never by quiescence, which would try any capture);
        // the TT's value of the node (all plies) must not cut it.
        let restricted = self.allowed_plies > ply && self.restricted_at(ply);
        if depth <= 0 {
            if !restricted {
                return self.qsearch(alpha, beta, ply, pv_node);
            }
            depth = 1;
        }
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        let root = ply == 0;
        if !root {
            // Mate distance pruning.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let p = self.p;
        let key = self.pos.key();
        let in_check = self.pos.in_check();
        self.cutoffs[ply + 2] = 0;
        if root {
            self.cutoffs[1] = 0;
        }
        // A singular-extension search of this node leaves one ply out: its value is not the
        // node's, so the TT neither cuts it nor keeps it.
        let excluded = self.stack[ply].excluded;
        let excluding = excluded != G::Move::default();
        let mut tt_move = 0;
        let mut tt_eval = None;
        let mut tt_hint = None;
        // The TT's score, depth and bound, for ProbCut and singular extensions.
        let mut tt_seen = None;
        // TT PV: this node is a PV node, or its entry was stored by one.
        let mut tt_pv = pv_node;
        if let Some(e) = self.shared.tt.probe(key) {
            tt_move = e.mv;
            tt_pv |= e.pv;
            tt_eval = e.eval.filter(|_| G::SEARCH.eval_in_key);
            let s = from_tt(e.score, ply);
            tt_seen = Some((s, e.depth, e.bound));
            if p.tt_eval_refine != 0 {
                tt_hint = Some((s, e.bound));
            }
            if !pv_node
                && !restricted
                && !excluding
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                }
            {
                return s;
            }
        }
        // The static evaluation, sharpened by a TT score whose bound points the right way.
        // The corrected evaluation before the TT's sharpening, and the correction key.
        let (mut corrected, mut raw_eval, mut corr_key) = (-INF, -INF, None);
        let static_eval = if in_check {
            -INF
        } else {
            (corrected, raw_eval, corr_key) = self.corrected_eval(tt_eval);
            let e = corrected;
            match tt_hint {
                Some((s, Bound::Lower)) if s > e && !is_mate(s) => s,
                Some((s, Bound::Upper)) if s < e && !is_mate(s) => s,
                Some((s, Bound::Exact)) if !is_mate(s) => s,
                _ => e,
            }
        };

        // Improving: the static evaluation rose since the same side's node two plies up, or
        // four when that one is the other side's (turns of two plies); true when there is
        // neither or that node was in check (never in check).
        let side_u8 = self.pos.side_to_move().index() as u8;
        self.stack[ply].eval = static_eval;
        self.stack[ply].side = side_u8;
        let before = |k: usize| {
            ply.checked_sub(k)
                .and_then(|i| self.stack.get(i))
                .filter(|f| f.side == side_u8)
        };
        let improving = !G::SEARCH.improving
            || (!in_check
                && before(2)
                    .or_else(|| before(4))
                    .is_none_or(|f| f.eval == -INF || static_eval > f.eval));
        // Without the test (SearchProfile::improving), reverse futility keeps its full margin.
        let rfp_improving = G::SEARCH.improving && improving;
        if !pv_node && !in_check {
            // Reverse futility pruning.
            if depth <= p.rfp_max_depth
                && !is_mate(beta)
                && static_eval - p.rfp_margin * (depth - i32::from(rfp_improving)) >= beta
            {
                return static_eval;
            }
            // Razoring: far below alpha near the leaves, a quiescence search that fails low
            // decides the node.
            if p.razor_margin > 0
                && depth <= p.razor_max_depth
                && !restricted
                && !excluding
                && static_eval + p.razor_margin * depth < alpha
            {
                let v = self.qsearch(alpha, alpha + 1, ply, false);
                if self.stopped {
                    return 0;
                }
                if v <= alpha {
                    return v;
                }
            }
            // Null-move pruning (never twice in a row); a null move always flips the side.
            if depth >= p.nmp_min_depth
                && static_eval >= beta
                && !self.stack[ply].null
                && !excluding
                && !is_mate(beta)
                && self.pos.make_null()
            {
                let r = p.nmp_base
                    + depth / p.nmp_divisor.max(1)
                    + ((static_eval - beta) / p.nmp_eval_divisor.max(1)).min(3);
                self.stack[ply + 1] = Frame {
                    mv: G::Move::default(),
                    null: true,
                    cont: NO_CONT,
                    eval: -INF,
                    side: 2,
                    excluded: G::Move::default(),
                };
                let s = -self.negamax(
                    -beta,
                    -beta + 1,
                    depth - 1 - r,
                    ply + 1,
                    NodeType::zero_window(!cut_node),
                );
                self.pos.unmake();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if is_mate(s) { beta } else { s };
                }
            }
        }
        // ProbCut: a tactical ply whose exchange alone reaches well above beta, and that holds
        // there in quiescence and in a search four plies shallower, very likely cuts.
        if !pv_node
            && !in_check
            && !restricted
            && !excluding
            && depth >= p.probcut_min_depth
            && !is_mate(beta)
            && !tt_seen.is_some_and(|(s, d, _)| d >= depth - 3 && s < beta + p.probcut_margin)
        {
            let rbeta = beta + p.probcut_margin;
            let mut picker = self.take_picker();
            picker.generate(&self.pos, true);
            picker.score(
                &self.pos,
                tt_move,
                &self.tables,
                ply,
                self.stack[ply].mv,
                self.conts(ply),
            );
            let side = self.pos.side_to_move();
            while let Some((m, ord)) = picker.pick(&self.pos) {
                if Picker::<G::Move>::is_bad_tactical(ord) {
                    break;
                }
                if !self.pos.see_ge(m, rbeta - static_eval) {
                    continue;
                }
                if G::STAGING.lazy_legality && !self.pos.is_legal(m) {
                    continue;
                }
                let k = cont_key_of(&self.pos, m);
                self.pos.make(m);
                let flipped = self.pos.side_to_move() != side;
                self.stack[ply + 1] = Frame::of(m, k);
                let mut v = self.qchild(flipped, rbeta - 1, rbeta, ply + 1, false);
                if v >= rbeta {
                    v = self.child(
                        flipped,
                        rbeta - 1,
                        rbeta,
                        depth - 4,
                        ply + 1,
                        NodeType::zero_window(!cut_node),
                    );
                }
                self.pos.unmake();
                if self.stopped {
                    self.put_picker(picker);
                    return 0;
                }
                if v >= rbeta {
                    self.put_picker(picker);
                    self.shared.tt.store(
                        key,
                        m.pack(),
                        to_tt(v, ply),
                        depth - 3,
                        Bound::Lower,
                        Some(raw_eval),
                        tt_pv,
                    );
                    return v;
                }
            }
            self.put_picker(picker);
        }
        // Internal iterative reduction: no TT move, so ordering is poor; search shallower.
        if depth >= p.iir_min_depth && tt_move == 0 {
            depth -= 1;
        }

        // Staged: the TT ply first, generated plies only when the search reaches them. A node
        // with no legal ply among those handed out has none (tested after the loop).
        let mut picker = self.take_picker();
        picker.start(tt_move);
        let mut any_legal = false;
        let mut tt_tactical = false;
        let prev = self.stack[ply].mv;
        let conts = self.conts(ply);
        let node = NodeOrder { ply, prev, conts };
        self.tables.clear_killers(ply + 1);

        let side = self.pos.side_to_move();
        let side_ix = side.index();
        let mut best = -INF;
        let mut best_move = G::Move::default();
        let mut raised = false;
        let mut searched = 0usize;
        // Quiet plies searched (for the history malus) and quiet plies considered (for LMP).
        let mut quiets: ArrayVec<G::Move, 64> = ArrayVec::new();
        let mut quiet_count = 0usize;
        let lmp_limit = ((p.lmp_base + depth * depth) / (2 - i32::from(improving))) as usize;
        let futile =
            depth <= p.fp_max_depth && static_eval + p.fp_base + p.fp_per_depth * depth <= alpha;
        let can_prune = !root && !in_check;

        // Lazy SMP: at the root, odd-numbered helpers take the plies in the order of
        // `smp::helper_root_index`: the first, then the rest from the back.
        let split = root && self.id % 2 == 1;
        let mut taken = 0;
        if split {
            self.root_order.clear();
            while let Some(x) = picker.next(&self.pos, &self.tables, &node) {
                self.root_order.push(x);
            }
        }

        loop {
            let next = if split {
                let n = self.root_order.len();
                let i = taken;
                taken += 1;
                (i < n).then(|| self.root_order[super::smp::helper_root_index(i, n)])
            } else {
                picker.next(&self.pos, &self.tables, &node)
            };
            let Some((m, ord)) = next else {
                break;
            };
            if G::STAGING.lazy_legality && !Picker::<G::Move>::is_tt(ord) && !self.pos.is_legal(m) {
                continue;
            }
            any_legal = true;
            if root && !self.excluded.is_empty() && self.excluded.contains(&m) {
                continue;
            }
            if excluding && m == excluded {
                continue;
            }
            if restricted && !self.allowed_next(ply, m) {
                continue;
            }
            let tactical = self.pos.is_tactical(m);
            // The history context and quiet-history key, read before the ply is made.
            let hctx = self.pos.history_context(m);
            let hk = hist_key(m.pack(), hctx);
            // Singular extension: when the TT ply, searched deep enough to fail high or be
            // exact, is the only ply near its score (every other ply fails low against a bar
            // a little under it in a search of half the depth), it is searched a ply deeper.
            // When even the others reach beta, the node cuts (multi-cut); when the TT score
            // alone is above beta, the TT ply is searched a ply shallower instead.
            let mut se_ext = 0;
            if searched == 0 && Picker::<G::Move>::is_tt(ord) {
                tt_tactical = tactical;
                if let Some((tt_score, tt_depth, tt_bound)) = tt_seen {
                    if G::SEARCH.singular_extensions
                        && !root
                        && !excluding
                        && !restricted
                        && depth >= p.se_min_depth
                        && tt_depth >= depth - 3
                        && tt_bound != Bound::Upper
                        && !is_mate(tt_score)
                        && (ply as i32) < 2 * self.root_depth
                    {
                        let sbeta = tt_score - p.se_margin * depth;
                        self.stack[ply].excluded = m;
                        let v = self.negamax(
                            sbeta - 1,
                            sbeta,
                            (depth - 1) / 2,
                            ply,
                            NodeType::zero_window(cut_node),
                        );
                        self.stack[ply].excluded = G::Move::default();
                        if self.stopped {
                            self.put_picker(picker);
                            return 0;
                        }
                        if v < sbeta {
                            se_ext = 1;
                        } else if sbeta >= beta {
                            self.put_picker(picker);
                            return sbeta;
                        } else if tt_score >= beta {
                            se_ext = -1;
                        }
                    }
                }
            }
            // SEE pruning of losing tactical plies near the leaves.
            if can_prune
                && best > -MATE_BOUND
                && tactical
                && depth <= p.see_max_depth
                && Picker::<G::Move>::is_bad_tactical(ord)
                && !self.pos.see_ge(m, -p.see_margin * depth)
            {
                continue;
            }
            // A tactical ply whose exchange cannot lift the evaluation to alpha even with the
            // futility margin (decided after the ply is made, as a checking ply is kept).
            let mut tactical_futile = false;
            if can_prune
                && best > -MATE_BOUND
                && searched > 0
                && tactical
                && p.fp_tactical_margin > 0
                && depth <= p.fp_max_depth
            {
                let need = alpha - static_eval - p.fp_base - p.fp_tactical_margin * depth;
                tactical_futile = need > 0 && !self.pos.see_ge(m, need + 1);
            }
            // The ply's continuation-history key, read before it is made.
            let mk = cont_key_of(&self.pos, m);
            if !tactical {
                quiet_count += 1;
            }
            // Pruned unless it gives check: late move pruning and futility.
            let prunable = tactical_futile
                || (can_prune
                    && best > -MATE_BOUND
                    && searched > 0
                    && !tactical
                    && ((depth <= p.lmp_max_depth && quiet_count > lmp_limit) || futile));
            let hint = if prunable {
                self.pos.gives_check(m)
            } else {
                None
            };
            if hint == Some(false) {
                if cfg!(debug_assertions) {
                    self.pos.make(m);
                    let check = self.pos.in_check();
                    self.pos.unmake();
                    debug_assert!(!check, "Rules::gives_check said no check, yet make checks");
                }
                continue;
            }
            self.pos.make(m);
            debug_validate(&self.pos, "make");
            // Only a ply that is searched fetches its TT bucket: at once when it cannot be
            // pruned, so the fetch overlaps the check test; a prunable one once it checks.
            if !prunable {
                self.shared.tt.prefetch(self.pos.key());
            }
            let flipped = self.pos.side_to_move() != side;
            let gives_check = self.pos.in_check();
            debug_assert!(
                hint.is_none_or(|h| h == gives_check),
                "Rules::gives_check disagrees with in_check after make"
            );
            if prunable && !gives_check {
                self.pos.unmake();
                continue;
            }
            if prunable {
                self.shared.tt.prefetch(self.pos.key());
            }
            let ext = if se_ext != 0 {
                se_ext
            } else {
                p.check_ext * i32::from(gives_check && (ply as i32) < 2 * self.root_depth)
            };
            let new_depth = depth - 1 + ext;
            self.stack[ply + 1] = Frame::of(m, mk);
            let mut score;
            if searched == 0 {
                score = self.child(
                    flipped,
                    alpha,
                    beta,
                    new_depth,
                    ply + 1,
                    if pv_node {
                        NodeType::Pv
                    } else {
                        NodeType::zero_window(!cut_node)
                    },
                );
            } else {
                let mut r = 0;
                let bad_tactical = tactical && Picker::<G::Move>::is_bad_tactical(ord);
                if depth >= p.lmr_min_depth
                    && searched as i32 >= p.lmr_min_index + i32::from(pv_node)
                    && (!tactical || (bad_tactical && p.lmr_tactical != 0))
                {
                    r = self.shared.lmr[(depth as usize).min(63)][searched.min(63)] as i32;
                    r -= i32::from(pv_node);
                    r -= p.lmr_tt_pv * i32::from(tt_pv && !pv_node);
                    r += i32::from(!improving);
                    r -= i32::from(gives_check || in_check);
                    r -= i32::from(Picker::<G::Move>::is_refutation(ord));
                    let h = self.tables.hist.history(side_ix, hk)
                        + self.tables.hist.cont(conts[0], mk)
                        + self.tables.hist.cont(conts[1], mk);
                    r -= h / p.lmr_history_divisor.max(1);
                    r += p.lmr_cut_node * i32::from(cut_node);
                    r += p.lmr_cutoff_count * i32::from(self.cutoffs[ply + 1] > 3);
                    // A tactical TT ply: the quiet plies are less likely to matter.
                    r += p.lmr_tactical * i32::from(tt_tactical && !tactical);
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score = self.child(
                    flipped,
                    alpha,
                    alpha + 1,
                    new_depth - r,
                    ply + 1,
                    NodeType::zero_window(r > 0 || !cut_node),
                );
                if score > alpha && r > 0 {
                    let mut full = new_depth;
                    if p.lmr_deeper_margin > 0 {
                        full += i32::from(score > best + p.lmr_deeper_margin);
                        full -= i32::from(score < best + 8);
                    }
                    if full > new_depth - r {
                        score = self.child(
                            flipped,
                            alpha,
                            alpha + 1,
                            full,
                            ply + 1,
                            NodeType::zero_window(!cut_node),
                        );
                    }
                }
                if pv_node && score > alpha && score < beta {
                    score = self.child(flipped, alpha, beta, new_depth, ply + 1, NodeType::Pv);
                }
            }
            self.pos.unmake();
            debug_validate(&self.pos, "unmake");
            if self.stopped {
                self.put_picker(picker);
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    raised = true;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if root {
                        self.root_best = Some((m, score));
                    }
                    if score >= beta {
                        self.cutoffs[ply] =
                            self.cutoffs[ply].saturating_add(1 + u8::from(tt_move == 0));
                        let bonus = history_bonus(&p, depth);
                        if !tactical {
                            self.tables.record_cutoff(ply, side_ix, m, prev);
                            self.tables
                                .hist
                                .update_history(side_ix, hk, bonus, p.history_max);
                            let k = cont_key_of(&self.pos, m);
                            for c in conts {
                                self.tables.hist.update_cont(c, k, bonus, p.history_max);
                            }
                            for &q in &quiets {
                                let qk = hist_key_of(&self.pos, q);
                                self.tables
                                    .hist
                                    .update_history(side_ix, qk, -bonus, p.history_max);
                                let k = cont_key_of(&self.pos, q);
                                for c in conts {
                                    self.tables.hist.update_cont(c, k, -bonus, p.history_max);
                                }
                            }
                        }
                        break;
                    }
                }
            }
            if !tactical && quiets.len() < quiets.capacity() {
                quiets.push(m);
            }
        }
        self.put_picker(picker);
        if !any_legal {
            return terminal_score(self.pos.no_moves_verdict().terminal, ply);
        }
        if excluding && searched == 0 {
            // The excluded ply was the only one: the TT ply is singular.
            return alpha;
        }
        let (bound, packed) = tt_record(best, beta, raised, best_move);
        // A root search with excluded moves (MultiPV lines 2..) is not the root's true value,
        // nor is a restricted node's below the root (the root keeps its entry for ordering),
        // nor a singular-extension search's.
        let true_value = (!root || self.excluded.is_empty()) && (root || !restricted) && !excluding;
        if true_value {
            self.shared.tt.store(
                key,
                packed,
                to_tt(best, ply),
                depth,
                bound,
                (!in_check).then_some(raw_eval),
                tt_pv,
            );
        }
        // Correction history: a quiet result (no tactical best ply) whose bound says which
        // way the corrected evaluation erred teaches the correction of this structure.
        if let Some(key) = corr_key.filter(|_| true_value && !is_mate(best)) {
            let quiet = !raised || !self.pos.is_tactical(best_move);
            let informative = match bound {
                Bound::Lower => best > corrected,
                Bound::Upper => best < corrected,
                Bound::Exact => true,
            };
            if quiet && informative {
                self.tables
                    .hist
                    .update_correction(side_ix, key, best - raw_eval, depth);
            }
        }
        best
    }
}
