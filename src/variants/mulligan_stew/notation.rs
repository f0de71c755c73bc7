//! Move tokens (rules/mulligan-stew.md 8, protocol.md 3), the notation the engine writes
//! (docs/rules/mulligan-stew.md "Notation": the seed's, in SAN's form) and the importer of the
//! seed's own notation (rules 8, "Importing the seed's notation").

use super::board::Kind;
use super::board::BOARD_6X7;
use super::moves::{Action, MulliganStewMove};
use super::position::MulliganStew;
use crate::core::{MoveList, Square};
use crate::variants::MoveError;

fn name(sq: Square) -> String {
    BOARD_6X7.name(sq).to_string()
}

/// The canonical token of a portion (rules 8): `c1c3`, `c6c7q`, `c7c7r`, `M@b3`,
/// `b3d1,d1b3`, `0000`.
pub fn token(m: MulliganStewMove) -> String {
    let (f, t) = (m.from(), m.to());
    match m.action() {
        Some(Action::Normal) => format!("{}{}", name(f), name(t)),
        Some(Action::Promotion) | Some(Action::PromoteInPlace) => format!(
            "{}{}{}",
            name(f),
            name(t),
            m.promo().letter().to_ascii_lowercase()
        ),
        Some(Action::Drop) => format!("M@{}", name(t)),
        Some(Action::Swap) => format!("{}{},{}{}", name(f), name(t), name(t), name(f)),
        Some(Action::Skip) | None => "0000".to_string(),
    }
}

/// The notation of portion `m`, legal in `pos` (docs/rules/mulligan-stew.md "Notation"): SAN
/// with the seed's piece letters K M Q R C A (a Pawn has none; its captures name its file,
/// `bxa5`), the least disambiguation that makes the portion unique, `x` for captures, `c7=Q`
/// for a promotion and `=Qc7` for a promotion in place; the Mage's drop written as a move
/// (`Mb3`, or `M@b3` where a Mage on the board could also go there), its swap as
/// `M<to>@<X><from>` (the Mage goes to `<to>`, the piece X there, letter left out for a Pawn,
/// to `<from>`: `Md1@Kb3`); the forced skip `--`; `+` after the capture of a King and `++`
/// after the capture of the last one.
pub fn written(pos: &MulliganStew, m: MulliganStewMove) -> String {
    let (from, to) = (m.from(), m.to());
    let mut list = MoveList::new();
    pos.generate(&mut list, false);
    let letter = |k: Kind| {
        if k == Kind::Pawn {
            String::new()
        } else {
            k.letter().to_ascii_uppercase().to_string()
        }
    };
    let target = pos.piece_at(to);
    let mut s = match m.action() {
        Some(Action::Skip) | None => return "--".to_string(),
        Some(Action::PromoteInPlace) => format!("={}{}", letter(m.promo()), name(to)),
        Some(Action::Drop) => {
            let board_mage = list.iter().any(|o| {
                matches!(o.action(), Some(Action::Normal))
                    && o.to() == to
                    && pos.piece_at(o.from()).kind() == Kind::Mage
            });
            format!("M{}{}", if board_mage { "@" } else { "" }, name(to))
        }
        Some(Action::Swap) => format!("M{}@{}{}", name(to), letter(target.kind()), name(from)),
        Some(Action::Normal) | Some(Action::Promotion) => {
            let kind = pos.piece_at(from).kind();
            let capture = !target.is_none();
            let rivals: Vec<Square> = list
                .iter()
                .filter(|o| {
                    matches!(o.action(), Some(Action::Normal) | Some(Action::Promotion))
                        && o.to() == to
                        && o.from() != from
                        && pos.piece_at(o.from()).kind() == kind
                })
                .map(|o| o.from())
                .collect();
            let (file, rank) = (|sq: Square| sq % 6, |sq: Square| sq / 6);
            let from_name = name(from);
            let mut w = letter(kind);
            // A Pawn's capture always names its file, as in SAN.
            let pawn_file = kind == Kind::Pawn && capture;
            if pawn_file {
                w.push_str(&from_name[..1]);
            }
            let rivals: Vec<Square> = rivals
                .into_iter()
                .filter(|&r| !pawn_file || file(r) == file(from))
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|&r| file(r) == file(from));
                let same_rank = rivals.iter().any(|&r| rank(r) == rank(from));
                if pawn_file {
                    w.push_str(&from_name[1..]);
                } else if kind == Kind::Pawn {
                    // Two Pawn moves to one square (a step and a leap): the whole square.
                    w.push_str(&from_name);
                } else if !same_file {
                    w.push_str(&from_name[..1]);
                } else if !same_rank {
                    w.push_str(&from_name[1..]);
                } else {
                    w.push_str(&from_name);
                }
            }
            if capture {
                w.push('x');
            }
            w.push_str(&name(to));
            if m.action() == Some(Action::Promotion) {
                w.push('=');
                w.push_str(&letter(m.promo()));
            }
            w
        }
    };
    if !target.is_none() && target.kind() == Kind::King && m.action() != Some(Action::Swap) {
        let kings = (0..42u8)
            .filter(|&sq| {
                let p = pos.piece_at(sq);
                !p.is_none() && p.kind() == Kind::King && p.color() == target.color()
            })
            .count();
        s.push_str(if kings == 1 { "++" } else { "+" });
    }
    s
}

fn malformed(token: &str, reason: &str) -> MoveError {
    MoveError::Malformed {
        token: token.to_string(),
        reason: reason.to_string(),
    }
}

fn square(token: &str, s: &str) -> Result<Square, MoveError> {
    BOARD_6X7
        .parse_square(s)
        .map_err(|e| malformed(token, &e.to_string()))
}

/// Parses a portion token against the legal portions of `pos`. Lenient input (protocol.md 3):
/// a swap written as its Mage leg only (`b3d1`) is accepted when no move `b3d1` exists and
/// exactly that swap does.
///
/// Errors: [`MoveError::Malformed`] for a token of no known shape, [`MoveError::Illegal`] when
/// no legal portion has it.
pub fn parse(pos: &MulliganStew, tok: &str) -> Result<MulliganStewMove, MoveError> {
    let wanted = if tok == "0000" {
        MulliganStewMove::SKIP
    } else if let Some(sq) = tok.strip_prefix("M@") {
        MulliganStewMove::drop(square(tok, sq)?)
    } else if let Some((a, b)) = tok.split_once(',') {
        if a.len() != 4 || b.len() != 4 || !a.is_ascii() || !b.is_ascii() {
            return Err(malformed(tok, "a swap is written <from><to>,<to><from>"));
        }
        let (f, t) = (square(tok, &a[..2])?, square(tok, &a[2..])?);
        let (f2, t2) = (square(tok, &b[..2])?, square(tok, &b[2..])?);
        if f2 != t || t2 != f {
            return Err(malformed(
                tok,
                "the partner's leg must go back the Mage's way: <from><to>,<to><from>",
            ));
        }
        MulliganStewMove::swap(f, t)
    } else {
        if !tok.is_ascii() || !(4..=5).contains(&tok.len()) {
            return Err(malformed(
                tok,
                "expected <from><to>[q|r|c|a|m], M@<square>, a swap or 0000",
            ));
        }
        let (f, t) = (square(tok, &tok[..2])?, square(tok, &tok[2..4])?);
        match tok.as_bytes().get(4) {
            None => MulliganStewMove::normal(f, t),
            Some(&c) => {
                let kind = Kind::from_letter(c as char)
                    .filter(|k| k.pool_index().is_some() && c.is_ascii_lowercase())
                    .ok_or_else(|| malformed(tok, "promotion letter must be q, r, c, a or m"))?;
                if f == t {
                    MulliganStewMove::in_place(f, kind)
                } else {
                    MulliganStewMove::promotion(f, t, kind)
                }
            }
        }
    };
    let mut list = MoveList::new();
    pos.generate(&mut list, false);
    if list.contains(&wanted) {
        return Ok(wanted);
    }
    // Lenient swap: the Mage's leg alone.
    if wanted.action() == Some(Action::Normal) {
        let swap = MulliganStewMove::swap(wanted.from(), wanted.to());
        if list.contains(&swap) {
            return Ok(swap);
        }
    }
    Err(MoveError::Illegal(tok.to_string()))
}

/// Splits a record in the seed's notation (`1. Mb3, Kc3   e5, Ma5 ... 0-1`) into portion
/// strings: move numbers, commas and the result dropped; `=Q c7` joined into one string.
pub fn split_record(text: &str) -> Vec<String> {
    let words = crate::variants::split_record_words(&text.replace(',', " "));
    let mut out: Vec<String> = Vec::new();
    for w in words {
        match out.last_mut() {
            Some(last) if last.starts_with('=') && last.len() == 2 => last.push_str(&w),
            _ => out.push(w),
        }
    }
    out
}

/// Resolves one portion written in the seed's notation (rules 8): `Mb3` (a drop while the
/// Mage is in hand), `Kc3`, `e5`, `K:a5+`, `P:a5+`, `R:a4++`, the swap `Md1@Kb3`, `0000`,
/// SAN-style promotions `c7=Q` and `=Qc7`. A correction written `Kc2(=Kc3)` uses the part in
/// brackets.
///
/// Errors: [`MoveError::Malformed`] for an unreadable string, [`MoveError::Illegal`] when no
/// legal portion fits, [`MoveError::Ambiguous`] when several do.
pub fn import(pos: &MulliganStew, text: &str) -> Result<MulliganStewMove, MoveError> {
    let mut s = text;
    if let Some(i) = s.find("(=") {
        s = s[i + 2..].trim_end_matches(')');
    }
    let s = s.trim_end_matches(['+', '#', '!', '?']);
    if s == "0000" || s == "--" {
        return parse(pos, "0000");
    }
    let us = pos.side;
    let mut list = MoveList::new();
    pos.generate(&mut list, false);
    // Promotion-only: =Qc7
    if let Some(rest) = s.strip_prefix('=') {
        let kind = rest
            .chars()
            .next()
            .and_then(Kind::from_letter)
            .ok_or_else(|| malformed(text, "expected =<piece><square>"))?;
        let sq = square(text, &rest[1..])?;
        let m = MulliganStewMove::in_place(sq, kind);
        return if list.contains(&m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(text.to_string()))
        };
    }
    // Swap: M<to>@[X]<from>
    if let Some(rest) = s.strip_prefix('M') {
        if let Some((to, from)) = rest.split_once('@') {
            let to = square(text, to)?;
            let from = from.trim_start_matches(|c: char| c.is_ascii_uppercase());
            let from = square(text, from)?;
            let m = MulliganStewMove::swap(from, to);
            return if list.contains(&m) {
                Ok(m)
            } else {
                Err(MoveError::Illegal(text.to_string()))
            };
        }
    }
    let (kind, rest) = match s.chars().next() {
        Some(c) if c.is_ascii_uppercase() => (
            Kind::from_letter(c).ok_or_else(|| malformed(text, "unknown piece letter"))?,
            &s[1..],
        ),
        Some(_) => (Kind::Pawn, s),
        None => return Err(malformed(text, "empty move")),
    };
    let (capture, rest) = match rest.strip_prefix(':') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let (dest, promo) = match rest.split_once('=') {
        Some((d, p)) => (
            d,
            Some(
                p.chars()
                    .next()
                    .and_then(Kind::from_letter)
                    .ok_or_else(|| malformed(text, "unknown promotion letter"))?,
            ),
        ),
        None => (rest, None),
    };
    let to = square(text, dest)?;
    if kind == Kind::Mage && !capture && pos.in_hand(us) {
        let m = MulliganStewMove::drop(to);
        return if list.contains(&m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(text.to_string()))
        };
    }
    let mut found: Option<MulliganStewMove> = None;
    for &m in &list {
        let ok_action = match m.action() {
            Some(Action::Normal) => promo.is_none(),
            Some(Action::Promotion) => promo == Some(m.promo()),
            _ => false,
        };
        if !ok_action || m.to() != to || pos.piece_at(m.from()).kind() != kind {
            continue;
        }
        if capture == pos.piece_at(to).is_none() {
            continue;
        }
        if found.is_some() {
            return Err(MoveError::Ambiguous(text.to_string()));
        }
        found = Some(m);
    }
    found.ok_or_else(|| MoveError::Illegal(text.to_string()))
}
