//! Castling for orthodox chess and Chess960 (FIDE Laws, Appendix: Chess960 rules, and article
//! 3.8.2): the geometry of the game's castlings, fixed when the FEN is read, and the FEN's
//! castling field in its three spellings.
//!
//! Whatever the start position, castling puts the King on the g-file (king side, right `K`)
//! or the c-file (queen side, right `Q`) of its first rank and the castling Rook next to it
//! on the f-file or d-file. It is legal when the King and that Rook have not moved, every
//! square between the King and its destination and between the Rook and its destination is
//! empty apart from these two pieces, and the King is not in check, passes no attacked square
//! and does not end in check (Chess960 rules 2 and 3; FIDE 3.8.2.2). Orthodox castling is the
//! case King on e1/e8 and Rooks on a and h.
//!
//! FEN castling field: `KQkq` (the outermost Rook on that side, X-FEN), or file letters
//! `A`-`H` / `a`-`h` naming the Rook's file (Shredder-FEN), mixed freely. Output is X-FEN, as
//! python-chess writes it: `K`/`Q` for the outermost Rook on its side, the file letter for an
//! inner one.

use super::position::{BK, BQ, WK, WQ};
use crate::core::Color;
use crate::variants::orthodox::{Board, Kind, Piece};
use crate::variants::FenError;

/// The castling geometry of one game: the Rook each right castles with and the squares each
/// castling needs, indexed by right (0 = White king side [`WK`], 1 = White queen side [`WQ`],
/// 2 = Black king side [`BK`], 3 = Black queen side [`BQ`]; the right's bit is `1 << index`).
/// It does not change during the game: a right is only ever lost.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CastlingSetup {
    /// Origin square of each right's Rook (orthodox: h1 a1 h8 a8).
    pub(crate) rook_from: [u8; 4],
    /// Squares that must be empty, the King and the castling Rook aside (Chess960 rules 2).
    pub(crate) path: [u64; 4],
    /// Squares the King crosses, its destination included: none may be attacked once the King
    /// and the Rook have left their squares (FIDE 3.8.2.2; Chess960 rules 3).
    pub(crate) king_path: [u64; 4],
    /// The rights that survive a move from or to each square: a King move loses both of its
    /// side's rights, a move from or onto a castling Rook's square loses that right.
    pub(crate) mask: [u8; 64],
}

impl CastlingSetup {
    /// The orthodox geometry: Kings on e1/e8, Rooks on a1, h1, a8, h8.
    pub(crate) const ORTHODOX: CastlingSetup =
        CastlingSetup::new([4, 60], [Some(7), Some(0), Some(63), Some(56)]);

    /// The geometry for Kings on `kings` (White, Black) and the Rooks of the four rights
    /// (`None` for a right the game does not have).
    const fn new(kings: [u8; 2], rooks: [Option<u8>; 4]) -> CastlingSetup {
        let mut setup = CastlingSetup {
            rook_from: [7, 0, 63, 56],
            path: [0; 4],
            king_path: [0; 4],
            mask: [0xF; 64],
        };
        let mut i = 0;
        while i < 4 {
            if let Some(rook) = rooks[i] {
                let king = kings[i / 2];
                let (king_to, rook_to) = destinations(i);
                let crossed = span(king, king_to) | span(rook, rook_to);
                setup.rook_from[i] = rook;
                setup.path[i] = crossed & !(1u64 << king) & !(1u64 << rook);
                setup.king_path[i] = (span(king, king_to) & !(1u64 << king)) | 1u64 << king_to;
                setup.mask[rook as usize] &= !(1u8 << i);
                setup.mask[king as usize] &= !(0b11u8 << (i & 2));
            }
            i += 1;
        }
        setup
    }

    /// The right index (0..4, see [`CastlingSetup`]) of the castling whose King lands on
    /// `king_to` (g1, c1, g8 or c8).
    #[inline(always)]
    pub(crate) const fn index(king_to: u8) -> usize {
        (king_to >= 56) as usize * 2 + (king_to & 7 == 2) as usize
    }

    /// The castling Rook's origin and destination for the castling whose King lands on
    /// `king_to`.
    #[inline(always)]
    pub(crate) const fn rook_squares(&self, king_to: u8) -> (u8, u8) {
        let i = Self::index(king_to);
        (self.rook_from[i], destinations(i).1)
    }
}

/// The King's and the Rook's destinations of right `i`: g1 f1, c1 d1, g8 f8, c8 d8.
const fn destinations(i: usize) -> (u8, u8) {
    let base = if i >= 2 { 56 } else { 0 };
    if i & 1 == 0 {
        (base + 6, base + 5)
    } else {
        (base + 2, base + 3)
    }
}

/// The squares from `a` to `b` on one rank, both included.
const fn span(a: u8, b: u8) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
}

/// Reads the castling field of a FEN into the rights (bits [`WK`] [`WQ`] [`BK`] [`BQ`]) and the
/// game's castling geometry, for the pieces of `board` (rules in the module documentation).
///
/// Errors: field `castling`: an unknown letter, a right given twice, a right whose King is not
/// on its first rank, or whose Rook is not there (no Rook outside the King on that side for
/// `K`/`Q`, no Rook on the named file for a letter).
pub(crate) fn parse_field(board: &Board, field: &str) -> Result<(u8, CastlingSetup), FenError> {
    let err = |reason: String| FenError::new("castling", reason);
    if field == "-" {
        return Ok((0, CastlingSetup::ORTHODOX));
    }
    let kings = [board.king_sq(Color::White), board.king_sq(Color::Black)];
    let mut rooks: [Option<u8>; 4] = [None; 4];
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let base = if color == Color::White { 0u8 } else { 56 };
        let king = kings[color.index()];
        let king_file = king & 7;
        let own_rooks =
            (0..8u8).filter(|f| board.piece_at(base + f) == Piece::new(color, Kind::Rook));
        let (side, rook) = match c.to_ascii_lowercase() {
            'k' => (0, own_rooks.filter(|&f| f > king_file).max()),
            'q' => (1, own_rooks.filter(|&f| f < king_file).min()),
            l @ 'a'..='h' => {
                let f = l as u8 - b'a';
                let side = if f > king_file { 0 } else { 1 };
                (side, own_rooks.filter(|&r| r == f && f != king_file).max())
            }
            _ => return Err(err(format!("unknown castling letter '{c}'"))),
        };
        if king / 8 != base / 8 {
            return Err(err(format!(
                "right '{c}' but the {color:?} King is not on its first rank"
            )));
        }
        let Some(file) = rook else {
            return Err(err(format!(
                "right '{c}' without a {color:?} Rook on that side of its King's rank"
            )));
        };
        let i = color.index() * 2 + side;
        if rooks[i].is_some() {
            return Err(err(format!("'{c}': that side's right is given twice")));
        }
        rooks[i] = Some(base + file);
    }
    let rights = (0..4)
        .filter(|&i| rooks[i].is_some())
        .fold(0, |r, i| r | 1 << i);
    Ok((rights, CastlingSetup::new(kings, rooks)))
}

/// Appends the X-FEN castling field of the `rights` of geometry `setup` on `board` to `s`
/// (python-chess's spelling: `K`/`Q` for the outermost Rook of its side, the Rook's file letter
/// otherwise; `-` when no right is left).
pub(crate) fn write_field(board: &Board, rights: u8, setup: &CastlingSetup, s: &mut String) {
    if rights == 0 {
        s.push('-');
        return;
    }
    for (i, bit) in [WK, WQ, BK, BQ].into_iter().enumerate() {
        if rights & bit == 0 {
            continue;
        }
        let color = if i < 2 { Color::White } else { Color::Black };
        let rook = setup.rook_from[i];
        let base = rook & !7;
        let file = rook & 7;
        let outer = if i & 1 == 0 { file + 1..8 } else { 0..file };
        let outermost = !outer
            .into_iter()
            .any(|f| board.piece_at(base + f) == Piece::new(color, Kind::Rook));
        let letter = match (outermost, i & 1) {
            (true, 0) => 'k',
            (true, _) => 'q',
            (false, _) => (b'a' + file) as char,
        };
        s.push(if color == Color::White {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orthodox_geometry() {
        let o = CastlingSetup::ORTHODOX;
        // f1 g1 / b1 c1 d1 empty; f1 g1 / d1 c1 not attacked.
        assert_eq!(o.path, [0x60, 0x0E, 0x60 << 56, 0x0E << 56]);
        assert_eq!(o.king_path, [0x60, 0x0C, 0x60 << 56, 0x0C << 56]);
        assert_eq!(o.mask[4], !(WK | WQ) & 0xF);
        assert_eq!(o.mask[0], !WQ & 0xF);
        assert_eq!(o.mask[63], !BK & 0xF);
        assert_eq!(o.rook_squares(6), (7, 5));
        assert_eq!(o.rook_squares(58), (56, 59));
    }

    #[test]
    fn king_standing_on_its_destination() {
        // King g1, Rook h1: the King stays, the Rook goes to f1; g1 must still be safe.
        let s = CastlingSetup::new([6, 62], [Some(7), None, None, None]);
        assert_eq!(s.path[0], 1 << 5);
        assert_eq!(s.king_path[0], 1 << 6);
    }
}
