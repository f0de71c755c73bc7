//! A fuzzer of the protocol: seeded random sessions of good, damaged and garbage
//! lines for every variant the engine lists in `UCI_Variant`, driven through the built binary.
//! The library is the oracle: it says which positions and turns are legal, and the engine's
//! answers are checked against it after every line.
//!
//! Invariants checked:
//! - the engine never dies, and answers `isready` after every line;
//! - a bad line gets exactly one `info string error` line and changes nothing (`d` is the same);
//! - `position` is accepted exactly when the library accepts it, and `d` then shows the
//!   library's FEN; after a rejected one, `go` answers `bestmove 0000`;
//! - every search `go` gets exactly one `bestmove`, a whole legal turn (within `searchmoves`
//!   when those are legal), `(none)` at a decided position; every `info` PV is made of whole
//!   legal turns and the last one starts with the turn played;
//! - `go perft 1` lists the turns of `moves`; a long perft ends on `stop`;
//! - lines sent at once after `stop` (`position`, `setoption`, `ucinewgame`, `go`) wait for
//!   the stopped search's `bestmove` and are never refused; error lines carry no control
//!   byte of the input;
//! - `quit` ends the process.
//!
//! The short run is part of `cargo test`; the long one runs for `FUZZ_SECONDS` (default 300)
//! from `FUZZ_SEED` (default 1), printing how many lines it sent:
//! `FUZZ_SECONDS=600 cargo test --profile release-tests --test integration -- fuzz_protocol::
//! --ignored --nocapture`.

use crate::common;
use menagerie::variants::game_outcome;

use std::time::{Duration, Instant};

use common::{Engine, QUICK, SEARCH};

use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::turn::{self, Extent, Reading};
use menagerie::variants::{Game, Notation, Variant};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (n >= 1).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The position of a `position` command by the library (its history included), or `None`
/// when the command must be refused.
fn position_of<G: Game>(fen: Option<&str>, moves: &[String]) -> Option<G> {
    let mut pos = match fen {
        None => G::startpos(),
        Some(f) => G::from_fen(f).ok()?,
    };
    for token in moves {
        turn::play(&mut pos, token, Reading::Token, Extent::Start).ok()?;
    }
    Some(pos)
}

/// The last accepted `position` command: its FEN (`None`: startpos) and turns.
type Spec = (Option<String>, Vec<String>);

/// `count` random legal turn tokens from the start (fewer when the game ends), by the library:
/// a seeded playout (its seed drawn from `rng`) cut after its `count`-th turn.
fn random_game<G: Game>(rng: &mut Rng, count: usize) -> Vec<String> {
    let start = G::startpos();
    let mut pos = start.clone();
    let (mut plies, mut turns) = (Vec::new(), 0);
    let mut side = pos.side_to_move();
    Playout::new(rng.next(), count * turn::MAX_TURN_PLIES).run(&mut pos, |p, at| {
        let turn_start = match at.last {
            None => true,
            Some(m) => {
                plies.push(m);
                turn::is_over(p, side)
            }
        };
        side = p.side_to_move();
        if turn_start {
            turns += usize::from(at.last.is_some());
            if turns == count || game_outcome(p).is_some() {
                return Next::Stop;
            }
        }
        Next::Random
    });
    turn::whole_tokens(&start, &plies)
}

/// Whether `token` is one whole legal turn of `pos` (played on it when so).
fn whole_turn<G: Game>(pos: &mut G, token: &str) -> bool {
    let side = pos.side_to_move();
    turn::play(pos, token, Reading::Token, Extent::Start).is_ok() && turn::is_over(pos, side)
}

/// Checks a search's answer `out` (up to `bestmove`) at the position of `spec`; `allowed`: the
/// legal `searchmoves` turns given (empty: any).
fn check_search<G: Game>(spec: &Spec, out: &[String], allowed: &[String], line: &str) {
    let root: G = position_of(spec.0.as_deref(), &spec.1).expect("an accepted position");
    let fen = root.fen();
    let best = out
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("{line}: no bestmove in {out:#?}"));
    assert_eq!(
        out.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{line}: {out:#?}"
    );
    if game_outcome(&root).is_some() {
        assert_eq!(best, "(none)", "{line} at a decided position {fen}");
        return;
    }
    assert!(
        whole_turn(&mut root.clone(), best),
        "{line}: bestmove {best} is not a whole legal turn of {fen}"
    );
    if !allowed.is_empty() {
        assert!(
            allowed
                .iter()
                .any(|a| best == a || best.starts_with(&format!("{a};"))),
            "{line}: {best} is not among {allowed:?}"
        );
    }
    let mut last_first = None;
    for info in out.iter().filter(|l| l.starts_with("info depth")) {
        let pv: Vec<&str> = info
            .split(" pv ")
            .nth(1)
            .map(|p| p.split_whitespace().collect())
            .unwrap_or_default();
        let mut pos = root.clone();
        for t in &pv {
            if game_outcome(&pos).is_some() {
                break; // a PV may go on past a draw by rule (repetition) that the search sees
            }
            assert!(
                whole_turn(&mut pos, t),
                "{line}: pv turn {t} of '{info}' at {fen}"
            );
        }
        last_first = pv.first().map(|t| t.to_string());
    }
    assert_eq!(last_first.as_deref(), Some(best), "{line}: {out:#?}");
}

/// What a session did: protocol lines sent (the `isready`/`d` checks included) and random
/// commands tried (each followed by its checks).
#[derive(Default)]
struct Tally {
    lines: usize,
    commands: usize,
}

/// One fuzzing session on a fresh engine: about `lines` protocol lines from `seed`.
fn session(seed: u64, lines: usize) -> Tally {
    let mut commands = 0;
    let mut rng = Rng::new(seed);
    let mut e = Engine::start();
    let mut sent = 1;
    e.send("uci");
    let uci = e.read_until(|l| l == "uciok", QUICK);
    sent += 1;
    let combo = uci
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo"))
        .expect("the variant option");
    let variants: Vec<String> = combo
        .split(" var ")
        .skip(1)
        .map(|v| v.trim().to_string())
        .collect();
    assert!(!variants.is_empty());
    let mut variant = "chess".to_string();
    let mut valid = true;
    let mut spec: Spec = (None, Vec::new());
    while sent < lines {
        commands += 1;
        let v = Variant::from_name(&variant).expect("a listed variant");
        let before = e.command("d");
        let fen = before
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .expect("d shows the FEN")
            .to_string();
        sent += 2;
        match rng.below(15) {
            // Select a variant (sometimes a name that is no variant).
            0 => {
                let name = if rng.chance(80) {
                    rng.pick(&variants).clone()
                } else {
                    format!("{}x", rng.pick(&variants))
                };
                let out = e.command(&format!("setoption name UCI_Variant value {name}"));
                if Variant::from_name(&name).is_some() {
                    assert_eq!(out.len(), 1, "{name}: {out:#?}");
                    assert!(out[0].starts_with(&format!("info string variant {name} ")));
                    variant = name;
                    valid = true;
                    spec = (None, Vec::new());
                } else {
                    assert_bad(&mut e, &out, &before, &name);
                }
            }
            // A position: a random game from the start or from the current FEN, maybe damaged.
            1..=3 => {
                let count = rng.below(12);
                let mut moves = menagerie::with_variant!(v, G => random_game::<G>(&mut rng, count));
                let from_fen = rng.chance(30);
                if from_fen {
                    moves.clear();
                }
                if !moves.is_empty() && rng.chance(40) {
                    let i = rng.below(moves.len());
                    moves[i] = damage(&mut rng, &moves[i]);
                }
                let fen_arg = if from_fen {
                    Some(if rng.chance(30) {
                        damage(&mut rng, &fen)
                    } else {
                        fen.clone()
                    })
                } else {
                    None
                };
                let line = match &fen_arg {
                    Some(f) => format!("position fen {f}"),
                    None => "position startpos".to_string(),
                };
                let line = if moves.is_empty() {
                    line
                } else {
                    format!("{line} moves {}", moves.join(" "))
                };
                let want = menagerie::with_variant!(v, G => position_of::<G>(fen_arg.as_deref(), &moves).map(|p| p.fen()));
                let out = e.command(&line);
                match want {
                    Some(want) => {
                        assert!(out.is_empty(), "{line}: {out:#?}");
                        assert_eq!(e.fen(), want, "{line}");
                        valid = true;
                        spec = (fen_arg, moves);
                    }
                    None => {
                        assert_bad(&mut e, &out, &before, &line);
                        valid = false;
                    }
                }
                sent += 1;
            }
            // A bounded search, sometimes with junk words or searchmoves.
            4..=6 => {
                let mut words = vec![if rng.chance(50) {
                    format!("depth {}", 1 + rng.below(4))
                } else {
                    format!("nodes {}", 1 + rng.below(4000))
                }];
                let junk = rng.chance(20);
                if junk {
                    words.insert(rng.below(2), garbage_word(&mut rng));
                }
                let legal = position_of_spec(v, &spec, valid).unwrap_or_default();
                let mut allowed = Vec::new();
                if rng.chance(25) && !legal.is_empty() {
                    for _ in 0..1 + rng.below(3) {
                        allowed.push(rng.pick(&legal).clone());
                    }
                    words.push(format!("searchmoves {}", allowed.join(" ")));
                }
                words.shuffle_keep_first(&mut rng);
                let line = format!("go {}", words.join(" "));
                e.send(&line);
                let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
                let errors = out
                    .iter()
                    .filter(|l| l.starts_with("info string error"))
                    .count();
                assert_eq!(errors, usize::from(junk || !valid), "{line}: {out:#?}");
                if valid {
                    menagerie::with_variant!(v, G => check_search::<G>(&spec, &out, &allowed, &line));
                } else {
                    assert_eq!(out.last().unwrap(), "bestmove 0000", "{line}");
                }
                e.assert_ready();
                sent += 2;
            }
            // An unbounded search (infinite, ponder, or no limit at all) ended by `stop`.
            7 => {
                let line = *rng.pick(&["go infinite", "go ponder", "go", "go ponder infinite"]);
                e.send(line);
                let mut out = Vec::new();
                if rng.chance(50) {
                    // readyok comes at once, before or after the bestmove of a search that
                    // ends at once (no valid position, a decided one).
                    e.send("isready");
                    out = e.read_until(|l| l == "readyok", QUICK);
                    out.pop();
                    sent += 1;
                }
                e.send(if line.contains("ponder") && rng.chance(30) {
                    "ponderhit"
                } else {
                    "stop"
                });
                e.send("stop");
                if !out.iter().any(|l| l.starts_with("bestmove")) {
                    out.extend(e.read_until(|l| l.starts_with("bestmove"), SEARCH));
                }
                if valid {
                    menagerie::with_variant!(v, G => check_search::<G>(&spec, &out, &[], line));
                }
                e.assert_ready();
                sent += 4;
            }
            // perft: depth 1 against `moves`, or a long one stopped.
            8 => {
                if !valid {
                    assert_eq!(
                        e.command("go perft 1"),
                        vec!["info string error no valid position"]
                    );
                } else if rng.chance(50) {
                    let moves = e.command("moves");
                    let listed: Vec<&str> = moves[0]
                        .strip_prefix("info string moves")
                        .expect("moves line")
                        .split_whitespace()
                        .collect();
                    let out = e.go_perft(1);
                    let rows: Vec<&str> = out[..out.len().saturating_sub(2)]
                        .iter()
                        .map(|l| l.split(": ").next().unwrap())
                        .collect();
                    assert_eq!(rows, listed, "perft 1 at {fen}");
                    e.read_until(|l| l.is_empty(), QUICK);
                    sent += 1;
                } else {
                    e.send("go perft 12");
                    e.send("stop");
                    let out = e.read_until(
                        |l| {
                            l.starts_with("info string perft stopped")
                                || l.starts_with("Nodes searched")
                        },
                        SEARCH,
                    );
                    if out.last().unwrap().starts_with("Nodes searched") {
                        // A position without turns: the count is immediate, then a blank line.
                        e.read_until(|l| l.is_empty(), QUICK);
                    }
                    e.assert_ready();
                    sent += 1;
                }
                sent += 1;
            }
            // Harmless commands: no error, no change.
            9 => {
                let line = *rng.pick(&[
                    "ucinewgame",
                    "moves",
                    "eval",
                    "d",
                    "debug on",
                    "debug off",
                    "stop",
                    "ponderhit",
                    "setoption name Clear Hash",
                    "setoption name UCI_AnalyseMode value true",
                    "setoption name Threads value 2",
                    "setoption name Threads value 1",
                    "setoption name Hash value 2",
                    "setoption name MultiPV value 2",
                    "setoption name MultiPV value 1",
                    "setoption name Move Overhead value 0",
                    "variant",
                    "result",
                    "setoption name UCI_ShowWDL value true",
                    "setoption name Skill Level value 20",
                ]);
                let out = e.command(line);
                assert!(
                    !out.iter().any(|l| l.starts_with("info string error")),
                    "{line}: {out:#?}"
                );
                assert_eq!(e.command("d"), before, "{line} changed the state");
                sent += 1;
            }
            // A search stopped and, sent at once after `stop`, a `position`, `setoption`s,
            // `ucinewgame` and a `go`: they wait for the stopped search's bestmove,
            // nothing is refused, and the second search is of the new position.
            13 => {
                let first = *rng.pick(&["go infinite", "go ponder", "go nodes 20000", "go"]);
                e.send(first);
                e.send("stop");
                sent += 2;
                let mut next = spec.clone();
                let mut next_valid = valid;
                if rng.chance(50) {
                    let count = rng.below(8);
                    let moves = menagerie::with_variant!(v, G => random_game::<G>(&mut rng, count));
                    let line = if moves.is_empty() {
                        "position startpos".to_string()
                    } else {
                        format!("position startpos moves {}", moves.join(" "))
                    };
                    e.send(&line);
                    next = (None, moves);
                    next_valid = true;
                    sent += 1;
                }
                for _ in 0..rng.below(3) {
                    let line: &&str = rng.pick(&[
                        "setoption name Hash value 2",
                        "setoption name Hash value 3",
                        "setoption name Threads value 2",
                        "setoption name Threads value 1",
                        "setoption name Clear Hash",
                        "setoption name MultiPV value 1",
                        "ucinewgame",
                        "stop",
                    ]);
                    e.send(line);
                    sent += 1;
                }
                let go = rng
                    .chance(80)
                    .then(|| format!("go nodes {}", 1 + rng.below(3000)));
                if let Some(go) = &go {
                    e.send(go);
                    sent += 1;
                }
                let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
                let errors = out.iter().filter(|l| l.starts_with("info string error"));
                assert_eq!(errors.count(), usize::from(!valid), "{first}: {out:#?}");
                if valid {
                    menagerie::with_variant!(v, G => check_search::<G>(&spec, &out, &[], first));
                }
                if let Some(go) = &go {
                    let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
                    let errors = out.iter().filter(|l| l.starts_with("info string error"));
                    assert_eq!(errors.count(), usize::from(!next_valid), "{go}: {out:#?}");
                    if next_valid {
                        menagerie::with_variant!(v, G => check_search::<G>(&next, &out, &[], go));
                    }
                }
                spec = next;
                valid = next_valid;
                e.assert_ready();
                sent += 1;
            }
            // Garbage and damaged commands: one error, no change.
            _ => {
                let line = bad_line(&mut rng);
                let out = e.command(&line);
                assert_bad(&mut e, &out, &before, &line);
                if line.starts_with("position") {
                    valid = false;
                }
            }
        }
    }
    e.send("quit");
    assert_eq!(e.wait_exit(QUICK), 0);
    Tally {
        lines: sent + 1,
        commands,
    }
}

/// The legal turns at the position of `spec` (`None` while no position is valid).
fn position_of_spec(v: Variant, spec: &Spec, valid: bool) -> Option<Vec<String>> {
    if !valid {
        return None;
    }
    menagerie::with_variant!(v, G => position_of::<G>(spec.0.as_deref(), &spec.1).map(|p| turn::legal_tokens(&p)))
}

/// Checks the answer to a bad line: exactly one error and `d` as before.
fn assert_bad(e: &mut Engine, out: &[String], before: &[String], line: &str) {
    let shown: String = line.chars().take(80).collect();
    assert_eq!(out.len(), 1, "'{shown}' gave {out:#?}");
    assert!(
        out[0].starts_with("info string error "),
        "'{shown}' gave {out:#?}"
    );
    // Quoted input has its control bytes escaped.
    assert!(!out[0].chars().any(char::is_control), "{out:#?}");
    assert_eq!(e.command("d"), before, "'{shown}' changed the state");
}

/// `token` damaged: a character changed, cut, doubled or junk appended.
fn damage(rng: &mut Rng, token: &str) -> String {
    let mut chars: Vec<char> = token.chars().collect();
    if chars.is_empty() {
        return "x".into();
    }
    let i = rng.below(chars.len());
    match rng.below(5) {
        0 => chars[i] = char::from(b'!' + rng.below(94) as u8),
        1 => chars.truncate(i),
        2 => chars.insert(i, chars[i]),
        3 => chars.push(*rng.pick(&[';', ',', '@', 'q', '0', 'x'])),
        _ => {
            let gone = chars[i];
            chars.retain(|c| *c != gone)
        }
    }
    let s: String = chars.into_iter().filter(|c| !c.is_whitespace()).collect();
    if s.is_empty() {
        "x".into()
    } else {
        s
    }
}

/// A word that no `go` knows.
fn garbage_word(rng: &mut Rng) -> String {
    let len = 1 + rng.below(8);
    (0..len)
        .map(|_| char::from(b'a' + rng.below(26) as u8))
        .collect::<String>()
        + "zz"
}

/// A line that must be refused.
fn bad_line(rng: &mut Rng) -> String {
    let forms = [
        "debug maybe",
        "debug",
        "uci now",
        "isready please",
        "help me",
        "setoption",
        "setoption name",
        "setoption name Hash value 0",
        "setoption name Hash value many",
        "setoption name Threads value 0",
        "setoption name MultiPV value -3",
        "setoption name Ponder value perhaps",
        "setoption name UCI_AnalyseMode value 2",
        "setoption name Clear Hash value now",
        "setoption name Nonsense value 1",
        "go perft 0",
        "go perft x",
        "go perft 2 sideways",
        "position",
        "position startpos junk",
        "position fen",
        "muster propose purple",
        "muster choose",
        "variant now",
        "result x",
        "setoption name Skill Level value 21",
        "setoption name UCI_Elo value 5",
        "zz\u{1b}[31mRED",
        "go\0",
        "d \u{1b}[2J",
        "setoption name UCI_Variant value \u{9b}0m",
    ];
    if rng.chance(70) {
        rng.pick(&forms).to_string()
    } else {
        // Printable garbage that starts with no command word.
        let len = 1 + rng.below(60);
        let s: String = (0..len)
            .map(|_| char::from(b'!' + rng.below(94) as u8))
            .collect();
        format!("zz{s}")
    }
}

/// Shuffles every word but the first (so that limits move around junk and searchmoves).
trait ShuffleTail {
    fn shuffle_keep_first(&mut self, rng: &mut Rng);
}

impl ShuffleTail for Vec<String> {
    fn shuffle_keep_first(&mut self, rng: &mut Rng) {
        for i in (2..self.len()).rev() {
            let j = 1 + rng.below(i);
            self.swap(i, j);
        }
    }
}

/// The short deterministic run of `cargo test`: two sessions of about 1000 lines from fixed
/// seeds (a few hundred random commands, a second or two).
#[test]
fn fuzz_short() {
    let mut commands = 0;
    for seed in 1..=2 {
        commands += session(seed, 1000).commands;
    }
    assert!(commands >= 300, "{commands}");
}

/// The long run, by hand: `FUZZ_SECONDS` seconds (default 300) of sessions from `FUZZ_SEED`
/// (default 1) on, 2000 lines each. A failure names its seed: rerun with `FUZZ_SEED=<seed>`.
#[test]
#[ignore = "long: run by hand (see the README's Development section)"]
fn fuzz_long() {
    let secs: u64 = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let mut seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let start = Instant::now();
    let (mut total, mut sessions) = (Tally::default(), 0);
    while start.elapsed() < Duration::from_secs(secs) {
        eprintln!("fuzz: seed {seed}");
        let t = session(seed, 2000);
        total.lines += t.lines;
        total.commands += t.commands;
        sessions += 1;
        seed += 1;
    }
    eprintln!(
        "fuzz: {} random commands, {} protocol lines with the checks, in {sessions} sessions \
         (seeds up to {}) in {:?}",
        total.commands,
        total.lines,
        seed - 1,
        start.elapsed()
    );
}
