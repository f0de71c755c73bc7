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
use super::piece::{State, STATE_COUNT};
use super::tables::{bishop_attacks, rook_attacks, tables, LeapSet};

/// Splits an attack set into empty landings and occupied ones.
#[inline(always)]
pub(crate) fn split(attacks: Bb, occ: Bb) -> Reach {
    Reach {
        quiet: attacks & !occ,
        capture: attacks & occ,
    }
}

/// How the reach of a state that leaps and rides only along rook and bishop lines is made
/// (rules 6.1): its leap set, its rook and bishop lines (all ones or none), and whether it
/// captures (all ones) or only moves to empty squares (none). One table lookup instead of a
/// branch on the state, which is hard to predict.
#[derive(Copy, Clone, Debug)]
pub(crate) struct PlainReach {
    leap: LeapSet,
    rook: Bb,
    bishop: Bb,
    capture: Bb,
}

/// [`PlainReach`] of each state, `None` for the states with other movement.
pub(crate) const PLAIN: [Option<PlainReach>; STATE_COUNT] = {
    let mut t = [None; STATE_COUNT];
    let mut i = 0;
    while i < STATE_COUNT {
        t[i] = plain(State::ALL[i]);
        i += 1;
    }
    t
};

/// [`PlainReach`] of `state` (rules 6.1; the non-capturing Wuss, Rococo queen moves and
/// Maoking / Oxybeles steps of 6.2 and 7).
const fn plain(state: State) -> Option<PlainReach> {
    use State::*;
    const ALL: Bb = !0;
    let (leap, rook, bishop, capture) = match state {
        King | Mamra => (LeapSet::King, 0, 0, ALL),
        Queen => (LeapSet::None, ALL, ALL, ALL),
        Amazon => (LeapSet::Knight, ALL, ALL, ALL),
        Chancellor => (LeapSet::Knight, ALL, 0, ALL),
        Archbishop => (LeapSet::Knight, 0, ALL, ALL),
        DragonKing => (LeapSet::Ferz, ALL, 0, ALL),
        DragonHorse => (LeapSet::Wazir, 0, ALL, ALL),
        Knight | HydraKnight => (LeapSet::Knight, 0, 0, ALL),
        KnightGuard => (LeapSet::KnightKing, 0, 0, ALL),
        Rook => (LeapSet::None, ALL, 0, ALL),
        KnightWazir => (LeapSet::KnightWazir, 0, 0, ALL),
        KnightFerz => (LeapSet::KnightFerz, 0, 0, ALL),
        Wuss | Immobilizer | Shield | Chameleon | Swapper | LongLeaper | Archer | Withdrawer
        | Advancer => (LeapSet::None, ALL, ALL, 0),
        Maoking | Oxybeles => (LeapSet::King, 0, 0, 0),
        _ => return None,
    };
    Some(PlainReach {
        leap,
        rook,
        bishop,
        capture,
    })
}

/// The reach of a plain state ([`PLAIN`]) from `from` over occupancy `occ`: both lines are
/// looked up whatever the state, and masked.
#[inline(always)]
pub(crate) fn plain_reach(p: PlainReach, from: Square, occ: Bb) -> Reach {
    let a = tables().leaps[p.leap as usize][from as usize]
        | (rook_attacks(from, occ) & p.rook)
        | (bishop_attacks(from, occ) & p.bishop);
    Reach {
        quiet: a & !occ,
        capture: a & occ & p.capture,
    }
}

/// Reach of a plain leaper/rider/path-rider state from `from` over occupancy `occ`; `None`
/// for states whose movement is not plain.
#[inline]
pub(crate) fn reach(state: State, from: Square, occ: Bb) -> Option<Reach> {
    use State::*;
    if let Some(p) = PLAIN[state.index()] {
        return Some(plain_reach(p, from, occ));
    }
    let t = tables();
    let a = match state {
        Unicorn => bishop_attacks(from, occ) | t.nightrider.rider_attacks(from, occ),
        Nightrider => t.nightrider.rider_attacks(from, occ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::mutatis_mutandis::board::{bit, random_placements};
    use crate::variants::mutatis_mutandis::generate::capture_witness;

    /// Each plain state's reach from [`PLAIN`] agrees, square by square, with the rider lines
    /// and leap tests of the attack query ([`capture_witness`]), over random occupancies of
    /// every density: a capture lands on an occupied square the state reaches, a quiet move on
    /// an empty one; the non-capturing states move as the Queen (the Wuss and Rococo pieces)
    /// or the King (Maoking, Oxybeles) and capture nothing this way.
    #[test]
    fn plain_reach_agrees_with_the_attack_lines() {
        let mut plain_states = 0;
        for state in State::ALL {
            let Some(p) = PLAIN[state.index()] else {
                continue;
            };
            plain_states += 1;
            let like = match state {
                State::Maoking | State::Oxybeles => State::King,
                s if p.capture == 0 => {
                    assert!(s.index() != State::Queen.index());
                    State::Queen
                }
                s => s,
            };
            let seed = 0x9E37_79B9_7F4A_7C15 ^ state.index() as u64;
            for (from, occ) in random_placements(seed, 400) {
                let r = plain_reach(p, from, occ);
                for to in (0..64u8).filter(|&to| to != from) {
                    let reaches = capture_witness(like, from, to, occ | bit(to))
                        .expect("a plain state is in the attack query")
                        .is_some();
                    let empty = occ & bit(to) == 0;
                    assert_eq!(
                        r.quiet & bit(to) != 0,
                        reaches && empty,
                        "{state:?} {from} {to}"
                    );
                    let captures = reaches && !empty && p.capture != 0;
                    assert_eq!(r.capture & bit(to) != 0, captures, "{state:?} {from} {to}");
                }
            }
        }
        assert_eq!(plain_states, 25);
    }
}
