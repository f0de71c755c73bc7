//! Mystic Chess (rules/mystic.md): only the Kings at the start, 20 coins a side to buy Pawns
//! (drops) and to upgrade pieces in place along P -> B/N -> R -> Q.
//!
//! Played on the orthodox [`Board`](crate::variants::orthodox::Board): board moves come from
//! the orthodox generator (castling never arises: rules/mystic.md 6.1); purchases and upgrades
//! are placement plies. The position ([`position`]) keeps the side to move, en passant, the
//! clocks and the economy (coins, the bought counter) with its own make/unmake; this module
//! adds the stock limits, the variant's tokens and end rules.

pub mod eval;
pub mod network;
pub mod notation;
pub mod position;

pub use position::Mystic;

use crate::core::geometry::BOARD_8X8;
use crate::core::{Color, MoveList};
use crate::variants::orthodox::movegen::{generate, generate_tactical};
use crate::variants::orthodox::rules::{self, DEAD_POSITION, FIFTY_MOVES_AND_THREEFOLD};
use crate::variants::orthodox::{attacks, coordinate_token, see, Kind, Move, MoveKind, Piece};
use crate::variants::{
    Evaluation, FenError, Game, GameMove, MoveError, Notation, PieceInfo, Rules, Scope,
    SearchProfile, StagedGeneration, VariantInfo, Verdict,
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

/// A Mystic ply in 16 bits: an orthodox [`Move`] (bit 15 clear), or with bit 15 set a
/// *placement*, a Pawn purchase (drop) or an upgrade in place: the square in bits 0-5 and the
/// placed [`Piece`] in bits 6-9. 0 is the null move.
#[derive(Copy, Clone, PartialEq, Eq, Default, Hash, Debug)]
pub struct MysticMove(u16);

impl MysticMove {
    /// The board move `m`.
    #[inline(always)]
    pub const fn board(m: Move) -> MysticMove {
        MysticMove(m.0)
    }

    /// The placement of `piece` on `sq`: a purchase on an empty square, an upgrade on an own
    /// piece.
    #[inline(always)]
    pub const fn placement(sq: u8, piece: Piece) -> MysticMove {
        MysticMove(0x8000 | sq as u16 | (piece.0 as u16) << 6)
    }

    /// The (square, piece) of a placement, `None` for a board move.
    #[inline(always)]
    pub const fn as_placement(self) -> Option<(u8, Piece)> {
        if self.0 & 0x8000 != 0 {
            Some(((self.0 & 63) as u8, Piece(((self.0 >> 6) & 15) as u8)))
        } else {
            None
        }
    }

    /// The board move (meaningless for a placement).
    #[inline(always)]
    pub const fn as_move(self) -> Move {
        Move(self.0)
    }
}

impl GameMove for MysticMove {
    type List<T: Copy + Send + Sync> = crate::core::MoveList<T>;
    #[inline(always)]
    fn pack(self) -> u32 {
        self.0 as u32
    }
}

impl Mystic {
    /// The drop zone of `side`: ranks 2-4 for White, 5-7 for Black (rules/mystic.md 2).
    pub const fn drop_zone(side: Color) -> u64 {
        match side {
            Color::White => 0xFF_FFFF << 8,
            Color::Black => 0xFF_FFFF << 32,
        }
    }

    fn generate(&self, list: &mut MoveList<MysticMove>, tactical_only: bool) {
        let c = &self.board;
        let us = self.stm;
        let mut board_moves = MoveList::new();
        if tactical_only {
            generate_tactical(c, us, self.checkers, self.ep, &mut board_moves);
        } else {
            generate::<false>(
                c,
                us,
                self.checkers,
                self.ep,
                &mut board_moves,
                |_, _, _| {},
            );
        }
        for &m in &board_moves {
            // A promotion needs its type in stock (rules/mystic.md 2 and 6.6).
            if let Some(k) = m.promotion() {
                if !self.available(us, k) {
                    continue;
                }
            }
            list.push(MysticMove::board(m));
        }
        let checkers = self.checkers;
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
                    list.push(MysticMove::placement(sq, Piece::new(us, Kind::Queen)));
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
                list.push(MysticMove::placement(sq, pawn));
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
                                list.push(MysticMove::placement(sq, Piece::new(us, to)));
                            }
                        }
                    }
                }
            }
        }
    }

    /// Dead position: the FIDE material cases, only when both sides have 0 coins
    /// (rules/mystic.md 3 and 6.8).
    pub fn insufficient_material(&self) -> bool {
        self.coins == [0, 0] && self.board.insufficient_material()
    }
}

/// The FEN fields a Mystic position sets beside its board (rules 4; protocol.md 8).
const MYSTIC_FIELDS: [crate::variants::FenField; 5] = [
    crate::variants::EP_FIELD,
    crate::variants::CLOCK_FIELDS[0],
    crate::variants::CLOCK_FIELDS[1],
    crate::variants::FenField {
        key: "tag:coins",
        kind: crate::variants::FieldKind::Pair,
        label: "Coins (White/Black)",
    },
    crate::variants::FenField {
        key: "tag:bought",
        kind: crate::variants::FieldKind::Pair,
        label: "Pawns bought, up to 3 (White/Black)",
    },
];

impl Rules for Mystic {
    type Move = MysticMove;

    const INFO: VariantInfo = VariantInfo {
        name: "mystic",
        files: 8,
        ranks: 8,
        pocket: false,
        portions: 1,
        fields: &MYSTIC_FIELDS,
        pieces: PIECE_TYPES,
        ..VariantInfo::DEFAULTS
    };

    fn startpos() -> Self {
        Self::from_fen(START_FEN).expect("start FEN is valid")
    }

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.stm
    }

    fn legal_moves(&self, list: &mut MoveList<MysticMove>) {
        self.generate(list, false);
    }

    fn make(&mut self, m: MysticMove) {
        self.make_ply(m);
    }

    fn unmake(&mut self) {
        self.unmake_ply();
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.full_key()
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        self.checkers != 0
    }

    /// A board ply: [`crate::variants::orthodox::Board::gives_check`]; a purchase: `None`.
    #[inline]
    fn gives_check(&self, m: MysticMove) -> Option<bool> {
        match m.as_placement() {
            Some(_) => None,
            None => self.board.gives_check(self.stm, m.as_move()),
        }
    }

    fn make_null(&mut self) -> bool {
        let sound = {
            // Zugzwang is rare while a side can spend coins; with no pieces but pawns it is not.
            let us = self.side_to_move();
            !self.in_check() && (self.coins[us.index()] > 0 || self.board.has_pieces(us))
        };
        if sound {
            self.make_null_ply();
        }
        sound
    }

    /// rules/mystic.md 3: checkmate and stalemate first (every action counts:
    /// [`Rules::no_moves_verdict`]), then the 50-move rule and threefold repetition (ending the
    /// game by themselves), and dead positions only at 0 coins each. The search applies the
    /// 50-move rule unless the position is checkmate, repetitions and dead positions.
    #[inline]
    fn verdict(&self, scope: Scope) -> Option<Verdict> {
        match scope {
            Scope::Wins => None,
            Scope::Search(plies_from_root) => rules::search_draw(
                self.halfmove,
                || {
                    let mut l = MoveList::new();
                    self.legal_moves(&mut l);
                    l.is_empty() && self.in_check()
                },
                || self.is_repetition(plies_from_root),
                || self.insufficient_material(),
            ),
            Scope::Game | Scope::Claims => {
                let mut list = MoveList::new();
                self.legal_moves(&mut list);
                if list.is_empty() {
                    return None;
                }
                FIFTY_MOVES_AND_THREEFOLD
                    .verdict(self.halfmove, |n| self.repetitions(n - 1) >= n - 1)
                    .or_else(|| self.insufficient_material().then_some(DEAD_POSITION))
            }
        }
    }

    fn no_moves_verdict(&self) -> Verdict {
        rules::no_moves_verdict(self.in_check())
    }
}

impl Notation for Mystic {
    /// `<board> <side> - <ep> <halfmove> <fullmove> coins:<W>/<B> bought:<W>/<B>` (rules/mystic.md 4);
    /// missing tags take the start values (20 coins, 0 bought).
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Mystic::read_fen(fen)
    }

    fn fen(&self) -> String {
        self.write_fen()
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
            MysticMove::placement(sq, Piece::new(us, Kind::Pawn))
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
                MysticMove::placement(from, Piece::new(us, kind))
            } else {
                let mut list = MoveList::new();
                self.legal_moves(&mut list);
                return list
                    .iter()
                    .copied()
                    .find(|m| {
                        let mv = m.as_move();
                        m.as_placement().is_none()
                            && mv.from() == from
                            && mv.to() == to
                            && mv.promotion() == kind
                    })
                    .ok_or_else(|| MoveError::Illegal(token.to_string()));
            }
        };
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.iter()
            .copied()
            .find(|m| *m == wanted)
            .ok_or_else(|| MoveError::Illegal(token.to_string()))
    }

    fn move_token(&self, m: MysticMove) -> String {
        match m.as_placement() {
            Some((sq, _)) if self.board.piece_at(sq).is_none() => {
                format!("P@{}", BOARD_8X8.name(sq))
            }
            Some((sq, piece)) => {
                let n = BOARD_8X8.name(sq);
                format!("{n}{n}{}", piece.kind().letter())
            }
            None => {
                let mv = m.as_move();
                coordinate_token(mv.from(), mv.to(), mv.promotion())
            }
        }
    }

    fn display(&self) -> String {
        let mut s = self.board.diagram();
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

    /// The notation of the Mystic Chess blog (docs/rules/mystic.md "Notation"): `@e2` buys a
    /// Pawn, `B@e2` upgrades the piece on e2 to a Bishop, board moves are SAN.
    fn pgn_move(&self, m: MysticMove) -> String {
        notation::pgn_move(self, m)
    }

    fn import_move(&self, text: &str) -> Result<MysticMove, MoveError> {
        notation::import_move(self, text)
    }
}

impl Evaluation for Mystic {
    type EvalParams = eval::MysticParams;

    /// The hand-written evaluation plus the network's residual, when `EvalFile` loaded
    /// one ([`crate::variants::network`]).
    fn evaluate(&self) -> i32 {
        eval::evaluate(self) + crate::variants::network::residual(self)
    }

    /// The hand-written evaluation with `p`, plus the network's residual as in
    /// [`Evaluation::evaluate`] (the trainer empties the slot to see the first alone).
    fn evaluate_with(&self, p: &eval::MysticParams) -> i32 {
        eval::evaluate_with(self, p) + crate::variants::network::residual(self)
    }

    fn eval_report(&self) -> String {
        crate::variants::network::with_residual(self, eval::report(self))
    }

    /// The pawn structure ([`crate::variants::orthodox::Board::pawn_hash`]).
    #[inline]
    fn correction_key(&self) -> Option<u64> {
        Some(self.board.pawn_hash())
    }

    fn tactical_order(&self, m: MysticMove) -> i32 {
        if m.as_placement().is_some() {
            0
        } else {
            see::mvv_lva(&self.board, m.as_move())
        }
    }

    fn see_ge(&self, m: MysticMove, threshold: i32) -> bool {
        m.as_placement().is_some() || see::see_ge(&self.board, m.as_move(), threshold)
    }
}

impl StagedGeneration for Mystic {
    fn tactical_moves(&self, list: &mut MoveList<MysticMove>) {
        self.generate(list, true);
    }
    /// Captures, queen promotions and the R -> Q upgrade (see `tactical_moves`).
    fn is_tactical(&self, m: MysticMove) -> bool {
        match m.as_placement() {
            Some((sq, piece)) => piece.kind() == Kind::Queen && !self.board.piece_at(sq).is_none(),
            None => {
                let mv = m.as_move();
                !self.board.piece_at(mv.to()).is_none()
                    || matches!(mv.kind(), MoveKind::EnPassant | MoveKind::PromoQueen)
            }
        }
    }
}

impl Game for Mystic {
    const SEARCH: SearchProfile = SearchProfile {
        // `UCI_ShowWDL` model fitted by `scripts/fit_wdl.py` to 200 self-play games at 4000 nodes
        // from a 200-opening book (22962 scored turns; protocol.md section 6).
        wdl: crate::variants::WdlModel { a: 573.0, b: 368.0 },
        ..SearchProfile::DEFAULT
    };

    /// The board's bitboards and key, the incremental key against one computed from scratch,
    /// and the FEN read back.
    fn validate(&self) -> Result<(), String> {
        if !self.board.is_consistent() {
            return Err(format!("{}: inconsistent board", self.fen()));
        }
        if self.compute_key() != self.full_key() {
            return Err(format!("{}: incremental key differs", self.fen()));
        }
        crate::variants::fen_round_trip(self)
    }
}

impl crate::variants::diagram::PieceMoves for Mystic {
    fn piece_moves(
        code: &str,
        from: crate::core::Square,
        others: &[(crate::core::Square, bool)],
        out: &mut Vec<crate::variants::diagram::Reached>,
    ) -> Result<(), String> {
        crate::variants::orthodox::movegen::lone_piece_moves(code, from, others, false, out)
    }
}

/// The orthodox pieces without castling (rules/mystic.md 1, 2): the stock limits, the
/// purchase of Pawns (`P@sq`) and the upgrades in place.
const PIECE_TYPES: &[PieceInfo] = &[
        PieceInfo {
            code: "K",
            name: "King",
            movement: "K: one step in any direction; no castling (2)",
        },
        PieceInfo {
            code: "Q",
            name: "Queen",
            movement: "Q: any distance along files, ranks and diagonals; at most one on the board; an upgraded Rook or a promoted Pawn (1, 2)",
        },
        PieceInfo {
            code: "R",
            name: "Rook",
            movement: "R: any distance along files and ranks; at most two; upgrades to a Queen for 4 coins after 3 purchases (1, 2)",
        },
        PieceInfo {
            code: "B",
            name: "Bishop",
            movement: "B: any distance along diagonals; at most two; upgrades to a Rook for 2 coins after 3 purchases (1, 2)",
        },
        PieceInfo {
            code: "N",
            name: "Knight",
            movement: "N: leaps (1,2); at most two; upgrades to a Rook for 2 coins after 3 purchases (1, 2)",
        },
        PieceInfo {
            code: "P",
            name: "Pawn",
            movement: "mfWcfF, mfnD from its second rank (a bought Pawn too); en passant; bought for 1 coin onto an empty square of ranks 2-4 (Black 5-7), at most eight; upgrades to a Bishop or Knight for 2 coins after 3 purchases; promotes to an available N, B, R or Q (1, 2)",
        },
    ];
