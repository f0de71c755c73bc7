//! Mutatis Mutandis as a whole game (design.md "When a variant is done"):
//! - random playouts from seeded setups: the legal turns equal a slow reference written from
//!   the rules (every drop re-tested, no cached attackers), make/unmake restores FEN and key,
//!   the incremental key equals the key of the FEN read back, tokens are unique and parse
//!   back, and a position without turns is over by rule (items 3, 5, 7);
//! - random setups (rules 3) are what the rules say and the same on every machine;
//! - through the protocol: every way the game ends, `setup`, and self-play from 20 setups
//!   (items 7, 9).

use crate::common;
use menagerie::variants::game_outcome;

use std::collections::{BTreeSet, HashSet};

use common::game::{assert_make_unmake, assert_tokens_round_trip, legal_moves};
use common::{assert_game_over, bestmove, run_binary_ok, Engine, SEARCH};

use menagerie::core::zobrist::SplitMix64;
use menagerie::core::Color;
use menagerie::variants::mutatis_mutandis::action::{ActionKind, NO_SQUARE};
use menagerie::variants::mutatis_mutandis::legal::royals;
use menagerie::variants::mutatis_mutandis::moves::MAX_MOVES;
use menagerie::variants::mutatis_mutandis::position::{corner_plan, flag, home_bb};
use menagerie::variants::mutatis_mutandis::setup::FAMILY_BASES;
use menagerie::variants::mutatis_mutandis::{
    attacked, generate, Action, ActionList, DropWindow, MutatisMove, MutatisMutandis, State,
};
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::turn::{self, Extent, Reading};
use menagerie::variants::{Notation, Rules};

fn bit(sq: u8) -> u64 {
    1u64 << sq
}

fn royal_attacked(p: &MutatisMutandis, c: Color) -> bool {
    let b = p.board();
    (0..64u8).any(|sq| royals(b, c) & bit(sq) != 0 && attacked(b, sq))
}

/// Cornering actions by rules 9 checked square by square (the table's squares come from
/// `corner_plan`, tested row by row in tests/mutatis_rules.rs).
fn reference_corners(p: &MutatisMutandis) -> Vec<Action> {
    let us = p.side_to_move();
    let b = p.board();
    let (fk, fa, fh) = flag::of(us.index());
    let mut out = Vec::new();
    if p.corner_flags() & fk == 0 {
        return out;
    }
    let row: u8 = if us == Color::White { 0 } else { 56 };
    let Some(king) = (row..row + 8).find(|&s| {
        b.piece(s)
            .is_some_and(|pc| pc.color == us && pc.state == State::King)
    }) else {
        return out;
    };
    if attacked(b, king) || b.frozen(us) & bit(king) != 0 {
        return out;
    }
    for (corner, f) in [(row, fa), (row + 7, fh)] {
        if p.corner_flags() & f == 0 || b.frozen(us) & bit(corner) != 0 {
            continue;
        }
        let Some((_, _, empty, safe)) = corner_plan(king, corner) else {
            continue;
        };
        if (0..64).any(|s| empty & bit(s) != 0 && b.piece(s).is_some()) {
            continue;
        }
        let passed_ok = (0..64u8)
            .filter(|&s| safe & bit(s) != 0 && s != king)
            .all(|s| {
                let mut c = b.clone();
                let k = c.remove(king).unwrap();
                c.put(s, k);
                !attacked(&c, s)
            });
        if passed_ok {
            out.push(Action {
                kind: ActionKind::Corner,
                from: king,
                to: corner,
                from2: NO_SQUARE,
                to2: NO_SQUARE,
                promotes: false,
                captures: 0,
            });
        }
    }
    out
}

/// The legal turns of `p` by rules 4, 5, 8 and 9 the slow way: every candidate turn is made on
/// a copy of the position and every royal tested; tokens returned sorted.
fn reference_turns(p: &MutatisMutandis) -> BTreeSet<String> {
    let us = p.side_to_move();
    let b = p.board();
    let mut actions = ActionList::new();
    generate(b, us, &mut actions);
    let compelled: Vec<u8> = (0..64u8)
        .filter(|&s| {
            b.piece(s)
                .is_some_and(|pc| pc.color == us && pc.state == State::Wuss)
                && attacked(b, s)
        })
        .collect();
    let mut all: Vec<Action> = actions.to_vec();
    if compelled.is_empty() {
        all.extend(reference_corners(p));
    }
    let window = p.drop_window(us);
    let own_royals = royals(b, us);
    let mut with_drop = BTreeSet::new();
    let mut without = BTreeSet::new();
    for a in all {
        if !compelled.is_empty() && !compelled.contains(&a.from) {
            continue;
        }
        if a.captures & own_royals != 0 {
            continue;
        }
        let bare = MutatisMove::new(a, NO_SQUARE);
        let mut q = p.clone();
        q.make(bare);
        if !royal_attacked(&q, us) {
            without.insert(p.move_token(bare));
        }
        // A drop needs an open window and a reserve piece left after the own promotion.
        let promoted_own = a.promotes
            && match a.kind {
                ActionKind::Sling => b.piece(a.from2),
                _ => b.piece(a.from),
            }
            .is_some_and(|pc| pc.color == us);
        let left = p.reserve(us).len() - usize::from(promoted_own && !p.reserve(us).is_empty());
        if window == DropWindow::Closed || left == 0 {
            continue;
        }
        for s in 0..64u8 {
            if home_bb(us) & bit(s) == 0 || q.board().piece(s).is_some() {
                continue;
            }
            let t = MutatisMove::new(a, s);
            let mut r = p.clone();
            r.make(t);
            if !royal_attacked(&r, us) {
                with_drop.insert(p.move_token(t));
            }
        }
    }
    if window == DropWindow::Mandatory && !with_drop.is_empty() {
        with_drop
    } else {
        with_drop.into_iter().chain(without).collect()
    }
}

fn key_from_scratch(p: &MutatisMutandis) -> u64 {
    MutatisMutandis::from_fen(&p.fen())
        .unwrap_or_else(|e| panic!("reached position does not read back: {}: {e}", p.fen()))
        .key()
}

#[test]
fn random_playouts_keep_every_invariant() {
    // design.md items 3, 5, 7; rules 4, 5, 8, 9, 11.
    let mut playout = Playout::new(0x6d6d, 90);
    let (mut positions, mut most, mut drops_seen, mut ended) = (0, 0, 0, 0);
    for seed in 0..24u64 {
        let mut p = MutatisMutandis::random_setup(seed).unwrap();
        playout.run(&mut p, |p, at| {
            let list = at.legal;
            most = most.max(list.len());
            let tokens: BTreeSet<String> = list.iter().map(|&m| p.move_token(m)).collect();
            assert_eq!(tokens.len(), list.len(), "duplicate tokens in {}", p.fen());
            assert_eq!(tokens, reference_turns(p), "legal turns of {}", p.fen());
            assert_tokens_round_trip(p, list);
            assert_make_unmake(p, list, key_from_scratch, |_| {});
            positions += 1;
            drops_seen += list.iter().filter(|t| t.has_drop()).count().min(1);
            if list.is_empty() {
                let o = game_outcome(p).expect("no legal turn ends the game (rules 5)");
                assert!(["checkmate", "wuss mate", "stalemate"].contains(&o.reason.as_str()));
                ended += 1;
            }
            Next::Random
        });
    }
    assert!(positions > 1500, "{positions}");
    assert!(drops_seen > 100, "drop windows reached: {drops_seen}");
    // The turn list's capacity stays far above what play produces.
    assert!(most < MAX_MOVES / 4, "{most} turns in one position");
    eprintln!(
        "{positions} positions, most turns {most}, drop positions {drops_seen}, ended {ended}"
    );
}

/// rules 12 along seeded random playouts from random setups: at every position each legal
/// turn's notation is its own after `normalize_pgn`, and `read_pgn_ply` (PGN import) reads it
/// back as that turn.
#[test]
fn notation_is_unique_and_reads_back_along_random_playouts() {
    let mut playout = Playout::new(0x5a12, 90);
    let (mut positions, mut turns, mut drops, mut coded, mut checks) = (0, 0, 0, 0, 0);
    let clock = std::time::Instant::now();
    for seed in 0..36u64 {
        let mut p = MutatisMutandis::random_setup(500 + seed).unwrap();
        playout.run(&mut p, |p, at| {
            let list = at.legal;
            if list.is_empty() {
                return Next::Stop;
            }
            let mut seen = HashSet::new();
            for &m in list.iter() {
                let written = p.pgn_move(m);
                assert!(
                    seen.insert(turn::normalize_pgn(&written)),
                    "two turns written {written} in {}",
                    p.fen()
                );
                assert_eq!(
                    turn::read_pgn_ply(p, &written),
                    Ok(m),
                    "{written} in {}",
                    p.fen()
                );
                // The mark says what the turn does to the opponent's royals (rules 5).
                p.make(m);
                let mark = if !p.in_check() {
                    ""
                } else if legal_moves(p).is_empty() {
                    "#"
                } else {
                    "+"
                };
                p.unmake();
                assert_eq!(
                    written.trim_end_matches(['+', '#']),
                    written.strip_suffix(mark).unwrap_or("-"),
                    "check mark of {written} in {}",
                    p.fen()
                );
                checks += usize::from(!mark.is_empty());
                drops += usize::from(written.contains(';'));
                coded += usize::from(written.starts_with(|c: char| c.is_ascii_uppercase()));
            }
            positions += 1;
            turns += list.len();
            Next::Random
        });
    }
    assert!(positions > 2500, "{positions}");
    assert!(
        drops > 1000 && coded > 10_000,
        "{drops} drops, {coded} coded"
    );
    assert!(checks > 100, "{checks} checks");
    eprintln!(
        "{positions} positions, {turns} turns, {drops} with a drop, {checks} checks, {:?}",
        clock.elapsed()
    );
}

#[test]
fn random_setups_follow_rules_3_and_are_reproducible() {
    // rules 3 [D 2, D 3]: per side a King on the home row, the 20 other families once each
    // (7 on the home row, 13 in the reserve, base states), 8 Pawns, every flag set.
    let mut king_files = [0u32; 8];
    for seed in 0..200u64 {
        let p = MutatisMutandis::random_setup(seed).unwrap();
        assert_eq!(p.fen().split(' ').nth(2), Some("KAHkah"));
        for c in Color::ALL {
            let b = p.board();
            let home: u8 = if c == Color::White { 0 } else { 56 };
            let pawns: u8 = if c == Color::White { 8 } else { 48 };
            let mut families: Vec<State> = p.reserve(c).pieces().to_vec();
            assert_eq!(families.len(), 13);
            for s in home..home + 8 {
                let pc = b.piece(s).unwrap();
                assert_eq!(pc.color, c);
                if pc.state == State::King {
                    king_files[(s - home) as usize] += 1;
                } else {
                    families.push(pc.state);
                }
            }
            for s in pawns..pawns + 8 {
                assert_eq!(b.piece(s).map(|x| x.state), Some(State::Pawn));
            }
            families.sort();
            let mut want = FAMILY_BASES.to_vec();
            want.sort();
            assert_eq!(families, want, "seed {seed}");
        }
    }
    assert!(king_files.iter().all(|&n| n > 10), "{king_files:?}");
    // The same seed gives the same setup on every machine (SplitMix64, fixed algorithm).
    assert_eq!(
        MutatisMutandis::random_setup(7).unwrap().fen(),
        "[ll][ma][pv][ch][cr]k[hn][gr]/pppppppp/8/8/8/8/PPPPPPPP/[OX][AR][DA]K[HN][NW][WI][LL] w KAHkah - 0 1 reserve:DK.GR.CR.PV.CH.AM.C.IM.NR.N.R.MA.Q/ox.nr.q.r.c.nw.da.am.im.wi.n.dk.ar drops:0/0 swapban:-"
    );
    assert_ne!(
        MutatisMutandis::random_setup(7).unwrap().fen(),
        MutatisMutandis::random_setup(8).unwrap().fen()
    );
}

#[test]
fn setup_from_the_command_line_and_the_protocol() {
    // `menagerie setup` and the protocol's `setup` agree with the library.
    let want = MutatisMutandis::random_setup(12345).unwrap().fen();
    let out = run_binary_ok(
        &["setup", "--variant", "mutatismutandis", "--seed", "12345"],
        b"",
    );
    assert_eq!(out.trim(), want);
    let mut e = Engine::start_variant("mutatismutandis");
    let answer = e.command("setup 12345");
    assert!(
        answer.contains(&format!("info string setup {want}")),
        "{answer:#?}"
    );
    let bad = e.command("setup -4");
    assert!(
        bad.iter().any(|l| l.starts_with("info string error")),
        "{bad:#?}"
    );
    // A GUI starts the game from it.
    e.send(&format!("position fen {want}"));
    assert_eq!(e.fen(), want);
}

#[test]
fn every_ending_through_the_protocol() {
    // rules 5; protocol.md 4: the result line and `bestmove (none)`.
    let mut e = Engine::start_variant("mutatismutandis");
    for (position, score, result) in [
        (
            "fen 7k/8/8/8/8/8/1r6/r6K w - - 0 1",
            "info depth 0 score mate 0",
            "0-1 {checkmate}",
        ),
        (
            "fen 7k/8/8/3[im]4/r2[WU]4/8/8/7K w - - 0 1",
            "info depth 0 score mate 0",
            "0-1 {wuss mate}",
        ),
        (
            "fen 7k/8/8/8/8/1q6/8/K7 w - - 0 1",
            "info depth 0 score cp 0",
            "1/2-1/2 {stalemate}",
        ),
        (
            "fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1 moves e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8",
            "info depth 0 score cp 0",
            "1/2-1/2 {threefold repetition}",
        ),
        (
            "fen 4k3/8/8/8/8/8/P7/R3K3 b - - 100 60",
            "info depth 0 score cp 0",
            "1/2-1/2 {fifty-move rule}",
        ),
    ] {
        e.send(&format!("position {position}"));
        let out = e.go("go depth 3", SEARCH);
        assert_game_over(&out, position, Some(score), result);
    }
}

#[test]
fn perft_and_turn_tokens_through_the_protocol() {
    // protocol.md 5, 6: `go perft` counts turns; `moves` lists whole turn tokens.
    let mut e = Engine::start_variant("mutatismutandis");
    e.send("position fen [ll]3k3/1p[wi]2p2/2[sw]2[im]2/[ad]2[CH]1[sh][cp]1/3[SW]4/2[OX]1[AC]3/1p1P2[MA]1/4K2R w KH - 0 11 reserve:N.GR/q.am drops:0/0 swapban:-");
    let out = e.go_perft(1);
    assert_eq!(out.last().unwrap(), "Nodes searched: 426");
    let moves = e.command("moves");
    let line = moves
        .iter()
        .find(|l| l.starts_with("info string moves "))
        .unwrap();
    assert_eq!(line.split_whitespace().count() - 3, 426);
    // A whole turn token is played as one turn.
    e.send("position fen [ll]3k3/1p[wi]2p2/2[sw]2[im]2/[ad]2[CH]1[sh][cp]1/3[SW]4/2[OX]1[AC]3/1p1P2[MA]1/4K2R w KH - 0 11 reserve:N.GR/q.am drops:0/0 swapban:- moves d2d3;N@a1");
    let fen = e.fen();
    let mut want = MutatisMutandis::from_fen("[ll]3k3/1p[wi]2p2/2[sw]2[im]2/[ad]2[CH]1[sh][cp]1/3[SW]4/2[OX]1[AC]3/1p1P2[MA]1/4K2R w KH - 0 11 reserve:N.GR/q.am drops:0/0 swapban:-").unwrap();
    turn::play(&mut want, "d2d3;N@a1", Reading::Token, Extent::Start).unwrap();
    assert_eq!(fen, want.fen());
    assert!(
        fen.contains("/N3K2R b KAH - 0 11 reserve:GR/q.am drops:1/0"),
        "{fen}"
    );
    // The drop was mandatory: the bare action is refused and the position kept.
    let err = e.command("position fen [ll]3k3/1p[wi]2p2/2[sw]2[im]2/[ad]2[CH]1[sh][cp]1/3[SW]4/2[OX]1[AC]3/1p1P2[MA]1/4K2R w KH - 0 11 reserve:N.GR/q.am drops:0/0 swapban:- moves d2d3");
    assert!(
        err.iter().any(|l| l.contains("illegal move d2d3")),
        "{err:#?}"
    );
    assert_eq!(e.fen(), fen);
}

#[test]
fn self_play_from_twenty_random_setups() {
    // Through the protocol at a small node budget, no error and no illegal move.
    let mut e = Engine::start_variant("mutatismutandis");
    let (mut turns_played, mut finished) = (0, 0);
    for seed in 0..20u64 {
        let start = MutatisMutandis::random_setup(1000 + seed).unwrap();
        let mut pos = start.clone();
        let mut turns: Vec<String> = Vec::new();
        e.send("ucinewgame");
        for _ in 0..60 {
            e.send(&format!(
                "position fen {} moves {}",
                start.fen(),
                turns.join(" ")
            ));
            let out = e.go("go nodes 300", SEARCH);
            assert!(
                !out.iter().any(|l| l.contains("info string error")),
                "{out:#?}"
            );
            let best = bestmove(&out);
            if best == "(none)" {
                assert!(game_outcome(&pos).is_some(), "{}", pos.fen());
                finished += 1;
                break;
            }
            turn::play(&mut pos, &best, Reading::Token, Extent::Start)
                .unwrap_or_else(|err| panic!("illegal {best} in {}: {err}", pos.fen()));
            turns.push(best);
            turns_played += 1;
        }
    }
    assert!(turns_played > 600, "{turns_played}");
    eprintln!("{turns_played} turns, {finished} games finished");
}

#[test]
fn the_side_to_move_wins_material_when_it_can() {
    // The evaluator and quiescence see implied captures: a Long Leaper jump wins the Queen.
    let mut e = Engine::start_variant("mutatismutandis");
    e.send("position fen 7k/8/8/8/3q4/8/8/[LL]6K w - - 0 1");
    let out = e.go("go depth 4", SEARCH);
    // Landing on e5 or f6 takes the Queen safely (g7 would stand next to the King).
    assert!(
        ["a1e5", "a1f6"].contains(&bestmove(&out).as_str()),
        "{out:#?}"
    );
}

#[test]
fn the_arena_gives_each_pair_its_own_seeded_setup() {
    // rules 3: each pair of games starts from a fresh seeded setup with
    // colours reversed, found through Rules::random_setup (the arena names no variant).
    use menagerie::tools::arena::referee::GameSettings;
    use menagerie::tools::arena::spec::player_names;
    use menagerie::tools::arena::spec::{Builtin, EngineSpec, Limit};
    use menagerie::tools::arena::{run_match, MatchConfig};
    let engines = [
        EngineSpec::Builtin(Builtin::Greedy),
        EngineSpec::Builtin(Builtin::Random),
    ];
    let cfg = MatchConfig {
        names: player_names(&engines),
        engines,
        games: 6,
        limits: [Limit::Nodes(1); 2],
        settings: GameSettings {
            margin_ms: 300,
            fixed_timeout_ms: 5_000,
            max_turns: 40,
            draw: None,
            resign: None,
        },
        concurrency: 1,
        random_plies: 0,
        openings: None,
        seed: 12,
        sprt: None,
        handshake_timeout_ms: 5_000,
        recover: false,
        shard: None,
    };
    let starts = |cfg: &MatchConfig| -> Vec<(usize, bool, String)> {
        let report = run_match::<MutatisMutandis>(cfg, &mut |_, _| {}, None).unwrap();
        let mut v: Vec<_> = report
            .games
            .iter()
            .map(|g| (g.index, g.first_is_white, g.record.start_fen.clone()))
            .collect();
        v.sort();
        v
    };
    let games = starts(&cfg);
    assert_eq!(games.len(), 6);
    let standard = MutatisMutandis::startpos().fen();
    for pair in games.chunks(2) {
        assert_eq!(
            pair[0].2, pair[1].2,
            "the two games of a pair share their start"
        );
        assert_ne!(pair[0].1, pair[1].1, "colours are reversed within a pair");
        assert_ne!(
            pair[0].2, standard,
            "a random setup, not the fixed example start"
        );
        let p = MutatisMutandis::from_fen(&pair[0].2).unwrap();
        assert_eq!(
            p.fullmove(),
            1,
            "a setup, not a position after random plies"
        );
    }
    let distinct: BTreeSet<&String> = games.iter().map(|g| &g.2).collect();
    assert_eq!(distinct.len(), 3, "each pair has its own setup");
    assert_eq!(games, starts(&cfg), "the same seed gives the same setups");
}

/// Rules 5 in check: on random boards where White's King is attacked, by every capture
/// mechanism and from every distance, the judged turn list (with its shortcuts: the attacker's
/// known way, the royal watch, drop squares tested only when they could matter) equals the
/// slow reference, with drop windows closed, open and mandatory.
#[test]
fn turns_in_check_agree_with_the_reference() {
    use crate::mutatis_properties::random_board;
    use menagerie::variants::mutatis_mutandis::tables::QUEEN_DIRS;
    use menagerie::variants::mutatis_mutandis::Piece;
    use std::collections::BTreeMap;

    // States placed on the King's lines to check it by each mechanism.
    const CHECKERS: [State; 12] = [
        State::Archer,
        State::Withdrawer,
        State::Advancer,
        State::Swapper,
        State::LongLeaper,
        State::Pawn,
        State::BerolinaPawn,
        State::Queen,
        State::Paovao,
        State::Secutor,
        State::Chameleon,
        State::Knight,
    ];
    let mut rng = SplitMix64::new(0x636b);
    let mut checkers: BTreeMap<State, usize> = BTreeMap::new();
    let (mut positions, mut with_drops) = (0, 0);
    for _ in 0..20000 {
        let mut b = random_board(&mut rng);
        for sq in 0..64u8 {
            if b.piece(sq).is_some_and(|p| p.state.is_royal()) {
                b.remove(sq);
            }
        }
        b.ep = None;
        let king = rng.below(64) as u8;
        b.put(king, Piece::new(Color::White, State::King));
        // A checker on one of the King's queen lines, 1 to 4 squares away.
        let (df, dr) = QUEEN_DIRS[rng.below(8) as usize];
        let dist = 1 + rng.below(4) as i32;
        let (f, r) = ((king % 8) as i32 + df * dist, (king / 8) as i32 + dr * dist);
        if (0..8).contains(&f) && (0..8).contains(&r) {
            let state = CHECKERS[rng.below(CHECKERS.len() as u64) as usize];
            b.put((r * 8 + f) as u8, Piece::new(Color::Black, state));
        }
        let empty: Vec<u8> = (0..64u8).filter(|&s| b.piece(s).is_none()).collect();
        if empty.is_empty() {
            continue;
        }
        b.put(
            empty[rng.below(empty.len() as u64) as usize],
            Piece::new(Color::Black, State::King),
        );
        // White's reserve, its window closed, open or mandatory by the full-move number.
        let full = 1 + rng.below(16);
        let fen = format!(
            "{} w - - 0 {full} reserve:SH.IM.N/r drops:0/0 swapban:-",
            b.fen_board()
        );
        let Ok(p) = MutatisMutandis::from_fen(&fen) else {
            continue;
        };
        if !royal_attacked(&p, Color::White) {
            continue;
        }
        // Which black pieces capture the King (by their actions).
        let mut actions = ActionList::new();
        generate(p.board(), Color::Black, &mut actions);
        for a in actions.iter().filter(|a| a.captures & bit(king) != 0) {
            let state = p.board().piece(a.from).unwrap().state;
            *checkers.entry(state).or_insert(0) += 1;
        }
        let list = legal_moves(&p);
        let tokens: BTreeSet<String> = list.iter().map(|&m| p.move_token(m)).collect();
        assert_eq!(tokens, reference_turns(&p), "legal turns of {fen}");
        positions += 1;
        with_drops += usize::from(p.drop_window(Color::White) != DropWindow::Closed);
    }
    assert!(
        positions > 3000 && with_drops > 1000,
        "{positions} {with_drops}"
    );
    for state in CHECKERS {
        assert!(
            checkers.get(&state).copied().unwrap_or(0) >= 15,
            "checks by {state:?}: {checkers:?}"
        );
    }
}
