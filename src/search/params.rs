//! Every tunable search parameter, declared once (for SPSA tuning later).
//!
//! Depths are in plies, margins and scores in centipawns, times in milliseconds or permille.

/// The search's tunable constants. [`PARAMS`] is the value the engine plays with.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Half-width of the first aspiration window (centipawns).
    pub aspiration_delta: i32,
    /// First iteration depth (plies) that uses an aspiration window.
    pub aspiration_min_depth: i32,
    /// Reverse futility pruning: deepest remaining depth (plies) where it applies.
    pub rfp_max_depth: i32,
    /// Reverse futility margin per ply of remaining depth (centipawns).
    pub rfp_margin: i32,
    /// Null-move pruning: shallowest remaining depth (plies).
    pub nmp_min_depth: i32,
    /// Null-move base reduction (plies).
    pub nmp_base: i32,
    /// Null-move reduction grows by one ply every `nmp_divisor` plies of depth.
    pub nmp_divisor: i32,
    /// Futility pruning of quiet plies: deepest remaining depth (plies).
    pub fp_max_depth: i32,
    /// Futility base margin (centipawns).
    pub fp_base: i32,
    /// Futility margin per ply of remaining depth (centipawns).
    pub fp_per_depth: i32,
    /// Late move pruning: deepest remaining depth (plies).
    pub lmp_max_depth: i32,
    /// Late move pruning: quiet plies tried before pruning is `lmp_base + depth * depth`.
    pub lmp_base: i32,
    /// LMR: shallowest remaining depth (plies).
    pub lmr_min_depth: i32,
    /// LMR: plies searched in full before reducing (at PV nodes one more).
    pub lmr_min_index: usize,
    /// LMR formula `base + ln(depth) * ln(index) / divisor`, base in hundredths of a ply.
    pub lmr_base_x100: i32,
    /// LMR formula divisor, in hundredths.
    pub lmr_divisor_x100: i32,
    /// History divisor for LMR adjustment: one ply less/more per this much history.
    pub lmr_history_divisor: i32,
    /// Internal iterative reduction: depth (plies) at which a node without TT move is reduced.
    pub iir_min_depth: i32,
    /// Largest history bonus (the bonus is depth*depth capped at this).
    pub history_bonus_max: i32,
    /// History values are kept within +-`history_max`.
    pub history_max: i32,
    /// Soft time limit: divisor of the remaining clock when `movestogo` is unknown.
    pub time_default_mtg: u64,
    /// Soft time limit: permille of the increment added per turn.
    pub time_inc_permille: u64,
    /// Hard limit as a multiple of the soft limit (permille).
    pub time_hard_permille: u64,
    /// Hard limit never exceeds this permille of the remaining clock.
    pub time_max_permille: u64,
    /// Soft limit scale when the best move just changed (permille).
    pub time_unstable_permille: u64,
    /// Soft limit scale when the best move has been stable for several iterations (permille).
    pub time_stable_permille: u64,
}

/// The search parameters in use.
pub const PARAMS: SearchParams = SearchParams {
    aspiration_delta: 25,
    aspiration_min_depth: 5,
    rfp_max_depth: 7,
    rfp_margin: 80,
    nmp_min_depth: 3,
    nmp_base: 3,
    nmp_divisor: 6,
    fp_max_depth: 6,
    fp_base: 100,
    fp_per_depth: 90,
    lmp_max_depth: 6,
    lmp_base: 3,
    lmr_min_depth: 3,
    lmr_min_index: 2,
    lmr_base_x100: 75,
    lmr_divisor_x100: 225,
    lmr_history_divisor: 4096,
    iir_min_depth: 4,
    history_bonus_max: 1600,
    history_max: 16384,
    time_default_mtg: 30,
    time_inc_permille: 750,
    time_hard_permille: 4000,
    time_max_permille: 600,
    time_unstable_permille: 1600,
    time_stable_permille: 650,
};
