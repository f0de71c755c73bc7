//! Library-side drivers shared by the variant test files: any `G: Game` built from a FEN,
//! its sorted legal ply tokens, plies played from a token list, and the checks of the
//! random-playout property tests (design.md "When a variant is done", items 3 and 5).
#![allow(dead_code)] // each test crate uses a different part

use std::collections::HashSet;

use menagerie::variants::PlyList;
use menagerie::variants::{Game, MoveError};

/// The position of `fen`; panics naming the FEN and the error when it does not parse.
pub fn parse<G: Game>(fen: &str) -> G {
    G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal plies of `p`, in the generator's order.
pub fn legal_moves<G: Game>(p: &G) -> PlyList<G::Move> {
    let mut l = PlyList::<G::Move>::default();
    p.legal_moves(&mut l);
    l
}

/// The tokens of every legal ply of `p`, sorted.
pub fn ply_tokens<G: Game>(p: &G) -> Vec<String> {
    let l = legal_moves(p);
    let mut v: Vec<String> = l.iter().map(|&m| p.move_token(m)).collect();
    v.sort();
    v
}

/// The whitespace-separated words of `list`, sorted (to compare with `ply_tokens`).
pub fn sorted_words(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// Plays the whitespace-separated ply tokens of `moves` on `p`; panics naming the token and
/// the position when one does not parse.
pub fn play_plies<G: Game>(p: &mut G, moves: &str) {
    for t in moves.split_whitespace() {
        let m = p
            .parse_move(t)
            .unwrap_or_else(|e| panic!("{t} in {}: {e}", p.fen()));
        p.make(m);
    }
}

/// Checks that `p` refuses each token of `malformed` as `MoveError::Malformed` and each token
/// of `illegal` as `MoveError::Illegal` (protocol.md 3).
pub fn assert_refused<G: Game>(p: &G, malformed: &[&str], illegal: &[&str]) {
    for t in malformed {
        let e = p.parse_move(t);
        assert!(matches!(e, Err(MoveError::Malformed { .. })), "{t}: {e:?}");
    }
    for t in illegal {
        let e = p.parse_move(t);
        assert!(matches!(e, Err(MoveError::Illegal(_))), "{t}: {e:?}");
    }
}

/// Checks that the tokens of `list` (the legal plies of `p`) are unique and that each one
/// parses back to its move.
pub fn assert_tokens_round_trip<G: Game>(p: &G, list: &PlyList<G::Move>) {
    let mut seen = HashSet::new();
    for &m in list.iter() {
        let t = p.move_token(m);
        assert!(seen.insert(t.clone()), "duplicate token {t} in {}", p.fen());
        assert_eq!(p.parse_move(&t), Ok(m), "{t} in {}", p.fen());
    }
}

/// For each move of `list` (legal in `p`): makes it, checks the incremental key against
/// `from_scratch` (the key computed from the whole position) and runs `after_make` on the new
/// position, then unmakes it and checks that FEN and key are restored.
pub fn assert_make_unmake<G: Game>(
    p: &mut G,
    list: &PlyList<G::Move>,
    from_scratch: impl Fn(&G) -> u64,
    after_make: impl Fn(&G),
) {
    for &m in list.iter() {
        let t = p.move_token(m);
        let (fen, key) = (p.fen(), p.key());
        p.make(m);
        assert_eq!(p.key(), from_scratch(p), "key after {t} in {fen}");
        after_make(p);
        p.unmake();
        assert_eq!((p.fen(), p.key()), (fen, key), "unmake of {t}");
    }
}

/// Unmakes one ply for each `(FEN, key)` of `history` (the positions before the plies made,
/// oldest first), checking that each unmake restores that FEN and key; `context` names the
/// playout in a failure.
pub fn assert_unwinds<G: Game>(p: &mut G, mut history: Vec<(String, u64)>, context: &str) {
    while let Some((fen, key)) = history.pop() {
        p.unmake();
        assert_eq!((p.fen(), p.key()), (fen, key), "{context}");
    }
}
