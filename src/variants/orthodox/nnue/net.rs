//! The network file and its weights ([`Net`]): parsing, the first layer's rows of a man
//! (add, subtract, a fused shift), an accumulator from scratch and the output layer. The file
//! layout is in the documentation of [`super`].

use super::Accumulator;
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

    /// Moves a man of `color` and `kind` from `from` to `to` in both halves of `acc`: one pass
    /// over the accumulator instead of a [`Net::sub`] and a [`Net::add`] (the same sums, the
    /// arithmetic wrapping).
    #[inline(always)]
    pub fn shift(&self, acc: &mut Accumulator, color: Color, kind: Kind, from: u8, to: u8) {
        let (wf, bf) = self.rows(color, kind, from);
        let (wt, bt) = self.rows(color, kind, to);
        for i in 0..HIDDEN {
            acc[0][i] = acc[0][i].wrapping_add(wt[i].wrapping_sub(wf[i]));
            acc[1][i] = acc[1][i].wrapping_add(bt[i].wrapping_sub(bf[i]));
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
