//! Hoppers (rules 6.1 `PV`, 6.2 `CP`): the Paovao's cannon (orthogonal) and vao (diagonal)
//! captures over exactly one screen, on the core's hopper rays; the Cannon Pawn's king step
//! and its jump over an adjacent mount.

use crate::core::Square;

use super::action::{Action, ActionSink};
use super::board::{bit, rank_of, step, Bb};
use super::generate::{Ctx, Reach};
use super::piece::State;
use super::tables::{bishop_attacks, rook_attacks, tables, QUEEN_DIRS};

/// Paovao (rules 6.1 `PV`): non-capturing rook and bishop slides; captures by jumping exactly
/// one piece (either colour) and landing on the first piece beyond (cannon orthogonally, vao
/// diagonally).
pub(crate) fn paovao(from: Square, occ: Bb) -> Reach {
    let (rook, bishop) = (rook_attacks(from, occ), bishop_attacks(from, occ));
    // Through the first piece of each line (the screen): the next piece is the capture.
    let screens = (rook | bishop) & occ;
    let beyond = rook_attacks(from, occ & !screens) | bishop_attacks(from, occ & !screens);
    Reach {
        quiet: (rook | bishop) & !occ,
        capture: beyond & occ & !screens,
    }
}

/// Cannon Pawn (rules 6.2 `CP`): a king step to an empty square, or a jump over an adjacent
/// piece (either colour) to the square just beyond: a move if it is empty, a capture if it
/// holds a piece.
pub(crate) fn cannon_pawn(from: Square, occ: Bb) -> Reach {
    let mut r = Reach {
        quiet: tables().king.attacks(from) & !occ,
        capture: 0,
    };
    for (df, dr) in QUEEN_DIRS {
        if let Some(m) = step(from, df, dr) {
            if occ >> m & 1 != 0 {
                if let Some(t) = step(m, df, dr) {
                    if occ >> t & 1 != 0 {
                        r.capture |= bit(t);
                    } else {
                        r.quiet |= bit(t);
                    }
                }
            }
        }
    }
    r
}

/// Cannon Pawn actions: as [`cannon_pawn`]; ending on the enemy home row it may promote
/// (rules 10), so such an action is generated with and without promotion.
pub(crate) fn cannon_pawn_actions<S: ActionSink>(ctx: &Ctx, from: Square, sink: &mut S) {
    let r = cannon_pawn(from, ctx.occ);
    let promo_row = if ctx.us.index() == 0 { 7 } else { 0 };
    let quiet_wanted = !sink.captures_only();
    let mut emit = |to: Square, captures: Bb| {
        let a = Action::moving(from, to, captures);
        sink.push(a);
        if rank_of(to) == promo_row {
            sink.push(Action {
                promotes: true,
                ..a
            });
        }
    };
    let mut q = if quiet_wanted { r.quiet } else { 0 };
    while q != 0 {
        let to = q.trailing_zeros() as Square;
        q &= q - 1;
        emit(to, 0);
    }
    let mut c = r.capture & ctx.capturable(State::CannonPawn);
    while c != 0 {
        let to = c.trailing_zeros() as Square;
        c &= c - 1;
        emit(to, bit(to));
    }
}
