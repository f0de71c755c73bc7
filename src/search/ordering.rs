//! Move ordering: TT move, winning tactical plies by the variant's MVV-LVA
//! ([`Game::tactical_order`]) with losing ones ([`Game::see_ge`] fails) pushed back, two killers
//! per ply, a countermove, and a butterfly-style history of quiet plies with continuation
//! histories one and two plies back. Moves are indexed by a hash of [`GameMove::pack`], so
//! nothing here knows a variant. Also the correction history, which the search adds to the
//! static evaluation: learned per [`Game::correction_key`] from how far searched scores fell
//! from the evaluation. The histories ([`Histories`]) outlive a search in the TT's
//! [`HistoryStore`]; killers and countermoves do not.
//!
//! The picker does a selection sort over a fixed-capacity score list: no allocation.

use crate::core::MoveBuffer;
use crate::variants::{Game, GameMove, PlyList};

use super::score::MAX_PLY;

/// Bits of the history index (per side).
const HIST_BITS: u32 = 14;
/// History entries per side.
pub const HIST_SIZE: usize = 1 << HIST_BITS;

/// Index of a packed move into the history and countermove tables.
#[inline]
pub fn move_index(packed: u32) -> usize {
    (packed.wrapping_mul(0x9E37_79B1).rotate_left(HIST_BITS) as usize) & (HIST_SIZE - 1)
}

const TT_SCORE: i32 = 1 << 30;
const GOOD_TACTICAL: i32 = 1 << 28;
const KILLER_0: i32 = 1 << 27;
const KILLER_1: i32 = KILLER_0 - 1;
const COUNTER: i32 = KILLER_0 - 2;
const BAD_TACTICAL: i32 = -(1 << 28);
/// The MVV-LVA order of a tactical ply is clamped to +-this.
const TACTICAL_SPAN: i32 = 1 << 20;

/// The quiet-history key of ply `m` in `pos` (before it is made): [`GameMove::pack`] with
/// the variant's [`Game::history_context`] above bit 28.
#[inline]
pub fn hist_key_of<G: Game>(pos: &G, m: G::Move) -> u32 {
    hist_key(m.pack(), pos.history_context(m))
}

/// The quiet-history key of a ply packed as `packed` in history context `ctx`
/// ([`Game::history_context`]).
#[inline(always)]
pub fn hist_key(packed: u32, ctx: u32) -> u32 {
    debug_assert!(ctx <= 3 && (ctx == 0 || packed < 1 << 28));
    packed ^ (ctx << 28)
}

/// Bits of a continuation-history key (what a ply did, hashed from [`GameMove::pack`]).
const CONT_BITS: u32 = 10;
/// Continuation-history keys.
const CONT_KEYS: usize = 1 << CONT_BITS;
/// The continuation-history key of "no ply" (the root, a null move): its row is never updated.
pub const NO_CONT: u16 = 0;

/// The correction-history index of a [`Game::correction_key`].
#[inline]
fn corr_index(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CORR_BITS)) as usize
}

/// The continuation-history key of a ply: 1..`CONT_KEYS` (1024; 0 is [`NO_CONT`]).
#[inline]
pub fn cont_key(packed: u32) -> u16 {
    let k = (packed.wrapping_mul(0x9E37_79B1) >> (32 - CONT_BITS)) as u16;
    k.max(1)
}

/// The continuation-history key of ply `m` in `pos` (before it is made): the variant's
/// [`Game::cont_code`] when it has one, else [`cont_key`] of the packed ply.
#[inline]
pub fn cont_key_of<G: Game>(pos: &G, m: G::Move) -> u16 {
    match pos.cont_code(m) {
        Some(code) => {
            debug_assert!((1..CONT_KEYS as u16).contains(&code), "cont_code {code}");
            code
        }
        None => cont_key(m.pack()),
    }
}

/// Bits of the correction-history index (per side).
const CORR_BITS: u32 = 14;
/// Entries of the correction history per side.
const CORR_SIZE: usize = 1 << CORR_BITS;
/// A correction-history entry holds centipawns times this.
const CORR_GRAIN: i32 = 256;
/// Largest correction, in centipawns.
const CORR_MAX_CP: i32 = 64;

/// The statistics a search thread learns, kept from one search to the next (in the
/// [`HistoryStore`] of the TT): untyped, indexed by hashes of [`GameMove::pack`] and of
/// [`Game::correction_key`], so the same tables serve every variant.
pub struct Histories {
    /// Quiet-move history per side (0 = White, 1 = Black), in `+-history_max`.
    history: Vec<i32>,
    /// Continuation history: how good a quiet ply (column) was as the answer to the ply one
    /// two or four plies before it (row), by [`cont_key_of`]; in `+-history_max`.
    cont: Vec<i16>,
    /// Correction history per side to move: how far the static evaluation of positions with
    /// the same key ([`Game::correction_key`]) fell from their searched scores (centipawns
    /// times [`CORR_GRAIN`], within `+-CORR_MAX_CP` centipawns).
    corr: Vec<i16>,
}

impl Histories {
    /// Zeroed tables.
    pub fn new() -> Self {
        Histories {
            history: vec![0; 2 * HIST_SIZE],
            cont: vec![0; CONT_KEYS * CONT_KEYS],
            corr: vec![0; 2 * CORR_SIZE],
        }
    }
}

impl Histories {
    /// Sets every statistic back to zero, keeping the allocations (no page faults for the
    /// next search to pay).
    pub fn zero(&mut self) {
        self.history.fill(0);
        self.cont.fill(0);
        self.corr.fill(0);
    }

    /// How many correction-history entries are not zero (a measure of what was learned).
    pub fn corrections_in_use(&self) -> usize {
        self.corr.iter().filter(|&&v| v != 0).count()
    }
}

impl Default for Histories {
    fn default() -> Self {
        Self::new()
    }
}

/// Each search thread's [`Histories`], kept between searches: a thread takes its tables when
/// its search starts and hands them back when it ends. Locked twice per thread and search,
/// never in the tree.
#[derive(Default)]
pub struct HistoryStore {
    slots: std::sync::Mutex<Vec<Option<Box<Histories>>>>,
}

impl HistoryStore {
    /// The tables of thread `id`: those it handed back last, or zeroed ones.
    pub fn take(&self, id: usize) -> Box<Histories> {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots
            .get_mut(id)
            .and_then(Option::take)
            .unwrap_or_else(|| Box::new(Histories::new()))
    }

    /// Keeps `tables` for the next search of thread `id`.
    pub fn put(&self, id: usize, tables: Box<Histories>) {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        if slots.len() <= id {
            slots.resize_with(id + 1, || None);
        }
        slots[id] = Some(tables);
    }

    /// Forgets what every thread's tables learned (a new game, or a cleared TT): they are
    /// zeroed in place, so their memory is reused.
    pub fn clear(&self) {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        for tables in slots.iter_mut().flatten() {
            tables.zero();
        }
    }
}

/// Per-thread ordering statistics: the [`Histories`] kept between searches, and the killers
/// and countermoves of this search.
pub struct OrderTables<M: GameMove> {
    /// The learned histories (handed back to the [`HistoryStore`] at the end of a search).
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

    /// The static-evaluation correction for `side` (0 or 1) at a position whose
    /// [`Game::correction_key`] is `key`, in centipawns.
    #[inline]
    pub fn correction(&self, side: usize, key: u64) -> i32 {
        self.hist.corr[side * CORR_SIZE + corr_index(key)] as i32 / CORR_GRAIN
    }

    /// Moves the correction of `side` at `key` towards `diff` (the searched score minus the
    /// raw static evaluation, centipawns) with weight `depth` (plies, at most 16 of 256).
    #[inline]
    pub fn update_correction(&mut self, side: usize, key: u64, diff: i32, depth: i32) {
        let w = (depth + 1).clamp(1, 16);
        let h = &mut self.hist.corr[side * CORR_SIZE + corr_index(key)];
        let target = diff.clamp(-CORR_MAX_CP, CORR_MAX_CP) * CORR_GRAIN;
        let v = (*h as i32 * (256 - w) + target * w) / 256;
        *h = v.clamp(-CORR_MAX_CP * CORR_GRAIN, CORR_MAX_CP * CORR_GRAIN) as i16;
    }

    /// History score of a quiet move for `side` (0 or 1), by its key ([`hist_key_of`]).
    #[inline]
    pub fn history(&self, side: usize, key: u32) -> i32 {
        self.hist.history[side * HIST_SIZE + move_index(key)]
    }

    /// Adds `bonus` (may be negative) with gravity to the history of the quiet move with
    /// key `key` ([`hist_key_of`]), keeping values inside `+-max`.
    #[inline]
    pub fn update_history(&mut self, side: usize, key: u32, bonus: i32, max: i32) {
        let max = max.max(1);
        let h = &mut self.hist.history[side * HIST_SIZE + move_index(key)];
        let b = bonus.clamp(-max, max);
        *h += b - *h * b.abs() / max;
    }

    /// Continuation history of the quiet ply with key `cur` after the ply with key `prev`.
    #[inline]
    pub fn cont(&self, prev: u16, cur: u16) -> i32 {
        if prev == NO_CONT {
            0
        } else {
            self.hist.cont[prev as usize * CONT_KEYS + cur as usize] as i32
        }
    }

    /// Adds `bonus` (with gravity, within `+-max`, `max` at most `i16::MAX`) to the
    /// continuation history of `cur` after `prev` (no effect when `prev` is [`NO_CONT`]).
    #[inline]
    pub fn update_cont(&mut self, prev: u16, cur: u16, bonus: i32, max: i32) {
        if prev == NO_CONT {
            return;
        }
        gravity_i16(
            &mut self.hist.cont[prev as usize * CONT_KEYS + cur as usize],
            bonus,
            max,
        );
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

    /// Ages the history between searches (halves every entry).
    pub fn age(&mut self) {
        for h in &mut self.hist.history {
            *h /= 2;
        }
        for h in &mut self.hist.cont {
            *h /= 2;
        }
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
    /// present, then the tactical plies by MVV-LVA ([`Game::tactical_order`]) (a losing one
    /// goes behind the quiet plies when [`Picker::pick`] finds it out), then killers,
    /// countermove and the quiet plies by history. `prev` is the ply that led here (for the
    /// countermove), `conts` the continuation keys of the plies one, two and four before.
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
                tables.history(side, hist_key_of(pos, m))
                    + tables.cont(conts[0], k)
                    + tables.cont(conts[1], k)
                    + tables.cont(conts[2], k)
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

/// Adds `bonus` with gravity to the 16-bit history entry `h`: the bonus is clamped to
/// `+-max` (`max` within 1..=`i16::MAX`) and shrinks as `h` nears the bound, so `h` stays
/// inside `+-max`.
#[inline]
fn gravity_i16(h: &mut i16, bonus: i32, max: i32) {
    let max = max.clamp(1, i16::MAX as i32);
    let b = bonus.clamp(-max, max);
    let v = *h as i32;
    *h = (v + b - v * b.abs() / max) as i16;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::zobrist::SplitMix64;
    use crate::variants::chess::Chess;

    /// The order of the eager picker this one replaced: every exchange evaluated up front,
    /// then a selection sort (first of equal scores wins).
    fn eager_order(
        pos: &Chess,
        tt_move: u32,
        tables: &OrderTables<<Chess as Game>::Move>,
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
                let mut list = PlyList::<<Chess as Game>::Move>::default();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let tt_move = list[rng.below(list.len() as u64) as usize].pack();
                let quiet = list[rng.below(list.len() as u64) as usize];
                tables.update_history(
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

    #[test]
    fn context_zero_keeps_the_packed_ply() {
        // A game without contexts may pack its plies in all 32 bits: its key is the packed
        // ply, whatever its top bits hold.
        for packed in [0, 1, 0x0FFF_FFFF, 0x1000_0000, 0xF123_4567, u32::MAX] {
            assert_eq!(hist_key(packed, 0), packed);
        }
        assert_ne!(hist_key(0x1234, 1), hist_key(0x1234, 2));
    }

    #[test]
    fn history_is_kept_per_context() {
        // The knight on e4 is attacked by the d5 pawn; the same ply played from a quiet e4
        // learns separately.
        let attacked = Chess::from_fen("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1").unwrap();
        let quiet = Chess::from_fen("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1").unwrap();
        let m = attacked.parse_move("e4c3").unwrap();
        assert_eq!(quiet.parse_move("e4c3").unwrap(), m);
        let (ka, kq) = (hist_key_of(&attacked, m), hist_key_of(&quiet, m));
        assert_ne!(ka, kq);
        let mut tables = OrderTables::<<Chess as Game>::Move>::new();
        tables.update_history(0, ka, 800, 16384);
        assert_eq!(tables.history(0, ka), 800);
        assert_eq!(tables.history(0, kq), 0);
        assert_eq!(tables.history(1, ka), 0);
    }
}

#[cfg(test)]
mod history_tests {
    use super::*;
    use crate::variants::chess::Chess;

    type Tables = OrderTables<<Chess as Game>::Move>;

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
        let mut list = PlyList::<<Chess as Game>::Move>::default();
        pos.legal_moves(&mut list);
        let target = list[list.len() - 1];
        let token = pos.move_token(target);
        let key = cont_key_of(&pos, target);
        let neutral = first_quiet(&Tables::new(), [NO_CONT; 3]);
        assert_ne!(neutral, token);
        for slot in 0..3 {
            let row = 100 + slot as u16;
            let mut tables = Tables::new();
            tables.update_cont(row, key, 2000, 16384);
            let mut conts = [NO_CONT; 3];
            assert_eq!(first_quiet(&tables, conts), neutral);
            conts[slot] = row;
            assert_eq!(first_quiet(&tables, conts), token, "slot {slot}");
        }
    }

    #[test]
    fn correction_follows_the_searched_scores_within_its_bound() {
        let mut t = Tables::new();
        let (key, other) = (0x1234_5678_9ABC_DEF0, 0x0FED_CBA9_8765_4321);
        assert_eq!(t.correction(0, key), 0);
        // Scores 40 cp above the evaluation, at depth 8: the correction climbs towards 40.
        let mut last = 0;
        for _ in 0..150 {
            t.update_correction(0, key, 40, 8);
            let c = t.correction(0, key);
            assert!(c >= last && c <= 40, "{last} -> {c}");
            last = c;
        }
        assert!(last >= 38, "after 150 updates: {last}");
        // Per side and per key.
        assert_eq!(t.correction(1, key), 0);
        assert_eq!(t.correction(0, other), 0);
        // A huge error counts as the largest correction, no more.
        for _ in 0..200 {
            t.update_correction(1, key, -5000, 16);
        }
        let c = t.correction(1, key);
        assert!((-CORR_MAX_CP..=-60).contains(&c), "{c}");
        // Deeper results weigh more: one update at depth 15 moves further than at depth 1.
        let (mut shallow, mut deep) = (Tables::new(), Tables::new());
        shallow.update_correction(0, key, 64, 1);
        deep.update_correction(0, key, 64, 15);
        assert!(
            deep.hist.corr.iter().map(|&v| v.abs()).max()
                > shallow.hist.corr.iter().map(|&v| v.abs()).max()
        );
    }

    #[test]
    fn the_store_keeps_each_threads_tables_until_cleared() {
        let store = HistoryStore::default();
        let mut t = Tables::with_histories(store.take(1));
        t.update_correction(0, 99, 30, 10);
        let learned = t.correction(0, 99);
        assert_ne!(learned, 0);
        store.put(1, std::mem::take(&mut t.hist));
        // Another thread's slot is fresh; thread 1 gets its own tables back.
        assert_eq!(Tables::with_histories(store.take(0)).correction(0, 99), 0);
        let again = Tables::with_histories(store.take(1));
        assert_eq!(again.correction(0, 99), learned);
        let mut again = again;
        again.update_history(1, 77, 500, 16384);
        again.update_cont(3, 4, 500, 16384);
        assert!(again.history(1, 77) > 0 && again.cont(3, 4) > 0);
        store.put(1, again.hist);
        // Clearing zeroes every statistic of the kept tables.
        store.clear();
        let cleared = Tables::with_histories(store.take(1));
        assert_eq!(cleared.correction(0, 99), 0);
        assert_eq!(cleared.history(1, 77), 0);
        assert_eq!(cleared.cont(3, 4), 0);
    }
}
