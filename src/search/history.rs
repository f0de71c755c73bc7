//! The statistics a search thread learns, kept from one search to the next: the quiet history
//! (butterfly-style, per side, split by
//! [`Evaluation::history_context`](crate::variants::Evaluation::history_context)), the continuation
//! histories (a quiet ply as the answer to the plies one, two and four before it, keyed by
//! [`Evaluation::cont_code`](crate::variants::Evaluation::cont_code) or a hash), and the correction
//! history, which the search adds to the static evaluation (learned per
//! [`Evaluation::correction_key`](crate::variants::Evaluation::correction_key) from how far
//! searched scores fell from the evaluation). Also their keys, the bonus of a cutoff
//! ([`history_bonus`]), and the [`HistoryStore`] in the TT where each thread keeps its
//! [`Histories`] between searches. Moves are indexed by hashes of [`GameMove::pack`], so nothing
//! here knows a variant.

use crate::variants::{Game, GameMove};

use super::params::SearchParams;

/// Bits of the history index (per side).
const HIST_BITS: u32 = 14;
/// History entries per side.
pub const HIST_SIZE: usize = 1 << HIST_BITS;

/// Index of a packed move into the history and countermove tables.
#[inline]
pub fn move_index(packed: u32) -> usize {
    (packed.wrapping_mul(0x9E37_79B1).rotate_left(HIST_BITS) as usize) & (HIST_SIZE - 1)
}

/// The quiet-history key of ply `m` in `pos` (before it is made): [`GameMove::pack`] with the
/// variant's [`Evaluation::history_context`](crate::variants::Evaluation::history_context) above
/// bit 28.
#[inline]
pub fn hist_key_of<G: Game>(pos: &G, m: G::Move) -> u32 {
    hist_key(m.pack(), pos.history_context(m))
}

/// The quiet-history key of a ply packed as `packed` in history context `ctx`
/// ([`Evaluation::history_context`](crate::variants::Evaluation::history_context)).
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

/// The continuation-history key of a ply: 1..`CONT_KEYS` (1024; 0 is [`NO_CONT`]).
#[inline]
pub fn cont_key(packed: u32) -> u16 {
    let k = (packed.wrapping_mul(0x9E37_79B1) >> (32 - CONT_BITS)) as u16;
    k.max(1)
}

/// The continuation-history key of ply `m` in `pos` (before it is made): the variant's
/// [`Evaluation::cont_code`](crate::variants::Evaluation::cont_code) when it has one, else
/// [`cont_key`] of the packed ply.
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

/// The correction-history index of a
/// [`Evaluation::correction_key`](crate::variants::Evaluation::correction_key).
#[inline]
fn corr_index(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CORR_BITS)) as usize
}

/// The history bonus of a cutoff at `depth` plies: `history_bonus_per_depth * depth` (or
/// `depth * depth` when that is 0), at most `history_bonus_max`.
#[inline(always)]
pub fn history_bonus(p: &SearchParams, depth: i32) -> i32 {
    if p.history_bonus_per_depth > 0 {
        p.history_bonus_per_depth * depth
    } else {
        depth * depth
    }
    .min(p.history_bonus_max)
}

/// The statistics a search thread learns, kept from one search to the next (in the [`HistoryStore`]
/// of the TT): untyped, indexed by hashes of [`GameMove::pack`] and of
/// [`Evaluation::correction_key`](crate::variants::Evaluation::correction_key), so the same tables
/// serve every variant.
pub struct Histories {
    /// Quiet-move history per side (0 = White, 1 = Black), in `+-history_max`.
    history: Vec<i32>,
    /// Continuation history: how good a quiet ply (column) was as the answer to the ply one
    /// two or four plies before it (row), by [`cont_key_of`]; in `+-history_max`.
    cont: Vec<i16>,
    /// Correction history per side to move: how far the static evaluation of positions with the
    /// same key ([`Evaluation::correction_key`](crate::variants::Evaluation::correction_key)) fell
    /// from their searched scores (centipawns times [`CORR_GRAIN`], within `+-CORR_MAX_CP`
    /// centipawns).
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

    /// Tables of no entry, allocating nothing: the placeholder a search thread leaves behind
    /// when it hands its tables back ([`HistoryStore::put`]). Never read.
    pub(crate) fn placeholder() -> Self {
        Histories {
            history: Vec::new(),
            cont: Vec::new(),
            corr: Vec::new(),
        }
    }

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

    /// The static-evaluation correction for `side` (0 or 1) at a position whose
    /// [`Evaluation::correction_key`](crate::variants::Evaluation::correction_key) is `key`, in
    /// centipawns.
    #[inline]
    pub fn correction(&self, side: usize, key: u64) -> i32 {
        self.corr[side * CORR_SIZE + corr_index(key)] as i32 / CORR_GRAIN
    }

    /// Moves the correction of `side` at `key` towards `diff` (the searched score minus the
    /// raw static evaluation, centipawns) with weight `depth` (plies, at most 16 of 256).
    #[inline]
    pub fn update_correction(&mut self, side: usize, key: u64, diff: i32, depth: i32) {
        let w = (depth + 1).clamp(1, 16);
        let h = &mut self.corr[side * CORR_SIZE + corr_index(key)];
        let target = diff.clamp(-CORR_MAX_CP, CORR_MAX_CP) * CORR_GRAIN;
        let v = (*h as i32 * (256 - w) + target * w) / 256;
        *h = v.clamp(-CORR_MAX_CP * CORR_GRAIN, CORR_MAX_CP * CORR_GRAIN) as i16;
    }

    /// History score of a quiet move for `side` (0 or 1), by its key ([`hist_key_of`]).
    #[inline]
    pub fn history(&self, side: usize, key: u32) -> i32 {
        self.history[side * HIST_SIZE + move_index(key)]
    }

    /// Adds `bonus` (may be negative) with gravity to the history of the quiet move with
    /// key `key` ([`hist_key_of`]), keeping values inside `+-max`.
    #[inline]
    pub fn update_history(&mut self, side: usize, key: u32, bonus: i32, max: i32) {
        let max = max.max(1);
        let h = &mut self.history[side * HIST_SIZE + move_index(key)];
        let b = bonus.clamp(-max, max);
        *h += b - *h * b.abs() / max;
    }

    /// Continuation history of the quiet ply with key `cur` after the ply with key `prev`.
    #[inline]
    pub fn cont(&self, prev: u16, cur: u16) -> i32 {
        if prev == NO_CONT {
            0
        } else {
            self.cont[prev as usize * CONT_KEYS + cur as usize] as i32
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
            &mut self.cont[prev as usize * CONT_KEYS + cur as usize],
            bonus,
            max,
        );
    }

    /// Ages the history between searches (halves every entry).
    pub fn age(&mut self) {
        for h in &mut self.history {
            *h /= 2;
        }
        for h in &mut self.cont {
            *h /= 2;
        }
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
///
/// Beside them, each thread's buffers (of the variant's ply type, hence untyped here), kept so
/// that a search does not allocate and fault in fresh memory for them (see
/// [`HistoryStore::take_buffers`]).
#[derive(Default)]
pub struct HistoryStore {
    slots: std::sync::Mutex<Vec<Option<Box<Histories>>>>,
    buffers: std::sync::Mutex<Vec<Option<Box<dyn std::any::Any + Send>>>>,
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

    /// The buffers thread `id` handed back last ([`HistoryStore::put_buffers`]), if they are
    /// of type `T` (another variant's are dropped).
    pub fn take_buffers<T: std::any::Any + Send>(&self, id: usize) -> Option<Box<T>> {
        let mut slots = self.buffers.lock().unwrap_or_else(|e| e.into_inner());
        let kept = slots.get_mut(id).and_then(Option::take)?;
        kept.downcast().ok()
    }

    /// Keeps `buffers` for the next search of thread `id`.
    pub fn put_buffers(&self, id: usize, buffers: Box<dyn std::any::Any + Send>) {
        let mut slots = self.buffers.lock().unwrap_or_else(|e| e.into_inner());
        if slots.len() <= id {
            slots.resize_with(id + 1, || None);
        }
        slots[id] = Some(buffers);
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
    use crate::variants::chess::Chess;
    use crate::variants::Notation;

    /// Kept buffers come back to their thread, once, and only as the type put.
    #[test]
    fn kept_buffers_come_back_by_thread_and_type() {
        let store = HistoryStore::default();
        assert!(store.take_buffers::<Vec<u32>>(0).is_none());
        store.put_buffers(2, Box::new(vec![7u32; 3]));
        assert!(store.take_buffers::<Vec<u32>>(0).is_none());
        assert_eq!(
            store.take_buffers::<Vec<u32>>(2).as_deref(),
            Some(&vec![7u32; 3])
        );
        assert!(store.take_buffers::<Vec<u32>>(2).is_none(), "taken twice");
        store.put_buffers(1, Box::new(vec![1u16]));
        assert!(store.take_buffers::<Vec<u32>>(1).is_none(), "another type");
        assert!(
            store.take_buffers::<Vec<u16>>(1).is_none(),
            "dropped by the wrong take"
        );
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
        let mut tables = Histories::new();
        tables.update_history(0, ka, 800, 16384);
        assert_eq!(tables.history(0, ka), 800);
        assert_eq!(tables.history(0, kq), 0);
        assert_eq!(tables.history(1, ka), 0);
    }

    #[test]
    fn correction_follows_the_searched_scores_within_its_bound() {
        let mut t = Histories::new();
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
        let (mut shallow, mut deep) = (Histories::new(), Histories::new());
        shallow.update_correction(0, key, 64, 1);
        deep.update_correction(0, key, 64, 15);
        assert!(
            deep.corr.iter().map(|&v| v.abs()).max() > shallow.corr.iter().map(|&v| v.abs()).max()
        );
    }

    #[test]
    fn the_store_keeps_each_threads_tables_until_cleared() {
        let store = HistoryStore::default();
        let mut t = store.take(1);
        t.update_correction(0, 99, 30, 10);
        let learned = t.correction(0, 99);
        assert_ne!(learned, 0);
        store.put(1, t);
        // Another thread's slot is fresh; thread 1 gets its own tables back.
        assert_eq!(store.take(0).correction(0, 99), 0);
        let mut again = store.take(1);
        assert_eq!(again.correction(0, 99), learned);
        again.update_history(1, 77, 500, 16384);
        again.update_cont(3, 4, 500, 16384);
        assert!(again.history(1, 77) > 0 && again.cont(3, 4) > 0);
        store.put(1, again);
        // Clearing zeroes every statistic of the kept tables.
        store.clear();
        let cleared = store.take(1);
        assert_eq!(cleared.correction(0, 99), 0);
        assert_eq!(cleared.history(1, 77), 0);
        assert_eq!(cleared.cont(3, 4), 0);
    }
}
