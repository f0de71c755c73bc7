//! Chess's SAN (PGN standard 8.2.3): the orthodox board's SAN
//! ([`crate::variants::orthodox::san`]) with chess's castling, `O-O` and `O-O-O` (the King
//! lands on the g-file or the c-file, in Chess960 too).

use super::Chess;
use crate::core::MoveList;
use crate::variants::orthodox::san::{check_mark, move_san};
use crate::variants::orthodox::{Move, MoveKind};

/// The SAN of `m`, a legal move of `pos`.
pub fn san(pos: &Chess, m: Move) -> String {
    let mut s = if m.kind() == MoveKind::Castle {
        (if m.to() % 8 == 6 { "O-O" } else { "O-O-O" }).to_string()
    } else {
        let mut legal = MoveList::new();
        pos.generate_legal(&mut legal);
        move_san(pos.board(), m, legal.iter().copied())
    };
    s.push_str(check_mark(pos, m));
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
        use crate::variants::playout::{Next, Playout};
        let mut playout = Playout::new(0x9E37_79B9_7F4A_7C15, 80);
        for game in 0..40 {
            let mut pos = Chess::startpos();
            playout.run(&mut pos, |pos, at| {
                let mut sans: Vec<String> = at.legal.iter().map(|&m| san(pos, m)).collect();
                sans.sort();
                let n = sans.len();
                sans.dedup();
                assert_eq!(sans.len(), n, "game {game}: {}", pos.fen());
                Next::Random
            });
        }
    }
}
