//! Every tunable search parameter, declared once (name, type, default, range, step, doc) with
//! [`crate::tunables!`], which generates the [`SearchParams`] struct, its default [`PARAMS`]
//! and the by-name view of [`Tunables`] ([`Tunables::NAMES`], [`Tunables::get`],
//! [`Tunables::set`], [`Tunables::spec`]) for SPSA tuning.
//!
//! Depths are in plies, margins and scores in centipawns, times in permille or milliseconds.
//!
//! `docs/experiments.md` ("Kept parameters: values tried") has the matches that chose the
//! values measured in play, with their conditions, and the techniques that did not gain and
//! were removed.
//!
//! With the cargo feature `spsa`, every parameter is also a `spin` option of the protocol
//! (`spsa_option_lines`, `spsa_setoption`, built with the `spsa` feature) and [`active`] returns the values set there, so
//! that `menagerie match` can play differently parameterised engines (`scripts/spsa.py`).

pub use crate::core::tunables::Tunables;

crate::tunables! {
    /// The search's tunable constants. [`PARAMS`] is the value the engine plays with.
    #[derive(Copy)]
    pub struct SearchParams, default PARAMS {
        /// Half-width of the first aspiration window (centipawns).
        aspiration_delta: i32 = 25, (5, 100, 3);
        /// First iteration depth (plies) that uses an aspiration window.
        aspiration_min_depth: i32 = 5, (1, 12, 1);
        /// Reverse futility pruning: deepest remaining depth (plies) where it applies.
        rfp_max_depth: i32 = 7, (1, 14, 1);
        /// Reverse futility margin per ply of remaining depth (centipawns).
        rfp_margin: i32 = 80, (20, 250, 8);
        /// Razoring: deepest remaining depth (plies) where it applies.
        razor_max_depth: i32 = 3, (1, 8, 1);
        /// Razoring: a non-PV node whose static eval lies more than `razor_margin * depth`
        /// below alpha is resolved by a zero-window quiescence search when that fails low
        /// (centipawns per ply); 0: off.
        razor_margin: i32 = 250, (0, 800, 20);
        /// Check extension: plies a checking ply is searched deeper (within twice the iteration's
        /// depth from the root); 0: off.
        check_ext: i32 = 1, (0, 1, 1);
        /// Null-move pruning: shallowest remaining depth (plies).
        nmp_min_depth: i32 = 3, (1, 8, 1);
        /// Null-move base reduction (plies).
        nmp_base: i32 = 3, (1, 6, 1);
        /// Null-move reduction grows by one ply every `nmp_divisor` plies of depth.
        nmp_divisor: i32 = 6, (2, 12, 1);
        /// Null-move reduction grows by one ply per this much static eval above beta (centipawns).
        nmp_eval_divisor: i32 = 200, (50, 600, 20);
        /// Futility pruning of quiet plies: deepest remaining depth (plies).
        fp_max_depth: i32 = 6, (1, 12, 1);
        /// Futility base margin (centipawns).
        fp_base: i32 = 100, (0, 300, 10);
        /// Futility margin per ply of remaining depth (centipawns).
        fp_per_depth: i32 = 90, (20, 250, 8);
        /// Futility pruning of tactical plies (not the first, not giving check) within
        /// [`SearchParams::fp_max_depth`]: one is skipped when the static evaluation plus
        /// `fp_base + fp_tactical_margin * depth` plus the most its exchange can win
        /// ([`crate::variants::Evaluation::see_ge`]) stays at or below alpha (centipawns per ply);
        /// 0: off. A game without SEE (the default `see_ge`) never prunes.
        fp_tactical_margin: i32 = 100, (0, 400, 12);
        /// Late move pruning: deepest remaining depth (plies).
        lmp_max_depth: i32 = 6, (1, 12, 1);
        /// Late move pruning: quiet plies tried before pruning is `lmp_base + depth * depth`.
        lmp_base: i32 = 3, (0, 12, 1);
        /// SEE pruning of losing tactical plies: deepest remaining depth (plies).
        see_max_depth: i32 = 4, (1, 10, 1);
        /// SEE pruning threshold per ply of remaining depth (centipawns, negated).
        see_margin: i32 = 90, (20, 250, 8);
        /// LMR: shallowest remaining depth (plies).
        lmr_min_depth: i32 = 3, (1, 6, 1);
        /// LMR: plies searched in full before reducing (at PV nodes one more).
        lmr_min_index: i32 = 2, (1, 6, 1);
        /// LMR formula `base + ln(depth) * ln(index) / divisor`: base in hundredths of a ply.
        lmr_base_x100: i32 = 75, (0, 200, 8);
        /// LMR formula divisor, in hundredths.
        lmr_divisor_x100: i32 = 225, (100, 500, 15);
        /// LMR: one ply less (more) per this much positive (negative) history.
        lmr_history_divisor: i32 = 4096, (1024, 16384, 400);
        /// LMR: reduction taken off (plies) at a non-PV node whose TT entry was stored by a
        /// PV node (the "TT PV" flag of [`super::tt::TtEntry::pv`]); 0: off.
        lmr_tt_pv: i32 = 1, (0, 2, 1);
        /// LMR: extra reduction (plies) of a late ply when more than 3 beta cutoffs (one
        /// without a TT move counting 2) happened at the children's ply since the parent node
        /// began; 0: off.
        lmr_cutoff_count: i32 = 1, (0, 2, 1);
        /// LMR: extra reduction (plies) at an expected cut node.
        lmr_cut_node: i32 = 2, (0, 3, 1);
        /// LMR of tactical plies: 1 reduces late losing tactical plies like quiet ones, and
        /// quiet plies one ply more after a tactical TT ply; 0: off.
        lmr_tactical: i32 = 1, (0, 1, 1);
        /// A reduced ply that beats alpha is searched again one ply deeper than planned when
        /// its score beats the best so far by more than this (centipawns), one ply shallower
        /// when it does not beat the best by 8; 0: off (again at the planned depth).
        lmr_deeper_margin: i32 = 50, (0, 200, 8);
        /// ProbCut: shallowest remaining depth (plies).
        probcut_min_depth: i32 = 5, (3, 10, 1);
        /// ProbCut: margin above beta (centipawns) a tactical ply must reach.
        probcut_margin: i32 = 200, (50, 500, 15);
        /// Singular extensions: shallowest remaining depth (plies) where the TT ply is tested.
        se_min_depth: i32 = 7, (4, 12, 1);
        /// Singular extensions: the TT score less this many centipawns per ply of depth is the
        /// bar every other ply must stay under for the TT ply to be singular.
        se_margin: i32 = 2, (0, 12, 1);
        /// Quiescence delta pruning: a capture is skipped when even winning its exchange leaves
        /// the stand pat this many centipawns short of alpha (never in check).
        qs_delta_margin: i32 = 150, (0, 1000, 20);
        /// 1: a TT score whose bound allows it replaces the static evaluation for pruning; 0: off.
        tt_eval_refine: i32 = 1, (0, 1, 1);
        /// Internal iterative reduction: remaining depth (plies) from which a node without TT
        /// move is searched one ply shallower.
        iir_min_depth: i32 = 4, (2, 10, 1);
        /// History bonus (and malus) of a cutoff per ply of depth; 0: depth * depth instead.
        history_bonus_per_depth: i32 = 120, (0, 400, 10);
        /// Largest history bonus (capped here).
        history_bonus_max: i32 = 1600, (200, 4000, 100);
        /// History values stay within +-`history_max`.
        history_max: i32 = 16384, (4096, 32768, 1000);
        /// Soft time limit: the clock is divided by this when `movestogo` is unknown.
        time_default_mtg: u64 = 30, (10, 60, 2);
        /// Soft time limit: permille of the increment added per turn.
        time_inc_permille: u64 = 750, (300, 1000, 40);
        /// Hard limit as a multiple of the soft limit (permille).
        time_hard_permille: u64 = 4000, (1500, 8000, 250);
        /// Neither limit exceeds this permille of the remaining clock.
        time_max_permille: u64 = 600, (200, 900, 30);
        /// Soft limit scale just after the best move changed (permille).
        time_unstable_permille: u64 = 1600, (1000, 3000, 80);
        /// Soft limit scale once the best move has been stable for four iterations (permille).
        time_stable_permille: u64 = 650, (300, 1000, 30);
        /// Soft limit scale added per centipawn the score fell since the previous iteration
        /// (permille per centipawn); 0: off.
        time_falling_per_cp: u64 = 8, (0, 30, 1);
        /// Soft limit scale for a falling score at most (permille).
        time_falling_max_permille: u64 = 1500, (1000, 3000, 80);
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        PARAMS
    }
}

/// The parameters a new search uses: [`PARAMS`], or with the `spsa` feature the values last
/// set through `spsa_setoption` (starting from [`PARAMS`]).
#[cfg(not(feature = "spsa"))]
#[inline(always)]
pub fn active() -> SearchParams {
    PARAMS
}

/// The values set by `setoption` (feature `spsa`), shared by every session of the process.
#[cfg(feature = "spsa")]
static ACTIVE: std::sync::RwLock<SearchParams> = std::sync::RwLock::new(PARAMS);

/// The parameters a new search uses: [`PARAMS`], or with the `spsa` feature the values last
/// set through [`spsa_setoption`] (starting from [`PARAMS`]).
#[cfg(feature = "spsa")]
pub fn active() -> SearchParams {
    *ACTIVE.read().unwrap_or_else(|e| e.into_inner())
}

/// The `option name <param> type spin default <v> min <min> max <max>` line of every search
/// parameter, for the `uci` answer (feature `spsa`). Ranges are the declared ones.
#[cfg(feature = "spsa")]
pub fn spsa_option_lines() -> Vec<String> {
    let current = active();
    SearchParams::flat_names()
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let spec = SearchParams::spec(i);
            format!(
                "option name {name} type spin default {} min {} max {}",
                crate::core::tunables::TunableValue::get_at(&current, i),
                spec.min,
                spec.max
            )
        })
        .collect()
}

/// Applies `setoption name <name> value <value>` when `name` is a search parameter (names are
/// matched case-insensitively): `None` when it is not one (the protocol goes on with its own
/// options), `Some(Ok(()))` once set, `Some(Err(message))` for a missing, non-integer or
/// out-of-range value (nothing changed). Feature `spsa`.
#[cfg(feature = "spsa")]
pub fn spsa_setoption(name: &str, value: Option<&str>) -> Option<Result<(), String>> {
    let names = SearchParams::flat_names();
    let i = names.iter().position(|n| n.eq_ignore_ascii_case(name))?;
    let name = &names[i];
    let spec = SearchParams::spec(i);
    Some((|| {
        let text = value.ok_or_else(|| format!("option {name} needs a value"))?;
        let v: i64 = text
            .trim()
            .parse()
            .map_err(|_| format!("option {name}: '{text}' is not an integer"))?;
        if v < spec.min || v > spec.max {
            return Err(format!(
                "option {name}: {v} is out of range {}..{}",
                spec.min, spec.max
            ));
        }
        let mut guard = ACTIVE.write().unwrap_or_else(|e| e.into_inner());
        crate::core::tunables::TunableValue::set_at(&mut *guard, i, v);
        Ok(())
    })())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_view_by_name() {
        let mut p = PARAMS;
        assert_eq!(SearchParams::NAMES.len(), 47);
        assert_eq!(SearchParams::flat_names().len(), 47);
        for (i, name) in SearchParams::NAMES.iter().enumerate() {
            assert!(p.get(name).is_some(), "{name}");
            let spec = SearchParams::spec(i);
            let v = p.get(name).unwrap();
            assert!(
                spec.min <= v && v <= spec.max && spec.step > 0,
                "{name}: {spec:?}"
            );
        }
        p.set("rfp_margin", 95).unwrap();
        assert_eq!(p.rfp_margin, 95);
        assert_eq!(p.get("rfp_margin"), Some(95));
        assert!(p.set("no_such_param", 1).is_err());
        assert_eq!(p.get("no_such_param"), None);
        p.set("time_default_mtg", -5).unwrap();
        assert_eq!(p.time_default_mtg, 0);
        assert_eq!(active(), PARAMS);
    }

    #[cfg(feature = "spsa")]
    #[test]
    fn spsa_options() {
        let lines = spsa_option_lines();
        assert_eq!(lines.len(), 47);
        assert_eq!(
            lines[3],
            "option name rfp_margin type spin default 80 min 20 max 250"
        );
        assert_eq!(spsa_setoption("Hash", Some("3")), None);
        assert!(spsa_setoption("rfp_margin", Some("999")).unwrap().is_err());
        assert!(spsa_setoption("rfp_margin", Some("x")).unwrap().is_err());
        assert!(spsa_setoption("rfp_margin", None).unwrap().is_err());
        assert_eq!(active(), PARAMS);
    }
}
