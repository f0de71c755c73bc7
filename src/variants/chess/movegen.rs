//! Legal move generation for orthodox chess: the moves of the orthodox pieces
//! ([`orthodox::movegen`](crate::variants::orthodox::movegen)) and castling, orthodox and
//! Chess960 (see [`castling`](super::castling)).

use super::position::Chess;
use crate::core::{Color, MoveList};
use crate::variants::orthodox::movegen::generate;
use crate::variants::orthodox::{Move, MoveKind};

impl Chess {
    /// Appends every legal move to `list`.
    #[inline]
    pub fn generate_legal(&self, list: &mut MoveList<Move>) {
        let castle = |list: &mut MoveList<Move>, ksq: u8, occ: u64| {
            // Castling (orthodox and Chess960: see `castling`). The King's path is tested
            // with the King and the Rook lifted, as they stand after castling.
            let own_rights = if self.stm == Color::White {
                0b0011
            } else {
                0b1100
            };
            if self.checkers == 0 && self.castling & own_rights != 0 {
                self.generate_castling(list, ksq, occ);
            }
        };
        generate::<false>(&self.board, self.stm, self.checkers, self.ep, list, castle);
    }

    /// Appends the legal captures, en passant captures and queen promotions (the moves
    /// quiescence search tries). When in check, appends every legal move instead.
    #[inline]
    pub fn generate_tactical(&self, list: &mut MoveList<Move>) {
        if self.checkers != 0 {
            // Castling is never an evasion.
            generate::<false>(
                &self.board,
                self.stm,
                self.checkers,
                self.ep,
                list,
                |_, _, _| {},
            );
        } else {
            generate::<true>(
                &self.board,
                self.stm,
                self.checkers,
                self.ep,
                list,
                |_, _, _| {},
            );
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
            if self.board.attackers_to(sq, lifted, !self.stm) != 0 {
                return;
            }
        }
        let king_to = (ksq & 56) | if i & 1 == 0 { 6 } else { 2 };
        list.push(Move::new(ksq, king_to, MoveKind::Castle));
    }
}
