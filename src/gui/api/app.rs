//! The server's state as the handlers see it ([`App`]: the shared context and the games), and
//! the small helpers every handler uses: reading a JSON body, echoing input in an error, new
//! ids and random numbers.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::Json;

use crate::client::VariantDesc;
use crate::gui::context::Ctx;
use crate::gui::error::ApiError;
use crate::gui::slot::{Cmd, Slot, StartSpec};
use crate::gui::store;

/// The server's state.
#[derive(Clone)]
pub struct App {
    /// What the handlers and drivers share.
    pub ctx: Arc<Ctx>,
    /// The games by id.
    pub games: Arc<RwLock<HashMap<String, Arc<Slot>>>>,
}

impl App {
    /// The slot of game `id`, as it is (loaded games not yet replayed).
    pub fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if !store::valid_id(id) {
            return Err(ApiError::not_found(format!("no game '{}'", clean(id))));
        }
        self.games
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no game '{id}'")))
    }

    /// The slot of game `id`, replayed through the engine if it was only loaded.
    pub async fn open(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let slot = self.slot(id)?;
        if !slot.lock().restored {
            slot.ask(|r| Cmd::Init(StartSpec::default(), r)).await?;
        }
        Ok(slot)
    }

    /// The description of variant `name`.
    pub fn variant(&self, name: &str) -> Option<&VariantDesc> {
        self.ctx.variant(name)
    }

    /// Adds a game.
    pub fn insert(&self, slot: Arc<Slot>) {
        self.games
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(slot.id.clone(), slot);
    }

    /// Drops a game (one that could not be set up).
    pub fn remove(&self, id: &str) {
        self.games
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
    }
}

/// A short, printable echo of user input in an error message.
pub fn clean(s: &str) -> String {
    let t: String = s
        .chars()
        .take(60)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if s.chars().count() > 60 {
        format!("{t}...")
    } else {
        t
    }
}

/// A JSON body, or a 4xx with a JSON error.
pub fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    match b {
        Ok(Json(v)) => Ok(v),
        Err(JsonRejection::BytesRejection(e)) => Err(ApiError {
            status: e.status().as_u16(),
            message: format!("cannot read the body: {}", e.body_text()),
        }),
        Err(e) => Err(ApiError {
            status: if e.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE {
                415
            } else {
                400
            },
            message: format!("bad JSON: {}", e.body_text()),
        }),
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// A random number (ahash's randomly keyed hasher over a counter): the colour of a random
/// side, and the seed of a random setup when the person gives none.
pub fn random_u64() -> u64 {
    ahash::RandomState::new().hash_one(NEXT_ID.fetch_add(1, Ordering::Relaxed))
}

/// A new game id: the UTC time to the second, then five hex digits.
///
/// The digits are the process's id counter through a bijection of its low 20 bits (times an odd
/// number, then a key drawn once per process), so no two ids this process makes within
/// 2^20 games of each other are alike, whatever the clock says. Ids of games loaded from disk
/// were made by another process, under another key: one of them is alike only by a one in 2^20
/// chance, and only if made in the same second.
pub fn new_id() -> String {
    static KEY: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let key = *KEY.get_or_init(|| ahash::RandomState::new().hash_one(0u64));
    let now = time::OffsetDateTime::now_utc();
    let n = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let mix = (n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ key) & 0xf_ffff;
    format!(
        "{:04}{:02}{:02}-{:02}{:02}{:02}-{mix:05x}",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute(),
        now.second(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Many games made at once (the load test makes 50 in its first second) never share an id:
    /// two games under one id would overwrite each other's record and seats.
    #[test]
    fn ids_made_together_are_all_different() {
        let ids: std::collections::HashSet<String> = (0..200_000).map(|_| new_id()).collect();
        assert_eq!(ids.len(), 200_000);
        assert!(ids.iter().all(|id| store::valid_id(id) && id.len() == 21));
    }
}
