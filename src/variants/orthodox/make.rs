//! The pieces of an orthodox ply, made and unmade: the part of make/unmake that chess, Muster
//! and Mystic share. Each variant's position wraps these with its own state (side to move,
//! clocks, castling rights, en passant squares, coins) and its own undo record:
//!
//! - [`make`] moves the men of an orthodox [`Move`] on the [`Board`] (keys kept), asks the
//!   variant where a castling Rook stands and goes and which pawn an en passant capture takes
//!   (the hooks that differ: chess's Chess960 setup, Muster's generalised castling and
//!   multi-square pushes), tells a [`Features`] hook about each man that leaves or lands (the
//!   network's accumulator, [`super::inputs::BoardUpdate`]; [`NoFeatures`] compiles to nothing) and returns
//!   what happened ([`Made`]): the captured man for the undo record and whether the ply resets
//!   the 50-move clock;
//! - [`unmake`] puts the men back without touching the key: the caller restores the key it
//!   recorded ([`Board::restore_key`]), cheaper than undoing it square by square.
//!
//! Both are `#[inline(always)]` and generic over the hooks, so each variant gets its own
//! monomorphised copy with the closures inlined: no allocation, no dynamic call.

use super::{Board, Kind, Move, MoveKind, Piece};
use crate::core::Color;

/// What a variant wants to hear of the men that change in [`make`]: a network's accumulator
/// records their inputs ([`super::inputs::BoardUpdate`]).
pub trait Features {
    /// `piece` lands on `sq`.
    fn add(&mut self, piece: Piece, sq: u8);
    /// `piece` leaves `sq`.
    fn sub(&mut self, piece: Piece, sq: u8);
    /// `piece` goes from `from` to `to` (one pass where the hook can fuse the two).
    #[inline(always)]
    fn shift(&mut self, piece: Piece, from: u8, to: u8) {
        self.sub(piece, from);
        self.add(piece, to);
    }
}

/// The [`Features`] hook of a position without a network: nothing to do.
pub struct NoFeatures;

impl Features for NoFeatures {
    #[inline(always)]
    fn add(&mut self, _: Piece, _: u8) {}
    #[inline(always)]
    fn sub(&mut self, _: Piece, _: u8) {}
    #[inline(always)]
    fn shift(&mut self, _: Piece, _: u8, _: u8) {}
}

/// What [`make`] did.
#[derive(Copy, Clone, Debug)]
pub struct Made {
    /// The man that moved (the pawn for a promotion, the King for a castling).
    pub moving: Piece,
    /// The man taken, [`Piece::NONE`] if none (the pawn taken en passant included).
    pub captured: Piece,
    /// A capture or a pawn move: the 50-move clock starts again.
    pub irreversible: bool,
}

/// Moves the men of the orthodox ply `m` of `us` on `board` (keys kept up to date) and reports
/// them to `features`. `ep_victim` is the square of the pawn an en passant capture takes
/// (`m.to() ^ 8` in chess); `castle_rook` gives the castling Rook's (from, to) squares, asked
/// with the board before anything moves and only for a castling.
#[inline(always)]
pub fn make<F: Features>(
    board: &mut Board,
    us: Color,
    m: Move,
    ep_victim: u8,
    castle_rook: impl FnOnce(&Board) -> (u8, u8),
    features: &mut F,
) -> Made {
    let (from, to) = (m.from(), m.to());
    let moving = board.piece_at(from);
    let mut captured = Piece::NONE;
    let irreversible;
    match m.kind() {
        MoveKind::Normal => {
            if !board.piece_at(to).is_none() {
                captured = board.remove(to);
                features.sub(captured, to);
            }
            board.shift(from, to);
            features.shift(moving, from, to);
            irreversible = !captured.is_none() || moving.kind() == Kind::Pawn;
        }
        MoveKind::DoublePush => {
            board.shift(from, to);
            features.shift(moving, from, to);
            irreversible = true;
        }
        MoveKind::Castle => {
            // Lift both men first: in Chess960 and Muster the King may land on the Rook's
            // square or stay where it is.
            let (rf, rt) = castle_rook(board);
            let king = board.remove(from);
            let rook = board.remove(rf);
            board.put(to, king);
            board.put(rt, rook);
            features.shift(rook, rf, rt);
            features.shift(king, from, to);
            irreversible = false;
        }
        MoveKind::EnPassant => {
            captured = board.remove(ep_victim);
            features.sub(captured, ep_victim);
            board.shift(from, to);
            features.shift(moving, from, to);
            irreversible = true;
        }
        _ => {
            if !board.piece_at(to).is_none() {
                captured = board.remove(to);
                features.sub(captured, to);
            }
            board.remove(from);
            let promoted = Piece::new(us, m.promotion().unwrap_or(Kind::Queen));
            board.put(to, promoted);
            features.sub(moving, from);
            features.add(promoted, to);
            irreversible = true;
        }
    }
    Made {
        moving,
        captured,
        irreversible,
    }
}

/// Takes back the men of the orthodox ply `m` of `us` that took `captured`, without touching
/// the board's key (the caller then restores the key it recorded, [`Board::restore_key`]).
/// `ep_victim` and `castle_rook` as for [`make`]; `castle_rook` is asked only for a castling,
/// with the board as the ply left it.
#[inline(always)]
pub fn unmake(
    board: &mut Board,
    us: Color,
    m: Move,
    captured: Piece,
    ep_victim: u8,
    castle_rook: impl FnOnce(&Board) -> (u8, u8),
) {
    let (from, to) = (m.from(), m.to());
    match m.kind() {
        MoveKind::Normal | MoveKind::DoublePush => {
            board.shift_keyless(to, from);
            if !captured.is_none() {
                board.put_keyless(to, captured);
            }
        }
        MoveKind::Castle => {
            let (rf, rt) = castle_rook(board);
            let king = board.remove_keyless(to);
            let rook = board.remove_keyless(rt);
            board.put_keyless(from, king);
            board.put_keyless(rf, rook);
        }
        MoveKind::EnPassant => {
            board.shift_keyless(to, from);
            board.put_keyless(ep_victim, captured);
        }
        _ => {
            board.remove_keyless(to);
            board.put_keyless(from, Piece::new(us, Kind::Pawn));
            if !captured.is_none() {
                board.put_keyless(to, captured);
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::MoveList;
    use crate::variants::chess::Chess;
    use crate::variants::{Notation, Rules};

    /// A [`Features`] hook that keeps its own picture of the board, man by man.
    struct Mirror([u64; 12]);

    impl Features for Mirror {
        fn add(&mut self, piece: Piece, sq: u8) {
            assert_eq!(
                self.0[piece.index()] >> sq & 1,
                0,
                "{piece:?} added twice on {sq}"
            );
            self.0[piece.index()] |= 1 << sq;
        }
        fn sub(&mut self, piece: Piece, sq: u8) {
            assert_eq!(self.0[piece.index()] >> sq & 1, 1, "{piece:?} not on {sq}");
            self.0[piece.index()] ^= 1 << sq;
        }
    }

    /// Chess positions with every kind of ply among their legal moves: castlings orthodox
    /// and Chess960 (the last two), en passant, promotions with and without capture.
    pub(crate) const EVERY_PLY_KIND: [&str; 5] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "n1r1kr2/1P4P1/8/8/8/8/1p4p1/N1R1KR2 w CFcf - 0 1",
        "1rk2r2/8/8/8/8/8/8/1RK2R2 w BFbf - 0 1",
    ];

    fn picture(board: &Board) -> [u64; 12] {
        let mut p = [0; 12];
        for color in Color::ALL {
            for kind in Kind::ALL {
                p[Piece::new(color, kind).index()] = board.pieces(color, kind);
            }
        }
        p
    }

    /// Every legal move of positions with each kind of ply (castlings orthodox and Chess960,
    /// en passant, promotions with and without capture): make tells the hook of exactly the
    /// men that changed, reports the capture and the clock as chess does, and unmake with the
    /// recorded key gives the board back.
    #[test]
    fn make_reports_every_change_and_unmake_restores_the_board() {
        for fen in EVERY_PLY_KIND {
            let pos = Chess::from_fen(fen).unwrap();
            let mut list = MoveList::new();
            pos.generate_legal(&mut list);
            for &m in list.iter() {
                let mut board = pos.board().clone();
                let mut mirror = Mirror(picture(&board));
                let us = pos.side_to_move();
                let to = m.to();
                let made = make(
                    &mut board,
                    us,
                    m,
                    to ^ 8,
                    |_| pos.castle_rook(to),
                    &mut mirror,
                );
                let mut after = pos.clone();
                after.make_move(m);
                assert_eq!(&board, after.board(), "{fen} {m:?}");
                assert_eq!(mirror.0, picture(&board), "{fen} {m:?}");
                assert_eq!(
                    made.irreversible,
                    after.halfmove_clock() == 0,
                    "{fen} {m:?}"
                );
                assert_eq!(made.moving, pos.board().piece_at(m.from()));
                unmake(&mut board, us, m, made.captured, to ^ 8, |_| {
                    pos.castle_rook(to)
                });
                board.restore_key(pos.board().key());
                assert_eq!(&board, pos.board(), "{fen} {m:?}");
                assert!(board.is_consistent());
            }
        }
    }
}
