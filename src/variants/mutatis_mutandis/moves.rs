//! A turn of Mutatis Mutandis (rules 4): one action plus at most one drop. It is one ply of
//! the generic search: the action and its drop are decided together, because the turn's
//! legality is judged after both (rules 5) and a drop-less turn can be illegal when a drop is
//! mandatory (rules 8).

use crate::core::Square;
use crate::variants::GameMove;

use super::action::{Action, ActionKind, NO_SQUARE};
use super::board::file_of;

/// The most legal turns of one position that the turn list holds. Positions of real games stay
/// far below (the start has 24; the densest drop-window middlegames seen in random self-play
/// stay under a tenth of it, see `tests/mutatis_game.rs`): a turn pairs each action with up
/// to 8 drop squares.
pub const MAX_MOVES: usize = 4096;

/// The legal turns of a position: a fixed-capacity list on the stack.
pub type MutatisMoveList = arrayvec::ArrayVec<MutatisMove, MAX_MOVES>;

/// One turn: an action and, when `drop` is not [`NO_SQUARE`], the drop of the first reserve
/// piece on that square of the mover's home row (rules 4, 8). `Default` is the null turn,
/// never legal.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MutatisMove {
    /// The action (rules 6, 7, 9).
    pub action: Action,
    /// The drop square, or [`NO_SQUARE`].
    pub drop: Square,
}

impl Default for MutatisMove {
    fn default() -> Self {
        MutatisMove {
            action: Action::default(),
            drop: NO_SQUARE,
        }
    }
}

impl MutatisMove {
    /// The turn `action` with the drop on `drop` ([`NO_SQUARE`] for none).
    #[inline(always)]
    pub const fn new(action: Action, drop: Square) -> MutatisMove {
        MutatisMove { action, drop }
    }

    /// Whether the turn drops a piece.
    #[inline(always)]
    pub const fn has_drop(&self) -> bool {
        self.drop != NO_SQUARE
    }
}

impl GameMove for MutatisMove {
    type List<T: Copy + Send + Sync> = arrayvec::ArrayVec<T, MAX_MOVES>;

    /// 31 bits: from, to, second leg (from2, to2, present), suicide, promotion, and the drop
    /// file (0 = no drop; the drop rank is the mover's home row). Distinct legal turns of a
    /// position differ in these (their tokens differ, rules 11), and no legal turn packs to 0.
    #[inline(always)]
    fn pack(self) -> u32 {
        let a = &self.action;
        let second = a.from2 != NO_SQUARE;
        let (f2, t2) = if second { (a.from2, a.to2) } else { (0, 0) };
        let drop = if self.drop == NO_SQUARE {
            0
        } else {
            file_of(self.drop) as u32 + 1
        };
        (a.from as u32 & 63)
            | (a.to as u32 & 63) << 6
            | (f2 as u32 & 63) << 12
            | (t2 as u32 & 63) << 18
            | (second as u32) << 24
            | ((a.kind == ActionKind::Suicide) as u32) << 25
            | (a.promotes as u32) << 26
            | drop << 27
    }
}
