//! Criterion bench: fixed-depth single-thread searches (cleared TT each time, so every sample
//! searches the same tree) of every variant's first bench position ([`SearchProfile::bench_fens`],
//! or its start), from the variant's bench depth ([`SearchProfile::bench_depth`]) minus 2 plies,
//! deepened until the tree has [`MIN_NODES`] nodes (so the TT clear does not dominate).
//!
//! `cargo bench --bench search [-- <variant>]`. The `menagerie bench` command is the node-count
//! fingerprint; this is its timing.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use menagerie::search::{search, Limits, SearchControl, SearchOptions, Tt};
use menagerie::variants::{Game, Variant};

/// Nodes of the smallest search benched.
const MIN_NODES: u64 = 100_000;

fn bench_variant<G: Game>(c: &mut Criterion, tt: &Tt) {
    let pos = G::SEARCH
        .bench_fens
        .first()
        .and_then(|f| G::from_fen(f).ok())
        .unwrap_or_else(G::startpos);
    let options = SearchOptions::default();
    let run = |depth: u32| {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        tt.clear();
        let control = SearchControl::default();
        search(&pos, &limits, &options, tt, &control, &mut |_| {}).nodes
    };
    let mut depth = G::SEARCH.bench_depth.saturating_sub(2).max(1);
    let mut nodes = run(depth);
    while nodes < MIN_NODES && depth < G::SEARCH.bench_depth + 4 {
        depth += 1;
        nodes = run(depth);
    }
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("{}_d{depth}", G::INFO.name), |b| {
        b.iter(|| run(depth))
    });
    group.finish();
}

fn fixed_depth(c: &mut Criterion) {
    let tt = Tt::new(16);
    for &v in Variant::ALL {
        menagerie::with_variant!(v, G => bench_variant::<G>(c, &tt));
    }
}

criterion_group!(benches, fixed_depth);
criterion_main!(benches);
