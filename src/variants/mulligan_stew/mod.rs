//! Mulligan Stew Chess (rules/mulligan-stew.md): a 6x7 board, two Kings a side, a Mage in
//! hand, Assassins, a promotion pool, and turns of two portions (L: a piece on a light square,
//! then D: a piece on a dark square). Each portion is one ply; the side changes after the D
//! portion, or at once when the L portion captured the last enemy King.
//!
//! Files: [`board`] (pieces, squares, tables), [`moves`] (the ply type), [`position`]
//! (state, make/unmake, keys), [`movegen`], [`fen`], [`notation`] (tokens and the seed's
//! notation), [`eval`].

pub mod board;
pub mod eval;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod network;
pub mod notation;
pub mod position;

pub use board::{Kind, Piece};
pub use fen::START_FEN;
pub use moves::{Action, MulliganStewMove};
pub use position::MulliganStew;

use crate::core::{Color, MoveList};
use crate::variants::{
    Evaluation, FenError, Game, MoveError, Notation, PieceInfo, Rules, Scope, SearchProfile,
    StagedGeneration, Terminal, VariantInfo, Verdict,
};

/// The 200-ply clock (rules 6): a draw when the clock is at least this at an L portion.
pub const CLOCK_LIMIT: u16 = 200;

impl MulliganStew {
    /// A decided game seen from the side to move (rules 6): a side without Kings has lost.
    #[inline(always)]
    fn decided_now(&self) -> Option<Terminal> {
        if self.kingless(self.side) {
            Some(Terminal::Loss)
        } else if self.kingless(!self.side) {
            Some(Terminal::Win)
        } else {
            None
        }
    }
}

/// The FEN fields a Mulligan Stew position sets beside its board and hand (rules 7;
/// protocol.md 8).
const STEW_FIELDS: [crate::variants::FenField; 5] = [
    crate::variants::CLOCK_FIELDS[0],
    crate::variants::CLOCK_FIELDS[1],
    crate::variants::FenField {
        key: "tag:pool",
        kind: crate::variants::FieldKind::Pieces(None),
        label: "Promotion pools (White/Black)",
    },
    crate::variants::FenField {
        key: "tag:portion",
        kind: crate::variants::FieldKind::Text,
        label: "Portion to play: D, or empty for L",
    },
    crate::variants::FenField {
        key: "tag:moved",
        kind: crate::variants::FieldKind::Text,
        label: "Square of the piece moved in the L portion (in a D portion)",
    },
];

impl Rules for MulliganStew {
    type Move = MulliganStewMove;

    const INFO: VariantInfo = VariantInfo {
        name: "mulliganstew",
        files: 6,
        ranks: 7,
        pocket: true,
        portions: 2,
        fields: &STEW_FIELDS,
        multi_ply_turns: true,
        pieces: PIECE_TYPES,
        ..VariantInfo::DEFAULTS
    };

    fn startpos() -> Self {
        fen::parse(START_FEN).expect("start FEN is valid")
    }

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.side
    }

    fn legal_moves(&self, list: &mut MoveList<MulliganStewMove>) {
        self.generate(list, false);
    }

    #[inline(always)]
    fn make(&mut self, m: MulliganStewMove) {
        self.make_move(m);
    }

    #[inline(always)]
    fn unmake(&mut self) {
        self.unmake_move();
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        MulliganStew::key(self)
    }

    /// A null move passes a whole turn, so only at the start of an L portion (never in the
    /// middle of a turn).
    fn make_null(&mut self) -> bool {
        let sound = !self.portion_d && self.decided_now().is_none();
        if sound {
            self.make_null_turn();
        }
        sound
    }

    /// rules 6: a side without Kings has lost, even in the middle of a turn (every scope);
    /// then, judged at the start of an L portion, threefold repetition and the 200-ply clock
    /// (the search: a repetition inside its tree at once).
    #[inline]
    fn verdict(&self, scope: Scope) -> Option<Verdict> {
        const KINGS: &str = "both kings captured";
        match self.decided_now() {
            Some(Terminal::Loss) => return Some(Verdict::loss(KINGS)),
            Some(Terminal::Win) => return Some(Verdict::win(KINGS)),
            _ => {}
        }
        if self.portion_d {
            return None;
        }
        match scope {
            Scope::Wins => None,
            Scope::Search(plies_from_root) => {
                if self.clock >= CLOCK_LIMIT {
                    Some(Verdict::draw("200-ply clock"))
                } else if self.is_repetition(plies_from_root) {
                    Some(Verdict::draw("repetition"))
                } else {
                    None
                }
            }
            Scope::Game | Scope::Claims => {
                if self.repetitions(2) >= 2 {
                    Some(Verdict::draw("threefold repetition"))
                } else if self.clock >= CLOCK_LIMIT {
                    Some(Verdict::draw("200-ply clock"))
                } else {
                    None
                }
            }
        }
    }

    /// Never reached: a portion without moves is the skip `0000` (rules 5).
    fn no_moves_verdict(&self) -> Verdict {
        Verdict::draw("no legal ply")
    }
}

impl Notation for MulliganStew {
    /// rules 7; see [`fen::parse`].
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        fen::parse(fen)
    }

    fn fen(&self) -> String {
        fen::write(self)
    }

    fn parse_move(&self, token: &str) -> Result<MulliganStewMove, MoveError> {
        notation::parse(self, token)
    }

    fn move_token(&self, m: MulliganStewMove) -> String {
        notation::token(m)
    }

    /// The seed's notation in SAN's form ([`notation::written`]).
    fn pgn_move(&self, m: MulliganStewMove) -> String {
        notation::written(self, m)
    }

    fn display(&self) -> String {
        let mut s = String::new();
        for rank in (0..7).rev() {
            s.push_str(&format!(" {} ", rank + 1));
            for file in 0..6 {
                let sq = rank * 6 + file;
                let p = self.piece_at(sq as u8);
                s.push(' ');
                s.push(if p.is_none() {
                    if board::LIGHT >> sq & 1 == 1 {
                        '.'
                    } else {
                        ':'
                    }
                } else {
                    p.letter()
                });
            }
            s.push('\n');
        }
        s.push_str("    a b c d e f   (':' dark, '.' light)\n");
        let hand = |c: Color| if self.in_hand(c) { "M" } else { "-" };
        s.push_str(&format!(
            "Fen: {}\nKey: {:016X}\nTurn: {} portion {}{}\nHand: white {} black {}\nPool: {}\n",
            self.fen(),
            MulliganStew::key(self),
            if self.side == Color::White {
                "white"
            } else {
                "black"
            },
            if self.portion_d {
                "D (dark)"
            } else {
                "L (light)"
            },
            self.moved_square()
                .map(|s| format!(", moved {}", board::BOARD_6X7.name(s)))
                .unwrap_or_default(),
            hand(Color::White),
            hand(Color::Black),
            self.fen()
                .split(' ')
                .find(|f| f.starts_with("pool:"))
                .unwrap_or(""),
        ));
        s
    }

    fn split_record(text: &str) -> Vec<String> {
        notation::split_record(text)
    }

    fn import_move(&self, text: &str) -> Result<MulliganStewMove, MoveError> {
        notation::import(self, text)
    }
}

impl Evaluation for MulliganStew {
    type EvalParams = eval::StewParams;

    /// The hand-written evaluation plus the network's residual, when `EvalFile` loaded
    /// one ([`crate::variants::network`]).
    fn evaluate(&self) -> i32 {
        eval::evaluate(self) + crate::variants::network::residual(self)
    }

    /// The hand-written evaluation with `p`, plus the network's residual as in
    /// [`Evaluation::evaluate`] (the trainer empties the slot to read the evaluation alone).
    fn evaluate_with(&self, p: &eval::StewParams) -> i32 {
        eval::evaluate_with(self, p) + crate::variants::network::residual(self)
    }

    fn eval_report(&self) -> String {
        crate::variants::network::with_residual(self, eval::report(self))
    }

    /// MVV-LVA, with King captures first (they can end the game, rules 6).
    fn tactical_order(&self, m: MulliganStewMove) -> i32 {
        let victim = self.piece_at(m.to());
        let gain = match m.action() {
            Some(Action::Promotion) | Some(Action::PromoteInPlace) => eval::value(m.promo()),
            _ => 0,
        };
        let v = if victim.is_none() || m.action() == Some(Action::PromoteInPlace) {
            0
        } else if victim.kind() == Kind::King {
            5000
        } else {
            eval::value(victim.kind())
        };
        let attacker = match m.action() {
            Some(Action::Normal) | Some(Action::Promotion) => {
                eval::value(self.piece_at(m.from()).kind()) / 10
            }
            _ => 0,
        };
        v + gain - attacker
    }
}

impl StagedGeneration for MulliganStew {
    fn tactical_moves(&self, list: &mut MoveList<MulliganStewMove>) {
        self.generate(list, true);
    }
    /// Captures, promotions and promotion-only moves.
    fn is_tactical(&self, m: MulliganStewMove) -> bool {
        self.is_tactical_move(m)
    }
}

impl Game for MulliganStew {
    const SEARCH: SearchProfile = SearchProfile {
        // The start, the example game's middle, a D portion, and an endgame with a frozen Pawn.
        bench_fens: &[
            START_FEN,
            "rakka1/ppp2p/m2cp1/3p2/1KK2P/PPPPP1/RA1MAC[-] w - - 0 3 pool:Q/q",
            "r1mka1/p1p2p/p3p1/2Pp2/A3PP/PPKPa1/RA1M1C[-] b - - 3 5 pool:Q/q portion:D moved:e2",
            "rakkac/pppppp/6/6/1M4/PPPPPP/RAKKAC[m] w - - 0 1 pool:Q/q portion:D moved:b3",
            "2k3/1P3k/6/6/2a3/3K2/1K4[-] w - - 0 30 pool:QR/a",
        ],
        // `UCI_ShowWDL` model fitted by `scripts/fit_wdl.py` to 200 self-play games at 4000 nodes
        // from a 200-opening book (9104 scored turns; protocol.md section 6).
        wdl: crate::variants::WdlModel { a: 308.0, b: 455.0 },
        ..SearchProfile::DEFAULT
    };
}

impl crate::variants::diagram::PieceMoves for MulliganStew {
    fn piece_moves(
        code: &str,
        from: crate::core::Square,
        others: &[(crate::core::Square, bool)],
        out: &mut Vec<crate::variants::diagram::Reached>,
    ) -> Result<(), String> {
        let kind = match code.as_bytes() {
            [c] => Kind::from_letter(*c as char),
            _ => None,
        }
        .ok_or_else(|| format!("'{code}' is not a Mulligan Stew piece"))?;
        if from as usize >= board::NSQ {
            return Err(format!("cell {from} is off the 6x7 board"));
        }
        MulliganStew::lone_piece_moves(kind, from, others, out);
        Ok(())
    }
}

/// rules/mulligan-stew.md 3 (the pieces), 2 (two Kings, the Mage in hand, the Queen in the
/// pool), 4 (the pool), 5 (portions and drops) and 6 (losing the Kings).
const PIECE_TYPES: &[PieceInfo] = &[
        PieceInfo {
            code: "K",
            name: "King",
            movement: "FD: a diagonal step or a two-square orthogonal jump, so it keeps its square colour; two per side; no check: Kings may be captured, and a side with no King left loses (2, 3, 6)",
        },
        PieceInfo {
            code: "M",
            name: "Mage",
            movement:
                "K; or swaps with any piece 1-3 squares away on a queen line, over anything; starts in hand and is dropped on an empty square of the portion's colour; captured, it goes to its owner's pool, from which a Pawn may promote to it (3, 4, 5)",
        },
        PieceInfo {
            code: "Q",
            name: "Queen",
            movement: "Q; starts in the pool, and goes back there when captured: a Pawn may promote to it while its side has no Queen (2, 4)",
        },
        PieceInfo {
            code: "R",
            name: "Rook",
            movement: "R; captured, it goes to its owner's pool, from which a Pawn may promote to it (4)",
        },
        PieceInfo {
            code: "C",
            name: "Cardinal",
            movement: "BN; captured, it goes to its owner's pool, from which a Pawn may promote to it (4)",
        },
        PieceInfo {
            code: "A",
            name: "Assassin",
            movement: "cFcnA: captures one or two squares diagonally, the middle square empty; moves, never capturing, only by teleporting to an empty square of its colour; captured, it goes to its owner's pool, from which a Pawn may promote to it (3, 4)",
        },
        PieceInfo {
            code: "P",
            name: "Pawn",
            movement: "mfWcfF, mfjD (a leap over the occupied square ahead); no double step, no en passant; may promote from the pool on reaching the last rank, and a Pawn left there is frozen until its promotion-only move (3, 4)",
        },
    ];
