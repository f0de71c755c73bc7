//! The end of a Mitosis game (rules/mitosis.md 6): the bare rule, one piece each, the
//! capture-only 50-move clock with its count-then-rank adjudication, and no legal move.

use std::cmp::Ordering;

use super::position::Mitosis;
use super::types::Kind;
use crate::core::Color;
use crate::variants::{GameResult, Terminal};

/// Plies without a capture after which the game is adjudicated (rules/mitosis.md 6.3 \[D10\]).
pub const CLOCK_LIMIT: u16 = 100;

/// A decision by rule, from no side's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The side wins.
    Win(Color),
    /// Drawn.
    Draw,
}

impl Decision {
    /// The decision seen from `side` (the side to move, for the search).
    pub fn terminal(self, side: Color) -> Terminal {
        match self {
            Decision::Win(w) if w == side => Terminal::Win,
            Decision::Win(_) => Terminal::Loss,
            Decision::Draw => Terminal::Draw,
        }
    }

    /// The PGN-style result.
    pub fn result(self) -> GameResult {
        match self {
            Decision::Win(w) => GameResult::win_for(w),
            Decision::Draw => GameResult::Draw,
        }
    }
}

/// The lone main-board piece of `side` (when it has exactly one).
fn lone_piece(pos: &Mitosis, side: Color) -> Kind {
    Kind::ALL
        .into_iter()
        .find(|&k| pos.main_kind_count(side, k) > 0)
        .expect("a side with one main-board piece")
}

/// Rules 6.1 (bare) and 6.2 (one piece each), and the draw when neither side has a piece on
/// the main board, with the rule's name; `None` while play continues.
pub fn material_verdict(pos: &Mitosis) -> Option<(Decision, &'static str)> {
    let nw = pos.main_count(Color::White);
    let nb = pos.main_count(Color::Black);
    for (x, y, side_y) in [(nw, nb, Color::Black), (nb, nw, Color::White)] {
        if (x <= 1 && y >= 2) || (x == 0 && y == 1) {
            return Some((Decision::Win(side_y), "bare rule"));
        }
    }
    if nw == 0 && nb == 0 {
        return Some((Decision::Draw, "no pieces on the board"));
    }
    if nw == 1 && nb == 1 {
        let (pw, pb) = (lone_piece(pos, Color::White), lone_piece(pos, Color::Black));
        let strong = |k: Kind| {
            matches!(
                k,
                Kind::King | Kind::General | Kind::Queen | Kind::Chancellor | Kind::Archbishop
            )
        };
        return match (pw == Kind::Pawn, pb == Kind::Pawn) {
            (false, false) => Some(match pw.cmp(&pb) {
                // A lower index ranks higher.
                Ordering::Less => (Decision::Win(Color::White), "one piece each: higher rank"),
                Ordering::Greater => (Decision::Win(Color::Black), "one piece each: higher rank"),
                Ordering::Equal => (Decision::Draw, "one piece each: same piece"),
            }),
            (true, false) if strong(pb) => Some((
                Decision::Win(Color::Black),
                "one piece each: pawn against a major or King",
            )),
            (false, true) if strong(pw) => Some((
                Decision::Win(Color::White),
                "one piece each: pawn against a major or King",
            )),
            _ => None,
        };
    }
    None
}

/// The adjudication of rules 6.3/6.4: more main-board pieces wins; equal counts compare the
/// rank-sorted lists (first difference decides); identical lists draw. Returns the verdict and
/// which comparison decided it.
pub fn adjudicate(pos: &Mitosis) -> (Decision, &'static str) {
    let nw = pos.main_count(Color::White);
    let nb = pos.main_count(Color::Black);
    match nw.cmp(&nb) {
        Ordering::Greater => return (Decision::Win(Color::White), "more pieces"),
        Ordering::Less => return (Decision::Win(Color::Black), "more pieces"),
        Ordering::Equal => {}
    }
    // Equal lengths: the first kind (highest rank first) with different counts decides, in
    // favour of the side with more of it.
    for k in Kind::ALL {
        let (w, b) = (
            pos.main_kind_count(Color::White, k),
            pos.main_kind_count(Color::Black, k),
        );
        match w.cmp(&b) {
            Ordering::Greater => return (Decision::Win(Color::White), "higher ranks"),
            Ordering::Less => return (Decision::Win(Color::Black), "higher ranks"),
            Ordering::Equal => {}
        }
    }
    (Decision::Draw, "identical armies")
}
