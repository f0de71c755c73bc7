//! Applying an [`Action`] to a [`Board`] of pieces and taking it back: the board part of
//! make/unmake (rules 6, 7, 10). Morphing, reserves, drops, clocks, the en-passant square and
//! the swap-back ban of the next turn are the game's (later issue); this shows the action
//! carries everything the board needs.

use arrayvec::ArrayVec;

use crate::core::Square;

use super::action::{Action, ActionKind};
use super::board::{iter, Board};
use super::piece::{Piece, State};

/// Squares an action touches at most: two legs (4 squares) plus its captures (a Chameleon
/// combination removes at most 3 Long Leapers, a Withdrawer and an Advancer).
pub const MAX_TOUCHED: usize = 12;

/// What [`Board::apply`] changed: the previous contents of every touched square, restored by
/// [`Board::undo`]. On the stack, no allocation.
#[derive(Clone, Debug, Default)]
pub struct Undo {
    saved: ArrayVec<(Square, Option<Piece>), MAX_TOUCHED>,
}

impl Board {
    fn save(&self, u: &mut Undo, sq: Square) {
        if !u.saved.iter().any(|&(s, _)| s == sq) {
            let _ = u.saved.try_push((sq, self.piece(sq)));
        }
    }

    /// Applies `a` (generated on this board) to the pieces: moves the mover (and the swap
    /// partner or slung piece), removes every captured piece, converts a Maoking's target, and
    /// replaces a promoting pawn by `promo` (of the pawn's colour; `None` leaves the pawn).
    /// Returns the record that [`Board::undo`] needs.
    pub fn apply(&mut self, a: &Action, promo: Option<State>) -> Undo {
        let mut u = Undo::default();
        for sq in [a.from, a.to] {
            self.save(&mut u, sq);
        }
        if a.has_second_leg() {
            self.save(&mut u, a.from2);
            self.save(&mut u, a.to2);
        }
        for sq in iter(a.captures) {
            self.save(&mut u, sq);
        }
        let promote = |p: Piece| match (a.promotes, promo) {
            (true, Some(s)) => Piece::new(p.color, s),
            _ => p,
        };
        match a.kind {
            ActionKind::Move => {
                let p = self.remove(a.from);
                for sq in iter(a.captures) {
                    self.remove(sq);
                }
                if let Some(p) = p {
                    self.put(a.to, promote(p));
                }
            }
            ActionKind::Swap => {
                let p = self.remove(a.from);
                let q = self.remove(a.to);
                for sq in iter(a.captures) {
                    self.remove(sq);
                }
                if let Some(p) = p {
                    self.put(a.to, p);
                }
                if let Some(q) = q {
                    self.put(a.from, q);
                }
            }
            ActionKind::Sling => {
                let ox = self.remove(a.from);
                if let Some(ox) = ox {
                    self.put(a.to, ox);
                }
                let slung = self.remove(a.from2);
                for sq in iter(a.captures) {
                    self.remove(sq);
                }
                if let Some(s) = slung {
                    self.put(a.to2, promote(s));
                }
            }
            ActionKind::Shot | ActionKind::MutualDestruction | ActionKind::Suicide => {
                for sq in iter(a.captures) {
                    self.remove(sq);
                }
            }
            ActionKind::Corner => {
                // Cornering belongs to the game (rules 9); the piece board leaves it alone.
            }
            ActionKind::Convert => {
                if let Some(p) = self.piece(a.to) {
                    self.put(a.to, Piece::new(!p.color, p.state));
                }
            }
        }
        u
    }

    /// Takes back the action whose [`Undo`] record is `u` (the board is as before `apply`).
    pub fn undo(&mut self, u: &Undo) {
        for &(sq, p) in u.saved.iter() {
            match p {
                Some(p) => self.put(sq, p),
                None => {
                    self.remove(sq);
                }
            }
        }
    }
}
