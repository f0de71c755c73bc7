//! Armies and their half-FEN notation (rules/muster.md 2): a placement of one colour's pieces
//! on that colour's home half, with exactly one King on files e-h.

use crate::core::Color;
use crate::variants::orthodox::{Kind, Piece};

/// The regular (orthodox) White army in half-FEN (rules/muster.md 2).
pub const REGULAR_WHITE: &str = "8/8/PPPPPPPP/RNBQKBNR";
/// The regular (orthodox) Black army in half-FEN (rules/muster.md 2).
pub const REGULAR_BLACK: &str = "rnbqkbnr/pppppppp/8/8";

/// Why an army (half-FEN) was rejected, for `info string error`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad {color} army '{text}': {reason}")]
pub struct ArmyError {
    /// `white` or `black`: the colour the army was read for.
    pub color: &'static str,
    /// The half-FEN as given (shortened when long).
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

/// A legal army of one colour (rules/muster.md 2): the pieces on the home half (White ranks
/// 1-4, Black ranks 5-8), board coordinates (a1 = 0 .. h8 = 63), exactly one King on files e-h.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Army {
    color: Color,
    /// `board[sq]`: the kind on square `sq` of the home half, `None` when empty.
    board: [Option<Kind>; 64],
}

/// The 32 squares of `color`'s home half (rules/muster.md 2).
pub const fn home_half(color: Color) -> u64 {
    match color {
        Color::White => 0x0000_0000_FFFF_FFFF,
        Color::Black => 0xFFFF_FFFF_0000_0000,
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Army {
    /// The regular (orthodox) army of `color` (rules/muster.md 2).
    pub fn regular(color: Color) -> Army {
        let text = match color {
            Color::White => REGULAR_WHITE,
            Color::Black => REGULAR_BLACK,
        };
        Army::parse(color, text).expect("the regular army is legal")
    }

    /// An army of `color` from `(square, kind)` pairs.
    ///
    /// Errors: as [`Army::parse`] (square off the home half, two pieces on one square, King
    /// count or King file).
    pub fn from_pieces(color: Color, pieces: &[(u8, Kind)]) -> Result<Army, ArmyError> {
        let mut army = Army {
            color,
            board: [None; 64],
        };
        for &(sq, kind) in pieces {
            if sq >= 64 || home_half(color) & (1u64 << sq) == 0 {
                return Err(army.error("", format!("square {sq} is not on the home half")));
            }
            if army.board[sq as usize].is_some() {
                return Err(army.error("", format!("two pieces on square {sq}")));
            }
            army.board[sq as usize] = Some(kind);
        }
        army.check("")?;
        Ok(army)
    }

    fn error(&self, text: &str, reason: impl Into<String>) -> ArmyError {
        ArmyError {
            color: color_name(self.color),
            text: text.chars().take(80).collect(),
            reason: reason.into(),
        }
    }

    /// Checks the rules of a legal army (rules/muster.md 2, rules 1 and 3).
    fn check(&self, text: &str) -> Result<(), ArmyError> {
        let kings: Vec<usize> = (0..64)
            .filter(|&s| self.board[s] == Some(Kind::King))
            .collect();
        if kings.len() != 1 {
            return Err(self.error(
                text,
                format!("an army has exactly one King, found {}", kings.len()),
            ));
        }
        if kings[0] % 8 < 4 {
            return Err(self.error(
                text,
                "the King must stand on files e-h (rules/muster.md 2, D2)",
            ));
        }
        Ok(())
    }

    /// Parses an army of `color` in half-FEN (rules/muster.md 2): four ranks separated by `/`,
    /// White's written 4/3/2/1 in uppercase, Black's 8/7/6/5 in lowercase; digits 1-8 count
    /// empty squares.
    ///
    /// Errors: an [`ArmyError`] naming the fault: rank count or length, a letter that is no
    /// piece or of the wrong case, no King or several, a King on files a-d.
    pub fn parse(color: Color, text: &str) -> Result<Army, ArmyError> {
        let mut army = Army {
            color,
            board: [None; 64],
        };
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != 4 {
            return Err(army.error(
                text,
                format!("expected 4 ranks separated by '/', found {}", rows.len()),
            ));
        }
        let top = match color {
            Color::White => 3,
            Color::Black => 7,
        };
        for (i, row) in rows.iter().enumerate() {
            let rank = top - i;
            let mut file = 0usize;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 || d > 8 {
                        return Err(army.error(text, format!("bad empty-square count '{c}'")));
                    }
                    file += d as usize;
                    if file > 8 {
                        return Err(
                            army.error(text, format!("rank {} has more than 8 files", rank + 1))
                        );
                    }
                    continue;
                }
                let Some((c_color, kind)) = Kind::from_letter(c) else {
                    return Err(army.error(text, format!("unknown piece letter '{c}'")));
                };
                if c_color != color {
                    return Err(army.error(
                        text,
                        format!(
                            "letter '{c}' is of the wrong case: a {} army is written in {}",
                            color_name(color),
                            if color == Color::White {
                                "uppercase"
                            } else {
                                "lowercase"
                            }
                        ),
                    ));
                }
                if file >= 8 {
                    return Err(
                        army.error(text, format!("rank {} has more than 8 files", rank + 1))
                    );
                }
                army.board[rank * 8 + file] = Some(kind);
                file += 1;
            }
            if file != 8 {
                return Err(army.error(
                    text,
                    format!("rank {} has {file} files, expected 8", rank + 1),
                ));
            }
        }
        army.check(text)?;
        Ok(army)
    }

    /// The army's colour.
    pub fn color(&self) -> Color {
        self.color
    }

    /// The kind on `sq` (0..64), `None` when empty or off the home half.
    pub fn at(&self, sq: u8) -> Option<Kind> {
        self.board.get(sq as usize).copied().flatten()
    }

    /// The square of the King.
    pub fn king_sq(&self) -> u8 {
        (0..64u8)
            .find(|&s| self.board[s as usize] == Some(Kind::King))
            .expect("a legal army has a King")
    }

    /// The pieces as `(square, kind)` pairs, in square order.
    pub fn pieces(&self) -> Vec<(u8, Kind)> {
        (0..64u8)
            .filter_map(|s| self.board[s as usize].map(|k| (s, k)))
            .collect()
    }

    /// Bitboard of the occupied squares.
    pub fn occupied(&self) -> u64 {
        (0..64)
            .filter(|&s| self.board[s].is_some())
            .fold(0, |b, s| b | 1u64 << s)
    }

    /// The same army for the other colour, reflected across the horizontal midline (square
    /// f,r -> f,9-r; rules/muster.md 2, rule 4).
    pub fn reflected(&self) -> Army {
        let mut board = [None; 64];
        for (sq, kind) in self.board.iter().enumerate() {
            board[sq ^ 56] = *kind;
        }
        Army {
            color: !self.color,
            board,
        }
    }

    /// The half-FEN of the army (rules/muster.md 2), e.g. `8/8/PPPPPPPP/RNBQKBNR`.
    pub fn half_fen(&self) -> String {
        let top = match self.color {
            Color::White => 3,
            Color::Black => 7,
        };
        let mut s = String::with_capacity(40);
        for i in 0..4 {
            let rank = top - i;
            let mut empty = 0;
            for file in 0..8 {
                match self.board[rank * 8 + file] {
                    None => empty += 1,
                    Some(kind) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(Piece::new(self.color, kind).letter());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if i < 3 {
                s.push('/');
            }
        }
        s
    }
}

/// The start placement of a game between two armies: `<black half>/<white half>`
/// (rules/muster.md 2 and 3).
pub fn start_placement(white: &Army, black: &Army) -> String {
    format!("{}/{}", black.half_fen(), white.half_fen())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_armies_round_trip_and_reflect() {
        // rules/muster.md 2: the regular army and the reflection W -> B.
        let w = Army::regular(Color::White);
        assert_eq!(w.half_fen(), REGULAR_WHITE);
        assert_eq!(w.reflected().half_fen(), REGULAR_BLACK);
        assert_eq!(w.king_sq(), 4);
        assert_eq!(Army::regular(Color::Black).king_sq(), 60);
    }

    #[test]
    fn illegal_armies_are_rejected_with_a_reason() {
        // rules/muster.md 2: one King, on files e-h, right case, four ranks.
        let bad = [
            ("8/8/PPPPPPPP/RNBQ1BNR", "exactly one King"),
            ("8/8/PPPPPPPP/RNBKKBNR", "exactly one King"),
            ("8/8/PPPPPPPP/RNKQ1BNR", "files e-h"),
            ("8/PPPPPPPP/RNBQKBNR", "4 ranks"),
            ("8/8/PPPPPPPP/RNBQKBNRR", "more than 8 files"),
            ("8/8/PPPPPPP/RNBQKBNR", "7 files"),
            ("8/8/pppppppp/RNBQKBNR", "wrong case"),
            ("8/8/XPPPPPPP/RNBQKBNR", "unknown piece letter"),
            ("8/8/9/RNBQKBNR", "bad empty-square count"),
        ];
        for (text, why) in bad {
            let e = Army::parse(Color::White, text).expect_err(text);
            assert!(e.to_string().contains(why), "{text}: {e}");
        }
        assert!(Army::parse(Color::Black, REGULAR_WHITE).is_err());
    }

    #[test]
    fn pawns_on_the_first_rank_and_many_queens_are_legal() {
        // rules/muster.md 2, D1: pawns on rank 1 are legal.
        let a = Army::parse(Color::White, "QQQQQQQQ/8/8/PPPPKPPP").unwrap();
        assert_eq!(a.half_fen(), "QQQQQQQQ/8/8/PPPPKPPP");
        assert_eq!(a.pieces().len(), 16);
    }
}
