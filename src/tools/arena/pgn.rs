//! The PGN of a match's finished games: tags, and after each turn the comment fastchess
//! writes, on the writer of [`crate::tools::pgn`]. Moves are written in each variant's PGN
//! notation ([`crate::variants::Notation::pgn_move`]): SAN for orthodox chess, so python-chess
//! and other PGN tools read the games; protocol turn tokens for the other variants.

use std::fmt::Write;

use super::referee::{GameRecord, TurnInfo};
use super::spec::Limit;
use crate::search::Score;
use crate::tools::pgn::{push_movetext, push_tag};

/// The names and place of one game in the match, for its PGN tags.
pub struct PgnHeader<'a> {
    /// The `Event` tag.
    pub event: &'a str,
    /// The `Date` tag, `YYYY.MM.DD` ([`crate::tools::pgn::today`]).
    pub date: &'a str,
    /// The round (game number, from 1).
    pub round: usize,
    /// The white player's name.
    pub white: &'a str,
    /// The black player's name.
    pub black: &'a str,
    /// The variant's protocol name.
    pub variant: &'a str,
    /// The search limits of White and Black, for the `TimeControl` tags.
    pub limits: [Limit; 2],
}

/// A limit as a PGN `TimeControl` value (PGN standard 9.6.1; seconds): `300+5` for a clock,
/// `1/0.1` (one move per 0.1 s) for a movetime, `-` (untimed) for node and depth limits.
pub fn time_control(limit: Limit) -> String {
    let secs = |ms: u64| {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    match limit {
        Limit::Clock { base_ms, inc_ms: 0 } => secs(base_ms),
        Limit::Clock { base_ms, inc_ms } => format!("{}+{}", secs(base_ms), secs(inc_ms)),
        Limit::Movetime(ms) => format!("1/{}", secs(ms)),
        Limit::Nodes(_) | Limit::Depth(_) => "-".into(),
    }
}

/// The comment after a turn: `{book}` for a book turn, else `{<score>/<depth> <time>s}` as
/// fastchess writes it (score in pawns from the mover's point of view, `+M3`/`-M2` for mates;
/// the parts the player did not report are left out).
fn turn_comment(info: &TurnInfo) -> String {
    if info.book {
        return "{book}".into();
    }
    let mut c = String::from("{");
    match info.score {
        Some(Score::Cp(cp)) => {
            let _ = write!(
                c,
                "{}{:.2}",
                if cp < 0 { "-" } else { "+" },
                cp.abs() as f64 / 100.0
            );
        }
        Some(Score::Mate(n)) => {
            let _ = write!(c, "{}M{}", if n <= 0 { "-" } else { "+" }, n.abs());
        }
        None => {}
    }
    if let (Some(_), Some(d)) = (info.score, info.depth) {
        let _ = write!(c, "/{d}");
    }
    if info.score.is_some() {
        c.push(' ');
    }
    let _ = write!(c, "{:.3}s}}", info.time_ms as f64 / 1000.0);
    c
}

/// One game as PGN text (tags, a blank line, the movetext with a comment after each turn,
/// ending with a comment giving the reason and the result, a blank line). Every game gets
/// `SetUp` and `FEN` tags, whatever its start: a variant's PGN is only readable with them, and
/// PGN readers accept them for the standard start too.
pub fn game_pgn(h: &PgnHeader<'_>, g: &GameRecord) -> String {
    let mut s = String::new();
    let result = g.result.as_str();
    let tag = push_tag;
    tag(&mut s, "Event", h.event);
    tag(&mut s, "Site", "menagerie arena");
    tag(&mut s, "Date", h.date);
    tag(&mut s, "Round", &h.round.to_string());
    tag(&mut s, "White", h.white);
    tag(&mut s, "Black", h.black);
    tag(&mut s, "Result", result);
    tag(&mut s, "Variant", h.variant);
    tag(&mut s, "SetUp", "1");
    tag(&mut s, "FEN", &g.start_fen);
    let [wtc, btc] = h.limits.map(time_control);
    if wtc == btc {
        tag(&mut s, "TimeControl", &wtc);
    } else {
        tag(&mut s, "TimeControl", "?");
        tag(&mut s, "WhiteTimeControl", &wtc);
        tag(&mut s, "BlackTimeControl", &btc);
    }
    tag(&mut s, "Termination", g.termination.pgn());
    tag(&mut s, "PlyCount", &g.notation.len().to_string());
    s.push('\n');
    let tail = [
        format!("{{{}}}", g.reason.replace('}', ")")),
        result.to_string(),
    ];
    push_movetext(
        &mut s,
        &g.start_fen,
        &g.notation,
        |i| g.infos.get(i).map(turn_comment),
        &tail,
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::arena::referee::Termination;
    use crate::variants::GameResult;

    fn info(score: Option<Score>, depth: Option<u32>, time_ms: u64) -> TurnInfo {
        TurnInfo {
            book: false,
            score,
            depth,
            time_ms,
        }
    }

    #[test]
    fn pgn_tags_and_movetext() {
        let std_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let h = PgnHeader {
            event: "t",
            date: "2024.01.31",
            round: 2,
            white: "a",
            black: "b",
            variant: "chess",
            limits: [Limit::Clock {
                base_ms: 10_000,
                inc_ms: 100,
            }; 2],
        };
        let book = TurnInfo {
            book: true,
            score: None,
            depth: None,
            time_ms: 0,
        };
        let mut g = GameRecord {
            start_fen: std_fen.into(),
            moves: vec!["f2f3".into(), "e7e5".into(), "g2g4".into(), "d8h4".into()],
            notation: vec!["f3".into(), "e5".into(), "g4".into(), "Qh4#".into()],
            infos: vec![
                book,
                info(Some(Score::Cp(-25)), Some(7), 105),
                info(None, None, 2),
                info(Some(Score::Mate(1)), Some(3), 1_250),
            ],
            book_turns: 1,
            result: GameResult::BlackWins,
            termination: Termination::Normal,
            reason: "checkmate".into(),
        };
        let text = game_pgn(&h, &g);
        for t in [
            "[Variant \"chess\"]\n",
            "[Result \"0-1\"]\n",
            "[Date \"2024.01.31\"]\n",
            "[TimeControl \"10+0.1\"]\n",
            "[SetUp \"1\"]\n",
            &format!("[FEN \"{std_fen}\"]\n"),
        ] {
            assert!(text.contains(t), "{t}: {text}");
        }
        let movetext = text.split("\n\n").nth(1).unwrap();
        assert!(movetext.lines().all(|l| l.len() <= 79), "{text}");
        assert_eq!(
            movetext.split_whitespace().collect::<Vec<_>>().join(" "),
            "1. f3 {book} 1... e5 {-0.25/7 0.105s} 2. g4 {0.002s} 2... Qh4# {+M1/3 1.250s} {checkmate} 0-1"
        );
        g.start_fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into();
        g.notation.truncate(1);
        g.infos.truncate(1);
        g.termination = Termination::IllegalMove;
        let h = PgnHeader {
            limits: [Limit::Movetime(100), Limit::Nodes(5)],
            ..h
        };
        let text = game_pgn(&h, &g);
        assert!(text.contains("[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"));
        assert!(text.contains("[Termination \"rules infraction\"]"));
        assert!(text.contains(
            "[TimeControl \"?\"]\n[WhiteTimeControl \"1/0.1\"]\n[BlackTimeControl \"-\"]"
        ));
        assert!(
            text.contains("\n1... f3 {book} {checkmate} 0-1\n"),
            "{text}"
        );
    }
}
