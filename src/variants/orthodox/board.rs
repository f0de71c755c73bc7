//! The orthodox board: what stands where, as a mailbox and bitboards, with the zobrist key of
//! the pieces. It knows no side to move, castling, en passant, clocks or coins: those are the
//! state of each variant's position (chess, Muster, Mystic), as shakmaty keeps its `Board`
//! apart from each variant's `Position`.

use super::attacks;
use super::types::{Kind, Move, MoveKind, Piece};
use crate::core::geometry::BOARD_8X8;
use crate::core::{zobrist, Color};
use crate::variants::fen_board::parse_board_rows;
use crate::variants::FenError;

/// Seed of the orthodox key stream (zobrist keys: 12 x 64 piece-square keys, the side to move,
/// then 4 castling-right keys and 8 en passant file keys).
const SEED: u64 = 0x000c_4e55;

/// The zobrist keys of the orthodox game, from one fixed stream: the piece-square keys the
/// [`Board`] keeps in its key, the side-to-move key, and the keys of the FIDE castling rights
/// and en passant files that chess (and Mystic, for en passant) add to their positions' keys.
pub struct Keys {
    /// Piece-square keys, by [`Piece::index`] and square.
    pub piece: [[u64; 64]; 12],
    /// XORed in when Black is to move.
    pub side: u64,
    /// The key of each set of castling rights (bits `WK WQ BK BQ`): the XOR of its members.
    pub castling: [u64; 16],
    /// The key of an en passant square, by file.
    pub ep_file: [u64; 8],
}

/// The number of keys in the orthodox stream.
const KEY_COUNT: usize = 12 * 64 + 1 + 16 + 8;

/// The orthodox zobrist keys (see [`Keys`]), computed at compile time: a plain static, so the
/// hot paths (put, remove, shift, make) read it without a first-use check.
pub static KEYS: Keys = build_keys();

/// Builds [`KEYS`] from the stream seeded with [`SEED`].
const fn build_keys() -> Keys {
    let k: [u64; KEY_COUNT] = zobrist::key_array(SEED);
    let mut piece = [[0; 64]; 12];
    let mut i = 0;
    while i < 12 * 64 {
        piece[i / 64][i % 64] = k[i];
        i += 1;
    }
    // Each right has its own key; a set of rights is the XOR of its members.
    let mut castling = [0; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut b = 0;
        while b < 4 {
            if mask & (1 << b) != 0 {
                castling[mask] ^= k[12 * 64 + 1 + b];
            }
            b += 1;
        }
        mask += 1;
    }
    let mut ep_file = [0; 8];
    let mut f = 0;
    while f < 8 {
        ep_file[f] = k[12 * 64 + 17 + f];
        f += 1;
    }
    Keys {
        piece,
        side: k[12 * 64],
        castling,
        ep_file,
    }
}

/// Pieces on the 8x8 board (a1 = 0 .. h8 = 63): a mailbox, bitboards by kind and by colour,
/// and the zobrist key of the pieces ([`Keys::piece`]), kept up to date by [`Board::put`],
/// [`Board::remove`] and [`Board::shift`].
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    squares: [Piece; 64],
    by_kind: [u64; 6],
    by_color: [u64; 2],
    key: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.placement())
    }
}

impl Board {
    /// The empty board.
    pub const fn empty() -> Board {
        Board {
            squares: [Piece::NONE; 64],
            by_kind: [0; 6],
            by_color: [0; 2],
            key: 0,
        }
    }

    /// Bitboard of `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: Kind) -> u64 {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// The squares `color`'s pawns attack (a1 = bit 0), set-wise.
    #[inline(always)]
    pub fn pawn_attacks_of(&self, color: Color) -> u64 {
        let p = self.pieces(color, Kind::Pawn);
        let (west, east) = (p & !attacks::FILE_A, p & !attacks::FILE_H);
        match color {
            Color::White => (west << 7) | (east << 9),
            Color::Black => (west >> 9) | (east >> 7),
        }
    }

    /// A hash of both sides' pawns (computed, not kept: a few multiplications), the key of the
    /// search's correction history ([`crate::variants::Evaluation::correction_key`]).
    #[inline]
    pub fn pawn_hash(&self) -> u64 {
        let black = zobrist::mix64(self.pieces(Color::Black, Kind::Pawn) ^ 0x5A5A);
        zobrist::mix64(self.pieces(Color::White, Kind::Pawn) ^ black)
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

    /// Bitboard of every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    /// The piece on `sq`, [`Piece::NONE`] when empty.
    #[inline(always)]
    pub fn piece_at(&self, sq: u8) -> Piece {
        self.squares[sq as usize]
    }

    /// The continuation-history key of the board move `m` (for
    /// [`crate::variants::Evaluation::cont_code`]): the moving piece (colour and kind) and the
    /// destination square, 1..=768 (up to 832 when `m.from()` is empty).
    #[inline]
    pub fn cont_code(&self, m: Move) -> u16 {
        1 + self.piece_at(m.from()).index() as u16 * 64 + u16::from(m.to())
    }

    /// The square of `color`'s King (64 when it has none).
    #[inline(always)]
    pub fn king_sq(&self, color: Color) -> u8 {
        self.pieces(color, Kind::King).trailing_zeros() as u8
    }

    /// Whether `color` has a piece other than pawns and its King (the usual guard against
    /// null-move pruning in zugzwang).
    #[inline(always)]
    pub fn has_pieces(&self, color: Color) -> bool {
        self.color_bb(color) & !(self.pieces(color, Kind::Pawn) | self.pieces(color, Kind::King))
            != 0
    }

    /// The zobrist key of the pieces (the XOR of [`Keys::piece`] over the occupied squares).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Puts `p` on the empty square `sq`.
    #[inline(always)]
    pub fn put(&mut self, sq: u8, p: Piece) {
        self.put_keyless(sq, p);
        self.key ^= KEYS.piece[p.index()][sq as usize];
    }

    /// Removes and returns the piece on the occupied square `sq`.
    #[inline(always)]
    pub fn remove(&mut self, sq: u8) -> Piece {
        let p = self.remove_keyless(sq);
        self.key ^= KEYS.piece[p.index()][sq as usize];
        p
    }

    /// Moves the piece on `from` to the empty square `to`.
    #[inline(always)]
    pub fn shift(&mut self, from: u8, to: u8) {
        let p = self.squares[from as usize];
        self.shift_keyless(from, to);
        let k = &KEYS.piece[p.index()];
        self.key ^= k[from as usize] ^ k[to as usize];
    }

    /// [`Board::put`] without touching the key: for an unmake that restores the key it
    /// recorded (then [`Board::restore_key`]).
    #[inline(always)]
    pub fn put_keyless(&mut self, sq: u8, p: Piece) {
        let b = 1u64 << sq;
        self.squares[sq as usize] = p;
        self.by_kind[p.kind().index()] |= b;
        self.by_color[p.color().index()] |= b;
    }

    /// [`Board::remove`] without touching the key (see [`Board::put_keyless`]).
    #[inline(always)]
    pub fn remove_keyless(&mut self, sq: u8) -> Piece {
        let p = self.squares[sq as usize];
        let b = 1u64 << sq;
        self.squares[sq as usize] = Piece::NONE;
        self.by_kind[p.kind().index()] ^= b;
        self.by_color[p.color().index()] ^= b;
        p
    }

    /// [`Board::shift`] without touching the key (see [`Board::put_keyless`]).
    #[inline(always)]
    pub fn shift_keyless(&mut self, from: u8, to: u8) {
        let p = self.squares[from as usize];
        let b = (1u64 << from) | (1u64 << to);
        self.squares[from as usize] = Piece::NONE;
        self.squares[to as usize] = p;
        self.by_kind[p.kind().index()] ^= b;
        self.by_color[p.color().index()] ^= b;
    }

    /// Sets the piece key to `key`, the value [`Board::key`] had when the pieces stood as they
    /// stand now (the end of an unmake made with the keyless moves).
    #[inline(always)]
    pub fn restore_key(&mut self, key: u64) {
        self.key = key;
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

    /// Whether `us` playing the pseudo-legal orthodox ply `m` would give check: the moved (or
    /// promoted) man attacks the enemy King from its destination, or a slider of `us` behind
    /// its origin does. `None` for castling and en passant (rarer, with more cases), and when
    /// the enemy has no King. Used by the search to prune a ply without making it
    /// ([`crate::variants::Rules::gives_check`]).
    #[inline]
    pub fn gives_check(&self, us: Color, m: Move) -> Option<bool> {
        if matches!(m.kind(), MoveKind::Castle | MoveKind::EnPassant)
            || self.pieces(!us, Kind::King) == 0
        {
            return None;
        }
        let (from, to) = (m.from(), m.to());
        let king = self.king_sq(!us);
        let occ = (self.occupied() & !(1u64 << from)) | (1u64 << to);
        let kind = m.promotion().unwrap_or_else(|| self.piece_at(from).kind());
        let direct = match kind {
            Kind::Pawn => attacks::pawn(us, to),
            Kind::Knight => attacks::knight(to),
            Kind::Bishop => attacks::bishop(to, occ),
            Kind::Rook => attacks::rook(to, occ),
            Kind::Queen => attacks::queen(to, occ),
            Kind::King => 0,
        };
        if direct & (1u64 << king) != 0 {
            return Some(true);
        }
        let ours = self.color_bb(us) & !(1u64 << from);
        let queens = self.pieces(us, Kind::Queen);
        let diagonal = (self.pieces(us, Kind::Bishop) | queens) & ours;
        let straight = (self.pieces(us, Kind::Rook) | queens) & ours;
        Some(attacks::bishop(king, occ) & diagonal != 0 || attacks::rook(king, occ) & straight != 0)
    }

    /// The enemy pieces giving check to `us`'s King.
    #[inline(always)]
    pub fn checkers(&self, us: Color) -> u64 {
        self.attackers_to(self.king_sq(us), self.occupied(), !us)
    }

    /// Pieces of `us` pinned to their own King.
    #[inline(always)]
    pub fn pinned(&self, us: Color) -> u64 {
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

    /// The key of the pieces computed from scratch (what [`Board::key`] must equal).
    pub fn compute_key(&self) -> u64 {
        let keys = &KEYS;
        let mut k = 0;
        for sq in 0..64 {
            let p = self.squares[sq];
            if !p.is_none() {
                k ^= keys.piece[p.index()][sq];
            }
        }
        k
    }

    /// Whether the mailbox, the bitboards and the key agree with each other (a validity check
    /// for tests and debug builds).
    pub fn is_consistent(&self) -> bool {
        let mut by_kind = [0u64; 6];
        let mut by_color = [0u64; 2];
        for (sq, p) in self.squares.iter().enumerate() {
            if !p.is_none() {
                by_kind[p.kind().index()] |= 1 << sq;
                by_color[p.color().index()] |= 1 << sq;
            }
        }
        by_kind == self.by_kind
            && by_color == self.by_color
            && self.by_color[0] & self.by_color[1] == 0
            && self.key == self.compute_key()
    }

    /// Parses the placement field of a FEN (8 ranks, rank 8 first) and checks that each side
    /// has exactly one King.
    ///
    /// Errors: field `board` (rank count, unknown letter, rank length, King count).
    pub fn from_placement(placement: &str) -> Result<Board, FenError> {
        let mut board = Board::empty();
        parse_board_rows(placement, 8, 8, |rank, file, c| {
            let (color, kind) =
                Kind::from_letter(c).ok_or_else(|| format!("unknown piece letter '{c}'"))?;
            board.put((rank * 8 + file) as u8, Piece::new(color, kind));
            Ok(())
        })?;
        for color in Color::ALL {
            let n = board.pieces(color, Kind::King).count_ones();
            if n != 1 {
                return Err(FenError::new(
                    "board",
                    format!("{color:?} has {n} kings, expected 1"),
                ));
            }
        }
        Ok(board)
    }

    /// The placement field of the FEN: ranks 8 to 1, `/` between them, digits for empty runs.
    pub fn placement(&self) -> String {
        let mut s = String::with_capacity(72);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let p = self.squares[rank * 8 + file];
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
        s
    }

    /// The board as the `d` command draws it: a grid of 8 ranks with their numbers, the file
    /// letters below, and a blank line.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        s.push_str(" +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let p = self.squares[rank * 8 + file];
                s.push_str(" | ");
                s.push(if p.is_none() { ' ' } else { p.letter() });
            }
            s.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        s.push_str("   a   b   c   d   e   f   g   h\n\n");
        s
    }
}

/// The names of the squares of `bb` separated by spaces, in square order (`e1 h4`).
pub fn square_names(mut bb: u64) -> String {
    let mut s = String::new();
    while bb != 0 {
        let sq = bb.trailing_zeros() as u8;
        bb &= bb - 1;
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&BOARD_8X8.name(sq).to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_remove_shift_keep_the_board_consistent() {
        let mut b = Board::from_placement("4k3/8/8/8/8/8/4P3/4K3").unwrap();
        assert!(b.is_consistent());
        let start = b.key();
        b.shift(12, 28);
        assert!(b.is_consistent());
        let p = b.remove(28);
        assert_eq!(p, Piece::new(Color::White, Kind::Pawn));
        b.put(12, p);
        assert!(b.is_consistent());
        assert_eq!(b.key(), start);
        assert_eq!(b.placement(), "4k3/8/8/8/8/8/4P3/4K3");
        assert!(Board::from_placement("8/8/8/8/8/8/8/4K3").is_err());
    }

    #[test]
    fn pawn_hash_sees_only_pawns() {
        let b = Board::from_placement("r3k3/pp6/8/8/8/8/PP6/R3K1N1").unwrap();
        // A pawn push changes the pawn hash.
        let pushed = Board::from_placement("r3k3/pp6/8/8/8/P7/1P6/R3K1N1").unwrap();
        assert_ne!(pushed.pawn_hash(), b.pawn_hash());
        // A knight move does not.
        let moved = Board::from_placement("r3k3/pp6/8/8/8/5N2/PP6/R3K3").unwrap();
        assert_eq!(moved.pawn_hash(), b.pawn_hash());
    }
}
