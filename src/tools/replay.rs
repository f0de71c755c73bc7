//! Replays a game record written in a seed's own notation (`menagerie replay`): each move string is
//! resolved by the variant's importer
//! ([`Notation::import_move`](crate::variants::Notation::import_move)) and played; the FEN before
//! each ply and the result are reported. `menagerie replay --pgn` checks the games of a PGN file
//! instead ([`check_pgn_text`]): the match runner's own PGNs, of any variant.

use crate::tools::pgn::{parse_pgn, PgnGame};
use crate::variants::{adjudicated_outcome, game_outcome};
use crate::variants::{Game, MoveError, Variant};

/// One replayed ply: the FEN before it, the text as written and the canonical token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayPly {
    /// FEN of the position before the ply.
    pub fen_before: String,
    /// The move string as the record wrote it.
    pub text: String,
    /// The canonical protocol token of the ply.
    pub token: String,
}

/// The whole replay: every ply, the final FEN and the result by rule (if the game is over).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The plies in order.
    pub plies: Vec<ReplayPly>,
    /// FEN after the last ply.
    pub final_fen: String,
    /// `<result> {<reason>}` when the rules end the game there, else `*`.
    pub result: String,
}

/// Why a replay stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} ('{text}'): {source}")]
pub struct ReplayError {
    /// 1-based ply number where it failed.
    pub ply: usize,
    /// The move string that failed.
    pub text: String,
    /// Why it failed.
    pub source: MoveError,
}

/// Replays `record` from `start`.
///
/// Errors: the first move string that does not resolve to a legal ply.
pub fn replay<G: Game>(start: &G, record: &str) -> Result<Replay, ReplayError> {
    let mut pos = start.clone();
    let mut plies = Vec::new();
    for (i, text) in G::split_record(record).into_iter().enumerate() {
        let m = pos.import_move(&text).map_err(|source| ReplayError {
            ply: i + 1,
            text: text.clone(),
            source,
        })?;
        plies.push(ReplayPly {
            fen_before: pos.fen(),
            token: pos.move_token(m),
            text,
        });
        pos.make(m);
    }
    let result = match game_outcome(&pos) {
        Some(o) => format!("{} {{{}}}", o.result.as_str(), o.reason),
        None => "*".to_string(),
    };
    Ok(Replay {
        plies,
        final_fen: pos.fen(),
        result,
    })
}

/// The text `menagerie replay` prints: `fen <FEN>` then `ply <n> <text> <token>` for each ply,
/// then `fen <final FEN>` and `result <result>`.
pub fn format_replay(r: &Replay) -> String {
    let mut s = String::new();
    for (i, p) in r.plies.iter().enumerate() {
        s.push_str(&format!(
            "fen {}\nply {} {} {}\n",
            p.fen_before,
            i + 1,
            p.text,
            p.token
        ));
    }
    s.push_str(&format!("fen {}\nresult {}\n", r.final_fen, r.result));
    s
}

/// The check of one game of a PGN file by [`check_pgn_game`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGameCheck {
    /// Turns replayed.
    pub turns: usize,
    /// The recorded result (`1-0`, `0-1`, `1/2-1/2` or `*`).
    pub result: String,
    /// How the game ended, in words: the rule, or the recorded termination.
    pub ending: String,
}

/// Replays one game of a PGN file written by `menagerie match` (or any PGN whose moves are protocol
/// turn tokens or, for chess, SAN) and checks it ends as recorded: with `Termination` `normal` (or
/// no such tag) the rules must end the game there with the recorded `Result`, a draw the player to
/// move may claim counting as an end (or, for `*`, not end it); with any other termination
/// (adjudication, a forfeit) the rules must not have ended it, and a forfeit is not a draw.
/// `PlyCount`, when present, must be the number of turns.
///
/// Errors: a message naming the line of the first move or tag at fault.
pub fn check_pgn_game<G: Game>(game: &PgnGame) -> Result<PgnGameCheck, String> {
    use crate::tools::arena::referee::Termination;
    use crate::tools::pgn::read_turn;
    let mut pos = match game.tag("FEN") {
        Some(fen) => G::from_fen(fen).map_err(|e| format!("line {}: FEN tag: {e}", game.line))?,
        None => G::startpos(),
    };
    for (word, line) in &game.moves {
        if let Some(o) = game_outcome(&pos) {
            return Err(format!(
                "line {line}: move '{word}' after the game ended ({} {{{}}})",
                o.result.as_str(),
                o.reason
            ));
        }
        read_turn(&mut pos, word).map_err(|e| format!("line {line}: move '{word}': {e}"))?;
    }
    let tag_result = game.tag("Result");
    if let (Some(t), Some(m)) = (tag_result, game.result.as_deref()) {
        if t != m {
            return Err(format!(
                "line {}: Result tag '{t}' but the movetext ends with '{m}'",
                game.line
            ));
        }
    }
    let result = tag_result
        .or(game.result.as_deref())
        .unwrap_or("*")
        .to_string();
    if !matches!(result.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
        return Err(format!("line {}: bad result '{result}'", game.line));
    }
    if let Some(n) = game.tag("PlyCount") {
        if n.parse::<usize>().ok() != Some(game.moves.len()) {
            return Err(format!(
                "line {}: PlyCount tag {n} but {} turns in the movetext",
                game.line,
                game.moves.len()
            ));
        }
    }
    let termination = game.tag("Termination").unwrap_or("normal");
    // A draw claimable at the end (FIDE 9.2, 9.3) ends a game as the referee records it
    // ([`adjudicated_outcome`]); moves played on after a claimable draw are legal.
    let over = adjudicated_outcome(&pos);
    let ending = match (Termination::from_pgn(termination), over) {
        (Some(Termination::Normal), Some(o)) if o.result.as_str() == result => o.reason,
        (Some(Termination::Normal), Some(o)) => {
            return Err(format!(
                "line {}: recorded {result}, but the rules end the game {} {{{}}}",
                game.line,
                o.result.as_str(),
                o.reason
            ))
        }
        (Some(Termination::Normal), None) if result == "*" => "unfinished".into(),
        (Some(Termination::Normal), None) => {
            return Err(format!(
                "line {}: recorded {result} by the rules, but the game is not over after {} turns",
                game.line,
                game.moves.len()
            ))
        }
        (_, Some(o)) => {
            return Err(format!(
            "line {}: termination '{termination}', but the rules already ended the game {} {{{}}}",
            game.line,
            o.result.as_str(),
            o.reason
        ))
        }
        (Some(Termination::Adjudication), None) | (None, None) => termination.to_string(),
        (Some(_), None) if result == "1/2-1/2" => {
            return Err(format!(
                "line {}: a forfeit ('{termination}') recorded as a draw",
                game.line
            ))
        }
        (Some(_), None) => termination.to_string(),
    };
    Ok(PgnGameCheck {
        turns: game.moves.len(),
        result,
        ending,
    })
}

/// Checks every game of a PGN file ([`check_pgn_game`]), each in its variant: its `Variant`
/// tag, else `default_variant`, else chess. Returns one line per game and a closing count.
///
/// Errors: PGN that cannot be read, or the lines of all games that fail (with the count).
pub fn check_pgn_text(text: &str, default_variant: Option<Variant>) -> Result<String, String> {
    let games = parse_pgn(text).map_err(|e| e.to_string())?;
    if games.is_empty() {
        return Err("no games in the file".into());
    }
    let mut out = String::new();
    let mut failed = 0;
    for (i, game) in games.iter().enumerate() {
        let variant = match game.tag("Variant") {
            Some(name) => Variant::from_name(name)
                .ok_or_else(|| format!("line {}: unknown Variant tag '{name}'", game.line)),
            None => Ok(default_variant.unwrap_or(Variant::Chess)),
        };
        let checked = variant
            .and_then(|v| crate::with_variant!(v, G => check_pgn_game::<G>(game)).map(|c| (v, c)));
        match checked {
            Ok((v, c)) => out.push_str(&format!(
                "game {} (line {}, {}): {} turns, {} {{{}}}: ok\n",
                i + 1,
                game.line,
                v.name(),
                c.turns,
                c.result,
                c.ending
            )),
            Err(e) => {
                failed += 1;
                out.push_str(&format!("game {}: FAILED: {e}\n", i + 1));
            }
        }
    }
    if failed > 0 {
        return Err(format!(
            "{failed} of {} games do not replay to their recorded result:\n{out}",
            games.len()
        ));
    }
    out.push_str(&format!(
        "{} games replay to their recorded results\n",
        games.len()
    ));
    Ok(out)
}
