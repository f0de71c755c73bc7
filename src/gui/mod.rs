//! `menagerie gui`: a local web server for playing and analysing every variant in a browser
//! (docs/gui.md). The server is a client of the engine: each game's driver
//! ([`game::Slot`]) runs an engine child process and speaks only the text protocol to it
//! ([`engine`]); the page (`src/gui/assets`, embedded in the binary) knows only what the API
//! tells it. Games are saved as PGN under the games directory after every change ([`store`]).

pub mod engine;
pub mod game;
pub mod store;

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::Stream;
use rust_embed::RustEmbed;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{watch, Semaphore};

use engine::{parse_variant, Engine, VariantDesc};
use game::{ApiError, ArmySpec, Clock, Cmd, Colour, Event, GameState, Slot, StartSpec};

/// The page: HTML, scripts, styles (`src/gui/assets`).
#[derive(RustEmbed)]
#[folder = "src/gui/assets/"]
struct Assets;

/// The documentation served under `/docs/`: the rules of every variant and the other
/// Markdown pages they link to, and the pictures.
#[derive(RustEmbed)]
#[folder = "docs/"]
#[include = "*.md"]
#[include = "rules/*.md"]
struct Docs;

/// The largest request body, bytes.
pub const BODY_LIMIT: usize = 64 * 1024;
/// The most games one import may open.
const IMPORT_LIMIT: usize = 50;

/// What `menagerie gui` is told on its command line.
#[derive(Clone, Debug)]
pub struct GuiConfig {
    /// The address to listen on.
    pub host: String,
    /// The TCP port (0: any free port).
    pub port: u16,
    /// The engine program (`None`: this executable).
    pub engine: Option<PathBuf>,
    /// Where games are saved.
    pub games_dir: PathBuf,
    /// The most engine processes at once.
    pub max_engines: usize,
    /// Open the address in the default browser.
    pub open: bool,
}

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
    /// The engine program.
    pub program: PathBuf,
    /// One permit per engine process that may run.
    pub permits: Arc<Semaphore>,
    /// Where games are saved.
    pub games_dir: PathBuf,
    /// The variants, as the engine describes them.
    pub variants: Vec<VariantDesc>,
    /// `UCI_Elo`'s range, if the engine has the option.
    pub elo_range: Option<(u32, u32)>,
    /// Becomes true when the server stops.
    pub shutdown: watch::Receiver<bool>,
    /// Measured latencies.
    pub metrics: Mutex<Metrics>,
}

/// The server's state.
#[derive(Clone)]
struct App {
    ctx: Arc<Ctx>,
    games: Arc<RwLock<HashMap<String, Arc<Slot>>>>,
}

impl App {
    fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
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
    async fn open(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let slot = self.slot(id)?;
        if !slot.lock().restored {
            slot.ask(|r| Cmd::Init(StartSpec::default(), r)).await?;
        }
        Ok(slot)
    }

    fn variant(&self, name: &str) -> Option<&VariantDesc> {
        self.ctx.variants.iter().find(|v| v.name == name)
    }

    fn insert(&self, slot: Arc<Slot>) {
        self.games
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(slot.id.clone(), slot);
    }

    fn remove(&self, id: &str) {
        self.games
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
    }
}

/// A short, printable echo of user input in an error message.
fn clean(s: &str) -> String {
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

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(json!({"error": self.message}))).into_response()
    }
}

/// A JSON body, or a 4xx with a JSON error.
fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
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
fn random_u64() -> u64 {
    ahash::RandomState::new().hash_one(NEXT_ID.fetch_add(1, Ordering::Relaxed))
}

/// A new game id: the UTC time and a counter mixed with the clock.
fn new_id() -> String {
    let now = time::OffsetDateTime::now_utc();
    let n = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let mix = (now.unix_timestamp_nanos() as u64 ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)) & 0xffff;
    format!(
        "{:04}{:02}{:02}-{:02}{:02}{:02}-{:04x}{}",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute(),
        now.second(),
        mix,
        n % 10
    )
}

/// Starts the server and serves until Ctrl-C (or SIGTERM).
///
/// Errors: a message when the engine cannot be started or described, or the address cannot
/// be bound.
pub fn run(cfg: GuiConfig) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(serve(cfg))
}

/// Describes every variant of the engine (`uci`, then `variant` for each `UCI_Variant` value).
async fn describe_variants(
    program: &std::path::Path,
) -> Result<(Vec<VariantDesc>, Option<(u32, u32)>), String> {
    let mut e = Engine::spawn(program).await.map_err(|e| e.to_string())?;
    let names = e.variants.clone();
    let elo_range = e.elo_range;
    let mut out = Vec::new();
    for name in names {
        e.select(&name)
            .await
            .map_err(|e| format!("variant {name}: {e}"))?;
        let lines = e
            .query(&["variant".to_string()])
            .await
            .map_err(|e| format!("variant {name}: {e}"))?;
        out.push(parse_variant(&lines).map_err(|e| format!("variant {name}: {e}"))?);
    }
    e.quit().await;
    Ok((out, elo_range))
}

async fn serve(cfg: GuiConfig) -> Result<(), String> {
    let program = engine::engine_program(cfg.engine.clone())?;
    let (variants, elo_range) = describe_variants(&program).await?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let ctx = Arc::new(Ctx {
        program,
        permits: Arc::new(Semaphore::new(cfg.max_engines.max(1))),
        games_dir: cfg.games_dir.clone(),
        variants,
        elo_range,
        shutdown: stop_rx,
        metrics: Mutex::new(Metrics::default()),
    });
    let app = App {
        ctx: Arc::clone(&ctx),
        games: Arc::new(RwLock::new(HashMap::new())),
    };
    let startpos = |v: &str| {
        ctx.variants
            .iter()
            .find(|d| d.name == v)
            .map(|d| d.startpos.clone())
    };
    for g in store::load_all(&cfg.games_dir, &startpos) {
        app.insert(Slot::start(g, Arc::clone(&ctx)));
    }
    let router = router(app.clone());
    let listener = tokio::net::TcpListener::bind((cfg.host.as_str(), cfg.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", cfg.host, cfg.port))?;
    let addr: SocketAddr = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?;
    if !addr.ip().is_loopback() {
        eprintln!(
            "menagerie gui: warning: listening on {addr}, not a loopback address: anyone who can reach it can play and read the games"
        );
    }
    let url = format!("http://{addr}");
    println!(
        "menagerie gui: {url} (games in {}; Ctrl-C stops)",
        cfg.games_dir.display()
    );
    if cfg.open {
        if let Err(e) = open::that_detached(&url) {
            eprintln!("menagerie gui: cannot open a browser: {e}");
        }
    }
    let shutdown = async move {
        wait_for_signal().await;
        let _ = stop_tx.send(true);
    };
    axum::serve(listener, router)
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|e| format!("server error: {e}"))?;
    // Every change is saved as it is made; save each game once more for its clock.
    let slots: Vec<Arc<Slot>> = app
        .games
        .read()
        .unwrap_or_else(|p| p.into_inner())
        .values()
        .cloned()
        .collect();
    for slot in slots {
        let (restored, pgn, id) = {
            let st = slot.lock();
            (st.restored, store::game_pgn(&st), st.id.clone())
        };
        if restored {
            if let Err(e) = store::save(&ctx.games_dir, &id, &pgn) {
                eprintln!("menagerie gui: cannot save game {id}: {e}");
            }
        }
    }
    // Let the drivers end their engines.
    tokio::time::sleep(Duration::from_millis(200)).await;
    println!("menagerie gui: stopped; every game is saved");
    Ok(())
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = match signal(SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn router(app: App) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/game/{id}", get(page))
        .route("/assets/{*path}", get(asset))
        .route("/rules/{variant}", get(rules))
        .route("/docs/{*path}", get(doc))
        .route("/api/variants", get(variants))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/legal", get(legal))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/preview", post(preview))
        .route("/api/games/{id}/analysis", post(analysis))
        .route("/api/games/{id}/evaluate", post(evaluate))
        .route("/api/games/{id}/pgn", get(pgn))
        .route("/api/games/{id}/events", get(events))
        .route("/api/import", post(import))
        .route("/api/muster/propose", post(muster_propose))
        .route("/api/metrics", get(metrics))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(refuse_long_bodies))
        .with_state(app)
}

/// Refuses a request whose `Content-Length` is over [`BODY_LIMIT`] at once, without waiting for
/// its body (a body without a length is cut at the limit by `DefaultBodyLimit`).
async fn refuse_long_bodies(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let length = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if length.is_some_and(|n| n > BODY_LIMIT as u64) {
        return ApiError {
            status: 413,
            message: format!("the body is larger than {BODY_LIMIT} bytes"),
        }
        .into_response();
    }
    next.run(req).await
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such page")
}

fn embedded(data: std::borrow::Cow<'static, [u8]>, path: &str) -> Response {
    let mime = match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") | Some("mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    };
    let mut r = Response::new(Body::from(data.into_owned()));
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

async fn page() -> Response {
    match Assets::get("index.html") {
        Some(f) => embedded(f.data, "index.html"),
        None => ApiError::not_found("the page is missing from this build").into_response(),
    }
}

async fn asset(UrlPath(path): UrlPath<String>) -> Response {
    // rust-embed only knows the embedded files: no path outside them can be served.
    if path.split('/').any(|p| p == ".." || p.is_empty()) {
        return ApiError::not_found("no such file").into_response();
    }
    match Assets::get(&path) {
        Some(f) => embedded(f.data, &path),
        None => ApiError::not_found("no such file").into_response(),
    }
}

/// The rules of `variant`: the rules file whose name is the variant's without its dashes.
async fn rules(State(app): State<App>, UrlPath(variant): UrlPath<String>) -> Response {
    if app.variant(&variant).is_none() {
        return ApiError::not_found(format!("no variant '{}'", clean(&variant))).into_response();
    }
    let file = Docs::iter()
        .filter(|p| p.starts_with("rules/") && p.ends_with(".md"))
        .find(|p| p["rules/".len()..p.len() - 3].replace('-', "") == variant);
    match file {
        Some(f) => Redirect::to(&format!("/docs/{f}")).into_response(),
        None => ApiError::not_found(format!("no rules for '{variant}'")).into_response(),
    }
}

/// A documentation page, rendered from Markdown.
async fn doc(UrlPath(path): UrlPath<String>) -> Response {
    if path.split('/').any(|p| p == ".." || p.is_empty()) {
        return ApiError::not_found("no such page").into_response();
    }
    let Some(f) = Docs::get(&path) else {
        return ApiError::not_found("no such page").into_response();
    };
    let text = String::from_utf8_lossy(&f.data);
    let mut html = String::new();
    let opts =
        pulldown_cmark::Options::ENABLE_TABLES | pulldown_cmark::Options::ENABLE_HEADING_ATTRIBUTES;
    pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new_ext(&text, opts));
    let title = text
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("menagerie")
        .replace('<', "&lt;");
    let page = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <link rel=\"stylesheet\" href=\"/assets/doc.css\"></head><body>\
         <nav><a href=\"/\">menagerie</a></nav><main class=\"doc\">{html}</main></body></html>"
    );
    embedded(std::borrow::Cow::Owned(page.into_bytes()), "page.html")
}

async fn variants(State(app): State<App>) -> Json<Value> {
    Json(serde_json::to_value(&app.ctx.variants).unwrap_or(Value::Null))
}

async fn metrics(State(app): State<App>) -> Json<Value> {
    let m = app.ctx.metrics.lock().unwrap_or_else(|p| p.into_inner());
    let mut sorted = m.move_to_go_us.clone();
    sorted.sort_unstable();
    let pct = |p: f64| -> Option<u64> {
        (!sorted.is_empty()).then(|| sorted[((sorted.len() - 1) as f64 * p).round() as usize])
    };
    Json(json!({
        "move_to_go_us": m.move_to_go_us,
        "move_to_go_median_us": pct(0.5),
        "move_to_go_max_us": sorted.last(),
        "engines_free": app.ctx.permits.available_permits(),
    }))
}

async fn list_games(State(app): State<App>) -> Json<Value> {
    let mut list: Vec<Value> = app
        .games
        .read()
        .unwrap_or_else(|p| p.into_inner())
        .values()
        .map(|s| s.lock().summary())
        .collect();
    list.sort_by(|a, b| {
        b["updated"]
            .as_u64()
            .cmp(&a["updated"].as_u64())
            .then_with(|| b["id"].as_str().cmp(&a["id"].as_str()))
    });
    Json(Value::Array(list))
}

/// The body of `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: String,
    #[serde(default)]
    engine: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    elo: Option<u32>,
    #[serde(default)]
    movetime_ms: Option<u64>,
    #[serde(default)]
    clock: Option<ClockSpec>,
    #[serde(default)]
    army: Option<ArmySpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockSpec {
    base_ms: u64,
    #[serde(default)]
    inc_ms: u64,
}

async fn create_game(
    State(app): State<App>,
    b: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let g = body(b)?;
    let desc = app
        .variant(&g.variant)
        .ok_or_else(|| ApiError::unprocessable(format!("unknown variant '{}'", clean(&g.variant))))?
        .clone();
    let engine = match g.engine.as_deref().unwrap_or("none") {
        "white" => Some(Colour::White),
        "black" => Some(Colour::Black),
        "none" => None,
        "random" => Some(if random_u64().is_multiple_of(2) {
            Colour::White
        } else {
            Colour::Black
        }),
        other => {
            return Err(ApiError::unprocessable(format!(
                "engine must be white, black, random or none, not '{}'",
                clean(other)
            )))
        }
    };
    let level = g.level.unwrap_or(20);
    if level > 20 {
        return Err(ApiError::unprocessable("level must be 0 to 20"));
    }
    if let Some(elo) = g.elo {
        match app.ctx.elo_range {
            Some((lo, hi)) if (lo..=hi).contains(&elo) => {}
            Some((lo, hi)) => {
                return Err(ApiError::unprocessable(format!("elo must be {lo} to {hi}")))
            }
            None => return Err(ApiError::unprocessable("the engine has no UCI_Elo")),
        }
    }
    let movetime_ms = g.movetime_ms.unwrap_or(1000);
    if !(10..=600_000).contains(&movetime_ms) {
        return Err(ApiError::unprocessable("movetime_ms must be 10 to 600000"));
    }
    let clock = match g.clock {
        Some(c) if (1_000..=36_000_000).contains(&c.base_ms) && c.inc_ms <= 600_000 => {
            Some(Clock {
                base_ms: c.base_ms,
                inc_ms: c.inc_ms,
                left_ms: [c.base_ms as i64; 2],
                running: None,
            })
        }
        Some(_) => {
            return Err(ApiError::unprocessable(
                "clock: base_ms must be 1000 to 36000000 and inc_ms at most 600000",
            ))
        }
        None => None,
    };
    let army_pregame = desc.pregame.iter().any(|p| p == "army");
    let seed_pregame = desc.pregame.iter().any(|p| p == "seed");
    if g.army.is_some() && !army_pregame {
        return Err(ApiError::unprocessable(format!(
            "{} has no armies to muster",
            desc.name
        )));
    }
    if g.seed.is_some() && !seed_pregame {
        return Err(ApiError::unprocessable(format!(
            "{} has no random setups",
            desc.name
        )));
    }
    if g.fen
        .as_deref()
        .is_some_and(|f| f.len() > 1000 || f.chars().any(char::is_control))
    {
        return Err(ApiError::unprocessable("bad FEN"));
    }
    let seed = match (g.fen.is_some() || g.army.is_some(), seed_pregame, g.seed) {
        (false, true, None) => Some(random_u64()),
        (_, _, s) => s,
    };
    let mut st = GameState::new(new_id(), desc.name.clone());
    st.engine = engine;
    st.level = level;
    st.elo = g.elo;
    st.movetime_ms = movetime_ms;
    st.clock = clock;
    st.seed = if g.fen.is_some() { None } else { seed };
    let name = st.engine_name();
    st.names = match engine {
        Some(Colour::White) => [name, "Player".into()],
        Some(Colour::Black) => ["Player".into(), name],
        None => ["Player".into(), "Player".into()],
    };
    let spec = StartSpec {
        fen: g.fen,
        seed: st.seed,
        army: g.army,
    };
    let slot = Slot::start(st, Arc::clone(&app.ctx));
    app.insert(Arc::clone(&slot));
    match slot.ask(|r| Cmd::Init(spec, r)).await {
        Ok(_) => Ok((StatusCode::CREATED, Json(slot.json()))),
        Err(e) => {
            app.remove(&slot.id);
            Err(e)
        }
    }
}

async fn get_game(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(app.open(&id).await?.json()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    token: String,
    #[serde(default)]
    ply: Option<usize>,
}

async fn play(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    b: Result<Json<MoveBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let received = Instant::now();
    let slot = app.open(&id).await?;
    let m = body(b)?;
    if m.token.is_empty()
        || m.token.len() > 200
        || m.token.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(ApiError::unprocessable(format!(
            "illegal turn '{}'",
            clean(&m.token)
        )));
    }
    Ok(Json(
        slot.ask(|r| Cmd::Play(m.token, m.ply, received, r)).await?,
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlyQuery {
    ply: usize,
}

async fn legal(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    q: Result<axum::extract::Query<PlyQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    let q = q.map_err(|e| ApiError::bad_request(e.body_text()))?;
    Ok(Json(slot.ask(|r| Cmd::Legal(q.ply, r)).await?))
}

async fn takeback(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    Ok(Json(slot.ask(Cmd::Takeback).await?))
}

async fn resign(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    Ok(Json(slot.ask(Cmd::Resign).await?))
}

async fn claim(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    Ok(Json(slot.ask(Cmd::Claim).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PreviewBody {
    tokens: Vec<String>,
}

async fn preview(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    b: Result<Json<PreviewBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    let p = body(b)?;
    if p.tokens.is_empty()
        || p.tokens.len() > 8
        || p.tokens.iter().any(|t| {
            t.is_empty() || t.len() > 200 || t.chars().any(|c| c.is_whitespace() || c.is_control())
        })
    {
        return Err(ApiError::unprocessable(
            "tokens: one to eight portions, each one word",
        ));
    }
    let fen = slot.ask(|r| Cmd::Preview(p.tokens, r)).await?;
    Ok(Json(json!({ "fen": fen })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisBody {
    on: bool,
    #[serde(default)]
    multipv: Option<u32>,
    #[serde(default)]
    ply: Option<usize>,
}

async fn analysis(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    b: Result<Json<AnalysisBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    let a = body(b)?;
    let what = a.on.then(|| (a.ply, a.multipv.unwrap_or(1)));
    Ok(Json(slot.ask(|r| Cmd::Analysis(what, r)).await?))
}

async fn evaluate(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    Ok(Json(slot.ask(Cmd::Evaluate).await?))
}

async fn pgn(State(app): State<App>, UrlPath(id): UrlPath<String>) -> Result<Response, ApiError> {
    let slot = app.open(&id).await?;
    let text = store::game_pgn(&slot.lock());
    let mut r = Response::new(Body::from(text));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{id}.pgn\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

async fn events(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let slot = app.open(&id).await?;
    let rx = slot.events.subscribe();
    let first = slot.json();
    let shutdown = app.ctx.shutdown.clone();
    let to_sse = |e: Event| match e {
        Event::State(v) => SseEvent::default().event("state").data(v.to_string()),
        Event::Info(v) => SseEvent::default().event("info").data(v.to_string()),
        Event::BestMove(v) => SseEvent::default().event("bestmove").data(v.to_string()),
    };
    let stream = futures_util::stream::unfold(
        (Some(first), rx, shutdown),
        move |(first, mut rx, mut sd)| async move {
            if let Some(v) = first {
                return Some((Ok(to_sse(Event::State(v))), (None, rx, sd)));
            }
            loop {
                if *sd.borrow() {
                    return None;
                }
                tokio::select! {
                    r = rx.recv() => match r {
                        Ok(e) => return Some((Ok(to_sse(e)), (None, rx, sd))),
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(_) => return None,
                    },
                    _ = sd.changed() => return None,
                }
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportBody {
    pgn: String,
}

async fn import(
    State(app): State<App>,
    b: Result<Json<ImportBody>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let text = body(b)?.pgn;
    let games = crate::tools::pgn::parse_pgn(&text)
        .map_err(|e| ApiError::unprocessable(format!("PGN: {e}")))?;
    if games.is_empty() {
        return Err(ApiError::unprocessable("PGN: no game in the text"));
    }
    if games.len() > IMPORT_LIMIT {
        return Err(ApiError::unprocessable(format!(
            "PGN: at most {IMPORT_LIMIT} games at once"
        )));
    }
    let startpos = |v: &str| app.variant(v).map(|d| d.startpos.clone());
    let mut ids = Vec::new();
    let mut errors = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let mut st = match store::from_pgn(new_id(), g, &startpos) {
            Ok(st) => st,
            Err(e) => {
                errors.push(format!("game {}: {e}", i + 1));
                continue;
            }
        };
        // An imported game is for analysis: nobody plays the engine in it.
        st.engine = None;
        st.clock = None;
        let slot = Slot::start(st, Arc::clone(&app.ctx));
        app.insert(Arc::clone(&slot));
        match slot.ask(|r| Cmd::Init(StartSpec::default(), r)).await {
            Ok(_) => ids.push(json!({"id": slot.id})),
            Err(e) => {
                app.remove(&slot.id);
                errors.push(format!("game {}: {}", i + 1, e.message));
            }
        }
    }
    if ids.is_empty() {
        return Err(ApiError::unprocessable(errors.join("; ")));
    }
    Ok((StatusCode::CREATED, Json(Value::Array(ids))))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProposeBody {
    colour: Colour,
    #[serde(default)]
    variant: Option<String>,
}

async fn muster_propose(
    State(app): State<App>,
    b: Result<Json<ProposeBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let p = body(b)?;
    let variant = match p.variant {
        Some(v) => v,
        None => app
            .ctx
            .variants
            .iter()
            .find(|d| d.pregame.iter().any(|k| k == "army"))
            .map(|d| d.name.clone())
            .ok_or_else(|| ApiError::unprocessable("no variant musters armies"))?,
    };
    if !app
        .variant(&variant)
        .is_some_and(|d| d.pregame.iter().any(|k| k == "army"))
    {
        return Err(ApiError::unprocessable(format!(
            "{} has no armies to muster",
            clean(&variant)
        )));
    }
    let _permit = Arc::clone(&app.ctx.permits)
        .acquire_owned()
        .await
        .map_err(|_| ApiError::unprocessable("the server is stopping"))?;
    let mut e = Engine::spawn(&app.ctx.program)
        .await
        .map_err(|e| ApiError::engine(&e))?;
    e.select(&variant).await.map_err(|e| ApiError::engine(&e))?;
    let half = game::propose(&mut e, p.colour)
        .await
        .map_err(|e| ApiError::engine(&e))?;
    e.quit().await;
    Ok(Json(json!({"colour": p.colour, "half": half})))
}
