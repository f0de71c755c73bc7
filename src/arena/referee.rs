//! The referee: plays one game between two players on its own position of `G`, checking every
//! turn token, keeping the clocks, and deciding the result by the rules ([`Game::outcome`]),
//! by a fault (illegal turn, crash, no answer, flag fall) or by adjudication at a length limit.

use std::time::Instant;

use crate::core::Color;
use crate::variants::{Game, GameResult};

use super::engine::EngineFault;
use super::player::{Player, TurnRequest};
use super::spec::Limit;

/// How a game ended, by category (the PGN `Termination` tag).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the variant (checkmate, stalemate, repetition, ...).
    Normal,
    /// A player sent a turn token that is malformed or not legal.
    IllegalMove,
    /// A player's process exited or closed its output.
    Crash,
    /// A player gave no answer by the deadline.
    NoAnswer,
    /// A player's clock ran out.
    TimeForfeit,
    /// Drawn by the referee at the length limit.
    Adjudication,
}

impl Termination {
    /// The PGN `Termination` tag value.
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::IllegalMove => "rules infraction",
            Termination::Crash => "abandoned",
            Termination::NoAnswer => "stalled",
            Termination::TimeForfeit => "time forfeit",
            Termination::Adjudication => "adjudication",
        }
    }
}

/// The referee's settings for one game (the search limits are given per side to
/// [`play_game`]).
#[derive(Copy, Clone, Debug)]
pub struct GameSettings {
    /// Extra time granted past the movetime or the clock before a missing answer loses, in
    /// milliseconds.
    pub margin_ms: u64,
    /// How long to wait for an answer under `--nodes`/`--depth`, in milliseconds.
    pub fixed_timeout_ms: u64,
    /// Turns after which the game is adjudicated a draw (counting both sides' turns).
    pub max_turns: usize,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// FEN of the start position.
    pub start_fen: String,
    /// The turn tokens played, in order.
    pub moves: Vec<String>,
    /// The same turns as PGN movetext writes them ([`Game::pgn_move`] of each portion, joined
    /// by `;`): SAN for orthodox chess.
    pub notation: Vec<String>,
    /// The result.
    pub result: GameResult,
    /// The category of the ending.
    pub termination: Termination,
    /// The ending in words (the rule, or what the faulty player did).
    pub reason: String,
}

fn side_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Plays one complete turn token on `pos` (one ply for [`Game::COMPOUND_PLIES`] variants);
/// otherwise its `;`-separated portions are parsed by [`Game::parse_move`] and played in order; the turn must end exactly with the last portion
/// (the side to move changes or the game is decided). Returns the turn in PGN notation
/// ([`Game::pgn_move`] of each portion, joined by `;`). `pos` may be partly changed on error.
///
/// Errors: a message naming the offending portion and why.
pub fn apply_turn<G: Game>(pos: &mut G, token: &str) -> Result<String, String> {
    if G::COMPOUND_PLIES {
        // One ply is the whole turn (its token may itself hold `;`).
        let m = pos.parse_move(token).map_err(|e| e.to_string())?;
        let notation = pos.pgn_move(m);
        pos.make(m);
        return Ok(notation);
    }
    let side = pos.side_to_move();
    let portions: Vec<&str> = token.split(';').collect();
    let mut notation: Vec<String> = Vec::with_capacity(portions.len());
    for (i, portion) in portions.iter().enumerate() {
        if portion.is_empty() {
            return Err("empty portion".into());
        }
        let m = pos.parse_move(portion).map_err(|e| e.to_string())?;
        notation.push(pos.pgn_move(m));
        pos.make(m);
        let over = !G::MULTI_PLY_TURNS
            || pos.side_to_move() != side
            || pos.decided().is_some()
            || pos.outcome().is_some();
        match (over, i + 1 == portions.len()) {
            (true, false) => return Err(format!("portion after the end of the turn: {token}")),
            (false, true) => return Err(format!("turn not complete: {token}")),
            _ => {}
        }
    }
    Ok(notation.join(";"))
}

/// Plays a game from `start` between `white` and `black` under `settings`, each side searching
/// under its own limit (`limits` = `[white, black]`; with [`Limit::Clock`] each side has its own
/// base time and increment).
pub fn play_game<G: Game>(
    start: &G,
    white: &mut dyn Player<G>,
    black: &mut dyn Player<G>,
    limits: [Limit; 2],
    settings: &GameSettings,
) -> GameRecord {
    let start_fen = start.fen();
    let mut pos = start.clone();
    let mut moves: Vec<String> = Vec::new();
    let mut notation: Vec<String> = Vec::new();
    let clock = |l: Limit| match l {
        Limit::Clock { base_ms, inc_ms } => (base_ms, inc_ms),
        _ => (0, 0),
    };
    let mut clocks_ms = limits.map(|l| clock(l).0);
    let incs_ms = limits.map(|l| clock(l).1);
    let finish = |moves: Vec<String>, notation, result, termination, reason: String| GameRecord {
        start_fen: start_fen.clone(),
        moves,
        notation,
        result,
        termination,
        reason,
    };
    loop {
        // A claimable draw ends the game as a referee would on the claim.
        if let Some(outcome) = pos.adjudicated_outcome() {
            return finish(
                moves,
                notation,
                outcome.result,
                Termination::Normal,
                outcome.reason,
            );
        }
        if moves.len() >= settings.max_turns {
            let reason = format!("adjudicated a draw after {} turns", moves.len());
            return finish(
                moves,
                notation,
                GameResult::Draw,
                Termination::Adjudication,
                reason,
            );
        }
        let side = pos.side_to_move();
        let me = side_index(side);
        let limit = limits[me];
        let timeout_ms = match limit {
            Limit::Movetime(ms) => ms + settings.margin_ms,
            Limit::Clock { .. } => clocks_ms[me] + settings.margin_ms,
            Limit::Nodes(_) | Limit::Depth(_) => settings.fixed_timeout_ms,
        };
        let req = TurnRequest {
            pos: &pos,
            start_fen: &start_fen,
            moves: &moves,
            limit,
            clocks_ms,
            incs_ms,
            timeout_ms,
        };
        let player: &mut dyn Player<G> = if me == 0 { &mut *white } else { &mut *black };
        let started = Instant::now();
        let answer = player.play(&req);
        let elapsed_ms = started.elapsed().as_millis() as u64;
        let loss = GameResult::win_for(!side);
        let who = side_name(side);
        let token = match answer {
            Ok(token) => token,
            Err(EngineFault::NoAnswer {
                expected,
                waited_ms,
            }) => {
                let (term, reason) = match limit {
                    Limit::Clock { .. } => (
                        Termination::TimeForfeit,
                        format!("{who} lost on time (no {expected} within {waited_ms} ms)"),
                    ),
                    _ => (
                        Termination::NoAnswer,
                        format!("{who} gave no {expected} within {waited_ms} ms"),
                    ),
                };
                return finish(moves, notation, loss, term, reason);
            }
            Err(fault) => {
                let reason = format!("{who} crashed: {fault}");
                return finish(moves, notation, loss, Termination::Crash, reason);
            }
        };
        if let Limit::Clock { inc_ms, .. } = limit {
            if elapsed_ms > clocks_ms[me] {
                let reason = format!(
                    "{who} lost on time ({elapsed_ms} ms used, {} ms left)",
                    clocks_ms[me]
                );
                return finish(moves, notation, loss, Termination::TimeForfeit, reason);
            }
            clocks_ms[me] = clocks_ms[me] - elapsed_ms + inc_ms;
        }
        let mut next = pos.clone();
        match apply_turn(&mut next, &token) {
            Ok(text) => notation.push(text),
            Err(why) => {
                let reason = format!("{who} played an illegal move {token}: {why}");
                return finish(moves, notation, loss, Termination::IllegalMove, reason);
            }
        }
        pos = next;
        moves.push(token);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::player::BuiltinPlayer;
    use crate::arena::rng::Rng;
    use crate::arena::spec::Builtin;
    use crate::variants::chess::Chess;

    /// Plays the given tokens in order, sleeping `delay_ms` before each answer.
    struct Scripted {
        tokens: Vec<&'static str>,
        delay_ms: u64,
    }

    impl Player<Chess> for Scripted {
        fn play(&mut self, _: &TurnRequest<'_, Chess>) -> Result<String, EngineFault> {
            std::thread::sleep(std::time::Duration::from_millis(self.delay_ms));
            if self.tokens.is_empty() {
                return Err(EngineFault::Crashed);
            }
            Ok(self.tokens.remove(0).to_string())
        }
    }

    fn settings(max_turns: usize) -> GameSettings {
        GameSettings {
            margin_ms: 100,
            fixed_timeout_ms: 1000,
            max_turns,
        }
    }

    fn scripted(tokens: &[&'static str], delay_ms: u64) -> Scripted {
        Scripted {
            tokens: tokens.to_vec(),
            delay_ms,
        }
    }

    #[test]
    fn turns_must_be_whole_and_legal() {
        let mut pos = Chess::startpos();
        assert!(apply_turn(&mut pos.clone(), "e2e4").is_ok());
        assert!(apply_turn(&mut pos.clone(), "e2e4;e7e5").is_err());
        assert!(apply_turn(&mut pos.clone(), "e2e5").is_err());
        assert!(apply_turn(&mut pos.clone(), "").is_err());
        assert!(apply_turn(&mut pos, "(none)").is_err());
    }

    #[test]
    fn fools_mate_is_a_normal_win() {
        let mut w = scripted(&["f2f3", "g2g4"], 0);
        let mut b = scripted(&["e7e5", "d8h4"], 0);
        let g = play_game(
            &Chess::startpos(),
            &mut w,
            &mut b,
            [Limit::Nodes(1); 2],
            &settings(100),
        );
        assert_eq!(g.result, GameResult::BlackWins);
        assert_eq!(g.termination, Termination::Normal);
        assert_eq!(g.moves, ["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(g.notation, ["f3", "e5", "g4", "Qh4#"]);
    }

    #[test]
    fn faults_lose_for_the_side_at_fault() {
        let s = settings(100);
        let nodes = [Limit::Nodes(1); 2];
        let mut w = scripted(&["e2e4"], 0);
        let mut b = scripted(&["e7e4"], 0);
        let g = play_game(&Chess::startpos(), &mut w, &mut b, nodes, &s);
        assert_eq!(
            (g.result, g.termination),
            (GameResult::WhiteWins, Termination::IllegalMove)
        );
        let mut w = scripted(&["e2e4"], 0);
        let mut b = scripted(&["e7e5"], 0);
        let g = play_game(&Chess::startpos(), &mut w, &mut b, nodes, &s);
        assert_eq!(
            (g.result, g.termination),
            (GameResult::BlackWins, Termination::Crash)
        );
        assert!(g.reason.starts_with("white crashed"), "{}", g.reason);
    }

    #[test]
    fn flag_falls_when_the_clock_runs_out() {
        let clock = Limit::Clock {
            base_ms: 60,
            inc_ms: 0,
        };
        // 40 ms per turn against 60 ms: the flag falls on White's second turn at the latest
        // (sleeps only ever run long, so this cannot flake the other way).
        let mut w = scripted(&["e2e4", "d2d4", "c2c4"], 40);
        let mut b = scripted(&["e7e5", "d7d6", "c7c6"], 0);
        let g = play_game(
            &Chess::startpos(),
            &mut w,
            &mut b,
            [clock, Limit::Movetime(1)],
            &settings(100),
        );
        assert_eq!(
            (g.result, g.termination),
            (GameResult::BlackWins, Termination::TimeForfeit)
        );
        assert!(g.moves.len() <= 2, "{:?}", g.moves);
        assert!(g.reason.starts_with("white lost on time"), "{}", g.reason);
    }

    /// Records the limit and clocks of every request, then plays like `inner`.
    struct Recorder {
        inner: Scripted,
        seen: Vec<(Limit, [u64; 2], [u64; 2])>,
    }

    impl Player<Chess> for Recorder {
        fn play(&mut self, req: &TurnRequest<'_, Chess>) -> Result<String, EngineFault> {
            self.seen.push((req.limit, req.clocks_ms, req.incs_ms));
            self.inner.play(req)
        }
    }

    #[test]
    fn each_side_searches_under_its_own_limit() {
        let clock = Limit::Clock {
            base_ms: 60_000,
            inc_ms: 500,
        };
        let mut w = Recorder {
            inner: scripted(&["f2f3", "g2g4"], 0),
            seen: Vec::new(),
        };
        let mut b = Recorder {
            inner: scripted(&["e7e5", "d8h4"], 0),
            seen: Vec::new(),
        };
        let g = play_game(
            &Chess::startpos(),
            &mut w,
            &mut b,
            [Limit::Depth(6), clock],
            &settings(100),
        );
        assert_eq!(g.result, GameResult::BlackWins);
        assert!(w.seen.iter().all(|s| s.0 == Limit::Depth(6)));
        assert!(b.seen.iter().all(|s| s.0 == clock));
        // White has no clock; Black's runs from 60 s and gains its increment.
        assert_eq!(b.seen[0].1, [0, 60_000]);
        assert_eq!(b.seen[0].2, [0, 500]);
        assert!(b.seen[1].1[1] > 60_000 && b.seen[1].1[1] <= 60_500);
    }

    #[test]
    fn long_games_are_adjudicated() {
        let mut w = BuiltinPlayer::new(Builtin::Random, Rng::new(1));
        let mut b = BuiltinPlayer::new(Builtin::Random, Rng::new(2));
        let g = play_game::<Chess>(
            &Chess::startpos(),
            &mut w,
            &mut b,
            [Limit::Nodes(1); 2],
            &settings(6),
        );
        assert_eq!(
            (g.result, g.termination),
            (GameResult::Draw, Termination::Adjudication)
        );
        assert_eq!(g.moves.len(), 6);
    }
}
