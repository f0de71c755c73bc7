//! Board geometry: how many files and ranks, which cells are real squares, what the squares are
//! called and what colour they are.
//!
//! A cell index is `row * files + file`, where `row` counts from the lowest rank row (0) upwards
//! and `file` from file `a` (0). The rank *label* printed in square names is `row + first_rank`:
//! 1 for most boards, 0 for a board whose lowest rank is numbered 0.

use std::fmt;

/// A cell of a board, as its index `row * files + file` (see the module docs).
pub type Square = u8;

/// The shape of a board: files x rank rows, which cells exist, how squares are named and coloured.
///
/// Built once per variant (usually as a `const`); every query is cheap arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Number of files (columns), at most 16.
    pub files: u8,
    /// Number of rank rows, including rows that only partly exist.
    pub ranks: u8,
    /// The label of the lowest rank row: 1 normally, 0 when a board has a rank 0.
    pub first_rank: u8,
    /// Bit `i` set when cell `i` is a square of the board (cells outside are `*` in FEN).
    pub cells: u128,
    /// Square colour convention: a square is light when `(file + rank label + light_parity)` is
    /// even, with `file` counted from 0. 0 gives the orthodox a1-dark board.
    pub light_parity: u8,
}

/// The 8x8 board, a1 dark.
pub const BOARD_8X8: Geometry = Geometry::rectangle(8, 8, 0);

/// Why a square name did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    /// Not a file letter followed by a rank number.
    #[error("'{0}' is not a square name (a file letter then a rank number)")]
    Malformed(String),
    /// Well-formed, but not a square of this board.
    #[error("'{0}' is not a square of this board")]
    OffBoard(String),
}

impl Geometry {
    /// A full rectangular board of `files` x `ranks`, ranks labelled from 1.
    pub const fn rectangle(files: u8, ranks: u8, light_parity: u8) -> Geometry {
        let n = files as u32 * ranks as u32;
        let cells = if n >= 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        Geometry {
            files,
            ranks,
            first_rank: 1,
            cells,
            light_parity,
        }
    }

    /// Total number of cells (files x rank rows), squares or not.
    #[inline(always)]
    pub const fn num_cells(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// File of a cell, 0 = file a.
    #[inline(always)]
    pub const fn file(&self, sq: Square) -> u8 {
        sq % self.files
    }

    /// Rank row of a cell, 0 = lowest row (the rank label is `row + first_rank`).
    #[inline(always)]
    pub const fn row(&self, sq: Square) -> u8 {
        sq / self.files
    }

    /// The cell at (file, row), if both are inside the bounding rectangle and it is a square.
    #[inline(always)]
    pub const fn square(&self, file: i32, row: i32) -> Option<Square> {
        if file < 0 || row < 0 || file >= self.files as i32 || row >= self.ranks as i32 {
            return None;
        }
        let sq = row as usize * self.files as usize + file as usize;
        if (self.cells >> sq) & 1 == 0 {
            None
        } else {
            Some(sq as Square)
        }
    }

    /// Whether cell `sq` is a square of the board.
    #[inline(always)]
    pub const fn is_square(&self, sq: Square) -> bool {
        (sq as usize) < self.num_cells() && (self.cells >> sq) & 1 != 0
    }

    /// The cell reached from `sq` by the step (df, dr) in files and rows, if it is a square.
    #[inline(always)]
    pub const fn offset(&self, sq: Square, df: i32, dr: i32) -> Option<Square> {
        self.square(self.file(sq) as i32 + df, self.row(sq) as i32 + dr)
    }

    /// Whether `sq` is a light square under this board's colouring.
    #[inline(always)]
    pub const fn is_light(&self, sq: Square) -> bool {
        let sum = self.file(sq) as u32
            + self.row(sq) as u32
            + self.first_rank as u32
            + self.light_parity as u32;
        sum & 1 == 0
    }

    /// Iterates over every square of the board (cells that exist), lowest index first.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.num_cells() as u32)
            .map(|i| i as Square)
            .filter(|&s| self.is_square(s))
    }

    /// The name of a square: file letter and rank label (`e4`, `a10`, `e0`).
    pub fn name(&self, sq: Square) -> SquareName {
        SquareName {
            file: self.file(sq),
            rank: self.row(sq) + self.first_rank,
        }
    }

    /// Parses a square name of this board (`e4`, `a10`, `e0`).
    ///
    /// Errors: [`SquareError::Malformed`] when the text is not a file letter and a decimal rank,
    /// [`SquareError::OffBoard`] when the square does not exist on this board.
    pub fn parse_square(&self, s: &str) -> Result<Square, SquareError> {
        let (file, rank) = split_square(s).ok_or_else(|| SquareError::Malformed(s.to_string()))?;
        let row = rank as i32 - self.first_rank as i32;
        self.square(file as i32, row)
            .ok_or_else(|| SquareError::OffBoard(s.to_string()))
    }

    /// Parses a square name at the start of `s`, returning the square and the number of bytes
    /// used. Used by token parsers where squares are not separated (`e2e4`, `a10a9`).
    pub fn parse_square_prefix(&self, s: &str) -> Result<(Square, usize), SquareError> {
        let b = s.as_bytes();
        if b.is_empty() || !b[0].is_ascii_lowercase() {
            return Err(SquareError::Malformed(s.to_string()));
        }
        let mut end = 1;
        while end < b.len() && end < 3 && b[end].is_ascii_digit() {
            end += 1;
        }
        // Prefer a two-digit rank only when the board has one (a10 vs a1 followed by a 0-rank square).
        if end == 3 {
            let two = &s[..3];
            if let Ok(sq) = self.parse_square(two) {
                return Ok((sq, 3));
            }
            end = 2;
        }
        if end == 1 {
            return Err(SquareError::Malformed(s.to_string()));
        }
        self.parse_square(&s[..end]).map(|sq| (sq, end))
    }
}

/// Splits `e4` / `a10` into (file index, rank label); `None` when malformed.
fn split_square(s: &str) -> Option<(u8, u8)> {
    let b = s.as_bytes();
    if b.len() < 2 || b.len() > 3 || !b[0].is_ascii_lowercase() {
        return None;
    }
    let digits = &s[1..];
    if !digits.bytes().all(|c| c.is_ascii_digit()) || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    let rank: u8 = digits.parse().ok()?;
    Some((b[0] - b'a', rank))
}

/// A printable square name (file letter + rank label).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareName {
    file: u8,
    rank: u8,
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orthodox_names_and_colours() {
        let g = BOARD_8X8;
        let e4 = g.parse_square("e4").unwrap();
        assert_eq!(e4, 28);
        assert_eq!(g.name(e4).to_string(), "e4");
        assert!(!g.is_light(g.parse_square("a1").unwrap()));
        assert!(g.is_light(g.parse_square("h1").unwrap()));
        assert!(g.parse_square("i1").is_err());
        assert!(g.parse_square("a9").is_err());
        assert!(g.parse_square("a0").is_err());
        assert_eq!(g.squares().count(), 64);
    }

    /// A 3x3 board with ranks 0..2 where the corners are not squares (a plus sign): holes,
    /// a rank 0, and names and colours on it.
    const PLUS: Geometry = Geometry {
        files: 3,
        ranks: 3,
        first_rank: 0,
        cells: 0b010_111_010,
        light_parity: 1,
    };

    #[test]
    fn rectangle_colours() {
        // 6 x 7, a1 dark: f1 light, 21 light squares.
        let g = Geometry::rectangle(6, 7, 0);
        assert!(!g.is_light(g.parse_square("a1").unwrap()));
        assert!(g.is_light(g.parse_square("f1").unwrap()));
        assert!(g.is_light(g.parse_square("b3").unwrap()));
        assert_eq!(g.squares().filter(|&s| g.is_light(s)).count(), 21);
    }

    #[test]
    fn holes_rank_zero_and_names() {
        let g = PLUS;
        assert_eq!(g.squares().count(), 5);
        for name in ["b0", "a1", "b1", "c1", "b2"] {
            let sq = g.parse_square(name).unwrap();
            assert_eq!(g.name(sq).to_string(), name);
        }
        for bad in ["a0", "c0", "a2", "c2"] {
            assert_eq!(
                g.parse_square(bad),
                Err(SquareError::OffBoard(bad.to_string()))
            );
        }
        assert!(g.is_light(g.parse_square("a1").unwrap()));
        assert_eq!(
            g.parse_square_prefix("b2b1").unwrap(),
            (g.parse_square("b2").unwrap(), 2)
        );
        assert_eq!(BOARD_8X8.parse_square_prefix("a1a2").unwrap(), (0, 2));
    }
}
