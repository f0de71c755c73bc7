//! The Muster Chess position: the orthodox board ([`Chess`], whose own castling and en passant
//! state stay empty) plus castling rights per rook square (rules/muster.md 5.4) and the passed
//! squares of the last multi-square push (rules/muster.md 4.3); make/unmake with an undo stack.

use std::sync::LazyLock;

use crate::core::{zobrist, Color};
use crate::variants::chess::position::NO_EP;
use crate::variants::chess::{Chess, Kind, Move, MoveKind, Piece};

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
    pub key: u64,
    pub extra_key: u64,
    pub checkers: u64,
}

/// A Muster Chess position with its game history (rules/muster.md).
#[derive(Clone)]
pub struct Muster {
    /// The pieces, side to move, clocks and checkers (its castling/en passant fields unused).
    pub(crate) chess: Chess,
    /// Castling rights per colour: bitboards of rook squares (rules/muster.md 5.4).
    pub(crate) rights: [u64; 2],
    /// The squares passed by the last multi-square push, 0 when none (rules/muster.md 4.3).
    pub(crate) ep: u64,
    /// The square of the pawn that made that push, [`NO_EP`] when none.
    pub(crate) ep_victim: u8,
    /// The en passant squares with a legal capture (what repetition compares, rules 7).
    pub(crate) ep_live: u64,
    /// Zobrist part of the rights and the live en passant squares.
    pub(crate) extra_key: u64,
    /// True when the side not to move was in check in the position the game started from
    /// (rules/muster.md 3, D3: White wins at once).
    pub(crate) start_capture: bool,
    pub(crate) stack: Vec<Undo>,
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

impl Muster {
    /// A position on the board `chess` (its castling and en passant state are ignored) with
    /// no rights and no en passant squares.
    pub(crate) fn from_board(mut chess: Chess) -> Muster {
        chess.castling = 0;
        chess.ep = NO_EP;
        chess.key = chess.compute_key();
        chess.checkers = chess.compute_checkers();
        Muster {
            chess,
            rights: [0; 2],
            ep: 0,
            ep_victim: NO_EP,
            ep_live: 0,
            extra_key: 0,
            start_capture: false,
            stack: Vec::with_capacity(STACK_RESERVE),
        }
    }

    /// The orthodox board underneath (pieces, side to move, clocks, checkers).
    pub fn board(&self) -> &Chess {
        &self.chess
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
    pub fn start_rights(chess: &Chess) -> [u64; 2] {
        let mut r = [0; 2];
        for c in Color::ALL {
            let k = chess.king_sq(c);
            let lines = crate::variants::chess::attacks::FILE_A << (k % 8) | 0xFFu64 << (k & 56);
            r[c.index()] = chess.pieces(c, Kind::Rook) & lines;
        }
        r
    }

    /// The zobrist part of the rights and live en passant squares, from scratch.
    pub(crate) fn compute_extra_key(&self) -> u64 {
        let keys = &*KEYS;
        let mut k = 0;
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
        self.chess.compute_key() ^ self.compute_extra_key()
    }

    /// Recomputes which en passant squares have a legal capture and updates the key.
    pub(crate) fn refresh_ep_live(&mut self) {
        let live = self.legal_ep_squares();
        let mut diff = live ^ self.ep_live;
        while diff != 0 {
            self.extra_key ^= KEYS.ep[diff.trailing_zeros() as usize];
            diff &= diff - 1;
        }
        self.ep_live = live;
    }

    #[inline(always)]
    fn set_rights(&mut self, new: [u64; 2]) {
        for (c, (n, o)) in new.iter().zip(self.rights).enumerate() {
            let mut diff = n ^ o;
            while diff != 0 {
                self.extra_key ^= KEYS.rights[c][diff.trailing_zeros() as usize];
                diff &= diff - 1;
            }
        }
        self.rights = new;
    }

    /// The first occupied square from `from` in direction `dir` (exclusive), `None` at the edge.
    #[inline(always)]
    pub(crate) fn first_piece(&self, from: u8, dir: (i8, i8)) -> Option<(u8, u8)> {
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
            if !self.chess.board[sq as usize].is_none() {
                return Some((sq, d));
            }
        }
    }

    /// Forgets the en passant squares of the last move (rules/muster.md 4: they live for one
    /// reply), taking the live ones out of the key.
    #[inline(always)]
    fn clear_en_passant(&mut self) {
        let mut b = self.ep_live;
        while b != 0 {
            self.extra_key ^= KEYS.ep[b.trailing_zeros() as usize];
            b &= b - 1;
        }
        self.ep_live = 0;
        self.ep = 0;
        self.ep_victim = NO_EP;
    }

    /// Plays a legal move of this position (rules/muster.md 4, 5). Pushes an undo record.
    pub fn make_move(&mut self, m: Move) {
        let from = m.from();
        let to = m.to();
        let us = self.chess.stm;
        let mut undo = Undo {
            mv: m,
            captured: Piece::NONE,
            rook_from: 0,
            rights: self.rights,
            ep: self.ep,
            ep_victim: self.ep_victim,
            ep_live: self.ep_live,
            halfmove: self.chess.halfmove,
            key: self.chess.key,
            extra_key: self.extra_key,
            checkers: self.chess.checkers,
        };
        let victim = self.ep_victim;
        self.clear_en_passant();
        let c = &mut self.chess;
        c.halfmove += 1;
        let moving = c.board[from as usize];
        let mut rights = self.rights;
        match m.kind() {
            MoveKind::Normal => {
                if !c.board[to as usize].is_none() {
                    undo.captured = c.remove(to);
                    c.halfmove = 0;
                }
                c.shift(from, to);
                if moving.kind() == Kind::Pawn {
                    c.halfmove = 0;
                }
            }
            MoveKind::DoublePush => {
                c.shift(from, to);
                c.halfmove = 0;
                // rules/muster.md 4.3: every square strictly between origin and destination.
                let (lo, hi) = if from < to { (from, to) } else { (to, from) };
                let mut sq = lo + 8;
                while sq < hi {
                    self.ep |= 1u64 << sq;
                    sq += 8;
                }
                self.ep_victim = to;
            }
            MoveKind::EnPassant => {
                undo.captured = c.remove(victim);
                c.shift(from, to);
                c.halfmove = 0;
            }
            MoveKind::Castle => {
                // rules/muster.md 5.2: the rook is the first piece from the King towards `to`.
                let dir = orth_step(from, to).expect("castling along a rank or file");
                let (rook_from, _) = self.first_piece_on(from, dir);
                let c = &mut self.chess;
                undo.rook_from = rook_from;
                let rook_to = (to as i8 - dir.0 - 8 * dir.1) as u8;
                let king = c.remove(from);
                let rook = c.remove(rook_from);
                c.put(to, king);
                c.put(rook_to, rook);
            }
            _ => {
                if !c.board[to as usize].is_none() {
                    undo.captured = c.remove(to);
                }
                c.remove(from);
                let promo = m.promotion().unwrap_or(Kind::Queen);
                c.put(to, Piece::new(us, promo));
                c.halfmove = 0;
            }
        }
        // rules/muster.md 5.4: a move from or to a rook square removes its right; a King
        // move removes all of its side's rights.
        let touched = !(1u64 << from | 1u64 << to);
        rights[0] &= touched;
        rights[1] &= touched;
        if moving.kind() == Kind::King {
            rights[us.index()] = 0;
        }
        if rights != self.rights {
            self.set_rights(rights);
        }
        let c = &mut self.chess;
        c.stm = !us;
        c.key ^= crate::variants::chess::position::KEYS.side;
        if us == Color::Black {
            c.fullmove += 1;
        }
        // A King is only ever taken in a start position won under D3 (rules/muster.md 3).
        c.checkers = if c.pieces(c.stm, Kind::King) != 0 {
            c.compute_checkers()
        } else {
            0
        };
        if self.ep != 0 {
            self.refresh_ep_live();
        }
        self.stack.push(undo);
    }

    fn first_piece_on(&self, from: u8, dir: (i8, i8)) -> (u8, u8) {
        self.first_piece(from, dir)
            .expect("a castling rook stands in the King's direction")
    }

    /// Passes the move (null-move pruning; never when in check). Undone by `unmake_move`.
    pub fn make_null_move(&mut self) {
        let undo = Undo {
            mv: Move::NULL,
            captured: Piece::NONE,
            rook_from: 0,
            rights: self.rights,
            ep: self.ep,
            ep_victim: self.ep_victim,
            ep_live: self.ep_live,
            halfmove: self.chess.halfmove,
            key: self.chess.key,
            extra_key: self.extra_key,
            checkers: self.chess.checkers,
        };
        self.clear_en_passant();
        let c = &mut self.chess;
        c.halfmove += 1;
        c.stm = !c.stm;
        c.key ^= crate::variants::chess::position::KEYS.side;
        c.checkers = 0;
        self.stack.push(undo);
    }

    /// Takes back the last move (or null move).
    pub fn unmake_move(&mut self) {
        let u = self
            .stack
            .pop()
            .expect("unmake without a move to take back");
        let c = &mut self.chess;
        c.stm = !c.stm;
        let us = c.stm;
        let m = u.mv;
        if m != Move::NULL {
            if us == Color::Black {
                c.fullmove -= 1;
            }
            let (from, to) = (m.from(), m.to());
            match m.kind() {
                MoveKind::Normal | MoveKind::DoublePush => {
                    c.shift(to, from);
                    if !u.captured.is_none() {
                        c.put(to, u.captured);
                    }
                }
                MoveKind::EnPassant => {
                    c.shift(to, from);
                    c.put(u.ep_victim, u.captured);
                }
                MoveKind::Castle => {
                    let dir = orth_step(from, to).expect("castling along a rank or file");
                    let rook_to = (to as i8 - dir.0 - 8 * dir.1) as u8;
                    let rook = c.remove(rook_to);
                    let king = c.remove(to);
                    c.put(from, king);
                    c.put(u.rook_from, rook);
                }
                _ => {
                    c.remove(to);
                    c.put(from, Piece::new(us, Kind::Pawn));
                    if !u.captured.is_none() {
                        c.put(to, u.captured);
                    }
                }
            }
        }
        c.halfmove = u.halfmove;
        c.key = u.key;
        c.checkers = u.checkers;
        self.rights = u.rights;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.ep_live = u.ep_live;
        self.extra_key = u.extra_key;
    }

    /// The full zobrist key (board, side, rights, live en passant squares).
    #[inline(always)]
    pub fn full_key(&self) -> u64 {
        self.chess.key ^ self.extra_key
    }

    /// Times the current position occurred before (same key), back to the last irreversible
    /// move; stops after `stop_after` matches.
    pub(crate) fn repetitions(&self, stop_after: usize) -> usize {
        let n = self.stack.len();
        let reach = (self.chess.halfmove as usize).min(n);
        crate::core::repetition::count(self.full_key(), reach, stop_after, |i| {
            let u = &self.stack[n - i];
            u.key ^ u.extra_key
        })
    }

    /// Repetition inside the search tree (see `Chess::is_repetition`).
    pub(crate) fn is_repetition(&self, plies_from_root: usize) -> bool {
        let n = self.stack.len();
        let reach = (self.chess.halfmove as usize).min(n);
        crate::core::repetition::in_search(self.full_key(), reach, plies_from_root, |i| {
            let u = &self.stack[n - i];
            u.key ^ u.extra_key
        })
    }
}
