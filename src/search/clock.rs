//! The search's time source. The search reads the time only through a [`Clock`]: the real one
//! by default ([`RealClock`]), a clock that tests set by hand ([`ManualClock`]) or one that
//! moves on by a fixed step each time it is read ([`TickingClock`]: with one thread, the time
//! then depends only on the nodes searched, so timed searches are reproducible).

use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::LazyLock;
use std::time::Instant;

/// A monotonic source of milliseconds for the search's time management and reports.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Milliseconds since an origin fixed for this clock (never decreasing).
    fn now_ms(&self) -> u64;
}

/// The machine's monotonic clock.
#[derive(Copy, Clone, Debug, Default)]
pub struct RealClock;

/// The origin of [`RealClock`]: the first time any search read it.
static ORIGIN: LazyLock<Instant> = LazyLock::new(Instant::now);

impl Clock for RealClock {
    #[inline]
    fn now_ms(&self) -> u64 {
        ORIGIN.elapsed().as_millis() as u64
    }
}

/// A clock that only moves when told to ([`ManualClock::advance`]), for tests.
#[derive(Debug, Default)]
pub struct ManualClock {
    ms: AtomicU64,
}

impl ManualClock {
    /// A clock standing at 0 ms.
    pub fn new() -> ManualClock {
        ManualClock::default()
    }

    /// Moves the clock `ms` milliseconds on.
    pub fn advance(&self, ms: u64) {
        self.ms.fetch_add(ms, SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.ms.load(SeqCst)
    }
}

/// A clock that moves `step` milliseconds on each time it is read, for reproducible timed
/// searches: the main search thread reads it every 256 nodes.
#[derive(Debug)]
pub struct TickingClock {
    ms: AtomicU64,
    step: u64,
}

impl TickingClock {
    /// A clock at 0 ms moving `step` ms per reading.
    pub fn new(step: u64) -> TickingClock {
        TickingClock {
            ms: AtomicU64::new(0),
            step,
        }
    }
}

impl Clock for TickingClock {
    fn now_ms(&self) -> u64 {
        self.ms.fetch_add(self.step, SeqCst)
    }
}
