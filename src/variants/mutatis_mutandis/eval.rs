//! Evaluation of Mutatis Mutandis. What matters here:
//! - **Morphing** (rules 2): a piece's worth is its state's AND the next state's, which it
//!   becomes as soon as it acts: the value of a state is blended with its successor's.
//! - **Reserve and drop timing** (rules 8): reserve pieces are material still to come (drops
//!   are mandatory), counted at a discount that shrinks as the window of the next drop nears.
//! - **Royal safety** (rules 5): the King/Maoking and a Wuss, a royal that cannot capture:
//!   attacked royals and enemy pieces whose reach touches the royal's neighbourhood cost, a
//!   Wuss on the board costs (it can be mated), a Mamra stays cheap to keep (it is immune to all
//!   but pawns).
//! - **Freezing and protection** (rules 7.1, 6.2 `SH`): enemy pieces frozen by an Immobilizer
//!   lose a share of their worth; pieces next to a friendly Shield gain a little.
//! - **Mobility** of the riders (empty-board-blocked reach of the displacement states and the
//!   queen slides of the Rococo pieces), and pawn advance (promotion takes the last reserve
//!   piece, rules 10).
//!
//! Every parameter is declared once in [`PARAMS`] (centipawns unless said otherwise).

use arrayvec::ArrayVec;

use crate::core::{Color, Square};

use super::board::{bit, iter, rank_of, Bb, Board};
use super::generate::{attacked, reach_of};
use super::legal::{royal_attacked, royals};
use super::piece::{State, STATE_COUNT};
use super::position::{DropWindow, MutatisMutandis};
use super::tables::tables;

crate::tunables! {
    /// The evaluator's tunable parameters (centipawns unless said otherwise).
    #[derive(Copy)]
    pub struct EvalParams, default PARAMS {
        /// Worth of each state alone (rules 2 order of [`State::ALL`]; royals near 0).
        state_value: [i32; STATE_COUNT] = state_values(), (0, 2500, 5);
        /// Share of the successor state's worth in a piece's value (per mille): the rest is the
        /// current state's (rules 2: the piece becomes its successor when it acts).
        next_share_permille: i32 = 386, (0, 1000, 10);
        /// A reserve piece's worth (per mille of its value) while its drop window is far.
        reserve_permille: i32 = 832, (0, 1500, 10);
        /// ... and once the window is open or the drop is due.
        reserve_due_permille: i32 = 849, (0, 1500, 10);
        /// Per royal piece of the side that is attacked (check or an attacked Wuss).
        royal_attacked: i32 = 60, (0, 500, 4);
        /// Per enemy piece reaching a square of a royal's neighbourhood (the royal's square and
        /// its 8 neighbours), counted per square.
        royal_zone_attacker: i32 = 50, (0, 50, 1);
        /// A Wuss on the board: a second royal that cannot capture.
        wuss_liability: i32 = 36, (0, 500, 4);
        /// Per mille of a frozen enemy piece's value credited to the side that freezes it.
        frozen_permille: i32 = 230, (0, 1000, 10);
        /// Per friendly piece protected by a Shield of the side.
        shielded_piece: i32 = 92, (0, 100, 1);
        /// Per square of mobility of a piece (displacement reach and passive queen slides).
        mobility: i32 = 12, (0, 30, 1);
        /// Per row a pawn-state piece has advanced beyond its second row.
        pawn_advance: i32 = 23, (0, 100, 1);
        /// Bonus for the side to move.
        tempo: i32 = 56, (0, 100, 1);
    }
}

const fn state_values() -> [i32; STATE_COUNT] {
    // Order of State::ALL (rules 2 table); Texel-tuned.
    [
        0,    // K
        81,   // MK
        823,  // Q
        817,  // SS
        1157, // AM
        1192, // SQ
        1020, // AR
        801,  // DR
        814,  // NR
        608,  // RO
        730,  // C
        892,  // A
        999,  // DA
        821,  // OC
        593,  // DK
        758,  // DH
        225,  // N
        503,  // NG
        913,  // GR
        474,  // AA
        548,  // CR
        754,  // CB
        584,  // R
        471,  // CY
        343,  // NW
        384,  // NF
        520,  // PV
        88,   // CP
        650,  // CH
        408,  // SW
        676,  // LL
        800,  // AC
        514,  // WI
        549,  // AD
        803,  // IM
        808,  // SH
        323,  // MA
        0,    // WU
        387,  // HN
        907,  // N11
        485,  // N02
        658,  // N31
        438,  // N33
        374,  // N04
        193,  // OX
        641,  // SE
        85,   // P
        72,   // BP
        115,  // SP
    ]
}

/// A piece's material worth in `state` (rules 2 blend with the successor), centipawns.
#[inline(always)]
pub const fn piece_value(p: &EvalParams, state: State) -> i32 {
    let own = p.state_value[state.index()];
    let next = p.state_value[state.next().index()];
    own + (next - own) * p.next_share_permille / 1000
}

/// [`piece_value`] of every state under `p` (centipawns), indexed by [`State::index`].
pub const fn piece_values(p: &EvalParams) -> [i32; STATE_COUNT] {
    let mut v = [0; STATE_COUNT];
    let mut i = 0;
    while i < STATE_COUNT {
        v[i] = piece_value(p, State::ALL[i]);
        i += 1;
    }
    v
}

/// [`piece_values`] of [`PARAMS`], computed at compile time: what the search's evaluation,
/// exchanges and ordering read.
pub const PIECE_VALUES: [i32; STATE_COUNT] = piece_values(&PARAMS);

/// One side's terms (centipawns, from that side's point of view).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Pieces on the board.
    pub material: i32,
    /// Reserve pieces still to be dropped.
    pub reserve: i32,
    /// Royal safety (negative).
    pub royal: i32,
    /// Enemy pieces frozen by the side's Immobilizers.
    pub freezing: i32,
    /// Pieces protected by the side's Shields.
    pub shields: i32,
    /// Mobility.
    pub mobility: i32,
    /// Pawn advance.
    pub pawns: i32,
}

impl Terms {
    /// The sum of the terms.
    pub fn total(&self) -> i32 {
        self.material
            + self.reserve
            + self.royal
            + self.freezing
            + self.shields
            + self.mobility
            + self.pawns
    }
}

/// Most royals a side can have on the board (a constructed FEN may fill every square).
const MAX_ROYALS: usize = 64;

/// What one pass over a side's pieces finds: its terms so far, and the pressure of its
/// pieces on each enemy royal's neighbourhood.
struct SideScan {
    terms: Terms,
    /// Per enemy royal, in square order ([`royals`]): the sum over the side's unfrozen pieces
    /// of the squares of the royal's zone (its square and 8 neighbours) each reaches.
    pressure: ArrayVec<i32, MAX_ROYALS>,
}

/// The zone of a royal on `sq`: its square and its 8 neighbours (rules 5).
#[inline(always)]
fn royal_zone(sq: Square) -> Bb {
    tables().king.attacks(sq) | bit(sq)
}

impl SideScan {
    fn new() -> Self {
        SideScan {
            terms: Terms::default(),
            pressure: ArrayVec::new(),
        }
    }
}

/// Scans `us`'s pieces on `pos` into `out` (fresh from [`SideScan::new`]), each piece worth
/// `value` of its state. Fills the caller's scan in place: returned, the scan (the pressure
/// list holds [`MAX_ROYALS`] slots) was copied whole at every evaluation.
fn scan(
    pos: &MutatisMutandis,
    us: Color,
    p: &EvalParams,
    value: impl Fn(State) -> i32,
    out: &mut SideScan,
) {
    let b: &Board = &pos.board;
    let them = !us;
    let mut zones: ArrayVec<Bb, MAX_ROYALS> = ArrayVec::new();
    for sq in iter(royals(b, them)) {
        zones.push(royal_zone(sq));
        out.pressure.push(0);
    }
    let all_zones = zones.iter().fold(0, |m, &z| m | z);
    let occ = b.occupied();
    let frozen_us = b.frozen(us);
    // Pawn advance, over the pawn states apart (no per-piece branch on the state).
    let pawns = b.pieces(us, State::Pawn)
        | b.pieces(us, State::BerolinaPawn)
        | b.pieces(us, State::ScorpionPawn);
    for sq in iter(pawns) {
        let advanced = if us == Color::White {
            rank_of(sq) - 1
        } else {
            6 - rank_of(sq)
        };
        out.terms.pawns += advanced.max(0) * p.pawn_advance;
    }
    for sq in iter(b.color_bb(us)) {
        let Some(pc) = b.piece(sq) else { continue };
        out.terms.material += value(pc.state);
        if frozen_us & bit(sq) != 0 {
            continue;
        }
        if let Some(r) = reach_of(pc.state, us, sq, occ) {
            let reach = r.quiet | (r.capture & b.color_bb(them));
            out.terms.mobility += reach.count_ones() as i32 * p.mobility;
            // Every zone counted, touched or not: a branch on it is hard to predict.
            let touched = (r.quiet | r.capture) & all_zones;
            for (pressure, &zone) in out.pressure.iter_mut().zip(&zones) {
                *pressure += (touched & zone).count_ones() as i32;
            }
        }
    }
    // Freezing: enemy pieces next to our Immobilizers (rules 7.1).
    for sq in iter(b.frozen(them)) {
        if let Some(pc) = b.piece(sq) {
            if !pc.state.is_royal() {
                out.terms.freezing += value(pc.state) * p.frozen_permille / 1000;
            }
        }
    }
    out.terms.shields = b.shielded(us).count_ones() as i32 * p.shielded_piece;
    // Reserve (rules 8).
    let share = match pos.drop_window(us) {
        DropWindow::Closed => p.reserve_permille,
        _ => p.reserve_due_permille,
    };
    for &s in pos.reserve(us).pieces() {
        out.terms.reserve += p.state_value[s.index()] * share / 1000;
    }
}

/// Royal safety of `us` (rules 5) given the enemy's pressure on each royal's zone (in the
/// order of [`royals`]): attacked royals, enemy pieces reaching the royals' neighbourhoods, a
/// Wuss on the board.
fn royal_safety(pos: &MutatisMutandis, us: Color, enemy_pressure: &[i32], p: &EvalParams) -> i32 {
    let b = &pos.board;
    let mine = royals(b, us);
    // Only the side to move can have a royal attacked: the turn before was legal (rules 5),
    // and a FEN with the other side's royal attacked is refused. With one royal, whether it is
    // attacked is the position's cached royal danger.
    debug_assert!(us == pos.side || !royal_attacked(b, us));
    let ask = us == pos.side && pos.royal_in_danger();
    let single = mine.count_ones() == 1;
    let mut safety = 0;
    for (sq, &pressure) in iter(mine).zip(enemy_pressure) {
        if ask && (single || attacked(b, sq)) {
            safety -= p.royal_attacked;
        }
        safety -= pressure * p.royal_zone_attacker;
        if b.piece(sq).is_some_and(|pc| pc.state == State::Wuss) {
            safety -= p.wuss_liability;
        }
    }
    safety
}

/// Both sides' terms on `pos` with parameters `p`: `[White, Blue]`.
pub fn terms(pos: &MutatisMutandis, p: &EvalParams) -> [Terms; 2] {
    terms_valued(pos, p, |s| piece_value(p, s))
}

/// [`terms`] with `value`, a piece's worth in a state under `p` ([`piece_value`]): from
/// [`PIECE_VALUES`] in the search, computed from `p` for any other set.
#[inline(always)]
fn terms_valued(
    pos: &MutatisMutandis,
    p: &EvalParams,
    value: impl Fn(State) -> i32 + Copy,
) -> [Terms; 2] {
    let (mut w, mut b) = (SideScan::new(), SideScan::new());
    scan(pos, Color::White, p, value, &mut w);
    scan(pos, Color::Black, p, value, &mut b);
    let mut tw = w.terms;
    let mut tb = b.terms;
    tw.royal = royal_safety(pos, Color::White, &b.pressure, p);
    tb.royal = royal_safety(pos, Color::Black, &w.pressure, p);
    [tw, tb]
}

/// Static evaluation with parameters `p`, centipawns from the side to move's point of view.
#[inline]
pub fn evaluate_with(pos: &MutatisMutandis, p: &EvalParams) -> i32 {
    evaluate_valued(pos, p, |s| piece_value(p, s))
}

/// [`evaluate_with`] given `value` (as [`terms_valued`] takes it).
#[inline(always)]
fn evaluate_valued(
    pos: &MutatisMutandis,
    p: &EvalParams,
    value: impl Fn(State) -> i32 + Copy,
) -> i32 {
    let [w, b] = terms_valued(pos, p, value);
    let white = w.total() - b.total();
    (if pos.side == Color::White {
        white
    } else {
        -white
    }) + p.tempo
}

/// Static evaluation with [`PARAMS`] (centipawns, side to move's point of view).
#[inline]
pub fn evaluate(pos: &MutatisMutandis) -> i32 {
    evaluate_valued(pos, &PARAMS, |s| PIECE_VALUES[s.index()])
}

/// The evaluation term by term (the `eval` command, protocol.md 6).
pub fn report(pos: &MutatisMutandis) -> String {
    let [w, b] = terms(pos, &PARAMS);
    let mut s = String::from("Mutatis Mutandis terms (centipawns)    white     blue      net\n");
    let rows: [(&str, i32, i32); 7] = [
        ("material (state + next state)", w.material, b.material),
        ("reserve (drops to come)", w.reserve, b.reserve),
        ("royal safety (King, Wuss)", w.royal, b.royal),
        ("enemies frozen", w.freezing, b.freezing),
        ("Shield protection", w.shields, b.shields),
        ("mobility", w.mobility, b.mobility),
        ("pawn advance", w.pawns, b.pawns),
    ];
    for (n, x, y) in rows {
        s.push_str(&format!("  {n:<34} {x:>7} {y:>8} {:>8}\n", x - y));
    }
    s.push_str(&format!(
        "  {:<34} {:>7} {:>8} {:>8}\n  tempo {}\n\nFinal evaluation (side to move): {}",
        "total",
        w.total(),
        b.total(),
        w.total() - b.total(),
        PARAMS.tempo,
        evaluate(pos)
    ));
    s
}
