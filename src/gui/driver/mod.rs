//! A game's driver: the task that carries out every change of a game in order, and holds its
//! search engine while it needs one (docs/gui.md "Engines"). This file holds its loop and its
//! inbox; the engine process, the wait for a search place and the searches are in `engine`, setting a game up (its pre-game steps included) in `setup`, the turns and
//! the end of a game in `turns`, the seats and the offers between two people in `seats`, analysis and the evaluation chart in `analysis`.

mod analysis;
mod engine;
mod review;
mod seats;
mod setup;
mod turns;

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{mpsc, OwnedSemaphorePermit};

use super::context::Ctx;
use super::engines::IDLE_RELEASE;
use super::record::{unix_now, Clock, GameState, OfferKind};
use super::slot::{Cmd, Event, Slot};
use super::store;
use crate::client::{AsyncEngine, EngineFault, InfoLine};
use crate::gui::error::ApiError;

pub use review::{DEFAULT_NODES as DEFAULT_REVIEW_NODES, NODES_RANGE as REVIEW_NODES_RANGE};
pub use setup::propose;

/// Creates the slot of `state` and starts its driver on the runtime.
pub fn start(state: GameState, ctx: Arc<Ctx>) -> Arc<Slot> {
    let (slot, rx) = Slot::new(state);
    let driver = Driver {
        slot: Arc::clone(&slot),
        ctx,
        engine: None,
        place: None,
        place_wait: None,
        waiting_since: None,
        strength: None,
        search: None,
        last_info: Vec::new(),
        eval_queue: VecDeque::new(),
        review_job: None,
        last_used: Instant::now(),
        rematch_making: false,
        abandoned: false,
    };
    tokio::spawn(driver.run(rx));
    slot
}

/// What the engine is searching for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Search {
    /// The engine's own turn at this position (turns from the start).
    Move(usize),
    /// An analysis of this position.
    Analysis(usize),
    /// A scoring of this position for the evaluation chart.
    Evaluate(usize),
    /// A review's search of this position.
    Review(usize),
}

impl Search {
    fn ply(self) -> usize {
        match self {
            Search::Move(p) | Search::Analysis(p) | Search::Evaluate(p) | Search::Review(p) => p,
        }
    }
}

/// The engine options set now: `(analysis, multipv)`.
type Strength = (bool, u32);

/// How long a stopped search may take to print its `bestmove`.
const STOP_TIMEOUT: Duration = Duration::from_secs(5);
/// How long past its time a search may go without its `bestmove` before the engine counts as
/// hung and is stopped (or killed and replaced).
const SEARCH_MARGIN: Duration = Duration::from_secs(5);
/// Movetime of one position's scoring for the evaluation chart, milliseconds.
const EVALUATE_MS: u64 = 200;

/// A wait for a search place ([`super::engines::Engines::search_place`]), kept across the
/// loop's turns so that the game keeps its place in the queue.
type PlaceWait = Pin<Box<dyn Future<Output = Result<OwnedSemaphorePermit, EngineFault>> + Send>>;

/// The task that carries out every change of one game in order: the commands of its inbox,
/// the engine's lines while it searches, the clock's flag, the wait for a search place and
/// the release of an idle engine.
struct Driver {
    slot: Arc<Slot>,
    ctx: Arc<Ctx>,
    /// The search engine and its place, while the game has one.
    engine: Option<(AsyncEngine, OwnedSemaphorePermit)>,
    /// A search place got, not yet used by an engine.
    place: Option<OwnedSemaphorePermit>,
    /// The wait for a search place, while every place is in use.
    place_wait: Option<PlaceWait>,
    /// When the wait started, and when the turn that made it arrived (for the metrics).
    waiting_since: Option<Option<Instant>>,
    strength: Option<Strength>,
    search: Option<(Search, Instant)>,
    last_info: Vec<InfoLine>,
    eval_queue: VecDeque<usize>,
    /// The review under way.
    review_job: Option<review::ReviewJob>,
    last_used: Instant,
    /// True from a rematch agreed until the handler reports it made.
    rematch_making: bool,
    /// True once the game's setup failed: the handler has dropped the game, and the task ends.
    abandoned: bool,
}

/// Waits for the next engine line while a search runs, else for ever.
async fn next_engine_line(
    engine: &mut Option<(AsyncEngine, OwnedSemaphorePermit)>,
    searching: bool,
) -> Option<String> {
    match engine {
        Some((e, _)) if searching => e.recv().await,
        _ => std::future::pending().await,
    }
}

/// Waits for the search place asked for, else for ever.
async fn next_place(wait: &mut Option<PlaceWait>) -> Result<OwnedSemaphorePermit, EngineFault> {
    match wait {
        Some(w) => w.as_mut().await,
        None => std::future::pending().await,
    }
}

/// Sleeps until `at`, or for ever.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

impl Driver {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        use std::sync::atomic::Ordering;
        self.ctx.drivers.fetch_add(1, Ordering::Relaxed);
        let mut shutdown = self.ctx.shutdown.clone();
        loop {
            let searching = self.search.is_some();
            let flag_at = {
                let st = self.slot.lock();
                if st.result.is_none() {
                    st.clock.as_ref().and_then(Clock::deadline)
                } else {
                    None
                }
            };
            let search_deadline = self.search_deadline();
            // An idle engine gives its place up after a while, or at once when another game
            // waits for one (registered before the count is read, so no wake is missed).
            let idle = self.engine.is_some() && !searching;
            let ctx = Arc::clone(&self.ctx);
            let wanted = ctx.engines.wanted().notified();
            tokio::pin!(wanted);
            wanted.as_mut().enable();
            let idle_at = idle.then(|| {
                if self.ctx.engines.waiting() > 0 {
                    Instant::now()
                } else {
                    self.last_used + IDLE_RELEASE
                }
            });
            tokio::select! {
                cmd = rx.recv() => {
                    let Some(cmd) = cmd else { break };
                    self.handle(cmd).await;
                    if self.abandoned {
                        break;
                    }
                    self.last_used = Instant::now();
                    self.drop_unneeded_wait();
                }
                line = next_engine_line(&mut self.engine, searching) => {
                    match line {
                        Some(line) => self.on_line(line).await,
                        None => self.engine_died().await,
                    }
                    self.last_used = Instant::now();
                }
                _ = sleep_until(flag_at) => self.flag_fell().await,
                _ = sleep_until(search_deadline) => {
                    // The engine did not answer long after its time: stop it, or replace it.
                    self.stop_search().await;
                    self.resume().await;
                }
                _ = sleep_until(idle_at) => self.release().await,
                _ = &mut wanted, if idle => self.release().await,
                place = next_place(&mut self.place_wait) => self.place_got(place).await,
                _ = shutdown.changed() => break,
            }
        }
        if let Some((e, _)) = self.engine.take() {
            e.quit().await;
        }
        self.ctx.drivers.fetch_sub(1, Ordering::Relaxed);
    }

    /// When a search has run far past its time.
    fn search_deadline(&self) -> Option<Instant> {
        let (s, started) = self.search?;
        let st = self.slot.lock();
        let budget = match s {
            Search::Move(_) => match &st.clock {
                Some(c) => c.left_now(st.to_move()).max(0) as u64 + c.inc_ms,
                None => st.movetime_ms,
            },
            Search::Evaluate(_) => EVALUATE_MS,
            // A review searches nodes, not time: at least 50,000 nodes a second.
            Search::Review(_) => self
                .review_job
                .as_ref()
                .map_or(1000, |j| (j.nodes / 50).max(1000)),
            Search::Analysis(_) => return None,
        };
        Some(started + Duration::from_millis(budget) + SEARCH_MARGIN)
    }

    fn publish(&self, ev: Event) {
        let _ = self.slot.events.send(ev);
    }

    /// Saves the record (through the writer thread: no file is written on the async task)
    /// and sends its state to the page.
    fn changed(&self) -> Value {
        let (value, pgn, id) = {
            let mut st = self.slot.lock();
            st.updated = unix_now();
            (st.json(), store::game_pgn(&st), st.id.clone())
        };
        self.ctx.writer.save(id, pgn);
        let mut value = value;
        if let Some(o) = value.as_object_mut() {
            o.insert(
                "save_error".into(),
                serde_json::json!(self.ctx.writer.error()),
            );
        }
        self.publish(Event::State(value.clone()));
        value
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Init(spec, reply) => {
                let r = self.init(spec).await;
                // A failed setup: the handler drops the game (its 4xx says why), so this task
                // ends rather than wait for commands no one can send.
                self.abandoned = r.is_err();
                let _ = reply.send(r);
                if !self.abandoned {
                    self.resume().await;
                }
            }
            Cmd::Play(token, ply, held, received, reply) => {
                let allowed = seats::may_play(&self.slot.lock(), held, ply);
                // A turn at an earlier position is checked there before anything is dropped.
                let r = match (allowed, ply) {
                    (Err(e), _) => Err(e),
                    (Ok(()), Some(ply)) => match self.legal_at(ply).await {
                        Ok(v)
                            if v["legal"]
                                .as_array()
                                .is_some_and(|l| l.iter().any(|t| t == token.as_str())) =>
                        {
                            self.branch(ply).await
                        }
                        Ok(_) => Err(ApiError::unprocessable(format!(
                            "illegal turn '{token}' at ply {ply}"
                        ))),
                        Err(e) => Err(e),
                    },
                    (Ok(()), None) => Ok(()),
                };
                let r = match r {
                    Ok(()) => self.play_person(&token, held, received).await,
                    Err(e) => Err(e),
                };
                let _ = reply.send(r);
            }
            Cmd::Legal(ply, reply) => {
                let r = self.legal_at(ply).await;
                let _ = reply.send(r);
            }
            Cmd::Offer(kind, held, reply) => {
                let r = match kind {
                    OfferKind::Takeback => self.takeback(held).await,
                    OfferKind::Draw => self.offer_draw(held).await,
                    OfferKind::Rematch => Err(ApiError::unprocessable(
                        "a rematch is asked on its own route",
                    )),
                };
                let _ = reply.send(r);
                self.resume().await;
            }
            Cmd::Decline(kind, held, reply) => {
                let r = self.decline(kind, held).await;
                let _ = reply.send(r);
            }
            Cmd::Rematch(held, reply) => {
                let r = self.rematch(held).await;
                let _ = reply.send(r);
            }
            Cmd::RematchMade(id, reply) => {
                let r = self.rematch_made(id).await;
                let _ = reply.send(r);
            }
            Cmd::Resign(held, reply) => {
                let r = self.resign(held).await;
                let _ = reply.send(r);
            }
            Cmd::Claim(held, reply) => {
                let r = self.claim(held).await;
                let _ = reply.send(r);
            }
            Cmd::Preview(portions, reply) => {
                let r = self.preview(&portions).await;
                let _ = reply.send(r);
            }
            Cmd::Analysis(what, held, reply) => {
                let allowed = seats::may_analyse(&self.slot.lock(), held);
                let r = match allowed {
                    Ok(()) => self.analysis(what).await,
                    Err(e) => Err(e),
                };
                let _ = reply.send(r);
            }
            Cmd::Review(nodes, held, reply) => {
                let allowed = seats::may_analyse(&self.slot.lock(), held);
                let r = match allowed {
                    Ok(()) => self.review(nodes).await,
                    Err(e) => Err(e),
                };
                let _ = reply.send(r);
            }
            Cmd::Evaluate(held, reply) => {
                let allowed = seats::may_analyse(&self.slot.lock(), held);
                let r = match allowed {
                    Ok(()) => self.evaluate().await,
                    Err(e) => Err(e),
                };
                let _ = reply.send(r);
            }
        }
    }
}
