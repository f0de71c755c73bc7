//! The hot path allocates nothing in any playable variant (design.md 4):
//! legal and tactical plies, make/unmake, null moves, the key, check, the search's verdicts,
//! evaluation and exchange tests, along seeded random lines from each variant's start, random
//! setups and bench positions. A counting global allocator observes this thread's allocations.
//! (Mutatis Mutandis's own generator is checked in more detail in `mutatis_alloc.rs`.)

use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::{Game, PlyList, Scope, Variant};

use crate::counting::ALLOCS;

fn allocs() -> u64 {
    ALLOCS.with(|c| c.get())
}

/// What the search does at a node `ply` plies from the root, `depth` plies deep: verdicts,
/// generation, evaluation, SEE, and make/unmake of every ply (recursing into the first one),
/// and a null move where allowed. Returns a checksum so nothing is optimised away.
fn walk<G: Game>(p: &mut G, ply: usize, depth: usize) -> u64 {
    let mut n = p.key() ^ p.in_check() as u64;
    if let Some(v) = p.verdict(Scope::Search(ply)) {
        return n ^ v.terminal as u64;
    }
    if p.verdict(Scope::Wins).is_some() {
        return n;
    }
    let mut list = PlyList::<G::Move>::default();
    p.legal_moves(&mut list);
    if list.is_empty() {
        return n ^ p.no_moves_verdict().terminal as u64;
    }
    let mut tactical = PlyList::<G::Move>::default();
    p.tactical_moves(&mut tactical);
    n = n.wrapping_add((list.len() + tactical.len()) as u64) ^ p.evaluate() as u64;
    for (i, &m) in list.iter().enumerate() {
        n = n
            .wrapping_add(p.see_ge(m, 0) as u64)
            .wrapping_add(p.tactical_order(m) as u64);
        n ^= p.is_tactical(m) as u64;
        p.make(m);
        n ^= p.key();
        if i == 0 && depth > 1 {
            n = n.wrapping_add(walk(p, ply + 1, depth - 1));
        }
        p.unmake();
    }
    if p.make_null() {
        n ^= p.key();
        p.unmake();
    }
    n
}

/// Positions along seeded random playouts of `G` (built outside the measurement, each read from
/// a FEN as the protocol sets it up), then the measured walks; returns (positions, allocations).
fn count<G: Game>() -> (usize, u64) {
    let mut starts: Vec<G> = vec![G::startpos()];
    starts.extend((0..3).filter_map(G::random_setup));
    starts.extend(
        G::SEARCH
            .bench_fens
            .iter()
            .map(|f| G::from_fen(f).expect("bench FEN")),
    );
    let mut playout = Playout::new(16, 60);
    let mut positions: Vec<G> = Vec::new();
    for (i, start) in starts.iter().enumerate() {
        let mut p = start.clone();
        // 60 plies from the first start, 12 from the others.
        let plies = if i == 0 { 60 } else { 12 };
        playout.run(&mut p, |p, at| {
            if at.ply == plies {
                return Next::Stop;
            }
            positions.push(G::from_fen(&p.fen()).expect("own FEN"));
            Next::stop_if(p.verdict(Scope::Wins).is_some())
        });
    }
    // Tables and keys are built on first use: one walk before measuring.
    let mut sum = walk(&mut positions[0].clone(), 1, 3);
    let before = allocs();
    for p in positions.iter_mut() {
        sum = sum.wrapping_add(walk(p, 1, 3));
    }
    let after = allocs();
    std::hint::black_box(sum);
    (positions.len(), after - before)
}

#[test]
fn the_hot_path_does_not_allocate_in_any_variant() {
    // The counter does see this thread's allocations.
    let before = allocs();
    let v: Vec<u8> = std::hint::black_box(Vec::with_capacity(16));
    assert_eq!(allocs(), before + 1);
    drop(v);
    for &v in Variant::ALL {
        let (positions, allocated) = menagerie::with_variant!(v, G => count::<G>());
        assert!(positions > 40, "{}: {positions} positions", v.name());
        assert_eq!(allocated, 0, "{}: {allocated} allocations", v.name());
    }
}
