//! FEN of Mulligan Stew (rules/mulligan-stew.md 7):
//! `<board>[<hand>] <side> - - <clock> <fullmove> pool:<W>/<B> [portion:D [moved:<square>]]`.

use super::board::BOARD_6X7;
use super::board::{Kind, Piece, NO_SQ, NSQ};
use super::position::{MulliganStew, MAX_POOL};
use crate::core::Color;
use crate::variants::fen_board::parse_board_rows;
use crate::variants::FenError;

/// The start position (rules 2, 7).
pub const START_FEN: &str = "rakkac/pppppp/6/6/6/PPPPPP/RAKKAC[Mm] w - - 0 1 pool:Q/q";

fn parse_board(pos: &mut MulliganStew, text: &str) -> Result<(), FenError> {
    parse_board_rows(text, 6, 7, |rank, file, c| {
        let kind = Kind::from_letter(c).ok_or_else(|| format!("unknown piece letter '{c}'"))?;
        let side = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        pos.put((rank * 6 + file) as u8, Piece::new(side, kind));
        Ok(())
    })
}

fn parse_pool(text: &str) -> Result<[[u8; 5]; 2], FenError> {
    let bad = |r: String| FenError::new("pool", r);
    let (w, b) = text
        .split_once('/')
        .ok_or_else(|| bad(format!("expected <white>/<black>, found '{text}'")))?;
    let mut pool = [[0u8; 5]; 2];
    for (side, part) in [(Color::White, w), (Color::Black, b)] {
        if part == "-" {
            continue;
        }
        if part.is_empty() {
            return Err(bad("an empty pool is written '-'".into()));
        }
        for c in part.chars() {
            let upper = c.is_ascii_uppercase();
            let kind = Kind::from_letter(c)
                .and_then(|k| k.pool_index().map(|i| (k, i)))
                .filter(|_| upper == (side == Color::White))
                .ok_or_else(|| {
                    bad(format!(
                        "'{c}' is not a {} pool letter (Q R C A M, White upper case)",
                        if side == Color::White {
                            "White"
                        } else {
                            "Black"
                        }
                    ))
                })?;
            let n = &mut pool[side.index()][kind.1];
            if *n >= MAX_POOL {
                return Err(bad(format!("more than {MAX_POOL} pieces of one type")));
            }
            *n += 1;
        }
    }
    Ok(pool)
}

/// Most pieces one side may have on the board in a FEN. The game never has more than 14
/// (rules 2); the bound keeps every position's portions within a move list.
pub const MAX_BOARD_PIECES: u32 = 16;

/// A FEN may give a side at most 2 Kings (rules 2), one Mage in all (board, hand and pool:
/// rules 4, the Mage is never duplicated) and [`MAX_BOARD_PIECES`] pieces on the board.
/// Other counts are not limited, so positions such as a Queen on the board with another in
/// the pool (rules 4: the Queen check) can be set up.
fn check_piece_set(pos: &MulliganStew) -> Result<(), FenError> {
    for side in Color::ALL {
        let kings = pos.pieces(side, Kind::King).count_ones();
        if kings > 2 {
            return Err(FenError::new(
                "board",
                format!("{side:?} has {kings} Kings; a side has at most 2"),
            ));
        }
        let on_board = pos.pieces(side, Kind::Mage).count_ones();
        let mages =
            on_board + u32::from(pos.pool_count(side, Kind::Mage)) + u32::from(pos.in_hand(side));
        if mages > 1 {
            return Err(FenError::new(
                if on_board > 1 { "board" } else { "pool" },
                format!("{side:?} has {mages} Mages (board, hand and pool); the game has one"),
            ));
        }
        let n = pos.color_bb(side).count_ones();
        if n > MAX_BOARD_PIECES {
            return Err(FenError::new(
                "board",
                format!("{side:?} has {n} pieces on the board, more than {MAX_BOARD_PIECES}"),
            ));
        }
    }
    Ok(())
}

/// Parses a FEN of rules 7 (tags in any order; a missing `pool:` is the start pool `Q/q`).
///
/// Errors: a [`FenError`] naming the field (`board`, `hand`, `side to move`, `castling`,
/// `en passant`, `clock`, `fullmove`, `pool`, `portion`, `moved`, `tags`) and the reason.
pub fn parse(fen: &str) -> Result<MulliganStew, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 2 {
        return Err(FenError::new(
            "fen",
            format!(
                "expected at least board and side, found {} fields",
                fields.len()
            ),
        ));
    }
    let mut pos = MulliganStew::empty();
    let (board, hand) = match fields[0].find('[') {
        Some(i) if fields[0].ends_with(']') => {
            (&fields[0][..i], &fields[0][i + 1..fields[0].len() - 1])
        }
        _ => {
            return Err(FenError::new(
                "hand",
                "the board must be followed by the hand in brackets, e.g. [Mm] or [-]",
            ))
        }
    };
    parse_board(&mut pos, board)?;
    if hand != "-" {
        for c in hand.chars() {
            let s = match c {
                'M' => 0,
                'm' => 1,
                _ => {
                    return Err(FenError::new(
                        "hand",
                        format!("'{c}': the hand holds only the Mage (M, m) or is '-'"),
                    ))
                }
            };
            if pos.hand[s] {
                return Err(FenError::new("hand", format!("'{c}' given twice")));
            }
            pos.hand[s] = true;
        }
    }
    pos.side = Color::from_fen(fields[1])
        .ok_or_else(|| FenError::new("side to move", format!("'{}' is not w or b", fields[1])))?;
    let split = fields
        .iter()
        .skip(2)
        .position(|f| f.contains(':'))
        .map_or(fields.len(), |p| p + 2);
    let plain = &fields[2..split];
    let names = ["castling", "en passant", "clock", "fullmove"];
    if plain.len() > 4 {
        return Err(FenError::new(
            "fen",
            format!("unexpected field '{}'", plain[4]),
        ));
    }
    for (i, v) in plain.iter().enumerate() {
        match i {
            0 | 1 if *v != "-" => {
                return Err(FenError::new(
                    names[i],
                    format!("'{v}': Mulligan Stew has none, write '-'"),
                ))
            }
            2 => {
                pos.clock = v
                    .parse()
                    .map_err(|_| FenError::new("clock", format!("'{v}' is not a number")))?
            }
            3 => {
                pos.fullmove = v.parse().ok().filter(|&n: &u16| n >= 1).ok_or_else(|| {
                    FenError::new("fullmove", format!("'{v}' is not a number >= 1"))
                })?
            }
            _ => {}
        }
    }
    let mut pool = None;
    let mut portion = None;
    let mut moved = None;
    for tag in &fields[split..] {
        let (name, value) = tag
            .split_once(':')
            .ok_or_else(|| FenError::new("tags", format!("'{tag}' is not a key:value tag")))?;
        let twice = || FenError::new("tags", format!("'{name}' given twice"));
        match name {
            "pool" => {
                if pool.replace(parse_pool(value)?).is_some() {
                    return Err(twice());
                }
            }
            "portion" => {
                let d = match value {
                    "D" => true,
                    "L" => false,
                    _ => {
                        return Err(FenError::new(
                            "portion",
                            format!("'{value}' is not D (or L)"),
                        ))
                    }
                };
                if portion.replace(d).is_some() {
                    return Err(twice());
                }
            }
            "moved" => {
                let sq = BOARD_6X7
                    .parse_square(value)
                    .map_err(|e| FenError::new("moved", e.to_string()))?;
                if moved.replace(sq).is_some() {
                    return Err(twice());
                }
            }
            _ => return Err(FenError::new("tags", format!("unknown tag '{tag}'"))),
        }
    }
    pos.pool = pool.unwrap_or([[1, 0, 0, 0, 0], [1, 0, 0, 0, 0]]);
    pos.portion_d = portion.unwrap_or(false);
    if let Some(sq) = moved {
        if !pos.portion_d {
            return Err(FenError::new(
                "moved",
                "only a D portion has a moved square",
            ));
        }
        let p = pos.board[sq as usize];
        if p.is_none() || p.color() != pos.side {
            return Err(FenError::new(
                "moved",
                format!(
                    "{} does not hold a piece of the side to move",
                    BOARD_6X7.name(sq)
                ),
            ));
        }
        pos.moved = sq;
    }
    check_piece_set(&pos)?;
    if pos.kingless(!pos.side) {
        // rules 6: the game ends the moment a side loses its last King, with that side to
        // move (make passes the turn at once), so the other side never has none.
        return Err(FenError::new(
            "side to move",
            format!(
                "{:?} has no King: the game ended with {:?} to move",
                !pos.side, !pos.side
            ),
        ));
    }
    pos.state_key = pos.compute_state_key();
    pos.acc = crate::variants::network::NetAccumulator::new(&pos, 512);
    Ok(pos)
}

/// The canonical FEN (rules 7).
pub fn write(pos: &MulliganStew) -> String {
    let mut s = String::new();
    for rank in (0..7).rev() {
        let mut empty = 0;
        for file in 0..6 {
            let p = pos.board[rank * 6 + file];
            if p.is_none() {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push(p.letter());
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push('[');
    match pos.hand {
        [false, false] => s.push('-'),
        [w, b] => {
            if w {
                s.push('M');
            }
            if b {
                s.push('m');
            }
        }
    }
    s.push(']');
    s.push_str(&format!(
        " {} - - {} {} pool:",
        pos.side.fen_char(),
        pos.clock,
        pos.fullmove
    ));
    for side in Color::ALL {
        if side == Color::Black {
            s.push('/');
        }
        let mut any = false;
        for (i, kind) in Kind::POOL.iter().enumerate() {
            for _ in 0..pos.pool[side.index()][i] {
                let c = kind.letter();
                s.push(if side == Color::White {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
                any = true;
            }
        }
        if !any {
            s.push('-');
        }
    }
    if pos.portion_d {
        s.push_str(" portion:D");
        if pos.moved != NO_SQ {
            s.push_str(&format!(" moved:{}", BOARD_6X7.name(pos.moved)));
        }
    }
    debug_assert!(pos.board.len() == NSQ);
    s
}
