//! `setoption name EvalFile` (protocol.md 2, docs/networks.md): Mystic starts with its
//! compiled-in network; a network loaded from a file changes its evaluation; a bad file gets one
//! error line and the network in use stays; `<none>` goes back to the hand-written evaluation
//! and `<default>` to the compiled-in network; another variant refuses Mystic's file; chess's
//! network is replaced and restored the same way.

use std::time::Duration;

use menagerie::variants::mystic::Mystic;
use menagerie::variants::network::{NetInputs, Network, HIDDEN};

use crate::common::Engine;

/// A network file for Mystic whose output does not vanish: every weight set.
fn network_file(dir: &std::path::Path, bias: i32) -> std::path::PathBuf {
    let mut w1 = vec![[0i16; HIDDEN]; Mystic::INPUTS];
    for (i, row) in w1.iter_mut().enumerate() {
        for (j, w) in row.iter_mut().enumerate() {
            *w = ((i * 5 + j * 3) % 9) as i16 - 4;
        }
    }
    let mut w2 = [0i16; 2 * HIDDEN];
    for (j, w) in w2.iter_mut().enumerate() {
        *w = if j < HIDDEN { 20 } else { -10 };
    }
    let net = Network {
        variant: "mystic".into(),
        w1,
        b1: [60; HIDDEN],
        w2,
        b2: bias,
        out_scale: 400,
    };
    let path = dir.join(format!("net{bias}.nnv"));
    std::fs::write(&path, net.to_bytes()).unwrap();
    path
}

/// The `Network residual` figure of `eval`, if the report has one.
fn residual(e: &mut Engine) -> Option<i32> {
    e.command("eval")
        .iter()
        .find_map(|l| l.strip_prefix("Network residual (EvalFile, side to move): "))
        .map(|v| v.trim().parse().unwrap())
}

#[test]
fn a_network_file_changes_the_evaluation_and_bad_ones_change_nothing() {
    let dir = std::env::temp_dir().join(format!("menagerie-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = network_file(&dir, 0);
    let mut e = Engine::start_variant("mystic");
    e.command("position startpos moves e1d1");
    // Mystic starts with its compiled-in network; <none> takes it away.
    let default = residual(&mut e).expect("the compiled-in network");
    let answer = e.command("setoption name EvalFile value <none>");
    assert_eq!(
        answer,
        ["info string mystic: hand-written evaluation, no network"]
    );
    assert_eq!(residual(&mut e), None);
    let answer = e.command(&format!("setoption name EvalFile value {}", good.display()));
    assert_eq!(
        answer,
        [format!(
            "info string mystic: network {} ({} inputs, width {HIDDEN})",
            good.display(),
            Mystic::INPUTS
        )]
    );
    let with = residual(&mut e).expect("a residual with a network");
    assert_ne!(with, 0);
    // Refused files: one error line each, the network stays.
    let text = dir.join("text.nnv");
    std::fs::write(&text, "not a network").unwrap();
    let mut chess_shaped = b"MNV1\x05chess".to_vec();
    chess_shaped.extend_from_slice(&[0; 64]);
    let chess = dir.join("chess.nnv");
    std::fs::write(&chess, chess_shaped).unwrap();
    for (bad, why) in [
        (dir.join("absent.nnv"), "No such file"),
        (text, "no MNV1 header"),
        (chess, "a network for 'chess', not 'mystic'"),
    ] {
        let answer = e.command(&format!("setoption name EvalFile value {}", bad.display()));
        assert_eq!(answer.len(), 1, "{answer:?}");
        assert!(
            answer[0].starts_with("info string error EvalFile: "),
            "{answer:?}"
        );
        assert!(answer[0].contains(why), "{answer:?}");
        assert_eq!(residual(&mut e), Some(with));
    }
    // The search plays with it: a bestmove comes, and back to none.
    e.go("go depth 3", Duration::from_secs(30));
    let answer = e.command("setoption name EvalFile value <none>");
    assert_eq!(
        answer,
        ["info string mystic: hand-written evaluation, no network"]
    );
    assert_eq!(residual(&mut e), None);
    // <default> puts the compiled-in network back.
    let answer = e.command("setoption name EvalFile value <default>");
    assert_eq!(
        answer,
        [format!(
            "info string mystic: network <default> (compiled in, {} inputs, width {HIDDEN})",
            Mystic::INPUTS
        )]
    );
    assert_eq!(residual(&mut e), Some(default));
    // Another variant with network inputs refuses Mystic's file as another variant's.
    e.send("setoption name UCI_Variant value mulliganstew");
    let answer = e.command(&format!("setoption name EvalFile value {}", good.display()));
    assert!(
        answer
            .last()
            .unwrap()
            .contains("a network for 'mystic', not 'mulliganstew'"),
        "{answer:?}"
    );
    // Chess: Mystic's file refused, its own network taken away and put back like any.
    e.send("setoption name UCI_Variant value chess");
    e.command("position startpos moves e2e4");
    let chess_line = |e: &mut Engine| {
        e.command("eval")
            .into_iter()
            .find(|l| l.starts_with("Network residual: "))
            .expect("chess's eval reports the network")
    };
    let with_net = chess_line(&mut e);
    assert!(!with_net.contains("no network"), "{with_net}");
    let answer = e.command(&format!("setoption name EvalFile value {}", good.display()));
    assert!(
        answer[0].contains("a network for 'mystic', not 'chess'"),
        "{answer:?}"
    );
    let answer = e.command("setoption name EvalFile value <none>");
    assert_eq!(
        answer,
        ["info string chess: hand-written evaluation, no network"]
    );
    let without = chess_line(&mut e);
    assert!(
        without.starts_with("Network residual: 0 cp") && without.contains("no network"),
        "{without}"
    );
    e.go("go depth 4", Duration::from_secs(30));
    let answer = e.command("setoption name EvalFile value <default>");
    assert_eq!(
        answer,
        ["info string chess: network <default> (compiled in, 768 inputs, width 32)"]
    );
    assert_eq!(chess_line(&mut e), with_net);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Mutatis Mutandis, chess and Mulligan Stew skip their network records while no network is
/// loaded: plies
/// made under `EvalFile <none>`, then the compiled-in network put back, search exactly as in an
/// engine that always had it (same depth-5 line, score and node count: the sums are computed
/// afresh where the records were skipped, and kept from there on).
#[test]
fn plies_made_without_a_network_search_alike_once_it_is_back() {
    for (variant, plies) in [
        (
            "mutatismutandis",
            "position startpos moves b1a3 a7a5 g1f3 d7d5",
        ),
        ("chess", "position startpos moves e2e4 e7e5 g1f3 b8c6"),
        (
            "mulliganstew",
            "position startpos moves e2e3;f2f3 e6e5;f6f5",
        ),
    ] {
        plies_made_without_a_network_search_alike(variant, plies);
    }
}

fn plies_made_without_a_network_search_alike(variant: &str, plies: &str) {
    let mut fresh = Engine::start_variant(variant);
    fresh.command(plies);
    let want = fresh.go("go depth 5", Duration::from_secs(60));
    let mut switched = Engine::start_variant(variant);
    let answer = switched.command("setoption name EvalFile value <none>");
    assert!(
        answer
            .iter()
            .any(|l| l.ends_with("hand-written evaluation, no network")),
        "{answer:?}"
    );
    switched.command(plies);
    assert_eq!(switched.fen(), fresh.fen());
    switched.command("setoption name EvalFile value <default>");
    let got = switched.go("go depth 5", Duration::from_secs(60));
    let last_info = |out: &[String]| {
        out.iter()
            .rev()
            .find(|l| l.starts_with("info depth 5 "))
            .map(|l| {
                // The line without its timing words (time, nps, hashfull).
                let words: Vec<&str> = l.split_whitespace().collect();
                let mut kept = Vec::new();
                let mut i = 0;
                while i < words.len() {
                    if matches!(words[i], "time" | "nps" | "hashfull") {
                        i += 2;
                    } else {
                        kept.push(words[i]);
                        i += 1;
                    }
                }
                kept.join(" ")
            })
            .expect("a depth-5 line")
    };
    assert_eq!(last_info(&got), last_info(&want), "{variant}");
    assert!(last_info(&want).contains(" nodes "), "{}", last_info(&want));
}
