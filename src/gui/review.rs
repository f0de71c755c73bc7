//! A game's review (docs/gui.md "Review"): each turn classed from the drop in the mover's win
//! chance, and each side's accuracy, as lichess computes them (lila's
//! `modules/tree/src/main/Advice.scala` and `modules/analyse/src/main/AccuracyPercent.scala`,
//! described at <https://lichess.org/page/accuracy>). Pure arithmetic over the engine's scores:
//! the driver searches the positions ([`super::driver`]), this file judges them.
//!
//! A turn is what one player does before the other's turn: a turn of several portions
//! (Mulligan Stew) or parts counts once, judged from the position before its first portion to
//! the position after its last.

use serde::{Deserialize, Serialize};

use crate::client::ScoreValue;

/// Centipawns beyond which lichess counts a score as won (`Cp.CEILING`); a mate counts as this.
pub const CP_CEILING: i32 = 1000;
/// The drops in win chance, in percentage points of win% (0-100), from which a turn is an
/// inaccuracy, a mistake or a blunder: lichess's 0.1, 0.2 and 0.3 of winning chances on its
/// -1..+1 scale (`CpAdvice.winningChanceJudgements`), which are 5, 10 and 15 points of win%.
pub const THRESHOLDS: [(f64, Class); 3] = [
    (15.0, Class::Blunder),
    (10.0, Class::Mistake),
    (5.0, Class::Inaccuracy),
];

/// How good a turn was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The engine's own choice, or no worse by its scores.
    Best,
    /// A drop in win chance below the inaccuracy threshold.
    Good,
    /// A drop of 5 points of win% or more.
    Inaccuracy,
    /// A drop of 10 points or more.
    Mistake,
    /// A drop of 15 points or more.
    Blunder,
}

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 5] = [
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The class's name in the API.
    pub fn word(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }
}

/// The win chance of the side to move, in percent (0-100), from the engine's score of the
/// position: its WDL where it gives one (win plus half the draws, per mille), else lichess's
/// logistic of the centipawns, capped at [`CP_CEILING`]: `50 + 50 (2 / (1 + e^(-0.00368208 cp))
/// - 1)`. A mate for the side to move is 100, against it 0.
pub fn win_percent(score: ScoreValue, wdl: Option<[u32; 3]>) -> f64 {
    if let Some([w, d, l]) = wdl {
        let total = f64::from(w + d + l);
        if total > 0.0 {
            return 100.0 * (f64::from(w) + f64::from(d) / 2.0) / total;
        }
    }
    let cp = match score {
        ScoreValue::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
        ScoreValue::Mate(m) if m > 0 => CP_CEILING,
        ScoreValue::Mate(_) => -CP_CEILING,
    };
    50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * f64::from(cp)).exp()) - 1.0)
}

/// The class of a turn that took the mover's win chance from `before` to `after` (percent).
/// `engine_choice` says whether it was the engine's best turn in the position before.
pub fn classify(before: f64, after: f64, engine_choice: bool) -> Class {
    let drop = before - after;
    if engine_choice || drop <= 0.0 {
        return Class::Best;
    }
    THRESHOLDS
        .iter()
        .find(|(t, _)| drop >= *t)
        .map_or(Class::Good, |&(_, c)| c)
}

/// The accuracy of one turn, in percent (0-100), from the mover's win chance before and after
/// it (lichess's `AccuracyPercent.fromWinPercents`): 100 when it did not drop, else
/// `103.1668 e^(-0.04354 drop) - 3.1669`, plus lichess's 1 point for the analysis's own
/// uncertainty, within 0-100.
pub fn turn_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// One judged turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// Index of the mover: 0 White, 1 Black.
    pub mover: usize,
    /// The mover's win chance before the turn, percent.
    pub before: f64,
    /// The mover's win chance after it, percent.
    pub after: f64,
}

/// Each side's accuracy over a game, in percent, as lichess aggregates it
/// (`AccuracyPercent.gameAccuracy`): the mean of a volatility-weighted mean and the harmonic
/// mean of the side's turn accuracies. The weight of a turn is the standard deviation of White's
/// win chance over a window of positions around it (the window `turns / 10` positions, within
/// 2-8; the weight within 0.5-12). `white_win[i]` is White's win chance at position `i` (the
/// position after `i` turns), so it has one more entry than `turns`. `None` for a side with no
/// turn.
pub fn game_accuracy(white_win: &[f64], turns: &[Judged]) -> [Option<f64>; 2] {
    let window = (turns.len() / 10).clamp(2, 8).min(white_win.len().max(1));
    // lichess pads the front with copies of the first window, so that every turn has one.
    let mut weights = Vec::with_capacity(turns.len());
    let pad = window.saturating_sub(2);
    for _ in 0..pad {
        weights.push(std_dev(&white_win[..window]));
    }
    for w in white_win.windows(window) {
        weights.push(std_dev(w));
    }
    let weights: Vec<f64> = weights.into_iter().map(|w| w.clamp(0.5, 12.0)).collect();
    let mut out = [None, None];
    for (side, slot) in out.iter_mut().enumerate() {
        let mine: Vec<(f64, f64)> = turns
            .iter()
            .zip(weights.iter().chain(std::iter::repeat(&0.5)))
            .filter(|(t, _)| t.mover == side)
            .map(|(t, &w)| (turn_accuracy(t.before, t.after), w))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let total_weight: f64 = mine.iter().map(|(_, w)| w).sum();
        let weighted = mine.iter().map(|(a, w)| a * w).sum::<f64>() / total_weight;
        // lichess's harmonic mean counts an accuracy below 1 as 1.
        let harmonic = mine.len() as f64 / mine.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        *slot = Some((weighted + harmonic) / 2.0);
    }
    out
}

/// The population standard deviation.
fn std_dev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// The engine's word on one position of a reviewed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionEval {
    /// Its score, from the side to move's point of view (`None`: the engine gave none).
    pub score: Option<ScoreValue>,
    /// Its win, draw and loss chances for the side to move, per mille, where the engine gives
    /// them.
    pub wdl: Option<[u32; 3]>,
    /// The engine's best turn there (`None` where there is no turn: the game is over).
    pub best: Option<String>,
    /// That turn in the game's notation.
    pub best_notation: Option<String>,
}

/// One reviewed turn (`GET /api/games/{id}/review`'s `plies`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewedTurn {
    /// The turn's index: it was played at the position after `ply` turns.
    pub ply: usize,
    /// `white` or `black`.
    pub mover: String,
    /// The turn played (its token) and its notation.
    pub played: String,
    /// The turn played in the game's notation.
    pub played_notation: String,
    /// The score of the position after the turn, from White's point of view (`null` where the
    /// game is over there).
    pub eval: Option<ScoreValue>,
    /// The mover's win chance before and after the turn, percent.
    pub win_before: f64,
    /// See `win_before`.
    pub win_after: f64,
    /// The engine's best turn at the position before (token), and its notation.
    pub best: Option<String>,
    /// See `best`.
    pub best_notation: Option<String>,
    /// The turn's class.
    pub class: Class,
}

/// A game's review, as `GET /api/games/{id}/review` answers it and as it is saved beside the
/// game (`<id>.review.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The nodes searched at each position.
    pub nodes: u64,
    /// The turns reviewed (tokens): a review of other turns is not the game's.
    pub moves: Vec<String>,
    /// One entry per turn.
    pub plies: Vec<ReviewedTurn>,
    /// Each side's accuracy, percent (`null` for a side without turns).
    pub accuracy: Sides<Option<f64>>,
    /// Each side's count of each class (`{"best": n, "good": n, ...}`).
    pub counts: Sides<std::collections::BTreeMap<String, usize>>,
    /// The engine's word on every position (one more than the turns).
    pub positions: Vec<PositionEval>,
}

/// A value for each side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sides<T> {
    /// White's.
    pub white: T,
    /// Black's.
    pub black: T,
}

/// What the review needs of the game: for each position (one more than the turns) its FEN's
/// side to move (0 White, 1 Black); the turns played, as tokens and in notation; and the
/// result's score (`1-0`, `0-1`, `1/2-1/2`) if the game is over.
pub struct GameLine<'a> {
    /// The side to move of each position.
    pub movers: &'a [usize],
    /// The turns played.
    pub moves: &'a [String],
    /// The turns in notation.
    pub notation: &'a [String],
    /// The result's score.
    pub result: Option<&'a str>,
}

/// The side to move's win chance at a position, percent. A position with no turn (the game is
/// over there) takes the game's result where there is one (100 for the winner, 50 a draw),
/// else the engine's score; a mate already on the board (`mate 0`) is 0.
fn position_win(p: &PositionEval, mover: usize, result: Option<&str>) -> f64 {
    if p.best.is_none() {
        match result {
            Some("1/2-1/2") => return 50.0,
            Some("1-0") => return if mover == 0 { 100.0 } else { 0.0 },
            Some("0-1") => return if mover == 1 { 100.0 } else { 0.0 },
            _ => {}
        }
    }
    match p.score {
        Some(ScoreValue::Mate(0)) => 0.0,
        Some(s) => win_percent(s, p.wdl),
        None => 50.0,
    }
}

/// The review of a game from the engine's word on each of its positions
/// (`positions.len() == line.moves.len() + 1`).
pub fn review(nodes: u64, line: &GameLine, positions: Vec<PositionEval>) -> Review {
    let n = line.moves.len();
    let last = positions.len().saturating_sub(1);
    // White's win chance at each position; the result counts only at the last.
    let side_win: Vec<f64> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let result = if i == last { line.result } else { None };
            position_win(p, line.movers[i], result)
        })
        .collect();
    let white_win: Vec<f64> = side_win
        .iter()
        .zip(line.movers)
        .map(|(w, &m)| if m == 0 { *w } else { 100.0 - w })
        .collect();
    let mut judged = Vec::with_capacity(n);
    let mut plies = Vec::with_capacity(n);
    let mut counts = [
        std::collections::BTreeMap::new(),
        std::collections::BTreeMap::new(),
    ];
    for c in &mut counts {
        for class in Class::ALL {
            c.insert(class.word().to_string(), 0usize);
        }
    }
    for i in 0..n.min(last) {
        let mover = line.movers[i];
        let before = side_win[i];
        let after = if line.movers[i + 1] == mover {
            side_win[i + 1]
        } else {
            100.0 - side_win[i + 1]
        };
        let best = positions[i].best.clone();
        let class = classify(
            before,
            after,
            best.as_deref() == Some(line.moves[i].as_str()),
        );
        *counts[mover].entry(class.word().to_string()).or_insert(0) += 1;
        judged.push(Judged {
            mover,
            before,
            after,
        });
        // No score where the game is over (the result says it).
        let eval = positions[i + 1]
            .score
            .filter(|_| positions[i + 1].best.is_some())
            .map(|s| {
                if line.movers[i + 1] == 0 {
                    s
                } else {
                    match s {
                        ScoreValue::Cp(c) => ScoreValue::Cp(-c),
                        ScoreValue::Mate(m) => ScoreValue::Mate(-m),
                    }
                }
            });
        plies.push(ReviewedTurn {
            ply: i,
            mover: if mover == 0 { "white" } else { "black" }.to_string(),
            played: line.moves[i].clone(),
            played_notation: line.notation.get(i).cloned().unwrap_or_default(),
            eval,
            win_before: before,
            win_after: after,
            best,
            best_notation: positions[i].best_notation.clone(),
            class,
        });
    }
    let [w, b] = game_accuracy(&white_win, &judged);
    let [cw, cb] = counts;
    Review {
        nodes,
        moves: line.moves.to_vec(),
        plies,
        accuracy: Sides { white: w, black: b },
        counts: Sides {
            white: cw,
            black: cb,
        },
        positions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_percent_is_lichess_logistic() {
        assert!((win_percent(ScoreValue::Cp(0), None) - 50.0).abs() < 1e-9);
        // +100 cp is about 59.1% (lichess's accuracy page: "a +1 pawn advantage").
        let p = win_percent(ScoreValue::Cp(100), None);
        assert!((p - 59.1).abs() < 0.1, "{p}");
        assert!(
            (win_percent(ScoreValue::Cp(-100), None) + p - 100.0).abs() < 1e-9,
            "symmetric"
        );
        // Capped at 1000 cp; a mate counts as the cap.
        assert_eq!(
            win_percent(ScoreValue::Cp(5000), None),
            win_percent(ScoreValue::Cp(1000), None)
        );
        assert_eq!(
            win_percent(ScoreValue::Mate(3), None),
            win_percent(ScoreValue::Cp(1000), None)
        );
        assert_eq!(
            win_percent(ScoreValue::Mate(-2), None),
            win_percent(ScoreValue::Cp(-1000), None)
        );
        // The WDL wins over the centipawns: win plus half the draws.
        assert_eq!(
            win_percent(ScoreValue::Cp(900), Some([200, 600, 200])),
            50.0
        );
        assert_eq!(win_percent(ScoreValue::Cp(0), Some([1000, 0, 0])), 100.0);
    }

    #[test]
    fn turns_are_classed_by_their_drop() {
        assert_eq!(classify(60.0, 60.0, false), Class::Best);
        assert_eq!(classify(60.0, 70.0, false), Class::Best);
        assert_eq!(
            classify(60.0, 10.0, true),
            Class::Best,
            "the engine's choice"
        );
        assert_eq!(classify(60.0, 55.1, false), Class::Good);
        assert_eq!(classify(60.0, 55.0, false), Class::Inaccuracy);
        assert_eq!(classify(60.0, 50.0, false), Class::Mistake);
        assert_eq!(classify(60.0, 45.0, false), Class::Blunder);
        assert_eq!(classify(90.0, 0.0, false), Class::Blunder);
    }

    #[test]
    fn turn_accuracy_follows_lichess_curve() {
        assert_eq!(turn_accuracy(50.0, 50.0), 100.0);
        assert_eq!(turn_accuracy(40.0, 60.0), 100.0);
        // The fitted curve: 100 at no drop (before the bonus), about 20 at a drop of 40.
        let a10 = turn_accuracy(60.0, 50.0);
        assert!(
            (a10 - (103.1668 * (-0.4354f64).exp() - 3.1669 + 1.0)).abs() < 1e-2,
            "{a10}"
        );
        assert!(turn_accuracy(100.0, 0.0) >= 0.0);
        assert!(turn_accuracy(100.0, 0.0) < 1.0);
        let mut last = 100.0;
        for drop in 1..=100 {
            let a = turn_accuracy(100.0, 100.0 - f64::from(drop));
            assert!(a <= last && (0.0..=100.0).contains(&a));
            last = a;
        }
    }

    #[test]
    fn game_accuracy_rewards_the_side_that_keeps_its_chances() {
        // White keeps 50%; Black's fourth turn (the eighth of the game) gives 40 points away.
        let white_win = [50.0, 50.0, 50.0, 50.0, 50.0, 50.0, 50.0, 50.0, 90.0];
        let turns: Vec<Judged> = (0..8)
            .map(|i| {
                let mover = i % 2;
                let (b, a) = (white_win[i], white_win[i + 1]);
                let (before, after) = if mover == 0 {
                    (b, a)
                } else {
                    (100.0 - b, 100.0 - a)
                };
                Judged {
                    mover,
                    before,
                    after,
                }
            })
            .collect();
        let [w, b] = game_accuracy(&white_win, &turns);
        let (w, b) = (w.unwrap(), b.unwrap());
        assert!((w - 100.0).abs() < 1e-9, "{w}");
        assert!(b < 80.0 && b > 0.0, "{b}");
        // A side without turns has none.
        assert_eq!(game_accuracy(&white_win[..2], &turns[..1])[1], None);
    }
}
