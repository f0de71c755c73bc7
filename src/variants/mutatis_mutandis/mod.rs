//! Mutatis Mutandis (rules/mutatis-mutandis.md): 8x8, 22 families of pieces that morph each
//! time they act, random setups, reserves dropped on a schedule, cornering, and the win by
//! checkmating the King/Maoking or the Wuss.
//!
//! The piece library: every piece state of rules section 2 ([`State`], with its FEN code), the
//! board of pieces ([`Board`]), the [`Action`] type with its move tokens (rules 11), the
//! generation of every state's actions (rules 6.1, 6.2) with the interaction rules of section 7
//! (freezing and suicide, Chameleon mimicry, swap-back ban, immunity), and the "attacked" query
//! of rules 5. One file per kind of mechanism: `leapers` (plain leapers, riders and path riders
//! on the core tables), `bent` (Sissa, gryphons, Dancing Horse), `hoppers` (Paovao, Cannon
//! Pawn), `pawns`, `winther` (Oxybeles, Secutor), `rococo` (Long Leaper, Withdrawer, Advancer,
//! Swapper, Archer), `chameleon`, `interaction` (suicide, Maoking conversion), `generate`
//! (dispatch, immunity, attacked query).
//!
//! The game: [`MutatisMove`] (an action plus an optional drop: one ply, because legality is judged
//! after both, rules 4-5), [`position`] (state, keys, make/unmake with morph, promotion, drops
//! and flags), [`legal`] (legal turns: royal safety, Wuss compulsion, cornering, mandatory
//! drops), [`fen`] (rules 11), [`notation`] (turn tokens), [`san`] (the PGN notation, rules
//! 12), [`setup`] (random setups, rules 3), [`eval`] (the evaluator).
//!
//! Reading notes (where the rules file left room; the literal text is implemented):
//! - Section 2 has 49 codes (19 two-state families, the six Hydra states, Oxybeles/Secutor,
//!   three pawn states); the issue said 45. All 49 are [`State`]s.
//! - 6.1 `P`: "double step only for `P` on its rank 2 (only unmoved pawns)": the FEN has no
//!   moved flag, so any `P` on its rank 2 may double-step (it can only be back there by a
//!   sling or a swap).
//! - 6.1 `MA` / [D 14] vs 7.4: a slung piece in state `P`/`BP`/`SP`/`CP` is "a piece in a pawn
//!   state", so it may capture a Mamra by sling; other slung pieces stop before it.
//! - 6.2 `OX`: "pawn-family" is family 22 (`P`/`BP`/`SP`, as in section 5); a slung Cannon Pawn
//!   may reach its rank 1 and does not promote (rules 10 promotes only `P`/`BP`/`SP` by sling).
//! - 6.2 `SW` / 7.2 c: a swap is "not a capture", so Shield protection does not bar swapping
//!   with a protected piece (mutual destruction with it is barred).
//! - 7.1 / 7.2 e: a Chameleon next to an enemy Immobilizer is frozen by it and freezes it; as
//!   "frozen Immobilizers still freeze", the pair stays locked (either may commit suicide).
//! - 6.2 `AC`: the spotter is "another friendly piece": the Archer never spots for itself.
//! - 10: the en-passant victim is the enemy piece behind the en-passant square (the pawn that
//!   double-stepped has already morphed to `BP`).

pub mod action;
pub mod apply;
mod bent;
pub mod board;
mod chameleon;
pub mod eval;
pub mod fen;
mod game;
pub mod generate;
mod hoppers;
mod interaction;
mod leapers;
pub mod legal;
pub mod moves;
pub mod network;
pub mod notation;
mod pawns;
pub mod piece;
pub mod position;
mod rococo;
pub mod san;
pub mod see;
pub mod setup;
pub mod tables;
mod winther;

pub use action::{Action, ActionKind, ActionList, ActionSink, CountSink, TokenError};
pub use apply::Undo;
pub use board::{Board, BoardError};
pub use chameleon::mimicked_by_displacement;
pub use fen::START_FEN;
pub use generate::{
    actions_from, attack_candidates, attacked, attacked_by, attacked_set, generate, reach_of, Reach,
};
pub use moves::{MutatisMove, MutatisMoveList};
pub use piece::{Piece, State, STATE_COUNT};
pub use position::{DropWindow, MutatisMutandis, Reserve};
