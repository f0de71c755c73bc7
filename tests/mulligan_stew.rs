//! Mulligan Stew Chess (rules/mulligan-stew.md): pieces, portions, pool, end rules, FEN,
//! tokens, the example game of section 10 and its checkpoints, make/unmake properties, and
//! the protocol in turns.

use crate::common;
use menagerie::variants::game_outcome;
use menagerie::variants::StagedGeneration;

use common::game::{
    assert_make_unmake, assert_tokens_round_trip, assert_unwinds, legal_moves, parse, play_plies,
    ply_tokens,
};
use common::{assert_game_over, bestmove, run_binary_ok, Engine, SEARCH};
use menagerie::core::zobrist::SplitMix64;
use menagerie::core::MoveList;
use menagerie::perft::perft;
use menagerie::variants::mulligan_stew::notation::{import, split_record};
use menagerie::variants::mulligan_stew::{MulliganStew, START_FEN};
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::Scope;
use menagerie::variants::{Evaluation, GameResult, MoveError, Notation, Rules, Terminal};

fn pos(fen: &str) -> MulliganStew {
    parse(fen)
}

fn has(p: &MulliganStew, t: &str) -> bool {
    ply_tokens(p).iter().any(|x| x == t)
}

fn played(fen: &str, moves: &str) -> MulliganStew {
    let mut p = pos(fen);
    play_plies(&mut p, moves);
    p
}

/// rules/mulligan-stew.md 10: the 32 portion strings of the corrected example game.
const GAME_TOKENS: &str = "M@b3 c1c3 e6e5 M@a5 b3d1,d1b3 f2f3 f7d5 d6d4 c2c4 c3a3 d5e6 a5c7,c7a5 e2e3 a3a5 e6c5 b6a5 b3c2 e1a3 b7e2 c5d3 c2b3 e3d4 a6a4 c7a5,a5c7 d1a4,a4d1 a3d6 d3b2 a5a4 b3c2 d6e7 a4c2,c2a4 a7a4";

/// rules/mulligan-stew.md 10: the example game in the seed's notation, as printed (with the
/// two corrections written `Kc2(=Kc3)` and `Kc2(=Kb3)`).
const GAME_RECORD: &str = "1. Mb3, Kc2(=Kc3)    e5, Ma5
2. Md1@Kb3, f3       Cd5, d4
3. c4, Ka3           Ce6, Mc7@Ka5
4. e3, K:a5+         Cc5, P:a5+
5. Kc2, Aa3          Ae2, Cd3
6. Kc2(=Kb3), P:d4   a4, Ma5@c7
7. Ma4@d1, Ad6       C:b2, M:a4
8. Kc2, A:e7         Mc2@Ka4, R:a4++   0-1";

/// rules/mulligan-stew.md 10: the FEN before each portion.
const GAME_FENS: &[&str] = &[
    "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q/q",
    "rakkac/pppppp/6/6/1M4/PPPPPP/RAKKAC[m] w - - 0 1 pool:Q/q portion:D moved:b3",
    "rakkac/pppppp/6/6/1MK3/PPPPPP/RA1KAC[m] b - - 1 1 pool:Q/q",
    "rakkac/pppp1p/4p1/6/1MK3/PPPPPP/RA1KAC[m] b - - 0 1 pool:Q/q portion:D moved:e5",
    "rakkac/pppp1p/m3p1/6/1MK3/PPPPPP/RA1KAC[-] w - - 0 2 pool:Q/q",
    "rakkac/pppp1p/m3p1/6/1KK3/PPPPPP/RA1MAC[-] w - - 1 2 pool:Q/q portion:D moved:d1",
    "rakkac/pppp1p/m3p1/6/1KK2P/PPPPP1/RA1MAC[-] b - - 0 2 pool:Q/q",
    "rakka1/pppp1p/m2cp1/6/1KK2P/PPPPP1/RA1MAC[-] b - - 1 2 pool:Q/q portion:D moved:d5",
    "rakka1/ppp2p/m2cp1/3p2/1KK2P/PPPPP1/RA1MAC[-] w - - 0 3 pool:Q/q",
    "rakka1/ppp2p/m2cp1/2Pp2/1KK2P/PP1PP1/RA1MAC[-] w - - 0 3 pool:Q/q portion:D moved:c4",
    "rakka1/ppp2p/m2cp1/2Pp2/KK3P/PP1PP1/RA1MAC[-] b - - 1 3 pool:Q/q",
    "rakka1/ppp1cp/m3p1/2Pp2/KK3P/PP1PP1/RA1MAC[-] b - - 2 3 pool:Q/q portion:D moved:e6",
    "ramka1/ppp1cp/k3p1/2Pp2/KK3P/PP1PP1/RA1MAC[-] w - - 3 4 pool:Q/q",
    "ramka1/ppp1cp/k3p1/2Pp2/KK2PP/PP1P2/RA1MAC[-] w - - 0 4 pool:Q/q portion:D moved:e3",
    "ramka1/ppp1cp/K3p1/2Pp2/1K2PP/PP1P2/RA1MAC[-] b - - 0 4 pool:Q/q",
    "ramka1/ppp2p/K1c1p1/2Pp2/1K2PP/PP1P2/RA1MAC[-] b - - 1 4 pool:Q/q portion:D moved:c5",
    "ramka1/p1p2p/p1c1p1/2Pp2/1K2PP/PP1P2/RA1MAC[-] w - - 0 5 pool:Q/q",
    "ramka1/p1p2p/p1c1p1/2Pp2/4PP/PPKP2/RA1MAC[-] w - - 1 5 pool:Q/q portion:D moved:c2",
    "ramka1/p1p2p/p1c1p1/2Pp2/A3PP/PPKP2/RA1M1C[-] b - - 2 5 pool:Q/q",
    "r1mka1/p1p2p/p1c1p1/2Pp2/A3PP/PPKPa1/RA1M1C[-] b - - 3 5 pool:Q/q portion:D moved:e2",
    "r1mka1/p1p2p/p3p1/2Pp2/A2cPP/PPKPa1/RA1M1C[-] w - - 4 6 pool:Q/q",
    "r1mka1/p1p2p/p3p1/2Pp2/AK1cPP/PP1Pa1/RA1M1C[-] w - - 5 6 pool:Q/q portion:D moved:b3",
    "r1mka1/p1p2p/p3p1/2PP2/AK1c1P/PP1Pa1/RA1M1C[-] b - - 0 6 pool:Q/q",
    "r1mka1/2p2p/p3p1/p1PP2/AK1c1P/PP1Pa1/RA1M1C[-] b - - 0 6 pool:Q/q portion:D moved:a4",
    "r1pka1/2p2p/m3p1/p1PP2/AK1c1P/PP1Pa1/RA1M1C[-] w - - 1 7 pool:Q/q",
    "r1pka1/2p2p/m3p1/M1PP2/AK1c1P/PP1Pa1/RA1p1C[-] w - - 2 7 pool:Q/q portion:D moved:a4",
    "r1pka1/2pA1p/m3p1/M1PP2/1K1c1P/PP1Pa1/RA1p1C[-] b - - 3 7 pool:Q/q",
    "r1pka1/2pA1p/m3p1/M1PP2/1K3P/Pc1Pa1/RA1p1C[-] b - - 0 7 pool:Q/q portion:D moved:b2",
    "r1pka1/2pA1p/4p1/m1PP2/1K3P/Pc1Pa1/RA1p1C[-] w - - 0 8 pool:QM/q",
    "r1pka1/2pA1p/4p1/m1PP2/5P/PcKPa1/RA1p1C[-] w - - 1 8 pool:QM/q portion:D moved:c2",
    "r1pkA1/2p2p/4p1/m1PP2/5P/PcKPa1/RA1p1C[-] b - - 0 8 pool:QM/qa",
    "r1pkA1/2p2p/4p1/K1PP2/5P/PcmPa1/RA1p1C[-] b - - 1 8 pool:QM/qa portion:D moved:c2",
];

/// rules/mulligan-stew.md 10: the final board (White has no King).
const FINAL_BOARD: &str = "2pkA1/2p2p/4p1/r1PP2/5P/PcmPa1/RA1p1C";

// ---------------------------------------------------------------------------------------
// FEN (rules 7)

#[test]
fn start_position_and_fen_round_trip() {
    // rules/mulligan-stew.md 2, 7
    assert_eq!(MulliganStew::startpos().fen(), START_FEN);
    for fen in GAME_FENS {
        assert_eq!(pos(fen).fen(), *fen);
    }
    for fen in [
        "2kk2/6/6/6/M5/6/1RKK2[m] w - - 0 1 pool:Q/q",
        "2kk2/6/6/6/MR4/6/2KK2[m] w - - 1 1 pool:Q/q portion:D moved:b3",
        "2kk2/6/6/6/6/6/2KK2[-] b - - 7 9 pool:-/- portion:D",
        "2kk2/6/6/6/6/6/2KK2[-] w - - 0 1 pool:QRCAAM/-",
    ] {
        assert_eq!(pos(fen).fen(), fen);
    }
    // Tags in any order; a missing pool is the start pool.
    assert_eq!(
        pos("rakkac/pppppp/6/6/1M4/PPPPPP/RAKKAC[m] w - - 0 1 moved:b3 portion:D pool:Q/q").fen(),
        GAME_FENS[1]
    );
    assert_eq!(
        pos("rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1").fen(),
        START_FEN
    );
}

#[test]
fn bad_fens_name_the_field() {
    // rules/mulligan-stew.md 7; design.md "Errors and input".
    let cases = [
        ("rakkac/pppppp/6/6/6/PPPPPP[Mm] w - - 0 1 pool:Q/q", "board"),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKACP[Mm] w - - 0 1 pool:Q/q",
            "board",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAX[Mm] w - - 0 1 pool:Q/q",
            "board",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKA9[Mm] w - - 0 1 pool:Q/q",
            "board",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC w - - 0 1 pool:Q/q",
            "hand",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Q] w - - 0 1 pool:Q/q",
            "hand",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] x - - 0 1 pool:Q/q",
            "side to move",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w KQ - 0 1 pool:Q/q",
            "castling",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - c3 0 1 pool:Q/q",
            "en passant",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - x 1 pool:Q/q",
            "clock",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 0 pool:Q/q",
            "fullmove",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:q/q",
            "pool",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:QK/q",
            "pool",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q",
            "pool",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q/q portion:X",
            "portion",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q/q moved:b3",
            "moved",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q/q portion:D moved:b3",
            "moved",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q/q portion:D moved:z9",
            "moved",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q/q coins:3",
            "tags",
        ),
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q/q pool:Q/q",
            "tags",
        ),
        ("", "fen"),
        // More pieces than the game has (rules 2, 4).
        (
            "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:QM/q",
            "pool",
        ),
        // rules 6: the side that lost its last King is the one to move.
        ("6/6/6/6/6/6/2KK2[-] w - - 0 1 pool:-/-", "side to move"),
        (
            "rakkac/pppppp/6/6/2K3/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q/q",
            "board",
        ),
        (
            "rakkac/pppppp/6/6/MM4/PPPPPP/RAKKAC[m] w - - 0 1 pool:Q/q",
            "board",
        ),
        (
            "rakkac/pppppp/6/PPPPP1/PPPPPP/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q/q",
            "board",
        ),
    ];
    for (fen, field) in cases {
        match MulliganStew::from_fen(fen) {
            Err(e) => assert_eq!(e.field, field, "{fen}: {e}"),
            Ok(_) => panic!("accepted bad FEN {fen}"),
        }
    }
}

/// Bad input never panics (design.md "Errors and input"): mutated FENs, tokens and seed
/// strings give errors or valid positions.
#[test]
fn garbage_never_panics() {
    let mut rng = SplitMix64::new(77);
    let alphabet: Vec<char> = "rakcmpqRAKCMPQ0123456789/[]-:;,@= wbDLpoolmvedtin\u{e9}xyz"
        .chars()
        .collect();
    let seeds = [START_FEN, GAME_FENS[1], GAME_FENS[29]];
    let p = pos(GAME_FENS[1]);
    for i in 0..20000 {
        let base: Vec<char> = seeds[i % 3].chars().collect();
        let mut s = base.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(s.len() as u64 + 1) as usize;
            match rng.below(3) {
                0 if at < s.len() => {
                    s.remove(at);
                }
                1 if at < s.len() => s[at] = alphabet[rng.below(alphabet.len() as u64) as usize],
                _ => s.insert(at, alphabet[rng.below(alphabet.len() as u64) as usize]),
            }
        }
        let text: String = s.into_iter().collect();
        if let Ok(q) = MulliganStew::from_fen(&text) {
            let _ = legal_moves(&q);
            let _ = q.fen();
        }
        let short: String = text.chars().take(1 + rng.below(12) as usize).collect();
        let _ = p.parse_move(&short);
        let _ = import(&p, &short);
    }
}

// ---------------------------------------------------------------------------------------
// Pieces (rules 3)

#[test]
fn king_is_ferz_plus_dabbaba_jump() {
    // rules/mulligan-stew.md 3: K = ferz step or dabbaba jump over anything; keeps its colour.
    let p = pos("2kk2/6/6/6/2P3/2K3/6[-] w - - 0 1 pool:-/-");
    // c2 is light: L portion.
    let t = ply_tokens(&p);
    for m in ["c2b1", "c2d1", "c2b3", "c2d3", "c2a2", "c2e2", "c2c4"] {
        assert!(t.contains(&m.to_string()), "{m}: {t:?}");
    }
    // The c4 Pawn blocks nothing (jump), but a King does not step orthogonally.
    assert!(!t.contains(&"c2c3".to_string()) && !t.contains(&"c2b2".to_string()));
    // Dabbaba onto an own piece is not allowed; onto an enemy it captures.
    let p = pos("2kk2/6/6/6/2p3/2K3/6[-] w - - 0 1 pool:-/-");
    assert!(has(&p, "c2c4"));
    let p = pos("2kk2/6/6/6/2P3/6/2K3[-] b - - 0 1 pool:-/-");
    // c1 is dark; Black's L portion: the black Kings on c7 (dark) and d7 (light).
    assert!(has(&p, "d7c6") && has(&p, "d7d5") && !has(&p, "c7c5"));
}

#[test]
fn mage_steps_captures_and_swaps() {
    // rules/mulligan-stew.md 3 and 9 D5: swap with any piece 1-3 squares away on a queen line,
    // over pieces in between, a King or the enemy Mage included; adjacent enemy = 2 moves.
    let p = pos("2kk2/6/3r2/6/1M6/6/1RKK2[-] w - - 0 1 pool:-/-"
        .replace("1M6", "1M4")
        .as_str());
    let t = ply_tokens(&p);
    // b3 is light: the Mage moves in the L portion.
    for m in [
        "b3a3", "b3c3", "b3b2", "b3a4", "b3c4", "b3b4", "b3a2", "b3c2",
    ] {
        assert!(t.contains(&m.to_string()), "{m}: {t:?}");
    }
    // Swaps: own Rook b1 (2 away, b2 empty), own King d1 (2 diagonal), enemy Rook d5.
    for m in ["b3b1,b1b3", "b3d1,d1b3", "b3d5,d5b3"] {
        assert!(t.contains(&m.to_string()), "{m}: {t:?}");
    }
    // c1 King is not on a line from b3 within 3 ((1,-2) is no queen line).
    assert!(!t.contains(&"b3c1,c1b3".to_string()));
    // Adjacent enemy: capture and swap are both legal and written differently.
    let p = pos("2kk2/6/6/6/1Mr3/6/2KK2[-] w - - 0 1 pool:-/-");
    assert!(has(&p, "b3c3") && has(&p, "b3c3,c3b3"));
    // A swap over pieces in between (b5 three away, b4 occupied) and with the enemy Mage.
    let p = pos("2kk2/6/1m4/1P4/1M4/6/2KK2[-] w - - 0 1 pool:-/-");
    assert!(has(&p, "b3b5,b5b3") && has(&p, "b3b4,b4b3"));
    // Four squares away is out of reach.
    let p = pos("2kk2/1r4/6/6/1M4/6/2KK2[-] w - - 0 1 pool:-/-");
    assert!(!ply_tokens(&p).iter().any(|t| t.starts_with("b3b7")));
}

#[test]
fn mage_drop_on_the_portion_colour() {
    // rules/mulligan-stew.md 3: drop on any empty square of the current portion's colour.
    let p = MulliganStew::startpos();
    let drops: Vec<String> = ply_tokens(&p)
        .into_iter()
        .filter(|t| t.starts_with("M@"))
        .collect();
    // Light empty squares on ranks 3-5: b3 d3 f3 a4 c4 e4 b5 d5 f5.
    assert_eq!(
        drops,
        ["M@a4", "M@b3", "M@b5", "M@c4", "M@d3", "M@d5", "M@e4", "M@f3", "M@f5"]
    );
    let p = played(START_FEN, "c2c3");
    let drops: Vec<String> = ply_tokens(&p)
        .into_iter()
        .filter(|t| t.starts_with("M@"))
        .collect();
    // D portion: dark empty squares (c2 is light, so not among them).
    assert!(drops.contains(&"M@a3".to_string()) && drops.contains(&"M@e5".to_string()));
    assert!(!drops.contains(&"M@c3".to_string()) && !drops.contains(&"M@c2".to_string()));
    assert_eq!(drops.len(), 8);
    // After an L drop the hand is empty: no D drop.
    let p = played(START_FEN, "M@b3");
    assert!(!ply_tokens(&p).iter().any(|t| t.starts_with("M@")));
}

#[test]
fn assassin_teleports_and_captures_short() {
    // rules/mulligan-stew.md 3: teleport to any empty square of its colour; captures only a
    // diagonal step of 1 or 2 (2 needs an empty middle square); never captures by teleport.
    let p = pos("2kk2/6/6/3r2/6/2p3/1A2KK[-] w - - 0 1 pool:-/-");
    let t = ply_tokens(&p);
    assert!(t.contains(&"b1c2".to_string()), "1-step capture");
    // Teleports: every empty light square; occupied light squares: b1 (itself), c2, d7, f1.
    let teleports = t
        .iter()
        .filter(|m| m.starts_with("b1") && *m != "b1c2")
        .count();
    assert_eq!(teleports, 21 - 4);
    assert!(
        !t.contains(&"b1d4".to_string()),
        "d4 is dark: no capture by teleport"
    );
    // d3 is the 2-step square over c2: blocked.
    let p = pos("2kk2/6/6/6/3r2/2P3/1A2KK[-] w - - 0 1 pool:-/-");
    assert!(!has(&p, "b1d3"));
    let p = pos("2kk2/6/6/6/3r2/6/1A2KK[-] w - - 0 1 pool:-/-");
    assert!(has(&p, "b1d3"), "2-step capture over an empty square");
    // No capture at distance 3 on the diagonal (e4) even though e4 is light.
    let p = pos("2kk2/6/6/4r1/6/6/1A2KK[-] w - - 0 1 pool:-/-");
    assert!(!has(&p, "b1e4"));
}

#[test]
fn pawn_steps_leaps_and_captures() {
    // rules/mulligan-stew.md 3: step, leap over a piece of either side onto an empty square,
    // diagonal capture; no double step.
    let p = pos("2kk2/6/6/6/6/2P3/2KK2[-] w - - 0 1 pool:-/-");
    assert!(has(&p, "c2c3") && !has(&p, "c2c4"), "no double step");
    let p = pos("2kk2/6/6/6/2p3/2P3/2KK2[-] w - - 0 1 pool:-/-");
    assert!(
        has(&p, "c2c4") && !has(&p, "c2c3"),
        "leap over an enemy Pawn"
    );
    let p = pos("2kk2/6/6/6/2K3/2P3/3K2[-] w - - 0 1 pool:-/-");
    assert!(has(&p, "c2c4"), "leap over an own King");
    let p = pos("2kk2/6/6/2p3/2p3/2P3/2KK2[-] w - - 0 1 pool:-/-");
    assert!(
        !ply_tokens(&p).iter().any(|t| t.starts_with("c2")),
        "beyond occupied"
    );
    let p = pos("2kk2/6/6/6/1p1p2/2P3/2KK2[-] w - - 0 1 pool:-/-");
    assert!(has(&p, "c2b3") && has(&p, "c2d3"));
    // Black moves down the board.
    let p = pos("2kk2/4p1/4P1/6/6/6/2KK2[-] b - - 0 1 pool:-/-");
    assert!(has(&p, "e6e4") && !has(&p, "e6e5"));
}

#[test]
fn last_rank_promotion_pool_and_frozen_pawns() {
    // rules/mulligan-stew.md 3, 4, 9 D6: stay a Pawn or promote to a pool piece; a Pawn on
    // its last rank is frozen except for the promotion-only move; Queen only with no Queen on
    // the board.
    let p = pos("kk4/3P2/6/6/6/6/4KK[-] w - - 0 1 pool:QRC/-");
    // d6 is dark: play an L portion first (e1 is dark, f1 light: King f1).
    let p = played(&p.fen(), "f1f3");
    let t = ply_tokens(&p);
    for m in ["d6d7", "d6d7q", "d6d7r", "d6d7c"] {
        assert!(t.contains(&m.to_string()), "{m}: {t:?}");
    }
    assert!(!t.contains(&"d6d7a".to_string()), "no Assassin in the pool");
    // With a Queen on the board, no Queen promotion.
    let p = played("kk4/3P2/6/6/6/Q5/4KK[-] w - - 0 1 pool:QR/-", "f1f3");
    assert!(has(&p, "d6d7r") && !has(&p, "d6d7q"));
    // Frozen on the last rank: only promotion-only moves (b7 light: L portion).
    let p = pos("1P2kk/6/6/6/6/6/4KK[-] w - - 0 1 pool:R/-");
    let pawn: Vec<String> = ply_tokens(&p)
        .into_iter()
        .filter(|t| t.starts_with("b7"))
        .collect();
    assert_eq!(pawn, ["b7b7r"]);
    let p2 = played(&p.fen(), "b7b7r");
    assert_eq!(
        p2.fen(),
        "1R2kk/6/6/6/6/6/4KK[-] w - - 0 1 pool:-/- portion:D moved:b7"
    );
    // Empty pool: the Pawn just stays frozen.
    let p = pos("1P2kk/6/6/6/6/6/4KK[-] w - - 0 1 pool:-/-");
    assert!(!ply_tokens(&p).iter().any(|t| t.starts_with("b7")));
    // A Pawn on its own first rank (put there by a swap) moves normally.
    let p = played("2kk2/6/6/6/1M4/6/1P2KK[-] w - - 0 1 pool:Q/q", "b3b1,b1b3");
    assert_eq!(p.piece_at(1).letter(), 'M');
    let p = pos("2kk2/6/6/6/6/6/1P2KK[-] w - - 0 1 pool:Q/q");
    assert!(has(&p, "b1b2"), "a Pawn on its first rank steps");
}

#[test]
fn swap_onto_last_rank_does_not_promote() {
    // rules/mulligan-stew.md 3: "A Mage swap never promotes a Pawn": the Mage on b7 swaps
    // with its own Pawn on b5, which lands on its last rank and stays a Pawn.
    let p = played("1M1kk1/6/1P4/6/6/6/4KK[-] w - - 0 1 pool:Q/q", "b7b5,b5b7");
    assert_eq!(
        p.fen(),
        "1P1kk1/6/1M4/6/6/6/4KK[-] w - - 1 1 pool:Q/q portion:D moved:b5"
    );
    // b7 is light: in the next L portion the Pawn's only move is the promotion-only move.
    let p = played(&p.fen(), "e1c1 d7d5 e7e5");
    let pawn: Vec<String> = ply_tokens(&p)
        .into_iter()
        .filter(|t| t.starts_with("b7"))
        .collect();
    assert_eq!(pawn, ["b7b7q"], "{}", p.fen());
}

#[test]
fn captures_fill_the_owners_pool() {
    // rules/mulligan-stew.md 4, 9 D7: a captured piece (not King or Pawn) goes to its owner's
    // pool as its current type.
    let p = played("2kk2/6/6/6/1r4/2C3/4KK[-] w - - 0 1 pool:-/-", "c2b3");
    assert!(p.fen().contains("pool:-/r"), "{}", p.fen());
    let p = played("2kk2/6/6/6/1p4/2C3/4KK[-] w - - 0 1 pool:-/-", "c2b3");
    assert!(
        p.fen().contains("pool:-/-"),
        "a Pawn is not pooled: {}",
        p.fen()
    );
    // A promoted Rook goes back as an R; a captured Mage as an M.
    let p = played("1P2kk/6/6/6/6/6/4KK[-] w - - 0 1 pool:R/-", "b7b7r");
    assert!(p.fen().contains("pool:-/-"));
    let p = played("1R2k1/6/1r4/6/6/6/4KK[-] b - - 0 1 pool:-/-", "b5b7");
    assert!(p.fen().contains("pool:R/-"), "{}", p.fen());
    let p = played("2kk2/6/6/6/1m4/2C3/4KK[-] w - - 0 1 pool:-/-", "c2b3");
    assert!(p.fen().contains("pool:-/m"), "{}", p.fen());
    // A captured King is not pooled.
    let p = played("3k2/6/6/6/1k4/2C3/4KK[-] w - - 0 1 pool:-/-", "c2b3");
    assert!(p.fen().contains("pool:-/-"), "{}", p.fen());
}

// ---------------------------------------------------------------------------------------
// Turns (rules 5)

#[test]
fn portions_light_then_dark() {
    // rules/mulligan-stew.md 5: the L portion moves a piece on a light square, the D portion
    // one on a dark square; the side changes after the D portion.
    let p = MulliganStew::startpos();
    let light = menagerie::variants::mulligan_stew::board::BOARD_6X7;
    for t in ply_tokens(&p) {
        if let Some(sq) = t.get(..2).filter(|_| !t.starts_with("M@")) {
            assert!(light.is_light(light.parse_square(sq).unwrap()), "{t}");
        }
    }
    assert_eq!(ply_tokens(&p).len(), 23);
    let p = played(START_FEN, "c2c3");
    assert_eq!(p.side_to_move(), menagerie::core::Color::White);
    for t in ply_tokens(&p) {
        if let Some(sq) = t.get(..2).filter(|_| !t.starts_with("M@")) {
            assert!(!light.is_light(light.parse_square(sq).unwrap()), "{t}");
        }
    }
    let p = played(START_FEN, "c2c3 b2b3");
    assert_eq!(p.side_to_move(), menagerie::core::Color::Black);
}

#[test]
fn the_piece_moved_in_l_cannot_move_or_be_swapped_in_d() {
    // rules/mulligan-stew.md 5 and 9 D4; section 10's swap-restriction position.
    let p = pos("2kk2/6/6/6/M5/6/1RKK2[m] w - - 0 1 pool:Q/q");
    assert_eq!(
        ply_tokens(&p),
        ["b1a1", "b1b2", "b1b3", "b1b4", "b1b5", "b1b6", "b1b7", "d1c2", "d1d3", "d1e2", "d1f1"]
    );
    let p = played(&p.fen(), "b1b3");
    assert_eq!(
        p.fen(),
        "2kk2/6/6/6/MR4/6/2KK2[m] w - - 1 1 pool:Q/q portion:D moved:b3"
    );
    assert_eq!(
        ply_tokens(&p),
        [
            "a3a2",
            "a3a4",
            "a3b2",
            "a3b4",
            "a3c1,c1a3",
            "c1a1",
            "c1b2",
            "c1c3",
            "c1d2",
            "c1e1"
        ]
    );
    assert!(matches!(
        p.parse_move("a3b3,b3a3"),
        Err(MoveError::Illegal(_))
    ));
    // A piece that moved onto a dark square in L cannot move again in D.
    let p = played("2kk2/6/6/6/6/6/1RKK2[-] w - - 0 1 pool:-/-", "b1b2");
    assert!(!ply_tokens(&p).iter().any(|t| t.starts_with("b2")));
}

#[test]
fn forced_skip_only_without_moves() {
    // rules/mulligan-stew.md 5 and 9 D3: 0000 is the only legal portion when none exists,
    // and illegal otherwise.
    // White: Kings on c1, e1 (both dark), no light pieces, no hand: the L portion is 0000.
    let p = pos("2kk2/6/6/6/6/6/2K1K1[-] w - - 0 1 pool:-/-");
    assert_eq!(ply_tokens(&p), ["0000"]);
    let p2 = played(&p.fen(), "0000");
    assert_eq!(
        p2.fen(),
        "2kk2/6/6/6/6/6/2K1K1[-] w - - 1 1 pool:-/- portion:D"
    );
    assert!(!has(&p2, "0000"));
    assert!(matches!(
        MulliganStew::startpos().parse_move("0000"),
        Err(MoveError::Illegal(_))
    ));
    // Whether D has a move is decided after the L move.
    let p = played("2kk2/6/6/6/6/6/3K2[-] w - - 0 1 pool:-/-", "d1c2");
    // The King is now on c2 (light) and moved: nothing on a dark square, so D is 0000.
    assert_eq!(ply_tokens(&p), ["0000"]);
}

#[test]
fn a_position_where_nobody_can_move_ends_by_repetition() {
    // rules/mulligan-stew.md 6 and 9 D9: no stalemate; a side with no legal move in either
    // portion plays 0000, 0000, and a position in which neither side can move is drawn by
    // repetition. White: King a7 walled in by Pawns frozen on rank 7 or blocked; Black the
    // same on rank 1; empty pools and hands.
    let fen = "KPP3/PP4/P5/6/p5/pp4/kpp3[-] w - - 0 1 pool:-/-";
    let mut p = pos(fen);
    for _ in 0..2 {
        for _ in 0..4 {
            assert!(game_outcome(&p).is_none() || p.is_d_portion());
            assert_eq!(ply_tokens(&p), ["0000"], "{}", p.fen());
            play_plies(&mut p, "0000");
        }
    }
    let o = game_outcome(&p).expect("third occurrence");
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::Draw, "threefold repetition")
    );
}

#[test]
fn clock_counts_portions_since_irreversible() {
    // rules/mulligan-stew.md 7.4: reset by captures, Pawn moves, promotion-only moves and Mage
    // drops; a swap with a Pawn does not reset it (example game, turn 6 Black); 0000 counts.
    let p = played(START_FEN, "M@b3");
    assert!(p.fen().contains(" 0 1 "));
    let p = played(START_FEN, "M@b3 c1c3");
    assert!(p.fen().contains(" 1 1 "));
    let p = played("2kk2/6/6/6/6/6/2K1K1[-] w - - 5 1 pool:-/-", "0000");
    assert!(p.fen().contains(" 6 1 "), "{}", p.fen());
    let p = pos(GAME_FENS[23]);
    let p = played(&p.fen(), "c7a5,a5c7");
    assert_eq!(p.fen(), GAME_FENS[24]);
}

// ---------------------------------------------------------------------------------------
// End of game (rules 6)

#[test]
fn king_capture_in_l_ends_the_game_at_once() {
    // rules/mulligan-stew.md 6: a side without Kings loses at once; no D portion after an L
    // portion that captured the last King.
    // The Rook on b1 (light) takes the last black King on b7 in the L portion.
    let mut p = pos("1k4/6/6/6/6/6/1R1K2[-] w - - 0 1 pool:-/-");
    assert!(game_outcome(&p).is_none());
    play_plies(&mut p, "b1b7");
    assert_eq!(p.side_to_move(), menagerie::core::Color::Black);
    assert!(!p.fen().contains("portion:D"));
    assert_eq!(
        p.verdict(Scope::Wins).map(|v| v.terminal),
        Some(Terminal::Loss)
    );
    let o = game_outcome(&p).unwrap();
    assert_eq!(o.result, GameResult::WhiteWins);
    assert_eq!(o.reason, "both kings captured");
    assert_eq!(ply_tokens(&p), Vec::<String>::new());
    assert_eq!(perft(&mut p, 2), 0);
    // Capturing one of two Kings does not end it.
    let mut p = pos("1k1k2/6/6/6/6/6/1R1K2[-] w - - 0 1 pool:-/-");
    play_plies(&mut p, "b1b7");
    assert!(game_outcome(&p).is_none() && p.fen().contains("portion:D"));
}

#[test]
fn example_game_ends_when_whites_second_king_falls() {
    // rules/mulligan-stew.md 10: the game ends 0-1 after R:a4++ (a D-portion capture).
    let mut p = MulliganStew::startpos();
    play_plies(&mut p, GAME_TOKENS);
    assert_eq!(p.fen().split('[').next().unwrap(), FINAL_BOARD);
    let o = game_outcome(&p).unwrap();
    assert_eq!(o.result, GameResult::BlackWins);
    assert_eq!(
        p.verdict(Scope::Wins).map(|v| v.terminal),
        Some(Terminal::Loss)
    );
}

#[test]
fn threefold_repetition_and_the_200_ply_clock() {
    // rules/mulligan-stew.md 6 and 9 D9.
    let fen = "2kk2/6/6/6/6/6/2KK2[-] w - - 0 1 pool:-/-";
    let mut p = pos(fen);
    // Each side shuffles its light King d1-e2 / d7-e6 and plays 0000 in D (c1/c7 Kings are
    // on dark squares and could move, so move them back and forth instead).
    let cycle = "d1e2 c1d2 d7e6 c7d6 e2d1 d2c1 e6d7 d6c7";
    play_plies(&mut p, cycle);
    assert!(game_outcome(&p).is_none());
    play_plies(&mut p, cycle);
    let o = game_outcome(&p).expect("third occurrence");
    assert_eq!(o.result, GameResult::Draw);
    assert_eq!(o.reason, "threefold repetition");
    // Not judged in the middle of a turn.
    let mut q = pos(fen);
    play_plies(&mut q, cycle);
    play_plies(&mut q, cycle);
    q.unmake();
    assert!(game_outcome(&q).is_none() && q.fen().contains("portion:D"));
    // The clock: a draw at 200 at the start of an L portion, not at a D portion.
    let p = pos("2kk2/6/6/6/6/6/2KK2[-] w - - 199 80 pool:-/-");
    assert!(game_outcome(&p).is_none());
    let p = played(&p.fen(), "d1e2");
    assert!(
        game_outcome(&p).is_none(),
        "D portion: the clock is judged at L"
    );
    let p = played(&p.fen(), "c1d2");
    assert_eq!(game_outcome(&p).unwrap().reason, "200-ply clock");
}

// ---------------------------------------------------------------------------------------
// Tokens (rules 8, protocol.md 3)

#[test]
fn tokens_and_lenient_swaps() {
    let p = played(START_FEN, "M@b3 c1c3");
    let p = played(&p.fen(), "e6e5 M@a5");
    // b3d1 names exactly one legal move, the swap (no Mage move b3d1 exists).
    let m = p.parse_move("b3d1").unwrap();
    assert_eq!(p.move_token(m), "b3d1,d1b3");
    // Adjacent enemy: b3c3 would be the capture if there were one; here it is the own King
    // on c3: only the swap exists, so b3c3 is accepted as the swap too.
    assert_eq!(p.move_token(p.parse_move("b3c3").unwrap()), "b3c3,c3b3");
    // A capture and a swap of the same squares: the bare token is the capture.
    let q = pos("2kk2/6/6/6/1Mr3/6/2KK2[-] w - - 0 1 pool:-/-");
    assert_eq!(q.move_token(q.parse_move("b3c3").unwrap()), "b3c3");
    for (bad, malformed) in [
        ("b3", true),
        ("b3d1,b3d1", true),
        ("b3d1x", true),
        ("z9a1", true),
        ("M@", true),
        ("b3d1,d1b", true),
        ("a1a2", false),
        ("M@c3", false),
    ] {
        let e = p.parse_move(bad).unwrap_err();
        assert_eq!(
            matches!(e, MoveError::Malformed { .. }),
            malformed,
            "{bad}: {e:?}"
        );
    }
}

/// Random playouts: make/unmake restore FEN and key, the incremental key equals the key
/// computed from scratch, every token parses back to its move and tokens are unique
/// (design.md "When a variant is done", items 3 and 5).
#[test]
fn tokens_round_trip_and_make_unmake() {
    let mut playout = Playout::new(5, 160);
    let mut plies = 0;
    for game in 0..60 {
        let mut p = MulliganStew::startpos();
        let mut history = Vec::new();
        plies += playout.run(&mut p, |p, at| {
            let l = at.legal;
            if l.is_empty() {
                assert!(p.verdict(Scope::Wins).map(|v| v.terminal).is_some());
                return Next::Stop;
            }
            if at.at_end {
                return Next::Stop;
            }
            assert_tokens_round_trip(p, l);
            assert_make_unmake(p, l, MulliganStew::compute_key, |p| {
                assert_eq!(pos(&p.fen()).key(), p.key(), "FEN keeps the key");
            });
            history.push((p.fen(), p.key()));
            Next::Random
        });
        // Unwind the whole game.
        assert_unwinds(&mut p, history, &format!("game {game}"));
    }
    assert!(plies > 3000, "{plies}");
}

// ---------------------------------------------------------------------------------------
// The example game (rules 10) and the seed's notation (rules 8)

#[test]
fn example_game_checkpoints() {
    // rules/mulligan-stew.md 10: every FEN before each portion.
    let mut p = MulliganStew::startpos();
    let toks: Vec<&str> = GAME_TOKENS.split_whitespace().collect();
    assert_eq!(toks.len(), 32);
    for (i, t) in toks.iter().enumerate() {
        assert_eq!(p.fen(), GAME_FENS[i], "before portion {}", i + 1);
        let m = p.parse_move(t).unwrap();
        assert_eq!(p.move_token(m), *t);
        p.make(m);
    }
}

#[test]
fn seed_notation_imports_to_the_canonical_tokens() {
    // rules/mulligan-stew.md 8 "Importing the seed's notation".
    let words = split_record(GAME_RECORD);
    assert_eq!(words.len(), 32);
    let mut p = MulliganStew::startpos();
    for (w, t) in words.iter().zip(GAME_TOKENS.split_whitespace()) {
        let m = import(&p, w).unwrap_or_else(|e| panic!("{w} in {}: {e}", p.fen()));
        assert_eq!(p.move_token(m), t, "{w}");
        p.make(m);
    }
    // The literal "Kc2" of turn 1 is impossible (rules 10): a Pawn stands on c2.
    let p = played(START_FEN, "M@b3");
    assert!(import(&p, "Kc2").is_err());
    // SAN-style promotions and the promotion-only move.
    let p = played("kk4/3P2/6/6/6/6/4KK[-] w - - 0 1 pool:QR/-", "f1f3");
    assert_eq!(p.move_token(import(&p, "d7=R").unwrap()), "d6d7r");
    assert_eq!(p.move_token(import(&p, "d7").unwrap()), "d6d7");
    let p = pos("1P2kk/6/6/6/6/6/4KK[-] w - - 0 1 pool:R/-");
    assert_eq!(p.move_token(import(&p, "=Rb7").unwrap()), "b7b7r");
    assert_eq!(split_record("1. =R b7, Kd3"), ["=Rb7", "Kd3"]);
    // Errors.
    let p = MulliganStew::startpos();
    assert!(matches!(
        import(&p, "Kz9"),
        Err(MoveError::Malformed { .. })
    ));
    assert!(matches!(import(&p, "Qd3"), Err(MoveError::Illegal(_))));
}

#[test]
fn perft_subcommand_counts_portions_or_turns() {
    // `menagerie perft --unit ply` counts portions (rules 10: 9751 at depth 3), the default
    // unit counts turns (426 at depth 1).
    let perft = ["perft", "--variant", "mulliganstew"];
    let plies = run_binary_ok(
        &[&perft[..], &["--depth", "3", "--unit", "ply"]].concat(),
        b"",
    );
    assert!(plies.contains("Nodes searched: 9751\n"));
    let turns = run_binary_ok(&[&perft[..], &["--depth", "1"]].concat(), b"");
    assert!(turns.contains("Nodes searched: 426\n"));
}

#[test]
fn replay_subcommand_prints_fens_and_result() {
    // `menagerie replay` on the seed record: every checkpoint FEN and the result 0-1.
    let text = run_binary_ok(
        &["replay", "--variant", "mulliganstew"],
        GAME_RECORD.as_bytes(),
    );
    for fen in GAME_FENS {
        assert!(text.contains(&format!("fen {fen}\n")), "{fen}\n{text}");
    }
    assert!(text.contains(&format!("fen {FINAL_BOARD}[")), "{text}");
    assert!(
        text.ends_with("result 0-1 {both kings captured}\n"),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------------
// Search helpers

#[test]
fn tactical_moves_are_legal_and_tactical() {
    let mut p = MulliganStew::startpos();
    play_plies(
        &mut p,
        &GAME_TOKENS
            .split_whitespace()
            .take(20)
            .collect::<Vec<_>>()
            .join(" "),
    );
    let all = legal_moves(&p);
    let mut tac = MoveList::new();
    p.tactical_moves(&mut tac);
    let expected: Vec<_> = all.iter().copied().filter(|&m| p.is_tactical(m)).collect();
    assert_eq!(tac.to_vec(), expected);
    assert!(!tac.is_empty());
}

#[test]
fn eval_is_colour_symmetric_and_reported() {
    // The evaluation of a position and of its colour-flipped mirror agree.
    let a = pos("r1mka1/p1p2p/p3p1/2Pp2/A2cPP/PPKPa1/RA1M1C[-] w - - 4 6 pool:Q/q");
    let b = pos("ra1m1c/ppkpA1/a2Cpp/2pP2/P3P1/P1P2P/R1MKA1[-] b - - 4 6 pool:Q/q");
    assert_eq!(a.evaluate(), b.evaluate());
    let r = a.eval_report();
    assert!(
        r.contains("King safety") && r.contains("Final evaluation"),
        "{r}"
    );
    // A last King attacked with the enemy to move is very bad for its owner.
    let safe = pos("2kk2/6/6/6/6/6/3K2[-] b - - 0 1 pool:-/-");
    let hit = pos("2kk2/6/6/6/6/4r1/3K2[-] b - - 0 1 pool:-/-");
    assert!(hit.evaluate() > safe.evaluate() + 300);
}

// ---------------------------------------------------------------------------------------
// Protocol

#[test]
fn protocol_turns_perft_and_mid_turn_fens() {
    let mut e = Engine::start_variant("mulliganstew");
    // protocol.md 5: go perft counts turns (rules 10: 426 and 180236 from the start).
    for (d, n) in [(1, 426), (2, 180236)] {
        e.send("position startpos");
        let out = e.go_perft(d);
        assert_eq!(out.last().unwrap(), &format!("Nodes searched: {n}"));
        if d == 1 {
            assert!(out.contains(&"M@b3;c1c3: 1".to_string()));
        }
    }
    // Turn tokens and portion tokens, and a mid-turn FEN.
    e.command("position startpos moves M@b3;c1c3 e6e5 M@a5");
    assert_eq!(e.fen(), GAME_FENS[4]);
    e.command("position startpos moves M@b3");
    assert_eq!(e.fen(), GAME_FENS[1]);
    e.command(&format!("position fen {} moves c1c3", GAME_FENS[1]));
    assert_eq!(e.fen(), GAME_FENS[2]);
    // Lenient swap in a position command.
    e.command(&format!("position fen {} moves b3d1;f2f3", GAME_FENS[4]));
    assert_eq!(e.fen(), GAME_FENS[6]);
    // An illegal turn keeps the previous position.
    let out = e.command("position startpos moves c1c3;c1c3");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string error illegal move")),
        "{out:?}"
    );
    assert_eq!(e.fen(), GAME_FENS[6]);
    // From a mid-turn FEN the perft turn is the D portion alone.
    e.send(&format!("position fen {}", GAME_FENS[1]));
    let out = e.go_perft(1);
    assert!(out.contains(&"c1c3: 1".to_string()), "{out:?}");
    // rules 10: the swap-restriction D position has 10 portions, each a whole turn here.
    e.send("position fen 2kk2/6/6/6/MR4/6/2KK2[m] w - - 1 1 pool:Q/q portion:D moved:b3");
    let out = e.go_perft(1);
    assert_eq!(out.last().unwrap(), "Nodes searched: 10");
    assert!(out.contains(&"a3c1,c1a3: 1".to_string()), "{out:?}");
    // From a mid-turn FEN the bestmove is the D portion alone.
    e.send(&format!("position fen {}", GAME_FENS[1]));
    let out = e.go("go depth 3", SEARCH);
    let best = bestmove(&out);
    assert!(!best.contains(';') && best != "(none)", "{out:?}");
    assert!(pos(GAME_FENS[1]).parse_move(&best).is_ok(), "{best}");
    // bestmove is a whole turn; info pv lists turn tokens.
    e.send("position startpos");
    let out = e.go("go depth 4", SEARCH);
    let best = bestmove(&out);
    assert_eq!(best.split(';').count(), 2, "{out:?}");
    let pv = out.iter().rev().find(|l| l.contains(" pv ")).unwrap();
    let first = pv.split(" pv ").nth(1).unwrap().split(' ').next().unwrap();
    assert!(first.contains(';'), "{pv}");
}

#[test]
fn protocol_game_ends() {
    // rules/mulligan-stew.md 6 through the protocol: result lines and bestmove (none).
    let mut e = Engine::start_variant("mulliganstew");
    let cases = [
        // The example game: Black took White's second King in a D portion.
        (format!("position startpos moves {GAME_TOKENS}"), "info depth 0 score mate 0", "0-1 {both kings captured}"),
        // An L portion takes the last King: no D portion follows.
        ("position fen 1k4/6/6/6/6/6/1R1K2[-] w - - 0 1 pool:-/- moves b1b7".to_string(), "info depth 0 score mate 0", "1-0 {both kings captured}"),
        // Threefold repetition.
        (
            "position fen 2kk2/6/6/6/6/6/2KK2[-] w - - 0 1 pool:-/- moves d1e2;c1d2 d7e6;c7d6 e2d1;d2c1 e6d7;d6c7 d1e2;c1d2 d7e6;c7d6 e2d1;d2c1 e6d7;d6c7".to_string(),
            "info depth 0 score cp 0",
            "1/2-1/2 {threefold repetition}",
        ),
        // The 200-ply clock.
        ("position fen 2kk2/6/6/6/6/6/2KK2[-] w - - 198 80 pool:-/- moves d1e2;c1d2".to_string(), "info depth 0 score cp 0", "1/2-1/2 {200-ply clock}"),
    ];
    for (position, score, result) in cases {
        e.send(&position);
        let out = e.go("go depth 3", SEARCH);
        assert_game_over(&out, &position, Some(score), result);
    }
    // The turn that takes the last King in the L portion is the L token alone.
    e.send("position fen 1k4/6/6/6/6/6/1R1K2[-] w - - 0 1 pool:-/-");
    let out = e.go("go depth 3", SEARCH);
    assert_eq!(bestmove(&out), "b1b7", "{out:#?}");
    assert!(out.iter().any(|l| l.contains("score mate 1")), "{out:#?}");
}

#[test]
fn search_defends_the_last_king() {
    // Black's last King on d7 is attacked by the Rook on d1 (light, L portion next turn);
    // Black to move must not leave it there: after its turn the King is not capturable.
    let mut e = Engine::start_variant("mulliganstew");
    let fen = "3k2/6/6/6/6/6/K2R2[-] b - - 0 1 pool:-/-";
    e.send(&format!("position fen {fen}"));
    let out = e.go("go depth 4", SEARCH);
    let best = bestmove(&out);
    let mut p = pos(fen);
    for t in best.split(';') {
        play_plies(&mut p, t);
    }
    let mut l = MoveList::new();
    let mut captured = false;
    p.legal_moves(&mut l);
    for &m in &l {
        p.make(m);
        captured |= p.verdict(Scope::Wins).map(|v| v.terminal).is_some();
        p.unmake();
    }
    assert!(!captured, "{best}: {}", p.fen());
}

#[test]
fn search_takes_both_kings_in_one_turn() {
    // rules/mulligan-stew.md 5, 6: the Rook (b1, light) takes the b7 King in the L portion and
    // the Cardinal (a5, dark) the c7 King in the D portion: a win in one turn.
    let mut e = Engine::start_variant("mulliganstew");
    e.send("position fen 1kk3/6/C5/6/6/6/1R2KK[-] w - - 0 1 pool:-/-");
    let out = e.go("go depth 4", SEARCH);
    assert_eq!(bestmove(&out), "b1b7;a5c7", "{out:#?}");
    assert!(out.iter().any(|l| l.contains("score mate 1 ")), "{out:#?}");
}

/// The colour-flipped FEN: ranks mirrored (square colours are kept: (f, 6 - r) has the parity
/// of (f, r)), piece cases, hands, pools and the side swapped.
pub(crate) fn flip(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let (board, hand) = f[0].split_once('[').unwrap();
    let board: Vec<String> = board.split('/').rev().map(swap).collect();
    let hand = hand.trim_end_matches(']');
    let hand = match hand {
        "Mm" => "Mm".to_string(),
        "M" => "m".to_string(),
        "m" => "M".to_string(),
        h => h.to_string(),
    };
    let side = if f[1] == "w" { "b" } else { "w" };
    let mut out = format!("{}[{hand}] {side} - - {} {}", board.join("/"), f[4], f[5]);
    for tag in &f[6..] {
        if let Some(pool) = tag.strip_prefix("pool:") {
            let (w, b) = pool.split_once('/').unwrap();
            out.push_str(&format!(" pool:{}/{}", swap(b), swap(w)));
        } else if let Some(sq) = tag.strip_prefix("moved:") {
            let rank = 8 - sq[1..].parse::<u8>().unwrap();
            out.push_str(&format!(" moved:{}{rank}", &sq[..1]));
        } else {
            out.push(' ');
            out.push_str(tag);
        }
    }
    out
}

/// Colour symmetry over random playouts: the flipped position has the mirrored portions and
/// the same evaluation from the side to move (rules 1-5 are symmetric under the flip).
#[test]
fn colour_flip_symmetry() {
    let mut playout = Playout::new(23, 120);
    let mut checked = 0;
    for _ in 0..30 {
        let mut p = MulliganStew::startpos();
        playout.run(&mut p, |p, at| {
            let l = at.legal;
            if l.is_empty() {
                return Next::Stop;
            }
            let q = pos(&flip(&p.fen()));
            assert_eq!(flip(&q.fen()), p.fen());
            let lq = legal_moves(&q);
            assert_eq!(l.len(), lq.len(), "{} vs {}", p.fen(), q.fen());
            assert_eq!(p.evaluate(), q.evaluate(), "{} vs {}", p.fen(), q.fen());
            assert_eq!(
                p.verdict(Scope::Wins).map(|v| v.terminal),
                q.verdict(Scope::Wins).map(|v| v.terminal)
            );
            checked += 1;
            Next::Random
        });
    }
    assert!(checked > 2000, "{checked}");
}
