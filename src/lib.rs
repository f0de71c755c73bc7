//! menagerie: a chess-variant engine.
//!
//! Layers, each depending only on the ones before it (docs/design.md):
//! [`core`] (geometry, bitboards, attack tables, zobrist) <- [`variants`] (the `Game` trait and
//! each variant's rules) <- [`search`], [`perft`], [`mod@bench`] <- [`protocol`] (the engine as a
//! process). Beside the engine, built on the same layers and never used by them: [`tools`]
//! (the match runner, opening books, self-play data, record replay) and [`gui`] (the browser
//! front end, a client of the protocol). The `menagerie` binary puts them on the command line.

#![warn(missing_docs)]

pub mod bench;
pub mod client;
pub mod core;
#[cfg(feature = "gui")]
pub mod gui;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod tools;
pub mod variants;
