//! Criterion bench of Mutatis Mutandis action generation (rules 6, 7): actions per second over
//! random positions filled with random pieces of every state.
//!
//! `cargo bench --bench mutatis_actions`. Throughput is reported in generated actions.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use menagerie::core::zobrist::SplitMix64;
use menagerie::core::Color;
use menagerie::variants::mutatis_mutandis::{
    attacked, generate, ActionList, Board, CountSink, Piece, State,
};

/// `n` random boards of 16..=40 pieces (random states, colours and squares).
fn boards(n: usize) -> Vec<Board> {
    let mut rng = SplitMix64::new(0x6d75_7461);
    (0..n)
        .map(|_| {
            let mut b = Board::empty();
            let count = 16 + rng.below(25);
            for _ in 0..count {
                let state = State::ALL[rng.below(State::ALL.len() as u64) as usize];
                let color = Color::ALL[rng.below(2) as usize];
                b.put(rng.below(64) as u8, Piece::new(color, state));
            }
            b
        })
        .collect()
}

fn bench_actions(c: &mut Criterion) {
    let boards = boards(1000);
    let mut count = CountSink::default();
    for b in &boards {
        for us in Color::ALL {
            generate(b, us, &mut count);
        }
    }
    let mut group = c.benchmark_group("mutatis_actions");
    group.throughput(Throughput::Elements(count.0));
    group.bench_function("generate_list_1000_random_boards", |bench| {
        bench.iter(|| {
            let mut n = 0;
            for b in &boards {
                for us in Color::ALL {
                    let mut l = ActionList::new();
                    generate(b, us, &mut l);
                    n += l.len();
                }
            }
            n
        })
    });
    group.bench_function("generate_count_1000_random_boards", |bench| {
        bench.iter(|| {
            let mut s = CountSink::default();
            for b in &boards {
                for us in Color::ALL {
                    generate(b, us, &mut s);
                }
            }
            s.0
        })
    });
    group.finish();
    let mut group = c.benchmark_group("mutatis_attacked");
    let pieces: u64 = boards
        .iter()
        .map(|b| b.occupied().count_ones() as u64)
        .sum();
    group.throughput(Throughput::Elements(pieces));
    group.bench_function("attacked_every_piece_1000_random_boards", |bench| {
        bench.iter(|| {
            let mut n = 0;
            for b in &boards {
                let mut occ = b.occupied();
                while occ != 0 {
                    let s = occ.trailing_zeros() as u8;
                    occ &= occ - 1;
                    n += attacked(b, s) as u32;
                }
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, bench_actions);
criterion_main!(benches);
