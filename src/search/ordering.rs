//! Move ordering: the [`Picker`], which hands out the TT move, the winning tactical plies by the
//! variant's MVV-LVA ([`Evaluation::tactical_order`](crate::variants::Evaluation::tactical_order))
//! with losing ones ([`Evaluation::see_ge`](crate::variants::Evaluation::see_ge) fails) pushed
//! behind the quiet plies, two killers per ply, a countermove, and the quiet plies by their history
//! and continuation histories ([`super::history`]); and the per-thread [`OrderTables`]: the learned
//! [`Histories`] with this search's killers and countermoves, which do not outlive it.
//!
//! The picker does a selection sort over a fixed-capacity score list: no allocation.

use crate::core::MoveBuffer;
use crate::variants::{Game, GameMove, PlyList};

use super::history::{cont_key_of, hist_key_of, move_index, Histories, HIST_SIZE};
use super::score::MAX_PLY;

const TT_SCORE: i32 = 1 << 30;
const GOOD_TACTICAL: i32 = 1 << 28;
const KILLER_0: i32 = 1 << 27;
const KILLER_1: i32 = KILLER_0 - 1;
const COUNTER: i32 = KILLER_0 - 2;
const BAD_TACTICAL: i32 = -(1 << 28);
/// The MVV-LVA order of a tactical ply is clamped to +-this.
const TACTICAL_SPAN: i32 = 1 << 20;

/// Per-thread ordering statistics: the [`Histories`] kept between searches, and the killers
/// and countermoves of this search.
pub struct OrderTables<M: GameMove> {
    /// The learned histories (handed back to the TT's [`super::history::HistoryStore`] at
    /// the end of a search).
    pub hist: Box<Histories>,
    /// Two killers per ply.
    killers: [[M; 2]; MAX_PLY + 1],
    /// Reply to a move (indexed by [`move_index`] of the previous move), per side.
    counter: Vec<M>,
}

impl<M: GameMove> OrderTables<M> {
    /// Empty tables (allocated once per search thread).
    pub fn new() -> Self {
        Self::with_histories(Box::default())
    }

    /// Tables around learned `hist`, with no killers or countermoves.
    pub fn with_histories(hist: Box<Histories>) -> Self {
        OrderTables {
            hist,
            killers: [[M::default(); 2]; MAX_PLY + 1],
            counter: vec![M::default(); 2 * HIST_SIZE],
        }
    }

    /// Records a quiet cutoff move at `ply`, and as the reply of `side` to `prev`.
    #[inline]
    pub fn record_cutoff(&mut self, ply: usize, side: usize, m: M, prev: M) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        if prev != M::default() {
            self.counter[side * HIST_SIZE + move_index(prev.pack())] = m;
        }
    }

    /// Forgets the killers of `ply` (children of a new node start fresh).
    #[inline]
    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply.min(MAX_PLY)] = [M::default(); 2];
    }

    /// The two killers of `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [M; 2] {
        self.killers[ply.min(MAX_PLY)]
    }
}

impl<M: GameMove> Default for Picker<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: GameMove> Default for OrderTables<M> {
    fn default() -> Self {
        Self::new()
    }
}

/// Hands out the moves of a list, best-scored first (selection sort, lazily).
///
/// The static exchange of a tactical ply is evaluated only when it is about to be handed out
/// (a losing one is then moved behind the quiet plies), so that a cut-off early in the list
/// does not pay for the exchanges of the rest. The order is the same as if every exchange had
/// been evaluated up front.
pub struct Picker<M: GameMove> {
    /// The moves, reordered in place as they are picked.
    pub moves: PlyList<M>,
    scores: M::List<i32>,
    next: usize,
    /// Whether the TT move was found among the moves (it is then picked first).
    pub tt_move_found: bool,
}

impl<M: GameMove> Picker<M> {
    /// An empty picker; fill it with [`Picker::generate`], then [`Picker::score`].
    #[inline]
    pub fn new() -> Self {
        Picker {
            moves: PlyList::<M>::default(),
            scores: M::List::<i32>::default(),
            next: 0,
            tt_move_found: false,
        }
    }

    /// Generates the legal plies of `pos` (all of them, or only the tactical ones).
    #[inline]
    pub fn generate<G: Game<Move = M>>(&mut self, pos: &G, tactical_only: bool) {
        self.moves.clear();
        if tactical_only {
            pos.tactical_moves(&mut self.moves);
        } else {
            pos.legal_moves(&mut self.moves);
        }
    }

    /// Scores the generated moves of `pos` at `ply`: `tt_move` (packed, 0 for none) first if
    /// present, then the tactical plies by MVV-LVA
    /// ([`Evaluation::tactical_order`](crate::variants::Evaluation::tactical_order)) (a losing one
    /// goes behind the quiet plies when [`Picker::pick`] finds it out), then killers, countermove
    /// and the quiet plies by history. `prev` is the ply that led here (for the countermove),
    /// `conts` the continuation keys of the plies one, two and four before.
    #[inline]
    pub fn score<G: Game<Move = M>>(
        &mut self,
        pos: &G,
        tt_move: u32,
        tables: &OrderTables<M>,
        ply: usize,
        prev: M,
        conts: [u16; 3],
    ) {
        self.scores.clear();
        self.next = 0;
        self.tt_move_found = false;
        let side = pos.side_to_move().index();
        let [k0, k1] = tables.killers(ply);
        let counter = if prev != M::default() {
            tables.counter[side * HIST_SIZE + move_index(prev.pack())]
        } else {
            M::default()
        };
        for &m in self.moves.iter() {
            let s = if tt_move != 0 && m.pack() == tt_move {
                self.tt_move_found = true;
                TT_SCORE
            } else if pos.is_tactical(m) {
                // Good until its static exchange, tested when it comes up, says otherwise.
                GOOD_TACTICAL + pos.tactical_order(m).clamp(-TACTICAL_SPAN, TACTICAL_SPAN)
            } else if m == k0 {
                KILLER_0
            } else if m == k1 {
                KILLER_1
            } else if m == counter {
                COUNTER
            } else {
                let k = cont_key_of(pos, m);
                tables.hist.history(side, hist_key_of(pos, m))
                    + tables.hist.cont(conts[0], k)
                    + tables.hist.cont(conts[1], k)
                    + tables.hist.cont(conts[2], k)
            };
            self.scores.push(s);
        }
    }

    /// Number of generated moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move was generated.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The next best move of `pos` (the position given to [`Picker::score`]) and its ordering
    /// score, or `None` when all were handed out.
    #[inline]
    pub fn pick<G: Game<Move = M>>(&mut self, pos: &G) -> Option<(M, i32)> {
        if self.next >= self.moves.len() {
            return None;
        }
        let n = self.scores.len();
        debug_assert!(n == self.moves.len(), "unscored moves picked");
        loop {
            // The first of the highest scores (ties keep the generation order).
            let mut best = self.next;
            let mut s = self.scores[best];
            for (i, &v) in self.scores[..n].iter().enumerate().skip(self.next + 1) {
                if v > s {
                    best = i;
                    s = v;
                }
            }
            if (GOOD_TACTICAL - TACTICAL_SPAN..=GOOD_TACTICAL + TACTICAL_SPAN).contains(&s)
                && !pos.see_ge(self.moves[best], 0)
            {
                // A losing exchange: behind the quiet plies, still in MVV-LVA order.
                self.scores[best] = s - GOOD_TACTICAL + BAD_TACTICAL;
                continue;
            }
            self.moves.swap(self.next, best);
            self.scores.swap(self.next, best);
            let r = (self.moves[self.next], self.scores[self.next]);
            self.next += 1;
            return Some(r);
        }
    }

    /// Whether an ordering score marks the TT move.
    #[inline]
    pub fn is_tt(score: i32) -> bool {
        score == TT_SCORE
    }

    /// Whether an ordering score marks a tactical ply that lost its static exchange.
    #[inline]
    pub fn is_bad_tactical(score: i32) -> bool {
        score < BAD_TACTICAL / 2
    }

    /// Whether an ordering score marks a killer or countermove.
    #[inline]
    pub fn is_refutation(score: i32) -> bool {
        (COUNTER..=KILLER_0).contains(&score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::zobrist::SplitMix64;
    use crate::search::history::NO_CONT;
    use crate::variants::chess::Chess;
    use crate::variants::{Evaluation, Notation, Rules};

    type Tables = OrderTables<<Chess as Rules>::Move>;

    /// The order of the eager picker this one replaced: every exchange evaluated up front,
    /// then a selection sort (first of equal scores wins).
    fn eager_order(
        pos: &Chess,
        tt_move: u32,
        tables: &OrderTables<<Chess as Rules>::Move>,
    ) -> Vec<String> {
        let mut picker = Picker::new();
        picker.generate(pos, false);
        picker.score(pos, tt_move, tables, 0, Default::default(), [NO_CONT; 3]);
        let mut moves: Vec<_> = picker.moves.to_vec();
        let mut scores: Vec<i32> = picker.scores.to_vec();
        for (m, s) in moves.iter().zip(scores.iter_mut()) {
            if (GOOD_TACTICAL - TACTICAL_SPAN..=GOOD_TACTICAL + TACTICAL_SPAN).contains(s)
                && !pos.see_ge(*m, 0)
            {
                *s += BAD_TACTICAL - GOOD_TACTICAL;
            }
        }
        let mut out = Vec::new();
        for next in 0..moves.len() {
            let mut best = next;
            for i in next + 1..moves.len() {
                if scores[i] > scores[best] {
                    best = i;
                }
            }
            moves.swap(next, best);
            scores.swap(next, best);
            out.push(pos.move_token(moves[next]));
        }
        out
    }

    #[test]
    fn lazy_exchanges_keep_the_eager_order() {
        // Positions along seeded random playouts from tactical middlegames, each with a random
        // legal ply as TT move and some history, so every kind of score takes part.
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "2r3k1/1q3ppp/p2p4/1p1Pp3/4P1n1/P1N2N2/1PQ2PPP/2R3K1 b - - 0 1",
        ];
        let mut rng = SplitMix64::new(7);
        let mut tables = OrderTables::new();
        let mut checked = 0;
        for fen in fens {
            let mut pos = Chess::from_fen(fen).unwrap();
            for _ in 0..40 {
                let mut list = PlyList::<<Chess as Rules>::Move>::default();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let tt_move = list[rng.below(list.len() as u64) as usize].pack();
                let quiet = list[rng.below(list.len() as u64) as usize];
                tables.hist.update_history(
                    pos.side_to_move().index(),
                    hist_key_of(&pos, quiet),
                    500,
                    16384,
                );
                let expected = eager_order(&pos, tt_move, &tables);
                let mut picker = Picker::new();
                picker.generate(&pos, false);
                picker.score(&pos, tt_move, &tables, 0, Default::default(), [NO_CONT; 3]);
                let mut got = Vec::new();
                while let Some((m, _)) = picker.pick(&pos) {
                    got.push(pos.move_token(m));
                }
                assert_eq!(got, expected, "{}", pos.fen());
                checked += 1;
                pos.make(list[rng.below(list.len() as u64) as usize]);
            }
        }
        assert!(checked > 60);
    }

    /// Each of the three continuation keys a node passes (the plies one, two and four before
    /// it) lifts a quiet ply its row rewards to the front of the quiet plies; a key of no row
    /// ([`NO_CONT`]) does nothing.
    #[test]
    fn each_continuation_key_orders_the_quiet_plies() {
        let pos = Chess::from_fen(crate::variants::chess::START_FEN).unwrap();
        let first_quiet = |tables: &Tables, conts: [u16; 3]| {
            let mut picker = Picker::new();
            picker.generate(&pos, false);
            picker.score(&pos, 0, tables, 0, Default::default(), conts);
            pos.move_token(picker.pick(&pos).unwrap().0)
        };
        // The last ply generated, so not first by the tie order.
        let mut list = PlyList::<<Chess as Rules>::Move>::default();
        pos.legal_moves(&mut list);
        let target = list[list.len() - 1];
        let token = pos.move_token(target);
        let key = cont_key_of(&pos, target);
        let neutral = first_quiet(&Tables::new(), [NO_CONT; 3]);
        assert_ne!(neutral, token);
        for slot in 0..3 {
            let row = 100 + slot as u16;
            let mut tables = Tables::new();
            tables.hist.update_cont(row, key, 2000, 16384);
            let mut conts = [NO_CONT; 3];
            assert_eq!(first_quiet(&tables, conts), neutral);
            conts[slot] = row;
            assert_eq!(first_quiet(&tables, conts), token, "slot {slot}");
        }
    }
}
