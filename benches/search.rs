//! Criterion bench: search. STUB.
fn main() {}
