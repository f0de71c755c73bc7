//! Rules-agnostic building blocks shared by every variant: colours, board geometry and square
//! names, bitboards (u64/u128), attack tables for leapers, riders and hoppers, zobrist keys and
//! fixed-capacity move lists. Nothing here knows any variant.

pub mod attacks;
pub mod bitboard;
pub mod color;
pub mod geometry;
pub mod kindergarten;
pub mod repetition;
pub mod tunables;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use color::Color;
pub use geometry::{Geometry, Square, SquareError};
pub use zobrist::clock_seed;

/// Capacity of a [`MoveList`], the standard list: above the legal plies of any position of
/// most games (an 8x8 board with the orthodox pieces peaks at 218; drops onto every empty
/// square plus moves stay well below). A game with more plies per position chooses a larger
/// list through `GameMove::List`.
pub const MAX_MOVES: usize = 512;

/// The standard fixed-capacity list of plies, on the stack: move generation never allocates.
pub type MoveList<M> = arrayvec::ArrayVec<M, MAX_MOVES>;

/// A fixed-capacity list on the stack: what generic code (search, perft, protocol) needs of a
/// variant's ply list (`GameMove::List`). Slice access comes from `Deref`.
pub trait MoveBuffer<T: Copy>:
    Default + std::ops::Deref<Target = [T]> + std::ops::DerefMut + Send + Sync
{
    /// Appends `x`. A full list keeps its items and drops `x` (capacities are chosen above any
    /// reachable count; debug builds assert that this never happens).
    fn push(&mut self, x: T);
    /// Removes every item.
    fn clear(&mut self);
    /// Keeps the items for which `keep` is true, in order.
    fn retain(&mut self, keep: impl FnMut(&mut T) -> bool);
    /// Shortens the list to `len` items (no effect when it is shorter).
    fn truncate(&mut self, len: usize);
}

impl<T: Copy + Send + Sync, const N: usize> MoveBuffer<T> for arrayvec::ArrayVec<T, N> {
    #[inline(always)]
    fn push(&mut self, x: T) {
        let pushed = self.try_push(x);
        debug_assert!(pushed.is_ok(), "move list capacity {N} exceeded");
    }
    #[inline(always)]
    fn clear(&mut self) {
        arrayvec::ArrayVec::clear(self)
    }
    #[inline(always)]
    fn retain(&mut self, keep: impl FnMut(&mut T) -> bool) {
        arrayvec::ArrayVec::retain(self, keep)
    }
    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        arrayvec::ArrayVec::truncate(self, len)
    }
}
