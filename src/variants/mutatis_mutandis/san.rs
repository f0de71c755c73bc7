//! The PGN notation of Mutatis Mutandis (rules/mutatis-mutandis.md 12), SAN-style: the acting
//! piece's state code as the FEN writes it, in upper case (`N11`, `AM`; none for a Pawn in
//! state `P`), the least disambiguation that tells it from the other pieces of the same state
//! whose legal actions are written the same (file, else rank, else both), `x` when the action
//! removes a piece, the target square, `=CODE` for a promotion; then the drop `;CODE@square`
//! as in the token, and `+` or `#` when a royal piece of the opponent is attacked after the
//! turn (checkmate or Wuss mate when it has no legal turn).
//!
//! | action | written | token |
//! |---|---|---|
//! | move, displacement capture, withdrawal, approach, long leap, en passant | `N11c3`, `Qxd7`, `e4`, `exd5`, `WIxe6` | `d1c3`, `e2e4` |
//! | promotion | `e8=AM`, `CPe8=Q` (a Cannon Pawn not promoting: `CPe8`) | `e7e8am` |
//! | Archer shot, mutual destruction (the piece's own way with the target) | `ACxh5`, `SWxe5` | `d1h5`, `d4e5` |
//! | Maoking conversion | `MK~e5` | `d4e5` |
//! | swap: the actor's move, then its partner's | `SWd1,Rb3` | `b3d1,d1b3` |
//! | sling: the Oxybeles' step, then the slung piece's flight | `OXd5,Rd8`, `OXd5,Pxd8=AM` | `d4d5,d3d8` |
//! | suicide of a frozen piece | `NRc3x`, `c3x` (a Pawn) | `c3c3x` |
//! | cornering with the h-file or the a-file corner | `O-O`, `O-O-O` | `e1h1`, `e1a1` |
//! | a turn with a drop | `e4;AM@c1` | `e2e4;AM@c1` |
//!
//! Not a hot path: it generates the actions of the other pieces of the mover's state (when there
//! are any), judging the legality of those written the same, and plays the turn on a copy of the
//! board for the check mark.

use std::fmt::Write as _;

use crate::core::Square;
use crate::variants::turn::read_pgn_ply;
use crate::variants::MoveError;

use super::action::{Action, ActionKind, ActionList};
use super::board::{bit, file_of, iter, rank_of, square_name};
use super::generate::actions_from;
use super::legal::{royal_attacked, MoveKinds};
use super::moves::{MutatisMove, MutatisMoveList};
use super::piece::{Piece, State};
use super::position::{play_turn, MutatisMutandis, TurnEffect};

/// The notation of `t`, a legal turn of `pos` (see the module's table).
pub fn san(pos: &MutatisMutandis, t: &MutatisMove) -> String {
    let mut s = action_san(pos, &t.action);
    if t.has_drop() {
        if let Some(code) = pos.reserve(pos.side).first() {
            let _ = write!(s, ";{}@{}", code.code(), square_name(t.drop));
        }
    }
    s.push_str(check_mark(pos, t));
    s
}

/// Reads one turn of a record: a protocol token (`e2e4;AM@c1`) or the notation of [`san`]
/// (`e4;AM@c1`), check and annotation marks ignored.
///
/// Errors: [`MoveError::Illegal`] when the text names no legal turn, or several.
pub fn import_move(pos: &MutatisMutandis, text: &str) -> Result<MutatisMove, MoveError> {
    read_pgn_ply(pos, text).map_err(MoveError::Illegal)
}

/// The code the notation writes for the actor in `state`: its FEN code, none for a Pawn.
fn actor_code(state: State) -> &'static str {
    if state == State::Pawn {
        ""
    } else {
        state.code()
    }
}

/// The action's notation, without the drop and the check mark.
fn action_san(pos: &MutatisMutandis, a: &Action) -> String {
    let b = &pos.board;
    let Some(p) = b.piece(a.from) else {
        // Not a legal action: its token, so that nothing reads it as another one.
        return a.token(None).to_string();
    };
    match a.kind {
        ActionKind::Corner => {
            return if file_of(a.to) == 7 { "O-O" } else { "O-O-O" }.to_string();
        }
        ActionKind::Suicide => return format!("{}{}x", actor_code(p.state), square_name(a.from)),
        _ => {}
    }
    let rest = after_origin(pos, a);
    let pawn_capture = p.state == State::Pawn && a.captures != 0;
    format!(
        "{}{}{rest}",
        actor_code(p.state),
        disambiguation(pos, a, p, &rest, pawn_capture)
    )
}

/// The notation of `a` after the actor's code and disambiguation: `[x]to[=PROMO]`, `~to` for a
/// conversion, `[x]to,CODEfrom` for a swap, `to,CODE[x]to2[=PROMO]` for a sling.
fn after_origin(pos: &MutatisMutandis, a: &Action) -> String {
    let b = &pos.board;
    let code = |sq: Square| b.piece(sq).map_or("?", |p| p.state.code());
    let promo = || {
        pos.promoting_piece(a)
            .map(|p| format!("={}", pos.promotion_state(p.color).code()))
            .unwrap_or_default()
    };
    let x = if a.captures != 0 { "x" } else { "" };
    let to = square_name(a.to);
    match a.kind {
        ActionKind::Convert => format!("~{to}"),
        ActionKind::Swap => format!("{x}{to},{}{}", code(a.to), square_name(a.from)),
        ActionKind::Sling => format!("{to},{}{x}{}{}", code(a.from2), square_name(a.to2), promo()),
        _ => format!("{x}{to}{}", promo()),
    }
}

/// What tells `a`, an action of `p`, from the legal actions of the other pieces of the same
/// side and state written the same after their origin (`rest`): nothing, the origin's file,
/// its rank, or both (PGN standard 8.2.3.4). A Pawn's capture always names its file.
fn disambiguation(
    pos: &MutatisMutandis,
    a: &Action,
    p: Piece,
    rest: &str,
    pawn_capture: bool,
) -> String {
    let others = pos.board.pieces(p.color, p.state) & !bit(a.from);
    let mut rivals: Vec<Square> = Vec::new();
    for r in iter(others) {
        let mut list = ActionList::new();
        actions_from(&pos.board, r, &mut list);
        if list.iter().any(|o| {
            o.to == a.to
                && !matches!(o.kind, ActionKind::Corner | ActionKind::Suicide)
                && after_origin(pos, o) == rest
                && pos.is_legal_action(o)
        }) {
            rivals.push(r);
        }
    }
    let name = square_name(a.from).to_string();
    let same_file = rivals.iter().any(|&r| file_of(r) == file_of(a.from));
    let same_rank = rivals.iter().any(|&r| rank_of(r) == rank_of(a.from));
    if rivals.is_empty() && !pawn_capture {
        String::new()
    } else if !same_file {
        name[..1].to_string()
    } else if !same_rank && !pawn_capture {
        name[1..].to_string()
    } else {
        name
    }
}

/// `+` when a royal piece of the opponent is attacked after `t` (rules 5), `#` when the
/// opponent then has no legal turn either (checkmate or Wuss mate), else nothing. The attack is
/// judged on the board after the turn, as the legality test judges the mover's royals; only a
/// check plays the turn on a copy of the position to count the replies.
fn check_mark(pos: &MutatisMutandis, t: &MutatisMove) -> &'static str {
    let us = pos.side;
    let a = &t.action;
    let mut board = pos.board.clone();
    let promo = pos
        .promoting_piece(a)
        .map_or(State::Queen, |p| pos.promotion_state(p.color));
    let drop = match pos.reserve(us).first() {
        Some(s) if t.has_drop() => Some((t.drop, Piece::new(us, s))),
        _ => None,
    };
    let effect = TurnEffect {
        action: *a,
        promo,
        drop,
    };
    play_turn(&mut board, &effect, &mut |_, _, _| {});
    if !royal_attacked(&board, !us) {
        return "";
    }
    let mut after = pos.clone();
    after.make_turn(t.action, t.drop);
    let mut replies = MutatisMoveList::new();
    after.generate_turns(&mut replies, MoveKinds::All);
    if replies.is_empty() {
        "#"
    } else {
        "+"
    }
}
