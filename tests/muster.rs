//! Muster Chess (rules/muster.md): armies, the start position, generalised pawns and castling,
//! the FEN, the worked examples E1-E10b of section 8, the start-in-check rule (D3), and
//! make/unmake and token properties over random playouts.

use crate::common;
use menagerie::variants::game_outcome;

use common::game::{
    assert_make_unmake, assert_refused, assert_tokens_round_trip, assert_unwinds, legal_moves,
    parse, play_plies, ply_tokens, sorted_words,
};
use common::{assert_game_over, bestmove, Engine, SEARCH};
use menagerie::core::zobrist::SplitMix64;
use menagerie::core::Color;
use menagerie::perft::perft;
use menagerie::variants::chess::{Chess, Kind, MoveKind};
use menagerie::variants::muster::pregame::{choose, expected_score, propose};
use menagerie::variants::muster::{Army, Muster, START_FEN};
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::Scope;
use menagerie::variants::{Evaluation, GameResult, Notation, ProbeLimits, Rules};

fn pos(fen: &str) -> Muster {
    parse(fen)
}

fn placement(p: &Muster) -> String {
    p.fen().split(' ').next().unwrap().to_string()
}

fn castles(p: &Muster) -> Vec<String> {
    let l = legal_moves(p);
    let mut v: Vec<String> = l
        .iter()
        .filter(|m| m.kind() == MoveKind::Castle)
        .map(|&m| p.move_token(m))
        .collect();
    v.sort();
    v
}

// ---------------------------------------------------------------- section 8: worked examples

#[test]
fn e1_castling_in_four_directions() {
    // rules/muster.md 8 E1 (5.1, 5.2: horizontal both ways, vertical down (swap) and up).
    let p = pos("4k3/8/8/8/4R3/8/R3K2R/4R3 w e1a2h2e4 - 0 1");
    assert_eq!(ply_tokens(&p).len(), 49);
    assert_eq!(castles(&p), sorted_words("e2c2 e2g2 e2e1 e2e4"));
    for (token, after) in [
        ("e2c2", "4k3/8/8/8/4R3/8/2KR3R/4R3"),
        ("e2g2", "4k3/8/8/8/4R3/8/R4RK1/4R3"),
        ("e2e1", "4k3/8/8/8/4R3/8/R3R2R/4K3"),
        ("e2e4", "4k3/8/8/8/4K3/4R3/R6R/4R3"),
    ] {
        let mut q = p.clone();
        play_plies(&mut q, token);
        assert_eq!(placement(&q), after, "{token}");
        // 5.4: castling removes all of White's rights.
        assert!(q.fen().contains(" b - "), "{token}: {}", q.fen());
    }
}

#[test]
fn e2_adjacent_rooks_swap() {
    // rules/muster.md 8 E2 (5.2: d = 1 swaps King and rook).
    let p = pos("4k3/8/8/8/8/8/8/3RKR2 w d1f1 - 0 1");
    assert_eq!(
        ply_tokens(&p),
        sorted_words(
            "d1a1 d1b1 d1c1 d1d2 d1d3 d1d4 d1d5 d1d6 d1d7 d1d8 e1d1 e1d2 e1e2 e1f1 e1f2 \
             f1f2 f1f3 f1f4 f1f5 f1f6 f1f7 f1f8 f1g1 f1h1"
        )
    );
    assert_eq!(castles(&p), sorted_words("e1d1 e1f1"));
    let mut q = p.clone();
    play_plies(&mut q, "e1d1");
    assert_eq!(placement(&q), "4k3/8/8/8/8/8/8/3KRR2");
}

#[test]
fn e3_castling_over_seven_squares() {
    // rules/muster.md 8 E3 (5.2: d = 7, the King moves 3, the rook lands beside it).
    let p = pos("4k3/8/8/8/8/8/8/R6K w a1 - 0 1");
    assert_eq!(
        ply_tokens(&p),
        sorted_words(
            "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 a1e1 a1f1 a1g1 h1e1 h1g1 h1g2 h1h2"
        )
    );
    let mut q = p.clone();
    play_plies(&mut q, "h1e1");
    assert_eq!(placement(&q), "4k3/8/8/8/8/8/8/4KR2");
    // 5.3: the King-onto-rook alias names the same castling.
    assert_eq!(p.parse_move("h1a1"), p.parse_move("h1e1"));
}

#[test]
fn e3b_castling_over_six_squares() {
    // rules/muster.md 8 E3b (5.2: d = 6).
    let p = pos("4k3/8/8/8/8/8/8/1K5R w h1 - 0 1");
    assert_eq!(
        ply_tokens(&p),
        sorted_words(
            "b1a1 b1a2 b1b2 b1c1 b1c2 b1e1 h1c1 h1d1 h1e1 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8"
        )
    );
    let mut q = p.clone();
    play_plies(&mut q, "b1e1");
    assert_eq!(placement(&q), "4k3/8/8/8/8/8/8/3RK3");
}

#[test]
fn e4_castling_through_attacked_squares_is_illegal() {
    // rules/muster.md 8 E4 (5.1 condition 4: passed squares attacked now).
    let p = pos("4kr2/8/8/1b6/4R3/8/8/R3K2R w a1h1e4 - 0 1");
    assert_eq!(ply_tokens(&p).len(), 35);
    assert_eq!(castles(&p), vec!["e1c1".to_string()]);
}

#[test]
fn e5_pawns_on_the_first_rank() {
    // rules/muster.md 8 E5 (4.1: 1-3 squares from rank 1, never jumping; 2.2 D1).
    let p = pos("4k3/8/8/8/8/2n3P1/4P3/P1P1K3 w - - 0 1");
    assert_eq!(
        ply_tokens(&p),
        sorted_words("a1a2 a1a3 a1a4 c1c2 e1d2 e1f1 e1f2 e2e3 e2e4 g3g4")
    );
}

#[test]
fn e6_en_passant_on_both_passed_squares() {
    // rules/muster.md 8 E6 (4.3: x1 -> x4 makes x2 and x3 en passant squares).
    let mut p = pos("4k3/8/8/8/1p6/1p6/8/P3K3 w - - 0 1");
    play_plies(&mut p, "a1a4");
    assert_eq!(p.fen(), "4k3/8/8/8/Pp6/1p6/8/4K3 b - a2a3 0 1");
    assert_eq!(
        ply_tokens(&p),
        sorted_words("b3a2 b3b2 b4a3 e8d7 e8d8 e8e7 e8f7 e8f8")
    );
    // Both captures remove the pawn on a4, whatever the capturer's rank.
    for token in ["b3a2", "b4a3"] {
        let mut q = p.clone();
        play_plies(&mut q, token);
        assert_eq!(q.board().pieces(Color::White, Kind::Pawn), 0, "{token}");
    }
    // The FEN with the en passant field reproduces the same moves.
    assert_eq!(ply_tokens(&pos(&p.fen())), ply_tokens(&p));
}

#[test]
fn e7_en_passant_after_a_push_from_the_first_rank() {
    // rules/muster.md 8 E7 (4.3: x1 -> x3, capture on x2 removes the pawn on x3).
    let mut p = pos("4k3/8/8/8/8/1p6/8/P3K3 w - - 0 1");
    play_plies(&mut p, "a1a3");
    assert_eq!(p.fen(), "4k3/8/8/8/8/Pp6/8/4K3 b - a2 0 1");
    assert_eq!(
        ply_tokens(&p),
        sorted_words("b3a2 b3b2 e8d7 e8d8 e8e7 e8f7 e8f8")
    );
    play_plies(&mut p, "b3a2");
    assert_eq!(placement(&p), "4k3/8/8/8/8/8/p7/4K3");
}

#[test]
fn e8_black_pawn_from_its_first_rank_and_en_passant() {
    // rules/muster.md 8 E8, E8b (4.1 and 4.3 for Black).
    let mut p = pos("4k2p/8/6P1/6P1/8/8/8/4K3 b - - 0 1");
    assert_eq!(
        ply_tokens(&p),
        sorted_words("e8d7 e8d8 e8e7 e8f8 h8h5 h8h6 h8h7")
    );
    play_plies(&mut p, "h8h5");
    assert_eq!(p.fen(), "4k3/8/6P1/6Pp/8/8/8/4K3 w - h6h7 0 2");
    assert_eq!(
        ply_tokens(&p),
        sorted_words("e1d1 e1d2 e1e2 e1f1 e1f2 g5h6 g6g7 g6h7")
    );
    let mut q = p.clone();
    play_plies(&mut q, "g6h7");
    assert_eq!(placement(&q), "4k3/7P/8/6P1/8/8/8/4K3");
}

#[test]
fn e9_regular_start_is_orthodox() {
    // rules/muster.md 8 E9 and 2 (regular army), 5.4 (castling field).
    let p = Muster::startpos();
    assert_eq!(p.fen(), START_FEN);
    assert!(p.fen().contains(" a1h1a8h8 "));
    let orthodox = Chess::startpos();
    let ol = legal_moves(&orthodox);
    let mut ot: Vec<String> = ol.iter().map(|&m| orthodox.move_token(m)).collect();
    ot.sort();
    assert_eq!(ply_tokens(&p), ot);
    assert_eq!(ot.len(), 20);
    let from_armies =
        Muster::from_armies(&Army::regular(Color::White), &Army::regular(Color::Black));
    assert_eq!(from_armies.fen(), START_FEN);
}

#[test]
fn e10_check_after_the_rook_leaves() {
    // rules/muster.md 8 E10 (5.1 condition 4: the destination is tested after the move).
    let p = pos("4k3/8/8/8/8/8/8/4K1Rr w g1 - 0 1");
    assert_eq!(
        ply_tokens(&p),
        sorted_words("e1d1 e1d2 e1e2 e1f1 e1f2 g1f1 g1h1")
    );
    assert!(castles(&p).is_empty());
}

#[test]
fn e10b_vertical_castling_for_black() {
    // rules/muster.md 8 E10b (5.1 vertical, 5.2 d = 2: the King lands on the rook's square).
    let p = pos("4k3/8/4r3/8/8/8/8/K7 b e6 - 0 1");
    let t = ply_tokens(&p);
    assert_eq!(t.len(), 19);
    assert_eq!(castles(&p), vec!["e8e6".to_string()]);
    let mut q = p.clone();
    play_plies(&mut q, "e8e6");
    assert_eq!(q.fen(), "8/4r3/4k3/8/8/8/8/K7 w - - 1 2");
}

// ---------------------------------------------------------------- section 3 D3

#[test]
fn black_in_check_at_the_start_loses_at_once() {
    // rules/muster.md 3 D3: White wins at once when Black starts in check.
    let white = Army::parse(Color::White, "4Q3/8/8/4K3").unwrap();
    let black = Army::parse(Color::Black, "4k3/8/8/8").unwrap();
    let p = Muster::from_armies(&white, &black);
    let outcome = game_outcome(&p).expect("decided at once");
    assert_eq!(outcome.result, GameResult::WhiteWins);
    assert!(p.verdict(Scope::Wins).map(|v| v.terminal).is_some());
    // The same start given as a FEN.
    let q = pos(&p.fen());
    assert_eq!(
        game_outcome(&q).map(|o| o.result),
        Some(GameResult::WhiteWins)
    );
    // White in check at the start is an ordinary check (D3): Black's queen checks e1.
    let white = Army::parse(Color::White, "8/8/8/4K3").unwrap();
    let black = Army::parse(Color::Black, "4k3/8/8/4q3").unwrap();
    let p = Muster::from_armies(&white, &black);
    assert!(p.in_check());
    assert_eq!(game_outcome(&p), None);
    assert!(p.verdict(Scope::Wins).map(|v| v.terminal).is_none());
}

// ---------------------------------------------------------------- sections 2, 3: armies

#[test]
fn start_position_from_two_armies() {
    // rules/muster.md 3: placement <black>/<white>, White to move, rights per 5.4.
    let white = Army::parse(Color::White, "8/R3K3/PPPP1PPP/4R2R").unwrap();
    let black = Army::parse(Color::White, "RNBQKBNR/PPPPPPPP/8/8")
        .unwrap()
        .reflected();
    assert_eq!(black.half_fen(), "8/8/pppppppp/rnbqkbnr");
    let p = Muster::from_armies(&white, &black);
    // Rooks on e1 (King's file), a3 (King's rank) get rights; h1 does not.
    assert_eq!(
        p.fen(),
        "8/8/pppppppp/rnbqkbnr/8/R3K3/PPPP1PPP/4R2R w e1a3a5h5 - 0 1"
    );
}

// ---------------------------------------------------------------- section 4: pawns

#[test]
fn pawn_pushes_ignore_whether_the_pawn_moved() {
    // rules/muster.md 4.1: a pawn that reached rank 2 from rank 1 may still push two.
    let mut p = pos("4k3/8/8/8/8/8/8/P3K3 w - - 0 1");
    play_plies(&mut p, "a1a2 e8d8");
    assert!(ply_tokens(&p).contains(&"a2a4".to_string()));
    play_plies(&mut p, "a2a4");
    assert_eq!(p.fen(), "3k4/8/8/8/P7/8/8/4K3 b - a3 0 2");
    // From rank 3 and beyond: one square only.
    let p = pos("4k3/8/8/8/8/P7/8/4K3 w - - 0 1");
    assert!(!ply_tokens(&p).contains(&"a3a5".to_string()));
    // Never jumping: a blocker on a3 stops a1a4 and a1a3.
    let p = pos("4k3/8/8/8/8/n7/8/P3K3 w - - 0 1");
    let t = ply_tokens(&p);
    assert!(t.contains(&"a1a2".to_string()));
    assert!(!t.contains(&"a1a3".to_string()) && !t.contains(&"a1a4".to_string()));
}

#[test]
fn en_passant_lasts_one_move_and_respects_pins() {
    // rules/muster.md 4.3: the ep squares are valid for the next move only.
    let mut p = pos("4k3/8/8/8/1p6/1p6/8/P3K3 w - - 0 1");
    play_plies(&mut p, "a1a4 e8d8 e1d1");
    assert!(!ply_tokens(&p).contains(&"b4a3".to_string()));
    // 4.3 legality by the whole move: removing the pushed pawn may open a line to the King.
    let mut exposed = pos("8/8/8/8/R1p4k/8/8/1P2K3 w - - 0 1");
    play_plies(&mut exposed, "b1b4");
    // c4xb3 removes b4: the rook a4 then attacks h4 through b4..g4.
    assert!(!ply_tokens(&exposed).contains(&"c4b3".to_string()));
    let mut open = pos("8/8/8/8/2p4k/8/8/1P2K3 w - - 0 1");
    play_plies(&mut open, "b1b4");
    assert!(ply_tokens(&open).contains(&"c4b3".to_string()));
}

#[test]
fn promotion_and_captures_from_the_first_rank() {
    // rules/muster.md 4.2, 4.4: a rank-1 pawn captures diagonally forward; promotion on rel 8.
    let p = pos("4k3/8/8/8/8/8/1n6/P3K3 w - - 0 1");
    assert!(ply_tokens(&p).contains(&"a1b2".to_string()));
    let p = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let t = ply_tokens(&p);
    for s in ["b7b8q", "b7b8r", "b7b8b", "b7b8n"] {
        assert!(t.contains(&s.to_string()));
    }
}

// ---------------------------------------------------------------- section 5: castling

#[test]
fn castling_rights_follow_rooks_and_kings() {
    // rules/muster.md 5.4: moving or capturing a rook removes its right; a King move all.
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w a1h1a8h8 - 0 1");
    play_plies(&mut p, "a1a8");
    assert_eq!(p.fen(), "R3k2r/8/8/8/8/8/8/4K2R b h1h8 - 0 1");
    play_plies(&mut p, "e8e7");
    assert_eq!(p.fen(), "R6r/4k3/8/8/8/8/8/4K2R w h1 - 1 2");
    // A promoted rook gets no right.
    let mut p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    play_plies(&mut p, "a7a8r e8d7");
    assert!(p.fen().contains(" w - "));
    // Entries that name no Rook, or a Rook off its King's rank and file,
    // are refused (the specification ignored them; rules/muster.md, known differences).
    for (fen, why) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w b1 - 0 1",
            "castling: a right on b1, which holds no Rook",
        ),
        (
            "4k3/8/8/8/8/8/1R6/4K2R w b2h1 - 0 1",
            "castling: a right on b2, whose Rook is not on its King's rank or file",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w h1a8 - 0 1",
            "castling: a right on a8, which holds no Rook",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1",
            "castling: a right on h1, which holds no Rook",
        ),
    ] {
        let e = Muster::from_fen(fen)
            .err()
            .unwrap_or_else(|| panic!("accepted: {fen}"));
        assert_eq!(e.to_string(), format!("bad FEN: {why}"), "{fen}");
    }
    let p = pos("4k3/8/8/8/8/8/1R6/4K2R w h1 - 0 1");
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/1R6/4K2R w h1 - 0 1");
}

#[test]
fn only_the_nearest_rook_castles_and_not_through_pieces() {
    // rules/muster.md 5.1 condition 3 and 5.2 (at most one castling per direction).
    let p = pos("4k3/8/8/8/8/8/8/RN2K1NR w a1h1 - 0 1");
    assert!(castles(&p).is_empty());
    let p = pos("4k3/8/8/8/8/8/8/RR2K3 w a1b1 - 0 1");
    assert_eq!(castles(&p), vec!["e1c1".to_string()]);
    let mut q = p.clone();
    play_plies(&mut q, "e1c1");
    assert_eq!(placement(&q), "4k3/8/8/8/8/8/8/R1KR4");
    // Not out of check.
    let p = pos("4k3/8/8/8/8/8/8/R3K1r1 w a1 - 0 1");
    assert!(p.in_check());
    assert!(castles(&p).is_empty());
}

#[test]
fn king_step_is_the_ceiling_of_the_square_root() {
    // rules/muster.md 5.2: d = 1 -> 1, 2..4 -> 2, 5..7 -> 3 (vertical, from e1 upwards).
    for (rank, king, rook) in [
        (2, "e2", "e1"), // swap
        (3, "e3", "e2"),
        (4, "e3", "e2"),
        (5, "e3", "e2"),
        (6, "e4", "e3"),
        (7, "e4", "e3"),
        (8, "e4", "e3"),
    ] {
        let rows: Vec<&str> = (1..=8)
            .rev()
            .map(|r| match (r, r == rank) {
                (8, true) => "k3R3",
                (8, false) => "k7",
                (1, _) => "4K3",
                (_, true) => "4R3",
                _ => "8",
            })
            .collect();
        let rook_sq = format!("e{rank}");
        let fen = format!("{} w {rook_sq} - 0 1", rows.join("/"));
        let mut p = pos(&fen);
        let c = castles(&p);
        assert_eq!(c, vec![format!("e1{king}")], "{fen}");
        play_plies(&mut p, &format!("e1{king}"));
        let b = p.board();
        let sq = |s: &str| {
            menagerie::core::geometry::BOARD_8X8
                .parse_square(s)
                .unwrap()
        };
        assert_eq!(b.king_sq(Color::White), sq(king), "{fen}");
        assert_eq!(
            b.piece_at(sq(rook)).kind(),
            Kind::Rook,
            "{fen}: rook on {rook}"
        );
    }
}

// ---------------------------------------------------------------- FEN

#[test]
fn every_fen_of_the_rules_round_trips() {
    // rules/muster.md 5.4, 8: FENs print back identically.
    for fen in [
        "4k3/8/8/8/4R3/8/R3K2R/4R3 w e1a2h2e4 - 0 1",
        "4k3/8/8/8/8/8/8/3RKR2 w d1f1 - 0 1",
        "4k3/8/8/8/8/8/8/R6K w a1 - 0 1",
        "4k3/8/8/8/8/8/8/1K5R w h1 - 0 1",
        "4kr2/8/8/1b6/4R3/8/8/R3K2R w a1h1e4 - 0 1",
        "4k3/8/8/8/8/2n3P1/4P3/P1P1K3 w - - 0 1",
        "4k3/8/8/8/1p6/1p6/8/P3K3 w - - 0 1",
        "4k3/8/8/8/Pp6/1p6/8/4K3 b - a2a3 0 1",
        "4k3/8/8/8/8/Pp6/8/4K3 b - a2 0 1",
        "4k2p/8/6P1/6P1/8/8/8/4K3 b - - 0 1",
        "4k3/8/6P1/6Pp/8/8/8/4K3 w - h6h7 0 2",
        "4k3/8/8/8/8/8/8/4K1Rr w g1 - 0 1",
        "4k3/8/4r3/8/8/8/8/K7 b e6 - 0 1",
        START_FEN,
    ] {
        assert_eq!(pos(fen).fen(), fen);
    }
    // The orthodox aliases (5.4).
    assert_eq!(
        pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").fen(),
        START_FEN
    );
}

#[test]
fn malformed_fens_name_the_field() {
    for (fen, field) in [
        ("4k3/8/8/8/8/8/8 w - - 0 1", "board"),
        ("4k3/8/8/8/8/8/8/4K2p w - - 0 1", "board"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
        ("4k3/8/8/8/8/8/8/4K3 w z9 - 0 1", "castling"),
        ("4k3/8/8/8/8/8/8/4K3 w - a2 0 1", "en passant"),
        ("4k3/8/8/8/Pp6/1p6/8/4K3 b - a2a4 0 1", "en passant"),
        ("4k3/8/8/8/Pp6/1p6/8/4K3 b - a3a2 0 1", "en passant"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number"),
        ("4k3/8/8/8/8/8/8/4K3", "fen"),
    ] {
        let e = Muster::from_fen(fen)
            .err()
            .unwrap_or_else(|| panic!("{fen}"));
        assert_eq!(e.field, field, "{fen}: {e}");
    }
}

#[test]
fn malformed_tokens_are_errors() {
    let p = Muster::startpos();
    assert_refused(&p, &["e2", "e2e9"], &["e2e5"]);
}

// ---------------------------------------------------------------- perft and properties

#[test]
fn regular_armies_give_orthodox_perft() {
    // The issue: start position and Kiwipete in `muster` equal orthodox perft.
    let mut p = Muster::startpos();
    assert_eq!(
        (1..=4).map(|d| perft(&mut p, d)).collect::<Vec<_>>(),
        vec![20, 400, 8902, 197281]
    );
    let mut k = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert_eq!(
        (1..=3).map(|d| perft(&mut k, d)).collect::<Vec<_>>(),
        vec![48, 2039, 97862]
    );
}

/// Start positions of unusual armies for the random playouts.
const ARMY_FENS: &[&str] = &[
    START_FEN,
    "4k3/8/8/8/4R3/8/R3K2R/4R3 w e1a2h2e4 - 0 1",
    "pppkpppp/8/3qq3/rnb2bnr/RNB2BNR/3QQ3/8/PPPKPPPP w - - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w a1h1a8h8 - 0 1",
    "rr2k1rr/4r3/pppp1ppp/8/8/PPPP1PPP/4R3/RR2K1RR w a1b1g1h1e2a8b8g8h8e7 - 0 1",
    "ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPKPPP w - - 0 1",
    "4k3/8/8/8/1p6/1p6/8/P3K3 w - - 0 1",
];

#[test]
fn make_unmake_restores_fen_and_key_and_tokens_round_trip() {
    // design.md "When a variant is done" 3 and 5.
    let mut playout = Playout::new(0x5eed_3a57, 120);
    let mut plies = 0;
    for &fen in ARMY_FENS {
        for _game in 0..12 {
            let mut p = pos(fen);
            let mut history = Vec::new();
            plies += playout.run(&mut p, |p, at| {
                if at.last.is_some() {
                    // The FEN reproduces the position's legal moves.
                    assert_eq!(ply_tokens(&pos(&p.fen())), ply_tokens(p), "{}", p.fen());
                }
                let list = at.legal;
                if at.at_end || game_outcome(p).is_some() {
                    return Next::Stop;
                }
                assert_tokens_round_trip(p, list);
                assert_make_unmake(p, list, Muster::compute_key, |_| {});
                history.push((p.fen(), p.key()));
                Next::Random
            });
            assert_unwinds(&mut p, history, fen);
        }
    }
    assert!(plies > 2000, "{plies}");
}

#[test]
fn legal_moves_never_leave_the_king_attacked() {
    // rules/muster.md 7: a move may not leave one's own King attacked; and every pseudo-move
    // that is legal is generated (checked against orthodox legality on the same board for the
    // moves both rule sets share).
    let mut playout = Playout::new(7, 80);
    for &fen in ARMY_FENS {
        for _ in 0..8 {
            let mut p = pos(fen);
            playout.run(&mut p, |p, at| {
                if at.legal.is_empty() || p.verdict(Scope::Wins).map(|v| v.terminal).is_some() {
                    return Next::Stop;
                }
                let us = p.side_to_move();
                for &m in at.legal.iter() {
                    p.make(m);
                    let b = p.board();
                    assert_eq!(
                        b.attackers_to(b.king_sq(us), b.occupied(), !us),
                        0,
                        "{} leaves the King attacked",
                        p.fen()
                    );
                    p.unmake();
                }
                Next::Random
            });
        }
    }
}

// ---------------------------------------------------------------- section 3.1: the Muster

/// A probe that is the static evaluation (deterministic and fast).
fn static_probe(pos: &Muster, _: ProbeLimits) -> Option<i32> {
    Some(pos.evaluate())
}

const HUGE_WHITE: &str = "QQQQQQQQ/QQQQQQQQ/PPPPPPPP/RNBQKBNR";
const WEAK_WHITE: &str = "8/8/PPPPPPPP/4K3";

#[test]
fn choice_follows_the_two_by_two_game() {
    // rules/muster.md 3.1: an overwhelming White army is chosen by either musterer; a weak
    // White army brought by the engine as White is left for the regular-army swap (B).
    let huge = Army::parse(Color::White, HUGE_WHITE).unwrap();
    let weak = Army::parse(Color::White, WEAK_WHITE).unwrap();
    let reg_b = Army::regular(Color::Black);
    let mut probe = static_probe;
    for mustered in [Color::White, Color::Black] {
        assert_eq!(
            choose(&huge, &reg_b, mustered, 100, &mut probe),
            Color::White,
            "{mustered:?}"
        );
    }
    assert_eq!(
        choose(&weak, &reg_b, Color::White, 100, &mut probe),
        Color::Black
    );
    // E(X, Y) is White's expected score; D3 gives 1 when Black starts in check.
    let limits = ProbeLimits {
        nodes: 1,
        movetime_ms: 1,
    };
    assert!(expected_score(&huge, &reg_b, limits, &mut probe).unwrap() > 0.99);
    assert!(expected_score(&weak, &reg_b, limits, &mut probe).unwrap() < 0.01);
    let checking = Army::parse(Color::White, "4Q3/8/8/4K3").unwrap();
    let lone = Army::parse(Color::Black, "4k3/8/8/8").unwrap();
    let mut never = |_: &Muster, _: ProbeLimits| -> Option<i32> { panic!("no search needed") };
    assert_eq!(
        expected_score(&checking, &lone, limits, &mut never),
        Some(1.0)
    );
    // Told to stop: the engine keeps its own army.
    let mut stopped = |_: &Muster, _: ProbeLimits| -> Option<i32> { None };
    assert_eq!(
        choose(&huge, &reg_b, Color::Black, 100, &mut stopped),
        Color::Black
    );
}

#[test]
fn proposals_are_legal_armies_with_a_safe_king() {
    // rules/muster.md 3.1: a proposed army is always legal; D3 filter.
    let mut probe = static_probe;
    for color in [Color::White, Color::Black] {
        let army = propose(color, 150, &mut probe);
        assert_eq!(army.color(), color);
        let again = Army::parse(color, &army.half_fen()).expect("legal");
        assert!(!menagerie::variants::muster::pregame::king_exposed(&again));
    }
}

#[test]
fn muster_commands_through_the_protocol() {
    // rules/muster.md 3.1 (D4): propose and choose answer with the engine's own search.
    let mut e = Engine::start_variant("muster");
    e.read_until(|l| l.starts_with("info string variant muster"), SEARCH);
    for color in ["white", "black"] {
        e.send(&format!("muster propose {color} movetime 300"));
        let out = e.read_until(
            |l| l.starts_with("muster army ") || l.contains("error"),
            SEARCH,
        );
        let last = out.last().unwrap();
        let half = last
            .strip_prefix("muster army ")
            .unwrap_or_else(|| panic!("{last}"));
        let c = if color == "white" {
            Color::White
        } else {
            Color::Black
        };
        Army::parse(c, half).unwrap_or_else(|err| panic!("{half}: {err}"));
    }
    e.send(&format!(
        "muster choose white {HUGE_WHITE} black rnbqkbnr/pppppppp/8/8 mustered black movetime 300"
    ));
    let out = e.read_until(
        |l| l.starts_with("muster choice") || l.contains("error"),
        SEARCH,
    );
    assert_eq!(out.last().unwrap(), "muster choice white");
    e.send(&format!(
        "muster choose white {WEAK_WHITE} black rnbqkbnr/pppppppp/8/8 mustered white movetime 300"
    ));
    let out = e.read_until(
        |l| l.starts_with("muster choice") || l.contains("error"),
        SEARCH,
    );
    assert_eq!(out.last().unwrap(), "muster choice black");
    // Malformed or illegal armies are named in the error.
    for (line, why) in [
        (
            "muster choose white 8/8/PPPPPPPP/RNBKQBNR black rnbqkbnr/pppppppp/8/8 mustered white",
            "files e-h",
        ),
        (
            "muster choose white 8/8/PPPPPPPP/RNBQKBNR black rnbqkbnr/pppppppp/8 mustered white",
            "bad black army",
        ),
        (
            "muster choose white 8/8/PPPPPPPP/RNBQKBNR mustered white",
            "missing 'black",
        ),
        ("muster propose green", "'white' or 'black'"),
        ("muster dance", "unknown sub-command"),
    ] {
        e.send(line);
        let out = e.read_until(|l| l.starts_with("info string error"), SEARCH);
        assert!(out.last().unwrap().contains(why), "{line}: {out:?}");
    }
    e.assert_ready();
}

// ---------------------------------------------------------------- section 7: game end

#[test]
fn every_ending_is_reached() {
    // rules/muster.md 7: checkmate, stalemate, 50-move rule, threefold repetition,
    // insufficient material; 3 D3: the start with the side not to move in check.
    let reason = |fen: &str| game_outcome(&pos(fen)).map(|o| (o.result, o.reason));
    assert_eq!(
        reason("4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1"),
        Some((GameResult::WhiteWins, "checkmate".to_string()))
    );
    assert_eq!(
        reason("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"),
        Some((GameResult::Draw, "stalemate".to_string()))
    );
    assert_eq!(
        reason("4k3/8/8/8/8/8/8/R3K3 w - - 100 80"),
        Some((GameResult::Draw, "fifty-move rule".to_string()))
    );
    assert_eq!(
        reason("4k3/8/8/8/8/8/8/4KB2 w - - 0 1"),
        Some((GameResult::Draw, "insufficient material".to_string()))
    );
    let mut p = pos("4k1n1/8/8/8/8/8/8/4K1N1 w - - 0 1");
    play_plies(&mut p, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert_eq!(game_outcome(&p), None);
    play_plies(&mut p, "f6g8");
    assert_eq!(
        game_outcome(&p).map(|o| o.reason),
        Some("threefold repetition".to_string())
    );
    // Castling rights are part of the repeated position (rules/muster.md 7).
    let mut p = pos("r3k3/8/8/8/8/8/8/R3K3 w a1a8 - 0 1");
    play_plies(&mut p, "a1b1 a8b8 b1a1 b8a8 a1b1 a8b8 b1a1 b8a8");
    assert_eq!(
        game_outcome(&p),
        None,
        "the start had rights, the repeats do not"
    );
    play_plies(&mut p, "a1b1 a8b8");
    assert!(game_outcome(&p).is_some());
}

#[test]
fn endings_through_the_protocol() {
    // design.md "When a variant is done" 7: `info string result` and `bestmove (none)`.
    let mut e = Engine::start_variant("muster");
    for (fen, result) in [
        ("4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1", "1-0 {checkmate}"),
        (
            // rules/muster.md 3 D3: mustered armies with Black's King attacked at the start.
            "4k3/8/8/8/4Q3/8/8/4K3 w - - 0 1",
            "1-0 {the side not to move starts in check}",
        ),
        ("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", "1/2-1/2 {stalemate}"),
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 3");
        let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
        assert_game_over(&out, fen, None, result);
    }
}

#[test]
fn search_plays_en_passant_on_a_passed_square() {
    // The search plays the variant's own moves: after a1a4 Black wins the pawn en passant
    // (rules/muster.md 4.3), with either capturer.
    let mut e = Engine::start_variant("muster");
    e.send("position fen 4k3/8/8/8/1p6/1p6/8/P3K3 w - - 0 1 moves a1a4");
    e.send("go depth 4");
    let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
    let best = bestmove(&out);
    let p = {
        let mut p = pos("4k3/8/8/8/1p6/1p6/8/P3K3 w - - 0 1");
        play_plies(&mut p, "a1a4");
        p
    };
    assert!(p.parse_move(&best).is_ok(), "{best}");
    assert!(best == "b3a2" || best == "b4a3", "{best}");
}

// ---------------------------------------------------------------- an independent reference

/// A deliberately naive generator written from the rules text (mailbox, ray scans, copy-make),
/// sharing nothing with the engine but the position's fields: every legal token of `p`.
mod reference {
    use super::*;
    use crate::common::reference::KNIGHT;

    type Board = [Option<(Color, Kind)>; 64];

    /// (from, to, promotion, square of a pawn taken en passant, rook's castling move)
    type Candidate = (
        usize,
        usize,
        Option<Kind>,
        Option<usize>,
        Option<(usize, usize)>,
    );

    fn sq(f: i32, r: i32) -> Option<usize> {
        ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
    }

    const KING: [(i32, i32); 8] = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];

    fn attacked(b: &Board, target: usize, by: Color) -> bool {
        let (tf, tr) = ((target % 8) as i32, (target / 8) as i32);
        let fwd = if by == Color::White { 1 } else { -1 };
        for df in [-1, 1] {
            if let Some(s) = sq(tf + df, tr - fwd) {
                if b[s] == Some((by, Kind::Pawn)) {
                    return true;
                }
            }
        }
        for (df, dr) in KNIGHT {
            if let Some(s) = sq(tf + df, tr + dr) {
                if b[s] == Some((by, Kind::Knight)) {
                    return true;
                }
            }
        }
        for (df, dr) in KING {
            if let Some(s) = sq(tf + df, tr + dr) {
                if b[s] == Some((by, Kind::King)) {
                    return true;
                }
            }
            let diagonal = df != 0 && dr != 0;
            let (mut f, mut r) = (tf + df, tr + dr);
            while let Some(s) = sq(f, r) {
                if let Some((c, k)) = b[s] {
                    let slider = k == Kind::Queen
                        || (diagonal && k == Kind::Bishop)
                        || (!diagonal && k == Kind::Rook);
                    if c == by && slider {
                        return true;
                    }
                    break;
                }
                f += df;
                r += dr;
            }
        }
        false
    }

    fn name(s: usize) -> String {
        format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
    }

    pub fn moves(p: &Muster) -> Vec<String> {
        let chess = p.board();
        let mut b: Board = [None; 64];
        for s in 0..64u8 {
            let pc = chess.piece_at(s);
            if !pc.is_none() {
                b[s as usize] = Some((pc.color(), pc.kind()));
            }
        }
        let us = p.side_to_move();
        let them = !us;
        let king = (0..64).find(|&s| b[s] == Some((us, Kind::King))).unwrap();
        let mut out = Vec::new();
        let mut cands: Vec<Candidate> = Vec::new();
        let fwd = if us == Color::White { 1 } else { -1 };
        let rel = |s: usize| {
            if us == Color::White {
                s / 8 + 1
            } else {
                8 - s / 8
            }
        };
        let ep = p.ep_squares();
        for from in 0..64 {
            let Some((c, k)) = b[from] else { continue };
            if c != us {
                continue;
            }
            let (f, r) = ((from % 8) as i32, (from / 8) as i32);
            match k {
                Kind::Pawn => {
                    // rules/muster.md 4.1
                    let max = match rel(from) {
                        1 => 3,
                        2 => 2,
                        _ => 1,
                    };
                    for n in 1..=max {
                        let Some(t) = sq(f, r + n * fwd) else { break };
                        if b[t].is_some() {
                            break;
                        }
                        cands.push((from, t, None, None, None));
                    }
                    for df in [-1, 1] {
                        let Some(t) = sq(f + df, r + fwd) else {
                            continue;
                        };
                        if matches!(b[t], Some((c2, _)) if c2 == them) {
                            cands.push((from, t, None, None, None));
                        }
                        // rules/muster.md 4.3: the victim stands beyond the passed squares.
                        if ep & (1u64 << t) != 0 {
                            let victim = if us == Color::White {
                                ep.trailing_zeros() as usize - 8
                            } else {
                                63 - ep.leading_zeros() as usize + 8
                            };
                            cands.push((from, t, None, Some(victim), None));
                        }
                    }
                }
                Kind::Knight | Kind::King => {
                    let offs = if k == Kind::Knight { KNIGHT } else { KING };
                    for (df, dr) in offs {
                        if let Some(t) = sq(f + df, r + dr) {
                            if !matches!(b[t], Some((c2, _)) if c2 == us) {
                                cands.push((from, t, None, None, None));
                            }
                        }
                    }
                }
                _ => {
                    for (df, dr) in KING {
                        let diagonal = df != 0 && dr != 0;
                        if (k == Kind::Rook && diagonal) || (k == Kind::Bishop && !diagonal) {
                            continue;
                        }
                        let (mut tf, mut tr) = (f + df, r + dr);
                        while let Some(t) = sq(tf, tr) {
                            match b[t] {
                                None => cands.push((from, t, None, None, None)),
                                Some((c2, _)) => {
                                    if c2 == them {
                                        cands.push((from, t, None, None, None));
                                    }
                                    break;
                                }
                            }
                            tf += df;
                            tr += dr;
                        }
                    }
                }
            }
        }
        // Promotions (rules/muster.md 4.4).
        let mut expanded = Vec::new();
        for c in cands {
            let is_pawn = b[c.0] == Some((us, Kind::Pawn));
            if is_pawn && rel(c.1) == 8 {
                for k in [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight] {
                    expanded.push((c.0, c.1, Some(k), c.3, c.4));
                }
            } else {
                expanded.push(c);
            }
        }
        // Castling (rules/muster.md 5).
        let mut rights = p.castling_rights(us);
        let (kf, kr) = ((king % 8) as i32, (king / 8) as i32);
        while rights != 0 {
            let rook = rights.trailing_zeros() as usize;
            rights &= rights - 1;
            let (rf, rr) = ((rook % 8) as i32, (rook / 8) as i32);
            if rf != kf && rr != kr {
                continue;
            }
            let (df, dr) = ((rf - kf).signum(), (rr - kr).signum());
            let d = (rf - kf).abs().max((rr - kr).abs());
            if (1..d).any(|i| b[sq(kf + i * df, kr + i * dr).unwrap()].is_some()) {
                continue;
            }
            if attacked(&b, king, them) {
                continue;
            }
            let s = (d as f64).sqrt().ceil() as i32;
            if (1..s).any(|i| attacked(&b, sq(kf + i * df, kr + i * dr).unwrap(), them)) {
                continue;
            }
            let to = sq(kf + s * df, kr + s * dr).unwrap();
            let rook_to = sq(kf + (s - 1) * df, kr + (s - 1) * dr).unwrap();
            expanded.push((king, to, None, None, Some((rook, rook_to))));
        }
        for (from, to, promo, removed, rook) in expanded {
            let mut a = b;
            let moving = a[from].take();
            if let Some(v) = removed {
                a[v] = None;
            }
            if let Some((rf, rt)) = rook {
                let r = a[rf].take();
                a[rt] = r;
            }
            a[to] = match promo {
                Some(k) => Some((us, k)),
                None => moving,
            };
            let k = (0..64).find(|&s| a[s] == Some((us, Kind::King))).unwrap();
            if !attacked(&a, k, them) {
                let mut t = format!("{}{}", name(from), name(to));
                if let Some(k) = promo {
                    t.push(k.letter());
                }
                out.push(t);
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

#[test]
fn the_generator_agrees_with_a_naive_reference() {
    // rules/muster.md 4 and 5 read independently: the legal token sets agree along random
    // playouts from unusual armies and from the worked examples.
    let plies = 100;
    let mut playout = Playout::new(0xfeed, plies);
    let mut checked = 0;
    let extra = [
        "4k3/8/8/8/8/8/8/3RKR2 w d1f1 - 0 1",
        "4k3/8/8/8/8/8/8/R6K w a1 - 0 1",
        "4kr2/8/8/1b6/4R3/8/8/R3K2R w a1h1e4 - 0 1",
        "4k3/8/8/8/8/2n3P1/4P3/P1P1K3 w - - 0 1",
        "4k3/8/4r3/8/8/8/8/K7 b e6 - 0 1",
        "r3k2r/1ppppp2/8/pP4Pp/Pp4pP/8/1PPPPP2/R3K2R w a1h1a8h8 - 0 1",
        // d4 and d5 are off their Kings' ranks and files: no rights there.
        "1r2k1r1/pp1pp1pp/2p2p2/3rr3/3RR3/2P2P2/PP1PP1PP/1R2K1R1 w b1g1e4b8g8e5 - 0 1",
    ];
    for &fen in ARMY_FENS.iter().chain(extra.iter()) {
        for _ in 0..10 {
            let mut p = pos(fen);
            playout.run(&mut p, |p, at| {
                if at.ply == plies || p.verdict(Scope::Wins).map(|v| v.terminal).is_some() {
                    return Next::Stop;
                }
                let mine = ply_tokens(p);
                assert_eq!(mine, reference::moves(p), "{}", p.fen());
                checked += 1;
                if mine.is_empty() {
                    return Next::Stop;
                }
                // A token of the sorted list.
                let t = &mine[at.rng.below(mine.len() as u64) as usize];
                Next::Play(p.parse_move(t).expect("a listed token"))
            });
        }
    }
    assert!(checked > 5000, "{checked}");
}

/// Walks the whole tree to `depth`, comparing every node's legal tokens with the reference.
fn walk_against_reference(p: &mut Muster, depth: u32) -> u64 {
    let mine = ply_tokens(p);
    assert_eq!(mine, reference::moves(p), "{}", p.fen());
    if depth == 1 {
        return mine.len() as u64;
    }
    let mut n = 0;
    for t in &mine {
        let m = p.parse_move(t).unwrap();
        p.make(m);
        n += walk_against_reference(p, depth - 1);
        p.unmake();
    }
    n
}

/// Muster positions of tests/perft/muster.perft whose first four depths are checked node by
/// node against the reference here.
const MUSTER_PERFT: &[&str] = &[
    "rr2k1rr/4r3/pppp1ppp/8/8/PPPP1PPP/4R3/RR2K1RR w a1b1g1h1e2a8b8g8h8e7 - 0 1",
    "ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPKPPP w - - 0 1",
    "r3k2r/1ppppp2/8/pP4Pp/Pp4pP/8/1PPPPP2/R3K2R w a1h1a8h8 - 0 1",
];

#[test]
fn perft_trees_agree_with_the_reference() {
    for fen in MUSTER_PERFT {
        let mut p = pos(fen);
        let n = walk_against_reference(&mut p, 4);
        assert_eq!(n, perft(&mut p, 4), "{fen}");
    }
}

// ---------------------------------------------------------------- self-play from mustered armies

#[test]
fn self_play_from_unusual_armies_through_the_protocol() {
    // design.md "When a variant is done" 9 with the variant's own rules in play: castlings with
    // many rooks, pushes from the first rank, many queens. Every bestmove must be legal.
    let mut e = Engine::start_variant("muster");
    let starts = [
        "rr2k1rr/4r3/pppp1ppp/8/8/PPPP1PPP/4R3/RR2K1RR w a1b1g1h1e2a8b8g8h8e7 - 0 1",
        "ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPKPPP w - - 0 1",
        "r3k2r/1ppppp2/8/pP4Pp/Pp4pP/8/1PPPPP2/R3K2R w a1h1a8h8 - 0 1",
        "rqqqkqqr/8/8/8/8/8/8/RQQQKQQR w a1h1a8h8 - 0 1",
    ];
    let mut special = 0;
    for fen in starts {
        e.send("ucinewgame");
        let mut p = pos(fen);
        let mut turns: Vec<String> = Vec::new();
        for _ in 0..120 {
            e.send(&format!("position fen {fen} moves {}", turns.join(" ")));
            e.send("go nodes 800");
            let out = e.read_until(|l| l.starts_with("bestmove"), SEARCH);
            assert!(!out.iter().any(|l| l.contains("error")), "{out:?}");
            let best = bestmove(&out);
            if best == "(none)" {
                assert!(game_outcome(&p).is_some(), "{}", p.fen());
                break;
            }
            let m = p
                .parse_move(&best)
                .unwrap_or_else(|err| panic!("illegal {best} in {}: {err}", p.fen()));
            special += matches!(
                m.kind(),
                MoveKind::Castle | MoveKind::EnPassant | MoveKind::DoublePush
            ) as usize;
            p.make(m);
            turns.push(best);
        }
    }
    assert!(
        special > 0,
        "no castling, long push or en passant was played"
    );
}

#[test]
fn mangled_fens_and_armies_never_panic() {
    // design.md "Errors and input": bad input gives a typed error, never a panic; what parses
    // prints a FEN that parses back to the same FEN.
    let mut rng = SplitMix64::new(99);
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ -abcdefghw0KQkq9xé".chars().collect();
    let seeds = [
        START_FEN,
        "4k3/8/8/8/Pp6/1p6/8/4K3 b - a2a3 0 1",
        "4k3/8/8/8/4R3/8/R3K2R/4R3 w e1a2h2e4 - 0 1",
        "4k3/8/6P1/6Pp/8/8/8/4K3 w - h6h7 0 2",
    ];
    let mut parsed = 0;
    for _ in 0..4000 {
        let seed = seeds[rng.below(seeds.len() as u64) as usize];
        let mut chars: Vec<char> = seed.chars().collect();
        for _ in 0..1 + rng.below(3) {
            let i = rng.below(chars.len() as u64) as usize;
            match rng.below(3) {
                0 => chars[i] = alphabet[rng.below(alphabet.len() as u64) as usize],
                1 => {
                    chars.remove(i);
                }
                _ => chars.insert(i, alphabet[rng.below(alphabet.len() as u64) as usize]),
            }
        }
        let fen: String = chars.into_iter().collect();
        if let Ok(p) = Muster::from_fen(&fen) {
            parsed += 1;
            let again = pos(&p.fen());
            assert_eq!(again.fen(), p.fen(), "{fen}");
            let _ = legal_moves(&p);
            let _ = game_outcome(&p);
        }
        let half: String = fen.split('/').take(4).collect::<Vec<_>>().join("/");
        let _ = Army::parse(Color::White, &half);
        let _ = Army::parse(Color::Black, &half);
    }
    assert!(parsed > 100, "{parsed}");
}
