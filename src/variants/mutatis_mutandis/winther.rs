//! Mats Winther's pieces (rules 6.2 `OX`, `SE`): the Oxybeles' step with the mandatory sling
//! [D 18], and the Secutor's collide-and-deviate capture [D 17].

use crate::core::Square;

use super::action::{Action, ActionKind, ActionSink};
use super::board::{bit, file_of, forward, iter, rank_of, step, Bb};
use super::generate::{Ctx, Reach};
use super::pawns::promotion_row;
use super::tables::{rook_attacks, tables, Lines, QUEEN_DIRS};

const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Secutor (rules 6.2 `SE`, [D 17]): rook moves to empty squares; capture: slide along an
/// orthogonal d over empty squares to the first piece S (the edge is no screen), then from
/// the square before S (possibly the origin) slide diagonally in d +/- perpendicular over
/// empty squares; the first piece met is the capture candidate (`capture` = occupied squares,
/// whatever their colour).
pub(crate) fn secutor(from: Square, occ: Bb) -> Reach {
    let mut r = Reach {
        quiet: rook_attacks(from, occ) & !occ,
        capture: 0,
    };
    for (df, dr) in ORTH {
        let mut c = from;
        let mut screen = false;
        while let Some(s) = step(c, df, dr) {
            if occ >> s & 1 != 0 {
                screen = true;
                break;
            }
            c = s;
        }
        if !screen {
            continue;
        }
        let perps = if df == 0 {
            [(1, 0), (-1, 0)]
        } else {
            [(0, 1), (0, -1)]
        };
        for (pf, pr) in perps {
            let mut cur = c;
            while let Some(s) = step(cur, df + pf, dr + pr) {
                if occ >> s & 1 != 0 {
                    r.capture |= bit(s);
                    break;
                }
                cur = s;
            }
        }
    }
    r
}

/// Whether a Secutor on `from` has the occupied square `to` as a capture candidate over
/// `occ` (`to` in [`secutor`]'s `capture`), asked alone: the first piece S of each
/// orthogonal direction d is one lookup of the rook's reach, and `to` must then lie on a
/// diagonal leg from the square before S, ahead in d, with nothing between.
pub(crate) fn secutor_captures_onto(from: Square, to: Square, occ: Bb) -> bool {
    let t = tables();
    let (tf, tr) = (file_of(to), rank_of(to));
    for screen in iter(rook_attacks(from, occ) & occ) {
        let (df, dr) = (
            (file_of(screen) - file_of(from)).signum(),
            (rank_of(screen) - rank_of(from)).signum(),
        );
        let Some(c) = step(screen, -df, -dr) else {
            continue;
        };
        let ahead = if df != 0 {
            (tf - file_of(c)) * df > 0
        } else {
            (tr - rank_of(c)) * dr > 0
        };
        if ahead && t.lines.rides(Lines::DIAG, c, to, occ) {
            return true;
        }
    }
    false
}

/// Oxybeles (rules 6.2 `OX`, [D 18]): one step to an empty square, never capturing. If the
/// square behind the origin holds a piece (either colour), it is slung: it travels on in the
/// step direction from beyond the Oxybeles' new square and stops on the first occupied square
/// if that piece is a capturable enemy of the slung piece, else on the last empty square; with
/// no such square it stays put (the action is the bare step). A pawn-family piece stops at its
/// own rank 2 at the latest; ending on its promotion rank it promotes (rules 10).
pub(crate) fn oxybeles<S: ActionSink>(ctx: &Ctx, from: Square, sink: &mut S) {
    let b = ctx.b;
    for (df, dr) in QUEEN_DIRS {
        let to = match step(from, df, dr) {
            Some(s) if ctx.occ & bit(s) == 0 => s,
            _ => continue,
        };
        let slung_sq = step(from, -df, -dr);
        let slung = slung_sq.and_then(|s| b.piece(s).map(|p| (s, p)));
        let (ssq, p) = match slung {
            Some(x) => x,
            None => {
                sink.push(Action::moving(from, to, 0));
                continue;
            }
        };
        // The slung piece's own rank 1 is out of reach for a pawn (rules 6.2 OX).
        let forbidden_row = if p.state.is_pawn() {
            if forward(p.color) > 0 {
                0
            } else {
                7
            }
        } else {
            -1
        };
        let victims = ctx.capturable_by(p.color, p.state);
        let mut landing = None;
        let mut captures = 0;
        let mut cur = to;
        while let Some(s) = step(cur, df, dr) {
            if rank_of(s) == forbidden_row {
                break;
            }
            if ctx.occ & bit(s) != 0 {
                if victims & bit(s) != 0 {
                    landing = Some(s);
                    captures = bit(s);
                }
                break;
            }
            landing = Some(s);
            cur = s;
        }
        match landing {
            None => sink.push(Action::moving(from, to, 0)),
            Some(l) => sink.push(Action {
                kind: ActionKind::Sling,
                from,
                to,
                from2: ssq,
                to2: l,
                promotes: p.state.is_pawn() && rank_of(l) == promotion_row(p.color),
                captures,
            }),
        }
    }
}
