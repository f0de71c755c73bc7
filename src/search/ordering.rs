//! Move ordering: the [`Picker`], which hands out the TT move, the winning tactical plies by the
//! variant's MVV-LVA ([`Evaluation::tactical_order`](crate::variants::Evaluation::tactical_order))
//! with losing ones ([`Evaluation::see_ge`](crate::variants::Evaluation::see_ge) fails) pushed
//! behind the quiet plies, two killers per ply, a countermove, and the quiet plies by their history
//! and continuation histories ([`super::history`]); and the per-thread [`OrderTables`]: the learned
//! [`Histories`] with this search's killers and countermoves, which do not outlive it.
//!
//! The picker does a selection sort over a fixed-capacity score list: no allocation.

use crate::core::MoveBuffer;
use crate::variants::{Game, GameMove, GenerationStage, PlyList};

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
        Self::with_buffers(hist, Vec::new())
    }

    /// Tables around learned `hist`, with no killers, and no countermoves in `counter`: a
    /// buffer kept from an earlier search (emptied here, its allocation reused) or a new one.
    pub fn with_buffers(hist: Box<Histories>, mut counter: Vec<M>) -> Self {
        counter.clear();
        counter.resize(2 * HIST_SIZE, M::default());
        OrderTables {
            hist,
            killers: [[M::default(); 2]; MAX_PLY + 1],
            counter,
        }
    }

    /// Takes the countermove buffer out (for the next search to reuse), leaving none: the
    /// tables must not be used after.
    pub fn take_counter(&mut self) -> Vec<M> {
        std::mem::take(&mut self.counter)
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
///
/// A main-search node uses it in stages ([`Picker::start`], then [`Picker::next`]): the TT ply,
/// decoded before anything is generated when the variant can
/// ([`Staging::decodes_packed`](crate::variants::Staging::decodes_packed)); then, for a
/// variant whose generation splits
/// ([`Staging::split`](crate::variants::Staging::split)), the
/// tactical plies whose exchange does not lose, the quiet plies (generated only now, and
/// scored with the histories as they stand after the plies before them), and last the losing
/// tactical plies. A variant that does not split generates all its plies at once after the TT
/// ply, in the same order.
pub struct Picker<M: GameMove> {
    /// The moves, reordered in place as they are picked.
    pub moves: PlyList<M>,
    scores: M::List<i32>,
    next: usize,
    /// Whether the TT move was found among the moves (it is then picked first).
    pub tt_move_found: bool,
    /// The stage of a staged picker.
    stage: Stage,
    /// The packed TT ply (0 for none).
    tt_packed: u32,
    /// End of the tactical plies in `moves` (the quiet plies follow).
    tactical_end: usize,
    /// Next quiet ply to hand out.
    quiet_next: usize,
}

/// What a node's ordering reads besides the position, for the scores of plies generated
/// late: the ply from the root, the ply that led here (for the countermove) and the
/// continuation keys of the plies one, two and four before.
#[derive(Copy, Clone, Debug)]
pub struct NodeOrder<M> {
    /// Plies from the root.
    pub ply: usize,
    /// The ply that led to this node (`M::default()` for none).
    pub prev: M,
    /// The continuation keys of the plies one, two and four before.
    pub conts: [u16; 3],
}

/// The stages of [`Picker::next`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// The TT ply, decoded.
    Tt,
    /// Generate (all plies, or the tactical ones).
    Generate,
    /// Every ply, one stage.
    All,
    /// Tactical plies not found losing.
    GoodTactical,
    /// Generate the quiet plies.
    GenerateQuiet,
    /// Quiet plies.
    Quiet,
    /// Tactical plies that lose their exchange.
    BadTactical,
    /// Nothing left.
    Done,
}

/// The score of a ply that is never handed out (the TT ply, already handed out).
const SKIP: i32 = i32::MIN;

impl<M: GameMove> Picker<M> {
    /// An empty picker; fill it with [`Picker::generate`], then [`Picker::score`].
    #[inline]
    pub fn new() -> Self {
        Picker {
            moves: PlyList::<M>::default(),
            scores: M::List::<i32>::default(),
            next: 0,
            tt_move_found: false,
            stage: Stage::Done,
            tt_packed: 0,
            tactical_end: 0,
            quiet_next: 0,
        }
    }

    /// Back to the state of [`Picker::new`], keeping the lists' storage (a picker reused from
    /// the searcher's spares).
    #[inline]
    pub fn reset(&mut self) {
        self.moves.clear();
        self.scores.clear();
        self.next = 0;
        self.tt_move_found = false;
        self.stage = Stage::Done;
        self.tt_packed = 0;
        self.tactical_end = 0;
        self.quiet_next = 0;
    }

    /// Starts the staged order of a main-search node whose TT ply is `tt_move` (packed, 0 for
    /// none); [`Picker::next`] hands out the plies.
    #[inline]
    pub fn start(&mut self, tt_move: u32) {
        self.moves.clear();
        self.scores.clear();
        self.next = 0;
        self.tt_move_found = false;
        self.stage = Stage::Tt;
        self.tt_packed = tt_move;
        self.tactical_end = 0;
        self.quiet_next = 0;
    }

    /// The next ply of the staged order started by [`Picker::start`] and its ordering score
    /// (see [`Picker::is_tt`] and the other tests), or `None` when all were handed out. `pos`
    /// is the node's position, unchanged between calls. With
    /// [`Staging::lazy_legality`](crate::variants::Staging::lazy_legality), a ply that
    /// is not the TT ply may be illegal: the caller tests it before making it.
    #[inline(always)]
    pub fn next<G: Game<Move = M>>(
        &mut self,
        pos: &G,
        tables: &OrderTables<M>,
        node: &NodeOrder<M>,
    ) -> Option<(M, i32)> {
        if self.stage == Stage::All {
            // The one-stage order, after generation: the common case, kept short.
            return match self.pick(pos) {
                Some((m, s)) if s != SKIP => Some((m, s)),
                _ => {
                    self.stage = Stage::Done;
                    None
                }
            };
        }
        self.next_in_stage(pos, tables, node)
    }

    /// [`Picker::next`] outside the one-stage order's picking: a few calls per node.
    #[inline(never)]
    fn next_in_stage<G: Game<Move = M>>(
        &mut self,
        pos: &G,
        tables: &OrderTables<M>,
        node: &NodeOrder<M>,
    ) -> Option<(M, i32)> {
        loop {
            match self.stage {
                Stage::Tt => {
                    self.stage = Stage::Generate;
                    if G::STAGING.decodes_packed && self.tt_packed != 0 {
                        if let Some(m) = pos.ply_from_packed(self.tt_packed) {
                            self.tt_move_found = true;
                            return Some((m, TT_SCORE));
                        }
                    }
                }
                Stage::Generate => {
                    // A TT ply decoded is skipped; one not decoded is scored first.
                    let tt = if G::STAGING.decodes_packed {
                        0
                    } else {
                        self.tt_packed
                    };
                    // Splitting needs the TT ply decoded: a quiet TT ply would otherwise
                    // come after the tactical ones.
                    if G::STAGING.split && G::STAGING.decodes_packed {
                        pos.staged_moves(GenerationStage::Tactical, &mut self.moves);
                        for i in 0..self.moves.len() {
                            let m = self.moves[i];
                            let s = if self.tt_move_found && m.pack() == self.tt_packed {
                                SKIP
                            } else if tt != 0 && m.pack() == tt {
                                self.tt_move_found = true;
                                TT_SCORE
                            } else {
                                GOOD_TACTICAL
                                    + pos.tactical_order(m).clamp(-TACTICAL_SPAN, TACTICAL_SPAN)
                            };
                            self.scores.push(s);
                        }
                        self.tactical_end = self.moves.len();
                        self.stage = Stage::GoodTactical;
                    } else {
                        pos.legal_moves(&mut self.moves);
                        if self.tt_move_found {
                            self.score_range::<G, true>(pos, 0, self.tt_packed, tables, node, 0);
                        } else {
                            self.score_range::<G, false>(pos, tt, 0, tables, node, 0);
                        }
                        self.stage = Stage::All;
                    }
                }
                Stage::All => return self.next(pos, tables, node),
                Stage::GoodTactical => {
                    let end = self.tactical_end;
                    match self.pick_in(pos, end) {
                        Some((m, s)) if s > BAD_TACTICAL / 2 => return Some((m, s)),
                        Some(_) => {
                            // The first losing one: back into the list for the last stage.
                            self.next -= 1;
                            self.stage = Stage::GenerateQuiet;
                        }
                        None => self.stage = Stage::GenerateQuiet,
                    }
                }
                Stage::GenerateQuiet => {
                    let start = self.moves.len();
                    pos.staged_moves(GenerationStage::Quiet, &mut self.moves);
                    let (tt, skip) = if self.tt_move_found {
                        (0, self.tt_packed)
                    } else {
                        (self.tt_packed, 0)
                    };
                    self.score_range::<G, true>(pos, tt, skip, tables, node, start);
                    self.quiet_next = start;
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    let q = self.quiet_next;
                    if q >= self.moves.len() {
                        self.stage = Stage::BadTactical;
                        continue;
                    }
                    let (i, s) = first_max(&self.scores[q..]);
                    let best = q + i;
                    if s == SKIP {
                        self.stage = Stage::BadTactical;
                        continue;
                    }
                    self.moves.swap(q, best);
                    self.scores.swap(q, best);
                    self.quiet_next += 1;
                    return Some((self.moves[q], s));
                }
                Stage::BadTactical => {
                    let end = self.tactical_end;
                    match self.pick_in(pos, end) {
                        Some((m, s)) if s != SKIP => return Some((m, s)),
                        _ => {
                            self.stage = Stage::Done;
                            return None;
                        }
                    }
                }
                Stage::Done => return None,
            }
        }
    }

    /// Ends the quiet stage of a staged order: the quiet plies not yet handed out are
    /// passed over, and [`Picker::next`] goes on with the losing tactical plies. Does
    /// nothing in any other stage.
    #[inline]
    pub fn skip_quiet(&mut self) {
        if self.stage == Stage::Quiet {
            self.stage = Stage::BadTactical;
        }
    }

    /// Scores `moves[start..]` as [`Picker::score`] does (pushing onto `scores`), the ply
    /// packing to `tt` first and the one packing to `skip` never (0 for none: no legal ply
    /// packs to 0).
    /// With `SKIPS` false, `skip` is not read (the one-stage order of a variant that does not
    /// decode, which never skips).
    #[inline]
    fn score_range<G: Game<Move = M>, const SKIPS: bool>(
        &mut self,
        pos: &G,
        tt: u32,
        skip: u32,
        tables: &OrderTables<M>,
        node: &NodeOrder<M>,
        start: usize,
    ) {
        let side = pos.side_to_move().index();
        let [k0, k1] = tables.killers(node.ply);
        let prev = node.prev;
        let conts = node.conts;
        let counter = if prev != M::default() {
            tables.counter[side * HIST_SIZE + move_index(prev.pack())]
        } else {
            M::default()
        };
        let mut tt_found = false;
        let scores = &mut self.scores;
        for &m in self.moves[start..].iter() {
            let packed = m.pack();
            let s = if SKIPS && packed == skip {
                SKIP
            } else if packed == tt {
                tt_found = true;
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
            scores.push(s);
        }
        self.tt_move_found |= tt_found;
    }

    /// Generates the legal plies of `pos`, or only the tactical ones: those may hold illegal
    /// plies (every legal one once) with
    /// [`Staging::lazy_legality`](crate::variants::Staging::lazy_legality), so the caller
    /// tests [`StagedGeneration::is_legal`](crate::variants::StagedGeneration::is_legal) before making one.
    #[inline]
    pub fn generate<G: Game<Move = M>>(&mut self, pos: &G, tactical_only: bool) {
        self.moves.clear();
        if tactical_only {
            pos.staged_moves(GenerationStage::Tactical, &mut self.moves);
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
        let node = NodeOrder { ply, prev, conts };
        self.score_range::<G, false>(pos, tt_move, 0, tables, &node, 0);
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
        let n = self.moves.len();
        self.pick_in(pos, n)
    }

    /// [`Picker::pick`] among `moves[..n]`.
    #[inline]
    fn pick_in<G: Game<Move = M>>(&mut self, pos: &G, n: usize) -> Option<(M, i32)> {
        if self.next >= n {
            return None;
        }
        debug_assert!(
            self.scores.len() == self.moves.len(),
            "unscored moves picked"
        );
        loop {
            // The first of the highest scores (ties keep the generation order). A plain scan:
            // on the short lists of the one-stage variants it beats `first_max` in time (5%
            // in chess), though not in instructions.
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

/// The index and value of the first highest of `scores` (non-empty), as a scan keeping the
/// first of equals finds it (the picker's selection over the long quiet lists of a variant
/// that splits its generation).
///
/// One pass over blocks of [`FIRST_MAX_BLOCK`] scores, each block's maximum taken without a
/// branch (the compiler vectorises it); only a block holding a new strict maximum is
/// remembered, so the first block holding the overall maximum is searched at the end.
#[inline(always)]
fn first_max(scores: &[i32]) -> (usize, i32) {
    let block_max = |block: &[i32]| block.iter().copied().fold(i32::MIN, i32::max);
    let blocks = scores.chunks_exact(FIRST_MAX_BLOCK);
    let tail = blocks.remainder();
    let (mut max, mut start) = (i32::MIN, 0);
    for (i, block) in blocks.enumerate() {
        let m = block_max(block);
        if m > max {
            (max, start) = (m, i * FIRST_MAX_BLOCK);
        }
    }
    let m = block_max(tail);
    if m > max {
        (max, start) = (m, scores.len() - tail.len());
    }
    let holder = &scores[start..scores.len().min(start + FIRST_MAX_BLOCK)];
    (
        start + holder.iter().position(|&v| v == max).unwrap_or(0),
        max,
    )
}

/// Scores per block in [`first_max`]: two vectors of four.
const FIRST_MAX_BLOCK: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    /// `first_max` finds the ply the plain scan finds: the first of equal highest scores.
    #[test]
    fn first_max_keeps_the_first_of_equals() {
        assert_eq!(first_max(&[3, 7, 1, 7, 7]), (1, 7));
        assert_eq!(first_max(&[SKIP, SKIP]), (0, SKIP));
        assert_eq!(first_max(&[-5]), (0, -5));
        let long: Vec<i32> = (0..100).map(|i| (i * 37) % 11).collect();
        assert_eq!(first_max(&long), (8, 10));
        assert_eq!(first_max(&[i32::MIN; 11]), (0, i32::MIN));
        // Against the plain scan, on lengths around the block size and with many equals.
        let mut rng = SplitMix64::new(7);
        for len in 1..70 {
            for _ in 0..50 {
                let range = 1 + rng.below(6);
                let scores: Vec<i32> = (0..len).map(|_| rng.below(range) as i32 - 3).collect();
                let max = *scores.iter().max().unwrap();
                let first = scores.iter().position(|&v| v == max).unwrap();
                assert_eq!(first_max(&scores), (first, max), "{scores:?}");
            }
        }
    }
    use crate::core::zobrist::SplitMix64;
    use crate::search::history::NO_CONT;
    use crate::variants::chess::Chess;
    use crate::variants::playout::{Next, Playout};
    use crate::variants::{Evaluation, Game, Notation, Rules};

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
        let mut playout = Playout::new(7, 40);
        let mut tables = OrderTables::new();
        let mut checked = 0;
        for fen in fens {
            let mut pos = Chess::from_fen(fen).unwrap();
            playout.run(&mut pos, |pos, at| {
                let (list, rng) = (at.legal, &mut *at.rng);
                if at.at_end {
                    return Next::Stop;
                }
                let tt_move = list[rng.below(list.len() as u64) as usize].pack();
                let quiet = list[rng.below(list.len() as u64) as usize];
                tables.hist.update_history(
                    pos.side_to_move().index(),
                    hist_key_of(pos, quiet),
                    500,
                    16384,
                );
                let expected = eager_order(pos, tt_move, &tables);
                let mut picker = Picker::new();
                picker.generate(pos, false);
                picker.score(pos, tt_move, &tables, 0, Default::default(), [NO_CONT; 3]);
                let mut got = Vec::new();
                while let Some((m, _)) = picker.pick(pos) {
                    got.push(pos.move_token(m));
                }
                assert_eq!(got, expected, "{}", pos.fen());
                checked += 1;
                Next::Random
            });
        }
        assert!(checked > 60);
    }

    /// Every legal ply, once, from the staged order: the TT ply first when it is legal (and
    /// never again), whatever the TT word holds; for a variant that splits, the tactical plies
    /// that do not lose their exchange before every quiet ply, and the losing ones after;
    /// [`Picker::skip_quiet`] at the first quiet ply leaves exactly the losing ones.
    fn staged_hands_out_every_ply_once<G: Game>(starts: Vec<G>, plies: usize) -> usize {
        let mut playout = Playout::new(59, plies);
        let mut skips = 0;
        let mut tables = OrderTables::<G::Move>::new();
        let mut checked = 0;
        for mut pos in starts {
            playout.run(&mut pos, |pos, at| {
                let (list, rng) = (at.legal, &mut *at.rng);
                if at.at_end {
                    return Next::Stop;
                }
                let quiet = list[rng.below(list.len() as u64) as usize];
                if !pos.is_tactical(quiet) {
                    tables.hist.update_history(
                        pos.side_to_move().index(),
                        hist_key_of(pos, quiet),
                        700,
                        16384,
                    );
                    tables.record_cutoff(0, pos.side_to_move().index(), quiet, G::Move::default());
                }
                let tt_choices = [
                    0,
                    list[rng.below(list.len() as u64) as usize].pack(),
                    rng.next_u64() as u32 | 1,
                ];
                for tt in tt_choices {
                    let node = NodeOrder {
                        ply: 0,
                        prev: G::Move::default(),
                        conts: [NO_CONT; 3],
                    };
                    let mut picker = Picker::new();
                    picker.start(tt);
                    let mut got = Vec::new();
                    while let Some(x) = picker.next(pos, &tables, &node) {
                        got.push(x);
                    }
                    // Lazy legality: the caller drops what `is_legal` refuses (never the TT ply).
                    got.retain(|&(m, s)| Picker::<G::Move>::is_tt(s) || pos.is_legal(m));
                    let mut a: Vec<u32> = got.iter().map(|(m, _)| m.pack()).collect();
                    let mut b: Vec<u32> = list.iter().map(|m| m.pack()).collect();
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "{}", pos.fen());
                    let tt_legal = list.iter().any(|m| m.pack() == tt);
                    assert_eq!(tt_legal, got[0].0.pack() == tt, "{}", pos.fen());
                    assert_eq!(tt_legal, Picker::<G::Move>::is_tt(got[0].1));
                    if G::STAGING.split && G::STAGING.decodes_packed {
                        let rest = &got[usize::from(tt_legal)..];
                        let kind = |(m, s): &(G::Move, i32)| {
                            if !pos.is_tactical(*m) {
                                1
                            } else if Picker::<G::Move>::is_bad_tactical(*s) {
                                2
                            } else {
                                0
                            }
                        };
                        assert!(rest.windows(2).all(|w| kind(&w[0]) <= kind(&w[1])));
                        // Skipping the quiet stage at its first ply: the losing tactical
                        // plies, and only they, still follow.
                        let mut picker = Picker::new();
                        picker.start(tt);
                        let mut after = Vec::new();
                        let mut skipped = false;
                        while let Some((m, s)) = picker.next(pos, &tables, &node) {
                            if !skipped && !pos.is_tactical(m) && !Picker::<G::Move>::is_tt(s) {
                                picker.skip_quiet();
                                skipped = true;
                            } else if skipped {
                                after.push((m, s));
                            }
                        }
                        let bad = rest.iter().filter(|x| kind(x) == 2);
                        let mut want: Vec<u32> = bad.map(|(m, _)| m.pack()).collect();
                        after.retain(|&(m, _)| pos.is_legal(m));
                        let mut have: Vec<u32> = after.iter().map(|(m, _)| m.pack()).collect();
                        want.sort_unstable();
                        have.sort_unstable();
                        if skipped {
                            assert_eq!(have, want, "{}", pos.fen());
                            skips += 1;
                        }
                    }
                    checked += 1;
                }
                Next::Random
            });
        }
        assert!(!G::STAGING.split || skips > 100, "{skips}");
        checked
    }

    #[test]
    fn staged_order_hands_out_every_ply_once() {
        use crate::variants::mutatis_mutandis::MutatisMutandis;
        let starts = (0..6).filter_map(MutatisMutandis::random_setup).collect();
        assert!(staged_hands_out_every_ply_once::<MutatisMutandis>(starts, 70) > 600);
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            crate::variants::chess::START_FEN,
        ];
        let starts = fens.iter().map(|f| Chess::from_fen(f).unwrap()).collect();
        assert!(staged_hands_out_every_ply_once::<Chess>(starts, 40) > 200);
    }

    /// A picker reset after use on another position (the search's spare pickers) hands out
    /// what a new one does, in the same order, staged and one-stage.
    #[test]
    fn a_reset_picker_orders_as_a_new_one() {
        fn order<G: Game>(
            picker: &mut Picker<G::Move>,
            pos: &G,
            staged: bool,
            stop: usize,
        ) -> Vec<(u32, i32)> {
            let tables = OrderTables::<G::Move>::new();
            let node = NodeOrder {
                ply: 0,
                prev: G::Move::default(),
                conts: [NO_CONT; 3],
            };
            if staged {
                picker.start(0);
            } else {
                picker.generate(pos, false);
                picker.score(pos, 0, &tables, 0, G::Move::default(), [NO_CONT; 3]);
            }
            let mut out = Vec::new();
            while out.len() < stop {
                let next = if staged {
                    picker.next(pos, &tables, &node)
                } else {
                    picker.pick(pos)
                };
                let Some((m, s)) = next else { break };
                out.push((m.pack(), s));
            }
            out
        }
        fn check<G: Game>(positions: &[G], staged: bool) -> usize {
            let mut used = Picker::<G::Move>::new();
            let mut compared = 0;
            for pair in positions.windows(2) {
                // Left part way (a cutoff), or run out.
                for stop in [3, usize::MAX] {
                    order(&mut used, &pair[0], staged, stop);
                    used.reset();
                    let again = order(&mut used, &pair[1], staged, usize::MAX);
                    let fresh = order(&mut Picker::new(), &pair[1], staged, usize::MAX);
                    assert_eq!(again, fresh, "{}", pair[1].fen());
                    compared += fresh.len();
                }
            }
            compared
        }
        use crate::variants::mutatis_mutandis::MutatisMutandis;
        let setups: Vec<MutatisMutandis> =
            (0..4).filter_map(MutatisMutandis::random_setup).collect();
        assert!(check(&setups, true) > 100);
        let fens = [
            crate::variants::chess::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let chess: Vec<Chess> = fens.iter().map(|f| Chess::from_fen(f).unwrap()).collect();
        assert!(check(&chess, false) > 100);
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
