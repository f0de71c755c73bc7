//! Players: the built-in random and greedy players, and child engines, behind one trait the
//! referee asks for turns. A player answers with a turn token (portions joined by `;`); the
//! referee checks it against its own position.

use crate::variants::turn;
use crate::variants::{Game, PlyList};

use crate::search::Score;

use super::rng::Rng;
use super::spec::{Builtin, EngineSpec, Limit};
use crate::client::{parse_info, EngineFault, EngineProcess, ScoreValue, StartError};

/// A player's answer for one turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The turn token (portions joined by `;`).
    pub token: String,
    /// The score of the engine's last `info` line, from its own point of view.
    pub score: Option<Score>,
    /// The depth of that `info` line, in plies.
    pub depth: Option<u32>,
}

impl Answer {
    /// An answer without search information (built-in players).
    pub fn token(token: impl Into<String>) -> Answer {
        Answer {
            token: token.into(),
            score: None,
            depth: None,
        }
    }
}

/// The score and depth of an `info` line of the first principal variation (`multipv 1` or
/// none); `None` for other lines and for `info` lines without a score.
fn first_line_score(line: &str) -> Option<(Score, Option<u32>)> {
    let info = parse_info(line).filter(|i| i.multipv == 1)?;
    let score = match info.score? {
        ScoreValue::Cp(cp) => Score::Cp(cp),
        ScoreValue::Mate(n) => Score::Mate(n),
    };
    Some((score, info.depth))
}

/// What a player is told when it is asked for a turn.
pub struct TurnRequest<'a, G: Game> {
    /// The current position (the referee's own).
    pub pos: &'a G,
    /// FEN of the game's start position.
    pub start_fen: &'a str,
    /// The turn tokens played since the start position.
    pub moves: &'a [String],
    /// The search limit of the side to move.
    pub limit: Limit,
    /// Remaining clock times `[white, black]` in milliseconds (0 for a side without a clock).
    pub clocks_ms: [u64; 2],
    /// Increments `[white, black]` in milliseconds per turn (0 for a side without a clock).
    pub incs_ms: [u64; 2],
    /// How long the referee waits for the answer, in milliseconds.
    pub timeout_ms: u64,
}

/// Anything that can play turns of `G`.
pub trait Player<G: Game>: Send {
    /// The turn to play, as a turn token, with what the search reported.
    ///
    /// Errors: an [`EngineFault`] (crash, no answer by the deadline).
    fn play(&mut self, req: &TurnRequest<'_, G>) -> Result<Answer, EngineFault>;
}

/// A built-in player: random or greedy, seeded.
pub struct BuiltinPlayer {
    kind: Builtin,
    rng: Rng,
}

impl BuiltinPlayer {
    /// A built-in player of `kind` drawing from `rng`.
    pub fn new(kind: Builtin, rng: Rng) -> BuiltinPlayer {
        BuiltinPlayer { kind, rng }
    }

    /// Picks one ply of `pos` (which must have legal plies).
    fn pick<G: Game>(&mut self, pos: &G, list: &PlyList<G::Move>) -> G::Move {
        match self.kind {
            Builtin::Random => list[self.rng.below(list.len())],
            Builtin::Greedy => {
                let side = pos.side_to_move();
                let mut best: Vec<G::Move> = Vec::new();
                let mut best_score = i32::MIN;
                let mut p = pos.clone();
                for &m in list.iter() {
                    p.make(m);
                    let e = p.evaluate();
                    let score = if p.side_to_move() != side { -e } else { e };
                    p.unmake();
                    if score > best_score {
                        best_score = score;
                        best.clear();
                    }
                    if score == best_score {
                        best.push(m);
                    }
                }
                best[self.rng.below(best.len())]
            }
        }
    }
}

impl<G: Game> Player<G> for BuiltinPlayer {
    fn play(&mut self, req: &TurnRequest<'_, G>) -> Result<Answer, EngineFault> {
        let mut pos = req.pos.clone();
        let (plies, _) = turn::play_chosen(&mut pos, |p, list| Some(self.pick(p, list)));
        if plies.is_empty() {
            return Ok(Answer::token("(none)"));
        }
        Ok(Answer::token(turn::token(req.pos, &plies)))
    }
}

/// A child engine process playing through the protocol.
pub struct EnginePlayer {
    engine: EngineProcess,
}

impl EnginePlayer {
    /// Starts the engine of `spec` (a command spec) and runs the handshake with its start-up
    /// checks for `variant` ([`EngineProcess::handshake`]), each answer awaited up to
    /// `timeout_ms` milliseconds, then `ucinewgame`.
    ///
    /// Errors: [`StartError`]; a built-in spec is a spawn error.
    pub fn start(
        spec: &EngineSpec,
        variant: &str,
        timeout_ms: u64,
    ) -> Result<EnginePlayer, StartError> {
        let EngineSpec::Command {
            program,
            args,
            options,
            ..
        } = spec
        else {
            return Err(EngineFault::Spawn("a built-in player is not a process".into()).into());
        };
        let mut engine = EngineProcess::spawn(program, args)?;
        engine.handshake(variant, options, timeout_ms)?;
        let mut player = EnginePlayer { engine };
        player.new_game(timeout_ms)?;
        Ok(player)
    }

    /// Prepares the engine for a new game: `ucinewgame`, then `isready`/`readyok` within
    /// `timeout_ms` milliseconds.
    ///
    /// Errors: [`EngineFault`] when it crashed or does not answer.
    pub fn new_game(&mut self, timeout_ms: u64) -> Result<(), EngineFault> {
        self.engine.send("ucinewgame")?;
        self.engine.ready(timeout_ms)
    }

    /// Ends the engine politely (`quit`), killing it if it lingers.
    pub fn quit(self) {
        self.engine.quit(std::time::Duration::from_millis(200));
    }
}

/// The `go` command for `limit` (times in milliseconds, `[white, black]`).
fn go_command(limit: Limit, clocks_ms: [u64; 2], incs_ms: [u64; 2]) -> String {
    match limit {
        Limit::Movetime(ms) => format!("go movetime {ms}"),
        Limit::Nodes(n) => format!("go nodes {n}"),
        Limit::Depth(d) => format!("go depth {d}"),
        Limit::Clock { .. } => format!(
            "go wtime {} btime {} winc {} binc {}",
            clocks_ms[0], clocks_ms[1], incs_ms[0], incs_ms[1]
        ),
    }
}

impl<G: Game> Player<G> for EnginePlayer {
    fn play(&mut self, req: &TurnRequest<'_, G>) -> Result<Answer, EngineFault> {
        let mut position = format!("position fen {}", req.start_fen);
        if !req.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&req.moves.join(" "));
        }
        self.engine.send(&position)?;
        self.engine
            .send(&go_command(req.limit, req.clocks_ms, req.incs_ms))?;
        let mut last: Option<(Score, Option<u32>)> = None;
        let line = self
            .engine
            .wait_for_with("bestmove", req.timeout_ms, &mut |l| {
                if let Some(info) = first_line_score(l) {
                    last = Some(info);
                }
            })?;
        let token = line.split_whitespace().nth(1).unwrap_or("(none)");
        Ok(Answer {
            token: token.to_string(),
            score: last.map(|l| l.0),
            depth: last.and_then(|l| l.1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        assert_eq!(
            first_line_score("info depth 7 seldepth 9 multipv 1 score cp -25 nodes 100 pv e2e4"),
            Some((Score::Cp(-25), Some(7)))
        );
        assert_eq!(
            first_line_score("info depth 3 score mate -2 lowerbound"),
            Some((Score::Mate(-2), Some(3)))
        );
        assert_eq!(first_line_score("info depth 7 multipv 2 score cp 5"), None);
        assert_eq!(first_line_score("info string hello"), None);
        assert_eq!(first_line_score("info depth 4 score cp x"), None);
        assert_eq!(first_line_score("bestmove e2e4"), None);
    }
}
