//! The Muster (rules/muster.md 3 and 3.1): the engine's answers to `muster propose` (design an
//! army) and `muster choose` (pick one of two revealed armies), both decided by the engine's
//! own search through the probe the protocol hands in.
//!
//! - E(X, Y): White's expected score in the start position of White army X against Black army
//!   Y, from a short search: 1 / (1 + 10^(-v/400)) for an evaluation v (centipawns, White's
//!   view); 1 when Black starts in check (D3).
//! - The choice is the 2x2 zero-sum game of 3.1, solved exactly (saddle point or mixed
//!   equilibrium): the answer is the row with the larger equilibrium probability, a tie goes to
//!   the engine's own army.
//! - The proposal is a hill-climb over legal armies (add, remove, change type, move a piece)
//!   whose objective is the equilibrium value of that game against the regular army, within
//!   the time given; armies whose King could be attacked at move 0 are never proposed (D3).

use std::time::{Duration, Instant};

use super::army::{home_half, Army};
use super::position::Muster;
use crate::core::zobrist::SplitMix64;
use crate::core::Color;
use crate::variants::orthodox::Kind;
use crate::variants::{Notation, ProbeLimits, PROBE_MATE};

/// Time used when a command gives no `movetime` (ms).
pub const DEFAULT_MOVETIME_MS: u64 = 1000;
/// Node cap of one probe when choosing (three probes share the time).
const CHOOSE_NODES: u64 = 2_000_000;
/// Node cap of one probe of the army design (a cheap E, rules/muster.md 3.1).
const PROPOSE_NODES: u64 = 4_000;
/// The most steps of the hill-climb (the time limit usually ends it first).
const MAX_PROPOSE_STEPS: usize = 10_000;

/// The engine's search as handed in by the protocol (see `Notation::variant_command`).
pub type Probe<'a> = &'a mut dyn FnMut(&Muster, ProbeLimits) -> Option<i32>;

fn color_word(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_color(word: Option<&str>, what: &str) -> Result<Color, String> {
    match word {
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        Some(w) => Err(format!(
            "muster: {what} must be 'white' or 'black', got '{w}'"
        )),
        None => Err(format!("muster: missing {what} ('white' or 'black')")),
    }
}

fn parse_movetime(words: &[&str]) -> Result<u64, String> {
    match words {
        [] => Ok(DEFAULT_MOVETIME_MS),
        ["movetime", ms] => ms
            .parse::<u64>()
            .map_err(|_| format!("muster: movetime needs milliseconds, got '{ms}'")),
        ["movetime"] => Err("muster: missing the milliseconds after movetime".into()),
        [w, ..] => Err(format!("muster: unexpected '{w}'")),
    }
}

/// Runs a `muster ...` line (rules/muster.md 3.1, D4):
/// `muster propose <white|black> [movetime <ms>]` -> `muster army <halfFEN>`;
/// `muster choose white <half> black <half> mustered <white|black> [movetime <ms>]` ->
/// `muster choice <white|black>`; `muster assign ...` -> `muster start ...` (see `assign`).
///
/// Errors: a message naming what is wrong (unknown sub-command, missing or bad word, a
/// malformed or illegal army with the reason).
pub fn command(line: &str, probe: Probe<'_>) -> Result<String, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.get(1).copied() {
        Some("propose") => {
            let color = parse_color(words.get(2).copied(), "the army's colour")?;
            let ms = parse_movetime(words.get(3..).unwrap_or(&[]))?;
            let army = propose(color, ms, probe);
            Ok(format!("muster army {}", army.half_fen()))
        }
        Some("choose") => {
            let mut white = None;
            let mut black = None;
            let mut mustered = None;
            let mut i = 2;
            while i < words.len() {
                match words[i] {
                    "white" | "black" | "mustered" => {
                        let v = words.get(i + 1).copied().ok_or_else(|| {
                            format!("muster choose: missing value after '{}'", words[i])
                        })?;
                        match words[i] {
                            "white" => white = Some(v),
                            "black" => black = Some(v),
                            _ => mustered = Some(parse_color(Some(v), "mustered")?),
                        }
                        i += 2;
                    }
                    "movetime" => break,
                    w => return Err(format!("muster choose: unexpected '{w}'")),
                }
            }
            let ms = parse_movetime(&words[i..])?;
            let white = white.ok_or("muster choose: missing 'white <halfFEN>'")?;
            let black = black.ok_or("muster choose: missing 'black <halfFEN>'")?;
            let mustered = mustered.ok_or("muster choose: missing 'mustered <white|black>'")?;
            let w = Army::parse(Color::White, white).map_err(|e| e.to_string())?;
            let b = Army::parse(Color::Black, black).map_err(|e| e.to_string())?;
            let choice = choose(&w, &b, mustered, ms, probe);
            Ok(format!("muster choice {}", color_word(choice)))
        }
        Some("assign") => assign(&words[2..]),
        Some(w) => Err(format!(
            "muster: unknown sub-command '{w}' (expected propose, choose or assign)"
        )),
        None => Err("muster: missing sub-command (propose, choose or assign)".into()),
    }
}

/// `muster assign white <half> black <half> picks <P_W's pick> <P_B's pick>` -> `muster start
/// <colour P_W plays> <FEN>`: the table of rules/muster.md 3 applied to the two picks (P_W built
/// the White army, P_B the Black one), as written there (its fourth row included, see the
/// rules' known differences), and the start position of the game (`Muster::from_armies`: White
/// to move, the rights of section 5.4). A GUI thus never applies the table itself.
///
/// Errors: a missing or unexpected word, a pick that is not `white` or `black`, an illegal army.
fn assign(words: &[&str]) -> Result<String, String> {
    let [w_key, white, b_key, black, p_key, pick_w, pick_b] = words else {
        return Err(
            "muster assign: expected 'white <halfFEN> black <halfFEN> picks <white|black> <white|black>'"
                .into(),
        );
    };
    if (*w_key, *b_key, *p_key) != ("white", "black", "picks") {
        return Err(
            "muster assign: expected 'white <halfFEN> black <halfFEN> picks <white|black> <white|black>'"
                .into(),
        );
    }
    let w =
        Army::parse(Color::White, white).map_err(|e| format!("bad white army '{white}': {e}"))?;
    let b =
        Army::parse(Color::Black, black).map_err(|e| format!("bad black army '{black}': {e}"))?;
    let pick_w = parse_color(Some(pick_w), "P_W's pick")?;
    let pick_b = parse_color(Some(pick_b), "P_B's pick")?;
    let (pw_plays, white_army, black_army) = match (pick_w, pick_b) {
        // Different picks: each player gets the army picked.
        (Color::White, Color::Black) => (Color::White, w, b),
        (Color::Black, Color::White) => (Color::Black, w, b),
        // Both pick W: W goes to P_B, who did not build it; P_W plays Black, regular army.
        (Color::White, Color::White) => (Color::Black, w, Army::regular(Color::Black)),
        // Both pick B: the table's fourth row as written: P_W plays White with the regular
        // army, P_B Black with B.
        (Color::Black, Color::Black) => (Color::White, Army::regular(Color::White), b),
    };
    let fen = Muster::from_armies(&white_army, &black_army).fen();
    Ok(format!("muster start {} {fen}", color_word(pw_plays)))
}

/// White's expected score E(X, Y) (rules/muster.md 3.1) from one probe within `limits`;
/// `None` when the engine was told to stop.
pub fn expected_score(
    white: &Army,
    black: &Army,
    limits: ProbeLimits,
    probe: Probe<'_>,
) -> Option<f64> {
    let pos = Muster::from_armies(white, black);
    if pos.king_capturable() {
        return Some(1.0); // D3: White wins at once
    }
    let v = probe(&pos, limits)?.clamp(-PROBE_MATE, PROBE_MATE);
    // White is to move in a start position: the probe's view is White's.
    Some(1.0 / (1.0 + 10f64.powf(-(v as f64) / 400.0)))
}

/// Solves the 2x2 zero-sum game `a` for the row player (who maximises): the probability of
/// row 0 at equilibrium and the game's value. When pure optimal strategies exist in both
/// rows (ties), the probability is 0.5.
pub fn solve_2x2(a: [[f64; 2]; 2]) -> (f64, f64) {
    let mut rows = [false; 2];
    let mut value = None;
    for i in 0..2 {
        for j in 0..2 {
            // A saddle point: the least of its row and the largest of its column.
            if a[i][j] <= a[i][1 - j] && a[i][j] >= a[1 - i][j] {
                rows[i] = true;
                value = Some(a[i][j]);
            }
        }
    }
    if let Some(v) = value {
        let p = match rows {
            [true, true] => 0.5,
            [true, false] => 1.0,
            _ => 0.0,
        };
        return (p, v);
    }
    let d = a[0][0] - a[0][1] - a[1][0] + a[1][1];
    let p = (a[1][1] - a[1][0]) / d;
    let v = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / d;
    (p.clamp(0.0, 1.0), v)
}

/// The payoff matrix of the Muster game for the player who mustered `mustered`, rows = this
/// player chooses W / B, columns = the other player chooses W / B, from E1 = E(W, B),
/// E2 = E(W, Reg_b), E3 = E(Reg_w, B), exactly as rules/muster.md 3.1 writes them:
/// `[[1-E2, E1], [1-E1, E3]]` for P_W and `[[E2, E1], [1-E1, E3]]` for P_B.
///
/// Note: the two matrices read the both-choose-B cell differently. P_W's E3 follows the table
/// of section 3 (P_W gets the regular White army against B); P_B's E3 follows the seed's rule
/// and the remark of 3.1 (B goes to the player who did not muster it, so P_B plays the
/// regular White army against B). Each is implemented as written.
pub fn payoff(mustered: Color, e1: f64, e2: f64, e3: f64) -> [[f64; 2]; 2] {
    match mustered {
        Color::White => [[1.0 - e2, e1], [1.0 - e1, e3]],
        Color::Black => [[e2, e1], [1.0 - e1, e3]],
    }
}

/// `muster choose` (rules/muster.md 3.1): the colour of the army the engine takes (its own
/// army when told to stop before the three probes are done).
pub fn choose(white: &Army, black: &Army, mustered: Color, ms: u64, probe: Probe<'_>) -> Color {
    let limits = ProbeLimits {
        nodes: CHOOSE_NODES,
        movetime_ms: (ms / 3).max(1),
    };
    let reg_w = Army::regular(Color::White);
    let reg_b = Army::regular(Color::Black);
    let scores = (|| {
        Some((
            expected_score(white, black, limits, probe)?,
            expected_score(white, &reg_b, limits, probe)?,
            expected_score(&reg_w, black, limits, probe)?,
        ))
    })();
    let Some((e1, e2, e3)) = scores else {
        return mustered;
    };
    let (p, _) = solve_2x2(payoff(mustered, e1, e2, e3));
    if p > 0.5 {
        Color::White
    } else if p < 0.5 {
        Color::Black
    } else {
        mustered
    }
}

/// Whether the King of `army` could be attacked at move 0 by some opponent army (rules/muster.md
/// 3.1, D3 filter): it stands beyond the second rank, or a line from it reaches the enemy half
/// without meeting an own piece.
pub fn king_exposed(army: &Army) -> bool {
    let k = army.king_sq();
    let rel = match army.color() {
        Color::White => k / 8 + 1,
        Color::Black => 8 - k / 8,
    };
    if rel > 2 {
        return true;
    }
    let own = army.occupied();
    let enemy_half = home_half(!army.color());
    for (df, dr) in [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        let (mut f, mut r) = ((k % 8) as i32, (k / 8) as i32);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let sq = (r * 8 + f) as u8;
            if own & (1u64 << sq) != 0 {
                break;
            }
            if enemy_half & (1u64 << sq) != 0 {
                return true;
            }
        }
    }
    false
}

/// One random change of `army` (rules/muster.md 3.1: add, remove, change type, move a piece),
/// `None` when the result is no legal army.
fn mutate(army: &Army, rng: &mut SplitMix64) -> Option<Army> {
    const KINDS: [Kind; 5] = [
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
    ];
    let mut pieces = army.pieces();
    let empty: Vec<u8> = (0..64u8)
        .filter(|&s| home_half(army.color()) & (1u64 << s) != 0 && army.at(s).is_none())
        .collect();
    let others: Vec<usize> = (0..pieces.len())
        .filter(|&i| pieces[i].1 != Kind::King)
        .collect();
    let pick = |rng: &mut SplitMix64, n: usize| rng.below(n as u64) as usize;
    match rng.below(4) {
        0 if !empty.is_empty() => {
            let sq = empty[pick(rng, empty.len())];
            pieces.push((sq, KINDS[pick(rng, KINDS.len())]));
        }
        1 if !others.is_empty() => {
            pieces.remove(others[pick(rng, others.len())]);
        }
        2 if !others.is_empty() => {
            let i = others[pick(rng, others.len())];
            pieces[i].1 = KINDS[pick(rng, KINDS.len())];
        }
        3 if !empty.is_empty() => {
            let i = pick(rng, pieces.len());
            pieces[i].0 = empty[pick(rng, empty.len())];
        }
        _ => return None,
    }
    Army::from_pieces(army.color(), &pieces).ok()
}

/// `muster propose` (rules/muster.md 3.1): a legal army of `color` whose Muster game against
/// the regular army has the best equilibrium value found within about `ms` milliseconds (or
/// until the engine is told to stop). Falls back to the regular army.
pub fn propose(color: Color, ms: u64, probe: Probe<'_>) -> Army {
    let start = Instant::now();
    let deadline = start + Duration::from_millis(ms.saturating_sub(ms / 10).max(1));
    let reg_w = Army::regular(Color::White);
    let reg_b = Army::regular(Color::Black);
    let regular = Army::regular(color);
    let limits = |now: Instant| ProbeLimits {
        nodes: PROPOSE_NODES,
        movetime_ms: deadline.saturating_duration_since(now).as_millis().max(1) as u64,
    };
    // E of the two regular armies, shared by every candidate.
    let Some(e_reg) = expected_score(&reg_w, &reg_b, limits(Instant::now()), probe) else {
        return regular;
    };
    let value_of = |army: &Army, probe: Probe<'_>| -> Option<f64> {
        let l = limits(Instant::now());
        let (e1, e2, e3) = match color {
            Color::White => {
                let e = expected_score(army, &reg_b, l, probe)?;
                (e, e, e_reg)
            }
            Color::Black => {
                let e = expected_score(&reg_w, army, l, probe)?;
                (e, e_reg, e)
            }
        };
        Some(solve_2x2(payoff(color, e1, e2, e3)).1)
    };
    let mut best = regular.clone();
    let Some(mut best_value) = value_of(&regular, probe) else {
        return regular;
    };
    let mut current = regular;
    let mut current_value = best_value;
    let mut rng = SplitMix64::new(0x6d75_7374_6572 ^ color as u64);
    for _ in 0..MAX_PROPOSE_STEPS {
        if Instant::now() >= deadline {
            break;
        }
        let Some(candidate) = mutate(&current, &mut rng) else {
            continue;
        };
        if king_exposed(&candidate) {
            continue;
        }
        let Some(v) = value_of(&candidate, probe) else {
            break; // told to stop
        };
        if Instant::now() >= deadline {
            break; // a probe cut short by the clock is not trusted
        }
        // Hill-climbing that also takes sideways steps.
        if v >= current_value {
            current = candidate;
            current_value = v;
            if v > best_value {
                best = current.clone();
                best_value = v;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saddle_points_and_mixed_equilibria() {
        // A saddle in row 0.
        assert_eq!(solve_2x2([[0.6, 0.7], [0.4, 0.5]]), (1.0, 0.6));
        // Matching pennies: mixed, p = 1/2, value 0.5.
        let (p, v) = solve_2x2([[1.0, 0.0], [0.0, 1.0]]);
        assert!((p - 0.5).abs() < 1e-9 && (v - 0.5).abs() < 1e-9);
        // Mixed: rows [[0, 3], [2, 1]] -> p = (1-2)/(0-3-2+1) = 1/4, value 6/4.
        let (p, v) = solve_2x2([[0.0, 3.0], [2.0, 1.0]]);
        assert!((p - 0.25).abs() < 1e-9, "{p}");
        assert!((v - 1.5).abs() < 1e-9, "{v}");
    }

    #[test]
    fn payoffs_are_as_written_and_punish_overwhelming_armies() {
        // rules/muster.md 3.1, both matrices as written.
        assert_eq!(
            payoff(Color::White, 0.7, 0.6, 0.4),
            [[1.0 - 0.6, 0.7], [1.0 - 0.7, 0.4]]
        );
        assert_eq!(
            payoff(Color::Black, 0.7, 0.6, 0.4),
            [[0.6, 0.7], [1.0 - 0.7, 0.4]]
        );
        // Against the regular army (E2 = E1 for a White musterer): an army that wins for sure
        // is worth nothing (both players pick it and the musterer gets the regular army),
        // an even one about half.
        let strong = solve_2x2(payoff(Color::White, 1.0, 1.0, 0.52)).1;
        let even = solve_2x2(payoff(Color::White, 0.52, 0.52, 0.52)).1;
        assert!(strong < 0.01 && even > 0.45, "{strong} {even}");
        // For a Black musterer (E3 = E1): likewise.
        let strong = solve_2x2(payoff(Color::Black, 0.0, 0.52, 0.0)).1;
        let even = solve_2x2(payoff(Color::Black, 0.52, 0.52, 0.52)).1;
        assert!(strong < 0.01 && even > 0.45, "{strong} {even}");
    }

    #[test]
    fn exposed_kings_are_found() {
        // rules/muster.md 3.1 D3 filter.
        assert!(!king_exposed(&Army::regular(Color::White)));
        assert!(!king_exposed(&Army::regular(Color::Black)));
        assert!(king_exposed(
            &Army::parse(Color::White, "8/8/8/4K3").unwrap()
        ));
        assert!(king_exposed(
            &Army::parse(Color::White, "8/8/4K3/8").unwrap()
        ));
        assert!(king_exposed(
            &Army::parse(Color::Black, "rnbqkbnr/pppp1ppp/8/8").unwrap()
        ));
    }

    #[test]
    fn mutations_keep_armies_legal() {
        let mut rng = SplitMix64::new(3);
        let mut a = Army::regular(Color::Black);
        for _ in 0..2000 {
            if let Some(b) = mutate(&a, &mut rng) {
                assert_eq!(Army::parse(Color::Black, &b.half_fen()).as_ref(), Ok(&b));
                a = b;
            }
        }
    }
}
