//! A one-exchange static exchange test for Mutatis Mutandis: what a turn's action wins at once
//! and what it stands to lose to one recapture. Full exchange sequences would need every
//! capture mechanism of rules 6-7 (withdrawal, approach, long leaps, shots, slings) replayed
//! square by square; one exchange is enough to stop quiescence from expanding captures that
//! lose the capturing piece.

use crate::core::Square;

use super::action::{Action, ActionKind, NO_SQUARE};
use super::board::iter;
use super::eval::PIECE_VALUES;
use super::generate::attacked;
use super::piece::Piece;
use super::position::{play_turn, MutatisMutandis, TurnEffect};

/// Material the action wins at once for the side to move (centipawns): enemy pieces removed
/// minus own pieces removed (a sling can remove the mover's own, mutual destruction removes the
/// actor), plus the promotion piece's worth, plus twice a converted piece's (it changes sides).
pub fn gain(pos: &MutatisMutandis, a: &Action) -> i32 {
    let b = &pos.board;
    let mut g = 0;
    for sq in iter(a.captures) {
        if let Some(p) = b.piece(sq) {
            let v = PIECE_VALUES[p.state.index()];
            g += if p.color == pos.side { -v } else { v };
        }
    }
    if a.kind == ActionKind::Convert {
        if let Some(p) = b.piece(a.to) {
            g += 2 * PIECE_VALUES[p.state.index()];
        }
    }
    if let Some(p) = pos.promoting_piece(a) {
        let v = PIECE_VALUES[pos.promotion_state(p.color).index()] - PIECE_VALUES[p.state.index()];
        g += if p.color == pos.side { v } else { -v };
    }
    g
}

/// The square where the action leaves a piece it may expose to a recapture (the mover's
/// landing square, the slung piece's, the converted piece's), if any.
fn exposed(a: &Action) -> Option<Square> {
    match a.kind {
        ActionKind::Move | ActionKind::Swap | ActionKind::Convert => Some(a.to),
        ActionKind::Sling if a.to2 != NO_SQUARE => Some(a.to2),
        _ => None,
    }
}

/// Whether the action wins at least `threshold` centipawns once one recapture of the piece it
/// exposes is counted (see the module text).
pub fn see_ge(pos: &MutatisMutandis, a: &Action, threshold: i32) -> bool {
    let g = gain(pos, a);
    if g < threshold {
        return false;
    }
    let Some(sq) = exposed(a) else {
        return true;
    };
    // Play the action on a scratch board (no drop) and look at the exposed piece.
    let mut scratch = pos.board.clone();
    let promo = pos
        .promoting_piece(a)
        .map_or(super::piece::State::Queen, |p| pos.promotion_state(p.color));
    let effect = TurnEffect {
        action: *a,
        promo,
        drop: None,
    };
    play_turn(&mut scratch, &effect, &mut |_, _, _| {});
    let piece: Option<Piece> = scratch.piece(sq);
    match piece {
        Some(p) if p.color == pos.side && !p.state.is_royal() => {
            let v = PIECE_VALUES[p.state.index()];
            g - v >= threshold || !attacked(&scratch, sq)
        }
        _ => true,
    }
}
