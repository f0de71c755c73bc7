//! Interaction rules that are not a piece's own movement: freezing and suicide (rules 7.1),
//! immunity (7.4, computed in [`Ctx`](super::generate::Ctx)), and the Maoking's conversion
//! (rules 6.1 `MK`, [D 8]).

use crate::core::Square;

use super::action::{Action, ActionKind, ActionSink};
use super::board::bit;
use super::generate::Ctx;
use super::piece::State;
use super::tables::tables;

/// Suicide of a frozen non-royal piece (rules 7.1): the piece removes itself (`c3c3x`).
#[inline(always)]
pub(crate) fn suicide(from: Square) -> Action {
    Action::one_leg(ActionKind::Suicide, from, from, bit(from))
}

/// Maoking (rules 6.1 `MK`, [D 8]): a king step to an empty square (never a capture), or,
/// staying in place, the conversion of an adjacent enemy piece that is not royal, not a Mamra
/// and not Shield-protected.
pub(crate) fn maoking<S: ActionSink>(ctx: &Ctx, from: Square, sink: &mut S) {
    if sink.captures_only() {
        return;
    }
    let t = tables();
    let near = t.king.attacks(from);
    let mut quiet = near & !ctx.occ;
    while quiet != 0 {
        let to = quiet.trailing_zeros() as Square;
        quiet &= quiet - 1;
        sink.push(Action::moving(from, to, 0));
    }
    let them = !ctx.us;
    let b = ctx.b;
    let royal =
        b.pieces(them, State::King) | b.pieces(them, State::Maoking) | b.pieces(them, State::Wuss);
    let mut conv =
        near & ctx.enemy & !royal & !b.pieces(them, State::Mamra) & !ctx.shielded[them.index()];
    while conv != 0 {
        let to = conv.trailing_zeros() as Square;
        conv &= conv - 1;
        sink.push(Action::one_leg(ActionKind::Convert, from, to, 0));
    }
}
