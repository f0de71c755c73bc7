//! The tools around the engine, built on its layers and never used by them: the match runner
//! and opening books ([`arena`], `menagerie match` and `menagerie book`), self-play training
//! data ([`datagen`], `menagerie datagen`), record replay ([`replay`], `menagerie replay`) and
//! PGN ([`pgn`]), which the match runner, the replay and the GUI share.
//! Nothing in `core`, `variants`, `search` or `protocol` imports this tree.

pub mod arena;
pub mod datafile;
pub mod datagen;
pub mod pgn;
pub mod replay;
