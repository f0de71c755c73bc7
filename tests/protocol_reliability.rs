//! Protocol reliability and UCI conformance: every
//! line answered, every `go` answered by one `bestmove`, interruptible perft, PVs in whole
//! turns, the last `info` agreeing with `bestmove`, `searchmoves`, a large `Hash` in memory
//! before `readyok`, `go` right after `stop`, escaped control bytes,
//! and the start-up banner, `help`, `Clear Hash`, `Debug Log File`, `UCI_AnalyseMode`.
//! Deterministic: searches are bounded by depth or nodes; the only clock bounds are generous
//! deadlines on reads and exits.

use crate::common;

use common::{bestmove, run_binary_ok, Engine, QUICK, SEARCH};

use menagerie::variants::turn::{self, Extent, Reading};
use menagerie::variants::{Game, Variant};

/// The PV tokens of an `info` line (empty when it has none).
fn pv_of(line: &str) -> Vec<String> {
    line.split(" pv ")
        .nth(1)
        .map(|pv| pv.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// The `info depth` lines of a search's output.
fn info_lines(out: &[String]) -> Vec<&String> {
    out.iter().filter(|l| l.starts_with("info depth")).collect()
}

/// The protocol names of every variant the build has (as `UCI_Variant` lists them).
fn variant_names() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}

/// Checks that each PV token, played in order from `fen`, is one whole turn: legal, and
/// ending with the side to move changed or the game decided (protocol.md 4).
fn assert_whole_turns<G: Game>(fen: &str, pv: &[String], line: &str) {
    let mut pos = G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for token in pv {
        let side = pos.side_to_move();
        turn::play(&mut pos, token, Reading::Token, Extent::Start)
            .unwrap_or_else(|e| panic!("{token} in {line}: {e}"));
        assert!(
            turn::is_over(&pos, side),
            "'{token}' is not a whole turn in '{line}'"
        );
    }
}

/// `stop` ends `go perft` (no total is printed for a partial count), and
/// `quit` or the end of input end the process during a long perft.
#[test]
fn go_perft_stops_on_stop_quit_and_end_of_input() {
    let mut e = Engine::start();
    e.send("go perft 9");
    e.send("stop");
    let out = e.read_until(|l| l.starts_with("info string perft stopped"), QUICK);
    assert!(
        !out.iter().any(|l| l.starts_with("Nodes searched")),
        "{out:#?}"
    );
    e.assert_ready();
    // The engine takes the next command at once.
    let out = e.go_perft(2);
    assert_eq!(out.last().unwrap(), "Nodes searched: 400");

    let mut e = Engine::start();
    e.send("go perft 9");
    e.send("quit");
    assert_eq!(e.wait_exit(QUICK), 0);

    let mut e = Engine::start_variant("mulliganstew");
    e.send("go perft 9");
    e.close_input();
    assert_eq!(e.wait_exit(QUICK), 0);
}

/// In every variant the `pv` of every `info` line is made of whole turn
/// tokens (Mulligan Stew printed `pv b1c4`, the first portion alone).
#[test]
fn pv_tokens_are_whole_turns_in_every_variant() {
    let mut e = Engine::start();
    for name in variant_names() {
        let announce = e.command(&format!("setoption name UCI_Variant value {name}"));
        let start = announce[0].split(" startpos ").nth(1).expect("startpos");
        let start = start.to_string();
        let out = e.go("go depth 4", SEARCH);
        let variant = Variant::from_name(name).unwrap();
        for line in info_lines(&out) {
            let pv = pv_of(line);
            menagerie::with_variant!(variant, G => assert_whole_turns::<G>(&start, &pv, line));
        }
    }
}

/// The last `info` line before `bestmove` shows the turn played: when a
/// search ends inside an iteration with a new best move (here at a node limit), and when the
/// PV stops inside the first turn (Mulligan Stew at depth 1).
#[test]
fn the_last_info_line_shows_the_move_played() {
    let check = |out: &[String]| {
        let best = bestmove(out);
        let infos = info_lines(out);
        let last = infos
            .last()
            .unwrap_or_else(|| panic!("no info line: {out:#?}"));
        assert_eq!(pv_of(last).first(), Some(&best), "{out:#?}");
    };
    let mut e = Engine::start();
    // Found by scanning node limits: the unfinished 9th iteration changes the best move.
    e.command(
        "position fen rnb1kbnr/1p1p1pp1/2p1p2p/3Q4/1pB1PN2/2q5/P2P1PPP/RNB1K1R1 w Qkq - 0 13",
    );
    let out = e.go("go nodes 14000", SEARCH);
    check(&out);
    for name in variant_names() {
        e.command(&format!("setoption name UCI_Variant value {name}"));
        for depth in 1..=3 {
            e.command("ucinewgame");
            check(&e.go(&format!("go depth {depth}"), SEARCH));
        }
    }
}

/// Every malformed line gets exactly one `info string error` line, and
/// lines that are fine get none (`debug on`); bad `muster` commands answer before `readyok`.
#[test]
fn every_malformed_line_gets_exactly_one_error() {
    let mut e = Engine::start();
    for line in [
        "debug maybe",
        "debug",
        "debug on off",
        "help please",
        "setoption name Clear Hash value now",
        "setoption name UCI_AnalyseMode value perhaps",
        "setoption name Debug Log File value /nonexistent-dir/menagerie.log",
        "go perft x",
        "muster propose white",
    ] {
        let out = e.command(line);
        assert_eq!(out.len(), 1, "{line}: {out:#?}");
        assert!(out[0].starts_with("info string error "), "{line}: {out:#?}");
    }
    for line in [
        "debug on",
        "debug off",
        "setoption name Clear Hash",
        "setoption name UCI_AnalyseMode value true",
    ] {
        assert_eq!(e.command(line), Vec::<String>::new(), "{line}");
    }
    let mut e = Engine::start_variant("muster");
    e.read_until(|l| l.starts_with("info string variant muster"), QUICK);
    for line in [
        "muster",
        "muster propose",
        "muster propose purple",
        "muster choose",
        "muster choose white 8/8/8/8 black 8/8/8/8",
        "muster propose white movetime abc",
    ] {
        let out = e.command(line);
        assert_eq!(out.len(), 1, "{line}: {out:#?}");
        assert!(out[0].starts_with("info string error "), "{line}: {out:#?}");
    }
}

/// A `go` with unknown words or bad values reports them in one error line
/// and still searches with the rest: exactly one `bestmove`.
#[test]
fn every_go_gets_exactly_one_bestmove() {
    let mut e = Engine::start();
    for (go, error) in [
        (
            "go depth 3 sideways",
            "info string error go: unexpected 'sideways' (ignored)",
        ),
        (
            "go frobnicate depth 2 nodes -5",
            "info string error go: unexpected 'frobnicate'; go: nodes needs a non-negative \
             integer, got '-5' (ignored)",
        ),
        (
            "go depth x nodes 3000",
            "info string error go: depth needs a non-negative integer, got 'x' (ignored)",
        ),
        (
            "go movetime depth 2",
            "info string error go: missing value after 'movetime' (ignored)",
        ),
    ] {
        e.send(go);
        let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
        assert_eq!(out[0], error, "{go}");
        assert_eq!(
            out.iter()
                .filter(|l| l.starts_with("info string error"))
                .count(),
            1,
            "{go}: {out:#?}"
        );
        assert_ne!(bestmove(&out), "(none)");
        // Exactly one bestmove: the next thing we hear is readyok.
        e.assert_ready();
    }
}

/// After a rejected `position` (a bad FEN, an illegal move, a malformed
/// line), `go` answers `bestmove 0000` until a `position` is accepted; `d` still shows the
/// position kept.
#[test]
fn go_after_a_rejected_position_answers_0000() {
    let mut e = Engine::start();
    assert!(e.command("position startpos moves e2e4").is_empty());
    let kept = e.fen();
    for bad in [
        "position startpos moves e2e4 zz",
        "position fen garbage",
        "position startpos junk",
        "position",
    ] {
        assert_eq!(e.command(bad).len(), 1, "{bad}");
        e.send("go depth 3");
        let out = e.read_until(|l| l.starts_with("bestmove"), QUICK);
        assert_eq!(
            out,
            vec!["info string error no valid position", "bestmove 0000"],
            "{bad}"
        );
        assert_eq!(
            e.command("go perft 1"),
            vec!["info string error no valid position"]
        );
        assert_eq!(e.fen(), kept);
    }
    // Other bad lines and ucinewgame do not make the position valid again.
    e.command("hello");
    e.command("ucinewgame");
    e.send("go depth 1");
    assert_eq!(
        bestmove(&e.read_until(|l| l.starts_with("bestmove"), QUICK)),
        "0000"
    );
    // An accepted position (or a variant change) does.
    assert!(e.command("position startpos moves e2e4 e7e5").is_empty());
    let out = e.go("go depth 3", SEARCH);
    assert_ne!(bestmove(&out), "0000");
    e.command("position startpos moves zz");
    e.command("setoption name UCI_Variant value chess");
    assert_ne!(bestmove(&e.go("go depth 1", SEARCH)), "0000");
}

/// Each `info` line has the nodes of its own iteration (they were printed in
/// batches with the same figures). One thread, fixed depth: the counts are exact.
#[test]
fn info_nodes_grow_line_by_line() {
    let mut e = Engine::start();
    let out = e.go("go depth 8", SEARCH);
    let nodes: Vec<u64> = info_lines(&out)
        .iter()
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|w| *w == "nodes").expect("nodes");
            words[i + 1].parse().expect("a count")
        })
        .collect();
    assert!(nodes.len() >= 8, "{out:#?}");
    assert!(nodes.windows(2).all(|w| w[0] < w[1]), "{nodes:?}");
}

/// `searchmoves` restricts the root turns, in every variant, given as
/// whole turn tokens or (in multi-portion variants) as their first portion.
#[test]
fn searchmoves_restricts_the_turns_in_every_variant() {
    let mut e = Engine::start();
    let out = e.go("go depth 5 searchmoves a2a3 h2h3", SEARCH);
    assert!(
        ["a2a3", "h2h3"].contains(&bestmove(&out).as_str()),
        "{out:#?}"
    );
    for name in variant_names() {
        e.command(&format!("setoption name UCI_Variant value {name}"));
        let moves = e.command("moves");
        let tokens: Vec<&str> = moves[0]
            .strip_prefix("info string moves ")
            .expect("legal turns")
            .split(' ')
            .collect();
        // The last legal turn is rarely the engine's own choice.
        let last = tokens.last().unwrap().to_string();
        let out = e.go(&format!("go depth 3 searchmoves {last}"), SEARCH);
        assert_eq!(bestmove(&out), last, "{name}: {out:#?}");
        for line in info_lines(&out) {
            assert_eq!(pv_of(line).first(), Some(&last), "{name}: {line}");
        }
        // A first portion alone allows every turn that starts with it.
        if let Some((first, _)) = last.split_once(';') {
            let out = e.go(&format!("go depth 3 searchmoves {first}"), SEARCH);
            let best = bestmove(&out);
            assert!(
                best == first || best.starts_with(&format!("{first};")),
                "{name}: {best} for {first}"
            );
        }
        // Two turns: one of them is played.
        let two = [tokens[0], tokens[tokens.len() / 2]];
        let out = e.go(
            &format!("go depth 2 searchmoves {} {}", two[0], two[1]),
            SEARCH,
        );
        assert!(two.contains(&bestmove(&out).as_str()), "{name}: {out:#?}");
    }
    // Turns that are not legal are reported; with none left, every turn is searched.
    e.command("setoption name UCI_Variant value chess");
    e.send("go depth 2 searchmoves e2e5");
    let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
    assert!(
        out[0].starts_with("info string error go: searchmoves: illegal move e2e5"),
        "{out:#?}"
    );
    assert_ne!(bestmove(&out), "(none)");
}

/// The resident memory of process `pid`, in MiB (`VmRSS` of `/proc/<pid>/status`).
#[cfg(target_os = "linux")]
fn resident_mib(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    let kb: usize = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmRSS line");
    kb / 1024
}

/// A 1 GiB `Hash` has all its pages in memory
/// when `readyok` comes, so `go movetime 200` never pays for first touching them; `ucinewgame`
/// and `Clear Hash` empty it in place (it stays in memory); the search answers and `quit`
/// works. Structural, not timed: the resident size of the engine is read after `readyok`.
#[cfg(target_os = "linux")]
#[test]
fn a_large_hash_is_in_memory_before_readyok() {
    let mut e = Engine::start();
    let pid = e.id();
    assert!(resident_mib(pid) < 200, "{} MiB", resident_mib(pid));
    e.send("setoption name Hash value 1024");
    e.send("isready");
    // The table may be cut to what the machine has free (one info line says so).
    let out = e.read_until(|l| l == "readyok", SEARCH);
    let table = out
        .iter()
        .find_map(|l| {
            l.strip_suffix(" MiB")?
                .rsplit_once("using ")?
                .1
                .parse()
                .ok()
        })
        .unwrap_or(1024usize);
    assert!(out.len() <= 2, "{out:#?}");
    let resident = resident_mib(pid);
    assert!(
        resident >= table,
        "{resident} MiB resident, table {table} MiB"
    );
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let go = e.go("go movetime 200", SEARCH);
    assert_ne!(bestmove(&go), "(none)");
    for clear in ["ucinewgame", "setoption name Clear Hash"] {
        assert!(e.command(clear).is_empty(), "{clear}");
        let resident = resident_mib(pid);
        assert!(resident >= table, "{clear}: {resident} MiB resident");
    }
    e.go("go depth 6", SEARCH);
    e.send("go infinite");
    e.send("quit");
    assert_eq!(e.wait_exit(QUICK), 0);
}

/// The `bestmove` lines of `out`.
fn bestmoves(out: &[String]) -> Vec<&String> {
    out.iter().filter(|l| l.starts_with("bestmove")).collect()
}

/// A `go` sent at once after `stop` is not refused: it waits until the
/// stopped search has printed its `bestmove`, then searches. Every `go` gets its `bestmove`.
#[test]
fn a_go_right_after_stop_gets_its_bestmove() {
    let mut e = Engine::start();
    for _ in 0..5 {
        e.send("position startpos");
        e.send("go infinite");
        e.send("stop");
        e.send("go nodes 500");
        e.send("isready");
        let mut out = e.read_until(|l| l == "readyok", SEARCH);
        if bestmoves(&out).len() < 2 {
            out.extend(e.read_until(|l| l.starts_with("bestmove"), SEARCH));
        }
        assert_eq!(bestmoves(&out).len(), 2, "{out:#?}");
        assert!(!out.iter().any(|l| l.contains("error")), "{out:#?}");
        e.assert_ready();
    }
    // Mystic: `go movetime 20` and `stop` twice, then `go nodes 500`: three answers.
    e.command("setoption name UCI_Variant value mystic");
    e.send("position startpos");
    for line in [
        "go movetime 20",
        "stop",
        "go movetime 20",
        "stop",
        "go nodes 500",
    ] {
        e.send(line);
    }
    let mut out = Vec::new();
    while bestmoves(&out).len() < 3 {
        out.extend(e.read_until(|l| l.starts_with("bestmove"), SEARCH));
    }
    assert!(!out.iter().any(|l| l.contains("error")), "{out:#?}");
    e.assert_ready();
}

/// The lines that follow a `stop` at once (`position`, `setoption`, a new
/// variant, `ucinewgame`, a perft) wait for the stopped search's `bestmove` and are then
/// processed in order: the next search is of the new position, and nothing is refused.
#[test]
fn lines_after_stop_wait_for_the_stopped_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.send("stop");
    e.send("position startpos moves e2e4");
    e.send("setoption name Hash value 4");
    e.send("setoption name Threads value 2");
    e.send("go depth 3");
    let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
    assert!(!out.iter().any(|l| l.contains("error")), "{out:#?}");
    let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
    assert!(!out.iter().any(|l| l.contains("error")), "{out:#?}");
    // A Black reply: the second search is of the position sent after `stop`.
    assert!(
        bestmove(&out).ends_with('5') || bestmove(&out).ends_with('6'),
        "{out:#?}"
    );
    e.assert_ready();
    // A variant selected during a finishing search comes after its bestmove.
    e.send("go infinite");
    e.send("stop");
    e.send("setoption name UCI_Variant value mitosis");
    e.send("ucinewgame");
    e.send("go nodes 300");
    let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
    assert!(!out.iter().any(|l| l.contains("error")), "{out:#?}");
    let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
    assert!(
        out[0].starts_with("info string variant mitosis "),
        "{out:#?}"
    );
    assert!(!out.iter().any(|l| l.contains("error")), "{out:#?}");
    e.assert_ready();
    // A perft stopped, then a search at once.
    e.send("go perft 12");
    e.send("stop");
    e.send("go nodes 200");
    let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
    assert!(
        out.iter().any(|l| l == "info string perft stopped"),
        "{out:#?}"
    );
    assert!(!out.iter().any(|l| l.contains("error")), "{out:#?}");
    e.assert_ready();
    // Without a `stop`, a second `go` during a search is still refused (protocol.md 6).
    e.send("go infinite");
    e.send("go nodes 100");
    e.send("isready");
    let out = e.read_until(|l| l == "readyok", QUICK);
    assert!(
        out.contains(&"info string error a search is running; 'go' ignored".to_string()),
        "{out:#?}"
    );
    e.send("stop");
    e.read_until(|l| l.starts_with("bestmove"), SEARCH);
    e.assert_ready();
}

/// Error lines quote bad input with its control bytes escaped; no output
/// line carries a control character.
#[test]
fn error_lines_escape_control_bytes() {
    let mut e = Engine::start();
    for (line, error) in [
        (
            "x\u{1b}[31mRED",
            "info string error unknown command 'x\\x1b[31mRED'",
        ),
        ("x\0y", "info string error unknown command 'x\\0y'"),
        (
            "position fen rnbqkbnr/pp\u{1b}pppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "info string error bad FEN: board: unknown piece letter '\\x1b'",
        ),
        (
            "setoption name UCI_Variant value \u{1b}]0;title\u{7}",
            "info string error unknown variant '\\x1b]0;title\\x07'",
        ),
        ("d \u{9b}2J", "info string error d: unexpected '\\u{9b}2J'"),
    ] {
        let out = e.command(line);
        assert_eq!(out, vec![error.to_string()], "{line:?}");
    }
    e.send("position startpos");
    let out = e.go("go depth 1", SEARCH);
    assert!(out.iter().all(|l| !l.chars().any(char::is_control)));
}

/// `go depth 3 depth 5` says that the second depth is left out (the
/// search goes to depth 3), and a depth too large for a number says it is out of range.
#[test]
fn repeated_go_words_and_huge_numbers_are_reported() {
    let mut e = Engine::start();
    e.send("go depth 3 depth 5");
    let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
    assert_eq!(
        out[0],
        "info string error go: depth given twice: 'depth 5' (ignored)"
    );
    let depths: Vec<u32> = info_lines(&out)
        .iter()
        .filter_map(|l| l.split_whitespace().nth(2)?.parse().ok())
        .collect();
    assert_eq!(depths.iter().max(), Some(&3), "{out:#?}");
    e.send("go depth 99999999999 nodes 1000");
    let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
    assert_eq!(
        out[0],
        "info string error go: depth 99999999999 is out of range 0..4294967295 (ignored)"
    );
    e.assert_ready();
}

/// A one-line banner with name, version and commit at start-up, and `help`.
#[test]
fn banner_and_help() {
    let text = run_binary_ok(&[], b"help\nquit\n");
    let first = text.lines().next().expect("a banner");
    let head = format!("menagerie {} (commit ", env!("CARGO_PKG_VERSION"));
    assert!(first.starts_with(&head), "{first}");
    let commit = first[head.len()..].split(')').next().unwrap();
    assert!(
        commit == "unknown" || (commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{first}"
    );
    for command in [
        "uci",
        "position",
        "go perft",
        "searchmoves",
        "moves",
        "quit",
    ] {
        assert!(text.contains(command), "help lacks {command}: {text}");
    }
    // The variant's own commands are listed in its help.
    let text = run_binary_ok(
        &[],
        b"setoption name UCI_Variant value muster\nhelp\nquit\n",
    );
    assert!(text.contains("own commands: muster"), "{text}");
}

/// `Debug Log File` appends every line in and out, time-stamped; `<empty>` stops it.
#[test]
fn debug_log_file_records_both_directions() {
    let path = std::env::temp_dir().join(format!("menagerie-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut e = Engine::start();
    assert!(e
        .command(&format!(
            "setoption name Debug Log File value {}",
            path.display()
        ))
        .is_empty());
    e.go("go depth 2", SEARCH);
    e.command("setoption name Debug Log File value <empty>");
    e.command("d");
    e.send("quit");
    assert_eq!(e.wait_exit(QUICK), 0);
    let log = std::fs::read_to_string(&path).expect("the log was written");
    let _ = std::fs::remove_file(&path);
    let body: Vec<&str> = log.lines().map(|l| l.split_once("] ").unwrap().1).collect();
    assert_eq!(body.first(), Some(&">> isready"), "{log}");
    assert!(body.contains(&"<< readyok"), "{log}");
    assert!(body.contains(&">> go depth 2"), "{log}");
    assert!(body.iter().any(|l| l.starts_with("<< bestmove")), "{log}");
    assert_eq!(
        body.last(),
        Some(&">> setoption name Debug Log File value <empty>")
    );
    // `[YYYY-MM-DD hh:mm:ss.mmm]`.
    assert!(log
        .lines()
        .all(|l| l.len() > 26 && &l[..1] == "[" && &l[24..26] == "] "));
}
