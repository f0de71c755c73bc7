use super::params::s;
use super::params::EvalParams;
use super::*;
use crate::variants::chess::eval::{evaluate_with, report_with};
use crate::variants::chess::Chess;
use crate::variants::{Notation, Rules};

/// The hand-written evaluation alone (the residual network off), what these tests are about;
/// `chess/network.rs` tests the network and the search score.
static HCE: EvalParams = EvalParams {
    net_permille: 0,
    ..DEFAULT
};

/// Chess's evaluation without the network.
fn evaluate(pos: &Chess) -> i32 {
    evaluate_with(pos, &HCE)
}

/// Chess's report without the network.
fn report(pos: &Chess) -> String {
    report_with(pos, &HCE)
}

/// [`eval_white`] of a chess position.
fn eval_white_of<T: Trace>(pos: &Chess, p: &EvalParams, t: &mut T) -> (S, i32) {
    eval_white(pos.board(), pos.side_to_move(), p, t)
}

/// Varied positions: openings, middlegames, endgames, castling rights, en passant.
pub(crate) const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/P1N1PN2/1P3PPP/R1BQKB1R w KQ - 1 9",
    "2r3k1/5pp1/p3p2p/1p1n4/3P4/1B3P2/PP4PP/2R3K1 w - - 0 28",
    "8/5pk1/6p1/7p/P6P/6P1/5PK1/8 w - - 0 40",
    "8/8/4k3/3p4/3P4/4K3/8/8 b - - 0 50",
    "6k1/5ppp/8/8/8/8/1P3PPP/6K1 w - - 0 30",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "4k3/4P3/4K3/8/8/8/8/8 b - - 0 1",
    "8/8/8/8/8/5k2/4q3/6K1 w - - 0 70",
    "3r1rk1/1pq2ppp/p1n1pn2/2bp4/8/2NBPN2/PPQ2PPP/3R1RK1 w - - 0 14",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 1 7",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
    "2kr3r/ppp2ppp/2n5/2b1q3/4P1b1/2N2N2/PPP1QPPP/R1B2RK1 b - - 5 12",
    "8/1p3kp1/p1p2p1p/P1P2P1P/1P4P1/5K2/8/8 w - - 0 45",
    "r5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30",
    "1k6/1pp5/p7/8/8/P7/1PP5/1K6 w - - 0 35",
    "7k/P7/8/8/8/8/8/K7 w - - 0 60",
    "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3",
    "r2qkb1r/pp2pppp/2p2n2/3P4/3P2b1/2N2N2/PP3PPP/R1BQKB1R b KQkq - 0 7",
    "6k1/pp4p1/2p4p/3p4/3P1r2/2P2P1P/PP3RPK/8 b - - 0 33",
    "2q3k1/5pbp/6p1/8/8/6P1/5PBP/2Q3K1 w - - 0 25",
    "r3r1k1/pp3pbp/1qp1b1p1/2B5/2BP4/Q1n2N2/P4PPP/3R1K1R w - - 0 18",
];

/// The colour-flipped mirror of a FEN: board flipped vertically, colours and side to move
/// swapped, castling and en passant mirrored.
pub(crate) fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let board: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let stm = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let swapped: String = f[2]
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        // Canonical order: uppercase first.
        let mut up: String = swapped.chars().filter(|c| c.is_ascii_uppercase()).collect();
        up.extend(swapped.chars().filter(|c| c.is_ascii_lowercase()));
        up
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    let rest = f[4..].join(" ");
    format!("{} {} {} {} {}", board.join("/"), stm, castling, ep, rest)
        .trim_end()
        .to_string()
}

fn pos(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn mirror_fen_round_trips() {
    for fen in FENS {
        assert_eq!(mirror_fen(&mirror_fen(fen)), *fen);
    }
}

#[test]
fn symmetric_under_colour_flip() {
    for fen in FENS {
        let a = pos(fen);
        let b = pos(&mirror_fen(fen));
        assert_eq!(evaluate(&a), evaluate(&b), "{fen} vs {}", mirror_fen(fen));
    }
}

#[test]
fn start_position_is_worth_the_tempo() {
    let p = pos(FENS[0]);
    assert_eq!(evaluate(&p), DEFAULT.tempo.mg);
}

#[test]
fn extra_material_is_winning() {
    // White has an extra queen.
    let p = pos("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(evaluate(&p) > 800, "{}", evaluate(&p));
    // Same, Black to move: negative for the side to move.
    let p = pos("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert!(evaluate(&p) < -800);
}

#[test]
fn advanced_passer_beats_backward_one() {
    let far = evaluate(&pos("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1"));
    let near = evaluate(&pos("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1"));
    assert!(far > near + 80, "far {far} near {near}");
}

#[test]
fn king_close_to_passer_helps_in_endgame() {
    // White King escorting the b-pawn vs. White King far away (Black King equally placed).
    let escort = evaluate(&pos("7k/8/8/1PK5/8/8/8/8 w - - 0 1"));
    let away = evaluate(&pos("7k/8/8/1P6/8/8/8/7K w - - 0 1"));
    assert!(escort > away, "escort {escort} away {away}");
}

#[test]
fn doubled_isolated_pawns_cost() {
    let healthy = evaluate(&pos("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1"));
    let broken = evaluate(&pos("4k3/pppp4/8/8/8/2P5/P1P1P3/4K3 w - - 0 1"));
    assert!(healthy > broken + 20, "healthy {healthy} broken {broken}");
}

#[test]
fn king_shelter_and_attack_matter() {
    // The King-safety term (each side's attack on the enemy King plus its own shelter). In the
    // second position White's castled King has lost its pawn cover and Black's queen and
    // knight bear down on it.
    let king = |fen: &str| {
        let mut tab = Table::default();
        let (_, ph) = eval_white_of(&pos(fen), &DEFAULT, &mut tab);
        let [w, b] = tab.terms[Term::KingSafety as usize];
        taper(w - b, ph)
    };
    let safe = king("r4rk1/ppp2ppp/2nq4/8/8/2NQ4/PPP2PPP/R4RK1 w - - 0 1");
    let exposed = king("r4rk1/ppp2ppp/8/8/8/2NQ1n1q/PPP5/R4RK1 w - - 0 1");
    assert_eq!(safe, 0);
    assert!(exposed < -100, "exposed {exposed}");
}

#[test]
fn bishop_pair_and_open_file() {
    let t = |fen: &str| {
        let mut tab = Table::default();
        let _ = eval_white_of(&pos(fen), &DEFAULT, &mut tab);
        tab.terms[Term::Pieces as usize]
    };
    let pieces = t("4k3/8/8/8/8/8/8/2B1KB1R w - - 0 1");
    assert_eq!(pieces[0], DEFAULT.bishop_pair + DEFAULT.rook_open);
    let pieces = t("4k3/7p/8/8/8/8/8/4K2R w - - 0 1");
    assert_eq!(pieces[0], DEFAULT.rook_semi_open);
}

#[test]
fn report_matches_evaluate() {
    for fen in FENS {
        let p = pos(fen);
        let r = report(&p);
        for name in TERM_NAMES {
            assert!(r.contains(name), "{r}");
        }
        let want = format!("{} cp (side to move)", evaluate(&p));
        assert!(r.contains(&want), "{r}\nwant {want}");
    }
}

#[test]
fn parameters_round_trip_and_are_named_uniquely() {
    use crate::core::tunables::Tunables;
    let mut p = DEFAULT.clone();
    let v = p.values();
    let names = EvalParams::flat_names();
    assert_eq!(v.len(), names.len());
    assert!(v.len() > 800);
    let unique: std::collections::HashSet<_> = names.iter().collect();
    assert_eq!(unique.len(), names.len());
    p.set_values(&v).unwrap();
    assert_eq!(p, DEFAULT);
    assert_eq!(p.get("psqt[1][27].eg"), Some(DEFAULT.psqt[1][27].eg as i64));
    // Changing one parameter changes the evaluation through evaluate_with.
    let mut q = HCE.clone();
    q.set("tempo.mg", DEFAULT.tempo.mg as i64 + 7).unwrap();
    let start = pos(FENS[0]);
    assert_eq!(evaluate_with(&start, &q), evaluate(&start) + 7);
}

/// Positions reached by seeded random playouts from [`FENS`] (for symmetry and speed tests):
/// the positions after each ply.
fn playout_positions(games_per_fen: usize, plies: usize) -> Vec<Chess> {
    use crate::variants::playout::{Next, Playout};
    let mut playout = Playout::new(2024, plies);
    let mut out = Vec::new();
    for fen in FENS {
        for _ in 0..games_per_fen {
            let mut p = pos(fen);
            playout.run(&mut p, |p, at| {
                if at.ply > 0 {
                    out.push(p.clone());
                }
                Next::Random
            });
        }
    }
    out
}

#[test]
fn symmetric_along_random_playouts() {
    let positions = playout_positions(4, 80);
    assert!(positions.len() > 5_000);
    for p in &positions {
        let fen = p.fen();
        let m = pos(&mirror_fen(&fen));
        assert_eq!(evaluate(p), evaluate(&m), "{fen}");
    }
}

/// Prints the `eval` table for a few positions: `cargo test --release --lib show_reports --
/// --ignored --nocapture`.
#[test]
#[ignore]
fn show_reports() {
    for fen in [
        FENS[0],
        FENS[1],
        FENS[10],
        FENS[21],
        "r5k1/ppp2ppp/8/8/8/2NQ1n1q/PPP5/R4RK1 w - - 0 1",
    ] {
        println!("{fen}\n{}\n", report(&pos(fen)));
    }
}

#[test]
fn drawish_endgames_are_scaled_down() {
    // K+R v K+B without pawns: the rook's extra material is worth little.
    let rb = evaluate(&pos("8/8/4k3/3b4/8/8/3RK3/8 w - - 0 1"));
    assert!(rb > 0 && rb < 60, "{rb}");
    // Opposite-coloured bishops with a pawn more: half the endgame value of same-coloured.
    let ocb = evaluate(&pos("8/5k2/8/3b4/8/8/4PP2/4B1K1 w - - 0 1"));
    let scb = evaluate(&pos("8/5k2/3b4/8/8/8/4PP2/4B1K1 w - - 0 1"));
    assert!(ocb > 0 && ocb < scb * 2 / 3, "ocb {ocb} same {scb}");
}

/// [`DEFAULT`] with every threat, King-shelter and safe-check value zeroed, then `set` applied:
/// one term at a time can be checked against the values `set` chose.
fn isolated(set: impl FnOnce(&mut EvalParams)) -> EvalParams {
    let mut p = DEFAULT;
    p.threat_by_pawn = S::default();
    p.threat_by_minor = [S::default(); 5];
    p.threat_by_rook = [S::default(); 5];
    p.threat_by_king = S::default();
    p.hanging = S::default();
    p.restricted = S::default();
    p.threat_by_push = S::default();
    p.shield_close = S::default();
    p.shield_far = S::default();
    p.shield_missing = S::default();
    p.king_safe_check = [0; 5];
    set(&mut p);
    p
}

/// White's value of `term` in `fen` under the parameters `p`.
fn white_term(fen: &str, p: &EvalParams, term: Term) -> S {
    let mut tab = Table::default();
    let _ = eval_white_of(&pos(fen), p, &mut tab);
    tab.terms[term as usize][0]
}

const V: S = S { mg: 7, eg: 11 };

#[test]
fn pawn_threat_on_a_piece_counts() {
    let p = isolated(|p| p.threat_by_pawn = V);
    assert_eq!(
        white_term("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", &p, Term::Threats),
        V
    );
    // A pawn attacking a pawn is not a threat by pawn.
    assert_eq!(
        white_term("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", &p, Term::Threats),
        S::default()
    );
}

#[test]
fn minor_threats_count_protected_pieces_but_only_weak_pawns() {
    let p = isolated(|p| p.threat_by_minor = [s(1, 1), s(2, 2), s(3, 3), V, s(5, 5)]);
    // A rook defended by a pawn, attacked by a knight: counted (rook index 3).
    assert_eq!(
        white_term("4k3/8/4p3/3r4/8/4N3/8/4K3 w - - 0 1", &p, Term::Threats),
        V
    );
    // A loose pawn attacked by a knight counts; a pawn defended by a pawn does not.
    assert_eq!(
        white_term("4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1", &p, Term::Threats),
        s(1, 1)
    );
    assert_eq!(
        white_term("4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1", &p, Term::Threats),
        S::default()
    );
}

#[test]
fn rook_threats_need_a_weak_target() {
    let p = isolated(|p| p.threat_by_rook = [s(1, 1), V, s(3, 3), s(4, 4), s(5, 5)]);
    assert_eq!(
        white_term("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", &p, Term::Threats),
        V
    );
    // Defended by a pawn: strongly protected, no rook threat.
    assert_eq!(
        white_term("4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1", &p, Term::Threats),
        S::default()
    );
}

#[test]
fn hanging_pieces_and_king_threats() {
    let p = isolated(|p| p.hanging = V);
    // Undefended and attacked.
    assert_eq!(
        white_term("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", &p, Term::Threats),
        V
    );
    // Defended once (by the King), attacked twice (knight and rook): still hanging.
    assert_eq!(
        white_term("8/8/4k3/3n4/8/4N3/8/3RK3 w - - 0 1", &p, Term::Threats),
        V
    );
    // Defended once, attacked once: not hanging.
    assert_eq!(
        white_term("8/8/4k3/3n4/8/8/8/3RK3 w - - 0 1", &p, Term::Threats),
        S::default()
    );
    let p = isolated(|p| p.threat_by_king = V);
    assert_eq!(
        white_term("4k3/8/8/8/8/3n4/4K3/8 w - - 0 1", &p, Term::Threats),
        V
    );
}

#[test]
fn safe_pawn_pushes_that_attack_pieces() {
    let p = isolated(|p| p.threat_by_push = V);
    // d3-d4 would attack the knight on c5.
    assert_eq!(
        white_term("4k3/8/8/2n5/8/3P4/8/4K3 w - - 0 1", &p, Term::Threats),
        V
    );
    // d2-d4 (the double step; d3 is covered by the knight but d4 is not) attacks e5.
    assert_eq!(
        white_term("4k3/8/8/4n3/8/8/3P4/4K3 w - - 0 1", &p, Term::Threats),
        V
    );
    // The push square attacked by an enemy pawn: no threat.
    assert_eq!(
        white_term("4k3/8/8/2n1p3/8/3P4/8/4K3 w - - 0 1", &p, Term::Threats),
        S::default()
    );
}

#[test]
fn safe_checks_add_king_danger() {
    let p = isolated(|p| p.king_safe_check = [0, 40, 0, 0, 0]);
    let expected = s(
        (40 * 40 / p.king_danger_div).min(p.king_danger_max),
        40 / 16,
    );
    // The knight on g4 can check from f6 or h6, squares the black King does not cover.
    assert_eq!(
        white_term("6k1/8/8/8/6N1/8/8/6K1 w - - 0 1", &p, Term::KingSafety),
        expected
    );
    // Pawns on e7 and g7 cover f6 and h6: no safe check.
    assert_eq!(
        white_term("6k1/4p1p1/8/8/6N1/8/8/6K1 w - - 0 1", &p, Term::KingSafety),
        S::default()
    );
}

#[test]
fn connected_pawns_and_outposts() {
    let term = |fen: &str, term: Term| {
        let mut tab = Table::default();
        let _ = eval_white_of(&pos(fen), &DEFAULT, &mut tab);
        tab.terms[term as usize][0]
    };
    // d4 defended by c3, c3 itself not connected (no phalanx, not defended).
    assert_eq!(
        term("4k3/8/8/8/3P4/2P5/8/4K3 w - - 0 1", Term::Pawns),
        DEFAULT.connected[3]
    );
    // Phalanx d4-e4: both connected.
    assert_eq!(
        term("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", Term::Pawns),
        DEFAULT.connected[3] * 2
    );
    // Knight d5 defended by e4, no black pawn on c- or e-files ahead: an outpost.
    assert_eq!(
        term("4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1", Term::Pieces),
        DEFAULT.outpost_knight
    );
    // A black pawn on c7 can chase it away: no outpost.
    assert_eq!(
        term("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1", Term::Pieces),
        S::default()
    );
    // Mirrored for Black: knight d4 defended by e5.
    let mut tab = Table::default();
    let _ = eval_white_of(
        &pos("4k3/8/8/4p3/3n4/8/8/4K3 w - - 0 1"),
        &DEFAULT,
        &mut tab,
    );
    assert_eq!(tab.terms[Term::Pieces as usize][1], DEFAULT.outpost_knight);
}

#[test]
fn passed_pawn_path_terms() {
    let base = || {
        let mut p = DEFAULT;
        p.passed_blocked = S::default();
        p.passed_free_path = S::default();
        p.passed_safe_stop = S::default();
        p
    };
    // The d5 passer has rank weight 2 (relative rank index 4, minus 2).
    let gain = |fen: &str, set: fn(&mut EvalParams)| {
        let mut p = base();
        set(&mut p);
        white_term(fen, &p, Term::Passed) - white_term(fen, &base(), Term::Passed)
    };
    let free = "7k/8/8/3P4/8/8/8/4K3 w - - 0 1";
    let stop_only = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1";
    let blocked = "7k/8/3n4/3P4/8/8/8/4K3 w - - 0 1";
    assert_eq!(gain(free, |p| p.passed_free_path = V), V * 2);
    assert_eq!(gain(free, |p| p.passed_safe_stop = V), S::default());
    assert_eq!(gain(stop_only, |p| p.passed_safe_stop = V), V * 2);
    assert_eq!(gain(stop_only, |p| p.passed_free_path = V), S::default());
    assert_eq!(gain(blocked, |p| p.passed_blocked = V), V * 2);
    assert_eq!(gain(blocked, |p| p.passed_free_path = V), S::default());
}
