//! Staged generation: what the search's staged picker relies on of each variant.
//!
//! - A variant that splits its generation (`Staging::split`) lists exactly its legal plies
//!   between `tactical_moves` and the quiet stage of `staged_moves` (its legal plies, under
//!   lazy legality), each once, the first holding exactly the plies `is_tactical` accepts.
//! - A variant with lazy legality (`Staging::lazy_legality`) lists every legal ply once in the
//!   two stages of `staged_moves`, and `is_legal` keeps exactly those.
//! - `ply_from_packed` returns the legal ply of a packing, and `None` for a packing no legal ply
//!   has: checked on every legal ply's packing, on packings of other positions' plies (what a
//!   key collision brings back from the TT: the expected ply is the one the notation reads
//!   from the packed ply's token, if it packs the same), and on random words (`None`).
//!
//! Positions are taken along seeded random playouts (Mutatis Mutandis from random setups, so
//! that every drop window is crossed); the default implementations are checked on every variant.

use menagerie::variants::game_outcome;
use std::collections::BTreeMap;

use crate::common::game::legal_moves;
use crate::common::{bestmove, Engine, SEARCH};

use menagerie::core::zobrist::SplitMix64;
use menagerie::variants::chess::Chess;
use menagerie::variants::mutatis_mutandis::MutatisMutandis;
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::{
    Game, GameMove, GenerationStage, Notation, PlyList, Rules, StagedGeneration, Variant,
};

/// The plies of `list` counted by packing.
fn by_packing<M: GameMove>(list: &[M]) -> BTreeMap<u32, usize> {
    let mut m = BTreeMap::new();
    for p in list {
        *m.entry(p.pack()).or_insert(0) += 1;
    }
    m
}

/// The plies of a tactical and a quiet list of `pos`, one after the other, after checking
/// that the first lists only tactical plies and the second none.
fn stages<G: Game>(pos: &G, t: &[G::Move], q: &[G::Move]) -> Vec<G::Move> {
    let ctx = pos.fen();
    assert!(t.iter().all(|&m| pos.is_tactical(m)), "{ctx}");
    assert!(q.iter().all(|&m| !pos.is_tactical(m)), "{ctx}");
    t.iter().chain(q.iter()).copied().collect()
}

/// A packing seen in another position, with the token of its ply there.
type Foreign = (u32, String);

/// What `ply_from_packed(packed)` must give in `pos`, found by another road than the one it
/// takes. A variant that decodes packings (Mutatis Mutandis) is checked against its generated
/// plies (`legal`), searched by packing. The default implementation is that search itself, so
/// it is checked against the notation instead: the ply read from `token` (the token of the
/// packed ply where it was legal), if it is legal here and packs the same. (A Mutatis Mutandis
/// packing names the drop's file only, its rank being the mover's home row, and not the piece
/// dropped, so the same packing is another turn in another position.)
fn expected<G: Game>(pos: &G, legal: &[G::Move], packed: u32, token: &str) -> Option<G::Move> {
    if G::STAGING.decodes_packed {
        legal.iter().copied().find(|m| m.pack() == packed)
    } else {
        pos.parse_move(token).ok().filter(|m| m.pack() == packed)
    }
}

/// Checks the stages, the lazy legality and the decoding of `pos`; `foreign` holds packings from
/// other positions (with their tokens there), and gains this position's; `illegal_listed` counts
/// the illegal plies of the pseudo-legal lists. Returns how many foreign packings were legal
/// here and how many were not.
fn check_position<G: Game>(
    pos: &G,
    foreign: &mut Vec<Foreign>,
    rng: &mut SplitMix64,
    illegal_listed: &mut usize,
) -> (usize, usize) {
    let legal = legal_moves(pos);
    let ctx = pos.fen();
    let staged = |stage| {
        let mut list = PlyList::<G::Move>::default();
        pos.staged_moves(stage, &mut list);
        list
    };
    let (tactical, quiet) = (
        staged(GenerationStage::Tactical),
        staged(GenerationStage::Quiet),
    );
    if G::STAGING.split {
        // The legal tactical plies and the legal plies of the quiet stage partition the legal
        // plies.
        let mut t = PlyList::<G::Move>::default();
        pos.tactical_moves(&mut t);
        let q: Vec<G::Move> = quiet.iter().copied().filter(|&m| pos.is_legal(m)).collect();
        let both = stages(pos, &t, &q);
        assert_eq!(by_packing(&both), by_packing(&legal), "stages of {ctx}");
    }
    if G::STAGING.lazy_legality {
        // The pseudo-legal lists hold every legal ply once, and `is_legal` keeps exactly those.
        let all = stages(pos, &tactical, &quiet);
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
    let (mut legal_here, mut not_here) = (0, 0);
    for (p, token) in foreign.iter() {
        let got = pos.ply_from_packed(*p);
        assert_eq!(
            got,
            expected(pos, &legal, *p, token),
            "packing {p:#x} ({token} elsewhere) in {ctx}"
        );
        if got.is_some() {
            legal_here += 1;
        } else {
            not_here += 1;
        }
    }
    // Random words pack no legal ply (a chance of some 2^-26 per word at these list lengths,
    // and the words are seeded).
    for _ in 0..8 {
        let p = rng.next_u64() as u32;
        assert_eq!(
            pos.ply_from_packed(p),
            None,
            "random packing {p:#x} in {ctx}"
        );
    }
    // Keep a window of recent packings for the next positions.
    foreign.extend(legal.iter().map(|&m| (m.pack(), pos.move_token(m))));
    let n = foreign.len();
    if n > 400 {
        foreign.drain(..n - 400);
    }
    (legal_here, not_here)
}

/// What a run of [`check_playouts`] checked.
#[derive(Debug, Default)]
struct Checked {
    positions: usize,
    /// Packings of other positions' plies that decoded to a legal ply here, and that did not.
    foreign_legal: usize,
    foreign_illegal: usize,
    /// Illegal plies of the pseudo-legal lists.
    illegal_listed: usize,
}

/// Random playouts from `starts`, `plies` long, checking every position.
fn check_playouts<G: Game>(starts: Vec<G>, plies: usize, seed: u64) -> Checked {
    let mut playout = Playout::new(seed, plies);
    let mut foreign = Vec::new();
    let mut c = Checked::default();
    for mut pos in starts {
        playout.run(&mut pos, |pos, at| {
            if at.ply == plies {
                return Next::Stop;
            }
            let (legal_here, not_here) =
                check_position(pos, &mut foreign, at.rng, &mut c.illegal_listed);
            c.foreign_legal += legal_here;
            c.foreign_illegal += not_here;
            c.positions += 1;
            Next::stop_if(game_outcome(pos).is_some())
        });
    }
    c
}

#[test]
fn mutatis_stages_partition_and_decoding_agrees_with_generation() {
    const { assert!(MutatisMutandis::STAGING.split && MutatisMutandis::STAGING.decodes_packed) };
    const { assert!(MutatisMutandis::STAGING.lazy_legality) };
    let starts = (0..12).filter_map(MutatisMutandis::random_setup).collect();
    let c = check_playouts::<MutatisMutandis>(starts, 90, 59);
    assert!(c.positions > 700, "{c:?}");
    // The pseudo-legal lists do hold illegal turns, so `is_legal` is exercised both ways.
    assert!(c.illegal_listed > 1000, "{c:?}");
    // Packings from other positions are often legal here too: the `Some` side is exercised,
    // and the `None` side.
    assert!(c.foreign_legal > 1000 && c.foreign_illegal > 1000, "{c:?}");
}

/// The default `ply_from_packed` (generate and search) of every variant that does not decode
/// packings itself (all of the registry but Mutatis Mutandis, checked above), against the plies
/// their notation reads from the tokens of other positions' plies; every playout is long
/// enough, and both answers are given many times.
#[test]
fn every_variant_decodes_its_packings() {
    let mut checked = Vec::new();
    for (k, &v) in Variant::ALL.iter().enumerate() {
        menagerie::with_variant!(v, G => {
            if !G::STAGING.decodes_packed {
                let c = check_playouts(vec![G::startpos()], 80, k as u64 + 1);
                let name = G::INFO.name;
                assert!(c.positions >= 40, "{name}: {c:?}");
                assert!(
                    c.foreign_legal >= 200 && c.foreign_illegal >= 200,
                    "{name}: {c:?}"
                );
                checked.push(name);
            }
        });
    }
    // Only Mutatis Mutandis decodes its own packings.
    assert!(checked.len() + 1 >= Variant::ALL.len(), "{checked:?}");
    // By hand: at the start of chess the packing of e2e4 taken from the position after 1.Nf3
    // Nf6 is 1.e4; that of e3e4 after 1.e3 e6 is no ply here, nor is Black's 1...e5.
    let start = Chess::startpos();
    let after = |tokens: &[&str]| {
        let mut pos = Chess::startpos();
        for t in tokens {
            let m = pos.parse_move(t).unwrap();
            pos.make(m);
        }
        pos
    };
    let e4 = after(&["g1f3", "g8f6"]).parse_move("e2e4").unwrap();
    assert_eq!(
        start
            .ply_from_packed(e4.pack())
            .map(|m| start.move_token(m)),
        Some("e2e4".into())
    );
    let e3e4 = after(&["e2e3", "e7e6"]).parse_move("e3e4").unwrap();
    assert_eq!(start.ply_from_packed(e3e4.pack()), None);
    let e5 = after(&["e2e4"]).parse_move("e7e5").unwrap();
    assert_eq!(start.ply_from_packed(e5.pack()), None);
}

/// With lazy legality a node's lists hold illegal turns, so a stalemate below the root (no
/// royal attacked, every listed turn illegal) must still be seen as one: searching only a turn
/// after which White's lone King has no legal turn, Black (a queen up) scores a draw.
#[test]
fn mutatis_search_sees_a_stalemate_below_the_root() {
    let fen = "7k/8/8/8/8/8/2q5/K7 b - - 0 1";
    let pos = MutatisMutandis::from_fen(fen).unwrap();
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
