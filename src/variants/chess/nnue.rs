//! Chess's network: the residual network of [`crate::variants::orthodox::nnue`] trained on
//! chess positions, compiled in from `nnue.bin` (written by `tuning/nnue/train.py` with its
//! `nnue.bin.check`). [`Chess`](super::Chess) keeps its accumulators beside its board
//! ([`crate::variants::orthodox::nnue::AccumulatorStack`], updated by make/unmake) and adds the
//! network's output to the hand-written evaluation ([`super::eval`]).

use std::sync::LazyLock;

use crate::core::Color;
use crate::variants::orthodox::nnue::Net;
pub use crate::variants::orthodox::nnue::ACTIVE;
use crate::variants::orthodox::Board;

/// The compiled-in network; `None` when its file does not parse (then the correction is 0 and
/// the hand-written evaluation plays alone; a test asserts that it parses).
pub static NET: LazyLock<Option<Net>> =
    LazyLock::new(|| Net::parse(include_bytes!("nnue.bin")).ok());

/// The network's correction in centipawns from `stm`'s view, 0 without [`net`], from scratch
/// (the search uses the accumulator that [`crate::variants::chess::Chess`] keeps).
pub fn correction(board: &Board, stm: Color) -> i32 {
    match net() {
        Some(net) => net.evaluate(board, stm),
        None => 0,
    }
}

/// The network chess plays with: the compiled-in one when [`ACTIVE`] and its file parsed.
#[inline(always)]
pub fn net() -> Option<&'static Net> {
    if ACTIVE {
        NET.as_ref()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::Chess;
    use crate::variants::orthodox::nnue::{NetError, HIDDEN};
    use crate::variants::{Evaluation, Game, Notation, Rules};

    #[test]
    fn the_compiled_network_parses() {
        assert!(Net::parse(include_bytes!("nnue.bin")).is_ok());
        assert!(NET.is_some());
        assert_eq!(net().is_some(), ACTIVE);
    }

    /// Without the `nnue` feature chess keeps no accumulator and evaluates by hand alone;
    /// with it, the search score is the hand-written one plus the correction.
    #[test]
    fn the_feature_decides_the_search_score() {
        use crate::variants::chess::eval::{self, params::DEFAULT};
        let hce = crate::variants::chess::eval::params::EvalParams {
            net_permille: 0,
            ..DEFAULT
        };
        for fen in Chess::SEARCH.bench_fens {
            let pos = Chess::from_fen(fen).unwrap();
            if crate::variants::chess::endgame::scale(pos.board(), pos.side_to_move()).is_some() {
                continue;
            }
            let by_hand = eval::evaluate_with(&pos, &hce);
            let net = NET
                .as_ref()
                .unwrap()
                .evaluate(pos.board(), pos.side_to_move());
            let want = if ACTIVE {
                by_hand + net * DEFAULT.net_permille / 1000
            } else {
                by_hand
            };
            assert_eq!(pos.evaluate(), want, "{fen}");
        }
    }

    #[test]
    fn bad_files_are_refused() {
        let good = include_bytes!("nnue.bin");
        assert_eq!(Net::parse(b"XXXX").err(), Some(NetError::Magic));
        assert!(matches!(
            Net::parse(&good[..good.len() - 1]),
            Err(NetError::Size(..))
        ));
        let mut wide = good.to_vec();
        wide[4] = (HIDDEN + 1) as u8;
        assert_eq!(
            Net::parse(&wide).err(),
            Some(NetError::Width(HIDDEN as u32 + 1))
        );
    }

    /// The trainer's integer model of the network (`nnue.bin.check`, written with the file)
    /// and the engine's agree to the centipawn.
    #[test]
    fn matches_the_trainers_integer_model() {
        let text = include_str!("nnue.bin.check");
        let mut n = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let (fen, cp) = line.rsplit_once('|').expect("FEN | cp");
            let pos = Chess::from_fen(fen.trim()).expect("valid FEN");
            let cp: i32 = cp.trim().parse().expect("centipawns");
            let net = NET.as_ref().unwrap();
            assert_eq!(net.evaluate(pos.board(), pos.side_to_move()), cp, "{fen}");
            n += 1;
        }
        assert!(n >= 4, "too few check positions");
    }

    /// The accumulator chess keeps through make/unmake equals one built from scratch after
    /// every move and every take-back: quiet moves, captures, both castlings (orthodox and
    /// Chess960), en passant, promotions with and without capture, null moves.
    #[test]
    #[cfg(feature = "nnue")]
    fn the_kept_accumulator_matches_a_fresh_one() {
        use crate::core::MoveList;
        let net = net().expect("the compiled network parses");
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "n1r1kr2/1P4P1/8/8/8/8/1p4p1/N1R1KR2 w CFcf - 0 1",
            "1rk2r2/8/8/8/8/8/8/1RK2R2 w BFbf - 0 1",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for fen in fens {
            let root = Chess::from_fen(fen).unwrap();
            for _ in 0..40 {
                let mut pos = root.clone();
                let mut played = 0;
                for _ in 0..24 {
                    let mut list = MoveList::new();
                    pos.generate_legal(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = list[(seed % list.len() as u64) as usize];
                    if seed.is_multiple_of(11) && pos.checkers == 0 {
                        pos.make_null_move();
                    } else {
                        pos.make_move(m);
                    }
                    played += 1;
                    assert_eq!(
                        *pos.nn.current(),
                        net.refresh(pos.board()),
                        "{} after {m:?}",
                        pos.fen()
                    );
                }
                for _ in 0..played {
                    pos.unmake_move();
                    assert_eq!(*pos.nn.current(), net.refresh(pos.board()), "{}", pos.fen());
                }
                assert_eq!(pos.nn.current(), root.nn.current());
            }
        }
    }

    /// Colour symmetry: the mirrored position with the other side to move scores the same.
    #[test]
    fn colour_mirror_scores_the_same() {
        for fen in Chess::SEARCH.bench_fens {
            let pos = Chess::from_fen(fen).unwrap();
            let mirrored =
                Chess::from_fen(&crate::variants::orthodox::eval::tests::mirror_fen(fen)).unwrap();
            let net = NET.as_ref().unwrap();
            assert_eq!(
                net.evaluate(pos.board(), pos.side_to_move()),
                net.evaluate(mirrored.board(), mirrored.side_to_move()),
                "{fen}"
            );
        }
    }
}
