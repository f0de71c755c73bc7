//! The Mulligan Stew position and its make/unmake (rules/mulligan-stew.md 4, 5, 6, 7).
//!
//! The board is a mailbox plus bitboards per colour and per kind; the turn state is the side
//! to move, the portion (L or D) and the `moved` square of the D portion. `make` patches the
//! board and pushes a small `Copy` undo record; `unmake` restores it.

use std::sync::LazyLock;

use super::board::{Kind, Piece, DARK, LIGHT, NO_SQ, NSQ};
use super::moves::{Action, MulliganStewMove};
use super::network;
use crate::core::{repetition, zobrist, Color, Square};
use crate::variants::network::NetAccumulator;

/// Largest pool count per type that a FEN may give (and the zobrist table covers).
pub const MAX_POOL: u8 = 15;

pub(crate) struct Keys {
    pub piece: [[u64; NSQ]; 15],
    pub black: u64,
    pub portion_d: u64,
    pub moved: [u64; NSQ],
    pub hand: [u64; 2],
    pub pool: [[[u64; MAX_POOL as usize + 1]; 5]; 2],
}

pub(crate) static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let n_pool = MAX_POOL as usize + 1;
    let k = zobrist::keys(0x5354_4557, 15 * NSQ + 2 + NSQ + 2 + 2 * 5 * n_pool);
    let mut i = 0;
    let mut next = || {
        i += 1;
        k[i - 1]
    };
    let mut piece = [[0; NSQ]; 15];
    for p in piece.iter_mut().skip(1) {
        for s in p.iter_mut() {
            *s = next();
        }
    }
    let black = next();
    let portion_d = next();
    let moved = std::array::from_fn(|_| next());
    let hand = [next(), next()];
    let mut pool = [[[0; MAX_POOL as usize + 1]; 5]; 2];
    for side in pool.iter_mut() {
        for t in side.iter_mut() {
            for c in t.iter_mut() {
                *c = next();
            }
        }
    }
    Keys {
        piece,
        black,
        portion_d,
        moved,
        hand,
        pool,
    }
});

/// What `unmake` needs to take a ply back.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo {
    pub mv: MulliganStewMove,
    /// What stood on `from` and `to` before the ply.
    pub from_piece: Piece,
    pub to_piece: Piece,
    pub side: Color,
    pub portion_d: bool,
    pub moved: Square,
    pub hand: [bool; 2],
    pub pool: [[u8; 5]; 2],
    pub clock: u16,
    pub fullmove: u16,
    pub key: u64,
    pub state_key: u64,
}

/// A Mulligan Stew position (rules/mulligan-stew.md 7 lists its state): board, hands, pools,
/// side, portion, `moved` square, clock and fullmove number, plus the undo stack and the key
/// history for repetition.
#[derive(Clone)]
pub struct MulliganStew {
    pub(crate) board: [Piece; NSQ],
    pub(crate) by_color: [u64; 2],
    pub(crate) by_kind: [u64; 7],
    pub(crate) side: Color,
    pub(crate) portion_d: bool,
    pub(crate) moved: Square,
    pub(crate) hand: [bool; 2],
    pub(crate) pool: [[u8; 5]; 2],
    pub(crate) clock: u16,
    pub(crate) fullmove: u16,
    /// Zobrist key of the pieces alone (kept incrementally).
    pub(crate) piece_key: u64,
    /// Zobrist key of the rest of the state (side, portion, moved, hands, pools).
    pub(crate) state_key: u64,
    pub(crate) stack: Vec<Undo>,
    /// Keys of the positions before each ply played (index = ply), for repetition.
    pub(crate) history: Vec<u64>,
    /// The network's first-layer sums, kept through make/unmake.
    pub(crate) acc: NetAccumulator,
}

impl MulliganStew {
    /// An empty board, White to move in the L portion, empty hands and pools.
    pub(crate) fn empty() -> MulliganStew {
        MulliganStew {
            board: [Piece::NONE; NSQ],
            by_color: [0; 2],
            by_kind: [0; 7],
            side: Color::White,
            portion_d: false,
            moved: NO_SQ,
            hand: [false; 2],
            pool: [[0; 5]; 2],
            clock: 0,
            fullmove: 1,
            piece_key: 0,
            state_key: 0,
            stack: Vec::with_capacity(512),
            history: Vec::with_capacity(512),
            acc: NetAccumulator::default(),
        }
    }

    /// The piece on `sq` (`Piece::NONE` when empty).
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq as usize]
    }

    /// The squares of `side`'s pieces.
    #[inline(always)]
    pub fn color_bb(&self, side: Color) -> u64 {
        self.by_color[side.index()]
    }

    /// The squares of `side`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces(&self, side: Color, kind: Kind) -> u64 {
        self.by_color[side.index()] & self.by_kind[kind.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    /// Whether the D portion is next (else the L portion; rules 5).
    #[inline(always)]
    pub fn is_d_portion(&self) -> bool {
        self.portion_d
    }

    /// The square of the piece moved in this turn's L portion (D portion only), or `None`.
    pub fn moved_square(&self) -> Option<Square> {
        (self.moved != NO_SQ).then_some(self.moved)
    }

    /// Whether `side` still holds the Mage in hand (rules 2, 4).
    #[inline(always)]
    pub fn in_hand(&self, side: Color) -> bool {
        self.hand[side.index()]
    }

    /// How many pieces of pool type `kind` (Q R C A M) `side` has in its pool (rules 4).
    pub fn pool_count(&self, side: Color, kind: Kind) -> u8 {
        kind.pool_index().map_or(0, |i| self.pool[side.index()][i])
    }

    /// The clock of rules 7.4 in plies (portions).
    pub fn clock(&self) -> u16 {
        self.clock
    }

    /// The squares of the portion being played: light in L, dark in D (rules 5).
    #[inline(always)]
    pub fn portion_squares(&self) -> u64 {
        if self.portion_d {
            DARK
        } else {
            LIGHT
        }
    }

    /// Puts `p` on the empty square `sq` (bitboards and piece key).
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        let b = 1u64 << sq;
        self.board[sq as usize] = p;
        self.by_color[p.color().index()] |= b;
        self.by_kind[p.kind().index()] |= b;
        self.piece_key ^= KEYS.piece[p.0 as usize][sq as usize];
    }

    /// Removes the piece `p` standing on `sq`.
    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square, p: Piece) {
        let b = 1u64 << sq;
        self.board[sq as usize] = Piece::NONE;
        self.by_color[p.color().index()] ^= b;
        self.by_kind[p.kind().index()] ^= b;
        self.piece_key ^= KEYS.piece[p.0 as usize][sq as usize];
    }

    /// Replaces whatever stands on `sq` by `p` (either may be empty).
    #[inline(always)]
    fn set(&mut self, sq: Square, p: Piece) {
        let old = self.board[sq as usize];
        if !old.is_none() {
            self.remove(sq, old);
        }
        if !p.is_none() {
            self.put(sq, p);
        }
    }

    /// The state part of the key computed from the fields.
    pub(crate) fn compute_state_key(&self) -> u64 {
        let k = &*KEYS;
        let mut x = 0;
        if self.side == Color::Black {
            x ^= k.black;
        }
        if self.portion_d {
            x ^= k.portion_d;
            if self.moved != NO_SQ {
                x ^= k.moved[self.moved as usize];
            }
        }
        for s in 0..2 {
            if self.hand[s] {
                x ^= k.hand[s];
            }
            for t in 0..5 {
                x ^= k.pool[s][t][self.pool[s][t].min(MAX_POOL) as usize];
            }
        }
        x
    }

    /// The zobrist key computed from scratch (for tests of the incremental key).
    pub fn compute_key(&self) -> u64 {
        let mut x = 0;
        for (sq, p) in self.board.iter().enumerate() {
            if !p.is_none() {
                x ^= KEYS.piece[p.0 as usize][sq];
            }
        }
        x ^ self.compute_state_key()
    }

    /// Whether `side` has no King left (rules 6: that side has lost).
    #[inline(always)]
    pub fn kingless(&self, side: Color) -> bool {
        self.pieces(side, Kind::King) == 0
    }

    /// Whether `side` may promote to pool type `kind` now: one in the pool, and for a Queen
    /// no Queen of `side` on the board (rules 4).
    #[inline(always)]
    pub fn can_promote_to(&self, side: Color, kind: Kind) -> bool {
        match kind.pool_index() {
            Some(i) => {
                self.pool[side.index()][i] > 0
                    && (kind != Kind::Queen || self.pieces(side, Kind::Queen) == 0)
            }
            None => false,
        }
    }

    /// Plays a legal portion (rules 3-5): captures fill the owner's pool, promotions empty
    /// ours, the clock counts plies since the last irreversible portion, and the turn passes
    /// after the D portion, or at once when the L portion took the last enemy King (rules 6).
    pub(crate) fn make_move(&mut self, m: MulliganStewMove) {
        crate::variants::network::open_ply(self);
        // Without a network the records are skipped (`NetAccumulator::recording`), in a copy
        // of make without them.
        if self.acc.recording() {
            self.make_portion::<true>(m);
        } else {
            self.make_portion::<false>(m);
        }
    }

    /// [`MulliganStew::make_move`] after its ply is opened, recording the network's inputs when
    /// `RECORD`.
    #[inline(always)]
    fn make_portion<const RECORD: bool>(&mut self, m: MulliganStewMove) {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let action = m.action().unwrap_or(Action::Skip);
        let (from_piece, to_piece) = match action {
            Action::Drop | Action::Skip => (Piece::NONE, self.board[to as usize]),
            _ => (self.board[from as usize], self.board[to as usize]),
        };
        let key = self.key();
        self.stack.push(Undo {
            mv: m,
            from_piece,
            to_piece,
            side: self.side,
            portion_d: self.portion_d,
            moved: self.moved,
            hand: self.hand,
            pool: self.pool,
            clock: self.clock,
            fullmove: self.fullmove,
            key,
            state_key: self.state_key,
        });
        self.history.push(key);
        let mut reset = false;
        let mut dest = to;
        match action {
            Action::Normal | Action::Promotion => {
                if !to_piece.is_none() {
                    self.lift::<RECORD>(to, to_piece);
                    if let Some(i) = to_piece.kind().pool_index() {
                        let owner = &mut self.pool[to_piece.color().index()][i];
                        *owner = owner.saturating_add(1).min(MAX_POOL);
                    }
                    reset = true;
                }
                self.lift::<RECORD>(from, from_piece);
                let placed = if action == Action::Promotion {
                    let i = m.promo().pool_index().unwrap_or(0);
                    self.pool[us.index()][i] -= 1;
                    Piece::new(us, m.promo())
                } else {
                    from_piece
                };
                self.land::<RECORD>(to, placed);
                reset |= from_piece.kind() == Kind::Pawn;
            }
            Action::PromoteInPlace => {
                self.lift::<RECORD>(to, to_piece);
                let i = m.promo().pool_index().unwrap_or(0);
                self.pool[us.index()][i] -= 1;
                self.land::<RECORD>(to, Piece::new(us, m.promo()));
                reset = true;
            }
            Action::Drop => {
                self.land::<RECORD>(to, Piece::new(us, Kind::Mage));
                self.hand[us.index()] = false;
                reset = true;
            }
            Action::Swap => {
                self.lift::<RECORD>(from, from_piece);
                self.lift::<RECORD>(to, to_piece);
                self.land::<RECORD>(from, to_piece);
                self.land::<RECORD>(to, from_piece);
            }
            Action::Skip => dest = NO_SQ,
        }
        self.clock = if reset {
            0
        } else {
            self.clock.saturating_add(1)
        };
        if !self.portion_d && !self.kingless(!us) {
            self.portion_d = true;
            self.moved = dest;
        } else {
            self.portion_d = false;
            self.moved = NO_SQ;
            self.side = !us;
            if us == Color::Black {
                self.fullmove = self.fullmove.saturating_add(1);
            }
        }
        self.state_key = self.compute_state_key();
        if RECORD {
            self.record_state_changes();
        }
    }

    /// [`MulliganStew::remove`] in make: the network's accumulator records it when `RECORD`.
    #[inline(always)]
    fn lift<const RECORD: bool>(&mut self, sq: Square, p: Piece) {
        self.remove(sq, p);
        if RECORD {
            self.acc.sub(network::man_inputs(p, sq));
        }
    }

    /// [`MulliganStew::put`] in make: the network's accumulator records it when `RECORD`.
    #[inline(always)]
    fn land<const RECORD: bool>(&mut self, sq: Square, p: Piece) {
        self.put(sq, p);
        if RECORD {
            self.acc.add(network::man_inputs(p, sq));
        }
    }

    /// Records in the network's accumulator what the ply changed beside the men (hands and
    /// pools), against the state the last undo record saved.
    #[inline(always)]
    fn record_state_changes(&mut self) {
        let u = self.stack.last().expect("just pushed");
        let before = network::State {
            hand: u.hand,
            pool: u.pool,
        };
        let after = network::State {
            hand: self.hand,
            pool: self.pool,
        };
        network::record_state_changes(&before, &after, &mut self.acc);
    }

    /// Passes a whole turn (both portions skipped in one ply, for null-move pruning at the
    /// start of an L portion); undone by [`MulliganStew::unmake_move`].
    pub(crate) fn make_null_turn(&mut self) {
        crate::variants::network::open_ply(self);
        let key = self.key();
        self.stack.push(Undo {
            mv: MulliganStewMove::SKIP,
            from_piece: Piece::NONE,
            to_piece: Piece::NONE,
            side: self.side,
            portion_d: self.portion_d,
            moved: self.moved,
            hand: self.hand,
            pool: self.pool,
            clock: self.clock,
            fullmove: self.fullmove,
            key,
            state_key: self.state_key,
        });
        // One history entry for two plies: repetitions across a null move are not seen
        // (offsets of the same side and portion then differ by an odd number).
        self.history.push(key);
        self.clock = self.clock.saturating_add(2);
        self.portion_d = false;
        self.moved = NO_SQ;
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = !self.side;
        self.state_key = self.compute_state_key();
    }

    /// Takes back the last portion.
    pub(crate) fn unmake_move(&mut self) {
        let u = self.stack.pop().expect("unmake without a ply to take back");
        self.history.pop();
        self.acc.pop();
        let (from, to) = (u.mv.from(), u.mv.to());
        match u.mv.action() {
            Some(Action::Drop) => self.set(to, Piece::NONE),
            Some(Action::Skip) | None => {}
            Some(Action::PromoteInPlace) => self.set(to, u.to_piece),
            _ => {
                self.set(from, u.from_piece);
                self.set(to, u.to_piece);
            }
        }
        self.side = u.side;
        self.portion_d = u.portion_d;
        self.moved = u.moved;
        self.hand = u.hand;
        self.pool = u.pool;
        self.clock = u.clock;
        self.fullmove = u.fullmove;
        self.state_key = u.state_key;
        debug_assert_eq!(self.piece_key ^ self.state_key, u.key);
    }

    /// The full zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.piece_key ^ self.state_key
    }

    /// Earlier occurrences (up to `stop_after`) of the current position at the start of an L
    /// portion, within the clock's reach (rules 6: threefold repetition).
    pub(crate) fn repetitions(&self, stop_after: usize) -> usize {
        let n = self.history.len();
        let reach = (self.clock as usize).min(n);
        repetition::count(self.key(), reach, stop_after, |i| self.history[n - i])
    }

    /// Repetition as the search sees it (once inside the tree, twice before the root).
    pub(crate) fn is_repetition(&self, plies_from_root: usize) -> bool {
        let n = self.history.len();
        let reach = (self.clock as usize).min(n);
        repetition::in_search(self.key(), reach, plies_from_root, |i| self.history[n - i])
    }
}
