//! Evaluation of Mulligan Stew Chess. Not orthodox chess:
//! - **Kings**: two of them, each capturable, and the side without Kings loses (rules 6). A
//!   side's safety is how many of its Kings the opponent can take in its next turn: the
//!   opponent moves one piece from a light square and one from a dark square (rules 5), so
//!   attackers are counted per square colour, and two Kings are both lost when one is hit from
//!   a light square and the other from a dark one.
//! - **Mage**: worth more in hand (a drop anywhere, in either portion) than on the board.
//! - **Assassins**: teleport makes their mobility cheap, so they get no mobility term; their
//!   value is what they can capture (a 1-2 square diagonal reach).
//! - **Promotion**: a Pawn's advance is worth what the pool can give it (rules 4).
//!
//! Every parameter is declared once in [`StewParams`] (centipawns).

use super::board::{attacks, last_rank, Kind, LIGHT, TABLES};
use super::position::MulliganStew;
use crate::core::{Color, Square};
use crate::variants::Rules;

crate::tunables! {
    /// The parameters of the Mulligan Stew evaluation (centipawns).
    #[derive(Copy)]
    pub struct StewParams, default STEW_DEFAULT {
        /// A Mage on the board.
        mage_board: i32 = 425, (0, 1500, 5);
        /// A Queen.
        queen: i32 = 732, (0, 2000, 5);
        /// A Rook.
        rook: i32 = 344, (0, 1500, 5);
        /// A Cardinal.
        cardinal: i32 = 607, (0, 1500, 5);
        /// An Assassin.
        assassin: i32 = 234, (0, 1500, 5);
        /// A Pawn.
        pawn: i32 = 124, (0, 500, 2);
        /// A Mage still in hand: a drop on any empty square of either colour, when it is needed.
        mage_hand: i32 = 500, (0, 1500, 5);
        /// Having a second King: one capture no longer loses the game.
        second_king: i32 = 557, (0, 2000, 10);
        /// Per own King that an enemy piece attacks (it can be taken in the enemy's next turn).
        king_attacked: i32 = 68, (0, 1000, 5);
        /// The enemy can take every King we have left in its next turn (light + dark attackers).
        kings_lost_threat: i32 = 77, (0, 3000, 10);
        /// Same threat seen by the side to move against the enemy (it moves first: a real edge).
        kings_win_threat: i32 = 0, (0, 3000, 10);
        /// Per enemy piece whose capture range touches a square next to one of our Kings.
        king_zone_attacker: i32 = 14, (0, 100, 1);
        /// Pawn advance per rank, scaled by the best piece the pool can give (per 900).
        pawn_rank: i32 = 30, (0, 100, 1);
        /// Per pool piece while the side still has Pawns (promotion material in waiting), per
        /// mille of its value.
        pool_permille: i32 = 0, (0, 1000, 10);
        /// Per enemy piece an Assassin can capture right now.
        assassin_target: i32 = 31, (0, 200, 2);
    }
}

/// [`STEW_DEFAULT`] as a static: the parameters the engine plays with.
pub static STEW_PARAMS: StewParams = STEW_DEFAULT;

/// Material value of a piece kind on the board with the parameters `p`, centipawns (King: 0;
/// a second King is the `second_king` term).
#[inline(always)]
pub fn value_with(p: &StewParams, kind: Kind) -> i32 {
    match kind {
        Kind::King => 0,
        Kind::Mage => p.mage_board,
        Kind::Queen => p.queen,
        Kind::Rook => p.rook,
        Kind::Cardinal => p.cardinal,
        Kind::Assassin => p.assassin,
        Kind::Pawn => p.pawn,
    }
}

/// Material value of a piece kind on the board, centipawns (King: 0; a second King is the
/// `second_king` term), with the parameters the engine plays with (move ordering uses it).
#[inline(always)]
pub fn value(kind: Kind) -> i32 {
    value_with(&STEW_PARAMS, kind)
}

/// The terms of one side, in centipawns (positive = good for that side).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Pieces on the board and the Mage in hand.
    pub material: i32,
    /// Second King bonus.
    pub kings: i32,
    /// King safety (negative): attacked Kings, the threat of losing all of them.
    pub safety: i32,
    /// Threat against the enemy's Kings (only for the side to move).
    pub threat: i32,
    /// Pawn advance and pool material in waiting.
    pub promotion: i32,
    /// Assassin targets.
    pub assassins: i32,
}

impl Terms {
    fn total(&self) -> i32 {
        self.material + self.kings + self.safety + self.threat + self.promotion + self.assassins
    }
}

/// Attack maps of both sides, computed once per evaluation (one pass over the pieces).
struct Maps {
    /// Squares attacked by `side`'s pieces standing on light squares (its L portion).
    light: [u64; 2],
    /// Squares attacked by `side`'s pieces standing on dark squares (its D portion).
    dark: [u64; 2],
    /// Pieces of the enemy of `side` whose capture range touches a square next to one of
    /// `side`'s Kings.
    near: [i32; 2],
    /// Enemy pieces `side`'s Assassins can capture now.
    assassin_targets: [i32; 2],
}

fn maps(pos: &MulliganStew) -> Maps {
    let t = &*TABLES;
    let occ = pos.occupied();
    let mut zone = [0u64; 2];
    for side in Color::ALL {
        let mut k = pos.pieces(side, Kind::King);
        while k != 0 {
            let s = k.trailing_zeros() as usize;
            k &= k - 1;
            zone[side.index()] |= t.step[s];
        }
    }
    let mut m = Maps {
        light: [0; 2],
        dark: [0; 2],
        near: [0; 2],
        assassin_targets: [0; 2],
    };
    for side in Color::ALL {
        let si = side.index();
        let enemy = pos.color_bb(!side);
        // Pawns frozen on their last rank attack nothing (rules 3).
        let mut b = pos.color_bb(side) & !(pos.pieces(side, Kind::Pawn) & last_rank(side));
        while b != 0 {
            let s = b.trailing_zeros() as Square;
            b &= b - 1;
            let kind = pos.piece_at(s).kind();
            let a = attacks(kind, side, s, occ);
            if LIGHT >> s & 1 == 1 {
                m.light[si] |= a;
            } else {
                m.dark[si] |= a;
            }
            if kind != Kind::King && a & zone[1 - si] != 0 {
                m.near[1 - si] += 1;
            }
            if kind == Kind::Assassin {
                m.assassin_targets[si] += (a & enemy).count_ones() as i32;
            }
        }
    }
    m
}

/// How many of `side`'s Kings the enemy can capture in one turn using the portions it has
/// (`light`, `dark`): one piece from a light square and one from a dark square (rules 5).
/// Also the number of `side`'s Kings attacked at all.
fn king_danger(pos: &MulliganStew, m: &Maps, side: Color, light: bool, dark: bool) -> (u32, u32) {
    let kings = pos.pieces(side, Kind::King);
    let e = (!side).index();
    let hit_light = kings & m.light[e];
    let hit_dark = kings & m.dark[e];
    let attacked = (hit_light | hit_dark).count_ones();
    let hl = if light { hit_light } else { 0 };
    let hd = if dark { hit_dark } else { 0 };
    // One King from a light square, another from a dark square.
    let takeable = if hl != 0 && hd != 0 && (hl | hd).count_ones() >= 2 {
        2
    } else {
        u32::from(hl | hd != 0)
    };
    (takeable, attacked)
}

/// The terms of `side` (the side to move and its portion decide who threatens whom).
// Inlined into `evaluate`, where the parameters are the static in play and fold to constants.
#[inline(always)]
fn terms_with(pos: &MulliganStew, p: &StewParams, m: &Maps, side: Color) -> Terms {
    let stm = pos.side_to_move();
    let d = pos.is_d_portion();
    let mut t = Terms::default();
    // Material.
    for kind in Kind::ALL {
        t.material += value_with(p, kind) * pos.pieces(side, kind).count_ones() as i32;
    }
    if pos.in_hand(side) {
        t.material += p.mage_hand;
    }
    let nkings = pos.pieces(side, Kind::King).count_ones();
    if nkings >= 2 {
        t.kings = p.second_king;
    }
    // Safety: the enemy's next turn has both portions; when the enemy is the side to move in
    // its D portion, only its dark-square pieces can still capture.
    let (light, dark) = if stm == side {
        (true, true)
    } else {
        (!d, true)
    };
    let (takeable, attacked) = king_danger(pos, m, side, light, dark);
    t.safety -= attacked as i32 * p.king_attacked + m.near[side.index()] * p.king_zone_attacker;
    if nkings > 0 && takeable >= nkings {
        t.safety -= if stm == side {
            // We move first and may still run or take the attacker.
            p.kings_lost_threat / 2
        } else {
            p.kings_lost_threat
        };
    }
    // Our own threat, with the portions we still have this turn.
    if stm == side {
        let enemy_kings = pos.pieces(!side, Kind::King).count_ones();
        let (take, _) = king_danger(pos, m, !side, !d, true);
        if enemy_kings > 0 && take >= enemy_kings {
            t.threat += p.kings_win_threat;
        }
    }
    // Promotion: Pawn advance scaled by the best piece the pool offers (rules 4).
    // (A plain loop: an iterator chain here is not inlined into the large `evaluate`.)
    let mut best = 0;
    for k in Kind::POOL {
        if pos.can_promote_to(side, k) {
            best = best.max(value_with(p, k));
        }
    }
    let pawns = pos.pieces(side, Kind::Pawn);
    let mut b = pawns;
    while b != 0 {
        let s = b.trailing_zeros() as i32;
        b &= b - 1;
        let rank = s / 6;
        let adv = match side {
            Color::White => rank - 1,
            Color::Black => 5 - rank,
        }
        .max(0);
        t.promotion += adv * p.pawn_rank * best / 900;
    }
    if pawns != 0 {
        for kind in Kind::POOL {
            t.promotion +=
                pos.pool_count(side, kind) as i32 * value_with(p, kind) * p.pool_permille / 1000;
        }
    }
    t.assassins = m.assassin_targets[side.index()] * p.assassin_target;
    t
}

/// The terms of `side`, in centipawns (positive = good for `side`).
pub fn terms(pos: &MulliganStew, side: Color) -> Terms {
    terms_with(pos, &STEW_PARAMS, &maps(pos), side)
}

/// Static evaluation with the parameters `p`, in centipawns from the side to move's point of
/// view.
#[inline(always)]
pub fn evaluate_with(pos: &MulliganStew, p: &StewParams) -> i32 {
    let us = pos.side_to_move();
    let m = maps(pos);
    terms_with(pos, p, &m, us).total() - terms_with(pos, p, &m, !us).total()
}

/// Static evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &MulliganStew) -> i32 {
    evaluate_with(pos, &STEW_PARAMS)
}

/// The evaluation term by term, for the `eval` command.
pub fn report(pos: &MulliganStew) -> String {
    let w = terms(pos, Color::White);
    let b = terms(pos, Color::Black);
    let mut s = String::from("Mulligan Stew terms (centipawns)       white    black      net\n");
    let rows: [(&str, i32, i32); 6] = [
        ("material (hand Mage incl.)", w.material, b.material),
        ("second King", w.kings, b.kings),
        ("King safety", w.safety, b.safety),
        ("King-capture threat (to move)", w.threat, b.threat),
        ("promotion (advance, pool)", w.promotion, b.promotion),
        ("Assassin targets", w.assassins, b.assassins),
    ];
    for (n, x, y) in rows {
        s.push_str(&format!("  {n:<34} {x:>7} {y:>8} {:>8}\n", x - y));
    }
    s.push_str(&format!(
        "  {:<34} {:>7} {:>8} {:>8}\n\nFinal evaluation (side to move): {}",
        "total",
        w.total(),
        b.total(),
        w.total() - b.total(),
        evaluate(pos)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Notation;

    fn pos(fen: &str) -> MulliganStew {
        MulliganStew::from_fen(fen).unwrap()
    }

    fn danger(fen: &str, side: Color) -> (u32, u32) {
        let p = pos(fen);
        king_danger(&p, &maps(&p), side, true, true)
    }

    #[test]
    fn kings_fall_together_only_to_a_light_and_a_dark_attacker() {
        // rules/mulligan-stew.md 5: one light and one dark piece per turn. Black Kings b7
        // (light) and c7 (dark); a Rook on b1 (light) hits b7, a Cardinal on a5 (dark) hits c7.
        assert_eq!(
            danger("1kk3/6/C5/6/6/6/1R2KK[-] w - - 0 1 pool:-/-", Color::Black),
            (2, 2)
        );
        // Two light attackers (Rooks b1 and c2) hit both Kings but take only one per turn.
        assert_eq!(
            danger("1kk3/6/6/6/6/2R3/1R2KK[-] w - - 0 1 pool:-/-", Color::Black),
            (1, 2)
        );
        // The side to move facing that threat scores it; the owner of the Kings pays for it.
        let x = pos("1kk3/6/C5/6/6/6/1R2KK[-] w - - 0 1 pool:-/-");
        let m = maps(&x);
        let p = &STEW_PARAMS;
        assert_eq!(
            terms_with(&x, p, &m, Color::White).threat,
            p.kings_win_threat
        );
        assert!(terms_with(&x, p, &m, Color::Black).safety <= -p.kings_lost_threat);
    }

    #[test]
    fn hand_mage_and_pool_values() {
        // The Mage in hand is worth more than on the board.
        let hand = pos("2kk2/6/6/6/6/6/2KK2[M] w - - 0 1 pool:-/-");
        let board = pos("2kk2/6/6/6/1M4/6/2KK2[-] w - - 0 1 pool:-/-");
        assert!(terms(&hand, Color::White).material > terms(&board, Color::White).material);
        // An advanced Pawn is worth more with a Queen in the pool than with nothing in it.
        let q = pos("2kk2/1P4/6/6/6/6/2KK2[-] w - - 0 1 pool:Q/-");
        let none = pos("2kk2/1P4/6/6/6/6/2KK2[-] w - - 0 1 pool:-/-");
        assert!(terms(&q, Color::White).promotion > terms(&none, Color::White).promotion);
        assert_eq!(terms(&none, Color::White).promotion, 0);
    }
}
