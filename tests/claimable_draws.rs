//! Draws a player may only claim do not end an orthodox game (FIDE 9.2
//! threefold repetition, 9.3 the 50-move rule): the engine plays on and says
//! `info string draw claimable {<rule>}` before its `bestmove`; fivefold repetition and the
//! 75-move rule end the game by themselves (FIDE 9.6). The variants keep the draws their rules
//! files make automatic.

use crate::common;
use menagerie::variants::{claimable_draw, game_outcome};

use common::{assert_game_over, bestmove, Engine, SEARCH};
use menagerie::variants::chess::Chess;
use menagerie::variants::mystic::Mystic;
use menagerie::variants::Scope;
use menagerie::variants::{Notation, Rules};

/// The knights' shuffle that brings the start position back every four plies.
const SHUFFLE: &str = "g1f3 g8f6 f3g1 f6g8";

fn shuffles(n: usize) -> String {
    vec![SHUFFLE; n].join(" ")
}

/// `position` then `go depth 3`: the lines up to `bestmove`.
fn go_at(e: &mut Engine, position: &str) -> Vec<String> {
    e.send(position);
    e.go("go depth 3", SEARCH)
}

fn assert_plays_on_with_claim(out: &[String], position: &str, rule: &str) {
    let claim = format!("info string draw claimable {{{rule}}}");
    let at = out.iter().position(|l| *l == claim);
    assert!(at.is_some(), "{position}: no '{claim}' in {out:#?}");
    let best = bestmove(out);
    assert_ne!(best, "(none)", "{position}: the game goes on: {out:#?}");
    assert!(
        !out.iter().any(|l| l.starts_with("info string result")),
        "{position}: {out:#?}"
    );
}

#[test]
fn threefold_repetition_is_claimable_and_the_engine_plays_on() {
    // FIDE 9.2: the start position for the third time.
    let mut e = Engine::start();
    let position = format!("position startpos moves {}", shuffles(2));
    let out = go_at(&mut e, &position);
    assert_plays_on_with_claim(&out, &position, "threefold repetition");
    // No claim before the third occurrence.
    let position = format!("position startpos moves {}", shuffles(1));
    let out = go_at(&mut e, &position);
    assert!(
        !out.iter().any(|l| l.contains("claimable")),
        "{position}: {out:#?}"
    );
}

#[test]
fn fifty_move_rule_is_claimable_and_the_engine_plays_on() {
    // FIDE 9.3: 50 moves of each player without a pawn move or a capture.
    let mut e = Engine::start();
    let position = "position fen 4k3/8/8/8/8/8/8/R3K3 w - - 99 80 moves a1a2";
    let out = go_at(&mut e, position);
    assert_plays_on_with_claim(&out, position, "fifty-move rule");
}

#[test]
fn fivefold_repetition_and_75_moves_end_the_game() {
    // FIDE 9.6.1 and 9.6.2: no claim needed.
    let mut e = Engine::start();
    let position = format!("position startpos moves {}", shuffles(4));
    let out = go_at(&mut e, &position);
    assert_game_over(
        &out,
        &position,
        Some("info depth 0 score cp 0"),
        "1/2-1/2 {fivefold repetition}",
    );
    let position = "position fen 4k3/8/8/8/8/8/8/R3K3 w - - 149 120 moves a1a2";
    let out = go_at(&mut e, position);
    assert_game_over(
        &out,
        position,
        Some("info depth 0 score cp 0"),
        "1/2-1/2 {seventy-five-move rule}",
    );
}

#[test]
fn the_library_separates_game_over_from_claimable() {
    let mut p = Chess::startpos();
    for t in shuffles(2).split_whitespace() {
        let m = p.parse_move(t).unwrap();
        p.make(m);
    }
    assert_eq!(game_outcome(&p), None);
    assert_eq!(claimable_draw(&p), Some("threefold repetition"));
    // The search may still score the repetition as a draw.
    assert!(p.verdict(Scope::Search(4)).is_some());
}

#[test]
fn variants_keep_the_draws_their_rules_files_make_automatic() {
    // rules/mystic.md 3: "Threefold repetition is a draw", "The 50-move rule is a draw when
    // the clock reaches 100": the game ends there, nothing is left to claim.
    let mut p = Mystic::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 coins:0/0 bought:3/3").unwrap();
    for t in "e1d1 e8d8 d1e1 d8e8 e1d1 e8d8 d1e1 d8e8".split_whitespace() {
        let m = p.parse_move(t).unwrap();
        p.make(m);
    }
    assert_eq!(
        game_outcome(&p).map(|o| o.reason),
        Some("threefold repetition".to_string())
    );
    assert_eq!(claimable_draw(&p), None);
    let p = Mystic::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80 coins:0/0 bought:3/3").unwrap();
    assert_eq!(
        game_outcome(&p).map(|o| o.reason),
        Some("fifty-move rule".to_string())
    );
}
