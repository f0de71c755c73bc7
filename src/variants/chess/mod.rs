//! Orthodox chess under FIDE rules: castling (orthodox and Chess960, [`castling`]), en passant,
//! promotion, checkmate, stalemate, dead positions, the draws a player may claim (threefold
//! repetition, the 50-move rule: FIDE 9.2, 9.3) and those that end the game by themselves
//! (fivefold repetition, the 75-move rule: FIDE 9.6).
//!
//! Board: 8x8 `u64` bitboards with magic-bitboard sliders ([`attacks`]); a fully legal move
//! generator using check and pin masks ([`movegen`]); make/unmake with an undo stack
//! ([`position`]); tapered evaluation ([`eval`]).

pub mod attacks;
pub mod castling;
pub mod eval;
pub mod movegen;
pub mod position;
pub mod san;
pub mod see;
pub mod types;

pub use position::{Chess, START_FEN};
pub use types::{Kind, Move, MoveKind, Piece};

use crate::core::geometry::BOARD_8X8;
use crate::core::{Color, MoveList};
use crate::variants::{
    FenError, Game, GameResult, MoveError, Outcome, PieceInfo, Terminal, VariantInfo,
    VariantSettings,
};

/// The orthodox pieces (FIDE Laws, article 3), shared by chess, Mystic and Muster.
pub const ORTHODOX_PIECES: &[PieceInfo] = &[
    PieceInfo {
        code: "K",
        name: "King",
        movement: "K: one step in any direction; castling (FIDE 3.8)",
    },
    PieceInfo {
        code: "Q",
        name: "Queen",
        movement: "Q: any distance along files, ranks and diagonals",
    },
    PieceInfo {
        code: "R",
        name: "Rook",
        movement: "R: any distance along files and ranks",
    },
    PieceInfo {
        code: "B",
        name: "Bishop",
        movement: "B: any distance along diagonals",
    },
    PieceInfo {
        code: "N",
        name: "Knight",
        movement: "N: leaps (1,2)",
    },
    PieceInfo {
        code: "P",
        name: "Pawn",
        movement: "mfWcfF, mfnD from its second rank; en passant; promotes on the last rank",
    },
];

impl Game for Chess {
    type Move = Move;

    /// `UCI_ShowWDL` model fitted by `scripts/fit_wdl.py` to 50 self-play games at 4000 nodes
    /// (5214 scored turns; protocol.md section 6).
    const WDL: crate::variants::WdlModel = crate::variants::WdlModel { a: 208.0, b: 232.0 };

    /// The bench positions: openings, middlegames with both castlings, tactics, endgames with
    /// passed pawns and promotion, and a checking position.
    const BENCH_FENS: &'static [&'static str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PBPN2/PP1N1PPP/R2QK2R w KQ - 3 9",
        "2r2rk1/1bqnbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 4 14",
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "6k1/5ppp/8/8/8/8/1r3PPP/3R2K1 w - - 0 1",
        "8/8/1p2k3/p1p2p2/P1P2P2/1P2K3/8/8 w - - 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
        "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 1",
        "3r2k1/pp3ppp/2p5/4N3/2P1n3/1P4P1/P4P1P/3R2K1 b - - 0 24",
    ];

    const INFO: VariantInfo = VariantInfo {
        name: "chess",
        files: 8,
        ranks: 8,
        pocket: false,
        portions: 1,
    };

    const PIECES: &'static [PieceInfo] = ORTHODOX_PIECES;

    fn startpos() -> Self {
        Chess::parse_fen(START_FEN).expect("start FEN is valid")
    }

    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Chess::parse_fen(fen)
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.stm
    }

    #[inline(always)]
    fn legal_moves(&self, list: &mut MoveList<Move>) {
        self.generate_legal(list);
    }

    #[inline(always)]
    fn tactical_moves(&self, list: &mut MoveList<Move>) {
        self.generate_tactical(list);
    }

    #[inline(always)]
    fn make(&mut self, m: Move) {
        self.make_move(m);
    }

    #[inline(always)]
    fn unmake(&mut self) {
        self.unmake_move();
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        self.checkers != 0
    }

    #[inline(always)]
    fn is_tactical(&self, m: Move) -> bool {
        // A Chess960 castling may land the King on its own Rook's square: not a capture.
        (!self.board[m.to() as usize].is_none() && m.kind() != MoveKind::Castle)
            || matches!(m.kind(), MoveKind::EnPassant | MoveKind::PromoQueen)
    }

    #[inline]
    fn tactical_order(&self, m: Move) -> i32 {
        see::mvv_lva(self, m)
    }

    #[inline]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        see::see_ge(self, m, threshold)
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn eval_report(&self) -> String {
        eval::report(self)
    }

    fn no_moves_terminal(&self) -> Terminal {
        if self.checkers != 0 {
            Terminal::Loss
        } else {
            Terminal::Draw
        }
    }

    #[inline]
    fn is_draw(&self, plies_from_root: usize) -> bool {
        (self.halfmove >= 100 && !self.is_checkmate_slow())
            || self.is_repetition(plies_from_root)
            || self.insufficient_material()
    }

    /// FIDE 5.1.1 checkmate, 5.2.1 stalemate, 5.2.2 dead position, and the draws that end the
    /// game by themselves: 9.6.1 fivefold repetition, 9.6.2 the 75-move rule (a checkmate on
    /// the last move takes precedence). Threefold repetition and the 50-move rule are only
    /// claimable ([`Game::claimable_draw`]).
    fn outcome(&self) -> Option<Outcome> {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        fide_outcome(
            self.stm,
            list.is_empty(),
            self.checkers != 0,
            self.halfmove,
            &FIDE_AUTOMATIC_DRAWS,
            |n| self.repetitions(n - 1) >= n - 1,
            || self.insufficient_material(),
        )
    }

    /// FIDE 9.3: the last 50 moves of each player made no pawn move and no capture (the
    /// halfmove clock is at least 100); FIDE 9.2: the position has appeared three times.
    fn claimable_draw(&self) -> Option<&'static str> {
        if self.halfmove >= 100 {
            Some("fifty-move rule")
        } else if self.repetitions(2) >= 2 {
            Some("threefold repetition")
        } else {
            None
        }
    }

    /// `UCI_Chess960`: castling tokens King-takes-Rook (protocol.md 3). The castling rules
    /// themselves follow the FEN (every position may be a Chess960 one).
    fn apply_settings(&mut self, settings: &VariantSettings) -> Result<(), String> {
        self.chess960 = settings.chess960;
        Ok(())
    }

    fn null_move_allowed(&self) -> bool {
        self.checkers == 0 && self.has_pieces(self.stm)
    }

    fn make_null(&mut self) {
        self.make_null_move();
    }

    /// The canonical token (see [`Game::move_token`]) of a legal move; for a castling, also
    /// the other spelling (King to its destination, or King onto its Rook) when it names no
    /// other legal move (protocol.md 3, input leniency).
    fn parse_move(&self, token: &str) -> Result<Move, MoveError> {
        let (from, to, promo) = parse_coordinates(token)?;
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        let mut lenient = None;
        let mut lenient_count = 0;
        for &m in list.iter() {
            if m.from() != from || m.promotion() != promo {
                continue;
            }
            if m.kind() == MoveKind::Castle {
                let rook = self.castle_rook(m.to()).0;
                if to == self.castle_token_to(m) {
                    return Ok(m);
                }
                if to == m.to() || to == rook {
                    lenient = Some(m);
                    lenient_count += 1;
                }
            } else if m.to() == to {
                return Ok(m);
            }
        }
        match (lenient, lenient_count) {
            (Some(m), 1) => Ok(m),
            (Some(_), _) => Err(MoveError::Ambiguous(token.to_string())),
            _ => Err(MoveError::Illegal(token.to_string())),
        }
    }

    /// Coordinates (`e2e4`, `e7e8q`); castling as the King's move (`e1g1`, `e1c1`) when it is
    /// an orthodox castling (King on the e-file, Rook in the corner) and `UCI_Chess960` is off,
    /// else as the King taking its own Rook (`e1h1`, `b1a1`: unique where the King's
    /// destination is not, as in Chess960).
    fn move_token(&self, m: Move) -> String {
        let to = if m.kind() == MoveKind::Castle {
            self.castle_token_to(m)
        } else {
            m.to()
        };
        coordinate_token(m.from(), to, m.promotion())
    }

    fn pgn_move(&self, m: Move) -> String {
        san::san(self, m)
    }

    fn display(&self) -> String {
        let mut s = String::new();
        s.push_str(" +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let p = self.board[rank * 8 + file];
                s.push_str(" | ");
                s.push(if p.is_none() { ' ' } else { p.letter() });
            }
            s.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        s.push_str("   a   b   c   d   e   f   g   h\n\n");
        s.push_str(&format!("Fen: {}\nKey: {:016X}\n", self.to_fen(), self.key));
        let mut checkers = String::new();
        let mut c = self.checkers;
        while c != 0 {
            let sq = c.trailing_zeros() as u8;
            c &= c - 1;
            checkers.push_str(&format!("{} ", BOARD_8X8.name(sq)));
        }
        s.push_str(&format!("Checkers: {}", checkers.trim_end()));
        s
    }
}

/// The draws by a move counter and by repetition that end a game by themselves, for
/// [`fide_outcome`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AutomaticDraws {
    /// Halfmove clock (plies without a capture or a pawn move) at which the game is drawn.
    pub clock_plies: u16,
    /// Reason printed for that draw.
    pub clock_reason: &'static str,
    /// Number of occurrences of one position that draw the game.
    pub occurrences: usize,
    /// Reason printed for that draw.
    pub repetition_reason: &'static str,
}

/// FIDE 9.6: the game is drawn by itself at the fifth occurrence of a position (9.6.1) and
/// after 75 moves of each player without a pawn move or a capture (9.6.2).
pub const FIDE_AUTOMATIC_DRAWS: AutomaticDraws = AutomaticDraws {
    clock_plies: 150,
    clock_reason: "seventy-five-move rule",
    occurrences: 5,
    repetition_reason: "fivefold repetition",
};

/// The claimable draws of FIDE 9.2 and 9.3 (threefold repetition, 50 moves) made automatic,
/// as the rules files of variants built on chess decide (rules/mystic.md 3, rules/muster.md 7).
pub const ENGINE_AUTOMATIC_DRAWS: AutomaticDraws = AutomaticDraws {
    clock_plies: 100,
    clock_reason: "fifty-move rule",
    occurrences: 3,
    repetition_reason: "threefold repetition",
};

/// The end rules of the games built on orthodox chess (chess, Mystic): for `side` to move,
/// checkmate or stalemate when it has no legal ply (`no_moves`), else the move-counter and
/// repetition draws of `draws` (`halfmove` is the clock; `repeated(n)` tells whether the
/// position has occurred `n` times) and dead positions (`dead`); `repeated` and `dead` are
/// only evaluated when needed. `None` while the game goes on.
pub fn fide_outcome(
    side: Color,
    no_moves: bool,
    in_check: bool,
    halfmove: u16,
    draws: &AutomaticDraws,
    repeated: impl FnOnce(usize) -> bool,
    dead: impl FnOnce() -> bool,
) -> Option<Outcome> {
    let (result, reason) = if no_moves && in_check {
        (GameResult::win_for(!side), "checkmate")
    } else if no_moves {
        (GameResult::Draw, "stalemate")
    } else if halfmove >= draws.clock_plies {
        (GameResult::Draw, draws.clock_reason)
    } else if repeated(draws.occurrences) {
        (GameResult::Draw, draws.repetition_reason)
    } else if dead() {
        (GameResult::Draw, "insufficient material")
    } else {
        return None;
    };
    Some(Outcome {
        result,
        reason: reason.into(),
    })
}

impl Chess {
    /// The square a castling token names after the King's square: the King's destination for
    /// an orthodox castling with `UCI_Chess960` off, else the castling Rook's square.
    fn castle_token_to(&self, m: Move) -> u8 {
        let rook = self.castle_rook(m.to()).0;
        let orthodox = m.from() & 7 == 4 && matches!(rook & 7, 0 | 7);
        if orthodox && !self.chess960 {
            m.to()
        } else {
            rook
        }
    }

    /// Checkmate takes precedence over the 50-move rule (FIDE 9.3): only checked when the
    /// clock has run out, so the cost does not matter.
    fn is_checkmate_slow(&self) -> bool {
        if self.checkers == 0 {
            return false;
        }
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list.is_empty()
    }
}

/// The coordinate token `e2e4` / `e7e8q` (protocol.md 3) of a move from `from` to `to` (square
/// indices, a1 = 0) promoting to `promo`.
pub fn coordinate_token(from: u8, to: u8, promo: Option<Kind>) -> String {
    let mut s = format!("{}{}", BOARD_8X8.name(from), BOARD_8X8.name(to));
    if let Some(k) = promo {
        s.push(k.letter());
    }
    s
}

/// Splits a coordinate token `e2e4` / `e7e8q` (protocol.md 3) into from-square, to-square and
/// promotion kind, without looking at a position.
///
/// # Errors
/// [`MoveError::Malformed`] for a token that is not 4-5 ASCII characters, names a square off
/// the 8x8 board, or carries a promotion letter other than `q r b n`.
pub fn parse_coordinates(token: &str) -> Result<(u8, u8, Option<Kind>), MoveError> {
    let malformed = |reason: &str| MoveError::Malformed {
        token: token.to_string(),
        reason: reason.to_string(),
    };
    if !token.is_ascii() || !(4..=5).contains(&token.len()) {
        return Err(malformed(
            "expected from-square, to-square and an optional promotion letter",
        ));
    }
    let from = BOARD_8X8
        .parse_square(&token[0..2])
        .map_err(|e| malformed(&e.to_string()))?;
    let to = BOARD_8X8
        .parse_square(&token[2..4])
        .map_err(|e| malformed(&e.to_string()))?;
    let promo = match token.as_bytes().get(4) {
        None => None,
        Some(b'q') => Some(Kind::Queen),
        Some(b'r') => Some(Kind::Rook),
        Some(b'b') => Some(Kind::Bishop),
        Some(b'n') => Some(Kind::Knight),
        Some(_) => return Err(malformed("promotion letter must be one of q r b n")),
    };
    Ok((from, to, promo))
}
