//! The FEN fields of the orthodox games (chess and Mystic): placement, side to move, castling
//! (read by the variant), en passant square, halfmove clock and fullmove number.

use super::board::Board;
use super::{attacks, Kind, Piece, NO_EP};
use crate::core::geometry::BOARD_8X8;
use crate::core::Color;
use crate::variants::FenError;

/// The orthodox fields of a FEN, checked against each other (see [`read`]).
#[derive(Clone, Debug)]
pub struct Fields {
    /// The pieces.
    pub board: Board,
    /// The side to move.
    pub stm: Color,
    /// The en passant field's square as given ([`NO_EP`] for `-`): a square a pawn of the side
    /// not to move has just passed.
    pub ep: u8,
    /// The halfmove clock (0 when omitted).
    pub halfmove: u16,
    /// The fullmove number (1 when omitted).
    pub fullmove: u16,
}

impl Fields {
    /// The en passant square if a pawn of the side to move can capture there, else [`NO_EP`]
    /// (the canonical form, as Stockfish keeps it).
    pub fn capturable_ep(&self) -> u8 {
        if self.ep != NO_EP
            && attacks::pawn(!self.stm, self.ep) & self.board.pieces(self.stm, Kind::Pawn) != 0
        {
            self.ep
        } else {
            NO_EP
        }
    }
}

/// Reads a FEN of four to six fields; `castling` reads the castling field for the board (the
/// variant's own rule) and its result is returned beside the fields.
///
/// Errors name the field: `fen` (field count), `board` (shape, unknown letter, King count,
/// pawns on the back ranks), `side to move`, `castling` (from `castling`), `en passant`,
/// `halfmove clock`, `fullmove number`, or `position` (side not to move in check).
pub fn read<T>(
    fen: &str,
    castling: impl FnOnce(&Board, &str) -> Result<T, FenError>,
) -> Result<(Fields, T), FenError> {
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
    let board = Board::from_placement(fields[0])?;
    if board.kind_bb(Kind::Pawn) & (attacks::RANK_1 | attacks::RANK_8) != 0 {
        return Err(FenError::new("board", "pawn on the first or last rank"));
    }
    let stm = Color::from_fen(fields[1]).ok_or_else(|| {
        FenError::new(
            "side to move",
            format!("expected 'w' or 'b', found '{}'", fields[1]),
        )
    })?;
    let rights = castling(&board, fields[2])?;
    let mut ep = NO_EP;
    if fields[3] != "-" {
        let sq = BOARD_8X8
            .parse_square(fields[3])
            .map_err(|e| FenError::new("en passant", e.to_string()))?;
        let (rank, pushed) = if stm == Color::White {
            (5, sq - 8)
        } else {
            (2, sq + 8)
        };
        if sq / 8 != rank
            || board.piece_at(pushed) != Piece::new(!stm, Kind::Pawn)
            || !board.piece_at(sq).is_none()
        {
            return Err(FenError::new(
                "en passant",
                format!("'{}' is not a square a pawn just passed", fields[3]),
            ));
        }
        ep = sq;
    }
    let mut halfmove = 0;
    if let Some(h) = fields.get(4) {
        halfmove = h
            .parse()
            .map_err(|_| FenError::new("halfmove clock", format!("'{h}' is not a number")))?;
    }
    let mut fullmove = 1;
    if let Some(f) = fields.get(5) {
        fullmove = f
            .parse()
            .map_err(|_| FenError::new("fullmove number", format!("'{f}' is not a number")))?;
        if fullmove == 0 {
            return Err(FenError::new("fullmove number", "must be at least 1"));
        }
    }
    if board.checkers(!stm) != 0 {
        return Err(FenError::new(
            "position",
            "the side not to move is in check",
        ));
    }
    let f = Fields {
        board,
        stm,
        ep,
        halfmove,
        fullmove,
    };
    Ok((f, rights))
}

/// Writes the six orthodox fields: placement, side, `castling` as given, the en passant
/// square `ep` (`-` for [`NO_EP`]), the clocks.
pub fn write(
    board: &Board,
    stm: Color,
    castling: &str,
    ep: u8,
    halfmove: u16,
    fullmove: u16,
) -> String {
    let mut s = board.placement();
    s.push(' ');
    s.push(stm.fen_char());
    s.push(' ');
    s.push_str(castling);
    s.push(' ');
    if ep == NO_EP {
        s.push('-');
    } else {
        s.push_str(&BOARD_8X8.name(ep).to_string());
    }
    s.push_str(&format!(" {halfmove} {fullmove}"));
    s
}
