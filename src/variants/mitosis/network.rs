//! Mitosis's network inputs ([`NetInputs`]), 1794 per perspective. Cells are those of the
//! 9 x 11 box (rules/mitosis.md 1: ranks 0 to 10, the bases on ranks 0 and 10), seen from the
//! perspective: for Black rank r becomes 10 - r, files unchanged, so each side's base is on
//! its own rank 0. "Us" is the perspective's side, "them" the other.
//!
//! - 0..1782: the men on the main board and in the bases (rules 2):
//!   `(rel_colour * 9 + kind) * 99 + cell`, kinds in rank order K G Q C A R B N P,
//!   `rel_colour` 0 for us (the 12 cells that are no square are never set).
//! - 1782..1794: the hand, the parts pending placement in the bases (rules 4, D4), only ever
//!   the side to move's: per relative side 6 inputs, one per pending R, B, N, then the number
//!   of pending parts as a thermometer of 3.
//!
//! The compiled-in network (`network.nnv`) is the default; its manifest
//! (`network.manifest.md`) gives the commands, seeds and hashes that rebuild it.

use crate::core::Color;
use crate::variants::network::{DefaultNet, InputList, NetInputs, NetSlot};
use crate::variants::orthodox::inputs::thermometer;

use super::position::{CELLS, FILES};
use super::types::{Kind, Parts};
use super::Mitosis;

/// Ranks of the box, bases included.
const RANKS: u32 = (CELLS / FILES) as u32;
/// Inputs of the men: 2 relative colours x 9 kinds x 99 cells.
const BOARD: u32 = 2 * 9 * CELLS as u32;
/// Inputs of the pending parts of one relative side.
const HAND: u32 = 6;

/// Cell `sq` seen from `perspective` (Black's ranks mirrored).
#[inline]
fn relative(sq: u32, perspective: Color) -> u32 {
    let files = FILES as u32;
    match perspective {
        Color::White => sq,
        Color::Black => (RANKS - 1 - sq / files) * files + sq % files,
    }
}

/// Mitosis's compiled-in network (`network.nnv`; how it was made: `network.manifest.md`).
static SLOT: NetSlot = NetSlot::with_default(DefaultNet {
    variant: "mitosis",
    inputs: Mitosis::INPUTS,
    bytes: include_bytes!("network.nnv"),
});

impl NetInputs for Mitosis {
    const INPUTS: usize = (BOARD + 2 * HAND) as usize;

    fn inputs(&self, perspective: Color, out: &mut InputList) {
        for (rel, side) in [perspective, !perspective].into_iter().enumerate() {
            for kind in Kind::ALL {
                let base = ((rel * 9 + kind.index()) * CELLS) as u32;
                let mut bb = self.pieces[side.index()][kind.index()];
                while bb != 0 {
                    let sq = bb.trailing_zeros();
                    bb &= bb - 1;
                    out.push(base + relative(sq, perspective));
                }
            }
        }
        let base = BOARD + HAND * u32::from(self.stm != perspective);
        for (i, kind) in Parts::KINDS.into_iter().enumerate() {
            if self.pending.0 & Parts::bit(kind) != 0 {
                out.push(base + i as u32);
            }
        }
        thermometer(base + 3, self.pending.len(), 3, out);
    }

    fn slot() -> &'static NetSlot {
        &SLOT
    }
}
