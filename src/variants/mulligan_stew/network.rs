//! Mulligan Stew's network inputs ([`NetInputs`]), 664 per perspective. Squares are seen from
//! the perspective: for Black rank r becomes 6 - r, files unchanged (a square keeps its colour,
//! rules/mulligan-stew.md 1). "Us" is the perspective's side, "them" the other.
//!
//! - 0..588: the men (rules 3): `(rel_colour * 7 + kind) * 42 + square`, kinds in the order
//!   K M Q R C A P, `rel_colour` 0 for us.
//! - 588..590: the Mage in hand (rules 4), us then them.
//! - 590..620: the pools (rules 4), us then them, each type Q R C A M as a thermometer of
//!   3 (a count above it reads as 3).
//! - 620..622: the pending D portion (rules 5): 620 when we are to move in the D portion, 621
//!   when they are (the side in its L portion still has two portions to play).
//! - 622..664: in the D portion, the square of the piece moved in the L portion, which may not
//!   move again this turn (rules 5, D4), when there is one.
//!
//! The compiled-in network (`network.nnv`) is the default; its manifest
//! (`network.manifest.md`) gives the commands, seeds and hashes that rebuild it.

use crate::core::Color;
use crate::core::Square;
use crate::variants::network::{
    DefaultNet, InputList, NetAccumulator, NetInputs, NetSlot, VolatileInputs,
};
use crate::variants::orthodox::inputs::thermometer;

use super::board::{Kind, Piece, NO_SQ, NSQ};
use super::MulliganStew;

/// Files and ranks of the board.
const FILES: u32 = 6;
const RANKS: u32 = 7;
/// Inputs of the men: 2 relative colours x 7 kinds x 42 squares.
const BOARD: u32 = 2 * 7 * NSQ as u32;
/// The pool count a thermometer tells apart (each side starts with one Queen; captures and
/// promotions rarely hold more than three of a type).
const POOL_CAP: u32 = 3;
const HAND: u32 = BOARD;
const POOL: u32 = HAND + 2;
const PORTION: u32 = POOL + 2 * 5 * POOL_CAP;
const MOVED: u32 = PORTION + 2;

/// `sq` seen from `perspective` (Black's ranks mirrored).
#[inline]
fn relative(sq: u32, perspective: Color) -> u32 {
    match perspective {
        Color::White => sq,
        Color::Black => (RANKS - 1 - sq / FILES) * FILES + sq % FILES,
    }
}

/// Stew's compiled-in network (`network.nnv`; how it was made: `network.manifest.md`).
static SLOT: NetSlot = NetSlot::with_default(DefaultNet {
    variant: "mulliganstew",
    inputs: MulliganStew::INPUTS,
    bytes: include_bytes!("network.nnv"),
});

impl NetInputs for MulliganStew {
    const INPUTS: usize = (MOVED + NSQ as u32) as usize;

    fn inputs(&self, perspective: Color, out: &mut InputList) {
        for (rel, side) in [perspective, !perspective].into_iter().enumerate() {
            for kind in Kind::ALL {
                let base = ((rel * 7 + kind.index()) * NSQ) as u32;
                let mut bb = self.by_color[side.index()] & self.by_kind[kind.index()];
                while bb != 0 {
                    let sq = bb.trailing_zeros();
                    bb &= bb - 1;
                    out.push(base + relative(sq, perspective));
                }
            }
            if self.hand[side.index()] {
                out.push(HAND + rel as u32);
            }
            for (t, &count) in self.pool[side.index()].iter().enumerate() {
                let base = POOL + (rel as u32 * 5 + t as u32) * POOL_CAP;
                thermometer(base, u32::from(count), POOL_CAP, out);
            }
        }
        if self.portion_d {
            out.push(PORTION + u32::from(self.side != perspective));
            if self.moved != NO_SQ {
                out.push(MOVED + relative(u32::from(self.moved), perspective));
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

    /// Who is to play a D portion, and the `moved` square: they change at every portion.
    #[inline(always)]
    fn volatile_inputs(&self) -> VolatileInputs {
        let mut out = VolatileInputs::new();
        if self.portion_d {
            out.push(Color::ALL.map(|view| PORTION + u32::from(self.side != view)));
            if self.moved != NO_SQ {
                out.push(Color::ALL.map(|view| MOVED + relative(u32::from(self.moved), view)));
            }
        }
        out
    }
}

/// The inputs of man `p` on `sq` in White's and Black's views.
#[inline(always)]
pub(super) fn man_inputs(p: Piece, sq: Square) -> [u32; 2] {
    Color::ALL.map(|view| {
        let rel = u32::from(p.color() != view);
        (rel * 7 + p.kind().index() as u32) * NSQ as u32 + relative(u32::from(sq), view)
    })
}

/// The state beside the men that the kept inputs read (rules 4).
pub(super) struct State {
    pub hand: [bool; 2],
    pub pool: [[u8; 5]; 2],
}

/// Records in `acc` the inputs beside the men that differ between `before` and `after`:
/// hands and pools (the portion and `moved` square are volatile inputs, not kept).
#[inline(always)]
pub(super) fn record_state_changes(before: &State, after: &State, acc: &mut NetAccumulator) {
    // Most portions change neither: one comparison instead of the loops below.
    if before.hand == after.hand && before.pool == after.pool {
        return;
    }
    for side in Color::ALL {
        let s = side.index();
        let rel = |view: Color| u32::from(side != view);
        if before.hand[s] != after.hand[s] {
            let inputs = Color::ALL.map(|view| HAND + rel(view));
            if after.hand[s] {
                acc.add(inputs);
            } else {
                acc.sub(inputs);
            }
        }
        for t in 0..5 {
            let old = u32::from(before.pool[s][t]).min(POOL_CAP);
            let new = u32::from(after.pool[s][t]).min(POOL_CAP);
            let base = |view: Color| POOL + (rel(view) * 5 + t as u32) * POOL_CAP;
            for step in new..old {
                acc.sub(Color::ALL.map(|view| base(view) + step));
            }
            for step in old..new {
                acc.add(Color::ALL.map(|view| base(view) + step));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::mulligan_stew::moves::{Action, MulliganStewMove};
    use crate::variants::network::assert_kept_sums_match;
    use crate::variants::Rules;

    /// The sums kept through make/unmake are the sums from scratch, over random games with
    /// every kind of portion, null turns and portions taken back unevaluated.
    #[test]
    fn the_kept_sums_are_the_sums_from_scratch() {
        let mut seen = [0usize; 6];
        let mut captures = 0;
        let tally = |pos: &MulliganStew, m: MulliganStewMove| {
            let action = m.action().unwrap_or(Action::Skip);
            seen[action as usize] += 1;
            if matches!(action, Action::Normal | Action::Promotion)
                && !pos.piece_at(m.to()).is_none()
            {
                captures += 1;
            }
        };
        let start = |_| MulliganStew::startpos();
        assert_kept_sums_match(32, 160, 0x5354_4557, 5, start, tally);
        let kinds = [
            Action::Normal,
            Action::Promotion,
            Action::Drop,
            Action::Swap,
        ];
        for a in kinds {
            assert!(seen[a as usize] > 0, "no {a:?} in {seen:?}");
        }
        assert!(captures > 0);
    }
}
