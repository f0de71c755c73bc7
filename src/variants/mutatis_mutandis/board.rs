//! The board of pieces the generators read: 64 cells, occupancy and per-state bitboards, the
//! en-passant square (rules 10) and the swap-back ban (rules 7.3). The FEN board field
//! (rules 11) is parsed and printed here; the rest of the FEN belongs to the game (later issue).

use std::fmt::{self, Write as _};

use crate::core::geometry::BOARD_8X8;
use crate::core::{Color, Square};

use super::piece::{Piece, State, STATE_COUNT};

/// One bit per square of the 8x8 board (a1 = bit 0, h8 = bit 63).
pub type Bb = u64;

/// Why a FEN board field (or one of its squares) did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Not 8 ranks separated by `/`.
    #[error("board field: expected 8 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A rank that does not describe exactly 8 squares.
    #[error("board field: rank {rank} describes {squares} squares instead of 8")]
    RankWidth {
        /// Rank label (8 = top rank, written first).
        rank: usize,
        /// Squares it described.
        squares: usize,
    },
    /// A bracket that is never closed, or an unknown piece code.
    #[error("board field: '{0}' is not a piece code of rules section 2")]
    BadPiece(String),
    /// An empty-square run of 0 or with a leading zero (not canonical).
    #[error("board field: rank {0} has an empty-square count of zero or with a leading zero")]
    ZeroRun(usize),
    /// A square name that is not on the board.
    #[error("'{0}' is not a square of the 8x8 board")]
    BadSquare(String),
}

/// The board of pieces of Mutatis Mutandis (rules 1, 2): no side to move, reserves or clocks,
/// which belong to the game. About 550 bytes; the generators only read it, never clone it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    cells: [Option<Piece>; 64],
    by_color: [Bb; 2],
    by_state: [Bb; STATE_COUNT],
    /// En-passant square (the square a `P` double step skipped, rules 10), if the last action
    /// was such a double step.
    pub ep: Option<Square>,
    /// The two squares of the swap-back ban (rules 7.3): the pieces standing there may not swap
    /// with each other on this turn.
    pub swap_ban: Option<(Square, Square)>,
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

/// Parses a square name of the 8x8 board (`e4`).
pub fn parse_square(s: &str) -> Result<Square, BoardError> {
    BOARD_8X8
        .parse_square(s)
        .map_err(|_| BoardError::BadSquare(s.to_string()))
}

/// The name of a square (`e4`).
pub fn square_name(sq: Square) -> crate::core::geometry::SquareName {
    BOARD_8X8.name(sq)
}

/// File 0..8 of a square.
#[inline(always)]
pub const fn file_of(sq: Square) -> i32 {
    (sq & 7) as i32
}

/// Rank row 0..8 of a square (0 = rank 1).
#[inline(always)]
pub const fn rank_of(sq: Square) -> i32 {
    (sq >> 3) as i32
}

/// The square at (file, row) if on the board.
#[inline(always)]
pub const fn at(file: i32, row: i32) -> Option<Square> {
    if file < 0 || file > 7 || row < 0 || row > 7 {
        None
    } else {
        Some((row * 8 + file) as Square)
    }
}

/// The square `sq + (df, dr)` if on the board.
#[inline(always)]
pub const fn step(sq: Square, df: i32, dr: i32) -> Option<Square> {
    at(file_of(sq) + df, rank_of(sq) + dr)
}

/// The squares of `set` and their neighbours (the king's step, rules 7.1 and 7.4 adjacency).
#[inline(always)]
pub const fn around(set: Bb) -> Bb {
    const FILE_A: Bb = 0x0101_0101_0101_0101;
    const FILE_H: Bb = FILE_A << 7;
    let row = set | ((set << 1) & !FILE_A) | ((set >> 1) & !FILE_H);
    row | (row << 8) | (row >> 8)
}

/// The squares a King step away from some square of `set` (the union of their 8 neighbours:
/// a square of `set` is in it only when next to another).
#[inline(always)]
pub const fn neighbours(set: Bb) -> Bb {
    const FILE_A: Bb = 0x0101_0101_0101_0101;
    const FILE_H: Bb = FILE_A << 7;
    let sides = ((set << 1) & !FILE_A) | ((set >> 1) & !FILE_H);
    let row = sides | set;
    sides | (row << 8) | (row >> 8)
}

/// The single-bit set of a square.
#[inline(always)]
pub const fn bit(sq: Square) -> Bb {
    1u64 << sq
}

/// Forward rank direction of a colour (rules 1): +1 White, -1 Blue.
#[inline(always)]
pub const fn forward(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

impl Board {
    /// An empty board, no en passant, no swap ban.
    pub const fn empty() -> Board {
        Board {
            cells: [None; 64],
            by_color: [0; 2],
            by_state: [0; STATE_COUNT],
            ep: None,
            swap_ban: None,
        }
    }

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece(&self, sq: Square) -> Option<Piece> {
        self.cells[sq as usize]
    }

    /// Puts `p` on `sq`, replacing whatever stood there.
    pub fn put(&mut self, sq: Square, p: Piece) {
        self.remove(sq);
        self.cells[sq as usize] = Some(p);
        self.by_color[p.color.index()] |= bit(sq);
        self.by_state[p.state.index()] |= bit(sq);
    }

    /// Removes and returns the piece on `sq`.
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let p = self.cells[sq as usize].take()?;
        self.by_color[p.color.index()] &= !bit(sq);
        self.by_state[p.state.index()] &= !bit(sq);
        Some(p)
    }

    /// Squares occupied by `color`.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bb {
        self.by_color[color.index()]
    }

    /// Squares occupied by either side.
    #[inline(always)]
    pub fn occupied(&self) -> Bb {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares holding a piece (either colour) in `state`.
    #[inline(always)]
    pub fn state_bb(&self, state: State) -> Bb {
        self.by_state[state.index()]
    }

    /// Squares holding a piece of `color` in `state`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, state: State) -> Bb {
        self.by_state[state.index()] & self.by_color[color.index()]
    }

    /// Pieces of `color` that are frozen (rules 7.1): adjacent to an enemy Immobilizer, or an
    /// Immobilizer of `color` adjacent to an enemy Chameleon.
    pub fn frozen(&self, color: Color) -> Bb {
        // By shifts, without branching on which pieces are there (hard to predict).
        let immobilizers = self.pieces(!color, State::Immobilizer);
        let own_immobilizers = self.pieces(color, State::Immobilizer);
        let chameleons = self.pieces(!color, State::Chameleon);
        (around(immobilizers) & self.color_bb(color)) | (around(chameleons) & own_immobilizers)
    }

    /// Pieces of `color` protected by a friendly Shield (rules 6.2 `SH`, 7.4): adjacent to a
    /// Shield of their colour (a Shield does not protect itself; another Shield does).
    pub fn shielded(&self, color: Color) -> Bb {
        neighbours(self.pieces(color, State::Shield)) & self.color_bb(color)
    }

    /// Parses the board field of the FEN (rules 11): ranks 8 to 1, digits for empty runs,
    /// one-letter codes bare (or bracketed, [D 32]), longer codes in brackets, case = colour.
    ///
    /// Errors: [`BoardError`] naming the rank or the code at fault.
    pub fn from_fen_board(field: &str) -> Result<Board, BoardError> {
        let ranks: Vec<&str> = field.split('/').collect();
        if ranks.len() != 8 {
            return Err(BoardError::RankCount(ranks.len()));
        }
        let mut b = Board::empty();
        for (i, text) in ranks.iter().enumerate() {
            let row = 7 - i as i32;
            let mut file = 0usize;
            let mut chars = text.char_indices().peekable();
            while let Some((pos, c)) = chars.next() {
                let piece = if c.is_ascii_digit() {
                    let mut end = pos + 1;
                    while let Some(&(p, d)) = chars.peek() {
                        if !d.is_ascii_digit() {
                            break;
                        }
                        end = p + 1;
                        chars.next();
                    }
                    if c == '0' {
                        return Err(BoardError::ZeroRun(row as usize + 1));
                    }
                    let n: usize = text[pos..end].parse().unwrap_or(usize::MAX);
                    file = file.saturating_add(n);
                    if file > 8 {
                        break;
                    }
                    continue;
                } else if c == '[' {
                    let close = text[pos..]
                        .find(']')
                        .ok_or_else(|| BoardError::BadPiece(text[pos..].to_string()))?;
                    let code = &text[pos + 1..pos + close];
                    while let Some(&(p, _)) = chars.peek() {
                        if p > pos + close {
                            break;
                        }
                        chars.next();
                    }
                    // [D 32]: a one-letter code in brackets (`[K]`) is accepted too; it is
                    // printed bare.
                    match Piece::from_code(code) {
                        Some(p) => p,
                        None => return Err(BoardError::BadPiece(format!("[{code}]"))),
                    }
                } else {
                    let code = &text[pos..pos + c.len_utf8()];
                    Piece::from_code(code).ok_or_else(|| BoardError::BadPiece(code.to_string()))?
                };
                if file >= 8 {
                    file += 1;
                    break;
                }
                b.put((row * 8) as Square + file as Square, piece);
                file += 1;
            }
            if file != 8 {
                return Err(BoardError::RankWidth {
                    rank: row as usize + 1,
                    squares: file,
                });
            }
        }
        Ok(b)
    }

    /// The FEN board field (rules 11), canonical: the inverse of [`Board::from_fen_board`].
    pub fn fen_board(&self) -> String {
        let mut s = String::new();
        for row in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.cells[row * 8 + file] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(s, "{empty}");
                            empty = 0;
                        }
                        let _ = p.write_fen(&mut s);
                    }
                }
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
            }
            if row > 0 {
                s.push('/');
            }
        }
        s
    }

    /// A board from a list of `(square, code)` pairs, code case = colour (`("d4", "DR")`,
    /// `("e5", "p")`): a convenience for tests and tools.
    ///
    /// Errors: [`BoardError`] for a bad square or code.
    pub fn from_list(list: &[(&str, &str)]) -> Result<Board, BoardError> {
        let mut b = Board::empty();
        for &(sq, code) in list {
            let p = Piece::from_code(code).ok_or_else(|| BoardError::BadPiece(code.to_string()))?;
            b.put(parse_square(sq)?, p);
        }
        Ok(b)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen_board())
    }
}

/// Iterates over the squares of a set, a1 first.
#[inline(always)]
pub fn iter(mut b: Bb) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let s = b.trailing_zeros() as Square;
            b &= b - 1;
            Some(s)
        }
    })
}

/// `n` pseudo-random (square, occupancy) pairs for tests (xorshift from `seed`): sparse,
/// medium and dense occupancies in turn, the square always empty.
#[cfg(test)]
pub(crate) fn random_placements(seed: u64, n: usize) -> Vec<(crate::core::Square, Bb)> {
    let mut x = seed;
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = match i % 3 {
                0 => x & (x >> 5),
                1 => x,
                _ => x | (x >> 9),
            };
            let from = (x >> 58) as crate::core::Square;
            (from, occ & !bit(from))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tables::tables;
    use super::*;

    /// 2000 pseudo-random square sets, sparse and dense alike (xorshift).
    fn random_sets() -> Vec<Bb> {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        (0..2000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x & (x >> 3) & (x >> 11)
            })
            .collect()
    }

    #[test]
    fn around_is_each_square_with_its_king_steps() {
        let king = &tables().king;
        for set in random_sets() {
            let expected = iter(set).fold(0, |m, s| m | bit(s) | king.attacks(s));
            assert_eq!(around(set), expected, "set {set:#x}");
        }
        assert_eq!(around(bit(0)), bit(0) | bit(1) | bit(8) | bit(9));
        assert_eq!(around(bit(63)), bit(63) | bit(62) | bit(55) | bit(54));
    }

    #[test]
    fn neighbours_are_the_union_of_the_king_steps() {
        let king = &tables().king;
        for set in random_sets() {
            let expected = iter(set).fold(0, |m, s| m | king.attacks(s));
            assert_eq!(neighbours(set), expected, "set {set:#x}");
        }
        assert_eq!(neighbours(bit(0)), bit(1) | bit(8) | bit(9));
        assert_eq!(
            neighbours(bit(0) | bit(1)),
            bit(0) | bit(1) | bit(8) | bit(9) | bit(2) | bit(10)
        );
    }
}
