//! Orthodox chess rules (FIDE Laws): FEN, move tokens, make/unmake, and every way a game ends.

use menagerie::core::MoveList;
use menagerie::variants::chess::{Chess, Move, START_FEN};
use menagerie::variants::orthodox::MoveKind;
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::Scope;
use menagerie::variants::{adjudicated_outcome, claimable_draw, game_outcome};
use menagerie::variants::{Evaluation, FenError, GameResult, MoveError, Notation, Rules, Terminal};

fn pos(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(p: &Chess) -> Vec<String> {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    let mut v: Vec<String> = l.iter().map(|&m| p.move_token(m)).collect();
    v.sort();
    v
}

fn play(p: &mut Chess, tokens: &str) {
    for t in tokens.split_whitespace() {
        let m = p.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        p.make(m);
    }
}

#[test]
fn fen_round_trips() {
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4k3/8/8/8/8/8/8/4K3 b - - 99 120",
    ] {
        assert_eq!(pos(fen).fen(), fen);
    }
}

#[test]
fn en_passant_field_is_canonical() {
    // After 1.e4 no black pawn can capture on e3: the field is dropped, as Stockfish prints it.
    let mut p = Chess::startpos();
    play(&mut p, "e2e4");
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let q = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(q.key(), p.key(), "same position, same key");
}

#[test]
fn bad_fens_name_the_field() {
    let cases: &[(&str, &str)] = &[
        ("", "fen"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board"),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board",
        ),
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board",
        ),
        (
            "rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board",
        ),
        (
            "Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "board",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "en passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            "en passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove clock",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "fullmove number",
        ),
        ("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "position"),
    ];
    for &(fen, field) in cases {
        match Chess::from_fen(fen) {
            Err(FenError { field: f, reason }) => {
                assert_eq!(f, field, "{fen}: {reason}");
                assert!(!reason.is_empty());
            }
            Ok(_) => panic!("accepted bad FEN {fen}"),
        }
    }
}

#[test]
fn move_tokens_parse_back_and_are_unique() {
    // 3000 positions of playouts from the start, one after the other (a new one when a game
    // ends).
    let mut playout = Playout::new(42, usize::MAX);
    let (mut checked, mut positions) = (0, 0);
    while positions < 3000 {
        let mut p = Chess::startpos();
        playout.run(&mut p, |p, at| {
            if positions == 3000 {
                return Next::Stop;
            }
            positions += 1;
            if at.legal.is_empty() || p.halfmove_clock() >= 100 {
                return Next::Stop;
            }
            let mut tokens: Vec<String> = Vec::new();
            for &m in at.legal.iter() {
                let t = p.move_token(m);
                assert_eq!(p.parse_move(&t), Ok(m), "{t} in {}", p.fen());
                tokens.push(t);
            }
            let n = tokens.len();
            tokens.sort();
            tokens.dedup();
            assert_eq!(tokens.len(), n, "tokens unique in {}", p.fen());
            checked += n;
            Next::Random
        });
    }
    assert!(checked > 50_000);
}

#[test]
fn malformed_and_illegal_tokens() {
    let p = Chess::startpos();
    assert!(matches!(p.parse_move("e2e5"), Err(MoveError::Illegal(_))));
    assert!(matches!(
        p.parse_move("e2"),
        Err(MoveError::Malformed { .. })
    ));
    assert!(matches!(
        p.parse_move("e2e4x"),
        Err(MoveError::Malformed { .. })
    ));
    assert!(matches!(
        p.parse_move("z2e4"),
        Err(MoveError::Malformed { .. })
    ));
    assert!(matches!(
        p.parse_move("é2e4"),
        Err(MoveError::Malformed { .. })
    ));
    assert!(matches!(p.parse_move("e7e5"), Err(MoveError::Illegal(_))));
}

/// Over thousands of random playout plies, unmake restores FEN and key exactly, and the
/// incremental key equals the key computed from scratch.
#[test]
fn make_unmake_property() {
    let mut playout = Playout::new(7, 200);
    for game in 0..60 {
        let mut p = if game % 2 == 0 {
            Chess::startpos()
        } else {
            pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        };
        let mut fens = vec![p.fen()];
        let mut keys = vec![p.key()];
        playout.run(&mut p, |p, at| {
            if at.last.is_some() {
                // The FEN printed and re-read gives the same key.
                assert_eq!(
                    Chess::from_fen(&p.fen()).unwrap().key(),
                    p.key(),
                    "{}",
                    p.fen()
                );
                fens.push(p.fen());
                keys.push(p.key());
            }
            if at.legal.is_empty() {
                return Next::Stop;
            }
            // Every move: make, check the key, unmake, check restoration.
            for &m in at.legal.iter() {
                p.make(m);
                assert_eq!(
                    p.key(),
                    p.compute_key(),
                    "incremental key after {}",
                    p.fen()
                );
                p.unmake();
                assert_eq!(p.fen(), *fens.last().unwrap());
                assert_eq!(p.key(), *keys.last().unwrap());
            }
            Next::Random
        });
        while fens.len() > 1 {
            p.unmake();
            fens.pop();
            keys.pop();
            assert_eq!(p.fen(), *fens.last().unwrap());
            assert_eq!(p.key(), *keys.last().unwrap());
        }
    }
}

/// `Rules::gives_check` (asked by the search before it prunes a ply) must agree with
/// `in_check` after the ply is made, and must answer for every ply but castling and en passant.
#[test]
fn gives_check_matches_in_check_after_make() {
    let mut playout = Playout::new(11, 120);
    let (mut checks, mut answered) = (0, 0);
    for game in 0..80 {
        let mut p = match game % 4 {
            0 => Chess::startpos(),
            1 => pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
            // Promotions next to the King, sliders behind a knight, castling that checks.
            2 => pos("4k3/1P4P1/8/4N3/8/2B5/8/R3K2R w KQ - 0 1"),
            _ => pos("1r2k2r/2P5/8/3pP3/8/2b5/4R3/R3K1B1 w Qk d6 0 1"),
        };
        playout.run(&mut p, |p, at| {
            for &m in at.legal.iter() {
                let hint = p.gives_check(m);
                p.make(m);
                let check = p.in_check();
                p.unmake();
                checks += usize::from(check);
                match hint {
                    Some(h) => {
                        answered += 1;
                        assert_eq!(h, check, "{}: {}", p.fen(), p.move_token(m));
                    }
                    None => assert!(
                        matches!(m.kind(), MoveKind::Castle | MoveKind::EnPassant),
                        "no answer for {} in {}",
                        p.move_token(m),
                        p.fen()
                    ),
                }
            }
            Next::Random
        });
    }
    assert!(
        checks > 500 && answered > 10_000,
        "{checks} checks, {answered} answered"
    );
    // A discovered check (the rook behind the knight), a check by promotion, a quiet ply.
    let p = pos("4k3/6P1/8/8/8/8/4N3/4R1K1 w - - 0 1");
    let hint = |t: &str| p.gives_check(p.parse_move(t).unwrap());
    assert_eq!(hint("e2c3"), Some(true));
    assert_eq!(hint("g7g8q"), Some(true));
    assert_eq!(hint("g7g8n"), Some(false));
    assert_eq!(hint("g1h1"), Some(false));
}

#[test]
fn castling_rules() {
    // Through an attacked square (f1 by the rook on f8): no king-side castling.
    let p = pos("3k1r2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let l = legal(&p);
    assert!(!l.contains(&"e1g1".to_string()));
    assert!(l.contains(&"e1c1".to_string()));
    // Out of check: none.
    let p = pos("3kr3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!legal(&p).iter().any(|t| t == "e1g1" || t == "e1c1"));
    // b1 attacked does not matter for queen-side castling; b1 occupied does.
    let p = pos("1r1k4/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(legal(&p).contains(&"e1c1".to_string()));
    let p = pos("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    assert!(!legal(&p).contains(&"e1c1".to_string()));
    // Moving the rook loses that right only; the king-side move puts the rook on f1.
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut p, "a1a2");
    assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/R7/4K2R b Kkq - 1 1");
    play(&mut p, "e8g8");
    assert_eq!(p.fen(), "r4rk1/8/8/8/8/8/R7/4K2R w K - 2 2");
    // Capturing a rook on its home square removes the opponent's right.
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut p, "a1a8");
    assert_eq!(p.fen(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    // The Chess960-style token (king takes rook) is accepted as input.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.parse_move("e1h1"), p.parse_move("e1g1"));
}

#[test]
fn en_passant_rules() {
    let mut p = pos("4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1");
    play(&mut p, "a2a4");
    assert_eq!(p.fen(), "4k3/8/8/8/Pp6/8/8/4K3 b - a3 0 1");
    assert!(legal(&p).contains(&"b4a3".to_string()));
    play(&mut p, "b4a3");
    assert_eq!(p.fen(), "4k3/8/8/8/8/p7/8/4K3 w - - 0 2");
    // Only on the very next move.
    let mut p = pos("4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1");
    play(&mut p, "a2a4 e8d8 e1d1");
    assert!(!legal(&p).contains(&"b4a3".to_string()));
    // Horizontal pin through both pawns: the capture would expose the King on the rank.
    let p = pos("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert!(!legal(&p).contains(&"e5d6".to_string()));
    // En passant that removes a checking pawn.
    let p = pos("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(legal(&p).contains(&"e4d3".to_string()));
}

#[test]
fn promotion_rules() {
    let mut p = pos("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let l = legal(&p);
    for t in ["a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8n"] {
        assert!(l.contains(&t.to_string()), "{t}");
    }
    assert!(!l.contains(&"a7a8".to_string()));
    assert!(p.parse_move("a7a8").is_err(), "promotion needs its letter");
    play(&mut p, "a7b8n");
    assert_eq!(p.fen(), "1N2k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn pins_and_checks() {
    // A pinned knight cannot move; a pinned rook moves along the pin line only.
    let p = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    assert!(!legal(&p).iter().any(|t| t.starts_with("e2")));
    let p = pos("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1");
    let l = legal(&p);
    assert!(l.contains(&"e2e7".to_string()) && l.contains(&"e2e5".to_string()));
    assert!(!l.contains(&"e2d2".to_string()));
    // Double check: only King moves.
    let p = pos("4k3/8/8/8/8/5n2/8/R3K2r w - - 0 1");
    assert!(legal(&p).iter().all(|t| t.starts_with("e1")));
}

#[test]
fn checkmate_and_stalemate() {
    // Fool's mate.
    let mut p = Chess::startpos();
    play(&mut p, "f2f3 e7e5 g2g4 d8h4");
    assert!(p.in_check());
    assert!(legal(&p).is_empty());
    assert_eq!(p.no_moves_verdict().terminal, Terminal::Loss);
    let o = game_outcome(&p).unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::BlackWins, "checkmate")
    );
    // Stalemate.
    let p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(legal(&p).is_empty() && !p.in_check());
    assert_eq!(p.no_moves_verdict().terminal, Terminal::Draw);
    let o = game_outcome(&p).unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::Draw, "stalemate")
    );
}

#[test]
fn fifty_move_rule_is_claimed_and_the_75_move_rule_ends_the_game() {
    // FIDE 9.3: after 50 moves of each player without a pawn move or a capture the draw can be
    // claimed; the game goes on.
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert!(game_outcome(&p).is_none() && claimable_draw(&p).is_none());
    let mut p2 = p.clone();
    play(&mut p2, "a1a2");
    assert_eq!(
        game_outcome(&p2),
        None,
        "the 50-move rule only lets a player claim"
    );
    assert_eq!(claimable_draw(&p2), Some("fifty-move rule"));
    let o = adjudicated_outcome(&p2).unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::Draw, "fifty-move rule")
    );
    assert!(
        p2.verdict(Scope::Search(1)).is_some(),
        "the search still scores it a draw"
    );
    // FIDE 9.6.2: 75 moves of each player end the game by themselves.
    let mut p75 = pos("4k3/8/8/8/8/8/8/R3K3 w - - 149 120");
    assert!(game_outcome(&p75).is_none());
    play(&mut p75, "a1a2");
    let o = game_outcome(&p75).unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::Draw, "seventy-five-move rule")
    );
    // ... unless the last move mated (FIDE 9.6.2).
    let mut mate = pos("k7/8/1K6/8/8/8/8/7R w - - 149 120");
    play(&mut mate, "h1h8");
    assert_eq!(game_outcome(&mate).unwrap().reason, "checkmate");
    // A pawn move resets the clock.
    let mut p3 = pos("4k3/8/8/8/8/8/P7/4K3 w - - 99 80");
    play(&mut p3, "a2a3");
    assert!(game_outcome(&p3).is_none());
    // Checkmate on the hundredth half-move counts as mate (FIDE 9.3).
    let mut p4 = pos("k7/8/1K6/8/8/8/8/7R w - - 99 80");
    play(&mut p4, "h1h8");
    assert_eq!(game_outcome(&p4).unwrap().reason, "checkmate");
    assert!(p4.verdict(Scope::Search(1)).is_none());
}

#[test]
fn threefold_repetition_is_claimed_and_fivefold_ends_the_game() {
    // FIDE 9.2: the third occurrence lets a player claim; the game goes on.
    let mut p = Chess::startpos();
    play(&mut p, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert!(
        claimable_draw(&p).is_none(),
        "the start position has occurred twice only"
    );
    play(&mut p, "f6g8");
    assert_eq!(
        game_outcome(&p),
        None,
        "threefold repetition only lets a player claim"
    );
    assert_eq!(claimable_draw(&p), Some("threefold repetition"));
    assert_eq!(
        adjudicated_outcome(&p).map(|o| (o.result, o.reason)),
        Some((GameResult::Draw, "threefold repetition".to_string()))
    );
    // FIDE 9.6.1: the fifth occurrence ends the game by itself.
    play(&mut p, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert_eq!(game_outcome(&p), None, "four occurrences");
    play(&mut p, "f6g8");
    let o = game_outcome(&p).unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::Draw, "fivefold repetition")
    );
    // Inside the search, a single repetition after the root is a draw.
    let mut q = Chess::startpos();
    play(&mut q, "g1f3 g8f6 f3g1 f6g8");
    assert!(q.verdict(Scope::Search(4)).is_some());
    assert!(
        q.verdict(Scope::Search(3)).is_none(),
        "a repeat before the root needs three occurrences"
    );
}

#[test]
fn insufficient_material() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KB2 b - - 0 1",
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
    ] {
        let p = pos(fen);
        assert_eq!(
            game_outcome(&p).map(|o| o.reason),
            Some("insufficient material".to_string()),
            "{fen}"
        );
    }
    for fen in [
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1",
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
    ] {
        assert!(game_outcome(&pos(fen)).is_none(), "{fen}");
    }
}

#[test]
fn null_move_switch() {
    let mut p = Chess::startpos();
    assert!(p.make_null());
    p.unmake();
    let mut p = pos("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    let before = p.fen();
    assert!(!p.make_null(), "pawn endings are zugzwang-prone");
    assert_eq!(p.fen(), before, "a refused null move changes nothing");
    let mut p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let key = p.key();
    assert!(p.make_null());
    assert_eq!(p.side_to_move(), menagerie::core::Color::Black);
    assert_ne!(p.key(), key);
    p.unmake();
    assert_eq!(p.key(), key);
    let _ = Move::NULL;
}

/// `Evaluation::cont_code` (continuation-history keys): the moving piece and the destination
/// square, whatever the origin, in 1..=1023, and different for a different piece or square.
#[test]
fn continuation_codes_name_the_piece_and_the_square() {
    let code = |p: &Chess, t: &str| p.cont_code(p.parse_move(t).unwrap()).unwrap();
    let p = pos("4k3/8/8/8/8/7n/8/1N1NK3 w - - 0 1");
    assert_eq!(code(&p, "b1c3"), code(&p, "d1c3"));
    assert_ne!(code(&p, "b1c3"), code(&p, "b1a3"));
    assert_ne!(code(&p, "b1c3"), code(&p, "e1d2"));
    let black = pos("4k3/8/8/8/8/7n/8/1N1NK3 b - - 0 1");
    assert_ne!(code(&black, "h3f2"), code(&p, "d1f2"));
    // Distinct (piece, square) pairs never share a code, and every code is in range.
    let mut seen = std::collections::HashMap::new();
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    ] {
        let p = pos(fen);
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        for &m in l.iter() {
            let c = p.cont_code(m).unwrap();
            assert!((1..=1023).contains(&c), "{fen} {}: {c}", p.move_token(m));
            let token = p.move_token(m);
            let what = (
                p.fen().split(' ').nth(1).unwrap().to_owned(),
                token[..2].to_owned(),
            );
            let key = (p.board().piece_at(m.from()), m.to());
            if let Some((k, _)) = seen.get(&c) {
                assert_eq!(*k, key, "code {c} shared ({what:?})");
            }
            seen.insert(c, (key, what));
        }
    }
}

/// The quiet-history context of a ply (`Evaluation::history_context`): bit 0 when its origin is
/// attacked by an enemy pawn, bit 1 when its destination is, for either side to move.
#[test]
fn history_context_marks_squares_attacked_by_enemy_pawns() {
    // Black pawns d5 and g7 attack c4, e4, f6 and h6; the white pawn on b2 attacks a3, c3.
    let p = pos("4k3/6p1/8/3p4/4N3/8/1P6/4K3 w - - 0 1");
    let ctx = |p: &Chess, t: &str| p.history_context(p.parse_move(t).unwrap());
    assert_eq!(ctx(&p, "e4c3"), 1, "escapes the d5 pawn");
    assert_eq!(ctx(&p, "e4f6"), 3, "from one pawn's attack into another's");
    assert_eq!(ctx(&p, "e4g5"), 1);
    assert_eq!(ctx(&p, "e1f2"), 0, "nothing attacked");
    assert_eq!(ctx(&p, "b2b3"), 0);
    // Black to move: White's pawn b2 attacks c3; the pawn on a3 would not be attacked.
    let p = pos("4k3/8/8/8/8/8/1P3n2/4K3 b - - 0 1");
    assert_eq!(ctx(&p, "f2d3"), 0);
    let q = pos("4k3/8/8/8/8/8/1P6/1n2K3 b - - 0 1");
    assert_eq!(ctx(&q, "b1c3"), 2, "into the b2 pawn's attack");
    assert_eq!(ctx(&q, "b1a3"), 2, "a3 is attacked by b2 too");
    assert_eq!(ctx(&q, "b1d2"), 0);
}
