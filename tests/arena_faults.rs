//! The match runner loses no result. Engines that close their input, crash at
//! random moments or are killed from outside lose their games (and are restarted with
//! `--recover`); the runner never dies of it (SIGPIPE), and the summary, the result file and
//! every finished game's PGN are always written; the result file is rewritten after every
//! game, so a runner killed with `kill -9` loses only the games in progress and `--resume`
//! plays the rest, none twice. Also the one-pair Elo line and option names with spaces.
//!
//! Every check is an invariant of the files (no timing bound but generous deadlines). The
//! moments of the random crashes vary from run to run, but each test has the fault it needs for
//! certain: an engine double that dies at a known `go`, or one that holds a `go` unanswered
//! (tests/doubles/hold_engine.py) until the test kills it or the runner.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::run_binary;
use menagerie::tools::arena::results::MatchResult;

const BIN: &str = env!("CARGO_BIN_EXE_menagerie");

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menagerie-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A test double of tests/doubles/ as an engine command line, with its arguments.
fn double(name: &str, args: &str) -> String {
    format!(
        "python3 {}/tests/doubles/{name} {args}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The games of a PGN file: round (game number from 1) to the result tag.
fn pgn_games(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut games = Vec::new();
    let mut round = None;
    for line in text.lines() {
        if let Some(r) = line.strip_prefix("[Round \"") {
            round = r.trim_end_matches("\"]").parse().ok();
        }
        if let Some(r) = line.strip_prefix("[Result \"") {
            let round = round.take().expect("a Round tag before the Result tag");
            games.push((round, r.trim_end_matches("\"]").to_string()));
        }
    }
    games
}

/// The first engine's points in game `round` (from 1) with PGN result `result`: the first
/// engine has White in the odd rounds.
fn first_points(round: usize, result: &str) -> f64 {
    let white = match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        other => panic!("result {other}"),
    };
    if round % 2 == 1 {
        white
    } else {
        1.0 - white
    }
}

/// The result file at `path`, read back.
fn result_file(path: &Path) -> MatchResult {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    MatchResult::from_json(&text, "result").unwrap()
}

/// The first engine's points by game number (from 1) of a result file.
fn json_games(result: &MatchResult) -> BTreeMap<usize, f64> {
    let mut games = BTreeMap::new();
    for p in &result.pairs {
        for (k, &x) in p.points.iter().enumerate() {
            games.insert(2 * p.pair + k + 1, x);
        }
    }
    games
}

/// Checks that the PGN file and the result file hold the same games, each once, with the
/// same results, and returns how many.
fn assert_files_agree(pgn: &Path, json: &Path) -> usize {
    let games = pgn_games(pgn);
    let result = result_file(json);
    let counted = json_games(&result);
    let mut seen = BTreeMap::new();
    for (round, res) in &games {
        assert!(
            seen.insert(*round, first_points(*round, res)).is_none(),
            "game {round} twice in the PGN"
        );
    }
    assert_eq!(seen, counted, "PGN and result file differ");
    let wdl = &result.wdl;
    assert_eq!((wdl.wins + wdl.draws + wdl.losses) as usize, games.len());
    games.len()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// An engine that closes its input made the runner die of SIGPIPE (exit
/// 141, no word, no summary, no result file). Now each of its games is lost and the match goes
/// on (with `--recover`) or stops with a message, and the files are complete either way.
#[test]
fn an_engine_that_closes_its_input_does_not_kill_the_runner() {
    let dir = scratch("closed-input");
    let (json, pgn) = (dir.join("c.json"), dir.join("c.pgn"));
    let engine = double("closed_input_engine.py", "");
    let base = ["match", "--engine", &engine, "--engine", "builtin:greedy"];
    let files = [
        "--json",
        json.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ];
    let out = run_binary(
        &[
            &base[..],
            &["--games", "4", "--movetime", "50", "--recover"],
            &files,
        ]
        .concat(),
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Games: 4  W: 0  D: 0  L: 4"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("crashed: engine exited (its input is closed)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(assert_files_agree(&pgn, &json), 4);
    // Without --recover: the first game is lost, the match stops with the reason.
    std::fs::remove_file(&pgn).unwrap();
    let out = run_binary(
        &[&base[..], &["--games", "4", "--movetime", "50"], &files].concat(),
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).contains("Games: 1 "), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("error: game 1: white crashed: engine exited (its input is closed)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(assert_files_agree(&pgn, &json), 1);
    // An engine that exits at once fails the start-up check with a message.
    let out = run_binary(
        &[
            "match",
            "--engine",
            "/bin/true",
            "--engine",
            "builtin:greedy",
            "--games",
            "2",
            "--movetime",
            "50",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("error: engine 1 (true): engine exited"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Engines that die at random moments (exit, SIGKILL, half a line, output or input
/// closed, silence) lose those games, are restarted, and no result is lost: the summary, the
/// result file and the PGN all hold every game, each once. The double's second process (the
/// first that plays) dies at its first `go` whatever the chances, so a game is lost in every
/// run.
#[test]
fn engines_crashing_at_random_lose_no_result() {
    let dir = scratch("random-crash");
    let (json, pgn) = (dir.join("r.json"), dir.join("r.pgn"));
    let counter = dir.join("count");
    let engine = double(
        "random_crash_engine.py",
        &format!("{BIN} 11 {} 2", counter.display()),
    );
    let out = run_binary(
        &[
            "match",
            "--engine",
            &engine,
            "--engine",
            &format!("{BIN} option.Hash=4"),
            "--games",
            "16",
            "--nodes",
            "400",
            "--random-plies",
            "4",
            "--max-turns",
            "60",
            "--concurrency",
            "2",
            "--recover",
            "--timeout",
            "3000",
            "--json",
            json.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("Games: 16 "), "{}", stdout(&out));
    assert_eq!(assert_files_agree(&pgn, &json), 16);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let faults = text.matches("[Termination \"abandoned\"]").count()
        + text.matches("[Termination \"stalled\"]").count();
    assert!(faults > 0, "no engine died: {}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Live children of process `pid` (zombies excluded).
#[cfg(target_os = "linux")]
fn live_children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        let Some(after) = stat.rsplit_once(')').map(|(_, rest)| rest) else {
            continue;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.len() > 1 && fields[1] == pid.to_string() && fields[0] != "Z" {
            out.push(child);
        }
    }
    out
}

/// The pids that processes of `hold_engine.py` holding a `go` wrote to `dir` (`held-<k>`), each
/// with its file, which the caller removes once it has acted.
fn held_engines(dir: &Path) -> Vec<(u32, PathBuf)> {
    let mut held = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if !entry.file_name().to_string_lossy().starts_with("held-") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        held.push((text.trim().parse().unwrap(), entry.path()));
    }
    held
}

/// Engines killed from outside (SIGKILL) in the middle of a game lose that game, are
/// restarted, and every finished game is in the result file and the PGN. Engine `a` is a proxy
/// (tests/doubles/hold_engine.py) whose first three processes each hold their tenth `go`
/// unanswered; the test kills each then, so the kills land mid-game, three times, in every run
/// (the runner's timeout is far longer than the test takes to act: a guard, not a bound).
#[cfg(target_os = "linux")]
#[test]
fn engines_killed_in_a_game_lose_no_result() {
    let dir = scratch("killed");
    let holds = dir.join("holds");
    std::fs::create_dir_all(&holds).unwrap();
    let (json, pgn) = (dir.join("k.json"), dir.join("k.pgn"));
    let a = double(
        "hold_engine.py",
        &format!("{BIN} {} 1 10 3", holds.display()),
    );
    let mut runner = Command::new(BIN)
        .args(["match", "--engine", &format!("{a} option.Hash=4 name=a")])
        .args(["--engine", &format!("{BIN} option.Hash=4 name=b")])
        .args(["--games", "12", "--nodes", "1500", "--random-plies", "4"])
        .args(["--max-turns", "60", "--recover", "--timeout", "120000"])
        .arg("--json")
        .arg(&json)
        .arg("--pgn")
        .arg(&pgn)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = runner.id();
    let started = Instant::now();
    let mut kills = 0;
    while runner.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the match hangs"
        );
        for (victim, file) in held_engines(&holds) {
            // Only an engine of the runner's (a pid is never reused while its parent, the
            // runner, has not reaped it).
            assert!(
                live_children(pid).contains(&victim),
                "engine {victim} holds a go but is no engine of the runner"
            );
            // SAFETY: a signal to a child process of our own child.
            assert_eq!(unsafe { libc::kill(victim as i32, libc::SIGKILL) }, 0);
            std::fs::remove_file(file).unwrap();
            kills += 1;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = runner.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(kills, 3, "{}", stderr(&out));
    assert!(stdout(&out).contains("Games: 12 "), "{}", stdout(&out));
    assert_eq!(assert_files_agree(&pgn, &json), 12);
    // Each kill cost its game, and nothing else did.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Termination \"abandoned\"]").count(),
        3,
        "{text}"
    );
    assert_eq!(text.matches("[Termination \"stalled\"]").count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kill -9` of the runner loses only the games in progress (the result file is
/// rewritten after every game, never left half written), and `--resume` plays the rest: in
/// the end every game is in the result file and in the PGN exactly once. The runner is killed
/// in the middle of game 4 for certain: engine `a` (tests/doubles/hold_engine.py) holds its
/// first `go` of its fourth game, once (the resumed run plays on).
#[cfg(target_os = "linux")]
#[test]
fn a_killed_runner_resumes_without_losing_or_repeating_a_game() {
    let dir = scratch("resume");
    let holds = dir.join("holds");
    std::fs::create_dir_all(&holds).unwrap();
    let (json, pgn) = (dir.join("m.json"), dir.join("m.pgn"));
    let a = double(
        "hold_engine.py",
        &format!("{BIN} {} 4 1 1", holds.display()),
    );
    let args: Vec<String> = [
        "match",
        "--engine",
        &format!("{a} option.Hash=4 name=a"),
        "--engine",
        "builtin:greedy",
        "--games",
        "10",
        "--nodes",
        "800",
        "--random-plies",
        "4",
        "--max-turns",
        "80",
        "--timeout",
        "120000",
        "--pgn",
        pgn.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut runner = Command::new(BIN)
        .args(&args)
        .arg("--json")
        .arg(&json)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // Kill it once game 4 is held and the three before it are counted.
    loop {
        assert!(
            runner.try_wait().unwrap().is_none(),
            "the runner ended before game 4 was held"
        );
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the match hangs"
        );
        let counted = std::fs::read_to_string(&json)
            .ok()
            .and_then(|t| MatchResult::from_json(&t, "m").ok())
            .map_or(0, |r| json_games(&r).len());
        if counted == 3 && !held_engines(&holds).is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    runner.kill().unwrap();
    let _ = runner.wait();
    // The file is whole, and counts the games before the one in progress, as the PGN does.
    let before = json_games(&result_file(&json));
    assert_eq!(before.keys().copied().collect::<Vec<_>>(), [1, 2, 3]);
    let in_pgn: BTreeMap<usize, f64> = pgn_games(&pgn)
        .into_iter()
        .map(|(r, res)| (r, first_points(r, &res)))
        .collect();
    assert_eq!(in_pgn, before);
    // As if the runner had died while writing a game the result file does not count yet:
    // `--resume` cuts it off (and plays that game again).
    {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().append(true).open(&pgn).unwrap();
        write!(
            f,
            "[Event \"menagerie match\"]\n[Round \"99\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Q"
        )
        .unwrap();
    }
    let resumed = run_binary(
        &[
            args.iter().map(String::as_str).collect::<Vec<_>>(),
            vec!["--resume", json.to_str().unwrap()],
        ]
        .concat(),
        b"",
    );
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains("after the last game of the result file removed"),
        "{}",
        stderr(&resumed)
    );
    assert!(!std::fs::read_to_string(&pgn)
        .unwrap()
        .contains("Round \"99\""));
    let text = stdout(&resumed);
    assert!(text.contains("Games: 10 "), "{text}");
    assert!(
        text.contains("Resumed: 3 games from the earlier run"),
        "{text}"
    );
    assert_eq!(assert_files_agree(&pgn, &json), 10);
    // The earlier results are kept as they were.
    let after = json_games(&result_file(&json));
    for (round, points) in &before {
        assert_eq!(after.get(round), Some(points));
    }
    // A finished match resumed plays nothing more; another match's file is refused.
    let again = run_binary(
        &[
            args.iter().map(String::as_str).collect::<Vec<_>>(),
            vec!["--resume", json.to_str().unwrap()],
        ]
        .concat(),
        b"",
    );
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(stdout(&again).contains("Resumed: 10 games from the earlier run, 0 played now"));
    assert_eq!(assert_files_agree(&pgn, &json), 10);
    let mut other = args.clone();
    other[6] = "12".into();
    let refused = run_binary(
        &[
            other.iter().map(String::as_str).collect::<Vec<_>>(),
            vec!["--resume", json.to_str().unwrap()],
        ]
        .concat(),
        b"",
    );
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("not a run of this match"),
        "{}",
        stderr(&refused)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A one-pair match printed `Elo: +190.8 [+190.8, +190.8]`, an interval of
/// no width; one pair says nothing of the spread, so there is no interval.
#[test]
fn a_one_pair_match_has_no_zero_width_interval() {
    let out = run_binary(
        &[
            "match",
            "--engine",
            "builtin:greedy",
            "--engine",
            "builtin:random",
            "--games",
            "2",
            "--nodes",
            "1",
            "--seed",
            "3",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let elo = text.lines().find(|l| l.starts_with("Elo: ")).unwrap();
    assert!(
        elo.ends_with("(no interval: one pair says nothing of the spread)"),
        "{text}"
    );
    assert!(!elo.contains('['), "{elo}");
}

/// `option.Skill Level=5` (an option name with a space) reached the engine
/// as two program arguments, and the match failed with "engine exited (end of output)". Now it
/// is the option `Skill Level`, checked at start-up and sent with `setoption`.
#[test]
fn an_option_name_with_a_space_is_one_option() {
    let out = run_binary(
        &[
            "match",
            "--engine",
            &format!("{BIN} option.Skill Level=5 name=weak"),
            "--engine",
            "builtin:random",
            "--games",
            "2",
            "--nodes",
            "200",
            "--max-turns",
            "20",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Match: weak vs builtin:random"));
    // A misplaced option word is a clear error before anything starts.
    let out = run_binary(
        &[
            "match",
            "--engine",
            &format!("{BIN} option.Skill Level"),
            "--engine",
            "builtin:random",
            "--games",
            "2",
            "--nodes",
            "200",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("'option.Skill' is an option word among the command's arguments"),
        "{}",
        stderr(&out)
    );
}
