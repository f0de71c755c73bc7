//! menagerie: a chess-variant engine.
//!
//! Layers, each depending only on the ones before it (docs/design.md):
//! [`core`] (geometry, bitboards, attack tables, zobrist) <- [`variants`] (the `Game` trait and
//! each variant's rules) <- [`search`], [`perft`] <- [`protocol`] <- the `menagerie` binary.

#![warn(missing_docs)]

pub mod arena;
pub mod bench;
pub mod core;
pub mod datagen;
#[cfg(feature = "gui")]
pub mod gui;
pub mod perft;
pub mod protocol;
pub mod replay;
pub mod search;
pub mod variants;
