//! Attack tables built per geometry, for the three basic kinds of fairy movement (Betza terms):
//! - **leaper**: jumps to fixed offsets (`N` knight = (1,2), `F` ferz = (1,1), `D` dabbaba = (2,0), ...);
//! - **rider**: repeats one step along a line until blocked (`R`, `B`, nightrider `NN`);
//! - **hopper**: moves along a line over exactly one piece (the screen), e.g. a cannon capture.
//!
//! Tables are plain arrays indexed by cell, built once when a variant builds its tables. Rider
//! and hopper queries walk precomputed rays, which works for any geometry and bitboard width;
//! a variant that needs more speed layers its own tables (e.g. magic bitboards) on top.

use super::bitboard::Bitboard;
use super::geometry::{Geometry, Square};

/// The 8 symmetric images of an offset (df, dr), duplicates removed: a Betza atom's full set.
pub fn symmetric_offsets(df: i32, dr: i32) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> = Vec::with_capacity(8);
    for (a, b) in [(df, dr), (dr, df)] {
        for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let o = (a * sa, b * sb);
            if !out.contains(&o) {
                out.push(o);
            }
        }
    }
    out
}

/// Offsets of the orthogonal steps (Betza `W`), the directions of a rook.
pub const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Offsets of the diagonal steps (Betza `F`), the directions of a bishop.
pub const DIAGONAL: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
/// Offsets of the knight leap (Betza `N`).
pub const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// Offsets of the king step (Betza `K` = `WF`).
pub const KING: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// For each cell, the set of squares reached by one leap among `offsets`.
#[derive(Clone, Debug)]
pub struct LeaperTable<B: Bitboard> {
    targets: Vec<B>,
}

impl<B: Bitboard> LeaperTable<B> {
    /// Builds the table for `geometry` and the given (file, row) offsets. Cells that are not
    /// squares get an empty set.
    pub fn new(geometry: &Geometry, offsets: &[(i32, i32)]) -> Self {
        let targets = (0..geometry.num_cells())
            .map(|c| {
                let mut b = B::EMPTY;
                if geometry.is_square(c as Square) {
                    for &(df, dr) in offsets {
                        if let Some(t) = geometry.offset(c as Square, df, dr) {
                            b |= B::bit(t as usize);
                        }
                    }
                }
                b
            })
            .collect();
        LeaperTable { targets }
    }

    /// The squares a leaper on `sq` attacks.
    #[inline(always)]
    pub fn attacks(&self, sq: Square) -> B {
        self.targets[sq as usize]
    }
}

/// Precomputed rays: for each direction and cell, the squares along the line in order, so
/// riders and hoppers can walk them with the occupancy. A ray stops at the edge or at a cell
/// that is not a square.
#[derive(Clone, Debug)]
pub struct RayTable<B: Bitboard> {
    dirs: Vec<(i32, i32)>,
    /// rays[dir * cells + sq] = squares in order, nearest first.
    rays: Vec<Vec<Square>>,
    /// masks[dir * cells + sq] = the same squares as a set.
    masks: Vec<B>,
    /// Whether the cell index grows along direction `dir` (cell = row * files + file), so the
    /// nearest square of a set on a ray is its lowest bit (else its highest).
    ascending: Vec<bool>,
    cells: usize,
}

impl<B: Bitboard> RayTable<B> {
    /// Builds rays for every direction in `dirs` (a step repeated: (1,0) rook, (1,2) nightrider).
    pub fn new(geometry: &Geometry, dirs: &[(i32, i32)]) -> Self {
        let cells = geometry.num_cells();
        let mut rays = Vec::with_capacity(dirs.len() * cells);
        let mut masks = Vec::with_capacity(dirs.len() * cells);
        for &(df, dr) in dirs {
            for c in 0..cells {
                let mut ray = Vec::new();
                let mut m = B::EMPTY;
                if geometry.is_square(c as Square) {
                    let mut cur = c as Square;
                    while let Some(next) = geometry.offset(cur, df, dr) {
                        ray.push(next);
                        m |= B::bit(next as usize);
                        cur = next;
                    }
                }
                rays.push(ray);
                masks.push(m);
            }
        }
        let files = geometry.files as i32;
        RayTable {
            dirs: dirs.to_vec(),
            rays,
            masks,
            ascending: dirs.iter().map(|&(df, dr)| dr * files + df > 0).collect(),
            cells,
        }
    }

    /// The directions of this table, in the order they were given.
    pub fn dirs(&self) -> &[(i32, i32)] {
        &self.dirs
    }

    /// The ray from `sq` in direction number `dir`, nearest square first.
    #[inline(always)]
    pub fn ray(&self, dir: usize, sq: Square) -> &[Square] {
        &self.rays[dir * self.cells + sq as usize]
    }

    /// The squares of the ray from `sq` in direction `dir` as a set (empty board).
    #[inline(always)]
    pub fn ray_mask(&self, dir: usize, sq: Square) -> B {
        self.masks[dir * self.cells + sq as usize]
    }

    /// The square of `set` (a subset of a ray in direction `dir`) nearest to the ray's start.
    #[inline(always)]
    fn nearest(&self, dir: usize, set: B) -> usize {
        if self.ascending[dir] {
            set.lsb()
        } else {
            set.msb()
        }
    }

    /// Rider attacks from `sq` over all directions: every square up to and including the first
    /// occupied one on each ray (one mask and one bit scan per direction).
    #[inline]
    pub fn rider_attacks(&self, sq: Square, occupied: B) -> B {
        let mut out = B::EMPTY;
        for d in 0..self.dirs.len() {
            let ray = self.ray_mask(d, sq);
            let blockers = ray & occupied;
            out |= if blockers.is_empty() {
                ray
            } else {
                let first = self.nearest(d, blockers);
                ray & !self.ray_mask(d, first as Square)
            };
        }
        out
    }

    /// Hopper (cannon-style) targets from `sq`: on each ray, the squares beyond the first
    /// occupied square (the screen) up to and including the next occupied one.
    #[inline]
    pub fn hopper_attacks(&self, sq: Square, occupied: B) -> B {
        let mut out = B::EMPTY;
        for d in 0..self.dirs.len() {
            let blockers = self.ray_mask(d, sq) & occupied;
            if blockers.is_empty() {
                continue;
            }
            let screen = self.nearest(d, blockers) as Square;
            let beyond = self.ray_mask(d, screen);
            let hits = beyond & occupied;
            out |= if hits.is_empty() {
                beyond
            } else {
                let target = self.nearest(d, hits);
                beyond & !self.ray_mask(d, target as Square)
            };
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::BOARD_8X8;

    /// 6 x 7.
    const BOARD_6X7: Geometry = Geometry::rectangle(6, 7, 0);
    /// 9 x 11 with only three cells on the lowest and highest rows (u128 bitboards, holes).
    const HOLED: Geometry = {
        let mut cells: u128 = 0;
        let mut row = 0;
        while row < 11 {
            let mut f = 0;
            while f < 9 {
                if (row != 0 && row != 10) || (f >= 3 && f <= 5) {
                    cells |= 1u128 << (row * 9 + f);
                }
                f += 1;
            }
            row += 1;
        }
        Geometry {
            files: 9,
            ranks: 11,
            first_rank: 0,
            cells,
            light_parity: 1,
        }
    };

    #[test]
    fn knight_counts_on_8x8() {
        let t = LeaperTable::<u64>::new(&BOARD_8X8, &KNIGHT);
        assert_eq!(t.attacks(0).count(), 2);
        assert_eq!(t.attacks(27).count(), 8);
        let total: u32 = (0..64).map(|s| t.attacks(s).count()).sum();
        assert_eq!(total, 336);
    }

    #[test]
    fn symmetric_offsets_of_atoms() {
        assert_eq!(symmetric_offsets(1, 2).len(), 8);
        assert_eq!(symmetric_offsets(1, 1).len(), 4);
        assert_eq!(symmetric_offsets(2, 0).len(), 4);
    }

    #[test]
    fn rook_rays_on_6x7_and_a_holed_board() {
        let g = BOARD_6X7;
        let r = RayTable::<u64>::new(&g, &ORTHOGONAL);
        let a1 = g.parse_square("a1").unwrap();
        assert_eq!(r.rider_attacks(a1, 0).count(), 5 + 6);
        // A rook on e0 sees e1..e10 and d0, f0.
        let m = HOLED;
        let rm = RayTable::<u128>::new(&m, &ORTHOGONAL);
        let e0 = m.parse_square("e0").unwrap();
        assert_eq!(rm.rider_attacks(e0, 0).count(), 10 + 2);
        let d0 = m.parse_square("d0").unwrap();
        assert!(rm.rider_attacks(e0, 0).has(d0 as usize));
        // Rays stop at cells that are not squares: nothing west of d0.
        assert_eq!(rm.rider_attacks(d0, 0).count(), 10 + 2);
    }

    #[test]
    fn hopper_needs_a_screen() {
        let g = BOARD_8X8;
        let r = RayTable::<u64>::new(&g, &ORTHOGONAL);
        let a1 = g.parse_square("a1").unwrap() as usize;
        let a3 = g.parse_square("a3").unwrap() as usize;
        let a6 = g.parse_square("a6").unwrap() as usize;
        let occ = u64::bit(a3) | u64::bit(a6);
        let h = r.hopper_attacks(a1 as Square, occ);
        assert!(h.has(a6) && h.has(a6 - 8) && !h.has(a3) && !h.has(a6 + 8));
    }

    /// The rider and hopper attacks by masks and bit scans equal a square-by-square walk of
    /// the rays, on every geometry, for leaper directions of several lengths.
    fn walk_agrees<B: Bitboard>(g: &Geometry, seed: u64) {
        use crate::core::zobrist::SplitMix64;
        let dirs: Vec<(i32, i32)> = [(1, 0), (0, 1), (1, 1), (1, 2), (2, 1), (2, 0)]
            .iter()
            .flat_map(|&(a, b)| symmetric_offsets(a, b))
            .collect();
        let t = RayTable::<B>::new(g, &dirs);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..300 {
            let mut occ = B::EMPTY;
            for c in 0..g.num_cells() {
                if g.is_square(c as Square) && rng.below(3) == 0 {
                    occ |= B::bit(c);
                }
            }
            for sq in (0..g.num_cells()).filter(|&c| g.is_square(c as Square)) {
                let (mut rider, mut hopper) = (B::EMPTY, B::EMPTY);
                for d in 0..dirs.len() {
                    let mut screened = false;
                    for &x in t.ray(d, sq as Square) {
                        let hit = occ.has(x as usize);
                        if screened {
                            hopper |= B::bit(x as usize);
                            if hit {
                                break;
                            }
                        } else {
                            rider |= B::bit(x as usize);
                            if hit {
                                screened = true;
                            }
                        }
                    }
                }
                // The walk above collects the rider's squares up to the screen, then the
                // hopper's beyond it.
                assert!(
                    t.rider_attacks(sq as Square, occ) == rider,
                    "rider from {sq}"
                );
                assert!(
                    t.hopper_attacks(sq as Square, occ) == hopper,
                    "hopper from {sq}"
                );
            }
        }
    }

    #[test]
    fn ray_scans_equal_walks() {
        walk_agrees::<u64>(&BOARD_8X8, 1);
        walk_agrees::<u64>(&BOARD_6X7, 2);
        walk_agrees::<u128>(&HOLED, 3);
    }
}
