//! The mock game of the tests: Nim in two-step turns, small enough to reason about by hand,
//! for testing what is generic over [`Game`] (turns, protocol, search) without a real variant.
//! Compiled always, so that the integration tests can use it too, but in no registry: the
//! engine never plays it.
//!
//! The rules: a pile of stones, 10 at the start. A turn is two portions (plies) of the same
//! side: the first takes one or two stones (`p1`, `p2`), the second takes one or two or passes
//! (`pass`). Whoever takes the last stone wins, so a game can end after a turn's first portion.
//! A turn takes one to four stones, so the side to move loses exactly when the pile is a
//! multiple of 5: it wins in `pile / 5 + 1` turns, or loses in `pile / 5`.
//!
//! What the tests want of it: multi-ply turns (grouping plies into turn tokens, completing a
//! turn the PV leaves unfinished, a ply that keeps the side to move not negated by the search),
//! a second portion with a different choice of plies than the first, a game that can end inside
//! a turn, and exact values a search must find. The evaluation is flat: nothing but the search
//! finds the value.

use crate::core::{Color, MoveList};
use crate::variants::network::{InputList, NetAccumulator, NetInputs, NetSlot};
use crate::variants::{
    Evaluation, FenError, Game, GameMove, MoveError, Notation, Rules, Scope, SearchProfile,
    StagedGeneration, VariantInfo, Verdict,
};

/// A portion: `Pick(1)` and `Pick(2)` take that many stones, [`Pick::PASS`] takes none (second
/// portions only); `Pick(0)`, the default, is the null move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pick(pub u8);

impl Pick {
    /// The second portion that takes no stone.
    pub const PASS: Pick = Pick(3);

    /// The stones the portion takes.
    fn stones(self) -> u8 {
        if self == Pick::PASS {
            0
        } else {
            self.0
        }
    }
}

impl GameMove for Pick {
    type List<T: Copy + Send + Sync> = crate::core::MoveList<T>;
    fn pack(self) -> u32 {
        u32::from(self.0)
    }
}

/// A position: the pile, whose turn it is and which of its portions, and the plies made.
#[derive(Clone, Debug)]
pub struct TwoStep {
    pile: u8,
    side: Color,
    /// 0: the turn's first portion; 1: its second.
    portion: u8,
    history: Vec<Pick>,
    acc: NetAccumulator,
}

impl TwoStep {
    /// The start of White's turn with `pile` stones.
    pub fn new(pile: u8) -> TwoStep {
        TwoStep {
            pile,
            side: Color::White,
            portion: 0,
            history: Vec::new(),
            acc: NetAccumulator::default(),
        }
    }

    /// The stones left.
    pub fn pile(&self) -> u8 {
        self.pile
    }
}

impl Rules for TwoStep {
    type Move = Pick;

    const INFO: VariantInfo = VariantInfo {
        name: "twostep",
        files: 1,
        ranks: 1,
        portions: 2,
        multi_ply_turns: true,
        ..VariantInfo::DEFAULTS
    };

    fn startpos() -> Self {
        TwoStep::new(10)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn legal_moves(&self, list: &mut MoveList<Pick>) {
        if self.pile == 0 {
            return;
        }
        if self.portion == 1 {
            list.push(Pick::PASS);
        }
        list.push(Pick(1));
        if self.pile >= 2 {
            list.push(Pick(2));
        }
    }

    fn make(&mut self, m: Pick) {
        self.history.push(m);
        self.pile -= m.stones();
        if self.portion == 0 {
            self.portion = 1;
        } else {
            self.portion = 0;
            self.side = !self.side;
        }
    }

    fn unmake(&mut self) {
        let m = self.history.pop().expect("a ply to take back");
        self.pile += m.stones();
        if self.portion == 1 {
            self.portion = 0;
        } else {
            self.portion = 1;
            self.side = !self.side;
        }
    }

    fn key(&self) -> u64 {
        u64::from(self.pile) << 8
            | (self.side.index() as u64) << 1
            | u64::from(self.portion)
            | 0x5151 << 32
    }

    /// The last stone taken: by the side to move when the turn's first portion took it.
    fn verdict(&self, _: Scope) -> Option<Verdict> {
        (self.pile == 0).then(|| {
            if self.portion == 1 {
                Verdict::win("last stone")
            } else {
                Verdict::loss("last stone")
            }
        })
    }

    /// Only an empty pile has no legal ply.
    fn no_moves_verdict(&self) -> Verdict {
        self.verdict(Scope::Game).expect("an empty pile")
    }
}

impl Notation for TwoStep {
    /// `<pile> <w|b> <portion 1|2>`.
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        let words: Vec<&str> = fen.split_whitespace().collect();
        let [pile, side, portion] = words[..] else {
            return Err(FenError::new("board", "<pile> <w|b> <portion 1|2>"));
        };
        let mut pos = TwoStep::new(
            pile.parse()
                .map_err(|_| FenError::new("board", "a pile of at most 255 stones"))?,
        );
        pos.side = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(FenError::new("side to move", "w or b")),
        };
        pos.portion = match portion {
            "1" => 0,
            "2" => 1,
            _ => return Err(FenError::new("portion", "1 or 2")),
        };
        Ok(pos)
    }

    fn fen(&self) -> String {
        let side = if self.side == Color::White { "w" } else { "b" };
        format!("{} {side} {}", self.pile, self.portion + 1)
    }

    fn parse_move(&self, token: &str) -> Result<Pick, MoveError> {
        let m = match token {
            "p1" => Pick(1),
            "p2" => Pick(2),
            "pass" => Pick::PASS,
            _ => {
                return Err(MoveError::Malformed {
                    token: token.into(),
                    reason: "p1, p2 or pass".into(),
                })
            }
        };
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        if list.contains(&m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(token.into()))
        }
    }

    fn move_token(&self, m: Pick) -> String {
        if m == Pick::PASS {
            "pass".into()
        } else {
            format!("p{}", m.0)
        }
    }

    fn display(&self) -> String {
        self.fen()
    }
}

impl Evaluation for TwoStep {
    type EvalParams = crate::core::tunables::NoParams;

    fn evaluate(&self) -> i32 {
        0
    }

    fn eval_report(&self) -> String {
        String::new()
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

impl Game for TwoStep {
    const SEARCH: SearchProfile = SearchProfile {
        // A flat evaluation: nothing to improve on.
        improving: false,
        ..SearchProfile::DEFAULT
    };
}

impl crate::variants::diagram::PieceMoves for TwoStep {}
