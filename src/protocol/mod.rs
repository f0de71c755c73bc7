//! The text protocol of docs/protocol.md: UCI plus drops, swaps and multi-portion turns.
//!
//! - [`command`]: one input line to a typed [`Command`] (or a [`CommandError`]);
//! - [`options`]: the `uci` options and `setoption` validation;
//! - [`engine`]: the loop, with a reader thread, and the engine state;
//! - `session`: the variant-generic position, TT and search worker;
//! - [`hash`]: the TT, touched or emptied in the background before `readyok`;
//! - [`output`]: the shared line-flushed writer and `info` formatting.

pub mod command;
pub mod engine;
pub mod hash;
pub mod options;
pub mod output;
mod session;

pub use command::{
    echo, escape_controls, Command, CommandError, GoCommand, PositionBase, PositionSpec,
};
pub use engine::{run, run_stdio, Engine, Flow};
pub use options::{EngineOptions, OptionChange, OptionError};
pub use output::Out;

use crate::variants::FenError;

/// Why a command was not carried out; printed as `info string error <message>`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// The line is not a well-formed command.
    #[error(transparent)]
    Command(#[from] CommandError),
    /// A `setoption` that was refused.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// A FEN that does not parse.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A turn token of `position ... moves` that is not legal (protocol.md 2).
    #[error("illegal move {token} at turn {turn}")]
    IllegalMove {
        /// The token as given.
        token: String,
        /// Its 1-based index in the `moves` list.
        turn: usize,
    },
    /// A position (after `turn` turns of the `moves` list) with more legal turns than the
    /// engine's move list holds ([`crate::variants::Rules::move_lists_fit`]): refused rather
    /// than searched with turns missing.
    #[error("the position after turn {turn} has more legal turns than the engine can list")]
    TooManyTurns {
        /// How many turns of the `moves` list lead to it.
        turn: usize,
    },
    /// A command that cannot run while the worker thread searches.
    #[error("a search is running; '{0}' ignored")]
    Busy(&'static str),
    /// A failure inside the engine that was contained.
    #[error("internal error: {0}")]
    Internal(String),
}
