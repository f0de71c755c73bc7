//! The pawn states (rules 6.1 `P`, `BP`, `SP`, rules 10): Pawn (with the double step of an
//! unmoved `P` and en passant), Berolina Pawn, Scorpion Pawn; promotion marking.

use crate::core::{Color, Square};

use super::action::{Action, ActionSink};
use super::board::{bit, forward, rank_of, step, Bb};
use super::generate::{Ctx, Reach};
use super::piece::State;

/// Rank row (0..8) on which a pawn of `color` promotes: the enemy home row (rules 10).
#[inline(always)]
pub const fn promotion_row(color: Color) -> i32 {
    match color {
        Color::White => 7,
        Color::Black => 0,
    }
}

/// Rank row of the double step's start: the pawn's own rank 2.
#[inline(always)]
const fn start_row(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => 6,
    }
}

/// Reach of a pawn state of `color` (forward = `color`'s forward, which is also what a
/// Chameleon mimicking a pawn uses, rules 7.2 a). `quiet` is already restricted to empty
/// squares and `capture` to occupied ones. En passant is not included (see [`generate`]).
pub(crate) fn reach(state: State, color: Color, from: Square, occ: Bb) -> Option<Reach> {
    const FILE_A: Bb = 0x0101_0101_0101_0101;
    const FILE_B: Bb = FILE_A << 1;
    const FILE_G: Bb = FILE_A << 6;
    const FILE_H: Bb = FILE_A << 7;
    let b = bit(from);
    // One row forward, and one row forward with 1 or 2 files aside (the board's edges cut).
    let (ahead, aside1, aside2) = match color {
        Color::White => (
            b << 8,
            ((b << 9) & !FILE_A) | ((b << 7) & !FILE_H),
            ((b << 10) & !(FILE_A | FILE_B)) | ((b << 6) & !(FILE_G | FILE_H)),
        ),
        Color::Black => (
            b >> 8,
            ((b >> 7) & !FILE_A) | ((b >> 9) & !FILE_H),
            ((b >> 6) & !(FILE_A | FILE_B)) | ((b >> 10) & !(FILE_G | FILE_H)),
        ),
    };
    let (mut moves, caps) = match state {
        State::Pawn => (ahead, aside1),
        State::ScorpionPawn => (ahead | aside2, aside1),
        State::BerolinaPawn => (aside1, ahead),
        _ => return None,
    };
    if state == State::Pawn && rank_of(from) == start_row(color) && occ & ahead == 0 {
        moves |= match color {
            Color::White => ahead << 8,
            Color::Black => ahead >> 8,
        };
    }
    Some(Reach {
        quiet: moves & !occ,
        capture: caps & occ,
    })
}

/// Whether a pawn state of `color` on `from` removes the piece on `to` over occupancy `occ`
/// (rules 6.1 `P`, `BP`, `SP`, rules 10): a capture onto it, or en passant of it (the
/// double-stepped pawn, `ep` its skipped square). `capturable` says whether the piece on `to`
/// may be captured by a pawn (not Shield-protected; a Mamra may be, rules 7.4). The
/// one-target form of [`generate`]'s captures.
#[inline]
pub(crate) fn removes(
    state: State,
    color: Color,
    from: Square,
    to: Square,
    occ: Bb,
    ep: Option<Square>,
    capturable: bool,
) -> bool {
    if !capturable {
        return false;
    }
    let hit = reach(state, color, from, occ).is_some_and(|r| r.capture & bit(to) != 0);
    hit || match (ep, state) {
        (Some(ep), State::Pawn | State::ScorpionPawn) => {
            let f = forward(color);
            (step(from, 1, f) == Some(ep) || step(from, -1, f) == Some(ep))
                && occ & bit(ep) == 0
                && step(ep, 0, -f) == Some(to)
        }
        _ => false,
    }
}

/// Actions of a pawn state on `from`: its moves and captures, each marked `promotes` when it
/// ends on the enemy home row (rules 10), and en passant for `P`/`SP` (rules 10).
pub(crate) fn generate<S: ActionSink>(ctx: &Ctx, state: State, from: Square, sink: &mut S) {
    let r = match reach(state, ctx.us, from, ctx.occ) {
        Some(r) => r,
        None => return,
    };
    let promo = promotion_row(ctx.us);
    let quiet_wanted = !sink.captures_only();
    let mut emit = |to: Square, captures: Bb| {
        let mut a = Action::moving(from, to, captures);
        a.promotes = rank_of(to) == promo;
        sink.push(a);
    };
    let mut q = if quiet_wanted { r.quiet } else { 0 };
    while q != 0 {
        let to = q.trailing_zeros() as Square;
        q &= q - 1;
        emit(to, 0);
    }
    let mut c = r.capture & ctx.capturable(state);
    while c != 0 {
        let to = c.trailing_zeros() as Square;
        c &= c - 1;
        emit(to, bit(to));
    }
    if let (Some(ep), State::Pawn | State::ScorpionPawn) = (ctx.b.ep, state) {
        let f = forward(ctx.us);
        let diag = step(from, 1, f) == Some(ep) || step(from, -1, f) == Some(ep);
        if diag && ctx.occ & bit(ep) == 0 {
            if let Some(victim) = step(ep, 0, -f) {
                if ctx.capturable(state) & bit(victim) != 0 {
                    emit(ep, bit(victim));
                }
            }
        }
    }
}
