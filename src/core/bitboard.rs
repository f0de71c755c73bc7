//! Bitboards: one bit per cell of a board, `u64` for boards of up to 64 cells and `u128` beyond
//! (9 files x 11 ranks, say). Both implement [`Bitboard`], so attack tables and generic
//! helpers are written once.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A set of cells as a machine integer: bit `i` is cell index `i` of a [`Geometry`](super::Geometry).
pub trait Bitboard:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const EMPTY: Self;
    /// Number of bits: the largest board this type can hold.
    const BITS: u32;

    /// The set holding only cell `index` (`index < Self::BITS`).
    fn bit(index: usize) -> Self;
    /// Whether cell `index` is in the set.
    fn has(self, index: usize) -> bool;
    /// Number of cells in the set.
    fn count(self) -> u32;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// Lowest cell index of a non-empty set.
    fn lsb(self) -> usize;
    /// Highest cell index of a non-empty set.
    fn msb(self) -> usize;
    /// Removes and returns the lowest cell index of a non-empty set.
    #[inline(always)]
    fn pop_lsb(&mut self) -> usize {
        let i = self.lsb();
        *self ^= Self::bit(i);
        i
    }
    /// Iterates over the cell indices, lowest first.
    #[inline(always)]
    fn iter(self) -> Cells<Self> {
        Cells(self)
    }
}

/// Iterator over the cell indices of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Cells<B: Bitboard>(B);

impl<B: Bitboard> Iterator for Cells<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lsb())
        }
    }
}

macro_rules! impl_bitboard {
    ($t:ty) => {
        impl Bitboard for $t {
            const EMPTY: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn bit(index: usize) -> Self {
                1 << index
            }
            #[inline(always)]
            fn has(self, index: usize) -> bool {
                (self >> index) & 1 != 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn lsb(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn msb(self) -> usize {
                (<$t>::BITS - 1 - self.leading_zeros()) as usize
            }
        }
    };
}

impl_bitboard!(u64);
impl_bitboard!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip<B: Bitboard>() {
        let mut b = B::bit(3) | B::bit(40) | B::bit((B::BITS - 1) as usize);
        assert_eq!(b.count(), 3);
        assert_eq!(b.lsb(), 3);
        assert_eq!(b.msb(), (B::BITS - 1) as usize);
        assert!(b.has(40) && !b.has(41));
        assert_eq!(
            b.iter().collect::<Vec<_>>(),
            vec![3, 40, (B::BITS - 1) as usize]
        );
        assert_eq!(b.pop_lsb(), 3);
        assert_eq!(b.count(), 2);
    }

    #[test]
    fn u64_and_u128_behave_alike() {
        roundtrip::<u64>();
        roundtrip::<u128>();
    }
}
