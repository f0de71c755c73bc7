//! Mutatis Mutandis as a [`Game`]: the generic protocol, search, perft and arena play it.

use crate::core::Color;
use crate::variants::{
    Evaluation, FenError, Game, GenerationStage, MoveError, Notation, PlyList, ProbeLimits, Rules,
    Scope, SearchProfile, StagedGeneration, Staging, VariantInfo, Verdict,
};

use super::board::{iter, square_name, Board};
use super::eval::{self, PIECE_VALUES};
use super::legal::{is_tactical_action, royals, MoveKinds};
use super::moves::{MutatisMove, MutatisMoveList};
use super::piece::{Piece, State};
use super::position::{DropWindow, MutatisMutandis};
use super::{fen, notation, san, see, setup};
use super::{Action, ActionSink};
use crate::core::Square;

/// The 50-move rule of rules 5: a draw once this many plies passed without a removal,
/// pawn-family move, drop, promotion or conversion.
pub const FIFTY_MOVE_PLIES: u16 = 100;

/// The middlegame and special-pieces positions of rules 13, searched by `bench` with the start.
const BENCH: &[&str] = &[
    fen::START_FEN,
    "[gr][am]1[mk]1rq[wi]/p[dk]2ppp1/1[bp]6/[nr]1[bp]4[bp]/Q3[ch][DR]1[BP]/[BP]3[BP][BP]2/[AC]PP1P1P[IM]/1[AM]C1[MK][MA][N02][NR] w Ha - 6 16 reserve:DA.DK.N.GR.CR.R.NW.PV.CH.WI.OX/ar.c.n.cr.nw.pv.ll.im.ma.hn.ox drops:2/2 swapban:-",
    "[gr][nr]k[dk][ch]r1[wi]/p3p[ss]pp/2[bp]5/1[bp]1[bp]1[bp]P1/[BP]4[SP]1[BP]/5[oc]2/1PPPP2[IM]/[LL][AR]CKQ[MA][HN][AM] b KAHah - 0 11 reserve:NR.DA.DK.N.GR.CR.R.NW.PV.CH.WI.OX/am.ar.c.n.cr.nw.pv.ll.im.ma.hn.ox drops:1/1 swapban:-",
    "[ll]3k3/1p[wi]2p2/2[sw]2[im]2/[ad]2[CH]1[sh][cp]1/3[SW]4/2[OX]1[AC]3/1p1P2[MA]1/4K2R w KH - 0 11 reserve:N.GR/q.am drops:0/0 swapban:-",
];

impl MutatisMutandis {
    /// The game's verdict after checkmate, Wuss mate and stalemate (rules 5): threefold
    /// repetition, then the 50-move rule; `None` with no legal turn (the caller's
    /// [`Rules::no_moves_verdict`]) or none due.
    ///
    /// Out of line and cold: its turn list is a large stack frame, and the search's path
    /// through [`Rules::verdict`] would otherwise touch every page of it at each node.
    #[cold]
    #[inline(never)]
    fn game_verdict(&self) -> Option<Verdict> {
        let mut list = MutatisMoveList::new();
        self.generate_turns(&mut list, MoveKinds::All);
        if list.is_empty() {
            None
        } else if self.repetitions(2) >= 2 {
            Some(Verdict::draw("threefold repetition"))
        } else if self.half >= FIFTY_MOVE_PLIES {
            Some(Verdict::draw("fifty-move rule"))
        } else {
            None
        }
    }
}

/// The FEN fields a Mutatis Mutandis position sets beside its board (rules 11; protocol.md 8).
const MUTATIS_FIELDS: [crate::variants::FenField; 7] = [
    crate::variants::FenField {
        key: "castling",
        kind: crate::variants::FieldKind::Text,
        label: "Unmoved King and corner pieces (KAHkah, or -)",
    },
    crate::variants::EP_FIELD,
    crate::variants::CLOCK_FIELDS[0],
    crate::variants::CLOCK_FIELDS[1],
    crate::variants::FenField {
        key: "tag:reserve",
        kind: crate::variants::FieldKind::Pieces(Some('.')),
        label: "Reserves, in drop order (White/Black)",
    },
    crate::variants::FenField {
        key: "tag:drops",
        kind: crate::variants::FieldKind::Pair,
        label: "Drops made (White/Black)",
    },
    crate::variants::FenField {
        key: "tag:swapban",
        kind: crate::variants::FieldKind::Text,
        label: "Swap banned next turn (two squares, or -)",
    },
];

impl Rules for MutatisMutandis {
    type Move = MutatisMove;

    const INFO: VariantInfo = VariantInfo {
        name: "mutatismutandis",
        files: 8,
        ranks: 8,
        pocket: false,
        portions: 2,
        fields: &MUTATIS_FIELDS,
        compound_plies: true,
        pieces: &super::piece::PIECE_INFO,
        // The King, the Maoking and the Wuss (rules 5).
        royals: &["K", "MK", "WU"],
        // Games start from random setups (rules 3).
        pregame: &["seed"],
        commands: &["setup"],
        ..VariantInfo::DEFAULTS
    };

    /// The example start of rules 11 ([`fen::START_FEN`]).
    fn startpos() -> Self {
        fen::parse(fen::START_FEN).expect("the start FEN of rules 11 is valid")
    }

    /// rules 3: the random setup drawn from `seed`.
    fn random_setup(seed: u64) -> Option<Self> {
        Some(setup::random_setup(seed))
    }

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.side
    }

    fn legal_moves(&self, list: &mut PlyList<MutatisMove>) {
        self.generate_turns(list, MoveKinds::All);
    }

    #[inline(always)]
    fn make(&mut self, m: MutatisMove) {
        self.make_turn(m.action, m.drop);
    }

    #[inline(always)]
    fn unmake(&mut self) {
        self.unmake_turn();
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        MutatisMutandis::key(self)
    }

    /// A royal piece of the side to move is attacked (rules 5): check, or an attacked Wuss.
    fn in_check(&self) -> bool {
        self.royal_in_danger()
    }

    /// A pass is sound enough when the side has more than its royals, pawns and two other
    /// pieces (zugzwang is then rare).
    fn make_null(&mut self) -> bool {
        let sound = {
            let b = &self.board;
            let own = b.color_bb(self.side);
            let pawns = own
                & (b.state_bb(super::piece::State::Pawn)
                    | b.state_bb(super::piece::State::BerolinaPawn)
                    | b.state_bb(super::piece::State::ScorpionPawn));
            (own & !pawns & !royals(b, self.side)).count_ones() > 2
        };
        if sound {
            self.make_null_turn();
        }
        sound
    }

    /// rules 5: the 50-move rule and threefold repetition (the search: any repetition
    /// inside its tree), after checkmate, Wuss mate and stalemate ([`Rules::no_moves_verdict`]).
    #[inline]
    fn verdict(&self, scope: Scope) -> Option<Verdict> {
        match scope {
            Scope::Wins => None,
            Scope::Search(plies_from_root) => {
                if self.half >= FIFTY_MOVE_PLIES {
                    Some(Verdict::draw("fifty-move rule"))
                } else if self.is_repetition(plies_from_root) {
                    Some(Verdict::draw("repetition"))
                } else {
                    None
                }
            }
            Scope::Game | Scope::Claims => self.game_verdict(),
        }
    }

    /// rules 5: no legal turn with the King attacked is checkmate, with another royal
    /// attacked a Wuss mate (both lost); without, stalemate (a draw).
    fn no_moves_verdict(&self) -> Verdict {
        if !self.royal_in_danger() {
            return Verdict::draw("stalemate");
        }
        let b = &self.board;
        let king_attacked = iter(royals(b, self.side))
            .filter(|&sq| b.piece(sq).is_some_and(|p| p.state.family() == 1))
            .any(|sq| super::generate::attacked(b, sq));
        Verdict::loss(if king_attacked {
            "checkmate"
        } else {
            "wuss mate"
        })
    }

    fn move_lists_fit(&self) -> bool {
        self.turns_fit()
    }
}

impl Notation for MutatisMutandis {
    /// rules 11; see [`fen::parse`].
    fn from_fen(text: &str) -> Result<Self, FenError> {
        fen::parse(text)
    }

    fn fen(&self) -> String {
        fen::write(self)
    }

    fn parse_move(&self, token: &str) -> Result<MutatisMove, MoveError> {
        notation::parse(self, token)
    }

    fn move_token(&self, m: MutatisMove) -> String {
        notation::token(self, &m)
    }

    /// SAN-style (rules/mutatis-mutandis.md 12): `N11c3`, `exd5`, `e8=AM`, `SWd1,Rb3`, `O-O`,
    /// `e4;AM@c1`, with `+` or `#` ([`san::san`]).
    fn pgn_move(&self, m: MutatisMove) -> String {
        san::san(self, &m)
    }

    /// A token or the notation of [`Notation::pgn_move`] ([`san::import_move`]).
    fn import_move(&self, text: &str) -> Result<MutatisMove, MoveError> {
        san::import_move(self, text)
    }

    fn display(&self) -> String {
        display(self)
    }

    /// `setup [seed]`: prints `info string setup <FEN>`, a random setup of rules 3 (from the
    /// seed, or from the clock when none is given), for `position fen`.
    fn variant_command(
        &self,
        line: &str,
        probe: &mut dyn FnMut(&Self, ProbeLimits) -> Option<i32>,
    ) -> Result<String, String> {
        let _ = probe;
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (Some("setup"), seed, None) => {
                let seed = match seed {
                    Some(s) => s
                        .parse::<u64>()
                        .map_err(|_| format!("setup: '{s}' is not a seed (0..2^64-1)"))?,
                    None => crate::core::clock_seed(),
                };
                Ok(format!(
                    "info string setup {}",
                    setup::random_setup(seed).fen()
                ))
            }
            _ => Err(format!("usage: setup [seed], not '{line}'")),
        }
    }
}

impl Evaluation for MutatisMutandis {
    type EvalParams = eval::EvalParams;

    /// The hand-written evaluation plus the network's residual, when `EvalFile` loaded
    /// one ([`crate::variants::network`]).
    fn evaluate(&self) -> i32 {
        eval::evaluate(self) + crate::variants::network::residual(self)
    }

    /// The hand-written evaluation with `p`, plus the network's residual as in
    /// [`Evaluation::evaluate`] (the trainer empties the slot to read the evaluation alone).
    fn evaluate_with(&self, p: &eval::EvalParams) -> i32 {
        eval::evaluate_with(self, p) + crate::variants::network::residual(self)
    }

    fn eval_report(&self) -> String {
        crate::variants::network::with_residual(self, eval::report(self))
    }

    /// Most valuable victims first (own pieces removed count against), promotion and
    /// conversion gains, least valuable actor first.
    fn tactical_order(&self, m: MutatisMove) -> i32 {
        let a = &m.action;
        let actor = self
            .board
            .piece(a.from)
            .map_or(0, |p| PIECE_VALUES[p.state.index()] / 16);
        see::gain(self, a) - actor
    }

    /// A one-exchange static test (rules 6, 7 make full exchange sequences impractical): the
    /// material the turn wins (captures by any mechanism, own pieces removed counted against,
    /// promotion, conversion) must reach `threshold`, and if the piece it exposes (the mover
    /// on its landing square, a slung piece of the mover, a converted piece) can then be
    /// captured, it must reach `threshold` after losing that piece too.
    fn see_ge(&self, m: MutatisMove, threshold: i32) -> bool {
        see::see_ge(self, &m.action, threshold)
    }
}

impl StagedGeneration for MutatisMutandis {
    /// Every shortcut: the tactical and quiet turns partition the legal ones (`MoveKinds`),
    /// so the search generates the quiet turns only when it reaches them; decoding judges only
    /// the actions of one piece, where generating judges every action with every drop square;
    /// and royal safety, the costly part of a turn's legality (every action replayed on a
    /// scratch board and the royals' attackers generated), is judged only for the turns the
    /// search is about to make.
    const STAGING: Staging = Staging {
        split: true,
        decodes_packed: true,
        lazy_legality: true,
    };

    /// Captures (any mechanism), promotions and conversions.
    fn is_tactical(&self, m: MutatisMove) -> bool {
        is_tactical_action(&m.action)
    }

    fn tactical_moves(&self, list: &mut PlyList<MutatisMove>) {
        self.generate_turns(list, MoveKinds::Tactical);
    }

    #[inline]
    fn staged_moves(&self, stage: GenerationStage, list: &mut PlyList<MutatisMove>) {
        let kinds = match stage {
            GenerationStage::Tactical => MoveKinds::Tactical,
            GenerationStage::Quiet => MoveKinds::Quiet,
        };
        self.pseudo_turns(list, kinds);
    }

    fn ply_from_packed(&self, packed: u32) -> Option<MutatisMove> {
        self.turn_from_packed(packed)
    }

    fn is_legal(&self, m: MutatisMove) -> bool {
        self.turn_is_legal(&m)
    }
}

impl Game for MutatisMutandis {
    const SEARCH: SearchProfile = SearchProfile {
        // Capture-check chains are long here and nearly every ply evades: two quiet evasions.
        qsearch_quiet_evasions: 2,
        // Turns here have tens of actions times the drop squares: 5 plies take a few seconds.
        bench_depth: 5,
        bench_fens: BENCH,
        // `UCI_ShowWDL` model fitted by `scripts/fit_wdl.py` to 200 self-play games at 4000 nodes
        // from a 200-opening book (14750 scored turns; protocol.md section 6).
        wdl: crate::variants::WdlModel { a: 0.0, b: 668.0 },
        ..SearchProfile::DEFAULT
    };
}

fn display(pos: &MutatisMutandis) -> String {
    let b = &pos.board;
    let mut s = String::new();
    for row in (0..8u8).rev() {
        s.push_str(&format!(" {} ", row + 1));
        for file in 0..8u8 {
            let cell = match b.piece(row * 8 + file) {
                Some(p) => p.to_string().replace(['[', ']'], ""),
                None => ".".to_string(),
            };
            s.push_str(&format!("{cell:>4}"));
        }
        s.push('\n');
    }
    s.push_str("      a   b   c   d   e   f   g   h   (upper case White, lower case Blue)\n");
    let reserve = |c: Color| {
        let r = pos.reserve(c);
        if r.is_empty() {
            "-".to_string()
        } else {
            r.pieces()
                .iter()
                .map(|st| st.code())
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    let window = |c: Color| match pos.drop_window(c) {
        DropWindow::Closed => "closed",
        DropWindow::Open => "open",
        DropWindow::Mandatory => "mandatory",
    };
    let flags = fen::write(pos);
    let corner = flags.split(' ').nth(2).unwrap_or("-");
    s.push_str(&format!(
        "Fen: {}\nKey: {:016X}\nTurn: {} (move {}), halfmove clock {}\n\
         Reserve white (next drop first): {} [drops made {}, window {}]\n\
         Reserve blue  (next drop first): {} [drops made {}, window {}]\n\
         Cornering flags: {corner}{}{}\n",
        pos.fen(),
        MutatisMutandis::key(pos),
        if pos.side == Color::White {
            "white"
        } else {
            "blue"
        },
        pos.full,
        pos.half,
        reserve(Color::White),
        pos.reserve(Color::White).drops_made(),
        window(Color::White),
        reserve(Color::Black),
        pos.reserve(Color::Black).drops_made(),
        window(Color::Black),
        pos.board
            .ep
            .map(|e| format!(", en passant {}", square_name(e)))
            .unwrap_or_default(),
        pos.board
            .swap_ban
            .map(|(x, y)| format!(", swap ban {}{}", square_name(x), square_name(y)))
            .unwrap_or_default(),
    ));
    s
}

/// Collects the actions of a diagram's piece (see [`crate::variants::diagram::PieceMoves`]):
/// those that move it or remove pieces; swaps without a victim, conversions and suicides are
/// left out.
struct DiagramSink<'a>(&'a mut Vec<crate::variants::diagram::Reached>);

impl ActionSink for DiagramSink<'_> {
    fn push(&mut self, a: Action) {
        use super::ActionKind as K;
        let moves = matches!(a.kind, K::Move | K::Sling);
        let removes = matches!(
            a.kind,
            K::Move | K::Sling | K::Shot | K::MutualDestruction | K::Swap
        );
        if moves || (removes && a.captures != 0) {
            self.0.push(crate::variants::diagram::Reached {
                to: a.to,
                captured: u128::from(a.captures),
            });
        }
    }
}

impl crate::variants::diagram::PieceMoves for MutatisMutandis {
    fn piece_moves(
        code: &str,
        from: Square,
        others: &[(Square, bool)],
        out: &mut Vec<crate::variants::diagram::Reached>,
    ) -> Result<(), String> {
        let state = State::from_code(code)
            .ok_or_else(|| format!("'{code}' is not a Mutatis Mutandis piece"))?;
        if from >= 64 {
            return Err(format!("cell {from} is off the 8x8 board"));
        }
        let mut b = Board::empty();
        b.put(
            from,
            Piece {
                state,
                color: Color::White,
            },
        );
        for &(sq, enemy) in others {
            let color = if enemy { Color::Black } else { Color::White };
            b.put(
                sq,
                Piece {
                    state: State::Knight,
                    color,
                },
            );
        }
        super::generate::actions_from(&b, from, &mut DiagramSink(out));
        Ok(())
    }
}
