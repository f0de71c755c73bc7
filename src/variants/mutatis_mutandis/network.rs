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
//! The compiled-in network (`network.nnv`) is the default; its manifest
//! (`network.manifest.md`) gives the commands, seeds and hashes that rebuild it.

use crate::core::Color;
use crate::variants::network::{DefaultNet, InputList, NetInputs, NetSlot};
use crate::variants::orthodox::inputs::thermometer;

use super::piece::{State, STATE_COUNT};
use super::position::flag;
use super::Mutatis;

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
    inputs: Mutatis::INPUTS,
    bytes: include_bytes!("network.nnv"),
});

impl NetInputs for Mutatis {
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
            let mut base = BOARD + rel as u32 * SIDE;
            let reserve = &self.reserve[side.index()];
            thermometer(base, reserve.len() as u32, RESERVE_CAP, out);
            base += RESERVE_CAP;
            if let (Some(first), Some(last)) = (reserve.first(), reserve.last()) {
                out.push(base + first.index() as u32);
                out.push(base + STATE_COUNT as u32 + last.index() as u32);
                let lead = i32::from(self.full)
                    - 5 * i32::from(reserve.drops_made())
                    - i32::from(side == Color::White);
                thermometer(
                    base + 2 * STATE_COUNT as u32,
                    lead.max(0) as u32,
                    LEAD_CAP,
                    out,
                );
            }
            base += 2 * STATE_COUNT as u32 + LEAD_CAP;
            let (king, a, h) = flag::of(side.index());
            for (i, f) in [king, a, h].into_iter().enumerate() {
                if self.corner & f != 0 {
                    out.push(base + i as u32);
                }
            }
        }
    }

    fn slot() -> &'static NetSlot {
        &SLOT
    }
}
