//! The `wdl W D L` of `info` lines (`UCI_ShowWDL`, docs/protocol.md 6): for every variant's
//! model, over every score the search can report, the three shares sum to 1000 and move with
//! the score.

use menagerie::protocol::output::wdl;
use menagerie::search::score::{to_protocol, MATE, MATE_BOUND};
use menagerie::search::Score;
use menagerie::variants::{Game, Rules, Variant, WdlModel};

/// The first fault of a run of `wdl`s in rising score order, each with a label: a sum other
/// than 1000, a win share that falls or a loss share that rises.
fn first_fault(run: &[(String, [u32; 3])]) -> Option<String> {
    let mut prev: Option<&(String, [u32; 3])> = None;
    for item in run {
        let (label, [w, d, l]) = item;
        if w + d + l != 1000 {
            return Some(format!("{label}: wdl {w} {d} {l} does not sum to 1000"));
        }
        if let Some((plabel, [pw, pd, pl])) = prev {
            if w < pw || l > pl {
                return Some(format!(
                    "{plabel}: wdl {pw} {pd} {pl}, then the higher {label}: wdl {w} {d} {l}"
                ));
            }
        }
        prev = Some(item);
    }
    None
}

/// The `wdl` of `model` at the internal scores `-MATE ..= MATE - 1` in rising order, each
/// turned into what the protocol prints by the search's own conversion (`to_protocol`, from
/// `root`, with no PV, so that a mate score's plies become the turns of `mate N`). `MATE`
/// itself (a win at the root, no ply played) is not a score the search reports: a decided
/// root is printed by the protocol itself (src/search/mod.rs).
fn run<G: Game>(model: &WdlModel, root: &G) -> Vec<(String, [u32; 3])> {
    (-MATE..MATE)
        .map(|s| {
            let score = to_protocol(s, root, &[]);
            (format!("{score:?} (internal {s})"), wdl(score, model))
        })
        .collect()
}

/// Every variant's fitted model: sums of 1000 and monotone over the whole score range, mate
/// scores included; a mate for the side to move is a certain win, a mate against it a loss.
#[test]
fn wdl_sums_to_1000_and_follows_the_score_in_every_variant() {
    for &v in Variant::ALL {
        menagerie::with_variant!(v, G => {
            let name = G::INFO.name;
            let root = G::startpos();
            let run = run(&G::SEARCH.wdl, &root);
            assert_eq!(run.len(), 2 * MATE as usize);
            if let Some(fault) = first_fault(&run) {
                panic!("{name} {:?}: {fault}", G::SEARCH.wdl);
            }
            assert_eq!(to_protocol(-MATE, &root, &[]), Score::Mate(0), "{name}");
            assert_eq!(run[0].1, [0, 0, 1000], "{name}: mated");
            assert_eq!(to_protocol(-MATE + 1, &root, &[]), Score::Mate(-1), "{name}");
            assert_eq!(to_protocol(MATE - 1, &root, &[]), Score::Mate(1), "{name}");
            assert_eq!(run[run.len() - 1].1, [1000, 0, 0], "{name}: mate in 1");
            assert_eq!(to_protocol(MATE_BOUND - 1, &root, &[]), Score::Cp(MATE_BOUND - 1));
            assert!(matches!(to_protocol(MATE_BOUND, &root, &[]), Score::Mate(n) if n > 1));
            // The model's own range: a clear edge is mostly a win, a clear deficit mostly a
            // loss, and the evaluation's largest scores come near certainty.
            let at = |cp: i32| wdl(Score::Cp(cp), &G::SEARCH.wdl);
            assert!(at(1000)[0] > at(-1000)[0] && at(1000)[2] < at(-1000)[2], "{name}");
            assert!(at(MATE_BOUND - 1)[0] >= 990, "{name}: {:?}", at(MATE_BOUND - 1));
            assert!(at(-(MATE_BOUND - 1))[2] >= 990, "{name}: {:?}", at(-(MATE_BOUND - 1)));
        });
    }
}

/// The model function alone, for models no variant has (the generic one, no draw margin, a
/// wide and a narrow spread, the out-of-range parameters it clamps), over every `i32` score
/// class: centipawns far beyond any evaluation included.
#[test]
fn wdl_model_is_monotone_for_any_parameters() {
    let models = [
        WdlModel::GENERIC,
        WdlModel { a: 0.0, b: 603.0 },
        WdlModel { a: 530.0, b: 1.0 },
        WdlModel { a: 2000.0, b: 50.0 },
        WdlModel { a: -30.0, b: 0.0 },
    ];
    for model in models {
        let mut cps: Vec<i32> = vec![i32::MIN, i32::MIN + 1];
        cps.extend(-40_000..=40_000);
        cps.extend([i32::MAX - 1, i32::MAX]);
        let run: Vec<(String, [u32; 3])> = cps
            .iter()
            .map(|&cp| (format!("cp {cp}"), model.permille(cp)))
            .collect();
        if let Some(fault) = first_fault(&run) {
            panic!("{model:?}: {fault}");
        }
        assert_eq!(run[0].1, [0, 0, 1000], "{model:?}");
        assert_eq!(run[run.len() - 1].1, [1000, 0, 0], "{model:?}");
        // Symmetric: the side to move's win at +x is its loss at -x.
        for cp in [0, 1, 57, 208, 999, 5000] {
            let [w, _, l] = model.permille(cp);
            let [w2, _, l2] = model.permille(-cp);
            assert!(
                w.abs_diff(l2) <= 1 && l.abs_diff(w2) <= 1,
                "{model:?} at +-{cp}"
            );
        }
    }
}

/// The check can fail: shares that fall with the score, or that do not sum to 1000, are
/// caught.
#[test]
fn a_wrong_wdl_is_caught() {
    let inverted: Vec<(String, [u32; 3])> = (-1000..=1000)
        .map(|cp| (format!("cp {cp}"), WdlModel::GENERIC.permille(-cp)))
        .collect();
    assert!(first_fault(&inverted).unwrap().contains("then the higher"));
    let short = vec![("cp 0".to_string(), [300, 300, 300])];
    assert!(first_fault(&short).unwrap().contains("does not sum"));
    let flat = vec![("cp 0".to_string(), [0, 1000, 0]); 3];
    assert_eq!(first_fault(&flat), None);
}
