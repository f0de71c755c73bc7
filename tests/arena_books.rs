//! Integration tests of the match runner's openings, PGN, replay, shards and merging
//! (`menagerie match --openings/--pgn/--shard/--json`, `match merge`, `replay --pgn`, `book`):
//! built-in players (seeded: deterministic) and the real engine at small node budgets. No
//! network, no external engine, no wall-clock assertion.

use crate::common;

use std::path::PathBuf;

use common::run_binary;
use menagerie::tools::arena::openings::{Openings, OpeningsFormat, OpeningsOrder};
use menagerie::tools::arena::referee::GameSettings;
use menagerie::tools::arena::results::{merge, MatchResult, Settings};
use menagerie::tools::arena::spec::{player_names, Builtin, EngineSpec, Limit, Shard, Sprt};
use menagerie::tools::arena::{run_match, MatchConfig, MatchReport};
use menagerie::tools::replay::check_pgn_text;
use menagerie::variants::turn::{self, Extent, Reading};
use menagerie::variants::{Game, Notation, Rules, Variant};

const GREEDY: EngineSpec = EngineSpec::Builtin(Builtin::Greedy);
const RANDOM: EngineSpec = EngineSpec::Builtin(Builtin::Random);

fn config(games: usize) -> MatchConfig {
    let engines = [GREEDY, RANDOM];
    MatchConfig {
        names: player_names(&engines),
        engines,
        games,
        limits: [Limit::Nodes(1); 2],
        settings: GameSettings {
            margin_ms: 100,
            fixed_timeout_ms: 20_000,
            max_turns: 120,
            draw: None,
            resign: None,
        },
        concurrency: 2,
        random_plies: 2,
        openings: None,
        seed: 3,
        sprt: None,
        handshake_timeout_ms: 20_000,
        recover: false,
        shard: None,
    }
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menagerie-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the match, returning the report and its PGN text.
fn run_pgn<G: Game>(cfg: &MatchConfig) -> (MatchReport, String) {
    let mut pgn: Vec<u8> = Vec::new();
    let report = run_match::<G>(cfg, &mut |_, _| {}, Some(&mut pgn)).unwrap();
    (report, String::from_utf8(pgn).unwrap())
}

/// Replays a recorded game's turns from its start; panics on an illegal one.
fn replay_record<G: Game>(fen: &str, moves: &[String]) -> G {
    let mut pos = G::from_fen(fen).unwrap();
    for m in moves {
        turn::play(&mut pos, m, Reading::Token, Extent::Whole)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    pos
}

fn book<G: Game>(file: &str, format: OpeningsFormat, plies: Option<usize>) -> Openings {
    Openings::load::<G>(&data(file), Some(format), OpeningsOrder::Sequential, plies).unwrap()
}

/// Every committed book is read by every variant's rules, and is the size the README says.
#[test]
fn committed_books_load() {
    for v in Variant::ALL {
        let file = format!("{}.epd", v.name());
        let n = menagerie::with_variant!(*v, G => book::<G>(&file, OpeningsFormat::Epd, None).list.len());
        assert_eq!(n, 60, "{file}");
    }
}

#[test]
fn epd_openings_with_variant_fens_are_played_in_order_with_colours_reversed() {
    use menagerie::variants::mitosis::Mitosis;
    let mut cfg = config(7);
    cfg.openings = Some(book::<Mitosis>("mitosis.epd", OpeningsFormat::Epd, None));
    let fens: Vec<String> = cfg
        .openings
        .as_ref()
        .unwrap()
        .list
        .iter()
        .map(|o| o.fen.clone())
        .collect();
    let (report, pgn) = run_pgn::<Mitosis>(&cfg);
    assert_eq!(report.games.len(), 7);
    for g in &report.games {
        // Game 2k and 2k+1 play opening k, the first engine White in the first of them.
        assert_eq!(g.record.start_fen, fens[g.index / 2], "game {}", g.index);
        assert_eq!(g.first_is_white, g.index % 2 == 0);
        assert_eq!(g.record.book_turns, 0);
    }
    assert_eq!(pgn.matches(&format!("[FEN \"{}\"]", fens[3])).count(), 1);
    assert!(pgn.contains("[White \"builtin:random\"]\n[Black \"builtin:greedy\"]"));
    // Random order: a shuffle drawn from the seed, the same for the same seed.
    let mut cfg = config(8);
    let mut shuffled = book::<Mitosis>("mitosis.epd", OpeningsFormat::Epd, None);
    shuffled.order = OpeningsOrder::Random;
    let schedule = shuffled.schedule(cfg.seed);
    cfg.openings = Some(shuffled);
    let (report, _) = run_pgn::<Mitosis>(&cfg);
    for g in &report.games {
        assert_eq!(g.record.start_fen, fens[schedule[g.index / 2]]);
    }
    assert_ne!(schedule[..4], [0, 1, 2, 3]);
}

#[test]
fn pgn_openings_give_book_turns_then_the_players() {
    use menagerie::variants::chess::Chess;
    let mut cfg = config(12);
    let openings = book::<Chess>("chess_openings.pgn", OpeningsFormat::Pgn, Some(6));
    assert_eq!(openings.list.len(), 6);
    assert_eq!(
        openings.list[0].moves,
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
    );
    assert_eq!(
        openings.list[5].moves,
        ["e2e4", "c7c6", "d2d4", "d7d5", "b1c3", "d5e4"]
    );
    cfg.openings = Some(openings.clone());
    let (report, pgn) = run_pgn::<Chess>(&cfg);
    for g in &report.games {
        let o = &openings.list[g.index / 2];
        assert_eq!(g.record.start_fen, o.fen);
        assert_eq!(g.record.book_turns, o.moves.len());
        assert_eq!(g.record.moves[..o.moves.len()], o.moves[..]);
        replay_record::<Chess>(&g.record.start_fen, &g.record.moves);
    }
    // The French opening starts from its FEN tag with Black to move.
    let french = &report.games[8].record;
    assert!(french.start_fen.contains(" b KQkq"), "{}", french.start_fen);
    assert!(pgn.contains("\n2... d5 {book} 3. Nc3 {book}"), "{pgn}");
    assert_eq!(check_pgn_text(&pgn, None).unwrap().lines().count(), 13);
}

/// The runner's own PGN of a variant, read back as an openings book, gives the same starts
/// and the same first turns (protocol turn tokens in the movetext).
#[test]
fn the_runners_pgn_is_a_book() {
    use menagerie::variants::mulligan_stew::MulliganStew;
    // One game at a time: the PGN is in game order (it is in the order games finish).
    let mut cfg = config(4);
    cfg.concurrency = 1;
    let (report, pgn) = run_pgn::<MulliganStew>(&cfg);
    let dir = scratch("pgn-book");
    let file = dir.join("stew.pgn");
    std::fs::write(&file, &pgn).unwrap();
    let openings =
        Openings::load::<MulliganStew>(&file, None, OpeningsOrder::Sequential, Some(3)).unwrap();
    assert_eq!(openings.format, OpeningsFormat::Pgn);
    assert_eq!(openings.list.len(), 4);
    for (o, g) in openings.list.iter().zip(&report.games) {
        assert_eq!(o.fen, g.record.start_fen);
        assert_eq!(o.moves[..], g.record.moves[..3]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pgn_has_the_tags_and_move_comments() {
    use menagerie::variants::muster::Muster;
    let bin = env!("CARGO_BIN_EXE_menagerie");
    let mut cfg = config(2);
    cfg.engines = [
        EngineSpec::parse(&format!("{bin} option.Hash=4 name=eng")).unwrap(),
        RANDOM,
    ];
    cfg.names = player_names(&cfg.engines);
    cfg.limits = [Limit::Nodes(400), Limit::Movetime(50)];
    cfg.settings.max_turns = 16;
    cfg.random_plies = 0;
    let (report, pgn) = run_pgn::<Muster>(&cfg);
    assert_eq!(report.games.len(), 2);
    for tag in [
        "[Variant \"muster\"]",
        "[SetUp \"1\"]",
        &format!("[FEN \"{}\"]", Muster::startpos().fen()),
        "[TimeControl \"?\"]",
        "[WhiteTimeControl \"-\"]\n[BlackTimeControl \"1/0.05\"]",
        "[WhiteTimeControl \"1/0.05\"]\n[BlackTimeControl \"-\"]",
        "[Termination \"adjudication\"]",
        "[PlyCount \"16\"]",
    ] {
        assert!(pgn.contains(tag), "{tag}: {pgn}");
    }
    let date = pgn.lines().find(|l| l.starts_with("[Date ")).unwrap();
    assert_eq!(date.len(), "[Date \"2024.01.31\"]".len(), "{date}");
    // The engine's turns carry {score/depth time}; the random player's only the time.
    let words: Vec<&str> = pgn.split_whitespace().collect();
    let engine_comment = words.windows(2).any(|w| {
        (w[0].starts_with("{+") || w[0].starts_with("{-"))
            && w[0].contains('/')
            && w[1].ends_with("s}")
    });
    assert!(engine_comment, "{pgn}");
    assert!(
        words
            .iter()
            .any(|w| w.starts_with("{0.0") && w.ends_with("s}")),
        "{pgn}"
    );
    check_pgn_text(&pgn, None).unwrap();
}

/// The runner's PGNs of every variant, in one file, replay to their recorded results through
/// `menagerie replay --pgn` (the Variant tag of each game tells its rules); a game whose
/// recorded result is changed is caught.
#[test]
fn replay_checks_the_runners_pgn_of_every_variant() {
    let mut all = String::new();
    for v in Variant::ALL {
        let mut cfg = config(2);
        let file = format!("{}.epd", v.name());
        let pgn = menagerie::with_variant!(*v, G => {
            cfg.openings = Some(book::<G>(&file, OpeningsFormat::Epd, None));
            run_pgn::<G>(&cfg).1
        });
        let checked = check_pgn_text(&pgn, None).unwrap();
        assert!(
            checked.ends_with("2 games replay to their recorded results\n"),
            "{checked}"
        );
        all.push_str(&pgn);
    }
    let dir = scratch("replay");
    let file = dir.join("all.pgn");
    std::fs::write(&file, &all).unwrap();
    let out = run_binary(&["replay", "--pgn", file.to_str().unwrap()], b"");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("12 games replay to their recorded results"),
        "{stdout}"
    );
    for v in Variant::ALL {
        assert!(stdout.contains(&format!(", {}): ", v.name())), "{stdout}");
    }
    // Turn a finished game's result around: the check fails and names the game.
    let first_result = all.find("[Result \"").unwrap() + "[Result \"".len();
    let mut bad = all.clone();
    let end = first_result + bad[first_result..].find('"').unwrap();
    let old = bad[first_result..end].to_string();
    let new = if old == "1-0" { "0-1" } else { "1-0" };
    bad.replace_range(first_result..end, new);
    std::fs::write(&file, &bad).unwrap();
    let out = run_binary(&["replay", "--pgn", file.to_str().unwrap()], b"");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 of 12 games do not replay") && err.contains("game 1: FAILED"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Shards of a match, run one by one, are exactly the unsharded match pair by pair, and the
/// merge of their results is the unsharded result.
#[test]
fn shards_union_and_merge_equal_the_whole_match() {
    use menagerie::variants::mystic::Mystic;
    let mut cfg = config(13);
    cfg.openings = Some(book::<Mystic>("mystic.epd", OpeningsFormat::Epd, None));
    cfg.sprt = Some(Sprt::parse("elo0=0 elo1=50 alpha=0.05 beta=0.05").unwrap());
    let settings = Settings::new(&cfg, "mystic");
    let whole = run_pgn::<Mystic>(&cfg).0;
    assert_eq!(whole.games.len(), 13);
    let mut games = Vec::new();
    let mut results = Vec::new();
    for k in 1..=3 {
        let mut shard = cfg.clone();
        shard.shard = Some(Shard { index: k, count: 3 });
        let report = run_pgn::<Mystic>(&shard).0;
        assert!(report.games.iter().all(|g| (g.index / 2) % 3 + 1 == k));
        // A shard records the SPRT but does not stop on it.
        assert!(report.stopped.is_none());
        results.push((
            format!("s{k}.json"),
            MatchResult::new(settings.clone(), shard.shard, &report),
        ));
        games.extend(report.games);
    }
    games.sort_by_key(|g| g.index);
    assert_eq!(games.len(), whole.games.len());
    for (a, b) in games.iter().zip(&whole.games) {
        assert_eq!((a.index, a.first_is_white), (b.index, b.first_is_white));
        assert_eq!(a.record.start_fen, b.record.start_fen);
        assert_eq!(a.record.moves, b.record.moves, "game {}", a.index);
        assert_eq!(a.record.result, b.record.result);
    }
    // Through JSON text and back, in any order.
    let reread: Vec<(String, MatchResult)> = results
        .iter()
        .rev()
        .map(|(name, r)| {
            (
                name.clone(),
                MatchResult::from_json(&r.to_json(), name).unwrap(),
            )
        })
        .collect();
    let merged = merge(&reread).unwrap();
    let unsharded = MatchResult::new(settings.clone(), None, &whole);
    assert_eq!(merged.pairs, unsharded.pairs);
    assert_eq!(merged.wdl, unsharded.wdl);
    assert_eq!(merged.pentanomial, unsharded.pentanomial);
    assert_eq!(merged.stats, unsharded.stats);
    assert_eq!(merged.sprt, unsharded.sprt);
    assert_eq!(merged.shards, [1, 2, 3]);
    assert_eq!(
        merged.report().summary(["a", "b"]),
        whole.summary(["a", "b"])
    );
    // The course (`match curve`): pair by pair as the unsharded match, ending at its figures.
    let curve = merged.curve();
    assert_eq!(curve, unsharded.curve());
    let report = whole.clone();
    assert_eq!(curve.len() as u64, report.pairs.pairs());
    let last = curve.last().unwrap();
    assert_eq!(last.games, 2 * report.pairs.pairs());
    assert_eq!(last.elo, report.pairs.elo_interval());
    assert_eq!(last.llr, report.sprt.map(|s| s.llr));
    assert!(curve.windows(2).all(|w| w[1].pairs == w[0].pairs + 1));
    assert_eq!(
        last.csv().split(',').count(),
        menagerie::tools::arena::results::CurvePoint::CSV_HEADER
            .split(',')
            .count()
    );
    // A shard twice, or a shard of another match, is refused.
    let twice = [reread[0].clone(), reread[0].clone()];
    assert!(merge(&twice)
        .unwrap_err()
        .to_string()
        .contains("is also in"));
    let mut other = reread[1].clone();
    other.1.settings.seed += 1;
    let err = merge(&[reread[0].clone(), other]).unwrap_err();
    assert!(err.to_string().contains("not the same match"), "{err}");
}

/// The same through the command line: `match --shard K/N --json`, then `match merge`.
#[test]
fn cli_shards_and_merge() {
    let dir = scratch("cli-shards");
    let epd = data("mulliganstew.epd");
    let base = [
        "match",
        "--engine",
        "builtin:greedy",
        "--engine",
        "builtin:random",
        "--variant",
        "mulliganstew",
        "--games",
        "10",
        "--nodes",
        "1",
        "--openings",
        epd.to_str().unwrap(),
        "--max-turns",
        "80",
        "--seed",
        "9",
        "--sprt",
        "elo0=0 elo1=20 alpha=0.05 beta=0.05",
    ];
    let json = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let whole = run_binary(&[&base[..], &["--json", &json("all.json")]].concat(), b"");
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let mut files = Vec::new();
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let file = json(&format!("s{k}.json"));
        let out = run_binary(
            &[&base[..], &["--shard", &shard, "--json", &file]].concat(),
            b"",
        );
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("Shard: {shard} (")));
        files.push(file);
    }
    let merged_file = json("merged.json");
    let out = run_binary(
        &[
            "match",
            "merge",
            &files[0],
            &files[1],
            "--json",
            &merged_file,
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged_summary = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(merged_summary.contains("Merged: 2 files, shards 1, 2 of 2 (10 of 10 games)"));
    // Every statistic line of the unsharded summary is in the merged one.
    let whole_summary = String::from_utf8_lossy(&whole.stdout).into_owned();
    for line in whole_summary.lines() {
        assert!(merged_summary.contains(line), "{line}\n{merged_summary}");
    }
    let read = |f: &str| MatchResult::from_json(&std::fs::read_to_string(f).unwrap(), f).unwrap();
    let (all, merged) = (read(&json("all.json")), read(&merged_file));
    assert_eq!(
        (all.pairs, all.stats, all.sprt),
        (merged.pairs, merged.stats, merged.sprt)
    );
    let text = std::fs::read_to_string(&merged_file).unwrap();
    for key in [
        "\"pentanomial\"",
        "\"settings\"",
        "\"pairs\"",
        "\"wdl\"",
        "\"verdict\"",
    ] {
        assert!(text.contains(key), "{key}");
    }
    // A file that is no result is a clear error.
    std::fs::write(dir.join("bad.json"), "{\"format\": 1}").unwrap();
    let out = run_binary(&["match", "merge", &json("bad.json")], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.json: not a match result"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn book_command_writes_a_balanced_book() {
    let dir = scratch("book");
    let out_file = dir.join("chess.epd");
    let out = run_binary(
        &[
            "book",
            "--variant",
            "chess",
            "--count",
            "5",
            "--plies",
            "6",
            "--seed",
            "2",
            "--nodes",
            "500",
            "--out",
            out_file.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    use menagerie::variants::chess::Chess;
    let book = Openings::load::<Chess>(&out_file, None, OpeningsOrder::Sequential, None).unwrap();
    assert_eq!(book.list.len(), 5);
    // Asking the impossible (30 openings after 1 turn: there are 20 first turns) is an error.
    let out = run_binary(
        &[
            "book",
            "--variant",
            "muster",
            "--count",
            "30",
            "--plies",
            "1",
            "--seed",
            "2",
            "--nodes",
            "50",
            "--window",
            "0",
            "--out",
            out_file.to_str().unwrap(),
        ],
        b"",
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("openings found within +-0 cp"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// At fixed nodes or depth a book of n openings gives at most 2n different games (the engines
/// are deterministic), and a fixed start without a book or random turns gives 2: the CLI
/// warns when a match asks for more; time limits, enough openings, random turns and
/// variants with random setups do not warn.
#[test]
fn a_match_that_would_replay_its_games_is_warned_about() {
    use menagerie::tools::arena::repeated_games_warning;
    use menagerie::variants::chess::Chess;
    use menagerie::variants::mutatis_mutandis::MutatisMutandis;
    let book = |n: usize| {
        let text: String = (0..n)
            .map(|_| "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n")
            .collect();
        Openings::parse::<Chess>(
            &text,
            "t.epd",
            OpeningsFormat::Epd,
            OpeningsOrder::Sequential,
            None,
        )
        .unwrap()
    };
    let mut cfg = config(21);
    cfg.openings = Some(book(10));
    let w = repeated_games_warning::<Chess>(&cfg).expect("21 games, 20 distinct");
    assert!(w.contains("21 games") && w.contains("only 20"), "{w}");
    cfg.games = 20;
    assert_eq!(repeated_games_warning::<Chess>(&cfg), None);
    cfg.games = 400;
    cfg.limits = [Limit::Depth(3), Limit::Nodes(100)];
    assert!(repeated_games_warning::<Chess>(&cfg).is_some());
    cfg.limits = [Limit::Nodes(100), Limit::Movetime(10)];
    assert_eq!(repeated_games_warning::<Chess>(&cfg), None);
    cfg.limits = [Limit::Nodes(100); 2];
    cfg.openings = None;
    cfg.random_plies = 4;
    assert_eq!(repeated_games_warning::<Chess>(&cfg), None);
    cfg.random_plies = 0;
    assert!(repeated_games_warning::<Chess>(&cfg)
        .unwrap()
        .contains("only 2 "));
    assert_eq!(repeated_games_warning::<MutatisMutandis>(&cfg), None);
}

/// A game the referee ended on a claimable draw (threefold repetition, FIDE 9.2) checks as a
/// normal ending; one position earlier it is not over, and a decisive result is refused.
#[test]
fn a_claimed_repetition_is_a_normal_ending() {
    let game = |moves: &str, result: &str| {
        format!(
            "[Event \"t\"]\n[Variant \"chess\"]\n[Result \"{result}\"]\n[Termination \"normal\"]\n\n{moves} {result}\n"
        )
    };
    let threefold = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8";
    let checked = check_pgn_text(&game(threefold, "1/2-1/2"), None).unwrap();
    assert!(checked.contains("threefold repetition"), "{checked}");
    assert!(check_pgn_text(&game(threefold, "1-0"), None).is_err());
    let twofold = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1";
    let err = check_pgn_text(&game(twofold, "1/2-1/2"), None).unwrap_err();
    assert!(err.contains("not over"), "{err}");
}
