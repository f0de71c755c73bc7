//! Action generation for a side (rules 6, 7) and the "attacked" query (rules 5).
//!
//! [`generate`] walks the side's pieces and dispatches on the state: plain leapers and riders
//! (`leapers`), bent movers (`bent`), hoppers
//! (`hoppers`), pawns (`pawns`), Winther's pieces
//! (`winther`), the Rococo mechanisms (`rococo`), the
//! Chameleon (`chameleon`) and the Maoking
//! (`interaction`). Frozen pieces only commit suicide (7.1). Nothing
//! allocates: actions go to an [`ActionSink`].

use std::sync::OnceLock;

use crate::core::{Color, Square};

use super::action::{Action, ActionSink};
use super::board::{bit, iter, Bb, Board};
use super::piece::{State, STATE_COUNT};
use super::tables::{tables, Lines, RouteFamily};
use super::{bent, chameleon, hoppers, interaction, leapers, pawns, rococo, winther};

/// Where a displacement piece can go: `quiet` = empty landing squares, `capture` = occupied
/// landing squares of either colour (the caller keeps the capturable enemies).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Empty squares the piece can move to.
    pub quiet: Bb,
    /// Occupied squares the piece could capture on if they held a capturable enemy.
    pub capture: Bb,
}

impl Reach {
    /// The union of two reaches (compound pieces).
    #[inline(always)]
    pub fn union(self, o: Reach) -> Reach {
        Reach {
            quiet: self.quiet | o.quiet,
            capture: self.capture | o.capture,
        }
    }
}

/// The displacement reach of a piece of `color` in `state` on `from` over occupancy `occ`
/// (rules 6.1, and `CP`/`SE` of 6.2); `None` for states that capture otherwise or never.
/// Directional states (pawns) use `color`'s forward. This is also the pattern a Chameleon of
/// `color` mimics (rules 7.2 a).
/// The plain states' reach is computed in line; the other states' out of line.
#[inline(always)]
pub fn reach_of(state: State, color: Color, from: Square, occ: Bb) -> Option<Reach> {
    match leapers::PLAIN[state.index()] {
        Some(p) => Some(leapers::plain_reach(p, from, occ)),
        None => reach_of_other(state, color, from, occ),
    }
}

/// [`reach_of`] for the states that are not plain leapers and riders
/// ([`leapers::PLAIN`]).
#[inline(never)]
fn reach_of_other(state: State, color: Color, from: Square, occ: Bb) -> Option<Reach> {
    match state {
        State::Paovao => Some(hoppers::paovao(from, occ)),
        State::CannonPawn => Some(hoppers::cannon_pawn(from, occ)),
        State::Secutor => Some(winther::secutor(from, occ)),
        State::Pawn | State::BerolinaPawn | State::ScorpionPawn => {
            pawns::reach(state, color, from, occ)
        }
        _ => leapers::reach(state, from, occ).or_else(|| bent::reach(state, from, occ)),
    }
}

/// What the generators of one side read, computed once per call of [`generate`].
#[derive(Clone, Debug)]
pub struct Ctx<'a> {
    /// The board.
    pub b: &'a Board,
    /// The acting side.
    pub us: Color,
    /// Squares of `us`.
    pub own: Bb,
    /// Squares of the opponent.
    pub enemy: Bb,
    /// All occupied squares.
    pub occ: Bb,
    /// Shield-protected pieces per colour (rules 7.4).
    pub shielded: [Bb; 2],
}

impl<'a> Ctx<'a> {
    /// The context of `us` on `b`.
    pub fn new(b: &'a Board, us: Color) -> Ctx<'a> {
        Ctx {
            b,
            us,
            own: b.color_bb(us),
            enemy: b.color_bb(!us),
            occ: b.occupied(),
            shielded: [b.shielded(Color::White), b.shielded(Color::Black)],
        }
    }

    /// Enemies (of `capturer`, a piece of colour `color` in state `state`) that it may remove:
    /// not Shield-protected, and not a Mamra unless the capturer is a pawn state (rules 7.4,
    /// 6.1 `MA`, [D 14]).
    #[inline(always)]
    pub fn capturable_by(&self, color: Color, state: State) -> Bb {
        let them = !color;
        let mut immune = self.shielded[them.index()];
        if !state.captures_mamra() {
            immune |= self.b.pieces(them, State::Mamra);
        }
        self.b.color_bb(them) & !immune
    }

    /// Enemies of the acting side that a piece of it in `state` may remove.
    #[inline(always)]
    pub fn capturable(&self, state: State) -> Bb {
        self.capturable_by(self.us, state)
    }
}

/// Emits the displacement actions of `reach` for a piece in `state` on `from`.
#[inline]
fn displacement<S: ActionSink>(ctx: &Ctx, state: State, from: Square, r: Reach, sink: &mut S) {
    let mut q = if sink.captures_only() { 0 } else { r.quiet };
    while q != 0 {
        let to = q.trailing_zeros() as Square;
        q &= q - 1;
        sink.push(Action::moving(from, to, 0));
    }
    let mut c = r.capture & ctx.capturable(state);
    while c != 0 {
        let to = c.trailing_zeros() as Square;
        c &= c - 1;
        sink.push(Action::moving(from, to, bit(to)));
    }
}

/// Whether `state` acts only by displacement (rules 6.1, and `PV`, `SE` of 6.2): its actions
/// are the quiet moves and the captures of [`reach_of`], captures only of enemies that
/// [`Ctx::capturable_by`] allows (neither Shield-protected nor a Mamra, rules 7.4). The other
/// states (pawns, the Rococo pieces, the Chameleon, Maoking, Oxybeles, Cannon Pawn) have
/// generators of their own.
#[inline(always)]
pub const fn displaces_plainly(state: State) -> bool {
    !matches!(
        state,
        State::Pawn
            | State::BerolinaPawn
            | State::ScorpionPawn
            | State::CannonPawn
            | State::Oxybeles
            | State::Maoking
            | State::Chameleon
            | State::LongLeaper
            | State::Withdrawer
            | State::Advancer
            | State::Swapper
            | State::Archer
            | State::Immobilizer
            | State::Shield
            | State::Wuss
    )
}

/// The actions of the piece of `ctx.us` in `state` on `from`, assuming it is not frozen.
pub fn piece_actions<S: ActionSink>(ctx: &Ctx, state: State, from: Square, sink: &mut S) {
    if displaces_plainly(state) {
        if let Some(r) = reach_of(state, ctx.us, from, ctx.occ) {
            displacement(ctx, state, from, r, sink)
        }
        return;
    }
    match state {
        State::Pawn | State::BerolinaPawn | State::ScorpionPawn => {
            pawns::generate(ctx, state, from, sink)
        }
        State::CannonPawn => hoppers::cannon_pawn_actions(ctx, from, sink),
        State::Oxybeles => winther::oxybeles(ctx, from, sink),
        State::Maoking => interaction::maoking(ctx, from, sink),
        State::Chameleon => chameleon::generate(ctx, from, sink),
        State::LongLeaper => rococo::long_leaper(ctx, from, sink),
        State::Withdrawer => rococo::withdrawer(ctx, from, sink),
        State::Advancer => rococo::advancer(ctx, from, sink),
        State::Swapper => rococo::swapper(ctx, from, sink),
        State::Archer => rococo::archer(ctx, from, sink),
        State::Immobilizer | State::Shield | State::Wuss => rococo::queen_moves(ctx, from, sink),
        // Every other state displaces plainly (above).
        _ => {}
    }
}

/// Every action of `us` on `b` (rules 6, 7), ignoring royal safety, drops and Wuss compulsion
/// (the game's legality filter, rules 5, comes later). Frozen pieces only commit suicide,
/// royals not even that (7.1). Stops early when `sink.done()`.
pub fn generate<S: ActionSink>(b: &Board, us: Color, sink: &mut S) {
    walk::<S, false>(b, us, sink);
}

/// The pieces of `us` one by one: a frozen one commits suicide (not a royal), the others give
/// their actions, all of them or, with `TACTICAL`, as [`generate_tactical`] asks.
#[inline]
fn walk<S: ActionSink, const TACTICAL: bool>(b: &Board, us: Color, sink: &mut S) {
    let ctx = Ctx::new(b, us);
    let frozen = b.frozen(us);
    for from in iter(ctx.own) {
        if sink.done() {
            return;
        }
        let state = match b.piece(from) {
            Some(p) => p.state,
            None => continue,
        };
        if frozen & bit(from) != 0 {
            if !state.is_royal() {
                sink.push(interaction::suicide(from));
            }
            continue;
        }
        let whole = matches!(
            state,
            State::Pawn
                | State::BerolinaPawn
                | State::ScorpionPawn
                | State::CannonPawn
                | State::Maoking
                | State::Chameleon
        );
        if TACTICAL && !whole {
            piece_actions(&ctx, state, from, &mut CapturesOnly(sink));
        } else {
            piece_actions(&ctx, state, from, sink);
        }
    }
}

/// A sink that asks the generators for captures only, passing them on to `S`.
struct CapturesOnly<'s, S>(&'s mut S);

impl<S: ActionSink> ActionSink for CapturesOnly<'_, S> {
    #[inline(always)]
    fn push(&mut self, a: Action) {
        self.0.push(a);
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.0.done()
    }
    #[inline(always)]
    fn captures_only(&self) -> bool {
        true
    }
}

/// The actions of `us` that [`generate`] lists and that capture, promote or convert (the
/// tactical ones, `legal::is_tactical_action`), in the same order, among some of its other
/// actions: the pieces that capture only by removing pieces are asked for their captures
/// alone, while the pawn states, Cannon Pawn (promotions without capture), Maoking
/// (conversions) and Chameleon give all their actions. The caller keeps the tactical ones.
pub fn generate_tactical<S: ActionSink>(b: &Board, us: Color, sink: &mut S) {
    walk::<S, true>(b, us, sink);
}

/// The actions of the single piece on `from` (its owner acting), frozen or not as the board says.
pub fn actions_from<S: ActionSink>(b: &Board, from: Square, sink: &mut S) {
    let p = match b.piece(from) {
        Some(p) => p,
        None => return,
    };
    if b.frozen(p.color) & bit(from) != 0 {
        if !p.state.is_royal() {
            sink.push(interaction::suicide(from));
        }
        return;
    }
    piece_actions(&Ctx::new(b, p.color), p.state, from, sink);
}

/// A sink that only records whether some action removes a piece of `targets`.
struct HitSink {
    targets: Bb,
    hit: bool,
}

impl ActionSink for HitSink {
    #[inline(always)]
    fn push(&mut self, a: Action) {
        if a.captures & self.targets != 0 {
            self.hit = true;
        }
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.hit
    }
    #[inline(always)]
    fn captures_only(&self) -> bool {
        true
    }
    #[inline(always)]
    fn targets(&self) -> Bb {
        self.targets
    }
}

/// Whether the piece on `sq` is attacked (rules 5): its opponent, ignoring royal safety, drops
/// and Wuss compulsion, has an action that removes it by any mechanism (displacement,
/// withdrawal, approach, long leap, Chameleon mimicry, shot, mutual destruction, sling).
/// Frozen pieces attack nothing; immune pieces are not attacked by the mechanisms they resist;
/// conversion is not an attack. An empty square is not attacked.
pub fn attacked(b: &Board, sq: Square) -> bool {
    // Every enemy piece is a candidate: the query keeps those that could reach `sq`.
    attacked_by(b, sq, !0)
}

/// The opponent's pieces (of the piece on `sq`) that could remove a piece on `sq` from where
/// they stand whatever the occupancy (a superset of the attackers: empty when `sq` is empty).
pub fn attack_candidates(b: &Board, sq: Square) -> Bb {
    let Some(p) = b.piece(sq) else {
        return 0;
    };
    let pot = potential();
    let mut candidates = 0;
    for from in iter(b.color_bb(!p.color)) {
        let reach = b
            .piece(from)
            .map_or(0, |q| pot[q.state.index()][from as usize]);
        candidates |= u64::from(reach & bit(sq) != 0) << from;
    }
    candidates
}

/// Whether some piece of `candidates` (opponents of the piece on `sq`; a superset of its
/// attackers such as [`attack_candidates`] gives, or any squares that contain them) removes
/// the piece on `sq` by some action (rules 5). Candidates that are not enemy pieces, or that
/// could never reach `sq` from where they stand, are skipped.
pub fn attacked_by(b: &Board, sq: Square, candidates: Bb) -> bool {
    attackers_among::<true>(b, sq, candidates, 0) != 0
}

/// [`attacked_by`], trying the pieces of `first` (likely attackers, such as the ones that
/// attacked `sq` before a turn) before the other candidates: the answer is the same, found
/// sooner when one of them still attacks.
pub fn attacked_by_first(b: &Board, sq: Square, candidates: Bb, first: Bb) -> bool {
    attacker_first(b, sq, candidates, first) != 0
}

/// [`attacked_by_first`] naming the attacker: one piece of `candidates` that removes the piece
/// on `sq` (the first found, those of `first` tried first), or 0 when none does.
pub fn attacker_first(b: &Board, sq: Square, candidates: Bb, first: Bb) -> Bb {
    attackers_among::<true>(b, sq, candidates, first)
}

/// The pieces of `candidates` (as [`attacked_by`] takes them) that remove the piece on `sq`
/// by some action (rules 5); empty when `sq` is empty.
pub fn attackers(b: &Board, sq: Square, candidates: Bb) -> Bb {
    attackers_among::<false>(b, sq, candidates, 0)
}

/// The attackers of `sq` among `candidates`, those of `first` tried first; with `ANY`, only
/// the first one found.
#[inline]
fn attackers_among<const ANY: bool>(b: &Board, sq: Square, candidates: Bb, first: Bb) -> Bb {
    let Some(p) = b.piece(sq) else {
        return 0;
    };
    let them = !p.color;
    let pot = potential();
    let target = bit(sq);
    let mut reachers = 0;
    for from in iter(candidates & b.color_bb(them)) {
        // Without a branch on the answer: which pieces reach is hard to predict.
        let reach = b
            .piece(from)
            .map_or(0, |q| pot[q.state.index()][from as usize]);
        reachers |= u64::from(reach & target != 0) << from;
    }
    if reachers == 0 {
        return 0;
    }
    reachers &= !b.frozen(them);
    let occ = b.occupied();
    // A plain displacement capture removes neither a Shield-protected piece nor a Mamra
    // (rules 7.4); the other mechanisms ask their generators.
    let shields = b.shielded(p.color);
    let shielded = shields & target != 0;
    let displaceable = p.state != State::Mamra && !shielded;
    // What a Long Leaper, Withdrawer, Advancer or Swapper may capture (none takes a Mamra).
    let victims = b.color_bb(p.color) & !shields & !b.pieces(p.color, State::Mamra);
    let mut ctx = None;
    let mut found = 0;
    for part in [reachers & first, reachers & !first] {
        for from in iter(part) {
            let Some(q) = b.piece(from) else { continue };
            let quick = match q.state {
                _ if displaces_plainly(q.state) => {
                    Some(displaceable && captures_onto(q.state, them, from, sq, occ))
                }
                State::Chameleon => chameleon::captures(p.state, them, from, sq, occ, displaceable),
                State::Pawn | State::BerolinaPawn | State::ScorpionPawn => Some(pawns::removes(
                    q.state, them, from, sq, occ, b.ep, !shielded,
                )),
                State::LongLeaper | State::Withdrawer | State::Advancer | State::Swapper => {
                    rococo::removes(q.state, from, sq, occ, victims)
                }
                State::Archer => Some(
                    displaceable
                        && rococo::shoots(ctx.get_or_insert_with(|| Ctx::new(b, them)), from, sq),
                ),
                _ => None,
            };
            let hit = if let Some(hit) = quick {
                hit
            } else {
                let ctx = ctx.get_or_insert_with(|| Ctx::new(b, them));
                let mut s = HitSink {
                    targets: target,
                    hit: false,
                };
                piece_actions(ctx, q.state, from, &mut s);
                s.hit
            };
            if hit {
                found |= bit(from);
                if ANY {
                    return found;
                }
            }
        }
    }
    found
}

/// Whether the displacement pattern of `state` (a state that [`displaces_plainly`], or a
/// pawn state) of a piece of `color` on `from` reaches the occupied square `to` over `occ`:
/// `to` is in `reach_of(..).capture`, asked alone (capturability aside; rules 6.1, and the
/// Chameleon's mimicry of 7.2 a).
#[inline]
pub(crate) fn captures_onto(state: State, color: Color, from: Square, to: Square, occ: Bb) -> bool {
    match displaces_onto(state, from, to, occ) {
        Some(hit) => hit,
        None => reach_of(state, color, from, occ).is_some_and(|r| r.capture & bit(to) != 0),
    }
}

/// Whether a piece in `state` (one that [`displaces_plainly`]) on `from` reaches the occupied
/// square `to` over occupancy `occ`, capturability aside: the same answer as
/// `reach_of(..).capture` has for `to`, from line and route tables (one lookup per component
/// of a compound) instead of the whole reach. `None` for the states asked through
/// [`reach_of`] (the pawns, whose reach depends on their colour and more).
#[inline(always)]
fn displaces_onto(state: State, from: Square, to: Square, occ: Bb) -> Option<bool> {
    capture_witness(state, from, to, occ).map(|w| w.is_some())
}

/// [`displaces_onto`] with a witness: `Some(Some(m))` when the piece reaches `to`, where `m`
/// holds the squares besides `from` and `to` whose occupancy that answer depends on (the way
/// it takes: 0 for a leap, the squares between for a ride, the route's for a bent or path
/// rider; every square for the Secutor). While none of them changes, it still reaches `to`.
/// `Some(None)` when it does not; `None` for the states asked through [`reach_of`].
#[inline(always)]
pub(crate) fn capture_witness(
    state: State,
    from: Square,
    to: Square,
    occ: Bb,
) -> Option<Option<Bb>> {
    use State::*;
    const O: u8 = Lines::ORTH;
    const D: u8 = Lines::DIAG;
    const N: u8 = Lines::NIGHT;
    let t = tables();
    let target = bit(to);
    let leap = |set: Bb| (set & target != 0).then_some(0);
    let ride = |kinds: u8| t.lines.ride_witness(kinds, from, to, occ);
    let route = |family: RouteFamily| t.routes.witness(family, from, to, occ);
    let knight = t.knight.attacks(from);
    Some(match state {
        King | Mamra => leap(t.king.attacks(from)),
        Queen => ride(O | D),
        Sissa => route(RouteFamily::Sissa),
        Amazon => leap(knight).or_else(|| ride(O | D)),
        Squeen => ride(O | D).or_else(|| route(RouteFamily::Sissa)),
        Unicorn => ride(D | N),
        Dragon => ride(O).or_else(|| route(RouteFamily::SpottedGryphon)),
        Nightrider => ride(N),
        Rose => route(RouteFamily::Rose),
        Chancellor => leap(knight).or_else(|| ride(O)),
        Archbishop => leap(knight).or_else(|| ride(D)),
        DancingHorse => route(RouteFamily::DancingHorse),
        Octopus => route(RouteFamily::CrookedRook).or_else(|| route(RouteFamily::CrookedBishop)),
        DragonKing => leap(t.ferz.attacks(from)).or_else(|| ride(O)),
        DragonHorse => leap(t.wazir.attacks(from)).or_else(|| ride(D)),
        Knight | HydraKnight => leap(knight),
        KnightGuard => leap(knight | t.king.attacks(from)),
        Gryphon => route(RouteFamily::Gryphon),
        Aanca => route(RouteFamily::Aanca),
        CrookedRook => route(RouteFamily::CrookedRook),
        CrookedBishop => route(RouteFamily::CrookedBishop),
        Rook => ride(O),
        CylindricalBishop => route(RouteFamily::Cylinder),
        KnightWazir => leap(knight | t.wazir.attacks(from)),
        KnightFerz => leap(knight | t.ferz.attacks(from)),
        // Cannon (orthogonal) and vao (diagonal) captures jump exactly one piece (6.1 `PV`):
        // every square between matters.
        Paovao => t.lines.hop_witness(O | D, from, to, occ),
        Nn11 => route(RouteFamily::Nn11),
        Nn02 => route(RouteFamily::Nn02),
        Nn31 => route(RouteFamily::Nn31),
        Nn33 => route(RouteFamily::Nn33),
        Nn04 => route(RouteFamily::Nn04),
        Secutor => winther::secutor_captures_onto(from, to, occ).then_some(!0),
        _ => return None,
    })
}

/// For each state and square, a superset of the squares a piece of that state standing there
/// could ever remove a piece from, whatever the occupancy (either colour's forward): the
/// empty-board reach for displacement pieces (blocking only shortens their paths), queen lines
/// for the Paovao, Long Leaper, Advancer and Archer, the 2-square star of the Cannon Pawn, the
/// neighbours for pawns (en passant included), Withdrawer and Swapper, the queen lines beyond
/// the neighbours for the Oxybeles (its sling), everything for the Chameleon and Secutor
/// (whose captures depend on the whole board), nothing for
/// the states that never capture.
fn potential() -> &'static [[Bb; 64]; STATE_COUNT] {
    static POTENTIAL: OnceLock<Box<[[Bb; 64]; STATE_COUNT]>> = OnceLock::new();
    POTENTIAL.get_or_init(|| {
        let t = tables();
        let mut p = Box::new([[0; 64]; STATE_COUNT]);
        for state in State::ALL {
            for from in 0..64u8 {
                let queen = t.queen.rider_attacks(from, 0);
                let king = t.king.attacks(from);
                p[state.index()][from as usize] = match state {
                    State::Chameleon | State::Secutor => !0,
                    // The slung piece lands two squares away at the nearest (rules 6.2 `OX`).
                    State::Oxybeles => queen & !king,
                    State::Maoking | State::Wuss | State::Immobilizer | State::Shield => 0,
                    State::Paovao | State::LongLeaper | State::Advancer | State::Archer => queen,
                    State::CannonPawn => t.two_away[from as usize],
                    State::Pawn
                    | State::BerolinaPawn
                    | State::ScorpionPawn
                    | State::Withdrawer
                    | State::Swapper => king,
                    _ => reach_of(state, Color::White, from, 0).map_or(!0, |r| r.quiet | r.capture),
                };
            }
        }
        p
    })
}

/// The squares of `victims`' pieces that `attacker` could remove by some action (rules 5).
pub fn attacked_set(b: &Board, attacker: Color) -> Bb {
    struct Union(Bb);
    impl ActionSink for Union {
        #[inline(always)]
        fn push(&mut self, a: Action) {
            self.0 |= a.captures;
        }
        #[inline(always)]
        fn captures_only(&self) -> bool {
            true
        }
    }
    let mut u = Union(0);
    generate(b, attacker, &mut u);
    u.0 & b.color_bb(!attacker)
}
