//! Integration tests of the match runner (`menagerie match`, src/arena): statistics, built-in
//! players, fault handling and start-up checks with the test doubles of tests/doubles/, engine
//! names, and the real engine binary. Openings, PGN, replay, shards and merging are in
//! tests/arena_books.rs. No network, no external engine; a few seconds in all.

use crate::common;
use menagerie::variants::adjudicated_outcome;

use std::process::Command;

use common::game::{parse, play_plies};
use common::run_binary;
use menagerie::client::StartError;
use menagerie::tools::arena::referee::{GameRecord, GameSettings, Termination};
use menagerie::tools::arena::spec::{player_names, Builtin, EngineSpec, Limit, Sprt};
use menagerie::tools::arena::stats::{elo_from_score, sprt_bounds, Pentanomial};
use menagerie::tools::arena::{run_match, MatchConfig, MatchError, MatchReport, PlayedGame};
use menagerie::variants::chess::Chess;
use menagerie::variants::mystic::Mystic;
use menagerie::variants::{Game, Notation, Rules};

/// The built-in players.
const GREEDY: EngineSpec = EngineSpec::Builtin(Builtin::Greedy);
const RANDOM: EngineSpec = EngineSpec::Builtin(Builtin::Random);

fn config(engines: [EngineSpec; 2], games: usize, limit: Limit) -> MatchConfig {
    MatchConfig {
        names: player_names(&engines),
        engines,
        games,
        limits: [limit; 2],
        settings: GameSettings {
            margin_ms: 300,
            fixed_timeout_ms: 5_000,
            max_turns: 300,
            draw: None,
            resign: None,
        },
        concurrency: 2,
        random_plies: 0,
        openings: None,
        seed: 7,
        sprt: None,
        handshake_timeout_ms: 5_000,
        recover: false,
        shard: None,
    }
}

fn double(name: &str) -> EngineSpec {
    let path = format!("{}/tests/doubles/{name}", env!("CARGO_MANIFEST_DIR"));
    EngineSpec::parse(&format!("python3 {path}")).unwrap()
}

fn run(cfg: &MatchConfig) -> MatchReport {
    let mut pgn: Vec<u8> = Vec::new();
    let report = run_match::<Chess>(cfg, &mut |_, _| {}, Some(&mut pgn)).unwrap();
    let text = String::from_utf8(pgn).unwrap();
    assert_eq!(text.matches("[Variant \"chess\"]").count(), cfg.games);
    report
}

/// The position at the end of a recorded game; panics when a recorded turn is illegal.
fn replay<G: Game>(record: &GameRecord) -> G {
    let mut pos: G = parse(&record.start_fen);
    play_plies(&mut pos, &record.moves.join(" "));
    pos
}

/// Replays every game of the report and checks each turn was legal and the result stands.
fn check_legal(report: &MatchReport) {
    for g in &report.games {
        let pos: Chess = replay(&g.record);
        if g.record.termination == Termination::Normal {
            // Claimable draws (FIDE 9.2, 9.3) are adjudicated as claimed at once.
            assert_eq!(adjudicated_outcome(&pos).unwrap().result, g.record.result);
        }
    }
}

/// Orthodox chess does not end by itself at a claimable draw, but the
/// referee ends the game there as it would on a claim (FIDE 9.3).
#[test]
fn the_referee_adjudicates_a_claimable_draw() {
    use menagerie::tools::arena::player::BuiltinPlayer;
    use menagerie::tools::arena::referee::play_game;
    use menagerie::tools::arena::rng::Rng;
    let start = Chess::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
    let mut white = BuiltinPlayer::new(Builtin::Random, Rng::new(1));
    let mut black = BuiltinPlayer::new(Builtin::Random, Rng::new(2));
    let settings = GameSettings {
        margin_ms: 300,
        fixed_timeout_ms: 5_000,
        max_turns: 300,
        draw: None,
        resign: None,
    };
    let record = play_game(
        &start,
        &[],
        &mut white,
        &mut black,
        [Limit::Nodes(1); 2],
        &settings,
    );
    assert_eq!(record.moves.len(), 1, "{record:?}");
    assert_eq!(
        (record.result, record.termination, record.reason.as_str()),
        (
            menagerie::variants::GameResult::Draw,
            Termination::Normal,
            "fifty-move rule"
        )
    );
}

#[test]
fn stats_known_values() {
    assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
    let (lo, hi) = sprt_bounds(0.05, 0.05);
    assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
    let (l, e, h) = Pentanomial([0, 0, 50, 0, 50]).elo_interval().unwrap();
    assert!(l < e && e < h && (e - 190.85).abs() < 0.01);
}

#[test]
fn greedy_beats_random() {
    let engines = [GREEDY, RANDOM];
    let mut cfg = config(engines, 10, Limit::Movetime(10));
    cfg.random_plies = 4;
    let report = run(&cfg);
    assert_eq!(report.games.len(), 10);
    assert_eq!(report.pairs.pairs(), 5);
    check_legal(&report);
    // Greedy never loses to random here and wins some (it stalemates often: no mate search).
    assert_eq!(report.wdl.losses, 0, "{:?}", report.wdl);
    assert!(report.wdl.score().unwrap() > 0.5, "{:?}", report.wdl);
    // Colours alternate and the pair shares its opening.
    assert!(report.games[0].first_is_white && !report.games[1].first_is_white);
    assert_eq!(
        report.games[0].record.start_fen,
        report.games[1].record.start_fen
    );
    assert_ne!(report.games[0].record.start_fen, Chess::startpos().fen());
}

#[test]
fn same_seed_same_match() {
    let engines = [RANDOM, GREEDY];
    let mut cfg = config(engines, 4, Limit::Nodes(1));
    cfg.random_plies = 2;
    let moves = || -> Vec<Vec<String>> {
        run(&cfg)
            .games
            .into_iter()
            .map(|g| g.record.moves)
            .collect()
    };
    assert_eq!(moves(), moves());
}

/// Two games of the double `name` against the random player under `limit`, with `--recover`:
/// both are lost and the match goes on.
fn fault_match(name: &str, limit: Limit) -> MatchReport {
    let engines = [double(name), RANDOM];
    let mut cfg = config(engines, 2, limit);
    cfg.recover = true;
    cfg.settings.fixed_timeout_ms = 300;
    let report = run(&cfg);
    assert_eq!(report.games.len(), 2);
    assert_eq!(report.wdl.losses, 2, "{:?}", report.games);
    assert!(!report.aborted && report.stopped.is_none());
    report
}

/// Checks that every game ended by `termination`, with a reason containing `reason`.
fn assert_all_ended(games: &[PlayedGame], termination: Termination, reason: &str) {
    for g in games {
        assert_eq!(g.record.termination, termination, "{:?}", g.record);
        assert!(g.record.reason.contains(reason), "{}", g.record.reason);
    }
}

#[test]
fn crashing_engine_loses_and_is_restarted_with_recover() {
    let games = fault_match("crash_engine.py", Limit::Movetime(50)).games;
    assert_all_ended(&games, Termination::Crash, "crashed");
    for g in games {
        // It played its two turns before dying.
        assert!(g.record.moves.len() >= 4, "{:?}", g.record.moves);
    }
}

#[test]
fn crash_stops_the_match_without_recover() {
    let engines = [double("crash_engine.py"), RANDOM];
    let mut cfg = config(engines, 6, Limit::Movetime(50));
    cfg.concurrency = 1;
    let report = run_match::<Chess>(&cfg, &mut |_, _| {}, None).unwrap();
    assert_eq!(report.games.len(), 1, "{:?}", report.games);
    assert!(report.aborted);
    let why = report.stopped.as_deref().unwrap();
    assert!(
        why.contains("crashed") && why.contains("--recover"),
        "{why}"
    );
    // Through the CLI: the summary of the games played, then an error and a failure status.
    let crash = format!(
        "python3 {}/tests/doubles/crash_engine.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let args = ["match", "--engine", &crash, "--engine", "builtin:random"];
    let out = run_binary(
        &[&args[..], &["--games", "4", "--movetime", "50"]].concat(),
        b"",
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Games: 1 "));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error: game 1: white crashed"), "{err}");
}

#[test]
fn illegal_move_loses() {
    let games = fault_match("illegal_engine.py", Limit::Movetime(50)).games;
    assert_all_ended(&games, Termination::IllegalMove, "illegal move e2e5");
}

#[test]
fn silent_engine_loses() {
    // Under a movetime, a missing answer past the margin (300 ms here) is a loss on time.
    let games = fault_match("hung_engine.py", Limit::Movetime(50)).games;
    assert_all_ended(
        &games,
        Termination::TimeForfeit,
        "no bestmove within 350 ms",
    );
    // Under a node limit it is a stalled engine (the --timeout, 300 ms here).
    let games = fault_match("hung_engine.py", Limit::Nodes(100)).games;
    assert_all_ended(&games, Termination::NoAnswer, "no bestmove within 300 ms");
}

#[test]
fn silent_engine_loses_on_time_under_a_clock() {
    let engines = [double("hung_engine.py"), RANDOM];
    let clock = Limit::Clock {
        base_ms: 100,
        inc_ms: 10,
    };
    let report = run(&config(engines, 2, clock));
    assert_eq!(report.wdl.losses, 2);
    assert_all_ended(&report.games, Termination::TimeForfeit, "lost on time");
    assert_eq!(double("hung_engine.py").name(), "hung_engine.py");
}

#[test]
fn mystic_builtins_and_sprt_stop() {
    let engines = [GREEDY, RANDOM];
    let mut cfg = config(engines, 200, Limit::Nodes(1));
    cfg.random_plies = 2;
    cfg.sprt =
        Some(Sprt::parse("elo0=-400 elo1=-300 alpha=0.05 beta=0.05 model=logistic").unwrap());
    let report = run_match::<Mystic>(&cfg, &mut |_, _| {}, None).unwrap();
    // Greedy is far above -300 Elo: H1 is accepted long before 200 games.
    let sprt = report.sprt.unwrap();
    assert!(sprt.llr >= sprt.upper, "{sprt:?}");
    assert!(report.stopped.unwrap().starts_with("SPRT") && !report.aborted);
    assert!(report.games.len() < 200);
    for g in &report.games {
        replay::<Mystic>(&g.record);
    }
}

#[test]
fn real_engine_against_random() {
    let bin = env!("CARGO_BIN_EXE_menagerie");
    let engines = [
        EngineSpec::parse(&format!("{bin} option.Hash=4")).unwrap(),
        RANDOM,
    ];
    let report = run(&config(engines, 2, Limit::Nodes(500)));
    check_legal(&report);
    for g in &report.games {
        assert!(
            matches!(
                g.record.termination,
                Termination::Normal | Termination::Adjudication
            ),
            "{:?}",
            g.record
        );
    }
    // And through the CLI, with the summary on stdout.
    // The engine brings its own limit (`nodes=500`); no match-wide limit is needed.
    let own = format!("{bin} nodes=500");
    let out = run_binary(
        &[
            "match",
            "--engine",
            &own,
            "--engine",
            "builtin:random",
            "--games",
            "2",
            "--sprt",
            "elo0=0 elo1=10 alpha=0.05 beta=0.05",
        ],
        b"",
    );
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in [
        "Games: 2",
        "Draw ratio:",
        "nElo:",
        "LOS:",
        "Pentanomial [0, 0.5, 1, 1.5, 2]:",
    ] {
        assert!(stdout.contains(line), "{line}: {stdout}");
    }
    assert!(
        stdout.contains("LLR:") && stdout.contains("2.944"),
        "{stdout}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 2);
}

#[test]
fn bad_input_is_a_clear_error() {
    let base = ["match", "--engine", "builtin:random", "--games", "2"];
    for (extra, needle) in [
        (
            vec!["--engine", "builtin:random", "--tc", "x+1"],
            "time control",
        ),
        (
            vec!["--engine", "builtin:dumb", "--nodes", "5"],
            "unknown builtin",
        ),
        (vec!["--nodes", "5"], "exactly twice"),
        (
            vec!["--engine", "menagerie depth=0", "--nodes", "5"],
            "bad engine limit",
        ),
        (
            vec!["--engine", "menagerie"],
            "unless each engine has its own limit",
        ),
        (
            vec![
                "--engine",
                "builtin:random",
                "--nodes",
                "5",
                "--sprt",
                "elo0=1",
            ],
            "missing",
        ),
        (
            vec![
                "--engine",
                "builtin:random",
                "--nodes",
                "5",
                "--draw",
                "movecount=2",
            ],
            "--draw needs score=",
        ),
        (
            vec![
                "--engine",
                "builtin:random",
                "--nodes",
                "5",
                "--resign",
                "score=x",
            ],
            "bad --resign setting 'score=x'",
        ),
        (
            vec![
                "--engine",
                "builtin:random",
                "--nodes",
                "5",
                "--shard",
                "3/2",
            ],
            "bad shard '3/2'",
        ),
        (
            vec!["--engine", "builtin:random", "--each", "name=x"],
            "bad --each word 'name=x'",
        ),
        (
            vec![
                "--engine",
                "builtin:random",
                "--nodes",
                "5",
                "--openings",
                "/nonexistent.epd",
            ],
            "--openings /nonexistent.epd:",
        ),
    ] {
        let out = run_binary(&[&base[..], &extra].concat(), b"");
        assert!(!out.status.success(), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{extra:?}: {err}");
    }
}

/// Runs `menagerie match` with `engine` against the random player in `variant` and returns
/// its stderr, checking it failed before any game.
fn failed_start(engine: &str, variant: &str) -> String {
    let out = run_binary(
        &[
            "match",
            "--engine",
            engine,
            "--engine",
            "builtin:random",
            "--games",
            "2",
            "--nodes",
            "10",
            "--variant",
            variant,
        ],
        b"",
    );
    assert!(!out.status.success(), "{engine} in {variant}");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("game 1"), "{err}");
    err
}

#[test]
fn start_up_checks_stop_the_match() {
    // An engine that cannot start.
    let engines = [EngineSpec::parse("/nonexistent/engine").unwrap(), RANDOM];
    let err =
        run_match::<Chess>(&config(engines, 2, Limit::Nodes(1)), &mut |_, _| {}, None).unwrap_err();
    assert!(
        matches!(
            err,
            MatchError::Start {
                number: 1,
                error: StartError::Fault(_),
                ..
            }
        ),
        "{err}"
    );
    let err = failed_start("/nonexistent/engine", "chess");
    assert!(
        err.contains("error: engine 1 (engine): could not start engine: /nonexistent/engine"),
        "{err}"
    );
    // An engine without the variant: one that has no UCI_Variant option plays chess only ...
    let crash = format!(
        "python3 {}/tests/doubles/crash_engine.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let err = failed_start(&crash, "mystic");
    assert!(
        err.contains("does not play variant 'mystic': it has no UCI_Variant option"),
        "{err}"
    );
    // ... and one whose combo lacks it.
    let chess_only = format!(
        "python3 {}/tests/doubles/chess_only_engine.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let err = failed_start(&chess_only, "muster");
    assert!(
        err.contains("does not play variant 'muster': its UCI_Variant offers chess"),
        "{err}"
    );
    // An option the engine does not have (names compare case-insensitively, as in UCI).
    let err = failed_start(&format!("{chess_only} option.hash=8 option.Hsh=4"), "chess");
    assert!(
        err.contains("it has no option 'Hsh' (its options: UCI_Variant, Hash)"),
        "{err}"
    );
    let bin = env!("CARGO_BIN_EXE_menagerie");
    let err = failed_start(&format!("{bin} option.Threads=1 option.Hashh=4"), "mitosis");
    assert!(
        err.contains("engine 1 (menagerie): it has no option 'Hashh'"),
        "{err}"
    );
    // Given through --each, it stops the match just as well.
    let out = run_binary(
        &[
            "match",
            "--engine",
            bin,
            "--engine",
            bin,
            "--games",
            "2",
            "--each",
            "option.Bogus=1 nodes=10",
        ],
        b"",
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("engine 1 (menagerie-1): it has no option 'Bogus'"),
        "{err}"
    );
}

#[test]
fn engine_names_are_not_passed_to_the_engine() {
    let bin = env!("CARGO_BIN_EXE_menagerie");
    let dir = std::env::temp_dir().join(format!("menagerie-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("names.pgn");
    let (a, b) = (format!("{bin} name=alpha"), format!("{bin} name=beta"));
    let out = run_binary(
        &[
            "match",
            "--engine",
            &a,
            "--engine",
            &b,
            "--games",
            "2",
            "--each",
            "nodes=300 option.Hash=4",
            "--variant",
            "mystic",
            "--max-turns",
            "20",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("Match: alpha vs beta\n"), "{stdout}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("[White \"alpha\"]\n[Black \"beta\"]"),
        "{text}"
    );
    assert!(
        text.contains("[White \"beta\"]\n[Black \"alpha\"]"),
        "{text}"
    );
    // Self-play without names: the two sides are told apart.
    let engines = [
        EngineSpec::parse(bin).unwrap(),
        EngineSpec::parse(bin).unwrap(),
    ];
    assert_eq!(player_names(&engines), ["menagerie-1", "menagerie-2"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Live children of process `pid` (from `/proc/<child>/stat`: the state and parent fields
/// follow the `)` closing the command name; zombies count as dead).
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

#[cfg(target_os = "linux")]
fn is_alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, r)| r.trim_start().starts_with('Z'))
        })
        .is_some_and(|zombie| !zombie)
}

/// The runner's engines never outlive it: not after Ctrl-C (SIGINT, which prints a note and
/// exits with 130), nor after `kill -9` of the runner alone (PR_SET_PDEATHSIG).
#[cfg(target_os = "linux")]
#[test]
fn engines_die_with_the_runner() {
    use std::time::{Duration, Instant};
    let bin = env!("CARGO_BIN_EXE_menagerie");
    let hung = format!(
        "python3 {}/tests/doubles/hung_engine.py",
        env!("CARGO_MANIFEST_DIR")
    );
    for signal in [libc::SIGINT, libc::SIGKILL] {
        let mut runner = Command::new(bin)
            .args(["match", "--engine", &hung, "--engine", &hung])
            .args(["--games", "2", "--movetime", "600000"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pid = runner.id();
        let started = Instant::now();
        let engines = loop {
            let kids = live_children(pid);
            if kids.len() == 2 {
                break kids;
            }
            assert!(started.elapsed() < Duration::from_secs(20), "{kids:?}");
            std::thread::sleep(Duration::from_millis(20));
        };
        // Let the handshake finish, so both engines sit in a game.
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: sends a signal to our own child process.
        assert_eq!(unsafe { libc::kill(pid as i32, signal) }, 0);
        let status = runner.wait().unwrap();
        if signal == libc::SIGINT {
            assert_eq!(status.code(), Some(130), "{status:?}");
            let err = std::io::read_to_string(runner.stderr.take().unwrap()).unwrap();
            assert!(err.contains("interrupted"), "{err}");
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while engines.iter().any(|&e| is_alive(e)) {
            assert!(
                Instant::now() < deadline,
                "engines {engines:?} outlived the runner"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn deeper_search_wins_with_per_engine_limits() {
    // Self-play with each engine at its own depth: depth 6 against depth 2 (chess, 8 games
    // from random openings). The deeper side must come out ahead.
    let bin = env!("CARGO_BIN_EXE_menagerie");
    let engines = [
        EngineSpec::parse(&format!("{bin} option.Hash=8")).unwrap(),
        EngineSpec::parse(&format!("{bin} option.Hash=8")).unwrap(),
    ];
    let mut cfg = config(engines, 8, Limit::Movetime(1));
    cfg.limits = [Limit::Depth(6), Limit::Depth(2)];
    cfg.random_plies = 6;
    cfg.seed = 11;
    cfg.settings.max_turns = 200;
    let mut statuses = Vec::new();
    let report = run_match::<Chess>(
        &cfg,
        &mut |_, status| statuses.push(status.to_string()),
        None,
    )
    .unwrap();
    check_legal(&report);
    assert!(report.wdl.score().unwrap() > 0.5, "{:?}", report.wdl);
    assert_eq!(statuses.len(), 8);
    let last = statuses.last().unwrap();
    let w = &report.wdl;
    assert!(
        last.starts_with(&format!(
            "Games 8/8  W-D-L {}-{}-{}",
            w.wins, w.draws, w.losses
        )),
        "{last}"
    );
}
