//! The orthodox chess position: the [`Board`] plus the side to move, castling rights, the en
//! passant square and the clocks, and the network's sums beside the board; make/unmake
//! (the men moved by [`make`], castling rights and en passant here) with an undo stack inside
//! the position, zobrist keys, and FEN input/output.

use super::castling::{self, CastlingSetup};
use crate::core::Color;
use crate::variants::network::{correction_from, NetAccumulator};
use crate::variants::orthodox::inputs::BoardUpdate;
use crate::variants::orthodox::{
    attacks, fen, make, Board, Kind, Move, MoveKind, Piece, KEYS, NO_EP,
};
use crate::variants::FenError;

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Castling right bits: White king side, White queen side, Black king side, Black queen side.
pub const WK: u8 = 1;
/// White queen-side castling right.
pub const WQ: u8 = 2;
/// Black king-side castling right.
pub const BK: u8 = 4;
/// Black queen-side castling right.
pub const BQ: u8 = 8;

/// Capacity reserved for the undo stack: game history plus search depth rarely exceed it, so
/// `make` does not allocate in practice.
const STACK_RESERVE: usize = 1024;

/// What `unmake` needs to restore a ply (one record per ply, `Copy`).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo {
    pub mv: Move,
    pub captured: Piece,
    pub castling: u8,
    pub ep: u8,
    pub halfmove: u16,
    /// The full key before the ply (also what repetition compares).
    pub key: u64,
    /// The state key (side, castling, en passant) before the ply; `key ^ state_key` is the
    /// board's piece key, which unmake restores instead of undoing it square by square.
    pub state_key: u64,
    pub checkers: u64,
}

/// An orthodox chess position with its game history (for repetition and `unmake`).
#[derive(Clone)]
pub struct Chess {
    pub(crate) board: Board,
    pub(crate) stm: Color,
    pub(crate) castling: u8,
    pub(crate) ep: u8,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    /// The key of the state beside the pieces: side to move, castling rights, en passant file.
    pub(crate) state_key: u64,
    pub(crate) checkers: u64,
    pub(crate) stack: Vec<Undo>,
    /// The network's first-layer sums, kept through make/unmake ([`NetAccumulator`]; the
    /// inputs are the board's, [`super::network`]).
    pub(crate) acc: NetAccumulator,
    /// The castling geometry of the game (orthodox, or a Chess960 start's).
    pub(crate) castling_setup: CastlingSetup,
    /// `UCI_Chess960`: castling tokens are written King-takes-Rook (`e1h1`) even for an
    /// orthodox castling (protocol.md 3). Notation only: not part of the key.
    pub(crate) chess960: bool,
}

impl Chess {
    /// The pieces.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The network's correction ([`super::network`]) from the kept sums, in centipawns from
    /// the side to move's view; 0 without a network.
    #[inline]
    pub fn nn_correction(&self) -> i32 {
        correction_from(self, &self.acc)
    }

    /// Opens a ply in the network's sums (afresh first when `EvalFile` changed the network).
    #[inline(always)]
    fn open_ply(&mut self) {
        if self.acc.stale::<Chess>() {
            let fresh = NetAccumulator::fresh(&*self);
            self.acc.refresh(fresh);
        }
        self.acc.push();
    }

    /// Castling rights as bits [`WK`] | [`WQ`] | [`BK`] | [`BQ`].
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The en passant target square, or [`NO_EP`]. Only set when a pawn of the side to move
    /// stands next to the pushed pawn, so that the square can matter.
    pub fn ep_square(&self) -> u8 {
        self.ep
    }

    /// Plies since the last capture or pawn move (the 50-move rule counter).
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Pieces of either colour giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> u64 {
        self.checkers
    }

    /// The zobrist key of the position: pieces, side to move, castling rights, en passant.
    #[inline(always)]
    pub fn full_key(&self) -> u64 {
        self.board.key() ^ self.state_key
    }

    /// The rook's (from, to) squares for a castling King move to `king_to` (g1, c1, g8, c8).
    #[inline(always)]
    pub(crate) fn castle_rook(&self, king_to: u8) -> (u8, u8) {
        self.castling_setup.rook_squares(king_to)
    }

    /// The undo record of the current state for a ply `mv` capturing `captured`.
    #[inline(always)]
    fn undo_record(&self, mv: Move, captured: Piece) -> Undo {
        Undo {
            mv,
            captured,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            key: self.full_key(),
            state_key: self.state_key,
            checkers: self.checkers,
        }
    }

    /// Plays a legal move (generated by this position). Pushes an undo record.
    pub fn make_move(&mut self, m: Move) {
        let keys = &KEYS;
        let from = m.from();
        let to = m.to();
        let us = self.stm;
        let mut undo = self.undo_record(m, Piece::NONE);
        if self.ep != NO_EP {
            self.state_key ^= keys.ep_file[(self.ep & 7) as usize];
            self.ep = NO_EP;
        }
        self.open_ply();
        let setup = &self.castling_setup;
        let made = make::make(
            &mut self.board,
            us,
            m,
            to ^ 8,
            |_| setup.rook_squares(to),
            &mut BoardUpdate(&mut self.acc),
        );
        undo.captured = made.captured;
        self.halfmove = if made.irreversible {
            0
        } else {
            self.halfmove + 1
        };
        if m.kind() == MoveKind::DoublePush {
            let ep = (from + to) / 2;
            if attacks::pawn(us, ep) & self.board.pieces(!us, Kind::Pawn) != 0 {
                self.ep = ep;
                self.state_key ^= keys.ep_file[(ep & 7) as usize];
            }
        }
        if self.castling != 0 {
            let mask = &self.castling_setup.mask;
            let rights = self.castling & mask[from as usize] & mask[to as usize];
            if rights != self.castling {
                self.state_key ^=
                    keys.castling[self.castling as usize] ^ keys.castling[rights as usize];
                self.castling = rights;
            }
        }
        self.stm = !us;
        self.state_key ^= keys.side;
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.checkers = self.board.checkers(!us);
        self.stack.push(undo);
    }

    /// Passes the move (for null-move pruning; never when in check). Undone by `unmake_move`.
    pub fn make_null_move(&mut self) {
        let undo = self.undo_record(Move::NULL, Piece::NONE);
        if self.ep != NO_EP {
            self.state_key ^= KEYS.ep_file[(self.ep & 7) as usize];
            self.ep = NO_EP;
        }
        self.halfmove += 1;
        self.stm = !self.stm;
        self.state_key ^= KEYS.side;
        self.checkers = 0;
        self.stack.push(undo);
        self.open_ply();
    }

    /// Takes back the last move (or null move).
    pub fn unmake_move(&mut self) {
        let u = self
            .stack
            .pop()
            .expect("unmake without a move to take back");
        self.acc.pop();
        self.stm = !self.stm;
        let us = self.stm;
        let m = u.mv;
        if m != Move::NULL {
            // A null move did not advance the move number.
            if us == Color::Black {
                self.fullmove -= 1;
            }
            let setup = &self.castling_setup;
            make::unmake(&mut self.board, us, m, u.captured, m.to() ^ 8, |_| {
                setup.rook_squares(m.to())
            });
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.board.restore_key(u.key ^ u.state_key);
        self.state_key = u.state_key;
        self.checkers = u.checkers;
    }

    /// The key of the state beside the pieces (side, castling, en passant), from scratch.
    fn compute_state_key(&self) -> u64 {
        let keys = &KEYS;
        let mut k = keys.castling[self.castling as usize];
        if self.stm == Color::Black {
            k ^= keys.side;
        }
        if self.ep != NO_EP {
            k ^= keys.ep_file[(self.ep & 7) as usize];
        }
        k
    }

    /// The zobrist key computed from scratch (for tests of the incremental key).
    pub fn compute_key(&self) -> u64 {
        self.board.compute_key() ^ self.compute_state_key()
    }

    /// Number of times the current position occurred before in the game (same key, same side
    /// to move), looking back only as far as the last irreversible move. `stop_after` ends the
    /// scan after that many matches.
    pub(crate) fn repetitions(&self, stop_after: usize) -> usize {
        let n = self.stack.len();
        let reach = (self.halfmove as usize).min(n);
        crate::core::repetition::count(self.full_key(), reach, stop_after, |i| {
            self.stack[n - i].key
        })
    }

    /// Repetition inside the search tree: a repeat of a position reached after the root
    /// (within `plies_from_root`) counts once; one from before the root needs two earlier
    /// occurrences (threefold).
    pub(crate) fn is_repetition(&self, plies_from_root: usize) -> bool {
        let n = self.stack.len();
        let reach = (self.halfmove as usize).min(n);
        crate::core::repetition::in_search(self.full_key(), reach, plies_from_root, |i| {
            self.stack[n - i].key
        })
    }

    /// Parses a FEN (six fields; the two counters may be omitted).
    ///
    /// Errors name the field: `board` (shape, unknown letter, King count, pawns on the back
    /// ranks), `side to move`, `castling` (`KQkq`, Shredder-FEN file letters or X-FEN: see
    /// [`castling`]; an unknown letter or a right without its King and Rook),
    /// `en passant`, `halfmove clock`, `fullmove number`, or `position` (side not to move in check).
    pub(super) fn read_fen(fen: &str) -> Result<Chess, FenError> {
        let (f, (castling, castling_setup)) = fen::read(fen, castling::parse_field)?;
        let mut pos = Chess {
            ep: f.capturable_ep(),
            board: f.board,
            stm: f.stm,
            castling,
            halfmove: f.halfmove,
            fullmove: f.fullmove,
            state_key: 0,
            checkers: 0,
            stack: Vec::with_capacity(STACK_RESERVE),
            acc: NetAccumulator::default(),
            castling_setup,
            chess960: false,
        };
        pos.state_key = pos.compute_state_key();
        pos.checkers = pos.board.checkers(pos.stm);
        pos.acc = NetAccumulator::new(&pos, STACK_RESERVE);
        Ok(pos)
    }

    /// The FEN of the position. The en passant field is given only when a capture there is
    /// possible by a pawn of the side to move (as Stockfish prints it).
    pub(super) fn write_fen(&self) -> String {
        let mut castling = String::new();
        castling::write_field(
            &self.board,
            self.castling,
            &self.castling_setup,
            &mut castling,
        );
        fen::write(
            &self.board,
            self.stm,
            &castling,
            self.ep,
            self.halfmove,
            self.fullmove,
        )
    }
}
