//! Each game's own notation (docs/rules/*.md "Notation"), as `Notation::pgn_move` writes it
//! and `turn::read_pgn_ply` reads it back: along seeded random playouts of every variant, from
//! its start, its random setups and its bench positions, every legal ply of every position has
//! a notation of its own, and reading it back gives the ply; and hand-checked forms of each
//! orthodox variant and of Mulligan Stew.

use menagerie::variants::chess::Chess;
use menagerie::variants::game_outcome;
use menagerie::variants::mulligan_stew::MulliganStew;
use menagerie::variants::muster::Muster;
use menagerie::variants::mystic::Mystic;
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::turn::{normalize_pgn, read_pgn_ply};
use menagerie::variants::{Game, Notation, PlyList, Rules, Variant};

/// Checks every position of `games` random playouts of `G` of at most `plies` plies; returns
/// how many positions were checked.
fn round_trip<G: Game>(games: u64, plies: usize) -> usize {
    let mut starts: Vec<G> = vec![G::startpos()];
    starts.extend((0..3).filter_map(G::random_setup));
    starts.extend(
        G::SEARCH
            .bench_fens
            .iter()
            .map(|f| G::from_fen(f).expect("bench FEN")),
    );
    let mut playout = Playout::new(79, plies);
    let mut checked = 0;
    for game in 0..games {
        let mut pos = starts[game as usize % starts.len()].clone();
        playout.run(&mut pos, |pos, at| {
            let list = at.legal;
            if at.at_end || game_outcome(pos).is_some() {
                return Next::Stop;
            }
            let mut written: Vec<String> = list
                .iter()
                .map(|&m| normalize_pgn(&pos.pgn_move(m)))
                .collect();
            for &m in list.iter() {
                let text = pos.pgn_move(m);
                assert_eq!(
                    read_pgn_ply(pos, &text),
                    Ok(m),
                    "{}: '{text}' ({}) in {}",
                    G::INFO.name,
                    pos.move_token(m),
                    pos.fen()
                );
            }
            written.sort();
            let n = written.len();
            written.dedup();
            assert_eq!(
                written.len(),
                n,
                "{}: two plies written alike in {}",
                G::INFO.name,
                pos.fen()
            );
            checked += 1;
            Next::Play(list[(at.rng.next_u64() % list.len() as u64) as usize])
        });
    }
    checked
}

#[test]
fn every_ply_of_every_variant_reads_back_from_its_notation() {
    for &v in Variant::ALL {
        let checked = menagerie::with_variant!(v, G => round_trip::<G>(24, 60));
        assert!(checked > 500, "{}: {checked} positions", v.name());
    }
}

fn written<G: Game>(fen: &str, tokens: &[&str]) -> Vec<String> {
    let mut pos = G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut out = Vec::new();
    for t in tokens {
        let m = pos
            .parse_move(t)
            .unwrap_or_else(|e| panic!("{t} in {}: {e}", pos.fen()));
        out.push(pos.pgn_move(m));
        pos.make(m);
    }
    out
}

#[test]
fn chess_sans() {
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(written::<Chess>(kiwi, &["e1g1"]), ["O-O"]);
    assert_eq!(written::<Chess>(kiwi, &["e1c1", "e8g8"]), ["O-O-O", "O-O"]);
    assert_eq!(written::<Chess>(kiwi, &["e5f7"]), ["Nxf7"]);
    assert_eq!(
        written::<Chess>("2k5/8/8/8/1Q5Q/8/K7/7Q w - - 0 1", &["h4e1"]),
        ["Qh4e1"]
    );
}

#[test]
fn muster_castles_and_sans() {
    // rules/muster.md 5.2: d=3 and d=4 are FIDE's castlings; vertical castling is the King's
    // move, which no ordinary King move matches.
    let fide = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(written::<Muster>(fide, &["e1g1"]), ["O-O"]);
    assert_eq!(written::<Muster>(fide, &["e1c1"]), ["O-O-O"]);
    // A King on e1 and its Rook on e4 (d=3): the King goes two squares up the file, to e3;
    // one step up is an ordinary King move.
    let vertical = "k7/8/8/8/4R3/8/8/4K3 w e4 - 0 1";
    assert_eq!(written::<Muster>(vertical, &["e1e3"]), ["Ke3"]);
    assert_eq!(written::<Muster>(vertical, &["e1e2"]), ["Ke2"]);
    assert_eq!(
        written::<Muster>(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["g1f3", "b8c6"]
        ),
        ["Nf3", "Nc6"]
    );
}

#[test]
fn mystic_purchases_upgrades_and_sans() {
    // rules/mystic.md 5: `@e2` buys a Pawn, `B@e2` upgrades the piece on e2 to a Bishop.
    let start = Mystic::startpos().fen();
    // rules/mystic.md 7: upgrades come after three purchases; 7.Qa8+ checks.
    let tokens = "P@d2 P@d7 P@e2 P@f7 P@f3 P@e6 f3f3b e6e6b f3f3r e6e6r f3f3q f7f7b f3a8";
    let tokens: Vec<&str> = tokens.split_whitespace().collect();
    assert_eq!(
        written::<Mystic>(&start, &tokens),
        [
            "@d2", "@d7", "@e2", "@f7", "@f3", "@e6", "B@f3", "B@e6", "R@f3", "R@e6", "Q@f3",
            "B@f7", "Qa8+"
        ]
    );
}

#[test]
fn mulligan_stew_portions() {
    // docs/rules/mulligan-stew.md "Notation": the Mage's drop as a move, pieces by their
    // letters.
    let start = MulliganStew::startpos().fen();
    assert_eq!(
        written::<MulliganStew>(&start, &["M@b3", "c1c3", "e6e5", "f6f5"]),
        ["Mb3", "Kc3", "e5", "f5"]
    );
}

/// python-chess's SAN of every legal move of orthodox positions (tests/data/san-reference.txt,
/// made by scripts/san_reference.py): `(fen, [(token, san)])`.
fn san_reference() -> Vec<(String, Vec<(String, String)>)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/san-reference.txt"
    ))
    .expect("the SAN reference");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (fen, moves) = l.split_once(" | ").expect("fen | moves");
            let moves = moves
                .split_whitespace()
                .map(|w| {
                    let (t, s) = w.split_once('=').expect("token=san");
                    (t.to_string(), s.to_string())
                })
                .collect();
            (fen.to_string(), moves)
        })
        .collect()
}

#[test]
fn chess_san_is_python_chess_san() {
    let mut compared = 0;
    for (fen, moves) in san_reference() {
        let pos = Chess::from_fen(&fen).unwrap();
        let mut list = PlyList::<menagerie::variants::orthodox::Move>::default();
        pos.legal_moves(&mut list);
        assert_eq!(list.len(), moves.len(), "{fen}");
        for (token, san) in &moves {
            let m = pos
                .parse_move(token)
                .unwrap_or_else(|e| panic!("{token} in {fen}: {e}"));
            assert_eq!(&pos.pgn_move(m), san, "{token} in {fen}");
            compared += 1;
        }
    }
    assert!(compared > 10_000, "{compared} moves");
}

#[test]
fn muster_san_of_orthodox_turns_is_python_chess_san() {
    // Muster's turns in orthodox positions: the reference's moves that are Muster's too (its
    // castling from the corners is FIDE's, rules/muster.md 5.2).
    let mut compared = 0;
    for (fen, moves) in san_reference() {
        let Ok(pos) = Muster::from_fen(&fen) else {
            continue;
        };
        for (token, san) in &moves {
            if let Ok(m) = pos.parse_move(token) {
                assert_eq!(&pos.pgn_move(m), san, "{token} in {fen}");
                compared += 1;
            }
        }
    }
    assert!(compared > 10_000, "{compared} moves");
}
