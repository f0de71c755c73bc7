//! The GUI server under load (docs/gui.md "Load"): [`PAIRS`] games between two people driven by
//! HTTP clients (each thinking [`THINK_MS`] between turns) and [`AGAINST`] games against the
//! engine, all at once, with `--max-engines 4`,
//! for [`seconds`] (120 s; `MENAGERIE_LOAD_SECS` sets another time). Every turn answered must
//! be in its game exactly once, in order, and so after a restart from the disk; no answer
//! that waits on no search may take over 1 s (every request here: the engine's turns are
//! searched after the answers); the server's memory and its engine processes stay bounded.
//! Each two-person game's event stream is read too, and the time from a turn's request to its
//! state arriving on the stream (what the other player's page waits for) is printed.
//!
//! Seeded: the same turns are chosen from the same positions. Loopback only. Ignored in the
//! plain `cargo test` (it loads both cores for two minutes); CI runs it on its own:
//! `cargo test --profile release-tests --test integration -- --ignored gui_load --nocapture`.

use std::collections::HashMap;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::gui_common::{link_secret, strings, temp_dir, Rng, Server};

/// Games between two people, each driven by its own client thread.
const PAIRS: usize = 25;
/// Games against the engine, each driven by its own client thread.
const AGAINST: usize = 25;
/// The search places: fewer than the games against the engine, so that they queue.
const MAX_ENGINES: usize = 4;
/// The server's query engines (src/gui/engines.rs `QUERY_ENGINES`).
const QUERY_ENGINES: usize = 2;
/// The longest answer allowed to a request that waits on no search, milliseconds.
const SLOWEST_MS: u128 = 1000;
/// Between two people, each client thinks this long between its turns, milliseconds (seeded,
/// from the range): quicker than any person, slow enough that the clients do not just measure
/// how many turns a second the machine can take.
const THINK_MS: (u64, u64) = (20, 120);
/// The seed of the turns.
const SEED: u64 = 0x6c6f_6164;
/// The variants the games cycle through: every one of the registry (each starts without a
/// pre-game choice but the seed).
fn variant_names() -> Vec<&'static str> {
    menagerie::variants::Variant::ALL
        .iter()
        .map(|v| v.name())
        .collect()
}

/// How long the load runs, in seconds.
fn seconds() -> u64 {
    std::env::var("MENAGERIE_LOAD_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120)
}

/// One game as its client played it.
struct Played {
    id: String,
    /// Whether the engine plays Black.
    engine: bool,
    /// The person's turns answered 200, each with the ply it was played at.
    turns: Vec<(usize, String)>,
}

/// What every client measured.
#[derive(Default)]
struct Figures {
    /// Milliseconds of every answer.
    answers_ms: Vec<u128>,
    /// The slowest answers: (milliseconds, what).
    slow: Vec<(u128, String)>,
    /// Milliseconds from a turn's request to its state on the game's event stream.
    stream_ms: Vec<u128>,
    /// Failures: an answer that should not be.
    failures: Vec<String>,
    games: Vec<Played>,
}

fn send(req: ureq::Request, body: Option<Value>) -> (u16, Value) {
    let r = match body {
        Some(b) => req.send_json(b),
        None => req.call(),
    };
    match r {
        Ok(r) => (r.status(), r.into_json().unwrap_or(Value::Null)),
        Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap_or(Value::Null)),
        Err(e) => (0, json!({"error": e.to_string()})),
    }
}

/// A client's timed requests.
struct Client<'a> {
    agent: ureq::Agent,
    url: &'a str,
    figures: &'a Mutex<Figures>,
    answers: Vec<u128>,
}

impl Client<'_> {
    fn timed(&mut self, what: &str, req: ureq::Request, body: Option<Value>) -> (u16, Value) {
        let t = Instant::now();
        let out = send(req, body);
        let ms = t.elapsed().as_millis();
        self.answers.push(ms);
        if ms > SLOWEST_MS / 4 {
            self.figures
                .lock()
                .unwrap()
                .slow
                .push((ms, what.to_string()));
        }
        out
    }

    fn get(&mut self, path: &str, seat: &str) -> (u16, Value) {
        let mut req = self.agent.get(&format!("{}{path}", self.url));
        if !seat.is_empty() {
            req = req.set("X-Menagerie-Seat", seat);
        }
        self.timed(&format!("GET {path}"), req, None)
    }

    fn post(&mut self, path: &str, seat: &str, body: Value) -> (u16, Value) {
        let mut req = self.agent.post(&format!("{}{path}", self.url));
        if !seat.is_empty() {
            req = req.set("X-Menagerie-Seat", seat);
        }
        self.timed(&format!("POST {path}"), req, Some(body))
    }

    fn fail(&self, why: String) {
        self.figures.lock().unwrap().failures.push(why);
    }
}

/// Creates a game; its id and the seat header of every person's seat.
fn create(c: &mut Client, variant: &str, engine: bool, seed: u64) -> Option<(String, String)> {
    let mut body = json!({"variant": variant, "white": "human",
        "black": if engine { "engine" } else { "human" }, "movetime_ms": 100});
    if variant == "mutatismutandis" {
        body["seed"] = json!(seed % 10_000);
    }
    let (status, st) = c.post("/api/games", "", body);
    if status != 201 {
        c.fail(format!("POST /api/games {variant}: {status} {st}"));
        return None;
    }
    let id = st["id"].as_str()?.to_string();
    let seats: Vec<String> = [&st["seats"]["white"], &st["seats"]["black"]]
        .into_iter()
        .filter_map(link_secret)
        .collect();
    Some((id, seats.join(",")))
}

/// Reads game `id`'s event stream until `stop`, noting when each ply's state arrives.
fn watch(url: &str, id: &str, arrived: &Mutex<HashMap<usize, Instant>>, stop: &AtomicBool) {
    let agent = ureq::AgentBuilder::new()
        .timeout_read(Duration::from_millis(500))
        .build();
    let Ok(resp) = agent.get(&format!("{url}/api/games/{id}/events")).call() else {
        return;
    };
    let mut reader = std::io::BufReader::new(resp.into_reader());
    let mut buf = Vec::new();
    let mut kind = String::new();
    while !stop.load(Ordering::Relaxed) {
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => return,
            Ok(_) if buf.ends_with(b"\n") => {}
            // The read timed out between events (what was read stays in `buf`): look at
            // `stop` again.
            _ => continue,
        }
        let line = String::from_utf8_lossy(&buf).into_owned();
        buf.clear();
        if let Some(k) = line.strip_prefix("event: ") {
            kind = k.trim().to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            if kind == "state" {
                if let Ok(v) = serde_json::from_str::<Value>(d) {
                    if let Some(n) = v["moves"].as_array().map(Vec::len) {
                        arrived
                            .lock()
                            .unwrap()
                            .entry(n)
                            .or_insert_with(Instant::now);
                    }
                }
            }
        }
    }
}

/// One client: games of `variant` one after another until `until`, a seeded legal turn at a
/// time; against the engine it waits for the engine's reply between its turns.
fn drive(
    url: &str,
    figures: &Mutex<Figures>,
    k: usize,
    engine: bool,
    until: Instant,
    stop: &AtomicBool,
) {
    let mut c = Client {
        agent: ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(30))
            .build(),
        url,
        figures,
        answers: Vec::new(),
    };
    let mut rng = Rng(SEED ^ ((k as u64) << 8) ^ u64::from(engine));
    let mut round = 0u64;
    while Instant::now() < until {
        let names = variant_names();
        let variant = names[(k + round as usize) % names.len()];
        round += 1;
        let Some((id, seat)) = create(&mut c, variant, engine, rng.next()) else {
            return;
        };
        let arrived = Mutex::new(HashMap::new());
        let mut sent: Vec<(usize, Instant)> = Vec::new();
        let mut played = Played {
            id: id.clone(),
            engine,
            turns: Vec::new(),
        };
        let watching = AtomicBool::new(false);
        std::thread::scope(|scope| {
            if !engine {
                scope.spawn(|| watch(url, &id, &arrived, &watching));
            }
            // Long enough for the stream to be open before the first turn: only the figure
            // depends on it.
            std::thread::sleep(Duration::from_millis(50));
            while Instant::now() < until && !stop.load(Ordering::Relaxed) {
                let (status, st) = c.get(&format!("/api/games/{id}"), &seat);
                if status != 200 {
                    c.fail(format!("GET {id}: {status} {st}"));
                    break;
                }
                if !st["result"].is_null() {
                    break;
                }
                let n = st["moves"].as_array().map_or(0, Vec::len);
                if engine && (st["to_move"] != "white" || st["engine_thinking"] == true) {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                }
                let legal = strings(&st["legal"]);
                if legal.is_empty() {
                    break;
                }
                if !engine {
                    let think = THINK_MS.0 + rng.next() % (THINK_MS.1 - THINK_MS.0);
                    std::thread::sleep(Duration::from_millis(think));
                }
                let token = legal[rng.below(legal.len())].clone();
                sent.push((n + 1, Instant::now()));
                let (status, after) = c.post(
                    &format!("/api/games/{id}/moves"),
                    &seat,
                    json!({"token": token}),
                );
                match status {
                    200 => played.turns.push((n, token)),
                    _ => {
                        c.fail(format!("{id} ply {n} {token}: {status} {after}"));
                        break;
                    }
                }
            }
            watching.store(true, Ordering::Relaxed);
        });
        let arrived = arrived.into_inner().unwrap();
        let mut f = figures.lock().unwrap();
        for (ply, at) in sent {
            if let Some(seen) = arrived.get(&ply) {
                f.stream_ms
                    .push(seen.saturating_duration_since(at).as_millis());
            }
        }
        f.games.push(played);
    }
    figures.lock().unwrap().answers_ms.append(&mut c.answers);
}

/// The server's resident memory (kB) and its child processes now.
fn memory_and_children(pid: u32) -> (u64, usize) {
    let rss = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    let children = std::fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
                .filter(|stat| {
                    // The parent pid is the second field after the command's parenthesis.
                    stat.rsplit_once(')')
                        .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                        == Some(pid)
                })
                .count()
        })
        .unwrap_or(0);
    (rss, children)
}

fn percentile(sorted: &[u128], p: f64) -> u128 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[test]
#[ignore = "two minutes of load on both cores: CI runs it on its own (docs/gui.md \"Load\")"]
fn fifty_games_at_once_lose_no_turn() {
    let dir = temp_dir("gui-load");
    let games = dir.join("games");
    let mut s = Server::start(&games, &["--max-engines", &MAX_ENGINES.to_string()], &[]);
    let secs = seconds();
    let started = Instant::now();
    let until = started + Duration::from_secs(secs);
    let figures = Mutex::new(Figures::default());
    let stop = AtomicBool::new(false);
    let mut samples: Vec<(u64, usize)> = Vec::new();
    std::thread::scope(|scope| {
        for k in 0..PAIRS {
            let (url, f, stop) = (&s.url, &figures, &stop);
            scope.spawn(move || drive(url, f, k, false, until, stop));
        }
        for k in 0..AGAINST {
            let (url, f, stop) = (&s.url, &figures, &stop);
            scope.spawn(move || drive(url, f, k, true, until, stop));
        }
        while Instant::now() < until {
            samples.push(memory_and_children(s.pid()));
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    let f = figures.into_inner().unwrap();

    // Every turn answered is in its game exactly once, at the ply it was played at.
    let mut turns = 0;
    let check = |s: &Server, label: &str, failures: &mut Vec<String>| {
        for g in &f.games {
            let (status, st) = s.get(&format!("/api/games/{}", g.id));
            if status != 200 {
                failures.push(format!("{label}: GET {}: {status}", g.id));
                continue;
            }
            let moves = strings(&st["moves"]);
            for (ply, token) in &g.turns {
                if moves.get(*ply) != Some(token) {
                    failures.push(format!(
                        "{label}: {} ply {ply}: sent {token}, the game has {:?}",
                        g.id,
                        moves.get(*ply)
                    ));
                }
            }
            // Between two people every turn is the client's; against the engine every other,
            // the engine's reply to the last one made or not.
            let t = g.turns.len();
            let ok = if g.engine {
                moves.len() == 2 * t || moves.len() + 1 == 2 * t
            } else {
                moves.len() == t
            };
            if !ok {
                failures.push(format!(
                    "{label}: {} has {} turns, the client played {}",
                    g.id,
                    moves.len(),
                    g.turns.len()
                ));
            }
        }
    };
    let mut failures = f.failures.clone();
    check(&s, "live", &mut failures);
    for g in &f.games {
        turns += g.turns.len();
    }
    // The same after a restart from the games directory.
    assert_eq!(s.interrupt(), Some(0), "the server stops cleanly");
    let s2 = Server::start(&games, &[], &[]);
    for g in &f.games {
        s2.wait_state(&g.id, |v| v["restored"] == true);
    }
    check(&s2, "restarted", &mut failures);

    let mut answers = f.answers_ms.clone();
    answers.sort_unstable();
    let mut stream = f.stream_ms.clone();
    stream.sort_unstable();
    let rss: Vec<u64> = samples.iter().map(|x| x.0).collect();
    let most_children = samples.iter().map(|x| x.1).max().unwrap_or(0);
    let quarter = (rss.len() / 4).max(1);
    let early = rss[..quarter.min(rss.len())]
        .iter()
        .max()
        .copied()
        .unwrap_or(0);
    let late = rss.iter().max().copied().unwrap_or(0);
    eprintln!(
        "gui_load: {secs} s, {} games ({} against the engine), {turns} turns by the clients, {} answers: median {} ms, p99 {} ms, largest {} ms; turn to the event stream: {} turns, median {} ms, p95 {} ms, largest {} ms; server memory {} kB in the first quarter, {} kB at most; at most {most_children} engine processes",
        f.games.len(),
        f.games.iter().filter(|g| g.engine).count(),
        answers.len(),
        percentile(&answers, 0.5),
        percentile(&answers, 0.99),
        answers.last().copied().unwrap_or(0),
        stream.len(),
        percentile(&stream, 0.5),
        percentile(&stream, 0.95),
        stream.last().copied().unwrap_or(0),
        early,
        late,
    );
    let mut slow = f.slow.clone();
    slow.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
    for (ms, what) in slow.iter().take(5) {
        eprintln!("gui_load: slow answer {ms} ms: {what}");
    }
    assert!(
        failures.is_empty(),
        "{} failures: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
    assert!(turns > 0);
    assert!(
        answers.last().copied().unwrap_or(0) <= SLOWEST_MS,
        "an answer took over {SLOWEST_MS} ms: {:?}",
        &slow[..slow.len().min(5)]
    );
    // Engines: the places, the query engines, and one being replaced.
    assert!(
        most_children <= MAX_ENGINES + QUERY_ENGINES + 1,
        "{most_children} engine processes"
    );
    // Memory: bounded by the games, not growing with the turns (a generous bound: the records
    // and the event streams of 50 games).
    assert!(
        late <= early.max(20_000) * 3,
        "memory grew from {early} kB to {late} kB"
    );
}
