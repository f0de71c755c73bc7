//! Seeded random playouts, for the tests: the one loop that plays a random legal ply from a
//! seeded generator, again and again, until the game has no legal ply, the caller's visitor
//! stops it, or a number of plies is reached; the visitor is shown every position on the way,
//! with its legal plies, and checks or collects what its test wants. Generic over [`Game`] and
//! used by the unit tests of the crate and the integration tests alike; the engine never
//! calls it.
//!
//! The same seed gives the same playouts on every machine and build ([`SplitMix64`]); one
//! [`Playout`] run on several games draws them all from one stream, each game going on
//! where the last one stopped.

use crate::core::zobrist::SplitMix64;
use crate::core::MoveBuffer;
use crate::variants::{Game, GameMove, PlyList};

/// What a playout's visitor wants after seeing a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Next<M> {
    /// Go on with a legal ply picked uniformly: `legal[rng.below(legal.len())]`.
    Random,
    /// Go on with this ply, one of the legal plies (a visitor's own pick, e.g. biased towards
    /// captures so that games end, drawn from [`Reached::rng`]).
    Play(M),
    /// Stop the playout here.
    Stop,
}

impl<M> Next<M> {
    /// [`Next::Stop`] where `done` holds, else [`Next::Random`].
    pub fn stop_if(done: bool) -> Next<M> {
        if done {
            Next::Stop
        } else {
            Next::Random
        }
    }
}

/// A position of a playout as its visitor sees it (the position itself is the visitor's first
/// argument).
pub struct Reached<'a, M: GameMove> {
    /// The plies made from the playout's start to here.
    pub ply: usize,
    /// The ply that led here: `None` at the start.
    pub last: Option<M>,
    /// The legal plies here, in the generator's order (empty where the game has none).
    pub legal: &'a PlyList<M>,
    /// Whether the playout ends here whatever the visitor answers: there is no legal ply, or
    /// the ply limit is reached. (Elsewhere it goes on unless the visitor answers
    /// [`Next::Stop`].)
    pub at_end: bool,
    /// The playout's generator, for a visitor that draws numbers of its own (to pick its ply,
    /// or anything else): what it draws changes the plies picked after it, the same way for
    /// the same seed, and those of the next playout of the same [`Playout`] when drawn where
    /// [`Reached::at_end`] holds.
    pub rng: &'a mut SplitMix64,
}

/// Seeded random playouts: a generator and the most plies one playout makes.
#[derive(Clone, Debug)]
pub struct Playout {
    rng: SplitMix64,
    plies: usize,
}

impl Playout {
    /// Playouts drawn from `seed`, each at most `plies` plies long.
    pub fn new(seed: u64, plies: usize) -> Playout {
        Playout {
            rng: SplitMix64::new(seed),
            plies,
        }
    }

    /// Plays one playout on `pos`, leaving it at the last position reached, and returns the
    /// plies made. `visit` is called at every position reached, the start and the last
    /// included, before a ply is made there (so every position but the last is followed by a
    /// ply), and says which ply ([`Next`]); it may make and unmake plies on the position but
    /// must leave it as it found it. The playout stops after the position where `visit`
    /// answers [`Next::Stop`], where there is no legal ply, or where `plies` plies have been
    /// made (what `visit` answers there is not used). It never asks whether the game is over:
    /// a visitor that wants the playout to end with the game (a rule ending it while legal
    /// plies remain, such as a draw by a move counter) stops it there.
    pub fn run<G: Game>(
        &mut self,
        pos: &mut G,
        mut visit: impl FnMut(&mut G, &mut Reached<'_, G::Move>) -> Next<G::Move>,
    ) -> usize {
        let mut legal = PlyList::<G::Move>::default();
        let (mut ply, mut last) = (0, None);
        loop {
            legal.clear();
            pos.legal_moves(&mut legal);
            let at_end = legal.is_empty() || ply == self.plies;
            let mut reached = Reached {
                ply,
                last,
                legal: &legal,
                at_end,
                rng: &mut self.rng,
            };
            let next = visit(pos, &mut reached);
            if at_end {
                return ply;
            }
            let m = match next {
                Next::Stop => return ply,
                Next::Random => legal[self.rng.below(legal.len() as u64) as usize],
                Next::Play(m) => {
                    debug_assert!(legal.contains(&m), "{m:?} is no legal ply here");
                    m
                }
            };
            pos.make(m);
            (ply, last) = (ply + 1, Some(m));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::mock::{Pick, TwoStep};
    use crate::variants::{Notation, Rules};

    /// Every position is shown once, the start and the last included, each with the ply that
    /// led to it and its legal plies; the position is left at the last one.
    #[test]
    fn the_visitor_sees_every_position_of_the_playout() {
        let mut pos = TwoStep::startpos();
        let mut seen = Vec::new();
        let plies = Playout::new(3, 100).run(&mut pos, |p, at| {
            let mut legal = PlyList::<Pick>::default();
            p.legal_moves(&mut legal);
            assert_eq!(&at.legal[..], &legal[..]);
            assert_eq!(at.at_end, at.legal.is_empty() || at.ply == 100);
            seen.push((at.ply, at.last, p.pile()));
            Next::Random
        });
        // Ten stones, one or two a ply (or none): the game ends, with no legal ply.
        assert_eq!(pos.pile(), 0);
        assert_eq!(seen.len(), plies + 1);
        assert_eq!(seen[0], (0, None, 10));
        for (i, w) in seen.windows(2).enumerate() {
            let taken = match w[1].1.expect("a ply led here") {
                Pick::PASS => 0,
                Pick(n) => n,
            };
            assert_eq!(w[1].0, i + 1);
            assert_eq!(w[0].2 - taken, w[1].2);
        }
    }

    /// The ply limit, a visitor that breaks, and the same plies from the same seed.
    #[test]
    fn playouts_stop_where_told_and_repeat_from_their_seed() {
        let line = |seed: u64, plies: usize, stop: usize| {
            let mut pos = TwoStep::startpos();
            let mut line = Vec::new();
            let made = Playout::new(seed, plies).run(&mut pos, |_, at| {
                assert_eq!(at.at_end, at.legal.is_empty() || at.ply == plies);
                line.extend(at.last);
                Next::stop_if(at.ply == stop)
            });
            assert_eq!(made, line.len());
            line
        };
        assert_eq!(line(5, 3, 100).len(), 3);
        assert_eq!(line(5, 100, 2).len(), 2);
        assert_eq!(line(5, 3, 100), line(5, 100, 100)[..3]);
        assert_eq!(line(9, 100, 100), line(9, 100, 100));
        // A visitor's own plies: ten stones one by one.
        let mut pos = TwoStep::startpos();
        assert_eq!(
            Playout::new(1, 100).run(&mut pos, |_, _| Next::Play(Pick(1))),
            10
        );
        // Uniform picks are `list[rng.below(len)]`, from one stream across games.
        let mut playout = Playout::new(5, 3);
        let mut rng = SplitMix64::new(5);
        for _ in 0..4 {
            let (mut pos, mut by_hand) = (TwoStep::startpos(), TwoStep::startpos());
            playout.run(&mut pos, |_, _| Next::Random);
            for _ in 0..3 {
                let mut legal = PlyList::<Pick>::default();
                by_hand.legal_moves(&mut legal);
                by_hand.make(legal[rng.below(legal.len() as u64) as usize]);
            }
            assert_eq!(pos.fen(), by_hand.fen());
        }
    }
}
