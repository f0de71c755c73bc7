//! Pieces of the deliberately naive reference generators of the variant tests (tests/muster.rs
//! `reference`, tests/mitosis.rs `brute`), written from the rules text and independent of the
//! engine's tables in src/core/attacks.rs.
#![allow(dead_code)] // each test crate uses a different part

/// The eight knight leaps as (file, rank) offsets.
pub const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
