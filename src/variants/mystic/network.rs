//! Mystic's network inputs ([`NetInputs`]): the orthodox board's 768, then each side's coins
//! (rules/mystic.md 2; 0-20) and bought Pawns (rules/mystic.md 4; 0-3) as thermometers, the
//! side of the perspective first.

use crate::core::Color;
use crate::variants::network::{InputList, NetInputs, NetSlot};
use crate::variants::orthodox::inputs::{board_inputs, thermometer, BOARD_INPUTS};

use super::Mystic;

/// Coins a side can hold.
const COINS: u32 = 20;
/// Pawns a side can have bought (the counter's cap).
const BOUGHT: u32 = 3;

static SLOT: NetSlot = NetSlot::new();

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
}
