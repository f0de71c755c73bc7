//! Opening books for `menagerie match --openings`: EPD/FEN files (one position per line, the
//! variant's own FEN with its `key:value` tags; `#` starts a comment, since no FEN holds `#`;
//! a chess EPD line's operations after the position, such as `bm e4; id "x";`, are ignored)
//! and PGN files (each game's `FEN` tag or the start position, then its first moves, read by
//! [`crate::tools::pgn`]). Every opening is checked against the variant's rules when the book is
//! loaded, so a bad book stops the match before the first game, with the file and line.

use crate::variants::game_outcome;
use std::path::Path;

use thiserror::Error;

use crate::variants::{Game, PlyList, Variant};

use super::rng::Rng;
use crate::tools::pgn::{parse_pgn, read_turn};

/// How an openings file is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningsFormat {
    /// One FEN (or chess EPD line) per line.
    Epd,
    /// PGN games: a start position and moves.
    Pgn,
}

impl OpeningsFormat {
    /// The format a file name suggests: `.pgn` is PGN, anything else EPD.
    pub fn from_path(path: &Path) -> OpeningsFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("pgn") => OpeningsFormat::Pgn,
            _ => OpeningsFormat::Epd,
        }
    }

    /// `epd` or `pgn`.
    pub fn name(self) -> &'static str {
        match self {
            OpeningsFormat::Epd => "epd",
            OpeningsFormat::Pgn => "pgn",
        }
    }
}

/// In which order pairs take the openings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningsOrder {
    /// File order: pair `k` plays opening `k mod n`.
    Sequential,
    /// A shuffle of the file drawn from the match seed, then cycled like `Sequential`.
    Random,
}

impl OpeningsOrder {
    /// `sequential` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            OpeningsOrder::Sequential => "sequential",
            OpeningsOrder::Random => "random",
        }
    }
}

/// One opening: a start position and the turns played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// FEN of the start position (canonical).
    pub fen: String,
    /// Turn tokens (protocol.md 3) played from it, possibly none.
    pub moves: Vec<String>,
    /// Where it comes from: `<file>:<line>`.
    pub origin: String,
}

/// Why an openings file was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningsError {
    /// The file could not be read.
    #[error("{file}: {reason}")]
    Io {
        /// The file.
        file: String,
        /// The operating system's reason.
        reason: String,
    },
    /// A position, tag or move that is not right, at a line of the file.
    #[error("{file}:{line}: {reason}")]
    Bad {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// Nothing in the file.
    #[error("{0}: no openings in the file")]
    Empty(String),
}

/// A loaded book and how it is used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Openings {
    /// The openings in file order.
    pub list: Vec<Opening>,
    /// The order pairs take them in.
    pub order: OpeningsOrder,
    /// The file as given on the command line.
    pub file: String,
    /// How the file was read.
    pub format: OpeningsFormat,
    /// The most turns taken from each PGN game (`--openings-plies`); all when `None`.
    pub plies: Option<usize>,
}

/// Checks that a game can go on from `pos`: not over by rule and with a legal ply.
fn playable<G: Game>(pos: &G) -> Result<(), String> {
    if let Some(o) = game_outcome(pos) {
        return Err(format!(
            "the position is already over ({} {{{}}})",
            o.result.as_str(),
            o.reason
        ));
    }
    let mut list = PlyList::<G::Move>::default();
    pos.legal_moves(&mut list);
    if list.is_empty() {
        return Err("the position has no legal move".into());
    }
    Ok(())
}

/// Reads one EPD/FEN line: the whole line as a FEN, or, for a line with EPD operations
/// (`;`-terminated), the longest run of leading words that is one.
fn epd_position<G: Game>(line: &str) -> Result<G, String> {
    let whole = match G::from_fen(line) {
        Ok(pos) => return Ok(pos),
        Err(e) => e.to_string(),
    };
    if line.contains(';') {
        let words: Vec<&str> = line.split_whitespace().collect();
        for n in (1..words.len()).rev() {
            if let Ok(pos) = G::from_fen(&words[..n].join(" ")) {
                return Ok(pos);
            }
        }
    }
    Err(whole)
}

impl Openings {
    /// Reads the book at `path` for variant `G` (`format` from the file name when `None`),
    /// taking at most `plies` turns of each PGN game.
    ///
    /// Errors: [`OpeningsError`] for an unreadable file, a bad position, tag or move (with
    /// its line), an opening where the game is already over, or an empty book.
    pub fn load<G: Game>(
        path: &Path,
        format: Option<OpeningsFormat>,
        order: OpeningsOrder,
        plies: Option<usize>,
    ) -> Result<Openings, OpeningsError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| OpeningsError::Io {
            file: file.clone(),
            reason: e.to_string(),
        })?;
        let format = format.unwrap_or_else(|| OpeningsFormat::from_path(path));
        Openings::parse::<G>(&text, &file, format, order, plies)
    }

    /// [`Openings::load`] from the text of the file `file`.
    ///
    /// Errors: as [`Openings::load`].
    pub fn parse<G: Game>(
        text: &str,
        file: &str,
        format: OpeningsFormat,
        order: OpeningsOrder,
        plies: Option<usize>,
    ) -> Result<Openings, OpeningsError> {
        let bad = |line: usize, reason: String| OpeningsError::Bad {
            file: file.to_string(),
            line,
            reason,
        };
        let mut list = Vec::new();
        match format {
            OpeningsFormat::Epd => {
                for (i, raw) in text.lines().enumerate() {
                    let line = raw.split('#').next().unwrap_or("").trim();
                    if line.is_empty() {
                        continue;
                    }
                    let pos: G = epd_position(line).map_err(|e| bad(i + 1, e))?;
                    playable(&pos).map_err(|e| bad(i + 1, e))?;
                    list.push(Opening {
                        fen: pos.fen(),
                        moves: Vec::new(),
                        origin: format!("{file}:{}", i + 1),
                    });
                }
            }
            OpeningsFormat::Pgn => {
                let games = parse_pgn(text).map_err(|e| bad(e.line, e.reason))?;
                for (k, game) in games.iter().enumerate() {
                    let at = |line: usize, why: String| bad(line, format!("game {}: {why}", k + 1));
                    if let Some(v) = game.tag("Variant") {
                        let named = Variant::from_name(v).map(|v| v.name());
                        if named != Some(G::INFO.name) {
                            let why =
                                format!("Variant tag '{v}', but the match plays {}", G::INFO.name);
                            return Err(at(game.line, why));
                        }
                    }
                    let start = match game.tag("FEN") {
                        Some(fen) => G::from_fen(fen).map_err(|e| at(game.line, e.to_string()))?,
                        None => G::startpos(),
                    };
                    let mut pos = start.clone();
                    let mut moves = Vec::new();
                    let take = plies.unwrap_or(usize::MAX);
                    for (word, line) in game.moves.iter().take(take) {
                        if game_outcome(&pos).is_some() {
                            return Err(at(*line, format!("move '{word}' after the game ended")));
                        }
                        let token = read_turn(&mut pos, word)
                            .map_err(|e| at(*line, format!("move '{word}': {e}")))?;
                        moves.push(token);
                    }
                    playable(&pos).map_err(|e| at(game.line, format!("after its moves: {e}")))?;
                    list.push(Opening {
                        fen: start.fen(),
                        moves,
                        origin: format!("{file}:{}", game.line),
                    });
                }
            }
        }
        if list.is_empty() {
            return Err(OpeningsError::Empty(file.to_string()));
        }
        Ok(Openings {
            list,
            order,
            file: file.to_string(),
            format,
            plies,
        })
    }

    /// The order in which pairs `0, 1, 2, ...` take the openings (indices into `list`, cycled):
    /// file order, or for [`OpeningsOrder::Random`] a shuffle drawn from `seed` alone, so that
    /// every shard of a match sees the same order.
    pub fn schedule(&self, seed: u64) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.list.len()).collect();
        if self.order == OpeningsOrder::Random {
            let mut rng = Rng::derived(seed, 0x0BE7_0BE7);
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
        }
        order
    }

    /// A fingerprint of the book's content (FNV-1a, 64 bits, in hex) for the JSON result: two
    /// shards merge only when they played the same book, wherever its file was.
    pub fn fingerprint(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for o in &self.list {
            for part in std::iter::once(&o.fen).chain(&o.moves) {
                for b in part.bytes().chain([0u8]) {
                    h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
                }
            }
        }
        format!("{h:016x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::Chess;
    use crate::variants::mystic::Mystic;

    fn epd<G: Game>(text: &str) -> Result<Openings, OpeningsError> {
        Openings::parse::<G>(
            text,
            "b.epd",
            OpeningsFormat::Epd,
            OpeningsOrder::Sequential,
            None,
        )
    }

    #[test]
    fn epd_lines_with_tags_comments_and_operations() {
        let book = epd::<Mystic>(
            "# a book\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:20/20 bought:0/0\n\n  4k3/8/8/8/8/8/8/3K4 b - - 0 1 coins:5/20 bought:0/0  # inline\n",
        )
        .unwrap();
        assert_eq!(book.list.len(), 2);
        assert_eq!(book.list[1].origin, "b.epd:4");
        assert!(book.list[1].fen.contains("coins:5/20"));
        let chess = epd::<Chess>(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 bm e5; id \"x\";\n",
        )
        .unwrap();
        assert_eq!(chess.list.len(), 1);
        let e =
            epd::<Mystic>("4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:20/20\n4k3/8/8/8 w\n").unwrap_err();
        assert!(e.to_string().starts_with("b.epd:2: bad FEN"), "{e}");
        // Fool's mate: over before the first game.
        let e = epd::<Chess>("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
            .unwrap_err();
        assert!(e.to_string().contains("already over"), "{e}");
        assert!(matches!(
            epd::<Chess>("# none\n"),
            Err(OpeningsError::Empty(_))
        ));
    }

    #[test]
    fn pgn_games_with_plies_and_variant_checks() {
        let pgn = "[Variant \"chess\"]\n1. e4 e5 2. Nf3 Nc6 *\n\n[FEN \"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\"]\n1... d5 2. c4 *\n";
        let parse = |plies| {
            Openings::parse::<Chess>(
                pgn,
                "o.pgn",
                OpeningsFormat::Pgn,
                OpeningsOrder::Random,
                plies,
            )
        };
        let book = parse(Some(3)).unwrap();
        assert_eq!(book.list[0].moves, ["e2e4", "e7e5", "g1f3"]);
        assert_eq!(book.list[1].moves, ["d7d5", "c2c4"]);
        assert_eq!(book.list[1].origin, "o.pgn:4");
        assert_eq!(parse(None).unwrap().list[0].moves.len(), 4);
        assert_ne!(parse(None).unwrap().fingerprint(), book.fingerprint());
        let mut order = book.schedule(3);
        order.sort();
        assert_eq!(order, [0, 1]);
        let e = Openings::parse::<Mystic>(
            pgn,
            "o.pgn",
            OpeningsFormat::Pgn,
            OpeningsOrder::Sequential,
            None,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("o.pgn:1: game 1: Variant tag 'chess'"),
            "{e}"
        );
        let e = Openings::parse::<Chess>(
            "1. e4 e6 2. Ke3 *",
            "o.pgn",
            OpeningsFormat::Pgn,
            OpeningsOrder::Sequential,
            None,
        )
        .unwrap_err();
        assert!(
            e.to_string().starts_with("o.pgn:1: game 1: move 'Ke3'"),
            "{e}"
        );
    }
}
