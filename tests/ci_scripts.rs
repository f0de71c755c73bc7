//! The CI scripts that guard the repository (scripts/ci/): `check_bench.sh` never passes without
//! comparing the bench total with a `Bench: <nodes>` line, in a shallow clone too.
//!
//! The script runs on a small repository made here (so the test does not depend on the depth
//! of this checkout), with a stand-in for the binary that prints a bench total.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("ci-scripts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `git args` in `dir`, which must succeed; its standard output.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=ci", "-c", "user.email=ci@example.com"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "protocol.file.allow=always",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs scripts/ci/check_bench.sh in `dir` with a stand-in binary whose bench total is
/// `total`.
fn check_bench(dir: &Path, total: u64) -> Output {
    let fake = dir.parent().unwrap().join(format!("fake-bench-{total}.sh"));
    std::fs::write(
        &fake,
        format!("#!/bin/sh\necho 'Total time (ms) : 1'\necho 'Nodes searched  : {total}'\n"),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/ci/check_bench.sh");
    Command::new("bash")
        .arg(script)
        .arg(&fake)
        .current_dir(dir)
        .output()
        .expect("bash runs")
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A repository whose `Bench:` line is two commits below its head, its clone of depth 1 (which
/// lacks that line), and that clone without its remote.
#[test]
fn check_bench_fetches_the_history_of_a_shallow_clone_or_fails() {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("skipped: no git");
        return;
    }
    let root = scratch("bench");
    let origin = root.join("origin");
    std::fs::create_dir_all(&origin).unwrap();
    git(&origin, &["init", "--quiet"]);
    for (i, message) in [
        "first",
        "search: a change of play\n\nBench: 1234567",
        "docs: no play changed",
        "tests: no play changed",
    ]
    .iter()
    .enumerate()
    {
        std::fs::write(origin.join("file"), format!("{i}\n")).unwrap();
        git(&origin, &["add", "file"]);
        git(&origin, &["commit", "--quiet", "-m", message]);
    }
    // The whole history: the total is checked.
    let out = check_bench(&origin, 1234567);
    assert!(out.status.success(), "{}", text(&out));
    let out = check_bench(&origin, 1234568);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));

    // A clone of depth 1 has no Bench: line; the script fetches the rest and checks.
    let url = format!("file://{}", origin.display());
    git(
        &root,
        &["clone", "--quiet", "--depth", "1", &url, "shallow"],
    );
    let shallow = root.join("shallow");
    assert_eq!(
        git(&shallow, &["rev-parse", "--is-shallow-repository"]).trim(),
        "true"
    );
    assert_eq!(git(&shallow, &["log", "--format=%s"]).lines().count(), 1);
    let out = check_bench(&shallow, 1234568);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a wrong total passed: {}",
        text(&out)
    );
    assert!(
        text(&out).contains("differs from the last 'Bench: 1234567'"),
        "{}",
        text(&out)
    );
    assert_eq!(
        git(&shallow, &["rev-parse", "--is-shallow-repository"]).trim(),
        "false"
    );

    // A shallow clone that cannot fetch fails: it never passes unchecked.
    git(
        &root,
        &["clone", "--quiet", "--depth", "1", &url, "cut-off"],
    );
    let cut = root.join("cut-off");
    git(&cut, &["remote", "remove", "origin"]);
    let out = check_bench(&cut, 1234567);
    assert_eq!(
        out.status.code(),
        Some(1),
        "passed unchecked: {}",
        text(&out)
    );
    assert!(text(&out).contains("could not fetch"), "{}", text(&out));
    let _ = std::fs::remove_dir_all(&root);
}
