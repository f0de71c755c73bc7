//! The shared, lock-free transposition table.
//!
//! Each entry is two `AtomicU64` words: the check word and `data` ("lockless hashing"). The
//! check word holds the low 48 bits of `key ^ data` and, in its top 16 bits, the position's
//! static evaluation (`i16`, a reserved value when none was stored). A torn write by two threads
//! makes the XOR check fail, so a probe only sees whole entries written for its key (or misses),
//! and the evaluation it reads was written with the entry. The bucket index comes from the
//! key's high bits and the check from its low 48, so about 48 bits of the key are verified.
//! All accesses are `Relaxed`; a stale or colliding entry is harmless because the search checks
//! a TT move against the legal list before playing it.
//!
//! `data` layout (bits): 0..32 packed move (`GameMove::pack`), 32..48 score (`i16`, TT form
//! of [`super::score::to_tt`]), 48..56 depth (plies, clamped to 0..=255), 56..58 bound,
//! 58..63 generation (5 bits), 63 the PV flag (the storing node was on a principal variation,
//! or its entry said so). Four entries make one 64-byte bucket.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

use super::history::HistoryStore;

/// What a stored score means relative to the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The stored score is exact (PV node).
    Exact = 3,
}

impl Bound {
    fn from_bits(b: u64) -> Option<Bound> {
        match b {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// A decoded TT entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The packed best/refutation move (0: none).
    pub mv: u32,
    /// Score in TT form (mate scores relative to the node); see [`super::score::from_tt`].
    pub score: i32,
    /// Remaining depth of the search that produced it (plies).
    pub depth: i32,
    /// Bound type of `score`.
    pub bound: Bound,
    /// The static evaluation of the position stored with the entry (centipawns, side to move,
    /// within `i16`), `None` when the storing node had none (in check).
    pub eval: Option<i32>,
    /// Whether the node that stored the entry was a PV node or had been one ("TT PV").
    pub pv: bool,
}

/// The check word's 16 evaluation bits when an entry carries no evaluation.
const NO_EVAL: u16 = 0x8000;
/// The check word's bits that verify the key.
const CHECK_MASK: u64 = (1 << 48) - 1;

/// The check word of an entry: the verified part of `key ^ data` and the evaluation bits.
#[inline(always)]
fn check_word(key: u64, data: u64, eval: Option<i32>) -> u64 {
    let bits = match eval {
        Some(e) => e.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16 as u16,
        None => NO_EVAL,
    };
    ((key ^ data) & CHECK_MASK) | (bits as u64) << 48
}

/// Whether a check word and data word were written together for `key`.
#[inline(always)]
fn matches(key: u64, check: u64, data: u64) -> bool {
    (check ^ data ^ key) & CHECK_MASK == 0
}

/// The evaluation kept in a check word.
#[inline(always)]
fn eval_of(check: u64) -> Option<i32> {
    let bits = (check >> 48) as u16;
    (bits != NO_EVAL).then_some(bits as i16 as i32)
}

const ENTRIES: usize = 4;

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    words: [[AtomicU64; 2]; ENTRIES],
}

/// The transposition table: a power-free array of 64-byte buckets sized in MiB, shared by
/// reference between search threads.
///
/// The buckets come from a zeroed allocation (all-zero words are empty entries): for a large
/// table the system maps zero pages lazily, so making even a 64 GiB table takes no time, but
/// then the first touch of each page costs the search time (the kernel zeroes it). The
/// protocol therefore touches every page with [`Tt::prefault`] before its `readyok`.
///
/// The TT also keeps each search thread's learned histories between searches
/// ([`Tt::histories`]): like the entries, they are forgotten when the table is cleared or made
/// anew (`ucinewgame`, `Hash`, a new variant).
pub struct Tt {
    buckets: Buckets,
    generation: AtomicU8,
    /// Whether an entry may have been stored since the table was made or last cleared: a
    /// clear of a table still all zero (a fresh one: `Tt::new` maps zeroed pages without
    /// writing them) has nothing to do, and skips writing every word.
    written: AtomicBool,
    /// The search threads' histories, kept from one search to the next.
    pub histories: HistoryStore,
}

/// The bucket array: one zeroed allocation of 8-byte words, one bucket longer than needed and
/// used from its first 64-byte boundary. With an alignment the allocator handles natively,
/// the zeroed allocation is `calloc`, which takes a large block straight from zero-mapped
/// pages without writing it (an over-aligned zeroed allocation is written in full).
struct Buckets {
    /// The allocation.
    raw: std::ptr::NonNull<u64>,
    /// Its size in words.
    words: usize,
    /// The first bucket (64-byte aligned, inside the allocation).
    first: *const Bucket,
    /// Number of buckets.
    len: usize,
}

// SAFETY: the buckets are atomics, shared by reference like a `[Bucket]`; the allocation is
// owned and freed once, by `Drop`.
unsafe impl Send for Buckets {}
// SAFETY: as above: shared access only goes through `&[Bucket]` (atomic words).
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `len` empty buckets (len >= 1), or `None` when the memory cannot be had.
    fn zeroed(len: usize) -> Option<Buckets> {
        let per_bucket = std::mem::size_of::<Bucket>() / 8;
        let words = len.checked_add(1)?.checked_mul(per_bucket)?;
        let layout = std::alloc::Layout::array::<u64>(words).ok()?;
        // SAFETY: `layout` has a non-zero size (len >= 1).
        let raw =
            std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) }.cast::<u64>())?;
        advise_huge_pages(raw.as_ptr().cast(), words * 8);
        let offset = raw.as_ptr().align_offset(std::mem::align_of::<Bucket>());
        // SAFETY: the offset is below 64 bytes, less than the spare bucket, so `first` and the
        // `len` buckets after it lie inside the allocation.
        let first = unsafe { raw.as_ptr().add(offset) }.cast::<Bucket>();
        Some(Buckets {
            raw,
            words,
            first,
            len,
        })
    }

    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `first` is aligned for `Bucket` and `len` buckets of zero-initialised atomics
        // (all bit patterns valid) lie inside the live allocation.
        unsafe { std::slice::from_raw_parts(self.first, self.len) }
    }
}

/// Size of a huge page on x86-64 and aarch64 Linux (bytes).
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back the whole 2 MiB blocks of the fresh, untouched allocation at `start`
/// (`len` bytes) with transparent huge pages (`madvise(MADV_HUGEPAGE)`, which counts where the
/// system's setting is `madvise`, as it often is). A TT probe lands on a random entry, so with
/// 4 KiB pages nearly every probe of a large table also misses the TLB. A hint only: when the
/// kernel declines, nothing changes. Elsewhere than Linux this does nothing.
fn advise_huge_pages(start: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        let begin = (start as usize).next_multiple_of(HUGE_PAGE);
        let end = (start as usize + len) / HUGE_PAGE * HUGE_PAGE;
        if end > begin {
            // SAFETY: [begin, end) lies inside our own live allocation; MADV_HUGEPAGE changes
            // only how its pages are backed, never their contents.
            unsafe {
                libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

impl Drop for Buckets {
    fn drop(&mut self) {
        let layout = std::alloc::Layout::array::<u64>(self.words).expect("made with this layout");
        // SAFETY: allocated in `zeroed` with exactly this layout, freed once.
        unsafe { std::alloc::dealloc(self.raw.as_ptr().cast(), layout) };
    }
}

const GEN_BITS: u32 = 5;
const GEN_MASK: u8 = (1 << GEN_BITS) - 1;
const PV_BIT: u64 = 1 << 63;

#[inline]
fn pack(mv: u32, score: i32, depth: i32, bound: Bound, gen: u8, pv: bool) -> u64 {
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = depth.clamp(0, 255) as u64;
    mv as u64
        | score << 32
        | depth << 48
        | (bound as u64) << 56
        | ((gen & GEN_MASK) as u64) << 58
        | if pv { PV_BIT } else { 0 }
}

#[inline]
fn unpack(data: u64, check: u64) -> Option<TtEntry> {
    let bound = Bound::from_bits((data >> 56) & 3)?;
    Some(TtEntry {
        mv: data as u32,
        score: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32,
        bound,
        eval: eval_of(check),
        pv: data & PV_BIT != 0,
    })
}

#[inline]
fn gen_of(data: u64) -> u8 {
    (data >> 58) as u8 & GEN_MASK
}

fn bucket_count(mb: usize) -> usize {
    (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1)
}

impl Tt {
    /// A cleared TT of `mb` MiB (at least 1 MiB). When the memory cannot be had, the size is
    /// halved until it can (never panics on a large `Hash`).
    pub fn new(mb: usize) -> Self {
        let mut n = bucket_count(mb.min(1 << 24));
        let buckets = loop {
            match Buckets::zeroed(n) {
                Some(b) => break b,
                None if n > 1 => n /= 2,
                // Not even one bucket: the allocator's out-of-memory handling.
                None => std::alloc::handle_alloc_error(std::alloc::Layout::new::<[Bucket; 2]>()),
            }
        };
        Tt {
            buckets,
            generation: AtomicU8::new(0),
            written: AtomicBool::new(false),
            histories: HistoryStore::default(),
        }
    }

    /// Resizes to `mb` MiB, clearing every entry.
    pub fn resize(&mut self, mb: usize) {
        *self = Tt::new(mb);
    }

    /// Size in MiB (rounded down).
    pub fn size_mb(&self) -> usize {
        std::mem::size_of_val(self.buckets.as_slice()) / (1024 * 1024)
    }

    /// Empties every entry (bench, `ucinewgame`) and forgets the threads' histories. Writes
    /// each word, so it also touches every page. Not to be called while a search runs.
    pub fn clear(&self) {
        self.clear_with_threads(1);
    }

    /// [`Tt::clear`] with `threads` threads (at least 1), each emptying an equal share of
    /// the buckets, as the search threads would use the table after it. Not to be called
    /// while a search runs.
    pub fn clear_with_threads(&self, threads: usize) {
        fn empty(part: &[Bucket]) {
            // SAFETY: the words are atomics (interior mutability: writable through a shared
            // reference), all-zero is a valid value of each, and no other thread reads or
            // writes them during a clear (no search runs). A plain fill lets the C library's
            // large-block writes skip reading each line before writing it.
            unsafe { std::ptr::write_bytes(part.as_ptr().cast_mut(), 0, part.len()) };
        }
        self.histories.clear();
        let buckets = self.buckets.as_slice();
        let threads = threads.clamp(1, 256);
        if !self.written.swap(false, Relaxed) {
            // Nothing stored since the last clear: every word is still zero.
        } else if threads == 1 || buckets.len() < 2 * threads {
            empty(buckets);
        } else {
            let share = buckets.len().div_ceil(threads);
            std::thread::scope(|s| {
                for part in buckets.chunks(share) {
                    s.spawn(move || empty(part));
                }
            });
        }
        self.generation.store(0, Relaxed);
    }

    /// Makes the operating system back every page of the table now, with `threads` threads
    /// (at least 1) each taking an equal share, so that no search pays for first touching a
    /// page (a fresh table is a lazily mapped zeroed allocation: [`Tt::new`]). Each thread
    /// writes a zero to one word per 4 KiB page (a read alone would map the shared zero page),
    /// so this is for a fresh table that no search uses yet: on a table in use it would lose
    /// the entries of those words. Costs the kernel's page zeroing.
    pub fn prefault(&self, threads: usize) {
        /// Buckets per 4 KiB page.
        const STRIDE: usize = 4096 / std::mem::size_of::<Bucket>();
        fn touch(part: &[Bucket]) {
            for b in part.iter().step_by(STRIDE) {
                b.words[0][0].store(0, Relaxed);
            }
            if let Some(last) = part.last() {
                last.words[0][0].store(0, Relaxed);
            }
        }
        let buckets = self.buckets.as_slice();
        let threads = threads.clamp(1, 256);
        if threads == 1 || buckets.len() < 2 * threads * STRIDE {
            touch(buckets);
        } else {
            // Shares of whole 4 KiB strides, so that each thread keeps to its own pages.
            let share = buckets.len().div_ceil(threads).next_multiple_of(STRIDE);
            std::thread::scope(|s| {
                for part in buckets.chunks(share) {
                    s.spawn(move || touch(part));
                }
            });
        }
    }

    /// The fraction (0 to 1) of the table's pages the operating system holds in memory now
    /// (Linux `mincore`): 1 after [`Tt::prefault`], near 0 for a fresh large table that no
    /// search has touched. `None` where it cannot be told (other systems, a failed call).
    pub fn resident_fraction(&self) -> Option<f64> {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: sysconf has no preconditions.
            let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
            let buckets = self.buckets.as_slice();
            let start = buckets.as_ptr() as usize;
            let end = start + std::mem::size_of_val(buckets);
            let begin = start / page * page;
            let pages = (end - begin).div_ceil(page);
            let mut vec = vec![0u8; pages];
            // SAFETY: [begin, begin + pages * page) covers only pages of our own live
            // allocation (mapped, since they hold part of it); `vec` has one byte per page.
            let rc = unsafe {
                libc::mincore(begin as *mut libc::c_void, pages * page, vec.as_mut_ptr())
            };
            if rc != 0 {
                return None;
            }
            let resident = vec.iter().filter(|&&b| b & 1 != 0).count();
            Some(resident as f64 / pages as f64)
        }
        #[cfg(not(target_os = "linux"))]
        None
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed).wrapping_add(1) & GEN_MASK;
        self.generation.store(g, Relaxed);
    }

    /// How full the table is, in permille, sampled from the first 1000 entries of this search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Relaxed);
        let mut used = 0u32;
        let mut seen = 0u32;
        for b in self.buckets.as_slice().iter().take(1000 / ENTRIES) {
            for w in &b.words {
                let data = w[1].load(Relaxed);
                seen += 1;
                if Bound::from_bits((data >> 56) & 3).is_some() && gen_of(data) == gen {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.as_slice().len() as u128) >> 64) as usize;
        &self.buckets.as_slice()[i]
    }

    /// Hints the CPU to fetch the bucket of `key` into cache (no effect on results).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint; `p` points into our own live allocation.
            unsafe { _mm_prefetch(p, _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for w in &b.words {
            let data = w[1].load(Relaxed);
            let check = w[0].load(Relaxed);
            if matches(key, check, data) {
                if let Some(e) = unpack(data, check) {
                    return Some(e);
                }
            }
        }
        None
    }

    /// Stores a search result for `key`: `mv` packed (0 keeps a previous move of the same key),
    /// `score` in TT form, `depth` in plies, `eval` the position's static evaluation
    /// (centipawns, side to move; `None` keeps a previous one of the same key), `pv` whether
    /// the node is or was on a principal variation.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: u32,
        score: i32,
        depth: i32,
        bound: Bound,
        eval: Option<i32>,
        pv: bool,
    ) {
        // Read-mostly: written once after each clear.
        if !self.written.load(Relaxed) {
            self.written.store(true, Relaxed);
        }
        let gen = self.generation.load(Relaxed);
        let b = self.bucket(key);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, w) in b.words.iter().enumerate() {
            let data = w[1].load(Relaxed);
            let check = w[0].load(Relaxed);
            let Some(old) = unpack(data, check) else {
                // Empty slot: take it unless the key lives elsewhere in the bucket.
                if victim_value > i32::MIN + 1 {
                    victim = i;
                    victim_value = i32::MIN + 1;
                }
                continue;
            };
            if matches(key, check, data) {
                // Same position: keep a deeper result of this search unless the new one is exact.
                if bound != Bound::Exact && gen_of(data) == gen && old.depth > depth + 3 {
                    return;
                }
                let mv = if mv == 0 { old.mv } else { mv };
                let new = pack(mv, score, depth, bound, gen, pv);
                w[0].store(check_word(key, new, eval.or(old.eval)), Relaxed);
                w[1].store(new, Relaxed);
                return;
            }
            let age = ((gen.wrapping_sub(gen_of(data))) & GEN_MASK) as i32;
            let value = old.depth - 8 * age;
            if value < victim_value {
                victim = i;
                victim_value = value;
            }
        }
        let new = pack(mv, score, depth, bound, gen, pv);
        let w = &b.words[victim];
        w[0].store(check_word(key, new, eval), Relaxed);
        w[1].store(new, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::super::score::{from_tt, mate_in, mated_in, to_tt, EVAL_LIMIT};
    use super::*;

    #[test]
    fn store_probe_roundtrip() {
        let tt = Tt::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(key), None);
        tt.store(key, 0xdead_beef, -1234, 17, Bound::Lower, Some(-321), false);
        let e = tt.probe(key).expect("stored entry");
        assert_eq!(
            e,
            TtEntry {
                mv: 0xdead_beef,
                score: -1234,
                depth: 17,
                bound: Bound::Lower,
                eval: Some(-321),
                pv: false,
            }
        );
        assert_eq!(tt.probe(key ^ 1), None);
        assert_eq!(tt.probe(key ^ 1 << 47), None);
        // A move-less, evaluation-less store keeps the previous move and evaluation of the
        // same key.
        tt.store(key, 0, 55, 18, Bound::Exact, None, false);
        let e = tt.probe(key).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound, e.eval),
            (0xdead_beef, 55, 18, Bound::Exact, Some(-321))
        );
        // The extremes of the evaluation, and no evaluation.
        for eval in [Some(EVAL_LIMIT), Some(-EVAL_LIMIT), Some(0), None] {
            let k = key.rotate_left(17) ^ eval.unwrap_or(7) as u64;
            tt.store(k, 9, 1, 3, Bound::Upper, eval, false);
            assert_eq!(tt.probe(k).unwrap().eval, eval);
        }
        // The PV flag is kept, and replaced by the next store of the key.
        tt.store(key, 0, 55, 19, Bound::Exact, None, true);
        assert!(tt.probe(key).unwrap().pv);
        assert_eq!(tt.probe(key).unwrap().depth, 19);
        tt.store(key, 0, 55, 20, Bound::Lower, None, false);
        assert!(!tt.probe(key).unwrap().pv);
        // The flag and the generation do not overlap.
        let d = pack(3, -7, 9, Bound::Upper, GEN_MASK, true);
        assert_eq!(gen_of(d), GEN_MASK);
        let e = unpack(d, check_word(1, d, None)).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound, e.pv),
            (3, -7, 9, Bound::Upper, true)
        );
        assert!(
            !unpack(pack(3, -7, 9, Bound::Upper, GEN_MASK, false), 0)
                .unwrap()
                .pv
        );
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert_eq!(tt.probe(key), None);
    }

    #[test]
    fn a_threaded_clear_empties_every_bucket() {
        let tt = Tt::new(1);
        let keys: Vec<u64> = (1..=4000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for threads in [2, 3, 7] {
            // A clear after a clear (or of a fresh table) writes nothing; a store marks it due.
            assert!(!tt.written.load(Relaxed));
            for &k in &keys {
                tt.store(k, 5, 10, 4, Bound::Lower, Some(20), false);
            }
            assert!(tt.written.load(Relaxed));
            assert!(keys.iter().filter(|&&k| tt.probe(k).is_some()).count() > 3000);
            tt.clear_with_threads(threads);
            assert!(
                keys.iter().all(|&k| tt.probe(k).is_none()),
                "{threads} threads"
            );
            assert!(tt.buckets.as_slice().iter().all(|b| b
                .words
                .iter()
                .all(|w| w[0].load(Relaxed) == 0 && w[1].load(Relaxed) == 0)));
        }
    }

    #[test]
    fn a_torn_write_is_not_seen() {
        // Two writers of one slot: the check word of one and the data word of the other.
        let tt = Tt::new(1);
        let (a, b) = (0x1111_2222_3333_4444u64, 0x1111_2222_3333_4445u64);
        tt.store(a, 5, 10, 4, Bound::Lower, Some(20), false);
        let slot = &tt.bucket(a).words[0];
        let check_a = slot[0].load(Relaxed);
        let data_b = pack(6, 11, 5, Bound::Upper, 0, false);
        slot[0].store(check_a, Relaxed);
        slot[1].store(data_b, Relaxed);
        assert_eq!(tt.probe(a), None);
        assert_eq!(tt.probe(b), None);
    }

    #[test]
    fn mate_scores_are_adjusted_by_ply() {
        let tt = Tt::new(1);
        // Found at ply 5: mate 3 plies below the node => MATE - 8 at the root.
        let s = mate_in(8);
        tt.store(7, 1, to_tt(s, 5), 4, Bound::Exact, None, false);
        let e = tt.probe(7).unwrap();
        assert_eq!(e.score, mate_in(3));
        // Loaded at ply 2: the same mate is 3 plies below, so 5 from the root.
        assert_eq!(from_tt(e.score, 2), mate_in(5));
        let l = mated_in(9);
        assert_eq!(from_tt(to_tt(l, 4), 6), mated_in(11));
        assert_eq!(from_tt(to_tt(123, 4), 60), 123);
    }

    #[test]
    fn sizes() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        let mut tt = Tt::new(2);
        assert_eq!(tt.size_mb(), 2);
        tt.resize(4);
        assert_eq!(tt.size_mb(), 4);
    }
}
