//! Measurements run by hand, not checks (they depend on the machine's speed and load): moved
//! here from `#[ignore]` tests so that the test suite only holds deterministic checks.
//!
//! `cargo bench --bench measure -- <name>`, where `<name>` is one of `bench_and_smp`, `wac`,
//! `pruning_match`, `clock_game`, `eval_speed` (each documented below, with the environment
//! variables it reads). Without a name it lists them and exits, so `cargo bench` runs nothing
//! long here.

use menagerie::variants::adjudicated_outcome;
use std::time::Instant;

use menagerie::core::zobrist::SplitMix64;
use menagerie::search::{search, Limits, SearchControl, SearchOptions, SearchResult, Tt};
use menagerie::variants::chess::Chess;
use menagerie::variants::{Evaluation, Game, Notation, PlyList, Rules};

/// The measurements, by name.
const MEASUREMENTS: &[(&str, fn())] = &[
    ("bench_and_smp", bench_and_smp),
    ("wac", wac),
    ("pruning_match", pruning_match),
    ("clock_game", clock_game),
    ("eval_speed", eval_speed),
];

fn main() {
    let names: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if names.is_empty() {
        let all: Vec<&str> = MEASUREMENTS.iter().map(|m| m.0).collect();
        println!(
            "measure: name one of {} (cargo bench --bench measure -- <name>)",
            all.join(", ")
        );
        return;
    }
    for name in &names {
        match MEASUREMENTS.iter().find(|m| m.0 == name) {
            Some((_, f)) => f(),
            None => {
                eprintln!("measure: unknown measurement '{name}'");
                std::process::exit(2);
            }
        }
    }
}

fn run_chess(fen: &str, limits: Limits, threads: usize) -> SearchResult<<Chess as Rules>::Move> {
    let pos = Chess::from_fen(fen).expect("valid FEN");
    let tt = Tt::new(16);
    let options = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    search(
        &pos,
        &limits,
        &options,
        &tt,
        &SearchControl::default(),
        &mut |_| {},
    )
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn token(fen: &str, r: &SearchResult<<Chess as Rules>::Move>) -> String {
    let pos = Chess::from_fen(fen).unwrap();
    pos.move_token(r.best.expect("a best move"))
}

/// Measurement, not a check: `cargo bench --bench measure -- bench_and_smp`.
fn bench_and_smp() {
    let d = std::env::var("BENCH_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    if std::env::var("BENCH_EACH").is_ok() {
        for fen in <Chess as Game>::SEARCH.bench_fens {
            let t = Instant::now();
            let r = run_chess(fen, depth(d), 1);
            println!("{fen}: {} nodes {:?} {:?}", r.nodes, t.elapsed(), r.score);
        }
    }
    let r = menagerie::bench::run::<Chess>(d, 1, 16);
    println!(
        "bench depth {d}: {} nodes {} ms {} nps",
        r.nodes,
        r.time_ms,
        r.nodes * 1000 / r.time_ms.max(1)
    );
    // Time to depth, 1 vs 2 threads, over the bench positions.
    let mut t = [0u64; 2];
    for (i, threads) in [1usize, 2].into_iter().enumerate() {
        let r = menagerie::bench::run::<Chess>(d, threads, 16);
        t[i] = r.time_ms;
        println!("threads {threads}: {} ms, {} nodes", r.time_ms, r.nodes);
    }
    println!(
        "time-to-depth ratio 1T/2T = {:.2}",
        t[0] as f64 / t[1].max(1) as f64
    );
}

/// Measurement, not a check (needs the real chess evaluation): how many of the first ten
/// Win At Chess positions are solved at 1 s each.
/// `cargo bench --bench measure -- wac`.
fn wac() {
    let cases = [
        (
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "g3g6",
        ),
        ("8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1", "b3b2"),
        (
            "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
            "e3g3",
        ),
        (
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            "h6h7",
        ),
        ("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", "c6c4"),
        ("7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1", "b6b7"),
        (
            "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 0 1",
            "g4e3",
        ),
        (
            "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1",
            "e7f7",
        ),
        (
            "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1",
            "d6h2",
        ),
        (
            "2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1",
            "h4h7",
        ),
    ];
    let ms = std::env::var("WAC_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let threads = std::env::var("WAC_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut solved = 0;
    for (fen, bm) in cases {
        let r = run_chess(
            fen,
            Limits {
                movetime: Some(ms),
                ..Limits::default()
            },
            threads,
        );
        let got = token(fen, &r);
        println!(
            "{bm} got {got} depth {} score {:?} nodes {}",
            r.depth, r.score, r.nodes
        );
        solved += usize::from(got == bm);
    }
    println!("WAC solved {solved}/10 at {ms} ms, {threads} thread(s)");
}

/// Measurement, not a check (needs the real chess evaluation): a fixed-node match of the
/// search with every pruning on against the same search with selective pruning off.
/// `MATCH_NODES=10000 cargo bench --bench measure -- pruning_match`.
fn pruning_match() {
    use menagerie::search::params::{SearchParams, Tunables, PARAMS};
    use menagerie::search::search_with_params;
    use menagerie::variants::GameResult;
    let nodes = std::env::var("MATCH_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let mut plain = PARAMS;
    // `MATCH_OFF=name=value,...` picks what the second engine changes; default: all pruning off.
    let off = std::env::var("MATCH_OFF").unwrap_or_else(|_| {
        "rfp_max_depth=0,nmp_min_depth=1000,fp_max_depth=0,lmp_max_depth=0,see_max_depth=0,\
         lmr_min_depth=1000,iir_min_depth=1000"
            .to_string()
    });
    for kv in off.split(',') {
        let (name, v) = kv.split_once('=').expect("name=value");
        plain
            .set(name.trim(), v.trim().parse().expect("a number"))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let engines: [SearchParams; 2] = [PARAMS, plain];
    let (mut score, mut games) = (0.0f64, 0);
    for fen in <Chess as Game>::SEARCH.bench_fens.iter().take(12) {
        for a_side in 0..2 {
            let mut pos = Chess::from_fen(fen).unwrap();
            let tts = [Tt::new(8), Tt::new(8)];
            let start_side = pos.side_to_move();
            let mut result = GameResult::Draw;
            for ply in 0..200 {
                if let Some(o) = adjudicated_outcome(&pos) {
                    result = o.result;
                    break;
                }
                // Engine 0 (full pruning) moves on even plies when a_side == 0.
                let e = (ply + a_side) % 2;
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                let r = search_with_params(
                    &pos,
                    &limits,
                    &SearchOptions::default(),
                    &engines[e],
                    &tts[e],
                    &SearchControl::default(),
                    &mut |_| {},
                );
                pos.make(r.best.expect("a legal move"));
            }
            // Engine 0 played `start_side` when a_side == 0.
            let full_side = if a_side == 0 { start_side } else { !start_side };
            score += match result {
                GameResult::Draw => 0.5,
                r if r == GameResult::win_for(full_side) => 1.0,
                _ => 0.0,
            };
            games += 1;
        }
    }
    println!("default vs [{off}] at {nodes} nodes/move: {score}/{games}");
}

/// Measurement: a self-play game on the clock (`CLOCK_MS` + `INC_MS`, default 2000 + 20),
/// checking that no side ever runs out of time; prints the lowest clock seen.
/// `cargo bench --bench measure -- clock_game`.
fn clock_game() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let (base, inc) = (env("CLOCK_MS", 2000), env("INC_MS", 20));
    let mut pos = Chess::startpos();
    let tt = Tt::new(16);
    let mut clock = [base as i64, base as i64];
    let mut lowest = base as i64;
    let mut longest = 0u64;
    for _ in 0..300 {
        if adjudicated_outcome(&pos).is_some() {
            break;
        }
        let limits = Limits {
            wtime: Some(clock[0].max(0) as u64),
            btime: Some(clock[1].max(0) as u64),
            winc: Some(inc),
            binc: Some(inc),
            ..Limits::default()
        };
        let side = pos.side_to_move().index();
        let t = Instant::now();
        let r = search(
            &pos,
            &limits,
            &SearchOptions::default(),
            &tt,
            &SearchControl::default(),
            &mut |_| {},
        );
        let used = t.elapsed().as_millis() as u64;
        longest = longest.max(used);
        clock[side] -= used as i64;
        assert!(clock[side] > 0, "side {side} flagged");
        lowest = lowest.min(clock[side]);
        clock[side] += inc as i64;
        pos.make(r.best.unwrap());
    }
    println!("{base}+{inc}: lowest clock {lowest} ms, longest move {longest} ms, final {clock:?}");
}

/// The speed of the chess evaluation, in ns per call over the positions of seeded random
/// playouts (best of `EVAL_SPEED_ROUNDS` rounds, default 100: the machine is shared, the
/// minimum is the least disturbed). `cargo bench --bench measure -- eval_speed`.
fn eval_speed() {
    let mut rng = SplitMix64::new(4);
    let mut positions = Vec::new();
    for _ in 0..60 {
        let mut p = Chess::startpos();
        let mut list = PlyList::<<Chess as Rules>::Move>::default();
        for _ in 0..80 {
            list.clear();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            p.make(list[rng.below(list.len() as u64) as usize]);
            positions.push(Chess::from_fen(&p.fen()).expect("own FEN"));
        }
    }
    let rounds: usize = std::env::var("EVAL_SPEED_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let (mut best, mut sum) = (f64::MAX, 0i64);
    for _ in 0..rounds {
        let t = Instant::now();
        for p in &positions {
            sum += std::hint::black_box(p).evaluate() as i64;
        }
        best = best.min(t.elapsed().as_nanos() as f64 / positions.len() as f64);
    }
    let n = positions.len();
    println!(
        "evaluate: {best:.1} ns/call (best of {rounds} rounds over {n} positions, checksum {sum})"
    );
}
