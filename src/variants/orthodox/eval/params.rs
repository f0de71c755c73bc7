//! Every tunable number of the orthodox chess evaluation, declared once.
//!
//! All values are centipawns (a pawn in the middlegame is about 90), given as a
//! [`S`] pair (middlegame, endgame) that the evaluation blends by game phase, except the king
//! danger weights, which are abstract "attack units" turned into centipawns by a quadratic
//! (see [`EvalParams::king_danger_div`]).
//!
//! The set is declared once with [`crate::tunables!`] (name, default, range, step): the tuner
//! (`menagerie-tuning`) sees it as a flat list of named scalars through
//! [`crate::core::tunables::Tunables`] (`material[1].mg`, `psqt[5][6].eg`, `tempo.mg`); the
//! engine reads the fields directly from [`DEFAULT_PARAMS`].
//!
//! Piece-square tables are written as a board diagram seen from White (rank 8 on the first row,
//! a-file on the left) and stored indexed by square from White's side (a1 = 0); Black uses the
//! vertically mirrored square (`sq ^ 56`).

/// A middlegame/endgame pair of centipawn values.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S {
    /// Middlegame value (centipawns).
    pub mg: i32,
    /// Endgame value (centipawns).
    pub eg: i32,
}

/// Shorthand constructor of an [`S`] pair.
#[inline(always)]
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl std::ops::Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl std::ops::AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl std::ops::Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl std::ops::SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

impl std::ops::Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        s(-self.mg, -self.eg)
    }
}

impl std::ops::Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        s(self.mg * k, self.eg * k)
    }
}

/// Typical number of safe squares per kind, subtracted before the mobility weight applies
/// (so mobility is centred near zero and material values keep their meaning).
pub const MOBILITY_CENTER: [i32; 6] = [0, 4, 6, 6, 12, 0];

/// Phase weight per kind: 24 at the start position (N, B = 1, R = 2, Q = 4), 0 with pawns only.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The phase of the start position (middlegame end of the taper).
pub const PHASE_MAX: i32 = 24;

/// Builds a piece-square table from two board diagrams (rank 8 first) into a1-indexed pairs.
const fn table(mg: [i32; 64], eg: [i32; 64]) -> [S; 64] {
    let mut out = [s(0, 0); 64];
    let mut i = 0;
    while i < 64 {
        // Diagram index i is rank 8 - i/8, file i%8; a1-indexed square is i ^ 56.
        out[i ^ 56] = s(mg[i], eg[i]);
        i += 1;
    }
    out
}

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     55,  65,  50,  60,  60,  50,  65,  54,
     10,  18,  28,  33,  32,  32,  22,  11,
     -8,  -2,   6,  22,  11,  17,  -1,  -1,
     -1,  -7,  10,  17,  15,   3,  -1,   0,
     -5,  -2,  -8,  -2,  -1,  -7,  10,  -3,
     -9,   8,  -3, -13, -10,  11,  16,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     66,  66,  64,  55,  55,  60,  66,  64,
     32,  34,  28,  24,  24,  32,  38,  30,
     14,   9,  12,  -2,   2,   9,   8,  24,
      6,   7,  -6,  -5,   0,   1,   8,  11,
      2,   6,  -6,   0,  -3,  -5,   4,   0,
      7,   5,  11,   6,   6,   5,  11,   9,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -95, -40, -30, -28, -28, -30, -40, -95,
    -40, -20,   5,   2,   2,   5, -20, -40,
    -25,  10,  20,  30,  30,  20,  10, -25,
    -15,   9,  15,  25,  28,  15,   8, -15,
    -16,   0,   9,  20,  21,  10,   0, -16,
    -22,  -3,   3,  10,  14,   9,  -1, -29,
    -35, -20,  -5,  -4,   0,  -5, -20, -35,
    -70, -26, -25, -20, -20, -25, -30, -70,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -60, -40, -30, -25, -25, -30, -40, -60,
    -35, -15,  -5,   0,   0,  -5, -15, -35,
    -25,  -5,  10,  12,  12,  10,  -5, -25,
    -20,   1,  15,  20,  24,  15,   1, -20,
    -20,   0,  12,  18,  18,  12,   0, -20,
    -25,  -5,   2,  12,  12,   7,  -5, -25,
    -35, -20,  -8,  -3,  -2,  -8, -20, -35,
    -55, -40, -25, -20, -20, -25, -40, -55,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -25, -10, -15, -20, -20, -15, -10, -25,
    -20,   5,   0,  -5,  -5,   0,   5, -20,
    -10,  10,  15,  12,  12,  15,  10, -10,
     -5,   5,  10,  20,  20,  10,   9,  -9,
     -5,  12,  16,  18,  18,   7,   6,  -5,
      4,  16,  12,  12,  13,   8,  12,   3,
      2,  17,  10,   2,   5,  10,  24,   2,
    -20,  -5,  -6, -12, -12, -14,  -5, -20,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
    -10,  -3,   0,   0,   0,   0,  -3, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
     -5,   6,   8,  10,  10,   8,   2,  -5,
     -1,   4,  11,  10,  10,   8,   1,  -5,
     -7,   0,   5,   6,   6,   5,   0,  -8,
    -12,  -9,  -2,   0,   1,  -2,  -1, -12,
    -18, -10, -10,  -6,  -6, -11, -10, -18,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
     15,  18,  15,  20,  20,  15,  18,  15,
     25,  30,  35,  38,  38,  35,  30,  25,
      2,  10,  10,  12,  12,  10,  10,   0,
    -10,  -5,   0,   5,   5,   0,  -5, -10,
    -20, -10,  -5,   0,   0,  -5, -10, -24,
    -25, -12,  -9,  -4,  -5,  -9, -14, -25,
    -30, -15, -10,  -5,  -5, -10, -15, -32,
    -15,  -4,  -2,  16,   7,  11, -10,  -7,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
     10,  10,  12,  10,  10,  12,  10,  10,
     13,  14,  14,  12,  12,  14,  14,  12,
     10,  10,   7,   7,   6,   7,   6,   6,
      6,   5,   6,   4,   4,   6,   4,   4,
      2,   2,   4,   2,   2,   4,   2,   2,
     -4,  -2,  -2,  -2,  -2,  -2,  -2,  -4,
     -8,  -6,  -4,  -4,  -4,  -4,  -6,  -8,
     -6,  -4,   0,   0,  -2,   0,  -4,  -8,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -25, -10,  -5,   0,   0,  -5, -10, -25,
    -20, -30,  -5,   0,   0,  -5, -30, -20,
    -10,  -5,   5,   8,   8,   5,  -5,  -8,
    -10, -10,   0,   5,   5,   0, -10,  -5,
     -4,  -8,   0,   2,   2,   0,  -8,  -8,
    -10,  -4,   1,  -2,   0,   1,   4, -10,
    -20,  -5,   4,   5,   5,   5,  -5, -20,
    -25, -20, -19,  -6, -10, -15, -20, -25,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
    -15,   5,  10,  15,  15,  10,   5, -15,
    -10,  10,  20,  25,  25,  20,  10, -10,
     -5,  10,  20,  30,  30,  20,  10,  -5,
      0,  15,  20,  30,  30,  20,  15,   0,
     -5,  10,  15,  25,  25,  15,  10,  -5,
    -10,   0,  10,  10,  10,  10,   0, -10,
    -20, -15, -10, -10, -10, -10, -15, -20,
    -30, -25, -20, -20, -20, -20, -25, -30,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -60, -60, -60, -70, -70, -60, -60, -60,
    -50, -50, -55, -65, -65, -55, -50, -50,
    -40, -45, -50, -60, -60, -50, -45, -40,
    -35, -40, -45, -55, -55, -45, -40, -35,
    -30, -35, -40, -50, -50, -40, -35, -30,
    -20, -25, -30, -40, -40, -30, -25, -20,
     10,  10, -10, -25, -25, -13,  10,  10,
     15,  35,  24, -16,   3, -14,  33,  19,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -60, -35, -25, -20, -20, -25, -35, -60,
    -30, -10,   0,   5,   5,   0, -10, -30,
    -20,   5,  15,  20,  20,  15,   6, -20,
    -20,   5,  20,  28,  28,  20,   5, -20,
    -25,   0,  15,  23,  23,  15,  -1, -25,
    -30,  -8,   5,  10,  10,   5,  -6, -28,
    -40, -20, -11,  -6,  -5,  -9, -20, -38,
    -56, -40, -30, -25, -26, -34, -41, -60,
];

// The engine's parameter values: hand-set, PeSTO-like magnitudes, then Texel-tuned on 367,219
// positions of 8000-node self-play (`menagerie-tuning texel --lambda 0.5 --l2 0.0000002`; the
// README's "Tuning" section; the threat, safe-check and passed-path terms were tuned with the
// rest on the same data).
crate::tunables! {
    /// The full parameter set of the orthodox chess evaluation. Arrays indexed by piece kind use
    /// [`crate::variants::orthodox::Kind::index`] (pawn 0 .. king 5).
    #[derive(Eq)]
    pub struct EvalParams, default DEFAULT {
        /// Material value per piece kind (the King's is 0).
        material: [S; 6] = [s(95, 127), s(350, 315), s(368, 339), s(480, 562), s(1007, 970), s(0, 0)], (0, 2500, 5);
        /// Piece-square tables per kind, indexed by square from White's side (a1 = 0).
        psqt: [[S; 64]; 6] = [
            table(PAWN_MG, PAWN_EG),
            table(KNIGHT_MG, KNIGHT_EG),
            table(BISHOP_MG, BISHOP_EG),
            table(ROOK_MG, ROOK_EG),
            table(QUEEN_MG, QUEEN_EG),
            table(KING_MG, KING_EG),
        ], (-250, 250, 2);
        /// Bonus per safe reachable square above/below the kind's typical count
        /// ([`MOBILITY_CENTER`]); used for knight, bishop, rook and queen.
        mobility: [S; 6] = [s(0, 0), s(6, 6), s(8, 6), s(5, 8), s(3, 11), s(0, 0)], (-20, 40, 1);
        /// Penalty for a pawn with an own pawn in front of it on its file.
        doubled: S = s(-8, -27), (-100, 50, 2);
        /// Penalty for a pawn with no own pawn on an adjacent file.
        isolated: S = s(-8, -9), (-100, 50, 2);
        /// Penalty for a pawn that no own pawn can protect when it advances and whose stop square
        /// an enemy pawn attacks.
        backward: S = s(-12, -14), (-100, 50, 2);
        /// Bonus for a pawn defended by an own pawn or standing next to one (phalanx), by
        /// relative rank (index 0 = rank 1).
        connected: [S; 8] = [s(0, 0), s(6, 2), s(11, 2), s(7, 6), s(9, 15), s(32, 32), s(45, 49), s(0, 0)], (-50, 150, 2);
        /// Knight on an outpost: relative rank 4-6, defended by an own pawn, out of reach of
        /// every enemy pawn.
        outpost_knight: S = s(25, 11), (-50, 100, 2);
        /// Bishop on an outpost (as for the knight).
        outpost_bishop: S = s(17, 11), (-50, 100, 2);
        /// Passed pawn bonus by relative rank (index 0 = rank 1 .. 7 = rank 8).
        passed: [S; 8] = [s(0, 0), s(8, 14), s(5, 18), s(6, 23), s(24, 54), s(59, 99), s(95, 146), s(0, 0)], (-50, 300, 3);
        /// Per square of distance from the own King to the passer's stop square, multiplied by
        /// the passer's rank weight (relative rank minus 2, at least 0).
        passed_own_king: S = s(3, -7), (-30, 30, 1);
        /// Per square of distance from the enemy King to the passer's stop square, multiplied by
        /// the passer's rank weight.
        passed_enemy_king: S = s(-4, 11), (-30, 30, 1);
        /// King danger units contributed by each enemy piece (by kind) attacking the King zone.
        king_attacker_weight: [i32; 6] = [0, 21, 17, 39, 73, 0], (0, 200, 4);
        /// Per unit of a passed pawn's rank weight: a piece stands on its stop square.
        passed_blocked: S = s(-3, -5), (-60, 60, 1);
        /// Per unit of a passed pawn's rank weight: no enemy piece on and no enemy attack of
        /// any square from its stop square to promotion.
        passed_free_path: S = s(9, 27), (-60, 150, 1);
        /// Per unit of a passed pawn's rank weight: the stop square is empty and not attacked by
        /// the enemy, but a square further on is.
        passed_safe_stop: S = s(4, 12), (-60, 150, 1);
        /// King danger units per King-zone square attacked by enemy pieces (counted per piece).
        king_zone_square: i32 = 4, (0, 40, 1);
        /// King danger units when one of our pieces of a kind (knight 1 .. queen 4) could give
        /// a safe check: from a square not holding one of ours and not defended by the enemy
        /// (or defended once, by King or Queen, and attacked twice by us). Added after the
        /// attacker scale.
        king_safe_check: [i32; 5] = [0, 55, 33, 69, 49], (0, 300, 4);
        /// Percentage of the danger units kept, by number of attacking pieces (7+ uses index 7).
        king_attackers_scale: [i32; 8] = [0, 5, 50, 66, 88, 94, 97, 99], (0, 100, 3);
        /// Middlegame penalty = min(units^2 / `king_danger_div`, `king_danger_max`) (centipawns),
        /// endgame = units / 16.
        king_danger_div: i32 = 70, (8, 200, 2);
        /// Cap of the middlegame King-danger penalty (centipawns).
        king_danger_max: i32 = 800, (0, 2000, 20);
        /// King shelter: own pawn one rank in front of the King (on the King's file or next to it).
        shield_close: S = s(13, -1), (-60, 60, 2);
        /// King shelter: own pawn two ranks in front.
        shield_far: S = s(4, -1), (-60, 60, 2);
        /// King shelter: no own pawn at all in front of the King on such a file.
        shield_missing: S = s(-17, 6), (-60, 60, 2);
        /// Bonus for having two or more bishops.
        bishop_pair: S = s(44, 64), (0, 120, 2);
        /// Rook on a file without pawns.
        rook_open: S = s(37, 12), (-20, 100, 2);
        /// Rook on a file without own pawns but with enemy pawns.
        rook_semi_open: S = s(14, 18), (-20, 100, 2);
        /// Bonus for the side to move.
        tempo: S = s(23, 12), (0, 60, 1);
        /// Per enemy piece (not pawn or King) attacked by one of our pawns.
        threat_by_pawn: S = s(48, 30), (0, 150, 2);
        /// Per enemy pawn or piece, by kind (pawn 0 .. queen 4), attacked by one of our knights
        /// or bishops: pieces when not weak too, pawns only when weak (attacked and not
        /// strongly protected: by a pawn, or by two when we attack fewer than twice).
        threat_by_minor: [S; 5] = [s(3, 20), s(22, 22), s(38, 28), s(34, 20), s(32, 20)], (-50, 200, 2);
        /// Per weak enemy pawn or piece, by kind, attacked by one of our rooks.
        threat_by_rook: [S; 5] = [s(2, 28), s(22, 33), s(26, 28), s(0, 20), s(40, 21)], (-50, 200, 2);
        /// When our King attacks a weak enemy pawn or piece.
        threat_by_king: S = s(17, 41), (-50, 150, 2);
        /// Per weak enemy pawn or piece that is undefended, or a piece we attack twice.
        hanging: S = s(31, 17), (-50, 150, 2);
        /// Per square attacked by the enemy, not strongly protected by them, and attacked by us.
        restricted: S = s(3, -4), (-20, 40, 1);
        /// Per enemy piece attacked from a square one of our pawns can safely advance to.
        threat_by_push: S = s(19, 16), (-50, 150, 2);
        /// Endgame scale (out of 64) when the side ahead has no pawns and at most
        /// [`EvalParams::pawnless_margin`] more piece material (KR v KB, KB v K...).
        scale_pawnless: i32 = 8, (0, 64, 1);
        /// Piece-material lead (middlegame values, centipawns) up to which a pawnless side is
        /// scaled down by [`EvalParams::scale_pawnless`].
        pawnless_margin: i32 = 370, (0, 1000, 10);
        /// Endgame scale (out of 64) with one bishop each on opposite colours and no other pieces.
        scale_opposite_bishops: i32 = 28, (0, 64, 1);
        /// Weight of the network's residual ([`crate::variants::chess::network`]),
        /// permille: in builds with the `nnue` feature chess adds `net * net_permille / 1000`
        /// to the hand-written score (0: the hand-written evaluation alone; without the
        /// feature there is no residual). The other variants on the orthodox board do not
        /// read it.
        net_permille: i32 = 1000, (0, 2000, 20);
    }
}

/// [`DEFAULT`] as a static, so the hot path reads one fixed address.
pub static DEFAULT_PARAMS: EvalParams = DEFAULT;

impl crate::core::tunables::TunableValue for S {
    const LEN: usize = 2;

    #[inline]
    fn get_at(&self, i: usize) -> i64 {
        match i {
            0 => self.mg as i64,
            1 => self.eg as i64,
            _ => 0,
        }
    }

    #[inline]
    fn set_at(&mut self, i: usize, v: i64) {
        let v = v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        match i {
            0 => self.mg = v,
            1 => self.eg = v,
            _ => {}
        }
    }

    fn write_suffix(i: usize, out: &mut String) {
        out.push_str(if i == 0 { ".mg" } else { ".eg" });
    }

    fn write_rust(&self, out: &mut String) {
        out.push_str(&format!("s({}, {})", self.mg, self.eg));
    }
}
