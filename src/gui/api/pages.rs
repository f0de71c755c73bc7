//! The page and its assets (embedded in the binary), the rules of each variant and the
//! documentation pages, rendered from the embedded Markdown.

use axum::body::Body;
use axum::extract::{Path as UrlPath, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Redirect, Response};
use rust_embed::RustEmbed;

use super::app::{clean, App};
use crate::gui::error::ApiError;

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

/// An embedded file as a response, its type from its extension.
pub(super) fn embedded(data: std::borrow::Cow<'static, [u8]>, path: &str) -> Response {
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

/// The page of every address the page itself handles (`/`, `/game/{id}`).
pub(super) async fn page() -> Response {
    match Assets::get("index.html") {
        Some(f) => embedded(f.data, "index.html"),
        None => ApiError::not_found("the page is missing from this build").into_response(),
    }
}

/// A file of the page.
pub(super) async fn asset(UrlPath(path): UrlPath<String>) -> Response {
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
pub(super) async fn rules(State(app): State<App>, UrlPath(variant): UrlPath<String>) -> Response {
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
pub(super) async fn doc(UrlPath(path): UrlPath<String>) -> Response {
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
    // A variant's rules page ends with its pieces, each opening its diagram when clicked
    // (rules.js asks the engine through the API; the variant is the file's name without dashes).
    let pieces = path
        .strip_prefix("rules/")
        .and_then(|f| f.strip_suffix(".md"))
        .map(|stem| {
            format!(
                "<section id=\"rules-pieces\" data-variant=\"{}\"></section>\
                 <script type=\"module\" src=\"/assets/rules.js\"></script>",
                stem.replace('-', "")
                    .replace(|c: char| !c.is_ascii_alphanumeric(), "")
            )
        })
        .unwrap_or_default();
    let page = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/assets/doc.css\">\
         <link rel=\"stylesheet\" href=\"/assets/pieces.css\"></head><body>\
         <nav><a href=\"/\">menagerie</a></nav><main class=\"doc\">{html}{pieces}</main></body></html>"
    );
    embedded(std::borrow::Cow::Owned(page.into_bytes()), "page.html")
}
