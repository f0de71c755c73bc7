//! The orthodox board, shared by the variants played with the FIDE pieces on 8x8: chess,
//! Muster and Mystic. Each of them owns a [`Board`] and keeps its own state beside it (side to
//! move, castling, en passant, clocks, coins) and its own make/unmake around the shared one
//! ([`make`]), the way shakmaty keeps its `Board` apart from each variant's `Position`.
//!
//! - [`types`]: pieces and the 16-bit move;
//! - [`attacks`]: magic-bitboard attack tables;
//! - [`board`]: the board (mailbox, bitboards, piece keys, put/remove/shift, attackers, pins,
//!   FEN placement) and the orthodox zobrist keys;
//! - [`fen`]: the orthodox FEN fields (chess and Mystic; Muster reads its own);
//! - [`make`]: the men of an orthodox ply made and unmade, with the variant's hooks (castling
//!   Rook, en passant victim, a [`make::Features`] hook for a network's accumulator); each
//!   variant's make/unmake wraps it with its own state;
//! - [`eval`]: the hand-written evaluation of the board (chess's, Muster's and Mystic's, each
//!   with its parameter set);
//! - [`inputs`]: the board's inputs of the networks of [`crate::variants::network`] (chess's,
//!   Muster's and Mystic's), and the make hook that records them ([`inputs::BoardUpdate`]);
//! - [`movegen`]: the legal moves of the orthodox pieces (castling is each variant's);
//! - [`see`]: static exchange evaluation and MVV-LVA;
//! - [`rules`]: the FIDE end rules (checkmate, stalemate, draws by counter, repetition and
//!   material) that each variant calls with its own counters and history.

pub mod attacks;
pub mod board;
pub mod eval;
pub mod fen;
pub mod inputs;
pub mod make;
pub mod movegen;
pub mod rules;
pub mod san;
pub mod see;
pub mod types;

pub use board::{square_names, Board, KEYS};
pub use types::{Kind, Move, MoveKind, Piece};

use crate::core::geometry::BOARD_8X8;
use crate::variants::{MoveError, PieceInfo};

/// Marker for "no en passant square".
pub const NO_EP: u8 = 64;

/// The orthodox Queen (FIDE Laws 3.4), as chess and Muster describe it.
pub const QUEEN: PieceInfo = PieceInfo {
    code: "Q",
    name: "Queen",
    movement: "Q: any distance along files, ranks and diagonals",
};

/// The orthodox Bishop (FIDE Laws 3.2), as chess and Muster describe it.
pub const BISHOP: PieceInfo = PieceInfo {
    code: "B",
    name: "Bishop",
    movement: "B: any distance along diagonals",
};

/// The orthodox Knight (FIDE Laws 3.6), as chess and Muster describe it.
pub const KNIGHT: PieceInfo = PieceInfo {
    code: "N",
    name: "Knight",
    movement: "N: leaps (1,2)",
};

/// The orthodox pieces (FIDE Laws, article 3): chess's list. Mystic and Muster have their own
/// (no castling or a generalised one, their Pawns, Mystic's upgrades), sharing the pieces above
/// where they move alike.
pub const ORTHODOX_PIECES: &[PieceInfo] = &[
    PieceInfo {
        code: "K",
        name: "King",
        movement: "K: one step in any direction; castling (FIDE 3.8)",
    },
    QUEEN,
    PieceInfo {
        code: "R",
        name: "Rook",
        movement: "R: any distance along files and ranks",
    },
    BISHOP,
    KNIGHT,
    PieceInfo {
        code: "P",
        name: "Pawn",
        movement: "mfWcfF, mfnD from its second rank; en passant; promotes to Q, R, B or N on the last rank (FIDE 3.7)",
    },
];

/// The coordinate token `e2e4` / `e7e8q` (protocol.md 3) of a move from `from` to `to` (square
/// indices, a1 = 0) promoting to `promo`.
pub fn coordinate_token(from: u8, to: u8, promo: Option<Kind>) -> String {
    let mut s = format!("{}{}", BOARD_8X8.name(from), BOARD_8X8.name(to));
    if let Some(k) = promo {
        s.push(k.letter());
    }
    s
}

/// Splits a coordinate token `e2e4` / `e7e8q` (protocol.md 3) into from-square, to-square and
/// promotion kind, without looking at a position.
///
/// # Errors
/// [`MoveError::Malformed`] for a token that is not 4-5 ASCII characters, names a square off
/// the 8x8 board, or carries a promotion letter other than `q r b n`.
pub fn parse_coordinates(token: &str) -> Result<(u8, u8, Option<Kind>), MoveError> {
    let malformed = |reason: &str| MoveError::Malformed {
        token: token.to_string(),
        reason: reason.to_string(),
    };
    if !token.is_ascii() || !(4..=5).contains(&token.len()) {
        return Err(malformed(
            "expected from-square, to-square and an optional promotion letter",
        ));
    }
    let from = BOARD_8X8
        .parse_square(&token[0..2])
        .map_err(|e| malformed(&e.to_string()))?;
    let to = BOARD_8X8
        .parse_square(&token[2..4])
        .map_err(|e| malformed(&e.to_string()))?;
    let promo = match token.as_bytes().get(4) {
        None => None,
        Some(b'q') => Some(Kind::Queen),
        Some(b'r') => Some(Kind::Rook),
        Some(b'b') => Some(Kind::Bishop),
        Some(b'n') => Some(Kind::Knight),
        Some(_) => return Err(malformed("promotion letter must be one of q r b n")),
    };
    Ok((from, to, promo))
}
