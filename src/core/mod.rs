//! Rules-agnostic building blocks shared by every variant: colours, board geometry and square
//! names, bitboards (u64/u128), attack tables for leapers, riders and hoppers, zobrist keys and
//! fixed-capacity move lists. Nothing here knows any variant.

pub mod attacks;
pub mod bitboard;
pub mod color;
pub mod geometry;
pub mod repetition;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use color::Color;
pub use geometry::{Geometry, Square, SquareError};

/// Capacity of a [`MoveList`]: more than the legal plies of any position of any variant here
/// (orthodox chess peaks at 218; drops onto every empty square plus moves stay well below).
pub const MAX_MOVES: usize = 512;

/// A fixed-capacity list of plies, on the stack: move generation never allocates.
pub type MoveList<M> = arrayvec::ArrayVec<M, MAX_MOVES>;
