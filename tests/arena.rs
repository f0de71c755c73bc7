//! Integration tests of the match runner (`menagerie match`, src/arena): statistics, built-in
//! players, fault handling with the test doubles of tests/doubles/, and the real engine binary.
//! No network, no external engine; a few seconds in all.

use std::process::Command;

use menagerie::arena::referee::{GameSettings, Termination};
use menagerie::arena::spec::{Builtin, EngineSpec, Limit, Sprt};
use menagerie::arena::stats::{elo_from_score, sprt_bounds, Pentanomial};
use menagerie::arena::{run_match, MatchConfig, MatchReport};
use menagerie::variants::chess::Chess;
use menagerie::variants::mystic::Mystic;
use menagerie::variants::{Game, GameResult};

fn config(engines: [EngineSpec; 2], games: usize, limit: Limit) -> MatchConfig {
    MatchConfig {
        engines,
        games,
        settings: GameSettings {
            limit,
            margin_ms: 300,
            fixed_timeout_ms: 5_000,
            max_turns: 300,
        },
        concurrency: 2,
        random_plies: 0,
        seed: 7,
        sprt: None,
        handshake_timeout_ms: 5_000,
    }
}

fn double(name: &str) -> EngineSpec {
    let path = format!("{}/tests/doubles/{name}", env!("CARGO_MANIFEST_DIR"));
    EngineSpec::parse(&format!("python3 {path}")).unwrap()
}

fn run(cfg: &MatchConfig) -> MatchReport {
    let mut pgn: Vec<u8> = Vec::new();
    let report = run_match::<Chess>(cfg, &mut |_| {}, Some(&mut pgn)).unwrap();
    let text = String::from_utf8(pgn).unwrap();
    assert_eq!(text.matches("[Variant \"chess\"]").count(), cfg.games);
    report
}

/// Replays every game of the report and checks each turn was legal and the result stands.
fn check_legal(report: &MatchReport) {
    for g in &report.games {
        let mut pos = Chess::from_fen(&g.record.start_fen).unwrap();
        for token in &g.record.moves {
            let m = pos.parse_move(token).expect("recorded turns are legal");
            pos.make(m);
        }
        if g.record.termination == Termination::Normal {
            assert_eq!(pos.outcome().unwrap().result, g.record.result);
        }
    }
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
    let engines = [
        EngineSpec::Builtin(Builtin::Greedy),
        EngineSpec::Builtin(Builtin::Random),
    ];
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
    let engines = [
        EngineSpec::Builtin(Builtin::Random),
        EngineSpec::Builtin(Builtin::Greedy),
    ];
    let mut cfg = config(engines, 4, Limit::Nodes(1));
    cfg.random_plies = 2;
    let a: Vec<Vec<String>> = run(&cfg)
        .games
        .into_iter()
        .map(|g| g.record.moves)
        .collect();
    let b: Vec<Vec<String>> = run(&cfg)
        .games
        .into_iter()
        .map(|g| g.record.moves)
        .collect();
    assert_eq!(a, b);
}

fn fault_match(name: &str) -> MatchReport {
    let engines = [double(name), EngineSpec::Builtin(Builtin::Random)];
    let report = run(&config(engines, 2, Limit::Movetime(50)));
    assert_eq!(report.games.len(), 2);
    assert_eq!(report.wdl.losses, 2, "{:?}", report.games);
    report
}

#[test]
fn crashing_engine_loses() {
    for g in fault_match("crash_engine.py").games {
        assert_eq!(g.record.termination, Termination::Crash, "{:?}", g.record);
        assert!(g.record.reason.contains("crashed"), "{}", g.record.reason);
        // It played its two turns before dying.
        assert!(g.record.moves.len() >= 4, "{:?}", g.record.moves);
    }
}

#[test]
fn illegal_move_loses() {
    for g in fault_match("illegal_engine.py").games {
        assert_eq!(
            g.record.termination,
            Termination::IllegalMove,
            "{:?}",
            g.record
        );
        assert!(
            g.record.reason.contains("illegal move e2e5"),
            "{}",
            g.record.reason
        );
    }
}

#[test]
fn silent_engine_loses() {
    let started = std::time::Instant::now();
    for g in fault_match("hung_engine.py").games {
        assert_eq!(
            g.record.termination,
            Termination::NoAnswer,
            "{:?}",
            g.record
        );
        assert!(
            g.record.reason.contains("no bestmove within 350 ms"),
            "{}",
            g.record.reason
        );
    }
    assert!(started.elapsed().as_secs() < 5);
}

#[test]
fn silent_engine_loses_on_time_under_a_clock() {
    let engines = [
        double("hung_engine.py"),
        EngineSpec::Builtin(Builtin::Random),
    ];
    let clock = Limit::Clock {
        base_ms: 100,
        inc_ms: 10,
    };
    let report = run(&config(engines, 2, clock));
    assert_eq!(report.wdl.losses, 2);
    for g in &report.games {
        assert_eq!(
            g.record.termination,
            Termination::TimeForfeit,
            "{:?}",
            g.record
        );
        assert!(
            g.record.reason.contains("lost on time"),
            "{}",
            g.record.reason
        );
    }
    assert_eq!(double("hung_engine.py").name(), "hung_engine.py");
}

#[test]
fn mystic_builtins_and_sprt_stop() {
    let engines = [
        EngineSpec::Builtin(Builtin::Greedy),
        EngineSpec::Builtin(Builtin::Random),
    ];
    let mut cfg = config(engines, 200, Limit::Nodes(1));
    cfg.random_plies = 2;
    cfg.sprt = Some(Sprt::parse("elo0=-400 elo1=-300 alpha=0.05 beta=0.05").unwrap());
    let report = run_match::<Mystic>(&cfg, &mut |_| {}, None).unwrap();
    // Greedy is far above -300 Elo: H1 is accepted long before 200 games.
    let (llr, _, hi) = report.sprt.unwrap();
    assert!(llr >= hi, "{llr}");
    assert!(report.games.len() < 200);
    for g in &report.games {
        let mut pos = Mystic::from_fen(&g.record.start_fen).unwrap();
        for token in &g.record.moves {
            let m = pos.parse_move(token).expect("recorded turns are legal");
            pos.make(m);
        }
    }
}

#[test]
fn real_engine_against_random() {
    let bin = env!("CARGO_BIN_EXE_menagerie");
    let engines = [
        EngineSpec::parse(&format!("{bin} option.Hash=4")).unwrap(),
        EngineSpec::Builtin(Builtin::Random),
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
    let out = Command::new(bin)
        .args([
            "match",
            "--engine",
            bin,
            "--engine",
            "builtin:random",
            "--games",
            "2",
        ])
        .args([
            "--nodes",
            "500",
            "--sprt",
            "elo0=0 elo1=10 alpha=0.05 beta=0.05",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Games: 2"), "{stdout}");
    assert!(
        stdout.contains("LLR:") && stdout.contains("2.944"),
        "{stdout}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 2);
}

#[test]
fn bad_input_is_a_clear_error() {
    let bin = env!("CARGO_BIN_EXE_menagerie");
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
    ] {
        let out = Command::new(bin).args(base).args(&extra).output().unwrap();
        assert!(!out.status.success(), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{extra:?}: {err}");
    }
    // An engine that cannot start loses its games; the match still finishes.
    let engines = [
        EngineSpec::parse("/nonexistent/engine").unwrap(),
        EngineSpec::Builtin(Builtin::Random),
    ];
    let report = run(&config(engines, 2, Limit::Nodes(1)));
    assert_eq!(report.wdl.losses, 2);
    assert_eq!(report.games[0].record.result, GameResult::BlackWins);
}
