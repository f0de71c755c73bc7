//! The Chameleon (rules 7.2, [D 16]): passive queen move; captures by mimicking its victim.
//!
//! (a) displacement mimicry: lands on an enemy V using V's own capturing pattern (with the
//! Chameleon owner's forward); (b) one queen-line move jumping enemy Long Leapers, withdrawing
//! from an adjacent enemy Withdrawer and approaching an enemy Advancer, all combined and
//! mandatory; (c) swap with an enemy Swapper (combined with withdrawal from the origin and
//! approach from the Swapper's square), or mutual destruction with an adjacent one; (d) shoot
//! an enemy Archer under Archer rules; (e) freezing of adjacent enemy Immobilizers is in
//! [`Board::frozen`](super::board::Board::frozen). Never captures a Chameleon, Immobilizer,
//! Shield, Wuss, Mamra, Maoking, Oxybeles or an immune piece.

use crate::core::{Color, Square};

use super::action::{Action, ActionKind, ActionSink};
use super::board::{bit, iter, Bb};
use super::generate::{captures_onto, reach_of, Ctx};
use super::piece::State;
use super::rococo::{next, opposite, shots, swap_banned};
use super::tables::tables;

/// Whether an enemy in `state` can be captured by displacement mimicry (7.2 a).
pub const fn mimicked_by_displacement(state: State) -> bool {
    use State::*;
    !matches!(
        state,
        Chameleon
            | Immobilizer
            | Shield
            | Wuss
            | Mamra
            | Maoking
            | Oxybeles
            | LongLeaper
            | Withdrawer
            | Advancer
            | Swapper
            | Archer
    )
}

/// Whether a Chameleon of `color` on `from` removes the enemy piece in `victim` state on `to`
/// over `occ`, when that is one test (rules 7.2): by displacement mimicry for the states it
/// mimics (`capturable`: the victim is neither Shield-protected nor a Mamra), never for the
/// excluded states; `None` for Long Leapers, Withdrawers, Advancers, Swappers and Archers,
/// whose capture depends on the Chameleon's whole line ([`generate`] answers).
#[inline]
pub(crate) fn captures(
    victim: State,
    color: Color,
    from: Square,
    to: Square,
    occ: Bb,
    capturable: bool,
) -> Option<bool> {
    use State::*;
    match victim {
        LongLeaper | Withdrawer | Advancer | Swapper | Archer => None,
        _ if mimicked_by_displacement(victim) => {
            Some(capturable && captures_onto(victim, color, from, to, occ))
        }
        _ => Some(false),
    }
}

/// All Chameleon actions from `from` (the caller has checked it is not frozen).
pub(crate) fn generate<S: ActionSink>(ctx: &Ctx, from: Square, sink: &mut S) {
    let b = ctx.b;
    let them = !ctx.us;
    // Mimicry never takes Mamras (excluded) and never immune pieces.
    let victims = ctx.capturable(State::Chameleon);
    let of = |s: State| b.pieces(them, s) & victims;
    let (lls, wis, ads, sws, acs) = (
        of(State::LongLeaper),
        of(State::Withdrawer),
        of(State::Advancer),
        of(State::Swapper),
        of(State::Archer),
    );
    let t = tables();
    // (b) and (c): queen lines. Their captures are jumped Long Leapers, withdrawn-from
    // Withdrawers and approached Advancers: a sink that wants none of those skips them.
    let line_victims = lls | wis | ads;
    let lines = !sink.captures_only() || line_victims & sink.targets() != 0;
    for d in (0..8).filter(|_| lines) {
        let withdrawn = match next(from, opposite(d)) {
            Some(v) if wis & bit(v) != 0 => bit(v),
            _ => 0,
        };
        let approach = |s: Square| -> Bb {
            match next(s, d) {
                Some(v) if ads & bit(v) != 0 => bit(v),
                _ => 0,
            }
        };
        let ray = t.queen.ray(d, from);
        let mut jumped: Bb = 0;
        let mut i = 0;
        while i < ray.len() {
            let s = ray[i];
            if ctx.occ & bit(s) == 0 {
                sink.push(Action::moving(from, s, jumped | withdrawn | approach(s)));
                i += 1;
                continue;
            }
            if lls & bit(s) != 0 && i + 1 < ray.len() && ctx.occ & bit(ray[i + 1]) == 0 {
                jumped |= bit(s);
                i += 1;
                continue;
            }
            // The first piece met without a jump: an enemy Swapper can be swapped with.
            if jumped == 0
                && b.pieces(them, State::Swapper) & bit(s) != 0
                && !swap_banned(b, from, s)
            {
                sink.push(Action::swap(from, s, withdrawn | approach(s)));
            }
            break;
        }
    }
    // (c) mutual destruction with an adjacent enemy Swapper.
    let mut adj = t.king.attacks(from) & sws;
    while adj != 0 {
        let v = adj.trailing_zeros() as Square;
        adj &= adj - 1;
        sink.push(Action::one_leg(
            ActionKind::MutualDestruction,
            from,
            v,
            bit(v) | bit(from),
        ));
    }
    // (d) shooting Archers.
    if acs != 0 {
        shots(ctx, from, acs, sink);
    }
    // (a) displacement mimicry, one victim state at a time.
    let mut enemies = ctx.enemy & victims & sink.targets();
    while enemies != 0 {
        let v = enemies.trailing_zeros() as Square;
        let state = match b.piece(v) {
            Some(p) => p.state,
            None => break,
        };
        let same = b.pieces(them, state) & victims;
        enemies &= !same;
        if !mimicked_by_displacement(state) {
            continue;
        }
        if sink.captures_only() {
            // The attack query: a target or two, each asked alone.
            for to in iter(same & sink.targets()) {
                if captures_onto(state, ctx.us, from, to, ctx.occ) {
                    sink.push(Action::moving(from, to, bit(to)));
                }
            }
        } else if let Some(r) = reach_of(state, ctx.us, from, ctx.occ) {
            let mut hits = r.capture & same;
            while hits != 0 {
                let to = hits.trailing_zeros() as Square;
                hits &= hits - 1;
                sink.push(Action::moving(from, to, bit(to)));
            }
        }
    }
}
