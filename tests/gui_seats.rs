//! The seats of a game (docs/gui.md "Seats"): each person plays through the secret of their
//! seat, a page without one only watches, offers pass from one seat to the other, a rematch
//! swaps the colours with the secrets, and the secrets survive a restart but never reach the
//! PGN or the state anyone may read.

use serde_json::{json, Value};

use crate::gui_common::{link_secret, strings, temp_dir, wait_file, Server};

/// A new chess game between two people: its id and the secrets of White and Black.
fn two_people(s: &Server, extra: Value) -> (String, String, String) {
    let mut body = json!({"variant": "chess", "white": "human", "black": "human"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    let st = s.new_game(body);
    let id = st["id"].as_str().unwrap().to_string();
    let w = link_secret(&st["seats"]["white"]).expect("White's link carries a secret");
    let b = link_secret(&st["seats"]["black"]).expect("Black's link carries a secret");
    (id, w, b)
}

/// A new game's answer gives one private link per person's seat and one to watch; only the
/// seat of the side to move plays, and nothing a spectator or the wrong seat sends changes
/// the game.
#[test]
fn each_person_plays_only_their_own_side() {
    let s = Server::start(&temp_dir("gui-seats"), &[], &[]);
    let st = s.new_game(json!({"variant": "chess", "white": "human", "black": "human"}));
    let id = st["id"].as_str().unwrap().to_string();
    let seats = &st["seats"];
    assert_eq!(seats["watch"], json!(format!("/game/{id}")), "{seats}");
    let (w, b) = (
        link_secret(&seats["white"]).unwrap(),
        link_secret(&seats["black"]).unwrap(),
    );
    for secret in [&w, &b] {
        assert!(
            secret.len() >= 32 && secret.bytes().all(|c| c.is_ascii_hexdigit()),
            "{secret}: 128 bits or more"
        );
    }
    assert_ne!(w, b);
    assert_eq!(
        strings(&st["you"]),
        vec!["white", "black"],
        "the creator holds both"
    );
    assert_eq!(st["players"], json!({"white": "human", "black": "human"}));
    let moves = format!("/api/games/{id}/moves");

    // A spectator and the wrong seat are refused and change nothing.
    let (status, err) = s.post_as(&moves, &[], json!({"token": "e2e4"}));
    assert_eq!(status, 403, "{err}");
    let (status, err) = s.post_as(
        &moves,
        &[],
        json!({"token": "e2e4", "seat": "0".repeat(32)}),
    );
    assert_eq!(status, 403, "a made-up secret: {err}");
    let (status, err) = s.post_as(&moves, &[&b], json!({"token": "e2e4"}));
    assert_eq!(status, 403, "Black's seat on White's turn: {err}");
    let (_, now) = s.get_as(&format!("/api/games/{id}"), &[]);
    assert_eq!(now["moves"], json!([]));
    assert_eq!(now["you"], json!([]), "a page without a seat watches");

    // The seat in the body, as the API has it, then in the header.
    let (status, after) = s.post_as(&moves, &[], json!({"token": "e2e4", "seat": w}));
    assert_eq!(status, 200, "{after}");
    let (status, _) = s.post_as(&moves, &[&w], json!({"token": "e7e5"}));
    assert_eq!(status, 403, "White's seat on Black's turn");
    let (status, _) = s.post_as(&moves, &[&b], json!({"token": "e7e5"}));
    assert_eq!(status, 200);
    let (_, mine) = s.get_as(&format!("/api/games/{id}"), &[&b]);
    assert_eq!(strings(&mine["you"]), vec!["black"]);
    assert_eq!(strings(&mine["moves"]), vec!["e2e4", "e7e5"]);

    // Nothing anyone may read holds a secret: the state, the list, the PGN.
    for path in [
        format!("/api/games/{id}"),
        "/api/games".into(),
        format!("/api/games/{id}/pgn"),
    ] {
        let (_, text) = s.get_text(&path);
        assert!(
            !text.contains(&w) && !text.contains(&b),
            "{path} shows a secret: {text}"
        );
    }
    let pgn = wait_file(&s.dir.join(format!("{id}.pgn")), |t| t.contains("e5"));
    assert!(!pgn.contains(&w) && !pgn.contains(&b), "{pgn}");

    // Against the engine: one seat, the engine's side has none.
    let st = s.new_game(
        json!({"variant": "chess", "white": "human", "black": "engine", "movetime_ms": 30}),
    );
    assert!(link_secret(&st["seats"]["white"]).is_some());
    assert_eq!(st["seats"]["black"], Value::Null);
    assert_eq!(st["engine"], "black");
    // The older `engine` field still says where the engine sits.
    let st = s.new_game(json!({"variant": "chess", "engine": "white", "movetime_ms": 30}));
    assert_eq!(st["players"], json!({"white": "engine", "black": "human"}));
    assert!(link_secret(&st["seats"]["black"]).is_some());
    assert_eq!(st["seats"]["white"], Value::Null);

    // Two engines, to watch: no seat at all, the engine plays both sides, nobody can resign.
    let st = s.new_game(
        json!({"variant": "chess", "white": "engine", "black": "engine", "movetime_ms": 20}),
    );
    let id = st["id"].as_str().unwrap().to_string();
    assert_eq!(st["engine"], "both");
    assert_eq!(
        (&st["seats"]["white"], &st["seats"]["black"]),
        (&Value::Null, &Value::Null)
    );
    let watched = s.wait_state(&id, |v| v["moves"].as_array().unwrap().len() >= 3);
    assert!(watched["result"].is_null() || watched["moves"].as_array().unwrap().len() >= 3);
    let (status, _) = s.post_as(&format!("/api/games/{id}/resign"), &[], json!({}));
    assert_eq!(status, 403);

    // Bad seat words are refused before anything is made.
    let before = s.get("/api/games").1.as_array().unwrap().len();
    for bad in [
        json!({"variant": "chess", "white": "robot", "black": "human"}),
        json!({"variant": "chess", "white": "human"}),
        json!({"variant": "chess", "white": "human", "black": "human", "engine": "none"}),
    ] {
        let (status, err) = s.post("/api/games", bad.clone());
        assert_eq!(status, 422, "{bad}: {err}");
    }
    assert_eq!(s.get("/api/games").1.as_array().unwrap().len(), before);
}

/// Draw offers and takeback requests go from one seat to the other, which accepts or
/// declines; a turn declines the other side's offer; resigning ends the game for the seat
/// that resigns; analysis waits for the end of the game.
#[test]
fn offers_pass_between_the_two_seats() {
    let s = Server::start(&temp_dir("gui-offers"), &[], &[]);
    let (id, w, b) = two_people(&s, json!({}));
    let path = |p: &str| format!("/api/games/{id}/{p}");

    // A draw: offered by White, seen by both, refused to a spectator, accepted by Black.
    let (status, _) = s.post_as(&path("draw"), &[], json!({}));
    assert_eq!(status, 403);
    let (status, st) = s.post_as(&path("draw"), &[&w], json!({}));
    assert_eq!(status, 200, "{st}");
    assert_eq!(st["offers"]["draw"], "white");
    assert!(st["result"].is_null(), "an offer alone ends nothing");
    let (status, err) = s.post_as(&path("analysis"), &[&w], json!({"on": true}));
    assert_eq!(
        status, 403,
        "no analysis for one of two people during the game: {err}"
    );
    let (status, st) = s.post_as(&path("draw"), &[&b], json!({}));
    assert_eq!(status, 200);
    assert_eq!(
        st["result"],
        json!({"score": "1/2-1/2", "reason": "agreement"})
    );
    assert_eq!(st["offers"]["draw"], Value::Null);
    let (status, st) = s.post_as(&path("analysis"), &[&w], json!({"on": true}));
    assert_eq!(status, 200, "analysis once the game is over: {st}");
    s.post_as(&path("analysis"), &[&w], json!({"on": false}));

    // A takeback: asked, declined; asked again, answered by a turn; asked after the reply
    // (back before the asker's own turn), accepted.
    let (id, w, b) = two_people(&s, json!({}));
    let path = |p: &str| format!("/api/games/{id}/{p}");
    let (status, _) = s.post_as(&path("takeback"), &[&w], json!({}));
    assert_eq!(status, 422, "White has no turn to take back");
    s.post_as(&path("moves"), &[&w], json!({"token": "e2e4"}));
    let (_, st) = s.post_as(&path("takeback"), &[&w], json!({}));
    assert_eq!(st["offers"]["takeback"], "white", "{st}");
    assert_eq!(strings(&st["moves"]), vec!["e2e4"], "only asked");
    let (status, st) = s.post_as(&path("decline"), &[&b], json!({"offer": "takeback"}));
    assert_eq!(status, 200);
    assert_eq!(st["offers"]["takeback"], Value::Null);
    assert_eq!(strings(&st["moves"]), vec!["e2e4"]);
    let (status, _) = s.post_as(&path("decline"), &[&b], json!({"offer": "draw"}));
    assert_eq!(status, 422, "no draw offer to decline");
    s.post_as(&path("takeback"), &[&w], json!({}));
    let (_, st) = s.post_as(&path("moves"), &[&b], json!({"token": "e7e5"}));
    assert_eq!(
        st["offers"]["takeback"],
        Value::Null,
        "Black's turn answers no"
    );
    let (_, st) = s.post_as(&path("takeback"), &[&w], json!({}));
    assert_eq!(st["offers"]["takeback"], "white");
    let (status, st) = s.post_as(&path("takeback"), &[&b], json!({}));
    assert_eq!(status, 200);
    assert_eq!(st["moves"], json!([]), "back before White's turn: {st}");
    assert_eq!(st["to_move"], "white");

    // Resigning: the seat that resigns loses, whoever is to move.
    let (status, st) = s.post_as(&path("resign"), &[&b], json!({}));
    assert_eq!(status, 200);
    assert_eq!(
        st["result"],
        json!({"score": "1-0", "reason": "resignation"})
    );

    // The engine takes no draw offer, and a takeback against it is at once.
    let st = s.new_game(
        json!({"variant": "chess", "white": "human", "black": "engine", "movetime_ms": 30}),
    );
    let eid = st["id"].as_str().unwrap().to_string();
    let (status, _) = s.post(&format!("/api/games/{eid}/draw"), json!({}));
    assert_eq!(status, 422);
}

/// A rematch swaps the colours and the engine's side, and each person keeps their secret for
/// the other colour; every page of the old game learns the new one.
#[test]
fn a_rematch_swaps_the_colours_with_the_seats() {
    let s = Server::start(&temp_dir("gui-rematch"), &[], &[]);
    let (id, w, b) = two_people(&s, json!({"clock": {"base_ms": 60000, "inc_ms": 0}}));
    let path = |p: &str| format!("/api/games/{id}/{p}");
    let (status, _) = s.post_as(&path("rematch"), &[&w], json!({}));
    assert_eq!(status, 422, "the game is not over");
    s.post_as(&path("resign"), &[&w], json!({}));
    let (status, _) = s.post_as(&path("rematch"), &[], json!({}));
    assert_eq!(status, 403);
    let (status, st) = s.post_as(&path("rematch"), &[&w], json!({}));
    assert_eq!(status, 200);
    assert_eq!(st["offers"]["rematch"], "white");
    assert_eq!(st["rematch"], Value::Null);
    let (status, new) = s.post_as(&path("rematch"), &[&b], json!({}));
    assert_eq!(status, 201, "{new}");
    let nid = new["id"].as_str().unwrap().to_string();
    assert_ne!(nid, id);
    assert_eq!(
        strings(&new["you"]),
        vec!["white"],
        "Black of the old game plays White"
    );
    assert_eq!(link_secret(&new["seats"]["white"]), Some(b.clone()));
    assert_eq!(
        new["seats"]["black"],
        Value::Null,
        "the answer gives only the asker's link"
    );
    assert_eq!(new["clock"]["base_ms"], 60000);
    let (_, old) = s.get_as(&format!("/api/games/{id}"), &[]);
    assert_eq!(old["rematch"], json!(nid));
    let (status, _) = s.post_as(&path("rematch"), &[&w], json!({}));
    assert_eq!(status, 409, "one rematch per game");
    let moves = format!("/api/games/{nid}/moves");
    let (status, _) = s.post_as(&moves, &[&w], json!({"token": "e2e4"}));
    assert_eq!(status, 403, "the old White plays Black now");
    let (status, _) = s.post_as(&moves, &[&b], json!({"token": "e2e4"}));
    assert_eq!(status, 200);

    // Against the engine the rematch is made at once, the engine taking the other colour.
    let st = s.new_game(
        json!({"variant": "chess", "white": "human", "black": "engine", "movetime_ms": 30}),
    );
    let eid = st["id"].as_str().unwrap().to_string();
    s.post(&format!("/api/games/{eid}/resign"), json!({}));
    let (status, new) = s.post(&format!("/api/games/{eid}/rematch"), json!({}));
    assert_eq!(status, 201, "{new}");
    assert_eq!(new["players"], json!({"white": "engine", "black": "human"}));
}

/// The secrets are kept beside the PGN, readable by their owner only, so that each person
/// comes back through the same link after the server restarts.
#[test]
fn seats_survive_a_restart() {
    let dir = temp_dir("gui-seats-restart");
    let (id, w, b) = {
        let mut s = Server::start(&dir, &[], &[]);
        let (id, w, b) = two_people(&s, json!({}));
        s.post_as(
            &format!("/api/games/{id}/moves"),
            &[&w],
            json!({"token": "d2d4"}),
        );
        s.interrupt();
        (id, w, b)
    };
    let file = dir.join(format!("{id}.seats"));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(&w) && text.contains(&b), "{text}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the seats file is its owner's only");
    }
    let s = Server::start(&dir, &[], &[]);
    let moves = format!("/api/games/{id}/moves");
    let (status, _) = s.post_as(&moves, &[], json!({"token": "d7d5"}));
    assert_eq!(status, 403, "still seated after the restart");
    let (status, st) = s.post_as(&moves, &[&b], json!({"token": "d7d5"}));
    assert_eq!(status, 200, "{st}");
    assert_eq!(strings(&st["moves"]), vec!["d2d4", "d7d5"]);
}
