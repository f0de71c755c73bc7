//! Internal search scores (centipawns, `i32`) and mate-score bookkeeping.
//!
//! A won position found `p` plies below the root scores `MATE - p`; a lost one `-(MATE - p)`.
//! Scores are always from the point of view of the side to move at the node that holds them,
//! and a child's score is negated only when the ply changed the side to move.
//! In the TT, mate scores are stored relative to the node (`MATE - plies from the node`) and
//! shifted back by the node's ply when loaded, so a transposition at another ply stays exact.

use crate::variants::{turn, Game};

use super::Score;

/// Deepest ply the search ever reaches (plies from the root); also the PV table size.
pub const MAX_PLY: usize = 128;
/// Score of a win at the root itself (centipawns scale, never reached by evaluation).
pub const MATE: i32 = 32_000;
/// Larger than any score: the initial alpha-beta window.
pub const INF: i32 = 32_001;
/// Scores at or beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 8;
/// Evaluations are clamped inside this bound (centipawns) so they never look like mates.
pub const EVAL_LIMIT: i32 = MATE_BOUND - 1;

/// A win for the side to move, reached `ply` plies from the root.
#[inline]
pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// A loss for the side to move, reached `ply` plies from the root.
#[inline]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Whether `s` is a mate score (either sign).
#[inline]
pub fn is_mate(s: i32) -> bool {
    s.abs() >= MATE_BOUND
}

/// Converts a score at `ply` plies from the root to its TT form (relative to the node).
#[inline]
pub fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// Converts a TT score back to a score at `ply` plies from the root.
#[inline]
pub fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The protocol form of a root score.
///
/// Convention for `Score::Mate(n)`: `n` counts the **turns** the winning side plays, from the
/// root, up to and including the ply that decides the game; positive when the side to move at
/// the root wins, negative when it loses. For single-ply-turn games (orthodox chess) this is the
/// UCI number `(plies + 1) / 2`. For variants with multi-ply turns, the turns are counted by
/// replaying `pv` from `root` ([`turn::turns_played`]); plies past the end of `pv` count as
/// single-ply turns alternating between the sides.
pub fn to_protocol<G: Game>(s: i32, root: &G, pv: &[G::Move]) -> Score {
    if !is_mate(s) {
        return Score::Cp(s);
    }
    let plies = (MATE - s.abs()).max(0) as usize;
    let winner_is_root = s > 0;
    if plies == 0 {
        return Score::Mate(0);
    }
    if !G::INFO.multi_ply_turns {
        let n = plies.div_ceil(2) as i32;
        return Score::Mate(if winner_is_root { n.max(1) } else { -n });
    }
    let root_side = root.side_to_move();
    let winner = if winner_is_root {
        root_side
    } else {
        !root_side
    };
    let turns = turn::turns_played(root, pv, plies, winner) as i32;
    let n = turns.max(1);
    Score::Mate(if winner_is_root { n } else { -n })
}
