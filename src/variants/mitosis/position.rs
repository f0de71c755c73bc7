//! The Mitosis position: u128 bitboards on [`BOARD_MITOSIS`], move generation with the base
//! and King rules, make/unmake with splitting, placement and the King-loss catastrophe.
//!
//! Cells are `row * 9 + file` (row 0 = rank 0). Sliders use precomputed ray masks with the
//! classical blocker trick (nearest blocker by lsb/msb), which works on any geometry because a
//! ray from a square on the ray is a suffix of it.

use std::sync::LazyLock;

use super::network;
use super::types::{Kind, MitosisMove, MitosisPiece, Parts};
use super::BOARD_MITOSIS;
use crate::core::attacks::{LeaperTable, RayTable, DIAGONAL, KING, KNIGHT, ORTHOGONAL};
use crate::core::{zobrist, Bitboard, Color, MoveList, Square};
use crate::variants::network::NetAccumulator;

/// Number of cells of the bounding rectangle (9 x 11).
pub const CELLS: usize = 99;
/// Files of the board.
pub const FILES: usize = 9;

/// The base squares of each side, files d, e, f (rules/mitosis.md 1): White d0-f0, Black
/// d10-f10.
pub const BASE_SQUARES: [[Square; 3]; 2] = [[3, 4, 5], [93, 94, 95]];

/// The base squares of `side` as a set.
pub const fn base_mask(side: Color) -> u128 {
    let s = BASE_SQUARES[side as usize];
    (1u128 << s[0]) | (1u128 << s[1]) | (1u128 << s[2])
}

/// Both bases.
pub const BASES: u128 = base_mask(Color::White) | base_mask(Color::Black);
/// The main 9x9 board (ranks 1-9).
pub const MAIN: u128 = BOARD_MITOSIS.cells & !BASES;

/// The row of the last rank for `side`'s pawns (promotion: White 9, Black 1; rules/mitosis.md 3.4).
pub const fn promotion_row(side: Color) -> u8 {
    match side {
        Color::White => 9,
        Color::Black => 1,
    }
}

/// The start row of `side`'s pawns (White 2, Black 8; rules/mitosis.md 3.1).
pub const fn pawn_start_row(side: Color) -> u8 {
    match side {
        Color::White => 2,
        Color::Black => 8,
    }
}

/// Attack tables of the board.
pub struct Tables {
    knight: [u128; CELLS],
    king: [u128; CELLS],
    /// pawn[side][sq]: the main-board squares a pawn of `side` on `sq` attacks.
    pawn: [[u128; CELLS]; 2],
    /// ray[dir][sq] for the 8 directions: 0-1 orthogonal increasing, 2-3 orthogonal decreasing,
    /// 4-5 diagonal increasing, 6-7 diagonal decreasing.
    ray: [[u128; CELLS]; 8],
}

/// The attack tables, built once.
pub static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let g = &BOARD_MITOSIS;
    let kn = LeaperTable::<u128>::new(g, &KNIGHT);
    let kg = LeaperTable::<u128>::new(g, &KING);
    let wp = LeaperTable::<u128>::new(g, &[(1, 1), (-1, 1)]);
    let bp = LeaperTable::<u128>::new(g, &[(1, -1), (-1, -1)]);
    // Increasing directions first within each family (lsb finds their nearest blocker).
    let dirs = [
        (1, 0),
        (0, 1),
        (-1, 0),
        (0, -1),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ];
    debug_assert!(dirs
        .iter()
        .all(|d| ORTHOGONAL.contains(d) || DIAGONAL.contains(d)));
    let rays = RayTable::<u128>::new(g, &dirs);
    let mut t = Tables {
        knight: [0; CELLS],
        king: [0; CELLS],
        pawn: [[0; CELLS]; 2],
        ray: [[0; CELLS]; 8],
    };
    for sq in 0..CELLS {
        let s = sq as Square;
        t.knight[sq] = kn.attacks(s);
        t.king[sq] = kg.attacks(s);
        t.pawn[0][sq] = wp.attacks(s) & MAIN;
        t.pawn[1][sq] = bp.attacks(s) & MAIN;
        for (d, r) in t.ray.iter_mut().enumerate() {
            r[sq] = rays.ray_mask(d, s);
        }
    }
    t
});

impl Tables {
    #[inline(always)]
    fn slide(&self, sq: usize, occ: u128, dirs: [usize; 4]) -> u128 {
        let mut out = 0;
        for (i, d) in dirs.into_iter().enumerate() {
            let m = self.ray[d][sq];
            let b = m & occ;
            if b == 0 {
                out |= m;
            } else {
                let first = if i < 2 { b.lsb() } else { b.msb() };
                out |= m ^ self.ray[d][first];
            }
        }
        out
    }

    /// Rook attacks from cell `sq` with occupancy `occ` (all cells, bases included).
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: u128) -> u128 {
        self.slide(sq, occ, [0, 1, 2, 3])
    }

    /// Bishop attacks from cell `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: u128) -> u128 {
        self.slide(sq, occ, [4, 5, 6, 7])
    }

    /// Knight leaps from `sq` (every cell, bases included).
    #[inline(always)]
    pub fn knight(&self, sq: usize) -> u128 {
        self.knight[sq]
    }

    /// King steps from `sq`.
    #[inline(always)]
    pub fn king(&self, sq: usize) -> u128 {
        self.king[sq]
    }

    /// Main-board squares a pawn of `side` on `sq` attacks.
    #[inline(always)]
    pub fn pawn(&self, side: Color, sq: usize) -> u128 {
        self.pawn[side.index()][sq]
    }

    /// The squares a piece of `kind` and `side` on `sq` attacks (captures onto), before
    /// removing base squares.
    #[inline(always)]
    pub fn attacks(&self, side: Color, kind: Kind, sq: usize, occ: u128) -> u128 {
        let mut a = 0;
        if kind.has_rook() {
            a |= self.rook(sq, occ);
        }
        if kind.has_bishop() {
            a |= self.bishop(sq, occ);
        }
        if kind.has_knight() {
            a |= self.knight[sq];
        }
        match kind {
            Kind::King => a |= self.king[sq],
            Kind::Pawn => a |= self.pawn(side, sq),
            _ => {}
        }
        a
    }
}

struct Keys {
    piece: [[[u64; CELLS]; 9]; 2],
    black: u64,
    pending: [u64; 8],
    ep: [u64; CELLS],
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let k = zobrist::keys(0x006d_6974_6f73_6973, 2 * 9 * CELLS + 1 + 8 + CELLS);
    let mut keys = Keys {
        piece: [[[0; CELLS]; 9]; 2],
        black: k[2 * 9 * CELLS],
        pending: [0; 8],
        ep: [0; CELLS],
    };
    let mut i = 0;
    for side in keys.piece.iter_mut() {
        for kind in side.iter_mut() {
            for sq in kind.iter_mut() {
                *sq = k[i];
                i += 1;
            }
        }
    }
    i += 1;
    for p in keys.pending.iter_mut().skip(1) {
        *p = k[i];
        i += 1;
    }
    for e in keys.ep.iter_mut() {
        *e = k[i];
        i += 1;
    }
    keys
});

/// What `unmake` needs to restore a ply.
#[derive(Copy, Clone, Debug)]
struct Undo {
    mv: MitosisMove,
    /// Mailbox code of the captured piece (0: none).
    captured: u8,
    /// Cell of the captured piece (differs from `to` for en passant).
    captured_sq: u8,
    pending: Parts,
    ep: u128,
    clock: u16,
    key: u64,
    /// The Rooks, Bishops and Knights removed by the capture of a King (rules/mitosis.md 5.2).
    lost_minors: [u128; 3],
    null: bool,
}

/// A Mitosis Chess position (rules/mitosis.md): pieces on the main board and in the bases, the
/// side to move, its pending components, the en passant squares, the capture clock and the
/// move number, with an undo stack.
#[derive(Clone)]
pub struct Mitosis {
    pub(super) pieces: [[u128; 9]; 2],
    pub(super) colors: [u128; 2],
    pub(super) mailbox: [u8; CELLS],
    pub(super) stm: Color,
    /// Components the side to move must place before its board move (rules/mitosis.md 4).
    pub(super) pending: Parts,
    /// En passant squares for the side to move (rules/mitosis.md 3.3): the squares passed by
    /// the last 2- or 3-square push; the victim is one square beyond the furthest.
    pub(super) ep: u128,
    /// Plies since the last capture (rules/mitosis.md 6.3).
    pub(super) clock: u16,
    pub(super) fullmove: u16,
    pub(super) key: u64,
    stack: Vec<Undo>,
    /// The network's first-layer sums, kept through make/unmake (the men; the pending parts
    /// are volatile inputs, added at each evaluation).
    pub(crate) acc: NetAccumulator,
}

impl Mitosis {
    /// An empty board, White to move.
    pub(super) fn empty() -> Mitosis {
        Mitosis {
            pieces: [[0; 9]; 2],
            colors: [0; 2],
            mailbox: [0; CELLS],
            stm: Color::White,
            pending: Parts(0),
            ep: 0,
            clock: 0,
            fullmove: 1,
            key: 0,
            stack: Vec::with_capacity(512),
            acc: NetAccumulator::default(),
        }
    }

    /// Puts `p` on the empty cell `sq` (key updated).
    #[inline(always)]
    pub(super) fn put(&mut self, sq: usize, p: MitosisPiece) {
        let b = 1u128 << sq;
        self.pieces[p.color.index()][p.kind.index()] |= b;
        self.colors[p.color.index()] |= b;
        self.mailbox[sq] = p.code();
        self.key ^= KEYS.piece[p.color.index()][p.kind.index()][sq];
    }

    /// Removes the piece on `sq` (which must hold one) and returns it (key updated).
    #[inline(always)]
    pub(super) fn take(&mut self, sq: usize) -> MitosisPiece {
        let p = MitosisPiece::from_code(self.mailbox[sq]);
        let b = 1u128 << sq;
        self.pieces[p.color.index()][p.kind.index()] ^= b;
        self.colors[p.color.index()] ^= b;
        self.mailbox[sq] = 0;
        self.key ^= KEYS.piece[p.color.index()][p.kind.index()][sq];
        p
    }

    /// [`Mitosis::put`] in make: the man's network inputs recorded as set.
    #[inline(always)]
    fn land(&mut self, sq: usize, p: MitosisPiece) {
        self.put(sq, p);
        self.acc.add(network::man_inputs(p, sq));
    }

    /// [`Mitosis::take`] in make: the man's network inputs recorded as cleared.
    #[inline(always)]
    fn lift(&mut self, sq: usize) -> MitosisPiece {
        let p = self.take(sq);
        self.acc.sub(network::man_inputs(p, sq));
        p
    }

    /// The piece on cell `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<MitosisPiece> {
        let c = self.mailbox[sq as usize];
        (c != 0).then(|| MitosisPiece::from_code(c))
    }

    /// The pieces of `side` and `kind` (main board and base).
    #[inline(always)]
    pub fn pieces(&self, side: Color, kind: Kind) -> u128 {
        self.pieces[side.index()][kind.index()]
    }

    /// All pieces of `side` (main board and base).
    #[inline(always)]
    pub fn color_bb(&self, side: Color) -> u128 {
        self.colors[side.index()]
    }

    /// Every occupied cell.
    #[inline(always)]
    pub fn occupied(&self) -> u128 {
        self.colors[0] | self.colors[1]
    }

    /// The side to move (inside the module; elsewhere
    /// [`Rules::side_to_move`](crate::variants::Rules::side_to_move)).
    #[inline(always)]
    pub(super) fn stm(&self) -> Color {
        self.stm
    }

    /// The components the side to move still has to place (rules/mitosis.md 4).
    #[inline(always)]
    pub fn pending(&self) -> Parts {
        self.pending
    }

    /// Plies since the last capture (rules/mitosis.md 6.3).
    #[inline(always)]
    pub fn clock(&self) -> u16 {
        self.clock
    }

    /// The en passant squares for the side to move (empty set: none).
    #[inline(always)]
    pub fn ep_squares(&self) -> u128 {
        self.ep
    }

    /// The zobrist key computed from scratch (pieces, side, pending, en passant).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for s in 0..2 {
            for kind in 0..9 {
                for sq in self.pieces[s][kind].iter() {
                    k ^= KEYS.piece[s][kind][sq];
                }
            }
        }
        if self.stm == Color::Black {
            k ^= KEYS.black;
        }
        k ^= KEYS.pending[self.pending.0 as usize];
        for sq in self.ep.iter() {
            k ^= KEYS.ep[sq];
        }
        k
    }

    /// Recomputes the stored key from scratch (after building a position by hand).
    pub(super) fn refresh_key(&mut self) {
        self.key = self.compute_key();
    }

    /// Whether `side` attacks cell `x` for the King-capture restriction (rules/mitosis.md 5.1
    /// \[D5\]): some non-King piece of `side`, on the main board or in its base, could capture on
    /// `x` by its movement pattern with the current occupancy (no pins, no en passant). Base
    /// squares are never attacked: nothing can be captured there.
    pub fn attacked_by(&self, side: Color, x: usize) -> bool {
        if BASES.has(x) {
            return false;
        }
        let t = &*TABLES;
        let p = &self.pieces[side.index()];
        let occ = self.occupied();
        let knights = p[Kind::Knight.index()]
            | p[Kind::Chancellor.index()]
            | p[Kind::Archbishop.index()]
            | p[Kind::General.index()];
        if t.knight(x) & knights != 0 {
            return true;
        }
        // A pawn of `side` attacks x when x is attacked by a pawn of the other side standing on it.
        if t.pawn(!side, x) & p[Kind::Pawn.index()] != 0 {
            return true;
        }
        let queens = p[Kind::Queen.index()] | p[Kind::General.index()];
        let rooks = p[Kind::Rook.index()] | p[Kind::Chancellor.index()] | queens;
        if t.rook(x, occ) & rooks != 0 {
            return true;
        }
        let bishops = p[Kind::Bishop.index()] | p[Kind::Archbishop.index()] | queens;
        t.bishop(x, occ) & bishops != 0
    }

    /// Every main-board square `side` attacks (non-King pieces, base included): the union of
    /// the squares of [`Mitosis::attacked_by`]. Used by the evaluation.
    pub fn attack_map(&self, side: Color, with_king: bool) -> u128 {
        let t = &*TABLES;
        let occ = self.occupied();
        let mut out = 0;
        for kind in Kind::ALL {
            if kind == Kind::King && !with_king {
                continue;
            }
            for sq in self.pieces(side, kind).iter() {
                out |= t.attacks(side, kind, sq, occ);
            }
        }
        out & MAIN
    }

    /// Appends the legal board moves of the side to move (rules/mitosis.md 1-3, 5.1), ignoring
    /// pending components. With `tactical_only`, only captures and promotions.
    pub fn board_moves(&self, list: &mut MoveList<MitosisMove>, tactical_only: bool) {
        let t = &*TABLES;
        let us = self.stm;
        let them = !us;
        let occ = self.occupied();
        let own = self.colors[us.index()];
        let enemy = self.colors[them.index()] & MAIN;
        let targets = if tactical_only { enemy } else { MAIN & !own };
        let their_king = self.pieces(them, Kind::King);
        for kind in &Kind::ALL[..8] {
            let kind = *kind;
            for from in self.pieces(us, kind).iter() {
                let mut a = t.attacks(us, kind, from, occ) & targets;
                if a & their_king != 0 && self.attacked_by(them, from) {
                    a &= !their_king;
                }
                for to in a.iter() {
                    list.push(MitosisMove::board(
                        from as Square,
                        to as Square,
                        None,
                        false,
                    ));
                }
            }
        }
        self.pawn_moves(list, tactical_only);
    }

    fn pawn_moves(&self, list: &mut MoveList<MitosisMove>, tactical_only: bool) {
        let t = &*TABLES;
        let us = self.stm;
        let them = !us;
        let occ = self.occupied();
        let enemy = self.colors[them.index()] & MAIN;
        let their_king = self.pieces(them, Kind::King);
        let step: i32 = if us == Color::White { 9 } else { -9 };
        let promo_row = promotion_row(us) as usize;
        let start_row = pawn_start_row(us) as usize;
        let push = |list: &mut MoveList<MitosisMove>, from: usize, to: usize, ep: bool| {
            if to / FILES == promo_row {
                for k in [Kind::Rook, Kind::Bishop, Kind::Knight] {
                    list.push(MitosisMove::board(
                        from as Square,
                        to as Square,
                        Some(k),
                        ep,
                    ));
                }
            } else {
                list.push(MitosisMove::board(from as Square, to as Square, None, ep));
            }
        };
        for from in self.pieces(us, Kind::Pawn).iter() {
            let mut caps = t.pawn(us, from) & enemy;
            if caps & their_king != 0 && self.attacked_by(them, from) {
                caps &= !their_king;
            }
            for to in caps.iter() {
                push(list, from, to, false);
            }
            for to in (t.pawn(us, from) & self.ep).iter() {
                push(list, from, to, true);
            }
            // Pushes: 1 square, or 2-3 from the start rank, all squares passed empty.
            let mut to = from as i32 + step;
            let mut n = 0;
            while n < 3 && MAIN.has(to as usize) && !occ.has(to as usize) {
                let promo = to as usize / FILES == promo_row;
                if !tactical_only || promo {
                    push(list, from, to as usize, false);
                }
                n += 1;
                if from / FILES != start_row {
                    break;
                }
                to += step;
            }
        }
    }

    /// Free base squares of `side`.
    #[inline(always)]
    pub fn free_base(&self, side: Color) -> u128 {
        base_mask(side) & !self.occupied()
    }

    /// Appends every distinct placement of the pending components (rules/mitosis.md 4 \[D3\]):
    /// `min(free squares, components)` distinct kinds on distinct free base squares, without
    /// checking that a board move follows.
    pub fn placements(&self, list: &mut MoveList<MitosisMove>) {
        let pending = self.pending;
        if pending.is_empty() {
            return;
        }
        let free = self.free_base(self.stm);
        let base = BASE_SQUARES[self.stm.index()];
        let want = pending.len().min(free.count());
        // Each of the 3 slots: 0 none, 1 R, 2 B, 3 N.
        for code in 0..64u32 {
            let mut used = 0u8;
            let mut n = 0;
            let mut ok = true;
            let mut slots = [None; 3];
            for (i, slot) in slots.iter_mut().enumerate() {
                let v = (code >> (2 * i)) & 3;
                if v == 0 {
                    continue;
                }
                let bit = 1u8 << (v - 1);
                if !free.has(base[i] as usize) || pending.0 & bit == 0 || used & bit != 0 {
                    ok = false;
                    break;
                }
                used |= bit;
                n += 1;
                *slot = Some(Parts::KINDS[(v - 1) as usize]);
            }
            if ok && n == want {
                list.push(MitosisMove::placement(slots));
            }
        }
    }

    /// Plays a placement or board move (legal in this position).
    pub fn make(&mut self, m: MitosisMove) {
        crate::variants::network::open_ply(self);
        let keys = &*KEYS;
        let mut undo = Undo {
            mv: m,
            captured: 0,
            captured_sq: 0,
            pending: self.pending,
            ep: self.ep,
            clock: self.clock,
            key: self.key,
            lost_minors: [0; 3],
            null: false,
        };
        let us = self.stm;
        if m.is_placement() {
            let base = BASE_SQUARES[us.index()];
            for (i, sq) in base.iter().enumerate() {
                if let Some(kind) = m.slot(i) {
                    self.land(*sq as usize, MitosisPiece { color: us, kind });
                }
            }
            self.key ^= keys.pending[self.pending.0 as usize];
            self.pending = Parts(0);
            self.stack.push(undo);
            return;
        }
        let them = !us;
        // The en passant victim: one square beyond the furthest passed square (rules/mitosis.md
        // 3.3).
        let ep_victim = if m.is_ep() {
            if us == Color::White {
                self.ep.lsb() - FILES
            } else {
                self.ep.msb() + FILES
            }
        } else {
            0
        };
        for sq in self.ep.iter() {
            self.key ^= keys.ep[sq];
        }
        self.ep = 0;
        self.key ^= keys.pending[self.pending.0 as usize];
        self.pending = Parts(0);
        let (from, to) = (m.from() as usize, m.to() as usize);
        let cap_sq = if m.is_ep() { ep_victim } else { to };
        let mut mover = self.lift(from);
        if self.mailbox[cap_sq] != 0 {
            undo.captured = self.mailbox[cap_sq];
            undo.captured_sq = cap_sq as u8;
            let victim = self.lift(cap_sq);
            self.clock = 0;
            if victim.kind.is_major() && !self.free_base(them).is_empty() {
                self.pending = victim.kind.components();
            } else if victim.kind == Kind::King {
                // rules/mitosis.md 5.2: every Rook, Bishop and Knight of the King's side goes.
                for (i, kind) in Parts::KINDS.iter().enumerate() {
                    let b = self.pieces(them, *kind);
                    undo.lost_minors[i] = b;
                    for sq in b.iter() {
                        self.lift(sq);
                    }
                }
            }
        } else {
            self.clock += 1;
        }
        if let Some(k) = m.promotion() {
            mover.kind = k;
        }
        self.land(to, mover);
        if mover.kind == Kind::Pawn {
            let dist = from.abs_diff(to) / FILES;
            if dist >= 2 && from % FILES == to % FILES {
                // rules/mitosis.md 3.3: every passed square is an en passant square.
                let mut sq = from;
                for _ in 1..dist {
                    sq = if us == Color::White {
                        sq + FILES
                    } else {
                        sq - FILES
                    };
                    self.ep |= 1u128 << sq;
                    self.key ^= keys.ep[sq];
                }
            }
        }
        self.key ^= keys.pending[self.pending.0 as usize];
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.stm = them;
        self.key ^= keys.black;
        self.stack.push(undo);
    }

    /// Passes the turn (null move for the search); undone by `unmake`.
    pub fn make_null(&mut self) {
        crate::variants::network::open_ply(self);
        let keys = &*KEYS;
        self.stack.push(Undo {
            mv: MitosisMove::default(),
            captured: 0,
            captured_sq: 0,
            pending: self.pending,
            ep: self.ep,
            clock: self.clock,
            key: self.key,
            lost_minors: [0; 3],
            null: true,
        });
        for sq in self.ep.iter() {
            self.key ^= keys.ep[sq];
        }
        self.ep = 0;
        self.key ^= keys.pending[self.pending.0 as usize];
        self.pending = Parts(0);
        self.stm = !self.stm;
        self.key ^= keys.black;
    }

    /// Takes back the last ply (board move, placement or null move).
    pub fn unmake(&mut self) {
        let u = self.stack.pop().expect("unmake without a ply to take back");
        self.acc.pop();
        let m = u.mv;
        if u.null {
            self.stm = !self.stm;
        } else if m.is_placement() {
            let base = BASE_SQUARES[self.stm.index()];
            for (i, sq) in base.iter().enumerate() {
                if m.slot(i).is_some() {
                    self.take(*sq as usize);
                }
            }
        } else {
            self.stm = !self.stm;
            let us = self.stm;
            if us == Color::Black {
                self.fullmove -= 1;
            }
            let (from, to) = (m.from() as usize, m.to() as usize);
            let mut mover = self.take(to);
            if m.promotion().is_some() {
                mover.kind = Kind::Pawn;
            }
            self.put(from, mover);
            if u.captured != 0 {
                self.put(u.captured_sq as usize, MitosisPiece::from_code(u.captured));
                for (i, kind) in Parts::KINDS.iter().enumerate() {
                    for sq in u.lost_minors[i].iter() {
                        self.put(
                            sq,
                            MitosisPiece {
                                color: !us,
                                kind: *kind,
                            },
                        );
                    }
                }
            }
        }
        self.pending = u.pending;
        self.ep = u.ep;
        self.clock = u.clock;
        self.key = u.key;
    }

    /// Number of `side`'s pieces on the main board (rules/mitosis.md 6: n_W, n_B).
    #[inline(always)]
    pub fn main_count(&self, side: Color) -> u32 {
        (self.colors[side.index()] & MAIN).count()
    }

    /// Count of `side`'s main-board pieces of `kind`.
    #[inline(always)]
    pub fn main_kind_count(&self, side: Color, kind: Kind) -> u32 {
        (self.pieces(side, kind) & MAIN).count()
    }
}
