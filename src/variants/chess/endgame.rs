//! Endgame knowledge of orthodox chess that the tapered evaluation cannot see: positions whose
//! material says "winning" but whose theory says "drawn".
//!
//! - **KPK**: an exact bitbase of King and Pawn against King (every placement, either side to
//!   move), built once by retrograde analysis on first use ([`kpk_win`]). A drawn KPK
//!   evaluates to 0.
//! - **Wrong bishop**: King, bishop and pawns all on the a-file (or all on the h-file) against
//!   a bare King that stands on or next to the promotion square, when the bishop cannot
//!   control that square: a draw however many pawns (the defender cannot be driven out).
//! - **KRPKR with the defending King in front**: Rook and pawn against Rook with the
//!   defending King ahead of the pawn on its file or a neighbouring one (Philidor's defence
//!   and its relatives): scaled to [`KRPKR_FRONT_SCALE`]/64.
//!
//! [`scale`] gives the factor (out of 64) the chess evaluation applies to its whole score.
//! Chess only: Mystic (coins buy men) and Muster (custom armies) share the board but not this
//! theory.

use super::Kind;
use crate::core::Color;
use crate::variants::orthodox::{attacks, Board};
use std::sync::OnceLock;

/// Scale (out of 64) of a KRPKR position whose defending King stands in front of the pawn.
pub const KRPKR_FRONT_SCALE: i32 = 16;

/// KPK placements: side to move (2) x pawn square on files a-d, ranks 2-7 (24) x strong King
/// (64) x weak King (64).
const KPK_SIZE: usize = 2 * 24 * 64 * 64;

/// The KPK bitbase: bit set when the side with the pawn wins (normalised: White has the pawn
/// on files a-d).
static KPK: OnceLock<Vec<u64>> = OnceLock::new();

/// Index of a normalised KPK placement (`white_to_move`, White King `wk`, Black King `bk`,
/// White pawn `psq` on files a-d, ranks 2-7; squares 0 = a1 .. 63 = h8).
fn kpk_index(white_to_move: bool, wk: u8, bk: u8, psq: u8) -> usize {
    let p = usize::from(psq % 8) * 6 + usize::from(psq / 8) - 1;
    ((usize::from(!white_to_move) * 24 + p) * 64 + usize::from(wk)) * 64 + usize::from(bk)
}

fn bit(sq: u8) -> u64 {
    1u64 << sq
}

fn distance(a: u8, b: u8) -> u8 {
    (a % 8).abs_diff(b % 8).max((a / 8).abs_diff(b / 8))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kpk {
    Invalid,
    Unknown,
    Draw,
    Win,
}

/// The immediate verdict of a placement, before any search: invalid placements, a pawn that
/// promotes without being taken (White to move), stalemate or the pawn taken (Black to move).
fn kpk_initial(white_to_move: bool, wk: u8, bk: u8, psq: u8) -> Kpk {
    let pawn_att = attacks::pawn(Color::White, psq);
    if wk == bk
        || wk == psq
        || bk == psq
        || attacks::king(wk) & bit(bk) != 0
        || (white_to_move && pawn_att & bit(bk) != 0)
    {
        return Kpk::Invalid;
    }
    if white_to_move {
        let q = psq + 8;
        if psq / 8 == 6 && q != wk && q != bk && (distance(bk, q) > 1 || distance(wk, q) == 1) {
            return Kpk::Win;
        }
    } else {
        let escapes = attacks::king(bk) & !(attacks::king(wk) | pawn_att);
        if escapes == 0 || (escapes & bit(psq) != 0) {
            // Stalemate, or the pawn falls (it is not protected: protected, it is no escape).
            return Kpk::Draw;
        }
    }
    Kpk::Unknown
}

/// One step of the retrograde analysis for an undecided placement: the side to move wins if a
/// move reaches a win (White) or draws if a move reaches a draw (Black); the other verdict
/// holds when every move reaches it.
fn kpk_step(table: &[Kpk], white_to_move: bool, wk: u8, bk: u8, psq: u8) -> Kpk {
    let (good, bad) = if white_to_move {
        (Kpk::Win, Kpk::Draw)
    } else {
        (Kpk::Draw, Kpk::Win)
    };
    let mut all_bad = true;
    let mut see = |r: Kpk| {
        if r == good {
            return true;
        }
        all_bad &= r == bad;
        false
    };
    if white_to_move {
        let mut to_set = attacks::king(wk) & !attacks::king(bk) & !bit(psq);
        while to_set != 0 {
            let to = to_set.trailing_zeros() as u8;
            to_set &= to_set - 1;
            if see(table[kpk_index(false, to, bk, psq)]) {
                return good;
            }
        }
        // Pushes; a push to the eighth rank is the promotion the initial verdict judged.
        if psq / 8 < 6 {
            let q = psq + 8;
            if q != wk && q != bk {
                if see(table[kpk_index(false, wk, bk, q)]) {
                    return good;
                }
                let q2 = q + 8;
                if psq / 8 == 1 && q2 != wk && q2 != bk && see(table[kpk_index(false, wk, bk, q2)])
                {
                    return good;
                }
            }
        }
    } else {
        let mut to_set =
            attacks::king(bk) & !attacks::king(wk) & !attacks::pawn(Color::White, psq) & !bit(psq);
        while to_set != 0 {
            let to = to_set.trailing_zeros() as u8;
            to_set &= to_set - 1;
            if see(table[kpk_index(true, wk, to, psq)]) {
                return good;
            }
        }
    }
    if all_bad {
        bad
    } else {
        Kpk::Unknown
    }
}

/// Builds the bitbase: initial verdicts, then retrograde steps until nothing changes; what
/// is still undecided is a draw (the stronger side never forces a win).
fn build_kpk() -> Vec<u64> {
    let decode = |i: usize| {
        let bk = (i % 64) as u8;
        let wk = (i / 64 % 64) as u8;
        let p = i / 4096 % 24;
        let psq = (p / 6) as u8 + 8 * ((p % 6) as u8 + 1);
        (i < 24 * 4096, wk, bk, psq)
    };
    let mut table: Vec<Kpk> = (0..KPK_SIZE)
        .map(|i| {
            let (w, wk, bk, psq) = decode(i);
            kpk_initial(w, wk, bk, psq)
        })
        .collect();
    loop {
        let mut changed = false;
        for i in 0..KPK_SIZE {
            if table[i] != Kpk::Unknown {
                continue;
            }
            let (w, wk, bk, psq) = decode(i);
            let r = kpk_step(&table, w, wk, bk, psq);
            if r != Kpk::Unknown {
                table[i] = r;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut bits = vec![0u64; KPK_SIZE / 64];
    for (i, r) in table.iter().enumerate() {
        if *r == Kpk::Win {
            bits[i / 64] |= 1 << (i % 64);
        }
    }
    bits
}

/// Whether the side with the pawn wins a King and Pawn against King position with best play.
/// `strong` owns the pawn on `psq` and the King on `sk`; the other King stands on `wk`;
/// `strong_to_move` says who moves. Squares 0 = a1 .. 63 = h8. The first call builds the
/// bitbase (about 200,000 placements; a few tens of milliseconds in a release build).
pub fn kpk_win(strong: Color, strong_to_move: bool, sk: u8, wk: u8, psq: u8) -> bool {
    // Normalise: White has the pawn, on files a-d.
    let flip_rank = |s: u8| if strong == Color::White { s } else { s ^ 56 };
    let (mut sk, mut wk, mut psq) = (flip_rank(sk), flip_rank(wk), flip_rank(psq));
    if psq % 8 >= 4 {
        (sk, wk, psq) = (sk ^ 7, wk ^ 7, psq ^ 7);
    }
    let bits = KPK.get_or_init(build_kpk);
    let i = kpk_index(strong_to_move, sk, wk, psq);
    bits[i / 64] >> (i % 64) & 1 != 0
}

/// The scale (out of 64) the chess evaluation applies to its score for the endgames this
/// module knows, or `None` for any other position. `stm` is the side to move.
#[inline]
pub fn scale(board: &Board, stm: Color) -> Option<i32> {
    let minors_majors = board.kind_bb(Kind::Knight)
        | board.kind_bb(Kind::Bishop)
        | board.kind_bb(Kind::Rook)
        | board.kind_bb(Kind::Queen);
    // Every known endgame has at most two pieces besides the Kings and pawns.
    if minors_majors.count_ones() > 2 {
        return None;
    }
    let pawns = board.kind_bb(Kind::Pawn);
    if minors_majors == 0 {
        if pawns.count_ones() != 1 {
            return None;
        }
        let psq = pawns.trailing_zeros() as u8;
        let strong = if board.pieces(Color::White, Kind::Pawn) != 0 {
            Color::White
        } else {
            Color::Black
        };
        let win = kpk_win(
            strong,
            stm == strong,
            board.king_sq(strong),
            board.king_sq(!strong),
            psq,
        );
        return if win { None } else { Some(0) };
    }
    for strong in [Color::White, Color::Black] {
        let weak = !strong;
        let ours = board.color_bb(strong);
        let theirs = board.color_bb(weak);
        let our_pawns = board.pieces(strong, Kind::Pawn);
        if our_pawns == 0 {
            continue;
        }
        let bishops = board.pieces(strong, Kind::Bishop);
        // Wrong bishop: K + B + rook pawns (one file) against a bare King near the corner.
        if minors_majors == bishops
            && bishops.count_ones() == 1
            && theirs & !board.pieces(weak, Kind::King) == 0
            && (our_pawns & !attacks::FILE_A == 0 || our_pawns & !attacks::FILE_H == 0)
        {
            let file = (our_pawns.trailing_zeros() % 8) as u8;
            let queening = if strong == Color::White {
                56 + file
            } else {
                file
            };
            const DARK: u64 = 0xAA55_AA55_AA55_AA55;
            let bishop_dark = bishops & DARK != 0;
            let corner_dark = bit(queening) & DARK != 0;
            if bishop_dark != corner_dark && distance(board.king_sq(weak), queening) <= 1 {
                return Some(0);
            }
            return None;
        }
        // KRPKR with the defending King in front of the pawn.
        let rooks = board.pieces(strong, Kind::Rook);
        let their_rooks = board.pieces(weak, Kind::Rook);
        if rooks.count_ones() == 1
            && their_rooks.count_ones() == 1
            && our_pawns.count_ones() == 1
            && ours == rooks | our_pawns | board.pieces(strong, Kind::King)
            && theirs == their_rooks | board.pieces(weak, Kind::King)
        {
            let psq = our_pawns.trailing_zeros() as u8;
            let k = board.king_sq(weak);
            let rel_rank = |s: u8| {
                if strong == Color::White {
                    s / 8
                } else {
                    7 - s / 8
                }
            };
            if (k % 8).abs_diff(psq % 8) <= 1 && rel_rank(k) > rel_rank(psq) {
                return Some(KRPKR_FRONT_SCALE);
            }
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::Chess;
    use crate::variants::Notation;

    /// Square from its name, e.g. "e4".
    fn sq(name: &str) -> u8 {
        let b = name.as_bytes();
        (b[0] - b'a') + 8 * (b[1] - b'1')
    }

    fn win(fen: &str) -> bool {
        let pos = Chess::from_fen(fen).unwrap();
        scale(pos.board(), pos.stm).is_none()
    }

    #[test]
    fn kpk_textbook_positions() {
        // King on the sixth rank in front of its pawn wins whoever moves.
        assert!(win("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1"));
        assert!(win("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"));
        assert!(win("4k3/8/3K4/4P3/8/8/8/8 w - - 0 1"));
        // Pawn on the seventh, Kings facing, Black to move: stalemate.
        assert!(!win("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1"));
        // Rook pawn with the defender in the corner: always a draw.
        assert!(!win("k7/8/8/8/P7/8/8/K7 w - - 0 1"));
        assert!(!win("k7/8/1K6/P7/8/8/8/8 w - - 0 1"));
        // The square rule: the pawn runs alone when the King is outside its square.
        assert!(win("8/8/8/k7/8/8/6P1/7K w - - 0 1"));
        assert!(!win("8/8/8/5k2/8/8/6P1/K7 b - - 0 1"));
        // Defender in front of the pawn with the opposition, attacker behind it: a draw.
        assert!(!win("8/8/8/4k3/8/4P3/4K3/8 b - - 0 1"));
        // Black's pawn (colours reversed): King on its sixth rank in front wins.
        assert!(win("8/8/8/8/3p4/3k4/8/3K4 w - - 0 1"));
        assert!(win("8/8/8/8/3p4/3k4/8/3K4 b - - 0 1"));
        assert!(!win("8/4k3/4p3/8/4K3/8/8/8 w - - 0 1"));
    }

    #[test]
    fn kpk_bitbase_agrees_with_its_successors() {
        // The defining property of the bitbase checked on every placement with the pawn on
        // e4 or b6: the side to move's verdict follows from its moves' verdicts.
        for psq in [sq("e4"), sq("b6"), sq("g2")] {
            for sk in 0..64u8 {
                for wk in 0..64u8 {
                    for stm_strong in [true, false] {
                        let strong_att = attacks::pawn(Color::White, psq);
                        if sk == wk
                            || sk == psq
                            || wk == psq
                            || distance(sk, wk) <= 1
                            || (stm_strong && strong_att & bit(wk) != 0)
                        {
                            continue;
                        }
                        let v = kpk_win(Color::White, stm_strong, sk, wk, psq);
                        let succ = successors(stm_strong, sk, wk, psq);
                        if stm_strong {
                            if psq / 8 == 6 && kpk_initial(true, sk, wk, psq) == Kpk::Win {
                                assert!(v);
                                continue;
                            }
                            assert_eq!(v, succ.iter().any(|&s| s), "{sk} {wk} {psq}");
                        } else {
                            assert_eq!(
                                v,
                                !succ.is_empty() && succ.iter().all(|&s| s),
                                "{sk} {wk} {psq}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// The verdicts (win for White) after each legal move of a normalised KPK placement;
    /// a position where the pawn is lost or promotes is judged directly.
    fn successors(white_to_move: bool, wk: u8, bk: u8, psq: u8) -> Vec<bool> {
        let mut out = Vec::new();
        if white_to_move {
            for to in 0..64u8 {
                if attacks::king(wk) & bit(to) != 0 && distance(to, bk) > 1 && to != psq {
                    out.push(kpk_win(Color::White, false, to, bk, psq));
                }
            }
            if psq / 8 < 6 {
                let q = psq + 8;
                if q != wk && q != bk {
                    out.push(kpk_win(Color::White, false, wk, bk, q));
                    if psq / 8 == 1 && q + 8 != wk && q + 8 != bk {
                        out.push(kpk_win(Color::White, false, wk, bk, q + 8));
                    }
                }
            }
        } else {
            let guarded = attacks::king(wk) | attacks::pawn(Color::White, psq);
            for to in 0..64u8 {
                if attacks::king(bk) & bit(to) != 0 && guarded & bit(to) == 0 {
                    // Taking the unprotected pawn draws.
                    out.push(to != psq && kpk_win(Color::White, true, wk, to, psq));
                }
            }
        }
        out
    }

    #[test]
    fn wrong_bishop_and_krpkr() {
        // h-pawns and a light-squared bishop: h8 is dark, the defender on g8 holds.
        assert!(!win("6k1/8/8/7P/7P/3B4/8/4K3 w - - 0 1"));
        // The right bishop (dark squares) wins.
        assert!(win("6k1/8/8/7P/7P/4B3/8/4K3 w - - 0 1"));
        // Defender too far from the corner.
        assert!(win("8/8/8/1k5P/8/8/8/3BK3 w - - 0 1"));
        // Black with a-pawns and a light-squared bishop: a1 is dark.
        assert!(!win("4k3/8/2b5/8/p7/8/8/1K6 w - - 0 1"));
        // KRPKR: defending King in front of the pawn, and beside it behind (not in front).
        let front = Chess::from_fen("6k1/8/6KP/8/8/8/r7/7R w - - 0 1").unwrap();
        assert_eq!(scale(front.board(), front.stm), Some(KRPKR_FRONT_SCALE));
        let cut_off = Chess::from_fen("8/8/6KP/8/8/8/k7/r6R w - - 0 1").unwrap();
        assert_eq!(scale(cut_off.board(), cut_off.stm), None);
    }
}
