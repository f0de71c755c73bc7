//! Legal move generation for orthodox chess.
//!
//! Fully legal, without make/unmake: King moves are tested against the attacks with the King
//! lifted off the board; other pieces are restricted to the check mask (the checker and the
//! squares between it and the King; nothing under double check) and, when pinned, to the line
//! through their King. En passant, the one move that can expose the King along a rank by
//! removing two pieces, is tested by recomputing the attacks on the King.

use super::attacks::{self, RANK_1, RANK_8};
use super::position::{Chess, NO_EP};
use super::types::{Kind, Move, MoveKind};
use crate::core::{Color, MoveList};

const RANK_3: u64 = 0xFF << 16;
const RANK_6: u64 = 0xFF << 40;

impl Chess {
    /// Appends every legal move to `list`.
    pub fn generate_legal(&self, list: &mut MoveList<Move>) {
        self.generate::<false>(list);
    }

    /// Appends the legal captures, en passant captures and queen promotions (the moves
    /// quiescence search tries). When in check, appends every legal move instead.
    pub fn generate_tactical(&self, list: &mut MoveList<Move>) {
        if self.checkers != 0 {
            self.generate::<false>(list);
        } else {
            self.generate::<true>(list);
        }
    }

    /// Pieces of the side to move pinned to their own King.
    #[inline(always)]
    pub fn pinned(&self) -> u64 {
        let us = self.stm;
        let them = !us;
        let ksq = self.king_sq(us);
        let enemy = self.color_bb(them);
        let rq = self.pieces(them, Kind::Rook) | self.pieces(them, Kind::Queen);
        let bq = self.pieces(them, Kind::Bishop) | self.pieces(them, Kind::Queen);
        let mut snipers = (attacks::rook(ksq, enemy) & rq) | (attacks::bishop(ksq, enemy) & bq);
        let occ = self.occupied();
        let own = self.color_bb(us);
        let mut pinned = 0;
        while snipers != 0 {
            let s = snipers.trailing_zeros() as u8;
            snipers &= snipers - 1;
            let b = attacks::between(ksq, s) & occ;
            if b != 0 && b & (b - 1) == 0 && b & own != 0 {
                pinned |= b;
            }
        }
        pinned
    }

    fn generate<const TACTICAL: bool>(&self, list: &mut MoveList<Move>) {
        let us = self.stm;
        let them = !us;
        let occ = self.occupied();
        let own = self.color_bb(us);
        let enemy = self.color_bb(them);
        let ksq = self.king_sq(us);

        // King moves.
        let king_targets = attacks::king(ksq) & !own & if TACTICAL { enemy } else { !0 };
        let occ_no_king = occ ^ (1u64 << ksq);
        let mut t = king_targets;
        while t != 0 {
            let to = t.trailing_zeros() as u8;
            t &= t - 1;
            if self.attackers_to(to, occ_no_king, them) == 0 {
                list.push(Move::new(ksq, to, MoveKind::Normal));
            }
        }
        let checkers = self.checkers;
        if checkers & (checkers.wrapping_sub(1)) != 0 {
            return; // double check: only the King moves
        }
        let check_mask = if checkers != 0 {
            attacks::between(ksq, checkers.trailing_zeros() as u8) | checkers
        } else {
            !0u64
        };
        let pinned = self.pinned();
        let targets = !own & check_mask & if TACTICAL { enemy } else { !0 };

        // Knights (a pinned knight never moves).
        let mut b = self.pieces(us, Kind::Knight) & !pinned;
        while b != 0 {
            let from = b.trailing_zeros() as u8;
            b &= b - 1;
            push_all(list, from, attacks::knight(from) & targets);
        }
        // Sliders.
        let diag = self.pieces(us, Kind::Bishop) | self.pieces(us, Kind::Queen);
        let orth = self.pieces(us, Kind::Rook) | self.pieces(us, Kind::Queen);
        let mut b = diag;
        while b != 0 {
            let from = b.trailing_zeros() as u8;
            b &= b - 1;
            let mut tg = attacks::bishop(from, occ) & targets;
            if pinned & (1u64 << from) != 0 {
                tg &= attacks::line(ksq, from);
            }
            push_all(list, from, tg);
        }
        let mut b = orth;
        while b != 0 {
            let from = b.trailing_zeros() as u8;
            b &= b - 1;
            let mut tg = attacks::rook(from, occ) & targets;
            if pinned & (1u64 << from) != 0 {
                tg &= attacks::line(ksq, from);
            }
            push_all(list, from, tg);
        }

        self.generate_pawns::<TACTICAL>(list, pinned, check_mask, ksq);

        // Castling (orthodox and Chess960: see `castling`). The King's path is tested with
        // the King and the Rook lifted, as they stand after castling.
        let own_rights = if us == Color::White { 0b0011 } else { 0b1100 };
        if !TACTICAL && checkers == 0 && self.castling & own_rights != 0 {
            self.generate_castling(list, ksq, occ);
        }
    }

    /// Appends the legal castlings of the side to move, whose King on `ksq` is not in check.
    #[inline(always)]
    fn generate_castling(&self, list: &mut MoveList<Move>, ksq: u8, occ: u64) {
        let first = if self.stm == Color::White { 0 } else { 2 };
        self.push_castling(list, first, ksq, occ);
        self.push_castling(list, first + 1, ksq, occ);
    }

    /// Appends the castling of right `i` (0..4: see `CastlingSetup`) when it is legal; the
    /// King on `ksq` is not in check.
    #[inline(always)]
    fn push_castling(&self, list: &mut MoveList<Move>, i: usize, ksq: u8, occ: u64) {
        let i = i & 3;
        let setup = &self.castling_setup;
        if self.castling & (1 << i) == 0 || occ & setup.path[i] != 0 {
            return;
        }
        let lifted = occ ^ (1u64 << ksq) ^ (1u64 << setup.rook_from[i]);
        let mut path = setup.king_path[i];
        while path != 0 {
            let sq = path.trailing_zeros() as u8;
            path &= path - 1;
            if self.attackers_to(sq, lifted, !self.stm) != 0 {
                return;
            }
        }
        let king_to = (ksq & 56) | if i & 1 == 0 { 6 } else { 2 };
        list.push(Move::new(ksq, king_to, MoveKind::Castle));
    }

    #[inline(always)]
    fn generate_pawns<const TACTICAL: bool>(
        &self,
        list: &mut MoveList<Move>,
        pinned: u64,
        check_mask: u64,
        ksq: u8,
    ) {
        let us = self.stm;
        let them = !us;
        let occ = self.occupied();
        let empty = !occ;
        let enemy = self.color_bb(them);
        let pawns = self.pieces(us, Kind::Pawn);
        let (promo_rank, double_rank) = match us {
            Color::White => (RANK_8, RANK_3),
            Color::Black => (RANK_1, RANK_6),
        };
        let up = |b: u64| if us == Color::White { b << 8 } else { b >> 8 };
        // Offset from destination back to origin for each shift.
        let back: i8 = if us == Color::White { -8 } else { 8 };
        let free = pawns & !pinned;

        // Pushes of unpinned pawns.
        let single = up(free) & empty;
        let double = up(single & double_rank) & empty & check_mask;
        let single = single & check_mask;
        let promos = single & promo_rank;
        let quiet = single & !promo_rank;
        if !TACTICAL {
            push_shifted(list, quiet, back, MoveKind::Normal);
            push_shifted(list, double, 2 * back, MoveKind::DoublePush);
        }
        push_promotions::<TACTICAL>(list, promos, back);

        // Captures of unpinned pawns, by direction (file shift of -1 / +1).
        let not_a = !attacks::FILE_A;
        let not_h = !attacks::FILE_H;
        let caps_targets = enemy & check_mask;
        let (left, right): (u64, u64) = match us {
            Color::White => ((free & not_a) << 7, (free & not_h) << 9),
            Color::Black => ((free & not_a) >> 9, (free & not_h) >> 7),
        };
        let (back_l, back_r): (i8, i8) = match us {
            Color::White => (-7, -9),
            Color::Black => (9, 7),
        };
        for (caps, bk) in [
            (left & caps_targets, back_l),
            (right & caps_targets, back_r),
        ] {
            push_shifted(list, caps & !promo_rank, bk, MoveKind::Normal);
            push_promotions::<false>(list, caps & promo_rank, bk);
        }

        // Pinned pawns move only along their pin line (never while in check).
        if self.checkers == 0 {
            let mut b = pawns & pinned;
            while b != 0 {
                let from = b.trailing_zeros() as u8;
                b &= b - 1;
                let allowed = attacks::line(ksq, from);
                let caps = attacks::pawn(us, from) & enemy & allowed;
                let mut c = caps;
                while c != 0 {
                    let to = c.trailing_zeros() as u8;
                    c &= c - 1;
                    if (1u64 << to) & promo_rank != 0 {
                        push_promotions::<false>(list, 1u64 << to, from as i8 - to as i8);
                    } else {
                        list.push(Move::new(from, to, MoveKind::Normal));
                    }
                }
                if TACTICAL {
                    continue;
                }
                let one = up(1u64 << from) & empty & allowed;
                if one != 0 {
                    let to = one.trailing_zeros() as u8;
                    if one & promo_rank != 0 {
                        push_promotions::<false>(list, one, from as i8 - to as i8);
                    } else {
                        list.push(Move::new(from, to, MoveKind::Normal));
                        let two = up(one & double_rank) & empty;
                        if two != 0 {
                            list.push(Move::new(
                                from,
                                two.trailing_zeros() as u8,
                                MoveKind::DoublePush,
                            ));
                        }
                    }
                }
            }
        }

        // En passant: verify by recomputing the attacks on the King.
        if self.ep != NO_EP {
            let ep = self.ep;
            let cap_sq = ep ^ 8;
            let mut c = attacks::pawn(them, ep) & pawns;
            while c != 0 {
                let from = c.trailing_zeros() as u8;
                c &= c - 1;
                let after = occ ^ (1u64 << from) ^ (1u64 << cap_sq) ^ (1u64 << ep);
                let attackers = self.attackers_to(ksq, after, them) & !(1u64 << cap_sq);
                if attackers == 0 {
                    list.push(Move::new(from, ep, MoveKind::EnPassant));
                }
            }
        }
    }
}

#[inline(always)]
fn push_all(list: &mut MoveList<Move>, from: u8, mut targets: u64) {
    while targets != 0 {
        let to = targets.trailing_zeros() as u8;
        targets &= targets - 1;
        list.push(Move::new(from, to, MoveKind::Normal));
    }
}

#[inline(always)]
fn push_shifted(list: &mut MoveList<Move>, mut targets: u64, back: i8, kind: MoveKind) {
    while targets != 0 {
        let to = targets.trailing_zeros() as u8;
        targets &= targets - 1;
        list.push(Move::new((to as i8 + back) as u8, to, kind));
    }
}

#[inline(always)]
fn push_promotions<const QUEEN_ONLY: bool>(list: &mut MoveList<Move>, mut targets: u64, back: i8) {
    while targets != 0 {
        let to = targets.trailing_zeros() as u8;
        targets &= targets - 1;
        let from = (to as i8 + back) as u8;
        list.push(Move::new(from, to, MoveKind::PromoQueen));
        if !QUEEN_ONLY {
            list.push(Move::new(from, to, MoveKind::PromoRook));
            list.push(Move::new(from, to, MoveKind::PromoBishop));
            list.push(Move::new(from, to, MoveKind::PromoKnight));
        }
    }
}

/// Kind of the piece standing on the from-square of a move (for ordering and SEE).
pub fn moving_kind(pos: &Chess, m: Move) -> Kind {
    pos.piece_at(m.from()).kind()
}
