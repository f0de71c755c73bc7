//! The Muster (rules/muster.md 3.1): `muster propose` and `muster choose`.

/// Runs a `muster ...` protocol line.
///
/// Errors: a message for `info string error`.
pub fn command(
    line: &str,
    probe: &mut dyn FnMut(&super::Muster, u64) -> i32,
) -> Result<String, String> {
    let _ = probe;
    Err(format!("muster: not implemented yet: '{line}'"))
}
