//! Legal turns (rules/mutatis-mutandis.md 4, 5, 8, 9): the piece library's actions, plus
//! cornering, paired with the drop choices, kept when none of the mover's royal pieces is
//! attacked after action, promotion, morph and drop; Wuss compulsion; mandatory drops.
//!
//! Cost: one pass over the pseudo-legal actions, each played on a scratch copy of the board
//! of pieces by the same writer as `make` (`position::play_turn`) and taken back. A drop
//! can only add attacks on the mover's royals as a screen of an enemy Paovao, Cannon Pawn or
//! Secutor (every other capture mechanism is only blocked by an extra piece of the mover:
//! rules 6, 7), so when the drop-less turn is legal, a drop square is tested again only
//! when such a piece could use it.

use crate::core::{Color, Square};

use super::action::{Action, ActionKind, ActionList, NO_SQUARE};
use super::board::{bit, iter, Bb, Board};
use super::generate::{attack_candidates, attacked, attacked_by, generate};
use super::piece::{Piece, State};
use super::position::{
    corner_plan, flag, home_bb, play_turn, unwrite, DropWindow, Mutatis, TurnEffect, MAX_WRITES,
};
use super::tables::tables;
use super::turn::{Turn, TurnList};

/// The royal pieces of `c` (rules 5): King, Maoking, and a piece in the Wuss state.
#[inline(always)]
pub fn royals(b: &Board, c: Color) -> Bb {
    b.pieces(c, State::King) | b.pieces(c, State::Maoking) | b.pieces(c, State::Wuss)
}

/// Whether some royal piece of `c` is attacked (rules 5).
#[inline]
pub fn royal_attacked(b: &Board, c: Color) -> bool {
    iter(royals(b, c)).any(|sq| attacked(b, sq))
}

/// The mover's royal pieces with their potential attackers, taken once per position: after a
/// turn that leaves the royals where they stood, only these pieces and the pieces on the
/// squares the turn touched can attack them (enemy pieces change only there).
struct RoyalWatch {
    royals: Bb,
    watch: [(Square, Bb); 4],
    n: usize,
}

impl RoyalWatch {
    fn new(b: &Board, us: Color) -> RoyalWatch {
        let mut w = RoyalWatch {
            royals: royals(b, us),
            watch: [(0, 0); 4],
            n: 0,
        };
        for sq in iter(w.royals) {
            if w.n == w.watch.len() {
                break;
            }
            w.watch[w.n] = (sq, attack_candidates(b, sq));
            w.n += 1;
        }
        w
    }

    /// Whether a royal of `us` is attacked on `after`, a board that differs from the watched
    /// one only on the squares of `touched`.
    #[inline]
    fn attacked_after(&self, after: &Board, us: Color, touched: Bb) -> bool {
        if royals(after, us) != self.royals || self.n < self.royals.count_ones() as usize {
            return royal_attacked(after, us);
        }
        self.watch[..self.n]
            .iter()
            .any(|&(sq, cand)| attacked_by(after, sq, cand | touched))
    }
}

/// The squares an action writes (its legs and captures).
#[inline(always)]
fn touched(a: &Action) -> Bb {
    let mut t = bit(a.from) | bit(a.to) | a.captures;
    if a.from2 != NO_SQUARE {
        t |= bit(a.from2) | bit(a.to2);
    }
    if a.kind == ActionKind::Corner {
        if let Some((kt, pt, _, _)) = corner_plan(a.from, a.to) {
            t |= bit(kt) | bit(pt);
        }
    }
    t
}

/// Squares on a queen line through any square of `set` (the set itself included).
fn queen_lines(set: Bb) -> Bb {
    let t = tables();
    iter(set).fold(set, |m, sq| m | t.queen.rider_attacks(sq, 0))
}

/// Undo log of the scratch board (squares and previous pieces, newest last).
struct Log {
    writes: [(Square, Option<Piece>); MAX_WRITES],
    n: usize,
}

impl Mutatis {
    /// The attacked Wusses of the side to move: when not empty, the turn's action must be made
    /// by one of them (rules 5, Wuss compulsion).
    pub(crate) fn compelled_wusses(&self) -> Bb {
        let b = &self.board;
        iter(b.pieces(self.side, State::Wuss))
            .filter(|&sq| attacked(b, sq))
            .fold(0, |m, sq| m | bit(sq))
    }

    /// Appends the cornering actions of the side to move (rules 9, [D 15], [D 20], [D 21]):
    /// King (state `K`) and corner piece unmoved by their flags and not frozen, the King not in
    /// check, the table's squares empty, and its start and passed squares not attacked. Legality
    /// after the turn is the caller's test.
    fn corner_actions(&self, scratch: &mut Board, out: &mut ActionList) {
        let us = self.side;
        let (fk, fa, fh) = flag::of(us.index());
        if self.corner & fk == 0 {
            return;
        }
        let b = &self.board;
        let kings = b.pieces(us, State::King) & home_bb(us);
        if kings.count_ones() != 1 {
            return;
        }
        let king = kings.trailing_zeros() as Square;
        let frozen = b.frozen(us);
        if frozen & bit(king) != 0 || attacked(b, king) {
            return;
        }
        let row = king & !7;
        for (corner, f) in [(row, fa), (row + 7, fh)] {
            if self.corner & f == 0 || b.color_bb(us) & bit(corner) == 0 {
                continue;
            }
            if frozen & bit(corner) != 0 {
                continue;
            }
            let Some((_, _, empty, safe)) = corner_plan(king, corner) else {
                continue;
            };
            if b.occupied() & empty != 0 {
                continue;
            }
            // [D 20]: each passed square, with the King moved there and its origin emptied.
            let k = b.piece(king);
            let passed_attacked = iter(safe & !bit(king)).any(|p| {
                scratch.remove(king);
                if let Some(k) = k {
                    scratch.put(p, k);
                }
                let hit = attacked(scratch, p);
                scratch.remove(p);
                if let Some(k) = k {
                    scratch.put(king, k);
                }
                hit
            });
            if !passed_attacked {
                // A full list drops it, never panics; the caller sees the list full.
                let _ = out.try_push(Action {
                    kind: ActionKind::Corner,
                    from: king,
                    to: corner,
                    from2: NO_SQUARE,
                    to2: NO_SQUARE,
                    promotes: false,
                    captures: 0,
                });
            }
        }
    }

    /// Appends the legal turns of the side to move to `out` (rules 4, 5, 8, 9). With
    /// `tactical_only`, only turns whose action captures, promotes or converts (for quiescence),
    /// each still legal; a mandatory drop is then still honoured exactly.
    ///
    /// Returns false when a fixed-capacity list (the actions, or `out`) was filled, so that
    /// turns may be missing ([`Mutatis::turns_fit`]); the FEN reader refuses such positions.
    /// `out` is a [`TurnList`] (`N` = [`MAX_TURNS`](super::turn::MAX_TURNS)) but for tests.
    pub(crate) fn generate_turns<const N: usize>(
        &self,
        out: &mut arrayvec::ArrayVec<Turn, N>,
        tactical_only: bool,
    ) -> bool {
        let us = self.side;
        let b = &self.board;
        let mut actions = ActionList::new();
        generate(b, us, &mut actions);
        let mut scratch = b.clone();
        let compelled = self.compelled_wusses();
        if compelled == 0 {
            self.corner_actions(&mut scratch, &mut actions);
        }
        let window = self.drop_window(us);
        // With a mandatory drop, whether any legal turn drops decides which turns are legal,
        // so quiescence generates everything and filters at the end.
        let filter_tactical = tactical_only && window == DropWindow::Mandatory;
        let tactical_only = tactical_only && !filter_tactical;
        let own_royals = royals(b, us);
        let watch = RoyalWatch::new(b, us);
        let start = out.len();
        let mut any_drop = false;
        // A full list drops the surplus (never panics); the return value says so.
        let mut overflow = false;
        let mut log = Log {
            writes: [(0, None); MAX_WRITES],
            n: 0,
        };
        let reserve = &self.reserve[us.index()];
        for a in actions.iter() {
            if compelled != 0 && compelled & bit(a.from) == 0 {
                continue;
            }
            // [D 25]: a turn may not remove the mover's own royal piece (a sling can).
            if a.captures & own_royals != 0 {
                continue;
            }
            if tactical_only && !is_tactical_action(a) {
                continue;
            }
            let promoting = self.promoting_piece(a);
            let promo = match promoting {
                Some(p) => self.promotion_state(p.color),
                None => State::Queen,
            };
            // [D 26]: a promotion of the mover's pawn takes the last reserve piece first.
            let used = promoting.is_some_and(|p| p.color == us && !reserve.is_empty()) as usize;
            let drop_piece = match window {
                DropWindow::Closed => None,
                _ if reserve.len() > used => reserve.first().map(|s| Piece::new(us, s)),
                _ => None,
            };
            let effect = TurnEffect {
                action: *a,
                promo,
                drop: None,
            };
            log.n = 0;
            play_turn(&mut scratch, &effect, &mut |sq, old, _| {
                log.writes[log.n] = (sq, old);
                log.n += 1;
            });
            let written = touched(a);
            let safe = !watch.attacked_after(&scratch, us, written);
            if let Some(dp) = drop_piece {
                let empties = home_bb(us) & !scratch.occupied();
                if empties != 0 {
                    let them = !us;
                    let recheck_all =
                        !safe || dp.state.is_royal() || scratch.pieces(them, State::Secutor) != 0;
                    let screens = scratch.pieces(them, State::Paovao)
                        | scratch.pieces(them, State::CannonPawn);
                    let lines = if screens != 0 {
                        queen_lines(royals(&scratch, us))
                    } else {
                        0
                    };
                    for s in iter(empties) {
                        let ok = if !recheck_all && lines & bit(s) == 0 {
                            true
                        } else {
                            scratch.put(s, dp);
                            let ok = !watch.attacked_after(&scratch, us, written | bit(s));
                            scratch.remove(s);
                            ok
                        };
                        if ok {
                            overflow |= out.try_push(Turn::new(*a, s)).is_err();
                            any_drop = true;
                        }
                    }
                }
            }
            if safe {
                overflow |= out.try_push(Turn::new(*a, NO_SQUARE)).is_err();
            }
            unwrite(&mut scratch, &log.writes[..log.n]);
        }
        let complete = !overflow && !actions.is_full();
        if window == DropWindow::Mandatory && any_drop {
            // rules 8: a drop is possible, so every legal turn makes it.
            let mut i = start;
            while i < out.len() {
                if out[i].has_drop() {
                    i += 1;
                } else {
                    out.swap_remove(i);
                }
            }
        }
        if filter_tactical {
            let mut i = start;
            while i < out.len() {
                if is_tactical_action(&out[i].action) {
                    i += 1;
                } else {
                    out.swap_remove(i);
                }
            }
        }
        complete
    }

    /// Whether every legal turn of the position fits the turn list
    /// ([`MAX_TURNS`](super::turn::MAX_TURNS) turns, from at most
    /// [`MAX_ACTIONS`](super::action::MAX_ACTIONS) actions), so that the generator lists them
    /// all. Real games stay far below (`tests/mutatis_game.rs`); only a constructed FEN
    /// crowded with pieces could reach it.
    pub fn turns_fit(&self) -> bool {
        let mut list = TurnList::new();
        self.generate_turns(&mut list, false)
    }

    /// Whether the side to move has a royal piece attacked (rules 5: check, or an attacked
    /// Wuss).
    pub fn royal_in_danger(&self) -> bool {
        match self.danger.get() {
            1 => false,
            2 => true,
            _ => {
                let d = royal_attacked(&self.board, self.side);
                self.danger.set(1 + d as u8);
                d
            }
        }
    }
}

/// Whether an action captures, promotes or converts (what quiescence searches).
#[inline(always)]
pub fn is_tactical_action(a: &Action) -> bool {
    a.captures != 0 || a.promotes || a.kind == ActionKind::Convert
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Rules;

    /// Issue 57 point 6: a full list is reported, so that no position is used with legal turns
    /// missing. (No position over the 4096 turns of a [`TurnList`] is known: a search for
    /// crowded boards of Swappers and riders found at most 3736, so a shorter list shows it.)
    #[test]
    fn a_full_turn_list_is_reported() {
        let start = Mutatis::startpos();
        let mut all = TurnList::new();
        assert!(start.generate_turns(&mut all, false));
        assert_eq!(all.len(), 24);
        assert!(start.turns_fit());
        // One turn too many for the list: reported (and no panic); exactly full is complete.
        let mut short = arrayvec::ArrayVec::<Turn, 23>::new();
        assert!(!start.generate_turns(&mut short, false));
        assert_eq!(short.len(), 23);
        let mut exact = arrayvec::ArrayVec::<Turn, 24>::new();
        assert!(start.generate_turns(&mut exact, false));
    }
}
