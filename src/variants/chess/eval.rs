//! Evaluation of orthodox chess. STUB: being written.

use super::position::Chess;

/// Tunable evaluation parameters, declared once (name, value in centipawns).
pub static PARAMS: &[(&str, i32)] = &[("pawn", 100)];

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Chess) -> i32 {
    let _ = pos;
    0
}

/// The evaluation term by term, for the `eval` command.
pub fn report(pos: &Chess) -> String {
    format!("total {}", evaluate(pos))
}
