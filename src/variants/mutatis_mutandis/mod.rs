//! Mutatis Mutandis (rules/mutatis-mutandis.md), part 1: the piece library.
//!
//! Every piece state of rules section 2 ([`State`], with its FEN code), the board of pieces
//! ([`Board`]), the [`Action`] type with its move tokens (rules 11), the generation of every
//! state's actions (rules 6.1, 6.2) with the interaction rules of section 7 (freezing and
//! suicide, Chameleon mimicry, swap-back ban, immunity), and the "attacked" query of rules 5.
//! The game itself (morphing, setup, drops, cornering, legality, evaluator) is a later issue.
//!
//! One file per kind of mechanism: `leapers` (plain leapers, riders and path riders on the core
//! tables), `bent` (Sissa, gryphons, Dancing Horse), `hoppers` (Paovao, Cannon Pawn), `pawns`,
//! `winther` (Oxybeles, Secutor), `rococo` (Long Leaper, Withdrawer, Advancer, Swapper,
//! Archer), `chameleon`, `interaction` (suicide, Maoking conversion), `generate` (dispatch,
//! immunity, attacked query).

pub mod action;
mod bent;
pub mod board;
mod chameleon;
pub mod generate;
mod hoppers;
mod interaction;
mod leapers;
mod pawns;
pub mod piece;
mod rococo;
pub mod tables;
mod winther;

pub use action::{Action, ActionKind, ActionList, ActionSink, CountSink, TokenError};
pub use board::{Board, BoardError};
pub use chameleon::mimicked_by_displacement;
pub use generate::{actions_from, attacked, attacked_set, generate, reach_of, Reach};
pub use piece::{Piece, State, STATE_COUNT};
