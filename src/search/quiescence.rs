//! The quiescence search ([`Searcher::qsearch`]): stand pat on the corrected static
//! evaluation, then the tactical plies that do not lose their exchange, with delta pruning; in
//! check, every legal ply (a game may bound the quiet evasions) and no stand pat. A variant
//! whose generation splits hands out its evasions in stages, as the main search does: the
//! quiet ones are generated only when no tactical one cut.

use crate::variants::Game;

use super::history::cont_key_of;
use super::ordering::{NodeOrder, Picker};
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
        // Asked before the TT bucket is read, so the check test overlaps the bucket's load.
        let in_check = self.pos.in_check();
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
        let conts = self.conts(ply);
        let prev = self.stack[ply].mv;
        // In check, a variant that splits its generation hands out its evasions in stages:
        // the TT ply, the tactical ones, and the quiet ones only if no tactical one cut.
        let staged = in_check && G::STAGING.split && G::STAGING.decodes_packed;
        let mut picker = self.take_picker();
        let node = NodeOrder { ply, prev, conts };
        if staged {
            picker.start(tt_move);
        } else {
            picker.generate(&self.pos, !in_check);
            if in_check && picker.is_empty() {
                self.put_picker(picker);
                return terminal_score(self.pos.no_moves_verdict().terminal, ply);
            }
            picker.score(&self.pos, tt_move, &self.tables, ply, prev, conts);
        }
        let side = self.pos.side_to_move();
        let mut best_move = G::Move::default();
        let mut raised = false;
        let mut quiet_evasions = 0;
        loop {
            let next = if staged {
                picker.next(&self.pos, &self.tables, &node)
            } else {
                picker.pick(&self.pos)
            };
            let Some((m, ord)) = next else {
                break;
            };
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
            }
            // The list may hold illegal plies: tested only now, after the pruning that needs
            // no legality (a decoded TT ply is legal).
            if G::STAGING.lazy_legality
                && !(staged && Picker::<G::Move>::is_tt(ord))
                && !self.pos.is_legal(m)
            {
                continue;
            }
            if in_check && best > -MATE_BOUND && !self.pos.is_tactical(m) {
                if quiet_evasions >= G::SEARCH.qsearch_quiet_evasions {
                    // No further quiet evasion is searched: on to the losing tactical ones.
                    picker.skip_quiet();
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
                self.put_picker(picker);
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
        self.put_picker(picker);
        if best == -INF {
            // In check with no legal ply handed out (out of check, best is the stand pat).
            return terminal_score(self.pos.no_moves_verdict().terminal, ply);
        }
        let (bound, packed) = tt_record(best, beta, raised, best_move);
        self.shared
            .tt
            .store(key, packed, to_tt(best, ply), 0, bound, raw_eval, tt_pv);
        best
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::search::score::mated_in;
    use crate::search::searcher::{Counter, Shared};
    use crate::search::{negamax, params, SearchControl, Tt};
    use crate::variants::mutatis_mutandis::MutatisMutandis;
    use crate::variants::playout::{Next, Playout};
    use crate::variants::{Notation, Rules, StagedGeneration};

    /// The full-window quiescence score of `pos` at ply 0, on a fresh TT (on a thread with
    /// the search threads' stack: a searcher is large).
    fn qsearch_score<G: Game>(pos: &G) -> i32 {
        let pos = pos.clone();
        std::thread::Builder::new()
            .stack_size(crate::search::smp::THREAD_STACK)
            .spawn(move || qsearch_here(&pos))
            .unwrap()
            .join()
            .unwrap()
    }

    fn qsearch_here<G: Game>(pos: &G) -> i32 {
        let tt = Tt::new(1);
        let control = SearchControl::default();
        let p = params::active();
        let shared = Shared {
            tt: &tt,
            control: &control,
            abort: AtomicBool::new(false),
            finished: AtomicBool::new(false),
            nodes: vec![Counter::default()],
            params: p,
            lmr: negamax::lmr_table(&p),
            start: 0,
        };
        let mut searcher = Searcher::new(pos.clone(), 0, &shared, None);
        searcher.qsearch(-INF, INF, 0, true)
    }

    /// In check, quiescence hands out Mutatis Mutandis's evasions in stages (tactical ones
    /// first, quiet ones only when none cut): it must still score a position with no legal
    /// turn as mated, and one with a turn as not mated, whether the evasions are tactical,
    /// quiet or both (random playouts from random setups).
    #[test]
    fn staged_evasions_tell_mate_from_escape() {
        let mated = MutatisMutandis::from_fen("7k/8/8/8/8/8/1r6/r6K w - - 0 1").unwrap();
        assert!(mated.in_check());
        assert_eq!(qsearch_score(&mated), mated_in(0));
        let mut playout = Playout::new(7, 120);
        let (mut in_check, mut quiet_only) = (0, 0);
        for seed in 0..8 {
            let Some(mut pos) = MutatisMutandis::random_setup(seed) else {
                continue;
            };
            playout.run(&mut pos, |pos, at| {
                if !at.legal.is_empty() && pos.in_check() {
                    in_check += 1;
                    quiet_only += usize::from(at.legal.iter().all(|&m| !pos.is_tactical(m)));
                    let s = qsearch_score(pos);
                    assert!(s > mated_in(0), "{} {s}", pos.fen());
                }
                Next::Random
            });
        }
        assert!(in_check >= 20 && quiet_only >= 3, "{in_check} {quiet_only}");
    }
}
