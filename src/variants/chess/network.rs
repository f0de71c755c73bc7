//! Chess's network inputs ([`NetInputs`]), 768 per perspective: the orthodox board's
//! ([`board_inputs`]: colour relative to the perspective, kind, square seen from the
//! perspective, Black's ranks mirrored), the design every variant's network shares
//! ([`crate::variants::network`]).
//!
//! Make records the men that move, land and go through the orthodox make's
//! [`crate::variants::orthodox::inputs::BoardUpdate`] hook into the position's
//! [`crate::variants::network::NetAccumulator`]. The evaluation adds the residual weighted
//! by `net_permille` ([`super::eval`]).
//!
//! The compiled-in network (`network.nnv`, chess's fourth network: self-play positions scored
//! by Stockfish, docs/tuning.md) is the default in builds with the `nnue` feature (a default
//! one); without it the slot starts empty and `EvalFile` may fill it. `network.nnv.check` holds
//! positions with the output the trainer's integer model gave (`tuning/nnue/train.py`).

use crate::core::Color;
use crate::variants::network::{DefaultNet, InputList, NetAccumulator, NetInputs, NetSlot};
use crate::variants::orthodox::inputs::{board_inputs, BOARD_INPUTS};

use super::Chess;

/// Chess's compiled-in network (`network.nnv`), in builds with the `nnue` feature.
static SLOT: NetSlot = if cfg!(feature = "nnue") {
    NetSlot::with_default(DefaultNet {
        variant: "chess",
        inputs: BOARD_INPUTS,
        bytes: include_bytes!("network.nnv"),
    })
} else {
    NetSlot::new()
};

impl NetInputs for Chess {
    const INPUTS: usize = BOARD_INPUTS;

    #[inline]
    fn inputs(&self, perspective: Color, out: &mut InputList) {
        board_inputs(&self.board, perspective, out);
    }

    fn slot() -> &'static NetSlot {
        &SLOT
    }

    fn accumulator(&self) -> &NetAccumulator {
        &self.acc
    }

    fn accumulator_mut(&mut self) -> &mut NetAccumulator {
        &mut self.acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::eval::{self, params::DEFAULT};
    use crate::variants::network::{assert_kept_sums_match, Network};
    use crate::variants::orthodox::{Move, MoveKind};
    use crate::variants::{Evaluation, Game, Notation, Rules};

    fn compiled_in() -> Network {
        Network::parse(include_bytes!("network.nnv"), "chess", Chess::INPUTS)
            .expect("network.nnv parses")
    }

    #[test]
    fn the_compiled_network_parses_and_is_the_default_with_the_feature() {
        let net = compiled_in();
        assert_eq!(net.w1.len(), 768);
        assert_eq!(SLOT.default_net().is_some(), cfg!(feature = "nnue"));
        if cfg!(feature = "nnue") {
            assert_eq!(SLOT.get(), Some(&net));
        }
    }

    /// The search score is the hand-written one plus the residual times `net_permille`
    /// (none without the `nnue` feature).
    #[test]
    fn the_search_score_adds_the_weighted_residual() {
        let hce = eval::params::EvalParams {
            net_permille: 0,
            ..DEFAULT
        };
        let net = compiled_in();
        for fen in Chess::SEARCH.bench_fens {
            let pos = Chess::from_fen(fen).unwrap();
            if crate::variants::chess::endgame::scale(pos.board(), pos.side_to_move()).is_some() {
                continue;
            }
            let by_hand = eval::evaluate_with(&pos, &hce);
            let want = if cfg!(feature = "nnue") {
                by_hand + net.evaluate(&pos) * DEFAULT.net_permille / 1000
            } else {
                by_hand
            };
            assert_eq!(pos.evaluate(), want, "{fen}");
        }
    }

    /// The trainer's integer model of the network (`network.nnv.check`, written by
    /// `tuning/nnue/train.py` with the file) and the engine's agree to the centipawn.
    #[test]
    fn matches_the_trainers_integer_model() {
        let net = compiled_in();
        let mut n = 0;
        for line in include_str!("network.nnv.check").lines() {
            let Some((fen, cp)) = line.rsplit_once('|') else {
                continue;
            };
            let pos = Chess::from_fen(fen.trim()).expect("valid FEN");
            let cp: i32 = cp.trim().parse().expect("centipawns");
            assert_eq!(net.evaluate(&pos), cp, "{fen}");
            n += 1;
        }
        assert!(n >= 4, "too few check positions");
    }

    /// The sums kept through make/unmake are the sums from scratch: quiet moves, captures,
    /// both castlings (orthodox and Chess960), en passant, promotions with and without
    /// capture, null moves, moves taken back unevaluated.
    #[test]
    fn the_kept_sums_are_the_sums_from_scratch() {
        use crate::variants::orthodox::make::tests::EVERY_PLY_KIND;
        // En passant is one of five moves in the last two.
        let ep = [
            "7k/8/8/3pP3/8/8/8/K7 w - d6 0 1",
            "k7/8/8/8/3Pp3/8/8/7K b - d3 0 1",
        ];
        let fens: Vec<&str> = EVERY_PLY_KIND.iter().chain(&ep).copied().collect();
        let mut kinds = [0usize; 4];
        let tally = |pos: &Chess, m: Move| {
            let i = match m.kind() {
                MoveKind::Castle => 0,
                MoveKind::EnPassant => 1,
                _ if m.promotion().is_some() => 2,
                _ if !pos.board().piece_at(m.to()).is_none() => 3,
                _ => return,
            };
            kinds[i] += 1;
        };
        let start = |game: u64| Chess::from_fen(fens[game as usize % fens.len()]).unwrap();
        assert_kept_sums_match(60, 40, 0x4348_4553, 5, start, tally);
        assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
    }

    /// A detached position (perft's, `Evaluation::detach_network`) records nothing and
    /// computes no sums, while the same plies on an attached copy are recorded (with the
    /// network in the slot); its evaluation stays the attached copy's.
    #[test]
    fn a_detached_position_keeps_no_sums_and_evaluates_alike() {
        use crate::variants::playout::{Next, Playout};
        let with_net = Chess::slot().get().is_some();
        let mut playout = Playout::new(0x4445_5441, 12);
        for fen in Chess::SEARCH.bench_fens {
            let mut kept = Chess::from_fen(fen).unwrap();
            let mut detached = kept.clone();
            detached.detach_network();
            let made = playout.run(&mut kept, |kept, at| {
                if let Some(m) = at.last {
                    detached.make(m);
                    assert_eq!(kept.acc.recording(), with_net, "{}", kept.fen());
                    assert!(!detached.acc.recording(), "{}", detached.fen());
                    assert_eq!(detached.acc.sums_kept(), 1, "{}", detached.fen());
                    assert_eq!(detached.evaluate(), kept.evaluate(), "{}", kept.fen());
                }
                Next::Random
            });
            for _ in 0..made {
                kept.unmake();
                detached.unmake();
                assert_eq!(detached.fen(), kept.fen());
                assert_eq!(detached.evaluate(), kept.evaluate(), "{}", kept.fen());
            }
        }
    }

    /// Colour symmetry: the mirrored position with the other side to move scores the same.
    #[test]
    fn colour_mirror_scores_the_same() {
        let net = compiled_in();
        for fen in Chess::SEARCH.bench_fens {
            let pos = Chess::from_fen(fen).unwrap();
            let mirrored =
                Chess::from_fen(&crate::variants::orthodox::eval::tests::mirror_fen(fen)).unwrap();
            assert_eq!(net.evaluate(&pos), net.evaluate(&mirrored), "{fen}");
        }
    }
}
