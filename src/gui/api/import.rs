//! PGN import (`POST /api/import`) and the engine's proposals for a pre-game step
//! (`POST /api/muster/propose`).

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::app::{body, clean, new_id, App};
use crate::client::AsyncEngine;
use crate::client::Pregame;
use crate::gui::driver;
use crate::gui::error::ApiError;
use crate::gui::record::{new_secret, Colour};
use crate::gui::slot::{Cmd, StartSpec};
use crate::gui::store;
use crate::tools::pgn::parse_pgn;

/// The most games one import may open.
const IMPORT_LIMIT: usize = 50;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ImportBody {
    pgn: String,
}

/// `POST /api/import`: opens every game of a PGN text for analysis.
pub(super) async fn import(
    State(app): State<App>,
    b: Result<Json<ImportBody>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let text = body(b)?.pgn;
    let games = parse_pgn(&text).map_err(|e| ApiError::unprocessable(format!("PGN: {e}")))?;
    if games.is_empty() {
        return Err(ApiError::unprocessable("PGN: no game in the text"));
    }
    if games.len() > IMPORT_LIMIT {
        return Err(ApiError::unprocessable(format!(
            "PGN: at most {IMPORT_LIMIT} games at once"
        )));
    }
    let mut ids = Vec::new();
    let mut errors = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let mut st = match store::from_pgn(new_id(), g, &app.ctx.variants) {
            Ok(st) => st,
            Err(e) => {
                errors.push(format!("game {}: {e}", i + 1));
                continue;
            }
        };
        // An imported game is for analysis: nobody plays the engine in it.
        st.set_engine_word("none");
        st.clock = None;
        // The importer holds both seats (the answer's links).
        for seat in st.seats.iter_mut() {
            *seat = Some(new_secret().map_err(|e| ApiError {
                status: 500,
                message: e,
            })?);
        }
        let slot = driver::start(st, Arc::clone(&app.ctx));
        app.insert(Arc::clone(&slot));
        match slot.ask(|r| Cmd::Init(StartSpec::default(), r)).await {
            Ok(_) => {
                let (text, links) = {
                    let st = slot.lock();
                    (
                        store::seats_text(&st),
                        app.ctx.seat_links(&st, [true, true]),
                    )
                };
                if let Some(text) = text {
                    app.ctx.writer.save_seats(slot.id.clone(), text);
                }
                ids.push(json!({"id": slot.id, "seats": links}))
            }
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
pub(super) struct ProposeBody {
    colour: Colour,
    #[serde(default)]
    variant: Option<String>,
}

/// `POST /api/muster/propose`: the engine's army of a colour, for a variant with the `army`
/// pre-game step.
pub(super) async fn muster_propose(
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
            .find(|d| d.has_pregame(Pregame::Army))
            .map(|d| d.name.clone())
            .ok_or_else(|| ApiError::unprocessable("no variant musters armies"))?,
    };
    if !app
        .variant(&variant)
        .is_some_and(|d| d.has_pregame(Pregame::Army))
    {
        return Err(ApiError::unprocessable(format!(
            "{} has no armies to muster",
            clean(&variant)
        )));
    }
    let _place = app
        .ctx
        .engines
        .search_place()
        .await
        .map_err(|e| ApiError::engine(&e))?;
    let mut e = AsyncEngine::spawn(app.ctx.engines.program())
        .await
        .map_err(|e| ApiError::engine(&e))?;
    e.select(&variant).await.map_err(|e| ApiError::engine(&e))?;
    let half = driver::propose(&mut e, p.colour)
        .await
        .map_err(|e| ApiError::engine(&e))?;
    e.quit().await;
    Ok(Json(json!({"colour": p.colour, "half": half})))
}
