//! Evaluation of Mystic Chess: the orthodox evaluation of the board plus the economy.
//!
//! Ideas (issue: Mystic): coins are material in waiting, worth less than what they buy because
//! spending them costs tempo; their value depends on what they can still buy (Pawns in stock,
//! the 3-buy threshold that unlocks upgrades). All parameters are declared once in [`PARAMS`].

use super::{Mystic, BUYS_FOR_UPGRADES};
use crate::core::Color;
use crate::variants::chess::eval::{evaluate_board, report_board, DEFAULT_PARAMS};
use crate::variants::orthodox::{attacks, Kind};
use crate::variants::Game;

/// Tunable parameters (centipawns), declared once: (name, value).
pub static PARAMS: &[(&str, i32)] = &[
    // Value of one coin while the side can still buy Pawns and has not unlocked upgrades.
    ("coin_before_unlock", 70),
    // Value of one coin once upgrades are unlocked (2 coins turn a Pawn into a minor).
    ("coin_after_unlock", 85),
    // Value of one coin when nothing can be bought or upgraded with it (no stock, no pieces).
    ("coin_idle", 15),
    // Bonus for having unlocked upgrades (3 buys done).
    ("unlocked", 30),
    // Penalty per empty square of the enemy drop zone from which a bought Pawn would check
    // our King (only while the enemy has a coin and a Pawn in stock).
    ("drop_check_square", 18),
];

const COIN_BEFORE: usize = 0;
const COIN_AFTER: usize = 1;
const COIN_IDLE: usize = 2;
const UNLOCKED: usize = 3;
const DROP_CHECK: usize = 4;

#[inline(always)]
fn p(i: usize) -> i32 {
    PARAMS[i].1
}

/// The economy term of `side` in centipawns (White's view is the caller's business).
fn economy(pos: &Mystic, side: Color) -> i32 {
    let coins = pos.coins(side) as i32;
    let c = pos.board();
    let can_buy = pos.available(side, Kind::Pawn);
    let upgradable = c.pieces(side, Kind::Pawn)
        | c.pieces(side, Kind::Knight)
        | c.pieces(side, Kind::Bishop)
        | c.pieces(side, Kind::Rook);
    let unlocked = pos.bought(side) >= BUYS_FOR_UPGRADES;
    let per_coin = if unlocked && (upgradable != 0 || can_buy) {
        p(COIN_AFTER)
    } else if can_buy {
        p(COIN_BEFORE)
    } else {
        p(COIN_IDLE)
    };
    coins * per_coin + if unlocked { p(UNLOCKED) } else { 0 }
}

/// King exposure to purchases, in centipawns (a penalty for `side`): drops mean a King is
/// never safe from a sudden pawn check (rules/mystic.md 2: a drop may give check).
fn drop_exposure(pos: &Mystic, side: Color) -> i32 {
    let them = !side;
    if pos.coins(them) == 0 || !pos.available(them, Kind::Pawn) {
        return 0;
    }
    let c = pos.board();
    let ksq = c.king_sq(side);
    // An enemy pawn on s attacks the King when the King's own pawn-attack set (as `side`) holds s.
    let squares = attacks::pawn(side, ksq) & Mystic::drop_zone(them) & !c.occupied();
    squares.count_ones() as i32 * p(DROP_CHECK)
}

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Mystic) -> i32 {
    let us = pos.side_to_move();
    let board = evaluate_board(pos.board(), us, &DEFAULT_PARAMS);
    board + economy(pos, us) - economy(pos, !us) - drop_exposure(pos, us) + drop_exposure(pos, !us)
}

/// The evaluation term by term, for the `eval` command.
pub fn report(pos: &Mystic) -> String {
    let w = economy(pos, Color::White);
    let b = economy(pos, Color::Black);
    let (xw, xb) = (
        drop_exposure(pos, Color::White),
        drop_exposure(pos, Color::Black),
    );
    format!(
        "{}\n\nMystic terms (centipawns)\n  economy        white {w}  black {b}  net {}\n  drop exposure  white -{xw}  black -{xb}  net {}\n\nFinal evaluation (side to move): {}",
        report_board(pos.board(), pos.side_to_move(), &DEFAULT_PARAMS),
        w - b,
        xb - xw,
        evaluate(pos)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exposure_counts_checking_drop_squares() {
        // White King on e4: Black can drop on d5 and f5 to give check (zone ranks 5-7).
        let e4 = Mystic::from_fen("4k3/8/8/8/4K3/8/8/8 w - - 0 1 coins:0/3 bought:0/0").unwrap();
        assert_eq!(drop_exposure(&e4, Color::White), 2 * p(DROP_CHECK));
        assert_eq!(drop_exposure(&e4, Color::Black), 0, "White has no coins");
        // On e1 no drop can reach it.
        let q = Mystic::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:0/3 bought:0/0").unwrap();
        assert_eq!(drop_exposure(&q, Color::White), 0);
        // The evaluation is symmetric under colour flip.
        let a =
            Mystic::from_fen("4k3/3p4/8/2q5/8/4P3/3B4/4K3 w - - 0 9 coins:5/7 bought:3/2").unwrap();
        let b =
            Mystic::from_fen("4k3/3b4/4p3/8/2Q5/8/3P4/4K3 b - - 0 9 coins:7/5 bought:2/3").unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
        assert!(report(&a).contains("drop exposure"));
    }
}
