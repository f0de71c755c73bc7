//! Attack tables of Mutatis Mutandis, built once: the core's leaper and ray tables for the
//! plain leapers, riders and hoppers, and path tables for the crooked and circular pieces
//! (fixed sequences of landing squares where only landings matter: crooked rook/bishop, Rose,
//! the five crooked nightriders, the Cylindrical Bishop).

use std::sync::OnceLock;

use crate::core::attacks::{LeaperTable, RayTable, DIAGONAL, KING, ORTHOGONAL};
use crate::core::geometry::BOARD_8X8;
use crate::core::Square;

use super::board::{at, file_of, rank_of, Bb};

/// The knight vectors in counter-clockwise order V0..V7 (rules 6.1 `N11`).
pub const KNIGHT_CCW: [(i32, i32); 8] = [
    (2, 1),
    (1, 2),
    (-1, 2),
    (-2, 1),
    (-2, -1),
    (-1, -2),
    (1, -2),
    (2, -1),
];

/// For each square, a list of paths: each path a sequence of landing squares, nearest first.
#[derive(Clone, Debug)]
pub struct PathTable {
    squares: Vec<Square>,
    /// Path p is `squares[bounds[p].0 .. bounds[p].1]`.
    bounds: Vec<(u32, u32)>,
    /// The paths of square s are `bounds[by_square[s].0 .. by_square[s].1]`.
    by_square: [(u32, u32); 64],
}

impl PathTable {
    /// Builds the table from a function giving the paths of a square.
    fn build(paths_of: impl Fn(Square) -> Vec<Vec<Square>>) -> PathTable {
        let mut t = PathTable {
            squares: Vec::new(),
            bounds: Vec::new(),
            by_square: [(0, 0); 64],
        };
        for sq in 0..64u8 {
            let first = t.bounds.len() as u32;
            for p in paths_of(sq) {
                if p.is_empty() {
                    continue;
                }
                let s = t.squares.len() as u32;
                t.squares.extend_from_slice(&p);
                t.bounds.push((s, t.squares.len() as u32));
            }
            t.by_square[sq as usize] = (first, t.bounds.len() as u32);
        }
        t
    }

    /// The paths from `sq`.
    #[inline(always)]
    pub fn paths(&self, sq: Square) -> impl Iterator<Item = &[Square]> + '_ {
        let (a, b) = self.by_square[sq as usize];
        self.bounds[a as usize..b as usize]
            .iter()
            .map(move |&(s, e)| &self.squares[s as usize..e as usize])
    }

    /// Landing squares reachable by a path rider (rules 6.1): along each path, every empty
    /// landing, and the first occupied one. Returns (empty landings, first occupied landings).
    #[inline]
    pub fn ride(&self, sq: Square, occ: Bb) -> (Bb, Bb) {
        let (mut quiet, mut hit) = (0, 0);
        for p in self.paths(sq) {
            for &t in p {
                if occ >> t & 1 != 0 {
                    hit |= 1u64 << t;
                    break;
                }
                quiet |= 1u64 << t;
            }
        }
        (quiet, hit)
    }
}

/// Alternating two vectors v1, v2, v1, ... from `sq` until the board edge (or the origin).
fn zigzag(sq: Square, v1: (i32, i32), v2: (i32, i32)) -> Vec<Square> {
    let (mut f, mut r) = (file_of(sq), rank_of(sq));
    let mut out = Vec::new();
    for k in 0u32.. {
        let v = if k.is_multiple_of(2) { v1 } else { v2 };
        f += v.0;
        r += v.1;
        match at(f, r) {
            Some(t) if t != sq => out.push(t),
            _ => break,
        }
    }
    out
}

fn perpendicular(v: (i32, i32), w: (i32, i32)) -> bool {
    v.0 * w.0 + v.1 * w.1 == 0
}

/// Which partner vectors a crooked nightrider alternates with after V_i (rules 6.1 `N11`).
fn crooked_partners(code: &str, i: usize) -> Vec<usize> {
    let even = i.is_multiple_of(2);
    let m = |k: i32| ((i as i32 + k).rem_euclid(8)) as usize;
    match code {
        "N11" => vec![if even { m(-3) } else { m(3) }],
        "N02" => vec![if even { m(3) } else { m(-3) }],
        "N31" => vec![m(2), m(-2)],
        "N33" => vec![if even { m(1) } else { m(-1) }],
        "N04" => vec![if even { m(-1) } else { m(1) }],
        _ => unreachable!("not a crooked nightrider code"),
    }
}

/// All tables of the variant.
#[derive(Debug)]
pub struct Tables {
    /// King step (`K` = `WF`).
    pub king: LeaperTable<u64>,
    /// Knight leap (`N`).
    pub knight: LeaperTable<u64>,
    /// Wazir step (`W`).
    pub wazir: LeaperTable<u64>,
    /// Ferz step (`F`).
    pub ferz: LeaperTable<u64>,
    /// Rook rays (also the Paovao's cannon hops).
    pub orth: RayTable<u64>,
    /// Bishop rays (also the Paovao's vao hops).
    pub diag: RayTable<u64>,
    /// Queen rays, direction d and d+4 opposite: the Rococo pieces walk these.
    pub queen: RayTable<u64>,
    /// Nightrider rays.
    pub nightrider: RayTable<u64>,
    /// Crooked Rook zigzags (8 per square).
    pub crooked_rook: PathTable,
    /// Crooked Bishop zigzags (8 per square).
    pub crooked_bishop: PathTable,
    /// Rose circles (16 per square, up to 7 leaps, never back to the origin [D 9]).
    pub rose: PathTable,
    /// Crooked nightriders, indexed NN11, NN02, NN31, NN33, NN04.
    pub crooked_nn: [PathTable; 5],
    /// Cylindrical Bishop diagonals with file wrap (4 per square).
    pub cylinder: PathTable,
    /// Sissa routes (rules 6.1 `SS`): per square, (passed squares that must be empty, final
    /// square) for every n and pair of leg directions that stays on the board.
    pub sissa: RouteTable,
}

/// For each square, routes given as (squares that must be empty, landing square).
#[derive(Clone, Debug)]
pub struct RouteTable {
    routes: Vec<(Bb, Square)>,
    by_square: [(u32, u32); 64],
}

impl RouteTable {
    /// The routes from `sq`.
    #[inline(always)]
    pub fn routes(&self, sq: Square) -> &[(Bb, Square)] {
        let (a, b) = self.by_square[sq as usize];
        &self.routes[a as usize..b as usize]
    }
}

/// Sissa routes: n steps along one of 8 directions, then n along one of the 4 directions of
/// the other kind; the first 2n-1 squares must be empty.
fn sissa_routes() -> RouteTable {
    let mut t = RouteTable {
        routes: Vec::new(),
        by_square: [(0, 0); 64],
    };
    for sq in 0..64u8 {
        let first = t.routes.len() as u32;
        for (a, b) in [(&ORTHOGONAL, &DIAGONAL), (&DIAGONAL, &ORTHOGONAL)] {
            for &(df, dr) in a.iter() {
                for &(ef, er) in b.iter() {
                    for n in 1..8 {
                        let (f0, r0) = (file_of(sq), rank_of(sq));
                        let mut mask: Bb = 0;
                        let mut ok = true;
                        for k in 1..=n {
                            match at(f0 + df * k, r0 + dr * k) {
                                Some(s) => mask |= 1u64 << s,
                                None => ok = false,
                            }
                        }
                        let (cf, cr) = (f0 + df * n, r0 + dr * n);
                        for k in 1..n {
                            match at(cf + ef * k, cr + er * k) {
                                Some(s) => mask |= 1u64 << s,
                                None => ok = false,
                            }
                        }
                        match at(cf + ef * n, cr + er * n) {
                            Some(land) if ok => t.routes.push((mask, land)),
                            _ => {}
                        }
                    }
                }
            }
        }
        t.by_square[sq as usize] = (first, t.routes.len() as u32);
    }
    t
}

/// The queen directions in the order of [`Tables::queen`]: `QUEEN_DIRS[d + 4] = -QUEEN_DIRS[d]`.
pub const QUEEN_DIRS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

impl Tables {
    fn new() -> Tables {
        let g = &BOARD_8X8;
        let knight: Vec<(i32, i32)> = KNIGHT_CCW.to_vec();
        let crooked = |dirs: &[(i32, i32)]| {
            let dirs = dirs.to_vec();
            PathTable::build(move |sq| {
                let mut v = Vec::new();
                for &a in &dirs {
                    for &b in &dirs {
                        if perpendicular(a, b) {
                            v.push(zigzag(sq, a, b));
                        }
                    }
                }
                v
            })
        };
        let rose = PathTable::build(|sq| {
            let mut v = Vec::new();
            for i in 0..8i32 {
                for sense in [1i32, -1] {
                    let (mut f, mut r) = (file_of(sq), rank_of(sq));
                    let mut path = Vec::new();
                    for k in 0..7 {
                        let (df, dr) = KNIGHT_CCW[(i + sense * k).rem_euclid(8) as usize];
                        f += df;
                        r += dr;
                        match at(f, r) {
                            Some(t) if t != sq => path.push(t),
                            _ => break,
                        }
                    }
                    v.push(path);
                }
            }
            v
        });
        let crooked_nn = ["N11", "N02", "N31", "N33", "N04"].map(|code| {
            PathTable::build(move |sq| {
                let mut v = Vec::new();
                for (i, &vi) in KNIGHT_CCW.iter().enumerate() {
                    for j in crooked_partners(code, i) {
                        v.push(zigzag(sq, vi, KNIGHT_CCW[j]));
                    }
                }
                v
            })
        });
        let cylinder = PathTable::build(|sq| {
            DIAGONAL
                .iter()
                .map(|&(df, dr)| {
                    let mut path = Vec::new();
                    for k in 1..8 {
                        let f = (file_of(sq) + k * df).rem_euclid(8);
                        match at(f, rank_of(sq) + k * dr) {
                            Some(t) if t != sq => path.push(t),
                            _ => break,
                        }
                    }
                    path
                })
                .collect()
        });
        Tables {
            king: LeaperTable::new(g, &KING),
            knight: LeaperTable::new(g, &knight),
            wazir: LeaperTable::new(g, &ORTHOGONAL),
            ferz: LeaperTable::new(g, &DIAGONAL),
            orth: RayTable::new(g, &ORTHOGONAL),
            diag: RayTable::new(g, &DIAGONAL),
            queen: RayTable::new(g, &QUEEN_DIRS),
            nightrider: RayTable::new(g, &knight),
            crooked_rook: crooked(&ORTHOGONAL),
            crooked_bishop: crooked(&DIAGONAL),
            rose,
            crooked_nn,
            cylinder,
            sissa: sissa_routes(),
        }
    }
}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The variant's tables (built on first use).
#[inline(always)]
pub fn tables() -> &'static Tables {
    TABLES.get_or_init(Tables::new)
}
