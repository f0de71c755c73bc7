//! Complete games through the protocol (design.md "When a variant is done", items 7 and 9):
//! for every registered variant the engine plays itself at a small node budget; every
//! `bestmove` must be legal (checked by the library), no `info string error` may appear, and a
//! game that ends must end with `info string result` matching the library's outcome and
//! `bestmove (none)`.

use crate::common;
use menagerie::variants::game_outcome;

use common::{assert_game_over, bestmove, Engine, SEARCH};

use menagerie::variants::turn::{self, Extent, Reading};
use menagerie::variants::{Game, Variant};

/// Plays one game of `G` from its start position; returns (plies, result line if the game ended).
fn self_play<G: Game>(e: &mut Engine, nodes: u32, max_turns: usize) -> (usize, Option<String>) {
    e.send(&format!(
        "setoption name UCI_Variant value {}",
        G::INFO.name
    ));
    e.send("ucinewgame");
    let mut pos = G::startpos();
    let mut turns: Vec<String> = Vec::new();
    for _ in 0..max_turns {
        let cmd = if turns.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", turns.join(" "))
        };
        e.send(&cmd);
        let out = e.go(&format!("go nodes {nodes}"), SEARCH);
        let best = bestmove(&out);
        if best == "(none)" {
            let o = game_outcome(&pos)
                .unwrap_or_else(|| panic!("engine says over, library disagrees: {}", pos.fen()));
            let expected = format!("info string result {} {{{}}}", o.result.as_str(), o.reason);
            assert!(out.contains(&expected), "{expected} missing in {out:#?}");
            return (turns.len(), Some(expected));
        }
        assert!(
            game_outcome(&pos).is_none(),
            "engine played on in a finished game: {}",
            pos.fen()
        );
        // A turn token is one or more portions joined by ';' (or one compound ply).
        turn::play(&mut pos, &best, Reading::Token, Extent::Start)
            .unwrap_or_else(|err| panic!("illegal {best} in {}: {err}", pos.fen()));
        turns.push(best);
    }
    (turns.len(), None)
}

fn play_games<G: Game>() {
    let mut e = Engine::start();
    let mut ended = 0;
    for _ in 0..2 {
        let (_, result) = self_play::<G>(&mut e, 1500, 400);
        ended += result.is_some() as usize;
    }
    // Draw rules (50 moves, repetition) bound every variant here: 400 turns end the game.
    assert!(
        ended > 0,
        "{}: no game ended within 400 turns",
        G::INFO.name
    );
}

#[test]
fn every_variant_plays_complete_games_through_the_protocol() {
    for &v in Variant::ALL {
        menagerie::with_variant!(v, G => play_games::<G>());
    }
}

/// Sends a position and `go`, returns everything up to `bestmove`.
fn go_at(e: &mut Engine, variant: &str, position: &str) -> Vec<String> {
    e.send(&format!("setoption name UCI_Variant value {variant}"));
    e.send(position);
    e.send("go depth 3");
    e.read_until(|l| l.starts_with("bestmove"), SEARCH)
}

#[test]
fn mystic_game_ends_through_the_protocol() {
    // rules/mystic.md 3: every way the game ends, seen through the protocol.
    let mut e = Engine::start();
    let cases = [
        // Checkmate: a knight's check that no drop can block.
        ("position fen 6rk/5Npp/8/8/8/8/8/K7 b - - 0 1 coins:5/5 bought:0/0", "info depth 0 score mate 0", "1-0 {checkmate}"),
        // Stalemate, with no coins to buy a blocker.
        ("position fen k7/2Q5/1K6/8/8/8/8/8 b - - 0 1 coins:0/0 bought:0/0", "info depth 0 score cp 0", "1/2-1/2 {stalemate}"),
        // Dead position with no coins (the example game's end).
        ("position fen 8/8/3k4/8/3K4/8/4B3/8 b - - 0 35 coins:0/0 bought:3/3", "info depth 0 score cp 0", "1/2-1/2 {insufficient material}"),
        // Fifty-move rule.
        ("position fen 4k3/8/8/8/8/8/8/R3K3 w - - 99 80 coins:0/0 bought:3/3 moves a1a2", "info depth 0 score cp 0", "1/2-1/2 {fifty-move rule}"),
        // Threefold repetition.
        (
            "position fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1 coins:0/0 bought:3/3 moves e1d1 e8d8 d1e1 d8e8 e1d1 e8d8 d1e1 d8e8",
            "info depth 0 score cp 0",
            "1/2-1/2 {threefold repetition}",
        ),
    ];
    for (position, score, result) in cases {
        let out = go_at(&mut e, "mystic", position);
        assert_game_over(&out, position, Some(score), result);
    }
    // With a coin left the lone Kings play on: a purchase is a legal action.
    let out = go_at(
        &mut e,
        "mystic",
        "position fen 8/8/3k4/8/3K4/8/4B3/8 b - - 0 35 coins:0/1 bought:3/3",
    );
    assert!(out.last().unwrap() != "bestmove (none)", "{out:#?}");
}

#[test]
fn mystic_search_blocks_a_check_with_a_purchase() {
    // Rook check on the a-file, b7/b8 covered: buying a Pawn on a5-a7 is the only defence
    // (rules/mystic.md 2: a drop may block a check), so the search must not see a mate.
    let mut e = Engine::start();
    let out = go_at(
        &mut e,
        "mystic",
        "position fen k7/8/8/8/8/8/1R6/R3K3 b - - 0 1 coins:0/3 bought:0/0",
    );
    let best = bestmove(&out);
    assert!(
        ["P@a5", "P@a6", "P@a7"].contains(&best.as_str()),
        "{out:#?}"
    );
    assert!(!out.iter().any(|l| l.contains("score mate 0")), "{out:#?}");
}

/// `go perft N` through the protocol gives the counts of `tests/perft/<variant>.perft`
/// (design.md "When a variant is done", item 4), for every suite line and depth up to 200k nodes.
#[test]
fn go_perft_matches_the_suites() {
    let mut e = Engine::start();
    // Every variant of the registry, but Mulligan Stew, whose suite counts plies where
    // `go perft` counts turns (tests/perft.rs `mulliganstew_turns` checks its turns).
    for variant in Variant::ALL
        .iter()
        .map(|v| v.name())
        .filter(|&v| v != "mulliganstew")
    {
        let path = format!("{}/tests/perft/{variant}.perft", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let parts: Vec<&str> = line.split('|').map(str::trim).collect();
            for (i, count) in parts[2].split_whitespace().enumerate() {
                if count.parse::<u64>().unwrap() > 200_000 {
                    break;
                }
                e.send(&format!("position fen {}", parts[1]));
                let out = e.go_perft(i + 1);
                assert_eq!(
                    out.last().unwrap(),
                    &format!("Nodes searched: {count}"),
                    "{variant} {}",
                    parts[0]
                );
            }
        }
    }
}
