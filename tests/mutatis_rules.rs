//! Mutatis Mutandis, the game's rules (rules/mutatis-mutandis.md sections 2, 4, 5, 7-11):
//! each test names the section it checks and would fail if that rule were broken.

use crate::common;
use menagerie::variants::game_outcome;

use common::game::{legal_moves, parse, ply_tokens};

use menagerie::variants::mutatis_mutandis::{MutatisMutandis, START_FEN};
use menagerie::variants::{GameResult, MoveError, Notation, Rules};

fn pos(fen: &str) -> MutatisMutandis {
    parse::<MutatisMutandis>(fen)
}

/// The position after playing the turn `token` on `fen`.
fn after(fen: &str, token: &str) -> MutatisMutandis {
    let mut p = pos(fen);
    let m = p
        .parse_move(token)
        .unwrap_or_else(|e| panic!("{token} in {fen}: {e}; legal: {:?}", ply_tokens(&p)));
    p.make(m);
    p
}

/// The FEN code on `square` of `p` (`"-"` when empty), as the board field writes it.
fn at(p: &MutatisMutandis, square: &str) -> String {
    let sq = menagerie::variants::mutatis_mutandis::board::parse_square(square).unwrap();
    p.board()
        .piece(sq)
        .map_or("-".to_string(), |pc| pc.to_string())
}

fn field(p: &MutatisMutandis, i: usize) -> String {
    p.fen().split(' ').nth(i).unwrap().to_string()
}

fn tag(p: &MutatisMutandis, key: &str) -> String {
    p.fen()
        .split(' ')
        .find_map(|w| w.strip_prefix(&format!("{key}:")).map(str::to_string))
        .unwrap()
}

fn has(p: &MutatisMutandis, token: &str) -> bool {
    ply_tokens(p).iter().any(|t| t == token)
}

// ---- rules 2: morphing ------------------------------------------------------------------

#[test]
fn the_acting_piece_morphs_and_nothing_else() {
    // rules 2: the Hydra's knight on g1 acts and becomes NN11; every other piece keeps its state.
    let start = pos(START_FEN);
    let p = after(START_FEN, "g1f3");
    assert_eq!(at(&p, "f3"), "[N11]");
    for sq in ["a1", "b1", "c1", "d1", "e1", "f1", "h1", "e2", "a8", "e7"] {
        assert_eq!(at(&p, sq), at(&start, sq), "{sq}");
    }
    // A pawn that moves becomes a Berolina pawn, then a Scorpion, then a Pawn again.
    let p = after(&p.fen(), "b7b5");
    assert_eq!(at(&p, "b5"), "[bp]");
}

#[test]
fn a_swap_morphs_the_swapper_not_its_partner_and_bans_the_swap_back() {
    // rules 2 [D 7], 7.3: the Swapper becomes a Chameleon, the swapped enemy Swapper stays.
    let fen = "7k/3[sw]4/8/8/3[SW]4/8/8/3K4 w - - 0 1";
    let p = after(fen, "d4d7,d7d4");
    assert_eq!(at(&p, "d7"), "[CH]");
    assert_eq!(at(&p, "d4"), "[sw]");
    assert_eq!(tag(&p, "swapban"), "d4d7");
    // Blue's Swapper may not swap straight back with the Chameleon (rules 7.3) ...
    assert!(!has(&p, "d4d7,d7d4"), "{:?}", ply_tokens(&p));
    // ... but may still swap with another piece, and the ban lasts one turn only.
    assert!(
        has(&p, "d4d1,d1d4") && has(&p, "d4d5"),
        "{:?}",
        ply_tokens(&p)
    );
    let q = after(&p.fen(), "h8g8");
    assert_eq!(tag(&q, "swapban"), "-");
}

#[test]
fn a_sling_morphs_the_oxybeles_not_the_slung_piece() {
    // rules 2 [D 7], 6.2 OX: the worked example; the Rook captures on d7 and stays a Rook.
    let fen = "K6k/3n4/8/2n1N3/3[OX]4/3R4/8/8 w - - 0 1";
    let p = pos(fen);
    for t in ["d4e4", "d4d5,d3d7", "d4c4", "d4c3,e5a1", "d4e3,c5g1"] {
        assert!(has(&p, t), "{t} missing: {:?}", ply_tokens(&p));
    }
    let q = after(fen, "d4d5,d3d7");
    assert_eq!(at(&q, "d5"), "[SE]");
    assert_eq!(at(&q, "d7"), "R");
    assert_eq!(at(&q, "d3"), "-");
    // The slung enemy knight lands on g1 unmorphed.
    let q = after(fen, "d4e3,c5g1");
    assert_eq!(at(&q, "g1"), "n");
}

#[test]
fn a_conversion_morphs_the_maoking_and_keeps_the_converted_state() {
    // rules 6.1 MK [D 8], 2: the Blue knight turns White as a knight; the Maoking becomes a King.
    let fen = "7k/8/8/4n3/3[MK]4/8/8/8 w - - 0 1";
    let p = after(fen, "d4e5");
    assert_eq!(at(&p, "e5"), "N");
    assert_eq!(at(&p, "d4"), "K");
    // Conversion resets the 50-move clock (rules 5 [D 28]).
    assert_eq!(field(&p, 4), "0");
}

#[test]
fn conversion_spares_royals_mamras_and_shielded_pieces() {
    // rules 6.1 MK [D 8]: no conversion of a King, a Mamra or a Shield-protected piece.
    let fen = "8/8/8/3[ma]k3/3[MK]4/2n5/1[sh]6/8 w - - 0 1";
    let p = pos(fen);
    for t in ["d4d5", "d4e5", "d4c3"] {
        assert!(
            !has(&p, t),
            "{t} must not be a conversion: {:?}",
            ply_tokens(&p)
        );
    }
}

#[test]
fn an_archer_shot_morphs_the_archer_where_it_stands() {
    // rules 6.2 AC, 2: the shooter stays and becomes a Long Leaper; the target is gone.
    let fen = "7k/8/8/8/8/8/3n4/3[AC]3K w - - 0 1";
    let p = after(fen, "d1d2");
    assert_eq!(at(&p, "d1"), "[LL]");
    assert_eq!(at(&p, "d2"), "-");
}

#[test]
fn cornering_morphs_both_pieces() {
    // rules 9 [D 15]: King -> Maoking, the corner Rook -> Cylindrical Bishop.
    let p = after("4k3/8/8/8/8/8/8/4K2R w KH - 0 1", "e1h1");
    assert_eq!(at(&p, "g1"), "[MK]");
    assert_eq!(at(&p, "f1"), "[CY]");
    assert_eq!(field(&p, 2), "-");
}

#[test]
fn a_promoted_piece_enters_unmorphed_from_the_end_of_the_reserve() {
    // rules 10 [D 13]: the last reserve piece (GR), in its reserve state.
    let fen = "k7/4P3/8/8/8/8/8/K7 w - - 0 2 reserve:N.GR/- drops:0/0 swapban:-";
    let p = after(fen, "e7e8gr");
    assert_eq!(at(&p, "e8"), "[GR]");
    assert_eq!(tag(&p, "reserve"), "N/-");
    // With an empty reserve the pawn becomes a Queen.
    let p = after("k7/4P3/8/8/8/8/8/K7 w - - 0 2", "e7e8q");
    assert_eq!(at(&p, "e8"), "Q");
    // The token must name the piece the rules give.
    assert!(matches!(
        pos(fen).parse_move("e7e8q"),
        Err(MoveError::Illegal(_))
    ));
}

// ---- rules 4 and 8: turns, drops ----------------------------------------------------------

/// A White position on turn `full` with White to move, reserve `AM.N`, after `drops` drops.
fn drop_fen(stm: char, full: u32, drops: u32) -> String {
    format!(
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 {stm} - - 0 {full} reserve:AM.N/q.r drops:{drops}/{drops} swapban:-"
    )
}

fn drop_kinds(p: &MutatisMutandis) -> (usize, usize) {
    let t = ply_tokens(p);
    let with = t.iter().filter(|t| t.contains('@')).count();
    (with, t.len() - with)
}

#[test]
fn drop_windows_follow_the_full_move_number() {
    // rules 8: Blue's k-th drop on turns 5k+1..5k+5, White's on 5k+2..5k+6; mandatory on the
    // last turn of the window.
    for (stm, full, drops, with, without) in [
        ('b', 5, 0, false, true),
        ('b', 6, 0, true, true),
        ('b', 9, 0, true, true),
        ('b', 10, 0, true, false),
        ('w', 6, 0, false, true),
        ('w', 7, 0, true, true),
        ('w', 11, 0, true, false),
        // After one drop the next window is 11..15 (Blue) / 12..16 (White).
        ('b', 10, 1, false, true),
        ('b', 11, 1, true, true),
        ('w', 11, 1, false, true),
        ('w', 16, 1, true, false),
        // A drop overdue since long is still mandatory [D 6].
        ('w', 40, 1, true, false),
    ] {
        let p = pos(&drop_fen(stm, full, drops));
        let (w, wo) = drop_kinds(&p);
        assert_eq!(
            (w > 0, wo > 0),
            (with, without),
            "{stm} turn {full} drops {drops}"
        );
    }
}

#[test]
fn a_drop_places_the_first_reserve_piece_on_an_empty_home_square_after_the_action() {
    // rules 4 [D 5], 8: the drop comes after the action, so the square a piece just left is
    // usable; the dropped piece does not morph; the drop counter grows.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 7 reserve:AM.N/- drops:0/0 swapban:-";
    let p = after(fen, "a1a5;AM@a1");
    assert_eq!(at(&p, "a1"), "[AM]");
    assert_eq!(at(&p, "a5"), "[CY]");
    assert_eq!(tag(&p, "reserve"), "N/-");
    assert_eq!(tag(&p, "drops"), "1/0");
    // Only home-row squares, only the first piece, never a drop alone (rules 4).
    let q = pos(fen);
    assert!(ply_tokens(&q)
        .iter()
        .filter(|t| t.contains('@'))
        .all(|t| t.contains(";AM@") && t.ends_with('1')));
    assert!(q.parse_move("AM@b1").is_err());
}

#[test]
fn a_mandatory_drop_is_deferred_when_the_home_row_is_full() {
    // rules 8 [D 6]: no drop possible -> drop-less turns are legal and the drop stays pending.
    let fen = "4k3/8/8/8/8/8/8/RNRNKNRN w - - 0 11 reserve:AM/- drops:0/0 swapban:-";
    let p = pos(fen);
    let (with, without) = drop_kinds(&p);
    assert!(
        with > 0,
        "a piece leaving the home row makes room: {:?}",
        ply_tokens(&p)
    );
    assert_eq!(without, 0, "mandatory: {:?}", ply_tokens(&p));
    // A full home row that no action can empty (rooks and King walled in by pawns): the drop
    // is impossible, the pawn moves are legal without it, and it stays due.
    let fen = "4k3/8/8/8/8/8/PPPPPPPP/RRRRKRRR w - - 0 11 reserve:AM/- drops:0/0 swapban:-";
    let p = pos(fen);
    let (with, without) = drop_kinds(&p);
    assert_eq!((with, without), (0, 16), "{:?}", ply_tokens(&p));
    let q = after(&after(fen, "a2a3").fen(), "e8e7");
    assert_eq!(
        q.drop_window(menagerie::core::Color::White),
        menagerie::variants::mutatis_mutandis::DropWindow::Mandatory
    );
}

#[test]
fn a_drop_can_block_a_check_and_a_turn_is_judged_after_the_drop() {
    // rules 5: legality after action + drop: the rook on a1 checks the King on e1.
    let fen = "4k3/8/8/8/8/8/7P/r3K3 w - - 0 7 reserve:N.GR/- drops:0/0 swapban:-";
    let p = pos(fen);
    assert!(has(&p, "h2h3;N@c1"), "{:?}", ply_tokens(&p));
    assert!(!has(&p, "h2h3"));
    assert!(!has(&p, "h2h3;N@g1"));
}

#[test]
fn promotion_takes_the_last_piece_before_the_drop_takes_the_first() {
    // rules 10 [D 26]: with one reserve piece left, a promoting turn has no drop.
    let fen = "k7/4P3/8/8/8/8/8/K7 w - - 0 7 reserve:N/- drops:0/0 swapban:-";
    let p = pos(fen);
    assert!(has(&p, "e7e8n"));
    assert!(!ply_tokens(&p)
        .iter()
        .any(|t| t.starts_with("e7e8") && t.contains('@')));
    assert!(has(&p, "a1a2;N@b1"));
    // Two pieces: promotion takes GR, the drop N.
    let fen = "k7/4P3/8/8/8/8/8/K7 w - - 0 7 reserve:N.GR/- drops:0/0 swapban:-";
    let p = after(fen, "e7e8gr;N@b1");
    assert_eq!((at(&p, "e8"), at(&p, "b1")), ("[GR]".into(), "N".into()));
    assert_eq!(tag(&p, "reserve"), "-/-");
    assert_eq!(tag(&p, "drops"), "1/0");
}

#[test]
fn a_drop_on_a_corner_sets_its_flag_while_the_king_is_unmoved() {
    // rules 9 (flags), 8.
    let fen = "4k3/8/8/8/8/8/8/4K3 w K - 0 7 reserve:R/- drops:0/0 swapban:-";
    // A King action clears its flag first, so a drop on a corner in the same turn sets none.
    let p = after(fen, "e1d2;R@h1");
    assert_eq!(field(&p, 2), "-");
    // A King that stays: a drop on a1 sets A.
    let fen = "4k3/8/8/8/8/8/P7/4K3 w K - 0 7 reserve:R/- drops:0/0 swapban:-";
    let p = after(fen, "a2a3;R@a1");
    assert_eq!(field(&p, 2), "KA");
    // ... and, Blue having moved, the cornering then works.
    assert!(has(&after(&p.fen(), "e8e7"), "e1a1"));
}

// ---- rules 5: royalty, legality, the end ------------------------------------------------

#[test]
fn a_mamra_may_not_move_onto_an_attacked_square() {
    // rules 5 [D 11]: it would be a Wuss standing attacked.
    let p = pos("7k/8/8/r7/3[MA]4/8/8/7K w - - 0 1");
    for t in ["d4c5", "d4d5", "d4e5"] {
        assert!(!has(&p, t), "{t}");
    }
    for t in ["d4c3", "d4c4", "d4d3", "d4e3", "d4e4"] {
        assert!(has(&p, t), "{t}");
    }
    let q = after(&p.fen(), "d4e4");
    assert_eq!(at(&q, "e4"), "[WU]");
}

#[test]
fn a_wuss_may_move_onto_an_attacked_square_and_becomes_a_mamra() {
    // rules 5 [S]: the Wuss that moves is a Mamra, immune to the rook.
    let p = after("7k/8/8/r7/8/3[WU]4/8/7K w - - 0 1", "d3d5");
    assert_eq!(at(&p, "d5"), "[MA]");
}

#[test]
fn an_attacked_wuss_must_act() {
    // rules 5 Wuss compulsion: the rook on a4 attacks the Wuss on d4; capturing or blocking
    // with another piece is not allowed, only the Wuss acts.
    let p = pos("7k/8/8/8/r2[WU]4/8/8/R6K w - - 0 1");
    let t = ply_tokens(&p);
    assert!(!t.is_empty());
    assert!(t.iter().all(|t| t.starts_with("d4")), "{t:?}");
    assert!(p.in_check());
}

#[test]
fn checkmate_wuss_mate_and_stalemate_end_the_game() {
    // rules 5: no legal turn: a royal attacked loses, else a draw.
    let mate = pos("7k/8/8/8/8/8/1r6/r6K w - - 0 1");
    assert!(legal_moves(&mate).is_empty());
    let o = game_outcome(&mate).unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::BlackWins, "checkmate")
    );

    // The Wuss on d4 is frozen by the Immobilizer on d5 and attacked by the rook on a4.
    let wuss = pos("7k/8/8/3[im]4/r2[WU]4/8/8/7K w - - 0 1");
    assert!(legal_moves(&wuss).is_empty());
    let o = game_outcome(&wuss).unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::BlackWins, "wuss mate")
    );

    let stale = pos("7k/8/8/8/8/1q6/8/K7 w - - 0 1");
    assert!(legal_moves(&stale).is_empty());
    let o = game_outcome(&stale).unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::Draw, "stalemate")
    );
}

#[test]
fn threefold_repetition_of_the_fen_without_clocks_draws() {
    // rules 5: King and Maoking shuffles come back to the same FEN every four plies.
    let mut p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    for i in 0..8 {
        assert!(game_outcome(&p).is_none(), "ply {i}");
        let t = ["e1e2", "e8e7", "e2e1", "e7e8"][i % 4];
        let m = p.parse_move(t).unwrap();
        p.make(m);
    }
    let o = game_outcome(&p).unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::Draw, "threefold repetition")
    );
}

#[test]
fn fifty_moves_without_removal_pawn_move_drop_promotion_or_conversion_draw() {
    // rules 5 [D 28]: 100 plies.
    let fen = "4k3/8/8/8/8/8/P7/R3K3 w - - 99 60";
    assert!(game_outcome(&pos(fen)).is_none());
    let p = after(fen, "a1b1");
    let o = game_outcome(&p).unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::Draw, "fifty-move rule")
    );
    // A pawn-family move resets the clock.
    let p = after(fen, "a2a3");
    assert_eq!(field(&p, 4), "0");
    assert!(game_outcome(&p).is_none());
}

#[test]
fn a_sling_may_not_land_an_enemy_piece_on_the_movers_own_royal() {
    // [D 25]: stepping d4d3 slings the Blue rook from d5 down the file onto d1.
    let with_king = pos("7k/8/8/3r4/3[OX]4/8/8/3K4 w - - 0 1");
    assert!(!ply_tokens(&with_king).iter().any(|t| t.starts_with("d4d3")));
    // With a non-royal piece there, the sling is legal (the rook captures it).
    let with_rook = pos("7k/8/8/3r4/3[OX]4/8/7K/3R4 w - - 0 1");
    assert!(has(&with_rook, "d4d3,d5d1"), "{:?}", ply_tokens(&with_rook));
}

// ---- rules 7: freezing, suicide, immunity, the Chameleon ---------------------------------

#[test]
fn a_frozen_piece_can_only_commit_suicide_and_royals_never_do() {
    // rules 7.1: the knight on c3 and the King on b2 stand next to the Immobilizer on c2.
    let p = pos("7k/8/8/8/8/2N5/1K[im]5/8 w - - 0 1");
    let t = ply_tokens(&p);
    assert!(t.contains(&"c3c3x".to_string()), "{t:?}");
    assert!(!t.iter().any(|t| t.starts_with("c3") && t != "c3c3x"));
    assert!(!t.iter().any(|t| t.starts_with("b2")), "{t:?}");
    // With no other piece the frozen King has no turn: stalemate.
    let q = pos("7k/8/8/8/8/8/1K[im]5/8 w - - 0 1");
    assert!(legal_moves(&q).is_empty());
    let q = after(&p.fen(), "c3c3x");
    assert_eq!(at(&q, "c3"), "-");
    assert_eq!(field(&q, 4), "0");
}

#[test]
fn shield_protected_pieces_cannot_be_captured() {
    // rules 7.4, 6.2 SH: the rook on d5 next to the Shield on e5 is immune to the queen.
    let p = pos("k7/8/8/3R[SH]3/8/8/7K/3q4 b - - 0 1");
    assert!(!has(&p, "d1d5"));
    let q = pos("k7/8/8/3R4/8/8/7K/3q4 b - - 0 1");
    assert!(has(&q, "d1d5"));
}

#[test]
fn the_chameleon_seed_example_captures_three_pieces_in_one_move() {
    // rules 6.2 CH, 7.2 b: Black Chameleon a2, White Withdrawer a1, Long Leaper a3, Advancer a5.
    let p = after("7k/8/8/[AD]7/8/[LL]7/[ch]7/[WI]6K b - - 0 1", "a2a4");
    for sq in ["a1", "a3", "a5"] {
        assert_eq!(at(&p, sq), "-", "{sq}");
    }
    assert_eq!(at(&p, "a4"), "[sw]");
}

// ---- rules 9: cornering ----------------------------------------------------------------

/// A FEN rank from 8 cells, `.` for empty.
fn fen_rank(cells: &[char; 8]) -> String {
    let mut s = String::new();
    let mut empty = 0;
    for &c in cells {
        if c == '.' {
            empty += 1;
        } else {
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push(c);
        }
    }
    if empty > 0 {
        s.push_str(&empty.to_string());
    }
    s
}

#[test]
fn cornering_every_row_of_the_table() {
    // rules 9: (King, corner, King ends, piece ends) for each row, with the squares empty.
    for (king, corner, king_to, piece_to) in [
        ("b1", "a1", "b1", "c1"),
        ("c1", "a1", "c1", "d1"),
        ("d1", "a1", "b1", "c1"),
        ("d1", "h1", "f1", "e1"),
        ("e1", "a1", "c1", "d1"),
        ("e1", "h1", "g1", "f1"),
        ("f1", "h1", "f1", "e1"),
        ("g1", "h1", "g1", "f1"),
    ] {
        let mut row = ['.'; 8];
        row[(king.as_bytes()[0] - b'a') as usize] = 'K';
        row[(corner.as_bytes()[0] - b'a') as usize] = 'R';
        let rank = fen_rank(&row);
        let flags = if corner == "a1" { "KA" } else { "KH" };
        let fen = format!("4k3/8/8/8/8/8/8/{rank} w {flags} - 0 1");
        let token = format!("{king}{corner}");
        let p = after(&fen, &token);
        assert_eq!(at(&p, king_to), "[MK]", "{token}");
        assert_eq!(at(&p, piece_to), "[CY]", "{token}");
        for sq in [king, corner] {
            if sq != king_to && sq != piece_to {
                assert_eq!(at(&p, sq), "-", "{token} {sq}");
            }
        }
        assert_eq!(field(&p, 2), "-", "{token}");
    }
}

#[test]
fn cornering_needs_empty_squares_safe_squares_no_check_unmoved_unfrozen_pieces() {
    // rules 9 [D 20, D 21]: e1-a1 needs b1 c1 d1 empty and e1 d1 not attacked.
    let ok = "4k3/8/8/8/8/8/8/R3K3 w KA - 0 1";
    assert!(has(&pos(ok), "e1a1"));
    for (why, fen) in [
        ("b1 occupied", "4k3/8/8/8/8/8/8/RN2K3 w KA - 0 1"),
        ("d1 attacked", "3rk3/8/8/8/8/8/8/R3K3 w KA - 0 1"),
        ("in check", "4r1k1/8/8/8/8/8/8/R3K3 w KA - 0 1"),
        ("no A flag", "4k3/8/8/8/8/8/8/R3K3 w K - 0 1"),
        (
            "corner piece frozen",
            "4k3/8/8/8/8/8/1[im]6/R3K3 w KA - 0 1",
        ),
        ("King is a Maoking", "4k3/8/8/8/8/8/8/R3[MK]3 w A - 0 1"),
    ] {
        assert!(!has(&pos(fen), "e1a1"), "{why}");
    }
    // The final square is judged by the turn's legality: c1 attacked forbids it too.
    assert!(!has(&pos("2r1k3/8/8/8/8/8/8/R3K3 w KA - 0 1"), "e1a1"));
    // b1 may be attacked: the King does not pass it (rules 9 table).
    assert!(has(&pos("1r2k3/8/8/8/8/8/8/R3K3 w KA - 0 1"), "e1a1"));
}

// ---- rules 10: en passant and promotion ------------------------------------------------

#[test]
fn en_passant_after_a_double_step_by_p_or_scorpion_pawns_only() {
    // rules 10 [D 19]: the field is written even when no capture is possible.
    let p = after("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4");
    assert_eq!(field(&p, 3), "e3");
    // A Blue P on d4 captures en passant; a Scorpion too; a Berolina pawn's d4e3 is its
    // plain diagonal move and captures nothing.
    for (pawn, captures) in [("p", true), ("[sp]", true), ("[bp]", false)] {
        let fen = format!("4k3/8/8/8/3{pawn}4/8/4P3/4K3 w - - 0 1");
        let q = after(&fen, "e2e4");
        let r = after(&q.fen(), "d4e3");
        let left = if captures { "-" } else { "[BP]" };
        assert_eq!(at(&r, "e4"), left, "{pawn}");
    }
    // Only on the next turn.
    let q = after("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4");
    let r = after(&after(&q.fen(), "e8e7").fen(), "e1e2");
    assert!(!has(&r, "d4e3"));
}

#[test]
fn every_pawn_state_promotes_and_a_cannon_pawn_may() {
    // rules 10: P, BP, SP must promote on the enemy home row; a Cannon Pawn may.
    for (pawn, token) in [("P", "e7e8q"), ("[BP]", "e7d8q"), ("[SP]", "e7e8q")] {
        let fen = format!("k7/4{pawn}3/8/8/8/8/8/K7 w - - 0 2");
        let p = pos(&fen);
        assert!(has(&p, token), "{pawn}: {:?}", ply_tokens(&p));
        assert!(
            !ply_tokens(&p)
                .iter()
                .any(|t| t.len() == 4 && t.starts_with("e7") && t.ends_with('8')),
            "{pawn} must promote"
        );
    }
    let p = pos("k7/4[CP]3/8/8/8/8/8/K7 w - - 0 2");
    assert!(has(&p, "e7e8") && has(&p, "e7e8q"), "{:?}", ply_tokens(&p));
    let q = after(&p.fen(), "e7e8");
    assert_eq!(at(&q, "e8"), "[PV]", "not promoting, it morphs");
}

#[test]
fn a_slung_pawn_promotes_and_a_swapped_one_does_not() {
    // rules 10 [D 13]: slung onto the enemy home row (Oxybeles steps d4d5, slinging d3 up).
    let p = pos("k7/8/8/8/3[OX]4/3P4/8/7K w - - 0 1");
    assert!(has(&p, "d4d5,d3d8q"), "{:?}", ply_tokens(&p));
    // A Swapper swapping with its own pawn puts it on row 8 without promotion.
    let q = after("k7/3[SW]4/8/8/3P4/8/8/7K w - - 0 1", "d7d4,d4d7");
    assert_eq!(at(&q, "d7"), "P");
}

// ---- rules 11: FEN ---------------------------------------------------------------------

const RULES_FENS: &[&str] = &[
    START_FEN,
    "[ox][ar][nw][am]kc[pv][da]/pppppppp/8/8/8/8/PPPPPPPP/C[MA]K[OX][NW][DA][CR]Q w KAHkah - 0 1 reserve:LL.AM.IM.DK.R.CH.N.PV.WI.NR.GR.AR.HN/cr.ma.dk.ch.gr.im.ll.wi.q.r.nr.hn.n drops:0/0 swapban:-",
    "cn[da][cr]k[pv][hn][ox]/pppppppp/8/8/8/8/PPPPPPPP/KR[AM]N[GR][LL][PV][IM] w KAHkah - 0 1 reserve:DK.HN.MA.Q.CH.NR.WI.C.CR.DA.NW.OX.AR/nr.wi.ma.ar.gr.ch.dk.im.r.ll.nw.q.am drops:0/0 swapban:-",
    "[ch][ll][am]k[dk][nr][da][gr]/pppppppp/8/8/8/8/PPPPPPPP/[AR][LL][DK]K[GR][IM][DA][PV] w KAHkah - 0 1 reserve:NR.OX.N.Q.CH.AM.CR.R.WI.NW.C.MA.HN/n.r.nw.ox.hn.cr.ma.wi.ar.q.pv.im.c drops:0/0 swapban:-",
    "[gr][nr]k[dk][ch]r1[wi]/p3p[ss]pp/2[bp]5/1[bp]1[bp]1[bp]P1/[BP]4[SP]1[BP]/5[oc]2/1PPPP2[IM]/[LL][AR]CKQ[MA][HN][AM] b KAHah - 0 11 reserve:NR.DA.DK.N.GR.CR.R.NW.PV.CH.WI.OX/am.ar.c.n.cr.nw.pv.ll.im.ma.hn.ox drops:1/1 swapban:-",
    "[gr][ar]1[dk][ch]2q/1[mk]3pp1/r1[ro][bp][bp][am]2/2[bp][SH][LL][SP]1[bp]/1[BP]3[wi][BP]1/1A6/P[SQ]1P[MA]P1P/2[MK][NR]1[DA][HN]1 w ah - 5 21 reserve:DK.N.GR.CR.R.NW.PV.CH.WI.OX/c.n.cr.nw.pv.ll.im.ma.hn.ox drops:3/3 swapban:-",
    "[gr][am]1[mk]1rq[wi]/p[dk]2ppp1/1[bp]6/[nr]1[bp]4[bp]/Q3[ch][DR]1[BP]/[BP]3[BP][BP]2/[AC]PP1P1P[IM]/1[AM]C1[MK][MA][N02][NR] w Ha - 6 16 reserve:DA.DK.N.GR.CR.R.NW.PV.CH.WI.OX/ar.c.n.cr.nw.pv.ll.im.ma.hn.ox drops:2/2 swapban:-",
    "[ll]3k3/1p[wi]2p2/2[sw]2[im]2/[ad]2[CH]1[sh][cp]1/3[SW]4/2[OX]1[AC]3/1p1P2[MA]1/4K2R w KH - 0 11 reserve:N.GR/q.am drops:0/0 swapban:-",
];

#[test]
fn every_fen_of_the_rules_file_round_trips() {
    // rules 11: canonical output equals the rules file's text.
    for fen in RULES_FENS {
        assert_eq!(pos(fen).fen(), *fen);
    }
}

#[test]
fn fen_input_is_lenient_where_the_rules_allow_and_output_canonical() {
    // rules 11 [D 31, D 32]: tags in any order or missing, flags in any order, `[K]`.
    let p = pos("4k3/8/8/8/8/8/8/R3[K]3 w AK - 0 1 swapban:- drops:0/0");
    assert_eq!(
        p.fen(),
        "4k3/8/8/8/8/8/8/R3K3 w KA - 0 1 reserve:-/- drops:0/0 swapban:-"
    );
}

/// What no game reaches is refused with one clear error. Corner
/// flags without their piece (the specification's D 22 dropped them silently), more drops
/// made plus reserve pieces than a setup's 13, more drops than the windows passed allow.
#[test]
fn unreachable_flags_and_drop_counters_are_refused() {
    for (fen, why) in [
        (
            "8/4k3/8/8/8/8/8/R3K3 w KAHkah - 0 1",
            "corner: 'H' needs a White piece on h1: no game reaches that flag without it",
        ),
        (
            "8/4k3/8/8/8/8/8/R3K3 w KAk - 0 1",
            "corner: 'k' needs Blue's King (a K, not a Maoking) on rank 8: no game reaches \
             that flag without it",
        ),
        (
            "4k3/8/8/8/8/8/3K4/R7 w K - 0 1",
            "corner: 'K' needs White's King (a K, not a Maoking) on rank 1: no game reaches \
             that flag without it",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 reserve:-/- drops:9/9",
            "drops: White has made 9 drops, but by full move 1 with White to move at most 0 \
             can have been made (rules 8: the k-th drop from turn 5k+2)",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 b - - 0 10 reserve:-/- drops:1/2",
            "drops: Blue has made 2 drops, but by full move 10 with Blue to move at most 1 \
             can have been made (rules 8: the k-th drop from turn 5k+1)",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 99 reserve:AM.N/- drops:12/0",
            "drops: White has made 12 drops and has 2 reserve pieces left, more than the 13 \
             pieces of a reserve",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 reserve:-/am.nr.da.dk.n.gr.cr.r.nw.pv.ch.wi.ox.q",
            "drops: Blue has made 0 drops and has 14 reserve pieces left, more than the 13 \
             pieces of a reserve",
        ),
    ] {
        let e = MutatisMutandis::from_fen(fen)
            .err()
            .unwrap_or_else(|| panic!("accepted: {fen}"));
        assert_eq!(e.to_string(), format!("bad FEN: {why}"), "{fen}");
    }
    // At the edge of what can be reached: accepted (nine drops and four promotions by turn 60;
    // Blue's drop of turn 6 seen with White to move on turn 7).
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 60 reserve:-/- drops:9/9",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 7 reserve:AM/am drops:0/1",
        "4k3/8/8/8/8/8/8/4K3 b - - 0 7 reserve:AM/am drops:1/1",
        "8/4k3/8/8/8/8/8/R3K3 w KA - 0 1",
    ] {
        assert_eq!(
            pos(fen).fen().split(' ').next(),
            fen.split(' ').next(),
            "{fen}"
        );
    }
    assert!(
        MutatisMutandis::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 7 reserve:AM/am drops:1/1").is_err()
    );
}

#[test]
fn malformed_fens_name_the_field_at_fault() {
    // rules 11; design.md "Errors and input".
    let ok = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    assert!(MutatisMutandis::from_fen(ok).is_ok());
    for (fen, field) in [
        ("4k3/8/8/8/8/8/8 w - - 0 1", "board"),
        ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", "board"),
        ("4k3/8/8/8/8/8/8/4[ZZ]3 w - - 0 1", "board"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "board"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "board"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
        ("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", "corner"),
        ("4k3/8/8/8/8/8/8/4K3 w KK - 0 1", "corner"),
        ("4k3/8/8/8/8/8/8/4K3 w - e4 0 1", "en passant"),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en passant"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 reserve:AM", "reserve"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 reserve:am/-", "reserve"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 reserve:K/-", "reserve"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 reserve:XX/-", "reserve"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 drops:1", "drops"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 drops:a/0", "drops"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 swapban:e1e8", "swapban"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 swapban:e1", "swapban"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 color:red", "tag"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 drops:0/0 drops:0/0", "tag"),
        ("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", "side to move"),
    ] {
        match MutatisMutandis::from_fen(fen) {
            Ok(_) => panic!("accepted: {fen}"),
            Err(e) => assert_eq!(e.field, field, "{fen}: {e}"),
        }
    }
}

#[test]
fn the_key_holds_the_drop_window_phase_but_repetition_does_not() {
    // Turn 5 and turn 6 differ for Blue's drop window (rules 8); the
    // repetition key (FEN without clocks, rules 5) is the same.
    let a = pos(&drop_fen('b', 5, 0));
    let b = pos(&drop_fen('b', 6, 0));
    assert_ne!(a.key(), b.key());
    assert_eq!(a.repetition_key(), b.repetition_key());
    // Far past the window's end both are "mandatory": same future, same key.
    let c = pos(&drop_fen('b', 30, 0));
    let d = pos(&drop_fen('b', 31, 0));
    assert_eq!(c.key(), d.key());
    // With both reserves empty the full-move number no longer matters.
    let e = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 5");
    let f = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 9");
    assert_eq!(e.key(), f.key());
}

#[test]
fn tokens_are_refused_with_the_right_error() {
    // protocol.md 3, rules 11.
    let p = pos(START_FEN);
    for t in [
        "",
        "e2",
        "e2e9",
        "e2e4,",
        "e2e4;",
        "e2e4;AM",
        "e2e4;ZZ@c1",
        "e2e4zz",
        "e2e4,e4e5,e5e6",
    ] {
        assert!(
            matches!(p.parse_move(t), Err(MoveError::Malformed { .. })),
            "{t}: {:?}",
            p.parse_move(t)
        );
    }
    for t in ["e2e5", "e2e4;AM@c1", "d1h1", "a1a1x"] {
        assert!(matches!(p.parse_move(t), Err(MoveError::Illegal(_))), "{t}");
    }
    // Input leniency: drop codes in either case.
    let q = pos("4k3/8/8/8/8/8/7P/4K3 w - - 0 7 reserve:AM/- drops:0/0 swapban:-");
    assert_eq!(q.parse_move("h2h3;am@a1"), q.parse_move("h2h3;AM@a1"));
    assert!(q.parse_move("h2h3;AM@a1").is_ok());
}

// ---- rules 12: notation -----------------------------------------------------------------

/// The notation (rules 12) of the turn `token` of `fen`, checked to read back as that turn.
fn san_of(fen: &str, token: &str) -> String {
    let p = pos(fen);
    let m = p
        .parse_move(token)
        .unwrap_or_else(|e| panic!("{token} in {fen}: {e}; legal: {:?}", ply_tokens(&p)));
    let written = p.pgn_move(m);
    assert_eq!(
        menagerie::variants::turn::read_pgn_ply(&p, &written),
        Ok(m),
        "{written} in {fen}"
    );
    assert_eq!(p.import_move(&written), Ok(m), "{written} in {fen}");
    written
}

#[test]
fn notation_examples() {
    // rules 12, each example of its table. A Pawn in state `P` has no code; the Hydra's knight
    // is `HN`.
    assert_eq!(san_of(START_FEN, "e2e4"), "e4");
    assert_eq!(san_of(START_FEN, "g1f3"), "HNf3");
    // Disambiguation: two Berolina Pawns reach d3.
    let berolinas = "4k3/8/8/8/8/8/2[BP]1[BP]3/4K3 w - - 0 1";
    assert_eq!(san_of(berolinas, "c2d3"), "BPcd3");
    assert_eq!(san_of(berolinas, "e2d3"), "BPed3");
    assert_eq!(san_of(berolinas, "c2b3"), "BPb3");
    // Captures: landing, a Pawn's (its file named), a long leap over d4.
    assert_eq!(san_of("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), "Qxd5");
    assert_eq!(san_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), "exd5");
    let leaper = "4k3/8/8/8/3p4/8/3[LL]4/4K3 w - - 0 1";
    assert_eq!(san_of(leaper, "d2d5"), "LLxd5");
    assert_eq!(san_of(leaper, "d2d3"), "LLd3");
    // Promotion to the last reserve piece, giving check; to a Queen, mating (rules 10).
    let to_amazon = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1 reserve:AM/- drops:0/0 swapban:-";
    assert_eq!(san_of(to_amazon, "a7a8am"), "a8=AM+");
    assert_eq!(san_of("7k/P5pp/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), "a8=Q#");
    // A Cannon Pawn may promote or not.
    let cannon = "k7/4[CP]3/8/8/8/8/8/K7 w - - 0 1";
    assert_eq!(san_of(cannon, "e7e8q"), "CPe8=Q+");
    assert_eq!(san_of(cannon, "e7e8"), "CPe8");
    // Actions in place: a shot, a mutual destruction, a conversion.
    assert_eq!(
        san_of("4k3/8/8/8/8/8/r7/[AC]3K3 w - - 0 1", "a1a2"),
        "ACxa2"
    );
    let swapper = "4k3/8/8/8/8/8/3n4/1R1[SW]K3 w - - 0 1";
    assert_eq!(san_of(swapper, "d1d2"), "SWxd2");
    assert_eq!(
        san_of("4k3/8/8/8/8/8/4n3/4[MK]3 w - - 0 1", "e1e2"),
        "MK~e2"
    );
    // Swaps: the Swapper's move, then its partner's.
    assert_eq!(san_of(swapper, "d1b1,b1d1"), "SWb1,Rd1");
    assert_eq!(san_of(swapper, "d1d2,d2d1"), "SWd2,Nd1");
    // The Oxybeles: a step that slings the Rook to d8 (checking the King on a8), a plain step.
    let oxybeles = "k7/8/8/8/3[OX]4/3R4/8/7K w - - 0 1";
    assert_eq!(san_of(oxybeles, "d4d5,d3d8"), "OXd5,Rd8+");
    assert_eq!(san_of(oxybeles, "d4e4"), "OXe4");
    // Suicide of a frozen Knight and of a frozen Pawn (rules 7.1).
    assert_eq!(
        san_of("4k3/8/8/8/8/2[im]5/2N5/4K3 w - - 0 1", "c2c2x"),
        "Nc2x"
    );
    assert_eq!(
        san_of("4k3/8/8/8/8/2[im]5/2P5/4K3 w - - 0 1", "c2c2x"),
        "c2x"
    );
    // Cornering with either corner (rules 9).
    let corner = "4k3/8/8/8/8/8/8/[NR]2K3R w KAH - 0 1";
    assert_eq!(san_of(corner, "d1h1"), "O-O");
    assert_eq!(san_of(corner, "d1a1"), "O-O-O");
    // A drop: the action, then the drop as the token writes it (rules 8).
    let drop = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 7 reserve:AM/- drops:0/0 swapban:-";
    assert_eq!(san_of(drop, "e2e4;AM@a1"), "e4;AM@a1");
    assert_eq!(san_of(drop, "e2e4"), "e4");
    // Reading is lenient with marks and `=`, and tokens still read.
    let p = pos(to_amazon);
    assert_eq!(p.import_move("a8AM"), p.parse_move("a7a8am"));
    assert_eq!(p.import_move("a7a8am"), p.parse_move("a7a8am"));
    assert!(
        pos(berolinas).import_move("BPd3").is_err(),
        "two Berolina Pawns reach d3"
    );
}
