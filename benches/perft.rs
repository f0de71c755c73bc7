//! Criterion bench: perft. STUB.
fn main() {}
