//! The FIDE end rules, for chess and the variants played on the orthodox board: each calls them with its own counters and history.

use crate::core::Color;
use crate::variants::{GameResult, Outcome};

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
