//! What every handler and every game's driver shares: the engine processes and their places,
//! the games' writer, the variants as the engine describes them, the stop signal and the
//! server's own measurements.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;

use super::engines::Engines;
use super::record::{GameState, Held};
use super::store::Writer;
use crate::client::{DiagramDesc, VariantDesc};

/// Figures the server measures about itself (`GET /api/metrics`).
#[derive(Default, Debug)]
pub struct Metrics {
    /// Microseconds from a move's request arriving to the engine's `go` line being written,
    /// for the last moves (at most 1000).
    pub move_to_go_us: Vec<u64>,
}

impl Metrics {
    /// Records one move-to-`go` latency.
    pub fn record_move_to_go(&mut self, d: Duration) {
        if self.move_to_go_us.len() >= 1000 {
            self.move_to_go_us.remove(0);
        }
        self.move_to_go_us.push(d.as_micros() as u64);
    }
}

/// What every handler and driver shares.
pub struct Ctx {
    /// The engine processes: the search places and the shared query engines.
    pub engines: Engines,
    /// Where games are saved.
    pub games_dir: PathBuf,
    /// The thread that writes the game files.
    pub writer: Writer,
    /// The variants, as the engine describes them.
    pub variants: Vec<VariantDesc>,
    /// `UCI_Elo`'s range, if the engine has the option.
    pub elo_range: Option<(u32, u32)>,
    /// Becomes true when the server stops.
    pub shutdown: watch::Receiver<bool>,
    /// Measured latencies.
    pub metrics: Mutex<Metrics>,
    /// The diagrams answered so far, by `variant/code/square` (they never change).
    pub diagrams: Mutex<ahash::AHashMap<String, DiagramDesc>>,
    /// The access token the seats' links carry, when the server asks for one (set once the
    /// server listens).
    pub link_token: std::sync::OnceLock<String>,
    /// The event streams open now (`GET /api/games/{id}/events`), at most [`MAX_STREAMS`].
    pub streams: Arc<std::sync::atomic::AtomicUsize>,
    /// The games' driver tasks running now (`drivers` of `GET /api/metrics`): one per game
    /// the server holds, none for a game whose setup failed.
    pub drivers: std::sync::atomic::AtomicUsize,
}

/// The most event streams open at once; one more gets `429`.
pub const MAX_STREAMS: usize = 256;

/// One open event stream, counted in [`Ctx::streams`] until it is dropped.
pub struct StreamSlot(Arc<std::sync::atomic::AtomicUsize>);

impl StreamSlot {
    /// Counts one more stream, or `None` when [`MAX_STREAMS`] are open.
    pub fn take(count: &Arc<std::sync::atomic::AtomicUsize>) -> Option<StreamSlot> {
        use std::sync::atomic::Ordering;
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < MAX_STREAMS).then_some(n + 1)
            })
            .ok()
            .map(|_| StreamSlot(Arc::clone(count)))
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

impl Ctx {
    /// The description of variant `name` (its `UCI_Variant` name).
    pub fn variant(&self, name: &str) -> Option<&VariantDesc> {
        self.variants.iter().find(|v| v.name == name)
    }

    /// A game's state JSON with what the server adds: `save_error`, why game files are not
    /// on the disk yet (`null` when they all are).
    pub fn state_json(&self, mut v: serde_json::Value) -> serde_json::Value {
        if let Some(o) = v.as_object_mut() {
            o.insert("save_error".into(), serde_json::json!(self.writer.error()));
        }
        v
    }

    /// The links of a game's seats (docs/gui.md "Seats"): `{"white": url|null, "black":
    /// url|null, "watch": url}` for the colours `held` opens, addresses relative to the
    /// server, carrying the access token where there is one.
    pub fn seat_links(&self, st: &GameState, held: Held) -> serde_json::Value {
        let token = self
            .link_token
            .get()
            .map(|t| format!("token={t}"))
            .unwrap_or_default();
        let link = |secret: Option<&str>| {
            let mut query: Vec<String> = secret.map(|s| format!("seat={s}")).into_iter().collect();
            if !token.is_empty() {
                query.push(token.clone());
            }
            if query.is_empty() {
                format!("/game/{}", st.id)
            } else {
                format!("/game/{}?{}", st.id, query.join("&"))
            }
        };
        let seat = |i: usize| {
            st.seats[i]
                .as_deref()
                .filter(|_| held[i])
                .map(|s| link(Some(s)))
        };
        serde_json::json!({"white": seat(0), "black": seat(1), "watch": link(None)})
    }

    /// The diagrams answered so far (a poisoned lock is taken as it is: the map holds only
    /// finished answers).
    pub fn lock_diagrams(&self) -> std::sync::MutexGuard<'_, ahash::AHashMap<String, DiagramDesc>> {
        self.diagrams.lock().unwrap_or_else(|p| p.into_inner())
    }
}
