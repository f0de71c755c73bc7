//! Mutatis Mutandis piece library: properties over every piece state.
//!
//! - rules/mutatis-mutandis.md 6: on an empty board, from every square, each state's
//!   destination set is symmetric under the board symmetries the piece has (all 8 for
//!   non-directional pieces; the file mirror for pawns; the Cylindrical Bishop's mirrors and
//!   file rotation), and Blue's pieces mirror White's.
//! - rules 6, 7: over random boards filled with random pieces, no action leaves the board,
//!   lands on a friendly piece (except swaps) or removes a friendly or immune piece; each kind
//!   of action is made by the states that have it; tokens are unique and parse back; the
//!   attacked query agrees with the union of the opponent's captures.

use std::collections::{BTreeSet, HashSet};

use menagerie::core::zobrist::SplitMix64;
use menagerie::core::Color;
use menagerie::variants::mutatis_mutandis::{
    actions_from, attacked, attacked_set, generate, Action, ActionKind, ActionList, Board, Piece,
    State,
};

type Sym = fn(i32, i32) -> (i32, i32);

const D4: [Sym; 8] = [
    |f, r| (f, r),
    |f, r| (7 - f, r),
    |f, r| (f, 7 - r),
    |f, r| (7 - f, 7 - r),
    |f, r| (r, f),
    |f, r| (7 - r, f),
    |f, r| (r, 7 - f),
    |f, r| (7 - r, 7 - f),
];

fn map(sym: Sym, sq: u8) -> u8 {
    let (f, r) = sym((sq & 7) as i32, (sq >> 3) as i32);
    (r * 8 + f) as u8
}

fn map_set(sym: Sym, bb: u64) -> u64 {
    (0..64u8)
        .filter(|&s| bb >> s & 1 != 0)
        .fold(0, |m, s| m | 1u64 << map(sym, s))
}

fn dest_set(state: State, color: Color, sq: u8) -> u64 {
    let mut b = Board::empty();
    b.put(sq, Piece::new(color, state));
    let mut l = ActionList::new();
    actions_from(&b, sq, &mut l);
    l.iter().fold(0, |m, a| m | 1u64 << a.to)
}

fn symmetries(state: State) -> Vec<Sym> {
    match state {
        State::Pawn | State::BerolinaPawn | State::ScorpionPawn => vec![D4[0], D4[1]],
        State::CylindricalBishop => vec![D4[0], D4[1], D4[2], D4[3]],
        _ => D4.to_vec(),
    }
}

#[test]
fn empty_board_destinations_are_symmetric() {
    // rules/mutatis-mutandis.md 6.1, 6.2
    for state in State::ALL {
        let d: Vec<u64> = (0..64).map(|s| dest_set(state, Color::White, s)).collect();
        assert!(d.iter().any(|&x| x != 0), "{state} never moves");
        for sym in symmetries(state) {
            for s in 0..64u8 {
                assert_eq!(
                    d[map(sym, s) as usize],
                    map_set(sym, d[s as usize]),
                    "{state} from square {s}"
                );
            }
        }
        // Blue's piece is White's mirrored top to bottom (rules 1: forward = -rank for Blue).
        for s in 0..64u8 {
            let mirror: Sym = D4[2];
            assert_eq!(
                dest_set(state, Color::Black, s),
                map_set(mirror, d[map(mirror, s) as usize]),
                "{state} Blue from {s}"
            );
        }
    }
    // rules 6.1 CY: the cylinder has no preferred file either.
    for s in 0..64u8 {
        let f = (s & 7) as i32;
        let r = (s >> 3) as i32;
        let shifted = (r * 8 + (f + 3) % 8) as u8;
        let d = dest_set(State::CylindricalBishop, Color::White, s);
        let shift = |bb: u64| {
            (0..64u8)
                .filter(|&t| bb >> t & 1 != 0)
                .fold(0u64, |m, t| m | 1u64 << ((t & !7) | (((t & 7) + 3) % 8)))
        };
        assert_eq!(
            dest_set(State::CylindricalBishop, Color::White, shifted),
            shift(d)
        );
    }
    // Pawns are not symmetric top to bottom (sanity: the mirror test above could fail).
    assert_ne!(
        dest_set(State::Pawn, Color::White, 27),
        map_set(D4[2], dest_set(State::Pawn, Color::White, 35))
    );
}

/// A random board: 2..=40 pieces of random states and colours; sometimes an en-passant square
/// and a swap ban.
pub fn random_board(rng: &mut SplitMix64) -> Board {
    let mut b = Board::empty();
    let n = 2 + rng.below(39) as usize;
    for _ in 0..n {
        let sq = rng.below(64) as u8;
        let state = State::ALL[rng.below(State::ALL.len() as u64) as usize];
        let color = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        b.put(sq, Piece::new(color, state));
    }
    if rng.below(4) == 0 {
        let sq = if rng.below(2) == 0 { 16 } else { 40 } + rng.below(8) as u8;
        if b.piece(sq).is_none() {
            b.ep = Some(sq);
        }
    }
    if rng.below(4) == 0 {
        b.swap_ban = Some((rng.below(64) as u8, rng.below(64) as u8));
    }
    b
}

fn adjacent(a: u8, b: u8) -> bool {
    let df = (a & 7) as i32 - (b & 7) as i32;
    let dr = (a >> 3) as i32 - (b >> 3) as i32;
    a != b && df.abs() <= 1 && dr.abs() <= 1
}

fn shielded(b: &Board, sq: u8) -> bool {
    let p = b.piece(sq).unwrap();
    (0..64u8).any(|s| adjacent(s, sq) && b.piece(s) == Some(Piece::new(p.color, State::Shield)))
}

fn frozen(b: &Board, sq: u8) -> bool {
    let p = b.piece(sq).unwrap();
    (0..64u8).any(|s| {
        adjacent(s, sq)
            && match b.piece(s) {
                Some(q) if q.color != p.color => {
                    q.state == State::Immobilizer
                        || (q.state == State::Chameleon && p.state == State::Immobilizer)
                }
                _ => false,
            }
    })
}

fn check_action(b: &Board, us: Color, a: &Action) {
    let ctx = format!("{} {:?}: {a:?} ({a})", b.fen_board(), us);
    assert!(a.from < 64 && a.to < 64, "{ctx}");
    let mover = b.piece(a.from).expect("mover");
    assert_eq!(mover.color, us, "{ctx}");
    if frozen(b, a.from) {
        assert_eq!(a.kind, ActionKind::Suicide, "{ctx}");
    }
    let target = b.piece(a.to);
    let capturer = match a.kind {
        ActionKind::Sling => b.piece(a.from2).unwrap().state,
        _ => mover.state,
    };
    match a.kind {
        ActionKind::Move => {
            assert!(!a.has_second_leg(), "{ctx}");
            match target {
                None => {}
                Some(t) => {
                    assert_ne!(t.color, us, "lands on a friend: {ctx}");
                    assert!(a.captures >> a.to & 1 != 0, "{ctx}");
                }
            }
            if a.promotes {
                let row = if us == Color::White { 7 } else { 0 };
                assert!(
                    mover.state.is_pawn() || mover.state == State::CannonPawn,
                    "{ctx}"
                );
                assert_eq!((a.to >> 3) as i32, row, "{ctx}");
            }
        }
        ActionKind::Swap => {
            assert!(target.is_some(), "{ctx}");
            assert_eq!((a.from2, a.to2), (a.to, a.from), "{ctx}");
            assert!(
                matches!(mover.state, State::Swapper | State::Chameleon),
                "{ctx}"
            );
            if mover.state == State::Chameleon {
                assert_eq!(target, Some(Piece::new(!us, State::Swapper)), "{ctx}");
            }
            if let Some((x, y)) = b.swap_ban {
                assert!(
                    !((x, y) == (a.from, a.to) || (y, x) == (a.from, a.to)),
                    "{ctx}"
                );
            }
        }
        ActionKind::Sling => {
            assert_eq!(mover.state, State::Oxybeles, "{ctx}");
            assert!(target.is_none(), "{ctx}");
            let slung = b.piece(a.from2).unwrap();
            match b.piece(a.to2) {
                None => assert_eq!(a.captures, 0, "{ctx}"),
                Some(t) => {
                    assert_ne!(t.color, slung.color, "{ctx}");
                    assert_eq!(a.captures, 1u64 << a.to2, "{ctx}");
                }
            }
        }
        ActionKind::Shot => {
            assert!(
                matches!(mover.state, State::Archer | State::Chameleon),
                "{ctx}"
            );
            assert_eq!(a.captures, 1u64 << a.to, "{ctx}");
        }
        ActionKind::MutualDestruction => {
            assert!(
                matches!(mover.state, State::Swapper | State::Chameleon),
                "{ctx}"
            );
            assert!(adjacent(a.from, a.to), "{ctx}");
            assert_eq!(a.captures, 1u64 << a.to | 1u64 << a.from, "{ctx}");
        }
        ActionKind::Suicide => {
            assert_eq!(a.from, a.to, "{ctx}");
            assert!(frozen(b, a.from) && !mover.state.is_royal(), "{ctx}");
            assert_eq!(a.captures, 1u64 << a.from, "{ctx}");
        }
        ActionKind::Convert => {
            assert_eq!(mover.state, State::Maoking, "{ctx}");
            let t = target.expect("convert target");
            assert!(t.color != us && adjacent(a.from, a.to), "{ctx}");
            assert!(!t.state.is_royal() && t.state != State::Mamra && !shielded(b, a.to));
            assert_eq!(a.captures, 0, "{ctx}");
        }
        ActionKind::Corner => panic!("cornering is the game's, not a piece action: {ctx}"),
    }
    // Captured pieces: opponents of the capturer, never immune (rules 7.4).
    let mut c = a.captures;
    if matches!(a.kind, ActionKind::MutualDestruction | ActionKind::Suicide) {
        c &= !(1u64 << a.from);
    }
    let capturer_color = match a.kind {
        ActionKind::Sling => b.piece(a.from2).unwrap().color,
        _ => us,
    };
    for s in (0..64u8).filter(|&s| c >> s & 1 != 0) {
        let v = b.piece(s).unwrap_or_else(|| {
            // en passant: the victim sits behind the landing square
            panic!("captures an empty square: {ctx}")
        });
        assert_ne!(v.color, capturer_color, "captures a friend: {ctx}");
        assert!(!shielded(b, s), "captures a shielded piece: {ctx}");
        if v.state == State::Mamra {
            assert!(capturer.captures_mamra(), "captures a Mamra: {ctx}");
        }
    }
}

#[test]
fn random_boards_actions_are_well_formed() {
    // rules/mutatis-mutandis.md 6, 7, 11
    let mut rng = SplitMix64::new(0x4d4d_2026);
    let mut total = 0usize;
    let mut kinds = HashSet::new();
    for _ in 0..3000 {
        let b = random_board(&mut rng);
        for us in Color::ALL {
            let mut l = ActionList::new();
            generate(&b, us, &mut l);
            assert!(l.len() < l.capacity());
            total += l.len();
            let mut seen = BTreeSet::new();
            for a in &l {
                check_action(&b, us, a);
                kinds.insert(format!("{:?}", a.kind));
                let t = a.token(Some(State::Queen));
                assert!(
                    seen.insert(t.to_string()),
                    "duplicate token {t} in {}",
                    b.fen_board()
                );
                let (back, _) = Action::find(&l, &t).unwrap();
                assert_eq!(back, *a);
            }
            // rules 5: an enemy piece is attacked iff some action of `us` (full generation)
            // removes it; the captures-only query paths must agree.
            let full = l.iter().fold(0u64, |m, a| m | a.captures) & b.color_bb(!us);
            assert_eq!(attacked_set(&b, us), full, "{}", b.fen_board());
            for s in (0..64u8).filter(|&s| b.color_bb(!us) >> s & 1 != 0) {
                assert_eq!(attacked(&b, s), full >> s & 1 != 0, "{}", b.fen_board());
            }
        }
    }
    assert!(total > 100_000, "{total}");
    assert_eq!(kinds.len(), 7, "{kinds:?}");
}

#[test]
fn apply_and_undo_on_random_boards() {
    // rules/mutatis-mutandis.md 6, 7, 11: the action carries what the board needs: after
    // `apply`, the captured pieces are gone, the mover (and partner / slung piece) stand on
    // their destinations, a conversion flips a colour; `undo` restores the board exactly.
    let mut rng = SplitMix64::new(0x5eed_0002);
    for _ in 0..1500 {
        let b = random_board(&mut rng);
        for us in Color::ALL {
            let mut l = ActionList::new();
            generate(&b, us, &mut l);
            for a in &l {
                let mut c = b.clone();
                let before = c.occupied().count_ones();
                let u = c.apply(a, Some(State::Amazon));
                let ctx = format!("{} {a:?}", b.fen_board());
                let removed = a.captures.count_ones();
                assert_eq!(c.occupied().count_ones(), before - removed, "{ctx}");
                let mover = b.piece(a.from).unwrap();
                match a.kind {
                    ActionKind::Move => {
                        let want = if a.promotes {
                            Piece::new(us, State::Amazon)
                        } else {
                            mover
                        };
                        assert_eq!(c.piece(a.to), Some(want), "{ctx}");
                        assert_eq!(c.piece(a.from), None, "{ctx}");
                    }
                    ActionKind::Swap => {
                        assert_eq!(c.piece(a.to), Some(mover), "{ctx}");
                        assert_eq!(c.piece(a.from), b.piece(a.to), "{ctx}");
                    }
                    ActionKind::Sling => {
                        assert_eq!(c.piece(a.to), Some(mover), "{ctx}");
                        let slung = b.piece(a.from2).unwrap();
                        let want = if a.promotes {
                            Piece::new(slung.color, State::Amazon)
                        } else {
                            slung
                        };
                        assert_eq!(c.piece(a.to2), Some(want), "{ctx}");
                    }
                    ActionKind::Convert => {
                        let t = b.piece(a.to).unwrap();
                        assert_eq!(c.piece(a.to), Some(Piece::new(us, t.state)), "{ctx}");
                    }
                    ActionKind::Shot => assert_eq!(c.piece(a.from), Some(mover), "{ctx}"),
                    ActionKind::MutualDestruction | ActionKind::Suicide => {
                        assert_eq!(c.piece(a.from), None, "{ctx}")
                    }
                    ActionKind::Corner => panic!("cornering is not a piece action: {ctx}"),
                }
                c.undo(&u);
                assert_eq!(c, b, "{ctx}");
            }
        }
    }
}
