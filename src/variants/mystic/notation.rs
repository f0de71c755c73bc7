//! The Mystic Chess blog's notation (rules/mystic.md 5, "Importing the seed's notation"),
//! written and read: `@d2` buys a Pawn, `B@f3` upgrades the piece on f3 to a Bishop, everything
//! else is SAN (the orthodox board's, [`crate::variants::orthodox::san`]).

use super::{Mystic, MysticMove};
use crate::core::geometry::BOARD_8X8;
use crate::core::MoveList;
use crate::variants::orthodox::Kind;
use crate::variants::{MoveError, Notation, Rules};

/// Splits a game record (`1.@d2 @d7 2.@e2 ...  1/2-1/2`) into its move strings, dropping move
/// numbers and the result.
pub fn split_record(text: &str) -> Vec<String> {
    crate::variants::split_record_words(text)
}

/// The blog's notation of `m`, a legal action of `pos`, with `+` or `#` after a check or mate.
pub fn pgn_move(pos: &Mystic, m: MysticMove) -> String {
    let mut s = match m.as_placement() {
        Some((sq, _)) if pos.board().piece_at(sq).is_none() => format!("@{}", BOARD_8X8.name(sq)),
        Some((sq, piece)) => format!(
            "{}@{}",
            piece.kind().letter().to_ascii_uppercase(),
            BOARD_8X8.name(sq)
        ),
        None => {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let moves = list
                .iter()
                .filter(|o| o.as_placement().is_none())
                .map(|o| o.as_move());
            crate::variants::orthodox::san::move_san(pos.board(), m.as_move(), moves)
        }
    };
    s.push_str(crate::variants::orthodox::san::check_mark(pos, m));
    s
}

/// Resolves one move string of the blog's notation in `pos`.
///
/// Tolerates the slips the rules file lists: a missing `+`, and a disambiguation that fits no
/// piece (`27...Reh6`), in which case the first legal candidate without it is taken.
///
/// Errors: [`MoveError::Malformed`] for an unreadable string, [`MoveError::Illegal`] when no
/// legal action matches, [`MoveError::Ambiguous`] when several do.
pub fn import_move(pos: &Mystic, text: &str) -> Result<MysticMove, MoveError> {
    let malformed = |reason: &str| MoveError::Malformed {
        token: text.to_string(),
        reason: reason.to_string(),
    };
    let s = text.trim_end_matches(['+', '#', '!', '?']);
    if let Some(sq) = s.strip_prefix('@') {
        return pos.parse_move(&format!("P@{sq}"));
    }
    let b = s.as_bytes();
    if b.len() >= 3 && b[1] == b'@' {
        let kind = Kind::from_letter(b[0] as char)
            .map(|(_, k)| k)
            .ok_or_else(|| malformed("unknown piece letter"))?;
        let sq = &s[2..];
        return pos.parse_move(&format!("{sq}{sq}{}", kind.letter()));
    }
    if s.starts_with("O-O") || s.starts_with("0-0") {
        return Err(MoveError::Illegal(text.to_string()));
    }
    let (kind, rest) = match b.first() {
        Some(&c) if b"NBRQK".contains(&c) => (
            Kind::from_letter(c as char)
                .map(|(_, k)| k)
                .unwrap_or(Kind::Pawn),
            &s[1..],
        ),
        Some(c) if c.is_ascii_lowercase() => (Kind::Pawn, s),
        _ => return Err(malformed("not SAN")),
    };
    let (rest, promo) = match rest.split_once('=') {
        Some((r, p)) => (r, Some(p)),
        None => match rest.chars().last() {
            Some(c) if "NBRQ".contains(c) => {
                (&rest[..rest.len() - 1], Some(&rest[rest.len() - 1..]))
            }
            _ => (rest, None),
        },
    };
    let promo = match promo {
        None => None,
        Some(p) => Some(
            Kind::from_letter(p.chars().next().unwrap_or('?'))
                .map(|(_, k)| k)
                .ok_or_else(|| malformed("bad promotion"))?,
        ),
    };
    let rest: String = rest.chars().filter(|&c| c != 'x' && c != ':').collect();
    if rest.len() < 2 || !rest.is_ascii() {
        return Err(malformed("no destination square"));
    }
    let dest = BOARD_8X8
        .parse_square(&rest[rest.len() - 2..])
        .map_err(|e| malformed(&e.to_string()))?;
    let disamb = &rest[..rest.len() - 2];
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let board = pos.board();
    let candidates = |use_disamb: bool| -> Vec<MysticMove> {
        list.iter()
            .copied()
            .filter(|m| {
                let mv = m.as_move();
                if m.as_placement().is_some() || mv.to() != dest || mv.promotion() != promo {
                    return false;
                }
                if board.piece_at(mv.from()).kind() != kind {
                    return false;
                }
                if !use_disamb {
                    return true;
                }
                disamb.chars().all(|c| {
                    let name = BOARD_8X8.name(mv.from()).to_string();
                    name.contains(c)
                })
            })
            .collect()
    };
    let exact = candidates(true);
    match exact.len() {
        1 => Ok(exact[0]),
        0 if !disamb.is_empty() => candidates(false)
            .first()
            .copied()
            .ok_or_else(|| MoveError::Illegal(text.to_string())),
        0 => Err(MoveError::Illegal(text.to_string())),
        _ => Err(MoveError::Ambiguous(text.to_string())),
    }
}
