//! FEN and move tokens of Mitosis Chess (rules/mitosis.md 7 \[D12\], protocol.md 2-3).

use super::position::{
    base_mask, pawn_start_row, promotion_row, Mitosis, BASES, BASE_SQUARES, FILES, MAIN,
};
use super::types::{Kind, MitosisMove, MitosisPiece, Parts};
use super::BOARD_MITOSIS;
use crate::core::{Bitboard, Color, MoveList, Square};
use crate::variants::{FenError, MoveError};

/// The start position (rules/mitosis.md 2).
pub const START_FEN: &str =
    "***3***/caqgkgqac/ppppppppp/9/9/9/9/9/PPPPPPPPP/CAQGKGQAC/***3***[-] w - - 0 1";

/// The valid pending sets: the components of Q, C, A and G (rules/mitosis.md 4).
const PENDING_SETS: [u8; 4] = [
    Parts::R | Parts::B,
    Parts::R | Parts::N,
    Parts::B | Parts::N,
    Parts::R | Parts::B | Parts::N,
];

impl Mitosis {
    /// Parses `<r10>/.../<r0>[<pending>] <side> - <ep> <clock> <fullmove>`
    /// (rules/mitosis.md 7); the clock and move number may be left out (0 and 1).
    ///
    /// Errors: a [`FenError`] naming the field (`board`, `pending`, a missing `[...]` hand
    /// included, `side to move`, `castling`, `en passant`, `clock`, `fullmove`) and the reason.
    pub(super) fn read_fen(fen: &str) -> Result<Mitosis, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 {
            return Err(FenError::new(
                "fen",
                format!(
                    "expected at least board and side to move, found {} fields",
                    fields.len()
                ),
            ));
        }
        if fields.len() > 6 {
            return Err(FenError::new(
                "fen",
                format!("expected at most 6 fields, found {}", fields.len()),
            ));
        }
        let mut pos = Mitosis::empty();
        // The hand is part of the grammar (rules 7), `[-]` when empty, as in Mulligan Stew.
        let (board, pending) =
            match fields[0].find('[') {
                Some(i) => {
                    let rest = &fields[0][i + 1..];
                    let inner = rest.strip_suffix(']').ok_or_else(|| {
                        FenError::new("pending", "the hand must be closed by ']'")
                    })?;
                    (&fields[0][..i], inner)
                }
                None => return Err(FenError::new(
                    "pending",
                    "the board must be followed by the pending parts in brackets, e.g. [-] or [rb]",
                )),
            };
        parse_board(&mut pos, board)?;
        pos.stm = Color::from_fen(fields[1]).ok_or_else(|| {
            FenError::new("side to move", format!("'{}' is not w or b", fields[1]))
        })?;
        pos.pending = parse_pending(&pos, pending)?;
        if let Some(&c) = fields.get(2) {
            if c != "-" {
                return Err(FenError::new(
                    "castling",
                    format!("Mitosis has no castling: the field must be '-', found '{c}'"),
                ));
            }
        }
        if let Some(&e) = fields.get(3) {
            pos.ep = parse_ep(&pos, e)?;
        }
        if let Some(&c) = fields.get(4) {
            pos.clock = c
                .parse()
                .map_err(|_| FenError::new("clock", format!("'{c}' is not a number")))?;
        }
        if let Some(&f) = fields.get(5) {
            pos.fullmove =
                f.parse().ok().filter(|&n: &u16| n >= 1).ok_or_else(|| {
                    FenError::new("fullmove", format!("'{f}' is not a number >= 1"))
                })?;
        }
        if !pos.ep.is_empty() && !pos.pending.is_empty() {
            return Err(FenError::new(
                "en passant",
                "pending components follow a capture, en passant squares a push: not both",
            ));
        }
        pos.refresh_key();
        pos.acc = crate::variants::network::NetAccumulator::new(&pos, 512);
        Ok(pos)
    }

    /// The canonical FEN (rules/mitosis.md 7).
    pub(super) fn write_fen(&self) -> String {
        let mut s = String::with_capacity(96);
        for row in (0..11).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let sq = row * FILES + file;
                if !BOARD_MITOSIS.is_square(sq as Square) {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push('*');
                    continue;
                }
                match self.piece_at(sq as Square) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if row > 0 {
                s.push('/');
            }
        }
        s.push('[');
        if self.pending.is_empty() {
            s.push('-');
        }
        for (i, k) in Parts::KINDS.iter().enumerate() {
            if self.pending.0 & (1 << i) != 0 {
                s.push(
                    MitosisPiece {
                        color: self.stm,
                        kind: *k,
                    }
                    .fen_char(),
                );
            }
        }
        s.push(']');
        let ep = if self.ep.is_empty() {
            "-".to_string()
        } else {
            self.ep
                .iter()
                .map(|sq| BOARD_MITOSIS.name(sq as Square).to_string())
                .collect()
        };
        format!(
            "{s} {} - {ep} {} {}",
            self.stm.fen_char(),
            self.clock,
            self.fullmove
        )
    }

    /// The token of a ply (protocol.md 3, rules/mitosis.md 7): `e2e5`, `e8e9r`, or placement
    /// legs in base-file order `R@d10,B@f10`.
    pub fn token(&self, m: MitosisMove) -> String {
        if m.is_placement() {
            let base = BASE_SQUARES[self.stm.index()];
            let mut legs: Vec<String> = Vec::with_capacity(3);
            for (i, sq) in base.iter().enumerate() {
                if let Some(k) = m.slot(i) {
                    legs.push(format!("{}@{}", k.letter(), BOARD_MITOSIS.name(*sq)));
                }
            }
            return legs.join(",");
        }
        let mut s = format!(
            "{}{}",
            BOARD_MITOSIS.name(m.from()),
            BOARD_MITOSIS.name(m.to())
        );
        if let Some(k) = m.promotion() {
            s.push(k.letter().to_ascii_lowercase());
        }
        s
    }

    /// Parses one portion token against the legal plies: a placement (`R@d10,B@f10`, legs in
    /// any order) or a board move (`e2e5`, `e8e9r`).
    ///
    /// Errors: [`MoveError::Malformed`] for a token of no known shape, [`MoveError::Illegal`]
    /// when no legal ply has it.
    pub fn parse_token(
        &self,
        token: &str,
        legal: &MoveList<MitosisMove>,
    ) -> Result<MitosisMove, MoveError> {
        let malformed = |reason: String| MoveError::Malformed {
            token: token.to_string(),
            reason,
        };
        let wanted = if token.contains('@') {
            let base = BASE_SQUARES[self.stm.index()];
            let mut slots: [Option<Kind>; 3] = [None; 3];
            for leg in token.split(',') {
                let (letter, sq) = leg.split_once('@').ok_or_else(|| {
                    malformed(format!("placement leg '{leg}' is not LETTER@square"))
                })?;
                let kind = match letter {
                    "R" => Kind::Rook,
                    "B" => Kind::Bishop,
                    "N" => Kind::Knight,
                    _ => {
                        return Err(malformed(format!(
                            "placement letter '{letter}' must be R, B or N (uppercase)"
                        )))
                    }
                };
                let sq = BOARD_MITOSIS
                    .parse_square(sq)
                    .map_err(|e| malformed(e.to_string()))?;
                let i = base.iter().position(|&b| b == sq).ok_or_else(|| {
                    MoveError::Illegal(format!(
                        "{token}: {} is not a base square of the side to move",
                        BOARD_MITOSIS.name(sq)
                    ))
                })?;
                if slots[i].is_some() {
                    return Err(malformed(format!("two legs on {}", BOARD_MITOSIS.name(sq))));
                }
                slots[i] = Some(kind);
            }
            MitosisMove::placement(slots)
        } else {
            if !token.is_ascii() {
                return Err(malformed("not ASCII".into()));
            }
            let (from, n) = BOARD_MITOSIS
                .parse_square_prefix(token)
                .map_err(|e| malformed(e.to_string()))?;
            let rest = &token[n..];
            // The to-square: the longest square name that leaves at most a promotion letter.
            let (to, m) = BOARD_MITOSIS
                .parse_square_prefix(rest)
                .map_err(|e| malformed(e.to_string()))?;
            let promo = match &rest[m..] {
                "" => None,
                "r" => Some(Kind::Rook),
                "b" => Some(Kind::Bishop),
                "n" => Some(Kind::Knight),
                other => {
                    return Err(malformed(format!(
                        "'{other}' after the squares: promotion is r, b or n"
                    )))
                }
            };
            let found = legal.iter().copied().find(|mv| {
                !mv.is_placement() && mv.from() == from && mv.to() == to && mv.promotion() == promo
            });
            return found.ok_or_else(|| MoveError::Illegal(token.to_string()));
        };
        if legal.contains(&wanted) {
            Ok(wanted)
        } else {
            Err(MoveError::Illegal(token.to_string()))
        }
    }
}

fn parse_board(pos: &mut Mitosis, board: &str) -> Result<(), FenError> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 11 {
        return Err(FenError::new(
            "board",
            format!(
                "expected 11 rows (ranks 10 down to 0), found {}",
                rows.len()
            ),
        ));
    }
    let mut kings = [0; 2];
    for (i, text) in rows.iter().enumerate() {
        let row = 10 - i;
        let mut file = 0usize;
        let bytes = text.as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            let c = bytes[j] as char;
            let here = |file: usize| -> Result<usize, FenError> {
                if file >= FILES {
                    return Err(FenError::new(
                        "board",
                        format!("rank {row} has more than {FILES} cells"),
                    ));
                }
                Ok(row * FILES + file)
            };
            if c.is_ascii_digit() {
                let start = j;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                let n: usize = text[start..j].parse().map_err(|_| {
                    FenError::new("board", format!("bad empty-square count in rank {row}"))
                })?;
                if n == 0 || n > FILES - file {
                    return Err(FenError::new(
                        "board",
                        format!("empty-square count {n} does not fit rank {row}"),
                    ));
                }
                for f in file..file + n {
                    if !BOARD_MITOSIS.is_square(here(f)? as Square) {
                        return Err(FenError::new(
                            "board",
                            format!(
                                "cell {}{row} is not a square: write '*'",
                                (b'a' + f as u8) as char
                            ),
                        ));
                    }
                }
                file += n;
                continue;
            }
            let sq = here(file)?;
            let name = format!("{}{row}", (b'a' + file as u8) as char);
            if c == '*' {
                if BOARD_MITOSIS.is_square(sq as Square) {
                    return Err(FenError::new(
                        "board",
                        format!("'*' on {name}, which is a square"),
                    ));
                }
            } else {
                let kind = Kind::from_letter(c).ok_or_else(|| {
                    FenError::new("board", format!("'{c}' is not a piece letter"))
                })?;
                if !BOARD_MITOSIS.is_square(sq as Square) {
                    return Err(FenError::new(
                        "board",
                        format!("a piece on {name}, which is not a square"),
                    ));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                if BASES.has(sq) && (!kind.is_minor() || !base_mask(color).has(sq)) {
                    return Err(FenError::new(
                        "board",
                        format!("only its owner's Rook, Bishop or Knight may stand in a base ({c} on {name})"),
                    ));
                }
                if kind == Kind::Pawn && row == promotion_row(color) as usize {
                    return Err(FenError::new(
                        "board",
                        format!("a pawn on its last rank ({name}) must have promoted"),
                    ));
                }
                if kind == Kind::King {
                    kings[color.index()] += 1;
                    if kings[color.index()] > 1 {
                        return Err(FenError::new("board", format!("{color:?} has two Kings")));
                    }
                }
                pos.put(sq, MitosisPiece { color, kind });
            }
            file += 1;
            j += 1;
        }
        if file != FILES {
            return Err(FenError::new(
                "board",
                format!("rank {row} has {file} cells, expected {FILES}"),
            ));
        }
    }
    Ok(())
}

fn parse_pending(pos: &Mitosis, text: &str) -> Result<Parts, FenError> {
    if text == "-" {
        return Ok(Parts(0));
    }
    let mut parts = 0u8;
    for c in text.chars() {
        let kind = Kind::from_letter(c)
            .filter(|k| k.is_minor())
            .ok_or_else(|| FenError::new("pending", format!("'{c}' is not R, B or N")))?;
        let own_case = match pos.stm {
            Color::White => c.is_ascii_uppercase(),
            Color::Black => c.is_ascii_lowercase(),
        };
        if !own_case {
            return Err(FenError::new(
                "pending",
                format!(
                    "'{c}': pending pieces belong to the side to move and are written in its case"
                ),
            ));
        }
        let bit = Parts::bit(kind);
        if parts & bit != 0 {
            return Err(FenError::new("pending", format!("'{c}' given twice")));
        }
        parts |= bit;
    }
    if !PENDING_SETS.contains(&parts) {
        return Err(FenError::new(
            "pending",
            format!("'{text}' is not the parts of one major (rb, rn, bn or rbn)"),
        ));
    }
    if pos.free_base(pos.stm).is_empty() {
        return Err(FenError::new(
            "pending",
            "the base of the side to move is full: parts without a square are lost at once",
        ));
    }
    Ok(Parts(parts))
}

fn parse_ep(pos: &Mitosis, text: &str) -> Result<u128, FenError> {
    if text == "-" {
        return Ok(0);
    }
    let bad = |reason: String| FenError::new("en passant", reason);
    let mut squares = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (sq, n) = BOARD_MITOSIS
            .parse_square_prefix(rest)
            .map_err(|e| bad(e.to_string()))?;
        squares.push(sq as usize);
        rest = &rest[n..];
    }
    if squares.len() > 2 || !squares.windows(2).all(|w| w[1] == w[0] + FILES) {
        return Err(bad(format!(
            "'{text}': one or two passed squares of one file, ascending"
        )));
    }
    // The pusher is the side not to move; its pawn left its start rank.
    let pusher = !pos.stm;
    let start = pawn_start_row(pusher) as usize;
    let (near, far) = match pusher {
        Color::White => (squares[0], *squares.last().unwrap()),
        Color::Black => (*squares.last().unwrap(), squares[0]),
    };
    let step = |sq: usize| match pusher {
        Color::White => sq + FILES,
        Color::Black => sq - FILES,
    };
    let from_row = match pusher {
        Color::White => near / FILES - 1,
        Color::Black => near / FILES + 1,
    };
    let victim = step(far);
    let ok = from_row == start
        && squares
            .iter()
            .all(|&s| MAIN.has(s) && pos.piece_at(s as Square).is_none())
        && pos.piece_at(victim as Square)
            == Some(MitosisPiece {
                color: pusher,
                kind: Kind::Pawn,
            });
    if !ok {
        return Err(bad(format!(
            "'{text}' is not the passed squares of a pawn push by the side that just moved"
        )));
    }
    Ok(squares.iter().fold(0u128, |b, &s| b | 1u128 << s))
}
