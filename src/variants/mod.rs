//! The variants: the contract they implement ([`contract`]: [`Rules`], [`Notation`],
//! [`Evaluation`], the umbrella [`Game`]), the values that cross it (outcomes, verdicts, errors,
//! descriptions), and the registry of variants ([`variant_registry!`](crate::variant_registry)).
//!
//! Search, perft, protocol and arena are generic over [`Game`] and monomorphised per variant:
//! the only `match` on the variant is [`with_variant!`](crate::with_variant) at the top of the
//! protocol and the CLI. See docs/design.md ("The `Game` contract") for the reasoning.

pub mod chess;
pub mod contract;
pub mod diagram;
pub mod fen_board;
pub mod mitosis;
#[doc(hidden)]
pub mod mock;
pub mod mulligan_stew;
pub mod muster;
pub mod mutatis_mutandis;
pub mod mystic;
pub mod network;
pub mod orthodox;
#[doc(hidden)]
pub mod playout;
pub mod turn;

pub use contract::{
    adjudicated_outcome, claimable_draw, debug_validate, fen_round_trip, game_outcome,
    split_record_words, Evaluation, Game, GameMove, GenerationStage, Notation, PlyList,
    ProbeLimits, Rules, SearchProfile, StagedGeneration, Staging, PROBE_MATE,
};

use crate::core::Color;

/// The result of a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// White won (`1-0`).
    WhiteWins,
    /// Black won (`0-1`).
    BlackWins,
    /// Drawn (`1/2-1/2`).
    Draw,
}

impl GameResult {
    /// The PGN result string: `1-0`, `0-1` or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The win of `side`.
    pub fn win_for(side: Color) -> GameResult {
        match side {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// A game that is over by rule: who won and which rule decided it (`checkmate`,
/// `stalemate`, `threefold repetition`, `fifty-move rule`, `insufficient material`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Who won, or a draw.
    pub result: GameResult,
    /// The rule, in words, as printed in `info string result <result> {<reason>}`.
    pub reason: String,
}

/// Settings of the protocol that a variant may honour (protocol.md 1), handed on by the
/// protocol to every position it sets up ([`Rules::apply_settings`]) without knowing which
/// variant honours which. `Default` is every setting off.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantSettings {
    /// `UCI_Chess960`: castling is written as the King taking its own Rook (`e1h1`) and the
    /// start positions of Chess960 are played (protocol.md 3).
    pub chess960: bool,
}

/// A decided position seen from the side to move, for the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Terminal {
    /// The side to move has won.
    Win,
    /// The side to move has lost (checkmated, Kings gone, ...).
    Loss,
    /// Drawn.
    Draw,
}

/// Which rules [`Rules::verdict`] applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The win rules that hold whatever the history and the counters (Kings captured,
    /// Mitosis's bare and one-piece wins, Muster's start in check): what perft applies
    /// (protocol.md 7) and what ends a multi-ply turn early.
    Wins,
    /// Every rule that ends the game by itself (draws by repetition or a move counter that
    /// need no claim included): what [`game_outcome`] reports.
    Game,
    /// The game's rules and the draws the player to move may claim (FIDE 9.2, 9.3): what a
    /// referee records ([`adjudicated_outcome`]).
    Claims,
    /// The rules the search applies at a node this many plies from the root: the game's and
    /// the claimable ones, with a repetition of a position reached inside the tree counting
    /// as a draw at once (before the root, a threefold one is needed).
    Search(usize),
}

/// A rule that ends the game, seen from the side to move, with its name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The result for the side to move.
    pub terminal: Terminal,
    /// The rule, as printed in `info string result <result> {<reason>}` (`checkmate`,
    /// `threefold repetition`, ...).
    pub reason: &'static str,
    /// How the rule decided, when it judges (Mitosis's adjudication: `more pieces`), else
    /// empty; printed after the reason and a colon.
    pub detail: &'static str,
}

impl Verdict {
    /// A loss of the side to move by `reason`.
    pub const fn loss(reason: &'static str) -> Verdict {
        Verdict {
            terminal: Terminal::Loss,
            reason,
            detail: "",
        }
    }

    /// A win of the side to move by `reason`.
    pub const fn win(reason: &'static str) -> Verdict {
        Verdict {
            terminal: Terminal::Win,
            reason,
            detail: "",
        }
    }

    /// A draw by `reason`.
    pub const fn draw(reason: &'static str) -> Verdict {
        Verdict {
            terminal: Terminal::Draw,
            reason,
            detail: "",
        }
    }

    /// The same verdict with `detail` (see [`Verdict::detail`]).
    pub const fn with_detail(self, detail: &'static str) -> Verdict {
        Verdict { detail, ..self }
    }

    /// The game result when `side` is to move.
    pub fn result(&self, side: Color) -> GameResult {
        match self.terminal {
            Terminal::Win => GameResult::win_for(side),
            Terminal::Loss => GameResult::win_for(!side),
            Terminal::Draw => GameResult::Draw,
        }
    }

    /// The [`Outcome`] when `side` is to move: the result and `reason` (`reason: detail`).
    pub fn outcome(&self, side: Color) -> Outcome {
        let reason = if self.detail.is_empty() {
            self.reason.to_string()
        } else {
            format!("{}: {}", self.reason, self.detail)
        };
        Outcome {
            result: self.result(side),
            reason,
        }
    }
}

/// What the protocol announces about a variant after `setoption name UCI_Variant`
/// (protocol.md 1: `info string variant <name> files F ranks R pocket P portions N startpos <FEN>`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// Protocol name (`chess`, `mulliganstew`, ...).
    pub name: &'static str,
    /// Number of files.
    pub files: u8,
    /// Number of rank rows (Mitosis: 11, counting ranks 0 and 10).
    pub ranks: u8,
    /// Whether the variant's FEN carries a hand of pieces to drop in `[...]` after the board
    /// (Fairy-Stockfish's convention): Mulligan Stew's Mages, Mitosis's pending parts. Mystic's
    /// purchases (coins in a tag) and Mutatis Mutandis's reserves (a `reserve:` tag) are not a
    /// bracketed hand, so those variants say `pocket 0` although they drop pieces.
    pub pocket: bool,
    /// The most portions a turn token joins with `;` (1 for orthodox chess, 2 for Mulligan
    /// Mulligan Stew and for Mutatis Mutandis's action and drop).
    pub portions: u8,
    /// The FEN's fields after the board and the side to move that a position of the variant
    /// can set, in FEN order, for a GUI's board editor (the `field` lines of the `variant`
    /// command, protocol.md 8). A positional field that is not listed is always `-`.
    pub fields: &'static [FenField],
    /// True when one turn can hold several plies of the same side (Mulligan Stew portions,
    /// Mitosis placements). Perft by turns only walks plies when this is set.
    pub multi_ply_turns: bool,
    /// True when one ply is a whole turn whose token may join several portions with `;`
    /// (Mutatis Mutandis: an action and its optional drop are one ply, `e2e4;AM@c1`). The
    /// protocol and the referee then hand each whole turn token to
    /// [`Notation::parse_move`] instead of splitting it at `;` into plies (protocol.md 3).
    pub compound_plies: bool,
    /// The label of the bottom rank as the board prints it (1; Mitosis counts from 0).
    pub first_rank: u8,
    /// The piece types of the variant, for a GUI (the `variant` command): every type that can
    /// appear in a FEN of the variant, in the order of its rules file.
    pub pieces: &'static [PieceInfo],
    /// The codes (upper case) of the royal piece types, whose squares the `check` command
    /// names when [`Rules::in_check`] holds (protocol.md 8), for a GUI's check highlight.
    pub royals: &'static [&'static str],
    /// What a game of the variant needs before its first turn, for a GUI (the `pregame`
    /// lines of the `variant` command, protocol.md 8): `"seed"` when the start is a random
    /// setup drawn by `setup <seed>`, `"army"` when the players build and choose armies
    /// (`muster propose`, `muster choose`, `muster assign`).
    pub pregame: &'static [&'static str],
    /// The names of the cells of the files x ranks box that are not squares (protocol.md 2:
    /// `*` in the FEN; Mitosis's corners of ranks 0 and 10), for a GUI.
    pub holes: &'static [&'static str],
    /// First words of the variant's own protocol commands (protocol lines that are no
    /// protocol.md command, e.g. a pre-game negotiation). The protocol hands a line starting
    /// with one of them to [`Notation::variant_command`].
    pub commands: &'static [&'static str],
}

impl VariantInfo {
    /// The base a variant's [`Rules::INFO`] completes with struct-update syntax: an 8x8 board
    /// without a hand, one portion per turn and one ply per turn, ranks counted from 1, a King
    /// as the only royal type, no pre-game steps, no holes and no commands of its own. Its
    /// name and pieces are empty: every variant gives its own.
    pub const DEFAULTS: VariantInfo = VariantInfo {
        name: "",
        files: 8,
        ranks: 8,
        pocket: false,
        portions: 1,
        fields: &[],
        multi_ply_turns: false,
        compound_plies: false,
        first_rank: 1,
        pieces: &[],
        royals: &["K"],
        pregame: &[],
        holes: &[],
        commands: &[],
    };
}

/// One field of a variant's FEN that a board editor offers (protocol.md 8, `variant`): a
/// positional field of the common grammar (protocol.md 4) or one of the variant's
/// `key:value` tags, how its value is written, and what it holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FenField {
    /// `castling`, `ep`, `halfmove` or `fullmove` (the common grammar's fields 3 to 6), or
    /// `tag:<key>` for the tag `<key>:<value>`.
    pub key: &'static str,
    /// How the value is written.
    pub kind: FieldKind,
    /// What the field holds, for a person: a few words, the form of its value in brackets
    /// where it has one.
    pub label: &'static str,
}

/// How a [`FenField`]'s value is written (the kind word of a `field` line, protocol.md 8).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// `text`: a word the variant's FEN reader checks (castling rights, squares, flags).
    Text,
    /// `number`: a count, 0 or more (the clocks: plies, or turns for the fullmove number).
    Number,
    /// `pair`: two counts, White's then Black's, as `W/B` (`coins:20/20`).
    Pair,
    /// `pieces`: White's then Black's piece codes, as `W/B`, `-` for none; the codes are
    /// joined with the separator when there is one (`pieces sep .`: `AM.NR`), else written
    /// one after the other (`QR`).
    Pieces(Option<char>),
}

impl FenField {
    /// The field as the `variant` command describes it: `info string field <key> <kind>
    /// [sep <c>] | <label>` (protocol.md 8).
    pub fn line(&self) -> String {
        let kind = match self.kind {
            FieldKind::Text => "text".to_string(),
            FieldKind::Number => "number".to_string(),
            FieldKind::Pair => "pair".to_string(),
            FieldKind::Pieces(None) => "pieces".to_string(),
            FieldKind::Pieces(Some(c)) => format!("pieces sep {c}"),
        };
        format!("info string field {} {kind} | {}", self.key, self.label)
    }
}

/// The clocks of the common grammar, which every variant's FEN sets (protocol.md 4).
pub const CLOCK_FIELDS: [FenField; 2] = [
    FenField {
        key: "halfmove",
        kind: FieldKind::Number,
        label: "Halfmove clock, in plies",
    },
    FenField {
        key: "fullmove",
        kind: FieldKind::Number,
        label: "Fullmove number",
    },
];

/// The en passant field as orthodox chess writes it: the square passed by a double step.
pub const EP_FIELD: FenField = FenField {
    key: "ep",
    kind: FieldKind::Text,
    label: "En passant square, or -",
};

/// One piece type as a GUI draws it and a person reads it (the `variant` command):
/// its FEN code, its name, and how it moves (Betza notation where the piece has one, words
/// where it has not, with the rules file's section).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceInfo {
    /// The FEN code in upper case (White); Black's is the lower case (`K`, `AM`, `N11`).
    pub code: &'static str,
    /// The piece's name (`King`, `Dancing Horse`).
    pub name: &'static str,
    /// Its movement: Betza notation and/or words.
    pub movement: &'static str,
}

/// The win/draw/loss model behind `UCI_ShowWDL` (`info ... wdl W D L`): the chances of the side
/// to move, logistic in the score `x` (centipawns, side to move):
/// `W = 1 / (1 + exp((a - x) / b))`, `L = 1 / (1 + exp((a + x) / b))`, `D = 1 - W - L`. `a` is
/// the score at which a win is as likely as not, `b` the spread. Fitted per variant to
/// self-play games by `scripts/fit_wdl.py` (docs/protocol.md 6 gives the figures).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WdlModel {
    /// The score at which the side to move wins half of its games, in centipawns (>= 0).
    pub a: f64,
    /// The spread of the logistic, in centipawns (> 0).
    pub b: f64,
}

impl WdlModel {
    /// A model fitted to no variant in particular (the orthodox figures), for a variant
    /// that has none of its own.
    pub const GENERIC: WdlModel = WdlModel { a: 200.0, b: 100.0 };

    /// The chances `[win, draw, loss]` of the side to move at score `cp` (centipawns), in
    /// permille, summing to 1000.
    pub fn permille(&self, cp: i32) -> [u32; 3] {
        let x = f64::from(cp);
        let b = self.b.max(1.0);
        let a = self.a.max(0.0);
        let p = |z: f64| (1000.0 / (1.0 + (z / b).exp())).round().clamp(0.0, 1000.0) as u32;
        let win = p(a - x);
        let loss = p(a + x).min(1000 - win);
        [win, 1000 - win - loss, loss]
    }
}

/// Why a FEN was rejected: the field and the reason, for `info string error`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad FEN: {field}: {reason}")]
pub struct FenError {
    /// The FEN field at fault (`board`, `side to move`, `castling`, `en passant`, ...).
    pub field: &'static str,
    /// What is wrong with it.
    pub reason: String,
}

impl FenError {
    /// A FEN error for `field` with a human-readable `reason`.
    pub fn new(field: &'static str, reason: impl Into<String>) -> Self {
        FenError {
            field,
            reason: reason.into(),
        }
    }
}

/// Why a move token was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The token does not have the shape of any move token (protocol.md 3).
    #[error("malformed move token '{token}': {reason}")]
    Malformed {
        /// The token as given.
        token: String,
        /// What is wrong with its shape.
        reason: String,
    },
    /// Well-formed, but not a legal move in this position.
    #[error("illegal move {0}")]
    Illegal(String),
    /// Lenient input that matches several legal moves.
    #[error("ambiguous move token '{0}'")]
    Ambiguous(String),
}

/// The registry: every variant this build implements, listed once, in the order `UCI_Variant`
/// lists them. Each line is `Enum => type path, "alias", ...;` under the variant's doc line; its
/// protocol name is the type's `INFO.name`, and the aliases (lower case) are other names
/// [`Variant::from_name`] accepts (protocol.md 1).
///
/// A callback macro: `variant_registry!(cb! { args })` expands to `$crate::cb! { [args] list }`,
/// so that the list can generate both the [`Variant`] enum (below) and the arms of the exported
/// [`with_variant!`](crate::with_variant). Adding a variant is adding its line here (and its
/// `pub mod` above).
#[doc(hidden)]
#[macro_export]
macro_rules! variant_registry {
    ($callback:ident! { $($args:tt)* }) => {
        $crate::$callback! { [$($args)*]
            /// Orthodox chess (FIDE rules).
            Chess => $crate::variants::chess::Chess, "standard", "normal", "fromposition";
            /// Mulligan Stew Chess (rules/mulligan-stew.md).
            MulliganStew => $crate::variants::mulligan_stew::MulliganStew;
            /// Mutatis Mutandis (rules/mutatis-mutandis.md).
            MutatisMutandis => $crate::variants::mutatis_mutandis::MutatisMutandis;
            /// Mystic Chess (rules/mystic.md).
            Mystic => $crate::variants::mystic::Mystic;
            /// Muster Chess (rules/muster.md).
            Muster => $crate::variants::muster::Muster;
            /// Mitosis Chess (rules/mitosis.md).
            Mitosis => $crate::variants::mitosis::Mitosis;
        }
    };
}

/// Defines [`Variant`] from the registry's list (a [`variant_registry!`](crate::variant_registry)
/// callback).
#[doc(hidden)]
#[macro_export]
macro_rules! __define_variants {
    ([] $( $(#[doc = $doc:literal])* $name:ident => $ty:ty $(, $alias:literal)* ; )*) => {
        /// The variants this build implements, in the registry's order.
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub enum Variant {
            $( $(#[doc = $doc])* $name, )*
        }

        impl Variant {
            /// Every implemented variant, in the order `UCI_Variant` lists them.
            pub const ALL: &'static [Variant] = &[ $(Variant::$name),* ];

            /// The protocol name (`UCI_Variant` value): the variant's [`Rules::INFO`] name.
            pub fn name(self) -> &'static str {
                match self {
                    $( Variant::$name => <$ty as $crate::variants::Rules>::INFO.name, )*
                }
            }

            /// Other names [`Variant::from_name`] accepts for this variant (lower case):
            /// `standard` and `normal` for `chess` (protocol.md 1).
            pub fn aliases(self) -> &'static [&'static str] {
                match self {
                    $( Variant::$name => &[$($alias),*], )*
                }
            }
        }
    };
}

/// The arms of [`with_variant!`](crate::with_variant) from the registry's list (a
/// [`variant_registry!`](crate::variant_registry) callback).
#[doc(hidden)]
#[macro_export]
macro_rules! __with_variant_arms {
    ([$v:expr, $G:ident, $body:expr] $( $(#[doc = $doc:literal])* $name:ident => $ty:ty $(, $alias:literal)* ; )*) => {
        match $v {
            $(
                $crate::variants::Variant::$name => {
                    type $G = $ty;
                    $body
                }
            )*
        }
    };
}

variant_registry!(__define_variants! {});

impl Variant {
    /// Looks a variant up by protocol name or alias (protocol.md 1). Case-insensitive.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.iter().copied().find(|v| {
            v.name().eq_ignore_ascii_case(name)
                || v.aliases().iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }
}

/// Runs `$body` with the type alias `$G` bound to the variant type of `$v`: the one place where
/// the runtime variant becomes a compile-time type. Its arms come from the registry
/// ([`variant_registry!`](crate::variant_registry)).
///
/// ```ignore
/// with_variant!(variant, G => run_loop::<G>(...))
/// ```
#[macro_export]
macro_rules! with_variant {
    ($v:expr, $G:ident => $body:expr) => {
        $crate::variant_registry!(__with_variant_arms! { $v, $G, $body })
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The upper-case piece codes of a FEN's board (and bracketed hand) field: single letters,
    /// and bracketed codes that name a piece; a bracketed hand of letters gives each letter.
    fn codes(board: &str, known: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        let mut chars = board.chars();
        while let Some(c) = chars.next() {
            if c == '[' {
                let inner: String = chars.by_ref().take_while(|&c| c != ']').collect();
                let up = inner.to_ascii_uppercase();
                if known.contains(&up.as_str()) {
                    out.push(up);
                } else {
                    out.extend(
                        inner
                            .chars()
                            .filter(|c| c.is_ascii_alphabetic())
                            .map(|c| c.to_ascii_uppercase().to_string()),
                    );
                }
            } else if c.is_ascii_alphabetic() {
                out.push(c.to_ascii_uppercase().to_string());
            }
        }
        out
    }

    fn pieces_cover_the_start<G: Game>() {
        let known: Vec<&str> = G::INFO.pieces.iter().map(|p| p.code).collect();
        let mut unique = known.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            known.len(),
            "{}: duplicate codes",
            G::INFO.name
        );
        assert!(G::INFO
            .pieces
            .iter()
            .all(|p| !p.name.is_empty() && !p.movement.is_empty()));
        let mut fens = vec![G::startpos().fen()];
        fens.extend((0..8).filter_map(|s| G::random_setup(s).map(|p| p.fen())));
        for fen in fens {
            let board = fen.split(' ').next().unwrap();
            for code in codes(board, &known) {
                assert!(
                    known.contains(&code.as_str()),
                    "{}: {code} of {fen} is not described",
                    G::INFO.name
                );
            }
        }
    }

    #[test]
    fn the_registry_names_every_variant_once() {
        // protocol.md 1: the UCI_Variant combo's order, and the names `from_name` accepts.
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        assert_eq!(
            names,
            [
                "chess",
                "mulliganstew",
                "mutatismutandis",
                "mystic",
                "muster",
                "mitosis"
            ]
        );
        for &v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
            assert_eq!(Variant::from_name(&v.name().to_ascii_uppercase()), Some(v));
            crate::with_variant!(v, G => assert_eq!(G::INFO.name, v.name()));
        }
        for alias in ["standard", "Normal", "CHESS"] {
            assert_eq!(Variant::from_name(alias), Some(Variant::Chess));
        }
        assert_eq!(Variant::from_name("mulligan"), None);
        assert_eq!(Variant::from_name(""), None);
    }

    #[test]
    fn every_variant_describes_its_pieces_and_board() {
        // A GUI can draw the board and explain each piece.
        for &v in Variant::ALL {
            crate::with_variant!(v, G => pieces_cover_the_start::<G>());
        }
        // Mitosis: ranks 0..10, where ranks 0 and 10 only have d, e and f.
        // The holes are the cells of the 9x11 box that the board's geometry says are no
        // squares, every one of them.
        let holes = mitosis::Mitosis::INFO.holes;
        let g = &mitosis::BOARD_MITOSIS;
        let off_board: Vec<String> = (0..g.num_cells())
            .filter(|&sq| !g.is_square(sq as crate::core::Square))
            .map(|sq| g.name(sq as crate::core::Square).to_string())
            .collect();
        assert_eq!(holes, off_board);
        assert_eq!(holes.len(), 12);
        assert!(holes.contains(&"a0") && holes.contains(&"i10") && !holes.contains(&"e0"));
        assert_eq!(mitosis::Mitosis::INFO.first_rank, 0);
        assert!(chess::Chess::INFO.holes.is_empty());
        // Mutatis Mutandis: every state, in the order of the rules table.
        for (s, info) in mutatis_mutandis::State::ALL
            .iter()
            .zip(mutatis_mutandis::piece::PIECE_INFO.iter())
        {
            assert_eq!(s.code(), info.code);
        }
    }

    /// Seeded random playouts of `G` (from its random setups where it has them): every FEN
    /// reached sets only the fields its variant describes (protocol.md 8, `field` lines):
    /// each tag is described, and each positional field that is not described is `-`. So a
    /// board editor built from the description can write every position play reaches.
    fn fields_cover_play<G: Game>() {
        let described: Vec<&str> = G::INFO.fields.iter().map(|f| f.key).collect();
        for key in &described {
            let tag = key.strip_prefix("tag:");
            assert!(
                tag.is_some_and(|t| !t.is_empty() && !t.contains(':'))
                    || ["castling", "ep", "halfmove", "fullmove"].contains(key),
                "{}: field key '{key}'",
                G::INFO.name
            );
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut playout = playout::Playout::new(80, 160);
        for game in 0..24 {
            let mut pos = G::random_setup(game).unwrap_or_else(G::startpos);
            playout.run(&mut pos, |pos, _| {
                let fen = pos.fen();
                let words: Vec<&str> = fen.split_whitespace().collect();
                assert!(words.len() >= 6, "{}: {fen}", G::INFO.name);
                for (key, value) in ["castling", "ep", "halfmove", "fullmove"]
                    .iter()
                    .zip(&words[2..6])
                {
                    assert!(
                        described.contains(key) || *value == "-",
                        "{}: '{key}' is {value} in {fen}, but the variant does not describe it",
                        G::INFO.name
                    );
                }
                for w in &words[6..] {
                    let (tag, _) = w.split_once(':').unwrap_or((w, ""));
                    let key = format!("tag:{tag}");
                    assert!(
                        described.contains(&key.as_str()),
                        "{}: the tag '{tag}' of {fen} is not described",
                        G::INFO.name
                    );
                    seen.insert(key);
                }
                playout::Next::stop_if(game_outcome(pos).is_some())
            });
        }
        // Every described tag turns up in play: none is described for nothing.
        for key in described.iter().filter(|k| k.starts_with("tag:")) {
            assert!(
                seen.contains(*key),
                "{}: '{key}' never appeared",
                G::INFO.name
            );
        }
    }

    #[test]
    fn every_variant_describes_the_fen_fields_play_reaches() {
        for &v in Variant::ALL {
            crate::with_variant!(v, G => fields_cover_play::<G>());
        }
        // The lines a GUI reads.
        assert_eq!(
            chess::Chess::INFO.fields[0].line(),
            "info string field castling text | Castling rights (KQkq, or -)"
        );
        let reserve = mutatis_mutandis::MutatisMutandis::INFO
            .fields
            .iter()
            .find(|f| f.key == "tag:reserve");
        assert!(reserve
            .unwrap()
            .line()
            .starts_with("info string field tag:reserve pieces sep . | "));
    }
}
