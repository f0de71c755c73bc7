//! Criterion benches of move generation and perft (make/unmake + legal generation), for every
//! variant: its start position and its bench positions ([`SearchProfile::bench_fens`]), each at the
//! smallest depth (in plies) whose tree has at least [`MIN_LEAVES`] leaves.
//!
//! `cargo bench --bench perft [-- <variant>]`. Throughput is reported in leaf nodes.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use menagerie::perft::perft;
use menagerie::variants::{Game, PlyList, Variant};

/// Leaves of the smallest tree benched (a sample then takes some milliseconds).
const MIN_LEAVES: u64 = 200_000;

/// The start position and the bench positions of `G`, named.
fn positions<G: Game>() -> Vec<(String, G)> {
    let mut out = vec![("startpos".to_string(), G::startpos())];
    for (i, fen) in G::SEARCH.bench_fens.iter().enumerate().take(3) {
        if let Ok(p) = G::from_fen(fen) {
            if p.fen() != out[0].1.fen() {
                out.push((format!("bench{i}"), p));
            }
        }
    }
    out
}

fn bench_variant<G: Game>(c: &mut Criterion) {
    let name = G::INFO.name;
    let mut group = c.benchmark_group(format!("{name}_perft"));
    group.sample_size(10);
    for (label, mut pos) in positions::<G>() {
        let (mut depth, mut nodes) = (1, perft(&mut pos, 1));
        while nodes < MIN_LEAVES && nodes > 0 && depth < 8 {
            depth += 1;
            nodes = perft(&mut pos, depth);
        }
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(label, depth), &depth, |b, &d| {
            b.iter(|| perft(&mut pos, d))
        });
    }
    group.finish();

    let mut group = c.benchmark_group(format!("{name}_movegen"));
    for (label, pos) in positions::<G>() {
        let mut list = PlyList::<G::Move>::default();
        pos.legal_moves(&mut list);
        group.throughput(Throughput::Elements(list.len() as u64));
        group.bench_function(label, |b| {
            b.iter(|| {
                let mut list = PlyList::<G::Move>::default();
                pos.legal_moves(&mut list);
                list.len()
            })
        });
    }
    group.finish();
}

fn bench_all(c: &mut Criterion) {
    for &v in Variant::ALL {
        menagerie::with_variant!(v, G => bench_variant::<G>(c));
    }
}

criterion_group!(benches, bench_all);
criterion_main!(benches);
