//! The chess evaluation: the hand-written evaluation of the orthodox board
//! ([`crate::variants::orthodox::eval`], with chess's tuned parameters [`params::DEFAULT`]),
//! plus the network's residual ([`super::network`], weighted by `net_permille`) and the
//! known endgames' scale ([`super::endgame`]).

use super::position::Chess;
use crate::variants::orthodox::eval::{evaluate_board, report_board};

/// The parameter set of the orthodox evaluation, with chess's tuned values (the tuner's path
/// to them: `menagerie::variants::chess::eval::params`).
pub use crate::variants::orthodox::eval::params;
pub use crate::variants::orthodox::eval::{DEFAULT, DEFAULT_PARAMS};

use self::params::EvalParams;

/// Static evaluation with the parameter set `p`, in centipawns from the side to move's view.
/// For the tuner; the engine uses [`evaluate`].
/// The endgames of [`super::endgame`] scale the whole score (a drawn KPK is 0).
pub fn evaluate_with(pos: &Chess, p: &EvalParams) -> i32 {
    let mut v = evaluate_board(pos.board(), pos.stm, p);
    if p.net_permille != 0 {
        v += crate::variants::network::residual(pos) * p.net_permille / 1000;
    }
    match super::endgame::scale(pos.board(), pos.stm) {
        Some(s) => v * s / 64,
        None => v,
    }
}

/// Static evaluation in centipawns from the side to move's point of view (positive: the side
/// to move stands better). Never allocates.
#[inline]
pub fn evaluate(pos: &Chess) -> i32 {
    evaluate_with(pos, &DEFAULT_PARAMS)
}

/// The evaluation term by term, for the `eval` command: for each term the middlegame,
/// endgame and tapered values (centipawns) for White, Black and White minus Black, then the
/// phase and the final score from White's and the side to move's point of view.
pub fn report(pos: &Chess) -> String {
    report_with(pos, &DEFAULT_PARAMS)
}

/// [`report`] with explicit parameters, then the network's residual
/// ([`super::network`], weighted by `net_permille`) and the score the search uses.
/// A position of a known endgame ([`super::endgame::scale`]) gets one more line: the scale
/// and the score the search uses.
pub fn report_with(pos: &Chess, params: &EvalParams) -> String {
    let mut out = report_board(pos.board(), pos.stm, params);
    let net = crate::variants::network::residual_from_scratch(pos);
    out.push_str(&format!(
        "\nNetwork residual: {net} cp (side to move) x {}/1000{}",
        params.net_permille,
        if <Chess as crate::variants::network::NetInputs>::slot()
            .get()
            .is_some()
        {
            ""
        } else {
            " (no network: EvalFile <none>, or built without the nnue feature)"
        }
    ));
    if super::endgame::scale(pos.board(), pos.stm).is_none() {
        out.push_str(&format!(
            "\nScore: {} cp (side to move)",
            evaluate_with(pos, params)
        ));
    }
    if let Some(s) = super::endgame::scale(pos.board(), pos.stm) {
        out.push_str(&format!(
            "\nKnown endgame: whole score scaled by {s}/64: {} cp (side to move)",
            evaluate_with(pos, params)
        ));
    }
    out
}
