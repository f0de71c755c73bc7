//! The server's engine processes (docs/gui.md "Engines"). Two kinds:
//!
//! - **Search places**: at most `--max-engines` processes search at once. A game's driver
//!   takes a place ([`Engines::search_place`]) when its engine must think (its own turn, an
//!   analysis, the evaluation chart, a muster), keeps its process between searches, and gives
//!   the place up when it has been idle [`IDLE_RELEASE`], or at once when another game is
//!   waiting for one ([`Engines::wanted`]).
//! - **Query engines**: [`QUERY_ENGINES`] processes shared by every game and handler, for the
//!   questions that hold no state between requests (`position` with `d`, `moves`, `result`,
//!   `notation`, `setup`, `diagram`, `variant`). A query never waits for a search place, so a
//!   game that is not searching needs no process of its own.
//!
//! An engine that does not answer a query within [`QUERY_TIMEOUT`](crate::client::QUERY_TIMEOUT) (its `readyok`) counts as
//! hung: its process is killed and a new one asked once more.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use crate::client::{AsyncEngine, EngineFault};

/// The query engines shared by every game: one per core of the machines the server is
/// written for; a query takes milliseconds.
pub const QUERY_ENGINES: usize = 2;

/// The niceness added to search engines' processes (as `nice -n 5`): a search runs for its
/// time whatever it gets, so it yields the processor to the queries and answers that people
/// wait on. Query engines run at the server's own priority.
pub const SEARCH_NICENESS: i32 = 5;

/// How long a driver keeps its search engine after a search when no game is waiting for a
/// place, before the process ends and the place is freed.
pub const IDLE_RELEASE: Duration = Duration::from_secs(20);

/// Every engine process of the server, and the places of those that search.
pub struct Engines {
    program: PathBuf,
    /// One permit per search place (`--max-engines`).
    places: Arc<Semaphore>,
    /// The drivers (and handlers) waiting for a search place now.
    waiting: AtomicUsize,
    /// Woken when one starts to wait: drivers holding an idle engine give its place up.
    wanted: Notify,
    /// One permit per query engine that may run.
    queries: Semaphore,
    /// The query engines not in use, each with the variant it has selected.
    idle: Mutex<Vec<AsyncEngine>>,
    /// Query engines killed because they did not answer in time, or died.
    restarts: AtomicUsize,
}

/// A driver's wait for a search place: counted in [`Engines::waiting`] until it is dropped.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Engines {
    /// The engines of `program`, with `places` search places (at least one); `first` (the
    /// process that described the variants) becomes the first query engine.
    pub fn new(program: PathBuf, places: usize, first: Option<AsyncEngine>) -> Engines {
        Engines {
            program,
            places: Arc::new(Semaphore::new(places.max(1))),
            waiting: AtomicUsize::new(0),
            wanted: Notify::new(),
            queries: Semaphore::new(QUERY_ENGINES),
            idle: Mutex::new(first.into_iter().collect()),
            restarts: AtomicUsize::new(0),
        }
    }

    /// The engine program.
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// The search places free now.
    pub fn free_places(&self) -> usize {
        self.places.available_permits()
    }

    /// The drivers and handlers waiting for a search place now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Acquire)
    }

    /// Query engines restarted so far because they hung or died.
    pub fn restarts(&self) -> usize {
        self.restarts.load(Ordering::Acquire)
    }

    /// Woken each time a driver or handler starts to wait for a search place (register with
    /// `enable` before reading [`Engines::waiting`], so that no wake is missed).
    pub fn wanted(&self) -> &Notify {
        &self.wanted
    }

    /// A search place if one is free now.
    pub fn try_place(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.places).try_acquire_owned().ok()
    }

    /// Waits for a search place, first asking the drivers that hold an idle engine to give
    /// theirs up. Places are given in the order asked.
    ///
    /// Errors: when the server is stopping (the semaphore is closed).
    pub async fn search_place(&self) -> Result<OwnedSemaphorePermit, EngineFault> {
        if let Some(p) = self.try_place() {
            return Ok(p);
        }
        self.waiting.fetch_add(1, Ordering::AcqRel);
        let _counted = Waiting(&self.waiting);
        self.wanted.notify_waiters();
        Arc::clone(&self.places)
            .acquire_owned()
            .await
            .map_err(|_| EngineFault::Spawn("the server is stopping".into()))
    }

    /// Asks a query engine `commands` with `variant` selected, then `isready`, and returns the
    /// lines printed before `readyok`. With `ok`, an `info string error` line fails the query
    /// ([`EngineFault::Refused`]). An engine that dies or gives no `readyok` within
    /// [`QUERY_TIMEOUT`](crate::client::QUERY_TIMEOUT) is killed and the query asked once more of a new process.
    ///
    /// Errors: [`EngineFault::Refused`] with the engine's reason; the fault of the second
    /// process when both fail.
    pub async fn query(
        &self,
        variant: &str,
        commands: &[String],
        ok: bool,
    ) -> Result<Vec<String>, EngineFault> {
        let _turn = self
            .queries
            .acquire()
            .await
            .map_err(|_| EngineFault::Spawn("the server is stopping".into()))?;
        let mut engine = self.take_idle(variant);
        let mut last = EngineFault::Refused("the engine did not answer".into());
        for _ in 0..2 {
            let mut e = match engine.take() {
                Some(e) => e,
                None => AsyncEngine::spawn(&self.program).await?,
            };
            let answer = match e.select(variant).await {
                Ok(()) if ok => e.query_ok(commands).await,
                Ok(()) => e.query(commands).await,
                Err(f) => Err(f),
            };
            match answer {
                Ok(lines) => {
                    self.put_idle(e);
                    return Ok(lines);
                }
                Err(EngineFault::Refused(why)) => {
                    self.put_idle(e);
                    return Err(EngineFault::Refused(why));
                }
                Err(fault) => {
                    // Hung or dead: the process is killed when dropped.
                    self.restarts.fetch_add(1, Ordering::AcqRel);
                    eprintln!(
                        "menagerie gui: a query engine failed ({fault}); it was killed and a new one started"
                    );
                    drop(e);
                    last = fault;
                }
            }
        }
        Err(last)
    }

    /// An idle query engine, one with `variant` selected if there is one.
    fn take_idle(&self, variant: &str) -> Option<AsyncEngine> {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        let i = idle
            .iter()
            .position(|e| e.selected.as_deref() == Some(variant))
            .or_else(|| (!idle.is_empty()).then_some(0))?;
        Some(idle.swap_remove(i))
    }

    fn put_idle(&self, e: AsyncEngine) {
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).push(e);
    }

    /// Ends the idle query engines and refuses new places (the server stops).
    pub async fn close(&self) {
        self.places.close();
        self.queries.close();
        let idle: Vec<AsyncEngine> =
            std::mem::take(&mut *self.idle.lock().unwrap_or_else(|p| p.into_inner()));
        for e in idle {
            e.quit().await;
        }
    }
}
