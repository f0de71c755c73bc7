//! Staged generation (issue 59): what the search's staged picker relies on of each variant.
//!
//! - A variant that splits its generation (`Evaluation::SPLIT_GENERATION`) lists exactly its
//!   legal plies between `tactical_moves` and `quiet_moves`, each once, the first holding
//!   exactly the plies `is_tactical` accepts.
//! - A variant with lazy legality (`Evaluation::LAZY_LEGALITY`) lists every legal ply once in
//!   `pseudo_tactical_moves` and `pseudo_quiet_moves`, and `is_legal` keeps exactly those.
//! - `ply_from_packed` returns the legal ply of a packing, and `None` for a packing no legal ply
//!   has: checked on every legal ply's packing, on packings of other positions' plies (what a
//!   key collision brings back from the TT), and on random words.
//!
//! Positions are taken along seeded random playouts (Mutatis Mutandis from random setups, so
//! that every drop window is crossed); the default implementations are checked on every variant.

use std::collections::BTreeMap;

use crate::common::game::legal_moves;
use crate::common::{bestmove, Engine, SEARCH};

use menagerie::core::zobrist::SplitMix64;
use menagerie::variants::chess::Chess;
use menagerie::variants::mitosis::Mitosis;
use menagerie::variants::mulligan_stew::Stew;
use menagerie::variants::muster::Muster;
use menagerie::variants::mutatis_mutandis::Mutatis;
use menagerie::variants::mystic::Mystic;
use menagerie::variants::{Evaluation, Game, GameMove, Notation, PlyList, Rules};

/// The plies of `list` counted by packing.
fn by_packing<M: GameMove>(list: &[M]) -> BTreeMap<u32, usize> {
    let mut m = BTreeMap::new();
    for p in list {
        *m.entry(p.pack()).or_insert(0) += 1;
    }
    m
}

/// The plies of a tactical and a quiet generator of `pos`, one after the other, after checking
/// that the first lists only tactical plies and the second none.
fn stages<G: Game>(
    pos: &G,
    tactical: fn(&G, &mut PlyList<G::Move>),
    quiet: fn(&G, &mut PlyList<G::Move>),
) -> Vec<G::Move> {
    let mut t = PlyList::<G::Move>::default();
    tactical(pos, &mut t);
    let mut q = PlyList::<G::Move>::default();
    quiet(pos, &mut q);
    let ctx = pos.fen();
    assert!(t.iter().all(|&m| pos.is_tactical(m)), "{ctx}");
    assert!(q.iter().all(|&m| !pos.is_tactical(m)), "{ctx}");
    t.iter().chain(q.iter()).copied().collect()
}

/// Checks the stages, the lazy legality and the decoding of `pos`; `foreign` holds packings from
/// other positions, and gains this position's; `illegal_listed` counts the illegal plies of the
/// pseudo-legal lists. Returns how many foreign packings were legal here.
fn check_position<G: Game>(
    pos: &G,
    foreign: &mut Vec<u32>,
    rng: &mut SplitMix64,
    illegal_listed: &mut usize,
) -> usize {
    let legal = legal_moves(pos);
    let ctx = pos.fen();
    if G::SPLIT_GENERATION {
        let both = stages(pos, G::tactical_moves, G::quiet_moves);
        assert_eq!(by_packing(&both), by_packing(&legal), "stages of {ctx}");
    }
    if G::LAZY_LEGALITY {
        // The pseudo-legal lists hold every legal ply once, and `is_legal` keeps exactly those.
        let all = stages(pos, G::pseudo_tactical_moves, G::pseudo_quiet_moves);
        let kept: Vec<G::Move> = all.iter().copied().filter(|&m| pos.is_legal(m)).collect();
        assert_eq!(
            by_packing(&kept),
            by_packing(&legal),
            "lazy legality in {ctx}"
        );
        *illegal_listed += all.len() - kept.len();
    }
    for &m in legal.iter() {
        assert_eq!(pos.ply_from_packed(m.pack()), Some(m), "decoding in {ctx}");
    }
    let mut legal_here = 0;
    let packs = by_packing(&legal);
    let randoms: Vec<u32> = (0..8).map(|_| rng.next_u64() as u32).collect();
    for &p in foreign.iter().chain(randoms.iter()) {
        let got = pos.ply_from_packed(p);
        let want = legal.iter().copied().find(|m| m.pack() == p);
        assert_eq!(got, want, "packing {p:#x} in {ctx}");
        legal_here += usize::from(packs.contains_key(&p));
    }
    // Keep a window of recent packings for the next positions.
    foreign.extend(legal.iter().map(|m| m.pack()));
    let n = foreign.len();
    if n > 400 {
        foreign.drain(..n - 400);
    }
    legal_here
}

/// Random playouts from `starts`, `plies` long, checking every position.
fn check_playouts<G: Game>(starts: Vec<G>, plies: usize, seed: u64) -> (usize, usize, usize) {
    let mut rng = SplitMix64::new(seed);
    let mut foreign = Vec::new();
    let (mut positions, mut foreign_legal, mut illegal) = (0, 0, 0);
    for mut pos in starts {
        for _ in 0..plies {
            foreign_legal += check_position(&pos, &mut foreign, &mut rng, &mut illegal);
            positions += 1;
            let legal = legal_moves(&pos);
            if legal.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.make(legal[rng.below(legal.len() as u64) as usize]);
        }
    }
    (positions, foreign_legal, illegal)
}

#[test]
fn mutatis_stages_partition_and_decoding_agrees_with_generation() {
    const { assert!(Mutatis::SPLIT_GENERATION && Mutatis::DECODES_PACKED) };
    const { assert!(Mutatis::LAZY_LEGALITY) };
    let starts = (0..12).filter_map(Mutatis::random_setup).collect();
    let (positions, foreign_legal, illegal) = check_playouts::<Mutatis>(starts, 90, 59);
    assert!(positions > 700, "{positions}");
    // The pseudo-legal lists do hold illegal turns, so `is_legal` is exercised both ways.
    assert!(illegal > 1000, "{illegal}");
    // Packings from other positions are often legal here too: the `Some` side is exercised.
    assert!(foreign_legal > 1000, "{foreign_legal}");
}

#[test]
fn every_variant_decodes_its_packings() {
    check_playouts(vec![Chess::startpos()], 80, 1);
    check_playouts(vec![Stew::startpos()], 80, 2);
    check_playouts(vec![Mystic::startpos()], 80, 3);
    check_playouts(vec![Muster::startpos()], 80, 4);
    check_playouts(vec![Mitosis::startpos()], 80, 5);
}

/// With lazy legality a node's lists hold illegal turns, so a stalemate below the root (no
/// royal attacked, every listed turn illegal) must still be seen as one: searching only a turn
/// after which White's lone King has no legal turn, Black (a queen up) scores a draw.
#[test]
fn mutatis_search_sees_a_stalemate_below_the_root() {
    let fen = "7k/8/8/8/8/8/2q5/K7 b - - 0 1";
    let pos = Mutatis::from_fen(fen).unwrap();
    let mut stalemating = Vec::new();
    for m in legal_moves(&pos).iter().copied() {
        let mut after = pos.clone();
        after.make(m);
        if legal_moves(&after).is_empty() && !after.in_check() {
            stalemating.push(pos.move_token(m));
        }
    }
    assert!(stalemating.len() >= 3, "{stalemating:?}");
    let mut engine = Engine::start_variant("mutatismutandis");
    engine.send(&format!("position fen {fen}"));
    for token in &stalemating[..3] {
        let out = engine.go(&format!("go depth 3 searchmoves {token}"), SEARCH);
        assert_eq!(bestmove(&out), *token);
        let last = out.iter().rev().find(|l| l.contains(" score ")).unwrap();
        assert!(last.contains(" score cp 0 "), "{token}: {last}");
    }
}
