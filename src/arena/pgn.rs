//! PGN export of finished games. Moves are written in each variant's PGN notation
//! ([`crate::variants::Game::pgn_move`]): SAN for orthodox chess, so python-chess and other PGN
//! tools read the games; protocol turn tokens for the other variants.

use std::fmt::Write;

use super::referee::GameRecord;

/// The names and place of one game in the match, for its PGN tags.
pub struct PgnHeader<'a> {
    /// The `Event` tag.
    pub event: &'a str,
    /// The round (game number, from 1).
    pub round: usize,
    /// The white player's name.
    pub white: &'a str,
    /// The black player's name.
    pub black: &'a str,
    /// The variant's protocol name.
    pub variant: &'a str,
    /// FEN of the variant's standard start position: a game starting elsewhere gets `FEN`
    /// and `SetUp` tags.
    pub standard_fen: &'a str,
}

/// One game as PGN text (tags, a blank line, the movetext ending with the result and a
/// comment giving the reason, a blank line).
pub fn game_pgn(h: &PgnHeader<'_>, g: &GameRecord) -> String {
    let mut s = String::new();
    let result = g.result.as_str();
    let tag = |s: &mut String, k: &str, v: &str| {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(s, "[{k} \"{v}\"]");
    };
    tag(&mut s, "Event", h.event);
    tag(&mut s, "Site", "menagerie arena");
    tag(&mut s, "Round", &h.round.to_string());
    tag(&mut s, "White", h.white);
    tag(&mut s, "Black", h.black);
    tag(&mut s, "Result", result);
    tag(&mut s, "Variant", h.variant);
    if g.start_fen != h.standard_fen {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", &g.start_fen);
    }
    tag(&mut s, "Termination", g.termination.pgn());
    tag(&mut s, "PlyCount", &g.notation.len().to_string());
    s.push('\n');
    // Move numbers follow the FEN's side to move and fullmove number when present.
    let fields: Vec<&str> = g.start_fen.split_whitespace().collect();
    let black_first = fields.get(1) == Some(&"b");
    let mut number: usize = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut line = String::new();
    let mut words: Vec<String> = Vec::new();
    for (i, m) in g.notation.iter().enumerate() {
        let white_turn = i.is_multiple_of(2) != black_first;
        if white_turn {
            words.push(format!("{number}. {m}"));
        } else {
            if i == 0 {
                words.push(format!("{number}... {m}"));
            } else {
                words.push(m.clone());
            }
            number += 1;
        }
    }
    words.push(format!("{{{}}}", g.reason.replace('}', ")")));
    words.push(result.to_string());
    for w in words {
        if !line.is_empty() && line.len() + w.len() + 1 > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::Termination;
    use crate::variants::GameResult;

    #[test]
    fn pgn_tags_and_movetext() {
        let std_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let h = PgnHeader {
            event: "t",
            round: 2,
            white: "a",
            black: "b",
            variant: "chess",
            standard_fen: std_fen,
        };
        let mut g = GameRecord {
            start_fen: std_fen.into(),
            moves: vec!["f2f3".into(), "e7e5".into(), "g2g4".into(), "d8h4".into()],
            notation: vec!["f3".into(), "e5".into(), "g4".into(), "Qh4#".into()],
            result: GameResult::BlackWins,
            termination: Termination::Normal,
            reason: "checkmate".into(),
        };
        let text = game_pgn(&h, &g);
        assert!(text.contains("[Variant \"chess\"]\n") && text.contains("[Result \"0-1\"]\n"));
        assert!(!text.contains("[FEN"));
        assert!(
            text.contains("\n1. f3 e5 2. g4 Qh4# {checkmate} 0-1\n\n"),
            "{text}"
        );
        g.start_fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into();
        g.notation.truncate(1);
        g.termination = Termination::IllegalMove;
        let text = game_pgn(&h, &g);
        assert!(text.contains("[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"));
        assert!(text.contains("[Termination \"rules infraction\"]"));
        assert!(text.contains("\n1... f3 {checkmate} 0-1\n"), "{text}");
    }
}
