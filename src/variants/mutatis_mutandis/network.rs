//! Mutatis Mutandis's network inputs ([`NetInputs`]), 6520 per perspective. Squares are seen
//! from the perspective: for Blue rank r becomes 7 - r (`^ 56`), files unchanged. "Us" is the
//! perspective's side, "them" the other.
//!
//! - 0..6272: the pieces (rules 2, 6): `(rel_colour * 49 + state) * 64 + square`, states in
//!   [`State::ALL`]'s order, `rel_colour` 0 for us.
//! - 6272..6520: per relative side (us first), 124 inputs on the reserve and its schedule
//!   (rules 8, 10):
//!   - 13: the number of pieces left in the reserve as a thermometer (13 at the start; a
//!     constructed FEN's longer reserve reads as 13);
//!   - 49: the state of the first piece, the next drop (rules 8), when there is one;
//!   - 49: the state of the last piece, the next promotion (rules 10), when there is one;
//!   - 10: the drop schedule while the reserve is not empty: the side's lead
//!     `fullmove - 5 * drops made` (minus 1 for White) as a thermometer of 10; the next drop's
//!     window opens at 6 and the drop is compulsory from 10 on (rules 8, D6);
//!   - 3: the cornering flags (rules 9): King, a-corner piece, h-corner piece unmoved.
//!
//! At most 64 pieces, 2 x (13 + 1 + 1 + 10 + 3) = 56 other inputs: 120 a perspective, within
//! [`crate::variants::network::MAX_ACTIVE`] whatever the position.
//!
//! Make keeps the first layer's sums (`NetAccumulator`): each square it writes changes two
//! piece inputs at most (`piece_inputs`), and the reserve, schedule and flag inputs are
//! compared before and after as sets (`side_offsets`).
//!
//! The compiled-in network (`network.nnv`) is the default; its manifest
//! (`network.manifest.md`) gives the commands, seeds and hashes that rebuild it.

use crate::core::Color;
use crate::core::Square;
use crate::variants::network::{DefaultNet, InputList, NetAccumulator, NetInputs, NetSlot};

use super::piece::{Piece, State, STATE_COUNT};
use super::position::flag;
use super::MutatisMutandis;

/// Inputs of the pieces: 2 relative colours x 49 states x 64 squares.
const BOARD: u32 = (2 * STATE_COUNT * 64) as u32;
/// Reserve length a thermometer tells apart (each side's reserve holds 13 at the start).
const RESERVE_CAP: u32 = 13;
/// Lead steps of the drop schedule told apart (the window turns compulsory at 10).
const LEAD_CAP: u32 = 10;
/// Inputs of one relative side's reserve, schedule and flags.
const SIDE: u32 = RESERVE_CAP + 2 * STATE_COUNT as u32 + LEAD_CAP + 3;

/// Mutatis's compiled-in network (`network.nnv`; how it was made: `network.manifest.md`).
static SLOT: NetSlot = NetSlot::with_default(DefaultNet {
    variant: "mutatismutandis",
    inputs: MutatisMutandis::INPUTS,
    bytes: include_bytes!("network.nnv"),
});

impl NetInputs for MutatisMutandis {
    const INPUTS: usize = (BOARD + 2 * SIDE) as usize;

    fn inputs(&self, perspective: Color, out: &mut InputList) {
        let flip = if perspective == Color::White { 0 } else { 56 };
        for (rel, side) in [perspective, !perspective].into_iter().enumerate() {
            for state in State::ALL {
                let base = ((rel * STATE_COUNT + state.index()) * 64) as u32;
                let mut bb = self.board.pieces(side, state);
                while bb != 0 {
                    let sq = bb.trailing_zeros();
                    bb &= bb - 1;
                    out.push(base + (sq ^ flip));
                }
            }
        }
        for (rel, side) in [perspective, !perspective].into_iter().enumerate() {
            let base = BOARD + rel as u32 * SIDE;
            let mut set = side_offsets(self, side);
            while set != 0 {
                out.push(base + set.trailing_zeros());
                set &= set - 1;
            }
        }
    }

    fn slot() -> &'static NetSlot {
        &SLOT
    }

    fn accumulator(&self) -> &NetAccumulator {
        &self.acc
    }

    fn accumulator_mut(&mut self) -> &mut NetAccumulator {
        &mut self.acc
    }
}

/// The inputs of `side`'s reserve, schedule and cornering flags (rules 8, 9, 10), as a set of
/// offsets within its block of [`SIDE`] inputs (bit `o` = offset `o`).
#[inline]
pub(super) fn side_offsets(pos: &MutatisMutandis, side: Color) -> u128 {
    // A thermometer: the first `count` (at most `cap`) inputs from `base` set.
    let thermometer = |base: u32, count: u32, cap: u32| ((1u128 << count.min(cap)) - 1) << base;
    let reserve = &pos.reserve[side.index()];
    let mut set = thermometer(0, reserve.len() as u32, RESERVE_CAP);
    let base = RESERVE_CAP;
    if let (Some(first), Some(last)) = (reserve.first(), reserve.last()) {
        set |= 1 << (base + first.index() as u32);
        set |= 1 << (base + STATE_COUNT as u32 + last.index() as u32);
        let lead = i32::from(pos.full)
            - 5 * i32::from(reserve.drops_made())
            - i32::from(side == Color::White);
        set |= thermometer(base + 2 * STATE_COUNT as u32, lead.max(0) as u32, LEAD_CAP);
    }
    let flags = base + 2 * STATE_COUNT as u32 + LEAD_CAP;
    let (king, a, h) = flag::of(side.index());
    for (i, f) in [king, a, h].into_iter().enumerate() {
        if pos.corner & f != 0 {
            set |= 1 << (flags + i as u32);
        }
    }
    set
}

/// The inputs of piece `p` on `sq` in White's and Blue's views.
#[inline(always)]
pub(super) fn piece_inputs(p: Piece, sq: Square) -> [u32; 2] {
    Color::ALL.map(|view| {
        let rel = usize::from(p.color != view);
        let flip = if view == Color::White { 0 } else { 56 };
        ((rel * STATE_COUNT + p.state.index()) * 64) as u32 + (u32::from(sq) ^ flip)
    })
}

/// Both sides' [`side_offsets`], White's first: what a turn's record compares before and
/// after.
#[inline]
pub(super) fn all_side_offsets(pos: &MutatisMutandis) -> [u128; 2] {
    [
        side_offsets(pos, Color::White),
        side_offsets(pos, Color::Black),
    ]
}

/// Records in `acc` the side inputs that differ between `before` and `after` (both from
/// [`all_side_offsets`]).
#[inline]
pub(super) fn record_side_changes(before: &[u128; 2], after: &[u128; 2], acc: &mut NetAccumulator) {
    for side in Color::ALL {
        let mut changed = before[side.index()] ^ after[side.index()];
        while changed != 0 {
            let o = changed.trailing_zeros();
            changed &= changed - 1;
            let inputs = Color::ALL.map(|view| BOARD + u32::from(side != view) * SIDE + o);
            if after[side.index()] >> o & 1 != 0 {
                acc.add(inputs);
            } else {
                acc.sub(inputs);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::mutatis_mutandis::setup::random_setup;

    /// The sums kept through make/unmake are the sums from scratch, over random games from
    /// random setups with drops, promotions, captures, cornering-flag changes, null moves and
    /// turns taken back unevaluated (rules 2, 8, 9, 10).
    #[test]
    fn the_kept_sums_are_the_sums_from_scratch() {
        use crate::variants::network::assert_kept_sums_match;
        let (mut drops, mut captures, mut promotions) = (0, 0, 0);
        let tally = |pos: &MutatisMutandis, t: crate::variants::mutatis_mutandis::MutatisMove| {
            drops += usize::from(t.has_drop());
            captures += usize::from(t.action.captures != 0);
            promotions += usize::from(pos.promoting_piece(&t.action).is_some());
        };
        assert_kept_sums_match(12, 120, 0x4d55_5441, 7, random_setup, tally);
        assert!(
            drops > 0 && captures > 0 && promotions > 0,
            "{drops} {captures} {promotions}"
        );
    }
}
