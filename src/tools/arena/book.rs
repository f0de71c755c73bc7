//! `menagerie book`: a book of balanced openings made by the engine itself. Each candidate is a
//! number of random legal turns from the start (or from a setup drawn by
//! [`Rules::random_setup`](crate::variants::Rules::random_setup) for a variant whose games start
//! from random setups, see [`super::random_opening`]); it is kept when a short search (the
//! library's own, one thread, a node budget: deterministic) scores it within a window around 0. The
//! book is an EPD file of the variant's FENs that `menagerie match --openings` reads.

use crate::variants::game_outcome;
use std::collections::HashSet;

use crate::search::{self, Limits, Score, SearchControl, SearchOptions, Tt};
use crate::variants::Game;

use super::random_opening;
use super::rng::Rng;

/// What `menagerie book` makes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookConfig {
    /// Openings wanted.
    pub count: usize,
    /// Random turns from the start of each candidate.
    pub plies: usize,
    /// Seed of the random turns (and setups).
    pub seed: u64,
    /// Node budget of the search scoring each candidate.
    pub nodes: u64,
    /// Largest absolute score kept, in centipawns.
    pub window_cp: i32,
    /// Candidates tried at most before giving up.
    pub max_tries: usize,
}

/// One opening of the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// Its FEN.
    pub fen: String,
    /// The search's score of it, in centipawns from the side to move's point of view.
    pub score_cp: i32,
}

/// Makes the book for variant `G`: distinct positions, in the order found. Fewer than
/// `cfg.count` when `cfg.max_tries` candidates were not enough. `progress` is told
/// `(kept, tried)` after each candidate.
pub fn generate<G: Game>(
    cfg: &BookConfig,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<BookEntry> {
    let tt = Tt::new(4);
    let options = SearchOptions::default();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    let mut seen = HashSet::new();
    let mut book = Vec::new();
    for tried in 0..cfg.max_tries {
        if book.len() >= cfg.count {
            break;
        }
        let mut rng = Rng::derived(cfg.seed, tried as u64);
        let pos: G = random_opening(&mut rng, cfg.plies);
        let fen = pos.fen();
        if game_outcome(&pos).is_none() && !seen.contains(&fen) {
            tt.clear();
            let control = SearchControl::default();
            let result = search::search(&pos, &limits, &options, &tt, &control, &mut |_| {});
            if let (Some(_), Score::Cp(cp)) = (result.best, result.score) {
                if cp.abs() <= cfg.window_cp {
                    seen.insert(fen.clone());
                    book.push(BookEntry { fen, score_cp: cp });
                }
            }
        }
        progress(book.len(), tried + 1);
    }
    book
}

/// The book as an EPD file: `#` comment lines saying how it was made, then one FEN per line.
pub fn format_book<G: Game>(cfg: &BookConfig, book: &[BookEntry]) -> String {
    let mut s = format!(
        "# menagerie book: variant {}, {} openings, {} random turns, seed {}, kept when a {}-node search scores within +-{} cp\n",
        G::INFO.name,
        book.len(),
        cfg.plies,
        cfg.seed,
        cfg.nodes,
        cfg.window_cp
    );
    for e in book {
        s.push_str(&e.fen);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::arena::openings::{Openings, OpeningsFormat, OpeningsOrder};
    use crate::variants::mystic::Mystic;

    #[test]
    fn books_are_balanced_distinct_and_readable() {
        let cfg = BookConfig {
            count: 4,
            plies: 4,
            seed: 5,
            nodes: 300,
            window_cp: 50,
            max_tries: 200,
        };
        let book = generate::<Mystic>(&cfg, &mut |_, _| {});
        assert_eq!(book.len(), 4);
        assert!(book.iter().all(|e| e.score_cp.abs() <= 50));
        assert_eq!(book, generate::<Mystic>(&cfg, &mut |_, _| {}));
        let text = format_book::<Mystic>(&cfg, &book);
        let read = Openings::parse::<Mystic>(
            &text,
            "m.epd",
            OpeningsFormat::Epd,
            OpeningsOrder::Sequential,
            None,
        )
        .unwrap();
        let fens: Vec<&str> = read.list.iter().map(|o| o.fen.as_str()).collect();
        let want: Vec<&str> = book.iter().map(|e| e.fen.as_str()).collect();
        assert_eq!(fens, want);
    }
}
