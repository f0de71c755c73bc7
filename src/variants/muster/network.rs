//! Muster's network inputs ([`NetInputs`]), 896 per perspective:
//!
//! - 0..768: the orthodox board ([`board_inputs`]): colour relative to the perspective, kind,
//!   square seen from the perspective (ranks mirrored for Black).
//! - 768..896: the castling rights (rules/muster.md 5.4), one input per Rook square that still
//!   has a right, 64 for the perspective's side then 64 for the other, squares mirrored for
//!   Black as the board's.

use crate::core::Color;
use crate::variants::network::{InputList, NetInputs, NetSlot};
use crate::variants::orthodox::inputs::{board_inputs, BOARD_INPUTS};

use super::Muster;

static SLOT: NetSlot = NetSlot::new();

impl NetInputs for Muster {
    const INPUTS: usize = BOARD_INPUTS + 2 * 64;

    fn inputs(&self, perspective: Color, out: &mut InputList) {
        board_inputs(&self.board, perspective, out);
        let flip = if perspective == Color::White { 0 } else { 56 };
        for (rel, side) in [perspective, !perspective].into_iter().enumerate() {
            let base = (BOARD_INPUTS + rel * 64) as u32;
            let mut bb = self.rights[side.index()];
            while bb != 0 {
                let sq = bb.trailing_zeros();
                bb &= bb - 1;
                out.push(base + (sq ^ flip));
            }
        }
    }

    fn slot() -> &'static NetSlot {
        &SLOT
    }
}
