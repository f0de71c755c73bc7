//! A game as the server holds it: its record behind a lock, the inbox of its driver (the
//! commands the API sends it, each with its answer's channel) and its event stream.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::Deserialize;
use serde_json::Value;
use tokio::sync::{broadcast, mpsc, oneshot};

use super::error::ApiError;
use super::record::{Colour, GameState, Held, OfferKind};

/// An event of a game's stream (`GET /api/games/{id}/events`).
#[derive(Clone, Debug)]
pub enum Event {
    /// The whole state after a change.
    State(Value),
    /// An engine line with a score.
    Info(Value),
    /// The end of a search.
    BestMove(Value),
    /// A review's progress (`{"done", "total"}`), its end (`"finished": true`) or its
    /// cancellation (`"cancelled": true`).
    Review(Value),
}

/// What a game's driver is asked to do. Each carries the channel of its answer.
pub enum Cmd {
    /// Set the game up (start position from a FEN, a seed or armies) or replay a loaded
    /// record, then let the engine move if it is its turn.
    Init(StartSpec, oneshot::Sender<Result<Value, ApiError>>),
    /// Play a turn of the person; `Instant` is when the request arrived. With a ply (games
    /// without the engine only), the turn is played at that earlier position and the turns
    /// after it are dropped (a new line of an analysis).
    /// `Held` is what the request's seats open (docs/gui.md "Seats"), as for the commands
    /// below that carry it.
    Play(
        String,
        Option<usize>,
        Held,
        Instant,
        oneshot::Sender<Result<Value, ApiError>>,
    ),
    /// The legal turns (and their notation) of the position after this many turns.
    Legal(usize, oneshot::Sender<Result<Value, ApiError>>),
    /// Offer a draw or a takeback, or accept the other side's: at once where one page holds
    /// every person's seat (against the engine, or both sides on one device).
    Offer(OfferKind, Held, oneshot::Sender<Result<Value, ApiError>>),
    /// Decline the other side's offer, or withdraw one's own.
    Decline(OfferKind, Held, oneshot::Sender<Result<Value, ApiError>>),
    /// Offer a rematch, or accept one: answers `true` when it is to be made (the handler
    /// makes it and reports it with `RematchMade`), `false` when only offered.
    Rematch(Held, oneshot::Sender<Result<bool, ApiError>>),
    /// The rematch was made (its id), or could not be (`None`).
    RematchMade(Option<String>, oneshot::Sender<Result<Value, ApiError>>),
    /// The seat's side resigns (the side to move where the page holds both).
    Resign(Held, oneshot::Sender<Result<Value, ApiError>>),
    /// Claim the claimable draw.
    Claim(Held, oneshot::Sender<Result<Value, ApiError>>),
    /// The FEN after the first portions of a turn.
    Preview(
        Vec<String>,
        oneshot::Sender<Result<Option<String>, ApiError>>,
    ),
    /// Start (`Some((ply, multipv))`) or stop (`None`) the analysis.
    Analysis(
        Option<(Option<usize>, u32)>,
        Held,
        oneshot::Sender<Result<Value, ApiError>>,
    ),
    /// Score every position of the game.
    Evaluate(Held, oneshot::Sender<Result<Value, ApiError>>),
    /// Review the game with this many nodes a position (`None`: cancel the review under way).
    Review(Option<u64>, Held, oneshot::Sender<Result<Value, ApiError>>),
}

/// How a new game starts.
#[derive(Clone, Debug, Default)]
pub struct StartSpec {
    /// A FEN given by the person.
    pub fen: Option<String>,
    /// The seed of a random setup (variants with the `seed` pregame).
    pub seed: Option<u64>,
    /// The muster (variants with the `army` pregame).
    pub army: Option<ArmySpec>,
}

/// The muster of a new game (rules/muster.md 3, docs/gui.md "Muster armies").
#[derive(Clone, Debug, Deserialize)]
pub struct ArmySpec {
    /// Against the engine: the colour whose army the person builds.
    pub build: Option<Colour>,
    /// Against the engine: the person's army (half-FEN).
    pub half: Option<String>,
    /// Against the engine: the person's pick.
    pub pick: Option<Colour>,
    /// Two people: White's army (half-FEN).
    pub white: Option<String>,
    /// Two people: Black's army (half-FEN).
    pub black: Option<String>,
    /// Two people: the picks of the builder of White's army and of Black's.
    pub picks: Option<[Colour; 2]>,
    /// The engine's army, when the page already asked for it (`POST /api/muster/propose`).
    pub engine_half: Option<String>,
}

/// One game: its record, its driver's inbox and its event stream.
pub struct Slot {
    /// The game's id.
    pub id: String,
    /// The record.
    pub state: Mutex<GameState>,
    /// The driver's inbox.
    pub tx: mpsc::Sender<Cmd>,
    /// The event stream.
    pub events: broadcast::Sender<Event>,
}

impl Slot {
    /// The slot of `state`, and the inbox its driver reads ([`super::driver::start`]
    /// starts both).
    pub fn new(state: GameState) -> (Arc<Slot>, mpsc::Receiver<Cmd>) {
        let (tx, rx) = mpsc::channel(64);
        let (events, _) = broadcast::channel(256);
        let slot = Arc::new(Slot {
            id: state.id.clone(),
            state: Mutex::new(state),
            tx,
            events,
        });
        (slot, rx)
    }

    /// A copy of the state as JSON.
    pub fn json(&self) -> Value {
        self.lock().json()
    }

    /// The record, locked.
    pub fn lock(&self) -> std::sync::MutexGuard<'_, GameState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sends `cmd` (built around a fresh answer channel) to the driver and waits for the
    /// answer.
    ///
    /// Errors: the driver's answer, or 503 when the driver is gone.
    pub async fn ask<T>(
        &self,
        cmd: impl FnOnce(oneshot::Sender<Result<T, ApiError>>) -> Cmd,
    ) -> Result<T, ApiError> {
        let (tx, rx) = oneshot::channel();
        let gone = || ApiError {
            status: 503,
            message: "the game's driver stopped".into(),
        };
        self.tx.send(cmd(tx)).await.map_err(|_| gone())?;
        rx.await.map_err(|_| gone())?
    }
}
