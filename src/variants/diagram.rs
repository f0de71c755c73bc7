//! A piece's moves on an otherwise empty board, as a rules page draws them (the protocol's
//! `diagram` command, docs/protocol.md 8).
//!
//! Each variant answers one question through [`PieceMoves`]: what its own generator lets one
//! piece do on a board holding only that piece and a few plain pieces placed by the caller.
//! The rest is written once, here: the diagram asks that question on the empty board (the
//! moves), with one enemy on each square in turn (the captures), with a screen added where no
//! capture came (the hops), and with one blocker on each other square (the rides: a square a
//! blocker can cut off is reached by riding, any other by a leap).

use crate::core::geometry::Geometry;
use crate::core::Square;
use crate::variants::Notation;

/// One action of the piece a diagram shows, as [`PieceMoves::piece_moves`] reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The cell the piece lands on (its own cell when it acts without moving, as a shot does).
    pub to: Square,
    /// The cells whose pieces the action removes, as a mask over cell indices (bit `i` = cell
    /// `i`, see [`crate::core::geometry`]); 0 for a move that captures nothing.
    pub captured: u128,
}

/// What a variant tells a diagram: one piece's actions on a nearly empty board.
pub trait PieceMoves: Notation {
    /// Appends to `out` the actions of White's piece `code` (an upper-case code of
    /// [`VariantInfo::pieces`](crate::variants::VariantInfo::pieces)) standing on cell `from`, on a board that holds only it and, on each
    /// cell of `others`, a plain piece of the variant (`true`: Black's, one the piece may capture;
    /// `false`: White's, a blocker or a screen). Cells use the index of
    /// [`crate::core::geometry`] over the `files x ranks` box of [`crate::variants::VariantInfo`].
    ///
    /// The variant's own generator decides, with White to move and without what needs a whole
    /// game: no royal rules (check, a King's safety), no turn structure (portions, parts,
    /// pending placements), no castling, en passant or drops, no swaps with a partner.
    ///
    /// Errors: `code` names no piece of the variant, or the piece cannot stand on `from`. The
    /// default, for games without pieces to show (test doubles), has no diagrams.
    fn piece_moves(
        code: &str,
        from: Square,
        others: &[(Square, bool)],
        out: &mut Vec<Reached>,
    ) -> Result<(), String> {
        let _ = (from, others, out);
        Err(format!("{} has no diagram of '{code}'", Self::INFO.name))
    }
}

/// A piece's diagram (the `diagram` command's answer), squares by name in cell order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// The piece's code, as [`VariantInfo::pieces`](crate::variants::VariantInfo::pieces) writes it.
    pub code: String,
    /// The square it stands on.
    pub square: String,
    /// The squares it moves to without capturing, on the empty board.
    pub moves: Vec<String>,
    /// The squares on which it captures a lone enemy piece, or one behind a screen
    /// ([`Diagram::hops`]).
    pub captures: Vec<String>,
    /// The squares of [`Diagram::moves`] and [`Diagram::captures`] it reaches by riding: a single
    /// piece on some other square would cut them off. Every other square is reached by a leap.
    pub rides: Vec<String>,
    /// The squares of [`Diagram::captures`] it captures on only by hopping a screen (a piece
    /// between, as a cannon's).
    pub hops: Vec<String>,
    /// The code of the piece it becomes after it acts, where the variant says so (Mutatis Mutandis
    /// Mutandis, rules 2).
    pub becomes: Option<String>,
}

impl Diagram {
    /// The protocol line: `info string diagram piece <CODE> square <sq> moves <sq...|->
    /// captures <sq...|-> rides <sq...|-> hops <sq...|-> becomes <CODE|->`.
    pub fn line(&self) -> String {
        fn list(v: &[String]) -> String {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.join(" ")
            }
        }
        format!(
            "info string diagram piece {} square {} moves {} captures {} rides {} hops {} becomes {}",
            self.code,
            self.square,
            list(&self.moves),
            list(&self.captures),
            list(&self.rides),
            list(&self.hops),
            self.becomes.as_deref().unwrap_or("-")
        )
    }
}

/// The board of variant `G`: its files x ranks box, its first rank label, and its holes.
pub fn geometry<G: Notation>() -> Geometry {
    let mut g = Geometry::rectangle(G::INFO.files, G::INFO.ranks, 0);
    g.first_rank = G::INFO.first_rank;
    for hole in G::INFO.holes {
        if let Ok(sq) = g.parse_square(hole) {
            g.cells &= !(1u128 << sq);
        }
    }
    g
}

/// The code that follows the last `becomes` of a piece's movement text, if any
/// (`"Q; becomes SS"`; the text may say `becomes` earlier in words).
fn becomes(movement: &str) -> Option<String> {
    let (_, rest) = movement.rsplit_once("becomes ")?;
    let code: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    (!code.is_empty()).then_some(code)
}

/// The diagram of piece `code` (either case) on `square` of variant `G`'s empty board.
///
/// Errors: one line naming what is wrong: an unknown piece code, or a square that is not a
/// square of the board (or where the piece cannot stand).
pub fn diagram<G: PieceMoves>(code: &str, square: &str) -> Result<Diagram, String> {
    let info = G::INFO
        .pieces
        .iter()
        .find(|p| p.code.eq_ignore_ascii_case(code))
        .ok_or_else(|| {
            let codes: Vec<&str> = G::INFO.pieces.iter().map(|p| p.code).collect();
            format!(
                "diagram: '{code}' is not a piece of {} (its pieces: {})",
                G::INFO.name,
                codes.join(" ")
            )
        })?;
    let g = geometry::<G>();
    let from = g
        .parse_square(square)
        .map_err(|e| format!("diagram: {e}"))?;
    let squares: Vec<Square> = g.squares().filter(|&s| s != from).collect();
    let mut out = Vec::with_capacity(256);
    let run = |others: &[(Square, bool)], out: &mut Vec<Reached>| {
        out.clear();
        G::piece_moves(info.code, from, others, out).map_err(|e| format!("diagram: {e}"))
    };
    let quiet = |out: &[Reached], to: Square| out.iter().any(|r| r.captured == 0 && r.to == to);
    let takes = |out: &[Reached], sq: Square| out.iter().any(|r| r.captured >> sq & 1 != 0);

    run(&[], &mut out)?;
    let moves: Vec<Square> = squares
        .iter()
        .copied()
        .filter(|&t| quiet(&out, t))
        .collect();
    let mut captures = Vec::new();
    let mut hops = Vec::new();
    for &t in &squares {
        run(&[(t, true)], &mut out)?;
        if takes(&out, t) {
            captures.push(t);
            continue;
        }
        for &s in &squares {
            if s != t {
                run(&[(s, false), (t, true)], &mut out)?;
                if takes(&out, t) {
                    captures.push(t);
                    hops.push(t);
                    break;
                }
            }
        }
    }
    let mut rides = Vec::new();
    for &t in moves.iter().chain(captures.iter()) {
        if hops.contains(&t) || rides.contains(&t) {
            continue;
        }
        let capture = !moves.contains(&t);
        for &s in &squares {
            if s == t {
                continue;
            }
            let cut = if capture {
                run(&[(s, false), (t, true)], &mut out)?;
                !takes(&out, t)
            } else {
                run(&[(s, false)], &mut out)?;
                !quiet(&out, t)
            };
            if cut {
                rides.push(t);
                break;
            }
        }
    }
    rides.sort_unstable();
    let names =
        |v: &[Square]| -> Vec<String> { v.iter().map(|&s| g.name(s).to_string()).collect() };
    Ok(Diagram {
        code: info.code.to_string(),
        square: g.name(from).to_string(),
        moves: names(&moves),
        captures: names(&captures),
        rides: names(&rides),
        hops: names(&hops),
        becomes: becomes(info.movement),
    })
}
