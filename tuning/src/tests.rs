use super::*;
use menagerie::core::zobrist::SplitMix64;
use menagerie::variants::chess::eval::params::{EvalParams, DEFAULT};
use menagerie::variants::chess::Chess;
use menagerie::variants::game_outcome;
use menagerie::variants::mulligan_stew::eval::StewParams;
use menagerie::variants::mulligan_stew::MulliganStew;
use menagerie::variants::{PlyList, Rules};

/// Positions of seeded random chess playouts (varied material).
fn positions(games: u64, plies: usize) -> Vec<Chess> {
    let mut rng = SplitMix64::new(99);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Chess::startpos();
        for ply in 0..plies {
            let mut list = PlyList::<<Chess as Rules>::Move>::default();
            pos.legal_moves(&mut list);
            if list.is_empty() || game_outcome(&pos).is_some() {
                break;
            }
            pos.make(list[rng.below(list.len() as u64) as usize]);
            if ply % 4 == 3 {
                out.push(pos.clone());
            }
        }
    }
    out
}

/// Samples whose results are the expected scores of `truth` at `k` (a noiseless target).
fn synthetic(truth: &EvalParams, k: f64) -> Vec<Sample<Chess>> {
    positions(40, 80)
        .into_iter()
        .enumerate()
        .map(|(n, pos)| {
            let e = white_eval(&pos, truth) as f64;
            Sample {
                pos,
                result: sigmoid(e, k),
                score: e as i32,
                game: n as u64 / 10,
            }
        })
        .collect()
}

#[test]
fn k_fit_recovers_the_scale() {
    let data = synthetic(&DEFAULT, 1.3);
    assert!(data.len() > 500);
    let k = fit_k(&data, &DEFAULT, 1.0);
    assert!((k - 1.3).abs() < 0.01, "{k}");
    let l = texel_loss(&data, &DEFAULT, k, 1.0);
    assert!(l < 1e-6, "{l}");
    assert!(texel_loss(&data, &DEFAULT, 0.5, 1.0) > l);
    // K = 0 predicts 0.5 everywhere.
    let half: Vec<_> = data
        .iter()
        .cloned()
        .map(|mut s| {
            s.result = 1.0;
            s
        })
        .collect();
    assert!((texel_loss(&half, &DEFAULT, 0.0, 1.0) - 0.25).abs() < 1e-12);
}

#[test]
fn texel_loss_decreases_towards_the_truth() {
    // The "true" evaluation values knights 80 cp more and has no tempo bonus.
    let mut truth = DEFAULT.clone();
    truth.material[1].mg += 80;
    truth.material[1].eg += 80;
    truth.tempo.mg = 0;
    truth.tempo.eg = 0;
    let data = synthetic(&truth, 1.0);
    let (train, valid) = split_by_game(data, 0.2);
    assert!(!valid.is_empty() && train.len() > valid.len());
    let which = select::<EvalParams>(&["material[1]".into(), "tempo".into()], &[]).unwrap();
    assert_eq!(which.len(), 4);
    let before = texel_loss(&train, &DEFAULT, 1.0, 1.0);
    let before_valid = texel_loss(&valid, &DEFAULT, 1.0, 1.0);
    let cfg = TexelConfig {
        rounds: 3,
        iterations: 150,
        learning_rate: 2.0,
        ..TexelConfig::default()
    };
    let (tuned, rounds) = tune(&train, &valid, &DEFAULT, &which, 1.0, &cfg, &mut |_| {});
    assert_eq!(rounds.len(), 3);
    let after = rounds.last().unwrap();
    assert!(after.train < before * 0.2, "{before} -> {}", after.train);
    assert!(
        after.validation < before_valid * 0.3,
        "{before_valid} -> {}",
        after.validation
    );
    // The knight moved most of the way to the truth, the tempo towards 0.
    let gain = tuned.material[1].mg - DEFAULT.material[1].mg;
    assert!(gain > 40, "{gain}");
    assert!(tuned.tempo.mg < DEFAULT.tempo.mg, "{:?}", tuned.tempo);
    // Only the selected parameters moved.
    for (name, _, _) in changes(&DEFAULT, &tuned) {
        assert!(
            name.starts_with("material[1]") || name.starts_with("tempo"),
            "{name}"
        );
    }
}

#[test]
fn linearisation_is_exact_for_linear_terms() {
    let data = synthetic(&DEFAULT, 1.0);
    let which = select::<EvalParams>(&["material[3].eg".into()], &[]).unwrap();
    let lin = Linearised::measure(&data, &DEFAULT, &which);
    let mut moved = DEFAULT.clone();
    moved.material[3].eg += 30;
    let model = lin.evals(&[30.0]);
    let (mut worst, mut sum) = (0.0f64, 0.0);
    for (s, m) in data.iter().zip(&model) {
        let err = (white_eval(&s.pos, &moved) as f64 - m).abs();
        worst = worst.max(err);
        sum += err;
    }
    // Rounding only (taper, endgame scale).
    assert!(worst <= 4.0, "{worst}");
    assert!(
        sum / (data.len() as f64) < 0.6,
        "{}",
        sum / data.len() as f64
    );
}

#[test]
fn data_lines_parse_and_errors_name_the_line() {
    let text = "# game 0 result 1-0\n\
        2kk2/6/6/6/6/6/2KK2[M] w - - 0 1 pool:-/- | 35 | 1\n\
        \n\
        # game 1 result 1/2-1/2\n\
        2kk2/6/6/6/6/6/2KK2[M] b - - 0 1 pool:-/- | -10 | 0.5\n";
    let s = parse_data::<MulliganStew>(text, "a.txt", 5).unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!((s[0].result, s[0].score, s[0].game), (1.0, 35, 5));
    assert_eq!((s[1].result, s[1].score, s[1].game), (0.5, -10, 6));
    for (bad, what) in [
        (
            "2kk2/6/6/6/6/6/2KK2[M] w - - 0 1 pool:-/- | 35",
            "expected 'FEN | score | result'",
        ),
        (
            "2kk2/6/6/6/6/6/2KK2[M] w - - 0 1 pool:-/- | x | 1",
            "bad score 'x'",
        ),
        (
            "2kk2/6/6/6/6/6/2KK2[M] w - - 0 1 pool:-/- | 3 | 2",
            "bad result '2'",
        ),
        ("2kk2/6/6 w - - 0 1 | 3 | 1", "bad FEN"),
    ] {
        let Err(e) = parse_data::<MulliganStew>(&format!("# game\n{bad}\n"), "b.txt", 0) else {
            panic!("{bad} accepted");
        };
        assert_eq!((e.file.as_str(), e.line), ("b.txt", 2), "{e}");
        assert!(e.to_string().starts_with("b.txt:2: "), "{e}");
        assert!(e.reason.contains(what), "{e} / {what}");
    }
}

#[test]
fn values_files_round_trip() {
    let mut p = menagerie::variants::mulligan_stew::eval::STEW_DEFAULT;
    let pawn = p.pawn as i64;
    p.pawn += 23;
    let text = write_values(&p);
    let mut q = menagerie::variants::mulligan_stew::eval::STEW_DEFAULT;
    read_values(&text, "v.txt", &mut q).unwrap();
    assert_eq!(p, q);
    assert_eq!(
        changes(&StewParams::defaults().clone(), &q),
        vec![("pawn".into(), pawn, pawn + 23)]
    );
    let e = read_values("# x\npawnz = 3\n", "v.txt", &mut q).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("v.txt:2: unknown parameter 'pawnz'"),
        "{e}"
    );
    let e = read_values("pawn = x\n", "v.txt", &mut q).unwrap_err();
    assert_eq!(e.to_string(), "v.txt:1: bad value 'x' (an integer)");
    assert!(select::<StewParams>(&["nope".into()], &[]).is_err());
    assert_eq!(
        select::<StewParams>(&[], &["pawn".into()]).unwrap().len(),
        13
    );
}

#[test]
fn a_missing_file_is_named() {
    let Err(e) = load_data::<MulliganStew>(&["no/such/file.txt".into()]) else {
        panic!("a missing file loaded");
    };
    assert!(e.to_string().starts_with("no/such/file.txt: "), "{e}");
}
