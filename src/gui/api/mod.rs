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

pub use app::App;
use games::{
    analysis, claim, create_game, decline, draw, evaluate, events, get_game, get_review, legal,
    list_games, metrics, pgn, play, preview, rematch, resign, start_review, takeback,
};
use import::{import, muster_propose};
use pages::{asset, doc, page, rules};
use variants::{diagram, variants};

use super::error::ApiError;

/// The largest request body, bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The routes of the server, over `app`.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/game/{id}", get(page))
        .route("/assets/{*path}", get(asset))
        .route("/rules/{variant}", get(rules))
        .route("/docs/{*path}", get(doc))
        .route("/api/variants", get(variants))
        .route(
            "/api/variants/{variant}/pieces/{code}/diagram",
            get(diagram),
        )
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
