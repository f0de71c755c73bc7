//! The games' API (docs/gui.md "API"): the variants, the games' list, a new game, a game's
//! state, its turns, takeback, resignation, draw claims, previews, analysis, the evaluation
//! chart, its PGN and its event stream.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path as UrlPath, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::Response;
use axum::Json;
use futures_util::Stream;
use serde::Deserialize;
use serde_json::{json, Value};

use super::app::{body, clean, new_id, random_u64, App};
use crate::client::Pregame;
use crate::gui::driver;
use crate::gui::error::ApiError;
use crate::gui::record::{Clock, Colour, GameState};
use crate::gui::slot::{ArmySpec, Cmd, Event, StartSpec};
use crate::gui::store;

pub(super) async fn metrics(State(app): State<App>) -> Json<Value> {
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

pub(super) async fn list_games(State(app): State<App>) -> Json<Value> {
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
pub(super) struct NewGame {
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
pub(super) struct ClockSpec {
    base_ms: u64,
    #[serde(default)]
    inc_ms: u64,
}

pub(super) async fn create_game(
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
    let army_pregame = desc.has_pregame(Pregame::Army);
    let seed_pregame = desc.has_pregame(Pregame::Seed);
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
    let slot = driver::start(st, Arc::clone(&app.ctx));
    app.insert(Arc::clone(&slot));
    match slot.ask(|r| Cmd::Init(spec, r)).await {
        Ok(_) => Ok((StatusCode::CREATED, Json(app.ctx.state_json(slot.json())))),
        Err(e) => {
            app.remove(&slot.id);
            Err(e)
        }
    }
}

pub(super) async fn get_game(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(app.ctx.state_json(app.open(&id).await?.json())))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MoveBody {
    token: String,
    #[serde(default)]
    ply: Option<usize>,
}

pub(super) async fn play(
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
pub(super) struct PlyQuery {
    ply: usize,
}

pub(super) async fn legal(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    q: Result<axum::extract::Query<PlyQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    let q = q.map_err(|e| ApiError::bad_request(e.body_text()))?;
    Ok(Json(slot.ask(|r| Cmd::Legal(q.ply, r)).await?))
}

pub(super) async fn takeback(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    Ok(Json(slot.ask(Cmd::Takeback).await?))
}

pub(super) async fn resign(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    Ok(Json(slot.ask(Cmd::Resign).await?))
}

pub(super) async fn claim(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    Ok(Json(slot.ask(Cmd::Claim).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PreviewBody {
    tokens: Vec<String>,
}

pub(super) async fn preview(
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
pub(super) struct AnalysisBody {
    on: bool,
    #[serde(default)]
    multipv: Option<u32>,
    #[serde(default)]
    ply: Option<usize>,
}

pub(super) async fn analysis(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    b: Result<Json<AnalysisBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    let a = body(b)?;
    let what = a.on.then(|| (a.ply, a.multipv.unwrap_or(1)));
    Ok(Json(slot.ask(|r| Cmd::Analysis(what, r)).await?))
}

pub(super) async fn evaluate(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    Ok(Json(slot.ask(Cmd::Evaluate).await?))
}

pub(super) async fn pgn(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Response, ApiError> {
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

pub(super) async fn events(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let slot = app.open(&id).await?;
    let rx = slot.events.subscribe();
    let first = app.ctx.state_json(slot.json());
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
