//! Who may talk to the server (docs/gui.md "Access"): the Host header must name the server,
//! a request that changes state must not come from a foreign page (`Origin`), and where a
//! token is set (by default on any address but a loopback one) every request must carry it.
//!
//! The Host rule stops DNS rebinding: a page of `evil.example` whose name was made to point at
//! 127.0.0.1 still sends `Host: evil.example`. A request with two Host headers is refused, and
//! one whose target is in absolute form (`http://name/path`) must name the server there too. The Origin rule stops a foreign page from
//! posting to the server by a plain form or `fetch` (the browser sends its origin). The token
//! stops other people on the network. None of it encrypts: on an untrusted network, the server
//! belongs behind a reverse proxy with TLS.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;

use super::error::ApiError;

/// The cookie that keeps the access token in the browser.
pub const TOKEN_COOKIE: &str = "menagerie_token";

/// The access rules of one launch of the server.
#[derive(Clone, Debug)]
pub struct Access {
    /// The Host header values accepted, lower case (`127.0.0.1:8080`, `localhost:8080`, ...).
    hosts: Vec<String>,
    /// The origins whose state-changing requests are accepted (`http://` and each host).
    origins: Vec<String>,
    /// The access token, if the server asks for one.
    token: Option<String>,
}

/// A new access token: 32 bytes (256 bits) from the operating system's random source, as 64
/// hex digits.
///
/// Errors: the operating system gives no random bytes.
pub fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random bytes for the token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether `host` (an address or name, as given to `--host`) is a loopback address.
pub fn is_loopback(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost")
        || h.parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl Access {
    /// The rules for a server listening on `host` and `port`, with the extra names of
    /// `--allowed-host` and the token (`None`: none asked).
    pub fn new(host: &str, port: u16, allowed: &[String], token: Option<String>) -> Access {
        let mut names: Vec<String> = vec!["127.0.0.1".into(), "localhost".into(), "[::1]".into()];
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let listen = if bare.contains(':') {
            format!("[{bare}]")
        } else {
            bare.to_string()
        };
        for n in std::iter::once(listen).chain(allowed.iter().cloned()) {
            let n = n.to_ascii_lowercase();
            if !n.is_empty() && !names.contains(&n) {
                names.push(n);
            }
        }
        let mut hosts = Vec::new();
        for n in &names {
            hosts.push(format!("{n}:{port}"));
            if port == 80 {
                hosts.push(n.clone());
            }
        }
        let origins = hosts.iter().map(|h| format!("http://{h}")).collect();
        Access {
            hosts,
            origins,
            token,
        }
    }

    /// The token, if the server asks for one.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// Whether `host` (a Host header's value) names this server.
    pub fn host_allowed(&self, host: &str) -> bool {
        let h = host.trim().to_ascii_lowercase();
        self.hosts.contains(&h)
    }

    /// Whether `origin` (an Origin header's value) is this server's own.
    pub fn origin_allowed(&self, origin: &str) -> bool {
        let o = origin.trim().to_ascii_lowercase();
        self.origins.contains(&o)
    }

    /// The token a request carries: `?token=`, the `Authorization: Bearer` header, or the
    /// cookie.
    fn presented<'a>(headers: &'a HeaderMap, query: Option<&'a str>) -> Option<&'a str> {
        let from_query = query.and_then(|q| {
            q.split('&')
                .find_map(|kv| kv.strip_prefix("token="))
                .filter(|t| !t.is_empty())
        });
        let from_header = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        let from_cookie = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .find_map(|c| c.trim().strip_prefix(TOKEN_COOKIE)?.strip_prefix('='));
        from_query.or(from_header).or(from_cookie)
    }

    /// Whether `given` is the token, compared in constant time.
    fn token_matches(&self, given: &str) -> bool {
        self.token.as_deref().is_some_and(|t| {
            t.len() == given.len() && bool::from(t.as_bytes().ct_eq(given.as_bytes()))
        })
    }
}

/// The short page a request without the token gets (401).
fn token_needed(api: bool) -> Response {
    if api {
        let mut r = ApiError {
            status: 401,
            message:
                "this server needs its access token: open the address it printed (…/?token=...)"
                    .into(),
        }
        .into_response();
        r.headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        return r;
    }
    let page = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Token needed</title>\
        <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"></head><body>\
        <h1>Token needed</h1><p>This menagerie server asks for its access token. Open the address \
        it printed when it started (it ends with <code>/?token=...</code>).</p></body></html>";
    let mut r = (StatusCode::UNAUTHORIZED, page).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    r
}

/// The middleware: the Host rule, the Origin rule, then the token.
pub async fn guard(
    axum::extract::State(access): axum::extract::State<std::sync::Arc<Access>>,
    req: Request,
    next: Next,
) -> Response {
    let headers = req.headers();
    let mut hosts = headers.get_all(header::HOST).iter();
    let host = hosts.next().and_then(|v| v.to_str().ok());
    if hosts.next().is_some() {
        // Which one would count is the client's guess (RFC 9112 3.2: 400).
        return ApiError::bad_request("more than one Host header").into_response();
    }
    // A request target in absolute form (`POST http://name/...`) names the server too, and
    // in place of the Host header (RFC 9112 3.2.2): both must name this one.
    let authority = req.uri().authority().map(|a| a.as_str());
    if !host.is_some_and(|h| access.host_allowed(h))
        || !authority.is_none_or(|a| access.host_allowed(a))
    {
        return ApiError {
            status: 421,
            message: "this server answers only to its own address (the Host header names another)"
                .into(),
        }
        .into_response();
    }
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if changes_state {
        if let Some(origin) = headers.get(header::ORIGIN) {
            let own = origin.to_str().is_ok_and(|o| access.origin_allowed(o));
            if !own {
                return ApiError {
                    status: 403,
                    message: "a page of another origin may not change anything here".into(),
                }
                .into_response();
            }
        }
    }
    if access.token.is_some() {
        let query = req.uri().query();
        let given = Access::presented(headers, query);
        if !given.is_some_and(|t| access.token_matches(t)) {
            return token_needed(req.uri().path().starts_with("/api/"));
        }
        let from_query = query.is_some_and(|q| q.split('&').any(|kv| kv.starts_with("token=")));
        if from_query && req.method() == Method::GET {
            // The token in the address: keep it in a cookie and drop it from the address.
            let rest: Vec<&str> = query
                .unwrap_or("")
                .split('&')
                .filter(|kv| !kv.starts_with("token=") && !kv.is_empty())
                .collect();
            let target = if rest.is_empty() {
                req.uri().path().to_string()
            } else {
                format!("{}?{}", req.uri().path(), rest.join("&"))
            };
            let cookie = format!(
                "{TOKEN_COOKIE}={}; HttpOnly; SameSite=Strict; Path=/",
                access.token.as_deref().unwrap_or("")
            );
            let mut r = (StatusCode::SEE_OTHER, "").into_response();
            if let (Ok(loc), Ok(c)) = (
                HeaderValue::from_str(&target),
                HeaderValue::from_str(&cookie),
            ) {
                r.headers_mut().insert(header::LOCATION, loc);
                r.headers_mut().insert(header::SET_COOKIE, c);
                return r;
            }
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_origins() {
        let a = Access::new("127.0.0.1", 8080, &["chess.lan".into()], None);
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
            "chess.lan:8080",
        ] {
            assert!(a.host_allowed(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "127.0.0.1",
            "127.0.0.1:8081",
            "",
            "chess.lan",
        ] {
            assert!(!a.host_allowed(bad), "{bad}");
        }
        assert!(a.origin_allowed("http://localhost:8080"));
        assert!(!a.origin_allowed("http://evil.example:8080"));
        assert!(!a.origin_allowed("null"));
        assert!(!a.origin_allowed("https://127.0.0.1:8080"));
        let on_80 = Access::new("0.0.0.0", 80, &[], None);
        assert!(on_80.host_allowed("localhost") && on_80.host_allowed("0.0.0.0:80"));
        let v6 = Access::new("::", 9000, &[], None);
        assert!(v6.host_allowed("[::]:9000"));
    }

    #[test]
    fn loopback_addresses() {
        for h in ["127.0.0.1", "localhost", "::1", "[::1]", "127.1.2.3"] {
            assert!(is_loopback(h), "{h}");
        }
        for h in ["0.0.0.0", "192.168.1.2", "::", "example.org"] {
            assert!(!is_loopback(h), "{h}");
        }
    }

    #[test]
    fn tokens_are_long_random_and_compared_whole() {
        let (t1, t2) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(t1.len(), 64);
        assert_ne!(t1, t2);
        let a = Access::new("127.0.0.1", 1, &[], Some(t1.clone()));
        assert!(a.token_matches(&t1));
        assert!(!a.token_matches(&t1[..63]));
        assert!(!a.token_matches(&t2));
        assert!(!a.token_matches(""));
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("a=b; {TOKEN_COOKIE}={t1}")).unwrap(),
        );
        assert_eq!(Access::presented(&h, None), Some(t1.as_str()));
        assert_eq!(
            Access::presented(&HeaderMap::new(), Some("x=1&token=abc")),
            Some("abc")
        );
    }
}
