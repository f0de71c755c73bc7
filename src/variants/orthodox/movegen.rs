//! Legal move generation for the orthodox pieces on a [`Board`], shared by chess, Muster and
//! Mystic; each adds what its rules add (castling, Muster's long pushes and en passant, Mystic's
//! purchases).
//!
//! Fully legal, without make/unmake: King moves are tested against the attacks with the King
//! lifted off the board; other pieces are restricted to the check mask (the checker and the
//! squares between it and the King; nothing under double check) and, when pinned, to the line
//! through their King. En passant, the one move that can expose the King along a rank by
//! removing two pieces, is tested by recomputing the attacks on the King.

use super::attacks::{self, RANK_1, RANK_8};
use super::board::Board;
use super::types::{Kind, Move, MoveKind};
use super::NO_EP;
use crate::core::{Color, MoveList};

const RANK_3: u64 = 0xFF << 16;
const RANK_6: u64 = 0xFF << 40;

/// Appends the legal moves of `us`, whose King is attacked by `checkers`, on `board` with the
/// en passant target square `ep` ([`NO_EP`] for none; the pawn taken stands behind it): King
/// moves, then knights, bishops and queens diagonally, rooks and queens orthogonally, pawns
/// (pushes of one and of two from the second rank, promotions, captures, en passant), then
/// `more(list, king_square, occupancy)` unless in double check: the variant's own moves, such
/// as castling. With `TACTICAL`, only captures, en passant and queen promotions (the caller
/// passes `false` when in check, so that every evasion is tried).
#[inline]
pub fn generate<const TACTICAL: bool>(
    board: &Board,
    us: Color,
    checkers: u64,
    ep: u8,
    list: &mut MoveList<Move>,
    more: impl FnOnce(&mut MoveList<Move>, u8, u64),
) {
    let them = !us;
    let occ = board.occupied();
    let own = board.color_bb(us);
    let enemy = board.color_bb(them);
    let ksq = board.king_sq(us);

    // King moves.
    let king_targets = attacks::king(ksq) & !own & if TACTICAL { enemy } else { !0 };
    let occ_no_king = occ ^ (1u64 << ksq);
    let mut t = king_targets;
    while t != 0 {
        let to = t.trailing_zeros() as u8;
        t &= t - 1;
        if board.attackers_to(to, occ_no_king, them) == 0 {
            list.push(Move::new(ksq, to, MoveKind::Normal));
        }
    }
    if checkers & (checkers.wrapping_sub(1)) != 0 {
        return; // double check: only the King moves
    }
    let check_mask = if checkers != 0 {
        attacks::between(ksq, checkers.trailing_zeros() as u8) | checkers
    } else {
        !0u64
    };
    let pinned = board.pinned(us);
    let targets = !own & check_mask & if TACTICAL { enemy } else { !0 };

    // Knights (a pinned knight never moves).
    let mut b = board.pieces(us, Kind::Knight) & !pinned;
    while b != 0 {
        let from = b.trailing_zeros() as u8;
        b &= b - 1;
        push_all(list, from, attacks::knight(from) & targets);
    }
    // Sliders.
    let diag = board.pieces(us, Kind::Bishop) | board.pieces(us, Kind::Queen);
    let orth = board.pieces(us, Kind::Rook) | board.pieces(us, Kind::Queen);
    let mut b = diag;
    while b != 0 {
        let from = b.trailing_zeros() as u8;
        b &= b - 1;
        let mut tg = attacks::bishop(from, occ) & targets;
        if pinned & (1u64 << from) != 0 {
            tg &= attacks::line(ksq, from);
        }
        push_all(list, from, tg);
    }
    let mut b = orth;
    while b != 0 {
        let from = b.trailing_zeros() as u8;
        b &= b - 1;
        let mut tg = attacks::rook(from, occ) & targets;
        if pinned & (1u64 << from) != 0 {
            tg &= attacks::line(ksq, from);
        }
        push_all(list, from, tg);
    }

    generate_pawns::<TACTICAL>(board, us, checkers, ep, list, pinned, check_mask, ksq);
    more(list, ksq, occ);
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn generate_pawns<const TACTICAL: bool>(
    board: &Board,
    us: Color,
    checkers: u64,
    ep: u8,
    list: &mut MoveList<Move>,
    pinned: u64,
    check_mask: u64,
    ksq: u8,
) {
    let them = !us;
    let occ = board.occupied();
    let empty = !occ;
    let enemy = board.color_bb(them);
    let pawns = board.pieces(us, Kind::Pawn);
    let (promo_rank, double_rank) = match us {
        Color::White => (RANK_8, RANK_3),
        Color::Black => (RANK_1, RANK_6),
    };
    let up = |b: u64| if us == Color::White { b << 8 } else { b >> 8 };
    // Offset from destination back to origin for each shift.
    let back: i8 = if us == Color::White { -8 } else { 8 };
    let free = pawns & !pinned;

    // Pushes of unpinned pawns.
    let single = up(free) & empty;
    let double = up(single & double_rank) & empty & check_mask;
    let single = single & check_mask;
    let promos = single & promo_rank;
    let quiet = single & !promo_rank;
    if !TACTICAL {
        push_shifted(list, quiet, back, MoveKind::Normal);
        push_shifted(list, double, 2 * back, MoveKind::DoublePush);
    }
    push_promotions::<TACTICAL>(list, promos, back);

    // Captures of unpinned pawns, by direction (file shift of -1 / +1).
    let not_a = !attacks::FILE_A;
    let not_h = !attacks::FILE_H;
    let caps_targets = enemy & check_mask;
    let (left, right): (u64, u64) = match us {
        Color::White => ((free & not_a) << 7, (free & not_h) << 9),
        Color::Black => ((free & not_a) >> 9, (free & not_h) >> 7),
    };
    let (back_l, back_r): (i8, i8) = match us {
        Color::White => (-7, -9),
        Color::Black => (9, 7),
    };
    for (caps, bk) in [
        (left & caps_targets, back_l),
        (right & caps_targets, back_r),
    ] {
        push_shifted(list, caps & !promo_rank, bk, MoveKind::Normal);
        push_promotions::<false>(list, caps & promo_rank, bk);
    }

    // Pinned pawns move only along their pin line (never while in check).
    if checkers == 0 {
        let mut b = pawns & pinned;
        while b != 0 {
            let from = b.trailing_zeros() as u8;
            b &= b - 1;
            let allowed = attacks::line(ksq, from);
            let caps = attacks::pawn(us, from) & enemy & allowed;
            let mut c = caps;
            while c != 0 {
                let to = c.trailing_zeros() as u8;
                c &= c - 1;
                if (1u64 << to) & promo_rank != 0 {
                    push_promotions::<false>(list, 1u64 << to, from as i8 - to as i8);
                } else {
                    list.push(Move::new(from, to, MoveKind::Normal));
                }
            }
            if TACTICAL {
                continue;
            }
            let one = up(1u64 << from) & empty & allowed;
            if one != 0 {
                let to = one.trailing_zeros() as u8;
                if one & promo_rank != 0 {
                    push_promotions::<false>(list, one, from as i8 - to as i8);
                } else {
                    list.push(Move::new(from, to, MoveKind::Normal));
                    let two = up(one & double_rank) & empty;
                    if two != 0 {
                        list.push(Move::new(
                            from,
                            two.trailing_zeros() as u8,
                            MoveKind::DoublePush,
                        ));
                    }
                }
            }
        }
    }

    // En passant: verify by recomputing the attacks on the King.
    if ep != NO_EP {
        let cap_sq = ep ^ 8;
        let mut c = attacks::pawn(them, ep) & pawns;
        while c != 0 {
            let from = c.trailing_zeros() as u8;
            c &= c - 1;
            let after = occ ^ (1u64 << from) ^ (1u64 << cap_sq) ^ (1u64 << ep);
            let attackers = board.attackers_to(ksq, after, them) & !(1u64 << cap_sq);
            if attackers == 0 {
                list.push(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
    }
}

#[inline(always)]
fn push_all(list: &mut MoveList<Move>, from: u8, mut targets: u64) {
    while targets != 0 {
        let to = targets.trailing_zeros() as u8;
        targets &= targets - 1;
        list.push(Move::new(from, to, MoveKind::Normal));
    }
}

#[inline(always)]
fn push_shifted(list: &mut MoveList<Move>, mut targets: u64, back: i8, kind: MoveKind) {
    while targets != 0 {
        let to = targets.trailing_zeros() as u8;
        targets &= targets - 1;
        list.push(Move::new((to as i8 + back) as u8, to, kind));
    }
}

#[inline(always)]
fn push_promotions<const QUEEN_ONLY: bool>(list: &mut MoveList<Move>, mut targets: u64, back: i8) {
    while targets != 0 {
        let to = targets.trailing_zeros() as u8;
        targets &= targets - 1;
        let from = (to as i8 + back) as u8;
        list.push(Move::new(from, to, MoveKind::PromoQueen));
        if !QUEEN_ONLY {
            list.push(Move::new(from, to, MoveKind::PromoRook));
            list.push(Move::new(from, to, MoveKind::PromoBishop));
            list.push(Move::new(from, to, MoveKind::PromoKnight));
        }
    }
}

/// Appends the legal moves of `us` (attacked by `checkers`) that quiescence tries: captures,
/// en passant and queen promotions; every legal move when in check. See [`generate`].
#[inline]
pub fn generate_tactical(
    board: &Board,
    us: Color,
    checkers: u64,
    ep: u8,
    list: &mut MoveList<Move>,
) {
    if checkers != 0 {
        generate::<false>(board, us, checkers, ep, list, |_, _, _| {});
    } else {
        generate::<true>(board, us, checkers, ep, list, |_, _, _| {});
    }
}

/// The actions of White's `kind` on `from` of an 8x8 board that holds only it and `others`
/// (Black's pieces to capture when `true`, White's blockers when `false`), for a piece diagram
/// ([`crate::variants::diagram`]): the attack tables the generator uses, and the pawn's pushes
/// (one square; two from the second rank; with `first_rank_pushes`, also two and three from the
/// first, as Muster's, rules/muster.md 4.1). No castling, no en passant.
///
/// Errors: `code` is not one of `K Q R B N P`, or `from` is off the board.
pub fn lone_piece_moves(
    code: &str,
    from: u8,
    others: &[(u8, bool)],
    first_rank_pushes: bool,
    out: &mut Vec<crate::variants::diagram::Reached>,
) -> Result<(), String> {
    use crate::variants::diagram::Reached;
    let kind = match code.as_bytes() {
        [c] => Kind::from_letter(*c as char).map(|(_, k)| k),
        _ => None,
    }
    .ok_or_else(|| format!("'{code}' is not an orthodox piece"))?;
    if from >= 64 {
        return Err(format!("cell {from} is off the 8x8 board"));
    }
    let mut occ = 1u64 << from;
    let mut enemy = 0u64;
    for &(sq, is_enemy) in others {
        occ |= 1u64 << sq;
        if is_enemy {
            enemy |= 1u64 << sq;
        }
    }
    let (quiet, captures) = match kind {
        Kind::Pawn => {
            let row = from / 8;
            let most = match row {
                0 if first_rank_pushes => 3,
                1 => 2,
                _ => 1,
            };
            let mut quiet = 0u64;
            let mut sq = from;
            for _ in 0..most {
                if sq >= 56 {
                    break;
                }
                sq += 8;
                if occ & (1u64 << sq) != 0 {
                    break;
                }
                quiet |= 1u64 << sq;
            }
            (
                quiet,
                attacks::pawn(crate::core::Color::White, from) & enemy,
            )
        }
        _ => {
            let a = match kind {
                Kind::King => attacks::king(from),
                Kind::Queen => attacks::queen(from, occ),
                Kind::Rook => attacks::rook(from, occ),
                Kind::Bishop => attacks::bishop(from, occ),
                _ => attacks::knight(from),
            };
            (a & !occ, a & enemy)
        }
    };
    for to in (0..64u8).filter(|&s| quiet >> s & 1 != 0) {
        out.push(Reached { to, captured: 0 });
    }
    for to in (0..64u8).filter(|&s| captures >> s & 1 != 0) {
        out.push(Reached {
            to,
            captured: 1u128 << to,
        });
    }
    Ok(())
}
