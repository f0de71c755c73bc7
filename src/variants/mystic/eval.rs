//! Evaluation of Mystic Chess: the orthodox evaluation of the board plus the economy.
//!
//! Ideas (issue: Mystic): coins are material in waiting, worth less than what they buy because
//! spending them costs tempo; their value depends on what they can still buy (Pawns in stock,
//! the 3-buy threshold that unlocks upgrades). All parameters are declared once in
//! [`MysticParams`].

use super::{Mystic, BUYS_FOR_UPGRADES};
use crate::core::Color;
use crate::variants::orthodox::eval::params::{s, EvalParams};
use crate::variants::orthodox::eval::{self as orthodox_eval, evaluate_board, report_board};
use crate::variants::orthodox::{attacks, Kind};
use crate::variants::Rules;

crate::tunables! {
    /// The parameters of the Mystic evaluation (centipawns): the orthodox set for the board and
    /// the economy's own.
    pub struct MysticParams, default MYSTIC_DEFAULT {
        /// The orthodox evaluation of the board (its own items, ranges and steps), with
        /// Mystic's own material and tempo ([`mystic_board`]).
        board: EvalParams = mystic_board(), nested;
        /// Value of one coin while the side can still buy Pawns and has not unlocked upgrades.
        coin_before_unlock: i32 = 106, (0, 300, 4);
        /// Value of one coin once upgrades are unlocked (2 coins turn a Pawn into a minor).
        coin_after_unlock: i32 = 115, (0, 300, 4);
        /// Value of one coin when nothing can be bought or upgraded with it (no stock, no pieces).
        coin_idle: i32 = 15, (0, 200, 2);
        /// Bonus for having unlocked upgrades (3 buys done).
        unlocked: i32 = -58, (-100, 200, 4);
        /// Penalty per empty square of the enemy drop zone from which a bought Pawn would check
        /// our King (only while the enemy has a coin and a Pawn in stock).
        drop_check_square: i32 = 55, (0, 100, 2);
    }
}

/// The board's parameters: the orthodox defaults with Mystic's own material and tempo
/// (Texel-tuned on Mystic self-play: material is bought and upgraded, so the orthodox
/// values do not carry over; centipawns, (middlegame, endgame)).
pub const fn mystic_board() -> EvalParams {
    let mut p = orthodox_eval::DEFAULT;
    p.material = [
        s(96, 87),
        s(448, 306),
        s(331, 389),
        s(339, 707),
        s(1112, 1237),
        s(0, 0),
    ];
    p.tempo = s(12, 11);
    p
}

/// The economy term of `side` in centipawns (White's view is the caller's business).
fn economy(pos: &Mystic, p: &MysticParams, side: Color) -> i32 {
    let coins = pos.coins(side) as i32;
    let c = pos.board();
    let can_buy = pos.available(side, Kind::Pawn);
    let upgradable = c.pieces(side, Kind::Pawn)
        | c.pieces(side, Kind::Knight)
        | c.pieces(side, Kind::Bishop)
        | c.pieces(side, Kind::Rook);
    let unlocked = pos.bought(side) >= BUYS_FOR_UPGRADES;
    let per_coin = if unlocked && (upgradable != 0 || can_buy) {
        p.coin_after_unlock
    } else if can_buy {
        p.coin_before_unlock
    } else {
        p.coin_idle
    };
    coins * per_coin + if unlocked { p.unlocked } else { 0 }
}

/// King exposure to purchases, in centipawns (a penalty for `side`): drops mean a King is
/// never safe from a sudden pawn check (rules/mystic.md 2: a drop may give check).
fn drop_exposure(pos: &Mystic, p: &MysticParams, side: Color) -> i32 {
    let them = !side;
    if pos.coins(them) == 0 || !pos.available(them, Kind::Pawn) {
        return 0;
    }
    let c = pos.board();
    let ksq = c.king_sq(side);
    // An enemy pawn on s attacks the King when the King's own pawn-attack set (as `side`) holds s.
    let squares = attacks::pawn(side, ksq) & Mystic::drop_zone(them) & !c.occupied();
    squares.count_ones() as i32 * p.drop_check_square
}

/// [`MYSTIC_DEFAULT`] as a static: the parameters the engine plays with.
pub static MYSTIC_PARAMS: MysticParams = MYSTIC_DEFAULT;

/// Static evaluation with the parameters `p`, in centipawns from the side to move's point of
/// view.
#[inline]
pub fn evaluate_with(pos: &Mystic, p: &MysticParams) -> i32 {
    let us = pos.side_to_move();
    let board = evaluate_board(pos.board(), us, &p.board);
    board + economy(pos, p, us) - economy(pos, p, !us) - drop_exposure(pos, p, us)
        + drop_exposure(pos, p, !us)
}

/// Static evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Mystic) -> i32 {
    evaluate_with(pos, &MYSTIC_PARAMS)
}

/// The evaluation term by term, for the `eval` command.
pub fn report(pos: &Mystic) -> String {
    let p = &MYSTIC_PARAMS;
    let w = economy(pos, p, Color::White);
    let b = economy(pos, p, Color::Black);
    let (xw, xb) = (
        drop_exposure(pos, p, Color::White),
        drop_exposure(pos, p, Color::Black),
    );
    format!(
        "{}\n\nMystic terms (centipawns)\n  economy        white {w}  black {b}  net {}\n  drop exposure  white -{xw}  black -{xb}  net {}\n\nFinal evaluation (side to move): {}",
        report_board(pos.board(), pos.side_to_move(), &p.board),
        w - b,
        xb - xw,
        evaluate(pos)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Notation;

    #[test]
    fn exposure_counts_checking_drop_squares() {
        // White King on e4: Black can drop on d5 and f5 to give check (zone ranks 5-7).
        let e4 = Mystic::from_fen("4k3/8/8/8/4K3/8/8/8 w - - 0 1 coins:0/3 bought:0/0").unwrap();
        let p = &MYSTIC_PARAMS;
        assert_eq!(drop_exposure(&e4, p, Color::White), 2 * p.drop_check_square);
        assert_eq!(drop_exposure(&e4, p, Color::Black), 0, "White has no coins");
        // On e1 no drop can reach it.
        let q = Mystic::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:0/3 bought:0/0").unwrap();
        assert_eq!(drop_exposure(&q, p, Color::White), 0);
        // The evaluation is symmetric under colour flip.
        let a =
            Mystic::from_fen("4k3/3p4/8/2q5/8/4P3/3B4/4K3 w - - 0 9 coins:5/7 bought:3/2").unwrap();
        let b =
            Mystic::from_fen("4k3/3b4/4p3/8/2Q5/8/3P4/4K3 b - - 0 9 coins:7/5 bought:2/3").unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
        assert!(report(&a).contains("drop exposure"));
    }
}
