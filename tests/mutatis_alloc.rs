//! Mutatis Mutandis: action generation and the attacked query, and the game's legal turns,
//! make/unmake, keys, evaluation and exchange test do not allocate (design.md, performance
//! contract). A counting global allocator observes this thread's allocations.

use menagerie::core::zobrist::SplitMix64;
use menagerie::core::Color;
use menagerie::variants::mutatis_mutandis::{
    attacked, generate, ActionList, Board, MutatisMoveList, MutatisMutandis, Piece, State,
};
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::StagedGeneration;
use menagerie::variants::{Evaluation, Notation, Rules};

use crate::counting::ALLOCS;

#[test]
fn generation_does_not_allocate() {
    let mut rng = SplitMix64::new(7);
    // (cloning a board is not generation; it allocates nothing either: a plain array)
    let boards: Vec<Board> = (0..500)
        .map(|_| {
            let mut b = Board::empty();
            for _ in 0..(2 + rng.below(39)) {
                let state = State::ALL[rng.below(State::ALL.len() as u64) as usize];
                let color = Color::ALL[rng.below(2) as usize];
                b.put(rng.below(64) as u8, Piece::new(color, state));
            }
            b
        })
        .collect();
    // Build the tables first (once, outside the measurement): the attack tables and the
    // attacked query's potential-capture table.
    let mut l = ActionList::new();
    generate(&boards[0], Color::White, &mut l);
    let _ = (0..64).any(|s| attacked(&boards[0], s));
    let before = ALLOCS.with(|c| c.get());
    let mut n = 0usize;
    for b in &boards {
        for us in Color::ALL {
            let mut l = ActionList::new();
            generate(b, us, &mut l);
            n += l.len();
            // make/unmake on the board of pieces
            let mut c = b.clone();
            for a in &l {
                let u = c.apply(a, Some(State::Queen));
                c.undo(&u);
            }
        }
        for s in 0..64u8 {
            if attacked(b, s) {
                n += 1;
            }
        }
    }
    let after = ALLOCS.with(|c| c.get());
    assert!(n > 1000);
    assert_eq!(after - before, 0, "generation allocated");
    // The counter does see this thread's allocations.
    let v: Vec<u8> = std::hint::black_box(Vec::with_capacity(16));
    assert_eq!(ALLOCS.with(|c| c.get()), after + 1);
    drop(v);
}

#[test]
fn game_turns_do_not_allocate() {
    // Positions along random playouts from seeded setups (built outside the measurement).
    let mut playout = Playout::new(11, 60);
    let mut positions: Vec<MutatisMutandis> = Vec::new();
    for seed in 0..6 {
        let mut p = MutatisMutandis::random_setup(seed).unwrap();
        playout.run(&mut p, |p, _| {
            positions.push(MutatisMutandis::from_fen(&p.fen()).unwrap());
            Next::Random
        });
    }
    // Tables and keys are built on first use: once before measuring.
    let mut warm = positions[0].clone();
    let mut l = MutatisMoveList::new();
    warm.legal_moves(&mut l);
    warm.make(l[0]);
    warm.unmake();
    let _ = (warm.evaluate(), warm.see_ge(l[0], 0), warm.in_check());
    let before = ALLOCS.with(|c| c.get());
    let mut n = 0u64;
    for p in positions.iter_mut() {
        let mut l = MutatisMoveList::new();
        p.legal_moves(&mut l);
        let mut t = MutatisMoveList::new();
        p.tactical_moves(&mut t);
        n += (l.len() + t.len()) as u64;
        n ^= p.evaluate() as u64 ^ p.key();
        for &m in l.iter() {
            n += p.see_ge(m, 0) as u64;
            p.make(m);
            n ^= p.key() ^ p.in_check() as u64;
            p.unmake();
        }
    }
    let after = ALLOCS.with(|c| c.get());
    assert!(n != 0 && positions.len() > 200);
    assert_eq!(after - before, 0, "the game allocated");
}
