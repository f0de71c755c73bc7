//! The orthodox pieces and the packed 16-bit move of chess, Muster and Mystic.

use crate::core::Color;
use crate::variants::GameMove;

/// A piece kind, in value order. The discriminant indexes per-kind arrays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Kind {
    /// All kinds, pawn first.
    pub const ALL: [Kind; 6] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
    ];

    /// Index into per-kind arrays (0..6).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `i` (0..6).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// Lowercase FEN letter.
    pub const fn letter(self) -> char {
        ['p', 'n', 'b', 'r', 'q', 'k'][self as usize]
    }

    /// Parses a FEN letter of either case into (colour, kind).
    pub fn from_letter(c: char) -> Option<(Color, Kind)> {
        let kind = match c.to_ascii_lowercase() {
            'p' => Kind::Pawn,
            'n' => Kind::Knight,
            'b' => Kind::Bishop,
            'r' => Kind::Rook,
            'q' => Kind::Queen,
            'k' => Kind::King,
            _ => return None,
        };
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some((color, kind))
    }
}

/// A coloured piece packed in a byte: `color * 6 + kind`; [`Piece::NONE`] (12) for empty.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece(pub u8);

impl Piece {
    /// The empty square marker.
    pub const NONE: Piece = Piece(12);

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece(color as u8 * 6 + kind as u8)
    }

    /// Whether this is [`Piece::NONE`].
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 12
    }

    /// The piece's kind (not for `NONE`).
    #[inline(always)]
    pub const fn kind(self) -> Kind {
        Kind::from_index((self.0 % 6) as usize)
    }

    /// The piece's colour (not for `NONE`).
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Index 0..12 into per-piece arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// FEN letter (uppercase White).
    pub fn letter(self) -> char {
        let c = self.kind().letter();
        if self.color() == Color::White {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }
}

/// What kind of ply a [`Move`] is (its top 4 bits).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveKind {
    /// A quiet move or a plain capture.
    Normal = 0,
    /// A pawn's two-square advance (sets the en passant square).
    DoublePush = 1,
    /// Castling; `to` is the King's destination (g- or c-file).
    Castle = 2,
    /// En passant capture.
    EnPassant = 3,
    /// Promotion to a knight.
    PromoKnight = 4,
    /// Promotion to a bishop.
    PromoBishop = 5,
    /// Promotion to a rook.
    PromoRook = 6,
    /// Promotion to a queen.
    PromoQueen = 7,
}

/// A move of the orthodox pieces in 16 bits: from (6 bits), to (6 bits), [`MoveKind`] (3 bits),
/// bit 15 clear (a variant may use it for plies of its own, as Mystic does for purchases).
/// The value 0 (a1a1 normal) is the null move.
#[derive(Copy, Clone, PartialEq, Eq, Default, Hash)]
pub struct Move(pub u16);

impl Move {
    /// The null move.
    pub const NULL: Move = Move(0);

    /// A move of `kind` from `from` to `to` (square indices 0..64, a1 = 0, h8 = 63).
    #[inline(always)]
    pub const fn new(from: u8, to: u8, kind: MoveKind) -> Move {
        Move(from as u16 | (to as u16) << 6 | (kind as u16) << 12)
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> u8 {
        (self.0 & 63) as u8
    }

    /// Destination square (the King's for castling).
    #[inline(always)]
    pub const fn to(self) -> u8 {
        ((self.0 >> 6) & 63) as u8
    }

    /// The move's kind.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match (self.0 >> 12) & 7 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoublePush,
            2 => MoveKind::Castle,
            3 => MoveKind::EnPassant,
            4 => MoveKind::PromoKnight,
            5 => MoveKind::PromoBishop,
            6 => MoveKind::PromoRook,
            _ => MoveKind::PromoQueen,
        }
    }

    /// The promotion piece kind, if this is a promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Kind> {
        match self.kind() {
            MoveKind::PromoKnight => Some(Kind::Knight),
            MoveKind::PromoBishop => Some(Kind::Bishop),
            MoveKind::PromoRook => Some(Kind::Rook),
            MoveKind::PromoQueen => Some(Kind::Queen),
            _ => None,
        }
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Move({}->{} {:?})", self.from(), self.to(), self.kind())
    }
}

impl GameMove for Move {
    type List<T: Copy + Send + Sync> = crate::core::MoveList<T>;
    #[inline(always)]
    fn pack(self) -> u32 {
        self.0 as u32
    }
}
