//! Replays a game record written in a seed's own notation (`menagerie replay`): each move string
//! is resolved by the variant's importer ([`Game::import_move`]) and played; the FEN before each
//! ply and the result are reported.

use crate::variants::{Game, MoveError};

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
    let result = match pos.outcome() {
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
