//! Actions (rules 4, 6, 7) and their move tokens (rules 11, protocol.md 3).
//!
//! An [`Action`] says everything make/unmake needs: the piece that moves (`from` -> `to`), an
//! optional second leg (the swapped partner or the slung piece), the squares emptied by
//! captures (a set: a long leap or a Chameleon combination removes several), and whether a
//! pawn ends on its promotion rank. It is `Copy`, 16 bytes, built without allocation.

use std::fmt::{self, Write as _};

use arrayvec::{ArrayString, ArrayVec};

use crate::core::Square;

use super::board::{parse_square, square_name, Bb};
use super::piece::State;

/// Marker for "no second leg".
pub const NO_SQUARE: Square = 255;

/// What kind of action (rules 11 table of move strings).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum ActionKind {
    /// The piece goes `from` -> `to` (a move, displacement capture, withdrawal, approach, long
    /// leap, Chameleon combination, en passant, or an Oxybeles step that slings nothing).
    #[default]
    Move,
    /// Swapper/Chameleon swap: `from` -> `to` and the partner `to` -> `from` (rules 6.2 `SW`,
    /// 7.2 c). `captures` may hold Chameleon withdrawal/approach victims.
    Swap,
    /// Oxybeles step `from` -> `to` slinging the piece on `from2` to `to2` (rules 6.2 `OX`).
    Sling,
    /// Archer (or Chameleon) shot: the piece on `to` is removed, the shooter stays.
    Shot,
    /// Swapper (or Chameleon) mutual destruction: both `from` and `to` are removed.
    MutualDestruction,
    /// A frozen piece removes itself (rules 7.1): `from == to`.
    Suicide,
    /// Maoking conversion (rules 6.1 `MK`, [D 8]): the piece on `to` changes colour.
    Convert,
}

/// One action of one piece (rules 4: the non-drop portion of a turn).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Action {
    /// Kind of action.
    pub kind: ActionKind,
    /// Square of the acting piece.
    pub from: Square,
    /// Destination of the acting piece, or the target square (shot, conversion, mutual
    /// destruction), or `from` (suicide).
    pub to: Square,
    /// Origin of the second moving piece (swap partner = `to`, slung piece), or [`NO_SQUARE`].
    pub from2: Square,
    /// Destination of the second moving piece (swap: `from`), or [`NO_SQUARE`].
    pub to2: Square,
    /// The pawn that ends this action (the mover, or the slung piece of a sling) stands on its
    /// promotion rank and is replaced by a reserve piece (rules 10); for a Cannon Pawn the
    /// action exists with and without it.
    pub promotes: bool,
    /// Squares whose pieces are removed by this action (bit = square; includes the actor's
    /// own square for mutual destruction and suicide).
    pub captures: Bb,
}

/// Capacity of an [`ActionList`]: above the most actions a position of 21 + 8 pieces per side
/// generates (dense random boards stay far below).
pub const MAX_ACTIONS: usize = 2048;

/// A fixed-capacity list of actions on the stack: generation never allocates.
pub type ActionList = ArrayVec<Action, MAX_ACTIONS>;

/// Where generated actions go: a list, a counter, or an early-exit test (the attacked query).
pub trait ActionSink {
    /// Receives one action.
    fn push(&mut self, a: Action);
    /// True when the caller may stop generating (default: never).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
    /// True when the sink only wants actions that remove pieces (the attacked query): the
    /// generators may then skip quiet moves, swaps and conversions (default: false).
    #[inline(always)]
    fn captures_only(&self) -> bool {
        false
    }
    /// The only squares whose removal the sink cares about, when `captures_only` (default:
    /// all): generators may skip work for other victims.
    #[inline(always)]
    fn targets(&self) -> Bb {
        !0
    }
}

impl<const N: usize> ActionSink for ArrayVec<Action, N> {
    #[inline(always)]
    fn push(&mut self, a: Action) {
        // Capacity is above any reachable count; a full list drops the surplus, never panics.
        let _ = self.try_push(a);
    }
}

/// Counts actions (used by the bench).
#[derive(Default, Debug)]
pub struct CountSink(pub u64);

impl ActionSink for CountSink {
    #[inline(always)]
    fn push(&mut self, _a: Action) {
        self.0 += 1;
    }
}

/// Why a move token did not name an action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Not legs of two squares joined by `,` with an optional suffix.
    #[error("move token '{0}': not of the form e2e4, e7e8am, b3d1,d1b3 or c3c3x")]
    Malformed(String),
    /// Well formed, but no generated action has this token.
    #[error("move token '{0}': no such action in this position")]
    NoSuchAction(String),
    /// The promotion suffix is not a piece code.
    #[error("move token '{0}': unknown promotion piece code")]
    BadPromotion(String),
}

impl Action {
    /// A plain move or a move with captures.
    #[inline(always)]
    pub const fn moving(from: Square, to: Square, captures: Bb) -> Action {
        Action {
            kind: ActionKind::Move,
            from,
            to,
            from2: NO_SQUARE,
            to2: NO_SQUARE,
            promotes: false,
            captures,
        }
    }

    /// An action of `kind` with one leg (shot, conversion, mutual destruction, suicide).
    #[inline(always)]
    pub const fn one_leg(kind: ActionKind, from: Square, to: Square, captures: Bb) -> Action {
        Action {
            kind,
            from,
            to,
            from2: NO_SQUARE,
            to2: NO_SQUARE,
            promotes: false,
            captures,
        }
    }

    /// A swap of the pieces on `from` and `to`.
    #[inline(always)]
    pub const fn swap(from: Square, to: Square, captures: Bb) -> Action {
        Action {
            kind: ActionKind::Swap,
            from,
            to,
            from2: to,
            to2: from,
            promotes: false,
            captures,
        }
    }

    /// Whether the action has a second leg.
    #[inline(always)]
    pub const fn has_second_leg(&self) -> bool {
        self.from2 != NO_SQUARE
    }

    /// The move token (rules 11, protocol.md 3) with the promotion piece `promo` appended to the
    /// last leg when the action promotes (the game chooses it: reserve's last piece or `Q`).
    /// Examples: `e2e4`, `e7e8am`, `b3d1,d1b3`, `d4d5,d3d7`, `c3c3x`, `d1h5`.
    pub fn token(&self, promo: Option<State>) -> ArrayString<24> {
        let mut s = ArrayString::<24>::new();
        let _ = write!(s, "{}{}", square_name(self.from), square_name(self.to));
        if self.kind == ActionKind::Suicide {
            s.push('x');
            return s;
        }
        if self.has_second_leg() {
            let _ = write!(s, ",{}{}", square_name(self.from2), square_name(self.to2));
        }
        if self.promotes {
            if let Some(p) = promo {
                for c in p.code().chars() {
                    s.push(c.to_ascii_lowercase());
                }
            }
        }
        s
    }

    /// Finds the action of `actions` written `token`, returning it with the promotion piece
    /// named by the suffix (if any). Tokens are unique among the actions of a position.
    ///
    /// Errors: [`TokenError::Malformed`] / [`TokenError::BadPromotion`] for bad text,
    /// [`TokenError::NoSuchAction`] when no action matches (or a promotion lacks its suffix).
    pub fn find(actions: &[Action], token: &str) -> Result<(Action, Option<State>), TokenError> {
        let bad = || TokenError::Malformed(token.to_string());
        if !token.is_ascii() {
            return Err(bad());
        }
        let legs: ArrayVec<&str, 2> = {
            let mut v = ArrayVec::new();
            for l in token.split(',') {
                v.try_push(l).map_err(|_| bad())?;
            }
            v
        };
        fn squares(leg: &str) -> Option<(Square, Square, &str)> {
            if leg.len() < 4 {
                return None;
            }
            let a = parse_square(&leg[0..2]).ok()?;
            let b = parse_square(&leg[2..4]).ok()?;
            Some((a, b, &leg[4..]))
        }
        let (from, to, rest1) = squares(legs[0]).ok_or_else(bad)?;
        let mut second = None;
        let mut suffix = rest1;
        if legs.len() == 2 {
            if !rest1.is_empty() {
                return Err(bad());
            }
            let (a, b, r) = squares(legs[1]).ok_or_else(bad)?;
            second = Some((a, b));
            suffix = r;
        }
        let suicide = suffix == "x" && second.is_none();
        let promo = if suffix.is_empty() || suicide {
            None
        } else {
            if suffix.bytes().any(|c| c.is_ascii_uppercase()) {
                return Err(TokenError::BadPromotion(token.to_string()));
            }
            Some(
                State::from_code(suffix)
                    .ok_or_else(|| TokenError::BadPromotion(token.to_string()))?,
            )
        };
        actions
            .iter()
            .find(|a| {
                a.from == from
                    && a.to == to
                    && (a.kind == ActionKind::Suicide) == suicide
                    && match second {
                        None => !a.has_second_leg(),
                        Some((f2, t2)) => a.from2 == f2 && a.to2 == t2,
                    }
                    && a.promotes == promo.is_some()
            })
            .map(|a| (*a, promo))
            .ok_or_else(|| TokenError::NoSuchAction(token.to_string()))
    }
}

impl fmt::Display for Action {
    /// The token with `?` standing for the promotion piece the game will choose.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.token(None))?;
        if self.promotes {
            f.write_char('?')?;
        }
        Ok(())
    }
}
