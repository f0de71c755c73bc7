//! Mutatis Mutandis piece library: every worked example of rules 6.1 and 6.2, the Chameleon
//! example of the seed, Betza's crooked-bishop paths, and the interaction rules of section 7.

use std::collections::BTreeSet;

use menagerie::variants::mutatis_mutandis::board::{parse_square, square_name};
use menagerie::variants::mutatis_mutandis::{
    actions_from, attacked, Action, ActionKind, ActionList, Board, State,
};

fn board(list: &[(&str, &str)]) -> Board {
    Board::from_list(list).unwrap()
}

fn acts(b: &Board, from: &str) -> ActionList {
    let mut l = ActionList::new();
    actions_from(b, parse_square(from).unwrap(), &mut l);
    l
}

fn set(s: &str) -> BTreeSet<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// Destination squares of every action of the piece on `from`.
fn dests(b: &Board, from: &str) -> BTreeSet<String> {
    acts(b, from)
        .iter()
        .map(|a| square_name(a.to).to_string())
        .collect()
}

/// Destinations of the non-capturing actions.
fn quiet(b: &Board, from: &str) -> BTreeSet<String> {
    acts(b, from)
        .iter()
        .filter(|a| a.captures == 0 && a.kind == ActionKind::Move)
        .map(|a| square_name(a.to).to_string())
        .collect()
}

/// Destinations of the capturing actions.
fn captures(b: &Board, from: &str) -> BTreeSet<String> {
    acts(b, from)
        .iter()
        .filter(|a| a.captures != 0)
        .map(|a| square_name(a.to).to_string())
        .collect()
}

fn tokens(b: &Board, from: &str) -> BTreeSet<String> {
    acts(b, from)
        .iter()
        .map(|a| a.token(Some(State::Queen)).to_string())
        .collect()
}

fn lone(code: &str, sq: &str) -> Board {
    board(&[(sq, code)])
}

/// The action of the piece on `from` landing on `to` (exactly one).
fn action_to(b: &Board, from: &str, to: &str) -> Action {
    let to = parse_square(to).unwrap();
    let v: Vec<Action> = acts(b, from).into_iter().filter(|a| a.to == to).collect();
    assert_eq!(v.len(), 1, "{v:?}");
    v[0]
}

// ---------------------------------------------------------------- rules 6.1

#[test]
fn king_d4() {
    // rules/mutatis-mutandis.md 6.1 K
    assert_eq!(
        dests(&lone("K", "d4"), "d4"),
        set("c3 c4 c5 d3 d5 e3 e4 e5")
    );
}

#[test]
fn maoking_steps_and_conversion() {
    // rules/mutatis-mutandis.md 6.1 MK: same 8 squares as K on an empty board, no captures.
    let b = lone("MK", "d4");
    assert_eq!(dests(&b, "d4"), set("c3 c4 c5 d3 d5 e3 e4 e5"));
    // [D 8]: converts an adjacent enemy that is not royal, not Mamra, not shielded.
    let b = board(&[
        ("d4", "MK"),
        ("e5", "n"),
        ("d5", "k"),
        ("c5", "ma"),
        ("c3", "r"),
        ("b2", "sh"),
        ("e3", "wu"),
    ]);
    let l = acts(&b, "d4");
    let conv: BTreeSet<String> = l
        .iter()
        .filter(|a| a.kind == ActionKind::Convert)
        .map(|a| a.token(None).to_string())
        .collect();
    assert_eq!(conv, set("d4e5"));
    assert!(l.iter().all(|a| a.captures == 0));
    assert_eq!(quiet(&b, "d4"), set("c4 d3 e4"));
}

#[test]
fn queen_d4() {
    // rules/mutatis-mutandis.md 6.1 Q
    assert_eq!(
        dests(&lone("Q", "d4"), "d4"),
        set("a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 d8 e3 e4 e5 f2 f4 f6 g1 g4 g7 h4 h8")
    );
}

#[test]
fn sissa_d4() {
    // rules/mutatis-mutandis.md 6.1 SS
    let all = set("a4 b3 b4 b5 b8 c2 c4 c6 d1 d2 d3 d5 d6 d7 d8 e2 e4 e6 f3 f4 f5 f8 g4 h2 h4 h6");
    assert_eq!(all.len(), 26);
    assert_eq!(dests(&lone("SS", "d4"), "d4"), all);
    let b = board(&[("d4", "SS"), ("d5", "Q"), ("e4", "N")]);
    let mut less = all.clone();
    less.remove("d5");
    less.remove("e4");
    assert_eq!(less.len(), 24);
    assert_eq!(dests(&b, "d4"), less);
}

#[test]
fn amazon_and_squeen_a1() {
    // rules/mutatis-mutandis.md 6.1 AM: Q's 21 + b3 c2
    let d = dests(&lone("AM", "a1"), "a1");
    assert_eq!(d.len(), 23);
    assert!(d.contains("b3") && d.contains("c2"));
    // SQ
    assert_eq!(
        dests(&lone("SQ", "a1"), "a1"),
        set("a2 a3 a4 a5 a6 a7 a8 b1 b2 b3 c1 c2 c3 c5 d1 d4 d7 e1 e3 e5 f1 f6 g1 g4 g7 h1 h8")
    );
}

#[test]
fn unicorn_d4() {
    // rules/mutatis-mutandis.md 6.1 AR
    assert_eq!(
        dests(&lone("AR", "d4"), "d4"),
        set("a1 a7 b2 b3 b5 b6 b8 c2 c3 c5 c6 e2 e3 e5 e6 f2 f3 f5 f6 f8 g1 g7 h2 h6 h8")
    );
}

#[test]
fn dragon_d4() {
    // rules/mutatis-mutandis.md 6.1 DR (rook + spotted gryphon)
    assert_eq!(
        dests(&lone("DR", "d4"), "d4"),
        set("a3 a4 a5 b4 c1 c3 c4 c5 c7 d1 d2 d3 d5 d6 d7 d8 e1 e3 e4 e5 e7 f4 g3 g4 g5 h4")
    );
    let b = board(&[("d4", "DR"), ("e5", "p"), ("c4", "N")]);
    assert_eq!(
        dests(&b, "d4"),
        set("a3 a5 c1 c3 c5 c7 d1 d2 d3 d5 d6 d7 d8 e1 e3 e4 e5 f4 g3 g4 h4")
    );
    assert_eq!(captures(&b, "d4"), set("e5"));
}

#[test]
fn nightrider_b1() {
    // rules/mutatis-mutandis.md 6.1 NR
    assert_eq!(dests(&lone("NR", "b1"), "b1"), set("a3 c3 d2 d5 e7 f3 h4"));
}

#[test]
fn rose_d4_and_b4() {
    // rules/mutatis-mutandis.md 6.1 RO, [D 9]
    assert_eq!(
        dests(&lone("RO", "d4"), "d4"),
        set("a1 a7 b3 b5 c2 c6 d8 e2 e6 f3 f5 g1 g7 h4")
    );
    let b = board(&[("b4", "RO"), ("c6", "N")]);
    assert_eq!(
        dests(&b, "b4"),
        set("a2 a6 b8 c2 d3 d5 e1 e7 f4 f8 g2 g6 h4")
    );
}

#[test]
fn chancellor_archbishop_d4() {
    // rules/mutatis-mutandis.md 6.1 C, A
    assert_eq!(dests(&lone("C", "d4"), "d4").len(), 22);
    assert_eq!(dests(&lone("A", "d4"), "d4").len(), 21);
}

#[test]
fn dancing_horse_a1() {
    // rules/mutatis-mutandis.md 6.1 DA
    assert_eq!(
        dests(&lone("DA", "a1"), "a1"),
        set("a3 a5 b3 b4 c1 c2 c5 d2 d4 e1 e3")
    );
    let b = board(&[("a1", "DA"), ("b3", "N"), ("c2", "R")]);
    assert!(dests(&b, "a1").is_empty());
}

#[test]
fn octopus_d4() {
    // rules/mutatis-mutandis.md 6.1 OC [D 10]
    let want = set("a1 a2 a3 a5 a6 a7 a8 b1 b2 b3 b4 b5 b6 b7 c1 c2 c3 c4 c5 c6 c7 d2 d3 d5 d6 d8 e1 e2 e3 e4 e5 e6 e7 f1 f2 f3 f4 f5 f6 f7 g1 g2 g3 g5 g6 g7 g8 h1 h4 h7 h8");
    assert_eq!(want.len(), 51);
    assert_eq!(dests(&lone("OC", "d4"), "d4"), want);
}

#[test]
fn dragon_king_horse_a1() {
    // rules/mutatis-mutandis.md 6.1 DK, DH
    assert_eq!(
        dests(&lone("DK", "a1"), "a1"),
        set("a2 a3 a4 a5 a6 a7 a8 b1 c1 d1 e1 f1 g1 h1 b2")
    );
    assert_eq!(
        dests(&lone("DH", "a1"), "a1"),
        set("a2 b1 b2 c3 d4 e5 f6 g7 h8")
    );
}

#[test]
fn knights_d4_a1() {
    // rules/mutatis-mutandis.md 6.1 N / HN, NG, NW, NF
    for code in ["N", "HN"] {
        assert_eq!(
            dests(&lone(code, "d4"), "d4"),
            set("b3 b5 c2 c6 e2 e6 f3 f5")
        );
    }
    assert_eq!(dests(&lone("NG", "a1"), "a1"), set("a2 b1 b2 b3 c2"));
    assert_eq!(dests(&lone("NW", "a1"), "a1"), set("a2 b1 b3 c2"));
    assert_eq!(dests(&lone("NF", "a1"), "a1"), set("b2 b3 c2"));
}

#[test]
fn gryphon_aanca_d4() {
    // rules/mutatis-mutandis.md 6.1 GR, AA
    assert_eq!(
        dests(&lone("GR", "d4"), "d4"),
        set("a3 a5 b3 b5 c1 c2 c3 c5 c6 c7 c8 e1 e2 e3 e5 e6 e7 e8 f3 f5 g3 g5 h3 h5")
    );
    assert_eq!(
        dests(&lone("AA", "d4"), "d4"),
        set("a2 a6 a8 b1 b3 b5 b7 c2 c4 c6 d3 d5 e2 e4 e6 f1 f3 f5 f7 g2 g6 g8 h1 h7")
    );
}

#[test]
fn crooked_rook_d4() {
    // rules/mutatis-mutandis.md 6.1 CR
    let want = set("a1 a2 a6 a7 a8 b1 b2 b3 b5 b6 b7 c2 c3 c4 c5 c6 d3 d5 e2 e3 e4 e5 e6 f1 f2 f3 f5 f6 f7 g1 g2 g6 g7 g8 h1 h7 h8");
    assert_eq!(want.len(), 37);
    assert_eq!(dests(&lone("CR", "d4"), "d4"), want);
}

#[test]
fn crooked_bishop_betza_paths() {
    // rules/mutatis-mutandis.md 6.1 CB: e4 = Betza's 8 paths; b1; seed: b1 via a2 b3 a4 b5 a6 b7 a8.
    assert_eq!(
        dests(&lone("CB", "e4"), "e4"),
        set("a4 b3 b5 c4 d1 d3 d5 d7 e2 e6 e8 f1 f3 f5 f7 g4 h3 h5")
    );
    assert_eq!(
        dests(&lone("CB", "b1"), "b1"),
        set("a2 a4 a6 a8 b3 b5 b7 c2 c4 c6 c8 d1 e2 f1 g2 h1")
    );
    // Betza's path through a2..a8 is blocked step by step: a piece on a4 stops it there.
    let b = board(&[("b1", "CB"), ("a4", "n")]);
    let d = dests(&b, "b1");
    assert!(d.contains("a4") && d.contains("b3") && !d.contains("a6") && !d.contains("a8"));
    assert_eq!(captures(&b, "b1"), set("a4"));
}

#[test]
fn rook_d4() {
    // rules/mutatis-mutandis.md 6.1 R
    assert_eq!(dests(&lone("R", "d4"), "d4").len(), 14);
}

#[test]
fn cylindrical_bishop() {
    // rules/mutatis-mutandis.md 6.1 CY
    assert_eq!(
        dests(&lone("CY", "a4"), "a4"),
        set("b3 b5 c2 c6 d1 d7 e8 f1 f7 g2 g6 h3 h5")
    );
    let b = board(&[("h1", "CY"), ("g2", "p"), ("c6", "N")]);
    assert_eq!(dests(&b, "h1"), set("a2 b3 c4 d5 e6 f7 g8 g2"));
    assert_eq!(captures(&b, "h1"), set("g2"));
}

#[test]
fn paovao_d4() {
    // rules/mutatis-mutandis.md 6.1 PV
    let b = board(&[
        ("d4", "PV"),
        ("d6", "N"),
        ("d8", "n"),
        ("f6", "n"),
        ("g7", "n"),
        ("b2", "N"),
        ("a1", "n"),
    ]);
    assert_eq!(
        quiet(&b, "d4"),
        set("a4 b4 c4 d1 d2 d3 d5 e4 f4 g4 h4 c3 e3 f2 g1 c5 b6 a7 e5")
    );
    assert_eq!(captures(&b, "d4"), set("d8 g7 a1"));
}

#[test]
fn mamra_and_wuss_d4() {
    // rules/mutatis-mutandis.md 6.1 MA: as K; WU: 27 Q squares, empty only.
    assert_eq!(
        dests(&lone("MA", "d4"), "d4"),
        set("c3 c4 c5 d3 d5 e3 e4 e5")
    );
    assert_eq!(
        dests(&lone("WU", "d4"), "d4"),
        dests(&lone("Q", "d4"), "d4")
    );
    let b = board(&[("d4", "WU"), ("d5", "n"), ("e5", "r")]);
    assert!(captures(&b, "d4").is_empty());
    assert!(!dests(&b, "d4").contains("d5"));
}

#[test]
fn crooked_nightriders_d4() {
    // rules/mutatis-mutandis.md 6.1 N11, N02, N31, N33, N04
    let cases = [
        (
            "N11",
            "a4 a7 b2 b3 b5 b6 c2 c3 c5 c6 c8 d1 d7 e2 e3 e5 e6 e8 f2 f3 f5 f6 g1 g4 g7 h3 h5",
            27,
        ),
        (
            "N02",
            "a2 a6 b1 b3 b4 b5 b7 c2 c6 d2 d6 d8 e2 e6 f1 f3 f4 f5 f7 g2 g6 h4",
            22,
        ),
        (
            "N31",
            "a3 a5 a8 b3 b5 c1 c2 c6 c7 e1 e2 e6 e7 f3 f5 g3 g5 g8 h1 h7",
            20,
        ),
        ("N33", "a1 a7 b3 b5 c2 c6 e2 e6 f3 f5 g1 g7", 12),
        ("N04", "b3 b5 c2 c6 d8 e2 e6 f3 f5 h4", 10),
    ];
    for (code, want, n) in cases {
        let want = set(want);
        assert_eq!(want.len(), n, "{code}");
        assert_eq!(dests(&lone(code, "d4"), "d4"), want, "{code}");
    }
}

#[test]
fn pawns() {
    // rules/mutatis-mutandis.md 6.1 P: e2 with Black d3: e3 e4 d3(x)
    let b = board(&[("e2", "P"), ("d3", "p")]);
    assert_eq!(quiet(&b, "e2"), set("e3 e4"));
    assert_eq!(captures(&b, "e2"), set("d3"));
    // BP: e4, Black e5, d5: f5, e5(x)
    let b = board(&[("e4", "BP"), ("e5", "p"), ("d5", "p")]);
    assert_eq!(quiet(&b, "e4"), set("f5"));
    assert_eq!(captures(&b, "e4"), set("e5"));
    // BP has no double step on rank 2.
    assert_eq!(dests(&lone("BP", "e2"), "e2"), set("d3 f3"));
    // SP: e4, Black d5: e5 c5 g5, d5(x)
    let b = board(&[("e4", "SP"), ("d5", "p")]);
    assert_eq!(quiet(&b, "e4"), set("e5 c5 g5"));
    assert_eq!(captures(&b, "e4"), set("d5"));
    // Blue pawns move down the board (rules 1).
    let b = board(&[("e7", "p"), ("d6", "N")]);
    assert_eq!(quiet(&b, "e7"), set("e6 e5"));
    assert_eq!(captures(&b, "e7"), set("d6"));
}

#[test]
fn pawn_promotion_marking_and_en_passant() {
    // rules/mutatis-mutandis.md 10: P/BP/SP ending on the enemy home row must promote.
    let b = board(&[("e7", "P"), ("d8", "r")]);
    let l = acts(&b, "e7");
    assert!(l.iter().all(|a| a.promotes));
    assert_eq!(tokens(&b, "e7"), set("e7e8q e7d8q"));
    let b = board(&[("e2", "p")]);
    assert!(acts(&b, "e2").iter().all(|a| a.promotes));
    // CP may promote: both actions exist.
    let b = board(&[("e7", "CP")]);
    let t = tokens(&b, "e7");
    assert!(t.contains("e7e8") && t.contains("e7e8q") && t.contains("e7d8q"));
    // en passant (rules 10): after e2e4, a P or SP on d4 takes on e3.
    let mut b = board(&[("e4", "BP"), ("d4", "p"), ("f4", "sp"), ("c4", "bp")]);
    b.ep = Some(parse_square("e3").unwrap());
    for from in ["d4", "f4"] {
        let a = action_to(&b, from, "e3");
        assert_eq!(a.captures, 1u64 << parse_square("e4").unwrap());
    }
    assert!(!dests(&b, "c4").contains("e3"));
}

// ---------------------------------------------------------------- rules 6.2

#[test]
fn long_leaper_a1() {
    // rules/mutatis-mutandis.md 6.2 LL: a1, Black a3 a5 c3 d4
    let b = board(&[
        ("a1", "LL"),
        ("a3", "p"),
        ("a5", "n"),
        ("c3", "r"),
        ("d4", "a"),
    ]);
    assert_eq!(
        dests(&b, "a1"),
        set("a2 a4 a6 a7 a8 b1 c1 d1 e1 f1 g1 h1 b2")
    );
    let sq = |s: &str| 1u64 << parse_square(s).unwrap();
    assert_eq!(action_to(&b, "a1", "a2").captures, 0);
    assert_eq!(action_to(&b, "a1", "a4").captures, sq("a3"));
    for to in ["a6", "a7", "a8"] {
        assert_eq!(action_to(&b, "a1", to).captures, sq("a3") | sq("a5"));
    }
    assert_eq!(action_to(&b, "a1", "b2").captures, 0);
}

#[test]
fn withdrawer_and_advancer_d4() {
    // rules/mutatis-mutandis.md 6.2 WI: d4, Black d3: moves to d5..d8 capture d3
    let b = board(&[("d4", "WI"), ("d3", "p")]);
    assert_eq!(captures(&b, "d4"), set("d5 d6 d7 d8"));
    let d3 = 1u64 << parse_square("d3").unwrap();
    assert!(acts(&b, "d4")
        .iter()
        .all(|a| a.captures == 0 || a.captures == d3));
    // AD: d4, Black d7, g4: d6 captures d7, f4 captures g4
    let b = board(&[("d4", "AD"), ("d7", "p"), ("g4", "n")]);
    assert_eq!(captures(&b, "d4"), set("d6 f4"));
    assert_eq!(
        action_to(&b, "d4", "d6").captures,
        1u64 << parse_square("d7").unwrap()
    );
    assert_eq!(
        action_to(&b, "d4", "f4").captures,
        1u64 << parse_square("g4").unwrap()
    );
}

#[test]
fn swapper_d4() {
    // rules/mutatis-mutandis.md 6.2 SW: d4, White a1 f4, Black d7 e5 g4
    let b = board(&[
        ("d4", "SW"),
        ("a1", "N"),
        ("f4", "R"),
        ("d7", "n"),
        ("e5", "r"),
        ("g4", "a"),
    ]);
    let l = acts(&b, "d4");
    let swaps: BTreeSet<String> = l
        .iter()
        .filter(|a| a.kind == ActionKind::Swap)
        .map(|a| square_name(a.to).to_string())
        .collect();
    assert_eq!(swaps, set("a1 d7 e5 f4"));
    let md: BTreeSet<String> = l
        .iter()
        .filter(|a| a.kind == ActionKind::MutualDestruction)
        .map(|a| a.token(None).to_string())
        .collect();
    assert_eq!(md, set("d4e5"));
    let t = tokens(&b, "d4");
    assert!(t.contains("d4e5,e5d4") && t.contains("d4a1,a1d4"));
}

#[test]
fn chameleon_seed_example() {
    // rules/mutatis-mutandis.md 7.2 / seed: Black CH a2, White WI a1, LL a3, AD a5:
    // a2a4 captures a1, a3, a5.
    let b = board(&[("a2", "ch"), ("a1", "WI"), ("a3", "LL"), ("a5", "AD")]);
    let a = action_to(&b, "a2", "a4");
    let want = ["a1", "a3", "a5"]
        .iter()
        .fold(0u64, |m, s| m | 1u64 << parse_square(s).unwrap());
    assert_eq!(a.captures, want);
    assert_eq!(a.token(None).as_str(), "a2a4");
}

#[test]
fn archer_d1() {
    // rules/mutatis-mutandis.md 6.2 AC: d1, Black d2 b3 a4 h5 h8, White g6: shots d2, b3, h5
    let b = board(&[
        ("d1", "AC"),
        ("d2", "p"),
        ("b3", "n"),
        ("a4", "r"),
        ("h5", "q"),
        ("h8", "a"),
        ("g6", "N"),
    ]);
    let shots: BTreeSet<String> = acts(&b, "d1")
        .iter()
        .filter(|a| a.kind == ActionKind::Shot)
        .map(|a| square_name(a.to).to_string())
        .collect();
    assert_eq!(shots, set("d2 b3 h5"));
    assert!(acts(&b, "d1")
        .iter()
        .all(|a| a.kind == ActionKind::Shot || a.captures == 0));
}

#[test]
fn cannon_pawn_d4() {
    // rules/mutatis-mutandis.md 6.2 CP: d4 with White c4 e3, Black d5 d6
    let b = board(&[
        ("d4", "CP"),
        ("c4", "N"),
        ("e3", "N"),
        ("d5", "p"),
        ("d6", "p"),
    ]);
    assert_eq!(quiet(&b, "d4"), set("b4 c3 c5 d3 e4 e5 f2"));
    assert_eq!(captures(&b, "d4"), set("d6"));
}

#[test]
fn oxybeles_d4() {
    // rules/mutatis-mutandis.md 6.2 OX: White d4; White R d3, Black d7, Black N c5, White e5
    let b = board(&[
        ("d4", "OX"),
        ("d3", "R"),
        ("d7", "p"),
        ("c5", "n"),
        ("e5", "A"),
    ]);
    assert_eq!(
        tokens(&b, "d4"),
        set("d4e4 d4d5,d3d7 d4c4 d4c3,e5a1 d4e3,c5g1")
    );
    let a = acts(&b, "d4")
        .into_iter()
        .find(|a| a.token(None).as_str() == "d4d5,d3d7")
        .unwrap();
    assert_eq!(a.kind, ActionKind::Sling);
    assert_eq!(a.captures, 1u64 << parse_square("d7").unwrap());
}

#[test]
fn oxybeles_pawn_limits_and_promotion() {
    // rules/mutatis-mutandis.md 6.2 OX: a pawn is never slung onto its own rank 1; slung onto
    // its promotion rank it promotes.
    let b = board(&[("d5", "OX"), ("d6", "P")]);
    let l = acts(&b, "d5");
    let down = l
        .iter()
        .find(|a| a.to == parse_square("d4").unwrap())
        .unwrap();
    assert_eq!(down.token(None).as_str(), "d5d4,d6d2");
    let b = board(&[("d5", "OX"), ("d4", "P")]);
    let up = action_to(&b, "d5", "d6");
    assert!(up.promotes);
    assert_eq!(up.token(Some(State::Amazon)).as_str(), "d5d6,d4d8am");
    // Nothing beyond the new square: the slung piece stays (bare step).
    let b = board(&[("g1", "OX"), ("f1", "R")]);
    assert_eq!(action_to(&b, "g1", "h1").token(None).as_str(), "g1h1");
}

#[test]
fn secutor_d4() {
    // rules/mutatis-mutandis.md 6.2 SE, [D 17]
    let b = board(&[
        ("d4", "SE"),
        ("d6", "N"),
        ("f3", "N"),
        ("b7", "p"),
        ("f7", "p"),
        ("f4", "n"),
        ("g6", "n"),
        ("c4", "r"),
        ("b2", "a"),
    ]);
    assert_eq!(quiet(&b, "d4"), set("d1 d2 d3 d5 e4"));
    assert_eq!(captures(&b, "d4"), set("b7 f7 g6 b2"));
}

// ---------------------------------------------------------------- rules 7

#[test]
fn freezing_and_suicide() {
    // rules/mutatis-mutandis.md 7.1: a piece next to an enemy Immobilizer only commits suicide;
    // royals do nothing.
    let b = board(&[("c3", "Q"), ("d4", "im"), ("e5", "K")]);
    assert_eq!(tokens(&b, "c3"), set("c3c3x"));
    assert!(acts(&b, "e5").is_empty());
    // the frozen queen attacks nothing: a black piece on c8 is not attacked.
    let b2 = board(&[("c3", "Q"), ("d4", "im"), ("c8", "n")]);
    assert!(!attacked(&b2, parse_square("c8").unwrap()));
    // A Chameleon freezes only enemy Immobilizers (and is frozen by them).
    let b = board(&[("d4", "CH"), ("d5", "im"), ("e4", "n")]);
    assert_eq!(tokens(&b, "d5"), set("d5d5x"));
    assert_eq!(tokens(&b, "d4"), set("d4d4x"));
    assert!(!tokens(&b, "e4").contains("e4e4x"));
    // Frozen spotters still spot; a frozen Archer cannot shoot.
    let b = board(&[("a1", "AC"), ("a6", "r"), ("a7", "N"), ("b8", "im")]);
    assert!(tokens(&b, "a1").contains("a1a6"));
    let b = board(&[("a1", "AC"), ("a2", "r"), ("b1", "im")]);
    assert_eq!(tokens(&b, "a1"), set("a1a1x"));
}

#[test]
fn swap_back_ban() {
    // rules/mutatis-mutandis.md 7.3: the two pieces of the last Swapper/Chameleon swap may not
    // swap with each other on the next turn; other swaps stay allowed.
    let mut b = board(&[("d4", "SW"), ("d7", "sw"), ("a4", "n")]);
    assert!(tokens(&b, "d4").contains("d4d7,d7d4"));
    b.swap_ban = Some((parse_square("d7").unwrap(), parse_square("d4").unwrap()));
    let t = tokens(&b, "d4");
    assert!(!t.contains("d4d7,d7d4"));
    assert!(t.contains("d4a4,a4d4"));
    let b = {
        let mut b = board(&[("d4", "CH"), ("d7", "sw")]);
        b.swap_ban = Some((parse_square("d4").unwrap(), parse_square("d7").unwrap()));
        b
    };
    assert!(!tokens(&b, "d4").contains("d4d7,d7d4"));
}

#[test]
fn immunity_shield_and_mamra() {
    // rules/mutatis-mutandis.md 7.4 and 6.2 SH: a shielded piece cannot be captured by any
    // mechanism; withdrawal/approach stay legal without the capture.
    let b = board(&[("d4", "Q"), ("d6", "n"), ("e7", "sh")]);
    assert!(!captures(&b, "d4").contains("d6"));
    assert!(!attacked(&b, parse_square("d6").unwrap()));
    // The shield itself is capturable (it is not next to another shield).
    let b = board(&[("e4", "Q"), ("e7", "sh")]);
    assert!(captures(&b, "e4").contains("e7"));
    let b = board(&[("d4", "WI"), ("d3", "p"), ("c2", "sh")]);
    assert_eq!(action_to(&b, "d4", "d6").captures, 0);
    // Long leaper never jumps an immune piece.
    let b = board(&[("a1", "LL"), ("a3", "p"), ("b4", "sh")]);
    assert!(!dests(&b, "a1").contains("a4"));
    // Mamra: only P, BP, SP, CP capture it [D 14].
    let b = board(&[
        ("d4", "Q"),
        ("d5", "ma"),
        ("c4", "P"),
        ("e4", "CP"),
        ("e5", "BP"),
    ]);
    assert!(!captures(&b, "d4").contains("d5"));
    assert!(captures(&b, "c4").contains("d5"));
    assert!(captures(&b, "e5").is_empty()); // BP captures straight ahead: e6 is empty
    let b2 = board(&[("d5", "ma"), ("c4", "P")]);
    assert!(attacked(&b2, parse_square("d5").unwrap()));
    let b3 = board(&[("d5", "ma"), ("d3", "CP"), ("d4", "N")]);
    assert!(captures(&b3, "d3").contains("d5"));
    // A Chameleon never takes a Mamra nor a shielded piece.
    let b = board(&[("d4", "CH"), ("d5", "ma"), ("d7", "q")]);
    assert!(captures(&b, "d4").is_empty());
    // A slung piece stops before an immune piece.
    let b = board(&[("d4", "OX"), ("d3", "R"), ("d7", "n"), ("e8", "sh")]);
    assert_eq!(action_to(&b, "d4", "d5").token(None).as_str(), "d4d5,d3d6");
}

#[test]
fn chameleon_mimicry() {
    // rules/mutatis-mutandis.md 7.2 a: displacement mimicry with the victim's own pattern.
    // A knight two squares away (knight leap) is taken; a rook on a knight square is not.
    let b = board(&[("d4", "CH"), ("e6", "n"), ("c6", "r"), ("f3", "k")]);
    assert_eq!(captures(&b, "d4"), set("e6"));
    let b = board(&[("d4", "CH"), ("d8", "r"), ("e5", "k")]);
    assert_eq!(captures(&b, "d4"), set("d8 e5"));
    // Pawn victim with the Chameleon owner's forward: a Black Chameleon on d5 takes a White
    // pawn on c4 (Black captures diagonally downwards), not one on c6.
    let b = board(&[("d5", "ch"), ("c4", "P"), ("e6", "P")]);
    assert_eq!(captures(&b, "d5"), set("c4"));
    // Paovao: needs a screen.
    let b = board(&[("d1", "CH"), ("d5", "pv"), ("d3", "N")]);
    assert_eq!(captures(&b, "d1"), set("d5"));
    // (b) withdrawal alone, (c) swap and mutual destruction with Swappers, (d) shooting Archers.
    let b = board(&[("d4", "CH"), ("d3", "wi")]);
    assert_eq!(captures(&b, "d4"), set("d5 d6 d7 d8"));
    let b = board(&[
        ("d4", "CH"),
        ("d7", "sw"),
        ("e5", "sw"),
        ("a7", "ac"),
        ("a8", "N"),
    ]);
    let t = tokens(&b, "d4");
    assert!(t.contains("d4d7,d7d4") && t.contains("d4e5,e5d4") && t.contains("d4e5"));
    assert!(t.contains("d4a7"));
    // ...but not when the Archer is three squares away and unspotted.
    let b = board(&[("d4", "CH"), ("a7", "ac")]);
    assert!(!tokens(&b, "d4").contains("d4a7"));
    // Excluded victims: Immobilizer, Shield, Wuss, Oxybeles, Maoking, Chameleon.
    for code in ["im", "sh", "wu", "ox", "mk", "ch"] {
        // (an adjacent Immobilizer would freeze the Chameleon: put it two squares away)
        let sq = if code == "im" { "d6" } else { "e5" };
        let b = board(&[("d4", "CH"), (sq, code)]);
        assert!(captures(&b, "d4").is_empty(), "{code}");
    }
}

#[test]
fn attacked_query_mechanisms() {
    // rules/mutatis-mutandis.md 5: attacked = the opponent can remove it by any mechanism.
    let sq = |s: &str| parse_square(s).unwrap();
    // withdrawal
    assert!(attacked(&board(&[("d4", "wi"), ("d3", "K")]), sq("d3")));
    // approach
    assert!(attacked(&board(&[("d4", "AD"), ("d7", "k")]), sq("d7")));
    assert!(!attacked(&board(&[("d4", "AD"), ("d5", "k")]), sq("d5")));
    // long leap
    assert!(attacked(&board(&[("a1", "LL"), ("a3", "k")]), sq("a3")));
    // shot
    assert!(attacked(&board(&[("a1", "AC"), ("a3", "k")]), sq("a3")));
    // mutual destruction
    assert!(attacked(&board(&[("a1", "SW"), ("b2", "k")]), sq("b2")));
    // sling: the Oxybeles flings a White rook onto the Black king.
    assert!(attacked(
        &board(&[("d4", "OX"), ("d3", "R"), ("d8", "k")]),
        sq("d8")
    ));
    // sling of an enemy piece can hit a friend of the Oxybeles? No: the slung piece only
    // captures its own enemies.
    assert!(!attacked(
        &board(&[("d4", "OX"), ("d3", "r"), ("d8", "k")]),
        sq("d8")
    ));
    // Wuss and Maoking never attack.
    assert!(!attacked(&board(&[("d4", "WU"), ("d5", "k")]), sq("d5")));
    assert!(!attacked(&board(&[("d4", "MK"), ("d5", "r")]), sq("d5")));
    // Immune pieces are not attacked.
    assert!(!attacked(&board(&[("d4", "Q"), ("d5", "ma")]), sq("d5")));
}

#[test]
fn fen_board_roundtrip() {
    // rules/mutatis-mutandis.md 11: the start example's board field.
    let f = "[gr][nr]k[dk][ch]r[da][wi]/pppppppp/8/8/8/8/PPPPPPPP/[LL][AR]CKQ[MA][HN][IM]";
    let b = Board::from_fen_board(f).unwrap();
    assert_eq!(b.fen_board(), f);
    assert_eq!(
        b.piece(parse_square("c8").unwrap()).unwrap().state,
        State::King
    );
    let g = "[n11]7/8/8/3[SQ]4/8/8/8/[N04]6[cy]";
    assert_eq!(Board::from_fen_board(g).unwrap().fen_board(), g);
    for bad in [
        "8/8/8/8/8/8/8",
        "9/8/8/8/8/8/8/8",
        "[xx]7/8/8/8/8/8/8/8",
        "[gr7/8/8/8/8/8/8/8",
        "[Gr]7/8/8/8/8/8/8/8",
        "X7/8/8/8/8/8/8/8",
        "18446744073709551616/8/8/8/8/8/8/8",
        "08/8/8/8/8/8/8/8",
        "4K03/8/8/8/8/8/8/8",
    ] {
        assert!(Board::from_fen_board(bad).is_err(), "{bad}");
    }
    // [D 32]: a bracketed one-letter code is accepted and printed bare.
    let k = Board::from_fen_board("[K]7/8/8/8/8/8/8/[n]7").unwrap();
    assert_eq!(k.fen_board(), "K7/8/8/8/8/8/8/n7");
    // Every state's code round-trips in both colours.
    for s in State::ALL {
        for up in [true, false] {
            let code = if up {
                s.code().to_string()
            } else {
                s.code().to_ascii_lowercase()
            };
            let b = board(&[("e4", code.as_str())]);
            let back = Board::from_fen_board(&b.fen_board()).unwrap();
            assert_eq!(back, b);
        }
    }
}

#[test]
fn tokens_parse_back() {
    // rules/mutatis-mutandis.md 11: tokens name their actions.
    let b = board(&[
        ("d4", "OX"),
        ("d3", "R"),
        ("d7", "p"),
        ("c5", "n"),
        ("e5", "A"),
    ]);
    let l = acts(&b, "d4");
    for a in &l {
        let t = a.token(None);
        assert_eq!(Action::find(&l, &t).unwrap().0, *a);
    }
    assert!(Action::find(&l, "d4d5").is_err());
    assert!(Action::find(&l, "zz").is_err());
    assert!(Action::find(&l, "d4d5,d3d7,a1a2").is_err());
    let b = board(&[("e7", "P")]);
    let l = acts(&b, "e7");
    let (a, p) = Action::find(&l, "e7e8am").unwrap();
    assert!(a.promotes);
    assert_eq!(p, Some(State::Amazon));
    assert!(Action::find(&l, "e7e8").is_err());
    assert!(Action::find(&l, "e7e8zz").is_err());
}

#[test]
fn chameleon_combinations() {
    let sq = |s: &str| 1u64 << parse_square(s).unwrap();
    // rules/mutatis-mutandis.md 7.2 c: a swap with an enemy Swapper combined with withdrawal
    // (from the origin) and approach (beyond the Swapper's square).
    let b = board(&[("d4", "CH"), ("d3", "wi"), ("d6", "sw"), ("d7", "ad")]);
    let a = acts(&b, "d4")
        .into_iter()
        .find(|a| a.kind == ActionKind::Swap)
        .unwrap();
    assert_eq!(a.token(None).as_str(), "d4d6,d6d4");
    assert_eq!(a.captures, sq("d3") | sq("d7"));
    // 7.2 b: jumping two Long Leapers on one line, with a landing square after each.
    let b = board(&[("a1", "CH"), ("a3", "ll"), ("a5", "ll"), ("a8", "ad")]);
    assert_eq!(action_to(&b, "a1", "a4").captures, sq("a3"));
    assert_eq!(action_to(&b, "a1", "a6").captures, sq("a3") | sq("a5"));
    assert_eq!(
        action_to(&b, "a1", "a7").captures,
        sq("a3") | sq("a5") | sq("a8")
    );
    // ...but not other pieces, nor a friendly Long Leaper.
    let b = board(&[("a1", "CH"), ("a3", "n"), ("b2", "LL")]);
    assert!(!dests(&b, "a1").contains("a4"));
    assert!(!dests(&b, "a1").contains("c3"));
    // Seed: an enemy King adjacent to a Chameleon can be captured by it, so it is attacked (5).
    let b = board(&[("d4", "CH"), ("e5", "k")]);
    assert!(captures(&b, "d4").contains("e5"));
    assert!(attacked(&b, parse_square("e5").unwrap()));
    let b = board(&[("d4", "CH"), ("f5", "k")]);
    assert!(!attacked(&b, parse_square("f5").unwrap()));
}

#[test]
fn archer_spotting() {
    // rules/mutatis-mutandis.md 6.2 AC: a spotter two away on a queen line needs the middle
    // square empty.
    let b = board(&[("a1", "AC"), ("a5", "n"), ("c5", "N")]);
    assert!(tokens(&b, "a1").contains("a1a5"));
    let b = board(&[("a1", "AC"), ("a5", "n"), ("c5", "N"), ("b5", "r")]);
    assert!(!tokens(&b, "a1").contains("a1a5"));
    // The Archer does not spot for itself; distance 2 needs no spotter.
    let b = board(&[("a1", "AC"), ("a4", "n")]);
    assert!(!tokens(&b, "a1").contains("a1a4"));
    let b = board(&[("a1", "AC"), ("a3", "n")]);
    assert!(tokens(&b, "a1").contains("a1a3"));
    // A shielded target cannot be shot (7.4).
    let b = board(&[("a1", "AC"), ("a3", "n"), ("b4", "sh")]);
    assert!(!tokens(&b, "a1").contains("a1a3"));
}

#[test]
fn sissa_never_jumps() {
    // rules/mutatis-mutandis.md 6.1 SS: all 2n-1 passed squares, corner included, are empty.
    // h2 from d4: 2 east (e4, f4) then 2 south-east (g3), or 2 south-east (e3, f2) then 2
    // east (g2). One blocked route leaves the other; both blocked, h2 is out of reach.
    assert!(dests(&lone("SS", "d4"), "d4").contains("h2"));
    let b = board(&[("d4", "SS"), ("e4", "N")]);
    assert!(dests(&b, "d4").contains("h2"));
    let b = board(&[("d4", "SS"), ("e4", "N"), ("f2", "N")]);
    assert!(!dests(&b, "d4").contains("h2"));
    let b = board(&[("d4", "SS"), ("f4", "N"), ("g2", "N")]);
    assert!(!dests(&b, "d4").contains("h2"));
    // Capture only on the final square.
    let b = board(&[("d4", "SS"), ("e6", "n")]);
    assert!(captures(&b, "d4").contains("e6"));
}

#[test]
fn states_codes_and_morph_cycles() {
    // rules/mutatis-mutandis.md 2: 22 families, unique codes, the cycles of the table.
    let codes: BTreeSet<&str> = State::ALL.iter().map(|s| s.code()).collect();
    assert_eq!(codes.len(), State::ALL.len());
    let families: BTreeSet<u8> = State::ALL.iter().map(|s| s.family()).collect();
    assert_eq!(families, (1..=22).collect());
    for s in State::ALL {
        assert_eq!(State::from_code(&s.code().to_ascii_lowercase()), Some(s));
        // Following the cycle returns to the state, within the family.
        let mut t = s.next();
        let mut len = 1;
        while t != s {
            assert_eq!(t.family(), s.family());
            t = t.next();
            len += 1;
        }
        let want = match s.family() {
            20 => 6,
            22 => 3,
            _ => 2,
        };
        assert_eq!(len, want, "{s}");
    }
    let hydra: Vec<&str> = std::iter::successors(Some(State::HydraKnight), |s| {
        Some(s.next()).filter(|&n| n != State::HydraKnight)
    })
    .map(|s| s.code())
    .collect();
    assert_eq!(hydra, ["HN", "N11", "N02", "N31", "N33", "N04"]);
    assert_eq!(State::Pawn.next().next(), State::ScorpionPawn);
    assert_eq!(State::Withdrawer.next(), State::Advancer); // [D 1]
    assert_eq!(State::King.next(), State::Maoking);
    // Bare one-letter codes, bracketed others (rules 11).
    let bare: BTreeSet<&str> = State::ALL
        .iter()
        .map(|s| s.code())
        .filter(|c| c.len() == 1)
        .collect();
    assert_eq!(
        bare,
        set("K Q C A N R P").iter().map(|s| s.as_str()).collect()
    );
}
