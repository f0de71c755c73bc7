//! Random setups (rules/mutatis-mutandis.md 3 [D 2, D 3]): for each side independently, the
//! King on a uniformly random file of its home row, the other 20 family pieces (families 2-21,
//! base state) shuffled uniformly: the first 7 fill the rest of the home row from a to h, the
//! last 13 are the reserve in drop order; Pawns on the second row; every cornering flag set.
//!
//! The draw comes from [`SplitMix64`] seeded with the given seed (White's side first, then
//! Blue's), so a seed gives the same setup on every machine and build.

use crate::core::zobrist::SplitMix64;
use crate::core::{Color, Square};

use super::piece::{Piece, State};
use super::position::{flag, home_row, MutatisMutandis, Reserve};

/// The base state of each non-King, non-Pawn family (rules 2, families 2-21), in family order.
pub const FAMILY_BASES: [State; 20] = [
    State::Queen,
    State::Amazon,
    State::Unicorn,
    State::Nightrider,
    State::Chancellor,
    State::DancingHorse,
    State::DragonKing,
    State::Knight,
    State::Gryphon,
    State::CrookedRook,
    State::Rook,
    State::KnightWazir,
    State::Paovao,
    State::Chameleon,
    State::LongLeaper,
    State::Withdrawer,
    State::Immobilizer,
    State::Mamra,
    State::HydraKnight,
    State::Oxybeles,
];

/// Pieces of each family on the home row besides the King (rules 3): the rest are the reserve.
pub const HOME_PIECES: usize = 7;

/// Pieces in a side's reserve at the setup (rules 3): the families other than the King's that
/// are not on the home row. Drops and promotions only take from it.
pub const RESERVE_LEN: usize = FAMILY_BASES.len() - HOME_PIECES;

/// The setup of rules 3 drawn from `seed`.
pub fn random_setup(seed: u64) -> MutatisMutandis {
    let mut rng = SplitMix64::new(seed);
    let mut pos = MutatisMutandis::empty();
    for c in Color::ALL {
        let row = home_row(c) * 8;
        let pawn_row = if c == Color::White { 8 } else { 48 };
        let king_file = rng.below(8) as Square;
        let mut pieces = FAMILY_BASES;
        // Fisher-Yates, uniform over the 20! orders.
        for i in (1..pieces.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            pieces.swap(i, j);
        }
        pos.board.put(row + king_file, Piece::new(c, State::King));
        let files = (0..8).filter(|&f| f != king_file);
        for (f, &s) in files.zip(pieces.iter()) {
            pos.board.put(row + f, Piece::new(c, s));
        }
        for f in 0..8 {
            pos.board.put(pawn_row + f, Piece::new(c, State::Pawn));
        }
        // The reserve holds exactly the 13 pieces after the home row's 7.
        if let Ok(r) = Reserve::new(0, &pieces[HOME_PIECES..]) {
            pos.reserve[c.index()] = r;
        }
    }
    pos.corner = flag::WK | flag::WA | flag::WH | flag::BK | flag::BA | flag::BH;
    pos.refresh_keys();
    pos
}
