//! Limited strength: `Skill Level`, `UCI_LimitStrength` / `UCI_Elo`, for every
//! variant, through the library and the protocol. Everything here is deterministic: one thread,
//! fixed nodes or depths, a fixed seed.

use crate::common;
use menagerie::variants::game_outcome;

use common::{run_binary, Engine, QUICK, SEARCH};

use menagerie::search::{search, Limits, SearchControl, SearchOptions, Skill, Tt};
use menagerie::variants::{Game, GameResult, Rules, Variant};

/// The first `n` FENs of the variant's opening book (`tests/data/<variant>.epd`).
fn book<G: Game>(n: usize) -> Vec<G> {
    let path = format!(
        "{}/tests/data/{}.epd",
        env!("CARGO_MANIFEST_DIR"),
        G::INFO.name
    );
    let text = std::fs::read_to_string(&path).expect("the book exists");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(n)
        .map(|l| G::from_fen(l).unwrap_or_else(|e| panic!("{path}: {l}: {e}")))
        .collect()
}

/// The ply a search of `pos` at strength `skill` within `nodes` plays (fresh table).
fn choice<G: Game>(pos: &G, skill: Skill, nodes: u64) -> (G::Move, u64) {
    let tt = Tt::new(4);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let options = SearchOptions {
        skill,
        ..SearchOptions::default()
    };
    let r = search(
        pos,
        &limits,
        &options,
        &tt,
        &SearchControl::default(),
        &mut |_| {},
    );
    (r.best.expect("a legal ply"), r.nodes)
}

/// The value of playing `m` at `pos` for its mover, by a `nodes` search of the position after
/// it (centipawns; mates clamped to +-2000).
fn value_of<G: Game>(pos: &G, m: G::Move, nodes: u64) -> i32 {
    let mover = pos.side_to_move();
    let mut after = pos.clone();
    after.make(m);
    if let Some(o) = game_outcome(&after) {
        return if o.result == GameResult::Draw {
            0
        } else if o.result == GameResult::win_for(mover) {
            2000
        } else {
            -2000
        };
    }
    let tt = Tt::new(4);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let r = search(
        &after,
        &limits,
        &SearchOptions::default(),
        &tt,
        &SearchControl::default(),
        &mut |_| {},
    );
    let v = match r.score {
        menagerie::search::Score::Cp(cp) => cp.clamp(-2000, 2000),
        menagerie::search::Score::Mate(n) if n > 0 => 2000,
        menagerie::search::Score::Mate(_) => -2000,
    };
    if after.side_to_move() == mover {
        v
    } else {
        -v
    }
}

/// Over the first positions of the variant's book: the average value (for the mover) of the
/// plies chosen at `levels`, judged by a deeper search.
fn average_values<G: Game>(positions: usize, levels: &[u32]) -> Vec<f64> {
    const PLAY_NODES: u64 = 3_000;
    const JUDGE_NODES: u64 = 20_000;
    let book = book::<G>(positions);
    let mut totals = vec![0i64; levels.len()];
    for pos in &book {
        for (i, &level) in levels.iter().enumerate() {
            let (m, _) = choice(pos, Skill::from_level(level), PLAY_NODES);
            totals[i] += i64::from(value_of(pos, m, JUDGE_NODES));
        }
    }
    totals
        .iter()
        .map(|&t| t as f64 / book.len() as f64)
        .collect()
}

/// Plays `menagerie match` between the engine specs `first` and `second` in `variant` (16
/// games from its book, 5000 nodes a turn, resignation at 800 cp): the first one's points.
fn match_points(variant: &str, first: &str, second: &str) -> f64 {
    let bin = env!("CARGO_BIN_EXE_menagerie");
    let book = format!("{}/tests/data/{variant}.epd", env!("CARGO_MANIFEST_DIR"));
    let out = run_binary(
        &[
            "match",
            "--engine",
            &format!("{bin} {first}"),
            "--engine",
            &format!("{bin} {second}"),
            "--variant",
            variant,
            "--games",
            "16",
            "--nodes",
            "5000",
            "--openings",
            &book,
            "--resign",
            "movecount=3 score=800",
            "--max-turns",
            "300",
        ],
        b"",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{variant}: {text}");
    let games = text
        .lines()
        .find(|l| l.starts_with("Games:"))
        .unwrap_or_else(|| panic!("{text}"));
    let words: Vec<&str> = games.split_whitespace().collect();
    let count = |key: &str| -> f64 {
        let i = words.iter().position(|w| *w == key).expect("a W/D/L count");
        words[i + 1].parse().expect("a number")
    };
    count("W:") + count("D:") / 2.0
}

/// In every variant the full search beats level 0 (`UCI_LimitStrength` with the lowest
/// `UCI_Elo`) in a short match at fixed nodes: at least 13 of 16 points. Mutatis Mutandis and
/// Mitosis are sharp enough that a depth-2 search wins a game now and then (Mutatis Mutandis
/// scored 6/8 when the match had 8 games, 14/16 with 16), which is why the match has 16 games.
/// Deterministic: one thread, fixed nodes, fixed openings.
#[test]
fn every_variant_plays_worse_at_level_0() {
    for &v in Variant::ALL {
        let points = match_points(
            v.name(),
            "name=full",
            "option.UCI_LimitStrength=true option.UCI_Elo=1000 name=weak",
        );
        assert!(
            points >= 13.0,
            "{}: the full search scored {points}/16",
            v.name()
        );
    }
}

/// On orthodox chess the limited levels choose worse moves than the full search: levels 0
/// and 5 below level 20, averaged over the book's 60 positions. Level 0 against level 5 is
/// not asserted: the test once asserted 0 < 5 (over 24 positions, once the chess evaluation
/// was Texel-tuned, level 5 came out 1 cp below level 0), and with chess's sixth network the
/// two come out equal by this measure (-28.35 against -28.75 cp over the 60 positions), so
/// the order of chess's low levels is left to the measured `UCI_Elo` ladder.
#[test]
fn chess_limited_levels_choose_worse_moves() {
    use menagerie::variants::chess::Chess;
    let values = average_values::<Chess>(60, &[0, 5, 20]);
    assert!(
        values[0] < values[2] && values[1] < values[2],
        "levels 0, 5, 20: {values:?}"
    );
}

fn full_strength_is_the_plain_search<G: Game>() {
    for pos in book::<G>(3) {
        let plain = choice(&pos, Skill::full(), 4_000);
        let twenty = choice(&pos, Skill::from_level(20), 4_000);
        assert_eq!(plain, twenty, "{}: {}", G::INFO.name, pos.fen());
    }
}

/// Level 20 is today's search: the same ply and node count (the bench total is unchanged).
#[test]
fn level_20_is_the_full_search() {
    for &v in Variant::ALL {
        menagerie::with_variant!(v, G => full_strength_is_the_plain_search::<G>());
    }
}

fn deterministic<G: Game>() {
    for pos in book::<G>(4) {
        for level in [0, 3, 12] {
            let a = choice(&pos, Skill::from_level(level), 2_000);
            let b = choice(&pos, Skill::from_level(level), 2_000);
            assert_eq!(a, b, "{} level {level}: {}", G::INFO.name, pos.fen());
        }
    }
}

/// A level and a position always give the same ply (the draw is seeded by the position).
#[test]
fn limited_strength_is_deterministic() {
    for &v in Variant::ALL {
        menagerie::with_variant!(v, G => deterministic::<G>());
    }
}

/// The protocol: the options are listed, a low level searches shallow (depth cap 1 + level),
/// `info` lines keep to the user's MultiPV, and `UCI_Elo` counts only with
/// `UCI_LimitStrength`.
#[test]
fn protocol_options() {
    let mut e = Engine::start();
    e.send("uci");
    let out = e.read_until(|l| l == "uciok", QUICK);
    for expected in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default",
        "option name UCI_ShowWDL type check default false",
    ] {
        assert!(
            out.iter().any(|l| l.starts_with(expected)),
            "missing '{expected}' in {out:#?}"
        );
    }
    let depths = |out: &[String]| -> Vec<u32> {
        out.iter()
            .filter(|l| l.starts_with("info depth"))
            .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
            .collect()
    };
    assert!(e.command("setoption name Skill Level value 2").is_empty());
    let out = e.go("go depth 12", SEARCH);
    assert_eq!(depths(&out).into_iter().max(), Some(3), "{out:#?}");
    assert!(
        out.iter()
            .filter(|l| l.starts_with("info depth"))
            .all(|l| l.contains(" multipv 1 ")),
        "only the user's MultiPV lines: {out:#?}"
    );
    // UCI_Elo alone changes nothing; with UCI_LimitStrength the lowest Elo caps the depth.
    e.command("setoption name Skill Level value 20");
    e.command("setoption name UCI_Elo value 1000");
    let out = e.go("go depth 5", SEARCH);
    assert_eq!(depths(&out).into_iter().max(), Some(5), "{out:#?}");
    e.command("setoption name UCI_LimitStrength value true");
    // The cap depends on the position (a fractional level is one ply deeper at some).
    let cap_at = |key: u64| Skill::from_elo(1000).max_depth(key).expect("limited") as u32;
    let cap = cap_at(menagerie::variants::chess::Chess::startpos().key());
    assert!(cap < 5);
    let out = e.go("go depth 5", SEARCH);
    assert_eq!(depths(&out).into_iter().max(), Some(cap), "{out:#?}");
    for bad in [
        "setoption name Skill Level value 21",
        "setoption name Skill Level value -1",
        "setoption name UCI_Elo value 10",
        "setoption name UCI_LimitStrength value maybe",
    ] {
        let out = e.command(bad);
        assert_eq!(out.len(), 1, "{bad}: {out:#?}");
        assert!(out[0].starts_with("info string error option "), "{out:#?}");
    }
    // A variant keeps the setting.
    e.command("setoption name UCI_Variant value mitosis");
    let cap = cap_at(menagerie::variants::mitosis::Mitosis::startpos().key());
    let out = e.go("go depth 6", SEARCH);
    assert_eq!(depths(&out).into_iter().max(), Some(cap), "{out:#?}");
}

/// A middle `UCI_Elo` beats the lowest one at fixed nodes (orthodox chess).
#[test]
fn a_higher_elo_plays_better() {
    let points = match_points(
        "chess",
        "option.UCI_LimitStrength=true option.UCI_Elo=2000 name=mid",
        "option.UCI_LimitStrength=true option.UCI_Elo=1000 name=low",
    );
    assert!(
        points >= 12.0,
        "UCI_Elo 2000 scored {points}/16 against 1000"
    );
}
