//! Orthodox chess under FIDE rules: castling (orthodox and Chess960, [`castling`]), en passant,
//! promotion, checkmate, stalemate, dead positions, the draws a player may claim (threefold
//! repetition, the 50-move rule: FIDE 9.2, 9.3) and those that end the game by themselves
//! (fivefold repetition, the 75-move rule: FIDE 9.6).
//!
//! Board: the orthodox [`Board`](crate::variants::orthodox::Board) (8x8 `u64` bitboards with
//! magic-bitboard sliders) and its legal generator, plus castling ([`movegen`], [`castling`]);
//! make/unmake with an undo stack ([`position`]); tapered evaluation ([`eval`]).

pub mod castling;
pub mod endgame;
pub mod eval;
pub mod movegen;
pub mod network;
pub mod position;
pub mod san;

pub use crate::variants::orthodox::{Kind, Move, MoveKind, Piece};
pub use position::{Chess, START_FEN};

use crate::core::{Color, MoveList};
use crate::variants::orthodox::rules::{
    self, DEAD_POSITION, FIDE_AUTOMATIC_DRAWS, FIFTY_MOVES_AND_THREEFOLD,
};
use crate::variants::orthodox::{
    coordinate_token, parse_coordinates, see, square_names, ORTHODOX_PIECES,
};
use crate::variants::{
    Evaluation, FenError, Game, MoveError, Notation, Rules, Scope, SearchProfile, StagedGeneration,
    VariantInfo, VariantSettings, Verdict,
};

/// The FEN fields a chess position sets beside its board (protocol.md 8, `variant`).
const CHESS_FIELDS: [crate::variants::FenField; 4] = [
    crate::variants::FenField {
        key: "castling",
        kind: crate::variants::FieldKind::Text,
        label: "Castling rights (KQkq, or -)",
    },
    crate::variants::EP_FIELD,
    crate::variants::CLOCK_FIELDS[0],
    crate::variants::CLOCK_FIELDS[1],
];

impl Rules for Chess {
    type Move = Move;

    const INFO: VariantInfo = VariantInfo {
        name: "chess",
        files: 8,
        ranks: 8,
        pocket: false,
        portions: 1,
        fields: &CHESS_FIELDS,
        pieces: ORTHODOX_PIECES,
        ..VariantInfo::DEFAULTS
    };

    fn startpos() -> Self {
        Chess::read_fen(START_FEN).expect("start FEN is valid")
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
    fn make(&mut self, m: Move) {
        self.make_move(m);
    }

    #[inline(always)]
    fn unmake(&mut self) {
        self.unmake_move();
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.full_key()
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        self.checkers != 0
    }

    /// [`crate::variants::orthodox::Board::gives_check`]: exact, except castling and en
    /// passant (`None`).
    #[inline]
    fn gives_check(&self, m: Move) -> Option<bool> {
        self.board.gives_check(self.stm, m)
    }

    fn make_null(&mut self) -> bool {
        let sound = self.checkers == 0 && self.board.has_pieces(self.stm);
        if sound {
            self.make_null_move();
        }
        sound
    }

    /// FIDE 5.1.1 checkmate and 5.2.1 stalemate come first ([`Rules::no_moves_verdict`]);
    /// then the draws that end the game by themselves: 9.6.1 fivefold repetition, 9.6.2 the
    /// 75-move rule, 5.2.2 dead positions. Threefold repetition (9.2) and the 50-move rule
    /// (9.3) may only be claimed ([`Scope::Claims`]). The search applies the 50-move rule
    /// (unless the position is checkmate), repetitions and dead positions.
    #[inline]
    fn verdict(&self, scope: Scope) -> Option<Verdict> {
        match scope {
            Scope::Wins => None,
            Scope::Search(plies_from_root) => rules::search_draw(
                self.halfmove,
                || self.is_checkmate_slow(),
                || self.is_repetition(plies_from_root),
                || self.board.insufficient_material(),
            ),
            Scope::Game | Scope::Claims => {
                if !self.has_legal_move() {
                    return None;
                }
                let repeated = |n: usize| self.repetitions(n - 1) >= n - 1;
                FIDE_AUTOMATIC_DRAWS
                    .verdict(self.halfmove, repeated)
                    .or_else(|| self.board.insufficient_material().then_some(DEAD_POSITION))
                    .or_else(|| {
                        (scope == Scope::Claims)
                            .then(|| FIFTY_MOVES_AND_THREEFOLD.verdict(self.halfmove, repeated))
                            .flatten()
                    })
            }
        }
    }

    fn no_moves_verdict(&self) -> Verdict {
        rules::no_moves_verdict(self.checkers != 0)
    }

    /// `UCI_Chess960`: castling tokens King-takes-Rook (protocol.md 3). The castling rules
    /// themselves follow the FEN (every position may be a Chess960 one).
    fn apply_settings(&mut self, settings: &VariantSettings) -> Result<(), String> {
        self.chess960 = settings.chess960;
        Ok(())
    }
}

impl Notation for Chess {
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Chess::read_fen(fen)
    }

    fn fen(&self) -> String {
        self.write_fen()
    }

    /// The canonical token (see [`Notation::move_token`]) of a legal move; for a castling, also
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
        format!(
            "{}Fen: {}\nKey: {:016X}\nCheckers: {}",
            self.board.diagram(),
            self.write_fen(),
            self.full_key(),
            square_names(self.checkers)
        )
    }
}

impl Evaluation for Chess {
    type EvalParams = eval::params::EvalParams;

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn evaluate_with(&self, p: &eval::params::EvalParams) -> i32 {
        eval::evaluate_with(self, p)
    }

    fn eval_report(&self) -> String {
        eval::report(self)
    }

    #[inline]
    fn correction_key(&self) -> Option<u64> {
        Some(self.board.pawn_hash())
    }

    #[inline]
    fn tactical_order(&self, m: Move) -> i32 {
        see::mvv_lva(&self.board, m)
    }

    #[inline]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        see::see_ge(&self.board, m, threshold)
    }

    /// The moving piece (colour and kind, 0..12) and the destination square: 1..=768.
    #[inline]
    fn cont_code(&self, m: Move) -> Option<u16> {
        Some(self.board.cont_code(m))
    }

    /// Bit 0: the origin is attacked by an enemy pawn; bit 1: the destination is.
    #[inline]
    fn history_context(&self, m: Move) -> u32 {
        let att = self.board.pawn_attacks_of(!self.stm);
        (att >> m.from() & 1 | (att >> m.to() & 1) << 1) as u32
    }
}

impl StagedGeneration for Chess {
    #[inline(always)]
    fn tactical_moves(&self, list: &mut MoveList<Move>) {
        self.generate_tactical(list);
    }
    #[inline(always)]
    fn is_tactical(&self, m: Move) -> bool {
        // A Chess960 castling may land the King on its own Rook's square: not a capture.
        (!self.board.piece_at(m.to()).is_none() && m.kind() != MoveKind::Castle)
            || matches!(m.kind(), MoveKind::EnPassant | MoveKind::PromoQueen)
    }
}

impl Game for Chess {
    const SEARCH: SearchProfile = SearchProfile {
        // The bench positions: openings, middlegames with both castlings, tactics, endgames with
        // passed pawns and promotion, and a checking position.
        bench_fens: &[
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
        ],
        // `UCI_ShowWDL` model fitted by `scripts/fit_wdl.py` to 800 self-play games (400
        // distinct) at 4000 nodes from a 400-opening book, with the sixth network (94238 scored
        // turns; protocol.md section 6).
        wdl: crate::variants::WdlModel { a: 159.0, b: 170.0 },
        ..SearchProfile::DEFAULT
    };

    /// The default check (the FEN reads back with the same key), the board's bitboards and
    /// key, and the incremental key against one computed from scratch.
    fn validate(&self) -> Result<(), String> {
        if !self.board.is_consistent() {
            return Err(format!("{}: inconsistent board", self.write_fen()));
        }
        if self.compute_key() != self.full_key() {
            return Err(format!("{}: incremental key differs", self.write_fen()));
        }
        if self.checkers != self.board.checkers(self.stm) {
            return Err(format!("{}: wrong checkers", self.write_fen()));
        }
        crate::variants::fen_round_trip(self)
    }
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

    /// Whether the side to move has a legal move (not for the hot path).
    fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        !list.is_empty()
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

impl crate::variants::diagram::PieceMoves for Chess {
    fn piece_moves(
        code: &str,
        from: crate::core::Square,
        others: &[(crate::core::Square, bool)],
        out: &mut Vec<crate::variants::diagram::Reached>,
    ) -> Result<(), String> {
        crate::variants::orthodox::movegen::lone_piece_moves(code, from, others, false, out)
    }
}
