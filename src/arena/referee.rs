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

/// The referee's settings for one game.
#[derive(Copy, Clone, Debug)]
pub struct GameSettings {
    /// The search limit per turn.
    pub limit: Limit,
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

/// Plays one complete turn token on `pos`: its `;`-separated portions are parsed by
/// [`Game::parse_move`] and played in order; the turn must end exactly with the last portion
/// (the side to move changes or the game is decided). `pos` may be partly changed on error.
///
/// Errors: a message naming the offending portion and why.
pub fn apply_turn<G: Game>(pos: &mut G, token: &str) -> Result<(), String> {
    let side = pos.side_to_move();
    let portions: Vec<&str> = token.split(';').collect();
    for (i, portion) in portions.iter().enumerate() {
        if portion.is_empty() {
            return Err("empty portion".into());
        }
        let m = pos.parse_move(portion).map_err(|e| e.to_string())?;
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
    Ok(())
}

/// Plays a game from `start` between `white` and `black` under `settings`.
pub fn play_game<G: Game>(
    start: &G,
    white: &mut dyn Player<G>,
    black: &mut dyn Player<G>,
    settings: &GameSettings,
) -> GameRecord {
    let start_fen = start.fen();
    let mut pos = start.clone();
    let mut moves: Vec<String> = Vec::new();
    let mut clocks_ms = match settings.limit {
        Limit::Clock { base_ms, .. } => [base_ms; 2],
        _ => [0; 2],
    };
    let finish = |moves: Vec<String>, result, termination, reason: String| GameRecord {
        start_fen: start_fen.clone(),
        moves,
        result,
        termination,
        reason,
    };
    loop {
        if let Some(outcome) = pos.outcome() {
            return finish(moves, outcome.result, Termination::Normal, outcome.reason);
        }
        if moves.len() >= settings.max_turns {
            let reason = format!("adjudicated a draw after {} turns", moves.len());
            return finish(moves, GameResult::Draw, Termination::Adjudication, reason);
        }
        let side = pos.side_to_move();
        let me = side_index(side);
        let timeout_ms = match settings.limit {
            Limit::Movetime(ms) => ms + settings.margin_ms,
            Limit::Clock { .. } => clocks_ms[me] + settings.margin_ms,
            Limit::Nodes(_) | Limit::Depth(_) => settings.fixed_timeout_ms,
        };
        let req = TurnRequest {
            pos: &pos,
            start_fen: &start_fen,
            moves: &moves,
            limit: settings.limit,
            clocks_ms,
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
                let (term, reason) = match settings.limit {
                    Limit::Clock { .. } => (
                        Termination::TimeForfeit,
                        format!("{who} lost on time (no {expected} within {waited_ms} ms)"),
                    ),
                    _ => (
                        Termination::NoAnswer,
                        format!("{who} gave no {expected} within {waited_ms} ms"),
                    ),
                };
                return finish(moves, loss, term, reason);
            }
            Err(fault) => {
                let reason = format!("{who} crashed: {fault}");
                return finish(moves, loss, Termination::Crash, reason);
            }
        };
        if let Limit::Clock { inc_ms, .. } = settings.limit {
            if elapsed_ms > clocks_ms[me] {
                let reason = format!(
                    "{who} lost on time ({elapsed_ms} ms used, {} ms left)",
                    clocks_ms[me]
                );
                return finish(moves, loss, Termination::TimeForfeit, reason);
            }
            clocks_ms[me] = clocks_ms[me] - elapsed_ms + inc_ms;
        }
        let mut next = pos.clone();
        if let Err(why) = apply_turn(&mut next, &token) {
            let reason = format!("{who} played an illegal move {token}: {why}");
            return finish(moves, loss, Termination::IllegalMove, reason);
        }
        pos = next;
        moves.push(token);
    }
}
