//! Standard Algebraic Notation (SAN) of orthodox moves, as PGN movetext needs it (PGN standard
//! 8.2.3), for every variant on the orthodox board (chess, Muster, Mystic): piece letter, the
//! least disambiguation that makes the move unique (file, else rank, else both), `x` for
//! captures, `=Q` for promotions, and `+` or `#` after a check or a checkmate. Each variant
//! writes its own castling and its own extra actions (Mystic's purchases and upgrades). Not a
//! hot path: it generates the legal plies and plays the move on a copy.

use crate::core::geometry::BOARD_8X8;
use crate::variants::{PlyList, Rules};

use super::{Board, Kind, Move, MoveKind};

/// The SAN of `m`, a legal move of the board `board` that is not a castling, without its check
/// mark: `rivals` are the from-squares of the other legal moves to the same square (any
/// piece: those of another kind are left out here).
pub fn move_san(board: &Board, m: Move, rivals: impl IntoIterator<Item = Move>) -> String {
    let mut s = String::new();
    let (from, to) = (m.from(), m.to());
    let kind = board.piece_at(from).kind();
    let capture = !board.piece_at(to).is_none() || m.kind() == MoveKind::EnPassant;
    let name = |sq: u8| BOARD_8X8.name(sq).to_string();
    if kind == Kind::Pawn {
        if capture {
            s.push_str(&name(from)[..1]);
        }
    } else {
        s.push(kind.letter().to_ascii_uppercase());
        let rivals: Vec<u8> = rivals
            .into_iter()
            .filter(|o| o.to() == to && o.from() != from && o.kind() != MoveKind::Castle)
            .filter(|o| board.piece_at(o.from()).kind() == kind)
            .map(|o| o.from())
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|&r| r % 8 == from % 8);
            let same_rank = rivals.iter().any(|&r| r / 8 == from / 8);
            if !same_file {
                s.push_str(&name(from)[..1]);
            } else if !same_rank {
                s.push_str(&name(from)[1..]);
            } else {
                s.push_str(&name(from));
            }
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&name(to));
    if let Some(p) = m.promotion() {
        s.push('=');
        s.push(p.letter().to_ascii_uppercase());
    }
    s
}

/// The check mark of ply `m` of `pos`: `#` when it mates, `+` when it checks, else nothing.
pub fn check_mark<G: Rules>(pos: &G, m: G::Move) -> &'static str {
    let mut after = pos.clone();
    after.make(m);
    if !after.in_check() {
        return "";
    }
    let mut replies = PlyList::<G::Move>::default();
    after.legal_moves(&mut replies);
    if replies.is_empty() {
        "#"
    } else {
        "+"
    }
}
