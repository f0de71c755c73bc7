//! Zobrist hashing: fixed pseudo-random 64-bit keys XORed together for every feature of a
//! position (piece on square, side to move, castling rights, hand counts, coins, ...).
//! Keys come from a seeded SplitMix64 stream, so they are the same in every run and every
//! build, which keeps `bench` node counts and TT behaviour reproducible.

/// SplitMix64's output function: a bijective, well-mixed hash of 64 bits (to key a table by a
/// bitboard computed on the fly, e.g. a pawn hash).
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64: a small, fast, well-mixed generator (Steele, Lea, Flood 2014). Deterministic
/// for a given seed. Used for zobrist keys and for seeded randomness in tests and tools.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.0)
    }

    /// A uniform number in `0..n` (`n > 0`), by multiply-shift (bias below 2^-32 for small n).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

/// The first `N` zobrist keys of the stream seeded with `seed`, at compile time when called in
/// a `const` (so a key table can be a plain `static`, read without a first-use check). The
/// same keys, in the same order, as [`keys`]`(seed, N)`. No key is zero.
pub const fn key_array<const N: usize>(seed: u64) -> [u64; N] {
    let mut rng = SplitMix64::new(seed);
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        let k = rng.next_u64();
        if k != 0 {
            out[i] = k;
            i += 1;
        }
    }
    out
}

/// `n` zobrist keys from the stream seeded with `seed` (each variant uses its own seed so keys
/// of different variants are unrelated). No key is zero.
pub fn keys(seed: u64, n: usize) -> Vec<u64> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| loop {
            let k = rng.next_u64();
            if k != 0 {
                break k;
            }
        })
        .collect()
}

/// A seed drawn from the clock (a random setup asked for without a seed, e.g. `setup` in the
/// protocol or `menagerie setup`): not reproducible, so whoever uses it prints it.
pub fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    SplitMix64::new(nanos).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_reproducible_and_distinct() {
        let a = keys(7, 1000);
        assert_eq!(a, keys(7, 1000));
        let mut s = a.clone();
        s.sort_unstable();
        s.dedup();
        assert_eq!(s.len(), 1000);
        assert_ne!(keys(8, 4), keys(7, 4));
        assert_eq!(key_array::<1000>(7).as_slice(), a.as_slice());
    }
}
