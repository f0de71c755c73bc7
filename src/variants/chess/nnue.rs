//! A small residual network on top of the hand-written chess evaluation ([`super::eval`]).
//!
//! The engine's score is `hce + net * net_permille / 1000` (centipawns, side to move's view;
//! [`super::eval::params::EvalParams::net_permille`]): the network learns what the hand-written
//! terms miss, from positions scored by a stronger engine (`tuning/nnue/train.py`, README
//! "Tuning").
//!
//! Shape: 768 inputs (colour relative to the perspective, kind, square seen from the
//! perspective: `(rel_colour * 6 + kind) * 64 + square`, Black's squares mirrored by `^ 56`),
//! a [`HIDDEN`]-wide layer shared by both perspectives, clipped ReLU to `[0, QA]`, and one
//! output over both halves (the side to move's first), in units of `out_scale` centipawns.
//! Integer arithmetic throughout, so every machine gives the same score.
//!
//! Chess keeps the first layer's sums ([`Accumulator`]) up to date through make/unmake (two to
//! four rows added or removed per move) and evaluates only the output layer.
//!
//! The network file (`nnue.bin`, compiled in), little-endian: `MNN1`, the hidden width (u32),
//! `out_scale` (u32), the first layer `768 x HIDDEN` (i16, input-major, times [`QA`]), its bias
//! (`HIDDEN` i16, times [`QA`]), the output weights (`2 x HIDDEN` i16, times [`QB`]) and the
//! output bias (i32, times `QA * QB`).

use std::sync::LazyLock;

/// Whether chess plays with the network: builds with the `nnue` feature (a default one, see
/// `Cargo.toml`). Without it (`cargo build -p menagerie --no-default-features`) chess keeps no
/// accumulator, [`net`] is `None` and the evaluation is the hand-written one alone.
pub const ACTIVE: bool = cfg!(feature = "nnue");

use crate::core::Color;
use crate::variants::orthodox::{Board, Kind};

/// Width of the hidden layer per perspective.
pub const HIDDEN: usize = 32;
/// Scale of the first layer's weights and of the clipped activation (1.0 = `QA`).
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Inputs: 2 relative colours x 6 kinds x 64 squares.
pub const INPUTS: usize = 768;

/// The network's weights. The first layer stays `i16`: the trainer bounds every hidden unit so
/// that 32 men cannot overflow it (`tuning/nnue/train.py`), and the additions wrap rather than
/// panic on a board with more men than chess allows.
pub struct Net {
    w1: Box<[[i16; HIDDEN]; INPUTS]>,
    b1: [i16; HIDDEN],
    w2: [i32; 2 * HIDDEN],
    b2: i32,
    out_scale: i32,
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// The file does not start with `MNN1`.
    #[error("not a menagerie network file (no MNN1 header)")]
    Magic,
    /// The hidden width is not [`HIDDEN`].
    #[error("hidden width {0}, this build expects {HIDDEN}")]
    Width(u32),
    /// The file is shorter or longer than its header says.
    #[error("network file of {0} bytes, expected {1}")]
    Size(usize, usize),
}

impl Net {
    /// Parses a network file (layout in the module documentation).
    ///
    /// Errors: a wrong header, hidden width or length.
    pub fn parse(bytes: &[u8]) -> Result<Net, NetError> {
        if bytes.len() < 12 || &bytes[..4] != b"MNN1" {
            return Err(NetError::Magic);
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let hidden = u32_at(4);
        if hidden as usize != HIDDEN {
            return Err(NetError::Width(hidden));
        }
        let out_scale = u32_at(8) as i32;
        let expected = 12 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
        if bytes.len() != expected {
            return Err(NetError::Size(bytes.len(), expected));
        }
        let mut at = 12;
        let mut next = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let mut w1 = Box::new([[0i16; HIDDEN]; INPUTS]);
        for row in w1.iter_mut() {
            for w in row.iter_mut() {
                *w = next();
            }
        }
        let mut b1 = [0i16; HIDDEN];
        for b in b1.iter_mut() {
            *b = next();
        }
        let mut w2 = [0i32; 2 * HIDDEN];
        for w in w2.iter_mut() {
            *w = next() as i32;
        }
        let b2 = i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        Ok(Net {
            w1,
            b1,
            w2,
            b2,
            out_scale,
        })
    }

    /// The first-layer rows of a man of `color` and `kind` on `sq`: (White's view, Black's).
    #[inline(always)]
    fn rows(&self, color: Color, kind: Kind, sq: u8) -> (&[i16; HIDDEN], &[i16; HIDDEN]) {
        let rel = (color != Color::White) as usize;
        let k = kind.index();
        let sq = sq as usize;
        (
            &self.w1[(rel * 6 + k) * 64 + sq],
            &self.w1[((1 - rel) * 6 + k) * 64 + (sq ^ 56)],
        )
    }

    /// Adds a man of `color` and `kind` on `sq` to both halves of `acc`.
    #[inline(always)]
    pub fn add(&self, acc: &mut Accumulator, color: Color, kind: Kind, sq: u8) {
        let (w, b) = self.rows(color, kind, sq);
        for i in 0..HIDDEN {
            acc[0][i] = acc[0][i].wrapping_add(w[i]);
            acc[1][i] = acc[1][i].wrapping_add(b[i]);
        }
    }

    /// Removes a man of `color` and `kind` on `sq` from both halves of `acc`.
    #[inline(always)]
    pub fn sub(&self, acc: &mut Accumulator, color: Color, kind: Kind, sq: u8) {
        let (w, b) = self.rows(color, kind, sq);
        for i in 0..HIDDEN {
            acc[0][i] = acc[0][i].wrapping_sub(w[i]);
            acc[1][i] = acc[1][i].wrapping_sub(b[i]);
        }
    }

    /// The accumulator of `board` from scratch (about 30 men times two rows).
    pub fn refresh(&self, board: &Board) -> Accumulator {
        let mut acc = [self.b1, self.b1];
        for kind in Kind::ALL {
            for color in [Color::White, Color::Black] {
                let mut bb = board.pieces(color, kind);
                while bb != 0 {
                    let sq = bb.trailing_zeros() as u8;
                    bb &= bb - 1;
                    self.add(&mut acc, color, kind, sq);
                }
            }
        }
        acc
    }

    /// The output for the accumulator `acc` with `stm` to move: centipawns from `stm`'s view
    /// (truncated towards zero). Never allocates.
    #[inline]
    pub fn output(&self, acc: &Accumulator, stm: Color) -> i32 {
        let (us, them) = match stm {
            Color::White => (&acc[0], &acc[1]),
            Color::Black => (&acc[1], &acc[0]),
        };
        // i32 cannot overflow: the trainer bounds QA * sum(|w2|) + |b2| (train.py).
        let mut sum = self.b2;
        for i in 0..HIDDEN {
            sum += us[i].clamp(0, QA as i16) as i32 * self.w2[i];
            sum += them[i].clamp(0, QA as i16) as i32 * self.w2[HIDDEN + i];
        }
        (sum as i64 * self.out_scale as i64 / (QA * QB) as i64) as i32
    }

    /// The network's correction for `board` with `stm` to move, in centipawns from `stm`'s
    /// view, from scratch ([`Net::refresh`] then [`Net::output`]). Never allocates.
    pub fn evaluate(&self, board: &Board, stm: Color) -> i32 {
        self.output(&self.refresh(board), stm)
    }
}

/// The first layer's sums for one position: White's view, then Black's (`HIDDEN` each, times
/// [`QA`]). Chess keeps one up to date through make/unmake
/// ([`crate::variants::chess::Chess`]).
pub type Accumulator = [[i16; HIDDEN]; 2];

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
                        pos.nn,
                        net.refresh(pos.board()),
                        "{} after {m:?}",
                        pos.fen()
                    );
                }
                for _ in 0..played {
                    pos.unmake_move();
                    assert_eq!(pos.nn, net.refresh(pos.board()), "{}", pos.fen());
                }
                assert_eq!(pos.nn, root.nn);
            }
        }
    }

    /// Colour symmetry: the mirrored position with the other side to move scores the same.
    #[test]
    fn colour_mirror_scores_the_same() {
        for fen in Chess::SEARCH.bench_fens {
            let pos = Chess::from_fen(fen).unwrap();
            let mirrored =
                Chess::from_fen(&crate::variants::chess::eval::tests::mirror_fen(fen)).unwrap();
            let net = NET.as_ref().unwrap();
            assert_eq!(
                net.evaluate(pos.board(), pos.side_to_move()),
                net.evaluate(mirrored.board(), mirrored.side_to_move()),
                "{fen}"
            );
        }
    }
}
