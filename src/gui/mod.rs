//! `menagerie gui`: a local web server for playing and analysing every variant in a browser
//! (docs/gui.md). The server is a client of the engine: each game's driver ([`driver`]) asks
//! engine child processes ([`engines`]: search places and shared query engines) and speaks
//! only the text protocol to them ([`crate::client`]); the
//! page (`src/gui/assets`, embedded in the binary) knows only what the API ([`api`]) tells it.
//! A game is its record ([`record`]) in a slot ([`slot`]); games are saved as PGN under the
//! games directory after every change, by a writer thread ([`store`]).

pub mod access;
pub mod api;
pub mod context;
pub mod driver;
pub mod engines;
pub mod error;
pub mod http;
pub mod record;
pub mod review;
pub mod slot;
pub mod store;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use tokio::sync::watch;

use crate::client::{parse_variant, AsyncEngine, VariantDesc};
use api::App;
pub use api::BODY_LIMIT;
use context::{Ctx, Metrics};
use slot::Slot;

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
    /// Other names the Host header may give (`--allowed-host`), besides the loopback names and
    /// the address listened on.
    pub allowed_hosts: Vec<String>,
    /// Whether requests need an access token, and which.
    pub token: TokenChoice,
}

/// Whether the server asks for an access token (docs/gui.md "Access").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenChoice {
    /// A new random token on any address but a loopback one; none on a loopback address.
    Auto,
    /// This token (`--token VALUE`), on any address.
    Given(String),
    /// No token (`--no-token`), with a warning on an address that is not a loopback one.
    Off,
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

/// Describes every variant of the engine (`uci`, then `variant` for each `UCI_Variant` value);
/// returns the engine too, for later questions.
async fn describe_variants(
    program: &std::path::Path,
) -> Result<(Vec<VariantDesc>, Option<(u32, u32)>, AsyncEngine), String> {
    let mut e = AsyncEngine::spawn(program)
        .await
        .map_err(|e| e.to_string())?;
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
    Ok((out, elo_range, e))
}

async fn serve(cfg: GuiConfig) -> Result<(), String> {
    if let TokenChoice::Given(t) = &cfg.token {
        let fits = |b: u8| b.is_ascii_graphic() && b != b';' && b != b'&';
        if t.len() < 16 || !t.bytes().all(fits) {
            return Err("--token: give at least 16 characters, without spaces, ';' or '&'".into());
        }
    }
    let timeouts = http::Timeouts::from_env()?;
    let program = engine_program(cfg.engine.clone())?;
    let (variants, elo_range, describer) = describe_variants(&program).await?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let ctx = Arc::new(Ctx {
        engines: engines::Engines::new(program, cfg.max_engines, Some(describer)),
        games_dir: cfg.games_dir.clone(),
        writer: store::Writer::start(cfg.games_dir.clone()),
        variants,
        elo_range,
        shutdown: stop_rx,
        metrics: Mutex::new(Metrics::default()),
        diagrams: Mutex::new(ahash::AHashMap::new()),
        link_token: std::sync::OnceLock::new(),
        streams: Arc::new(std::sync::atomic::AtomicUsize::new(0)),
        drivers: std::sync::atomic::AtomicUsize::new(0),
    });
    let app = App {
        ctx: Arc::clone(&ctx),
        games: Arc::new(RwLock::new(HashMap::new())),
    };
    for g in store::load_all(&cfg.games_dir, &ctx.variants) {
        app.insert(driver::start(g, Arc::clone(&ctx)));
    }
    let router = api::router(app.clone(), timeouts.body);
    let listener = tokio::net::TcpListener::bind((cfg.host.as_str(), cfg.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", cfg.host, cfg.port))?;
    let addr: SocketAddr = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?;
    let loopback = addr.ip().is_loopback();
    let token = match &cfg.token {
        TokenChoice::Auto if loopback => None,
        TokenChoice::Auto => Some(access::new_token()?),
        TokenChoice::Given(t) => Some(t.clone()),
        TokenChoice::Off => None,
    };
    if let Some(t) = &token {
        let _ = ctx.link_token.set(t.clone());
    }
    if !loopback && token.is_none() {
        eprintln!(
            "menagerie gui: warning: listening on {addr}, not a loopback address, without a token (--no-token): anyone who can reach it can play and read the games"
        );
    }
    let access = std::sync::Arc::new(access::Access::new(
        &cfg.host,
        addr.port(),
        &cfg.allowed_hosts,
        token.clone(),
    ));
    let router = router.layer(axum::middleware::from_fn_with_state(access, access::guard));
    // The address as a browser should ask for it: the Host rule accepts the --host value.
    let shown = if loopback {
        addr.to_string()
    } else if cfg.host.contains(':') && !cfg.host.starts_with('[') {
        format!("[{}]:{}", cfg.host, addr.port())
    } else {
        format!("{}:{}", cfg.host, addr.port())
    };
    if addr.ip().is_unspecified() && cfg.allowed_hosts.is_empty() {
        eprintln!(
            "menagerie gui: note: on every interface, the other machines reach it by this machine's name or address: give it with --allowed-host NAME"
        );
    }
    let url = match &token {
        Some(t) => format!("http://{shown}/?token={t}"),
        None => format!("http://{shown}"),
    };
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
    http::serve(listener, router, timeouts, shutdown).await;
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
            ctx.writer.save(id, pgn);
        }
    }
    let writer = Arc::clone(&ctx);
    let _ = tokio::task::spawn_blocking(move || writer.writer.flush()).await;
    // Let the drivers end their engines.
    ctx.engines.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Whoever started the server may have closed its output by now: no panic for that.
    let _ = std::io::Write::write_all(
        &mut std::io::stdout(),
        b"menagerie gui: stopped; every game is saved\n",
    );
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

/// The engine program to use: `path`, or this executable.
///
/// Errors: a message when neither is known.
pub fn engine_program(path: Option<PathBuf>) -> Result<PathBuf, String> {
    match path {
        Some(p) => Ok(p),
        None => std::env::current_exe().map_err(|e| format!("cannot find this program: {e}")),
    }
}
