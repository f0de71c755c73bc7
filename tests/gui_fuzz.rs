#![cfg(feature = "gui")]
//! An HTTP fuzzer of the GUI server: [`REQUESTS`] seeded pseudo-random requests over raw TCP
//! (so that anything may be sent: bad methods, paths, versions, headers, framings and bodies)
//! at a server that asks for its access token and holds a few games. Most are to the routes
//! that change a game, but without the game's seat (none, another game's, a made-up one). An
//! insider's request ([`INSIDERS`] in a hundred) has everything else right (its own Host, the
//! token, no foreign Origin, a JSON body of the right length), so that it reaches the
//! handlers; the others may have anything wrong, a foreign Host or Origin, no token.
//!
//! Invariants checked:
//! - the server never dies and never logs a panic;
//! - every complete request written whole and small enough to be read before any answer, the
//!   first of its connection, gets an answer (a panicking handler shows as a connection
//!   closed without one), and no answer is a 5xx but 503 (an engine's failure);
//! - every game made before the fuzz has the same state afterwards, and every file of the
//!   games directory the same bytes;
//! - the only new files are those of new games, each answered 201 (a well-formed game
//!   creation or PGN import with the token may make one) or made by a creation that got no
//!   answer in time.
//!
//! The run is part of `cargo test`; `GUI_FUZZ_SEED` and `GUI_FUZZ_REQUESTS` choose another
//! seed and length: `GUI_FUZZ_SEED=2 GUI_FUZZ_REQUESTS=40000 cargo test --profile
//! release-tests --test integration -- gui_fuzz --nocapture`. It prints one line of figures.

use crate::gui_common;

use std::collections::{BTreeMap, HashSet};
use std::io::{BufReader, Write};
use std::net::{Shutdown, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

use gui_common::{link_secret, read_answer, strings, temp_dir, RawAnswer, Rng, Server};
use serde_json::{json, Value};

/// How many requests are sent.
const REQUESTS: usize = 10_000;
/// The seed of the requests.
const SEED: u64 = 0x6775_695f_6675_7a7a;
/// The access token the server is started with (`--token`).
const TOKEN: &str = "fuzz0123456789abcdef0123456789ab";
/// The server's `--max-engines`: the games made before and during the fuzz each hold an
/// engine while they are in use, and a new game waits for a free one.
const MAX_ENGINES: &str = "24";
/// How many requests in a hundred are an insider's (see [`request`]).
const INSIDERS: usize = 60;
/// The longest a request's answer is waited for; longer is counted as a timeout.
const ANSWER_WAIT: Duration = Duration::from_secs(3);
/// A request up to this size is written whole before the server can answer: it must get an
/// answer (a longer one may be answered early and reset while it is still being written).
const SMALL: usize = 4096;
/// The server's body limit (src/gui/api/mod.rs).
const BODY_LIMIT: usize = 64 * 1024;

/// A game made before the fuzz.
struct Game {
    id: String,
    /// Its seats' secrets (the fuzzer never sends them to this game).
    secrets: Vec<String>,
    /// Its legal turns when the fuzz starts: turns that look right, sent with a wrong seat.
    legal: Vec<String>,
}

/// What the requests are made of.
struct Target {
    /// `127.0.0.1:PORT`.
    addr: String,
    port: String,
    games: Vec<Game>,
}

/// One request of the fuzz.
struct Req {
    bytes: Vec<u8>,
    /// It may make games (`POST /api/games`, `POST /api/import`).
    creates: bool,
    /// Where the bytes are cut into separate writes.
    cuts: Vec<usize>,
    /// Every byte the head and framing announce is sent (else the client half-closes).
    complete: bool,
    /// The answer has no body (HEAD).
    head: bool,
    /// It must get an answer (if it is the first of its connection): complete, small,
    /// written at once, and with no body whose framing is broken.
    must_answer: bool,
    /// More bytes follow the request on the connection (a Content-Length shorter than the
    /// body, or a body without one): nothing more is sent on it.
    trailing: bool,
    /// A short description, for the failures.
    label: String,
    /// What it was made for: an action's path suffix, a route, `read` or `page`.
    route: String,
}

/// What happened to one request.
enum Outcome {
    Answered(RawAnswer),
    /// No answer within [`ANSWER_WAIT`].
    Timeout,
    /// The connection was reset (on writing or reading).
    Reset,
    /// The connection ended before any answer.
    Closed,
    /// The answer was cut short or is not HTTP.
    Broken(String),
}

/// The actions that change a game, by path suffix; all but `preview` need a seat.
const ACTIONS: [&str; 10] = [
    "/moves",
    "/takeback",
    "/resign",
    "/claim",
    "/draw",
    "/decline",
    "/rematch",
    "/preview",
    "/analysis",
    "/evaluate",
];

/// The reads of a game, by path suffix.
const READS: [&str; 7] = [
    "",
    "/legal?ply=1",
    "/legal",
    "/pgn",
    "/events",
    "/legal?ply=99999999999999999999",
    "/legal?ply=-1",
];

/// Other paths of the server, and some that are not.
const PAGES: [&str; 24] = [
    "/",
    "/game/{id}",
    "/assets/app.js",
    "/assets/../Cargo.toml",
    "/assets/%2e%2e/%2e%2e/Cargo.toml",
    "/rules/chess",
    "/rules/..%2f..%2fREADME",
    "/docs/gui.md",
    "/docs/../README.md",
    "/api/variants",
    "/api/variants/chess/pieces/N/diagram?square=e4",
    "/api/variants/chess/pieces/N/diagram?square=e4%0Aquit",
    "/api/variants/mitosis/pieces/G/diagram?square=z99",
    "/api/variants/chess%0Aquit/pieces/K/diagram?square=e1",
    "/api/variants/chess/pieces/%0Ad/diagram?square=a1",
    "/api/games",
    "/api/import",
    "/api/muster/propose",
    "/api/metrics",
    "/api/games/",
    "/api",
    "*",
    "/favicon.ico",
    "/api/games?limit=99999999999",
];

/// Strings for any string field: turn-like words, protocol lines smuggled in, odd bytes.
const WORDS: [&str; 24] = [
    "e2e4",
    "e7e5",
    "0000",
    "e7e8q",
    "M@b3",
    "M@b3;d2d3",
    "R@d0,B@e0,N@f0;e3",
    "e2e4\nquit",
    "e2e4\r\nposition startpos moves e2e4 e7e5",
    "",
    " ",
    "\u{0}",
    "\u{7f}",
    "é",
    "♞",
    "../../etc/passwd",
    "%00",
    "null",
    "chess",
    "mulliganstew",
    "white",
    "black",
    "draw",
    "{\"token\":\"e2e4\"}",
];

/// Keys for made-up objects: those of every body of the API, and others.
const KEYS: [&str; 26] = [
    "token",
    "ply",
    "seat",
    "on",
    "multipv",
    "tokens",
    "offer",
    "variant",
    "white",
    "black",
    "engine",
    "seed",
    "fen",
    "level",
    "elo",
    "movetime_ms",
    "clock",
    "army",
    "pgn",
    "colour",
    "base_ms",
    "inc_ms",
    "build",
    "half",
    "pick",
    "__proto__",
];

/// Numbers as JSON text, some beyond every Rust integer and float.
const NUMBERS: [&str; 16] = [
    "0",
    "1",
    "-1",
    "3",
    "20",
    "21",
    "255",
    "65536",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "1e400",
    "-0",
    "0.5",
    "123456789012345678901234567890",
];

/// A JSON string literal of `s`.
fn jstr(s: &(impl AsRef<str> + ?Sized)) -> String {
    serde_json::to_string(s.as_ref()).unwrap()
}

/// A random JSON value as text, `depth` levels at most.
fn any_json(rng: &mut Rng, depth: usize) -> String {
    match rng.below(if depth == 0 { 5 } else { 7 }) {
        0 => "null".into(),
        1 => rng.pick(&["true", "false"]).to_string(),
        2 => rng.pick(&NUMBERS).to_string(),
        3 | 4 => jstr(rng.pick(&WORDS)),
        5 => {
            let n = rng.below(4);
            let items: Vec<String> = (0..n).map(|_| any_json(rng, depth - 1)).collect();
            format!("[{}]", items.join(","))
        }
        _ => {
            let n = rng.below(4);
            let items: Vec<String> = (0..n)
                .map(|_| format!("{}:{}", jstr(rng.pick(&KEYS)), any_json(rng, depth - 1)))
                .collect();
            format!("{{{}}}", items.join(","))
        }
    }
}

/// A seat secret that is not one of `game`'s: another game's, a made-up one, or junk.
fn wrong_seat(rng: &mut Rng, t: &Target, game: Option<usize>) -> String {
    let others: Vec<&String> = t
        .games
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != game)
        .flat_map(|(_, g)| &g.secrets)
        .collect();
    match rng.below(6) {
        0 | 1 if !others.is_empty() => (*rng.pick(&others)).clone(),
        2 => (0..32)
            .map(|_| char::from(b"0123456789abcdef"[rng.below(16)]))
            .collect(),
        3 => "a".repeat(rng.pick(&[31usize, 33, 128, 129, 1000]).to_owned()),
        4 => rng
            .pick(&["", ",", ",,,,", "null", "white", "é", " x "])
            .to_string(),
        _ => {
            // Two or more, one of them another game's when there is one.
            let mut v = vec!["0".repeat(32)];
            if !others.is_empty() {
                v.push((*rng.pick(&others)).clone());
            }
            v.push("f".repeat(32));
            v.join(",")
        }
    }
}

/// A body for `action` of game `game` that looks right (with a wrong seat, or none).
fn action_body(rng: &mut Rng, t: &Target, game: Option<usize>, action: &str) -> String {
    let seat = |rng: &mut Rng| -> String {
        match rng.below(4) {
            0 => String::new(),
            1 => format!(
                ",\"seat\":[{},{}]",
                jstr(&wrong_seat(rng, t, game)),
                jstr(&wrong_seat(rng, t, game))
            ),
            _ => format!(",\"seat\":{}", jstr(&wrong_seat(rng, t, game))),
        }
    };
    let legal = |rng: &mut Rng| -> String {
        match game {
            Some(g) if !t.games[g].legal.is_empty() && rng.chance(70) => {
                rng.pick(&t.games[g].legal).clone()
            }
            _ => rng.pick(&WORDS).to_string(),
        }
    };
    match action {
        "/moves" => {
            let ply = if rng.chance(20) {
                format!(",\"ply\":{}", rng.pick(&NUMBERS))
            } else {
                String::new()
            };
            format!("{{\"token\":{}{ply}{}}}", jstr(&legal(rng)), seat(rng))
        }
        "/decline" => format!(
            "{{\"offer\":{}{}}}",
            jstr(rng.pick(&["draw", "takeback", "rematch", "resign", ""])),
            seat(rng)
        ),
        "/preview" => {
            let n = rng.below(3) + 1;
            let tokens: Vec<String> = (0..n).map(|_| jstr(&legal(rng))).collect();
            format!("{{\"tokens\":[{}]}}", tokens.join(","))
        }
        "/analysis" => format!(
            "{{\"on\":{},\"multipv\":{},\"ply\":{}{}}}",
            rng.pick(&["true", "false"]),
            rng.pick(&NUMBERS),
            rng.pick(&NUMBERS),
            seat(rng)
        ),
        "/api/games" => {
            // Mostly refused (a bad field), now and then a game that is made.
            // Each game made holds an engine for a while (docs/gui.md "--max-engines"): few
            // of the bodies name a variant.
            let variant = rng.pick(&[
                "chess",
                "mulliganstew",
                "mitosis",
                "xiangqi",
                "",
                "CHESS",
                "chess\n",
                "ch\u{0}ess",
                "\u{265e}",
                "shogi",
            ]);
            let mut fields = vec![format!("\"variant\":{}", jstr(variant))];
            for (key, values) in [
                (
                    "engine",
                    &["\"none\"", "\"black\"", "\"purple\"", "5", "null"][..],
                ),
                ("movetime_ms", &["10", "0", "600001", "-5", "1e400"][..]),
                ("level", &["0", "21", "-1", "\"3\""][..]),
                ("seed", &["3", "18446744073709551616", "\"x\""][..]),
                (
                    "fen",
                    &["\"8/8/8/8/8/8/8/8 w - - 0 1\"", "\"x\\ny\"", "7"][..],
                ),
                (
                    "clock",
                    &["{\"base_ms\":5,\"inc_ms\":0}", "{\"base_ms\":1e400}", "[]"][..],
                ),
                ("white", &["\"human\"", "\"engine\"", "\"cat\""][..]),
                (
                    "army",
                    &[
                        "{}",
                        "{\"build\":\"white\",\"half\":\"x\",\"pick\":\"black\"}",
                    ][..],
                ),
                ("elo", &["99999", "-1"][..]),
            ] {
                if rng.chance(25) {
                    fields.push(format!("\"{key}\":{}", rng.pick(values)));
                }
            }
            format!("{{{}}}", fields.join(","))
        }
        "/api/import" => {
            let pgn = rng.pick(&[
                "[Variant \"chess\"]\n\n1. e4 e5 *\n\n",
                "1. e4 e5 2. Qh5 *",
                "[Variant \"xiangqi\"]\n\n*",
                "[Variant \"chess\"]\n[FEN \"x\"]\n\n*",
                "1. e4 e4 e4 *",
                "{ unterminated",
                "",
            ]);
            format!("{{\"pgn\":{}}}", jstr(pgn))
        }
        "/api/muster/propose" => format!(
            "{{\"colour\":{}}}",
            rng.pick(&["\"white\"", "\"red\"", "\"WHITE\"", "5", "null", "[]"])
        ),
        _ => match rng.below(4) {
            0 => String::new(),
            1 => "{}".into(),
            _ => format!("{{{}}}", seat(rng).trim_start_matches(',')),
        },
    }
}

/// A body for a request: one that looks right for its route, damaged, of a wrong shape, or
/// not JSON at all.
fn body(rng: &mut Rng, t: &Target, game: Option<usize>, route: &str) -> Vec<u8> {
    let right = action_body(rng, t, game, route);
    match rng.below(100) {
        0..=44 => right.into_bytes(),
        45..=59 => {
            // Cut short, or a byte changed.
            let mut b = right.into_bytes();
            if b.is_empty() {
                return b"{".to_vec();
            }
            if rng.chance(50) {
                b.truncate(rng.below(b.len()));
            } else {
                let i = rng.below(b.len());
                b[i] = rng.next() as u8;
            }
            b
        }
        60..=74 => any_json(rng, 3).into_bytes(),
        75..=79 => {
            // Deep nesting.
            let n = *rng.pick(&[64usize, 200, 5000]);
            if rng.chance(50) {
                format!("{}{}", "[".repeat(n), "]".repeat(n)).into_bytes()
            } else {
                format!("{{\"token\":{}1{}}}", "[".repeat(n), "]".repeat(n)).into_bytes()
            }
        }
        80..=89 => (0..rng.below(300)).map(|_| rng.next() as u8).collect(),
        90..=92 => {
            // A string field over the body limit, or just under it.
            let n = if rng.chance(50) {
                BODY_LIMIT + 10
            } else {
                BODY_LIMIT - 20
            };
            format!("{{\"token\":\"{}\"}}", "a".repeat(n)).into_bytes()
        }
        93..=95 => b"{\"token\":\"e2e4\",\"token\":\"d2d4\"}".to_vec(),
        _ => b"{\"token\":\"\xff\xfe\",\"seat\":\"\xc3\"}".to_vec(),
    }
}

/// A path changed in one of the ways a router or file server may get wrong.
fn mangle(rng: &mut Rng, path: &str) -> String {
    match rng.below(11) {
        0 => format!("/{path}"),
        1 => path.replacen("/api/", "/api/../api/", 1),
        2 => path.replacen("/api/", "/api/%2e%2e/api/", 1),
        3 => format!("{path}%00"),
        4 => format!("{path}/../../../../etc/passwd"),
        5 => format!(
            "{path}{}",
            "/a".repeat(*rng.pick(&[100usize, 3000, 40_000]))
        ),
        6 => format!(
            "{path}?{}",
            rng.pick(&[
                "token=",
                "token=x&token=y",
                "ply=1&ply=2",
                "seat=00",
                "%zz",
                "a=\u{e9}"
            ])
        ),
        7 => path.replace('/', "//"),
        8 => format!("{path}/\u{265e}"),
        9 => path.to_uppercase(),
        _ => path.replacen("games/", "games/%2F", 1),
    }
}

/// A seeded request.
fn request(rng: &mut Rng, t: &Target) -> Req {
    let mut must_answer = true;
    let mut complete = true;
    let mut trailing = false;
    // An insider's request has everything right but its seat and body (its own Host, the
    // token, no foreign Origin, a JSON body with a right length), so that it reaches the
    // handlers; the others may have anything wrong.
    let insider = rng.chance(INSIDERS);
    // The route, and the game it names.
    let real_game = rng.below(t.games.len());
    let (game, id): (Option<usize>, String) = if rng.chance(80) {
        (Some(real_game), t.games[real_game].id.clone())
    } else {
        let fake = *rng.pick(&[
            "no-such-game",
            "20260101-000000-0000",
            "..",
            "%2e%2e",
            "%00",
            "\u{438}\u{433}\u{440}\u{430}",
            "a%2Fb",
        ]);
        let long;
        let fake = if rng.chance(10) {
            long = "x".repeat(5000);
            long.as_str()
        } else {
            fake
        };
        (None, fake.to_string())
    };
    let kind = rng.below(100);
    let (route, mut path, mut method): (String, String, &str) = match kind {
        0..=54 => {
            let action = *rng.pick(&ACTIONS);
            (
                action.to_string(),
                format!("/api/games/{id}{action}"),
                "POST",
            )
        }
        55..=66 => {
            let read = *rng.pick(&READS);
            (String::new(), format!("/api/games/{id}{read}"), "GET")
        }
        67..=76 => {
            // Few of the two that start an engine for each (an import's games, a proposal).
            let r = match rng.below(20) {
                0 => "/api/import",
                1 => "/api/muster/propose",
                _ => "/api/games",
            };
            (r.to_string(), r.to_string(), "POST")
        }
        _ => {
            let p = rng.pick(&PAGES).replace("{id}", &id);
            (String::new(), p, "GET")
        }
    };
    if !insider && rng.chance(40) {
        method = *rng.pick(&["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]);
    }
    let mut method = method.to_string();
    if !insider && rng.chance(15) {
        method = rng
            .pick(&[
                "FOO",
                "get",
                "G ET",
                "",
                "\u{0}GET",
                "PRI",
                "CONNECT",
                "TRACE",
                "P\u{d}OST",
                "\u{41f}\u{41e}\u{421}\u{422}",
            ])
            .to_string();
        if rng.chance(10) {
            method = "M".repeat(300);
        }
    }
    if !insider && rng.chance(40) {
        path = mangle(rng, &path);
    }
    if !insider && rng.chance(10) {
        path = format!(
            "http://{}{path}",
            rng.pick(&[t.addr.as_str(), "evil.example"])
        );
    }
    let version = match rng.below(100) {
        _ if insider => "HTTP/1.1",
        0..=89 => "HTTP/1.1",
        90..=94 => "HTTP/1.0",
        _ => *rng.pick(&["HTTP/2.0", "HTTP/9.9", "HTTX/1.1", "", "HTTP/1.1 extra"]),
    };
    let head = method == "HEAD";
    let nl = if rng.chance(2) { "\n" } else { "\r\n" };

    // Headers, as raw lines.
    let mut lines: Vec<Vec<u8>> = Vec::new();
    let mut add = |line: String| lines.push(line.into_bytes());
    let own_host = t.addr.clone();
    match rng.below(100) {
        0..=89 if insider => add(format!("Host: {own_host}")),
        _ if insider => add(format!("Host: localhost:{}", t.port)),
        0..=29 => add(format!("Host: {own_host}")),
        30..=49 => {}
        50..=89 => add(format!(
            "Host: {}",
            rng.pick(&[
                format!("evil.example:{}", t.port),
                "127.0.0.1".to_string(),
                "localhost:1".to_string(),
                String::new(),
                format!("{own_host}.evil"),
                format!("LOCALHOST:{}", t.port),
            ])
        )),
        90..=94 => {
            add(format!("Host: {own_host}"));
            add(format!("Host: evil.example:{}", t.port));
        }
        _ => add(format!(
            "Host: {}",
            "h".repeat(*rng.pick(&[300usize, 9000]))
        )),
    }
    match rng.below(100) {
        0..=69 if insider => {}
        _ if insider => add(format!("Origin: http://{own_host}")),
        0..=29 => {}
        30..=39 => add(format!("Origin: http://{own_host}")),
        _ => add(format!(
            "Origin: {}",
            rng.pick(&[
                "http://evil.example".to_string(),
                "null".to_string(),
                format!("https://{own_host}"),
                format!("http://{own_host}.evil"),
                "\u{e9}".to_string(),
            ])
        )),
    }
    match rng.below(100) {
        0..=59 if insider => add(format!("Authorization: Bearer {TOKEN}")),
        60..=84 if insider => add(format!("Cookie: a=b; menagerie_token={TOKEN}")),
        _ if insider => {
            path.push_str(if path.contains('?') { "&" } else { "?" });
            path.push_str(&format!("token={TOKEN}"));
        }
        0..=19 => add(format!("Authorization: Bearer {TOKEN}")),
        20..=29 => add(format!("Cookie: a=b; menagerie_token={TOKEN}")),
        30..=34 => {
            path.push_str(if path.contains('?') { "&" } else { "?" });
            path.push_str(&format!("token={TOKEN}"));
        }
        35..=59 => {}
        _ => add(rng
            .pick(&[
                format!("Authorization: Bearer {}", &TOKEN[..TOKEN.len() - 1]),
                format!("Authorization: Bearer {TOKEN}x"),
                format!("Authorization: Basic {TOKEN}"),
                "Authorization: Bearer ".to_string(),
                "Cookie: menagerie_token=".to_string(),
                format!("Cookie: menagerie_token={}", TOKEN.to_uppercase()),
                format!("Cookie: {}", ";".repeat(2000)),
            ])
            .clone()),
    }
    match rng.below(100) {
        0..=29 => {}
        30..=84 => add(format!("X-Menagerie-Seat: {}", wrong_seat(rng, t, game))),
        85..=89 => {
            add(format!("X-Menagerie-Seat: {}", wrong_seat(rng, t, game)));
            add(format!("X-Menagerie-Seat: {}", wrong_seat(rng, t, game)));
        }
        _ => add(format!(
            "X-Menagerie-Seat: {}",
            ",".repeat(*rng.pick(&[10usize, 1000, 5000]))
        )),
    }
    if !matches!(method.as_str(), "GET" | "HEAD") || rng.chance(10) {
        match rng.below(100) {
            _ if insider => add("Content-Type: application/json".into()),
            0..=59 => add("Content-Type: application/json".into()),
            60..=84 => {}
            85..=89 => add("Content-Type: text/plain".into()),
            _ => add(rng
                .pick(&[
                    "Content-Type: application/json; charset=latin1",
                    "Content-Type: application/jsonx",
                    "Content-Type: */*",
                ])
                .to_string()),
        }
    }
    if rng.chance(10) {
        add(rng
            .pick(&[
                "Connection: close",
                "Connection: keep-alive",
                "Connection: upgrade",
                "Upgrade: websocket",
                "Expect: 100-continue",
                "Accept: text/event-stream",
            ])
            .to_string());
    }
    let mut raw_lines: Vec<Vec<u8>> = std::mem::take(&mut lines);
    if !insider && rng.chance(12) {
        // Malformed header lines.
        let bad: &[&[u8]] = &[
            b"NoColonHere",
            b"Bad Name: x",
            b"X-Control: \x01\x7f",
            b" folded: continuation",
            b"X-Bytes: \xff\xfe",
            b": empty name",
        ];
        raw_lines.push(rng.pick(bad).to_vec());
    }
    if !insider && rng.chance(3) {
        // Too many headers, or a huge one.
        if rng.chance(50) {
            for i in 0..150 {
                raw_lines.push(format!("X-Many-{i}: {i}").into_bytes());
            }
        } else {
            raw_lines.push(format!("X-Huge: {}", "h".repeat(100_000)).into_bytes());
        }
        must_answer = false;
    }

    // The body and its framing.
    let has_body = !matches!(method.as_str(), "GET" | "HEAD") || rng.chance(5);
    let mut payload = if has_body {
        body(rng, t, game, &route)
    } else {
        Vec::new()
    };
    let mut framing: Vec<Vec<u8>> = Vec::new();
    // An insider's body has its right length, or is chunked right.
    let framing_kind = match rng.below(100) {
        n if !insider => n,
        0..=84 => 0,
        _ => 90,
    };
    match framing_kind {
        0..=49 => {
            if has_body || rng.chance(20) {
                framing.push(format!("Content-Length: {}", payload.len()).into_bytes());
            }
        }
        50..=58 => {
            // Longer than the body: the rest never comes.
            framing.push(
                format!("Content-Length: {}", payload.len() + 1 + rng.below(100)).into_bytes(),
            );
            complete = false;
        }
        59..=64 if !payload.is_empty() => {
            // Shorter than the body: the rest is the start of the next request.
            framing.push(format!("Content-Length: {}", rng.below(payload.len())).into_bytes());
            trailing = true;
        }
        65..=69 => {
            // No length: the body is the start of the next request.
            trailing = !payload.is_empty();
        }
        70..=76 => {
            let n = payload.len();
            framing.push(format!("Content-Length: {n}").into_bytes());
            framing.push(
                format!("Content-Length: {}", if rng.chance(50) { n } else { n + 1 }).into_bytes(),
            );
        }
        77..=82 => {
            // A length that is no number, or one that the body may not match: the server
            // refuses it or waits for more.
            framing.push(
                format!(
                    "Content-Length: {}",
                    rng.pick(&[
                        "abc",
                        "+5",
                        "-1",
                        " 5",
                        "5 5",
                        "0x10",
                        "99999999999999999999999"
                    ])
                )
                .into_bytes(),
            );
            complete = false;
        }
        83..=95 => {
            // Chunked: right, with a bad size, or without its last chunk.
            framing.push(b"Transfer-Encoding: chunked".to_vec());
            let mut chunked = Vec::new();
            for part in payload.chunks(1 + rng.below(64)) {
                chunked.extend_from_slice(format!("{:x}\r\n", part.len()).as_bytes());
                chunked.extend_from_slice(part);
                chunked.extend_from_slice(b"\r\n");
            }
            match rng.below(4) {
                _ if insider => chunked.extend_from_slice(b"0\r\n\r\n"),
                0 => {
                    chunked.extend_from_slice(b"zz\r\nxx\r\n");
                    must_answer = false;
                }
                1 => complete = false,
                2 => chunked.extend_from_slice(b"0;ext=1\r\nX-Trailer: 1\r\n\r\n"),
                _ => chunked.extend_from_slice(b"0\r\n\r\n"),
            }
            payload = chunked;
        }
        _ => {
            // Both framings at once (request smuggling): the chunked one counts, and the
            // body is no chunked body, so it may never end.
            framing.push(format!("Content-Length: {}", payload.len()).into_bytes());
            framing.push(b"Transfer-Encoding: chunked".to_vec());
            complete = false;
        }
    }
    // Headers in a seeded order.
    raw_lines.extend(framing);
    for i in (1..raw_lines.len()).rev() {
        raw_lines.swap(i, rng.below(i + 1));
    }
    let mut bytes = format!("{method} {path} {version}").into_bytes();
    bytes.extend_from_slice(nl.as_bytes());
    for l in &raw_lines {
        bytes.extend_from_slice(l);
        bytes.extend_from_slice(nl.as_bytes());
    }
    let head_len = bytes.len() + nl.len();
    bytes.extend_from_slice(nl.as_bytes());
    bytes.extend_from_slice(&payload);
    if !insider && rng.chance(5) {
        // A head cut short.
        bytes.truncate(rng.below(head_len));
        complete = false;
    }
    let cuts = if rng.chance(10) && bytes.len() > 2 {
        let mut c = vec![
            1 + rng.below(bytes.len() - 1),
            1 + rng.below(bytes.len() - 1),
        ];
        c.sort_unstable();
        c
    } else {
        Vec::new()
    };
    // A request written in parts may be answered (a bad head) and its connection closed
    // before the rest is written: the answer may then be lost in the reset.
    if bytes.len() > SMALL || !complete || !cuts.is_empty() {
        must_answer = false;
    }
    let shown = format!(
        "{} bytes in {} writes: {}",
        bytes.len(),
        cuts.len() + 1,
        String::from_utf8_lossy(&bytes[..bytes.len().min(300)])
    );
    Req {
        bytes,
        cuts,
        complete,
        head,
        must_answer,
        trailing,
        label: shown,
        creates: route == "/api/games" || route == "/api/import",
        route: if route.is_empty() {
            if kind <= 66 { "read" } else { "page" }.to_string()
        } else {
            route
        },
    }
}

/// Sends `req` on `tcp` and reads its answer.
fn exchange(tcp: &mut TcpStream, reader: &mut BufReader<TcpStream>, req: &Req) -> Outcome {
    let mut at = 0;
    for cut in req
        .cuts
        .iter()
        .copied()
        .chain(std::iter::once(req.bytes.len()))
    {
        if cut <= at {
            continue;
        }
        if let Err(e) = tcp.write_all(&req.bytes[at..cut]) {
            return io_outcome(&e);
        }
        at = cut;
    }
    if !req.complete {
        let _ = tcp.shutdown(Shutdown::Write);
    }
    match read_answer(reader, req.head) {
        Ok(Some(a)) => Outcome::Answered(a),
        Ok(None) => Outcome::Closed,
        Err(e) => io_outcome(&e),
    }
}

fn io_outcome(e: &std::io::Error) -> Outcome {
    use std::io::ErrorKind::*;
    match e.kind() {
        WouldBlock | TimedOut => Outcome::Timeout,
        ConnectionReset | BrokenPipe | ConnectionAborted => Outcome::Reset,
        _ => Outcome::Broken(e.to_string()),
    }
}

/// A request of the set-up, with the token and the seats `seats`.
fn api(
    s: &Server,
    method: &str,
    path: &str,
    seats: &[String],
    body: Option<Value>,
) -> (u16, Value) {
    let mut r = ureq::request(method, &format!("{}{path}", s.url))
        .set("Authorization", &format!("Bearer {TOKEN}"));
    if !seats.is_empty() {
        r = r.set("X-Menagerie-Seat", &seats.join(","));
    }
    let answer = match body {
        Some(b) => r.send_json(b),
        None => r.call(),
    };
    match answer {
        Ok(r) => (r.status(), r.into_json().unwrap_or(Value::Null)),
        Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap_or(Value::Null)),
        Err(e) => panic!("{method} {path}: {e}"),
    }
}

/// Makes a game; its id and seats' secrets.
fn create(s: &Server, body: Value) -> (String, Vec<String>) {
    let (status, st) = api(s, "POST", "/api/games", &[], Some(body.clone()));
    assert_eq!(status, 201, "{body}: {st}");
    let secrets = ["white", "black"]
        .iter()
        .filter_map(|c| link_secret(&st["seats"][c]))
        .collect();
    (st["id"].as_str().unwrap().to_string(), secrets)
}

/// The state of game `id` as a page holding `seats` sees it, once `done` holds (60 s at most:
/// a guard against a hang).
fn state_when(s: &Server, id: &str, seats: &[String], done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, st) = api(s, "GET", &format!("/api/games/{id}"), seats, None);
        assert_eq!(status, 200, "{st}");
        if done(&st) {
            return st;
        }
        assert!(Instant::now() < deadline, "game {id}: {st}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// Plays `token` in game `id` with the seats `seats`.
fn play(s: &Server, id: &str, seats: &[String], token: &str) {
    let (status, st) = api(
        s,
        "POST",
        &format!("/api/games/{id}/moves"),
        seats,
        Some(json!({ "token": token })),
    );
    assert_eq!(status, 200, "{token}: {st}");
}

/// Every file of `dir` and its bytes, once the writer is done (no temporary file left, and
/// the same files twice in a row).
fn settled_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let read = || -> BTreeMap<String, Vec<u8>> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&p).unwrap_or_default())
            })
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut last = read();
    loop {
        std::thread::sleep(Duration::from_millis(300));
        let now = read();
        if now == last && !now.keys().any(|n| n.ends_with(".tmp")) {
            return now;
        }
        assert!(
            Instant::now() < deadline,
            "the games directory never settles"
        );
        last = now;
    }
}

/// The game id of a 201's answer: a game, or a list of them (an import).
fn created_ids(a: &RawAnswer) -> Vec<String> {
    let v: Value = serde_json::from_slice(&a.body).unwrap_or(Value::Null);
    let list = match v {
        Value::Array(items) => items,
        other => vec![other],
    };
    list.iter()
        .filter_map(|g| g["id"].as_str().map(str::to_string))
        .collect()
}

/// What the fuzz counted.
#[derive(Default)]
struct Tally {
    statuses: BTreeMap<u16, usize>,
    timeouts: usize,
    resets: usize,
    closed: usize,
    connections: usize,
    created: HashSet<String>,
    failures: Vec<String>,
    /// The requests that may have made a game and got no answer.
    creations_unanswered: usize,
    /// The requests and the time they took, by route.
    by_route: BTreeMap<String, (usize, Duration)>,
    /// The JSON errors answered, by status and reason.
    reasons: BTreeMap<(u16, String), usize>,
    /// The first requests that timed out.
    timed_out: Vec<String>,
    /// The slowest request answered or not, and how long it took.
    slowest: (Duration, String),
}

/// The fuzz: [`REQUESTS`] requests, then every invariant of the module's docstring.
#[test]
fn requests_from_a_fuzzer_change_no_game() {
    let seed = std::env::var("GUI_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SEED);
    let count = std::env::var("GUI_FUZZ_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(REQUESTS);
    let dir = temp_dir("gui-fuzz");
    let mut s = Server::start_logged(&dir, &["--token", TOKEN, "--max-engines", MAX_ENGINES], &[]);
    assert_eq!(s.token.as_deref(), Some(TOKEN));
    let addr = s.url.trim_start_matches("http://").to_string();
    let port = addr.rsplit(':').next().unwrap().to_string();

    // The games: two people at chess, a person against the engine after a few turns, Mulligan
    // Mulligan Stew between two people, and a chess game that is over.
    let mut games = Vec::new();
    let (a, a_seats) = create(
        &s,
        json!({"variant": "chess", "white": "human", "black": "human"}),
    );
    play(&s, &a, &a_seats, "e2e4");
    play(&s, &a, &a_seats, "e7e5");
    games.push((a, a_seats));
    let (b, b_seats) = create(
        &s,
        json!({"variant": "chess", "engine": "black", "movetime_ms": 20, "level": 2}),
    );
    for (i, token) in ["e2e4", "d2d4"].iter().enumerate() {
        let st = state_when(&s, &b, &b_seats, |st| {
            st["moves"].as_array().unwrap().len() == 2 * i && st["engine_thinking"] == false
        });
        let legal = strings(&st["legal"]);
        let token = if legal.iter().any(|l| l == token) {
            token.to_string()
        } else {
            legal[0].clone()
        };
        play(&s, &b, &b_seats, &token);
    }
    state_when(&s, &b, &b_seats, |st| {
        st["moves"].as_array().unwrap().len() == 4 && st["engine_thinking"] == false
    });
    games.push((b, b_seats));
    let (c, c_seats) = create(&s, json!({"variant": "mulliganstew", "engine": "none"}));
    let st = state_when(&s, &c, &c_seats, |_| true);
    play(&s, &c, &c_seats, &strings(&st["legal"])[0]);
    games.push((c, c_seats));
    let (d, d_seats) = create(&s, json!({"variant": "chess", "engine": "none"}));
    play(&s, &d, &d_seats, "f2f3");
    let (status, over) = api(
        &s,
        "POST",
        &format!("/api/games/{d}/resign"),
        &d_seats,
        Some(json!({})),
    );
    assert_eq!(status, 200, "{over}");
    games.push((d, d_seats));

    let before_files = settled_files(&dir);
    let mut before = Vec::new();
    let mut target = Target {
        addr: addr.clone(),
        port,
        games: Vec::new(),
    };
    for (id, seats) in &games {
        let st = state_when(&s, id, seats, |st| st["engine_thinking"] == false);
        target.games.push(Game {
            id: id.clone(),
            secrets: seats.clone(),
            legal: strings(&st["legal"]),
        });
        before.push(st);
    }

    // The fuzz.
    let started = Instant::now();
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    let mut sent = 0;
    while sent < count {
        let per_connection = if rng.chance(15) { 2 + rng.below(2) } else { 1 };
        let requests: Vec<Req> = (0..per_connection.min(count - sent))
            .map(|_| request(&mut rng, &target))
            .collect();
        // The requests of a group go on one connection as long as it is kept alive, then on
        // a new one: every request of a seed is sent, whatever the answers.
        let mut open: Option<(TcpStream, BufReader<TcpStream>)> = None;
        for req in &requests {
            sent += 1;
            let asked = Instant::now();
            let mut first = open.is_none();
            let mut connect = || {
                tally.connections += 1;
                let tcp = TcpStream::connect(&addr).expect("connect to the server");
                tcp.set_read_timeout(Some(ANSWER_WAIT)).unwrap();
                tcp.set_write_timeout(Some(ANSWER_WAIT)).unwrap();
                let reader = BufReader::new(tcp.try_clone().unwrap());
                (tcp, reader)
            };
            let (tcp, reader) = open.get_or_insert_with(&mut connect);
            let mut outcome = exchange(tcp, reader, req);
            if !first && matches!(outcome, Outcome::Closed | Outcome::Reset) {
                // The server closed the kept-alive connection before this request (as it
                // may): sent again on a new one, as a browser does.
                let (tcp, reader) = open.insert(connect());
                outcome = exchange(tcp, reader, req);
                first = true;
            }
            let took = asked.elapsed();
            let spent = tally.by_route.entry(req.route.clone()).or_default();
            spent.0 += 1;
            spent.1 += took;
            if took > tally.slowest.0 {
                tally.slowest = (took, req.label.clone());
            }
            if req.creates && !matches!(outcome, Outcome::Answered(_)) {
                tally.creations_unanswered += 1;
            }
            let go_on = match outcome {
                Outcome::Answered(a) => {
                    *tally.statuses.entry(a.status).or_default() += 1;
                    if a.status >= 500 && a.status != 503 {
                        tally.failures.push(format!(
                            "{} answered to {:?}: {}",
                            a.status,
                            req.label,
                            String::from_utf8_lossy(&a.body)
                        ));
                    }
                    let reason: Value = serde_json::from_slice(&a.body).unwrap_or(Value::Null);
                    if let Some(why) = reason["error"].as_str() {
                        // The reason without what the request put in it (quoted) or numbers.
                        let why: String = why
                            .split(['\'', '`', ':'])
                            .next()
                            .unwrap_or("")
                            .chars()
                            .filter(|c| !c.is_ascii_digit())
                            .take(50)
                            .collect();
                        *tally.reasons.entry((a.status, why)).or_default() += 1;
                    }
                    if a.status == 201 {
                        tally.created.extend(created_ids(&a));
                    }
                    a.keeps_alive()
                        && req.complete
                        && !req.trailing
                        && !a
                            .header("content-type")
                            .is_some_and(|v| v.starts_with("text/event-stream"))
                }
                Outcome::Timeout => {
                    tally.timeouts += 1;
                    if tally.timed_out.len() < 5 {
                        tally.timed_out.push(req.label.clone());
                    }
                    false
                }
                // A kept-alive connection may be closed before its next request (the
                // first request of a connection is the one that must be answered).
                Outcome::Reset | Outcome::Closed if req.must_answer && first => {
                    tally.failures.push(format!("no answer to {:?}", req.label));
                    false
                }
                Outcome::Reset => {
                    tally.resets += 1;
                    false
                }
                Outcome::Closed => {
                    tally.closed += 1;
                    false
                }
                Outcome::Broken(e) => {
                    tally
                        .failures
                        .push(format!("a broken answer ({e}) to {:?}", req.label));
                    false
                }
            };
            if !go_on {
                open = None;
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let statuses: Vec<String> = tally
        .statuses
        .iter()
        .map(|(code, n)| format!("{code}: {n}"))
        .collect();
    eprintln!(
        "gui_fuzz: seed {seed:#x}, {count} requests over {} connections in {seconds:.1} s; \
         statuses {{{}}}; {} timeouts, {} resets, {} closed without an answer (incomplete or \
         malformed requests); {} games made",
        tally.connections,
        statuses.join(", "),
        tally.timeouts,
        tally.resets,
        tally.closed,
        tally.created.len()
    );

    let mut reasons: Vec<(&(u16, String), &usize)> = tally.reasons.iter().collect();
    reasons.sort_by(|x, y| y.1.cmp(x.1));
    let reasons: Vec<String> = reasons
        .iter()
        .take(16)
        .map(|((code, why), n)| format!("{n} {code} {why:?}"))
        .collect();
    eprintln!("gui_fuzz: the most common errors: {}", reasons.join("; "));
    let by_route: Vec<String> = tally
        .by_route
        .iter()
        .map(|(r, (n, d))| format!("{r} {n} in {:.1} s", d.as_secs_f64()))
        .collect();
    eprintln!("gui_fuzz: by route: {}", by_route.join(", "));
    if !tally.timed_out.is_empty() {
        eprintln!(
            "gui_fuzz: the first requests that timed out: {:#?}",
            tally.timed_out
        );
    }
    eprintln!(
        "gui_fuzz: the slowest request took {:.2} s: {:?}",
        tally.slowest.0.as_secs_f64(),
        tally.slowest.1
    );

    // The invariants.
    assert!(
        s.exit_status().is_none(),
        "the server died: {:?}",
        s.exit_status()
    );
    let log = s.log();
    assert!(!log.contains("panicked"), "the server panicked:\n{log}");
    assert!(
        tally.failures.is_empty(),
        "{} failures, the first ones:\n{}",
        tally.failures.len(),
        tally.failures[..tally.failures.len().min(10)].join("\n")
    );
    for ((id, seats), then) in games.iter().zip(&before) {
        let now = state_when(&s, id, seats, |st| st["engine_thinking"] == false);
        assert_eq!(&now, then, "game {id} changed");
    }
    let after_files = settled_files(&dir);
    for (name, bytes) in &before_files {
        assert!(
            after_files.get(name) == Some(bytes),
            "{name} changed or went away"
        );
    }
    // New games: those answered 201, and at most one for each creation that got no answer
    // (a timeout: the game may have been made all the same). An import here has one game.
    let recorded: HashSet<&str> = games.iter().map(|(id, _)| id.as_str()).collect();
    let (status, list) = api(&s, "GET", "/api/games", &[], None);
    assert_eq!(status, 200);
    let listed: HashSet<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    let mut unanswered: HashSet<String> = HashSet::new();
    for name in after_files
        .keys()
        .filter(|n| !before_files.contains_key(*n))
    {
        let id = name
            .strip_suffix(".pgn")
            .or_else(|| name.strip_suffix(".seats"))
            .unwrap_or_else(|| panic!("a new file that is not a game's: {name}"));
        assert!(
            !recorded.contains(id),
            "{name}: a new file of a recorded game"
        );
        assert!(listed.contains(id), "{name}: the file of a game not listed");
        if !tally.created.contains(id) {
            unanswered.insert(id.to_string());
        }
    }
    for id in &listed {
        if !recorded.contains(id.as_str()) && !tally.created.contains(id) {
            unanswered.insert(id.clone());
        }
    }
    assert!(
        unanswered.len() <= tally.creations_unanswered,
        "games made without an answer 201: {unanswered:?}, but only {} creations went \
         unanswered",
        tally.creations_unanswered
    );
    // And the server still plays: the right seat's turn in the first game.
    let (a, a_seats) = &games[0];
    play(&s, a, a_seats, "g1f3");
    assert_eq!(s.interrupt(), Some(0), "the server stops cleanly");
    let _ = std::fs::remove_dir_all(&dir);
}
