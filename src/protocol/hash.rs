//! The protocol's transposition table and its preparation (protocol.md 2, `Hash`): a table is
//! allocated lazily ([`Tt::new`]), so each new one has every page touched on a background
//! thread ([`Tt::prefault`], with the `Threads` count of threads) and `ucinewgame` or
//! `Clear Hash` empty it in place the same way ([`Tt::clear_with_threads`]). `isready` and
//! every search or variant command wait for that work ([`HashTable::ready`]), so no search
//! pays for the first touch of a page and the cost shows at `isready`, as in Stockfish.

use std::sync::Arc;
use std::thread::JoinHandle;

use crate::search::Tt;

/// The session's table, with the background job that prepares it.
pub struct HashTable {
    tt: Arc<Tt>,
    /// Touching or emptying `tt` in the background, until [`HashTable::ready`] joins it.
    prepare: Option<JoinHandle<()>>,
}

impl HashTable {
    /// A table of `mb` MiB (see [`Tt::new`] for what happens when the memory is short), its
    /// pages touched by `threads` threads in the background.
    pub fn new(mb: usize, threads: usize) -> HashTable {
        let mut table = HashTable {
            tt: Arc::new(Tt::new(mb)),
            prepare: None,
        };
        table.start(threads, Tt::prefault);
        table
    }

    /// Waits until the table is prepared (every page touched, or emptied), then returns it.
    pub fn ready(&mut self) -> &Arc<Tt> {
        if let Some(job) = self.prepare.take() {
            // A panic of the job (none is known) leaves a usable table: lazily mapped pages.
            let _ = job.join();
        }
        &self.tt
    }

    /// Replaces the table by a new one of `mb` MiB, touched in the background by `threads`
    /// threads. A search still using the old table keeps it to its end; the old table is freed
    /// on another thread (freeing gigabytes of touched pages takes time).
    pub fn resize(&mut self, mb: usize, threads: usize) {
        self.ready();
        let old = std::mem::replace(&mut self.tt, Arc::new(Tt::new(mb)));
        drop_in_background(old);
        self.start(threads, Tt::prefault);
    }

    /// Empties the table (`ucinewgame`, `Clear Hash`, a new variant) in place, with `threads`
    /// threads in the background: no new allocation, and its pages stay in memory. When a
    /// search or variant command still holds the table, it gets a fresh one instead (a
    /// running search keeps its own table to the end).
    pub fn clear(&mut self, threads: usize) {
        self.ready();
        if Arc::strong_count(&self.tt) > 1 {
            let mb = self.size_mb();
            self.resize(mb, threads);
        } else {
            self.start(threads, Tt::clear_with_threads);
        }
    }

    /// The table's size in MiB (what [`Tt::new`] could allocate).
    pub fn size_mb(&self) -> usize {
        self.tt.size_mb().max(1)
    }

    /// Runs `work(tt, threads)` on a background thread (on this one when no thread can be
    /// made).
    fn start(&mut self, threads: usize, work: fn(&Tt, usize)) {
        let tt = self.tt.clone();
        let job = std::thread::Builder::new()
            .name("tt-prepare".into())
            .spawn(move || work(&tt, threads));
        match job {
            Ok(handle) => self.prepare = Some(handle),
            Err(_) => work(&self.tt, threads),
        }
    }
}

impl Drop for HashTable {
    fn drop(&mut self) {
        self.ready();
        let tt = std::mem::replace(&mut self.tt, Arc::new(Tt::new(1)));
        drop_in_background(tt);
    }
}

/// Drops `tt` on a short-lived thread: freeing a large table that has been touched takes time
/// the protocol loop must not spend. Dropped here when no thread can be made.
fn drop_in_background(tt: Arc<Tt>) {
    let _ = std::thread::Builder::new()
        .name("tt-free".into())
        .spawn(move || drop(tt));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new table (start-up, `Hash`) has every page in memory once it is
    /// ready, so the search never pays the first touch; `ucinewgame` and `Clear Hash` empty
    /// the same memory instead of mapping a new table.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_ready_table_is_fully_faulted_and_cleared_in_place() {
        // A fresh lazily mapped table is not in memory (the check can fail).
        let lazy = Tt::new(64);
        assert!(lazy.resident_fraction().unwrap() < 0.5);
        let mut table = HashTable::new(64, 2);
        assert_eq!(table.ready().resident_fraction(), Some(1.0));
        table.resize(96, 3);
        assert_eq!(table.size_mb(), 96);
        assert_eq!(table.ready().resident_fraction(), Some(1.0));
        let tt = table.ready().clone();
        tt.store(42, 7, 1, 3, crate::search::tt::Bound::Exact, None, false);
        assert!(tt.probe(42).is_some());
        let before = Arc::as_ptr(&tt);
        drop(tt);
        table.clear(2);
        // Emptied in place: the same table, still in memory.
        let tt = table.ready();
        assert!(std::ptr::eq(Arc::as_ptr(tt), before));
        assert!(tt.probe(42).is_none());
        assert_eq!(tt.resident_fraction(), Some(1.0));
        // A table a search still holds is left to it: the session gets a new one.
        let held = tt.clone();
        held.store(43, 7, 1, 3, crate::search::tt::Bound::Exact, None, false);
        table.clear(1);
        assert!(!Arc::ptr_eq(table.ready(), &held));
        assert!(held.probe(43).is_some() && table.ready().probe(43).is_none());
        assert_eq!(table.ready().resident_fraction(), Some(1.0));
    }
}
