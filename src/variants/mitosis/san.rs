//! The PGN notation of Mitosis Chess (rules/mitosis.md 9), SAN as in orthodox chess: the
//! piece's letter (none for a Pawn), the least disambiguation that makes the move unique among
//! the legal board moves (file, else rank, else both; a base square's rank is 0 or 10), `x` for
//! a capture (en passant included; a Pawn's capture names its file), `=R`, `=B` or `=N` for a
//! promotion. A placement ply is written as its token (`R@d10,B@f10`), already readable; the
//! turn joins it to the board move with `;` ([`crate::variants::turn::notation`]). No check
//! marks: the King is not royal (rules 5.3). Not a hot path: it generates the legal board moves
//! when another piece of the same kind could reach the same square.

use super::types::{Kind, MitosisMove};
use super::{Mitosis, BOARD_MITOSIS};
use crate::core::{Bitboard, MoveList, Square};
use crate::variants::turn::read_pgn_ply;
use crate::variants::{split_record_words, MoveError};

/// The notation of `m`, a legal ply of `pos`: `e4`, `dxe5`, `Nf3`, `Rdd5`, `R0d4`, `Gxf7`,
/// `e9=R`, or a placement's token `R@d10,B@f10`.
pub fn san(pos: &Mitosis, m: MitosisMove) -> String {
    if m.is_placement() {
        return pos.token(m);
    }
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else {
        // Not a legal ply: its token, so that nothing reads it as another ply.
        return pos.token(m);
    };
    let kind = piece.kind;
    let name = |sq: Square| BOARD_MITOSIS.name(sq).to_string();
    let capture = m.is_ep() || pos.piece_at(to).is_some();
    let mut s = String::new();
    if kind == Kind::Pawn {
        // A Pawn reaches a square by one push or from one diagonal per file: its file says
        // which, and is written only for a capture.
        if capture {
            s.push_str(&name(from)[..1]);
        }
    } else {
        s.push(kind.letter());
        s.push_str(&disambiguation(pos, kind, from, to));
    }
    if capture {
        s.push('x');
    }
    s.push_str(&name(to));
    if let Some(p) = m.promotion() {
        s.push('=');
        s.push(p.letter());
    }
    s
}

/// What tells the board move `from`-`to` of a `kind` from the other legal ones of that kind to
/// the same square: nothing, the file of `from`, its rank, or both (PGN standard 8.2.3.4).
fn disambiguation(pos: &Mitosis, kind: Kind, from: Square, to: Square) -> String {
    let us = pos.stm();
    if pos.pieces(us, kind).count() < 2 {
        return String::new();
    }
    let mut legal = MoveList::new();
    pos.board_moves(&mut legal, false);
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|o| o.to() == to && o.from() != from)
        .filter(|o| pos.piece_at(o.from()).is_some_and(|p| p.kind == kind))
        .map(|o| o.from())
        .collect();
    let name = BOARD_MITOSIS.name(from).to_string();
    if rivals.is_empty() {
        String::new()
    } else if !rivals
        .iter()
        .any(|&r| BOARD_MITOSIS.file(r) == BOARD_MITOSIS.file(from))
    {
        name[..1].to_string()
    } else if !rivals
        .iter()
        .any(|&r| BOARD_MITOSIS.row(r) == BOARD_MITOSIS.row(from))
    {
        name[1..].to_string()
    } else {
        name
    }
}

/// Splits a game record into its plies: whitespace-separated words without move numbers and
/// the result, each turn word cut at `;` into its portions (`R@d10,B@f10;Rxf7` is two plies).
pub fn split_record(text: &str) -> Vec<String> {
    split_record_words(text)
        .iter()
        .flat_map(|w| w.split(';'))
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// Reads one ply of a record: a protocol token (`e2e4`, `R@d10,B@f10`) or the notation of
/// [`san`] (`e4`, `Nxf7`, `e9=R`), check and annotation marks ignored.
///
/// Errors: [`MoveError::Illegal`] when the text names no legal ply, or several.
pub fn import_move(pos: &Mitosis, text: &str) -> Result<MitosisMove, MoveError> {
    read_pgn_ply(pos, text).map_err(MoveError::Illegal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Notation, Rules};

    fn san_of(fen: &str, token: &str) -> String {
        let pos = Mitosis::from_fen(fen).unwrap();
        san(&pos, pos.parse_move(token).unwrap())
    }

    #[test]
    fn start_moves() {
        let start = super::super::START_FEN;
        assert_eq!(san_of(start, "e2e5"), "e5");
        assert_eq!(san_of(start, "b1c3"), "Ac3");
        // Both Generals leap to e3: the file tells them apart.
        assert_eq!(san_of(start, "d1e3"), "Gde3");
        assert_eq!(san_of(start, "f1e3"), "Gfe3");
        let pos = Mitosis::startpos();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut all: Vec<String> = list.iter().map(|&m| san(&pos, m)).collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), list.len());
    }

    #[test]
    fn split_record_cuts_turns_into_plies() {
        assert_eq!(
            split_record("1. e5 e5 2. Gxf7 R@d10,B@f10;Rxf7 1-0"),
            ["e5", "e5", "Gxf7", "R@d10,B@f10", "Rxf7"]
        );
        assert_eq!(split_record("1.e5 e5 2.Gxf7 2.1-0"), ["e5", "e5", "Gxf7"]);
    }
}
