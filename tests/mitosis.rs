//! Mitosis Chess (rules/mitosis.md): board and bases, pieces, pawns, splitting and placement,
//! the non-royal King, the end rules, FEN and tokens, the worked examples M0-M6, and property
//! tests (make/unmake, keys, token round trips).

use crate::common;
use menagerie::variants::game_outcome;
use menagerie::variants::StagedGeneration;

use common::game::{
    assert_refused, assert_tokens_round_trip, assert_unwinds, parse, ply_tokens, sorted_words,
};
use common::{assert_game_over, bestmove, Engine, SEARCH};
use menagerie::core::zobrist::SplitMix64;
use menagerie::perft::{perft_turns, Unit};
use menagerie::variants::playout::{Next, Playout};
use std::collections::HashSet;

use menagerie::variants::mitosis::{Mitosis, MitosisMove, BOARD_MITOSIS, START_FEN};
use menagerie::variants::turn::{self, Extent, Reading};
use menagerie::variants::{FenError, Game, GameResult, MoveError, Notation, Rules};
use menagerie::variants::{PlyList, Scope};

fn pos(fen: &str) -> Mitosis {
    parse(fen)
}

/// The legal whole-turn tokens, sorted.
fn turns(p: &Mitosis) -> Vec<String> {
    let mut v = turn::legal_tokens(p);
    v.sort();
    v
}

/// Plays one whole-turn token (a placement turn is `placement;move`).
fn play(p: &mut Mitosis, turn: &str) {
    turn::play(p, turn, Reading::Token, Extent::Start)
        .unwrap_or_else(|e| panic!("{turn} in {}: {e}", p.fen()));
}

const M1: &str = "***3***/4k4/9/8p/9/9/9/3P5/9/K8/***RBN***[-] w - - 0 1";
const M2: &str = "***3***/k8/4r4/9/3p5/1B2K4/9/3n5/2P6/9/***3***[-] b - - 0 1";
const M3: &str = "***3***/4k4/9/9/9/5p3/3p5/9/4P4/4K4/***3***[-] w - - 0 1";
const M3_AFTER: &str = "***3***/4k4/9/9/9/4Pp3/3p5/9/9/4K4/***3***[-] b - e3e4 1 1";
const M4: &str = "***1n1***/k8/9/5q3/9/5Q3/9/7p1/9/4K4/***3***[-] w - - 0 1";
const M4_AFTER: &str = "***1n1***/k8/9/5Q3/9/9/9/7p1/9/4K4/***3***[rb] b - - 0 1";
const M5: &str = "***1nb***/k8/9/5g3/9/5Q3/9/7p1/9/4K4/***3***[-] w - - 0 1";
const M5_AFTER: &str = "***1nb***/k8/9/5Q3/9/9/9/7p1/9/4K4/***3***[rbn] b - - 0 1";
const M6: &str = "***rnb***/9/9/9/4k4/4R4/9/q8/9/4K4/***3***[-] w - - 0 1";
const MIDGAME: &str =
    "***rb1***/c1qgk1q1c/pp1pp1ppp/2p2pa2/9/9/4P4/9/PPPP1PPPP/C1QGK1QAC/***N2***[-] b - - 0 8";
const M6_AFTER: &str = "***3***/9/9/9/4R4/9/9/q8/9/4K4/***3***[-] b - - 0 1";

#[test]
fn start_position_has_37_moves() {
    // rules/mitosis.md 2 and 8 (M0): 27 pawn pushes + 10 knight-component leaps.
    let p = Mitosis::startpos();
    assert_eq!(p.fen(), START_FEN);
    let moves = ply_tokens(&p);
    assert_eq!(moves.len(), 37);
    let pawn_pushes = moves
        .iter()
        .filter(|t| t.as_bytes()[1] == b'2' && t.as_bytes()[0] == t.as_bytes()[2])
        .count();
    assert_eq!(pawn_pushes, 27);
    // The leaps: C a1 (b3), A b1 (a3 c3), G d1 (c3 e3), G f1 (e3 g3), A h1 (g3 i3), C i1 (h3).
    let leaps: Vec<&String> = moves.iter().filter(|t| t.as_bytes()[1] == b'1').collect();
    assert_eq!(leaps.len(), 10, "{leaps:?}");
    // Nothing enters a base: b1d0 would be a knight leap onto a base square (rules/mitosis.md 1 [D1]).
    assert!(!moves.iter().any(|t| t.ends_with('0')));
}

#[test]
fn m1_base_exits() {
    // rules/mitosis.md 8 M1 and 1 [D1]: base pieces leave onto the board, never base to base.
    let p = pos(M1);
    assert_eq!(
        ply_tokens(&p),
        sorted_words("a1a2 a1b1 a1b2 d0d1 d0d2 d3d4 e0a4 e0b3 e0c2 e0d1 e0f1 e0g2 e0h3 e0i4 f0d1 f0e2 f0g2 f0h1")
    );
    assert!(
        game_outcome(&p).is_none(),
        "the i7 pawn keeps Black at two pieces"
    );
    // The base table of rules/mitosis.md 1 on an empty board.
    let q = pos("***3***/k8/9/9/9/9/9/9/9/8K/***RBN***[-] w - - 0 1");
    let from = |sq: &str| -> Vec<String> {
        let mut v: Vec<String> = ply_tokens(&q)
            .into_iter()
            .filter(|t| t.starts_with(sq))
            .map(|t| t[sq.len()..].to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(from("d0"), sorted_words("d1 d2 d3 d4 d5 d6 d7 d8 d9"));
    assert_eq!(from("e0"), sorted_words("d1 c2 b3 a4 f1 g2 h3 i4"));
    assert_eq!(from("f0"), sorted_words("d1 h1 e2 g2"));
}

#[test]
fn base_pieces_cannot_be_captured_and_nothing_enters_a_base() {
    // rules/mitosis.md 1 [D1] (a), (c): a Black rook on the d-file sees d0 but cannot take it.
    let p = pos("***3***/k8/9/9/3r5/9/9/9/9/8K/***R2***[-] b - - 0 1");
    let t = ply_tokens(&p);
    assert!(t.contains(&"d6d1".to_string()));
    assert!(!t.iter().any(|m| m.ends_with("d0") || m.ends_with("d10")));
    // A white rook on e9 does not enter the empty black base e10.
    let q = pos("***3***/k8/4R4/9/9/9/9/9/9/8K/***3***[-] w - - 0 1");
    assert!(!ply_tokens(&q).iter().any(|m| m.ends_with("10")));
}

#[test]
fn m2_king_capture_restriction() {
    // rules/mitosis.md 8 M2 and 5.1 [D5].
    let p = pos(M2);
    assert_eq!(
        ply_tokens(&p),
        sorted_words("a9a8 a9b8 a9b9 d3b2 d3b4 d3c1 d3c5 d3e1 d3f2 d3f4 d6d5 d6e5 e8a8 e8b8 e8c8 e8d8 e8e6 e8e7 e8e9 e8f8 e8g8 e8h8 e8i8")
    );
    for illegal in ["e8e5", "d3e5"] {
        assert!(matches!(p.parse_move(illegal), Err(MoveError::Illegal(_))));
    }
}

#[test]
fn king_protection_counts_base_pieces_and_not_the_king() {
    // rules/mitosis.md 5.1: a Black rook on e2 may not take the White King on e1 when a White
    // base bishop (d0) covers e1... the capturer stands on e2: d0 does not attack e2, f0 knight does.
    let guarded = pos("***3***/k8/9/9/9/9/9/9/4r4/4K4/***2N***[-] b - - 0 1");
    assert!(
        !ply_tokens(&guarded).contains(&"e2e1".to_string()),
        "f0 knight covers e2"
    );
    let open = pos("***3***/k8/9/9/9/9/9/9/4r4/4K4/***3***[-] b - - 0 1");
    assert!(
        ply_tokens(&open).contains(&"e2e1".to_string()),
        "only the King covers e2"
    );
    // A capture from a base square is never restricted (nothing can capture on a base square).
    let base_rook = pos("***3***/8p/9/9/9/9/9/P8/9/K2k5/***R2***[-] w - - 0 1");
    assert!(ply_tokens(&base_rook).contains(&"d0d1".to_string()));
    // A Black knight on c2 "covers" d0 by pattern, but d0 cannot be captured on.
    let guarded_king = pos("***3***/8p/9/9/9/9/9/P8/2n6/K2k5/***R2***[-] w - - 0 1");
    assert!(
        ply_tokens(&guarded_king).contains(&"d0d1".to_string()),
        "d0 cannot be attacked: the capture stays legal"
    );
    // Kings capture Kings under the same rule: e4xe5 is illegal when a Black pawn guards e4.
    let kk = pos("***3***/9/9/9/9/4kp3/4K4/9/P8/9/***3***[-] w - - 0 1");
    assert!(!ply_tokens(&kk).contains(&"e4e5".to_string()));
    let kk_free = pos("***3***/8p/9/9/9/4k4/4K4/9/P8/9/***3***[-] w - - 0 1");
    assert!(ply_tokens(&kk_free).contains(&"e4e5".to_string()));
    // Kings are not royal: a King may step onto an attacked square (rules/mitosis.md 2).
    let step = pos("***3***/9/9/9/9/9/r8/4K4/8P/k8/***3***[-] w - - 0 1");
    assert!(ply_tokens(&step).contains(&"e3e4".to_string()));
}

#[test]
fn pawns_push_three_and_promote_to_minors() {
    // rules/mitosis.md 3.1: 1, 2 or 3 squares from the start rank, all passed squares empty.
    let p = pos("***3***/k8/9/9/9/9/9/9/4P4/8K/***3***[-] w - - 0 1");
    let t = ply_tokens(&p);
    for m in ["e2e3", "e2e4", "e2e5"] {
        assert!(t.contains(&m.to_string()));
    }
    let blocked = pos("***3***/k8/9/9/9/9/4n4/9/4P4/8K/***3***[-] w - - 0 1");
    let t = ply_tokens(&blocked);
    assert!(t.contains(&"e2e3".to_string()) && !t.iter().any(|m| m == "e2e5" || m == "e2e4"));
    // Off the start rank: one square only.
    let moved = pos("***3***/k8/9/9/9/9/4P4/9/9/8K/***3***[-] w - - 0 1");
    assert_eq!(
        ply_tokens(&moved)
            .iter()
            .filter(|m| m.starts_with("e4"))
            .count(),
        1
    );
    // rules/mitosis.md 3.4: promotion to R, N or B only, by push and by capture.
    let promo = pos("***3***/k2r5/3P5/9/9/9/9/9/9/8K/***3***[-] w - - 0 1");
    let t = ply_tokens(&promo);
    for m in ["d8d9r", "d8d9b", "d8d9n"] {
        assert!(!t.contains(&m.to_string()), "d9 is blocked");
    }
    let promo = pos("***3***/k3r4/3P5/9/9/9/9/9/9/8K/***3***[-] w - - 0 1");
    let t = ply_tokens(&promo);
    for m in ["d8d9r", "d8d9b", "d8d9n", "d8e9r", "d8e9b", "d8e9n"] {
        assert!(t.contains(&m.to_string()), "{m} in {t:?}");
    }
    assert!(!t
        .iter()
        .any(|m| m.starts_with("d8") && (m.len() == 4 || m.ends_with('q'))));
    assert!(matches!(
        promo.parse_move("d8d9q"),
        Err(MoveError::Malformed { .. })
    ));
    let mut q = promo.clone();
    play(&mut q, "d8e9n");
    assert!(q.fen().starts_with("***3***/k3N4/9/"), "{}", q.fen());
    // Black promotes on rank 1.
    let black = pos("***3***/k8/9/9/9/9/9/9/6p2/K8/***3***[-] b - - 0 1");
    assert!(ply_tokens(&black).contains(&"g2g1b".to_string()));
}

#[test]
fn m3_generalised_en_passant() {
    // rules/mitosis.md 8 M3 and 3.3 [D2].
    let mut p = pos(M3);
    play(&mut p, "e2e5");
    assert_eq!(p.fen(), M3_AFTER);
    assert_eq!(
        ply_tokens(&p),
        sorted_words("d4d3 d4e3 e9d8 e9d9 e9e8 e9f8 e9f9 f5e4 f5f4")
    );
    assert_eq!(pos(M3_AFTER).fen(), M3_AFTER);
    // Both en passant captures remove the pushed pawn on e5.
    for (m, fen) in [
        (
            "d4e3",
            "***3***/4k4/9/9/9/5p3/9/4p4/9/4K4/***3***[-] w - - 0 2",
        ),
        (
            "f5e4",
            "***3***/4k4/9/9/9/9/3pp4/9/9/4K4/***3***[-] w - - 0 2",
        ),
    ] {
        let mut q = p.clone();
        play(&mut q, m);
        assert_eq!(q.fen(), fen);
        q.unmake();
        assert_eq!(q.fen(), M3_AFTER);
    }
    // For the opponent's next move only.
    let mut q = p.clone();
    play(&mut q, "e9e8");
    play(&mut q, "e1e2");
    assert!(!ply_tokens(&q).contains(&"d4e3".to_string()));
    // A two-square push gives one square; Black's three-square push gives x7 and x6.
    let mut two = pos("***3***/4k4/9/9/9/9/9/9/4P4/4K4/***3***[-] w - - 0 1");
    play(&mut two, "e2e4");
    assert!(two.fen().contains(" b - e3 "), "{}", two.fen());
    let mut black = pos("***3***/4k4/3p5/9/9/9/9/9/9/4K4/***3***[-] b - - 0 1");
    play(&mut black, "d8d5");
    assert!(black.fen().contains(" w - d6d7 "), "{}", black.fen());
}

#[test]
fn m4_queen_split_and_placement_turns() {
    // rules/mitosis.md 8 M4 and 4 [D3] [D4].
    let mut p = pos(M4);
    play(&mut p, "f5f7");
    assert_eq!(p.fen(), M4_AFTER);
    let t = turns(&p);
    assert_eq!(t.len(), 44);
    assert_eq!(
        t.iter().filter(|s| s.starts_with("B@d10,R@f10;")).count(),
        19
    );
    assert_eq!(
        t.iter().filter(|s| s.starts_with("R@d10,B@f10;")).count(),
        25
    );
    assert!(t.contains(&"R@d10,B@f10;d10d1".to_string()));
    // Placement plies keep the side to move; the recapture with the new rook.
    assert_eq!(ply_tokens(&p), sorted_words("B@d10,R@f10 R@d10,B@f10"));
    let mut q = p.clone();
    play(&mut q, "B@d10,R@f10;f10f7");
    // The White Queen taken gives White R+B to place; but White is down to its King on the
    // main board against three: the bare rule ends the game at once (rules/mitosis.md 6.1).
    assert_eq!(
        q.fen(),
        "***bn1***/k8/9/5r3/9/9/9/7p1/9/4K4/***3***[RB] w - - 0 2"
    );
    assert_eq!(game_outcome(&q).unwrap().result, GameResult::BlackWins);
    // Legs may be typed in any order; the output is canonical.
    let m = p.parse_move("R@f10,B@d10").unwrap();
    assert_eq!(p.move_token(m), "B@d10,R@f10");
    // A placement is never a turn by itself: a board move must follow in the same turn.
    let mut s = p.clone();
    play(&mut s, "B@d10,R@f10");
    assert_eq!(
        s.fen(),
        "***bnr***/k8/9/5Q3/9/9/9/7p1/9/4K4/***3***[-] b - - 0 1"
    );
    assert!(matches!(p.parse_move("f10f7"), Err(MoveError::Illegal(_))));
}

#[test]
fn m5_general_split_with_one_free_square() {
    // rules/mitosis.md 8 M5: mandatory fill, owner's choice of type.
    let mut p = pos(M5);
    play(&mut p, "f5f7");
    assert_eq!(p.fen(), M5_AFTER);
    let t = turns(&p);
    assert_eq!(t.len(), 69);
    for (prefix, n) in [("B@d10;", 24), ("N@d10;", 20), ("R@d10;", 25)] {
        assert_eq!(
            t.iter().filter(|s| s.starts_with(prefix)).count(),
            n,
            "{prefix}"
        );
    }
    // Parts that find no square are lost at once: with a full base nothing is pending.
    let mut full = pos("***rnb***/k8/9/5q3/9/5Q3/9/7p1/9/4K4/***3***[-] w - - 0 1");
    play(&mut full, "f5f7");
    assert!(full.fen().contains("[-] b"), "{}", full.fen());
    // Minors and pawns give nothing.
    let mut minor = pos("***3***/k8/9/5r3/9/5Q3/9/7p1/9/4K4/***3***[-] w - - 0 1");
    play(&mut minor, "f5f7");
    assert!(minor.fen().contains("[-] b"), "{}", minor.fen());
    // Every split: C -> R+N, A -> B+N (rules/mitosis.md 4).
    for (piece, pending) in [("c", "[rn]"), ("a", "[bn]"), ("q", "[rb]"), ("g", "[rbn]")] {
        let fen = format!("***3***/k8/9/5{piece}3/9/5Q3/9/7p1/9/4K4/***3***[-] w - - 0 1");
        let mut q = pos(&fen);
        play(&mut q, "f5f7");
        assert!(q.fen().contains(&format!("{pending} b")), "{}", q.fen());
    }
    // With three free squares and three parts: 3! arrangements.
    let mut g = pos("***3***/k8/9/5g3/9/5Q3/9/7p1/9/4K4/***3***[-] w - - 0 1");
    play(&mut g, "f5f7");
    assert_eq!(ply_tokens(&g).len(), 6);
}

#[test]
fn m6_king_loss_removes_minors_and_ends_the_game() {
    // rules/mitosis.md 8 M6, 5.2 [D6], 6.1.
    let mut p = pos(M6);
    play(&mut p, "e5e6");
    assert_eq!(p.fen(), M6_AFTER);
    let o = game_outcome(&p).expect("bare rule");
    assert_eq!(o.result, GameResult::WhiteWins);
    assert_eq!(o.reason, "bare rule");
    p.unmake();
    assert_eq!(p.fen(), M6);
    // The rook may not take when a Black piece guards e5 (here the Queen on d4).
    let guarded = pos("***rnb***/9/2p6/9/4k4/4R4/3q5/a8/9/4K4/***3***[-] w - - 0 1");
    assert!(guarded.parse_move("e5e6").is_err());
    // Majors and pawns stay; minors acquired later (by a split) are kept.
    let mut q = pos("***rnb***/9/2p6/9/4k4/4R4/9/a2q5/9/4K4/***3***[-] w - - 0 1");
    play(&mut q, "e5e6");
    assert_eq!(
        q.fen(),
        "***3***/9/2p6/9/4R4/9/9/a2q5/9/4K4/***3***[-] b - - 0 1"
    );
    assert!(game_outcome(&q).is_none());
    play(&mut q, "d3d1");
    play(&mut q, "e1d1");
    assert!(q.fen().contains("[rb] b"), "{}", q.fen());
    play(&mut q, "R@d10,B@f10;c8c7");
    assert!(q.fen().starts_with("***r1b***/"), "{}", q.fen());
}

#[test]
fn end_rules() {
    // rules/mitosis.md 6; the reasons name the rule.
    let cases: &[(&str, Option<(GameResult, &str)>)] = &[
        // 6.1: one piece against two; base pieces do not count.
        (
            "***3***/k8/9/9/9/9/9/9/9/K7P/***RBN***[-] b - - 0 1",
            Some((GameResult::WhiteWins, "bare rule")),
        ),
        (
            "***rbn***/k8/9/9/9/9/9/9/9/K8/***3***[-] w - - 0 1",
            Some((GameResult::Draw, "one piece each: same piece")),
        ),
        (
            "***3***/9/9/9/9/9/9/9/9/K8/***3***[-] b - - 0 1",
            Some((GameResult::WhiteWins, "bare rule")),
        ),
        (
            "***3***/9/9/9/9/9/9/9/9/9/***R2***[-] w - - 0 1",
            Some((GameResult::Draw, "no pieces on the board")),
        ),
        // 6.2: one piece each.
        (
            "***3***/q8/9/9/9/9/9/9/9/K8/***3***[-] w - - 0 1",
            Some((GameResult::WhiteWins, "one piece each: higher rank")),
        ),
        (
            "***3***/n8/9/9/9/9/9/9/9/7B1/***3***[-] w - - 0 1",
            Some((GameResult::WhiteWins, "one piece each: higher rank")),
        ),
        (
            "***3***/a8/9/9/9/4P4/9/9/9/9/***3***[-] w - - 0 1",
            Some((
                GameResult::BlackWins,
                "one piece each: pawn against a major or King",
            )),
        ),
        (
            "***3***/9/9/4p4/9/9/9/9/9/K8/***3***[-] w - - 0 1",
            Some((
                GameResult::WhiteWins,
                "one piece each: pawn against a major or King",
            )),
        ),
        ("***3***/r8/9/9/9/4P4/9/9/9/9/***3***[-] w - - 0 1", None),
        ("***3***/9/4p4/9/9/4P4/9/9/9/9/***3***[-] w - - 0 1", None),
        // 6.3: the capture clock: count first, then ranks, else a draw.
        (
            "***3***/k7p/9/9/9/9/9/9/9/K6PP/***3***[-] b - - 100 80",
            Some((GameResult::WhiteWins, "fifty-move rule: more pieces")),
        ),
        (
            "***3***/k7p/9/9/9/9/9/9/9/K7N/***3***[-] b - - 100 80",
            Some((GameResult::WhiteWins, "fifty-move rule: higher ranks")),
        ),
        (
            "***3***/k7n/9/9/9/9/9/9/9/K7N/***3***[-] b - - 100 80",
            Some((GameResult::Draw, "fifty-move rule: identical armies")),
        ),
        ("***3***/k7n/9/9/9/9/9/9/9/K7N/***3***[-] b - - 99 80", None),
        // 6.4: no legal move: a lone Black pawn blocked by a Knight (pawn v minor plays on).
        (
            "***3***/9/9/9/4p4/4N4/9/9/9/9/***3***[-] b - - 0 1",
            Some((GameResult::WhiteWins, "no legal move: higher ranks")),
        ),
    ];
    for (fen, expected) in cases {
        let p = pos(fen);
        let got = game_outcome(&p).map(|o| (o.result, o.reason));
        let want = expected.map(|(r, s)| (r, s.to_string()));
        assert_eq!(got, want, "{fen}");
    }
}

#[test]
fn the_clock_counts_captures_only() {
    // rules/mitosis.md 6.3 [D10]: pawn moves do not reset it; captures do; placements do not count.
    let mut p = pos("***3***/k7p/9/9/9/9/9/9/4P4/K7N/***3***[-] w - - 98 80");
    play(&mut p, "e2e3");
    assert_eq!(p.clock(), 99);
    play(&mut p, "i9i8");
    assert_eq!(p.clock(), 100);
    let o = game_outcome(&p).unwrap();
    assert_eq!(o.reason, "fifty-move rule: more pieces");
    let mut q = pos("***3***/k8/9/9/9/9/9/9/4p4/K2Q4N/***3***[-] w - - 57 80");
    play(&mut q, "d1e2");
    assert_eq!(q.clock(), 0);
    let mut r = pos(M4);
    play(&mut r, "f5f7");
    play(&mut r, "B@d10,R@f10");
    assert_eq!(r.clock(), 0);
    play(&mut r, "a9a8");
    assert_eq!(r.clock(), 1);
}

#[test]
fn fens_round_trip_and_bad_fens_name_the_field() {
    // rules/mitosis.md 7 [D12].
    for fen in [
        START_FEN, M1, M2, M3, M3_AFTER, M4, M4_AFTER, M5, M5_AFTER, M6, M6_AFTER,
    ] {
        assert_eq!(pos(fen).fen(), fen);
    }
    let bases = "***r1n***/k8/9/9/9/9/9/9/9/K8/***R1N***[-] w - - 0 1";
    assert_eq!(pos(bases).fen(), bases);
    let bad: &[(&str, &str)] = &[
        // The hand is required, as in Mulligan Stew.
        ("***3***/k8/9/9/9/9/9/9/9/K8/***3*** w - - 0 1", "pending"),
        (
            "***3***/caqgkgqac/ppppppppp/9/9/9/9/9/PPPPPPPPP/CAQGKGQAC/***3*** w - - 0 1",
            "pending",
        ),
        ("***3***/k8/9/9/9/9/9/9/9/K8[-] w - - 0 1", "board"),
        ("9/k8/9/9/9/9/9/9/9/K8/***3***[-] w - - 0 1", "board"),
        ("***3***/k8/9/9/9/9/9/9/9/K8/***3**[-] w - - 0 1", "board"),
        ("***3***/k8/9/9/9/9/9/9/9/K8/**4***[-] w - - 0 1", "board"),
        ("***3***/k8/9/9/9/9/9/9/9/K8/***Q2***[-] w - - 0 1", "board"),
        ("***3***/k8/9/9/9/9/9/9/9/K8/***r2***[-] w - - 0 1", "board"),
        ("***3***/k8/9/9/9/9/9/9/9/K7X/***3***[-] w - - 0 1", "board"),
        (
            "***3***/k3P4/9/9/9/9/9/9/9/K8/***3***[-] w - - 0 1",
            "board",
        ),
        ("***3***/k8/9/9/9/9/9/9/9/K9/***3***[-] w - - 0 1", "board"),
        (
            "***3***/k8/9/9/9/9/9/9/9/K8/***3***[rb] w - - 0 1",
            "pending",
        ),
        (
            "***3***/k8/9/9/9/9/9/9/9/K8/***3***[RR] w - - 0 1",
            "pending",
        ),
        (
            "***3***/k8/9/9/9/9/9/9/9/K8/***3***[RN w - - 0 1",
            "pending",
        ),
        (
            "***3***/k8/9/9/9/9/9/9/9/K8/***RBN***[RB] w - - 0 1",
            "pending",
        ),
        (
            "***3***/k8/9/9/9/9/9/9/9/K8/***3***[-] x - - 0 1",
            "side to move",
        ),
        (
            "***3***/k8/9/9/9/9/9/9/9/K8/***3***[-] w KQ - 0 1",
            "castling",
        ),
        (
            "***3***/k8/9/9/9/9/9/9/9/K8/***3***[-] w - e3 0 1",
            "en passant",
        ),
        ("***3***/k8/9/9/9/9/9/9/9/K8/***3***[-] w - - x 1", "clock"),
        (
            "***3***/k8/9/9/9/9/9/9/9/K8/***3***[-] w - - 0 0",
            "fullmove",
        ),
        ("", "fen"),
    ];
    for (fen, field) in bad {
        match Mitosis::from_fen(fen) {
            Err(FenError { field: f, reason }) => {
                assert_eq!(f, *field, "{fen}: {reason}");
                assert!(!reason.is_empty());
            }
            Ok(p) => panic!("{fen} parsed as {}", p.fen()),
        }
    }
    // Missing clock and move number default to 0 and 1.
    assert_eq!(
        pos("***3***/k8/9/9/9/9/9/9/9/K8/***3***[-] w").fen(),
        "***3***/k8/9/9/9/9/9/9/9/K8/***3***[-] w - - 0 1"
    );
}

#[test]
fn malformed_and_illegal_tokens() {
    let p = Mitosis::startpos();
    let malformed = [
        "", "e2", "e2e", "z2z3", "e2e4q", "e2e4x", "Q@d0", "R@", "é2e4",
    ];
    assert_refused(&p, &malformed, &[]);
    for t in ["e2e6", "e1e2", "R@d0", "a1a0"] {
        assert!(p.parse_move(t).is_err(), "{t}");
    }
    let mut q = pos(M4);
    play(&mut q, "f5f7");
    assert!(
        matches!(q.parse_move("a9a8"), Err(MoveError::Illegal(_))),
        "placement first"
    );
    assert!(q.parse_move("R@d10,R@f10").is_err());
    assert!(
        q.parse_move("R@d10").is_err(),
        "mandatory fill: two squares, two parts"
    );
    assert!(q.parse_move("R@e10,B@f10").is_err(), "e10 is taken");
}

/// Random playouts: every ply's token parses back to it and is unique; `unmake` restores the
/// FEN and key; the key equals the one computed from scratch; placement plies are followed by
/// a board move of the same side (design.md "When a variant is done", 3 and 5).
#[test]
fn random_playouts_round_trip() {
    let mut playout = Playout::new(0x5eed, 120);
    let starts = [START_FEN, M1, M2, M4_AFTER, M5_AFTER, M6];
    let mut plies_done = 0;
    for game in 0..60 {
        let mut p = pos(starts[game % starts.len()]);
        let mut history: Vec<(String, u64)> = Vec::new();
        let mut side = p.side_to_move();
        plies_done += playout.run(&mut p, |p, at| {
            if at.last.is_some_and(|m| m.is_placement()) {
                assert_eq!(p.side_to_move(), side);
                assert!(
                    !at.legal.is_empty(),
                    "a placement must be followed by a board move"
                );
            }
            side = p.side_to_move();
            if p.verdict(Scope::Wins).map(|v| v.terminal).is_some() || p.clock() >= 100 || at.at_end
            {
                return Next::Stop;
            }
            assert_tokens_round_trip(p, at.legal);
            assert_eq!(p.key(), p.compute_key(), "{}", p.fen());
            assert_eq!(
                pos(&p.fen()).key(),
                p.key(),
                "FEN keeps the key: {}",
                p.fen()
            );
            history.push((p.fen(), p.key()));
            Next::Random
        });
        assert_unwinds(&mut p, history, &format!("game {game}"));
    }
    assert!(plies_done > 3000, "{plies_done}");
}

/// The notation (rules/mitosis.md 9) of the ply `token` of `fen`.
fn san_of(fen: &str, token: &str) -> String {
    let p = pos(fen);
    let m = p
        .parse_move(token)
        .unwrap_or_else(|e| panic!("{token} in {fen}: {e}"));
    p.pgn_move(m)
}

/// Checks the notation of every legal ply of `p`: unique after `normalize_pgn`, and read back
/// by `read_pgn_ply` (PGN import) and `import_move` (`menagerie replay`) as that ply.
fn assert_notation_round_trip(p: &Mitosis, list: &PlyList<MitosisMove>) {
    let mut seen = HashSet::new();
    for &m in list.iter() {
        let written = p.pgn_move(m);
        assert!(
            seen.insert(turn::normalize_pgn(&written)),
            "two plies written {written} in {}",
            p.fen()
        );
        assert_eq!(
            turn::read_pgn_ply(p, &written),
            Ok(m),
            "{written} in {}",
            p.fen()
        );
        assert_eq!(p.import_move(&written), Ok(m), "{written} in {}", p.fen());
    }
}

/// rules/mitosis.md 9 along seeded random playouts: at every position each legal ply's
/// notation is its own and reads back as that ply; each whole turn's notation plays back as
/// that turn through PGN reading.
#[test]
fn notation_is_unique_and_reads_back_along_random_playouts() {
    let mut playout = Playout::new(0x5a11, 120);
    let starts = [START_FEN, M1, M2, M4_AFTER, M5_AFTER, MIDGAME];
    let (mut positions, mut placements, mut disambiguated) = (0, 0, 0);
    for game in 0..60 {
        let mut p = pos(starts[game % starts.len()]);
        let mut turn_start = (p.clone(), Vec::new());
        let mut side = p.side_to_move();
        playout.run(&mut p, |p, at| {
            if let Some(m) = at.last {
                turn_start.1.push(m);
                if turn::is_over(p, side) {
                    // The turn's movetext (portions joined by `;`) plays back as the same
                    // plies.
                    let (before, plies) =
                        std::mem::replace(&mut turn_start, (p.clone(), Vec::new()));
                    let text = turn::notation(&before, &plies);
                    let mut replay = before.clone();
                    assert_eq!(
                        turn::play(&mut replay, &text, Reading::Pgn, Extent::Whole),
                        Ok(plies),
                        "{text} in {}",
                        before.fen()
                    );
                }
            }
            side = p.side_to_move();
            if game_outcome(p).is_some() {
                return Next::Stop;
            }
            let list = at.legal;
            assert_notation_round_trip(p, list);
            positions += 1;
            placements += usize::from(list.iter().any(|m| m.is_placement()));
            // A piece's move whose notation holds more than its letter, `x` and destination.
            disambiguated += list
                .iter()
                .filter(|&&m| {
                    let w = p.pgn_move(m);
                    let dest = BOARD_MITOSIS.name(m.to()).to_string();
                    !m.is_placement()
                        && w.starts_with(|c: char| c.is_ascii_uppercase())
                        && w.replace('x', "").len() > 1 + dest.len()
                })
                .count();
            Next::Random
        });
    }
    assert!(positions > 3000, "{positions}");
    assert!(placements > 50, "placement positions: {placements}");
    assert!(disambiguated > 50, "disambiguated moves: {disambiguated}");
}

/// rules/mitosis.md 9: hand-checked notations.
#[test]
fn notation_examples() {
    // Pawn pushes and leaps from the start; both Generals reach e3, so the file is named.
    assert_eq!(san_of(START_FEN, "e2e5"), "e5");
    assert_eq!(san_of(START_FEN, "b1c3"), "Ac3");
    assert_eq!(san_of(START_FEN, "d1e3"), "Gde3");
    assert_eq!(san_of(START_FEN, "f1e3"), "Gfe3");
    assert_eq!(
        san_of(START_FEN, "f1g3"),
        "Gg3",
        "the Archbishop on h1 is no rival"
    );
    // Captures: M4's Queen takes the Queen, M2's Pawn takes the King; en passant (M3).
    assert_eq!(san_of(M4, "f5f7"), "Qxf7");
    assert_eq!(san_of(M2, "d6e5"), "dxe5");
    assert_eq!(san_of(M3_AFTER, "d4e3"), "dxe3");
    assert_eq!(san_of(M3_AFTER, "f5e4"), "fxe4");
    assert_eq!(san_of(M3_AFTER, "e9d8"), "Kd8");
    // Out of the base: the rank of d0 is 0, of d10 is 10.
    let rooks = "***3***/4k4/9/8p/9/3R5/9/9/9/K8/***R2***[-] w - - 0 1";
    assert_eq!(san_of(rooks, "d0d3"), "R0d3");
    assert_eq!(san_of(rooks, "d5d3"), "R5d3");
    assert_eq!(san_of(rooks, "d5a5"), "Ra5");
    assert_eq!(san_of(M1, "d0d2"), "Rd2");
    assert_eq!(san_of(M1, "e0i4"), "Bi4");
    let black_rooks = "***r2***/4k4/9/8p/9/3r5/9/9/9/K7N/***3***[-] b - - 0 1";
    assert_eq!(san_of(black_rooks, "d10d7"), "R10d7");
    assert_eq!(san_of(black_rooks, "d5d7"), "R5d7");
    // Knights on c1, c3 and g1 all reach e2: file, rank, or both.
    let knights = "***3***/4k4/9/8p/9/9/9/2N6/9/K1N3N2/***2N***[-] w - - 0 1";
    assert_eq!(san_of(knights, "c1e2"), "Nc1e2");
    assert_eq!(san_of(knights, "c3e2"), "N3e2");
    assert_eq!(san_of(knights, "g1e2"), "Nge2");
    assert_eq!(san_of(knights, "f0e2"), "Nfe2");
    assert_eq!(san_of(knights, "f0h1"), "Nh1");
    // Promotions, with and without a capture.
    let promo = "***3***/3rk4/2P6/9/9/9/9/9/9/K8/***3***[-] w - - 0 1";
    assert_eq!(san_of(promo, "c8c9r"), "c9=R");
    assert_eq!(san_of(promo, "c8d9n"), "cxd9=N");
    assert_eq!(san_of(promo, "c8d9b"), "cxd9=B");
    // A placement turn: the placement's token, then the board move (M4's recapture).
    let p = pos(M4_AFTER);
    let mut after = p.clone();
    let plies = turn::play(
        &mut after,
        "B@d10,R@f10;f10f7",
        Reading::Token,
        Extent::Whole,
    )
    .expect("M4's recapture");
    assert_eq!(turn::notation(&p, &plies), "B@d10,R@f10;Rxf7");
    let mut q = p.clone();
    assert_eq!(
        turn::play(&mut q, "B@d10,R@f10;Rxf7", Reading::Pgn, Extent::Whole),
        Ok(plies.clone())
    );
    // Records: a turn word is cut into its plies; marks and `=` are ignored on reading.
    let record = "1. B@d10,R@f10;Rxf7! 0-1";
    assert_eq!(Mitosis::split_record(record), ["B@d10,R@f10", "Rxf7!"]);
    let replayed = menagerie::tools::replay::replay(&p, record).expect("the record replays");
    assert_eq!(replayed.plies[1].token, "f10f7");
    assert_eq!(replayed.result, "0-1 {bare rule}");
    assert_eq!(
        pos(promo).import_move("c9R"),
        pos(promo).parse_move("c8c9r")
    );
    assert!(
        pos(START_FEN).import_move("Ge3").is_err(),
        "two Generals: the file is needed"
    );
    assert!(pos(START_FEN).import_move("Qe3").is_err(), "no such move");
}

/// `moves pgn` (protocol.md 8) prints the notation of every legal turn of `moves`, in order.
#[test]
fn moves_pgn_through_the_protocol() {
    let mut e = Engine::start_variant("mitosis");
    e.send(&format!("position fen {M4} moves f5f7"));
    let tokens = e.command("moves");
    let pgn = e.command("moves pgn");
    let words = |lines: &[String], prefix: &str| -> Vec<String> {
        let line = lines
            .iter()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("{lines:?}"));
        line[prefix.len()..]
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    let tokens = words(&tokens, "info string moves ");
    let pgn = words(&pgn, "info string moves pgn ");
    assert_eq!(tokens.len(), 44);
    assert_eq!(pgn.len(), 44);
    let i = tokens
        .iter()
        .position(|t| t == "B@d10,R@f10;f10f7")
        .expect("the recapture");
    assert_eq!(pgn[i], "B@d10,R@f10;Rxf7");
    let i = tokens
        .iter()
        .position(|t| t == "R@d10,B@f10;d10d1")
        .expect("a Rook from d10");
    assert_eq!(pgn[i], "R@d10,B@f10;Rd1");
}

#[test]
fn bench_fens_are_valid() {
    for fen in Mitosis::SEARCH.bench_fens {
        assert_eq!(pos(fen).fen(), *fen);
        assert!(game_outcome(&pos(fen)).is_none(), "{fen}");
    }
}

#[test]
fn perft_turns_of_the_examples() {
    // rules/mitosis.md 8: depth 1 in turns is the turn count of each example.
    for (fen, n) in [
        (START_FEN, 37),
        (M1, 18),
        (M2, 23),
        (M3_AFTER, 9),
        (M4_AFTER, 44),
        (M5_AFTER, 69),
    ] {
        let mut p = pos(fen);
        assert_eq!(perft_turns(&mut p, 1), n, "{fen}");
        assert_eq!(
            menagerie::perft::divide(&p, 1, Unit::Turn, 1).len() as u64,
            n
        );
    }
}

#[test]
fn protocol_results_and_turns() {
    // design.md "When a variant is done" 7: through the protocol, `info string result` names
    // the rule and `bestmove (none)` follows.
    let mut e = Engine::start_variant("mitosis");
    let info = e.read_until(|l| l.starts_with("info string variant"), SEARCH);
    assert!(
        info.last()
            .unwrap()
            .contains("files 9 ranks 11 pocket 1 portions 2"),
        "{info:?}"
    );
    for (position, result) in [
        (format!("position fen {M6} moves e5e6"), "1-0 {bare rule}"),
        (
            "position fen ***3***/k7n/9/9/9/9/9/9/9/K7N/***3***[-] b - - 100 80".to_string(),
            "1/2-1/2 {fifty-move rule: identical armies}",
        ),
        (
            "position fen ***3***/9/9/9/4p4/4N4/9/9/9/9/***3***[-] b - - 0 1".to_string(),
            "1-0 {no legal move: higher ranks}",
        ),
        (
            "position fen ***3***/q8/9/9/9/9/9/9/9/K8/***3***[-] b - - 0 1".to_string(),
            "1-0 {one piece each: higher rank}",
        ),
        (
            "position fen ***3***/a8/9/9/9/4P4/9/9/9/9/***3***[-] w - - 0 1".to_string(),
            "0-1 {one piece each: pawn against a major or King}",
        ),
        (
            "position fen ***rbn***/k8/9/9/9/9/9/9/9/K8/***3***[-] w - - 0 1".to_string(),
            "1/2-1/2 {one piece each: same piece}",
        ),
        (
            "position fen ***3***/9/9/9/9/9/9/9/9/9/***R2***[-] w - - 0 1".to_string(),
            "1/2-1/2 {no pieces on the board}",
        ),
        (
            "position fen ***3***/k7p/9/9/9/9/9/9/9/K7N/***3***[-] b - - 100 80".to_string(),
            "1-0 {fifty-move rule: higher ranks}",
        ),
    ] {
        e.send(&position);
        let out = e.go("go depth 2", SEARCH);
        assert_game_over(&out, &position, None, result);
    }
    // The search sees wins by rule: taking the King (M6) and, after a placement ply that keeps
    // the side to move, recapturing with the placed rook (M4: White is left bare).
    for (position, best) in [
        (format!("position fen {M6}"), "e5e6"),
        (format!("position fen {M4_AFTER}"), "B@d10,R@f10;f10f7"),
    ] {
        e.send(&position);
        let out = e.go("go depth 3", SEARCH);
        assert_eq!(bestmove(&out), best, "{out:#?}");
        assert!(out.iter().any(|l| l.contains("score mate 1")), "{out:#?}");
    }
    // A turn with a placement is one token; the engine answers with a whole turn.
    e.send(&format!("position fen {M4} moves f5f7"));
    let out = e.go("go depth 2", SEARCH);
    let best = bestmove(&out);
    assert!(best.contains(';') && best.contains('@'), "{best}");
    e.send(&format!("position fen {M4} moves f5f7 {best}"));
    assert!(e.fen().contains(" w - "), "{}", e.fen());
}

/// An independent, slow reference for cross-checking the generator (design.md "When a
/// variant is done" 4: perft figures come from the fast generator only after agreeing with
/// this one). Written from rules/mitosis.md alone: coordinates, step-by-step walks, whole-board
/// copies; nothing shared with the engine but the FEN text and the token format.
mod brute {
    /// (is White, uppercase kind letter).
    pub type Cell = Option<(bool, char)>;

    #[derive(Clone)]
    pub struct Board {
        pub cells: [[Cell; 11]; 9],
        pub white: bool,
        pub pending: Vec<char>,
        /// En passant squares and the pawn they capture.
        pub ep: Vec<(i32, i32)>,
        pub ep_victim: Option<(i32, i32)>,
    }

    pub fn is_sq(f: i32, r: i32) -> bool {
        (0..9).contains(&f)
            && ((1..=9).contains(&r) || ((r == 0 || r == 10) && (3..=5).contains(&f)))
    }

    fn is_base(r: i32) -> bool {
        r == 0 || r == 10
    }

    fn name(f: i32, r: i32) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r)
    }

    impl Board {
        pub fn from_fen(fen: &str) -> Board {
            let fields: Vec<&str> = fen.split_whitespace().collect();
            let (board, hand) = fields[0].split_once('[').unwrap();
            let mut cells = [[None; 11]; 9];
            for (i, row) in board.split('/').enumerate() {
                let r = 10 - i as i32;
                let mut f = 0;
                let mut num = 0;
                for c in row.chars() {
                    if let Some(d) = c.to_digit(10) {
                        num = num * 10 + d as i32;
                        continue;
                    }
                    f += num;
                    num = 0;
                    if c != '*' {
                        cells[f as usize][r as usize] =
                            Some((c.is_ascii_uppercase(), c.to_ascii_uppercase()));
                    }
                    f += 1;
                }
            }
            let pending: Vec<char> = hand
                .trim_end_matches(']')
                .chars()
                .filter(|c| *c != '-')
                .map(|c| c.to_ascii_uppercase())
                .collect();
            let white = fields[1] == "w";
            let mut ep = Vec::new();
            let mut ep_victim = None;
            if fields[3] != "-" {
                let t = fields[3];
                let f = (t.as_bytes()[0] - b'a') as i32;
                let ranks: Vec<i32> = t
                    .split(|c: char| c.is_ascii_lowercase())
                    .filter(|s| !s.is_empty())
                    .map(|s| s.parse().unwrap())
                    .collect();
                for r in &ranks {
                    ep.push((f, *r));
                }
                // The pusher is the side not to move.
                let v = if white {
                    ranks.iter().min().unwrap() - 1
                } else {
                    ranks.iter().max().unwrap() + 1
                };
                ep_victim = Some((f, v));
            }
            Board {
                cells,
                white,
                pending,
                ep,
                ep_victim,
            }
        }

        fn at(&self, f: i32, r: i32) -> Cell {
            if is_sq(f, r) {
                self.cells[f as usize][r as usize]
            } else {
                None
            }
        }

        /// Squares the piece on (f, r) could move to or capture on, by pattern, ignoring the
        /// King-capture restriction (`captures_only`: only the squares it attacks).
        fn targets(&self, f: i32, r: i32, captures_only: bool) -> Vec<(i32, i32)> {
            let (white, kind) = self.at(f, r).unwrap();
            let mut out = Vec::new();
            let ok = |x: i32, y: i32| -> bool {
                is_sq(x, y) && !is_base(y) && self.at(x, y).is_none_or(|(w, _)| w != white)
            };
            let rook = "RQCG".contains(kind);
            let bishop = "BQAG".contains(kind);
            let knight = "NCAG".contains(kind);
            let mut dirs: Vec<(i32, i32)> = Vec::new();
            if rook {
                dirs.extend([(1, 0), (-1, 0), (0, 1), (0, -1)]);
            }
            if bishop {
                dirs.extend([(1, 1), (-1, 1), (1, -1), (-1, -1)]);
            }
            for (dx, dy) in dirs {
                let (mut x, mut y) = (f + dx, r + dy);
                while is_sq(x, y) && !is_base(y) {
                    if ok(x, y) {
                        out.push((x, y));
                    }
                    if self.at(x, y).is_some() {
                        break;
                    }
                    x += dx;
                    y += dy;
                }
            }
            if knight {
                for (dx, dy) in crate::common::reference::KNIGHT {
                    if ok(f + dx, r + dy) {
                        out.push((f + dx, r + dy));
                    }
                }
            }
            if kind == 'K' {
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        if (dx, dy) != (0, 0) && ok(f + dx, r + dy) {
                            out.push((f + dx, r + dy));
                        }
                    }
                }
            }
            if kind == 'P' {
                let dy = if white { 1 } else { -1 };
                for dx in [-1, 1] {
                    let (x, y) = (f + dx, r + dy);
                    if captures_only {
                        if is_sq(x, y) && !is_base(y) {
                            out.push((x, y));
                        }
                    } else if ok(x, y) && (self.at(x, y).is_some() || self.ep.contains(&(x, y))) {
                        out.push((x, y));
                    }
                }
                if !captures_only {
                    let start = if white { 2 } else { 8 };
                    let max = if r == start { 3 } else { 1 };
                    for n in 1..=max {
                        let y = r + dy * n;
                        if !is_sq(f, y) || is_base(y) || self.at(f, y).is_some() {
                            break;
                        }
                        out.push((f, y));
                    }
                }
            }
            if captures_only {
                out.retain(|&(x, y)| {
                    !is_base(y) && (kind == 'P' || ok(x, y) || self.at(x, y).is_some())
                });
            }
            out
        }

        /// rules/mitosis.md 5.1: a non-King piece of `white` could capture on (f, r).
        fn attacked(&self, white: bool, f: i32, r: i32) -> bool {
            if is_base(r) {
                return false;
            }
            for x in 0..9 {
                for y in 0..11 {
                    if let Some((w, k)) = self.at(x, y) {
                        if w == white && k != 'K' && self.targets(x, y, true).contains(&(f, r)) {
                            return true;
                        }
                    }
                }
            }
            false
        }

        /// Board moves: (token, child).
        pub fn board_moves(&self) -> Vec<(String, Board)> {
            let mut out = Vec::new();
            for f in 0..9 {
                for r in 0..11 {
                    let Some((w, kind)) = self.at(f, r) else {
                        continue;
                    };
                    if w != self.white {
                        continue;
                    }
                    for (x, y) in self.targets(f, r, false) {
                        if let Some((_, 'K')) = self.at(x, y) {
                            if self.attacked(!self.white, f, r) {
                                continue;
                            }
                        }
                        let last = if self.white { 9 } else { 1 };
                        let promos: Vec<Option<char>> = if kind == 'P' && y == last {
                            vec![Some('R'), Some('B'), Some('N')]
                        } else {
                            vec![None]
                        };
                        for p in promos {
                            let mut t = format!("{}{}", name(f, r), name(x, y));
                            if let Some(c) = p {
                                t.push(c.to_ascii_lowercase());
                            }
                            out.push((t, self.play(f, r, x, y, p)));
                        }
                    }
                }
            }
            out
        }

        fn play(&self, f: i32, r: i32, x: i32, y: i32, promo: Option<char>) -> Board {
            let mut b = self.clone();
            let (w, kind) = b.cells[f as usize][r as usize].take().unwrap();
            let mut captured = b.cells[x as usize][y as usize];
            if kind == 'P' && f != x && captured.is_none() {
                let (vx, vy) = self.ep_victim.unwrap();
                captured = b.cells[vx as usize][vy as usize].take();
            }
            b.cells[x as usize][y as usize] = Some((w, promo.unwrap_or(kind)));
            b.ep.clear();
            b.ep_victim = None;
            b.pending.clear();
            if kind == 'P' && (y - r).abs() >= 2 {
                let dy = (y - r).signum();
                let mut yy = r + dy;
                while yy != y {
                    b.ep.push((x, yy));
                    yy += dy;
                }
                b.ep_victim = Some((x, y));
            }
            if let Some((_, c)) = captured {
                let parts: &[char] = match c {
                    'Q' => &['R', 'B'],
                    'C' => &['R', 'N'],
                    'A' => &['B', 'N'],
                    'G' => &['R', 'B', 'N'],
                    _ => &[],
                };
                let base = if w { 10 } else { 0 };
                let free = (3..=5).filter(|&bf| b.cells[bf][base].is_none()).count();
                if free > 0 {
                    b.pending = parts.to_vec();
                }
                if c == 'K' {
                    for col in b.cells.iter_mut() {
                        for cell in col.iter_mut() {
                            if matches!(cell, Some((cw, 'R' | 'B' | 'N')) if *cw != w) {
                                *cell = None;
                            }
                        }
                    }
                }
            }
            b.white = !w;
            b
        }

        /// Whole turns: (token, child).
        pub fn turns(&self) -> Vec<(String, Board)> {
            if self.pending.is_empty() {
                return self.board_moves();
            }
            let base = if self.white { 0 } else { 10 };
            let free: Vec<i32> = (3..=5).filter(|&f| self.at(f, base).is_none()).collect();
            let k = free.len().min(self.pending.len());
            let mut out = Vec::new();
            // Every assignment of distinct pending kinds to distinct free squares, k of them.
            let n = self.pending.len();
            for code in 0..(n + 1).pow(free.len() as u32) {
                let mut c = code;
                let mut used = vec![false; n];
                let mut legs: Vec<(i32, char)> = Vec::new();
                let mut ok = true;
                for &f in &free {
                    let v = c % (n + 1);
                    c /= n + 1;
                    if v == 0 {
                        continue;
                    }
                    if used[v - 1] {
                        ok = false;
                    }
                    used[v - 1] = true;
                    legs.push((f, self.pending[v - 1]));
                }
                if !ok || legs.len() != k {
                    continue;
                }
                let mut b = self.clone();
                b.pending.clear();
                for &(f, kind) in &legs {
                    b.cells[f as usize][base as usize] = Some((self.white, kind));
                }
                let prefix: Vec<String> = legs
                    .iter()
                    .map(|&(f, kind)| format!("{kind}@{}", name(f, base)))
                    .collect();
                for (t, child) in b.board_moves() {
                    out.push((format!("{};{t}", prefix.join(",")), child));
                }
            }
            out
        }

        /// The win rules perft applies (rules/mitosis.md 6.1-6.2).
        pub fn decided(&self) -> bool {
            let mut pieces = [Vec::new(), Vec::new()];
            for f in 0..9 {
                for r in 1..=9 {
                    if let Some((w, k)) = self.at(f, r) {
                        pieces[usize::from(!w)].push(k);
                    }
                }
            }
            let (nw, nb) = (pieces[0].len(), pieces[1].len());
            if (nw <= 1 && nb >= 2) || (nb <= 1 && nw >= 2) || (nw + nb == 1) {
                return true;
            }
            if nw == 1 && nb == 1 {
                let rank = |k: char| "KGQCARBNP".find(k).unwrap();
                let (a, b) = (pieces[0][0], pieces[1][0]);
                return match (a == 'P', b == 'P') {
                    (false, false) => a != b,
                    (true, false) => "KGQCA".contains(b),
                    (false, true) => "KGQCA".contains(a),
                    _ => false,
                } && rank(a) != rank(b);
            }
            false
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            if self.decided() {
                return 0;
            }
            let turns = self.turns();
            if depth == 1 {
                return turns.len() as u64;
            }
            turns.iter().map(|(_, b)| b.perft(depth - 1)).sum()
        }
    }
}

/// The fast generator agrees with the brute-force reference on the turns of thousands of
/// random positions (tokens and count).
#[test]
fn generator_matches_the_brute_force_reference() {
    let mut playout = Playout::new(77, 100);
    let starts = [START_FEN, M1, M2, M3, M4, M5, M6];
    let mut checked = 0;
    let mut pending = 0;
    for game in 0..70 {
        let mut p = pos(starts[game % starts.len()]);
        playout.run(&mut p, |p, at| {
            if p.verdict(Scope::Wins).map(|v| v.terminal).is_some() {
                return Next::Stop;
            }
            let mut want: Vec<String> = brute::Board::from_fen(&p.fen())
                .turns()
                .into_iter()
                .map(|(t, _)| t)
                .collect();
            want.sort();
            assert_eq!(turns(p), want, "{}", p.fen());
            checked += 1;
            pending += usize::from(!p.pending().is_empty());
            if at.at_end {
                return Next::Stop;
            }
            // Prefer captures now and then, to reach splits, King losses and endings.
            let caps: Vec<_> = at
                .legal
                .iter()
                .copied()
                .filter(|&m| p.is_tactical(m))
                .collect();
            if !caps.is_empty() && at.rng.below(3) == 0 {
                Next::Play(caps[at.rng.below(caps.len() as u64) as usize])
            } else {
                Next::Random
            }
        });
    }
    assert!(
        checked > 1000 && pending > 20,
        "{checked} positions, {pending} with pending parts"
    );
}

/// Perft of the suite positions at small depths equals the brute-force reference (the
/// independent check behind tests/perft/mitosis.perft).
#[test]
fn perft_matches_the_brute_force_reference() {
    for (fen, depth) in [
        (START_FEN, 3),
        (M1, 3),
        (M2, 3),
        (M3_AFTER, 3),
        (M4_AFTER, 2),
        (M5_AFTER, 2),
        (M6, 3),
        (MIDGAME, 2),
    ] {
        let mut p = pos(fen);
        assert_eq!(
            perft_turns(&mut p, depth),
            brute::Board::from_fen(fen).perft(depth),
            "{fen} depth {depth}"
        );
    }
}

/// Bad input never panics: random mutations of valid FENs and random tokens give typed errors
/// or valid positions (design.md "Errors and input").
#[test]
fn garbage_fens_and_tokens_do_not_panic() {
    let mut rng = SplitMix64::new(4242);
    let alphabet: Vec<char> = "*/[]-0123456789 kgqcarbnpKGQCARBNPwxe@,;é"
        .chars()
        .collect();
    let bases = [START_FEN, M1, M3_AFTER, M4_AFTER, M5_AFTER];
    for i in 0..5000 {
        let mut chars: Vec<char> = bases[i % bases.len()].chars().collect();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(chars.len() as u64) as usize;
            let c = alphabet[rng.below(alphabet.len() as u64) as usize];
            match rng.below(3) {
                0 => chars[at] = c,
                1 => chars.insert(at, c),
                _ => {
                    chars.remove(at);
                }
            }
        }
        let fen: String = chars.into_iter().collect();
        if let Ok(p) = Mitosis::from_fen(&fen) {
            // Whatever parses prints a FEN that parses to the same position.
            assert_eq!(pos(&p.fen()).fen(), p.fen(), "{fen}");
            let _ = game_outcome(&p);
            let _ = turns(&p);
        }
    }
    let p = pos(M4_AFTER);
    for _ in 0..5000 {
        let len = rng.below(12) as usize;
        let token: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
            .collect();
        let _ = p.parse_move(&token);
        let _ = Mitosis::startpos().parse_move(&token);
    }
}

#[test]
fn protection_needs_a_clear_line_and_a_forward_pawn() {
    // rules/mitosis.md 5.1: sliders need a clear path; pawns attack diagonally forward only.
    let cases = [
        (
            "***3***/9/9/9/4k4/r3R4/9/9/P8/K8/***3***[-] w - - 0 1",
            false,
        ),
        (
            "***3***/9/9/9/4k4/r1P1R4/9/9/P8/K8/***3***[-] w - - 0 1",
            true,
        ),
        (
            "***3***/9/9/9/3pk4/4R4/9/9/P8/K8/***3***[-] w - - 0 1",
            false,
        ),
        (
            "***3***/9/9/9/4k4/4R4/5p3/9/P8/K8/***3***[-] w - - 0 1",
            true,
        ),
    ];
    for (fen, legal) in cases {
        assert_eq!(
            ply_tokens(&pos(fen)).contains(&"e5e6".to_string()),
            legal,
            "{fen}"
        );
    }
}
