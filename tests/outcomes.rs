//! The end of the game, one property for every variant: along random
//! playouts (biased towards captures, so that games end), at every position
//! - `outcome()` is `Some` exactly when the rules end the game: no legal ply, or a rule of
//!   `verdict(Scope::Game)`;
//! - the scopes nest: a win rule of perft (`Scope::Wins`) is the outcome, the outcome is what a
//!   referee records, and a claimable draw is only offered while the game goes on;
//! - the search agrees: inside its tree (`Scope::Search`, else no legal ply) it sees every
//!   outcome with the same result, and it never sees a win or a loss where the game goes on;
//!   at the root it returns no move exactly when the game is over, with the outcome's score;
//! - the position is valid (`Game::validate`: the FEN reads back with the same key, and the
//!   variant's own invariants).

use menagerie::search::score::MATE;
use menagerie::search::{search, Limits, Score, SearchControl, SearchOptions, Tt};
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::{adjudicated_outcome, claimable_draw, game_outcome};
use menagerie::variants::{Game, GameResult, PlyList, Scope, Terminal, Variant};

/// Positions that end games, by variant, besides what the playouts reach.
fn endings(variant: &str) -> &'static [&'static str] {
    match variant {
        "chess" => &[
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "8/8/8/8/8/2k5/8/K7 w - - 0 1",
            "7k/8/6K1/8/8/8/8/1R6 w - - 150 120",
            "R6k/8/7K/8/8/8/8/8 b - - 150 120",
        ],
        "muster" => &[
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
        ],
        "mystic" => &[
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1 coins:0/0 bought:3/3",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:0/0 bought:3/3",
        ],
        _ => &[],
    }
}

/// The score the search reports for a root decided with `terminal` for the side to move.
fn root_score(terminal: Terminal) -> Score {
    match terminal {
        Terminal::Loss => Score::Mate(0),
        Terminal::Draw => Score::Cp(0),
        Terminal::Win => Score::Cp(MATE),
    }
}

/// Checks every property at `p`; `deep` adds a search of the root. Returns whether the game is
/// over.
fn check<G: Game>(p: &G, tt: &Tt, deep: bool) -> bool {
    let name = G::INFO.name;
    let fen = p.fen();
    let side = p.side_to_move();
    let mut legal = PlyList::<G::Move>::default();
    p.legal_moves(&mut legal);
    let outcome = game_outcome(p);
    let game = p.verdict(Scope::Game);
    // outcome() is Some exactly when the rules end the game.
    assert_eq!(
        outcome.is_some(),
        legal.is_empty() || game.is_some(),
        "{name} {fen}: outcome {outcome:?}, {} legal plies, game verdict {game:?}",
        legal.len()
    );
    if let (Some(o), Some(g)) = (&outcome, game) {
        assert_eq!(o.result, g.result(side), "{name} {fen}");
    }
    // The win rules of perft are outcomes with the same result.
    if let Some(w) = p.verdict(Scope::Wins) {
        assert_ne!(
            w.terminal,
            Terminal::Draw,
            "{name} {fen}: a draw among the wins"
        );
        assert_eq!(
            outcome.as_ref().map(|o| o.result),
            Some(w.result(side)),
            "{name} {fen}: win rule {w:?}"
        );
    }
    // A game verdict is also the referee's.
    if let Some(g) = game {
        assert_eq!(
            p.verdict(Scope::Claims).map(|c| c.terminal),
            Some(g.terminal),
            "{name} {fen}"
        );
    }
    match (&outcome, claimable_draw(p)) {
        (Some(_), Some(c)) => panic!("{name} {fen}: claim '{c}' of a finished game"),
        (None, Some(_)) => assert_eq!(
            adjudicated_outcome(p).map(|o| o.result),
            Some(GameResult::Draw),
            "{name} {fen}"
        ),
        (o, None) => assert_eq!(&adjudicated_outcome(p), o, "{name} {fen}"),
    }
    // The search's view of the same position inside its tree.
    let node = p
        .verdict(Scope::Search(1))
        .or_else(|| legal.is_empty().then(|| p.no_moves_verdict()));
    match &outcome {
        Some(o) => assert_eq!(
            node.map(|v| v.result(side)),
            Some(o.result),
            "{name} {fen}: outcome {o:?}, search {node:?}"
        ),
        None => assert!(
            node.is_none_or(|v| v.terminal == Terminal::Draw),
            "{name} {fen}: the game goes on, the search sees {node:?}"
        ),
    }
    // The search's view at the root: no move exactly when the game is over.
    if deep || outcome.is_some() {
        tt.clear();
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let r = search(
            p,
            &limits,
            &SearchOptions::default(),
            tt,
            &SearchControl::default(),
            &mut |_| {},
        );
        match &outcome {
            Some(o) => {
                assert_eq!(r.best, None, "{name} {fen}: a move after {o:?}");
                let terminal = match o.result {
                    GameResult::Draw => Terminal::Draw,
                    r if r == GameResult::win_for(side) => Terminal::Win,
                    _ => Terminal::Loss,
                };
                assert_eq!(r.score, root_score(terminal), "{name} {fen}: {o:?}");
            }
            None => assert!(
                r.best.is_some_and(|m| legal.contains(&m)),
                "{name} {fen}: no legal best move while the game goes on"
            ),
        }
    }
    if let Err(e) = p.validate() {
        panic!("{name}: invalid position: {e}");
    }
    outcome.is_some()
}

/// Random playouts of `G` from its start, its random setups, its bench positions and the
/// ending positions above; returns (positions checked, games that ended).
fn playouts<G: Game>(games: u64, plies: usize) -> (usize, usize) {
    let mut starts: Vec<G> = vec![G::startpos()];
    starts.extend((0..4).filter_map(G::random_setup));
    starts.extend(
        G::SEARCH
            .bench_fens
            .iter()
            .map(|f| G::from_fen(f).expect("bench FEN")),
    );
    let endings: Vec<G> = endings(G::INFO.name)
        .iter()
        .map(|f| G::from_fen(f).expect("ending FEN"))
        .collect();
    let tt = Tt::new(1);
    let mut playout = Playout::new(16, plies);
    let (mut checked, mut ended) = (0, 0);
    for p in &endings {
        assert!(
            check(p, &tt, true),
            "{}: {} is no ending",
            G::INFO.name,
            p.fen()
        );
    }
    for g in 0..games {
        let mut p = starts[(g as usize) % starts.len()].clone();
        playout.run(&mut p, |p, at| {
            checked += 1;
            if check(p, &tt, at.ply % 16 == 0) {
                ended += 1;
                return Next::Stop;
            }
            if at.at_end {
                return Next::Stop;
            }
            // Captures two times in three where there are some.
            let captures: Vec<G::Move> = at
                .legal
                .iter()
                .copied()
                .filter(|&m| p.is_tactical(m))
                .collect();
            if !captures.is_empty() && at.rng.below(3) != 0 {
                Next::Play(captures[at.rng.below(captures.len() as u64) as usize])
            } else {
                Next::Random
            }
        });
    }
    (checked, ended)
}

#[test]
fn outcome_agrees_with_the_rules_and_the_search_in_every_variant() {
    for &v in Variant::ALL {
        let (games, plies) = match v {
            Variant::MutatisMutandis => (20, 160),
            Variant::Mitosis => (40, 200),
            _ => (80, 250),
        };
        let (checked, ended) = menagerie::with_variant!(v, G => playouts::<G>(games, plies));
        println!("{}: {checked} positions, {ended} games ended", v.name());
        assert!(checked > 500, "{}: {checked} positions", v.name());
        assert!(ended > 0, "{}: no playout ended", v.name());
    }
}
