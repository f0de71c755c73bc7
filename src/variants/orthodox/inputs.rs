//! The network inputs of an orthodox board ([`crate::variants::network::NetInputs`]), shared
//! by the variants that play on it: one input per colour relative to the perspective, kind and
//! square seen from the perspective (Black's squares mirrored by `^ 56`), the layout of the
//! chess network.

use crate::core::Color;
use crate::variants::network::{InputList, NetAccumulator};

use super::make::{self, Features, Made, NoFeatures};
use super::{Board, Kind, Move, Piece};

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

/// The input of `piece` on `sq` in `perspective`'s view (one of [`board_inputs`]' list).
#[inline(always)]
pub fn board_input(perspective: Color, piece: Piece, sq: u8) -> u32 {
    let rel = u32::from(piece.color() != perspective);
    let flip = if perspective == Color::White { 0 } else { 56 };
    (rel * 6 + piece.kind().index() as u32) * 64 + u32::from(sq ^ flip)
}

/// The inputs of `piece` on `sq` in White's and Black's views.
#[inline(always)]
pub fn board_inputs_of(piece: Piece, sq: u8) -> [u32; 2] {
    [
        board_input(Color::White, piece, sq),
        board_input(Color::Black, piece, sq),
    ]
}

/// The make hook ([`Features`]) that keeps a [`NetAccumulator`] of [`board_inputs`] up to
/// date: each man that lands or leaves sets or clears its input in both views.
pub struct BoardUpdate<'a>(pub &'a mut NetAccumulator);

impl Features for BoardUpdate<'_> {
    #[inline(always)]
    fn add(&mut self, piece: Piece, sq: u8) {
        self.0.add(board_inputs_of(piece, sq));
    }

    #[inline(always)]
    fn sub(&mut self, piece: Piece, sq: u8) {
        self.0.sub(board_inputs_of(piece, sq));
    }
}

/// [`make::make`] with the network's records in `acc` ([`BoardUpdate`]), or none when `acc`
/// is detached (perft, [`NetAccumulator::detach`]): asked once per ply, not once per man.
#[inline(always)]
pub fn make_recorded(
    board: &mut Board,
    us: Color,
    m: Move,
    ep_victim: u8,
    castle_rook: impl FnOnce(&Board) -> (u8, u8),
    acc: &mut NetAccumulator,
) -> Made {
    if acc.is_detached() {
        make::make(board, us, m, ep_victim, castle_rook, &mut NoFeatures)
    } else {
        make::make(board, us, m, ep_victim, castle_rook, &mut BoardUpdate(acc))
    }
}
