//! The API's errors: an HTTP status and a reason, answered as `{"error": reason}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::client::EngineFault;

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

    /// `403`: a request from a page whose seat may not do this (docs/gui.md "Seats").
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 403,
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

    /// `422` when the engine refused the command (its reason), else `503`: the engine failed.
    pub fn engine(e: &EngineFault) -> ApiError {
        match e {
            EngineFault::Refused(why) => ApiError::unprocessable(why.clone()),
            other => ApiError {
                status: 503,
                message: other.to_string(),
            },
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(json!({"error": self.message}))).into_response()
    }
}
