//! Legal turns (rules/mutatis-mutandis.md 4, 5, 8, 9): the piece library's actions, plus
//! cornering, paired with the drop choices, kept when none of the mover's royal pieces is
//! attacked after action, promotion, morph and drop; Wuss compulsion; mandatory drops.
//!
//! Cost: one pass over the pseudo-legal actions, each played on a scratch copy of the board
//! of pieces by the same writer as `make` (`position::play_turn`) and taken back. A drop
//! can only add attacks on the mover's royals as a screen of an enemy Paovao, Cannon Pawn or
//! Secutor (every other capture mechanism is only blocked by an extra piece of the mover:
//! rules 6, 7), so when the drop-less turn is legal, a drop square is tested again only
//! when such a piece could use it.

use crate::core::{Color, Square};

use super::action::{Action, ActionKind, ActionList, NO_SQUARE};
use super::board::{bit, iter, Bb, Board};
use super::generate::{
    actions_from, attack_candidates, attacked, attacked_by_first, attacker_first, attackers,
    capture_witness, displaces_plainly, generate, generate_tactical,
};
use super::moves::{MutatisMove, MutatisMoveList};
use super::piece::{Piece, State};
use super::position::{
    corner_plan, flag, home_bb, play_turn, unwrite, DropWindow, MutatisMutandis, TurnEffect,
    MAX_WRITES,
};
use super::tables::{tables, Lines};

/// The royal pieces of `c` (rules 5): King, Maoking, and a piece in the Wuss state.
#[inline(always)]
pub fn royals(b: &Board, c: Color) -> Bb {
    b.pieces(c, State::King) | b.pieces(c, State::Maoking) | b.pieces(c, State::Wuss)
}

/// Whether some royal piece of `c` is attacked (rules 5).
#[inline]
pub fn royal_attacked(b: &Board, c: Color) -> bool {
    iter(royals(b, c)).any(|sq| attacked(b, sq))
}

/// The mover's royal pieces with their potential attackers, taken once per position: after a
/// turn that leaves the royals where they stood, only these pieces and the pieces on the
/// squares the turn touched can attack them (enemy pieces change only there).
struct RoyalWatch {
    royals: Bb,
    /// When a royal is attacked by a piece whose way to it is known: that attack.
    pin: Option<Pin>,
    /// The pin's [`Pin::stuck`] squares (0 without a pin): a turn that touches none of them
    /// leaves the royal attacked (rules 5).
    stuck: Bb,
    /// Per royal: its square, its potential attackers, and its attackers now (tried first:
    /// in check, most turns leave one of them attacking).
    watch: [(Square, Bb, Bb); 4],
    n: usize,
}

impl RoyalWatch {
    /// A watch of no royal, for lists whose royal safety is not judged.
    const EMPTY: RoyalWatch = RoyalWatch {
        royals: 0,
        pin: None,
        stuck: 0,
        watch: [(0, 0, 0); 4],
        n: 0,
    };

    fn new(b: &Board, us: Color) -> RoyalWatch {
        let mut w = RoyalWatch {
            royals: royals(b, us),
            pin: None,
            stuck: 0,
            watch: [(0, 0, 0); 4],
            n: 0,
        };
        for sq in iter(w.royals) {
            if w.n == w.watch.len() {
                break;
            }
            let candidates = attack_candidates(b, sq);
            let now = attackers(b, sq, candidates);
            w.watch[w.n] = (sq, candidates, now);
            if w.pin.is_none() {
                w.pin = Pin::find(b, sq, now);
                w.stuck = w.pin.map_or(0, |p| p.stuck());
            }
            w.n += 1;
        }
        w
    }

    /// Whether a royal of `us` is attacked on `after`, a board that differs from the watched
    /// one only on the squares of `touched`.
    #[inline]
    fn attacked_after(&self, after: &Board, us: Color, touched: Bb) -> bool {
        if royals(after, us) != self.royals || self.n < self.royals.count_ones() as usize {
            return royal_attacked(after, us);
        }
        self.watch[..self.n]
            .iter()
            .any(|&(sq, cand, now)| attacked_by_first(after, sq, cand | touched, now))
    }

    /// [`RoyalWatch::attacked_after`] with where a further drop of a piece in state `dropped`
    /// may end the attack: `None` when no royal of `us` is attacked on `after`, else the
    /// [`Pin::drop_squares`] of one attacked royal and one of its attackers, or every square
    /// when those are not known.
    #[inline]
    fn stuck_after(&self, after: &Board, us: Color, touched: Bb, dropped: State) -> Option<Bb> {
        if royals(after, us) != self.royals || self.n < self.royals.count_ones() as usize {
            return royal_attacked(after, us).then_some(!0);
        }
        self.watch[..self.n].iter().find_map(|&(sq, cand, now)| {
            let x = attacker_first(after, sq, cand | touched, now);
            (x != 0).then(|| Pin::find(after, sq, x).map_or(!0, |p| p.drop_squares(dropped)))
        })
    }
}

/// An attack on a royal whose dependencies are known (rules 5, 7.1, 7.4): the attacker, the
/// royal, and the squares its way depends on ([`removal_witness`]).
#[derive(Clone, Copy)]
struct Pin {
    attacker: Square,
    royal: Square,
    /// [`Pin::core`]'s squares.
    core: Bb,
}

impl Pin {
    /// For a royal on `royal` attacked by the pieces of `attackers`: the attack of the first
    /// of them whose way is known, if any.
    fn find(b: &Board, royal: Square, attackers: Bb) -> Option<Pin> {
        iter(attackers).find_map(|x| {
            let p = b.piece(x)?;
            let way = removal_witness(p.state, x, royal, b.occupied())?;
            let king = &tables().king;
            let near = match p.state {
                State::Withdrawer => king.attacks(x),
                State::Archer => king.attacks(royal),
                _ => 0,
            };
            Some(Pin {
                attacker: x,
                royal,
                core: way | bit(x) | bit(royal) | near,
            })
        })
    }

    /// The squares a turn must write to end the attack: the core ([`Pin::core`]), and the
    /// attacker's and the royal's neighbours, where a freezing Immobilizer or a protecting
    /// Shield would end up. A turn that writes none of them leaves the attacker attacking.
    fn stuck(&self) -> Bb {
        let king = &tables().king;
        self.core() | king.attacks(self.attacker) | king.attacks(self.royal)
    }

    /// The squares whose every change may end the attack: the attacker's, the royal's and its
    /// way's, with the attacker's neighbours for a Withdrawer (the square it withdraws to,
    /// rules 6.2 `WI`) and the royal's for an Archer (where spotters stand, and the middle
    /// squares of the spotters two away, `AC`). Writing elsewhere ends it only by freezing
    /// the attacker or protecting the royal (rules 7.1, 7.4: [`Pin::holds`]).
    #[inline(always)]
    fn core(&self) -> Bb {
        self.core
    }

    /// Whether the attack stands on `after`, a board that differs from the pinned one only
    /// outside [`Pin::core`]: the attacker is not frozen and the royal not Shield-protected.
    #[inline]
    fn holds(&self, after: &Board, us: Color) -> bool {
        after.frozen(!us) & bit(self.attacker) == 0 && after.shielded(us) & bit(self.royal) == 0
    }

    /// Where a drop of a piece in state `dropped`, the only change, may end the attack: the
    /// core, and the attacker's neighbours for an Immobilizer and the royal's for a Shield.
    fn drop_squares(&self, dropped: State) -> Bb {
        let king = &tables().king;
        self.core()
            | match dropped {
                State::Immobilizer => king.attacks(self.attacker),
                State::Shield => king.attacks(self.royal),
                _ => 0,
            }
    }
}

/// For a piece in `state` on `from` that removes the royal on `royal` (rules 5): the squares
/// besides both squares and their neighbours whose occupancy that removal depends on, or
/// `None` when not known here. Plain displacement: its way ([`capture_witness`]); the pawn
/// states (a one-step capture), the Swapper (mutual destruction with a neighbour) and the
/// Withdrawer (the square it withdraws to is its own neighbour, rules 6.2 `WI`): none; the
/// Advancer: the squares between (its approach, `AD`); the Archer: the squares between, and
/// when it shoots farther
/// than two squares, the squares two away from the royal where a spotter may stand (the
/// middle squares and adjacent spotters are the royal's neighbours, `AC`).
fn removal_witness(state: State, from: Square, royal: Square, occ: Bb) -> Option<Bb> {
    let t = tables();
    let lines = Lines::ORTH | Lines::DIAG;
    match state {
        _ if displaces_plainly(state) => capture_witness(state, from, royal, occ).flatten(),
        State::Pawn
        | State::BerolinaPawn
        | State::ScorpionPawn
        | State::Swapper
        | State::Withdrawer => Some(0),
        State::Advancer => t.lines.ride_witness(lines, from, royal, occ),
        State::Archer => {
            let between = t.lines.ride_witness(lines, from, royal, occ)?;
            let far = between.count_ones() >= 2;
            Some(between | if far { t.two_away[royal as usize] } else { 0 })
        }
        _ => None,
    }
}

/// The squares an action writes (its legs and captures).
#[inline(always)]
fn touched(a: &Action) -> Bb {
    let mut t = bit(a.from) | bit(a.to) | a.captures;
    if a.from2 != NO_SQUARE {
        t |= bit(a.from2) | bit(a.to2);
    }
    if a.kind == ActionKind::Corner {
        if let Some((kt, pt, _, _)) = corner_plan(a.from, a.to) {
            t |= bit(kt) | bit(pt);
        }
    }
    t
}

/// Squares on a queen line through any square of `set` (the set itself included).
fn queen_lines(set: Bb) -> Bb {
    let t = tables();
    iter(set).fold(set, |m, sq| m | t.queen.rider_attacks(sq, 0))
}

/// Undo log of the scratch board (squares and previous pieces, newest last).
struct Log {
    writes: [(Square, Option<Piece>); MAX_WRITES],
    n: usize,
}

impl MutatisMutandis {
    /// The attacked Wusses of the side to move: when not empty, the turn's action must be made
    /// by one of them (rules 5, Wuss compulsion).
    pub(crate) fn compelled_wusses(&self) -> Bb {
        let b = &self.board;
        iter(b.pieces(self.side, State::Wuss))
            .filter(|&sq| attacked(b, sq))
            .fold(0, |m, sq| m | bit(sq))
    }

    /// Appends the cornering actions of the side to move (rules 9, [D 15], [D 20], [D 21]):
    /// King (state `K`) and corner piece unmoved by their flags and not frozen, the King not in
    /// check, the table's squares empty, and its start and passed squares not attacked. Legality
    /// after the turn is the caller's test.
    fn corner_actions(&self, scratch: &mut Board, out: &mut ActionList) {
        let us = self.side;
        let (fk, fa, fh) = flag::of(us.index());
        if self.corner & fk == 0 {
            return;
        }
        let b = &self.board;
        let kings = b.pieces(us, State::King) & home_bb(us);
        if kings.count_ones() != 1 {
            return;
        }
        let king = kings.trailing_zeros() as Square;
        let frozen = b.frozen(us);
        if frozen & bit(king) != 0 || attacked(b, king) {
            return;
        }
        let row = king & !7;
        for (corner, f) in [(row, fa), (row + 7, fh)] {
            if self.corner & f == 0 || b.color_bb(us) & bit(corner) == 0 {
                continue;
            }
            if frozen & bit(corner) != 0 {
                continue;
            }
            let Some((_, _, empty, safe)) = corner_plan(king, corner) else {
                continue;
            };
            if b.occupied() & empty != 0 {
                continue;
            }
            // [D 20]: each passed square, with the King moved there and its origin emptied.
            let k = b.piece(king);
            let passed_attacked = iter(safe & !bit(king)).any(|p| {
                scratch.remove(king);
                if let Some(k) = k {
                    scratch.put(p, k);
                }
                let hit = attacked(scratch, p);
                scratch.remove(p);
                if let Some(k) = k {
                    scratch.put(king, k);
                }
                hit
            });
            if !passed_attacked {
                // A full list drops it, never panics; the caller sees the list full.
                let _ = out.try_push(Action {
                    kind: ActionKind::Corner,
                    from: king,
                    to: corner,
                    from2: NO_SQUARE,
                    to2: NO_SQUARE,
                    promotes: false,
                    captures: 0,
                });
            }
        }
    }

    /// The state the turns of one position are judged in, shared by every action of it.
    /// Without `JUDGE` the royal watch is left empty (royal safety is not asked).
    fn scan<const JUDGE: bool>(&self) -> Scan {
        let us = self.side;
        let b = &self.board;
        Scan {
            scratch: b.clone(),
            log: Log {
                writes: [(0, None); MAX_WRITES],
                n: 0,
            },
            watch: if JUDGE {
                RoyalWatch::new(b, us)
            } else {
                RoyalWatch::EMPTY
            },
            own_royals: royals(b, us),
            compelled: self.compelled_wusses(),
            window: self.drop_window(us),
        }
    }

    /// Emits the legal turns of the pseudo-legal action `a` (rules 4, 5, 8): the drop-less
    /// turn and one turn per drop square, each when no royal of the mover is attacked after
    /// it. A mandatory drop is not applied here (the caller knows whether any turn drops).
    /// Without `JUDGE`, royal safety is not tested: every such turn is emitted, for
    /// [`MutatisMutandis::turn_is_legal`] to judge later.
    #[inline]
    fn action_turns<const JUDGE: bool>(
        &self,
        a: &Action,
        sc: &mut Scan,
        emit: &mut impl FnMut(MutatisMove),
    ) {
        let us = self.side;
        if sc.compelled != 0 && sc.compelled & bit(a.from) == 0 {
            return;
        }
        // [D 25]: a turn may not remove the mover's own royal piece (a sling can).
        if a.captures & sc.own_royals != 0 {
            return;
        }
        let reserve = &self.reserve[us.index()];
        let promoting = self.promoting_piece(a);
        let promo = match promoting {
            Some(p) => self.promotion_state(p.color),
            None => State::Queen,
        };
        // [D 26]: a promotion of the mover's pawn takes the last reserve piece first.
        let used = promoting.is_some_and(|p| p.color == us && !reserve.is_empty()) as usize;
        let drop_piece = match sc.window {
            DropWindow::Closed => None,
            _ if reserve.len() > used => reserve.first().map(|s| Piece::new(us, s)),
            _ => None,
        };
        // A royal stays attacked when the action touches nothing its attacker depends on
        // (rules 5): the drop-less turn is illegal, and only a drop on one of those squares
        // (empty before and after the action, which leaves them alone) may end the attack.
        let stuck = sc.watch.stuck;
        let stays_attacked = JUDGE && stuck != 0 && touched(a) & stuck == 0;
        let pin_drops = match (sc.watch.pin, drop_piece) {
            (Some(pin), Some(dp)) => pin.drop_squares(dp.state),
            _ => 0,
        };
        if stays_attacked && home_bb(us) & pin_drops & !self.board.occupied() == 0 {
            return;
        }
        if !JUDGE && drop_piece.is_none() {
            // Unjudged and without a drop, the turn needs no board after its action.
            emit(MutatisMove::new(*a, NO_SQUARE));
            return;
        }
        let effect = TurnEffect {
            action: *a,
            promo,
            drop: None,
        };
        let scratch = &mut sc.scratch;
        let log = &mut sc.log;
        log.n = 0;
        play_turn(scratch, &effect, &mut |sq, old, _| {
            log.writes[log.n] = (sq, old);
            log.n += 1;
        });
        let written = touched(a);
        let watch = &sc.watch;
        // Judged: `Some(squares)` when a royal is attacked after the action, a drop then
        // being legal only on one of `squares` (and when no royal is attacked after it).
        let attacked_after = if !JUDGE {
            None
        } else if stays_attacked {
            Some(pin_drops)
        } else if watch
            .pin
            .is_some_and(|pin| written & pin.core() == 0 && pin.holds(scratch, us))
        {
            // The action wrote only around the attacker and the royal, and froze or shielded
            // nothing: the attack stands.
            Some(pin_drops)
        } else if let Some(dp) = drop_piece {
            watch.stuck_after(scratch, us, written, dp.state)
        } else {
            watch.attacked_after(scratch, us, written).then_some(!0)
        };
        let safe = attacked_after.is_none();
        if let Some(dp) = drop_piece {
            let empties = home_bb(us) & !scratch.occupied() & attacked_after.unwrap_or(!0);
            if !JUDGE {
                for s in iter(empties) {
                    emit(MutatisMove::new(*a, s));
                }
            } else if empties != 0 {
                let them = !us;
                let recheck_all =
                    !safe || dp.state.is_royal() || scratch.pieces(them, State::Secutor) != 0;
                let screens =
                    scratch.pieces(them, State::Paovao) | scratch.pieces(them, State::CannonPawn);
                let lines = if screens != 0 {
                    queen_lines(royals(scratch, us))
                } else {
                    0
                };
                for s in iter(empties) {
                    let ok = if !recheck_all && lines & bit(s) == 0 {
                        true
                    } else {
                        scratch.put(s, dp);
                        let ok = !watch.attacked_after(scratch, us, written | bit(s));
                        scratch.remove(s);
                        ok
                    };
                    if ok {
                        emit(MutatisMove::new(*a, s));
                    }
                }
            }
        }
        if safe {
            emit(MutatisMove::new(*a, NO_SQUARE));
        }
        unwrite(scratch, &log.writes[..log.n]);
    }

    /// Appends the legal turns of the side to move of the given `kinds` to `out` (rules 4, 5,
    /// 8, 9): all of them, or only those whose action captures, promotes or converts (for
    /// quiescence and the first stage of the search), or only the others. Each is legal, and a
    /// mandatory drop is honoured exactly.
    ///
    /// Returns false when a fixed-capacity list (the actions, or `out`) was filled, so that
    /// turns may be missing ([`MutatisMutandis::turns_fit`]); the FEN reader refuses such positions.
    /// `out` is a [`MutatisMoveList`] (`N` = [`MAX_MOVES`](super::moves::MAX_MOVES)) but for tests.
    pub(crate) fn generate_turns<const N: usize>(
        &self,
        out: &mut arrayvec::ArrayVec<MutatisMove, N>,
        kinds: MoveKinds,
    ) -> bool {
        self.generate_turns_judged::<N, true>(out, kinds)
    }

    /// The turns of the given `kinds` for the search's lazy legality: the legal ones each once,
    /// among turns that leave a royal of the mover attacked ([`MutatisMutandis::turn_is_legal`] tells
    /// them apart). In a mandatory drop window the drop-less turns are listed only when no
    /// legal turn drops (rules 8). With a royal attacked, most turns would be illegal, so the
    /// list is the legal one (judged with the royal watch, cheaper than turn by turn).
    pub(crate) fn pseudo_turns(&self, out: &mut MutatisMoveList, kinds: MoveKinds) {
        if self.royal_in_danger() {
            self.generate_turns_judged::<{ super::moves::MAX_MOVES }, true>(out, kinds);
        } else {
            self.generate_turns_judged::<{ super::moves::MAX_MOVES }, false>(out, kinds);
        }
    }

    /// Whether some legal turn drops a piece (rules 8: in a mandatory window every legal turn
    /// then drops). Stops at the first such turn.
    fn any_legal_drop(&self) -> bool {
        let mut actions = ActionList::new();
        generate(&self.board, self.side, &mut actions);
        let mut sc = self.scan::<true>();
        if sc.compelled == 0 {
            self.corner_actions(&mut sc.scratch, &mut actions);
        }
        let mut found = false;
        for a in actions.iter() {
            self.action_turns::<true>(a, &mut sc, &mut |t| found |= t.has_drop());
            if found {
                break;
            }
        }
        found
    }

    /// Whether `t`, a turn of this position's [`MutatisMutandis::pseudo_turns`], is legal: no royal of
    /// the mover is attacked after its action, promotion and drop (rules 5; the drop rule of a
    /// mandatory window was applied to the list). With a royal attacked the list was legal:
    /// true.
    pub(crate) fn turn_is_legal(&self, t: &MutatisMove) -> bool {
        if self.royal_in_danger() {
            return true;
        }
        let us = self.side;
        let a = &t.action;
        let reserve = &self.reserve[us.index()];
        let promo = self
            .promoting_piece(a)
            .map_or(State::Queen, |p| self.promotion_state(p.color));
        let mut scratch = self.board.clone();
        let effect = TurnEffect {
            action: *a,
            promo,
            drop: None,
        };
        play_turn(&mut scratch, &effect, &mut |_, _, _| {});
        if t.has_drop() {
            // The listed drop turns drop the reserve's first piece (rules 8).
            let Some(s) = reserve.first() else {
                return false;
            };
            scratch.put(t.drop, Piece::new(us, s));
        }
        !royal_attacked(&scratch, us)
    }

    /// [`MutatisMutandis::generate_turns`], judging royal safety (`JUDGE`) or leaving it to
    /// [`MutatisMutandis::turn_is_legal`].
    fn generate_turns_judged<const N: usize, const JUDGE: bool>(
        &self,
        out: &mut arrayvec::ArrayVec<MutatisMove, N>,
        kinds: MoveKinds,
    ) -> bool {
        let us = self.side;
        let b = &self.board;
        let mut actions = ActionList::new();
        let mut sc = self.scan::<JUDGE>();
        // With a mandatory drop, whether any legal turn drops decides which turns are legal:
        // judged, that is learned from the turns, so a part is generated whole and filtered at
        // the end; unjudged, it is asked apart.
        let mandatory = sc.window == DropWindow::Mandatory;
        let filter = JUDGE && kinds != MoveKinds::All && mandatory;
        if kinds == MoveKinds::Tactical && !filter {
            // Cornering is never tactical.
            generate_tactical(b, us, &mut actions);
        } else {
            generate(b, us, &mut actions);
            if sc.compelled == 0 {
                self.corner_actions(&mut sc.scratch, &mut actions);
            }
        }
        let start = out.len();
        let mut any_drop = false;
        // A full list drops the surplus (never panics); the return value says so.
        let mut overflow = false;
        for a in actions.iter() {
            if !filter && !kinds.admits(a) {
                continue;
            }
            self.action_turns::<JUDGE>(a, &mut sc, &mut |t| {
                overflow |= out.try_push(t).is_err();
                any_drop |= t.has_drop();
            });
        }
        let complete = !overflow && !actions.is_full();
        let drops = if JUDGE {
            any_drop
        } else {
            mandatory && self.any_legal_drop()
        };
        if mandatory && drops {
            // rules 8: a drop is possible, so every legal turn makes it.
            let mut i = start;
            while i < out.len() {
                if out[i].has_drop() {
                    i += 1;
                } else {
                    out.swap_remove(i);
                }
            }
        }
        if filter {
            let mut i = start;
            while i < out.len() {
                if kinds.admits(&out[i].action) {
                    i += 1;
                } else {
                    out.swap_remove(i);
                }
            }
        }
        complete
    }

    /// The legal turn whose [`GameMove::pack`](crate::variants::GameMove::pack) is `packed`,
    /// or `None`: only the actions of the piece on the packed origin square are generated and
    /// judged (and, for a drop-less turn in a mandatory drop window, whether any legal turn
    /// drops). Agrees with [`MutatisMutandis::generate_turns`] on every packed value.
    pub(crate) fn turn_from_packed(&self, packed: u32) -> Option<MutatisMove> {
        use crate::variants::GameMove;
        let us = self.side;
        let b = &self.board;
        let from = (packed & 63) as Square;
        if b.color_bb(us) & bit(from) == 0 {
            return None;
        }
        let mut actions = ActionList::new();
        actions_from(b, from, &mut actions);
        let mut sc = self.scan::<true>();
        if sc.compelled == 0 && b.pieces(us, State::King) & bit(from) != 0 {
            self.corner_actions(&mut sc.scratch, &mut actions);
        }
        let drop_file = packed >> 27;
        let drop = if drop_file == 0 {
            NO_SQUARE
        } else {
            (home_bb(us).trailing_zeros() as Square) + (drop_file as Square - 1)
        };
        if drop == NO_SQUARE
            && self.drop_window(us) == DropWindow::Mandatory
            && self.any_legal_drop()
        {
            // rules 8: a drop is possible, so no drop-less turn is legal.
            return None;
        }
        // Distinct legal turns pack apart; an illegal action may share a legal one's packing,
        // so every action that packs so is judged.
        let mut found = None;
        for a in actions.iter() {
            if found.is_none() && MutatisMove::new(*a, drop).pack() == packed {
                self.action_turns::<true>(a, &mut sc, &mut |t| {
                    if t.drop == drop {
                        found = Some(t);
                    }
                });
            }
        }
        found
    }

    /// Whether some legal turn of the position makes the action `a` (rules 4, 5, 8), a
    /// pseudo-legal action of the side to move (not cornering): what tells the notation's
    /// rivals apart ([`super::san`]). Only `a` is judged, and, when its only legal turn drops
    /// nothing in a mandatory drop window, whether any legal turn drops. Not on the search's
    /// path.
    pub(crate) fn is_legal_action(&self, a: &Action) -> bool {
        let mut sc = self.scan::<true>();
        let (mut legal, mut drops) = (false, false);
        self.action_turns::<true>(a, &mut sc, &mut |t| {
            legal = true;
            drops |= t.has_drop();
        });
        // rules 8: when some legal turn drops, every legal turn must.
        legal && (drops || sc.window != DropWindow::Mandatory || !self.any_legal_drop())
    }

    /// Whether every legal turn of the position fits the turn list
    /// ([`MAX_MOVES`](super::moves::MAX_MOVES) turns, from at most
    /// [`MAX_ACTIONS`](super::action::MAX_ACTIONS) actions), so that the generator lists them
    /// all. Real games stay far below (`tests/mutatis_game.rs`); only a constructed FEN
    /// crowded with pieces could reach it.
    pub fn turns_fit(&self) -> bool {
        let mut list = MutatisMoveList::new();
        self.generate_turns(&mut list, MoveKinds::All)
    }

    /// Whether the side to move has a royal piece attacked (rules 5: check, or an attacked
    /// Wuss).
    pub fn royal_in_danger(&self) -> bool {
        match self.danger.get() {
            1 => false,
            2 => true,
            _ => {
                let d = royal_attacked(&self.board, self.side);
                self.danger.set(1 + d as u8);
                d
            }
        }
    }
}

/// The state of one position's turn generation: the scratch board with its undo log,
/// the royal watch, and what every action of the position is judged by.
struct Scan {
    scratch: Board,
    log: Log,
    watch: RoyalWatch,
    own_royals: Bb,
    compelled: Bb,
    window: DropWindow,
}

/// Which legal turns `MutatisMutandis::generate_turns` lists: all, the tactical ones or the others.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveKinds {
    /// Every legal turn.
    All,
    /// The turns whose action captures, promotes or converts ([`is_tactical_action`]).
    Tactical,
    /// The other turns.
    Quiet,
}

impl MoveKinds {
    /// Whether turns of action `a` are of these kinds.
    #[inline(always)]
    fn admits(self, a: &Action) -> bool {
        match self {
            MoveKinds::All => true,
            MoveKinds::Tactical => is_tactical_action(a),
            MoveKinds::Quiet => !is_tactical_action(a),
        }
    }
}

/// Whether an action captures, promotes or converts (what quiescence searches).
#[inline(always)]
pub fn is_tactical_action(a: &Action) -> bool {
    a.captures != 0 || a.promotes || a.kind == ActionKind::Convert
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Notation, Rules};

    /// A full list is reported, so that no position is used with legal turns
    /// missing. (No position over the 4096 turns of a [`MutatisMoveList`] is known: a search for
    /// crowded boards of Swappers and riders found at most 3736, so a shorter list shows it.)
    #[test]
    fn a_full_turn_list_is_reported() {
        let start = MutatisMutandis::startpos();
        let mut all = MutatisMoveList::new();
        assert!(start.generate_turns(&mut all, MoveKinds::All));
        assert_eq!(all.len(), 24);
        assert!(start.turns_fit());
        // One turn too many for the list: reported (and no panic); exactly full is complete.
        let mut short = arrayvec::ArrayVec::<MutatisMove, 23>::new();
        assert!(!start.generate_turns(&mut short, MoveKinds::All));
        assert_eq!(short.len(), 23);
        let mut exact = arrayvec::ArrayVec::<MutatisMove, 24>::new();
        assert!(start.generate_turns(&mut exact, MoveKinds::All));
    }

    /// The tactical list of a position (asked of the generators as captures) holds the full
    /// list's tactical turns in the full list's order, judged or not, so the search's ties
    /// break alike. (Lists in a mandatory drop window lose their drop-less turns after
    /// generation, which reorders them: not compared.)
    #[test]
    fn the_tactical_list_keeps_the_full_lists_order() {
        use crate::variants::playout::{Next, Playout};
        fn tactical_of<const JUDGE: bool>(
            pos: &MutatisMutandis,
        ) -> (MutatisMoveList, MutatisMoveList) {
            let mut all = MutatisMoveList::new();
            pos.generate_turns_judged::<{ super::super::moves::MAX_MOVES }, JUDGE>(
                &mut all,
                MoveKinds::All,
            );
            all.retain(|t| is_tactical_action(&t.action));
            let mut tactical = MutatisMoveList::new();
            pos.generate_turns_judged::<{ super::super::moves::MAX_MOVES }, JUDGE>(
                &mut tactical,
                MoveKinds::Tactical,
            );
            (all, tactical)
        }
        let mut playout = Playout::new(61, 80);
        let (mut compared, mut tactical_turns) = (0, 0);
        for seed in 0..10 {
            let mut pos = crate::variants::mutatis_mutandis::setup::random_setup(seed);
            playout.run(&mut pos, |pos, _| {
                if pos.drop_window(pos.side) != DropWindow::Mandatory {
                    let (all, tactical) = tactical_of::<false>(pos);
                    assert_eq!(all, tactical, "unjudged, {}", pos.fen());
                    let (all, tactical) = tactical_of::<true>(pos);
                    assert_eq!(all, tactical, "judged, {}", pos.fen());
                    compared += 1;
                    tactical_turns += tactical.len();
                }
                Next::Random
            });
        }
        assert!(
            compared > 500 && tactical_turns > 1000,
            "{compared} {tactical_turns}"
        );
    }
}
