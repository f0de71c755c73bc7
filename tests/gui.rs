//! What a GUI asks of the engine beyond playing: the `variant` description, the
//! `result` command and its line in `d`, and `UCI_ShowWDL`. Through the built binary.

use crate::common;

use common::{Engine, QUICK, SEARCH};

use menagerie::variants::{Game, Variant};

/// One parsed `info string piece code <CODE> name <Name> | <movement>` line.
fn parse_piece(line: &str) -> (String, String, String) {
    let rest = line
        .strip_prefix("info string piece code ")
        .unwrap_or_else(|| panic!("not a piece line: {line}"));
    let (code, rest) = rest.split_once(" name ").expect("a name");
    let (name, movement) = rest.split_once(" | ").expect("a movement after ' | '");
    (code.to_string(), name.to_string(), movement.to_string())
}

fn check_description<G: Game>(e: &mut Engine) {
    e.command(&format!(
        "setoption name UCI_Variant value {}",
        G::INFO.name
    ));
    let mut out = e.command("variant");
    // The aliases line, when the registry gives the variant other names, comes after the
    // board line and lists them all.
    let aliases = Variant::from_name(G::INFO.name).unwrap().aliases();
    if aliases.is_empty() {
        assert!(
            !out.iter().any(|l| l.starts_with("info string aliases")),
            "{out:#?}"
        );
    } else {
        assert_eq!(out[2], format!("info string aliases {}", aliases.join(" ")));
        out.remove(2);
    }
    assert_eq!(
        out.len(),
        2 + G::INFO.pregame.len() + G::INFO.fields.len() + G::INFO.pieces.len(),
        "{out:#?}"
    );
    assert!(
        out[0].starts_with(&format!("info string variant {} files ", G::INFO.name)),
        "{out:#?}"
    );
    assert!(out[0].ends_with(&format!("startpos {}", G::startpos().fen())));
    let holes = G::INFO.holes;
    let board = format!(
        "info string board firstrank {} holes {}",
        G::INFO.first_rank,
        if holes.is_empty() {
            "-".to_string()
        } else {
            holes.join(" ")
        }
    );
    assert_eq!(out[1], board);
    let pregame: Vec<String> = G::INFO
        .pregame
        .iter()
        .map(|k| format!("info string pregame {k}"))
        .collect();
    assert_eq!(out[2..2 + G::INFO.pregame.len()], pregame[..]);
    // Then the FEN fields, in FEN order, as a board editor reads them.
    let at = 2 + G::INFO.pregame.len();
    let fields: Vec<String> = G::INFO.fields.iter().map(|f| f.line()).collect();
    assert_eq!(out[at..at + fields.len()], fields[..]);
    for line in &fields {
        let (head, label) = line.split_once(" | ").expect("a label after ' | '");
        assert!(
            !label.is_empty() && head.split_whitespace().count() >= 5,
            "{line}"
        );
    }
    // A variant with random setups says so, and no other does.
    assert_eq!(
        G::INFO.pregame.contains(&"seed"),
        G::random_setup(0).is_some(),
        "{}",
        G::INFO.name
    );
    for (line, piece) in out[at + fields.len()..].iter().zip(G::INFO.pieces) {
        let (code, name, movement) = parse_piece(line);
        assert_eq!(
            (code.as_str(), name.as_str(), movement.as_str()),
            (piece.code, piece.name, piece.movement)
        );
        assert!(!code.contains(' ') && !name.contains(" | "), "{line}");
    }
}

/// `variant` describes every variant: the `info string variant` line, the board's first
/// rank and holes, its FEN fields, and one parseable line per piece type.
#[test]
fn variant_describes_board_and_pieces() {
    let mut e = Engine::start();
    for &v in Variant::ALL {
        menagerie::with_variant!(v, G => check_description::<G>(&mut e));
    }
    // Mitosis counts its ranks from 0, and ranks 0 and 10 only have d, e and f.
    e.command("setoption name UCI_Variant value mitosis");
    let out = e.command("variant");
    assert_eq!(
        out[1],
        "info string board firstrank 0 holes a0 b0 c0 g0 h0 i0 a10 b10 c10 g10 h10 i10"
    );
    e.command("setoption name UCI_Variant value chess");
    let out = e.command("variant");
    assert_eq!(out[1], "info string board firstrank 1 holes -");
    assert_eq!(out[2], "info string aliases standard normal fromposition");
    assert_eq!(
        out[3],
        "info string field castling text | Castling rights (KQkq, or -)"
    );
    let first_piece = out
        .iter()
        .find(|l| l.starts_with("info string piece "))
        .unwrap();
    assert_eq!(
        parse_piece(first_piece).0,
        "K",
        "chess lists the King first: {out:#?}"
    );
    // Bad input: one error, nothing else.
    let out = e.command("variant chess");
    assert_eq!(out, vec!["info string error variant: unexpected 'chess'"]);
}

/// `result` and the `Result:` line of `d`: over by rule, a claimable draw, and neither.
#[test]
fn result_command_and_display() {
    let mut e = Engine::start();
    let result_of_d = |e: &mut Engine| -> String {
        let out = e.command("d");
        out.iter()
            .find_map(|l| l.strip_prefix("Result: "))
            .unwrap_or_else(|| panic!("no Result: line in {out:#?}"))
            .to_string()
    };
    assert_eq!(e.command("result"), vec!["info string result none"]);
    assert_eq!(result_of_d(&mut e), "none");
    e.command("position startpos moves f2f3 e7e5 g2g4 d8h4");
    assert_eq!(
        e.command("result"),
        vec!["info string result 0-1 {checkmate}"]
    );
    assert_eq!(result_of_d(&mut e), "0-1 {checkmate}");
    e.command("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        e.command("result"),
        vec!["info string result 1/2-1/2 {stalemate}"]
    );
    // Threefold repetition only lets a player claim (FIDE 9.2): no result, a claim.
    e.command("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(
        e.command("result"),
        vec![
            "info string result none",
            "info string draw claimable {threefold repetition}"
        ]
    );
    assert_eq!(
        result_of_d(&mut e),
        "none; draw claimable {threefold repetition}"
    );
    // A variant's own rule (Muster: the side not to move starts in check).
    e.command("setoption name UCI_Variant value muster");
    e.command("position fen rnbqkbnr/pppp1ppp/8/8/8/8/PPPPQPPP/RNB1KBNR w a1h1a8h8 - 0 1");
    assert_eq!(
        e.command("result"),
        vec!["info string result 1-0 {the side not to move starts in check}"]
    );
    let out = e.command("result now");
    assert_eq!(out, vec!["info string error result: unexpected 'now'"]);
}

/// The `wdl W D L` of one `info` line, if it has one.
fn wdl(line: &str) -> Option<[u32; 3]> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "wdl")?;
    let n = |k: usize| words[i + k].parse::<u32>().expect("a permille");
    Some([n(1), n(2), n(3)])
}

/// `UCI_ShowWDL`: off by default; on, every `info` line with a score has `wdl` right after
/// the score, summing to 1000, with more wins for the side that is better.
#[test]
fn show_wdl() {
    let mut e = Engine::start();
    let out = e.go("go depth 4", SEARCH);
    assert!(out.iter().all(|l| wdl(l).is_none()), "{out:#?}");
    assert!(e
        .command("setoption name UCI_ShowWDL value true")
        .is_empty());
    for &v in Variant::ALL {
        e.command(&format!("setoption name UCI_Variant value {}", v.name()));
        let out = e.go("go depth 3", SEARCH);
        let scored: Vec<&String> = out.iter().filter(|l| l.contains(" score ")).collect();
        assert!(!scored.is_empty(), "{out:#?}");
        for line in scored {
            let [w, d, l] = wdl(line).unwrap_or_else(|| panic!("no wdl: {line}"));
            assert_eq!(w + d + l, 1000, "{line}");
            let words: Vec<&str> = line.split_whitespace().collect();
            let s = words.iter().position(|w| *w == "score").unwrap();
            assert_eq!(words[s + 3], "wdl", "wdl follows the score: {line}");
        }
    }
    // White a Queen up: mostly wins; Black to move in the same position: mostly losses.
    e.command("setoption name UCI_Variant value chess");
    e.command("position fen 4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1");
    let out = e.go("go depth 4", SEARCH);
    let [w, _, l] = out.iter().rev().find_map(|l| wdl(l)).expect("a wdl");
    assert!(w > 900 && l < 10, "{out:#?}");
    e.command("position fen 4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1");
    let out = e.go("go depth 4", SEARCH);
    let [w, _, l] = out.iter().rev().find_map(|l| wdl(l)).expect("a wdl");
    assert!(l > 900 && w < 10, "{out:#?}");
    // A finished game says its result as certain chances.
    e.command("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let out = e.go("go depth 3", QUICK);
    assert_eq!(out[0], "info depth 0 score mate 0 wdl 0 0 1000");
    e.command("setoption name UCI_ShowWDL value false");
    e.command("position startpos");
    let out = e.go("go depth 3", SEARCH);
    assert!(out.iter().all(|l| wdl(l).is_none()), "{out:#?}");
}

/// `moves pgn`: the legal turns in the variant's PGN notation, in the order of `moves` (SAN in
/// chess, check and mate marks included; the tokens themselves in a variant whose notation is
/// its tokens); bad words after `moves` are refused.
#[test]
fn moves_in_pgn_notation() {
    let mut e = Engine::start();
    let words = |out: Vec<String>, head: &str| -> Vec<String> {
        assert_eq!(out.len(), 1, "{out:#?}");
        out[0]
            .strip_prefix(head)
            .unwrap_or_else(|| panic!("{out:#?}"))
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    e.command("position startpos moves f2f3 e7e5 g2g4");
    let tokens = words(e.command("moves"), "info string moves");
    let san = words(e.command("moves pgn"), "info string moves pgn");
    assert_eq!(tokens.len(), san.len());
    let pair = |t: &str| san[tokens.iter().position(|x| x == t).expect(t)].clone();
    assert_eq!(pair("d8h4"), "Qh4#");
    assert_eq!(pair("g8f6"), "Nf6");
    assert_eq!(pair("e5e4"), "e4");
    // Castling and promotion in SAN.
    e.command("position fen r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1");
    let tokens = words(e.command("moves"), "info string moves");
    let san = words(e.command("moves pgn"), "info string moves pgn");
    let pair = |t: &str| san[tokens.iter().position(|x| x == t).expect(t)].clone();
    assert_eq!(pair("e1g1"), "O-O");
    assert_eq!(pair("b7a8q"), "bxa8=Q+");
    // A two-portion variant: whole turns, in the same order.
    e.command("setoption name UCI_Variant value mulliganstew");
    let tokens = words(e.command("moves"), "info string moves");
    let notation = words(e.command("moves pgn"), "info string moves pgn");
    assert_eq!(tokens.len(), notation.len());
    assert!(notation.iter().all(|n| n.contains(';')), "{notation:?}");
    // A position without legal turns.
    e.command("setoption name UCI_Variant value chess");
    e.command("position startpos moves f2f3 e7e5 g2g4 d8h4");
    assert_eq!(e.command("moves pgn"), vec!["info string moves pgn"]);
    assert_eq!(
        e.command("moves san"),
        vec!["info string error moves: unexpected 'san'"]
    );
}

/// `check`: the squares of the side to move's royal pieces when it is in check, `-` when not,
/// in chess, a variant with several royal types (Mutatis Mutandis) and one without check
/// (Mulligan Stew).
#[test]
fn check_names_the_royal_squares() {
    let mut e = Engine::start();
    assert_eq!(e.command("check"), vec!["info string check -"]);
    e.command("position startpos moves f2f3 e7e5 g2g4 d8h4");
    assert_eq!(e.command("check"), vec!["info string check e1"]);
    e.command("position fen 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert_eq!(e.command("check"), vec!["info string check e1"]);
    e.command("position fen 4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
    assert_eq!(e.command("check"), vec!["info string check -"]);
    e.command("position fen 4k3/4R3/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(e.command("check"), vec!["info string check e8"]);
    e.command("setoption name UCI_Variant value mutatismutandis");
    e.command("position fen k7/8/8/8/8/8/8/r3K3 w - - 0 1");
    assert_eq!(e.command("check"), vec!["info string check e1"]);
    e.command("setoption name UCI_Variant value mulliganstew");
    e.command("position startpos");
    assert_eq!(e.command("check"), vec!["info string check -"]);
    assert_eq!(
        e.command("check now"),
        vec!["info string error check: unexpected 'now'"]
    );
}

/// `muster assign` applies the table of rules/muster.md 3 (its fourth row as written) and
/// gives the game's start position; an illegal army or a bad pick is refused.
#[test]
fn muster_assign_applies_the_table() {
    let mut e = Engine::start_variant("muster");
    let w = "8/8/PPPPPPPP/RNNQKBNR";
    let b = "rnbqkbbr/pppppppp/8/8";
    let regular_w = "8/8/PPPPPPPP/RNBQKBNR";
    let regular_b = "rnbqkbnr/pppppppp/8/8";
    let assign = |e: &mut Engine, pw: &str, pb: &str| -> (String, String) {
        let out = e.command(&format!(
            "muster assign white {w} black {b} picks {pw} {pb}"
        ));
        let line = out
            .iter()
            .find_map(|l| l.strip_prefix("muster start "))
            .unwrap_or_else(|| panic!("{out:#?}"))
            .to_string();
        let (colour, fen) = line.split_once(' ').unwrap();
        (
            colour.to_string(),
            fen.split_whitespace().next().unwrap().to_string(),
        )
    };
    // P_W picks W, P_B picks B: each gets the army picked.
    assert_eq!(
        assign(&mut e, "white", "black"),
        ("white".into(), format!("{b}/{w}"))
    );
    // Crossed picks: P_W plays Black with B.
    assert_eq!(
        assign(&mut e, "black", "white"),
        ("black".into(), format!("{b}/{w}"))
    );
    // Both pick W: W goes to P_B; P_W plays Black with the regular army.
    assert_eq!(
        assign(&mut e, "white", "white"),
        ("black".into(), format!("{regular_b}/{w}"))
    );
    // Both pick B: the table's fourth row, P_W White with the regular army.
    assert_eq!(
        assign(&mut e, "black", "black"),
        ("white".into(), format!("{b}/{regular_w}"))
    );
    let out = e.command(
        "muster assign white 8/8/PPPPPPPP/RNBQQBNR black rnbqkbnr/pppppppp/8/8 picks white black",
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string error bad white army")),
        "{out:#?}"
    );
    let out = e.command(&format!(
        "muster assign white {w} black {b} picks white grey"
    ));
    assert!(
        out.iter().any(|l| l.starts_with("info string error")),
        "{out:#?}"
    );
}
