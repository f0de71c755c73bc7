//! The games' API (docs/gui.md "API"): the variants, the games' list, a new game, a game's
//! state, its turns, takeback, resignation, draw claims, previews, analysis, the evaluation
//! chart, its PGN and its event stream.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path as UrlPath, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::Response;
use axum::Json;
use futures_util::Stream;
use serde::Deserialize;
use serde_json::{json, Value};

use super::app::{body, clean, new_id, random_u64, App};
use crate::client::Pregame;
use crate::gui::context::{StreamSlot, MAX_STREAMS};
use crate::gui::driver;
use crate::gui::driver::DEFAULT_REVIEW_NODES as DEFAULT_NODES;
use crate::gui::error::ApiError;
use crate::gui::record::{new_secret, Clock, Colour, GameState, Held, OfferKind, Player};
use crate::gui::slot::{ArmySpec, Cmd, Event, Slot, StartSpec};
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
        "engines_free": app.ctx.engines.free_places(),
        "engines_waiting": app.ctx.engines.waiting(),
        "query_engine_restarts": app.ctx.engines.restarts(),
        "drivers": app.ctx.drivers.load(std::sync::atomic::Ordering::Relaxed),
        "games": app.games.read().unwrap_or_else(|p| p.into_inner()).len(),
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
    white: Option<String>,
    #[serde(default)]
    black: Option<String>,
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
    let players = players(&g)?;
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
    st.players = players;
    for (seat, player) in st.seats.iter_mut().zip(players) {
        if player == Player::Human {
            *seat = Some(new_secret().map_err(|e| ApiError {
                status: 500,
                message: e,
            })?);
        }
    }
    st.level = level;
    st.elo = g.elo;
    st.movetime_ms = movetime_ms;
    st.clock = clock;
    st.seed = if g.fen.is_some() { None } else { seed };
    let name = st.engine_name();
    st.names = players.map(|p| match p {
        Player::Engine => name.clone(),
        Player::Human => "Player".into(),
    });
    let spec = StartSpec {
        fen: g.fen,
        seed: st.seed,
        army: g.army,
    };
    let answer = launch(&app, st, spec).await?;
    Ok((StatusCode::CREATED, Json(answer)))
}

/// Who plays each colour of a new game: `white` and `black` (`human` or `engine`; both or
/// neither), or the older `engine` (`white`, `black`, `random` or `none`: the engine's colour).
fn players(g: &NewGame) -> Result<[Player; 2], ApiError> {
    let word = |field: &str, w: &str| match w {
        "human" => Ok(Player::Human),
        "engine" => Ok(Player::Engine),
        other => Err(ApiError::unprocessable(format!(
            "{field} must be human or engine, not '{}'",
            clean(other)
        ))),
    };
    match (&g.white, &g.black, &g.engine) {
        (Some(w), Some(b), None) => Ok([word("white", w)?, word("black", b)?]),
        (None, None, e) => match e.as_deref().unwrap_or("none") {
            "white" => Ok([Player::Engine, Player::Human]),
            "black" => Ok([Player::Human, Player::Engine]),
            "none" => Ok([Player::Human, Player::Human]),
            "random" => Ok(if random_u64().is_multiple_of(2) {
                [Player::Engine, Player::Human]
            } else {
                [Player::Human, Player::Engine]
            }),
            other => Err(ApiError::unprocessable(format!(
                "engine must be white, black, random or none, not '{}'",
                clean(other)
            ))),
        },
        (_, _, Some(_)) => Err(ApiError::unprocessable(
            "give either white and black, or engine, not both",
        )),
        _ => Err(ApiError::unprocessable("give both white and black")),
    }
}

/// Starts the driver of `st`, sets the game up from `spec` and writes its seats file; answers
/// its state with the links of its seats (`seats`) and the colours the creator holds (`you`:
/// every person's seat).
///
/// Errors: the set-up's (the game is then dropped).
async fn launch(app: &App, st: GameState, spec: StartSpec) -> Result<Value, ApiError> {
    let slot = driver::start(st, Arc::clone(&app.ctx));
    app.insert(Arc::clone(&slot));
    if let Err(e) = slot.ask(|r| Cmd::Init(spec, r)).await {
        app.remove(&slot.id);
        return Err(e);
    }
    let (seats, links, you) = {
        let st = slot.lock();
        let held = st.humans();
        (
            store::seats_text(&st),
            app.ctx.seat_links(&st, held),
            you(held),
        )
    };
    if let Some(text) = seats {
        app.ctx.writer.save_seats(slot.id.clone(), text);
    }
    let mut v = app.ctx.state_json(slot.json());
    if let Some(o) = v.as_object_mut() {
        o.insert("seats".into(), links);
        o.insert("you".into(), you);
    }
    Ok(v)
}

/// The header that carries a page's seat secrets (comma-separated), docs/gui.md "Seats".
pub const SEAT_HEADER: &str = "x-menagerie-seat";

/// A `seat` field: one secret, or several (a page holding both seats).
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum SeatArg {
    One(String),
    Many(Vec<String>),
}

/// The secrets a request gives: its `X-Menagerie-Seat` header and its `seat` field (at most
/// four, each at most 128 bytes; the rest are ignored).
fn secrets(headers: &HeaderMap, field: Option<&SeatArg>) -> Vec<String> {
    let mut out: Vec<String> = headers
        .get_all(SEAT_HEADER)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|s| s.trim().to_string())
        .collect();
    match field {
        Some(SeatArg::One(s)) => out.push(s.clone()),
        Some(SeatArg::Many(v)) => out.extend(v.iter().cloned()),
        None => {}
    }
    out.retain(|s| !s.is_empty() && s.len() <= 128);
    out.truncate(4);
    out
}

/// The colours a request may act for in the game of `slot`.
fn held(slot: &Slot, headers: &HeaderMap, field: Option<&SeatArg>) -> Held {
    slot.lock().held(&secrets(headers, field))
}

/// The `you` field: the colours held, as words.
fn you(held: Held) -> Value {
    json!([Colour::White, Colour::Black]
        .iter()
        .filter(|c| held[Clock::idx(**c)])
        .map(|c| c.word())
        .collect::<Vec<_>>())
}

/// The body of the actions that take only a seat (`takeback`, `resign`, ...): `{"seat"}`, or
/// no body at all (the seat in the header).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct SeatBody {
    #[serde(default)]
    seat: Option<SeatArg>,
}

/// Reads a [`SeatBody`] from a body that may be empty.
fn seat_body(bytes: &[u8]) -> Result<SeatBody, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(SeatBody::default());
    }
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad_request(format!("bad JSON: {e}")))
}

/// A seat-only action on game `id`: the request's seats (header or body), then `cmd` to the
/// game's driver; its answer.
///
/// Errors: no such game (404), a bad body (400), or the driver's answer.
async fn seat_action(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    b: &[u8],
    cmd: fn(Held, tokio::sync::oneshot::Sender<Result<Value, ApiError>>) -> Cmd,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(id).await?;
    let held = action_held(&slot, headers, b)?;
    Ok(Json(slot.ask(|r| cmd(held, r)).await?))
}

/// The colours a seat-only action's request holds.
fn action_held(slot: &Slot, headers: &HeaderMap, bytes: &[u8]) -> Result<Held, ApiError> {
    let b = seat_body(bytes)?;
    Ok(held(slot, headers, b.seat.as_ref()))
}

pub(super) async fn get_game(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    let held = held(&slot, &headers, None);
    let mut v = app.ctx.state_json(slot.json());
    if let Some(o) = v.as_object_mut() {
        o.insert("you".into(), you(held));
    }
    Ok(Json(v))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MoveBody {
    token: String,
    #[serde(default)]
    ply: Option<usize>,
    #[serde(default)]
    seat: Option<SeatArg>,
}

pub(super) async fn play(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
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
    let held = held(&slot, &headers, m.seat.as_ref());
    Ok(Json(
        slot.ask(|r| Cmd::Play(m.token, m.ply, held, received, r))
            .await?,
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
    headers: HeaderMap,
    b: Bytes,
) -> Result<Json<Value>, ApiError> {
    seat_action(&app, &id, &headers, &b, |h, r| {
        Cmd::Offer(OfferKind::Takeback, h, r)
    })
    .await
}

pub(super) async fn draw(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    b: Bytes,
) -> Result<Json<Value>, ApiError> {
    seat_action(&app, &id, &headers, &b, |h, r| {
        Cmd::Offer(OfferKind::Draw, h, r)
    })
    .await
}

/// The body of `POST /api/games/{id}/decline`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DeclineBody {
    offer: String,
    #[serde(default)]
    seat: Option<SeatArg>,
}

pub(super) async fn decline(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    b: Result<Json<DeclineBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    let d = body(b)?;
    let kind = OfferKind::from_word(&d.offer).ok_or_else(|| {
        ApiError::unprocessable(format!(
            "offer must be draw, takeback or rematch, not '{}'",
            clean(&d.offer)
        ))
    })?;
    let held = held(&slot, &headers, d.seat.as_ref());
    Ok(Json(slot.ask(|r| Cmd::Decline(kind, held, r)).await?))
}

/// `POST /api/games/{id}/rematch`: offers a rematch with the colours swapped, or accepts the
/// other side's; once agreed (at once against the engine or on one device) the new game is
/// made, each person keeping their secret for the other colour, and every page of the old
/// game learns its id (`rematch`). Answers the new game (as a new game's answer) when made,
/// else the old game's state.
pub(super) async fn rematch(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    b: Bytes,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let slot = app.open(&id).await?;
    let held = action_held(&slot, &headers, &b)?;
    if !slot.ask(|r| Cmd::Rematch(held, r)).await? {
        return Ok((StatusCode::OK, Json(app.ctx.state_json(slot.json()))));
    }
    let (st, spec) = rematch_of(&slot.lock());
    let made = launch(&app, st, spec).await;
    let new_id = made
        .as_ref()
        .ok()
        .and_then(|v| v["id"].as_str().map(str::to_string));
    slot.ask(|r| Cmd::RematchMade(new_id, r)).await?;
    let mut v = made?;
    // The answer's links are the requester's only: the other person keeps their own secret.
    let swapped = [held[1], held[0]];
    if let Some(o) = v.as_object_mut() {
        if let Some(links) = o.get_mut("seats") {
            for (i, c) in ["white", "black"].iter().enumerate() {
                if !swapped[i] {
                    links[*c] = Value::Null;
                }
            }
        }
        o.insert("you".into(), you(swapped));
    }
    Ok((StatusCode::CREATED, Json(v)))
}

/// The record of the rematch of `old`: the same variant, engine and clock, the colours (and
/// the seats' secrets) swapped; the same start position, or a new random setup where the
/// game had one.
fn rematch_of(old: &GameState) -> (GameState, StartSpec) {
    let mut st = GameState::new(new_id(), old.variant.clone());
    st.players = [old.players[1], old.players[0]];
    st.seats = [old.seats[1].clone(), old.seats[0].clone()];
    st.names = [old.names[1].clone(), old.names[0].clone()];
    st.level = old.level;
    st.elo = old.elo;
    st.movetime_ms = old.movetime_ms;
    st.clock = old.clock.as_ref().map(|c| Clock {
        base_ms: c.base_ms,
        inc_ms: c.inc_ms,
        left_ms: [c.base_ms as i64; 2],
        running: None,
    });
    match old.seed {
        Some(_) => st.seed = Some(random_u64()),
        None => st.start_fen = old.start_fen.clone(),
    }
    let spec = StartSpec {
        fen: None,
        seed: st.seed,
        army: None,
    };
    (st, spec)
}

pub(super) async fn resign(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    b: Bytes,
) -> Result<Json<Value>, ApiError> {
    seat_action(&app, &id, &headers, &b, Cmd::Resign).await
}

pub(super) async fn claim(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    b: Bytes,
) -> Result<Json<Value>, ApiError> {
    seat_action(&app, &id, &headers, &b, Cmd::Claim).await
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
    #[serde(default)]
    seat: Option<SeatArg>,
}

pub(super) async fn analysis(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    b: Result<Json<AnalysisBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    let a = body(b)?;
    let held = held(&slot, &headers, a.seat.as_ref());
    let what = a.on.then(|| (a.ply, a.multipv.unwrap_or(1)));
    Ok(Json(slot.ask(|r| Cmd::Analysis(what, held, r)).await?))
}

pub(super) async fn evaluate(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    b: Bytes,
) -> Result<Json<Value>, ApiError> {
    seat_action(&app, &id, &headers, &b, Cmd::Evaluate).await
}

/// The body of `POST /api/games/{id}/review`: `{"nodes": n}` starts a review (default
/// 100,000 nodes a position), `{"cancel": true}` cancels the one under way; with `"seat"` as
/// for the other actions.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct ReviewBody {
    #[serde(default)]
    nodes: Option<u64>,
    #[serde(default)]
    cancel: bool,
    #[serde(default)]
    seat: Option<SeatArg>,
}

/// `POST /api/games/{id}/review`: starts (`202`, `{"started", "nodes", "total"}`) or cancels
/// the game's review (docs/gui.md "Review"); its progress comes over the event stream.
///
/// Errors: 400 for a bad body, 403 without a seat that may analyse the game, 422 for a game
/// without turns, one against the engine that goes on, or nodes out of range.
pub(super) async fn start_review(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    b: Bytes,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let slot = app.open(&id).await?;
    let body: ReviewBody = if b.iter().all(u8::is_ascii_whitespace) {
        ReviewBody::default()
    } else {
        serde_json::from_slice(&b).map_err(|e| ApiError::bad_request(format!("bad JSON: {e}")))?
    };
    let held = held(&slot, &headers, body.seat.as_ref());
    let nodes = (!body.cancel).then(|| body.nodes.unwrap_or(DEFAULT_NODES));
    let answer = slot.ask(|r| Cmd::Review(nodes, held, r)).await?;
    let status = if body.cancel {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    };
    Ok((status, Json(answer)))
}

/// `GET /api/games/{id}/review`: the game's review, `{"nodes", "plies": [{"ply", "eval",
/// "best", "class", ...}], "accuracy": {"white", "black"}, "counts": {...}, ...}`.
///
/// Errors: 404 when the game has no review of its turns as they are now.
pub(super) async fn get_review(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.open(&id).await?;
    let st = slot.lock();
    let r = st.review_of_game().ok_or_else(|| ApiError {
        status: 404,
        message: "the game has no review of its turns (POST .../review makes one)".into(),
    })?;
    Ok(Json(serde_json::to_value(r).unwrap_or(Value::Null)))
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
    let Some(open) = StreamSlot::take(&app.ctx.streams) else {
        return Err(ApiError {
            status: 429,
            message: format!("{MAX_STREAMS} event streams are open already"),
        });
    };
    let rx = slot.events.subscribe();
    let first = app.ctx.state_json(slot.json());
    let shutdown = app.ctx.shutdown.clone();
    let to_sse = |e: Event| match e {
        Event::State(v) => SseEvent::default().event("state").data(v.to_string()),
        Event::Info(v) => SseEvent::default().event("info").data(v.to_string()),
        Event::BestMove(v) => SseEvent::default().event("bestmove").data(v.to_string()),
        Event::Review(v) => SseEvent::default().event("review").data(v.to_string()),
    };
    // The stream holds its place (`open`) until the page goes away.
    let stream = futures_util::stream::unfold(
        (Some(first), rx, shutdown, open),
        move |(first, mut rx, mut sd, open)| async move {
            if let Some(v) = first {
                return Some((Ok(to_sse(Event::State(v))), (None, rx, sd, open)));
            }
            loop {
                if *sd.borrow() {
                    return None;
                }
                tokio::select! {
                    r = rx.recv() => match r {
                        Ok(e) => return Some((Ok(to_sse(e)), (None, rx, sd, open))),
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
