//! Chess960 in orthodox chess (FIDE Laws, Appendix: Chess960 rules): the
//! castling field in Shredder-FEN and X-FEN, canonical X-FEN output, the castling rules,
//! King-takes-Rook tokens with `UCI_Chess960`, and the protocol driven as python-chess drives a
//! Chess960 board. Expected positions and move lists were taken from python-chess 1.11.2
//! (`chess.Board(fen, chess960=True)`); perft figures are in tests/perft/chess960.perft.

use crate::common;

use std::collections::HashSet;

use common::game::{assert_make_unmake, legal_moves, parse, play_plies, ply_tokens};
use common::{bestmove, Engine, SEARCH};
use menagerie::variants::chess::{Chess, MoveKind, START_FEN};
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::{MoveError, Notation, Rules, VariantSettings};

const ON: VariantSettings = VariantSettings { chess960: true };
const OFF: VariantSettings = VariantSettings { chess960: false };

/// `fen` parsed, with `UCI_Chess960` as `settings` says.
fn pos(fen: &str, settings: VariantSettings) -> Chess {
    let mut p: Chess = parse(fen);
    p.apply_settings(&settings).unwrap();
    p
}

/// The tokens of the legal castlings of `p`, sorted.
fn castlings(p: &Chess) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(p)
        .iter()
        .filter(|m| m.kind() == MoveKind::Castle)
        .map(|&m| p.move_token(m))
        .collect();
    v.sort();
    v
}

/// Chess960 start position number `n` (0..960) in Scharnagl's numbering (518 is the orthodox
/// start), castling field `KQkq`.
fn start960(n: usize) -> String {
    let mut rank = [' '; 8];
    let mut n = n;
    rank[(n % 4) * 2 + 1] = 'B';
    n /= 4;
    rank[(n % 4) * 2] = 'B';
    n /= 4;
    let place = |rank: &mut [char; 8], index: usize, piece: char| {
        let sq = (0..8).filter(|&f| rank[f] == ' ').nth(index).unwrap();
        rank[sq] = piece;
    };
    place(&mut rank, n % 6, 'Q');
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n];
    place(&mut rank, b, 'N');
    place(&mut rank, a, 'N');
    for piece in ['R', 'K', 'R'] {
        place(&mut rank, 0, piece);
    }
    let white: String = rank.iter().collect();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1",
        white.to_ascii_lowercase()
    )
}

#[test]
fn the_numbering_gives_the_orthodox_start_at_518() {
    assert_eq!(start960(518), START_FEN);
    assert_eq!(
        start960(0),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
}

#[test]
fn shredder_and_x_fen_castling_fields_print_as_x_fen() {
    // (input, canonical output = python-chess's board.fen())
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
            START_FEN,
        ),
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
        ),
        (
            "rk5r/8/8/8/8/8/8/RK5R w HQha - 0 1",
            "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        ),
        // An inner Rook keeps its file letter; the outermost one is K or Q.
        (
            "4k3/8/8/8/8/8/8/R1RK4 w C - 0 1",
            "4k3/8/8/8/8/8/8/R1RK4 w C - 0 1",
        ),
        (
            "4k3/8/8/8/8/8/8/R1RK4 w A - 0 1",
            "4k3/8/8/8/8/8/8/R1RK4 w Q - 0 1",
        ),
        (
            "4k3/8/8/8/8/8/8/RK1R3R w DA - 0 1",
            "4k3/8/8/8/8/8/8/RK1R3R w DQ - 0 1",
        ),
        (
            "1rk3r1/8/8/8/8/8/8/qRK3R1 w GB - 0 1",
            "1rk3r1/8/8/8/8/8/8/qRK3R1 w KQ - 0 1",
        ),
    ];
    for (input, canonical) in cases {
        let p: Chess = parse(input);
        assert_eq!(p.fen(), canonical, "{input}");
        assert_eq!(parse::<Chess>(canonical).fen(), canonical, "round trip");
        assert_eq!(parse::<Chess>(canonical).key(), p.key(), "{input}");
    }
}

#[test]
fn bad_castling_fields_name_the_field() {
    for fen in [
        "4k3/8/8/8/8/8/8/R1RK4 w E - 0 1",         // no Rook on e1
        "4k3/8/8/8/8/8/8/R1RK4 w K - 0 1",         // no Rook on the King's side
        "rk5r/8/8/8/8/8/8/RK5R w KH - 0 1",        // one side given twice
        "r6r/1k6/8/8/8/8/1K6/R6R w KQ - 0 1",      // King off its first rank
        "rk5r/8/8/8/8/8/8/RK5R w KQkx - 0 1",      // unknown letter
        "rk5r/8/8/8/8/8/8/RK5R w KQk1 - 0 1",      // not a letter
        "rk5r/8/8/8/8/8/8/RK5R w KQk\u{e9} - 0 1", // not ASCII
    ] {
        let e = Chess::from_fen(fen)
            .err()
            .unwrap_or_else(|| panic!("{fen} parsed"));
        assert_eq!(e.field, "castling", "{fen}: {e}");
    }
}

#[test]
fn castling_rules_of_chess960() {
    // (FEN, legal castlings with UCI_Chess960, from python-chess)
    let cases = [
        // King next to both Rooks: both castlings.
        ("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", vec!["b1a1", "b1h1"]),
        // King already on g1: the Rook alone moves (h-side); b-side passes c1-f1.
        ("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", vec!["g1b1", "g1h1"]),
        // King and Rook swap squares.
        ("4k3/8/8/8/8/8/8/R1RK4 w C - 0 1", vec!["d1c1"]),
        ("4k3/8/8/8/8/8/8/RK1R3R w DA - 0 1", vec!["b1d1"]),
        // The castling Rook shields c1 from the Queen on a1: castling would expose the King.
        ("4k3/8/8/8/8/8/8/q1RK3R w HC - 0 1", vec!["d1h1"]),
        // The King stays on c1 but the b1 Rook leaves: check from a1; g-side: g8 Rook.
        ("1rk3r1/8/8/8/8/8/8/qRK3R1 w GB - 0 1", vec![]),
        // Rooks on the c-file and a-file attack the squares the King passes.
        ("rkr5/8/8/8/8/8/8/RKR5 w KQkq - 0 1", vec![]),
    ];
    for (fen, expected) in cases {
        assert_eq!(castlings(&pos(fen, ON)), expected, "{fen}");
    }
}

#[test]
fn castling_moves_king_and_rook_to_the_g_f_or_c_d_files() {
    // (FEN, King-takes-Rook token, SAN, FEN after, from python-chess)
    let cases = [
        (
            "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
            "g1h1",
            "O-O",
            "1r4kr/8/8/8/8/8/8/1R3RK1 b kq - 1 1",
        ),
        (
            "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
            "g1b1",
            "O-O-O",
            "1r4kr/8/8/8/8/8/8/2KR3R b kq - 1 1",
        ),
        (
            "4k3/8/8/8/8/8/8/R1RK4 w C - 0 1",
            "d1c1",
            "O-O-O",
            "4k3/8/8/8/8/8/8/R1KR4 b - - 1 1",
        ),
        (
            "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
            "b1a1",
            "O-O-O",
            "rk5r/8/8/8/8/8/8/2KR3R b kq - 1 1",
        ),
        (
            "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
            "b1h1",
            "O-O",
            "rk5r/8/8/8/8/8/8/R4RK1 b kq - 1 1",
        ),
    ];
    for (fen, token, san, after) in cases {
        let mut p = pos(fen, ON);
        let key = p.key();
        let m = p.parse_move(token).unwrap();
        assert_eq!(p.pgn_move(m), san, "{fen} {token}");
        p.make(m);
        assert_eq!(p.fen(), after, "{fen} {token}");
        assert_eq!(p.key(), p.compute_key(), "{fen} {token}");
        p.unmake();
        assert_eq!((p.fen(), p.key()), (parse::<Chess>(fen).fen(), key));
    }
    // A King step and a castling to the same square: b1c1 is the step (python-chess too).
    let mut p = pos("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", OFF);
    play_plies(&mut p, "b1c1");
    assert_eq!(p.fen(), "rk5r/8/8/8/8/8/8/R1K4R b kq - 1 1");
}

#[test]
fn tokens_follow_uci_chess960() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let after = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4";
    // Orthodox tokens by default; King-takes-Rook with UCI_Chess960.
    assert_eq!(castlings(&pos(fen, OFF)), vec!["e1g1"]);
    assert_eq!(castlings(&pos(fen, ON)), vec!["e1h1"]);
    // Either spelling is read in both modes (it names no other move).
    for settings in [OFF, ON] {
        for token in ["e1g1", "e1h1"] {
            let mut p = pos(fen, settings);
            play_plies(&mut p, token);
            assert_eq!(p.fen(), after, "{token} with {settings:?}");
        }
    }
    // A castling that is not orthodox keeps King-takes-Rook without UCI_Chess960: `b1c1`
    // would be the King's step, the castling to c1 is `b1a1`.
    let p = pos("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", OFF);
    assert_eq!(castlings(&p), vec!["b1a1", "b1h1"]);
    assert!(ply_tokens(&p).contains(&"b1c1".to_string()));
    assert_eq!(
        p.parse_move("b1g1"),
        p.parse_move("b1h1"),
        "lenient King-to-g1"
    );
    // King b1, h-side Rook c1: `b1c1` is that castling (the a-side one is blocked by it).
    let p = pos("4k3/8/8/8/8/8/8/RKR5 w KQ - 0 1", ON);
    assert_eq!(castlings(&p), vec!["b1c1"]);
    let m = p.parse_move("b1c1").unwrap();
    assert_eq!(p.move_token(m), "b1c1");
    assert!(matches!(p.parse_move("b1d1"), Err(MoveError::Illegal(_))));
}

#[test]
fn every_start_position_plays_with_unique_tokens_and_exact_unmake() {
    // FEN fields in both spellings agree; random playouts from every 960 start keep the
    // incremental key exact, unmake restores FEN and key, and tokens are unique and read
    // back, in both notations.
    let mut playout = Playout::new(960, 60);
    let mut castled = 0;
    for n in 0..960 {
        let fen = start960(n);
        let p: Chess = parse(&fen);
        assert_eq!(p.fen(), fen, "start {n}");
        let files: Vec<usize> = fen
            .split('/')
            .nth(7)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .char_indices()
            .filter(|&(_, c)| c == 'R')
            .map(|(i, _)| i)
            .collect();
        let shredder: String = [files[1], files[0]]
            .iter()
            .map(|&f| (b'A' + f as u8) as char)
            .collect();
        let shredder = format!("{shredder}{}", shredder.to_ascii_lowercase());
        let q: Chess = parse(&fen.replace("KQkq", &shredder));
        assert_eq!(
            (q.fen(), q.key()),
            (p.fen(), p.key()),
            "start {n}: {shredder}"
        );

        let settings = if n % 2 == 0 { ON } else { OFF };
        let mut p = pos(&fen, settings);
        let mut history: Vec<(String, u64)> = Vec::new();
        playout.run(&mut p, |p, at| {
            if let Some(m) = at.last {
                assert_eq!(
                    p.key(),
                    p.compute_key(),
                    "after {m:?} in {}",
                    history.last().unwrap().0
                );
            }
            let list = at.legal;
            if at.at_end {
                return Next::Stop;
            }
            let mut seen = HashSet::new();
            for &m in list.iter() {
                let t = p.move_token(m);
                assert!(seen.insert(t.clone()), "duplicate {t} in {}", p.fen());
                assert_eq!(p.parse_move(&t), Ok(m), "{t} in {}", p.fen());
            }
            if n % 40 == 0 {
                assert_make_unmake(p, list, Chess::compute_key, |_| {});
            }
            history.push((p.fen(), p.key()));
            let castles: Vec<_> = list
                .iter()
                .filter(|m| m.kind() == MoveKind::Castle)
                .collect();
            if !castles.is_empty() && at.rng.below(2) == 0 {
                castled += 1;
                Next::Play(*castles[at.rng.below(castles.len() as u64) as usize])
            } else {
                Next::Random
            }
        });
        while let Some((fen, key)) = history.pop() {
            p.unmake();
            assert_eq!((p.fen(), p.key()), (fen, key), "start {n}");
        }
    }
    assert!(castled > 500, "the playouts castled {castled} times");
}

/// The engine as python-chess drives a Chess960 board: `UCI_Chess960 true`, `position fen`
/// with the start position, castling sent and received King-takes-Rook.
#[test]
fn protocol_plays_chess960_as_python_chess_does() {
    let mut e = Engine::start();
    assert!(e
        .command("setoption name UCI_Chess960 value true")
        .is_empty());
    // Castling through `moves`, as python-chess's board.uci() writes it.
    e.send("position fen rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1 moves b1h1 b8a8");
    assert_eq!(e.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    e.send("position fen 1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1 moves g1h1");
    assert_eq!(e.fen(), "1r4kr/8/8/8/8/8/8/1R3RK1 b kq - 1 1");
    // Black's b-side castling would cross f8, which the f1 Rook attacks.
    let moves = e.command("moves");
    assert!(
        moves[0].contains(" g8h8") && !moves[0].contains(" g8b8"),
        "{moves:?}"
    );
    // Perft divide lists the King-takes-Rook tokens.
    e.send("position fen rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
    let out = e.go_perft(1);
    assert!(out.iter().any(|l| l == "b1a1: 1") && out.iter().any(|l| l == "b1h1: 1"));
    // The orthodox start (what `position startpos` is with UCI_Chess960 on): castling e1h1.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1");
    assert_eq!(
        e.fen(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    );
    // A search answers with a legal token of the Chess960 notation.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    e.send(&format!("position fen {fen}"));
    let best = bestmove(&e.go("go depth 4", SEARCH));
    assert!(ply_tokens(&pos(fen, ON)).contains(&best), "{best}");
    // A castling that is the best move is sent King-takes-Rook.
    e.send("position fen 4k3/8/8/8/8/8/8/q1RK3R w HC - 0 1 moves d1h1 a1a2");
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/q7/2R2RK1 w - - 2 2");
    // Back to false: orthodox tokens for the orthodox castling.
    assert!(e
        .command("setoption name UCI_Chess960 value false")
        .is_empty());
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6");
    let moves = e.command("moves");
    assert!(
        moves[0].contains(" e1g1") && !moves[0].contains("e1h1"),
        "{moves:?}"
    );
}

#[test]
fn variants_without_chess960_refuse_it_and_keep_their_state() {
    let mut e = Engine::start_variant("muster");
    let out = e.command("setoption name UCI_Chess960 value true");
    assert_eq!(
        out.iter()
            .filter(|l| l.starts_with("info string error"))
            .count(),
        1,
        "{out:?}"
    );
    assert!(out
        .iter()
        .any(|l| l.contains("UCI_Chess960 is not supported by muster")));
    // Turning it off is always fine.
    assert!(e
        .command("setoption name UCI_Chess960 value false")
        .is_empty());
    // Chess960 on, then a variant that does not support it: it is turned off, with a note.
    let mut e = Engine::start();
    assert!(e
        .command("setoption name UCI_Chess960 value true")
        .is_empty());
    let out = e.command("setoption name UCI_Variant value mystic");
    assert!(
        out.iter().any(|l| l.contains("UCI_Chess960 is now false")),
        "{out:?}"
    );
    // Back in chess the option is off: orthodox tokens.
    e.command("setoption name UCI_Variant value chess");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6");
    assert!(e.command("moves")[0].contains(" e1g1"));
}

#[test]
fn a_malformed_chess960_fen_changes_nothing() {
    let mut e = Engine::start();
    e.command("setoption name UCI_Chess960 value true");
    e.send("position fen rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
    let before = e.fen();
    let out = e.command("position fen rk5r/8/8/8/8/8/8/RK5R w KQkqX - 0 1");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("info string error bad FEN: castling"),
        "{out:?}"
    );
    assert_eq!(e.fen(), before);
}
