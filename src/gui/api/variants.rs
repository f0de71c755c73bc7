//! The variants as the engine describes them (docs/gui.md "API"): `GET /api/variants`, and a
//! piece's diagram, `GET /api/variants/{variant}/pieces/{code}/diagram?square=<sq>`, which the
//! engine computes (the protocol's `diagram` command) and the server keeps once asked; and a
//! set-up position checked by the engine's FEN reader, `POST /api/variants/{variant}/fen`, for
//! the board editor.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path as UrlPath, Query, State};
use axum::Json;
use serde::Deserialize;
use serde_json::Value;

use super::app::{body, clean, App};
use crate::client::{parse_diagram, parse_report, report_commands, DiagramDesc, EngineFault};
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
        .map_err(refused_or_fault)?;
    let d = parse_diagram(&lines).map_err(ApiError::unprocessable)?;
    app.ctx.lock_diagrams().insert(key, d.clone());
    Ok(Json(d))
}

/// A refusal of the engine as 422 with its words; any other fault as the engine's error.
fn refused_or_fault(e: EngineFault) -> ApiError {
    match e {
        EngineFault::Refused(why) => ApiError::unprocessable(why),
        e => ApiError::engine(&e),
    }
}

/// The body of `POST /api/variants/{variant}/fen`.
#[derive(Deserialize)]
pub(super) struct FenBody {
    fen: String,
}

/// `POST /api/variants/{variant}/fen` with `{"fen"}`: the engine reads the FEN as a game of the
/// variant would start from it (protocol.md 4). The answer is 200 either way, since the
/// question was answered: `{"valid": true, "fen"` (the canonical FEN), `"legal"` (the number
/// of legal turns), `"check"` (squares of royal pieces in check), `"result"` (`{"score",
/// "reason"}` when the position is over by rule, else `null`)`}`, or `{"valid": false,
/// "error"}` with the engine's own words. A FEN of more than 1,000 bytes, with control
/// characters or with the word `moves` never reaches the engine and is not valid either.
///
/// Errors: 404 for an unknown variant; 400 for a body that is not `{"fen": string}`; 502 or
/// 503 when the engine cannot answer.
pub(super) async fn check_fen(
    State(app): State<App>,
    UrlPath(variant): UrlPath<String>,
    b: Result<Json<FenBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let desc = app
        .variant(&variant)
        .ok_or_else(|| ApiError::not_found(format!("no variant '{}'", clean(&variant))))?;
    let fen = body(b)?.fen;
    let fen = fen.trim();
    let invalid = |why: String| Ok(Json(serde_json::json!({"valid": false, "error": why})));
    if fen.is_empty() {
        return invalid("bad FEN: it is empty".into());
    }
    if fen.len() > 1000 || fen.chars().any(char::is_control) {
        return invalid("bad FEN: more than 1000 bytes or a control character".into());
    }
    if fen.split_whitespace().any(|w| w == "moves") {
        return invalid("bad FEN: the word 'moves' is not a field".into());
    }
    let mut commands = vec![format!("position fen {fen}")];
    commands.extend(report_commands());
    let lines = match app.ctx.engines.query(&desc.name, &commands, true).await {
        Ok(lines) => lines,
        Err(EngineFault::Refused(why)) => return invalid(why),
        Err(e) => return Err(ApiError::engine(&e)),
    };
    let r = parse_report(&lines).map_err(ApiError::unprocessable)?;
    Ok(Json(serde_json::json!({
        "valid": true,
        "fen": r.fen,
        "legal": r.legal.len(),
        "check": r.check,
        "result": r.result.map(|(score, reason)| serde_json::json!({"score": score, "reason": reason})),
    })))
}
