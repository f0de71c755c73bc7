//! The server's HTTP face (docs/gui.md): the routes, the page and documentation
//! (`pages`), the variants and their pieces' diagrams (`variants`), the games' API (`games`),
//! PGN import and the pre-game proposals (`import`). Every handler is a thin layer over a game's driver.

pub mod app;
mod games;
mod import;
mod pages;
mod variants;

use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::time::Duration;

pub use app::App;
use games::{
    analysis, claim, create_game, decline, draw, evaluate, events, get_game, get_review, legal,
    list_games, metrics, pgn, play, preview, rematch, resign, start_review, takeback,
};
use import::{import, muster_propose};
use pages::{asset, doc, page, rules};
use variants::{check_fen, diagram, variants};

use super::error::ApiError;

/// The largest request body, bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The routes of the server, over `app`; a request's body must be in within `body_timeout`
/// of its head ([`crate::gui::http::BODY_TIMEOUT_SECS`]).
pub fn router(app: App, body_timeout: Duration) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/game/{id}", get(page))
        .route("/editor", get(page))
        .route("/assets/{*path}", get(asset))
        .route("/rules/{variant}", get(rules))
        .route("/docs/{*path}", get(doc))
        .route("/api/variants", get(variants))
        .route(
            "/api/variants/{variant}/pieces/{code}/diagram",
            get(diagram),
        )
        .route("/api/variants/{variant}/fen", post(check_fen))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/legal", get(legal))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/decline", post(decline))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/preview", post(preview))
        .route("/api/games/{id}/analysis", post(analysis))
        .route("/api/games/{id}/evaluate", post(evaluate))
        .route("/api/games/{id}/review", get(get_review).post(start_review))
        .route("/api/games/{id}/pgn", get(pgn))
        .route("/api/games/{id}/events", get(events))
        .route("/api/import", post(import))
        .route("/api/muster/propose", post(muster_propose))
        .route("/api/metrics", get(metrics))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            body_timeout,
            read_body,
        ))
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

/// Reads a request's whole body before its handler runs, within `timeout` of its head: a body
/// that stops coming gets `408` and its connection is closed, instead of holding it. A body
/// over [`BODY_LIMIT`] without a `Content-Length` (chunked) gets `413` as soon as it is, and
/// one that breaks off (the connection closed, a bad chunk) `400`.
async fn read_body(
    axum::extract::State(timeout): axum::extract::State<Duration>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    use futures_util::StreamExt;
    let (parts, body) = req.into_parts();
    let mut stream = body.into_data_stream();
    let mut bytes: Vec<u8> = Vec::new();
    let whole = async {
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| ApiError::bad_request(format!("bad body: {e}")))?;
            if bytes.len() + chunk.len() > BODY_LIMIT {
                return Err(ApiError {
                    status: 413,
                    message: format!("the body is larger than {BODY_LIMIT} bytes"),
                });
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(())
    };
    let read = match tokio::time::timeout(timeout, whole).await {
        Ok(r) => r,
        Err(_) => Err(ApiError {
            status: 408,
            message: format!(
                "the body did not arrive within {} ms of the head",
                timeout.as_millis()
            ),
        }),
    };
    if let Err(e) = read {
        // The rest of the body is not read: the connection closes after this answer.
        let mut r = e.into_response();
        r.headers_mut().insert(
            header::CONNECTION,
            axum::http::HeaderValue::from_static("close"),
        );
        return r;
    }
    next.run(axum::extract::Request::from_parts(
        parts,
        axum::body::Body::from(bytes),
    ))
    .await
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such page")
}
