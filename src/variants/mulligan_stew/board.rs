//! Pieces, squares and attack tables of Mulligan Stew Chess (rules/mulligan-stew.md 1 and 3).
//!
//! Squares are cell indices of [`BOARD_6X7`] (`row * 6 + file`, a1 = 0, f7 = 41); sets of
//! squares are `u64` bitboards. Leaper sets (King, Mage step, knight, Mage swap reach) are
//! precomputed per square; rider moves walk the rays of the core [`RayTable`].

use std::sync::LazyLock;

use crate::core::attacks::{LeaperTable, RayTable, DIAGONAL, KING, KNIGHT, ORTHOGONAL};
use crate::core::geometry::Geometry;
use crate::core::{Color, Square};

/// The board of Mulligan Stew: 6 files x 7 ranks, a1 dark (rules/mulligan-stew.md 1).
pub const BOARD_6X7: Geometry = Geometry::rectangle(6, 7, 0);

/// Number of squares (6 files x 7 ranks).
pub const NSQ: usize = 42;

/// "No square" marker (e.g. no `moved` square).
pub const NO_SQ: Square = 255;

/// Every square of the board.
pub const ALL: u64 = (1u64 << NSQ) - 1;

/// The light squares: (file + rank) odd with 0-based file and rank, a1 dark (rules 1).
pub const LIGHT: u64 = {
    let mut b = 0u64;
    let mut sq = 0;
    while sq < NSQ {
        if (sq % 6 + sq / 6) % 2 == 1 {
            b |= 1 << sq;
        }
        sq += 1;
    }
    b
};

/// The dark squares (rules 1).
pub const DARK: u64 = ALL & !LIGHT;

/// Rank 1 (White's first rank, Black's last rank).
pub const RANK_1: u64 = 0b11_1111;
/// Rank 7 (Black's first rank, White's last rank).
pub const RANK_7: u64 = RANK_1 << 36;

/// The last rank of `side`'s Pawns (rules 3: rank 7 for White, rank 1 for Black).
#[inline(always)]
pub const fn last_rank(side: Color) -> u64 {
    match side {
        Color::White => RANK_7,
        Color::Black => RANK_1,
    }
}

/// The squares of the same colour as `sq` (rules 1).
#[inline(always)]
pub const fn colour_of(sq: Square) -> u64 {
    if (LIGHT >> sq) & 1 != 0 {
        LIGHT
    } else {
        DARK
    }
}

/// Piece kinds (rules 3): K M Q R C A P.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// King: ferz step or dabbaba jump.
    King = 0,
    /// Mage: one step, swap, drop.
    Mage = 1,
    /// Queen: orthodox.
    Queen = 2,
    /// Rook: orthodox.
    Rook = 3,
    /// Cardinal: knight plus bishop.
    Cardinal = 4,
    /// Assassin: teleport, short diagonal captures.
    Assassin = 5,
    /// Pawn: step, leap, diagonal capture.
    Pawn = 6,
}

impl Kind {
    /// Every kind, in index order.
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Mage,
        Kind::Queen,
        Kind::Rook,
        Kind::Cardinal,
        Kind::Assassin,
        Kind::Pawn,
    ];

    /// The pool types in FEN order Q R C A M (rules 4 and 7.6).
    pub const POOL: [Kind; 5] = [
        Kind::Queen,
        Kind::Rook,
        Kind::Cardinal,
        Kind::Assassin,
        Kind::Mage,
    ];

    /// Index 0..7.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind of index `i` (0..7).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// Index in the pool (Q 0, R 1, C 2, A 3, M 4), `None` for King and Pawn (never pooled).
    #[inline(always)]
    pub const fn pool_index(self) -> Option<usize> {
        match self {
            Kind::Queen => Some(0),
            Kind::Rook => Some(1),
            Kind::Cardinal => Some(2),
            Kind::Assassin => Some(3),
            Kind::Mage => Some(4),
            _ => None,
        }
    }

    /// Upper-case letter (K M Q R C A P).
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Mage => 'M',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Cardinal => 'C',
            Kind::Assassin => 'A',
            Kind::Pawn => 'P',
        }
    }

    /// The kind of a letter of either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::King,
            'M' => Kind::Mage,
            'Q' => Kind::Queen,
            'R' => Kind::Rook,
            'C' => Kind::Cardinal,
            'A' => Kind::Assassin,
            'P' => Kind::Pawn,
            _ => return None,
        })
    }
}

/// A piece code as stored in the mailbox: 0 = empty, else `1 + colour * 7 + kind`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Piece(pub u8);

impl Piece {
    /// The empty square.
    pub const NONE: Piece = Piece(0);

    /// The piece of `side` and `kind`.
    #[inline(always)]
    pub const fn new(side: Color, kind: Kind) -> Piece {
        Piece(1 + side as u8 * 7 + kind as u8)
    }

    /// Whether this is the empty square.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The colour (only for a real piece).
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 > 7 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The kind (only for a real piece).
    #[inline(always)]
    pub const fn kind(self) -> Kind {
        Kind::from_index(((self.0 - 1) % 7) as usize)
    }

    /// FEN letter: upper case for White, lower case for Black.
    pub fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

/// Precomputed attack and move sets per square.
pub struct Tables {
    /// King: ferz step plus dabbaba jump (rules 3).
    pub king: [u64; NSQ],
    /// One step in any of the 8 directions (the Mage's move and capture).
    pub step: [u64; NSQ],
    /// Knight leaps (the Cardinal's jump).
    pub knight: [u64; NSQ],
    /// One diagonal step (Assassin 1-step capture).
    pub ferz: [u64; NSQ],
    /// Squares 1-3 away on the 8 queen lines, pieces in between ignored (Mage swap reach).
    pub swap: [u64; NSQ],
    /// For each square, the 2-step diagonal captures as (middle, target) pairs; unused
    /// entries hold [`NO_SQ`].
    pub assassin2: [[(Square, Square); 4]; NSQ],
    /// Orthogonal rays (rook).
    pub rook_rays: RayTable<u64>,
    /// Diagonal rays (bishop part of the Queen and Cardinal).
    pub bishop_rays: RayTable<u64>,
}

fn leaper(offsets: &[(i32, i32)]) -> [u64; NSQ] {
    let t = LeaperTable::<u64>::new(&BOARD_6X7, offsets);
    std::array::from_fn(|s| t.attacks(s as Square))
}

/// The tables, built on first use.
pub static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let g = BOARD_6X7;
    let mut king_offsets: Vec<(i32, i32)> = DIAGONAL.to_vec();
    king_offsets.extend([(2, 0), (-2, 0), (0, 2), (0, -2)]);
    let mut swap_offsets = Vec::new();
    for &(df, dr) in KING.iter() {
        for n in 1..=3 {
            swap_offsets.push((df * n, dr * n));
        }
    }
    let assassin2 = std::array::from_fn(|s| {
        let mut out = [(NO_SQ, NO_SQ); 4];
        for (i, &(df, dr)) in DIAGONAL.iter().enumerate() {
            if let (Some(m), Some(t)) = (
                g.offset(s as Square, df, dr),
                g.offset(s as Square, 2 * df, 2 * dr),
            ) {
                out[i] = (m, t);
            }
        }
        out
    });
    Tables {
        king: leaper(&king_offsets),
        step: leaper(&KING),
        knight: leaper(&KNIGHT),
        ferz: leaper(&DIAGONAL),
        swap: leaper(&swap_offsets),
        assassin2,
        rook_rays: RayTable::new(&g, &ORTHOGONAL),
        bishop_rays: RayTable::new(&g, &DIAGONAL),
    }
});

/// Squares a rider of `rays` on `sq` reaches with occupancy `occ` (up to and including the
/// first occupied square of each ray).
#[inline(always)]
pub fn ride(rays: &RayTable<u64>, sq: Square, occ: u64) -> u64 {
    let mut out = 0;
    for d in 0..4 {
        for &t in rays.ray(d, sq) {
            out |= 1u64 << t;
            if occ & (1u64 << t) != 0 {
                break;
            }
        }
    }
    out
}

/// The squares a piece of `kind` and `side` on `sq` attacks (could capture on, if an enemy
/// stood there), given occupancy `occ` (rules 3). Mage swaps and Pawn steps/leaps are not
/// attacks. Used by the evaluation and the importer.
#[inline]
pub fn attacks(kind: Kind, side: Color, sq: Square, occ: u64) -> u64 {
    let t = &*TABLES;
    match kind {
        Kind::King => t.king[sq as usize],
        Kind::Mage => t.step[sq as usize],
        Kind::Queen => ride(&t.rook_rays, sq, occ) | ride(&t.bishop_rays, sq, occ),
        Kind::Rook => ride(&t.rook_rays, sq, occ),
        Kind::Cardinal => t.knight[sq as usize] | ride(&t.bishop_rays, sq, occ),
        Kind::Assassin => {
            let mut b = t.ferz[sq as usize];
            for &(m, to) in &t.assassin2[sq as usize] {
                if m != NO_SQ && occ & (1u64 << m) == 0 {
                    b |= 1u64 << to;
                }
            }
            b
        }
        Kind::Pawn => pawn_attacks(side, sq),
    }
}

/// Diagonal-forward capture squares of a Pawn of `side` on `sq` (rules 3).
#[inline(always)]
pub fn pawn_attacks(side: Color, sq: Square) -> u64 {
    let f = sq % 6;
    let bb = 1u64 << sq;
    let (l, r) = match side {
        Color::White => (bb << 5, bb << 7),
        Color::Black => (bb >> 7, bb >> 5),
    };
    let mut out = 0;
    if f > 0 {
        out |= l;
    }
    if f < 5 {
        out |= r;
    }
    out & ALL
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        BOARD_6X7.parse_square(name).unwrap()
    }

    #[test]
    fn colours() {
        // rules/mulligan-stew.md 1: the listed light squares.
        let light = "b1 d1 f1 a2 c2 e2 b3 d3 f3 a4 c4 e4 b5 d5 f5 a6 c6 e6 b7 d7 f7";
        let mut b = 0u64;
        for n in light.split_whitespace() {
            b |= 1 << sq(n);
        }
        assert_eq!(b, LIGHT);
        assert_eq!(LIGHT.count_ones(), 21);
        for s in 0..NSQ as Square {
            assert_eq!(BOARD_6X7.is_light(s), LIGHT >> s & 1 == 1);
        }
    }

    #[test]
    fn leapers() {
        let t = &*TABLES;
        // rules 3: King on c3 = 4 ferz + 4 dabbaba.
        assert_eq!(t.king[sq("c3") as usize].count_ones(), 8);
        assert_eq!(t.king[sq("a1") as usize].count_ones(), 3);
        // Mage swap reach from a1: 3 up, 3 right, 3 diagonal.
        assert_eq!(t.swap[sq("a1") as usize].count_ones(), 9);
        assert_eq!(pawn_attacks(Color::White, sq("a2")), 1 << sq("b3"));
        assert_eq!(
            pawn_attacks(Color::Black, sq("c6")),
            (1 << sq("b5")) | (1 << sq("d5"))
        );
    }
}
