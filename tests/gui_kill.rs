#![cfg(feature = "gui")]
//! `kill -9` of the GUI server during a burst of turns, [`ROUNDS`] times at seeded
//! pseudo-random moments, on one games directory whose files accumulate. After each kill every
//! game file must be whole and replay to its recorded result (`menagerie replay --pgn`), no file
//! but the games and the writer's temporary files (`.ID.pgn.tmp`, which the loader skips) may be
//! there, and the next server must list exactly the games on the disk and restore the games of
//! the burst with turns the client sent, in order (store.rs: temporary file, fsync, rename,
//! directory fsync). A killed process loses nothing of the page cache, so this shows the
//! replace is atomic (temporary file and rename), not the fsyncs, which matter for a power
//! cut. Loopback only; the delays steer the kills and are never asserted.

use crate::gui_common;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gui_common::{strings, temp_dir, Rng, Server, BIN};
use serde_json::{json, Value};

/// How many times the server is killed.
const ROUNDS: u64 = 20;
/// The seed of the delays and of the turns chosen.
const SEED: u64 = 0x6b69_6c6c_2d39;
/// Engines the server may run at once: the burst's games and the last burst's, restored.
const MAX_ENGINES: &str = "12";

/// A game of a burst as the client saw it.
#[derive(Clone)]
struct Played {
    id: String,
    variant: String,
    /// The answer that created it (its `seats`, once the API has them).
    created: Value,
    /// Its latest state.
    state: Value,
    /// The turns answered 200, in order, from the start of the game.
    acked: Vec<String>,
    /// How many of them were played before this burst (a restored game's).
    before: usize,
    /// The turn sent last whose answer never came (the server was killed).
    in_flight: Option<String>,
}

/// What a burst did.
#[derive(Default)]
struct Burst {
    games: Vec<Played>,
    /// A failure while the server was up (an answer not 200/201): a bug, not the kill.
    failure: Option<String>,
}

/// A request's answer, or `Err` when there was none (the server is gone).
fn send(req: ureq::Request, body: Value) -> Result<(u16, Value), String> {
    match req.send_json(body) {
        Ok(r) => Ok((r.status(), r.into_json().unwrap_or(Value::Null))),
        Err(ureq::Error::Status(code, r)) => Ok((code, r.into_json().unwrap_or(Value::Null))),
        Err(e) => Err(e.to_string()),
    }
}

/// The secret of the seat of the side to move, when the create answer has `seats`
/// (`"/game/ID?seat=SECRET"`); `None` for the API without seats.
fn seat_secret(created: &Value, state: &Value) -> Option<String> {
    let seats = created.get("seats")?.as_object()?;
    let side = state["to_move"].as_str()?;
    let link = seats.get(side)?.as_str()?;
    let (_, rest) = link.split_once("seat=")?;
    Some(rest.split('&').next().unwrap_or(rest).to_string())
}

/// Posts turn `token` in game `g`: `{"token"}`, plus the mover's `"seat"` when the game has
/// seats.
fn post_move(
    agent: &ureq::Agent,
    url: &str,
    g: &Played,
    token: &str,
) -> Result<(u16, Value), String> {
    let mut body = json!({ "token": token });
    if let Some(secret) = seat_secret(&g.created, &g.state) {
        body["seat"] = json!(secret);
    }
    send(agent.post(&format!("{url}/api/games/{}/moves", g.id)), body)
}

/// Creates a game for two people; `Ok(None)` when the server is gone.
fn create(agent: &ureq::Agent, url: &str, variant: &str) -> Result<Option<Played>, String> {
    let body = json!({"variant": variant, "engine": "none"});
    match send(agent.post(&format!("{url}/api/games")), body) {
        Ok((201, st)) => Ok(Some(Played {
            id: st["id"].as_str().ok_or(format!("no id: {st}"))?.to_string(),
            variant: variant.to_string(),
            created: st.clone(),
            state: st,
            acked: Vec::new(),
            before: 0,
            in_flight: None,
        })),
        Ok((code, st)) => Err(format!("POST /api/games {variant}: {code} {st}")),
        Err(_) => Ok(None),
    }
}

/// The burst: new games of chess and Mulligan Stew, the carried games, then seeded legal turns
/// in them one after another until the server is gone. A new chess game is started whenever
/// every game is over.
fn burst(url: &str, seed: u64, carried: Vec<Played>, log: &Mutex<Burst>) {
    let lock = || log.lock().unwrap_or_else(|p| p.into_inner());
    let fail = |e: String| lock().failure = Some(e);
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(30))
        .build();
    let mut rng = Rng(seed);
    lock().games.extend(carried);
    for variant in ["chess", "mulliganstew"] {
        match create(&agent, url, variant) {
            Ok(Some(g)) => lock().games.push(g),
            Ok(None) => return,
            Err(e) => return fail(e),
        }
    }
    loop {
        let live: Vec<usize> = lock()
            .games
            .iter()
            .enumerate()
            .filter(|(_, g)| g.state["result"].is_null() && !strings(&g.state["legal"]).is_empty())
            .map(|(i, _)| i)
            .collect();
        if live.is_empty() {
            match create(&agent, url, "chess") {
                Ok(Some(g)) => lock().games.push(g),
                Ok(None) => return,
                Err(e) => return fail(e),
            }
            continue;
        }
        let i = live[rng.below(live.len())];
        let g = {
            let mut b = lock();
            let g = &mut b.games[i];
            let legal = strings(&g.state["legal"]);
            g.in_flight = Some(legal[rng.below(legal.len())].clone());
            g.clone()
        };
        let token = g.in_flight.clone().unwrap();
        match post_move(&agent, url, &g, &token) {
            Ok((200, st)) => {
                let mut b = lock();
                let g = &mut b.games[i];
                g.acked.push(token);
                g.in_flight = None;
                if strings(&st["moves"]) != g.acked {
                    let e = format!("game {}: moves {} after {:?}", g.id, st["moves"], g.acked);
                    drop(b);
                    return fail(e);
                }
                g.state = st;
            }
            Ok((code, st)) => return fail(format!("game {} turn {token}: {code} {st}", g.id)),
            Err(_) => return,
        }
    }
}

/// The games directory after a kill: each `ID.pgn` whole (it ends with its `Result` and a
/// blank line) and replaying to its recorded result, each `ID.seats` whole, every other entry a
/// writer's temporary file `.ID.EXT.tmp`. `checked` keeps the texts already replayed (unchanged files are not run
/// again). Returns the game ids and the names of the temporary files.
fn check_files(
    dir: &Path,
    checked: &mut HashMap<String, String>,
) -> (HashSet<String>, HashSet<String>) {
    let (mut ids, mut temps) = (HashSet::new(), HashSet::new());
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.starts_with('.') && name.ends_with(".tmp") {
            temps.insert(name);
            continue;
        }
        // A seats file (the seats' secrets, written as the PGN is): whole, one seat a line.
        if let Some(id) = name.strip_suffix(".seats") {
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                text.ends_with('\n')
                    && text.lines().all(|l| {
                        l.split_whitespace().count() == 2
                            && (l.starts_with("white ") || l.starts_with("black "))
                    }),
                "{name}: not a whole seats file: {text:?}"
            );
            assert!(!id.is_empty());
            continue;
        }
        let id = name
            .strip_suffix(".pgn")
            .unwrap_or_else(|| panic!("a file that is not a game in {}: {name}", dir.display()));
        let text = std::fs::read_to_string(&path).unwrap();
        ids.insert(id.to_string());
        if checked.get(id) == Some(&text) {
            continue;
        }
        let result = text
            .lines()
            .find_map(|l| l.strip_prefix("[Result \"")?.strip_suffix("\"]"))
            .unwrap_or_else(|| panic!("{name} ({} bytes): no Result tag:\n{text}", text.len()));
        // The movetext ends with the result and a blank line, as store::game_pgn writes it.
        let whole = [" ", "\n"]
            .iter()
            .any(|sep| text.ends_with(&format!("{sep}{result}\n\n")));
        assert!(
            whole,
            "{name} does not end with its result {result}:\n{text}"
        );
        let out = std::process::Command::new(BIN)
            .args(["replay", "--pgn"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name} does not replay: {}{}\n{text}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        checked.insert(id.to_string(), text);
    }
    (ids, temps)
}

/// A restarted server: it lists exactly the games on the disk, and each game of the last
/// burst that is on the disk comes back with the turns the client sent, in order (a prefix:
/// the writer saves after the answer, so a game or turn answered just before the kill may not
/// have reached the disk). Returns the restored chess game to carry on playing, if one goes
/// on, how many games of the burst were answered but not on the disk, and how many turns
/// answered 200 were not restored.
fn check_restart(
    s: &Server,
    on_disk: &HashSet<String>,
    last: &[Played],
) -> (Option<Played>, usize, usize) {
    let (status, list) = s.get("/api/games");
    assert_eq!(status, 200, "{list}");
    let listed: HashSet<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(&listed, on_disk, "the games listed are those on the disk");
    let (mut carry, mut unsaved, mut lost) = (None, 0, 0);
    for g in last {
        if !on_disk.contains(&g.id) {
            unsaved += 1;
            continue;
        }
        let back = s.wait_state(&g.id, |v| v["restored"] == true);
        let moves = strings(&back["moves"]);
        let mut sent = g.acked.clone();
        sent.extend(g.in_flight.clone());
        assert!(
            moves.len() <= sent.len() && moves == sent[..moves.len()],
            "game {} restored with {moves:?}, the client sent {sent:?}",
            g.id
        );
        assert!(back["notice"].is_null(), "game {}: {back}", g.id);
        lost += g.acked.len().saturating_sub(moves.len());
        if carry.is_none() && g.variant == "chess" && back["result"].is_null() {
            carry = Some(Played {
                before: moves.len(),
                acked: moves,
                in_flight: None,
                state: back,
                ..g.clone()
            });
        }
    }
    (carry, unsaved, lost)
}

/// The server killed with SIGKILL [`ROUNDS`] times during bursts of turns.
#[test]
fn kill_9_during_turns_leaves_whole_games() {
    let dir = temp_dir("gui-kill");
    let mut rng = Rng(SEED);
    let mut checked = HashMap::new();
    let mut on_disk = HashSet::new();
    let mut last: Vec<Played> = Vec::new();
    let (mut turns, mut unsaved, mut lost) = (0, 0, 0);
    let mut temps_seen = HashSet::new();
    for round in 0..=ROUNDS {
        let mut s = Server::start(&dir, &["--max-engines", MAX_ENGINES], &[]);
        let (carry, games_lost, turns_lost) = check_restart(&s, &on_disk, &last);
        unsaved += games_lost;
        lost += turns_lost;
        let carried: Vec<Played> = carry.into_iter().collect();
        if round == ROUNDS {
            break;
        }
        let delay = Duration::from_millis(3 + rng.next() % 298);
        let seed = rng.next();
        let log = Arc::new(Mutex::new(Burst::default()));
        let player = {
            let (url, log) = (s.url.clone(), Arc::clone(&log));
            std::thread::spawn(move || burst(&url, seed, carried, &log))
        };
        std::thread::sleep(delay);
        s.kill();
        player.join().expect("the burst thread");
        let b = std::mem::take(&mut *log.lock().unwrap());
        assert!(b.failure.is_none(), "round {round}: {}", b.failure.unwrap());
        turns += b
            .games
            .iter()
            .map(|g| g.acked.len() - g.before)
            .sum::<usize>();
        let (ids, temps) = check_files(&dir, &mut checked);
        temps_seen.extend(temps);
        on_disk = ids;
        last = b.games;
    }
    println!(
        "{ROUNDS} kills, {turns} turns answered ({lost} of them not on the disk), {} games on \
         the disk ({unsaved} more answered but not on it), {} temporary files left by kills",
        on_disk.len(),
        temps_seen.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
