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
//! Make records the men it lifts and lands in a [`crate::variants::network::NetAccumulator`];
//! the pending parts are volatile inputs, added at each evaluation.
//!
//! The compiled-in network (`network.nnv`) is the default; its manifest
//! (`network.manifest.md`) gives the commands, seeds and hashes that rebuild it.

use crate::core::Color;
use crate::variants::network::{
    DefaultNet, InputList, NetAccumulator, NetInputs, NetSlot, VolatileInputs,
};
use crate::variants::orthodox::inputs::thermometer;

use super::position::{CELLS, FILES};
use super::types::{Kind, MitosisPiece, Parts};
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

/// The inputs of man `p` on cell `sq`, in White's and Black's views.
#[inline(always)]
pub(super) fn man_inputs(p: MitosisPiece, sq: usize) -> [u32; 2] {
    Color::ALL.map(|view| {
        let rel = usize::from(p.color != view);
        ((rel * 9 + p.kind.index()) * CELLS) as u32 + relative(sq as u32, view)
    })
}

/// Pushes the pending parts' inputs (rules 4, D4) seen from `perspective`: the side to move's
/// block of 6.
#[inline(always)]
fn pending_inputs(pos: &Mitosis, perspective: Color, out: &mut InputList) {
    let base = BOARD + HAND * u32::from(pos.stm != perspective);
    for (i, kind) in Parts::KINDS.into_iter().enumerate() {
        if pos.pending.0 & Parts::bit(kind) != 0 {
            out.push(base + i as u32);
        }
    }
    thermometer(base + 3, pos.pending.len(), 3, out);
}

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
        pending_inputs(self, perspective, out);
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

    /// The pending parts: they change with the side to move at every ply, and are none in
    /// most positions.
    #[inline(always)]
    fn volatile_inputs(&self) -> VolatileInputs {
        let mut volatile = VolatileInputs::new();
        if self.pending.is_empty() {
            return volatile;
        }
        let (mut white, mut black) = (InputList::new(), InputList::new());
        pending_inputs(self, Color::White, &mut white);
        pending_inputs(self, Color::Black, &mut black);
        for (w, b) in white.into_iter().zip(black) {
            volatile.push([w, b]);
        }
        volatile
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::mitosis::types::MitosisMove;
    use crate::variants::network::assert_kept_sums_match;
    use crate::variants::{Notation, Rules};

    /// The sums kept through make/unmake are the sums from scratch, over random games with
    /// placements of pending parts, captures of Kings (their minors go), promotions, en
    /// passant, null moves and plies taken back unevaluated.
    #[test]
    fn the_kept_sums_are_the_sums_from_scratch() {
        let (mut placements, mut king_captures, mut promotions, mut ep) = (0, 0, 0, 0);
        let tally = |pos: &Mitosis, m: MitosisMove| {
            if m.is_placement() {
                placements += 1;
                return;
            }
            if pos.piece_at(m.to()).is_some_and(|p| p.kind == Kind::King) {
                king_captures += 1;
            }
            promotions += usize::from(m.promotion().is_some());
            ep += usize::from(m.is_ep());
        };
        // Every fourth game from a position with two en passant captures (tests/mitosis.rs M3).
        let m3 = "***3***/4k4/9/9/9/4Pp3/3p5/9/9/4K4/***3***[-] b - e3e4 1 1";
        let start = |game| match game % 4 {
            0 => Mitosis::from_fen(m3).expect("M3 after e2e5"),
            _ => Mitosis::startpos(),
        };
        assert_kept_sums_match(40, 200, 0x4d49_544f, 6, start, tally);
        let seen = [placements, king_captures, promotions, ep];
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }
}
