//! Tuning tools for menagerie's per-variant evaluators.
//!
//! Not yet built: the plan is self-play data generation, Texel tuning of the evaluation
//! parameters (each variant declares them in one table) and SPSA for search parameters.
//! For now this crate only proves the parameter tables are reachable from outside the engine.

/// Number of tunable evaluation parameters of orthodox chess (see `menagerie::variants::chess::eval`).
pub fn chess_parameter_count() -> usize {
    menagerie::variants::chess::eval::DEFAULT.count()
}

#[cfg(test)]
mod tests {
    #[test]
    fn parameters_are_visible() {
        assert!(super::chess_parameter_count() > 0);
    }
}
