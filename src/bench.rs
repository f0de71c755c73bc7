//! `menagerie bench`: a fixed-depth search of fixed orthodox chess positions.
//!
//! Each position is searched to `depth` plies with a cleared TT; with one thread nothing
//! depends on the clock, so the total node count is deterministic and serves as the
//! behaviour fingerprint of the search (`Bench: <nodes>` in commit messages).

use std::time::Instant;

use crate::search::{search, Limits, SearchControl, SearchOptions, Tt};
use crate::variants::chess::Chess;
use crate::variants::Game;

/// The bench positions: openings, middlegames with both castlings, tactics, endgames with
/// passed pawns and promotion, and a checking position.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PBPN2/PP1N1PPP/R2QK2R w KQ - 3 9",
    "2r2rk1/1bqnbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 4 14",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/1r3PPP/3R2K1 w - - 0 1",
    "8/8/1p2k3/p1p2p2/P1P2P2/1P2K3/8/8 w - - 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 1",
    "3r2k1/pp3ppp/2p5/4N3/2P1n3/1P4P1/P4P1P/3R2K1 b - - 0 24",
];

/// What a bench run measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Total nodes searched over all positions (deterministic for one thread).
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
}

/// Searches the bench positions of orthodox chess to `depth` plies with `threads` threads and a
/// `hash_mb` MiB TT (cleared between positions), returning total nodes and time.
pub fn run(depth: u32, threads: usize, hash_mb: usize) -> BenchReport {
    let tt = Tt::new(hash_mb);
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
    for fen in POSITIONS {
        let Ok(pos) = Chess::from_fen(fen) else {
            continue;
        };
        tt.clear();
        let control = SearchControl::default();
        let result = search(&pos, &limits, &options, &tt, &control, &mut |_| {});
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

    #[test]
    fn bench_positions_parse() {
        for fen in POSITIONS {
            assert!(Chess::from_fen(fen).is_ok(), "{fen}");
        }
    }
}
