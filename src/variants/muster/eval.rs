//! Evaluation of Muster Chess: the orthodox evaluator on the board underneath. It has no
//! castling or development terms and no assumption about where the pieces started, so it
//! applies to any mustered army (rules/muster.md 2); material and phase count whatever is on
//! the board (the phase is capped at the opening value for armies richer than the regular one).

use super::Muster;
use crate::variants::chess::eval as chess_eval;

/// Static evaluation in centipawns from the side to move's point of view. Never allocates.
#[inline]
pub fn evaluate(pos: &Muster) -> i32 {
    chess_eval::evaluate(&pos.chess)
}

/// The evaluation term by term, for the `eval` command.
pub fn report(pos: &Muster) -> String {
    chess_eval::report(&pos.chess)
}
