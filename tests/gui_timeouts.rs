#![cfg(feature = "gui")]
//! The time limits of the GUI server's connections (src/gui/http.rs, docs/gui.md
//! "Connections"): a connection that sends nothing or half a head is closed, an idle
//! kept-alive one too, a body that stops coming gets 408, and none of it cuts an event stream
//! or holds up a stop. The servers here get short limits through the hidden environment
//! variables that exist for these tests; nothing asserts how soon a connection is closed,
//! only that it is (every read waits at most [`READ_LIMIT`], a guard against a hang).

use crate::gui_common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use gui_common::{read_answer, strings, temp_dir, Server};
use serde_json::{json, Value};

/// The longest a read waits in these tests: far beyond every limit the servers here have.
const READ_LIMIT: Duration = Duration::from_secs(20);

/// The short limits, in milliseconds: the head's, the idle connection's, the body's.
const SHORT: [(&str, &str); 3] = [
    ("MENAGERIE_GUI_HEADER_TIMEOUT_MS", "300"),
    ("MENAGERIE_GUI_IDLE_TIMEOUT_MS", "5000"),
    ("MENAGERIE_GUI_BODY_TIMEOUT_MS", "300"),
];

/// A connection to `s`, its reads limited to [`READ_LIMIT`].
fn connect(s: &Server) -> (TcpStream, String) {
    let addr = s.url.trim_start_matches("http://").to_string();
    let tcp = TcpStream::connect(&addr).expect("connect to the server");
    tcp.set_read_timeout(Some(READ_LIMIT)).unwrap();
    (tcp, addr)
}

/// Waits for the server to close `tcp`: true when a read ends the stream (or the server
/// reset it), false when [`READ_LIMIT`] passes first. Whatever the server sends first is
/// returned in `got`.
fn closed_by_server(tcp: &mut TcpStream, got: &mut Vec<u8>) -> bool {
    let mut buf = [0u8; 4096];
    loop {
        match tcp.read(&mut buf) {
            Ok(0) => return true,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false
            }
            Err(e) => panic!("reading: {e}"),
        }
    }
}

/// A connection that sends half a head and stalls is closed without an answer, as is one
/// that sends nothing; the server answers the next request.
#[test]
fn a_stalled_head_closes_its_connection() {
    let s = Server::start(&temp_dir("gui-head-timeout"), &[], &SHORT);
    let (mut tcp, addr) = connect(&s);
    write!(tcp, "GET / HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
    let mut got = Vec::new();
    assert!(
        closed_by_server(&mut tcp, &mut got),
        "a half head held the connection for {READ_LIMIT:?}"
    );
    assert!(
        got.is_empty(),
        "an answer to half a head: {:?}",
        String::from_utf8_lossy(&got)
    );
    // Half a request line.
    let (mut tcp, _) = connect(&s);
    tcp.write_all(b"POST /api/ga").unwrap();
    assert!(closed_by_server(&mut tcp, &mut Vec::new()), "half a line");
    // Nothing at all.
    let (mut tcp, _) = connect(&s);
    assert!(
        closed_by_server(&mut tcp, &mut Vec::new()),
        "a silent client"
    );
    let (status, variants) = s.get("/api/variants");
    assert_eq!(status, 200, "{variants}");
}

/// A kept-alive connection waits for its next request longer than a head may take, and is
/// closed once it has been idle for the idle limit.
#[test]
fn an_idle_connection_is_kept_then_closed() {
    let s = Server::start(&temp_dir("gui-idle-timeout"), &[], &SHORT);
    let (mut tcp, addr) = connect(&s);
    let mut reader = BufReader::new(tcp.try_clone().unwrap());
    let request = format!("GET /api/variants HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    tcp.write_all(request.as_bytes()).unwrap();
    let first = read_answer(&mut reader, false).unwrap().expect("an answer");
    assert_eq!(first.status, 200);
    assert!(first.keeps_alive(), "{:?}", first.headers);
    // Idle for three times the head's limit (300 ms) and well within the idle one (5 s).
    std::thread::sleep(Duration::from_millis(900));
    tcp.write_all(request.as_bytes()).unwrap();
    let second = read_answer(&mut reader, false)
        .unwrap()
        .expect("the kept-alive connection answers its second request");
    assert_eq!(second.status, 200);
    assert_eq!(second.body, first.body);
    // Then idle for good: closed.
    let mut got = Vec::new();
    assert!(reader.buffer().is_empty());
    assert!(
        closed_by_server(&mut tcp, &mut got),
        "an idle connection held for {READ_LIMIT:?}"
    );
    assert!(got.is_empty(), "{:?}", String::from_utf8_lossy(&got));
}

/// A body that stops coming gets 408 and the connection is closed; no game is made.
#[test]
fn a_stalled_body_gets_408() {
    let s = Server::start(&temp_dir("gui-body-timeout"), &[], &SHORT);
    let (mut tcp, addr) = connect(&s);
    let part = br#"{"variant": "ch"#;
    write!(
        tcp,
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        part.len() + 20
    )
    .unwrap();
    tcp.write_all(part).unwrap();
    let mut reader = BufReader::new(tcp.try_clone().unwrap());
    let answer = read_answer(&mut reader, false).unwrap().expect("an answer");
    assert_eq!(answer.status, 408, "{answer:?}");
    let error: Value = serde_json::from_slice(&answer.body).unwrap();
    assert!(error["error"].is_string(), "{error}");
    assert!(closed_by_server(&mut tcp, &mut Vec::new()));
    let (_, list) = s.get("/api/games");
    assert_eq!(list, json!([]));
}

/// An event stream is one long answer: it goes on past the head's limit and brings the
/// states of the turns played meanwhile.
#[test]
fn event_streams_outlast_the_head_limit() {
    let s = Server::start(&temp_dir("gui-stream-timeout"), &[], &SHORT);
    let st = s.new_game(json!({"variant": "chess"}));
    let id = st["id"].as_str().unwrap().to_string();
    let (mut tcp, addr) = connect(&s);
    write!(
        tcp,
        "GET /api/games/{id}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(tcp.try_clone().unwrap());
    let head = read_answer(&mut reader, false).unwrap().expect("an answer");
    assert_eq!(head.status, 200);
    // Quiet for three times the head's limit, then a turn.
    std::thread::sleep(Duration::from_millis(900));
    let (status, played) = s.post(&format!("/api/games/{id}/moves"), json!({"token": "e2e4"}));
    assert_eq!(status, 200, "{played}");
    let mut line = String::new();
    loop {
        line.clear();
        let n = reader.read_line(&mut line).expect("the stream goes on");
        assert!(n > 0, "the stream ended");
        let Some(data) = line.split_once("data: ").map(|(_, d)| d) else {
            continue;
        };
        let v: Value = match serde_json::from_str(data.trim()) {
            Ok(v) => v,
            Err(_) => continue,
        };
        if v.get("moves").is_some_and(|m| strings(m) == ["e2e4"]) {
            break;
        }
    }
}

/// A stop is not held up by an open event stream, a connection stalled in its head or an
/// idle one: the server saves and exits 0.
#[test]
fn a_stop_is_not_held_by_open_connections() {
    // The default limits: the stalled head would be closed only after 10 s.
    let mut s = Server::start(&temp_dir("gui-stop-conns"), &[], &[]);
    let st = s.new_game(json!({"variant": "chess"}));
    let id = st["id"].as_str().unwrap().to_string();
    let (mut stream, addr) = connect(&s);
    write!(
        stream,
        "GET /api/games/{id}/events HTTP/1.1\r\nHost: {addr}\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    assert_eq!(
        read_answer(&mut reader, false).unwrap().unwrap().status,
        200
    );
    let (mut stalled, _) = connect(&s);
    write!(
        stalled,
        "POST /api/games/{id}/moves HTTP/1.1\r\nHost: {addr}\r\n"
    )
    .unwrap();
    let (_idle, _) = connect(&s);
    assert_eq!(s.interrupt(), Some(0), "the server stops cleanly");
    assert!(closed_by_server(&mut stalled, &mut Vec::new()));
    assert!(s.dir.join(format!("{id}.pgn")).exists());
}
