//! Muster Chess (rules/muster.md): orthodox pieces, mustered armies on the first four ranks,
//! pawns that push up to three squares from the first rank (with en passant on every passed
//! square), and castling with any unmoved rook on the King's rank or file.
//!
//! Played on the orthodox [`crate::variants::orthodox::Board`]: its legal generator
//! supplies every piece move, capture, single push, push from the second rank and promotion;
//! this module adds the first-rank pushes, en passant and castling ([`movegen`]), keeps the
//! side to move, clocks, castling rights per rook square and the passed squares with its own
//! make/unmake ([`position`]), reads and writes the FEN ([`fen`]) and the armies ([`army`]),
//! and answers the Muster commands of the protocol ([`pregame`]).

pub mod army;
pub mod eval;
pub mod fen;
pub mod movegen;
pub mod network;
pub mod position;
pub mod pregame;

pub use army::{Army, ArmyError};
pub use fen::START_FEN;
pub use position::Muster;

use crate::core::{Color, MoveList};
use crate::variants::orthodox::rules::{self, DEAD_POSITION, FIFTY_MOVES_AND_THREEFOLD};
use crate::variants::orthodox::{
    coordinate_token, parse_coordinates, see, square_names, Board, Kind, Move, MoveKind, BISHOP,
    KNIGHT, QUEEN,
};
use crate::variants::{
    Evaluation, FenError, Game, MoveError, Notation, ProbeLimits, Rules, Scope, SearchProfile,
    StagedGeneration, VariantInfo, VariantSettings, Verdict,
};

/// Why the game is over when the side not to move starts in check (rules/muster.md 3, D3).
pub const START_CHECK_REASON: &str = "the side not to move starts in check";

impl Muster {
    /// The start position of a game between two armies (rules/muster.md 3): placement
    /// `<black>/<white>`, White to move, rights for every rook on its King's rank or file, no
    /// en passant, clocks `0 1`.
    pub fn from_armies(white: &Army, black: &Army) -> Muster {
        let placement = army::start_placement(white, black);
        let board = Board::from_placement(&placement).expect("two legal armies form a board");
        let rights = Muster::start_rights(&board);
        let start_capture = board.checkers(Color::Black) != 0;
        let mut pos = Muster::new(board, Color::White);
        pos.rights = rights;
        pos.start_capture = start_capture;
        pos.state_key = pos.compute_state_key();
        pos.start_network();
        pos
    }

    /// Whether the side to move can capture the enemy King: only possible in a start position
    /// (or FEN) where the side not to move is in check (rules/muster.md 3, D3).
    pub fn king_capturable(&self) -> bool {
        self.start_capture && self.stack.is_empty()
    }

    /// Whether the side to move has lost its King (only after taking it under D3 was not
    /// declined: a move played from a start position that was already won).
    #[inline(always)]
    fn king_lost(&self) -> bool {
        self.board.pieces(self.stm, Kind::King) == 0
    }

    fn is_checkmate_slow(&self) -> bool {
        if self.checkers == 0 {
            return false;
        }
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list.is_empty()
    }
}

/// The FEN fields a Muster position sets beside its board (rules 5.4; protocol.md 8).
const MUSTER_FIELDS: [crate::variants::FenField; 4] = [
    crate::variants::FenField {
        key: "castling",
        kind: crate::variants::FieldKind::Text,
        label: "Castling rights: the Rooks' squares (a1h1a8h8, or -)",
    },
    crate::variants::EP_FIELD,
    crate::variants::CLOCK_FIELDS[0],
    crate::variants::CLOCK_FIELDS[1],
];

impl Rules for Muster {
    type Move = Move;

    const INFO: VariantInfo = VariantInfo {
        name: "muster",
        files: 8,
        ranks: 8,
        pocket: false,
        portions: 1,
        fields: &MUSTER_FIELDS,
        pieces: PIECE_TYPES,
        // The Muster before the game (rules/muster.md 3).
        pregame: &["army"],
        commands: &["muster"],
        ..VariantInfo::DEFAULTS
    };

    fn startpos() -> Self {
        Muster::read_fen(START_FEN).expect("start FEN is valid")
    }

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.stm
    }

    #[inline(always)]
    fn legal_moves(&self, list: &mut MoveList<Move>) {
        if !self.king_lost() {
            self.generate_legal(list);
        }
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

    fn make_null(&mut self) -> bool {
        let sound = self.checkers == 0 && self.board.has_pieces(self.stm);
        if sound {
            self.make_null_move();
        }
        sound
    }

    /// rules/muster.md 3 D3 (a start with the side not to move in check is won at once by
    /// the side to move; a King taken after such a start loses) in every scope; then the
    /// orthodox end rules of rules/muster.md 7: checkmate and stalemate first
    /// ([`Rules::no_moves_verdict`]), the 50-move rule and threefold repetition (ending the
    /// game by themselves), dead positions. The search applies the 50-move rule unless the
    /// position is checkmate, repetitions and dead positions.
    #[inline]
    fn verdict(&self, scope: Scope) -> Option<Verdict> {
        if self.king_capturable() {
            return Some(Verdict::win(START_CHECK_REASON));
        }
        if self.king_lost() {
            return Some(Verdict::loss("King captured"));
        }
        match scope {
            Scope::Wins => None,
            Scope::Search(plies_from_root) => rules::search_draw(
                self.halfmove,
                || self.is_checkmate_slow(),
                || self.is_repetition(plies_from_root),
                || self.board.insufficient_material(),
            ),
            Scope::Game | Scope::Claims => {
                let mut list = MoveList::new();
                self.generate_legal(&mut list);
                if list.is_empty() {
                    return None;
                }
                FIFTY_MOVES_AND_THREEFOLD
                    .verdict(self.halfmove, |n| self.repetitions(n - 1) >= n - 1)
                    .or_else(|| self.board.insufficient_material().then_some(DEAD_POSITION))
            }
        }
    }

    fn no_moves_verdict(&self) -> Verdict {
        rules::no_moves_verdict(self.checkers != 0)
    }

    /// `UCI_Chess960 true` is refused: rules/muster.md 5.3 writes every castling as the King's
    /// move and never emits the King-onto-Rook spelling (which it accepts as input anyway).
    fn apply_settings(&mut self, settings: &VariantSettings) -> Result<(), String> {
        if settings.chess960 {
            return Err(
                "UCI_Chess960 is not supported by muster: castling is written as the \
                 King's move (rules/muster.md 5.3); King-onto-Rook is read as input anyway"
                    .into(),
            );
        }
        Ok(())
    }
}

impl Notation for Muster {
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Muster::read_fen(fen)
    }

    fn fen(&self) -> String {
        self.write_fen()
    }

    /// Tokens of rules/muster.md 6: `e2e4`, `a1a4`, `e7e8q`, en passant as capturer from-to,
    /// castling as the King's move (`e1g1`, `e2e4`, `e1f1`); the King-onto-rook alias of
    /// 5.3 (`e1h1`) is accepted.
    fn parse_move(&self, token: &str) -> Result<Move, MoveError> {
        let (from, to, promo) = parse_coordinates(token)?;
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        if let Some(m) = list
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.promotion() == promo)
        {
            return Ok(m);
        }
        // rules/muster.md 5.3: the King onto its own rook's origin means that castling.
        if promo.is_none() {
            if let Some(m) = list.iter().copied().find(|m| {
                m.kind() == MoveKind::Castle
                    && m.from() == from
                    && position::orth_step(from, m.to())
                        .and_then(|dir| self.first_piece(from, dir))
                        .is_some_and(|(rsq, _)| rsq == to)
            }) {
                return Ok(m);
            }
        }
        Err(MoveError::Illegal(token.to_string()))
    }

    /// Coordinates; castling as the King's move (rules/muster.md 5.3), never King-onto-Rook.
    fn move_token(&self, m: Move) -> String {
        coordinate_token(m.from(), m.to(), m.promotion())
    }

    /// SAN (docs/rules/muster.md "Notation"): orthodox SAN for every move but castling;
    /// castling along a rank is `O-O` towards the h-file and `O-O-O` towards the a-file, and
    /// along a file it is the King's move `K<destination>` (no ordinary King move ends there:
    /// it moves two or more squares or onto its own Rook).
    fn pgn_move(&self, m: Move) -> String {
        let mut s = if m.kind() == MoveKind::Castle {
            if m.from() / 8 == m.to() / 8 {
                (if m.to() % 8 > m.from() % 8 {
                    "O-O"
                } else {
                    "O-O-O"
                })
                .to_string()
            } else {
                format!("K{}", crate::core::geometry::BOARD_8X8.name(m.to()))
            }
        } else {
            let mut legal = MoveList::new();
            self.legal_moves(&mut legal);
            crate::variants::orthodox::san::move_san(self.board(), m, legal.iter().copied())
        };
        s.push_str(crate::variants::orthodox::san::check_mark(self, m));
        s
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

    fn variant_command(
        &self,
        line: &str,
        probe: &mut dyn FnMut(&Self, ProbeLimits) -> Option<i32>,
    ) -> Result<String, String> {
        pregame::command(line, probe)
    }
}

impl Evaluation for Muster {
    /// The orthodox parameter set, with Muster's own values ([`eval::MUSTER_PARAMS`]).
    type EvalParams = crate::variants::orthodox::eval::params::EvalParams;

    fn eval_params() -> &'static Self::EvalParams {
        &eval::MUSTER_PARAMS
    }

    /// The hand-written evaluation plus the network's residual, when `EvalFile` loaded
    /// one ([`crate::variants::network`]).
    fn evaluate(&self) -> i32 {
        eval::evaluate(self) + crate::variants::network::residual(self)
    }

    /// The hand-written evaluation with `p`, plus the network's residual as in
    /// [`Evaluation::evaluate`] (the trainer empties the slot to read the evaluation alone).
    fn evaluate_with(&self, p: &Self::EvalParams) -> i32 {
        crate::variants::orthodox::eval::evaluate_board(&self.board, self.stm, p)
            + crate::variants::network::residual(self)
    }

    fn eval_report(&self) -> String {
        crate::variants::network::with_residual(self, eval::report(self))
    }

    /// The pawn structure ([`crate::variants::orthodox::Board::pawn_hash`]).
    #[inline]
    fn correction_key(&self) -> Option<u64> {
        Some(self.board.pawn_hash())
    }

    #[inline]
    fn tactical_order(&self, m: Move) -> i32 {
        see::mvv_lva(&self.board, m)
    }

    /// SEE of the orthodox board; en passant (whose victim may stand elsewhere than behind
    /// the target square here) and castling always pass.
    #[inline]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        match m.kind() {
            MoveKind::EnPassant | MoveKind::Castle => true,
            _ => see::see_ge(&self.board, m, threshold),
        }
    }

    /// The moving piece (colour and kind, 0..12) and the destination square: 1..=768.
    #[inline]
    fn cont_code(&self, m: Move) -> Option<u16> {
        Some(self.board.cont_code(m))
    }
}

impl StagedGeneration for Muster {
    #[inline(always)]
    fn tactical_moves(&self, list: &mut MoveList<Move>) {
        if !self.king_lost() {
            self.generate_tactical(list);
        }
    }
    /// Captures (en passant included) and queen promotions; never castling, though a short
    /// castling lands on the own rook (rules/muster.md 5.2).
    #[inline(always)]
    fn is_tactical(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::Castle => false,
            MoveKind::EnPassant | MoveKind::PromoQueen => true,
            _ => !self.board.piece_at(m.to()).is_none(),
        }
    }
}

impl Game for Muster {
    const SEARCH: SearchProfile = SearchProfile {
        // Regular armies, Kiwipete-like castling positions, unusual armies (rank-1 pawns, many
        // queens, no pawns) and an endgame.
        bench_fens: &[
            START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w a1h1a8h8 - 0 1",
            "pppkpppp/8/3qq3/rnb2bnr/RNB2BNR/3QQ3/8/PPPKPPPP w - - 0 1",
            "rqqqkqqr/8/8/8/8/8/8/RQQQKQQR w a1h1a8h8 - 0 1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w a1h1a8h8 - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ],
        // `UCI_ShowWDL` model fitted by `scripts/fit_wdl.py` to 200 self-play games at 4000 nodes
        // from a 200-opening book (25514 scored turns; protocol.md section 6).
        wdl: crate::variants::WdlModel { a: 179.0, b: 176.0 },
        ..SearchProfile::DEFAULT
    };

    /// The board's bitboards and key, the incremental key against one computed from scratch,
    /// and the FEN read back (not after a King was taken under D3: no FEN has that).
    fn validate(&self) -> Result<(), String> {
        if !self.board.is_consistent() {
            return Err(format!("{}: inconsistent board", self.write_fen()));
        }
        if self.compute_key() != self.full_key() {
            return Err(format!("{}: incremental key differs", self.write_fen()));
        }
        if self.king_lost() {
            return Ok(());
        }
        crate::variants::fen_round_trip(self)
    }
}

impl crate::variants::diagram::PieceMoves for Muster {
    fn piece_moves(
        code: &str,
        from: crate::core::Square,
        others: &[(crate::core::Square, bool)],
        out: &mut Vec<crate::variants::diagram::Reached>,
    ) -> Result<(), String> {
        crate::variants::orthodox::movegen::lone_piece_moves(code, from, others, true, out)
    }
}

/// The orthodox pieces (rules/muster.md 1) with the generalised castling (5) and Pawn
/// pushes (4).
const PIECE_TYPES: &[crate::variants::PieceInfo] = &[
        crate::variants::PieceInfo {
            code: "K",
            name: "King",
            movement: "K: one step in any direction; castles with an unmoved Rook that started on its rank or file, vertically too: the King moves 1, 2 or 3 squares towards a Rook 1, 2-4 or 5-7 squares away, and the Rook lands next to the King on the side the King came from (5)",
        },
        QUEEN,
        crate::variants::PieceInfo {
            code: "R",
            name: "Rook",
            movement: "R: any distance along files and ranks; castles with its King along a rank or a file (5)",
        },
        BISHOP,
        KNIGHT,
        crate::variants::PieceInfo {
            code: "P",
            name: "Pawn",
            movement: "mfWcfF, mfnD and mfnH from its first rank, mfnD from its second rank, moved or not; en passant on every square passed; promotes to Q, R, B or N on the last rank (4)",
        },
    ];
