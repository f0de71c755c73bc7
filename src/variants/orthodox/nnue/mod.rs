//! A small residual network over the orthodox board: the network format and its parsing
//! ([`Net`]), the first layer's sums ([`Accumulator`]), the stack of them a position keeps
//! beside its board ([`AccumulatorStack`]) and the incremental update that make feeds
//! ([`Update`], a [`Features`] hook of [`super::make::make`]).
//!
//! The engine's score is `hce + net * net_permille / 1000` (centipawns, side to move's view;
//! [`super::eval::params::EvalParams::net_permille`]): the network learns what the hand-written
//! terms miss, from positions scored by a stronger engine (`tuning/nnue/train.py`, README
//! "Tuning"). Chess plays with one (`src/variants/chess/nnue.bin`, [`crate::variants::chess::nnue`]).
//!
//! Shape: 768 inputs (colour relative to the perspective, kind, square seen from the
//! perspective: `(rel_colour * 6 + kind) * 64 + square`, Black's squares mirrored by `^ 56`),
//! a [`HIDDEN`]-wide layer shared by both perspectives, clipped ReLU to `[0, QA]`, and one
//! output over both halves (the side to move's first), in units of `out_scale` centipawns.
//! Integer arithmetic throughout, so every machine gives the same score.
//!
//! The network file, little-endian: `MNN1`, the hidden width (u32), `out_scale` (u32), the
//! first layer `768 x HIDDEN` (i16, input-major, times [`QA`]), its bias (`HIDDEN` i16, times
//! [`QA`]), the output weights (`2 x HIDDEN` i16, times [`QB`]) and the output bias (i32, times
//! `QA * QB`). `tuning/nnue/train.py` writes it.
//!
//! The accumulator lives in the variant's position, beside its [`super::Board`], not in the
//! board: a variant without a network carries none. The variants' own networks are of
//! another design ([`crate::variants::network`], `EvalFile`; Mystic's inputs are the board's
//! 768 of [`super::inputs`] plus its economy, kept through make by a
//! [`crate::variants::network::NetAccumulator`]). What a variant on the
//! orthodox board (Muster, Mystic) does to take a network kept incrementally here, as chess
//! does ([`crate::variants::chess::Chess`]):
//!
//! 1. compile its file in: `static NET: LazyLock<Option<Net>> = LazyLock::new(|| Net::parse(
//!    include_bytes!("nnue.bin")).ok())`, used only when [`ACTIVE`] (chess's `net()`);
//! 2. keep an [`AccumulatorStack`] field beside its board, built by [`AccumulatorStack::new`]
//!    when a position is read (FEN, start position);
//! 3. in make: [`AccumulatorStack::push`], then pass [`AccumulatorStack::update`] as the
//!    `features` hook of [`super::make::make`] (and call [`Update`]'s `add`/`sub` for men it
//!    places or removes itself, as Mystic's purchases and upgrades do); in a null move, `push`
//!    alone; in unmake, [`AccumulatorStack::pop`];
//! 4. in its evaluation, add `net.output(stack.current(), stm) * permille / 1000`, and train a
//!    network on its own positions (`tuning/nnue/train.py`; its inputs are the same 768).

mod net;

pub use net::{Net, NetError, HIDDEN, INPUTS, QA, QB};

use super::make::Features;
use super::{Board, Piece};

/// Whether networks play: builds with the `nnue` feature (a default one, see `Cargo.toml`).
/// Without it (`cargo build -p menagerie --no-default-features`) the positions keep no
/// accumulators ([`AccumulatorStack::push`] and [`AccumulatorStack::pop`] do nothing), chess's
/// `net()` is `None` and its evaluation is the hand-written one alone.
pub const ACTIVE: bool = cfg!(feature = "nnue");

/// The first layer's sums for one position: White's view, then Black's (`HIDDEN` each, times
/// [`QA`]).
pub type Accumulator = [[i16; HIDDEN]; 2];

/// The accumulator of a position and those before each of its plies: what a position keeps
/// beside its board. [`AccumulatorStack::push`] saves the current one before a ply,
/// [`AccumulatorStack::update`] updates it through make, [`AccumulatorStack::pop`] brings back
/// the saved one on unmake (a copy of 128 bytes rather than the update undone).
#[derive(Clone)]
pub struct AccumulatorStack {
    current: Accumulator,
    saved: Vec<Accumulator>,
}

impl AccumulatorStack {
    /// The stack of a position on `board`: its accumulator by `net` from scratch (zeros without
    /// a network), room for `reserve` plies (none in builds without [`ACTIVE`]).
    pub fn new(net: Option<&Net>, board: &Board, reserve: usize) -> AccumulatorStack {
        AccumulatorStack {
            current: match net {
                Some(net) => net.refresh(board),
                None => [[0; HIDDEN]; 2],
            },
            saved: Vec::with_capacity(if ACTIVE { reserve } else { 0 }),
        }
    }

    /// The accumulator of the position as it stands.
    #[inline(always)]
    pub fn current(&self) -> &Accumulator {
        &self.current
    }

    /// Saves the current accumulator before a ply (nothing without [`ACTIVE`]).
    #[inline(always)]
    pub fn push(&mut self) {
        if ACTIVE {
            self.saved.push(self.current);
        }
    }

    /// Brings back the accumulator saved by the last [`AccumulatorStack::push`] (nothing
    /// without [`ACTIVE`]).
    #[inline(always)]
    pub fn pop(&mut self) {
        if ACTIVE {
            self.current = self.saved.pop().expect("an accumulator per ply");
        }
    }

    /// The [`Features`] hook that keeps the current accumulator up to date by `net` through
    /// make (does nothing when `net` is `None`).
    #[inline(always)]
    pub fn update<'a>(&'a mut self, net: Option<&'a Net>) -> Update<'a> {
        Update {
            net,
            acc: &mut self.current,
        }
    }
}

/// The make hook ([`Features`]) that adds and subtracts the rows of the men that change to an
/// accumulator, by a network (nothing without one).
pub struct Update<'a> {
    net: Option<&'a Net>,
    acc: &'a mut Accumulator,
}

impl Features for Update<'_> {
    #[inline(always)]
    fn add(&mut self, piece: Piece, sq: u8) {
        if let Some(net) = self.net {
            net.add(self.acc, piece.color(), piece.kind(), sq);
        }
    }

    #[inline(always)]
    fn sub(&mut self, piece: Piece, sq: u8) {
        if let Some(net) = self.net {
            net.sub(self.acc, piece.color(), piece.kind(), sq);
        }
    }

    #[inline(always)]
    fn shift(&mut self, piece: Piece, from: u8, to: u8) {
        if let Some(net) = self.net {
            net.shift(self.acc, piece.color(), piece.kind(), from, to);
        }
    }
}
