//! Mitosis Chess (rules/mitosis.md): a 9x9 board with three-square bases behind each side,
//! majors (General, Queen, Chancellor, Archbishop) that split into their minor components when
//! captured, a non-royal King whose loss removes every minor of its side, and end rules by
//! piece count and rank.
//!
//! - [`types`]: kinds, pieces, the packed ply;
//! - [`position`]: bitboards, move generation, make/unmake (splitting, placement, King loss);
//! - [`fen`]: FEN with `*` cells and the pending hand, move tokens;
//! - [`san`]: the PGN notation (SAN with placements, rules/mitosis.md 9);
//! - [`rules`]: the end of the game (rules/mitosis.md 6);
//! - [`eval`]: the evaluator.
//!
//! Plies: a placement of pending components is its own ply that keeps the side to move
//! (design.md "Plies and turns"); the protocol joins it with the board move that follows into
//! one turn `R@d10,B@f10;d10d4` (rules/mitosis.md 4 \[D4\]).
//!
//! Readings of the rules file where it leaves a choice (all as written):
//! - A piece capturing from its own base is never restricted by 5.1: nothing can capture on
//!   a base square, so a base square is never "attacked".
//! - 7: the hand holds all parts of the split whenever at least one base square is free (M5
//!   shows `[rbn]` with one free square); only with a full base are the parts lost at once.
//! - 6.1 is applied while parts are pending: a side left with one main-board piece loses at
//!   once even if it could place parts next turn (base and pending pieces do not count).
//! - The en passant squares are always written after a 2- or 3-square push (M3), whether or
//!   not an enemy pawn can use them; they are part of the zobrist key.
//! - The capture clock is not advanced by a placement ply (it counts board moves).
//! - Perft applies only the win rules 6.1-6.2 (protocol.md 5); the search also applies the
//!   draws of 6.1-6.2 and the clock adjudication of 6.3 through [`Rules::verdict`].

pub mod eval;
pub mod fen;
pub mod network;
pub mod position;
pub mod rules;
pub mod san;
pub mod types;

pub use fen::START_FEN;
pub use position::Mitosis;
pub use types::{Kind, MitosisMove, MitosisPiece, Parts};

use crate::core::geometry::Geometry;
use crate::core::{Bitboard, Color, MoveList, Square};
use crate::variants::{
    Evaluation, FenError, Game, MoveError, Notation, PieceInfo, Rules, Scope, SearchProfile,
    StagedGeneration, Terminal, VariantInfo, Verdict,
};
use position::{BASE_SQUARES, MAIN, TABLES};

/// The board of Mitosis: 9 files x ranks 0..10, where ranks 0 and 10 only have files d-f (the
/// bases); corners light (rules/mitosis.md 1).
pub const BOARD_MITOSIS: Geometry = {
    let files = 9u8;
    let mut cells: u128 = 0;
    let mut row = 0;
    while row < 11 {
        let mut f = 0;
        while f < 9 {
            if (row != 0 && row != 10) || (f >= 3 && f <= 5) {
                cells |= 1u128 << (row * files as usize + f);
            }
            f += 1;
        }
        row += 1;
    }
    Geometry {
        files,
        ranks: 11,
        // Ranks are labelled 0 to 10 (rules/mitosis.md 1).
        first_rank: 0,
        cells,
        light_parity: 1,
    }
};

impl Mitosis {
    /// Appends the legal placements of the pending components (rules/mitosis.md 4, 6): all of
    /// them when the side to move has a board move already, else those after which a placed
    /// piece can move (placed pieces only add moves: base pieces block no line).
    fn legal_placements(&self, list: &mut MoveList<MitosisMove>) {
        let mut scratch = MoveList::new();
        self.board_moves(&mut scratch, false);
        let any_board_move = !scratch.is_empty();
        scratch.clear();
        self.placements(&mut scratch);
        let us = self.stm();
        let occ = self.occupied();
        let free = MAIN & !self.color_bb(us);
        for &m in &scratch {
            let ok = any_board_move
                || BASE_SQUARES[us.index()]
                    .iter()
                    .enumerate()
                    .any(|(i, &sq)| match m.slot(i) {
                        Some(k) => TABLES.attacks(us, k, sq as usize, occ) & free != 0,
                        None => false,
                    });
            if ok {
                list.push(m);
            }
        }
    }

    /// A human-readable board (rank 10 at the top, bases marked).
    pub fn board_diagram(&self) -> String {
        let mut s = String::new();
        for row in (0..11).rev() {
            s.push_str(&format!("{:>3} ", row));
            for file in 0..9 {
                let sq = (row * 9 + file) as Square;
                let c = if !BOARD_MITOSIS.is_square(sq) {
                    ' '
                } else {
                    self.piece_at(sq).map_or('.', |p| p.fen_char())
                };
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s.push_str("     a b c d e f g h i\n");
        s
    }
}

/// The FEN fields a Mitosis position sets beside its board and hand (rules 7; protocol.md 8).
const MITOSIS_FIELDS: [crate::variants::FenField; 3] = [
    crate::variants::FenField {
        key: "ep",
        kind: crate::variants::FieldKind::Text,
        label: "En passant: every square passed, ascending (e3e4), or -",
    },
    crate::variants::CLOCK_FIELDS[0],
    crate::variants::CLOCK_FIELDS[1],
];

impl Rules for Mitosis {
    type Move = MitosisMove;

    const INFO: VariantInfo = VariantInfo {
        name: "mitosis",
        files: 9,
        ranks: 11,
        pocket: true,
        portions: 2,
        fields: &MITOSIS_FIELDS,
        multi_ply_turns: true,
        // Ranks are labelled 0 to 10 (rules/mitosis.md 1).
        first_rank: 0,
        pieces: PIECE_TYPES,
        holes: &MITOSIS_HOLES,
        ..VariantInfo::DEFAULTS
    };

    fn startpos() -> Self {
        Mitosis::read_fen(START_FEN).expect("start FEN is valid")
    }

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.stm()
    }

    fn legal_moves(&self, list: &mut MoveList<MitosisMove>) {
        if self.pending().is_empty() {
            self.board_moves(list, false);
        } else {
            self.legal_placements(list);
        }
    }

    #[inline(always)]
    fn make(&mut self, m: MitosisMove) {
        Mitosis::make(self, m);
    }

    #[inline(always)]
    fn unmake(&mut self) {
        Mitosis::unmake(self);
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }

    /// Null moves only without pending parts and with some pieces besides pawns and King
    /// (zugzwang then is rare: the no-legal-move rule needs every piece blocked).
    fn make_null(&mut self) -> bool {
        let sound = {
            let us = self.stm();
            self.pending().is_empty()
                && (self.color_bb(us)
                    & !(self.pieces(us, Kind::Pawn) | self.pieces(us, Kind::King)))
                .count()
                    >= 2
        };
        if sound {
            Mitosis::make_null(self);
        }
        sound
    }

    /// rules/mitosis.md 6, in order: the bare rule, the one-piece wins and the draws of
    /// 6.1-6.2, then the 50-move capture clock adjudication (6.3); no repetition rule (6.5).
    /// Perft applies only the wins of 6.1-6.2 ([`Scope::Wins`], protocol.md 7); the game and
    /// the search apply them all.
    fn verdict(&self, scope: Scope) -> Option<Verdict> {
        let stm = self.stm();
        if let Some((v, reason)) = rules::material_verdict(self) {
            if scope == Scope::Wins && v == rules::Decision::Draw {
                return None;
            }
            return Some(verdict(v.terminal(stm), reason, ""));
        }
        if scope == Scope::Wins || self.clock() < rules::CLOCK_LIMIT {
            return None;
        }
        let (v, how) = rules::adjudicate(self);
        Some(verdict(v.terminal(stm), "fifty-move rule", how))
    }

    /// rules/mitosis.md 6.4: without a legal move the game is adjudicated as by the clock.
    fn no_moves_verdict(&self) -> Verdict {
        let (v, how) = rules::adjudicate(self);
        verdict(v.terminal(self.stm()), "no legal move", how)
    }
}

impl Notation for Mitosis {
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Mitosis::read_fen(fen)
    }

    fn fen(&self) -> String {
        self.write_fen()
    }

    /// Tokens of rules/mitosis.md 7: `e2e5`, `d0d4`, `e8e9r`, placements `R@d10,B@f10`.
    fn parse_move(&self, token: &str) -> Result<MitosisMove, MoveError> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        self.parse_token(token, &list)
    }

    fn move_token(&self, m: MitosisMove) -> String {
        self.token(m)
    }

    /// SAN with placements (rules/mitosis.md 9): `e5`, `Gde3`, `Rxf7`, `e9=R`, `R@d10,B@f10`.
    fn pgn_move(&self, m: MitosisMove) -> String {
        san::san(self, m)
    }

    /// Words cut at `;` into plies: a placement turn is two ([`san::split_record`]).
    fn split_record(text: &str) -> Vec<String> {
        san::split_record(text)
    }

    /// A token or the notation of [`Notation::pgn_move`] ([`san::import_move`]).
    fn import_move(&self, text: &str) -> Result<MitosisMove, MoveError> {
        san::import_move(self, text)
    }

    fn display(&self) -> String {
        let pending = if self.pending().is_empty() {
            "none".to_string()
        } else {
            Parts::KINDS
                .iter()
                .enumerate()
                .filter(|(i, _)| self.pending().0 & (1 << i) != 0)
                .map(|(_, k)| k.letter().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{}\nFen: {}\nKey: {:016X}\nSide to move: {:?} ({})\nPending parts to place: {pending}\nMain-board pieces: white {} black {}\nCapture clock: {}",
            self.board_diagram(),
            self.fen(),
            self.key(),
            self.stm(),
            if self.pending().is_empty() { "board move" } else { "placement, then a board move" },
            self.main_count(Color::White),
            self.main_count(Color::Black),
            self.clock()
        )
    }
}

impl Evaluation for Mitosis {
    type EvalParams = eval::MitosisParams;

    /// The hand-written evaluation plus the network's residual, when `EvalFile` loaded
    /// one ([`crate::variants::network`]).
    fn evaluate(&self) -> i32 {
        eval::evaluate(self) + crate::variants::network::residual(self)
    }

    /// The hand-written evaluation with `p`, plus the network's residual as in
    /// [`Evaluation::evaluate`] (the trainer empties the slot to read the evaluation alone).
    fn evaluate_with(&self, p: &eval::MitosisParams) -> i32 {
        eval::evaluate_with(self, p) + crate::variants::network::residual(self)
    }

    fn eval_report(&self) -> String {
        crate::variants::network::with_residual(self, eval::report(self))
    }

    /// The pawn structure: a hash of both sides' pawns.
    #[inline]
    fn correction_key(&self) -> Option<u64> {
        let [w, b] = [Color::White, Color::Black].map(|c| self.pieces(c, Kind::Pawn));
        let half = |x: u128| {
            crate::core::zobrist::mix64(x as u64 ^ ((x >> 64) as u64).wrapping_mul(0x9E37))
        };
        Some(crate::core::zobrist::mix64(
            half(w) ^ half(b).rotate_left(17),
        ))
    }

    /// MVV-LVA on the evaluator's split-aware values.
    fn tactical_order(&self, m: MitosisMove) -> i32 {
        if m.is_placement() {
            return 0;
        }
        let victim = self
            .piece_at(m.to())
            .map_or(if m.is_ep() { 100 } else { 0 }, |p| eval::net_value(p.kind));
        let attacker = self
            .piece_at(m.from())
            .map_or(0, |p| eval::net_value(p.kind));
        let promo = m.promotion().map_or(0, eval::net_value);
        victim * 16 - attacker / 8 + promo
    }

    /// A one-exchange static exchange test: the captured piece's net value (a King counts with
    /// the minors its loss removes, rules/mitosis.md 5.2), minus the mover's net value when the
    /// opponent attacks the target square (its King included), against `threshold`.
    fn see_ge(&self, m: MitosisMove, threshold: i32) -> bool {
        if m.is_placement() {
            return true;
        }
        let us = self.stm();
        let them = !us;
        let mut gain = match self.piece_at(m.to()) {
            Some(p) if p.kind == Kind::King => {
                let mut v = eval::face(Kind::King);
                for k in Parts::KINDS {
                    v += self.pieces(them, k).count() as i32 * eval::face(k);
                }
                v
            }
            Some(p) => eval::net_value(p.kind),
            None if m.is_ep() => eval::face(Kind::Pawn),
            None => 0,
        };
        let mut mover = self.piece_at(m.from()).map_or(Kind::Pawn, |p| p.kind);
        if let Some(k) = m.promotion() {
            gain += eval::face(k) - eval::face(Kind::Pawn);
            mover = k;
        }
        if gain < threshold {
            return false;
        }
        let to = m.to() as usize;
        let their_king = self.pieces(them, Kind::King);
        let defended = self.attacked_by(them, to) || TABLES.king(to) & their_king != 0;
        if defended {
            gain -= if mover == Kind::King {
                eval::face(Kind::King)
                    + Parts::KINDS
                        .iter()
                        .map(|&k| self.pieces(us, k).count() as i32 * eval::face(k))
                        .sum::<i32>()
            } else {
                eval::net_value(mover)
            };
        }
        gain >= threshold
    }
}

impl StagedGeneration for Mitosis {
    fn tactical_moves(&self, list: &mut MoveList<MitosisMove>) {
        if self.pending().is_empty() {
            self.board_moves(list, true);
        } else {
            self.legal_placements(list);
        }
    }
    /// Captures, promotions, and placements (a pending node has nothing else).
    fn is_tactical(&self, m: MitosisMove) -> bool {
        m.is_placement() || m.promotion().is_some() || m.is_ep() || self.piece_at(m.to()).is_some()
    }
}

impl Game for Mitosis {
    const SEARCH: SearchProfile = SearchProfile {
        // Singular extensions are off in Mitosis: they lost in its matches (docs/experiments.md,
        // "Measurements moved out of the code"). Quiescence delta pruning stays on.
        singular_extensions: false,
        // The evaluation weighs the capture clock, which decides the game at 100 plies
        // (`rules/mitosis.md` 6.3, the 50-move rule) and which the key leaves out.
        eval_in_key: false,
        // Start, an opening, a middlegame with base pieces, a pending split, an endgame.
        bench_fens: &[
            START_FEN,
            "***3***/caqgkgqac/pp1pp1ppp/2p2p3/9/9/4P4/2A6/PPPP1PPPP/C1QGKGQAC/***3***[-] w - - 0 3",
            "***rb1***/c1qgk1q1c/pp1pp1ppp/2p2pa2/9/9/4P4/9/PPPP1PPPP/C1QGK1QAC/***N2***[-] b - - 0 8",
            "***1n1***/k8/9/5Q3/9/9/9/7p1/9/4K4/***3***[rb] b - - 0 1",
            "***3***/4k4/2p6/9/3r5/5P3/9/2B6/4K4/9/***3***[-] w - - 0 30",
        ],
        // `UCI_ShowWDL` model fitted by `scripts/fit_wdl.py` to 200 self-play games at 4000 nodes
        // from a 200-opening book (39944 scored turns; protocol.md section 6).
        wdl: crate::variants::WdlModel { a: 49.0, b: 421.0 },
        ..SearchProfile::DEFAULT
    };
}

/// A [`Verdict`] of `terminal` by `reason`, with `detail` (empty for none).
const fn verdict(terminal: Terminal, reason: &'static str, detail: &'static str) -> Verdict {
    Verdict {
        terminal,
        reason,
        detail,
    }
}

impl crate::variants::diagram::PieceMoves for Mitosis {
    fn piece_moves(
        code: &str,
        from: Square,
        others: &[(Square, bool)],
        out: &mut Vec<crate::variants::diagram::Reached>,
    ) -> Result<(), String> {
        let kind = match code.as_bytes() {
            [c] => Kind::from_letter(*c as char),
            _ => None,
        }
        .ok_or_else(|| format!("'{code}' is not a Mitosis piece"))?;
        if !BOARD_MITOSIS.is_square(from) {
            return Err(format!("cell {from} is not a square of the Mitosis board"));
        }
        let mut pos = Mitosis::empty();
        pos.put(
            from as usize,
            MitosisPiece {
                color: Color::White,
                kind,
            },
        );
        for &(sq, enemy) in others {
            let color = if enemy { Color::Black } else { Color::White };
            pos.put(
                sq as usize,
                MitosisPiece {
                    color,
                    kind: Kind::Knight,
                },
            );
        }
        let enemies = pos.color_bb(Color::Black);
        let mut list = MoveList::new();
        pos.board_moves(&mut list, false);
        for m in list.iter().filter(|m| m.from() == from) {
            let to = m.to();
            let captured = if enemies >> to & 1 != 0 {
                1u128 << to
            } else {
                0
            };
            out.push(crate::variants::diagram::Reached { to, captured });
        }
        Ok(())
    }
}

/// rules/mitosis.md 2: majors split into their parts when captured (4); the King is not
/// royal (5); Rooks, Bishops and Knights also stand in the bases (1).
const PIECE_TYPES: &[PieceInfo] = &[
        PieceInfo {
            code: "K",
            name: "King",
            movement: "K; not royal: no check, may stand on attacked squares; may be taken only from a square its side does not attack, and its capture removes that side's R, B and N (2, 5)",
        },
        PieceInfo {
            code: "G",
            name: "General",
            movement: "QN; splits into R, B and N when captured (4)",
        },
        PieceInfo {
            code: "Q",
            name: "Queen",
            movement: "Q; splits into R and B when captured (4)",
        },
        PieceInfo {
            code: "C",
            name: "Chancellor",
            movement: "RN; splits into R and N when captured (4)",
        },
        PieceInfo {
            code: "A",
            name: "Archbishop",
            movement: "BN; splits into B and N when captured (4)",
        },
        PieceInfo {
            code: "R",
            name: "Rook",
            movement: "R; also out of a base, where split parts are placed (1, 4); removed when its side's King is captured (5)",
        },
        PieceInfo {
            code: "B",
            name: "Bishop",
            movement: "B; also out of a base, where split parts are placed (1, 4); removed when its side's King is captured (5)",
        },
        PieceInfo {
            code: "N",
            name: "Knight",
            movement: "N; also out of a base, where split parts are placed (1, 4); removed when its side's King is captured (5)",
        },
        PieceInfo {
            code: "P",
            name: "Pawn",
            movement: "mfWcfF, mfnD and mfnH from its second rank; en passant on every square passed; promotes to R, B or N (3)",
        },
    ];

/// The cells of the 9x11 box that are not squares: the corners of ranks 0 and 10, where only
/// the d, e and f files are squares (rules/mitosis.md 1). A unit test checks them against
/// [`BOARD_MITOSIS`].
const MITOSIS_HOLES: [&str; 12] = [
    "a0", "b0", "c0", "g0", "h0", "i0", "a10", "b10", "c10", "g10", "h10", "i10",
];

#[cfg(test)]
mod geometry_tests {
    use super::BOARD_MITOSIS;
    use crate::core::attacks::{RayTable, ORTHOGONAL};
    use crate::core::{Bitboard, SquareError};

    #[test]
    fn cells_and_names() {
        // rules/mitosis.md 1: 9x9 plus d0-f0 and d10-f10; corners light.
        let g = BOARD_MITOSIS;
        assert_eq!(g.squares().count(), 81 + 6);
        for name in ["d0", "e0", "f0", "d10", "e10", "f10", "a1", "i9"] {
            let sq = g.parse_square(name).unwrap();
            assert_eq!(g.name(sq).to_string(), name);
        }
        for bad in ["a0", "c0", "g10", "i10"] {
            assert_eq!(
                g.parse_square(bad),
                Err(SquareError::OffBoard(bad.to_string()))
            );
        }
        assert!(g.is_light(g.parse_square("a1").unwrap()));
        assert!(g.is_light(g.parse_square("i9").unwrap()));
        assert_eq!(
            g.parse_square_prefix("d10d9").unwrap(),
            (g.parse_square("d10").unwrap(), 3)
        );
        assert_eq!(
            g.parse_square_prefix("e1e0").unwrap(),
            (g.parse_square("e1").unwrap(), 2)
        );
    }

    #[test]
    fn rook_rays_reach_the_bases() {
        // On the raw geometry a rook on e0 (base) sees e1..e10 and d0, f0; the base rules that
        // forbid ending in a base are the variant's (rules/mitosis.md 1).
        let m = BOARD_MITOSIS;
        let rm = RayTable::<u128>::new(&m, &ORTHOGONAL);
        let e0 = m.parse_square("e0").unwrap();
        assert_eq!(rm.rider_attacks(e0, 0).count(), 10 + 2);
        let d0 = m.parse_square("d0").unwrap();
        assert!(rm.rider_attacks(e0, 0).has(d0 as usize));
        // Rays stop at cells that are not squares: nothing west of d0.
        assert_eq!(rm.rider_attacks(d0, 0).count(), 10 + 2);
    }
}
