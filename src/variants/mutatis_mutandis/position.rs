//! The Mutatis Mutandis position (rules/mutatis-mutandis.md 2, 4, 5, 8-11): the board of
//! pieces, the side to move, cornering flags, clocks, both reserves, and make/unmake of a turn
//! with its morph, promotion, drop and flag updates.
//!
//! `make` patches the board through one writer (`play_turn`) that the legality test also
//! uses on a scratch board, so the rules of a turn's effect are written once. Each write is
//! logged in a small `Copy` undo record (square, previous piece) and restored in reverse.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::LazyLock;

use crate::core::{zobrist, Color, Square};
use crate::variants::network::NetAccumulator;

use super::action::{Action, ActionKind, NO_SQUARE};
use super::board::{bit, file_of, iter, Bb, Board};
use super::network;
use super::piece::{Piece, State, STATE_COUNT};

/// Reserve slots: `drops made + reserve length` may not exceed this (rules 11 `reserve:` and
/// `drops:`; a real game uses 13).
pub const MAX_SLOTS: usize = 48;

/// Cornering flag bits (rules 9, 11): White's King, a1 piece and h1 piece unmoved, then
/// Blue's (`KAHkah`).
pub mod flag {
    /// White's King unmoved (`K`).
    pub const WK: u8 = 1;
    /// White's a1 piece unmoved (`A`).
    pub const WA: u8 = 2;
    /// White's h1 piece unmoved (`H`).
    pub const WH: u8 = 4;
    /// Blue's King unmoved (`k`).
    pub const BK: u8 = 8;
    /// Blue's a8 piece unmoved (`a`).
    pub const BA: u8 = 16;
    /// Blue's h8 piece unmoved (`h`).
    pub const BH: u8 = 32;

    /// The (King, a-corner, h-corner) flags of a side (0 = White, 1 = Blue).
    #[inline(always)]
    pub const fn of(side: usize) -> (u8, u8, u8) {
        if side == 0 {
            (WK, WA, WH)
        } else {
            (BK, BA, BH)
        }
    }
}

/// Home row (0-based rank row) of a side: rank 1 for White, rank 8 for Blue (rules 1).
#[inline(always)]
pub const fn home_row(c: Color) -> u8 {
    match c {
        Color::White => 0,
        Color::Black => 7,
    }
}

/// The squares of a side's home row.
#[inline(always)]
pub const fn home_bb(c: Color) -> Bb {
    0xFF << (8 * home_row(c) as u32)
}

/// A side's reserve (rules 3, 8, 10): pieces in drop order. Drops take the first piece,
/// promotions the last. Stored as slots `head..tail` of a fixed array where `head` is the
/// number of drops made (rules 11 `drops:`), so a drop or a promotion only moves an index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reserve {
    slots: [State; MAX_SLOTS],
    head: u8,
    tail: u8,
}

impl Default for Reserve {
    fn default() -> Self {
        Reserve {
            slots: [State::Queen; MAX_SLOTS],
            head: 0,
            tail: 0,
        }
    }
}

impl Reserve {
    /// A reserve holding `pieces` in drop order after `drops` drops.
    ///
    /// Errors: when `drops + pieces.len()` exceeds [`MAX_SLOTS`].
    pub fn new(drops: usize, pieces: &[State]) -> Result<Reserve, String> {
        if drops + pieces.len() > MAX_SLOTS {
            return Err(format!(
                "drops made plus reserve length is {}, more than {MAX_SLOTS}",
                drops + pieces.len()
            ));
        }
        let mut r = Reserve {
            head: drops as u8,
            tail: (drops + pieces.len()) as u8,
            ..Reserve::default()
        };
        r.slots[drops..drops + pieces.len()].copy_from_slice(pieces);
        Ok(r)
    }

    /// The pieces still to come, in drop order.
    #[inline(always)]
    pub fn pieces(&self) -> &[State] {
        &self.slots[self.head as usize..self.tail as usize]
    }

    /// Number of pieces left.
    #[inline(always)]
    pub fn len(&self) -> usize {
        (self.tail - self.head) as usize
    }

    /// Whether no piece is left.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.tail == self.head
    }

    /// Drops made so far (rules 11 `drops:`).
    #[inline(always)]
    pub fn drops_made(&self) -> u8 {
        self.head
    }

    /// The piece the next drop places (rules 8: the first).
    #[inline(always)]
    pub fn first(&self) -> Option<State> {
        self.pieces().first().copied()
    }

    /// The piece the next promotion takes (rules 10: the last).
    #[inline(always)]
    pub fn last(&self) -> Option<State> {
        self.pieces().last().copied()
    }
}

/// Whether a side's next drop may be made, and whether it is mandatory (rules 8).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DropWindow {
    /// No drop this turn (window not open, or the reserve is empty).
    Closed,
    /// A drop may be made.
    Open,
    /// The window's last turn has come (or passed): every legal turn must drop if one can.
    Mandatory,
}

/// The drop window of `side` at full-move number `full` after `drops` drops (rules 8): the
/// k-th drop (k = drops + 1) may be made on turns 5k+1..5k+5 (Blue) or 5k+2..5k+6 (White),
/// and stays pending and mandatory after the window's last turn [D 6].
#[inline]
pub fn drop_window(side: Color, full: u16, drops: u8) -> DropWindow {
    let k = drops as i32 + 1;
    let start = 5 * k + if side == Color::White { 2 } else { 1 };
    let f = full as i32;
    if f < start {
        DropWindow::Closed
    } else if f < start + 4 {
        DropWindow::Open
    } else {
        DropWindow::Mandatory
    }
}

/// The drop-window phase of a side as the key sees it: `lead = full - 5 * drops` (minus 1
/// for White), which fixes every future window of the side: the next one opens at lead 6 and
/// turns mandatory at lead 10 (rules 8). Clamped to -59..=10: above 10 nothing changes any
/// more, and a window more than 65 turns away is not told apart.
#[inline(always)]
fn phase_index(side: Color, full: u16, drops: u8) -> usize {
    let lead = full as i32 - 5 * drops as i32 - if side == Color::White { 1 } else { 0 };
    (lead.clamp(-59, 10) + 59) as usize
}

const PHASES: usize = 70;

pub(crate) struct Keys {
    piece: Vec<u64>,
    black: u64,
    corner: [u64; 64],
    ep: [u64; 64],
    ban: [u64; 64],
    slot: Vec<u64>,
    drops: [[u64; MAX_SLOTS + 1]; 2],
    phase: [[u64; PHASES]; 2],
}

impl Keys {
    #[inline(always)]
    pub(crate) fn piece(&self, p: Piece, sq: Square) -> u64 {
        self.piece[(p.color.index() * STATE_COUNT + p.state.index()) * 64 + sq as usize]
    }

    #[inline(always)]
    fn slot(&self, side: Color, i: usize, s: State) -> u64 {
        self.slot[(side.index() * MAX_SLOTS + i) * STATE_COUNT + s.index()]
    }
}

pub(crate) static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let pieces = 2 * STATE_COUNT * 64;
    let slots = 2 * MAX_SLOTS * STATE_COUNT;
    let n = pieces + 1 + 64 * 3 + slots + 2 * (MAX_SLOTS + 1) + 2 * PHASES;
    let k = zobrist::keys(0x004d_5554_4154_4953, n);
    let mut it = k.into_iter();
    let mut next = move || it.next().unwrap_or(1);
    let piece = (0..pieces).map(|_| next()).collect();
    let black = next();
    // Index 0 (no flag) keeps key 0.
    let mut corner = [0; 64];
    for c in corner.iter_mut().skip(1) {
        *c = next();
    }
    let ep = std::array::from_fn(|_| next());
    let ban = std::array::from_fn(|_| next());
    let slot = (0..slots).map(|_| next()).collect();
    let drops = std::array::from_fn(|_| std::array::from_fn(|_| next()));
    let phase = std::array::from_fn(|_| std::array::from_fn(|_| next()));
    Keys {
        piece,
        black,
        corner,
        ep,
        ban,
        slot,
        drops,
        phase,
    }
});

/// Writes logged by `play_turn` at most: the action's squares and captures, the cornering
/// squares, the drop (rules 6, 7, 9, 8), with room to spare.
pub const MAX_WRITES: usize = 16;

/// What `unmake` restores (a `Copy` record on the position's undo stack).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo {
    writes: [(Square, Option<Piece>); MAX_WRITES],
    n: u8,
    ep: Option<Square>,
    swap_ban: Option<(Square, Square)>,
    corner: u8,
    half: u16,
    full: u16,
    ends: [(u8, u8); 2],
    piece_key: u64,
    reserve_key: u64,
    danger: u8,
    null: bool,
}

/// Whether the side to move has an attacked royal piece, once computed for the current
/// position: 0 unknown, 1 no, 2 yes. The search asks twice per node (after `make`, and at the
/// child); the answer is kept until the position changes. Atomic only to keep the position
/// `Sync`: each search thread owns its copy.
#[derive(Debug, Default)]
pub(crate) struct DangerCache(AtomicU8);

impl Clone for DangerCache {
    fn clone(&self) -> Self {
        DangerCache(AtomicU8::new(self.0.load(Relaxed)))
    }
}

impl DangerCache {
    #[inline(always)]
    pub(crate) fn get(&self) -> u8 {
        self.0.load(Relaxed)
    }
    #[inline(always)]
    pub(crate) fn set(&self, v: u8) {
        self.0.store(v, Relaxed)
    }
}

/// A Mutatis Mutandis position (rules 11 lists its state).
#[derive(Clone)]
pub struct MutatisMutandis {
    pub(crate) board: Board,
    pub(crate) side: Color,
    /// Cornering flags ([`flag`]).
    pub(crate) corner: u8,
    /// Plies since the last removal, pawn-family move, drop, promotion or conversion (rules 5).
    pub(crate) half: u16,
    /// Full-move number: starts at 1, grows after Blue's turn (rules 1 [D 4]).
    pub(crate) full: u16,
    pub(crate) reserve: [Reserve; 2],
    /// Zobrist key of the pieces on the board (kept incrementally).
    pub(crate) piece_key: u64,
    /// Zobrist key of both reserves' contents by slot (kept incrementally).
    pub(crate) reserve_key: u64,
    pub(crate) stack: Vec<Undo>,
    /// Repetition keys of the positions before each ply played, for threefold (rules 5).
    pub(crate) history: Vec<u64>,
    /// Whether a royal of the side to move is attacked, once known.
    pub(crate) danger: DangerCache,
    /// The network's first-layer sums, kept through make/unmake (docs/networks.md).
    pub(crate) acc: NetAccumulator,
}

/// How one turn changes the board, for [`play_turn`]: the action, the promotion piece of a
/// promoting pawn (rules 10), and the piece a drop places.
#[derive(Copy, Clone, Debug)]
pub(crate) struct TurnEffect {
    pub action: Action,
    /// The state a promoting pawn becomes (the last reserve piece of its owner, or `Q`).
    pub promo: State,
    /// The drop: square and piece (rules 8).
    pub drop: Option<(Square, Piece)>,
}

/// The squares a King and its corner piece end on in cornering (rules 9 table): `(king_to,
/// piece_to, must_be_empty, must_not_be_attacked)`, for a King on `king` (file b..g of its
/// home row) and the corner `corner` (file a or h of the same row); `None` when the table has
/// no such row.
pub fn corner_plan(king: Square, corner: Square) -> Option<(Square, Square, Bb, Bb)> {
    let row = king & !7;
    if corner & !7 != row {
        return None;
    }
    let s = |f: u8| row + f;
    let bits = |fs: &[u8]| fs.iter().fold(0u64, |m, &f| m | bit(row + f));
    let (k, c) = (file_of(king), file_of(corner));
    // files: a=0 .. h=7
    Some(match (k, c) {
        (1, 0) => (s(1), s(2), bits(&[2]), bits(&[1])),
        (2, 0) => (s(2), s(3), bits(&[1, 3]), bits(&[2])),
        (3, 0) => (s(1), s(2), bits(&[1, 2]), bits(&[3, 2])),
        (3, 7) => (s(5), s(4), bits(&[4, 5, 6]), bits(&[3, 4])),
        (4, 0) => (s(2), s(3), bits(&[1, 2, 3]), bits(&[4, 3])),
        (4, 7) => (s(6), s(5), bits(&[5, 6]), bits(&[4, 5])),
        (5, 7) => (s(5), s(4), bits(&[4, 6]), bits(&[5])),
        (6, 7) => (s(6), s(5), bits(&[5]), bits(&[6])),
        _ => return None,
    })
}

#[inline(always)]
fn morphed(p: Piece) -> Piece {
    Piece::new(p.color, p.state.next())
}

/// Writes `new` on `sq` of `b` and reports `(sq, old, new)` to `log`.
#[inline(always)]
fn write<F: FnMut(Square, Option<Piece>, Option<Piece>)>(
    b: &mut Board,
    sq: Square,
    new: Option<Piece>,
    log: &mut F,
) {
    let old = b.piece(sq);
    match new {
        Some(p) => b.put(sq, p),
        None => {
            b.remove(sq);
        }
    }
    log(sq, old, new);
}

/// Plays the board part of a turn on `b` (rules 2, 4, 6, 7, 9, 10): the action with its
/// captures, the promotion of a pawn ending on its promotion rank, the morph of the acting
/// piece(s), then the drop. Every square write is reported to `log` as `(square, old, new)`,
/// so callers can keep keys and undo records; the board's en-passant square and swap ban are
/// not touched. `make` and the legality test both use it.
pub(crate) fn play_turn<F: FnMut(Square, Option<Piece>, Option<Piece>)>(
    b: &mut Board,
    t: &TurnEffect,
    log: &mut F,
) {
    let a = &t.action;
    let promote = |p: Piece| Piece::new(p.color, t.promo);
    match a.kind {
        ActionKind::Move => {
            let p = b.piece(a.from);
            write(b, a.from, None, log);
            for sq in iter(a.captures & !bit(a.to)) {
                write(b, sq, None, log);
            }
            if let Some(p) = p {
                let q = if a.promotes { promote(p) } else { morphed(p) };
                write(b, a.to, Some(q), log);
            }
        }
        ActionKind::Swap => {
            let p = b.piece(a.from);
            let q = b.piece(a.to);
            for sq in iter(a.captures) {
                write(b, sq, None, log);
            }
            write(b, a.to, p.map(morphed), log);
            write(b, a.from, q, log);
        }
        ActionKind::Sling => {
            let ox = b.piece(a.from);
            let slung = b.piece(a.from2);
            write(b, a.from, None, log);
            write(b, a.to, ox.map(morphed), log);
            write(b, a.from2, None, log);
            for sq in iter(a.captures & !bit(a.to2)) {
                write(b, sq, None, log);
            }
            if let Some(s) = slung {
                let s = if a.promotes { promote(s) } else { s };
                write(b, a.to2, Some(s), log);
            }
        }
        ActionKind::Shot => {
            for sq in iter(a.captures) {
                write(b, sq, None, log);
            }
            let shooter = b.piece(a.from);
            write(b, a.from, shooter.map(morphed), log);
        }
        ActionKind::MutualDestruction | ActionKind::Suicide => {
            for sq in iter(a.captures) {
                write(b, sq, None, log);
            }
        }
        ActionKind::Convert => {
            let target = b.piece(a.to);
            write(b, a.to, target.map(|p| Piece::new(!p.color, p.state)), log);
            let mk = b.piece(a.from);
            write(b, a.from, mk.map(morphed), log);
        }
        ActionKind::Corner => {
            let king = b.piece(a.from);
            let piece = b.piece(a.to);
            if let Some((kt, pt, _, _)) = corner_plan(a.from, a.to) {
                write(b, a.from, None, log);
                write(b, a.to, None, log);
                write(b, kt, king.map(morphed), log);
                write(b, pt, piece.map(morphed), log);
            }
        }
    }
    if let Some((sq, p)) = t.drop {
        write(b, sq, Some(p), log);
    }
}

/// Takes back the writes `(square, old)` of [`play_turn`], newest first.
#[inline]
pub(crate) fn unwrite(b: &mut Board, writes: &[(Square, Option<Piece>)]) {
    for &(sq, old) in writes.iter().rev() {
        match old {
            Some(p) => b.put(sq, p),
            None => {
                b.remove(sq);
            }
        }
    }
}

impl MutatisMutandis {
    /// An empty board, White to move, turn 1, no flags, empty reserves.
    pub(crate) fn empty() -> MutatisMutandis {
        MutatisMutandis {
            board: Board::empty(),
            side: Color::White,
            corner: 0,
            half: 0,
            full: 1,
            reserve: [Reserve::default(); 2],
            piece_key: 0,
            reserve_key: 0,
            stack: Vec::with_capacity(256),
            history: Vec::with_capacity(256),
            danger: DangerCache::default(),
            acc: NetAccumulator::default(),
        }
    }

    /// The board of pieces.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// A side's reserve.
    #[inline(always)]
    pub fn reserve(&self, c: Color) -> &Reserve {
        &self.reserve[c.index()]
    }

    /// The cornering flags ([`flag`] bits).
    #[inline(always)]
    pub fn corner_flags(&self) -> u8 {
        self.corner
    }

    /// The halfmove clock of rules 5 (plies).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.half
    }

    /// The full-move number (rules 1 [D 4]).
    #[inline(always)]
    pub fn fullmove(&self) -> u16 {
        self.full
    }

    /// The drop window of `c` now (rules 8); `Closed` when its reserve is empty.
    #[inline]
    pub fn drop_window(&self, c: Color) -> DropWindow {
        let r = &self.reserve[c.index()];
        if r.is_empty() {
            DropWindow::Closed
        } else {
            drop_window(c, self.full, r.drops_made())
        }
    }

    /// Recomputes the incremental keys and the network's kept sums from scratch (after a FEN
    /// is parsed or a setup drawn).
    pub(crate) fn refresh_keys(&mut self) {
        self.piece_key = self.piece_key_from_scratch();
        self.reserve_key = self.reserve_key_from_scratch();
        self.acc = NetAccumulator::new(&*self, 256);
    }

    /// The pieces' key computed from the board alone.
    pub(crate) fn piece_key_from_scratch(&self) -> u64 {
        let k = &*KEYS;
        let mut key = 0;
        for sq in iter(self.board.occupied()) {
            if let Some(p) = self.board.piece(sq) {
                key ^= k.piece(p, sq);
            }
        }
        key
    }

    /// The reserves' key computed from the reserves alone.
    pub(crate) fn reserve_key_from_scratch(&self) -> u64 {
        let k = &*KEYS;
        let mut key = 0;
        for c in Color::ALL {
            let r = &self.reserve[c.index()];
            for i in r.head as usize..r.tail as usize {
                key ^= k.slot(c, i, r.slots[i]);
            }
        }
        key
    }

    /// The repetition key (rules 5: the FEN without its clocks): pieces, side, flags, en
    /// passant, swap ban, reserves and drop counts.
    #[inline]
    pub fn repetition_key(&self) -> u64 {
        let k = &*KEYS;
        let mut key = self.piece_key ^ self.reserve_key ^ k.corner[self.corner as usize];
        if self.side == Color::Black {
            key ^= k.black;
        }
        if let Some(ep) = self.board.ep {
            key ^= k.ep[ep as usize];
        }
        if let Some((x, y)) = self.board.swap_ban {
            key ^= k.ban[x as usize] ^ k.ban[y as usize].rotate_left(17);
        }
        for c in Color::ALL {
            key ^= k.drops[c.index()][self.reserve[c.index()].head as usize];
        }
        key
    }

    /// The zobrist key of everything that decides the future: the repetition key plus each
    /// side's drop-window phase (it depends on the full-move number, rules 8).
    #[inline]
    pub fn key(&self) -> u64 {
        let k = &*KEYS;
        let mut key = self.repetition_key();
        for c in Color::ALL {
            let r = &self.reserve[c.index()];
            if !r.is_empty() {
                key ^= k.phase[c.index()][phase_index(c, self.full, r.head)];
            }
        }
        key
    }

    /// The piece that promotes in `a` (the mover, or the slung piece), if any.
    #[inline]
    pub(crate) fn promoting_piece(&self, a: &Action) -> Option<Piece> {
        if !a.promotes {
            return None;
        }
        match a.kind {
            ActionKind::Sling => self.board.piece(a.from2),
            _ => self.board.piece(a.from),
        }
    }

    /// The state a pawn of `c` promotes to now (rules 10): the last piece of `c`'s reserve,
    /// or a Queen when it is empty.
    #[inline(always)]
    pub fn promotion_state(&self, c: Color) -> State {
        self.reserve[c.index()].last().unwrap_or(State::Queen)
    }

    /// Plays a legal turn: the action (with captures, promotion and morph), then the drop,
    /// then the flags, en passant, swap ban and clocks (rules 2, 4, 8, 9, 10, 5).
    pub(crate) fn make_turn(&mut self, a: Action, drop: Square) {
        let us = self.side;
        crate::variants::network::open_ply(self);
        // Without a network the records are skipped (`NetAccumulator::recording`).
        let record = self.acc.recording();
        let sides_before = if record {
            network::all_side_offsets(self)
        } else {
            [0; 2]
        };
        self.history.push(self.repetition_key());
        let mut u = Undo {
            writes: [(0, None); MAX_WRITES],
            n: 0,
            ep: self.board.ep,
            swap_ban: self.board.swap_ban,
            corner: self.corner,
            half: self.half,
            full: self.full,
            ends: [
                (self.reserve[0].head, self.reserve[0].tail),
                (self.reserve[1].head, self.reserve[1].tail),
            ],
            piece_key: self.piece_key,
            reserve_key: self.reserve_key,
            danger: self.danger.get(),
            null: false,
        };
        let k = &*KEYS;
        // What the action does before the board changes.
        let actor = self.board.piece(a.from);
        let promoting = self.promoting_piece(&a);
        let mut promo = State::Queen;
        if let Some(p) = promoting {
            let r = &mut self.reserve[p.color.index()];
            if let Some(s) = r.last() {
                promo = s;
                r.tail -= 1;
                self.reserve_key ^= k.slot(p.color, r.tail as usize, s);
            }
        }
        let drop_piece = if drop != NO_SQUARE {
            let r = &mut self.reserve[us.index()];
            let s = r.first().unwrap_or(State::Queen);
            self.reserve_key ^= k.slot(us, r.head as usize, s);
            r.head += 1;
            Some((drop, Piece::new(us, s)))
        } else {
            None
        };
        let effect = TurnEffect {
            action: a,
            promo,
            drop: drop_piece,
        };
        let mut piece_key = self.piece_key;
        {
            let writes = &mut u.writes;
            let n = &mut u.n;
            let acc = &mut self.acc;
            play_turn(&mut self.board, &effect, &mut |sq, old, new| {
                if let Some(p) = old {
                    piece_key ^= k.piece(p, sq);
                    if record {
                        acc.sub(network::piece_inputs(p, sq));
                    }
                }
                if let Some(p) = new {
                    piece_key ^= k.piece(p, sq);
                    if record {
                        acc.add(network::piece_inputs(p, sq));
                    }
                }
                writes[*n as usize] = (sq, old);
                *n += 1;
            });
        }
        self.piece_key = piece_key;

        // Cornering flags (rules 9, [D 22]).
        let touched = bit(a.from)
            | bit(a.to)
            | if a.from2 != NO_SQUARE {
                bit(a.from2)
            } else {
                0
            }
            | if a.to2 != NO_SQUARE { bit(a.to2) } else { 0 }
            | a.captures;
        for side in 0..2 {
            let (fk, fa, fh) = flag::of(side);
            let row = if side == 0 { 0 } else { 56 };
            if touched & bit(row) != 0 {
                self.corner &= !fa;
            }
            if touched & bit(row + 7) != 0 {
                self.corner &= !fh;
            }
            if self.corner & fk != 0 {
                let c = Color::ALL[side];
                let kings = u.writes[..u.n as usize].iter().any(
                    |&(_, old)| matches!(old, Some(p) if p.color == c && p.state.family() == 1),
                );
                if kings {
                    self.corner &= !fk;
                }
            }
        }
        if let Some((sq, _)) = drop_piece {
            let (fk, fa, fh) = flag::of(us.index());
            if self.corner & fk != 0 {
                if file_of(sq) == 0 {
                    self.corner |= fa;
                } else if file_of(sq) == 7 {
                    self.corner |= fh;
                }
            }
        }

        // En passant (rules 10 [D 19]) and the swap-back ban (rules 7.3).
        self.board.ep = None;
        self.board.swap_ban = None;
        if let Some(p) = actor {
            if a.kind == ActionKind::Move
                && p.state == State::Pawn
                && (a.to as i32 - a.from as i32).abs() == 16
            {
                self.board.ep = Some((a.from + a.to) / 2);
            }
            if a.kind == ActionKind::Swap {
                if let Some(q) = self.board.piece(a.from) {
                    if q.color != us && matches!(q.state, State::Swapper | State::Chameleon) {
                        self.board.swap_ban = Some((a.from, a.to));
                    }
                }
            }
        }

        // The 50-move clock (rules 5 [D 28]).
        let resets = a.captures != 0
            || promoting.is_some()
            || drop_piece.is_some()
            || a.kind == ActionKind::Convert
            || (a.kind == ActionKind::Move && actor.is_some_and(|p| p.state.is_pawn()));
        self.half = if resets {
            0
        } else {
            self.half.saturating_add(1)
        };
        if us == Color::Black {
            self.full = self.full.saturating_add(1);
        }
        self.side = !us;
        self.danger.set(0);
        self.stack.push(u);
        if record {
            let sides_after = network::all_side_offsets(self);
            network::record_side_changes(&sides_before, &sides_after, &mut self.acc);
        }
    }

    /// Passes the turn (null move, for the search): side, en passant and swap ban change.
    pub(crate) fn make_null_turn(&mut self) {
        crate::variants::network::open_ply(self);
        let record = self.acc.recording();
        let sides_before = if record {
            network::all_side_offsets(self)
        } else {
            [0; 2]
        };
        self.history.push(self.repetition_key());
        let u = Undo {
            writes: [(0, None); MAX_WRITES],
            n: 0,
            ep: self.board.ep,
            swap_ban: self.board.swap_ban,
            corner: self.corner,
            half: self.half,
            full: self.full,
            ends: [
                (self.reserve[0].head, self.reserve[0].tail),
                (self.reserve[1].head, self.reserve[1].tail),
            ],
            piece_key: self.piece_key,
            reserve_key: self.reserve_key,
            danger: self.danger.get(),
            null: true,
        };
        self.board.ep = None;
        self.board.swap_ban = None;
        self.half = self.half.saturating_add(1);
        if self.side == Color::Black {
            self.full = self.full.saturating_add(1);
        }
        self.side = !self.side;
        self.danger.set(0);
        self.stack.push(u);
        if record {
            let sides_after = network::all_side_offsets(self);
            network::record_side_changes(&sides_before, &sides_after, &mut self.acc);
        }
    }

    /// Takes back the last turn (or null move).
    pub(crate) fn unmake_turn(&mut self) {
        let Some(u) = self.stack.pop() else {
            return;
        };
        self.acc.pop();
        self.history.pop();
        if !u.null {
            unwrite(&mut self.board, &u.writes[..u.n as usize]);
        }
        self.board.ep = u.ep;
        self.board.swap_ban = u.swap_ban;
        self.corner = u.corner;
        self.half = u.half;
        self.full = u.full;
        for (r, (h, t)) in self.reserve.iter_mut().zip(u.ends) {
            r.head = h;
            r.tail = t;
        }
        self.piece_key = u.piece_key;
        self.reserve_key = u.reserve_key;
        self.danger.set(u.danger);
        self.side = !self.side;
    }

    /// How often the current position occurred before (rules 5 threefold: the FEN without
    /// clocks), counting back to the last irreversible ply, stopping after `stop_after`.
    pub(crate) fn repetitions(&self, stop_after: usize) -> usize {
        let n = self.history.len();
        let reach = (self.half as usize).min(n);
        crate::core::repetition::count(self.repetition_key(), reach, stop_after, |i| {
            self.history[n - i]
        })
    }

    /// Repetition as the search sees it (once inside the tree, twice before the root).
    pub(crate) fn is_repetition(&self, plies_from_root: usize) -> bool {
        let n = self.history.len();
        let reach = (self.half as usize).min(n);
        crate::core::repetition::in_search(self.repetition_key(), reach, plies_from_root, |i| {
            self.history[n - i]
        })
    }
}
