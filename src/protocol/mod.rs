//! The text protocol of `shared/protocol.md`: UCI plus drops, swaps and multi-portion turns.
//!
//! STUB: being written.
