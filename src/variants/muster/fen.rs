//! FEN of Muster Chess (rules/muster.md 5.4): six orthodox fields, castling rights as rook
//! squares (`a1h1e4a8h8`; `KQkq` accepted on input), the en passant field listing every square
//! passed by the last push (`a2a3`).

use super::position::Muster;
use crate::core::geometry::BOARD_8X8;
use crate::core::Color;
use crate::variants::orthodox::attacks::FILE_A;
use crate::variants::orthodox::{Board, Kind, Piece, NO_EP};
use crate::variants::FenError;

/// The start position: both regular armies (rules/muster.md 2, 8 E9).
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w a1h1a8h8 - 0 1";

fn square_list(mut b: u64) -> String {
    let mut s = String::new();
    while b != 0 {
        s.push_str(&BOARD_8X8.name(b.trailing_zeros() as u8).to_string());
        b &= b - 1;
    }
    s
}

/// The rank and file through `sq`.
fn cross(sq: u8) -> u64 {
    FILE_A << (sq % 8) | 0xFFu64 << (sq & 56)
}

impl Muster {
    /// Parses a FEN (rules/muster.md 5.4). The two counters may be omitted. A position where
    /// the side not to move is in check is accepted: the side to move wins at once (rules 3, D3).
    ///
    /// Errors name the field: `board` (shape, letters, King count, a pawn on its promotion
    /// rank), `side to move`, `castling` (a token that is neither a square nor `KQkq`, or a
    /// right whose square holds no Rook on its King's rank or file),
    /// `en passant` (squares that are not the passed squares of a legal push), `halfmove
    /// clock`, `fullmove number`.
    pub(super) fn read_fen(fen: &str) -> Result<Muster, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::new(
                "fen",
                format!("expected 4 to 6 fields, found {}", fields.len()),
            ));
        }
        let board = Board::from_placement(fields[0])?;
        let wp = board.pieces(Color::White, Kind::Pawn);
        let bp = board.pieces(Color::Black, Kind::Pawn);
        if wp & (0xFF << 56) != 0 || bp & 0xFF != 0 {
            return Err(FenError::new(
                "board",
                "a pawn stands on its promotion rank (White on rank 8, Black on rank 1)",
            ));
        }
        let stm = Color::from_fen(fields[1]).ok_or_else(|| {
            FenError::new(
                "side to move",
                format!("expected 'w' or 'b', found '{}'", fields[1]),
            )
        })?;
        let rights = parse_castling(&board, fields[2])?;
        let (ep, victim) = parse_ep(&board, stm, fields[3])?;
        let start_capture = board.checkers(!stm) != 0;
        let mut pos = Muster::new(board, stm);
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
        pos.rights = rights;
        pos.ep = ep;
        pos.ep_victim = victim;
        pos.start_capture = start_capture;
        pos.ep_live = pos.legal_ep_squares();
        pos.state_key = pos.compute_state_key();
        pos.start_network();
        Ok(pos)
    }

    /// The canonical FEN (rules/muster.md 5.4): rights as rook squares, White's first, each in
    /// square order; the en passant field lists every passed square in ascending order.
    pub(super) fn write_fen(&self) -> String {
        let placement = self.board.placement();
        let castling = if self.rights == [0, 0] {
            "-".to_string()
        } else {
            square_list(self.rights[0]) + &square_list(self.rights[1])
        };
        let ep = if self.ep == 0 {
            "-".to_string()
        } else {
            square_list(self.ep)
        };
        format!(
            "{placement} {} {castling} {ep} {} {}",
            self.stm.fen_char(),
            self.halfmove,
            self.fullmove
        )
    }
}

/// The castling field: `-`, or squares and the aliases `K Q k q` (= h1 a1 h8 a8), each the
/// square of a Rook on its own King's rank or file (rules/muster.md 5.4).
///
/// Errors: a token that is neither a square nor an alias, and an entry whose square does not
/// hold a Rook on its King's rank or file: no game reaches such a right, and chess refuses the
/// same mistake (the specification ignored such entries; see the rules file's known
/// differences).
fn parse_castling(board: &Board, field: &str) -> Result<[u64; 2], FenError> {
    let mut rights = [0u64; 2];
    if field == "-" {
        return Ok(rights);
    }
    let bytes = field.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let sq = match bytes[i] {
            b'K' => Some(7),
            b'Q' => Some(0),
            b'k' => Some(63),
            b'q' => Some(56),
            _ => None,
        };
        let sq = match sq {
            Some(s) => {
                i += 1;
                s
            }
            None => {
                let token = field.get(i..i + 2).ok_or_else(|| {
                    FenError::new(
                        "castling",
                        format!("'{}' is neither a square nor one of K Q k q", &field[i..]),
                    )
                })?;
                let s = BOARD_8X8.parse_square(token).map_err(|_| {
                    FenError::new(
                        "castling",
                        format!("'{token}' is neither a square nor one of K Q k q"),
                    )
                })?;
                i += 2;
                s
            }
        };
        let name = BOARD_8X8.name(sq);
        let p = board.piece_at(sq);
        if p.is_none() || p.kind() != Kind::Rook {
            return Err(FenError::new(
                "castling",
                format!("a right on {name}, which holds no Rook"),
            ));
        }
        let color = p.color();
        if cross(board.king_sq(color)) & (1u64 << sq) == 0 {
            return Err(FenError::new(
                "castling",
                format!("a right on {name}, whose Rook is not on its King's rank or file"),
            ));
        }
        rights[color.index()] |= 1u64 << sq;
    }
    Ok(rights)
}

/// The en passant field: `-` or the squares passed by the last push, ascending (rules/muster.md
/// 5.4). Returns the squares and the pushed pawn's square.
fn parse_ep(board: &Board, stm: Color, field: &str) -> Result<(u64, u8), FenError> {
    if field == "-" {
        return Ok((0, NO_EP));
    }
    let bad = |why: &str| FenError::new("en passant", format!("'{field}': {why}"));
    if !field.is_ascii() || !field.len().is_multiple_of(2) || field.is_empty() {
        return Err(bad("expected '-' or a list of squares such as a2a3"));
    }
    let mut squares = Vec::new();
    for i in (0..field.len()).step_by(2) {
        let sq = BOARD_8X8
            .parse_square(&field[i..i + 2])
            .map_err(|e| bad(&e.to_string()))?;
        squares.push(sq);
    }
    if squares.len() > 2 {
        return Err(bad("a push passes at most two squares"));
    }
    if squares.windows(2).any(|w| w[1] != w[0] + 8) {
        return Err(bad(
            "the squares must be adjacent squares of one file, ascending",
        ));
    }
    // The mover is the side not to move; its pawn stands one square beyond the furthest one.
    let mover = !stm;
    let (victim, origin) = match mover {
        Color::White => (squares[squares.len() - 1] as i32 + 8, squares[0] as i32 - 8),
        Color::Black => (squares[0] as i32 - 8, squares[squares.len() - 1] as i32 + 8),
    };
    let rel = |sq: i32| match mover {
        Color::White => sq / 8 + 1,
        Color::Black => 8 - sq / 8,
    };
    // rules/muster.md 4.1: from rel 1 up to 3 squares, from rel 2 up to 2.
    let steps = squares.len() as i32 + 1;
    if !(0..64).contains(&origin)
        || !(0..64).contains(&victim)
        || !(rel(origin) == 1 || rel(origin) == 2 && steps == 2)
    {
        return Err(bad(
            "not the squares passed by a pawn push of the side that just moved",
        ));
    }
    if board.piece_at(victim as u8) != Piece::new(mover, Kind::Pawn) {
        return Err(bad(
            "no pawn of the side that just moved beyond the squares",
        ));
    }
    if squares.iter().any(|&s| !board.piece_at(s).is_none())
        || !board.piece_at(origin as u8).is_none()
    {
        return Err(bad("the passed squares and the origin must be empty"));
    }
    let bits = squares.iter().fold(0u64, |b, &s| b | 1u64 << s);
    Ok((bits, victim as u8))
}
