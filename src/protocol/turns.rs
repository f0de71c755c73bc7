//! Plies and turns (design.md "Plies and turns", protocol.md 3): the protocol speaks in turn
//! tokens (portion tokens joined by `;`), the search and the positions in plies.
//! Everything here is generic over [`Game`]; no variant is named.

use crate::perft::{self, Unit};
use crate::variants::PlyList;
use crate::variants::{Game, MoveError, Scope};

/// One turn of a line of plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn<M> {
    /// The turn token: portion tokens joined by `;`.
    pub token: String,
    /// The plies, in order.
    pub plies: Vec<M>,
    /// False when the line ended before the side to move changed (a turn cut short).
    pub complete: bool,
}

/// Whether `m` is among the legal plies of `pos`.
pub fn is_legal<G: Game>(pos: &G, m: G::Move) -> bool {
    let mut list = PlyList::<G::Move>::default();
    pos.legal_moves(&mut list);
    list.contains(&m)
}

/// Whether the turn that `side` was playing is over in `pos` (after one of its plies): the side
/// to move changed, or the game was decided, or the variant has one ply per turn.
pub fn turn_over<G: Game>(pos: &G, side: crate::core::Color) -> bool {
    !G::MULTI_PLY_TURNS || pos.side_to_move() != side || pos.verdict(Scope::Wins).is_some()
}

/// Groups a line of plies played from `root` into turns. The line is cut at the first ply that
/// is not legal where it stands (a PV may hold TT leftovers after a key collision).
pub fn group_turns<G: Game>(root: &G, plies: &[G::Move]) -> Vec<Turn<G::Move>> {
    let mut pos = root.clone();
    let mut turns: Vec<Turn<G::Move>> = Vec::new();
    for &m in plies {
        if !is_legal(&pos, m) {
            break;
        }
        let side = pos.side_to_move();
        let token = pos.move_token(m);
        pos.make(m);
        let over = turn_over(&pos, side);
        match turns.last_mut() {
            Some(t) if !t.complete => {
                t.token.push(';');
                t.token.push_str(&token);
                t.plies.push(m);
                t.complete = over;
            }
            _ => turns.push(Turn {
                token,
                plies: vec![m],
                complete: over,
            }),
        }
    }
    turns
}

/// The tokens of the whole turns of a line of plies, for the `pv` of an `info` line
/// (protocol.md 4): a last turn cut short by the end of the line is left out.
pub fn turn_tokens<G: Game>(root: &G, plies: &[G::Move]) -> Vec<String> {
    group_turns(root, plies)
        .into_iter()
        .take_while(|t| t.complete)
        .map(|t| t.token)
        .collect()
}

/// Plays one turn token on `pos`: its `;`-separated portions are parsed by
/// [`Game::parse_move`] on the position they apply to and played in order. Every portion after
/// the first must belong to the same turn. For a variant with [`Game::COMPOUND_PLIES`] the
/// whole token is one ply. On error `pos` may be partly changed: callers work on a copy.
///
/// Errors: the [`MoveError`] of the first portion that is malformed or not legal.
pub fn play_turn_token<G: Game>(pos: &mut G, token: &str) -> Result<(), MoveError> {
    play_recording(pos, token, &mut Vec::new())
}

/// The plies of one turn token (or of its first portions) played from `pos`, which is left
/// as it was: what `go searchmoves` restricts the search to.
///
/// Errors: as [`play_turn_token`].
pub fn turn_plies<G: Game>(pos: &G, token: &str) -> Result<Vec<G::Move>, MoveError> {
    let mut plies = Vec::new();
    play_recording(&mut pos.clone(), token, &mut plies)?;
    Ok(plies)
}

/// [`play_turn_token`], pushing the plies played onto `plies`.
fn play_recording<G: Game>(
    pos: &mut G,
    token: &str,
    plies: &mut Vec<G::Move>,
) -> Result<(), MoveError> {
    if G::COMPOUND_PLIES {
        let m = pos.parse_move(token)?;
        pos.make(m);
        plies.push(m);
        return Ok(());
    }
    let side = pos.side_to_move();
    let mut turn_ended = false;
    for portion in token.split(';') {
        if turn_ended {
            return Err(MoveError::Illegal(token.to_string()));
        }
        if portion.is_empty() {
            return Err(MoveError::Malformed {
                token: token.to_string(),
                reason: "empty portion".into(),
            });
        }
        let m = pos.parse_move(portion)?;
        pos.make(m);
        plies.push(m);
        turn_ended = turn_over(pos, side);
    }
    Ok(())
}

/// The legal turn tokens of `pos` (protocol.md 6 `moves`): for one-ply turns the legal ply
/// tokens, otherwise every whole turn, portions joined by `;`.
pub fn legal_turn_tokens<G: Game>(pos: &G) -> Vec<String> {
    perft::divide(pos, 1, Unit::Turn, 1)
        .into_iter()
        .map(|(token, _)| token)
        .collect()
}

/// The PGN notation ([`Game::pgn_move`] of each ply, joined by `;` as the turn's portions are)
/// of the turn tokens `tokens` of `pos` (the `moves pgn` command, protocol.md 8), in the same
/// order. A token that cannot be played (never the case for [`legal_turn_tokens`]) keeps its
/// own text.
pub fn legal_turn_notation<G: Game>(pos: &G, tokens: &[String]) -> Vec<String> {
    tokens
        .iter()
        .map(|token| {
            let Ok(plies) = turn_plies(pos, token) else {
                return token.clone();
            };
            let mut p = pos.clone();
            let mut words = Vec::with_capacity(plies.len());
            for m in plies {
                words.push(p.pgn_move(m));
                p.make(m);
            }
            words.join(";")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::mock::{Pick, TwoStep};

    #[test]
    fn plies_group_into_turns() {
        let turns = group_turns(&TwoStep::startpos(), &[Pick(1), Pick(2), Pick(2)]);
        let tokens: Vec<(&str, bool)> = turns
            .iter()
            .map(|t| (t.token.as_str(), t.complete))
            .collect();
        assert_eq!(tokens, vec![("p1;p2", true), ("p2", false)]);
        // A PV shows whole turns only (issue 18 point 2).
        assert_eq!(
            turn_tokens(&TwoStep::startpos(), &[Pick(1), Pick(2), Pick(2)]),
            vec!["p1;p2"]
        );
        assert!(turn_tokens(&TwoStep::startpos(), &[Pick(1)]).is_empty());
        // An illegal ply (the null move) cuts the line.
        assert_eq!(
            turn_tokens(&TwoStep::startpos(), &[Pick(1), Pick(2), Pick(0), Pick(1)]),
            vec!["p1;p2"]
        );
    }

    #[test]
    fn turn_tokens_play_portion_by_portion() {
        let mut pos = TwoStep::startpos();
        play_turn_token(&mut pos, "p1;p2").unwrap();
        assert_eq!(pos.side_to_move(), crate::core::Color::Black);
        // A single portion is fine; a token running into the next turn is not.
        play_turn_token(&mut pos, "p2").unwrap();
        assert!(play_turn_token(&mut pos.clone(), "p1;p1").is_err());
        play_turn_token(&mut pos, "p1").unwrap();
        assert!(play_turn_token(&mut pos.clone(), "p1;").is_err());
        assert!(play_turn_token(&mut pos.clone(), "p3").is_err());
    }

    #[test]
    fn turn_plies_leave_the_position() {
        let pos = TwoStep::startpos();
        assert_eq!(turn_plies(&pos, "p2;p1"), Ok(vec![Pick(2), Pick(1)]));
        assert_eq!(turn_plies(&pos, "p2"), Ok(vec![Pick(2)]));
        assert!(turn_plies(&pos, "p2;p1;p1").is_err());
        assert_eq!(pos.fen(), TwoStep::startpos().fen());
    }

    #[test]
    fn legal_turns_are_whole_turns() {
        assert_eq!(
            legal_turn_tokens(&TwoStep::startpos()),
            vec!["p1;p1", "p1;p2", "p2;p1", "p2;p2"]
        );
    }
}
