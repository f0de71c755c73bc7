//! The client side of the text protocol (docs/protocol.md): one way to drive an engine
//! process, for every program of this crate that talks to one. The match runner
//! (`menagerie match`) and the integration tests use the synchronous core,
//! [`EngineProcess`]; the GUI server uses its async face, [`AsyncEngine`] (feature `gui`).
//! [`answers`] parses what engines print, once for all of them.

pub mod answers;
#[cfg(feature = "gui")]
pub mod asynch;
pub mod process;

pub use answers::{
    parse_bestmove, parse_diagram, parse_info, parse_report, parse_variant, report_commands,
    DiagramDesc, EngineOption, FieldDesc, InfoLine, PieceDesc, PositionReport, Pregame, ScoreValue,
    VariantDesc,
};
#[cfg(feature = "gui")]
pub use asynch::{AsyncEngine, QUERY_TIMEOUT};
pub use process::{EngineFault, EngineProcess, LineQueue, StartError, DEFAULT_VARIANT};
