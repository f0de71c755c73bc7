//! Every tunable number of the orthodox chess evaluation, declared once.
//!
//! All values are centipawns (a pawn in the middlegame is about 85), given as a
//! [`S`] pair (middlegame, endgame) that the evaluation blends by game phase, except the king
//! danger weights, which are abstract "attack units" turned into centipawns by a quadratic
//! (see [`EvalParams::king_danger_div`]).
//!
//! The tuner (`menagerie-tuning`) sees the table as a flat list of named `i32`s through
//! [`EvalParams::visit_mut`], [`EvalParams::values`] and [`EvalParams::set_values`]; the engine
//! reads the fields directly from [`DEFAULT`].
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

/// The full parameter set of the orthodox chess evaluation. Arrays indexed by piece kind use
/// [`crate::variants::chess::Kind::index`] (pawn 0 .. king 5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Material value per piece kind (the King's is 0).
    pub material: [S; 6],
    /// Piece-square tables per kind, indexed by square from White's side (a1 = 0).
    pub psqt: [[S; 64]; 6],
    /// Bonus per safe reachable square above/below the kind's typical count
    /// ([`MOBILITY_CENTER`]); used for knight, bishop, rook and queen.
    pub mobility: [S; 6],
    /// Penalty for a pawn with an own pawn in front of it on its file.
    pub doubled: S,
    /// Penalty for a pawn with no own pawn on an adjacent file.
    pub isolated: S,
    /// Penalty for a pawn that no own pawn can protect when it advances and whose stop square
    /// an enemy pawn attacks.
    pub backward: S,
    /// Bonus for a pawn defended by an own pawn or standing next to one (phalanx), by
    /// relative rank (index 0 = rank 1).
    pub connected: [S; 8],
    /// Knight on an outpost: relative rank 4-6, defended by an own pawn, out of reach of
    /// every enemy pawn.
    pub outpost_knight: S,
    /// Bishop on an outpost (as for the knight).
    pub outpost_bishop: S,
    /// Passed pawn bonus by relative rank (index 0 = rank 1 .. 7 = rank 8).
    pub passed: [S; 8],
    /// Per square of distance from the own King to the passer's stop square, multiplied by
    /// the passer's rank weight (relative rank minus 2, at least 0).
    pub passed_own_king: S,
    /// Per square of distance from the enemy King to the passer's stop square, multiplied by
    /// the passer's rank weight.
    pub passed_enemy_king: S,
    /// King danger units contributed by each enemy piece (by kind) attacking the King zone.
    pub king_attacker_weight: [i32; 6],
    /// King danger units per King-zone square attacked by enemy pieces (counted per piece).
    pub king_zone_square: i32,
    /// Percentage of the danger units kept, by number of attacking pieces (7+ uses index 7).
    pub king_attackers_scale: [i32; 8],
    /// Middlegame penalty = min(units^2 / `king_danger_div`, `king_danger_max`) (centipawns),
    /// endgame = units / 16.
    pub king_danger_div: i32,
    /// Cap of the middlegame King-danger penalty (centipawns).
    pub king_danger_max: i32,
    /// King shelter: own pawn one rank in front of the King (on the King's file or next to it).
    pub shield_close: S,
    /// King shelter: own pawn two ranks in front.
    pub shield_far: S,
    /// King shelter: no own pawn at all in front of the King on such a file.
    pub shield_missing: S,
    /// Bonus for having two or more bishops.
    pub bishop_pair: S,
    /// Rook on a file without pawns.
    pub rook_open: S,
    /// Rook on a file without own pawns but with enemy pawns.
    pub rook_semi_open: S,
    /// Bonus for the side to move.
    pub tempo: S,
    /// Per enemy piece (not pawn or King) attacked by one of our pawns.
    pub threat_by_pawn: S,
    /// Per enemy rook or queen attacked by one of our knights or bishops.
    pub threat_by_minor: S,
    /// Endgame scale (out of 64) when the side ahead has no pawns and at most
    /// [`EvalParams::pawnless_margin`] more piece material (KR v KB, KB v K...).
    pub scale_pawnless: i32,
    /// Piece-material lead (middlegame values, centipawns) up to which a pawnless side is
    /// scaled down by [`EvalParams::scale_pawnless`].
    pub pawnless_margin: i32,
    /// Endgame scale (out of 64) with one bishop each on opposite colours and no other pieces.
    pub scale_opposite_bishops: i32,
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
     55,  65,  50,  60,  60,  50,  65,  55,
     12,  18,  28,  32,  32,  28,  18,  12,
      0,   4,  10,  22,  22,  10,   4,   0,
     -6,   0,   6,  18,  18,   4,   0,  -6,
     -6,  -2,   2,   4,   4,  -2,  -2,  -6,
     -8,  -2,  -4, -14, -14,   6,   8,  -6,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     70,  66,  60,  55,  55,  60,  66,  70,
     36,  34,  28,  24,  24,  28,  34,  36,
     16,  12,   8,   4,   4,   8,  12,  16,
      6,   4,   0,  -3,  -3,   0,   4,   6,
      2,   2,  -2,   0,   0,  -2,   2,   2,
      4,   4,   2,   6,   6,   2,   4,   4,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -95, -40, -30, -28, -28, -30, -40, -95,
    -40, -20,   5,   2,   2,   5, -20, -40,
    -25,  10,  20,  30,  30,  20,  10, -25,
    -15,   5,  15,  25,  25,  15,   5, -15,
    -20,   0,  10,  15,  15,  10,   0, -20,
    -25,  -5,   8,  10,  10,   8,  -5, -25,
    -35, -20,  -5,   0,   0,  -5, -20, -35,
    -70, -28, -25, -20, -20, -25, -28, -70,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -60, -40, -30, -25, -25, -30, -40, -60,
    -35, -15,  -5,   0,   0,  -5, -15, -35,
    -25,  -5,  10,  12,  12,  10,  -5, -25,
    -20,   0,  15,  20,  20,  15,   0, -20,
    -20,   0,  12,  18,  18,  12,   0, -20,
    -25,  -5,   5,  12,  12,   5,  -5, -25,
    -35, -20,  -8,  -3,  -3,  -8, -20, -35,
    -55, -40, -25, -20, -20, -25, -40, -55,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -25, -10, -15, -20, -20, -15, -10, -25,
    -20,   5,   0,  -5,  -5,   0,   5, -20,
    -10,  10,  15,  12,  12,  15,  10, -10,
     -5,   5,  10,  20,  20,  10,   5,  -5,
     -5,   8,  10,  18,  18,  10,   8,  -5,
      0,  12,  12,  10,  10,  12,  12,   0,
      2,  15,  10,   5,   5,  10,  15,   2,
    -20,  -5, -10, -12, -12, -10,  -5, -20,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
    -10,  -3,   0,   0,   0,   0,  -3, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
     -5,   2,   8,  10,  10,   8,   2,  -5,
     -5,   2,   8,  10,  10,   8,   2,  -5,
     -8,   0,   5,   6,   6,   5,   0,  -8,
    -12,  -5,  -2,   0,   0,  -2,  -5, -12,
    -18, -10, -10,  -6,  -6, -10, -10, -18,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
     15,  18,  15,  20,  20,  15,  18,  15,
     25,  30,  35,  38,  38,  35,  30,  25,
      0,  10,  10,  12,  12,  10,  10,   0,
    -10,  -5,   0,   5,   5,   0,  -5, -10,
    -20, -10,  -5,   0,   0,  -5, -10, -20,
    -25, -12,  -8,  -5,  -5,  -8, -12, -25,
    -30, -15, -10,  -5,  -5, -10, -15, -30,
    -15,  -8,   0,  10,  10,   5,  -8, -15,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
     10,  10,  12,  10,  10,  12,  10,  10,
     12,  14,  14,  12,  12,  14,  14,  12,
      6,   6,   6,   6,   6,   6,   6,   6,
      4,   4,   6,   4,   4,   6,   4,   4,
      2,   2,   4,   2,   2,   4,   2,   2,
     -4,  -2,  -2,  -2,  -2,  -2,  -2,  -4,
     -8,  -6,  -4,  -4,  -4,  -4,  -6,  -8,
     -8,  -4,   0,   0,   0,   0,  -4,  -8,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -25, -10,  -5,   0,   0,  -5, -10, -25,
    -20, -30,  -5,   0,   0,  -5, -30, -20,
    -10,  -5,   5,   8,   8,   5,  -5, -10,
    -10, -10,   0,   5,   5,   0, -10, -10,
     -8,  -8,   0,   2,   2,   0,  -8,  -8,
    -10,   0,   2,   0,   0,   2,   0, -10,
    -20,  -5,   5,   5,   5,   5,  -5, -20,
    -25, -20, -15,   0, -10, -15, -20, -25,
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
     10,  10, -10, -25, -25, -15,  10,  10,
     15,  35,  20, -15,   0, -10,  35,  20,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -60, -35, -25, -20, -20, -25, -35, -60,
    -30, -10,   0,   5,   5,   0, -10, -30,
    -20,   5,  15,  20,  20,  15,   5, -20,
    -20,   5,  20,  28,  28,  20,   5, -20,
    -25,   0,  15,  25,  25,  15,   0, -25,
    -30,  -8,   5,  12,  12,   5,  -8, -30,
    -40, -20, -10,  -5,  -5, -10, -20, -40,
    -60, -40, -30, -25, -25, -30, -40, -60,
];

/// The engine's parameter values (hand-set, PeSTO-like magnitudes; not yet tuned).
pub const DEFAULT: EvalParams = EvalParams {
    material: [
        s(85, 105),
        s(330, 300),
        s(345, 320),
        s(470, 540),
        s(1000, 960),
        s(0, 0),
    ],
    psqt: [
        table(PAWN_MG, PAWN_EG),
        table(KNIGHT_MG, KNIGHT_EG),
        table(BISHOP_MG, BISHOP_EG),
        table(ROOK_MG, ROOK_EG),
        table(QUEEN_MG, QUEEN_EG),
        table(KING_MG, KING_EG),
    ],
    mobility: [s(0, 0), s(6, 5), s(5, 6), s(3, 7), s(2, 4), s(0, 0)],
    doubled: s(-10, -24),
    isolated: s(-12, -14),
    backward: s(-8, -10),
    connected: [
        s(0, 0),
        s(3, 1),
        s(5, 3),
        s(8, 6),
        s(15, 14),
        s(28, 28),
        s(45, 45),
        s(0, 0),
    ],
    outpost_knight: s(24, 12),
    outpost_bishop: s(12, 6),
    passed: [
        s(0, 0),
        s(2, 8),
        s(4, 12),
        s(10, 24),
        s(25, 45),
        s(55, 95),
        s(95, 150),
        s(0, 0),
    ],
    passed_own_king: s(0, -3),
    passed_enemy_king: s(0, 6),
    king_attacker_weight: [0, 20, 20, 40, 80, 0],
    king_zone_square: 6,
    king_attackers_scale: [0, 0, 50, 75, 88, 94, 97, 99],
    king_danger_div: 48,
    king_danger_max: 800,
    shield_close: s(12, 0),
    shield_far: s(6, 0),
    shield_missing: s(-18, 0),
    bishop_pair: s(30, 55),
    rook_open: s(40, 15),
    rook_semi_open: s(18, 10),
    tempo: s(18, 8),
    threat_by_pawn: s(48, 30),
    threat_by_minor: s(30, 20),
    scale_pawnless: 8,
    pawnless_margin: 350,
    scale_opposite_bishops: 32,
};

/// [`DEFAULT`] as a static, so the hot path reads one fixed address.
pub static DEFAULT_PARAMS: EvalParams = DEFAULT;

const KIND_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

impl EvalParams {
    /// Calls `f(name, value)` for every tunable `i32`, in a fixed order. Names look like
    /// `material.knight.mg`, `psqt.rook.e4.eg`, `passed.6.eg`, `king_zone_square`.
    pub fn visit_mut(&mut self, mut f: impl FnMut(&str, &mut i32)) {
        let pair = |name: &str, v: &mut S, f: &mut dyn FnMut(&str, &mut i32)| {
            f(&format!("{name}.mg"), &mut v.mg);
            f(&format!("{name}.eg"), &mut v.eg);
        };
        for (k, v) in self.material.iter_mut().enumerate().take(5) {
            pair(&format!("material.{}", KIND_NAMES[k]), v, &mut f);
        }
        for (k, t) in self.psqt.iter_mut().enumerate() {
            for (sq, v) in t.iter_mut().enumerate() {
                let name = format!(
                    "psqt.{}.{}{}",
                    KIND_NAMES[k],
                    (b'a' + (sq % 8) as u8) as char,
                    sq / 8 + 1
                );
                pair(&name, v, &mut f);
            }
        }
        for (k, v) in self.mobility.iter_mut().enumerate().take(5).skip(1) {
            pair(&format!("mobility.{}", KIND_NAMES[k]), v, &mut f);
        }
        pair("doubled", &mut self.doubled, &mut f);
        pair("isolated", &mut self.isolated, &mut f);
        pair("backward", &mut self.backward, &mut f);
        for (r, v) in self.connected.iter_mut().enumerate().take(7).skip(1) {
            pair(&format!("connected.{r}"), v, &mut f);
        }
        pair("outpost_knight", &mut self.outpost_knight, &mut f);
        pair("outpost_bishop", &mut self.outpost_bishop, &mut f);
        for (r, v) in self.passed.iter_mut().enumerate().take(7).skip(1) {
            pair(&format!("passed.{r}"), v, &mut f);
        }
        pair("passed_own_king", &mut self.passed_own_king, &mut f);
        pair("passed_enemy_king", &mut self.passed_enemy_king, &mut f);
        for (k, v) in self
            .king_attacker_weight
            .iter_mut()
            .enumerate()
            .take(5)
            .skip(1)
        {
            f(&format!("king_attacker_weight.{}", KIND_NAMES[k]), v);
        }
        f("king_zone_square", &mut self.king_zone_square);
        for (n, v) in self.king_attackers_scale.iter_mut().enumerate() {
            f(&format!("king_attackers_scale.{n}"), v);
        }
        f("king_danger_div", &mut self.king_danger_div);
        f("king_danger_max", &mut self.king_danger_max);
        pair("shield_close", &mut self.shield_close, &mut f);
        pair("shield_far", &mut self.shield_far, &mut f);
        pair("shield_missing", &mut self.shield_missing, &mut f);
        pair("bishop_pair", &mut self.bishop_pair, &mut f);
        pair("rook_open", &mut self.rook_open, &mut f);
        pair("rook_semi_open", &mut self.rook_semi_open, &mut f);
        pair("tempo", &mut self.tempo, &mut f);
        pair("threat_by_pawn", &mut self.threat_by_pawn, &mut f);
        pair("threat_by_minor", &mut self.threat_by_minor, &mut f);
        f("scale_pawnless", &mut self.scale_pawnless);
        f("pawnless_margin", &mut self.pawnless_margin);
        f("scale_opposite_bishops", &mut self.scale_opposite_bishops);
    }

    /// The names of every tunable parameter, in [`EvalParams::visit_mut`] order.
    pub fn names(&self) -> Vec<String> {
        let mut copy = self.clone();
        let mut out = Vec::new();
        copy.visit_mut(|n, _| out.push(n.to_string()));
        out
    }

    /// Every tunable value (centipawns or danger units), in [`EvalParams::visit_mut`] order.
    pub fn values(&self) -> Vec<i32> {
        let mut copy = self.clone();
        let mut out = Vec::new();
        copy.visit_mut(|_, v| out.push(*v));
        out
    }

    /// Overwrites every tunable value from `values` (same order and length as
    /// [`EvalParams::values`]).
    ///
    /// # Panics
    /// When `values` has the wrong length.
    pub fn set_values(&mut self, values: &[i32]) {
        let mut i = 0;
        self.visit_mut(|_, v| {
            *v = values[i];
            i += 1;
        });
        assert_eq!(i, values.len(), "parameter vector length mismatch");
    }

    /// Number of tunable values.
    pub fn count(&self) -> usize {
        self.values().len()
    }
}
