//! The FIDE end rules, as verdicts for [`Rules::verdict`](crate::variants::Rules::verdict) and
//! [`Rules::no_moves_verdict`](crate::variants::Rules::no_moves_verdict): chess and the variants
//! played on the orthodox board call them explicitly with their own counters, history and
//! legal plies, and choose which draws end their games by themselves.

use crate::variants::Verdict;

/// Draws by a move counter and by repetition.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRules {
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
pub const FIDE_AUTOMATIC_DRAWS: DrawRules = DrawRules {
    clock_plies: 150,
    clock_reason: "seventy-five-move rule",
    occurrences: 5,
    repetition_reason: "fivefold repetition",
};

/// FIDE 9.3 (50 moves of each player without a pawn move or a capture) and 9.2 (the third
/// occurrence of a position): draws a chess player may claim, and that the rules files of
/// Mystic (3) and Muster (7) make end the game by themselves.
pub const FIFTY_MOVES_AND_THREEFOLD: DrawRules = DrawRules {
    clock_plies: 100,
    clock_reason: "fifty-move rule",
    occurrences: 3,
    repetition_reason: "threefold repetition",
};

/// FIDE 5.2.2: a dead position (see [`Board::insufficient_material`](super::Board)).
pub const DEAD_POSITION: Verdict = Verdict::draw("insufficient material");

impl DrawRules {
    /// The draw of these rules at halfmove clock `halfmove`, where `repeated(n)` tells whether
    /// the position has occurred `n` times (asked only when the clock has not run out).
    #[inline]
    pub fn verdict(&self, halfmove: u16, repeated: impl FnOnce(usize) -> bool) -> Option<Verdict> {
        if halfmove >= self.clock_plies {
            Some(Verdict::draw(self.clock_reason))
        } else if repeated(self.occurrences) {
            Some(Verdict::draw(self.repetition_reason))
        } else {
            None
        }
    }
}

/// FIDE 5.1.1 and 5.2.1: without a legal move, checkmate (a loss) when in check, else
/// stalemate (a draw).
#[inline]
pub fn no_moves_verdict(in_check: bool) -> Verdict {
    if in_check {
        Verdict::loss("checkmate")
    } else {
        Verdict::draw("stalemate")
    }
}

/// The draws the search applies at a node (in this order, each asked only when needed): the
/// 50-move rule unless the position is checkmate (FIDE 9.3; `checkmated` is asked only when
/// the clock has run out), a repetition (`repeated`: in the tree, see
/// [`Scope::Search`](crate::variants::Scope::Search)), a dead position (`dead`).
#[inline(always)]
pub fn search_draw(
    halfmove: u16,
    checkmated: impl FnOnce() -> bool,
    repeated: impl FnOnce() -> bool,
    dead: impl FnOnce() -> bool,
) -> Option<Verdict> {
    if halfmove >= FIFTY_MOVES_AND_THREEFOLD.clock_plies && !checkmated() {
        Some(Verdict::draw(FIFTY_MOVES_AND_THREEFOLD.clock_reason))
    } else if repeated() {
        Some(Verdict::draw("repetition"))
    } else if dead() {
        Some(DEAD_POSITION)
    } else {
        None
    }
}
