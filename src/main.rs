//! The `menagerie` binary. STUB: the CLI is being written.
fn main() {}
