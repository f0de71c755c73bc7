//! The quiescence search ([`Searcher::qsearch`]): stand pat on the corrected static
//! evaluation, then the tactical plies that do not lose their exchange, with delta pruning; in
//! check, every legal ply (a game may bound the quiet evasions) and no stand pat.

use crate::variants::Game;

use super::history::cont_key_of;
use super::ordering::Picker;
use super::score::{from_tt, to_tt, INF, MATE_BOUND};
use super::searcher::{terminal_score, tt_record, Frame, Searcher};
use super::tt::Bound;

impl<G: Game> Searcher<'_, G> {
    /// Searches the child just made by quiescence: negated when the ply flipped the side to
    /// move.
    #[inline(always)]
    pub(super) fn qchild(
        &mut self,
        flipped: bool,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv: bool,
    ) -> i32 {
        if flipped {
            -self.qsearch(-beta, -alpha, ply, pv)
        } else {
            self.qsearch(alpha, beta, ply, pv)
        }
    }

    /// Quiescence search: stand pat on the static evaluation, then tactical plies only; in
    /// check, every legal ply (and no stand pat).
    pub fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, pv_node: bool) -> i32 {
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        let key = self.pos.key();
        let mut tt_move = 0;
        let mut tt_eval = None;
        let mut tt_pv = pv_node;
        if let Some(e) = self.shared.tt.probe(key) {
            tt_move = e.mv;
            tt_pv |= e.pv;
            tt_eval = e.eval.filter(|_| G::SEARCH.eval_in_key);
            let s = from_tt(e.score, ply);
            if !pv_node
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                }
            {
                return s;
            }
        }
        let in_check = self.pos.in_check();
        let mut best;
        let mut raw_eval = None;
        if in_check {
            best = -INF;
        } else {
            let (corrected, raw, _) = self.corrected_eval(tt_eval);
            raw_eval = Some(raw);
            best = corrected;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let stand_pat = best;
        let mut picker = Picker::new();
        picker.generate(&self.pos, !in_check);
        if in_check && picker.is_empty() {
            return terminal_score(self.pos.no_moves_verdict().terminal, ply);
        }

        let conts = self.conts(ply);
        picker.score(
            &self.pos,
            tt_move,
            &self.tables,
            ply,
            self.stack[ply].mv,
            conts,
        );
        let side = self.pos.side_to_move();
        let mut best_move = G::Move::default();
        let mut raised = false;
        let mut quiet_evasions = 0;
        while let Some((m, ord)) = picker.pick(&self.pos) {
            if !in_check && Picker::<G::Move>::is_bad_tactical(ord) {
                // Ordered last: every remaining tactical ply loses material.
                break;
            }
            // Delta pruning: even the whole exchange leaves the stand pat short of alpha.
            if !in_check {
                let need = alpha - stand_pat - self.p.qs_delta_margin + 1;
                if need > 0 && !self.pos.see_ge(m, need) {
                    continue;
                }
                // Out of check the list may hold illegal plies: tested only now, after the
                // pruning that needs no legality.
                if G::LAZY_LEGALITY && !self.pos.is_legal(m) {
                    continue;
                }
            }
            if in_check && best > -MATE_BOUND && !self.pos.is_tactical(m) {
                if quiet_evasions >= G::SEARCH.qsearch_quiet_evasions {
                    continue;
                }
                quiet_evasions += 1;
            }
            let k = cont_key_of(&self.pos, m);
            self.pos.make(m);
            self.shared.tt.prefetch(self.pos.key());
            let flipped = self.pos.side_to_move() != side;
            self.stack[ply + 1] = Frame::of(m, k);
            let score = self.qchild(flipped, alpha, beta, ply + 1, pv_node);
            self.pos.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    raised = true;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let (bound, packed) = tt_record(best, beta, raised, best_move);
        self.shared
            .tt
            .store(key, packed, to_tt(best, ply), 0, bound, raw_eval, tt_pv);
        best
    }
}
