//! Mystic Chess (rules/mystic.md): only the Kings at the start, 20 coins a side to buy Pawns
//! (drops) and to upgrade pieces in place along P -> B/N -> R -> Q.
//!
//! Built on the orthodox position ([`Chess`]): board moves come from its legal generator (with
//! no castling rights, castling never arises: rules/mystic.md 6.1); drops and upgrades are
//! placement plies of the same position, so the undo stack, the 50-move clock and check
//! detection are shared. This module adds the economy (coins, the bought counter, the stock
//! limits) and the variant's FEN tags, tokens and end rules.

pub mod eval;
pub mod notation;

use std::sync::LazyLock;

use crate::core::geometry::BOARD_8X8;
use crate::core::{repetition, zobrist, Color, MoveList};
use crate::variants::chess::attacks;
use crate::variants::chess::position::NO_EP;
use crate::variants::chess::{
    fide_outcome, Chess, Kind, Move, MoveKind, Piece, ENGINE_AUTOMATIC_DRAWS,
};
use crate::variants::{
    FenError, Game, GameMove, MoveError, Outcome, PieceInfo, Terminal, VariantInfo,
};

/// The start position (rules/mystic.md 4).
pub const START_FEN: &str = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:20/20 bought:0/0";

/// Coins each side starts with (rules/mystic.md 1).
pub const START_COINS: u8 = 20;

/// How many pieces of each kind one standard set holds: the stock (rules/mystic.md 1).
pub const STOCK_LIMIT: [u32; 6] = [8, 2, 2, 2, 1, 1];

/// Buys needed before upgrades are allowed (rules/mystic.md 2, action 3).
pub const BUYS_FOR_UPGRADES: u8 = 3;

/// Cost in coins of upgrading a piece of kind `from` to `to`, `None` when that is not a step of
/// the chain P -> B/N (2), B -> R (2), N -> R (2), R -> Q (4) (rules/mystic.md 2).
pub const fn upgrade_cost(from: Kind, to: Kind) -> Option<u8> {
    match (from, to) {
        (Kind::Pawn, Kind::Bishop) | (Kind::Pawn, Kind::Knight) => Some(2),
        (Kind::Bishop, Kind::Rook) | (Kind::Knight, Kind::Rook) => Some(2),
        (Kind::Rook, Kind::Queen) => Some(4),
        _ => None,
    }
}

/// A Mystic ply: an orthodox move, a Pawn purchase (drop) or an upgrade. Packs the underlying
/// [`Move`] (an upgrade or drop is a chess placement move) in 16 bits.
#[derive(Copy, Clone, PartialEq, Eq, Default, Hash, Debug)]
pub struct MysticMove(pub Move);

impl GameMove for MysticMove {
    type List<T: Copy + Send + Sync> = crate::core::MoveList<T>;
    #[inline(always)]
    fn pack(self) -> u32 {
        self.0 .0 as u32
    }
}

struct Keys {
    coins: [[u64; 21]; 2],
    bought: [[u64; 4]; 2],
    ep_file: [u64; 8],
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let k = zobrist::keys(0x6d79_7374, 2 * 21 + 2 * 4 + 8);
    let mut coins = [[0; 21]; 2];
    let mut bought = [[0; 4]; 2];
    let mut ep_file = [0; 8];
    for s in 0..2 {
        coins[s].copy_from_slice(&k[s * 21..s * 21 + 21]);
        bought[s].copy_from_slice(&k[42 + s * 4..42 + s * 4 + 4]);
    }
    ep_file.copy_from_slice(&k[50..58]);
    Keys {
        coins,
        bought,
        ep_file,
    }
});

#[derive(Copy, Clone, Debug)]
struct Undo {
    coins: [u8; 2],
    bought: [u8; 2],
    ep_field: u8,
    extra_key: u64,
}

/// A Mystic Chess position: the orthodox board plus coins, bought counters and the FEN en
/// passant field (set after every double step, rules/mystic.md 4).
#[derive(Clone)]
pub struct Mystic {
    chess: Chess,
    coins: [u8; 2],
    bought: [u8; 2],
    ep_field: u8,
    /// Zobrist part for coins, bought counters and the en passant field.
    extra_key: u64,
    stack: Vec<Undo>,
    /// Full keys of earlier positions (index = ply of the game), for repetition.
    history: Vec<u64>,
}

impl Mystic {
    /// The orthodox board underneath (pieces, side to move, clocks).
    pub fn board(&self) -> &Chess {
        &self.chess
    }

    /// Coins left for `side` (0..=20).
    pub fn coins(&self, side: Color) -> u8 {
        self.coins[side.index()]
    }

    /// Pawns `side` has bought, capped at 3 (rules/mystic.md 4).
    pub fn bought(&self, side: Color) -> u8 {
        self.bought[side.index()]
    }

    /// Whether `side` may still place another piece of `kind` (rules/mystic.md 1: stock).
    #[inline]
    pub fn available(&self, side: Color, kind: Kind) -> bool {
        self.chess.pieces(side, kind).count_ones() < STOCK_LIMIT[kind.index()]
    }

    fn compute_extra_key(&self) -> u64 {
        let k = &*KEYS;
        let mut x = 0;
        for s in 0..2 {
            x ^= k.coins[s][self.coins[s] as usize] ^ k.bought[s][self.bought[s] as usize];
        }
        if self.ep_field != NO_EP {
            x ^= k.ep_file[(self.ep_field & 7) as usize];
        }
        x
    }

    /// The drop zone of `side`: ranks 2-4 for White, 5-7 for Black (rules/mystic.md 2).
    pub const fn drop_zone(side: Color) -> u64 {
        match side {
            Color::White => 0xFF_FFFF << 8,
            Color::Black => 0xFF_FFFF << 32,
        }
    }

    fn generate(&self, list: &mut MoveList<MysticMove>, tactical_only: bool) {
        let c = &self.chess;
        let us = c.stm();
        let mut board_moves = MoveList::new();
        if tactical_only {
            c.generate_tactical(&mut board_moves);
        } else {
            c.generate_legal(&mut board_moves);
        }
        for &m in &board_moves {
            // A promotion needs its type in stock (rules/mystic.md 2 and 6.6).
            if let Some(k) = m.promotion() {
                if !self.available(us, k) {
                    continue;
                }
            }
            list.push(MysticMove(m));
        }
        let checkers = c.checkers();
        if tactical_only && checkers == 0 {
            // Quiescence also tries the upgrade with the largest material swing, R -> Q
            // (the smaller steps roughly pay for their coins and would bloat it).
            if self.bought[us.index()] >= BUYS_FOR_UPGRADES
                && self.coins[us.index()] >= 4
                && self.available(us, Kind::Queen)
            {
                let mut b = c.pieces(us, Kind::Rook);
                while b != 0 {
                    let sq = b.trailing_zeros() as u8;
                    b &= b - 1;
                    list.push(MysticMove(Move::placement(sq, Piece::new(us, Kind::Queen))));
                }
            }
            return;
        }
        let coins = self.coins[us.index()];
        // Drops: anywhere empty in the zone; in check, only on a square that blocks the check.
        if coins >= 1 && self.available(us, Kind::Pawn) {
            let mut targets = Self::drop_zone(us) & !c.occupied();
            if checkers != 0 {
                targets &= if checkers.count_ones() == 1 {
                    attacks::between(c.king_sq(us), checkers.trailing_zeros() as u8)
                } else {
                    0
                };
            }
            let pawn = Piece::new(us, Kind::Pawn);
            while targets != 0 {
                let sq = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                list.push(MysticMove(Move::placement(sq, pawn)));
            }
        }
        // Upgrades: never in check (rules/mystic.md 2), after 3 buys, paid and in stock.
        if checkers == 0 && self.bought[us.index()] >= BUYS_FOR_UPGRADES && coins >= 2 {
            for from in [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook] {
                let mut b = c.pieces(us, from);
                while b != 0 {
                    let sq = b.trailing_zeros() as u8;
                    b &= b - 1;
                    for to in [Kind::Bishop, Kind::Knight, Kind::Rook, Kind::Queen] {
                        if let Some(cost) = upgrade_cost(from, to) {
                            if coins >= cost && self.available(us, to) {
                                list.push(MysticMove(Move::placement(sq, Piece::new(us, to))));
                            }
                        }
                    }
                }
            }
        }
    }

    fn repetitions(&self, stop_after: usize) -> usize {
        let n = self.history.len();
        let reach = (self.chess.halfmove_clock() as usize).min(n);
        repetition::count(self.key(), reach, stop_after, |i| self.history[n - i])
    }

    fn is_repetition(&self, plies_from_root: usize) -> bool {
        let n = self.history.len();
        let reach = (self.chess.halfmove_clock() as usize).min(n);
        repetition::in_search(self.key(), reach, plies_from_root, |i| self.history[n - i])
    }

    /// Common start of every ply: saves the undo record and the key for repetition, and clears
    /// the en passant field (valid for one ply only).
    #[inline(always)]
    fn begin_ply(&mut self) {
        self.stack.push(Undo {
            coins: self.coins,
            bought: self.bought,
            ep_field: self.ep_field,
            extra_key: self.extra_key,
        });
        self.history.push(self.key());
        if self.ep_field != NO_EP {
            self.extra_key ^= KEYS.ep_file[(self.ep_field & 7) as usize];
            self.ep_field = NO_EP;
        }
    }

    /// Dead position: the FIDE material cases, only when both sides have 0 coins
    /// (rules/mystic.md 3 and 6.8).
    pub fn insufficient_material(&self) -> bool {
        self.coins == [0, 0] && self.chess.insufficient_material()
    }

    /// The zobrist key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        self.chess.compute_key() ^ self.compute_extra_key()
    }
}

impl Game for Mystic {
    type Move = MysticMove;

    /// `UCI_ShowWDL` model fitted by `scripts/fit_wdl.py` to 60 self-play games at 4000 nodes
    /// (5254 scored turns; protocol.md section 6).
    const WDL: crate::variants::WdlModel = crate::variants::WdlModel { a: 74.0, b: 120.0 };

    const INFO: VariantInfo = VariantInfo {
        name: "mystic",
        files: 8,
        ranks: 8,
        pocket: false,
        portions: 1,
    };

    /// The orthodox pieces (rules/mystic.md 1); Pawns are bought with `P@sq`, pieces upgraded
    /// in place.
    const PIECES: &'static [PieceInfo] = crate::variants::chess::ORTHODOX_PIECES;

    fn startpos() -> Self {
        Self::from_fen(START_FEN).expect("start FEN is valid")
    }

    /// `<board> <side> - <ep> <halfmove> <fullmove> coins:<W>/<B> bought:<W>/<B>` (rules/mystic.md 4);
    /// missing tags take the start values (20 coins, 0 bought).
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
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
        let chess = Chess::from_fen(&orthodox.join(" "))?;
        for kind in Kind::ALL {
            for side in Color::ALL {
                let n = chess.pieces(side, kind).count_ones();
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
        let ep_field = if orthodox[3] == "-" {
            NO_EP
        } else {
            BOARD_8X8
                .parse_square(orthodox[3])
                .map_err(|e| FenError::new("en passant", e.to_string()))?
        };
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
        let mut pos = Mystic {
            chess,
            coins,
            bought,
            ep_field,
            extra_key: 0,
            stack: Vec::with_capacity(1024),
            history: Vec::with_capacity(1024),
        };
        pos.extra_key = pos.compute_extra_key();
        Ok(pos)
    }

    fn fen(&self) -> String {
        let c = self.chess.to_fen();
        let f: Vec<&str> = c.split(' ').collect();
        let ep = if self.ep_field == NO_EP {
            "-".to_string()
        } else {
            BOARD_8X8.name(self.ep_field).to_string()
        };
        format!(
            "{} {} - {} {} {} coins:{}/{} bought:{}/{}",
            f[0],
            f[1],
            ep,
            f[4],
            f[5],
            self.coins[0],
            self.coins[1],
            self.bought[0],
            self.bought[1]
        )
    }

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.chess.stm()
    }

    fn legal_moves(&self, list: &mut MoveList<MysticMove>) {
        self.generate(list, false);
    }

    fn tactical_moves(&self, list: &mut MoveList<MysticMove>) {
        self.generate(list, true);
    }

    fn make(&mut self, m: MysticMove) {
        let k = &*KEYS;
        let us = self.chess.stm();
        let s = us.index();
        self.begin_ply();
        let mv = m.0;
        if let Some((sq, piece)) = mv.as_placement() {
            let old = self.chess.piece_at(sq);
            let cost = if old.is_none() {
                1
            } else {
                upgrade_cost(old.kind(), piece.kind()).unwrap_or(0)
            };
            self.extra_key ^= k.coins[s][self.coins[s] as usize];
            self.coins[s] -= cost;
            self.extra_key ^= k.coins[s][self.coins[s] as usize];
            if old.is_none() && self.bought[s] < BUYS_FOR_UPGRADES {
                self.extra_key ^= k.bought[s][self.bought[s] as usize];
                self.bought[s] += 1;
                self.extra_key ^= k.bought[s][self.bought[s] as usize];
            }
            self.chess.make_placement(sq, piece);
        } else {
            if mv.kind() == MoveKind::DoublePush {
                self.ep_field = (mv.from() + mv.to()) / 2;
                self.extra_key ^= k.ep_file[(self.ep_field & 7) as usize];
            }
            self.chess.make_move(mv);
        }
    }

    fn unmake(&mut self) {
        let u = self.stack.pop().expect("unmake without a ply to take back");
        self.history.pop();
        self.chess.unmake_move();
        self.coins = u.coins;
        self.bought = u.bought;
        self.ep_field = u.ep_field;
        self.extra_key = u.extra_key;
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.chess.key ^ self.extra_key
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        self.chess.checkers() != 0
    }

    /// Captures, queen promotions and the R -> Q upgrade (see `tactical_moves`).
    fn is_tactical(&self, m: MysticMove) -> bool {
        match m.0.as_placement() {
            Some((sq, piece)) => piece.kind() == Kind::Queen && !self.chess.piece_at(sq).is_none(),
            None => self.chess.is_tactical(m.0),
        }
    }

    fn tactical_order(&self, m: MysticMove) -> i32 {
        if m.0.as_placement().is_some() {
            0
        } else {
            self.chess.tactical_order(m.0)
        }
    }

    fn see_ge(&self, m: MysticMove, threshold: i32) -> bool {
        m.0.as_placement().is_some() || self.chess.see_ge(m.0, threshold)
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn eval_report(&self) -> String {
        eval::report(self)
    }

    fn no_moves_terminal(&self) -> Terminal {
        if self.in_check() {
            Terminal::Loss
        } else {
            Terminal::Draw
        }
    }

    fn is_draw(&self, plies_from_root: usize) -> bool {
        if self.chess.halfmove_clock() >= 100 {
            let mut l = MoveList::new();
            self.legal_moves(&mut l);
            return !(l.is_empty() && self.in_check());
        }
        self.is_repetition(plies_from_root) || self.insufficient_material()
    }

    /// rules/mystic.md 3: checkmate, stalemate (every action counts), the 50-move rule,
    /// threefold repetition, and dead positions only at 0 coins each.
    fn outcome(&self) -> Option<Outcome> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        fide_outcome(
            self.side_to_move(),
            list.is_empty(),
            self.in_check(),
            self.chess.halfmove_clock(),
            &ENGINE_AUTOMATIC_DRAWS,
            |n| self.repetitions(n - 1) >= n - 1,
            || self.insufficient_material(),
        )
    }

    fn null_move_allowed(&self) -> bool {
        // Zugzwang is rare while a side can spend coins; with no pieces but pawns it is not.
        let us = self.side_to_move();
        !self.in_check() && (self.coins[us.index()] > 0 || self.chess.has_pieces(us))
    }

    fn make_null(&mut self) {
        self.begin_ply();
        self.chess.make_null_move();
    }

    /// Tokens of rules/mystic.md 5: `e2e4`, `e7e8q`, `P@d2`, `f3f3b`.
    fn parse_move(&self, token: &str) -> Result<MysticMove, MoveError> {
        let malformed = |reason: &str| MoveError::Malformed {
            token: token.to_string(),
            reason: reason.to_string(),
        };
        let us = self.side_to_move();
        let wanted = if let Some(sq) = token.strip_prefix("P@") {
            let sq = BOARD_8X8
                .parse_square(sq)
                .map_err(|e| malformed(&e.to_string()))?;
            Move::placement(sq, Piece::new(us, Kind::Pawn))
        } else if token.contains('@') {
            return Err(malformed("only Pawns are bought: write P@<square>"));
        } else {
            if !token.is_ascii() || !(4..=5).contains(&token.len()) {
                return Err(malformed(
                    "expected from-square, to-square and an optional piece letter",
                ));
            }
            let from = BOARD_8X8
                .parse_square(&token[0..2])
                .map_err(|e| malformed(&e.to_string()))?;
            let to = BOARD_8X8
                .parse_square(&token[2..4])
                .map_err(|e| malformed(&e.to_string()))?;
            let letter = token.as_bytes().get(4).map(|&b| b as char);
            let kind = match letter {
                None => None,
                Some(c @ ('q' | 'r' | 'b' | 'n')) => Kind::from_letter(c).map(|(_, k)| k),
                Some(_) => return Err(malformed("piece letter must be one of q r b n")),
            };
            if from == to {
                let kind =
                    kind.ok_or_else(|| malformed("an upgrade names the new piece: e.g. f3f3b"))?;
                Move::placement(from, Piece::new(us, kind))
            } else {
                let c = self.chess.parse_move(token);
                match c {
                    Ok(m) => m,
                    Err(MoveError::Illegal(_)) => {
                        return Err(MoveError::Illegal(token.to_string()))
                    }
                    Err(e) => return Err(e),
                }
            }
        };
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.iter()
            .copied()
            .find(|m| m.0 == wanted)
            .ok_or_else(|| MoveError::Illegal(token.to_string()))
    }

    fn move_token(&self, m: MysticMove) -> String {
        match m.0.as_placement() {
            Some((sq, _)) if self.chess.piece_at(sq).is_none() => {
                format!("P@{}", BOARD_8X8.name(sq))
            }
            Some((sq, piece)) => {
                let n = BOARD_8X8.name(sq);
                format!("{n}{n}{}", piece.kind().letter())
            }
            None => self.chess.move_token(m.0),
        }
    }

    fn import_move(&self, text: &str) -> Result<MysticMove, MoveError> {
        notation::import_move(self, text)
    }

    fn display(&self) -> String {
        let mut s = self.chess.display();
        if let Some(i) = s.find("Fen: ") {
            s.truncate(i);
        }
        s.push_str(&format!(
            "Fen: {}\nKey: {:016X}\nCoins: white {} black {}\nBought: white {} black {} (upgrades after {})",
            self.fen(),
            self.key(),
            self.coins[0],
            self.coins[1],
            self.bought[0],
            self.bought[1],
            BUYS_FOR_UPGRADES
        ));
        s
    }
}
