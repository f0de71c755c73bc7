//! The seats of a game (docs/gui.md "Seats"): which side a request may act for, and the
//! offers between two people (a draw, a rematch; takebacks are in `turns`), each made by
//! one seat and accepted or declined by the other.

use serde_json::Value;

use super::Driver;
use crate::gui::error::ApiError;
use crate::gui::record::{Clock, Colour, GameState, Held, OfferKind};

/// The side a request holding `held` acts for: its one colour, or White where it holds both
/// (a caller that needs the side to move looks at `held` itself).
///
/// Errors: 403 when the request holds no seat of the game (a spectator).
pub fn seat_of(st: &GameState, held: Held) -> Result<Colour, ApiError> {
    match held {
        [true, _] => Ok(Colour::White),
        [false, true] => Ok(Colour::Black),
        [false, false] => Err(ApiError::forbidden(if st.seated() {
            "this page holds no seat of this game: it can watch, not play"
        } else {
            "nobody plays this game: the engine plays both sides"
        })),
    }
}

/// 403 unless a request holding `held` may analyse or score the game: a seat holder once the
/// game is over, or, while it goes on, a page that holds every person's seat (so that one of
/// two people cannot consult the engine against the other).
pub fn may_analyse(st: &GameState, held: Held) -> Result<(), ApiError> {
    seat_of(st, held)?;
    if st.result.is_none() && !st.holds_all(held) {
        return Err(ApiError::forbidden(
            "no analysis while your opponent plays (it is on once the game is over)",
        ));
    }
    Ok(())
}

/// 403 unless a request holding `held` may play the turn at `ply` (`None`: the game's last
/// position): a seat holder, and, for a turn at an earlier position (a new line), a page that
/// holds every person's seat.
pub fn may_play(st: &GameState, held: Held, ply: Option<usize>) -> Result<(), ApiError> {
    seat_of(st, held)?;
    if ply.is_some_and(|p| p < st.moves.len()) && !st.holds_all(held) {
        return Err(ApiError::forbidden(
            "a new line at an earlier position needs both seats",
        ));
    }
    Ok(())
}

impl Driver {
    /// A draw offered by the seat of `held`, or the other's offer accepted. Where one page
    /// holds both people's seats the draw is agreed at once; the engine accepts none.
    pub(super) async fn offer_draw(&mut self, held: Held) -> Result<Value, ApiError> {
        {
            let mut st = self.slot.lock();
            let me = seat_of(&st, held)?;
            if st.result.is_some() {
                return Err(ApiError::unprocessable("the game is over"));
            }
            if st.has_engine() {
                return Err(ApiError::unprocessable(
                    "the engine plays on: it accepts no draw offer",
                ));
            }
            if held == [true, true] || st.offer(OfferKind::Draw) == Some(me.other()) {
                st.end("1/2-1/2", "agreement");
            } else {
                st.set_offer(OfferKind::Draw, Some(me));
            }
        }
        Ok(self.changed())
    }

    /// The other side's offer of `kind` declined, or the seat's own withdrawn.
    pub(super) async fn decline(&mut self, kind: OfferKind, held: Held) -> Result<Value, ApiError> {
        {
            let mut st = self.slot.lock();
            seat_of(&st, held)?;
            let Some(by) = st.offer(kind) else {
                return Err(ApiError::unprocessable(format!(
                    "there is no {} offer to decline",
                    kind.word()
                )));
            };
            st.set_offer(kind, None);
            st.notice = Some(if held[Clock::idx(by)] {
                format!("{} withdrew the {} offer.", name(by), kind.word())
            } else {
                format!("{} declined the {} offer.", name(by.other()), kind.word())
            });
        }
        Ok(self.changed())
    }

    /// A rematch asked by the seat of `held`: `true` when it is to be made now (the page
    /// holds every person's seat, or the other side offered it), `false` when it is only
    /// offered. Until [`Driver::rematch_made`] the rematch counts as being made.
    pub(super) async fn rematch(&mut self, held: Held) -> Result<bool, ApiError> {
        let ready = {
            let mut st = self.slot.lock();
            let me = seat_of(&st, held)?;
            if st.result.is_none() {
                return Err(ApiError::unprocessable(
                    "a rematch is offered once the game is over",
                ));
            }
            if st.rematch.is_some() || self.rematch_making {
                return Err(ApiError {
                    status: 409,
                    message: "the rematch is made already".into(),
                });
            }
            if st.holds_all(held) || st.offer(OfferKind::Rematch) == Some(me.other()) {
                true
            } else {
                st.set_offer(OfferKind::Rematch, Some(me));
                false
            }
        };
        if ready {
            self.rematch_making = true;
        } else {
            self.changed();
        }
        Ok(ready)
    }

    /// The rematch's id, once made (every page of the game follows it), or `None` when it
    /// could not be made.
    pub(super) async fn rematch_made(&mut self, id: Option<String>) -> Result<Value, ApiError> {
        self.rematch_making = false;
        {
            let mut st = self.slot.lock();
            st.set_offer(OfferKind::Rematch, None);
            st.rematch = id;
        }
        Ok(self.changed())
    }
}

/// `White` or `Black`.
fn name(c: Colour) -> &'static str {
    match c {
        Colour::White => "White",
        Colour::Black => "Black",
    }
}
