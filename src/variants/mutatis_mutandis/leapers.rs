//! Plain leapers, riders and their compounds (rules 6.1): King, Mamra, Queen, Amazon, Unicorn,
//! Nightrider, Chancellor, Archbishop, Dragon King, Dragon Horse, Knight, Knight-Guard, Rook,
//! NW, NF, the Hydra's knight, and the non-capturing Wuss and Maoking steps; plus the path
//! riders of the core-style path tables (Rose, crooked pieces, crooked nightriders,
//! Cylindrical Bishop). Leaps come from the core's
//! [`LeaperTable`](crate::core::attacks::LeaperTable), rook and bishop lines from the 8x8 magic
//! bitboards ([`rook_attacks`], [`bishop_attacks`]), nightrider lines from the core's
//! [`RayTable`](crate::core::attacks::RayTable).

use crate::core::Square;

use super::board::Bb;
use super::generate::Reach;
use super::piece::State;
use super::tables::{bishop_attacks, rook_attacks, tables};

/// Splits an attack set into empty landings and occupied ones.
#[inline(always)]
pub(crate) fn split(attacks: Bb, occ: Bb) -> Reach {
    Reach {
        quiet: attacks & !occ,
        capture: attacks & occ,
    }
}

/// Reach of a plain leaper/rider/path-rider state from `from` over occupancy `occ`; `None`
/// for states whose movement is not plain.
#[inline]
pub(crate) fn reach(state: State, from: Square, occ: Bb) -> Option<Reach> {
    use State::*;
    let t = tables();
    let rook = || rook_attacks(from, occ);
    let bishop = || bishop_attacks(from, occ);
    let n = || t.knight.attacks(from);
    let a = match state {
        King | Mamra => t.king.attacks(from),
        Queen => rook() | bishop(),
        Amazon => rook() | bishop() | n(),
        Unicorn => bishop() | t.nightrider.rider_attacks(from, occ),
        Nightrider => t.nightrider.rider_attacks(from, occ),
        Chancellor => rook() | n(),
        Archbishop => bishop() | n(),
        DragonKing => rook() | t.ferz.attacks(from),
        DragonHorse => bishop() | t.wazir.attacks(from),
        Knight | HydraKnight => n(),
        KnightGuard => n() | t.king.attacks(from),
        Rook => rook(),
        KnightWazir => n() | t.wazir.attacks(from),
        KnightFerz => n() | t.ferz.attacks(from),
        // Non-capturing movers: the Wuss (mQ), the Rococo pieces' passive queen move, and the
        // Maoking / Oxybeles steps (to empty squares only).
        Wuss | Immobilizer | Shield | Chameleon | Swapper | LongLeaper | Archer | Withdrawer
        | Advancer => {
            return Some(Reach {
                quiet: (rook() | bishop()) & !occ,
                capture: 0,
            })
        }
        Maoking | Oxybeles => {
            return Some(Reach {
                quiet: t.king.attacks(from) & !occ,
                capture: 0,
            })
        }
        Rose | CrookedRook | CrookedBishop | Octopus | Nn11 | Nn02 | Nn31 | Nn33 | Nn04
        | CylindricalBishop => return Some(path_reach(state, from, occ)),
        _ => return None,
    };
    Some(split(a, occ))
}

/// Path riders (rules 6.1 `RO`, `CR`, `CB`, `OC`, `N11`..`N04`, `CY`): only landing squares
/// matter; every empty landing, and the first occupied landing of each path.
fn path_reach(state: State, from: Square, occ: Bb) -> Reach {
    use State::*;
    let t = tables();
    let (q, c) = match state {
        Rose => t.rose.ride(from, occ),
        CrookedRook => t.crooked_rook.ride(from, occ),
        CrookedBishop => t.crooked_bishop.ride(from, occ),
        Octopus => {
            let (q1, c1) = t.crooked_rook.ride(from, occ);
            let (q2, c2) = t.crooked_bishop.ride(from, occ);
            (q1 | q2, c1 | c2)
        }
        Nn11 => t.crooked_nn[0].ride(from, occ),
        Nn02 => t.crooked_nn[1].ride(from, occ),
        Nn31 => t.crooked_nn[2].ride(from, occ),
        Nn33 => t.crooked_nn[3].ride(from, occ),
        Nn04 => t.crooked_nn[4].ride(from, occ),
        CylindricalBishop => t.cylinder.ride(from, occ),
        _ => (0, 0),
    };
    Reach {
        quiet: q,
        capture: c,
    }
}
