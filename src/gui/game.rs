//! One game of the GUI: its record (variant, start, turns, clocks, result), the state the API
//! returns (docs/gui.md), and its driver, the task that owns the game's engine process and
//! carries out every change in order.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc, oneshot, OwnedSemaphorePermit};

use super::engine::{
    parse_bestmove, parse_info, parse_report, report_commands, Engine, EngineError, InfoLine,
    PositionReport, ScoreValue,
};
use super::store;
use super::Ctx;
use crate::variants::turn::normalize_pgn;

/// An error of the API: an HTTP status and a reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (4xx for the client's mistakes, 5xx for the engine's).
    pub status: u16,
    /// What went wrong, for the `error` field.
    pub message: String,
}

impl ApiError {
    /// `422`: a request that is well formed but cannot be carried out (an illegal turn).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 422,
            message: message.into(),
        }
    }

    /// `400`: a malformed request.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            message: message.into(),
        }
    }

    /// `404`: no such game or page.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 404,
            message: message.into(),
        }
    }

    /// `503`: the engine failed.
    pub fn engine(e: &EngineError) -> ApiError {
        match e {
            EngineError::Refused(why) => ApiError::unprocessable(why.clone()),
            other => ApiError {
                status: 503,
                message: other.to_string(),
            },
        }
    }
}

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// `white` or `black`.
    pub fn word(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }

    /// The side to move of a FEN (its second field, `w` or `b`).
    pub fn to_move(fen: &str) -> Colour {
        match fen.split_whitespace().nth(1) {
            Some("b") => Colour::Black,
            _ => Colour::White,
        }
    }

    /// The result in which this colour wins.
    pub fn wins(self) -> &'static str {
        match self {
            Colour::White => "1-0",
            Colour::Black => "0-1",
        }
    }
}

/// A clock for both sides: base and increment, and the time each side has left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Each side's time at the start, milliseconds.
    pub base_ms: u64,
    /// Added after each turn, milliseconds.
    pub inc_ms: u64,
    /// Time left, milliseconds, at the moment `since` (for the running side).
    pub left_ms: [i64; 2],
    /// The side whose clock runs, and since when.
    pub running: Option<(Colour, Instant)>,
}

impl Clock {
    fn idx(c: Colour) -> usize {
        match c {
            Colour::White => 0,
            Colour::Black => 1,
        }
    }

    /// The time `c` has left now, milliseconds (negative once the flag fell).
    pub fn left_now(&self, c: Colour) -> i64 {
        let mut t = self.left_ms[Self::idx(c)];
        if let Some((r, since)) = self.running {
            if r == c {
                t -= since.elapsed().as_millis() as i64;
            }
        }
        t
    }

    /// Stops `mover`'s clock after its turn, adds the increment and starts the other's.
    /// Returns the milliseconds the turn took.
    pub fn press(&mut self, mover: Colour) -> u64 {
        let spent = match self.running {
            Some((r, since)) if r == mover => since.elapsed().as_millis() as u64,
            _ => 0,
        };
        let i = Self::idx(mover);
        self.left_ms[i] = self.left_ms[i] - spent as i64 + self.inc_ms as i64;
        self.running = Some((mover.other(), Instant::now()));
        spent
    }

    /// When the running side's flag falls.
    pub fn deadline(&self) -> Option<Instant> {
        let (r, since) = self.running?;
        let left = self.left_ms[Self::idx(r)].max(0) as u64;
        Some(since + Duration::from_millis(left))
    }

    fn json(&self) -> Value {
        json!({
            "base_ms": self.base_ms,
            "inc_ms": self.inc_ms,
            "white_ms": self.left_now(Colour::White).max(0),
            "black_ms": self.left_now(Colour::Black).max(0),
            "running": self.running.map(|(c, _)| c.word()),
        })
    }
}

/// The engine's score of a position, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Eval {
    /// The score.
    #[serde(flatten)]
    pub score: ScoreValue,
    /// The depth it comes from, plies.
    pub depth: u32,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub score: String,
    /// Why (`checkmate`, `resignation`, `time forfeit`, ...).
    pub reason: String,
}

/// The whole record of one game.
#[derive(Clone, Debug)]
pub struct GameState {
    /// The game's id (also its file name without `.pgn`).
    pub id: String,
    /// The variant's `UCI_Variant` name.
    pub variant: String,
    /// The side the engine plays.
    pub engine: Option<Colour>,
    /// The engine's `Skill Level` (0-20).
    pub level: u8,
    /// `UCI_Elo` when the strength is limited by Elo.
    pub elo: Option<u32>,
    /// The engine's time per turn without a clock, milliseconds.
    pub movetime_ms: u64,
    /// The clock, if the game has one.
    pub clock: Option<Clock>,
    /// The seed of a random setup.
    pub seed: Option<u64>,
    /// The start position.
    pub start_fen: String,
    /// The turns played, tokens.
    pub moves: Vec<String>,
    /// The same turns in PGN notation.
    pub notation: Vec<String>,
    /// The milliseconds each turn took, when known.
    pub times: Vec<Option<u64>>,
    /// The FEN after each number of turns (`fens[0]` is the start).
    pub fens: Vec<String>,
    /// The engine's score of each position, when it has one.
    pub evals: Vec<Option<Eval>>,
    /// What the engine says of the current position.
    pub report: PositionReport,
    /// The end of the game.
    pub result: Option<Outcome>,
    /// True while the engine searches for its turn.
    pub engine_thinking: bool,
    /// True while an analysis runs, with its position (turns from the start) and MultiPV.
    pub analysis: Option<(usize, u32)>,
    /// A message for the player.
    pub notice: Option<String>,
    /// The PGN `Date` tag.
    pub date: String,
    /// Seconds since 1970 of the last change.
    pub updated: u64,
    /// The players' names.
    pub names: [String; 2],
    /// Move words read from a PGN file and not yet replayed through the engine.
    pub pending_words: Vec<String>,
    /// Whether the record has been replayed through the engine since it was loaded.
    pub restored: bool,
}

/// Seconds since 1970.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

impl GameState {
    /// A new game record (not yet set up by the engine).
    pub fn new(id: String, variant: String) -> GameState {
        GameState {
            id,
            variant,
            engine: None,
            level: 20,
            elo: None,
            movetime_ms: 1000,
            clock: None,
            seed: None,
            start_fen: String::new(),
            moves: Vec::new(),
            notation: Vec::new(),
            times: Vec::new(),
            fens: Vec::new(),
            evals: Vec::new(),
            report: PositionReport::default(),
            result: None,
            engine_thinking: false,
            analysis: None,
            notice: None,
            date: crate::tools::pgn::today(),
            updated: unix_now(),
            names: ["Player".into(), "Player".into()],
            pending_words: Vec::new(),
            restored: false,
        }
    }

    /// The side to move now.
    pub fn to_move(&self) -> Colour {
        Colour::to_move(&self.report.fen)
    }

    /// The engine's name in the PGN tags.
    pub fn engine_name(&self) -> String {
        match self.elo {
            Some(elo) => format!("menagerie (Elo {elo})"),
            None => format!("menagerie (level {})", self.level),
        }
    }

    /// The state as `GET /api/games/{id}` returns it (docs/gui.md).
    pub fn json(&self) -> Value {
        let claimable = if self.result.is_none() {
            self.report.claimable.clone()
        } else {
            None
        };
        json!({
            "id": self.id,
            "variant": self.variant,
            "engine": self.engine.map_or("none", Colour::word),
            "white": self.names[0],
            "black": self.names[1],
            "start_fen": self.start_fen,
            "fen": self.report.fen,
            "moves": self.moves,
            "notation": self.notation,
            "fens": self.fens,
            "evals": self.evals,
            "legal": if self.result.is_some() { Vec::new() } else { self.report.legal.clone() },
            "legal_notation": if self.result.is_some() { Vec::new() } else { self.report.legal_notation.clone() },
            "to_move": self.to_move().word(),
            "check": self.report.check,
            "details": self.report.details,
            "result": self.result,
            "claimable": claimable,
            "engine_thinking": self.engine_thinking,
            "analysis": self.analysis.map(|(ply, multipv)| json!({"ply": ply, "multipv": multipv})),
            "notice": self.notice,
            "level": self.level,
            "elo": self.elo,
            "movetime_ms": self.movetime_ms,
            "seed": self.seed,
            "clock": self.clock.as_ref().map(Clock::json),
            "restored": self.restored,
        })
    }

    /// The summary line of `GET /api/games`.
    pub fn summary(&self) -> Value {
        json!({
            "id": self.id,
            "variant": self.variant,
            "white": self.names[0],
            "black": self.names[1],
            "result": self.result.as_ref().map_or("*", |r| r.score.as_str()),
            "plies": self.moves.len() + self.pending_words.len(),
            "updated": self.updated,
        })
    }
}

/// An event of a game's stream (`GET /api/games/{id}/events`).
#[derive(Clone, Debug)]
pub enum Event {
    /// The whole state after a change.
    State(Value),
    /// An engine line with a score.
    Info(Value),
    /// The end of a search.
    BestMove(Value),
}

/// What a game's driver is asked to do. Each carries the channel of its answer.
pub enum Cmd {
    /// Set the game up (start position from a FEN, a seed or armies) or replay a loaded
    /// record, then let the engine move if it is its turn.
    Init(StartSpec, oneshot::Sender<Result<Value, ApiError>>),
    /// Play a turn of the person; `Instant` is when the request arrived. With a ply (games
    /// without the engine only), the turn is played at that earlier position and the turns
    /// after it are dropped (a new line of an analysis).
    Play(
        String,
        Option<usize>,
        Instant,
        oneshot::Sender<Result<Value, ApiError>>,
    ),
    /// The legal turns (and their notation) of the position after this many turns.
    Legal(usize, oneshot::Sender<Result<Value, ApiError>>),
    /// Take back the person's last turn (and the engine's reply).
    Takeback(oneshot::Sender<Result<Value, ApiError>>),
    /// The person (or the side to move) resigns.
    Resign(oneshot::Sender<Result<Value, ApiError>>),
    /// Claim the claimable draw.
    Claim(oneshot::Sender<Result<Value, ApiError>>),
    /// The FEN after the first portions of a turn.
    Preview(
        Vec<String>,
        oneshot::Sender<Result<Option<String>, ApiError>>,
    ),
    /// Start (`Some((ply, multipv))`) or stop (`None`) the analysis.
    Analysis(
        Option<(Option<usize>, u32)>,
        oneshot::Sender<Result<Value, ApiError>>,
    ),
    /// Score every position of the game.
    Evaluate(oneshot::Sender<Result<Value, ApiError>>),
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
    /// Creates the slot of `state` and starts its driver.
    pub fn start(state: GameState, ctx: Arc<Ctx>) -> Arc<Slot> {
        let (tx, rx) = mpsc::channel(64);
        let (events, _) = broadcast::channel(256);
        let slot = Arc::new(Slot {
            id: state.id.clone(),
            state: Mutex::new(state),
            tx,
            events,
        });
        let driver = Driver {
            slot: Arc::clone(&slot),
            ctx,
            engine: None,
            strength: None,
            search: None,
            last_info: Vec::new(),
            eval_queue: VecDeque::new(),
            last_used: Instant::now(),
        };
        tokio::spawn(driver.run(rx));
        slot
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

/// What the engine is searching for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Search {
    /// The engine's own turn at this position (turns from the start).
    Move(usize),
    /// An analysis of this position.
    Analysis(usize),
    /// A scoring of this position for the evaluation chart.
    Evaluate(usize),
}

impl Search {
    fn ply(self) -> usize {
        match self {
            Search::Move(p) | Search::Analysis(p) | Search::Evaluate(p) => p,
        }
    }
}

/// The engine options set now: `(analysis, multipv)`.
type Strength = (bool, u32);

/// How long an idle engine is kept before its process ends and its place is freed.
const IDLE_RELEASE: Duration = Duration::from_secs(20);
/// How long a stopped search may take to print its `bestmove`.
const STOP_TIMEOUT: Duration = Duration::from_secs(5);
/// Movetime of one position's scoring for the evaluation chart, milliseconds.
const EVALUATE_MS: u64 = 200;

struct Driver {
    slot: Arc<Slot>,
    ctx: Arc<Ctx>,
    engine: Option<(Engine, OwnedSemaphorePermit)>,
    strength: Option<Strength>,
    search: Option<(Search, Instant)>,
    last_info: Vec<InfoLine>,
    eval_queue: VecDeque<usize>,
    last_used: Instant,
}

/// Waits for the next engine line while a search runs, else for ever.
async fn next_engine_line(
    engine: &mut Option<(Engine, OwnedSemaphorePermit)>,
    searching: bool,
) -> Option<String> {
    match engine {
        Some((e, _)) if searching => e.recv().await,
        _ => std::future::pending().await,
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
            let idle_at =
                (self.engine.is_some() && !searching).then(|| self.last_used + IDLE_RELEASE);
            tokio::select! {
                cmd = rx.recv() => {
                    let Some(cmd) = cmd else { break };
                    self.handle(cmd).await;
                    self.last_used = Instant::now();
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
                _ = shutdown.changed() => break,
            }
        }
        if let Some((e, _)) = self.engine.take() {
            e.quit().await;
        }
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
            Search::Analysis(_) => return None,
        };
        Some(started + Duration::from_millis(budget) + Duration::from_secs(10))
    }

    fn publish(&self, ev: Event) {
        let _ = self.slot.events.send(ev);
    }

    /// Saves the record and sends its state to the page.
    fn changed(&self) -> Value {
        let (value, pgn, id) = {
            let mut st = self.slot.lock();
            st.updated = unix_now();
            (st.json(), store::game_pgn(&st), st.id.clone())
        };
        if let Err(e) = store::save(&self.ctx.games_dir, &id, &pgn) {
            eprintln!("menagerie gui: cannot save game {id}: {e}");
        }
        self.publish(Event::State(value.clone()));
        value
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Init(spec, reply) => {
                let r = self.init(spec).await;
                let _ = reply.send(r);
                self.resume().await;
            }
            Cmd::Play(token, ply, received, reply) => {
                // A turn at an earlier position is checked there before anything is dropped.
                let r = match ply {
                    Some(ply) => match self.legal_at(ply).await {
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
                    None => Ok(()),
                };
                let r = match r {
                    Ok(()) => self.play_person(&token, received).await,
                    Err(e) => Err(e),
                };
                let _ = reply.send(r);
            }
            Cmd::Legal(ply, reply) => {
                let r = self.legal_at(ply).await;
                let _ = reply.send(r);
            }
            Cmd::Takeback(reply) => {
                let r = self.takeback().await;
                let _ = reply.send(r);
                self.resume().await;
            }
            Cmd::Resign(reply) => {
                let r = self.resign().await;
                let _ = reply.send(r);
            }
            Cmd::Claim(reply) => {
                let r = self.claim().await;
                let _ = reply.send(r);
            }
            Cmd::Preview(portions, reply) => {
                let r = self.preview(&portions).await;
                let _ = reply.send(r);
            }
            Cmd::Analysis(what, reply) => {
                let r = self.analysis(what).await;
                let _ = reply.send(r);
            }
            Cmd::Evaluate(reply) => {
                let r = self.evaluate().await;
                let _ = reply.send(r);
            }
        }
    }

    // -------------------------------------------------------------------------------------
    // The engine process
    // -------------------------------------------------------------------------------------

    /// The game's engine, started (and set to the variant) if needed.
    async fn engine(&mut self) -> Result<&mut Engine, EngineError> {
        if self.engine.is_none() {
            let permit = Arc::clone(&self.ctx.permits)
                .acquire_owned()
                .await
                .map_err(|_| EngineError::Exited)?;
            let mut e = Engine::spawn(&self.ctx.program).await?;
            let variant = self.slot.lock().variant.clone();
            e.select(&variant).await?;
            e.query_ok(&["setoption name UCI_ShowWDL value true".to_string()])
                .await?;
            self.strength = None;
            self.engine = Some((e, permit));
        }
        Ok(&mut self.engine.as_mut().expect("started above").0)
    }

    /// Ends the engine process and frees its place.
    async fn release(&mut self) {
        if let Some((e, _)) = self.engine.take() {
            e.quit().await;
        }
        self.search = None;
    }

    /// Sets the engine's strength for a turn of its own (`analysis` false: the game's level)
    /// or for an analysis (full strength, `multipv` lines).
    async fn set_strength(&mut self, analysis: bool, multipv: u32) -> Result<(), EngineError> {
        if self.strength == Some((analysis, multipv)) {
            return Ok(());
        }
        let (level, elo) = {
            let st = self.slot.lock();
            (st.level, st.elo)
        };
        let mut lines = vec![format!("setoption name MultiPV value {multipv}")];
        match (analysis, elo) {
            (false, Some(elo)) => {
                lines.push("setoption name UCI_LimitStrength value true".into());
                lines.push(format!("setoption name UCI_Elo value {elo}"));
            }
            (false, None) => {
                lines.push("setoption name UCI_LimitStrength value false".into());
                lines.push(format!("setoption name Skill Level value {level}"));
            }
            (true, _) => {
                lines.push("setoption name UCI_LimitStrength value false".into());
                lines.push("setoption name Skill Level value 20".into());
            }
        }
        self.engine().await?.query_ok(&lines).await?;
        self.strength = Some((analysis, multipv));
        Ok(())
    }

    /// The `position` command of the game's position after `ply` turns, followed by `extra`
    /// portions.
    fn position_line(&self, ply: usize, extra: &[String]) -> String {
        let st = self.slot.lock();
        let mut line = format!("position fen {}", st.start_fen);
        let moves: Vec<&str> = st.moves[..ply.min(st.moves.len())]
            .iter()
            .map(String::as_str)
            .chain(extra.iter().map(String::as_str))
            .collect();
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        line
    }

    /// The report of the position `position` names.
    async fn report(&mut self, position: String) -> Result<PositionReport, EngineError> {
        let mut cmds = vec![position];
        cmds.extend(report_commands());
        let lines = self.engine().await?.query_ok(&cmds).await?;
        parse_report(&lines).map_err(EngineError::Refused)
    }

    /// Runs `f` on the engine; when the engine dies or hangs, starts a new one, says so in
    /// the notice, and tries once more.
    async fn with_retry<T, F>(&mut self, mut f: F) -> Result<T, ApiError>
    where
        F: for<'a> FnMut(
            &'a mut Driver,
        ) -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<T, EngineError>> + Send + 'a>,
        >,
    {
        match f(self).await {
            Ok(v) => Ok(v),
            Err(EngineError::Refused(why)) => Err(ApiError::unprocessable(why)),
            Err(_) => {
                self.replace_engine();
                f(self).await.map_err(|e| ApiError::engine(&e))
            }
        }
    }

    /// Drops a dead or hung engine; the next use starts a new one.
    fn replace_engine(&mut self) {
        self.engine = None;
        self.strength = None;
        self.search = None;
        let mut st = self.slot.lock();
        st.engine_thinking = false;
        st.notice = Some(
            "The engine stopped unexpectedly and was restarted; the game was restored from its moves."
                .into(),
        );
    }

    async fn engine_died(&mut self) {
        self.replace_engine();
        self.changed();
        self.resume().await;
    }

    // -------------------------------------------------------------------------------------
    // Setting a game up
    // -------------------------------------------------------------------------------------

    async fn init(&mut self, spec: StartSpec) -> Result<Value, ApiError> {
        let (restored, start_known) = {
            let st = self.slot.lock();
            (st.restored, !st.start_fen.is_empty())
        };
        if restored {
            return Ok(self.slot.json());
        }
        if !start_known {
            let fen = self
                .with_retry(|d| Box::pin(d.start_fen(spec.clone())))
                .await?;
            self.slot.lock().start_fen = fen;
        }
        // The start, then every pending word (a loaded or imported game) through the engine.
        let start = self.position_line(0, &[]);
        let report = self
            .with_retry(|d| Box::pin(d.report(start.clone())))
            .await?;
        let words = {
            let mut st = self.slot.lock();
            st.fens = vec![report.fen.clone()];
            st.evals = vec![None];
            st.moves.clear();
            st.notation.clear();
            st.report = report;
            std::mem::take(&mut st.pending_words)
        };
        for (i, word) in words.iter().enumerate() {
            let token = {
                let st = self.slot.lock();
                resolve_word(&st.report, word)
            };
            let Some(token) = token else {
                let mut st = self.slot.lock();
                st.notice = Some(format!(
                    "The record's turn {} '{word}' is not legal here; the game stops before it.",
                    i + 1
                ));
                break;
            };
            let time = self.slot.lock().times.get(i).copied().flatten();
            self.apply(&token, time).await?;
        }
        {
            let mut st = self.slot.lock();
            let n = st.moves.len();
            st.times.resize(n, None);
            st.restored = true;
            if st.result.is_none() {
                if let Some((score, reason)) = st.report.result.clone() {
                    st.result = Some(Outcome { score, reason });
                }
            }
            let side = Colour::to_move(&st.report.fen);
            let over = st.result.is_some();
            if let Some(c) = st.clock.as_mut() {
                // The clock runs from the first turn of each side; a loaded game's runs again
                // from now.
                if n > 0 && !over {
                    c.running = Some((side, Instant::now()));
                }
            }
        }
        Ok(self.changed())
    }

    /// The start FEN of a new game.
    async fn start_fen(&mut self, spec: StartSpec) -> Result<String, EngineError> {
        let variant = self.slot.lock().variant.clone();
        if let Some(fen) = spec.fen {
            let r = self.report(format!("position fen {fen}")).await?;
            return Ok(r.fen);
        }
        if let Some(seed) = spec.seed {
            let out = self
                .engine()
                .await?
                .query_ok(&[format!("setup {seed}")])
                .await?;
            return out
                .iter()
                .find_map(|l| l.strip_prefix("info string setup "))
                .map(str::to_string)
                .ok_or_else(|| EngineError::Refused("the engine printed no setup".into()));
        }
        if let Some(army) = spec.army {
            return self.muster(army).await;
        }
        let desc = self
            .ctx
            .variants
            .iter()
            .find(|v| v.name == variant)
            .map(|v| v.startpos.clone())
            .unwrap_or_default();
        Ok(desc)
    }

    /// The muster: the engine's army and pick, the table applied by the engine
    /// (`muster assign`); sets who plays which colour.
    async fn muster(&mut self, army: ArmySpec) -> Result<String, EngineError> {
        let refused = |m: &str| EngineError::Refused(m.to_string());
        let engine_side = self.slot.lock().engine;
        let (white, black, picks, person_built) = match engine_side {
            None => {
                let white = army
                    .white
                    .ok_or_else(|| refused("army: 'white' is missing"))?;
                let black = army
                    .black
                    .ok_or_else(|| refused("army: 'black' is missing"))?;
                let picks = army
                    .picks
                    .ok_or_else(|| refused("army: 'picks' is missing"))?;
                (white, black, picks, None)
            }
            Some(_) => {
                let build = army
                    .build
                    .ok_or_else(|| refused("army: 'build' is missing"))?;
                let half = army
                    .half
                    .ok_or_else(|| refused("army: 'half' is missing"))?;
                let pick = army
                    .pick
                    .ok_or_else(|| refused("army: 'pick' is missing"))?;
                let theirs = match army.engine_half {
                    Some(h) => h,
                    None => propose(self.engine().await?, build.other()).await?,
                };
                let (white, black) = match build {
                    Colour::White => (half, theirs),
                    Colour::Black => (theirs, half),
                };
                let line = format!(
                    "muster choose white {white} black {black} mustered {} movetime 1000",
                    build.other().word()
                );
                let out = self.engine().await?.query_ok(&[line]).await?;
                let engine_pick = out
                    .iter()
                    .find_map(|l| l.strip_prefix("muster choice "))
                    .map(|w| {
                        if w.trim() == "black" {
                            Colour::Black
                        } else {
                            Colour::White
                        }
                    })
                    .ok_or_else(|| refused("the engine made no choice"))?;
                let picks = match build {
                    Colour::White => [pick, engine_pick],
                    Colour::Black => [engine_pick, pick],
                };
                (white, black, picks, Some(build))
            }
        };
        let line = format!(
            "muster assign white {white} black {black} picks {} {}",
            picks[0].word(),
            picks[1].word()
        );
        let out = self.engine().await?.query_ok(&[line]).await?;
        let start = out
            .iter()
            .find_map(|l| l.strip_prefix("muster start "))
            .ok_or_else(|| refused("the engine did not assign the armies"))?;
        let (pw_plays, fen) = start
            .split_once(' ')
            .ok_or_else(|| refused("bad 'muster start' line"))?;
        let pw_plays = if pw_plays == "black" {
            Colour::Black
        } else {
            Colour::White
        };
        if let Some(build) = person_built {
            // The person is P_W when they built White's army.
            let person_plays = if build == Colour::White {
                pw_plays
            } else {
                pw_plays.other()
            };
            let mut st = self.slot.lock();
            st.engine = Some(person_plays.other());
            let name = st.engine_name();
            st.names = match person_plays {
                Colour::White => ["Player".into(), name],
                Colour::Black => [name, "Player".into()],
            };
            st.notice = Some(format!(
                "Muster: you picked {}, the engine picked {}; you play {}.",
                if build == Colour::White {
                    picks[0].word()
                } else {
                    picks[1].word()
                },
                if build == Colour::White {
                    picks[1].word()
                } else {
                    picks[0].word()
                },
                person_plays.word()
            ));
        }
        Ok(fen.to_string())
    }

    // -------------------------------------------------------------------------------------
    // Turns
    // -------------------------------------------------------------------------------------

    /// Plays `token` (legal now) and asks the engine for the new position.
    async fn apply(&mut self, token: &str, time_ms: Option<u64>) -> Result<(), ApiError> {
        let (ply, notation) = {
            let st = self.slot.lock();
            let i = st
                .report
                .legal
                .iter()
                .position(|t| t == token)
                .ok_or_else(|| ApiError::unprocessable(format!("illegal turn '{token}'")))?;
            (st.moves.len(), st.report.legal_notation[i].clone())
        };
        let extra = [token.to_string()];
        let position = self.position_line(ply, &extra);
        let report = self
            .with_retry(|d| Box::pin(d.report(position.clone())))
            .await?;
        let mut st = self.slot.lock();
        st.moves.push(token.to_string());
        st.notation.push(notation);
        st.times.truncate(ply);
        st.times.push(time_ms);
        st.fens.truncate(ply + 1);
        st.fens.push(report.fen.clone());
        st.evals.resize(ply + 1, None);
        st.evals.push(None);
        if let Some((score, reason)) = report.result.clone() {
            st.result = Some(Outcome { score, reason });
            if let Some(c) = st.clock.as_mut() {
                let left = [c.left_now(Colour::White), c.left_now(Colour::Black)];
                c.left_ms = left;
                c.running = None;
            }
        }
        st.report = report;
        Ok(())
    }

    /// Makes the position after `ply` turns the current one, dropping the turns after it
    /// (games without the engine only; the caller has checked the turn to be played there).
    async fn branch(&mut self, ply: usize) -> Result<(), ApiError> {
        let (n, engine) = {
            let st = self.slot.lock();
            (st.moves.len(), st.engine)
        };
        if ply > n {
            return Err(ApiError::unprocessable(format!(
                "ply {ply}: the game has {n} turns"
            )));
        }
        if ply == n {
            return Ok(());
        }
        if engine.is_some() {
            return Err(ApiError::unprocessable(
                "a game against the engine goes on from its last position",
            ));
        }
        if self.search.is_some() {
            self.stop_search().await;
        }
        let position = self.position_line(ply, &[]);
        let report = self
            .with_retry(|d| Box::pin(d.report(position.clone())))
            .await?;
        let mut st = self.slot.lock();
        st.moves.truncate(ply);
        st.notation.truncate(ply);
        st.times.truncate(ply);
        st.fens.truncate(ply + 1);
        st.evals.truncate(ply + 1);
        st.result = None;
        st.report = report;
        if let Some((p, k)) = st.analysis {
            st.analysis = Some((p.min(ply), k));
        }
        Ok(())
    }

    /// The legal turns of the position after `ply` turns.
    async fn legal_at(&mut self, ply: usize) -> Result<Value, ApiError> {
        let n = self.slot.lock().moves.len();
        if ply > n {
            return Err(ApiError::unprocessable(format!(
                "ply {ply}: the game has {n} turns"
            )));
        }
        let report = if ply == n {
            self.slot.lock().report.clone()
        } else {
            let resume = self.search.is_some();
            if resume {
                self.stop_search().await;
            }
            let position = self.position_line(ply, &[]);
            let r = self
                .with_retry(|d| Box::pin(d.report(position.clone())))
                .await;
            if resume {
                self.resume().await;
            }
            r?
        };
        Ok(json!({
            "ply": ply,
            "fen": report.fen,
            "legal": report.legal,
            "legal_notation": report.legal_notation,
        }))
    }

    async fn play_person(&mut self, token: &str, received: Instant) -> Result<Value, ApiError> {
        {
            let st = self.slot.lock();
            if !st.restored {
                return Err(ApiError::unprocessable("the game is not loaded yet"));
            }
            if let Some(r) = &st.result {
                return Err(ApiError::unprocessable(format!(
                    "the game is over ({} {})",
                    r.score, r.reason
                )));
            }
            if st.engine == Some(st.to_move()) {
                return Err(ApiError::unprocessable("it is the engine's turn"));
            }
            if !st.report.legal.iter().any(|t| t == token) {
                return Err(ApiError::unprocessable(format!(
                    "illegal turn '{token}' (not in legal)"
                )));
            }
        }
        // An analysis of the old position ends first.
        if self.search.is_some() {
            self.stop_search().await;
        }
        let spent = {
            let mut st = self.slot.lock();
            let mover = st.to_move();
            let ply = st.moves.len();
            match st.clock.as_mut() {
                Some(c) if c.running.is_some() => Some(c.press(mover)),
                Some(c) => {
                    // The first turn of each side starts the clocks.
                    if ply >= 1 {
                        c.running = Some((mover.other(), Instant::now()));
                    }
                    None
                }
                None => None,
            }
        };
        self.apply(token, spent).await?;
        self.changed();
        self.resume_timed(Some(received)).await;
        Ok(self.slot.json())
    }

    /// After a change: the engine moves if it is its turn, or the analysis goes on at the
    /// new position.
    async fn resume(&mut self) {
        self.resume_timed(None).await;
    }

    async fn resume_timed(&mut self, received: Option<Instant>) {
        if self.search.is_some() {
            return;
        }
        let (engine_turn, analysis, ply, over) = {
            let st = self.slot.lock();
            (
                st.restored && st.result.is_none() && st.engine == Some(st.to_move()),
                st.analysis,
                st.moves.len(),
                st.result.is_some(),
            )
        };
        if engine_turn {
            if let Err(e) = self.start_move_search(ply, received).await {
                self.slot.lock().notice = Some(format!("The engine could not move: {}", e.message));
                self.changed();
            }
        } else if let Some((aply, multipv)) = analysis {
            let _ = over;
            let _ = self.start_analysis(aply.min(ply), multipv).await;
        } else if let Some(next) = self.eval_queue.pop_front() {
            let _ = self.start_evaluate(next).await;
        }
    }

    async fn start_move_search(
        &mut self,
        ply: usize,
        received: Option<Instant>,
    ) -> Result<(), ApiError> {
        self.with_retry(|d| Box::pin(d.set_strength(false, 1)))
            .await?;
        let position = self.position_line(ply, &[]);
        let go = {
            let st = self.slot.lock();
            match &st.clock {
                Some(c) => format!(
                    "go wtime {} btime {} winc {} binc {}",
                    c.left_now(Colour::White).max(0),
                    c.left_now(Colour::Black).max(0),
                    c.inc_ms,
                    c.inc_ms
                ),
                None => format!("go movetime {}", st.movetime_ms),
            }
        };
        self.send_search(&position, &go).await?;
        if let Some(at) = received {
            self.ctx
                .metrics
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .record_move_to_go(at.elapsed());
        }
        self.search = Some((Search::Move(ply), Instant::now()));
        self.last_info.clear();
        self.slot.lock().engine_thinking = true;
        self.changed();
        Ok(())
    }

    async fn send_search(&mut self, position: &str, go: &str) -> Result<(), ApiError> {
        let p = position.to_string();
        let g = go.to_string();
        self.with_retry(move |d| {
            let (p, g) = (p.clone(), g.clone());
            Box::pin(async move {
                let e = d.engine().await?;
                e.send(&p).await?;
                e.send(&g).await
            })
        })
        .await
    }

    /// Stops the running search and waits for its `bestmove`, which is dropped.
    async fn stop_search(&mut self) {
        let Some((search, _)) = self.search.take() else {
            return;
        };
        let ok = match self.engine.as_mut() {
            Some((e, _)) => {
                e.send("stop").await.is_ok() && e.wait_bestmove(STOP_TIMEOUT).await.is_ok()
            }
            None => true,
        };
        if !ok {
            self.replace_engine();
        }
        if let Search::Move(_) = search {
            self.slot.lock().engine_thinking = false;
        }
    }

    async fn on_line(&mut self, line: String) {
        let Some((search, _)) = self.search else {
            return;
        };
        if let Some(info) = parse_info(&line) {
            let ply = search.ply();
            let k = info.multipv as usize;
            if self.last_info.len() < k {
                self.last_info.resize(k, InfoLine::default());
            }
            self.last_info[k - 1] = info.clone();
            if info.multipv == 1 && info.bound.is_none() {
                let mut st = self.slot.lock();
                if let (Some(score), Some(slot)) = (info.score, st.evals.get_mut(ply)) {
                    if slot.is_none_or(|e| e.depth <= info.depth) {
                        *slot = Some(Eval {
                            score,
                            depth: info.depth,
                        });
                    }
                }
            }
            let mut v = serde_json::to_value(&info).unwrap_or(Value::Null);
            if let Some(o) = v.as_object_mut() {
                o.insert("ply".into(), json!(ply));
                o.insert(
                    "kind".into(),
                    json!(match search {
                        Search::Move(_) => "move",
                        Search::Analysis(_) => "analysis",
                        Search::Evaluate(_) => "evaluate",
                    }),
                );
            }
            self.publish(Event::Info(v));
            return;
        }
        let Some(token) = parse_bestmove(&line) else {
            return;
        };
        self.search = None;
        self.publish(Event::BestMove(
            json!({"token": token, "ply": search.ply()}),
        ));
        match search {
            Search::Move(ply) => self.engine_moved(ply, &token).await,
            Search::Evaluate(_) => {
                self.changed();
                self.resume().await;
            }
            Search::Analysis(_) => {
                // An infinite analysis ends only when stopped; nothing to do.
            }
        }
    }

    async fn engine_moved(&mut self, ply: usize, token: &str) {
        let valid = {
            let mut st = self.slot.lock();
            st.engine_thinking = false;
            st.moves.len() == ply
                && st.result.is_none()
                && st.report.legal.iter().any(|t| t == token)
        };
        if !valid {
            if self.slot.lock().result.is_none() && self.slot.lock().moves.len() == ply {
                self.slot.lock().notice = Some(format!(
                    "The engine played '{token}', which is not legal here."
                ));
                let mut st = self.slot.lock();
                let side = st.to_move();
                st.result = Some(Outcome {
                    score: side.other().wins().into(),
                    reason: "illegal move by the engine".into(),
                });
            }
            self.changed();
            return;
        }
        let spent = {
            let mut st = self.slot.lock();
            let mover = st.to_move();
            let moves = st.moves.len();
            match st.clock.as_mut() {
                Some(c) if c.running.is_some() => Some(c.press(mover)),
                Some(c) => {
                    if moves >= 1 {
                        c.running = Some((mover.other(), Instant::now()));
                    }
                    None
                }
                None => None,
            }
        };
        if let Err(e) = self.apply(token, spent).await {
            self.slot.lock().notice = Some(format!(
                "The engine's turn could not be played: {}",
                e.message
            ));
        }
        self.changed();
        self.resume().await;
    }

    async fn flag_fell(&mut self) {
        {
            let mut st = self.slot.lock();
            if st.result.is_some() {
                return;
            }
            let Some(c) = st.clock.as_mut() else {
                return;
            };
            let Some((side, _)) = c.running else {
                return;
            };
            if c.left_now(side) > 0 {
                return;
            }
            let i = Clock::idx(side);
            c.left_ms[i] = 0;
            c.running = None;
            st.result = Some(Outcome {
                score: side.other().wins().into(),
                reason: "time forfeit".into(),
            });
        }
        if matches!(self.search, Some((Search::Move(_), _))) {
            self.stop_search().await;
        }
        self.changed();
    }

    async fn takeback(&mut self) -> Result<Value, ApiError> {
        let (engine, n, resigned) = {
            let st = self.slot.lock();
            let final_result = st
                .result
                .as_ref()
                .is_some_and(|r| matches!(r.reason.as_str(), "resignation" | "time forfeit"));
            (st.engine, st.moves.len(), final_result)
        };
        if resigned {
            return Err(ApiError::unprocessable(
                "a resigned or lost-on-time game cannot be taken back",
            ));
        }
        if matches!(self.search, Some((Search::Move(_), _))) {
            self.stop_search().await;
        }
        let target = {
            let st = self.slot.lock();
            match engine {
                None => n.checked_sub(1),
                Some(side) => {
                    // Back to the person's last turn: the last position where it was the
                    // person's turn, before their last turn.
                    (0..n).rev().find(|&p| Colour::to_move(&st.fens[p]) != side)
                }
            }
        };
        let Some(target) = target else {
            return Err(ApiError::unprocessable(
                "there is no turn of yours to take back",
            ));
        };
        if self.search.is_some() {
            self.stop_search().await;
        }
        let position = self.position_line(target, &[]);
        let report = self
            .with_retry(|d| Box::pin(d.report(position.clone())))
            .await?;
        {
            let mut st = self.slot.lock();
            st.moves.truncate(target);
            st.notation.truncate(target);
            st.times.truncate(target);
            st.fens.truncate(target + 1);
            st.evals.truncate(target + 1);
            st.result = None;
            st.report = report;
            if let Some((p, k)) = st.analysis {
                st.analysis = Some((p.min(target), k));
            }
            let side = st.to_move();
            if let Some(c) = st.clock.as_mut() {
                if c.running.is_some() {
                    c.running = Some((side, Instant::now()));
                }
            }
        }
        Ok(self.changed())
    }

    async fn resign(&mut self) -> Result<Value, ApiError> {
        {
            let mut st = self.slot.lock();
            if st.result.is_some() {
                return Err(ApiError::unprocessable("the game is over"));
            }
            let loser = match st.engine {
                Some(e) => e.other(),
                None => st.to_move(),
            };
            st.result = Some(Outcome {
                score: loser.other().wins().into(),
                reason: "resignation".into(),
            });
            if let Some(c) = st.clock.as_mut() {
                let left = [c.left_now(Colour::White), c.left_now(Colour::Black)];
                c.left_ms = left;
                c.running = None;
            }
        }
        if matches!(self.search, Some((Search::Move(_), _))) {
            self.stop_search().await;
        }
        Ok(self.changed())
    }

    async fn claim(&mut self) -> Result<Value, ApiError> {
        {
            let mut st = self.slot.lock();
            if st.result.is_some() {
                return Err(ApiError::unprocessable("the game is over"));
            }
            if st.engine == Some(st.to_move()) {
                return Err(ApiError::unprocessable(
                    "a draw is claimed on your own turn",
                ));
            }
            let Some(reason) = st.report.claimable.clone() else {
                return Err(ApiError::unprocessable("no draw can be claimed here"));
            };
            st.result = Some(Outcome {
                score: "1/2-1/2".into(),
                reason,
            });
            if let Some(c) = st.clock.as_mut() {
                let left = [c.left_now(Colour::White), c.left_now(Colour::Black)];
                c.left_ms = left;
                c.running = None;
            }
        }
        Ok(self.changed())
    }

    async fn preview(&mut self, portions: &[String]) -> Result<Option<String>, ApiError> {
        if self.search.is_some() && !matches!(self.search, Some((Search::Analysis(_), _))) {
            return Ok(None);
        }
        let resume = self.search.is_some();
        if resume {
            self.stop_search().await;
        }
        let ply = self.slot.lock().moves.len();
        let position = self.position_line(ply, portions);
        let cmds = vec![position, "d".to_string()];
        let answer = match self.engine().await {
            Ok(e) => e.query(&cmds).await,
            Err(e) => Err(e),
        };
        let fen = match answer {
            Ok(lines) if !lines.iter().any(|l| l.starts_with("info string error")) => lines
                .iter()
                .find_map(|l| l.strip_prefix("Fen: "))
                .map(|s| s.trim().to_string()),
            Ok(_) => None,
            Err(_) => {
                self.replace_engine();
                None
            }
        };
        if resume {
            self.resume().await;
        }
        Ok(fen)
    }

    async fn analysis(&mut self, what: Option<(Option<usize>, u32)>) -> Result<Value, ApiError> {
        {
            let st = self.slot.lock();
            if what.is_some() && st.engine.is_some() && st.result.is_none() {
                return Err(ApiError::unprocessable(
                    "no analysis while you play the engine (it is on once the game is over)",
                ));
            }
        }
        if matches!(
            self.search,
            Some((Search::Analysis(_), _)) | Some((Search::Evaluate(_), _))
        ) {
            self.stop_search().await;
        }
        self.eval_queue.clear();
        match what {
            None => {
                self.slot.lock().analysis = None;
            }
            Some((ply, multipv)) => {
                let multipv = multipv.clamp(1, 5);
                let n = self.slot.lock().moves.len();
                let ply = ply.unwrap_or(n).min(n);
                self.slot.lock().analysis = Some((ply, multipv));
                self.start_analysis(ply, multipv).await?;
            }
        }
        Ok(self.changed())
    }

    async fn start_analysis(&mut self, ply: usize, multipv: u32) -> Result<(), ApiError> {
        if self.slot.lock().fens.len() <= ply {
            return Ok(());
        }
        self.with_retry(move |d| Box::pin(d.set_strength(true, multipv)))
            .await?;
        let position = self.position_line(ply, &[]);
        self.send_search(&position, "go infinite").await?;
        self.search = Some((Search::Analysis(ply), Instant::now()));
        self.last_info.clear();
        Ok(())
    }

    async fn evaluate(&mut self) -> Result<Value, ApiError> {
        {
            let st = self.slot.lock();
            if st.engine.is_some() && st.result.is_none() {
                return Err(ApiError::unprocessable(
                    "the game is scored once it is over (no analysis while you play the engine)",
                ));
            }
        }
        if self.search.is_some() {
            self.stop_search().await;
        }
        let n = self.slot.lock().fens.len();
        self.eval_queue = (0..n).collect();
        self.slot.lock().analysis = None;
        self.resume().await;
        Ok(self.changed())
    }

    async fn start_evaluate(&mut self, ply: usize) -> Result<(), ApiError> {
        self.with_retry(|d| Box::pin(d.set_strength(true, 1)))
            .await?;
        let position = self.position_line(ply, &[]);
        self.send_search(&position, &format!("go movetime {EVALUATE_MS}"))
            .await?;
        self.search = Some((Search::Evaluate(ply), Instant::now()));
        Ok(())
    }
}

/// The engine's army of `colour` (`muster propose`).
///
/// Errors: as [`Engine::query_ok`], or when the engine printed no army.
pub async fn propose(engine: &mut Engine, colour: Colour) -> Result<String, EngineError> {
    let out = engine
        .query_ok(&[format!("muster propose {} movetime 1000", colour.word())])
        .await?;
    out.iter()
        .find_map(|l| l.strip_prefix("muster army "))
        .map(|s| s.trim().to_string())
        .ok_or_else(|| EngineError::Refused("the engine proposed no army".into()))
}

/// The legal token a PGN move word names: the token itself, or the one whose PGN notation
/// equals the word up to check and annotation marks.
pub fn resolve_word(report: &PositionReport, word: &str) -> Option<String> {
    if report.legal.iter().any(|t| t == word) {
        return Some(word.to_string());
    }
    let w = normalize_pgn(word);
    let mut found = report
        .legal
        .iter()
        .zip(&report.legal_notation)
        .filter(|(_, n)| normalize_pgn(n) == w)
        .map(|(t, _)| t.clone());
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_resolve_to_tokens() {
        let r = PositionReport {
            legal: vec!["e1g1".into(), "e7e8q".into(), "g1f3".into()],
            legal_notation: vec!["O-O".into(), "e8=Q+".into(), "Nf3".into()],
            ..PositionReport::default()
        };
        assert_eq!(resolve_word(&r, "0-0").as_deref(), Some("e1g1"));
        assert_eq!(resolve_word(&r, "e8=Q").as_deref(), Some("e7e8q"));
        assert_eq!(resolve_word(&r, "Nf3!").as_deref(), Some("g1f3"));
        assert_eq!(resolve_word(&r, "g1f3").as_deref(), Some("g1f3"));
        assert_eq!(resolve_word(&r, "Nc3"), None);
    }

    #[test]
    fn clock_presses_add_the_increment() {
        let mut c = Clock {
            base_ms: 1000,
            inc_ms: 100,
            left_ms: [1000, 1000],
            running: Some((Colour::White, Instant::now())),
        };
        c.press(Colour::White);
        assert!(c.left_ms[0] > 1000 && c.left_ms[0] <= 1100);
        assert_eq!(c.running.map(|r| r.0), Some(Colour::Black));
        assert!(c.deadline().is_some());
    }
}
