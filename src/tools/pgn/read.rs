//! PGN import: the games of a PGN file as tags and move words ([`parse_pgn`]), and the turns of
//! any variant read back from their PGN notation ([`read_turn`]): the match runner's own PGNs
//! (SAN for orthodox chess, protocol turn tokens for the other variants) and opening books.
//!
//! Movetext: move numbers (`12.`, `12...`, also glued as `12.e4`), comments (`{...}`, which may
//! span lines, and `;` to the end of the line when it starts a word: inside a word `;` joins the
//! portions of a turn token), variations `( ... )` (skipped), NAGs (`$1`), `%` escape lines and the
//! result token are understood. A move word is resolved by the variant itself
//! ([`turn::read_pgn_ply`]): first as a protocol token
//! ([`Notation::parse_move`](crate::variants::Notation::parse_move)), else by comparing it with the
//! PGN notation ([`Notation::pgn_move`](crate::variants::Notation::pgn_move)) of every legal ply,
//! ignoring check and annotation marks (`+`, `#`, `!`, `?`), `=` before a promotion letter and
//! zeros written for castling's `O` ([`turn::normalize_pgn`]). Known gap: SAN with more
//! disambiguation than needed (`Ngf3` where `Nf3` is unique) is not recognised.

use thiserror::Error;

use crate::variants::turn::{self, Extent, Reading, TurnError};
use crate::variants::Game;

/// Why a PGN file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {reason}")]
pub struct PgnError {
    /// 1-based line of the file.
    pub line: usize,
    /// What is wrong there.
    pub reason: String,
}

/// One game of a PGN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// 1-based line where the game starts.
    pub line: usize,
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Move words of the main line, each with its 1-based line.
    pub moves: Vec<(String, usize)>,
    /// The result token ending the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
}

impl PgnGame {
    /// The value of tag `name` (case-sensitive, as PGN tag names are).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one tag pair line `[Name "value"]` (escapes `\\` and `\"`).
fn parse_tag(text: &str) -> Result<(String, String), String> {
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.trim_end().strip_suffix(']'))
        .ok_or("a tag pair must look like [Name \"value\"]")?;
    let (name, rest) = inner
        .trim_start()
        .split_once(char::is_whitespace)
        .ok_or("a tag pair must look like [Name \"value\"]")?;
    let quoted = rest.trim();
    let body = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .ok_or_else(|| format!("tag {name}: the value must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(
                chars
                    .next()
                    .ok_or_else(|| format!("tag {name}: dangling \\"))?,
            ),
            '"' => return Err(format!("tag {name}: unescaped quote in the value")),
            c => value.push(c),
        }
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("bad tag name '{name}'"));
    }
    Ok((name.to_string(), value))
}

/// Splits PGN text into games.
///
/// Errors: a malformed tag pair, an unclosed comment or variation, or a `)` without `(`,
/// with its line.
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut games: Vec<PgnGame> = Vec::new();
    let mut game: Option<PgnGame> = None;
    // Whether the current game's movetext has begun (a tag then starts a new game).
    let mut in_moves = false;
    let mut comment_from: Option<usize> = None;
    let mut variation: Vec<usize> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let err = |reason: String| PgnError { line: n, reason };
        let trimmed = raw.trim();
        if comment_from.is_none() && variation.is_empty() {
            if trimmed.starts_with('%') {
                continue;
            }
            if trimmed.starts_with('[') {
                if in_moves || game.is_none() {
                    games.extend(game.take());
                    game = Some(PgnGame {
                        line: n,
                        ..PgnGame::default()
                    });
                    in_moves = false;
                }
                let tag = parse_tag(trimmed).map_err(err)?;
                game.as_mut().expect("a game was started").tags.push(tag);
                continue;
            }
        }
        let mut word = String::new();
        let mut chars = raw.chars().peekable();
        loop {
            let c = chars.next();
            let boundary = match c {
                None => true,
                Some(c) => {
                    c.is_whitespace()
                        || (comment_from.is_none() && matches!(c, '{' | '(' | ')'))
                        || (comment_from.is_some() && c == '}')
                        || (comment_from.is_none() && word.is_empty() && c == ';')
                }
            };
            if !boundary {
                if comment_from.is_none() {
                    word.push(c.expect("not at the end"));
                }
                continue;
            }
            if !word.is_empty() && variation.is_empty() {
                let g = game.get_or_insert_with(|| PgnGame {
                    line: n,
                    ..PgnGame::default()
                });
                in_moves = true;
                let w = std::mem::take(&mut word);
                if matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                    g.result = Some(w);
                } else if !w.starts_with('$') {
                    let digits = w.trim_start_matches(|c: char| c.is_ascii_digit());
                    let is_number = digits.len() < w.len() && digits.starts_with('.');
                    let mv = if is_number {
                        digits.trim_start_matches('.')
                    } else {
                        w.as_str()
                    };
                    if !mv.is_empty() {
                        if g.result.is_some() {
                            return Err(err(format!("move '{mv}' after the result")));
                        }
                        g.moves.push((mv.to_string(), n));
                    }
                }
            }
            word.clear();
            match c {
                None => break,
                Some('{') => comment_from = Some(n),
                Some('}') => comment_from = None,
                Some('(') => variation.push(n),
                Some(')') => {
                    if variation.pop().is_none() {
                        return Err(err("')' without '('".into()));
                    }
                }
                Some(';') => break,
                Some(_) => {}
            }
        }
    }
    if let Some(line) = comment_from {
        return Err(PgnError {
            line,
            reason: "comment '{' never closed".into(),
        });
    }
    if let Some(&line) = variation.last() {
        return Err(PgnError {
            line,
            reason: "variation '(' never closed".into(),
        });
    }
    games.extend(game);
    Ok(games)
}

/// Plays the turn a PGN move word names on `pos` (portions joined by `;`, each a protocol
/// token or the variant's PGN notation: [`turn::play`] with [`Reading::Pgn`], the whole turn)
/// and returns its canonical protocol turn token. `pos` may be partly changed on error.
///
/// Errors: a portion that names no legal ply, or a turn that is not complete.
pub fn read_turn<G: Game>(pos: &mut G, word: &str) -> Result<String, TurnError> {
    let before = pos.clone();
    let plies = turn::play(pos, word, Reading::Pgn, Extent::Whole)?;
    Ok(turn::token(&before, &plies))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::Chess;
    use crate::variants::Rules;

    #[test]
    fn games_tags_and_moves() {
        let text = "[Event \"a \\\"b\\\"\"]\n[Result \"1-0\"]\n\n1. e4 {book} 1... e5 {+0.1/3\n0.1s} 2.Nf3 $1 (2. f4 exf4) Nc6;comment {\n}\n3. Bb5 1-0\n\n% escape\n[Event \"2\"]\n1. d4 *\n";
        let games = parse_pgn(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("a \"b\""));
        let moves: Vec<&str> = games[0].moves.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(moves, ["e4", "e5", "Nf3", "Nc6;comment", "Bb5"]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].line, 10);
        assert_eq!(games[1].moves, [("d4".to_string(), 11)]);
        // A word that starts with ';' is a comment to the end of the line.
        let g = parse_pgn("1. e4 ; rest e5\ne6 *").unwrap();
        assert_eq!(g[0].moves.len(), 2);
        for (bad, line) in [
            ("[Event x]\n1. e4", 1),
            ("1. e4 {open\n\ne5", 1),
            ("1. e4 (e5\n", 1),
            ("\n1. e4 ) e5", 2),
            ("1. e4 1-0 e5", 1),
        ] {
            let e = parse_pgn(bad).unwrap_err();
            assert_eq!(e.line, line, "{bad}: {e}");
        }
    }

    #[test]
    fn san_and_tokens_resolve() {
        let mut pos = Chess::startpos();
        for (word, token) in [
            ("e4", "e2e4"),
            ("e7e5", "e7e5"),
            ("Nf3!", "g1f3"),
            ("Nc6", "b8c6"),
            ("Bc4", "f1c4"),
            ("Nf6?!", "g8f6"),
            ("0-0", "e1g1"),
        ] {
            assert_eq!(read_turn(&mut pos, word).as_deref(), Ok(token), "{word}");
        }
        assert!(read_turn(&mut pos.clone(), "Qe7").is_ok());
        let err = read_turn(&mut pos, "Ke2").unwrap_err().to_string();
        assert!(err.contains("'Ke2' is not a legal move"), "{err}");
    }
}
