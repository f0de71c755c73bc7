//! Criterion bench: fixed-depth single-thread search of orthodox chess positions (cleared TT
//! each time, so every sample searches the same tree).

use criterion::{criterion_group, criterion_main, Criterion};
use menagerie::search::{search, Limits, SearchControl, SearchOptions, Tt};
use menagerie::variants::chess::Chess;
use menagerie::variants::Game;

fn fixed_depth(c: &mut Criterion) {
    let cases = [
        ("startpos_d8", menagerie::variants::chess::START_FEN, 8),
        (
            "kiwipete_d7",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            7,
        ),
        (
            "endgame_d12",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            12,
        ),
    ];
    let tt = Tt::new(16);
    let options = SearchOptions::default();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, fen, depth) in cases {
        let pos = Chess::from_fen(fen).expect("bench FEN");
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                tt.clear();
                let control = SearchControl::default();
                search(&pos, &limits, &options, &tt, &control, &mut |_| {}).nodes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, fixed_depth);
criterion_main!(benches);
