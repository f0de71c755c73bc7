//! The Mutatis Mutandis FEN (rules/mutatis-mutandis.md 11):
//! `<board> <stm> <corner> <ep> <half> <full> reserve:<w>/<b> drops:<dW>/<dB> swapban:<sq1sq2|->`.
//!
//! Parsing checks every field and names the one at fault; the tags may come in any order and
//! default to `reserve:-/- drops:0/0 swapban:-` [D 32]. Output is canonical: flags in the
//! order `KAHkah`, all three tags. What no game can reach is refused (the
//! specification's D 22 dropped such flags silently): a flag that cannot apply (`K` needs the
//! King-family piece in state `K` on its home row, `A`/`H` a piece of that side on the
//! corner), more drops made plus reserve pieces than a setup's reserve holds, more drops than
//! the windows passed by the full move number allow (rules 8), and a position with more
//! legal turns than the turn list holds ([`super::moves::MAX_MOVES`]).

use std::fmt::Write as _;

use crate::core::{Color, Square};
use crate::variants::FenError;

use super::board::{bit, forward, parse_square, rank_of, square_name, step, Board};
use super::legal::royal_attacked;
use super::piece::{Piece, State};
use super::position::{flag, home_bb, MutatisMutandis, Reserve};
use super::setup::RESERVE_LEN;

/// The example start of rules 11, the `startpos` of the protocol (a fixed, documented default;
/// games normally start from a random setup, rules 3).
pub const START_FEN: &str = "[gr][nr]k[dk][ch]r[da][wi]/pppppppp/8/8/8/8/PPPPPPPP/[LL][AR]CKQ[MA][HN][IM] w KAHkah - 0 1 reserve:AM.NR.DA.DK.N.GR.CR.R.NW.PV.CH.WI.OX/q.am.ar.c.n.cr.nw.pv.ll.im.ma.hn.ox drops:0/0 swapban:-";

fn err(field: &'static str, reason: impl Into<String>) -> FenError {
    FenError::new(field, reason)
}

/// Parses one side's reserve list (`AM.NR.DA` or `-`), codes in the case of `color`.
fn parse_reserve(text: &str, color: Color) -> Result<Vec<State>, FenError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    let side = if color == Color::White {
        "White"
    } else {
        "Blue"
    };
    text.split('.')
        .map(|code| {
            let p = Piece::from_code(code)
                .ok_or_else(|| err("reserve", format!("'{code}' is not a piece code")))?;
            if p.color != color {
                return Err(err(
                    "reserve",
                    format!("'{code}' in {side}'s reserve has the other side's case"),
                ));
            }
            if p.state.family() == 1 {
                return Err(err("reserve", "a King or Maoking cannot be in a reserve"));
            }
            Ok(p.state)
        })
        .collect()
}

/// Parses a FEN of rules 11 into a position.
///
/// Errors: a [`FenError`] naming the field (`board`, `side to move`, `corner`, `en passant`,
/// `halfmove clock`, `fullmove number`, `reserve`, `drops`, `swapban`, `tag`) and the reason.
pub fn parse(fen: &str) -> Result<MutatisMutandis, FenError> {
    let mut fields = Vec::new();
    let mut tags = Vec::new();
    for w in fen.split_whitespace() {
        if w.contains(':') {
            tags.push(w);
        } else if !tags.is_empty() {
            return Err(err(
                "tag",
                format!("'{w}' after the tags is not a key:value tag"),
            ));
        } else {
            fields.push(w);
        }
    }
    if fields.len() < 2 {
        return Err(err(
            "board",
            "expected at least the board and the side to move",
        ));
    }
    if fields.len() > 6 {
        return Err(err(
            "fullmove number",
            format!("unexpected field '{}'", fields[6]),
        ));
    }
    let board = Board::from_fen_board(fields[0]).map_err(|e| err("board", e.to_string()))?;
    let mut pos = MutatisMutandis::empty();
    pos.board = board;
    for c in Color::ALL {
        let kings = pos.board.pieces(c, State::King) | pos.board.pieces(c, State::Maoking);
        if kings.count_ones() != 1 {
            return Err(err(
                "board",
                format!(
                    "{} must have exactly one King or Maoking, found {}",
                    if c == Color::White { "White" } else { "Blue" },
                    kings.count_ones()
                ),
            ));
        }
    }
    pos.side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        s => return Err(err("side to move", format!("'{s}' is not w or b"))),
    };

    // Cornering flags.
    let corner_text = fields.get(2).copied().unwrap_or("-");
    if corner_text != "-" {
        for ch in corner_text.chars() {
            let f = match ch {
                'K' => flag::WK,
                'A' => flag::WA,
                'H' => flag::WH,
                'k' => flag::BK,
                'a' => flag::BA,
                'h' => flag::BH,
                _ => return Err(err("corner", format!("'{ch}' is not one of KAHkah"))),
            };
            if pos.corner & f != 0 {
                return Err(err("corner", format!("'{ch}' is given twice")));
            }
            pos.corner |= f;
        }
    }
    let unreachable = pos.corner & !applicable_flags(&pos.board);
    if unreachable != 0 {
        return Err(err("corner", unreachable_flag_reason(unreachable)));
    }

    // En passant.
    let ep_text = fields.get(3).copied().unwrap_or("-");
    if ep_text != "-" {
        let sq = parse_square(ep_text).map_err(|e| err("en passant", e.to_string()))?;
        let them = !pos.side;
        let row = if them == Color::White { 2 } else { 5 };
        if rank_of(sq) != row {
            return Err(err(
                "en passant",
                format!("{ep_text} is not on the rank a double step of the side not to move skips"),
            ));
        }
        let beyond = step(sq, 0, forward(them));
        let stepped = beyond.and_then(|s| pos.board.piece(s));
        if pos.board.piece(sq).is_some() || stepped.is_none_or(|p| p.color != them) {
            return Err(err(
                "en passant",
                format!("{ep_text} must be empty with the double-stepped piece beyond it"),
            ));
        }
        pos.board.ep = Some(sq);
    }
    pos.half = match fields.get(4) {
        None => 0,
        Some(t) => t
            .parse()
            .map_err(|_| err("halfmove clock", format!("'{t}' is not a number 0..65535")))?,
    };
    pos.full = match fields.get(5) {
        None => 1,
        Some(t) => match t.parse::<u16>() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(err(
                    "fullmove number",
                    format!("'{t}' is not a number 1..65535"),
                ))
            }
        },
    };

    // Tags.
    let (mut reserves, mut drops, mut ban) = (None, None, None);
    for tag in tags {
        let (key, value) = tag.split_once(':').unwrap_or((tag, ""));
        let slot = match key {
            "reserve" => &mut reserves,
            "drops" => &mut drops,
            "swapban" => &mut ban,
            _ => return Err(err("tag", format!("unknown tag '{key}'"))),
        };
        if slot.is_some() {
            return Err(err("tag", format!("'{key}' is given twice")));
        }
        *slot = Some(value);
    }
    let reserve_lists = match reserves {
        None => (Vec::new(), Vec::new()),
        Some(v) => {
            let (w, b) = v
                .split_once('/')
                .ok_or_else(|| err("reserve", "expected <white>/<blue>"))?;
            (
                parse_reserve(w, Color::White)?,
                parse_reserve(b, Color::Black)?,
            )
        }
    };
    let drop_counts = match drops {
        None => (0, 0),
        Some(v) => {
            let (w, b) = v
                .split_once('/')
                .ok_or_else(|| err("drops", "expected <white>/<blue>"))?;
            let n = |t: &str| {
                t.parse::<u8>()
                    .map_err(|_| err("drops", format!("'{t}' is not a count of drops")))
            };
            (n(w)?, n(b)?)
        }
    };
    for (c, drops, list) in [
        (Color::White, drop_counts.0, &reserve_lists.0),
        (Color::Black, drop_counts.1, &reserve_lists.1),
    ] {
        let name = if c == Color::White { "White" } else { "Blue" };
        // Drops and promotions take pieces from the setup's reserve, never add any (rules 8, 10).
        if drops as usize + list.len() > RESERVE_LEN {
            return Err(err(
                "drops",
                format!(
                    "{name} has made {drops} drops and has {} reserve pieces left, more than \
                     the {RESERVE_LEN} pieces of a reserve",
                    list.len()
                ),
            ));
        }
        let most = most_drops(c, pos.side, pos.full);
        if drops > most {
            return Err(err(
                "drops",
                format!(
                    "{name} has made {drops} drops, but by full move {} with {} to move at \
                     most {most} can have been made (rules 8: the k-th drop from turn 5k+{})",
                    pos.full,
                    if pos.side == Color::White {
                        "White"
                    } else {
                        "Blue"
                    },
                    if c == Color::White { 2 } else { 1 }
                ),
            ));
        }
    }
    pos.reserve[0] =
        Reserve::new(drop_counts.0 as usize, &reserve_lists.0).map_err(|e| err("drops", e))?;
    pos.reserve[1] =
        Reserve::new(drop_counts.1 as usize, &reserve_lists.1).map_err(|e| err("drops", e))?;
    if let Some(v) = ban {
        if v != "-" {
            if v.len() != 4 || !v.is_ascii() {
                return Err(err("swapban", format!("'{v}' is not two squares or -")));
            }
            let x = parse_square(&v[..2]).map_err(|e| err("swapban", e.to_string()))?;
            let y = parse_square(&v[2..]).map_err(|e| err("swapban", e.to_string()))?;
            let (px, py) = (pos.board.piece(x), pos.board.piece(y));
            let swapper = |p: Option<Piece>| {
                p.is_some_and(|p| matches!(p.state, State::Swapper | State::Chameleon))
            };
            if !swapper(px) || !swapper(py) || px.map(|p| p.color) == py.map(|p| p.color) {
                return Err(err(
                    "swapban",
                    format!("{v}: both squares must hold a Swapper or Chameleon, one of each side"),
                ));
            }
            pos.board.swap_ban = Some((x, y));
        }
    }
    if royal_attacked(&pos.board, !pos.side) {
        return Err(err(
            "side to move",
            "the side that just moved has a royal piece attacked (rules 5)",
        ));
    }
    pos.refresh_keys();
    if !pos.turns_fit() {
        return Err(err(
            "board",
            format!(
                "the position has more legal turns than the engine can list ({})",
                super::moves::MAX_MOVES
            ),
        ));
    }
    Ok(pos)
}

/// The most drops side `c` can have made when `stm` is to move at full move `full`: the
/// k-th drop comes on turn 5k+1 at the earliest for Blue, 5k+2 for White (rules 8), and a
/// side has played its turns of full move `full` only when the other side is to move
/// (White moves first in a full move).
pub fn most_drops(c: Color, stm: Color, full: u16) -> u8 {
    let last_turn = full as i32
        - if c == Color::White && stm == Color::Black {
            0
        } else {
            1
        };
    let first = if c == Color::White { 2 } else { 1 };
    ((last_turn - first).max(0) / 5).min(u8::MAX as i32) as u8
}

/// Why the corner flags in `flags` cannot apply on the board (`flags` is not empty).
fn unreachable_flag_reason(flags: u8) -> String {
    let (ch, what) = [
        (flag::WK, 'K', "White's King (a K, not a Maoking) on rank 1"),
        (flag::WA, 'A', "a White piece on a1"),
        (flag::WH, 'H', "a White piece on h1"),
        (flag::BK, 'k', "Blue's King (a K, not a Maoking) on rank 8"),
        (flag::BA, 'a', "a Blue piece on a8"),
        (flag::BH, 'h', "a Blue piece on h8"),
    ]
    .into_iter()
    .find(|(f, ..)| flags & f != 0)
    .map(|(_, ch, what)| (ch, what))
    .unwrap_or(('?', "its piece"));
    format!("'{ch}' needs {what}: no game reaches that flag without it")
}

/// The cornering flags that can apply on `b` [D 22]: `K` when the side's King-family piece is a
/// `K` on its home row, `A`/`H` when a piece of the side stands on that corner.
pub fn applicable_flags(b: &Board) -> u8 {
    let mut ok = 0;
    for c in Color::ALL {
        let (fk, fa, fh) = flag::of(c.index());
        let home = home_bb(c);
        if b.pieces(c, State::King) & home != 0 {
            ok |= fk;
        }
        let a = home.trailing_zeros() as Square;
        if b.color_bb(c) & bit(a) != 0 {
            ok |= fa;
        }
        if b.color_bb(c) & bit(a + 7) != 0 {
            ok |= fh;
        }
    }
    ok
}

fn write_reserve(s: &mut String, r: &Reserve, color: Color) {
    if r.is_empty() {
        s.push('-');
        return;
    }
    for (i, st) in r.pieces().iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        for ch in st.code().chars() {
            s.push(if color == Color::White {
                ch
            } else {
                ch.to_ascii_lowercase()
            });
        }
    }
}

/// The canonical FEN of `pos` (rules 11).
pub fn write(pos: &MutatisMutandis) -> String {
    let mut s = pos.board.fen_board();
    s.push(' ');
    s.push(pos.side.fen_char());
    s.push(' ');
    let flags = [
        (flag::WK, 'K'),
        (flag::WA, 'A'),
        (flag::WH, 'H'),
        (flag::BK, 'k'),
        (flag::BA, 'a'),
        (flag::BH, 'h'),
    ];
    let before = s.len();
    for (f, ch) in flags {
        if pos.corner & f != 0 {
            s.push(ch);
        }
    }
    if s.len() == before {
        s.push('-');
    }
    match pos.board.ep {
        Some(sq) => {
            let _ = write!(s, " {}", square_name(sq));
        }
        None => s.push_str(" -"),
    }
    let _ = write!(s, " {} {} reserve:", pos.half, pos.full);
    write_reserve(&mut s, &pos.reserve[0], Color::White);
    s.push('/');
    write_reserve(&mut s, &pos.reserve[1], Color::Black);
    let _ = write!(
        s,
        " drops:{}/{} swapban:",
        pos.reserve[0].drops_made(),
        pos.reserve[1].drops_made()
    );
    match pos.board.swap_ban {
        Some((x, y)) => {
            let _ = write!(s, "{}{}", square_name(x), square_name(y));
        }
        None => s.push('-'),
    }
    s
}
