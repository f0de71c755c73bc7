//! Piece kinds, pieces and the packed ply of Mitosis Chess (rules/mitosis.md 2, 4, 7).

use crate::core::{Color, Square};
use crate::variants::GameMove;

/// A kind of piece, in the rank order of rules/mitosis.md 6 \[D7\]: a lower index ranks higher
/// (K > G > Q > C > A > R > B > N > P).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// King: one step any direction, not royal (rules/mitosis.md 5).
    King = 0,
    /// General: Rook + Bishop + Knight (major).
    General = 1,
    /// Queen: Rook + Bishop (major).
    Queen = 2,
    /// Chancellor: Rook + Knight (major).
    Chancellor = 3,
    /// Archbishop: Bishop + Knight (major).
    Archbishop = 4,
    /// Rook (minor).
    Rook = 5,
    /// Bishop (minor).
    Bishop = 6,
    /// Knight (minor).
    Knight = 7,
    /// Pawn (rules/mitosis.md 3).
    Pawn = 8,
}

impl Kind {
    /// Every kind, highest rank first.
    pub const ALL: [Kind; 9] = [
        Kind::King,
        Kind::General,
        Kind::Queen,
        Kind::Chancellor,
        Kind::Archbishop,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
    ];

    /// 0..9, the rank order (0 = King, highest).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The uppercase FEN letter (K G Q C A R B N P).
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::General => 'G',
            Kind::Queen => 'Q',
            Kind::Chancellor => 'C',
            Kind::Archbishop => 'A',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Knight => 'N',
            Kind::Pawn => 'P',
        }
    }

    /// The kind of an uppercase or lowercase letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::King,
            'G' => Kind::General,
            'Q' => Kind::Queen,
            'C' => Kind::Chancellor,
            'A' => Kind::Archbishop,
            'R' => Kind::Rook,
            'B' => Kind::Bishop,
            'N' => Kind::Knight,
            'P' => Kind::Pawn,
            _ => return None,
        })
    }

    /// Whether the kind moves like a rook (R, Q, C, G).
    #[inline(always)]
    pub const fn has_rook(self) -> bool {
        matches!(
            self,
            Kind::Rook | Kind::Queen | Kind::Chancellor | Kind::General
        )
    }

    /// Whether the kind moves like a bishop (B, Q, A, G).
    #[inline(always)]
    pub const fn has_bishop(self) -> bool {
        matches!(
            self,
            Kind::Bishop | Kind::Queen | Kind::Archbishop | Kind::General
        )
    }

    /// Whether the kind leaps like a knight (N, C, A, G).
    #[inline(always)]
    pub const fn has_knight(self) -> bool {
        matches!(
            self,
            Kind::Knight | Kind::Chancellor | Kind::Archbishop | Kind::General
        )
    }

    /// Whether the kind is a major (G, Q, C, A: splits when captured, rules/mitosis.md 4).
    #[inline(always)]
    pub const fn is_major(self) -> bool {
        matches!(
            self,
            Kind::General | Kind::Queen | Kind::Chancellor | Kind::Archbishop
        )
    }

    /// Whether the kind is a minor (R, B, N: the only kinds that stand in a base).
    #[inline(always)]
    pub const fn is_minor(self) -> bool {
        matches!(self, Kind::Rook | Kind::Bishop | Kind::Knight)
    }

    /// The components a captured piece of this kind gives its owner, as a [`Parts`] set
    /// (rules/mitosis.md 4: Q -> R+B, C -> R+N, A -> B+N, G -> R+B+N, others nothing).
    #[inline(always)]
    pub const fn components(self) -> Parts {
        Parts(match self {
            Kind::General => Parts::R | Parts::B | Parts::N,
            Kind::Queen => Parts::R | Parts::B,
            Kind::Chancellor => Parts::R | Parts::N,
            Kind::Archbishop => Parts::B | Parts::N,
            _ => 0,
        })
    }
}

/// A set of minor kinds (pending components, rules/mitosis.md 4): bit 0 Rook, bit 1 Bishop,
/// bit 2 Knight.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Parts(pub u8);

impl Parts {
    /// The Rook bit.
    pub const R: u8 = 1;
    /// The Bishop bit.
    pub const B: u8 = 2;
    /// The Knight bit.
    pub const N: u8 = 4;
    /// The minor kinds in canonical FEN order (R, B, N), matching bits 0, 1, 2.
    pub const KINDS: [Kind; 3] = [Kind::Rook, Kind::Bishop, Kind::Knight];

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of kinds in the set.
    #[inline(always)]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The bit of a minor kind (0 for other kinds).
    #[inline(always)]
    pub const fn bit(kind: Kind) -> u8 {
        match kind {
            Kind::Rook => Parts::R,
            Kind::Bishop => Parts::B,
            Kind::Knight => Parts::N,
            _ => 0,
        }
    }
}

/// A piece: a side and a kind. Coded as `1 + side * 9 + kind` in the mailbox (0 = empty).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MitosisPiece {
    /// Its owner.
    pub color: Color,
    /// Its kind.
    pub kind: Kind,
}

impl MitosisPiece {
    /// The mailbox code (1..=18).
    #[inline(always)]
    pub const fn code(self) -> u8 {
        1 + self.color as u8 * 9 + self.kind as u8
    }

    /// The piece of a non-zero mailbox code.
    #[inline(always)]
    pub const fn from_code(code: u8) -> MitosisPiece {
        let c = code - 1;
        MitosisPiece {
            color: if c >= 9 { Color::Black } else { Color::White },
            kind: Kind::ALL[(c % 9) as usize],
        }
    }

    /// The FEN letter: uppercase for White, lowercase for Black.
    pub fn fen_char(self) -> char {
        let l = self.kind.letter();
        match self.color {
            Color::White => l,
            Color::Black => l.to_ascii_lowercase(),
        }
    }
}

/// A Mitosis ply, packed in 32 bits (the null move is 0, which is never legal: a1a1):
/// - a board move: bits 0-6 from-cell, 7-13 to-cell, 14-15 promotion (0 none, 1 R, 2 B, 3 N),
///   bit 16 en passant;
/// - a placement (bit 31 set): bits 0-1, 2-3, 4-5 the minor placed on the d, e, f base square
///   of the side to move (0 none, 1 R, 2 B, 3 N) (rules/mitosis.md 4 \[D4\]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct MitosisMove(pub u32);

const PLACEMENT: u32 = 1 << 31;
const EP: u32 = 1 << 16;

impl MitosisMove {
    /// A board move from `from` to `to` (cell indices), with an optional promotion kind
    /// (R, B or N) and the en passant flag.
    #[inline(always)]
    pub const fn board(from: Square, to: Square, promo: Option<Kind>, ep: bool) -> MitosisMove {
        let p = match promo {
            Some(Kind::Rook) => 1,
            Some(Kind::Bishop) => 2,
            Some(Kind::Knight) => 3,
            _ => 0,
        };
        MitosisMove(from as u32 | (to as u32) << 7 | p << 14 | if ep { EP } else { 0 })
    }

    /// A placement: `slots[i]` is the minor placed on base file d+i (`None`: nothing there).
    pub const fn placement(slots: [Option<Kind>; 3]) -> MitosisMove {
        let mut bits = PLACEMENT;
        let mut i = 0;
        while i < 3 {
            let v = match slots[i] {
                Some(Kind::Rook) => 1,
                Some(Kind::Bishop) => 2,
                Some(Kind::Knight) => 3,
                _ => 0,
            };
            bits |= v << (2 * i);
            i += 1;
        }
        MitosisMove(bits)
    }

    /// Whether this is a placement ply.
    #[inline(always)]
    pub const fn is_placement(self) -> bool {
        self.0 & PLACEMENT != 0
    }

    /// The minor placed on base file d+`i` (`i` in 0..3) by a placement.
    #[inline(always)]
    pub const fn slot(self, i: usize) -> Option<Kind> {
        match (self.0 >> (2 * i)) & 3 {
            1 => Some(Kind::Rook),
            2 => Some(Kind::Bishop),
            3 => Some(Kind::Knight),
            _ => None,
        }
    }

    /// From-cell of a board move.
    #[inline(always)]
    pub const fn from(self) -> Square {
        (self.0 & 0x7f) as Square
    }

    /// To-cell of a board move.
    #[inline(always)]
    pub const fn to(self) -> Square {
        ((self.0 >> 7) & 0x7f) as Square
    }

    /// Promotion kind of a board move.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Kind> {
        match (self.0 >> 14) & 3 {
            1 => Some(Kind::Rook),
            2 => Some(Kind::Bishop),
            3 => Some(Kind::Knight),
            _ => None,
        }
    }

    /// Whether the board move is an en passant capture.
    #[inline(always)]
    pub const fn is_ep(self) -> bool {
        self.0 & EP != 0
    }
}

impl GameMove for MitosisMove {
    type List<T: Copy + Send + Sync> = crate::core::MoveList<T>;
    #[inline(always)]
    fn pack(self) -> u32 {
        self.0
    }
}
