//! Legal portion generation (rules/mulligan-stew.md 3-5). There is no check, so every
//! pseudo-legal portion is legal; the only constraints are the portion's square colour, the
//! piece moved in the L portion (D4) and the forced skip (D3).

use super::board::{colour_of, last_rank, ride, Kind, NO_SQ, TABLES};
use super::moves::MulliganStewMove;
use super::position::MulliganStew;
use crate::core::{Color, MoveList, Square};

/// Pushes a move from `from` to each square of `targets`.
#[inline(always)]
fn push_all(list: &mut MoveList<MulliganStewMove>, from: Square, mut targets: u64) {
    while targets != 0 {
        let to = targets.trailing_zeros() as Square;
        targets &= targets - 1;
        list.push(MulliganStewMove::normal(from, to));
    }
}

impl MulliganStew {
    /// Appends the portions of the current position: every legal portion, or with
    /// `tactical_only` the captures, promotions and promotion-only moves. When nothing at all
    /// is legal (and not `tactical_only`) the single portion is the skip `0000` (rules 5).
    /// A decided position (a side without Kings, rules 6) has none.
    pub(crate) fn generate(&self, list: &mut MoveList<MulliganStewMove>, tactical_only: bool) {
        let us = self.side;
        if self.kingless(us) || self.kingless(!us) {
            return;
        }
        let before = list.len();
        let own = self.by_color[us.index()];
        let enemy = self.by_color[(!us).index()];
        let occ = own | enemy;
        let colour = self.portion_squares();
        // rules 5 (D4): the piece moved or placed in the L portion cannot move or be swapped.
        let moved_bb = if self.moved == NO_SQ {
            0
        } else {
            1u64 << self.moved
        };
        let mut movers = own & colour & !moved_bb;
        while movers != 0 {
            let from = movers.trailing_zeros() as Square;
            movers &= movers - 1;
            let fi = from as usize;
            self.piece_portions(
                list,
                from,
                self.board[fi].kind(),
                own,
                enemy,
                moved_bb,
                tactical_only,
            );
        }
        if !tactical_only && self.hand[us.index()] {
            let mut drops = colour & !occ;
            while drops != 0 {
                let to = drops.trailing_zeros() as Square;
                drops &= drops - 1;
                list.push(MulliganStewMove::drop(to));
            }
        }
        if !tactical_only && list.len() == before {
            list.push(MulliganStewMove::SKIP);
        }
    }

    /// The portions of the piece of `kind` on `from` (rules 3): its moves and captures onto
    /// squares not in `own`, the Mage's swaps (not with the piece on `moved_bb`, D4) and the
    /// Pawn's steps, leaps and promotions; with `tactical_only` only captures and promotions.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn piece_portions(
        &self,
        list: &mut MoveList<MulliganStewMove>,
        from: Square,
        kind: Kind,
        own: u64,
        enemy: u64,
        moved_bb: u64,
        tactical_only: bool,
    ) {
        let t = &*TABLES;
        let us = self.side;
        let occ = own | enemy;
        let fi = from as usize;
        let targets_mask = if tactical_only { enemy } else { !own };
        match kind {
            Kind::King => push_all(list, from, t.king[fi] & targets_mask),
            Kind::Queen => push_all(
                list,
                from,
                (ride(&t.rook_rays, from, occ) | ride(&t.bishop_rays, from, occ)) & targets_mask,
            ),
            Kind::Rook => push_all(list, from, ride(&t.rook_rays, from, occ) & targets_mask),
            Kind::Cardinal => push_all(
                list,
                from,
                (t.knight[fi] | ride(&t.bishop_rays, from, occ)) & targets_mask,
            ),
            Kind::Mage => {
                push_all(list, from, t.step[fi] & targets_mask);
                if !tactical_only {
                    // Swap with any piece 1-3 squares away on a queen line (rules 3, D5).
                    let mut partners = t.swap[fi] & occ & !moved_bb;
                    while partners != 0 {
                        let to = partners.trailing_zeros() as Square;
                        partners &= partners - 1;
                        list.push(MulliganStewMove::swap(from, to));
                    }
                }
            }
            Kind::Assassin => {
                // Captures: a diagonal step of 1, or of 2 over an empty middle square.
                let mut caps = t.ferz[fi] & enemy;
                for &(mid, to) in &t.assassin2[fi] {
                    if mid != NO_SQ && occ & (1u64 << mid) == 0 {
                        caps |= enemy & (1u64 << to);
                    }
                }
                push_all(list, from, caps);
                if !tactical_only {
                    // Teleport to any empty square of its colour (never a capture).
                    push_all(list, from, colour_of(from) & !occ);
                }
            }
            Kind::Pawn => self.pawn_moves(list, from, us, enemy, occ, tactical_only),
        }
    }

    /// The portions of White's lone `kind` on `from` of a board holding only it and `others`
    /// (see [`crate::variants::diagram::PieceMoves`]): the generator's own piece portions, the
    /// Mage's swaps left out. The pools are full, so that a Pawn shows its promotions.
    pub(crate) fn lone_piece_moves(
        kind: Kind,
        from: Square,
        others: &[(Square, bool)],
        out: &mut Vec<crate::variants::diagram::Reached>,
    ) {
        use super::board::Piece;
        use super::moves::Action;
        let mut pos = MulliganStew::empty();
        pos.pool = [[1; 5]; 2];
        pos.put(from, Piece::new(Color::White, kind));
        for &(sq, enemy) in others {
            let side = if enemy { Color::Black } else { Color::White };
            pos.put(sq, Piece::new(side, Kind::Rook));
        }
        let own = pos.by_color[0];
        let enemy = pos.by_color[1];
        let mut list = MoveList::new();
        pos.piece_portions(&mut list, from, kind, own, enemy, 0, false);
        for m in list.iter() {
            if m.action() == Some(Action::Swap) {
                continue;
            }
            let captured = if enemy >> m.to() & 1 != 0 {
                1u128 << m.to()
            } else {
                0
            };
            out.push(crate::variants::diagram::Reached {
                to: m.to(),
                captured,
            });
        }
    }

    /// Pawn portions (rules 3, 4): step, leap, diagonal capture; on arrival at the last rank
    /// the choice of staying a Pawn or promoting; frozen on the last rank except for the
    /// promotion-only move.
    #[inline]
    fn pawn_moves(
        &self,
        list: &mut MoveList<MulliganStewMove>,
        from: Square,
        us: Color,
        enemy: u64,
        occ: u64,
        tactical_only: bool,
    ) {
        let last = last_rank(us);
        let fb = 1u64 << from;
        if fb & last != 0 {
            for kind in Kind::POOL {
                if self.can_promote_to(us, kind) {
                    list.push(MulliganStewMove::in_place(from, kind));
                }
            }
            return;
        }
        let (ahead, beyond) = match us {
            Color::White => (from as i32 + 6, from as i32 + 12),
            Color::Black => (from as i32 - 6, from as i32 - 12),
        };
        let mut dests = super::board::pawn_attacks(us, from) & enemy;
        if (0..42).contains(&ahead) {
            if occ & (1u64 << ahead) == 0 {
                dests |= 1u64 << ahead;
            } else if (0..42).contains(&beyond) && occ & (1u64 << beyond) == 0 {
                dests |= 1u64 << beyond;
            }
        }
        while dests != 0 {
            let to = dests.trailing_zeros() as Square;
            dests &= dests - 1;
            let capture = enemy & (1u64 << to) != 0;
            if (1u64 << to) & last != 0 {
                if capture || !tactical_only {
                    list.push(MulliganStewMove::normal(from, to));
                }
                for kind in Kind::POOL {
                    if self.can_promote_to(us, kind) {
                        list.push(MulliganStewMove::promotion(from, to, kind));
                    }
                }
            } else if capture || !tactical_only {
                list.push(MulliganStewMove::normal(from, to));
            }
        }
    }

    /// Whether `m` captures, promotes or is a promotion-only move (what quiescence searches).
    pub(crate) fn is_tactical_move(&self, m: MulliganStewMove) -> bool {
        use super::moves::Action;
        match m.action() {
            Some(Action::Normal) => !self.board[m.to() as usize].is_none(),
            Some(Action::Promotion) | Some(Action::PromoteInPlace) => true,
            _ => false,
        }
    }
}
