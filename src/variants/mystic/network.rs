//! Mystic's network inputs ([`NetInputs`]): the orthodox board's 768, then each side's coins
//! (rules/mystic.md 2; 0-20) and bought Pawns (rules/mystic.md 4; 0-3) as thermometers, the
//! side of the perspective first. The compiled-in network (`network.nnv`) is the default; its
//! manifest (`network.manifest.md`) gives the commands, seeds and hashes that rebuild it.

use crate::core::Color;
use crate::variants::network::{DefaultNet, InputList, NetAccumulator, NetInputs, NetSlot};
use crate::variants::orthodox::inputs::{board_inputs, thermometer, BOARD_INPUTS};

use super::Mystic;

/// Coins a side can hold.
const COINS: u32 = 20;
/// Pawns a side can have bought (the counter's cap).
const BOUGHT: u32 = 3;

/// Mystic's compiled-in network (`network.nnv`; how it was made: `network.manifest.md`).
static SLOT: NetSlot = NetSlot::with_default(DefaultNet {
    variant: "mystic",
    inputs: Mystic::INPUTS,
    bytes: include_bytes!("network.nnv"),
});

/// The inputs of `side`'s coin `t` (set when `side` has more than `t` coins; `t < 20`) in
/// White's and Black's views.
#[inline(always)]
pub(super) fn coin_inputs(side: Color, t: u8) -> [u32; 2] {
    Color::ALL.map(|view| economy_base(view, side) + u32::from(t))
}

/// The inputs of `side`'s bought Pawn `t` (set when `side` has bought more than `t`;
/// `t < 3`) in White's and Black's views.
#[inline(always)]
pub(super) fn bought_inputs(side: Color, t: u8) -> [u32; 2] {
    Color::ALL.map(|view| economy_base(view, side) + COINS + u32::from(t))
}

/// Where `side`'s coins and bought Pawns start in `view`'s inputs.
#[inline(always)]
fn economy_base(view: Color, side: Color) -> u32 {
    BOARD_INPUTS as u32 + u32::from(side != view) * (COINS + BOUGHT)
}

impl NetInputs for Mystic {
    const INPUTS: usize = BOARD_INPUTS + 2 * (COINS + BOUGHT) as usize;

    fn inputs(&self, perspective: Color, out: &mut InputList) {
        board_inputs(self.board(), perspective, out);
        let mut base = BOARD_INPUTS as u32;
        for side in [perspective, !perspective] {
            thermometer(base, u32::from(self.coins(side)), COINS, out);
            base += COINS;
            thermometer(base, u32::from(self.bought(side)), BOUGHT, out);
            base += BOUGHT;
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
    use crate::variants::mystic::MysticMove;
    use crate::variants::Notation;

    #[test]
    fn the_compiled_in_network_parses_and_plays() {
        let net = SLOT
            .default_net()
            .unwrap()
            .network()
            .expect("network.nnv parses");
        assert_eq!(net.variant, "mystic");
        assert_eq!(net.w1.len(), Mystic::INPUTS);
        // It corrects: some bench position gets a non-zero residual.
        let fens = [
            crate::variants::mystic::START_FEN,
            "4k3/8/8/3q4/8/8/2P5/4K3 b - - 7 30 coins:11/6 bought:1/0",
            "r3k3/pp6/8/8/8/8/PPP5/R3K2R w - - 0 12 coins:3/5 bought:3/2",
        ];
        let residuals: Vec<i32> = fens
            .iter()
            .map(|f| net.evaluate(&Mystic::from_fen(f).unwrap()))
            .collect();
        assert!(residuals.iter().any(|&c| c != 0), "{residuals:?}");
        // The slot holds it from the first use, and the evaluation the search uses is the
        // hand-written score plus this copy's output from scratch, in each position and after
        // each of its legal plies (whose sums the position keeps through make).
        assert_eq!(SLOT.get(), Some(&net));
        use crate::variants::{Evaluation, PlyList, Rules};
        let mut checked = 0;
        for f in fens {
            let mut pos = Mystic::from_fen(f).unwrap();
            let mut list = PlyList::<MysticMove>::default();
            pos.legal_moves(&mut list);
            for m in std::iter::once(None).chain(list.iter().copied().map(Some)) {
                if let Some(m) = m {
                    pos.make(m);
                }
                let (hand, residual) = (
                    crate::variants::mystic::eval::evaluate(&pos),
                    net.evaluate(&pos),
                );
                assert_eq!(
                    pos.evaluate(),
                    hand + residual,
                    "{}: hand-written {hand}, network {residual}",
                    pos.fen()
                );
                checked += usize::from(residual != 0);
                if m.is_some() {
                    pos.unmake();
                }
            }
        }
        assert!(checked > 20, "{checked} positions with a residual");
    }

    /// The sums kept through make/unmake are the sums from scratch, over random games with
    /// purchases, upgrades, captures, null moves and plies taken back unevaluated.
    #[test]
    fn the_kept_sums_are_the_sums_from_scratch() {
        use crate::variants::network::assert_kept_sums_match;
        use crate::variants::Rules;
        let (mut purchases, mut upgrades, mut captures) = (0, 0, 0);
        let tally = |pos: &Mystic, m: MysticMove| match m.as_placement() {
            Some((sq, _)) if !pos.board.piece_at(sq).is_none() => upgrades += 1,
            Some(_) => purchases += 1,
            None if !pos.board.piece_at(m.as_move().to()).is_none() => captures += 1,
            None => {}
        };
        let start = |_| Mystic::startpos();
        assert_kept_sums_match(24, 120, 0x4d59_5354, 7, start, tally);
        assert!(purchases > 0 && upgrades > 0 && captures > 0);
    }
}
