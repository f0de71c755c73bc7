//! Evaluation of Muster Chess: the orthodox evaluator (tapered material, piece-square tables,
//! mobility, pawn structure, passed pawns, King safety, threats) on the board, with
//! the parameters declared here.
//!
//! The orthodox terms assume no setup: there is no castling or development term, material and
//! phase count whatever stands on the board (the phase is capped at the opening value, so an
//! army of many queens is a middlegame), and pawn terms work by relative rank for any rank a
//! pawn can stand on (rules/muster.md 2: rank 1 too). The one orthodox habit left in the
//! defaults is the King's middlegame table on its first rank, which prefers the orthodox
//! castled squares g1 and b1/c1 over e1/f1; Muster armies start with the King anywhere on files
//! e-h and castle to many squares (rules/muster.md 5), so [`MUSTER_PARAMS`] replace that rank
//! by a setup-neutral one (corners and edges safer than the centre, symmetric).

use super::Muster;
use crate::variants::orthodox::eval::params::{EvalParams, DEFAULT, S};
use crate::variants::orthodox::eval::{evaluate_board, report_board};

/// The King's middlegame values on its own first rank, files a-h (centipawns): symmetric, so
/// no file is favoured because an orthodox castling lands there.
pub const KING_FIRST_RANK_MG: [i32; 8] = [25, 30, 15, -10, -10, 15, 30, 25];

/// The King's endgame values on its own first rank, files a-h (centipawns): symmetric for the
/// same reason (the Texel-tuned orthodox rank differs by a centipawn between mirrored files).
pub const KING_FIRST_RANK_EG: [i32; 8] = [-60, -40, -30, -25, -25, -30, -40, -60];

/// The evaluation parameters of Muster Chess: the orthodox defaults with the King's first rank
/// replaced by [`KING_FIRST_RANK_MG`] and [`KING_FIRST_RANK_EG`].
pub static MUSTER_PARAMS: EvalParams = muster_params();

const fn muster_params() -> EvalParams {
    let mut p = DEFAULT;
    let mut f = 0;
    while f < 8 {
        p.psqt[5][f] = S {
            mg: KING_FIRST_RANK_MG[f],
            eg: KING_FIRST_RANK_EG[f],
        };
        f += 1;
    }
    p
}

/// Static evaluation in centipawns from the side to move's point of view. Never allocates.
#[inline]
pub fn evaluate(pos: &Muster) -> i32 {
    evaluate_board(&pos.board, pos.stm, &MUSTER_PARAMS)
}

/// The evaluation term by term, for the `eval` command.
pub fn report(pos: &Muster) -> String {
    report_board(&pos.board, pos.stm, &MUSTER_PARAMS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Notation;

    fn eval(fen: &str) -> i32 {
        evaluate(&Muster::from_fen(fen).unwrap())
    }

    #[test]
    fn unusual_armies_are_valued_sensibly() {
        let regular = eval(super::super::START_FEN);
        assert!(regular.abs() < 50, "{regular}");
        // Many queens: far ahead, by roughly the material.
        let queens = eval("rnbqkbnr/pppppppp/8/8/QQQQQQQQ/8/8/4K3 w - - 0 1");
        assert!(queens > 3000, "{queens}");
        // No pawns: behind by about the pawns' worth, not more than a rook's more.
        let no_pawns = eval("rnbqkbnr/pppppppp/8/8/8/8/8/RNBQKBNR w a1h1a8h8 - 0 1");
        assert!((-1200..-300).contains(&no_pawns), "{no_pawns}");
        // Pawns on the first rank behind the pieces: close to the regular army.
        let rank1 = eval("rnbqkbnr/pppppppp/8/8/8/8/RNBQKBNR/PPPPPPPP w - - 0 1");
        assert!((rank1 - regular).abs() < 150, "{rank1} vs {regular}");
        // A lone King against a full army: lost.
        assert!(eval("rnbqkbnr/pppppppp/8/8/8/8/8/4K3 w - - 0 1") < -3000);
    }

    #[test]
    fn the_king_has_no_orthodox_castled_square() {
        // Mirror images of the King's first rank score the same.
        for f in 0..8 {
            assert_eq!(KING_FIRST_RANK_MG[f], KING_FIRST_RANK_MG[7 - f]);
            assert_eq!(KING_FIRST_RANK_EG[f], KING_FIRST_RANK_EG[7 - f]);
        }
        let e1 = eval("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
        let d1 = eval("4k3/pppppppp/8/8/8/8/PPPPPPPP/3K4 w - - 0 1");
        assert_eq!(e1, d1);
    }

    #[test]
    fn colour_symmetry() {
        for (w, b) in [
            (
                "rnbqkbnr/pppppppp/8/8/QQQQQQQQ/8/8/4K3 w - - 0 1",
                "4k3/8/8/qqqqqqqq/8/8/PPPPPPPP/RNBQKBNR b - - 0 1",
            ),
            (
                "pppkpppp/8/3qq3/rnb2bnr/RNB2BNR/3QQ3/8/PPPKPPPP w - - 0 1",
                "pppkpppp/8/3qq3/rnb2bnr/RNB2BNR/3QQ3/8/PPPKPPPP b - - 0 1",
            ),
        ] {
            assert_eq!(eval(w), eval(b), "{w} / {b}");
        }
    }
}
