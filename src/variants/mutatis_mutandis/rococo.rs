//! The Rococo pieces' capture mechanisms (rules 6.2): Long Leaper (capture by overtaking),
//! Withdrawer (withdrawal), Advancer (approach), Swapper (swap, mutual destruction, swap-back
//! ban 7.3) and Archer (shooting with spotters). Immobilizer, Shield and Wuss only make the
//! passive queen move, which is the plain generator's. Edge restrictions do not apply (rules 1).

use crate::core::Square;

use super::action::{Action, ActionKind, ActionSink};
use super::board::{bit, file_of, rank_of, Bb, Board};
use super::generate::Ctx;
use super::piece::State;
use super::tables::{tables, Lines};

/// Index of the opposite queen direction.
#[inline(always)]
pub(crate) const fn opposite(d: usize) -> usize {
    (d + 4) & 7
}

/// The square next to `sq` in queen direction `d`, if any.
#[inline(always)]
pub(crate) fn next(sq: Square, d: usize) -> Option<Square> {
    tables().queen.ray(d, sq).first().copied()
}

/// The queen direction (index of [`QUEEN_DIRS`](super::tables::QUEEN_DIRS)) from `from` to `to`, when they share a
/// rank, file or diagonal (and differ).
#[inline(always)]
fn direction(from: Square, to: Square) -> Option<usize> {
    // Indexed by (sign of the file step + 1) * 3 + (sign of the row step + 1).
    const BY_SIGNS: [usize; 9] = [5, 4, 3, 6, 8, 2, 7, 0, 1];
    let (df, dr) = (file_of(to) - file_of(from), rank_of(to) - rank_of(from));
    if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    Some(BY_SIGNS[((df.signum() + 1) * 3 + dr.signum() + 1) as usize])
}

/// Whether the Rococo piece in `state` (`LL`, `WI`, `AD` or `SW`) on `from` removes the piece
/// on `to` by some action over occupancy `occ` (rules 6.2), where `victims` are the pieces it
/// may capture (the capturable enemies: not Shield-protected, not a Mamra, rules 7.4): by a
/// long leap, a withdrawal, an approach or a mutual destruction. The one-target form of
/// [`long_leaper`], [`withdrawer`], [`advancer`] and [`swapper`] (swaps remove nothing); the
/// piece is not frozen. `None` for the other states.
#[inline]
pub(crate) fn removes(
    state: State,
    from: Square,
    to: Square,
    occ: Bb,
    victims: Bb,
) -> Option<bool> {
    if !matches!(
        state,
        State::LongLeaper | State::Withdrawer | State::Advancer | State::Swapper
    ) {
        return None;
    }
    if victims & bit(to) == 0 {
        return Some(false);
    }
    let t = tables();
    Some(match state {
        State::Swapper => t.king.attacks(from) & bit(to) != 0,
        State::Withdrawer => match direction(from, to) {
            Some(d) if next(from, d) == Some(to) => {
                next(from, opposite(d)).is_some_and(|s| occ & bit(s) == 0)
            }
            _ => false,
        },
        State::Advancer => {
            t.lines.rides(Lines::ORTH | Lines::DIAG, from, to, occ)
                && t.king.attacks(from) & bit(to) == 0
        }
        State::LongLeaper => {
            let Some(d) = direction(from, to) else {
                return Some(false);
            };
            let ray = t.queen.ray(d, from);
            // Each piece on the way is jumped: a victim, with an empty square right after it.
            let mut after_piece = false;
            for (i, &s) in ray.iter().enumerate() {
                if s == to {
                    return Some(
                        !after_piece && ray.get(i + 1).is_some_and(|&n| occ & bit(n) == 0),
                    );
                }
                if occ & bit(s) != 0 {
                    if after_piece || victims & bit(s) == 0 {
                        return Some(false);
                    }
                    after_piece = true;
                } else {
                    after_piece = false;
                }
            }
            false
        }
        _ => false,
    })
}

/// Long Leaper (rules 6.2 `LL`): along one queen line it jumps enemy pieces that each have an
/// empty square right after them (never a friendly or immune piece, never two adjacent
/// pieces), capturing every jumped piece, and stops on any empty square after the last jump.
pub(crate) fn long_leaper<S: ActionSink>(ctx: &Ctx, from: Square, sink: &mut S) {
    let victims = ctx.capturable(State::LongLeaper);
    for d in 0..8 {
        let ray = tables().queen.ray(d, from);
        let mut jumped: Bb = 0;
        let mut i = 0;
        while i < ray.len() {
            let s = ray[i];
            if ctx.occ & bit(s) == 0 {
                sink.push(Action::moving(from, s, jumped));
                i += 1;
                continue;
            }
            let jumpable =
                victims & bit(s) != 0 && i + 1 < ray.len() && ctx.occ & bit(ray[i + 1]) == 0;
            if !jumpable {
                break;
            }
            jumped |= bit(s);
            i += 1;
        }
    }
}

/// Withdrawer (rules 6.2 `WI`): queen move to an empty square; the capturable enemy piece
/// adjacent to the origin opposite to the move direction is captured (mandatory).
pub(crate) fn withdrawer<S: ActionSink>(ctx: &Ctx, from: Square, sink: &mut S) {
    let victims = ctx.capturable(State::Withdrawer);
    for d in 0..8 {
        let captured = match next(from, opposite(d)) {
            Some(v) if victims & bit(v) != 0 => bit(v),
            _ => 0,
        };
        if captured == 0 && sink.captures_only() {
            continue;
        }
        for &s in tables().queen.ray(d, from) {
            if ctx.occ & bit(s) != 0 {
                break;
            }
            sink.push(Action::moving(from, s, captured));
        }
    }
}

/// Advancer (rules 6.2 `AD`): queen move to an empty square S; the capturable enemy piece on
/// the next square beyond S in the move direction is captured (mandatory).
pub(crate) fn advancer<S: ActionSink>(ctx: &Ctx, from: Square, sink: &mut S) {
    let victims = ctx.capturable(State::Advancer);
    for d in 0..8 {
        let ray = tables().queen.ray(d, from);
        for (i, &s) in ray.iter().enumerate() {
            if ctx.occ & bit(s) != 0 {
                break;
            }
            let captured = match ray.get(i + 1) {
                Some(&v) if victims & bit(v) != 0 => bit(v),
                _ => 0,
            };
            sink.push(Action::moving(from, s, captured));
        }
    }
}

/// Whether the swap between the pieces on `a` and `b` is barred by the swap-back ban (7.3).
#[inline(always)]
pub(crate) fn swap_banned(board: &Board, a: Square, b: Square) -> bool {
    matches!(board.swap_ban, Some((x, y)) if (x == a && y == b) || (x == b && y == a))
}

/// Swapper (rules 6.2 `SW`): (a) queen move to an empty square; (b) swap with the first piece
/// (either colour, royals included) on each queen line, unless banned (7.3); (c) mutual
/// destruction with an adjacent capturable enemy piece.
pub(crate) fn swapper<S: ActionSink>(ctx: &Ctx, from: Square, sink: &mut S) {
    let victims = ctx.capturable(State::Swapper);
    for d in 0..8 {
        for &s in tables().queen.ray(d, from) {
            if ctx.occ & bit(s) == 0 {
                sink.push(Action::moving(from, s, 0));
                continue;
            }
            if !swap_banned(ctx.b, from, s) {
                sink.push(Action::swap(from, s, 0));
            }
            break;
        }
    }
    let mut adj = tables().king.attacks(from) & victims;
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
}

/// Whether a piece of the shooter's side other than the shooter spots `target` (rules 6.2
/// `AC`): adjacent to it, or two squares away on a queen line with the middle square empty.
/// Frozen pieces spot too.
pub(crate) fn spotted(ctx: &Ctx, shooter: Square, target: Square) -> bool {
    let friends = ctx.own & !bit(shooter);
    if tables().king.attacks(target) & friends != 0 {
        return true;
    }
    for d in 0..8 {
        let ray = tables().queen.ray(d, target);
        if ray.len() >= 2 && ctx.occ & bit(ray[0]) == 0 && friends & bit(ray[1]) != 0 {
            return true;
        }
    }
    false
}

/// Shots of a shooter on `from` (Archer, or a Chameleon shooting an Archer): on each queen line
/// the first piece, if it is in `targets`, at distance 1-2, or farther when spotted.
pub(crate) fn shots<S: ActionSink>(ctx: &Ctx, from: Square, targets: Bb, sink: &mut S) {
    let targets = targets & sink.targets();
    let queen = &tables().queen;
    for d in 0..8 {
        if queen.ray_mask(d, from) & targets == 0 {
            continue;
        }
        for (i, &s) in queen.ray(d, from).iter().enumerate() {
            if ctx.occ & bit(s) == 0 {
                continue;
            }
            if targets & bit(s) != 0 && (i < 2 || spotted(ctx, from, s)) {
                sink.push(Action::one_leg(ActionKind::Shot, from, s, bit(s)));
            }
            break;
        }
    }
}

/// Whether an Archer of `ctx.us` on `from` shoots the piece on `to` (capturability aside,
/// rules 6.2 `AC`): `to` is the first piece on a queen line from `from`, at distance 1-2, or
/// farther and spotted. The one-target form of [`shots`].
pub(crate) fn shoots(ctx: &Ctx, from: Square, to: Square) -> bool {
    if !tables()
        .lines
        .rides(Lines::ORTH | Lines::DIAG, from, to, ctx.occ)
    {
        return false;
    }
    let distance = (file_of(from) - file_of(to))
        .abs()
        .max((rank_of(from) - rank_of(to)).abs());
    distance <= 2 || spotted(ctx, from, to)
}

/// Archer (rules 6.2 `AC`): queen move to an empty square, or a shot at a capturable enemy piece
/// (see [`shots`]); a frozen Archer does nothing (the caller skips frozen pieces).
pub(crate) fn archer<S: ActionSink>(ctx: &Ctx, from: Square, sink: &mut S) {
    queen_moves(ctx, from, sink);
    shots(ctx, from, ctx.capturable(State::Archer), sink);
}

/// Passive queen moves to empty squares.
pub(crate) fn queen_moves<S: ActionSink>(ctx: &Ctx, from: Square, sink: &mut S) {
    if sink.captures_only() {
        return;
    }
    for d in 0..8 {
        for &s in tables().queen.ray(d, from) {
            if ctx.occ & bit(s) != 0 {
                break;
            }
            sink.push(Action::moving(from, s, 0));
        }
    }
}
