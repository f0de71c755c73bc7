//! The orthodox chess position: a mailbox plus bitboards, make/unmake with an undo stack inside
//! the position, zobrist keys, and FEN input/output.

use std::sync::LazyLock;

use super::attacks;
use super::castling::{self, CastlingSetup};
use super::types::{Kind, Move, MoveKind, Piece};
use crate::core::zobrist;
use crate::core::Color;
use crate::variants::fen_board::parse_board_rows;
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

/// Marker for "no en passant square".
pub const NO_EP: u8 = 64;

/// Capacity reserved for the undo stack: game history plus search depth rarely exceed it, so
/// `make` does not allocate in practice.
const STACK_RESERVE: usize = 1024;

pub(crate) struct Keys {
    pub piece: [[u64; 64]; 12],
    pub side: u64,
    pub castling: [u64; 16],
    pub ep_file: [u64; 8],
}

pub(crate) static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let k = zobrist::keys(0x000c_4e55, 12 * 64 + 1 + 16 + 8);
    let mut piece = [[0; 64]; 12];
    for (p, row) in piece.iter_mut().enumerate() {
        row.copy_from_slice(&k[p * 64..p * 64 + 64]);
    }
    let mut castling = [0; 16];
    // Each right has its own key; a set of rights is the XOR of its members.
    let right = &k[12 * 64 + 1..12 * 64 + 5];
    for (mask, c) in castling.iter_mut().enumerate() {
        for (b, key) in right.iter().enumerate() {
            if mask & (1 << b) != 0 {
                *c ^= key;
            }
        }
    }
    let mut ep_file = [0; 8];
    ep_file.copy_from_slice(&k[12 * 64 + 17..12 * 64 + 25]);
    Keys {
        piece,
        side: k[12 * 64],
        castling,
        ep_file,
    }
});

/// What `unmake` needs to restore a ply (one record per ply, `Copy`).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo {
    pub mv: Move,
    pub captured: Piece,
    pub castling: u8,
    pub ep: u8,
    pub halfmove: u16,
    pub key: u64,
    pub checkers: u64,
}

/// An orthodox chess position with its game history (for repetition and `unmake`).
#[derive(Clone)]
pub struct Chess {
    pub(crate) board: [Piece; 64],
    pub(crate) by_kind: [u64; 6],
    pub(crate) by_color: [u64; 2],
    pub(crate) stm: Color,
    pub(crate) castling: u8,
    pub(crate) ep: u8,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
    pub(crate) checkers: u64,
    pub(crate) stack: Vec<Undo>,
    /// The castling geometry of the game (orthodox, or a Chess960 start's).
    pub(crate) castling_setup: CastlingSetup,
    /// `UCI_Chess960`: castling tokens are written King-takes-Rook (`e1h1`) even for an
    /// orthodox castling (protocol.md 3). Notation only: not part of the key.
    pub(crate) chess960: bool,
}

impl Chess {
    /// Bitboard of `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: Kind) -> u64 {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// Bitboard of all pieces of `kind`, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, kind: Kind) -> u64 {
        self.by_kind[kind.index()]
    }

    /// Bitboard of all of `color`'s pieces.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> u64 {
        self.by_color[color.index()]
    }

    /// Whether `color` has a piece other than pawns and its King (the usual guard against
    /// null-move pruning in zugzwang).
    #[inline(always)]
    pub fn has_pieces(&self, color: Color) -> bool {
        self.color_bb(color) & !(self.pieces(color, Kind::Pawn) | self.pieces(color, Kind::King))
            != 0
    }

    /// Bitboard of every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    /// The piece on `sq` (0 = a1 .. 63 = h8), [`Piece::NONE`] when empty.
    #[inline(always)]
    pub fn piece_at(&self, sq: u8) -> Piece {
        self.board[sq as usize]
    }

    /// The square of `color`'s King.
    #[inline(always)]
    pub fn king_sq(&self, color: Color) -> u8 {
        self.pieces(color, Kind::King).trailing_zeros() as u8
    }

    /// The side to move.
    #[inline(always)]
    pub fn stm(&self) -> Color {
        self.stm
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

    /// Pieces of `by` that attack `sq`, given occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: u8, occ: u64, by: Color) -> u64 {
        let them = self.by_color[by.index()];
        let rq = self.by_kind[Kind::Rook.index()] | self.by_kind[Kind::Queen.index()];
        let bq = self.by_kind[Kind::Bishop.index()] | self.by_kind[Kind::Queen.index()];
        ((attacks::pawn(!by, sq) & self.by_kind[0])
            | (attacks::knight(sq) & self.by_kind[1])
            | (attacks::king(sq) & self.by_kind[5])
            | (attacks::rook(sq, occ) & rq)
            | (attacks::bishop(sq, occ) & bq))
            & them
    }

    #[inline(always)]
    pub(crate) fn put(&mut self, sq: u8, p: Piece) {
        let b = 1u64 << sq;
        self.board[sq as usize] = p;
        self.by_kind[p.kind().index()] |= b;
        self.by_color[p.color().index()] |= b;
        self.key ^= KEYS.piece[p.index()][sq as usize];
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: u8) -> Piece {
        let p = self.board[sq as usize];
        let b = 1u64 << sq;
        self.board[sq as usize] = Piece::NONE;
        self.by_kind[p.kind().index()] ^= b;
        self.by_color[p.color().index()] ^= b;
        self.key ^= KEYS.piece[p.index()][sq as usize];
        p
    }

    #[inline(always)]
    pub(crate) fn shift(&mut self, from: u8, to: u8) {
        let p = self.board[from as usize];
        let b = (1u64 << from) | (1u64 << to);
        self.board[from as usize] = Piece::NONE;
        self.board[to as usize] = p;
        self.by_kind[p.kind().index()] ^= b;
        self.by_color[p.color().index()] ^= b;
        let k = &KEYS.piece[p.index()];
        self.key ^= k[from as usize] ^ k[to as usize];
    }

    /// The rook's (from, to) squares for a castling King move to `king_to` (g1, c1, g8, c8).
    #[inline(always)]
    pub(crate) fn castle_rook(&self, king_to: u8) -> (u8, u8) {
        self.castling_setup.rook_squares(king_to)
    }

    #[inline(always)]
    pub(crate) fn compute_checkers(&self) -> u64 {
        let us = self.stm;
        self.attackers_to(self.king_sq(us), self.occupied(), !us)
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
            key: self.key,
            checkers: self.checkers,
        }
    }

    /// Plays a legal move (generated by this position). Pushes an undo record.
    pub fn make_move(&mut self, m: Move) {
        let keys = &*KEYS;
        let from = m.from();
        let to = m.to();
        let us = self.stm;
        let mut undo = self.undo_record(m, Piece::NONE);
        if self.ep != NO_EP {
            self.key ^= keys.ep_file[(self.ep & 7) as usize];
            self.ep = NO_EP;
        }
        self.halfmove += 1;
        let moving = self.board[from as usize];
        match m.kind() {
            MoveKind::Normal => {
                let cap = self.board[to as usize];
                if !cap.is_none() {
                    undo.captured = self.remove(to);
                    self.halfmove = 0;
                }
                self.shift(from, to);
                if moving.kind() == Kind::Pawn {
                    self.halfmove = 0;
                }
            }
            MoveKind::DoublePush => {
                self.shift(from, to);
                self.halfmove = 0;
                let ep = (from + to) / 2;
                if attacks::pawn(us, ep) & self.pieces(!us, Kind::Pawn) != 0 {
                    self.ep = ep;
                    self.key ^= keys.ep_file[(ep & 7) as usize];
                }
            }
            MoveKind::Castle => {
                // Lift both pieces first: in Chess960 the King may land on the Rook's square
                // or stay where it is.
                let (rf, rt) = self.castle_rook(to);
                let king = self.remove(from);
                let rook = self.remove(rf);
                self.put(to, king);
                self.put(rt, rook);
            }
            MoveKind::EnPassant => {
                undo.captured = self.remove(to ^ 8);
                self.shift(from, to);
                self.halfmove = 0;
            }
            _ => {
                let cap = self.board[to as usize];
                if !cap.is_none() {
                    undo.captured = self.remove(to);
                }
                self.remove(from);
                let promo = m.promotion().unwrap_or(Kind::Queen);
                self.put(to, Piece::new(us, promo));
                self.halfmove = 0;
            }
        }
        if self.castling != 0 {
            let mask = &self.castling_setup.mask;
            let rights = self.castling & mask[from as usize] & mask[to as usize];
            if rights != self.castling {
                self.key ^= keys.castling[self.castling as usize] ^ keys.castling[rights as usize];
                self.castling = rights;
            }
        }
        self.stm = !us;
        self.key ^= keys.side;
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.checkers = self.compute_checkers();
        self.stack.push(undo);
    }

    /// Plays a *placement* ply for variants built on orthodox chess (rules/mystic.md 2): puts
    /// `piece` on `sq`, which must be empty (a drop) or hold a piece of the side to move (an
    /// in-place change, replaced). The side to move changes, the en passant square is cleared
    /// and the halfmove clock resets. The caller checks legality (no own King left in check).
    /// Undone by [`Chess::unmake_move`].
    pub fn make_placement(&mut self, sq: u8, piece: Piece) {
        let keys = &*KEYS;
        let us = self.stm;
        let undo = self.undo_record(Move::placement(sq, piece), self.board[sq as usize]);
        if self.ep != NO_EP {
            self.key ^= keys.ep_file[(self.ep & 7) as usize];
            self.ep = NO_EP;
        }
        if !undo.captured.is_none() {
            self.remove(sq);
        }
        self.put(sq, piece);
        self.halfmove = 0;
        self.stm = !us;
        self.key ^= keys.side;
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.checkers = self.compute_checkers();
        self.stack.push(undo);
    }

    /// Passes the move (for null-move pruning; never when in check). Undone by `unmake_move`.
    pub fn make_null_move(&mut self) {
        let undo = self.undo_record(Move::NULL, Piece::NONE);
        if self.ep != NO_EP {
            self.key ^= KEYS.ep_file[(self.ep & 7) as usize];
            self.ep = NO_EP;
        }
        self.halfmove += 1;
        self.stm = !self.stm;
        self.key ^= KEYS.side;
        self.checkers = 0;
        self.stack.push(undo);
    }

    /// Takes back the last move (or null move).
    pub fn unmake_move(&mut self) {
        let u = self
            .stack
            .pop()
            .expect("unmake without a move to take back");
        self.stm = !self.stm;
        let us = self.stm;
        if us == Color::Black {
            self.fullmove -= 1;
        }
        let m = u.mv;
        if let Some((sq, _)) = m.as_placement() {
            self.remove(sq);
            if !u.captured.is_none() {
                self.put(sq, u.captured);
            }
        } else if m != Move::NULL {
            let (from, to) = (m.from(), m.to());
            match m.kind() {
                MoveKind::Normal | MoveKind::DoublePush => {
                    self.shift(to, from);
                    if !u.captured.is_none() {
                        self.put(to, u.captured);
                    }
                }
                MoveKind::Castle => {
                    let (rf, rt) = self.castle_rook(to);
                    let king = self.remove(to);
                    let rook = self.remove(rt);
                    self.put(from, king);
                    self.put(rf, rook);
                }
                MoveKind::EnPassant => {
                    self.shift(to, from);
                    self.put(to ^ 8, u.captured);
                }
                _ => {
                    self.remove(to);
                    self.put(from, Piece::new(us, Kind::Pawn));
                    if !u.captured.is_none() {
                        self.put(to, u.captured);
                    }
                }
            }
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.key = u.key;
        self.checkers = u.checkers;
    }

    /// The zobrist key computed from scratch (for tests of the incremental key).
    pub fn compute_key(&self) -> u64 {
        let keys = &*KEYS;
        let mut k = 0;
        for sq in 0..64 {
            let p = self.board[sq];
            if !p.is_none() {
                k ^= keys.piece[p.index()][sq];
            }
        }
        if self.stm == Color::Black {
            k ^= keys.side;
        }
        k ^= keys.castling[self.castling as usize];
        if self.ep != NO_EP {
            k ^= keys.ep_file[(self.ep & 7) as usize];
        }
        k
    }

    /// Number of times the current position occurred before in the game (same key, same side
    /// to move), looking back only as far as the last irreversible move. `stop_after` ends the
    /// scan after that many matches.
    pub(crate) fn repetitions(&self, stop_after: usize) -> usize {
        let n = self.stack.len();
        let reach = (self.halfmove as usize).min(n);
        crate::core::repetition::count(self.key, reach, stop_after, |i| self.stack[n - i].key)
    }

    /// Repetition inside the search tree: a repeat of a position reached after the root
    /// (within `plies_from_root`) counts once; one from before the root needs two earlier
    /// occurrences (threefold).
    pub(crate) fn is_repetition(&self, plies_from_root: usize) -> bool {
        let n = self.stack.len();
        let reach = (self.halfmove as usize).min(n);
        crate::core::repetition::in_search(self.key, reach, plies_from_root, |i| {
            self.stack[n - i].key
        })
    }

    /// Neither side can mate by any sequence of legal moves (FIDE 5.2.2), for the material
    /// cases that are certain: K v K, K+minor v K, and K+B v K+B with bishops on one colour.
    pub fn insufficient_material(&self) -> bool {
        if self.by_kind[0] | self.by_kind[3] | self.by_kind[4] != 0 {
            return false;
        }
        let minors = self.by_kind[1] | self.by_kind[2];
        if minors.count_ones() <= 1 {
            return true;
        }
        // Only bishops left, all on squares of one colour.
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        self.by_kind[1] == 0 && (self.by_kind[2] & DARK == 0 || self.by_kind[2] & !DARK == 0)
    }

    /// Parses the placement field of a FEN (8 ranks, rank 8 first) into a position with White
    /// to move and no rights, clocks at `0 1`; checks that each side has exactly one King.
    /// Shared by the variants built on orthodox chess, which add their own field checks.
    ///
    /// Errors: field `board` (rank count, unknown letter, rank length, King count).
    pub(crate) fn parse_placement(placement: &str) -> Result<Chess, FenError> {
        let mut pos = Chess {
            board: [Piece::NONE; 64],
            by_kind: [0; 6],
            by_color: [0; 2],
            stm: Color::White,
            castling: 0,
            ep: NO_EP,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            checkers: 0,
            stack: Vec::with_capacity(STACK_RESERVE),
            castling_setup: CastlingSetup::ORTHODOX,
            chess960: false,
        };
        parse_board_rows(placement, 8, 8, |rank, file, c| {
            let (color, kind) =
                Kind::from_letter(c).ok_or_else(|| format!("unknown piece letter '{c}'"))?;
            pos.put((rank * 8 + file) as u8, Piece::new(color, kind));
            Ok(())
        })?;
        for color in Color::ALL {
            let n = pos.pieces(color, Kind::King).count_ones();
            if n != 1 {
                return Err(FenError::new(
                    "board",
                    format!("{color:?} has {n} kings, expected 1"),
                ));
            }
        }
        Ok(pos)
    }

    /// Parses a FEN (six fields; the two counters may be omitted).
    ///
    /// Errors name the field: `board` (shape, unknown letter, King count, pawns on the back
    /// ranks), `side to move`, `castling` (`KQkq`, Shredder-FEN file letters or X-FEN: see
    /// [`castling`]; an unknown letter or a right without its King and Rook),
    /// `en passant`, `halfmove clock`, `fullmove number`, or `position` (side not to move in check).
    pub fn parse_fen(fen: &str) -> Result<Chess, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(FenError::new(
                "fen",
                format!("expected at least 4 fields, found {}", fields.len()),
            ));
        }
        if fields.len() > 6 {
            return Err(FenError::new(
                "fen",
                format!("expected at most 6 fields, found {}", fields.len()),
            ));
        }
        let mut pos = Chess::parse_placement(fields[0])?;
        if pos.by_kind[0] & (attacks::RANK_1 | attacks::RANK_8) != 0 {
            return Err(FenError::new("board", "pawn on the first or last rank"));
        }
        pos.stm = Color::from_fen(fields[1]).ok_or_else(|| {
            FenError::new(
                "side to move",
                format!("expected 'w' or 'b', found '{}'", fields[1]),
            )
        })?;
        let (rights, setup) = castling::parse_field(&pos, fields[2])?;
        pos.castling = rights;
        pos.castling_setup = setup;
        if fields[3] != "-" {
            let sq = crate::core::geometry::BOARD_8X8
                .parse_square(fields[3])
                .map_err(|e| FenError::new("en passant", e.to_string()))?;
            let (rank, pushed) = if pos.stm == Color::White {
                (5, sq - 8)
            } else {
                (2, sq + 8)
            };
            if sq / 8 != rank
                || pos.board[pushed as usize] != Piece::new(!pos.stm, Kind::Pawn)
                || !pos.board[sq as usize].is_none()
            {
                return Err(FenError::new(
                    "en passant",
                    format!("'{}' is not a square a pawn just passed", fields[3]),
                ));
            }
            // Kept only when a pawn of the side to move could capture there (canonical form).
            if attacks::pawn(!pos.stm, sq) & pos.pieces(pos.stm, Kind::Pawn) != 0 {
                pos.ep = sq;
            }
        }
        if let Some(h) = fields.get(4) {
            pos.halfmove = h
                .parse()
                .map_err(|_| FenError::new("halfmove clock", format!("'{h}' is not a number")))?;
        }
        if let Some(f) = fields.get(5) {
            pos.fullmove = f
                .parse()
                .map_err(|_| FenError::new("fullmove number", format!("'{f}' is not a number")))?;
            if pos.fullmove == 0 {
                return Err(FenError::new("fullmove number", "must be at least 1"));
            }
        }
        let them = !pos.stm;
        if pos.attackers_to(pos.king_sq(them), pos.occupied(), pos.stm) != 0 {
            return Err(FenError::new(
                "position",
                "the side not to move is in check",
            ));
        }
        pos.key = pos.compute_key();
        pos.checkers = pos.compute_checkers();
        Ok(pos)
    }

    /// The FEN of the position. The en passant field is given only when a capture there is
    /// possible by a pawn of the side to move (as Stockfish prints it).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let p = self.board[rank * 8 + file];
                if p.is_none() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(p.letter());
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.stm.fen_char());
        s.push(' ');
        castling::write_field(self, &mut s);
        s.push(' ');
        if self.ep == NO_EP {
            s.push('-');
        } else {
            s.push_str(&crate::core::geometry::BOARD_8X8.name(self.ep).to_string());
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}
