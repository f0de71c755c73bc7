//! What a turn is (design.md "Plies and turns", protocol.md 3 and 5): the one place that knows
//! how plies make turns. A **ply** is one decision of one player; a **turn** is every ply a
//! player makes before the opponent's next decision. The positions, the search and perft work
//! in plies; the protocol, the arena and game records in turn tokens (portion tokens joined by
//! `;`).
//!
//! - [`is_over`]: the rule, written once: a turn ends when the side to move changes or a win
//!   rule decides the game (always after one ply in a variant without multi-ply turns);
//! - [`play`]: reads and plays one turn text, its portions written as protocol tokens or as PGN
//!   movetext ([`Reading`]), the whole turn or its first portions ([`Extent`]);
//! - [`group`], [`whole_tokens`], [`token`], [`notation`]: a line of plies as turns, turn
//!   tokens and PGN movetext;
//! - [`legal_lines`], [`legal_tokens`], [`legal_notation`]: every legal turn of a position;
//! - [`play_chosen`]: one turn of plies picked one by one (the arena's built-in players);
//! - [`best_and_ponder`], [`complete`]: the turn to answer with when a principal variation
//!   stops inside a turn, completed by a search the caller hands in;
//! - [`turns_played`]: how many turns a side plays in a line (mate distances in turns).
//!
//! Everything here is generic over [`Game`] and names no variant. It sits below the search,
//! perft, the arena and the protocol, and knows none of them.

use crate::core::{Color, MoveBuffer};
use crate::variants::game_outcome;

use super::{Game, MoveError, PlyList, Rules, Scope};

/// The most plies one turn is completed with by [`complete`] (a guard against a variant that
/// never ends a turn).
pub const MAX_TURN_PLIES: usize = 64;

/// Whether the turn that `side` was playing is over in `pos` (after one of its plies): the
/// variant has one ply per turn, or the side to move changed, or a win rule decided the game
/// ([`Rules::verdict`] with [`Scope::Wins`]: Mulligan Stew's first portion that captures the
/// last King is the whole turn). The rule is stated here and nowhere else.
#[inline(always)]
pub fn is_over<G: Game>(pos: &G, side: Color) -> bool {
    !G::INFO.multi_ply_turns || pos.side_to_move() != side || pos.verdict(Scope::Wins).is_some()
}

/// One turn of a line of plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn<M> {
    /// The turn token: portion tokens joined by `;`.
    pub token: String,
    /// The plies, in order.
    pub plies: Vec<M>,
    /// False when the line ended before the turn did (a turn cut short).
    pub complete: bool,
}

/// Whether `m` is among the legal plies of `pos`.
fn is_legal<G: Game>(pos: &G, m: G::Move) -> bool {
    let mut list = PlyList::<G::Move>::default();
    pos.legal_moves(&mut list);
    list.contains(&m)
}

/// Groups a line of plies played from `root` into turns. The line is cut at the first ply that
/// is not legal where it stands (a PV may hold TT leftovers after a key collision).
pub fn group<G: Game>(root: &G, plies: &[G::Move]) -> Vec<Turn<G::Move>> {
    let mut pos = root.clone();
    let mut turns: Vec<Turn<G::Move>> = Vec::new();
    for &m in plies {
        if !is_legal(&pos, m) {
            break;
        }
        let side = pos.side_to_move();
        let token = pos.move_token(m);
        pos.make(m);
        let over = is_over(&pos, side);
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
pub fn whole_tokens<G: Game>(root: &G, plies: &[G::Move]) -> Vec<String> {
    group(root, plies)
        .into_iter()
        .take_while(|t| t.complete)
        .map(|t| t.token)
        .collect()
}

/// The turn token of `plies` (legal plies played in order from `pos`, which is left as it
/// was): their [`Notation::move_token`](crate::variants::Notation::move_token)s joined by `;`.
pub fn token<G: Game>(pos: &G, plies: &[G::Move]) -> String {
    written(pos, plies, G::move_token)
}

/// The PGN movetext of `plies` (legal plies played in order from `pos`, which is left as it was):
/// their [`Notation::pgn_move`](crate::variants::Notation::pgn_move)s joined by `;` as the turn's
/// portions are (SAN for orthodox chess).
pub fn notation<G: Game>(pos: &G, plies: &[G::Move]) -> String {
    written(pos, plies, G::pgn_move)
}

/// `plies` played from a copy of `pos`, each written by `write` before it is played, joined by
/// `;`.
fn written<G: Game>(pos: &G, plies: &[G::Move], write: fn(&G, G::Move) -> String) -> String {
    let mut p = pos.clone();
    let mut words = Vec::with_capacity(plies.len());
    for &m in plies {
        words.push(write(&p, m));
        p.make(m);
    }
    words.join(";")
}

/// How the portions of a turn text name their plies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Protocol tokens (protocol.md 3), read by
    /// [`Notation::parse_move`](crate::variants::Notation::parse_move): what engines send and the
    /// `position` command holds.
    Token,
    /// PGN movetext: a protocol token, or the variant's PGN notation
    /// ([`Notation::pgn_move`](crate::variants::Notation::pgn_move), SAN for orthodox chess) of
    /// exactly one legal ply, written leniently (check marks, annotations, `0-0`, `e8=Q`): what
    /// game records and opening books hold ([`read_pgn_ply`]).
    Pgn,
}

/// How much of a turn a text must hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Extent {
    /// The whole turn: it must end exactly with the text's last portion (the referee, game
    /// records). A turn also ends where the game does ([`game_outcome`]: the player to move
    /// has no legal ply to go on with, or a rule of the game ended it).
    Whole,
    /// The turn or its first portions (protocol.md 3: `position ... moves` may give the
    /// portions of a turn as separate words).
    Start,
}

/// Why a turn text was not played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// A portion, read as a protocol token, that is malformed or names no legal ply.
    #[error(transparent)]
    Ply(#[from] MoveError),
    /// A portion, read as PGN movetext, that names no legal ply or several (why).
    #[error("{0}")]
    Pgn(String),
    /// An empty portion (an empty text, `e2e4;`).
    #[error("empty portion")]
    EmptyPortion {
        /// The whole text.
        text: String,
    },
    /// A portion after the one that ended the turn.
    #[error("portion after the end of the turn: {text}")]
    AfterTheEnd {
        /// The whole text.
        text: String,
    },
    /// A text that ends before its turn does, where the whole turn was wanted
    /// ([`Extent::Whole`]).
    #[error("turn not complete: {text}")]
    Incomplete {
        /// The whole text.
        text: String,
    },
}

/// The protocol's view of a turn that was not played (protocol.md 3): a malformed token or an
/// illegal move.
impl From<TurnError> for MoveError {
    fn from(e: TurnError) -> MoveError {
        match e {
            TurnError::Ply(e) => e,
            TurnError::EmptyPortion { text } => MoveError::Malformed {
                token: text,
                reason: "empty portion".into(),
            },
            TurnError::AfterTheEnd { text } | TurnError::Incomplete { text } => {
                MoveError::Illegal(text)
            }
            TurnError::Pgn(why) => MoveError::Illegal(why),
        }
    }
}

/// Reads one turn text and plays it on `pos`, returning the plies played: the text's `;`-separated
/// portions are read ([`Reading`]) on the position each applies to and played in order; every
/// portion after the first must belong to the same turn ([`is_over`]), and with [`Extent::Whole`]
/// the turn (or the game) must end with the last one. For a variant with
/// [`VariantInfo::compound_plies`](crate::variants::VariantInfo::compound_plies) the whole text is one
/// ply (its token may itself hold `;`). The protocol's `position` and `go searchmoves`, the
/// referee, game records and opening books all read turns here. On error `pos` may be partly
/// changed: callers work on a copy.
///
/// Errors: a [`TurnError`] for the first portion at fault.
pub fn play<G: Game>(
    pos: &mut G,
    text: &str,
    reading: Reading,
    extent: Extent,
) -> Result<Vec<G::Move>, TurnError> {
    let read = |pos: &G, portion: &str| -> Result<G::Move, TurnError> {
        match reading {
            Reading::Token => Ok(pos.parse_move(portion)?),
            Reading::Pgn => read_pgn_ply(pos, portion).map_err(TurnError::Pgn),
        }
    };
    if G::INFO.compound_plies {
        let m = read(pos, text)?;
        pos.make(m);
        return Ok(vec![m]);
    }
    let side = pos.side_to_move();
    let mut plies = Vec::new();
    let mut over = false;
    for portion in text.split(';') {
        if over {
            return Err(TurnError::AfterTheEnd { text: text.into() });
        }
        if portion.is_empty() {
            return Err(TurnError::EmptyPortion { text: text.into() });
        }
        let m = read(pos, portion)?;
        pos.make(m);
        plies.push(m);
        over = is_over(pos, side) || (extent == Extent::Whole && game_outcome(pos).is_some());
    }
    if extent == Extent::Whole && !over {
        return Err(TurnError::Incomplete { text: text.into() });
    }
    Ok(plies)
}

/// A move word without the marks PGN writers add or vary: check and annotation marks at the
/// end, `=` before a promotion letter, castling written with zeros. [`read_pgn_ply`] compares
/// words through it, and the GUI compares imported words with the engine's `moves pgn` so too.
pub fn normalize_pgn(text: &str) -> String {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    match t {
        "0-0" => "O-O".into(),
        "0-0-0" => "O-O-O".into(),
        _ => t.replace('=', ""),
    }
}

/// The legal ply of `pos` that `text` names ([`Reading::Pgn`]): a protocol token, or the
/// variant's PGN notation of exactly one legal ply.
///
/// Errors: the text names no legal ply, or several.
pub fn read_pgn_ply<G: Game>(pos: &G, text: &str) -> Result<G::Move, String> {
    let token_error = match pos.parse_move(text) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    let want = normalize_pgn(text);
    let mut list = PlyList::<G::Move>::default();
    pos.legal_moves(&mut list);
    let mut found = list
        .iter()
        .filter(|m| normalize_pgn(&pos.pgn_move(**m)) == want);
    match (found.next(), found.next()) {
        (Some(&m), None) => Ok(m),
        (Some(_), Some(_)) => Err(format!("'{text}' is ambiguous here")),
        (None, _) => Err(format!(
            "'{text}' is not a legal move here ({token_error}; no legal move is written so)"
        )),
    }
}

/// Every legal turn of `pos` (with `whole_turns`; else every legal ply) with its token, in
/// generation order: the plies of each and their tokens joined by `;` (protocol.md 3). None
/// once a win rule decided the game ([`Scope::Wins`]). What perft divides at its root and
/// what the `moves` command lists.
pub fn legal_lines<G: Game>(pos: &G, whole_turns: bool) -> Vec<(String, Vec<G::Move>)> {
    let mut out = Vec::new();
    let mut p = pos.clone();
    if p.verdict(Scope::Wins).is_some() {
        return out;
    }
    let mut line = Vec::new();
    let mut token = String::new();
    collect_lines(
        &mut p,
        whole_turns && G::INFO.multi_ply_turns,
        &mut line,
        &mut token,
        &mut out,
    );
    out
}

/// [`legal_lines`] below the plies of `line` (written `token`), already played on `pos`.
fn collect_lines<G: Game>(
    pos: &mut G,
    whole_turns: bool,
    line: &mut Vec<G::Move>,
    token: &mut String,
    out: &mut Vec<(String, Vec<G::Move>)>,
) {
    let side = pos.side_to_move();
    let mut list = PlyList::<G::Move>::default();
    pos.legal_moves(&mut list);
    for &m in list.iter() {
        let len = token.len();
        if !token.is_empty() {
            token.push(';');
        }
        token.push_str(&pos.move_token(m));
        line.push(m);
        pos.make(m);
        if whole_turns && !is_over(pos, side) {
            collect_lines(pos, whole_turns, line, token, out);
        } else {
            out.push((token.clone(), line.clone()));
        }
        pos.unmake();
        line.pop();
        token.truncate(len);
    }
}

/// The legal turn tokens of `pos` (protocol.md 6 `moves`): for one-ply turns the legal ply
/// tokens, otherwise every whole turn, portions joined by `;`.
pub fn legal_tokens<G: Game>(pos: &G) -> Vec<String> {
    legal_lines(pos, true)
        .into_iter()
        .map(|(token, _)| token)
        .collect()
}

/// The PGN notation ([`notation`]) of the turn tokens `tokens` of `pos` (the `moves pgn`
/// command, protocol.md 8), in the same order. A token that cannot be played (never the case
/// for [`legal_tokens`]) keeps its own text.
pub fn legal_notation<G: Game>(pos: &G, tokens: &[String]) -> Vec<String> {
    tokens
        .iter()
        .map(
            |text| match play(&mut pos.clone(), text, Reading::Token, Extent::Start) {
                Ok(plies) => notation(pos, &plies),
                Err(_) => text.clone(),
            },
        )
        .collect()
}

/// Plays one turn on `pos`, each ply picked by `choose` among the legal plies of the position
/// it is played in (a non-empty list); returns the plies played and whether the turn is
/// complete: it is not when a position inside it has no legal ply or `choose` declines
/// (`None`).
pub fn play_chosen<G: Game>(
    pos: &mut G,
    mut choose: impl FnMut(&G, &PlyList<G::Move>) -> Option<G::Move>,
) -> (Vec<G::Move>, bool) {
    let side = pos.side_to_move();
    let mut plies = Vec::new();
    let mut list = PlyList::<G::Move>::default();
    loop {
        list.clear();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return (plies, false);
        }
        let Some(m) = choose(pos, &list) else {
            return (plies, false);
        };
        pos.make(m);
        plies.push(m);
        if is_over(pos, side) {
            return (plies, true);
        }
    }
}

/// How many turns `side` plays among the first `plies` plies of `line` from `root`: a turn
/// starts with the line's first ply and after every ply that ended one ([`is_over`]). Plies
/// past the end of the line count as one-ply turns, the sides alternating from the last ply
/// of the line. What a mate distance in turns counts (protocol.md 4).
pub fn turns_played<G: Game>(root: &G, line: &[G::Move], plies: usize, side: Color) -> usize {
    let mut pos = root.clone();
    let mut mover = pos.side_to_move();
    let mut starts = true;
    let mut turns = 0;
    for i in 0..plies {
        match line.get(i) {
            Some(&m) => {
                mover = pos.side_to_move();
                turns += usize::from(starts && mover == side);
                pos.make(m);
                starts = is_over(&pos, mover);
            }
            None => {
                if i > 0 {
                    mover = !mover;
                }
                turns += usize::from(mover == side);
            }
        }
    }
    turns
}

/// The lines of `allowed` that go on after `path` (plies from the root), with `path` taken off:
/// what may be played in the position after `path`. Empty when no line does (then everything
/// may follow).
pub fn continuations<M: Copy + PartialEq>(allowed: &[Vec<M>], path: &[M]) -> Vec<Vec<M>> {
    let n = path.len();
    allowed
        .iter()
        .filter(|l| l.len() > n && l[..n] == *path)
        .map(|l| l[n..].to_vec())
        .collect()
}

/// The caller's short search that [`complete`] picks a ply with: the position reached inside
/// the turn and the lines the ply must start one of (empty: any), to its choice (`None`: none).
pub type FollowUp<'a, G> =
    dyn FnMut(&G, &[Vec<<G as Rules>::Move>]) -> Option<<G as Rules>::Move> + 'a;

/// The turn to answer with and the turn to ponder on, from a principal variation `pv` of
/// `root` (protocol.md 4): the PV's first turn, completed by [`complete`] (with `search`) if
/// the PV stops inside it, and its second turn when the PV holds all of it. Without a legal
/// first ply in the PV, the first legal ply among the `allowed` lines (`go searchmoves`),
/// else the first legal ply, starts the turn. `None` for the best turn when `root` has no
/// legal ply.
pub fn best_and_ponder<G: Game>(
    root: &G,
    pv: &[G::Move],
    allowed: &[Vec<G::Move>],
    search: &mut FollowUp<'_, G>,
) -> (Option<String>, Option<String>) {
    let mut turns = group(root, pv);
    if turns.is_empty() {
        let mut list = PlyList::<G::Move>::default();
        root.legal_moves(&mut list);
        let first = allowed
            .iter()
            .filter_map(|l| l.first())
            .find(|m| list.contains(m))
            .or(list.first());
        match first {
            Some(&m) => turns = group(root, &[m]),
            None => return (None, None),
        }
    }
    let mut rest = turns.into_iter();
    let Some(mut best) = rest.next() else {
        return (None, None);
    };
    if !best.complete {
        complete(root, &mut best, allowed, search);
        return (Some(best.token), None);
    }
    let ponder = rest.next().filter(|t| t.complete).map(|t| t.token);
    (Some(best.token), ponder)
}

/// Completes `turn` of `root`, cut short by the end of a line, ply by ply: each is the one
/// `search` picks in the position reached (given the continuations of the `allowed` lines
/// there, [`continuations`]) if it is legal and on such a line, else the first legal ply on
/// one, until the turn is over or [`MAX_TURN_PLIES`] plies long. `search` is the caller's
/// short search (the protocol's), so this module needs no search.
pub fn complete<G: Game>(
    root: &G,
    turn: &mut Turn<G::Move>,
    allowed: &[Vec<G::Move>],
    search: &mut FollowUp<'_, G>,
) {
    let side = root.side_to_move();
    let mut pos = root.clone();
    for &m in &turn.plies {
        pos.make(m);
    }
    while turn.plies.len() < MAX_TURN_PLIES && !is_over(&pos, side) {
        let lines = continuations(allowed, &turn.plies);
        let searched = search(&pos, &lines);
        let mut list = PlyList::<G::Move>::default();
        pos.legal_moves(&mut list);
        let on_line = |m: &G::Move| lines.is_empty() || lines.iter().any(|l| l[0] == *m);
        let chosen = searched
            .filter(|m| list.contains(m) && on_line(m))
            .or_else(|| list.iter().copied().find(|m| on_line(m)));
        let Some(m) = chosen else {
            break;
        };
        turn.token.push(';');
        turn.token.push_str(&pos.move_token(m));
        turn.plies.push(m);
        pos.make(m);
    }
    turn.complete = true;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::mock::{Pick, TwoStep};

    #[test]
    fn plies_group_into_turns() {
        let turns = group(&TwoStep::startpos(), &[Pick(1), Pick(2), Pick(2)]);
        let tokens: Vec<(&str, bool)> = turns
            .iter()
            .map(|t| (t.token.as_str(), t.complete))
            .collect();
        assert_eq!(tokens, vec![("p1;p2", true), ("p2", false)]);
        // A PV shows whole turns only.
        assert_eq!(
            whole_tokens(&TwoStep::startpos(), &[Pick(1), Pick(2), Pick(2)]),
            vec!["p1;p2"]
        );
        assert!(whole_tokens(&TwoStep::startpos(), &[Pick(1)]).is_empty());
        // An illegal ply (the null move) cuts the line.
        assert_eq!(
            whole_tokens(&TwoStep::startpos(), &[Pick(1), Pick(2), Pick(0), Pick(1)]),
            vec!["p1;p2"]
        );
        assert_eq!(token(&TwoStep::startpos(), &[Pick(2), Pick(1)]), "p2;p1");
        assert_eq!(notation(&TwoStep::startpos(), &[Pick(2)]), "p2");
    }

    /// Plays `text` from the start (the protocol's reading) and returns the position.
    fn start(text: &str) -> Result<TwoStep, TurnError> {
        let mut pos = TwoStep::startpos();
        play(&mut pos, text, Reading::Token, Extent::Start).map(|_| pos)
    }

    #[test]
    fn turn_texts_play_portion_by_portion() {
        let mut pos = start("p1;p2").unwrap();
        assert_eq!(pos.side_to_move(), Color::Black);
        // A single portion is fine; a token running into the next turn is not.
        play(&mut pos, "p2", Reading::Token, Extent::Start).unwrap();
        assert_eq!(
            play(&mut pos.clone(), "p1;p1", Reading::Token, Extent::Start),
            Err(TurnError::AfterTheEnd {
                text: "p1;p1".into()
            })
        );
        play(&mut pos, "p1", Reading::Token, Extent::Start).unwrap();
        assert_eq!(
            play(&mut pos.clone(), "p1;", Reading::Token, Extent::Start),
            Err(TurnError::EmptyPortion { text: "p1;".into() })
        );
        assert!(matches!(
            play(&mut pos.clone(), "p3", Reading::Token, Extent::Start),
            Err(TurnError::Ply(MoveError::Malformed { .. }))
        ));
        // The referee wants whole turns.
        assert_eq!(
            play(
                &mut TwoStep::startpos(),
                "p2",
                Reading::Token,
                Extent::Whole
            ),
            Err(TurnError::Incomplete { text: "p2".into() })
        );
        assert_eq!(
            play(
                &mut TwoStep::startpos(),
                "p2;p1",
                Reading::Pgn,
                Extent::Whole
            ),
            Ok(vec![Pick(2), Pick(1)])
        );
        assert!(start("").is_err());
        // The protocol's view of the same errors.
        let e = |text| MoveError::from(start(text).unwrap_err());
        assert_eq!(e("p1;p1;p1"), MoveError::Illegal("p1;p1;p1".into()));
        assert!(matches!(e("p1;"), MoveError::Malformed { .. }));
    }

    #[test]
    fn legal_turns_are_whole_turns() {
        assert_eq!(
            legal_tokens(&TwoStep::startpos()),
            vec!["p1;pass", "p1;p1", "p1;p2", "p2;pass", "p2;p1", "p2;p2"]
        );
        assert_eq!(legal_lines(&TwoStep::startpos(), false).len(), 2);
        assert_eq!(
            legal_notation(&TwoStep::startpos(), &["p2;p1".into(), "zz".into()]),
            vec!["p2;p1", "zz"]
        );
    }

    #[test]
    fn chosen_turns_end_with_the_turn() {
        let mut pos = TwoStep::startpos();
        let (plies, complete) = play_chosen(&mut pos, |_, list| list.last().copied());
        assert_eq!((plies, complete), (vec![Pick(2), Pick(2)], true));
        assert_eq!(pos.side_to_move(), Color::Black);
        let (plies, complete) = play_chosen(&mut pos, |_, _| None);
        assert_eq!((plies.len(), complete), (0, false));
    }

    #[test]
    fn turns_played_count_whole_turns() {
        let root = TwoStep::startpos();
        // White p1;p2, Black p2;p2, White p1: White plays 2 turns, Black 1.
        let line = [Pick(1), Pick(2), Pick(2), Pick(2), Pick(1)];
        assert_eq!(turns_played(&root, &line, 5, Color::White), 2);
        assert_eq!(turns_played(&root, &line, 5, Color::Black), 1);
        // Past the line's end, one-ply turns alternate from the last ply's side.
        assert_eq!(turns_played(&root, &line[..1], 3, Color::White), 2);
        assert_eq!(turns_played(&root, &line[..1], 3, Color::Black), 1);
        assert_eq!(turns_played(&root, &[], 1, Color::White), 1);
    }

    #[test]
    fn a_turn_cut_short_is_completed() {
        let root = TwoStep::startpos();
        let mut pick_one = |_: &TwoStep, _: &[Vec<Pick>]| Some(Pick(1));
        let (best, ponder) = best_and_ponder(&root, &[Pick(2)], &[], &mut pick_one);
        assert_eq!((best.as_deref(), ponder), (Some("p2;p1"), None));
        // A choice off the allowed lines gives way to the first legal ply on one.
        let allowed = [vec![Pick(2), Pick(2)]];
        let (best, _) = best_and_ponder(&root, &[], &allowed, &mut pick_one);
        assert_eq!(best.as_deref(), Some("p2;p2"));
        let pv = [Pick(2), Pick(2), Pick(1), Pick(2)];
        let (best, ponder) = best_and_ponder(&root, &pv, &[], &mut pick_one);
        assert_eq!(
            (best.as_deref(), ponder.as_deref()),
            (Some("p2;p2"), Some("p1;p2"))
        );
        assert_eq!(
            continuations(&[vec![1, 2, 3], vec![1, 4], vec![5]], &[1]),
            vec![vec![2, 3], vec![4]]
        );
    }
}
