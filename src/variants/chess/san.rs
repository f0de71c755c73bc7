//! Standard Algebraic Notation (SAN) of orthodox moves, as PGN movetext needs it (PGN standard
//! 8.2.3): piece letter, the least disambiguation that makes the move unique (file, else rank,
//! else both), `x` for captures, `=Q` for promotions, `O-O`/`O-O-O`, and `+` or `#` after a
//! check or a checkmate. Not a hot path: it generates the legal moves and plays the move on a
//! copy.

use super::Chess;
use crate::core::geometry::BOARD_8X8;
use crate::core::MoveList;
use crate::variants::orthodox::{Kind, Move, MoveKind};

/// The SAN of `m`, a legal move of `pos`.
pub fn san(pos: &Chess, m: Move) -> String {
    let mut s = String::new();
    let (from, to) = (m.from(), m.to());
    let kind = pos.board().piece_at(from).kind();
    if m.kind() == MoveKind::Castle {
        // The King lands on the g-file (O-O) or the c-file (O-O-O), in Chess960 too.
        s.push_str(if to % 8 == 6 { "O-O" } else { "O-O-O" });
    } else {
        let capture = !pos.board().piece_at(to).is_none() || m.kind() == MoveKind::EnPassant;
        let name = |sq: u8| BOARD_8X8.name(sq).to_string();
        if kind == Kind::Pawn {
            if capture {
                s.push_str(&name(from)[..1]);
            }
        } else {
            s.push(kind.letter().to_ascii_uppercase());
            let mut legal = MoveList::new();
            pos.generate_legal(&mut legal);
            let rivals: Vec<u8> = legal
                .iter()
                .filter(|o| o.to() == to && o.from() != from)
                .filter(|o| pos.board().piece_at(o.from()).kind() == kind)
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
    }
    let mut after = pos.clone();
    after.make_move(m);
    if after.checkers() != 0 {
        let mut replies = MoveList::new();
        after.generate_legal(&mut replies);
        s.push(if replies.is_empty() { '#' } else { '+' });
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Notation, Rules};

    fn san_of(fen: &str, token: &str) -> String {
        let pos = Chess::from_fen(fen).unwrap();
        san(&pos, pos.parse_move(token).unwrap())
    }

    #[test]
    fn pgn_standard_forms() {
        let start = super::super::START_FEN;
        assert_eq!(san_of(start, "e2e4"), "e4");
        assert_eq!(san_of(start, "g1f3"), "Nf3");
        // Kiwipete: castling both ways, captures, and the two knights able to reach the same
        // squares.
        let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(san_of(kiwi, "e1g1"), "O-O");
        assert_eq!(san_of(kiwi, "e1c1"), "O-O-O");
        assert_eq!(san_of(kiwi, "e5f7"), "Nxf7");
        assert_eq!(san_of(kiwi, "d5e6"), "dxe6");
        assert_eq!(san_of(kiwi, "f3f6"), "Qxf6");
        assert_eq!(san_of(kiwi, "c3b1"), "Nb1");
        // Disambiguation by file, by rank, and by both.
        assert_eq!(san_of("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1"), "Rad1");
        assert_eq!(san_of("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "a1d1"), "Rd1");
        assert_eq!(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
        assert_eq!(san_of("2k5/8/8/8/1Q5Q/8/K7/7Q w - - 0 1", "h4e1"), "Qh4e1");
        // A pinned rival needs no disambiguation.
        assert_eq!(san_of("4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1", "g1f3"), "Nf3");
        // En passant, promotion with capture, check and mate.
        assert_eq!(san_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
        assert_eq!(
            san_of("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q"),
            "axb8=Q+"
        );
        assert_eq!(san_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), "Ra8+");
        assert_eq!(
            san_of(
                "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
                "d8h4"
            ),
            "Qh4#"
        );
    }

    #[test]
    fn sans_are_unique_along_random_playouts() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for game in 0..40 {
            let mut pos = Chess::startpos();
            for _ in 0..80 {
                let mut list = MoveList::new();
                pos.generate_legal(&mut list);
                if list.is_empty() {
                    break;
                }
                let mut sans: Vec<String> = list.iter().map(|&m| san(&pos, m)).collect();
                sans.sort();
                let n = sans.len();
                sans.dedup();
                assert_eq!(sans.len(), n, "game {game}: {}", pos.fen());
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make_move(list[(seed % n as u64) as usize]);
            }
        }
    }
}
