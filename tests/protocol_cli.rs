//! The `menagerie` command line: `perft` and its errors (bench needs the search).

use std::process::{Command, Output};

fn menagerie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn perft_total_from_startpos() {
    let out = menagerie(&["perft", "--variant", "chess", "--depth", "3"]);
    assert!(out.status.success());
    assert!(
        stdout(&out).lines().any(|l| l == "Nodes searched: 8902"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn perft_divide_in_stockfish_format() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = menagerie(&[
        "perft",
        "--fen",
        kiwipete,
        "--depth",
        "2",
        "--divide",
        "--threads",
        "2",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 48 + 3, "{text}");
    assert_eq!(lines[48], "");
    assert_eq!(lines[49], "Nodes searched: 2039");
    assert!(text.ends_with("Nodes searched: 2039\n\n"));
}

#[test]
fn perft_by_plies_agrees_for_chess() {
    let out = menagerie(&[
        "perft",
        "--variant",
        "standard",
        "--depth",
        "2",
        "--unit",
        "ply",
    ]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("Nodes searched: 400"));
}

#[test]
fn bad_arguments_fail_without_panicking() {
    for args in [
        &["perft", "--depth", "2", "--fen", "not a fen"][..],
        &["perft", "--variant", "nosuch", "--depth", "2"],
        &["perft", "--depth", "0"],
        &["perft", "--depth", "x"],
        &["perft"],
        &["frobnicate"],
    ] {
        let out = menagerie(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !err.is_empty() && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

/// `menagerie variants` lists what the protocol offers: the same names, in the same order, as
/// the `var` values of the `UCI_Variant` combo, and each is accepted by `perft --variant`.
#[test]
fn variants_lists_the_uci_variant_values() {
    let out = menagerie(&["variants"]);
    assert!(out.status.success());
    let listed: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert!(listed.len() >= 6, "{listed:?}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the engine starts");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nquit\n")
        .unwrap();
    let uci = child.wait_with_output().unwrap();
    let combo = stdout(&uci)
        .lines()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .expect("UCI_Variant option")
        .to_string();
    let offered: Vec<String> = combo
        .split(" var ")
        .skip(1)
        .map(|v| v.trim().to_string())
        .collect();
    assert_eq!(listed, offered);
    for v in &listed {
        let perft = menagerie(&["perft", "--variant", v, "--depth", "1"]);
        assert!(perft.status.success(), "{v}: {}", stdout(&perft));
    }
}

/// `--help` (and `-h`) says that with no subcommand the binary is the engine,
/// speaking its protocol on stdin and stdout; `--version` (and `-V`) names the commit that the
/// engine's start-up banner names.
#[test]
fn help_and_version_say_what_the_binary_is() {
    for flag in ["--help", "-h"] {
        let out = menagerie(&[flag]);
        assert!(out.status.success(), "{flag}");
        // Lines may be wrapped anywhere: compare the words.
        let words = stdout(&out)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for said in [
            "With no subcommand the binary is the engine",
            "protocol",
            "on stdin and stdout",
        ] {
            assert!(
                words.contains(said),
                "{flag} does not say {said:?}: {words}"
            );
        }
    }
    // The commit of the banner, the engine's first line.
    let engine = crate::common::run_binary_ok(&[], b"quit\n");
    let banner = engine.lines().next().expect("a banner");
    let head = format!("menagerie {} (commit ", env!("CARGO_PKG_VERSION"));
    let commit = banner
        .strip_prefix(&head)
        .and_then(|rest| rest.split_once(')'))
        .map(|(commit, _)| commit)
        .unwrap_or_else(|| panic!("banner {banner:?}"));
    assert!(
        commit == "unknown" || (commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{banner}"
    );
    for flag in ["--version", "-V"] {
        let out = menagerie(&[flag]);
        assert!(out.status.success(), "{flag}");
        assert_eq!(
            stdout(&out).trim_end(),
            format!("{head}{commit})"),
            "{flag} against the banner {banner:?}"
        );
    }
}
