//! The `Game` contract every variant implements, and the registry of variants.
//!
//! Search, perft, protocol and arena are generic over [`Game`] and monomorphised per variant:
//! the only `match` on the variant is [`with_variant!`](crate::with_variant) at the top of the protocol and the CLI.
//! See docs/design.md ("The `Game` trait") for the reasoning.

use std::fmt::Debug;

use crate::core::tunables::Tunables;
use crate::core::{Color, MoveBuffer};

pub mod chess;
pub mod fen_board;
pub mod mitosis;
#[cfg(test)]
pub(crate) mod mock;
pub mod mulligan_stew;
pub mod muster;
pub mod mutatis_mutandis;
pub mod mystic;
pub mod network;
pub mod orthodox;
pub mod turn;

/// A ply's representation. `Default` is the null move (never legal).
pub trait GameMove: Copy + Eq + Default + Debug + Send + Sync + 'static {
    /// The fixed-capacity list the variant's generation fills, with items `T` (the plies, or
    /// the search's per-ply ordering scores): its capacity is above the most legal plies of any
    /// position of the variant. Most variants use the standard [`crate::core::MoveList`];
    /// Mutatis Mutandis, whose turns pair every action with its drop squares, a larger one.
    type List<T: Copy + Send + Sync>: MoveBuffer<T>;

    /// The move as 32 bits, stored in the transposition table and indexing the history tables:
    /// never 0 for a legal ply, and distinct for distinct legal plies of one position. The
    /// search finds a TT move by comparing `pack` values among the legal plies (a key
    /// collision can bring back any value), so the packing need not be reversible.
    fn pack(self) -> u32;
}

/// The list type of the plies `M` ([`GameMove::List`] of `M`): what generic code passes to
/// [`Game::legal_moves`].
pub type PlyList<M> = <M as GameMove>::List<M>;

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
/// protocol to every position it sets up ([`Game::apply_settings`]) without knowing which
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

/// Which rules [`Game::verdict`] applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The win rules that hold whatever the history and the counters (Kings captured,
    /// Mitosis's bare and one-piece wins, Muster's start in check): what perft applies
    /// (protocol.md 7) and what ends a multi-ply turn early.
    Wins,
    /// Every rule that ends the game by itself (draws by repetition or a move counter that
    /// need no claim included): what [`Game::outcome`] reports.
    Game,
    /// The game's rules and the draws the player to move may claim (FIDE 9.2, 9.3): what a
    /// referee records ([`Game::adjudicated_outcome`]).
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
    /// Stew and for Mutatis Mutandis's action and drop).
    pub portions: u8,
}

/// One piece type as a GUI draws it and a person reads it (the `variant` command, issue 13):
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

/// A variant's rules, notation, evaluator and search hints: everything the generic search,
/// perft, protocol and arena need. One ply = one decision of one player (a move, drop, swap,
/// purchase, skipped portion, placement); `make` decides whether the side to move changes.
///
/// The items come in four groups, in this order:
/// 1. **Rules**: the description of the board, positions, legal plies, make/unmake, the key,
///    and the end of the game. The end is given by two hooks, [`Game::verdict`] (the rules
///    that end the game before the legal plies are looked at, in one of four [`Scope`]s) and
///    [`Game::no_moves_verdict`] (what having no legal ply means); [`Game::outcome`],
///    [`Game::claimable_draw`] and [`Game::adjudicated_outcome`] are derived from them.
/// 2. **Notation**: FEN, move tokens, PGN, the `d` board, game records, variant commands.
/// 3. **Evaluation**: the static evaluation and its report.
/// 4. **Search hints**: what quiescence tries and in which order, SEE, null moves.
///
/// Hot-path methods (`legal_moves`, `make`, `unmake`, `key`, `verdict` with
/// [`Scope::Search`], `evaluate`, ...) never allocate.
pub trait Game: Clone + Send + Sync + Sized + 'static {
    // ---------------------------------------------------------------------------------------
    // 1. Rules
    // ---------------------------------------------------------------------------------------

    /// The variant's ply type.
    type Move: GameMove;

    /// Board shape and protocol announcement.
    const INFO: VariantInfo;

    /// The label of the bottom rank as the board prints it (1; Mitosis counts from 0).
    const FIRST_RANK: u8 = 1;

    /// The piece types of the variant, for a GUI (the `variant` command): every type that can
    /// appear in a FEN of the variant, in the order of its rules file.
    const PIECES: &'static [PieceInfo];

    /// The codes (upper case) of the royal piece types, whose squares the `check` command
    /// names when [`Game::in_check`] holds (protocol.md 8), for a GUI's check highlight.
    /// Default: the King.
    const ROYALS: &'static [&'static str] = &["K"];

    /// What a game of the variant needs before its first turn, for a GUI (the `pregame`
    /// lines of the `variant` command, protocol.md 8): `"seed"` when the start is a random
    /// setup drawn by `setup <seed>`, `"army"` when the players build and choose armies
    /// (`muster propose`, `muster choose`, `muster assign`). None by default.
    const PREGAME: &'static [&'static str] = &[];

    /// The names of the cells of the files x ranks box that are not squares (protocol.md 2:
    /// `*` in the FEN; Mitosis's corners of ranks 0 and 10), for a GUI. None by default.
    fn holes() -> Vec<String> {
        Vec::new()
    }

    /// True when one turn can hold several plies of the same side (Mulligan Stew portions,
    /// Mitosis placements). Perft by turns only walks plies when this is set.
    const MULTI_PLY_TURNS: bool = false;

    /// True when one ply is a whole turn whose token may join several portions with `;`
    /// (Mutatis Mutandis: an action and its optional drop are one ply, `e2e4;AM@c1`). The
    /// protocol and the referee then hand each whole turn token to [`Game::parse_move`]
    /// instead of splitting it at `;` into plies (protocol.md 3).
    const COMPOUND_PLIES: bool = false;

    /// The standard start position.
    fn startpos() -> Self;

    /// A start position drawn from `seed`, for a variant whose games start from random setups
    /// (rules/mutatis-mutandis.md 3); `None` for a variant with one fixed start. The same seed
    /// gives the same position on every machine and build.
    fn random_setup(seed: u64) -> Option<Self> {
        let _ = seed;
        None
    }

    /// The side whose ply it is.
    fn side_to_move(&self) -> Color;

    /// Appends every legal ply of the current position to `list` (which the caller clears).
    fn legal_moves(&self, list: &mut PlyList<Self::Move>);

    /// Plays a legal ply, pushing what `unmake` needs onto the position's own undo stack.
    fn make(&mut self, m: Self::Move);

    /// Takes back the last ply made (by `make` or `make_null`).
    fn unmake(&mut self);

    /// Zobrist key of everything that decides the future of the game.
    fn key(&self) -> u64;

    /// Whether the side to move is in check (false in variants without royalty).
    fn in_check(&self) -> bool {
        false
    }

    /// Whether the legal ply `m` would leave the opponent in check (what [`Game::in_check`]
    /// answers after `make(m)`), when the variant can tell without playing it; `None` when it
    /// cannot (the default). The search asks before a ply it may prune, so that a pruned ply
    /// is never made; an answer must be exact.
    #[inline(always)]
    fn gives_check(&self, m: Self::Move) -> Option<bool> {
        let _ = m;
        None
    }

    /// The rule of `scope` that ends the game in this position before its legal plies are
    /// looked at, from the side to move's point of view; `None` while no such rule applies.
    /// A position without legal plies that no such rule decides is judged by
    /// [`Game::no_moves_verdict`] (so a variant where checkmate takes precedence over a draw
    /// by a move counter returns `None` for [`Scope::Game`] when there is no legal ply).
    ///
    /// The scopes nest: a [`Scope::Wins`] verdict is also the [`Scope::Game`] verdict; a
    /// [`Scope::Game`] verdict is also the [`Scope::Claims`] one, and the search
    /// ([`Scope::Search`]) sees it with the same result. Only [`Scope::Search`] is in the hot
    /// path; it must not allocate.
    fn verdict(&self, scope: Scope) -> Option<Verdict>;

    /// What a position without legal plies means for the side to move (checkmate: a loss;
    /// stalemate: a draw), and the rule's name.
    fn no_moves_verdict(&self) -> Verdict;

    /// The game's outcome by its rules (checkmate, stalemate, a draw that ends the game by
    /// itself, ...), or `None` while it goes on: [`Game::verdict`] with [`Scope::Game`], else
    /// [`Game::no_moves_verdict`] when there is no legal ply. A draw that a player may only
    /// claim is not an outcome: see [`Game::claimable_draw`]. Not for the hot path (it
    /// generates the legal plies). Derived: variants do not override it.
    fn outcome(&self) -> Option<Outcome> {
        let side = self.side_to_move();
        if let Some(v) = self.verdict(Scope::Game) {
            return Some(v.outcome(side));
        }
        let mut list = PlyList::<Self::Move>::default();
        self.legal_moves(&mut list);
        list.is_empty()
            .then(|| self.no_moves_verdict().outcome(side))
    }

    /// A draw the player to move may claim but which does not end the game by itself, as the
    /// reason printed in `info string draw claimable {<reason>}` (orthodox chess: FIDE 9.2
    /// `threefold repetition`, 9.3 `fifty-move rule`): the [`Scope::Claims`] verdict of a
    /// position whose [`Game::outcome`] is `None`. Derived: variants do not override it.
    fn claimable_draw(&self) -> Option<&'static str> {
        if self.outcome().is_some() {
            return None;
        }
        self.verdict(Scope::Claims)
            .filter(|v| v.terminal == Terminal::Draw)
            .map(|v| v.reason)
    }

    /// The result a referee records: [`Game::outcome`], else the [`Game::claimable_draw`] as a
    /// draw (a claim is made as soon as it is possible: what the arena adjudicates). Derived.
    fn adjudicated_outcome(&self) -> Option<Outcome> {
        self.outcome().or_else(|| {
            self.claimable_draw().map(|reason| Outcome {
                result: GameResult::Draw,
                reason: reason.into(),
            })
        })
    }

    /// Applies the protocol's [`VariantSettings`] to this position (and to the positions that
    /// `make` reaches from it). The protocol calls it on every position it sets up.
    /// Default: the variant honours none of them.
    ///
    /// Errors: a message for `info string error` naming the setting this variant does not
    /// support (the position is then unchanged).
    fn apply_settings(&mut self, settings: &VariantSettings) -> Result<(), String> {
        if settings.chess960 {
            return Err(format!(
                "UCI_Chess960 is not supported by {}",
                Self::INFO.name
            ));
        }
        Ok(())
    }

    /// Whether every legal ply of this position fits the fixed-capacity move list
    /// ([`PlyList`]), so that [`Game::legal_moves`] lists them all. The protocol refuses a
    /// position where it does not (a position must never lose legal turns). Default: true,
    /// for variants whose lists hold more plies than any position can have; Mutatis Mutandis,
    /// whose crowded constructed positions can exceed its turn list, checks.
    fn move_lists_fit(&self) -> bool {
        true
    }

    /// Checks that the position is consistent, for tests and debug builds (perft and the
    /// search call it after make/unmake at a sampled rate when debug assertions are on):
    /// by default, the FEN reads back to the same FEN and the same key. Variants add their
    /// own invariants (an incremental key equal to one computed from scratch, bitboards that
    /// agree with the mailbox).
    ///
    /// Errors: what is inconsistent, with the FEN.
    fn validate(&self) -> Result<(), String> {
        fen_round_trip(self)
    }

    // ---------------------------------------------------------------------------------------
    // 2. Notation
    // ---------------------------------------------------------------------------------------

    /// Parses a FEN (the variant's rules file defines its fields).
    ///
    /// Errors: a [`FenError`] naming the field and the reason.
    fn from_fen(fen: &str) -> Result<Self, FenError>;

    /// The canonical FEN of the current position.
    fn fen(&self) -> String;

    /// Parses a single-ply token of protocol.md 3 against the legal plies of this position.
    ///
    /// Errors: [`MoveError::Malformed`] for a token of no known shape, [`MoveError::Illegal`]
    /// when no legal ply has it, [`MoveError::Ambiguous`] for lenient input matching several.
    fn parse_move(&self, token: &str) -> Result<Self::Move, MoveError>;

    /// The canonical token of a legal ply of this position (protocol.md 3).
    fn move_token(&self, m: Self::Move) -> String;

    /// The ply as PGN movetext writes it for this variant: SAN for orthodox chess (so that
    /// PGN tools can read the games), the protocol token by default.
    fn pgn_move(&self, m: Self::Move) -> String {
        self.move_token(m)
    }

    /// The board, FEN and state a human needs, for the `d` command (protocol.md 6).
    fn display(&self) -> String;

    /// Splits a game record written in the seed's own notation into its move strings (move
    /// numbers and the result dropped). Default: whitespace-separated words, without `12.`
    /// prefixes and result tokens.
    fn split_record(text: &str) -> Vec<String> {
        split_record_words(text)
    }

    /// Resolves one move string of the seed's own notation (design.md: "import of the seed's
    /// own notation"). Default: the protocol token.
    ///
    /// Errors: as [`Game::parse_move`].
    fn import_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        self.parse_move(text)
    }

    /// First words of the variant's own protocol commands (protocol lines that are no
    /// protocol.md command, e.g. a pre-game negotiation). Default: none. The protocol hands a
    /// line starting with one of them to [`Game::variant_command`].
    const COMMANDS: &'static [&'static str] = &[];

    /// Runs one of the variant's own protocol commands (see [`Game::COMMANDS`]) at the current
    /// position `self`. `probe` is the engine's search: it searches the given position of this
    /// variant within [`ProbeLimits`] and returns the score in centipawns from the point of
    /// view of that position's side to move (mates as +-[`PROBE_MATE`]), or `None` once the
    /// engine was told to stop (answer at once with what is known). Returns the answer
    /// line(s) to print.
    ///
    /// Errors: a message for `info string error` (malformed or illegal arguments).
    fn variant_command(
        &self,
        line: &str,
        probe: &mut dyn FnMut(&Self, ProbeLimits) -> Option<i32>,
    ) -> Result<String, String> {
        let _ = probe;
        Err(format!("unknown command '{line}'"))
    }

    // ---------------------------------------------------------------------------------------
    // 3. Evaluation
    // ---------------------------------------------------------------------------------------

    /// The evaluator's tunable parameters, declared once with [`crate::tunables!`]
    /// ([`crate::core::tunables::NoParams`] for an evaluator without any).
    type EvalParams: Tunables;

    /// The parameter set the engine plays with ([`Game::evaluate`] uses it). Default: the
    /// declared defaults of [`Game::EvalParams`]; a variant sharing another's parameter type
    /// with other values (Muster uses chess's) returns its own.
    fn eval_params() -> &'static Self::EvalParams {
        Self::EvalParams::defaults()
    }

    /// Static evaluation in centipawns from the side to move's point of view, with the
    /// parameters [`Game::eval_params`].
    fn evaluate(&self) -> i32;

    /// Static evaluation in centipawns from the side to move's point of view with the
    /// parameters `p` (tuning, experiments): equal to [`Game::evaluate`] when `p` is
    /// [`Game::eval_params`]. Default (an evaluator without parameters): [`Game::evaluate`].
    fn evaluate_with(&self, p: &Self::EvalParams) -> i32 {
        let _ = p;
        self.evaluate()
    }

    /// The evaluation broken into its terms, as printed by the `eval` command (protocol.md 6).
    fn eval_report(&self) -> String;

    /// `EvalFile` (protocol.md 1): puts the network file at `path` in the variant's network
    /// slot, or empties the slot for `None` (the hand-written evaluation alone); returns a line
    /// saying what is in use. The default: the variant has no network inputs.
    ///
    /// Errors: the file cannot be read, is not this variant's network, or the variant has no
    /// network inputs; the slot is then unchanged.
    fn load_network(path: Option<&std::path::Path>) -> Result<String, String> {
        let _ = path;
        Err(format!(
            "{} has no network inputs in this build",
            Self::INFO.name
        ))
    }

    /// The win/draw/loss model of `UCI_ShowWDL` for this variant's scores.
    const WDL: WdlModel = WdlModel::GENERIC;

    /// Depth (plies) of `menagerie bench` for this variant: deep enough to exercise the
    /// search, short enough to run in seconds.
    const BENCH_DEPTH: u32 = 12;

    /// FENs searched by `menagerie bench` for this variant (a fixed set: its node count is the
    /// search's behaviour fingerprint). Empty means the start position alone.
    const BENCH_FENS: &'static [&'static str] = &[];

    // ---------------------------------------------------------------------------------------
    // 4. Search hints
    // ---------------------------------------------------------------------------------------

    /// Appends the plies quiescence search should try (captures, promotions, ...): by default
    /// the legal plies that [`Game::is_tactical`] accepts. Variants override it for speed.
    fn tactical_moves(&self, list: &mut PlyList<Self::Move>) {
        self.legal_moves(list);
        list.retain(|m| self.is_tactical(*m));
    }

    /// Whether quiescence search should look at this ply (captures, promotions).
    fn is_tactical(&self, m: Self::Move) -> bool;

    /// What ply `m` does, read in this position before it is made, as a continuation-history
    /// key in 1..=1023: plies with the same key share their statistics (in chess the moving
    /// piece and its destination square, as in Stockfish's piece-to tables). `None` (the
    /// default): the search hashes [`GameMove::pack`] into that range instead, so plies may share
    /// a key by chance.
    #[inline]
    fn cont_code(&self, m: Self::Move) -> Option<u16> {
        let _ = m;
        None
    }

    /// A small context (0..=3) of ply `m`, read in this position before it is made, that
    /// splits the quiet history: the same ply learns separate statistics in each context.
    /// Bit 0 says the moving man's origin is threatened, bit 1 that its destination is (in
    /// chess: attacked by an enemy pawn), so escaping a threat and walking into one are told
    /// apart. 0 (the default): one statistic per ply. The search puts it above bit 28 of
    /// [`GameMove::pack`], so a game that answers other than 0 packs its plies below bit 28.
    #[inline]
    fn history_context(&self, m: Self::Move) -> u32 {
        let _ = m;
        0
    }

    /// Ordering score of a tactical ply (e.g. MVV-LVA): higher is tried first.
    fn tactical_order(&self, m: Self::Move) -> i32 {
        let _ = m;
        0
    }

    /// Static exchange evaluation test: does playing `m` win at least `threshold` centipawns
    /// of material once all exchanges on its square are played out? Default: always true
    /// (variants without SEE never prune on it).
    fn see_ge(&self, m: Self::Move, threshold: i32) -> bool {
        let _ = (m, threshold);
        true
    }

    /// How many quiet (non-tactical) check evasions quiescence searches at a node in check once
    /// it has a score above a mate: a search hint for variants where nearly every ply is an
    /// evasion and capture-check chains would otherwise expand every quiet reply at every link
    /// (Mutatis Mutandis). Unlimited by default.
    const QSEARCH_QUIET_EVASIONS: usize = usize::MAX;

    /// Whether the search uses the "improving" test (the static evaluation rose since the same
    /// side's previous node) to prune and reduce less where it rises and more where it does
    /// not: a search hint, on by default. A game whose evaluation carries no information (a
    /// flat evaluation) turns it off; the search then prunes and reduces as it did before the
    /// test existed.
    const SEARCH_IMPROVING: bool = true;

    /// Whether the search extends singular TT plies (and cuts on a multi-cut, or searches a
    /// TT ply whose score alone is above beta a ply shallower): a search hint, on by default.
    /// A game where the extension measured as a loss in play turns it off; the search then
    /// never runs the reduced search that tests for singularity.
    const SINGULAR_EXTENSIONS: bool = true;

    /// Whether [`Game::evaluate`] is a function of the position [`Game::key`] identifies, so
    /// that the search may keep the evaluation in its TT entry and reuse it instead of
    /// evaluating the same position again: on by default. A game whose evaluation also reads
    /// state the key leaves out (a turn counter, say) turns it off; the search then evaluates
    /// every node. A speed hint only: with it on or off the search visits the same tree.
    const EVAL_IN_KEY: bool = true;

    /// A hash of the part of the position whose evaluation errors tend to persist (in chess,
    /// the pawn structure), for the search's correction history: positions with the same key
    /// share a learned correction of [`Game::evaluate`]. `None` (the default) turns the
    /// correction off.
    fn correction_key(&self) -> Option<u64> {
        None
    }

    /// Whether a null move (passing) is sound enough for null-move pruning here.
    fn null_move_allowed(&self) -> bool {
        false
    }

    /// Passes the turn (only called when [`Game::null_move_allowed`]); undone by `unmake`.
    fn make_null(&mut self) {
        unreachable!("make_null called on a variant without null moves")
    }
}

/// The score [`Game::variant_command`]'s probe reports for a won position (centipawns).
pub const PROBE_MATE: i32 = 32_000;

/// The budget of one probe search of [`Game::variant_command`]: it stops at whichever limit
/// comes first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProbeLimits {
    /// Most nodes searched.
    pub nodes: u64,
    /// Most milliseconds spent.
    pub movetime_ms: u64,
}

/// Debug builds only: checks `pos` with [`Game::validate`] at a sampled rate (the positions
/// whose key is 0 modulo 64, so the sample is the same on every run) and panics with the error
/// and `after` (what was just played). Perft and the search call it after make and unmake;
/// with debug assertions off it compiles to nothing, so release play and speed do not change.
#[inline(always)]
pub fn debug_validate<G: Game>(pos: &G, after: &str) {
    #[cfg(debug_assertions)]
    if pos.key() & 63 == 0 {
        if let Err(e) = pos.validate() {
            panic!("invalid position after {after}: {e}");
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = (pos, after);
}

/// The default [`Game::validate`]: the FEN of `pos` reads back to the same FEN and key.
///
/// Errors: the FEN, and what differs.
pub fn fen_round_trip<G: Game>(pos: &G) -> Result<(), String> {
    let fen = pos.fen();
    let again = G::from_fen(&fen).map_err(|e| format!("{fen}: does not read back: {e}"))?;
    if again.fen() != fen {
        return Err(format!("{fen}: reads back as {}", again.fen()));
    }
    if again.key() != pos.key() {
        return Err(format!(
            "{fen}: key {:016x}, but {:016x} read from the FEN",
            pos.key(),
            again.key()
        ));
    }
    Ok(())
}

/// Splits `1.e4 e5 2.Nf3 ... 1-0` into move words: move numbers (`12.`, `12...`) and result
/// tokens are dropped.
pub fn split_record_words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter_map(|w| {
            let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if w.is_empty() || matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*" | "-1" | "/2-1/2") {
                None
            } else {
                Some(w.to_string())
            }
        })
        .collect()
}

/// The variants this build implements, by protocol name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Orthodox chess (FIDE rules).
    Chess,
    /// Mystic Chess (rules/mystic.md).
    Mystic,
    /// Mulligan Stew Chess (rules/mulligan-stew.md).
    MulliganStew,
    /// Mitosis Chess (rules/mitosis.md).
    Mitosis,
    /// Muster Chess (rules/muster.md).
    Muster,
    /// Mutatis Mutandis (rules/mutatis-mutandis.md).
    MutatisMutandis,
}

impl Variant {
    /// Every implemented variant, in the order `UCI_Variant` lists them.
    pub const ALL: &'static [Variant] = &[
        Variant::Chess,
        Variant::MulliganStew,
        Variant::MutatisMutandis,
        Variant::Mystic,
        Variant::Muster,
        Variant::Mitosis,
    ];

    /// The protocol name (`UCI_Variant` value).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Chess => chess::Chess::INFO.name,
            Variant::Mystic => mystic::Mystic::INFO.name,
            Variant::MulliganStew => mulligan_stew::Stew::INFO.name,
            Variant::Mitosis => mitosis::Mitosis::INFO.name,
            Variant::Muster => muster::Muster::INFO.name,
            Variant::MutatisMutandis => mutatis_mutandis::Mutatis::INFO.name,
        }
    }

    /// Looks a variant up by protocol name; `standard` and `normal` are aliases of `chess`
    /// (protocol.md 1). Case-insensitive.
    pub fn from_name(name: &str) -> Option<Variant> {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "chess" | "standard" | "normal" => Some(Variant::Chess),
            "mystic" => Some(Variant::Mystic),
            "mulliganstew" => Some(Variant::MulliganStew),
            "mitosis" => Some(Variant::Mitosis),
            "muster" => Some(Variant::Muster),
            "mutatismutandis" => Some(Variant::MutatisMutandis),
            _ => None,
        }
    }
}

/// Runs `$body` with the type alias `$G` bound to the variant type of `$v`: the one place where
/// the runtime variant becomes a compile-time type.
///
/// ```ignore
/// with_variant!(variant, G => run_loop::<G>(...))
/// ```
#[macro_export]
macro_rules! with_variant {
    ($v:expr, $G:ident => $body:expr) => {
        match $v {
            $crate::variants::Variant::Chess => {
                type $G = $crate::variants::chess::Chess;
                $body
            }
            $crate::variants::Variant::Mystic => {
                type $G = $crate::variants::mystic::Mystic;
                $body
            }
            $crate::variants::Variant::MulliganStew => {
                type $G = $crate::variants::mulligan_stew::Stew;
                $body
            }
            $crate::variants::Variant::Mitosis => {
                type $G = $crate::variants::mitosis::Mitosis;
                $body
            }
            $crate::variants::Variant::Muster => {
                type $G = $crate::variants::muster::Muster;
                $body
            }
            $crate::variants::Variant::MutatisMutandis => {
                type $G = $crate::variants::mutatis_mutandis::Mutatis;
                $body
            }
        }
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
        let known: Vec<&str> = G::PIECES.iter().map(|p| p.code).collect();
        let mut unique = known.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            known.len(),
            "{}: duplicate codes",
            G::INFO.name
        );
        assert!(G::PIECES
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
    fn every_variant_describes_its_pieces_and_board() {
        // issue 13: a GUI can draw the board and explain each piece.
        for &v in Variant::ALL {
            crate::with_variant!(v, G => pieces_cover_the_start::<G>());
        }
        // Mitosis: ranks 0..10, where ranks 0 and 10 only have d, e and f.
        let holes = mitosis::Mitosis::holes();
        assert_eq!(holes.len(), 12);
        assert!(holes.contains(&"a0".to_string()) && holes.contains(&"i10".to_string()));
        assert!(!holes.contains(&"e0".to_string()));
        assert_eq!(<mitosis::Mitosis as Game>::FIRST_RANK, 0);
        assert!(chess::Chess::holes().is_empty());
        // Mutatis Mutandis: every state, in the order of the rules table.
        for (s, info) in mutatis_mutandis::State::ALL
            .iter()
            .zip(mutatis_mutandis::piece::PIECE_INFO.iter())
        {
            assert_eq!(s.code(), info.code);
        }
    }
}
