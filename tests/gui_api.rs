#![cfg(feature = "gui")]
//! The GUI server's HTTP API (docs/gui.md), through the built binary: `menagerie gui` on an
//! ephemeral port, driving real engine processes. Every variant, illegal turns, bad requests,
//! an engine that dies, games that survive a restart of the server, PGN import.

use crate::gui_common;

use std::time::Duration;

use gui_common::{strings, temp_dir, Server, BIN};
use serde_json::{json, Value};

fn variant_names(s: &Server) -> Vec<String> {
    let (status, v) = s.get("/api/variants");
    assert_eq!(status, 200);
    v.as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap().to_string())
        .collect()
}

/// The variants come from the engine's `variant` command: geometry, holes, pieces.
#[test]
fn variants_describe_every_board() {
    let s = Server::start(&temp_dir("gui-variants"), &[], &[]);
    let (_, v) = s.get("/api/variants");
    let list = v.as_array().unwrap();
    assert!(list.len() >= 6, "{v}");
    let by_name = |n: &str| {
        list.iter()
            .find(|d| d["name"] == n)
            .unwrap_or_else(|| panic!("{n}"))
    };
    let mitosis = by_name("mitosis");
    assert_eq!(
        (mitosis["files"].as_u64(), mitosis["ranks"].as_u64()),
        (Some(9), Some(11))
    );
    assert_eq!(mitosis["first_rank"], 0);
    assert_eq!(strings(&mitosis["holes"]).len(), 12);
    let stew = by_name("mulliganstew");
    assert_eq!(
        (stew["files"].as_u64(), stew["ranks"].as_u64()),
        (Some(6), Some(7))
    );
    assert_eq!(stew["pocket"], true);
    assert_eq!(stew["portions"], 2);
    let mm = by_name("mutatismutandis");
    assert_eq!(strings(&mm["pregame"]), vec!["seed"]);
    assert_eq!(mm["pieces"].as_array().unwrap().len(), 49);
    assert!(mm["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["movement"].as_str().unwrap().contains("becomes")));
    assert_eq!(strings(&by_name("muster")["pregame"]), vec!["army"]);
    let chess = by_name("chess");
    assert_eq!(chess["pieces"][0]["name"], "King");
}

/// In every variant: a game for two people, one legal turn played, an illegal one refused
/// with 422 and nothing changed; then the engine makes the first turn of a game it plays.
#[test]
fn every_variant_plays_through_the_api() {
    let s = Server::start(&temp_dir("gui-every"), &[], &[]);
    for variant in variant_names(&s) {
        let mut body = json!({"variant": variant, "engine": "none"});
        if variant == "mutatismutandis" {
            body["seed"] = json!(7);
        }
        let st = s.new_game(body);
        let id = st["id"].as_str().unwrap().to_string();
        assert_eq!(st["moves"], json!([]), "{variant}");
        assert_eq!(st["fens"].as_array().unwrap().len(), 1);
        let legal = strings(&st["legal"]);
        assert!(!legal.is_empty(), "{variant}: {st}");
        assert_eq!(strings(&st["legal_notation"]).len(), legal.len());
        let token = legal[legal.len() / 2].clone();
        let (status, after) = s.post(&format!("/api/games/{id}/moves"), json!({"token": token}));
        assert_eq!(status, 200, "{variant} {token}: {after}");
        assert_eq!(strings(&after["moves"]), vec![token.clone()]);
        assert_eq!(after["fens"].as_array().unwrap().len(), 2);
        assert_ne!(after["fen"], st["fen"]);
        assert_ne!(
            after["to_move"], st["to_move"],
            "{variant}: the turn passes"
        );
        // A turn that is not legal, a malformed one, an old one: 422, the game unchanged.
        for bad in [token.as_str(), "z9z9", "e2e4 e7e5", ""] {
            let (status, err) = s.post(&format!("/api/games/{id}/moves"), json!({"token": bad}));
            assert_eq!(status, 422, "{variant} {bad:?}: {err}");
            assert!(err["error"].as_str().is_some(), "{err}");
        }
        let (_, now) = s.get(&format!("/api/games/{id}"));
        assert_eq!(now["moves"], after["moves"]);
        assert_eq!(now["fen"], after["fen"]);

        // The engine plays White: its turn comes by itself.
        let mut body = json!({"variant": variant, "engine": "white", "movetime_ms": 50});
        if variant == "mutatismutandis" {
            body["seed"] = json!(7);
        }
        let st = s.new_game(body);
        let id = st["id"].as_str().unwrap().to_string();
        let played = s.wait_state(&id, |v| v["moves"].as_array().unwrap().len() == 1);
        assert_eq!(played["engine_thinking"], false);
        assert_eq!(played["to_move"], "black", "{variant}: {played}");
        // Its turn was legal in the start position.
        assert!(strings(&st["legal"]).contains(&strings(&played["moves"])[0]));
        // Then Black's turn is the person's.
        let (status, _) = s.post(
            &format!("/api/games/{id}/moves"),
            json!({"token": strings(&played["legal"])[0]}),
        );
        assert_eq!(status, 200, "{variant}: Black's turn is the person's");
    }
}

/// The person cannot move for the engine: on the engine's turn a legal turn is refused with
/// 422 and the game is unchanged. The engine has White and ten minutes a turn, so its turn
/// lasts the whole test (the refusal does not depend on how fast it thinks); resigning then
/// stops its search.
#[test]
fn the_person_cannot_move_for_the_engine() {
    let s = Server::start(&temp_dir("gui-engine-turn"), &[], &[]);
    for variant in variant_names(&s) {
        let mut body = json!({"variant": variant, "engine": "white", "movetime_ms": 600_000});
        if variant == "mutatismutandis" {
            body["seed"] = json!(7);
        }
        let st = s.new_game(body);
        let id = st["id"].as_str().unwrap().to_string();
        assert_eq!(st["to_move"], "white", "{variant}: {st}");
        let legal = strings(&st["legal"]);
        assert!(!legal.is_empty(), "{variant}: {st}");
        for token in [&legal[0], &legal[legal.len() - 1]] {
            let (status, err) = s.post(&format!("/api/games/{id}/moves"), json!({"token": token}));
            assert_eq!(status, 422, "{variant} {token}: {err}");
            assert_eq!(err["error"], "it is the engine's turn", "{variant} {token}");
        }
        let (_, now) = s.get(&format!("/api/games/{id}"));
        assert_eq!(now["moves"], json!([]), "{variant}: {now}");
        assert_eq!(now["fen"], st["fen"], "{variant}");
        assert_eq!(now["to_move"], "white", "{variant}");
        let (status, r) = s.post(&format!("/api/games/{id}/resign"), json!({}));
        assert_eq!(status, 200, "{variant}: {r}");
        assert_eq!(
            r["moves"],
            json!([]),
            "{variant}: the engine played no turn: {r}"
        );
    }
}

/// Sends `request` (a request line, and the head and body that follow it, as written) over a
/// plain TCP connection, byte for byte: no client normalises its path. Returns the status
/// code and the whole answer.
fn raw_request(s: &Server, request: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let addr = s.url.trim_start_matches("http://");
    let mut tcp = std::net::TcpStream::connect(addr).expect("connect to the server");
    tcp.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    tcp.write_all(request.replace("{host}", addr).as_bytes())
        .unwrap();
    let mut answer = Vec::new();
    tcp.read_to_end(&mut answer).expect("the answer");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {answer:?}"));
    (status, answer)
}

/// A `GET` of `path` as written, over TCP.
fn raw_get(s: &Server, path: &str) -> (u16, String) {
    raw_request(
        s,
        &format!("GET {path} HTTP/1.1\r\nHost: {{host}}\r\nConnection: close\r\n\r\n"),
    )
}

/// Bad requests get a 4xx with a JSON error and change nothing; no path outside the assets
/// and the games is served.
#[test]
fn bad_requests_are_refused() {
    let s = Server::start(&temp_dir("gui-bad"), &[], &[]);
    let st = s.new_game(json!({"variant": "chess"}));
    let id = st["id"].as_str().unwrap();
    let moves = format!("/api/games/{id}/moves");
    let (status, err) = s.post_raw(&moves, "application/json", b"{\"token\": ");
    assert_eq!(status, 400, "{err}");
    assert!(err["error"].as_str().unwrap().starts_with("bad JSON"));
    let (status, _) = s.post_raw(&moves, "text/plain", b"{\"token\":\"e2e4\"}");
    assert_eq!(status, 415);
    let (status, _) = s.post(&moves, json!({"move": "e2e4"}));
    assert_eq!(status, 400);
    assert_eq!(s.post_announcing(&moves, 100_000), 413);
    let (status, err) = s.get("/api/games/no-such-game");
    assert_eq!(status, 404, "{err}");
    // A path that climbs out of the games, sent as written (an HTTP client would resolve the
    // dots before sending).
    let body = r#"{"token":"e2e4"}"#;
    for path in [
        "/api/games/../../etc/moves",
        "/api/games/%2e%2e/%2e%2e/etc/moves",
    ] {
        let (status, answer) = raw_request(
            &s,
            &format!(
                "POST {path} HTTP/1.1\r\nHost: {{host}}\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            ),
        );
        assert_eq!(status, 404, "{path}: {answer}");
    }
    for bad in [
        json!({"variant": "xiangqi"}),
        json!({"variant": "chess", "level": 21}),
        json!({"variant": "chess", "engine": "purple"}),
        json!({"variant": "chess", "movetime_ms": 0}),
        json!({"variant": "chess", "fen": "not a fen"}),
        json!({"variant": "chess", "seed": 3}),
        json!({"variant": "chess", "clock": {"base_ms": 5, "inc_ms": 0}}),
        json!({"variant": "chess", "elo": 99999}),
    ] {
        let (status, err) = s.post("/api/games", bad.clone());
        assert_eq!(status, 422, "{bad}: {err}");
        assert!(err["error"].is_string());
    }
    // Paths out of the assets and the documentation, sent as written over TCP: dots, encoded
    // dots and slashes, backslashes, as deep as the repository's root from either folder
    // (src/gui/assets/ and docs/). Each is refused with the server's JSON error, and no file
    // of the repository is in the answer.
    let (status, real) = raw_get(&s, "/assets/app.js");
    assert_eq!(status, 200, "{real}");
    for path in [
        "/assets/../Cargo.toml",
        "/assets/../../../Cargo.toml",
        "/assets/%2e%2e/Cargo.toml",
        "/assets/%2e%2e/%2e%2e/%2e%2e/Cargo.toml",
        "/assets/..%2f..%2f..%2fCargo.toml",
        "/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fCargo.toml",
        "/assets/..\\..\\..\\Cargo.toml",
        "/assets/.%2e/.%2e/.%2e/build.rs",
        "/assets//etc/passwd",
        "/assets/%2fetc%2fpasswd",
        "/docs/../Cargo.toml",
        "/docs/../README.md",
        "/docs/%2e%2e/README.md",
        "/docs/..%2fREADME.md",
        "/docs/rules/../../README.md",
        "/rules/..%2f..%2fREADME",
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/nothing",
    ] {
        let (status, answer) = raw_get(&s, path);
        assert_eq!(status, 404, "{path}: {answer}");
        let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        let error: Value = serde_json::from_str(body)
            .unwrap_or_else(|e| panic!("{path}: the answer is not the JSON error ({e}): {answer}"));
        assert!(error["error"].is_string(), "{path}: {answer}");
        for leak in ["[package]", "fn main", "root:", "# menagerie"] {
            assert!(!answer.contains(leak), "{path} served a file: {answer}");
        }
    }
    // A document that is there is served, so the refusals above are not of every document.
    let (status, doc) = raw_get(&s, "/docs/gui.md");
    assert_eq!(status, 200, "{doc}");
    let (_, now) = s.get(&format!("/api/games/{id}"));
    assert_eq!(now["moves"], json!([]));
    // Only the games made here are listed.
    let (_, list) = s.get("/api/games");
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    // The page, its scripts and the rules are served.
    let (status, page) = s.get_text("/");
    assert_eq!(status, 200);
    assert!(page.contains("<script"), "{page}");
    let (status, page) = s.get_text(&format!("/game/{id}"));
    assert_eq!(status, 200);
    assert!(page.contains("<script"));
    let (status, rules) = s.get_text("/rules/mitosis");
    assert_eq!(status, 200);
    assert!(rules.contains("Mitosis"), "{rules}");
}

/// Takeback, resignation and a claimed draw, against the engine and between two people.
#[test]
fn takeback_resign_and_claim() {
    let s = Server::start(&temp_dir("gui-actions"), &[], &[]);
    let st = s.new_game(json!({"variant": "chess", "engine": "black", "movetime_ms": 30}));
    let id = st["id"].as_str().unwrap().to_string();
    let (status, _) = s.post(&format!("/api/games/{id}/takeback"), json!({}));
    assert_eq!(status, 422, "nothing to take back yet");
    s.post(&format!("/api/games/{id}/moves"), json!({"token": "e2e4"}));
    let st = s.wait_state(&id, |v| v["moves"].as_array().unwrap().len() == 2);
    assert_eq!(st["to_move"], "white");
    let (status, back) = s.post(&format!("/api/games/{id}/takeback"), json!({}));
    assert_eq!(status, 200, "{back}");
    assert_eq!(
        back["moves"],
        json!([]),
        "the person's turn and the engine's reply"
    );
    assert_eq!(back["fens"].as_array().unwrap().len(), 1);
    let (status, r) = s.post(&format!("/api/games/{id}/resign"), json!({}));
    assert_eq!(status, 200);
    assert_eq!(
        r["result"],
        json!({"score": "0-1", "reason": "resignation"})
    );
    let (status, _) = s.post(&format!("/api/games/{id}/moves"), json!({"token": "e2e4"}));
    assert_eq!(status, 422, "the game is over");

    // Two people reach a threefold repetition: claimable, then claimed.
    let st = s.new_game(json!({"variant": "chess"}));
    let id = st["id"].as_str().unwrap().to_string();
    for t in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        let (status, _) = s.post(&format!("/api/games/{id}/moves"), json!({"token": t}));
        assert_eq!(status, 200);
    }
    let (status, _) = s.post(&format!("/api/games/{id}/claim"), json!({}));
    assert_eq!(status, 422, "no repetition yet");
    let (_, st) = s.post(&format!("/api/games/{id}/moves"), json!({"token": "f6g8"}));
    assert_eq!(st["claimable"], "threefold repetition");
    let (status, st) = s.post(&format!("/api/games/{id}/claim"), json!({}));
    assert_eq!(status, 200);
    assert_eq!(st["result"]["score"], "1/2-1/2");
    assert_eq!(st["legal"], json!([]));
    // A game over by rule: checkmate, with the checked King named.
    let st = s.new_game(json!({"variant": "chess"}));
    let id = st["id"].as_str().unwrap().to_string();
    let mut last = Value::Null;
    for t in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        last = s
            .post(&format!("/api/games/{id}/moves"), json!({"token": t}))
            .1;
    }
    assert_eq!(
        last["result"],
        json!({"score": "0-1", "reason": "checkmate"})
    );
    assert_eq!(last["check"], json!(["e1"]));
    assert_eq!(last["notation"][3], "Qh4#");
}

/// Mulligan Stew's two-portion turn: the first portion previews, the whole token plays. A
/// Mitosis game and a Mutatis Mutandis setup by seed (the same FEN as `menagerie setup`).
#[test]
fn portions_previews_and_seeds() {
    let s = Server::start(&temp_dir("gui-portions"), &[], &[]);
    let st = s.new_game(json!({"variant": "mulliganstew"}));
    let id = st["id"].as_str().unwrap().to_string();
    let token = strings(&st["legal"])
        .into_iter()
        .find(|t| t.starts_with("M@b3;"))
        .expect("a Mage drop first");
    let (status, p) = s.post(
        &format!("/api/games/{id}/preview"),
        json!({"tokens": ["M@b3"]}),
    );
    assert_eq!(status, 200);
    let fen = p["fen"].as_str().expect("the engine takes a portion alone");
    assert!(fen.starts_with("rakkac/pppppp/6/6/1M4/"), "{fen}");
    let (_, p) = s.post(
        &format!("/api/games/{id}/preview"),
        json!({"tokens": ["z1z1"]}),
    );
    assert_eq!(p["fen"], Value::Null);
    let (status, after) = s.post(&format!("/api/games/{id}/moves"), json!({"token": token}));
    assert_eq!(status, 200);
    assert_eq!(after["to_move"], "black");
    assert!(
        !strings(&after["details"]).is_empty(),
        "the variant's lines under the board"
    );

    // Mutatis Mutandis: the seed's setup.
    let st = s.new_game(json!({"variant": "mutatismutandis", "seed": 7}));
    let out = std::process::Command::new(BIN)
        .args(["setup", "--variant", "mutatismutandis", "--seed", "7"])
        .output()
        .unwrap();
    let fen = String::from_utf8(out.stdout).unwrap();
    assert_eq!(st["start_fen"].as_str().unwrap(), fen.trim());
    assert_eq!(st["seed"], 7);
    // Without a seed, one is drawn and recorded.
    let st = s.new_game(json!({"variant": "mutatismutandis"}));
    assert!(st["seed"].is_u64(), "{st}");
}

/// Muster: the engine proposes its army, the person builds one and picks; the engine's
/// `muster assign` decides who plays what, and the game starts from the two armies.
#[test]
fn muster_armies_through_the_api() {
    let s = Server::start(&temp_dir("gui-muster"), &[], &[]);
    let (status, p) = s.post("/api/muster/propose", json!({"colour": "black"}));
    assert_eq!(status, 200, "{p}");
    let theirs = p["half"].as_str().unwrap().to_string();
    assert_eq!(theirs.split('/').count(), 4, "{theirs}");
    let mine = "8/8/PPPPPPPP/RNBQKBNR";
    let st = s.new_game(json!({
        "variant": "muster", "engine": "black", "movetime_ms": 30,
        "army": {"build": "white", "half": mine, "pick": "white", "engine_half": theirs}
    }));
    let fen = st["start_fen"].as_str().unwrap();
    let board = fen.split_whitespace().next().unwrap();
    // Either army may have been taken or replaced by the regular one; the board is always
    // a Black half over a White half.
    assert_eq!(board.split('/').count(), 8, "{fen}");
    assert!(st["engine"] == "white" || st["engine"] == "black");
    assert!(
        st["notice"].as_str().unwrap().starts_with("Muster:"),
        "{st}"
    );
    // Two people: the table as the engine applies it (both pick W: P_W plays Black with the
    // regular army).
    let st = s.new_game(json!({
        "variant": "muster",
        "army": {"white": "8/8/PPPPPPPP/RNNQKBNR", "black": "rnbqkbbr/pppppppp/8/8", "picks": ["white", "white"]}
    }));
    assert!(st["start_fen"]
        .as_str()
        .unwrap()
        .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKBNR w"));
    let (status, err) = s.post(
        "/api/games",
        json!({"variant": "muster", "army": {"white": "8/8/PPPPPPPP/RNBQQBNR", "black": "rnbqkbnr/pppppppp/8/8", "picks": ["white", "black"]}}),
    );
    assert_eq!(status, 422);
    assert!(err["error"].as_str().unwrap().contains("army"), "{err}");
}

/// Games are saved as they are played and survive a restart of the server; the saved PGN
/// reads back into the same game, and a match PGN imports as an analysis game.
#[test]
fn games_survive_a_restart_and_pgn_round_trips() {
    let dir = temp_dir("gui-restart");
    let mut s = Server::start(&dir, &[], &[]);
    let st =
        s.new_game(json!({"variant": "chess", "engine": "black", "movetime_ms": 30, "level": 3}));
    let id = st["id"].as_str().unwrap().to_string();
    s.post(&format!("/api/games/{id}/moves"), json!({"token": "d2d4"}));
    let played = s.wait_state(&id, |v| v["moves"].as_array().unwrap().len() == 2);
    let st2 = s.new_game(json!({"variant": "mitosis"}));
    let id2 = st2["id"].as_str().unwrap().to_string();
    let t = strings(&st2["legal"])[0].clone();
    s.post(&format!("/api/games/{id2}/moves"), json!({"token": t}));
    // Saved after every change, before any stop.
    assert!(dir.join(format!("{id}.pgn")).exists());
    let (_, pgn) = s.get_text(&format!("/api/games/{id}/pgn"));
    assert!(
        pgn.contains("[Variant \"chess\"]") && pgn.contains("1. d4"),
        "{pgn}"
    );
    assert_eq!(s.interrupt(), Some(0), "Ctrl-C stops cleanly");
    let white = s.secret(&id, "white").expect("the person's seat");

    let s = Server::start(&dir, &[], &[]);
    let (_, list) = s.get("/api/games");
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&id.as_str()) && ids.contains(&id2.as_str()),
        "{list}"
    );
    let back = s.wait_state(&id, |v| v["restored"] == true);
    assert_eq!(back["moves"], played["moves"]);
    assert_eq!(back["fens"], played["fens"]);
    assert_eq!(back["engine"], "black");
    assert_eq!(back["level"], 3);
    let back2 = s.wait_state(&id2, |v| v["restored"] == true);
    assert_eq!(strings(&back2["moves"]), vec![t]);
    // The game goes on after the restart.
    let next = strings(&back["legal"])[0].clone();
    // The game goes on through the same seat after the restart.
    let (status, _) = s.post_as(
        &format!("/api/games/{id}/moves"),
        &[&white],
        json!({"token": next}),
    );
    assert_eq!(status, 200);
    s.wait_state(&id, |v| v["moves"].as_array().unwrap().len() == 4);

    // A PGN as `menagerie match` writes it imports, SAN and all.
    let pgn_dir = temp_dir("gui-match-pgn");
    let pgn_path = pgn_dir.join("m.pgn");
    let out = std::process::Command::new(BIN)
        .args([
            "match",
            "--engine",
            "builtin:greedy",
            "--engine",
            "builtin:random",
            "--games",
            "2",
            "--nodes",
            "100",
            "--pgn",
        ])
        .arg(&pgn_path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    let (status, ids) = s.post("/api/import", json!({"pgn": text}));
    assert_eq!(status, 201, "{ids}");
    assert_eq!(ids.as_array().unwrap().len(), 2);
    let first = ids[0]["id"].as_str().unwrap();
    let (_, g) = s.get(&format!("/api/games/{first}"));
    assert!(g["notice"].is_null(), "every word read: {g}");
    let plies: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("[PlyCount \""))
        .and_then(|v| v.trim_end_matches("\"]").parse().ok())
        .unwrap();
    assert_eq!(g["moves"].as_array().unwrap().len(), plies);
    assert!(g["result"].is_object(), "{g}");
    let (status, err) = s.post("/api/import", json!({"pgn": "1. e4 {never closed"}));
    assert_eq!(status, 422, "{err}");
}

/// An engine that dies is restarted and the game restored from its moves; the page is told.
#[test]
fn a_dead_engine_is_replaced() {
    let dir = temp_dir("gui-flaky");
    let marker = dir.join("crashed");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/doubles/flaky_engine.py");
    let s = Server::start(
        &dir.join("games"),
        &["--engine", script],
        &[
            ("MENAGERIE_ENGINE", BIN),
            ("FLAKY_MARKER", marker.to_str().unwrap()),
        ],
    );
    let st = s.new_game(json!({"variant": "chess", "engine": "black", "movetime_ms": 30}));
    let id = st["id"].as_str().unwrap().to_string();
    let (status, _) = s.post(&format!("/api/games/{id}/moves"), json!({"token": "e2e4"}));
    assert_eq!(status, 200);
    let st = s.wait_state(&id, |v| v["moves"].as_array().unwrap().len() == 2);
    assert!(
        marker.exists(),
        "the first engine crashed at its first 'go'"
    );
    assert!(
        st["notice"].as_str().unwrap_or("").contains("restarted"),
        "{st}"
    );
    assert_eq!(strings(&st["moves"])[0], "e2e4");
}

/// The engine's lines reach the page as Server-Sent Events: the state first, then the
/// analysis's `info` lines.
#[test]
fn analysis_streams_events() {
    let s = Server::start(&temp_dir("gui-sse"), &[], &[]);
    let st = s.new_game(json!({"variant": "chess"}));
    let id = st["id"].as_str().unwrap().to_string();
    let resp = ureq::get(&format!("{}/api/games/{id}/events", s.url))
        .timeout(Duration::from_secs(60))
        .call()
        .unwrap();
    assert_eq!(resp.content_type(), "text/event-stream");
    let (status, a) = s.post(
        &format!("/api/games/{id}/analysis"),
        json!({"on": true, "multipv": 2}),
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["analysis"], json!({"ply": 0, "multipv": 2}));
    let mut reader = std::io::BufReader::new(resp.into_reader());
    let mut kinds: Vec<String> = Vec::new();
    let mut multipvs = std::collections::BTreeSet::new();
    let mut line = String::new();
    while multipvs.len() < 2 {
        line.clear();
        assert!(std::io::BufRead::read_line(&mut reader, &mut line).unwrap() > 0);
        if let Some(k) = line.strip_prefix("event: ") {
            kinds.push(k.trim().to_string());
        }
        if let Some(d) = line.strip_prefix("data: ") {
            if kinds.last().map(String::as_str) == Some("info") {
                let v: Value = serde_json::from_str(d).unwrap();
                assert_eq!(v["ply"], 0);
                assert!(v["pv"].as_array().is_some_and(|p| !p.is_empty()));
                // The line in the game's notation too (SAN here), word for word.
                let pv = strings(&v["pv"]);
                let san = strings(&v["pv_notation"]);
                assert_eq!(san.len(), pv.len(), "{v}");
                use menagerie::variants::{Notation, Rules};
                let mut pos = menagerie::variants::chess::Chess::startpos();
                for (token, word) in pv.iter().zip(&san) {
                    let m = pos.parse_move(token).unwrap();
                    assert_eq!(&pos.pgn_move(m), word, "{v}");
                    pos.make(m);
                }
                multipvs.insert(v["multipv"].as_u64().unwrap());
            }
        }
    }
    assert_eq!(kinds[0], "state");
    // While the person plays the engine, there is no analysis.
    let st = s.new_game(json!({"variant": "chess", "engine": "black"}));
    let (status, _) = s.post(
        &format!("/api/games/{}/analysis", st["id"].as_str().unwrap()),
        json!({"on": true}),
    );
    assert_eq!(status, 422);
    let (status, off) = s.post(&format!("/api/games/{id}/analysis"), json!({"on": false}));
    assert_eq!(status, 200);
    assert!(off["analysis"].is_null());
}

/// In a game without the engine, a turn may be played at an earlier position: the turns after
/// it are dropped (a new line). An illegal turn there changes nothing; a game against the
/// engine refuses it.
#[test]
fn a_new_line_from_an_earlier_position() {
    let s = Server::start(&temp_dir("gui-branch"), &[], &[]);
    let st = s.new_game(json!({"variant": "chess"}));
    let id = st["id"].as_str().unwrap().to_string();
    for t in ["e2e4", "e7e5", "g1f3"] {
        s.post(&format!("/api/games/{id}/moves"), json!({"token": t}));
    }
    let (status, l) = s.get(&format!("/api/games/{id}/legal?ply=1"));
    assert_eq!(status, 200);
    assert!(strings(&l["legal"]).contains(&"c7c5".to_string()));
    assert_eq!(
        strings(&l["legal"]).len(),
        strings(&l["legal_notation"]).len()
    );
    let (status, _) = s.get(&format!("/api/games/{id}/legal?ply=9"));
    assert_eq!(status, 422);
    let (status, _) = s.get(&format!("/api/games/{id}/legal?ply=x"));
    assert_eq!(status, 400);
    let (status, _) = s.post(
        &format!("/api/games/{id}/moves"),
        json!({"token": "e2e4", "ply": 1}),
    );
    assert_eq!(status, 422);
    let (_, now) = s.get(&format!("/api/games/{id}"));
    assert_eq!(strings(&now["moves"]), vec!["e2e4", "e7e5", "g1f3"]);
    let (status, st) = s.post(
        &format!("/api/games/{id}/moves"),
        json!({"token": "c7c5", "ply": 1}),
    );
    assert_eq!(status, 200, "{st}");
    assert_eq!(strings(&st["moves"]), vec!["e2e4", "c7c5"]);
    assert_eq!(st["fens"].as_array().unwrap().len(), 3);
    assert_eq!(st["notation"][1], "c5");
    let st = s.new_game(json!({"variant": "chess", "engine": "black", "movetime_ms": 20}));
    let id = st["id"].as_str().unwrap().to_string();
    s.post(&format!("/api/games/{id}/moves"), json!({"token": "e2e4"}));
    s.wait_state(&id, |v| v["moves"].as_array().unwrap().len() == 2);
    let (status, _) = s.post(
        &format!("/api/games/{id}/moves"),
        json!({"token": "d2d4", "ply": 0}),
    );
    assert_eq!(status, 422);
}

#[test]
fn piece_diagrams_come_from_the_engine() {
    let dir = temp_dir("diagrams");
    let s = Server::start(&dir, &[], &[]);
    let (status, d) = s.get("/api/variants/chess/pieces/N/diagram?square=d4");
    assert_eq!(status, 200, "{d}");
    let eight = ["c2", "e2", "b3", "f3", "b5", "f5", "c6", "e6"];
    assert_eq!(d["square"], "d4");
    assert_eq!(strings(&d["moves"]), eight);
    assert_eq!(strings(&d["captures"]), eight);
    assert_eq!(d["becomes"], Value::Null);
    // Asked again, the same answer (kept by the server).
    assert_eq!(s.get("/api/variants/chess/pieces/n/diagram?square=d4").1, d);
    let (status, q) = s.get("/api/variants/mutatismutandis/pieces/Q/diagram?square=e4");
    assert_eq!(status, 200, "{q}");
    assert_eq!(q["becomes"], "SS");
    assert_eq!(strings(&q["moves"]).len(), 27);
    // Every piece of every variant answers from its board's first square.
    let (_, vs) = s.get("/api/variants");
    for v in vs.as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        let square = if name == "mitosis" { "d1" } else { "d2" };
        for p in v["pieces"].as_array().unwrap() {
            let code = p["code"].as_str().unwrap();
            let (status, d) = s.get(&format!(
                "/api/variants/{name}/pieces/{code}/diagram?square={square}"
            ));
            assert_eq!(status, 200, "{name} {code}: {d}");
            assert_eq!(d["square"], square);
        }
    }
    // Bad requests: a 4xx with one JSON error each.
    for (path, want) in [
        ("/api/variants/nope/pieces/N/diagram?square=d4", 404),
        ("/api/variants/chess/pieces/X/diagram?square=d4", 404),
        ("/api/variants/chess/pieces/N/diagram", 400),
        ("/api/variants/chess/pieces/N/diagram?square=z9", 422),
        ("/api/variants/chess/pieces/N/diagram?square=d4%0Aquit", 400),
        ("/api/variants/chess/pieces/N/diagram?square=d4+d5", 400),
        ("/api/variants/mitosis/pieces/R/diagram?square=a0", 422),
    ] {
        let (status, body) = s.get(path);
        assert_eq!(status, want, "{path}: {body}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{path}: {body}"
        );
    }
    // The engine still answers after them.
    assert_eq!(
        s.get("/api/variants/chess/pieces/K/diagram?square=e1").0,
        200
    );
}

/// A request as raw bytes with the given Host and extra header lines (`{host}` is the server's
/// own address), returning the status and the whole answer.
fn request_with(
    s: &Server,
    method: &str,
    path: &str,
    host: &str,
    headers: &str,
    body: &str,
) -> (u16, String) {
    raw_request(
        s,
        &format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
}

/// The number of games the server lists.
fn game_count(s: &Server) -> usize {
    s.get("/api/games").1.as_array().map_or(0, Vec::len)
}

/// DNS rebinding and foreign pages: only the server's own Host is answered, and a foreign
/// Origin changes nothing. No CORS header is ever sent.
#[test]
fn only_its_own_host_and_origin_are_answered() {
    let s = Server::start(
        &temp_dir("gui-access"),
        &["--allowed-host", "chess.lan"],
        &[],
    );
    let port = s.url.rsplit(':').next().unwrap().to_string();
    let body = r#"{"variant": "chess", "engine": "none"}"#;
    // A page of evil.example whose name now points at 127.0.0.1.
    for host in [
        format!("evil.example:{port}"),
        "127.0.0.1".to_string(),
        format!("chess.lan.evil:{port}"),
    ] {
        let (status, answer) = request_with(&s, "POST", "/api/games", &host, "", body);
        assert_eq!(status, 421, "Host {host}: {answer}");
        assert!(answer.contains("\"error\""), "{answer}");
        let (status, _) = request_with(&s, "GET", "/api/games", &host, "", "");
        assert_eq!(status, 421, "GET with Host {host}");
    }
    assert_eq!(game_count(&s), 0);
    // A request without a Host header at all.
    let (status, _) = raw_request(&s, "GET /api/games HTTP/1.1\r\nConnection: close\r\n\r\n");
    assert!(status == 421 || status == 400, "{status}");
    // Its own names are answered.
    for host in [
        "{host}".to_string(),
        format!("localhost:{port}"),
        format!("chess.lan:{port}"),
        format!("[::1]:{port}"),
    ] {
        let (status, answer) = request_with(&s, "GET", "/api/variants", &host, "", "");
        assert_eq!(status, 200, "Host {host}: {answer}");
        assert!(
            !answer.to_ascii_lowercase().contains("access-control-"),
            "{answer}"
        );
    }
    // A foreign Origin may not create, play or delete; its own may.
    for origin in [
        "http://evil.example",
        "null",
        &format!("http://evil.example:{port}"),
        &format!("https://127.0.0.1:{port}"),
    ] {
        let (status, answer) = request_with(
            &s,
            "POST",
            "/api/games",
            "{host}",
            &format!("Origin: {origin}\r\n"),
            body,
        );
        assert_eq!(status, 403, "Origin {origin}: {answer}");
        assert!(
            !answer.to_ascii_lowercase().contains("access-control-"),
            "{answer}"
        );
    }
    assert_eq!(game_count(&s), 0);
    let (status, answer) = request_with(
        &s,
        "POST",
        "/api/games",
        "{host}",
        &format!("Origin: http://localhost:{port}\r\n"),
        body,
    );
    assert_eq!(status, 201, "{answer}");
    let id = s.get("/api/games").1[0]["id"].as_str().unwrap().to_string();
    let play = r#"{"token": "e2e4"}"#;
    let (status, _) = request_with(
        &s,
        "POST",
        &format!("/api/games/{id}/moves"),
        "{host}",
        "Origin: http://evil.example\r\n",
        play,
    );
    assert_eq!(status, 403);
    assert!(moves_of(&s, &id).is_empty());
    // A foreign page may still not read: a GET carries no CORS header for it to use.
    let (status, answer) = request_with(
        &s,
        "GET",
        "/api/games",
        "{host}",
        "Origin: http://evil.example\r\n",
        "",
    );
    assert_eq!(status, 200);
    assert!(
        !answer.to_ascii_lowercase().contains("access-control-"),
        "{answer}"
    );
}

/// A request that names the server once and another name elsewhere (a second Host header, a
/// request target in absolute form) is refused and makes no game; the fuzzer
/// (tests/gui_fuzz.rs) sent both and was answered 201.
#[test]
fn two_hosts_or_a_foreign_target_are_refused() {
    let s = Server::start(&temp_dir("gui-two-hosts"), &[], &[]);
    let body = r#"{"variant": "chess", "engine": "none"}"#;
    let port = s.url.rsplit(':').next().unwrap().to_string();
    for (first, second) in [
        ("{host}".to_string(), format!("evil.example:{port}")),
        (format!("evil.example:{port}"), "{host}".to_string()),
        ("{host}".to_string(), "{host}".to_string()),
    ] {
        let (status, answer) = request_with(
            &s,
            "POST",
            "/api/games",
            &first,
            &format!("Host: {second}\r\n"),
            body,
        );
        assert_eq!(status, 400, "Host {first} and {second}: {answer}");
        assert!(answer.contains("\"error\""), "{answer}");
    }
    for target in [
        format!("http://evil.example:{port}/api/games"),
        "http://evil.example/api/games".to_string(),
        "http://user@{host}/api/games".to_string(),
    ] {
        let (status, answer) = request_with(&s, "POST", &target, "{host}", "", body);
        assert_eq!(status, 421, "{target}: {answer}");
        let (status, _) = request_with(&s, "GET", &target, "{host}", "", "");
        assert_eq!(status, 421, "GET {target}");
    }
    assert_eq!(game_count(&s), 0);
    // Its own name in absolute form is answered.
    let (status, answer) = request_with(&s, "POST", "http://{host}/api/games", "{host}", "", body);
    assert_eq!(status, 201, "{answer}");
    assert_eq!(game_count(&s), 1);
}

fn moves_of(s: &Server, id: &str) -> Vec<String> {
    strings(&s.get(&format!("/api/games/{id}")).1["moves"])
}

/// With a token, nothing but a short page is served without it; the printed address carries
/// it and the page keeps it in an HttpOnly, SameSite=Strict cookie.
#[test]
fn the_token_lets_in_only_who_has_it() {
    let token = "a-token-of-thirty-two-characters";
    let s = Server::start(&temp_dir("gui-token"), &["--token", token], &[]);
    assert_eq!(
        s.token.as_deref(),
        Some(token),
        "the printed address carries the token"
    );
    for path in [
        "/",
        "/api/variants",
        "/api/games",
        "/assets/app.js",
        "/rules/chess",
        "/game/x",
    ] {
        let (status, answer) = raw_get(&s, path);
        assert_eq!(status, 401, "{path}: {answer}");
    }
    let body = r#"{"variant": "chess", "engine": "none"}"#;
    let (status, _) = request_with(&s, "POST", "/api/games", "{host}", "", body);
    assert_eq!(status, 401);
    // A wrong token, or a prefix of the right one.
    for wrong in [
        "Cookie: menagerie_token=nope\r\n",
        &format!("Cookie: menagerie_token={}\r\n", &token[..31]),
        "Authorization: Bearer nope\r\n",
    ] {
        let (status, _) = request_with(&s, "GET", "/api/games", "{host}", wrong, "");
        assert_eq!(status, 401, "{wrong}");
    }
    // The address with the token: a cookie, and the same address without it.
    let (status, answer) = raw_get(&s, &format!("/game/abc?token={token}&x=1"));
    assert_eq!(status, 303, "{answer}");
    let lower = answer.to_ascii_lowercase();
    assert!(lower.contains("location: /game/abc?x=1\r\n"), "{answer}");
    let cookie_line = lower
        .lines()
        .find(|l| l.starts_with("set-cookie:"))
        .expect("a cookie");
    assert!(
        cookie_line.contains("httponly") && cookie_line.contains("samesite=strict"),
        "{cookie_line}"
    );
    // With the cookie or the header, everything is served.
    let with_cookie = format!("Cookie: menagerie_token={token}\r\n");
    let (status, _) = request_with(&s, "POST", "/api/games", "{host}", &with_cookie, body);
    assert_eq!(status, 201);
    let (status, _) = request_with(&s, "GET", "/", "{host}", &with_cookie, "");
    assert_eq!(status, 200);
    let (status, answer) = request_with(
        &s,
        "GET",
        "/api/games",
        "{host}",
        &format!("Authorization: Bearer {token}\r\n"),
        "",
    );
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("\"chess\""), "{answer}");
    // The Host rule comes first, the token does not lift it.
    let (status, _) = request_with(&s, "GET", "/api/games", "evil.example", &with_cookie, "");
    assert_eq!(status, 421);
}

/// A token too short is refused at the start, and --token and --no-token exclude each other.
#[test]
fn bad_token_options_are_refused() {
    let dir = temp_dir("gui-bad-token");
    let dir = dir.to_str().unwrap();
    let out = common_run(&["gui", "--port", "0", "--games-dir", dir, "--token", "short"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("at least 16 characters"),
        "{out:?}"
    );
    let out = common_run(&[
        "gui",
        "--port",
        "0",
        "--games-dir",
        dir,
        "--token",
        "abcdefghijklmnopq",
        "--no-token",
    ]);
    assert!(!out.status.success());
}

fn common_run(args: &[&str]) -> std::process::Output {
    std::process::Command::new(BIN)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run menagerie")
}

/// A games directory the disk does not take: the game goes on in memory, its state says why
/// it is not saved, and the file is written as soon as the directory can be made.
#[test]
fn a_game_goes_on_when_its_file_cannot_be_written() {
    let root = temp_dir("gui-unwritable");
    // A file where the games directory's parent should be: no directory can be made there.
    let blocker = root.join("blocker");
    std::fs::write(&blocker, "not a directory").unwrap();
    let games = blocker.join("games");
    let s = Server::start(&games, &[], &[]);
    let st = s.new_game(json!({"variant": "chess", "engine": "none"}));
    let id = st["id"].as_str().unwrap().to_string();
    let (status, after) = s.post(&format!("/api/games/{id}/moves"), json!({"token": "e2e4"}));
    assert_eq!(status, 200, "{after}");
    let st = s.wait_state(&id, |st| st["save_error"].is_string());
    assert!(
        st["save_error"]
            .as_str()
            .unwrap()
            .contains("cannot save games"),
        "{st}"
    );
    assert_eq!(strings(&st["moves"]), ["e2e4"]);
    // Play goes on.
    let (status, _) = s.post(&format!("/api/games/{id}/moves"), json!({"token": "e7e5"}));
    assert_eq!(status, 200);
    // The disk takes it again: the writer's next try writes the game's latest state.
    std::fs::remove_file(&blocker).unwrap();
    let file = games.join(format!("{id}.pgn"));
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !file.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "{} never written",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(
        pgn.contains("1. e4") && pgn.contains("e5") && pgn.contains("[PlyCount \"2\"]"),
        "{pgn}"
    );
    let st = s.wait_state(&id, |st| st["save_error"].is_null());
    assert_eq!(strings(&st["moves"]), ["e2e4", "e7e5"]);
}

/// The open event streams are capped: one beyond the cap gets 429, and a closed stream frees
/// its place.
#[test]
fn event_streams_are_capped() {
    use std::io::{BufRead, BufReader, Write};
    let s = Server::start(&temp_dir("gui-streams"), &[], &[]);
    let st = s.new_game(json!({"variant": "chess"}));
    let id = st["id"].as_str().unwrap().to_string();
    let addr = s.url.trim_start_matches("http://").to_string();
    let open = || {
        let mut c = std::net::TcpStream::connect(&addr).unwrap();
        c.set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .unwrap();
        write!(
            c,
            "GET /api/games/{id}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        let mut line = String::new();
        BufReader::new(c.try_clone().unwrap())
            .read_line(&mut line)
            .unwrap();
        let code: u16 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        (code, c)
    };
    let mut streams = Vec::new();
    for i in 0..256 {
        let (code, c) = open();
        assert_eq!(code, 200, "stream {i}");
        streams.push(c);
    }
    let (code, _) = open();
    assert_eq!(code, 429, "one beyond the cap");
    let (status, _) = s.get(&format!("/api/games/{id}"));
    assert_eq!(status, 200, "the rest of the server answers");
    drop(streams.pop());
    // The server sees the closed connection when it next writes to it (its keep-alive
    // comment); until then the place may still be taken.
    let code = (0..200)
        .map(|_| {
            let (code, c) = open();
            if code == 200 {
                streams.push(c);
            } else {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            code
        })
        .find(|&c| c == 200);
    assert_eq!(code, Some(200), "a closed stream frees its place");
}

/// The board editor's check of a position (`POST /api/variants/{variant}/fen`): the engine's
/// FEN reader decides; its canonical FEN and legal turns come back, and a refusal is a 422
/// with the engine's words. Every variant describes its FEN fields for the editor.
#[test]
fn a_set_up_position_is_checked_by_the_engine() {
    let s = Server::start(&temp_dir("gui-fen-check"), &[], &[]);
    let (_, vs) = s.get("/api/variants");
    for v in vs.as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        let fields = v["fields"].as_array().unwrap();
        assert!(
            fields
                .iter()
                .any(|f| f["key"] == "fullmove" && f["kind"] == "number"),
            "{name}: {v}"
        );
        // The start position is accepted as it is written.
        let start = v["startpos"].as_str().unwrap();
        let (status, r) = s.post(
            &format!("/api/variants/{name}/fen"),
            json!({ "fen": start }),
        );
        assert_eq!((status, &r["valid"]), (200, &json!(true)), "{name}: {r}");
        assert_eq!(r["fen"], start, "{name}");
        assert!(r["legal"].as_u64().unwrap() > 0, "{name}: {r}");
        assert!(r["result"].is_null(), "{name}: {r}");
    }
    let stew = vs
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "mulliganstew")
        .unwrap();
    let pool = stew["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["key"] == "tag:pool")
        .unwrap();
    assert_eq!(pool["kind"], "pieces");
    let check = |variant: &str, fen: &str| {
        s.post(
            &format!("/api/variants/{variant}/fen"),
            json!({ "fen": fen }),
        )
    };
    // A Mage in White's hand only, a pool of two: accepted and written canonically.
    let (status, r) = check(
        "mulliganstew",
        "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[M] w - - 0 1 pool:QR/q",
    );
    assert_eq!((status, &r["valid"]), (200, &json!(true)), "{r}");
    assert!(r["fen"].as_str().unwrap().contains("[M] w"), "{r}");
    // Checkmate is a legal position, over by rule.
    let (status, r) = check("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!((status, &r["valid"]), (200, &json!(true)), "{r}");
    assert_eq!(r["legal"], 0);
    assert_eq!(r["result"]["score"], "1-0", "{r}");
    assert_eq!(strings(&r["check"]), vec!["h8"]);
    // Refusals carry the engine's words.
    let refused = |variant: &str, fen: &str| {
        let (status, r) = check(variant, fen);
        assert_eq!((status, &r["valid"]), (200, &json!(false)), "{fen}: {r}");
        assert!(r["fen"].is_null(), "{r}");
        r["error"].as_str().unwrap().to_string()
    };
    assert!(refused("chess", "8/8/8/8/8/8/8/8 w - - 0 1").contains("kings"));
    let why = refused(
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
    );
    assert!(why.starts_with("bad FEN: castling"), "{why}");
    // A Mage in both hands and on the board is one too many (rules 7).
    let why = refused(
        "mulliganstew",
        "rakkac/pppppp/6/6/2M3/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q/q",
    );
    assert!(why.starts_with("bad FEN"), "{why}");
    // What never reaches the engine.
    refused("chess", "");
    refused("chess", "8/8/8/8/8/8/8/8 w - - 0 1 moves e2e4");
    refused("chess", &"8/".repeat(600));
    refused("chess", "8/8/8/8/8/8/8/8 w\n- - 0 1");
    assert_eq!(check("nosuchgame", "8/8/8/8/8/8/8/8 w - - 0 1").0, 404);
    assert_eq!(
        s.post("/api/variants/chess/fen", json!({ "fen": 7 })).0,
        400
    );
    // The engine still answers after its refusals.
    let (status, r) = check("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!((status, r["legal"].as_u64()), (200, Some(5)), "{r}");
}

/// A game whose setup fails (a FEN the engine refuses) leaves nothing running: its driver task
/// ends with the 422, so the server's drivers are its games.
#[test]
fn a_failed_setup_leaves_no_driver() {
    let s = Server::start(&temp_dir("gui-failed-setup"), &[], &[]);
    let ok = s.new_game(json!({"variant": "chess", "engine": "none"}));
    assert!(ok["id"].is_string());
    for i in 0..20 {
        let (status, r) = s.post(
            "/api/games",
            json!({"variant": "chess", "engine": "none", "fen": format!("8/8/8/8/8/8/8/{i} w - - 0 1")}),
        );
        assert_eq!(status, 422, "{r}");
    }
    // The tasks end just after their answers: wait for it (a guard, not a timing assertion).
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (_, m) = s.get("/api/metrics");
        assert_eq!(m["games"], 1, "{m}");
        if m["drivers"] == 1 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "drivers left running: {m}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let (_, list) = s.get("/api/games");
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
}
