//! Criterion benches of move generation and perft (make/unmake + legal generation).
//!
//! `cargo bench --bench perft`. Throughput is reported in leaf nodes.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use menagerie::core::MoveList;
use menagerie::perft::perft;
use menagerie::variants::chess::Chess;
use menagerie::variants::Game;

const POSITIONS: &[(&str, &str, u32)] = &[
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
    ),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess_perft");
    group.sample_size(10);
    for &(name, fen, depth) in POSITIONS {
        let mut pos = Chess::from_fen(fen).unwrap();
        let nodes = perft(&mut pos, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, &d| {
            b.iter(|| perft(&mut pos, d))
        });
    }
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess_movegen");
    for &(name, fen, _) in POSITIONS {
        let pos = Chess::from_fen(fen).unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        group.throughput(Throughput::Elements(list.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                list.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_movegen);
criterion_main!(benches);
