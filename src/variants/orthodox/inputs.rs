//! The network inputs of an orthodox board ([`crate::variants::network::NetInputs`]), shared
//! by the variants that play on it: one input per colour relative to the perspective, kind and
//! square seen from the perspective (Black's squares mirrored by `^ 56`), the layout of the
//! chess network.

use crate::core::Color;
use crate::variants::network::InputList;

use super::{Board, Kind};

/// Inputs of a board: 2 relative colours x 6 kinds x 64 squares.
pub const BOARD_INPUTS: usize = 768;

/// Pushes the board's inputs seen from `perspective`: `(rel_colour * 6 + kind) * 64 + square`.
#[inline]
pub fn board_inputs(board: &Board, perspective: Color, out: &mut InputList) {
    let flip = if perspective == Color::White { 0 } else { 56 };
    for color in Color::ALL {
        let rel = usize::from(color != perspective);
        for kind in Kind::ALL {
            let base = ((rel * 6 + kind.index()) * 64) as u32;
            let mut bb = board.pieces(color, kind);
            while bb != 0 {
                let sq = bb.trailing_zeros();
                bb &= bb - 1;
                out.push(base + (sq ^ flip));
            }
        }
    }
}

/// Pushes `count` as a thermometer of `max` inputs from `base` (inputs `base .. base + count`
/// set, capped at `max`): a count the network can weigh step by step.
#[inline]
pub fn thermometer(base: u32, count: u32, max: u32, out: &mut InputList) {
    for t in 0..count.min(max) {
        out.push(base + t);
    }
}
