//! Every tunable search parameter, declared once (name, type, value, doc) in `params!`, which
//! generates the [`SearchParams`] struct, its default [`PARAMS`] and a flat by-name view
//! ([`SearchParams::NAMES`], [`SearchParams::get`], [`SearchParams::set`]) for SPSA tuning.
//!
//! Depths are in plies, margins and scores in centipawns, times in permille or milliseconds.

macro_rules! params {
    ($( $(#[doc = $doc:literal])* $name:ident : $ty:ty = $value:expr ),* $(,)?) => {
        /// The search's tunable constants. [`PARAMS`] is the value the engine plays with.
        #[derive(Copy, Clone, Debug, PartialEq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])* pub $name: $ty, )*
        }

        /// The search parameters in use by [`super::search`].
        pub const PARAMS: SearchParams = SearchParams { $( $name: $value, )* };

        impl SearchParams {
            /// Every parameter's name, in declaration order.
            pub const NAMES: &'static [&'static str] = &[ $( stringify!($name), )* ];

            /// The value of the parameter `name`, or `None` for an unknown name.
            pub fn get(&self, name: &str) -> Option<i64> {
                match name {
                    $( stringify!($name) => Some(self.$name as i64), )*
                    _ => None,
                }
            }

            /// Sets the parameter `name` to `value` (saturated to its type); false for an
            /// unknown name.
            pub fn set(&mut self, name: &str, value: i64) -> bool {
                match name {
                    $( stringify!($name) => {
                        self.$name = (value as i128).clamp(<$ty>::MIN as i128, <$ty>::MAX as i128) as $ty;
                        true
                    } )*
                    _ => false,
                }
            }
        }

        impl Default for SearchParams {
            fn default() -> Self {
                PARAMS
            }
        }
    };
}

params! {
    /// Half-width of the first aspiration window (centipawns).
    aspiration_delta: i32 = 25,
    /// First iteration depth (plies) that uses an aspiration window.
    aspiration_min_depth: i32 = 5,
    /// Reverse futility pruning: deepest remaining depth (plies) where it applies.
    rfp_max_depth: i32 = 7,
    /// Reverse futility margin per ply of remaining depth (centipawns).
    rfp_margin: i32 = 80,
    /// Null-move pruning: shallowest remaining depth (plies).
    nmp_min_depth: i32 = 3,
    /// Null-move base reduction (plies).
    nmp_base: i32 = 3,
    /// Null-move reduction grows by one ply every `nmp_divisor` plies of depth.
    nmp_divisor: i32 = 6,
    /// Null-move reduction grows by one ply per this much static eval above beta (centipawns).
    nmp_eval_divisor: i32 = 200,
    /// Futility pruning of quiet plies: deepest remaining depth (plies).
    fp_max_depth: i32 = 6,
    /// Futility base margin (centipawns).
    fp_base: i32 = 100,
    /// Futility margin per ply of remaining depth (centipawns).
    fp_per_depth: i32 = 90,
    /// Late move pruning: deepest remaining depth (plies).
    lmp_max_depth: i32 = 6,
    /// Late move pruning: quiet plies tried before pruning is `lmp_base + depth * depth`.
    lmp_base: i32 = 3,
    /// SEE pruning of losing tactical plies: deepest remaining depth (plies).
    see_max_depth: i32 = 4,
    /// SEE pruning threshold per ply of remaining depth (centipawns, negated).
    see_margin: i32 = 90,
    /// LMR: shallowest remaining depth (plies).
    lmr_min_depth: i32 = 3,
    /// LMR: plies searched in full before reducing (at PV nodes one more).
    lmr_min_index: i32 = 2,
    /// LMR formula `base + ln(depth) * ln(index) / divisor`: base in hundredths of a ply.
    lmr_base_x100: i32 = 75,
    /// LMR formula divisor, in hundredths.
    lmr_divisor_x100: i32 = 225,
    /// LMR: one ply less (more) per this much positive (negative) history.
    lmr_history_divisor: i32 = 4096,
    /// 1: a TT score whose bound allows it replaces the static evaluation for pruning; 0: off.
    tt_eval_refine: i32 = 1,
    /// Internal iterative reduction: remaining depth (plies) from which a node without TT
    /// move is searched one ply shallower.
    iir_min_depth: i32 = 4,
    /// Largest history bonus (the bonus is depth * depth, capped here).
    history_bonus_max: i32 = 1600,
    /// History values stay within +-`history_max`.
    history_max: i32 = 16384,
    /// Soft time limit: the clock is divided by this when `movestogo` is unknown.
    time_default_mtg: u64 = 30,
    /// Soft time limit: permille of the increment added per turn.
    time_inc_permille: u64 = 750,
    /// Hard limit as a multiple of the soft limit (permille).
    time_hard_permille: u64 = 4000,
    /// Neither limit exceeds this permille of the remaining clock.
    time_max_permille: u64 = 600,
    /// Soft limit scale just after the best move changed (permille).
    time_unstable_permille: u64 = 1600,
    /// Soft limit scale once the best move has been stable for four iterations (permille).
    time_stable_permille: u64 = 650,
    /// Soft limit scale added per centipawn the score fell since the previous iteration
    /// (permille per centipawn).
    time_falling_per_cp: u64 = 8,
    /// Soft limit scale for a falling score at most (permille).
    time_falling_max_permille: u64 = 1500,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_view_by_name() {
        let mut p = PARAMS;
        assert_eq!(SearchParams::NAMES.len(), 32);
        for name in SearchParams::NAMES {
            assert!(p.get(name).is_some(), "{name}");
        }
        assert!(p.set("rfp_margin", 95));
        assert_eq!(p.rfp_margin, 95);
        assert_eq!(p.get("rfp_margin"), Some(95));
        assert!(!p.set("no_such_param", 1));
        assert_eq!(p.get("no_such_param"), None);
        assert!(p.set("time_default_mtg", -5));
        assert_eq!(p.time_default_mtg, 0);
    }
}
