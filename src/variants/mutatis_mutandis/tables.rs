//! Attack tables of Mutatis Mutandis, built once: the core's leaper and ray tables for the
//! plain leapers, riders and hoppers, and path tables for the crooked and circular pieces
//! (fixed sequences of landing squares where only landings matter: crooked rook/bishop, Rose,
//! the five crooked nightriders, the Cylindrical Bishop).

use std::sync::OnceLock;

use crate::core::attacks::{LeaperTable, RayTable, DIAGONAL, KING, ORTHOGONAL};
use crate::core::geometry::BOARD_8X8;
use crate::core::kindergarten;
use crate::core::Square;

use super::board::{at, file_of, iter, rank_of, step, Bb};

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
    /// The rider lines joining two squares, for the attack test (rules 5).
    pub lines: Lines,
    /// The routes of the bent and path riders from one square to another, for the same test.
    pub routes: TargetRoutes,
    /// The leap sets of the plain states, indexed by [`LeapSet`] then square.
    pub leaps: [[u64; 64]; LeapSet::COUNT],
    /// Per square, the squares two steps away along the eight queen lines (the Cannon Pawn's
    /// reach, rules 6.2 `CP`; where an Archer's spotter may stand, `AC`).
    pub two_away: [u64; 64],
}

/// The leap set of a plain state's reach ([`Tables::leaps`]): its leaper component, or
/// none.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum LeapSet {
    /// No leap (a pure rider).
    None,
    /// King steps (`K`).
    King,
    /// Knight leaps (`N`).
    Knight,
    /// Ferz steps (`F`).
    Ferz,
    /// Wazir steps (`W`).
    Wazir,
    /// Knight and King (`NK`).
    KnightKing,
    /// Knight and Wazir (`NW`).
    KnightWazir,
    /// Knight and Ferz (`NF`).
    KnightFerz,
}

impl LeapSet {
    /// Number of leap sets.
    pub const COUNT: usize = 8;
}

/// Declares [`RouteFamily`] and the list of its values (once, in one order).
macro_rules! route_families {
    ($( #[doc = $doc:literal] $v:ident, )*) => {
        /// The bent and path riders whose reach is a set of fixed routes (rules 6.1): a route
        /// lands on one square and needs a fixed set of squares empty on the way.
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum RouteFamily {
            $( #[doc = $doc] $v, )*
        }

        impl RouteFamily {
            /// Every family, in declaration order (`family as usize` is its place).
            const ALL: &'static [RouteFamily] = &[ $( RouteFamily::$v, )* ];
        }
    };
}

route_families! {
    /// Sissa (`SS`, and the Squeen's Sissa part).
    Sissa,
    /// Rose (`RO`).
    Rose,
    /// Crooked Rook (`CR`, and half of the Octopus).
    CrookedRook,
    /// Crooked Bishop (`CB`, and half of the Octopus).
    CrookedBishop,
    /// The crooked nightrider `N11`.
    Nn11,
    /// `N02`.
    Nn02,
    /// `N31`.
    Nn31,
    /// `N33`.
    Nn33,
    /// `N04`.
    Nn04,
    /// Cylindrical Bishop (`CY`).
    Cylinder,
    /// Gryphon (`GR`).
    Gryphon,
    /// Aanca (`AA`).
    Aanca,
    /// The spotted gryphon of the Dragon (`DR`).
    SpottedGryphon,
    /// Dancing Horse (`DA`).
    DancingHorse,
}

/// Number of [`RouteFamily`] values.
const ROUTE_FAMILIES: usize = RouteFamily::ALL.len();

/// For each [`RouteFamily`] and pair of squares, the routes from the first to the second:
/// each route the set of squares that must be empty on the way (the landing square itself is
/// not in it). A rider of the family on `from` reaches an occupied `to` when one of them is
/// empty, so "does it capture there" costs a lookup and a few masks, not a whole reach.
#[derive(Clone, Debug)]
pub struct TargetRoutes {
    masks: Vec<Bb>,
    /// `index[(family * 64 + from) * 64 + to]`: the range of `masks` holding those routes.
    index: Vec<(u32, u32)>,
}

impl TargetRoutes {
    fn new(t: &Tables) -> TargetRoutes {
        let mut out = TargetRoutes {
            masks: Vec::new(),
            index: vec![(0, 0); ROUTE_FAMILIES * 64 * 64],
        };
        for &family in RouteFamily::ALL {
            for from in 0..64u8 {
                let mut by_target: Vec<Vec<Bb>> = vec![Vec::new(); 64];
                for (mask, land) in family_routes(t, family, from) {
                    if !by_target[land as usize].contains(&mask) {
                        by_target[land as usize].push(mask);
                    }
                }
                for (to, masks) in by_target.into_iter().enumerate() {
                    let start = out.masks.len() as u32;
                    out.masks.extend(masks);
                    out.index[(family as usize * 64 + from as usize) * 64 + to] =
                        (start, out.masks.len() as u32);
                }
            }
        }
        out
    }

    /// Whether a rider of `family` on `from` reaches `to` over occupancy `occ` (`to` itself
    /// may be occupied: then it could capture there).
    #[inline(always)]
    pub fn reaches(&self, family: RouteFamily, from: Square, to: Square, occ: Bb) -> bool {
        self.witness(family, from, to, occ).is_some()
    }

    /// [`TargetRoutes::reaches`] with the route that reaches: its squares, all empty.
    #[inline(always)]
    pub fn witness(&self, family: RouteFamily, from: Square, to: Square, occ: Bb) -> Option<Bb> {
        let (a, b) = self.index[(family as usize * 64 + from as usize) * 64 + to as usize];
        self.masks[a as usize..b as usize]
            .iter()
            .copied()
            .find(|&m| m & occ == 0)
    }
}

/// Every route of `family` from `from`, as (squares that must be empty, landing square): the
/// same movement as the generators of `leapers` and `bent` (rules 6.1).
fn family_routes(t: &Tables, family: RouteFamily, from: Square) -> Vec<(Bb, Square)> {
    use RouteFamily::*;
    let along = |paths: &PathTable| {
        let mut v = Vec::new();
        for p in paths.paths(from) {
            let mut mask: Bb = 0;
            for &s in p {
                v.push((mask, s));
                mask |= 1u64 << s;
            }
        }
        v
    };
    let bent = |firsts: &[(i32, i32); 4], len: i32| {
        let mut v = Vec::new();
        for &(dx, dy) in firsts {
            let Some(x) = step(from, dx, dy) else {
                continue;
            };
            v.push((0, x));
            for (ox, oy) in super::bent::outward(dx, dy) {
                let (mut cur, mut mask) = (x, 1u64 << x);
                while let Some(s) = step(cur, ox * len, oy * len) {
                    v.push((mask, s));
                    mask |= 1u64 << s;
                    cur = s;
                }
            }
        }
        v
    };
    const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
    match family {
        Sissa => t.sissa.routes(from).to_vec(),
        Rose => along(&t.rose),
        CrookedRook => along(&t.crooked_rook),
        CrookedBishop => along(&t.crooked_bishop),
        Nn11 => along(&t.crooked_nn[0]),
        Nn02 => along(&t.crooked_nn[1]),
        Nn31 => along(&t.crooked_nn[2]),
        Nn33 => along(&t.crooked_nn[3]),
        Nn04 => along(&t.crooked_nn[4]),
        Cylinder => along(&t.cylinder),
        Gryphon => bent(&DIAG, 1),
        Aanca => bent(&ORTH, 1),
        SpottedGryphon => bent(&DIAG, 2),
        DancingHorse => {
            let mut v = Vec::new();
            for m in iter(t.knight.attacks(from)) {
                v.push((0, m));
                for s in iter(t.knight.attacks(m) & !(1u64 << from)) {
                    v.push((1u64 << m, s));
                }
            }
            v
        }
    }
}

/// Rider lines between two squares: whether `from` and `to` lie on one orthogonal, diagonal
/// or nightrider line, and the squares strictly between them, which must be empty for a rider
/// of that line to reach `to` (rules 6.1 `R`, `B`, `NR`). Answers "does this rider capture
/// there" in one lookup instead of a whole attack set.
#[derive(Clone, Debug)]
pub struct Lines {
    /// `kind[from][to]`: [`Lines::ORTH`], [`Lines::DIAG`], [`Lines::NIGHT`] or 0.
    kind: Box<[[u8; 64]; 64]>,
    /// `between[from][to]`: the squares strictly between them on their line (0 when none).
    between: Box<[[Bb; 64]; 64]>,
}

impl Lines {
    /// `from` and `to` share a rank or file.
    pub const ORTH: u8 = 1;
    /// `from` and `to` share a diagonal.
    pub const DIAG: u8 = 2;
    /// `to` is a whole number of one knight leap away from `from`.
    pub const NIGHT: u8 = 4;

    fn new() -> Lines {
        let mut kind = Box::new([[0u8; 64]; 64]);
        let mut between = Box::new([[0 as Bb; 64]; 64]);
        let families: [(&[(i32, i32)], u8); 3] = [
            (&ORTHOGONAL, Lines::ORTH),
            (&DIAGONAL, Lines::DIAG),
            (&KNIGHT_CCW, Lines::NIGHT),
        ];
        for from in 0..64u8 {
            for (dirs, k) in families {
                for &(df, dr) in dirs {
                    let (mut f, mut r) = (file_of(from), rank_of(from));
                    let mut passed: Bb = 0;
                    while let Some(to) = at(f + df, r + dr) {
                        kind[from as usize][to as usize] = k;
                        between[from as usize][to as usize] = passed;
                        passed |= 1u64 << to;
                        f += df;
                        r += dr;
                    }
                }
            }
        }
        Lines { kind, between }
    }

    /// Whether a rider of the line kinds `kinds` (a union of [`Lines::ORTH`], [`Lines::DIAG`],
    /// [`Lines::NIGHT`]) on `from` reaches `to` over occupancy `occ`: the two share such a line
    /// and nothing stands between them.
    #[inline(always)]
    pub fn rides(&self, kinds: u8, from: Square, to: Square, occ: Bb) -> bool {
        self.kind[from as usize][to as usize] & kinds != 0
            && self.between[from as usize][to as usize] & occ == 0
    }

    /// Whether a hopper of the line kinds `kinds` on `from` reaches `to` over occupancy `occ`
    /// by jumping exactly one piece between them (cannon and vao captures, rules 6.1 `PV`).
    #[inline(always)]
    pub fn hops(&self, kinds: u8, from: Square, to: Square, occ: Bb) -> bool {
        self.hop_witness(kinds, from, to, occ).is_some()
    }

    /// [`Lines::rides`] with the squares between when it does (all empty).
    #[inline(always)]
    pub fn ride_witness(&self, kinds: u8, from: Square, to: Square, occ: Bb) -> Option<Bb> {
        let between = self.between[from as usize][to as usize];
        (self.kind[from as usize][to as usize] & kinds != 0 && between & occ == 0)
            .then_some(between)
    }

    /// [`Lines::hops`] with the squares between when it does (one of them occupied).
    #[inline(always)]
    pub fn hop_witness(&self, kinds: u8, from: Square, to: Square, occ: Bb) -> Option<Bb> {
        let between = self.between[from as usize][to as usize];
        (self.kind[from as usize][to as usize] & kinds != 0 && (between & occ).count_ones() == 1)
            .then_some(between)
    }
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
        let mut t = Tables {
            king: LeaperTable::new(g, &KING),
            knight: LeaperTable::new(g, &knight),
            wazir: LeaperTable::new(g, &ORTHOGONAL),
            ferz: LeaperTable::new(g, &DIAGONAL),
            queen: RayTable::new(g, &QUEEN_DIRS),
            nightrider: RayTable::new(g, &knight),
            crooked_rook: crooked(&ORTHOGONAL),
            crooked_bishop: crooked(&DIAGONAL),
            rose,
            crooked_nn,
            cylinder,
            sissa: sissa_routes(),
            lines: Lines::new(),
            routes: TargetRoutes {
                masks: Vec::new(),
                index: Vec::new(),
            },
            leaps: [[0; 64]; LeapSet::COUNT],
            two_away: [0; 64],
        };
        t.routes = TargetRoutes::new(&t);
        for from in 0..64u8 {
            let (k, n) = (t.king.attacks(from), t.knight.attacks(from));
            let (w, f) = (t.wazir.attacks(from), t.ferz.attacks(from));
            let sets = [0, k, n, f, w, n | k, n | w, n | f];
            for (set, leaps) in sets.into_iter().zip(t.leaps.iter_mut()) {
                leaps[from as usize] = set;
            }
            t.two_away[from as usize] = (0..8).fold(0, |m, d| {
                m | t.queen.ray(d, from).get(1).map_or(0, |&s| 1u64 << s)
            });
        }
        t
    }
}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The variant's tables (built on first use).
#[inline(always)]
pub fn tables() -> &'static Tables {
    TABLES.get_or_init(Tables::new)
}

/// Rook attacks from `from` over occupancy `occ`: on each orthogonal, every square up to and
/// including the first occupied one (rules 6.1 `R`). Kindergarten bitboards
/// ([`kindergarten::rook`]): their 10 KiB of tables stay in the cache through this variant's
/// many slider lookups, where orthodox chess's magics (840 KiB) miss it.
#[inline(always)]
pub fn rook_attacks(from: Square, occ: Bb) -> Bb {
    kindergarten::rook(from, occ)
}

/// Bishop attacks from `from` over occupancy `occ` (rules 6.1 `B`), as [`rook_attacks`].
#[inline(always)]
pub fn bishop_attacks(from: Square, occ: Bb) -> Bb {
    kindergarten::bishop(from, occ)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `two_away` holds, for every square, exactly the squares two steps along a rank, file
    /// or diagonal (by coordinates: both offsets in {-2, 0, 2}, not both 0, on the board).
    #[test]
    fn two_away_is_the_second_square_of_each_queen_line() {
        let t = tables();
        for from in 0..64u8 {
            let (f, r) = (i32::from(from % 8), i32::from(from / 8));
            let mut expected = 0u64;
            for (df, dr) in [
                (-2, -2),
                (-2, 0),
                (-2, 2),
                (0, -2),
                (0, 2),
                (2, -2),
                (2, 0),
                (2, 2),
            ] {
                let (tf, tr) = (f + df, r + dr);
                if (0..8).contains(&tf) && (0..8).contains(&tr) {
                    expected |= 1u64 << (tr * 8 + tf);
                }
            }
            assert_eq!(t.two_away[from as usize], expected, "square {from}");
        }
    }
}
