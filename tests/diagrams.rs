//! The `diagram` command (docs/protocol.md 8): a piece's moves and captures from a square of an
//! otherwise empty board, through the built binary. That the squares are the engine's legal
//! landings is checked piece by piece in `piece_descriptions`.

use crate::common;

use common::Engine;
use menagerie::variants::Variant;

/// The words after `key` in a diagram line, up to the next key (`-` is the empty list).
fn field(line: &str, key: &str) -> Vec<String> {
    const KEYS: [&str; 7] = [
        "piece", "square", "moves", "captures", "rides", "hops", "becomes",
    ];
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words
        .iter()
        .position(|w| *w == key)
        .unwrap_or_else(|| panic!("no '{key}' in {line}"));
    words[i + 1..]
        .iter()
        .take_while(|w| !KEYS.contains(w))
        .filter(|w| **w != "-")
        .map(|w| w.to_string())
        .collect()
}

/// The one line the engine answers to `diagram code square`.
fn diagram(e: &mut Engine, code: &str, square: &str) -> String {
    let mut out = e.command(&format!("diagram {code} {square}"));
    // A variant selected at the start announces itself first.
    out.retain(|l| !l.starts_with("info string variant "));
    assert_eq!(
        out.len(),
        1,
        "one line for diagram {code} {square}: {out:?}"
    );
    out[0].clone()
}

#[test]
fn a_knight_on_d4_moves_and_captures_on_its_eight_squares() {
    let mut e = Engine::start();
    let line = diagram(&mut e, "N", "d4");
    let eight = ["c2", "e2", "b3", "f3", "b5", "f5", "c6", "e6"];
    assert!(
        line.starts_with("info string diagram piece N square d4 "),
        "{line}"
    );
    assert_eq!(field(&line, "moves"), eight, "{line}");
    assert_eq!(field(&line, "captures"), eight, "{line}");
    assert!(field(&line, "rides").is_empty(), "a Knight leaps: {line}");
    assert!(field(&line, "becomes").is_empty(), "{line}");
    // In the corner it keeps two; the code may be lower case.
    let corner = diagram(&mut e, "n", "a1");
    assert_eq!(field(&corner, "moves"), ["c2", "b3"], "{corner}");
}

#[test]
fn a_rook_rides_and_a_pawn_moves_apart_from_its_captures() {
    let mut e = Engine::start();
    let rook = diagram(&mut e, "R", "a1");
    let moves = field(&rook, "moves");
    assert_eq!(moves.len(), 14, "{rook}");
    // Every square but the two next to it can be cut off by a piece between.
    let mut rides = field(&rook, "rides");
    rides.sort();
    let mut far: Vec<String> = moves
        .into_iter()
        .filter(|s| s != "a2" && s != "b1")
        .collect();
    far.sort();
    assert_eq!(rides, far, "{rook}");
    let pawn = diagram(&mut e, "P", "e2");
    assert_eq!(field(&pawn, "moves"), ["e3", "e4"], "{pawn}");
    assert_eq!(field(&pawn, "captures"), ["d3", "f3"], "{pawn}");
    assert_eq!(field(&pawn, "rides"), ["e4"], "{pawn}");
}

#[test]
fn every_piece_of_every_variant_answers_its_diagram() {
    for v in Variant::ALL {
        let mut e = Engine::start_variant(v.name());
        let lines = e.command("variant");
        let codes: Vec<String> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("info string piece code "))
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .collect();
        assert!(!codes.is_empty(), "{}: no pieces", v.name());
        // A central square of the board (Mitosis's rank 5, Mulligan Stew's c4).
        let square = match v.name() {
            "mitosis" => "e5",
            "mulliganstew" => "c4",
            _ => "d4",
        };
        for code in &codes {
            let line = diagram(&mut e, code, square);
            assert!(
                line.starts_with(&format!(
                    "info string diagram piece {code} square {square} "
                )),
                "{} {code}: {line}",
                v.name()
            );
            let moves = field(&line, "moves");
            let captures = field(&line, "captures");
            assert!(
                !moves.is_empty() || !captures.is_empty(),
                "{} {code} has no move from {square}: {line}",
                v.name()
            );
            for sq in field(&line, "rides") {
                assert!(moves.contains(&sq) || captures.contains(&sq), "{line}");
            }
            for sq in field(&line, "hops") {
                assert!(captures.contains(&sq), "{line}");
            }
            let becomes = field(&line, "becomes");
            if v.name() == "mutatismutandis" {
                // Every state becomes another state (rules 2), named by its code.
                assert_eq!(becomes.len(), 1, "{code}: {line}");
                assert!(codes.contains(&becomes[0]), "{code} becomes {becomes:?}");
                assert_ne!(&becomes[0], code);
            } else {
                assert!(becomes.is_empty(), "{} {code}: {line}", v.name());
            }
        }
    }
}

#[test]
fn mutatis_mutandis_names_what_each_piece_becomes() {
    let mut e = Engine::start_variant("mutatismutandis");
    for (code, next) in [
        ("Q", "SS"),
        ("N", "NG"),
        ("MA", "WU"),
        ("N04", "HN"),
        ("P", "BP"),
    ] {
        let line = diagram(&mut e, code, "e4");
        assert_eq!(field(&line, "becomes"), [next], "{line}");
    }
    // The Paovao captures only over a screen: each capture square is a hop.
    let pv = diagram(&mut e, "PV", "d4");
    let (captures, hops) = (field(&pv, "captures"), field(&pv, "hops"));
    assert!(!captures.is_empty() && captures == hops, "{pv}");
    assert!(
        !captures.contains(&"d5".to_string()),
        "no capture next to it: {pv}"
    );
}

#[test]
fn bad_diagram_requests_get_one_error_and_change_nothing() {
    let mut e = Engine::start();
    e.command("position startpos moves e2e4");
    let fen_before = e.fen();
    for (line, words) in [
        ("diagram X d4", "'X' is not a piece of chess"),
        ("diagram N z9", "'z9' is not a square"),
        ("diagram N i1", "'i1' is not a square"),
        ("diagram N", "missing"),
        ("diagram", "missing"),
        ("diagram N d4 e5", "unexpected 'e5'"),
    ] {
        let out = e.command(line);
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(
            out[0].starts_with("info string error ") && out[0].contains(words),
            "{line}: {out:?}"
        );
    }
    assert_eq!(e.fen(), fen_before);
    // Mitosis's holes are no squares.
    let mut m = Engine::start_variant("mitosis");
    let out = m.command("diagram R a0");
    let out: Vec<&String> = out
        .iter()
        .filter(|l| !l.starts_with("info string variant "))
        .collect();
    assert!(out[0].contains("'a0' is not a square"), "{out:?}");
    assert!(m.command("diagram R e0")[0].starts_with("info string diagram"));
}

#[test]
fn notation_writes_a_line_of_turns_and_leaves_the_position() {
    let mut e = Engine::start();
    e.command("position startpos moves e2e4");
    let fen = e.fen();
    let out = e.command("notation e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1");
    assert_eq!(
        out,
        ["info string notation e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O"]
    );
    assert_eq!(e.fen(), fen, "the position is left as it was");
    let out = e.command("notation e7e5 e7e5");
    assert!(
        out[0].starts_with("info string error notation: turn 2 'e7e5'"),
        "{out:?}"
    );
    assert_eq!(e.command("notation"), ["info string notation"]);
    // Mulligan Stew's two-portion turns, as the move list writes them.
    let mut m = Engine::start_variant("mulliganstew");
    let mut out = m.command("notation M@b3;d2d3 e6e5;e7d4");
    out.retain(|l| !l.starts_with("info string variant "));
    assert_eq!(out, ["info string notation Mb3;d3 e5;Ad4"]);
}
