//! Evaluation of Mitosis Chess (issue: Mitosis, "Evaluation"). Terms, each from White's view:
//! - **material**: main-board pieces at face value plus a tunable bonus per piece (the piece
//!   count is what the end rules judge, rules/mitosis.md 6; small, the endgame term below
//!   carries the count);
//! - **bases**: base pieces (and pending parts) count at a discount of their face value, plus a
//!   bonus per main-board square they can enter right now. A captured major gives its owner its
//!   components back (rules/mitosis.md 4), so the static sum itself makes a major's loss cost
//!   less than its face value (face minus the discounted parts that find a free base square),
//!   while a minor's loss costs it in full: the split value is counted once, by the parts;
//! - **King**: protection (how many of the squares next to it and a knight's leap away are
//!   covered by its own non-King pieces: a capture from a covered square is illegal,
//!   rules/mitosis.md 5.1) and the catastrophe of its loss (every own minor goes, 5.2), scaled by
//!   the minors at stake;
//! - **endgame**: with little material the adjudication rules (piece count, then rank,
//!   rules/mitosis.md 6) are the real goal, and as the capture clock runs they weigh more;
//! - **activity**: attacked main-board squares and pawn advance.
//!
//! All parameters are declared once in [`MitosisParams`]; their values are Texel-tuned on
//! self-play data (98455 positions of 800 games at 4000 nodes, then checked by
//! matches).

use super::position::{Mitosis, BASES, MAIN, TABLES};
use super::rules::{adjudicate, Decision, CLOCK_LIMIT};
use super::types::{Kind, Parts};
use crate::core::{Bitboard, Color};

crate::tunables! {
    /// The parameters of the Mitosis evaluation (centipawns unless stated).
    #[derive(Copy)]
    pub struct MitosisParams, default MITOSIS_DEFAULT {
        /// Face values, by kind in rank order K G Q C A R B N P ([`Kind::index`]).
        value: [i32; 9] = [0, 1444, 1231, 1109, 849, 450, 344, 243, 85], (0, 3000, 5);
        /// Per main-board piece (the count of rules/mitosis.md 6.1 and 6.3), at every stage.
        piece_count: i32 = -44, (-100, 200, 4);
        /// Value (percent) of a piece standing in its base or pending, of its face value.
        base_value_pct: i32 = 57, (0, 100, 2);
        /// Per main-board square a base piece can enter now.
        base_entry: i32 = 10, (0, 40, 1);
        /// Per square next to the King (or a knight's leap away) covered by its own non-King
        /// pieces.
        king_cover: i32 = 0, (0, 60, 1);
        /// Percent of the minors at stake lost when the King can be taken from an uncovered
        /// square.
        king_hanging_pct: i32 = 4, (0, 100, 2);
        /// Percent of the minors at stake, times the uncovered share of its approach squares.
        king_exposure_pct: i32 = 5, (0, 50, 1);
        /// Per main-board piece more than the opponent, when little material is left.
        endgame_count: i32 = 281, (0, 400, 4);
        /// Bonus for winning the rank comparison, when little material is left.
        endgame_rank: i32 = 289, (0, 400, 4);
        /// Total face value (both sides, main board) below which the endgame terms apply in
        /// full.
        endgame_material: i32 = 4652, (500, 10000, 100);
        /// Adjudication bonus at a full capture clock (scaled by clock / 100).
        clock_verdict: i32 = 1746, (0, 2000, 20);
        /// Per attacked main-board square.
        mobility: i32 = 0, (0, 20, 1);
        /// Per rank a pawn advanced beyond its third rank.
        pawn_advance: i32 = 10, (0, 60, 1);
    }
}

/// [`MITOSIS_DEFAULT`] as a static: the parameters the engine plays with.
pub static MITOSIS_PARAMS: MitosisParams = MITOSIS_DEFAULT;

/// Face value of a kind with the parameters `p` (centipawns).
#[inline(always)]
fn face_with(p: &MitosisParams, kind: Kind) -> i32 {
    p.value[kind.index()]
}

/// Face value of a kind (centipawns).
#[inline(always)]
pub fn face(kind: Kind) -> i32 {
    face_with(&MITOSIS_PARAMS, kind)
}

/// What the owner of `kind` loses by its capture when its base has room for every component
/// (face value minus the components at the base discount; a minor, pawn or King gives nothing
/// back), in centipawns. Used for move ordering and the exchange test.
pub fn net_value(kind: Kind) -> i32 {
    let p = &MITOSIS_PARAMS;
    face(kind) - best_parts(p, kind.components(), 3) * p.base_value_pct / 100
}

/// Sum of the face values of the best `free` (0..=3) kinds of `parts` (no allocation).
fn best_parts(p: &MitosisParams, parts: Parts, free: u32) -> i32 {
    let mut vals: [i32; 3] = [0; 3];
    for (i, k) in Parts::KINDS.iter().enumerate() {
        if parts.0 & (1 << i) != 0 {
            vals[i] = face_with(p, *k);
        }
    }
    vals.sort_unstable_by(|a, b| b.cmp(a));
    vals.iter().take(free as usize).sum()
}

/// The terms of one side (White's view is the caller's business).
#[derive(Default, Debug, Clone, Copy)]
struct SideTerms {
    material: i32,
    base: i32,
    king: i32,
    activity: i32,
}

fn side_terms(pos: &Mitosis, p: &MitosisParams, side: Color, attacks: [u128; 2]) -> SideTerms {
    let t = &*TABLES;
    let mut s = SideTerms::default();
    let free = pos.free_base(side).count();
    let own = pos.color_bb(side);
    let occ = pos.occupied();
    let mut minors_at_stake = 0;
    for kind in Kind::ALL {
        let bb = pos.pieces(side, kind);
        let on_main = (bb & MAIN).count() as i32;
        let in_base = (bb & BASES).count() as i32;
        s.material += on_main * (face_with(p, kind) + p.piece_count);
        s.base += in_base * face_with(p, kind) * p.base_value_pct / 100;
        if kind.is_minor() {
            minors_at_stake += (on_main + in_base) * face_with(p, kind);
            for sq in (bb & BASES).iter() {
                let entry = t.attacks(side, kind, sq, occ) & MAIN & !own;
                s.base += entry.count() as i32 * p.base_entry;
            }
        }
    }
    // Pending parts will stand in the base (as many as fit).
    if side == pos.stm() && !pos.pending().is_empty() {
        let placed = best_parts(p, pos.pending(), free);
        s.base += placed * p.base_value_pct / 100;
        minors_at_stake += placed;
    }
    let me = side.index();
    let kings = pos.pieces(side, Kind::King);
    if kings != 0 {
        let ksq = kings.lsb();
        let approach = (t.king(ksq) | t.knight(ksq)) & MAIN;
        let covered = approach & attacks[me];
        let cover_n = covered.count() as i32;
        s.king += cover_n * p.king_cover;
        let n = approach.count().max(1) as i32;
        s.king -= minors_at_stake * p.king_exposure_pct / 100 * (n - cover_n) / n;
        // Can an enemy piece take the King from a square we do not cover?
        let their_king = pos.pieces(!side, Kind::King);
        let king_steps = if their_king == 0 {
            0
        } else {
            t.king(their_king.lsb())
        };
        let mut hanging = false;
        let threatened = (attacks[1 - me] | king_steps) & kings != 0;
        for kind in Kind::ALL {
            if !threatened {
                break;
            }
            for from in pos.pieces(!side, kind).iter() {
                if t.attacks(!side, kind, from, occ) & kings != 0
                    && (BASES.has(from) || !pos.attacked_by(side, from))
                {
                    hanging = true;
                    break;
                }
            }
            if hanging {
                break;
            }
        }
        if hanging {
            s.king -= (minors_at_stake + face_with(p, Kind::King)) * p.king_hanging_pct / 100;
        }
    }
    s.activity += (attacks[me] & MAIN).count() as i32 * p.mobility;
    for sq in pos.pieces(side, Kind::Pawn).iter() {
        let row = (sq / 9) as i32;
        let advance = match side {
            Color::White => row - 3,
            Color::Black => 7 - row,
        };
        s.activity += advance.max(0) * p.pawn_advance;
    }
    s
}

/// The endgame term from White's view: piece count and rank lead, faded in as material goes,
/// plus the verdict of the capture clock as it nears 100 plies.
fn endgame(pos: &Mitosis, p: &MitosisParams) -> i32 {
    let mut total = 0;
    for side in Color::ALL {
        for k in Kind::ALL {
            total += pos.main_kind_count(side, k) as i32 * face_with(p, k);
        }
    }
    let lim = p.endgame_material;
    let weight = ((lim - total).max(0) * 100 / lim).min(100);
    let verdict = adjudicate(pos).0;
    let sign = match verdict {
        Decision::Win(Color::White) => 1,
        Decision::Win(Color::Black) => -1,
        Decision::Draw => 0,
    };
    let count = pos.main_count(Color::White) as i32 - pos.main_count(Color::Black) as i32;
    let mut e = (count * p.endgame_count + sign * p.endgame_rank) * weight / 100;
    let clock = i32::from(pos.clock().min(CLOCK_LIMIT));
    e += sign * p.clock_verdict * clock * clock / (100 * 100);
    e
}

fn terms(pos: &Mitosis, p: &MitosisParams) -> ([SideTerms; 2], i32) {
    let attacks = [
        pos.attack_map(Color::White, false),
        pos.attack_map(Color::Black, false),
    ];
    (
        [
            side_terms(pos, p, Color::White, attacks),
            side_terms(pos, p, Color::Black, attacks),
        ],
        endgame(pos, p),
    )
}

fn total(t: &SideTerms) -> i32 {
    t.material + t.base + t.king + t.activity
}

/// Static evaluation with the parameters `p`, in centipawns from the side to move's point of
/// view.
#[inline]
pub fn evaluate_with(pos: &Mitosis, p: &MitosisParams) -> i32 {
    let ([w, b], e) = terms(pos, p);
    let white = total(&w) - total(&b) + e;
    white * pos.stm().sign()
}

/// Static evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Mitosis) -> i32 {
    evaluate_with(pos, &MITOSIS_PARAMS)
}

/// The evaluation term by term, for the `eval` command.
pub fn report(pos: &Mitosis) -> String {
    let ([w, b], e) = terms(pos, &MITOSIS_PARAMS);
    let row = |name: &str, a: i32, c: i32| {
        format!(
            "  {name:<22} white {a:>6}  black {c:>6}  net {:>6}\n",
            a - c
        )
    };
    let mut s = String::from("Mitosis terms (centipawns)\n");
    s.push_str(&row("material (split)", w.material, b.material));
    s.push_str(&row("bases and pending", w.base, b.base));
    s.push_str(&row("king protection", w.king, b.king));
    s.push_str(&row("activity", w.activity, b.activity));
    s.push_str(&format!("  {:<22} net {e:>6}\n", "endgame/adjudication"));
    s.push_str(&format!(
        "\nFinal evaluation (white): {}\nFinal evaluation (side to move): {}",
        total(&w) - total(&b) + e,
        evaluate(pos)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Notation;

    /// White's material and base terms (no attack maps: no mobility or King terms).
    fn white_static(fen: &str) -> i32 {
        let pos = Mitosis::from_fen(fen).unwrap();
        let t = side_terms(&pos, &MITOSIS_PARAMS, Color::White, [0, 0]);
        t.material + t.base
    }

    #[test]
    fn losing_a_major_costs_less_than_its_face_and_never_gains() {
        // rules/mitosis.md 4: a captured Queen gives back R+B. The owner's evaluation must drop
        // (an earlier version counted the split value twice and rose), by less than the face
        // value when the parts fit, and by the full value when the base is full.
        for (major, parts) in [("Q", "RB1"), ("C", "R1N"), ("A", "1BN"), ("G", "RBN")] {
            let on_board = format!("***3***/4k4/9/9/9/4{major}4/9/9/9/4K4/***3***[-] w - - 0 1");
            let split = format!("***3***/4k4/9/9/9/9/9/9/9/4K4/***{parts}***[-] w - - 0 1");
            let kind = Kind::from_letter(major.chars().next().unwrap()).unwrap();
            let loss = white_static(&on_board) - white_static(&split);
            assert!(loss > 0, "{major}: losing it gains {}", -loss);
            assert!(loss < face(kind), "{major}: loss {loss}");
            // Full base: nothing comes back, the loss is the whole piece.
            let full_on = format!("***3***/4k4/9/9/9/4{major}4/9/9/9/4K4/***NNN***[-] w - - 0 1");
            let full_off = "***3***/4k4/9/9/9/9/9/9/9/4K4/***NNN***[-] w - - 0 1";
            assert_eq!(
                white_static(&full_on) - white_static(full_off),
                face(kind) + MITOSIS_PARAMS.piece_count,
                "{major}"
            );
        }
        // A minor gives nothing back: its loss is its face value and its count.
        let rook = white_static("***3***/4k4/9/9/9/4R4/9/9/9/4K4/***3***[-] w - - 0 1");
        let none = white_static("***3***/4k4/9/9/9/9/9/9/9/4K4/***3***[-] w - - 0 1");
        assert_eq!(rook - none, face(Kind::Rook) + MITOSIS_PARAMS.piece_count);
        // Ordering values agree: a Queen's net loss is below a Rook's face plus more than zero.
        assert!(net_value(Kind::Queen) > 0 && net_value(Kind::Queen) < face(Kind::Queen));
        assert_eq!(net_value(Kind::Rook), face(Kind::Rook));
    }

    fn white_terms(fen: &str) -> SideTerms {
        let pos = Mitosis::from_fen(fen).unwrap();
        let attacks = [
            pos.attack_map(Color::White, false),
            pos.attack_map(Color::Black, false),
        ];
        side_terms(&pos, &MITOSIS_PARAMS, Color::White, attacks)
    }

    #[test]
    fn king_protection_and_catastrophe() {
        // A Black rook on e5 can take the White King on e1 from an uncovered square: the
        // penalty grows with the minors at stake (rules/mitosis.md 5.2).
        let few = white_terms("***3***/k8/9/9/9/4r4/9/9/P8/4K4/***3***[-] w - - 0 1");
        let many = white_terms("***3***/k8/9/9/9/4r4/9/9/P8/4K4/***RBN***[-] w - - 0 1");
        assert!(many.king < few.king, "{many:?} {few:?}");
        // Covering e5 (a White bishop on c3) makes the capture illegal: no hanging penalty
        // (the King and the base's R, B and N at stake), beyond a small exposure change.
        let covered = white_terms("***3***/k8/9/9/9/4r4/9/2B6/P8/4K4/***RBN***[-] w - - 0 1");
        let stake = [Kind::King, Kind::Rook, Kind::Bishop, Kind::Knight].map(face);
        let hanging = stake.iter().sum::<i32>() * MITOSIS_PARAMS.king_hanging_pct / 100;
        assert!(hanging > 0);
        assert!(
            covered.king > many.king + hanging / 2,
            "{covered:?} {many:?} {hanging}"
        );
    }

    #[test]
    fn base_pieces_count_with_their_entry_squares() {
        // A base rook behind an open file enters more squares than one behind its own pawn.
        let open = white_terms("***3***/k8/9/9/9/9/9/9/P8/8K/***R2***[-] w - - 0 1");
        let shut = white_terms("***3***/k8/9/9/9/9/9/9/P8/3P4K/***R2***[-] w - - 0 1");
        assert_eq!(
            open.base - shut.base,
            9 * MITOSIS_PARAMS.base_entry,
            "d1-d9"
        );
    }

    /// The colour-flipped FEN: rows reversed, case swapped, side swapped.
    fn mirror(fen: &str) -> String {
        let f: Vec<&str> = fen.split(' ').collect();
        let (board, hand) = f[0].split_once('[').unwrap();
        let swap = |t: &str| -> String {
            t.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let rows: Vec<String> = board.split('/').rev().map(swap).collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        format!(
            "{}[{} {side} - - {} {}",
            rows.join("/"),
            swap(hand),
            f[4],
            f[5]
        )
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            "***rb1***/c1qgk1q1c/pp1pp1ppp/2p2pa2/9/9/4P4/9/PPPP1PPPP/C1QGK1QAC/***N2***[-] b - - 0 8",
            "***1n1***/k8/9/5Q3/9/9/9/7p1/9/4K4/***3***[rb] b - - 0 1",
            "***3***/4k4/2p6/9/3r5/5P3/9/2B6/4K4/9/***3***[-] w - - 70 30",
        ] {
            let a = Mitosis::from_fen(fen).unwrap();
            let b = Mitosis::from_fen(&mirror(fen)).unwrap();
            assert_eq!(evaluate(&a), evaluate(&b), "{fen}");
            assert!(report(&a).contains("king protection"));
        }
    }
}
