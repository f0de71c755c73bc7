//! Attack tables of orthodox chess on the 8x8 board: leaper tables from the core, and magic
//! bitboards for the sliders (a perfect hash of the relevant blockers into a shared table).
//!
//! The magic multipliers are found at start-up by a seeded random search (deterministic, a few
//! milliseconds in release), so no opaque constants live in the source.

use std::sync::LazyLock;

use crate::core::attacks::{LeaperTable, DIAGONAL, KING, KNIGHT, ORTHOGONAL};
use crate::core::geometry::BOARD_8X8;
use crate::core::zobrist::SplitMix64;
use crate::core::Color;

/// Bitboard of file a.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Bitboard of file h.
pub const FILE_H: u64 = FILE_A << 7;
/// Bitboard of rank 1.
pub const RANK_1: u64 = 0xFF;
/// Bitboard of rank 8.
pub const RANK_8: u64 = 0xFF << 56;

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct Tables {
    knight: [u64; 64],
    king: [u64; 64],
    pawn: [[u64; 64]; 2],
    rook: [Magic; 64],
    bishop: [Magic; 64],
    slider: Vec<u64>,
    /// between[a][b]: squares strictly between a and b on a shared line, else 0.
    between: Vec<[u64; 64]>,
    /// line[a][b]: the whole line through a and b (edge to edge), else 0.
    line: Vec<[u64; 64]>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(build);

fn slow_slider(sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut out = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let t = (r * 8 + f) as usize;
            out |= 1 << t;
            if occ & (1 << t) != 0 {
                break;
            }
        }
    }
    out
}

fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    // Blockers on the last square of each ray do not change the attacks.
    let mut out = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            if !(0..8).contains(&(nf + df)) || !(0..8).contains(&(nr + dr)) {
                break;
            }
            f = nf;
            r = nr;
            out |= 1 << (r * 8 + f);
        }
    }
    out
}

fn find_magics(dirs: &[(i32, i32)], slider: &mut Vec<u64>, rng: &mut SplitMix64) -> [Magic; 64] {
    let mut magics = [Magic::default(); 64];
    let mut occs = Vec::new();
    let mut atts = Vec::new();
    let mut used = Vec::new();
    for (sq, m) in magics.iter_mut().enumerate() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        occs.clear();
        atts.clear();
        // Carry-Rippler enumeration of every subset of the mask.
        let mut sub = 0u64;
        loop {
            occs.push(sub);
            atts.push(slow_slider(sq, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        let offset = slider.len();
        slider.resize(offset + size, 0);
        loop {
            let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            used.clear();
            used.resize(size, false);
            let table = &mut slider[offset..offset + size];
            let ok = occs.iter().zip(&atts).all(|(&o, &a)| {
                let idx = (o.wrapping_mul(magic) >> shift) as usize;
                if !used[idx] {
                    used[idx] = true;
                    table[idx] = a;
                    true
                } else {
                    table[idx] == a
                }
            });
            if ok {
                *m = Magic {
                    mask,
                    magic,
                    shift,
                    offset,
                };
                break;
            }
        }
    }
    magics
}

fn build() -> Tables {
    let g = BOARD_8X8;
    let kn = LeaperTable::<u64>::new(&g, &KNIGHT);
    let kg = LeaperTable::<u64>::new(&g, &KING);
    let wp = LeaperTable::<u64>::new(&g, &[(-1, 1), (1, 1)]);
    let bp = LeaperTable::<u64>::new(&g, &[(-1, -1), (1, -1)]);
    let mut knight = [0; 64];
    let mut king = [0; 64];
    let mut pawn = [[0; 64]; 2];
    for s in 0..64u8 {
        knight[s as usize] = kn.attacks(s);
        king[s as usize] = kg.attacks(s);
        pawn[0][s as usize] = wp.attacks(s);
        pawn[1][s as usize] = bp.attacks(s);
    }
    let mut rng = SplitMix64::new(0x6d61_6769_6373);
    let mut slider = Vec::with_capacity(110_000);
    let rook = find_magics(&ORTHOGONAL, &mut slider, &mut rng);
    let bishop = find_magics(&DIAGONAL, &mut slider, &mut rng);
    let mut between = vec![[0u64; 64]; 64];
    let mut line = vec![[0u64; 64]; 64];
    for a in 0..64usize {
        for (dirs, _) in [(&ORTHOGONAL, 0), (&DIAGONAL, 1)] {
            for &d in dirs.iter() {
                let ray = slow_slider(a, 0, &[d]);
                let back = slow_slider(a, 0, &[(-d.0, -d.1)]);
                for b in ray_squares(a, d) {
                    between[a][b] = slow_slider(a, 1 << b, &[d]) & !(1 << b);
                    line[a][b] = ray | back | (1 << a);
                }
            }
        }
    }
    Tables {
        knight,
        king,
        pawn,
        rook,
        bishop,
        slider,
        between,
        line,
    }
}

fn ray_squares(sq: usize, (df, dr): (i32, i32)) -> Vec<usize> {
    let mut out = Vec::new();
    let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
    loop {
        f += df;
        r += dr;
        if !(0..8).contains(&f) || !(0..8).contains(&r) {
            return out;
        }
        out.push((r * 8 + f) as usize);
    }
}

/// Forces the tables to be built now (otherwise on first use).
pub fn init() {
    LazyLock::force(&TABLES);
}

/// Knight attacks from `sq`.
#[inline(always)]
pub fn knight(sq: u8) -> u64 {
    TABLES.knight[sq as usize]
}

/// King attacks from `sq`.
#[inline(always)]
pub fn king(sq: u8) -> u64 {
    TABLES.king[sq as usize]
}

/// Squares a pawn of `color` on `sq` attacks (captures diagonally forward).
#[inline(always)]
pub fn pawn(color: Color, sq: u8) -> u64 {
    TABLES.pawn[color.index()][sq as usize]
}

/// Rook attacks from `sq` with blockers `occ` (first blocker on each ray included).
#[inline(always)]
pub fn rook(sq: u8, occ: u64) -> u64 {
    let t = &*TABLES;
    let m = &t.rook[sq as usize];
    t.slider[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Bishop attacks from `sq` with blockers `occ`.
#[inline(always)]
pub fn bishop(sq: u8, occ: u64) -> u64 {
    let t = &*TABLES;
    let m = &t.bishop[sq as usize];
    t.slider[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Queen attacks from `sq` with blockers `occ`.
#[inline(always)]
pub fn queen(sq: u8, occ: u64) -> u64 {
    rook(sq, occ) | bishop(sq, occ)
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
#[inline(always)]
pub fn between(a: u8, b: u8) -> u64 {
    TABLES.between[a as usize][b as usize]
}

/// The full line (edge to edge) through `a` and `b` when they are aligned; else empty.
#[inline(always)]
pub fn line(a: u8, b: u8) -> u64 {
    TABLES.line[a as usize][b as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_ray_walks() {
        let mut rng = SplitMix64::new(1);
        for _ in 0..2000 {
            let occ = rng.next_u64() & rng.next_u64();
            let sq = rng.below(64) as u8;
            assert_eq!(rook(sq, occ), slow_slider(sq as usize, occ, &ORTHOGONAL));
            assert_eq!(bishop(sq, occ), slow_slider(sq as usize, occ, &DIAGONAL));
        }
    }

    #[test]
    fn between_and_line() {
        // a1 (0) .. h8 (63): between holds b2..g7.
        assert_eq!(between(0, 63).count_ones(), 6);
        assert_eq!(between(0, 10), 0); // a1, c2: not aligned
        assert_eq!(line(0, 9).count_ones(), 8);
        assert_eq!(between(0, 1), 0);
        assert_eq!(pawn(Color::White, 8), 1 << 17);
    }
}
