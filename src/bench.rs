//! `menagerie bench`: a fixed-depth search of each variant's fixed bench positions
//! ([`SearchProfile::bench_fens`](crate::variants::SearchProfile::bench_fens)).
//!
//! Each position is searched to `depth` plies with a cleared TT; with one thread nothing
//! depends on the clock, so the total node count is deterministic and serves as the
//! behaviour fingerprint of the search (`Bench: <nodes>` in commit messages).

use std::time::Instant;

use crate::search::{search, Limits, SearchControl, SearchOptions, Tt};
use crate::variants::Game;

/// What a bench run measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Total nodes searched over all positions (deterministic for one thread).
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
}

/// Searches the bench positions of variant `G`
/// ([`SearchProfile::bench_fens`](crate::variants::SearchProfile::bench_fens), or its start
/// position when it lists none) to `depth` plies with `threads` threads and a `hash_mb` MiB TT
/// (cleared between positions by as many threads), returning total nodes and time. The time
/// (milliseconds) runs from the reading of the positions to the last search's end, the clears
/// between searches included; the table is made and its pages mapped before.
pub fn run<G: Game>(depth: u32, threads: usize, hash_mb: usize) -> BenchReport {
    let tt = Tt::new(hash_mb);
    // As the protocol does when the table is made (`Hash`): its pages mapped before any
    // search, so the timed searches do not pay the kernel's first-touch zeroing.
    tt.prefault(threads.max(1));
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let options = SearchOptions {
        threads: threads.max(1),
        ..SearchOptions::default()
    };
    let start = Instant::now();
    let mut nodes = 0;
    let positions: Vec<G> = if G::SEARCH.bench_fens.is_empty() {
        vec![G::startpos()]
    } else {
        G::SEARCH
            .bench_fens
            .iter()
            .filter_map(|fen| G::from_fen(fen).ok())
            .collect()
    };
    for pos in &positions {
        tt.clear_with_threads(options.threads);
        let control = SearchControl::default();
        let result = search(pos, &limits, &options, &tt, &control, &mut |_| {});
        nodes += result.nodes;
    }
    BenchReport {
        nodes,
        time_ms: start.elapsed().as_millis() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Variant;

    fn parse_all<G: Game>() {
        for fen in G::SEARCH.bench_fens {
            assert!(G::from_fen(fen).is_ok(), "{}: {fen}", G::INFO.name);
        }
    }

    #[test]
    fn bench_positions_parse() {
        for &v in Variant::ALL {
            crate::with_variant!(v, G => parse_all::<G>());
        }
    }

    #[test]
    fn bench_is_deterministic_with_one_thread() {
        let a = run::<crate::variants::chess::Chess>(5, 1, 4);
        let b = run::<crate::variants::chess::Chess>(5, 1, 4);
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
    }
}
