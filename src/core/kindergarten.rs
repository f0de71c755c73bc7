//! Kindergarten bitboards: rook and bishop attacks on the 8x8 board (a1 = bit 0, h8 = bit 63)
//! from about 10 KiB of tables, against the 840 KiB of fancy magic bitboards. Each line's
//! occupancy is gathered into six bits by one multiplication and looked up in a table of the
//! first rank's attacks; the answer is the magics' (every square up to and including the
//! first occupied one on each ray). A caller that asks for many slider attacks at scattered
//! squares and occupancies keeps these tables in the first-level cache, where the magics'
//! miss it (docs/experiments.md, "Speed").

use std::sync::LazyLock;

/// The A-file.
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The B-file: gathers the six inner bits of a line spread one per rank into the top six.
const FILE_B: u64 = 0x0202_0202_0202_0202;
/// The c2-h7 diagonal: gathers the A-file's six inner bits into the top six.
const DIAG_C2_H7: u64 = 0x0080_4020_1008_0400;

struct Tables {
    /// `fill_up[file][inner]`: the first rank's attacks from `file` with the six inner
    /// squares occupied as `inner` says, copied onto every rank.
    fill_up: [[u64; 64]; 8],
    /// `a_file[rank][inner]`: the A-file's attacks from `rank` with its six inner squares
    /// occupied as `inner` says.
    a_file: [[u64; 64]; 8],
    /// Per square: its rank, diagonal and anti-diagonal without the square itself.
    rank: [u64; 64],
    diag: [u64; 64],
    anti: [u64; 64],
}

/// The first rank's attacks from `file` when the squares of `occ` (bits 0..8) are occupied.
fn first_rank(file: u32, occ: u32) -> u64 {
    let mut a = 0u64;
    for dir in [-1i32, 1] {
        let mut f = file as i32 + dir;
        while (0..8).contains(&f) {
            a |= 1 << f;
            if occ & (1 << f) != 0 {
                break;
            }
            f += dir;
        }
    }
    a
}

fn build() -> Tables {
    let mut t = Tables {
        fill_up: [[0; 64]; 8],
        a_file: [[0; 64]; 8],
        rank: [0; 64],
        diag: [0; 64],
        anti: [0; 64],
    };
    for at in 0..8u32 {
        for inner in 0..64u32 {
            // `at` as a file of the first rank.
            t.fill_up[at as usize][inner as usize] = first_rank(at, inner << 1) * FILE_A;
            // `at` as a rank of the A-file, rank for file. The c2-h7 gathering puts rank
            // 6 - i in bit i of `inner`; bit r of the line's attacks goes to square 8 * r.
            let occ = (0..6).fold(0, |o, i| o | ((inner >> i) & 1) << (6 - i));
            let line = first_rank(at, occ);
            t.a_file[at as usize][inner as usize] = (0..8)
                .filter(|r| line & (1 << r) != 0)
                .fold(0, |a, r| a | 1 << (8 * r));
        }
    }
    for sq in 0..64i32 {
        let (r, f) = (sq / 8, sq % 8);
        for s in 0..64i32 {
            if s == sq {
                continue;
            }
            let (rs, fs) = (s / 8, s % 8);
            if rs == r {
                t.rank[sq as usize] |= 1 << s;
            }
            if rs - r == fs - f {
                t.diag[sq as usize] |= 1 << s;
            }
            if rs - r == f - fs {
                t.anti[sq as usize] |= 1 << s;
            }
        }
    }
    t
}

static TABLES: LazyLock<Tables> = LazyLock::new(build);

/// Attacks along `line` (a rank, diagonal or anti-diagonal through `sq`, without it).
#[inline(always)]
fn along(t: &Tables, line: u64, sq: u8, occ: u64) -> u64 {
    let inner = ((line & occ).wrapping_mul(FILE_B) >> 58) as usize;
    line & t.fill_up[(sq & 7) as usize][inner]
}

/// Attacks along the file of `sq`.
#[inline(always)]
fn file(t: &Tables, sq: u8, occ: u64) -> u64 {
    let f = sq & 7;
    let inner = (((occ >> f) & FILE_A).wrapping_mul(DIAG_C2_H7) >> 58) as usize;
    t.a_file[(sq >> 3) as usize][inner] << f
}

/// Rook attacks from `sq` (0..64) over occupancy `occ`: on each orthogonal, every square up
/// to and including the first occupied one.
#[inline(always)]
pub fn rook(sq: u8, occ: u64) -> u64 {
    let t = &*TABLES;
    along(t, t.rank[sq as usize], sq, occ) | file(t, sq, occ)
}

/// Bishop attacks from `sq` (0..64) over occupancy `occ`, as [`rook`].
#[inline(always)]
pub fn bishop(sq: u8, occ: u64) -> u64 {
    let t = &*TABLES;
    along(t, t.diag[sq as usize], sq, occ) | along(t, t.anti[sq as usize], sq, occ)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::zobrist::SplitMix64;

    /// Ray-walk reference: every square up to and including the first occupied one.
    fn walk(sq: u8, occ: u64, dirs: &[(i32, i32)]) -> u64 {
        let mut a = 0;
        for &(dr, df) in dirs {
            let (mut r, mut f) = (sq as i32 / 8 + dr, sq as i32 % 8 + df);
            while (0..8).contains(&r) && (0..8).contains(&f) {
                a |= 1u64 << (8 * r + f);
                if occ & (1u64 << (8 * r + f)) != 0 {
                    break;
                }
                r += dr;
                f += df;
            }
        }
        a
    }

    /// Both agree with a ray walk on every square, over random occupancies of every density
    /// (the square itself occupied or not) and the empty and full boards.
    #[test]
    fn the_attacks_are_the_ray_walks() {
        let orth = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut rng = SplitMix64::new(0x4b49_4e44);
        for sq in 0..64u8 {
            let mut occs = vec![0, !0];
            for density in 0..6 {
                for _ in 0..200 {
                    let mut o = rng.next_u64();
                    for _ in 0..density {
                        o &= rng.next_u64();
                    }
                    occs.push(o);
                }
            }
            for occ in occs {
                assert_eq!(rook(sq, occ), walk(sq, occ, &orth), "rook {sq} {occ:#x}");
                assert_eq!(
                    bishop(sq, occ),
                    walk(sq, occ, &diag),
                    "bishop {sq} {occ:#x}"
                );
            }
        }
    }
}
