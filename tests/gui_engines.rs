//! The GUI server's engines (docs/gui.md "Engines"): the `--max-engines` cap limits searches,
//! not games; position queries go to shared query engines and never wait for a search place;
//! a game waiting for one says so; an engine that stops answering is killed and replaced.

use serde_json::{json, Value};

use crate::gui_common::{strings, temp_dir, Server, BIN};

const STALL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/doubles/stall_engine.py");

/// Plays the first legal turn of two-person game `id`, as the page holding both seats.
fn play_first(s: &Server, id: &str) -> Value {
    let (_, st) = s.get(&format!("/api/games/{id}"));
    let token = strings(&st["legal"])[0].clone();
    let (status, after) = s.post(&format!("/api/games/{id}/moves"), json!({"token": token}));
    assert_eq!(status, 200, "{after}");
    after
}

/// Whether process `pid` still exists (a reaped child has no /proc entry).
fn alive(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// The pids the stall double logged.
fn stalled(log: &std::path::Path) -> Vec<u32> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// With one search place, held by an analysis that never ends, a game against the engine waits
/// for the place and says so; a two-person game plays on and every position query of the
/// waiting game is answered. When the analysis stops, the waiting game's engine moves.
#[test]
fn queries_never_wait_for_a_search_place() {
    let s = Server::start(&temp_dir("gui-places"), &["--max-engines", "1"], &[]);
    let a = s.new_game(json!({"variant": "chess"}));
    let a = a["id"].as_str().unwrap().to_string();
    let (status, on) = s.post(&format!("/api/games/{a}/analysis"), json!({"on": true}));
    assert_eq!(status, 200, "{on}");
    s.wait_state(&a, |v| v["analysis"].is_object());

    let b = s.new_game(
        json!({"variant": "chess", "white": "human", "black": "engine", "movetime_ms": 50}),
    );
    let b = b["id"].as_str().unwrap().to_string();
    let (status, st) = s.post(&format!("/api/games/{b}/moves"), json!({"token": "e2e4"}));
    assert_eq!(status, 200, "{st}");
    let st = s.wait_state(&b, |v| v["engine_waiting"] == true);
    assert_eq!(st["engine_thinking"], false, "{st}");
    assert_eq!(strings(&st["moves"]), vec!["e2e4"]);
    // The state is published before the wait is counted: poll the count (a guard against a
    // hang, not a timing assertion).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let m = loop {
        let (_, m) = s.get("/api/metrics");
        if m["engines_waiting"] == 1 || std::time::Instant::now() > deadline {
            break m;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    assert_eq!(m["engines_free"], 0, "{m}");
    assert_eq!(m["engines_waiting"], 1, "{m}");

    // Every query of the waiting game is answered while it waits.
    let (status, legal) = s.get(&format!("/api/games/{b}/legal?ply=0"));
    assert_eq!(status, 200, "{legal}");
    assert_eq!(legal["legal"].as_array().unwrap().len(), 20);
    // A two-person game (and a new one) plays on without any place.
    let c = s.new_game(json!({"variant": "mulliganstew"}));
    let c = c["id"].as_str().unwrap().to_string();
    for _ in 0..6 {
        play_first(&s, &c);
    }
    let (_, cst) = s.get(&format!("/api/games/{c}"));
    assert_eq!(cst["moves"].as_array().unwrap().len(), 6);
    let (_, st) = s.get(&format!("/api/games/{b}"));
    assert_eq!(st["engine_waiting"], true, "still waiting: {st}");
    assert_eq!(st["moves"].as_array().unwrap().len(), 1);

    // The analysis ends: its place goes to the waiting game, whose engine moves.
    let (status, off) = s.post(&format!("/api/games/{a}/analysis"), json!({"on": false}));
    assert_eq!(status, 200, "{off}");
    let st = s.wait_state(&b, |v| v["moves"].as_array().unwrap().len() == 2);
    assert_eq!(st["engine_waiting"], false, "{st}");
    let (_, m) = s.get("/api/metrics");
    assert_eq!(m["engines_waiting"], 0, "{m}");
}

/// A game that no longer needs a search gives its wait up: resigning while waiting for the
/// engine's turn leaves no one waiting.
#[test]
fn a_game_that_ends_while_waiting_gives_up_its_wait() {
    let s = Server::start(&temp_dir("gui-wait-resign"), &["--max-engines", "1"], &[]);
    let a = s.new_game(json!({"variant": "chess"}));
    let a = a["id"].as_str().unwrap().to_string();
    s.post(&format!("/api/games/{a}/analysis"), json!({"on": true}));
    let b = s.new_game(json!({"variant": "chess", "white": "human", "black": "engine"}));
    let b = b["id"].as_str().unwrap().to_string();
    s.post(&format!("/api/games/{b}/moves"), json!({"token": "d2d4"}));
    s.wait_state(&b, |v| v["engine_waiting"] == true);
    let (status, r) = s.post(&format!("/api/games/{b}/resign"), json!({}));
    assert_eq!(status, 200, "{r}");
    let st = s.wait_state(&b, |v| v["engine_waiting"] == false);
    assert_eq!(st["result"]["reason"], "resignation", "{st}");
    let (_, m) = s.get("/api/metrics");
    assert_eq!(m["engines_waiting"], 0, "{m}");
    assert_eq!(st["moves"].as_array().unwrap().len(), 1);
}

/// A search engine that stops answering (alive, no `bestmove` long after its time) is killed,
/// a new one started, the game restored from its moves, and the page told.
#[test]
fn a_hung_search_engine_is_killed_and_replaced() {
    let dir = temp_dir("gui-hung-search");
    let log = dir.join("stalled");
    let s = Server::start(
        &dir.join("games"),
        &["--engine", STALL],
        &[
            ("MENAGERIE_ENGINE", BIN),
            ("STALL_AT_GO", "2"),
            ("STALL_LOG", log.to_str().unwrap()),
        ],
    );
    let st = s.new_game(json!({"variant": "chess", "engine": "black", "movetime_ms": 50}));
    let id = st["id"].as_str().unwrap().to_string();
    s.post(&format!("/api/games/{id}/moves"), json!({"token": "e2e4"}));
    let st = s.wait_state(&id, |v| v["moves"].as_array().unwrap().len() == 2);
    assert!(st["notice"].is_null(), "the first search answered: {st}");
    // Its second search hangs.
    s.post(&format!("/api/games/{id}/moves"), json!({"token": "d2d4"}));
    let st = s.wait_state(&id, |v| v["moves"].as_array().unwrap().len() == 4);
    let notice = st["notice"].as_str().unwrap_or("");
    assert!(notice.contains("restarted"), "{st}");
    assert_eq!(&strings(&st["moves"])[..1], ["e2e4"]);
    assert_eq!(strings(&st["moves"])[2], "d2d4");
    let pids = stalled(&log);
    assert_eq!(pids.len(), 1, "one engine hung: {pids:?}");
    assert!(!alive(pids[0]), "the hung engine {} was killed", pids[0]);
}

/// A query engine that stops answering (no `readyok` within its time) is killed and the query
/// asked of a new one: every turn of a two-person game is played.
#[test]
fn a_hung_query_engine_is_killed_and_replaced() {
    let dir = temp_dir("gui-hung-query");
    let log = dir.join("stalled");
    let s = Server::start(
        &dir.join("games"),
        &["--engine", STALL],
        &[
            ("MENAGERIE_ENGINE", BIN),
            ("STALL_AT_POSITION", "4"),
            ("STALL_LOG", log.to_str().unwrap()),
        ],
    );
    let st = s.new_game(json!({"variant": "chess"}));
    let id = st["id"].as_str().unwrap().to_string();
    let mut played = Vec::new();
    for _ in 0..8 {
        let after = play_first(&s, &id);
        played.push(strings(&after["moves"]).last().unwrap().clone());
    }
    let (_, st) = s.get(&format!("/api/games/{id}"));
    assert_eq!(strings(&st["moves"]), played);
    let pids = stalled(&log);
    assert!(!pids.is_empty(), "a query engine hung");
    let (_, m) = s.get("/api/metrics");
    assert_eq!(
        m["query_engine_restarts"].as_u64(),
        Some(pids.len() as u64),
        "{m}"
    );
    for p in pids {
        assert!(!alive(p), "the hung query engine {p} was killed");
    }
}
