//! Build script: the commit the binary is built from, for the start-up banner.
//! `MENAGERIE_COMMIT` is `git rev-parse --short HEAD`, or `unknown` without git.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=MENAGERIE_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    // Rerun when HEAD moves: HEAD itself (a branch switch), the branch's ref (a commit) and
    // the packed refs. Paths come from git so that worktrees work too.
    for path in [
        git(&["rev-parse", "--git-path", "HEAD"]),
        git(&["rev-parse", "--symbolic-full-name", "HEAD"])
            .and_then(|r| git(&["rev-parse", "--git-path", &r])),
        git(&["rev-parse", "--git-path", "packed-refs"]),
    ]
    .into_iter()
    .flatten()
    .filter(|p| std::path::Path::new(p).exists())
    {
        println!("cargo:rerun-if-changed={path}");
    }
}
