//! Mystic Chess (rules/mystic.md): economy, actions, FEN, the example game and its checkpoints.

use crate::common;
use menagerie::variants::game_outcome;
use menagerie::variants::StagedGeneration;

use common::game::{assert_refused, assert_tokens_round_trip, parse, play_plies, ply_tokens};
use common::{run_binary, run_binary_ok};
use menagerie::core::MoveList;
use menagerie::perft::perft;
use menagerie::variants::mystic::notation::{import_move, split_record};
use menagerie::variants::mystic::{Mystic, START_FEN};
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::{FenError, GameResult, Notation, Rules};

fn pos(fen: &str) -> Mystic {
    parse(fen)
}

const GAME_TOKENS: &str = "P@d2 P@d7 P@e2 P@f7 P@f3 P@e6 f3f3b e6e6b f3f3r e6e6r f3f3q f7f7b f3a8 e8e7 a8a3 P@d6 d2d2b f7h5 P@f3 d6d6b a3c3 h5h5r f3f3b h5c5 c3g7 e7d8 f3g4 e6e7 g7h8 d8c7 h8a1 c5c5q a1a5 c5a5 d2a5 c7c6 g4f3 c6b5 a5d2 e7h7 f3f3r h7h1 e1f2 h1h2 f2f1 d6d6r e2e2b b5b6 d2f4 h2h1 f1g2 d6h6 f4h6 h1h6 f3b3 b6c7 b3c3 h6c6 c3c6 c7c6 g2g3 c6c5 g3f4 d7d5 f4e5 d5d4 e5e4 c5d6 e4d4";

const GAME_RECORD: &str = "1.@d2 @d7 2.@e2 @f7 3.@f3 @e6 4.B@f3 B@e6 5.R@f3 R@e6 6.Q@f3 B@f7 7.Qa8+ Ke7 8.Qa3+ @d6 9.B@d2 Bh5 10.@f3 B@d6 11.Qc3 R@h5 12.B@f3 Rc5 13.Qg7+ Kd8 14.Bg4 Re7 15.Qh8+ Kc7 16.Qa1 Q@c5 18.Qa5+ Qxa5 19.Bxa5 Kc6 20.Bf3+ Kb5 21.Bd2 Rh7 22.R@f3 Rh1+ 23.Kf2 Rh2+ 24.Kf1 R@d6 25.B@e2+ Kb6 26.Bf4 Rh1+ 27.Kg2 Reh6 28.Bxh6 Rxh6 29.Rb3+ Kc7 30.Rc3+ Rc6 31.Rxc6+ Kxc6 32.Kg3 Kc5 33.Kf4 d5 34.Ke5 d4 35.Ke4 Kd6 36.Kxd4  1/2-1/2";

/// (plies played, FEN) checkpoints of rules/mystic.md 7 (printed move 17 is a numbering slip).
const CHECKPOINTS: &[(usize, &str)] = &[
    (
        6,
        "4k3/3p1p2/4p3/8/8/5P2/3PP3/4K3 w - - 0 4 coins:17/17 bought:3/3",
    ),
    (
        12,
        "4k3/3p1b2/4r3/8/8/5Q2/3PP3/4K3 w - - 0 7 coins:9/11 bought:3/3",
    ),
    (
        16,
        "8/3pkb2/3pr3/8/8/Q7/3PP3/4K3 w - - 0 9 coins:9/10 bought:3/3",
    ),
    (
        32,
        "8/2kpr3/3b4/2q5/6B1/8/3BP3/Q3K3 w - - 0 17 coins:4/2 bought:3/3",
    ),
    (
        34,
        "8/2kpr3/3b4/q7/6B1/8/3BP3/4K3 w - - 0 18 coins:4/2 bought:3/3",
    ),
    (
        46,
        "8/3p4/3r4/1k6/8/5R2/3BP2r/5K2 w - - 0 24 coins:2/0 bought:3/3",
    ),
    (
        48,
        "8/3p4/1k1r4/8/8/5R2/3BB2r/5K2 w - - 1 25 coins:0/0 bought:3/3",
    ),
    (
        64,
        "8/8/8/2kp4/5K2/8/4B3/8 w - d6 0 33 coins:0/0 bought:3/3",
    ),
    (69, "8/8/3k4/8/3K4/8/4B3/8 b - - 0 35 coins:0/0 bought:3/3"),
];

#[test]
fn start_position_and_fen_round_trip() {
    // rules/mystic.md 1, 4
    let p = Mystic::startpos();
    assert_eq!(p.fen(), START_FEN);
    for (_, fen) in CHECKPOINTS {
        assert_eq!(pos(fen).fen(), *fen);
    }
    // Missing tags take the start values.
    assert_eq!(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1").fen(), START_FEN);
}

#[test]
fn bad_fens_name_the_field() {
    for (fen, field) in [
        (
            "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1 coins:20/20 bought:0/0",
            "castling",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:21/20 bought:0/0",
            "coins",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:20 bought:0/0", "coins"),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:20/20 bought:4/0",
            "bought",
        ),
        // A Pawn bought costs a coin, so no more bought than coins spent.
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:20/18 bought:1/2",
            "bought",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:17/19 bought:3/2",
            "bought",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:20/20 gold:1/1", "tags"),
        ("4k3/8/8/8/8/8/8/NNNK4 w - - 0 1", "board"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
    ] {
        match Mystic::from_fen(fen) {
            Err(FenError { field: f, .. }) => assert_eq!(f, field, "{fen}"),
            Ok(_) => panic!("accepted {fen}"),
        }
    }
}

#[test]
fn start_actions_and_perft() {
    // rules/mystic.md 7: 5 King moves and 24 drops.
    let p = Mystic::startpos();
    let t = ply_tokens(&p);
    assert_eq!(t.len(), 29);
    assert_eq!(t.iter().filter(|s| s.starts_with("P@")).count(), 24);
    let mut p = p;
    assert_eq!(perft(&mut p, 1), 29);
    assert_eq!(perft(&mut p, 2), 841);
    assert_eq!(perft(&mut p, 3), 24714);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release-only")]
fn perft_depth_4() {
    let mut p = Mystic::startpos();
    assert_eq!(perft(&mut p, 4), 726168);
}

#[test]
fn drops_upgrades_and_their_conditions() {
    // rules/mystic.md 2: drop zones, buying costs a coin and counts, upgrades need 3 buys.
    let mut p = Mystic::startpos();
    play_plies(&mut p, "P@d2");
    assert_eq!(
        p.fen(),
        "4k3/8/8/8/8/8/3P4/4K3 b - - 0 1 coins:19/20 bought:1/0"
    );
    assert!(
        !ply_tokens(&p).contains(&"P@d4".to_string()),
        "Black drops on ranks 5-7 only"
    );
    assert!(ply_tokens(&p).contains(&"P@d5".to_string()));
    play_plies(&mut p, "P@d7 P@e2 P@f7");
    assert!(p.parse_move("d2d2b").is_err(), "two buys: no upgrade yet");
    play_plies(&mut p, "P@f3 P@e6");
    assert!(ply_tokens(&p).contains(&"f3f3b".to_string()));
    assert!(ply_tokens(&p).contains(&"f3f3n".to_string()));
    assert!(
        !ply_tokens(&p).contains(&"f3f3r".to_string()),
        "one step per action"
    );
    play_plies(&mut p, "f3f3n e6e6b");
    assert!(
        ply_tokens(&p).contains(&"f3f3r".to_string()),
        "N -> R is a step of the chain"
    );
    // Dropped pawns on the second rank may double-step, and the FEN ep field is then set.
    play_plies(&mut p, "d2d4");
    assert!(p.fen().contains(" d3 "), "{}", p.fen());
    // Stock: two knights at most.
    let p = pos("4k3/8/8/8/8/5P2/8/1N2K1N1 w - - 0 1 coins:11/17 bought:3/3");
    assert!(!ply_tokens(&p).contains(&"f3f3n".to_string()));
    assert!(ply_tokens(&p).contains(&"f3f3b".to_string()));
    // No coins, no actions but moves.
    let p = pos("4k3/8/8/8/8/5P2/8/4K3 w - - 0 1 coins:1/17 bought:3/3");
    assert!(
        !ply_tokens(&p).iter().any(|t| t.starts_with("f3f3")),
        "upgrade needs 2 coins"
    );
    assert!(ply_tokens(&p).iter().any(|t| t.starts_with("P@")));
}

#[test]
fn promotion_needs_stock() {
    // rules/mystic.md 2 and 6.6: no type available => the promoting move is illegal.
    let p = pos("8/4P3/3k4/8/8/8/8/QRRBBNNK w - - 0 1 coins:0/0 bought:3/3");
    assert!(!ply_tokens(&p).iter().any(|t| t.starts_with("e7e8")));
    let p = pos("8/4P3/3k4/8/8/8/8/1RRBBNNK w - - 0 1 coins:0/0 bought:3/3");
    let t = ply_tokens(&p);
    assert!(t.contains(&"e7e8q".to_string()) && !t.contains(&"e7e8r".to_string()));
}

#[test]
fn checks_drops_and_upgrades() {
    // rules/mystic.md 7: after 7.Qa8+ Black has one action; after 8.Qa3+ exactly seven.
    let mut p = Mystic::startpos();
    play_plies(
        &mut p,
        "P@d2 P@d7 P@e2 P@f7 P@f3 P@e6 f3f3b e6e6b f3f3r e6e6r f3f3q f7f7b f3a8",
    );
    assert_eq!(ply_tokens(&p), vec!["e8e7"]);
    play_plies(&mut p, "e8e7 a8a3");
    assert_eq!(
        ply_tokens(&p),
        vec!["P@c5", "P@d6", "d7d6", "e6d6", "e7d8", "e7e8", "e7f6"]
    );
}

#[test]
fn example_game_replays_with_checkpoints() {
    // rules/mystic.md 7: the 69 plies, every checkpoint, 0/0 coins, a dead-position draw.
    let mut p = Mystic::startpos();
    let moves: Vec<&str> = GAME_TOKENS.split_whitespace().collect();
    assert_eq!(moves.len(), 69);
    let mut next = 0;
    for (i, t) in moves.iter().enumerate() {
        assert!(game_outcome(&p).is_none(), "game over too early at ply {i}");
        let m = p
            .parse_move(t)
            .unwrap_or_else(|e| panic!("ply {} {t}: {e}", i + 1));
        p.make(m);
        if next < CHECKPOINTS.len() && CHECKPOINTS[next].0 == i + 1 {
            assert_eq!(p.fen(), CHECKPOINTS[next].1, "after ply {}", i + 1);
            next += 1;
        }
    }
    assert_eq!(next, CHECKPOINTS.len());
    let o = game_outcome(&p).expect("the game is over");
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::Draw, "insufficient material")
    );
}

#[test]
fn seed_notation_imports_to_the_canonical_tokens() {
    // rules/mystic.md 5 "Importing the seed's notation", including the Reh6 slip.
    let record = split_record(GAME_RECORD);
    assert_eq!(record.len(), 69);
    let expected: Vec<&str> = GAME_TOKENS.split_whitespace().collect();
    let mut p = Mystic::startpos();
    for (i, text) in record.iter().enumerate() {
        let m = import_move(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let token = p.move_token(m);
        if i + 1 == 52 || i + 1 == 54 {
            // Reh6 (ply 52) may be read as Rdh6 or Rhh6; Rxh6 (ply 54) is then the other Rook.
            assert!(token == "d6h6" || token == "h1h6", "{text}: {token}");
        } else {
            assert_eq!(token, expected[i], "ply {} ({text})", i + 1);
        }
        p.make(m);
    }
    assert_eq!(p.fen(), CHECKPOINTS.last().unwrap().1);
}

#[test]
fn coins_keep_the_game_alive() {
    // rules/mystic.md 3 and 6.8: K v K is dead only with no coins left.
    assert!(game_outcome(&pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:0/0 bought:0/0")).is_some());
    assert!(game_outcome(&pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1 coins:0/1 bought:0/0")).is_none());
}

#[test]
fn stalemate_and_checkmate_count_every_action() {
    // Not stalemated while a drop is possible; stalemated with no coins.
    let stuck = "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1";
    assert!(
        game_outcome(&pos(&format!("{stuck} coins:0/0 bought:0/0"))).map(|o| o.reason)
            == Some("stalemate".into())
    );
    assert!(game_outcome(&pos(&format!("{stuck} coins:0/1 bought:0/0"))).is_none());
    // A mate a drop cannot block (a knight's check) ends the game even with coins.
    let mate = pos("6rk/5Npp/8/8/8/8/8/K7 b - - 0 1 coins:5/5 bought:0/0");
    let o = game_outcome(&mate).unwrap();
    assert_eq!(
        (o.result, o.reason.as_str()),
        (GameResult::WhiteWins, "checkmate")
    );
    // A rook's check on the back rank can be blocked by a bought Pawn? Not on rank 8 (zone 5-7).
    let p = pos("3R2k1/5ppp/8/8/8/8/8/K7 b - - 0 1 coins:5/5 bought:0/0");
    assert_eq!(
        game_outcome(&p).map(|o| o.reason),
        Some("checkmate".to_string())
    );
    // A check along a file is blocked by a drop: no mate.
    let p = pos("6k1/8/8/8/8/8/6R1/K7 b - - 0 1 coins:1/1 bought:0/0");
    assert!(ply_tokens(&p).contains(&"P@g6".to_string()));
}

#[test]
fn tokens_round_trip_and_make_unmake() {
    let mut playout = Playout::new(11, 120);
    for _ in 0..30 {
        let mut p = Mystic::startpos();
        let mut fens = vec![p.fen()];
        playout.run(&mut p, |p, at| {
            if at.last.is_some() {
                assert_eq!(
                    Mystic::from_fen(&p.fen()).unwrap().key(),
                    p.key(),
                    "{}",
                    p.fen()
                );
                fens.push(p.fen());
            }
            let l = at.legal;
            if l.is_empty() {
                return Next::Stop;
            }
            assert_tokens_round_trip(p, l);
            for &m in l.iter() {
                p.make(m);
                assert_eq!(p.key(), p.compute_key(), "{}", p.fen());
                p.unmake();
                assert_eq!(&p.fen(), fens.last().unwrap());
            }
            Next::Random
        });
        while fens.len() > 1 {
            p.unmake();
            fens.pop();
            assert_eq!(&p.fen(), fens.last().unwrap());
        }
    }
}

#[test]
fn malformed_tokens() {
    let p = Mystic::startpos();
    assert_refused(&p, &["N@d2", "P@d9", "e1e1"], &["P@d5", "e1e1q"]);
}

/// The engine writes the seed's game as the seed does (rules/mystic.md 5), but where the seed
/// slipped: `27...Reh6` (the engine writes `Rdh6`, ply 52) and `19.Bxa5`, a check printed
/// without `+` (ply 35: the seed has no move 17).
#[test]
fn the_seed_game_is_written_in_its_own_notation() {
    let record = split_record(GAME_RECORD);
    let tokens: Vec<&str> = GAME_TOKENS.split_whitespace().collect();
    let mut p = Mystic::startpos();
    let mut differ = Vec::new();
    for (i, (text, token)) in record.iter().zip(&tokens).enumerate() {
        let m = p.parse_move(token).unwrap();
        let ours = p.pgn_move(m);
        // The seed marks captures with `x` or not at all: compare without them.
        if ours.replace('x', "") != text.replace('x', "") {
            differ.push((i + 1, text.clone(), ours));
        }
        // What the engine writes reads back as the same action.
        assert_eq!(
            menagerie::variants::turn::read_pgn_ply(&p, &p.pgn_move(m)),
            Ok(m)
        );
        p.make(m);
    }
    let plies: Vec<usize> = differ.iter().map(|d| d.0).collect();
    assert_eq!(plies, [35, 52], "{differ:?}");
}

#[test]
fn replay_of_the_seed_record_ends_drawn() {
    // rules/mystic.md 7 through the generic replay (menagerie replay).
    let r = menagerie::tools::replay::replay(&Mystic::startpos(), GAME_RECORD).unwrap();
    assert_eq!(r.plies.len(), 69);
    assert_eq!(r.final_fen, CHECKPOINTS.last().unwrap().1);
    assert_eq!(r.result, "1/2-1/2 {insufficient material}");
    for &(ply, fen) in &CHECKPOINTS[..CHECKPOINTS.len() - 1] {
        assert_eq!(r.plies[ply].fen_before, fen, "before ply {}", ply + 1);
    }
}

#[test]
fn replay_subcommand_prints_fens_and_result() {
    // `menagerie replay` on the seed record (rules/mystic.md 7): every checkpoint FEN appears.
    let replay = ["replay", "--variant", "mystic"];
    let text = run_binary_ok(&replay, GAME_RECORD.as_bytes());
    for (_, fen) in CHECKPOINTS {
        assert!(text.contains(&format!("fen {fen}\n")), "{fen}");
    }
    assert!(
        text.ends_with("result 1/2-1/2 {insufficient material}\n"),
        "{text}"
    );
    // A bad record fails with a message naming the ply.
    let out = run_binary(&replay, b"1.@d2 Qz9");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("ply 2"));
}

#[test]
fn tactical_moves_are_legal_and_tactical() {
    // Quiescence's generator: a subset of the legal actions, each one `is_tactical`, and
    // every legal move when in check (so drops that block a check are tried).
    let mut playout = Playout::new(5, 100);
    for _ in 0..20 {
        let mut p = Mystic::startpos();
        playout.run(&mut p, |p, at| {
            let legal = at.legal;
            if legal.is_empty() {
                return Next::Stop;
            }
            let mut tactical = MoveList::new();
            p.tactical_moves(&mut tactical);
            for m in &tactical {
                assert!(legal.contains(m), "{} in {}", p.move_token(*m), p.fen());
                if !p.in_check() {
                    assert!(p.is_tactical(*m), "{} in {}", p.move_token(*m), p.fen());
                }
            }
            if p.in_check() {
                assert_eq!(tactical.len(), legal.len(), "{}", p.fen());
            }
            Next::Random
        });
    }
    let q = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 coins:4/0 bought:3/3");
    let mut tactical = MoveList::new();
    q.tactical_moves(&mut tactical);
    assert_eq!(
        tactical
            .iter()
            .map(|&m| q.move_token(m))
            .collect::<Vec<_>>(),
        vec!["a1a1q"]
    );
}

/// `Rules::gives_check` (asked by the search before it prunes a ply) agrees with `in_check`
/// after the ply is made, for every legal ply along random games; purchases answer `None`,
/// board plies (but castling and en passant) always answer.
#[test]
fn gives_check_matches_in_check_after_make() {
    let mut playout = Playout::new(23, 160);
    let (mut checks, mut answered) = (0, 0);
    for _ in 0..60 {
        let mut p = Mystic::startpos();
        playout.run(&mut p, |p, at| {
            if at.legal.is_empty() || p.verdict(menagerie::variants::Scope::Game).is_some() {
                return Next::Stop;
            }
            for &m in at.legal.iter() {
                let hint = p.gives_check(m);
                p.make(m);
                let check = p.in_check();
                p.unmake();
                checks += usize::from(check);
                if let Some(h) = hint {
                    answered += 1;
                    assert_eq!(h, check, "{}: {}", p.fen(), p.move_token(m));
                } else if m.as_placement().is_none() {
                    let token = p.move_token(m);
                    assert!(
                        matches!(
                            m.as_move().kind(),
                            menagerie::variants::orthodox::MoveKind::Castle
                                | menagerie::variants::orthodox::MoveKind::EnPassant
                        ),
                        "no answer for {token} in {}",
                        p.fen()
                    );
                }
            }
            Next::Random
        });
    }
    assert!(
        checks > 100 && answered > 5_000,
        "{checks} checks, {answered} answered"
    );
}
