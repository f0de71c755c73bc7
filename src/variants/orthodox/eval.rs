//! The hand-written evaluation of the orthodox board (chess's, and with their own parameter
//! sets Muster's and Mystic's): a tapered (middlegame/endgame) sum of hand-written terms
//! with Texel-tuned values ([`params`]), in centipawns.
//!
//! Terms, each computed for both sides from that side's point of view:
//! - material and piece-square tables;
//! - mobility of knights, bishops, rooks and queens: reachable squares not holding an own pawn
//!   or King and not attacked by an enemy pawn, relative to a typical count per kind;
//! - pawn structure: doubled, isolated, backward, connected (defended or side by side);
//! - passed pawns by rank, plus (mostly endgame) the distances of both Kings to the stop square
//!   and the way forward (blocked, stop square safe, whole path free of enemy men and attacks);
//! - King safety: attack units of enemy pieces reaching the King zone (scaled by the number of
//!   attackers) plus units for each kind of piece that can give a safe check, turned into a
//!   quadratic penalty; and the pawn shield in front of the King;
//! - pieces: bishop pair, rooks on open and semi-open files, knight and bishop outposts;
//! - threats: pawns attacking pieces, minor pieces attacking pieces and loose pawns, rooks and
//!   the King attacking weak men (attacked, and protected neither by a pawn nor twice while
//!   we attack once), hanging men, contested squares, pawn pushes that would attack a piece;
//! - tempo for the side to move.
//!
//! The terms that compare both sides' attacks (threats, safe checks, the passer's path) are
//! computed after both sides' attack maps are known (`cross`).
//!
//! The phase counts non-pawn material (knight, bishop 1, rook 2, queen 4; 24 at the start);
//! a value is `(mg * phase + eg * (24 - phase)) / 24`. The total's endgame part is scaled down
//! when the side ahead cannot make progress (pawnless small leads, lone opposite bishops).
//!
//! Parameters live in [`params`], declared once. One generic routine computes every term; the
//! `eval` command instantiates it with a recorder of per-term values ([`report_board`]), the
//! search with a recorder that compiles to nothing ([`evaluate_board`]). Chess adds its network
//! and its known endgames on top (`crate::variants::chess::eval`); Muster and Mystic call
//! these with their own parameter sets. No allocation, no pawn hash.
//! Colour symmetry (a position and its colour-flipped mirror score the same for the side to
//! move) is tested over fixed FENs and random playouts.

pub mod params;

use self::params::{EvalParams, MOBILITY_CENTER, PHASE_MAX, PHASE_WEIGHT, S};
use crate::core::Color;
use crate::variants::orthodox::{attacks, Board, Kind};

pub use self::params::{DEFAULT, DEFAULT_PARAMS};

/// Number of evaluation terms shown by [`report_board`].
const TERMS: usize = 9;

/// The evaluation terms in report order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Term {
    Material = 0,
    Psqt = 1,
    Mobility = 2,
    Pawns = 3,
    Passed = 4,
    KingSafety = 5,
    Pieces = 6,
    Threats = 7,
    Tempo = 8,
}

const TERM_NAMES: [&str; TERMS] = [
    "Material",
    "PSQT",
    "Mobility",
    "Pawns",
    "Passed",
    "King safety",
    "Pieces",
    "Threats",
    "Tempo",
];

/// Receives each term's value per side; the search's recorder does nothing.
trait Trace {
    fn add(&mut self, term: Term, color: Color, v: S);
}

struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: Term, _: Color, _: S) {}
}

#[derive(Default)]
struct Table {
    terms: [[S; 2]; TERMS],
}

impl Trace for Table {
    fn add(&mut self, term: Term, color: Color, v: S) {
        self.terms[term as usize][color.index()] += v;
    }
}

const NOT_A: u64 = !attacks::FILE_A;
const NOT_H: u64 = !attacks::FILE_H;

/// Squares attacked by the pawns `p` of `color`.
#[inline(always)]
fn pawn_attacks(color: Color, p: u64) -> u64 {
    match color {
        Color::White => ((p & NOT_A) << 7) | ((p & NOT_H) << 9),
        Color::Black => ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7),
    }
}

/// Number of squares in a set that usually holds few (0-3): the CPU's popcount when the build
/// targets it, else a loop over the bits, cheaper than the portable popcount for sparse sets.
#[inline(always)]
fn count(x: u64) -> i32 {
    #[cfg(target_feature = "popcnt")]
    {
        x.count_ones() as i32
    }
    #[cfg(not(target_feature = "popcnt"))]
    {
        let (mut x, mut n) = (x, 0);
        while x != 0 {
            x &= x - 1;
            n += 1;
        }
        n
    }
}

/// The squares beside `x` on the same rank (one file left or right).
#[inline(always)]
fn sides(x: u64) -> u64 {
    ((x & NOT_H) << 1) | ((x & NOT_A) >> 1)
}

/// `x` moved one rank towards `c`'s far side.
#[inline(always)]
fn forward(c: Color, x: u64) -> u64 {
    match c {
        Color::White => x << 8,
        Color::Black => x >> 8,
    }
}

/// `x` moved one rank towards `c`'s own side.
#[inline(always)]
fn backward(c: Color, x: u64) -> u64 {
    match c {
        Color::White => x >> 8,
        Color::Black => x << 8,
    }
}

/// `x` and every square in front of it (towards `c`'s far side), file by file.
#[inline(always)]
fn fill_forward(c: Color, mut x: u64) -> u64 {
    match c {
        Color::White => {
            x |= x << 8;
            x |= x << 16;
            x | x << 32
        }
        Color::Black => {
            x |= x >> 8;
            x |= x >> 16;
            x | x >> 32
        }
    }
}

/// `x` and every square behind it (towards `c`'s own side), file by file.
#[inline(always)]
fn fill_backward(c: Color, x: u64) -> u64 {
    fill_forward(!c, x)
}

/// Relative rank (0 = own first rank) of `sq` for `c`.
#[inline(always)]
fn rel_rank(c: Color, sq: u8) -> i32 {
    match c {
        Color::White => (sq / 8) as i32,
        Color::Black => 7 - (sq / 8) as i32,
    }
}

/// Square as seen from White's side for `c` (Black mirrors vertically).
#[inline(always)]
fn rel_sq(c: Color, sq: u8) -> usize {
    match c {
        Color::White => sq as usize,
        Color::Black => (sq ^ 56) as usize,
    }
}

#[inline(always)]
fn distance(a: u8, b: u8) -> i32 {
    let df = ((a % 8) as i32 - (b % 8) as i32).abs();
    let dr = ((a / 8) as i32 - (b / 8) as i32).abs();
    df.max(dr)
}

/// Blends a pair by `phase` (centipawns).
#[inline(always)]
fn taper(v: S, phase: i32) -> i32 {
    (v.mg * phase + v.eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// Running sums of the per-piece terms of one side.
#[derive(Default)]
struct PieceAcc {
    material: S,
    psqt: S,
    mobility: S,
    pieces: S,
    /// King danger units against the enemy King.
    units: i32,
    /// Number of pieces attacking the enemy King zone.
    attackers: usize,
    /// This side's share of the game phase.
    phase: i32,
    /// Squares this side's pieces attack.
    map: AttackMap,
}

/// The squares one side attacks, by kind of attacker, gathered while its pieces are
/// evaluated; the threat and King-check terms compare both sides' maps.
#[derive(Default, Clone, Copy)]
struct AttackMap {
    /// Squares attacked by pieces of each kind (pawn 0 .. king 5).
    by_kind: [u64; 6],
    /// Squares attacked by any piece.
    all: u64,
    /// Squares attacked at least twice (two pieces, or two pawns).
    twice: u64,
}

impl AttackMap {
    #[inline(always)]
    fn add(&mut self, kind: usize, att: u64) {
        self.twice |= self.all & att;
        self.all |= att;
        self.by_kind[kind] |= att;
    }
}

/// What [`side`] passes on to the terms that need both sides' attacks ([`cross`]).
struct SideInfo {
    map: AttackMap,
    /// King danger units from our pieces reaching the enemy King zone.
    units: i32,
    /// Number of our pieces reaching the enemy King zone.
    attackers: usize,
    /// Our passed pawns.
    passers: u64,
}

/// What the per-piece loop of one side needs to see.
struct PieceView<'a> {
    outposts: u64,
    pos: &'a Board,
    p: &'a EvalParams,
    us: Color,
    occ: u64,
    mob_area: u64,
    zone: u64,
    our_pawns: u64,
    their_pawns: u64,
}

impl PieceView<'_> {
    /// Material, table, mobility, King attack and file terms of our pieces of kind index `K`
    /// (1 knight .. 4 queen); `K` is a constant so the attack function is chosen at compile time.
    #[inline(always)]
    fn pieces<const K: usize>(&self, acc: &mut PieceAcc) {
        let p = self.p;
        let mut bb = self.pos.pieces(self.us, Kind::from_index(K));
        while bb != 0 {
            let sq = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            acc.material += p.material[K];
            acc.phase += PHASE_WEIGHT[K];
            acc.psqt += p.psqt[K][rel_sq(self.us, sq)];
            let att = match K {
                1 => attacks::knight(sq),
                2 => attacks::bishop(sq, self.occ),
                3 => attacks::rook(sq, self.occ),
                _ => attacks::queen(sq, self.occ),
            };
            acc.map.add(K, att);
            if K <= 2 && self.outposts & (1u64 << sq) != 0 {
                acc.pieces += if K == 1 {
                    p.outpost_knight
                } else {
                    p.outpost_bishop
                };
            }
            acc.mobility +=
                p.mobility[K] * ((att & self.mob_area).count_ones() as i32 - MOBILITY_CENTER[K]);
            let hits = att & self.zone;
            if hits != 0 {
                acc.attackers += 1;
                acc.units += p.king_attacker_weight[K] + p.king_zone_square * count(hits);
            }
            if K == 3 {
                let file = attacks::FILE_A << (sq % 8);
                if file & self.our_pawns == 0 {
                    acc.pieces += if file & self.their_pawns == 0 {
                        p.rook_open
                    } else {
                        p.rook_semi_open
                    };
                }
            }
        }
    }
}

/// Everything for one side `us` that needs only its own attacks, as a pair for that side (the
/// caller subtracts Black's from White's), the side's share of the game phase, and its attacks
/// for [`cross`].
#[inline(always)]
fn side<T: Trace>(
    pos: &Board,
    stm: Color,
    p: &EvalParams,
    us: Color,
    t: &mut T,
) -> (S, i32, SideInfo) {
    let them = !us;
    let occ = pos.occupied();
    let our_pawns = pos.pieces(us, Kind::Pawn);
    let their_pawns = pos.pieces(them, Kind::Pawn);
    let their_pawn_att = pawn_attacks(them, their_pawns);
    let mob_area = !(our_pawns | pos.pieces(us, Kind::King) | their_pawn_att);
    let our_pawn_att = pawn_attacks(us, our_pawns);
    // Squares enemy pawns attack now or could after advancing; outposts avoid them.
    let their_span = fill_forward(them, their_pawn_att);
    const OUTPOST_RANKS: [u64; 2] = [0x0000_FFFF_FF00_0000, 0x0000_00FF_FFFF_0000];
    let outposts = our_pawn_att & OUTPOST_RANKS[us.index()] & !their_span;
    let their_king = pos.king_sq(them);
    let zone = attacks::king(their_king) | (1u64 << their_king);

    let mut acc = PieceAcc::default();
    let view = PieceView {
        outposts,
        pos,
        p,
        us,
        occ,
        mob_area,
        zone,
        our_pawns,
        their_pawns,
    };
    view.pieces::<1>(&mut acc);
    view.pieces::<2>(&mut acc);
    view.pieces::<3>(&mut acc);
    view.pieces::<4>(&mut acc);
    let PieceAcc {
        mut material,
        mut psqt,
        mobility,
        mut pieces,
        units,
        attackers,
        phase,
        mut map,
    } = acc;
    let bishops = pos.pieces(us, Kind::Bishop);
    if bishops & bishops.wrapping_sub(1) != 0 {
        pieces += p.bishop_pair;
    }
    let ksq = pos.king_sq(us);
    psqt += p.psqt[5][rel_sq(us, ksq)];

    // Pawns and King complete the attack map: two pawns on one square count as twice.
    let (left, right) = match us {
        Color::White => ((our_pawns & NOT_A) << 7, (our_pawns & NOT_H) << 9),
        Color::Black => ((our_pawns & NOT_A) >> 9, (our_pawns & NOT_H) >> 7),
    };
    map.twice |= left & right;
    map.add(0, our_pawn_att);
    map.add(5, attacks::king(ksq));

    // Our King's pawn shield, on the King's file and its neighbours.
    let mut king = S::default();
    let kbit = 1u64 << ksq;
    let kfiles = kbit | sides(kbit);
    let close = forward(us, kfiles);
    let far = forward(us, close);
    king += p.shield_close * count(our_pawns & close);
    king += p.shield_far * count(our_pawns & far);
    let ahead = our_pawns & fill_forward(us, close);
    let covered = fill_backward(us, fill_forward(us, ahead)) & kfiles;
    king += p.shield_missing * (count(kfiles) - count(covered));

    // Pawn structure, set-wise: doubled (an own pawn in front), isolated, backward (no own
    // pawn beside or behind on a neighbouring file, and the stop square under enemy pawn
    // attack), connected (defended or with a neighbour on the same rank), passed.
    let doubled = our_pawns & fill_backward(us, backward(us, our_pawns));
    let files = fill_backward(us, fill_forward(us, our_pawns));
    let isolated = our_pawns & !sides(files);
    let supported = fill_forward(us, sides(our_pawns));
    let backward_pawns = our_pawns & !isolated & !supported & backward(us, their_pawn_att);
    let mut structure = p.doubled * count(doubled)
        + p.isolated * count(isolated)
        + p.backward * count(backward_pawns);
    let mut bb = our_pawns;
    while bb != 0 {
        let sq = bb.trailing_zeros() as u8;
        bb &= bb - 1;
        material += p.material[0];
        psqt += p.psqt[0][rel_sq(us, sq)];
    }
    let mut bb = our_pawns & (our_pawn_att | sides(our_pawns));
    while bb != 0 {
        let sq = bb.trailing_zeros() as u8;
        bb &= bb - 1;
        structure += p.connected[rel_rank(us, sq) as usize];
    }
    let blocked = fill_backward(us, backward(us, their_pawns | sides(their_pawns)));
    let mut passed = S::default();
    let passers = our_pawns & !blocked & !doubled;
    let mut bb = passers;
    while bb != 0 {
        let sq = bb.trailing_zeros() as u8;
        bb &= bb - 1;
        let r = rel_rank(us, sq);
        passed += p.passed[r as usize];
        let w = (r - 2).max(0);
        if w > 0 {
            let stop = if us == Color::White { sq + 8 } else { sq - 8 };
            passed += p.passed_own_king * (distance(ksq, stop) * w);
            passed += p.passed_enemy_king * (distance(their_king, stop) * w);
        }
    }

    let tempo = if stm == us { p.tempo } else { S::default() };

    t.add(Term::Material, us, material);
    t.add(Term::Psqt, us, psqt);
    t.add(Term::Mobility, us, mobility);
    t.add(Term::Pawns, us, structure);
    t.add(Term::Passed, us, passed);
    t.add(Term::KingSafety, us, king);
    t.add(Term::Pieces, us, pieces);
    // Threats by pawns: enemy pieces our pawns attack (the other threats are in `cross`).
    let their_pieces = pos.color_bb(them) & !(their_pawns | pos.pieces(them, Kind::King));
    let threats = p.threat_by_pawn * count(our_pawn_att & their_pieces);

    t.add(Term::Tempo, us, tempo);
    t.add(Term::Threats, us, threats);
    (
        material + psqt + mobility + structure + passed + king + pieces + tempo + threats,
        phase,
        SideInfo {
            map,
            units,
            attackers,
            passers,
        },
    )
}

/// The terms of side `us` that compare its attacks (`mine`) with the enemy's (`theirs`):
/// the danger to the enemy King (attack units, safe checks) and threats against enemy
/// pieces, as a pair for `us`.
#[inline(always)]
fn cross<T: Trace>(
    pos: &Board,
    p: &EvalParams,
    us: Color,
    mine: &SideInfo,
    theirs: &SideInfo,
    t: &mut T,
) -> S {
    let them = !us;
    let (m, e) = (&mine.map, &theirs.map);
    let occ = pos.occupied();
    let ours = pos.color_bb(us);
    let their_king = pos.king_sq(them);

    // Safe checks: squares from which a piece of ours would give check, not holding one of
    // ours, and either not attacked by the enemy or attacked only once, by their King or
    // Queen, while we attack it twice.
    let weak_defence =
        e.all & !e.twice & !(e.by_kind[0] | e.by_kind[1] | e.by_kind[2] | e.by_kind[3]);
    let safe = !ours & (!e.all | (weak_defence & m.twice));
    let rook_lines = attacks::rook(their_king, occ);
    let bishop_lines = attacks::bishop(their_king, occ);
    let mut checks = 0;
    if attacks::knight(their_king) & m.by_kind[1] & safe != 0 {
        checks += p.king_safe_check[1];
    }
    if bishop_lines & m.by_kind[2] & safe != 0 {
        checks += p.king_safe_check[2];
    }
    if rook_lines & m.by_kind[3] & safe != 0 {
        checks += p.king_safe_check[3];
    }
    if (rook_lines | bishop_lines) & m.by_kind[4] & safe & !e.by_kind[4] != 0 {
        checks += p.king_safe_check[4];
    }

    // Danger to their King, a bonus for us. (Skipped when one piece or none attacks and no
    // safe check exists: the scale is 0 there by default, and the division is the costliest
    // instruction of the evaluation.)
    let mut king = S::default();
    let attackers = mine.attackers;
    if attackers >= 2 || p.king_attackers_scale[attackers] != 0 || checks != 0 {
        let danger = mine.units * p.king_attackers_scale[attackers.min(7)] / 100 + checks;
        king.mg = (danger * danger / p.king_danger_div.max(1)).min(p.king_danger_max);
        king.eg = danger / 16;
    }
    t.add(Term::KingSafety, us, king);

    // Passed pawns' way forward, per unit of rank weight (relative rank minus 2): blocked by a
    // piece on the stop square; or free, with no enemy piece on or enemy attack of the squares
    // up to promotion; or with only the stop square safe.
    let mut passed = S::default();
    let mut bb = mine.passers;
    let their_men = pos.color_bb(them);
    while bb != 0 {
        let sq = bb.trailing_zeros() as u8;
        bb &= bb - 1;
        let w = rel_rank(us, sq) - 2;
        if w <= 0 {
            continue;
        }
        let stop = forward(us, 1u64 << sq);
        if stop & occ != 0 {
            passed += p.passed_blocked * w;
        } else {
            let unsafe_path = fill_forward(us, stop) & (e.all | their_men);
            if unsafe_path == 0 {
                passed += p.passed_free_path * w;
            } else if unsafe_path & stop == 0 {
                passed += p.passed_safe_stop * w;
            }
        }
    }
    t.add(Term::Passed, us, passed);

    // Threats on enemy pieces and pawns. "Strongly protected": defended by a pawn, or by two
    // pieces when we attack with fewer than two. Weak: attacked by us, not strongly protected.
    let their_pawns = pos.pieces(them, Kind::Pawn);
    let their_all = pos.color_bb(them) & !pos.pieces(them, Kind::King);
    let their_pieces = their_all & !their_pawns;
    let strongly = e.by_kind[0] | (e.twice & !m.twice);
    let weak = their_all & !strongly & m.all;
    let mut threats = S::default();
    let targets = (their_pieces & strongly) | weak;
    if targets != 0 {
        for k in 0..5 {
            let victims = pos.pieces(them, Kind::from_index(k));
            threats +=
                p.threat_by_minor[k] * count(targets & victims & (m.by_kind[1] | m.by_kind[2]));
            threats += p.threat_by_rook[k] * count(weak & victims & m.by_kind[3]);
        }
        if weak & m.by_kind[5] != 0 {
            threats += p.threat_by_king;
        }
        threats += p.hanging * count(weak & (!e.all | (their_pieces & m.twice)));
    }
    // Squares the enemy attacks that we contest without them holding them strongly.
    threats += p.restricted * (e.all & !strongly & m.all).count_ones() as i32;
    // Pawn pushes: safe squares our pawns can advance to (one step, or two from the second
    // rank) from which they would attack an enemy piece.
    let our_pawns = pos.pieces(us, Kind::Pawn);
    const THIRD_RANK: [u64; 2] = [0x0000_0000_00FF_0000, 0x0000_FF00_0000_0000];
    let mut push = forward(us, our_pawns) & !occ;
    push |= forward(us, push & THIRD_RANK[us.index()]) & !occ;
    push &= !e.by_kind[0] & (m.all | !e.all);
    threats += p.threat_by_push * count(pawn_attacks(us, push) & their_pieces);
    t.add(Term::Threats, us, threats);
    king + passed + threats
}

/// Piece material (knights to queens, middlegame values) of `c`, in centipawns.
fn piece_material(pos: &Board, p: &EvalParams, c: Color) -> i32 {
    [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
        .iter()
        .map(|&k| pos.pieces(c, k).count_ones() as i32 * p.material[k.index()].mg)
        .sum()
}

/// How much of the endgame part of White's total `eg` to keep, out of 64: less when the side
/// ahead cannot make progress (no pawns and little extra material; opposite-coloured
/// bishops alone).
#[inline(always)]
fn eg_scale(pos: &Board, p: &EvalParams, eg: i32) -> i32 {
    if eg == 0 {
        return 64;
    }
    let strong = if eg > 0 { Color::White } else { Color::Black };
    if pos.pieces(strong, Kind::Pawn) == 0
        && piece_material(pos, p, strong) - piece_material(pos, p, !strong) <= p.pawnless_margin
    {
        return p.scale_pawnless;
    }
    const DARK: u64 = 0xAA55_AA55_AA55_AA55;
    let wb = pos.pieces(Color::White, Kind::Bishop);
    let bb = pos.pieces(Color::Black, Kind::Bishop);
    let others = pos.kind_bb(Kind::Knight) | pos.kind_bb(Kind::Rook) | pos.kind_bb(Kind::Queen);
    if others == 0
        && wb != 0
        && wb & (wb - 1) == 0
        && bb != 0
        && bb & (bb - 1) == 0
        && ((wb & DARK) == 0) != ((bb & DARK) == 0)
    {
        return p.scale_opposite_bishops;
    }
    64
}

/// White's total pair (endgame part scaled by [`eg_scale`]) and the phase.
#[inline(always)]
fn eval_white<T: Trace>(pos: &Board, stm: Color, p: &EvalParams, t: &mut T) -> (S, i32) {
    let (w, wph, wi) = side(pos, stm, p, Color::White, t);
    let (b, bph, bi) = side(pos, stm, p, Color::Black, t);
    let wc = cross(pos, p, Color::White, &wi, &bi, t);
    let bc = cross(pos, p, Color::Black, &bi, &wi, t);
    let mut total = w - b + wc - bc;
    total.eg = total.eg * eg_scale(pos, p, total.eg) / 64;
    (total, (wph + bph).min(PHASE_MAX))
}

/// Static evaluation of the pieces of `board` with `stm` to move, with the parameter set `p`,
/// in centipawns from `stm`'s view: what chess and the variants played on the orthodox board
/// (with their own parameter sets) evaluate. Never allocates.
#[inline]
pub fn evaluate_board(board: &Board, stm: Color, p: &EvalParams) -> i32 {
    let (total, ph) = eval_white(board, stm, p, &mut NoTrace);
    taper(total, ph) * stm.sign()
}

/// The evaluation of the pieces of `board` term by term, for the `eval` command: for each term
/// the middlegame, endgame and tapered values (centipawns) for White, Black and White minus
/// Black, then the phase and the final score from White's and `stm`'s point of view, with the
/// parameters `params` (the variants played on the orthodox board declare their own).
pub fn report_board(pos: &Board, stm: Color, params: &EvalParams) -> String {
    let mut table = Table::default();
    let (total, ph) = eval_white(pos, stm, params, &mut table);
    let mut out = String::new();
    out.push_str("     Term    |       White        |       Black        |       Total\n");
    out.push_str("             |   MG    EG  Taper  |   MG    EG  Taper  |   MG    EG  Taper\n");
    out.push_str("-------------+--------------------+--------------------+-------------------\n");
    let cell = |v: S| format!("{:5} {:5} {:6}", v.mg, v.eg, taper(v, ph));
    for (i, name) in TERM_NAMES.iter().enumerate() {
        let [w, b] = table.terms[i];
        out.push_str(&format!(
            "{:>12} | {} | {} | {}\n",
            name,
            cell(w),
            cell(b),
            cell(w - b)
        ));
    }
    out.push_str("-------------+--------------------+--------------------+-------------------\n");
    out.push_str(&format!(
        "{:>12} | {:>18} | {:>18} | {}\n",
        "Total",
        "",
        "",
        cell(total)
    ));
    let unscaled = table
        .terms
        .iter()
        .fold(S::default(), |acc, [w, b]| acc + *w - *b);
    let scale = eg_scale(pos, params, unscaled.eg);
    out.push_str(&format!(
        "Endgame scale: {scale}/64 (applied to the total's EG)\n"
    ));
    let white = taper(total, ph);
    out.push_str(&format!(
        "Phase: {ph}/{PHASE_MAX} (24 = opening, 0 = pawn endgame)\n"
    ));
    out.push_str(&format!(
        "Final evaluation: {white} cp (White's view), {} cp (side to move)",
        white * stm.sign()
    ));
    out
}

#[cfg(test)]
pub(crate) mod tests;
