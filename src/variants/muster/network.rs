//! Muster's network inputs ([`NetInputs`]), 896 per perspective:
//!
//! - 0..768: the orthodox board ([`board_inputs`]): colour relative to the perspective, kind,
//!   square seen from the perspective (ranks mirrored for Black).
//! - 768..896: the castling rights (rules/muster.md 5.4), one input per Rook square that still
//!   has a right, 64 for the perspective's side then 64 for the other, squares mirrored for
//!   Black as the board's.
//!
//! Make records what changes in a [`crate::variants::network::NetAccumulator`]: the men through
//! the orthodox make's `BoardUpdate` hook, the rights lost by `set_rights`.
//!
//! The compiled-in network (`network.nnv`) is the default: chess's network fine-tuned on
//! Muster's own self-play games; its manifest (`network.manifest.md`) gives the commands,
//! seeds and hashes that rebuild it.

use crate::core::Color;
use crate::variants::network::{DefaultNet, InputList, NetAccumulator, NetInputs, NetSlot};
use crate::variants::orthodox::inputs::{board_inputs, BOARD_INPUTS};

use super::Muster;

/// Muster's compiled-in network (`network.nnv`; how it was made: `network.manifest.md`).
static SLOT: NetSlot = NetSlot::with_default(DefaultNet {
    variant: "muster",
    inputs: Muster::INPUTS,
    bytes: include_bytes!("network.nnv"),
});

/// The input of a castling right of `side` on rook square `sq`, in White's and Black's views.
#[inline(always)]
pub(super) fn right_inputs(side: Color, sq: u8) -> [u32; 2] {
    Color::ALL.map(|view| {
        let rel = u32::from(side != view);
        let flip = if view == Color::White { 0 } else { 56 };
        BOARD_INPUTS as u32 + rel * 64 + u32::from(sq ^ flip)
    })
}

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

    fn accumulator(&self) -> &NetAccumulator {
        &self.acc
    }

    fn accumulator_mut(&mut self) -> &mut NetAccumulator {
        &mut self.acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::network::assert_kept_sums_match;
    use crate::variants::orthodox::Move;
    use crate::variants::Rules;

    /// The sums kept through make/unmake are the sums from scratch, over random games with
    /// castling (rights lost), captures, null moves and plies taken back unevaluated.
    #[test]
    fn the_kept_sums_are_the_sums_from_scratch() {
        let (mut castles, mut captures) = (0, 0);
        let tally = |pos: &Muster, m: Move| {
            castles += usize::from(m.kind() == crate::variants::orthodox::MoveKind::Castle);
            captures += usize::from(!pos.board.piece_at(m.to()).is_none());
        };
        let start = |_| Muster::startpos();
        assert_kept_sums_match(24, 160, 0x4d55_5354, 7, start, tally);
        assert!(castles > 0 && captures > 0);
    }
}
