//! Legal move generation of Muster Chess: the orthodox generator of the board (pieces, captures,
//! single pushes, pushes of two from the second rank, promotions; given no en passant square)
//! plus what Muster adds: pushes of two and three
//! from the first rank (rules/muster.md 4.1), en passant on every passed square (4.3) and
//! castling with any unmoved rook on the King's rank or file (5).

use super::position::{king_steps, step, Muster};
use crate::core::{Color, MoveList};
use crate::variants::orthodox::movegen::{generate, generate_tactical};
use crate::variants::orthodox::{attacks, Kind, Move, MoveKind, Piece, NO_EP};

/// The four orthogonal unit steps (file, rank): castling directions (rules/muster.md 5).
const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Rank 1 / rank 8: the first rank of White / Black (rel 1, rules/muster.md 4).
const FIRST_RANK: [u64; 2] = [0xFF, 0xFF << 56];

impl Muster {
    /// Appends every legal move (rules/muster.md 4, 5; orthodox otherwise).
    pub fn generate_legal(&self, list: &mut MoveList<Move>) {
        generate::<false>(
            &self.board,
            self.stm,
            self.checkers,
            NO_EP,
            list,
            |_, _, _| {},
        );
        self.generate_extra(list, false);
    }

    /// Appends the moves quiescence tries: captures (en passant included) and queen
    /// promotions; every legal move when in check.
    pub fn generate_tactical(&self, list: &mut MoveList<Move>) {
        generate_tactical(&self.board, self.stm, self.checkers, NO_EP, list);
        self.generate_extra(list, self.checkers == 0);
    }

    fn generate_extra(&self, list: &mut MoveList<Move>, tactical: bool) {
        self.generate_ep(list);
        if tactical {
            return;
        }
        let checkers = self.checkers;
        if checkers & checkers.wrapping_sub(1) != 0 {
            return; // double check: only the King moves
        }
        self.generate_long_pushes(list);
        if checkers == 0 && self.rights[self.stm.index()] != 0 {
            self.generate_castling(list);
        }
    }

    /// Pushes of two and three squares from the first rank (rules/muster.md 4.1); the single
    /// push and the pushes from the second rank come from the orthodox generator.
    fn generate_long_pushes(&self, list: &mut MoveList<Move>) {
        let c = &self.board;
        let us = self.stm;
        let pawns = c.pieces(us, Kind::Pawn) & FIRST_RANK[us.index()];
        if pawns == 0 {
            return;
        }
        let occ = c.occupied();
        let ksq = c.king_sq(us);
        let checkers = self.checkers;
        let check_mask = if checkers != 0 {
            attacks::between(ksq, checkers.trailing_zeros() as u8) | checkers
        } else {
            !0
        };
        let pinned = c.pinned(us);
        let up: i8 = if us == Color::White { 8 } else { -8 };
        let mut b = pawns;
        while b != 0 {
            let from = b.trailing_zeros() as u8;
            b &= b - 1;
            let allowed = if pinned & (1u64 << from) != 0 {
                attacks::line(ksq, from)
            } else {
                !0
            } & check_mask;
            let mut sq = from;
            for n in 1..=3 {
                sq = (sq as i8 + up) as u8;
                if occ & (1u64 << sq) != 0 {
                    break;
                }
                if n >= 2 && allowed & (1u64 << sq) != 0 {
                    list.push(Move::new(from, sq, MoveKind::DoublePush));
                }
            }
        }
    }

    /// Whether the en passant capture `from` -> `to` (removing the pawn on `ep_victim`)
    /// leaves the own King safe (rules/muster.md 4.3: checked as after the whole move).
    #[inline]
    fn ep_is_legal(&self, from: u8, to: u8) -> bool {
        let c = &self.board;
        let us = self.stm;
        let victim = 1u64 << self.ep_victim;
        let after = (c.occupied() ^ (1u64 << from) ^ victim) | (1u64 << to);
        c.attackers_to(c.king_sq(us), after, !us) & !victim == 0
    }

    /// En passant captures (rules/muster.md 4.3): an own pawn attacking a passed square.
    fn generate_ep(&self, list: &mut MoveList<Move>) {
        if self.ep == 0 || self.ep_victim == NO_EP {
            return;
        }
        let c = &self.board;
        let us = self.stm;
        let pawns = c.pieces(us, Kind::Pawn);
        let mut squares = self.ep;
        while squares != 0 {
            let to = squares.trailing_zeros() as u8;
            squares &= squares - 1;
            let mut capturers = attacks::pawn(!us, to) & pawns;
            while capturers != 0 {
                let from = capturers.trailing_zeros() as u8;
                capturers &= capturers - 1;
                if self.ep_is_legal(from, to) {
                    list.push(Move::new(from, to, MoveKind::EnPassant));
                }
            }
        }
    }

    /// The en passant squares on which the side to move has a legal capture.
    pub(crate) fn legal_ep_squares(&self) -> u64 {
        if self.ep == 0 || self.ep_victim == NO_EP {
            return 0;
        }
        let c = &self.board;
        let us = self.stm;
        let pawns = c.pieces(us, Kind::Pawn);
        let mut live = 0;
        let mut squares = self.ep;
        while squares != 0 {
            let to = squares.trailing_zeros() as u8;
            squares &= squares - 1;
            let mut capturers = attacks::pawn(!us, to) & pawns;
            while capturers != 0 {
                let from = capturers.trailing_zeros() as u8;
                capturers &= capturers - 1;
                if self.ep_is_legal(from, to) {
                    live |= 1u64 << to;
                    break;
                }
            }
        }
        live
    }

    /// Castling (rules/muster.md 5): for each direction, the nearest piece must be an own
    /// rook with a right; the King moves ⌈√d⌉ squares, the rook to the square beside it on
    /// the far side. Not in check; passed squares not attacked (now); the King not in check
    /// after the move.
    fn generate_castling(&self, list: &mut MoveList<Move>) {
        let c = &self.board;
        let us = self.stm;
        let them = !us;
        let rights = self.rights[us.index()];
        let ksq = c.king_sq(us);
        let occ = c.occupied();
        for dir in DIRECTIONS {
            let Some((rsq, d)) = self.first_piece(ksq, dir) else {
                continue;
            };
            if rights & (1u64 << rsq) == 0 || c.piece_at(rsq) != Piece::new(us, Kind::Rook) {
                continue;
            }
            let s = king_steps(d);
            let mut to = ksq;
            let mut safe = true;
            for i in 1..=s {
                to = step(to, dir);
                if i < s && c.attackers_to(to, occ, them) != 0 {
                    safe = false;
                    break;
                }
            }
            if !safe {
                continue;
            }
            let rook_to = step(to, (-dir.0, -dir.1));
            let after = (occ ^ (1u64 << ksq) ^ (1u64 << rsq)) | (1u64 << to) | (1u64 << rook_to);
            if c.attackers_to(to, after, them) == 0 {
                list.push(Move::new(ksq, to, MoveKind::Castle));
            }
        }
    }
}
