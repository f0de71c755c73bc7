//! Evaluation of Mystic Chess: the orthodox evaluation of the board plus the economy.
//!
//! Ideas (issue: Mystic): coins are material in waiting, worth less than what they buy because
//! spending them costs tempo; their value depends on what they can still buy (Pawns in stock,
//! the 3-buy threshold that unlocks upgrades). All parameters are declared once in [`PARAMS`].

use super::{Mystic, BUYS_FOR_UPGRADES};
use crate::core::Color;
use crate::variants::chess::{eval as chess_eval, Kind};

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
];

const COIN_BEFORE: usize = 0;
const COIN_AFTER: usize = 1;
const COIN_IDLE: usize = 2;
const UNLOCKED: usize = 3;

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

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Mystic) -> i32 {
    let us = pos.board().stm();
    let board = chess_eval::evaluate(pos.board());
    board + economy(pos, us) - economy(pos, !us)
}

/// The evaluation term by term, for the `eval` command.
pub fn report(pos: &Mystic) -> String {
    let w = economy(pos, Color::White);
    let b = economy(pos, Color::Black);
    format!(
        "{}\n\nMystic economy (centipawns, White's view)\n  white {w}  black {b}  net {}\n\nFinal evaluation (side to move): {}",
        chess_eval::report(pos.board()),
        w - b,
        evaluate(pos)
    )
}
