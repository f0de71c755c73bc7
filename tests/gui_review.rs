//! A game's review through the API (docs/gui.md "Review"): one entry per turn in every
//! variant, accuracies within 0-100, a queen given away classed a blunder, progress over the
//! event stream, cancelling, the review saved with the game, and the errors.

use std::io::BufRead;
use std::time::Duration;

use serde_json::{json, Value};

use crate::gui_common::{strings, temp_dir, wait_file, Rng, Server};

const CLASSES: [&str; 5] = ["best", "good", "inaccuracy", "mistake", "blunder"];

/// A two-person game of `variant` with up to `turns` seeded random turns; its id.
fn played(s: &Server, variant: &str, turns: usize, seed: u64) -> String {
    let mut body = json!({"variant": variant, "white": "human", "black": "human"});
    if variant == "mutatismutandis" {
        body["seed"] = json!(seed);
    }
    let st = s.new_game(body);
    let id = st["id"].as_str().unwrap().to_string();
    let mut rng = Rng(seed);
    for _ in 0..turns {
        let (_, st) = s.get(&format!("/api/games/{id}"));
        if !st["result"].is_null() {
            break;
        }
        let legal = strings(&st["legal"]);
        let token = &legal[rng.below(legal.len())];
        let (status, after) = s.post(&format!("/api/games/{id}/moves"), json!({"token": token}));
        assert_eq!(status, 200, "{after}");
    }
    id
}

/// Reviews game `id` at `nodes` and waits for the review; returns it.
fn review(s: &Server, id: &str, nodes: u64) -> Value {
    let (status, r) = s.post(&format!("/api/games/{id}/review"), json!({"nodes": nodes}));
    assert_eq!(status, 202, "{r}");
    s.wait_state(id, |v| v["reviewed"] == true);
    let (status, r) = s.get(&format!("/api/games/{id}/review"));
    assert_eq!(status, 200, "{r}");
    r
}

#[test]
fn every_variant_reviews_one_entry_per_turn() {
    let s = Server::start(&temp_dir("gui-review-all"), &[], &[]);
    for (k, variant) in menagerie::variants::Variant::ALL
        .iter()
        .map(|v| v.name())
        .enumerate()
    {
        let id = played(&s, variant, 6, 40 + k as u64);
        let (_, st) = s.get(&format!("/api/games/{id}"));
        let moves = strings(&st["moves"]);
        let r = review(&s, &id, 2000);
        assert_eq!(r["nodes"], 2000);
        let plies = r["plies"].as_array().unwrap();
        assert_eq!(
            plies.len(),
            moves.len(),
            "{variant}: one entry per turn: {r}"
        );
        assert_eq!(r["positions"].as_array().unwrap().len(), moves.len() + 1);
        let mut per_side = [0usize; 2];
        for (i, p) in plies.iter().enumerate() {
            assert_eq!(p["ply"], i, "{variant}");
            assert_eq!(p["played"], moves[i].as_str(), "{variant}");
            assert!(
                CLASSES.contains(&p["class"].as_str().unwrap()),
                "{variant}: {p}"
            );
            per_side[usize::from(p["mover"] == "black")] += 1;
            for w in ["win_before", "win_after"] {
                let x = p[w].as_f64().unwrap();
                assert!((0.0..=100.0).contains(&x), "{variant}: {w} {x}");
            }
        }
        for (i, side) in ["white", "black"].into_iter().enumerate() {
            let counted: u64 = CLASSES
                .iter()
                .map(|c| r["counts"][side][c].as_u64().unwrap())
                .sum();
            assert_eq!(counted as usize, per_side[i], "{variant} {side}: {r}");
            match r["accuracy"][side].as_f64() {
                Some(a) => assert!((0.0..=100.0).contains(&a), "{variant} {side}: {a}"),
                None => assert_eq!(per_side[i], 0, "{variant} {side} has turns"),
            }
        }
    }
}

/// 1. e4 e5 2. Qh5 Nc6 3. Qxe5+?? Nxe5: the queen for a pawn.
#[test]
fn a_queen_given_away_is_a_blunder() {
    let s = Server::start(&temp_dir("gui-review-blunder"), &[], &[]);
    let st = s.new_game(json!({"variant": "chess", "white": "human", "black": "human"}));
    let id = st["id"].as_str().unwrap().to_string();
    for t in ["e2e4", "e7e5", "d1h5", "b8c6", "h5e5", "c6e5"] {
        let (status, a) = s.post(&format!("/api/games/{id}/moves"), json!({"token": t}));
        assert_eq!(status, 200, "{a}");
    }
    let r = review(&s, &id, 20_000);
    let queen = &r["plies"][4];
    assert_eq!(queen["played"], "h5e5");
    assert_eq!(queen["class"], "blunder", "{queen}");
    assert_ne!(queen["best"], "h5e5");
    assert!(queen["best_notation"].is_string(), "{queen}");
    assert!(queen["win_before"].as_f64().unwrap() - queen["win_after"].as_f64().unwrap() >= 15.0);
    // Taking the queen is the best Black has.
    assert_eq!(r["plies"][5]["class"], "best", "{}", r["plies"][5]);
    assert!(r["counts"]["white"]["blunder"].as_u64().unwrap() >= 1);
    let (w, b) = (
        r["accuracy"]["white"].as_f64().unwrap(),
        r["accuracy"]["black"].as_f64().unwrap(),
    );
    assert!(
        w < b,
        "the side that gave its queen away is the less accurate: {w} {b}"
    );
}

/// The review's progress comes over the event stream; a review can be cancelled; it is saved
/// with the game and comes back after a restart without being made again; a takeback makes it
/// another game's; a game without turns, a spectator and bad bodies get 4xx.
#[test]
fn reviews_report_progress_cancel_and_persist() {
    let dir = temp_dir("gui-review-save");
    let mut s = Server::start(&dir, &[], &[]);
    let empty = s.new_game(json!({"variant": "chess", "white": "human", "black": "human"}));
    let empty = empty["id"].as_str().unwrap().to_string();
    let (status, e) = s.post(&format!("/api/games/{empty}/review"), json!({}));
    assert_eq!(status, 422, "no turns: {e}");
    let (status, _) = s.get(&format!("/api/games/{empty}/review"));
    assert_eq!(status, 404);

    let id = played(&s, "chess", 8, 7);
    let (status, e) = s.post_as(
        &format!("/api/games/{id}/review"),
        &[],
        json!({"nodes": 2000}),
    );
    assert_eq!(status, 403, "a spectator reviews nothing: {e}");
    let (status, e) = s.post(&format!("/api/games/{id}/review"), json!({"nodes": 10}));
    assert_eq!(status, 422, "{e}");
    let (status, e) = s.post(&format!("/api/games/{id}/review"), json!({"depth": 3}));
    assert_eq!(status, 400, "{e}");

    // A long review, cancelled while it runs.
    let (status, r) = s.post(
        &format!("/api/games/{id}/review"),
        json!({"nodes": 50_000_000}),
    );
    assert_eq!(status, 202, "{r}");
    assert_eq!(r["total"], 9);
    let st = s.wait_state(&id, |v| v["review_progress"].is_object());
    assert_eq!(st["review_progress"]["total"], 9);
    let (status, c) = s.post(&format!("/api/games/{id}/review"), json!({"cancel": true}));
    assert_eq!(status, 200, "{c}");
    assert_eq!(c["cancelled"], true);
    let st = s.wait_state(&id, |v| v["review_progress"].is_null());
    assert_eq!(st["reviewed"], false);

    // A short one, followed on the event stream to its end.
    let resp = ureq::get(&format!("{}/api/games/{id}/events", s.url))
        .timeout(Duration::from_secs(60))
        .call()
        .unwrap();
    let mut reader = std::io::BufReader::new(resp.into_reader());
    let (status, _) = s.post(&format!("/api/games/{id}/review"), json!({"nodes": 2000}));
    assert_eq!(status, 202);
    let mut kind = String::new();
    let mut done = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        if let Some(k) = line.strip_prefix("event: ") {
            kind = k.trim().to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            if kind == "review" {
                let v: Value = serde_json::from_str(d).unwrap();
                if v["finished"] == true {
                    break;
                }
                done.push(v["done"].as_u64().unwrap());
            }
        }
    }
    assert_eq!(done, (0..=9).collect::<Vec<u64>>(), "one event a position");
    let (_, first) = s.get(&format!("/api/games/{id}/review"));
    // The writer saves it after the answer.
    let saved = wait_file(&s.dir.join(format!("{id}.review.json")), |t| !t.is_empty());
    assert_eq!(serde_json::from_str::<Value>(&saved).unwrap(), first);

    // Saved with the game: the same review after a restart.
    let seats = s.secrets_of(&id);
    let seats: Vec<&str> = seats.iter().map(String::as_str).collect();
    assert_eq!(s.interrupt(), Some(0));
    let s = Server::start(&dir, &[], &[]);
    let st = s.wait_state(&id, |v| v["restored"] == true);
    assert_eq!(st["reviewed"], true);
    let (status, again) = s.get(&format!("/api/games/{id}/review"));
    assert_eq!(status, 200);
    assert_eq!(again, first);

    // A takeback: the review is of other turns now.
    let (status, t) = s.post_as(&format!("/api/games/{id}/takeback"), &seats, json!({}));
    assert_eq!(status, 200, "{t}");
    let st = s.wait_state(&id, |v| v["moves"].as_array().unwrap().len() < 8);
    assert_eq!(st["reviewed"], false);
    let (status, _) = s.get(&format!("/api/games/{id}/review"));
    assert_eq!(status, 404);
}
