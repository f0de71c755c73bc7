//! The evaluation parameter sets of every variant: declared once with `tunables!`,
//! named, ranged, and `evaluate_with` on the set in play equal to `evaluate`.

use menagerie::core::tunables::{TunableValue, Tunables};
use menagerie::variants::game_outcome;
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::{Game, Variant};

/// Positions of seeded random playouts of `G` (from its random setups where it has them): the
/// positions after each ply, until the game ends.
fn playout_positions<G: Game>(games: u64, plies: usize) -> Vec<G> {
    let mut playout = Playout::new(15, plies);
    let mut out = Vec::new();
    for g in 0..games {
        let mut pos = G::random_setup(g).unwrap_or_else(G::startpos);
        playout.run(&mut pos, |pos, at| {
            if at.ply > 0 {
                out.push(pos.clone());
            }
            Next::stop_if(game_outcome(pos).is_some())
        });
    }
    out
}

fn default_set_is_the_one_in_play<G: Game>() {
    let p = G::eval_params();
    let positions = playout_positions::<G>(12, 120);
    assert!(positions.len() > 200, "{}", G::INFO.name);
    for pos in &positions {
        assert_eq!(
            pos.evaluate_with(p),
            pos.evaluate(),
            "{}: {}",
            G::INFO.name,
            pos.fen()
        );
    }
}

#[test]
fn evaluate_with_the_default_set_is_evaluate() {
    for &v in Variant::ALL {
        menagerie::with_variant!(v, G => default_set_is_the_one_in_play::<G>());
    }
}

fn names_and_ranges<G: Game>() {
    let p = G::eval_params().clone();
    let names = G::EvalParams::flat_names();
    assert!(!names.is_empty(), "{}", G::INFO.name);
    assert_eq!(names.len(), G::EvalParams::count());
    let unique: std::collections::HashSet<_> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "{}", G::INFO.name);
    for (i, name) in names.iter().enumerate() {
        let spec = G::EvalParams::spec(i);
        let v = p.get_at(i);
        assert!(
            spec.min <= v && v <= spec.max && spec.step > 0,
            "{}: {name} = {v} outside {spec:?}",
            G::INFO.name
        );
        assert_eq!(p.get(name), Some(v));
    }
    // Round trip through the flat vector, and by name.
    let mut q = p.clone();
    q.set_values(&p.values()).unwrap();
    assert_eq!(&q, G::eval_params());
    assert!(q.set("no such parameter", 3).is_err());
    assert!(q.set_values(&[1]).is_err());
}

#[test]
fn every_variant_declares_named_ranged_parameters() {
    for &v in Variant::ALL {
        menagerie::with_variant!(v, G => names_and_ranges::<G>());
    }
}

/// Changing a parameter through the by-name view changes the evaluation: the set is the one
/// `evaluate_with` reads.
fn parameter_moves_the_evaluation<G: Game>(name: &str) {
    let positions = playout_positions::<G>(4, 60);
    let mut p = G::eval_params().clone();
    let v = p
        .get(name)
        .unwrap_or_else(|| panic!("{}: no {name}", G::INFO.name));
    p.set(name, v + 150).unwrap();
    let moved = positions
        .iter()
        .filter(|pos| pos.evaluate_with(&p) != pos.evaluate())
        .count();
    assert!(moved > 0, "{}: {name} changes nothing", G::INFO.name);
}

#[test]
fn parameters_reach_the_evaluation() {
    parameter_moves_the_evaluation::<menagerie::variants::chess::Chess>("material[1].mg");
    parameter_moves_the_evaluation::<menagerie::variants::muster::Muster>("material[0].eg");
    parameter_moves_the_evaluation::<menagerie::variants::mystic::Mystic>("coin_before_unlock");
    parameter_moves_the_evaluation::<menagerie::variants::mystic::Mystic>("board.tempo.mg");
    parameter_moves_the_evaluation::<menagerie::variants::mulligan_stew::MulliganStew>("pawn");
    parameter_moves_the_evaluation::<menagerie::variants::mitosis::Mitosis>("value[8]");
    parameter_moves_the_evaluation::<menagerie::variants::mutatis_mutandis::MutatisMutandis>(
        "tempo",
    );
    // Piece values reach `evaluate_with` through a table made from its set, not the default's.
    parameter_moves_the_evaluation::<menagerie::variants::mutatis_mutandis::MutatisMutandis>(
        "next_share_permille",
    );
}
