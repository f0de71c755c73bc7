//! Turn tokens (rules/mutatis-mutandis.md 11, protocol.md 3): the action's token, then
//! `;CODE@square` for a drop (code upper case for both sides [D 27]). A promoting action
//! carries the lower-case code of the piece it becomes (`e7e8am`), which the position decides
//! (the last reserve piece of the pawn's owner, or `q`).

use std::fmt::Write as _;

use crate::variants::MoveError;

use super::board::{parse_square, square_name};
use super::moves::{MutatisMove, MutatisMoveList};
use super::piece::State;
use super::position::MutatisMutandis;

/// The canonical token of a legal turn `t` of `pos`.
pub fn token(pos: &MutatisMutandis, t: &MutatisMove) -> String {
    let a = &t.action;
    let promo = pos.promoting_piece(a).map(|p| pos.promotion_state(p.color));
    let mut s = a.token(promo).to_string();
    if t.has_drop() {
        let piece = pos.reserve(pos.side).pieces();
        // A promotion of the mover's own pawn takes the last reserve piece first [D 26], which
        // never changes the first one when a drop is legal (two pieces or more are left).
        if let Some(code) = piece.first() {
            let _ = write!(s, ";{}@{}", code.code(), square_name(t.drop));
        }
    }
    s
}

fn malformed(token: &str, reason: &str) -> MoveError {
    MoveError::Malformed {
        token: token.to_string(),
        reason: reason.to_string(),
    }
}

/// Checks the shape of an action token: one or two legs of two squares joined by `,`, the last
/// leg optionally followed by a piece code or `x`.
fn check_action_shape(token: &str, action: &str) -> Result<(), MoveError> {
    let legs: Vec<&str> = action.split(',').collect();
    if legs.len() > 2 {
        return Err(malformed(token, "an action has at most two legs"));
    }
    for (i, leg) in legs.iter().enumerate() {
        if leg.len() < 4 || !leg.is_ascii() {
            return Err(malformed(token, "a leg is two squares, e.g. e2e4"));
        }
        if parse_square(&leg[..2]).is_err() || parse_square(&leg[2..4]).is_err() {
            return Err(malformed(token, "a leg is two squares of a1..h8"));
        }
        let suffix = &leg[4..];
        if !suffix.is_empty() {
            if i + 1 != legs.len() {
                return Err(malformed(token, "only the last leg takes a suffix"));
            }
            if !suffix.eq_ignore_ascii_case("x") && State::from_code(suffix).is_none() {
                return Err(malformed(
                    token,
                    "the suffix is a promotion piece code (e7e8am) or x (suicide)",
                ));
            }
        }
    }
    Ok(())
}

/// Parses a turn token of the position: `action` or `action;CODE@square`.
///
/// Errors: [`MoveError::Malformed`] for a token of no known shape (named part and why),
/// [`MoveError::Illegal`] when no legal turn of the position has this token.
pub fn parse(pos: &MutatisMutandis, token: &str) -> Result<MutatisMove, MoveError> {
    let token = token.trim();
    let (action, drop) = match token.split_once(';') {
        Some((a, d)) => (a, Some(d)),
        None => (token, None),
    };
    check_action_shape(token, action)?;
    if let Some(d) = drop {
        let (code, sq) = d
            .split_once('@')
            .ok_or_else(|| malformed(token, "a drop is CODE@square, e.g. AM@c1"))?;
        if State::from_code(code).is_none() {
            return Err(malformed(token, "the drop code is not a piece code"));
        }
        if parse_square(sq).is_err() {
            return Err(malformed(
                token,
                "the drop square is not a square of a1..h8",
            ));
        }
    }
    let mut list = MutatisMoveList::new();
    pos.generate_turns(&mut list, super::legal::MoveKinds::All);
    list.iter()
        .copied()
        .find(|t| self::token(pos, t).eq_ignore_ascii_case(token))
        .ok_or_else(|| MoveError::Illegal(token.to_string()))
}
