//! Perft suites read from `tests/perft/<variant>.perft` (format: `name | FEN | n1 n2 ...`).
//! Depth counts turns, as `go perft` does (protocol.md 5), except for suites that list ply
//! figures (Mulligan Stew's rules give plies); for variants whose turns are single plies,
//! turns and plies agree.

use menagerie::perft::{divide, perft, perft_turns, Unit};
use menagerie::variants::chess::Chess;
use menagerie::variants::mitosis::Mitosis;
use menagerie::variants::mulligan_stew::MulliganStew;
use menagerie::variants::muster::Muster;
use menagerie::variants::mutatis_mutandis::MutatisMutandis;
use menagerie::variants::mystic::Mystic;
use menagerie::variants::{Game, Notation, Rules};

struct Case {
    name: String,
    fen: String,
    counts: Vec<u64>,
}

fn load(file: &str) -> Vec<Case> {
    let path = format!("{}/tests/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(parts.len(), 3, "bad suite line: {l}");
            Case {
                name: parts[0].to_string(),
                fen: parts[1].to_string(),
                counts: parts[2]
                    .split_whitespace()
                    .map(|n| n.parse().unwrap())
                    .collect(),
            }
        })
        .collect()
}

fn run_suite<G: Game>(file: &str, unit: Unit, max_nodes: Option<u64>) {
    let cases = load(file);
    assert!(!cases.is_empty());
    for case in cases {
        let mut pos = G::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let fen_before = pos.fen();
        for (i, &expected) in case.counts.iter().enumerate() {
            let depth = i as u32 + 1;
            let count = match unit {
                Unit::Turn => perft_turns(&mut pos, depth),
                Unit::Ply => perft(&mut pos, depth),
            };
            assert_eq!(count, expected, "{} depth {depth}", case.name);
            assert_eq!(
                pos.fen(),
                fen_before,
                "{}: perft must restore the position",
                case.name
            );
            if max_nodes.is_some_and(|m| expected > m) {
                break;
            }
        }
    }
}

/// Every suite position up to the first depth past one million nodes.
#[test]
fn chess_suite_to_a_million() {
    run_suite::<Chess>("chess.perft", Unit::Turn, Some(1_000_000));
}

/// Every listed depth: start position to 6, Kiwipete to 5 (release builds only: minutes in debug).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release-only: run with cargo test --profile release-tests"
)]
fn chess_suite_full_depth() {
    run_suite::<Chess>("chess.perft", Unit::Turn, None);
}

/// Divide sums to perft and is the same with several threads.
#[test]
fn divide_matches_perft_and_threads_agree() {
    let pos =
        Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let one = divide(&pos, 3, Unit::Turn, 1);
    let two = divide(&pos, 3, Unit::Turn, 2);
    assert_eq!(one, two);
    assert_eq!(one.len(), 48);
    assert_eq!(one.iter().map(|r| r.1).sum::<u64>(), 97862);
    assert!(
        one.iter().any(|(t, n)| t == "e1g1" && *n == 2059),
        "castling token and count: {one:?}"
    );
}

/// Chess960: the wiki's Chess960 positions, start positions in Shredder-FEN and
/// X-FEN and castling corner cases, every figure confirmed with python-chess, up to a million
/// nodes per position (all depths in the release-only test below).
#[test]
fn chess960_suite_to_a_million() {
    run_suite::<Chess>("chess960.perft", Unit::Turn, Some(1_000_000));
}

/// Every listed Chess960 depth (release builds only).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release-only: run with cargo test --profile release-tests"
)]
fn chess960_suite_full_depth() {
    run_suite::<Chess>("chess960.perft", Unit::Turn, None);
}

/// Mystic Chess from the start (rules/mystic.md 7): every listed depth (726168 at depth 4).
#[test]
fn mystic_suite() {
    run_suite::<Mystic>("mystic.perft", Unit::Turn, None);
}

/// Mulligan Stew in plies (rules/mulligan-stew.md 10): the start position to depth 4 in debug
/// builds (all five depths in release) and the swap-restriction position.
#[test]
fn mulliganstew_suite() {
    let limit = if cfg!(debug_assertions) {
        Some(200_000)
    } else {
        None
    };
    run_suite::<MulliganStew>("mulliganstew.perft", Unit::Ply, limit);
}

/// Mulligan Stew in turns (protocol.md 5): depth 1 and 2 from the start are the ply figures
/// of depth 2 and 4 (rules/mulligan-stew.md 10: every turn there has both portions).
#[test]
fn mulliganstew_turns() {
    let pos = MulliganStew::startpos();
    let one = divide(&pos, 1, Unit::Turn, 1);
    assert_eq!(one.len(), 426);
    assert!(one.iter().any(|(t, _)| t == "M@b3;c1c3"), "{one:?}");
    let two = divide(&pos, 2, Unit::Turn, 2);
    assert_eq!(two.iter().map(|r| r.1).sum::<u64>(), 180236);
}

/// Mitosis Chess (rules/mitosis.md 8): the start position and the worked examples, in turns
/// (small depths cross-checked by the brute-force reference in tests/mitosis.rs).
#[test]
fn mitosis_suite() {
    run_suite::<Mitosis>("mitosis.perft", Unit::Turn, Some(300_000));
}

/// Every listed Mitosis depth (start position to 5: release builds only).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release-only: run with cargo test --profile release-tests"
)]
fn mitosis_suite_full_depth() {
    run_suite::<Mitosis>("mitosis.perft", Unit::Turn, None);
}

/// Muster Chess (rules/muster.md): the orthodox suite with regular armies and the worked
/// examples of section 8, up to a million nodes per position.
#[test]
fn muster_suite_to_a_million() {
    run_suite::<Muster>("muster.perft", Unit::Turn, Some(1_000_000));
}

/// Every listed depth of the Muster suite (release builds only).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release-only: run with cargo test --profile release-tests"
)]
fn muster_suite_full_depth() {
    run_suite::<Muster>("muster.perft", Unit::Turn, None);
}

/// Mutatis Mutandis (rules/mutatis-mutandis.md 13): every figure of the rules file, in turns
/// (action plus optional drop), including the drop and mandatory-drop positions.
#[test]
fn mutatismutandis_suite() {
    run_suite::<MutatisMutandis>("mutatismutandis.perft", Unit::Turn, None);
}

/// Mutatis Mutandis divide: the rules' special-pieces position, where White's drop is
/// mandatory (rules 8), has only turns with a drop, and its threads agree.
#[test]
fn mutatismutandis_divide_mandatory_drop() {
    let pos = MutatisMutandis::from_fen("[ll]3k3/1p[wi]2p2/2[sw]2[im]2/[ad]2[CH]1[sh][cp]1/3[SW]4/2[OX]1[AC]3/1p1P2[MA]1/4K2R w KH - 0 11 reserve:N.GR/q.am drops:0/0 swapban:-").unwrap();
    let one = divide(&pos, 2, Unit::Turn, 1);
    assert_eq!(one, divide(&pos, 2, Unit::Turn, 2));
    assert_eq!(one.len(), 426);
    assert!(one.iter().all(|(t, _)| t.contains(";N@")), "{one:?}");
    assert_eq!(one.iter().map(|r| r.1).sum::<u64>(), 189798);
}
