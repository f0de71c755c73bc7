//! The Mystic Chess position: the orthodox [`Board`], the side to move, the en passant square,
//! the clocks, and the economy (coins, the bought counter, the FEN's en passant field);
//! make/unmake of board moves (their men moved by [`crate::variants::orthodox::make`]),
//! purchases and upgrades with an undo stack; FEN input/output.

use std::sync::LazyLock;

use super::{network, upgrade_cost, MysticMove, BUYS_FOR_UPGRADES, START_COINS, STOCK_LIMIT};
use crate::core::{repetition, zobrist, Color};
use crate::variants::network::NetAccumulator;
use crate::variants::orthodox::inputs::{board_inputs_of, BoardUpdate};
use crate::variants::orthodox::make;
use crate::variants::orthodox::{attacks, fen, Board, Kind, Move, MoveKind, Piece, KEYS, NO_EP};
use crate::variants::FenError;

/// Capacity reserved for the undo stack (game plus search depth rarely exceed it).
const STACK_RESERVE: usize = 1024;

/// Mystic's own keys: coins, bought counters and the FEN's en passant field (by file).
struct MysticKeys {
    coins: [[u64; 21]; 2],
    bought: [[u64; 4]; 2],
    ep_file: [u64; 8],
}

static MYSTIC_KEYS: LazyLock<MysticKeys> = LazyLock::new(|| {
    let k = zobrist::keys(0x6d79_7374, 2 * 21 + 2 * 4 + 8);
    let mut coins = [[0; 21]; 2];
    let mut bought = [[0; 4]; 2];
    let mut ep_file = [0; 8];
    for s in 0..2 {
        coins[s].copy_from_slice(&k[s * 21..s * 21 + 21]);
        bought[s].copy_from_slice(&k[42 + s * 4..42 + s * 4 + 4]);
    }
    ep_file.copy_from_slice(&k[50..58]);
    MysticKeys {
        coins,
        bought,
        ep_file,
    }
});

/// What `unmake` needs to restore a ply.
#[derive(Copy, Clone, Debug)]
struct Undo {
    mv: MysticMove,
    captured: Piece,
    ep: u8,
    ep_field: u8,
    halfmove: u16,
    coins: [u8; 2],
    bought: [u8; 2],
    /// The full key before the ply (also what repetition compares).
    key: u64,
    /// The state key before the ply: `key ^ state_key` is the board's piece key, which unmake
    /// restores instead of undoing it square by square.
    state_key: u64,
    checkers: u64,
}

/// A Mystic Chess position with its game history (rules/mystic.md).
#[derive(Clone)]
pub struct Mystic {
    pub(super) board: Board,
    pub(super) stm: Color,
    /// The en passant square when a pawn of the side to move can capture there (FIDE 3.7.3),
    /// else [`NO_EP`]: what generation and the key use.
    pub(super) ep: u8,
    /// The FEN's en passant field: set after every double step (rules/mystic.md 4).
    pub(super) ep_field: u8,
    pub(super) halfmove: u16,
    pub(super) fullmove: u16,
    pub(super) checkers: u64,
    pub(super) coins: [u8; 2],
    pub(super) bought: [u8; 2],
    /// The key of the state beside the pieces: side to move, en passant, coins, bought
    /// counters and the en passant field.
    state_key: u64,
    stack: Vec<Undo>,
    /// The network's first-layer sums, kept through make/unmake.
    pub(super) acc: NetAccumulator,
}

impl Mystic {
    /// The pieces.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Coins left for `side` (0..=20).
    pub fn coins(&self, side: Color) -> u8 {
        self.coins[side.index()]
    }

    /// Pawns `side` has bought, capped at 3 (rules/mystic.md 4).
    pub fn bought(&self, side: Color) -> u8 {
        self.bought[side.index()]
    }

    /// Plies since the last capture, pawn move or purchase (rules/mystic.md 3: 50-move rule).
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Whether `side` may still place another piece of `kind` (rules/mystic.md 1: stock).
    #[inline]
    pub fn available(&self, side: Color, kind: Kind) -> bool {
        self.board.pieces(side, kind).count_ones() < STOCK_LIMIT[kind.index()]
    }

    /// The zobrist key: pieces, side, en passant, coins, bought counters, en passant field.
    #[inline(always)]
    pub fn full_key(&self) -> u64 {
        self.board.key() ^ self.state_key
    }

    /// The key of the state beside the pieces, from scratch.
    fn compute_state_key(&self) -> u64 {
        let k = &*MYSTIC_KEYS;
        let mut x = 0;
        for s in 0..2 {
            x ^= k.coins[s][self.coins[s] as usize] ^ k.bought[s][self.bought[s] as usize];
        }
        if self.ep_field != NO_EP {
            x ^= k.ep_file[(self.ep_field & 7) as usize];
        }
        if self.ep != NO_EP {
            x ^= KEYS.ep_file[(self.ep & 7) as usize];
        }
        if self.stm == Color::Black {
            x ^= KEYS.side;
        }
        x
    }

    /// The zobrist key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        self.board.compute_key() ^ self.compute_state_key()
    }

    pub(super) fn repetitions(&self, stop_after: usize) -> usize {
        let n = self.stack.len();
        let reach = (self.halfmove as usize).min(n);
        repetition::count(self.full_key(), reach, stop_after, |i| {
            self.stack[n - i].key
        })
    }

    pub(super) fn is_repetition(&self, plies_from_root: usize) -> bool {
        let n = self.stack.len();
        let reach = (self.halfmove as usize).min(n);
        repetition::in_search(self.full_key(), reach, plies_from_root, |i| {
            self.stack[n - i].key
        })
    }

    /// Common start of every ply: pushes the undo record and clears both en passant notions
    /// (valid for one ply only).
    #[inline(always)]
    fn begin_ply(&mut self, mv: MysticMove) {
        crate::variants::network::open_ply(self);
        self.stack.push(Undo {
            mv,
            captured: Piece::NONE,
            ep: self.ep,
            ep_field: self.ep_field,
            halfmove: self.halfmove,
            coins: self.coins,
            bought: self.bought,
            key: self.full_key(),
            state_key: self.state_key,
            checkers: self.checkers,
        });
        if self.ep_field != NO_EP {
            self.state_key ^= MYSTIC_KEYS.ep_file[(self.ep_field & 7) as usize];
            self.ep_field = NO_EP;
        }
        if self.ep != NO_EP {
            self.state_key ^= KEYS.ep_file[(self.ep & 7) as usize];
            self.ep = NO_EP;
        }
    }

    /// Common end of every ply but the null move: the other side moves.
    #[inline(always)]
    fn end_ply(&mut self) {
        let us = self.stm;
        self.stm = !us;
        self.state_key ^= KEYS.side;
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.checkers = self.board.checkers(!us);
    }

    /// Plays a legal ply: a board move, a purchase or an upgrade (rules/mystic.md 2).
    pub(super) fn make_ply(&mut self, m: MysticMove) {
        let us = self.stm;
        self.begin_ply(m);
        if let Some((sq, piece)) = m.as_placement() {
            let k = &*MYSTIC_KEYS;
            let s = us.index();
            let old = self.board.piece_at(sq);
            let cost = if old.is_none() {
                1
            } else {
                upgrade_cost(old.kind(), piece.kind()).unwrap_or(0)
            };
            self.state_key ^= k.coins[s][self.coins[s] as usize];
            for t in self.coins[s] - cost..self.coins[s] {
                self.acc.sub(network::coin_inputs(us, t));
            }
            self.coins[s] -= cost;
            self.state_key ^= k.coins[s][self.coins[s] as usize];
            if old.is_none() && self.bought[s] < BUYS_FOR_UPGRADES {
                self.state_key ^= k.bought[s][self.bought[s] as usize];
                self.acc.add(network::bought_inputs(us, self.bought[s]));
                self.bought[s] += 1;
                self.state_key ^= k.bought[s][self.bought[s] as usize];
            }
            if !old.is_none() {
                self.board.remove(sq);
                self.stack.last_mut().expect("just pushed").captured = old;
            }
            self.board.put(sq, piece);
            if !old.is_none() {
                self.acc.sub(board_inputs_of(old, sq));
            }
            self.acc.add(board_inputs_of(piece, sq));
            self.halfmove = 0;
        } else {
            let mv = m.as_move();
            let captured = self.play_board_move(mv);
            self.stack.last_mut().expect("just pushed").captured = captured;
        }
        self.end_ply();
    }

    /// The men of a board move ([`make::make`]; no castling in Mystic, rules/mystic.md 6.1),
    /// the clock and the en passant state; returns the captured piece.
    #[inline(always)]
    fn play_board_move(&mut self, m: Move) -> Piece {
        let (from, to) = (m.from(), m.to());
        let us = self.stm;
        let made = make::make(
            &mut self.board,
            us,
            m,
            to ^ 8,
            |_| unreachable!("no castling in Mystic Chess"),
            &mut BoardUpdate(&mut self.acc),
        );
        self.halfmove = if made.irreversible {
            0
        } else {
            self.halfmove + 1
        };
        if m.kind() == MoveKind::DoublePush {
            let ep = (from + to) / 2;
            self.ep_field = ep;
            self.state_key ^= MYSTIC_KEYS.ep_file[(ep & 7) as usize];
            if attacks::pawn(us, ep) & self.board.pieces(!us, Kind::Pawn) != 0 {
                self.ep = ep;
                self.state_key ^= KEYS.ep_file[(ep & 7) as usize];
            }
        }
        made.captured
    }

    /// Passes the turn (null-move pruning). Undone by `unmake_ply`.
    pub(super) fn make_null_ply(&mut self) {
        self.begin_ply(MysticMove::default());
        self.halfmove += 1;
        self.stm = !self.stm;
        self.state_key ^= KEYS.side;
        self.checkers = 0;
    }

    /// Takes back the last ply (or null move).
    pub(super) fn unmake_ply(&mut self) {
        let u = self.stack.pop().expect("unmake without a ply to take back");
        self.acc.pop();
        self.stm = !self.stm;
        let us = self.stm;
        let b = &mut self.board;
        if let Some((sq, _)) = u.mv.as_placement() {
            b.remove_keyless(sq);
            if !u.captured.is_none() {
                b.put_keyless(sq, u.captured);
            }
        } else if u.mv != MysticMove::default() {
            let m = u.mv.as_move();
            make::unmake(b, us, m, u.captured, m.to() ^ 8, |_| {
                unreachable!("no castling in Mystic Chess")
            });
        }
        if u.mv != MysticMove::default() && us == Color::Black {
            self.fullmove -= 1;
        }
        self.ep = u.ep;
        self.ep_field = u.ep_field;
        self.halfmove = u.halfmove;
        self.coins = u.coins;
        self.bought = u.bought;
        self.checkers = u.checkers;
        self.board.restore_key(u.key ^ u.state_key);
        self.state_key = u.state_key;
    }

    /// `<board> <side> - <ep> <halfmove> <fullmove> coins:<W>/<B> bought:<W>/<B>`
    /// (rules/mystic.md 4); missing tags take the start values (20 coins, 0 bought).
    ///
    /// Errors name the field: `fen`, `castling` (must be `-`), the orthodox fields, `board`
    /// (more pieces of a kind than one set holds), `coins`, `bought` (also more Pawns bought
    /// than coins spent), `tags`.
    pub(super) fn read_fen(text: &str) -> Result<Mystic, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let split = fields
            .iter()
            .position(|f| f.contains(':'))
            .unwrap_or(fields.len());
        let (orthodox, tags) = fields.split_at(split);
        if orthodox.len() < 4 {
            return Err(FenError::new(
                "fen",
                format!("expected at least 4 fields, found {}", orthodox.len()),
            ));
        }
        if orthodox[2] != "-" {
            return Err(FenError::new(
                "castling",
                "Mystic Chess has no castling: the field must be '-'",
            ));
        }
        let (f, ()) = fen::read(&orthodox.join(" "), |_, _| Ok(()))?;
        for kind in Kind::ALL {
            for side in Color::ALL {
                let n = f.board.pieces(side, kind).count_ones();
                if n > STOCK_LIMIT[kind.index()] {
                    return Err(FenError::new(
                        "board",
                        format!(
                            "{side:?} has {n} pieces of kind {kind:?}, more than one set holds"
                        ),
                    ));
                }
            }
        }
        let mut coins = [START_COINS; 2];
        let mut bought = [0u8; 2];
        let mut seen = (false, false);
        for tag in tags {
            let (name, value) = tag.split_once(':').unwrap_or((tag, ""));
            let pair = |limit: u8, field: &'static str| -> Result<[u8; 2], FenError> {
                let (w, b) = value.split_once('/').ok_or_else(|| {
                    FenError::new(field, format!("expected <white>/<black>, found '{value}'"))
                })?;
                let parse = |s: &str| -> Result<u8, FenError> {
                    let v: u8 = s
                        .parse()
                        .map_err(|_| FenError::new(field, format!("'{s}' is not a number")))?;
                    if v > limit {
                        return Err(FenError::new(field, format!("{v} is more than {limit}")));
                    }
                    Ok(v)
                };
                Ok([parse(w)?, parse(b)?])
            };
            match name {
                "coins" if !seen.0 => {
                    coins = pair(START_COINS, "coins")?;
                    seen.0 = true;
                }
                "bought" if !seen.1 => {
                    bought = pair(BUYS_FOR_UPGRADES, "bought")?;
                    seen.1 = true;
                }
                "coins" | "bought" => {
                    return Err(FenError::new("tags", format!("'{name}' given twice")))
                }
                _ => return Err(FenError::new("tags", format!("unknown tag '{tag}'"))),
            }
        }
        for side in Color::ALL {
            // Each bought Pawn cost a coin, and coins are never earned back (rules 2, 3).
            let (i, spent) = (side.index(), START_COINS - coins[side.index()]);
            if bought[i] > spent {
                return Err(FenError::new(
                    "bought",
                    format!(
                        "{side:?} has bought {} Pawns but spent only {spent} of its \
                         {START_COINS} coins (each Pawn costs one)",
                        bought[i]
                    ),
                ));
            }
        }
        let mut pos = Mystic {
            ep: f.capturable_ep(),
            ep_field: f.ep,
            checkers: f.board.checkers(f.stm),
            board: f.board,
            stm: f.stm,
            halfmove: f.halfmove,
            fullmove: f.fullmove,
            coins,
            bought,
            state_key: 0,
            stack: Vec::with_capacity(STACK_RESERVE),
            acc: NetAccumulator::default(),
        };
        pos.state_key = pos.compute_state_key();
        pos.acc = NetAccumulator::new(&pos, STACK_RESERVE);
        Ok(pos)
    }

    /// The canonical FEN (rules/mystic.md 4).
    pub(super) fn write_fen(&self) -> String {
        format!(
            "{} coins:{}/{} bought:{}/{}",
            fen::write(
                &self.board,
                self.stm,
                "-",
                self.ep_field,
                self.halfmove,
                self.fullmove
            ),
            self.coins[0],
            self.coins[1],
            self.bought[0],
            self.bought[1]
        )
    }
}
