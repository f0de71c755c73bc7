//! The contract between a variant and the generic code: what a variant implements, split by
//! concern into [`Rules`], [`Notation`] and [`Evaluation`], with [`Game`] as the umbrella that
//! adds the search's [`SearchProfile`].
//!
//! Search, perft, protocol and arena are generic over [`Game`] and monomorphised per variant.
//! See docs/design.md ("The `Game` contract") for the reasoning.

use std::fmt::Debug;

use crate::core::tunables::Tunables;
use crate::core::{Color, MoveBuffer};
use crate::variants::{
    FenError, GameResult, MoveError, Outcome, Scope, Terminal, VariantInfo, VariantSettings,
    Verdict, WdlModel,
};

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
/// [`Rules::legal_moves`].
pub type PlyList<M> = <M as GameMove>::List<M>;

/// A variant's rules: the board, positions, legal plies, make/unmake, the key, and the end of the
/// game. One ply = one decision of one player (a move, drop, swap, purchase, skipped portion,
/// placement); `make` decides whether the side to move changes.
///
/// The end of the game is given by two hooks, [`Rules::verdict`] (the rules that end the game
/// before the legal plies are looked at, in one of four [`Scope`]s) and
/// [`Rules::no_moves_verdict`] (what having no legal ply means); the free functions
/// [`game_outcome`], [`claimable_draw`] and [`adjudicated_outcome`] derive the end from them.
///
/// Hot-path methods (`legal_moves`, `make`, `unmake`, `key`, `gives_check`, `verdict` with
/// [`Scope::Search`], ...) never allocate.
pub trait Rules: Clone + Send + Sync + Sized + 'static {
    /// The variant's ply type.
    type Move: GameMove;

    /// Board shape and protocol announcement.
    const INFO: VariantInfo;

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

    /// Takes back the last ply made (by `make`, or a null move `make_null` made).
    fn unmake(&mut self);

    /// Zobrist key of everything that decides the future of the game.
    fn key(&self) -> u64;

    /// Whether the side to move is in check (false in variants without royalty).
    fn in_check(&self) -> bool {
        false
    }

    /// Whether the legal ply `m` would leave the opponent in check (what [`Rules::in_check`]
    /// answers after `make(m)`), when the variant can tell without playing it; `None` when it
    /// cannot (the default). The search asks before a ply it may prune, so that a pruned ply
    /// is never made; an answer must be exact.
    #[inline(always)]
    fn gives_check(&self, m: Self::Move) -> Option<bool> {
        let _ = m;
        None
    }

    /// Passes the turn (a null move) where passing is sound enough for null-move pruning
    /// here (zugzwang unlikely, the side to move not in check, no portion or part pending),
    /// and says whether it did: undone by `unmake` when true; false changes nothing. Default:
    /// no null moves.
    fn make_null(&mut self) -> bool {
        false
    }

    /// The rule of `scope` that ends the game in this position before its legal plies are
    /// looked at, from the side to move's point of view; `None` while no such rule applies.
    /// A position without legal plies that no such rule decides is judged by
    /// [`Rules::no_moves_verdict`] (so a variant where checkmate takes precedence over a draw
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
    /// ([`PlyList`]), so that [`Rules::legal_moves`] lists them all. The protocol refuses a
    /// position where it does not (a position must never lose legal turns). Default: true,
    /// for variants whose lists hold more plies than any position can have; Mutatis Mutandis,
    /// whose crowded constructed positions can exceed its turn list, checks.
    fn move_lists_fit(&self) -> bool {
        true
    }
}

/// How a variant's positions and plies are written and read: FEN, move tokens, PGN movetext,
/// the `d` board, game records in the seed's own notation, what a GUI needs to draw the board
/// and its pieces (the `variant` command), and the variant's own protocol commands.
pub trait Notation: Rules {
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
    /// Errors: as [`Notation::parse_move`].
    fn import_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        self.parse_move(text)
    }

    /// Runs one of the variant's own protocol commands (see [`VariantInfo::commands`]) at the current
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
}

/// A variant's evaluation, and the knowledge of its positions that the search's pruning and
/// ordering consult: in which order quiescence tries the tactical plies, static
/// exchange evaluation, the keys of the history tables and of the correction history. None of
/// these hooks changes the rules; all but [`Evaluation::eval_report`] are on the hot path and
/// never allocate.
pub trait Evaluation: Rules {
    /// The evaluator's tunable parameters, declared once with [`crate::tunables!`]
    /// ([`crate::core::tunables::NoParams`] for an evaluator without any).
    type EvalParams: Tunables;

    /// The parameter set the engine plays with ([`Evaluation::evaluate`] uses it). Default: the
    /// declared defaults of [`Evaluation::EvalParams`]; a variant sharing another's parameter type
    /// with other values (Muster uses chess's) returns its own.
    fn eval_params() -> &'static Self::EvalParams {
        Self::EvalParams::defaults()
    }

    /// Static evaluation in centipawns from the side to move's point of view, with the
    /// parameters [`Evaluation::eval_params`].
    fn evaluate(&self) -> i32;

    /// Static evaluation in centipawns from the side to move's point of view with the
    /// parameters `p` (tuning, experiments): equal to [`Evaluation::evaluate`] when `p` is
    /// [`Evaluation::eval_params`]. Default (an evaluator without parameters):
    /// [`Evaluation::evaluate`].
    fn evaluate_with(&self, p: &Self::EvalParams) -> i32 {
        let _ = p;
        self.evaluate()
    }

    /// The evaluation broken into its terms, as printed by the `eval` command (protocol.md 6).
    fn eval_report(&self) -> String;

    /// A hash of the part of the position whose evaluation errors tend to persist (in chess,
    /// the pawn structure), for the search's correction history: positions with the same key
    /// share a learned correction of [`Evaluation::evaluate`]. `None` (the default) turns the
    /// correction off.
    fn correction_key(&self) -> Option<u64> {
        None
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
}

/// How the search may stage the generation of a node's plies, a game's extension (Mutatis Mutandis
/// Mutandis turns every shortcut on; the other games generate legal plies in one go).
/// [`StagedGeneration::STAGING`] says which shortcuts hold; the search tests them at compile
/// time in each monomorphised copy.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Staging {
    /// The two [`GenerationStage`]s of [`StagedGeneration::staged_moves`] partition the legal plies in
    /// every position (in check too), the first holding exactly the plies
    /// [`StagedGeneration::is_tactical`] accepts, so the search may generate the quiet plies
    /// only when it reaches them. The search splits only when `decodes_packed` holds too, so
    /// that a quiet TT ply still comes first.
    pub split: bool,
    /// [`StagedGeneration::ply_from_packed`] is cheaper than generating every legal ply, so the
    /// search tries the TT ply before generating anything (otherwise it finds the TT ply among
    /// the generated plies).
    pub decodes_packed: bool,
    /// The lists of [`StagedGeneration::staged_moves`] may hold plies that are not legal, and
    /// the search tests each with [`StagedGeneration::is_legal`] only when it is about to make
    /// it (so that a cut-off or a pruned ply does not pay for the legality of the rest).
    pub lazy_legality: bool,
}

impl Staging {
    /// No shortcut: the search generates the legal plies in one go and finds the TT ply among
    /// them.
    pub const NONE: Staging = Staging {
        split: false,
        decodes_packed: false,
        lazy_legality: false,
    };
}

/// One stage of a node's plies ([`StagedGeneration::staged_moves`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GenerationStage {
    /// The plies [`StagedGeneration::is_tactical`] accepts.
    Tactical,
    /// The others.
    Quiet,
}

/// Staged generation and legality: the tactical plies quiescence tries, the search's stages
/// and its shortcuts ([`Staging`]). Every item has a default built on [`Rules::legal_moves`]
/// but [`StagedGeneration::is_tactical`]; a game overrides them for speed. All are on the hot
/// path and never allocate.
pub trait StagedGeneration: Rules {
    /// Which shortcuts the search may take (see [`Staging`]). Default: [`Staging::NONE`].
    const STAGING: Staging = Staging::NONE;

    /// Whether quiescence search should look at this ply (captures, promotions).
    fn is_tactical(&self, m: Self::Move) -> bool;

    /// Appends the legal plies quiescence search should try: by default the legal plies that
    /// [`StagedGeneration::is_tactical`] accepts. Games override it for speed.
    fn tactical_moves(&self, list: &mut PlyList<Self::Move>) {
        self.legal_moves(list);
        list.retain(|m| self.is_tactical(*m));
    }

    /// Appends the plies of `stage`: every legal one of the stage once, and with
    /// [`Staging::lazy_legality`] possibly plies that are not legal. By default the tactical
    /// stage is [`StagedGeneration::tactical_moves`] and the quiet stage the legal plies it
    /// leaves out. The search asks for the quiet stage only with [`Staging::split`].
    #[inline(always)]
    fn staged_moves(&self, stage: GenerationStage, list: &mut PlyList<Self::Move>) {
        match stage {
            GenerationStage::Tactical => self.tactical_moves(list),
            GenerationStage::Quiet => {
                self.legal_moves(list);
                list.retain(|m| !self.is_tactical(*m));
            }
        }
    }

    /// The legal ply of this position whose [`GameMove::pack`] is `packed`, or `None` when no
    /// legal ply packs so (`packed` may come from any position, through a key collision). By
    /// default the legal plies are generated and searched. Never allocates.
    fn ply_from_packed(&self, packed: u32) -> Option<Self::Move> {
        let mut list = PlyList::<Self::Move>::default();
        self.legal_moves(&mut list);
        list.iter().copied().find(|m| m.pack() == packed)
    }

    /// Whether `m`, a ply of this position's [`StagedGeneration::staged_moves`], is legal (for
    /// any other ply the answer is unspecified). True by default, where those lists are legal.
    fn is_legal(&self, m: Self::Move) -> bool {
        let _ = m;
        true
    }
}

/// The search's settings for one variant: hints that change how the generic search treats the
/// variant's positions but not its rules, and what `menagerie bench` searches. A variant
/// overrides the fields it needs with struct-update syntax:
///
/// ```ignore
/// const SEARCH: SearchProfile = SearchProfile {
///     singular_extensions: false,
///     ..SearchProfile::DEFAULT
/// };
/// ```
///
/// [`Game::SEARCH`] is a constant, so the search's tests of these fields fold away at compile
/// time in each monomorphised copy.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchProfile {
    /// How many quiet (non-tactical) check evasions quiescence searches at a node in check once
    /// it has a score above a mate: a search hint for variants where nearly every ply is an
    /// evasion and capture-check chains would otherwise expand every quiet reply at every link
    /// (Mutatis Mutandis). Unlimited by default.
    pub qsearch_quiet_evasions: usize,

    /// Whether the search uses the "improving" test (the static evaluation rose since the same
    /// side's previous node) to prune and reduce less where it rises and more where it does
    /// not: a search hint, on by default. A game whose evaluation carries no information (a
    /// flat evaluation) turns it off; the search then prunes and reduces as it did before the
    /// test existed.
    pub improving: bool,

    /// Whether the search extends singular TT plies (and cuts on a multi-cut, or searches a
    /// TT ply whose score alone is above beta a ply shallower): a search hint, on by default.
    /// A game where the extension measured as a loss in play turns it off; the search then
    /// never runs the reduced search that tests for singularity.
    pub singular_extensions: bool,

    /// Whether [`Evaluation::evaluate`] is a function of the position [`Rules::key`] identifies, so
    /// that the search may keep the evaluation in its TT entry and reuse it instead of
    /// evaluating the same position again: on by default. A game whose evaluation also reads
    /// state the key leaves out (a turn counter, say) turns it off; the search then evaluates
    /// every node. A speed hint only: with it on or off the search visits the same tree.
    pub eval_in_key: bool,

    /// Depth (plies) of `menagerie bench` for this variant: deep enough to exercise the
    /// search, short enough to run in seconds.
    pub bench_depth: u32,

    /// The win/draw/loss model of `UCI_ShowWDL` for this variant's scores (protocol.md 6):
    /// [`WdlModel::GENERIC`] by default, a fitted one where the variant has games to fit it
    /// to.
    pub wdl: WdlModel,

    /// FENs searched by `menagerie bench` for this variant (a fixed set: its node count is the
    /// search's behaviour fingerprint). Empty means the start position alone.
    pub bench_fens: &'static [&'static str],
}

impl SearchProfile {
    /// Every hint at its default: unlimited quiet evasions, the improving test, singular
    /// extensions and the TT's evaluation on; bench at depth 12 from the start position; the
    /// generic WDL model.
    pub const DEFAULT: SearchProfile = SearchProfile {
        qsearch_quiet_evasions: usize::MAX,
        improving: true,
        singular_extensions: true,
        eval_in_key: true,
        bench_depth: 12,
        wdl: WdlModel::GENERIC,
        bench_fens: &[],
    };
}

/// A variant as the generic search, perft, protocol and arena use it: its [`Rules`], its
/// [`Notation`] and its [`Evaluation`], plus what spans them: the [`SearchProfile`] and the
/// consistency check [`Game::validate`] (which reads the key of the rules against the FEN of the
/// notation). An explicit trait rather than a blanket impl, so that a variant states that it is
/// complete (`impl Game for X {}` takes every default) and generic code needs one bound,
/// `G: Game`, which brings every item of its supertraits into scope.
pub trait Game:
    Notation
    + Evaluation
    + StagedGeneration
    + crate::variants::network::NetInputs
    + crate::variants::diagram::PieceMoves
{
    /// The search's hints and the bench positions of this variant (see [`SearchProfile`]).
    /// Default: [`SearchProfile::DEFAULT`].
    const SEARCH: SearchProfile = SearchProfile::DEFAULT;

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
}

/// The game's outcome by its rules (checkmate, stalemate, a draw that ends the game by itself,
/// ...), or `None` while it goes on: [`Rules::verdict`] with [`Scope::Game`], else
/// [`Rules::no_moves_verdict`] when there is no legal ply. A draw that a player may only claim is
/// not an outcome: see [`claimable_draw`]. Derived from the two hooks, for every variant alike;
/// not for the hot path (it generates the legal plies).
pub fn game_outcome<R: Rules>(pos: &R) -> Option<Outcome> {
    let side = pos.side_to_move();
    if let Some(v) = pos.verdict(Scope::Game) {
        return Some(v.outcome(side));
    }
    let mut list = PlyList::<R::Move>::default();
    pos.legal_moves(&mut list);
    list.is_empty()
        .then(|| pos.no_moves_verdict().outcome(side))
}

/// A draw the player to move may claim but which does not end the game by itself, as the reason
/// printed in `info string draw claimable {<reason>}` (orthodox chess: FIDE 9.2 `threefold
/// repetition`, 9.3 `fifty-move rule`): the [`Scope::Claims`] verdict of a position whose
/// [`game_outcome`] is `None`.
pub fn claimable_draw<R: Rules>(pos: &R) -> Option<&'static str> {
    if game_outcome(pos).is_some() {
        return None;
    }
    pos.verdict(Scope::Claims)
        .filter(|v| v.terminal == Terminal::Draw)
        .map(|v| v.reason)
}

/// The result a referee records: [`game_outcome`], else the [`claimable_draw`] as a draw (a
/// claim is made as soon as it is possible: what the arena adjudicates).
pub fn adjudicated_outcome<R: Rules>(pos: &R) -> Option<Outcome> {
    game_outcome(pos).or_else(|| {
        claimable_draw(pos).map(|reason| Outcome {
            result: GameResult::Draw,
            reason: reason.into(),
        })
    })
}

/// The score [`Notation::variant_command`]'s probe reports for a won position (centipawns).
pub const PROBE_MATE: i32 = 32_000;

/// The budget of one probe search of [`Notation::variant_command`]: it stops at whichever limit
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
/// tokens (also glued to a move number, `40.1-0`) are dropped.
pub fn split_record_words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter(|w| !matches!(*w, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .filter_map(|w| {
            let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            // What the trim leaves of a result glued to a move number.
            if w.is_empty() || matches!(w, "-0" | "-1" | "/2-1/2" | "*") {
                None
            } else {
                Some(w.to_string())
            }
        })
        .collect()
}
