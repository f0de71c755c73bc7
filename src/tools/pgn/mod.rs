//! PGN, read and written for every variant: the games of a PGN file as tags and move words
//! ([`read::parse_pgn`]), a turn read back from its notation or its token ([`read::read_turn`]),
//! and tag pairs and movetext written ([`mod@write`]). The match runner (`menagerie match`, its
//! opening books), the GUI's saved and imported games and `menagerie replay` all use it.

pub mod read;
pub mod write;

pub use read::{parse_pgn, read_turn, PgnError, PgnGame};
pub use write::{push_movetext, push_tag, today};

/// A PGN move word without the marks writers vary (check and annotation marks, `=` before a
/// promotion letter, castling with zeros): the comparison [`read::read_turn`] makes, offered
/// here to readers of PGN that know no rules, as the GUI's import.
pub use crate::variants::turn::normalize_pgn;
