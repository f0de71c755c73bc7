//! PGN writing: tag pairs and movetext (PGN standard 8), the parts every writer of this crate
//! shares: the match runner's games ([`crate::tools::arena::pgn`]), the GUI's saved games and
//! `menagerie replay`.

use std::fmt::Write;

/// Today's UTC date as the PGN `Date` tag writes it (`YYYY.MM.DD`).
pub fn today() -> String {
    let d = time::OffsetDateTime::now_utc().date();
    format!("{:04}.{:02}.{:02}", d.year(), u8::from(d.month()), d.day())
}

/// Appends the tag pair `[name "value"]` (PGN standard 8.1.1: `\\` and `"` escaped).
pub fn push_tag(s: &mut String, name: &str, value: &str) {
    let v = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(s, "[{name} \"{v}\"]");
}

/// Appends the movetext of a game that starts at `start_fen` and plays the turns `notation`:
/// move numbers that follow the FEN's side to move and fullmove number, after each turn the
/// comment `comment(i)` gives (with its braces) if any, then the words of `tail` (the reason
/// and the result), in lines of at most 79 characters, and a blank line.
pub fn push_movetext(
    s: &mut String,
    start_fen: &str,
    notation: &[String],
    comment: impl Fn(usize) -> Option<String>,
    tail: &[String],
) {
    let fields: Vec<&str> = start_fen.split_whitespace().collect();
    let black_first = fields.get(1) == Some(&"b");
    let mut number: usize = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut words: Vec<String> = Vec::new();
    for (i, m) in notation.iter().enumerate() {
        let white_turn = i.is_multiple_of(2) != black_first;
        if white_turn {
            words.push(format!("{number}. {m}"));
        } else {
            // Black's move repeats its number (after a comment, PGN standard 8.2.2.2).
            words.push(format!("{number}... {m}"));
            number += 1;
        }
        words.extend(comment(i));
    }
    words.extend(tail.iter().cloned());
    let mut line = String::new();
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_escaped_and_the_date_has_the_pgn_form() {
        let mut s = String::new();
        push_tag(&mut s, "Event", "a \"b\" \\ c");
        assert_eq!(s, "[Event \"a \\\"b\\\" \\\\ c\"]\n");
        let d = today();
        let b = d.as_bytes();
        assert_eq!((d.len(), b[4], b[7]), (10, b'.', b'.'), "{d}");
        assert!(d.chars().filter(|c| c.is_ascii_digit()).count() == 8, "{d}");
    }

    #[test]
    fn movetext_numbers_follow_the_fen() {
        let mut s = String::new();
        let moves = ["e5".to_string(), "Nf3".to_string(), "Nc6".to_string()];
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7";
        push_movetext(
            &mut s,
            fen,
            &moves,
            |i| (i == 0).then(|| "{c}".into()),
            &["*".into()],
        );
        assert_eq!(s, "7... e5 {c} 8. Nf3 8... Nc6 *\n\n");
    }
}
