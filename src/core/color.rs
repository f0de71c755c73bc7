//! The two sides.

use std::ops::Not;

/// A side: White moves first in every variant of this project.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first; uppercase letters in FEN.
    White = 0,
    /// The second side; lowercase letters in FEN.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: an index into per-side arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN side-to-move letter (`w` or `b`).
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Parses a FEN side-to-move field (`w` or `b`).
    pub fn from_fen(s: &str) -> Option<Color> {
        match s {
            "w" => Some(Color::White),
            "b" => Some(Color::Black),
            _ => None,
        }
    }

    /// +1 for White, -1 for Black: turns a White-view score into a side-view one.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}
