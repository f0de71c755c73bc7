//! Bent and two-stage movers (rules 6.1): the Sissa (and the Squeen's Sissa part), the spotted
//! gryphon of the Dragon, the Gryphon and Aanca, the Dancing Horse.

use crate::core::Square;

use super::board::{bit, step, Bb};
use super::generate::Reach;
use super::leapers::split;
use super::piece::State;
use super::tables::{bishop_attacks, rook_attacks, tables};

#[cfg(test)]
const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

#[inline(always)]
fn occupied(occ: Bb, sq: Square) -> bool {
    occ >> sq & 1 != 0
}

/// Sissa (rules 6.1 `SS`): n steps in one of 8 directions then n steps in one of the 4
/// directions of the other kind; the 2n-1 passed squares (corner included) must be empty.
pub(crate) fn sissa(from: Square, occ: Bb) -> Reach {
    let mut r = Reach::default();
    for &(mask, land) in tables().sissa.routes(from) {
        if occ & mask == 0 {
            if occupied(occ, land) {
                r.capture |= bit(land);
            } else {
                r.quiet |= bit(land);
            }
        }
    }
    r
}

/// Spotted gryphon (rules 6.1 `DR`): a ferz step to X (stop or capture there, go on only if X
/// is empty), then a dabbabah-rider outward along the two orthogonals sharing a component.
pub(crate) fn spotted_gryphon(from: Square, occ: Bb) -> Reach {
    bent_rider(from, occ, &DIAG, 2)
}

/// Gryphon (rules 6.1 `GR`): ferz step, then outward rook slide.
pub(crate) fn gryphon(from: Square, occ: Bb) -> Reach {
    bent_slider(from, occ, true)
}

/// Aanca (rules 6.1 `AA`): wazir step, then bishop slide along the two diagonals sharing its
/// component.
pub(crate) fn aanca(from: Square, occ: Bb) -> Reach {
    bent_slider(from, occ, false)
}

/// [`bent_rider`] with one-square steps, from the slider attack sets: a first step (diagonal
/// for the Gryphon, orthogonal for the Aanca) to X, then the rook's (or bishop's) attacks
/// from X along the two outward directions, the queen directions either side of the step's.
#[inline]
fn bent_slider(from: Square, occ: Bb, diagonal_first: bool) -> Reach {
    let queen = &tables().queen;
    let mut r = Reach::default();
    let firsts = if diagonal_first {
        [1, 3, 5, 7]
    } else {
        [0, 2, 4, 6]
    };
    for d in firsts {
        let Some(&x) = queen.ray(d, from).first() else {
            continue;
        };
        if occupied(occ, x) {
            r.capture |= bit(x);
            continue;
        }
        r.quiet |= bit(x);
        let out = queen.ray_mask((d + 7) & 7, x) | queen.ray_mask((d + 1) & 7, x);
        let slide = out
            & if diagonal_first {
                rook_attacks(x, occ)
            } else {
                bishop_attacks(x, occ)
            };
        r.quiet |= slide & !occ;
        r.capture |= slide & occ;
    }
    r
}

/// The two outward directions of a bent rider after its first step `(dx, dy)`: for a
/// diagonal step the orthogonals `(dx, 0)` and `(0, dy)`; for an orthogonal step the diagonals
/// that share its component.
#[inline(always)]
pub(crate) fn outward(dx: i32, dy: i32) -> [(i32, i32); 2] {
    if dx != 0 && dy != 0 {
        [(dx, 0), (0, dy)]
    } else if dx != 0 {
        [(dx, 1), (dx, -1)]
    } else {
        [(1, dy), (-1, dy)]
    }
}

/// First step in one of `firsts`, then riders (step length `len`) along the two outward
/// directions: for a diagonal step (dx, dy) the orthogonals (dx, 0) and (0, dy); for an
/// orthogonal step (dx, 0) the diagonals (dx, 1) and (dx, -1).
fn bent_rider(from: Square, occ: Bb, firsts: &[(i32, i32); 4], len: i32) -> Reach {
    let mut r = Reach::default();
    for &(dx, dy) in firsts {
        let x = match step(from, dx, dy) {
            Some(x) => x,
            None => continue,
        };
        if occupied(occ, x) {
            r.capture |= bit(x);
            continue;
        }
        r.quiet |= bit(x);
        for (ox, oy) in outward(dx, dy) {
            let mut cur = x;
            while let Some(t) = step(cur, ox * len, oy * len) {
                if occupied(occ, t) {
                    r.capture |= bit(t);
                    break;
                }
                r.quiet |= bit(t);
                cur = t;
            }
        }
    }
    r
}

/// Dancing Horse (rules 6.1 `DA`): one knight leap (move or capture), or from an empty first
/// landing a second knight leap in any direction but back to the origin (capture at the end).
pub(crate) fn dancing_horse(from: Square, occ: Bb) -> Reach {
    let t = tables();
    let first = t.knight.attacks(from);
    let mut r = split(first, occ);
    let mut second = 0;
    let mut mids = r.quiet;
    while mids != 0 {
        let m = mids.trailing_zeros() as Square;
        mids &= mids - 1;
        second |= t.knight.attacks(m);
    }
    second &= !bit(from);
    r.quiet |= second & !occ;
    r.capture |= second & occ;
    r
}

/// Reach of the bent states, `None` for others.
pub(crate) fn reach(state: State, from: Square, occ: Bb) -> Option<Reach> {
    Some(match state {
        State::Sissa => sissa(from, occ),
        State::Squeen => {
            let q = rook_attacks(from, occ) | bishop_attacks(from, occ);
            sissa(from, occ).union(split(q, occ))
        }
        State::Dragon => spotted_gryphon(from, occ).union(split(rook_attacks(from, occ), occ)),
        State::Gryphon => gryphon(from, occ),
        State::Aanca => aanca(from, occ),
        State::DancingHorse => dancing_horse(from, occ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Gryphon and Aanca from slider attack sets reach what the square-by-square walk of
    /// [`bent_rider`] reaches, over random occupancies of every density.
    #[test]
    fn slider_bent_pieces_agree_with_the_walk() {
        for (from, occ) in super::super::board::random_placements(0x2545_F491_4F6C_DD1D, 4000) {
            assert_eq!(
                gryphon(from, occ),
                bent_rider(from, occ, &DIAG, 1),
                "{from} {occ:#x}"
            );
            assert_eq!(
                aanca(from, occ),
                bent_rider(from, occ, &ORTH, 1),
                "{from} {occ:#x}"
            );
        }
    }
}
