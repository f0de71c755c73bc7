//! Legal move generation for orthodox chess. STUB: being written.

use super::position::Chess;
use super::types::Move;
use crate::core::MoveList;

impl Chess {
    /// Appends every legal move to `list`.
    pub fn generate_legal(&self, list: &mut MoveList<Move>) {
        let _ = list;
    }
}
