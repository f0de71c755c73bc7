//! The Muster Chess position: the orthodox [`Board`], the side to move and the clocks, the
//! castling rights per rook square (rules/muster.md 5.4) and the passed squares of the last
//! multi-square push (rules/muster.md 4.3); make/unmake (the men moved by
//! [`crate::variants::orthodox::make`], given the castling Rook and the en passant victim;
//! rights and passed squares here) with an undo stack.

use std::sync::LazyLock;

use super::network;
use crate::core::{zobrist, Color};
use crate::variants::network::NetAccumulator;
use crate::variants::orthodox::inputs::BoardUpdate;
use crate::variants::orthodox::make;
use crate::variants::orthodox::{Board, Kind, Move, MoveKind, Piece, KEYS as BOARD_KEYS, NO_EP};

/// Capacity reserved for the undo stack (game plus search depth rarely exceed it).
const STACK_RESERVE: usize = 1024;

pub(crate) struct Keys {
    /// One key per (colour, rook square) castling right.
    pub rights: [[u64; 64]; 2],
    /// One key per en passant square that has a legal capture.
    pub ep: [u64; 64],
}

pub(crate) static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let k = zobrist::keys(0x6d75_7374_6572, 3 * 64);
    let mut rights = [[0; 64]; 2];
    let mut ep = [0; 64];
    rights[0].copy_from_slice(&k[0..64]);
    rights[1].copy_from_slice(&k[64..128]);
    ep.copy_from_slice(&k[128..192]);
    Keys { rights, ep }
});

/// What `unmake` needs to restore a ply.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo {
    pub mv: Move,
    pub captured: Piece,
    /// The rook's origin for a castling move.
    pub rook_from: u8,
    pub rights: [u64; 2],
    pub ep: u64,
    pub ep_victim: u8,
    pub ep_live: u64,
    pub halfmove: u16,
    /// The full key before the ply (also what repetition compares).
    pub key: u64,
    /// The state key before the ply: `key ^ state_key` is the board's piece key, which unmake
    /// restores instead of undoing it square by square.
    pub state_key: u64,
    pub checkers: u64,
}

/// A Muster Chess position with its game history (rules/muster.md).
#[derive(Clone)]
pub struct Muster {
    /// The pieces.
    pub(crate) board: Board,
    /// The side to move.
    pub(crate) stm: Color,
    /// Plies since the last capture or pawn move (rules/muster.md 7: the 50-move rule).
    pub(crate) halfmove: u16,
    /// The move number (FEN).
    pub(crate) fullmove: u16,
    /// Pieces giving check to the side to move.
    pub(crate) checkers: u64,
    /// Castling rights per colour: bitboards of rook squares (rules/muster.md 5.4).
    pub(crate) rights: [u64; 2],
    /// The squares passed by the last multi-square push, 0 when none (rules/muster.md 4.3).
    pub(crate) ep: u64,
    /// The square of the pawn that made that push, [`NO_EP`] when none.
    pub(crate) ep_victim: u8,
    /// The en passant squares with a legal capture (what repetition compares, rules 7).
    pub(crate) ep_live: u64,
    /// The key of the state beside the pieces: side to move, rights, live en passant squares.
    pub(crate) state_key: u64,
    /// True when the side not to move was in check in the position the game started from
    /// (rules/muster.md 3, D3: White wins at once).
    pub(crate) start_capture: bool,
    pub(crate) stack: Vec<Undo>,
    /// The network's first-layer sums, kept through make/unmake (the men through make's
    /// [`BoardUpdate`] hook, the castling rights by [`Muster::set_rights`]).
    pub(crate) acc: NetAccumulator,
}

/// ⌈√d⌉ for the castling distance d = 1..7 (rules/muster.md 5.2).
#[inline(always)]
pub const fn king_steps(d: u8) -> u8 {
    match d {
        0 | 1 => 1,
        2..=4 => 2,
        5..=9 => 3,
        _ => 4,
    }
}

/// Unit step (file, rank) from `a` to `b` on a shared rank or file, `None` otherwise.
#[inline(always)]
pub(crate) fn orth_step(a: u8, b: u8) -> Option<(i8, i8)> {
    let (af, ar, bf, br) = ((a % 8) as i8, (a / 8) as i8, (b % 8) as i8, (b / 8) as i8);
    if a == b {
        None
    } else if ar == br {
        Some(((bf - af).signum(), 0))
    } else if af == bf {
        Some((0, (br - ar).signum()))
    } else {
        None
    }
}

#[inline(always)]
pub(crate) fn step(sq: u8, (df, dr): (i8, i8)) -> u8 {
    (sq as i8 + df + 8 * dr) as u8
}

/// The castling Rook's destination for a King landing on `to` in direction `dir`: the square
/// the King passed last (rules/muster.md 5.2).
#[inline(always)]
fn castle_rook_to(to: u8, dir: (i8, i8)) -> u8 {
    (to as i8 - dir.0 - 8 * dir.1) as u8
}

/// The first occupied square of `board` from `from` in direction `dir` (exclusive) and its
/// distance, `None` at the edge.
#[inline(always)]
fn first_piece(board: &Board, from: u8, dir: (i8, i8)) -> Option<(u8, u8)> {
    let (mut f, mut r) = ((from % 8) as i8, (from / 8) as i8);
    let mut d = 0;
    loop {
        f += dir.0;
        r += dir.1;
        d += 1;
        if !(0..8).contains(&f) || !(0..8).contains(&r) {
            return None;
        }
        let sq = (r * 8 + f) as u8;
        if !board.piece_at(sq).is_none() {
            return Some((sq, d));
        }
    }
}

impl Muster {
    /// A position on `board` with `stm` to move, clocks `0 1`, no rights and no en passant
    /// squares.
    pub(crate) fn new(board: Board, stm: Color) -> Muster {
        let mut pos = Muster {
            checkers: 0,
            board,
            stm,
            halfmove: 0,
            fullmove: 1,
            rights: [0; 2],
            ep: 0,
            ep_victim: NO_EP,
            ep_live: 0,
            state_key: 0,
            start_capture: false,
            stack: Vec::with_capacity(STACK_RESERVE),
            acc: NetAccumulator::default(),
        };
        pos.refresh_checkers();
        pos
    }

    /// Sums the network's first layer of the position as it now stands, for make/unmake to
    /// keep: called once a position read from a FEN or armies is complete.
    pub(crate) fn start_network(&mut self) {
        self.acc = NetAccumulator::new(&*self, STACK_RESERVE);
    }

    /// The pieces.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The checkers of the side to move (none once its King was taken: rules/muster.md 3).
    #[inline(always)]
    pub(crate) fn refresh_checkers(&mut self) {
        self.checkers = if self.board.pieces(self.stm, Kind::King) != 0 {
            self.board.checkers(self.stm)
        } else {
            0
        };
    }

    /// Rook squares of `color` that still carry a castling right (rules/muster.md 5.4).
    pub fn castling_rights(&self, color: Color) -> u64 {
        self.rights[color.index()]
    }

    /// The squares passed by the last multi-square pawn push (rules/muster.md 4.3), 0 if none.
    pub fn ep_squares(&self) -> u64 {
        self.ep
    }

    /// Rights at the start of a game (rules/muster.md 5.4): every rook on the rank or file of
    /// its own King.
    pub fn start_rights(board: &Board) -> [u64; 2] {
        let mut r = [0; 2];
        for c in Color::ALL {
            let k = board.king_sq(c);
            let lines = crate::variants::orthodox::attacks::FILE_A << (k % 8) | 0xFFu64 << (k & 56);
            r[c.index()] = board.pieces(c, Kind::Rook) & lines;
        }
        r
    }

    /// The key of the state beside the pieces (side to move, rights, live en passant
    /// squares), from scratch.
    pub(crate) fn compute_state_key(&self) -> u64 {
        let keys = &*KEYS;
        let mut k = if self.stm == Color::Black {
            BOARD_KEYS.side
        } else {
            0
        };
        for c in 0..2 {
            let mut b = self.rights[c];
            while b != 0 {
                k ^= keys.rights[c][b.trailing_zeros() as usize];
                b &= b - 1;
            }
        }
        let mut b = self.ep_live;
        while b != 0 {
            k ^= keys.ep[b.trailing_zeros() as usize];
            b &= b - 1;
        }
        k
    }

    /// The full zobrist key computed from scratch (for tests of the incremental key).
    pub fn compute_key(&self) -> u64 {
        self.board.compute_key() ^ self.compute_state_key()
    }

    /// Recomputes which en passant squares have a legal capture and updates the key.
    pub(crate) fn refresh_ep_live(&mut self) {
        let live = self.legal_ep_squares();
        let mut diff = live ^ self.ep_live;
        while diff != 0 {
            self.state_key ^= KEYS.ep[diff.trailing_zeros() as usize];
            diff &= diff - 1;
        }
        self.ep_live = live;
    }

    #[inline(always)]
    fn set_rights(&mut self, new: [u64; 2]) {
        for (c, (n, o)) in new.iter().zip(self.rights).enumerate() {
            let mut diff = n ^ o;
            while diff != 0 {
                let sq = diff.trailing_zeros() as u8;
                self.state_key ^= KEYS.rights[c][sq as usize];
                let inputs = network::right_inputs(Color::ALL[c], sq);
                if n & (1u64 << sq) != 0 {
                    self.acc.add(inputs);
                } else {
                    self.acc.sub(inputs);
                }
                diff &= diff - 1;
            }
        }
        self.rights = new;
    }

    /// The first occupied square from `from` in direction `dir` (exclusive) and its distance,
    /// `None` at the edge.
    #[inline(always)]
    pub(crate) fn first_piece(&self, from: u8, dir: (i8, i8)) -> Option<(u8, u8)> {
        first_piece(&self.board, from, dir)
    }

    /// Forgets the en passant squares of the last move (rules/muster.md 4: they live for one
    /// reply), taking the live ones out of the key.
    #[inline(always)]
    fn clear_en_passant(&mut self) {
        let mut b = self.ep_live;
        while b != 0 {
            self.state_key ^= KEYS.ep[b.trailing_zeros() as usize];
            b &= b - 1;
        }
        self.ep_live = 0;
        self.ep = 0;
        self.ep_victim = NO_EP;
    }

    /// The undo record of the current state for a ply `mv`.
    #[inline(always)]
    fn undo_record(&self, mv: Move) -> Undo {
        Undo {
            mv,
            captured: Piece::NONE,
            rook_from: 0,
            rights: self.rights,
            ep: self.ep,
            ep_victim: self.ep_victim,
            ep_live: self.ep_live,
            halfmove: self.halfmove,
            key: self.full_key(),
            state_key: self.state_key,
            checkers: self.checkers,
        }
    }

    /// Plays a legal move of this position (rules/muster.md 4, 5). Pushes an undo record.
    pub fn make_move(&mut self, m: Move) {
        let from = m.from();
        let to = m.to();
        let us = self.stm;
        crate::variants::network::open_ply(self);
        let mut undo = self.undo_record(m);
        let victim = self.ep_victim;
        self.clear_en_passant();
        let mut rook_from = 0;
        let made = make::make(
            &mut self.board,
            us,
            m,
            victim,
            |b| {
                // rules/muster.md 5.2: the rook is the first piece from the King towards `to`.
                let dir = orth_step(from, to).expect("castling along a rank or file");
                rook_from = first_piece(b, from, dir)
                    .expect("a castling rook stands in the King's direction")
                    .0;
                (rook_from, castle_rook_to(to, dir))
            },
            &mut BoardUpdate(&mut self.acc),
        );
        undo.captured = made.captured;
        undo.rook_from = rook_from;
        self.halfmove = if made.irreversible {
            0
        } else {
            self.halfmove + 1
        };
        if m.kind() == MoveKind::DoublePush {
            // rules/muster.md 4.3: every square strictly between origin and destination.
            let (lo, hi) = if from < to { (from, to) } else { (to, from) };
            let mut sq = lo + 8;
            while sq < hi {
                self.ep |= 1u64 << sq;
                sq += 8;
            }
            self.ep_victim = to;
        }
        // rules/muster.md 5.4: a move from or to a rook square removes its right; a King
        // move removes all of its side's rights.
        let mut rights = self.rights;
        let touched = !(1u64 << from | 1u64 << to);
        rights[0] &= touched;
        rights[1] &= touched;
        if made.moving.kind() == Kind::King {
            rights[us.index()] = 0;
        }
        if rights != self.rights {
            self.set_rights(rights);
        }
        self.stm = !us;
        self.state_key ^= BOARD_KEYS.side;
        if us == Color::Black {
            self.fullmove += 1;
        }
        // A King is only ever taken in a start position won under D3 (rules/muster.md 3).
        self.refresh_checkers();
        if self.ep != 0 {
            self.refresh_ep_live();
        }
        self.stack.push(undo);
    }

    /// Passes the move (null-move pruning; never when in check). Undone by `unmake_move`.
    pub fn make_null_move(&mut self) {
        crate::variants::network::open_ply(self);
        let undo = self.undo_record(Move::NULL);
        self.clear_en_passant();
        self.halfmove += 1;
        self.stm = !self.stm;
        self.state_key ^= BOARD_KEYS.side;
        self.checkers = 0;
        self.stack.push(undo);
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
            if us == Color::Black {
                self.fullmove -= 1;
            }
            make::unmake(&mut self.board, us, m, u.captured, u.ep_victim, |_| {
                let (from, to) = (m.from(), m.to());
                let dir = orth_step(from, to).expect("castling along a rank or file");
                (u.rook_from, castle_rook_to(to, dir))
            });
        }
        self.halfmove = u.halfmove;
        self.board.restore_key(u.key ^ u.state_key);
        self.state_key = u.state_key;
        self.checkers = u.checkers;
        self.rights = u.rights;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.ep_live = u.ep_live;
    }

    /// The full zobrist key (board, side, rights, live en passant squares).
    #[inline(always)]
    pub fn full_key(&self) -> u64 {
        self.board.key() ^ self.state_key
    }

    /// Times the current position occurred before (same key), back to the last irreversible
    /// move; stops after `stop_after` matches.
    pub(crate) fn repetitions(&self, stop_after: usize) -> usize {
        let n = self.stack.len();
        let reach = (self.halfmove as usize).min(n);
        crate::core::repetition::count(self.full_key(), reach, stop_after, |i| {
            self.stack[n - i].key
        })
    }

    /// Repetition inside the search tree: a repeat after the root counts once, one from
    /// before the root needs two earlier occurrences.
    pub(crate) fn is_repetition(&self, plies_from_root: usize) -> bool {
        let n = self.stack.len();
        let reach = (self.halfmove as usize).min(n);
        crate::core::repetition::in_search(self.full_key(), reach, plies_from_root, |i| {
            self.stack[n - i].key
        })
    }
}
