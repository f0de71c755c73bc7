//! The piece descriptions of the `variant` command (`Notation::PIECES`, docs/protocol.md 8) against
//! the moves the engine generates.
//!
//! For every variant and every piece type, the movement of its description is read: a Betza
//! expression (a small interpreter, `parse_betza`), or for the Mutatis Mutandis pieces Betza
//! does not write (Sissa, Gryphon, Aanca, crooked pieces, Rose, crooked nightriders,
//! Cylindrical Bishop, Dancing Horse, and the parts `Q + Sissa`, `R + spotted gryphon`) a
//! phrase of known words (`Words`); a description the test cannot read fails. The piece then
//! stands alone on an otherwise empty board (plus the Kings a legal position needs, placed
//! where the piece cannot reach them), and the squares it lands on in the legal plies are
//! compared with the squares the description gives. The same is done with one enemy piece on
//! each square in turn (captures, blocked lines), with one friendly piece on each square in
//! turn (blocked lines, lame and jumping leaps), and with an enemy target plus a friendly piece
//! on a square of the path to it (lame captures such as `cnA`). Pieces with a direction (Pawns)
//! are tested from every rank they can stand on, so that rank conditions (`mfnD from its
//! second rank`, Muster's `mfnD and mfnH from its first rank`) are checked as well.
//! `wrong_descriptions_fail` shows that misstated descriptions are caught. The engine's piece
//! diagrams (the `diagram` command) are checked on the same squares: their moves are the legal
//! landings on the empty board, their captures those with one enemy on each square.
//!
//! What counts as the piece's landing: a ply whose first leg starts on the piece's square, after
//! which that square is empty and the leg's destination holds a White piece. Swaps, Archer
//! shots, Maoking conversions, drops and purchases or upgrades in place are therefore not
//! landings. A few pieces' words add captures that one enemy cannot show, and for them only
//! part of the landings is compared (`Scope`): the Paovao's, Chameleon's and Secutor's
//! captures, the Long Leaper's captures, the Cannon Pawn's hops and the Assassin's teleport.
//!
//! The special moves an empty board does not show are in the words, and
//! `special_moves_are_described` checks that each variant's words name them and, where a
//! position shows them, that the engine agrees: castling (chess, Muster's vertical castling,
//! none in Mystic), the promotion choices, Mystic's purchases and upgrades, Mulligan Stew's
//! drops, swaps and pool, Mitosis's splitting and King, and each Mutatis Mutandis state's
//! successor and royalty. The rest of those rules are tested by the variants' own tests:
//! castling in `tests/chess960.rs`, `tests/chess_rules.rs` and `tests/muster.rs`; en passant in
//! those and `tests/mitosis.rs`, `tests/mutatis_pieces.rs`; Mystic's purchases and upgrades in
//! `tests/mystic.rs`; Mitosis's splitting in `tests/mitosis.rs`; Mulligan Stew's Mage swaps and
//! drops and the Assassin's teleport in `tests/mulligan_stew.rs`; the Rococo captures and the
//! other Mutatis Mutandis interactions in `tests/mutatis_pieces.rs` and `tests/mutatis_rules.rs`.

use crate::common;

use std::collections::{BTreeSet, HashMap, HashSet};

use common::game::legal_moves;
use menagerie::variants::chess::Chess;
use menagerie::variants::mitosis::Mitosis;
use menagerie::variants::mulligan_stew::MulliganStew;
use menagerie::variants::muster::Muster;
use menagerie::variants::mutatis_mutandis::MutatisMutandis;
use menagerie::variants::mystic::Mystic;
use menagerie::variants::{Game, Notation, PieceInfo, Rules, Variant};

// ------------------------------------------------------------------------------------------
// Board geometry
// ------------------------------------------------------------------------------------------

/// A cell of the files x ranks box: (file index, row index from the bottom).
type Sq = (i32, i32);

struct Geo {
    files: i32,
    rows: i32,
    first_rank: i32,
    holes: HashSet<Sq>,
    /// Mitosis: ranks 0 and 10 are bases, on which no move ends and through which no line
    /// passes (rules/mitosis.md 1, D1).
    bases: bool,
}

impl Geo {
    fn of<G: Game>() -> Geo {
        let mut g = Geo {
            files: G::INFO.files as i32,
            rows: G::INFO.ranks as i32,
            first_rank: G::INFO.first_rank as i32,
            holes: HashSet::new(),
            bases: G::INFO.name == "mitosis",
        };
        for h in G::INFO.holes {
            let (sq, rest) = g.parse_sq(h).expect("a hole is a square name");
            assert!(rest.is_empty(), "{h}");
            g.holes.insert(sq);
        }
        g
    }

    fn in_box(&self, (f, r): Sq) -> bool {
        (0..self.files).contains(&f) && (0..self.rows).contains(&r)
    }

    /// A square a piece can stand on and move through.
    fn playable(&self, sq: Sq) -> bool {
        self.in_box(sq)
            && !self.holes.contains(&sq)
            && !(self.bases && (sq.1 == 0 || sq.1 == self.rows - 1))
    }

    fn squares(&self) -> Vec<Sq> {
        let mut v = Vec::new();
        for r in 0..self.rows {
            for f in 0..self.files {
                if self.playable((f, r)) {
                    v.push((f, r));
                }
            }
        }
        v
    }

    fn name(&self, (f, r): Sq) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + self.first_rank)
    }

    /// A square name at the start of `s`, and the rest of `s`.
    fn parse_sq<'a>(&self, s: &'a str) -> Option<(Sq, &'a str)> {
        let mut chars = s.char_indices();
        let (_, c) = chars.next()?;
        if !c.is_ascii_lowercase() {
            return None;
        }
        let digits = s[1..].chars().take_while(char::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        let label: i32 = s[1..1 + digits].parse().ok()?;
        let sq = ((c as u8 - b'a') as i32, label - self.first_rank);
        self.in_box(sq).then_some((sq, &s[1 + digits..]))
    }

    /// The owner's rank (White's: the label) of a square.
    fn rank(&self, sq: Sq) -> i32 {
        sq.1 + self.first_rank
    }

    fn names(&self, set: &BTreeSet<Sq>) -> String {
        let mut v: Vec<String> = set.iter().map(|&s| self.name(s)).collect();
        v.sort();
        v.join(" ")
    }
}

fn add((f, r): Sq, (x, y): Sq, k: i32) -> Sq {
    (f + k * x, r + k * y)
}

fn chebyshev(a: Sq, b: Sq) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

fn knight_leap(a: Sq, b: Sq) -> bool {
    let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    (dx, dy) == (1, 2) || (dx, dy) == (2, 1)
}

fn on_queen_line(a: Sq, b: Sq) -> bool {
    let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    a != b && (dx == 0 || dy == 0 || dx == dy)
}

// ------------------------------------------------------------------------------------------
// Betza
// ------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum PathRule {
    /// A leaper: the squares in between do not matter.
    Free,
    /// `n`: every square in between must be empty.
    Lame,
    /// `j`: the squares in between must be occupied.
    Jump,
}

/// One atom with its modifiers: `mfnD` is the step (2, 0), forward, moves only, lame.
#[derive(Clone, Debug)]
struct Atom {
    step: Sq,
    rider: bool,
    moves: bool,
    captures: bool,
    /// Union of groups; each group is an intersection of direction letters (`fs`, `f`).
    dirs: Vec<Vec<char>>,
    path: PathRule,
}

const ATOMS: &str = "WFDNAHCZG";
const COMPOUNDS: &str = "KQRB";
const MODIFIERS: &str = "mcfblrsvnjh";

fn atom_step(c: char) -> Sq {
    match c {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => unreachable!(),
    }
}

/// Whether `s` is written in Betza's alphabet (so is meant as Betza, not words).
fn betza_shaped(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| ATOMS.contains(c) || COMPOUNDS.contains(c) || MODIFIERS.contains(c))
        && s.chars().any(|c| c.is_ascii_uppercase())
}

/// Groups direction letters: `fs` (forward and sideways), `ff` (narrow forward), or one
/// letter alone.
fn direction_groups(letters: &[char]) -> Vec<Vec<char>> {
    let pairs = |a: char, b: char| {
        ("fb".contains(a) && "lrsv".contains(b))
            || (a == b && "fblr".contains(a))
            || ("lr".contains(a) && "fbv".contains(b))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < letters.len() {
        if i + 1 < letters.len() && pairs(letters[i], letters[i + 1]) {
            out.push(vec![letters[i], letters[i + 1]]);
            i += 2;
        } else {
            out.push(vec![letters[i]]);
            i += 1;
        }
    }
    out
}

/// Parses a Betza expression such as `mfWcfF`, `BNN`, `cFcnA`; panics on what the
/// interpreter does not implement, so that a description using it fails loudly.
fn parse_betza(s: &str) -> Vec<Atom> {
    let chars: Vec<char> = s.chars().collect();
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let mut mods = Vec::new();
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            mods.push(chars[i]);
            i += 1;
        }
        assert!(i < chars.len(), "{s}: modifiers without an atom");
        let letter = chars[i];
        i += 1;
        let doubled = i < chars.len() && chars[i] == letter && ATOMS.contains(letter);
        if doubled {
            i += 1;
        }
        let has = |c| mods.contains(&c);
        assert!(!has('h'), "{s}: the test's interpreter has no 'h'");
        let (moves, captures) = match (has('m'), has('c')) {
            (false, false) => (true, true),
            (m, c) => (m, c),
        };
        let path = match (has('n'), has('j')) {
            (false, false) => PathRule::Free,
            (true, false) => PathRule::Lame,
            (false, true) => PathRule::Jump,
            _ => panic!("{s}: both n and j"),
        };
        let letters: Vec<char> = mods
            .iter()
            .copied()
            .filter(|c| "fblrsv".contains(*c))
            .collect();
        let dirs = direction_groups(&letters);
        let parts: Vec<(Sq, bool)> = match letter {
            'K' => vec![((1, 0), false), ((1, 1), false)],
            'Q' => vec![((1, 0), true), ((1, 1), true)],
            'R' => vec![((1, 0), true)],
            'B' => vec![((1, 1), true)],
            c if ATOMS.contains(c) => vec![(atom_step(c), doubled)],
            c => panic!("{s}: unknown atom {c}"),
        };
        for (step, rider) in parts {
            assert!(!(rider && path != PathRule::Free), "{s}: n or j on a rider");
            atoms.push(Atom {
                step,
                rider,
                moves,
                captures,
                dirs: dirs.clone(),
                path,
            });
        }
    }
    atoms
}

/// Whether the vector (x, y), y forward, has the direction `c`.
fn has_direction(c: char, (x, y): Sq) -> bool {
    let orthogonal = x == 0 || y == 0;
    let diagonal = x.abs() == y.abs();
    match c {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        'v' | 's' if diagonal => panic!("v or s on a diagonal atom"),
        'v' if orthogonal => x == 0,
        's' if orthogonal => y == 0,
        'v' => y.abs() > x.abs(),
        's' => x.abs() > y.abs(),
        _ => panic!("direction {c}"),
    }
}

fn group_allows(group: &[char], v: Sq) -> bool {
    let oblique = v.0 != 0 && v.1 != 0 && v.0.abs() != v.1.abs();
    let doubled = group.len() == 2 && group[0] == group[1];
    group.iter().all(|&c| has_direction(c, v))
        && !(doubled
            && oblique
            && !has_direction(if "fb".contains(group[0]) { 'v' } else { 's' }, v))
}

fn vectors((a, b): Sq) -> Vec<Sq> {
    let mut v = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let w = (x * sx, y * sy);
                if !v.contains(&w) {
                    v.push(w);
                }
            }
        }
    }
    v
}

/// A square a piece may land on, and what the squares before it must hold.
#[derive(Clone, Debug)]
struct Candidate {
    to: Sq,
    empty: Vec<Sq>,
    occupied: Vec<Sq>,
    moves: bool,
    captures: bool,
}

fn candidates(geo: &Geo, from: Sq, atoms: &[Atom]) -> Vec<Candidate> {
    let mut out = Vec::new();
    for a in atoms {
        for v in vectors(a.step) {
            if !a.dirs.is_empty() && !a.dirs.iter().any(|g| group_allows(g, v)) {
                continue;
            }
            if a.rider {
                let mut k = 1;
                while geo.playable(add(from, v, k)) {
                    out.push(Candidate {
                        to: add(from, v, k),
                        empty: (1..k).map(|i| add(from, v, i)).collect(),
                        occupied: Vec::new(),
                        moves: a.moves,
                        captures: a.captures,
                    });
                    k += 1;
                }
                continue;
            }
            let to = add(from, v, 1);
            if !geo.playable(to) {
                continue;
            }
            let mut between = Vec::new();
            if a.path != PathRule::Free {
                let n = v.0.abs().max(v.1.abs());
                assert!(
                    v.0 == 0 || v.1 == 0 || v.0.abs() == v.1.abs(),
                    "n or j on an oblique atom"
                );
                let unit = (v.0.signum(), v.1.signum());
                between = (1..n).map(|i| add(from, unit, i)).collect();
                if between.iter().any(|&s| !geo.playable(s)) {
                    continue;
                }
            }
            let (empty, occupied) = match a.path {
                PathRule::Jump => (Vec::new(), between),
                _ => (between, Vec::new()),
            };
            out.push(Candidate {
                to,
                empty,
                occupied,
                moves: a.moves,
                captures: a.captures,
            });
        }
    }
    out
}

// ------------------------------------------------------------------------------------------
// Descriptions
// ------------------------------------------------------------------------------------------

/// One Betza part of a description, with the owner's rank it needs (`from its rank 2`).
#[derive(Clone, Debug)]
struct Part {
    atoms: Vec<Atom>,
    words: Vec<Words>,
    rank: Option<i32>,
}

/// Betza expressions joined by ` + ` or ` and `: the parseable ones (a ` + ` may add words:
/// `Q + Sissa`), or `None` when the first is words.
fn betza_list(s: &str) -> Option<Vec<Atom>> {
    let mut atoms = Vec::new();
    for (i, chunk) in s.split(" + ").flat_map(|c| c.split(" and ")).enumerate() {
        if betza_shaped(chunk) {
            atoms.extend(parse_betza(chunk));
        } else if i == 0 {
            return None;
        }
    }
    Some(atoms)
}

fn rank_condition(s: &str) -> i32 {
    match s {
        "first rank" => 1,
        "second rank" => 2,
        _ => s
            .strip_prefix("rank ")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("rank condition '{s}'")),
    }
}

/// The Betza parts of `movement`, or `None` when it does not begin with a Betza expression.
fn betza_parts(movement: &str) -> Option<Vec<Part>> {
    let first = movement.split(';').next().unwrap();
    if let Some((atoms, words)) = worded(first) {
        return Some(vec![Part {
            atoms,
            words,
            rank: None,
        }]);
    }
    let mut parts = Vec::new();
    for (i, p) in first.split(", ").enumerate() {
        let p = p.split_once(": ").map_or(p, |(b, _)| b);
        let p = p.split(" (").next().unwrap();
        let (expr, rank) = match p.split_once(" from its ") {
            Some((b, cond)) if betza_list(b).is_some() => (b, Some(rank_condition(cond))),
            _ => (p, None),
        };
        match betza_list(expr) {
            Some(atoms) => parts.push(Part {
                atoms,
                words: Vec::new(),
                rank,
            }),
            None if i == 0 => return None,
            None => {}
        }
    }
    Some(parts)
}

// ------------------------------------------------------------------------------------------
// Movements in words
// ------------------------------------------------------------------------------------------

/// A movement that Betza does not write, read from the words of a description (Mutatis Mutandis
/// Mutandis, rules 6.1): each is a set of paths of leaps on which only the landing squares
/// matter (every landing before the last must be empty) unless it says otherwise.
#[derive(Clone, Debug, PartialEq)]
enum Words {
    /// `n orthogonal then n diagonal steps or the reverse, every passed square empty` (Sissa).
    Sissa,
    /// `F step, then outward R slide` (Gryphon), `W step, then outward B slide` (Aanca),
    /// `spotted gryphon (F step, then outward dabbabah-rider)`: a first step (diagonal or
    /// not), stopping or capturing there, then from its empty square a rider of steps `len`
    /// times the outward directions (for a diagonal step (x, y): (x, 0) and (0, y); for an
    /// orthogonal one: the two diagonals sharing it).
    Bent { diagonal_first: bool, len: i32 },
    /// `zigzag W` (Crooked Rook), `zigzag F` (Crooked Bishop): v1, v2, v1, ... with v2
    /// perpendicular to v1, until the edge or the origin.
    Zigzag { diagonal: bool },
    /// `circular NN, up to 7 leaps turning 45 degrees one way, never home` (Rose): knight
    /// leaps each one knight direction further round, clockwise or anticlockwise.
    Rose,
    /// `crooked nightrider turning D degrees`: knight leaps alternating v1, v2, v1, ... where
    /// the angle between v1 and v2 is D degrees (rounded).
    CrookedNightrider { degrees: i32 },
    /// `B wrapping between files a and h` (Cylindrical Bishop): diagonals with the files
    /// joined into a cylinder, until the edge or the origin.
    Cylinder,
    /// `N, or N then N from an empty landing (not back), capturing at the end` (Dancing
    /// Horse).
    DancingHorse,
}

const KNIGHT_VECTORS: [Sq; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const ORTHOGONALS: [Sq; 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const DIAGONALS: [Sq; 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// One phrase of a description in words, `None` when the test does not know it.
fn words(phrase: &str) -> Option<Words> {
    let phrase = phrase.trim();
    if let Some(d) = phrase
        .strip_prefix("crooked nightrider turning ")
        .and_then(|r| r.strip_suffix(" degrees"))
    {
        return Some(Words::CrookedNightrider {
            degrees: d.parse().ok()?,
        });
    }
    Some(match phrase {
        "Sissa"
        | "n orthogonal then n diagonal steps or the reverse, every passed square empty" => {
            Words::Sissa
        }
        "F step, then outward R slide" => Words::Bent {
            diagonal_first: true,
            len: 1,
        },
        "W step, then outward B slide" => Words::Bent {
            diagonal_first: false,
            len: 1,
        },
        "spotted gryphon (F step, then outward dabbabah-rider)" => Words::Bent {
            diagonal_first: true,
            len: 2,
        },
        "Crooked Rook" | "zigzag W (v1, v2, v1, ... with v2 perpendicular)" => {
            Words::Zigzag { diagonal: false }
        }
        "Crooked Bishop" | "zigzag F" => Words::Zigzag { diagonal: true },
        "circular NN, up to 7 leaps turning 45 degrees one way, never home" => Words::Rose,
        "B wrapping between files a and h" => Words::Cylinder,
        "N, or N then N from an empty landing (not back), capturing at the end" => {
            Words::DancingHorse
        }
        _ => return None,
    })
}

/// The movement clause of a description joined by ` + ` from Betza expressions and phrases
/// in words, when at least one phrase is known (and all parts are understood); a trailing
/// reference to the rules (` [D 9]`) is dropped.
fn worded(clause: &str) -> Option<(Vec<Atom>, Vec<Words>)> {
    let clause = clause.split(" [").next().unwrap();
    let (mut atoms, mut found) = (Vec::new(), Vec::new());
    for chunk in clause.split(" + ") {
        if betza_shaped(chunk) {
            atoms.extend(parse_betza(chunk));
        } else {
            found.push(words(chunk)?);
        }
    }
    (!found.is_empty()).then_some((atoms, found))
}

/// The angle between two vectors, in whole degrees.
fn degrees(a: Sq, b: Sq) -> i32 {
    let dot = f64::from(a.0 * b.0 + a.1 * b.1);
    let norms = f64::from(a.0 * a.0 + a.1 * a.1).sqrt() * f64::from(b.0 * b.0 + b.1 * b.1).sqrt();
    (dot / norms).clamp(-1.0, 1.0).acos().to_degrees().round() as i32
}

impl Words {
    /// The landings of every path, each landing needing the landings before it empty.
    fn candidates(&self, geo: &Geo, from: Sq) -> Vec<Candidate> {
        // Paths as lists of squares; every square of a path is a landing, and a path stops
        // at the edge, a hole or the origin.
        let mut paths: Vec<Vec<Sq>> = Vec::new();
        let walk = |steps: &mut dyn Iterator<Item = Sq>| {
            let mut path = Vec::new();
            let mut at = from;
            for v in steps {
                at = add(at, v, 1);
                if !geo.playable(at) || at == from {
                    break;
                }
                path.push(at);
            }
            path
        };
        // A path whose every square must be empty to go on, except the landings listed.
        let mut passed: Vec<(Sq, Vec<Sq>)> = Vec::new();
        match self {
            Words::Sissa => {
                for d1 in ORTHOGONALS.iter().chain(&DIAGONALS) {
                    let others = if d1.0 == 0 || d1.1 == 0 {
                        DIAGONALS
                    } else {
                        ORTHOGONALS
                    };
                    for d2 in others {
                        for n in 1..geo.files.max(geo.rows) {
                            let corner = add(from, *d1, n);
                            let mut route: Vec<Sq> = (1..=n).map(|k| add(from, *d1, k)).collect();
                            route.extend((1..n).map(|k| add(corner, d2, k)));
                            let to = add(corner, d2, n);
                            if route.iter().all(|&s| geo.playable(s)) && geo.playable(to) {
                                passed.push((to, route));
                            }
                        }
                    }
                }
            }
            Words::Bent {
                diagonal_first,
                len,
            } => {
                let firsts = if *diagonal_first {
                    DIAGONALS
                } else {
                    ORTHOGONALS
                };
                for d in firsts {
                    let outs = if d.0 != 0 && d.1 != 0 {
                        [(d.0, 0), (0, d.1)]
                    } else if d.0 != 0 {
                        [(d.0, 1), (d.0, -1)]
                    } else {
                        [(1, d.1), (-1, d.1)]
                    };
                    let x = add(from, d, 1);
                    if !geo.playable(x) {
                        continue;
                    }
                    paths.push(vec![x]);
                    for o in outs {
                        let mut path = vec![x];
                        let mut at = x;
                        loop {
                            at = add(at, o, *len);
                            if !geo.playable(at) {
                                break;
                            }
                            path.push(at);
                        }
                        paths.push(path);
                    }
                }
            }
            Words::Zigzag { diagonal } => {
                let dirs = if *diagonal { DIAGONALS } else { ORTHOGONALS };
                for v1 in dirs {
                    for v2 in dirs {
                        if v1.0 * v2.0 + v1.1 * v2.1 == 0 {
                            paths.push(walk(&mut [v1, v2].into_iter().cycle()));
                        }
                    }
                }
            }
            Words::Rose => {
                // The knight directions in angular order, so that "one further round" is
                // the next of the list.
                let mut round = KNIGHT_VECTORS.to_vec();
                round.sort_by(|a, b| {
                    f64::from(a.1)
                        .atan2(f64::from(a.0))
                        .total_cmp(&f64::from(b.1).atan2(f64::from(b.0)))
                });
                for i in 0..8i32 {
                    for sense in [1, -1] {
                        let mut steps =
                            (0..7).map(|k| round[(i + sense * k).rem_euclid(8) as usize]);
                        paths.push(walk(&mut steps));
                    }
                }
            }
            Words::CrookedNightrider { degrees: d } => {
                for v1 in KNIGHT_VECTORS {
                    for v2 in KNIGHT_VECTORS {
                        if degrees(v1, v2) == *d {
                            paths.push(walk(&mut [v1, v2].into_iter().cycle()));
                        }
                    }
                }
            }
            Words::Cylinder => {
                for (x, y) in DIAGONALS {
                    let mut path = Vec::new();
                    for k in 1.. {
                        let at = ((from.0 + k * x).rem_euclid(geo.files), from.1 + k * y);
                        if !geo.playable(at) || at == from {
                            break;
                        }
                        path.push(at);
                    }
                    paths.push(path);
                }
            }
            Words::DancingHorse => {
                for v1 in KNIGHT_VECTORS {
                    let x = add(from, v1, 1);
                    if !geo.playable(x) {
                        continue;
                    }
                    paths.push(vec![x]);
                    for v2 in KNIGHT_VECTORS {
                        let to = add(x, v2, 1);
                        if geo.playable(to) && to != from {
                            paths.push(vec![x, to]);
                        }
                    }
                }
            }
        }
        let mut out: Vec<Candidate> = passed
            .into_iter()
            .map(|(to, empty)| Candidate {
                to,
                empty,
                occupied: Vec::new(),
                moves: true,
                captures: true,
            })
            .collect();
        for path in paths {
            for (k, &to) in path.iter().enumerate() {
                out.push(Candidate {
                    to,
                    empty: path[..k].to_vec(),
                    occupied: Vec::new(),
                    moves: true,
                    captures: true,
                });
            }
        }
        out
    }
}

// ------------------------------------------------------------------------------------------
// What is checked, per variant and piece
// ------------------------------------------------------------------------------------------

/// How much of the landing squares the Betza part describes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scope {
    /// All of them: moves to empty squares and captures, whatever stands around.
    Full,
    /// The moves to empty squares; its words add captures (a Paovao's hop, a Chameleon's
    /// imitation, a Secutor's bent capture).
    Moves,
    /// The moves to empty squares when no enemy is on the board (a Long Leaper lands beyond
    /// the enemies it jumps).
    MovesWithoutEnemies,
    /// Only on the empty board (a Cannon Pawn hops any adjacent piece).
    EmptyBoard,
    /// The captures; its words give the moves (the Assassin's teleport).
    Captures,
}

fn scope(variant: &str, code: &str) -> Scope {
    match (variant, code) {
        ("mulliganstew", "A") => Scope::Captures,
        ("mutatismutandis", "PV" | "CH" | "SE") => Scope::Moves,
        ("mutatismutandis", "LL") => Scope::MovesWithoutEnemies,
        ("mutatismutandis", "CP") => Scope::EmptyBoard,
        _ => Scope::Full,
    }
}

/// What a variant's test positions need.
struct Setup {
    /// The enemy piece placed as a target (a Knight where there is check: it pins nothing).
    victim: &'static str,
    /// The friendly piece placed as a blocker.
    friend: &'static str,
    /// Whether the side to move may not leave its King attacked (the victim's checks and the
    /// friend's attacks on the enemy King then matter).
    check: bool,
    /// The codes of the pieces that are royal after they move (they may not land on an
    /// attacked square): the King; in Mutatis Mutandis the King, Maoking and Mamra, which
    /// becomes a Wuss (rules/mutatis-mutandis.md 5).
    royal_after_move: &'static [&'static str],
    /// The codes that are the side's King (no other White King is placed with them).
    kings: &'static [&'static str],
    /// The owner's ranks a Pawn-like piece is tested from.
    pawn_ranks: std::ops::RangeInclusive<i32>,
}

fn setup(variant: &str) -> Setup {
    let orthodox = Setup {
        victim: "n",
        friend: "N",
        check: true,
        royal_after_move: &["K"],
        kings: &["K"],
        pawn_ranks: 2..=7,
    };
    match variant {
        "chess" | "mystic" => orthodox,
        // Pawns may stand on the first rank (rules/muster.md 2, D1).
        "muster" => Setup {
            pawn_ranks: 1..=7,
            ..orthodox
        },
        // No check; a Pawn swapped to its first rank moves normally (rules 3).
        "mulliganstew" => Setup {
            victim: "r",
            friend: "R",
            check: false,
            royal_after_move: &[],
            kings: &["K"],
            pawn_ranks: 1..=6,
        },
        "mitosis" => Setup {
            victim: "n",
            friend: "N",
            check: false,
            royal_after_move: &[],
            kings: &["K"],
            pawn_ranks: 2..=8,
        },
        "mutatismutandis" => Setup {
            royal_after_move: &["K", "MK", "MA"],
            kings: &["K", "MK"],
            ..orthodox
        },
        v => panic!("no setup for {v}"),
    }
}

/// The FEN of `board` (the board field) with White to move, in `variant`'s grammar; `dark`:
/// the moving piece stands on a dark square (Mulligan Stew: the D portion).
fn fen(variant: &str, board: &str, dark: bool) -> String {
    match variant {
        "chess" | "muster" | "mutatismutandis" => format!("{board} w - - 0 1"),
        "mystic" => format!("{board} w - - 0 1 coins:0/0 bought:0/0"),
        "mulliganstew" => format!(
            "{board}[-] w - - 0 1 pool:-/-{}",
            if dark { " portion:D" } else { "" }
        ),
        "mitosis" => format!("{board}[-] w - - 0 1"),
        v => panic!("no FEN for {v}"),
    }
}

// ------------------------------------------------------------------------------------------
// Positions
// ------------------------------------------------------------------------------------------

fn board_field(geo: &Geo, pieces: &HashMap<Sq, String>) -> String {
    let mut rows = Vec::new();
    for r in (0..geo.rows).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for f in 0..geo.files {
            let code = pieces.get(&(f, r));
            if code.is_none() && !geo.holes.contains(&(f, r)) {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            match code {
                None => s.push('*'),
                Some(c) if c.len() == 1 => s.push_str(c),
                Some(c) => s.push_str(&format!("[{c}]")),
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        rows.push(s);
    }
    rows.join("/")
}

/// The White pieces' squares of a FEN's board field (`None`: no piece; `Some(true)`: White).
fn read_board(geo: &Geo, fen: &str) -> HashMap<Sq, bool> {
    let board = fen.split(' ').next().unwrap();
    let mut out = HashMap::new();
    for (i, row) in board.split('/').take(geo.rows as usize).enumerate() {
        let r = geo.rows - 1 - i as i32;
        let mut f = 0;
        let mut chars = row.chars().peekable();
        while f < geo.files {
            let c = chars.next().unwrap_or_else(|| panic!("short row in {fen}"));
            if c.is_ascii_digit() {
                let mut n = c.to_digit(10).unwrap() as i32;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n * 10 + d as i32;
                    chars.next();
                }
                f += n;
            } else if c == '*' {
                f += 1;
            } else {
                let first = if c == '[' { chars.next().unwrap() } else { c };
                if c == '[' {
                    for d in chars.by_ref() {
                        if d == ']' {
                            break;
                        }
                    }
                }
                out.insert((f, r), first.is_ascii_uppercase());
                f += 1;
            }
        }
    }
    out
}

/// Who stands on a square of a test position, besides the moving piece and the Kings.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Side {
    Friend,
    Enemy,
}

#[derive(Default, Debug, PartialEq)]
struct Landings {
    moves: BTreeSet<Sq>,
    captures: BTreeSet<Sq>,
}

/// The squares the piece on `from` lands on in the legal plies of `pos`.
fn landings<G: Game>(geo: &Geo, pos: &mut G, from: Sq, occ: &HashMap<Sq, Side>) -> Landings {
    let mut out = Landings::default();
    let list = legal_moves(pos);
    for &m in list.iter() {
        let token = pos.move_token(m);
        let leg = token.split([',', ';']).next().unwrap();
        if leg.contains('@') {
            continue;
        }
        let Some((f, rest)) = geo.parse_sq(leg) else {
            continue;
        };
        let Some((to, _)) = geo.parse_sq(rest) else {
            continue;
        };
        if f != from || to == from {
            continue;
        }
        pos.make(m);
        let after = read_board(geo, &pos.fen());
        pos.unmake();
        if after.contains_key(&from) || after.get(&to) != Some(&true) {
            continue; // a swap, shot or conversion: not a landing
        }
        match occ.get(&to) {
            None => out.moves.insert(to),
            Some(_) => out.captures.insert(to),
        };
    }
    out
}

/// Whether a legal ply of the piece on `from` removes the enemy on `x`: the piece lands there,
/// or the enemy is gone (a shot, a withdrawal, an approach, a long leap, mutual destruction).
/// A swap or a conversion leaves a piece on `x` and its own square taken, and a sling moves
/// the enemy elsewhere: no capture.
fn removes<G: Game>(geo: &Geo, pos: &mut G, from: Sq, x: Sq) -> bool {
    let list = legal_moves(pos);
    list.iter().any(|&m| {
        let token = pos.move_token(m);
        let leg = token.split([',', ';']).next().unwrap();
        let starts_here = !leg.contains('@') && geo.parse_sq(leg).is_some_and(|(f, _)| f == from);
        if !starts_here {
            return false;
        }
        let blacks = |b: &HashMap<Sq, bool>| b.values().filter(|w| !**w).count();
        let before = blacks(&read_board(geo, &pos.fen()));
        pos.make(m);
        let after = read_board(geo, &pos.fen());
        pos.unmake();
        let converted = after.get(&x) == Some(&true) && after.contains_key(&from);
        blacks(&after) < before && after.get(&x) != Some(&false) && !converted
    })
}

/// The landing squares the Betza parts give.
fn expected(cands: &[Candidate], occ: &HashMap<Sq, Side>, kings: &[Sq]) -> Landings {
    let mut out = Landings::default();
    let full = |s: &Sq| occ.contains_key(s) || kings.contains(s);
    for c in cands {
        if c.empty.iter().any(full) || !c.occupied.iter().all(full) {
            continue;
        }
        match occ.get(&c.to) {
            None if !kings.contains(&c.to) && c.moves => {
                out.moves.insert(c.to);
            }
            Some(Side::Enemy) if c.captures => {
                out.captures.insert(c.to);
            }
            _ => {}
        }
    }
    out
}

struct Piece<'a> {
    variant: &'static str,
    info: &'a PieceInfo,
    parts: Vec<Part>,
}

impl Piece<'_> {
    fn directional(&self) -> bool {
        self.parts
            .iter()
            .any(|p| p.rank.is_some() || p.atoms.iter().any(|a| !a.dirs.is_empty()))
    }

    fn candidates(&self, geo: &Geo, from: Sq) -> Vec<Candidate> {
        let rank = geo.rank(from);
        self.parts
            .iter()
            .filter(|p| p.rank.is_none_or(|r| r == rank))
            .flat_map(|p| {
                let mut c = candidates(geo, from, &p.atoms);
                c.extend(p.words.iter().flat_map(|w| w.candidates(geo, from)));
                c
            })
            .collect()
    }
}

/// The Kings' squares for the piece on `from`: out of its reach and off its queen lines where
/// possible, not next to each other, and for a royal piece two squares from all it reaches.
/// `None` for White's when the piece is White's King.
fn place_kings<G: Game>(
    geo: &Geo,
    piece: &Piece,
    setup: &Setup,
    from: Sq,
    cands: &[Candidate],
) -> (Option<Sq>, Sq) {
    let is_king = setup.kings.contains(&piece.info.code);
    let royal = setup.royal_after_move.contains(&piece.info.code);
    let mut reach: HashSet<Sq> = HashSet::from([from]);
    for c in cands {
        reach.insert(c.to);
        reach.extend(&c.empty);
        reach.extend(&c.occupied);
    }
    let all = geo.squares();
    let (lo, hi) = (all[0], all[all.len() - 1]);
    let corners = [(lo.0, hi.1), (hi.0, lo.1), (hi.0, hi.1), (lo.0, lo.1)];
    let mut order: Vec<Sq> = corners
        .iter()
        .copied()
        .filter(|&s| geo.playable(s))
        .collect();
    let rest: Vec<Sq> = all.iter().copied().filter(|s| !order.contains(s)).collect();
    order.extend(rest);
    for strict in [true, false] {
        // Out of the piece's reach, off its queen lines (first try) and, for a royal piece,
        // not next to a square it reaches.
        let ok = |s: Sq| {
            let reached = reach.contains(&s);
            let aligned = strict && on_queen_line(s, from);
            let near = royal && reach.iter().any(|&r| chebyshev(r, s) <= 1);
            !(reached || aligned || near)
        };
        for &bk in &order {
            if !ok(bk) {
                continue;
            }
            let whites: Vec<Option<Sq>> = if is_king {
                vec![None]
            } else {
                order
                    .iter()
                    .copied()
                    .filter(|&wk| ok(wk) && chebyshev(wk, bk) >= 2)
                    .map(Some)
                    .collect()
            };
            for wk in whites {
                let mut pieces = HashMap::from([(from, piece.info.code.to_string())]);
                pieces.insert(bk, "k".to_string());
                if let Some(wk) = wk {
                    pieces.insert(wk, "K".to_string());
                }
                let f = fen(
                    piece.variant,
                    &board_field(geo, &pieces),
                    dark(piece.variant, from),
                );
                if G::from_fen(&f).is_ok() {
                    return (wk, bk);
                }
            }
        }
    }
    panic!(
        "{} {}: no place for the Kings with the piece on {}",
        piece.variant,
        piece.info.code,
        geo.name(from)
    );
}

/// Mulligan Stew: a piece on a dark square moves in the D portion (a1 dark, rules 1).
fn dark(variant: &str, (f, r): Sq) -> bool {
    variant == "mulliganstew" && (f + r) % 2 == 0
}

/// Checks one piece on one square in every configuration; returns the failures, the number
/// of positions refused by the FEN reader and the number of positions compared.
fn check_square<G: Game>(
    geo: &Geo,
    piece: &Piece,
    setup: &Setup,
    from: Sq,
) -> (Vec<String>, usize, usize) {
    let code = piece.info.code;
    let sc = scope(piece.variant, code);
    let royal = setup.royal_after_move.contains(&code);
    let cands = piece.candidates(geo, from);
    let (wk, bk) = place_kings::<G>(geo, piece, setup, from, &cands);
    let kings: Vec<Sq> = wk.into_iter().chain([bk]).collect();

    // The configurations: nothing, one enemy, one friend, an enemy and a friend on its path.
    let mut configs: Vec<HashMap<Sq, Side>> = vec![HashMap::new()];
    let free: Vec<Sq> = geo
        .squares()
        .into_iter()
        .filter(|s| *s != from && !kings.contains(s))
        .collect();
    for &x in &free {
        configs.push(HashMap::from([(x, Side::Enemy)]));
        configs.push(HashMap::from([(x, Side::Friend)]));
        for c in cands.iter().filter(|c| c.to == x) {
            for &y in c.empty.iter().chain(&c.occupied) {
                if y != from && !kings.contains(&y) {
                    configs.push(HashMap::from([(x, Side::Enemy), (y, Side::Friend)]));
                }
            }
        }
    }

    let mut failures = Vec::new();
    let (mut refused, mut compared) = (0, 0);
    // The engine's diagram of the piece here (the `diagram` command): its moves must be the
    // legal landings on the empty board, and its captures those with one enemy.
    let diagram = menagerie::variants::diagram::diagram::<G>(code, &geo.name(from))
        .unwrap_or_else(|e| panic!("{} {code} on {}: {e}", piece.variant, geo.name(from)));
    for occ in configs {
        // A Knight next to... a King: the victim's check would restrict the other pieces,
        // and the friend's attack on the enemy King makes the position unreachable.
        if setup.check
            && occ.iter().any(|(&s, &side)| match side {
                Side::Enemy => {
                    !setup.kings.contains(&code) && wk.is_some_and(|k| knight_leap(s, k))
                }
                Side::Friend => knight_leap(s, bk),
            })
        {
            continue;
        }
        let enemies = occ.values().any(|&s| s == Side::Enemy);
        let check = match sc {
            Scope::EmptyBoard => occ.is_empty(),
            Scope::MovesWithoutEnemies => !enemies,
            _ => true,
        };
        if !check {
            continue;
        }
        let mut pieces: HashMap<Sq, String> = HashMap::from([(from, code.to_string())]);
        pieces.insert(bk, "k".to_string());
        if let Some(wk) = wk {
            pieces.insert(wk, "K".to_string());
        }
        for (&s, &side) in &occ {
            let c = match side {
                Side::Enemy => setup.victim,
                Side::Friend => setup.friend,
            };
            pieces.insert(s, c.to_string());
        }
        let f = fen(
            piece.variant,
            &board_field(geo, &pieces),
            dark(piece.variant, from),
        );
        let Ok(mut pos) = G::from_fen(&f) else {
            assert!(!occ.is_empty(), "{f} is refused");
            refused += 1;
            continue;
        };
        compared += 1;
        let actual = landings(geo, &mut pos, from, &occ);
        let mut want = expected(&cands, &occ, &kings);
        if royal && setup.check {
            // A royal piece may not land where the enemy Knight would take it.
            for (&s, &side) in &occ {
                if side == Side::Enemy {
                    want.moves.retain(|&t| !knight_leap(s, t));
                    want.captures.retain(|&t| !knight_leap(s, t));
                }
            }
        }
        let single_enemy = match occ.iter().next() {
            Some((&x, Side::Enemy)) if occ.len() == 1 => Some(x),
            _ => None,
        };
        if occ.is_empty() {
            let moves: Vec<String> = actual.moves.iter().map(|&s| geo.name(s)).collect();
            // The diagram's board is empty; here the Kings stand on two squares.
            let kings: Vec<String> = kings.iter().map(|&k| geo.name(k)).collect();
            let mut shown: Vec<String> = diagram
                .moves
                .iter()
                .filter(|s| !kings.contains(s))
                .cloned()
                .collect();
            shown.sort();
            let mut moves_sorted = moves.clone();
            moves_sorted.sort();
            if shown != moves_sorted {
                failures.push(format!(
                    "{} {} \"{}\": the diagram's moves {shown:?}, the legal landings {moves_sorted:?} in {f}",
                    piece.variant, code, piece.info.movement
                ));
            }
        } else if let Some(x) = single_enemy.filter(|&x| kings.iter().all(|&k| chebyshev(k, x) > 1))
        {
            // (Next to a King the King may act as a spotter, which the diagram's empty board
            // lacks: the Archer shoots farther at a spotted enemy.)
            // A capture over a screen (a hop) needs a second piece: not one with a lone enemy.
            let name = geo.name(x);
            let shown = diagram.captures.contains(&name) && !diagram.hops.contains(&name);
            if shown != removes(geo, &mut pos, from, x) {
                failures.push(format!(
                    "{} {} \"{}\": the diagram says {} a capture on {}, the legal plies disagree in {f}",
                    piece.variant,
                    code,
                    piece.info.movement,
                    if shown { "has" } else { "has no" },
                    geo.name(x)
                ));
            }
        }
        let ok = match sc {
            Scope::Full | Scope::EmptyBoard => actual == want,
            Scope::Moves | Scope::MovesWithoutEnemies => actual.moves == want.moves,
            Scope::Captures => actual.captures == want.captures,
        };
        if !ok {
            failures.push(format!(
                "{} {} \"{}\" ({sc:?}) in {f}:\n  engine moves    {}\n  described moves {}\n  engine captures    {}\n  described captures {}",
                piece.variant,
                code,
                piece.info.movement,
                geo.names(&actual.moves),
                geo.names(&want.moves),
                geo.names(&actual.captures),
                geo.names(&want.captures),
            ));
        }
    }
    (failures, refused, compared)
}

/// The squares a piece is tested from: a central square and one near a corner, or for a piece
/// with a direction every rank it can stand on, on a central file and the a-file.
fn test_squares(geo: &Geo, piece: &Piece, setup: &Setup) -> Vec<Sq> {
    let all = geo.squares();
    let (lo, hi) = (all[0].1, all[all.len() - 1].1);
    let centre = ((geo.files - 1) / 2, (lo + hi) / 2);
    if piece.directional() {
        let mut v = Vec::new();
        for rank in setup.pawn_ranks.clone() {
            for file in [centre.0, 0] {
                v.push((file, rank - geo.first_rank));
            }
        }
        v
    } else {
        vec![centre, (1, lo + 1)]
    }
}

/// Checks `pieces` as descriptions of `G`'s pieces (the codes are `G`'s): a description
/// whose movement the test cannot read is a failure too.
fn check_pieces<G: Game>(pieces: &[PieceInfo], failures: &mut Vec<String>) {
    let variant = G::INFO.name;
    let geo = Geo::of::<G>();
    let setup = setup(variant);
    for info in pieces {
        let Some(parts) = betza_parts(info.movement) else {
            failures.push(format!(
                "{variant} {} \"{}\": a movement neither in Betza nor in known words",
                info.code, info.movement
            ));
            continue;
        };
        let piece = Piece {
            variant,
            info,
            parts,
        };
        let (mut refused, mut compared) = (0, 0);
        let squares = test_squares(&geo, &piece, &setup);
        for &from in &squares {
            let (f, r, c) = check_square::<G>(&geo, &piece, &setup, from);
            failures.extend(f);
            refused += r;
            compared += c;
        }
        eprintln!(
            "{variant} {}: {compared} positions from {} squares ({refused} refused)",
            info.code,
            squares.len()
        );
        // Positions the FEN reader refuses (an enemy royal that a word of the piece attacks)
        // are few; a FEN mistake of the test would refuse them all.
        assert!(
            refused <= 8 * squares.len(),
            "{variant} {}: {refused} positions refused",
            info.code
        );
    }
}

/// Checks every piece of `G` and fails with, per piece that differs, the number of positions
/// and the first of them.
fn check_variant<G: Game>() {
    let mut failures = Vec::new();
    check_pieces::<G>(G::INFO.pieces, &mut failures);
    let mut per_piece: Vec<(String, usize, String)> = Vec::new();
    for f in &failures {
        let key = f.split(" \"").next().unwrap().to_string();
        match per_piece.iter_mut().find(|(k, _, _)| *k == key) {
            Some(e) => e.1 += 1,
            None => per_piece.push((key, 1, f.clone())),
        }
    }
    assert!(
        failures.is_empty(),
        "descriptions that differ from the engine:\n{}",
        per_piece
            .iter()
            .map(|(k, n, first)| format!("{k}: {n} positions, first:\n{first}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Chess: every piece's description states the squares it lands on.
#[test]
fn chess_descriptions_match_the_engine() {
    check_variant::<Chess>();
}

/// Mystic: every piece's description states the squares it lands on.
#[test]
fn mystic_descriptions_match_the_engine() {
    check_variant::<Mystic>();
}

/// Muster: every piece's description states the squares it lands on (the Pawn's pushes from
/// its first and second ranks included).
#[test]
fn muster_descriptions_match_the_engine() {
    check_variant::<Muster>();
}

/// Mulligan Stew: every piece's description states the squares it lands on.
#[test]
fn mulligan_stew_descriptions_match_the_engine() {
    check_variant::<MulliganStew>();
}

/// Mitosis: every piece's description states the squares it lands on.
#[test]
fn mitosis_descriptions_match_the_engine() {
    check_variant::<Mitosis>();
}

/// Mutatis Mutandis: each of the 49 states' description states the squares it lands on.
#[test]
fn mutatis_mutandis_descriptions_match_the_engine() {
    check_variant::<MutatisMutandis>();
}

/// No variant is left out of the tests above.
#[test]
fn every_variant_is_checked() {
    let mut tested = [
        Chess::INFO.name,
        Mystic::INFO.name,
        Muster::INFO.name,
        MulliganStew::INFO.name,
        Mitosis::INFO.name,
        MutatisMutandis::INFO.name,
    ];
    tested.sort();
    let mut all: Vec<&str> = Variant::ALL
        .iter()
        .map(|&v| menagerie::with_variant!(v, G => G::INFO.name))
        .collect();
    all.sort();
    assert_eq!(all, tested);
}

/// The interpreter itself, on a few expressions with known answers.
#[test]
fn betza_interpreter() {
    let geo = Geo {
        files: 8,
        rows: 8,
        first_rank: 1,
        holes: HashSet::new(),
        bases: false,
    };
    let d4 = (3, 3);
    let count = |s: &str| {
        let c = candidates(&geo, d4, &parse_betza(s));
        expected(&c, &HashMap::new(), &[]).moves.len()
    };
    assert_eq!(count("Q"), 27);
    assert_eq!(count("R"), 14);
    assert_eq!(count("N"), 8);
    assert_eq!(count("NN"), 12);
    assert_eq!(count("K"), 8);
    assert_eq!(count("FD"), 8);
    assert_eq!(count("mfW"), 1);
    assert_eq!(count("mfsN"), 2);
    assert_eq!(count("cFcnA"), 0);
    let blocked = HashMap::from([((3, 4), Side::Friend)]);
    let c = candidates(&geo, d4, &parse_betza("mfjD"));
    assert!(expected(&c, &HashMap::new(), &[]).moves.is_empty());
    assert_eq!(expected(&c, &blocked, &[]).moves, BTreeSet::from([(3, 5)]));
    let c = candidates(&geo, d4, &parse_betza("mfnD"));
    assert_eq!(expected(&c, &HashMap::new(), &[]).moves.len(), 1);
    assert!(expected(&c, &blocked, &[]).moves.is_empty());
    let caps = HashMap::from([((5, 5), Side::Enemy)]);
    let c = candidates(&geo, d4, &parse_betza("cFcnA"));
    assert_eq!(expected(&c, &caps, &[]).captures, BTreeSet::from([(5, 5)]));
    let caps_blocked = HashMap::from([((5, 5), Side::Enemy), ((4, 4), Side::Friend)]);
    assert!(expected(&c, &caps_blocked, &[]).captures.is_empty());
    assert!(betza_parts("n orthogonal then n diagonal steps").is_none());
    let gryphon = betza_parts("F step, then outward R slide; becomes AA").unwrap();
    assert_eq!(
        gryphon[0].words,
        vec![Words::Bent {
            diagonal_first: true,
            len: 1
        }]
    );
    let c = gryphon[0].words[0].candidates(&geo, d4);
    assert_eq!(expected(&c, &HashMap::new(), &[]).moves.len(), 24);
    let p =
        betza_parts("mfWcfF, mfnD and mfnH from its rank 1, mfnD from its second rank; x").unwrap();
    assert_eq!(
        p.iter()
            .map(|p| (p.atoms.len(), p.rank))
            .collect::<Vec<_>>(),
        vec![(2, None), (2, Some(1)), (1, Some(2))]
    );
}

/// The check can fail: descriptions that misstate a piece, each differing from the engine in
/// one way, are all caught.
#[test]
fn wrong_descriptions_fail() {
    let wrong = |code: &'static str, movement: &'static str| PieceInfo {
        code,
        name: "wrong",
        movement,
    };
    let cases: Vec<(Variant, PieceInfo)> = vec![
        (Variant::Chess, wrong("B", "N: leaps (1,2)")),
        (Variant::Chess, wrong("R", "Q")),
        (Variant::Chess, wrong("K", "F")),
        // No double step.
        (Variant::Chess, wrong("P", "mfWcfF; en passant")),
        // Captures straight ahead.
        (
            Variant::Chess,
            wrong("P", "fWcfF, mfnD from its second rank"),
        ),
        // Muster's Pawn as `variant` once described it: no triple step.
        (
            Variant::Muster,
            wrong("P", "mfWcfF, mfnD from its second rank"),
        ),
        (Variant::Mystic, wrong("N", "NN")),
        (Variant::MulliganStew, wrong("K", "K")),
        (Variant::MulliganStew, wrong("M", "Q")),
        (Variant::MulliganStew, wrong("A", "cF")),
        (
            Variant::MulliganStew,
            wrong("P", "mfWcfF, mfnD from its second rank"),
        ),
        (
            Variant::Mitosis,
            wrong("P", "mfWcfF, mfnD from its second rank"),
        ),
        (Variant::Mitosis, wrong("G", "Q")),
        (
            Variant::MutatisMutandis,
            wrong("GR", "W step, then outward B slide"),
        ),
        (
            Variant::MutatisMutandis,
            wrong("N11", "crooked nightrider turning 127 degrees"),
        ),
        (Variant::MutatisMutandis, wrong("CR", "zigzag F")),
        (Variant::MutatisMutandis, wrong("CY", "B")),
        (Variant::MutatisMutandis, wrong("SS", "Q")),
        (Variant::MutatisMutandis, wrong("DA", "N")),
        (Variant::MutatisMutandis, wrong("SP", "mfWcfF")),
        (Variant::MutatisMutandis, wrong("NR", "moves like a horse")),
    ];
    for (v, info) in cases {
        let mut failures = Vec::new();
        let pieces = [info];
        menagerie::with_variant!(v, G => check_pieces::<G>(&pieces, &mut failures));
        assert!(
            !failures.is_empty(),
            "{v:?} {} \"{}\" passed",
            pieces[0].code,
            pieces[0].movement
        );
    }
}

// ------------------------------------------------------------------------------------------
// The words: special moves an empty board does not show
// ------------------------------------------------------------------------------------------

fn description<G: Game>(code: &str) -> &'static str {
    G::INFO
        .pieces
        .iter()
        .find(|p| p.code == code)
        .unwrap_or_else(|| panic!("{}: no piece {code}", G::INFO.name))
        .movement
}

/// The position of `G` with `pieces` (codes in FEN case) and White to move.
fn position<G: Game>(geo: &Geo, pieces: &[(Sq, &str)]) -> G {
    let map: HashMap<Sq, String> = pieces.iter().map(|&(s, c)| (s, c.to_string())).collect();
    let f = fen(G::INFO.name, &board_field(geo, &map), false);
    G::from_fen(&f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

/// The piece code on `sq` of a FEN's board field (`None`: empty).
fn code_at(geo: &Geo, fen: &str, sq: Sq) -> Option<String> {
    let board = fen.split(' ').next().unwrap().split('[').next().unwrap();
    let row = board.split('/').nth((geo.rows - 1 - sq.1) as usize)?;
    let mut f = 0;
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut n = c.to_digit(10).unwrap() as i32;
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                n = n * 10 + d as i32;
                chars.next();
            }
            f += n;
            continue;
        }
        let code = if c == '[' {
            chars.by_ref().take_while(|&d| d != ']').collect()
        } else {
            c.to_string()
        };
        if f == sq.0 {
            return (code != "*").then_some(code);
        }
        f += 1;
    }
    None
}

/// What a Pawn of `G` on the file a, one rank before the last, becomes on the last rank, from
/// the engine's legal plies: the codes, sorted.
fn promotions<G: Game>() -> Vec<String> {
    let geo = Geo::of::<G>();
    let all = geo.squares();
    let top = all.iter().map(|s| s.1).max().unwrap();
    let bottom = all.iter().map(|s| s.1).min().unwrap();
    let (from, to) = ((0, top - 1), (0, top));
    let mut pos: G = position(
        &geo,
        &[
            (from, "P"),
            ((geo.files - 1, bottom), "K"),
            ((geo.files - 1, top), "k"),
        ],
    );
    let mut codes = BTreeSet::new();
    for m in legal_moves(&pos).iter() {
        pos.make(*m);
        let after = pos.fen();
        pos.unmake();
        if code_at(&geo, &after, from).is_none() {
            codes.extend(code_at(&geo, &after, to));
        }
    }
    codes.into_iter().collect()
}

/// The codes a description lists after `promotes to` (`Q, R, B or N`), sorted.
fn promotion_words(movement: &str) -> Vec<String> {
    let rest = movement
        .split("promotes to ")
        .nth(1)
        .unwrap_or_else(|| panic!("no 'promotes to' in {movement}"));
    let rest = rest.strip_prefix("an available ").unwrap_or(rest);
    let list = rest.split([';', '(']).next().unwrap();
    let list = list.split(" on the").next().unwrap();
    let mut codes: Vec<String> = list
        .split([',', ' '])
        .filter(|w| !w.is_empty() && *w != "or")
        .map(str::to_string)
        .collect();
    codes.sort();
    codes
}

/// Whether a legal ply of `pos` moves the King off `king` and a Rook in the same ply (castling).
fn castles<G: Game>(geo: &Geo, pos: &mut G, king: Sq, rooks: &[Sq]) -> Vec<String> {
    let mut out = Vec::new();
    for m in legal_moves(pos).iter() {
        let token = pos.move_token(*m);
        pos.make(*m);
        let after = pos.fen();
        pos.unmake();
        let king_left = code_at(geo, &after, king).as_deref() != Some("K");
        let rook_left = rooks
            .iter()
            .any(|&r| code_at(geo, &after, r).as_deref() != Some("R"));
        if king_left && rook_left {
            out.push(token);
        }
    }
    out.sort();
    out
}

/// The special moves of each variant's rules are in its pieces' words, and where a position
/// shows them the engine agrees: castling (chess, Muster's vertical castling, none in
/// Mystic), the promotion choices of every Pawn, Mystic's purchases and upgrades, Mulligan
/// Stew's drops, swaps and pool, Mitosis's splitting and King, and the state each Mutatis Mutandis
/// Mutandis piece becomes (`State::next`) and its royalty (`State::is_royal`).
#[test]
fn special_moves_are_described() {
    use menagerie::variants::mutatis_mutandis::piece::State;

    let has = |movement: &str, words: &[&str]| {
        for w in words {
            assert!(movement.contains(w), "'{w}' missing from \"{movement}\"");
        }
    };

    // Castling: chess's King castles both ways (FIDE 3.8).
    let geo = Geo::of::<Chess>();
    let (e1, a1, h1) = ((4, 0), (0, 0), (7, 0));
    let mut chess = Chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(castles(&geo, &mut chess, e1, &[a1, h1]).len(), 2);
    has(description::<Chess>("K"), &["castling"]);
    // Mystic has none: a castling right is refused (rules/mystic.md 2, D1).
    assert!(Mystic::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 coins:0/0 bought:0/0").is_err());
    has(description::<Mystic>("K"), &["no castling"]);
    for p in Mystic::INFO.pieces {
        assert!(!p.movement.contains("castling (FIDE"), "{}", p.movement);
    }
    // Muster castles with Rooks on the King's rank and file (rules/muster.md 5, example E1).
    let mut muster = Muster::from_fen("4k3/8/8/8/4R3/8/R3K2R/4R3 w e1a2h2e4 - 0 1").unwrap();
    let (e2, a2, h2, e4) = ((4, 1), (0, 1), (7, 1), (4, 3));
    assert_eq!(
        castles(&geo, &mut muster, e2, &[e1, a2, h2, e4]),
        ["e2c2", "e2e1", "e2e4", "e2g2"]
    );
    has(
        description::<Muster>("K"),
        &["castles", "rank or file", "vertically too"],
    );
    has(description::<Muster>("R"), &["castles"]);
    assert!(!description::<Muster>("K").contains("FIDE"));

    // Promotion: what the words list is what the engine offers.
    assert_eq!(
        promotion_words(description::<Chess>("P")),
        promotions::<Chess>()
    );
    assert_eq!(
        promotion_words(description::<Muster>("P")),
        promotions::<Muster>()
    );
    assert_eq!(
        promotion_words(description::<Mystic>("P")),
        promotions::<Mystic>()
    );
    assert_eq!(
        promotion_words(description::<Mitosis>("P")),
        promotions::<Mitosis>()
    );
    assert_eq!(promotions::<Mitosis>(), ["B", "N", "R"]);

    // En passant and the longer pushes, whose squares the Betza part shows.
    for movement in [
        description::<Chess>("P"),
        description::<Mystic>("P"),
        description::<Muster>("P"),
        description::<Mitosis>("P"),
    ] {
        has(movement, &["en passant"]);
    }
    has(
        description::<Muster>("P"),
        &["from its first rank", "every square passed"],
    );
    has(description::<Mitosis>("P"), &["every square passed"]);
    has(
        description::<MulliganStew>("P"),
        &["no double step", "no en passant", "pool"],
    );

    // Mystic: purchases and upgrades (rules/mystic.md 2).
    has(
        description::<Mystic>("P"),
        &[
            "bought for 1 coin",
            "ranks 2-4",
            "upgrades to a Bishop or Knight for 2 coins",
            "after 3 purchases",
        ],
    );
    has(
        description::<Mystic>("N"),
        &["upgrades to a Rook for 2 coins", "after 3 purchases"],
    );
    has(
        description::<Mystic>("B"),
        &["upgrades to a Rook for 2 coins", "after 3 purchases"],
    );
    has(
        description::<Mystic>("R"),
        &["upgrades to a Queen for 4 coins", "after 3 purchases"],
    );
    has(
        description::<Mystic>("Q"),
        &["at most one", "upgraded Rook"],
    );

    // Mulligan Stew (rules/mulligan-stew.md 2-6).
    has(
        description::<MulliganStew>("K"),
        &["two per side", "no check"],
    );
    has(
        description::<MulliganStew>("M"),
        &["swaps", "1-3 squares", "in hand", "dropped"],
    );
    has(description::<MulliganStew>("Q"), &["pool"]);
    has(
        description::<MulliganStew>("A"),
        &["teleporting", "of its colour"],
    );

    // Mitosis (rules/mitosis.md 4, 5).
    has(description::<Mitosis>("K"), &["not royal", "R, B and N"]);
    for (code, parts) in [
        ("G", "R, B and N"),
        ("Q", "R and B"),
        ("C", "R and N"),
        ("A", "B and N"),
    ] {
        has(description::<Mitosis>(code), &["splits into", parts]);
    }
    for code in ["R", "B", "N"] {
        has(description::<Mitosis>(code), &["base"]);
    }

    // Mutatis Mutandis: every state says what it becomes and whether it is royal, as the
    // engine has it.
    assert_eq!(MutatisMutandis::INFO.pieces.len(), 49);
    for p in MutatisMutandis::INFO.pieces {
        let state = State::from_code(p.code).unwrap();
        let becomes = format!("becomes {}", state.next().code());
        assert!(
            p.movement.ends_with(&becomes),
            "{}: \"{}\" not ending '{becomes}'",
            p.code,
            p.movement
        );
        let royal = p.movement.split("; ").any(|w| w == "royal");
        assert_eq!(royal, state.is_royal(), "{}: \"{}\"", p.code, p.movement);
    }
}
