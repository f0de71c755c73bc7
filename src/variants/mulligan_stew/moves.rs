//! The ply type of Mulligan Stew: one portion (rules/mulligan-stew.md 5 and 8).

use super::board::Kind;
use crate::core::Square;
use crate::variants::GameMove;

/// What a portion does (rules 8's table of move strings).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move or capture (steps, leaps, teleports, rider moves), a Pawn staying a Pawn on its
    /// last rank included: `c1c3`.
    Normal,
    /// A Pawn move onto its last rank that promotes to the pool piece of [`MulliganStewMove::promo`]:
    /// `c6c7q`.
    Promotion,
    /// The promotion-only move of a Pawn frozen on its last rank: `c7c7r` (rules 3, 4).
    PromoteInPlace,
    /// The Mage dropped from the hand onto [`MulliganStewMove::to`]: `M@b3`.
    Drop,
    /// The Mage on `from` swaps with the piece on `to`: `b3d1,d1b3`.
    Swap,
    /// The forced skip of a portion without legal moves: `0000` (rules 5, D3).
    Skip,
}

/// A portion (one ply), packed in 18 bits: from (6), to (6), action (3), promotion kind (3).
/// `MulliganStewMove::default()` (all zero) is the null move, never legal.
#[derive(Copy, Clone, PartialEq, Eq, Default, Hash, Debug)]
pub struct MulliganStewMove(pub u32);

const NORMAL: u32 = 1;
const PROMOTION: u32 = 2;
const IN_PLACE: u32 = 3;
const DROP: u32 = 4;
const SWAP: u32 = 5;
const SKIP: u32 = 6;

impl MulliganStewMove {
    #[inline(always)]
    const fn raw(action: u32, from: Square, to: Square, promo: Kind) -> MulliganStewMove {
        MulliganStewMove(from as u32 | (to as u32) << 6 | action << 12 | (promo as u32) << 15)
    }

    /// A move or capture from `from` to `to`.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> MulliganStewMove {
        Self::raw(NORMAL, from, to, Kind::King)
    }

    /// A Pawn move onto its last rank promoting to `kind`.
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, kind: Kind) -> MulliganStewMove {
        Self::raw(PROMOTION, from, to, kind)
    }

    /// The promotion-only move of the Pawn on `sq` to `kind`.
    #[inline(always)]
    pub const fn in_place(sq: Square, kind: Kind) -> MulliganStewMove {
        Self::raw(IN_PLACE, sq, sq, kind)
    }

    /// The Mage drop on `sq`.
    #[inline(always)]
    pub const fn drop(sq: Square) -> MulliganStewMove {
        Self::raw(DROP, 0, sq, Kind::King)
    }

    /// The swap of the Mage on `mage` with the piece on `partner`.
    #[inline(always)]
    pub const fn swap(mage: Square, partner: Square) -> MulliganStewMove {
        Self::raw(SWAP, mage, partner, Kind::King)
    }

    /// The skipped portion `0000`.
    pub const SKIP: MulliganStewMove = Self::raw(SKIP, 0, 0, Kind::King);

    /// The origin square (the Mage's square for a swap; 0 for drops and skips).
    #[inline(always)]
    pub const fn from(self) -> Square {
        (self.0 & 63) as Square
    }

    /// The destination square (the partner's square for a swap, the drop square).
    #[inline(always)]
    pub const fn to(self) -> Square {
        ((self.0 >> 6) & 63) as Square
    }

    /// The promotion kind (meaningful for promotions and promotion-only moves).
    #[inline(always)]
    pub const fn promo(self) -> Kind {
        Kind::from_index(((self.0 >> 15) & 7) as usize % 7)
    }

    /// What the ply does; `None` for the null move or bits that are no ply.
    #[inline(always)]
    pub const fn action(self) -> Option<Action> {
        Some(match (self.0 >> 12) & 7 {
            NORMAL => Action::Normal,
            PROMOTION => Action::Promotion,
            IN_PLACE => Action::PromoteInPlace,
            DROP => Action::Drop,
            SWAP => Action::Swap,
            SKIP => Action::Skip,
            _ => return None,
        })
    }
}

impl GameMove for MulliganStewMove {
    type List<T: Copy + Send + Sync> = crate::core::MoveList<T>;
    #[inline(always)]
    fn pack(self) -> u32 {
        self.0
    }
}
