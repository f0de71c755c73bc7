//! The referee: plays one game between two players on its own position of `G`, checking every turn
//! token, keeping the clocks, and deciding the result by the rules
//! ([`game_outcome`]), by a fault (illegal turn, crash, no
//! answer, flag fall) or by adjudication at a length limit.

use crate::variants::{adjudicated_outcome, game_outcome};
use std::time::Instant;

use crate::core::Color;
use crate::search::Score;
use crate::variants::turn::{self, Extent, Reading, TurnError};
use crate::variants::{Game, GameResult};

use super::adjudicate::{DrawRule, ResignRule, Tracker};
use super::player::{Player, TurnRequest};
use super::spec::Limit;
use crate::client::EngineFault;

/// How a game ended, by category (the PGN `Termination` tag).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the variant (checkmate, stalemate, repetition, ...).
    Normal,
    /// A player sent a turn token that is malformed or not legal.
    IllegalMove,
    /// A player's process exited or closed its output.
    Crash,
    /// A player gave no answer by the deadline under a node or depth limit.
    NoAnswer,
    /// A player's clock ran out, or it overran its movetime by more than the margin.
    TimeForfeit,
    /// Decided by the referee: the length limit, or draw or resign adjudication.
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

    /// The termination whose PGN tag value is `tag` ([`Termination::pgn`]).
    pub fn from_pgn(tag: &str) -> Option<Termination> {
        [
            Termination::Normal,
            Termination::IllegalMove,
            Termination::Crash,
            Termination::NoAnswer,
            Termination::TimeForfeit,
            Termination::Adjudication,
        ]
        .into_iter()
        .find(|t| t.pgn() == tag)
    }
}

/// The referee's settings for one game (the search limits are given per side to
/// [`play_game`]).
#[derive(Copy, Clone, Debug)]
pub struct GameSettings {
    /// Extra time an engine may use past its movetime or its clock before it loses on time,
    /// in milliseconds (absorbs pipe and scheduling latency).
    pub margin_ms: u64,
    /// How long to wait for an answer under `--nodes`/`--depth`, in milliseconds.
    pub fixed_timeout_ms: u64,
    /// Turns after which the game is adjudicated a draw (counting both sides' turns, book
    /// turns included).
    pub max_turns: usize,
    /// Draw adjudication from the engines' scores.
    pub draw: Option<DrawRule>,
    /// Resign adjudication from the engines' scores.
    pub resign: Option<ResignRule>,
}

/// What is known about one turn of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TurnInfo {
    /// A turn of the opening book (not played by a player).
    pub book: bool,
    /// The score the player's engine reported, from its own point of view.
    pub score: Option<Score>,
    /// The depth of that report, in plies.
    pub depth: Option<u32>,
    /// Time the player took, in milliseconds (0 for book turns).
    pub time_ms: u64,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// FEN of the start position (before the book turns).
    pub start_fen: String,
    /// The turn tokens played, in order, book turns first.
    pub moves: Vec<String>,
    /// The same turns as PGN movetext writes them
    /// ([`Notation::pgn_move`](crate::variants::Notation::pgn_move) of each portion, joined by
    /// `;`): SAN for orthodox chess.
    pub notation: Vec<String>,
    /// One entry per turn of `moves`.
    pub infos: Vec<TurnInfo>,
    /// How many of the first `moves` came from the opening book.
    pub book_turns: usize,
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

/// The position after the complete turn token `token` of protocol.md 3 (read by
/// [`turn::play`] as protocol tokens, the whole turn) is played on `pos`, and the turn in PGN
/// notation ([`turn::notation`]: SAN for orthodox chess).
///
/// Errors: the [`TurnError`] of the first portion at fault.
fn play_turn<G: Game>(pos: &G, token: &str) -> Result<(G, String), TurnError> {
    let mut next = pos.clone();
    let plies = turn::play(&mut next, token, Reading::Token, Extent::Whole)?;
    Ok((next, turn::notation(pos, &plies)))
}

/// Plays a game from `start` between `white` and `black` under `settings`: first the `book`
/// turns (protocol turn tokens, legal from `start`: the caller checks them; an illegal one
/// ends the book there), then each side searching under its own limit (`limits` =
/// `[white, black]`; with [`Limit::Clock`] each side has its own base time and increment).
/// The engines are sent the start position and every turn since, book turns included.
pub fn play_game<G: Game>(
    start: &G,
    book: &[String],
    white: &mut dyn Player<G>,
    black: &mut dyn Player<G>,
    limits: [Limit; 2],
    settings: &GameSettings,
) -> GameRecord {
    let start_fen = start.fen();
    let mut pos = start.clone();
    let mut moves: Vec<String> = Vec::new();
    let mut notation: Vec<String> = Vec::new();
    let mut infos: Vec<TurnInfo> = Vec::new();
    for token in book {
        if game_outcome(&pos).is_some() {
            break;
        }
        let Ok((next, text)) = play_turn(&pos, token) else {
            break;
        };
        pos = next;
        moves.push(token.clone());
        notation.push(text);
        infos.push(TurnInfo {
            book: true,
            score: None,
            depth: None,
            time_ms: 0,
        });
    }
    let book_turns = moves.len();
    let clock = |l: Limit| match l {
        Limit::Clock { base_ms, inc_ms } => (base_ms, inc_ms),
        _ => (0, 0),
    };
    let mut clocks_ms = limits.map(|l| clock(l).0);
    let incs_ms = limits.map(|l| clock(l).1);
    let mut tracker = Tracker::new(settings.draw, settings.resign);
    let finish =
        |moves: Vec<String>, notation, infos, result, termination, reason: String| GameRecord {
            start_fen: start_fen.clone(),
            moves,
            notation,
            infos,
            book_turns,
            result,
            termination,
            reason,
        };
    loop {
        // A claimable draw ends the game as a referee would on the claim.
        if let Some(outcome) = adjudicated_outcome(&pos) {
            let (result, reason) = (outcome.result, outcome.reason);
            return finish(moves, notation, infos, result, Termination::Normal, reason);
        }
        if let Some((result, reason)) = tracker.verdict() {
            let t = Termination::Adjudication;
            return finish(moves, notation, infos, result, t, reason);
        }
        if moves.len() >= settings.max_turns {
            let reason = format!("adjudicated a draw after {} turns", moves.len());
            let (r, t) = (GameResult::Draw, Termination::Adjudication);
            return finish(moves, notation, infos, r, t, reason);
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
        let answer = match answer {
            Ok(answer) => answer,
            Err(EngineFault::NoAnswer {
                expected,
                waited_ms,
            }) => {
                let (term, reason) = match limit {
                    Limit::Clock { .. } | Limit::Movetime(_) => (
                        Termination::TimeForfeit,
                        format!("{who} lost on time (no {expected} within {waited_ms} ms)"),
                    ),
                    _ => (
                        Termination::NoAnswer,
                        format!("{who} gave no {expected} within {waited_ms} ms"),
                    ),
                };
                return finish(moves, notation, infos, loss, term, reason);
            }
            Err(fault) => {
                let reason = format!("{who} crashed: {fault}");
                return finish(moves, notation, infos, loss, Termination::Crash, reason);
            }
        };
        if let Limit::Clock { inc_ms, .. } = limit {
            if elapsed_ms > clocks_ms[me] + settings.margin_ms {
                let reason = format!(
                    "{who} lost on time ({elapsed_ms} ms used, {} ms left)",
                    clocks_ms[me]
                );
                let t = Termination::TimeForfeit;
                return finish(moves, notation, infos, loss, t, reason);
            }
            clocks_ms[me] = clocks_ms[me].saturating_sub(elapsed_ms) + inc_ms;
        }
        let token = answer.token;
        let next = match play_turn(&pos, &token) {
            Ok((next, text)) => {
                notation.push(text);
                next
            }
            Err(why) => {
                let reason = format!("{who} played an illegal move {token}: {why}");
                let t = Termination::IllegalMove;
                return finish(moves, notation, infos, loss, t, reason);
            }
        };
        tracker.record(me, moves.len(), answer.score);
        pos = next;
        moves.push(token);
        infos.push(TurnInfo {
            book: false,
            score: answer.score,
            depth: answer.depth,
            time_ms: elapsed_ms,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::arena::player::{Answer, BuiltinPlayer};
    use crate::tools::arena::rng::Rng;
    use crate::tools::arena::spec::Builtin;
    use crate::variants::chess::Chess;
    use crate::variants::Rules;

    /// Plays the given tokens in order, sleeping `delay_ms` before each answer.
    struct Scripted {
        tokens: Vec<&'static str>,
        delay_ms: u64,
        /// Score and depth reported with each token (none once used up).
        scores: Vec<(Option<Score>, Option<u32>)>,
    }

    impl Player<Chess> for Scripted {
        fn play(&mut self, _: &TurnRequest<'_, Chess>) -> Result<Answer, EngineFault> {
            std::thread::sleep(std::time::Duration::from_millis(self.delay_ms));
            if self.tokens.is_empty() {
                return Err(EngineFault::Crashed);
            }
            let (score, depth) = self.scores.first().copied().unwrap_or((None, None));
            if !self.scores.is_empty() {
                self.scores.remove(0);
            }
            Ok(Answer {
                token: self.tokens.remove(0).to_string(),
                score,
                depth,
            })
        }
    }

    fn settings(max_turns: usize) -> GameSettings {
        GameSettings {
            margin_ms: 100,
            fixed_timeout_ms: 1000,
            max_turns,
            draw: None,
            resign: None,
        }
    }

    fn scripted(tokens: &[&'static str], delay_ms: u64) -> Scripted {
        Scripted {
            tokens: tokens.to_vec(),
            delay_ms,
            scores: Vec::new(),
        }
    }

    #[test]
    fn turns_must_be_whole_and_legal() {
        let pos = Chess::startpos();
        assert!(play_turn(&pos, "e2e4").is_ok());
        assert!(play_turn(&pos, "e2e4;e7e5").is_err());
        assert!(play_turn(&pos, "e2e5").is_err());
        assert!(play_turn(&pos, "").is_err());
        assert!(play_turn(&pos, "(none)").is_err());
    }

    #[test]
    fn fools_mate_is_a_normal_win() {
        let mut w = scripted(&["f2f3", "g2g4"], 0);
        let mut b = scripted(&["e7e5", "d8h4"], 0);
        let g = play_game(
            &Chess::startpos(),
            &[],
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
        let g = play_game(&Chess::startpos(), &[], &mut w, &mut b, nodes, &s);
        assert_eq!(
            (g.result, g.termination),
            (GameResult::WhiteWins, Termination::IllegalMove)
        );
        let mut w = scripted(&["e2e4"], 0);
        let mut b = scripted(&["e7e5"], 0);
        let g = play_game(&Chess::startpos(), &[], &mut w, &mut b, nodes, &s);
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
        // 40 ms per turn against 60 ms and no margin: the flag falls on White's second turn at the
        // latest (sleeps only ever run long, so this cannot flake the other way).
        let mut w = scripted(&["e2e4", "d2d4", "c2c4"], 40);
        let mut b = scripted(&["e7e5", "d7d6", "c7c6"], 0);
        let mut no_margin = settings(100);
        no_margin.margin_ms = 0;
        let g = play_game(
            &Chess::startpos(),
            &[],
            &mut w,
            &mut b,
            [clock, Limit::Movetime(1000)],
            &no_margin,
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
        fn play(&mut self, req: &TurnRequest<'_, Chess>) -> Result<Answer, EngineFault> {
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
            &[],
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
            &[],
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

    #[test]
    fn book_turns_come_first_and_count() {
        let book: Vec<String> = ["e2e4", "e7e5"].map(String::from).to_vec();
        let mut w = scripted(&["f1c4", "d1h5", "h5f7"], 0);
        let mut b = scripted(&["b8c6", "g8f6"], 0);
        let g = play_game(
            &Chess::startpos(),
            &book,
            &mut w,
            &mut b,
            [Limit::Nodes(1); 2],
            &settings(100),
        );
        assert_eq!(g.result, GameResult::WhiteWins);
        assert_eq!(g.book_turns, 2);
        assert_eq!(g.moves[..3], ["e2e4", "e7e5", "f1c4"]);
        assert_eq!(g.notation.last().unwrap(), "Qxf7#");
        assert!(g.infos[0].book && g.infos[1].book && !g.infos[2].book);
        assert_eq!(g.infos.len(), g.moves.len());
    }

    #[test]
    fn score_adjudication() {
        let level = (Some(Score::Cp(3)), Some(5));
        let mut s = settings(100);
        s.draw = Some(DrawRule::parse("movenumber=1 movecount=2 score=10").unwrap());
        let mut w = scripted(&["g1f3", "b1c3", "f3g1", "c3b1", "g1f3"], 0);
        let mut b = scripted(&["g8f6", "b8c6", "f6g8", "c6b8"], 0);
        w.scores = vec![level; 5];
        b.scores = vec![level; 4];
        let g = play_game(
            &Chess::startpos(),
            &[],
            &mut w,
            &mut b,
            [Limit::Nodes(1); 2],
            &s,
        );
        // Turns 2-5 (from full move 1 on) are two level turns of each side.
        assert_eq!(
            (g.result, g.termination, g.moves.len()),
            (GameResult::Draw, Termination::Adjudication, 6)
        );
        assert!(g.reason.starts_with("draw adjudication"), "{}", g.reason);
        assert_eq!(g.infos[2].score, Some(Score::Cp(3)));
        assert_eq!(g.infos[2].depth, Some(5));
        let mut s = settings(100);
        s.resign = Some(ResignRule::parse("movecount=2 score=400").unwrap());
        let mut w = scripted(&["g1f3", "b1c3", "f3g1"], 0);
        let mut b = scripted(&["g8f6", "b8c6", "f6g8"], 0);
        w.scores = vec![(Some(Score::Cp(-450)), None); 3];
        b.scores = vec![(Some(Score::Mate(4)), None); 3];
        let g = play_game(
            &Chess::startpos(),
            &[],
            &mut w,
            &mut b,
            [Limit::Nodes(1); 2],
            &s,
        );
        assert_eq!(
            (g.result, g.termination, g.moves.len()),
            (GameResult::BlackWins, Termination::Adjudication, 4)
        );
    }
}
