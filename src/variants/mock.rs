//! A tiny game with two-ply turns, for testing the turns ([`super::turn`]) and the protocol
//! without a multi-portion variant: each turn is two portions, each portion picks `p1` or `p2`;
//! the game ends after [`PLIES`] plies, won by the side with the larger total.

use crate::core::{Color, MoveList};
use crate::variants::network::{InputList, NetAccumulator, NetInputs, NetSlot};
use crate::variants::{
    Evaluation, FenError, Game, GameMove, MoveError, Notation, Rules, Scope, StagedGeneration,
    VariantInfo, Verdict,
};

/// Plies in a whole game.
pub const PLIES: usize = 6;

/// A portion: pick 1 or 2.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pick(pub u8);

impl GameMove for Pick {
    type List<T: Copy + Send + Sync> = crate::core::MoveList<T>;
    fn pack(self) -> u32 {
        u32::from(self.0)
    }
}

/// The position: the picks so far.
#[derive(Clone, Debug, Default)]
pub struct TwoStep {
    picks: Vec<u8>,
    acc: NetAccumulator,
}

impl TwoStep {
    fn total(&self, side: Color) -> u32 {
        self.picks
            .iter()
            .enumerate()
            .filter(|(i, _)| Self::side_of(*i) == side)
            .map(|(_, p)| u32::from(*p))
            .sum()
    }

    fn side_of(ply: usize) -> Color {
        if (ply / 2).is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }
}

impl Rules for TwoStep {
    type Move = Pick;

    const INFO: VariantInfo = VariantInfo {
        name: "twostep",
        files: 1,
        ranks: 1,
        pocket: false,
        portions: 2,
        fields: &[],
        multi_ply_turns: true,
        pieces: &[],
        ..VariantInfo::DEFAULTS
    };

    fn startpos() -> Self {
        TwoStep::default()
    }

    fn side_to_move(&self) -> Color {
        Self::side_of(self.picks.len())
    }

    fn legal_moves(&self, list: &mut MoveList<Pick>) {
        if self.picks.len() < PLIES {
            list.push(Pick(1));
            list.push(Pick(2));
        }
    }

    fn make(&mut self, m: Pick) {
        self.picks.push(m.0);
    }

    fn unmake(&mut self) {
        self.picks.pop();
    }

    fn key(&self) -> u64 {
        self.picks
            .iter()
            .fold(17, |k, p| k.wrapping_mul(31).wrapping_add(u64::from(*p)))
    }

    fn verdict(&self, _: Scope) -> Option<Verdict> {
        None
    }

    /// The game ends when every pick is made (no legal ply left): the larger total wins.
    fn no_moves_verdict(&self) -> Verdict {
        match self.evaluate() {
            e if e > 0 => Verdict::win("all picks made"),
            e if e < 0 => Verdict::loss("all picks made"),
            _ => Verdict::draw("all picks made"),
        }
    }
}

impl Notation for TwoStep {
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        if fen == "start" {
            Ok(TwoStep::default())
        } else {
            Err(FenError::new("board", "only 'start' exists"))
        }
    }

    fn fen(&self) -> String {
        format!("start {:?}", self.picks)
    }

    fn parse_move(&self, token: &str) -> Result<Pick, MoveError> {
        let m = match token {
            "p1" => Pick(1),
            "p2" => Pick(2),
            _ => {
                return Err(MoveError::Malformed {
                    token: token.into(),
                    reason: "p1 or p2".into(),
                })
            }
        };
        if self.picks.len() < PLIES {
            Ok(m)
        } else {
            Err(MoveError::Illegal(token.into()))
        }
    }

    fn move_token(&self, m: Pick) -> String {
        format!("p{}", m.0)
    }

    fn display(&self) -> String {
        self.fen()
    }
}

impl Evaluation for TwoStep {
    type EvalParams = crate::core::tunables::NoParams;

    fn evaluate(&self) -> i32 {
        let us = self.side_to_move();
        self.total(us) as i32 - self.total(!us) as i32
    }

    fn eval_report(&self) -> String {
        format!("total {}", self.evaluate())
    }
}

impl StagedGeneration for TwoStep {
    fn is_tactical(&self, _: Pick) -> bool {
        false
    }
}

/// No network: no inputs, an empty slot.
impl NetInputs for TwoStep {
    const INPUTS: usize = 1;

    fn inputs(&self, _: Color, _: &mut InputList) {}

    fn slot() -> &'static NetSlot {
        static SLOT: NetSlot = NetSlot::new();
        &SLOT
    }

    fn accumulator(&self) -> &NetAccumulator {
        &self.acc
    }

    fn accumulator_mut(&mut self) -> &mut NetAccumulator {
        &mut self.acc
    }
}

impl Game for TwoStep {}

impl crate::variants::diagram::PieceMoves for TwoStep {}
