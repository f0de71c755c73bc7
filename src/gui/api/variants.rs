//! The variants as the engine describes them (docs/gui.md "API"): `GET /api/variants`, and a
//! piece's diagram, `GET /api/variants/{variant}/pieces/{code}/diagram?square=<sq>`, which the
//! engine computes (the protocol's `diagram` command) and the server keeps once asked.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path as UrlPath, Query, State};
use axum::Json;
use serde::Deserialize;
use serde_json::Value;

use super::app::{clean, App};
use crate::client::{parse_diagram, DiagramDesc};
use crate::gui::error::ApiError;

pub(super) async fn variants(State(app): State<App>) -> Json<Value> {
    Json(serde_json::to_value(&app.ctx.variants).unwrap_or(Value::Null))
}

/// The query of a diagram: the square the piece stands on.
#[derive(Deserialize)]
pub(super) struct DiagramQuery {
    square: Option<String>,
}

/// Whether `s` has the shape of a square name (a file letter and a rank of one or two digits),
/// so that nothing else reaches the engine's command line.
fn square_shaped(s: &str) -> bool {
    let b = s.as_bytes();
    (2..=3).contains(&b.len()) && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit)
}

pub(super) async fn diagram(
    State(app): State<App>,
    UrlPath((variant, code)): UrlPath<(String, String)>,
    q: Result<Query<DiagramQuery>, QueryRejection>,
) -> Result<Json<DiagramDesc>, ApiError> {
    let desc = app
        .variant(&variant)
        .ok_or_else(|| ApiError::not_found(format!("no variant '{}'", clean(&variant))))?;
    let piece = desc
        .pieces
        .iter()
        .find(|p| p.code.eq_ignore_ascii_case(&code))
        .ok_or_else(|| {
            ApiError::not_found(format!("{} has no piece '{}'", desc.name, clean(&code)))
        })?;
    let square = q
        .map_err(|e| ApiError::bad_request(format!("bad query: {e}")))?
        .0
        .square
        .ok_or_else(|| ApiError::bad_request("the query needs ?square=<square>"))?;
    if !square_shaped(&square) {
        return Err(ApiError::bad_request(format!(
            "'{}' is not a square name",
            clean(&square)
        )));
    }
    let key = format!("{}/{}/{square}", desc.name, piece.code);
    if let Some(d) = app.ctx.lock_diagrams().get(&key) {
        return Ok(Json(d.clone()));
    }
    let command = format!("diagram {} {square}", piece.code);
    let lines = app
        .ctx
        .engines
        .query(&desc.name, std::slice::from_ref(&command), false)
        .await
        .map_err(|e| match e {
            crate::client::EngineFault::Refused(_) => ApiError::unprocessable(e.to_string()),
            e => ApiError::engine(&e),
        })?;
    let d = parse_diagram(&lines).map_err(ApiError::unprocessable)?;
    app.ctx.lock_diagrams().insert(key, d.clone());
    Ok(Json(d))
}
