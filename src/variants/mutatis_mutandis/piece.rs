//! Piece states and their FEN codes (rules/mutatis-mutandis.md 2).
//!
//! Every piece is in one [`State`]; the state names its family too (codes are unique). The
//! rules' table has 22 families and 49 codes (the issue text says 45 states: the table is the
//! authority, see the closing note).

use std::fmt;

use crate::core::Color;

macro_rules! states {
    ($( $v:ident = $code:literal, $fam:literal, $doc:literal; )*) => {
        /// A piece state: one code of rules/mutatis-mutandis.md 2 (the morph cycle of each
        /// family is [`State::next`]). `repr(u8)`: the discriminant indexes per-state tables.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum State {
            $( #[doc = $doc] $v, )*
        }

        impl State {
            /// Every state, in the order of the rules table (family 1 first).
            pub const ALL: [State; STATE_COUNT] = [ $( State::$v, )* ];

            /// The upper-case code of rules section 2 (`K`, `SS`, `N11`).
            pub const fn code(self) -> &'static str {
                match self { $( State::$v => $code, )* }
            }

            /// The family number of rules section 2 (1..=22).
            pub const fn family(self) -> u8 {
                match self { $( State::$v => $fam, )* }
            }
        }
    };
}

/// Number of piece states (codes of rules section 2).
pub const STATE_COUNT: usize = 49;

states! {
    King = "K", 1, "King: one step any direction; royal.";
    Maoking = "MK", 1, "Maoking: non-capturing King step, or converts an adjacent enemy [D 8]; royal.";
    Queen = "Q", 2, "Queen: rook + bishop rider.";
    Sissa = "SS", 2, "Sissa: n orthogonal then n diagonal steps or vice versa, never jumping.";
    Amazon = "AM", 3, "Amazon: queen + knight.";
    Squeen = "SQ", 3, "Squeen: queen + Sissa.";
    Unicorn = "AR", 4, "Archbishoprider (Unicorn): bishop + nightrider.";
    Dragon = "DR", 4, "Dragon (Paulowich): rook + spotted gryphon.";
    Nightrider = "NR", 5, "Nightrider: repeated knight leaps in one direction.";
    Rose = "RO", 5, "Rose: circular nightrider.";
    Chancellor = "C", 6, "Chancellor: rook + knight.";
    Archbishop = "A", 6, "Archbishop: bishop + knight.";
    DancingHorse = "DA", 7, "Dancing Horse: one or two knight leaps.";
    Octopus = "OC", 7, "Octopus: crooked rook + crooked bishop [D 10].";
    DragonKing = "DK", 8, "Dragon King: rook + ferz.";
    DragonHorse = "DH", 8, "Dragon Horse: bishop + wazir.";
    Knight = "N", 9, "Knight.";
    KnightGuard = "NG", 9, "Knight-Guard: knight + king step.";
    Gryphon = "GR", 10, "Gryphon: ferz step then outward rook slide.";
    Aanca = "AA", 10, "Aanca: wazir step then outward bishop slide.";
    CrookedRook = "CR", 11, "Crooked Rook: zigzag of orthogonal steps.";
    CrookedBishop = "CB", 11, "Crooked Bishop (Boyscout): zigzag of diagonal steps.";
    Rook = "R", 12, "Rook.";
    CylindricalBishop = "CY", 12, "Cylindrical Bishop: bishop wrapping from file a to h.";
    KnightWazir = "NW", 13, "Knight + wazir.";
    KnightFerz = "NF", 13, "Knight + ferz.";
    Paovao = "PV", 14, "Paovao: rook/bishop moves, cannon (orthogonal) and vao (diagonal) captures.";
    CannonPawn = "CP", 14, "Cannon Pawn: king step or a jump over an adjacent piece.";
    Chameleon = "CH", 15, "Chameleon: queen moves, captures by mimicry (7.2).";
    Swapper = "SW", 15, "Swapper: queen moves, swaps, mutual destruction.";
    LongLeaper = "LL", 16, "Long Leaper: captures by leaping over enemy pieces.";
    Archer = "AC", 16, "Archer: queen moves, captures by shooting.";
    Withdrawer = "WI", 17, "Withdrawer: captures by withdrawing.";
    Advancer = "AD", 17, "Advancer: captures by approach.";
    Immobilizer = "IM", 18, "Immobilizer: queen moves, freezes adjacent enemies, never captures.";
    Shield = "SH", 18, "Shield: queen moves, makes adjacent friends immune, never captures.";
    Mamra = "MA", 19, "Mamra: non-royal king step, capturable only by pawns.";
    Wuss = "WU", 19, "Wuss: non-capturing queen; royal.";
    HydraKnight = "HN", 20, "Hydra in its knight state.";
    Nn11 = "N11", 20, "Hydra: diagonal-wide crooked nightrider NN11.";
    Nn02 = "N02", 20, "Hydra: straight-wide crooked nightrider NN02.";
    Nn31 = "N31", 20, "Hydra: Quintessence NN31.";
    Nn33 = "N33", 20, "Hydra: diagonal-narrow crooked nightrider NN33.";
    Nn04 = "N04", 20, "Hydra: straight-narrow crooked nightrider NN04.";
    Oxybeles = "OX", 21, "Oxybeles: non-capturing king step that slings the piece behind.";
    Secutor = "SE", 21, "Secutor: rook moves, collide-and-deviate captures.";
    Pawn = "P", 22, "Pawn.";
    BerolinaPawn = "BP", 22, "Berolina Pawn: moves diagonally, captures straight.";
    ScorpionPawn = "SP", 22, "Scorpion Pawn: pawn + non-capturing forward (2,1) leaps.";
}

impl State {
    /// The state as an index into per-state tables (0..[`STATE_COUNT`]).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The state with index `i`, if any.
    #[inline]
    pub fn from_index(i: usize) -> Option<State> {
        State::ALL.get(i).copied()
    }

    /// The state whose code is `code`, case-insensitive (`"sS"`, `"n11"`), if any.
    pub fn from_code(code: &str) -> Option<State> {
        State::ALL
            .iter()
            .copied()
            .find(|s| s.code().eq_ignore_ascii_case(code))
    }

    /// The next state of the family's morph cycle (rules 2): King -> Maoking -> King, the
    /// Hydra's six states in order, Pawn -> Berolina -> Scorpion -> Pawn.
    pub const fn next(self) -> State {
        use State::*;
        match self {
            King => Maoking,
            Maoking => King,
            Queen => Sissa,
            Sissa => Queen,
            Amazon => Squeen,
            Squeen => Amazon,
            Unicorn => Dragon,
            Dragon => Unicorn,
            Nightrider => Rose,
            Rose => Nightrider,
            Chancellor => Archbishop,
            Archbishop => Chancellor,
            DancingHorse => Octopus,
            Octopus => DancingHorse,
            DragonKing => DragonHorse,
            DragonHorse => DragonKing,
            Knight => KnightGuard,
            KnightGuard => Knight,
            Gryphon => Aanca,
            Aanca => Gryphon,
            CrookedRook => CrookedBishop,
            CrookedBishop => CrookedRook,
            Rook => CylindricalBishop,
            CylindricalBishop => Rook,
            KnightWazir => KnightFerz,
            KnightFerz => KnightWazir,
            Paovao => CannonPawn,
            CannonPawn => Paovao,
            Chameleon => Swapper,
            Swapper => Chameleon,
            LongLeaper => Archer,
            Archer => LongLeaper,
            Withdrawer => Advancer,
            Advancer => Withdrawer,
            Immobilizer => Shield,
            Shield => Immobilizer,
            Mamra => Wuss,
            Wuss => Mamra,
            HydraKnight => Nn11,
            Nn11 => Nn02,
            Nn02 => Nn31,
            Nn31 => Nn33,
            Nn33 => Nn04,
            Nn04 => HydraKnight,
            Oxybeles => Secutor,
            Secutor => Oxybeles,
            Pawn => BerolinaPawn,
            BerolinaPawn => ScorpionPawn,
            ScorpionPawn => Pawn,
        }
    }

    /// Royal states (rules 5): King, Maoking, Wuss.
    #[inline(always)]
    pub const fn is_royal(self) -> bool {
        matches!(self, State::King | State::Maoking | State::Wuss)
    }

    /// The pawn-family states that move forward and promote: `P`, `BP`, `SP` (rules 10).
    #[inline(always)]
    pub const fn is_pawn(self) -> bool {
        matches!(
            self,
            State::Pawn | State::BerolinaPawn | State::ScorpionPawn
        )
    }

    /// The states that may capture a Mamra: `P`, `BP`, `SP`, `CP` (rules 6.1 `MA`, [D 14]).
    #[inline(always)]
    pub const fn captures_mamra(self) -> bool {
        self.is_pawn() || matches!(self, State::CannonPawn)
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A piece: a state and an owner.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Current state (rules 2).
    pub state: State,
    /// Owner.
    pub color: Color,
}

impl Piece {
    /// A piece of `color` in `state`.
    pub const fn new(color: Color, state: State) -> Piece {
        Piece { state, color }
    }

    /// The FEN text of the piece (rules 11): bare letter for one-letter codes, else bracketed;
    /// upper case White, lower case Blue. Written into `out` (no allocation).
    pub fn write_fen(self, out: &mut impl fmt::Write) -> fmt::Result {
        let code = self.state.code();
        let bracket = code.len() > 1;
        if bracket {
            out.write_char('[')?;
        }
        for c in code.chars() {
            out.write_char(match self.color {
                Color::White => c,
                Color::Black => c.to_ascii_lowercase(),
            })?;
        }
        if bracket {
            out.write_char(']')?;
        }
        Ok(())
    }

    /// Parses one FEN piece code without brackets (`"K"`, `"n11"`, `"Am"` is rejected: the case
    /// of the letters names the colour and must be uniform). `None` when it is no code.
    pub fn from_code(code: &str) -> Option<Piece> {
        let letters = code.chars().filter(|c| c.is_ascii_alphabetic());
        let upper = letters.clone().all(|c| c.is_ascii_uppercase());
        let lower = letters.clone().all(|c| c.is_ascii_lowercase());
        if upper == lower {
            return None;
        }
        let state = State::from_code(code)?;
        let color = if upper { Color::White } else { Color::Black };
        Some(Piece { state, color })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_fen(f)
    }
}

/// Every state as a GUI shows it (the `variant` command), in the order of [`State::ALL`]:
/// code, name, and movement (Betza where the piece has one; rules 6.1 and 6.2; the state it
/// becomes when it acts, rules 2, last).
pub const PIECE_INFO: [crate::variants::PieceInfo; STATE_COUNT] = {
    use crate::variants::PieceInfo as I;
    const fn i(code: &'static str, name: &'static str, movement: &'static str) -> I {
        I {
            code,
            name,
            movement,
        }
    }
    [
        i("K", "King", "K; royal; cornering (9); becomes MK"),
        i("MK", "Maoking", "mK, or converts an adjacent enemy to its colour without moving (not a royal piece, a Mamra or a shielded piece); royal; never attacks [D 8]; becomes K"),
        i("Q", "Queen", "Q; becomes SS"),
        i("SS", "Sissa", "n orthogonal then n diagonal steps or the reverse, every passed square empty; becomes Q"),
        i("AM", "Amazon", "QN; becomes SQ"),
        i("SQ", "Squeen", "Q + Sissa; becomes AM"),
        i("AR", "Unicorn", "BNN; becomes DR"),
        i("DR", "Dragon", "R + spotted gryphon (F step, then outward dabbabah-rider); becomes AR"),
        i("NR", "Nightrider", "NN; becomes RO"),
        i("RO", "Rose", "circular NN, up to 7 leaps turning 45 degrees one way, never home [D 9]; becomes NR"),
        i("C", "Chancellor", "RN; becomes A"),
        i("A", "Archbishop", "BN; becomes C"),
        i("DA", "Dancing Horse", "N, or N then N from an empty landing (not back), capturing at the end; becomes OC"),
        i("OC", "Octopus", "Crooked Rook + Crooked Bishop [D 10]; becomes DA"),
        i("DK", "Dragon King", "RF; becomes DH"),
        i("DH", "Dragon Horse", "BW; becomes DK"),
        i("N", "Knight", "N; becomes NG"),
        i("NG", "Knight-Guard", "NK; becomes N"),
        i("GR", "Gryphon", "F step, then outward R slide; becomes AA"),
        i("AA", "Aanca", "W step, then outward B slide; becomes GR"),
        i("CR", "Crooked Rook", "zigzag W (v1, v2, v1, ... with v2 perpendicular); becomes CB"),
        i("CB", "Crooked Bishop", "zigzag F; becomes CR"),
        i("R", "Rook", "R; becomes CY"),
        i("CY", "Cylindrical Bishop", "B wrapping between files a and h; becomes R"),
        i("NW", "Knight-Wazir", "NW; becomes NF"),
        i("NF", "Knight-Ferz", "NF; becomes NW"),
        i("PV", "Paovao", "mQ; captures by hopping one screen: cannon on files and ranks, vao on diagonals; becomes CP"),
        i("CP", "Cannon Pawn", "mK, or hops an adjacent piece to the square beyond (capturing an enemy there); may promote (10); becomes PV"),
        i("CH", "Chameleon", "mQ; captures each victim as that victim captures (7.2); becomes SW"),
        i("SW", "Swapper", "mQ; swaps with the first piece on a queen line; mutual destruction with an adjacent enemy; becomes CH"),
        i("LL", "Long Leaper", "mQ; captures by leaping enemies on a queen line, each with an empty square beyond; becomes AC"),
        i("AC", "Archer", "mQ; shoots an enemy on an open queen line without moving: distance 1-2, or farther when spotted; becomes LL"),
        i("WI", "Withdrawer", "mQ; captures the adjacent enemy it moves away from; becomes AD"),
        i("AD", "Advancer", "mQ; captures the enemy just beyond where it stops; becomes WI"),
        i("IM", "Immobilizer", "mQ; freezes adjacent enemies (7.1); never captures; becomes SH"),
        i("SH", "Shield", "mQ; adjacent friends are immune (7.4); never captures; becomes IM"),
        i("MA", "Mamra", "K, not royal; only pawns (P, BP, SP, CP) capture it [D 14]; never moves onto an attacked square, as it becomes a Wuss [D 11]; becomes WU"),
        i("WU", "Wuss", "mQ; royal; never captures; must move when attacked (5); becomes MA"),
        i("HN", "Hydra Knight", "N; becomes N11"),
        i("N11", "Hydra NN11", "crooked nightrider turning 143 degrees; becomes N02"),
        i("N02", "Hydra NN02", "crooked nightrider turning 127 degrees; becomes N31"),
        i("N31", "Hydra Quintessence", "crooked nightrider turning 90 degrees; becomes N33"),
        i("N33", "Hydra NN33", "crooked nightrider turning 37 degrees; becomes N04"),
        i("N04", "Hydra NN04", "crooked nightrider turning 53 degrees; becomes HN"),
        i("OX", "Oxybeles", "mK; slings the piece behind it along the step's line [D 18]; becomes SE"),
        i("SE", "Secutor", "mR; captures by sliding to a screen, then diagonally from the square before it [D 17]; becomes OX"),
        i("P", "Pawn", "mfWcfF, mfnD from its rank 2; en passant; promotes to the last piece of its reserve, or a Queen when the reserve is empty (10); becomes BP"),
        i("BP", "Berolina Pawn", "mfFcfW; promotes (10); becomes SP"),
        i("SP", "Scorpion Pawn", "mfWcfF + mfsN; en passant; promotes (10); becomes P"),
    ]
};
