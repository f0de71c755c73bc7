//! A `menagerie gui` server for the GUI's tests: the built binary on an ephemeral port with
//! a games directory of its own, and a small JSON client for its API.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The built engine binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_menagerie");

/// A running server.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    /// The access token the printed address carried (`.../?token=...`), if any.
    pub token: Option<String>,
    /// Its games directory.
    pub dir: PathBuf,
    /// The seat secrets of the games this client made, by game id: every request of
    /// [`Server::get`] and [`Server::post`] to a game carries them (the client plays as a
    /// page holding every seat it made); [`Server::post_as`] chooses its own.
    seats: std::sync::Mutex<std::collections::HashMap<String, [Option<String>; 2]>>,
    /// Its standard error, when kept ([`Server::start_logged`]).
    log: std::sync::Arc<std::sync::Mutex<String>>,
}

/// The secret of a seat's link (`/game/ID?seat=SECRET...`), if it is one.
pub fn link_secret(link: &Value) -> Option<String> {
    let q = link.as_str()?.split_once('?')?.1;
    q.split('&')
        .find_map(|kv| kv.strip_prefix("seat="))
        .map(str::to_string)
}

/// The game id of an API path (`/api/games/ID/...`).
fn path_game(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/games/")?;
    let id = rest.split(['/', '?']).next()?;
    (!id.is_empty()).then_some(id)
}

/// A fresh empty directory under the target directory.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{name}-{}-{}",
        std::process::id(),
        Instant::now().elapsed().as_nanos()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl Server {
    /// Starts `menagerie gui --port 0 --games-dir <dir>` with `extra` arguments and `env`,
    /// and waits for the line that gives its address.
    pub fn start(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        Server::launch(dir, extra, env, false)
    }

    /// [`Server::start`], keeping what the server writes to its standard error for
    /// [`Server::log`] (and copying it to the test's).
    pub fn start_logged(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        Server::launch(dir, extra, env, true)
    }

    /// What the server wrote to its standard error so far (started by
    /// [`Server::start_logged`]; empty otherwise).
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    fn launch(dir: &Path, extra: &[&str], env: &[(&str, &str)], logged: bool) -> Server {
        let mut cmd = Command::new(BIN);
        cmd.args(["gui", "--port", "0", "--games-dir"])
            .arg(dir)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(if logged {
                Stdio::piped()
            } else {
                Stdio::inherit()
            });
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("start menagerie gui");
        let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        if let Some(err) = child.stderr.take() {
            let log = std::sync::Arc::clone(&log);
            std::thread::spawn(move || {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    eprintln!("{line}");
                    let mut l = log.lock().unwrap();
                    l.push_str(&line);
                    l.push('\n');
                }
            });
        }
        let stdout = child.stdout.take().unwrap();
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .expect("the server's first line");
        let printed = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let (url, token) = match printed.split_once("/?token=") {
            Some((u, t)) => (u.to_string(), Some(t.to_string())),
            None => (printed.to_string(), None),
        };
        // Keep reading its output so that it never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = String::new();
            let _ = reader.read_to_string(&mut sink);
        });
        Server {
            child,
            url,
            token,
            dir: dir.to_path_buf(),
            seats: Default::default(),
            log,
        }
    }

    /// Stops the server as Ctrl-C does and waits for it to exit; returns its exit status.
    pub fn interrupt(&mut self) -> Option<i32> {
        #[cfg(unix)]
        // SAFETY: sending a signal to our own child process.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGINT);
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        None
    }

    /// The seat header of the games this client made, for `path`.
    fn seat_header(&self, path: &str) -> Option<String> {
        let id = path_game(path)?;
        let v = self.secrets_of(id);
        (!v.is_empty()).then(|| v.join(","))
    }

    /// Keeps the seat secrets of an answer that made games (`seats` links, or a list of them).
    fn remember(&self, v: &Value) {
        let games: Vec<&Value> = match v {
            Value::Array(a) => a.iter().collect(),
            other => vec![other],
        };
        for g in games {
            let (Some(id), Some(links)) = (g["id"].as_str(), g.get("seats")) else {
                continue;
            };
            let secrets = [link_secret(&links["white"]), link_secret(&links["black"])];
            if secrets.iter().any(Option::is_some) {
                self.seats.lock().unwrap().insert(id.to_string(), secrets);
            }
        }
    }

    /// The secret of `colour`'s seat of game `id`, as this client got it.
    pub fn secret(&self, id: &str, colour: &str) -> Option<String> {
        let i = usize::from(colour == "black");
        self.seats.lock().unwrap().get(id)?[i].clone()
    }

    /// Every seat secret this client holds for game `id`.
    pub fn secrets_of(&self, id: &str) -> Vec<String> {
        self.seats
            .lock()
            .unwrap()
            .get(id)
            .map(|s| s.iter().flatten().cloned().collect())
            .unwrap_or_default()
    }

    /// Kills the server as `kill -9` does (`Child::kill` is SIGKILL on Unix) and reaps it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// `GET path` as JSON: (status, body).
    pub fn get(&self, path: &str) -> (u16, Value) {
        let mut r = ureq::get(&format!("{}{path}", self.url));
        if let Some(h) = self.seat_header(path) {
            r = r.set("X-Menagerie-Seat", &h);
        }
        answer(r.call())
    }

    /// `POST path` with a JSON body, as a page holding the seats `seats` (none: a
    /// spectator): (status, body).
    pub fn post_as(&self, path: &str, seats: &[&str], body: Value) -> (u16, Value) {
        let mut r = ureq::post(&format!("{}{path}", self.url));
        if !seats.is_empty() {
            r = r.set("X-Menagerie-Seat", &seats.join(","));
        }
        let out = answer(r.send_json(body));
        self.remember(&out.1);
        out
    }

    /// `GET path` as JSON, as a page holding the seats `seats`: (status, body).
    pub fn get_as(&self, path: &str, seats: &[&str]) -> (u16, Value) {
        let mut r = ureq::get(&format!("{}{path}", self.url));
        if !seats.is_empty() {
            r = r.set("X-Menagerie-Seat", &seats.join(","));
        }
        answer(r.call())
    }

    /// `GET path` as text: (status, body).
    pub fn get_text(&self, path: &str) -> (u16, String) {
        match ureq::get(&format!("{}{path}", self.url)).call() {
            Ok(r) => (r.status(), r.into_string().unwrap_or_default()),
            Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap_or_default()),
            Err(e) => panic!("GET {path}: {e}"),
        }
    }

    /// `POST path` with a JSON body: (status, body).
    pub fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let mut r = ureq::post(&format!("{}{path}", self.url));
        if let Some(h) = self.seat_header(path) {
            r = r.set("X-Menagerie-Seat", &h);
        }
        let out = answer(r.send_json(body));
        self.remember(&out.1);
        out
    }

    /// `POST path` with a raw body and content type.
    pub fn post_raw(&self, path: &str, content_type: &str, body: &[u8]) -> (u16, Value) {
        answer(
            ureq::post(&format!("{}{path}", self.url))
                .set("Content-Type", content_type)
                .send_bytes(body),
        )
    }

    /// Creates a game; panics unless the answer is 201.
    pub fn new_game(&self, body: Value) -> Value {
        let (status, state) = self.post("/api/games", body.clone());
        assert_eq!(status, 201, "POST /api/games {body}: {state}");
        state
    }

    /// Polls game `id` until `done` holds (at most 60 s: a guard against a hang, not a
    /// timing assertion).
    pub fn wait_state(&self, id: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (status, state) = self.get(&format!("/api/games/{id}"));
            assert_eq!(status, 200, "{state}");
            if done(&state) {
                return state;
            }
            assert!(
                Instant::now() < deadline,
                "game {id} never reached the state: {state}"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }
}

/// Polls the file at `path` until it exists and its text satisfies `done` (at most 60 s: a
/// guard against a hang, not a timing assertion); returns the text. A turn is answered before
/// its file is written (docs/gui.md "Faults"), so a test reads a game's file through this.
pub fn wait_file(path: &Path, done: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            if done(&text) {
                return text;
            }
        }
        assert!(
            Instant::now() < deadline,
            "{} never reached the text wanted",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn answer(r: Result<ureq::Response, ureq::Error>) -> (u16, Value) {
    match r {
        Ok(r) => {
            let status = r.status();
            (status, r.into_json().unwrap_or(Value::Null))
        }
        Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap_or(Value::Null)),
        Err(e) => panic!("request failed: {e}"),
    }
}

/// The strings of a JSON array.
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

impl Server {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's exit status if it has exited (without waiting).
    pub fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }
}

impl Server {
    /// Sends `POST path` announcing a body of `length` bytes without sending it, and returns
    /// the status line's code: how a request too large is refused, without the race of a
    /// server closing a connection while the client still writes.
    pub fn post_announcing(&self, path: &str, length: usize) -> u16 {
        use std::io::Write;
        let addr = self.url.trim_start_matches("http://");
        let mut s = std::net::TcpStream::connect(addr).expect("connect to the server");
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(
            s,
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
        )
        .unwrap();
        let mut head = String::new();
        BufReader::new(s)
            .read_line(&mut head)
            .expect("a status line");
        head.split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("bad status line {head:?}"))
    }
}

/// SplitMix64: the tests' pseudo-random numbers, the same on every run for a seed.
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// An answer read off a raw TCP connection ([`read_answer`]).
#[derive(Debug, Clone)]
pub struct RawAnswer {
    /// The status code.
    pub status: u16,
    /// The header lines, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body (empty for an event stream, whose body is not read).
    pub body: Vec<u8>,
}

impl RawAnswer {
    /// The first value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the server keeps the connection open after this answer.
    pub fn keeps_alive(&self) -> bool {
        !self
            .header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"))
            && (self.header("content-length").is_some()
                || self
                    .header("transfer-encoding")
                    .is_some_and(|v| v.eq_ignore_ascii_case("chunked")))
    }
}

/// A line of an answer's head, without its CRLF; `None` at the end of the stream before
/// any byte of it.
fn head_line(r: &mut impl BufRead) -> std::io::Result<Option<String>> {
    let mut line = Vec::new();
    let n = (&mut *r).take(64 * 1024).read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    if !line.ends_with(b"\n") {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "a head line cut short",
        ));
    }
    while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        line.pop();
    }
    String::from_utf8(line)
        .map(Some)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

fn bad_data(what: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what)
}

/// Reads one HTTP/1.1 answer from `r` (informational 1xx answers skipped): its status line,
/// headers and body, by `Content-Length`, chunked, or to the end of the stream. No body is
/// read after a `HEAD` (`head`), for 204 and 304, or for an event stream (`text/event-stream`,
/// which does not end). `Ok(None)`: the connection ended before any byte of an answer.
///
/// Errors: the socket's (a timeout, a reset), or an answer that is not HTTP.
pub fn read_answer(r: &mut impl BufRead, head: bool) -> std::io::Result<Option<RawAnswer>> {
    loop {
        let Some(status_line) = head_line(r)? else {
            return Ok(None);
        };
        let status: u16 = status_line
            .strip_prefix("HTTP/1.")
            .and_then(|rest| rest.get(2..5))
            .and_then(|code| code.parse().ok())
            .ok_or_else(|| bad_data(format!("no status line: {status_line:?}")))?;
        let mut headers = Vec::new();
        loop {
            let line = head_line(r)?.ok_or_else(|| bad_data("the head cut short".into()))?;
            if line.is_empty() {
                break;
            }
            let (name, value) = line
                .split_once(':')
                .ok_or_else(|| bad_data(format!("a bad header line: {line:?}")))?;
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
        let mut answer = RawAnswer {
            status,
            headers,
            body: Vec::new(),
        };
        if (100..200).contains(&status) {
            continue;
        }
        let stream = answer
            .header("content-type")
            .is_some_and(|v| v.starts_with("text/event-stream"));
        if head || status == 204 || status == 304 || stream {
            return Ok(Some(answer));
        }
        let chunked = answer
            .header("transfer-encoding")
            .is_some_and(|v| v.eq_ignore_ascii_case("chunked"));
        if chunked {
            loop {
                let size_line =
                    head_line(r)?.ok_or_else(|| bad_data("a chunk cut short".into()))?;
                let hex = size_line.split(';').next().unwrap_or("").trim();
                let size = usize::from_str_radix(hex, 16)
                    .map_err(|_| bad_data(format!("a bad chunk size: {size_line:?}")))?;
                if size == 0 {
                    // The trailers, up to the blank line.
                    while head_line(r)?.is_some_and(|l| !l.is_empty()) {}
                    break;
                }
                let start = answer.body.len();
                answer.body.resize(start + size, 0);
                r.read_exact(&mut answer.body[start..])?;
                head_line(r)?;
            }
        } else if let Some(length) = answer.header("content-length") {
            let n: usize = length
                .parse()
                .map_err(|_| bad_data(format!("a bad Content-Length: {length:?}")))?;
            answer.body.resize(n, 0);
            r.read_exact(&mut answer.body)?;
        } else {
            r.read_to_end(&mut answer.body)?;
        }
        return Ok(Some(answer));
    }
}
