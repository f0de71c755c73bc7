//! `menagerie bench`: a fixed-depth search over fixed positions. STUB: being written.

/// What a bench run measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Total nodes searched over all positions (deterministic for one thread).
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
}

/// Searches the bench positions of orthodox chess to `depth` plies with `threads` threads and a
/// `hash_mb` MiB TT (cleared between positions), returning total nodes and time.
pub fn run(depth: u32, threads: usize, hash_mb: usize) -> BenchReport {
    let _ = (depth, threads, hash_mb);
    BenchReport {
        nodes: 0,
        time_ms: 0,
    }
}
